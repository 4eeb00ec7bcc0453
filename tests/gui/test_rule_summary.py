"""A keep rule over many groups in the window: its marks shown at once, its summary said once the groups it
left partly undecided are counted off the GUI thread, and never once the marks or the groups changed while
they were counted (the count is held here by occupying every thread of the window's pool, then released)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from PySide6.QtCore import QRunnable, Qt

from simdesk.gui.worker import Background
from tests.folders import SNOWS
from tests.gui.test_trust import four_groups
from tests.gui.window_driver import member_index, open_and_wait

SUMMARY = "One copy marked to keep in each of 4 groups (of all 4 groups)"


class _Blocker(QRunnable):
    def __init__(self, started: threading.Semaphore, release: threading.Event) -> None:
        super().__init__()
        self.started, self.release = started, release

    def run(self) -> None:
        self.started.release()
        self.release.wait(60)


@contextmanager
def held(background: Background) -> Iterator[None]:
    """Every thread of `background`'s pool busy until the block ends: what the window sends it meanwhile
    waits (and Background.busy() says so), then runs."""
    started, release = threading.Semaphore(0), threading.Event()
    threads = background.pool.maxThreadCount()
    for _ in range(threads):
        background.pool.start(_Blocker(started, release))
    try:
        for _ in range(threads):
            assert started.acquire(timeout=30)
        yield
    finally:
        release.set()


def rule_counted_while_held(qtbot, window, meanwhile: Callable[[], None] | None) -> None:
    """Keep the shortest path in every group; while the groups decided are counted (held), do `meanwhile`;
    then let the count end and wait until every call the window sent its pool came back."""
    qtbot.waitUntil(lambda: not window.background.busy(), timeout=30_000)  # the first counts are done
    with qtbot.waitSignal(window.review_actions.decisions_changed, timeout=10_000):
        window.review_actions.keep_by_rule_everywhere("shortest_path")
    assert len(window.groups_model.keep) == 4  # the marks are shown at once
    with held(window.background):
        qtbot.waitUntil(window.background.busy, timeout=10_000)  # the count was asked for, and waits
        assert SUMMARY not in window.statusBar().currentMessage()
        assert not window.reviewed_label.isEnabled()  # greyed: the count of the marks before
        if meanwhile is not None:
            meanwhile()
    qtbot.waitUntil(lambda: not window.background.busy(), timeout=30_000)


def test_the_summary_is_said_once_the_rule_s_groups_are_counted(qtbot, window, tmp_path):
    open_and_wait(qtbot, window, four_groups(tmp_path))
    rule_counted_while_held(qtbot, window, None)
    assert window.statusBar().currentMessage() == SUMMARY
    assert window.reviewed_label.text() == "Reviewed 4 of 4 groups" and window.reviewed_label.isEnabled()


def test_an_undo_while_the_summary_is_counted_drops_it(qtbot, window, tmp_path):
    open_and_wait(qtbot, window, four_groups(tmp_path))
    rule_counted_while_held(qtbot, window, window.review_actions.undo_marks)
    assert window.statusBar().currentMessage() == "The last change of marks was undone"
    assert not window.groups_model.keep
    label = window.reviewed_label
    qtbot.waitUntil(lambda: label.isEnabled() and label.text() == "Reviewed 0 of 4 groups", timeout=10_000)
    assert window.statusBar().currentMessage() == "The last change of marks was undone"


@pytest.mark.parametrize("change", ["a keep box cleared", "another threshold"])
def test_any_change_while_the_summary_is_counted_drops_it(qtbot, window, tmp_path, change):
    """A mark by hand or a regroup while the rule's groups are counted: the summary would describe marks or
    groups that are gone."""
    open_and_wait(qtbot, window, four_groups(tmp_path))
    said = window.statusBar().currentMessage()

    def meanwhile() -> None:
        if change == "another threshold":
            window.set_threshold(window.threshold_bar.value() - 1)
        else:
            kept = next(p for p in SNOWS if p in window.groups_model.keep)
            member = window.members_model.member(member_index(window, kept))
            window.review_actions.set_keep(member, window.selection.current_group(), False)

    rule_counted_while_held(qtbot, window, meanwhile)
    assert "One copy marked to keep" not in window.statusBar().currentMessage()
    assert window.statusBar().currentMessage() == said


def test_ctrl_z_after_a_keep_box_takes_back_the_box_alone(qtbot, window, tmp_path):
    """A rule over every group, then a keep box ticked by hand: Ctrl+Z clears the box and leaves the rule's
    marks; a second Ctrl+Z takes the rule back."""
    open_and_wait(qtbot, window, four_groups(tmp_path))
    with qtbot.waitSignal(window.review_actions.decisions_changed, timeout=10_000):
        window.review_actions.keep_by_rule_everywhere("shortest_path")
    ruled = set(window.groups_model.keep)
    other = next(p for p in SNOWS if p not in ruled)
    index = member_index(window, other)
    window.members_model.setData(index, Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)  # the box
    assert window.groups_model.keep == ruled | {other}
    window.review_actions.undo_marks()
    assert window.groups_model.keep == ruled
    window.review_actions.undo_marks()
    assert not window.groups_model.keep


def test_ctrl_z_while_a_rule_s_copies_are_chosen_calls_the_rule_off(qtbot, window, tmp_path):
    """Keep by rule, then Ctrl+Z at once, before the copies are chosen (held): the rule is the action taken
    back, not the mark made before it; its marks never come."""
    open_and_wait(qtbot, window, four_groups(tmp_path))
    qtbot.waitUntil(lambda: not window.background.busy(), timeout=30_000)
    window.selection.select_members([member_index(window, "snow.txt")])
    window.review_actions.toggle_keep()  # Space: an action of its own before the rule
    assert window.groups_model.keep == {"snow.txt"}
    with held(window.background):
        window.review_actions.keep_by_rule_everywhere("shortest_path")
        window.review_actions.undo_marks()
        assert window.statusBar().currentMessage() == "The last change of marks was undone"
    qtbot.waitUntil(lambda: not window.background.busy(), timeout=30_000)
    assert window.groups_model.keep == {"snow.txt"}
    assert "One copy marked to keep" not in window.statusBar().currentMessage()
    window.review_actions.undo_marks()  # the next Ctrl+Z takes back the mark before the rule
    assert not window.groups_model.keep
