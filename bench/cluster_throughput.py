"""Documents per second of a whole scan (read, decode, fingerprint, pair, group; plain mode at 3 bits) on one
collection, back to back: the desktop scan (a fresh index), `cluster-scan --engine local`, and
`cluster-scan --engine spark` on Spark's local mode (session start-up reported apart). Ratios are to the
desktop scan measured in the same run; the engines' lines give the pairs their bundles hold. Prints `name
value unit` lines.

    python -m bench.cluster_throughput COLLECTION [--master local[2]] [--verified]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from simdesk.cluster.plan import ScanPlan
from simdesk.cluster.run import cluster_scan
from simdesk.cluster.sources import open_source
from simdesk.core import Index, ReviewSettings, open_review


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("collection", type=Path)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--verified", action="store_true", help="verified mode instead of plain at 3 bits")
    args = parser.parse_args()
    plan = ScanPlan() if args.verified else ScanPlan(threshold=3)
    mode = "verified" if args.verified else "plain"
    with tempfile.TemporaryDirectory(prefix="simdesk-cluster-bench-") as tmp:
        work = Path(tmp)
        started = time.perf_counter()
        with Index(work / "index.sqlite") as index:
            review = open_review(args.collection, index, ReviewSettings.from_options(plan.threshold, plan.similarity))
            n = review.documents
            groups = len(review.grouping())
        desktop_s = time.perf_counter() - started
        print(
            f"cluster_desktop_{mode} {n / desktop_s:.1f} documents/s ({n} documents, {groups} groups, "
            f"{desktop_s:.1f} s)",
            flush=True,
        )
        source = open_source(str(args.collection))
        started = time.perf_counter()
        local = cluster_scan(source, work / "local.bundle", plan, "local")
        local_s = time.perf_counter() - started
        print(
            f"cluster_local_{mode} {local.documents / local_s:.1f} documents/s ({local_s:.1f} s, ratio to desktop "
            f"{desktop_s / local_s:.2f}; {local.groups} groups, {local.pairs} pairs)",
            flush=True,
        )
        from simdesk.cluster.spark import session

        started = time.perf_counter()
        session(args.master).sparkContext.setLogLevel("ERROR")
        print(f"cluster_spark_session {time.perf_counter() - started:.1f} s ({args.master})", flush=True)
        started = time.perf_counter()
        spark = cluster_scan(source, work / "spark.bundle", plan, "spark", master=args.master)
        spark_s = time.perf_counter() - started
        print(
            f"cluster_spark_{mode} {spark.documents / spark_s:.1f} documents/s ({spark_s:.1f} s, ratio to desktop "
            f"{desktop_s / spark_s:.2f}; {spark.groups} groups, {spark.pairs} pairs; {args.master})",
            flush=True,
        )


if __name__ == "__main__":
    main()
