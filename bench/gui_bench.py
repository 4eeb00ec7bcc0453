"""The window's responsiveness figures, one `name value unit` line each:

- gui_open_indexed_s: opening an already-indexed folder until its groups are shown (from the index);
- gui_regroup_ms_max / _median: moving the threshold 0..12 until the model is reset and the view painted
  (gui_regroup_steps_ms: each step's; with --trace-stalls, the stacks of every thread every 80 ms of a step);
- gui_idle_stall_ms: the longest gap of a 10 ms QTimer on the GUI thread left idle for 10 s (the machine's load
  alone);
- gui_scan_stall_ms: the longest gap of that timer during a full scan of the folder (with --trace-stalls FILE,
  the stacks of every thread at each gap over 80 ms);
  gui_scan_phases_s: how long each phase of that scan took; gui_scan_first_groups_s: when the first groups
  were shown while it ran; gui_scan_time_left_ratio_at_10% / 50%: the window's whole-scan time left then,
  against the time that was really left (target: within 2x);
- gui_cancel_reading_s / _verifying_s: Cancel during a first scan (30% read) and while verifying, until the
  review of what was indexed is shown (target < 1 s); gui_f5_during_scan_ms and gui_close_during_scan_ms: F5
  and closing the window during a scan, until the GUI thread is free again (target < 100 ms), and the scan
  processes left behind (--scan-only: these and the first scan's figures alone);
- gui_drag_regroups: the slider held down and moved 0 -> 12 one step every 15 ms: regroups shown before
  the last step (target: regroups while dragging);
- gui_sort_distance_ms, gui_sort_title_ms, gui_sort_date_ms, gui_filter_key_ms_max: sorting the groups by
  Distance, Title and Date (on the headlines read so far), and each key typed in the filter box, until the
  list is painted;
- gui_keep_rule_stall_ms: "Keep by rule" (oldest) over every group of the indexed folder: the longest gap of the
  10 ms timer from the action until its marks are applied and counted (the copies are chosen off the GUI
  thread, the marks applied on it; with --trace-stalls, the stacks of its gaps); gui_keep_rule_undo_stall_ms:
  Ctrl+Z after it; gui_keep_rule_undone_at_once_*: the rule again, undone as soon as its marks are shown, and
  what the status bar says then (never the undone rule's summary); gui_keep_rule_gc_ms: Python's garbage
  collections meanwhile. --keep-rule-only: the first scan and these figures alone, after every headline is
  read; with --index INDEX (an index of the folder made before), no first scan;
- gui_model_100k_*: the groups model over a synthetic 100,000-document grouping (set, sort, filter, paint);
- gui_diff_1mb_*: a 1 MB pair made from the collection's texts (an edited copy; a re-flowed copy: other line
  width, half-width commas), as normalised and raw: from selecting the pair until the diff is painted, the
  process's CPU time meanwhile (the comparison itself runs in the window's helper process), and the longest
  gap of a 10 ms timer on the GUI thread meanwhile (with --trace-stalls, the stacks of its gaps). Targets:
  < 1 s shown, < 100 ms frozen. --diff-only: these figures alone.

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m bench.gui_bench /tmp/c_medium
"""

from __future__ import annotations

import argparse
import faulthandler
import gc
import os
import shutil
import statistics
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import psutil
from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QApplication, QTableView

from simdesk.core import Grouper, Progress, Snapshot, index_path
from simdesk.gui import refcount_guard
from simdesk.gui.app import make_window, preload_native_segmenter
from simdesk.gui.groups_model import COL_DATE, COL_DISTANCE, COL_SIZE, COL_TITLE, GroupsModel
from simdesk.gui.settings import Settings


def wait_for(signal, timeout_s: float = 900) -> None:
    loop = QEventLoop()
    signal.connect(loop.quit)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()
    signal.disconnect(loop.quit)


