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
