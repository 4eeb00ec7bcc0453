"""The compiled kernels (simdesk/core/kernels.pyx) give the pure-Python path's bits: the shingle runs
verification scores, the MinHash band keys the index keeps, the line hashes boilerplate is found from (and the
hash and length of each line's key verification cuts a text by), the normalised text, and the SimHash votes of the vocabulary (token
tallies, TF x IDF weights, hash bit rows), on Chinese, English, mixed, empty, one-character, long (over a
piece) and random Unicode texts. Skipped where the kernels are not built (a checkout run without `pip install`; ./dev.sh and the wheel build them)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from simdesk.core.compiled import PURE, load_kernels
from simdesk.core.fingerprint.features import DEFAULT_FEATURES, FeatureSettings, token_pieces
from simdesk.core.fingerprint.minhash import text_bands
from simdesk.core.fingerprint.simhash import BITS, from_votes, pack_votes, seal_votes
from simdesk.core.fingerprint.similarity import (
    CHAR_SHINGLE,
    CHAR_UNITS,
    LONG_WORD_SHINGLE,
    WORD_SHINGLE,
    compiled_shingler,
    shingle_runs,
)
from simdesk.core.fingerprint.vocabulary import Vocabulary, text_votes
from simdesk.core.reading.boilerplate import folded_line_hashes, line_key_hashes
from simdesk.core.reading.normalize import fold, gap_ranges, normal_form, normalize_folded, without_links

try:
    KERNELS = importlib.import_module("simdesk.core.kernels")
except ImportError:
    pytest.skip("the compiled kernels are not built (pip install -e . builds them)", allow_module_level=True)
SHINGLER = compiled_shingler(KERNELS)
NORMALISER = KERNELS.Normaliser(gap_ranges())

CHINESE = "城市的清晨总是从菜市场开始。摊主们把新鲜的蔬菜摆上台面，老人提着竹篮慢慢挑选，孩子们背着书包从旁边跑过。"
ENGLISH = "The quick brown fox jumps over the lazy dog; version 2.1.3 released on 2026-11-27 by the_team."
MIXED = "第 3 章 Chapter three: 使用 git commit --amend 修改最后一次提交 (HEAD~1) ありがとう สวัสดี 한국어 ｆｕｌｌ"
# the ends of every range of character units, the whitespace str.split knows, digits of other scripts, letters
# outside the Basic Multilingual Plane, marks and symbols
EDGES = (
    "".join(CHAR_UNITS[i] + CHAR_UNITS[i + 2] for i in range(0, len(CHAR_UNITS), 3))
    + "\u302f\u3100\u33ff\u4dc0\u9fff\ua000\uf8ff\ufb00\u0dff\u0e80"
    + " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\u200b\ufeff"
    + "0123456789\u0660\u0669\u06f5\u0966\uff10\u00b2\u2155\u2460_-.,!?"
    + "\U00020000\U0002a6d6\U0001f600\U0001d400\u0301\u00e9e\u0301\u00df\ua66e"
)
TEXTS = [
    "",
    " ",
    "中",
    "a",
    "中文",
    "中文字",
    "ab",
    "a b",
    "a b c",
    "中 a",
    "中文 a b",
    CHINESE,
    ENGLISH,
    MIXED,
    EDGES,
    CHINESE + "\n" + ENGLISH + "\n\n" + MIXED + "\r\n" + EDGES,
    "line one\nline two\r\nline three\rline\x0bfour\x0cfive\x1csix\x1d7\x1eeight\x85nine\u2028ten\u2029",
    "\n",
    "\r\n\r\r\n\n",
    "ab\r",
    "ab\r\ncd\r\n",
    "\ua66e line\njoined\ua66e",
    "é" * 5 + " " + "\U0001f600" * 3 + " " + "ab" * 200,  # multi-byte UTF-8 and a long word
    " ".join(f"w{i % 37}" for i in range(3000)),
]
LONG = (CHINESE + ENGLISH + "\n") * 400 + "x" * 5000 + "\n" + MIXED * 300  # ~200,000 characters, a 5,000-letter word


def assert_same_shingles(norm: str) -> None:
    for width in (WORD_SHINGLE, LONG_WORD_SHINGLE):
        pure = shingle_runs(norm, width, shingler=None)
        compiled = shingle_runs(norm, width, shingler=SHINGLER)
        assert [(r.units, r.width) for r in compiled] == [(r.units, r.width) for r in pure]
        for c, p in zip(compiled, pure):
            assert c.hashes.dtype == p.hashes.dtype and np.array_equal(c.hashes, p.hashes)
    pure_keys = text_bands(norm, shingler=None)
    compiled_keys = text_bands(norm, shingler=SHINGLER)
    assert compiled_keys.dtype == pure_keys.dtype and compiled_keys.tobytes() == pure_keys.tobytes()


def assert_same_line_hashes(folded: str) -> None:
    for links_dropped in (False, True):
        pure = folded_line_hashes(folded, links_dropped, kernels=None)
        compiled = folded_line_hashes(folded, links_dropped, kernels=KERNELS)
        assert compiled.dtype == pure.dtype and compiled.tobytes() == pure.tobytes()
        pure_keys = line_key_hashes(folded, links_dropped, kernels=None)
        assert line_key_hashes(folded, links_dropped, kernels=KERNELS) == pure_keys
        assert (
            len(pure_keys[0])
            == len(pure_keys[1])
            == len((folded if links_dropped else without_links(folded)).splitlines())
        )


VOCABULARY_SETTINGS = (
    DEFAULT_FEATURES,
    FeatureSettings(stopwords=False),
    FeatureSettings(drop_numbers=False),
    FeatureSettings(stopwords=False, drop_numbers=False),
    FeatureSettings(hmm=True),
)


def assert_same_votes(texts: list[str], max_tokens: int = 1 << 19) -> None:
    """Each text's SimHash votes and tallies, documents one after another through a vocabulary per path."""
    for features in VOCABULARY_SETTINGS:
        pure_table, compiled_table = Vocabulary(max_tokens), Vocabulary(max_tokens)
        for text in texts:
            for fallback in (True, False):
                pure = text_votes(text, fold(text), features, fallback, pure_table, kernels=None)
                compiled = text_votes(text, fold(text), features, fallback, compiled_table, kernels=KERNELS)
                assert compiled.tobytes() == pure.tobytes(), (text, features, fallback)
                assert from_votes(compiled) == from_votes(pure)
    pure_table, compiled_table = Vocabulary(max_tokens), Vocabulary(max_tokens)
    for text in texts:  # the counts themselves, token by token in first-occurrence order
        norm = normalize_folded(fold(text))
        tallies = []
        for table, kernels in ((pure_table, None), (compiled_table, KERNELS)):
            ids, counts = table.tally(token_pieces(norm, spaces=True), kernels)
            tokens = {i: t for t, i in table._ids.items()}
            tallies.append([(tokens[i], c) for i, c in zip(ids.tolist(), counts.tolist())])
        assert tallies[0] == tallies[1]


