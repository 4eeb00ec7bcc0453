"""Index files of every earlier layout, built with raw sqlite3 from the CREATE statements each version of
simdesk wrote (tests/core/data/index_layouts, read off those versions' sqlite_master), open as today: layouts
7-9 are migrated in place by the sqlite-utils migrations with their documents, fingerprints, scores and
decisions; a layout 10 that lacks an additive change gets it; layout 6 (before the application id) is rebuilt
with its decisions carried over and its documents read again. Each migrated file has this version's layout."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from simdesk.core.index.layout import SCHEMA_VERSION
from simdesk.core.index.migrations import IN_PLACE, MIGRATIONS, STEPS
from simdesk.core.index.store import Index

LAYOUTS = Path(__file__).parent / "data" / "index_layouts"
IN_PLACE_LAYOUTS = [
    "schema_7_first",  # before the MinHash band keys were kept
    "schema_7",
    "schema_8",
    "schema_9",
    "schema_10_first",  # before a pair's shares were kept and identical copies left the segment table
    "schema_10_shares",  # before identical copies left the segment table
    "schema_10",  # this layout, written before its history was recorded
]
FP = {"a.txt": 0x0123_4567_89AB_CDEF, "b.txt": 0x0123_4567_89AB_CDEF ^ 0b101, "c.txt": 0xFEDC_BA98_7654_3210}
HASH = {p: bytes([k + 1]) * 32 for k, p in enumerate(FP)}
LINES = {"a.txt": [7, 9], "b.txt": [7, 9]}  # c.txt has none
BANDS = {"a.txt": bytes(range(64)), "b.txt": bytes(range(1, 65))}  # 16 keys of 4 bytes, as layouts 7-9 kept them


def signed(x: int) -> int:
    return x - (1 << 64) if x >= 1 << 63 else x


def columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')}


def tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def old_index(tmp_path: Path, layout: str) -> Path:
    """An index file of `layout` holding three documents, their line hashes, band keys and a score, and one
    decision of each kind, written as that version of simdesk wrote them."""
    db = tmp_path / f"{layout}.sqlite"
    conn = sqlite3.connect(db)
    conn.executescript((LAYOUTS / f"{layout}.sql").read_text(encoding="utf-8"))
    have = columns(conn, "documents")
    for doc_id, (path, fp) in enumerate(FP.items(), start=1):
        row = {
            "id": doc_id,
            "path": path,
            "size": 100 + doc_id,
            "mtime_ns": 1000 + doc_id,
            "content_hash": HASH[path],
            "encoding": "gb18030" if path == "c.txt" else "utf-8",
            "chars": 50,
            "fingerprint": signed(fp),
            "paired": 1,
            # layouts 7 and 8: the key of the boilerplate lines the clean fingerprint was computed without,
            # 0 for none (c.txt, without lines, agrees with any boilerplate), NULL: not computed
            "clean_key": 0 if path == "c.txt" else None,
            "clean": int(path == "c.txt"),
        }
        row = {k: v for k, v in row.items() if k in have}
        conn.execute(
            f"INSERT INTO documents({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values())
        )
    lines_table, lines_column = (
        ("line_hashes", "hashes") if "line_hashes" in tables(conn) else ("boilerplate_inputs", "lines")
    )
    for path, hashes in LINES.items():
        blob = np.array(hashes, dtype="<u4").tobytes()
        extra = ", x'00'" if lines_table == "boilerplate_inputs" else ""  # layout 7 kept the votes beside them
        conn.execute(
            f"INSERT INTO {lines_table} VALUES ((SELECT id FROM documents WHERE path = ?), ?{extra})", (path, blob)
        )
    if "minhash_bands" in tables(conn):
        for path, keys in BANDS.items():
            if "segments" in tables(conn):  # layout 10 keeps the low 3 bytes of each key
                keys = np.frombuffer(keys, dtype=np.uint8).reshape(16, 4)[:, :3].tobytes()
            conn.execute(
                "INSERT INTO minhash_bands VALUES ((SELECT id FROM documents WHERE path = ?), ?)", (path, keys)
            )
    if "a_in_b" in columns(conn, "scores"):
        conn.execute("INSERT INTO scores VALUES (1, 2, 0.9, 0.5, 0.75)")
    else:
        conn.execute("INSERT INTO scores VALUES (1, 2, 0.9)")
    conn.execute("INSERT INTO keep_marks VALUES (1)")
    conn.execute("INSERT INTO trash_queue VALUES (3)")
    conn.execute("INSERT INTO ignored_pairs VALUES (1, 3)")
    conn.execute("INSERT INTO reviewed VALUES (1, 2, ?)", (HASH["b.txt"].hex(),))
    conn.commit()
    conn.close()
    return db


def layout_of(db: Path) -> dict[str, object]:
    """What a layout is made of, whatever order its columns were added in: each table's columns (name, type,
    NOT NULL, default, key), each index and each trigger (its statement, spaces aside)."""
    conn = sqlite3.connect(db)
    try:
        out: dict[str, object] = {}
        for kind, name, sql in conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE '%migrations%'"
        ):
            if kind == "table":
                out[name] = sorted(
                    (c[1], c[2].upper(), c[3], c[4], c[5]) for c in conn.execute(f'PRAGMA table_info("{name}")')
                )
            else:
                out[name] = " ".join((sql or "").split())
        return out
    finally:
        conn.close()


@pytest.mark.parametrize("layout", IN_PLACE_LAYOUTS)
def test_an_earlier_layout_opens_in_place_with_everything_it_held(tmp_path, layout):
    db = old_index(tmp_path, layout)
    with Index(db) as index:
        assert not index.rebuilt and index.meta("schema_version") == str(SCHEMA_VERSION)
        assert [(d.path, d.fingerprint, d.content_hash, d.encoding, d.size) for d in index.documents()] == [
            (p, fp, HASH[p].hex(), "gb18030" if p == "c.txt" else "utf-8", 101 + k)
            for k, (p, fp) in enumerate(FP.items())
        ]
        # the segment index holds every document, exactly
        assert [(d.path, dist) for d, dist in index.near(FP["a.txt"], 2)] == [("a.txt", 0), ("b.txt", 2)]
        assert [(d.path, dist) for d, dist in index.near(FP["c.txt"], 16)] == [("c.txt", 0)]
        # the decisions, the verified score (shares unknown before they were kept) and the analysis's state
        assert index.keep_marks() == {"a.txt"} and index.queued_for_trash() == {"c.txt"}
        assert index.ignored_pairs() == {("a.txt", "c.txt")}
        assert index.reviewed() == {"a.txt": {"b.txt": HASH["b.txt"].hex()}}
        [(pair, relation)] = index.scores().items()
        assert pair == (1, 2) and relation.score == 0.9
        if "a_in_b" in (LAYOUTS / f"{layout}.sql").read_text(encoding="utf-8"):
            assert (relation.a_in_b, relation.b_in_a) == (0.5, 0.75)
        else:
            assert math.isnan(relation.a_in_b) and math.isnan(relation.b_in_a)
        lines, clean, _ = index.analysis_state()
        assert [h.tolist() for _, h in lines.hits(frozenset({7, 9}))] == [[7, 9], [7, 9], []]
        assert clean.tolist() == [False, False, True]  # a clean key that agrees with no lines: still clean
        keys, empty = index.band_keys(16)
        if layout == "schema_7_first":
            assert empty.tolist() == [True, True, True]
        else:
            wide = np.frombuffer(BANDS["a.txt"], dtype="<u4")
            assert empty.tolist() == [False, False, True] and keys[0].tolist() == (wide & 0xFFFFFF).tolist()
        assert index.integrity_ok()
    fresh = tmp_path / "fresh.sqlite"
    Index(fresh).close()
    assert layout_of(db) == layout_of(fresh)
    conn = sqlite3.connect(db)
    history = (
        [r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
        if "_sqlite_migrations" in tables(conn)
        else []
    )
    conn.close()
    version = (LAYOUTS / f"{layout}.sql").read_text(encoding="utf-8").rsplit("'", 2)[-2]
    assert history == ([] if version == str(SCHEMA_VERSION) else STEPS)  # a layout of this version needs no step


@pytest.mark.parametrize("layout", ["schema_7", "schema_9"])
def test_a_migrated_index_reopens_without_a_step_or_a_write(tmp_path, layout):
    db = old_index(tmp_path, layout)
    Index(db).close()
    before = db.read_bytes()
    with Index(db) as index:
        assert not index.rebuilt and index.count() == 3
        assert [m.name for m in MIGRATIONS.pending(index.db)] == []
    assert db.read_bytes() == before


def test_a_new_index_records_every_step_as_run(tmp_path):
    with Index(tmp_path / "new.sqlite") as index:
        assert [m.name for m in MIGRATIONS.applied(index.db)] == STEPS
        assert index.meta("schema_version") == str(SCHEMA_VERSION)
    # each step raises the version by one, from the first layout read in place to this one
    assert IN_PLACE == {str(7 + k): k for k in range(len(STEPS) + 1)} and str(SCHEMA_VERSION) in IN_PLACE


def test_layout_6_is_rebuilt_with_its_decisions_and_its_documents_read_again(tmp_path):
    db = tmp_path / "six.sqlite"
    conn = sqlite3.connect(db)
    conn.executescript((LAYOUTS / "schema_6.sql").read_text(encoding="utf-8"))
    for doc_id, (path, fp) in enumerate(FP.items(), start=1):
        conn.execute(
            "INSERT INTO documents(id, path, size, mtime_ns, content_hash, encoding, chars, fingerprint, b0, b1, b2, b3) "
            "VALUES (?, ?, 10, 1, ?, 'utf-8', 5, ?, 0, 0, 0, 0)",
            (doc_id, path, HASH[path].hex(), signed(fp)),
        )
    conn.execute("INSERT INTO keep_marks VALUES (1)")
    conn.execute("INSERT INTO ignored_pairs VALUES (1, 3)")
    conn.commit()
    conn.close()
    with Index(db) as index:
        assert index.rebuilt and index.migrated_decisions == 2
        assert index.rebuilt_reason == (
            f"the index {db} was written by another version of simdesk (schema 6, this one reads "
            f"{SCHEMA_VERSION}): its documents are read again from the folder; 2 keep marks, queued copies and "
            "'not duplicates' decisions were migrated"
        )
        assert index.count() == 0 and sorted(index.stored_states()) == ["a.txt", "c.txt"]  # waiting to be read
        assert index.keep_marks() == {"a.txt"} and index.ignored_pairs() == {("a.txt", "c.txt")}
        assert [m.name for m in MIGRATIONS.applied(index.db)] == STEPS
    assert "meta" not in tables(sqlite3.connect(db))


def test_a_failing_step_leaves_the_file_as_it_was(tmp_path):
    db = old_index(tmp_path, "schema_8")
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE line_hashes")  # what the step from layout 8 reads
    conn.commit()
    conn.close()
    before = db.read_bytes()
    with pytest.raises(sqlite3.OperationalError, match="no such table: line_hashes"):
        Index(db)
    assert db.read_bytes() == before
