"""Markup-aware reading: web pages (told by content) and Markdown are compared on their visible text, the
source stays readable, and a markup file with nothing to compare is a problem with a reason."""

from __future__ import annotations

import opencc

from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import VerifySettings, analyse
from simdesk.core.reading.documents import read_source_file, read_text_file
from simdesk.core.reading.markup import HTML, MARKDOWN, markup_kind, visible_text
from simdesk.core.records import ScanOptions

ARTICLE = (
    "北京时间昨天晚上，国家足球队在主场以二比一战胜了来访的对手，取得了预选赛的第三场胜利。\n"
    "主教练在赛后的新闻发布会上表示，球员们在下半场表现出了很强的斗志，但是防守还需要加强。\n"
    "据统计，本场比赛的现场观众超过了五万人，创造了今年国内比赛的最高纪录。"
)


def page(body: str, title: str = "新闻") -> str:
    return (
        f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{title}</title>"
        "<style>p { color: red }</style><script>var tracker = 'x'.repeat(100);</script></head>"
        f"<body><nav><a href='/'>首页</a></nav><article>{body}</article>"
        "<footer>&copy; 2026 某某网</footer></body></html>"
    )


def paragraphs(text: str) -> str:
    return "".join(f"<p>{line}</p>" for line in text.splitlines())


def test_pages_are_told_by_content_and_markdown_by_name():
    assert markup_kind("saved.txt", page("<p>x</p>")) == HTML
    assert markup_kind("saved.txt", "<?xml version='1.0'?>\n<html xmlns='http://www.w3.org/1999/xhtml'>") == HTML
    assert markup_kind("page.htm", "<p>一段文字</p>") == HTML
    assert markup_kind("notes.md", "# 标题") == MARKDOWN
    assert markup_kind("notes.txt", "a < b and <p> in prose") == ""


def test_visible_text_keeps_words_and_blocks_and_drops_scripts():
    text = visible_text(page("<p>床前<b>明月</b>光，疑是&nbsp;地上霜。</p><p>举头望明月</p>"), HTML)
    assert "床前明月光" in text and "举头望明月" in text and "tracker" not in text and "color" not in text
    assert text.index("床前") < text.index("举头") and "\n" in text[text.index("床前") : text.index("举头")]
    md = visible_text("# 静夜思\n\n床前**明月**光，\n疑是地上霜。\n\n```\ncode()\n```\n", MARKDOWN)
    assert md.splitlines()[0] == "静夜思" and "床前明月光，\n疑是地上霜。" in md and "**" not in md


def test_a_page_and_a_markdown_copy_group_with_the_plain_text_and_the_source_stays(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    (root / "article.txt").write_text(ARTICLE, encoding="utf-8")
    (root / "saved.txt").write_text(page(paragraphs(ARTICLE)), encoding="utf-8")  # a page saved as .txt
    converted = opencc.OpenCC("s2tw.json").convert(
        page("<h1>转载</h1>" + paragraphs(ARTICLE))
    )  # converted, wrapped, headed
    (root / "repost.html").write_bytes(converted.encode("big5"))
    (root / "article.md").write_text("# 体育新闻\n\n" + ARTICLE.replace("\n", "\n\n"), encoding="utf-8")
    (root / "other.html").write_text(
        page("<p>今天天气很好，我们一起去公园散步，看见很多人在湖边钓鱼。</p>" * 3), encoding="utf-8"
    )
    source = read_source_file(root / "saved.txt", 10**6)
    assert source.markup == HTML and source.text.startswith("<!DOCTYPE html>")
    assert read_text_file(root / "saved.txt", 10**6).text.count("北京时间") == 1
    with Index(tmp_path / "i.sqlite") as index:
        result = scan(root, index, ScanOptions(jobs=1))
        assert result.problems == []
        groups = [sorted(m.path for m in g.members) for g in analyse(root, index, verify=VerifySettings(jobs=1)).at(12)]
        assert groups == [["article.md", "article.txt", "repost.html", "saved.txt"]]


def test_markup_with_nothing_to_compare_is_a_problem(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    (root / "app.html").write_text("<!DOCTYPE html><html><head><script>render()</script></head><body></body></html>")
    (root / "blank.html").write_text("<html><body><div> </div></body></html>")
    (root / "snippet.md").write_text("```python\nprint('hello')\n```\n")
    (root / "ok.txt").write_text(ARTICLE, encoding="utf-8")
    with Index(tmp_path / "i.sqlite") as index:
        problems = {p.path: p.error for p in scan(root, index, ScanOptions(jobs=1)).problems}
    assert problems == {
        "app.html": "web page with no visible text (only scripts or styles); nothing to compare",
        "blank.html": "web page with no visible text; nothing to compare",
        "snippet.md": "Markdown file with only code blocks, no text; nothing to compare",
    }
