"""An index of an older or newer layout is rebuilt with a message the editor sees (never misread), its
decisions migrated; the previous layout (schema 9) is migrated in place, silently, with its decisions; a database that is not a simdesk index is refused and left byte for byte as it was;
other feature settings re-fingerprint."""

from __future__ import annotations

import json
import sqlite3

from simdesk.core.fingerprint.features import FeatureSettings
from simdesk.core.index.layout import SCHEMA_VERSION
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.records import ScanOptions
from tests.core.test_index_layout import as_schema_9
from tests.reliability.conftest import scan_args, scan_json, simdesk
from tests.reliability.corpus import ARTICLE, POEM

# The layout simdesk wrote at schema version 1, with a document in it whose size and time
# match the file on disk: read by today's code as if current, it would be taken as unchanged.
SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE documents (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    content_hash TEXT NOT NULL, encoding TEXT NOT NULL, chars INTEGER NOT NULL, fingerprint INTEGER NOT NULL,
    b0 INTEGER NOT NULL, b1 INTEGER NOT NULL, b2 INTEGER NOT NULL, b3 INTEGER NOT NULL);
CREATE TABLE problems (path TEXT PRIMARY KEY, error TEXT NOT NULL);
CREATE TABLE keep_marks (doc_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE);
CREATE TABLE ignored_pairs (a INTEGER NOT NULL, b INTEGER NOT NULL, PRIMARY KEY (a, b), CHECK (a < b));
INSERT INTO meta VALUES ('schema_version', '1');
"""


def folder_with_v1_index(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.txt").write_text(ARTICLE * 3, encoding="utf-8")
    (root / "b.txt").write_text(ARTICLE * 3 + "转载", encoding="utf-8")
    (root / "c.txt").write_text(POEM * 4, encoding="utf-8")
    db = tmp_path / "old.sqlite"
    conn = sqlite3.connect(db)
    conn.executescript(SCHEMA_1)
    st = (root / "a.txt").stat()
    conn.execute(
        "INSERT INTO documents VALUES (1, 'a.txt', ?, ?, 'stale', 'utf-8', 1, 7, 7, 0, 0, 0)",
        (st.st_size, st.st_mtime_ns),
    )
    conn.execute("INSERT INTO keep_marks VALUES (1)")  # the editor kept a.txt
    conn.commit()
    conn.close()
    return root, db


def test_an_older_schema_is_rebuilt_with_a_message_on_stderr(tmp_path):
    root, db = folder_with_v1_index(tmp_path)
    data, proc = scan_json(root, db)
    first = proc.stderr.splitlines()[0]
    assert first == (
        f"simdesk: the index {db} was written by another version of simdesk (schema 1, this one "
        f"reads {SCHEMA_VERSION}): its documents are read again from the folder; 1 keep marks, "
        "queued copies and 'not duplicates' decisions were migrated"
    )
    # nothing taken from the old layout but the decision: a.txt, kept, waited as a stale row and is read again
    assert "2 new, 1 changed" in proc.stderr and "0 unchanged" in proc.stderr
    assert sorted(m["path"] for g in data["groups"] for m in g["members"]) == ["a.txt", "b.txt"]
    with Index(db) as index:
        assert index.document("a.txt").content_hash != "stale" and index.document("a.txt").fingerprint != 7
        assert not index.rebuilt  # rebuilt once; the message is not repeated
        assert index.keep_marks() == {"a.txt"}  # the decision outlived the new layout
    again = simdesk(*scan_args(root, db))
    assert "another version" not in again.stderr and "3 unchanged" in again.stderr


def test_a_schema_9_index_is_migrated_in_place_through_the_cli_with_its_decisions(tmp_path):
    root, _ = folder_with_v1_index(tmp_path)
    db = tmp_path / "nine.sqlite"
    with Index(db) as index:
        scan(root, index, ScanOptions(jobs=1))
        index.set_keep("a.txt", True)
        index.set_reviewed("a.txt", {"b.txt": index.document("b.txt").content_hash})
        index.set_queued_for_trash("b.txt", True)
        index.ignore_pair("a.txt", "c.txt")
    as_schema_9(db)
    before = simdesk("query", root, root / "b.txt", "--threshold", "16", "--db", db, "--format", "json")
    assert before.returncode == 0 and "another version" not in before.stderr
    with Index(db) as index:
        assert index.meta("schema_version") == str(SCHEMA_VERSION) and not index.rebuilt
        assert index.keep_marks() == {"a.txt"} and index.queued_for_trash() == {"b.txt"}
        assert index.ignored_pairs() == {("a.txt", "c.txt")} and list(index.reviewed()["a.txt"]) == ["b.txt"]
    matches = {m["path"]: m["distance"] for m in json.loads(before.stdout)["matches"]}
    assert matches["b.txt"] == 0 and "a.txt" in matches
    again = simdesk(*scan_args(root, db))
    assert "another version" not in again.stderr and "3 unchanged" in again.stderr


def test_a_newer_schema_is_rebuilt_too(tmp_path):
    root, _ = folder_with_v1_index(tmp_path)
    db = tmp_path / "newer.sqlite"
    with Index(db) as index, index.transaction():
        index.set_meta("schema_version", str(SCHEMA_VERSION + 1))
    data, proc = scan_json(root, db)
    assert f"(schema {SCHEMA_VERSION + 1}, this one reads {SCHEMA_VERSION})" in proc.stderr
    assert data["documents"] == 3


def test_a_database_that_is_not_a_simdesk_index_is_refused_and_left_alone(tmp_path):
    root, _ = folder_with_v1_index(tmp_path)
    other = tmp_path / "accounts.sqlite"
    conn = sqlite3.connect(other)
    conn.executescript("CREATE TABLE documents (invoice TEXT); INSERT INTO documents VALUES ('2024-001');")
    conn.close()
    proc = simdesk("scan", root, "--db", other)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        f"simdesk: error: {other} is not a simdesk index (an SQLite database of another "
        "program); simdesk does not write to it: give --db another file"
    )
    conn = sqlite3.connect(other)
    assert conn.execute("SELECT invoice FROM documents").fetchall() == [("2024-001",)]
    conn.close()


def test_a_corrupt_index_file_is_refused_with_a_message(tmp_path):
    root, _ = folder_with_v1_index(tmp_path)
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not a database at all" * 100)
    proc = simdesk("scan", root, "--db", bad)
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1
    assert "is not a simdesk index (not an SQLite database)" in proc.stderr and "delete" not in proc.stderr


def test_other_feature_settings_refingerprint_every_document_through_the_cli(tmp_path):
    root, _ = folder_with_v1_index(tmp_path)
    db = tmp_path / "i.sqlite"
    with Index(db) as index:  # an index written with other feature settings (character bigrams on)
        scan(root, index, ScanOptions(jobs=1), settings=FeatureSettings(char_ngrams=2))
        before = {d.path: d.fingerprint for d in index.documents()}
    data, proc = scan_json(root, db)
    assert "0 new, 3 changed" in proc.stderr and "0 unchanged" in proc.stderr
    with Index(db) as index:
        after = {d.path: d.fingerprint for d in index.documents()}
        assert json.loads(index.meta("features")) == json.loads(FeatureSettings().to_json())
    assert after.keys() == before.keys() and after != before
