"""The SQLite segment index on a real file: near() equals a brute-force scan for every radius 0..16, and the
segment table its triggers keep equals the one built from the documents after inserts, changed fingerprints,
moves and deletions, for document ids of every entry width."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from simdesk.core.fingerprint.minhash import DESKTOP, text_bands
from simdesk.core.fingerprint.simhash import hamming
from simdesk.core.index.analysis_cache import SCORE_ROWS
from simdesk.core.index.layout import BAND_KEY_BYTES, SCHEMA_VERSION
from simdesk.core.index.segments import MAX_DOCUMENT_ID, SEGMENT_LOW_BITS, UNSEGMENTED, blocks_of, segment_ids
from simdesk.core.index.store import Index
from simdesk.core.reading.documents import content_hash
from simdesk.core.reading.normalize import normalize
from simdesk.core.records import Document, Problem, Relation


def doc(path: str, fp: int, content: str = "h") -> Document:
    return Document(path, 10, 1, content_hash(content.encode()), "utf-8", 5, fp)


def clustered(rng: np.random.Generator, centres: int, per: int, max_flip: int) -> list[int]:
    out = []
    for c in rng.integers(0, 2**64, size=centres, dtype=np.uint64).tolist():
        out.append(c)
        for _ in range(per):
            x = c
            for bit in rng.choice(64, size=int(rng.integers(0, max_flip + 1)), replace=False):
                x ^= 1 << int(bit)
            out.append(x)
    return out


def test_blocks_split_64_bits_into_four_16_bit_values():
    assert blocks_of(0x0001_0002_0003_0004) == (4, 3, 2, 1)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), radius=st.integers(0, 16))
def test_near_equals_brute_force(tmp_path, seed, radius):
    rng = np.random.default_rng(seed)
    fps = clustered(rng, 12, 6, 14) + rng.integers(0, 2**64, size=40, dtype=np.uint64).tolist()
    path = tmp_path / f"near-{seed}-{radius}.sqlite"
    with Index(path) as index:
        with index.transaction():
            index.upsert_documents(doc(f"d{k:04d}", fp) for k, fp in enumerate(fps))
        for query in (fps[0], fps[len(fps) // 2], int(rng.integers(0, 2**64, dtype=np.uint64))):
            got = {(d.path, dist) for d, dist in index.near(query, radius)}
            expected = {(f"d{k:04d}", hamming(fp, query)) for k, fp in enumerate(fps) if hamming(fp, query) <= radius}
            assert got == expected


def segment_entries(index: Index) -> set[tuple[int, int]]:
    """(key, entry) of every posting of the segment table."""
    return {
        (key, int(x)) for key, docs in index.conn.execute("SELECT key, docs FROM segments") for x in segment_ids(docs)
    }


def expected_entries(index: Index) -> set[tuple[int, int]]:
    """The postings of every document row the segment table holds (not texts without features nor identical
    copies: UNSEGMENTED), computed from its fingerprint."""
    low = (1 << SEGMENT_LOW_BITS) - 1
    out = set()
    for doc_id, fp in index.conn.execute(f"SELECT id, fingerprint FROM documents WHERE NOT ({UNSEGMENTED})"):
        for k, value in enumerate(blocks_of(fp & (2**64 - 1))):
            key = (k << (16 - SEGMENT_LOW_BITS)) | (value >> SEGMENT_LOW_BITS)
            out.add((key, (doc_id << SEGMENT_LOW_BITS) | (value & low)))
    return out


def test_the_segment_table_follows_every_change_of_the_documents(tmp_path):
    rng = np.random.default_rng(5)
    fps = clustered(rng, 6, 5, 6)
    with Index(tmp_path / "i.sqlite") as index:
        with index.transaction():
            index.upsert_documents(doc(f"d{k:03d}", fp, f"c{k}") for k, fp in enumerate(fps))
            # ids whose entries take 3, 4 and 5 bytes (a lead character past the surrogates), and the largest
            for doc_id in (30_000, 900_000, MAX_DOCUMENT_ID - 1):
                index.conn.execute(
                    "INSERT INTO documents(id, path, size, mtime_ns, content_hash, encoding, chars, "
                    "fingerprint) VALUES (?, ?, 1, 1, x'00', NULL, 1, ?)",
                    (doc_id, f"big{doc_id}", int(rng.integers(-(2**63), 2**63 - 1))),
                )
        assert segment_entries(index) == expected_entries(index)
        with index.transaction():
            changed = [doc(f"d{k:03d}", fp ^ (1 << (k % 64)), f"changed{k}") for k, fp in enumerate(fps[:10])]
            index.upsert_documents(changed + [doc("d001", fps[1], "c1")])  # and one changed back
            index.delete_paths(["d011", "d012", "big900000"])
            index.move_document("d013", "moved", 10, 2)
            index.mark_all_stale()
        assert segment_entries(index) == expected_entries(index)
        with index.transaction():
            index.upsert_documents(doc(f"d{k:03d}", fp, f"c{k}") for k, fp in enumerate(fps) if k not in (11, 12, 13))
            # identical copies of a document indexed before: found by near(), not in the segment table
            index.upsert_documents([doc("d014", fps[0], "c0"), doc("d015", fps[0], "c0")], {content_hash(b"c0")})
            index.upsert_documents([doc("d014", fps[14], "c14")], set())  # no more a copy: in the table again
        assert segment_entries(index) == expected_entries(index)
        assert index.conn.execute("SELECT path FROM documents WHERE unsegmented").fetchall() == [("d015",)]
        live = {d.path: d.fingerprint for d in index.documents()}
        for query in (fps[0], fps[3] ^ 0b1011, 0):
            for radius in (0, 5, 12):
                assert {(d.path, dist) for d, dist in index.near(query, radius)} == {
                    (p, hamming(fp, query)) for p, fp in live.items() if hamming(fp, query) <= radius
                }
        with pytest.raises(sqlite3.IntegrityError, match="more documents than it can"), index.transaction():
            index.conn.execute(
                "INSERT INTO documents(id, path, size, mtime_ns, content_hash, chars, fingerprint) "
                "VALUES (?, 'too far', 1, 1, x'00', 1, 0)",
                (MAX_DOCUMENT_ID,),
            )


def test_band_keys_are_kept_as_their_low_bytes(tmp_path):
    texts = ["床前明月光，疑是地上霜。举头望明月，低头思故乡。", "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"]
    bands = [text_bands(normalize(t)) for t in texts]
    docs = [
        Document(f"t{k}", 10, 1, content_hash(t.encode()), "utf-8", len(t), k, b"", b"", b.tobytes())
        for k, (t, b) in enumerate(zip(texts, bands))
    ] + [doc("u, no shingles", 3)]
    with Index(tmp_path / "i.sqlite") as index:
        with index.transaction():
            index.upsert_documents(docs)
        keys, empty = index.band_keys(DESKTOP.bands)
        assert keys.tolist() == [(b & (2 ** (8 * BAND_KEY_BYTES) - 1)).tolist() for b in bands] + [[0] * DESKTOP.bands]
        assert empty.tolist() == [False, False, True]
        stored = {len(k) for (k,) in index.conn.execute("SELECT keys FROM minhash_bands")}
        assert stored == {BAND_KEY_BYTES * DESKTOP.bands}


def _segment_triggers(index: Index) -> list[str]:
    return [r[0] for r in index.conn.execute("SELECT name FROM sqlite_master WHERE name LIKE 'segments_%' ORDER BY 1")]


def _near_all(index: Index, queries: list[int]) -> list[set[tuple[str, int]]]:
    return [{(d.path, dist) for d, dist in index.near(q, 12)} for q in queries]


def test_a_bulk_write_makes_the_segment_table_after_its_documents(tmp_path):
    """segmented_after: writing at least as many documents as the index holds, the triggers are off meanwhile
    and the table made once they are in (failing too), equal to what the triggers keep; a smaller write keeps
    them on."""
    rng = np.random.default_rng(11)
    fps = clustered(rng, 20, 7, 8)
    triggers = ["segments_add", "segments_move", "segments_remove"]
    with Index(tmp_path / "kept.sqlite") as kept, Index(tmp_path / "bulk.sqlite") as bulk:
        for index in (kept, bulk):
            with index.transaction():
                index.upsert_documents(doc(f"d{k:03d}", fp, f"c{k}") for k, fp in enumerate(fps[:40]))
        with bulk.segmented_after(len(fps), min_rows=1):
            assert _segment_triggers(bulk) == [] and bulk.meta("segments_pending") == "1"
            with bulk.transaction():
                bulk.upsert_documents(doc(f"d{k:03d}", fp, f"c{k}") for k, fp in enumerate(fps))
                bulk.upsert_documents([doc("d001", fps[2] ^ 1, "new1")])
                bulk.delete_paths(["d003"])
        with kept.transaction():
            kept.upsert_documents(doc(f"d{k:03d}", fp, f"c{k}") for k, fp in enumerate(fps))
            kept.upsert_documents([doc("d001", fps[2] ^ 1, "new1")])
            kept.delete_paths(["d003"])
        assert _segment_triggers(bulk) == triggers and bulk.meta("segments_pending") is None
        assert segment_entries(bulk) == expected_entries(bulk) == segment_entries(kept)
        assert _near_all(bulk, fps[::9]) == _near_all(kept, fps[::9])
        with pytest.raises(RuntimeError), bulk.segmented_after(bulk.count(), min_rows=1):
            with bulk.transaction():
                bulk.upsert_documents([doc("late", fps[5] ^ 3, "late")])
            raise RuntimeError("a failing scan")
        assert _segment_triggers(bulk) == triggers and segment_entries(bulk) == expected_entries(bulk)
        with bulk.segmented_after(bulk.count() - 1, min_rows=1):  # fewer than it holds: kept by the triggers
            assert _segment_triggers(bulk) == triggers


def test_a_kill_during_a_bulk_write_leaves_the_segment_table_to_the_next_open(tmp_path):
    """A kill between the documents of a bulk write and the segment table made after them: the file stays
    marked, and the next open makes the table (the triggers back), so near() finds every document."""
    rng = np.random.default_rng(12)
    fps = clustered(rng, 10, 6, 8)
    path = tmp_path / "i.sqlite"
    index = Index(path)
    bulk = index.segmented_after(len(fps), min_rows=1)
    bulk.__enter__()
    with index.transaction():
        index.upsert_documents(doc(f"d{k:03d}", fp, f"c{k}") for k, fp in enumerate(fps))
    index.close()  # as a kill leaves it: committed documents, no segment table made
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM segments").fetchone()[0] == 0
    conn.close()
    with Index(path) as index:
        assert _segment_triggers(index) == ["segments_add", "segments_move", "segments_remove"]
        assert index.meta("segments_pending") is None and index.integrity_ok()
        assert segment_entries(index) == expected_entries(index) != set()
        assert {d.path for d, _ in index.near(fps[0], 0)} >= {"d000"}


def test_an_open_while_a_scan_writes_in_bulk_leaves_the_segment_table_to_that_scan(tmp_path):
    """Another open of an index a scan is writing in bulk (its scan lock held, its segment table marked to be
    made at its end) does not make the table meanwhile (seconds at a million documents, holding the write
    lock); once no scan holds the lock, a marked table is made by the next open."""
    rng = np.random.default_rng(13)
    fps = clustered(rng, 10, 6, 8)
    path = tmp_path / "i.sqlite"
    with Index(path) as scanning, scanning.scan_lock(), scanning.segmented_after(len(fps), min_rows=1):
        with scanning.transaction():
            scanning.upsert_documents(doc(f"d{k:03d}", fp, f"c{k}") for k, fp in enumerate(fps))
        with Index(path) as other:
            assert other.meta("segments_pending") == "1" and _segment_triggers(other) == []
            assert segment_entries(other) == set()
    with Index(path) as after:  # the scan made it at its end
        assert after.meta("segments_pending") is None and segment_entries(after) == expected_entries(after) != set()
    killed = Index(path)
    lock = killed.scan_lock()
    lock.__enter__()
    bulk = killed.segmented_after(killed.count(), min_rows=1)  # held: a generator let go would end the block
    bulk.__enter__()
    with killed.transaction():
        killed.upsert_documents([doc("late", fps[3] ^ 5, "late")])
    killed.close()
    with Index(path) as other:  # the lock still held: left as it is
        assert other.meta("segments_pending") == "1"
    lock.__exit__(None, None, None)  # the scanning process gone: the OS releases its lock
    with Index(path) as index:
        assert index.meta("segments_pending") is None and segment_entries(index) == expected_entries(index)
        assert _segment_triggers(index) == ["segments_add", "segments_move", "segments_remove"]


def test_near_orders_by_distance(tmp_path):
    with Index(tmp_path / "i.sqlite") as index:
        with index.transaction():
            index.upsert_documents([doc("far", 0b111), doc("same", 0), doc("near", 0b1)])
        assert [(d.path, dist) for d, dist in index.near(0, 3)] == [("same", 0), ("near", 1), ("far", 3)]


def test_documents_round_trip_including_high_bit_fingerprints(tmp_path):
    docs = [
        doc("a", 2**64 - 1),
        doc("b", 2**63),
        doc("c", 12345),
        Document("d", 10, 1, content_hash(b"d"), "gb18030", 5, 7),
    ]
    with Index(tmp_path / "i.sqlite") as index:
        with index.transaction():
            index.upsert_documents(docs)
        assert sorted(index.documents(), key=lambda d: d.path) == docs
        snap = index.snapshot()
        assert snap.fingerprints.dtype == np.uint64
        assert [int(x) for x in snap.fingerprints] == [2**64 - 1, 2**63, 12345, 7]
        assert snap.encodings == ["utf-8", "utf-8", "utf-8", "gb18030"] and index.document("d") == docs[3]


def test_index_is_wal_and_reopens_with_its_data(tmp_path):
    path = tmp_path / "i.sqlite"
    with Index(path) as index:
        with index.transaction():
            index.upsert_documents([doc("a.txt", 7)])
            index.replace_problems([Problem("bad.txt", "binary file")])
    with Index(path) as index:
        assert index.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert index.document("a.txt").fingerprint == 7
        assert index.problems() == [Problem("bad.txt", "binary file")]
        assert index.integrity_ok()


def test_an_index_of_another_layout_is_rebuilt_and_keeps_the_decisions(tmp_path):
    path = tmp_path / "old.sqlite"
    with Index(path) as index:
        with index.transaction():
            index.upsert_documents([doc("a.txt", 1, "a"), doc("b.txt", 2, "b"), doc("c.txt", 3, "c")])
        index.set_keep("a.txt", True)
        index.set_reviewed("a.txt", {"a.txt": "ha", "c.txt": "hc"})
        index.set_queued_for_trash("b.txt", True)
        index.ignore_pair("a.txt", "c.txt")
        with index.transaction():
            index.set_meta("schema_version", str(SCHEMA_VERSION + 99))  # a layout this version cannot read
    with Index(path) as index:
        assert index.rebuilt and index.migrated_decisions == 3
        assert "3 keep marks, queued copies and 'not duplicates' decisions were migrated" in index.rebuilt_reason
        assert index.reviewed() == {"a.txt": {"a.txt": "ha", "c.txt": "hc"}}
        assert index.count() == 0  # nothing misread: every document is read again from the folder
        assert index.meta("schema_version") == str(SCHEMA_VERSION)
        assert set(index.stored_states()) == {"a.txt", "b.txt", "c.txt"}  # waiting to be read, ids kept
        with index.transaction():
            index.upsert_documents([doc("a.txt", 1, "a"), doc("b.txt", 2, "b"), doc("c.txt", 3, "c")])
        assert index.keep_marks() == {"a.txt"}
        assert index.queued_for_trash() == {"b.txt"}
        assert index.ignored_pairs() == {("a.txt", "c.txt")}
    with Index(path) as index:
        assert not index.rebuilt


def test_an_additive_change_creates_what_is_missing_and_drops_nothing(tmp_path):
    path = tmp_path / "i.sqlite"
    with Index(path) as index:
        with index.transaction():
            index.upsert_documents([doc("a.txt", 1, "a"), doc("b.txt", 2, "b")])
        index.set_keep("a.txt", True)
    conn = sqlite3.connect(path)  # as an index written before the trash queue and the pairing flag existed
    conn.executescript("DROP TABLE trash_queue; ALTER TABLE documents DROP COLUMN paired;")
    conn.close()
    with Index(path) as index:
        assert not index.rebuilt
        assert index.count() == 2 and index.keep_marks() == {"a.txt"}
        index.set_queued_for_trash("b.txt", True)
        assert index.queued_for_trash() == {"b.txt"}
        assert not index.paired_fingerprints()[1].any()


def test_decisions_persist_and_follow_the_document(tmp_path):
    path = tmp_path / "i.sqlite"
    with Index(path) as index:
        with index.transaction():
            index.upsert_documents([doc("a.txt", 1, "ha"), doc("b.txt", 2, "hb")])
        index.set_keep("a.txt", True)
        index.ignore_pair("b.txt", "a.txt")
        with index.transaction():
            index.move_document("a.txt", "moved/a.txt", 10, 2)
    with Index(path) as index:
        assert index.keep_marks() == {"moved/a.txt"}
        assert index.ignored_pairs() == {("b.txt", "moved/a.txt")}
        with index.transaction():
            index.delete_paths(["b.txt"])
        assert index.ignored_pairs() == set()


def test_trash_queue_persists_and_excludes_keep(tmp_path):
    path = tmp_path / "i.sqlite"
    with Index(path) as index:
        with index.transaction():
            index.upsert_documents([doc("a.txt", 1, "ha"), doc("b.txt", 2, "hb")])
        index.set_queued_for_trash("a.txt", True)
        index.set_keep("b.txt", True)
        index.set_queued_for_trash("b.txt", True)  # queuing a kept copy unmarks it
    with Index(path) as index:
        assert index.queued_for_trash() == {"a.txt", "b.txt"}
        assert index.keep_marks() == set()
        index.set_keep("a.txt", True)  # keeping a queued copy takes it off the queue
        assert index.queued_for_trash() == {"b.txt"}
        with index.transaction():
            index.delete_paths(["b.txt"])  # gone from the folder: gone from the queue
        assert index.queued_for_trash() == set()


def test_an_older_index_still_all_in_its_write_ahead_log_is_recognised(tmp_path):
    """A scan of an older simdesk killed before its first checkpoint leaves the file's header page alone in
    the file (no application id, no table) and everything else in the -wal."""
    live = tmp_path / "live.sqlite"
    conn = sqlite3.connect(live)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
        "INSERT INTO meta VALUES ('schema_version', '6');"
        "CREATE TABLE documents (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER, "
        "mtime_ns INTEGER, content_hash TEXT, encoding TEXT, chars INTEGER, fingerprint INTEGER, "
        "b0 INTEGER, b1 INTEGER, b2 INTEGER, b3 INTEGER, lines BLOB, votes BLOB);"
        "CREATE TABLE keep_marks (doc_id INTEGER PRIMARY KEY);"
        "INSERT INTO documents(id, path) VALUES (1, 'a.txt'); INSERT INTO keep_marks VALUES (1);"
    )
    killed = tmp_path / "killed.sqlite"  # the files as the kill left them (the connection never closed)
    killed.write_bytes(live.read_bytes())
    (tmp_path / "killed.sqlite-wal").write_bytes((tmp_path / "live.sqlite-wal").read_bytes())
    conn.close()
    assert killed.stat().st_size <= 4096
    with Index(killed) as index:
        assert index.rebuilt and index.migrated_decisions == 1
        assert index.keep_marks() == {"a.txt"}
        assert "documents" in index.db.table_names() and "b0" not in index.db.table("documents").columns_dict


def test_a_snapshot_gives_content_hashes_as_strings_and_its_arrays_read_in_blocks(tmp_path, monkeypatch):
    """The snapshot's content hashes (one array of hex digits) read as the strings written, and class rows as a
    list of them does; the analysis's arrays read a block of rows at a time equal those read at once."""
    from simdesk.core.index import analysis_cache
    from simdesk.core.matching.copies import identical_copies

    contents = [f"c{k % 7}" for k in range(23)]
    with Index(tmp_path / "i.sqlite") as index:
        with index.transaction():
            index.upsert_documents(doc(f"d{k:03d}", k * 7919, c) for k, c in enumerate(contents))
        snap = index.snapshot()
        expected = [content_hash(c.encode()) for c in contents]
        assert list(snap.hashes) == expected and [snap.hashes[k] for k in range(23)] == expected
        assert snap.hashes[3] == expected[3] and isinstance(snap.hashes[np.int64(3)], str)
        assert list(snap.hashes[2:5]) == expected[2:5]
        assert np.array_equal(identical_copies(snap.hashes).rep, identical_copies(expected).rep)
        assert np.asarray(snap.hashes).tolist() == [h.encode() for h in expected]
        whole = (index.band_keys(DESKTOP.bands), index.paired_fingerprints(), index.analysis_state())
        monkeypatch.setattr(analysis_cache, "READ_ROWS", 5)
        blocks = (index.band_keys(DESKTOP.bands), index.paired_fingerprints(), index.analysis_state())
    (keys, empty), (paired, known), (lines, clean, fps) = whole
    (keys5, empty5), (paired5, known5), (lines5, clean5, fps5) = blocks
    for a, b in [(keys, keys5), (empty, empty5), (paired, paired5), (known, known5), (clean, clean5), (fps, fps5)]:
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert np.array_equal(lines.values, lines5.values) and np.array_equal(lines.bounds, lines5.bounds)
    assert keys.shape == (23, DESKTOP.bands) and fps.tolist() == [k * 7919 for k in range(23)]


