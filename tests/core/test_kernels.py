"""The compiled kernels (simdesk/core/kernels.pyx) give the pure-Python path's bits: the shingle runs
verification scores, the MinHash band keys the index keeps, the line hashes boilerplate is found from (and the
hash and length of each line's key verification cuts a text by), the normalised text, the SimHash votes of the
vocabulary (token tallies, TF x IDF weights, hash bit rows) and a pair's scores (shared shingles, covered units, a
text's units, template fills; every score and share of crowds and template fills under SIMDESK_PURE=1), on
Chinese, English, mixed, empty, one-character, long (over a piece) and random Unicode texts. Skipped where the
kernels are not built (a checkout run without `pip install`; ./dev.sh and the wheel build them)."""

from __future__ import annotations

import importlib
import os
import pickle
import random
import re
import struct
import subprocess
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from rapidfuzz.distance import Levenshtein

from simdesk.core.compiled import PURE, load_kernels
from simdesk.core.fingerprint import similarity as sim
from simdesk.core.fingerprint.features import DEFAULT_FEATURES, SEGMENT_PIECE, FeatureSettings, token_pieces
from simdesk.core.fingerprint.minhash import text_bands
from simdesk.core.fingerprint.segmenter import default_segmenter
from simdesk.core.fingerprint.simhash import BITS, from_votes, pack_votes, seal_votes
from simdesk.core.fingerprint.similarity import (
    CHAR_SHINGLE,
    CHAR_UNITS,
    LONG_WORD_SHINGLE,
    WORD_SHINGLE,
    common,
    compiled_filler,
    compiled_shingler,
    profile,
    shingle_runs,
    shingles,
    text_units,
)
from simdesk.core.fingerprint.vocabulary import NUMBER, SPACE, Vocabulary, text_votes
from simdesk.core.reading.boilerplate import folded_frequent_rows, folded_line_hashes, line_key_hashes
from simdesk.core.reading.headline import SOURCE_WORD, line_screens, may_hold_date
from simdesk.core.reading.normalize import (
    LOOK_ALIKE_RANGES,
    SCRIPT_JOIN,
    fold,
    fold_screens,
    gap_ranges,
    has_look_alike,
    invisible_ranges,
    normal_form,
    normalize_folded,
    script_spanner,
    script_spans,
    script_triggers,
    without_invisible,
    without_links,
)

try:
    KERNELS = importlib.import_module("simdesk.core.kernels")
except ImportError:
    pytest.skip("the compiled kernels are not built (pip install -e . builds them)", allow_module_level=True)
SHINGLER = compiled_shingler(KERNELS)
NORMALISER = KERNELS.Normaliser(gap_ranges())
FILLER = compiled_filler(KERNELS)

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


def assert_same_votes(texts: list[str], max_tokens: int = 1 << 19, max_blocks: int = 1 << 17) -> None:
    """Each text's SimHash votes and tallies, documents one after another through a vocabulary per path (the
    compiled one tallying blocks of text, `max_blocks` of them kept)."""
    for features in VOCABULARY_SETTINGS:
        pure_table, compiled_table = Vocabulary(max_tokens), Vocabulary(max_tokens, max_blocks)
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
    block_table = Vocabulary(max_tokens, max_blocks)
    for hmm in (False, True, False):  # a table's blocks are those of one segmenting mode
        for text in texts:  # the block tallies: the token tallies without the whitespace tokens
            norm = normalize_folded(fold(text))
            ids, counts = pure_table.tally(token_pieces(norm, hmm, spaces=True), None)
            tokens = {i: t for t, i in pure_table._ids.items()}
            expected = [(tokens[i], c) for i, c in zip(ids.tolist(), counts.tolist()) if tokens[i].strip()]
            ids, counts = block_table.tally_text(norm, hmm, KERNELS)
            tokens = {i: t for t, i in block_table._ids.items()}
            assert [(tokens[i], c) for i, c in zip(ids.tolist(), counts.tolist())] == expected, (text, hmm)


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
    assert_same_votes(TEXTS + [LONG, CHINESE, LONG, CHINESE], max_blocks=4)


