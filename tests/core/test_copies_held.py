"""A clean-up never costs the editor a document: a copy leaves only when the copy kept holds its text.

Real folders scanned with the default (verified) settings: a sentence quoted in three different articles, a
truncated copy of an article, a typo'd copy. Groups are copies of their representative (no two articles
joined through the sentence they quote), and every keep rule, applied by `Review` as `simdesk clean` applies
it, removes only copies whose text the kept copy holds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simdesk.core import Index, ReviewSettings, ScanOptions, open_review
from simdesk.core.cleanup.plan import KEEP_RULES
from simdesk.core.fingerprint.similarity import held_share, profile
from tests.folders import ARTICLES, QUOTE, story_folder


def _scan(root: Path, tmp_path: Path):
    with Index(tmp_path / "index.sqlite") as index:
        return open_review(root, index, ReviewSettings(scan=ScanOptions(jobs=1)))


@pytest.fixture
def quoted(tmp_path: Path) -> Path:
    """The quote alone, and three different articles quoting it whole."""
    root = tmp_path / "quoted"
    root.mkdir()
    (root / "quote.txt").write_text(QUOTE, encoding="utf-8")
    for n, (before, after) in enumerate(ARTICLES):
        (root / f"article-{n}.txt").write_text(before + QUOTE + after, encoding="utf-8")
    return root


def test_articles_quoting_one_sentence_are_never_copies_of_each_other(quoted, tmp_path):
    review = _scan(quoted, tmp_path)
    grouping = review.grouping()
    for group in grouping:
        articles = [m.path for m in group.members if m.path.startswith("article")]
        assert len(articles) <= 1, f"articles joined through the quote they share: {articles}"
        rep = group.members[0]
        for m in group.members[1:]:
            assert m.held is not None and m.held >= review.min_similarity, (rep.path, m.path, m.held)


@pytest.mark.parametrize("rule", KEEP_RULES)
def test_no_keep_rule_removes_an_article_that_quotes_the_copy_kept(quoted, tmp_path, rule):
    review = _scan(quoted, tmp_path)
    review.keep_by_rule_everywhere(rule)
    plan = review.plan_cleanup()
    assert not [r.path for r in plan.removals if r.path.startswith("article")]


def test_keeping_the_quote_removes_no_article_and_says_why(quoted, tmp_path):
    review = _scan(quoted, tmp_path)
    for group in review.grouping():
        review.decisions.keep_only(group, "quote.txt") if any(m.path == "quote.txt" for m in group.members) else None
    plan = review.plan_cleanup()
    assert plan.removals == ()
    stays = {f.path: f for _, f in plan.fates if f.fate == "stays"}
    assert all(f.why == "below" and (f.held is None or f.held < 0.7) for f in stays.values())


@pytest.fixture
def truncated(tmp_path: Path) -> Path:
    """A story, its first two thirds (a truncated copy), and a copy with two characters mistyped."""
    return story_folder(tmp_path / "truncated")


def test_keeping_a_copy_missing_a_third_never_removes_the_text(truncated, tmp_path):
    review = _scan(truncated, tmp_path)
    (group,) = list(review.grouping())
    assert {m.path for m in group.members} == {"full.txt", "cut.txt", "typo.txt"}
    assert group.members[0].path != "cut.txt"  # the representative holds every member
    review.decisions.keep_only(group, "cut.txt")
    plan = review.plan_cleanup()
    assert plan.removals == ()
    fates = {f.path: f for _, f in plan.fates}
    assert fates["full.txt"].fate == fates["typo.txt"].fate == "stays"
    assert 0.5 < fates["full.txt"].held < 0.7  # two thirds of the story is in the cut copy


def test_keeping_the_full_text_removes_its_typoed_copy_not_its_first_two_thirds(truncated, tmp_path):
    """The full text holds all of the cut copy, but the cut copy is only 69% of it: a passage, not a version
    of it at the least similarity (70%). The typo'd copy and the full text hold each other (97%)."""
    review = _scan(truncated, tmp_path)
    (group,) = list(review.grouping())
    review.decisions.keep_only(group, "full.txt")
    plan = review.plan_cleanup()
    assert [r.path for r in plan.removals] == ["typo.txt"]
    fates = {f.path: f for _, f in plan.fates}
    assert fates["cut.txt"].why == "part" and fates["cut.txt"].held == 1.0 and fates["cut.txt"].holds < 0.7
    assert fates["typo.txt"].held > 0.95 and fates["typo.txt"].holds > 0.95  # two characters of 230
    review.decisions.keep_only(group, "typo.txt")
    assert [r.path for r in review.plan_cleanup().removals] == ["full.txt"]


