"""The permuted-key layout (6 blocks, 20 keys of ~32 bits at r = 3) finds every pair within r exactly once:
checked against a brute-force comparison of every pair, on fingerprints built to lie near each other."""
from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simdesk.cluster.keys import first_shared_key, key_layout
from simdesk.core.pairs import brute_force_pairs


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
