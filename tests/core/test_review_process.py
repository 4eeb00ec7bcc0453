"""core.review_process without a toolkit: a folder's review run in a process of its own reports what the
same review in this process gives, a failure arrives as a message, stop() ends the process quietly; the
groups a cancelled analysis keeps (analysis.kept_grouper) equal the analysed ones once everything is scored,
and an index keeping more verified pairs than a cancel can group at once shows its identical copies alone."""

from __future__ import annotations

import pickle
import random
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from simdesk.core import Index, ReviewProcess, ReviewRequest, ReviewSettings, ScanOptions, open_review
from simdesk.core.matching.analysis import analyse, cancelled_grouper, kept_grouper
from simdesk.core.workers import CancelToken
from tests.folders import POEMS, SNOWS, small_folder

VERIFIED = ReviewSettings(scan=ScanOptions(jobs=1))


def groups(grouping) -> list[list[str]]:
    return sorted(sorted(m.path for m in g.members) for g in grouping)


def events_of(run: ReviewProcess) -> list[tuple[str, object]]:
    run.start()
    return list(run.events())


def test_a_review_in_its_own_process_reports_as_one_in_this_process(tmp_path):
    root = small_folder(tmp_path)
    events = events_of(ReviewProcess(ReviewRequest(root, tmp_path / "index.sqlite", VERIFIED, threshold=12)))
    kinds = [kind for kind, _ in events]
    assert kinds[-1] == "finished" and "failed" not in kinds
    phases = [p.phase for kind, p in events if kind == "progress"]
    assert phases.index("reading") < phases.index("verifying")
    loaded = [review for kind, review in events if kind == "loaded"]  # a first scan: the identical copies first
    assert len(loaded) == 1 and all(g.identical for g in loaded[0].grouping())
    review = events[-1][1]
    assert review.documents == 5 and groups(review.grouping()) == [POEMS, SNOWS]
    with Index(tmp_path / "again.sqlite") as index:
        here = open_review(root, index, VERIFIED)
    assert groups(here.grouping()) == groups(review.grouping())
    review.decisions.set_keep(POEMS[0])  # the decisions it brought save through a session of their own
    assert review.decisions.save() == 1
    review.decisions.close()
    with Index(tmp_path / "index.sqlite") as index:
        assert index.keep_marks() == {POEMS[0]}


def test_a_failure_in_the_process_arrives_as_a_message(tmp_path):
    events = events_of(ReviewProcess(ReviewRequest(tmp_path / "missing", tmp_path / "index.sqlite", VERIFIED)))
    assert events == [("failed", f"{tmp_path / 'missing'}: {tmp_path / 'missing'} does not exist")] or (
        events[-1][0] == "failed" and "does not exist" in events[-1][1]
    )


def test_stop_ends_the_process_without_a_report(tmp_path):
    root = small_folder(tmp_path)
    run = ReviewProcess(ReviewRequest(root, tmp_path / "index.sqlite", VERIFIED))
    run.start()
    seen = []
    reader = threading.Thread(target=lambda: seen.extend(run.events()))
    reader.start()
    run.stop()
    reader.join(10)
    assert not reader.is_alive() and all(kind == "progress" for kind, _ in seen)
    assert run._process.exitcode is not None


def test_a_review_survives_pickling_with_its_decisions(tmp_path):
    root = small_folder(tmp_path)
    with Index(tmp_path / "index.sqlite") as index:
        review = open_review(root, index, VERIFIED)
    review.prepare(12)
    review.decisions.set_queued(SNOWS[1])
    copy = pickle.loads(pickle.dumps(review))
    assert groups(copy.grouping()) == groups(review.grouping()) and copy.decisions.queued == {SNOWS[1]}
    copy.decisions.set_keep(POEMS[0])  # its own lock and session
    assert copy.decisions.save() == 2


def test_kept_groups_equal_the_analysed_ones_once_every_pair_is_scored(small_corpus, tmp_path):
    with Index(tmp_path / "index.sqlite") as index:
        full = open_review(small_corpus, index, VERIFIED).grouper
        kept = kept_grouper(index, VERIFIED.verify_settings())
    for threshold in (0, 6, 12):
        assert groups(kept.at(threshold)) == groups(full.at(threshold))
    assert np.array_equal(kept.snapshot.fingerprints, full.snapshot.fingerprints)


