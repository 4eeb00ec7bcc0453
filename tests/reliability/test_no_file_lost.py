"""No file lost, ever: a document is a file, not a path (symbolic links, a folder reached twice, hard links);
the copy a group keeps is verified by its content before anything goes; the action log is written ahead, so a
full disk or a crash at any moment leaves every file findable; undo matches the trash by content (any time
zone), retries the clean-up that failed, and ignores log lines that are not valid entries. Real files, the
real freedesktop trash under a temporary HOME, the real `simdesk` command where the user would use it."""

from __future__ import annotations

import errno
import json
import os
import subprocess
from pathlib import Path

import pytest

from simdesk.core.cleanup import actionlog
from simdesk.core.cleanup.plan import execute, plan_cleanup
from simdesk.core.cleanup.undo import undo_last_cleanup
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.groups import grouper_for
from simdesk.core.reading.documents import LINK_TO_FILE, LOOP
from simdesk.core.records import ScanOptions
from tests.folders import OTHER, POEM
from tests.reliability.conftest import simdesk

ONE = ScanOptions(jobs=1)


def scanned(root: Path, db: Path):
    """Scan `root` into `db`: (stored paths, {problem path: reason}, the groups at distance 3)."""
    with Index(db) as index:
        result = scan(root, index, ONE)
        return (
            sorted(index.stored_states()),
            {p.path: p.error for p in result.problems},
            list(grouper_for(index).at(3)),
        )


def contents(root: Path) -> dict[str, bytes]:
    """Every regular file under `root` (links not followed) by relative path."""
    out = {}
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            p = Path(dirpath) / name
            if p.is_file() and not p.is_symlink():
                out[str(p.relative_to(root))] = p.read_bytes()
    return out


def trashed(home: Path) -> dict[str, bytes]:
    files = home / ".local" / "share" / "Trash" / "files"
    return {p.name: p.read_bytes() for p in files.iterdir()} if files.exists() else {}


def cli_env(home: Path, tz: str | None = None) -> dict:
    env = os.environ.copy()
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / ".local" / "share"))
    if tz:
        env["TZ"] = tz
    return env


# -- identity: a document is a file ------------------------------------------------------------------------


def test_a_symlink_to_a_file_is_reported_and_never_trashes_the_real_file(tmp_path, trash_home):
    root = tmp_path / "docs"
    (root / "archive").mkdir(parents=True)
    (root / "archive" / "notes.txt").write_text(POEM, encoding="utf-8")
    (root / "notes.txt").symlink_to("archive/notes.txt")
    stored, problems, groups = scanned(root, tmp_path / "i.sqlite")
    assert stored == ["archive/notes.txt"] and problems == {"notes.txt": LINK_TO_FILE} and groups == []
    proc = simdesk(
        "clean", root, "--keep", "shortest-path", "-t", "3", "--db", tmp_path / "i.sqlite", env=cli_env(trash_home)
    )
    assert proc.returncode == 0, proc.stderr
    assert (root / "archive" / "notes.txt").read_text(encoding="utf-8") == POEM and trashed(trash_home) == {}
    assert (root / "notes.txt").read_text(encoding="utf-8") == POEM  # the link still leads somewhere


def test_a_folder_linked_after_a_scan_is_walked_once_under_its_real_name(tmp_path, trash_home):
    root = tmp_path / "docs"
    (root / "reports").mkdir(parents=True)
    (root / "reports" / "q1.txt").write_text(POEM, encoding="utf-8")
    (root / "reports" / "q2.txt").write_text(OTHER, encoding="utf-8")
    db = tmp_path / "i.sqlite"
    assert scanned(root, db)[0] == ["reports/q1.txt", "reports/q2.txt"]
    (root / "latest").symlink_to("reports", target_is_directory=True)  # sorts before 'reports'
    stored, problems, groups = scanned(root, db)
    assert stored == ["reports/q1.txt", "reports/q2.txt"] and problems == {"latest/": LOOP} and groups == []
    proc = simdesk("clean", root, "--keep", "shortest-path", "-t", "3", "--db", db, env=cli_env(trash_home))
    assert proc.returncode == 0, proc.stderr
    assert sorted(contents(root)) == ["reports/q1.txt", "reports/q2.txt"] and trashed(trash_home) == {}


