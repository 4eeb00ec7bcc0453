"""The whole scan's time left, from progress reports on a clock the test moves."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from simdesk.core.records import Progress
from simdesk.core.timeleft import PAIRING_SHARE, SCORING_SHARE, SETTLE_S, VERIFYING_SHARE, TimeLeft


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_reading_counts_the_verification_still_to_come():
    clock = Clock()
    plain, verified = TimeLeft(False, clock), TimeLeft(True, clock)
    for left in (plain, verified):
        assert left.update(Progress("reading", 0, 1000, 0.0)) is None  # no rate yet
    clock.now = 2 * SETTLE_S
    rate = 100 / clock.now
    assert plain.update(Progress("reading", 100, 1000, clock.now)) == pytest.approx(900 / rate)
    expected = 900 / rate + (PAIRING_SHARE + VERIFYING_SHARE + SCORING_SHARE) * 1000 / rate
    assert verified.update(Progress("reading", 100, 1000, clock.now)) == pytest.approx(expected)


def test_phases_without_a_rate_count_down_and_later_phases_take_their_own_rate():
    clock = Clock()
    left = TimeLeft(True, clock)
    left.update(Progress("reading", 0, 1000, 0.0))
    clock.now = 10.0
    estimate = left.update(Progress("reading", 1000, 1000, 10.0))  # read at 100 files/s
    assert estimate == pytest.approx((PAIRING_SHARE + VERIFYING_SHARE + SCORING_SHARE) * 10.0)
    clock.now = 11.0
    assert left.update(Progress("pairing", 0, 0, 0.5)) == pytest.approx(estimate - 1.0)  # no rate: counts down
    left.update(Progress("verifying", 0, 400, 1.0))
    clock.now = 12.0
    # checking: texts read and pairs scored are one phase; the longer of the two counters' times left, the
    # texts' at their rate since the first were reported (the workers' start-up is past), the pairs' at
    # their rate between reports of texts
    assert left.update(Progress("verifying", 50, 400, 3.0)) == pytest.approx(estimate - 2.0)  # no rate yet
    clock.now = 13.0
    assert left.update(Progress("verifying", 100, 400, 3.0)) == pytest.approx(300 / 50)
    left.update(Progress("scoring", 0, 5000, 9.0))  # at 13 s: the first pairs
    clock.now = 15.0
    assert left.update(Progress("verifying", 200, 400, 3.0)) == pytest.approx(200 / 50)
    left.update(Progress("scoring", 0, 5000, 9.0))  # the texts reported: the pairs' clock starts again
    clock.now = 17.0
    assert left.update(Progress("scoring", 2000, 5000, 11.0)) == pytest.approx(200 * 5 / 150)  # texts: longer
    left.update(Progress("verifying", 400, 400, 3.0))  # every text read
    left.update(Progress("scoring", 2000, 5000, 11.0))
    clock.now = 18.0
    # 2,000 pairs in 2 s between reports of texts, then 1,000 in 1 s: 1,000 a second
    assert left.update(Progress("scoring", 3000, 5000, 11.0)) == pytest.approx(2000 / 1000)
    assert left.checking.share(18.0, 2.0) == pytest.approx(7 / 9)
    clock.now = 100.0
    assert left.seconds() == 0.0  # never below nothing


def checking_run(
    steps: int, reads: Callable[[int], int], pairs: int, read_s: float, score_s: float, clock: Clock
) -> list[tuple[float, Progress]]:
    """The reports of a simulated check of candidate pairs as analysis.verify_pairs makes them: the texts of
    each step of pairs are read by workers while this process scores the step before; the texts read are
    reported when collected, the pairs scored every 500."""
    reports = [(0.0, Progress("verifying", 0, sum(reads(n) for n in range(steps)), 0.0))]
    total_reads, total_pairs = reports[0][1].total, steps * pairs
    t, read, scored, ready = 0.0, 0, 0, reads(0) * read_s
    for n in range(steps):
        t = max(t, ready)
        for k in range(0, reads(n), 50):  # chunks of texts collected
            reports.append((t, Progress("verifying", read + min(k + 50, reads(n)), total_reads, 0.0)))
        read += reads(n)
        ready = t + (reads(n + 1) * read_s if n + 1 < steps else 0.0)
        for _ in range(0, pairs, 500):
            reports.append((t, Progress("scoring", scored, total_pairs, 0.0)))
            t += 500 * score_s
            scored += 500
    reports.append((t, Progress("scoring", total_pairs, total_pairs, 0.0)))
    return reports


@pytest.mark.parametrize(
    "reads,read_s,score_s",
    [
        (lambda n: int(3000 * 0.85**n) + 100, 0.002, 0.0002),  # reading first, then mostly scoring
        (lambda n: 400, 0.001, 0.0001),  # even steps, reading the slower
        (lambda n: int(3000 * 0.85**n) + 100, 0.0003, 0.0004),  # scoring the slower
    ],
)
def test_the_checking_phase_is_told_within_twice_its_time_left(reads, read_s, score_s):
    """At 10%, 50% and 90% of a check's time, the time left told is within 2x of the time it still took."""
    clock = Clock()
    left = TimeLeft(True, clock)
    reports = checking_run(40, reads, 5000, read_s, score_s, clock)
    end = reports[-1][0]
    told = []
    for at, p in reports:
        clock.now = at
        told.append((at, left.update(p)))
    for share in (0.1, 0.5, 0.9):
        at, estimate = min(told, key=lambda item: abs(item[0] - share * end))
        actual = end - at
        assert estimate is not None and 0.5 <= estimate / actual <= 2.0, (share, estimate, actual)


def test_a_real_check_is_told_within_twice_its_time_left():
    """The progress reports of a first verified scan of the 20,000-document medium collection (seed 3, two
    workers, load 13-16, 2026-11-27: 603 s, of which the check read 19,876 texts and scored 100,752 pairs in
    187 s), replayed: the check is told within 2x at 10%, 50% and 90% of its time (22 s of it went to the
    workers' start-up), and so is the whole scan."""
    rows = json.loads((Path(__file__).parent / "data" / "scan_progress_20k.json").read_text())
    clock = Clock()
    left = TimeLeft(True, clock)
    told = []
    for at, phase, done, total in rows:
        clock.now = at
        told.append((at, left.update(Progress(phase, done, total, 0.0))))
    end = rows[-1][0]
    checking = [at for at, phase, _, _ in rows if phase in ("verifying", "scoring")]
    for start in (checking[0], 0.0):  # the check, the whole scan
        for share in (0.1, 0.5, 0.9):
            at, estimate = min(told, key=lambda item: abs(item[0] - (start + share * (end - start))))
            assert estimate is not None and 0.5 <= estimate / (end - at) <= 2.0, (start, share, estimate, end - at)
