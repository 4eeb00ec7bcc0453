"""The similarity of two texts: the one measure that confirms SimHash candidates and that the product shows.

    similarity(profile(a), profile(b))   # 0..1; a pair groups at DEFAULT_MIN_SIMILARITY (0.7) or more
    # analysis.text_similarity(a, b, boilerplate): the same for two texts, without the collection's boilerplate

SimHash is cheap but approximate: short near-duplicates can lie 10-20 bits apart, and a loose radius lets
long unrelated texts in. So candidates are taken generously and each is confirmed on the texts themselves
(without boilerplate lines), after the normalisation of reading/normalize.py (script, width, case, look-alikes):

1. Shingles. The normalised text is cut into units: each Chinese/Japanese/Thai character is a unit, and
   each run of other word characters (an English word, a number, an identifier) is one. The shingles are
   the character trigrams of the Chinese units and the word bigrams of the others, in one set. Character
   trigrams of alphabetic text would not do: with 26 letters, two unrelated long English texts share most
   trigrams (resemblance 0.75 at 100,000 characters, 0.999 for two unrelated 1 MB logs), so set measures
   saturate with length. Word bigrams keep growing with the text: unrelated pairs of 1,000,000 characters
   score 0.25 (English), 0.23 (source code), 0.26 (mixed Chinese/English), and Chinese trigrams 0.38.
   Logs, whose words come from a small vocabulary (templates, package names, clock times), saturate word
   bigrams too (two unrelated 1 MB package logs: 0.79), so two texts that both have LONG_WORDS words or
   more are compared on word 4-grams instead (0.23; word trigrams 0.44).
2. score = max(J, C) if L >= 0.5, or if C >= 0.95 and L >= 0.25; J otherwise, with J = |A ∩ B| / |A ∪ B|
   (resemblance), C = |A ∩ B| / min(|A|, |B|) (containment) and L = min / max of the set sizes.
   Containment catches truncations, insertions and added headers; the length gate keeps a short text from
   matching every long text that happens to contain it.
3. Short texts (both normalised texts of at most EDIT_CHARS characters): a typo or a synonym changes up to
   three of a dozen shingles, so the score is also the edit similarity of the two normalised texts without
   their spaces (rapidfuzz's normalised Indel similarity, 1 - edits / (len a + len b)), and the larger of
   the two counts: "你妈妈喊你回家吃饭哦,回家罗回家罗" / "你妈妈叫你回家吃饭啦,回家罗回家罗" score 0.875
   (shingles: 0.57). Spaces are left out because normalisation turns every punctuation mark into one:
   two sentences of one template, "…最大的文件大小甚至更小(2^31 -1) bytes = (2GiB -1 byte)。" and
   "因为 FAT 文件系统的设计，最大的文件大小为 (2^32 - 1) bytes = (4GiB -1 byte)。", matched on their
   punctuation and scored 0.71 with the spaces, 0.64 without; copies with typos, look-alikes or "u" for
   "you" lose at most 0.02 (0.938 -> 0.917 for the last).
   One template filled twice is not a copy with a typo (template_fill): with the two texts' units (words,
   numbers, Chinese characters) aligned, a number standing where the other has another number ("101 键" /
   "102 键", an order number) caps the score at FILL_SCORE (0.5), and a word of letters standing where the
   other has one sharing less than half its letters ('GIT_AUTHOR_DATE' / 'GIT_AUTHOR_EMAIL': 0.80 before)
   leaves edit similarity out, so the shingles alone score the pair. A digit mistyped as a letter, a
   character replaced, a word dropped or doubled still count as typos. Measured 2026-11-24 on two held-out
   collections of gettext messages (120 pairs of one template each, 150 messages with a typo'd copy): false
   template pairs 151 -> 141 (Chinese messages) and 165 -> 71 (English), the copies' recall unchanged
   (0.993, 0.967); the kit, the small, the second and the medium collection unchanged.
3b. Form texts of any length (filled_apart): an SMS notice, a letter, an invoice or an invitation filled
   for another person differs from its sibling in 4-10% of its characters, and scored 0.9 and more. Texts of
   up to FILL_CHARS normalised characters (their whole text, frequent lines included) are aligned the same
   way, and a score that would count (over FILL_SCORE) is capped at FILL_SCORE when a place where they
   differ is a slot filled otherwise: numbers (dates, times, amounts, counts; "9 月 11 日 17 30" / "10 月 3
   日 9 15"), an id of the same letters ("sf2467300245892"), or a name: a Chinese person's name (a frequent
   family name and one or two characters, a title after it allowed: 郑刚 / 薛芳, 罗娜老师 / 廖娜女士), a
   place's name before its kind (五华区 / 盘龙区), an English name after a form of address (dear mrs hill /
   dear ms king). A copy's typo changes one character or swaps two letters, so a name must change two
   characters or more: a typo that falls in a name keeps the copy a copy, and two names of one family name
   (张伟 / 张娜) are not told apart. Changed runs closer than three units are one place, and the slots must
   make half its changed units: where a copy's paragraphs were reordered the alignment pairs unrelated
   passages, whose numbers sit among changed characters. A number cut at a text's end (a truncated copy) is
   no slot. Measured 2026-11-27 (docs/quality.md): the kit's template class alone (240 files: 18 templates,
   8 fills each, 96 copies of which 48 typo'd) false groups 10 -> 0, precision 0.15 -> 1.0, recall 0.979 ->
   0.979; the full kit's precision 0.539 -> 1.000 (its other classes unchanged); of the medium collection's
   11,123 true pairs under FILL_CHARS, 2 are taken for fills (a table's number paired with another after a
   reordering), its recall 0.9851 -> 0.9849. Scoring the medium collection's 98,910 candidate pairs takes
   1.34 times the CPU (+0.8 s; building their profiles takes 8.2 s).
4. Shared notices: a long line (key over 80 characters) held by as many documents as boilerplate must be
   (boilerplate.py) is a notice, such as a licence paragraph under many package descriptions. Notices are
   not dropped (in a group of ten copies or more every paragraph is that frequent), but they must not carry
   a pair: when a text holds one, its rest (the text without notices; not used under 20 key characters) is
   looked up in the other's whole text, and when the larger of the two sides' shares is under NOTICE_GATE
   (0.5) the score is that share. Looking the rest up in the other's text without its notices would be
   wrong: copies in a large group share every untouched paragraph, and their rests are only their edits.
   Measured 2026-11-24 on a held-out collection (1,202 files: 80 Debian package descriptions of 60-260
   characters above the GPL-2 or LGPL-2.1 notice as three paragraph lines, with copies; 10 texts of eight
   Debian Reference paragraphs with 29 copies each, 1% typos, a third without a paragraph; gettext
   messages): notice class precision 0.005 -> 1.000 (a false group of 112 texts gone), recall 1.000 ->
   1.000; the copies 1.000 / 1.000 before and after. The kit, the small and the medium collection
   (bench.corpus seed 3, 20,000 documents) are unchanged (docs/quality.md).
5. Large copy groups (crowd_score): in a group of ten copies or more every untouched line is frequent, short
   lines are dropped as boilerplate and each copy keeps only its edited lines, which the other copies do not
   share. A text whose frequent lines (boilerplate and notices) hold CROWD_SHARE (0.25) of its key
   characters or more also keeps the shingles of its whole text and its own shingles (those of the whole
   text that its frequent lines do not hold). Two texts then score at least the smallest of: their whole
   texts' score (without whole containment) and the share of each one's own shingles found in the other's
   whole text (a text with few frequent lines stands in whole for both). A copy's own shingles are its
   edits' neighbourhood, found in the other copy whole; a page under a site menu and footer, or a
   description above a notice, has its article or description as its own, found in no other text, and
   scores what it did. Short texts (edit similarity, template_fill) and long ones (word 4-grams) are left
   out. Measured 2026-11-24 (docs/quality.md): 30 copies a group, crowd recall 0.428 -> 0.934 and 0.410 ->
   0.911 (two seeds), no false pair added on the kit, the held-out collections and the medium collection.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import repeat
from typing import Any

import mmh3
import numpy as np
from rapidfuzz.distance import OSA, Indel, Levenshtein

from simdesk.core.compiled import KERNELS
from simdesk.core.reading.normalize import fold, normalize_folded, pieces
from simdesk.core.records import Relation

DEFAULT_MIN_SIMILARITY = 0.7
LENGTH_GATE = 0.5
# A text found whole inside one up to 4 times its size (a saying with a repost notice added) also counts.
WHOLE_CONTAINMENT = 0.95
WHOLE_GATE = 0.25
EDIT_CHARS = 200  # normalised texts this short are also compared by edit similarity
MIN_EDIT_CHARS = 12  # ... and at least this long: in a 6-character title one changed character is a new title
# A text written in characters (Chinese, Japanese, Thai: at least half its units) with at most this many units
# without its boilerplate is short: one character changed may make it another saying (好灯一拨就亮 / 好灯一拔就亮),
# so a clean-up removes it only beside a copy holding the same words (cleanup.member_fates). In words of letters
# a changed letter is a misspelling of the same word, and such texts are left out. Measured 2026-11-27
# (docs/quality.md, "Clean-up").
SHORT_UNITS = 20
# A pair whose texts hold a notice (a long line frequent in the collection, boilerplate.py) scores no more than
# the largest share of one text's rest (its text without notices) found in the other's whole text, when that
# share is under NOTICE_GATE (see the module's docstring).
NOTICE_GATE = 0.5
VERSION = "14"  # stored in the index: a change of the rule re-verifies every pair (14: a short text's boilerplate lines hold the other's share too; 13: short shares count a shingle once; 12: fills of any length, names; 11: held shares; 10: fills under frequent lines; 9: crowd_score; 8: template_fill; 7: notices)

# Two short texts of one template filled twice (template_fill): numbers that differ cap the score at
# FILL_SCORE; a word replaced by one sharing less than FILL_WORD of its letters leaves edit similarity out.
FILL_SCORE = 0.5
# The least similarity at which a pair's shares are measured (relation): the least similarity an editor can
# group at and rely on a clean-up; a pair under it keeps NaN shares, which no clean-up takes for held.
SHARE_FLOOR = 0.5
FILL_WORD = 0.5
SLOT_FILLS = ("number", "name")  # template_fill's kinds that cap the score (at any length up to FILL_CHARS)
FILL_CHARS = 10_000  # normalised texts up to this long are checked for one template filled twice
FILL_WORDS = 4  # a run of numbers may also change this many other units a side (a month's name, a department)
KEEP_UNITS_FROM = 3  # a profile keeps its units (5-8 bytes a unit; pure path: interned, 8) from the third time asked
WHOLE_FILLS_KEPT = 4  # _whole_fill's answers kept for the next calls
FILL_GAP = 2  # changed runs this few equal units apart are one place (a date: "9 月 11 日 17 30")
# the most units given a code in one process (_unit_codes: ~30 MB; the compiled Filler.text_units: ~6 MB)
UNIT_CODES = 1 << 18
# the most frequent Chinese family names (without those far more often everyday words: 和, 时, 明, 文...), the
# compound ones, the titles written after a name, the kinds of place written after a place's name, and the forms
# of address written before an English name
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭"
    "陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施牛樊葛邢齐易乔"
    "伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍"
    "华喻祁蒲房滕屈饶解牟艾尤阳穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂佟臧闵苟邬边卞姬师仇栾"
    "隋商刁沙荣巫寇桑郎甄丛仲虞敖巩佘池查麻苑迟邝"
)
COMPOUND_SURNAMES = frozenset(
    (
        "欧阳",
        "司马",
        "上官",
        "诸葛",
        "东方",
        "皇甫",
        "慕容",
        "令狐",
        "夏侯",
        "尉迟",
        "公孙",
        "长孙",
        "宇文",
        "司徒",
        "西门",
        "南宫",
        "独孤",
        "端木",
    )
)
NAME_TITLES = ("先生", "女士", "小姐", "同学", "老师", "教授", "医生", "经理")
SHORTEST_TITLE = min(map(len, NAME_TITLES))
GREETINGS = ("您好", "你好")
PLACE_KINDS = frozenset("省市区县镇乡村路街巷道")
ADDRESS_FORMS = frozenset(("dear", "mr", "mrs", "ms", "miss", "dr", "prof", "hi", "hello"))
DIGIT_RUNS = re.compile(r"\d+")
# Characters that are units of their own (scripts written without spaces between words).
CHAR_UNITS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f"
CHARS = re.compile(f"[{CHAR_UNITS}]+")
WORDS = re.compile(f"[^\\s{CHAR_UNITS}]+")
UNITS = re.compile(f"[{CHAR_UNITS}]|[^\\s{CHAR_UNITS}]+")  # each Chinese (Japanese, Thai) character, each other word
CHAR_SHINGLE = 3
WORD_SHINGLE = 2
LONG_WORDS = 5000  # two texts of this many words or more are compared on word 4-grams
LONG_WORD_SHINGLE = 4
_WORD_SEED = 0x5EED
_WORD_TAG = np.uint64(1 << 40)  # word codes live above every code point: a word never equals a character
_MIX = np.uint64(0x9E3779B97F4A7C15)
_STEP = np.uint64(0x100000001B3)


def char_unit_ranges() -> list[tuple[int, int]]:
    """The code point ranges (inclusive) of CHAR_UNITS."""
    assert len(CHAR_UNITS) % 3 == 0 and CHAR_UNITS[1::3] == "-" * (len(CHAR_UNITS) // 3)
    return [(ord(CHAR_UNITS[i]), ord(CHAR_UNITS[i + 2])) for i in range(0, len(CHAR_UNITS), 3)]


def compiled_shingler(kernels: Any) -> Any:
    """The compiled kernels' Shingler with this module's units and hashes (shingle_runs and minhash.text_bands
    with the `shingler` it gives are those of the pure-Python path, bit for bit)."""
    return kernels.Shingler(char_unit_ranges(), int(_STEP), int(_MIX), _WORD_SEED, int(_WORD_TAG), CHAR_SHINGLE)


def compiled_filler(kernels: Any) -> Any:
    """The compiled kernels' Filler with this module's units, family names, titles, places' kinds, FILL_GAP,
    UNIT_CODES and forms of address (text_units and _fill_kind with the `filler` it gives are those of the
    pure-Python path)."""
    return kernels.Filler(
        char_unit_ranges(), SURNAMES, COMPOUND_SURNAMES, NAME_TITLES, PLACE_KINDS, FILL_GAP, UNIT_CODES, ADDRESS_FORMS
    )


# the shingles of a text in one compiled pass over it (a fifth of the time unit_codes and _shingle_hashes
# take in numpy: 6 µs a text against 31 on the medium collection's 20,000 texts, 2026-11-27), or None for the
# pure-Python path
SHINGLER = None if KERNELS is None else compiled_shingler(KERNELS)


def scoring_kernels(kernels: Any) -> Any:
    """The compiled `kernels` when they hold pair scoring's (common, shingle_score, covered_units, counted_units,
    Filler, settled_scores), else None: kernels built before them (a copied build) leave pair scoring on the pure path."""
    names = ("common", "shingle_score", "covered_units", "counted_units", "settled_scores")
    if not all(hasattr(kernels, name) for name in names) or not hasattr(getattr(kernels, "Filler", None), "text_units"):
        return None
    return kernels


# pair scoring's compiled counts, or None for the pure-Python path
SCORING = scoring_kernels(KERNELS)
# a text's units and where two texts' units differ, read in compiled loops (text_units, _fill_kind), or None
FILLER = None if SCORING is None else compiled_filler(SCORING)


@dataclass(frozen=True, slots=True)
class Run:
    """The shingles of one kind of unit (Chinese characters, or words) of a text, in text order: `hashes[k]`
    covers units k..k+width-1 (each unit alone when the text has fewer than `width` of them)."""

    hashes: np.ndarray
    units: int
    width: int

    def covered(self, other: np.ndarray) -> int:
        """How many of the run's units lie in a shingle found in `other` (sorted unique shingles): a mistyped
        character uncovers itself only (its neighbours lie in other shingles that are found)."""
        if not self.units or not len(other):
            return 0
        at = np.searchsorted(other, self.hashes)
        at[at == len(other)] = 0
        return self.covered_by(other[at] == self.hashes)

    def covered_by(self, found: np.ndarray) -> int:
        """How many of the run's units lie in a shingle marked in `found` (one flag per shingle)."""
        if self.units < self.width:
            return int(found.sum())
        cover = np.zeros(self.units, dtype=bool)
        for offset in range(self.width):
            cover[offset : offset + len(found)] |= found
        return int(cover.sum())


