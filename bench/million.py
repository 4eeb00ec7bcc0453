"""`python -m bench.million [--documents 1000000]`: the default `simdesk scan` end to end on a million documents.

The collection is made with the project's generator (bench/corpus): one large collection (~200,000 documents,
about a third with planted near-duplicates) per 200,000 documents, each from its own seed (7, 8, ...), side
by side in one folder; kept under --work and reused. The run is one fresh process doing what
`simdesk scan FOLDER --format json` does: list, read, decode, segment, fingerprint, write the index, then the
verified analysis (boilerplate, candidate pairs, each candidate checked on the texts, groups) and the JSON
report. Peak RSS is the sum over the whole process tree (the run, the fork server, the workers), sampled
every 0.1 s; each phase's wall time comes from the progress reports; the load average is printed beside it.
CPU seconds: the scanning process's (its own clock, less the sampler's) and the rest of the tree's (the fork
server and workers, as last sampled), in all and by phase; and how many texts the scan pass kept in its
scratch store (scratch_texts: verification loads those instead of reading their files again).

    python -m bench.million --documents 200000      # a rehearsal on one part
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench import corpus

PART = corpus.SIZES["large"]
FIRST_SEED = 7
READING_LINE = 100_000  # documents read between two lines of reading's course


def ensure_parts(root: Path, documents: int) -> list[Path]:
    """The collection of `documents` (rounded up to parts of PART) under root/seed-N, made in 2 processes."""
    seeds = [FIRST_SEED + k for k in range(max(1, -(-documents // PART)))]
    missing = [(root / f"seed-{seed}", seed) for seed in seeds if not (root / f"seed-{seed}" / "truth.json").exists()]
    if missing:
        with ProcessPoolExecutor(2) as pool:
            list(pool.map(corpus.build, [p for p, _ in missing], ["large"] * len(missing), [s for _, s in missing]))
    return [root / f"seed-{seed}" for seed in seeds]


def run(root: Path, db: Path, jobs: int, report: Path) -> dict:
    """The measured run (in a fresh process): scan, verified analysis, JSON report."""
    from bench.scan_run import PeakRss, index_objects
    from simdesk.core import Index, Progress, ReviewSettings, ScanOptions, open_review

    phases: dict[str, float] = {}
    cpu_marks: dict[str, tuple[float, float]] = {}  # phase -> (scanning process, rest of the tree) CPU at its start
    kept = [0]  # documents whose text the scan pass kept in the scratch store (counted when the analysis begins)
    totals: dict[str, int] = {}  # each phase's last total: texts read for verification, pairs scored
    started = time.perf_counter()

    rss = PeakRss()

    def own_cpu() -> float:
        return sum(resource.getrusage(resource.RUSAGE_SELF)[:2]) - rss.own_cpu

    stride = [0]  # documents read at the last line of reading's course

    def on_progress(p: Progress) -> None:
        totals[p.phase] = p.total
        if p.phase == "reading" and p.done >= stride[0] + READING_LINE:
            # reading's course: a cost that grows with the index shows as a rising CPU share of the scanning process
            stride[0] = p.done - p.done % READING_LINE
            print(
                f"{time.perf_counter() - started:.1f} s: read {p.done:,} (load average {os.getloadavg()[0]:.1f}; "
                f"CPU-s so far: scanning process {own_cpu():.0f}, rest {rss.children_cpu():.0f})",
                file=sys.stderr,
                flush=True,
            )
        # the analysis ends with a second "done": what follows it (groups, packing the file) is "grouping"
        rss.phase = "grouping" if p.phase == "done" and "scoring" in phases else p.phase
        if p.phase not in phases:
            if p.phase == "boilerplate":  # the scan is done: where its texts were kept (Index.stored_texts' table)
                kept[0] = index.conn.execute("SELECT count(*) FROM temp.scan_texts").fetchone()[0]
            phases[p.phase] = time.perf_counter() - started
            cpu_marks[p.phase] = (own_cpu(), rss.children_cpu())
            print(
                f"{phases[p.phase]:.1f} s: {p.phase} (load average {os.getloadavg()[0]:.1f}; CPU-s so far: "
                f"scanning process {cpu_marks[p.phase][0]:.0f}, rest {cpu_marks[p.phase][1]:.0f})",
                file=sys.stderr,
                flush=True,
            )

    loads = [os.getloadavg()[0]]
    with rss:
        with Index(db) as index:
            review = open_review(root, index, ReviewSettings(scan=ScanOptions(jobs=jobs)), on_progress)
            analysed = time.perf_counter() - started
            phases["report"] = analysed  # the JSON report, written group by group
            rss.phase = "report"
            cpu_marks["report"] = (own_cpu(), rss.children_cpu())
            review.write_export(report, "json")
            reported = time.perf_counter() - started
            cpu_marks["end"] = (own_cpu(), rss.children_cpu())
            groups = len(review.grouping())
            index.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            documents = index.count()
    loads.append(os.getloadavg()[0])
    s = review.result.stats if review.result is not None else None
    return dict(
        seconds=reported,
        analysed_seconds=analysed,
        phases=phases,
        documents=documents,
        groups=groups,
        candidates=totals.get("scoring", 0),
        texts_read=totals.get("verifying", 0),
        listed=s.listed if s else 0,
        problems=s.problems if s else 0,
        chars=s.chars if s else 0,
        peak_rss_tree=rss.peak,
        peak_rss_main=rss.peak_main,
        phase_peaks=rss.phase_peaks,
        cpu_seconds=rss.children_cpu(),
        cpu_main_seconds=cpu_marks["end"][0],
        cpu_marks=cpu_marks,
        texts_kept=kept[0],
        load_average=loads,
        index_bytes=db.stat().st_size,
        index_objects=index_objects(db),
        report_bytes=report.stat().st_size,
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        prog="python -m bench.million", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--documents", type=int, default=1_000_000, help="rounded up to parts of 200,000")
    ap.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "simdesk-bench")
    ap.add_argument("--jobs", type=int, default=0, help="worker processes (0: one per core)")
    ap.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    ap.add_argument("--run", nargs=3, metavar=("ROOT", "DB", "REPORT"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.run:
        root, db, report = map(Path, args.run)
        print(json.dumps(run(root, db, args.jobs, report)))
        return
    root = args.work / f"million-{args.documents}"
    made = time.perf_counter()
    ensure_parts(root, args.documents)
    print(f"collection {root} ready in {time.perf_counter() - made:.0f} s", flush=True)
    db, report = args.work / f"million-{args.documents}.sqlite", args.work / f"million-{args.documents}.json"
    for p in db.parent.glob(db.name + "*"):
        p.unlink()
    out = subprocess.run(
        [sys.executable, "-m", "bench.million", "--jobs", str(args.jobs), "--run", str(root), str(db), str(report)],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
        cwd=corpus.REPO,
    )
    r = json.loads(out.stdout.strip().splitlines()[-1])
    docs = max(r["documents"], 1)
    figures = {
        "million_documents": (r["documents"], f"documents ({r['problems']} problems, {r['chars']:,} chars)"),
        "million_seconds": (
            r["seconds"],
            "s (list, read, fingerprint, index, pairs, verified groups, JSON report; target <= 600 at a million)",
        ),
        "million_peak_rss_mb": (r["peak_rss_tree"] / 2**20, "MB (all processes, summed; target <= 2048)"),
        "million_peak_rss_main_mb": (r["peak_rss_main"] / 2**20, "MB (the scanning process alone)"),
        "million_cpu_seconds_workers": (r["cpu_seconds"], "s (CPU of the fork server and workers)"),
        "million_cpu_seconds_main": (r["cpu_main_seconds"], "s (CPU of the scanning process)"),
        "million_cpu_seconds_tree": (
            r["cpu_main_seconds"] + r["cpu_seconds"],
            "s (CPU of the whole tree; target <= 1200)",
        ),
        "million_groups": (r["groups"], "groups"),
        "million_candidates": (r["candidates"], "candidate pairs verified on their texts"),
        "million_texts_read": (r["texts_read"], "texts read for verification"),
        "million_texts_kept": (r["texts_kept"], "documents whose text the scan pass kept (loaded, not read again)"),
        "million_load_average": (max(r["load_average"]), f"(1-minute, at start and end: {r['load_average']})"),
        "million_index_bytes_per_document": (r["index_bytes"] / docs, "bytes (whole file, scores included)"),
        "million_report_mb": (r["report_bytes"] / 2**20, "MB (the JSON report)"),
    }
    phases = sorted(r["phases"].items(), key=lambda kv: kv[1]) + [("end", r["seconds"])]
    for (name, t0), (following, t1) in zip(phases, phases[1:]):
        (main0, rest0), (main1, rest1) = r["cpu_marks"][name], r["cpu_marks"][following]
        figures[f"million_phase_seconds[{name}]"] = (
            t1 - t0,
            f"s (CPU-s: scanning process {main1 - main0:.1f}, fork server and workers {rest1 - rest0:.1f})",
        )
    for name, (tree, main) in r["phase_peaks"].items():
        figures[f"million_phase_peak_rss_mb[{name}]"] = (tree / 2**20, f"MB (the scanning process: {main / 2**20:.0f})")
    for name, size in list(r["index_objects"].items())[:8]:
        figures[f"million_index_bytes_per_document[{name}]"] = (size / docs, "bytes")
    for name, (value, unit) in figures.items():
        print(f"{name} {value:.4g} {unit}" if isinstance(value, float) else f"{name} {value} {unit}", flush=True)
    if args.json:
        args.json.write_text(json.dumps({k: {"value": v, "unit": u} for k, (v, u) in figures.items()}, indent=2))


if __name__ == "__main__":
    main()