class StallMeter:
    """A 10 ms timer on the GUI thread; the longest gap between its ticks is the longest stall.

    With `trace` (a file), every gap longer than TRACE_AFTER_S gets the stacks of all of the process's
    threads written there as it happens (faulthandler's watchdog, which needs no Python lock): what held the
    GUI thread up, whether a slot of its own or another thread keeping Python's lock."""

    TRACE_AFTER_S = 0.08

    def __init__(self, trace: Path | None = None) -> None:
        self.ticks: list[float] = []
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)
        self.trace = open(trace, "a", encoding="utf-8") if trace is not None else None  # noqa: SIM115

    def _tick(self) -> None:
        self.ticks.append(time.perf_counter())
        if self.trace is not None:
            faulthandler.dump_traceback_later(self.TRACE_AFTER_S, file=self.trace)

    def start(self) -> None:
        self.ticks = [time.perf_counter()]
        self.timer.start()

    def stop(self) -> tuple[float, float]:
        """The longest gap and when it ended (perf_counter). With `trace`, the gaps that got stacks are
        listed at the end of the file, in the order of the stacks (one stack per gap)."""
        self.timer.stop()
        if self.trace is not None:
            faulthandler.cancel_dump_traceback_later()
            long = [(b - a, b) for a, b in zip(self.ticks, self.ticks[1:]) if b - a > self.TRACE_AFTER_S]
            self.trace.write(
                "".join(
                    f"stack {k + 1}: gap of {gap * 1000:.0f} ms ending {end - self.ticks[0]:.1f} s after the start\n"
                    for k, (gap, end) in enumerate(long)
                )
            )
            self.trace.close()
            self.trace = None
        gaps = [(b - a, b) for a, b in zip(self.ticks, self.ticks[1:])]
        return max(gaps, default=(0.0, 0.0))


class GarbageCollections:
    """Python's garbage collections, on any thread (each holds the interpreter's lock, so the GUI thread
    waits too), from its making until stop()."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, float]] = []
        self._started = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seen.append((info["generation"], time.perf_counter() - self._started))

    def stop(self) -> str:
        """The collections over 5 ms, as `generation:ms` (`none` when there were none)."""
        gc.callbacks.remove(self._callback)
        long = [f"{g}:{s * 1000:.0f}" for g, s in self.seen if s > 0.005]
        return ", ".join(long) or "none"


def traced(trace: Path | None, title: str) -> StallMeter:
    """A StallMeter whose stacks (with `trace`) follow a line naming what is measured."""
    if trace is not None:
        with open(trace, "a", encoding="utf-8") as fh:
            fh.write(f"== {title}\n")
    return StallMeter(trace)


def bench_settings(path: Path, jobs: int | None = None) -> Settings:
    """The benchmarks' window settings, kept at `path`: English, `jobs` scan workers (None: the default)."""
    settings = Settings.at(path)
    settings.set("ui/language", "en")
    if jobs is not None:
        settings.set("scan/workers", jobs)
    return settings


def open_window(settings: Settings, data_dir: Path):
    """A window as the benchmarks measure it: 1400 x 850, shown."""
    window = make_window(settings, data_dir)
    window.resize(1400, 850)
    window.show()
    return window


def settle(seconds: float) -> None:
    """Run the event loop for `seconds` (what follows an action: the counter's recount, the decisions' save)."""
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)


