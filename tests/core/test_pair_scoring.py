"""Scoring a pair the cheap way gives what scoring it afresh gives, bit for bit: the set lookups one pair's
measures share (similarity._meet), the places of a text's runs and own shingles kept on its profile, the kind of
one character for another read without its context (_char_kind) and alignments of unit codes (_unit_codes).
pair_bits scores crowds and template fills for the compiled kernels' test (test_kernels.py), in this process
and under SIMDESK_PURE=1."""

from __future__ import annotations

import math
import pickle
import random
import struct

import numpy as np
from rapidfuzz.distance import Levenshtein

from simdesk.core.fingerprint import similarity as sim
from simdesk.core.fingerprint.similarity import Profile, profile, relation
from simdesk.core.matching.pair_scores import scored
from simdesk.core.reading.normalize import normalize
from tests.core.test_notices import HAN

NAMES = ["张伟", "李娜", "王芳", "欧阳建华", "马一鸣", "钟一鸣", "薛芳", "郑刚"]
AFTER = ["先生", "女士", "老师", "您好", "区", "市", "路", "，", "。", "的"]
WORDS = ["dear", "mr", "ms", "hill", "king", "order", "101", "102", "qx3174", "qx2208", "march", "april", "๑", "๒"]


def _base(rng: random.Random, lines: int = 24) -> list[str]:
    out = []
    for _ in range(lines):
        parts = []
        for _ in range(rng.randint(2, 5)):
            parts.append("".join(rng.choice(HAN) for _ in range(rng.randint(4, 12))))
            parts.append(rng.choice(NAMES) + rng.choice(AFTER) if rng.random() < 0.3 else rng.choice(WORDS))
        out.append(" ".join(parts))
    return out


def _copy(lines: list[str], rng: random.Random, typos: int) -> list[str]:
    out = [list(line) for line in lines]
    for _ in range(typos):
        line = rng.choice(out)
        k = rng.randrange(len(line))
        line[k] = rng.choice(HAN + "78张李师")
    if rng.random() < 0.5:  # a number or a name filled otherwise
        out[rng.randrange(len(out))] += [" ", str(rng.randint(1, 999)), " ", rng.choice(NAMES)]
    return ["".join(line) for line in out]


def _crowd(seed: int, copies: int = 10) -> list[tuple[str, str, str]]:
    """(text without its frequent lines, whole text, frequent lines) of copies of one text, half its lines
    frequent (a crowd's copies keep only their edited lines)."""
    rng = random.Random(seed)
    base = _base(rng)
    out = []
    for _ in range(copies):
        lines = _copy(base, rng, rng.randint(0, 12))
        frequent = [line for k, line in enumerate(lines) if k % 2 == 0 and line == base[k]]
        stripped = [line for line in lines if line not in frequent]
        out.append(("\n".join(stripped), "\n".join(lines), "\n".join(frequent)))
    return out


def _bits(rel) -> bytes:
    return struct.pack("<3d", rel.score, rel.a_in_b, rel.b_in_a)


def _profiles(parts: list[tuple[str, str, str]]) -> list[Profile]:
    return [profile(text, whole=whole, frequent=frequent) for text, whole, frequent in parts]


