"""The window under an editor's day: no crash while a large comparison is replaced, actions on the groups
shown, a context menu that works every time and follows the language, a filter that finds every text,
titles that never widen the window, one progress counter per phase."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import QApplication, QPlainTextEdit

from tests.folders import small_folder
from tests.gui.window_driver import group_index_containing, member_index, open_and_wait

HAN = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理世车"


def sentence(rng: random.Random, chars: str = HAN) -> str:
    return "".join(rng.choice(chars) for _ in range(rng.randint(12, 40))) + rng.choice("。！？")


EVERY_HAN = "".join(chr(c) for c in range(0x4E00, 0x9FA6))  # the text layout meets thousands of glyphs


def large_pair(tmp_path: Path) -> Path:
    """tests.folders.small_folder (a poem in three copies, a second text in two) with big/a.txt (~1 MB, a
    sentence a line) and big/b.txt, the same with a few sentences changed."""
    root = small_folder(tmp_path)
    rng = random.Random(24)
    lines = [sentence(rng, EVERY_HAN) for _ in range(13_000)]  # a row per line, as many as a 1 MB text has
    edited = list(lines)
    for k in range(0, len(edited), 1000):
        edited[k] = sentence(rng, EVERY_HAN) + edited[k]
    (root / "big").mkdir(parents=True)
    (root / "big" / "a.txt").write_text("\n".join(lines), encoding="utf-8")
    (root / "big" / "b.txt").write_text("\n".join(edited), encoding="utf-8")
    return root


# Every call through which the window builds or swaps a pane's text: the spy below records the thread of each
TEXT_CALLS = (
    (QTextCursor, "insertText"),
    (QTextDocument, "setPlainText"),
    (QTextDocument, "setDocumentLayout"),
    (QPlainTextEdit, "setDocument"),
    (QPlainTextEdit, "setPlainText"),
)


@pytest.fixture
def text_threads(monkeypatch) -> list[int]:
    """The thread (threading.get_ident) of every call of TEXT_CALLS made from Python during the test; each
    call is then made as it would be. Qt lays text out in these calls, and laying it out on two threads at
    once crashes the process, so the window must make them all on the GUI thread."""
    threads: list[int] = []
    for cls, name in TEXT_CALLS:

        def spy(self, *args, _real=getattr(cls, name), **kwargs):
            threads.append(threading.get_ident())
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(cls, name, spy)
    return threads


def process_events_until(done: Callable[[], bool], give_up: Callable[[], bool]) -> None:
    """Run the event loop one pass at a time until `done()` (or `give_up()`: the state was passed by)."""
    while not done() and not give_up():
        QApplication.processEvents()


# where a comparison of the large pair is when another group is clicked: asked for (the comparison runs off
# the GUI thread), its panes' documents being built, its left pane swapped in and its right one not yet
MOMENTS = ("asked", "building", "half swapped")


def test_replacing_a_large_comparison_at_any_moment_shows_the_last_click(qtbot, window, tmp_path, text_threads):
    """With a ~1 MB pair shown, flip "As normalised" and click another group while the large comparison is
    asked for, while its documents are built and while its panes are swapped: the window shows the group
    clicked last, whole, and every pane's text is built and laid out on the GUI thread (a pool thread
    building a 1 MB document while the GUI thread swapped another one in crashed the window)."""
    root = large_pair(tmp_path)
    assert (root / "big" / "a.txt").stat().st_size > 900_000
    open_and_wait(qtbot, window, root)
    view = window.diff_view
    big = group_index_containing(window, "big/a.txt").row()
    small = group_index_containing(window, "snow.txt").row()
    shown: list[str] = []
    window.diff_shown.connect(lambda: shown.append(view.left_title.text()))
    reached: list[str] = []
    for moment in MOMENTS:
        with qtbot.waitSignal(window.diff_shown, timeout=60_000):
            window.selection.show_group_row(big)
        assert "big/" in view.left_title.text()
        before = len(shown)
        view.mode_button.toggle()  # the large pair compared again, in the other mode
        passed_by = partial(lambda n: len(shown) > n, before)  # shown whole already: the moment was missed
        if moment == "building":
            process_events_until(view.building, passed_by)
        elif moment == "half swapped":
            process_events_until(lambda: view.left.rows is not view.right.rows, passed_by)
        if not passed_by():
            reached.append(moment)
        clicked = len(shown)
        window.selection.show_group_row(small)
        qtbot.waitUntil(
            lambda: len(shown) > clicked and not window.background.busy() and not view.building(),  # noqa: B023
            timeout=60_000,
        )
        QApplication.processEvents()  # anything the comparisons posted meanwhile
        assert "snow" in view.left_title.text() and "snow" in view.right_title.text()
        assert view.left.document().blockCount() == len(view.result.rows) < 50
        assert view.right.document().blockCount() == len(view.result.rows)
        assert view.left.rows is view.right.rows is view.result.rows
        assert all("snow" in title for title in shown[clicked:])  # nothing else announced shown after the click
        assert text_threads and set(text_threads) == {threading.main_thread().ident}
    assert reached == list(MOMENTS)  # each moment was met


# -- 2, 6: a rule or a clean-up acts on the groups chosen, else the groups the filters show ------------------
def four_groups(tmp_path: Path) -> Path:
    """small_folder's two groups (the poem in three copies, the snow text in two) and two more pairs of
    identical copies: songs/a.txt + songs/b.txt, notes/x.txt + notes/y.txt."""
    root = small_folder(tmp_path)
    rng = random.Random(6)
    for folder, names in (("songs", ("a.txt", "b.txt")), ("notes", ("x.txt", "y.txt"))):
        text = "\n".join(sentence(rng) for _ in range(20))
        (root / folder).mkdir()
        for name in names:
            (root / folder / name).write_text(text, encoding="utf-8")
    return root


def select_groups(window, paths: list[str]) -> None:
    """Ctrl-click the group rows holding `paths` (the first one made current)."""
    from PySide6.QtCore import QItemSelectionModel

    selection = window.groups_view.selectionModel()
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    window.selection.show_group_row(group_index_containing(window, paths[0]).row())
    for path in paths[1:]:
        selection.select(group_index_containing(window, path), flags)


def test_a_click_looks_a_multi_selection_chooses_and_esc_clears(qtbot, window, tmp_path):
    root = four_groups(tmp_path)
    open_and_wait(qtbot, window, root)
    window.selection.show_group_row(group_index_containing(window, "snow.txt").row())  # looking at one group
    assert (
        window.selection.rule_scope().kind == "all"
        and window.review_actions.rule_scope_text() == "Applies to every group (4)"
    )
    select_groups(window, ["snow.txt", "songs/a.txt"])
    assert window.selection.rule_scope().groups == tuple(
        sorted(window.groups_model.group(group_index_containing(window, p)).id for p in ("snow.txt", "songs/a.txt"))
    )
    assert window.review_actions.rule_scope_text() == "Applies to the 2 selected groups"
    assert "Keep one in the 2 selected groups" in [
        a.text() for a in window.menus.context_menu().actions()
    ]  # it says so
    qtbot.waitUntil(lambda: window.scans.current is None, timeout=10_000)  # else Esc cancels the scan
    window.groups_view.setFocus()
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Escape)
    assert window.selection.rule_scope().kind == "all"
    assert window.selection.current_group() is not None  # the group looked at stays shown


def test_a_rule_with_the_undecided_filter_leaves_the_decided_groups_alone(qtbot, window, tmp_path):
    root = four_groups(tmp_path)
    open_and_wait(qtbot, window, root)
    # the poem group decided by hand: a copy that is not the shortest path kept
    poem = window.groups_model.group(group_index_containing(window, "poem.txt"))
    window.review_actions.set_keep(next(m for m in poem.members if m.path == "copies/poem-gbk.txt"), poem, True)
    window.decided_filter.setCurrentIndex(1)  # undecided groups
    qtbot.waitUntil(lambda: window.groups_model.rowCount() == 3, timeout=10_000)
    window.selection.show_group_row(0)  # looking at one of them narrows nothing
    assert window.review_actions.rule_scope_text() == "Applies to the 3 groups the filter shows"
    with qtbot.waitSignal(window.review_actions.decisions_changed, timeout=10_000):
        window.review_actions.keep_by_rule_everywhere("shortest_path")
    # the hidden, decided group keeps the editor's mark; each group shown keeps its shortest path
    assert window.groups_model.keep == {"copies/poem-gbk.txt", "snow.txt", "songs/a.txt", "notes/x.txt"}
    qtbot.waitUntil(lambda: "(of the 3 groups the filter shows)" in window.statusBar().currentMessage(), timeout=10_000)


def test_trash_with_a_text_filter_moves_only_what_the_question_names(qtbot, window, tmp_path, trash_home):
    from PySide6.QtWidgets import QMessageBox

    root = four_groups(tmp_path)
    open_and_wait(qtbot, window, root)
    with qtbot.waitSignal(window.review_actions.decisions_changed, timeout=10_000):
        window.review_actions.keep_by_rule_everywhere(
            "shortest_path"
        )  # one copy kept in every group: 5 others would go
    window.filter_edit.setText("songs")
    qtbot.waitUntil(lambda: window.groups_model.rowCount() == 1, timeout=10_000)
    window.menus.act_trash.trigger()
    qtbot.waitUntil(lambda: window.findChild(QMessageBox, "confirm_cleanup") is not None, timeout=10_000)
    box = window.findChild(QMessageBox, "confirm_cleanup")
    assert box.text().startswith("Move 1 file (") and "from the 1 group the filter shows to the trash?" in box.text()
    with qtbot.waitSignal(window.cleanup_done, timeout=20_000) as done:
        box.button(QMessageBox.StandardButton.Yes).click()
    assert done.args[0].done == ["songs/b.txt"]
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*.txt")) == [
        "copies/poem-copy.txt",
        "copies/poem-gbk.txt",
        "copies/snow-copy.txt",
        "notes/x.txt",
        "notes/y.txt",
        "poem.txt",
        "snow.txt",
        "songs/a.txt",
    ]


# -- 3: a context menu per use, in the current language ---------------------------------------------------
def menu_texts(menu) -> list[str]:
    """Every text of a menu and its submenus (titles and actions)."""
    out = [menu.title()] if menu.title() else []
    for a in menu.actions():
        if a.menu() is not None:
            out.extend(menu_texts(a.menu()))
        elif not a.isSeparator():
            out.append(a.text())
    return out


def test_ten_right_clicks_then_a_language_switch(qtbot, window, tmp_path):
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QApplication

    from simdesk.gui.translations import install_language

    open_and_wait(qtbot, window, small_folder(tmp_path))
    window.selection.show_group_row(0)
    english = set()
    for _ in range(10):
        menu = window.menus.show_context_menu(window.groups_view, QPoint(10, 10))
        qtbot.waitUntil(menu.isVisible, timeout=5000)
        english.update(menu_texts(menu))
        assert "Keep the &oldest" in english and "Keep one in all 2 groups" in english
        menu.close()
        qtbot.wait(1)  # deleted once closed
    for bar_menu in window.menuBar().findChildren(type(menu)):
        english.update(menu_texts(bar_menu))
    message, histogram = window.statusBar().currentMessage(), window.threshold_bar.histogram.toolTip()
    assert message.startswith("Scanned") and histogram.startswith("0 bits:")
    try:
        install_language(QApplication.instance(), "zh_CN")
        qtbot.waitUntil(lambda: window.menus.menu_file.title() == "文件(&F)", timeout=5000)
        menu = window.menus.show_context_menu(window.members_view, QPoint(10, 10))
        qtbot.waitUntil(menu.isVisible, timeout=5000)
        shown = menu_texts(menu)
        menu.close()
        for bar_menu in (
            window.menus.menu_file,
            window.menus.menu_review,
            window.menus.menu_document,
            window.menus.menu_view,
            window.menus.menu_help,
        ):
            shown.extend(t for t in menu_texts(bar_menu) if t not in window.settings.get("ui/recent_folders"))
        assert shown and not set(shown) & english, set(shown) & english
        assert window.statusBar().currentMessage() not in ("", message)  # the scan's summary, translated
        assert window.threshold_bar.histogram.toolTip() != histogram
    finally:
        install_language(QApplication.instance(), "en")


# -- 4: the filter searches every text, folded as the engine folds it ---------------------------------------
def test_the_filter_finds_every_text_not_only_those_read(qtbot, window, tmp_path):
    """160 pairs of copies (more than the reader's first batch): a word in three of them, typed in
    traditional script the moment the groups show, finds all three."""
    root = tmp_path / "docs"
    rng = random.Random(4)
    for k in range(160):
        lines = [sentence(rng) for _ in range(8)]
        if k in (12, 90, 155):
            lines[5] = "本期的经济学人杂志说" + lines[5]
        (root / f"g{k:03}").mkdir(parents=True)
        for name in ("a.txt", "b.txt"):
            (root / f"g{k:03}" / name).write_text("\n".join(lines), encoding="utf-8")
    with qtbot.waitSignal(window.review_ready, timeout=60_000):
        window.open_folder(root)
        window.filter_edit.setText("經濟學人")
    qtbot.waitUntil(lambda: window.groups_model.rowCount() == 3, timeout=60_000)
    assert sorted(window.groups_model.group(window.groups_model.index(r, 0)).members[0].path for r in range(3)) == [
        "g012/a.txt",
        "g090/a.txt",
        "g155/a.txt",
    ]
    qtbot.waitUntil(lambda: not window.filter_note.isVisible(), timeout=60_000)
    read, total = window.review.search_coverage(window.groups_model.grouping)
    assert read == total == 320


# -- 5: long names never widen the window --------------------------------------------------------------------
def test_long_file_names_are_elided_and_never_widen_the_window(qtbot, window, tmp_path):
    from PySide6.QtGui import QGuiApplication

    root = tmp_path / "docs"
    deep = root / ("很长的文件夹名称" * 8) / ("another-very-long-folder-name-" * 6)
    deep.mkdir(parents=True)
    poem = "床前明月光，疑是地上霜。举头望明月，低头思故乡。\n" * 5
    names = ("第一份非常长的文件名称" * 6 + ".txt", "第二份非常长的文件名称" * 6 + ".txt")
    for name in names:
        (deep / name).write_text(poem, encoding="utf-8")
    open_and_wait(qtbot, window, root)
    paths = [(deep / name).relative_to(root).as_posix() for name in names]
    with qtbot.waitSignal(window.diff_shown, timeout=20_000):
        window.selection.select_members([member_index(window, paths[0]), member_index(window, paths[1])])
    qtbot.wait(50)
    screen = QGuiApplication.primaryScreen().availableGeometry().width()
    assert window.width() == 1400 and window.minimumSizeHint().width() <= min(screen, 1400)
    view = window.diff_view
    for title, path in ((view.left_title, paths[0]), (view.right_title, paths[1])):
        assert title.toolTip() == path and path in title.text()  # the whole path, in words and in the tooltip
        shown = title.shown_text()
        assert "…" in shown and title.fontMetrics().horizontalAdvance(shown) <= title.width()
        assert shown.endswith(path[-3:])  # cut in the middle: the file's extension still shown


# -- 7: one bar and one counter while the pairs are checked -------------------------------------------------
def test_checking_pairs_shows_one_counter_that_never_goes_back(qtbot, window):
    """The check reports texts read and pairs scored by turns; the window shows one line and one bar, the
    bar never going back."""
    from simdesk.core import Progress, TimeLeft

    window.scan_progress.time_left = TimeLeft(True)
    window.scan_progress.set_visible(True)
    shown = []
    reports = [Progress("verifying", 0, 19_910, 0.0)]
    for step in range(10):
        reports += [
            Progress("verifying", min((step + 1) * 2_000, 19_910), 19_910, 0.0),
            Progress("scoring", step * 11_000, 110_435, 0.0),
            Progress("scoring", step * 11_000 + 5_000, 110_435, 0.0),
        ]
    for p in reports:
        window.scan_progress.show(p)
        shown.append((window.progress_label.text(), window.progress_bar.maximum(), window.progress_bar.value()))
    assert {maximum for _, maximum, _ in shown} == {1000}
    values = [value for _, _, value in shown]
    assert values == sorted(values) and values[-1] > 500
    assert all(text.startswith("Checking") for text, _, _ in shown)
    assert "Checking 110,435 candidate pairs on their texts: " in shown[-1][0]
    assert not any("Reading the texts" in text for text, _, _ in shown)


# -- 9: the normalised diff of a re-cut copy; the screenshot waits for what it shows ------------------------
def test_a_repost_cut_at_other_sentence_ends_shows_one_row_pair(qtbot, window, tmp_path):
    root = tmp_path / "docs"
    (root / "misc").mkdir(parents=True)
    poem = (
        "闲梦远，南园正芳春。船上管弦江面绿，满城飞絮辊轻尘。忙杀看花人！\n"
        "闲梦远，南国正清秋。千里江山寒色远，芦花深处泊孤舟。笛在月明楼。\n"
    ) * 3
    repost = poem.replace("。", ",").replace("！", "!")
    (root / "poem.txt").write_text(poem, encoding="utf-8")
    (root / "misc" / "repost.txt").write_text(repost, encoding="utf-8")
    open_and_wait(qtbot, window, root)
    with qtbot.waitSignal(window.diff_shown, timeout=20_000):
        window.selection.select_members([member_index(window, "poem.txt"), member_index(window, "misc/repost.txt")])
    rows = window.diff_view.result.rows
    assert len(rows) <= 6  # rows of whole lines at least, never a row per sentence of either side
    marked = {r.left[a:b] for r in rows for a, b in r.left_spans} | {
        r.right[a:b] for r in rows for a, b in r.right_spans
    }
    assert marked <= {"。", ","}  # only the changed sentence ends ('！' and '!' are one character normalised)
    assert all(r.left and r.right for r in rows)
    assert window.diff_view.left.document().blockCount() == len(rows)


def test_the_screenshot_waits_for_the_titles_it_shows(qtbot, window, tmp_path):
    from simdesk.gui.app import headlines_shown, take_screenshot
    from simdesk.gui.groups_model import COLUMN, NOT_READ

    exits: list[int] = []
    take_screenshot(window, tmp_path / "shot.png", exits.append)
    window.open_folder(four_groups(tmp_path))
    qtbot.waitUntil(lambda: bool(exits), timeout=60_000)
    assert exits == [0] and headlines_shown(window)
    model = window.groups_model
    for column in ("title", "date"):
        assert all(model.index(r, COLUMN[column]).data() != NOT_READ for r in range(model.rowCount()))


# -- 10: smaller things ------------------------------------------------------------------------------------
def test_the_decided_box_is_named_by_its_label_and_the_counts_follow_the_filter(qtbot, window, tmp_path):
    from PySide6.QtGui import QAccessible

    combo = QAccessible.queryAccessibleInterface(window.decided_filter)
    labels = [iface.text(QAccessible.Text.Name) for iface, _ in combo.relations(QAccessible.RelationFlag.Label)]
    assert labels == ["Decided or undecided groups"]  # a screen reader says this, then the current item
    open_and_wait(qtbot, window, four_groups(tmp_path))
    counts = window.threshold_bar.counts_label
    assert counts.text().startswith("4 groups")
    window.filter_edit.setText("songs")
    qtbot.waitUntil(lambda: counts.text().startswith("1 of 4 groups shown by the filter · 4 groups"), timeout=10_000)
    window.filter_edit.clear()
    qtbot.waitUntil(lambda: counts.text().startswith("4 groups"), timeout=10_000)
    # the distance column says what its figures are
    from simdesk.gui.groups_model import COL_DISTANCE

    assert window.groups_model.headerData(COL_DISTANCE, Qt.Orientation.Horizontal) == "Bits apart"


def test_an_empty_keep_box_is_seen_in_a_dark_theme(qtbot, window, tmp_path):
    """The members list's unchecked keep box is drawn in the text's colour on the base, light or dark."""
    from PySide6.QtGui import QColor
    from PySide6.QtWidgets import QApplication

    from simdesk.gui.diff_view import contrast
    from tools.screenshots import dark_palette as full_dark_palette

    app = QApplication.instance()
    before, style = app.palette(), app.style().name()
    app.setStyle("Fusion")  # as the screenshots are taken
    app.setPalette(full_dark_palette())
    try:
        open_and_wait(qtbot, window, small_folder(tmp_path))
        window.selection.show_group_row(0)
        view = window.members_view
        rect = view.visualRect(window.members_model.index(1, 0))
        qtbot.wait(50)
        image = view.viewport().grab(rect).toImage()
        base = view.palette().base().color()
        colours = {image.pixelColor(x, y).rgb() for x in range(18) for y in range(image.height())}  # the box
        assert max(contrast(QColor.fromRgb(c), base) for c in colours) >= 3.0  # a box edge stands out
    finally:
        app.setStyle(style)
        app.setPalette(before)
