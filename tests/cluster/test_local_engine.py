"""The local engine of `simdesk cluster-scan` gives exactly what `simdesk scan` gives on the same folder (same
fingerprints, pairs and groups, plain and verified), reuses unchanged documents with --previous, reports bad
input as problem rows, and never leaves a half-written bundle."""

from __future__ import annotations

import json
import os

import numpy as np
import pyarrow.parquet as pq
import pytest

from simdesk.cluster.bundle import BundleError, BundleWriter, open_bundle, write_table
from simdesk.cluster.plan import ScanPlan
from simdesk.cluster.run import cluster_scan
from simdesk.cluster.sources import open_source
from simdesk.core.fingerprint.features import FeatureSettings
from tests.cluster.expected import desktop, from_bundle


def test_plain_mode_equals_the_desktop_scan(demo_collection, tmp_path):
    want = desktop(demo_collection, tmp_path / "index.sqlite", threshold=3)
    result = cluster_scan(open_source(str(demo_collection)), tmp_path / "b", ScanPlan(threshold=3, jobs=2))
    got = from_bundle(tmp_path / "b")
    assert got["fingerprints"] == want["fingerprints"]
    assert got["pairs"] == want["pairs"]
    assert got["groups"] == want["groups"]
    assert len(want["groups"]) > 30 and result.groups == len(want["groups"])


def test_verified_mode_equals_the_desktop_scan(demo_collection, tmp_path):
    want = desktop(demo_collection, tmp_path / "index.sqlite", verified=True)
    cluster_scan(open_source(str(demo_collection)), tmp_path / "b", ScanPlan(jobs=2))
    got = from_bundle(tmp_path / "b")
    assert got["fingerprints"] == want["fingerprints"]
    assert got["pairs"] == want["pairs"]
    assert got["groups"] == want["groups"]
    docs = open_bundle(tmp_path / "b").table("documents").to_pydict()
    # the demo's repost footer is boilerplate: some documents are paired on a fingerprint without it
    assert sum(a != b for a, b in zip(docs["fingerprint"], docs["clean_fp"])) >= 10


