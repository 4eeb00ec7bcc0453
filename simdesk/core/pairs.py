"""All pairs of fingerprints within a Hamming radius, by multi-index block probing, vectorised with numpy.

The 64 bits are cut into 4 blocks of 16. Two fingerprints within distance r differ in at most r // 4 bits in
at least one block (pigeonhole), so probing, in each block, the values within r // 4 bits of each document's
own finds every pair; each candidate is then checked on all 64 bits, so the result is exact.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import numpy as np

BLOCKS = 4
BLOCK_BITS = 16
BLOCK_MASK = (1 << BLOCK_BITS) - 1
MAX_PAIR_RADIUS = 12
CHUNK = 4_000_000  # candidate pairs checked at once: bounds memory whatever the collection's shape


@lru_cache(maxsize=None)
def flip_masks(radius: int, bits: int = BLOCK_BITS) -> np.ndarray:
    """Every `bits`-bit mask with at most `radius` bits set, the empty mask first."""
    masks = [0]
    for k in range(1, radius + 1):
        for positions in combinations(range(bits), k):
            m = 0
            for p in positions:
                m |= 1 << p
            masks.append(m)
    return np.array(masks, dtype=np.int64)


def block_values(fps: np.ndarray, block: int) -> np.ndarray:
    """Block `block` (0 = lowest 16 bits) of each fingerprint, as int64."""
    return ((fps >> np.uint64(BLOCK_BITS * block)) & np.uint64(BLOCK_MASK)).astype(np.int64)


def popcount(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x).astype(np.int8)


def pairs_within(fps: np.ndarray, radius: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All pairs (i, j), i < j, of positions in `fps` (uint64) whose Hamming distance is <= radius.

    Returns (i, j, distance) as int64, int64, int8 arrays sorted by distance, then i, then j.
    Exact: equal to a brute-force comparison of every pair. `radius` may be 0..MAX_PAIR_RADIUS.
    """
    if not 0 <= radius <= MAX_PAIR_RADIUS:
        raise ValueError(f"radius must be between 0 and {MAX_PAIR_RADIUS}, not {radius}")
    fps = np.ascontiguousarray(fps, dtype=np.uint64)
    n = len(fps)
    found_i, found_j, found_d = [], [], []
    if n >= 2:
        per_block = radius // BLOCKS
        masks = flip_masks(per_block)
        for block in range(BLOCKS):
            values = block_values(fps, block)
            order = np.argsort(values, kind="stable")
            counts = np.bincount(values, minlength=BLOCK_MASK + 1)
            starts = np.cumsum(counts) - counts
            present = np.flatnonzero(counts)
            for mask in masks:
                partner = present ^ mask
                keep = counts[partner] > 0
                if mask == 0:
                    keep &= counts[present] > 1
                else:
                    keep &= present < partner  # each unordered pair of buckets once
                for i, j in _bucket_pairs(present[keep], partner[keep], counts, starts, order, mask == 0):
                    d = popcount(fps[i] ^ fps[j])
                    ok = d <= radius
                    # a pair already found through an earlier block is dropped here
                    x = fps[i] ^ fps[j]
                    for earlier in range(block):
                        ok &= popcount((x >> np.uint64(BLOCK_BITS * earlier)) & np.uint64(BLOCK_MASK)) > per_block
                    if ok.any():
                        i, j, d = i[ok], j[ok], d[ok]
                        lo, hi = np.minimum(i, j), np.maximum(i, j)
                        found_i.append(lo)
                        found_j.append(hi)
                        found_d.append(d)
    if not found_i:
        empty = np.empty(0, dtype=np.int64)
        return empty, empty.copy(), np.empty(0, dtype=np.int8)
    i = np.concatenate(found_i)
    j = np.concatenate(found_j)
    d = np.concatenate(found_d)
    sort = np.lexsort((j, i, d))
    return i[sort], j[sort], d[sort]


def _bucket_pairs(left_buckets, right_buckets, counts, starts, order, same: bool):
    """Yield (i, j) document positions pairing every member of each left bucket with every member of the
    matching right bucket (for the same bucket, each unordered pair once), in bounded chunks."""
    if len(left_buckets) == 0:
        return
    # one row per member of a left bucket: its sorted position and how many partners it has
    lcount = counts[left_buckets]
    lstart = starts[left_buckets]
    rstart = starts[right_buckets]
    member_bucket = np.repeat(np.arange(len(left_buckets)), lcount)
    member_rank = np.arange(len(member_bucket)) - np.repeat(np.cumsum(lcount) - lcount, lcount)
    member_pos = lstart[member_bucket] + member_rank
    if same:
        partners = lcount[member_bucket] - member_rank - 1
        partner_first = member_pos + 1
    else:
        partners = counts[right_buckets][member_bucket]
        partner_first = rstart[member_bucket]
    total = np.cumsum(partners)
    begin = 0
    while begin < len(partners):
        # as many members as keep the candidates of this chunk under CHUNK (at least one member)
        base = total[begin - 1] if begin else 0
        end = int(np.searchsorted(total, base + CHUNK, side="right"))
        end = max(end, begin + 1)
        p = partners[begin:end]
        rows = np.repeat(np.arange(begin, end), p)
        offsets = np.arange(len(rows)) - np.repeat(np.cumsum(p) - p, p)
        yield order[member_pos[rows]], order[partner_first[rows] + offsets]
        begin = end


def brute_force_pairs(fps: np.ndarray, radius: int) -> set[tuple[int, int, int]]:
    """Every pair within `radius`, by comparing each with each: the oracle the tests check against."""
    fps = np.asarray(fps, dtype=np.uint64)
    out = set()
    for i in range(len(fps)):
        d = np.bitwise_count(fps[i + 1:] ^ fps[i])
        for k in np.flatnonzero(d <= radius):
            out.add((i, i + 1 + int(k), int(d[k])))
    return out
