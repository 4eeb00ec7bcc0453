"""Verification's re-read of a text takes shortcuts that must give what the plain way gives, to the bit: a part
of a text (some of its lines) folded from the text's folded lines (normalize.fold_rows), the profile, headline
and short flag of a text from one split and fold (reread.profiles_of), the units of a short text counted without
their codes (similarity.unit_counts), shingles made unique without np.unique, and a headline's date looked for
only in lines that can hold one. Each is compared with the plain way on chosen and random texts."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings, strategies as st

from simdesk.core.fingerprint.similarity import (
    Profile,
    Run,
    profile,
    short_in_characters,
    unique_shingles,
    unit_codes,
    unit_counts,
)
from simdesk.core.matching.reread import SHORT_BYTES, measured_short, profile_and_short, profiles_of
from simdesk.core.reading.boilerplate import folded_line_keys, frequent_parts, line_hash, line_key_hashes
from simdesk.core.reading.headline import (
    DATE_HEAD_LINES,
    DATE_TAIL_LINES,
    LINKS,
    _has_link,
    _text_date,
    _without_link,
    date_in,
    line_screens,
    month_in,
    packed_headline,
    text_and_heading,
)
from simdesk.core.reading.normalize import fold, fold_rows, normalize, normalize_folded
from simdesk.core.reading.texts import Texts

# every line break str.splitlines knows
BREAKS = ("\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
# what folding treats specially: traditional script and phrases the conversion changes (軟體 -> 软件), Han
# compatibility ideographs (U+FA6C folds beyond the Basic Multilingual Plane), Kangxi radicals, characters beyond
# it, combining marks, invisible characters, look-alike letters, full-width forms, case, ligatures
PIECES = (
    "中文",
    "軟體",
    "滑鼠",
    "資訊",
    "臺灣",
    "乾燥",
    "後來",
    "\ufa6c",
    "\uf900",
    "\u2f00",
    "\U00020000",
    "\U0002a6d6",
    "\U0002005e",
    "\U000205e3",
    "𤋮",
    "e\u0301",
    "\u0301",
    "\u200b",
    "\ufe0f",
    "\u00ad",
    "Рython",
    "ΑΒΓ",
    "ｆｕｌｌ",
    "，",
    "\u3000",
    "ﬁ",
    "ß",
    "İ",
    "Σ",
    "2024年5月12日",
    "民國113年5月12日",
    "二〇二四年五月",
    "May 12, 2024",
    "http://a.example/x",
    "www.b.example",
    "me@c.example",
    "转载请注明出处",
    "来源：新华社",
    " ",
    "1",
    "a",
)
LINE = st.lists(st.one_of(st.sampled_from(PIECES), st.characters(exclude_categories=("Cs",))), max_size=12).map("".join)


@st.composite
def texts(draw: st.DrawFn) -> str:
    lines = draw(st.lists(LINE, min_size=1, max_size=8))
    breaks = draw(st.lists(st.sampled_from(BREAKS), min_size=len(lines), max_size=len(lines)))
    return "".join(line + brk for line, brk in zip(lines, breaks))[: None if draw(st.booleans()) else -1]


@settings(max_examples=400, derandomize=True, deadline=None)
@given(texts(), st.data())
def test_a_part_folded_from_the_folded_lines_is_the_part_folded(text: str, data: st.DataObject) -> None:
    lines, folded_lines = text.splitlines(), fold(text).splitlines()
    if len(lines) != len(folded_lines):  # a character folded into a line break: no part is taken
        return
    rows = sorted(data.draw(st.sets(st.integers(0, max(len(lines) - 1, 0)), max_size=len(lines))))
    rows = [k for k in rows if k < len(lines)]
    part = "\n".join(lines[k] for k in rows)
    assert fold_rows(part, rows, folded_lines) == fold(part)


def test_a_part_without_han_is_folded_itself() -> None:
    """The script conversion changes some characters beyond the Basic Multilingual Plane (U+2005E -> U+2003E) but
    runs only on a text holding Han: a part without a unified ideograph is folded by itself, not taken from a text
    whose other lines hold Han. U+FA6C (a compatibility ideograph) folds beyond Han too."""
    for alone in ("\U0002005e", "\ufa6c\U000205e3"):
        text = alone + "\n臺灣軟體"
        lines, folded_lines = text.splitlines(), fold(text).splitlines()
        assert fold_rows(lines[0], [0], folded_lines) == fold(lines[0])
        assert fold_rows(text, [0, 1], folded_lines) == fold(text)
    assert fold("\U0002005e\n臺灣").splitlines()[0] != fold("\U0002005e")


def assert_same_profile(a: Profile | None, b: Profile | None) -> None:
    assert (a is None) == (b is None)
    if a is None or b is None:
        return
    for f in dataclasses.fields(Profile):
        if not f.compare:
            continue
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            assert x is not None and y is not None and x.dtype == y.dtype and np.array_equal(x, y), f.name
        elif f.name == "runs":
            assert [(r.units, r.width, r.hashes.tobytes()) for r in x] == [
                (r.units, r.width, r.hashes.tobytes()) for r in y
            ]
        elif f.name == "full":
            assert_same_profile(x, y)
        else:
            assert x == y, f.name


NOTICE = "本软件按原样提供不附带任何明示或暗示的担保包括但不限于对适销性特定用途适用性以及不侵权的保证在任何情况下作者或版权持有人都不对任何索赔损害或其他责任负责无论是在合同诉讼侵权或其他方面由软件或软件的使用或其他交易引起或与之相关"
FREQUENT_LINES = ("转载请注明出处", "来源：新华社", "—— 鲁迅", "http://a.example/x 原文链接", "軟體下載", NOTICE)
BOILERPLATE = frozenset(line_hash(folded_line_keys(fold(line))[0]) for line in FREQUENT_LINES)


def plain(text: str, boilerplate: frozenset[int], heading: str = "") -> tuple[Profile, str, bool]:
    """A text's profile, headline and short flag the plain way: every part folded and normalised by itself."""
    parts = frequent_parts(text, boilerplate)
    prof = profile(
        parts.stripped,
        parts.rest,
        text if parts.frequent is not None else None,
        parts.frequent,
        full=text if parts.stripped is not text else None,
    )
    short = len(text) <= SHORT_BYTES and short_in_characters(normalize(parts.stripped))
    return prof, packed_headline(text, boilerplate, heading=heading), short