def keep_rule_figures(window, trace: Path | None = None) -> None:
    """gui_keep_rule_stall_ms: Keep by rule over every group of the window's review, with the stall meter on;
    gui_keep_rule_undo_stall_ms: Ctrl+Z after it; gui_keep_rule_undone_at_once: the rule again, undone as soon
    as its marks are shown (its summary still being counted), and what the status bar says once the window's
    background work is done."""
    actions = window.review_actions
    groups = window.groups_model.rowCount()
    collections = GarbageCollections()
    meter = traced(trace, "a keep rule over every group")
    meter.start()
    started = time.perf_counter()
    actions.keep_by_rule_everywhere("oldest")
    wait_for(actions.decisions_changed)
    applied = time.perf_counter() - started
    settle(2)
    stall, _ = meter.stop()
    print(
        f"gui_keep_rule_stall_ms {stall * 1000:.0f} ms  # target < 100 ms; Keep by rule (oldest) over every one "
        f"of {groups:,} groups of {window.review.documents:,} documents, applied in {applied:.1f} s, then 2 s "
        "of recount"
    )
    meter = traced(trace, "undo of the keep rule")
    meter.start()
    actions.undo_marks()
    settle(2)
    stall, _ = meter.stop()
    print(f"gui_keep_rule_undo_stall_ms {stall * 1000:.0f} ms  # target < 100 ms; Ctrl+Z after it, then 2 s")
    meter = traced(trace, "the keep rule again, undone at once")
    meter.start()
    actions.keep_by_rule_everywhere("oldest")
    wait_for(actions.decisions_changed)
    actions.undo_marks()
    while window.background.busy():
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)
    settle(0.5)
    stall, _ = meter.stop()
    said = window.statusBar().currentMessage()
    print(
        f"gui_keep_rule_undone_at_once_stall_ms {stall * 1000:.0f} ms  # the rule again, undone as soon as its "
        f"marks are shown; the status bar then says: {said!r} (the rule's summary there would be stale)"
    )
    print(
        f"gui_keep_rule_gc_ms {collections.stop()}  # Python's garbage collections over 5 ms meanwhile (generation: ms)"
    )


def first_scan_figures(window, folder: Path, jobs: int, trace: Path | None) -> None:
    """A full scan of a folder never indexed, with the stall meter running on the GUI thread: gui_scan_*."""
    meter = traced(trace, "a first scan")
    phases: list[tuple[float, str]] = []
    meter.start()
    started = time.perf_counter()
    estimates: list[tuple[float, float | None]] = []  # (when, the window's whole-scan time left)
    first_groups: list[float] = []
    window.open_folder(folder)
    window.scans.progress.connect(lambda p: phases.append((time.perf_counter(), p.phase)))
    window.scans.progress.connect(
        lambda p: estimates.append((time.perf_counter(), window.scan_progress.time_left.seconds()))
    )
    window.groups_shown.connect(lambda: first_groups.append(time.perf_counter()) if window.is_scanning() else None)
    window.review_ready.connect(lambda: phases.append((time.perf_counter(), "showing the groups")))
    wait_for(window.review_ready)
    ended = time.perf_counter()
    scan_s = ended - started
    stall, stall_end = meter.stop()
    phase = next((name for t, name in reversed(phases) if t <= stall_end), "starting")
    print(f"gui_scan_s {scan_s:.1f} s  # full scan of {window.review.documents} documents, jobs={jobs or 'auto'}")
    print(
        f"gui_scan_stall_ms {stall * 1000:.0f} ms  # target < 100 ms; longest gap of a 10 ms timer during "
        f"that scan (it ended in phase: {phase})"
    )
    spans, last = [], None
    for t, name in phases:
        if name != last:
            spans.append((name, t))
            last = name
    print(
        "gui_scan_phases_s "
        + ", ".join(f"{name} {(nxt - t):.1f}" for (name, t), (_, nxt) in zip(spans, spans[1:] + [("end", ended)]))
    )
    if first_groups:
        print(
            f"gui_scan_first_groups_s {first_groups[0] - started:.1f} s  # target: groups while the scan runs "
            f"(identical copies; the verified groups at {scan_s:.1f} s)"
        )
    else:
        print("gui_scan_first_groups_s n/a  # no groups shown before the scan ended")
    for share in (0.1, 0.5):
        told = next(((t, e) for t, e in estimates if t - started >= share * scan_s and e is not None), None)
        if told is None:
            print(f"gui_scan_time_left_ratio_at_{share:.0%} n/a  # no estimate then")
            continue
        t, e = told
        actual = ended - t
        print(
            f"gui_scan_time_left_ratio_at_{share:.0%} {e / actual:.2f} x  # target within 2x (0.5-2); told "
            f"{e:.0f} s left at {t - started:.1f} s, {actual:.0f} s were left"
        )


