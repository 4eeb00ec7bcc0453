"""A bundle opened on the desktop: its group members loaded into the folder's index give the review (the
window's and the command line's) exactly the bundle's groups, without rescanning the folder; the editor's
decisions on them export as decisions.parquet."""

from __future__ import annotations

from pathlib import Path

import fsspec
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from simdesk.cli import main
from simdesk.cluster.bundle import open_bundle
from simdesk.cluster.importer import bundle_root, export_decisions, import_bundle
from simdesk.cluster.plan import ScanPlan
from simdesk.cluster.run import cluster_scan
from simdesk.cluster.sources import open_source
from simdesk.core import (
    Index,
    ReviewSettings,
    VerifySettings,
    analyse,
    compare_files,
    open_review,
    read_text_file,
    text_similarity,
)
from simdesk.core.reading.texts import Texts
from simdesk.core.records import MAX_FILE_BYTES
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
        got = [
            [(m.path, m.distance, None if m.score is None else round(m.score, 9)) for m in g.members]
            for g in review.grouping(bundle.manifest["threshold"])
        ]
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
    scanned = runner.invoke(
        main,
        ["scan", str(demo_collection), "--db", str(tmp_path / "desk.sqlite"), "--threshold", "3", "--format", "json"],
    )
    assert scanned.exit_code == 0
    refused = runner.invoke(main, ["import", str(tmp_path / "b"), "--db", str(tmp_path / "desk.sqlite")])
    assert refused.exit_code == 2 and "made on this computer" in refused.output
    (tmp_path / "objects").mkdir()
    refused = runner.invoke(main, ["import", str(tmp_path / "objects")])
    assert refused.exit_code == 2 and "not a simdesk bundle" in refused.output


def upload(folder: Path, name: str) -> str:
    """The files of `folder` as objects under memory://`name`/ (fsspec's in-memory store); its URI."""
    fs = fsspec.filesystem("memory")
    for p in folder.rglob("*.txt"):
        fs.pipe(f"/{name}/{p.relative_to(folder).as_posix()}", p.read_bytes())
    return f"memory://{name}/"


def test_a_bundle_of_an_object_store_reads_its_texts_by_uri(small_collection, tmp_path):
    uri = upload(small_collection, "store-by-uri")
    cluster_scan(open_source(uri), tmp_path / "b", ScanPlan(jobs=1))
    bundle = open_bundle(tmp_path / "b")
    root = bundle_root(bundle)
    assert root == (tmp_path / "b").resolve()  # the window opens the bundle's own folder
    with Index(tmp_path / "index.sqlite") as index:
        import_bundle(bundle, index)
        review = open_review(root, index, ReviewSettings())
        prefix = review.texts.uri_prefix  # fsspec's form of the store's URI
        assert prefix.startswith("memory://") and prefix.endswith("/store-by-uri/")
        group = review.grouping(bundle.manifest["threshold"]).group(0)
        a, b = group.members[0].path, group.members[1].path
        # the diff: the texts fetched by URI compare as the same files on disk do
        local = compare_files(small_collection / a, small_collection / b, boilerplate=review.grouper.boilerplate)
        assert review.compare(a, b).rows == local.rows
        # verification: scores forgotten and computed again from the fetched texts are those of the files on
        # disk (without boilerplate: an import loads no line hashes, so the review strips none)
        ids = {path: state[0] for path, state in index.stored_states().items()}
        paths = {v: k for k, v in ids.items()}
        index.forget_pairing()
        analyse(root, index, verify=VerifySettings(jobs=1))
        again = {(paths[x], paths[y]): r.score for (x, y), r in index.scores().items()}
        assert len(again) > 50
        local_text = {p: read_text_file(small_collection / p, MAX_FILE_BYTES).text for pair in again for p in pair}
        assert {k: round(v, 9) for k, v in again.items()} == {
            (x, y): round(text_similarity(local_text[x], local_text[y]), 9) for x, y in again
        }
        # an object gone since the scan: the diff says which URI cannot be fetched; nothing is cleaned here
        fsspec.filesystem("memory").rm(f"/store-by-uri/{a}")
        with pytest.raises(OSError, match=f"{prefix}{a}: cannot be fetched: no such object"):
            review.compare(a, b)
        with pytest.raises(OSError, match="simdesk cluster-apply"):
            review.clean_up(review.plan_cleanup())


