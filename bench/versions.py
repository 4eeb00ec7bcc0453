"""One measure run in this checkout's code and in another version's, alternating, each run in a fresh
process: `runs(script, child_args, baseline, rounds)` gives each version's runs (the JSON object its child
printed last) and the load average before the first.

The child is `script --child CHILD_ARGS...`, run as a file, not with -m (the working folder would come
first on the path), with PYTHONPATH naming the version's code and then this checkout (for bench itself).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]  # this checkout


def runs(script: str, child_args: list[str], baseline: Path | None, rounds: int) -> tuple[dict[str, list[dict]], float]:
    versions = code_of(baseline)
    out: dict[str, list[dict]] = {name: [] for name in versions}
    load = os.getloadavg()[0]
    for _ in range(rounds):
        for name, code in versions.items():
            out[name].append(run_child(script, child_args, code))
    return out, load


def code_of(baseline: Path | None) -> dict[str, Path]:
    """The versions measured: "this" checkout, and "baseline" when given."""
    return {"this": HERE} | ({"baseline": baseline} if baseline else {})


def run_child(script: str, child_args: list[str], code: Path) -> dict:
    """One run of `script --child CHILD_ARGS...` in a fresh process with `code`'s simdesk: the JSON object it
    printed last."""
    printed = subprocess.run(
        [sys.executable, script, "--child", *child_args],
        env={**os.environ, "PYTHONPATH": f"{code}{os.pathsep}{HERE}"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(printed.strip().splitlines()[-1])


def measured(parser: argparse.ArgumentParser, measure: Callable[[argparse.Namespace], dict], script: str) -> Any:
    """The runner's command line: `--baseline DIR` (a folder holding another version's `simdesk` package) and
    `--rounds N` added to `parser`. In the child (`--child`), print `measure(args)` with the version's code
    path and return None; else (args, the runs and the load average `runs` gives)."""
    parser.add_argument("--baseline", type=Path, help="a folder with another version's simdesk package")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        import simdesk

        print(json.dumps(measure(args) | {"code": simdesk.__file__}))
        return None
    return (args, *runs(script, sys.argv[1:], args.baseline, args.rounds))


def print_per_text(
    prefix: str, runs: dict[str, list[dict]], load: float, detail: Callable[[dict], str], digits: int = 1
) -> None:
    """Print `PREFIX_VERSION_us_per_text` for each version (the CPU µs per text of its best run: a run's "seconds"
    over its "texts"; every run's, `detail` of its first run, the load, its code) and, with a baseline,
    `PREFIX_ratio` (this version's best seconds over the baseline's)."""
    for name, rs in runs.items():
        per_text = [r["seconds"] / r["texts"] * 1e6 for r in rs]
        print(
            f"{prefix}_{name}_us_per_text {min(per_text):.{digits}f} µs CPU (best of {len(rs)}: "
            + " ".join(f"{t:.{digits}f}" for t in per_text)
            + f"; {detail(rs[0])}, load {load:.1f}; {rs[0]['code']})"
        )
    if "baseline" in runs:
        ratio = min(r["seconds"] for r in runs["this"]) / min(r["seconds"] for r in runs["baseline"])
        print(f"{prefix}_ratio {ratio:.2f} (this / baseline, best)")
