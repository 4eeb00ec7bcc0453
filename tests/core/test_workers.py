"""Worker processes: a cancel kills them at once and leaves the pool's own thread without an error."""

from __future__ import annotations

import threading
import time

from simdesk.core.workers import CancelToken, map_chunks, process_pool


def test_a_cancel_kills_the_workers_and_the_pool_thread_ends_without_an_error():
    """Python 3.11's pool marks every pending future broken when its workers die; a future cancelled first
    made its manager thread raise InvalidStateError (printed as a traceback on the terminal of a cancelled
    scan). The waiting futures are left to the broken pool instead."""
    errors: list[BaseException] = []
    previous = threading.excepthook
    threading.excepthook = lambda args: errors.append(args.exc_value)
    token = CancelToken()
    pool = process_pool(2)
    try:
        started = time.monotonic()
        out = map_chunks(time.sleep, [0.0] + [2.0] * 12, pool, token, on_chunk=lambda done: token.cancel())
        assert out == [] and time.monotonic() - started < 10  # not the 12 seconds of sleeping left
        pool.shutdown(wait=True)  # joins the pool's manager thread: any error it raised is recorded by then
    finally:
        threading.excepthook = previous
    assert errors == []
