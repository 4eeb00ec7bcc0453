"""A cluster-scan bundle in the window, opened as `simdesk gui BUNDLE` opens it (imported into the folder's index,
then the folder opened): the bundle's groups, the slider regrouping as the desktop engine does on the folder,
the diff of a pair, a keep mark exported to decisions.parquet; a bundle of an object store shows its texts
fetched by URI, and says which URI cannot be fetched."""

from __future__ import annotations

import fsspec
import pyarrow.parquet as pq
from PySide6.QtCore import Qt

from simdesk.cli import import_into_index
from simdesk.cluster.plan import ScanPlan
from simdesk.cluster.run import cluster_scan
from simdesk.cluster.sources import open_source
from simdesk.core import Index, compare_files, index_path
from simdesk.gui.groups_model import COL_TITLE, NOT_READ
from tests.cluster.expected import from_bundle
from tests.gui.window_driver import as_sets, engine_groups, member_index, open_and_wait, shown_groups


def sorted_groups(groups) -> list[list[str]]:
    return sorted(sorted(g) for g in groups)


def test_a_bundle_behaves_in_the_window_as_a_scanned_folder(qtbot, window, corpus, tmp_path, data_dir):
    cluster_scan(open_source(str(corpus)), tmp_path / "b", ScanPlan(threshold=3))
    db = index_path(corpus, data_dir)  # the index the window opens for the folder
    root, _ = import_into_index(str(tmp_path / "b"), str(db))
    assert root == corpus.resolve()
    open_and_wait(qtbot, window, root)
    want = from_bundle(tmp_path / "b")["groups"]
    assert window.threshold_bar.value() == 3
    assert sorted_groups(shown_groups(window)) == sorted_groups([p for p, _, _ in g] for g in want)
    assert len(want) > 10

    # the slider regroups as `simdesk scan` of the folder does at that threshold (up to the bundle's)
    for threshold in (0, 2):
        with qtbot.waitSignal(window.groups_shown, timeout=5000):
            window.threshold_bar.slider.setValue(threshold)
        desk = engine_groups(corpus, threshold, tmp_path / "desk.sqlite")  # rescanned: nothing changed
        assert sorted_groups(shown_groups(window)) == sorted_groups(as_sets(desk))
    with qtbot.waitSignal(window.groups_shown, timeout=5000):
        window.threshold_bar.slider.setValue(3)

    # the diff of a pair: the files compared as the desktop compares them
    a, b = sorted(shown_groups(window)[0])[:2]
    with qtbot.waitSignal(window.diff_shown, timeout=10_000):
        window.selection.select_members([member_index(window, a), member_index(window, b)])
    assert window.diff_view.result.rows == compare_files(corpus / a, corpus / b).rows

    # a keep mark, saved in the index, exported as decisions.parquet
    window.selection.select_members([member_index(window, a)])
    window.groups_view.setFocus()
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Space)

    def saved() -> bool:
        with Index(db) as index:
            return index.keep_marks() == {a}

    qtbot.waitUntil(saved, timeout=5000)
    import_into_index(str(tmp_path / "b"), str(db), str(tmp_path / "decisions.parquet"))
    rows = pq.read_table(tmp_path / "decisions.parquet").to_pylist()
    assert all(r["uri"] == str(corpus.resolve() / r["path"]) for r in rows)
    # the keep mark, and the copies the clean-up plan removes for it: the rest of a's plain group
    (group,) = [g for g in shown_groups(window) if a in g]
    assert {(r["path"], r["decision"]) for r in rows} == {(a, "keep")} | {(p, "trash") for p in group - {a}}


def test_a_bundle_of_an_object_store_shows_texts_fetched_by_uri(qtbot, window, corpus, tmp_path, data_dir):
    fs = fsspec.filesystem("memory")  # one process's store: the scan reads it in this process (jobs=1)
    names = sorted(p.relative_to(corpus).as_posix() for p in corpus.rglob("*.txt"))
    for name in names:
        fs.pipe(f"/window-store/{name}", (corpus / name).read_bytes())
    cluster_scan(open_source("memory://window-store/"), tmp_path / "b", ScanPlan(threshold=3, jobs=1))
    bundle = tmp_path / "b"
    root, _ = import_into_index(str(bundle), str(index_path(bundle, data_dir)))
    assert root == bundle.resolve()
    open_and_wait(qtbot, window, root)
    # titles are fetched for the rows shown, never for the whole store
    model = window.groups_model
    qtbot.waitUntil(lambda: model.index(0, COL_TITLE).data() != NOT_READ, timeout=10_000)
    assert model.grouping.documents_in_groups > 2 * len(window.review.headlines) > 0
    a, b = sorted(shown_groups(window)[0])[:2]
    with qtbot.waitSignal(window.diff_shown, timeout=10_000):
        window.selection.select_members([member_index(window, a), member_index(window, b)])
    assert window.diff_view.result.rows == compare_files(corpus / a, corpus / b).rows
    fs.rm(f"/window-store/{b}")
    window.diff_view.clear()
    window.selection.select_members([member_index(window, a), member_index(window, b)])
    qtbot.waitUntil(lambda: "cannot be fetched" in window.diff_view.summary.text(), timeout=10_000)
    assert f"window-store/{b}: cannot be fetched: no such object" in window.diff_view.summary.text()
    assert window.diff_view.result is None
