"""The SQLite segment index of one folder: documents and their fingerprints (each fingerprint's four 16-bit
blocks in a segment table of posting lists; identical copies and texts without features in a partial index), each document's candidate boilerplate line hashes, verified
scores, the editor's decisions, and the problems of the last scan.

One writer at a time (the scanning process); readers see committed data (WAL mode). A file is used as an
index only when it carries simdesk's application id and its `simdesk_meta` table (or is a simdesk index
from before the application id, recognised by its exact tables); any other file is refused before a byte
of it is written. sqlite-utils creates the tables and adds what a later layout adds; hand-written SQL is
kept for the hot paths (bulk writes, block probes), with the measured reason beside each.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from urllib.parse import quote

import numpy as np
import sqlite_utils
from sqlite_utils.db import ForeignKey

from simdesk.core.fingerprint.simhash import hamming, to_signed, to_unsigned
from simdesk.core.reading.boilerplate import LineHashes, boilerplate_set
from simdesk.core.records import Document, Problem, Relation

SCHEMA_VERSION = 10  # raised only for a change that is not additive (a new table or column needs no new version)
APPLICATION_ID = int.from_bytes(b"sdsk", "big")  # PRAGMA application_id: bytes 68-71 of the file
META = "simdesk_meta"
NEAR_MAX_RADIUS = 16
BUSY_TIMEOUT_S = 10.0
CACHE_KB = 65536
SNAPSHOT_ROWS = 50_000
PACK_FROM_ROWS = 20_000  # documents written on one connection before packing the file can be worth its time
# The segment table's row of block k holds the documents whose block value shares its top 16 - SEGMENT_LOW_BITS
# bits; each entry keeps the low bits beside the document id. Fewer, longer rows: 19.5 B a document at 20,000
# documents with 4 low bits, 23.3 with 3, 36.2 with none, against 43.2 for four expression indexes; 3 keeps room
# for 17.6 M document ids (MAX_DOCUMENT_ID) and rows of ~500 B at a million documents.
SEGMENT_LOW_BITS = 3
# Bytes kept of each 32-bit MinHash band key (minhash.text_bands), the low ones: 48 B a document instead of 64.
# At 200,000 documents (the large collection) 24-bit keys made 377,248 band pairs instead of 358,076 and
# 152,357 instead of 151,235 past the single-band gate: none lost, 1,122 more to verify, all rejected (highest
# similarity 0.16), 0.7% of the candidates; ~25 times as many at a million (random pairs grow as the square).
BAND_KEY_BYTES = 3
COMMON_ENCODING = "utf-8"  # stored as NULL (0 bytes; 80% of the medium collection's documents)
BUSY_MESSAGE = "the index is busy: another simdesk is scanning this folder; try again when it has finished"
SQLITE_MAGIC = b"SQLite format 3\x00"
# The tables of simdesk's layouts 1-6, written before the application id: a file with exactly these is ours
LEGACY_TABLES = {"meta", "documents", "problems", "keep_marks", "trash_queue", "scores", "ignored_pairs", "reviewed"}
LEGACY_COLUMNS = {"path", "size", "mtime_ns", "content_hash", "fingerprint", "b0", "b1", "b2", "b3"}


def _cascade(table: str, column: str) -> ForeignKey:
    return ForeignKey(table, column, "documents", "id", on_delete="CASCADE")


# Every table: sqlite-utils creates it, and adds the columns an older index lacks (additive changes keep data).
TABLES: dict[str, dict] = {
    META: dict(columns={"key": str, "value": str}, pk="key"),
    "documents": dict(
        # encoding: NULL for COMMON_ENCODING
        columns={
            "id": int,
            "path": str,
            "size": int,
            "mtime_ns": int,
            "content_hash": bytes,
            "encoding": str,
            "chars": int,
            "fingerprint": int,
            # 1: found through the partial index UNSEGMENTED_SQL, not the segment table (an identical copy of
            # a document indexed before it; 1 B a document)
            "unsegmented": int,
            # the boilerplate-free fingerprint (NULL: the plain one), whether it was computed without the
            # document's lines in `clean_boilerplate` (a flag: 0 bytes, where a key of those lines took 8),
            # and whether its candidate pairs were searched with it (a flag: the trigger below resets both
            # whenever either fingerprint changes)
            "clean_fp": int,
            "clean": int,
            "paired": int,
        },
        pk="id",
        not_null={"path", "size", "mtime_ns", "content_hash", "chars", "fingerprint", "clean", "paired", "unsegmented"},
        defaults={"clean": 0, "paired": 0, "unsegmented": 0},
    ),
    # only for documents with candidate boilerplate lines or notices: their sorted uint32 line hashes
    # (boilerplate.py; long lines, tagged by the low bit, add 0.4 B a document on the medium collection).
    # Their SimHash votes are not stored (132 B a document, more than the segment index): a scan keeps them
    # in a temporary table of its connection for the analysis that follows (VOTES_DDL), and a document whose
    # boilerplate changes later has its votes computed again from its text.
    "line_hashes": dict(
        columns={"doc_id": int, "hashes": bytes},
        pk="doc_id",
        not_null={"hashes"},
        foreign_keys=[_cascade("line_hashes", "doc_id")],
    ),
    # MinHash band keys of each document with shingles (minhash.text_bands, 16 keys of BAND_KEY_BYTES each), the
    # second candidate source; a table of their own keeps the documents' rows as small as they were
    "minhash_bands": dict(
        columns={"doc_id": int, "keys": bytes},
        pk="doc_id",
        not_null={"keys"},
        foreign_keys=[_cascade("minhash_bands", "doc_id")],
    ),
    # the boilerplate line hashes the documents flagged `clean` were fingerprinted without: one set for the
    # index (a few thousand hashes), from which each document's boilerplate is its line hashes within it
    "clean_boilerplate": dict(columns={"hash": int}, pk="hash"),
    # the segment index: key = block k and the top bits of its value, docs = a posting list (SEGMENT_SQL)
    "segments": dict(columns={"key": int, "docs": str}, pk="key", not_null={"docs"}),
    "problems": dict(columns={"path": str, "error": str}, pk="path", not_null={"error"}),
    "keep_marks": dict(columns={"doc_id": int}, pk="doc_id", foreign_keys=[_cascade("keep_marks", "doc_id")]),
    "trash_queue": dict(columns={"doc_id": int}, pk="doc_id", foreign_keys=[_cascade("trash_queue", "doc_id")]),
    "ignored_pairs": dict(
        columns={"a": int, "b": int},
        pk=("a", "b"),
        foreign_keys=[_cascade("ignored_pairs", "a"), _cascade("ignored_pairs", "b")],
    ),
    # for each copy marked to keep, the members of its group (and their content) as the editor saw them
    "reviewed": dict(
        columns={"keep_id": int, "member_id": int, "content_hash": str},
        pk=("keep_id", "member_id"),
        not_null={"content_hash"},
        foreign_keys=[_cascade("reviewed", "keep_id"), _cascade("reviewed", "member_id")],
    ),
}


# Documents that many others may share a fingerprint with are not in the segment table: each insert of one
# rewrote rows holding all the others (20,000 copies of 3 pages: 15 s of the scan's 65, quadratic). They are
# the texts without features (whitespace alone: fingerprint 0, all of them) and the identical copies of a
# document indexed before them (Index.upsert_documents); a partial index holds them alone (no byte for any
# other document, a B-tree insert each) and near() compares them one by one.
UNSEGMENTED = "fingerprint = 0 OR unsegmented"
UNSEGMENTED_SQL = f"CREATE INDEX IF NOT EXISTS documents_unsegmented ON documents(fingerprint) WHERE {UNSEGMENTED}"


def _segment_key(k: int, fingerprint: str) -> str:
    """The SQL expression of the segment key of block k (bits 16k..16k+15) of a stored fingerprint: k and the
    block's top 16 - SEGMENT_LOW_BITS bits. Index.near() computes the same keys in Python (_segment_values)."""
    high = 16 - SEGMENT_LOW_BITS
    return f"({k << high} | (({fingerprint} >> {16 * k + SEGMENT_LOW_BITS}) & {(1 << high) - 1}))"


