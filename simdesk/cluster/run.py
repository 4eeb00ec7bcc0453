"""`simdesk cluster-scan`: list a source, fingerprint, pair and group it with the chosen engine, and write the
bundle. One call for the command line and for `spark-submit simdesk/cluster/__main__.py`.

    result = cluster_scan(open_source("s3://archive/"), Path("archive.bundle"), ScanPlan(threshold=3))
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from simdesk.cluster.bundle import Bundle, BundleWriter, open_bundle, write_table
from simdesk.cluster.plan import ScanPlan, manifest_of
from simdesk.cluster.reuse import reused_documents
from simdesk.cluster.sources import Source
from simdesk.core.fingerprint.features import DEFAULT_FEATURES, FeatureSettings
from simdesk.core.records import Problem

ENGINES = ("local", "spark")


@dataclass(frozen=True)
class ClusterResult:
    """What a cluster scan wrote, counted."""

    bundle: Path
    engine: str
    documents: int
    problems: int
    pairs: int
    groups: int
    reused: int
    seconds: float

    def summary(self) -> str:
        return (
            f"{self.documents} documents ({self.reused} unchanged since the previous bundle), {self.problems} "
            f"problems, {self.pairs} pairs, {self.groups} groups in {self.seconds:.1f} s ({self.engine} "
            f"engine) -> {self.bundle}"
        )


def cluster_scan(
    source: Source,
    out: Path,
    plan: ScanPlan = ScanPlan(),
    engine: str = "local",
    previous: Path | None = None,
    master: str | None = None,
    settings: FeatureSettings = DEFAULT_FEATURES,
) -> ClusterResult:
    """Scan `source` and write the bundle `out` (atomically). Raises BundleError for a `previous` bundle made
    with other feature settings, ValueError for an unknown engine."""
    started = time.perf_counter()
    prev = open_bundle(previous, settings) if previous is not None else None
    if engine == "spark":
        from simdesk.cluster.spark import spark_scan

        counts = spark_scan(source, Path(out), plan, prev, master, settings)
    elif engine == "local":
        counts = _local_scan(source, Path(out), plan, prev, settings)
    else:
        raise ValueError(f"unknown engine {engine!r}: one of {', '.join(ENGINES)}")
    return ClusterResult(
        Path(out),
        engine,
        counts["documents"],
        counts["problems"],
        counts["pairs"],
        counts["groups"],
        counts["reused"],
        time.perf_counter() - started,
    )


def _local_scan(source: Source, out: Path, plan: ScanPlan, prev: Bundle | None, settings: FeatureSettings) -> dict:
    from simdesk.cluster.local import fingerprint, pair_and_group

    listing: list[Problem] = []
    items = list(source.items(listing.append))
    reused = reused_documents(prev, items)
    col = fingerprint(source, items, settings, plan.jobs, reused)
    col.problems = [(None, p) for p in listing] + col.problems
    pairs, groups = pair_and_group(source, col, plan, settings)
    counts = {
        "documents": len(col),
        "problems": len(col.problems),
        "pairs": pairs.num_rows,
        "groups": len(set(groups.column("group").to_pylist())),
        "reused": len(reused),
    }
    with BundleWriter(out) as w:
        write_table(w.folder, "documents", col.documents_table())
        write_table(w.folder, "problems", col.problems_table())
        write_table(w.folder, "pairs", pairs)
        write_table(w.folder, "groups", groups)
        w.commit(manifest_of(source, plan, settings, "local", counts))
    return counts