def test_a_hard_link_is_one_file_and_removing_it_frees_nothing(tmp_path, trash_home):
    root, outside = tmp_path / "docs", tmp_path / "elsewhere"
    root.mkdir()
    outside.mkdir()
    (root / "a.txt").write_text(POEM, encoding="utf-8")
    os.link(root / "a.txt", root / "b.txt")  # a second name in the folder: one document
    (outside / "kept-there.txt").write_text(OTHER, encoding="utf-8")
    os.link(outside / "kept-there.txt", root / "other.txt")  # a name whose content lives on outside
    (root / "other-copy.txt").write_text(OTHER, encoding="utf-8")
    stored, problems, groups = scanned(root, tmp_path / "i.sqlite")
    assert stored == ["a.txt", "other-copy.txt", "other.txt"]
    assert problems == {
        "b.txt": "the same file as a.txt (a hard link, a second name of one file): indexed once, under that name"
    }
    [group] = groups
    report = execute(plan_cleanup(groups, keep={"other-copy.txt"}), root, "trash")
    assert report.done == ["other.txt"] and report.hard_links == ["other.txt"] and report.bytes_done == 0
    assert "1 of them hard links (another name keeps their content: no space freed)" in report.summary()
    assert (outside / "kept-there.txt").read_text(encoding="utf-8") == OTHER


# -- the last-copy guard reads the kept copy -----------------------------------------------------------------


def _emptied(p: Path) -> None:
    p.write_bytes(b"")


def _folder(p: Path) -> None:
    p.unlink()
    p.mkdir()


def _dangling(p: Path) -> None:
    p.unlink()
    p.symlink_to(p.parent / "nowhere.txt")


def _link_to_the_doomed_copy(p: Path) -> None:
    p.unlink()
    p.symlink_to(p.parent / "poem-again.txt")


def _same_size_and_time(p: Path) -> None:
    st = p.stat()
    data = bytearray(p.read_bytes())
    data[0:3] = "远".encode()
    p.write_bytes(bytes(data))
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))


@pytest.mark.parametrize(
    "change",
    [_emptied, _folder, _dangling, _link_to_the_doomed_copy, _same_size_and_time],
    ids=["emptied", "a folder", "a dangling link", "a link to the copy to remove", "other content, same size and time"],
)
def test_a_group_whose_kept_copy_no_longer_verifies_is_left_alone(tmp_path, trash_home, change):
    root = tmp_path / "docs"
    root.mkdir()
    (root / "poem.txt").write_text(POEM, encoding="utf-8")
    (root / "poem-again.txt").write_text(POEM, encoding="utf-8")
    (root / "snow.txt").write_text(OTHER, encoding="utf-8")
    (root / "snow-again.txt").write_text(OTHER, encoding="utf-8")
    _, _, groups = scanned(root, tmp_path / "i.sqlite")
    plan = plan_cleanup(groups, keep={"poem.txt", "snow.txt"})
    change(root / "poem.txt")
    report = execute(plan, root, "trash", log_path=tmp_path / "actions.jsonl")
    assert report.done == ["snow-again.txt"]  # the other group is cleaned as planned
    assert (root / "poem-again.txt").read_text(encoding="utf-8") == POEM
    [refused] = report.refused_groups
    assert refused.reason.startswith("the copy to keep cannot be verified: poem.txt ")


def test_a_copy_to_remove_that_became_a_link_is_not_followed(tmp_path, trash_home):
    root = tmp_path / "docs"
    root.mkdir()
    for name in ("a.txt", "b.txt", "c.txt"):
        (root / name).write_text(POEM, encoding="utf-8")
    _, _, groups = scanned(root, tmp_path / "i.sqlite")
    plan = plan_cleanup(groups, keep={"a.txt"})
    (root / "b.txt").unlink()
    (root / "b.txt").symlink_to(root / "a.txt")  # removing "b.txt" as scanned must not touch a.txt
    report = execute(plan, root, "trash")
    assert report.done == ["c.txt"] and report.skipped == [("b.txt", "is now a symbolic link")]
    assert (root / "a.txt").read_text(encoding="utf-8") == POEM


# -- the action log is written ahead -------------------------------------------------------------------------


def many_copies(root: Path, groups: int = 6, copies: int = 3) -> dict[str, bytes]:
    root.mkdir(parents=True, exist_ok=True)
    for g in range(groups):
        text = (POEM if g % 2 else OTHER) + f"第{g}组。" * 40
        for c in range(copies):
            (root / f"g{g}-{c}.txt").write_text(text, encoding="utf-8")
    return contents(root)


