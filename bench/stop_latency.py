"""How long `simdesk scan` takes to end after Ctrl-C (SIGINT) or SIGTERM, at moments spread over a whole scan of a
crowd of near-identical texts (reading, then the analysis of the crowd: pairing, verification, scoring), and
whether anything is left behind (a worker, the fork server, the resource tracker) or printed beside the one
line. The moments are fractions of the uninterrupted scan's duration measured first in the same run, so a
loaded machine shifts them together.

    python -m bench.stop_latency [--copies 5002] [--contents] [--work /tmp/simdesk-stop] [--window]
    python -m bench.stop_latency --cancel-at 100 200 [--contents]    # the window's Cancel alone, at these seconds

Prints `name value unit` lines: stop_<signal>_at_<percent>pct seconds, and stop_worst seconds. With `--window`,
also cancel_at_<percent>pct: the window's Cancel (ReviewProcess.cancel, the review in its own process as the
window runs it) to the end of its events, with the groups the cancelled review shows; `--cancel-at`: the same
at moments in seconds, without the whole scan and the signals. The collection: a crowd of `--copies`
near-identical texts (bench.corpus), or with `--contents` bench.crowds' `contents` (`--copies` - 2 files of 3
short contents and a near-copy pair).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench import corpus

FRACTIONS = (0.2, 0.5, 0.8)


def group_alive(pgid: int) -> bool:
    """Whether any process of the process group is still running. Zombies do not count: they have ended and
    wait for the process they were handed to (PID 1) to collect them, which a busy container's PID 1 may take
    seconds to do; a signal to the group still reaches them. Linux reads /proc; elsewhere the signal."""
    proc = Path("/proc")
    if not proc.is_dir():
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        return True
    for stat in proc.glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # after "pid (name)": state, ppid, pgrp, ...
        except (OSError, IndexError):
            continue  # ended meanwhile
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def start(root: Path, db: Path) -> subprocess.Popen[str]:
    for p in db.parent.glob(db.name + "*"):
        p.unlink()
    return subprocess.Popen(
        [sys.executable, "-m", "simdesk", "scan", str(root), "--db", str(db), "--format", "json"],
        cwd=corpus.REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def stop_at(root: Path, db: Path, sig: int, delay: float) -> tuple[float, int, str, int]:
    """(seconds from the signal to the command's end, its exit code, its stderr, whether a process of its
    group (a worker, the fork server, the resource tracker) was still there 2 s later)."""
    proc = start(root, db)
    time.sleep(delay)
    if proc.poll() is not None:
        return 0.0, proc.returncode, proc.communicate()[1], 0
    sent = time.perf_counter()
    os.killpg(proc.pid, sig) if sig == signal.SIGINT else proc.send_signal(sig)  # Ctrl-C reaches the whole group
    proc.wait(300)
    took = time.perf_counter() - sent
    time.sleep(2)
    left = group_alive(proc.pid)
    if left:
        os.killpg(proc.pid, signal.SIGKILL)
    return took, proc.returncode, proc.communicate()[1], int(left)


def cancel_at(root: Path, db: Path, delay: float) -> tuple[float, int]:
    """(seconds from the window's Cancel, `delay` s into a review of `root`, to the end of its events, groups
    in the last review it sent)."""
    import threading

    from simdesk.core import Review, ReviewProcess, ReviewRequest

    for p in db.parent.glob(db.name + "*"):
        p.unlink()
    run = ReviewProcess(ReviewRequest(root, db))
    ended = threading.Event()
    shown = [-1]

    def drain() -> None:
        for _kind, value in run.events():
            if isinstance(value, Review):  # "loaded" or "finished"
                shown[0] = len(value.grouping())
        ended.set()

    run.start()
    threading.Thread(target=drain, daemon=True).start()
    time.sleep(delay)
    sent = time.perf_counter()
    run.cancel()
    ended.wait(300)
    return time.perf_counter() - sent, shown[0]


def collection(work: Path, copies: int, contents: bool) -> Path:
    """The crowd the runs use, made under `work` once."""
    if contents:
        from bench import crowds

        return crowds.ensure(work, "contents", copies - 2)[0]
    root = work / f"crowd-{copies}"
    if not root.exists():
        corpus.build(root, "small", seed=5, crowd=(1, copies), documents=copies)
    return root


def print_cancel(name: str, root: Path, db: Path, delay: float) -> None:
    took, groups = cancel_at(root, db, delay)
    print(f"{name} {took:.2f} s ({groups} groups shown, load {os.getloadavg()[0]:.1f})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=5002)
    parser.add_argument("--work", type=Path, default=Path("/tmp/simdesk-stop"))
    parser.add_argument("--contents", action="store_true", help="bench.crowds' 3 short contents and a pair")
    parser.add_argument("--window", action="store_true", help="also the window's Cancel")
    parser.add_argument("--cancel-at", type=float, nargs="+", help="only the window's Cancel, at these seconds")
    args = parser.parse_args()
    root = collection(args.work, args.copies, args.contents)
    db = args.work / "stop.sqlite"
    if args.cancel_at:
        from simdesk.core import ReviewProcess

        ReviewProcess.prepare()
        for delay in args.cancel_at:
            print_cancel(f"cancel_at_{delay:g}s", root, db, delay)
        return
    began = time.perf_counter()
    full = start(root, db)
    full.wait()
    whole = time.perf_counter() - began
    print(f"scan_whole {whole:.1f} s", flush=True)
    worst = 0.0
    for sig in (signal.SIGINT, signal.SIGTERM):
        for f in FRACTIONS:
            took, code, err, left = stop_at(root, db, sig, whole * f)
            lines = [line for line in err.splitlines() if line.strip()]
            worst = max(worst, took)
            print(
                f"stop_{sig.name}_at_{int(f * 100)}pct {took:.2f} s (exit {code}, {len(lines)} stderr lines, "
                f"{'processes left' if left else 'nothing left'})",
                flush=True,
            )
    print(f"stop_worst {worst:.2f} s", flush=True)
    if args.window:
        from simdesk.core import ReviewProcess

        ReviewProcess.prepare()
        for f in FRACTIONS:
            print_cancel(f"cancel_at_{int(f * 100)}pct", root, db, whole * f)


if __name__ == "__main__":
    main()
