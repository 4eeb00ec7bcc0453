"""One measured scan in a fresh process: `python -m bench.scan_run ROOT DB` prints a JSON object.

A fresh process per scan so that the segmenter choice (SIMDESK_SEGMENTER, read once per process) and the
peak memory are this scan's alone. Measures what a user waits for: the scan (list, read, decode, segment,
fingerprint, write the index) and then the pairs within the threshold and their groups.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import threading
import time
from pathlib import Path


class PeakRss:
    """Samples, in a thread, the RSS of this process and of all its descendants (fork server, workers): the
    peak of their sum and of this process alone, and the CPU seconds each used (its last sample). Setting
    `phase` (a name) also keeps each phase's peaks: `phase_peaks[name]` is (tree, this process)."""

    def __init__(self, every_s: float = 0.1, children_every_s: float = 0.5, proc=None) -> None:
        import psutil

        self.proc = proc or psutil.Process()  # `proc`: another process (a command this one started) and its tree
        self.every_s = every_s
        self.children_every_s = children_every_s  # listing descendants walks /proc: ~2 ms, so not every sample
        self.peak = 0
        self.peak_main = 0
        self.phase = ""
        self.phase_peaks: dict[str, tuple[int, int]] = {}
        self.cpu: dict[int, float] = {}
        self.own_cpu = 0.0  # this sampler's CPU, not the scan's
        self._children: list = []
        self._listed = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def sample(self) -> None:
        import psutil

        total = main = 0
        now = time.perf_counter()
        if now - self._listed >= self.children_every_s:
            try:
                self._children = self.proc.children(recursive=True)
            except psutil.Error:  # another process (`proc`) that has ended
                self._children = []
            self._listed = now
        for p in [self.proc, *self._children]:
            try:
                with p.oneshot():
                    rss = p.memory_info().rss
                    t = p.cpu_times()
            except psutil.Error:
                continue
            total += rss
            if p.pid == self.proc.pid:
                main = rss
            else:
                self.cpu[p.pid] = t.user + t.system
        self.peak = max(self.peak, total)
        self.peak_main = max(self.peak_main, main)
        tree_peak, main_peak = self.phase_peaks.get(self.phase, (0, 0))
        self.phase_peaks[self.phase] = (max(tree_peak, total), max(main_peak, main))

    def _run(self) -> None:
        while not self._stop.is_set():
            cpu = time.thread_time()
            self.sample()
            self.own_cpu += time.thread_time() - cpu
            self._stop.wait(self.every_s)

    def children_cpu(self) -> float:
        return sum(self.cpu.values())

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def run(root: Path, db: Path, jobs: int, threshold: int) -> dict:
    from simdesk.core import Grouper, Index, ScanOptions, pairs_within, scan_folder, segmenter_choice

    out: dict = {}
    with PeakRss() as rss:
        started = time.perf_counter()
        with Index(db) as index:
            result = scan_folder(root, index, ScanOptions(jobs=jobs))
            scanned = time.perf_counter()
            snap = index.snapshot()
            i, j, d = pairs_within(snap.fingerprints, threshold)
            grouping = Grouper(snap, i, j, d, max_threshold=threshold, ignored=index.ignored_pairs()).at(threshold)
            groups = len(grouping)
            done = time.perf_counter()
            index.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    s = result.stats
    out.update(
        seconds=done - started,
        scan_seconds=scanned - started,
        pairs_seconds=done - scanned,
        listed=s.listed,
        read=s.new + s.changed,
        unchanged=s.unchanged,
        problems=s.problems,
        chars=s.chars,
        documents=len(snap),
        pairs=int(len(i)),
        groups=groups,
        # (ru_maxrss would not do: it survives exec, so it counts the memory of whatever started this process)
        peak_rss_tree=rss.peak,
        peak_rss_main=rss.peak_main,
        cpu_seconds=sum(resource.getrusage(resource.RUSAGE_SELF)[:2]) - rss.own_cpu + rss.children_cpu(),
        cpu_main_seconds=sum(resource.getrusage(resource.RUSAGE_SELF)[:2]) - rss.own_cpu,
        index_bytes=sum(p.stat().st_size for p in db.parent.glob(db.name + "*")),
        segmenter=segmenter_choice().name,
        segmenter_reason=segmenter_choice().reason,
        segmenter_env=os.environ.get("SIMDESK_SEGMENTER", ""),
        index_objects=index_objects(db),
    )
    return out


def index_objects(db: Path) -> dict[str, int]:
    """Bytes of each table and index of the SQLite file (its dbstat table), largest first."""
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall()
    except sqlite3.Error:  # SQLite built without dbstat
        rows = []
    finally:
        conn.close()
    return dict(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("root", type=Path)
    ap.add_argument("db", type=Path)
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--threshold", type=int, default=3)
    args = ap.parse_args()
    print(json.dumps(run(args.root, args.db, args.jobs, args.threshold)))


if __name__ == "__main__":
    main()
