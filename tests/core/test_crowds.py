"""Large copy groups: in a group of ten copies or more every untouched line is frequent in the collection, and
the copies still group (verify.crowd_score), while unrelated texts under one frequent site menu and footer,
or above one shared notice, still do not."""

from __future__ import annotations

import random

from simdesk.core.fingerprint.similarity import DEFAULT_MIN_SIMILARITY, FILL_SCORE, crowd_score, profile, similarity
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import VerifySettings, analyse, text_similarity
from simdesk.core.reading.boilerplate import CROWD_SHARE, frequent_parts, line_hashes
from simdesk.core.records import ScanOptions
from tests.core.test_notices import DESCRIPTIONS, GPL_NOTICE, HAN, REFERENCE

MENU = [
    "首页",
    "新闻中心",
    "产品与服务",
    "关于我们",
    "联系我们",
    "网站地图",
    "帮助中心",
    "用户登录",
    "免费注册",
    "下载客户端",
    "热门推荐",
    "最新动态",
    "专题报道",
    "图片新闻",
    "视频直播",
    "评论排行",
]
FOOTER = [
    "友情链接：中国政府网 人民网 新华网 央视网 光明网 中国日报网",
    "关于本站 | 广告服务 | 招聘信息 | 意见反馈 | 隐私政策",
    "版权所有 © 某某信息技术有限公司 保留所有权利",
    "本站所有内容未经授权禁止转载 违者必究",
    "客服热线 400-800-0000 服务时间 周一至周日",
    "京ICP备12345678号 京公网安备11010502000000号",
]


def _lines(text: str, width: int) -> str:
    """The text cut into lines of `width` characters (short lines: boilerplate when frequent)."""
    flat = text.replace("\n", "")
    return "\n".join(flat[k : k + width] for k in range(0, len(flat), width))


def _typos(text: str, count: int, rng: random.Random) -> str:
    chars = list(text)
    for k in rng.sample([k for k, c in enumerate(chars) if "\u4e00" <= c <= "\u9fff"], count):
        chars[k] = rng.choice(HAN)
    return "".join(chars)


def _groups(root, tmp_path) -> list[list[str]]:
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        grouper = analyse(root, index, verify=VerifySettings(jobs=1))
        return sorted(sorted(m.path for m in g.members) for g in grouper.at(grouper.max_threshold))


def _write(root, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def test_a_large_group_of_copies_groups_whole(tmp_path):
    """24 reposts of one text of short lines, 2-4 typos each, every third re-wrapped: each untouched line is
    held by ten texts or more, boilerplate, so without it a repost kept only its edited lines (before
    crowd_score the original grouped with the 8 re-wrapped reposts alone, 4 reposts in pairs, 12 alone)."""
    rng = random.Random(7)
    original = _lines("".join(REFERENCE), 30)
    files = {"ref/original.txt": original}
    for k in range(24):
        copy = _typos(original, rng.randint(2, 4), rng)
        files[f"ref/copy{k:02d}.txt"] = _lines(copy, 17 + k % 5) if k % 3 == 0 else copy
    files["other/saying.txt"] = "宁走十步远，不走一步险。病急乱投医，逢庙就烧香。"
    root = tmp_path / "crowd"
    _write(root, files)
    assert _groups(root, tmp_path) == [sorted(p for p in files if p.startswith("ref/"))]


def test_unrelated_pages_under_one_site_menu_and_footer_do_not_group(tmp_path):
    """30 pages of a site: the same menu and footer (frequent lines, most of each page) around a different
    short article each; two of the pages are one article with a typo. The whole pages score 0.75 or more,
    but an article is found in no other page: only the copy groups."""
    rng = random.Random(11)
    articles = ["".join(rng.choice(HAN) for _ in range(rng.randint(40, 70))) for _ in range(30)]
    files = {f"site/{k:02d}.txt": "\n".join(MENU + [article] + FOOTER) for k, article in enumerate(articles)}
    files["site/copy.txt"] = "\n".join(MENU + [_typos(articles[0], 1, rng)] + FOOTER)
    root = tmp_path / "site"
    _write(root, files)
    assert text_similarity(files["site/01.txt"], files["site/02.txt"]) >= 0.75  # the menu carries the pages
    frequent = frozenset(int(h) for h in line_hashes("\n".join(MENU + FOOTER)))
    parts = frequent_parts(files["site/01.txt"], frequent)
    assert parts.frequent is not None  # the menu and footer are over CROWD_SHARE of each page
    assert (
        crowd_score(
            *(profile(parts.stripped, parts.rest, files[p], parts.frequent) for p in ("site/01.txt", "site/01.txt"))
        )
        == 1.0
    )  # the rule is on for these pages
    assert _groups(root, tmp_path) == [["site/00.txt", "site/copy.txt"]]


def test_descriptions_above_one_notice_still_do_not_group():
    """Package descriptions above the GPL notice: the notice is most of each text (over CROWD_SHARE), the
    whole texts score 0.8 or more, but a description is not found in another text."""
    frequent = frozenset(int(h) for h in line_hashes(GPL_NOTICE))
    texts = [f"{d}\n\n{GPL_NOTICE}" for d in DESCRIPTIONS[:4]]
    profiles = []
    for text in texts:
        parts = frequent_parts(text, frequent)
        assert parts.frequent is not None
        profiles.append(profile(parts.stripped, parts.rest, text, parts.frequent))
    assert text_similarity(texts[2], texts[3]) >= 0.7  # without the collection's frequent lines
    for a in range(len(texts)):
        for b in range(a + 1, len(texts)):
            assert crowd_score(profiles[a], profiles[b]) < 0.3
            assert text_similarity(texts[a], texts[b], frequent) < 0.5


def test_few_frequent_lines_leave_the_rule_off():
    """A text whose frequent lines are under CROWD_SHARE of it is scored as before (no whole profile)."""
    text = "\n".join(REFERENCE)
    frequent = frozenset(int(h) for h in line_hashes(FOOTER[0]))
    parts = frequent_parts(text + "\n" + FOOTER[0], frequent)
    assert parts.frequent is None and CROWD_SHARE > 0.1
    assert frequent_parts(FOOTER[0] + "\n" + DESCRIPTIONS[0][:20], frequent).frequent == FOOTER[0]


def test_one_template_filled_twice_under_frequent_lines_is_not_a_copy():
    """Two order letters of one template under the site's frequent lines, differing in the order number: the
    whole texts are alike, and template_fill's cap on the texts without their frequent lines holds."""
    frequent = set()
    for line in FOOTER[:3]:
        frequent.update(line_hashes(line).tolist())
    letters = [
        f"尊敬的王女士您好，您的订单号{number}已于今日发货，预计三日内送达，请注意查收。\n" + "\n".join(FOOTER[:3])
        for number in ("48213", "51234")
    ]
    profiles = []
    for text in letters:
        parts = frequent_parts(text, frequent)
        assert parts.frequent is not None  # the rule is on for these texts
        profiles.append(profile(parts.stripped, parts.rest, text, parts.frequent))
    assert similarity(*profiles) <= FILL_SCORE < DEFAULT_MIN_SIMILARITY
    # the same letter with a typo is still a copy
    typo = frequent_parts(letters[0].replace("查收", "杳收"), frequent)
    assert (
        similarity(profiles[0], profile(typo.stripped, typo.rest, letters[0], typo.frequent)) >= DEFAULT_MIN_SIMILARITY
    )
