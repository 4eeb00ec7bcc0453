"""The window driven over a real folder and a real SQLite index, checked against what the engine says."""

from __future__ import annotations

import json
import time

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from simdesk.core.index.store import Index
from simdesk.core.matching.groups import grouper_for
from simdesk.gui.groups_model import COL_MEMBERS
from tests.folders import POEM, small_folder
from tests.gui.window_driver import (
    SCAN_TIMEOUT_MS,
    as_sets,
    engine_groups,
    member_index,
    open_and_wait,
    shown_groups,
    trashed_names,
)


def press_on_member(qtbot, window, path: str, key) -> None:
    idx = member_index(window, path)
    window.selection.select_members([idx])
    window.groups_view.setFocus()
    qtbot.keyClick(window.groups_view, key)


def answer_box(qtbot, window, name: str, button=QMessageBox.StandardButton.Yes) -> str:
    """Wait for the window's message box `name`, press `button`, return its text."""
    box = None

    def shown():
        nonlocal box
        box = window.findChild(QMessageBox, name)
        assert box is not None and box.isVisible()

    qtbot.waitUntil(shown, timeout=10_000)
    text = box.text()
    box.button(button).click()
    return text


# -- scanning -----------------------------------------------------------------------------------------------
def test_scan_shows_the_engines_groups_then_reopens_from_the_index(qtbot, window, corpus, tmp_path, settings, data_dir):
    open_and_wait(qtbot, window, corpus)
    engine = engine_groups(corpus, 3, tmp_path / "cli.sqlite")
    assert window.threshold_bar.value() == 3
    assert sorted(map(sorted, shown_groups(window))) == sorted(map(sorted, as_sets(engine)))
    assert len(engine["groups"]) > 10
    assert window.review.documents == engine["documents"]
    assert f"{len(engine['groups'])} groups" in window.threshold_bar.counts_label.text()

    # a second window on the indexed folder shows the groups from the index before its rescan ends
    from simdesk.gui.app import make_window

    second = make_window(settings, data_dir)
    qtbot.addWidget(second)
    events = []
    second.groups_shown.connect(lambda: events.append(("groups", second.is_scanning())))
    with qtbot.waitSignal(second.review_ready, timeout=SCAN_TIMEOUT_MS):
        second.open_folder(corpus)
    assert events[0] == ("groups", True)  # shown while the incremental scan still ran
    assert second.review.result.stats.unchanged == engine["documents"]
    assert len(events) == 1  # nothing changed: the groups from the index stand, no second regrouping
    assert sorted(map(sorted, shown_groups(second))) == sorted(map(sorted, as_sets(engine)))
    second.stop_scan()


def test_cancel_stops_quickly_and_leaves_a_usable_index(qtbot, window, corpus):
    cancelled_at = {}

    def on_progress(p):
        if p.phase == "reading" and p.done > 0 and not cancelled_at:
            cancelled_at["t"] = time.perf_counter()
            window.cancel_scan()

    with qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS):
        window.open_folder(corpus)
        window.scans.progress.connect(on_progress)
    stopped = time.perf_counter() - cancelled_at["t"]
    review = window.review
    assert review.result.stats.cancelled
    assert stopped < 1.5, f"cancel took {stopped:.2f} s"
    with Index(window.index_path) as index:
        assert index.integrity_ok()
        partial = index.count()
    assert 0 < partial < review.result.stats.listed
    # the window still works on what was indexed, and a rescan completes the index
    assert window.groups_model.grouping is not None
    with qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS):
        window.rescan()
    assert not window.review.result.stats.cancelled
    assert window.review.documents == review.result.stats.listed


