"""The whole scan's time left, from progress reports on a clock the test moves."""
from __future__ import annotations

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
    clock.now = 13.0
    assert left.update(Progress("verifying", 100, 400, 3.0)) == pytest.approx(300 / 50 + SCORING_SHARE * 10.0)
    left.update(Progress("scoring", 0, 5000, 9.0))
    clock.now = 15.0
    assert left.update(Progress("scoring", 2000, 5000, 11.0)) == pytest.approx(3000 / 1000)
    clock.now = 100.0
    assert left.seconds() == 0.0  # never below nothing
