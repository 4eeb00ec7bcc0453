"""The Spark engine on Spark's local mode (local[2], a real Spark, no cluster): plain mode gives exactly the
desktop's fingerprints, pairs and groups, with connected components computed in Spark (large-star/small-star);
verified mode gives exactly the desktop's fingerprints, pairs (scores and shares) and groups, its candidates
found by the desktop's rules and scored on the executors; `spark-submit simdesk/cluster/__main__.py` runs a
scan.

Without Java these tests fail with a message saying so (./dev.sh setup installs it), never pass silently."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from simdesk.cluster.bundle import open_bundle
from simdesk.cluster.plan import ScanPlan
from simdesk.cluster.run import cluster_scan
from simdesk.cluster.sources import open_source
from tests.cluster.expected import desktop, from_bundle
from tests.cluster.test_sources import assert_read_ahead, footer_folder, opened_and_decoded

pytestmark = pytest.mark.spark
MASTER = "local[2]"


def java_or_fail() -> None:
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.fail(
            "Java is missing, so the Spark tests cannot run: install a JRE (./dev.sh setup installs "
            "default-jre-headless)"
        )


@pytest.fixture(scope="module")
def spark():
    java_or_fail()
    from simdesk.cluster.spark import session

    s = session(MASTER)
    yield s
    s.stop()


def test_plain_mode_on_spark_equals_the_desktop_scan(spark, small_collection, tmp_path):
    """The permuted-key join for pairs, and (driver_pairs=0) connected components in Spark."""
    want = desktop(small_collection, tmp_path / "index.sqlite", threshold=4)
    result = cluster_scan(
        open_source(str(small_collection)),
        tmp_path / "b",
        ScanPlan(threshold=4, driver_pairs=0),
        "spark",
        master=MASTER,
    )
    got = from_bundle(tmp_path / "b")
    assert got == want
    assert result.groups == len(want["groups"]) > 20
    assert (tmp_path / "b" / "documents.parquet").is_dir()  # part files, as Spark writes them


PAGE = (
    "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"
    "床前明月光，疑是地上霜。举头望明月，低头思故乡。千山鸟飞绝，万径人踪灭。孤舟蓑笠翁，独钓寒江雪。"
)
COPIES = 300


@pytest.fixture(scope="module")
def crowd(tmp_path_factory) -> Path:
    """COPIES identical copies of one page, near-copies of it (one a class of 4 identical files) and an
    unrelated text."""
    root = tmp_path_factory.mktemp("crowd") / "c"
    (root / "copies").mkdir(parents=True)
    (root / "near").mkdir()
    for k in range(COPIES):
        (root / "copies" / f"page-{k:03}.txt").write_text(PAGE, encoding="utf-8")
    (root / "near" / "a.txt").write_text(PAGE.replace("故乡", "家乡"), encoding="utf-8")
    (root / "near" / "b.txt").write_text(PAGE + "转载请注明出处。", encoding="utf-8")
    for k in range(4):
        (root / "near" / f"c-{k}.txt").write_text(PAGE.replace("啼鸟", "鸣鸟"), encoding="utf-8")
    (root / "other.txt").write_text("国破山河在，城春草木深。感时花溅泪，恨别鸟惊心。", encoding="utf-8")
    return root


@pytest.mark.parametrize("driver_pairs", [20_000_000, 0], ids=["groups-on-driver", "components-in-spark"])
def test_plain_mode_on_spark_searches_one_copy_of_each_fingerprint(spark, crowd, tmp_path, driver_pairs):
    """Identical copies are one class, as in the local engine: the bundle's pairs are the local engine's, a
    star of each class around its first copy plus the representatives' pairs given to the copies, not every
    two copies; and the groups are the local engine's."""
    plan = ScanPlan(threshold=4, driver_pairs=driver_pairs)
    cluster_scan(open_source(str(crowd)), tmp_path / "local", replace(plan, jobs=1))
    result = cluster_scan(open_source(str(crowd)), tmp_path / "spark", plan, "spark", master=MASTER)
    want, got = from_bundle(tmp_path / "local", expand=False), from_bundle(tmp_path / "spark", expand=False)
    assert got == want
    assert len(got["groups"]) == 1 and len(got["groups"][0]) == COPIES + 6  # the page's copies and near-copies
    among_copies = [p for p in got["pairs"] if p[0].startswith("copies/") and p[1].startswith("copies/")]
    assert len(among_copies) == COPIES - 1  # each copy with the first, not COPIES (COPIES - 1) / 2
    assert all(p[0] == "copies/page-000.txt" and p[2] == 0 for p in among_copies)
    assert result.pairs == len(got["pairs"])


