"""Nothing outside the folder, nothing twice: a clean-up never acts outside the folder the user chose, never
replaces a file, runs one at a time per folder and verifies the kept copy right before each removal; undo
takes only complete log entries, never recreates a vanished folder nor restores through a link placed since,
and finishes what a killed undo began. Real files, the real freedesktop trash under a temporary HOME, the
real `simdesk` command in subprocesses where two run at once."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from simdesk.core.cleanup.plan import CleanupBusy, CleanupPlan, Removal, execute, plan_cleanup
from simdesk.core.cleanup.undo import undo_last_cleanup
from simdesk.core.reading.documents import content_hash
from tests.folders import OTHER, POEM
from tests.reliability.conftest import REPO, simdesk_argv
from tests.reliability.test_no_file_lost import cli_env, contents, scanned, trashed


def copies(root: Path, n: int, text: str = POEM, prefix: str = "c") -> dict[str, bytes]:
    """`n` copies of one text in `root`, each a second older than the next."""
    root.mkdir(parents=True, exist_ok=True)
    for k in range(n):
        p = root / f"{prefix}{k:03d}.txt"
        p.write_text(text, encoding="utf-8")
        os.utime(p, ns=(10**18 + k * 10**9, 10**18 + k * 10**9))
    return contents(root)


def two_cleans_at_once(root: Path, home: Path, tmp: Path) -> list[subprocess.CompletedProcess]:
    """`simdesk clean --keep oldest` and `--keep newest` on `root`, started together (each its own index)."""
    procs = [
        subprocess.Popen(
            simdesk_argv("clean", root, "--keep", rule, "-t", 3, "--db", tmp / f"{rule}.sqlite"),
            cwd=REPO,
            env=cli_env(home),
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for rule in ("oldest", "newest")
    ]
    return [subprocess.CompletedProcess(p.args, p.wait(600), *p.communicate()) for p in procs]


def check_two_cleans(root: Path, home: Path, tmp: Path, n: int) -> None:
    shutil.rmtree(home / ".local" / "share" / "Trash", ignore_errors=True)  # an earlier round's files
    before = copies(root, n)
    runs = two_cleans_at_once(root, home, tmp)
    for r in runs:
        assert "Traceback" not in r.stderr, r.stderr
        assert r.returncode in (0, 1, 2), r.stderr
    left, bin_ = contents(root), trashed(home)
    assert len(left) >= 1, "the group was emptied"
    assert len(left) + len(bin_) == n and all(data == before["c000.txt"] for data in [*left.values(), *bin_.values()])
    reported = sum(line.startswith("trashed  ") for r in runs for line in r.stdout.splitlines())
    assert reported == len(bin_)  # each run reports what it moved itself, never the other's files


def test_two_clean_ups_at_once_never_empty_a_group(tmp_path, trash_home):
    check_two_cleans(tmp_path / "docs", trash_home, tmp_path, 40)


@pytest.mark.stress
def test_two_clean_ups_at_once_on_300_copies_three_times(tmp_path, trash_home):
    for k in range(3):
        check_two_cleans(tmp_path / f"docs{k}", trash_home, tmp_path / f"run{k}", 300)


def test_a_second_clean_up_of_the_folder_or_one_inside_it_is_refused_while_one_runs(tmp_path, trash_home):
    root = tmp_path / "docs"
    copies(root / "sub", 3)
    copies(root, 3, OTHER, "o")
    _, _, groups = scanned(root, tmp_path / "i.sqlite")
    seen = []

    def meanwhile(k: int, total: int) -> None:
        if k == 0:
            for folder in (root, root / "sub", tmp_path):
                with pytest.raises(CleanupBusy) as busy:
                    execute(plan_cleanup(groups, keep=set()), folder, "trash")
                seen.append(str(busy.value))

    report = execute(plan_cleanup(groups, keep={"sub/c000.txt", "o000.txt"}), root, "trash", on_progress=meanwhile)
    assert len(report.done) == 4 and len(seen) == 3 and all("another clean-up" in s for s in seen)
    assert execute(plan_cleanup(groups, keep=set()), root, "trash").done == []  # the lock is released after


def test_the_kept_copy_is_verified_right_before_each_removal(tmp_path, trash_home):
    root = tmp_path / "docs"
    copies(root, 4)
    _, _, groups = scanned(root, tmp_path / "i.sqlite")
    plan = plan_cleanup(groups, keep={"c000.txt"})

    def change_the_kept_copy(k: int, total: int) -> None:
        if k == 1:  # after the first removal, before the second
            (root / "c000.txt").write_text("rewritten", encoding="utf-8")

    report = execute(plan, root, "trash", on_progress=change_the_kept_copy)
    assert len(report.done) == 1 and len(report.skipped) == 2 and len(report.refused_groups) == 1
    assert "c000.txt changed since the scan" in report.refused_groups[0].reason
    assert sorted(contents(root)) == ["c000.txt", "c002.txt", "c003.txt"]


def test_a_removal_outside_the_folder_is_never_carried_out(tmp_path, trash_home):
    root = tmp_path / "docs"
    copies(root / "sub", 2)
    victim = tmp_path / "victim.txt"
    victim.write_text(POEM, encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "c001.txt").write_text(POEM, encoding="utf-8")
    st = victim.stat()
    h = content_hash(victim.read_bytes())
    kept = scanned(root, tmp_path / "i.sqlite")[2][0].members[0]
    for rel in ("../victim.txt", str(victim), "sub/../../victim.txt"):
        plan = CleanupPlan((Removal(rel, st.st_size, st.st_mtime_ns, h, 1),), (), {1: (kept,)})
        report = execute(plan, root, "trash")
        assert report.done == [] and "outside the folder" in report.skipped[0][1], report
    # a folder on the way replaced by a link elsewhere since the scan
    (root / "sub").rename(tmp_path / "moved-sub")
    (root / "sub").symlink_to(outside)
    o = (outside / "c001.txt").stat()
    plan = CleanupPlan(
        (Removal("sub/c001.txt", o.st_size, o.st_mtime_ns, h, 1),), (), {1: (kept,)}, allow_last_copy=True
    )
    report = execute(plan, root, "trash")
    assert report.done == [] and "outside the folder" in report.skipped[0][1]
    assert victim.read_text(encoding="utf-8") == POEM and (outside / "c001.txt").exists() and trashed(trash_home) == {}


def test_a_move_never_replaces_a_file_at_its_destination(tmp_path, trash_home):
    root = tmp_path / "docs"
    before = copies(root, 2)
    dest = tmp_path / "moved"
    dest.mkdir()
    (dest / "c001.txt").write_text("already here", encoding="utf-8")
    _, _, groups = scanned(root, tmp_path / "i.sqlite")
    log = tmp_path / "actions.jsonl"
    report = execute(plan_cleanup(groups, keep={"c000.txt"}), root, "move", dest=dest, log_path=log)
    assert report.done == ["c001.txt"]
    assert (dest / "c001.txt").read_text(encoding="utf-8") == "already here"
    assert (dest / "c001 (1).txt").read_bytes() == before["c001.txt"]
    undo_last_cleanup(log)
    assert contents(root) == before and (dest / "c001.txt").read_text(encoding="utf-8") == "already here"


def test_undo_refuses_a_vanished_folder_and_a_link_placed_since(tmp_path, trash_home):
    root = tmp_path / "docs"
    copies(root / "a", 2)
    copies(root / "b", 2, OTHER)
    _, _, groups = scanned(root, tmp_path / "i.sqlite")
    log = tmp_path / "actions.jsonl"
    report = execute(plan_cleanup(groups, keep={"a/c000.txt", "b/c000.txt"}), root, "trash", log_path=log)
    assert sorted(report.done) == ["a/c001.txt", "b/c001.txt"]
    (root / "a").rename(root / "a-renamed")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / "b").rename(tmp_path / "b-away")
    (root / "b").symlink_to(elsewhere)
    undo = undo_last_cleanup(log)
    reasons = dict(undo.not_restored)
    assert undo.restored == [] and "no longer exists" in reasons[str(root / "a" / "c001.txt")]
    assert "symbolic link" in reasons[str(root / "b" / "c001.txt")]
    assert not (root / "a").exists() and list(elsewhere.iterdir()) == [] and len(trashed(trash_home)) == 2


def test_undo_skips_hand_written_entries_that_prove_nothing(tmp_path, trash_home):
    root = tmp_path / "docs"
    root.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("someone's file", encoding="utf-8")
    log = tmp_path / "actions.jsonl"
    lines = [
        {"action": "move", "root": str(root), "path": "x.txt", "to": str(victim), "outcome": "done", "run": "r"},
        {
            "action": "move",
            "root": str(root),
            "path": "y.txt",
            "to": str(victim),
            "dest": str(tmp_path),
            "outcome": "done",
            "run": "r",
        },  # no size nor hash
        {
            "action": "trash",
            "root": str(root),
            "path": "../victim.txt",
            "size": 14,
            "content_hash": "h",
            "outcome": "done",
            "run": "r",
        },
        {
            "action": "move",
            "root": str(root),
            "path": "z.txt",
            "to": str(victim),
            "dest": str(root / "t"),
            "size": 14,
            "content_hash": content_hash(victim.read_bytes()),
            "outcome": "done",
            "run": "r",
        },
    ]
    log.write_text("".join(json.dumps(e) + "\n" for e in lines) + '{"action": "mo', encoding="utf-8")
    report = undo_last_cleanup(log)
    assert report.run is None and report.ignored_lines == 5
    assert victim.read_text(encoding="utf-8") == "someone's file" and list(root.iterdir()) == []


def test_an_undo_finding_a_file_already_restored_removes_its_trash_copy(tmp_path, trash_home):
    """The moment a kill can land in an undo: the file linked back in its place, its trash copy not yet
    removed. The next undo counts it restored and leaves nothing in the trash."""
    root = tmp_path / "docs"
    before = copies(root, 2)
    _, _, groups = scanned(root, tmp_path / "i.sqlite")
    log = tmp_path / "actions.jsonl"
    execute(plan_cleanup(groups, keep={"c000.txt"}), root, "trash", log_path=log)
    files = trash_home / ".local" / "share" / "Trash" / "files"
    os.link(files / "c001.txt", root / "c001.txt")
    report = undo_last_cleanup(log)
    assert report.restored == [str(root / "c001.txt")] and report.not_restored == []
    assert contents(root) == before and trashed(trash_home) == {}
    assert list((trash_home / ".local" / "share" / "Trash" / "info").iterdir()) == []
    assert undo_last_cleanup(log).run is None
