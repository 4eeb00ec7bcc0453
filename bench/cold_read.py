"""The read of a folder that is not in the page cache (what an editor's first scan of a folder nearly always
meets), cold and then warm, in this checkout's code and in another version's, alternately (A B, then B A), each
run in a fresh process.

    python -m bench.cold_read FOLDER [FOLDER...] [--baseline DIR] [--rounds 3] [--scan] [--jobs 2]

What is timed is the scan pass's reading: the folder listed, then its files read, decoded and fingerprinted
chunk by chunk as a worker process does it (scan._chunks, scan._fingerprint_chunk), in one process. Its
thread's /proc/thread-self/schedstat splits the wall seconds into seconds on a CPU, seconds waiting for one
(the machine's load) and the rest, blocked: waiting for the disk. On a shared machine the wall seconds move
with the load more than with the disk; the blocked seconds do not. `--scan` also times the whole scan pass
(`scan_folder`, a fresh index, `--jobs` worker processes), wall seconds.

Cold means the folder's files were dropped from the page cache just before, without root: each file opened and
`posix_fadvise(DONTNEED)` (after `fdatasync`: pages not yet written out are not dropped). The pages of a sample
of the files still resident after that are counted with `fincore` (0 when it worked). The folders' listings and
the files' inodes stay cached (only root can drop those), so listing is warm in both: what is measured is the
wait for the files' bytes. Warm is the same run again at once.

`--baseline` is a folder holding another version's `simdesk` package (`git archive REV simdesk | tar -x -C DIR`;
copy simdesk/core/kernels*.so beside it for a like-for-like run). Prints each run, then `name value unit` lines:
each version's median seconds, cold and warm, the medians of the paired ratios (this / baseline), and whether
every run read the same documents.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import shutil
import stat
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench import versions

FINCORE_SAMPLE = 2000  # files whose resident pages are counted after an eviction
READ = ("wall", "cpu", "queued", "blocked")


def thread_times() -> tuple[float, float]:
    """This thread's seconds on a CPU and waiting in the run queue (/proc/thread-self/schedstat)."""
    with open("/proc/thread-self/schedstat") as fh:
        on_cpu, queued = fh.read().split()[:2]
    return int(on_cpu) / 1e9, int(queued) / 1e9


def read_pass(folder: Path) -> dict:
    """The scan pass's reading of `folder` in this process, chunk by chunk as a worker reads (seconds: wall,
    on a CPU, waiting for one, blocked), and a digest of what it read."""
    from simdesk.core import DEFAULT_FEATURES, ScanOptions, walk

    # the scan's inner steps, what a worker process runs, not the engine's public surface (as bench.stages times them)
    scan = importlib.import_module("simdesk.core.index.scan")
    options = ScanOptions()
    entries = list(walk(folder, options.includes, options.max_bytes))
    chunks = scan._chunks(entries)  # noqa: SLF001
    fingerprint_chunk = scan._fingerprint_chunk  # noqa: SLF001
    fingerprint_chunk(chunks[0][:1], options.max_bytes, DEFAULT_FEATURES, {})  # the segmenter loaded
    digest = hashlib.sha256()
    start, (cpu, queued) = time.perf_counter(), thread_times()
    for chunk in chunks:
        for r in fingerprint_chunk(chunk, options.max_bytes, DEFAULT_FEATURES, {}):
            digest.update(repr(r).encode())
    wall, (cpu_end, queued_end) = time.perf_counter() - start, thread_times()
    cpu, queued = cpu_end - cpu, queued_end - queued
    return {"wall": wall, "cpu": cpu, "queued": queued, "blocked": wall - cpu - queued, "digest": digest.hexdigest()}


def scan_pass(folder: Path, jobs: int) -> float:
    """Wall seconds of a first scan pass of `folder` with a fresh index and `jobs` worker processes."""
    from simdesk.core import Index, ScanOptions, scan_folder

    with tempfile.TemporaryDirectory() as tmp, Index(Path(tmp) / "index.sqlite") as index:
        start = time.perf_counter()
        scan_folder(folder, index, ScanOptions(jobs=jobs))
        return time.perf_counter() - start