def pair_bits() -> str:
    """The relation of every ordered pair of two crowds and of fills of the evaluation's templates (with typos,
    names, numbers and ids), scored three times over (the kept paths), as hex: what candidate_relation keeps,
    both ways a pair may have been proposed."""
    from simdesk.core.matching.pair_scores import candidate_relation
    from tests.core.test_template_fills import GALA, HOSPITAL, INVITATION, WATER

    rng = random.Random(5)
    groups = [_profiles(_crowd(seed)) for seed in (1, 2)]
    fills = []
    for k in range(12):
        name = rng.choice(NAMES) + rng.choice(["", "先生", "女士", "老师"])
        date, no, code = f"{rng.randint(1, 12)}月{rng.randint(1, 28)}日", rng.randint(1, 99), rng.randint(1000, 9999)
        text = HOSPITAL.format(
            name=name, date=date, time=f"{rng.randint(8, 17)}:{rng.randint(10, 59)}", no=no, code=code
        )
        fills.append(text if k % 3 else text.replace("门诊", "门珍"))
        fills.append(INVITATION.format(name=name))
        fills.append(GALA.format(name=rng.choice(["Mrs Hill", "Ms King", "Mr White", "Mr Wright", "Mr Whit"])))
        fills.append(WATER.format(date=date, district=rng.choice(["五华区", "盘龙区", "官渡区"])))
    groups.append([profile(text) for text in fills])
    groups.append(_plain_profiles())
    out = []
    for _ in range(3):
        for group in groups:
            for a in group:
                for b in group:
                    for band in (False, True):
                        rel = candidate_relation(a, b, band, True)
                        out.append("-" if rel is None else _bits(rel).hex())
    for group in groups:  # the same pairs in one list (pair_scores.scored: the settled ones in one call)
        left, right, band = _all_pairs(group)
        scores, held = scored(left, right, band, np.ones(len(left), dtype=bool))
        out.extend(struct.pack("<3d", s, *h).hex() for s, h in zip(scores.tolist(), held.tolist()))
    return " ".join(out)


