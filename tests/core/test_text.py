"""Text normalisation: traditional and simplified Chinese, full width, case and Latin look-alikes fold alike;
invisible characters (soft hyphens, zero-width characters, bidirectional marks, inner byte-order marks) go,
the same in the scan, verification, the diff and the search."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import opencc

from simdesk.core.fingerprint.features import DEFAULT_FEATURES, FeatureSettings, weighted_terms
from simdesk.core.fingerprint.simhash import hamming, simhash
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import VerifySettings, analyse, text_similarity
from simdesk.core.reading.headline import search_form
from simdesk.core.reading.normalize import (
    LINKS,
    RECORDED_INVISIBLE_RANGES,
    computed_invisible_ranges,
    fold,
    normalize,
    script_dictionaries,
    script_triggers,
    to_simplified,
    without_invisible,
    without_links,
)
from simdesk.core.records import ScanOptions
from simdesk.core.review.diff import compare_texts

REPO = Path(__file__).resolve().parents[2]
ARTICLE = (
    "台湾软件公司发布了新的数据库系统，支持简体中文和繁体中文的全文检索。"
    "开发团队表示，这个系统里面的搜索引擎经过三年的测试，性能提高了一倍。\n"
    "记者在发布会上看到，许多用户对这个产品的质量表示满意，认为它的价格比较合理。"
)


def test_traditional_copies_fold_to_the_simplified_original():
    for config in ("s2t", "s2tw", "s2hk"):
        converted = opencc.OpenCC(f"{config}.json").convert(ARTICLE)
        assert converted != ARTICLE
        assert normalize(converted) == normalize(ARTICLE), config
        assert simhash(weighted_terms(converted)) == simhash(weighted_terms(ARTICLE))


def test_converting_the_lines_with_a_trigger_is_converting_the_whole_text():
    whole = opencc.OpenCC("tw2s.json").convert
    traditional = opencc.OpenCC("s2tw.json").convert(ARTICLE)
    # phrases that convert though none of their characters converts alone (反覆 -> 反复, 一坏 -> 一坯), a phrase
    # that keeps a character that converts alone (乾隆), characters beyond the BMP, compatibility ideographs, empty
    # and CRLF lines
    lines = [
        "反覆思量",
        "一坏土",
        "乾隆年间",
        "著名",
        ARTICLE,
        traditional,
        "\U00020000\U0002f800 x",
        "\uf900\ufa0e",
        "",
        "臺灣\r",
        "abc",
    ]
    texts = ["\n".join(lines), "\n".join(reversed(lines)), "\n\n".join(lines) + "\n", traditional, ARTICLE, "\n"]
    texts += ["简体" * 40 + "\n" + line + "\n" + "简体" * 40 for line in lines]  # lines far apart and near
    assert script_triggers() is not None  # the shipped triggers are the installed OpenCC's (else: converted whole)
    for text in texts:
        assert to_simplified(text) == whole(text)
    assert to_simplified(ARTICLE) is ARTICLE  # simplified text without a trigger: not converted at all


def test_the_script_triggers_cover_every_key_that_converts():
    """Every dictionary key of the installed OpenCC that converts to something else holds a trigger (else
    `python tools/script_triggers.py` is due): read with the opencc_dict program its wheel ships."""
    import importlib.util

    import pytest

    opencc_dict = Path(opencc.__file__).parent / "clib" / "bin" / "opencc_dict"
    if not opencc_dict.exists():
        pytest.skip("this OpenCC ships no opencc_dict program")
    spec = importlib.util.spec_from_file_location("script_triggers", REPO / "tools" / "script_triggers.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    triggers = script_triggers()
    assert triggers is not None
    keys = [k for d in script_dictionaries() for k in tool.keys_changed(d, opencc_dict)]
    assert len(keys) > 1000
    assert [k for k in keys if triggers.search(k) is None] == []


def test_links_go_line_by_line_as_from_the_whole_text():
    text = "see http://a.example/x y\nmail me@example.org now\n中文 www.example.com/p?q=1 后\nplain line\nx@y"
    assert without_links(text) == "see   y\nmail   now\n中文   后\nplain line\nx@y"
    assert without_links("no link here") == "no link here"


def test_links_go_from_the_lines_holding_a_trigger_as_from_every_line():
    """without_links finds the lines to clean from their triggers: the same text as the regex on every line."""
    lines = [
        "",
        "a@b.cn and c@d.org on one line",
        "http://x.example/a www.y.example/b",
        "no trigger",
        "@ alone, www. alone, :// alone",
        "中文http://例子.cn/页 后",
        "ftp://files.example/pub",
    ]
    for first in range(len(lines)):
        for count in range(len(lines) + 1):
            text = "\n".join(lines[first:] + lines[:first])[: count * 40]
            for case in (text, text + "\n", "\n" + text):
                expected = "\n".join(LINKS.sub(" ", line) for line in case.split("\n"))
                assert without_links(case) == expected


def test_lines_survive_folding_and_plain_latin_is_untouched():
    assert fold(ARTICLE).count("\n") == ARTICLE.count("\n")
    assert fold("Plain ASCII text, 42 words.") == "plain ascii text, 42 words."


def test_cyrillic_and_greek_look_alikes_fold_to_latin():
    spoofed = "Тhе quick brоwn fox jumps оvеr thе lаzy dog"  # е, о, а are Cyrillic; Т too (not folded)
    assert spoofed != "The quick brown fox jumps over the lazy dog"
    assert normalize(spoofed) == normalize("Тhe quick brown fox jumps over the lazy dog")
    assert normalize("ΡYTHОN ρуthоn") == "python python"  # Greek Ρ ρ, Cyrillic О у о
    assert normalize("Тт") == "тт"  # т looks like no Latin letter: neither case folds


def test_compatibility_ideographs_and_radicals_fold_to_unified_ideographs():
    assert fold("\uf900\u2f00") == "岂一"  # CJK COMPATIBILITY IDEOGRAPH-F900, KANGXI RADICAL ONE
    assert fold("\U0002f800") == "丽"


def test_a_traditional_repost_groups_with_its_original(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    (root / "original.txt").write_text(ARTICLE, encoding="utf-8")
    (root / "taiwan.txt").write_bytes(opencc.OpenCC("s2tw.json").convert(ARTICLE).encode("big5"))
    (root / "other.txt").write_text("今天天气很好，我们一起去公园散步，看见很多人在湖边钓鱼。" * 3, encoding="utf-8")
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        assert index.document("taiwan.txt").encoding == "big5"
        assert hamming(index.document("taiwan.txt").fingerprint, index.document("original.txt").fingerprint) == 0
        groups = [sorted(m.path for m in g.members) for g in analyse(root, index, verify=VerifySettings(jobs=1)).at(12)]
        assert groups == [["original.txt", "taiwan.txt"]]


# An English passage and a copy as web pages, editors and watermarks leave them: soft hyphens at hyphenation
# points, zero-width spaces, a joiner, a word joiner, bidirectional marks and an isolate, an inner byte-order mark
PASSAGE = (
    "The administrator imposes a quota on every account. It doesn't apply to accounts created before "
    "the migration, which keep their original limits until an administrator reviews them.\n\n"
    "Requests for a larger quota go to the support desk with the account's identifier and a reason."
)
MARKED = (
    "The adminis\u200btra\u200btor imp\u00adoses a quo\u00adta on every ac\u00adcount. It d\u200doesn't apply "
    "to accounts cre\u2060ated before the mi\u00adgra\u00adtion,\u200e which keep their orig\u200cinal limits "
    "until an ad\u00admin\u00adis\u00adtra\u00adtor reviews them.\n\n\ufeff\u2066Requests for a lar\u200bger "
    "quota go to the sup\u00adport desk with the account's iden\u00adti\u00adfi\u00ader and a reason.\u2069"
)


def format_characters() -> list[str]:
    """Every character of Unicode category Cf this interpreter knows, read one by one."""
    return [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"]


def test_invisible_characters_fold_out_and_no_longer_cut_words():
    assert normalize("imp\u00adoses adminis\u200btra\u200btor d\u200doesn't") == "imposes administrator doesn t"
    assert normalize(MARKED) == normalize(PASSAGE)
    assert fold("\ufeff第一\u200b章\u200d总则\u00ad") == "第一章总则"  # Chinese too
    assert fold("a\ufe0fb\u034fc\U000e0101d") == "abcd"  # variation selectors, the grapheme joiner


def test_every_format_character_goes_and_visible_text_stays_as_it_was():
    everything = "".join(format_characters())
    assert len(everything) >= 160 and without_invisible("x" + everything + "y") == "xy"
    for char in format_characters():  # the fast screen lets none of them through
        assert without_invisible(f"中{char}文") == "中文", hex(ord(char))
    visible = "中文，“引号”—…「」 ＡＢＣ café ÿ Ωμέγα עברית العربية 𠀋 😀 \u3000\xa0\t\n"
    assert without_invisible(visible) is visible
    assert without_invisible(PASSAGE) is PASSAGE  # ASCII: returned at once


def test_an_english_copy_with_invisible_characters_is_the_same_text_everywhere(tmp_path):
    assert weighted_terms(MARKED) == weighted_terms(PASSAGE)
    assert text_similarity(PASSAGE, MARKED) == 1.0
    assert search_form(MARKED) == search_form(PASSAGE) and "administrator" in search_form(MARKED)
    result = compare_texts(PASSAGE, MARKED)  # the diff's normalised mode: no change
    assert result.hunks == () and all(row.kind == "equal" for row in result.rows)
    assert compare_texts(PASSAGE, MARKED, mode="raw").hunks
    root = tmp_path / "docs"
    root.mkdir()
    (root / "original.txt").write_text(PASSAGE, encoding="utf-8")
    (root / "copy.txt").write_text(MARKED, encoding="utf-8")
    (root / "page.html").write_text(
        "<html><body><p>"
        + MARKED.replace("\u00ad", "&shy;").replace("\u200b", "&#8203;").replace("\n\n", "</p><p>")
        + "</p></body></html>",
        encoding="utf-8",
    )
    (root / "other.txt").write_text("The support desk answers requests within two working days. " * 4, encoding="utf-8")
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        assert index.document("copy.txt").fingerprint == index.document("original.txt").fingerprint
        grouping = analyse(root, index, verify=VerifySettings(jobs=1)).at(12)
        assert [sorted(m.path for m in g.members) for g in grouping] == [["copy.txt", "original.txt", "page.html"]]


def test_an_index_of_the_former_folding_is_fingerprinted_again(tmp_path):
    """The features version changes with the folding: an index written before reads every document again."""
    root = tmp_path / "docs"
    root.mkdir()
    (root / "original.txt").write_text(PASSAGE, encoding="utf-8")
    (root / "copy.txt").write_text(MARKED, encoding="utf-8")
    former = FeatureSettings(version=DEFAULT_FEATURES.version - 1)
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1), settings=former)
        # as the former folding left it: the copy's words cut apart, another fingerprint (forced here)
        with index.transaction():
            index.conn.execute("UPDATE documents SET fingerprint = fingerprint + 1 WHERE path = 'copy.txt'")
        stale = index.document("copy.txt").fingerprint
        result = scan(root, index, ScanOptions(jobs=1))
        assert result.stats.changed + result.stats.new == 2
        assert index.document("copy.txt").fingerprint == index.document("original.txt").fingerprint != stale


def test_the_recorded_invisible_ranges_are_those_the_unicode_database_gives():
    """invisible_ranges() is recorded for a Unicode database (a process folding text then skips looking at
    135,000 code points): each record must be what that database gives, checked on the one this interpreter has."""
    import unicodedata

    import pytest

    recorded = RECORDED_INVISIBLE_RANGES.get(unicodedata.unidata_version)
    if recorded is None:
        pytest.skip(f"no invisible ranges recorded for Unicode {unicodedata.unidata_version}")
    assert recorded == computed_invisible_ranges()
