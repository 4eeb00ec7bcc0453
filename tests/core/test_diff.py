"""core.diff: aligned rows, changed runs inside lines (characters for Chinese, words otherwise), bounds; the
normalised mode (wrapping, spaces, width and boilerplate never shown as changes); the one similarity figure."""

from __future__ import annotations

import random
import time

import pytest
from diff_match_patch import diff_match_patch

from simdesk.core.matching.analysis import text_similarity
from simdesk.core.reading.boilerplate import line_hash
from simdesk.core.review.diff import _encode, anchored_diff, compare_files, compare_texts, refine, segments


def changed(text: str, spans) -> list[str]:
    return [text[a:b] for a, b in spans]


def test_chinese_changes_are_single_characters():
    left = "床前明月光\n疑是地上霜\n举头望明月\n低头思故乡"
    right = "床前明月光\n疑是地下霜\n举头望明月\n低头思故乡\n（转载）"
    result = compare_texts(left, right, mode="raw")
    kinds = [r.kind for r in result.rows]
    assert kinds == ["equal", "replace", "equal", "equal", "insert"]
    row = result.rows[1]
    assert changed(row.left, row.left_spans) == ["上"]
    assert changed(row.right, row.right_spans) == ["下"]
    assert result.rows[4].left is None and result.rows[4].right_no == 5
    assert result.hunks == (1, 4)
    assert result.similarity == 100 * text_similarity(left, right) and 0 < result.similarity < 100
    assert result.exact


def test_other_scripts_change_whole_words():
    result = compare_texts("The quick brown fox jumps", "The quick red fox jumped", mode="raw")
    row = result.rows[0]
    assert changed(row.left, row.left_spans) == ["brown", "jumps"]
    assert changed(row.right, row.right_spans) == ["red", "jumped"]


def test_equal_texts_are_fully_similar():
    result = compare_texts("一\n二\n", "一\n二\n")
    assert result.similarity == 100.0 and result.hunks == ()


def test_long_paragraph_is_cut_into_rows_and_change_is_found():
    sentence = "这是一个很长的段落中的句子，用来测试对齐。"
    left = sentence * 200
    right = left[:2000] + "插入" + left[2000:]
    pieces, numbers = segments(left)
    assert len(pieces) > 20 and numbers[0] == 1 and numbers[1] is None
    result = compare_texts(left, right)
    changes = [changed(r.right, r.right_spans) for r in result.rows if r.kind != "equal"]
    assert changes == [["插入"]]


def test_one_megabyte_document_is_bounded(tmp_path):
    rng = random.Random(5)
    alphabet = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可。"
    left = "".join(rng.choice(alphabet) for _ in range(1_000_000))
    chars = list(left)
    for k in rng.sample(range(len(chars)), 3000):
        chars[k] = "X"
    (tmp_path / "a.txt").write_text(left, encoding="utf-8")
    (tmp_path / "b.txt").write_text("".join(chars), encoding="utf-8")
    started = time.monotonic()
    result = compare_files(tmp_path / "a.txt", tmp_path / "b.txt", budget_s=1.0)
    assert time.monotonic() - started < 30  # a guard against a runaway diff, not a speed figure (bench/ measures speed)
    assert result.rows and result.hunks


def test_many_scattered_changes_in_a_long_text_are_each_found():
    """Myers' diff gives up on 20,000 lines with 2,000 changes; the anchored fallback still aligns them."""
    lines = [f"第{i}行 内容 {'甲乙丙丁' * 5}" for i in range(20000)]
    edited = [line + "改" if i % 10 == 0 else line for i, line in enumerate(lines)]
    started = time.monotonic()
    # time enough for the changed runs inside the 2,000 rows (0.9 s idle; the default 2 s budget runs out on a
    # machine loaded 15 deep, which marks rows whole: that is the budget's behaviour, tested below)
    result = compare_texts("\n".join(lines), "\n".join(edited), mode="raw", budget_s=60)
    assert time.monotonic() - started < 60  # a guard against a runaway diff, not a speed figure
    changed = [r for r in result.rows if r.kind != "equal"]
    assert len(changed) == 2000 and len(result.hunks) == 2000
    assert all(r.kind == "replace" and [r.right[a:b] for a, b in r.right_spans] == ["改"] for r in changed)
    assert result.exact


