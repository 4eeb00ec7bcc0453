"""Features and fingerprints: normalisation makes formatting-only edits invisible; fingerprints are pinned."""

from __future__ import annotations

import subprocess
import sys

from simdesk.core.fingerprint.features import DEFAULT_FEATURES, FeatureSettings, normalize, weighted_terms
from simdesk.core.fingerprint.simhash import hamming, simhash, to_signed, to_unsigned

TEXT = (
    "近日，多地出台政策支持新能源汽车消费，业内人士认为这将进一步推动产业发展。"
    "专家表示，充电基础设施建设仍需加快，电池回收体系也有待完善。"
)


def fp(text: str, settings: FeatureSettings = DEFAULT_FEATURES) -> int:
    return simhash(weighted_terms(text, settings))


def test_full_width_and_half_width_punctuation_give_the_same_features():
    half = TEXT.replace("，", ",").replace("。", ".")
    assert normalize(half) == normalize(TEXT)
    assert fp(half) == fp(TEXT)


def test_line_wraps_inside_chinese_do_not_change_the_fingerprint():
    wrapped = "\n".join(TEXT[i : i + 17] for i in range(0, len(TEXT), 17))
    assert fp(wrapped) == fp(TEXT)


def test_links_and_numbers_are_not_features():
    terms = weighted_terms("访问 https://www.example.com/a/123456.html 了解 2024 年的新能源政策")
    assert not any("example" in t or "http" in t or t == "2024" for t in terms)
    assert "新能源" in terms and "政策" in terms


def test_stop_words_carry_no_weight():
    terms = weighted_terms("我们的政策是什么")
    assert "的" not in terms and "政策" in terms


def test_weights_are_tf_times_jieba_idf():
    terms = weighted_terms("政策 政策 市场")
    assert terms["政策"] == 2 * weighted_terms("政策")["政策"]


def test_case_and_full_width_letters_fold():
    assert fp("ＳｉｍＨａｓｈ Fingerprint") == fp("simhash fingerprint")


def test_a_text_of_only_stop_words_or_symbols_still_gets_a_fingerprint():
    assert fp("的了是") != 0
    assert fp("！？。。") != 0


# Pinned: a change of normalisation, segmentation, weights, hashing or seed shows up here (and must bump
# FeatureSettings.version so that existing indexes re-fingerprint).
PINNED = {
    "今天天气很好，我们一起去公园散步吧。": 0xD92A8784849F839F,
    "The quick brown fox jumps over the lazy dog.": 0x451804CC1DCFD800,
    "床前明月光，疑是地上霜。举头望明月，低头思故乡。": 0x720492FF326DFAB0,
    # invisible characters fold out (version 6; before, 0xC0448908CD959941)
    "The adminis\u200btra\u200btor imp\u00adoses a quo\u00adta; it d\u200doesn't apply.": 0x83E5E31BBD904143,
}
PINNED_VERSION = 6


def test_pinned_fingerprints():
    assert {t: fp(t) for t in PINNED} == PINNED
    assert DEFAULT_FEATURES.version == PINNED_VERSION  # pinned anew, the version is raised with them


def test_fingerprints_are_equal_in_a_fresh_process():
    code = (
        "from simdesk.core.fingerprint.features import weighted_terms; from simdesk.core.fingerprint.simhash import simhash; "
        f"print(simhash(weighted_terms({TEXT!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert int(out) == fp(TEXT)


def test_small_edits_move_a_long_text_by_few_bits_and_other_texts_by_many():
    long_text = TEXT * 3 + "随着技术进步，续航里程不断提升，消费者的接受程度也越来越高。" * 2
    edited = long_text.replace("专家", "学者", 1)
    other = "床前明月光，疑是地上霜。举头望明月，低头思故乡。春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。"
    assert hamming(fp(long_text), fp(edited)) <= 3
    assert hamming(fp(long_text), fp(other)) > 12


def test_signed_storage_round_trip():
    for value in (0, 1, 2**63 - 1, 2**63, 2**64 - 1):
        assert to_unsigned(to_signed(value)) == value
        assert -(2**63) <= to_signed(value) < 2**63
