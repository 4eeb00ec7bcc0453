"""The scan pipeline on real folders and a real SQLite file: incremental, moves, problems, cancel, pool."""

from __future__ import annotations

import os
import pickle
import shutil
from dataclasses import fields
from pathlib import Path

import pytest

from simdesk.core.evaluation import load_truth
from simdesk.core.fingerprint.features import DEFAULT_FEATURES, FeatureSettings
from simdesk.core.index.scan import CancelToken, file_document, scan
from simdesk.core.index.store import Index
from simdesk.core.matching.groups import grouper_for
from simdesk.core.reading.documents import walk
from simdesk.core.records import Document, ScanOptions

ONE_PROCESS = ScanOptions(jobs=1)
ARTICLE = (
    "近日，多地出台政策支持新能源汽车消费，业内人士认为这将进一步推动产业发展。"
    "专家表示，充电基础设施建设仍需加快，电池回收体系也有待完善。"
    "随着技术进步，续航里程不断提升，消费者的接受程度也越来越高。"
)


def folder(tmp_path: Path, files: dict[str, bytes | str]) -> Path:
    root = tmp_path / "docs"
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return root


def test_first_scan_indexes_text_and_reports_bad_files(tmp_path):
    root = folder(
        tmp_path,
        {
            "a.txt": ARTICLE,
            "sub/b.txt": ARTICLE.encode("gb18030"),
            "bin.txt": b"\x00\x01\x02PK\x03\x04" * 50,
            "empty.txt": b"",
            "notes.md": "另一篇完全不同的文章，讲的是古诗词的欣赏方法。",
        },
    )
    with Index(tmp_path / "i.sqlite") as index:
        result = scan(root, index, ONE_PROCESS)
        assert result.stats.new == 3 and result.stats.problems == 2
        assert {p.path: p.error for p in result.problems}.keys() == {"bin.txt", "empty.txt"}
        assert index.document("sub/b.txt").encoding == "gb18030"
        assert index.document("a.txt").fingerprint == index.document("sub/b.txt").fingerprint
        grouping = grouper_for(index).at(3)
        assert [sorted(m.path for m in g.members) for g in grouping] == [["a.txt", "sub/b.txt"]]
        assert not grouping.group(0).identical  # same text, different bytes
        assert index.problems() == result.problems


def test_rescan_reads_only_what_changed_drops_deleted_and_recognises_moves(tmp_path):
    root = folder(tmp_path, {"a.txt": ARTICLE, "b.txt": ARTICLE + "补充一句。", "c.txt": "短文一篇，内容不同。"})
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ONE_PROCESS)
        id_b = index.conn.execute("SELECT id FROM documents WHERE path='b.txt'").fetchone()[0]
        index.set_keep("b.txt", True)

        again = scan(root, index, ONE_PROCESS)
        assert (again.stats.new, again.stats.changed, again.stats.unchanged) == (0, 0, 3)

        (root / "a.txt").write_text(ARTICLE + "新增的一段文字。", encoding="utf-8")
        os.utime(root / "a.txt", ns=(1, 2_000_000_000_000_000_000))
        (root / "moved").mkdir()
        shutil.move(root / "b.txt", root / "moved" / "b.txt")
        (root / "c.txt").unlink()
        third = scan(root, index, ONE_PROCESS)
        assert (third.stats.changed, third.stats.moved, third.stats.deleted, third.stats.new) == (1, 1, 1, 0)
        assert index.conn.execute("SELECT id FROM documents WHERE path='moved/b.txt'").fetchone()[0] == id_b
        assert index.keep_marks() == {"moved/b.txt"}
        assert index.document("c.txt") is None
        assert index.count() == 2


def test_a_file_checked_for_a_move_is_opened_once(tmp_path, monkeypatch):
    """While documents that left the index are looked for among the files read (a move), each file read is
    opened once: its bytes hashed for a move, then decoded and fingerprinted from the same read. Observed by
    wrapping the reading module's opener."""
    from collections import Counter

    from simdesk.core.reading import documents

    root = folder(tmp_path, {"a.txt": ARTICLE, "b.txt": "短文一篇，内容不同。"})
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ONE_PROCESS)
        shutil.move(root / "b.txt", root / "moved.txt")
        (root / "a.txt").write_text(ARTICLE + "新增的一段文字。", encoding="utf-8")
        (root / "new.txt").write_text("另一篇完全不同的文章，讲的是古诗词的欣赏方法。", encoding="utf-8")
        opened: Counter[str] = Counter()
        opener = documents._open_regular

        def opening(path, follow_links):
            opened[os.path.basename(path)] += 1
            return opener(path, follow_links)

        monkeypatch.setattr(documents, "_open_regular", opening)
        result = scan(root, index, ONE_PROCESS)
        assert (result.stats.moved, result.stats.changed, result.stats.new) == (1, 1, 1)
        assert opened == {"moved.txt": 1, "a.txt": 1, "new.txt": 1}
        assert index.document("new.txt").fingerprint and index.document("a.txt").chars == len(ARTICLE) + 8


