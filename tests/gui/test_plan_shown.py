"""The plan on screen: each member's Status says keep / goes / stays and why (the clean-up's directional rule,
core.cleanup.member_fates), and a text held whole by a longer one is shown as inside it, not as "100%"."""

from __future__ import annotations

import pytest

from simdesk.gui.groups_model import COL_SIMILARITY, COL_STATUS
from tests.folders import story_folder
from tests.gui.test_diff_window import show_pair
from tests.gui.window_driver import member_index, open_and_wait


@pytest.fixture
def folder(tmp_path):
    return story_folder(tmp_path / "docs", quoted=True)


def _status(window, path: str) -> tuple[str, str]:
    idx = member_index(window, path)
    cell = idx.siblingAtColumn(COL_STATUS)
    return cell.data(), cell.data(3) or ""  # Qt.ToolTipRole == 3


def test_status_says_what_goes_and_what_stays_with_the_share_kept(qtbot, verified_window, folder):
    window = verified_window
    open_and_wait(qtbot, window, folder)
    member_index(window, "cut.txt")  # its group made the current one
    model, marks = window.groups_model, window.review_actions  # marks are made through the review
    group = model.group_at(model.row_of_path("cut.txt"))
    marks.set_keep(group.members[[m.path for m in group.members].index("cut.txt")], group, True)
    status, tip = _status(window, "full.txt")
    assert status.startswith("stays") and "of its text is in cut.txt" in tip
    assert _status(window, "cut.txt")[0] == "keep"
    marks.set_keep(group.members[[m.path for m in group.members].index("cut.txt")], group, False)
    marks.set_keep(group.members[[m.path for m in group.members].index("full.txt")], group, True)
    status, tip = _status(window, "typo.txt")
    assert status.startswith("goes") and "full.txt" in tip, (status, tip)
    status, tip = _status(window, "cut.txt")  # all of it is in the full text, but it is 69% of that text
    assert status == "stays: a passage" and "a passage of it, not a copy" in tip, (status, tip)


def test_a_quote_is_shown_inside_the_article_not_as_a_similarity(qtbot, verified_window, folder):
    window = verified_window
    open_and_wait(qtbot, window, folder)
    cell = member_index(window, "quote.txt").siblingAtColumn(COL_SIMILARITY)
    assert cell.data().startswith("inside") and "100" not in cell.data()
    assert "All of this document is in article.txt" in cell.data(3)
    model = window.groups_model
    assert model.index(model.row_of_path("quote.txt"), COL_SIMILARITY).data() == "1 inside"  # the group row
    show_pair(qtbot, window, "article.txt", "quote.txt")
    header = window.diff_view.summary.text()
    assert "Similarity" not in header and "All of the right text is in the left one" in header, header


def test_a_saying_a_word_apart_from_the_copy_kept_is_shown_staying_and_why(qtbot, verified_window, tmp_path):
    root = tmp_path / "sayings"
    root.mkdir()
    (root / "a.txt").write_text("好鼓一打就响，好灯一拨就亮。\n", encoding="utf-8")
    (root / "a-half.txt").write_text("好鼓一打就响,好灯一拨就亮.\n", encoding="utf-8")
    (root / "b.txt").write_text("好鼓一打就响，好灯一拔就亮。\n", encoding="utf-8")
    window = verified_window
    open_and_wait(qtbot, window, root)
    member_index(window, "b.txt")
    model, marks = window.groups_model, window.review_actions
    group = model.group_at(model.row_of_path("b.txt"))
    marks.set_keep(group.members[[m.path for m in group.members].index("b.txt")], group, True)
    statuses = {p: _status(window, p) for p in ("a.txt", "a-half.txt")}
    staying = [p for p, (status, _) in statuses.items() if status.startswith("stays: a word differs")]
    going = [p for p, (status, _) in statuses.items() if status == "goes: same as one staying"]
    assert len(staying) == len(going) == 1, statuses
    assert "differs from b.txt, the copy kept, in a word" in statuses[staying[0]][1]
    assert staying[0] in statuses[going[0]][1]
