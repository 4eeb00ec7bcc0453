"""One measure run in this checkout's code and in another version's, alternating, each run in a fresh
process: `runs(script, child_args, baseline, rounds)` gives each version's runs (the JSON object its child
printed last) and the load average before the first.

The child is `script --child CHILD_ARGS...`, run as a file, not with -m (the working folder would come
first on the path), with PYTHONPATH naming the version's code and then this checkout (for bench itself).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def runs(script: str, child_args: list[str], baseline: Path | None, rounds: int) -> tuple[dict[str, list[dict]], float]:
    here = Path(__file__).resolve().parents[1]
    versions = {"this": here} | ({"baseline": baseline} if baseline else {})
    out: dict[str, list[dict]] = {name: [] for name in versions}
    load = os.getloadavg()[0]
    for _ in range(rounds):
        for name, code in versions.items():
            printed = subprocess.run(
                [sys.executable, script, "--child", *child_args],
                env={**os.environ, "PYTHONPATH": f"{code}{os.pathsep}{here}"},
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            out[name].append(json.loads(printed.strip().splitlines()[-1]))
    return out, load