@pytest.mark.parametrize("mode", ["raw", "normalised"])
def test_rows_left_rough_are_refined_to_what_time_enough_finds(mode):
    """Without time for the changes inside rows, changed rows are marked whole and listed as rough; refining
    the rows asked for gives each the runs a comparison with time enough finds, and leaves the others rough."""
    lines = [f"第{i}段：国务院新闻办公室今日举行发布会，介绍经济运行情况。" for i in range(300)]
    edited = [line.replace("今日", "昨日") if i % 3 == 0 else line for i, line in enumerate(lines)]
    left, right = "\n".join(lines), "\n".join(edited)
    full = compare_texts(left, right, mode=mode)
    rough = compare_texts(left, right, budget_s=0, mode=mode)
    changed_rows = [k for k, r in enumerate(full.rows) if r.kind == "replace"]
    assert len(changed_rows) == 100 and full.exact and not full.rough
    assert rough.rough == frozenset(changed_rows) and not rough.exact
    assert rough.hunks == full.hunks and [r.kind for r in rough.rows] == [r.kind for r in full.rows]
    k = changed_rows[0]
    assert rough.rows[k].right_spans == ((0, len(rough.rows[k].right)),)  # marked whole meanwhile
    wanted = range(changed_rows[40] - 2, changed_rows[60] + 1)
    refined = refine(rough, wanted)
    assert refined.rough == rough.rough - set(wanted)
    for n in wanted:
        assert refined.rows[n] == full.rows[n]
    assert [changed(refined.rows[n].right, refined.rows[n].right_spans) for n in changed_rows[40:61]] == [["昨"]] * 21
    assert refined.rows[k] == rough.rows[k]  # not asked for: still rough
    everything = refine(refined, range(len(rough.rows)))
    assert everything.rows == full.rows and everything.exact
    assert refine(everything, range(10)) is everything  # nothing rough left: nothing to do


def test_a_long_text_with_every_line_rewrapped_is_aligned_at_once():
    """Raw lines of a re-wrapped copy share almost no row with the original: the alignment goes to the anchored
    diff at once, and the rows are all there (each row's runs within the budget, the rest rough)."""
    text = "".join(f"第{i}句话讲的是经济运行的情况，" for i in range(6000))
    left = "\n".join(text[k : k + 47] for k in range(0, len(text), 47))
    right = "\n".join(text[k : k + 37] for k in range(0, len(text), 37))
    started = time.monotonic()
    result = compare_texts(left, right, budget_s=0.1, mode="raw")
    assert time.monotonic() - started < 30  # a guard against a runaway diff, not a speed figure
    assert "".join(r.left or "" for r in result.rows) == text == "".join(r.right or "" for r in result.rows)
    assert result.hunks and result.rough
    assert compare_texts(left, right, budget_s=0.1).hunks == ()  # as normalised: no change at all


def test_the_anchored_alignment_past_its_deadline_keeps_repeated_rows_equal():
    """Long lines cut into rows: the rows after the first repeat in every line, so only the first ones are
    anchors. Past its deadline the anchored alignment diffs no gap, yet a gap's common rows stay equal."""
    lines = [f"第{k}行：" + "甲乙丙丁戊己庚辛壬癸" * 30 for k in range(300)]
    edited = [line + "改" if k % 2 == 0 else line for k, line in enumerate(lines)]
    (left, _), (right, _) = segments("\n".join(lines)), segments("\n".join(edited))
    table: dict[str, str] = {}
    a, b = _encode(left, table), _encode(right, table)
    dmp = diff_match_patch()
    late, in_time = anchored_diff(a, b, dmp, deadline=0), anchored_diff(a, b, dmp)
    changed = lambda diffs, op: sum(len(text) for o, text in diffs if o == op)  # noqa: E731
    assert changed(late, -1) == changed(late, 1) == 150 == changed(in_time, -1) == changed(in_time, 1)


# -- the normalised mode ------------------------------------------------------------------------------------
ARTICLE = (
    "国务院新闻办公室今日举行新闻发布会，介绍今年前三季度经济运行情况。"
    "发言人表示，国民经济总体保持恢复态势，主要指标稳中有进。"
    "他指出，下一阶段将继续加大宏观政策调节力度，着力扩大国内需求。"
    "Officials said the economy kept recovering in the third quarter."
)


def rewrap(text: str, width: int) -> str:
    return "\n".join(text[k : k + width] for k in range(0, len(text), width))


def test_rewrapped_copy_with_other_spaces_and_widths_shows_no_change():
    left = rewrap(ARTICLE, 37)
    right = rewrap(ARTICLE.replace("，", ",").replace("third", "ｔｈｉｒｄ"), 23).replace("主要", "主  要")
    raw = compare_texts(left, right, mode="raw")
    assert raw.hunks  # as bytes, every line differs
    result = compare_texts(left, right)
    assert result.mode == "normalised" and result.hunks == ()
    assert all(row.kind == "equal" for row in result.rows) and len(result.rows) == 4  # one row per sentence
    # the rows show the original characters, not the folded ones
    assert "，" in result.rows[0].left and "," in result.rows[0].right
    assert result.similarity == raw.similarity == 100 * text_similarity(left, right)


