"""core.headline: the title, date and source an editor reads first, on Chinese (simplified and traditional),
English, web pages and Markdown read from real files; the search the filter runs over them."""

from __future__ import annotations

import csv
import io
import json
import os
import random
from pathlib import Path

import numpy as np
import pytest

from simdesk.core import Index, Member, ReviewSettings, ScanOptions, Texts, open_review
from simdesk.core.reading.boilerplate import line_hash, line_keys
from simdesk.core.reading.documents import content_hash
from simdesk.core.reading.headline import MODIFIED, TEXT, Headlines, date_in, headline_of, month_in
from simdesk.core.reading.normalize import fold

MTIME = 1_700_000_000 * 10**9  # 2023-11-14 (UTC)
REPOST = "——来源：人民网。文章版权归原作者所有，转载请注明出处。"


def boilerplate_of(*lines: str) -> frozenset[int]:
    return frozenset(line_hash(k) for line in lines for k in line_keys(line))


def test_a_chinese_news_article():
    text = (
        "转自中国青年报 原文地址：https://www.example.cn/670855\n\n"
        "  新能源汽车消费政策密集出台\n"
        "2024年5月12日 10:30  记者 张三\n\n"
        "近日，多地出台政策支持新能源汽车消费，业内人士认为这将进一步推动产业发展。\n"
    )
    h = headline_of(text, MTIME)
    assert h.title == "新能源汽车消费政策密集出台"
    assert (h.date, h.dated_by) == ("2024-05-12", TEXT)
    assert h.source == "转自中国青年报 原文地址：https://www.example.cn/670855"


def test_traditional_script_and_the_taiwan_era():
    text = "\n民國113年3月5日\n轉載自：聯合報\n作者：王小明\n新能源汽車消費政策密集出臺\n近日，多地出臺政策。"
    h = headline_of(text, MTIME)
    assert h.title == "新能源汽車消費政策密集出臺"  # shown as written
    assert (h.date, h.dated_by) == ("2024-03-05", TEXT)
    assert h.source == "轉載自：聯合報"


def test_dates_written_in_full_only():
    assert date_in("二〇二三年十二月三十一日") == "2023-12-31"
    assert date_in("发布于 2023/1/9 更新") == "2023-01-09"
    assert date_in("2023.1.9") == "2023-01-09"
    assert date_in("updated 9 sept 2023") == "2023-09-09"
    assert date_in("版本 2.4.1，共 2023 字，第 5 章 12 节") is None  # numbers are not dates
    assert date_in("2023-13-01") is None and date_in("2023年2月30日") is None  # no such day


@pytest.mark.parametrize(
    "text, date",
    [
        (
            "央行宣布下调存款准备金率\n2024-03-05 10:00 来源：新华网\n中国人民银行今天宣布，下调金融机构存款准备金率0.5个百分点。",
            "2024-03-05",
        ),
        ("发布时间：2024/3/5\n春季招聘会在京举行\n本次招聘会共有三百余家企业参加。", "2024-03-05"),
        (
            "City council approves new budget\nPublished 5 March 2024 | Updated 6 March 2024\nThe council voted 7-2.",
            "2024-03-05",
        ),
        ("Markets rally on rate cut hopes\nMarch 5, 2024, 10:00 AM ET\nStocks rose for a third day.", "2024-03-05"),
        (
            "Flood warning lifted\nLast updated: 05-Mar-2024\nThe river fell below its warning level overnight.",
            "2024-03-05",
        ),
        ("Council minutes\nMeeting held on 25/12/2024 in the town hall.\nPresent: five members.", "2024-12-25"),
        ("Press release\nGeneva, 05.03.2024 — The committee met for the second time.", "2024-03-05"),
        # a month with its year and no day: the month (a magazine's issue, a monthly report)
        ("《读者》2024年3月刊\n春天的故事\n又是一年春来到。", "2024-03"),
        ("国家统计局月度报告\n二〇二四年三月\n全国居民消费价格同比上涨0.7%。", "2024-03"),
        ("Monthly report — March 2024\nSales grew by 3% on the previous month.", "2024-03"),
        # a day found in a later line wins over a month in an earlier one
        ("2024年3月 第5期\n春季招聘会在京举行\n（2024年3月5日 记者 李四）", "2024-03-05"),
    ],
)
def test_dates_as_editors_meet_them(text, date):
    h = headline_of(text, MTIME)
    assert (h.date, h.dated_by) == (date, TEXT)


