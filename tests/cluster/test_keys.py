"""The permuted-key layout (6 blocks, 20 keys of ~32 bits at r = 3) finds every pair within r exactly once:
checked against a brute-force comparison of every pair, on fingerprints built to lie near each other."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings, strategies as st

from simdesk.cluster.keys import first_shared_key, key_layout, pairs_by_keys
from simdesk.core.matching.pairs import brute_force_pairs


def test_layout_at_radius_3_is_mankus():
    layout = key_layout(3)
    assert [w for _, w in layout.blocks] == [11, 11, 11, 11, 10, 10]
    assert len(layout.keys) == 20
    assert sorted({bin(m).count("1") for m in layout.masks}) == [31, 32, 33]


@st.composite
def near_fingerprints(draw):
    radius = draw(st.integers(0, 6))
    seeds = draw(st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=12))
    fps = []
    for s in seeds:
        fps.append(s)
        for _ in range(draw(st.integers(0, 4))):  # copies within and just beyond the radius
            flips = draw(st.lists(st.integers(0, 63), max_size=radius + 2, unique=True))
            fps.append(s ^ sum(1 << b for b in flips))
    return radius, np.array(fps, dtype=np.uint64)


@settings(max_examples=300, deadline=None)
@given(near_fingerprints())
def test_every_pair_within_r_shares_a_key_and_is_kept_exactly_once(case):
    radius, fps = case
    layout = key_layout(radius)
    found: Counter = Counter()
    for k, mask in enumerate(layout.masks_array()):  # the join, one key at a time, as Spark runs it
        buckets: dict[int, list[int]] = {}
        for row, value in enumerate((fps & mask).tolist()):
            buckets.setdefault(value, []).append(row)
        for rows in buckets.values():
            for x in range(len(rows)):
                for y in range(x + 1, len(rows)):
                    a, b = rows[x], rows[y]
                    xor = np.array([fps[a] ^ fps[b]], dtype=np.uint64)
                    d = int(np.bitwise_count(xor)[0])
                    if d <= radius and first_shared_key(xor, layout)[0] == k:
                        found[(a, b, d)] += 1
    assert set(found) == brute_force_pairs(fps, radius)
    assert set(found.values()) <= {1}


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 6), st.integers(0, 2**32), st.sampled_from([512, 1 << 30]))
def test_the_local_key_join_equals_brute_force_in_slices_or_whole(radius, seed, memory):
    """pairs_by_keys sorts each key's values in slices when its memory is small (512 bytes: 4 slices of
    the top key bits, each its own pass) and whole otherwise; either way every pair once, as brute force."""
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 2**64, size=40, dtype=np.uint64)
    near = base[rng.integers(0, 40, size=80)] ^ (np.uint64(1) << rng.integers(0, 64, size=80).astype(np.uint64))
    fps = np.concatenate([base, near, near[:10]])
    i, j, d = pairs_by_keys(fps, radius, memory_bytes=memory, threads=2)
    assert set(zip(i.tolist(), j.tolist(), d.tolist())) == brute_force_pairs(fps, radius)
    assert len(i) == len(brute_force_pairs(fps, radius))
    assert (np.lexsort((j, i, d)) == np.arange(len(i))).all()
