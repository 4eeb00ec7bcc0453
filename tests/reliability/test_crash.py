"""Crash safety. The real `simdesk scan` is SIGKILLed at random moments; after every kill
the index passes PRAGMA integrity_check and still holds every document committed before the kill, and the
next scan resumes without fingerprinting them again, its segment table holding every document. A second simdesk on a busy index says so and exits 2.
"""

from __future__ import annotations

import os
import random
import re
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from simdesk.core.evaluation import load_truth
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.records import ScanOptions
from tests.core.test_index import expected_entries, segment_entries
from tests.reliability.conftest import REPO, scan_args, simdesk, simdesk_argv
from tests.reliability.corpus import POEM

STATS = re.compile(r"(\d+) new, (\d+) changed, (\d+) moved, (\d+) deleted, (\d+) unchanged, (\d+) problems")


def start_scan(folder: Path, db: Path, *extra: str) -> subprocess.Popen:
    """`simdesk scan` in its own process group (so a kill takes its worker processes too, as a crash would)."""
    return subprocess.Popen(
        simdesk_argv(*scan_args(folder, db, "--format", "json", *extra)),
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def committed(db: Path) -> dict[str, tuple[int, int, str, int]]:
    """What another reader sees committed right now: path -> (size, mtime_ns, content hash, fingerprint)."""
    if not db.exists():
        return {}
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return {
            r[0]: tuple(r[1:])
            for r in conn.execute(
                "SELECT path, size, mtime_ns, content_hash, fingerprint FROM documents WHERE size >= 0"
            )
        }
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):  # the schema is not written yet
            return {}
        raise
    finally:
        conn.close()


def integrity(db: Path) -> str:
    conn = sqlite3.connect(db, timeout=30)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(30)


def kill_loop(
    folder: Path, db: Path, kills: int, rng: random.Random, longest_s: float, reference: dict
) -> tuple[int, int]:
    """Start and SIGKILL `simdesk scan` `kills` times at random moments in [0, longest_s); check the index
    after each kill. Returns (kills survived, documents lost)."""
    survived = lost = 0
    for _ in range(kills):
        proc = start_scan(folder, db, "--jobs", rng.choice(["1", "2"]))
        deadline = time.monotonic() + rng.uniform(0.05, longest_s)
        before: dict = {}
        while time.monotonic() < deadline and proc.poll() is None:
            before = committed(db) or before  # the last committed state seen before the kill
            time.sleep(rng.uniform(0.01, 0.1))
        kill_group(proc)
        assert integrity(db) == "ok"
        after = committed(db)
        missing = [p for p in before if p not in after]
        lost += len(missing)
        assert not missing, f"{len(missing)} committed documents lost, e.g. {missing[:3]}"
        # and nothing half-written: every stored document is exactly what a full scan stores
        assert all(reference[p] == state for p, state in after.items())
        survived += 1
    return survived, lost


def reference_index(folder: Path, db: Path) -> dict:
    with Index(db) as index:
        scan(folder, index, ScanOptions(jobs=1))
    return committed(db)


def resume(folder: Path, db: Path, reference: dict) -> None:
    """The scan after the kills: finishes, and fingerprints only what was not committed before."""
    had = committed(db)
    proc = simdesk(*scan_args(folder, db, "--format", "json", "--jobs", 2))
    assert proc.returncode == 0, proc.stderr
    new, changed, moved, deleted, unchanged, problems = map(int, STATS.search(proc.stderr).groups())
    assert unchanged == len(had) and new == len(reference) - len(had) and changed == deleted == 0
    assert committed(db) == reference and integrity(db) == "ok"
    with Index(db) as index:  # the segment table of a first scan, made after its documents, holds them all
        assert segment_entries(index) == expected_entries(index)


def test_twenty_kills_at_random_moments_lose_nothing(small_corpus, tmp_path):
    rng = random.Random(20261123)
    reference = reference_index(small_corpus, tmp_path / "reference.sqlite")
    total = lost = 0
    for episode in range(4):  # each from an empty index, so that kills land in the writing phase too
        db = tmp_path / f"index-{episode}.sqlite"
        survived, missing = kill_loop(small_corpus, db, 5, rng, longest_s=2.5 + episode, reference=reference)
        total += survived
        lost += missing
        resume(small_corpus, db, reference)
    assert total == 20 and lost == 0
    print(f"kill loop: {total} kills survived, {lost} documents lost")


@pytest.mark.stress
def test_two_hundred_kills(small_corpus, tmp_path):
    rng = random.Random(7)
    reference = reference_index(small_corpus, tmp_path / "reference.sqlite")
    total = lost = 0
    for episode in range(20):
        db = tmp_path / f"index-{episode}.sqlite"
        survived, missing = kill_loop(small_corpus, db, 10, rng, longest_s=1.0 + episode * 0.4, reference=reference)
        total += survived
        lost += missing
        resume(small_corpus, db, reference)
    assert total == 200 and lost == 0
    print(f"stress kill loop: {total} kills survived, {lost} documents lost")


def slow_folder(root: Path, files: int = 40) -> Path:
    """Files of 1.5 MB each: a scan of them takes seconds, long enough to meet it while it writes."""
    root.mkdir()
    for k in range(files):
        (root / f"{k:02d}.txt").write_text((POEM + str(k)) * 14_000, encoding="utf-8")
    return root


def test_a_second_scan_of_the_same_index_says_busy_and_exits_2(tmp_path):
    db = tmp_path / "i.sqlite"
    folder = slow_folder(tmp_path / "docs")
    first = start_scan(folder, db, "--jobs", "1")
    try:
        deadline = time.monotonic() + 60
        while not committed(db) and time.monotonic() < deadline:  # the first scan is writing
            time.sleep(0.05)
        # held still while the second runs, so that it cannot finish first (a fast machine reads the rest
        # of the folder within the second's start-up); its lock stays held while it is stopped
        first.send_signal(signal.SIGSTOP)
        assert committed(db) and first.poll() is None
        second = simdesk(*scan_args(folder, db), timeout=60)
        assert second.returncode == 2
        assert second.stderr.splitlines() == [
            "simdesk: error: the index is busy: another simdesk is scanning this folder; try again when it has finished"
        ]
    finally:
        first.send_signal(signal.SIGCONT)
        first.wait(120)
    assert first.returncode == 0, first.stderr.read()
    assert integrity(db) == "ok" and len(committed(db)) == 40


def test_a_scan_waits_for_a_short_write_by_another_program(small_corpus, tmp_path):
    db = tmp_path / "i.sqlite"
    Index(db).close()
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the index for a moment
    proc = start_scan(small_corpus, db, "--jobs", "1")
    time.sleep(3)
    assert proc.poll() is None  # waiting (up to the 10 s busy timeout), not failing
    holder.execute("COMMIT")
    holder.close()
    assert proc.wait(120) == 0, proc.stderr.read()
    assert integrity(db) == "ok" and len(committed(db)) == len(load_truth(small_corpus))
