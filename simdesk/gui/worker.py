"""Background work for the window: a scan worker in a QThread, and one-off calls on a thread pool.

The rule (Anki's, napari's): the background function never touches a widget. It reports by signals, which
Qt delivers on the GUI thread; errors come back as a `failed` signal with a message, never a crash.
"""
from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThread, QThreadPool, Signal, Slot

from simdesk.core import BUSY_MESSAGE, CancelToken, Index, IndexError_, Progress, Review, ReviewSettings, open_review

BUSY_WAIT_S = 60.0  # how long a scan waits for another scan of the same index to end
BUSY_POLL_S = 0.2


class ScanWorker(QObject):
    """Shows what the index already holds, scans the folder incrementally, then shows the fresh result.

    Lives in its own QThread; `cancel()` may be called from any thread and stops the scan within a second,
    keeping what was already indexed (the engine commits as it goes).
    """

    loaded = Signal(object)  # Review from the index as it was, before scanning (only if it had documents); on a
    # first scan, the identical copies' review once the folder is indexed, before the similar ones are checked
    progress = Signal(object)  # core.records.Progress
    finished = Signal(object)  # Review after the scan (result.stats.cancelled tells a cancelled one)
    failed = Signal(str)

    def __init__(self, root: Path, index_path: Path, settings: ReviewSettings, show_index_first: bool = True,
                 threshold: int = 0) -> None:
        super().__init__()
        self.root = root
        self.index_path = index_path
        self.settings = settings
        self.show_index_first = show_index_first
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
                    before = open_review(self.root, index, self.settings, self.progress.emit, self.token,
                                         rescan=False)
                    before.prepare(self.threshold)
                    self.loaded.emit(before)
                after = self._review_when_free(index, before)
                if after is None:
                    return
                if not after.unchanged:
                    after.prepare(self.threshold)
                self.finished.emit(after)
        except IndexError_ as exc:
            self.failed.emit(str(exc))
        except OSError as exc:
            self.failed.emit(f"{self.root}: {exc.strerror or exc}")
        except Exception as exc:  # a bug must show as a message, not kill the window
            traceback.print_exc()
            self.failed.emit(f"{type(exc).__name__}: {exc}")

    def _review_when_free(self, index: Index, shown: Review | None) -> Review | None:
        """Scan and group, waiting while another scan of this index (a cancelled one of this window, still
        ending, or another simdesk) holds it; None when cancelled while waiting. With nothing shown yet (a
        first scan), the identical copies are shown as soon as the folder is indexed."""
        waited = 0.0
        while True:
            try:
                return open_review(self.root, index, self.settings, self.progress.emit, self.token, shown=shown,
                                   on_exact=self._show_exact if self.first_scan(shown) else None)
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


    def first_scan(self, shown: Review | None) -> bool:
        """Nothing of this folder on screen: opened (not rescanned) with an empty index."""
        return self.show_index_first and shown is None

    def _show_exact(self, review: Review) -> None:
        review.prepare(self.threshold)
        self.loaded.emit(review)


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


class Scans(QObject):
    """The window's scans: at most one current; a cancelled one is kept until its thread ends (deleting a
    running QThread aborts). Only the current worker's reports are passed on, so a stale folder's late
    result never reaches the screen."""

    loaded = Signal(object)  # ScanWorker.loaded of the current scan
    progress = Signal(object)
    finished = Signal(object)
    failed = Signal(str)
    ended = Signal()  # the current scan's thread has stopped

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.current: ScanJob | None = None
        self._retired: set[ScanJob] = set()

    def start(self, worker: ScanWorker) -> None:
        self.stop()
        job = ScanJob(worker, self)
        # slots of this object, which lives on the GUI thread: delivered there, where `current` is decided
        worker.loaded.connect(self._loaded)
        worker.progress.connect(self._progress)
        worker.finished.connect(self._finished)
        worker.failed.connect(self._failed)
        job.done.connect(partial(self._ended, job))
        self.current = job
        job.start()

    def _from_current(self) -> bool:
        return self.current is not None and self.sender() is self.current.worker

    @Slot(object)
    def _loaded(self, review: Review) -> None:
        if self._from_current():
            self.loaded.emit(review)

    @Slot(object)
    def _progress(self, progress: Progress) -> None:
        if self._from_current():
            self.progress.emit(progress)

    @Slot(object)
    def _finished(self, review: Review) -> None:
        if self._from_current():
            self.finished.emit(review)

    @Slot(str)
    def _failed(self, message: str) -> None:
        if self._from_current():
            self.failed.emit(message)

    def _ended(self, job: ScanJob) -> None:
        self._retired.discard(job)
        job.deleteLater()
        if job is self.current:
            self.current = None
            self.ended.emit()

    def cancel(self) -> None:
        if self.current is not None:
            self.current.cancel()

    def stop(self) -> None:
        """Cancel the current scan and wait a little for its thread; one still busy is kept until it ends."""
        if self.current is not None:
            job, self.current = self.current, None
            if not job.stop():
                self._retired.add(job)

    def running(self) -> bool:
        return self.current is not None and self.current.is_running()

    def wait(self) -> None:
        for job in list(self._retired):
            job.thread.wait()


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
    saved to the index this way, so a write never waits on the GUI thread for a scan's transaction).
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