def test_a_huge_text_of_new_blocks_keeps_the_block_table_in_bounds() -> None:
    """The blocks kept start again between a text's pieces: a text longer than the bound holds at most the bound
    and one piece, and its tallies are the token path's."""
    norm = normalize_folded(fold(LONG))
    assert len(norm) > SEGMENT_PIECE  # two pieces at least
    table, unbounded, reference = Vocabulary(max_block_chars=16), Vocabulary(), Vocabulary()
    unbounded.tally_text(norm, False, KERNELS)
    for _ in range(2):
        ids, counts = table.tally_text(norm, False, KERNELS)
        assert table._blocks.kept_chars <= 16 + SEGMENT_PIECE
        assert table._blocks.kept_chars < unbounded._blocks.kept_chars  # started again between the pieces
    expected_ids, expected_counts = reference.tally(token_pieces(norm, spaces=True), KERNELS)
    words = {i: t for t, i in reference._ids.items()}
    ours = {i: t for t, i in table._ids.items()}
    expected = [(words[i], c) for i, c in zip(expected_ids.tolist(), expected_counts.tolist()) if words[i].strip()]
    assert [(ours[i], c) for i, c in zip(ids.tolist(), counts.tolist())] == expected


def test_a_piece_with_new_blocks_is_recounted_from_the_blocks_it_listed() -> None:
    """After `encode`, `recount` gives what a second `tally` of the piece gives; it declines (-1) when the piece
    was counted, or the table grew while the piece was read (the slots it listed moved)."""
    segmenter = default_segmenter()

    def tallies(table: object, piece: str, size: int = 4096) -> tuple[int, list[str], tuple[np.ndarray, ...]]:
        seen, counts, order = np.zeros(size, np.uint32), np.zeros(size, np.int64), np.zeros(size, np.int64)
        missing: list[str] = []
        return table.tally(piece, missing, seen, counts, order, 0, 1), missing, (seen, counts, order)

    piece = "今天 天气 很好 今天 天气 a1 b2 很好 今天"
    fresh = KERNELS.BlockTable()
    ids: dict[str, int] = {}
    got, missing, arrays = tallies(fresh, piece)
    assert got == -1 and missing == ["今天", "天气", "很好", "a1", "b2"]
    fresh.encode(missing, segmenter.block_tokens(missing, False), ids, [])
    found = fresh.recount(*arrays, 0, 1)
    again, _, expected = tallies(fresh, piece)
    assert found == again > 0
    for a, b in zip(arrays, expected):
        assert a[:found].tolist() == b[:found].tolist()
    assert fresh.recount(*arrays, 0, 1) == -1  # once: then the piece was counted
    grows = KERNELS.BlockTable()
    many = " ".join(f"w{k}" for k in range(2000))  # more blocks than the first slots hold: the table grows
    got, missing, arrays = tallies(grows, many)
    assert got == -1 and len(missing) == 2000
    grows.encode(missing, segmenter.block_tokens(missing, False), {}, [])
    assert grows.recount(*arrays, 0, 1) == -1
    assert tallies(grows, many)[0] == 2000


def test_new_tokens_are_described_as_the_pure_path_describes_them() -> None:
    """Feature hash, IDF and flags of new tokens: whitespace of every kind, digits of other scripts, stop words,
    words jieba's table knows and does not, characters beyond the Basic Multilingual Plane, long tokens."""
    tokens = ["", " ", "\u3000", "\t\n", " a", "123", "\u0661\u0662", "\u00b2", "12a", "的", "了", "the", "中文"]
    tokens += ["\U0001f600", "𠀀字", "x" * 70, "城市" * 20, "ｆｕｌｌ", "\u00e9t\u00e9", "\u200b", "3.14"]
    tables = [Vocabulary(), Vocabulary()]
    for table, kernels in zip(tables, (None, KERNELS)):
        table._reserve(2 + len(tokens))
        table._describe(tokens, 2, kernels)
    pure, compiled = tables
    for name in ("hashes", "idf", "flags"):
        assert getattr(compiled, name).tobytes() == getattr(pure, name).tobytes(), name
    assert pure.flags[3] & SPACE and pure.flags[7] & NUMBER and not pure.flags[13] & (SPACE | NUMBER)  # " ", "123"


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