def test_texts_by_uri_from_a_local_dataset_and_a_file_uri(tmp_path):
    import pyarrow as pa

    pq.write_table(pa.table({"path": ["a.txt", "b.txt"], "text": ["床前明月光", "疑是地上霜"]}), tmp_path / "d.parquet")
    (tmp_path / "c.txt").write_text("举头望明月", encoding="utf-8")
    assert Texts(tmp_path, uri_prefix=f"{tmp_path}/d.parquet#").read("b.txt").text == "疑是地上霜"
    assert Texts(tmp_path, uri_prefix=tmp_path.as_uri() + "/").read("c.txt").text == "举头望明月"
    with pytest.raises(OSError, match="d.parquet#z.txt: cannot be fetched"):
        Texts(tmp_path, uri_prefix=f"{tmp_path}/d.parquet#").read("z.txt")
    with pytest.raises(OSError, match="cannot be fetched"):
        Texts(tmp_path, uri_prefix="nosuchscheme://bucket/").read("c.txt")


def test_exported_decisions_trash_only_the_copies_the_kept_copy_holds(tmp_path):
    """A verified bundle carries each pair's shares; the decisions exported for it trash, beside the copies
    queued by hand, the copies the review's clean-up plan removes: the typo'd copy of the text kept, not its
    first two thirds (a passage of it, as the desktop's plan says)."""
    from tests.folders import story_folder

    root = story_folder(tmp_path / "docs")
    cluster_scan(open_source(str(root)), tmp_path / "b", ScanPlan())
    pairs = pq.read_table(tmp_path / "b" / "pairs.parquet").to_pylist()
    assert pairs and all(0 < p["a_in_b"] <= 1 and 0 < p["b_in_a"] <= 1 for p in pairs)
    db = tmp_path / "index.sqlite"
    with Index(db) as index:
        import_bundle(open_bundle(tmp_path / "b"), index)
        review = open_review(root, index, ReviewSettings())
        (group,) = list(review.grouping())
        review.decisions.keep_only(group, "full.txt")
        review.decisions.save()
    out = tmp_path / "decisions.parquet"
    done = CliRunner().invoke(main, ["import", str(tmp_path / "b"), "--db", str(db), "--decisions", str(out)])
    assert done.exit_code == 0, done.output
    rows = {(r["path"], r["decision"]) for r in pq.read_table(out).to_pylist()}
    assert rows == {("full.txt", "keep"), ("typo.txt", "trash")}


def test_a_clean_up_of_an_imported_bundle_reads_no_text(tmp_path):
    """A verified bundle says whether each text it read is short; the review of its import plans a clean-up
    from that with every file gone. A bundle written before it did (no such column) imports, and its
    clean-up reads the texts."""
    import shutil

    import pyarrow as pa

    from tests.core.test_short_stored import KEPT, TEXTS

    root = tmp_path / "docs"
    root.mkdir()
    for name, text in TEXTS.items():
        (root / name).write_text(text, encoding="utf-8")
    cluster_scan(open_source(str(root)), tmp_path / "b", ScanPlan(jobs=1))
    docs = pq.read_table(tmp_path / "b" / "documents.parquet").to_pydict()
    short = dict(zip(docs["path"], docs["short"]))
    assert short["a.txt"] == short["a-half.txt"] == 1 and short["long.txt"] == short["long-typo.txt"] == 0

    def fates(db: Path) -> dict[str, tuple[str, str]]:
        with Index(db) as index:
            import_bundle(open_bundle(tmp_path / "b"), index)
            review = open_review(root, index, ReviewSettings())
        for group in review.grouping():
            review.decisions.keep_only(group, next(m.path for m in group.members if m.path in KEPT))
        return {f.path: (f.fate, f.why) for _, f in review.plan_cleanup().fates}

    seen = fates(tmp_path / "i1.sqlite")
    assert seen["long-typo.txt"] == ("goes", "held") and ("stays", "words") in seen.values()
    saved = tmp_path / "saved"
    shutil.copytree(root, saved)
    shutil.rmtree(root)
    root.mkdir()
    assert fates(tmp_path / "i2.sqlite") == seen  # every file gone: nothing read
    pq.write_table(pa.table(docs).drop_columns(["short"]), tmp_path / "b" / "documents.parquet")  # an older bundle
    assert fates(tmp_path / "i3.sqlite")["long-typo.txt"] == ("stays", "words")  # read: unreadable, so short
    shutil.rmtree(root)
    shutil.copytree(saved, root)
    assert fates(tmp_path / "i4.sqlite") == seen  # read: the same fates