def _segment_entry(k: int, doc_id: str, fingerprint: str) -> str:
    """The SQL expression of a document's entry in the posting list of block k: the number x = id << LOW_BITS |
    the block's low bits, as two characters, char(first(x // 127), 1 + x % 127), where first skips the surrogates.
    The first character is never ASCII and the second always is, so every entry is exactly two characters, a
    list is their concatenation in any order, and replace() of an entry's two characters removes that entry and
    nothing else (UTF-8 matches only whole characters). 3 bytes for x < 243,840, 4 below 8.05 M, 5 above; x must
    stay below 141 M (ids below 17.6 M: the insert trigger refuses more)."""
    x = f"(({doc_id} << {SEGMENT_LOW_BITS}) | (({fingerprint} >> {16 * k}) & {(1 << SEGMENT_LOW_BITS) - 1}))"
    return f"char(CASE WHEN {x} / 127 < 55168 THEN 128 + {x} / 127 ELSE 2176 + {x} / 127 END, 1 + {x} % 127)"


MAX_DOCUMENT_ID = (1_111_936 * 127) >> SEGMENT_LOW_BITS  # what _segment_entry can hold


def _segment_ids(docs: str) -> np.ndarray:
    """The numbers x (id << SEGMENT_LOW_BITS | low bits) of a posting list written by _segment_entry."""
    pairs = np.frombuffer(docs.encode("utf-32-le"), dtype="<u4").reshape(-1, 2).astype(np.int64)
    first = pairs[:, 0]
    return np.where(first < 0xD800, first - 128, first - 2176) * 127 + pairs[:, 1] - 1


def _segments_added(row: str) -> str:
    """The SQL statement that adds the entries of trigger row `row` ('new') to the segment table, unless the
    partial index UNSEGMENTED_SQL holds the document."""
    fp, doc_id = f"{row}.fingerprint", f"{row}.id"
    values = ", ".join(f"({_segment_key(k, fp)}, {_segment_entry(k, doc_id, fp)})" for k in range(4))
    return (
        f"INSERT INTO segments(key, docs) SELECT column1, column2 FROM (VALUES {values}) "
        f"WHERE NOT ({fp} = 0 OR {row}.unsegmented) "  # UNSEGMENTED
        "ON CONFLICT(key) DO UPDATE SET docs = docs || excluded.docs;"
    )


def _segments_removed(row: str) -> str:
    """The SQL statements that take the entries of trigger row `row` ('old') out of the segment table (and the
    rows they leave empty)."""
    fp, doc_id = f"{row}.fingerprint", f"{row}.id"
    updates = "".join(
        f"UPDATE segments SET docs = replace(docs, {_segment_entry(k, doc_id, fp)}, '') "
        f"WHERE key = {_segment_key(k, fp)}; "
        for k in range(4)
    )
    keys = ", ".join(_segment_key(k, fp) for k in range(4))
    return updates + f"DELETE FROM segments WHERE key IN ({keys}) AND docs = '';"


# The segment index is kept by triggers, so every write of a document (a scan, a migration, the restore of
# decisions, another SQLite client) keeps it exact. Posting lists instead of four expression indexes on the
# fingerprint's blocks: 45.9 -> 17.4 B a document at 200,000 documents (dbstat, 2026-11-24); writing 200,000
# documents took 6.1 s of CPU instead of 8.9 (a trigger appends to four short rows where four b-trees took a
# random insert each).
SEGMENT_SQL = (
    f"""CREATE TRIGGER IF NOT EXISTS segments_add AFTER INSERT ON documents
    BEGIN
        SELECT RAISE(ABORT, 'the index holds more documents than it can, {MAX_DOCUMENT_ID:,}')
            WHERE new.id >= {MAX_DOCUMENT_ID};
        {_segments_added("new")}
    END""",
    f"""CREATE TRIGGER IF NOT EXISTS segments_remove AFTER DELETE ON documents
    BEGIN
        {_segments_removed("old")}
    END""",
    f"""CREATE TRIGGER IF NOT EXISTS segments_move AFTER UPDATE OF fingerprint, unsegmented ON documents
        WHEN old.fingerprint != new.fingerprint OR old.unsegmented != new.unsegmented
    BEGIN
        {_segments_removed("old")}
        {_segments_added("new")}
    END""",
)
# Every document's entries at once (a migration; the triggers keep them from then on).
SEGMENTS_FROM_DOCUMENTS = "INSERT INTO segments(key, docs) " + " UNION ALL ".join(
    f"SELECT {_segment_key(k, 'fingerprint')} AS key, group_concat({_segment_entry(k, 'id', 'fingerprint')}, '') "
    f"FROM documents WHERE NOT ({UNSEGMENTED}) GROUP BY key"
    for k in range(4)
)


