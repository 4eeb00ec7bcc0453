"""Background work for the window: a scan worker in a QThread, and one-off calls on a thread pool.

The rule (Anki's, napari's): the background function never touches a widget. It reports by signals, which
Qt delivers on the GUI thread; errors come back as a `failed` signal with a message, never a crash.
"""
from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThread, QThreadPool, Signal, Slot

from simdesk.core.groups import Grouper, grouper_for
from simdesk.core.index import BUSY_MESSAGE, Index, IndexError_
from simdesk.core.records import Problem, Progress, ScanOptions
from simdesk.core.scan import CancelToken, ScanResult, scan


@dataclass
class Review:
    """What the window shows for a folder: its pairs ready to regroup, the editor's keep marks, problems."""

    root: Path
    index_path: Path
    grouper: Grouper
    keep: set[str] = field(default_factory=set)
    problems: list[Problem] = field(default_factory=list)
    result: ScanResult | None = None  # None while showing what the index held before this scan
    unchanged: bool = False  # the scan changed no document: the groups shown from the index still hold
    queued: set[str] = field(default_factory=set)  # copies the editor queued for the trash

    @property
    def documents(self) -> int:
        return len(self.grouper.snapshot)

    @property
    def min_similarity(self) -> float | None:
        """The least verified similarity of a grouping pair (None: plain SimHash groups)."""
        return getattr(self.grouper, "min_score", None)


def load_review(root: Path, index: Index, max_threshold: int, min_similarity: float | None = None,
                max_bytes: int = ScanOptions().max_bytes, result: ScanResult | None = None,
                on_progress: Callable[[Progress], None] | None = None,
                is_cancelled: Callable[[], bool] = lambda: False) -> Review:
    """Read a folder's index into a Review: its pairs up to `max_threshold` (verified on the texts when
    `min_similarity` is given, as `simdesk scan` does by default), the editor's decisions, the problems."""
    if min_similarity is not None:
        from simdesk.core.analysis import VerifySettings, analyse

        verify = VerifySettings(long_radius=max_threshold, min_score=min_similarity, max_bytes=max_bytes)
        grouper = analyse(root, index, verify=verify, on_progress=on_progress, is_cancelled=is_cancelled)
    else:
        grouper = grouper_for(index, max_threshold)
    return Review(root, index.path, grouper, index.keep_marks(), index.problems(), result,
                  queued=index.queued_for_trash())


WARM_GROUPS = 100
BUSY_WAIT_S = 60.0  # how long a scan waits for another scan of the same index to end
BUSY_POLL_S = 0.2


def warm(review: Review, threshold: int) -> None:
    """Group at `threshold` and build the first screenful of groups here, off the GUI thread (both are
    memoised), so the window shows them without computing anything."""
    grouping = review.grouper.at(min(threshold, review.grouper.max_threshold))
    review.grouper.histogram()
    for k in range(min(WARM_GROUPS, len(grouping))):
        grouping.group(k)


class ScanWorker(QObject):
    """Shows what the index already holds, scans the folder incrementally, then shows the fresh result.

    Lives in its own QThread; `cancel()` may be called from any thread and stops the scan within a second,
    keeping what was already indexed (the engine commits as it goes).
    """

    loaded = Signal(object)  # Review from the index as it was, before scanning (only if it had documents)
    progress = Signal(object)  # core.records.Progress
    finished = Signal(object)  # Review after the scan (result.stats.cancelled tells a cancelled one)
    failed = Signal(str)

    def __init__(self, root: Path, index_path: Path, options: ScanOptions, max_threshold: int,
                 show_index_first: bool = True, min_similarity: float | None = None, threshold: int = 0) -> None:
        super().__init__()
        self.root = root
        self.index_path = index_path
        self.options = options
        self.max_threshold = max_threshold
        self.show_index_first = show_index_first
        self.min_similarity = min_similarity
        self.threshold = threshold  # the slider's value when the scan started: grouped here, not on the GUI thread
        self.token = CancelToken()

    def cancel(self) -> None:
        self.token.cancel()

    @Slot()
    def run(self) -> None:
        try:
            with Index(self.index_path) as index:
                before = None
                if self.show_index_first and index.count() > 0:
                    before = self._review(index)
                    self.loaded.emit(before)
                result = self._scan_when_free(index)
                if result is None:
                    return
                s = result.stats
                if before is not None and not s.cancelled and s.new == s.changed == s.moved == s.deleted == 0:
                    # nothing to regroup: skip a second analysis (seconds on a large folder)
                    after = Review(self.root, index.path, before.grouper, index.keep_marks(), index.problems(),
                                   result, unchanged=True, queued=index.queued_for_trash())
                else:
                    after = self._review(index, result)
                self.finished.emit(after)
        except IndexError_ as exc:
            self.failed.emit(str(exc))
        except OSError as exc:
            self.failed.emit(f"{self.root}: {exc.strerror or exc}")
        except Exception as exc:  # a bug must show as a message, not kill the window
            traceback.print_exc()
            self.failed.emit(f"{type(exc).__name__}: {exc}")


    def _scan_when_free(self, index: Index) -> ScanResult | None:
        """Scan, waiting while another scan of this index (a cancelled one of this window, still ending, or
        another simdesk) holds it; None when cancelled while waiting."""
        waited = 0.0
        while True:
            try:
                return scan(self.root, index, self.options, on_progress=self.progress.emit, cancel=self.token)
            except IndexError_ as exc:
                if BUSY_MESSAGE not in str(exc) or waited >= BUSY_WAIT_S:
                    raise
            if waited == 0.0:
                self.progress.emit(Progress("waiting", 0, 0, 0.0))
            if self.token.cancelled:
                self.failed.emit(BUSY_MESSAGE)
                return None
            time.sleep(BUSY_POLL_S)
            waited += BUSY_POLL_S

    def _review(self, index: Index, result: ScanResult | None = None) -> Review:
        review = load_review(self.root, index, self.max_threshold, self.min_similarity, self.options.max_bytes,
                             result, self.progress.emit, lambda: self.token.cancelled)
        warm(review, self.threshold)
        return review