def assert_same_normal_form(text: str) -> None:
    for form in (text, fold(text), without_links(fold(text))):
        assert normal_form(form, NORMALISER) == normal_form(form, None), form


@pytest.mark.parametrize("text", TEXTS)
def test_compiled_kernels_give_the_pure_bits(text: str) -> None:
    assert_same_shingles(text)
    assert_same_shingles(normalize_folded(fold(text)))
    assert_same_line_hashes(text)
    assert_same_line_hashes(fold(text))
    assert_same_normal_form(text)


def test_a_line_wrap_goes_only_between_two_cjk_characters() -> None:
    """Whitespace alone between two characters of CJK goes; beside punctuation, at either end, or beside a
    character of CJK's ranges that is no letter (an unassigned one: a boundary itself) it is a boundary."""
    for text in (
        "中 文",
        "中\n\u3000文",
        "中 ,文",
        " 中 ",
        "中\ufaff \ufaff文",
        "中 \ufaff",
        "\ufaff \ufaff",
        "中 a",
        "a_b",
    ):
        assert_same_normal_form(text)
    assert normal_form("中 \n文 a  b_c", NORMALISER) == "中文 a b c"
    assert not any(chr(c).isspace() and chr(c).isalnum() for c in range(0x110000))  # a space is never a letter


def test_compiled_vocabulary_gives_the_pure_votes() -> None:
    """Documents in a row (tokens met before, new ones), a text of several segmenting pieces, and a table so
    small that it starts again between documents."""
    assert_same_votes(TEXTS + [LONG] + TEXTS)
    assert_same_votes(TEXTS + [LONG, CHINESE, LONG], max_tokens=32)


def test_a_text_over_a_piece_gives_the_whole_texts_bits() -> None:
    """The pure path makes a long text's shingles and line keys a piece at a time; the compiled one reads it
    whole: the same band keys and line hashes."""
    norm = normalize_folded(fold(LONG))
    assert_same_shingles(norm)
    compiled_keys = text_bands(norm, shingler=SHINGLER)
    assert text_bands(norm, piece=1000, shingler=None).tobytes() == compiled_keys.tobytes()
    assert len(compiled_keys) == 16
    pure_lines = folded_line_hashes(LONG, piece=1000, kernels=None)
    assert folded_line_hashes(LONG, kernels=KERNELS).tobytes() == pure_lines.tobytes()


