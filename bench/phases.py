"""Where a first default scan's wall time goes, by phase: `python -m bench.phases FOLDER` scans FOLDER into a
fresh index with the default workers as `simdesk scan` does (the workers' fork server started before the engine
is loaded: start_workers_before_scan), times each progress phase the library reports (listing, reading,
boilerplate, pairing, verifying, scoring, ...) by the wall clock and by the scanning process's CPU, then the
JSON report, and prints `phase wall_s cpu_s` lines summed over each phase's steps; `start-up` is the time from
the process's start to the scan's first report (the interpreter, the engine's imports, opening the index).
The workers' CPU is not counted (they are not this process's children to wait for): a phase whose wall exceeds
its CPU is one where the scanning process waits for them.
"""

from __future__ import annotations

import argparse
import io
import os
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    args = parser.parse_args()
    import psutil

    started = time.perf_counter() - (time.time() - psutil.Process().create_time())  # the process's start
    marks: list[tuple[str, float, float]] = [("start-up", 0.0, 0.0)]
    from simdesk.core import ScanOptions, start_workers_before_scan

    def on_progress(p) -> None:
        if not marks or marks[-1][0] != p.phase:
            marks.append((p.phase, time.perf_counter() - started, time.process_time()))

    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        start_workers_before_scan(args.folder, Path(tmp) / "index.sqlite", ScanOptions())
        from simdesk.core import Index, ReviewSettings, open_review

        with Index(Path(tmp) / "index.sqlite") as index:
            review = open_review(args.folder, index, ReviewSettings(scan=ScanOptions()), on_progress=on_progress)
            marks.append(("report", time.perf_counter() - started, time.process_time()))
            review.export_to(io.StringIO(), "json")
            marks.append(("end", time.perf_counter() - started, time.process_time()))
    walls: dict[str, float] = {}
    cpus: dict[str, float] = {}
    for (phase, at, cpu), (_, until, cpu_until) in zip(marks, marks[1:]):
        walls[phase] = walls.get(phase, 0.0) + until - at
        cpus[phase] = cpus.get(phase, 0.0) + cpu_until - cpu
    for phase in walls:
        print(f"{phase} {walls[phase]:.2f} {cpus[phase]:.2f}")
    print(
        f"total {marks[-1][1]:.2f} {sum(cpus.values()):.2f} (wall, scanning process CPU; load {load:.1f} at the start)"
    )


if __name__ == "__main__":
    main()