def _plans(conn: sqlite3.Connection) -> dict[str, str]:
    """The query plan (its details, joined) of the content trigger's delete of a document's scores, and of the
    delete a deleted document's ON DELETE CASCADE runs on each of the scores' columns."""
    body = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'documents_content_changed'").fetchone()[0]
    trigger = next(s for s in body.split(";") if "DELETE FROM scores" in s).split("BEGIN")[-1]
    statements = {
        "trigger": trigger.replace("new.id", "?"),
        "cascade a": "DELETE FROM scores WHERE a = ?",
        "cascade b": "DELETE FROM scores WHERE b = ?",
    }
    return {
        name: " | ".join(row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", (1,) * sql.count("?")))
        for name, sql in statements.items()
    }


def test_a_documents_scores_are_found_by_either_member_without_reading_the_whole_table(tmp_path):
    """The content trigger and the cascade of a deleted document look a document's scores up by the key (a) or
    by the index on b; an index file made without that index gets it when opened, its scores kept."""
    path = tmp_path / "i.sqlite"
    with Index(path) as index:
        with index.transaction():
            index.upsert_documents([doc(f"{k}.txt", k, f"{k}") for k in range(1, 5)])
        index.store_scores([(1, 2, Relation(0.5, 0.5, 0.5)), (2, 3, Relation(0.5, 0.5, 0.5))])
        plans = _plans(index.conn)
    assert plans == {
        "trigger": "MULTI-INDEX OR | INDEX 1 | SEARCH scores USING PRIMARY KEY (a=?) | INDEX 2 | "
        "SEARCH scores USING COVERING INDEX scores_b (b=?)",
        "cascade a": "SEARCH scores USING PRIMARY KEY (a=?)",
        "cascade b": "SEARCH scores USING COVERING INDEX scores_b (b=?)",
    }
    conn = sqlite3.connect(path)  # as an index written before the index on b existed
    conn.execute("DROP INDEX scores_b")
    assert "SCAN scores" in _plans(conn)["cascade b"]
    conn.close()
    with Index(path) as index:
        assert not index.rebuilt and sorted(index.scores()) == [(1, 2), (2, 3)]
        assert _plans(index.conn) == plans
        with index.transaction():
            index.conn.execute("DELETE FROM documents WHERE id = 2")
        assert index.scores() == {}


def _has_scores_b(index: Index) -> bool:
    return index.conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'scores_b'").fetchone()[0] == 1


def test_scores_stored_into_an_empty_table_get_their_index_after(tmp_path):
    """scores_indexed_after: with no scores kept, the index on b is made once the scores are in (failing too),
    and the scores are found by it as before; with scores kept it stays all along, and a pair stored twice in
    one call keeps the last."""
    with Index(tmp_path / "i.sqlite") as index:
        with index.transaction():
            index.upsert_documents([doc(f"{k}.txt", k, f"{k}") for k in range(1, 5)])
        plans = _plans(index.conn)
        with pytest.raises(RuntimeError), index.scores_indexed_after():
            assert not _has_scores_b(index)
            raise RuntimeError("a failing analysis")
        assert _has_scores_b(index)
        with index.scores_indexed_after():
            assert not _has_scores_b(index)
            index.store_score_arrays(
                np.array([3, 1, 2]), np.array([1, 2, 1]), np.array([0.25, 0.5, 0.75]), np.full((3, 2), 0.5)
            )
        assert _has_scores_b(index) and _plans(index.conn) == plans
        assert {key: r.score for key, r in index.scores().items()} == {(1, 2): 0.75, (1, 3): 0.25}
        with index.scores_indexed_after():
            assert _has_scores_b(index)
            index.store_scores([(2, 4, Relation(0.5, 0.5, 0.5))])
        assert _has_scores_b(index) and len(index.scores()) == 3


def test_scores_failing_where_their_index_cannot_be_made_again_tell_their_own_error(tmp_path):
    """scores_indexed_after left on an error while the index on b cannot be made (the index closed here; a
    full disk): the caller sees the scores' error, and the next writable open makes the index."""
    with Index(tmp_path / "i.sqlite") as index:
        with pytest.raises(RuntimeError, match="the analysis's own"), index.scores_indexed_after():
            index.close()
            raise RuntimeError("the analysis's own")
    with Index(tmp_path / "i.sqlite") as index:
        assert _has_scores_b(index)


def test_scores_stored_as_arrays_read_back_as_the_relations_stored_one_by_one(tmp_path):
    nan = float("nan")
    pairs = [(2, 1, Relation(0.5, 0.25, nan)), (1, 3, Relation(0.9, nan, 0.75)), (3, 2, Relation(0.125, 1.0, 0.5))]
    kept = {}
    for name, store in (("rows", "store_scores"), ("arrays", "store_score_arrays")):
        with Index(tmp_path / f"{name}.sqlite") as index:
            with index.transaction():
                index.upsert_documents([doc(p, k, p) for k, p in enumerate("abc", start=1)])
            if store == "store_scores":
                index.store_scores(pairs)
            else:
                index.store_score_arrays(
                    np.array([a for a, _, _ in pairs]),
                    np.array([b for _, b, _ in pairs]),
                    np.array([r.score for _, _, r in pairs]),
                    np.array([r.shares() for _, _, r in pairs]),
                )
            kept[name] = {key: (r.score, *r.shares()) for key, r in index.scores().items()}
            rows = index.conn.execute(
                "SELECT a, b, a_in_b IS NULL, b_in_a IS NULL FROM scores ORDER BY a, b"
            ).fetchall()
    # (smaller id, larger id), each share of that id's text; an unknown share is NULL in the file, NaN read back
    assert rows == [(1, 2, 1, 0), (1, 3, 1, 0), (2, 3, 0, 0)]
    assert str(kept["rows"]) == str(kept["arrays"])
    assert str(kept["arrays"]) == str({(1, 2): (0.5, nan, 0.25), (1, 3): (0.9, nan, 0.75), (2, 3): (0.125, 0.5, 1.0)})


def test_scores_stored_as_arrays_in_many_statements_keep_each_pair_last_given(tmp_path):
    """More pairs than one statement inserts (SCORE_ROWS), in any order of their ids, some given twice: each
    pair's row is the last given of it (shares swapped with its ids, NaN stored as NULL)."""
    n = 60
    rng = np.random.default_rng(3)
    a, b = rng.integers(1, n + 1, 3 * SCORE_ROWS + 7), rng.integers(1, n + 1, 3 * SCORE_ROWS + 7)
    a, b = a[a != b], b[a != b]
    scores = rng.random(len(a))
    shares = np.where(rng.random((len(a), 2)) < 0.2, np.nan, rng.random((len(a), 2)))
    expected: dict[tuple[int, int], tuple] = {}
    for x, y, score, (x_in_y, y_in_x) in zip(a.tolist(), b.tolist(), scores.tolist(), shares.tolist()):
        first, second = (x_in_y, y_in_x) if x < y else (y_in_x, x_in_y)
        expected[min(x, y), max(x, y)] = (score, *(None if v != v else v for v in (first, second)))
    assert len(expected) < len(a)  # some pairs given twice
    with Index(tmp_path / "i.sqlite") as index:
        with index.transaction():
            index.upsert_documents([doc(f"{k:03}", k, f"{k}") for k in range(1, n + 1)])
        index.store_score_arrays(a, b, scores, shares)
        rows = index.conn.execute("SELECT a, b, score, a_in_b, b_in_a FROM scores ORDER BY a, b").fetchall()
    assert rows == [(*key, *expected[key]) for key in sorted(expected)]


def test_new_clean_fingerprints_drop_the_scores_of_their_documents_and_no_other(tmp_path):
    n = 1000  # more documents than one statement deletes the scores of
    with Index(tmp_path / "i.sqlite") as index:
        with index.transaction():
            index.upsert_documents([doc(f"{k:04}", k, f"{k}") for k in range(1, n + 1)])
        index.store_scores((k, k + 1, Relation(0.5, 0.5, 0.5)) for k in range(1, n))
        index.store_short_texts((k, True) for k in range(1, n + 1))
        recomputed = [(k, 7 * k) for k in range(1, 601)] + [(k, None) for k in range(601, 701)]
        index.set_clean_fingerprints(recomputed, frozenset({1, 2}))
        assert sorted(index.scores()) == [(k, k + 1) for k in range(601, n)]  # a None keeps its scores
        rows = index.conn.execute("SELECT id, clean, clean_fp, short FROM documents ORDER BY id").fetchall()
        assert rows[:600] == [(k, 1, 7 * k, None) for k in range(1, 601)]
        assert rows[600:700] == [(k, 0, None, None) for k in range(601, 701)]
        assert rows[700:] == [(k, 0, None, 1) for k in range(701, n + 1)]
        assert index.clean_boilerplate() == frozenset({1, 2})