def window_figures(
    folder: Path,
    workdir: Path,
    jobs: int,
    trace: Path | None = None,
    scan_only: bool = False,
    keep_rule_only: bool = False,
    index: Path | None = None,
) -> None:
    """The window's figures; `index`, an index of `folder` made before (`simdesk scan DIR --db INDEX`), spares
    the first scan and its figures."""
    settings = bench_settings(workdir / "settings.ini", jobs)
    data_dir = workdir / "data"
    preload_native_segmenter()  # as run_app does before the window shows
    window = open_window(settings, data_dir)

    # 0. the same meter with nothing to do for 10 s: what the machine's load alone costs the GUI thread
    meter = StallMeter()
    meter.start()
    idle_until = time.perf_counter() + 10
    while time.perf_counter() < idle_until:
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)
    idle, _ = meter.stop()
    load = os.getloadavg()[0]
    print(
        f"gui_idle_stall_ms {idle * 1000:.0f} ms  # the same 10 ms timer for 10 s with nothing running "
        f"(load average {load:.1f} on {os.cpu_count()} cores): the machine's share of the stalls below"
    )

    # 1. a full scan of a folder never indexed (unless an index made before is given), with the stall meter
    if index is None:
        first_scan_figures(window, folder, jobs, trace)
    else:
        target = index_path(folder.resolve(), data_dir)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(index, target)
    index_file = index_path(folder.resolve(), data_dir)
    window.close()
    if scan_only:
        return

    # 2. a new window (a restart) on the indexed folder: time until the groups from the index are shown
    second = open_window(settings, data_dir)
    read: list[float] = []  # when every member's headline had been read
    second.headlines_done.connect(lambda: read.append(time.perf_counter()))
    started = time.perf_counter()
    second.open_folder(folder)
    wait_for(second.groups_shown)
    QApplication.processEvents()
    shown_s = time.perf_counter() - started
    print(
        f"gui_open_indexed_s {shown_s:.2f} s  # {second.review.documents} documents, groups shown from the "
        f"index ({index_file.stat().st_size / 1e6:.0f} MB)"
    )
    wait_for(second.review_ready)
    print(f"gui_open_indexed_rescan_s {time.perf_counter() - started:.2f} s  # until the incremental rescan ended")
    if keep_rule_only:
        if not read:  # the headlines read, as after a minute of looking: the reader's work is not the rule's
            wait_for(second.headlines_done, 300)
        keep_rule_figures(second, trace)
        second.close()
        return

    # 3. the slider: regroup + model reset + counts, then a paint of the groups list, at each threshold
    regroup, painted = [], []
    steps = list(range(0, 13)) + list(range(11, -1, -1))
    stacks = open(trace, "a", encoding="utf-8") if trace is not None else None  # noqa: SIM115
    for threshold in steps:
        if stacks is not None:
            stacks.write(f"== slider step to {threshold}\n")
            stacks.flush()
            faulthandler.dump_traceback_later(StallMeter.TRACE_AFTER_S, repeat=True, file=stacks)
        t0 = time.perf_counter()
        second.set_threshold(threshold)
        QApplication.processEvents()
        t1 = time.perf_counter()
        if stacks is not None:
            faulthandler.cancel_dump_traceback_later()
        second.groups_view.grab()
        regroup.append(t1 - t0)
        painted.append(time.perf_counter() - t0)
    if stacks is not None:
        stacks.close()
    print(
        "gui_regroup_steps_ms "
        + ", ".join(f"{t}:{s * 1000:.0f}" for t, s in zip(steps, regroup))
        + "  # each step: threshold:ms"
    )
    print(
        f"gui_regroup_ms_median {statistics.median(regroup) * 1000:.1f} ms  # threshold moved one step, "
        f"{second.review.documents} docs: regroup, model reset, counts"
    )
    print(f"gui_regroup_ms_max {max(regroup) * 1000:.1f} ms  # target < 50 ms per step")
    print(f"gui_regroup_painted_ms_max {max(painted) * 1000:.1f} ms  # the same plus painting the groups list")
    # a drag: the slider held down and moved one step every 15 ms, 0 -> 12; regroups seen before its end
    second.set_threshold(0)
    slider = second.threshold_bar.slider
    during: list[int] = []
    record = lambda: during.append(second.groups_model.grouping.threshold)  # noqa: E731
    second.groups_shown.connect(record)
    slider.setSliderDown(True)
    for value in range(1, 13):
        slider.setValue(value)
        end = time.perf_counter() + 0.015
        while time.perf_counter() < end:
            QApplication.processEvents()
    moved = len(during)
    wait_for(second.groups_shown, 1) if second.groups_model.grouping.threshold != 12 else None
    slider.setSliderDown(False)
    second.groups_shown.disconnect(record)
    print(
        f"gui_drag_regroups {moved} of 12 steps  # target: regroups while dragging; a drag 0 -> 12 at one step "
        f"per 15 ms, regroups shown before its last step (then at 12: {second.groups_model.grouping.threshold})"
    )

    # 4. sorting and filtering the groups at the widest threshold, each followed by a paint of the list
    second.set_threshold(12)
    QApplication.processEvents()
    second.groups_view.horizontalHeader()
    t0 = time.perf_counter()
    second.groups_view.sortByColumn(COL_DISTANCE, Qt.SortOrder.DescendingOrder)
    second.groups_view.grab()
    sort_s = time.perf_counter() - t0
    fresh = second.review.grouper.without([]).at(12)  # the same groups, none built yet
    t0 = time.perf_counter()
    [fresh.group(k).max_distance for k in range(len(fresh))]  # what the sort cost when it built every group
    built_s = time.perf_counter() - t0
    print(
        f"gui_sort_distance_ms {sort_s * 1000:.0f} ms  # target < 100 ms; {second.groups_model.rowCount():,} "
        f"groups; building every group for its distance, as the sort did before: {built_s * 1000:.0f} ms "
        f"({built_s / max(sort_s, 1e-9):.1f}x)"
    )
    for col, name in ((COL_TITLE, "title"), (COL_DATE, "date")):
        unread = second.review.unread_headlines(second.groups_model.order)
        t0 = time.perf_counter()
        second.groups_view.sortByColumn(col, Qt.SortOrder.AscendingOrder)
        second.groups_view.grab()
        sort_s = time.perf_counter() - t0
        print(
            f"gui_sort_{name}_ms {sort_s * 1000:.0f} ms  # target < 100 ms; {second.groups_model.rowCount():,} "
            f"groups, {unread:,} of them with a first document whose headline was not read yet (sorted last)"
        )
    second.groups_view.sortByColumn(COL_DISTANCE, Qt.SortOrder.DescendingOrder)
    keys = []
    for text in ("新", "新闻", "新闻/", "新闻/2", "新闻/20", ""):
        t0 = time.perf_counter()
        second.filter_edit.setText(text)
        second.groups_view.grab()
        keys.append(time.perf_counter() - t0)
    print(
        f"gui_filter_key_ms_max {max(keys) * 1000:.0f} ms  # target < 100 ms; typing '新闻/20' then clearing "
        f"(median {statistics.median(keys) * 1000:.0f} ms)"
    )
    second.filter_edit.setText("")
    keep_rule_figures(second, trace)
    second.close()


