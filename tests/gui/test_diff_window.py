"""The window's comparison and its fit to the desktop: one similarity in the table and the diff header, the
normalised and raw views, palette colours readable in light and dark themes, accessible names and Tab order,
the layout remembered across runs, encodings and file names as people read them."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QWidget

from simdesk.core import SideBySide, compare_texts
from simdesk.gui.diff_view import MIN_CONTRAST, RENDER_CHUNK_ROWS, DiffColours, DiffView, contrast
from simdesk.gui.groups_model import COL_ENCODING, COL_PATH, COL_SIMILARITY, COL_SIZE, MemberRole
from tests.gui.window_driver import dark_palette, member_index, open_and_wait

ARTICLE = (
    "国务院新闻办公室今日举行新闻发布会，介绍今年前三季度经济运行情况。"
    "发言人表示，国民经济总体保持恢复态势，主要指标稳中有进，就业形势总体稳定。"
    "他指出，下一阶段将继续加大宏观政策调节力度，着力扩大国内需求，推动经济持续回升向好。"
    "记者从会上获悉，前三季度全国规模以上工业增加值同比增长，服务业生产指数稳步回升。"
)
OTHER = (
    "秋天的校园里，银杏叶铺满了小路，同学们三三两两地走向图书馆。"
    "一位老教授站在湖边，给学生们讲起了他年轻时在乡村教书的故事。"
    "晚风吹过操场，篮球场上的喊声一直持续到路灯亮起来。"
)


def rewrap(text: str, width: int) -> str:
    return "\n".join(text[k : k + width] for k in range(0, len(text), width))


def rewrapped_folder(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    (root / "reposts" / "2024").mkdir(parents=True)
    (root / "article.txt").write_text(rewrap(ARTICLE, 38), encoding="utf-8")
    copy = rewrap(ARTICLE.replace("，", ",", 3), 25)  # other wrapping, three commas half-width
    (root / "reposts" / "2024" / "article-reflowed.txt").write_text(copy, encoding="gb18030")
    (root / "campus.txt").write_text(OTHER, encoding="utf-8")
    return root


def show_pair(qtbot, window, a: str, b: str) -> None:
    with qtbot.waitSignal(window.diff_shown, timeout=20_000):
        window.selection.select_members([member_index(window, a), member_index(window, b)])


@pytest.fixture
def verified(settings):
    settings.set("review/verify", True)
    return settings


def test_table_and_diff_header_show_one_similarity(qtbot, verified, data_dir, corpus):
    from simdesk.gui.app import make_window

    window = make_window(verified, data_dir)
    qtbot.addWidget(window)
    window.show()
    open_and_wait(qtbot, window, corpus)
    model, members = window.groups_model, window.members_model
    checked = 0
    for r in range(model.rowCount()):
        window.selection.show_group_row(r)
        for k in range(1, members.rowCount()):
            m = members.index(k, 0).data(MemberRole)
            if m.score is None or m.score >= 0.995:
                continue
            shown = members.index(k, COL_SIMILARITY).data()
            rep = members.index(0, 0).data(MemberRole)
            show_pair(qtbot, window, rep.path, m.path)
            assert f"Similarity {shown}" in window.diff_view.summary.text(), (shown, window.diff_view.summary.text())
            checked += 1
            break
        if checked == 3:
            break
    assert checked == 3
    window.stop_scan()
    window.background.wait()
    window.writer.wait()


def test_a_reflowed_copy_shows_no_change_as_normalised_and_its_lines_raw(qtbot, window, tmp_path, settings):
    root = rewrapped_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    show_pair(qtbot, window, "article.txt", "reposts/2024/article-reflowed.txt")
    view = window.diff_view
    assert view.mode == "normalised" and view.result.hunks == ()
    assert "Similarity 100.0%" in view.summary.text() and "0 changes" in view.summary.text()
    with qtbot.waitSignal(window.diff_shown, timeout=20_000):
        view.mode_button.click()  # the raw lines
    assert view.result.mode == "raw" and len(view.result.hunks) > 0
    assert "Similarity 100.0%" in view.summary.text()  # the same figure in either view
    assert settings.get("ui/diff_mode") == "raw"


def test_encodings_and_long_names_as_people_read_them(qtbot, window, tmp_path):
    root = rewrapped_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    idx = member_index(window, "reposts/2024/article-reflowed.txt")
    model = window.members_model
    assert model.index(idx.row(), COL_ENCODING).data() == "GB18030"
    assert idx.data() == "article-reflowed.txt — reposts/2024"  # the name first, the folder after
    assert window.groups_view.textElideMode() == window.members_view.textElideMode() == Qt.TextElideMode.ElideMiddle
    assert idx.data(Qt.ItemDataRole.ToolTipRole) == "reposts/2024/article-reflowed.txt"
    tips = [
        model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) for c in range(model.columnCount())
    ]
    assert all(tips) and "character by character" in tips[COL_SIMILARITY]


def test_only_rows_in_view_are_highlighted_and_a_far_change_is_scrolled_to(qtbot, window, tmp_path):
    root = tmp_path / "long"
    root.mkdir()
    lines = [f"第{k}行：" + "甲乙丙丁戊己庚辛壬癸" * 30 for k in range(3000)]
    edited = [line + "改" if k % 2 == 0 else line for k, line in enumerate(lines)]  # at the end of long lines
    (root / "a.txt").write_text("\n".join(lines), encoding="utf-8")
    (root / "b.txt").write_text("\n".join(edited), encoding="utf-8")
    window.settings.set("ui/diff_mode", "raw")
    window.diff_view.set_mode("raw")
    open_and_wait(qtbot, window, root)
    window.set_threshold(12)
    show_pair(qtbot, window, "a.txt", "b.txt")
    view = window.diff_view
    changed = sum(1 for r in view.result.rows if r.kind != "equal")
    assert changed >= 1500
    pane = view.right
    visible = len(pane.visible_range())
    assert 0 < len(pane.extraSelections()) <= 3 * visible < changed  # the rows in view, not all of them
    # the first change is at the end of a 300-character row: the panes scrolled right to show it
    assert pane.horizontalScrollBar().value() > 0
    assert view.left.horizontalScrollBar().value() == pane.horizontalScrollBar().value()

    def first_painted() -> int:
        selections = pane.extraSelections()
        return selections[0].cursor.block().blockNumber()

    first = first_painted()
    view.right.verticalScrollBar().setValue(view.right.verticalScrollBar().maximum())
    assert first_painted() > first + 1000  # repainted where it scrolled
    # the changes inside the rows scrolled to are found (off the GUI thread when the first view left them
    # rough) and painted: only the added character, in the candidate's colour
    in_view = [n for n in pane.visible_range() if view.result.rows[n].kind == "replace"]
    assert in_view
    qtbot.waitUntil(lambda: not view.result.rough.intersection(in_view), timeout=10_000)
    row = view.result.rows[in_view[-1]]
    assert [row.right[a:b] for a, b in row.right_spans] == ["改"]
    block = pane.document().findBlockByNumber(in_view[-1])
    painted = {
        (sel.cursor.selectionStart() - block.position(), sel.cursor.selectionEnd() - block.position())
        for sel in pane.extraSelections()
        if sel.cursor.block().blockNumber() == in_view[-1]
    }
    assert row.right_spans[0] in painted


@pytest.mark.parametrize("palette", ["light", "dark"])
def test_diff_colours_keep_the_text_readable(qtbot, window, tmp_path, palette):
    if palette == "dark":
        window.diff_view.setPalette(dark_palette())
    pane = window.diff_view.right
    colours = pane.colours
    base = pane.palette().color(QPalette.ColorRole.Base)
    assert colours == DiffColours.of(pane.palette())
    if palette == "dark":
        assert colours.changed_line.lightness() < 128  # a dark theme gets dark highlights, not light ones
    for background in (colours.changed_line, colours.left_change, colours.right_change, colours.filler):
        assert contrast(colours.text, background) >= MIN_CONTRAST
    assert contrast(colours.boilerplate_text, base) >= MIN_CONTRAST
    assert contrast(colours.boilerplate_text, base) < contrast(colours.text, base)  # greyed, still readable
    # what is painted uses these colours
    root = rewrapped_folder(tmp_path)
    (root / "article-edited.txt").write_text(ARTICLE.replace("扩大国内需求", "扩大出口"), encoding="utf-8")
    open_and_wait(qtbot, window, root)
    window.set_threshold(12)
    show_pair(qtbot, window, "article.txt", "article-edited.txt")
    backgrounds = {sel.format.background().color().name() for sel in pane.extraSelections()}
    assert {colours.changed_line.name(), colours.right_change.name()} <= backgrounds


def test_main_widgets_have_accessible_names_and_tab_reaches_the_diff(qtbot, window, tmp_path):
    root = rewrapped_folder(tmp_path)
    open_and_wait(qtbot, window, root)
    named = (
        window.groups_view,
        window.members_view,
        window.filter_edit,
        window.threshold_bar.slider,
        window.diff_view.left,
        window.diff_view.right,
        window.diff_view.mode_button,
        window.problems_view,
    )
    assert all(w.accessibleName() for w in named)
    assert len({w.accessibleName() for w in named}) == len(named)
    window.filter_edit.setFocus()
    seen: list[QWidget] = []
    w = window.filter_edit
    for _ in range(12):
        w = w.nextInFocusChain()
        while not (w.focusPolicy() & Qt.FocusPolicy.TabFocus) or not w.isVisible():
            w = w.nextInFocusChain()
        seen.append(w)
    order = [seen.index(x) for x in (window.groups_view, window.diff_view.left, window.diff_view.right)]
    assert order == sorted(order)  # filter, then the groups, then the reference and the candidate


def test_layout_and_sort_are_remembered(qtbot, settings, data_dir, tmp_path):
    from simdesk.gui.app import make_window

    first = make_window(settings, data_dir)
    qtbot.addWidget(first)
    first.show()
    first.groups_view.horizontalHeader().resizeSection(COL_PATH, 433)
    first.groups_view.sortByColumn(COL_SIZE, Qt.SortOrder.AscendingOrder)
    first.review_page.setSizes([700, 400])
    sizes = first.review_page.sizes()
    first.close()
    second = make_window(settings, data_dir)
    qtbot.addWidget(second)
    second.show()
    header = second.groups_view.horizontalHeader()
    assert header.sectionSize(COL_PATH) == 433
    assert second.members_view.horizontalHeader().sectionSize(COL_PATH) == 433  # the members follow
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == (COL_SIZE, Qt.SortOrder.AscendingOrder)
    assert (second.groups_model.sort_column, second.groups_model.sort_order) == (COL_SIZE, Qt.SortOrder.AscendingOrder)
    assert second.review_page.sizes() == sizes


@pytest.mark.parametrize("language,needle", [("en", "As normalised"), ("zh_CN", "按规范化比较")])
def test_help_has_a_short_manual_in_the_interface_language(qtbot, settings, data_dir, language, needle):
    from simdesk.gui.app import make_window
    from simdesk.gui.manual import ManualDialog

    settings.set("ui/language", language)
    window = make_window(settings, data_dir)
    qtbot.addWidget(window)
    assert window.menus.act_manual in window.menus.menu_help.actions()
    window.menus.act_manual.trigger()
    dialog = window.findChild(ManualDialog)
    assert dialog is not None and dialog.isVisible()
    assert needle in dialog.browser.toPlainText()
    assert needle == window.diff_view.mode_button.text()  # the manual names the switch as the window does
    dialog.close()
    QApplication.processEvents()


@pytest.fixture
def diff_view(qtbot) -> DiffView:
    view = DiffView()
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    return view


def large_comparison() -> SideBySide:
    """A comparison of texts of 5 x RENDER_CHUNK_ROWS lines, its last line changed (its panes are built in
    several turns of the event loop)."""
    lines = [f"{ARTICLE[k % 40 :]}{k}" for k in range(5 * RENDER_CHUNK_ROWS)]
    return compare_texts("\n".join(lines), "\n".join([*lines[:-1], OTHER]), mode="raw")


@pytest.mark.parametrize("moment", ["building", "half swapped"])
def test_a_newer_comparison_asked_for_stops_the_one_under_way(qtbot, diff_view, moment):
    """Another pair is selected while a large comparison's panes are being built, or when its left pane is
    swapped in and its right one not yet: what was being built is dropped, both panes show one comparison,
    and `shown` is never emitted for the pair no longer asked for."""
    view = diff_view
    small = compare_texts(ARTICLE, ARTICLE.replace("经济", "金融"), mode="raw")
    with qtbot.waitSignal(view.shown):
        view.show_result(small, "a.txt", "b.txt")
    large = large_comparison()
    shown: list[SideBySide | None] = []
    view.shown.connect(lambda: shown.append(view.result))
    view.show_result(large, "big/a.txt", "big/b.txt")
    half_swapped = lambda: view.left.rows is not view.right.rows  # noqa: E731
    done = half_swapped if moment == "half swapped" else lambda: view.building() and view.left.rows is small.rows
    while not done():
        QApplication.processEvents()
    QApplication.processEvents() if moment == "building" else None  # a chunk built, more to come
    assert view.building() == (moment == "building")
    view.comparing()  # as the window does when another pair is selected
    assert not view.building() and view.summary.text() == view.tr("Comparing…")
    for _ in range(5 * RENDER_CHUNK_ROWS):  # more turns of the event loop than building the panes took
        QApplication.processEvents()
    assert shown == []
    expected = small if moment == "building" else large
    assert view.left.rows is view.right.rows is expected.rows
    assert view.left.document().blockCount() == view.right.document().blockCount() == len(expected.rows)