# Hand-written DDL where sqlite-utils has no word for it:
RAW_DDL = (
    *SEGMENT_SQL,
    UNSEGMENTED_SQL,
    # a pair's score keyed by the pair alone (WITHOUT ROWID): one b-tree instead of a table and its key index
    # and the shares of each text the other holds (verify.Relation: a_in_b, the share of a's text found in b's)
    """CREATE TABLE IF NOT EXISTS scores (
        a INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        b INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        score REAL NOT NULL,
        a_in_b REAL,
        b_in_a REAL,
        PRIMARY KEY (a, b), CHECK (a < b)
    ) WITHOUT ROWID""",
    # what was computed from a document's old text is stale as soon as its text changes
    """CREATE TRIGGER IF NOT EXISTS documents_content_changed
        AFTER UPDATE OF content_hash, fingerprint ON documents
        WHEN old.content_hash != new.content_hash OR old.fingerprint != new.fingerprint
    BEGIN
        DELETE FROM scores WHERE a = new.id OR b = new.id;
        UPDATE documents SET clean_fp = NULL, clean = 0, paired = 0 WHERE id = new.id;
    END""",
)

# The packed SimHash votes (fingerprint.pack_votes) of the documents this connection wrote, in SQLite's temporary
# database (a file of its own, gone when the connection closes): what the analysis after a scan subtracts
# boilerplate from, without keeping 132 B per document in the index. A document's row leaves with it.
VOTES_DDL = (
    "CREATE TEMP TABLE IF NOT EXISTS scan_votes (doc_id INTEGER PRIMARY KEY, votes BLOB NOT NULL)",
    """CREATE TEMP TRIGGER IF NOT EXISTS scan_votes_gone AFTER DELETE ON main.documents
    BEGIN DELETE FROM scan_votes WHERE doc_id = old.id; END""",
    """CREATE TEMP TRIGGER IF NOT EXISTS scan_votes_stale AFTER UPDATE OF content_hash ON main.documents
    WHEN old.content_hash != new.content_hash BEGIN DELETE FROM scan_votes WHERE doc_id = new.id; END""",
)

SCORE_SHARES = ("a_in_b", "b_in_a")  # the scores table's columns added after schema 10

DOCUMENT_COLUMNS = "path, size, mtime_ns, content_hash, encoding, chars, fingerprint"  # as written
# as read (Document's fields in order)
DOCUMENT_FIELDS = f"path, size, mtime_ns, content_hash, coalesce(encoding, '{COMMON_ENCODING}'), chars, fingerprint"


def _from_7(db: sqlite_utils.Database) -> None:
    """Schema 7 -> 8: each document's line hashes move to `line_hashes` and its stored SimHash votes are dropped
    (432 -> ~290 B per document at 200,000). Documents, fingerprints, boilerplate-free fingerprints, scores and
    decisions stay as they are; nothing is read again."""
    spec = TABLES["line_hashes"]
    db.table("line_hashes").create(
        spec["columns"], pk=spec["pk"], not_null=spec["not_null"], foreign_keys=spec["foreign_keys"]
    )
    db.execute("INSERT INTO line_hashes(doc_id, hashes) SELECT doc_id, lines FROM boilerplate_inputs")
    db.execute("DROP TABLE boilerplate_inputs")


def _from_8(db: sqlite_utils.Database) -> None:
    """Schema 8 -> 9: each document's clean key (8 B: a hash of the boilerplate lines its clean fingerprint was
    computed without) gives way to a flag and one set of boilerplate lines for the whole index. The set is the
    boilerplate of the documents as indexed (what the last analysis found, unless a scan came after it); a
    document whose key disagrees with its lines in that set is left unflagged, so the next analysis computes its
    clean fingerprint again. Fingerprints, scores and decisions stay; nothing is read again."""
    conn = db.conn
    rows = conn.execute(
        "SELECT d.id, d.clean_key, coalesce(l.hashes, x'') FROM documents d LEFT JOIN line_hashes l "
        "ON l.doc_id = d.id WHERE d.size >= 0"
    ).fetchall()
    lines = LineHashes.of([np.frombuffer(blob, dtype="<u4") for _, _, blob in rows])
    found = boilerplate_set([lines.values], len(rows))  # each row's hashes are unique: the flat array counts
    flagged = []
    for (doc_id, key, _), (_, hits) in zip(rows, lines.hits(found)):
        # the key schema 8 stored: blake2b (8 bytes) of the hits as a signed integer, 0 for none, NULL: not yet
        expected = (
            to_signed(int.from_bytes(hashlib.blake2b(hits.astype("<u4").tobytes(), digest_size=8).digest(), "big"))
            if len(hits)
            else 0
        )
        if key == expected:
            flagged.append((doc_id,))
    conn.execute("DROP TRIGGER IF EXISTS documents_content_changed")  # made again with the new column
    db.table("documents").add_column("clean", int, not_null_default=0)
    conn.executemany("UPDATE documents SET clean = 1 WHERE id = ?", flagged)
    conn.execute("ALTER TABLE documents DROP COLUMN clean_key")
    db.table("clean_boilerplate").create(TABLES["clean_boilerplate"]["columns"], pk="hash")
    conn.executemany("INSERT INTO clean_boilerplate(hash) VALUES (?)", ((h,) for h in sorted(found)))