class ScanJob(QObject):
    """Owns a ScanWorker and its QThread; `done` is emitted once the thread has stopped."""

    done = Signal()

    def __init__(self, worker: ScanWorker, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.thread = QThread()
        self.thread.setObjectName("simdesk-scan")
        worker.moveToThread(self.thread)
        self.thread.started.connect(worker.run)
        worker.finished.connect(self.thread.quit)
        worker.failed.connect(self.thread.quit)
        self.thread.finished.connect(self.done)

    def start(self) -> None:
        self.thread.start()

    def cancel(self) -> None:
        self.worker.cancel()

    def is_running(self) -> bool:
        return self.thread.isRunning()

    def stop(self, wait_ms: int = 5000) -> bool:
        """Cancel and wait for the thread (used when the window closes or another folder is opened)."""
        self.worker.cancel()
        self.thread.quit()
        return self.thread.wait(wait_ms)


class _CallSignals(QObject):
    """Lives on the GUI thread: the pool thread emits, Qt queues the call to the slots below."""

    done = Signal(object)
    failed = Signal(str)

    def __init__(self, on_done: Callable[[Any], None], on_failed: Callable[[str], None]) -> None:
        super().__init__()
        self.on_done = on_done
        self.on_failed = on_failed
        self.done.connect(self._done)
        self.failed.connect(self._failed)

    @Slot(object)
    def _done(self, value: Any) -> None:
        self.on_done(value)

    @Slot(str)
    def _failed(self, message: str) -> None:
        self.on_failed(message)


class _Call(QRunnable):
    def __init__(self, fn: Callable[[], Any], signals: _CallSignals) -> None:
        super().__init__()
        self.fn = fn
        self.signals = signals
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            value = self.fn()
        except Exception as exc:
            self.signals.failed.emit(f"{type(exc).__name__}: {exc}" if not isinstance(exc, OSError)
                                     else str(exc))
            return
        self.signals.done.emit(value)


class Background(QObject):
    """Runs plain functions off the GUI thread; the callbacks run on the GUI thread.

    `serial=True` gives a one-thread pool whose calls run in submission order (the editor's decisions are
    written to the index this way, so a write never waits on the GUI thread for a scan's transaction).
    """

    def __init__(self, parent: QObject | None = None, serial: bool = False) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        if serial:
            self.pool.setMaxThreadCount(1)
        self._pending: set[_CallSignals] = set()

    def call(self, fn: Callable[[], Any], on_done: Callable[[Any], None] | None = None,
             on_failed: Callable[[str], None] | None = None) -> None:
        def finish(value: Any) -> None:
            self._pending.discard(signals)
            if on_done is not None:
                on_done(value)

        def fail(message: str) -> None:
            self._pending.discard(signals)
            if on_failed is not None:
                on_failed(message)

        signals = _CallSignals(finish, fail)  # created here, on the GUI thread
        self._pending.add(signals)
        self.pool.start(_Call(fn, signals))

    def busy(self) -> bool:
        return bool(self._pending)

    def wait(self, ms: int = 10000) -> bool:
        return self.pool.waitForDone(ms)


def write_keep(index_path: Path, path: str, keep: bool) -> None:
    """Persist one keep-mark (runs on the serial writer pool)."""
    with Index(index_path) as index:
        index.set_keep(path, keep)


def write_keeps(index_path: Path, keep: set[str], drop: set[str]) -> None:
    """Persist many keep-marks at once (a one-click rule over every group)."""
    with Index(index_path) as index:
        for path in sorted(drop):
            index.set_keep(path, False)
        for path in sorted(keep):
            index.set_keep(path, True)


def write_queued(index_path: Path, path: str, queued: bool) -> None:
    """Persist one trash-queue decision (runs on the serial writer pool)."""
    with Index(index_path) as index:
        index.set_queued_for_trash(path, queued)


def write_not_duplicates(index_path: Path, path_a: str, path_b: str) -> None:
    """Persist a "not duplicates" decision (runs on the serial writer pool)."""
    with Index(index_path) as index:
        index.ignore_pair(path_a, path_b)
