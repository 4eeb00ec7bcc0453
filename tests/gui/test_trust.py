"""The window under an editor's day: no crash while a large comparison is replaced, actions on the groups
shown, a context menu that works every time and follows the language, a filter that finds every text,
titles that never widen the window, one progress counter per phase."""
from __future__ import annotations

import random
from pathlib import Path

from PySide6.QtCore import Qt

from tests.folders import small_folder
from tests.gui.window_driver import group_index_containing, member_index, open_and_wait

HAN = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理世车"


def sentence(rng: random.Random) -> str:
    return "".join(rng.choice(HAN) for _ in range(rng.randint(12, 40))) + rng.choice("。！？")


def large_pair(tmp_path: Path) -> Path:
    """tests.folders.small_folder (a poem in three copies, a second text in two) with big/a.txt (~1 MB of
    sentences in lines) and big/b.txt, the same with a few sentences changed."""
    root = small_folder(tmp_path)
    rng = random.Random(24)
    lines = ["".join(sentence(rng) for _ in range(4)) for _ in range(3500)]
    edited = list(lines)
    for k in range(0, len(edited), 500):
        edited[k] = sentence(rng) + edited[k]
    (root / "big").mkdir(parents=True)
    (root / "big" / "a.txt").write_text("\n".join(lines), encoding="utf-8")
    (root / "big" / "b.txt").write_text("\n".join(edited), encoding="utf-8")
    return root


def test_replacing_a_large_comparison_at_any_moment_does_not_crash(qtbot, window, tmp_path):
    """With a ~1 MB pair shown, flip "As normalised" and click another group 0, 150 or 400 ms later, 20
    times each: the window shows the group clicked last, whole, every time."""
    root = large_pair(tmp_path)
    assert (root / "big" / "a.txt").stat().st_size > 900_000
    open_and_wait(qtbot, window, root)
    view = window.diff_view
    big = group_index_containing(window, "big/a.txt").row()
    small = group_index_containing(window, "snow.txt").row()
    for delay in (0, 150, 400):
        for _ in range(20):
            with qtbot.waitSignal(window.diff_shown, timeout=60_000):
                window.show_group_row(big)
            assert "big/" in view.left_title.text()
            view.mode_button.toggle()
            qtbot.wait(delay)
            with qtbot.waitSignal(window.diff_shown, timeout=60_000):
                window.show_group_row(small)
            qtbot.wait(10)  # a late comparison of the large pair would show here
            assert "snow" in view.left_title.text() and "snow" in view.right_title.text()
            assert view.left.document().blockCount() == len(view.result.rows) < 50
            assert view.right.document().blockCount() == len(view.result.rows)


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
    window.show_group_row(group_index_containing(window, paths[0]).row())
    for path in paths[1:]:
        selection.select(group_index_containing(window, path), flags)


def test_a_click_looks_a_multi_selection_chooses_and_esc_clears(qtbot, window, tmp_path):
    root = four_groups(tmp_path)
    open_and_wait(qtbot, window, root)
    window.show_group_row(group_index_containing(window, "snow.txt").row())  # looking at one group
    assert window.rule_scope().kind == "all" and window.rule_scope_text() == "Applies to every group (4)"
    select_groups(window, ["snow.txt", "songs/a.txt"])
    assert window.rule_scope().groups == tuple(sorted(
        window.groups_model.group(group_index_containing(window, p)).id for p in ("snow.txt", "songs/a.txt")))
    assert window.rule_scope_text() == "Applies to the 2 selected groups"
    qtbot.waitUntil(lambda: window.scans.current is None, timeout=10_000)  # else Esc cancels the scan
    window.groups_view.setFocus()
    qtbot.keyClick(window.groups_view, Qt.Key.Key_Escape)
    assert window.rule_scope().kind == "all"
    assert window.current_group() is not None  # the group looked at stays shown


def test_a_rule_with_the_undecided_filter_leaves_the_decided_groups_alone(qtbot, window, tmp_path):
    root = four_groups(tmp_path)
    open_and_wait(qtbot, window, root)
    # the poem group decided by hand: a copy that is not the shortest path kept
    poem = window.groups_model.group(group_index_containing(window, "poem.txt"))
    window.groups_model.set_keep(next(m for m in poem.members if m.path == "copies/poem-gbk.txt"), poem, True)
    window.decided_filter.setCurrentIndex(1)  # undecided groups
    qtbot.waitUntil(lambda: window.groups_model.rowCount() == 3, timeout=10_000)
    window.show_group_row(0)  # looking at one of them narrows nothing
    assert window.rule_scope_text() == "Applies to the 3 groups the filter shows"
    with qtbot.waitSignal(window.groups_model.decisions_changed, timeout=10_000):
        window.keep_by_rule_everywhere("shortest_path")
    # the hidden, decided group keeps the editor's mark; each group shown keeps its shortest path
    assert window.groups_model.keep == {"copies/poem-gbk.txt", "snow.txt", "songs/a.txt", "notes/x.txt"}
    assert "(of the 3 groups the filter shows)" in window.statusBar().currentMessage()


def test_trash_with_a_text_filter_moves_only_what_the_question_names(qtbot, window, tmp_path, trash_home):
    from PySide6.QtWidgets import QMessageBox

    root = four_groups(tmp_path)
    open_and_wait(qtbot, window, root)
    with qtbot.waitSignal(window.groups_model.decisions_changed, timeout=10_000):
        window.keep_by_rule_everywhere("shortest_path")  # one copy kept in every group: 5 others would go
    window.filter_edit.setText("songs")
    qtbot.waitUntil(lambda: window.groups_model.rowCount() == 1, timeout=10_000)
    window.act_trash.trigger()
    qtbot.waitUntil(lambda: window.findChild(QMessageBox, "confirm_cleanup") is not None, timeout=10_000)
    box = window.findChild(QMessageBox, "confirm_cleanup")
    assert box.text().startswith("Move 1 file (") and "from the 1 group the filter shows to the trash?" in box.text()
    with qtbot.waitSignal(window.cleanup_done, timeout=20_000) as done:
        box.button(QMessageBox.StandardButton.Yes).click()
    assert done.args[0].done == ["songs/b.txt"]
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*.txt")) == [
        "copies/poem-copy.txt", "copies/poem-gbk.txt", "copies/snow-copy.txt", "notes/x.txt", "notes/y.txt",
        "poem.txt", "snow.txt", "songs/a.txt"]
