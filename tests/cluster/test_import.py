"""A bundle opened on the desktop: its group members loaded into the folder's index give the review (the
window's and the command line's) exactly the bundle's groups, without rescanning the folder; the editor's
decisions on them export as decisions.parquet."""
from __future__ import annotations

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from simdesk.cli import main
from simdesk.cluster.bundle import BundleError, open_bundle
from simdesk.cluster.importer import export_decisions, import_bundle
from simdesk.cluster.plan import ScanPlan
from simdesk.cluster.run import cluster_scan
from simdesk.cluster.sources import open_source
from simdesk.core import Index, ReviewSettings, open_review
from tests.cluster.expected import from_bundle


@pytest.mark.parametrize("plan", [ScanPlan(), ScanPlan(threshold=3)], ids=["verified", "plain"])
def test_the_review_of_an_imported_bundle_shows_its_groups(demo_collection, tmp_path, plan):
    cluster_scan(open_source(str(demo_collection)), tmp_path / "b", plan)
    want = from_bundle(tmp_path / "b")
    bundle = open_bundle(tmp_path / "b")
    with Index(tmp_path / "index.sqlite") as index:
        report = import_bundle(bundle, index)
        settings = ReviewSettings.from_options(plan.threshold, plan.similarity)
        review = open_review(demo_collection, index, settings)
        assert review.result is None  # the folder is not rescanned
        assert index.count() == report.members == len({p for g in want["groups"] for p, _, _ in g})
        got = [[(m.path, m.distance, None if m.score is None else round(m.score, 9)) for m in g.members]
               for g in review.grouping(bundle.manifest["threshold"])]
    assert got == want["groups"]


def test_decisions_on_an_imported_bundle_export_as_parquet(demo_collection, tmp_path):
    cluster_scan(open_source(str(demo_collection)), tmp_path / "b", ScanPlan(threshold=3))
    bundle = open_bundle(tmp_path / "b")
    with Index(tmp_path / "index.sqlite") as index:
        import_bundle(bundle, index)
        review = open_review(demo_collection, index, ReviewSettings.from_options(3, None))
        group = review.grouping(3).group(0)
        keep, other = group.members[0].path, group.members[1].path
        review.decisions.set_keep(keep)
        review.decisions.set_queued(other)
        review.decisions.save()
        import_bundle(bundle, index)  # importing again keeps the decisions on documents still in groups
        out = export_decisions(index, bundle, tmp_path / "decisions.parquet")
    rows = pq.read_table(out).to_pylist()
    assert {(r["path"], r["decision"]) for r in rows} == {(keep, "keep"), (other, "trash")}
    assert all(r["uri"].endswith(r["path"]) for r in rows)


def test_import_command_and_refusals(demo_collection, tmp_path):
    cluster_scan(open_source(str(demo_collection)), tmp_path / "b", ScanPlan(threshold=3))
    runner = CliRunner()
    done = runner.invoke(main, ["import", str(tmp_path / "b")])
    assert done.exit_code == 0, done.output
    assert "imported" in done.output
    scanned = runner.invoke(main, ["scan", str(demo_collection), "--db", str(tmp_path / "desk.sqlite"),
                                   "--threshold", "3", "--format", "json"])
    assert scanned.exit_code == 0
    refused = runner.invoke(main, ["import", str(tmp_path / "b"), "--db", str(tmp_path / "desk.sqlite")])
    assert refused.exit_code == 2 and "made on this computer" in refused.output
    (tmp_path / "objects").mkdir()
    (tmp_path / "objects" / "a.txt").write_text("床前明月光，疑是地上霜。", encoding="utf-8")
    import fsspec

    fsspec.filesystem("memory").pipe("/texts/a.txt", "床前明月光，疑是地上霜。".encode())
    cluster_scan(open_source("memory://texts/"), tmp_path / "remote", ScanPlan(threshold=3))
    with pytest.raises(BundleError, match="local folders only"):
        with Index(tmp_path / "other.sqlite") as index:
            import_bundle(open_bundle(tmp_path / "remote"), index)