@dataclass(frozen=True, slots=True)
class Profile:
    """What the similarity of a text is computed from: its shingles, and its normalised text when short."""

    shingles: np.ndarray  # sorted unique 32-bit hashes
    short: str = ""  # the normalised text when it has MIN_EDIT_CHARS..EDIT_CHARS characters
    long: np.ndarray | None = None  # the shingles with word 4-grams, for a text of LONG_WORDS words or more
    rest: np.ndarray | None = None  # the shingles of the text without its notices, when it holds one
    # the text's shingles in order, each run with its unit count and width (held_share's coverage)
    runs: tuple[Run, ...] = ()
    # for a text of many frequent lines (boilerplate.frequent_parts), not short and not long (crowd_score):
    whole: np.ndarray | None = None  # the shingles of the whole text, frequent lines included
    own: np.ndarray | None = None  # the shingles of the whole text that its frequent lines do not hold
    filled: str = ""  # the normalised whole text when it has up to FILL_CHARS characters (template_fill)
    # the text with its boilerplate lines, when some were dropped and it is short (held_share looks another
    # text up in it too: what keeping this file keeps of the other is in the whole file)
    full: Profile | None = None
    # the units of `filled` once asked for often (_filled_units: a crowd's text is aligned with hundreds), kept
    # while the profile is (the compiled TextUnits pickle as 0: their codes are this process's); until then how
    # often they were asked for
    filled_units: Sequence[str] | int = field(default=0, compare=False, repr=False)
    # where each run's shingles lie in the profile's set (_run_at: from the second time its share is measured,
    # until then how often it was) and its own shingles in its whole ones (_own_found), kept while the profile
    # is (a crowd's text is scored with hundreds)
    run_at: tuple[np.ndarray, ...] | int = field(default=0, compare=False, repr=False)
    # the kept units' alignment codes (_unit_codes) once asked for CODES_FROM times, with the process's token
    # they were given under; until then how often they were asked for
    filled_codes: tuple[object, str | None] | int = field(default=0, compare=False, repr=False)
    own_at: np.ndarray | None = field(default=None, compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its arrays' bytes (_profile_from): a verification worker sends most of the profiles it
        makes back to the scanning process, and numpy's and the dataclass's own pickling took ~48 us each way
        for a medium collection's profile (~2.8 KB), as long as making it; the memos (filled_units, run_at,
        filled_codes, own_at) only when one is set."""
        memos = (self.filled_units, self.run_at, self.filled_codes, self.own_at)
        unset = all(isinstance(m, int) and not m for m in memos[:3]) and memos[3] is None  # (most)
        state = (
            _packed(self.shingles),
            self.short,
            _packed(self.long),
            _packed(self.rest),
            tuple((_packed(r.hashes), r.units, r.width) for r in self.runs),
            _packed(self.whole),
            _packed(self.own),
            self.filled,
            self.full,
        )
        return _profile_from, (state, None if unset else memos)


def _packed(values: np.ndarray | None) -> bytes | np.ndarray | None:
    """A profile's array as its bytes when it holds uint32 values (a profile's own), else as it is."""
    if values is not None and values.dtype == np.uint32 and values.ndim == 1:
        return values.tobytes()
    return values


def _unpacked(values: bytes | np.ndarray | None) -> np.ndarray | None:
    """_packed's array again (read-only, as the shingler's runs are)."""
    return np.frombuffer(values, dtype=np.uint32) if isinstance(values, bytes) else values


def _profile_from(state: tuple[Any, ...], memos: tuple[Any, ...] | None) -> Profile:
    """The profile Profile.__reduce__ pickled."""
    shingles, short, long, rest, runs, whole, own, filled, full = state
    made = Profile(
        _unpacked(shingles),  # type: ignore[arg-type]
        short,
        _unpacked(long),
        _unpacked(rest),
        tuple(Run(_unpacked(hashes), units, width) for hashes, units, width in runs),  # type: ignore[arg-type]
        _unpacked(whole),
        _unpacked(own),
        filled,
        full,
    )
    if memos is not None:
        for name, value in zip(("filled_units", "run_at", "filled_codes", "own_at"), memos):
            object.__setattr__(made, name, value)
    return made


def _shingle_hashes(codes: np.ndarray, n: int) -> np.ndarray:
    """32-bit hashes of the runs of n consecutive codes (the codes themselves when there are fewer)."""
    if len(codes) >= n:
        h = codes[: len(codes) - n + 1].copy()
        for k in range(1, n):
            h = (h * _STEP) ^ codes[k : len(codes) - n + 1 + k]
    else:
        h = codes
    return ((h * _MIX) >> np.uint64(32)).astype(np.uint32)


def shingles(norm: str, word_shingle: int = WORD_SHINGLE) -> np.ndarray:
    """The sorted unique shingles of a normalised text: character trigrams of its Chinese (Japanese, Thai)
    units and word bigrams of its other words, as 32-bit hashes (a collision between two different
    shingles of a pair moves its score by 1/size)."""
    return unique_shingles(shingle_runs(norm, word_shingle))


def unique_shingles(runs: tuple[Run, ...]) -> np.ndarray:
    """The sorted unique shingles of runs: np.unique's sort and mask without its dispatch, which cost three
    quarters of the time on a text's few hundred shingles (5 against 20 µs a text, 2026-11-27)."""
    if not runs:
        return np.empty(0, dtype=np.uint32)
    found = np.concatenate([r.hashes for r in runs])
    found.sort()
    if len(found) < 2:
        return found
    keep = np.empty(len(found), dtype=bool)
    keep[0] = True
    np.not_equal(found[1:], found[:-1], out=keep[1:])
    return found[keep]


