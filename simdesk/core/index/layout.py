"""The layout of the index file this version writes: its tables (created by sqlite-utils), the indexes and
triggers written by hand, and the making of what a file of this layout lacks (an additive change: a new table
or column keeps every row)."""

from __future__ import annotations

from typing import Any

from simdesk.core.index.connection import IndexConnection
from simdesk.core.index.segments import SEGMENT_SQL, SEGMENT_TRIGGERS, SEGMENTS_FROM_DOCUMENTS, UNSEGMENTED_SQL
from simdesk.core.index.sqlite_library import ForeignKey, sqlite_utils

SCHEMA_VERSION = 10  # raised only for a change that is not additive (a new table or column needs no new version)
APPLICATION_ID = int.from_bytes(b"sdsk", "big")  # PRAGMA application_id: bytes 68-71 of the file
META = "simdesk_meta"
# Bytes kept of each 32-bit MinHash band key (minhash.text_bands), the low ones: 48 B a document instead of 64.
# At 200,000 documents (the large collection) 24-bit keys made 377,248 band pairs instead of 358,076 and
# 152,357 instead of 151,235 past the single-band gate: none lost, 1,122 more to verify, all rejected (highest
# similarity 0.16), 0.7% of the candidates; ~25 times as many at a million (random pairs grow as the square).
BAND_KEY_BYTES = 3
COMMON_ENCODING = "utf-8"  # stored as NULL (0 bytes; 80% of the medium collection's documents)


def _cascade(table: str, column: str) -> ForeignKey:
    return ForeignKey(table, column, "documents", "id", on_delete="CASCADE")