def test_a_cancelled_analysis_keeps_the_identical_copies(small_corpus, tmp_path):
    cancel = CancelToken()
    with Index(tmp_path / "index.sqlite") as index:
        open_review(small_corpus, index, ReviewSettings(min_similarity=0, scan=ScanOptions(jobs=1)))  # indexed only

        def on_progress(p) -> None:  # as verification starts: its read tasks score pairs as they read
            if p.phase == "verifying":
                cancel.cancel()

        cancelled = analyse(
            small_corpus, index, verify=VERIFIED.verify_settings(), on_progress=on_progress, cancel=cancel
        )
        assert cancel.cancelled and not index.scores()  # cancelled before a pair was scored
        by_hash: dict[str, set[str]] = {}
        for doc in index.documents():
            by_hash.setdefault(doc.content_hash, set()).add(doc.path)
        full = analyse(small_corpus, index, verify=VERIFIED.verify_settings())
    identical = sorted(sorted(paths) for paths in by_hash.values() if len(paths) > 1)
    assert identical and groups(cancelled.at(12)) == identical
    final = [set(g) for g in groups(full.at(12))]
    assert all(any(set(g) <= f for f in final) for g in identical)


def semaphores_of(pid: int) -> set[Path]:
    """The named POSIX semaphores process `pid` has open, by their names in /dev/shm (Linux: it maps each
    one's file, under the temporary name it was created with; the name is a link to the same inode)."""
    maps = Path(f"/proc/{pid}/maps").read_text().splitlines()
    inodes = {int(line.split()[4]) for line in maps if " /dev/shm/sem." in line}
    return {path for path in Path("/dev/shm").glob("sem.*") if path.stat().st_ino in inodes}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and /dev/shm")
@pytest.mark.parametrize("how", ["stop", "cancel, its grace over"])
def test_a_process_ended_while_its_workers_read_leaves_no_semaphore(tmp_path, how):
    """stop(), and a cancel whose grace is over, end a review whose worker pool is reading: the named
    semaphores of the pool's queues are unlinked, where a killed process left them to the resource tracker
    (a "leaked semaphore objects" warning on the terminal when the caller exits)."""
    root = tmp_path / "many"
    root.mkdir()
    rng = random.Random(10)
    for k in range(2_000):  # enough to read that the workers are still at it when the process is ended
        text = "".join(
            rng.choice("的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会") for _ in range(900)
        )
        (root / f"{k:04d}.txt").write_text(text, encoding="utf-8")
    run = ReviewProcess(ReviewRequest(root, tmp_path / "index.sqlite", ReviewSettings(scan=ScanOptions(jobs=2))))
    run.start()
    events = run.events()
    for kind, value in events:
        if kind == "progress" and value.phase == "reading" and value.done > 0:
            break
    semaphores = semaphores_of(run.pid)
    assert semaphores and all(path.exists() for path in semaphores)  # the pool's queues
    run.stop() if how == "stop" else run.cancel(grace_s=0.0)
    kinds = [kind for kind, _ in events]
    assert run._process.exitcode is not None and "finished" not in kinds
    assert not any(path.exists() for path in semaphores)


def test_a_cancel_groups_the_kept_pairs_only_when_they_are_few(small_corpus, tmp_path):
    with Index(tmp_path / "index.sqlite") as index:
        full = open_review(small_corpus, index, VERIFIED).grouper
        verify = VERIFIED.verify_settings()
        kept = len(index.scores())
        assert kept > 0 and index.keeps_more_scores_than(kept - 1) and not index.keeps_more_scores_than(kept)
        few = cancelled_grouper(index, verify, kept_pairs=kept)
        many = cancelled_grouper(index, verify, kept_pairs=kept - 1)
        by_hash: dict[str, set[str]] = {}
        for doc in index.documents():
            by_hash.setdefault(doc.content_hash, set()).add(doc.path)
    identical = sorted(sorted(paths) for paths in by_hash.values() if len(paths) > 1)
    assert groups(few.at(12)) == groups(full.at(12)) != identical
    assert identical and groups(many.at(12)) == identical
