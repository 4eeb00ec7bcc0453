"""Worker processes: a cancel kills them at once and leaves the pool's own thread without an error."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from simdesk.core.workers import RESULTS_SWITCH_S, CancelToken, map_chunks, process_pool, results_taken_promptly


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


HALF_SENT = """
import multiprocessing, os, struct, sys, threading, time


def half_sent(started: str) -> None:  # a worker killed halfway through sending its result
    result_queue = multiprocessing.current_process()._args[1]  # the pool's, as _process_worker got it
    result_queue._writer._send(struct.pack("!i", 1 << 20) + b"x")  # a 1 MiB result's length and one byte
    open(started, "w").close()
    time.sleep(120)


if __name__ == "__main__":
    from simdesk.core.workers import process_pool, stop_workers

    pool = process_pool(1)
    future = pool.submit(half_sent, sys.argv[1])
    while not os.path.exists(sys.argv[1]):
        time.sleep(0.01)
    time.sleep(0.2)  # the pool's thread is reading the message (or will, finding it there)
    stop_workers(pool)
    ends = threading.Thread(target=pool.shutdown, kwargs={"wait": True}, daemon=True)
    ends.start()
    ends.join(60)
    print("hung" if ends.is_alive() else type(future.exception()).__name__, flush=True)
    os._exit(0)
"""


def test_workers_killed_halfway_through_sending_a_result_leave_a_pool_that_shuts_down(tmp_path):
    """A cancel kills the workers (stop_workers); one killed while it wrote its result to the pool's pipe left
    the start of a message there, and the pool's thread, then the pool's shutdown, waited for the rest of it
    for ever. The shutdown ends and the task's future is broken."""
    import subprocess
    import sys

    script = tmp_path / "half_sent.py"
    script.write_text(HALF_SENT, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "started")], capture_output=True, text=True, timeout=180
    )
    assert run.stdout.split() == ["BrokenProcessPool"], run.stderr


SERVER_UNDER_CTRL_C = """
import os, signal
from multiprocessing import forkserver
from simdesk.core.workers import process_pool, start_worker_server

start_worker_server()
server = forkserver._forkserver._forkserver_pid
os.kill(server, signal.SIGINT)  # a terminal's Ctrl-C reaching the server while it still loads the engine
status = open(f"/proc/{server}/status").read()
blocked = int(next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16)
print("server blocks SIGINT:", bool(blocked & (1 << (signal.SIGINT - 1))))
print("caller blocks SIGINT:", signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []))
with process_pool(1) as pool:
    print("worker ran:", pool.submit(os.getpid).result() != os.getpid())
"""


def test_a_ctrl_c_reaching_the_fork_server_as_it_starts_prints_nothing_and_is_not_lost_here():
    """The fork server starts with SIGINT blocked (a Ctrl-C in its first milliseconds, before it ignores it,
    made it print a start-up traceback and die); the starting thread's mask is restored at once."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", SERVER_UNDER_CTRL_C], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "server blocks SIGINT: True",
        "caller blocks SIGINT: False",
        "worker ran: True",
    ]
    assert "Traceback" not in run.stderr and "KeyboardInterrupt" not in run.stderr, run.stderr


SERVER_AFTER_THE_PROBE = """
import os, threading
from simdesk.core.workers import CancelToken, process_pool, worker_server_ready

if __name__ == "__main__":
    assert worker_server_ready(CancelToken())
    for thread in threading.enumerate():
        if thread.name == "simdesk-worker-probe":
            thread.join()
    with process_pool(2) as pool:
        print(sorted(pool.map(abs, [-1, -2, -3])))
"""


def test_the_fork_server_a_wait_started_outlives_the_waits_probe(tmp_path):
    """A verification that needs workers after a scan that read few files starts the fork server through
    worker_server_ready. The server dies with the thread that started it (parent_watch): started on the
    short-lived probe thread, it died as that thread ended, and every worker of the pool with it."""
    import subprocess
    import sys

    script = tmp_path / "probe_then_pool.py"
    script.write_text(SERVER_AFTER_THE_PROBE, encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[1, 2, 3]"


MAIN_SCRIPT = """
import os, sys

with open(sys.argv[1], "a") as ran:  # every process that runs this script's top level
    ran.write(f"{os.getpid()}\\n")


def here(_: int) -> int:  # defined in the main script: a worker needs it as __main__'s
    return os.getpid()


if __name__ == "__main__":
    from simdesk.core.workers import process_pool

    with process_pool(2) as pool:
        workers = set(pool.map(here, range(8)))
    print(len(workers - {os.getpid()}) >= 1)
"""


def processes_running(script_text: str, folder: Path) -> int:
    """How many processes ran the top level of `script_text`, run as a main script that starts a pool of two
    workers and prints whether a task ran in one of them."""
    import subprocess
    import sys

    script, ran = folder / "main_script.py", folder / "ran.txt"
    script.write_text(script_text, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, str(script), str(ran)], capture_output=True, text=True, timeout=120, cwd=folder
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True"]
    return len(ran.read_text().split())


def test_the_main_script_runs_once_in_the_fork_server_not_in_each_worker(tmp_path):
    """A forked process runs the main script before its first task (multiprocessing's fix-up of __main__); the
    fork server runs it once instead, and a function defined in the script still runs in the workers."""
    assert processes_running(MAIN_SCRIPT, tmp_path) == 2  # this process and the fork server, no worker


ENTRY_SCRIPT = """
import os, sys

from simdesk.core.workers import process_pool

with open(sys.argv[1], "a") as ran:
    ran.write(f"{os.getpid()}\\n")

if __name__ == "__main__":
    with process_pool(2) as pool:
        print(pool.submit(os.getpid).result() != os.getpid())
"""


def test_a_main_script_that_defines_nothing_runs_in_this_process_only(tmp_path):
    """A script that only imports and calls (an entry point such as the `simdesk` command's, which imports the
    command line and click) defines nothing a worker could be sent: the fork server marks it run instead of
    running it, and no process runs it again."""
    assert processes_running(ENTRY_SCRIPT, tmp_path) == 1  # this process only


def test_results_are_taken_promptly_until_the_last_block_under_way_ends():
    """results_taken_promptly lowers the switch interval for as long as any block under way on any thread
    holds it, restores the interval of before when the last one ends, in whatever order they end, and never
    raises an interval set lower."""
    before = sys.getswitchinterval()
    assert before > RESULTS_SWITCH_S
    inside, leave = threading.Event(), threading.Event()
    seen: list[float] = []

    def other() -> None:
        with results_taken_promptly():
            inside.set()
            leave.wait(10)
        seen.append(sys.getswitchinterval())

    thread = threading.Thread(target=other)
    with results_taken_promptly():
        assert sys.getswitchinterval() == RESULTS_SWITCH_S
        thread.start()
        assert inside.wait(10)
    assert sys.getswitchinterval() == RESULTS_SWITCH_S  # the other thread's block is still under way
    leave.set()
    thread.join(10)
    assert seen == [before] and sys.getswitchinterval() == before
    try:
        sys.setswitchinterval(RESULTS_SWITCH_S / 2)
        with results_taken_promptly():
            assert sys.getswitchinterval() == RESULTS_SWITCH_S / 2
        assert sys.getswitchinterval() == RESULTS_SWITCH_S / 2
    finally:
        sys.setswitchinterval(before)
