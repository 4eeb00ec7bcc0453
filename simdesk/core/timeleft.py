"""How long a whole scan has left, from its progress reports: shown by the window and the command line.

A scan reads the files it has to (phase "reading"), then, in verified mode, finds the boilerplate and the
candidate pairs ("boilerplate", "pairing"), reads the texts of the candidate pairs again ("verifying") and
scores the pairs ("scoring"). The phase under way is timed at its own rate; the phases after it are
estimated from the reading rate, as shares of the reading time: the mean of two first scans of the medium
collection (20,000 documents, 2 cores, 2026-11-23; shares of reading, under load 15 / load 5): boilerplate
and pairing 0.16 / 0.40, verifying 0.47 / 0.78, scoring 0.05 / 0.08 (reading 82.6 s / 28.1 s; the
phases that run in one process slow down less under load than reading on every core). Between reports that
give a rate, the last estimate counts down.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from simdesk.core.records import Progress

# the later phases' time as a share of the reading time (see above)
PAIRING_SHARE = 0.28
VERIFYING_SHARE = 0.62
SCORING_SHARE = 0.065
SETTLE_S = 1.0  # a phase's rate is trusted after this long (its first files include the workers' start-up)


class TimeLeft:
    """Feed it every Progress of one scan (`update`); `seconds()` is the whole scan's time left, None while
    it cannot be told yet. `clock` is for tests."""

    def __init__(self, verified: bool, clock: Callable[[], float] = time.perf_counter) -> None:
        self.verified = verified
        self.clock = clock
        self.phase = ""
        self.phase_started = 0.0
        self.progress: Progress | None = None
        self.read_rate: float | None = None  # files per second while reading
        self.files = 0  # files the scan reads
        self.estimate: float | None = None
        self.estimated_at = 0.0

    def update(self, p: Progress) -> float | None:
        now = self.clock()
        if p.phase != self.phase:
            self.phase, self.phase_started = p.phase, now
        self.progress = p
        running = now - self.phase_started
        rate = p.done / running if running >= SETTLE_S and p.done > 0 else None
        left: float | None = None
        if p.phase == "reading" and p.total:
            self.files = p.total
            if rate:
                self.read_rate = rate
                left = (p.total - p.done) / rate + self._after_reading()
        elif p.phase == "verifying" and p.total and rate:
            left = (p.total - p.done) / rate + self._scoring()
        elif p.phase == "scoring" and p.total and rate:
            left = (p.total - p.done) / rate
        elif p.phase == "done" and not self.verified:
            left = 0.0
        if left is not None:
            self.estimate, self.estimated_at = left, now
        return self.seconds()

    def _after_reading(self) -> float:
        if not self.verified or not self.read_rate:
            return 0.0
        return (PAIRING_SHARE + VERIFYING_SHARE + SCORING_SHARE) * self.files / self.read_rate

    def _scoring(self) -> float:
        return SCORING_SHARE * self.files / self.read_rate if self.verified and self.read_rate else 0.0

    def seconds(self) -> float | None:
        """The last estimate, less the time since it was made (between the phases that report no rate)."""
        if self.estimate is None:
            return None
        return max(self.estimate - (self.clock() - self.estimated_at), 0.0)
