"""No orphan after a kill -9 at any moment: `simdesk scan` SIGKILLed (itself alone, as a crash would) at random
moments from its start, the worker pool's start-up included, leaves no fork server, worker or resource tracker
running 5 s later. CI kills 4 times; the `stress` run 40 times."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.reliability.conftest import REPO, scan_args, simdesk_argv
from tests.reliability.test_no_hang import big_folder, group_processes


def left_after_a_kill_at(root: Path, db: Path, delay: float) -> dict[int, bytes]:
    """Start a scan with two workers, SIGKILL it after `delay` s, and return the processes of its session
    still there 5 s later (then killed)."""
    proc = subprocess.Popen(
        simdesk_argv(*scan_args(root, db, "--jobs", 2)),
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    deadline = time.monotonic() + 5
    while group_processes(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = {}
    for pid in group_processes(proc.pid):
        try:
            left[pid] = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:160]
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return left


def kill_loop(tmp_path: Path, kills: int, seed: int) -> list[tuple[float, dict[int, bytes]]]:
    rng = random.Random(seed)
    root = big_folder(tmp_path / "docs")
    out = []
    for k in range(kills):
        delay = rng.uniform(0.2, 3.0)  # the interpreter's start, the fork server's, the pool's, the reading
        left = left_after_a_kill_at(root, tmp_path / f"i{k}.sqlite", delay)
        if left:
            out.append((delay, left))
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork server and /proc are Linux's")
def test_four_kills_during_start_up_leave_no_process(tmp_path):
    assert kill_loop(tmp_path, 4, seed=5) == []


@pytest.mark.stress
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork server and /proc are Linux's")
def test_forty_kills_at_random_moments_leave_no_process(tmp_path):
    assert kill_loop(tmp_path, 40, seed=7) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork server and /proc are Linux's")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_and_sigterm_end_a_scan_with_one_line_and_nothing_left(tmp_path, sig):
    """Ctrl-C reaches the whole foreground group (the scan, its fork server, its workers); SIGTERM the scan
    alone. Either way: exit 128+signal, one line on stderr, no process of the group left."""
    root = big_folder(tmp_path / "docs")
    proc = subprocess.Popen(
        simdesk_argv(*scan_args(root, tmp_path / "i.sqlite", "--jobs", 2)),
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    for _ in range(1200):  # until its workers run (the scan, the resource tracker, the fork server, workers)
        time.sleep(0.05)
        if len(group_processes(proc.pid)) >= 4 or proc.poll() is not None:
            break
    time.sleep(0.5)  # past the helpers' first milliseconds, before they ignore Ctrl-C (see docs/reliability.md)
    assert proc.poll() is None, "it ended before the signal"
    os.killpg(proc.pid, sig) if sig == signal.SIGINT else proc.send_signal(sig)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 128 + sig
    assert [line for line in err.splitlines() if line.strip()] == [
        f"simdesk: stopped ({'interrupted' if sig == signal.SIGINT else 'terminated'}): what was indexed is kept, "
        "and every file moved so far is in the action log (simdesk undo puts it back)"
    ]
    deadline = time.monotonic() + 5
    while group_processes(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert group_processes(proc.pid) == []