SETS = st.lists(st.integers(min_value=0, max_value=2**32 - 1), max_size=300).map(
    lambda values: np.unique(np.array(values, dtype=np.uint32))
)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(SETS, SETS, st.integers(min_value=0, max_value=200))
def test_compiled_common_counts_the_shared_values(a: np.ndarray, b: np.ndarray, shared: int) -> None:
    """Sets of any sizes (one far longer than the other, empty), sharing values at either end and between."""
    b = np.unique(np.concatenate([b, a[:shared], a[-shared // 2 :]]))
    for x, y in ((a, b), (b, a), (a, a), (a, b[:1]), (a[:0], b)):
        assert common(x, y, kernels=KERNELS) == common(x, y, kernels=None) == len(np.intersect1d(x, y))


@settings(max_examples=300, derandomize=True, deadline=None)
@given(SETS, st.integers(min_value=0, max_value=300), st.integers(min_value=0, max_value=300))
def test_compiled_shingle_score_gives_the_pure_bits(a: np.ndarray, keep: int, more: int) -> None:
    """A set against a part of itself and others: at and about the length gates (half, a quarter of the
    larger), whole containment (0.95) and none."""
    b = np.unique(np.concatenate([a[:keep], np.arange(more, dtype=np.uint32) * 7919 + 1]))
    for x, y in ((a, b), (b, a), (a, a[: len(a) // 2]), (a, a[: len(a) // 4]), (a, a[: (len(a) + 3) // 4]), (a, b[:0])):
        for whole in (True, False):
            compiled = sim.shingle_score(x, y, whole, kernels=KERNELS)
            assert struct.pack("<d", compiled) == struct.pack("<d", sim.shingle_score(x, y, whole, kernels=None))


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.one_of(UNICODE, WORDS), st.one_of(UNICODE, WORDS), st.floats(min_value=0, max_value=1))
def test_compiled_covered_units_give_the_pure_share(left: str, right: str, keep: float) -> None:
    """A text's units covered by another's shingles, by a share of its own (a copy cut or with typos) and by
    none."""
    a = profile(left)
    own = np.sort(a.shingles)[: int(keep * len(a.shingles))]
    for other in (shingles(normalize_folded(fold(right))), own, a.shingles, np.empty(0, dtype=np.uint32)):
        other = np.unique(np.concatenate([other, own[::3]]))
        assert sim._covered_share(a, other, kernels=KERNELS) == sim._covered_share(a, other, kernels=None)


@pytest.mark.parametrize("seed", range(20))
def test_compiled_covered_units_in_a_table_give_the_pure_share(seed: int) -> None:
    """Texts of hundreds of units, each covered by a copy with typos, a part of itself, an unrelated text and
    one many times its size: the units found in a table of the other's shingles (runs of 32 shingles or more,
    the other at most 8 times as many) or by binary search, the pure count either way."""
    rng = random.Random(seed)
    han = "的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可里后"
    words = ["alpha", "beta", "gamma", "delta", "release", "notes", "fixed", "crash", "2024", "v1"]

    def text(units: int) -> str:
        return " ".join(
            rng.choice(han) * rng.randint(1, 3) if rng.random() < 0.6 else rng.choice(words) for _ in range(units)
        )

    for units in (5, 40, 300):
        a = profile(text(units))
        copy = "".join(c if rng.random() > 0.03 else rng.choice(han) for c in a.filled)
        for other in (
            profile(copy).shingles,
            a.shingles[::2].copy(),
            profile(text(units)).shingles,
            profile(text(40 * units)).shingles,
        ):
            assert sim._covered_share(a, other, kernels=KERNELS) == sim._covered_share(a, other, kernels=None)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.one_of(UNICODE, WORDS), st.one_of(UNICODE, WORDS))
def test_compiled_counted_units_give_the_pure_share(left: str, right: str) -> None:
    """Shingles the other text has fewer times (a phrase repeated), as often, and none."""
    a, b = profile(left), profile(right)
    for x, y in ((a, b), (b, a), (a, a), (a, profile(left + " " + left)), (profile(left + left + right), a)):
        assert sim._counted_share(x, y, kernels=KERNELS) == sim._counted_share(x, y, kernels=None)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.one_of(UNICODE, WORDS))
def test_compiled_text_units_are_the_regular_expressions(text: str) -> None:
    assert text_units(text, filler=FILLER) == text_units(text, filler=None)


@pytest.mark.parametrize("text", TEXTS + [LONG])
def test_compiled_text_units_on_every_edge(text: str) -> None:
    for norm in (text, normalize_folded(fold(text))):
        assert text_units(norm, filler=FILLER) == text_units(norm, filler=None)
        _read_as_the_list(FILLER.text_units(norm), text_units(norm, filler=None))


def _read_as_the_list(read, units: list[str]) -> None:
    """TextUnits give the units of the list (indexed from either end, sliced, iterated) and one code a unit,
    equal where rapidfuzz takes two units for equal (one character's code point, another unit's hash)."""
    assert len(read) == len(units) and list(read) == units
    assert read[:] == units and read[1:-1] == units[1:-1] and read[3:7] == units[3:7] and read[::2] == units[::2]
    assert all(read[k] == units[k] and read[-k - 1] == units[-k - 1] for k in range(len(units)))
    with pytest.raises(IndexError):
        read[len(units)]
    value = [ord(u) if len(u) == 1 else hash(u) for u in units]
    assert read.codes is not None and len(read.codes) == len(units)
    assert {(v, c) for v, c in zip(value, read.codes)} == set(dict(zip(value, read.codes)).items())
    assert len(set(read.codes)) == len(set(value))
    assert list(read.values()) == [v % 2**64 for v in value]


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.one_of(UNICODE, WORDS), st.one_of(UNICODE, WORDS))
def test_compiled_text_units_read_as_the_list(left: str, right: str) -> None:
    """Two texts' TextUnits: each as its list of units, their codes of one table (equal for equal units across
    the two), aligned as the lists are."""
    read = FILLER.text_units(left), FILLER.text_units(right)
    units = text_units(left, filler=None), text_units(right, filler=None)
    for r, u in zip(read, units):
        _read_as_the_list(r, u)
    ca, cb = read[0].alignable(read[1])
    assert (ca, cb) == (read[0].codes, read[1].codes)
    assert {(u, c) for u, c in zip(units[0] + units[1], ca + cb)} == set(
        dict(zip(units[0] + units[1], ca + cb)).items()
    )
    assert Levenshtein.opcodes(ca, cb).as_list() == Levenshtein.opcodes(*units).as_list()


def _filler(codes: int):
    return KERNELS.Filler(
        sim.char_unit_ranges(),
        sim.SURNAMES,
        sim.COMPOUND_SURNAMES,
        sim.NAME_TITLES,
        sim.PLACE_KINDS,
        sim.FILL_GAP,
        codes,
    )


def test_text_units_past_their_table_align_on_values() -> None:
    """TextUnits of more units than a filler's table holds have no codes (and TextUnits of two fillers have codes
    of two tables): they are aligned on what rapidfuzz compares each unit by, and read the same template fill."""
    small = _filler(5)
    a, b = "尊敬的 郑刚 先生 您的 订单 101 已于 9 月 11 日 发货", "尊敬的 薛芳 女士 您的 订单 102 已于 10 月 3 日 发货"
    assert small.text_units(a).codes is None and list(small.text_units(a)) == text_units(a, filler=None)
    pure = sim._fill_kind(text_units(a, filler=None), text_units(b, filler=None), filler=None)
    assert pure == "name"  # its first place
    for ua, ub in ((small.text_units(a), small.text_units(b)), (_filler(1 << 10).text_units(a), FILLER.text_units(b))):
        x, _ = ua.alignable(ub)
        assert not isinstance(x, str) and list(x) == list(ua.values())
        assert sim._fill_kind(ua, ub, filler=FILLER) == pure
    assert pickle.loads(pickle.dumps(FILLER.text_units(a))) == 0  # the codes are this process's: not sent


def test_a_full_table_is_emptied_and_text_units_coded_again() -> None:
    """A table that would pass its size is emptied: TextUnits coded before are coded again when aligned, their
    codes equal exactly where their units are, and every pair of texts reads the pure template fill."""
    rng = random.Random(4)
    filler = _filler(40)
    texts = [" ".join(rng.choice(UNIT_POOL) for _ in range(rng.randint(1, 18))) for _ in range(60)]
    read = [filler.text_units(text) for text in texts]  # the table emptied many times over
    for _ in range(300):
        i, j = rng.randrange(len(texts)), rng.randrange(len(texts))
        ua, ub = read[i], read[j]
        ca, cb = ua.alignable(ub)
        assert isinstance(ca, str) and isinstance(cb, str)
        units = list(ua) + list(ub)
        assert {(u, c) for u, c in zip(units, ca + cb)} == set(dict(zip(units, ca + cb)).items())
        assert len(set(ca + cb)) == len(set(units))
        pure = sim._fill_kind(text_units(texts[i], filler=None), text_units(texts[j], filler=None), filler=None)
        assert sim._fill_kind(ua, ub, filler=FILLER) == pure


# units that make slots (numbers, ids, Chinese and English names, titles, places, forms of address), words,
# characters and family names standing alone
UNIT_POOL = (
    list("的一是在不了有和人这中大为上个国我以要他时来用们生到作地")
    + list("张李王马钟薛郑刚芳娜伟一鸣雨桐欧阳皇甫覃先生女士老师您好区市路月日号")
    + ["101", "102", "9", "11", "17", "30", "qx3174", "qx2208", "sf24673", "2025", "0871"]
    + ["dear", "mr", "mrs", "ms", "hi", "hill", "king", "white", "wright", "order", "march", "april", "the", "a"]
    + ["git", "author", "date", "email", "key", "๑", "๒", "ー", "・", "x1", "1x"]
)


# the slots of a template, each with fills of its kind: numbers, ids, Chinese names with titles, places,
# English names after a form of address
SLOTS = (
    [["9", "月", "11", "日", "17", "30"], ["10", "月", "3", "日", "9", "15"], ["9", "月", "11", "日", "17", "31"]],
    [["101", "键"], ["102", "键"], ["101", "键"]],
    [["qx3174"], ["qx2208"], ["qx317"], ["sf24673"]],
    [list("郑刚"), list("薛芳"), list("张伟"), list("张娜"), list("欧阳建华先生"), list("龚娜女士"), list("郑钢")],
    [
        list("罗娜老师"),
        list("廖娜女士"),
        list("皇甫敏雨教授"),
        list("覃雨桐先生"),
        list("马一鸣先生"),
        list("钟一鸣先生"),
    ],
    [list("五华区"), list("盘龙区"), list("五华市")],
    [["dear", "mrs", "hill"], ["dear", "ms", "king"], ["dear", "mr", "white"], ["dear", "mr", "wright"]],
    [["git", "author", "date"], ["git", "author", "email"], ["git", "author", "dates"]],
)


def _fills(rng: random.Random) -> tuple[list[str], list[str]]:
    """Two fills of one template (units with a few slots among them), typos in the second: units replaced,
    dropped, doubled or inserted, one by one or in a run."""
    ua: list[str] = []
    ub: list[str] = []
    for _ in range(rng.randint(0, 30)):
        if rng.random() < 0.1:
            kind = rng.choice(SLOTS)
            ua += rng.choice(kind)
            ub += rng.choice(kind)
        else:
            ua.append(rng.choice(UNIT_POOL))
            ub.append(ua[-1])
    for _ in range(rng.choice((0, 0, 1, 2, 5))):
        k = rng.randrange(len(ub) + 1)
        edit = rng.random()
        if edit < 0.4 and k < len(ub):
            ub[k] = rng.choice(UNIT_POOL)
        elif edit < 0.55 and k < len(ub):
            del ub[k : k + rng.randint(1, 3)]
        elif edit < 0.7 and k < len(ub):
            ub.insert(k, ub[k])
        else:
            ub[k:k] = [rng.choice(UNIT_POOL) for _ in range(rng.randint(1, 4))]
    return ua, ub


@settings(max_examples=500, derandomize=True, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_compiled_fill_kind_finds_the_pure_places(seed: int) -> None:
    """Two texts' units, one an edited copy of the other: the compiled reading of the alignment gives the kind
    the pure places give, from the units and from their codes."""
    rng = random.Random(seed)
    ua, ub = _fills(rng)
    pure = sim._fill_kind(ua, ub, filler=None)
    assert sim._fill_kind(ua, ub, filler=FILLER) == pure
    codes = sim._unit_codes(ua), sim._unit_codes(ub)
    assert codes[0] is not None and codes[1] is not None
    assert sim._fill_kind(ua, ub, (codes[0], codes[1]), filler=FILLER) == pure
    assert sim._fill_kind(ub, ua, filler=FILLER) == sim._fill_kind(ub, ua, filler=None)
    read = FILLER.text_units(" ".join(ua)), FILLER.text_units(" ".join(ub))  # as verification reads texts
    assert (list(read[0]), list(read[1])) == (ua, ub)
    assert sim._fill_kind(*read, filler=FILLER) == pure


@settings(max_examples=500, derandomize=True, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_compiled_mixed_runs_are_the_pure_places(seed: int) -> None:
    """Passages of characters and words for others (an unrelated or reordered passage, read in place), after a
    form of address or not, beginning with one or not, the same characters cut otherwise, letters or digits
    of other scripts: the kind the pure places give."""
    rng = random.Random(seed)
    ua, ub = _fills(rng)
    for _ in range(rng.randint(1, 3)):
        for units in (ua, ub):
            k = rng.randrange(len(units) + 1)
            passage = [rng.choice(UNIT_POOL) for _ in range(rng.randint(1, 12))]
            if rng.random() < 0.2:
                passage.insert(0, rng.choice(["dear", "mr", "hi"]))
            units[k : k + rng.randint(0, 6)] = passage
    if rng.random() < 0.2:  # a word cut in two: the same characters
        ub = [u for unit in ub for u in ([unit[:1], unit[1:]] if len(unit) > 2 and rng.random() < 0.3 else [unit])]
    read = FILLER.text_units(" ".join(ua)), FILLER.text_units(" ".join(ub))
    assert (list(read[0]), list(read[1])) == (ua, ub)
    assert sim._fill_kind(*read, filler=FILLER) == sim._fill_kind(ua, ub, filler=None)
    assert sim._fill_kind(read[1], read[0], filler=FILLER) == sim._fill_kind(ub, ua, filler=None)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_compiled_long_runs_of_characters_are_the_pure_places(seed: int) -> None:
    """A passage of characters for another (longer than a name with its title on one side or both, read in place
    by the compiled filler): before a place's kind or not, with Thai digits, Japanese marks, family names and
    titles among them, at a text's ends."""
    rng = random.Random(seed)
    left, right = "的一是在不了有和人这中大为上个国我以要", "张李王马钟薛郑刚芳娜伟鸣雨桐先生女士老师"
    odd = "๑๒๓ー・゛ะ"
    around = "城市清晨菜市场开始摊主们把新鲜蔬菜摆上台面"

    def run(pool: str) -> str:
        return "".join(rng.choice(pool + (odd if rng.random() < 0.3 else "")) for _ in range(rng.randint(1, 12)))

    before = "".join(rng.choice(around) for _ in range(rng.randint(0, 6)))
    after = rng.choice(["", "区", "市 场", "路口", " qx3174", "101 号"]) + "".join(rng.choice(around) for _ in range(3))
    a, b = before + run(left) + after, before + run(right) + after
    for x, y in ((a, b), (b, a), (a, a + "区"), (" ".join(a), b)):
        pure = sim._fill_kind(text_units(x, filler=None), text_units(y, filler=None), filler=None)
        assert sim._fill_kind(FILLER.text_units(x), FILLER.text_units(y), filler=FILLER) == pure, (x, y)


@settings(max_examples=500, derandomize=True, deadline=None)
@given(
    st.text(alphabet="张李王欧阳司马诸葛先生女士小姐老师也教授医经理同学刚芳伟一鸣雨桐的中a1", min_size=1, max_size=9)
)
def test_compiled_chinese_names_are_the_pure_ones(run: str) -> None:
    """Family names (compound ones), given names, titles whole, with one character wrong or cut, and others."""
    assert sim._zh_name(run, filler=FILLER) == sim._zh_name(run, filler=None)


def test_kernels_built_before_pair_scoring_leave_it_pure() -> None:
    assert sim.scoring_kernels(KERNELS) is KERNELS
    assert sim.scoring_kernels(None) is None
    assert sim.scoring_kernels(SimpleNamespace(common=KERNELS.common, Shingler=KERNELS.Shingler)) is None


def test_simdesk_pure_scores_every_pair_bit_for_bit() -> None:
    """Crowds and template fills scored under SIMDESK_PURE=1 (another process) and with the kernels: every
    score and share the same, bit for bit."""
    from tests.core.test_pair_scoring import pair_bits

    root = Path(__file__).resolve().parents[2]
    code = "from tests.core.test_pair_scoring import pair_bits; print(pair_bits())"
    env = {**os.environ, PURE: "1", "PYTHONPATH": str(root)}
    pure = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, check=True)
    compiled = pair_bits()
    assert pure.stdout.split() == compiled.split()
    assert len(set(compiled.split())) > 100  # scores of many kinds, not one


TRADITIONAL = "臺灣軟體公司發佈了新的資料庫系統，這個系統裡面的搜尋引擎經過三年的測試。\n繁體中文與簡體中文"
SCRIPT_LINES = [TRADITIONAL, CHINESE, "", ENGLISH, "𠮷 beyond the plane", "\ud800 lone surrogate", "著" * 70, "著"]
SCRIPT_SPANS = script_spanner(KERNELS)
FOLD_SCREENS = fold_screens(KERNELS)


def assert_same_script_spans(text: str) -> None:
    triggers = script_triggers()
    assert triggers is not None
    assert script_spans(text, triggers, SCRIPT_SPANS) == script_spans(text, triggers, None), text


def test_compiled_script_spans_are_the_pure_ones() -> None:
    """The lines to_simplified converts, and how it joins close ones: every arrangement of lines with and
    without triggers, far apart or SCRIPT_JOIN characters apart, at either end, with empty lines."""
    for first in range(len(SCRIPT_LINES)):
        lines = SCRIPT_LINES[first:] + SCRIPT_LINES[:first]
        for count in range(1, len(lines) + 1):
            for joiner in ("\n", "\n\n", "\n" + "x" * (SCRIPT_JOIN - 1) + "\n", "\n" + "x" * SCRIPT_JOIN + "\n"):
                text = joiner.join(lines[:count])
                for case in (text, text + "\n", "\n" + text, text.replace("\n", "著\n")):
                    assert_same_script_spans(case)
    far = "x" * SCRIPT_JOIN
    for spanner in (SCRIPT_SPANS, None):
        assert script_spans("abc", re.compile("x"), spanner) == []
        assert script_spans("ab\n著\nab\n著", re.compile("著"), spanner) == [3, 9]  # close: one span
        assert script_spans(f"著\n{far}\nb著", re.compile("著"), spanner) == [0, 1, SCRIPT_JOIN + 3, SCRIPT_JOIN + 5]


@given(st.one_of(UNICODE, WORDS, st.text(alphabet=st.sampled_from("臺灣著中文\n ab𠮷"), max_size=300)))
@settings(max_examples=300, deadline=None)
def test_compiled_script_spans_are_the_pure_ones_on_any_text(text: str) -> None:
    assert_same_script_spans(text)


def assert_same_screens(text: str) -> None:
    assert without_invisible(text, FOLD_SCREENS) == without_invisible(text, (None, None)), text
    assert has_look_alike(text, FOLD_SCREENS) == has_look_alike(text, (None, None)), text


def test_compiled_fold_screens_are_the_regex_searches() -> None:
    """The invisible characters' screen and the look-alike scripts, at the ends of every range of each and
    beside them, alone and in text."""
    edges = {0x10000, 0x10FFFF, 0xFFFF, 0xD7FF, 0xE000}
    for a, b in (*invisible_ranges(), *LOOK_ALIKE_RANGES):
        edges |= {a - 1, a, b, b + 1}
    for code in sorted(edges):
        char = chr(code)
        assert_same_screens(char)
        assert_same_screens(f"中文{char}text")
    assert without_invisible("imp\u00adoses", FOLD_SCREENS) == "imposes"
    assert has_look_alike("Рython", FOLD_SCREENS) and not has_look_alike("Python", FOLD_SCREENS)


@given(st.one_of(UNICODE, WORDS, st.text(alphabet=st.sampled_from("中a\u00ad\u200bРρ\ufe0f\U000e0101"), max_size=50)))
@settings(max_examples=300, deadline=None)
def test_compiled_fold_screens_are_the_regex_searches_on_any_text(text: str) -> None:
    assert_same_screens(text)


HEADLINE_SCREENS = line_screens(KERNELS)
HEADLINE_LINES = (
    "来源：新华社",
    "原文链接 https://example.com/a",
    "reposted from the times",
    "sourced",
    "vi",
    "via",
    "2024年5月12日",
    "二〇二四年五月十二日",
    "民国113年",
    "民 国",
    "123",
    "1234",
    "12 34",
    "\u0661\u0662\u0663\u0664",  # Arabic-Indic digits
    "\U0001d7d9\U0001d7da\U0001d7db\U0001d7dc",  # mathematical digits beyond the plane
    "〇一二",
    "一二三四",
    "3一二4",
    "十一月",
    "",
    " ",
)
LINE_BREAKS = ("\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\n\n")


def assert_same_headline_rows(text: str) -> None:
    """The compiled screens' lines are the lines the regular expressions find, line by line (str.splitlines),
    of every line and of the lines before a head and from a tail on."""
    lines = text.splitlines()
    n = len(lines)
    for screen, found in zip(HEADLINE_SCREENS, (SOURCE_WORD.search, may_hold_date)):
        for head, tail in ((0, 0), (1, max(1, n - 1)), (2, 3), (n, n), (0, n // 2), (n // 2, 0)):
            expected = [k for k, f in enumerate(lines) if (k < head or k >= tail) and found(f)]
            assert screen.rows(text, head, tail) == expected, (text, head, tail)


def test_compiled_headline_screens_find_the_lines_the_regular_expressions_find() -> None:
    """Source words, date rows (four digits of any script or Chinese digits in a row, 民国) at either end of a
    line, alone and beside each other, after every kind of line break."""
    for first in range(len(HEADLINE_LINES)):
        lines = HEADLINE_LINES[first:] + HEADLINE_LINES[:first]
        for joiner in LINE_BREAKS:
            text = joiner.join(lines)
            for case in (text, text + joiner, joiner + text, text.replace(joiner, "x" + joiner + "y")):
                assert_same_headline_rows(case)
    assert HEADLINE_SCREENS[0].rows("a\r\nvia\n\nsource") == [1, 3]
    assert HEADLINE_SCREENS[1].rows("2024\r\n民国\u2028一二三\n一二三四", 1, 3) == [0, 3]
    assert line_screens(ModuleType("kernels")) == (None, None)  # kernels built before the screens: the pure path


@given(
    st.one_of(
        UNICODE,
        WORDS,
        st.lists(st.sampled_from((*HEADLINE_LINES, *LINE_BREAKS, "1", "二", "民", "so", "urce"))).map("".join),
    )
)
@settings(max_examples=300, deadline=None)
def test_compiled_headline_screens_on_any_text(text: str) -> None:
    assert_same_headline_rows(text)


def assert_same_frequent_rows(text: str, rng: random.Random) -> None:
    """folded_frequent_rows compiled and pure, under boilerplate sets holding none, some and all of the text's
    line hashes (short lines and notices; everything frequent leaves the text whole)."""
    delinked = without_links(fold(text))
    hashes = [h for h in line_key_hashes(delinked, links_dropped=True, kernels=None)[0] if h]
    sets = [frozenset(), frozenset({12345}), frozenset(hashes), frozenset(h for h in hashes if rng.random() < 0.5)]
    for lines in (text.splitlines(), delinked.splitlines(), text.splitlines()[1:]):
        for boilerplate in sets:
            pure = folded_frequent_rows(lines, delinked, boilerplate, kernels=None)
            assert folded_frequent_rows(lines, delinked, boilerplate, kernels=KERNELS) == pure, (text, boilerplate)


def _lined_text(rng: random.Random) -> str:
    """Lines of the kinds frequent_rows tells apart: short, notices (over MAX_KEY_CHARS key characters), numbers
    alone (no key), blank, with links, joined by every kind of break."""
    kinds = [
        lambda: "".join(rng.choice("天地玄黄宇宙洪荒日月盈昃") for _ in range(rng.randint(1, 12))),
        lambda: " ".join(rng.choice(["licence", "software", "warranty", "copy", "GNU"]) for _ in range(30)),
        lambda: str(rng.randint(0, 10**6)),
        lambda: "",
        lambda: f"see https://example.org/{rng.randint(0, 9)} 来源",
        lambda: rng.choice(["转载请注明出处", "责任编辑：王芳", "end of page"]),
    ]
    breaks = ["\n", "\r\n", "\r", "\u2028", "\x0c", "\n\n"]
    lines = [rng.choice(kinds)() for _ in range(rng.randint(1, 12))]
    return "".join(line + rng.choice(breaks) for line in lines)[: rng.randint(0, 2000)]


@pytest.mark.parametrize("seed", range(4))
def test_compiled_frequent_rows_are_the_pure_rows(seed: int) -> None:
    rng = random.Random(seed)
    for text in [*TEXTS, *(_lined_text(rng) for _ in range(300))]:
        assert_same_frequent_rows(text, rng)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.one_of(UNICODE, WORDS))
def test_compiled_frequent_rows_on_random_unicode(text: str) -> None:
    assert_same_frequent_rows(text, random.Random(len(text)))
