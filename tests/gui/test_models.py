"""The Qt models checked with Qt's own model tester, over a real grouping."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt

from simdesk.core.groups import grouper_for
from simdesk.core.index import Index
from simdesk.core.records import Problem, ScanOptions
from simdesk.core.scan import scan
from simdesk.gui.groups_model import COL_MEMBERS, GroupsModel, MemberRole
from simdesk.gui.problems_model import ProblemsModel


def grouping_of(folder: Path, tmp_path: Path, threshold: int = 3):
    with Index(tmp_path / "index.sqlite") as index:
        scan(folder, index, ScanOptions(jobs=1))
        return grouper_for(index).at(threshold)


def test_groups_model_passes_the_model_tester(qtmodeltester, corpus, tmp_path):
    model = GroupsModel()
    grouping = grouping_of(corpus, tmp_path)
    model.set_grouping(grouping, keep=set())
    qtmodeltester.check(model, force_py=True)
    assert model.rowCount() == len(grouping)
    first = model.index(0, 0)
    assert model.rowCount(first) == len(grouping.group(int(model.order[0])).members)
    member = model.index(1, 0, first)
    assert model.setData(member, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    assert member.data(MemberRole).path in model.keep
    model.sort(COL_MEMBERS, Qt.SortOrder.AscendingOrder)
    sizes = [model.rowCount(model.index(r, 0)) for r in range(model.rowCount())]
    assert sizes == sorted(sizes)
    model.set_filter("misc")
    assert all(any("misc" in model.index(k, 0, model.index(r, 0)).data(MemberRole).path
                   for k in range(model.rowCount(model.index(r, 0)))) for r in range(model.rowCount()))
    qtmodeltester.check(model, force_py=True)


def test_groups_model_is_lazy(corpus, tmp_path):
    model = GroupsModel()
    grouping = grouping_of(corpus, tmp_path)
    model.set_grouping(grouping, keep=set())
    assert grouping._groups == {}  # no Group built before the view asks for a cell
    model.index(0, 0).data()
    assert len(grouping._groups) == 1
    assert model.parent(QModelIndex()) == QModelIndex()


def test_problems_model(qtmodeltester):
    model = ProblemsModel()
    model.set_problems([Problem("a.bin", "binary file"), Problem("b.txt", "empty file")])
    qtmodeltester.check(model, force_py=True)
    assert model.index(1, 1).data() == "empty file"
