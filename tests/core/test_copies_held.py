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
from simdesk.core.cleanup import KEEP_RULES

QUOTE = ("知识分子的责任，首先是说真话。一个社会如果听不到真话，就会在虚假的繁荣中慢慢失去方向，"
         "而每一个沉默的人，都是这种失去的一部分。")
ARTICLES = [
    ("去年冬天，我在旧书店里翻到一本泛黄的杂志，里面有一篇关于乡村教师的报道。那位老师在山区教了三十年书，"
     "学生换了一茬又一茬，他却始终守着那间漏雨的教室。报道的最后，记者引用了一段话：",
     "读到这里，我合上杂志，在寒风里站了很久。后来我常常想起那位老师，想起他说过的话，也想起自己这些年"
     "究竟说过多少真话。"),
    ("城市的夜晚总是灯火通明，写字楼里的人们加班到深夜，地铁站里挤满了疲惫的面孔。有人说这是奋斗的样子，"
     "也有人说这是一种无奈。一位社会学家在讲座中谈到：",
     "讲座结束后，台下的年轻人议论纷纷。有人认为这话说得太重，有人却觉得一语中的。城市还在运转，灯光照常亮起，"
     "而问题并没有答案。"),
    ("这部纪录片拍摄了五年，记录了一座小镇从繁荣到衰落的过程。工厂关闭以后，年轻人陆续离开，只剩下老人和孩子。"
     "导演在片尾打出了一行字幕：",
     "影片上映后引起了不少讨论。有观众专程去了那座小镇，发现街道比片中更加冷清，只有几家小店还开着门，"
     "店主们说起往事，眼里仍有光。"),
]
STORY = ("清晨的码头上，渔民们已经开始忙碌。他们把昨夜捕获的鱼一筐筐抬上岸，讨价还价的声音此起彼伏。"
         "老张在这里打鱼已经四十年了，他说海里的鱼一年比一年少，年轻人也不愿意再出海。"
         "太阳升起来的时候，码头渐渐安静下来，只剩下海鸥在空中盘旋。"
         "老张坐在船头抽着烟，望着远处的海平线，不知道在想些什么。"
         "他的儿子在城里开了一家小饭馆，几次劝他搬过去一起住，他总是摇头。"
         "他说，离开了海，他就不知道自己是谁了。"
         "傍晚，他又把船推进水里，像过去的每一天一样。")


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
    root = tmp_path / "truncated"
    root.mkdir()
    (root / "full.txt").write_text(STORY, encoding="utf-8")
    (root / "cut.txt").write_text(STORY[:len(STORY) * 2 // 3], encoding="utf-8")
    (root / "typo.txt").write_text(STORY.replace("码头", "马头", 1).replace("海鸥", "海欧"), encoding="utf-8")
    return root


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
    assert [(m.path, m.score, m.held, m.holds) for m in same.members] == \
        [(m.path, m.score, m.held, m.holds) for m in group.members]