@st.composite
def documents(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.one_of(LINE, st.sampled_from(FREQUENT_LINES)), min_size=1, max_size=10))
    breaks = draw(st.lists(st.sampled_from(BREAKS), min_size=len(lines), max_size=len(lines)))
    return "".join(line + brk for line, brk in zip(lines, breaks))


@settings(max_examples=300, derandomize=True, deadline=None)
@given(documents())
def test_a_text_read_again_gives_the_plain_profile_headline_and_short_flag(text: str) -> None:
    for boilerplate in (BOILERPLATE, frozenset()):
        prof, head, short = plain(text, boilerplate)
        fast, fast_short = profile_and_short(text, boilerplate)
        assert_same_profile(fast, prof)
        assert fast_short == short


def test_profiles_of_files_give_the_plain_profile_headline_and_short_flag(tmp_path: Path) -> None:
    files = {
        "a.txt": "臺灣軟體的新版本\n2024年5月12日\n转载请注明出处\n" + NOTICE + "\n正文在这里，讲了很多事情。",
        "b.txt": "好灯一拨就亮\n—— 鲁迅",
        "c.txt": "Release notes\r\nMay 12, 2024\r\nsee http://a.example/x 原文链接\r\n",
        "d.html": "<html><head><title>页面标题</title></head><body><p>軟體下載</p><p>来源：新华社</p><p>内容</p></body></html>",
        "e.txt": "\ufa6c\n来源：新华社\n转载请注明出处",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    texts = Texts(tmp_path)
    rels = [*files, "gone.txt"]
    got = profiles_of(texts, rels, BOILERPLATE)
    for rel, (prof, head, short) in zip(rels, got):
        if rel == "gone.txt":
            assert (len(prof.shingles), head, short) == (0, packed_headline(""), None)
            continue
        text, heading = text_and_heading(texts, rel)
        want_prof, want_head, want_short = plain(text, BOILERPLATE, heading)
        assert_same_profile(prof, want_prof)
        assert (head, short) == (want_head, want_short)
    assert got[0][1].startswith("臺灣軟體的新版本\x1f2024-05-12")


@settings(max_examples=300, derandomize=True, deadline=None)
@given(documents())
def test_headline_from_the_lines_split_once_is_the_plain_headline(text: str) -> None:
    folded = fold(text)
    dropped = frequent_parts(text, BOILERPLATE).dropped
    fast = packed_headline(text, BOILERPLATE, folded, "", dropped, text.splitlines(), folded.splitlines())
    assert fast == packed_headline(text, BOILERPLATE)


def plain_date(folded: list[str]) -> str:
    n = len(folded)
    rows = list(range(min(DATE_HEAD_LINES, n))) + list(range(max(DATE_HEAD_LINES, n - DATE_TAIL_LINES), n))
    date = next((iso for k in rows if (iso := date_in(folded[k])) is not None), None)
    if date is None:
        date = next((iso for k in rows if (iso := month_in(folded[k])) is not None), "")
    return date


DATE_PIECES = (
    "2024年5月12日",
    "2024-05-12",
    "2024/5/12",
    "2024.5.12",
    "民国113年5月12日",
    "民国 99 年 1 月 2 日",
    "二〇二四年五月十二日",
    "二〇二四年五月",
    "2024年5月",
    "May 12, 2024",
    "12 may 2024",
    "12-may-2024",
    "25/12/2024",
    "05.03.2024",
    "may 2024",
    "١٢٣٤",
    "２０２４",
    "12",
    "300",
    "年",
    "月",
    "日",
    " ",
    "-",
)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.lists(st.lists(st.one_of(st.sampled_from(DATE_PIECES), LINE), max_size=6).map("".join), max_size=40))
def test_a_date_looked_for_in_lines_that_can_hold_one_is_the_plain_date(lines: list[str]) -> None:
    folded_text = fold("\n".join(lines))
    folded = folded_text.splitlines()
    dates = line_screens()[1]  # the compiled screen of the lines that may hold a date (None: not built)
    assert _text_date(folded, folded_text, dates) == plain_date(folded)
    assert _text_date(folded, folded_text, None) == plain_date(folded)  # the regular expressions'
    assert _text_date(folded, None, None) == plain_date(folded)  # lines that are not a text's own


