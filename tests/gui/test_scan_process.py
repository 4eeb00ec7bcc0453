"""The window's scan runs in a process of its own (core.ReviewProcess) and the window only relays it: its
progress and reviews arrive, Cancel shows the groups of what was indexed, closing the window, F5 or another
folder end the process and every helper it started, and a process that dies is reported as a message (an
error inside it, such as a folder that vanished, is test_window's test_a_folder_that_vanished_reports_a_failure)."""

from __future__ import annotations

import os
import signal
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from simdesk.core import Index
from tests.gui.test_window import answer_box
from tests.gui.window_driver import SCAN_TIMEOUT_MS, open_and_wait

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process table in /proc")


def process_tree(pid: int) -> set[int]:
    """`pid` and every process descending from it, from /proc."""
    children: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children[ppid].append(int(entry.name))
    out, todo = set(), [pid]
    while todo:
        p = todo.pop()
        out.add(p)
        todo.extend(children.get(p, []))
    return out


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def scan_pid(window) -> int:
    """The process of the window's current scan (once it has started)."""
    pid = window.scans.current.worker.process.pid
    assert pid is not None
    return pid


def wait_for_reading(qtbot, window, folder: Path) -> None:
    """Open `folder` and wait until its scan has read a first file."""
    read = []
    window.scans.progress.connect(lambda p: read.append(p) if p.phase == "reading" and p.done > 0 else None)
    window.open_folder(folder)
    qtbot.waitUntil(lambda: bool(read), timeout=SCAN_TIMEOUT_MS)


def test_closing_the_window_during_a_scan_ends_its_process_and_helpers(qtbot, window, corpus, settings):
    settings.set("scan/workers", 2)  # files read in worker processes of the scan's own
    wait_for_reading(qtbot, window, corpus)
    pid = scan_pid(window)
    tree: set[int] = set()

    def helpers_started() -> None:
        tree.update(process_tree(pid))
        assert len(tree) > 2  # the scan's process, its fork server, its workers

    qtbot.waitUntil(helpers_started, timeout=SCAN_TIMEOUT_MS)
    index_file = window.index_path
    window.close()
    assert not window.is_scanning()
    qtbot.waitUntil(lambda: not any(running(p) for p in tree), timeout=10_000)
    with Index(index_file) as index:  # what was committed stays, and the index is sound
        assert index.integrity_ok()


def test_f5_during_a_scan_ends_that_scan_and_scans_again(qtbot, window, corpus):
    wait_for_reading(qtbot, window, corpus)
    first = scan_pid(window)
    with qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS):
        window.rescan()
    qtbot.waitUntil(lambda: not running(first), timeout=10_000)
    assert not window.review.result.stats.cancelled
    assert window.review.documents == window.review.result.stats.listed


def test_a_scan_process_that_dies_is_reported(qtbot, window, corpus):
    wait_for_reading(qtbot, window, corpus)
    with qtbot.waitSignal(window.failed, timeout=SCAN_TIMEOUT_MS) as failed:
        os.kill(scan_pid(window), signal.SIGKILL)
    assert "ended unexpectedly" in failed.args[0] and "killed by signal 9" in failed.args[0]
    text = answer_box(qtbot, window, "scan_failed", QMessageBox.StandardButton.Ok)
    assert "ended unexpectedly" in text
    qtbot.waitUntil(lambda: not window.is_scanning(), timeout=5000)
    open_and_wait(qtbot, window, corpus)  # the next scan goes on from what was indexed
    assert not window.review.result.stats.cancelled
