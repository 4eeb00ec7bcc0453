"""Every kind of SOURCE gives the same documents as the folder it was made from: a glob, a Parquet or JSON
Lines dataset with path and text columns, an fsspec object-store prefix (memory://); bad rows are problems."""

from __future__ import annotations

import json
import os

import fsspec
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from simdesk.cluster.plan import ScanPlan, fingerprint_items
from simdesk.cluster.run import cluster_scan
from simdesk.cluster.sources import open_source
from simdesk.core.fingerprint.features import FeatureSettings
from simdesk.core.reading import documents
from simdesk.core.records import Document
from tests.cluster.expected import from_bundle

TEXTS = {
    "a/one.txt": "床前明月光，疑是地上霜。举头望明月，低头思故乡。" * 3,
    "a/two.txt": "床前明月光，疑是地上霜。举头望明月，低头思故乡！" * 3,
    "b/three.md": "The quick brown fox jumps over the lazy dog, again and again, near the river bank.",
    "b/four.txt": "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。",
}


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "texts"
    for rel, text in TEXTS.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def fingerprints(tmp_path, spec: str, name: str) -> dict[str, int]:
    cluster_scan(open_source(spec), tmp_path / name, ScanPlan(threshold=3))
    return from_bundle(tmp_path / name)["fingerprints"]


def test_glob_dataset_and_object_prefix_fingerprint_as_the_folder(folder, tmp_path):
    want = fingerprints(tmp_path, str(folder), "folder")
    assert set(want) == set(TEXTS)
    assert fingerprints(tmp_path, str(folder / "**" / "*.txt"), "glob") == {
        k: v for k, v in want.items() if k.endswith(".txt")
    }
    rows = pa.table({"path": list(TEXTS), "text": list(TEXTS.values())})
    pq.write_table(rows, tmp_path / "rows.parquet")
    assert fingerprints(tmp_path, str(tmp_path / "rows.parquet"), "parquet") == want
    with open(tmp_path / "rows.jsonl", "w", encoding="utf-8") as fh:
        for path, text in TEXTS.items():
            fh.write(json.dumps({"path": path, "text": text, "lang": "zh"}, ensure_ascii=False) + "\n")
    assert fingerprints(tmp_path, str(tmp_path / "rows.jsonl"), "jsonl") == want
    fs = fsspec.filesystem("memory")
    for rel, text in TEXTS.items():
        fs.pipe(f"/archive/{rel}", text.encode("gb18030"))
    assert fingerprints(tmp_path, "memory://archive/", "objects") == want
    docs = from_bundle(tmp_path / "objects")
    assert docs["pairs"]  # one.txt and two.txt differ by one character


def test_dataset_rows_without_text_are_problems(tmp_path):
    pq.write_table(
        pa.table(
            {
                "path": ["x.txt", "y.txt", None, "z.txt"],
                "text": ["今天天气很好，我们去公园散步。", None, "孤儿行", "   "],
            }
        ),
        tmp_path / "d.parquet",
    )
    result = cluster_scan(open_source(str(tmp_path / "d.parquet")), tmp_path / "b", ScanPlan(threshold=3))
    assert (result.documents, result.problems) == (1, 3)


def test_unusable_sources_say_why(tmp_path):
    with pytest.raises(ValueError, match="no such folder"):
        open_source(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="matches no files"):
        open_source(str(tmp_path / "*.txt"))
    pq.write_table(pa.table({"body": ["x"]}), tmp_path / "wrong.parquet")
    with pytest.raises(ValueError, match="no path and no text column"):
        cluster_scan(open_source(str(tmp_path / "wrong.parquet")), tmp_path / "b", ScanPlan(threshold=3))


def test_a_folder_s_files_are_opened_ahead_of_the_one_read(folder, monkeypatch):
    """Fingerprinting a folder's items and reading their texts again (verification) open the next files and
    have them fetched before the one in turn is decoded (documents.ReadAhead, as the desktop scan reads), so
    a cold folder keeps the disk busy; each file is opened once. Observed by wrapping the reading module's
    opener and decoder."""
    events: list[tuple[str, str]] = []
    opener, decoder = documents._open_regular, documents.text_file_of

    def opening(path, follow_links):
        events.append(("open", os.path.basename(path)))
        return opener(path, follow_links)

    def decoding(data, mtime_ns, name=""):
        events.append(("decode", name))
        return decoder(data, mtime_ns, name)

    monkeypatch.setattr(documents, "_open_regular", opening)
    monkeypatch.setattr(documents, "text_file_of", decoding)
    source = open_source(str(folder))
    items = list(source.items())
    names = [os.path.basename(item.uri) for item in items]
    assert len(names) == len(TEXTS) <= documents.READ_AHEAD_FILES
    read = fingerprint_items(source, items, FeatureSettings())
    assert all(isinstance(doc, Document) for _, doc in read)
    assert events == [("open", n) for n in names] + [("decode", n) for n in names]
    events.clear()
    texts = source.read_texts(items)
    assert all(texts) and events == [("open", n) for n in names] + [("decode", n) for n in names]