def test_verified_mode_on_spark_equals_the_desktop_scan(spark, small_collection, tmp_path):
    """The desktop's candidates (band keys, crowd rule, identical copies) and rules, scores on the executors."""
    want = desktop(small_collection, tmp_path / "index.sqlite", verified=True)
    result = cluster_scan(open_source(str(small_collection)), tmp_path / "b", ScanPlan(), "spark", master=MASTER)
    got = from_bundle(tmp_path / "b")
    assert got["fingerprints"] == want["fingerprints"]
    assert got["pairs"] == want["pairs"]
    assert got["groups"] == want["groups"]
    assert result.groups == len(want["groups"]) > 20
    docs = open_bundle(tmp_path / "b").table("documents").to_pydict()
    assert sum(a != b for a, b in zip(docs["fingerprint"], docs["clean_fp"])) >= 10  # boilerplate taken out


def test_verified_mode_on_spark_reads_the_boilerplate_texts_ahead(spark, tmp_path, monkeypatch):
    """The driver reads the texts the boilerplate lines' votes come from with the next ones fetched meanwhile
    (plan.read_boilerplate_votes, as the local engine does); the bundle is the local engine's."""
    footer_folder(tmp_path / "f")
    source = open_source(str(tmp_path / "f"))
    cluster_scan(source, tmp_path / "local", ScanPlan(jobs=1))
    events = opened_and_decoded(monkeypatch)  # this process is Spark's driver; the executors read in theirs
    cluster_scan(source, tmp_path / "spark", ScanPlan(), "spark", master=MASTER)
    assert_read_ahead(events, {"t00.txt", "t11.txt"})
    assert from_bundle(tmp_path / "spark", expand=False) == from_bundle(tmp_path / "local", expand=False)
    docs = open_bundle(tmp_path / "spark").table("documents").to_pydict()
    assert any(a != b for a, b in zip(docs["fingerprint"], docs["clean_fp"]))  # boilerplate taken out


def test_spark_submit_runs_a_scan_of_a_dataset(tmp_path):
    java_or_fail()
    texts = [
        "床前明月光，疑是地上霜。举头望明月，低头思故乡。" * 3,
        "床前明月光，疑是地上霜。举头望明月，低头思故乡！" * 3,
        "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。",
        None,
    ]
    pq.write_table(pa.table({"path": ["a.txt", "b.txt", "c.txt", "d.txt"], "text": texts}), tmp_path / "rows.parquet")
    submit = Path(sys.executable).parent / "spark-submit"
    main = Path(__file__).resolve().parents[2] / "simdesk" / "cluster" / "__main__.py"
    proc = subprocess.run(
        [
            str(submit),
            "--master",
            MASTER,
            "--conf",
            "spark.ui.enabled=false",
            str(main),
            str(tmp_path / "rows.parquet"),
            "--out",
            str(tmp_path / "b"),
            "--threshold",
            "3",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYSPARK_PYTHON": sys.executable},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    bundle = open_bundle(tmp_path / "b")
    assert bundle.manifest["engine"] == "spark"
    assert bundle.manifest["counts"] | {} == {"documents": 3, "problems": 1, "pairs": 1, "groups": 1, "reused": 0}
    assert bundle.table("problems").column("error").to_pylist() == ["dataset row has no text"]


def test_spark_reuses_unchanged_dataset_rows_of_the_previous_bundle(spark, tmp_path):
    poem = "床前明月光，疑是地上霜。举头望明月，低头思故乡。" * 3
    rows = {
        "a.txt": poem,
        "b.txt": poem.replace("故乡", "家乡"),
        "c.txt": "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。",
    }
    pq.write_table(pa.table({"path": list(rows), "text": list(rows.values())}), tmp_path / "one.parquet")
    cluster_scan(open_source(str(tmp_path / "one.parquet")), tmp_path / "one", ScanPlan(threshold=3, jobs=1))
    rows["c.txt"] = "千山鸟飞绝，万径人踪灭。孤舟蓑笠翁，独钓寒江雪。"
    rows["d.txt"] = poem + "转载请注明出处。"
    pq.write_table(pa.table({"path": list(rows), "text": list(rows.values())}), tmp_path / "two.parquet")
    again = cluster_scan(
        open_source(str(tmp_path / "two.parquet")),
        tmp_path / "two",
        ScanPlan(threshold=3),
        "spark",
        previous=tmp_path / "one",
        master=MASTER,
    )
    assert again.reused == 2 and again.documents == 4  # a.txt and b.txt; c.txt changed, d.txt is new
    cluster_scan(open_source(str(tmp_path / "two.parquet")), tmp_path / "fresh", ScanPlan(threshold=3, jobs=1))
    assert from_bundle(tmp_path / "two") == from_bundle(tmp_path / "fresh")