def one_megabyte_pair(folder: Path, dest: Path, seed: int = 3) -> Path:
    """dest/ with reference.txt (~1 MB of the collection's texts in walk order), edited.txt (200 scattered
    one-character edits and an inserted paragraph) and reflowed.txt (the same text as one paragraph wrapped
    at 37 characters, its full-width commas half-width)."""
    from simdesk.core import ScanOptions, read_text_file, walk

    options = ScanOptions()
    parts, size = [], 0
    for entry in walk(folder, options.includes, options.max_bytes):
        try:
            text = read_text_file(entry.path, options.max_bytes).text
        except (OSError, ValueError):
            continue
        parts.append(text)
        size += len(text.encode("utf-8"))
        if size >= 1_000_000:
            break
    text = "\n\n".join(parts)
    rng = np.random.default_rng(seed)
    chars = list(text)
    for k in rng.choice(len(chars), 200, replace=False):
        if not chars[k].isspace():
            chars[k] = "改"
    edited = "".join(chars)
    middle = len(edited) // 2
    edited = edited[:middle] + "\n这是一段插入的新内容，用来检查比较视图能否找到它。\n" + edited[middle:]
    flat = " ".join(text.split())  # one paragraph; a space wherever a line broke (the engine ignores spaces)
    # wrapped at 37 characters as an editor would: Chinese anywhere, other scripts between words
    reflowed = "\n".join(textwrap.wrap(flat, 37, break_on_hyphens=False)).replace("，", ",")
    dest.mkdir(parents=True, exist_ok=True)
    for name, body in (("reference.txt", text), ("edited.txt", edited), ("reflowed.txt", reflowed)):
        (dest / name).write_text(body, encoding="utf-8")
    return dest


