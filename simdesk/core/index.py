"""The SQLite segment index of one folder: documents, their fingerprints split into 4 indexed 16-bit blocks,
the editor's decisions, and the problems of the last scan.

One writer at a time (the scanning process); readers see committed data (WAL mode).
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import sqlite_utils

from simdesk.core import pairs as pairs_mod
from simdesk.core.fingerprint import hamming, to_signed, to_unsigned
from simdesk.core.records import Document, Problem

SCHEMA_VERSION = 6
NEAR_MAX_RADIUS = 16
BUSY_TIMEOUT_S = 10.0
BUSY_MESSAGE = "the index is busy: another simdesk is scanning this folder; try again when it has finished"

SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)
    """,
    """
    CREATE TABLE IF NOT EXISTS documents (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        content_hash TEXT NOT NULL,
        encoding TEXT NOT NULL,
        chars INTEGER NOT NULL,
        fingerprint INTEGER NOT NULL,
        b0 INTEGER NOT NULL, b1 INTEGER NOT NULL, b2 INTEGER NOT NULL, b3 INTEGER NOT NULL,
        lines BLOB NOT NULL DEFAULT x'',
        votes BLOB NOT NULL DEFAULT x'',
        clean_fp INTEGER,
        clean_key TEXT,
        paired_fp INTEGER
    )
    """,
    """
    CREATE INDEX IF NOT EXISTS documents_b0 ON documents(b0)
    """,
    """
    CREATE INDEX IF NOT EXISTS documents_b1 ON documents(b1)
    """,
    """
    CREATE INDEX IF NOT EXISTS documents_b2 ON documents(b2)
    """,
    """
    CREATE INDEX IF NOT EXISTS documents_b3 ON documents(b3)
    """,
    """
    CREATE TABLE IF NOT EXISTS problems (path TEXT PRIMARY KEY, error TEXT NOT NULL)
    """,
    """
    CREATE TABLE IF NOT EXISTS keep_marks (
        doc_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS trash_queue (
        doc_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS scores (
        a INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        b INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        score REAL NOT NULL,
        PRIMARY KEY (a, b), CHECK (a < b)
    ) WITHOUT ROWID
    """,
    """
    CREATE TRIGGER IF NOT EXISTS documents_content_changed
        AFTER UPDATE OF content_hash, fingerprint ON documents
        WHEN old.content_hash != new.content_hash OR old.fingerprint != new.fingerprint
    BEGIN
        DELETE FROM scores WHERE a = new.id OR b = new.id;
        UPDATE documents SET clean_fp = NULL, clean_key = NULL, paired_fp = NULL WHERE id = new.id;
    END
    """,
    """
    CREATE TABLE IF NOT EXISTS reviewed (
        keep_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        member_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        content_hash TEXT NOT NULL,
        PRIMARY KEY (keep_id, member_id)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE IF NOT EXISTS ignored_pairs (
        a INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        b INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        PRIMARY KEY (a, b), CHECK (a < b)
    )
    """,
)


class IndexError_(RuntimeError):
    """The index cannot be opened or used; the message says why and what to do."""


def blocks_of(fp: int) -> tuple[int, int, int, int]:
    return tuple((fp >> (16 * k)) & 0xFFFF for k in range(4))  # type: ignore[return-value]


@dataclass(frozen=True)
class Snapshot:
    """Every indexed document at one moment, as arrays (row i of each is document i)."""

    ids: np.ndarray  # int64
    fingerprints: np.ndarray  # uint64
    sizes: np.ndarray  # int64
    mtimes: np.ndarray  # int64
    chars: np.ndarray  # int64
    paths: list[str]
    hashes: list[str]
    encodings: list[str]

    def __len__(self) -> int:
        return len(self.ids)

    def document(self, i: int) -> Document:
        return Document(self.paths[i], int(self.sizes[i]), int(self.mtimes[i]), self.hashes[i],
                        self.encodings[i], int(self.chars[i]), int(self.fingerprints[i]))