def test_previous_bundle_reuses_unchanged_documents(demo_collection, tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    for p in sorted(demo_collection.rglob("*.txt"))[:60]:
        (folder / p.name).write_bytes(p.read_bytes())
    cluster_scan(open_source(str(folder)), tmp_path / "one", ScanPlan(threshold=3))
    changed = sorted(folder.iterdir())[5]
    changed.write_text("一篇全新的文章，讲的是别的事情。" * 20, encoding="utf-8")
    second = cluster_scan(open_source(str(folder)), tmp_path / "two", ScanPlan(threshold=3), previous=tmp_path / "one")
    assert second.reused == 59
    fresh = cluster_scan(open_source(str(folder)), tmp_path / "fresh", ScanPlan(threshold=3))
    assert from_bundle(tmp_path / "two") == from_bundle(tmp_path / "fresh")
    assert fresh.reused == 0


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_previous_bundle_reuses_unchanged_dataset_rows(demo_collection, tmp_path, fmt):
    """A dataset row is reused when its path and its text's content hash are the bundle's; a row whose text
    changed and a new row are read."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from simdesk.core import read_text_file

    rows = [
        (p.relative_to(demo_collection).as_posix(), read_text_file(p, 1 << 20).text)
        for p in sorted(demo_collection.rglob("*.txt"))[:60]
    ]

    def write(rows, name):
        path = tmp_path / f"{name}.{fmt}"
        if fmt == "parquet":
            pq.write_table(pa.table({"path": [r[0] for r in rows], "text": [r[1] for r in rows]}), path)
        else:
            path.write_text(
                "".join(json.dumps({"path": p, "text": t}, ensure_ascii=False) + "\n" for p, t in rows),
                encoding="utf-8",
            )
        return str(path)

    cluster_scan(open_source(write(rows, "one")), tmp_path / "one", ScanPlan(threshold=3, jobs=1))
    rows[5] = (rows[5][0], "一篇全新的文章，讲的是别的事情。" * 20)
    rows.append(("new/added.txt", rows[0][1] + "转载请注明出处。"))
    source = open_source(write(rows, "two"))
    second = cluster_scan(source, tmp_path / "two", ScanPlan(threshold=3, jobs=1), previous=tmp_path / "one")
    assert second.reused == 59 and second.documents == 61
    cluster_scan(source, tmp_path / "fresh", ScanPlan(threshold=3, jobs=1))
    assert from_bundle(tmp_path / "two") == from_bundle(tmp_path / "fresh")


def test_bundle_of_other_feature_settings_is_refused(demo_collection, tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "a.txt").write_text("床前明月光，疑是地上霜。", encoding="utf-8")
    cluster_scan(open_source(str(folder)), tmp_path / "b", ScanPlan(threshold=3))
    with pytest.raises(BundleError, match="other feature settings"):
        open_bundle(tmp_path / "b", FeatureSettings(bigrams=True))
    with pytest.raises(BundleError, match="other feature settings"):
        cluster_scan(
            open_source(str(folder)),
            tmp_path / "c2",
            ScanPlan(threshold=3),
            previous=tmp_path / "b",
            settings=FeatureSettings(bigrams=True),
        )


def test_bad_input_becomes_problem_rows(tmp_path):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "good.txt").write_text("今天天气很好，我们去公园散步。" * 10, encoding="utf-8")
    (folder / "binary.txt").write_bytes(bytes(range(256)) * 4)
    (folder / "empty.txt").write_bytes(b"")
    (folder / "huge.txt").write_bytes(b"a" * (2 * 1024 * 1024))
    (folder / "locked.txt").write_text("秘密", encoding="utf-8")
    os.chmod(folder / "locked.txt", 0)
    try:
        result = cluster_scan(open_source(str(folder), max_bytes=1024 * 1024), tmp_path / "b", ScanPlan(threshold=3))
    finally:
        os.chmod(folder / "locked.txt", 0o644)
    problems = dict(zip(*open_bundle(tmp_path / "b").table("problems", ["path", "error"]).to_pydict().values()))
    assert set(problems) >= {"binary.txt", "empty.txt", "huge.txt"}
    assert "binary" in problems["binary.txt"] and "size cap" in problems["huge.txt"]
    if os.geteuid() != 0:  # root reads a file whatever its mode
        assert "permission denied" in problems["locked.txt"]
    assert result.documents + result.problems == 5


def test_a_failed_write_leaves_the_previous_bundle_and_no_partial_one(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "a.txt").write_text("床前明月光，疑是地上霜。", encoding="utf-8")
    cluster_scan(open_source(str(folder)), tmp_path / "b", ScanPlan(threshold=3))
    before = open_bundle(tmp_path / "b").manifest
    with pytest.raises(RuntimeError):
        with BundleWriter(tmp_path / "b") as w:
            write_table(w.folder, "problems", open_bundle(tmp_path / "b").table("problems"))
            raise RuntimeError("killed")
    assert open_bundle(tmp_path / "b").manifest == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b", "c"]
    partial = tmp_path / "half"
    partial.mkdir()
    write_table(partial, "problems", open_bundle(tmp_path / "b").table("problems"))
    with pytest.raises(BundleError, match="did not finish"):
        open_bundle(partial)
    with pytest.raises(BundleError, match="not a bundle"):
        cluster_scan(open_source(str(folder)), folder, ScanPlan(threshold=3))
    assert (folder / "a.txt").exists()


def test_fingerprints_are_sorted_and_delta_encoded(demo_collection, tmp_path):
    import pyarrow.parquet as pq

    cluster_scan(open_source(str(demo_collection)), tmp_path / "b", ScanPlan(threshold=3))
    meta = pq.ParquetFile(tmp_path / "b" / "documents.parquet").metadata
    column = meta.schema.names.index("fingerprint")
    assert "DELTA_BINARY_PACKED" in meta.row_group(0).column(column).encodings
    fps = open_bundle(tmp_path / "b").table("documents", ["fingerprint"]).column(0).to_numpy()
    assert (np.diff(fps) >= 0).all()
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert manifest["features"] == FeatureSettings().to_json() and manifest["mode"] == "plain"


def test_verified_mode_reuses_documents_with_their_band_keys(demo_collection, tmp_path):
    """Verified mode pairs by the documents' MinHash band keys: a reused document keeps them (the bundle holds
    them), and a bundle written without them (older) is opened but reuses nothing."""
    folder = tmp_path / "c"
    folder.mkdir()
    for p in sorted(demo_collection.rglob("*.txt"))[:80]:
        (folder / p.name).write_bytes(p.read_bytes())
    cluster_scan(open_source(str(folder)), tmp_path / "one", ScanPlan(jobs=1))
    assert any(open_bundle(tmp_path / "one").table("documents").column("bands").to_pylist())
    again = cluster_scan(open_source(str(folder)), tmp_path / "two", ScanPlan(jobs=1), previous=tmp_path / "one")
    assert again.reused == 80
    assert from_bundle(tmp_path / "two") == from_bundle(tmp_path / "one")
    documents = tmp_path / "one" / "documents.parquet"
    pq.write_table(pq.read_table(documents).drop_columns(["bands"]), documents)
    older = cluster_scan(open_source(str(folder)), tmp_path / "three", ScanPlan(jobs=1), previous=tmp_path / "one")
    assert older.reused == 0
    assert from_bundle(tmp_path / "three") == from_bundle(tmp_path / "two")