def wait_for_phase(window, phases: set[str], share: float = 0.0, timeout_s: float = 900) -> Progress | None:
    """Run the event loop until the window's scan reports one of `phases` with at least `share` of it done;
    that report (None: the scan ended first, or the time ran out)."""
    loop = QEventLoop()
    seen: list[Progress] = []

    def progress(p: Progress) -> None:
        if p.phase in phases and p.done >= share * p.total:
            seen.append(p)
            loop.quit()

    window.scans.progress.connect(progress)
    window.scans.ended.connect(loop.quit)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()
    window.scans.progress.disconnect(progress)
    window.scans.ended.disconnect(loop.quit)
    return seen[0] if seen else None


def scan_processes() -> int:
    """Processes of this benchmark's process tree besides itself and multiprocessing's fork server and
    resource tracker (which live as long as the window's process): a scan's processes that outlived it."""
    helpers = ("multiprocessing.forkserver import main", "multiprocessing.resource_tracker import main")
    me = psutil.Process()
    left = len(me.children(recursive=True))
    for child in me.children():
        try:
            left -= any(h in " ".join(child.cmdline()) for h in helpers)
        except psutil.Error:  # ended meanwhile
            pass
    return left


def interruption_figures(folder: Path, workdir: Path, jobs: int, trace: Path | None = None) -> None:
    """Cancel, F5 and closing the window while a first scan runs, each timed from the action, with the
    longest gap of a 10 ms GUI timer meanwhile."""
    window = open_window(bench_settings(workdir / "settings-stop.ini", jobs), workdir / "data-stop")
    for phase, share in (("reading", 0.3), ("verifying", 0.2)):
        window.open_folder(folder)  # the second time: what the cancelled scan indexed, then a rescan
        at = wait_for_phase(window, {phase}, share)
        if at is None:
            print(f"gui_cancel_{phase}_s n/a  # the scan ended before {share:.0%} of {phase}")
            continue
        ended: list[float] = []
        window.scans.ended.connect(lambda: ended.append(time.perf_counter()))  # noqa: B023
        meter = traced(trace, f"cancel while {phase}")
        meter.start()
        t0 = time.perf_counter()
        window.cancel_scan()
        wait_for(window.review_ready, 120)
        shown = time.perf_counter() - t0
        if not ended:
            wait_for(window.scans.ended, 120)
        stall, _ = meter.stop()
        review = window.review
        groups = len(window.groups_model.grouping) if window.groups_model.grouping is not None else 0
        print(
            f"gui_cancel_{phase}_s {shown:.2f} s  # target < 1 s; Cancel at {at.done:,}/{at.total:,} {phase} "
            f"until the review of what was indexed is shown ({review.documents if review else 0:,} documents, "
            f"{groups:,} groups); scan over after {ended[0] - t0:.2f} s; longest GUI stall "
            f"{stall * 1000:.0f} ms"
        )
    window.open_folder(folder)
    wait_for_phase(window, {"verifying", "scoring"}, 0.0)
    meter = traced(trace, "F5, then closing the window")
    meter.start()
    t0 = time.perf_counter()
    window.rescan()
    f5 = time.perf_counter() - t0
    at = wait_for_phase(window, {"verifying", "scoring", "boilerplate", "pairing"}, 0.0)
    t0 = time.perf_counter()
    window.close()
    closed = time.perf_counter() - t0
    stall, _ = meter.stop()
    t0 = time.perf_counter()
    while scan_processes() > 0 and time.perf_counter() - t0 < 10:
        QApplication.processEvents()
        time.sleep(0.05)
    print(
        f"gui_f5_during_scan_ms {f5 * 1000:.0f} ms  # target < 100 ms; F5 while verifying, until the "
        f"window takes events again"
    )
    print(
        f"gui_close_during_scan_ms {closed * 1000:.0f} ms  # target < 100 ms; closing the window while "
        f"{at.phase if at else 'scanning'}; longest GUI stall over F5 and close {stall * 1000:.0f} ms; scan "
        f"processes left {scan_processes()} ({time.perf_counter() - t0:.2f} s after)"
    )


