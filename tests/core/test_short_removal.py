"""Short texts a word apart stay: a clean-up removes a short text only beside a copy with the same words.

"好灯一拨就亮" and "好灯一拔就亮" are two sayings as often as a saying and its typo'd copy, and nothing in the
texts tells which: a short text (similarity.SHORT_UNITS characters and words or fewer, without boilerplate)
whose words differ from the kept copy's stays, with the reason and the figure. A copy with other punctuation,
width or wrapping holds the same words and goes; a long text with a typo goes as before. Real folders scanned
with the default (verified) settings, every keep rule applied by `Review` as `simdesk clean` applies it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simdesk.core import Index, ReviewSettings, ScanOptions, fate_reason, open_review
from simdesk.core.cleanup.plan import KEEP_RULES
from simdesk.core.fingerprint.similarity import relation
from simdesk.core.matching.reread import short_text, verification_profile
from simdesk.core.reading.boilerplate import line_hash, line_keys

SAYING = "好鼓一打就响，好灯一拨就亮。\n"
TWIN = "好鼓一打就响，好灯一拔就亮。\n"  # one character apart: the collection's sources hold both sayings
# a paragraph of 64 characters: one character mistyped is a typo in a text, not another text
LONG = "编辑每天要处理几百篇来稿，其中不少是同一篇文章的转载、改写或者换了格式的版本，逐一比对费时费力，容易出错。"
LONG_TYPO = LONG.replace("比对", "比队")


def _review(root: Path, tmp_path: Path):
    with Index(tmp_path / "index.sqlite") as index:
        return open_review(root, index, ReviewSettings(scan=ScanOptions(jobs=1)))


def _folder(tmp_path: Path, texts: dict[str, str]) -> Path:
    root = tmp_path / "folder"
    root.mkdir()
    for name, text in texts.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize("rule", KEEP_RULES)
def test_two_sayings_a_character_apart_both_stay_and_the_plan_says_why(tmp_path, rule):
    review = _review(_folder(tmp_path, {"a.txt": SAYING, "b.txt": TWIN}), tmp_path)
    (group,) = list(review.grouping())  # shown together: they are near-duplicates to look at
    review.keep_by_rule_everywhere(rule)
    plan = review.plan_cleanup()
    assert plan.removals == ()
    (stays,) = [f for _, f in plan.fates if f.fate == "stays"]
    assert stays.why == "words" and stays.held == pytest.approx(11 / 12)
    assert "differs from" in fate_reason(stays, review.min_similarity) and "91.6%" in fate_reason(stays, 0.7)
    assert review.undecided(group)  # the group is not decided by the rule: the editor looks at it


@pytest.mark.parametrize("rule", KEEP_RULES)
def test_a_short_text_with_other_punctuation_width_or_wrapping_still_goes(tmp_path, rule):
    texts = {
        "a.txt": SAYING,
        "half.txt": "好鼓一打就响,好灯一拨就亮.\n",
        "full.txt": "好鼓一打就响，好灯一拨就亮。\n\n",
        "wrapped.txt": "好鼓一打就响，\n好灯一拨就亮。",
    }
    review = _review(_folder(tmp_path, texts), tmp_path)
    review.keep_by_rule_everywhere(rule)
    plan = review.plan_cleanup()
    assert len(plan.removals) == 3
    assert {f.why for _, f in plan.fates} == {"kept", "held"}


@pytest.mark.parametrize("rule", KEEP_RULES)
def test_a_long_text_with_a_typo_still_goes(tmp_path, rule):
    review = _review(_folder(tmp_path, {"a.txt": LONG, "b.txt": LONG_TYPO}), tmp_path)
    review.keep_by_rule_everywhere(rule)
    (removal,) = review.plan_cleanup().removals
    assert removal.path in ("a.txt", "b.txt")


def test_a_copy_with_the_same_words_as_a_staying_saying_goes_beside_it(tmp_path):
    """Kept: the twin. The saying stays (a word apart); its copy with other punctuation goes, the saying that
    stays holding every word of it."""
    texts = {"a.txt": SAYING, "a-half.txt": "好鼓一打就响,好灯一拨就亮.\n", "b.txt": TWIN}
    review = _review(_folder(tmp_path, texts), tmp_path)
    (group,) = list(review.grouping())
    review.decisions.keep_only(group, "b.txt")
    plan = review.plan_cleanup()
    fates = {f.path: f for _, f in plan.fates}
    stays, goes = sorted(("a.txt", "a-half.txt"), key=lambda p: fates[p].fate != "stays")
    assert fates[stays].why == "words" and fates[goes].why == "same" and fates[goes].keeper == stays
    assert [r.path for r in plan.removals] == [goes]
    assert plan.survivors[group.id] and stays in {m.path for m in plan.survivors[group.id]}
    assert fate_reason(fates[goes], 0.7) == f"the same words as {stays}, which stays"


def test_a_text_is_short_by_its_characters_without_boilerplate():
    attribution = frozenset(line_hash(k) for k in line_keys("--《谚语》"))
    assert short_text(SAYING + "    --《谚语》\n", attribution)
    assert not short_text(LONG, attribution)
    # in words of letters a changed letter misspells the same word: such a text is not short in this sense
    assert not short_text("Your temporary financial embarrassment will be relieved.", attribution)
    assert short_text(None, attribution)  # unreadable: its words cannot be compared


def test_a_copy_that_wrapped_the_attribution_into_its_text_is_held_whole():
    """The attribution line is boilerplate in the original, dropped before comparing; the copy re-wrapped it
    into its last line, which keeps it. The original's file holds the attribution: the copy is held whole
    (not 8 of its 12 characters), and the original holds it both ways."""
    attribution = frozenset(line_hash(k) for k in line_keys("--《增广贤文》"))
    original = verification_profile("合理可作，小利莫争。\n    --《增广贤文》", attribution)
    copy = verification_profile("合理可作，小利莫争。--《增广贤文》\n", attribution)
    found = relation(copy, original)
    assert found.a_in_b == 1.0 and found.b_in_a == 1.0
