"""Deciding by rules and following the review in the window: the "Keep by rules" dialog builds a chain of
criteria (and a reference folder) that the window applies to the groups; the status bar counts the decided
groups; the trash confirmation says how many copies of the groups it touches are still undecided."""

from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from simdesk.gui.rules_dialog import KeepRulesDialog
from tests.folders import OTHER, POEM, small_folder
from tests.gui.window_driver import open_and_wait


def open_rules_dialog(qtbot, window) -> KeepRulesDialog:
    window.menus.act_keep_chain.trigger()
    qtbot.waitUntil(lambda: window.findChild(KeepRulesDialog, "keep_rules") is not None, timeout=5000)
    return window.findChild(KeepRulesDialog, "keep_rules")


def add_criterion(qtbot, dialog: KeepRulesDialog, rule: str, folder: str = "") -> None:
    rules = [dialog.criteria.item(k).data(Qt.ItemDataRole.UserRole) for k in range(dialog.criteria.count())]
    row = rules.index(rule)
    dialog.criteria.setCurrentRow(row)
    if folder:
        dialog.folder.setEditText(folder)
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)


def wait_for_count(qtbot, window, decided: int, total: int) -> None:
    qtbot.waitUntil(lambda: window.reviewed_label.text() == f"Reviewed {decided} of {total} groups", timeout=10_000)


def test_the_rules_dialog_builds_a_chain_the_window_applies_and_counts(qtbot, window, tmp_path, settings, trash_home):
    root = small_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    wait_for_count(qtbot, window, 0, 2)
    # the trash confirmation counts the copies no decision covers in the groups it touches
    window.review.decisions.set_queued("copies/poem-gbk.txt")  # one poem copy queued, two undecided
    window.menus.act_trash.trigger()
    qtbot.waitUntil(lambda: window.findChild(QMessageBox, "confirm_cleanup") is not None, timeout=10_000)
    box = window.findChild(QMessageBox, "confirm_cleanup")
    assert "Move 1 file (" in box.text() and "from all 2 groups to the trash?" in box.text()
    assert "2 other copies in these groups are still undecided: they stay where they are." in box.text()
    box.button(QMessageBox.StandardButton.Cancel).click()
    window.review.decisions.set_queued("copies/poem-gbk.txt", False)

    dialog = open_rules_dialog(qtbot, window)
    assert [dialog.chain_list.item(k).text() for k in range(dialog.chain_list.count())] == [
        "Oldest (modification time)"
    ]  # the remembered chain
    assert "copies" in [dialog.folder.itemText(k) for k in range(dialog.folder.count())]
    assert dialog.scope.text() == "Applies to every group (2)"
    dialog.chain_list.setCurrentRow(0)
    qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()  # an empty chain keeps nothing
    add_criterion(qtbot, dialog, "largest")
    add_criterion(qtbot, dialog, "in:", "copies")
    dialog.chain_list.setCurrentRow(1)
    qtbot.mouseClick(dialog.up_button, Qt.MouseButton.LeftButton)  # the folder first, then the largest
    assert str(dialog.chain()) == "in:copies,largest"
    assert dialog.command.text() == "On the command line: simdesk clean FOLDER --keep in:copies,largest"
    with qtbot.waitSignal(window.review_actions.decisions_changed, timeout=10_000):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    # under copies/: the UTF-8 poem is larger than its GB18030 twin; the snow group has one copy there
    assert window.groups_model.keep == {"copies/poem-copy.txt", "copies/snow-copy.txt"}
    assert settings.get("review/keep_chain") == "in:copies,largest"
    wait_for_count(qtbot, window, 2, 2)
    assert (root / "copies" / "poem-gbk.txt").exists()  # the confirmation was cancelled


def test_a_reference_folder_leaves_alone_the_groups_with_no_copy_there(qtbot, window, tmp_path):
    root = small_folder(tmp_path)
    (root / "copies" / "snow-copy.txt").unlink()
    (root / "elsewhere").mkdir()
    (root / "elsewhere" / "snow-2.txt").write_text(OTHER, encoding="utf-8")
    os.utime(root / "copies" / "poem-gbk.txt", ns=(10**9, 10**9))
    open_and_wait(qtbot, window, root)
    dialog = open_rules_dialog(qtbot, window)  # the default chain: oldest
    dialog.folder.setEditText("copies")
    dialog.reference.setChecked(True)
    assert dialog.command.text() == "On the command line: simdesk clean FOLDER --keep oldest --keep-in copies"
    with qtbot.waitSignal(window.review_actions.decisions_changed, timeout=10_000):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert window.groups_model.keep == {"copies/poem-gbk.txt"}
    qtbot.waitUntil(
        lambda: "; 1 group left alone (no copy in the reference folder)" in window.statusBar().currentMessage(),
        timeout=10_000,
    )
    wait_for_count(qtbot, window, 1, 2)


REPORT = (
    "城市更新条例草案公开征求意见\n2024年5月12日\n"
    + "近日，市人大常委会公布城市更新条例草案，向社会公开征求意见，征求意见截止日期为下月底。\n" * 6
    + "来源：新华社\n"
)


