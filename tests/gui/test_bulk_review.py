"""Deciding in bulk in the window: Space and Delete act on every selected copy, rules over "every group" act
on the selected or filtered groups only and say how many, the groups list has a context menu."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.folders import POEMS, SNOWS, small_folder
from tests.gui.window_driver import group_index_containing, member_index, open_and_wait


def select_poem_copies(qtbot, window, root) -> list[str]:
    """Open `root`, select the poem group's copies (not its first document), focus the list; their paths."""
    open_and_wait(qtbot, window, root)
    representative = window.groups_model.group(group_index_containing(window, POEMS[0])).members[0].path
    copies = [p for p in POEMS if p != representative]
    window.selection.select_members([member_index(window, p) for p in copies])
    window.groups_view.setFocus()
    return copies


def test_space_and_delete_act_on_every_selected_copy(qtbot, window, tmp_path):
    root = small_folder(tmp_path)
    copies = select_poem_copies(qtbot, window, root)
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Delete)
    assert set(copies) <= window.groups_model.queued  # both, not only the current row
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Delete)
    assert not set(copies) & window.groups_model.queued
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Space)
    assert set(copies) <= window.groups_model.keep


def test_a_rule_over_every_group_acts_on_the_filtered_groups_only(qtbot, window, tmp_path):
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    assert window.groups_model.rowCount() == 2
    window.filter_edit.setText("snow")
    assert window.groups_model.rowCount() == 1
    window.groups_view.clearSelection()
    with qtbot.waitSignal(window.review_actions.decisions_changed, timeout=10_000):
        window.menus.act_keep_rules_all["shortest_path"].trigger()
    keep = window.groups_model.keep
    assert keep & set(SNOWS) and not keep & set(POEMS)  # the poems were filtered out: left alone
    qtbot.waitUntil(
        lambda: (
            window.statusBar().currentMessage()
            == "One copy marked to keep in 1 group (of the 1 group the filter shows)"
        ),
        timeout=10_000,
    )
    # with the filter cleared, a group looked at (one row selected by the click) narrows nothing: every group
    window.filter_edit.setText("")
    window.selection.select_members([member_index(window, POEMS[0])])
    with qtbot.waitSignal(window.review_actions.decisions_changed, timeout=10_000):
        window.menus.act_keep_rules_all["shortest_path"].trigger()
    assert window.groups_model.keep & set(POEMS) and window.groups_model.keep & set(SNOWS)
    qtbot.waitUntil(
        lambda: window.statusBar().currentMessage() == "One copy marked to keep in each of 2 groups (of all 2 groups)",
        timeout=10_000,
    )


def test_the_groups_list_has_a_context_menu_with_the_review_actions(qtbot, window, tmp_path):
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    menu = window.menus.context_menu()
    actions = menu.actions()
    assert (
        window.menus.act_keep in actions
        and window.menus.act_queue in actions
        and window.menus.act_not_duplicates in actions
    )
    assert window.groups_view.contextMenuPolicy() == Qt.ContextMenuPolicy.CustomContextMenu


def test_ctrl_z_undoes_the_last_marks(qtbot, window, tmp_path):
    root = small_folder(tmp_path)
    copies = select_poem_copies(qtbot, window, root)
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Delete)
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Space)  # kept now, no longer queued
    assert set(copies) <= window.groups_model.keep and not set(copies) & window.groups_model.queued
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert set(copies) <= window.groups_model.queued and not set(copies) & window.groups_model.keep
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not set(copies) & (window.groups_model.queued | window.groups_model.keep)
    # the undone marks are saved like any other: a new window on the folder finds none
    window.writer.wait()
    window.review_actions.save_decisions()
    window.writer.wait()
    reopened = type(window)(window.settings, window.data_dir)
    qtbot.addWidget(reopened)
    open_and_wait(qtbot, reopened, root)
    assert not set(copies) & (reopened.groups_model.queued | reopened.groups_model.keep)
    reopened.stop_scan()
    reopened.background.wait()
    reopened.writer.wait()


def test_a_rule_in_one_group_moves_on_to_the_next_undecided_group(qtbot, window, tmp_path):
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    model = window.groups_model
    window.groups_view.setCurrentIndex(model.index(0, 0))
    first = model.group(model.index(0, 0))
    window.menus.act_keep_rules["shortest_path"].trigger()  # decides the first group
    assert model.keep & {m.path for m in first.members}
    now = model.group(window.groups_view.currentIndex())
    assert now is not None and now.id != first.id  # moved on to the other group
    window.menus.act_keep_rules["shortest_path"].trigger()
    window.menus.act_next_undecided.trigger()
    assert "Every group shown is decided" in window.statusBar().currentMessage()
