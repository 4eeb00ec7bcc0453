"""What a first default scan costs after its scan pass, against another version: the CPU seconds of each
phase of the analysis (boilerplate, pairing, verifying: the texts read again, scoring) and of the JSON
report (its members' headlines), in one process (`jobs=1`: every stage in one CPU figure), on a fresh index.

    python -m bench.after_scan FOLDER [--baseline DIR] [--rounds 2]

Each version runs in its own process, alternately, `--rounds` times; `--baseline` is a folder holding another
version's `simdesk` package (`git archive REV simdesk | tar -x -C DIR`, or a checkout). Prints `name value
unit` lines: each version's best CPU seconds by phase, the ratio of the post-scan totals, and whether the two
versions' JSON reports are the same to the byte.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import tempfile
import time
from pathlib import Path

from bench import versions

PHASES = ("boilerplate", "pairing", "verifying", "scoring", "report")


def measure(folder: Path) -> dict:
    """CPU seconds by phase of a first scan of `folder` in this process, and its JSON report's digest."""
    from simdesk.core import Index, ReviewSettings, ScanOptions, open_review

    marks: list[tuple[str, float]] = []

    def on_progress(p) -> None:
        if not marks or marks[-1][0] != p.phase:
            marks.append((p.phase, time.process_time()))

    with tempfile.TemporaryDirectory() as tmp, Index(Path(tmp) / "index.sqlite") as index:
        review = open_review(folder, index, ReviewSettings(scan=ScanOptions(jobs=1)), on_progress=on_progress)
        start = time.process_time()
        out = io.StringIO()
        review.export_to(out, "json")
        end = time.process_time()
    seconds = dict.fromkeys(PHASES, 0.0)
    for (phase, at), (_, until) in zip(marks, [*marks[1:], ("report", start)]):
        if phase in seconds:
            seconds[phase] += until - at
    seconds["report"] = end - start
    return {"seconds": seconds, "digest": hashlib.sha256(out.getvalue().encode()).hexdigest()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--baseline", type=Path, help="a folder with another version's simdesk package")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        import simdesk

        print(json.dumps(measure(args.folder) | {"code": simdesk.__file__}))
        return
    runs, load = versions.runs(__file__, [str(args.folder)], args.baseline, args.rounds)
    best = {name: {p: min(r["seconds"][p] for r in rs) for p in PHASES} for name, rs in runs.items()}
    for name in runs:
        print(f"after_scan_{name}_code {runs[name][0]['code']}")
        print(
            f"after_scan_{name}_cpu {sum(best[name].values()):.2f} s (best of {args.rounds} by phase, load {load:.1f}; "
            + " ".join(f"{p} {best[name][p]:.2f}" for p in PHASES)
            + ")"
        )
    if "baseline" in best:
        ratio = sum(best["this"].values()) / sum(best["baseline"].values())
        print(f"after_scan_ratio {ratio:.2f} (this / baseline, CPU after the scan pass)")
        equal = all(r["digest"] == runs["this"][0]["digest"] for rs in runs.values() for r in rs)
        print(f"after_scan_reports_equal {int(equal)} (1: the JSON reports are the same to the byte)")


if __name__ == "__main__":
    main()
