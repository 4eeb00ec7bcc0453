"""Verification's faster paths give what the plain ones give: a text folded once for its profile, boilerplate
lines' votes segmented in the worker processes, pairs scored in the worker processes, a line tested for a digit
before the date patterns run."""

from __future__ import annotations

import math
import random
import shutil
import sys
from pathlib import Path
from typing import Any

import numpy as np

from bench.corpus import build
from simdesk.core.fingerprint.similarity import Profile, profile
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import (
    POOL_FROM_TEXTS,
    SCORE_CHUNK,
    SEGMENTED_POOL_FROM,
    TEXT_CHUNK,
    VerifySettings,
    analyse,
    collection_boilerplate,
    read_plan,
    verify_pairs,
)
from simdesk.core.matching.pair_scores import candidate_relation
from simdesk.core.matching.reread import verification_profile
from simdesk.core.reading.boilerplate import frequent_parts
from simdesk.core.reading.headline import _date_in, _month_in, date_in, month_in
from simdesk.core.reading.normalize import fold
from simdesk.core.reading.texts import Texts
from simdesk.core.records import ScanOptions
from simdesk.core.workers import RESULTS_SWITCH_S, CancelToken

FOOTERS = 75  # boilerplate lines, each in 10 documents of its own: more texts to segment than SEGMENTED_POOL_FROM
WITHOUT_FOOTER = 20


def _footer(k: int) -> str:
    return "".join(chr(0x4E00 + 97 * k + 7 * m) for m in range(9))


