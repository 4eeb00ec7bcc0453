"""Long work in core, one idiom for every job (scan, verification, cluster scans): the caller passes
`on_progress(Progress)` (or None) and a CancelToken it may set from any thread; the work checks the token
between steps and keeps what it finished. Work spread over processes runs in `process_pool`, whose workers
start with the segmenter loaded; `map_chunks` runs a function over chunks, in a pool or in this process.

    cancel = CancelToken()
    with process_pool(worker_count(jobs)) as pool:
        results = map_chunks(read_texts, chunks, pool, cancel)
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, TimeoutError as FutureTimeout
from contextlib import contextmanager
from types import FunctionType, ModuleType
from typing import TypeVar

from simdesk.core.parent_watch import die_with_fork_server, mark_scanning_process

Chunk = TypeVar("Chunk")
Result = TypeVar("Result")


class CancelToken:
    """Set from any thread to stop a long job (a scan, a verification); the job keeps what it finished."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


def worker_count(jobs: int) -> int:
    """Worker processes for a `jobs` setting (0: one per core)."""
    return jobs if jobs > 0 else (os.cpu_count() or 1)


PRELOAD = ("simdesk.core.worker_preload",)  # what the fork server loads before it forks any worker
MAIN_SCRIPT_ENV = "SIMDESK_MAIN_SCRIPT"  # the scanning process's main script, for its fork server (run_main_script)


def process_context(
    preload: tuple[str, ...] = (),
) -> multiprocessing.context.ForkServerContext | multiprocessing.context.SpawnContext:
    """How this process starts helper processes: forked from a fork server that has loaded PRELOAD and
    `preload` (on Linux; the modules apply when the server starts, the first time it is needed), and that
    ends with this process; spawned elsewhere."""
    if not sys.platform.startswith("linux"):
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    mark_scanning_process()
    mark_main_script()
    ctx.set_forkserver_preload([*PRELOAD, *preload])
    return ctx


def mark_main_script() -> None:
    """Called in the scanning process before its fork server starts: the server runs the script this process
    runs (run_main_script), with this process's arguments, as the processes it forks are told to (nothing for
    `python -m` and `-c`), or only marks it run when the script defines no function or class (an entry point
    such as the `simdesk` command's, which imports the command line and calls it): none can be sent to them."""
    from multiprocessing import spawn

    data = spawn.get_preparation_data("simdesk")
    path = data.get("init_main_from_path")
    defines = any(
        isinstance(value, (type, FunctionType)) and value.__module__ == "__main__"
        for value in vars(sys.modules["__main__"]).values()
    )
    os.environ[MAIN_SCRIPT_ENV] = json.dumps([path, data["sys_argv"], defines]) if path else ""


def run_main_script() -> None:
    """In the fork server: run the scanning process's main script as `__mp_main__`, once, with its arguments,
    or only mark it run when it defines nothing to run (mark_main_script). Each forked process runs it first
    thing otherwise (multiprocessing's fix-up of `__main__`, for functions defined there: the `simdesk`
    command's script imports the command line and click, ~0.06 s of CPU in each worker and in each probe of
    worker_server_ready); a process forked from here finds it run. Python's own preload of `__main__` never
    gets the script's path (3.11). A script that fails here is left to each forked process, which runs it as
    before."""
    marked = os.environ.get(MAIN_SCRIPT_ENV, "")
    if not marked:
        return
    from multiprocessing import spawn

    path, argv, defines = json.loads(marked)
    if not defines:  # what a forked process checks before it would run the script: it was
        main = ModuleType("__mp_main__")
        main.__file__ = path
        sys.modules["__main__"] = sys.modules["__mp_main__"] = main
        return
    sys.argv = argv  # as a forked process sets it before it runs the script
    try:
        spawn.import_main_path(path)
    except Exception:  # noqa: BLE001 (each forked process runs the script itself then, and meets what failed)
        return


def ensure_fork_server() -> None:
    """Start the fork server of the context process_context last set up, if it is not running, with Ctrl-C
    held back meanwhile (Linux only). A terminal sends Ctrl-C to every process of the command: landing in
    the new server's first milliseconds, before it ignores it (parent_watch.die_with_parent), it made that
    interpreter print a start-up traceback beside the command's one line. The server starts with SIGINT
    blocked, so such a Ctrl-C stays pending there until it is ignored and then vanishes; in this thread the
    mask is restored at once and a Ctrl-C that came meanwhile is delivered then, not lost. The resource
    tracker, which the server's start starts first, is started before: multiprocessing starts it the same
    way, but then unblocks SIGINT in the calling thread instead of restoring its mask."""
    if not sys.platform.startswith("linux"):
        return
    from multiprocessing import forkserver, resource_tracker

    resource_tracker.ensure_running()
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def start_worker_server() -> None:
    """Start the fork server process_pool's workers come from, if it is not running, and return at once: it
    loads the engine (~1 s of CPU, 2 s and more under load) while the caller goes on (a scan lists the rest
    of its folder), so that starting the workers, which waits for the server and looks at no cancel
    meanwhile, then takes milliseconds. Called only once workers will be used: the engine is loaded for
    nothing otherwise."""
    if sys.platform.startswith("linux"):
        process_context()
        ensure_fork_server()


class WorkerServerFailed(RuntimeError):
    """The fork server of the workers ended before it forked one (worker_server_ready): it failed to load
    the engine (its error is on stderr), or it was killed."""


