"""The candidate search, compiled against numpy (`SIMDESK_PURE=1`), each in its own process, alternating (CPU
seconds; the same arrays checked by digest): pairs_within at the verified mode's radius (12) on n fingerprints,
and candidate_pairs (the short texts' wider radii compared with every longer text as well) on the same
fingerprints with their texts' lengths.

    python -m bench.pair_search [--db INDEX] [--sizes 20000,200000] [--rounds 2]

With `--db`, the plain fingerprints and lengths of an index's documents with features (e.g. bench.million's);
otherwise bench.pairs_bench's synthetic fingerprints with random lengths. Prints `name value unit` lines.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

SEARCHES = ("pairs_within", "candidate_pairs")


def source(db: Path | None, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(fingerprints, characters) of the first n documents with features."""
    if db is None:
        from bench.pairs_bench import synthetic_fingerprints

        return synthetic_fingerprints(n), np.random.default_rng(3).integers(20, 4000, size=n)
    from simdesk.core import Index

    with Index(db) as index:
        snap = index.snapshot()
    keep = snap.fingerprints != 0
    return snap.fingerprints[keep][:n], snap.chars[keep][:n]


def measure(db: Path | None, n: int) -> dict:
    """CPU seconds of each search in this process and a digest of its arrays."""
    from simdesk.core import VerifySettings, candidate_pairs, pairs_within

    fps, chars = source(db, n)
    verify = VerifySettings()
    out = {}
    for name in SEARCHES:
        started = time.process_time()
        found = pairs_within(fps, verify.long_radius) if name == "pairs_within" else candidate_pairs(fps, chars, verify)
        seconds = time.process_time() - started
        digest = hashlib.sha256(b"".join(np.ascontiguousarray(a).tobytes() for a in found)).hexdigest()
        out[name] = {"seconds": seconds, "digest": digest, "pairs": len(found[0])}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path)
    parser.add_argument("--sizes", default="20000,200000")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(measure(args.db, args.child)))
        return
    print(f"pair_search_load {os.getloadavg()[0]:.1f} (1-minute load average at the start)")
    for n in (int(s) for s in args.sizes.split(",")):
        runs: dict[str, list[dict]] = {"numpy": [], "compiled": []}
        for _ in range(args.rounds):
            for label, pure in (("numpy", "1"), ("compiled", "0")):
                command = [sys.executable, "-m", "bench.pair_search", "--child", str(n)]
                command += ["--db", str(args.db)] if args.db else []
                done = subprocess.run(
                    command, env=os.environ | {"SIMDESK_PURE": pure}, capture_output=True, text=True, check=True
                )
                runs[label].append(json.loads(done.stdout))
        for name in SEARCHES:
            best = {label: min(r[name]["seconds"] for r in rs) for label, rs in runs.items()}
            same = len({r[name]["digest"] for rs in runs.values() for r in rs}) == 1
            print(
                f"pair_search_{name}_{n} {best['compiled'] / best['numpy']:.2f} (compiled / numpy CPU, best of "
                f"{args.rounds}: {best['compiled']:.2f} s / {best['numpy']:.2f} s; {runs['numpy'][0][name]['pairs']} "
                f"pairs; the same arrays {int(same)})"
            )


if __name__ == "__main__":
    main()