def test_titles_dates_sources_and_a_filter_over_the_texts(qtbot, window, tmp_path):
    from simdesk.gui.groups_model import COL_DATE, COL_SOURCE, COL_TITLE
    from tests.gui.window_driver import shown_groups

    root = small_folder(tmp_path)
    (root / "report.txt").write_text(REPORT, encoding="utf-8")
    (root / "copies" / "report-copy.txt").write_text(REPORT, encoding="utf-8")
    with qtbot.waitSignal(window.headlines_done, timeout=60_000):
        open_and_wait(qtbot, window, root)
    model = window.groups_model
    rows = {model.group(model.index(r, 0)).members[0].path: r for r in range(model.rowCount())}
    cell = lambda path, col, role=Qt.ItemDataRole.DisplayRole: model.index(rows[path], col).data(role)  # noqa: E731
    report = next(p for p in rows if "report" in p)
    poem = next(p for p in rows if "poem" in p)
    assert (cell(report, COL_TITLE), cell(report, COL_DATE), cell(report, COL_SOURCE)) == (
        "城市更新条例草案公开征求意见",
        "2024-05-12",
        "来源：新华社",
    )
    assert cell(poem, COL_TITLE) == POEM.splitlines()[0] and cell(poem, COL_SOURCE) == ""
    assert cell(poem, COL_DATE, Qt.ItemDataRole.FontRole).italic()  # no date in the text: the file's
    assert "modification date" in cell(poem, COL_DATE, Qt.ItemDataRole.ToolTipRole)
    assert not cell(report, COL_DATE, Qt.ItemDataRole.FontRole)
    # the filter searches the texts too, folded: a traditional-script query finds the simplified text
    window.filter_edit.setText("獨釣寒江")
    assert [sorted(g) for g in shown_groups(window)] == [["copies/snow-copy.txt", "snow.txt"]]
    window.filter_edit.setText("新华社")
    assert [sorted(g) for g in shown_groups(window)] == [["copies/report-copy.txt", "report.txt"]]
    window.filter_edit.setText("")
    # decided / undecided groups: one group decided by a rule, the list follows the count
    window.decided_filter.setCurrentIndex(1)  # undecided
    assert model.rowCount() == 3
    window.groups_view.setCurrentIndex(model.index(rows[report], 0))
    with qtbot.waitSignal(window.reviewed, timeout=10_000):
        window.menus.act_keep_rules["shortest_path"].trigger()
    qtbot.waitUntil(lambda: model.rowCount() == 2, timeout=10_000)
    assert not any(report in g for g in shown_groups(window))
    window.decided_filter.setCurrentIndex(2)  # decided
    assert [sorted(g) for g in shown_groups(window)] == [["copies/report-copy.txt", "report.txt"]]
    assert window.reviewed_label.text() == "Reviewed 1 of 3 groups"


def test_sorting_by_title_never_waits_and_ends_sorted_on_every_title(qtbot, window, tmp_path):
    from simdesk.gui.groups_model import COL_TITLE

    root = small_folder(tmp_path)
    (root / "report.txt").write_text(REPORT, encoding="utf-8")
    (root / "copies" / "report-copy.txt").write_text(REPORT, encoding="utf-8")
    with qtbot.waitSignal(window.headlines_done, timeout=60_000):
        open_and_wait(qtbot, window, root)  # the titles are read from here on, off the GUI thread
        model = window.groups_model
        window.groups_view.setCurrentIndex(model.index(model.rowCount() - 1, 0))
        chosen = model.group(window.groups_view.currentIndex())
        window.groups_view.sortByColumn(COL_TITLE, Qt.SortOrder.AscendingOrder)
        if model.partial_sort:  # sorted on what was read: the editor is told the rest comes last
            assert "not read yet come last" in window.statusBar().currentMessage()
    assert not model.partial_sort
    titles = [model.index(r, COL_TITLE).data() for r in range(model.rowCount())]
    assert titles == sorted(titles, key=str.casefold) and "城市更新条例草案公开征求意见" in titles
    assert model.group(window.groups_view.currentIndex()).id == chosen.id  # the selection kept its group


def test_the_headline_reader_waits_while_the_editor_acts(qtbot, window, tmp_path):
    """Reading titles shares the machine's cores with the window: no batch starts while the editor acts
    (the slider, a sort, the filter, a comparison), and reading goes on after, to the last group."""
    root = small_folder(tmp_path)
    (root / "report.txt").write_text(REPORT, encoding="utf-8")
    (root / "copies" / "report-copy.txt").write_text(REPORT, encoding="utf-8")
    window.reader.pause(3600)  # from the start: nothing is read while it lasts
    open_and_wait(qtbot, window, root)
    qtbot.wait(300)
    headlines = window.review.headlines
    assert len(headlines) == 0
    window.set_threshold(8)  # acting again: a short pause from now, which ends the long one
    with qtbot.waitSignal(window.headlines_done, timeout=30_000):
        pass
    grouping = window.groups_model.grouping
    assert len(grouping) and all(headlines.cached(m) is not None for g in grouping for m in g.members)