def _plain_profiles() -> list[Profile]:
    """Texts without frequent lines or notices: copies of two crowds' texts whole (over EDIT_CHARS characters),
    short ones and two long ones (word 4-grams), the pairs settled_scores settles and the others."""
    texts = [whole for seed in (1, 2) for _, whole, _ in _crowd(seed, copies=4)]
    texts += [
        "你妈妈喊你回家吃饭哦,回家罗回家罗",
        "你妈妈叫你回家吃饭啦,回家罗回家罗",
        "the quick brown fox jumps over",
    ]
    rng = random.Random(9)
    words = [f"w{k}" for k in range(300)]
    long = " ".join(rng.choice(words) for _ in range(sim.LONG_WORDS + 10))
    texts += [long, long[: len(long) // 2] + " " + " ".join(rng.choice(words) for _ in range(sim.LONG_WORDS // 2))]
    return [profile(text) for text in texts]


def _all_pairs(group: list[Profile]) -> tuple[list[Profile], list[Profile], np.ndarray]:
    """Every ordered pair of a group, each proposed by the bands alone and not (left, right, band_only)."""
    pairs = [(a, b, band) for a in group for b in group for band in (False, True)]
    return [a for a, _, _ in pairs], [b for _, b, _ in pairs], np.array([band for _, _, band in pairs])


def test_pairs_scored_in_one_list_are_each_pair_scored_alone() -> None:
    """pair_scores.scored (the pairs settled_scores settles in one call, the others one by one) gives each
    pair's candidate_relation, bit for bit; settled_scores settles most plain pairs, each with its relation's
    score, and none proposed by the bands alone."""
    from simdesk.core.matching.pair_scores import candidate_relation

    group = _plain_profiles() + [profile(text) for text in ("短文本一二三四五六七八九十", "短文本一二三四五六七八九千")]
    group += _profiles(_crowd(3, copies=3))
    with_notice = [whole for _, whole, _ in _crowd(4, copies=2)]  # a text holding a notice: its rest kept
    group += [profile(text, rest=text[: len(text) // 2]) for text in with_notice] + [profile("")]
    left, right, band = _all_pairs(group)
    scores, held = scored(left, right, band, np.ones(len(left), dtype=bool))
    for k, (a, b) in enumerate(zip(left, right)):
        rel = candidate_relation(a, b, bool(band[k]), True)
        want = (math.nan, math.nan, math.nan) if rel is None else (rel.score, rel.a_in_b, rel.b_in_a)
        assert struct.pack("<3d", scores[k], *held[k]) == struct.pack("<3d", *want), k
    settled = sim.settled_scores(left, right)
    assert struct.pack(f"<{len(left)}d", *settled) == struct.pack(
        f"<{len(left)}d", *sim.settled_scores(left, right, kernels=None)
    )
    assert 0 < np.count_nonzero(~np.isnan(settled)) < len(left)
    for k in np.flatnonzero(~np.isnan(settled)).tolist():
        rel = relation(left[k], right[k])
        assert settled[k] == rel.score < sim.SHARE_FLOOR and math.isnan(rel.a_in_b) and math.isnan(rel.b_in_a)


def test_kept_lookups_give_the_fresh_relation_bit_for_bit() -> None:
    """Every ordered pair of a crowd scored many times over on the same profiles (their runs' places, own
    shingles' places, units and unit codes kept from the first times) equals the pair scored on profiles
    made afresh (nothing kept), score and both shares, bit for bit."""
    for seed in range(3):
        parts = _crowd(seed)
        kept = _profiles(parts)
        assert any(p.own is not None for p in kept)
        for _ in range(3):  # past KEEP_UNITS_FROM and CODES_FROM: the kept paths
            for a in range(len(parts)):
                for b in range(len(parts)):
                    if a == b:
                        continue
                    fresh = _profiles([parts[a], parts[b]])
                    assert _bits(relation(kept[a], kept[b])) == _bits(relation(*fresh)), (seed, a, b)
        if sim.FILLER is None:  # the pure path's kept units get their alignment codes
            assert all(isinstance(p.filled_codes, tuple) and p.filled_codes[1] for p in kept)
        else:  # the compiled units hold theirs
            assert all(not isinstance(p.filled_units, (int, list)) and p.filled_units.codes for p in kept)
        # the runs' places serve the pure path's lookups (the compiled kernels count covered units without them)
        assert sim.SCORING is not None or all(isinstance(p.run_at, tuple) and p.run_at for p in kept)


def test_a_profile_sent_to_another_process_makes_its_codes_again() -> None:
    """Unit codes are this process's: a profile unpickled (as from a worker) makes them again (the compiled
    units are not sent at all), and scores the same."""
    parts = _crowd(7, copies=3)
    kept = _profiles(parts)
    for _ in range(sim.KEEP_UNITS_FROM + sim.CODES_FROM):
        sim._whole_fill(kept[0], kept[1])
        sim._WHOLE_FILLS.clear()
    sent = pickle.loads(pickle.dumps(kept[0]))
    if sim.FILLER is None:
        assert isinstance(sent.filled_codes, tuple) and sent.filled_codes[0] is not sim._CODES_TOKEN
        assert sim._filled_codes(sent) == sim._unit_codes(sim._filled_units(sent))
        assert sent.filled_codes[0] is sim._CODES_TOKEN
    else:
        assert not isinstance(kept[0].filled_units, int) and sent.filled_units == 0
    assert _bits(relation(sent, kept[1])) == _bits(relation(*_profiles(parts[:2])))


def test_unit_codes_align_as_the_units() -> None:
    """rapidfuzz aligns the unit codes as it aligns the units (the same opcodes), and the template fill read
    from them is the same."""
    rng = random.Random(3)
    pool = list(HAN[:30]) + WORDS + NAMES + ["7", "8", "a", "bb"]
    for _ in range(300):
        ua = [rng.choice(pool) for _ in range(rng.randint(0, 60))]
        ub = [u if rng.random() < 0.8 else rng.choice(pool) for u in ua]
        del ub[: rng.randint(0, 3)]
        ca, cb = sim._unit_codes(ua), sim._unit_codes(ub)
        assert ca is not None and cb is not None and len(ca) == len(ua)
        assert Levenshtein.opcodes(ca, cb).as_list() == Levenshtein.opcodes(ua, ub).as_list()
        assert sim._fill_kind(ua, ub, (ca, cb)) == sim._fill_kind(ua, ub)


def test_one_character_for_another_is_read_without_its_context() -> None:
    """Wherever _context_kind says a run of one character for another stands alone, _char_kind gives what
    _run_kind gives for it in its place: names, titles, place kinds and greetings around it, digits, a
    text's end."""
    rng = random.Random(11)
    chars = list(HAN[:40]) + list("张李王马钟薛郑刚芳娜伟一鸣先生女士老师您好区市路") + ["๑", "๒", "ー", "・"]
    checked = 0
    for _ in range(400):
        text = "".join(rng.choice(chars) + (" " if rng.random() < 0.1 else "") for _ in range(rng.randint(1, 30)))
        other = "".join(c if rng.random() < 0.8 else rng.choice(chars) for c in text)
        ua, ub = sim._text_units(normalize(text)), sim._text_units(normalize(other))
        for span in sim._changed_runs(ua, ub):
            if not sim._context_kind(ua, ub, span):
                checked += 1
                assert sim._char_kind(ua[span[0]], ub[span[2]]) == sim._run_kind(ua, ub, span), (ua, ub, span)
    assert checked > 500


def test_pairs_cancelled_before_scoring_give_none() -> None:
    """A cancel set before the call scores no pair, not even those settled in one call."""
    from simdesk.core.workers import CancelToken

    left, right, band = _all_pairs(_plain_profiles())
    cancel = CancelToken()
    cancel.cancel()
    scores, held = scored(left, right, band, np.ones(len(left), dtype=bool), cancel)
    assert scores.shape == (0,) and held.shape == (0, 2)


def _same_profile(a: Profile, b: Profile | None) -> None:
    """Every compared field of two profiles the same, arrays by dtype and bytes (nested profiles too)."""
    assert b is not None
    for name in ("shingles", "long", "rest", "whole", "own"):
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None) == (y is None), name
        if x is not None:
            assert x.dtype == y.dtype and x.tobytes() == y.tobytes(), name
    assert (a.short, a.filled) == (b.short, b.filled)
    assert [(r.hashes.dtype, r.hashes.tobytes(), r.units, r.width) for r in a.runs] == [
        (r.hashes.dtype, r.hashes.tobytes(), r.units, r.width) for r in b.runs
    ]
    if a.full is None:
        assert b.full is None
    else:
        _same_profile(a.full, b.full)


def test_a_profile_pickles_as_its_arrays_bytes() -> None:
    """A profile sent to another process (pickled as its arrays' bytes) is the same profile: every kind of part
    (a crowd's whole and own shingles, a notice's rest, a short text's full text, a long text's word 4-grams, a
    profile made otherwise with arrays of another type), the same relations with the profiles it was made from."""
    crowd = _profiles(_crowd(4, copies=3))
    words = " ".join(f"w{k % 977} x{k % 131}" for k in range(6000))
    made = [
        *crowd,
        profile("一年之计在于春，一日之计在于晨。", full="一年之计在于春，一日之计在于晨。\n--《增广贤文》"),
        profile("许可证正文" * 8 + "\n本文", rest="本文的正文内容不少于二十个字符的样子吧"),
        profile(words),
        profile(words + " tail end"),
        Profile(np.array([3, 1, 2], dtype=np.int64)),
        Profile(np.empty(0, dtype=np.uint32)),
    ]
    for _ in range(sim.KEEP_UNITS_FROM + 1):  # memos set on some
        sim._whole_fill(crowd[0], crowd[1])
        sim._WHOLE_FILLS.clear()
    sent = [pickle.loads(pickle.dumps(p, protocol=pickle.HIGHEST_PROTOCOL)) for p in made]
    for a, b in zip(made, sent):
        _same_profile(a, b)
    assert sent[3].full is not None and sent[4].rest is not None and sent[5].long is not None
    assert crowd[0].whole is not None and sent[0].own is not None
    for x in range(len(made) - 2):
        for y in range(len(made) - 2):
            assert _bits(relation(sent[x], sent[y])) == _bits(relation(made[x], made[y]))
