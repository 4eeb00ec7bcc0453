"""pairs_within is exact: it equals the brute-force oracle on random and clustered fingerprints, any radius."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from simdesk.core.matching import pairs
from simdesk.core.matching.pairs import brute_force_pairs, pairs_within
from simdesk.core.matching.radius import MAX_PAIR_RADIUS


def as_set(result: tuple[np.ndarray, np.ndarray, np.ndarray]) -> set[tuple[int, int, int]]:
    i, j, d = result
    return set(zip(i.tolist(), j.tolist(), d.tolist()))


def check_exact(fps: np.ndarray, radius: int) -> None:
    i, j, d = result = pairs_within(fps, radius)
    assert i.dtype == np.int64 and j.dtype == np.int64 and d.dtype == np.int8
    assert len(as_set(result)) == len(i), "a pair was reported twice"
    assert as_set(result) == brute_force_pairs(fps, radius)
    assert (i < j).all()
    order = np.lexsort((j, i, d))
    assert (order == np.arange(len(i))).all(), "not sorted by (distance, i, j)"


def clustered(seed: int, n: int, spread: int) -> np.ndarray:
    """Fingerprints around a few centres, each within `spread` random bit flips, with exact copies."""
    rng = np.random.default_rng(seed)
    centres = rng.integers(0, 2**64, size=max(1, n // 8), dtype=np.uint64)
    fps = centres[rng.integers(0, len(centres), size=n)]
    for _ in range(spread):
        flip = rng.random(n) < 0.6
        fps[flip] ^= np.uint64(1) << rng.integers(0, 64, size=int(flip.sum())).astype(np.uint64)
    return fps


# The compiled search (kernels.block_pairs, kernels.near_pairs) against the numpy one: the same arrays.
try:
    KERNELS = importlib.import_module("simdesk.core.kernels")
except ImportError:  # a checkout run without `pip install`: the numpy path is all there is
    KERNELS = None
compiled = pytest.mark.skipif(KERNELS is None, reason="the compiled kernels are not built (pip install -e .)")


def same_arrays(left: tuple[np.ndarray, ...], right: tuple[np.ndarray, ...]) -> bool:
    return all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(left, right, strict=True))


def forced_plan(blocks: int, radius: int) -> list[pairs.Block]:
    out, shift = [], 0
    for width, budget in zip(pairs._widths(blocks), pairs._budgets(blocks, radius)):
        out.append(pairs.Block(shift, width, budget))
        shift += width
    return out


@settings(max_examples=40, deadline=None)
@given(fps=st.lists(st.integers(0, 2**64 - 1), max_size=60), radius=st.integers(0, MAX_PAIR_RADIUS))
def test_random_fingerprints(fps: list[int], radius: int) -> None:
    check_exact(np.array(fps, dtype=np.uint64), radius)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(0, 400),
    spread=st.integers(0, 14),
    radius=st.integers(0, MAX_PAIR_RADIUS),
    blocks=st.sampled_from([None, 3, 4, 5, 8]),
)
def test_clustered_fingerprints(seed: int, n: int, spread: int, radius: int, blocks: int | None) -> None:
    """Clustered fingerprints with exact copies, the cost model's partition or a forced one: exact, and the
    compiled search (when built) returns the numpy search's arrays."""
    fps = clustered(seed, n, spread)
    with pytest.MonkeyPatch.context() as mp:
        if blocks is not None:
            mp.setattr(pairs, "plan", lambda n, r: forced_plan(blocks, r))
        check_exact(fps, radius)
        if KERNELS is not None:
            assert same_arrays(pairs_within(fps, radius, kernels=None), pairs_within(fps, radius, kernels=KERNELS))


