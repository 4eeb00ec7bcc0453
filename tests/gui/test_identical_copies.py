"""Identical copies in the window: a class of copies of one text is one row "N identical copies" in the
members list that unfolds to its files; the groups list counts them alike; marks, rules and filters act on
the files whether their class is folded or not."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt

from simdesk.gui.groups_model import COL_MEMBERS, COL_PATH, COL_STATUS
from tests.folders import POEM, SNOWS, small_folder
from tests.gui.window_driver import group_index_containing, open_and_wait

COPIES = 300
PAGE = "crawl/page-{:03d}.txt"


def crawl_folder(tmp_path: Path) -> Path:
    """The small folder plus 300 copies of its poem under crawl/, each a day older than the one before
    (page-299 the oldest)."""
    root = small_folder(tmp_path)
    (root / "crawl").mkdir()
    for n in range(COPIES):
        path = root / PAGE.format(n)
        path.write_text(POEM, encoding="utf-8")
        stamp = 1_700_000_000 - n * 86_400
        os.utime(path, (stamp, stamp))
    return root


def open_crawl(qtbot, window, tmp_path: Path) -> None:
    """Open the crawl folder; its poem group current."""
    open_and_wait(qtbot, window, crawl_folder(tmp_path))
    window.selection.show_group_row(group_index_containing(window, PAGE.format(0)).row())


def class_rows(window) -> list[int]:
    model = window.members_model
    return [r for r in range(model.rowCount()) if model.copies_at(r) is not None]


def poem_class_row(window) -> int:
    """The row of the class holding the crawl's pages."""
    model = window.members_model
    return next(r for r in class_rows(window) if any(m.path == PAGE.format(0) for m in model.copies_at(r)))


def test_a_class_of_300_copies_is_one_row_that_unfolds_to_its_files(qtbot, qtmodeltester, window, tmp_path):
    open_crawl(qtbot, window, tmp_path)
    model, view = window.members_model, window.members_view
    group = model.shown
    row = poem_class_row(window)
    copies = model.copies_at(row)
    assert len(copies) >= COPIES and model.rowCount() < 10  # the copies of the poem in one row
    assert model.index(row, COL_PATH).data().startswith(f"▸ {len(copies)} identical copies · ")
    assert model.index(row, COL_MEMBERS).data() == str(len(copies))
    assert model.member_at(row) == copies[0]  # the row stands for its first file
    window.selection.select_members([model.index(row, COL_PATH)])
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert model.rowCount() == len(group.members) + len(class_rows(window))
    assert model.index(row, COL_PATH).data().startswith("▾ ")
    files = [model.member_at(r).path for r in range(row + 1, row + 1 + len(copies))]
    assert files == [m.path for m in copies]
    window.selection.select_members([model.index(row + 5, COL_PATH)])
    qtbot.keyClick(view, Qt.Key.Key_Left)  # from a file of the class: folded, its class row current
    assert model.rowCount() < 10 and view.currentIndex().row() == row
    qtmodeltester.check(model)
    view.doubleClicked.emit(model.index(row, COL_PATH))  # a double-click unfolds too
    assert model.rowCount() > COPIES
    qtmodeltester.check(model)


def test_the_groups_list_counts_the_identical_copies_the_members_list_shows(qtbot, window, tmp_path):
    open_crawl(qtbot, window, tmp_path)
    groups, members = window.groups_model, window.members_model
    for k in range(groups.rowCount()):
        window.selection.show_group_row(k)
        group = members.shown
        in_classes = sum(len(members.copies_at(r)) for r in class_rows(window))
        cell = groups.index(k, COL_MEMBERS).data()
        if in_classes:
            assert cell == f"{len(group.members):,} ({in_classes:,} identical)"
        else:
            assert cell == len(group.members)
    window.selection.show_group_row(group_index_containing(window, SNOWS[0]).row())
    assert groups.index(group_index_containing(window, SNOWS[0]).row(), COL_MEMBERS).data() == "2 (2 identical)"