def diff_figures(folder: Path, workdir: Path, trace: Path | None = None) -> None:
    """The 1 MB diffs, in a window on a folder holding only the pair (see the module docstring)."""
    pair_dir = one_megabyte_pair(folder, workdir / "pair")
    window = open_window(bench_settings(workdir / "settings-diff.ini"), workdir / "data-diff")
    window.open_folder(pair_dir)
    wait_for(window.review_ready)
    window.set_threshold(12)
    model = window.groups_model
    grouped = {m.path for r in range(model.rowCount()) for m in model.group_at(r).members}
    size_mb = (pair_dir / "reference.txt").stat().st_size / 1e6
    for copy in ("edited", "reflowed"):
        for mode in ("normalised", "raw"):
            # no group current, so nothing to compare: the mode switch starts no comparison
            window.groups_view.selectionModel().clear()
            QApplication.processEvents()
            window.diff_view.set_mode(mode)
            for _ in range(3):
                window.background.wait()
                QApplication.processEvents()
            if f"{copy}.txt" not in grouped or "reference.txt" not in grouped:
                print(f"gui_diff_1mb_{copy}_{mode}_s n/a  # the pair is not grouped")
                continue
            meter = traced(trace, f"1 MB diff, {copy}, {mode}")
            meter.start()
            t0, cpu0 = time.perf_counter(), time.process_time()
            window.selection.select_members(
                [window.selection.member_index("reference.txt"), window.selection.member_index(f"{copy}.txt")]
            )
            wait_for(window.diff_shown, 60)
            window.diff_view.grab()
            shown, cpu = time.perf_counter() - t0, time.process_time() - cpu0
            stall, _ = meter.stop()
            result = window.diff_view.result
            titles = window.diff_view.left_title.text() + window.diff_view.right_title.text()
            assert result.mode == mode and f"{copy}.txt" in titles, (result.mode, titles)
            in_view = len(result.rough.intersection(window.diff_view.left.visible_range()))
            print(
                f"gui_diff_1mb_{copy}_{mode}_s {shown:.2f} s  # target < 1 s; {size_mb:.1f} MB pair, "
                f"{len(result.rows):,} rows, {len(result.hunks)} changes, similarity {result.similarity:.1f}%; "
                f"rows whose changes are found when scrolled to: {len(result.rough):,} ({in_view} in view)"
                f"{', a row diff cut short' if result.timed_out else ''}"
            )
            print(
                f"gui_diff_1mb_{copy}_{mode}_cpu_s {cpu:.2f} s  # CPU of the window's process meanwhile (all "
                f"threads): the work, whatever the machine's load"
            )
            print(f"gui_diff_1mb_{copy}_{mode}_stall_ms {stall * 1000:.0f} ms  # target < 100 ms")
    window.close()


