"""The Qt models checked with Qt's own model tester, over a real grouping."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt

from simdesk.core import Index, Problem, ReviewSettings, ScanOptions, open_review
from simdesk.gui.groups_model import COL_MEMBERS, GroupsModel, MemberRole
from simdesk.gui.problems_model import ProblemsModel


def review_of(folder: Path, tmp_path: Path):
    with Index(tmp_path / "index.sqlite") as index:
        return open_review(folder, index, ReviewSettings(min_similarity=0, scan=ScanOptions(jobs=1)))


def test_groups_model_passes_the_model_tester(qtmodeltester, corpus, tmp_path):
    model = GroupsModel()
    review = review_of(corpus, tmp_path)
    grouping = review.grouping()
    model.set_grouping(grouping, review.decisions)
    qtmodeltester.check(model, force_py=True)
    assert model.rowCount() == len(grouping)
    first = model.index(0, 0)
    assert model.rowCount(first) == len(grouping.group(int(model.order[0])).members)
    member = model.index(1, 0, first)
    assert model.setData(member, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    assert member.data(MemberRole).path in model.keep and model.keep is review.decisions.keep  # the review's marks
    model.sort(COL_MEMBERS, Qt.SortOrder.AscendingOrder)
    sizes = [model.rowCount(model.index(r, 0)) for r in range(model.rowCount())]
    assert sizes == sorted(sizes)
    model.set_filter("misc")
    assert all(any("misc" in model.index(k, 0, model.index(r, 0)).data(MemberRole).path
                   for k in range(model.rowCount(model.index(r, 0)))) for r in range(model.rowCount()))
    qtmodeltester.check(model, force_py=True)


def test_groups_model_is_lazy(corpus, tmp_path):
    model = GroupsModel()
    review = review_of(corpus, tmp_path)
    grouping = review.grouping()
    model.set_grouping(grouping, review.decisions)
    assert grouping._groups == {}  # no Group built before the view asks for a cell
    model.index(0, 0).data()
    assert len(grouping._groups) == 1
    assert model.parent(QModelIndex()) == QModelIndex()


def test_problems_model(qtmodeltester):
    model = ProblemsModel()
    model.set_problems([Problem("a.bin", "binary file"), Problem("b.txt", "empty file")])
    qtmodeltester.check(model, force_py=True)
    assert model.index(1, 1).data() == "empty file"