@settings(max_examples=400, derandomize=True, deadline=None)
@given(LINE)
def test_links_looked_for_where_a_trigger_occurs_are_the_links(line: str) -> None:
    folded = fold(line)
    assert _has_link(folded) == (LINKS.search(folded) is not None)
    assert _without_link(folded) == LINKS.sub(" ", folded)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.one_of(LINE, texts()))
def test_units_counted_are_the_units_coded(text: str) -> None:
    for norm in (text, normalize_folded(fold(text))):
        chars, words = unit_codes(norm)
        assert unit_counts(norm) == (len(chars), len(words))


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.lists(st.lists(st.integers(0, 40), max_size=30), max_size=3))
def test_unique_shingles_are_numpys(runs: list[list[int]]) -> None:
    made = tuple(Run(np.array(r, dtype=np.uint32), len(r), 2) for r in runs)
    want = np.unique(np.concatenate([r.hashes for r in made])) if made else np.empty(0, dtype=np.uint32)
    got = unique_shingles(made)
    assert got.dtype == want.dtype == np.uint32 and np.array_equal(got, want)


def test_measured_short_is_short_text_of_what_was_read() -> None:
    assert measured_short("好灯一拨就亮\n转载请注明出处", "好灯一拨就亮")
    assert not measured_short("a" * (SHORT_BYTES + 1), "好灯一拨就亮")


def test_kernels_built_before_the_line_keys_take_the_pure_path() -> None:
    text = "中文标题\n转载请注明出处\r\nab"
    assert line_key_hashes(text, kernels=SimpleNamespace()) == line_key_hashes(text, kernels=None)
    assert line_key_hashes(text, kernels=None)[1] == [4, 7, 2]
