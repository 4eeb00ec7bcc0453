"""Every kind of SOURCE gives the same documents as the folder it was made from: a glob, a Parquet or JSON
Lines dataset with path and text columns, an fsspec object-store prefix (memory://); bad rows are problems."""

from __future__ import annotations

import json
import os

import fsspec
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from simdesk.cluster.plan import ScanPlan, fingerprint_items, read_boilerplate_votes
from simdesk.cluster.run import cluster_scan
from simdesk.cluster.sources import open_source
from simdesk.core.fingerprint.features import FeatureSettings
from simdesk.core.matching.analysis import boilerplate_votes
from simdesk.core.reading import documents
from simdesk.core.reading.boilerplate import LineHashes, line_hashes
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
    events = opened_and_decoded(monkeypatch)
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


# Two lines repeated in 11 of 12 texts (boilerplate: min_document_frequency(12) == 10), each one's votes read
# from a different text: the shortest holding it (FOOTER_A: the first text t00; FOOTER_B: the last, t11)
FOOTER_A = "晚风文学网每日一诗栏目编辑部整理推荐阅读"
FOOTER_B = "欢迎关注我们的公众号每天推送一首好诗与你共度美好时光"
BODIES = [
    "床前明月光，疑是地上霜。",
    "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。远上寒山石径斜，白云生处有人家。",
    "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。红豆生南国，春来发几枝。",
    "千山鸟飞绝，万径人踪灭。孤舟蓑笠翁，独钓寒江雪。空山不见人，但闻人语响。",
    "锄禾日当午，汗滴禾下土。谁知盘中餐，粒粒皆辛苦。独在异乡为异客，每逢佳节倍思亲。",
    "离离原上草，一岁一枯荣。野火烧不尽，春风吹又生。故人西辞黄鹤楼，烟花三月下扬州。",
    "朝辞白帝彩云间，千里江陵一日还。两岸猿声啼不住，轻舟已过万重山。清明时节雨纷纷。",
    "国破山河在，城春草木深。感时花溅泪，恨别鸟惊心。烽火连三月，家书抵万金。白头搔更短。",
    "好雨知时节，当春乃发生。随风潜入夜，润物细无声。野径云俱黑，江船火独明。晓看红湿处。",
    "松下问童子，言师采药去。只在此山中，云深不知处。移舟泊烟渚，日暮客愁新。野旷天低树。",
    "功盖三分国，名成八阵图。江流石不转，遗恨失吞吴。月落乌啼霜满天，江枫渔火对愁眠。姑苏城外。",
    "鹅鹅鹅，曲项向天歌。",
]


def footer_folder(root):
    """twelve texts t00 ... t11, FOOTER_A in t00-t10 and FOOTER_B in t01-t11; t00 the shortest, t11 the next."""
    texts = {}
    for k, body in enumerate(BODIES):
        footers = [f for f, holds in ((FOOTER_A, k <= 10), (FOOTER_B, k >= 1)) if holds]
        texts[f"t{k:02}.txt"] = "\n".join([body, *footers]) + "\n"
    root.mkdir(parents=True)
    for name, text in texts.items():
        (root / name).write_text(text, encoding="utf-8")
    return texts


def opened_and_decoded(monkeypatch) -> list[tuple[str, str]]:
    """The files this process opens and decodes from now on, in order, as ("open" | "decode", file name)
    (the reading module's opener and decoder wrapped)."""
    events: list[tuple[str, str]] = []
    opener, decoder = documents._open_regular, documents.text_file_of

    def opening(path, follow_links):
        events.append(("open", os.path.basename(path)))
        return opener(path, follow_links)

    def decoding(data, mtime_ns, name=""):
        events.append(("decode", os.path.basename(name)))
        return decoder(data, mtime_ns, name)

    monkeypatch.setattr(documents, "_open_regular", opening)
    monkeypatch.setattr(documents, "text_file_of", decoding)
    return events


def assert_read_ahead(events: list[tuple[str, str]], names: set[str]) -> None:
    """`events` (opened_and_decoded) open the files `names` each once, all before the first is decoded, and
    decode them in the order they were opened."""
    opened = [name for what, name in events if what == "open"]
    assert set(opened) == names and len(opened) == len(names)
    assert events == [("open", n) for n in opened] + [("decode", n) for n in opened]


def test_boilerplate_votes_read_their_texts_ahead(tmp_path, monkeypatch):
    """The lines' votes read the texts they come from in their order, the next ones opened and fetched before
    the one in turn is decoded (Source.read_ahead); the votes are those of the texts read directly."""
    texts = footer_folder(tmp_path / "f")
    source = open_source(str(tmp_path / "f"))
    items = list(source.items())
    assert [os.path.basename(i.uri) for i in items] == list(texts)
    lines = LineHashes.of([line_hashes(t) for t in texts.values()])
    chars = np.array([len(t) for t in texts.values()], dtype=np.int64)
    wanted = {int(h) for f in (FOOTER_A, FOOTER_B) for h in line_hashes(f)}
    settings = FeatureSettings()
    events = opened_and_decoded(monkeypatch)
    votes = read_boilerplate_votes(source, items, wanted, lines, chars, settings)
    assert_read_ahead(events, {"t00.txt", "t11.txt"})
    direct = boilerplate_votes(wanted, lines, chars, lambda row: list(texts.values())[row], settings)
    assert set(votes) == set(direct) == wanted
    assert all(np.array_equal(votes[h], direct[h]) for h in wanted)