def test_slider_regroups_as_the_engine_says(qtbot, window, corpus):
    open_and_wait(qtbot, window, corpus)
    with Index(window.index_path) as index:
        grouper = grouper_for(index)
    counts = []
    for threshold in (0, 8, 12, 5):
        with qtbot.waitSignal(window.groups_shown, timeout=5000):
            window.threshold_bar.slider.setValue(threshold)  # as a drag does, debounced
        expected = grouper.at(threshold)
        assert window.groups_model.grouping.threshold == threshold
        assert sorted(map(sorted, shown_groups(window))) == sorted(sorted(m.path for m in g.members) for g in expected)
        assert f"{expected.redundant:,} redundant" in window.threshold_bar.counts_label.text()
        counts.append(len(expected))
    assert counts[0] != counts[2]  # the threshold really changes the groups on this corpus
    # remembered once the slider rests (not written at every step)
    qtbot.waitUntil(lambda: window.settings.get("review/last_threshold") == 5, timeout=5000)


def test_the_threshold_is_remembered_once_the_slider_rests(qtbot, window, corpus):
    """Steps of the slider regroup at once but write the settings once, when it rests."""
    open_and_wait(qtbot, window, corpus)
    window.settings.set("review/last_threshold", -1)
    for threshold in (4, 5, 6):
        window.set_threshold(threshold)
        assert window.groups_model.grouping.threshold == threshold
    assert window.settings.get("review/last_threshold") == -1  # no step wrote it
    qtbot.waitUntil(lambda: window.settings.get("review/last_threshold") == 6, timeout=5000)


def test_dragging_the_slider_regroups_while_it_moves(qtbot, window, corpus):
    """A drag moving one step every 15 ms (faster than regroups are allowed): the first step regroups at
    once, the groups follow during the drag, not only once it stops, and each grouping shown is the
    engine's at that threshold."""
    open_and_wait(qtbot, window, corpus)
    with Index(window.index_path) as index:
        grouper = grouper_for(index)
    slider = window.threshold_bar.slider
    window.set_threshold(0)
    shown: list[tuple[int, int, list]] = []  # (threshold, slider value when shown, groups)
    window.groups_shown.connect(
        lambda: shown.append(
            (window.groups_model.grouping.threshold, slider.value(), sorted(map(sorted, shown_groups(window))))
        )
    )
    slider.setSliderDown(True)  # the mouse button stays down throughout
    slider.setValue(1)
    assert window.groups_model.grouping.threshold == 1  # the first step regroups at once, not after a pause
    for value in range(2, 13):
        slider.setValue(value)
        qtbot.wait(15)
    during = {t for t, at, _ in shown if at < 12}
    assert len(during) >= 2, shown  # regrouped at least twice before the drag reached its end
    qtbot.waitUntil(lambda: window.groups_model.grouping.threshold == 12, timeout=5000)  # the last step too
    slider.setSliderDown(False)
    for threshold, _, groups in shown:
        assert groups == sorted(sorted(m.path for m in g.members) for g in grouper.at(threshold))


def test_filter_and_sort(qtbot, window, tmp_path):
    open_and_wait(qtbot, window, small_folder(tmp_path))
    assert window.groups_model.rowCount() == 2
    window.filter_edit.setText("snow")
    assert [sorted(g) for g in shown_groups(window)] == [["copies/snow-copy.txt", "snow.txt"]]
    window.filter_edit.setText("")
    window.groups_view.sortByColumn(COL_MEMBERS, Qt.SortOrder.AscendingOrder)
    assert [len(g) for g in shown_groups(window)] == [2, 3]


