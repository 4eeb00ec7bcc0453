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

import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache, partial
from itertools import combinations

import numpy as np

from simdesk.core.matching.radius import MAX_PAIR_RADIUS

BITS = 64
KEY_BLOCKS = 3  # blocks per key: ~32-bit keys at r = 3 (Manku et al.'s choice for 8 billion pages)
SORT_MEMORY = 512 * 1024 * 1024  # packed key values sorted at once by all threads: bounds the local join's memory
PASS_CHUNK = 1 << 22  # fingerprints whose keys are computed at once in a pass (~100 MB of temporaries)


@dataclass(frozen=True)
class KeyLayout:
    """Blocks (shift, width) and, for each key, its blocks and its mask (the key's bits of the fingerprint)."""

    radius: int
    blocks: tuple[tuple[int, int], ...]
    keys: tuple[tuple[int, ...], ...]
    masks: tuple[int, ...]

    def masks_array(self) -> np.ndarray:
        return np.array(self.masks, dtype=np.uint64)


@cache
def key_layout(radius: int) -> KeyLayout:
    """The layout for pairs within `radius` bits (0..12): radius + 3 blocks, wider blocks first."""
    if not 0 <= radius <= MAX_PAIR_RADIUS:
        raise ValueError(f"radius must be between 0 and {MAX_PAIR_RADIUS}, not {radius}")
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


def pairs_by_keys(
    fps: np.ndarray, radius: int, memory_bytes: int = SORT_MEMORY, threads: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair (i < j) of positions in `fps` within `radius` bits, by the key join done on one machine: for
    each key, each fingerprint's key bits (~32 at r = 3) and its position packed into one 64-bit value, the
    values sorted, the members of each run of one key checked on all 64 bits. Returns (i, j, distance) sorted
    by distance, i, j: the same arrays as simdesk.core.matching.pairs.pairs_within. The Spark engine runs the same join.

    Memory is bounded whatever n: a key's packed values are taken in 2**p slices by their top key bits (one
    pass over `fps` per slice), p chosen so that the slices sorted at once by all threads hold at most
    `memory_bytes` (a thread's peak is about three times its slice: the values, their keys, the run search).
    Besides that, only `fps` itself (which may be a numpy memmap) and the pairs found grow with n. `threads`
    (0: up to 2) sort slices at once (numpy sorts without the GIL). Up to 2**31 fingerprints.
    """
    fps = np.asarray(fps, dtype=np.uint64)
    n = len(fps)
    # below r = 3 the keys would leave no bits for the position; r = 3's keys find every pair within less too
    layout = key_layout(max(radius, KEY_BLOCKS))
    if n < 2:
        e = np.empty(0, dtype=np.int64)
        return e, e.copy(), np.empty(0, dtype=np.int8)
    if n > 1 << 31:
        raise ValueError(f"{n} fingerprints: at most 2**31 (positions take 31 bits of the packed value)")
    workers = threads or min(2, os.cpu_count() or 1)
    slice_bits = max(0, math.ceil(math.log2(max(1.0, n * 8 * workers / memory_bytes))))
    tasks = [(k, part) for k in range(len(layout.keys)) for part in range(1 << slice_bits)]
    run = partial(_slice_pairs, fps, layout, radius, slice_bits)
    if workers > 1:
        with ThreadPoolExecutor(workers) as pool:
            found = list(pool.map(run, tasks))
    else:
        found = [run(t) for t in tasks]
    i = np.concatenate([f[0] for f in found])
    j = np.concatenate([f[1] for f in found])
    d = np.concatenate([f[2] for f in found])
    order = np.lexsort((j, i, d))
    return i[order], j[order], d[order]


def key_values(fps: np.ndarray, layout: KeyLayout, k: int) -> np.ndarray:
    """The bits of key k of each fingerprint, its blocks side by side (a number below 2**key_bits(k))."""
    out = np.zeros(len(fps), dtype=np.uint64)
    block = np.empty_like(out)
    for b in layout.keys[k]:
        shift, width = layout.blocks[b]
        np.right_shift(fps, np.uint64(shift), out=block)
        block &= np.uint64((1 << width) - 1)
        out <<= np.uint64(width)
        out |= block
    return out


def key_bits(layout: KeyLayout, k: int) -> int:
    return sum(layout.blocks[b][1] for b in layout.keys[k])


def _slice_pairs(fps: np.ndarray, layout: KeyLayout, radius: int, slice_bits: int, task: tuple[int, int]):
    """The pairs kept for key k among the fingerprints whose key's top `slice_bits` bits are `part`."""
    k, part = task
    width = key_bits(layout, k)
    low = width - slice_bits
    pos_bits = 64 - width
    packed = []
    for start in range(0, len(fps), PASS_CHUNK):
        kv = key_values(fps[start : start + PASS_CHUNK], layout, k)
        if slice_bits:
            rows = np.flatnonzero((kv >> np.uint64(low)) == np.uint64(part)).astype(np.uint64)
            kv = kv[rows]
            rows += np.uint64(start)
        else:
            rows = np.arange(start, start + len(kv), dtype=np.uint64)
        kv <<= np.uint64(pos_bits)
        kv |= rows
        packed.append(kv)
        del kv, rows
    values = np.concatenate(packed)
    del packed
    values.sort()
    keys = values >> np.uint64(pos_bits)
    a, b = _run_pairs(keys)
    del keys
    mask = np.uint64((1 << pos_bits) - 1)
    a = (values[a] & mask).astype(np.int64)
    b = (values[b] & mask).astype(np.int64)
    del values
    x = fps[a] ^ fps[b]
    d = np.bitwise_count(x)
    near = d <= radius
    a, b, x, d = a[near], b[near], x[near], d[near]
    once = first_shared_key(x, layout) == k
    return np.minimum(a, b)[once], np.maximum(a, b)[once], d[once].astype(np.int8)


def _run_pairs(sorted_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions (a, b), a < b, of every two elements of a sorted array that are equal."""
    same = np.flatnonzero(sorted_values[1:] == sorted_values[:-1])  # element p equals p + 1 (few: no n-long temps)
    if not len(same):
        e = np.empty(0, dtype=np.int64)
        return e, e.copy()
    first = np.r_[True, np.diff(same) != 1]  # a run of k consecutive links has k + 1 members
    starts = same[first]
    counts = np.diff(np.r_[np.flatnonzero(first), len(same)]) + 1
    members = np.repeat(starts, counts) + (np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts))
    partners = np.repeat(counts, counts) - (members - np.repeat(starts, counts)) - 1
    a = np.repeat(members, partners)
    offsets = np.arange(len(a)) - np.repeat(np.cumsum(partners) - partners, partners)
    return a, a + 1 + offsets