class Index:
    """A folder's index in one SQLite file. Use as a context manager, or call close()."""

    def __init__(self, path: Path | str, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise IndexError_(f"no index at {self.path}: scan the folder first")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                   check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
        except sqlite3.DatabaseError as exc:
            raise IndexError_(f"the index {self.path} cannot be opened ({exc}); delete it to rebuild") from None
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        self.db = sqlite_utils.Database(conn)
        self.conn = conn
        self._ensure_schema()

    # -- schema -------------------------------------------------------------------------------------
    def _ensure_schema(self) -> None:
        version = self.meta("schema_version")
        if version is None and self.conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            # tables but no simdesk version: another program's database, never dropped nor misread
            self.conn.close()
            raise IndexError_(f"{self.path} is not a simdesk index; give another --db file, or delete it")
        if version is not None and version != str(SCHEMA_VERSION):
            # Older or newer layouts are never misread: the index is a cache of the folder, so it is rebuilt.
            self.rebuilt_reason = (f"the index {self.path} was written by another version of simdesk (schema "
                                   f"{version}, this one reads {SCHEMA_VERSION}): it is rebuilt from the folder, "
                                   "and earlier keep marks and 'not duplicates' decisions are dropped")
            self._drop_all()
        with self.transaction():
            for statement in SCHEMA:
                self.conn.execute(statement)
            self.set_meta("schema_version", str(SCHEMA_VERSION))

    def _drop_all(self) -> None:
        with self.transaction():
            for table in ("ignored_pairs", "reviewed", "keep_marks", "trash_queue", "scores", "problems", "documents",
                          "meta"):
                self.conn.execute(f"DROP TABLE IF EXISTS {table}")
        self.rebuilt = True

    rebuilt = False
    rebuilt_reason = ""  # the message for the editor when `rebuilt`

    def scan_lock(self) -> _ScanLock:
        """Held while a scan writes this index: a second scan fails at once with a 'busy' IndexError_.
        An OS lock on a file next to the index, released by the OS even when the scanning process is killed."""
        return _ScanLock(self.path.with_name(self.path.name + ".scan-lock"))

    # -- plumbing -----------------------------------------------------------------------------------
    def transaction(self):
        """A write transaction (BEGIN IMMEDIATE: a second writer waits, then fails with 'busy')."""
        return _Transaction(self.conn)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def meta(self, key: str) -> str | None:
        try:
            row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        except sqlite3.OperationalError:
            return None
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT INTO meta(key, value) VALUES (?, ?) "
                          "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))

    # -- documents ----------------------------------------------------------------------------------
    def count(self) -> int:
        return self.conn.execute("SELECT count(*) FROM documents WHERE size >= 0").fetchone()[0]

    def stored_states(self) -> dict[str, tuple[int, int, int, str]]:
        """path -> (id, size, mtime_ns, content_hash) for every indexed document."""
        rows = self.conn.execute("SELECT path, id, size, mtime_ns, content_hash FROM documents")
        return {path: (i, size, mtime, h) for path, i, size, mtime, h in rows}

    def upsert_documents(self, docs: Iterable[Document]) -> None:
        """Insert or update documents by path (call inside a transaction)."""
        rows = []
        for d in docs:
            b = blocks_of(d.fingerprint)
            rows.append((d.path, d.size, d.mtime_ns, d.content_hash, d.encoding, d.chars,
                         to_signed(d.fingerprint), *b, d.line_hashes, d.votes))
        self.conn.executemany(
            """INSERT INTO documents(path, size, mtime_ns, content_hash, encoding, chars, fingerprint, b0, b1, b2, b3,
                                     lines, votes)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT(path) DO UPDATE SET size=excluded.size, mtime_ns=excluded.mtime_ns,
                 content_hash=excluded.content_hash, encoding=excluded.encoding, chars=excluded.chars,
                 fingerprint=excluded.fingerprint, b0=excluded.b0, b1=excluded.b1, b2=excluded.b2, b3=excluded.b3,
                 lines=excluded.lines, votes=excluded.votes""",
            rows,
        )

    def move_document(self, old_path: str, new_path: str, size: int, mtime_ns: int) -> None:
        """A file moved with its content unchanged keeps its id, fingerprint and decisions."""
        self.conn.execute("DELETE FROM documents WHERE path = ?", (new_path,))
        self.conn.execute("UPDATE documents SET path = ?, size = ?, mtime_ns = ? WHERE path = ?",
                          (new_path, size, mtime_ns, old_path))

    def delete_paths(self, paths: Iterable[str]) -> None:
        self.conn.executemany("DELETE FROM documents WHERE path = ?", ((p,) for p in paths))

    def document(self, path: str) -> Document | None:
        row = self.conn.execute("SELECT path, size, mtime_ns, content_hash, encoding, chars, fingerprint "
                                "FROM documents WHERE path = ?", (path,)).fetchone()
        return _row_document(row) if row else None

    def documents(self) -> Iterator[Document]:
        rows = self.conn.execute("SELECT path, size, mtime_ns, content_hash, encoding, chars, fingerprint "
                                 "FROM documents WHERE size >= 0 ORDER BY path")
        for row in rows:
            yield _row_document(row)

    def snapshot(self) -> Snapshot:
        """All documents as arrays, ordered by path (one read of the table)."""
        rows = self.conn.execute("SELECT id, fingerprint, size, mtime_ns, chars, path, content_hash, encoding "
                                 "FROM documents WHERE size >= 0 ORDER BY path").fetchall()
        if not rows:
            e = np.empty(0, dtype=np.int64)
            return Snapshot(e, e.astype(np.uint64), e, e, e, [], [], [])
        ids, fps, sizes, mtimes, chars, paths, hashes, encs = zip(*rows)
        return Snapshot(np.array(ids, dtype=np.int64), np.array(fps, dtype=np.int64).view(np.uint64),
                        np.array(sizes, dtype=np.int64), np.array(mtimes, dtype=np.int64),
                        np.array(chars, dtype=np.int64), list(paths), list(hashes), list(encs))

    # -- problems -----------------------------------------------------------------------------------
    def replace_problems(self, problems: Iterable[Problem]) -> None:
        self.conn.execute("DELETE FROM problems")
        self.conn.executemany("INSERT OR REPLACE INTO problems(path, error) VALUES (?, ?)",
                              ((p.path, p.error) for p in problems))

    def problems(self) -> list[Problem]:
        return [Problem(p, e) for p, e in self.conn.execute("SELECT path, error FROM problems ORDER BY path")]

    # -- search -------------------------------------------------------------------------------------
    def near(self, fingerprint: int, radius: int) -> list[tuple[Document, int]]:
        """Every indexed document within `radius` bits of `fingerprint`, nearest first: [(document, distance)].

        Exact for any radius 0..16: each of the 4 blocks is probed for the values within radius // 4 bits of
        the query's block (pigeonhole: a document within `radius` is that close in at least one block).
        """
        if not 0 <= radius <= NEAR_MAX_RADIUS:
            raise ValueError(f"radius must be between 0 and {NEAR_MAX_RADIUS}, not {radius}")
        masks = pairs_mod.flip_masks(radius // 4).tolist()
        seen: dict[str, tuple[Document, int]] = {}
        for k, value in enumerate(blocks_of(fingerprint)):
            candidates = [value ^ m for m in masks]
            for start in range(0, len(candidates), 900):
                chunk = candidates[start:start + 900]
                marks = ",".join("?" * len(chunk))
                rows = self.conn.execute(
                    f"SELECT path, size, mtime_ns, content_hash, encoding, chars, fingerprint "
                    f"FROM documents WHERE b{k} IN ({marks}) AND size >= 0", chunk)
                for row in rows:
                    if row[0] in seen:
                        continue
                    d = hamming(to_unsigned(row[6]), fingerprint)
                    if d <= radius:
                        seen[row[0]] = (_row_document(row), d)
        return sorted(seen.values(), key=lambda item: (item[1], item[0].path))

    def pairs_within(self, radius: int, snapshot: Snapshot | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """All pairs of documents within `radius` bits, as (row i, row j, distance) arrays into `snapshot`
        (taken now when not given)."""
        snap = snapshot if snapshot is not None else self.snapshot()
        return pairs_mod.pairs_within(snap.fingerprints, radius)

    # -- analysis: boilerplate-free fingerprints and verified scores ----------------------------------
    def analysis_state(self) -> tuple[list[bytes], list[bytes], list[str | None], np.ndarray]:
        """For every snapshot row (path order): line hashes blob, votes blob, clean key, clean fingerprint
        (uint64; rows without one hold their plain fingerprint and a None key)."""
        rows = self.conn.execute("SELECT lines, votes, clean_key, coalesce(clean_fp, fingerprint) FROM documents "
                                 "WHERE size >= 0 ORDER BY path").fetchall()
        if not rows:
            return [], [], [], np.empty(0, dtype=np.uint64)
        lines, tallies, keys, fps = zip(*rows)
        return list(lines), list(tallies), list(keys), np.array(fps, dtype=np.int64).view(np.uint64)

    def set_clean_fingerprints(self, rows: Iterable[tuple[int, int, str]]) -> None:
        """(document id, boilerplate-free fingerprint, clean key) for each document recomputed."""
        rows = list(rows)
        with self.transaction():
            # what was searched and verified on the old boilerplate-free text is stale
            self.conn.executemany("UPDATE documents SET clean_fp = ?, clean_key = ?, paired_fp = NULL WHERE id = ?",
                                  ((to_signed(fp), key, doc_id) for doc_id, fp, key in rows))
            self.conn.executemany("DELETE FROM scores WHERE a = ? OR b = ?", ((d, d) for d, _, _ in rows))

    def paired_fingerprints(self) -> tuple[np.ndarray, np.ndarray]:
        """For every snapshot row: the boilerplate-free fingerprint its candidate pairs were last searched
        with (uint64), and whether there is one."""
        rows = self.conn.execute("SELECT coalesce(paired_fp, 0), paired_fp IS NOT NULL FROM documents "
                                 "WHERE size >= 0 ORDER BY path").fetchall()
        if not rows:
            return np.empty(0, dtype=np.uint64), np.empty(0, dtype=bool)
        fps, known = zip(*rows)
        return np.array(fps, dtype=np.int64).view(np.uint64), np.array(known, dtype=bool)

    def set_paired_fingerprints(self, rows: Iterable[tuple[int, int]]) -> None:
        """(document id, fingerprint) of documents whose candidate pairs are now all searched and scored."""
        with self.transaction():
            self.conn.executemany("UPDATE documents SET paired_fp = ? WHERE id = ?",
                                  ((to_signed(fp), doc_id) for doc_id, fp in rows))

    def forget_pairing(self) -> None:
        """Every document's candidates must be searched again (and every pair scored again)."""
        with self.transaction():
            self.conn.execute("UPDATE documents SET paired_fp = NULL")
            self.conn.execute("DELETE FROM scores")

    def scores(self) -> dict[tuple[int, int], float]:
        """Verified scores kept from earlier analyses, by (smaller id, larger id)."""
        return {(a, b): s for a, b, s in self.conn.execute("SELECT a, b, score FROM scores")}

    def store_scores(self, rows: Iterable[tuple[int, int, float]]) -> None:
        with self.transaction():
            self.conn.executemany("INSERT OR REPLACE INTO scores(a, b, score) VALUES (?, ?, ?)",
                                  ((min(a, b), max(a, b), s) for a, b, s in rows))

    # -- decisions ----------------------------------------------------------------------------------
    # keep_marks and trash_queue hold exclusive decisions: marking a document in one unmarks it in the other
    def _marked(self, table: str) -> set[str]:
        rows = self.conn.execute(f"SELECT d.path FROM {table} m JOIN documents d ON d.id = m.doc_id")
        return {r[0] for r in rows}

    def _set_mark(self, table: str, other: str, path: str, on: bool) -> None:
        doc_id = "(SELECT id FROM documents WHERE path = ?)"
        with self.transaction():
            if on:
                self.conn.execute(f"INSERT OR IGNORE INTO {table}(doc_id) SELECT id FROM documents WHERE path = ?",
                                  (path,))
                self.conn.execute(f"DELETE FROM {other} WHERE doc_id = {doc_id}", (path,))
            else:
                self.conn.execute(f"DELETE FROM {table} WHERE doc_id = {doc_id}", (path,))

    def keep_marks(self) -> set[str]:
        return self._marked("keep_marks")

    def set_keep(self, path: str, keep: bool) -> None:
        """Mark a document as the copy to keep (which takes it out of the trash queue), or unmark it."""
        self._set_mark("keep_marks", "trash_queue", path, keep)

    def reviewed(self) -> dict[str, dict[str, str]]:
        """For each copy marked to keep: the members of its group as the editor saw them when marking it
        (path -> content hash). A keep mark decides only for those (review.Decisions)."""
        out: dict[str, dict[str, str]] = {}
        rows = self.conn.execute("SELECT dk.path, dm.path, r.content_hash FROM reviewed r "
                                 "JOIN documents dk ON dk.id = r.keep_id JOIN documents dm ON dm.id = r.member_id")
        for keep, member, digest in rows:
            out.setdefault(keep, {})[member] = digest
        return out

    def set_reviewed(self, keep: str, members: dict[str, str]) -> None:
        """Replace what the editor saw when marking `keep` (members: path -> content hash; empty: nothing)."""
        with self.transaction():
            self.conn.execute("DELETE FROM reviewed WHERE keep_id = (SELECT id FROM documents WHERE path = ?)",
                              (keep,))
            self.conn.executemany(
                "INSERT OR REPLACE INTO reviewed(keep_id, member_id, content_hash) "
                "SELECT k.id, m.id, ? FROM documents k, documents m WHERE k.path = ? AND m.path = ?",
                [(digest, keep, member) for member, digest in members.items()])

    def queued_for_trash(self) -> set[str]:
        """Documents the editor queued for the trash (a decision kept across restarts, acted on only by an
        explicit clean-up)."""
        return self._marked("trash_queue")

    def set_queued_for_trash(self, path: str, queued: bool) -> None:
        """Queue a document for the trash (which unmarks it as the copy to keep), or take it off the queue."""
        self._set_mark("trash_queue", "keep_marks", path, queued)

    def ignored_pairs(self) -> set[tuple[str, str]]:
        rows = self.conn.execute("SELECT da.path, db.path FROM ignored_pairs p "
                                 "JOIN documents da ON da.id = p.a JOIN documents db ON db.id = p.b")
        return {tuple(sorted(r)) for r in rows}  # type: ignore[misc]

    def ignore_pair(self, path_a: str, path_b: str) -> None:
        """Record that two documents are not duplicates: they never group together again."""
        ids = [self.conn.execute("SELECT id FROM documents WHERE path = ?", (p,)).fetchone() for p in (path_a, path_b)]
        if None in ids:
            raise KeyError("both documents must be in the index")
        a, b = sorted((ids[0][0], ids[1][0]))
        if a == b:
            return
        with self.transaction():
            self.conn.execute("INSERT OR IGNORE INTO ignored_pairs(a, b) VALUES (?, ?)", (a, b))

    def integrity_ok(self) -> bool:
        return self.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def _row_document(row) -> Document:
    path, size, mtime, h, enc, chars, fp = row
    return Document(path, size, mtime, h, enc, chars, to_unsigned(fp))


class _ScanLock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.fh = None

    def __enter__(self) -> _ScanLock:
        try:
            import fcntl
        except ImportError:  # not on POSIX: SQLite's own locking still keeps the index sound
            return self
        self.fh = open(self.path, "a")
        try:
            fcntl.flock(self.fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.fh.close()
            self.fh = None
            raise IndexError_(BUSY_MESSAGE) from None
        return self

    def __exit__(self, *exc) -> None:
        if self.fh is not None:
            self.fh.close()  # closing releases the lock


class _Transaction:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.outer = False

    def __enter__(self) -> sqlite3.Connection:
        self.outer = not self.conn.in_transaction
        if self.outer:
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    raise IndexError_(BUSY_MESSAGE) from None
                raise
        return self.conn

    def __exit__(self, exc_type, exc, tb) -> None:
        if not self.outer:
            return
        if exc_type is None:
            self.conn.execute("COMMIT")
        else:
            self.conn.execute("ROLLBACK")