# -- the diff -----------------------------------------------------------------------------------------------
def test_diff_highlights_a_planted_change(qtbot, window, tmp_path):
    root = small_folder(tmp_path)
    lines = POEM.splitlines()
    lines[5] = lines[5].replace("黄河入海流", "黄河入江流")
    (root / "copies" / "poem-edited.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    open_and_wait(qtbot, window, root)
    window.set_threshold(12)  # a short poem: one character moves its fingerprint several bits
    with qtbot.waitSignal(window.diff_shown, timeout=10_000):
        window.selection.select_members(
            [member_index(window, "poem.txt"), member_index(window, "copies/poem-edited.txt")]
        )
    view = window.diff_view
    # reference left: the one first in the group's order (the representative comes first)
    assert "poem.txt" in view.left_title.text() + view.right_title.text()
    edited_right = "poem-edited.txt" in view.right_title.text()
    changed = [(n, row) for n, row in enumerate(view.result.rows) if row.kind != "equal"]
    assert len(changed) == 1
    n, row = changed[0]
    new_text, new_spans, old_text, old_spans = (
        (row.right, row.right_spans, row.left, row.left_spans)
        if edited_right
        else (row.left, row.left_spans, row.right, row.right_spans)
    )
    assert [new_text[a:b] for a, b in new_spans] == ["江"]
    assert [old_text[a:b] for a, b in old_spans] == ["海"]
    # what the user sees: the changed character is painted with the change colour in its pane
    pane = view.right if edited_right else view.left
    block = pane.document().findBlockByNumber(n)
    painted = [
        (
            sel.cursor.selectionStart() - block.position(),
            sel.cursor.selectionEnd() - sel.cursor.selectionStart(),
            sel.format.background().color().name(),
        )
        for sel in pane.extraSelections()
    ]
    colours = pane.colours
    colour = (colours.right_change if edited_right else colours.left_change).name()
    assert (new_text.index("江"), 1, colour) in painted
    assert view.current == 0 and "1 change " in view.summary.text()
    # N and P keys move between changes; the panes scroll together
    window.groups_view.setFocus()
    qtbot.keyClick(window.groups_view, Qt.Key.Key_N)
    assert view.current == 0  # one change: next wraps to itself
    assert view.left.verticalScrollBar().value() == view.right.verticalScrollBar().value()


def test_diff_of_a_long_document_does_not_block(qtbot, window, tmp_path):
    root = tmp_path / "long"
    root.mkdir()
    sentence = "这是一个很长的段落中的一个句子，用来检查窗口在比较大文件时不会卡住。"
    text = sentence * 30000  # ~1 MB of Chinese in one paragraph
    (root / "a.txt").write_text(text, encoding="utf-8")
    (root / "b.txt").write_text(text[:500000] + "插入的内容" + text[500000:], encoding="utf-8")
    open_and_wait(qtbot, window, root)
    ticks = []
    from PySide6.QtCore import QTimer

    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    with qtbot.waitSignal(window.diff_shown, timeout=30_000):
        window.selection.select_members([member_index(window, "a.txt")])
    timer.stop()
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    assert ticks and max(gaps, default=0) < 2.0
    changes = [r for r in window.diff_view.result.rows if r.kind != "equal"]
    assert any("插入的内容" in r.right[a:b] for r in changes for a, b in r.right_spans)


# -- decisions and clean-up ---------------------------------------------------------------------------------
def test_space_keeps_and_trash_moves_exactly_the_unmarked_copies(qtbot, window, tmp_path, trash_home, data_dir):
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    press_on_member(qtbot, window, "poem.txt", Qt.Key.Key_Space)
    assert window.groups_model.keep == {"poem.txt"}
    qtbot.waitUntil(lambda: _keep_marks(window) == {"poem.txt"}, timeout=5000)  # persisted in the index

    with qtbot.waitSignal(window.cleanup_done, timeout=20_000) as done:
        window.menus.act_trash.trigger()
        text = answer_box(qtbot, window, "confirm_cleanup")
    assert "2 files" in text
    report = done.args[0]
    assert sorted(report.done) == ["copies/poem-copy.txt", "copies/poem-gbk.txt"]
    assert trashed_names(trash_home) == ["poem-copy.txt", "poem-gbk.txt"]
    assert (root / "poem.txt").exists() and (root / "snow.txt").exists() and (root / "copies/snow-copy.txt").exists()
    log = [json.loads(line) for line in (data_dir / "actions.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(e["path"] for e in log if e["outcome"] == "done") == sorted(report.done)
    qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS).wait()  # the rescan after the clean-up
    assert [sorted(g) for g in shown_groups(window)] == [["copies/snow-copy.txt", "snow.txt"]]


def test_trash_refuses_to_remove_every_copy(qtbot, window, tmp_path, trash_home):
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    for path in ("snow.txt", "copies/snow-copy.txt"):
        press_on_member(qtbot, window, path, Qt.Key.Key_Delete)
    assert window.groups_model.queued == {"snow.txt", "copies/snow-copy.txt"}
    window.menus.act_trash.trigger()
    text = answer_box(qtbot, window, "confirm_cleanup", QMessageBox.StandardButton.Ok)
    assert "Nothing to remove" in text and "1 groups are left alone" in text
    assert (root / "snow.txt").exists() and (root / "copies/snow-copy.txt").exists()
    assert trashed_names(trash_home) == []


def test_a_file_changed_after_the_scan_is_not_trashed(qtbot, window, tmp_path, trash_home):
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    window.selection.select_members([member_index(window, "copies/poem-copy.txt")])
    window.menus.act_keep_rules["shortest_path"].trigger()
    assert window.groups_model.keep == {"poem.txt"}
    (root / "copies" / "poem-gbk.txt").write_text(POEM + "编辑过了", encoding="gb18030")
    with qtbot.waitSignal(window.cleanup_done, timeout=20_000) as done:
        window.menus.act_trash.trigger()
        answer_box(qtbot, window, "confirm_cleanup")
    report = done.args[0]
    assert report.done == ["copies/poem-copy.txt"]
    assert [p for p, _ in report.skipped] == ["copies/poem-gbk.txt"]
    assert (root / "copies" / "poem-gbk.txt").exists()
    assert trashed_names(trash_home) == ["poem-copy.txt"]
    assert "1 skipped" in window.statusBar().currentMessage()


def test_decisions_resume_after_restart(qtbot, window, tmp_path, settings, data_dir):
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    press_on_member(qtbot, window, "copies/poem-copy.txt", Qt.Key.Key_Space)
    press_on_member(qtbot, window, "poem.txt", Qt.Key.Key_Delete)
    window.selection.select_members([member_index(window, "snow.txt"), member_index(window, "copies/snow-copy.txt")])
    window.menus.act_not_duplicates.trigger()
    assert len(shown_groups(window)) == 1  # regrouped at once without the rejected pair
    window.writer.wait()
    window.close()

    from simdesk.gui.app import make_window

    again = make_window(settings, data_dir)
    qtbot.addWidget(again)
    open_and_wait(qtbot, again, root)
    assert again.groups_model.keep == {"copies/poem-copy.txt"}
    assert again.groups_model.queued == {"poem.txt"}  # the trash queue lasts too (acted on only by a clean-up)
    assert member_index(again, "copies/poem-copy.txt").data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    assert [len(g) for g in shown_groups(again)] == [3]
    again.stop_scan()


def test_the_editor_is_told_when_the_index_changed_under_their_decisions(qtbot, window, tmp_path):
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    assert window.threshold_bar.value_label.text().startswith("≤ 3 bits")  # plain mode: bits
    window.close()
    with Index(window.index_path) as index:  # an index written by another version of simdesk
        index.set_keep("snow.txt", True)
        with index.transaction():
            index.set_meta("schema_version", "1")
    from simdesk.gui.app import make_window

    again = make_window(window.settings, window.data_dir)
    qtbot.addWidget(again)
    open_and_wait(qtbot, again, root)
    text = answer_box(qtbot, again, "index_notice", QMessageBox.StandardButton.Ok)
    assert "another version of simdesk" in text
    assert "1 keep marks, queued copies and 'not duplicates' decisions were migrated" in text
    assert len(shown_groups(again)) == 2
    assert _keep_marks(again) == {"snow.txt"}
    again.stop_scan()


def _keep_marks(window) -> set[str]:
    with Index(window.index_path) as index:
        return index.keep_marks()


# -- export -------------------------------------------------------------------------------------------------
def test_export_writes_what_the_engine_reports(qtbot, window, corpus, tmp_path):
    open_and_wait(qtbot, window, corpus)
    engine = engine_groups(corpus, 3, tmp_path / "cli.sqlite")
    out = tmp_path / "groups.json"
    with qtbot.waitSignal(window.exported, timeout=10_000):
        window.review_actions.export_to(out, "json")
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported["threshold"] == 3 and exported["documents"] == engine["documents"]
    assert exported["groups"] == engine["groups"]
    assert exported["problems"] == engine["problems"]
    csv_out = tmp_path / "groups.csv"
    with qtbot.waitSignal(window.exported, timeout=10_000):
        window.review_actions.export_to(csv_out, "csv")
    rows = csv_out.read_text(encoding="utf-8").splitlines()
    assert len([r for r in rows[1:] if r and not r.startswith("problem_path")]) >= sum(
        len(g["members"]) for g in engine["groups"]
    )


# -- language -----------------------------------------------------------------------------------------------
def test_chinese_translation_loads_and_switches_live(qtbot, settings, data_dir):
    from simdesk.gui.app import make_window
    from simdesk.gui.translations import install_language

    settings.set("ui/language", "zh_CN")
    w = make_window(settings, data_dir)
    qtbot.addWidget(w)
    assert w.menus.menu_file.title() == "文件(&F)"
    assert w.menus.act_trash.text().startswith("把其余的移到废纸篓")
    assert w.threshold_bar.caption.text() == "阈值"
    install_language(QApplication.instance(), "en")  # what the settings dialog does on a language change
    qtbot.waitUntil(lambda: w.menus.menu_file.title() == "&File", timeout=5000)  # LanguageChange is delivered later
    assert w.menus.act_trash.text() == "Move the others to the &trash…"


def test_language_follows_the_system_locale():
    from PySide6.QtCore import QLocale

    from simdesk.gui.resources import resolve_language, translation_file

    assert resolve_language("system", QLocale("zh_CN")) == "zh_CN"
    assert resolve_language("system", QLocale("zh_TW")) == "zh_CN"
    assert resolve_language("system", QLocale("de_DE")) == "en"
    assert translation_file("zh_CN") is not None and translation_file("zh_CN").suffix == ".qm"


def test_welcome_page_offers_demo_and_recent_folders(qtbot, settings, data_dir, tmp_path):
    from simdesk.gui.app import make_window

    settings.add_recent(str(tmp_path))
    w = make_window(settings, data_dir, demo=lambda: small_folder(tmp_path))
    qtbot.addWidget(w)
    w.show()
    assert w.stack.currentWidget() is w.welcome
    assert w.recent_list.item(0).text() == str(tmp_path)
    with qtbot.waitSignal(w.review_ready, timeout=SCAN_TIMEOUT_MS):
        qtbot.mouseClick(w.demo_button, Qt.MouseButton.LeftButton)
    assert w.stack.currentWidget() is w.review_page and w.groups_model.rowCount() == 2
    w.stop_scan()


def test_keep_rule_in_every_group_then_move_to_a_folder(qtbot, window, tmp_path):
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    window.menus.act_keep_rules_all["shortest_path"].trigger()
    qtbot.waitUntil(lambda: window.groups_model.keep == {"poem.txt", "snow.txt"}, timeout=5000)
    qtbot.waitUntil(lambda: _keep_marks(window) == {"poem.txt", "snow.txt"}, timeout=5000)
    dest = tmp_path / "moved"
    dest.mkdir()
    with qtbot.waitSignal(window.cleanup_done, timeout=20_000) as done:
        window.review_actions.move_marked_to(dest)  # what the action does once its folder dialog has answered
        text = answer_box(qtbot, window, "confirm_cleanup")
    assert "3 files" in text
    assert sorted(done.args[0].done) == ["copies/poem-copy.txt", "copies/poem-gbk.txt", "copies/snow-copy.txt"]
    assert sorted(p.name for p in (dest / "copies").iterdir()) == ["poem-copy.txt", "poem-gbk.txt", "snow-copy.txt"]


def test_a_folder_dropped_on_the_window_opens(qtbot, window, tmp_path):
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDropEvent

    root = small_folder(tmp_path)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(root))])
    event = QDropEvent(
        QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    with qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS):
        window.dropEvent(event)
    assert event.isAccepted() and window.root == root.resolve()
    assert len(shown_groups(window)) == 2


