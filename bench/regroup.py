"""Regrouping: moving the threshold over the whole range at a collection's full size, from its index."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from pathlib import Path

# 20 moves that sweep the whole range 0..12 back and forth, big jumps and small
MOVES = (3, 0, 12, 6, 1, 9, 4, 11, 2, 8, 5, 10, 7, 12, 0, 6, 3, 9, 1, 11)
FIRST_SCREEN = 50  # groups a window shows at once


def regroup_figures(db: Path) -> Iterator[tuple[str, float, str]]:
    from simdesk.core import MAX_THRESHOLD, Grouper, Index, pairs_within

    with Index(db, create=False) as index:
        started = time.perf_counter()
        snap = index.snapshot()
        read = time.perf_counter()
        i, j, d = pairs_within(snap.fingerprints, MAX_THRESHOLD)
        paired = time.perf_counter()
        grouper = Grouper(snap, i, j, d, max_threshold=MAX_THRESHOLD, ignored=index.ignored_pairs())
        ready = time.perf_counter()
    yield "regroup_documents", len(snap), "documents"
    yield "regroup_snapshot_seconds", read - started, "s (read the index once)"
    yield f"pairs_r{MAX_THRESHOLD}_index_seconds", paired - read, f"s ({len(i)} pairs within {MAX_THRESHOLD} bits)"
    yield "regroup_grouper_seconds", ready - paired, "s (sort the pairs once)"
    moves, screens = [], []
    for threshold in MOVES:
        grouper._cache.clear()  # every move regroups from the pairs, as a fresh Grouper would  # noqa: SLF001
        t = time.perf_counter()
        grouping = grouper.at(threshold)
        len(grouping)
        moved = time.perf_counter()
        for k in range(min(FIRST_SCREEN, len(grouping))):
            grouping.group(k)
        moves.append(moved - t)
        screens.append(time.perf_counter() - moved)
    yield "regroup_median_ms", 1000 * statistics.median(moves), f"ms (median of {len(moves)} moves 0..12; target <= 50)"
    yield "regroup_max_ms", 1000 * max(moves), "ms"
    yield (
        "regroup_first_screen_median_ms",
        1000 * statistics.median(screens),
        f"ms (build the first {FIRST_SCREEN} groups)",
    )
