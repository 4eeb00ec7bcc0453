"""core.HelperProcess: a review's comparison and a batch of its headlines, run in a helper process, give what
they give in this process; an error comes back as itself; a helper killed from outside fails its call and
the next call starts a new one; a closed helper runs nothing; a newer superseding call drops the one under
way."""

from __future__ import annotations

import os
import signal
import threading
from functools import partial
from pathlib import Path

import pytest

from simdesk.core import HelperProcess, Index, ReviewSettings, ScanOptions, open_review
from simdesk.core.review.helper import Superseded
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
    with pytest.raises(OSError):
        helper.run(review.comparison("poem.txt", "gone.txt"))
    pid = helper.run(os.getpid)
    assert pid != os.getpid()
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(Exception):  # noqa: B017 (the pool's BrokenProcessPool, or the call's own failure)
        helper.run(review.comparison("poem.txt", "snow.txt"))
    assert helper.run(os.getpid) not in (pid, os.getpid())
    assert helper.run(review.comparison("poem.txt", "snow.txt")).rows
    helper.close()
    with pytest.raises(RuntimeError):
        helper.run(os.getpid)


def _wait_forever(started: str) -> int:
    """A call that never ends on its own (a comparison far too long to wait for): it says it has started."""
    Path(started).write_text(str(os.getpid()), encoding="utf-8")
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
    with pytest.raises(ProcessLookupError):
        for _ in range(1000):  # the killed process is reaped by its pool's thread
            os.kill(pid, 0)
            thread.join(0.01)
    same = helper.run(os.getpid, supersede=3)
    assert helper.run(os.getpid, supersede=4) == same != pid
    assert helper.run(os.getpid) == same  # a call without `supersede` drops nothing
    with pytest.raises(Superseded):  # asked for before the one just made: not run
        helper.run(partial(_wait_forever, str(started)), supersede=3)
    assert helper.run(os.getpid, supersede=5) == same
