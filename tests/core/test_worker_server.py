"""The workers' fork server (it loads the engine, ~1 s of CPU) starts only when a scan's or a verification's
worker processes are used: a small folder read in the scanning process, or a rescan that finds nothing
changed, starts none. Each review runs in a process of its own (the test session's fork server is running)
that reports its child processes once the review is done: the fork server, once started, lives as long as
its process."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from simdesk.core.index.pooling import IN_PROCESS_BELOW

REPO = Path(__file__).resolve().parents[2]
REVIEW_THEN_CHILDREN = """
import os, sys
from pathlib import Path
from simdesk.core import Index, ReviewSettings, ScanOptions, open_review
with Index(Path(sys.argv[2])) as index:
    s = open_review(Path(sys.argv[1]), index, ReviewSettings(scan=ScanOptions(jobs=2))).result.stats
print(f"read {s.new + s.changed} unchanged {s.unchanged}")
for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        if int(stat[stat.rindex(")") + 2 :].split()[1]) == os.getpid():
            print(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\\0", b" ").decode())
    except OSError:
        pass
"""


def review_in_a_process(root: Path, db: Path) -> tuple[str, list[str]]:
    """(what the scan read, the command lines of the process's children) of a review of `root` with two
    workers allowed, run in a process of its own."""
    done = subprocess.run(
        [sys.executable, "-c", REVIEW_THEN_CHILDREN, str(root), str(db)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    counts, *children = done.stdout.splitlines()
    return counts, children


def fork_servers(children: list[str]) -> list[str]:
    return [c for c in children if "multiprocessing.forkserver" in c]


def texts(root: Path, files: int) -> Path:
    rng = random.Random(files)
    han = [chr(c) for c in range(0x4E00, 0x4E00 + 2500)]
    root.mkdir(parents=True)
    for k in range(files):
        (root / f"f{k:03d}.txt").write_text("".join(rng.choice(han) for _ in range(400)), encoding="utf-8")
    return root


pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork server and /proc are Linux's")


def test_a_small_folder_read_in_the_scanning_process_starts_no_fork_server(tmp_path):
    root = texts(tmp_path / "docs", IN_PROCESS_BELOW - 14)
    counts, children = review_in_a_process(root, tmp_path / "i.sqlite")
    assert counts == f"read {IN_PROCESS_BELOW - 14} unchanged 0"
    assert fork_servers(children) == []


def test_a_rescan_that_finds_nothing_changed_starts_no_fork_server(tmp_path):
    root = texts(tmp_path / "docs", IN_PROCESS_BELOW + 6)
    counts, children = review_in_a_process(root, tmp_path / "i.sqlite")
    assert counts == f"read {IN_PROCESS_BELOW + 6} unchanged 0"
    assert len(fork_servers(children)) == 1  # a first scan of this many files reads them in worker processes
    counts, children = review_in_a_process(root, tmp_path / "i.sqlite")
    assert counts == f"read 0 unchanged {IN_PROCESS_BELOW + 6}"
    assert fork_servers(children) == []


FAILING_SERVER = """
from simdesk.core.workers import CancelToken, WorkerServerFailed, ensure_fork_server, process_context
from simdesk.core.workers import worker_server_ready
process_context(("engine_that_fails",))
ensure_fork_server()  # its server fails to load the engine and ends, while the wait below starts
try:
    worker_server_ready(CancelToken())
except WorkerServerFailed as exc:
    print("failed:", exc)
"""


def test_a_server_that_cannot_load_the_engine_ends_the_wait_for_it(tmp_path):
    """A fork server whose engine fails to load (a broken installation: an import that raises) ends before it
    forks: waiting for it raises WorkerServerFailed at once instead of waiting for ever."""
    (tmp_path / "engine_that_fails.py").write_text('raise OSError("the engine cannot load")\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", FAILING_SERVER],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)])},  # the server's path too
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.startswith("failed: the worker processes could not start")
    assert "the engine cannot load" in done.stderr  # the server's own error, on the shared stderr