def test_a_keep_rule_on_folded_classes_marks_what_the_status_says(qtbot, window, tmp_path):
    open_crawl(qtbot, window, tmp_path)
    model = window.members_model
    window.menus.act_keep_rules["oldest"].trigger()
    window.selection.show_group_row(group_index_containing(window, PAGE.format(0)).row())
    row = poem_class_row(window)
    copies = model.copies_at(row)
    status = model.index(row, COL_STATUS).data()
    oldest = PAGE.format(COPIES - 1)
    assert window.groups_model.keep & {m.path for m in model.shown.members} == {oldest}
    assert status == f"keep 1 · {len(copies) - 1:,} go"
    window.selection.select_members([model.index(row, COL_PATH)])
    model.expand(row)
    shown = [model.index(r, COL_STATUS).data() for r in range(row + 1, row + 1 + len(copies))]
    assert shown.count("keep") == 1 and shown.count("goes") == len(copies) - 1
    plan = window.review.plan_cleanup(window.threshold_bar.value())
    going = {r.path for r in plan.removals if r.path in {m.path for m in copies}}
    assert len(going) == len(copies) - 1 and oldest not in going


def test_marks_on_a_class_row_mark_its_first_file(qtbot, window, tmp_path):
    open_crawl(qtbot, window, tmp_path)
    model, view = window.members_model, window.members_view
    row = poem_class_row(window)
    first = model.copies_at(row)[0].path
    window.selection.select_members([model.index(row, COL_PATH)])
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert window.groups_model.keep == {first}
    assert model.index(row, COL_PATH).data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    assert "marks its first file" in model.index(row, COL_STATUS).data(Qt.ItemDataRole.ToolTipRole)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    window.selection.select_members([model.index(row + 3, COL_PATH), model.index(row + 4, COL_PATH)])
    qtbot.keyClick(view, Qt.Key.Key_Delete)  # two files of the unfolded class
    queued = {model.member_at(row + 3).path, model.member_at(row + 4).path}
    assert window.groups_model.queued == queued
    model.collapse(row)
    assert "2 to trash" in model.index(row, COL_STATUS).data()
    # the keep box of the class row: its first file, again
    model.setData(model.index(row, COL_PATH), Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
    assert first not in window.groups_model.keep
    model.setData(model.index(row, COL_PATH), Qt.CheckState.Checked, Qt.ItemDataRole.CheckStateRole)
    assert first in window.groups_model.keep


def test_the_context_menu_unfolds_and_folds_the_current_class(qtbot, window, tmp_path):
    open_crawl(qtbot, window, tmp_path)
    model = window.members_model
    row = poem_class_row(window)
    window.selection.select_members([model.index(row, COL_PATH)])
    menu = window.menus.context_menu()
    unfold = next(a for a in menu.actions() if a.objectName() == "expand_copies")
    unfold.trigger()
    assert model.expanded(row)
    window.selection.select_members([model.index(row + 2, COL_PATH)])  # a file of the class
    fold = next(a for a in window.menus.context_menu().actions() if a.objectName() == "collapse_copies")
    fold.trigger()
    assert not model.expanded(row) and window.members_view.currentIndex().row() == row


def test_a_filter_then_a_rule_over_the_groups_shown(qtbot, window, tmp_path):
    open_crawl(qtbot, window, tmp_path)
    window.filter_edit.setText("page-042")
    assert window.groups_model.rowCount() == 1
    window.groups_view.clearSelection()
    with qtbot.waitSignal(window.review_actions.decisions_changed, timeout=10_000):
        window.menus.act_keep_rules_all["oldest"].trigger()
    window.selection.show_group_row(0)
    model = window.members_model
    row = poem_class_row(window)
    kept = window.groups_model.keep
    assert not kept & set(SNOWS)  # filtered out: left alone
    assert kept & {m.path for m in model.shown.members} == {PAGE.format(COPIES - 1)}
    assert model.index(row, COL_STATUS).data() == f"keep 1 · {len(model.copies_at(row)) - 1:,} go"
    # a path filter shows the group; selecting the file unfolds its class
    index = window.selection.member_index(PAGE.format(42))
    assert model.member(index).path == PAGE.format(42) and model.expanded(poem_class_row(window))
