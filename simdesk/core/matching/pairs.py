"""All pairs of fingerprints within a Hamming radius, exactly, by multi-index bucket probing vectorised in numpy.

The 64 bits are cut into m blocks. If two fingerprints differ in at most r bits and each block k is given a
budget t_k with sum(t_k + 1) > r, then in at least one block they differ in at most t_k bits (generalised
pigeonhole; t_k = -1 means block k is never probed). So for each probed block, every document is paired with
the documents whose block value lies within t_k bits of its own (a bucket table of 2**width entries, probed
with flip masks); each candidate is then checked on all 64 bits, so the result is exact, and a pair already
reachable through an earlier block is dropped, so it is reported once.

The partition is chosen per call from the number of fingerprints and the radius by a small cost model: wide
blocks (3 x ~21 bits) keep buckets nearly empty at a million documents so candidates stay few; narrow blocks
(4 x 16) need fewer probes when documents are few or the radius is large. Work is done in chunks of bounded
size, so memory stays in the tens of megabytes whatever the collection's shape (except for the result itself).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

import numpy as np

from simdesk.core.compiled import KERNELS
from simdesk.core.matching.radius import MAX_PAIR_RADIUS

BITS = 64
BLOCKS = 4  # the SQLite index's layout (index/segments.py): 4 blocks of 16 bits
BLOCK_BITS = 16
BLOCK_MASK = (1 << BLOCK_BITS) - 1
MAX_TABLE_BITS = 24  # a bucket table of 2**24 entries is the largest this module allocates (~130 MB of int64)
MAX_THREADS = 4
THREADS_FROM = 50_000  # fewer fingerprints: a thread pool costs more than it saves
CHUNK = 1 << 22  # probes or candidate pairs handled at once: bounds memory whatever the collection's shape

# Relative costs (nanoseconds, fitted on a 2-core EPYC with numpy 2.4) used only to choose the partition. Fitted
# so that the choice is the faster one where measured: 4 x 16 bits up to ~100,000 fingerprints at r=12 (20k:
# 0.16 s vs 0.51 s; 50k: 1.0 s vs 1.7 s), 3 x ~21 bits beyond (200k real fingerprints at r=12: 11 s vs 21 s).
COST_SORT_PER_DOC = 120.0
COST_TABLE_PER_ENTRY = 4.0
COST_PROBE = 7.0
COST_CANDIDATE = 40.0


@cache
def flip_masks(radius: int, bits: int = BLOCK_BITS) -> np.ndarray:
    """Every `bits`-bit mask with at most `radius` bits set, the empty mask first, fewer bits before more."""
    masks = [0]
    for k in range(1, radius + 1):
        for positions in combinations(range(bits), k):
            m = 0
            for p in positions:
                m |= 1 << p
            masks.append(m)
    return np.array(masks, dtype=np.int64)


def block_values(fps: np.ndarray, block: int) -> np.ndarray:
    """Block `block` (0 = lowest 16 bits) of each fingerprint in the index's 4 x 16 layout, as int64."""
    return ((fps >> np.uint64(BLOCK_BITS * block)) & np.uint64(BLOCK_MASK)).astype(np.int64)


def popcount(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x).astype(np.int8)


@dataclass(frozen=True, slots=True)
class Block:
    """Bits [shift, shift + width) of the fingerprint, probed within `budget` bits (-1: not probed)."""

    shift: int
    width: int
    budget: int


def _widths(m: int) -> list[int]:
    base, extra = divmod(BITS, m)
    return [base] * (m - extra) + [base + 1] * extra  # narrower blocks first


def _budgets(m: int, radius: int) -> list[int]:
    """Budgets t_k, as even as possible, with sum(t_k + 1) = radius + 1 (the least that stays exact)."""
    total = radius + 1 - m
    if total < 0:  # fewer than m blocks need probing, each for exact equality
        return [0] * (radius + 1) + [-1] * (m - radius - 1)
    base, extra = divmod(total, m)
    return [base + 1] * extra + [base] * (m - extra)


def _probe_count(width: int, budget: int) -> int:
    return sum(math.comb(width, k) for k in range(1, budget + 1))


def plan_cost(n: int, blocks: list[Block]) -> float:
    """Estimated nanoseconds to pair n uniformly random fingerprints with this partition."""
    cost = 0.0
    for b in blocks:
        if b.budget < 0:
            continue
        size = 1 << b.width
        per_bucket = n / size
        present = size * -math.expm1(-per_bucket)
        probes = _probe_count(b.width, b.budget)
        cost += COST_SORT_PER_DOC * n + COST_TABLE_PER_ENTRY * size
        cost += COST_PROBE * present * probes / 2
        cost += COST_CANDIDATE * (n * per_bucket / 2 + n * probes * per_bucket / 2)
    return cost