@pytest.mark.parametrize(
    "text",
    [
        "新华社北京3月5日电 记者从国家发展改革委获悉，一季度重大项目开工提速。",  # no year: not dated from it
        "Version 2.13.2024 released\nThe release fixes 12/31 bugs across 2024 modules.",  # a version, a ratio
        "春季招聘会\n报名电话 2024-0305-88，截止 3/5/2024 前后（5/3/2024 也可）。",  # 3/5/2024: March or May?
        "零件号 2024-03 与 2024.13 不是日期\n共有 2024 件。",  # a month from digits alone is a part number
    ],
)
def test_numbers_that_are_not_dates_leave_the_modification_date(text):
    h = headline_of(text, MTIME)
    assert h.dated_by == MODIFIED, h.date
    assert date_in(fold(text.splitlines()[0])) is None and month_in(fold(text.splitlines()[0])) is None


def test_no_date_in_the_text_is_the_files_modification_date():
    h = headline_of("静夜思\n床前明月光，疑是地上霜。", MTIME)
    assert h.dated_by == MODIFIED and h.date in ("2023-11-14", "2023-11-15")  # the local date of the mtime
    assert h.source == ""


def test_an_english_article_skips_the_source_line_date_and_byline():
    text = "Source: Reuters\n\nMay 3, 2021\nBy Jane Doe\n\nCity council approves new budget\nThe council voted..."
    h = headline_of(text, MTIME)
    assert (h.title, h.date, h.dated_by, h.source) == (
        "City council approves new budget",
        "2021-05-03",
        TEXT,
        "Source: Reuters",
    )


def test_the_repost_line_boilerplate_detection_found_is_the_source():
    text = "文章版权归原作者所有，转载请注明出处\n静夜思\n床前明月光，疑是地上霜。\n" + REPOST
    h = headline_of(text, MTIME, boilerplate_of("文章版权归原作者所有，转载请注明出处", REPOST))
    assert h.title == "静夜思"  # the boilerplate first line is not the title
    assert h.source == REPOST  # a line naming its source comes before any other boilerplate line
    assert headline_of("床前明月光\n--《唐诗》", MTIME, boilerplate_of("--《唐诗》")).source == "--《唐诗》"
    # a recurring line that attributes nothing (a manual page's heading) is boilerplate, not a source
    assert headline_of("B::Stash\n床前明月光", MTIME, boilerplate_of("B::Stash")).source == ""


def test_a_long_first_line_is_cut():
    h = headline_of("很" * 200, MTIME)
    assert len(h.title) == 80 and h.title.endswith("…")


def member_of(root: Path, rel: str) -> Member:
    data = (root / rel).read_bytes()
    return Member(0, rel, 0, len(data), "utf-8", os.stat(root / rel).st_mtime_ns, content_hash(data))


def test_pages_and_markdown_are_read_as_their_visible_text(tmp_path):
    (tmp_path / "page.html").write_text(
        "<html><head><title>站点名</title><script>var a=1;</script></head><body><nav><a href='/'>首页</a></nav>"
        "<h1>城市更新条例草案公开征求意见</h1><p>发布时间：2024-02-01</p><p>正文第一段。</p></body></html>",
        encoding="utf-8",
    )
    (tmp_path / "note.md").write_text("# 会议纪要\n\n**日期**：2024年1月8日\n\n- 第一项\n", encoding="utf-8")
    headlines = Headlines(Texts(tmp_path, 10**6))
    page = headlines.of(member_of(tmp_path, "page.html"))
    assert page.title == "城市更新条例草案公开征求意见"  # the page's <h1>, not its menu's first entry
    assert (page.date, page.dated_by) == ("2024-02-01", TEXT)
    note = headlines.of(member_of(tmp_path, "note.md"))
    assert (note.title, note.date) == ("会议纪要", "2024-01-08")
    (tmp_path / "bare.html").write_text(
        "<html><head><title>只有标题</title></head><body><p>正文。</p></body></html>", encoding="utf-8"
    )
    assert headlines.of(member_of(tmp_path, "bare.html")).title == "只有标题"