def test_normalised_mode_still_shows_a_real_edit_at_its_characters():
    left = rewrap(ARTICLE, 30)
    right = rewrap(ARTICLE.replace("扩大国内需求", "扩大出口"), 41)
    result = compare_texts(left, right)
    changed = [r for r in result.rows if r.kind != "equal"]
    assert len(changed) == 1 and len(result.hunks) == 1
    row = changed[0]
    assert "".join(row.left[a:b] for a, b in row.left_spans) == "国内需求"
    assert "".join(row.right[a:b] for a, b in row.right_spans) == "出口"


def test_boilerplate_lines_are_rows_apart_and_never_changes():
    notice = "本文转载自新华网，版权归原作者所有"
    other_notice = "欢迎关注我们的公众号获取更多资讯"
    boilerplate = {line_hash("本文转载自新华网版权归原作者所有"), line_hash("欢迎关注我们的公众号获取更多资讯")}
    left = notice + "\n" + rewrap(ARTICLE, 30)
    right = rewrap(ARTICLE, 50) + "\n" + other_notice
    result = compare_texts(left, right, boilerplate=boilerplate)
    kinds = [r.kind for r in result.rows]
    assert kinds[0] == "boilerplate" and result.hunks == ()
    assert result.rows[0].left == notice and result.rows[0].right is None and result.rows[0].left_no == 1
    # the footer follows an English full stop at a line's end, which a re-flowed copy joins to the next
    # line without a sentence cut: it is joined to that sentence's row and compared out of it
    assert kinds[-1] == "equal" and result.rows[-1].right.endswith(other_notice)
    assert result.boilerplate == 1
    # the figure is the verification score without the boilerplate: the same article on both sides (not
    # quite 100: the fixed-width rewrap cuts English words in two, and English is compared by words)
    assert result.similarity == 100 * text_similarity(left, right, boilerplate) >= 99.0
    assert text_similarity(left, right) < 1.0  # with the notices counted, it would not be


def test_a_boilerplate_line_rewrapped_onto_a_sentence_is_still_boilerplate():
    """A copy re-wrapped as one paragraph puts the attribution line ending a text after its last sentence:
    cut after that sentence, its row is the boilerplate line again, greyed and never a change."""
    boilerplate = {line_hash("论语")}
    poem = "学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？"
    left = ARTICLE + "\n" + poem + "\n--《论语》"
    right = rewrap(ARTICLE + poem + "--《论语》", 33)
    result = compare_texts(left, right, boilerplate=boilerplate)
    assert result.hunks == () and result.boilerplate == 2
    row = result.rows[-1]
    assert row.kind == "boilerplate" and (row.left, row.right) == ("--《论语》", "--《论语》")
    assert row.left_no == len(left.splitlines()) and row.right_no == len(right.splitlines())


def test_a_boilerplate_line_joined_to_the_next_sentence_is_never_a_change():
    """A copy re-wrapped as one paragraph joins the attribution line that ends one text to the first sentence
    of the next (--《论语》天下皆知…): that row is the other text's row once the line is out, so it is equal,
    and the other text's attribution line stands greyed."""
    boilerplate = {line_hash("论语")}
    first = "学而时习之，不亦说乎？有朋自远方来，不亦乐乎？"
    second = "天下皆知美之为美，斯恶已。皆知善之为善，斯不善已。"
    left = first + "\n--《论语》\n" + second
    right = rewrap(first + "--《论语》" + second, 17)
    result = compare_texts(left, right, boilerplate=boilerplate)
    assert result.hunks == ()
    joined = [row for row in result.rows if row.right and "《论语》" in row.right]
    assert joined and joined[0].right.startswith("--《论语》天下") and joined[0].kind == "equal"
    assert [row.left for row in result.rows if row.kind == "boilerplate"] == ["--《论语》"]
    # a real change beside it is still shown
    changed = compare_texts(left, right.replace("斯恶已", "斯美已"), boilerplate=boilerplate)
    assert len(changed.hunks) == 1


