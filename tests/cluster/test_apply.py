"""`simdesk cluster-apply`: the decisions on a bundle carried out where the documents are (fsspec's memory://
store, a local folder): a dry run moves nothing; each 'trash' document is moved under the trash prefix with
its bytes intact, never deleted; a group losing every copy and an object changed since the scan are refused;
the log puts everything back."""

from __future__ import annotations

import json
import os
from pathlib import Path

import fsspec
import pyarrow as pa
import pyarrow.parquet as pq
from click.testing import CliRunner

from simdesk.cli import main
from simdesk.cluster.plan import ScanPlan
from simdesk.cluster.run import cluster_scan
from simdesk.cluster.sources import open_source
from tests.folders import small_folder

POEM_COPIES = ["copies/poem-copy.txt", "copies/poem-gbk.txt"]
SNOW_GROUP = ["copies/snow-copy.txt", "snow.txt"]


def write_decisions(out: Path, trash: list[str], keep: list[str]) -> Path:
    """A decisions file as `simdesk import --decisions` writes it."""
    rows = [(p, "trash") for p in trash] + [(p, "keep") for p in keep]
    pq.write_table(
        pa.table(
            {
                "path": [p for p, _ in rows],
                "uri": [""] * len(rows),
                "decision": [d for _, d in rows],
                "other": pa.array([None] * len(rows), pa.string()),
            }
        ),
        out,
    )
    return out


def run(*args: str) -> str:
    result = CliRunner().invoke(main, ["cluster-apply", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_apply_on_an_object_store_moves_to_the_trash_prefix_and_undoes(tmp_path):
    fs = fsspec.filesystem("memory")
    root = small_folder(tmp_path)
    before = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*.txt")}
    for rel, data in before.items():
        fs.pipe(f"/apply-store/{rel}", data)
    cluster_scan(open_source("memory://apply-store/"), tmp_path / "b", ScanPlan(threshold=3, jobs=1))
    decisions = write_decisions(tmp_path / "decisions.parquet", POEM_COPIES + SNOW_GROUP, ["poem.txt"])
    log = tmp_path / "apply.jsonl"

    dry = run(str(tmp_path / "b"), "--decisions", str(decisions), "--move-to", "memory://apply-trash/", "--dry-run")
    assert "2 to move, 2 refused" in dry and "every copy of its group would go" in dry
    assert all(fs.exists(f"/apply-store/{rel}") for rel in before) and not fs.exists("/apply-trash")

    fs.pipe("/apply-store/copies/poem-gbk.txt", before["copies/poem-gbk.txt"])  # rewritten since the scan
    out = run(
        str(tmp_path / "b"), "--decisions", str(decisions), "--move-to", "memory://apply-trash/", "--log", str(log)
    )
    assert "1 moved, 0 failed, 3 refused" in out and "changed since the cluster scan" in out
    assert not fs.exists("/apply-store/copies/poem-copy.txt")
    assert fs.cat("/apply-trash/copies/poem-copy.txt") == before["copies/poem-copy.txt"]
    assert all(fs.exists(f"/apply-store/{rel}") for rel in before if rel != "copies/poem-copy.txt")
    outcomes = [json.loads(line)["outcome"] for line in log.read_text(encoding="utf-8").splitlines()]
    assert outcomes == ["intent", "done"]

    assert "1 moved, 0 failed" in run(str(tmp_path / "b"), "--undo", str(log))
    assert {rel: fs.cat(f"/apply-store/{rel}") for rel in before} == before
    assert not fs.exists("/apply-trash/copies/poem-copy.txt")


def test_apply_on_a_local_folder_keeps_files_intact_and_refuses_a_dataset(tmp_path):
    root = small_folder(tmp_path)
    cluster_scan(open_source(str(root)), tmp_path / "b", ScanPlan(threshold=3, jobs=1))
    decisions = write_decisions(tmp_path / "decisions.parquet", POEM_COPIES, ["poem.txt"])
    data = {p: (root / p).read_bytes() for p in POEM_COPIES}
    mtimes = {p: os.stat(root / p).st_mtime_ns for p in POEM_COPIES}
    out = run(str(tmp_path / "b"), "--decisions", str(decisions), "--move-to", str(tmp_path / "trash"))
    assert "2 moved, 0 failed, 0 refused" in out
    assert not any((root / p).exists() for p in POEM_COPIES)
    assert {p: (tmp_path / "trash" / p).read_bytes() for p in POEM_COPIES} == data
    run(str(tmp_path / "b"), "--undo", str(decisions.with_suffix(".apply.jsonl")))  # default log: beside them
    assert {p: (root / p).read_bytes() for p in POEM_COPIES} == data
    assert {p: os.stat(root / p).st_mtime_ns for p in POEM_COPIES} == mtimes  # unchanged for a later scan

    pq.write_table(pa.table({"path": ["a.txt"], "text": ["床前明月光，疑是地上霜。"]}), tmp_path / "d.parquet")
    cluster_scan(open_source(str(tmp_path / "d.parquet")), tmp_path / "db", ScanPlan(threshold=3, jobs=1))
    refused = CliRunner().invoke(
        main,
        ["cluster-apply", str(tmp_path / "db"), "--decisions", str(decisions), "--move-to", str(tmp_path / "trash2")],
    )
    assert refused.exit_code == 2 and "rows are not moved" in refused.output
