"""Nothing hangs: a named pipe or device is never opened for a blocking read (O_NONBLOCK and a type check on
the open file), a large binary file is refused from its first bytes, Cancel and closing the window stop a
scan within a second, and no fork server or worker process outlives a scan that was killed."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from simdesk.core.fingerprint.features import DEFAULT_FEATURES
from simdesk.core.index.scan import fingerprint_file, scan
from simdesk.core.index.store import Index
from simdesk.core.reading import documents
from simdesk.core.reading.documents import NOT_REGULAR, DecodeError, FileEntry, read_bytes
from simdesk.core.records import Problem, ScanOptions
from tests.folders import POEM
from tests.reliability.conftest import REPO, scan_args, simdesk, simdesk_argv


def within(seconds: float, fn, *args):
    """Run fn(*args) on a thread; fail (instead of hanging the suite) when it takes longer than `seconds`."""
    out: dict = {}

    def run() -> None:
        try:
            out["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001  re-raised below
            out["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"{fn.__name__} still blocked after {seconds} s"
    if "error" in out:
        raise out["error"]
    return out["value"]


def test_a_named_pipe_in_the_folder_is_a_problem_not_a_hang(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.txt").write_text(POEM, encoding="utf-8")
    os.mkfifo(root / "pipe.txt")
    with Index(tmp_path / "i.sqlite") as index:
        result = within(60, scan, root, index, ScanOptions(jobs=1))
        assert sorted(index.stored_states()) == ["a.txt"]
    assert [(p.path, p.error) for p in result.problems] == [("pipe.txt", NOT_REGULAR)]


def test_a_file_swapped_for_a_named_pipe_after_listing_is_a_problem_not_a_hang(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text(POEM, encoding="utf-8")
    st = path.stat()
    listed = FileEntry("a.txt", path, st.st_size, st.st_mtime_ns)
    path.unlink()
    os.mkfifo(path)  # no writer: a blocking open would wait for ever
    result = within(10, fingerprint_file, listed, 1 << 20, DEFAULT_FEATURES, {})
    assert result == Problem("a.txt", NOT_REGULAR)
    with pytest.raises(DecodeError, match="not a regular file"):
        within(10, read_bytes, Path("/dev/zero"), 1 << 20)  # a device that never ends


def test_query_with_a_named_pipe_refuses_clearly(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.txt").write_text(POEM, encoding="utf-8")
    os.mkfifo(tmp_path / "pipe")
    proc = simdesk("query", root, tmp_path / "pipe", "--db", tmp_path / "i.sqlite", timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"simdesk: error: {tmp_path / 'pipe'}: {NOT_REGULAR}"


def test_a_raised_size_cap_refuses_500_mb_of_nul_bytes_from_its_first_bytes(tmp_path, monkeypatch):
    path = tmp_path / "zeros.txt"
    with open(path, "wb") as fh:
        fh.truncate(500 * 1024 * 1024)  # sparse: costs no disk
    reads = []
    real = documents.os.fdopen

    def counting_fdopen(*args, **kwargs):
        fh = real(*args, **kwargs)
        original = fh.read

        def read(n=-1):
            data = original(n)
            reads.append(len(data))
            return data

        fh.read = read
        return fh

    monkeypatch.setattr(documents.os, "fdopen", counting_fdopen)
    started = time.perf_counter()
    with pytest.raises(DecodeError, match="binary file"):
        read_bytes(path, 1024 * 1024 * 1024)
    assert sum(reads) <= documents.READ_CHUNK and time.perf_counter() - started < 10


def test_a_file_slower_than_its_budget_is_a_problem(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text(POEM * 2000, encoding="utf-8")
    with pytest.raises(DecodeError, match="took longer than 0 s to read"):
        read_bytes(path, 1 << 30, budget_s=0.0)


def big_folder(root: Path, files: int = 80, chars: int = 60_000) -> Path:
    """Enough text that reading it takes seconds, in files large enough for worker processes."""
    rng = random.Random(5)
    han = [chr(c) for c in range(0x4E00, 0x4E00 + 2500)]
    root.mkdir(parents=True)
    for k in range(files):
        text = "".join(rng.choice(han) + ("，" if rng.random() < 0.1 else "") for _ in range(chars))
        (root / f"f{k:03d}.txt").write_text(text, encoding="utf-8")
    return root


def group_processes(pgid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                out.append(int(entry))
    return out


def processes_left_after_killing(proc: subprocess.Popen, helpers: int) -> dict[int, bytes]:
    """Once `proc`'s session holds `helpers` processes or more, SIGKILL `proc` alone (as a crash or `kill -9
    PID` would) and give the others 5 s to end: the command lines of those still there (then killed)."""
    for _moment in range(1200):
        time.sleep(0.05)
        if len(group_processes(proc.pid)) >= helpers or proc.poll() is not None:
            break
    assert proc.poll() is None and len(group_processes(proc.pid)) >= helpers, "it ended before the kill"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    deadline = time.monotonic() + 5
    while group_processes(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = {
        pid: Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:160] for pid in group_processes(proc.pid)
    }
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork server and /proc are Linux's")
def test_no_worker_or_fork_server_outlives_a_killed_scan(tmp_path):
    root = big_folder(tmp_path / "docs")
    proc = subprocess.Popen(
        simdesk_argv(*scan_args(root, tmp_path / "i.sqlite", "--jobs", 2)),
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    assert processes_left_after_killing(proc, 3) == {}  # the fork server and the workers


REVIEW_IN_ITS_PROCESS = """
import sys
from pathlib import Path
from simdesk.core import ReviewProcess, ReviewRequest, ReviewSettings, ScanOptions
ReviewProcess.prepare()
run = ReviewProcess(ReviewRequest(Path(sys.argv[1]), Path(sys.argv[2]), ReviewSettings(scan=ScanOptions(jobs=2))))
run.start()
for _ in run.events():
    pass
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork server and /proc are Linux's")
def test_no_review_process_or_helper_outlives_a_killed_caller(tmp_path):
    """A window's scan runs in a review process (core.review_process) forked from a fork server, with a fork
    server and workers of its own: killing the window's process ends them all."""
    root = big_folder(tmp_path / "docs")
    proc = subprocess.Popen(
        [sys.executable, "-c", REVIEW_IN_ITS_PROCESS, str(root), str(tmp_path / "i.sqlite")],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    # the caller, its fork server, the review process, the review's fork server and its workers
    assert processes_left_after_killing(proc, 5) == {}


@pytest.fixture(params=[0, 1], ids=["worker processes", "in-process"])
def workers(request, settings) -> int:
    """0: one worker process per core, as the window's default; 1: reading in the scan's own process."""
    settings.set("scan/workers", request.param)
    return request.param


def test_cancel_stops_the_scan_within_a_second(qtbot, workers, window, tmp_path):
    root = big_folder(tmp_path / "docs")
    cancelled_at = {}

    def on_progress(p):
        if p.phase == "reading" and p.done > 0 and not cancelled_at:
            cancelled_at["t"] = time.perf_counter()
            window.cancel_scan()

    with qtbot.waitSignal(window.review_ready, timeout=120_000):
        window.open_folder(root)
        window.scans.progress.connect(on_progress)
    stopped = time.perf_counter() - cancelled_at["t"]
    print(f"cancel ({'in-process' if workers else 'worker processes'}): {stopped:.2f} s")
    assert window.review.result.stats.cancelled and stopped < 1.0, f"cancel took {stopped:.2f} s"


def test_closing_the_window_during_a_scan_never_blocks_a_second(qtbot, workers, window, tmp_path):
    root = big_folder(tmp_path / "docs")
    reading = []
    window.open_folder(root)
    window.scans.progress.connect(lambda p: reading.append(p) if p.phase == "reading" else None)
    qtbot.waitUntil(lambda: len(reading) > 0, timeout=120_000)
    started = time.perf_counter()
    window.close()
    took = time.perf_counter() - started
    print(f"close ({'in-process' if workers else 'worker processes'}): {took:.2f} s")
    assert took < 1.0, f"closing took {took:.2f} s"
