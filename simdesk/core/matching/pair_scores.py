"""The scores of candidate pairs on their texts' profiles: the rule that keeps a candidate (candidate_relation)
and a list of pairs scored at once (scored), in the scanning process or in a worker process, there also
beside the reading of their texts (read_and_scored).

    scores, held = scored(left, right, band_only, plain_near)   # NaN where a candidate is not kept

Like reread.py, this module imports neither the index nor the analysis, and the workers' fork server preloads
it (worker_preload), so a worker scoring pairs starts with everything it runs loaded.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simdesk.core.fingerprint.similarity import (
    DEFAULT_MIN_SIMILARITY,
    Profile,
    crowd_score,
    relation,
    settled_scores,
    similarity,
)
from simdesk.core.matching.scratch_texts import StoredTexts, stored_or_read
from simdesk.core.reading.texts import Texts
from simdesk.core.records import Relation
from simdesk.core.workers import CancelToken

# A pair proposed by the MinHash bands alone (its fingerprints beyond the radius) groups from this score,
# not from min_similarity: it lacks SimHash's agreement. Measured 2026-11-23 on the evaluation kit, two held-out
# collections and the small test collection (4,705 files), such pairs scored: texts sharing only a repost
# footer, a licence notice or a template 0.70-0.82 (35 pairs from 0.80); copies 0.80-1.00 (mixed-language
# 0.99-1.00, short texts with several typos mostly 0.85-0.96; 4 copies below 0.85 are left out). It must be
# reached without the whole-containment rule (analysis.verify_pairs): on the medium collection 10 collages that
# quote a saying whole scored 1.0 by that rule.
BAND_MIN_SIMILARITY = 0.85


def candidate_relation(left: Profile, right: Profile, band_only: bool, plain_near: bool) -> Relation | None:
    """The relation of a candidate pair's texts (verify.relation), or None when the pair is not kept: a pair
    only the bands proposed (`band_only`, band_flags' beyond) must reach BAND_MIN_SIMILARITY without the
    whole-containment rule, or, when `plain_near`, be scored up to its score or DEFAULT_MIN_SIMILARITY by the
    large copy groups' rule (verify.crowd_score). The one rule of verify_pairs and the cluster engines."""
    if not band_only:
        return relation(left, right)
    crowd = crowd_score(left, right)  # once: each measure below takes it
    rel = relation(left, right, crowd=crowd)
    if similarity(left, right, whole=False, crowd=crowd) < BAND_MIN_SIMILARITY and not (
        plain_near and 0 < min(rel.score, DEFAULT_MIN_SIMILARITY) <= crowd
    ):
        return None
    return rel


def scored(
    left: Sequence[Profile],
    right: Sequence[Profile],
    band_only: np.ndarray,
    plain_near: np.ndarray,
    cancel: CancelToken | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(scores, held) of candidate pairs from their texts' profiles (pair k: left[k], right[k]): each pair's
    score and the shares of each text the other holds (a_in_b, b_in_a), NaN for a pair candidate_relation does
    not keep. A text in several pairs is best given as one Profile object: its memo (Profile.filled_units, a
    crowd's text aligned with hundreds) then serves them all, and pickle sends it once with the list. With
    `cancel`, looked at first and before every pair not settled in one call (a crowd's take a millisecond each):
    once set, the pairs scored before it, the arrays as long as them."""
    if cancel is not None and cancel.cancelled:
        return np.empty(0), np.empty((0, 2))
    scores = settled_scores(left, right)  # most pairs: their shingles' score, in one call
    scores[band_only.astype(bool)] = np.nan  # candidate_relation's own rule
    held = np.full((len(left), 2), np.nan)
    for k in np.flatnonzero(np.isnan(scores)).tolist():
        if cancel is not None and cancel.cancelled:
            return scores[:k], held[:k]
        a, b = left[k], right[k]
        rel = candidate_relation(a, b, bool(band_only[k]), bool(plain_near[k]))
        if rel is not None:
            scores[k] = rel.score
            held[k] = (rel.a_in_b, rel.b_in_a)
    return scores, held


def read_and_scored(
    texts: Texts,
    rels: list[str],
    left: np.ndarray,
    right: np.ndarray,
    band_only: np.ndarray,
    plain_near: np.ndarray,
    sent_back: np.ndarray,
    stored: StoredTexts | None = None,
    boilerplate: frozenset[int] = frozenset(),
    cancel: CancelToken | None = None,
) -> tuple[list[tuple[Profile | None, str, bool | None]], tuple[np.ndarray, np.ndarray]]:
    """A read task of verification (analysis.verify_pairs): profiles_of the texts `rels`, and the pairs both of
    whose texts are among them scored on those profiles (pair k: rels[left[k]], rels[right[k]]; scored, with
    `band_only`, `plain_near` and `cancel`). Each text's profile is given back only where `sent_back` is set (its
    other pairs are scored elsewhere), None otherwise; its headline and short flag always. `stored`: where the
    scan pass stored what it needs of some of them (scratch_texts.stored_or_read: loaded, not read again)."""
    read = stored_or_read(texts, rels, stored, boilerplate)
    profiles = [prof for prof, _, _ in read]
    scores = scored(
        [profiles[k] for k in left.tolist()], [profiles[k] for k in right.tolist()], band_only, plain_near, cancel
    )
    back = sent_back.tolist()
    return [(prof if back[k] else None, head, short) for k, (prof, head, short) in enumerate(read)], scores