def test_headlines_are_kept_by_content_and_searched_folded(tmp_path):
    (tmp_path / "news").mkdir()
    (tmp_path / "news" / "a.txt").write_text("新能源汽車消費\n政策密集\n出臺。", encoding="utf-8")
    (tmp_path / "b.txt").write_bytes("ＡＢＣ 公司发布年报".encode("gb18030"))
    a, b = member_of(tmp_path, "news/a.txt"), member_of(tmp_path, "b.txt")
    headlines = Headlines(Texts(tmp_path, 10**6))
    assert headlines.cached(a) is None and headlines.fill([a, b]) == 2 and headlines.fill([a, b]) == 0
    assert headlines.matching("汽车消费政策") == {"news/a.txt"}  # simplified query, traditional text, wrapped
    assert headlines.matching("abc公司") == {"b.txt"}  # full width and case
    assert headlines.matching("NEWS") == {"news/a.txt"}  # the path too
    assert headlines.matching("不存在") == set() and headlines.matching("") == {"news/a.txt", "b.txt"}
    (tmp_path / "b.txt").write_text("另一篇文章", encoding="utf-8")
    changed = member_of(tmp_path, "b.txt")
    assert headlines.cached(changed) is None and headlines.of(changed).title == "另一篇文章"
    assert headlines.matching("年报") == set()