@pytest.mark.parametrize("radius", range(MAX_PAIR_RADIUS + 1))
@pytest.mark.parametrize("blocks", [3, 4, 5, 8])
def test_every_partition_is_exact(monkeypatch: pytest.MonkeyPatch, radius: int, blocks: int) -> None:
    """Whatever partition the cost model picks, the answer is the same."""

    monkeypatch.setattr(pairs, "plan", lambda n, r: forced_plan(blocks, r))
    check_exact(clustered(radius * 10 + blocks, 300, radius + 2), radius)


def test_threads_and_chunks_give_the_same_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    fps = clustered(7, 3000, 6)
    expected = pairs_within(fps, 8)
    monkeypatch.setattr(pairs, "THREADS_FROM", 0)
    monkeypatch.setattr(pairs, "CHUNK", 97)  # many tiny chunks, a bucket larger than a chunk
    got = pairs_within(fps, 8)
    assert all(np.array_equal(a, b) for a, b in zip(expected, got))


def test_all_identical() -> None:
    fps = np.full(50, 0xDEADBEEF, dtype=np.uint64)
    i, j, d = pairs_within(fps, 0)
    assert len(i) == 50 * 49 // 2 and not d.any()


def test_plan_prefers_wide_blocks_at_scale() -> None:
    assert [b.width for b in pairs.plan(1_000_000, 8)] == [21, 21, 22]
    for n in (10, 20_000, 1_000_000):
        for r in range(MAX_PAIR_RADIUS + 1):
            blocks = pairs.plan(n, r)
            assert sum(b.width for b in blocks) == 64
            assert sum(b.budget + 1 for b in blocks) > r  # the pigeonhole condition that makes it exact


@pytest.mark.parametrize("radius", [-1, MAX_PAIR_RADIUS + 1])
def test_radius_out_of_range(radius: int) -> None:
    with pytest.raises(ValueError):
        pairs_within(np.zeros(3, dtype=np.uint64), radius)


def test_flip_masks() -> None:
    masks = pairs.flip_masks(2, 5)
    assert masks[0] == 0 and len(masks) == 1 + 5 + 10 and len(set(masks.tolist())) == len(masks)


@compiled
def test_compiled_search_in_threads_equals_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks searched in threads (the compiled search lets go of the GIL): the numpy search's arrays."""
    fps = clustered(11, 4000, 7)
    monkeypatch.setattr(pairs, "THREADS_FROM", 0)
    assert same_arrays(pairs_within(fps, 12, kernels=None), pairs_within(fps, 12, kernels=KERNELS))


@compiled
def test_block_pairs_refuses_inconsistent_arrays() -> None:
    """Arrays that do not describe one block's table are refused before any memory is read."""
    block = pairs.Block(0, 4, 1)
    masks, starts = pairs._masks_by_top_bit(block)
    values = np.array([0, 1], dtype=np.int32)  # one bit apart: within the block's budget
    fps = np.array([0, 1], dtype=np.uint64)
    counts = np.bincount(values, minlength=16).astype(np.int64)
    first = (np.cumsum(counts) - counts).astype(np.int64)
    none = np.empty(0, dtype=np.int64)
    a, b, d = KERNELS.block_pairs(values, fps, first, counts, masks, starts, 2, none)
    assert (np.frombuffer(a, dtype=np.int64).tolist(), np.frombuffer(b, dtype=np.int64).tolist()) == ([0], [1])
    assert np.frombuffer(d, dtype=np.int8).tolist() == [1]
    with pytest.raises(ValueError):
        KERNELS.block_pairs(np.array([0, 99], dtype=np.int32), fps, first, counts, masks, starts, 2, none)
    with pytest.raises(ValueError):
        KERNELS.block_pairs(values, fps[:1], first, counts, masks, starts, 2, none)
    with pytest.raises(ValueError):
        KERNELS.block_pairs(values, fps, first, counts, masks[::-1].copy(), starts, 2, none)
    with pytest.raises(ValueError):
        KERNELS.block_pairs(values, fps, first, counts, masks, starts, 2, np.zeros(2, dtype=np.int64))
