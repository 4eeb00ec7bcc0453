"""The index's layout history as sqlite-utils migrations: the step from each earlier layout still read in place
to the next, run on the file where it is (documents, their ids, fingerprints, scores and decisions kept;
nothing read again), each recorded in the file's `_sqlite_migrations` table once it has run.

Only a change that is not additive is a migration (and raises SCHEMA_VERSION): a new table or column is made
by layout.ensure_tables wherever it is missing. A file written before this table was kept has its history in
its stored schema version: layout 7 holds none of the steps, 8 the first, and so on (IN_PLACE); any other
layout is rebuilt by schema.py with the editor's decisions carried over.

    migrate(db, "8")    # inside the caller's transaction: ['schema_9', 'schema_10']
"""

from __future__ import annotations

import datetime
import hashlib

import numpy as np

from simdesk.core.fingerprint.simhash import to_signed
from simdesk.core.index.layout import BAND_KEY_BYTES, COMMON_ENCODING, TABLES
from simdesk.core.index.segments import SEGMENTS_FROM_DOCUMENTS
from simdesk.core.index.sqlite_library import Migrations, sqlite_utils
from simdesk.core.reading.boilerplate import LineHashes, boilerplate_set

MIGRATIONS = Migrations("simdesk-index")


@MIGRATIONS()
def schema_8(db: sqlite_utils.Database) -> None:
    """Schema 7 -> 8: each document's line hashes move to `line_hashes` and its stored SimHash votes are dropped
    (432 -> ~290 B per document at 200,000). Documents, fingerprints, boilerplate-free fingerprints, scores and
    decisions stay as they are; nothing is read again."""
    spec = TABLES["line_hashes"]
    db.table("line_hashes").create(
        spec["columns"], pk=spec["pk"], not_null=spec["not_null"], foreign_keys=spec["foreign_keys"]
    )
    db.execute("INSERT INTO line_hashes(doc_id, hashes) SELECT doc_id, lines FROM boilerplate_inputs")
    db.execute("DROP TABLE boilerplate_inputs")


@MIGRATIONS()
def schema_9(db: sqlite_utils.Database) -> None:
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
    # the set schema 8's keys were made with: every document counted, each identical copy too (the
    # analysis now counts a class of copies once, boilerplate.class_boilerplate, and recomputes what differs)
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


@MIGRATIONS()
def schema_10(db: sqlite_utils.Database) -> None:
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
    # (a layout 7 written before band keys were kept has none: layout.ensure_tables makes their table after)
    low = " || ".join(f"substr(keys, {4 * band + 1}, {BAND_KEY_BYTES})" for band in range(16))
    if db.table("minhash_bands").exists():
        conn.execute(f"UPDATE minhash_bands SET keys = CAST({low} AS BLOB) WHERE length(keys) = 64")


# Each step in order (the names the migrations table records), and the layouts read in place: a stored schema
# version -> how many of the steps a file of it already holds
STEPS = [step.__name__ for step in (schema_8, schema_9, schema_10)]
IN_PLACE = {"7": 0, "8": 1, "9": 2, "10": 3}


def pending(db: sqlite_utils.Database, version: str) -> list[str]:
    """The steps an index of stored schema `version` (a key of IN_PLACE) has not had, in order. Reads only."""
    if db.table(MIGRATIONS.migrations_table).exists():
        return [m.name for m in MIGRATIONS.pending(db)]
    return STEPS[IN_PLACE[version] :]


def migrate(db: sqlite_utils.Database, version: str) -> list[str]:
    """Run the steps an index of stored schema `version` has not had, inside the caller's transaction (each in
    a savepoint of its own, recorded as it runs); returns their names."""
    todo = pending(db, version)
    if todo:
        if not db.table(MIGRATIONS.migrations_table).exists():
            _record(db, STEPS[: IN_PLACE[version]])  # the history its stored version stands for
        MIGRATIONS.apply(db)
    return todo


def record_all(db: sqlite_utils.Database) -> None:
    """Record every step as run (a new or rebuilt file holds this version's layout)."""
    _record(db, STEPS)


def _record(db: sqlite_utils.Database, steps: list[str]) -> None:
    """Record `steps` as run, as Migrations.apply records a step it runs (its table, its columns)."""
    MIGRATIONS.ensure_migrations_table(db)
    now = str(datetime.datetime.now(datetime.UTC))
    db.table(MIGRATIONS.migrations_table).insert_all(
        {"migration_set": MIGRATIONS.name, "name": name, "applied_at": now} for name in steps
    )
