"""Background work for the window: a scan relayed from its own process, and one-off calls on a thread pool.

The rule (Anki's, napari's): the background function never touches a widget. It reports by signals, which
Qt delivers on the GUI thread; errors come back as a `failed` signal with a message, never a crash.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThread, QThreadPool, Signal, Slot

from simdesk.core import Progress, Review, ReviewProcess, ReviewRequest, ReviewSettings


class ScanWorker(QObject):
    """Relays a review running in a process of its own (core.ReviewProcess: the scan, the analysis and the
    grouping never hold this process's Python lock) as signals: what the index already holds, progress,
    on a first scan the identical copies, then the fresh result.

    Lives in its own QThread, which starts the process and reads its events until it has ended (the process
    dies with that thread). `cancel()` (any thread) stops the scan within a second, keeping what was already
    indexed, and the review of it arrives as `finished`; `stop()` ends the process at once, reporting nothing.
    """

    loaded = Signal(object)  # Review from the index as it was, before scanning (only if it had documents); on a
    # first scan, the identical copies' review once the folder is indexed, before the similar ones are checked
    progress = Signal(object)  # core.records.Progress
    finished = Signal(object)  # Review after the scan (result.stats.cancelled tells a cancelled one)
    failed = Signal(str)

    def __init__(
        self, root: Path, index_path: Path, settings: ReviewSettings, show_index_first: bool = True, threshold: int = 0
    ) -> None:
        super().__init__()
        # the slider's value when the scan started: grouped in the scan's process, not on the GUI thread
        self.process = ReviewProcess(ReviewRequest(root, index_path, settings, show_index_first, threshold))

    def cancel(self) -> None:
        self.process.cancel()

    def stop(self) -> None:
        self.process.stop()

    @Slot()
    def run(self) -> None:
        signals = {"loaded": self.loaded, "progress": self.progress, "finished": self.finished, "failed": self.failed}
        try:
            self.process.start()
            for kind, value in self.process.events():
                signals[kind].emit(value)
        except Exception as exc:  # a bug must show as a message, not kill the window  # noqa: BLE001
            traceback.print_exc()
            self.failed.emit(f"{type(exc).__name__}: {exc}")
        finally:
            QThread.currentThread().quit()  # from here: a queued quit would wait for a GUI thread that may be
            # waiting for this thread (the window closing)


class ScanJob(QObject):
    """Owns a ScanWorker and its QThread; `done` is emitted once the thread has stopped."""

    done = Signal()

    def __init__(self, worker: ScanWorker, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.worker_thread = QThread()
        self.worker_thread.setObjectName("simdesk-scan")
        worker.moveToThread(self.worker_thread)
        self.worker_thread.started.connect(worker.run)  # its thread quits when the process has ended
        self.worker_thread.finished.connect(self.done)

    def start(self) -> None:
        self.worker_thread.start()

    def cancel(self) -> None:
        self.worker.cancel()

    def is_running(self) -> bool:
        return self.worker_thread.isRunning()

    def stop(self) -> None:
        """End the scan's process at once (another folder opened, a rescan, the window closed); the relay
        thread ends moments later, without the GUI thread waiting for it."""
        self.worker.stop()


class Scans(QObject):
    """The window's scans: at most one current; a stopped one is kept until its thread ends (deleting a
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
        ReviewProcess.prepare()  # here, on the GUI thread: the fork server lives as long as the window's thread
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
        """End the current scan's process; its thread is kept until it ends (moments later)."""
        if self.current is not None:
            job, self.current = self.current, None
            job.stop()
            self._retired.add(job)

    def running(self) -> bool:
        return self.current is not None and self.current.is_running()

    def wait(self) -> None:
        """Wait for the threads of stopped scans (their processes are ended already): the window closing."""
        for job in list(self._retired):
            job.worker_thread.wait()


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
        except Exception as exc:  # noqa: BLE001
            self.signals.failed.emit(f"{type(exc).__name__}: {exc}" if not isinstance(exc, OSError) else str(exc))
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

    def call(
        self,
        fn: Callable[[], Any],
        on_done: Callable[[Any], None] | None = None,
        on_failed: Callable[[str], None] | None = None,
    ) -> None:
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
