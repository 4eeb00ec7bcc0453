"""Kills during a clean-up and during an undo lose no file. The real `simdesk clean` and `simdesk undo` are
SIGKILLed (with their whole process group) at random moments while they move files; after every kill, each
file is in its place or in the trash, and undo, run until nothing is left to undo, puts every file back with
its bytes. The same holds for two clean-ups of one folder started together and killed together, and for
`simdesk cluster-apply` and its undo. CI runs 10 kills of a clean-up and of an undo and 5 of the others; the
`stress` runs 100 of each."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

from simdesk.cluster.apply import undo_apply
from simdesk.cluster.plan import ScanPlan
from simdesk.cluster.run import cluster_scan
from simdesk.cluster.sources import open_source
from simdesk.core.cleanup.plan import execute, plan_cleanup
from simdesk.core.cleanup.undo import undo_last_cleanup
from tests.folders import OTHER, POEM
from tests.reliability.conftest import REPO, apply_args, simdesk_argv
from tests.reliability.test_no_file_lost import cli_env, contents, scanned, trashed

GROUPS = 40


def write_folder(root: Path) -> dict[str, bytes]:
    """GROUPS groups of two copies each (the same text twice, different from every other group)."""
    root.mkdir(parents=True, exist_ok=True)
    for g in range(GROUPS):
        text = (POEM if g % 2 else OTHER) + f"第{g}号文件。" * 30
        for c in range(2):
            (root / f"g{g:02d}-{c}.txt").write_text(text, encoding="utf-8")
            os.utime(root / f"g{g:02d}-{c}.txt", ns=(10**18, 10**18 + c))  # copy 0 is the oldest
    return contents(root)


def kill_when_moving(args: list[str], env: dict, log: Path, rng: random.Random) -> bool:
    """Start `simdesk ARGS`; once it has appended a random number of lines to `log` (kill_together), SIGKILL
    its process group. Returns True when it was killed while still running."""
    return kill_together([args], env, log, rng)


def kill_together(commands: list[list[str]], env: dict, log: Path, rng: random.Random) -> bool:
    """Start every `simdesk` command at once; once `log` has grown by 1 to GROUPS // 2 lines (at random: each
    file a command moves or puts back appends at least one, ahead of the move, and every command here moves
    GROUPS files or more, so the kill lands amid the moves, wherever the machine's speed puts them), SIGKILL
    them all after a pause of up to 5 ms. Returns True when one was still running when killed."""
    read = log.stat().st_size if log.exists() else 0  # what the log held before: only what comes after counts
    procs = [
        subprocess.Popen(
            simdesk_argv(*args),
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for args in commands
    ]
    deadline = time.monotonic() + 120
    wanted, seen = rng.randint(1, GROUPS // 2), 0
    while any(p.poll() is None for p in procs) and time.monotonic() < deadline:
        if log.exists():  # only what was appended since the last look (a stress loop's log grows to megabytes)
            with log.open("rb") as fh:
                fh.seek(read)
                added = fh.read()
            read, seen = read + len(added), seen + added.count(b"\n")
            if seen >= wanted:
                break
        time.sleep(0.001)
    time.sleep(rng.uniform(0.0, 0.005))
    running = any(p.poll() is None for p in procs)
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait(30)
    return running


def undo_everything(log: Path) -> None:
    for _ in range(50):
        report = undo_last_cleanup(log)
        if report.run is None:
            return
        assert report.not_restored == [], report.not_restored
    raise AssertionError("undo never finished")


def clean_kill_loop(tmp_path: Path, home: Path, kills: int, seed: int) -> tuple[int, int]:
    """(kills that landed while `simdesk clean` was moving files, files lost)."""
    rng = random.Random(seed)
    root = tmp_path / "docs"
    before = write_folder(root)
    log = home / ".local" / "share" / "simdesk" / "actions.jsonl"
    db = tmp_path / "i.sqlite"
    landed = lost = 0
    for _ in range(kills):
        landed += kill_when_moving(
            ["clean", str(root), "--keep", "oldest", "-t", "3", "--db", str(db)],
            cli_env(home),
            log,
            rng,
        )
        now, bin_ = contents(root), trashed(home)
        lost += sum(1 for p, data in before.items() if now.get(p) != data and data not in bin_.values())
        undo_everything(log)
        assert contents(root) == before and trashed(home) == {}
    return landed, lost


def undo_kill_loop(tmp_path: Path, home: Path, kills: int, seed: int) -> tuple[int, int]:
    """(kills that landed while `simdesk undo` was putting files back, files lost)."""
    rng = random.Random(seed)
    root = tmp_path / "docs"
    before = write_folder(root)
    log = home / ".local" / "share" / "simdesk" / "actions.jsonl"
    _, _, groups = scanned(root, tmp_path / "i.sqlite")
    keep = {f"g{g:02d}-0.txt" for g in range(GROUPS)}
    landed = lost = 0
    for _ in range(kills):
        report = execute(plan_cleanup(groups, keep=keep), root, "trash", log_path=log)
        assert len(report.done) == GROUPS
        landed += kill_when_moving(["undo"], cli_env(home), log, rng)
        now, bin_ = contents(root), trashed(home)
        lost += sum(1 for p, data in before.items() if now.get(p) != data and data not in bin_.values())
        undo_everything(log)  # finishes what the killed undo began, never restores anything twice
        assert contents(root) == before and trashed(home) == {}
    return landed, lost


def two_cleans_kill_loop(tmp_path: Path, home: Path, kills: int, seed: int) -> tuple[int, int]:
    """(kills that landed while two `simdesk clean` of one folder, --keep oldest and --keep newest, were
    running, files lost); after each kill every group (at -t 3, the files of one text) still has a copy in its
    folder."""
    rng = random.Random(seed)
    root = tmp_path / "docs"
    before = write_folder(root)
    log = home / ".local" / "share" / "simdesk" / "actions.jsonl"
    landed = lost = 0
    for _ in range(kills):
        landed += kill_together(
            [
                ["clean", str(root), "--keep", rule, "-t", "3", "--db", str(tmp_path / f"{rule}.db")]
                for rule in ("oldest", "newest")
            ],
            cli_env(home),
            log,
            rng,
        )
        now, bin_ = contents(root), trashed(home)
        lost += sum(1 for p, data in before.items() if now.get(p) != data and data not in bin_.values())
        # at -t 3 the files of one text (odd groups: POEM, even: OTHER) form one group: each keeps a copy
        assert {int(p[1:3]) % 2 for p in now} == {0, 1}, "a group was emptied"
        undo_everything(log)
        assert contents(root) == before and trashed(home) == {}
    return landed, lost


def apply_kill_loop(tmp_path: Path, kills: int, seed: int) -> tuple[int, int]:
    """(kills that landed while `simdesk cluster-apply` or its undo was moving files, files lost); after
    each, the undo run to its end puts every file back and leaves nothing under the trash prefix."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = random.Random(seed)
    root = tmp_path / "docs"
    before = write_folder(root)
    cluster_scan(open_source(str(root)), tmp_path / "b", ScanPlan(threshold=3, jobs=1))
    trash_paths = [f"g{g:02d}-1.txt" for g in range(GROUPS)]
    decisions = tmp_path / "d.parquet"
    pq.write_table(pa.table({"path": trash_paths, "decision": ["trash"] * GROUPS}), decisions)
    trash = tmp_path / "trash"
    log = tmp_path / "apply.jsonl"
    landed = lost = 0
    for k in range(kills):
        if k % 2:
            subprocess.run(
                simdesk_argv(*apply_args(tmp_path / "b", decisions, trash, log)),
                cwd=REPO,
                check=True,
                capture_output=True,
            )
            args = ["cluster-apply", tmp_path / "b", "--undo", log]
        else:
            args = apply_args(tmp_path / "b", decisions, trash, log)
        landed += kill_when_moving(args, os.environ.copy(), log, rng)
        now, moved = contents(root), contents(trash) if trash.exists() else {}
        lost += sum(1 for p, data in before.items() if now.get(p) != data and moved.get(p) != data)
        for _ in range(5):
            if not undo_apply(log).done:
                break
        assert contents(root) == before and (not trash.exists() or contents(trash) == {})
    return landed, lost