def files_of(folder: Path) -> list[str]:
    return [os.path.join(d, f) for d, _, names in os.walk(folder) for f in names]


def evict(files: list[str]) -> None:
    """Drop the files' pages from the page cache (any user may, for a file it can open)."""
    for path in files:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                os.fdatasync(fd)
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def resident_pages(files: list[str]) -> int | None:
    """The pages of the first FINCORE_SAMPLE files resident in the page cache (fincore), None without fincore."""
    if shutil.which("fincore") is None or not files:
        return None
    out = subprocess.run(
        ["fincore", "-n", "-r", "-o", "PAGES", *files[:FINCORE_SAMPLE]], capture_output=True, text=True, check=True
    ).stdout
    return sum(int(n) for n in out.split())


def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--baseline", type=Path, help="a folder with another version's simdesk package")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scan", action="store_true", help="also time the whole scan pass with worker processes")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes of the scan pass (--scan)")
    parser.add_argument("--child", choices=("read", "scan"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        import simdesk

        folder = args.folders[0]
        got = read_pass(folder) if args.child == "read" else {"scan": scan_pass(folder, args.jobs)}
        print(json.dumps(got | {"code": simdesk.__file__}))
        return
    code = versions.code_of(args.baseline)
    for folder in args.folders:
        files = files_of(folder)
        runs: dict[str, dict[str, list[dict]]] = {name: {"cold": [], "warm": []} for name in code}
        print(f"{folder}: {len(files)} files, load {os.getloadavg()[0]:.1f} before the first run", flush=True)
        for r in range(args.rounds):
            for name in list(code) if r % 2 == 0 else list(code)[::-1]:
                for mode in ("read", "scan") if args.scan else ("read",):
                    evict(files)
                    resident = resident_pages(files)
                    for state in ("cold", "warm"):
                        child = [mode, str(folder), "--jobs", str(args.jobs)]  # after --child
                        run = versions.run_child(__file__, child, code[name])
                        if mode == "scan":  # the read pass of this round and state gets the scan's seconds
                            runs[name][state][-1]["scan"] = run["scan"]
                            shown = f"scan pass {run['scan']:.1f} s"
                        else:
                            runs[name][state].append(run)
                            shown = ", ".join(f"{k} {run[k]:.1f} s" for k in READ)
                        if state == "cold" and resident is not None:
                            shown += f" ({resident} pages of {min(len(files), FINCORE_SAMPLE)} files resident)"
                        load = os.getloadavg()[0]
                        print(f"round {r + 1} {name} {state}: {shown}, load {load:.1f}", flush=True)
        tag = folder.name.replace("-", "_")
        keys = (*READ, "scan") if args.scan else READ
        for name in code:
            for state in ("cold", "warm"):
                for key in keys:
                    print(f"cold_read_{tag}_{name}_{state}_{key} {median(runs[name][state], key):.2f} s")
        if "baseline" in code:
            for state in ("cold", "warm"):
                pairs = list(zip(runs["this"][state], runs["baseline"][state]))
                for key in ("wall", "scan") if args.scan else ("wall",):
                    ratio = statistics.median(a[key] / max(b[key], 1e-3) for a, b in pairs)
                    print(f"cold_read_{tag}_{state}_{key}_ratio {ratio:.3f} this/baseline")
            cold = list(zip(runs["this"]["cold"], runs["baseline"]["cold"]))
            ratio = statistics.median(a["blocked"] / max(b["blocked"], 1e-3) for a, b in cold)
            print(f"cold_read_{tag}_cold_blocked_ratio {ratio:.3f} this/baseline (the wait for the disk)")
        digests = {m["digest"] for states in runs.values() for measured in states.values() for m in measured}
        print(f"cold_read_{tag}_same_documents {int(len(digests) == 1)} (1: every run read the same)")


if __name__ == "__main__":
    main()
