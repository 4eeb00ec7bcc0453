"""The whole default `simdesk scan FOLDER --format json` on a fresh index, in this checkout's code and in
another version's, alternately: wall seconds, CPU seconds of the command's process tree (its fork server and
worker processes included) and whether the two JSON reports are the same to the byte.

    python -m bench.scan_versions FOLDER --baseline DIR [--rounds 3] [--work DIR]

DIR holds the other version's `simdesk` package (`git archive REV simdesk | tar -x -C DIR`; copy the built
kernels, simdesk/core/kernels*.so, beside it for a like-for-like run). Prints each run, then `name value unit`
lines: each version's median wall and CPU seconds and the median of the paired ratios (this / baseline).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path

from bench.corpus import REPO
from bench.crowds import scan_command


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--baseline", type=Path, required=True, help="a folder holding another version's simdesk")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--work", type=Path, default=None, help="where the indexes go (default: a temporary folder)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        runs: dict[str, list[tuple[float, float]]] = {"this": [], "baseline": []}
        reports: dict[str, set[bytes]] = {"this": set(), "baseline": set()}
        print(f"load {os.getloadavg()[0]:.1f} before the first run", flush=True)
        for r in range(args.rounds):
            for name, code in (("this", REPO), ("baseline", args.baseline)):
                seconds, _, printed, cpu = scan_command(args.folder, work / f"{name}.sqlite", code)
                runs[name].append((seconds, cpu))
                reports[name].add(printed)
                load = os.getloadavg()[0]
                print(f"round {r + 1} {name}: {seconds:.1f} s wall, {cpu:.1f} s CPU (load {load:.1f})", flush=True)
    for name, measured in runs.items():
        print(f"{name}_wall_seconds {statistics.median(s for s, _ in measured):.2f} s")
        print(f"{name}_cpu_seconds {statistics.median(c for _, c in measured):.2f} s")
    pairs = list(zip(runs["this"], runs["baseline"]))
    print(f"wall_ratio {statistics.median(a[0] / b[0] for a, b in pairs):.3f} this/baseline")
    print(f"cpu_ratio {statistics.median(a[1] / b[1] for a, b in pairs):.3f} this/baseline")
    same = len(reports["this"] | reports["baseline"]) == 1
    print(f"reports_identical {int(same)} (every run's JSON the same to the byte)")


if __name__ == "__main__":
    main()