def test_changed_feature_settings_refingerprint_everything(tmp_path):
    root = folder(tmp_path, {"a.txt": ARTICLE, "b.txt": "另一篇文章"})
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ONE_PROCESS)
        before = index.document("a.txt").fingerprint
        result = scan(root, index, ONE_PROCESS, settings=FeatureSettings(char_ngrams=3))
        assert result.stats.changed == 2
        assert index.document("a.txt").fingerprint != before


def test_cancel_keeps_what_was_indexed_and_the_next_scan_finishes(tmp_path, small_corpus):
    token = CancelToken()
    seen = []
    documents = len(load_truth(small_corpus))

    def on_progress(p):
        seen.append(p)
        if p.phase == "reading" and p.done >= 40:
            token.cancel()

    with Index(tmp_path / "i.sqlite") as index:
        first = scan(small_corpus, index, ONE_PROCESS, on_progress=on_progress, cancel=token)
        assert first.stats.cancelled
        kept = index.count()
        assert 40 <= kept < documents
        assert index.integrity_ok()
        second = scan(small_corpus, index, ONE_PROCESS)
        assert second.stats.unchanged == kept
        assert index.count() == documents
    assert seen[-1].phase == "done"


def test_worker_pool_gives_the_same_index_as_one_process(tmp_path, small_corpus):
    with Index(tmp_path / "one.sqlite") as one, Index(tmp_path / "pool.sqlite") as pool:
        scan(small_corpus, one, ONE_PROCESS)
        progress = []
        scan(small_corpus, pool, ScanOptions(jobs=2), on_progress=progress.append)
        assert list(one.documents()) == list(pool.documents())
        reading = [p for p in progress if p.phase == "reading"]
        assert reading and all(p.total == len(load_truth(small_corpus)) for p in reading)


def test_once_every_chunk_is_given_the_documents_are_written_as_they_come(tmp_path, small_corpus, monkeypatch):
    """After the last chunk is given to the workers, the documents taken are committed as soon as
    TAIL_COMMIT_DOCS wait (not a second's worth): when the last chunk comes in, all but a few of them are in
    the index already, so the write after the reading, which no worker overlaps, is small. (The small
    collection's 300 files are all given at once: a tail of 16 documents a commit.)"""
    import sqlite3
    from contextlib import closing

    import simdesk.core.index.scan as scan_module
    from simdesk.core.index.scan import CHUNK_FILES

    monkeypatch.setattr(scan_module, "TAIL_COMMIT_DOCS", 16)
    path = tmp_path / "pool.sqlite"
    at_last_chunk: list[int] = []

    def on_progress(p) -> None:
        if p.phase == "reading" and p.total and p.done == p.total:
            with closing(sqlite3.connect(path)) as other:  # what is committed, as another reader sees it
                at_last_chunk.append(other.execute("SELECT count(*) FROM documents").fetchone()[0])

    with Index(path) as index:
        scan(small_corpus, index, ScanOptions(jobs=2), on_progress=on_progress)
        documents = index.count()
    assert documents > 4 * CHUNK_FILES
    assert at_last_chunk and documents - 16 - CHUNK_FILES < at_last_chunk[-1] < documents


def test_unreadable_root_raises_before_touching_the_index(tmp_path):
    with Index(tmp_path / "i.sqlite") as index:
        with pytest.raises(FileNotFoundError):
            scan(tmp_path / "missing", index, ONE_PROCESS)
        assert index.count() == 0


def test_a_document_comes_back_from_a_worker_whole(tmp_path):
    """What a worker sends back (a pickled Document) loads as the same Document, every field kept."""
    (tmp_path / "a.txt").write_text("天地玄黄，宇宙洪荒。日月盈昃，辰宿列张。\nThe quick brown fox.\n", "utf-8")
    entry = next(walk(tmp_path, ScanOptions().includes, ScanOptions().max_bytes))
    doc = file_document(entry, ScanOptions().max_bytes, DEFAULT_FEATURES)
    assert isinstance(doc, Document) and doc.votes and doc.bands and doc.line_hashes
    again = pickle.loads(pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL))
    assert again == doc and type(again) is Document
    assert [getattr(again, f.name) for f in fields(Document)] == [getattr(doc, f.name) for f in fields(Document)]