def _from_9(db: sqlite_utils.Database) -> None:
    """Schema 9 -> 10: the four expression indexes on the fingerprint's blocks give way to the segment table of
    posting lists (kept by triggers from then on), the common encoding is stored as NULL and band keys as
    BAND_KEY_BYTES bytes. Documents, their ids, fingerprints, scores and decisions stay; nothing is read again."""
    conn = db.conn
    for k in range(4):
        conn.execute(f"DROP INDEX IF EXISTS documents_b{k}")
    # a column cannot lose NOT NULL in place: a new one takes the values (ALTER TABLE rewrites the rows where
    # they are: no table is dropped, so no ON DELETE CASCADE reaches the decisions)
    conn.execute("ALTER TABLE documents ADD COLUMN stored_encoding TEXT")
    conn.execute(f"UPDATE documents SET stored_encoding = nullif(encoding, '{COMMON_ENCODING}')")
    conn.execute("ALTER TABLE documents DROP COLUMN encoding")
    conn.execute("ALTER TABLE documents RENAME COLUMN stored_encoding TO encoding")
    spec = TABLES["segments"]
    db.table("segments").create(spec["columns"], pk=spec["pk"], not_null=spec["not_null"])
    if "unsegmented" not in db.table("documents").columns_dict:  # what SEGMENTS_FROM_DOCUMENTS reads
        db.table("documents").add_column("unsegmented", int, not_null_default=0)
    conn.execute(SEGMENTS_FROM_DOCUMENTS)
    # schema 9 kept 16 keys of 4 bytes (minhash.DESKTOP); the low BAND_KEY_BYTES of each stay. A pair whose keys
    # agree only in those bytes becomes a candidate when one of the two next changes (the kept pairs are not
    # searched again for it: such pairs are random and the verification rejects them, see BAND_KEY_BYTES)
    low = " || ".join(f"substr(keys, {4 * band + 1}, {BAND_KEY_BYTES})" for band in range(16))
    conn.execute(f"UPDATE minhash_bands SET keys = CAST({low} AS BLOB) WHERE length(keys) = 64")


# Layouts read in place (a stored schema version -> the step from it and the version it gives, up to this one);
# any other version is rebuilt
# from the folder with the decisions carried over (Index._upgrade).
MIGRATIONS = {"7": (_from_7, "8"), "8": (_from_8, "9"), "9": (_from_9, "10")}


class IndexError_(RuntimeError):
    """The index cannot be opened or used; the message says why and what to do, in one line."""


def blocks_of(fp: int) -> tuple[int, int, int, int]:
    return tuple((fp >> (16 * k)) & 0xFFFF for k in range(4))  # type: ignore[return-value]


def _segment_values(fingerprint: int, bits: int) -> np.ndarray:
    """k << 16 | v for every block k of `fingerprint` and every value v within `bits` bits of it (sorted): a
    segment row's key is such a value >> SEGMENT_LOW_BITS, and its entry's low bits complete it."""
    return np.unique(
        np.array(
            [(k << 16) | v for k, value in enumerate(blocks_of(fingerprint)) for v in _within_bits(value, bits)],
            dtype=np.int64,
        )
    )


def _stored_keys(bands: bytes) -> bytes:
    """Band keys as the index keeps them: the low BAND_KEY_BYTES bytes of each little-endian uint32 key."""
    return np.frombuffer(bands, dtype=np.uint8).reshape(-1, 4)[:, :BAND_KEY_BYTES].tobytes()


def _within_bits(value: int, bits: int) -> list[int]:
    """Every 16-bit value that differs from `value` in at most `bits` bits."""
    out = []
    for k in range(bits + 1):
        for positions in combinations(range(16), k):
            mask = 0
            for p in positions:
                mask |= 1 << p
            out.append(value ^ mask)
    return out


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