def test_shares_are_kept_in_the_index_and_reread_the_same(truncated, tmp_path):
    first = _scan(truncated, tmp_path)
    (group,) = list(first.grouping())
    with Index(tmp_path / "index.sqlite") as index:
        again = open_review(truncated, index, ReviewSettings(scan=ScanOptions(jobs=1)))
    (same,) = list(again.grouping())
    assert [(m.path, m.score, m.held, m.holds) for m in same.members] == [
        (m.path, m.score, m.held, m.holds) for m in group.members
    ]


def test_a_share_not_measured_never_lets_a_copy_go_from_verified_groups(truncated, tmp_path):
    """Shares are measured from verify.SHARE_FLOOR up: grouped at a lower least similarity, a pair without
    them keeps its copies (the plan says no kept copy holds them); plain groups measure nothing and remove
    every copy of a group, as the editor chose them."""
    from simdesk.core.cleanup.plan import member_fates

    review = _scan(truncated, tmp_path)
    (group,) = list(review.grouping())
    nan = float("nan")
    keep = {group.members[0].path}
    verified = member_fates(group, keep, set(), None, lambda copy, keeper: nan, least=0.3)
    assert [f.fate for f in verified[1:]] == ["stays", "stays"] and verified[1].why == "below"
    plain = member_fates(group, keep, set(), None, lambda copy, keeper: nan, least=None)
    assert [f.fate for f in plain[1:]] == ["goes", "goes"]


def _held(a: str, b: str) -> float:
    """The share of text a that text b holds (no boilerplate: the texts as given)."""
    return held_share(profile(a), profile(b))


# Short texts: each of the kept text's shingles counts once, and a character kept in order counts alone only
# between typos. A one-character typo costs that character wherever it falls, a swapped clause order and a
# repost with other punctuation are held whole.
SAYING = "好鼓一打就响，好灯一拨就亮。"


@pytest.mark.parametrize(
    ("copy", "least"),
    [
        ("好鼓一打就响，好灯一拔就亮。", 11 / 12),  # a typo two characters from the end
        ("好鼓一大就响，好灯一拨就亮。", 11 / 12),  # in the middle
        ("好古一打就响，好灯一拨就亮。", 11 / 12),  # next to the start
        ("好灯一拨就亮，好鼓一打就响。", 1.0),  # the clauses swapped
        ("好鼓一打就响!好灯一拨就亮!!", 1.0),  # other punctuation
        ("好鼓 一打就响  好灯一拨就亮", 1.0),
    ],
)
def test_a_short_copy_is_held_but_for_its_typo(copy, least):
    assert _held(SAYING, copy) >= least - 1e-9 and _held(copy, SAYING) >= least - 1e-9


def test_a_phrase_repeated_in_every_clause_holds_the_other_text_once():
    """Every clause of the longer saying has 之计在于, whose shingles the shorter one has twice: the shorter
    keeps 13 of the longer one's 28 characters, not 21; the longer holds all of the shorter but 晨."""
    short, longer = "一日之计在于晨，一年之计在于春", "一年之计在于春，一日之计在于寅，一家之计在于和，一生之计在于勤"
    assert _held(longer, short) == pytest.approx(13 / 28)
    assert _held(short, longer) == pytest.approx(13 / 14)


def test_two_stanzas_sharing_their_first_line_do_not_hold_each_other():
    """ "桃之夭夭" and the attribution are shared; 其 matches alone between unrelated lines and counts for nothing."""
    a, b = "桃之夭夭，灼灼其华。\n-- 佚名《桃夭》", "桃之夭夭，其叶蓁蓁。\n-- 佚名《桃夭》"
    assert _held(a, b) < 0.7 and _held(b, a) < 0.7
    a, b = "桃之夭夭，灼灼其华。之子于归，宜其室家。", "桃之夭夭，其叶蓁蓁。之子于归，宜其家人。"
    assert _held(a, b) < 0.7 and _held(b, a) < 0.7


@pytest.mark.parametrize("rule", KEEP_RULES)
def test_no_keep_rule_removes_a_saying_whose_clauses_the_kept_one_repeats(tmp_path, rule):
    root = tmp_path / "sayings"
    root.mkdir()
    (root / "a.txt").write_text("一日之计在于晨，一年之计在于春。\n", encoding="utf-8")
    (root / "k.txt").write_text("一年之计在于春，一日之计在于寅，一家之计在于和，一生之计在于勤。\n", encoding="utf-8")
    review = _scan(root, tmp_path)
    review.keep_by_rule_everywhere(rule)
    assert review.plan_cleanup().removals == ()
