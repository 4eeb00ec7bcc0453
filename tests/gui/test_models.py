"""The Qt models checked with Qt's own model tester, over a real grouping."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPersistentModelIndex, Qt

from simdesk.core import Index, Problem, ReviewSettings, ScanOptions, open_review
from simdesk.gui.groups_model import (
    COL_DISTANCE,
    COL_MEMBERS,
    COL_MODIFIED,
    COL_PATH,
    COL_SIZE,
    COL_STATUS,
    COL_TITLE,
    COLUMNS,
    NOT_READ,
    GroupsModel,
    MemberRole,
    MembersModel,
)
from simdesk.gui.problems_model import ProblemsModel


def review_of(folder: Path, tmp_path: Path):
    with Index(tmp_path / "index.sqlite") as index:
        return open_review(folder, index, ReviewSettings(min_similarity=0, scan=ScanOptions(jobs=1)))


def test_groups_model_passes_the_model_tester(qtbot, qtmodeltester, corpus, tmp_path):
    model = GroupsModel()
    members = MembersModel(model)
    review = review_of(corpus, tmp_path)
    grouping = review.grouping()
    model.set_grouping(grouping, review.decisions)
    qtmodeltester.check(model, force_py=True)
    assert model.rowCount() == len(grouping) and model.columnCount() == len(COLUMNS)
    members.set_group(model.group_at(0))
    assert members.rowCount() == len(grouping.group(int(model.order[0])).members)
    member = members.index(1, 0)
    status = model.index(0, COL_STATUS).data()
    with qtbot.waitSignal(members.keep_asked) as asked:  # a ticked box asks for the mark: the model makes none
        assert members.setData(member, Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    assert asked.args == [member.data(MemberRole), members.shown, True] and not model.keep
    review.decisions.set_keep(member.data(MemberRole).path, True, members.shown)  # made through the review
    model.marks_changed()
    assert member.data(MemberRole).path in model.keep and model.keep is review.decisions.keep  # the review's marks
    assert member.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    assert model.index(0, COL_STATUS).data() != status  # the group row counts the copy kept
    model.sort(COL_MEMBERS, Qt.SortOrder.AscendingOrder)
    sizes = [len(model.group_at(r).members) for r in range(model.rowCount())]
    assert sizes == sorted(sizes)
    model.set_filter("misc")
    assert model.rowCount() and all(
        any("misc" in m.path for m in model.group_at(r).members) for r in range(model.rowCount())
    )
    qtmodeltester.check(model, force_py=True)


def test_members_model_passes_the_model_tester(qtmodeltester, corpus, tmp_path):
    groups = GroupsModel()
    model = MembersModel(groups)
    review = review_of(corpus, tmp_path)
    groups.set_grouping(review.grouping(), review.decisions)
    model.set_group(groups.group_at(0))
    qtmodeltester.check(model, force_py=True)
    assert [model.index(r, 0).data(MemberRole) for r in range(model.rowCount())] == list(groups.group_at(0).members)
    assert model.index(0, COL_STATUS).data() and not model.index(1, COL_STATUS).data()  # the representative
    model.set_group(groups.group_at(1))
    qtmodeltester.check(model, force_py=True)


def test_sorting_filtering_and_regrouping_keep_the_selected_group(corpus, tmp_path):
    """Rows move with layoutChanged: a persistent index (what a view's selection holds) follows its group
    through a sort, a filter that keeps it, and a regroup at a wider threshold."""
    model = GroupsModel()
    review = review_of(corpus, tmp_path)
    model.set_grouping(review.grouping(3), review.decisions)
    chosen = model.group_at(model.rowCount() - 1)
    held = QPersistentModelIndex(model.index(model.rowCount() - 1, COL_SIZE))
    model.sort(COL_SIZE, Qt.SortOrder.DescendingOrder)
    assert model.group(held).id == chosen.id and held.column() == COL_SIZE
    model.set_filter(chosen.members[0].path)
    assert held.row() == 0 and model.group(held).id == chosen.id
    model.set_filter("")
    model.set_grouping(review.grouping(12), review.decisions)
    wider = model.group(held)
    assert {m.path for m in chosen.members} <= {m.path for m in wider.members}  # the group that took it in


def test_every_column_sorts_as_its_values_say(corpus, tmp_path):
    """Each sortable column orders the groups by what the group row shows (ties in the engine's order)."""
    model = GroupsModel()
    review = review_of(corpus, tmp_path)
    model.set_grouping(review.grouping(8), review.decisions)
    values = {
        COL_MEMBERS: lambda g: len(g.members),
        COL_SIZE: lambda g: g.total_size,
        COL_DISTANCE: lambda g: g.max_distance,
        COL_MODIFIED: lambda g: max(m.mtime_ns for m in g.members),
        COL_PATH: lambda g: min(m.path for m in g.members),
    }
    for col, value in values.items():
        model.sort(col, Qt.SortOrder.AscendingOrder)
        shown = [value(model.group_at(r)) for r in range(model.rowCount())]
        assert shown == sorted(shown), COLUMNS[col].key


def test_groups_model_is_lazy(corpus, tmp_path):
    model = GroupsModel()
    review = review_of(corpus, tmp_path)
    grouping = review.grouping()
    model.set_grouping(grouping, review.decisions)
    model.sort(COL_DISTANCE, Qt.SortOrder.DescendingOrder)
    model.set_filter("a")
    assert grouping._groups == {}  # no Group built before the view asks for a cell
    model.index(0, 0).data()
    assert len(grouping._groups) == 1


def test_problems_model(qtmodeltester):
    model = ProblemsModel()
    model.set_problems([Problem("a.bin", "binary file"), Problem("b.txt", "empty file")])
    qtmodeltester.check(model, force_py=True)
    assert model.index(1, 1).data() == "empty file"


def test_sorting_by_title_uses_what_is_read_then_sorts_again_once_all_is(corpus, tmp_path):
    """A sort by title, date or source never waits for the texts: groups whose headline is not read yet
    come last; once every headline is read, the list is sorted again, the selected group kept."""
    model = GroupsModel()
    review = review_of(corpus, tmp_path)
    model.set_review(review)
    model.set_grouping(review.grouping(8), review.decisions)
    assert model.rowCount() >= 3
    chosen = model.group_at(model.rowCount() - 1)
    held = QPersistentModelIndex(model.index(model.rowCount() - 1, COL_TITLE))
    first_two = [model.group_at(r) for r in (0, 1)]
    review.headlines.fill(m for g in first_two for m in g.members)
    model.sort(COL_TITLE, Qt.SortOrder.DescendingOrder)
    assert model.partial_sort
    titles = [review.headlines.cached(g.members[0]).title for g in first_two]
    assert [model.group_at(r).id for r in (0, 1)] == [
        g.id for _, g in sorted(zip(titles, first_two), key=lambda t: t[0].casefold(), reverse=True)
    ]
    assert model.index(2, COL_TITLE).data() == NOT_READ and model.group(held).id == chosen.id
    review.headlines.fill(m for r in range(model.rowCount()) for m in model.group_at(r).members)
    model.headlines_read(all_read=False)
    assert model.partial_sort and model.index(2, COL_TITLE).data() != NOT_READ  # rows stay until all is read
    model.headlines_read(all_read=True)
    assert not model.partial_sort and model.group(held).id == chosen.id
    shown = [model.index(r, COL_TITLE).data().casefold() for r in range(model.rowCount())]
    titled = [t for t in shown if t]
    assert titled == sorted(titled, reverse=True) and shown[: len(titled)] == titled  # untitled groups last
