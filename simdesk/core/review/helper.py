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
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from simdesk.core.review.process import ReviewProcess
from simdesk.core.workers import process_pool, stop_workers

T = TypeVar("T")


class HelperProcess:
    """One helper process, started at the first call; run() may be called from any thread (calls are
    served one at a time, in order)."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False

    @staticmethod
    def prepare() -> None:
        """Start the fork server the process is forked from (ReviewProcess.prepare): call it on a thread that
        lives as long as the caller (a window's GUI thread) before the first run()."""
        ReviewProcess.prepare()

    def run(self, call: Callable[[], T], here: bool = False) -> T:
        """call() in the helper process (`here`: in this one, as when the texts are this process's own:
        Texts.process_local); its result, or what it raised. Raises RuntimeError once closed."""
        if here:
            return call()
        with self._lock:
            if self._closed:
                raise RuntimeError("the helper process is closed")
            if self._pool is None:
                self._pool = process_pool(1)
            pool = self._pool
        try:
            return pool.submit(call).result()
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            raise

    def close(self) -> None:
        """End the process now (a call under way raises BrokenProcessPool in its caller)."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            stop_workers(pool)
            pool.shutdown(wait=False)


__all__ = ["HelperProcess"]
