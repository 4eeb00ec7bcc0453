"""How long a whole scan has left, from its progress reports: shown by the window and the command line.

A scan reads the files it has to (phase "reading"), then, in verified mode, finds the boilerplate and the
candidate pairs ("boilerplate", "pairing"), reads the texts of the candidate pairs again ("verifying") and
scores the pairs ("scoring"). Verification reads and scores side by side (the workers read a step's texts
while the step before is scored), so "verifying" and "scoring" are one phase for the editor, checking, timed
from its start (`Checking`: each of the two alternating counters timed on its own restarted its clock at
every turn and told 6-23 times too little). The phase under way is
timed at its own rate; the phases after it are
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


CHECKING_PHASES = ("verifying", "scoring")  # one phase for the editor: checking the candidate pairs


class Checking:
    """How far the check of the candidate pairs is, from its two alternating counters: the texts read
    ("verifying", by the workers) and the pairs scored ("scoring", by the scanning process while the workers
    read the next step's texts). The two run side by side, so the time left is the longer of the two
    counters' times left: the texts' at their rate since the first were reported (the workers' start-up
    took 22 s of a 190 s check at load 16, 2026-11-27), the pairs' at the rate they are
    scored between two reports of texts (a step of pairs waiting for its texts is not scoring: an early step
    waiting on a large read made the pairs' rate since their start several times too slow)."""

    def __init__(self, started: float) -> None:
        self.started = started
        self.scoring_started: float | None = None
        self.first_read: tuple[float, int] | None = None  # the first texts reported: the workers had started
        self.read = self.reads = self.scored = self.pairs = 0
        self._last_scoring: tuple[float, int] | None = None  # the last scoring report since texts were reported
        self._scoring_s = 0.0  # time between two scoring reports with no texts reported in between
        self._scoring_pairs = 0  # the pairs scored meanwhile
        self._shown = 0.0  # the share told last

    def update(self, p: Progress, now: float) -> float | None:
        """Take in a report at clock time `now`; the seconds left, None until a rate is known."""
        if p.phase == "verifying":
            self.read, self.reads = p.done, p.total
            self._last_scoring = None
            if self.first_read is None and p.done:
                self.first_read = (now, p.done)
        elif p.phase == "scoring":
            if self._last_scoring is not None and p.done > self._last_scoring[1]:
                self._scoring_s += now - self._last_scoring[0]
                self._scoring_pairs += p.done - self._last_scoring[1]
            self._last_scoring = (now, p.done)
            self.scored, self.pairs = p.done, p.total
            if self.scoring_started is None:
                self.scoring_started = now
        lefts = []
        if self.first_read is not None and self.read > self.first_read[1] and now - self.first_read[0] >= SETTLE_S:
            lefts.append((self.reads - self.read) * (now - self.first_read[0]) / (self.read - self.first_read[1]))
        if self._scoring_pairs and self._scoring_s >= SETTLE_S / 4:
            lefts.append((self.pairs - self.scored) * self._scoring_s / self._scoring_pairs)
        elif self.scored and self.scoring_started is not None and now - self.scoring_started >= SETTLE_S:
            lefts.append((self.pairs - self.scored) * (now - self.scoring_started) / self.scored)
        return max(lefts) if lefts else None

    def share(self, now: float, left: float | None) -> float:
        """0..1, the share of the check's time gone by (the mean of the two counters' shares while no time
        left is known): what a progress bar shows. Never less than it said before (a bar does not go back
        when an estimate grows)."""
        if left is not None and now > self.started:
            share = (now - self.started) / (now - self.started + left)
        else:
            texts = self.read / self.reads if self.reads else 0.0
            pairs = self.scored / self.pairs if self.pairs else 0.0
            share = (texts + pairs) / 2
        self._shown = max(self._shown, min(share, 1.0))
        return self._shown


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
        self.checking = Checking(0.0)

    def update(self, p: Progress) -> float | None:
        now = self.clock()
        if p.phase != self.phase and not (p.phase in CHECKING_PHASES and self.phase in CHECKING_PHASES):
            self.phase_started = now
            if p.phase in CHECKING_PHASES:
                self.checking = Checking(now)
        self.phase = p.phase
        self.progress = p
        running = now - self.phase_started
        rate = p.done / running if running >= SETTLE_S and p.done > 0 else None
        left: float | None = None
        if p.phase == "reading" and p.total:
            self.files = p.total
            if rate:
                self.read_rate = rate
                left = (p.total - p.done) / rate + self._after_reading()
        elif p.phase in CHECKING_PHASES:
            left = self.checking.update(p, now)
        elif p.phase == "done" and not self.verified:
            left = 0.0
        if left is not None:
            self.estimate, self.estimated_at = left, now
        return self.seconds()

    def _after_reading(self) -> float:
        if not self.verified or not self.read_rate:
            return 0.0
        return (PAIRING_SHARE + VERIFYING_SHARE + SCORING_SHARE) * self.files / self.read_rate

    def seconds(self) -> float | None:
        """The last estimate, less the time since it was made (between the phases that report no rate)."""
        if self.estimate is None:
            return None
        return max(self.estimate - (self.clock() - self.estimated_at), 0.0)