def test_exports_carry_each_members_title_date_and_source(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    body = "近日，多地出台政策支持新能源汽车消费，业内人士认为这将进一步推动产业发展。" * 4
    (root / "a.txt").write_text(f"新能源汽车政策\n2024年5月12日\n{body}", encoding="utf-8")
    (root / "b.txt").write_text(f"新能源汽车政策\n{body}\n来源：新华社", encoding="utf-8")
    with Index(tmp_path / "i.sqlite") as index:
        review = open_review(root, index, ReviewSettings(scan=ScanOptions(jobs=1)))
    members = {m["path"]: m for g in json.loads(review.export("json"))["groups"] for m in g["members"]}
    assert members["a.txt"]["title"] == members["b.txt"]["title"] == "新能源汽车政策"
    assert (members["a.txt"]["date"], members["a.txt"]["dated_by"]) == ("2024-05-12", "text")
    assert members["b.txt"]["dated_by"] == "modified" and members["b.txt"]["source"] == "来源：新华社"
    rows = {r["path"]: r for r in csv.DictReader(io.StringIO(review.export("csv")))}
    assert rows["b.txt"]["source"] == "来源：新华社" and rows["a.txt"]["date"] == "2024-05-12"
    assert "新能源汽车政策" in review.export("text")


@pytest.mark.parametrize("text", ["", "\n\n   \n", "————\n***", "https://example.com/x"])
def test_a_text_with_no_meaningful_line_has_no_title(text):
    assert headline_of(text, MTIME).title == ""


def test_the_review_filters_groups_by_path_and_by_the_texts_read(tmp_path):
    root = tmp_path / "docs"
    (root / "news").mkdir(parents=True)
    poem = "千山鳥飛絕，萬徑人蹤滅。孤舟蓑笠翁，獨釣寒江雪。\n" * 6
    report = "城市更新条例草案公开征求意见\n" + "近日，市人大常委会公布城市更新条例草案，向社会公开征求意见。\n" * 5
    for rel, text in (("a.txt", poem), ("news/a-copy.txt", poem), ("b.txt", report), ("b-copy.txt", report)):
        (root / rel).write_text(text, encoding="utf-8")
    with Index(tmp_path / "i.sqlite") as index:
        review = open_review(root, index, ReviewSettings(scan=ScanOptions(jobs=1)))
    grouping = review.grouping()
    number = {g.members[0].path: g.id - 1 for g in grouping}
    assert review.matching("独钓寒江", grouping).tolist() == []  # nothing read yet: paths only
    review.headlines.fill(m for g in grouping for m in g.members)  # as the window's reader does
    assert review.matching("独钓寒江", grouping).tolist() == [number["a.txt"]]  # simplified query, traditional text
    assert review.matching("NEWS", grouping).tolist() == [number["a.txt"]]  # by path
    assert review.matching("征求意见", grouping).tolist() == [number["b-copy.txt"]]
    assert review.matching("  ", grouping).tolist() == [0, 1]


def test_a_report_reads_headlines_in_worker_processes_as_in_this_one(tmp_path):
    from simdesk.core.reading.headline import read_headlines

    (tmp_path / "page.html").write_text(
        "<html><body><h1>城市更新条例</h1><p>2024-02-01 正文。</p></body></html>", encoding="utf-8"
    )
    (tmp_path / "a.txt").write_text("Source: Reuters\nCity council approves new budget\n", encoding="utf-8")
    (tmp_path / "gone.txt").write_text("soon gone", encoding="utf-8")
    members = [member_of(tmp_path, p) for p in ("page.html", "a.txt", "gone.txt")]
    (tmp_path / "gone.txt").unlink()
    texts = Texts(tmp_path, 10**6)
    here = {m.path: Headlines(texts).of(m) for m in members}
    assert read_headlines(texts, members, workers=2, in_process_below=0) == here
    assert here["page.html"].title == "城市更新条例" and here["gone.txt"].title == ""


def test_the_review_orders_groups_by_what_was_read_of_their_headlines(tmp_path):
    """Groups ordered by title, date or source of their first document, on the headlines read: groups not
    read yet come last in the engine's order, a group without a source after those with one."""
    root = tmp_path / "docs"
    root.mkdir()
    articles = {  # name: (title, date line, source line, body)
        "c": (
            "城市更新条例草案公开征求意见",
            "2024年3月5日",
            "来源：新华网",
            "近日，市人大常委会公布城市更新条例草案，向社会公开征求意见，截止日期为下月底。",
        ),
        "a": (
            "Budget approved by council",
            "March 2024",
            "Source: City Times",
            "The city council voted to approve next year's budget after a long debate on transport.",
        ),
        "b": (
            "春季招聘会在京举行",
            "2023-11-02 09:30",
            "",
            "本次招聘会共有三百余家企业参加，提供岗位一万余个，吸引了大批高校毕业生到场。",
        ),
        "d": (
            "央行宣布下调存款准备金率",
            "2024/1/9",
            "转自人民日报",
            "中国人民银行宣布下调金融机构存款准备金率零点五个百分点，释放长期资金约一万亿元。",
        ),
    }
    for name, (title, date, source, body) in articles.items():
        text = f"{title}\n{date}\n{source}\n" + (body + "\n") * 4
        (root / f"{name}.txt").write_text(text, encoding="utf-8")
        (root / f"{name}-copy.txt").write_text(text + "（完）\n", encoding="utf-8")
    with Index(tmp_path / "i.sqlite") as index:
        review = open_review(root, index, ReviewSettings(scan=ScanOptions(jobs=1)))
    grouping = review.grouping()
    groups = np.arange(len(grouping))
    name_of = {k: grouping.group(k).members[0].path[0] for k in groups.tolist()}
    assert sorted(name_of.values()) == ["a", "b", "c", "d"]

    def names(key: str, descending: bool = False) -> str:
        return "".join(name_of[k] for k in review.ordered(groups, key, descending).tolist())

    engine = "".join(name_of[k] for k in groups.tolist())
    assert names("title") == engine and review.unread_headlines(groups) == 4  # nothing read: as the engine has it
    read = [k for k in groups.tolist() if name_of[k] in "cd"]
    review.headlines.fill(m for k in read for m in grouping.group(k).members)
    assert review.unread_headlines(groups) == 2
    assert names("title")[:2] == "cd" and names("title", True)[:2] == "dc"  # 城 < 央; the unread last
    assert names("title")[2:] == "".join(n for n in engine if n in "ab")
    review.headlines.fill(m for g in grouping for m in g.members)
    assert review.unread_headlines(groups) == 0
    assert names("title") == "acdb" and names("title", True) == "bdca"  # casefolded Latin, then 城 < 央 < 春
    assert names("date") == "bdac" and names("date", True) == "cadb"  # 2024-03 (a month) before 2024-03-05
    assert names("source") == "acd" + "b" and names("source", True) == "dca" + "b"  # no source: last either way
    assert names("size") == "".join(name_of[k] for k in grouping.ordered(groups, "size").tolist())


def test_verification_reads_the_headline_the_report_shows(tmp_path):
    """profiles_of (verification's read) gives with each profile the packed headline of the same read:
    unpacked with the member's modification time it is what the report reads on its own, for a page, a
    text whose source is a boilerplate line, a text dated by its file, and a file gone since the scan."""
    from simdesk.core.matching.reread import profiles_of
    from simdesk.core.reading.headline import unpacked

    (tmp_path / "page.html").write_text(
        "<html><head><title>站点</title></head><body><h1>城市更新条例</h1><p>2024-02-01 正文。</p></body></html>",
        encoding="utf-8",
    )
    (tmp_path / "a.txt").write_text(
        f"春季招聘会在京举行\n本次招聘会共有三百余家企业参加。\n{REPOST}\n", encoding="utf-8"
    )
    (tmp_path / "b.txt").write_text("Source: Reuters\nCity council approves new budget\n", encoding="utf-8")
    (tmp_path / "gone.txt").write_text("soon gone", encoding="utf-8")
    members = [member_of(tmp_path, p) for p in ("page.html", "a.txt", "b.txt", "gone.txt")]
    (tmp_path / "gone.txt").unlink()
    texts, boilerplate = Texts(tmp_path, 10**6), boilerplate_of(REPOST)
    read = profiles_of(texts, [m.path for m in members], boilerplate)
    headlines = Headlines(texts, boilerplate)
    assert [unpacked(packed, m.mtime_ns) for m, (_, packed, _) in zip(members, read)] == [
        headlines.of(m) for m in members
    ]
    assert [len(profile.shingles) > 0 for profile, _, _ in read] == [True, True, True, False]
    assert unpacked(read[1][1], MTIME).source == REPOST and unpacked(read[2][1], MTIME).dated_by == MODIFIED


def test_a_first_scans_report_takes_the_headlines_verification_read(tmp_path):
    """A report after an analysis shows the headlines verification read with the profiles (an identical copy
    its representative's): the same report, to the byte, as one that reads every member again, and it
    reads none of them (the files can be gone)."""
    root = tmp_path / "docs"
    root.mkdir()
    body = "近日，多地出台政策支持新能源汽车消费，业内人士认为这将进一步推动产业发展。" * 4
    (root / "a.txt").write_text(f"新能源汽车政策\n2024年5月12日\n{body}", encoding="utf-8")
    (root / "a-copy.txt").write_text(f"新能源汽车政策\n2024年5月12日\n{body}", encoding="utf-8")
    (root / "b.txt").write_text(f"新能源汽车政策出台\n{body}有所修改。\n来源：新华社", encoding="utf-8")
    with Index(tmp_path / "i.sqlite") as index:
        review = open_review(root, index, ReviewSettings(scan=ScanOptions(jobs=1)))
        reread = open_review(root, index, ReviewSettings(scan=ScanOptions(jobs=1)), rescan=False)
    assert set(review.grouper.read_headlines) == {"b.txt", min("a.txt", "a-copy.txt")}
    assert not reread.grouper.read_headlines  # scores kept in the index: nothing read, the report reads
    reports = {fmt: review.export(fmt) for fmt in ("json", "csv", "text")}
    assert reports == {fmt: reread.export(fmt) for fmt in ("json", "csv", "text")}
    members = {m["path"]: m for g in json.loads(reports["json"])["groups"] for m in g["members"]}
    assert members.keys() == {"a.txt", "a-copy.txt", "b.txt"} and members["b.txt"]["source"] == "来源：新华社"
    for path in root.iterdir():
        path.unlink()
    assert {fmt: review.export(fmt) for fmt in ("json", "csv", "text")} == reports


def test_identical_copies_that_pair_with_nothing_else_are_read_by_verification(tmp_path):
    """The representative of identical copies is read by verification whether or not it pairs (its group is
    shown whatever it scores): after the pairs' texts, in a step of its own. The report then reads no file
    for the copies' group either: the same report, to the byte, once every file is gone, each copy dated by
    its own file."""
    root = tmp_path / "docs"
    root.mkdir()
    notice = "City council approves new budget\nThe vote was close, and the mayor thanked the members.\n"
    body = "近日，多地出台政策支持新能源汽车消费，业内人士认为这将进一步推动产业发展。" * 4
    texts = {
        "a.txt": notice,
        "a-copy.txt": notice,
        "b.txt": f"新能源汽车政策\n{body}",
        "c.txt": f"新能源汽车政策出台\n{body}有所修改。",
    }
    for k, (name, text) in enumerate(texts.items()):
        (root / name).write_text(text, encoding="utf-8")
        os.utime(root / name, ns=(MTIME + k * 86400 * 10**9, MTIME + k * 86400 * 10**9))
    with Index(tmp_path / "i.sqlite") as index:
        review = open_review(root, index, ReviewSettings(scan=ScanOptions(jobs=1)))
    assert set(review.grouper.read_headlines) == {"a-copy.txt", "b.txt", "c.txt"}  # a-copy.txt: the first path
    reports = {fmt: review.export(fmt) for fmt in ("json", "csv", "text")}
    members = {m["path"]: m for g in json.loads(reports["json"])["groups"] for m in g["members"]}
    assert members["a.txt"]["title"] == members["a-copy.txt"]["title"] == "City council approves new budget"
    assert (members["a-copy.txt"]["date"], members["a.txt"]["date"]) == ("2023-11-15", "2023-11-14")
    for path in root.iterdir():
        path.unlink()
    assert {fmt: review.export(fmt) for fmt in ("json", "csv", "text")} == reports


def test_identical_copies_are_read_once_and_dated_by_their_own_files(tmp_path):
    from simdesk.core.reading.headline import read_headlines

    undated = "City council approves new budget\nThe vote was close.\n"
    dated = "城市更新条例\n2024-02-01 正文。\n"
    names = {"a.txt": undated, "b.txt": undated, "c.md": undated, "d.txt": dated, "e.txt": dated}
    for k, (name, text) in enumerate(names.items()):
        (tmp_path / name).write_text(text, encoding="utf-8")
        os.utime(tmp_path / name, ns=(MTIME + k * 86400 * 10**9, MTIME + k * 86400 * 10**9))
    members = [member_of(tmp_path, name) for name in names]
    texts = Texts(tmp_path, 10**6)
    each = {m.path: Headlines(texts).of(m) for m in members}  # every file read for itself
    (tmp_path / "b.txt").unlink()  # a copy is not read again: the first of its copies is
    (tmp_path / "e.txt").unlink()
    copies = read_headlines(texts, members)
    assert copies == each
    assert [copies[n].date for n in ("a.txt", "b.txt")] == ["2023-11-14", "2023-11-15"]
    assert copies["a.txt"].dated_by == MODIFIED and copies["d.txt"].dated_by == copies["e.txt"].dated_by == TEXT


# ---- every headline as its rule defines it, whatever screens, kept lines and compiled kernels find it by ----

TITLES = (
    "新能源汽车消费政策密集出台",
    "新能源汽車消費政策密集出臺",
    "City council approves new budget",
    "# 会议纪要",
    "**第3章** 春天的故事",
    "> 引用的标题",
    "2024年工作报告",
    "很长的标题" * 20,
    "https://example.com/only-a-link",
    "第 5 期",
    "版本 2.4.1 发布说明",
)
BYLINES = (
    "作者：张三",
    "记者 李四 通讯员 王五",
    "By Jane Doe",
    "Posted by admin",
    "发布时间：2024-05-12 10:30",
    "责任编辑：赵六",
    "【日期】2024/3/5",
)
DATES = (
    "2024-05-12",
    "2024-05-12T10:00",
    "2024-05-12 10:00",
    "2024/5/12",
    "2024.5.12",
    "2024年5月12日",
    "2024年5月12号",
    "二〇二四年五月十二日",
    "二〇二三年十二月三十一日",
    "民國113年5月12日",
    "民国 99 年 1 月 2 日",
    "May 12, 2024",
    "12 May 2024",
    "12th May, 2024",
    "12-May-2024",
    "Sept. 9 2023",
    "25/12/2024",
    "12/25/2024",
    "5/3/2024",
    "05.03.2024",
    "2024年5月",
    "二〇二四年五月",
    "May 2024",
    "2024-13-01",
    "1850-01-01",
    "２０２４年５月１２日",
    "\u0662\u0660\u0662\u0664-\u0660\u0665-\u0661\u0662",
    "版本 2.13.2024",
    "零件号 2024-03",
    "新华社北京3月5日电",
)
SOURCES = (
    "来源：新华社",
    "轉載自：聯合報",
    "Source: Reuters",
    "Sources: wire services",
    "Reposted from The Times",
    "Originally published in the Herald",
    "via Twitter",
    "原文链接：https://www.example.cn/670855",
    "2024-05-12 来源：人民网",
    "——来源：人民网。文章版权归原作者所有，转载请注明出处。",
    "本文来自微信公众号",
    "稿源: 本报",
    "这是来自远方的一封信，信里说了很多话。",
    "来源：" + "很长的来源" * 50,
    "The source of the river is far away.",
)
FOOTERS = (
    "—— 鲁迅",
    "--《谚语》",
    "~~~",
    "更多内容请访问 www.example.com",
    "联系我们 editor@example.com",
    "版权所有 转载请注明出处",
    "欢迎关注我们的公众号，获取更多资讯",
)
BODY = (
    "近日，多地出台政策支持新能源汽车消费，业内人士认为这将进一步推动产业发展。",
    "The council voted 7-2 after a long debate on transport and housing.",
    "床前明月光，疑是地上霜。举头望明月，低头思故乡。",
    "臺灣軟體公司發佈了新的資料庫系統，這個系統裡面的搜尋引擎經過三年的測試。",
    "会议于2024年3月5日在北京召开，共有1234名代表参加。",
    "",
    "   ",
    "***",
    "————",
)
LINE_BREAKS = ("\n", "\n", "\n", "\r\n", "\u2028", "\r")


def generated_texts(count: int = 400, seed: int = 7) -> list[str]:
    """Texts an editor meets, put together at random (the same ones for a seed): titles, bylines, dates in every
    form the rule reads and some it leaves, source lines, attributions and other recurring footers, links,
    traditional script, Markdown marks, blank lines and lines of symbols, long texts dated at their end."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        lines = [rng.choice(("", "   ", "***")) for _ in range(rng.choice((0, 0, 1, 2)))]
        parts = [TITLES, BYLINES, DATES, SOURCES, BODY]
        for _ in range(rng.randint(1, 8)):
            lines.append(rng.choice(rng.choice(parts)))
        lines += [rng.choice(BODY) for _ in range(rng.choice((1, 5, 30)))]
        lines += [rng.choice((*FOOTERS, *DATES, *SOURCES, *BODY)) for _ in range(rng.randint(0, 4))]
        if rng.random() < 0.3:
            k = rng.randrange(len(lines) + 1)
            lines[k:k] = [rng.choice(DATES) + " " + rng.choice(BYLINES)]
        texts.append(rng.choice(LINE_BREAKS).join(lines) + rng.choice(("", "\n")))
    return texts


GENERATED_BOILERPLATE = boilerplate_of(*FOOTERS, SOURCES[9])


def defined_headline(text: str, boilerplate: frozenset[int], heading: str = "") -> str:
    """packed_headline as its rule reads (the module's docstring), line by line with the module's patterns:
    nothing screened first, no line kept from another text, no compiled kernel."""
    from simdesk.core.reading import headline as h
    from simdesk.core.reading.boilerplate import KEY_DROP, MIN_KEY_CHARS, boilerplate_lines
    from simdesk.core.reading.normalize import LINKS

    def without_dates(line: str) -> str:
        for pattern in h.DATES:
            line = pattern.sub(" ", line)
        return line.strip()

    def clip(line: str, limit: int) -> str:
        line = " ".join(line.split())
        return line if len(line) <= limit else line[: limit - 1] + "…"

    folded_text = fold(text)
    lines = text.splitlines()
    folded = folded_text.splitlines()
    if len(folded) != len(lines):
        folded = [fold(line) for line in lines]
    dropped = boilerplate_lines(text, boilerplate, folded_text)
    sources = [
        k
        for k, f in enumerate(folded)
        if len(f) <= h.MAX_SOURCE_CHARS * 2 and h.SOURCE_WORD.search(f) and h.SOURCE_CUE.match(without_dates(f))
    ]
    attributions = sorted(k for k in dropped if h.ATTRIBUTION.match(folded[k]) or LINKS.search(folded[k]))
    source = (lines[sources[0]] if sources else lines[attributions[0]] if attributions else "").strip()
    title = heading
    for k, f in enumerate(folded[: h.TITLE_LINES] if not title else ()):
        rest = without_dates(f)
        if k in sources or k in dropped or len(KEY_DROP.sub("", LINKS.sub(" ", rest))) < MIN_KEY_CHARS:
            continue
        if h.BYLINE.match(rest):
            continue
        title = lines[k].strip().lstrip("#>*-=+| \t").strip() or lines[k].strip()
        break
    n = len(folded)
    rows = [*range(min(h.DATE_HEAD_LINES, n)), *range(max(h.DATE_HEAD_LINES, n - h.DATE_TAIL_LINES), n)]
    date = next((d for k in rows if (d := h._date_in(folded[k])) is not None), None)
    if date is None:
        date = next((m for k in rows if (m := h._month_in(folded[k])) is not None), "")
    return h.PACKED_SEP.join((clip(title, h.MAX_TITLE_CHARS), date, clip(source, h.MAX_SOURCE_CHARS)))


def generated_headlines() -> list[str]:
    """packed_headline of each generated text, with the generated boilerplate and without, twice each (the
    second time from the lines kept the first)."""
    from simdesk.core.reading.headline import packed_headline

    out = []
    for boilerplate in (GENERATED_BOILERPLATE, frozenset()):
        for _ in range(2):
            out += [packed_headline(text, boilerplate) for text in generated_texts()]
    return out


def test_every_generated_headline_is_the_one_its_rule_defines():
    """Titles, dates and sources of texts of every kind, found through the screens (compiled ones when built),
    the lines kept from other texts and verification's inputs, are those the rule defines line by line."""
    from simdesk.core.reading.boilerplate import boilerplate_lines
    from simdesk.core.reading.headline import packed_headline

    texts = generated_texts()
    found = generated_headlines()
    for boilerplate, start in ((GENERATED_BOILERPLATE, 0), (frozenset(), 2 * len(texts))):
        expected = [defined_headline(text, boilerplate) for text in texts]
        assert found[start : start + len(texts)] == expected
        assert found[start + len(texts) : start + 2 * len(texts)] == expected
        for text, packed in zip(texts, expected):  # as verification calls it, with the lines it has
            folded = fold(text)
            dropped = boilerplate_lines(text, boilerplate, folded)
            lines, folded_lines = text.splitlines(), folded.splitlines()
            assert packed_headline(text, frozenset(), folded, "", dropped, lines, folded_lines) == packed
    assert packed_headline(texts[0], heading="网页标题") == defined_headline(texts[0], frozenset(), "网页标题")
    titles, dates, sources = zip(*(packed.split("\x1f") for packed in found))
    assert len(set(titles)) > 20 and len(set(sources)) > 10  # of many kinds
    assert {"", "2024-05-12", "2023-12-31", "2024-12-25", "2024-03-05", "2024-05", "2010-01-02"} <= set(dates)
    assert {"轉載自：聯合報", "--《谚语》", "—— 鲁迅", "更多内容请访问 www.example.com"} <= set(sources)


def test_the_pure_path_finds_every_generated_headline_the_compiled_one_finds():
    """The generated texts' headlines under SIMDESK_PURE=1 (another process: the screens searched by regular
    expressions) are those found here (with the compiled screens when they are built)."""
    import subprocess
    import sys

    from simdesk.core.compiled import PURE

    root = Path(__file__).resolve().parents[2]
    code = "import json; from tests.core.test_headline import generated_headlines; print(json.dumps(generated_headlines()))"
    env = {**os.environ, PURE: "1", "PYTHONPATH": str(root)}
    pure = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, check=True)
    assert json.loads(pure.stdout) == generated_headlines()


def test_generated_web_pages_have_the_headlines_their_rule_defines(tmp_path):
    """Generated texts written as web pages (paragraphs, a <title>, an <h1> on every third) and read as a review
    reads them: each headline is the one the rule defines of the page's visible text and heading."""
    import html

    from simdesk.core.reading.headline import text_and_heading, unpacked

    texts = generated_texts(60, seed=11)
    for k, text in enumerate(texts):
        body = "".join(f"<p>{html.escape(line)}</p>" for line in text.splitlines())
        h1 = f"<h1>{html.escape(TITLES[k % len(TITLES)])}</h1>" if k % 3 == 0 else ""
        page = f"<html><head><title>站点 {k}</title></head><body>{h1}{body}</body></html>"
        (tmp_path / f"p{k}.html").write_text(page, encoding="utf-8")
    reader = Texts(tmp_path, 10**6)
    headlines = Headlines(reader, GENERATED_BOILERPLATE)
    titles = []
    for k in range(len(texts)):
        member = member_of(tmp_path, f"p{k}.html")
        visible, heading = text_and_heading(reader, member.path)
        defined = unpacked(defined_headline(visible, GENERATED_BOILERPLATE, heading), member.mtime_ns)
        assert headlines.of(member) == defined
        titles.append(defined.title)
    assert titles[0] == TITLES[0] and titles[1] == "站点 1"  # the page's <h1>, else its <title>


def test_lines_kept_are_few_and_short_and_give_what_the_test_gives():
    from simdesk.core.reading.headline import LINE_MEMO, LINE_MEMO_CHARS, _LineMemo

    tested: list[str] = []
    memo = _LineMemo(lambda line: tested.append(line) or len(line))
    lines = [f"第{k}行" for k in range(3 * LINE_MEMO)]
    assert [memo[line] for line in lines] == [len(line) for line in lines]
    assert 0 < len(memo) <= LINE_MEMO and memo[lines[-1]] == len(lines[-1]) and len(tested) == len(lines)
    long = "长" * (LINE_MEMO_CHARS + 1)
    assert memo[long] == memo[long] == len(long) and long not in memo and tested[-2:] == [long, long]