@pytest.fixture
def small_disk(tmp_path):
    """A folder on a full-able device: a 64 KB tmpfs when mounting is allowed here, else a folder whose
    action-log writes fail with ENOSPC past 64 KB (the same error, raised by a wrapper)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    mounted = (
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], capture_output=True).returncode
        == 0
    )
    yield mount, mounted
    if mounted:
        subprocess.run(["umount", str(mount)], check=False)


def fill(disk: Path, mounted: bool, leave: int, monkeypatch) -> None:
    """Leave about `leave` bytes free on the small disk (or let the wrapper allow that many)."""
    if mounted:
        st = os.statvfs(disk)
        page = st.f_frsize
        free = st.f_bavail * page - -(-leave // page) * page
        (disk / "filler").write_bytes(b"\0" * max(0, free))
        return
    budget = {"left": leave}
    real = actionlog.ActionLog.append

    def append(self, entry, sync=False):
        line = actionlog.encode_line(entry).encode("utf-8")
        if budget["left"] < len(line):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        budget["left"] -= len(line)
        real(self, entry, sync)

    monkeypatch.setattr(actionlog.ActionLog, "append", append)


@pytest.mark.parametrize("leave", [0, 3000, 6000])
def test_a_full_disk_during_a_cleanup_leaves_every_file_findable(tmp_path, trash_home, small_disk, leave):
    disk, mounted = small_disk
    root = tmp_path / "docs"
    before = many_copies(root)
    _, _, groups = scanned(root, tmp_path / "i.sqlite")
    keep = {f"g{g}-0.txt" for g in range(6)}
    log = disk / "actions.jsonl"
    with pytest.MonkeyPatch.context() as patch:  # the wrapper, when mounting is not allowed, ends here
        fill(disk, mounted, leave, patch)
        report = execute(plan_cleanup(groups, keep=keep), root, "trash", log_path=log)
    assert report.stopped is not None and "cannot be written" in report.stopped
    if leave == 0:
        assert report.done == []  # not one intent could be written: nothing moved
    moved = set(before) - set(contents(root))
    assert moved == set(report.done) and len(trashed(trash_home)) == len(moved)
    if mounted:
        os.unlink(disk / "filler")
    while (undone := undo_last_cleanup(log)).run is not None:  # undo reads intents without outcomes too
        assert undone.not_restored == []
    assert contents(root) == before and trashed(trash_home) == {}


def test_an_intent_without_an_outcome_is_found_by_undo(tmp_path, trash_home):
    """A crash between the move and its outcome line: the intent alone brings the file back."""
    root = tmp_path / "docs"
    before = many_copies(root, groups=1, copies=3)
    _, _, groups = scanned(root, tmp_path / "i.sqlite")
    log = tmp_path / "actions.jsonl"
    execute(plan_cleanup(groups, keep={"g0-0.txt"}), root, "trash", log_path=log)
    lines = log.read_text(encoding="utf-8").splitlines()
    log.write_text("\n".join(line for line in lines if json.loads(line)["outcome"] != "done") + "\n", encoding="utf-8")
    assert sorted(undo_last_cleanup(log).restored) == [str(root / "g0-1.txt"), str(root / "g0-2.txt")]
    assert contents(root) == before


def test_an_intent_for_a_file_that_never_moved_is_settled_not_retried(tmp_path, trash_home):
    root = tmp_path / "docs"
    before = many_copies(root, groups=1, copies=2)
    _, _, groups = scanned(root, tmp_path / "i.sqlite")
    log = tmp_path / "actions.jsonl"
    execute(
        plan_cleanup(groups, keep={"g0-0.txt"}), root, "trash", log_path=log, trash=lambda p: None
    )  # a trash that does nothing: the file stays, its outcome is 'failed'
    entries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [e["outcome"] for e in entries] == ["intent", "failed"]
    log.write_text(json.dumps(entries[0]) + "\n", encoding="utf-8")  # as if killed before the outcome
    report = undo_last_cleanup(log)
    assert report.restored == [] and report.not_restored == []
    assert undo_last_cleanup(log).run is None and contents(root) == before


# -- undo --------------------------------------------------------------------------------------------------


def test_undo_in_another_time_zone_restores_the_files(tmp_path, trash_home):
    root = tmp_path / "docs"
    before = many_copies(root, groups=2, copies=2)
    log = trash_home / ".local" / "share" / "simdesk" / "actions.jsonl"
    proc = simdesk(
        "clean",
        root,
        "--keep",
        "oldest",
        "-t",
        "3",
        "--db",
        tmp_path / "i.sqlite",
        env=cli_env(trash_home, "America/Los_Angeles"),
    )
    assert proc.returncode == 0, proc.stderr
    assert len(trashed(trash_home)) == 2 and log.exists()
    assert all(json.loads(line)["time"].endswith("+00:00") for line in log.read_text("utf-8").splitlines())
    proc = simdesk("undo", env=cli_env(trash_home, "Asia/Shanghai"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert contents(root) == before and trashed(trash_home) == {}


def test_a_retry_after_a_failed_undo_takes_the_same_cleanup_never_an_older_one(tmp_path, trash_home):
    root = tmp_path / "docs"
    before = many_copies(root, groups=2, copies=2)
    _, _, groups = scanned(root, tmp_path / "i.sqlite")
    log = tmp_path / "actions.jsonl"
    first = [g for g in groups if any(m.path == "g0-0.txt" for m in g.members)]
    second = [g for g in groups if any(m.path == "g1-0.txt" for m in g.members)]
    execute(plan_cleanup(first, keep={"g0-0.txt"}), root, "trash", log_path=log)  # the older clean-up
    execute(plan_cleanup(second, keep={"g1-0.txt"}), root, "trash", log_path=log)  # the last
    (root / "g1-1.txt").write_text("in the way", encoding="utf-8")
    for _ in range(2):  # the failure is retried as often as asked: the older clean-up is never taken instead
        report = undo_last_cleanup(log)
        assert report.restored == [] and [p for p, _ in report.not_restored] == [str(root / "g1-1.txt")]
        assert not (root / "g0-1.txt").exists()
    (root / "g1-1.txt").unlink()
    assert undo_last_cleanup(log).restored == [str(root / "g1-1.txt")]
    assert undo_last_cleanup(log).restored == [str(root / "g0-1.txt")]
    assert undo_last_cleanup(log).run is None and contents(root) == before


def test_bad_log_lines_are_ignored_and_never_block_the_others(tmp_path, trash_home):
    root = tmp_path / "docs"
    before = many_copies(root, groups=1, copies=2)
    _, _, groups = scanned(root, tmp_path / "i.sqlite")
    log = tmp_path / "actions.jsonl"
    execute(plan_cleanup(groups, keep={"g0-0.txt"}), root, "trash", log_path=log)
    victim = tmp_path / "victim.txt"
    victim.write_text("a file outside the folder", encoding="utf-8")
    good = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    bad = [
        {**good, "size": "12"},  # wrong type
        {**good, "path": 7},
        {**good, "path": "../victim.txt", "source": str(victim)},  # outside the folder
        {**good, "run": "tampered", "action": "move", "to": str(victim), "dest": str(tmp_path / "moved")},
        {**good, "root": "relative/root"},
        ["not", "an", "object"],
    ]
    with open(log, "a", encoding="utf-8") as fh:
        fh.write("{cut short by a crash\n")
        for entry in bad:
            fh.write(json.dumps(entry) + "\n")
    report = undo_last_cleanup(log)
    assert report.restored == [str(root / "g0-1.txt")] and report.ignored_lines == 7
    assert "(7 log lines ignored: not valid entries)" in report.summary()
    assert contents(root) == before and victim.read_text(encoding="utf-8") == "a file outside the folder"


def test_undo_with_a_mistyped_log_says_so(tmp_path):
    proc = simdesk("undo", "--log", tmp_path / "no-such.jsonl")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == f"simdesk: error: {tmp_path / 'no-such.jsonl'}: no such action log"


# -- decisions are about the files the editor saw ------------------------------------------------------------


def test_a_copy_that_joined_a_group_after_its_keep_mark_is_undecided_and_never_cleaned(tmp_path, trash_home):
    from simdesk.core.review.review import ReviewSettings, open_review

    root = tmp_path / "docs"
    root.mkdir()
    (root / "report.txt").write_text(POEM, encoding="utf-8")
    (root / "report-copy.txt").write_text(POEM, encoding="utf-8")
    plain = ReviewSettings.from_options(threshold=3, scan=ONE)
    log = tmp_path / "actions.jsonl"
    with Index(tmp_path / "i.sqlite") as index:
        review = open_review(root, index, plain)
        [group] = review.grouping()
        review.decisions.set_keep("report.txt", True, seen=group)  # as the window marks: the group on screen
        review.decisions.save()
        review.decisions.close()
        (root / "report-draft.txt").write_text(POEM, encoding="utf-8")  # a draft appears later
        review = open_review(root, index, plain)  # the keep mark is read back from the index
        [group] = review.grouping()
        assert sorted(m.path for m in group.members) == ["report-copy.txt", "report-draft.txt", "report.txt"]
        plan = review.plan_cleanup()
        assert [r.path for r in plan.removals] == ["report-copy.txt"]
        assert plan.undecided == ((group.id, "report-draft.txt"),)
        report = review.clean_up(plan, "trash", log=log)
        assert report.done == ["report-copy.txt"] and (root / "report-draft.txt").exists()
        review = open_review(root, index, plain)
        [group] = review.grouping()
        review.keep_by_rule(group, "shortest_path")  # the editor decides: now the draft is decided
        assert [r.path for r in review.plan_cleanup().removals] == ["report-draft.txt"]
        review.decisions.close()


def test_a_member_edited_after_the_keep_mark_is_undecided(tmp_path, trash_home):
    from simdesk.core.review.review import ReviewSettings, open_review

    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.txt").write_text(POEM, encoding="utf-8")
    (root / "b.txt").write_text(POEM, encoding="utf-8")
    plain = ReviewSettings.from_options(threshold=12, scan=ONE)
    with Index(tmp_path / "i.sqlite") as index:
        review = open_review(root, index, plain)
        [group] = review.grouping()
        review.keep_by_rule(group, "shortest_path")
        review.decisions.save()
        (root / "b.txt").write_text(POEM + "床前明月光。", encoding="utf-8")  # still a near-duplicate
        review = open_review(root, index, plain)
        [group] = review.grouping()
        plan = review.plan_cleanup()
        assert plan.removals == () and plan.undecided == ((group.id, "b.txt"),)
        review.decisions.close()


def test_cli_clean_leaves_an_undecided_copy_alone_and_says_so(tmp_path, trash_home):
    from simdesk.core.review.review import ReviewSettings, open_review

    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.txt").write_text(POEM, encoding="utf-8")
    (root / "b.txt").write_text(POEM, encoding="utf-8")
    db = tmp_path / "i.sqlite"
    with Index(db) as index:
        review = open_review(root, index, ReviewSettings.from_options(threshold=3, scan=ONE))
        [group] = review.grouping()
        review.decisions.set_keep("a.txt", True, seen=group)
        review.decisions.save()
        review.decisions.close()
    (root / "c.txt").write_text(POEM, encoding="utf-8")
    proc = simdesk(
        "clean",
        root,
        "--keep",
        "oldest",
        "-t",
        "3",
        "--db",
        db,
        "--dry-run",
        "--format",
        "json",
        env=cli_env(trash_home),
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)  # the rule decides every group anew: every copy but one is planned
    assert len(out["planned"]) == 2 and out["undecided"] == []


def test_the_window_never_trashes_a_copy_that_joined_after_the_keep_mark(qtbot, window, tmp_path, trash_home):
    from PySide6.QtCore import Qt

    from tests.gui.test_window import _keep_marks, answer_box, press_on_member
    from tests.gui.window_driver import SCAN_TIMEOUT_MS, open_and_wait, trashed_names

    root = tmp_path / "docs"
    root.mkdir()
    (root / "report.txt").write_text(POEM, encoding="utf-8")
    (root / "report-copy.txt").write_text(POEM, encoding="utf-8")
    open_and_wait(qtbot, window, root)
    press_on_member(qtbot, window, "report.txt", Qt.Key.Key_Space)  # keep: the editor saw both copies
    qtbot.waitUntil(lambda: _keep_marks(window) == {"report.txt"}, timeout=10_000)  # saved in the index
    (root / "report-draft.txt").write_text(POEM, encoding="utf-8")  # a draft saved later
    with qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS):
        window.rescan()
    with qtbot.waitSignal(window.cleanup_done, timeout=20_000) as done:
        window.menus.act_trash.trigger()
        answer_box(qtbot, window, "confirm_cleanup")
    assert done.args[0].done == ["report-copy.txt"] and trashed_names(trash_home) == ["report-copy.txt"]
    assert (root / "report-draft.txt").read_text(encoding="utf-8") == POEM
