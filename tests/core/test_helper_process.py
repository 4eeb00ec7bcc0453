"""core.HelperProcess: a review's comparison and a batch of its headlines, run in a helper process, give what
they give in this process; an error comes back as itself; a helper killed from outside fails its call and
the next call starts a new one, and so does one killed halfway through writing a large result, or closed or
superseded then (its caller is told, never left waiting); a closed helper runs nothing; a newer superseding
call drops the one under way."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from pathlib import Path

import pytest

from simdesk.core import HelperProcess, Index, ReviewSettings, ScanOptions, open_review
from simdesk.core.review.helper import RemoteTraceback, Superseded
from simdesk.core.workers import CancelToken
from tests.folders import POEMS, small_folder


@pytest.fixture
def review(tmp_path):
    root = small_folder(tmp_path)
    (root / "copies" / "poem-edited.txt").write_text(
        (root / "poem.txt").read_text(encoding="utf-8").replace("明月光", "灯火明"), encoding="utf-8"
    )
    with Index(tmp_path / "index.sqlite") as index:
        yield open_review(root, index, ReviewSettings(scan=ScanOptions(jobs=1)), None, CancelToken())


@pytest.fixture
def helper():
    h = HelperProcess()
    h.prepare()
    yield h
    h.close()


def test_a_comparison_and_headlines_read_in_the_helper_equal_those_read_here(review, helper):
    for mode in ("normalised", "raw"):
        call = review.comparison("poem.txt", "copies/poem-edited.txt", 12, mode)
        there = helper.run(call)
        assert there == review.compare("poem.txt", "copies/poem-edited.txt", 12, mode) and there.hunks
    members = [m for g in review.grouping(12) for m in g.members]
    reading = review.headlines.reading(members)
    review.headlines.store(helper.run(reading))
    assert len(review.headlines) == len(members) and not review.headlines.missing(members)
    assert review.headlines.matching("疑是地上霜") >= set(POEMS)  # their search forms were kept too
    here = review.headlines.__class__(review.texts, review.grouper.boilerplate)
    here.fill(members)
    assert [here.cached(m) for m in members] == [review.headlines.cached(m) for m in members]


def test_an_error_comes_back_as_itself_and_a_killed_helper_is_replaced(review, helper):
    with pytest.raises(OSError) as raised:
        helper.run(review.comparison("poem.txt", "gone.txt"))
    assert isinstance(raised.value.__cause__, RemoteTraceback) and "gone.txt" in str(raised.value.__cause__)
    pid = helper.run(os.getpid)
    assert pid != os.getpid()
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(BrokenProcessPool):
        helper.run(review.comparison("poem.txt", "snow.txt"))
    assert helper.run(os.getpid) not in (pid, os.getpid())
    assert helper.run(review.comparison("poem.txt", "snow.txt")).rows
    helper.close()
    with pytest.raises(RuntimeError):
        helper.run(os.getpid)


def test_calls_from_many_threads_each_get_their_own_answer(helper):
    answers: dict[int, str] = {}

    def ask(k: int) -> None:
        answers[k] = helper.run(partial(str, k))

    threads = [threading.Thread(target=ask, args=(k,), daemon=True) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(HANG_S)
    assert answers == {k: str(k) for k in range(8)}


def _wait_forever(started: str) -> int:
    """A call that never ends on its own (a comparison far too long to wait for): it says it has started."""
    Path(started + ".part").write_text(str(os.getpid()), encoding="utf-8")
    os.replace(started + ".part", started)  # whole when it appears
    threading.Event().wait()
    return 0


def test_a_newer_superseding_call_drops_the_one_under_way(review, helper, tmp_path):
    """A comparison under way is dropped by a newer one (as when the editor clicks another pair): the older
    raises Superseded, its process is gone, and the newer one's result comes without waiting for it. One
    that has finished is not dropped: the process stays. A call numbered below one already made is not run."""
    started = tmp_path / "started"
    outcome: list[object] = []

    def older() -> None:
        try:
            outcome.append(helper.run(partial(_wait_forever, str(started)), supersede=1))
        except Superseded as exc:
            outcome.append(exc)

    thread = threading.Thread(target=older)
    thread.start()
    while not started.exists():
        thread.join(0.01)
    pid = int(started.read_text(encoding="utf-8"))
    newer = helper.run(review.comparison("poem.txt", "copies/poem-edited.txt", 12), supersede=2)
    assert newer == review.compare("poem.txt", "copies/poem-edited.txt", 12)
    thread.join()
    assert len(outcome) == 1 and isinstance(outcome[0], Superseded)
    deadline = time.monotonic() + HANG_S
    with pytest.raises(ProcessLookupError):
        while time.monotonic() < deadline:  # the killed process is reaped by its pool's thread
            os.kill(pid, 0)
            time.sleep(0.01)
    same = helper.run(os.getpid, supersede=3)
    assert helper.run(os.getpid, supersede=4) == same != pid
    assert helper.run(os.getpid) == same  # a call without `supersede` drops nothing
    with pytest.raises(Superseded):  # asked for before the one just made: not run
        helper.run(partial(_wait_forever, str(started)), supersede=3)
    assert helper.run(os.getpid, supersede=5) == same


LARGE = 48 * 2**20  # bytes of a result whose writing to the caller takes a while


class _Announced:
    """Pickled last in a result: tells the test, through the named pipe `fifo`, the id of the process about
    to write that result, so that the test ends the process while it writes."""

    def __init__(self, fifo: str) -> None:
        self.fifo = fifo

    def __reduce__(self) -> tuple[type[int], tuple[()]]:
        with open(self.fifo, "wb") as out:
            out.write(str(os.getpid()).encode())
        return int, ()


def _large_result(fifo: str) -> tuple[bytes, _Announced]:
    return bytes(LARGE), _Announced(fifo)


def _ended_while_writing(
    helper: HelperProcess, tmp_path: Path, end: Callable[[HelperProcess, int], None], supersede: bool
) -> tuple[int, object]:
    """A call whose result is large, run on a thread; `end(helper, pid)` is called on another as the helper
    process `pid` starts writing that result. Both threads finish (a hang is the failure: the join's timeout
    only detects it), the call raising BrokenProcessPool (Superseded with `supersede`) or, when the result
    was all sent first, returning it. Returns pid and what the call returned or raised."""
    fifo = tmp_path / "writing"
    os.mkfifo(fifo)
    outcome: list[object] = []
    pids: list[int] = []

    def call() -> None:
        try:
            outcome.append(helper.run(partial(_large_result, str(fifo)), supersede=1 if supersede else None))
        except (BrokenProcessPool, Superseded) as exc:
            outcome.append(exc)

    def ender() -> None:
        with open(fifo, "rb") as writing:
            pids.append(int(writing.read()))
        end(helper, pids[0])

    threads = [threading.Thread(target=ender, daemon=True), threading.Thread(target=call, daemon=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(HANG_S)
    assert not any(thread.is_alive() for thread in threads), "a thread hung"
    assert len(outcome) == 1 and len(pids) == 1
    (result,) = outcome
    expected: type[Exception] = Superseded if supersede else BrokenProcessPool
    assert isinstance(result, expected) or (isinstance(result, tuple) and len(result[0]) == LARGE)
    return pids[0], result


HANG_S = 120  # a thread not done by then hangs (each run takes well under a second)


@pytest.mark.parametrize("run", range(20))
def test_a_helper_closed_while_it_writes_a_large_result_fails_its_call(helper, tmp_path, run):
    _ended_while_writing(helper, tmp_path, lambda helper, pid: helper.close(), supersede=False)
    with pytest.raises(RuntimeError):
        helper.run(os.getpid)


@pytest.mark.parametrize("run", range(20))
def test_a_helper_superseded_while_it_writes_a_large_result_fails_its_call(helper, tmp_path, run):
    newer: list[int] = []
    pid, result = _ended_while_writing(
        helper, tmp_path, lambda helper, pid: newer.append(helper.run(os.getpid, supersede=2)), supersede=True
    )
    assert newer[0] != os.getpid() and (newer[0] != pid or not isinstance(result, Superseded))
    assert helper.run(os.getpid) == newer[0]


@pytest.mark.parametrize("run", range(5))
def test_a_helper_killed_while_it_writes_a_large_result_fails_its_call(helper, tmp_path, run):
    pid, _ = _ended_while_writing(helper, tmp_path, lambda helper, pid: os.kill(pid, signal.SIGKILL), supersede=False)
    assert helper.run(os.getpid) not in (pid, os.getpid())


def test_a_helper_killed_during_a_call_fails_it_and_the_next_call_runs_in_a_new_one(helper, tmp_path):
    started = tmp_path / "started"
    outcome: list[object] = []

    def call() -> None:
        try:
            outcome.append(helper.run(partial(_wait_forever, str(started))))
        except BrokenProcessPool as exc:
            outcome.append(exc)

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    while not started.exists():
        thread.join(0.01)
    pid = int(started.read_text(encoding="utf-8"))
    os.kill(pid, signal.SIGKILL)
    thread.join(HANG_S)
    assert not thread.is_alive() and len(outcome) == 1 and isinstance(outcome[0], BrokenProcessPool)
    assert helper.run(os.getpid) not in (pid, os.getpid())