def plan(n: int, radius: int) -> list[Block]:
    """The cheapest exact partition for n fingerprints and this radius, by plan_cost."""
    best: tuple[float, list[Block]] | None = None
    for m in range(math.ceil(BITS / MAX_TABLE_BITS), 9):
        blocks, shift = [], 0
        for width, budget in zip(_widths(m), _budgets(m, radius)):
            blocks.append(Block(shift, width, budget))
            shift += width
        cost = plan_cost(n, blocks)
        if best is None or cost < best[0]:
            best = (cost, blocks)
    assert best is not None
    return best[1]


def pairs_within(fps: np.ndarray, radius: int, kernels: Any = KERNELS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All pairs (i, j), i < j, of positions in `fps` (uint64) whose Hamming distance is <= radius.

    Returns (i, j, distance) as int64, int64, int8 arrays sorted by distance, then i, then j.
    Exact: equal to a brute-force comparison of every pair. `radius` may be 0..MAX_PAIR_RADIUS.
    Among a million random fingerprints, radius 3 takes about a second and radius 8 several. With the compiled
    kernels (`kernels`, compiled.KERNELS) each block is searched by kernels.block_pairs; None: in numpy.
    """
    if not 0 <= radius <= MAX_PAIR_RADIUS:
        raise ValueError(f"radius must be between 0 and {MAX_PAIR_RADIUS}, not {radius}")
    fps = np.ascontiguousarray(fps, dtype=np.uint64)
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    if len(fps) >= 2:
        blocks = plan(len(fps), radius)
        jobs = [(block, blocks[:k]) for k, block in enumerate(blocks) if block.budget >= 0]
        threads = min(len(jobs), os.cpu_count() or 1, MAX_THREADS)
        if threads > 1 and len(fps) >= THREADS_FROM:
            # numpy releases the GIL inside its loops, so blocks probed in threads use every core
            with ThreadPoolExecutor(threads) as pool:
                for part in pool.map(
                    lambda job: list(_pairs_through_block(fps, radius, job[0], job[1], kernels)), jobs
                ):
                    found.extend(part)
        else:
            for block, earlier in jobs:
                found.extend(_pairs_through_block(fps, radius, block, earlier, kernels))
    if not found:
        empty = np.empty(0, dtype=np.int64)
        return empty, empty.copy(), np.empty(0, dtype=np.int8)
    i = np.concatenate([f[0] for f in found])
    j = np.concatenate([f[1] for f in found])
    d = np.concatenate([f[2] for f in found])
    sort = np.lexsort((j, i, d))
    return i[sort], j[sort], d[sort]


class _Table:
    """One block's bucket table: documents sorted by block value, with each bucket's start and size."""

    def __init__(self, fps: np.ndarray, block: Block) -> None:
        values = ((fps >> np.uint64(block.shift)) & np.uint64((1 << block.width) - 1)).astype(np.int32)
        self.order = np.argsort(values, kind="stable")
        self.sorted_values = values[self.order]  # int32: probing is memory-bound
        self.sorted_fps = fps[self.order]
        self.counts = np.bincount(values, minlength=1 << block.width)
        self.starts = np.cumsum(self.counts) - self.counts
        self.occupied = self.counts > 0


def _pairs_through_block(
    fps: np.ndarray, radius: int, block: Block, earlier: list[Block], kernels: Any = None
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Yield (i, j, d) arrays of the pairs within `radius` whose `block` differs in at most block.budget bits
    and that no earlier block would have found: in one call of the compiled kernel (`kernels`), else in numpy,
    in chunks."""
    table = _Table(fps, block)
    if kernels is not None:
        probed = np.array([(e.shift, e.width, e.budget) for e in earlier if e.budget >= 0], dtype=np.int64)
        masks, starts = _masks_by_top_bit(block)
        a, b, d = kernels.block_pairs(
            table.sorted_values, table.sorted_fps, table.starts, table.counts, masks, starts, radius, probed.ravel()
        )
        i, j = table.order[np.frombuffer(a, dtype=np.int64)], table.order[np.frombuffer(b, dtype=np.int64)]
        yield np.minimum(i, j), np.maximum(i, j), np.frombuffer(d, dtype=np.int8)
        return
    check = _Checker(table, radius, earlier)
    # the same bucket: every unordered pair of its members
    multi = np.flatnonzero(table.counts > 1)
    for a, b in _same_bucket_positions(table.starts[multi], table.counts[multi]):
        yield from check(a, b)
    # buckets `mask` apart: a mask whose highest set bit is h pairs a value with bit h clear with one with h
    # set, so probing only from the documents whose value has h clear meets each unordered pair once
    masks = flip_masks(block.budget, block.width)[1:].astype(np.int32)
    if not len(masks):
        return
    top = np.floor(np.log2(masks)).astype(np.int64)
    for h in range(block.width):
        masks_h = masks[top == h]
        if not len(masks_h):
            continue
        left_all = np.flatnonzero((table.sorted_values >> h) & 1 == 0)
        step = max(1, CHUNK // len(masks_h))
        for s in range(0, len(left_all), step):
            left = left_all[s : s + step]
            partner = (table.sorted_values[left][:, None] ^ masks_h[None, :]).ravel()
            hit = np.flatnonzero(table.occupied[partner])
            if not len(hit):
                continue
            a = left[hit // len(masks_h)]
            bucket = partner[hit]
            b_start, b_count = table.starts[bucket], table.counts[bucket]
            lone = b_count == 1  # the common case at scale: one document in the partner bucket
            if lone.all():
                yield from check(a, b_start)
                continue
            yield from check(a[lone], b_start[lone])
            many = ~lone
            a, b_start, b_count = a[many], b_start[many], b_count[many]
            for rows, offsets in _expand(b_count):
                yield from check(a[rows], b_start[rows] + offsets)


def _masks_by_top_bit(block: Block) -> tuple[np.ndarray, np.ndarray]:
    """The block's flip masks (the empty one left out) as int32 ordered by their highest set bit, and where
    each highest bit's masks start (block.width + 1 offsets): what kernels.block_pairs probes."""
    masks = flip_masks(block.budget, block.width)[1:].astype(np.int32)
    top = np.floor(np.log2(np.maximum(masks, 1))).astype(np.int64)
    order = np.argsort(top, kind="stable")
    starts = np.searchsorted(top[order], np.arange(block.width + 1)).astype(np.int64)
    return masks[order], starts


class _Checker:
    """Checks candidate pairs (positions in a table's sorted order) on all 64 bits."""

    def __init__(self, table: _Table, radius: int, earlier: list[Block]) -> None:
        self.table = table
        self.radius = radius
        self.earlier = [b for b in earlier if b.budget >= 0]

    def __call__(self, a: np.ndarray, b: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        sfps = self.table.sorted_fps
        x = sfps[a] ^ sfps[b]
        d = np.bitwise_count(x)
        ok = np.flatnonzero(d <= self.radius)
        if not len(ok):
            return
        x, d, a, b = x[ok], d[ok], a[ok], b[ok]
        if self.earlier:  # reachable through an earlier block: reported there, not here
            keep = np.ones(len(x), dtype=bool)
            for e in self.earlier:
                part = (x >> np.uint64(e.shift)) & np.uint64((1 << e.width) - 1)
                keep &= np.bitwise_count(part) > e.budget
            if not keep.all():
                x, d, a, b = x[keep], d[keep], a[keep], b[keep]
            if not len(x):
                return
        i, j = self.table.order[a], self.table.order[b]
        yield np.minimum(i, j), np.maximum(i, j), d.astype(np.int8)


def _same_bucket_positions(starts: np.ndarray, counts: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield (a, b) sorted positions of every unordered pair inside each bucket, in bounded chunks."""
    if not len(starts):
        return
    member_bucket = np.repeat(np.arange(len(starts)), counts)
    member_rank = np.arange(len(member_bucket)) - np.repeat(np.cumsum(counts) - counts, counts)
    member_pos = starts[member_bucket] + member_rank
    partners = counts[member_bucket] - member_rank - 1
    for rows, offsets in _expand(partners):
        yield member_pos[rows], member_pos[rows] + 1 + offsets


def _expand(sizes: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield (rows, offsets): row r repeated sizes[r] times with offsets 0..sizes[r]-1, at most ~CHUNK long."""
    total = np.cumsum(sizes)
    begin = 0
    while begin < len(sizes):
        base = total[begin - 1] if begin else 0
        end = max(int(np.searchsorted(total, base + CHUNK, side="right")), begin + 1)
        s = sizes[begin:end]
        rows = np.repeat(np.arange(begin, end), s)
        offsets = np.arange(len(rows)) - np.repeat(np.cumsum(s) - s, s)
        yield rows, offsets
        begin = end


def brute_force_pairs(fps: np.ndarray, radius: int) -> set[tuple[int, int, int]]:
    """Every pair within `radius`, by comparing each with each: the oracle the tests check against."""
    fps = np.asarray(fps, dtype=np.uint64)
    out = set()
    for i in range(len(fps)):
        d = np.bitwise_count(fps[i + 1 :] ^ fps[i])
        for k in np.flatnonzero(d <= radius):
            out.add((i, i + 1 + int(k), int(d[k])))
    return out
