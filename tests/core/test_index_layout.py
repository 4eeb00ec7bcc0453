"""The index's layout: SimHash votes are not kept in the file, nor a key per document of the boilerplate its
clean fingerprint was computed without (one set for the index); indexes of the previous layouts (schema 7,
votes stored per document; schema 8, a clean key per document; schema 9, four expression indexes on the
fingerprint's blocks and every encoding spelled out) are migrated in place with their decisions, and rescans
and the verified grouping give what a fresh index gives, also when the boilerplate changes after the index
was reopened (votes computed again from the texts)."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3

import numpy as np

from simdesk.core.fingerprint.features import DEFAULT_FEATURES
from simdesk.core.index.layout import SCHEMA_VERSION
from simdesk.core.index.scan import scan, text_document
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import VerifySettings, analyse
from simdesk.core.reading.documents import read_text_file
from simdesk.core.records import MAX_FILE_BYTES, ScanOptions
from tests.core.test_verification import FOOTER, SAYINGS, write

# The boilerplate table of schema 7, as that layout created it
SCHEMA_7_INPUTS = (
    'CREATE TABLE "boilerplate_inputs" (\n   "doc_id" INTEGER PRIMARY KEY REFERENCES "documents"("id") '
    'ON DELETE CASCADE,\n   "lines" BLOB NOT NULL,\n   "votes" BLOB NOT NULL\n)'
)
VERIFY = VerifySettings(jobs=1)


def as_schema_9(db) -> None:
    """Rewrite a closed index in the layout of schema 9: an expression index on each block of the fingerprint
    instead of the segment table and its triggers, the encoding a NOT NULL column holding every name, band keys
    of 4 bytes (here with a high byte the index need not keep)."""
    conn = sqlite3.connect(db)
    wide = " || ".join(f"substr(keys, {3 * band + 1}, 3) || x'a5'" for band in range(16))
    conn.execute(f"UPDATE minhash_bands SET keys = CAST({wide} AS BLOB)")
    for name in ("segments_add", "segments_remove", "segments_move"):
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("DROP TABLE segments")
    for k in range(4):
        conn.execute(f"CREATE INDEX documents_b{k} ON documents(((fingerprint >> {16 * k}) & 65535))")
    conn.execute("ALTER TABLE documents ADD COLUMN spelled TEXT NOT NULL DEFAULT ''")
    conn.execute("UPDATE documents SET spelled = coalesce(encoding, 'utf-8')")
    conn.execute("ALTER TABLE documents DROP COLUMN encoding")
    conn.execute("ALTER TABLE documents RENAME COLUMN spelled TO encoding")
    conn.execute("DROP TABLE _sqlite_migrations")  # the steps run, recorded since layout 10
    conn.execute("UPDATE simdesk_meta SET value = '9' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()


def as_schema_8(db) -> None:
    """Rewrite a closed index in the layout of schema 8: each document's clean key (blake2b of the boilerplate
    hashes its clean fingerprint was computed without, as a signed integer; 0: none; NULL: not computed)
    instead of the flag and the index's one set."""
    as_schema_9(db)
    conn = sqlite3.connect(db)
    stored = np.array(sorted(h for (h,) in conn.execute("SELECT hash FROM clean_boilerplate")), dtype=np.uint32)
    rows = conn.execute(
        "SELECT d.id, d.clean, coalesce(l.hashes, x'') FROM documents d LEFT JOIN line_hashes l ON l.doc_id = d.id"
    ).fetchall()
    conn.execute("DROP TRIGGER documents_content_changed")
    conn.execute("ALTER TABLE documents ADD COLUMN clean_key INTEGER")
    for doc_id, clean, blob in rows:
        hashes = np.frombuffer(blob, dtype="<u4")
        hits = hashes[np.isin(hashes, stored)]
        key = int.from_bytes(hashlib.blake2b(hits.tobytes(), digest_size=8).digest(), "big") if len(hits) else 0
        conn.execute(
            "UPDATE documents SET clean_key = ? WHERE id = ?",
            (None if not clean else key - (1 << 64) if key >= 1 << 63 else key, doc_id),
        )
    conn.execute("ALTER TABLE documents DROP COLUMN clean")
    conn.execute("DROP TABLE clean_boilerplate")
    conn.execute("""CREATE TRIGGER documents_content_changed AFTER UPDATE OF content_hash, fingerprint ON documents
        WHEN old.content_hash != new.content_hash OR old.fingerprint != new.fingerprint
    BEGIN
        DELETE FROM scores WHERE a = new.id OR b = new.id;
        UPDATE documents SET clean_fp = NULL, clean_key = NULL, paired = 0 WHERE id = new.id;
    END""")
    conn.execute("UPDATE simdesk_meta SET value = '8' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()


def as_schema_7(db, root) -> None:
    """Rewrite a closed index in the layout of schema 7: line hashes and packed votes in one table."""
    as_schema_8(db)
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "SELECT d.id, d.path, l.hashes FROM documents d JOIN line_hashes l ON l.doc_id = d.id"
    ).fetchall()
    conn.execute(SCHEMA_7_INPUTS)
    for doc_id, path, hashes in rows:
        votes = text_document(path, read_text_file(root / path, MAX_FILE_BYTES), DEFAULT_FEATURES).votes
        conn.execute("INSERT INTO boilerplate_inputs VALUES (?, ?, ?)", (doc_id, hashes, votes))
    conn.execute("DROP TABLE line_hashes")
    conn.execute("UPDATE simdesk_meta SET value = '7' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()


def groups(grouper) -> list[list[str]]:
    return sorted(sorted(m.path for m in g.members) for g in grouper.at(12))


def fresh(root, db) -> tuple[list[list[str]], dict[str, int]]:
    """Groups and boilerplate-free fingerprints of the folder in a new index."""
    with Index(db) as index:
        scan(root, index, ScanOptions(jobs=1))
        grouper = analyse(root, index, verify=VERIFY)
        snap = grouper.snapshot
        return groups(grouper), dict(zip(snap.paths, snap.fingerprints.tolist()))


def test_votes_are_not_kept_in_the_index_file(tmp_path):
    root = tmp_path / "docs"
    write(root, {f"s{k:02d}.txt": f"{s}\n\n{FOOTER}" for k, s in enumerate(SAYINGS)})
    db = tmp_path / "i.sqlite"
    with Index(db) as index:
        scan(root, index, ScanOptions(jobs=1))
        analyse(root, index, verify=VERIFY)
    conn = sqlite3.connect(db)
    columns = {
        c
        for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        for c in (r[1] for r in conn.execute(f'PRAGMA table_info("{t}")'))
    }
    assert "votes" not in columns and "lines" not in columns
    assert conn.execute("SELECT count(*) FROM line_hashes").fetchone()[0] == len(SAYINGS)
    conn.close()


def sayings_with_a_footer(tmp_path):
    """Every saying with a common footer (boilerplate), and s00 again without it, scanned and analysed, plain.txt
    marked to keep: (folder, its files, the index file, the groups)."""
    root = tmp_path / "docs"
    files = {f"s{k:02d}.txt": f"{s}\n\n{FOOTER}" for k, s in enumerate(SAYINGS)}
    files["plain.txt"] = SAYINGS[0]  # a repost of s00 without the footer
    write(root, files)
    db = tmp_path / "i.sqlite"
    with Index(db) as index:
        scan(root, index, ScanOptions(jobs=1))
        before = groups(analyse(root, index, verify=VERIFY))
        index.set_keep("plain.txt", True)
    return root, files, db, before


def test_a_schema_7_index_is_migrated_in_place_and_keeps_decisions_scores_and_groups(tmp_path):
    root, files, db, before = sayings_with_a_footer(tmp_path)
    with Index(db) as index:
        index.set_queued_for_trash("s00.txt", True)
        index.ignore_pair("s01.txt", "s02.txt")
        scores = index.scores()
        documents = list(index.documents())
    assert before == [["plain.txt", "s00.txt"]]
    as_schema_7(db, root)

    with Index(db) as index:
        assert not index.rebuilt and index.meta("schema_version") == str(SCHEMA_VERSION)
        assert "boilerplate_inputs" not in index.db.table_names()
        assert list(index.documents()) == documents and index.scores() == scores
        assert index.keep_marks() == {"plain.txt"} and index.queued_for_trash() == {"s00.txt"}
        assert index.ignored_pairs() == {("s01.txt", "s02.txt")}
        rescan = scan(root, index, ScanOptions(jobs=1))
        assert rescan.stats.unchanged == len(files) and rescan.stats.new == rescan.stats.changed == 0
        assert groups(analyse(root, index, verify=VERIFY)) == before


def test_boilerplate_that_appears_after_reopening_gives_what_a_fresh_index_gives(tmp_path):
    """Nine documents share a footer (boilerplate needs ten): after the index is reopened (no votes kept from
    a scan), two more make it boilerplate, and the nine old ones are read again for their votes."""
    root = tmp_path / "docs"
    write(root, {f"s{k:02d}.txt": f"{s}\n\n{FOOTER}" for k, s in enumerate(SAYINGS[:9])} | {"plain.txt": SAYINGS[0]})
    db = tmp_path / "i.sqlite"
    with Index(db) as index:
        scan(root, index, ScanOptions(jobs=1))
        first = groups(analyse(root, index, verify=VERIFY))  # the footer is content: it groups the nine
    write(root, {f"s{k:02d}.txt": f"{s}\n\n{FOOTER}" for k, s in enumerate(SAYINGS[9:11], start=9)})
    with Index(db) as index:
        scan(root, index, ScanOptions(jobs=1))
        grouper = analyse(root, index, verify=VERIFY)
        got = groups(grouper), dict(zip(grouper.snapshot.paths, grouper.snapshot.fingerprints.tolist()))
    assert got == fresh(root, tmp_path / "fresh.sqlite")
    assert got[0] == [["plain.txt", "s00.txt"]] != first


def test_a_schema_8_index_is_migrated_in_place_and_its_clean_fingerprints_kept(tmp_path):
    """Each document whose stored clean key matches its boilerplate is flagged clean, so the analysis after
    the migration reads no text; one whose key disagrees (here: a key of other lines) is computed again."""
    root, _, db, before = sayings_with_a_footer(tmp_path)
    with Index(db) as index:
        scores = index.scores()
        fps = index.analysis_state()[2]
        boilerplate = index.clean_boilerplate()
    assert boilerplate and before == [["plain.txt", "s00.txt"]]
    as_schema_8(db)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE documents SET clean_key = 12345 WHERE path = 's03.txt'")
    conn.commit()
    conn.close()

    with Index(db) as index:
        assert not index.rebuilt and index.meta("schema_version") == str(SCHEMA_VERSION)
        assert index.clean_boilerplate() == boilerplate and index.scores() == scores
        lines, clean, stored = index.analysis_state()
        paths = index.snapshot().paths
        assert [p for p, c in zip(paths, clean) if not c] == ["s03.txt"]
        assert stored.tolist() == fps.tolist() and index.keep_marks() == {"plain.txt"}
        assert groups(analyse(root, index, verify=VERIFY)) == before
        assert index.analysis_state()[1].all()
    assert (before, dict(zip(paths, fps.tolist()))) == fresh(root, tmp_path / "fresh.sqlite")


def test_a_schema_9_index_is_migrated_in_place_with_its_decisions_and_a_segment_table(tmp_path):
    """The block indexes give way to the segment table (near() as before), the common encoding to NULL; ids,
    documents, scores, boilerplate-free fingerprints and every decision stay, and nothing is read again."""
    root, files, db, before = sayings_with_a_footer(tmp_path)
    (root / "gbk.txt").write_bytes("另一篇文章，用国标码保存，与其他文章都不相同。".encode("gb18030"))
    with Index(db) as index:
        scan(root, index, ScanOptions(jobs=1))
        analyse(root, index, verify=VERIFY)
        index.set_queued_for_trash("s00.txt", True)
        index.ignore_pair("s01.txt", "s02.txt")
        index.set_reviewed("plain.txt", {"s00.txt": "seen"})
        kept = (
            list(index.documents()),
            index.scores(),
            index.analysis_state()[2].tolist(),
            index.stored_states(),
            index.band_keys(16)[0].tolist(),
        )
        near = {fp: index.near(fp, 12) for fp in (d.fingerprint for d in kept[0][:3])}
    assert {d.encoding for d in kept[0]} == {"utf-8", "gb18030"}
    as_schema_9(db)

    with Index(db) as index:
        assert not index.rebuilt and index.meta("schema_version") == str(SCHEMA_VERSION)
        assert sorted(i.name for i in index.db.table("documents").indexes) == [
            "documents_path",
            "documents_unsegmented",
        ]
        assert (
            list(index.documents()),
            index.scores(),
            index.analysis_state()[2].tolist(),
            index.stored_states(),
            index.band_keys(16)[0].tolist(),
        ) == kept
        assert {fp: index.near(fp, 12) for fp in near} == near
        assert index.conn.execute("SELECT count(*) FROM documents WHERE encoding = 'utf-8'").fetchone()[0] == 0
        assert index.keep_marks() == {"plain.txt"} and index.queued_for_trash() == {"s00.txt"}
        assert index.ignored_pairs() == {("s01.txt", "s02.txt")}
        assert index.reviewed() == {"plain.txt": {"s00.txt": "seen"}}
        rescan = scan(root, index, ScanOptions(jobs=1))
        assert rescan.stats.unchanged == len(files) + 1 and rescan.stats.new == rescan.stats.changed == 0
        assert groups(analyse(root, index, verify=VERIFY)) == before


def analysed(root, index) -> tuple[dict[tuple[str, str], float], dict[str, int]]:
    """Every verified pair of the folder with its score, and each document's boilerplate-free fingerprint."""
    grouper = analyse(root, index, verify=VERIFY)
    paths = grouper.snapshot.paths
    pairs = {
        (paths[a], paths[b]): round(s, 9)
        for a, b, s in zip(grouper.i.tolist(), grouper.j.tolist(), grouper.scores.tolist())
    }
    return pairs, dict(zip(paths, grouper.snapshot.fingerprints.tolist()))


def test_rescans_of_a_packed_index_give_what_a_fresh_index_gives(tmp_path, small_corpus):
    """A first scan's index packed (VACUUM) once the analysis is done; rescanned unchanged, then with 1% of its
    files changed and 1% removed: each time the verified pairs, their scores and the boilerplate-free
    fingerprints equal those of a new index of the same files."""
    root = tmp_path / "small"
    shutil.copytree(small_corpus, root)
    texts = sorted(p for p in root.rglob("*.txt"))
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        first = analysed(root, index)
        assert index.pack_if_rewritten(min_rows=1) and not index.pack_if_rewritten(min_rows=1)
        assert index.conn.execute("PRAGMA freelist_count").fetchone()[0] == 0
        assert scan(root, index, ScanOptions(jobs=1)).stats.unchanged == len(texts)
        assert analysed(root, index) == first and len(first[0]) >= 50
        for p in texts[::100]:
            p.write_text(p.read_text("utf-8") + "\n补记：此稿已修订。", encoding="utf-8")
        for p in texts[50::100]:
            p.unlink()
        scan(root, index, ScanOptions(jobs=1))
        again = analysed(root, index)
    with Index(tmp_path / "fresh.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        assert analysed(root, index) == again != first
