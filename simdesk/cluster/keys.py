"""The permuted-key layout of Manku, Jain and Das Sarma (WWW 2007) for finding, as an equi-join, every pair of
64-bit fingerprints within Hamming distance r.

The 64 bits are cut into m = r + 3 blocks. Two fingerprints within r bits differ in at most r blocks, so at
least 3 blocks are identical (pigeonhole); a *key* is the bits of 3 of the m blocks, and the C(m, 3) keys
together surely put every such pair in one bucket at least once. At r = 3: 6 blocks of 11/11/11/11/10/10
bits, 20 keys of 31..33 bits, so at a billion fingerprints a bucket holds ~0.2 others (the desktop's index
uses 4 blocks of 16 bits, whose buckets hold n / 65,536 each: candidates grow as n^2 / 2^16).

A pair found through key k is kept only when k is the first key (in `KeyLayout.keys` order) on which the two
agree, so the join reports each pair exactly once, with no distinct() over all candidates.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

BITS = 64
KEY_BLOCKS = 3  # blocks per key: ~32-bit keys at r = 3 (Manku et al.'s choice for 8 billion pages)
MAX_RADIUS = 12


@dataclass(frozen=True)
class KeyLayout:
    """Blocks (shift, width) and, for each key, its blocks and its mask (the key's bits of the fingerprint)."""

    radius: int
    blocks: tuple[tuple[int, int], ...]
    keys: tuple[tuple[int, ...], ...]
    masks: tuple[int, ...]

    def masks_array(self) -> np.ndarray:
        return np.array(self.masks, dtype=np.uint64)


@lru_cache(maxsize=None)
def key_layout(radius: int) -> KeyLayout:
    """The layout for pairs within `radius` bits (0..12): radius + 3 blocks, wider blocks first."""
    if not 0 <= radius <= MAX_RADIUS:
        raise ValueError(f"radius must be between 0 and {MAX_RADIUS}, not {radius}")
    m = radius + KEY_BLOCKS
    base, extra = divmod(BITS, m)
    blocks, shift = [], 0
    for width in [base + 1] * extra + [base] * (m - extra):
        blocks.append((shift, width))
        shift += width
    keys = tuple(combinations(range(m), KEY_BLOCKS))
    masks = tuple(sum(((1 << w) - 1) << s for s, w in (blocks[b] for b in key)) for key in keys)
    return KeyLayout(radius, tuple(blocks), keys, masks)


def first_shared_key(x: np.ndarray, layout: KeyLayout) -> np.ndarray:
    """For each XOR of two fingerprints, the index of the first key on which they agree (len(keys) if none)."""
    x = np.asarray(x, dtype=np.uint64)
    agree = (x[:, None] & layout.masks_array()[None, :]) == 0
    return np.where(agree.any(axis=1), agree.argmax(axis=1), len(layout.masks))


def pairs_by_keys(fps: np.ndarray, radius: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair (i < j) of positions in `fps` within `radius` bits, by the key join done in numpy (sort each
    key's values, pair the members of each run). Returns (i, j, distance) sorted by distance, i, j: the
    same arrays as simdesk.core.pairs.pairs_within. The Spark engine runs the same join with Spark's."""
    fps = np.ascontiguousarray(fps, dtype=np.uint64)
    layout = key_layout(radius)
    found_i, found_j, found_d = [], [], []
    for k, mask in enumerate(layout.masks_array()):
        values = fps & mask
        order = np.argsort(values, kind="stable")
        a, b = _run_pairs(values[order])
        a, b = order[a], order[b]
        x = fps[a] ^ fps[b]
        d = np.bitwise_count(x)
        near = d <= radius
        a, b, x, d = a[near], b[near], x[near], d[near]
        once = first_shared_key(x, layout) == k
        found_i.append(np.minimum(a, b)[once])
        found_j.append(np.maximum(a, b)[once])
        found_d.append(d[once].astype(np.int8))
    i, j, d = (np.concatenate(found_i).astype(np.int64), np.concatenate(found_j).astype(np.int64),
               np.concatenate(found_d))
    order = np.lexsort((j, i, d))
    return i[order], j[order], d[order]


def _run_pairs(sorted_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions (a, b), a < b, of every two elements of a sorted array that are equal."""
    n = len(sorted_values)
    if n < 2:
        e = np.empty(0, dtype=np.int64)
        return e, e.copy()
    starts = np.flatnonzero(np.r_[True, sorted_values[1:] != sorted_values[:-1]])
    counts = np.diff(np.r_[starts, n])
    multi = counts > 1
    starts, counts = starts[multi], counts[multi]
    members = np.repeat(starts, counts) + (np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts))
    partners = np.repeat(counts, counts) - (members - np.repeat(starts, counts)) - 1
    a = np.repeat(members, partners)
    offsets = np.arange(len(a)) - np.repeat(np.cumsum(partners) - partners, partners)
    return a, a + 1 + offsets