def test_a_boilerplate_line_inside_a_sentence_is_joined_to_it_as_a_copy_joins_it():
    """A manual page's frequent lines: a heading between two sentences stands apart (and begins the next
    sentence's row in a re-flowed copy), an option name inside a sentence is part of it in both texts."""
    boilerplate = {line_hash("注意事项与已知问题"), line_hash("tcpstdurgsysctl"), line_hash("没有")}
    left = "这是第一句话。\n注意事项与已知问题\n尽管如此，它可以用\ntcp_stdurg sysctl\n加以改变。"
    right = "这是第一句话。注意事项与已知问题尽管如此，\n它可以用 tcp_stdurg sysctl 加以改变。"
    result = compare_texts(left, right, boilerplate=boilerplate)
    assert result.hunks == ()
    assert [row.left for row in result.rows if row.kind == "boilerplate"] == ["注意事项与已知问题"]
    assert any(row.left == "尽管如此，它可以用tcp_stdurg sysctl加以改变。" for row in result.rows)
    # a short frequent line is a word of sentences too: a sentence it begins in one text only is a change
    assert len(compare_texts("第一句。\n没有发现问题。", "第一句。\n发现问题。", boilerplate=boilerplate).hunks) == 1
    assert (
        len(
            compare_texts(
                "Is it waterproof? No.", "Is it waterproof? Yes.", boilerplate={line_hash("No"), line_hash("Yes")}
            ).hunks
        )
        == 1
    )


def test_unknown_mode_is_refused():
    import pytest

    with pytest.raises(ValueError, match="unknown diff mode"):
        compare_texts("a", "b", mode="bytes")


def test_traditional_and_simplified_copies_compare_equal_as_normalised():
    simplified = "这个问题很重要。台湾的朋友也这样说。"
    traditional = "這個問題很重要。臺灣的朋友也這樣說。"
    result = compare_texts(simplified, traditional)
    assert result.hunks == () and [r.kind for r in result.rows] == ["equal", "equal"]
    assert compare_texts(simplified, traditional, mode="raw").hunks


POEM_CUT = (
    "闲梦远，南园正芳春。船上管弦江面绿，满城飞絮辊轻尘。忙杀看花人！\n"
    "闲梦远，南国正清秋。千里江山寒色远，芦花深处泊孤舟。笛在月明楼。"
)


def test_a_copy_cut_at_other_sentence_ends_shows_one_row_pair_and_its_punctuation():
    """A repost whose sentence ends became half-width commas: one row pair facing the original's sentences,
    only the changed sentence ends marked (a full-width comma and its half-width form are one character
    normalised), the rest equal."""
    first, second = POEM_CUT.split("\n")
    repost = first.replace("，", ",").replace("。", ",").replace("！", "!") + "\n" + second
    result = compare_texts(POEM_CUT, repost)
    changed_rows = [r for r in result.rows if r.kind != "equal"]
    assert len(changed_rows) == 1 and len(result.hunks) == 1
    row = changed_rows[0]
    assert row.left == first and row.right == repost.split("\n")[0]
    assert changed(row.left, row.left_spans) == ["。", "。"] and changed(row.right, row.right_spans) == [",", ","]
    assert [r.left for r in result.rows if r.kind == "equal"] == [
        "闲梦远，南国正清秋。",
        "千里江山寒色远，芦花深处泊孤舟。",
        "笛在月明楼。",
    ]


def test_sentences_joined_or_split_face_each_other_and_a_real_edit_stays_a_row():
    """Two sentences joined into one (a full stop become a comma) face the two; a sentence split in two faces
    the one; an edited sentence elsewhere stays its own row pair with its character marked."""
    left = "今天天气很好。我们去公园散步。公园里有很多人。孩子们在草地上玩耍。老人们在树下下棋。"
    right = "今天天气很好，我们去公园散步。公园里有很多人。孩子们在草地上。玩耍。老人们在树下下象棋。"
    result = compare_texts(left, right)
    changed_rows = [
        (r.left, r.right, changed(r.left, r.left_spans), changed(r.right, r.right_spans))
        for r in result.rows
        if r.kind != "equal"
    ]
    assert changed_rows == [
        ("今天天气很好。我们去公园散步。", "今天天气很好，我们去公园散步。", ["。"], ["，"]),
        ("孩子们在草地上玩耍。", "孩子们在草地上。玩耍。", [], ["。"]),
        ("老人们在树下下棋。", "老人们在树下下象棋。", [], ["象"]),
    ]


def test_different_sentences_are_not_joined_into_one_row():
    """A block of sentences replaced by other sentences is not the same text re-cut: its rows are paired one
    by one as before."""
    left = "开头一样。春天来了，花都开了。夏天很热，我们去游泳。结尾一样。"
    right = "开头一样。股市今天大涨。银行发布了新的利率。结尾一样。"
    result = compare_texts(left, right)
    assert [r.kind for r in result.rows] == ["equal", "replace", "replace", "equal"]