def worker_server_ready(cancel: CancelToken) -> bool:
    """Wait until the fork server of process_pool's workers forks (starting it if it is not running), looking
    at the cancel token every CANCEL_POLL_S: False when cancelled first. Starting a pool waits for the server
    without looking at any token (seconds under load while it loads the engine); a short-lived process forked
    from it here, on a thread left behind when cancelled, makes that wait one a cancel ends. Raises
    WorkerServerFailed when the server ends instead of forking (the probe's start meets the closed socket)."""
    if not sys.platform.startswith("linux"):
        return not cancel.cancelled
    context = process_context()
    ensure_fork_server()  # here, not on the probe's thread: the server dies with the thread that starts it
    forked = threading.Event()
    failed: list[BaseException] = []

    def probe() -> None:
        process = context.Process(target=_return, name="simdesk-probe")
        try:
            process.start()
        except (OSError, EOFError) as exc:  # the server's end of the socket closed: it ended
            failed.append(exc)
            return
        finally:
            forked.set()
        process.join()

    threading.Thread(target=probe, name="simdesk-worker-probe", daemon=True).start()
    while not forked.wait(CANCEL_POLL_S):
        if cancel.cancelled:
            return False
    if failed:
        raise WorkerServerFailed(
            f"the worker processes could not start: their server ended before forking one ({failed[0]!r})"
        ) from failed[0]
    return not cancel.cancelled


def _return() -> None:
    """A process that ends at once (worker_server_ready)."""


def process_pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes that start with jieba loaded (a fork server on Linux; spawned elsewhere), and that
    end with this process even when it is killed (parent_watch)."""
    context = process_context()
    ensure_fork_server()
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=die_with_fork_server)


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's worker processes at once (they only compute; the calling process does every write),
    so a cancel does not wait for a large file a worker is halfway through. Python 3.14 names this
    `terminate_workers`; before it, the executor's process table is the only handle on them. The pool then
    marks its pending futures broken: a future cancelled before that made Python 3.11's pool thread raise
    InvalidStateError, so callers leave them as they are.
    A worker killed halfway through sending a result leaves the start of a message in the pool's result pipe:
    the pool's thread would wait for the rest of it for ever, and so would the pool's shutdown (a cancelled
    scan's window or command hung there). This process's copy of the pipe's writing end is closed too, so
    that read meets the pipe's end and the pool ends broken."""
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
    else:
        for proc in list((pool._processes or {}).values()):  # noqa: SLF001
            try:
                proc.kill()
            except (OSError, AttributeError):
                pass
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)  # Python 3.11-3.14's SimpleQueue
    if writer is not None:
        writer.close()


# the interpreter's switch interval while a pool's results come in (Python's default: 5 ms); see results_taken_promptly
RESULTS_SWITCH_S = 0.001
_switching = threading.Lock()
_switch_users = 0  # the results_taken_promptly blocks under way in this process
_switch_before = 0.0  # the switch interval before the first of them


@contextmanager
def results_taken_promptly(interval: float = RESULTS_SWITCH_S) -> Iterator[None]:
    """Within the block, this process's threads hand over the interpreter lock every `interval` seconds at
    most (sys.setswitchinterval; never raised above what it was), and as it was after the last such block
    still under way in the process ends. A pool's results are received by its own thread, which needs the
    lock for every read of the result pipe: while this thread scores pairs, at the default 5 ms a worker
    sending a result larger than the pipe (a read task's profiles, ~165 KB) waits for the hand-overs (a
    verification worker of the medium collection was blocked in its send ~22% of the time). At 1 ms, the
    medium collection's verification is ~0.1-0.2 s shorter; the scan's reading is not, so its pool is left
    at the default (docs/performance.md)."""
    global _switch_users, _switch_before
    with _switching:
        if _switch_users == 0:
            _switch_before = sys.getswitchinterval()
        _switch_users += 1
        sys.setswitchinterval(min(interval, _switch_before))
    try:
        yield
    finally:
        with _switching:
            _switch_users -= 1
            if _switch_users == 0:
                sys.setswitchinterval(_switch_before)


CANCEL_POLL_S = 0.05  # how often a wait for a worker's result looks at the cancel token


class Cancelled(Exception):
    """Raised by result_unless_cancelled when the token was set while waiting."""


def result_unless_cancelled(future: Future[Result], cancel: CancelToken) -> Result:
    """The future's result, waited for in short steps so that a cancel set meanwhile is seen within
    CANCEL_POLL_S (a worker may be seconds into a large chunk); raises Cancelled then."""
    while True:
        if cancel.cancelled:
            raise Cancelled
        try:
            return future.result(timeout=CANCEL_POLL_S)
        except FutureTimeout:
            continue


def map_chunks(
    fn: Callable[[Chunk], Result],
    chunks: Sequence[Chunk],
    pool: ProcessPoolExecutor | None,
    cancel: CancelToken,
    on_chunk: Callable[[int], None] | None = None,
) -> list[Result]:
    """fn(chunk) for each chunk, in `pool` when one is given; results in order, [] when cancelled.
    `on_chunk(n)` is called as each result comes in, with the number of chunks done so far."""
    out: list[Result] = []
    if pool is None:
        for chunk in chunks:
            if cancel.cancelled:
                return []
            out.append(fn(chunk))
            if on_chunk is not None:
                on_chunk(len(out))
        return out
    futures = [pool.submit(fn, chunk) for chunk in chunks]
    for fut in futures:
        try:
            out.append(result_unless_cancelled(fut, cancel))
        except Cancelled:
            stop_workers(pool)  # the waiting futures end broken with the pool (see stop_workers)
            return []
        if on_chunk is not None:
            on_chunk(len(out))
    return out