def shingle_runs(norm: str, word_shingle: int = WORD_SHINGLE, shingler: Any = SHINGLER) -> tuple[Run, ...]:
    """The shingles of a normalised text in text order (see shingles), one Run per kind of unit; made by the
    compiled `shingler` (compiled_shingler) when there is one, else in numpy."""
    if shingler is not None:
        char_hashes, char_units, word_hashes, word_units = shingler.runs(norm, word_shingle)
        made = []  # a run made only for a kind of unit the text has, as below
        if char_units:
            made.append(Run(np.frombuffer(char_hashes, dtype=np.uint32), char_units, CHAR_SHINGLE))
        if word_units:
            made.append(Run(np.frombuffer(word_hashes, dtype=np.uint32), word_units, word_shingle))
        return tuple(made)
    chars, words = unit_codes(norm)
    runs = []
    if len(chars):
        runs.append(Run(_shingle_hashes(chars, CHAR_SHINGLE), len(chars), CHAR_SHINGLE))
    if len(words):
        runs.append(Run(_shingle_hashes(words, word_shingle), len(words), word_shingle))
    return tuple(runs)


def unit_codes(norm: str) -> tuple[np.ndarray, np.ndarray]:
    """The codes of a normalised text's units, in text order: its Chinese (Japanese, Thai) characters (their
    code points), and its other words (hashes above every code point)."""
    # the same units as CHARS.findall / WORDS.findall in half the time: 2,084 texts of English, Chinese, logs
    # and code (13 M characters), units and word hashes in 1.15 s against 2.4 s, measured 2026-11-23
    if norm.isascii():
        chars, words = "", norm.split()
    else:
        chars, words = "".join(CHARS.findall(norm)), CHARS.sub(" ", norm).split()
    codes = np.frombuffer(chars.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    word_codes = np.fromiter(
        map(mmh3.hash, words, repeat(_WORD_SEED), repeat(False)), dtype=np.uint64, count=len(words)
    )
    return codes, word_codes | _WORD_TAG


SHINGLE_PIECE = 1 << 20  # characters of a long normalised text shingled at a time (shingle_pieces)
SHINGLE_CUT = f"\\s{CHAR_UNITS}"  # what a piece may end before: a word never spans a space or a character unit


def shingle_pieces(norm: str, word_shingle: int = WORD_SHINGLE, piece: int = SHINGLE_PIECE) -> Iterator[np.ndarray]:
    """The shingles of a normalised text (the set `shingles` gives, in parts that may overlap), `piece`
    characters at a time: memory for a piece, not for the whole text (a 221 MB line took gigabytes in one
    go). A piece ends before a space or a character unit, so no word is cut (a word longer than a piece is
    taken whole); each piece's units follow the last width - 1 units of what came before, so every shingle
    crossing a cut is made; a text of fewer units than a shingle's width gives its units, as shingle_runs."""
    before = [np.empty(0, dtype=np.uint64), np.empty(0, dtype=np.uint64)]
    widths = (CHAR_SHINGLE, word_shingle)
    units = [0, 0]
    for start, end in pieces(norm, piece, SHINGLE_CUT):
        for kind, codes in enumerate(unit_codes(norm[start:end])):
            if len(codes):
                units[kind] += len(codes)
                run = np.concatenate([before[kind], codes])
                if len(run) >= widths[kind]:
                    yield _shingle_hashes(run, widths[kind])
                before[kind] = run[-(widths[kind] - 1) :] if widths[kind] > 1 else run[:0]
    for kind, codes in enumerate(before):  # fewer units than the width in all: each unit alone
        if 0 < units[kind] < widths[kind]:
            yield _shingle_hashes(codes, widths[kind])


def profile(
    text: str,
    rest: str | None = None,
    whole: str | None = None,
    frequent: str | None = None,
    fold_of: Callable[[str], str] = fold,
    full: str | None = None,
    normal_of: Callable[[str], str] | None = None,
) -> Profile:
    """The profile of a text (normalised here: pass the raw text, without boilerplate); `rest`: the text
    without its notices, when it holds one; `whole` and `frequent`: the text with its frequent lines and those
    lines alone, for a text of many frequent lines (all from boilerplate.frequent_parts). `fold_of`:
    normalize.fold, or a function that returns what it would (a caller that has folded some of the texts).
    `full`: the text with its boilerplate lines, when some were dropped: kept (Profile.full) when its
    normalised form has at most EDIT_CHARS characters. `normal_of`: a function that returns what
    normalize_folded(fold_of(part)) would, when the caller keeps some of what it gives."""

    def normalised(part: str) -> str:
        return normalize_folded(fold_of(part)) if normal_of is None else normal_of(part)

    norm = normalised(text)
    short = norm if MIN_EDIT_CHARS <= len(norm) <= EDIT_CHARS else ""
    long = None
    runs = shingle_runs(norm)
    if len(norm) >= LONG_WORDS * 2 and sum(1 for _ in WORDS.finditer(norm)) >= LONG_WORDS:
        runs = shingle_runs(norm, LONG_WORD_SHINGLE)
        long = unique_shingles(runs)
        plain = shingles(norm)
    else:
        plain = unique_shingles(runs)
    whole_shingles = own_shingles = None
    filled = norm
    if whole is not None and frequent is not None:
        filled = whole_norm = norm if whole is text else normalised(whole)
        # short texts are for edit similarity and template_fill to decide, long ones for word 4-grams
        if EDIT_CHARS < len(whole_norm) and (
            len(whole_norm) < LONG_WORDS * 2 or sum(1 for _ in WORDS.finditer(whole_norm)) < LONG_WORDS
        ):
            whole_shingles = shingles(whole_norm)
            own_shingles = np.setdiff1d(whole_shingles, shingles(normalised(frequent)), assume_unique=True)
    return Profile(
        plain,
        short,
        long,
        None if rest is None else shingles(normalised(rest)),
        runs=runs,
        whole=whole_shingles,
        own=own_shingles,
        filled=filled if len(filled) <= FILL_CHARS else "",
        full=None if full is None or len(norm) > EDIT_CHARS else _full_profile(normalised(full)),
    )


def _full_profile(norm: str) -> Profile | None:
    """What held_share looks another text up in beside a short text's profile: its whole text, boilerplate
    lines included (None for a text over EDIT_CHARS normalised characters)."""
    if len(norm) > EDIT_CHARS:
        return None
    runs = shingle_runs(norm)
    return Profile(unique_shingles(runs), norm if MIN_EDIT_CHARS <= len(norm) else "", runs=runs)


def short_in_characters(norm: str) -> bool:
    """Whether a normalised text is short and written in characters (SHORT_UNITS): at most SHORT_UNITS units,
    at least half of them characters."""
    if len(norm.split(maxsplit=SHORT_UNITS)) > SHORT_UNITS:  # each piece between spaces holds a unit or more
        return False
    chars, words = unit_counts(norm)
    return chars + words <= SHORT_UNITS and chars >= words


def unit_counts(norm: str) -> tuple[int, int]:
    """How many Chinese (Japanese, Thai) characters and other words a normalised text has: the lengths of its
    unit_codes, without their codes."""
    if norm.isascii():
        return 0, len(norm.split())
    return sum(map(len, CHARS.findall(norm))), len(CHARS.sub(" ", norm).split())


def shingle_score(a: np.ndarray, b: np.ndarray, whole: bool = True, kernels: Any = SCORING) -> float:
    """Resemblance, or containment within the length gates (see the module's docstring), of two shingle sets;
    without `whole`, containment counts only within LENGTH_GATE. The compiled `kernels` score in one call (the
    same counts, divisions and comparisons)."""
    if kernels is not None:
        return float(kernels.shingle_score(a, b, whole, LENGTH_GATE, WHOLE_CONTAINMENT, WHOLE_GATE))
    if len(a) == 0 or len(b) == 0:
        return 0.0
    inter = common(a, b, kernels)
    small, large = sorted((len(a), len(b)))
    jaccard = inter / (len(a) + len(b) - inter)
    containment = inter / small
    if small >= LENGTH_GATE * large or (whole and containment >= WHOLE_CONTAINMENT and small >= WHOLE_GATE * large):
        return max(jaccard, containment)
    return jaccard


def settled_scores(left: Sequence[Profile], right: Sequence[Profile], kernels: Any = SCORING) -> np.ndarray:
    """For pair k (left[k], right[k]), its similarity when its shingle sets alone make it and it is under
    SHARE_FLOOR (relation measures no shares), else NaN: two long texts' word 4-grams, or the shingles of two
    texts neither of which holds a notice or many frequent lines and which are not both short (the medium
    collection: 74% of its candidate pairs). relation(left[k], right[k]).score where it is not NaN, for all
    pairs in one compiled call when the `kernels` have it."""
    below = min(SHARE_FLOOR, FILL_SCORE)  # under FILL_SCORE too: no template filled twice to look for
    if kernels is not None:
        got = kernels.settled_scores(list(left), list(right), LENGTH_GATE, WHOLE_CONTAINMENT, WHOLE_GATE, below)
        return np.frombuffer(got, dtype=np.float64)
    out = np.full(len(left), math.nan)
    for k, (a, b) in enumerate(zip(left, right, strict=True)):
        if a.long is not None and b.long is not None:
            score = shingle_score(a.long, b.long, kernels=kernels)
        elif (a.short and b.short) or not (a.rest is None and b.rest is None and a.own is None and b.own is None):
            continue
        else:
            score = shingle_score(a.shingles, b.shingles, kernels=kernels)
        if score < below:
            out[k] = score
    return out


def similarity(a: Profile, b: Profile, whole: bool = True, crowd: float | None = None) -> float:
    """The similarity of two texts, 0..1: the verification score, stored per pair and shown as the pair's
    similarity. Shingle resemblance/containment, or for two short texts their edit similarity if higher;
    limited by the notices the texts hold, and at least the large copy groups' score (crowd_score; `crowd`:
    its value, when the caller has it); at most FILL_SCORE for one template filled twice (template_fill).
    `whole=False`: without the rule for a text found whole in one up to 4 times its size."""
    return _scored(a, b, whole, crowd)[0]


def _scored(a: Profile, b: Profile, whole: bool, crowd: float | None) -> tuple[float, str]:
    """similarity, and what template_fill said of the two short texts ("" when they are not both short)."""
    if a.long is not None and b.long is not None:
        return shingle_score(a.long, b.long, whole), ""
    s = shingle_score(a.shingles, b.shingles, whole)
    fill = ""
    if a.short and b.short:
        fill = template_fill(a.short, b.short)
        if fill in SLOT_FILLS:
            s = min(s, FILL_SCORE)
        elif not fill:
            s = max(s, Indel.normalized_similarity(a.short.replace(" ", ""), b.short.replace(" ", "")))
    s = min(s, notice_gate(a, b))
    if fill:  # one template filled twice under frequent lines: their whole texts must not make them copies
        return float(s), fill
    if crowd is None:  # 0 when neither text has many frequent lines (most): not asked
        crowd = crowd_score(a, b, floor=s) if a.own is not None or b.own is not None else 0.0
    score = max(s, crowd)
    if score > FILL_SCORE and not (a.short and b.short) and filled_apart(a, b):
        return float(min(s, FILL_SCORE)), fill
    return float(score), fill


def filled_apart(a: Profile, b: Profile) -> bool:
    """Whether two texts of up to FILL_CHARS normalised characters are one template filled twice: numbers,
    ids or names stand where the other text has others (template_fill on their whole texts)."""
    return bool(a.filled and b.filled) and a.filled != b.filled and _whole_fill(a, b) in SLOT_FILLS


_WHOLE_FILLS: list[tuple[Profile, Profile, str]] = []  # the last few _whole_fill answers, newest last


def _whole_fill(a: Profile, b: Profile) -> str:
    """template_fill of two profiles' whole texts, kept for the next calls: a pair's relation asks for it up to
    three times (its similarity and each side's held share)."""
    for x, y, fill in _WHOLE_FILLS:
        if x is a and y is b:
            return fill
    ua, ub = _filled_units(a), _filled_units(b)
    ca, cb = _filled_codes(a), _filled_codes(b)
    fill = _fill_kind(ua, ub, None if ca is None or cb is None else (ca, cb))
    _WHOLE_FILLS.append((a, b, fill))
    del _WHOLE_FILLS[:-WHOLE_FILLS_KEPT]
    return fill


def _filled_units(p: Profile) -> Sequence[str]:
    """The units of a profile's whole text (_text_units): made again the first times (most texts of a
    collection are in one or two checked pairs: the medium collection's 20,000 texts in ~20,000, each pair
    checked both ways), from the KEEP_UNITS_FROM-th time kept on the profile (a memo: the value never changes,
    so the frozen profile takes it; the pure path's list interned), for a text of a crowd is checked hundreds
    of times."""
    units = p.filled_units
    if not isinstance(units, int):
        return units
    if units + 1 < KEEP_UNITS_FROM:
        object.__setattr__(p, "filled_units", units + 1)
        return _text_units(p.filled)
    made = _text_units(p.filled)
    kept = list(map(sys.intern, made)) if isinstance(made, list) else made
    object.__setattr__(p, "filled_units", kept)
    return kept


def _filled_codes(p: Profile) -> str | None:
    """The alignment codes (_unit_codes) of a profile's kept units (_filled_units) on the pure path, made in
    this process the CODES_FROM-th time they are asked for and kept on the profile (making them takes ~0.3 us a
    unit, and saves ~0.035 ms an alignment of ~1,000 units); None until then, and for compiled units (which
    hold their codes)."""
    units = p.filled_units
    if not isinstance(units, list):
        return None
    kept = p.filled_codes
    if isinstance(kept, int):
        if kept + 1 < CODES_FROM:
            object.__setattr__(p, "filled_codes", kept + 1)
            return None
    elif kept[0] is _CODES_TOKEN:
        return kept[1]
    # the CODES_FROM-th time, or codes made in another process (a profile sent): made here
    codes = _unit_codes(units)
    object.__setattr__(p, "filled_codes", (_CODES_TOKEN, codes))
    return codes


CODES_FROM = 16  # a profile's kept units get alignment codes the 16th time they are aligned
_CODES: dict[int, str] = {}  # what rapidfuzz compares a unit by -> the character standing for it
_CODES_TOKEN = object()  # the process's codes (a profile sent from another process holds another's)


def _unit_codes(units: list[str]) -> str | None:
    """One character a unit, the same for units rapidfuzz takes for equal and different for the others:
    rapidfuzz compares a list by a value per item (a character's code point, another item's hash), so an
    alignment of the codes is the alignment of the units, from a string it reads without converting each item
    (0.10 against 0.14 ms for two texts of ~1,000 units). None once the process gave out UNIT_CODES codes."""
    out = []
    for unit in units:
        value = ord(unit) if len(unit) == 1 else hash(unit)
        code = _CODES.get(value)
        if code is None:
            if len(_CODES) >= UNIT_CODES:
                return None
            n = len(_CODES)
            code = _CODES[value] = chr(n if n < 0xD800 else n + 0x800)  # no surrogate
        out.append(code)
    return "".join(out)


def relation(a: Profile, b: Profile, whole: bool = True, crowd: float | None = None) -> Relation:
    """The similarity of two texts (see similarity) and, when it reaches SHARE_FLOOR, the share of each one's
    text the other holds (see held_share; NaN under the floor: such a pair groups at no least similarity a
    clean-up relies on). Most candidates score under the floor, and the shares cost four times the
    similarity (20,000 random pairs of the medium collection: 0.8 s against 4.1 s)."""
    score, fill = _scored(a, b, whole, crowd)
    if score < SHARE_FLOOR:
        return Relation(score, math.nan, math.nan)
    if crowd is None and not fill and (a.own is not None or b.own is not None):
        crowd = crowd_score(a, b)
    return Relation(score, held_share(a, b, crowd, fill), held_share(b, a, crowd, fill))


def held_share(a: Profile, b: Profile, crowd: float | None = None, fill: str | None = None) -> float:
    """The share of A's text (without the collection's boilerplate) found in B, 0..1: the share of A's units
    (Chinese characters, words) lying in a shingle of A found in B (_covered_share: a mistyped character
    costs itself, a cut ending its length). For two short texts, the larger of that share with each of B's
    shingles used once (_counted_share: a phrase every clause of A repeats is found in B no more often than B
    has it) and the share of A's characters B keeps in order (_kept_share, the longest common subsequence of the
    two normalised texts over A's length, a character matching alone counted only between typos: a typo near a
    short text's end uncovers three characters but costs one; a typo'd copy keeps 99% of a letter, a letter
    keeps 79% of one 40 characters longer). Limited as the
    similarity is by a template filled twice (numbers, ids or names where the other has others, at any length
    up to FILL_CHARS: not a copy) and by a shared notice; at least the large copy groups' score (crowd_score:
    each copy's own shingles are found in the other whole). Not symmetric: a quote is held whole by the
    article quoting it. `fill`: what template_fill says of the two short texts, when the caller has it.
    A short B whose boilerplate lines were dropped (an attribution, a repost notice: Profile.full) is also
    looked up whole, and the larger share counts: those lines are in B's file, so a copy that re-wrapped its
    attribution into its last line ("合理可作，小利莫争。--《增广贤文》" against "合理可作，小利莫争。" above the
    attribution line "--《增广贤文》") is held whole, not at 8 of its 12 characters."""
    if a.long is not None and b.long is not None:
        return _covered_share(a, b.long)
    share = _covered_share(a, b.shingles) if a.long is None else _found_share(a.shingles, b.shingles)
    if b.full is not None and a.long is None:
        share = max(share, _covered_share(a, b.full.shingles))
    if a.short and b.short:
        fill = template_fill(a.short, b.short) if fill is None else fill
        if fill in SLOT_FILLS:
            share = min(share, FILL_SCORE)
        elif not fill:
            share = max(_short_share(a, b), _short_share(a, b.full) if b.full is not None else 0.0)
        if fill:
            return float(min(share, notice_gate(a, b)))
    share = min(share, notice_gate(a, b))
    if crowd is None:
        crowd = crowd_score(a, b, floor=share)
    held = max(share, crowd)
    if held > FILL_SCORE and not (a.short and b.short) and filled_apart(a, b):  # another fill of its template
        return float(min(share, FILL_SCORE))
    return float(held)


def _short_share(a: Profile, b: Profile) -> float:
    """The share of short text A held by B (held_share): the larger of _counted_share and _kept_share."""
    if not b.short:
        return _counted_share(a, b)
    return max(_counted_share(a, b), _kept_share(a.short.replace(" ", ""), b.short.replace(" ", "")))


def _covered_share(a: Profile, other: np.ndarray, kernels: Any = SCORING) -> float:
    """The share of A's units (Chinese characters and words) lying in a shingle found in `other`: a copy
    with 2% of its characters mistyped keeps 98% (its shingle sets share 94%), one missing its last 15%
    keeps 85%; a paragraph moved elsewhere is still found. The compiled `kernels` count the covered units in
    one call (the same count)."""
    units = sum(r.units for r in a.runs)
    if not units:
        return 0.0
    if kernels is not None:
        return kernels.covered_units(a.runs, other) / units
    at = _run_at(a)
    if not at:  # the first time, or runs not all in the profile's set (a profile made otherwise): each looked up
        return sum(r.covered(other) for r in a.runs) / units
    found = _found_in(_run_set(a), other)
    return sum(r.covered_by(found[k]) for r, k in zip(a.runs, at)) / units


def _run_set(p: Profile) -> np.ndarray:
    """The sorted unique shingles a profile's runs make: its word 4-grams' for a long text, else its shingles."""
    return p.shingles if p.long is None else p.long


def _run_at(p: Profile) -> tuple[np.ndarray, ...]:
    """Where each of a profile's runs' shingles lie in _run_set, from the second time it is asked for (kept on
    the profile: a memo, the value never changes; most texts of a collection have their shares measured once);
    () before, and when one is not there (a profile made otherwise than by `profile`)."""
    if not isinstance(p.run_at, int):
        return p.run_at
    if p.run_at < 1:
        object.__setattr__(p, "run_at", p.run_at + 1)
        return ()
    found = _run_set(p)
    at: tuple[np.ndarray, ...] = ()
    if len(found):
        at = tuple(np.minimum(np.searchsorted(found, r.hashes), len(found) - 1) for r in p.runs)
        if not all(np.array_equal(found[k], r.hashes) for r, k in zip(p.runs, at)):
            at = ()
    object.__setattr__(p, "run_at", at)
    return at


def _counted_share(a: Profile, b: Profile, kernels: Any = SCORING) -> float:
    """_covered_share with each of B's shingles used once (as often as B has it): a clause moved elsewhere is
    still found, but a phrase that B's clauses repeat ("一年之计在于春，一日之计在于寅，一家之计在于和…")
    covers no more of A than the times B has it (13 of those 28 characters are in "一日之计在于晨，一年之计在于春",
    not 21). The compiled `kernels` count the units in one call (the same count)."""
    units = sum(r.units for r in a.runs)
    if not units:
        return 0.0
    if kernels is not None:
        return kernels.counted_units(a.runs, b.runs) / units
    left: dict[int, int] = {}
    for r in b.runs:
        for h in r.hashes.tolist():
            left[h] = left.get(h, 0) + 1
    covered = 0
    for r in a.runs:
        found = np.zeros(len(r.hashes), dtype=bool)
        for k, h in enumerate(r.hashes.tolist()):
            if left.get(h, 0):
                left[h] -= 1
                found[k] = True
        covered += r.covered_by(found)
    return covered / units


def _kept_share(left: str, right: str) -> float:
    """The share of `left`'s characters `right` keeps in order (their longest common subsequence over left's
    length), a character that matches alone counted only between typos (at most one character either side
    changed on each text, or a text's end): a typo costs itself wherever it falls ("好灯一拨就亮" /
    "好灯一拔就亮"), but "桃之夭夭，灼灼其华" keeps no 其 of "桃之夭夭，其叶蓁蓁"."""
    if not left:
        return 0.0
    blocks = [(m.a, m.b, m.size) for m in Indel.opcodes(left, right).as_matching_blocks() if m.size]
    kept = 0
    for k, (i, j, size) in enumerate(blocks):
        if size == 1:
            before = blocks[k - 1] if k else (0, 0, 0)
            after = blocks[k + 1] if k + 1 < len(blocks) else (len(left), len(right), 0)
            gaps = (i - before[0] - before[2], j - before[1] - before[2], after[0] - i - 1, after[1] - j - 1)
            if max(gaps) > 1:
                continue
        kept += size
    return kept / len(left)


def _found_share(a: np.ndarray, b: np.ndarray) -> float:
    """The share of a's shingles found in b (0 for a text without shingles: nothing to compare)."""
    return common(a, b) / len(a) if len(a) and len(b) else 0.0


def template_fill(a: str, b: str) -> str:
    """How two normalised texts differ when they are one template filled twice, their units (words,
    numbers, Chinese characters) aligned and each run of changed units taken whole: "number" when numbers
    stand where the other text has other numbers (a date, a time, an amount, a count, a key's code) or an
    id where the other has another id of the same letters ("sf2467300245892" / "sf9876…", "qx3174" /
    "qx2208"); "name" when a person's or a place's name stands where the other has another (_names_apart);
    "word" when words of letters stand where the other has words sharing less than FILL_WORD of their
    letters (a key name, a command: this counts for short texts only); "" otherwise (typos, a digit mistyped
    as a letter, a character replaced, a word dropped or doubled, a word or number cut in two by
    re-wrapping). A copy's typo changes one character: a run of one changed Chinese character is never a
    name, so a copy whose typo falls in a name stays a copy (and so do two names of one surname, 张伟 /
    张娜, which cannot be told from that typo)."""
    return _fill_kind(_text_units(a), _text_units(b))


def _fill_kind(ua: Sequence[str], ub: Sequence[str], codes: tuple[str, str] | None = None, filler: Any = FILLER) -> str:
    """template_fill of two texts' units (lists, or the compiled TextUnits: _text_units; `codes`: their
    _unit_codes, when the caller has them). The compiled `filler` reads the runs between the alignment's
    matching blocks (the runs the opcodes give, without making them) and asks a run's kind only until a slot
    is found, by the same rules; TextUnits are aligned on the codes they hold."""
    if filler is not None:
        aligned: tuple[Any, Any] = codes or (ua, ub)
        if codes is None and not isinstance(ua, list) and not isinstance(ub, list):
            aligned = ua.alignable(ub)  # type: ignore[attr-defined]
        blocks = Levenshtein.editops(*aligned).as_matching_blocks()
        return str(filler.fill_kind(ua, ub, blocks, _run_kind, _char_kind, _names_split))
    fill = ""
    for kind, _ in _places(ua, ub, codes):
        if kind in SLOT_FILLS:
            return kind
        fill = fill or kind
    return fill


def filled_slots(a: str, b: str) -> list[tuple[str, list[str], list[str]]]:
    """The places where two normalised texts differ, each as (kind, units of a, units of b): the runs of
    changed units (template_fill) closer than FILL_GAP equal units taken together, of the kind "number" (or
    else "name") when runs of numbers and names make at least half of its changed units (runs one text
    lacks, and the same characters cut otherwise, left out), "word" (see template_fill), "" otherwise. A
    place must be mostly slots: where a copy's paragraphs were reordered, the alignment pairs unrelated
    passages, and a number paired with another there sits among changed characters."""
    ua, ub = text_units(a), text_units(b)
    return [(kind, ua[a0:a1], ub[b0:b1]) for kind, (a0, a1, b0, b1) in _places(ua, ub)]


def _places(
    ua: Sequence[str], ub: Sequence[str], codes: tuple[str, str] | None = None
) -> Iterator[tuple[str, tuple[int, int, int, int]]]:
    """filled_slots' places, each as its kind and where it lies (start and end in each text's units)."""
    spans = _changed_runs(ua, ub, codes)
    kinds = [
        _run_kind(ua, ub, span) if _context_kind(ua, ub, span) else _char_kind(ua[span[0]], ub[span[2]])
        for span in spans
    ]
    for k in range(len(spans) - 1):  # a name split by one character both share (皇甫敏雨教授 / 覃雨桐先生: 雨)
        (a0, a1, b0, b1), (n0, n1, _, m1) = spans[k], spans[k + 1]
        if n0 == a1 + 1 and kinds[k] != "number" and kinds[k + 1] != "number" and _names_split(ua, ub, a0, n1, b0, m1):
            kinds[k] = kinds[k + 1] = "name"
    start = 0
    for k in range(len(spans)):
        if k + 1 < len(spans) and spans[k + 1][0] - spans[k][1] <= FILL_GAP:
            continue
        if k == start:  # a place of one run (most): its own kind, a slot's or a word's, else ""
            kind = kinds[k]
            yield (kind if kind in ("number", "name", "word") else ""), spans[k]
            start = k + 1
            continue
        slots = {"number": 0, "name": 0}
        changed = 0
        for (a0, a1, b0, b1), kind in zip(spans[start : k + 1], kinds[start : k + 1]):
            if kind != "same":
                changed += a1 - a0 + b1 - b0
                if kind in slots:
                    slots[kind] += a1 - a0 + b1 - b0
        (a0, _, b0, _), (_, a1, _, b1) = spans[start], spans[k]
        kind = next(
            (kind for kind, units in slots.items() if units and 2 * sum(slots.values()) >= changed),
            "word" if "word" in kinds[start : k + 1] else "",
        )
        yield kind, (a0, a1, b0, b1)
        start = k + 1


def _names_split(ua: Sequence[str], ub: Sequence[str], a0: int, n1: int, b0: int, m1: int) -> bool:
    """Whether units a0..n1-1 of the first text and b0..m1-1 of the second (two changed runs and the one
    character between them) are each a Chinese person's name."""
    left, right = "".join(ua[a0:n1]), "".join(ub[b0:m1])
    return bool(CHARS.fullmatch(left + right) and _zh_name(left) and _zh_name(right))  # all Chinese characters


@lru_cache(maxsize=64)
def _text_units(text: str, filler: Any = FILLER) -> Sequence[str]:
    """text_units(text) to align (_fill_kind), kept for the next pairs: verification scores a text's pairs mostly
    one after another. The compiled `filler` gives them as TextUnits (where each unit starts and its code, no
    str object a character: 5-8 bytes a unit), the pure path as a list. A few dozen texts of at most FILL_CHARS
    characters: at most ~50 MB, ~5 MB for texts of ~1,000 characters. Shared: not to be changed."""
    return text_units(text) if filler is None else filler.text_units(text)


def text_units(text: str, filler: Any = FILLER) -> list[str]:
    """UNITS.findall(text): each Chinese (Japanese, Thai) character, each other word; read by the compiled
    `filler` (compiled_filler) when there is one."""
    return UNITS.findall(text) if filler is None else filler.units(text)


def _context_kind(ua: Sequence[str], ub: Sequence[str], span: tuple[int, int, int, int]) -> bool:
    """Whether a run's kind may depend on what stands around it: all but one character for another, both
    Chinese (Japanese, Thai) characters and not both family names, most runs of a crowd's copies (their
    typos), whose kind _char_kind gives from the two characters alone."""
    a0, a1, b0, b1 = span
    if a1 - a0 != 1 or b1 - b0 != 1:
        return True
    left, right = ua[a0], ub[b0]
    return (left in SURNAMES and right in SURNAMES) or not CHARS.fullmatch(left + right)


@lru_cache(maxsize=1 << 16)
def _char_kind(left: str, right: str) -> str:
    """_run_kind of a run of one character for another when _context_kind says it stands alone: no number
    is cut at a text's end by one character for another, a Chinese name or title has two characters or more,
    and a place's kind or a title after the run counts only after two characters or two family names."""
    return _run_kind([left], [right], (0, 1, 0, 1))


def _run_kind(ua: Sequence[str], ub: Sequence[str], span: tuple[int, int, int, int]) -> str:
    """One run of changed units: "same" when one text lacks it or its characters are the same cut
    otherwise (re-wrapping), "number", "name", "word" (see template_fill), "" otherwise."""
    a0, a1, b0, b1 = span
    if a0 == a1 or b0 == b1:
        return "same"
    left, right = ua[a0:a1], ub[b0:b1]
    joined = "".join(left), "".join(right)
    if joined[0] == joined[1]:
        return "same"
    at_end = a1 == len(ua) or b1 == len(ub)
    if _numbers_apart(left, right, joined) and not (at_end and _cut(left, right)):
        return "number"
    if _names_apart(left, right, joined, ua, a0, a1):
        return "name"
    both = joined[0] + joined[1]
    if (
        both.isalpha()  # every unit a word of letters, none a Chinese character
        and not CHARS.search(both)
        and Indel.normalized_similarity(" ".join(left), " ".join(right)) < FILL_WORD
    ):
        return "word"
    return ""


def _cut(left: Sequence[str], right: Sequence[str]) -> bool:
    """Whether one run is the other cut short (a text truncated inside a number)."""
    l, r = "".join(left), "".join(right)  # noqa: E741
    return l.startswith(r) or r.startswith(l)


def _numbers_apart(left: Sequence[str], right: Sequence[str], joined: tuple[str, str]) -> bool:
    """Numbers stand for other numbers: both runs hold numbers, they differ, and the rest of the runs is
    the same or a word for a word (at most FILL_WORDS units a side: "9 月 11" / "10 月 3", "1 280 00" / "980 00",
    "march 3" / "april 17", "17 30 内" / "9 15 骨"); or both are the same letters around other digits
    (ids: "qx3174" / "qx2208"). `joined`: each run's units joined."""
    if joined[0].isalpha() or joined[1].isalpha():  # no digit on one side (no character is both)
        return False
    nl, nr = [u for u in left if u.isdigit()], [u for u in right if u.isdigit()]
    if nl and nr:
        wl, wr = [u for u in left if not u.isdigit()], [u for u in right if not u.isdigit()]
        return nl != nr and (wl == wr or (0 < len(wl) <= FILL_WORDS and 0 < len(wr) <= FILL_WORDS))
    shape = DIGIT_RUNS.sub("0", " ".join(left))
    return shape != " ".join(left) and shape == DIGIT_RUNS.sub("0", " ".join(right))


def _names_apart(
    left: Sequence[str], right: Sequence[str], joined: tuple[str, str], units: Sequence[str], start: int, end: int
) -> bool:
    """A name stands for another name. Chinese: two to four characters that begin with a family name, a
    title after them allowed (郑刚 / 薛芳, 欧阳建华先生 / 龚娜女士), two characters or more that a place's
    kind follows (五华 区 / 盘龙 区), one title for another (罗娜老师 / 廖娜女士: 老师 / 女士), or one family
    name for another when a title or a greeting follows the given name (马一鸣先生 / 钟一鸣先生). English: one
    to three words after a form of address ("dear", "mr", "hi"), two letters or more apart (a typo changes
    one letter or swaps two: dear mrs hill / dear ms king, dear mr white / dear mr wright), or one form of
    address for another (mr / ms). `joined`: each run's units joined; the run of the first text lies at
    start..end-1 of its `units` (what comes before and after it)."""
    l, r = joined  # noqa: E741
    if CHARS.fullmatch(l + r):  # every unit a Chinese character
        if l in NAME_TITLES and r in NAME_TITLES:
            return True
        if len(l) >= 2 and len(r) >= 2 and end < len(units) and units[end] in PLACE_KINDS:
            return True
        if l in SURNAMES and r in SURNAMES:  # 马一鸣先生 / 钟一鸣先生: a title or greeting after the given name
            after = units[end : end + 4]
            return any("".join(after[k : k + 2]) in NAME_TITLES + GREETINGS for k in (1, 2))
        return _zh_name(l) and _zh_name(r)
    if all(u in ADDRESS_FORMS for u in left) and all(u in ADDRESS_FORMS for u in right):
        return True  # "mr" / "ms"
    addressed = (units[start - 1] if start else "") in ADDRESS_FORMS or (
        left[0] in ADDRESS_FORMS and right[0] in ADDRESS_FORMS
    )
    if not addressed:  # (a long run of words, most: its names are not made)
        return False
    names = [[u for u in run if u not in ADDRESS_FORMS] for run in (left, right)]
    return all(1 <= len(run) <= 3 and all(u.isalpha() for u in run) for run in names) and (
        OSA.distance(" ".join(names[0]), " ".join(names[1])) >= 2
    )


def _zh_name(run: str, filler: Any = FILLER) -> bool:
    """Whether a run of Chinese characters is a person's name: a family name and one or two characters (a
    compound family name and one or two), a title after them allowed, or a title with a typo (老也 for 老师).
    The compiled `filler` reads the run's characters in place (the same rule)."""
    if filler is not None:
        return bool(filler.zh_name(run))
    for title in NAME_TITLES if len(run) > SHORTEST_TITLE else ():
        if len(run) > len(title) and sum(x == y for x, y in zip(run[-len(title) :], title)) >= len(title) - 1:
            run = run[: -len(title)]
            break
    given = 2 if run[:2] in COMPOUND_SURNAMES else 1 if run[0] in SURNAMES else 0
    return given > 0 and given + 1 <= len(run) <= given + 2


def _changed_runs(
    ua: Sequence[str], ub: Sequence[str], codes: tuple[str, str] | None = None
) -> list[tuple[int, int, int, int]]:
    """The runs of units that differ between two texts' units (adjacent edits joined): each run's start and
    end in the first text's units and in the second's. `codes`: the units' _unit_codes (the same alignment)."""
    runs: list[tuple[int, int, int, int]] = []
    for op in Levenshtein.opcodes(*(codes or (ua, ub))):
        if op.tag == "equal":
            continue
        if runs and op.src_start == runs[-1][1] and op.dest_start == runs[-1][3]:
            runs[-1] = (runs[-1][0], op.src_end, runs[-1][2], op.dest_end)
        else:
            runs.append((op.src_start, op.src_end, op.dest_start, op.dest_end))
    return runs


def notice_gate(a: Profile, b: Profile) -> float:
    """The most a pair whose texts hold a notice may score: the largest share of one text's rest found in
    the other's whole text when under NOTICE_GATE, else 1 (no limit)."""
    if a.rest is None and b.rest is None:  # neither holds a notice (most)
        return 1.0
    shares = [
        common(x.rest, y.shingles) / len(x.rest) for x, y in ((a, b), (b, a)) if x.rest is not None and len(x.rest)
    ]
    return max(shares) if shares and max(shares) < NOTICE_GATE else 1.0


def crowd_score(a: Profile, b: Profile, floor: float = 0.0) -> float:
    """The score of two texts as members of a large copy group (step 5 of the module's docstring): the
    similarity of their whole texts, no more than the share of each text's own shingles (those of its whole
    text that its frequent lines do not hold) found in the other's whole text; 0 when neither text has many
    frequent lines, and for a short or a long text (edit similarity, template_fill and word 4-grams score
    those). 0 too as soon as one of the three is found under `floor` (a score that would not count)."""
    if a.own is None and b.own is None:
        return 0.0
    sides: list[tuple[np.ndarray, np.ndarray]] = []
    for x in (a, b):
        if x.own is not None and x.whole is not None:  # set together (profile)
            sides.append((x.whole, x.own))
        elif x.short or x.long is not None or not len(x.shingles):
            return 0.0
        else:  # few frequent lines: the text without them stands for both
            sides.append((x.shingles, x.shingles))
    (whole_a, own_a), (whole_b, own_b) = sides
    score = 1.0
    for part in (
        lambda: _own_found(a, whole_a, own_a, whole_b),
        lambda: _own_found(b, whole_b, own_b, whole_a),
        lambda: shingle_score(whole_a, whole_b, whole=False),
    ):
        score = min(score, part())
        if score < floor:
            return 0.0
    return score


def _own_found(p: Profile, whole: np.ndarray, own: np.ndarray, other: np.ndarray) -> float:
    """The share of a profile's `own` shingles (a part of its `whole` ones) found in `other`; 1 for no shingles
    (a text of its frequent lines alone). Read from where `whole` meets `other` (_meet), which the whole
    texts' score takes too."""
    if not len(own):
        return 1.0
    if SCORING is not None:  # counted in one compiled call: the same count as the flags below give
        return common(own, other) / len(own)
    found = _found_in(whole, other)
    if own is whole:
        return int(np.count_nonzero(found)) / len(own)
    at = p.own_at
    if at is None:
        at = np.minimum(np.searchsorted(whole, own), len(whole) - 1) if len(whole) else np.empty(0, dtype=np.intp)
        if len(at) != len(own) or not np.array_equal(whole[at], own):
            at = np.empty(0, dtype=np.intp)  # `own` not part of `whole` (a profile made otherwise)
        object.__setattr__(p, "own_at", at)
    if len(at) != len(own):
        return common(own, other) / len(own)
    return int(np.count_nonzero(found[at])) / len(own)


def common(a: np.ndarray, b: np.ndarray, kernels: Any = SCORING) -> int:
    """How many values two sorted arrays of unique values share (_meet: the shorter looked up in the longer,
    half the time of np.intersect1d, which sorts both together: 60 against 113 us for 2,000 and 2,300
    shingles; the compiled `kernels` look each value up from where the last one was found, in one call)."""
    if kernels is not None:
        return int(kernels.common(a, b))
    short_in = _meet(a, b)[3]
    return int(np.count_nonzero(short_in))


MEETS_KEPT = 8  # _meet's answers kept for the next calls: a pair's relation asks for each a few times
# (shorter array, longer array, where each of the shorter's values would stand in the longer, its flags, the
# longer's flags or None until asked for), newest last
_MEETS: list[list[Any]] = []


def _meet(a: np.ndarray, b: np.ndarray) -> list[Any]:
    """Where two sorted arrays of unique values meet, from one lookup of the shorter in the longer: the
    shorter, the longer, where each of the shorter's values would stand in the longer, a flag for each of them
    found there (and _found_in's flags over the longer once asked for). Kept for the next calls (the arrays
    themselves are the key): a pair's relation counts its shared shingles, and the share of each text's units
    and own shingles the other holds, from the same two meets (its shingles, its whole texts)."""
    for meet in reversed(_MEETS):
        if (meet[0] is a and meet[1] is b) or (meet[0] is b and meet[1] is a):
            return meet
    short, long = (b, a) if len(a) > len(b) else (a, b)
    if len(short) and len(long):
        at = np.searchsorted(long, short)
        at[at == len(long)] = 0
        short_in = long[at] == short
    else:
        at, short_in = np.zeros(len(short), dtype=np.intp), np.zeros(len(short), dtype=bool)
    meet = [short, long, at, short_in, None]
    _MEETS.append(meet)
    del _MEETS[:-MEETS_KEPT]
    return meet


def _found_in(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A flag for each value of sorted unique `a` found in sorted unique `b` (_meet)."""
    meet = _meet(a, b)
    if meet[0] is a:
        return meet[3]
    if meet[4] is None:
        long_in = np.zeros(len(meet[1]), dtype=bool)
        long_in[meet[2][meet[3]]] = True
        meet[4] = long_in
    return meet[4]