# Every table: sqlite-utils creates it, and adds the columns an older index lacks (additive changes keep data).
TABLES: dict[str, dict[str, Any]] = {
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
            # whether its text is short (reread.measured_short: 1 or 0, stored by verification from the text it
            # read, without the boilerplate lines in `clean_boilerplate`; NULL: not read since it changed, or
            # indexed before it was stored). 0 B a document: SQLite stores 0 and 1 in the record's header.
            # Reset with the clean fingerprint (the trigger below, set_clean_fingerprints)
            "short": int,
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


# The index of the scores by their second member (RAW_DDL); an analysis that starts without scores makes it after
# storing them (AnalysisCache.scores_indexed_after)
SCORES_B_SQL = "CREATE INDEX IF NOT EXISTS scores_b ON scores(b)"

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
    # a document's pairs as their second member (as the first, the key finds them): without it the content
    # trigger below and the cascade of a deleted document each read the whole table. In the medium
    # collection's index (87,234 scores), deleting 500 documents took 3.2-3.6 s of CPU, 0.06-0.08 s with it;
    # changing the content of 500, 2.3-2.6 s against 0.03 s. It costs ~10 B a score (7.2 -> 8.1 MB there)
    SCORES_B_SQL,
    # what was computed from a document's old text is stale as soon as its text changes
    """CREATE TRIGGER IF NOT EXISTS documents_content_changed
        AFTER UPDATE OF content_hash, fingerprint ON documents
        WHEN old.content_hash != new.content_hash OR old.fingerprint != new.fingerprint
    BEGIN
        DELETE FROM scores WHERE a = new.id OR b = new.id;
        UPDATE documents SET clean_fp = NULL, clean = 0, paired = 0, short = NULL WHERE id = new.id;
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

# Where the scan pass stored what verification would read again of each text it fingerprinted (its text, folded
# text and page title: matching.scratch_texts), in SQLite's temporary database as VOTES_DDL: the scratch file
# (`file`: the number of the process that wrote it), the offset and length of its record. A document's row
# leaves with it, and when its text changes.
STORED_DDL = (
    """CREATE TEMP TABLE IF NOT EXISTS scan_texts (
        doc_id INTEGER PRIMARY KEY, file INTEGER NOT NULL, offset INTEGER NOT NULL, length INTEGER NOT NULL)""",
    """CREATE TEMP TRIGGER IF NOT EXISTS scan_texts_gone AFTER DELETE ON main.documents
    BEGIN DELETE FROM scan_texts WHERE doc_id = old.id; END""",
    """CREATE TEMP TRIGGER IF NOT EXISTS scan_texts_stale AFTER UPDATE OF content_hash ON main.documents
    WHEN old.content_hash != new.content_hash BEGIN DELETE FROM scan_texts WHERE doc_id = new.id; END""",
)

SCORE_SHARES = ("a_in_b", "b_in_a")  # the scores table's columns added after schema 10


def ensure_tables(conn: IndexConnection, db: sqlite_utils.Database) -> None:
    """Create what is missing: tables, their columns (sqlite-utils add_column), indexes, the triggers."""
    for name, spec in TABLES.items():
        table = db.table(name)
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
    db.table("documents").create_index(["path"], index_name="documents_path", unique=True, if_not_exists=True)
    for name in stale_triggers(conn):  # an older rule: made again below
        conn.execute(f'DROP TRIGGER "{name}"')
    for statement in RAW_DDL:
        conn.execute(statement)
    for column in SCORE_SHARES:  # an index of schema 10 scored pairs before the shares were kept
        if column not in _score_columns(conn):
            conn.execute(f"ALTER TABLE scores ADD COLUMN {column} REAL")


def _score_columns(conn: IndexConnection) -> set[str]:
    return {row[1] for row in conn.execute("PRAGMA table_info(scores)")}


def _raw_names(kind: str) -> dict[str, str]:
    """The name of each object of `kind` (TABLE, INDEX, TRIGGER) RAW_DDL makes, with its statement as SQLite
    stores it (without IF NOT EXISTS), spaces collapsed."""
    wanted = {}
    for statement in RAW_DDL:
        words = statement.split()
        if words[:2] == ["CREATE", kind] and words[2:5] == ["IF", "NOT", "EXISTS"]:
            wanted[words[5]] = " ".join(words[:2] + words[5:])
    return wanted


def stale_triggers(conn: IndexConnection) -> list[str]:
    """The triggers of this layout whose stored statement differs from the one this version writes (the
    segment triggers of before texts without features were left out of the segment table)."""
    wanted = _raw_names("TRIGGER")
    stored = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    return [name for name, sql in stored if name in wanted and " ".join(sql.split()) != wanted[name]]


# The meta key set while a bulk write keeps the segment triggers off (segments_off): the segment table then lacks
# what was written since, and the next writable open makes it again from the documents (segments_remade)
SEGMENTS_PENDING = "segments_pending"


def segments_off(conn: IndexConnection) -> None:
    """Drop the segment triggers for a bulk write, the segment table marked to be made again (call inside a
    transaction: committed together, a kill after it leaves the mark)."""
    for name in SEGMENT_TRIGGERS:
        conn.execute(f'DROP TRIGGER IF EXISTS "{name}"')
    conn.execute(f"INSERT OR REPLACE INTO {META}(key, value) VALUES (?, '1')", (SEGMENTS_PENDING,))


def segments_pending(conn: IndexConnection) -> bool:
    """Whether a bulk write left the segment table to be made again (segments_off)."""
    return conn.execute(f"SELECT 1 FROM {META} WHERE key = ?", (SEGMENTS_PENDING,)).fetchone() is not None


def segments_remade(conn: IndexConnection) -> None:
    """The segment table made again from every document, the triggers back, the mark gone (call inside a
    transaction)."""
    conn.execute("DELETE FROM segments")
    conn.execute(SEGMENTS_FROM_DOCUMENTS)
    for statement in SEGMENT_SQL:
        conn.execute(statement)
    conn.execute(f"DELETE FROM {META} WHERE key = ?", (SEGMENTS_PENDING,))


def missing_parts(conn: IndexConnection, db: sqlite_utils.Database, triggers_off: bool = False) -> bool:
    """Whether the file lacks a table, a column, or a table or trigger of RAW_DDL (an additive change);
    `triggers_off`: the segment triggers are off for a bulk write (segments_off), not missing."""
    for name, spec in TABLES.items():
        table = db.table(name)
        if not table.exists() or set(spec["columns"]) - set(table.columns_dict):
            return True
    wanted = {*_raw_names("TABLE"), *_raw_names("TRIGGER")} - (set(SEGMENT_TRIGGERS) if triggers_off else set())
    return bool(wanted - _stored_names(conn)) or bool(set(SCORE_SHARES) - _score_columns(conn))


def missing_indexes(conn: IndexConnection) -> bool:
    """Whether the file lacks an index of RAW_DDL: what it holds is read right without one, only slower (a
    file that cannot be written is read as it is; the first open that can write makes it)."""
    return bool(set(_raw_names("INDEX")) - _stored_names(conn))


def _stored_names(conn: IndexConnection) -> set[str]:
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
