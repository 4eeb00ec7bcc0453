"""core.HelperProcess: a review's comparison and a batch of its headlines, run in a helper process, give what
they give in this process; an error comes back as itself; a helper killed from outside fails its call and
the next call starts a new one; a closed helper runs nothing."""

from __future__ import annotations

import os
import signal

import pytest

from simdesk.core import HelperProcess, Index, ReviewSettings, ScanOptions, open_review
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