def test_ten_kills_during_clean_up_lose_no_file(tmp_path, trash_home):
    landed, lost = clean_kill_loop(tmp_path, trash_home, 10, seed=13)
    print(f"clean-up: 10 kills, {landed} while moving files, {lost} files lost")
    assert lost == 0 and landed >= 5  # most kills really land while files are moving


def test_ten_kills_during_undo_lose_no_file(tmp_path, trash_home):
    landed, lost = undo_kill_loop(tmp_path, trash_home, 10, seed=17)
    print(f"undo: 10 kills, {landed} while putting files back, {lost} files lost")
    assert lost == 0 and landed >= 5


def test_five_kills_during_two_clean_ups_at_once_lose_no_file(tmp_path, trash_home):
    landed, lost = two_cleans_kill_loop(tmp_path, trash_home, 5, seed=31)
    print(f"two clean-ups at once: 5 kills, {landed} while running, {lost} files lost")
    assert lost == 0


def test_five_kills_during_cluster_apply_and_its_undo_lose_no_file(tmp_path):
    landed, lost = apply_kill_loop(tmp_path, 6, seed=37)
    print(f"cluster-apply: 6 kills, {landed} while moving files, {lost} files lost")
    assert lost == 0


@pytest.mark.stress
def test_a_hundred_kills_during_two_clean_ups_and_during_cluster_apply(tmp_path, trash_home):
    two = two_cleans_kill_loop(tmp_path / "two", trash_home, 100, seed=41)
    apply = apply_kill_loop(tmp_path / "apply", 100, seed=43)
    print(
        f"stress: two clean-ups {two[0]} kills landed, {two[1]} files lost; cluster-apply {apply[0]} kills "
        f"landed, {apply[1]} files lost"
    )
    assert two[1] == apply[1] == 0


@pytest.mark.stress
def test_a_hundred_kills_during_clean_up_and_a_hundred_during_undo(tmp_path, trash_home):
    clean = clean_kill_loop(tmp_path / "clean", trash_home, 100, seed=23)
    undo = undo_kill_loop(tmp_path / "undo", trash_home, 100, seed=29)
    print(
        f"stress: clean-up {clean[0]} kills landed, {clean[1]} files lost; undo {undo[0]} kills landed, "
        f"{undo[1]} files lost"
    )
    assert clean[1] == undo[1] == 0