def _collection(folder: Path) -> Path:
    """FOOTERS x 10 short texts of random common characters, each with a date and one frequent footer line,
    most odd ones a near copy of the one before (three characters changed); WITHOUT_FOOTER texts without."""
    rng = random.Random(11)
    common = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
    folder.mkdir()
    previous: list[str] = []
    for d in range(FOOTERS * 10):
        if d % 2 and rng.random() < 0.8:
            body = list(previous)
            for _ in range(3):
                body[rng.randrange(len(body))] = rng.choice(common)
        else:
            body = [rng.choice(common) for _ in range(rng.choice((60, 150, 400)))]
        previous = body
        text = "".join(body)
        lines = [text[k : k + 50] for k in range(0, len(text), 50)]
        date = f"2024年{d % 12 + 1}月{d % 28 + 1}日" if d % 3 else "二〇二三年五月"
        (folder / f"{d:04d}.txt").write_text("\n".join([date, *lines, _footer(d // 10)]), "utf-8")
    for d in range(WITHOUT_FOOTER):
        text = "".join(rng.choice(common) for _ in range(120))
        (folder / f"plain-{d}.txt").write_text("\n".join([text[:60], text[60:]]), "utf-8")
    return folder


def _same(a: Profile | None, b: Profile | None) -> bool:
    if a is None or b is None:
        return a is b
    for field in Profile.__slots__:
        x, y = getattr(a, field), getattr(b, field)
        if field == "full":
            if not _same(x, y):
                return False
        elif field == "runs":
            if len(x) != len(y) or any(
                not np.array_equal(r.hashes, s.hashes) or (r.units, r.width) != (s.units, s.width) for r, s in zip(x, y)
            ):
                return False
        elif isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if x is None or y is None or x.dtype != y.dtype or not np.array_equal(x, y):
                return False
        elif x != y:
            return False
    return True


def _reference_profile(text: str, boilerplate: frozenset[int]) -> Profile:
    """verification_profile as written before it folded the text once: every part folded on its own."""
    parts = frequent_parts(text, boilerplate)
    return profile(
        parts.stripped,
        parts.rest,
        text if parts.frequent is not None else None,
        parts.frequent,
        full=text if parts.stripped is not text else None,
    )


def test_a_text_folded_once_has_the_profile_of_each_part_folded_alone(tmp_path, small_corpus):
    whole = cut = 0
    for root in (small_corpus, _collection(tmp_path / "c")):
        with Index(tmp_path / f"{root.name}.sqlite") as index:
            scan(root, index, ScanOptions(jobs=1))
            boilerplate = collection_boilerplate(index)
            paths = index.snapshot().paths
        assert boilerplate
        for path in paths:
            text = Texts(root).read(path).text
            kept = frequent_parts(text, boilerplate).stripped is text
            whole, cut = whole + kept, cut + (not kept)
            assert _same(verification_profile(text, boilerplate), _reference_profile(text, boilerplate))
    assert whole >= WITHOUT_FOOTER and cut > 500  # texts kept whole and texts cut


def test_an_analysis_segmenting_in_workers_finds_what_one_in_this_process_finds(tmp_path):
    root = _collection(tmp_path / "c")
    with Index(tmp_path / "a.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        lines = index.line_hashes()
        assert len(collection_boilerplate(index)) >= FOOTERS > SEGMENTED_POOL_FROM
        assert len(lines) == FOOTERS * 10 + WITHOUT_FOOTER
    shutil.copy(tmp_path / "a.sqlite", tmp_path / "b.sqlite")
    found = []
    for name, jobs in (("a", 1), ("b", 2)):
        with Index(tmp_path / f"{name}.sqlite") as index:
            g = analyse(root, index, verify=VerifySettings(jobs=jobs))
            groups = sorted(tuple(m.path for m in group.members) for group in g.at(12))
            found.append((g.snapshot.fingerprints, g.i, g.j, g.d, g.scores, g.held, groups))
    (fa, ia, ja, da, sa, ha, ga), (fb, ib, jb, db, sb, hb, gb) = found
    assert len(ia) > 100 and len(ga) > 50
    assert np.array_equal(fa, fb)
    assert np.array_equal(ia, ib) and np.array_equal(ja, jb) and np.array_equal(da, db)
    assert np.array_equal(sa, sb, equal_nan=True) and np.array_equal(ha, hb, equal_nan=True)
    assert ga == gb


def test_a_line_without_digits_holds_no_date(tmp_path, small_corpus):
    lines = [
        "发布时间：2024年5月3日",
        "二〇二三年十二月二十一日",
        "二〇二四年五月",
        "民国113年5月3日",
        "posted march 3, 2024",
        "3rd march 2024",
        "25/12/2024",
        "05.03.2024",
        "may 2024",
        "١٢/٠٣/٢٠٢٤",  # Arabic-Indic digits are digits too
        "一二三年五月",  # three Chinese digits: no year
        "一月一日",
        "",
    ]
    with Index(tmp_path / "i.sqlite") as index:
        scan(small_corpus, index, ScanOptions(jobs=1))
        paths = index.snapshot().paths
    for path in paths:
        lines += fold(Texts(small_corpus).read(path).text).splitlines()
    assert sum(date_in(line) is not None for line in lines) > 10
    for line in lines:
        assert date_in(line) == _date_in(line)
        assert month_in(line) == _month_in(line)


def _scored_by_verify_pairs(
    root: Path,
    db: Path,
    jobs: int,
    pool_from: int,
    cancel: CancelToken | None = None,
    read_chunk: int = TEXT_CHUNK,
    cancel_at: str = "scoring",
    **plan: int,
) -> tuple:
    """verify_pairs over every pair of the collection's texts (a third flagged as proposed by the bands alone,
    a fifth of those with near plain fingerprints), its texts read in tasks of `read_chunk`: its scores and
    shares, the scores the index keeps, the headlines it kept and its last progress report. `cancel`: set when
    the scoring starts (`cancel_at` "scoring"), or when the first read task's texts are in ("verifying")."""
    reports: list[tuple[str, int, int]] = []

    def on_progress(*report: Any) -> None:
        reports.append(report)
        if cancel is not None and report[0] == cancel_at and (cancel_at == "scoring" or report[1] > 0):
            cancel.cancel()

    headlines: dict[str, str] = {}
    with Index(db) as index:
        snap = index.snapshot()
        i, j = (x.astype(np.int64) for x in np.triu_indices(len(snap), 1))
        band_only = np.arange(len(i)) % 3 == 0
        plain_near = band_only & (np.arange(len(i)) % 5 == 0)
        scores, held = verify_pairs(
            Texts(root),
            index,
            snap,
            i,
            j,
            collection_boilerplate(index),
            jobs,
            cancel,
            on_progress,
            band_only=band_only,
            plain_near=plain_near,
            headlines=headlines,
            pool_from=pool_from,
            read_chunk=read_chunk,
            **plan,
        )
        kept = {
            pair: [None if x != x else x for x in (r.score, r.a_in_b, r.b_in_a)] for pair, r in index.scores().items()
        }
    return scores, held, kept, headlines, reports[-1], (i, j, band_only, plain_near)


def test_verification_takes_its_workers_results_promptly_while_it_scores(tmp_path):
    """While verify_pairs' workers send their results, this process hands the interpreter lock over every
    RESULTS_SWITCH_S (the pool's thread receives them between the pairs scored here), and as before once the
    pool is gone: its first report comes before the pool starts, its last after it ended."""
    root = tmp_path / "crowd"
    build(root, "small", seed=5, crowd=(1, 64), documents=64)
    with Index(tmp_path / "a.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
    seen: list[tuple[str, float]] = []
    before = sys.getswitchinterval()
    assert before > RESULTS_SWITCH_S
    with Index(tmp_path / "a.sqlite") as index:
        snap = index.snapshot()
        i, j = (x.astype(np.int64) for x in np.triu_indices(len(snap), 1))
        scores, _ = verify_pairs(
            Texts(root),
            index,
            snap,
            i,
            j,
            collection_boilerplate(index),
            2,
            None,
            lambda phase, done, total: seen.append((phase, sys.getswitchinterval())),
            pool_from=0,
            read_chunk=16,
        )
    assert not np.isnan(scores).all() and sys.getswitchinterval() == before
    assert seen[0] == ("verifying", before) and seen[-1] == ("scoring", before)
    assert len(seen) > 4 and {interval for _, interval in seen[1:-1]} == {RESULTS_SWITCH_S}


def test_pairs_scored_in_the_workers_score_as_in_this_process(tmp_path):
    """A crowd of near-identical texts (the generator's copy group: template checks, units kept per text),
    every pair of it scored by verify_pairs in this process and with worker processes, its texts read in one
    task (which then scores every pair) or in tasks of 16 (each scoring the pairs of its own texts, the others
    scored in this process or sent to the workers): the same scores, shares, kept scores and headlines, and
    each equal to candidate_relation on the two texts' profiles. With workers, chunks of pairs go to them as
    they have room, once the pairs scored here show that a crowd's cost more than sending their texts."""
    root = tmp_path / "crowd"
    build(root, "small", seed=5, crowd=(1, 64), documents=64)
    with Index(tmp_path / "a.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        assert len(index.snapshot()) == 64 == TEXT_CHUNK
    for name in "bcde":
        shutil.copy(tmp_path / "a.sqlite", tmp_path / f"{name}.sqlite")
    here = _scored_by_verify_pairs(root, tmp_path / "a.sqlite", 1, POOL_FROM_TEXTS)
    pooled = _scored_by_verify_pairs(root, tmp_path / "b.sqlite", 2, 0, read_chunk=16)
    (sa, ha, ka, la, last_a, (i, j, band_only, plain_near)), (sb, hb, kb, lb, last_b, _) = here, pooled
    assert len(i) == 64 * 63 // 2 > 4 * 16 * 15 // 2 + 5 * SCORE_CHUNK  # more chunks than two workers are given
    assert np.array_equal(sa, sb, equal_nan=True) and np.array_equal(ha, hb, equal_nan=True)
    assert ka == kb and la == lb and len(la) > 32
    assert last_a == last_b == ("scoring", len(i), len(i))
    assert (sa >= 0.7).sum() > len(i) // 2 and np.isnan(sa[band_only]).any()  # copies, and band pairs left out
    in_tasks_here = _scored_by_verify_pairs(root, tmp_path / "c.sqlite", 1, POOL_FROM_TEXTS, read_chunk=16)
    assert np.array_equal(in_tasks_here[0], sa, equal_nan=True) and np.array_equal(in_tasks_here[1], ha, equal_nan=True)
    assert in_tasks_here[2:5] == (ka, la, last_a)
    # cancelled as the scoring starts (chunks already with the workers are stopped), then scored to the end
    with Index(tmp_path / "d.sqlite") as index:
        index.forget_pairing()
    cancelled = _scored_by_verify_pairs(root, tmp_path / "d.sqlite", 2, 0, CancelToken(), read_chunk=16)
    assert cancelled[4][0] == "scoring" and cancelled[4][1] < len(i)
    assert all(kept == ka[pair] for pair, kept in cancelled[2].items())  # what is kept is what was scored
    resumed = _scored_by_verify_pairs(root, tmp_path / "d.sqlite", 2, 0, read_chunk=16)
    assert np.array_equal(resumed[0], sa, equal_nan=True) and np.array_equal(resumed[1], ha, equal_nan=True)
    assert resumed[2] == ka
    with Index(tmp_path / "a.sqlite") as index:
        boilerplate = collection_boilerplate(index)
        paths = index.snapshot().paths
    profiles = [verification_profile(Texts(root).read(p).text, boilerplate) for p in paths]
    for k in range(0, len(i), 7):
        rel = candidate_relation(profiles[i[k]], profiles[j[k]], bool(band_only[k]), bool(plain_near[k]))
        expected = (math.nan,) * 3 if rel is None else (rel.score, rel.a_in_b, rel.b_in_a)
        assert np.array_equal([sb[k], *hb[k]], expected, equal_nan=True)


def test_pairs_scored_in_steps_read_ahead_score_as_in_one_step(tmp_path):
    """Every pair of a crowd of 48 texts, in steps of 6 texts with at most 18 profiles held (texts let go and read
    again), the workers reading the steps ahead as far as the profiles held allow: the same scores, shares, kept
    scores and headlines as one step in this process."""
    root = tmp_path / "crowd"
    build(root, "small", seed=5, crowd=(1, 48), documents=48)
    with Index(tmp_path / "a.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        i, j = np.triu_indices(len(index.snapshot()), 1)
    steps = read_plan(i.astype(np.int64), j.astype(np.int64), 48, 18, 6, chunk=4)
    assert len(steps) == 8 and sum(map(len, (s.read_rows for s in steps))) > 48  # texts read again
    shutil.copy(tmp_path / "a.sqlite", tmp_path / "b.sqlite")
    whole = _scored_by_verify_pairs(root, tmp_path / "a.sqlite", 1, POOL_FROM_TEXTS)
    stepped = _scored_by_verify_pairs(root, tmp_path / "b.sqlite", 2, 0, read_chunk=4, plan_window=6, profile_batch=18)
    assert np.array_equal(whole[0], stepped[0], equal_nan=True) and np.array_equal(whole[1], stepped[1], equal_nan=True)
    assert whole[2:5] == stepped[2:5]
    assert (whole[0] >= 0.7).sum() > len(i) // 2


def test_a_cancel_while_read_tasks_score_keeps_what_they_scored(tmp_path):
    """Cancelled when the first of four read tasks is in (the others under way in the workers, each scoring the
    pairs of its own 16 texts): no other task's result is taken, the pairs that task scored are kept as a
    whole check scores them, and the next check scores the rest to the same figures."""
    root = tmp_path / "crowd"
    build(root, "small", seed=5, crowd=(1, 64), documents=64)
    with Index(tmp_path / "a.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        index.forget_pairing()
    shutil.copy(tmp_path / "a.sqlite", tmp_path / "b.sqlite")
    whole = _scored_by_verify_pairs(root, tmp_path / "a.sqlite", 2, 0, read_chunk=16)
    cancelled = _scored_by_verify_pairs(
        root, tmp_path / "b.sqlite", 2, 0, CancelToken(), read_chunk=16, cancel_at="verifying"
    )
    assert cancelled[4] == ("verifying", 16, 64)  # seen before the next task's result
    kept = cancelled[2]
    assert 0 < len(kept) <= 16 * 15 // 2 and all(scores == whole[2][pair] for pair, scores in kept.items())
    texts = {x for pair in kept for x in pair}
    assert len(texts) <= 16  # the pairs of one task's texts
    resumed = _scored_by_verify_pairs(root, tmp_path / "b.sqlite", 2, 0, read_chunk=16)
    assert np.array_equal(resumed[0], whole[0], equal_nan=True) and np.array_equal(resumed[1], whole[1], equal_nan=True)
    assert resumed[2] == whole[2]
