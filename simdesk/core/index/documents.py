"""The index's documents: written by path as a scan reads them, read back one by one, in path order or as a
snapshot of arrays, and found by fingerprint (near: every document within a radius, exact); the problems of
the last scan; the SimHash votes this connection's scan wrote, for the analysis that follows."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import overload

import numpy as np

from simdesk.core.fingerprint.simhash import hamming, to_signed, to_unsigned
from simdesk.core.index.connection import IndexConnection, made_after
from simdesk.core.index.layout import (
    BAND_KEY_BYTES,
    COMMON_ENCODING,
    STORED_DDL,
    VOTES_DDL,
    segments_off,
    segments_remade,
)
from simdesk.core.index.segments import SEGMENT_LOW_BITS, UNSEGMENTED, segment_ids, segment_values
from simdesk.core.index.sqlite_library import sqlite_utils
from simdesk.core.records import Document, Problem

NEAR_MAX_RADIUS = 16
SNAPSHOT_ROWS = 50_000
# Documents written at once from which the segment table is made after them (Documents.segmented_after)
SEGMENTED_AFTER_ROWS = 100
DOCUMENT_COLUMNS = "path, size, mtime_ns, content_hash, encoding, chars, fingerprint"  # as written
# as read (Document's fields in order)
DOCUMENT_FIELDS = f"path, size, mtime_ns, content_hash, coalesce(encoding, '{COMMON_ENCODING}'), chars, fingerprint"


def _stored_keys(bands: list[bytes]) -> list[bytes]:
    """Band keys as the index keeps them: the low BAND_KEY_BYTES bytes of each little-endian uint32 key, of
    each document's keys (one array operation for them all: one per document was ~4 us a document)."""
    kept = np.frombuffer(b"".join(bands), dtype=np.uint8).reshape(-1, 4)[:, :BAND_KEY_BYTES].tobytes()
    ends = np.cumsum([len(b) // 4 * BAND_KEY_BYTES for b in bands]).tolist()
    return [kept[start:end] for start, end in zip([0, *ends], ends)]


class ContentHashes(Sequence[str]):
    """The content hashes of a snapshot's rows, kept as one array of their hex digits and given one by one as
    str: a list of a million hex strings took ~89 MB, the array 32 MB. `np.asarray()` of it is the array
    (bytes, in the order of the strings)."""

    __slots__ = ("digits",)

    def __init__(self, digits: np.ndarray) -> None:
        self.digits = digits  # dtype S: one row's hex digits each

    def __len__(self) -> int:
        return len(self.digits)

    @overload
    def __getitem__(self, k: int) -> str: ...
    @overload
    def __getitem__(self, k: slice) -> ContentHashes: ...
    def __getitem__(self, k: int | slice) -> str | ContentHashes:
        if isinstance(k, slice):
            return ContentHashes(self.digits[k])
        return str(self.digits[k].decode("ascii"))

    def __iter__(self) -> Iterator[str]:
        return (h.decode("ascii") for h in self.digits.tolist())

    def __array__(self, dtype: np.dtype | None = None, copy: bool | None = None) -> np.ndarray:
        return self.digits if dtype is None else self.digits.astype(dtype)


@dataclass(frozen=True)
class Snapshot:
    """Every indexed document at one moment, as arrays (row i of each is document i)."""

    ids: np.ndarray  # int64
    fingerprints: np.ndarray  # uint64
    sizes: np.ndarray  # int64
    mtimes: np.ndarray  # int64
    chars: np.ndarray  # int64
    paths: list[str]
    hashes: Sequence[str]  # ContentHashes when read from an index
    encodings: list[str]
    # the analysis's representative of each row's class of identical copies (copies.py), whose pairs the
    # others were given: a pair of two copies is looked up as the pair of their representatives (groups.py)
    copy_of: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def document(self, i: int) -> Document:
        return Document(
            self.paths[i],
            int(self.sizes[i]),
            int(self.mtimes[i]),
            self.hashes[i],
            self.encodings[i],
            int(self.chars[i]),
            int(self.fingerprints[i]),
        )


class Documents:
    """The documents of one open index. Writes run inside the caller's transaction (a scan writes many at once)."""

    written = 0  # documents inserted or updated on this connection (Index.pack_if_rewritten)

    def __init__(self, conn: IndexConnection, db: sqlite_utils.Database) -> None:
        self.conn = conn
        self.db = db

    def count(self) -> int:
        return self.conn.execute("SELECT count(*) FROM documents WHERE size >= 0").fetchone()[0]

    def stored_states(self) -> dict[str, tuple[int, int, int, str]]:
        """path -> (id, size, mtime_ns, content_hash) for every indexed document (size -1: to be read again)."""
        rows = self.conn.execute("SELECT path, id, size, mtime_ns, content_hash FROM documents")
        return {path: (i, size, mtime, h.hex()) for path, i, size, mtime, h in rows}

    def mark_all_stale(self) -> None:
        """Every document is read and fingerprinted again by the next scan (other feature settings)."""
        self.conn.execute("UPDATE documents SET size = -1")

    def upsert_documents(self, docs: Iterable[Document], indexed: set[str] | None = None) -> None:
        """Insert or update documents by path (call inside a transaction). `indexed`: content hashes of
        documents in the index other than these; a document holding one, or the hash of one before it in
        `docs`, is an identical copy and stays out of the segment table (UNSEGMENTED). The set is not changed."""
        docs = list(docs)
        self.written += len(docs)
        indexed = indexed or set()
        # these documents' hashes so far: `indexed` is looked in, never copied (a scan writes every second: a copy
        # of up to a million hashes each time, 30-60 ms, was ~10 s of CPU over a million documents' reading)
        seen: set[str] = set()
        copy = []
        for d in docs:
            copy.append(int(d.content_hash in indexed or d.content_hash in seen))
            seen.add(d.content_hash)
        # hand-written executemany, the scan's one write per file: sqlite-utils' upsert_all of the same rows
        # took 1.46x as long (20,000 documents inserted then all updated, best of 3: 1.73 s against 1.18 s)
        self.conn.executemany(
            f"""INSERT INTO documents({DOCUMENT_COLUMNS}, unsegmented) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT(path) DO UPDATE SET size=excluded.size, mtime_ns=excluded.mtime_ns,
                 content_hash=excluded.content_hash, encoding=excluded.encoding, chars=excluded.chars,
                 fingerprint=excluded.fingerprint, unsegmented=excluded.unsegmented""",
            [
                (
                    d.path,
                    d.size,
                    d.mtime_ns,
                    bytes.fromhex(d.content_hash),
                    None if d.encoding == COMMON_ENCODING else d.encoding,
                    d.chars,
                    to_signed(d.fingerprint),
                    c,
                )
                for d, c in zip(docs, copy)
            ],
        )
        self.conn.executemany(
            "INSERT OR REPLACE INTO line_hashes(doc_id, hashes) SELECT id, ? FROM documents WHERE path = ?",
            [(d.line_hashes, d.path) for d in docs if d.line_hashes],
        )
        self.conn.executemany(
            "DELETE FROM line_hashes WHERE doc_id = (SELECT id FROM documents WHERE path = ?)",
            [(d.path,) for d in docs if not d.line_hashes],
        )
        banded = [d for d in docs if d.bands]
        self.conn.executemany(
            "INSERT OR REPLACE INTO minhash_bands(doc_id, keys) SELECT id, ? FROM documents WHERE path = ?",
            list(zip(_stored_keys([d.bands for d in banded]), [d.path for d in banded])),
        )
        self.conn.executemany(
            "DELETE FROM minhash_bands WHERE doc_id = (SELECT id FROM documents WHERE path = ?)",
            [(d.path,) for d in docs if not d.bands],
        )
        self._votes_table()
        self.conn.executemany(
            "INSERT OR REPLACE INTO scan_votes(doc_id, votes) SELECT id, ? FROM documents WHERE path = ?",
            [(d.votes, d.path) for d in docs if d.line_hashes and d.votes],
        )

    @contextmanager
    def segmented_after(self, writing: int, min_rows: int = SEGMENTED_AFTER_ROWS) -> Iterator[None]:
        """For `writing` documents about to be written within: when they are at least `min_rows` and as many as
        the index holds (a first scan, a re-read of every file), the segment triggers are off meanwhile and the
        segment table is made again from all the documents once they are in (cancelled or failing too). Each
        trigger appended to four posting lists that grow with the index, and each commit wrote their pages
        again: writing 300,000 documents a transaction of 3,000 at a time wrote 777 MB to the disk with them,
        247 MB without (bench.store_writes). A kill in between leaves the table marked: the next writable open
        makes it (layout.segments_pending)."""
        if writing < min_rows or writing < self.count():
            yield
            return
        with made_after(self.conn, lambda: segments_off(self.conn), lambda: segments_remade(self.conn)):
            yield

    def _votes_table(self) -> None:
        for statement in VOTES_DDL:  # IF NOT EXISTS each time: a rolled-back transaction takes a new table with it
            self.conn.execute(statement)

    def _has_temp_table(self, name: str) -> bool:
        """Whether this connection's temporary table `name` exists now (a rollback of the transaction that
        made it removes it again: a flag kept here would not know)."""
        found = self.conn.execute("SELECT 1 FROM temp.sqlite_master WHERE type = 'table' AND name = ?", (name,))
        return found.fetchone() is not None

    def move_document(self, old_path: str, new_path: str, size: int, mtime_ns: int) -> None:
        """A file moved with its content unchanged keeps its id, fingerprint and decisions."""
        self.conn.execute("DELETE FROM documents WHERE path = ?", (new_path,))
        self.conn.execute(
            "UPDATE documents SET path = ?, size = ?, mtime_ns = ? WHERE path = ?", (new_path, size, mtime_ns, old_path)
        )

    def delete_paths(self, paths: Iterable[str]) -> None:
        self.conn.executemany("DELETE FROM documents WHERE path = ?", ((p,) for p in paths))

    def document(self, path: str) -> Document | None:
        row = self.conn.execute(
            f"SELECT {DOCUMENT_FIELDS} FROM documents WHERE path = ? AND size >= 0", (path,)
        ).fetchone()
        return _row_document(row) if row else None

    def documents(self) -> Iterator[Document]:
        rows = self.conn.execute(f"SELECT {DOCUMENT_FIELDS} FROM documents WHERE size >= 0 ORDER BY path")
        for row in rows:
            yield _row_document(row)

    def snapshot(self) -> Snapshot:
        """All documents as arrays, ordered by path (one read of the table, SNAPSHOT_ROWS rows at a time:
        fetching a million rows whole first doubled the memory the snapshot takes)."""
        cursor = self.conn.execute(
            f"SELECT id, fingerprint, size, mtime_ns, chars, path, content_hash, coalesce("
            f"encoding, '{COMMON_ENCODING}') FROM documents WHERE size >= 0 ORDER BY path"
        )
        numbers: list[np.ndarray] = []
        paths: list[str] = []
        hashes: list[np.ndarray] = []
        encodings: list[str] = []
        names: dict[str, str] = {}  # one string per encoding name, not one per document (~56 MB at 1M)
        while rows := cursor.fetchmany(SNAPSHOT_ROWS):
            columns = list(zip(*rows))
            numbers.append(np.array(columns[:5], dtype=np.int64))
            paths.extend(columns[5])
            hashes.append(np.array([x.hex() for x in columns[6]], dtype="S"))
            encodings.extend(names.setdefault(x, x) for x in columns[7])
        table = np.concatenate(numbers, axis=1) if numbers else np.empty((5, 0), dtype=np.int64)
        ids, fps, sizes, mtimes, chars = (np.ascontiguousarray(column) for column in table)
        digits = ContentHashes(np.concatenate(hashes) if hashes else np.zeros(0, dtype="S32"))
        return Snapshot(ids, fps.view(np.uint64), sizes, mtimes, chars, paths, digits, encodings)

    # -- problems -----------------------------------------------------------------------------------
    def replace_problems(self, problems: Iterable[Problem]) -> None:
        table = self.db.table("problems")
        table.delete_where()
        table.upsert_all(({"path": p.path, "error": p.error} for p in problems), pk="path")

    def problems(self) -> list[Problem]:
        return [Problem(p, e) for p, e in self.conn.execute("SELECT path, error FROM problems ORDER BY path")]

    # -- search -------------------------------------------------------------------------------------
    def near(self, fingerprint: int, radius: int) -> list[tuple[Document, int]]:
        """Every indexed document within `radius` bits of `fingerprint`, nearest first: [(document, distance)].

        Exact for any radius 0..16: each of the 4 blocks is probed for the values within radius // 4 bits of
        the query's block (pigeonhole: a document within `radius` is that close in at least one block): the
        segment rows of those values, each entry kept when its low bits are among theirs; and the documents
        the segment table leaves out (UNSEGMENTED: texts without features, identical copies), one by one.
        """
        if not 0 <= radius <= NEAR_MAX_RADIUS:
            raise ValueError(f"radius must be between 0 and {NEAR_MAX_RADIUS}, not {radius}")
        wanted = segment_values(fingerprint, radius // 4)
        keys = np.unique(wanted >> SEGMENT_LOW_BITS).tolist()
        found: list[np.ndarray] = []
        for start in range(0, len(keys), 900):
            chunk = keys[start : start + 900]
            # hand-written: lookups of the segment table's integer primary key
            rows = self.conn.execute(
                f"SELECT key, docs FROM segments WHERE key IN ({','.join('?' * len(chunk))})", chunk
            ).fetchall()
            if not rows:
                continue
            x = segment_ids("".join(docs for _, docs in rows))
            key = np.repeat([k for k, _ in rows], [len(docs) // 2 for _, docs in rows])
            low = (1 << SEGMENT_LOW_BITS) - 1
            found.append(x[np.isin((key << SEGMENT_LOW_BITS) | (x & low), wanted)] >> SEGMENT_LOW_BITS)
        # the documents the segment table leaves out (UNSEGMENTED), compared one by one
        found.append(
            np.array(
                [
                    doc_id
                    for doc_id, fp in self.conn.execute(
                        f"SELECT id, fingerprint FROM documents INDEXED BY documents_unsegmented WHERE {UNSEGMENTED}"
                    )
                    if hamming(to_unsigned(fp), fingerprint) <= radius
                ],
                dtype=np.int64,
            )
        )
        seen: dict[str, tuple[Document, int]] = {}
        ids = np.unique(np.concatenate(found)).tolist() if found else []
        for start in range(0, len(ids), 900):
            chunk = ids[start : start + 900]
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                f"SELECT {DOCUMENT_FIELDS} FROM documents WHERE id IN ({marks}) AND size >= 0", chunk
            )
            for row in rows:
                d = hamming(to_unsigned(row[6]), fingerprint)
                if d <= radius:
                    seen[row[0]] = (_row_document(row), d)
        return sorted(seen.values(), key=lambda item: (item[1], item[0].path))

    def scan_votes(self, ids: Iterable[int]) -> dict[int, bytes]:
        """The packed SimHash votes this connection's scans wrote, of those of the given documents that have
        them (none after the index was reopened: the analysis computes them again from the texts)."""
        self._votes_table()
        out: dict[int, bytes] = {}
        ids = list(ids)
        for start in range(0, len(ids), 900):
            chunk = ids[start : start + 900]
            out.update(
                self.conn.execute(
                    f"SELECT doc_id, votes FROM scan_votes WHERE doc_id IN ({','.join('?' * len(chunk))})", chunk
                )
            )
        return out

    def drop_scan_votes(self) -> None:
        """Forget the votes kept since the scan (the analysis has used them)."""
        if self._has_temp_table("scan_votes"):
            self.conn.execute("DELETE FROM scan_votes")

    def keep_stored_texts(self, rows: Iterable[tuple[str, int, int, int]]) -> None:
        """Keep where the scan pass stored what verification needs of each (path, file, offset, length) for the
        analysis that follows on this connection (STORED_DDL; call inside a transaction, after its document)."""
        rows = list(rows)
        if not rows:
            return
        for statement in STORED_DDL:  # IF NOT EXISTS each time, as _votes_table
            self.conn.execute(statement)
        self.conn.executemany(
            "INSERT OR REPLACE INTO scan_texts(doc_id, file, offset, length) SELECT id, ?, ?, ? FROM documents"
            " WHERE path = ?",
            [(file, offset, length, path) for path, file, offset, length in rows],
        )

    def stored_texts(self) -> np.ndarray:
        """keep_stored_texts' rows as (doc_id, file, offset, length), int64, by doc_id: none when the scans of
        this connection kept none."""
        if not self._has_temp_table("scan_texts"):
            return np.zeros((0, 4), dtype=np.int64)
        cursor = self.conn.execute("SELECT doc_id, file, offset, length FROM scan_texts ORDER BY doc_id")
        parts = [np.zeros((0, 4), dtype=np.int64)]  # SNAPSHOT_ROWS at a time, as the snapshot: no list of them all
        while rows := cursor.fetchmany(SNAPSHOT_ROWS):
            parts.append(np.array(rows, dtype=np.int64))
        return np.concatenate(parts)

    def drop_stored_texts(self) -> None:
        """Forget where the scan pass stored its texts (the store is removed)."""
        if self._has_temp_table("scan_texts"):
            self.conn.execute("DELETE FROM scan_texts")


def _row_document(row) -> Document:
    path, size, mtime, h, enc, chars, fp = row
    return Document(path, size, mtime, h.hex(), enc, chars, to_unsigned(fp))
