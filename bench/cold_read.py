"""A first scan of a folder that is not in the page cache (what an editor's first scan of a folder nearly
always meets), against another version: the scan pass alone (list, read, decode, fingerprint, write the
index; `scan_folder` with a fresh index, `--jobs` workers), cold and then warm, in this checkout's code and in
another version's, alternately (A B, then B A), each run in a fresh process.

    python -m bench.cold_read FOLDER [FOLDER...] [--baseline DIR] [--rounds 3] [--jobs 2]

Cold means the folder's files were dropped from the page cache just before, without root: each file opened and
`posix_fadvise(DONTNEED)` (after `fdatasync`: pages not yet written out are not dropped). The pages of a sample
of the files still resident after that are counted with `fincore` (0 when it worked). The folders' own listings
and the files' inodes stay cached (only root can drop those), so the walk is warm in both: what is measured is
the wait for the files' bytes. Warm is the same scan run again at once.

`--baseline` is a folder holding another version's `simdesk` package (`git archive REV simdesk | tar -x -C DIR`;
copy simdesk/core/kernels*.so beside it for a like-for-like run). Prints each run, then `name value unit` lines:
each version's median wall seconds of the whole scan pass and of its reading phase, cold and warm, and the
medians of the paired ratios (this / baseline); whether every run indexed the same documents.
"""

from __future__ import annotations

import argparse
import hashlib
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


def measure(folder: Path, jobs: int) -> dict:
    """Wall seconds of a first scan pass of `folder` (fresh index) in this process and its workers, of its
    reading phase (from the end of listing to saving), and a digest of what it indexed."""
    from simdesk.core import Index, ScanOptions, scan_folder

    first: dict[str, float] = {}
    last: dict[str, float] = {}

    def on_progress(p) -> None:
        now = time.perf_counter()
        first.setdefault(p.phase, now)
        last[p.phase] = now

    with tempfile.TemporaryDirectory() as tmp, Index(Path(tmp) / "index.sqlite") as index:
        start = time.perf_counter()
        result = scan_folder(folder, index, ScanOptions(jobs=jobs), on_progress=on_progress)
        seconds = time.perf_counter() - start
        digest = hashlib.sha256()
        for d in sorted(index.documents(), key=lambda d: d.path):
            digest.update(f"{d.path}\0{d.content_hash}\0{d.fingerprint}\n".encode())
        for p in result.problems:
            digest.update(f"{p.path}\0{p.error}\n".encode())
    reading = first["saving"] - last.get("listing", start)
    return {"seconds": seconds, "reading": reading, "documents": result.stats.new, "digest": digest.hexdigest()}


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--baseline", type=Path, help="a folder with another version's simdesk package")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes of each scan")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        import simdesk

        print(json.dumps(measure(args.folders[0], args.jobs) | {"code": simdesk.__file__}))
        return
    code = versions.code_of(args.baseline)
    for folder in args.folders:
        files = files_of(folder)
        runs: dict[str, dict[str, list[dict]]] = {name: {"cold": [], "warm": []} for name in code}
        print(f"{folder}: {len(files)} files, load {os.getloadavg()[0]:.1f} before the first run", flush=True)
        for r in range(args.rounds):
            for name in list(code) if r % 2 == 0 else list(code)[::-1]:
                evict(files)
                resident = resident_pages(files)
                for state in ("cold", "warm"):
                    run = versions.run_child(__file__, [str(folder), "--jobs", str(args.jobs)], code[name])
                    runs[name][state].append(run)
                    print(
                        f"round {r + 1} {name} {state}: {run['seconds']:.1f} s, reading {run['reading']:.1f} s"
                        + (
                            f" ({resident} pages of {min(len(files), FINCORE_SAMPLE)} files resident)"
                            if state == "cold"
                            else ""
                        )
                        + f", load {os.getloadavg()[0]:.1f}",
                        flush=True,
                    )
        tag = folder.name.replace("-", "_")
        for name in code:
            for state in ("cold", "warm"):
                measured = runs[name][state]
                print(
                    f"cold_read_{tag}_{name}_{state}_seconds {statistics.median(m['seconds'] for m in measured):.2f} s"
                )
                print(
                    f"cold_read_{tag}_{name}_{state}_reading {statistics.median(m['reading'] for m in measured):.2f} s"
                )
        if "baseline" in code:
            for state in ("cold", "warm"):
                pairs = list(zip(runs["this"][state], runs["baseline"][state]))
                ratio = statistics.median(a["seconds"] / b["seconds"] for a, b in pairs)
                reading = statistics.median(a["reading"] / b["reading"] for a, b in pairs)
                print(f"cold_read_{tag}_{state}_ratio {ratio:.3f} this/baseline (reading phase {reading:.3f})")
        digests = {m["digest"] for states in runs.values() for measured in states.values() for m in measured}
        print(f"cold_read_{tag}_same_index {int(len(digests) == 1)} (1: every run indexed the same)")


if __name__ == "__main__":
    main()