class Index:
    """A folder's index in one SQLite file. Use as a context manager, or call close().

    Raises IndexError_ (one line: why, and what to do) when the file is not a simdesk index, cannot be
    created or written (a read-only file or folder, a full disk) or is damaged, here or in any later call."""

    rebuilt = False
    _has_votes_table = False
    written = 0  # documents inserted or updated on this connection (pack_if_rewritten)
    rebuilt_reason = ""  # for the editor when `rebuilt`: why, and which decisions were migrated
    migrated_decisions = 0

    def __init__(self, path: Path | str, *, create: bool = True) -> None:
        self.path = Path(path)
        kind = _recognise(self.path)
        if kind == "new" and not create:
            raise IndexError_(f"no index at {self.path}: scan the folder first")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False, factory=_Connection
            )
        except (OSError, sqlite3.Error) as exc:
            raise _failure(exc, self.path) from None
        conn.index_path = self.path
        self.conn = conn
        self.db = sqlite_utils.Database(conn)
        try:
            conn.execute("PRAGMA foreign_keys=ON")
            if kind == "new":
                self._create()
            else:
                self._upgrade(kind)
            self.db.enable_wal()  # only now: the file is known to be simdesk's
            conn.execute("PRAGMA synchronous=NORMAL")
            # a page cache of up to 64 MB (SQLite's default is 2 MB): the path index and the segment table take
            # random inserts; writing 200,000 documents as a scan does took 8.5 s of CPU instead of 13.9 s
            conn.execute(f"PRAGMA cache_size = -{CACHE_KB}")
        except BaseException:
            conn.close()
            raise

    # -- schema -------------------------------------------------------------------------------------
    def _create(self) -> None:
        with self.transaction():
            self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._ensure_tables()
            self.set_meta("schema_version", str(SCHEMA_VERSION))

    def _ensure_tables(self) -> None:
        """Create what is missing: tables, their columns (sqlite-utils add_column), indexes, the triggers."""
        for name, spec in TABLES.items():
            table = self.db.table(name)
            if table.exists():
                have = set(table.columns_dict)
                for column, kind in spec["columns"].items():
                    if column not in have:
                        table.add_column(column, kind, not_null_default=spec.get("defaults", {}).get(column))
            else:
                table.create(
                    spec["columns"],
                    pk=spec["pk"],
                    not_null=spec.get("not_null"),
                    defaults=spec.get("defaults"),
                    foreign_keys=spec.get("foreign_keys"),
                )
        self.db.table("documents").create_index(["path"], index_name="documents_path", unique=True, if_not_exists=True)
        for name in self._stale_triggers():  # an older rule: made again below
            self.conn.execute(f'DROP TRIGGER "{name}"')
        for statement in RAW_DDL:
            self.conn.execute(statement)
        for column in SCORE_SHARES:  # an index of schema 10 scored pairs before the shares were kept
            if column not in self._score_columns():
                self.conn.execute(f"ALTER TABLE scores ADD COLUMN {column} REAL")

    def _score_columns(self) -> set[str]:
        return {row[1] for row in self.conn.execute("PRAGMA table_info(scores)")}

    def _stale_triggers(self) -> list[str]:
        """The triggers of this layout whose stored statement differs from the one this version writes (the
        segment triggers of before texts without features were left out of the segment table)."""
        wanted = {}
        for statement in RAW_DDL:
            words = statement.split()
            if words[:5] == ["CREATE", "TRIGGER", "IF", "NOT", "EXISTS"]:
                wanted[words[5]] = " ".join(words[:2] + words[5:])
        stored = self.conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
        return [name for name, sql in stored if name in wanted and " ".join(sql.split()) != wanted[name]]

    def _upgrade(self, kind: str) -> None:
        version = self._stored_version(kind)
        if kind == "ours" and version in MIGRATIONS:
            with self.transaction():
                while version in MIGRATIONS:
                    step, version = MIGRATIONS[version]
                    step(self.db)
                self._ensure_tables()  # indexes and triggers a step dropped
                self.set_meta("schema_version", str(SCHEMA_VERSION))
            self.conn.execute("VACUUM")  # give back the pages of what the migration dropped
        if version == str(SCHEMA_VERSION):
            if self._missing_tables_or_columns() or self._stale_triggers():
                with self.transaction():
                    self._ensure_tables()  # an additive change: nothing dropped, nothing to say
            return
        # Another layout is never misread: the documents are read again from the folder, and the editor's
        # decisions (by path) carried over to the new layout.
        with self.transaction():
            decisions = self._decisions_by_path()
            for name in self._user_tables():
                self.conn.execute(f'DROP TABLE "{name}"')
            self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._ensure_tables()
            self.set_meta("schema_version", str(SCHEMA_VERSION))
            self.migrated_decisions = self._restore_decisions(*decisions)
        self.rebuilt = True
        carried = (
            f"{self.migrated_decisions} keep marks, queued copies and 'not duplicates' decisions were migrated"
            if self.migrated_decisions
            else "there were no keep marks or 'not duplicates' decisions to migrate"
        )
        self.rebuilt_reason = (
            f"the index {self.path} was written by another version of simdesk (schema "
            f"{version}, this one reads {SCHEMA_VERSION}): its documents are read again from "
            f"the folder; {carried}"
        )

    def _stored_version(self, kind: str) -> str | None:
        table = "meta" if kind == "legacy" else META
        try:
            row = self.conn.execute(f"SELECT value FROM {table} WHERE key = 'schema_version'").fetchone()
        except sqlite3.OperationalError:
            row = None
        if row is None and kind == "ours":
            raise IndexError_(
                f"{self.path} is marked as a simdesk index but has no simdesk tables; simdesk does "
                "not write to it: give --db another file"
            )
        return row[0] if row else None

    def _user_tables(self) -> list[str]:
        return [
            r[0]
            for r in self.conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]

    def _missing_tables_or_columns(self) -> bool:
        for name, spec in TABLES.items():
            table = self.db.table(name)
            if not table.exists() or set(spec["columns"]) - set(table.columns_dict):
                return True
        return bool(set(SCORE_SHARES) - self._score_columns())

    def _decisions_by_path(self) -> tuple[list[str], list[str], list[tuple[str, str]], list[tuple[str, str, str]]]:
        """Keep marks, queued copies, 'not duplicates' pairs and what each keep mark was made on, of any
        simdesk layout, by path."""
        return decisions_by_path(self.conn)[:4]

    def restore_decisions(
        self, keep: list[str], queued: list[str], ignored: list[tuple[str, str]], seen: list[tuple[str, str, str]]
    ) -> int:
        """Decisions by path carried into this (new) index, as a migration carries them (index_rescue)."""
        with self.transaction():
            return self._restore_decisions(keep, queued, ignored, seen)

    def _restore_decisions(
        self, keep: list[str], queued: list[str], ignored: list[tuple[str, str]], seen: list[tuple[str, str, str]]
    ) -> int:
        """Decisions on documents not read yet: each gets a stale row (size -1) that the next scan fills in
        by path, keeping its id (or deletes, with the decisions, when the file is gone)."""
        paths = sorted(
            {*keep, *queued, *(p for pair in ignored for p in pair), *(p for k, m, _ in seen for p in (k, m))}
        )
        self.conn.executemany(
            "INSERT INTO documents(path, size, mtime_ns, content_hash, encoding, chars, "
            "fingerprint) VALUES (?, -1, 0, x'', '', 0, 0)",
            ((p,) for p in paths),
        )
        id_of = dict(self.conn.execute("SELECT path, id FROM documents"))
        self.conn.executemany("INSERT OR IGNORE INTO keep_marks(doc_id) VALUES (?)", ((id_of[p],) for p in keep))
        self.conn.executemany(
            "INSERT OR IGNORE INTO trash_queue(doc_id) VALUES (?)", ((id_of[p],) for p in queued if p not in set(keep))
        )
        self.conn.executemany(
            "INSERT OR IGNORE INTO ignored_pairs(a, b) VALUES (?, ?)",
            (sorted((id_of[a], id_of[b])) for a, b in ignored if a != b),
        )
        self.conn.executemany(
            "INSERT OR IGNORE INTO reviewed(keep_id, member_id, content_hash) VALUES (?, ?, ?)",
            ((id_of[k], id_of[m], h) for k, m, h in seen),
        )
        return sum(
            self.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("keep_marks", "trash_queue", "ignored_pairs")
        )

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
        row = self.conn.execute(f"SELECT value FROM {META} WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.db.table(META).upsert({"key": key, "value": value}, pk="key")

    def pack_if_rewritten(self, min_rows: int = PACK_FROM_ROWS) -> bool:
        """Rewrite the file compactly (VACUUM) when this connection wrote most of its documents (a first scan, a
        re-read of every file) and at least `min_rows` of them; returns whether it did. Rows that come in
        nearly in path order and then grow (the boilerplate-free fingerprints the analysis adds) leave pages
        part full: at 200,000 documents the file took 363.6 B per document before, 346.3 after, in 3.1 s of
        VACUUM under load 9. A failure (a full disk) leaves the file as it was and is not an error."""
        if self.written < min_rows or 2 * self.written < self.count():
            return False
        try:
            self.conn.execute("VACUUM")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the copy went through the WAL: give it back
        except IndexError_:
            return False
        self.written = 0
        return True

    # -- documents ----------------------------------------------------------------------------------
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
        seen = set(indexed or ())
        copy = []
        for d in docs:
            copy.append(int(d.content_hash in seen))
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
        self.conn.executemany(
            "INSERT OR REPLACE INTO minhash_bands(doc_id, keys) SELECT id, ? FROM documents WHERE path = ?",
            [(_stored_keys(d.bands), d.path) for d in docs if d.bands],
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

    def _votes_table(self) -> None:
        if not self._has_votes_table:
            for statement in VOTES_DDL:
                self.conn.execute(statement)
            self._has_votes_table = True

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
        hashes: list[str] = []
        encodings: list[str] = []
        names: dict[str, str] = {}  # one string per encoding name, not one per document (~56 MB at 1M)
        while rows := cursor.fetchmany(SNAPSHOT_ROWS):
            ids, fps, sizes, mtimes, chars, p, h, e = zip(*rows)
            numbers.append(np.array([ids, fps, sizes, mtimes, chars], dtype=np.int64))
            paths.extend(p)
            hashes.extend(x.hex() for x in h)
            encodings.extend(names.setdefault(x, x) for x in e)
        table = np.concatenate(numbers, axis=1) if numbers else np.empty((5, 0), dtype=np.int64)
        ids, fps, sizes, mtimes, chars = (np.ascontiguousarray(column) for column in table)
        return Snapshot(ids, fps.view(np.uint64), sizes, mtimes, chars, paths, hashes, encodings)

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
        wanted = _segment_values(fingerprint, radius // 4)
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
            x = _segment_ids("".join(docs for _, docs in rows))
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

    # -- analysis: boilerplate-free fingerprints and verified scores ----------------------------------
    def analysis_state(self) -> tuple[LineHashes, np.ndarray, np.ndarray]:
        """For every snapshot row (path order): its candidate boilerplate line hashes, whether its clean
        fingerprint was computed without its lines in `clean_boilerplate()` (bool), and its clean fingerprint
        (uint64; rows without one hold their plain fingerprint)."""
        rows = self.conn.execute(
            "SELECT coalesce(b.hashes, x''), d.clean, coalesce(d.clean_fp, d.fingerprint) "
            "FROM documents d LEFT JOIN line_hashes b ON b.doc_id = d.id WHERE d.size >= 0 ORDER BY d.path"
        )
        blobs = bytearray()
        lengths: list[int] = []
        clean: list[int] = []
        fps: list[int] = []
        for blob, flag, fp in rows:  # one growing buffer, not an array per document (~100 B each at 1M)
            blobs += blob
            lengths.append(len(blob) // 4)
            clean.append(flag)
            fps.append(fp)
        bounds = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=bounds[1:])
        return (
            LineHashes(np.frombuffer(bytes(blobs), dtype="<u4"), bounds),
            np.array(clean, dtype=bool),
            np.array(fps, dtype=np.int64).view(np.uint64),
        )

    def clean_boilerplate(self) -> frozenset[int]:
        """The boilerplate line hashes the documents flagged clean were fingerprinted without."""
        return frozenset(r[0] for r in self.conn.execute("SELECT hash FROM clean_boilerplate"))

    def band_keys(self, bands: int) -> tuple[np.ndarray, np.ndarray]:
        """For every snapshot row (path order): its MinHash band keys as stored (rows x `bands`, uint32, the low
        BAND_KEY_BYTES bytes of each) and whether it has none (no shingles, or indexed before band keys were
        kept)."""
        rows = self.conn.execute(
            "SELECT coalesce(m.keys, x'') FROM documents d LEFT JOIN minhash_bands m "
            "ON m.doc_id = d.id WHERE d.size >= 0 ORDER BY d.path"
        ).fetchall()
        empty = np.array([len(blob) != BAND_KEY_BYTES * bands for (blob,) in rows], dtype=bool)
        stored = np.frombuffer(
            b"".join(blob for (blob,) in rows if len(blob) == BAND_KEY_BYTES * bands), dtype=np.uint8
        ).reshape(-1, bands, BAND_KEY_BYTES)
        wide = np.zeros((len(rows), bands, 4), dtype=np.uint8)
        wide[~empty, :, :BAND_KEY_BYTES] = stored
        return wide.view("<u4").reshape(len(rows), bands).astype(np.uint32), empty

    def line_hashes(self) -> LineHashes:
        """Every snapshot row's candidate boilerplate line hashes (path order)."""
        return self.analysis_state()[0]

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
        if self._has_votes_table:
            self.conn.execute("DELETE FROM scan_votes")

    def set_clean_fingerprints(self, rows: Iterable[tuple[int, int | None]], boilerplate: frozenset[int]) -> None:
        """(document id, boilerplate-free fingerprint) for each document recomputed without its lines in
        `boilerplate`, which becomes the set `clean_boilerplate()` returns; a fingerprint of None marks a
        document to be computed again (its text could not be read as indexed). The caller must pass every
        document whose lines in `boilerplate` differ from its lines in the set stored before."""
        rows = list(rows)
        with self.transaction():
            # what was searched and verified on the old boilerplate-free text is stale; a clean fingerprint
            # equal to the plain one is stored as NULL (most documents: 9 B each saved)
            self.conn.executemany(
                "UPDATE documents SET clean_fp = nullif(?, fingerprint), clean = 1, paired = 0 WHERE id = ?",
                ((to_signed(fp), doc_id) for doc_id, fp in rows if fp is not None),
            )
            self.conn.executemany(
                "UPDATE documents SET clean = 0 WHERE id = ?", ((doc_id,) for doc_id, fp in rows if fp is None)
            )
            self.conn.executemany(
                "DELETE FROM scores WHERE a = ? OR b = ?", ((d, d) for d, fp in rows if fp is not None)
            )
            if boilerplate != self.clean_boilerplate():
                self.conn.execute("DELETE FROM clean_boilerplate")
                self.conn.executemany(
                    "INSERT INTO clean_boilerplate(hash) VALUES (?)", ((h,) for h in sorted(boilerplate))
                )

    def paired_fingerprints(self) -> tuple[np.ndarray, np.ndarray]:
        """For every snapshot row: the boilerplate-free fingerprint its candidate pairs were last searched
        with (uint64), and whether there is one. Stored as a flag: set with the current clean fingerprint,
        reset whenever that fingerprint changes (set_clean_fingerprints, the content trigger)."""
        rows = self.conn.execute(
            "SELECT CASE WHEN paired THEN coalesce(clean_fp, fingerprint) ELSE 0 END, paired "
            "FROM documents WHERE size >= 0 ORDER BY path"
        ).fetchall()
        if not rows:
            return np.empty(0, dtype=np.uint64), np.empty(0, dtype=bool)
        fps, known = zip(*rows)
        return np.array(fps, dtype=np.int64).view(np.uint64), np.array(known, dtype=bool)

    def set_paired_fingerprints(self, rows: Iterable[tuple[int, int]]) -> None:
        """(document id, fingerprint) of documents whose candidate pairs are now all searched and scored; the
        fingerprint must be the document's current boilerplate-free one (the flag stands for it)."""
        with self.transaction():
            self.conn.executemany(
                "UPDATE documents SET paired = 1 WHERE id = ? AND coalesce(clean_fp, fingerprint) = ?",
                ((doc_id, to_signed(fp)) for doc_id, fp in rows),
            )

    def forget_pairing(self) -> None:
        """Every document's candidates must be searched again (and every pair scored again)."""
        with self.transaction():
            self.conn.execute("UPDATE documents SET paired = 0")
            self.conn.execute("DELETE FROM scores")

    def scores(self) -> dict[tuple[int, int], Relation]:
        """Verified relations kept from earlier analyses (score, and the share of each text the other holds:
        NaN when unknown), by (smaller id, larger id), `a_in_b` the share of the smaller id's text."""
        nan = float("nan")
        return {
            (a, b): Relation(s, nan if x is None else x, nan if y is None else y)
            for a, b, s, x, y in self.conn.execute("SELECT a, b, score, a_in_b, b_in_a FROM scores")
        }

    def store_scores(self, rows: Iterable[tuple[int, int, Relation]]) -> None:
        """Keep (document id, document id, their relation) for each verified pair."""

        def ordered(a: int, b: int, r: Relation) -> tuple:
            shares = (r.a_in_b, r.b_in_a) if a < b else (r.b_in_a, r.a_in_b)
            return (min(a, b), max(a, b), r.score, *(None if x != x else x for x in shares))

        with self.transaction():
            self.conn.executemany(
                "INSERT OR REPLACE INTO scores(a, b, score, a_in_b, b_in_a) VALUES (?, ?, ?, ?, ?)",
                (ordered(*row) for row in rows),
            )

    # -- decisions ----------------------------------------------------------------------------------
    # keep_marks and trash_queue hold exclusive decisions: marking a document in one unmarks it in the other
    def _marked(self, table: str) -> set[str]:
        rows = self.conn.execute(f"SELECT d.path FROM {table} m JOIN documents d ON d.id = m.doc_id")
        return {r[0] for r in rows}

    def _set_mark(self, table: str, other: str, path: str, on: bool) -> None:
        doc_id = "(SELECT id FROM documents WHERE path = ?)"
        with self.transaction():
            if on:
                self.conn.execute(
                    f"INSERT OR IGNORE INTO {table}(doc_id) SELECT id FROM documents WHERE path = ?", (path,)
                )
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
        rows = self.conn.execute(
            "SELECT dk.path, dm.path, r.content_hash FROM reviewed r "
            "JOIN documents dk ON dk.id = r.keep_id JOIN documents dm ON dm.id = r.member_id"
        )
        for keep, member, digest in rows:
            out.setdefault(keep, {})[member] = digest
        return out

    def set_reviewed(self, keep: str, members: dict[str, str]) -> None:
        """Replace what the editor saw when marking `keep` (members: path -> content hash; empty: nothing)."""
        with self.transaction():
            self.conn.execute("DELETE FROM reviewed WHERE keep_id = (SELECT id FROM documents WHERE path = ?)", (keep,))
            self.conn.executemany(
                "INSERT OR REPLACE INTO reviewed(keep_id, member_id, content_hash) "
                "SELECT k.id, m.id, ? FROM documents k, documents m WHERE k.path = ? AND m.path = ?",
                [(digest, keep, member) for member, digest in members.items()],
            )

    def queued_for_trash(self) -> set[str]:
        """Documents the editor queued for the trash (a decision kept across restarts, acted on only by an
        explicit clean-up)."""
        return self._marked("trash_queue")

    def set_queued_for_trash(self, path: str, queued: bool) -> None:
        """Queue a document for the trash (which unmarks it as the copy to keep), or take it off the queue."""
        self._set_mark("trash_queue", "keep_marks", path, queued)

    def ignored_pairs(self) -> set[tuple[str, str]]:
        rows = self.conn.execute(
            "SELECT da.path, db.path FROM ignored_pairs p "
            "JOIN documents da ON da.id = p.a JOIN documents db ON db.id = p.b"
        )
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
    return Document(path, size, mtime, h.hex(), enc, chars, to_unsigned(fp))


# -- recognising a file, and failures in words --------------------------------------------------------
def _recognise(path: Path) -> str:
    """'new' (no file, or an empty one), 'ours' (simdesk's application id), 'legacy' (a simdesk index from
    before the application id); anything else raises IndexError_. Reads the file and writes nothing."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return "new"
    except OSError as exc:
        raise _failure(exc, path) from None
    if stat.S_ISDIR(st.st_mode):
        raise IndexError_(f"{path} is a folder: give --db the path of an index file")
    if not stat.S_ISREG(st.st_mode):
        raise IndexError_(f"{path} is not a regular file: give --db the path of an index file")
    if st.st_size == 0:
        return "new"
    try:
        with open(path, "rb") as fh:
            header = fh.read(100)
    except OSError as exc:
        raise _failure(exc, path) from None
    refuse = f"{path} is not a simdesk index ({{}}); simdesk does not write to it: give --db another file"
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise IndexError_(refuse.format("not an SQLite database"))
    app_id = int.from_bytes(header[68:72], "big")
    if app_id == APPLICATION_ID:
        return "ours"
    kind = _without_application_id(path) if app_id == 0 else None
    if kind is None:
        raise IndexError_(refuse.format("an SQLite database of another program"))
    return kind


def _without_application_id(path: Path) -> str | None:
    """An SQLite file without an application id: 'new' when it has no table (nothing in it to harm), 'legacy'
    when it holds nothing but simdesk's tables of layouts 1-6 with their schema version and document
    columns, None for anything else. Opened read-only."""
    try:
        conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        tables = {
            r[0]
            for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        }
        if not tables:
            return "new"
        if not {"meta", "documents"} <= tables <= LEGACY_TABLES:
            return None
        version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        columns = {r[1] for r in conn.execute("PRAGMA table_info(documents)")}
        ours = version is not None and version[0] in {"1", "2", "3", "4", "5", "6"} and LEGACY_COLUMNS <= columns
        return "legacy" if ours else None
    except sqlite3.Error:
        return None
    finally:
        conn.close()


DECISION_QUERIES = {  # each kind of decision by path, read on its own (a layout or a damage may lack one)
    "keep marks": "SELECT d.path FROM keep_marks m JOIN documents d ON d.id = m.doc_id",
    "queued copies": "SELECT d.path FROM trash_queue m JOIN documents d ON d.id = m.doc_id",
    "'not duplicates' pairs": "SELECT da.path, db.path FROM ignored_pairs p JOIN documents da ON da.id = p.a "
    "JOIN documents db ON db.id = p.b",
    "what keep marks were made on": "SELECT dk.path, dm.path, r.content_hash FROM reviewed r JOIN documents dk "
    "ON dk.id = r.keep_id JOIN documents dm ON dm.id = r.member_id",
}


def decisions_by_path(
    conn: sqlite3.Connection,
) -> tuple[list[str], list[str], list[tuple[str, str]], list[tuple[str, str, str]], list[str]]:
    """(keep marks, queued copies, 'not duplicates' pairs, what each keep mark was made on, the kinds that
    could not be read) of an index of any simdesk layout, damaged or not, by path."""
    found: dict[str, list] = {}
    unreadable = []
    for kind, sql in DECISION_QUERIES.items():
        try:
            found[kind] = [tuple(r) for r in conn.execute(sql).fetchall() if all(isinstance(v, str) for v in r)]
        except sqlite3.Error:
            found[kind] = []
            unreadable.append(kind)
    keep = [r[0] for r in found["keep marks"]]
    queued = [r[0] for r in found["queued copies"] if r[0] not in set(keep)]
    return keep, queued, found["'not duplicates' pairs"], found["what keep marks were made on"], unreadable


def damaged_prefix(path: Path) -> str:
    """How the message of a damaged index file begins (the window offers the rebuild on it)."""
    return f"the index {path} is damaged"


def _failure(exc: BaseException, path: Path) -> BaseException:
    """The IndexError_ that says in one line what went wrong with the index file, or `exc` itself when it
    is not a failure of the file (a programming error stays a traceback)."""
    if isinstance(exc, OSError):
        if exc.errno == 28:  # ENOSPC
            return IndexError_(f"no space left on the disk for the index {path}: free some space and try again")
        return IndexError_(f"the index {path} cannot be created: {exc.strerror or exc}")
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return exc
    primary = code & 0xFF
    if primary in (5, 6):  # SQLITE_BUSY, SQLITE_LOCKED
        return IndexError_(BUSY_MESSAGE)
    if primary == 13:  # SQLITE_FULL
        return IndexError_(
            f"no space left on the disk for the index {path} (what was indexed before is kept): "
            "free some space and scan again"
        )
    if primary in (11, 26):  # SQLITE_CORRUPT, SQLITE_NOTADB
        return IndexError_(
            f"{damaged_prefix(path)} ({exc}): open the folder in the window to rebuild it, "
            "carrying over the keep marks and other decisions still readable, or move it aside and "
            "scan again (its decisions are then left behind in the file moved aside)"
        )
    if primary in (8, 14, 3, 10):  # SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR
        if path.exists() and not os.access(path, os.W_OK):
            why = "the file is read-only"
        elif not os.access(path.parent, os.W_OK):
            why = "its folder is read-only"
        else:
            why = str(exc)
        return IndexError_(f"the index {path} cannot be written ({why}): give --db a writable place")
    return exc


def _translated(method):
    """`method` with a failure of the file (full, read-only, damaged, busy) raised as IndexError_."""

    def call(self, *args):
        try:
            return method(self, *args)
        except sqlite3.Error as exc:
            raise _failure(exc, self.connection.index_path) from None

    return call


class _Cursor(sqlite3.Cursor):
    """Failures of the file come out as IndexError_ from any statement or fetch."""

    execute = _translated(sqlite3.Cursor.execute)
    executemany = _translated(sqlite3.Cursor.executemany)
    fetchone = _translated(sqlite3.Cursor.fetchone)
    fetchall = _translated(sqlite3.Cursor.fetchall)
    fetchmany = _translated(sqlite3.Cursor.fetchmany)
    __next__ = _translated(sqlite3.Cursor.__next__)


class _Connection(sqlite3.Connection):
    """A connection whose statements run through _Cursor (sqlite-utils' included)."""

    index_path: Path

    def cursor(self, factory=_Cursor):
        return super().cursor(factory)

    def execute(self, *args):
        return self.cursor().execute(*args)

    def executemany(self, *args):
        return self.cursor().executemany(*args)

    def executescript(self, script):
        try:
            return super().executescript(script)
        except sqlite3.Error as exc:
            raise _failure(exc, self.index_path) from None


class _ScanLock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.fh = None

    def __enter__(self) -> _ScanLock:
        try:
            import fcntl
        except ImportError:  # not on POSIX: SQLite's own locking still keeps the index sound
            return self
        try:
            self.fh = open(self.path, "a")
        except OSError as exc:
            raise _failure(exc, self.path) from None
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
            self.conn.execute("BEGIN IMMEDIATE")  # 'busy' comes out as IndexError_(BUSY_MESSAGE)
        return self.conn

    def __exit__(self, exc_type, exc, tb) -> None:
        if not self.outer:
            return
        if exc_type is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:  # a failed COMMIT or a full disk may have ended it already
            self.conn.execute("ROLLBACK")
