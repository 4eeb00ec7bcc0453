"""Verified mode's groups and pairs of `cluster-scan --engine spark` (and `--engine local`) against `simdesk
scan`'s on one slice of a generated collection: the documents of its first truth groups (truth.json: g1, g2,
...) up to --documents, whole groups, copied into a temporary folder. The desktop scan runs on a fresh index
with the verified defaults; each engine's bundle is compared with it through the cluster tests' comparable
shape (tests/cluster/expected.py: groups as member paths with distance and score in order, pairs with scaled
distance, score and both shares, every identical copy included). Prints `name value unit` lines.

    python -m bench.corpus /tmp/medium --size medium --seed 7
    python -m bench.spark_equal /tmp/medium [--documents 2000] [--master local[2]] [--engines local,spark]
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from simdesk.cluster.plan import ScanPlan
from simdesk.cluster.run import cluster_scan
from simdesk.cluster.sources import open_source
from tests.cluster.expected import desktop, from_bundle


def first_groups(collection: Path, documents: int) -> list[str]:
    """The paths of the collection's first truth groups, whole, up to `documents` (at least one group)."""
    files = json.loads((collection / "truth.json").read_text(encoding="utf-8"))["files"]
    groups: dict[str, list[str]] = {}
    for path, info in files.items():
        groups.setdefault(info["group"], []).append(path)
    out: list[str] = []
    for paths in groups.values():  # in the order truth.json lists them
        if out and len(out) + len(paths) > documents:
            break
        out.extend(paths)
    return out


def compared(want: list | set, got: list | set) -> str:
    """How many of the desktop's items the engine gives exactly, and how many each side has alone."""
    mine, theirs = {repr(x) for x in want}, {repr(x) for x in got}
    return f"{len(mine & theirs)} identical, {len(mine - theirs)} only the desktop's, {len(theirs - mine)} only the engine's"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("collection", type=Path)
    parser.add_argument("--documents", type=int, default=2000)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--engines", default="local,spark", help="comma-separated: local, spark")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="simdesk-spark-equal-") as tmp:
        work = Path(tmp)
        folder = work / "slice"
        for rel in first_groups(args.collection, args.documents):
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(args.collection / rel, folder / rel)
        started = time.perf_counter()
        want = desktop(folder, work / "index.sqlite", verified=True)
        took = time.perf_counter() - started
        print(
            f"spark_equal_desktop {took:.1f} s ({len(want['fingerprints'])} documents, {len(want['groups'])} "
            f"groups, {len(want['pairs'])} pairs)",
            flush=True,
        )
        source = open_source(str(folder))
        for engine in args.engines.split(","):
            master = args.master if engine == "spark" else None
            if engine == "spark":
                from simdesk.cluster.spark import session

                started = time.perf_counter()
                session(master).sparkContext.setLogLevel("ERROR")
                print(f"spark_equal_session {time.perf_counter() - started:.1f} s ({master})", flush=True)
            started = time.perf_counter()
            cluster_scan(source, work / f"{engine}.bundle", ScanPlan(), engine, master=master)
            took = time.perf_counter() - started
            got = from_bundle(work / f"{engine}.bundle")
            same = got["groups"] == want["groups"] and got["pairs"] == want["pairs"]
            print(
                f"spark_equal_{engine} {took:.1f} s ({'identical' if same else 'different'}; groups: "
                f"{compared(want['groups'], got['groups'])}; pairs: {compared(want['pairs'], got['pairs'])})",
                flush=True,
            )


if __name__ == "__main__":
    main()