def model_figures(n_docs: int = 100_000, seed: int = 1) -> None:
    """The groups model over a synthetic grouping of `n_docs` documents (two thirds of them in groups)."""
    rng = np.random.default_rng(seed)
    fps = rng.integers(0, 2**63, size=n_docs, dtype=np.int64).view(np.uint64)
    i_list, j_list = [], []
    k = 0
    while k < n_docs * 2 // 3 - 6:
        size = int(rng.integers(2, 6))
        for m in range(1, size):
            i_list.append(k)
            j_list.append(k + m)
        k += size
    i = np.array(i_list, dtype=np.int64)
    j = np.array(j_list, dtype=np.int64)
    d = rng.integers(0, 13, size=len(i)).astype(np.int64)
    fps[j] = fps[i] ^ np.uint64(1)  # near, so representatives and distances are cheap and real
    ids = np.arange(n_docs, dtype=np.int64)
    snap = Snapshot(
        ids,
        fps,
        rng.integers(100, 100_000, n_docs).astype(np.int64),
        rng.integers(1_600_000_000, 1_700_000_000, n_docs).astype(np.int64) * 10**9,
        np.full(n_docs, 1000, dtype=np.int64),
        [f"folder{x % 97}/doc{x:06d}.txt" for x in range(n_docs)],
        [f"{x:032x}" for x in range(n_docs)],
        ["utf-8"] * n_docs,
    )
    grouper = Grouper(snap, i, j, d)
    view = QTableView()
    model = GroupsModel()
    view.setModel(model)
    view.resize(900, 700)
    view.show()
    QApplication.processEvents()
    t0 = time.perf_counter()
    grouping = grouper.at(12)
    model.set_grouping(grouping)
    view.grab()
    print(
        f"gui_model_100k_set_ms {(time.perf_counter() - t0) * 1000:.0f} ms  # {len(grouping):,} groups, "
        f"regroup + reset + first paint"
    )
    t0 = time.perf_counter()
    model.sort(COL_SIZE, Qt.SortOrder.DescendingOrder)
    view.grab()
    print(f"gui_model_100k_sort_ms {(time.perf_counter() - t0) * 1000:.0f} ms  # by total size")
    t0 = time.perf_counter()
    model.set_filter("folder7/")
    view.grab()
    print(
        f"gui_model_100k_filter_ms {(time.perf_counter() - t0) * 1000:.0f} ms  # first filter (builds the "
        f"row -> group table)"
    )
    model.set_filter("")
    t0 = time.perf_counter()
    bar = view.verticalScrollBar()
    for step in range(50):
        bar.setValue(bar.maximum() * step // 50)
        view.grab()
    print(f"gui_model_100k_scroll_ms {(time.perf_counter() - t0) * 1000 / 50:.1f} ms  # per jump-and-paint")
    print(f"gui_model_100k_groups_built {len(grouping._groups)}  # Group objects built (lazy)")  # noqa: SLF001


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a collection, e.g. the medium corpus (20,000 documents)")
    parser.add_argument("--jobs", type=int, default=0, help="scan worker processes (0: one per core)")
    parser.add_argument("--skip-window", action="store_true", help="only the synthetic 100k model figures")
    parser.add_argument(
        "--scan-only",
        action="store_true",
        help="only the first scan's figures and those of stopping a scan (Cancel, F5, close)",
    )
    parser.add_argument("--diff-only", action="store_true", help="only the 1 MB diffs' figures")
    parser.add_argument(
        "--keep-rule-only", action="store_true", help="only the first scan's figures and the keep rule's"
    )
    parser.add_argument(
        "--index",
        type=Path,
        metavar="INDEX",
        help="an index of the folder made before (`simdesk scan DIR --db INDEX`): no first scan nor its figures",
    )
    parser.add_argument(
        "--trace-stalls",
        type=Path,
        metavar="FILE",
        help="write the stacks of every thread to FILE at each GUI stall of the first scan, "
        "of the slider's steps, of stopping scans and of the 1 MB diffs",
    )
    args = parser.parse_args(argv)
    with bench_app("simdesk-gui-bench-") as workdir:
        if not args.skip_window and not args.diff_only:
            window_figures(
                args.folder, workdir, args.jobs, args.trace_stalls, args.scan_only, args.keep_rule_only, args.index
            )
            if args.keep_rule_only:
                return 0
            interruption_figures(args.folder, workdir, args.jobs, args.trace_stalls)
        if not args.scan_only:
            diff_figures(args.folder, workdir, args.trace_stalls)
        if not args.scan_only and not args.diff_only:
            model_figures()
    return 0


@contextmanager
def bench_app(prefix: str) -> Iterator[Path]:
    """The application as run_app makes it, and a work folder (removed after); the windows closed after."""
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    refcount_guard.install()  # as run_app does
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield workdir
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    sys.stdout.flush()
    app.closeAllWindows()


if __name__ == "__main__":
    sys.exit(main())
