"""What a pre-filter on b-bit MinHash sketches could spare verification: of the candidate pairs an analysis of
FOLDER scores (its index's candidates and stored scores), how many a sketch would reject before the texts are
read, and how many texts would then not be read at all (a text is spared only when every one of its pairs is).

    python -m simdesk scan FOLDER --db DB      # first: an analysed index
    python tools/sketch_potential.py FOLDER DB [--bits 8] [--eps 1e-6]

A pair is rejected when its b-bit matches M over k permutations are so few that a pair scoring the floor T
would show M or fewer with probability under EPS: M <= m, m the largest with P(Binom(k, p(J_min)) <= m) <= EPS,
p(J) = J + (1 - J) / 2^b the chance that two b-bit minima agree, J_min the least resemblance of the pair's two
shingle sets at which its score can reach T (verify.shingle_score: from T na / (na + nb - T na) when the
smaller set holds half the larger, T when under a quarter). T is SHARE_FLOOR (0.5), the least similarity an
editor can group at and rely on a clean-up, and BAND_MIN_SIMILARITY for a pair only the MinHash bands propose.
Pairs of two short texts (edit similarity scores them) and of two long ones (word 4-grams) are never rejected.
Three measures, each an upper bound on what a build of it could do:

- scan sketch: the sketch of the whole text's shingles, kept at scan time, with its shingle count. Verification
  scores texts without their boilerplate lines, so for a text holding such lines the bound must allow for
  every shingle those lines hold (their unit counts, measured here from the texts: a build would keep them per
  boilerplate line) and for the shingles made across each gap they leave (3), without the length gates.
- line-aware sketch: a permutation counts only where the whole text's minimum is the verified set's (a build
  would keep, beside each minimum, the line it came from: ~2 B a permutation), with the verified sets' sizes
  known exactly.
- oracle: every pair scoring under T (or not kept) dropped, and only those whose texts are not both short.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import binom

from simdesk.core.fingerprint.minhash import DESKTOP, signature
from simdesk.core.fingerprint.similarity import (
    EDIT_CHARS,
    LENGTH_GATE,
    SHARE_FLOOR,
    WHOLE_CONTAINMENT,
    WHOLE_GATE,
    shingle_pieces,
    unit_codes,
)
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import (
    BAND_MIN_SIMILARITY,
    DEFAULT_VERIFY,
    PROFILE_BATCH,
    band_flags,
    candidates,
    collection_boilerplate,
    read_plan,
)
from simdesk.core.matching.copies import identical_copies
from simdesk.core.matching.reread import verification_profile
from simdesk.core.reading.boilerplate import _dropped, _frequent, folded_line_keys
from simdesk.core.reading.normalize import fold, normalize_folded, without_links
from simdesk.core.reading.texts import Texts, texts_of

GAP_SHINGLES = 3  # shingles made across the gap a dropped line leaves: 2 character trigrams, 1 word bigram
EDGE_SHINGLES = 6  # shingles a dropped line shares with its neighbours: 2 x (2 + 1)


CHUNK = 256  # texts a task
_state: dict[str, Any] = {}


@dataclass(frozen=True, slots=True)
class Sketch:
    """What the measures need of one text."""

    whole_sig: np.ndarray
    whole_n: int
    kept_sig: np.ndarray
    kept_n: int
    short: bool
    long: bool
    crowd: bool
    removed: int  # the most shingles its dropped boilerplate lines can take from it
    gaps: int  # the most shingles the gaps they leave can make


def _start(texts: Texts, boilerplate: frozenset[int]) -> None:
    _state["texts"], _state["boilerplate"] = texts, boilerplate


def _sketches(work: list[tuple[int, str, bool]]) -> list[tuple[int, Sketch | None]]:
    return [(r, _sketch(path, holds)) for r, path, holds in work]


def _sketch(path: str, holds_boilerplate: bool) -> Sketch | None:
    texts: Texts = _state["texts"]
    boilerplate: frozenset[int] = _state["boilerplate"]
    text = texts.read_or_none(path)
    if not text:
        return None
    folded = fold(text)
    norm = normalize_folded(without_links(folded), strip_links=False)
    pieces = [p for p in shingle_pieces(norm) if len(p)]
    verified = verification_profile(text, boilerplate)
    if not pieces or not len(verified.shingles):
        return None
    whole = np.unique(np.concatenate(pieces))
    removed = gaps = 0
    if holds_boilerplate:
        line_keys, text_lines = folded_line_keys(folded), text.splitlines()
        if len(line_keys) == len(text_lines):
            drop = _dropped(line_keys, _frequent(line_keys, boilerplate))
            for k in drop:
                units = unit_codes(normalize_folded(fold(text_lines[k])))
                removed += len(units[0]) + len(units[1]) + EDGE_SHINGLES
            gaps = GAP_SHINGLES * len(drop)
    return Sketch(
        signature(whole, DESKTOP.perms),
        len(whole),
        signature(verified.shingles, DESKTOP.perms),
        len(verified.shingles),
        bool(verified.short),
        verified.long is not None,
        verified.own is not None,
        removed,
        gaps,
    )


def least_resemblance(floor: np.ndarray, na: np.ndarray, nb: np.ndarray, whole: bool) -> np.ndarray:
    """The least resemblance of two shingle sets of sizes na, nb at which shingle_score can reach `floor`."""
    small, large = np.minimum(na, nb).astype(float), np.maximum(na, nb).astype(float)

    def at_containment(c: float | np.ndarray) -> np.ndarray:
        return c * small / np.maximum(small + large - c * small, 1)

    out = np.asarray(floor, dtype=float) * np.ones(len(small))
    gate = small >= LENGTH_GATE * large
    out[gate] = np.minimum(out, at_containment(floor))[gate]
    if whole:
        gate2 = ~gate & (small >= WHOLE_GATE * large)
        out[gate2] = np.minimum(out, at_containment(WHOLE_CONTAINMENT))[gate2]
    return out


def rejected(matches: np.ndarray, perms: np.ndarray, least_j: np.ndarray, bits: int, eps: float) -> np.ndarray:
    """Whether `matches` b-bit agreements in `perms` permutations reject a pair whose resemblance may be
    `least_j`: M <= m, the largest m with P(Binom(perms, p(least_j)) <= m) <= eps."""
    p = least_j + (1 - least_j) * 2.0**-bits
    m = np.where(perms > 0, binom.ppf(eps, np.maximum(perms, 1), p) - 1, -1)
    return matches <= m


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("db", type=Path)
    ap.add_argument("--bits", type=int, default=8)
    ap.add_argument("--eps", type=float, nargs="+", default=[1e-6, 1e-4])
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    started = time.perf_counter()
    perms_n = DESKTOP.perms
    index = Index(args.db, create=False)
    snap = index.snapshot()
    lines, _, fps = index.analysis_state()
    boilerplate = collection_boilerplate(index, snap.hashes)
    paired, known = index.paired_fingerprints()
    copies = identical_copies(snap.hashes, known & (paired == fps))
    dirty = np.zeros(len(fps), dtype=bool)
    dirty[copies.representatives] = True
    keys, empty = index.band_keys(DESKTOP.bands)
    i, j, d, _ = candidates(fps, snap, copies, dirty, keys, empty, dict, DEFAULT_VERIFY)
    beyond, plain_near = band_flags(i, j, d, snap.fingerprints, snap.chars, DEFAULT_VERIFY)
    stored = index.scores()
    ids = snap.ids
    score = np.full(len(i), np.nan)
    for k, (a, b) in enumerate(zip(ids[i].tolist(), ids[j].tolist())):
        rel = stored.get((min(a, b), max(a, b)))
        if rel is not None:
            score[k] = rel.score
    del stored
    rows = np.unique(np.r_[i, j])
    texts = texts_of(args.folder, index)
    n = len(snap)
    whole_sig = np.zeros((n, perms_n), dtype=np.uint64)
    kept_sig = np.zeros((n, perms_n), dtype=np.uint64)
    whole_n, kept_n, removed, gaps = (np.zeros(n, dtype=np.int64) for _ in range(4))
    ok, short, long, crowd = (np.zeros(n, dtype=bool) for _ in range(4))
    hits = lines.holding(boilerplate)[1]
    work = [(r, snap.paths[r], bool(hits[r])) for r in rows.tolist()]
    chunks = [work[c : c + CHUNK] for c in range(0, len(work), CHUNK)]
    with ProcessPoolExecutor(
        args.jobs, mp_context=multiprocessing.get_context("fork"), initializer=_start, initargs=(texts, boilerplate)
    ) as pool:
        for result in pool.map(_sketches, chunks):
            for r, sketch in result:
                if sketch is None:
                    continue
                whole_sig[r], whole_n[r], kept_sig[r], kept_n[r] = (
                    sketch.whole_sig,
                    sketch.whole_n,
                    sketch.kept_sig,
                    sketch.kept_n,
                )
                short[r], long[r], crowd[r] = sketch.short, sketch.long, sketch.crowd
                removed[r], gaps[r] = sketch.removed, sketch.gaps
                ok[r] = True
    read_s = time.perf_counter() - started
    eligible = ok[i] & ok[j] & ~(short[i] & short[j]) & ~(long[i] & long[j])
    band_only = beyond & ~plain_near
    floor = np.where(band_only, BAND_MIN_SIMILARITY, SHARE_FLOOR)
    low = np.uint64((1 << args.bits) - 1)

    def measures(eps: float) -> list[tuple[str, np.ndarray]]:
        # scan sketch: whole texts' sketches, the boilerplate lines' shingles allowed for
        matches = ((whole_sig[i] & low) == (whole_sig[j] & low)).sum(axis=1)
        na, nb = whole_n[i], whole_n[j]
        sa, sb = np.maximum(na - removed[i], 1), np.maximum(nb - removed[j], 1)
        made = gaps[i] + gaps[j]
        stripped = (removed[i] + removed[j]) > 0
        least_inter = np.maximum(floor * np.minimum(sa, sb) - made, 0)
        least_j = np.where(
            stripped,
            least_inter / np.maximum(na + nb - least_inter, 1),
            least_resemblance(floor, na, nb, whole=True),
        )
        not_short = np.maximum(sa, sb) > EDIT_CHARS  # shingles <= units <= characters: more is not short
        scan_rejects = eligible & not_short & rejected(matches, np.full(len(i), perms_n), least_j, args.bits, eps)

        # line-aware sketch: only the permutations whose whole-text minimum is the verified set's
        same = whole_sig == kept_sig
        both_known = same[i] & same[j]
        perms_known = both_known.sum(axis=1)
        kept_matches = (((kept_sig[i] & low) == (kept_sig[j] & low)) & both_known).sum(axis=1)
        least_kept = np.where(
            band_only,
            least_resemblance(np.full(len(i), BAND_MIN_SIMILARITY), kept_n[i], kept_n[j], whole=False),
            least_resemblance(np.full(len(i), SHARE_FLOOR), kept_n[i], kept_n[j], whole=True),
        )
        # a crowd member's score is at most its whole texts' (crowd_score): those must be rejected too
        whole_rejects = rejected(
            matches, np.full(len(i), perms_n), least_resemblance(floor, na, nb, whole=False), args.bits, eps
        )
        line_rejects = (
            eligible
            & rejected(kept_matches, perms_known, least_kept, args.bits, eps)
            & (~(crowd[i] | crowd[j]) | whole_rejects)
        )
        return [(f"scan sketch, eps {eps:g}", scan_rejects), (f"line-aware sketch, eps {eps:g}", line_rejects)]

    def texts_read(drop: np.ndarray) -> tuple[int, int]:
        keep = ~drop
        plan = read_plan(i[keep], j[keep], n, PROFILE_BATCH)
        return len(np.unique(np.r_[i[keep], j[keep]])), sum(len(step.reads) for step in plan)

    under = ~(score >= floor)  # NaN: not kept
    print(f"{args.folder} ({args.bits}-bit; texts read and sketched in {read_s:.0f} s)")
    print(f"candidates scored: {len(i)} (band pairs only: {int(band_only.sum())})")
    print(
        f"scored >= 0.7: {int((score >= 0.7).sum())}; 0.5-0.7: {int(((score >= 0.5) & (score < 0.7)).sum())}; "
        f"< 0.5: {int((score < 0.5).sum())}; not kept: {int(np.isnan(score).sum())}"
    )
    print(f"pairs not of two short or two long texts: {int(eligible.sum())}")
    print(f"texts read (distinct, by the read plan): {texts_read(np.zeros(len(i), dtype=bool))}")
    for name, drop in [m for eps in args.eps for m in measures(eps)] + [
        ("oracle, pairs not of two short texts", under & eligible),
        ("oracle, every pair", under),
    ]:
        wrong = int((drop & (score >= floor)).sum())
        print(f"{name}: rejects {int(drop.sum())} pairs ({wrong} reaching their floor), texts read {texts_read(drop)}")


if __name__ == "__main__":
    main()
