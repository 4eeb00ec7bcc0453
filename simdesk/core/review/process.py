"""A folder's review (scan, analysis, grouping at every threshold) run in a process of its own, so that the
process that asked for it, a window, never waits for Python's lock: the index file is the shared state, and
the caller receives progress reports and the reviews to show, grouped and ready (pickled: arrays, not rows).

    ReviewProcess.prepare()            # once, on a thread that lives as long as the caller (a GUI thread)
    run = ReviewProcess(ReviewRequest(Path("articles"), index_path, ReviewSettings()))
    run.start()
    for kind, value in run.events():   # blocks; ends once the process has ended
        ...                            # "progress" Progress, "loaded" / "finished" Review, "failed" str

Measured 2026-11-24 on 20,000 documents: the same work in a thread of the window's process held the window
for up to 350-426 ms at a time (under load 8-12): unpickling verification profiles, reading the snapshot,
boilerplate and pairing all keep Python's lock. See docs/performance.md for the figures since.

The process is forked from a fork server that has the engine loaded (workers.process_context), so it starts
in milliseconds and copies none of the caller's threads or toolkit. `cancel()` stops the scan within a
second; the process then sends the review of what was indexed (analysis.cancelled_grouper) and ends. `stop()`
ends it at once (another folder opened, a rescan, the window closed): what it committed stays in the index
(the scan commits every second), the rest is read again by the next scan. It never outlives its caller: it
is killed when the fork server ends, which is killed when the thread that started it ends (parent_watch);
its own worker processes die with it the same way. `run_review` is the same work in the calling process.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import os
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from simdesk.core.index.connection import BUSY_MESSAGE, IndexError_
from simdesk.core.index.store import Index
from simdesk.core.parent_watch import die_with_fork_server
from simdesk.core.records import Progress
from simdesk.core.review.review import Review, ReviewSettings, open_review
from simdesk.core.workers import CancelToken, ensure_fork_server, process_context

BUSY_WAIT_S = 60.0  # how long a scan waits for another scan of the same index to end
BUSY_POLL_S = 0.2
POLL_S = 0.05  # how often the caller's reading of events looks whether the process is to be ended
CANCEL_GRACE_S = 5.0  # a cancelled process that has not sent its review by then is ended
STOP_GRACE_S = 0.5  # a process told to end (stop(), or the cancel's grace over) that has not is then killed
REVIEW_PRELOAD = ("simdesk.core.review.process",)  # with the scan's modules (workers.PRELOAD): the whole engine

Event = tuple[str, object]  # (kind, value): see the module docstring


@dataclass(frozen=True, slots=True)
class ReviewRequest:
    """What to review: the folder, its index, the settings; `show_index_first`: show what the index holds
    before scanning (opening a folder; a rescan does not); `threshold`: the one to group at first."""

    root: Path
    index_path: Path
    settings: ReviewSettings = ReviewSettings()
    show_index_first: bool = True
    threshold: int = 0


def run_review(request: ReviewRequest, emit: Callable[[str, object], None], cancel: CancelToken) -> None:
    """Open the index, emit ("loaded", review) of what it holds (when `show_index_first` and it holds
    documents), scan and analyse, then emit ("finished", review), each prepared at the request's threshold
    (Review.prepare). On a first scan, the identical copies are emitted as "loaded" once the folder is
    indexed, before the similar ones are checked. Progress is emitted as ("progress", Progress). Raises
    what open_review raises; a busy index is waited for up to BUSY_WAIT_S, then emits ("failed", message)."""

    def progress(p: Progress) -> None:
        emit("progress", p)

    def show_exact(review: Review) -> None:
        review.prepare(request.threshold)
        emit("loaded", review)

    with Index(request.index_path) as index:
        before = None
        if request.show_index_first and index.count() > 0:
            before = open_review(request.root, index, request.settings, progress, cancel, rescan=False)
            before.prepare(request.threshold)
            emit("loaded", before)
        first_scan = request.show_index_first and before is None
        waited = 0.0
        while True:
            try:
                after = open_review(
                    request.root,
                    index,
                    request.settings,
                    progress,
                    cancel,
                    shown=before,
                    on_exact=show_exact if first_scan else None,
                )
                break
            except IndexError_ as exc:
                if BUSY_MESSAGE not in str(exc) or waited >= BUSY_WAIT_S:
                    raise
            if waited == 0.0:
                progress(Progress("waiting", 0, 0, 0.0))
            if cancel.cancelled:
                emit("failed", BUSY_MESSAGE)
                return
            time.sleep(BUSY_POLL_S)
            waited += BUSY_POLL_S
        if not after.unchanged:  # cancelled: sent at once, the other thresholds grouped when the slider asks
            after.prepare(request.threshold, every=not cancel.cancelled)
        emit("finished", after)


def failure_message(root: Path, exc: BaseException) -> str:
    """What the editor is told of an error that ended a review."""
    if isinstance(exc, IndexError_):
        return str(exc)
    if isinstance(exc, OSError):
        return f"{root}: {exc.strerror or exc}"
    return f"{type(exc).__name__}: {exc}"


def _listen(control: Connection, cancel: CancelToken) -> None:
    """In the review process: "cancel", or the caller closing its end, cancels the work; "stop" ends the
    process at once (_end_now)."""
    while True:
        try:
            message = control.recv()
        except (EOFError, OSError):
            cancel.cancel()
            return
        cancel.cancel()
        if message == "stop":
            _end_now()


def _end_now() -> None:
    """End the review process here and now, as a kill would, but with multiprocessing's finalizers run first:
    they unlink the named semaphores of its worker pool's queues, which a killed process leaves to the
    resource tracker ("There appear to be 5 leaked semaphore objects to clean up at shutdown" on the
    terminal when the window's process exits). What the scan committed stays in the index."""
    multiprocessing.util._run_finalizers(0)  # type: ignore[attr-defined]  # noqa: SLF001 (as a normal exit does)
    os._exit(0)


def _review_process(request: ReviewRequest, events: Connection, control: Connection) -> None:
    die_with_fork_server()  # the fork server (which dies with the caller), or the caller itself when spawned
    cancel = CancelToken()
    threading.Thread(target=_listen, args=(control, cancel), name="simdesk-review-control", daemon=True).start()

    def emit(kind: str, value: object) -> None:
        events.send((kind, value))

    try:
        run_review(request, emit, cancel)
    except BaseException as exc:  # noqa: BLE001 (a bug must reach the editor as a message)
        if not isinstance(exc, (IndexError_, OSError)):
            traceback.print_exc()
        try:
            emit("failed", failure_message(request.root, exc))
        except OSError:  # the caller has gone
            pass
    finally:
        events.close()


class ReviewProcess:
    """One review in a process of its own (see the module docstring). start() and events() run on the same
    thread, which must outlive the process (the process dies with it); cancel() and stop() may be called
    from any thread."""

    def __init__(self, request: ReviewRequest) -> None:
        self.request = request
        self._process: multiprocessing.process.BaseProcess | None = None
        self._events: Connection | None = None
        self._control: Connection | None = None
        self._end_at: float | None = None  # when the process is to be ended, cancelled or not
        self._kill_at: float | None = None  # when it is killed, if it has not ended when told to (_end)
        self._stopped = False
        self._lock = threading.Lock()

    @staticmethod
    def prepare() -> None:
        """Start the fork server review processes are forked from, if it is not running (it loads the
        engine once, ~1 s of CPU, so that each review starts in milliseconds). Call it on a thread that
        lives as long as this process (a window's GUI thread): the server dies with the thread that started
        it. Returns at once; start() waits for the server to be ready."""
        process_context(REVIEW_PRELOAD)
        ensure_fork_server()

    def start(self) -> None:
        """Start the process (forked from the server prepare() starts, started here when it is not running:
        the caller's threads and toolkit are never copied). Blocks until the process runs, without holding
        up cancel() or stop() meanwhile (they apply as soon as it runs)."""
        ctx = process_context(REVIEW_PRELOAD)
        ensure_fork_server()
        events_in, events_out = ctx.Pipe(duplex=False)
        control_in, control_out = ctx.Pipe(duplex=False)
        process = ctx.Process(
            target=_review_process, name="simdesk-review", args=(self.request, events_out, control_in)
        )
        if not self._stopped:
            process.start()
        events_out.close()
        control_in.close()
        with self._lock:
            self._process, self._events, self._control = process, events_in, control_out
            if self._stopped:
                self._kill()
            elif self._end_at is not None:  # cancelled while starting
                self._send("cancel")

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def cancel(self, grace_s: float = CANCEL_GRACE_S) -> None:
        """Stop the scan, keeping what was indexed: the process sends the review of it, then ends (it is
        ended after `grace_s` if it has not)."""
        with self._lock:
            self._send("cancel")
            end_at = time.monotonic() + grace_s
            self._end_at = end_at if self._end_at is None else min(self._end_at, end_at)

    def _send(self, word: str) -> None:
        """Tell the process `word` ("cancel" or "stop") on its control pipe, unless it has ended."""
        if self._control is not None:
            try:
                self._control.send(word)
            except OSError:  # the process has ended
                pass

    def stop(self) -> None:
        """End the process now, reporting nothing more (what it committed stays in the index): it is told to
        end, and killed if it has not within STOP_GRACE_S."""
        with self._lock:
            self._stopped = True
            self._end_at = time.monotonic()
            self._end()

    def _end(self) -> None:
        """Tell the process to end at once (once), and kill it STOP_GRACE_S later if it has not."""
        if self._kill_at is None:
            self._kill_at = time.monotonic() + STOP_GRACE_S
            self._send("stop")

    def _kill(self) -> None:
        if self._process is not None and self._process.pid is not None and self._process.is_alive():
            try:
                self._process.kill()
            except (OSError, AttributeError):  # ended meanwhile
                pass

    def events(self) -> Iterator[Event]:
        """The process's events as they come, until it has ended; ("failed", why) when it ended without
        a last review or failure of its own (it crashed or was killed from outside), unless stop()ped."""
        if self._process is None or self._events is None:
            return
        if self._process.pid is None:  # stopped before it started
            self._events.close()
            if self._control is not None:
                self._control.close()
            return
        last = False
        try:
            while True:
                now = time.monotonic()
                if self._end_at is not None and now >= self._end_at:
                    with self._lock:
                        self._end()
                if self._kill_at is not None and now >= self._kill_at:
                    self._kill()
                if not self._events.poll(POLL_S):
                    continue
                try:
                    kind, value = self._events.recv()
                except (EOFError, OSError):
                    break
                if self._stopped:
                    continue
                last = last or kind in ("finished", "failed")
                yield kind, value
        finally:
            self._events.close()
            self._process.join(1.0)
            self._kill()
            self._process.join()
            with self._lock:
                if self._control is not None:
                    self._control.close()
                    self._control = None
        if not last and not self._stopped and self._end_at is None:
            yield "failed", self._ended_message()

    def _ended_message(self) -> str:
        code = self._process.exitcode if self._process is not None else None
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        return f"the scanning process ended unexpectedly ({how}); what it had indexed is kept, scan again to go on"


__all__ = ["CANCEL_GRACE_S", "ReviewProcess", "ReviewRequest", "failure_message", "run_review"]
