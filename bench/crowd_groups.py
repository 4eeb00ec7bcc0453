"""Grouping every threshold of a crowd (what a review prepares so the slider regroups at once): the time of
`Grouper.at(t)` and the rows' groups at t = 0..12, on verified pairs of a crowd, against another version.

    python -m bench.crowd_groups [--rows 5002] [--pairs 339295] [--baseline DIR] [--rounds 3]
    python -m bench.crowd_groups --index DB --folder DIR [--baseline DIR]   # an analysed index's pairs

Without `--index`: a synthetic crowd, `--rows` texts of which `--pairs` random pairs are verified copies, with
random distances 0..12, scores and shares (tied at the least similarity, under it, not measured), most
components chains the grouping splits. With `--index`: the pairs `analyse` returns for an index scanned before
(its scores kept, so nothing is verified again). Each version runs in its own process, alternately, `--rounds`
times; `--baseline` is a folder holding another version's `simdesk` package (`git archive REV simdesk | tar -x
-C DIR`). Prints `name value unit` lines: each version's best total, the ratio, and whether the groups (each
row's group and each group's centre) are equal at every threshold.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from pathlib import Path

import numpy as np

from bench import versions

THRESHOLDS = range(13)


def synthetic_grouper(rows: int, pairs: int, seed: int = 7):
    from simdesk.core import Grouper, Snapshot

    rng = np.random.default_rng(seed)
    codes = np.unique(rng.integers(0, rows * rows, size=int(pairs * 2.3)))
    a, b = codes // rows, codes % rows
    i, j = a[a < b], b[a < b]
    pick = np.sort(rng.choice(len(i), size=min(pairs, len(i)), replace=False))
    i, j = i[pick], j[pick]
    scores = rng.choice(np.array([0.6, 0.7, 0.8, 0.95, 1.0]), size=len(i), p=[0.05, 0.1, 0.3, 0.3, 0.25])
    held = rng.choice(np.array([0.5, 0.7, 0.9, 1.0, np.nan]), size=(len(i), 2), p=[0.1, 0.1, 0.3, 0.4, 0.1])
    snap = Snapshot(
        np.arange(1, rows + 1, dtype=np.int64),
        rng.integers(0, 2**63, size=rows).astype(np.uint64),
        np.full(rows, 100, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
        np.full(rows, 50),
        [f"f{k:06d}.txt" for k in range(rows)],
        [f"h{k}" for k in range(rows)],
        ["utf-8"] * rows,
    )
    d = rng.integers(0, 13, size=len(i))
    return Grouper(snap, i, j, d, scores=scores, min_similarity=0.7, held=held)


def measure(args: argparse.Namespace) -> dict[str, object]:
    """This process's version: the time of each threshold's grouping and a digest of its groups."""
    if args.index is not None:
        from simdesk.core import Index, analyse

        grouper = analyse(args.folder, Index(args.index))
    else:
        grouper = synthetic_grouper(args.rows, args.pairs)
    times, digests = [], []
    for t in THRESHOLDS:
        started = time.perf_counter()
        grouping = grouper.at(t)
        rows = grouping.row_groups
        times.append(time.perf_counter() - started)
        central = np.zeros(len(rows), dtype=bool)
        central[grouping.representatives] = True
        digests.append(hashlib.sha1(rows.astype(np.int64).tobytes() + central.tobytes()).hexdigest())
    return {"pairs": len(grouper.i), "times": times, "digests": digests}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=5002)
    parser.add_argument("--pairs", type=int, default=339295)
    parser.add_argument("--index", type=Path, help="an index scanned before (with --folder)")
    parser.add_argument("--folder", type=Path, help="the folder of --index")
    got = versions.measured(parser, measure, __file__)
    if got is None:
        return
    args, runs, load = got
    best = {name: min(sum(r["times"]) for r in rs) for name, rs in runs.items()}
    print(f"crowd_groups_pairs {runs['this'][0]['pairs']} pairs")
    for name in runs:
        print(f"crowd_groups_{name}_code {runs[name][0]['code']}")
    for name, seconds in best.items():
        per = [min(r["times"][t] for r in runs[name]) for t in THRESHOLDS]
        print(
            f"crowd_groups_{name}_seconds {seconds:.3f} s (best of {args.rounds}, load {load:.1f}; by threshold "
            + " ".join(f"{x:.3f}" for x in per)
            + ")"
        )
    if "baseline" in best:
        print(f"crowd_groups_speedup {best['baseline'] / best['this']:.1f} x (baseline / this)")
        equal = all(r["digests"] == runs["this"][0]["digests"] for rs in runs.values() for r in rs)
        print(f"crowd_groups_equal {int(equal)} (1: the same groups and centres at every threshold)")


if __name__ == "__main__":
    main()