def test_a_folder_that_vanished_reports_a_failure(qtbot, window, tmp_path):
    root = small_folder(tmp_path)
    gone = tmp_path / "gone"
    root.rename(gone)
    with qtbot.waitSignal(window.failed, timeout=SCAN_TIMEOUT_MS) as failed:
        window.open_folder(root)
    assert "does not exist" in failed.args[0]
    text = answer_box(qtbot, window, "scan_failed", QMessageBox.StandardButton.Ok)
    assert "does not exist" in text
    qtbot.waitUntil(lambda: not window.is_scanning(), timeout=5000)


def test_arrow_keys_walk_groups_and_members_and_the_diff_follows(qtbot, window, tmp_path):
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    groups, members = window.groups_view, window.members_view
    groups.setFocus()
    with qtbot.waitSignal(window.diff_shown, timeout=10_000):
        window.selection.show_group_row(0)
    with qtbot.waitSignal(window.diff_shown, timeout=10_000):
        qtbot.keyClick(groups, Qt.Key.Key_Down)  # the next group: its members below, its first pair compared
    group = window.groups_model.group(groups.currentIndex())
    assert group is window.members_model.shown and group.id != window.groups_model.group_at(0).id
    assert group.members[1].path in window.diff_view.right_title.text()
    members.setFocus()
    with qtbot.waitSignal(window.diff_shown, timeout=10_000):
        window.selection.select_members([window.members_model.index(0, 0)])  # its first row: its identical copies
    first = window.members_model.member(members.currentIndex()).path
    qtbot.keyClick(members, Qt.Key.Key_Right)  # unfolded: their files listed below
    qtbot.keyClick(members, Qt.Key.Key_Down)  # the first file, the one the row stands for
    with qtbot.waitSignal(window.diff_shown, timeout=10_000):
        qtbot.keyClick(members, Qt.Key.Key_Down)
    second = window.members_model.member(members.currentIndex())
    assert second is not None and second.path != first
    assert second.path in window.diff_view.right_title.text() + window.diff_view.left_title.text()