def test_texts_without_shingles_have_no_band_keys() -> None:
    for text in ("", " \n\t\u3000"):
        assert len(text_bands(text, shingler=SHINGLER)) == 0
        assert shingle_runs(text, shingler=SHINGLER) == ()
        assert len(folded_line_hashes(text, kernels=KERNELS)) == 0


def test_char_and_word_units_count_as_the_pure_path_counts() -> None:
    runs = shingle_runs("中文字 one two", shingler=SHINGLER)
    assert [(r.units, r.width, len(r.hashes)) for r in runs] == [(3, CHAR_SHINGLE, 1), (2, WORD_SHINGLE, 1)]


# any code point but the surrogates (which no decoded text holds), with the edges above more often
UNICODE = st.text(alphabet=st.one_of(st.characters(exclude_categories=("Cs",)), st.sampled_from(EDGES)), max_size=400)
WORDS = st.lists(
    st.one_of(
        st.sampled_from(("中", "文", "字", "词", "the", "a", "of", "ok", "1", "２", "é")), st.sampled_from(EDGES)
    ),
    max_size=200,
).map("".join)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.one_of(UNICODE, WORDS))
def test_compiled_kernels_on_random_unicode(text: str) -> None:
    assert_same_shingles(text)
    assert_same_line_hashes(text)
    assert_same_normal_form(text)


@settings(max_examples=100, derandomize=True, deadline=None)
@given(st.lists(st.one_of(UNICODE, WORDS), min_size=1, max_size=4))
def test_compiled_vocabulary_on_random_unicode(texts: list[str]) -> None:
    assert_same_votes(texts)


def assert_same_seal(tallies: np.ndarray) -> None:
    assert seal_votes(tallies, kernels=KERNELS) == seal_votes(tallies, kernels=None)
    assert seal_votes(tallies, kernels=None) == (from_votes(tallies), pack_votes(tallies))


def test_compiled_seal_gives_the_pure_fingerprint_and_packed_votes() -> None:
    """Zeros, ties, a lone tally, and float16's edges: values halfway between two of its steps (rounded to the
    even one), its smallest steps and the tallies too small for it."""
    rng = np.random.default_rng(7)
    cases = [np.zeros(BITS), np.ones(BITS), -np.ones(BITS), np.eye(BITS)[5] * 3.5, -np.eye(BITS)[63] * 1e-300]
    step = 2.0**-11  # float16's step just below 1: k + 1/2 steps lie halfway
    cases.append(np.array([1.0] + [(k + 0.5) * step for k in range(1, BITS)]))
    cases.append(np.array([1.0] + [(-1) ** k * k * 2.0**-25 for k in range(1, BITS)]))  # subnormal halves
    cases.append(np.array([1.0] + [1e-5 * (1 + (-1) ** k * 1e-12) for k in range(1, BITS)]))  # about the tie
    for text in TEXTS:
        cases.append(text_votes(text, fold(text), DEFAULT_FEATURES, kernels=None))
    cases.extend(rng.normal(size=(200, BITS)) * rng.lognormal(0, 20, size=(200, 1)))
    for tallies in cases:
        assert_same_seal(np.asarray(tallies, dtype=np.float64))


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.lists(st.floats(min_value=-1e30, max_value=1e30, allow_subnormal=True), min_size=BITS, max_size=BITS))
def test_compiled_seal_on_random_tallies(tallies: list[float]) -> None:
    assert_same_seal(np.array(tallies))


def test_simdesk_pure_turns_the_kernels_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PURE, "1")
    assert load_kernels() is None
    monkeypatch.setenv(PURE, "0")
    assert load_kernels() is KERNELS


# CJK letters, unassigned code points of CJK's ranges, whitespace, punctuation, '_', Latin letters, digits, marks
GAPS = st.lists(
    st.sampled_from(
        ("中", "文", "\uf900", "\ufaff", "\u9fff", "\u4dbf", " ", "\n", "\u3000", "\x85", ",", "_", "a", "1", "\u0301")
    ),
    max_size=40,
).map("".join)


@settings(max_examples=500, derandomize=True, deadline=None)
@given(GAPS)
def test_compiled_normal_form_on_line_wraps(text: str) -> None:
    assert_same_normal_form(text)
