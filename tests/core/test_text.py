"""Text normalisation: traditional and simplified Chinese, full width, case and Latin look-alikes fold alike."""
from __future__ import annotations

import opencc

from simdesk.core.analysis import VerifySettings, analyse
from simdesk.core.features import weighted_terms
from simdesk.core.fingerprint import hamming, simhash
from simdesk.core.index import Index
from simdesk.core.records import ScanOptions
from simdesk.core.scan import scan
from simdesk.core.text import fold, normalize

ARTICLE = ("台湾软件公司发布了新的数据库系统，支持简体中文和繁体中文的全文检索。"
           "开发团队表示，这个系统里面的搜索引擎经过三年的测试，性能提高了一倍。\n"
           "记者在发布会上看到，许多用户对这个产品的质量表示满意，认为它的价格比较合理。")


def test_traditional_copies_fold_to_the_simplified_original():
    for config in ("s2t", "s2tw", "s2hk"):
        converted = opencc.OpenCC(f"{config}.json").convert(ARTICLE)
        assert converted != ARTICLE
        assert normalize(converted) == normalize(ARTICLE), config
        assert simhash(weighted_terms(converted)) == simhash(weighted_terms(ARTICLE))


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
