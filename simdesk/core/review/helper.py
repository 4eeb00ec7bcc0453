"""One-off calls of a review run in a helper process, so that the process that asks, a window, never holds
Python's lock for them: a comparison (Review.comparison) and a batch of headlines (Headlines.reading) are
plain picklable calls; the caller waits for the result on a thread of its own and keeps it.

    helper = HelperProcess()
    helper.prepare()                                   # on a thread that lives as long as the caller
    result = helper.run(review.comparison(a, b))       # blocks this (background) thread, not the lock
    helper.close()

Measured 2026-11-24 on a 1 MB pair (27,760 rows, a re-flowed copy shown raw): compared on a thread of the
window's process, the window's GUI thread waited up to 100-150 ms at a time for Python's lock (load 1-4);
see docs/performance.md for the figures since.

The process is forked from the fork server review processes come from (workers.process_context, started by
ReviewProcess.prepare), so it starts in milliseconds with the engine loaded, and it dies with that server,
which dies with the caller. A call that crashes the process (killed from outside) raises
concurrent.futures.process.BrokenProcessPool; the next call starts a new process.

A call made with `supersede` (a comparison's number: the window numbers them as the editor asks) is dropped
by a call with a higher number: if it is still under way, its process is ended at once, it raises Superseded,
and the newer call runs in a new process, so a small comparison asked for during a 1 MB one does not wait
seconds for a result nobody will see.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from simdesk.core.review.process import ReviewProcess
from simdesk.core.workers import process_pool, stop_workers

T = TypeVar("T")


class Superseded(Exception):
    """Raised by HelperProcess.run(call, supersede=n) when a call with a higher number dropped this one, or
    had been made before it."""


class HelperProcess:
    """One helper process, started at the first call; run() may be called from any thread (calls are
    served one at a time, in order)."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._newest = -1  # the highest `supersede` number so far: that call is the one wanted
        self._superseding: Future[Any] | None = None  # the last of them

    @staticmethod
    def prepare() -> None:
        """Start the fork server the process is forked from (ReviewProcess.prepare): call it on a thread that
        lives as long as the caller (a window's GUI thread) before the first run()."""
        ReviewProcess.prepare()

    def run(self, call: Callable[[], T], here: bool = False, supersede: int | None = None) -> T:
        """call() in the helper process (`here`: in this one, as when the texts are this process's own:
        Texts.process_local); its result, or what it raised. Raises RuntimeError once closed. With
        `supersede` (a number higher than that of any call made with one before), the call made with one
        before, if not done yet, is dropped: the process is ended (any other call in it fails as if it had
        crashed), that call raises Superseded, and this one runs in a new process. With a number lower than
        one already made (two threads that asked in one order reached here in the other), this call raises
        Superseded at once. A call run `here` is not dropped."""
        if here:
            return call()
        with self._lock:
            if self._closed:
                raise RuntimeError("the helper process is closed")
            dropped = None
            if supersede is not None:
                if supersede < self._newest:
                    raise Superseded
                self._newest = supersede
                if self._superseding is not None and not self._superseding.done():
                    dropped, self._pool = self._pool, None
            if self._pool is None:
                self._pool = process_pool(1)
            pool = self._pool
            future = pool.submit(call)
            if supersede is not None:
                self._superseding = future
        if dropped is not None:
            stop_workers(dropped)
            dropped.shutdown(wait=False)
        try:
            return future.result()
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None
                newer = supersede is not None and supersede != self._newest
            if newer:
                raise Superseded from None
            raise

    def close(self) -> None:
        """End the process now (a call under way raises BrokenProcessPool in its caller)."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            stop_workers(pool)
            pool.shutdown(wait=False)


__all__ = ["HelperProcess", "Superseded"]
