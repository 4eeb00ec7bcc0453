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
which dies with the caller. It is daemonic (it ends with the caller's interpreter too), so a call starts no
process of its own. A call that crashes the process (killed from outside) raises
concurrent.futures.process.BrokenProcessPool; the next call starts a new process.

A call made with `supersede` (a comparison's number: the window numbers them as the editor asks) is dropped
by a call with a higher number: if it is still under way, its process is ended at once, it raises Superseded,
and the newer call runs in a new process, so a small comparison asked for during a 1 MB one does not wait
seconds for a result nobody will see.

Calls and results travel over one pipe of the process's own, whose other end only the process holds (this
process closes its copy once the process has started): a process ended at any moment, even halfway through
writing a large result, gives the waiting caller an end of file or its exit, never a wait for bytes that
will not come. (A ProcessPoolExecutor cannot promise that: its result pipe's write end stays open in the
caller, so a worker killed while writing a result left the pool's thread waiting for the rest of the message
for ever, the call's future unresolved, the window frozen on its close and the interpreter on its exit.)
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import TypeVar

from simdesk.core.parent_watch import die_with_fork_server
from simdesk.core.review.process import ReviewProcess
from simdesk.core.workers import ensure_fork_server, process_context

T = TypeVar("T")


class Superseded(Exception):
    """Raised by HelperProcess.run(call, supersede=n) when a call with a higher number dropped this one, or
    had been made before it."""


class RemoteTraceback(Exception):
    """The `__cause__` of an error a call raised in the helper process: where it was raised there."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


def _serve(conn: Connection) -> None:
    """The helper process: each call that comes on `conn`, in turn, answered on it with (True, its result) or
    (False, what it raised, where), until the caller's end is closed."""
    die_with_fork_server()  # the fork server (which dies with the caller), or the caller itself when spawned
    while True:
        try:
            call = conn.recv_bytes()
        except (EOFError, OSError):  # the caller closed its end, or has ended
            return
        try:
            reply = ForkingPickler.dumps((True, ForkingPickler.loads(call)(), ""))
        except Exception as exc:  # noqa: BLE001 (it is the call's answer)
            reply = _failure(exc)
        try:
            conn.send_bytes(reply)
        except OSError:
            return


def _failure(exc: Exception) -> memoryview:
    """(False, exc, its traceback) pickled; a RuntimeError naming exc when exc cannot be pickled."""
    where = "".join(traceback.format_exception(exc))
    try:
        return ForkingPickler.dumps((False, exc, where))
    except Exception:  # noqa: BLE001
        return ForkingPickler.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}"), where))


class _Process:
    """One helper process, started by its first call. call() may be called from any thread: the calls take
    turns in the order they came. end() kills the process from any thread at once: the call under way and
    those waiting raise BrokenProcessPool."""

    def __init__(self) -> None:
        self._turn = threading.Condition()
        self._tickets = 0  # calls that came
        self._served = 0  # calls answered (or failed): the call whose turn it is
        self._state = threading.Lock()
        self._ended = False  # end() was called, or the process was found ended: no call is sent any more
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None

    def call(self, call: Callable[[], T]) -> T:
        data = ForkingPickler.dumps(call)  # a call that cannot be pickled raises here, as itself
        with self._turn:
            ticket = self._tickets
            self._tickets += 1
            while self._served != ticket:
                self._turn.wait()
        try:
            ok, value, where = ForkingPickler.loads(self._exchange(data))
        finally:
            with self._turn:
                self._served += 1
                self._turn.notify_all()
                idle = self._served == self._tickets
            if idle and self._ended:
                self._release()
        if not ok:
            value.__cause__ = RemoteTraceback(where)
            raise value
        return value

    def _exchange(self, data: memoryview) -> bytes:
        """Send a pickled call, return the pickled answer; BrokenProcessPool when the process has ended
        (before, or at any moment during, the exchange)."""
        with self._state:
            ended, starting = self._ended, self._process is None
        if not ended and starting:
            self._start()
            with self._state:
                ended = self._ended
        if ended or self._conn is None or self._process is None:
            raise BrokenProcessPool("the helper process has ended")
        conn, sentinel = self._conn, self._process.sentinel
        try:
            conn.send_bytes(data)
            if conn not in wait([conn, sentinel]) and not conn.poll():
                raise EOFError
            return conn.recv_bytes()  # EOFError or OSError when the process ends halfway through it
        except (EOFError, OSError):
            with self._state:
                self._ended = True
            raise BrokenProcessPool("the helper process ended during a call") from None

    def _start(self) -> None:
        """Start the process; if end() came meanwhile, kill it (the call then fails)."""
        context = process_context()
        ensure_fork_server()
        mine, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs,), name="simdesk-helper", daemon=True)
        process.start()
        theirs.close()  # the process holds the only other end: its end is our end of file
        with self._state:
            self._process, self._conn = process, mine
            ended = self._ended
        if ended:
            process.kill()

    def end(self) -> None:
        """Kill the process now; its pipe is closed by the last call under way or waiting, or here if none."""
        with self._state:
            self._ended = True
            process = self._process
        if process is not None:
            process.kill()
        with self._turn:
            idle = self._served == self._tickets
        if idle:
            self._release()

    def _release(self) -> None:
        """Once ended and no call is under way or waiting: close this end of the pipe (once)."""
        with self._state:
            conn, self._conn = self._conn, None
            process = self._process
        if conn is not None:
            conn.close()
        if process is not None:
            process.kill()  # found ended by a call, which may have misread a live one


class HelperProcess:
    """One helper process, started at the first call; run() may be called from any thread (calls are
    served one at a time, in order)."""

    def __init__(self) -> None:
        self._process: _Process | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._newest = -1  # the highest `supersede` number so far: that call is the one wanted
        self._superseding: tuple[_Process, threading.Event] | None = None  # the last of them: where, done

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
        done = threading.Event()
        with self._lock:
            if self._closed:
                raise RuntimeError("the helper process is closed")
            dropped = None
            if supersede is not None:
                if supersede < self._newest:
                    raise Superseded
                self._newest = supersede
                if self._superseding is not None:
                    where, finished = self._superseding
                    if where is self._process and not finished.is_set():
                        dropped, self._process = self._process, None
            if self._process is None:
                self._process = _Process()
            process = self._process
            if supersede is not None:
                self._superseding = (process, done)
        if dropped is not None:
            dropped.end()
        try:
            return process.call(call)
        except BrokenProcessPool:
            with self._lock:
                if self._process is process:
                    self._process = None
                newer = supersede is not None and supersede != self._newest
            if newer:
                raise Superseded from None
            raise
        finally:
            done.set()

    def close(self) -> None:
        """End the process now (a call under way raises BrokenProcessPool in its caller)."""
        with self._lock:
            self._closed = True
            process, self._process = self._process, None
        if process is not None:
            process.end()


__all__ = ["HelperProcess", "RemoteTraceback", "Superseded"]
