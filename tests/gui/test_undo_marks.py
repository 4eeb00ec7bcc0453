"""The window's "Undo the last marks" is enabled exactly when the review has an action on the marks to take
back (Decisions.can_undo): not after opening a folder, not once everything was undone, not after a scan that
brought a fresh review; while a rule over many groups is still choosing its copies, it calls the rule off."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from tests.folders import POEMS, small_folder
from tests.gui.test_bulk_review import select_poem_copies
from tests.gui.test_rule_summary import held
from tests.gui.test_trust import four_groups
from tests.gui.window_driver import open_and_wait


def ctrl_z(qtbot, window) -> None:
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)


def marked(window) -> set[str]:
    return window.groups_model.keep | window.groups_model.queued


def undo_in(menu: QMenu) -> QAction:
    return next(a for a in menu.actions() if a.objectName() == "undo_marks")


def test_undo_is_enabled_only_while_there_is_a_change_of_marks_to_undo(qtbot, window, tmp_path):
    undo = window.menus.act_undo_marks
    assert not undo.isEnabled()  # no folder open
    copies = select_poem_copies(qtbot, window, small_folder(tmp_path))
    assert not undo.isEnabled()  # a folder opened: nothing marked yet
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Delete)
    assert undo.isEnabled() and set(copies) <= window.groups_model.queued
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Space)
    ctrl_z(qtbot, window)
    assert undo.isEnabled() and set(copies) <= window.groups_model.queued
    ctrl_z(qtbot, window)
    assert not undo.isEnabled() and not marked(window)  # everything undone
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Space)
    assert undo.isEnabled() and set(copies) <= window.groups_model.keep
    # a new scan that finds the folder changed brings a fresh review: its marks are the ones saved, with
    # no action of this review to take back
    (window.root / "new.txt").write_text("一个新的文件，和别的都不一样。", encoding="utf-8")
    before = window.review
    with qtbot.waitSignal(window.review_ready, timeout=60_000):
        window.rescan()
    qtbot.waitUntil(lambda: window.scans.current is None, timeout=10_000)
    assert window.review is not before and set(copies) <= window.groups_model.keep
    assert not undo.isEnabled()
    ctrl_z(qtbot, window)
    assert set(copies) <= window.groups_model.keep  # the shortcut of a disabled action does nothing


def test_undo_while_a_rule_still_chooses_copies_calls_it_off_and_then_has_nothing_left(qtbot, window, tmp_path):
    open_and_wait(qtbot, window, four_groups(tmp_path))
    qtbot.waitUntil(lambda: not window.background.busy(), timeout=30_000)
    undo = window.menus.act_undo_marks
    assert not undo.isEnabled()
    with held(window.background):
        window.menus.act_keep_rules_all["shortest_path"].trigger()
        assert undo.isEnabled()  # the rule is the action Ctrl+Z takes back, though no mark came yet
        assert not marked(window)
        undo.trigger()
        assert window.statusBar().currentMessage() == "The last change of marks was undone"
        assert not undo.isEnabled()
    qtbot.waitUntil(lambda: not window.background.busy(), timeout=30_000)
    assert not marked(window) and not undo.isEnabled()  # the rule's copies came back and were dropped
    with qtbot.waitSignal(window.review_actions.decisions_changed, timeout=10_000):
        window.menus.act_keep_rules_all["shortest_path"].trigger()  # a rule that stands
    assert len(window.groups_model.keep) == 4 and undo.isEnabled()
    undo.trigger()
    assert not marked(window) and not undo.isEnabled()


def test_the_context_menu_s_undo_follows_the_review_from_one_right_click_to_the_next(qtbot, window, tmp_path):
    copies = select_poem_copies(qtbot, window, small_folder(tmp_path))
    menu = window.menus.show_context_menu(window.groups_view, QPoint(10, 10))
    qtbot.waitUntil(menu.isVisible, timeout=5000)
    assert not undo_in(menu).isEnabled()
    menu.close()
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Delete)
    assert set(copies) <= window.groups_model.queued
    menu = window.menus.show_context_menu(window.groups_view, QPoint(10, 10))
    qtbot.waitUntil(menu.isVisible, timeout=5000)
    assert undo_in(menu).isEnabled()
    undo_in(menu).trigger()
    menu.close()
    assert not set(POEMS) & marked(window)
    menu = window.menus.show_context_menu(window.groups_view, QPoint(10, 10))
    qtbot.waitUntil(menu.isVisible, timeout=5000)
    assert not undo_in(menu).isEnabled()
    menu.close()
