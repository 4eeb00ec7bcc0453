"""The window's "Undo last clean-up" is enabled exactly when the action log has a clean-up to put back
(core's can_undo_cleanup) and no clean-up or undo is under way: not after opening a folder with no log, not
once the last clean-up was undone, not while one runs; a tampered or unreadable log leaves it disabled, and a
clean-up whose files left the trash is undone with a report that says so."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from simdesk.core.index.store import Index
from tests.folders import small_folder
from tests.gui.test_window import answer_box, press_on_member
from tests.gui.window_driver import SCAN_TIMEOUT_MS, member_index, open_and_wait, trashed_names


def settled(qtbot, window) -> None:
    """Every call the window sent its pool came back (the action log's reads among them)."""
    qtbot.waitUntil(lambda: not window.background.busy(), timeout=30_000)


def trash_the_poem_copies(qtbot, window) -> None:
    """Keep poem.txt, trash the other copies of the poem from the window; answer the report."""
    press_on_member(qtbot, window, "poem.txt", Qt.Key.Key_Space)
    with qtbot.waitSignal(window.cleanup_done, timeout=20_000):
        window.menus.act_trash.trigger()
        answer_box(qtbot, window, "confirm_cleanup")
    answer_box(qtbot, window, "cleanup_report", QMessageBox.StandardButton.Ok)


def undo_runs(log: Path) -> list[str]:
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    return [e["run"] for e in lines if e["action"] == "undo"]


def test_undo_cleanup_is_enabled_only_while_there_is_a_clean_up_to_undo(qtbot, window, tmp_path, trash_home, data_dir):
    undo = window.menus.act_undo
    settled(qtbot, window)
    assert not undo.isEnabled()  # no folder open, no action log
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    settled(qtbot, window)
    assert not undo.isEnabled()  # a folder opened: nothing cleaned up yet
    trash_the_poem_copies(qtbot, window)
    assert undo.isEnabled() and trashed_names(trash_home) == ["poem-copy.txt", "poem-gbk.txt"]
    qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS).wait()  # the rescan after the clean-up
    settled(qtbot, window)
    assert undo.isEnabled()
    with qtbot.waitSignal(window.undo_done, timeout=20_000) as done:
        undo.trigger()
        assert not undo.isEnabled()  # the undo under way
        undo.trigger()  # a second click meanwhile does nothing
    assert len(done.args[0].restored) == 2
    assert (
        answer_box(qtbot, window, "undo_report", QMessageBox.StandardButton.Ok) == "2 files restored, 0 not restored."
    )
    assert not undo.isEnabled()  # the last clean-up is undone: nothing older in the log
    assert len(set(undo_runs(data_dir / "actions.jsonl"))) == 1  # one undo ran
    assert trashed_names(trash_home) == [] and (root / "copies" / "poem-gbk.txt").exists()
    qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS).wait()  # the rescan after the undo
    settled(qtbot, window)
    assert not undo.isEnabled()


def test_undo_cleanup_is_disabled_while_a_clean_up_runs(qtbot, window, tmp_path, trash_home):
    from tests.gui.test_rule_summary import held

    open_and_wait(qtbot, window, small_folder(tmp_path))
    trash_the_poem_copies(qtbot, window)  # a clean-up to undo
    qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS).wait()
    settled(qtbot, window)
    undo = window.menus.act_undo
    assert undo.isEnabled()
    window.selection.select_members([member_index(window, "copies/snow-copy.txt")])
    window.menus.act_keep_rules["shortest_path"].trigger()
    assert window.groups_model.keep == {"poem.txt", "snow.txt"}
    with held(window.background):  # the second clean-up waits for the pool: under way meanwhile
        window.review_actions.carry_out(window.review.plan_cleanup(window.threshold_bar.value()), "trash")
        assert not undo.isEnabled()
        undo.trigger()  # does nothing: the files are still on their way
    with qtbot.waitSignal(window.cleanup_done, timeout=20_000) as done:
        pass
    assert done.args[0].done == ["copies/snow-copy.txt"]
    assert undo.isEnabled()  # the clean-up just done is the one to undo
    answer_box(qtbot, window, "cleanup_report", QMessageBox.StandardButton.Ok)
    with qtbot.waitSignal(window.undo_done, timeout=20_000) as undone:
        undo.trigger()
    assert [Path(p).name for p in undone.args[0].restored] == ["snow-copy.txt"]
    answer_box(qtbot, window, "undo_report", QMessageBox.StandardButton.Ok)
    assert undo.isEnabled()  # the poem's clean-up before it is the last one now


def test_a_tampered_or_unreadable_action_log_leaves_undo_disabled(qtbot, window, tmp_path, trash_home, data_dir):
    undo = window.menus.act_undo
    log = data_dir / "actions.jsonl"
    log.parent.mkdir(parents=True, exist_ok=True)
    root = small_folder(tmp_path)
    entry = {"action": "trash", "outcome": "done", "root": "relative", "path": "poem.txt", "size": 1}
    log.write_bytes(b"\xff\xfe not json\n[1, 2]\n" + json.dumps(entry).encode() + b'\n{"action": "tr')
    open_and_wait(qtbot, window, root)
    settled(qtbot, window)
    assert not undo.isEnabled()
    log.unlink()
    log.mkdir()  # not a file
    with qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS):
        window.rescan()
    settled(qtbot, window)
    assert not undo.isEnabled()
    log.rmdir()
    trash_the_poem_copies(qtbot, window)
    assert undo.isEnabled()
    for p in (trash_home / ".local" / "share" / "Trash" / "files").iterdir():  # the trash emptied since
        p.unlink()
    with qtbot.waitSignal(window.undo_done, timeout=20_000) as done:
        undo.trigger()
    assert done.args[0].restored == [] and len(done.args[0].not_restored) == 2
    text = answer_box(qtbot, window, "undo_report", QMessageBox.StandardButton.Ok)
    assert text.startswith("0 files restored, 2 not restored.")
    assert not undo.isEnabled()  # the files are known gone: nothing left to try


def test_undo_while_a_scan_is_still_loading_puts_the_files_back_and_scans_again(qtbot, window, tmp_path, trash_home):
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    trash_the_poem_copies(qtbot, window)
    qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS).wait()
    settled(qtbot, window)
    undo = window.menus.act_undo
    with Index(window.index_path) as other:  # another scan of this folder holds the index ...
        lock = other.scan_lock()
        lock.__enter__()
        phases = []
        window.scans.progress.connect(lambda p: phases.append(p.phase))
        window.rescan()
        qtbot.waitUntil(lambda: "waiting" in phases, timeout=10_000)
        settled(qtbot, window)
        assert window.is_scanning() and undo.isEnabled()
        with qtbot.waitSignal(window.undo_done, timeout=20_000) as done:
            undo.trigger()
        assert len(done.args[0].restored) == 2 and not undo.isEnabled()
        answer_box(qtbot, window, "undo_report", QMessageBox.StandardButton.Ok)
        with qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS):
            lock.__exit__(None, None, None)  # ... until it ends
    assert not window.review.result.stats.cancelled
    assert any("poem-gbk.txt" in m.path for g in window.review.grouping() for m in g.members)
    assert not undo.isEnabled()
