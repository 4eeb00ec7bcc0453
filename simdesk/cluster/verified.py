"""Verified mode's candidates, scores and groups for both cluster engines, by the desktop's rules
(core.matching.analysis, as a first analysis of a fresh index runs them): one representative per class of
identical copies, the length-aware SimHash search with its crowd rule, the MinHash band pairs of the
desktop's band keys (kept as the index keeps them) with the single-band gate, the band-only and large copy
group rules, then the other copies given their representative's pairs and core.groups. An engine supplies
the boilerplate-free fingerprints and the scoring of the candidates' texts (in worker processes, or on
Spark's executors); everything that decides a pair is here, so both engines give what `simdesk scan` gives.

    found = candidates_of(col, plan.verify)
    scores, held = engine_scores(found)          # pair_scores.scored on each pair's two profiles
    pairs, groups = verified_tables(col, found, scores, held, plan)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from simdesk.cluster.plan import Collection, ScanPlan, groups_table, pairs_table
from simdesk.core.fingerprint.minhash import DESKTOP
from simdesk.core.index.layout import BAND_KEY_BYTES
from simdesk.core.matching.analysis import (
    VerifySettings,
    band_flags,
    candidates,
    kept_candidates,
    verified_grouper,
)
from simdesk.core.matching.copies import Copies, copied_shares, copied_values, identical_copies, with_copies


@dataclass(frozen=True)
class Candidates:
    """The candidate pairs of a collection's representatives (snapshot rows, path order; i < j), as the
    desktop's analysis finds them: distance and scaled distance of the clean fingerprints, `band_only`
    (beyond the radius: only the bands proposed it) and `plain_near` (band_flags)."""

    copies: Copies
    i: np.ndarray
    j: np.ndarray
    d: np.ndarray
    scaled: np.ndarray
    band_only: np.ndarray
    plain_near: np.ndarray

    def __len__(self) -> int:
        return len(self.i)


def stored_band_keys(bands: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """Each document's MinHash band keys (Document.bands) as the index keeps and returns them (Index.band_keys:
    the low BAND_KEY_BYTES bytes of each key, rows x DESKTOP.bands uint32), and whether it has none."""
    width = 4 * DESKTOP.bands
    empty = np.array([len(b) != width for b in bands], dtype=bool)
    keys = np.zeros((len(bands), DESKTOP.bands), dtype=np.uint32)
    if (~empty).any():
        full = np.frombuffer(b"".join(b for b in bands if len(b) == width), dtype="<u4").reshape(-1, DESKTOP.bands)
        keys[~empty] = full & np.uint32((1 << (8 * BAND_KEY_BYTES)) - 1)
    return keys, empty


def candidates_of(col: Collection, verify: VerifySettings) -> Candidates:
    """The desktop's candidate pairs of a collection whose boilerplate-free fingerprints are in `col.clean`."""
    snap = col.snapshot()
    copies = identical_copies(snap.hashes)  # one representative searched and verified per content
    dirty = np.zeros(len(col), dtype=bool)
    dirty[copies.representatives] = True  # a fresh index: every representative is searched
    keys, empty = stored_band_keys([d.bands for d in col.docs])
    i, j, d, scaled = candidates(col.clean, snap, copies, dirty, keys, empty, dict, verify)
    band_only, plain_near = band_flags(i, j, d, col.fingerprints, col.chars, verify)
    return Candidates(copies, i, j, d, scaled, band_only, plain_near)


def verified_tables(col: Collection, found: Candidates, scores: np.ndarray, held: np.ndarray, plan: ScanPlan):
    """(pairs table, groups table): the kept candidates given to every copy of their classes, the pairs that
    reach the minimum similarity, and the groups at the scan's threshold."""
    keep = kept_candidates(scores, found.band_only, found.plain_near)
    i, j, source, swapped = with_copies(found.copies, found.i[keep], found.j[keep])
    d = copied_values(found.d[keep], source, 0)
    scaled = copied_values(found.scaled[keep], source, 0)
    scores, held = copied_values(scores[keep], source, 1.0), copied_shares(held[keep], source, swapped)
    verify = plan.verify
    snap = replace(col.snapshot(col.clean), copy_of=found.copies.rep)
    grouping = verified_grouper(snap, i, j, scaled, scores, held, verify).at(plan.group_threshold)
    ok = scores >= verify.min_similarity
    return pairs_table(col.doc_ids, i[ok], j[ok], d[ok], scaled[ok], scores[ok], held[ok]), groups_table(grouping)