def test_typing_in_the_filter_box_is_not_taken_by_shortcuts(qtbot, window, tmp_path):
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    window.selection.select_members([member_index(window, "poem.txt")])
    window.filter_edit.setFocus()
    qtbot.keyClicks(window.filter_edit, "np poem")
    assert window.filter_edit.text() == "np poem"
    assert window.groups_model.keep == set() and window.groups_model.queued == set()


def test_a_scan_waits_for_another_scan_of_the_same_index(qtbot, window, tmp_path):
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    from simdesk.core.index.store import Index

    with Index(window.index_path) as other:  # another scan of this folder holds the index ...
        lock = other.scan_lock()
        lock.__enter__()
        phases = []
        window.rescan()
        window.scans.progress.connect(lambda p: phases.append(p.phase))
        qtbot.waitUntil(lambda: "waiting" in phases, timeout=10_000)
        with qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS):
            lock.__exit__(None, None, None)  # ... until it ends
    assert not window.review.result.stats.cancelled


def test_the_screenshot_mode_saves_the_largest_groups_comparison(qtbot, window, tmp_path):
    """`simdesk gui DIR --screenshot OUT` (app.take_screenshot): after the scan, the largest group is the
    current one, its first two members compared, and the window saved as a PNG."""
    from simdesk.gui.app import take_screenshot

    exits: list[int] = []
    out = tmp_path / "shot.png"
    take_screenshot(window, out, exits.append)
    window.open_folder(small_folder(tmp_path))
    qtbot.waitUntil(lambda: bool(exits), timeout=SCAN_TIMEOUT_MS)
    assert exits == [0] and out.read_bytes()[:4] == b"\x89PNG"
    group = window.members_model.shown
    assert group is not None and len(group.members) == max(len(g.members) for g in window.groups_model.grouping)
    titles = window.diff_view.left_title.text() + window.diff_view.right_title.text()
    assert group.members[0].path in titles and group.members[1].path in titles
