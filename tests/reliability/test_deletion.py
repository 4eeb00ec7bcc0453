"""Deletion safety. Files go only to the system trash; nothing changed since the scan is
trashed; never the last copy of a group unless the editor confirms exactly that; every action is logged
with what undo needs; "Undo last clean-up" (core, CLI, window) puts the files back from the freedesktop trash,
never over a file that is at the original place again. Real trash under a temporary HOME."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from PySide6.QtWidgets import QMessageBox

from simdesk.core.cleanup.plan import execute, plan_cleanup
from simdesk.core.cleanup.undo import can_undo_cleanup, undo_last_cleanup
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.groups import grouper_for
from simdesk.core.records import ScanOptions
from tests.reliability.conftest import simdesk
from tests.reliability.corpus import ARTICLE, POEM

OTHER = "千山鸟飞绝，万径人踪灭。孤舟蓑笠翁，独钓寒江雪。" * 8


@pytest.fixture
def folder(tmp_path) -> Path:
    root = tmp_path / "docs"
    (root / "copies").mkdir(parents=True)
    (root / "a.txt").write_text(ARTICLE * 3, encoding="utf-8")
    (root / "copies" / "a-copy.txt").write_text(ARTICLE * 3, encoding="utf-8")
    (root / "copies" / "a-gbk.txt").write_bytes((ARTICLE * 3).encode("gb18030"))
    (root / "poem.txt").write_text(POEM * 8, encoding="utf-8")
    (root / "poem-again.txt").write_text(POEM * 8, encoding="utf-8")
    (root / "other.txt").write_text(OTHER, encoding="utf-8")
    return root


def groups(root: Path, tmp_path: Path):
    with Index(tmp_path / "index.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        return list(grouper_for(index).at(3))


def trash_dir(home: Path) -> Path:
    return home / ".local" / "share" / "Trash"


def log_entries(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_files_go_to_the_freedesktop_trash_with_their_place_recorded(folder, tmp_path, trash_home):
    plan = plan_cleanup(groups(folder, tmp_path), keep={"a.txt", "poem.txt"})
    report = execute(plan, folder, "trash", log_path=tmp_path / "actions.jsonl")
    assert sorted(report.done) == ["copies/a-copy.txt", "copies/a-gbk.txt", "poem-again.txt"]
    files = sorted(p.name for p in (trash_dir(trash_home) / "files").iterdir())
    assert files == ["a-copy.txt", "a-gbk.txt", "poem-again.txt"]
    info = (trash_dir(trash_home) / "info" / "a-copy.txt.trashinfo").read_text()
    assert f"Path={quote(str(folder / 'copies' / 'a-copy.txt'))}" in info.splitlines()
    assert (trash_dir(trash_home) / "files" / "a-gbk.txt").read_bytes() == (ARTICLE * 3).encode("gb18030")


@pytest.mark.parametrize("change", ["size", "mtime", "content, same size and time"])
def test_a_file_changed_since_the_scan_is_never_trashed(folder, tmp_path, trash_home, change):
    plan = plan_cleanup(groups(folder, tmp_path), keep={"a.txt"})
    target = folder / "copies" / "a-copy.txt"
    st = target.stat()
    if change == "size":
        target.write_text(ARTICLE * 3 + "补充", encoding="utf-8")
    elif change == "mtime":
        os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    else:
        data = bytearray(target.read_bytes())
        data[0:3] = "远".encode()  # one character for another, same byte length
        target.write_bytes(bytes(data))
        os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
    log = tmp_path / "actions.jsonl"
    report = execute(plan, folder, "trash", log_path=log)
    assert report.done == ["copies/a-gbk.txt"] and target.exists()
    [(path, why)] = report.skipped
    assert path == "copies/a-copy.txt" and "changed since the scan" in why
    assert ("content differs" in why) == (change == "content, same size and time")
    assert {e["path"]: e["outcome"] for e in log_entries(log) if e["outcome"] != "intent"} == {
        "copies/a-copy.txt": "skipped",
        "copies/a-gbk.txt": "done",
    }


def test_the_last_copy_goes_only_when_the_editor_confirms_that_case(folder, tmp_path, trash_home):
    found = groups(folder, tmp_path)
    poems = next(g for g in found if {m.path for m in g.members} == {"poem.txt", "poem-again.txt"})
    every = {"poem.txt", "poem-again.txt"}
    refused = plan_cleanup(found, keep=set(), queued=every)
    assert refused.files == 0 and [r.group_id for r in refused.refusals] == [poems.id]
    assert execute(refused, folder, "trash").done == []
    confirmed = plan_cleanup(found, keep=set(), queued=every, allow_last_copy=True)
    assert sorted(r.path for r in confirmed.removals) == sorted(every) and not confirmed.refusals
    report = execute(confirmed, folder, "trash")
    assert sorted(report.done) == sorted(every)


def test_a_group_whose_kept_copy_vanished_is_refused_unless_confirmed(folder, tmp_path, trash_home):
    found = groups(folder, tmp_path)
    (folder / "poem.txt").unlink()  # the kept copy is gone before the clean-up runs
    report = execute(plan_cleanup(found, keep={"poem.txt"}), folder, "trash")
    assert report.done == [] and report.refused_groups and (folder / "poem-again.txt").exists()
    report = execute(plan_cleanup(found, keep={"poem.txt"}, allow_last_copy=True), folder, "trash")
    assert report.done == ["poem-again.txt"]


def test_every_action_is_logged_with_what_undo_needs(folder, tmp_path, trash_home):
    plan = plan_cleanup(groups(folder, tmp_path), keep={"a.txt", "poem.txt"})
    (folder / "poem-again.txt").write_text("edited", encoding="utf-8")
    log = tmp_path / "actions.jsonl"
    execute(plan, folder, "trash", log_path=log)
    entries = log_entries(log)
    assert len({e["run"] for e in entries}) == 1
    intents = [e["path"] for e in entries if e["outcome"] == "intent"]  # written ahead of each move
    entries = [e for e in entries if e["outcome"] != "intent"]
    assert len(entries) == 3 and sorted(intents) == sorted(e["path"] for e in entries if e["outcome"] == "done")
    for e in entries:
        assert {"time", "at", "action", "root", "path", "size", "mtime_ns", "content_hash", "outcome", "run"} <= set(e)
    done = [e for e in entries if e["outcome"] == "done"]
    assert all(e["source"] == str(folder / e["path"]) for e in done) and len(done) == 2
    assert [e["reason"] for e in entries if e["outcome"] == "skipped"][0].startswith("changed since the scan")


def trash_some(folder: Path, tmp_path: Path, keep: set[str], log: Path):
    plan = plan_cleanup(groups(folder, tmp_path), keep=keep)
    return execute(plan, folder, "trash", log_path=log)


def test_undo_restores_the_last_cleanup_exactly(folder, tmp_path, trash_home):
    log = tmp_path / "actions.jsonl"
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.rglob("*.txt")}
    trash_some(folder, tmp_path, {"poem.txt"}, log)  # the first clean-up: poem-again.txt
    report = trash_some(folder, tmp_path, {"a.txt"}, log)  # the last: the two copies of a.txt
    assert sorted(report.done) == ["copies/a-copy.txt", "copies/a-gbk.txt"]
    undone = undo_last_cleanup(log)
    assert sorted(undone.restored) == [str(folder / "copies" / "a-copy.txt"), str(folder / "copies" / "a-gbk.txt")]
    assert undone.not_restored == [] and undone.summary() == "2 files restored"
    assert not (folder / "poem-again.txt").exists()  # the earlier clean-up is not touched
    assert sorted(p.name for p in (trash_dir(trash_home) / "info").iterdir()) == ["poem-again.txt.trashinfo"]
    undone = undo_last_cleanup(log)  # the next undo takes the clean-up before
    assert undone.restored == [str(folder / "poem-again.txt")]
    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.rglob("*.txt")}
    assert after == before  # same bytes, same modification times
    assert list((trash_dir(trash_home) / "files").iterdir()) == []
    assert undo_last_cleanup(log).run is None  # nothing left to undo
    assert {e["outcome"] for e in log_entries(log) if e["action"] == "undo"} == {"restored"}


def test_can_undo_cleanup_says_whether_undo_has_a_clean_up_to_put_back(folder, tmp_path, trash_home):
    log = tmp_path / "actions.jsonl"
    assert not can_undo_cleanup(log)  # no log yet
    trash_some(folder, tmp_path, {"poem.txt"}, log)
    trash_some(folder, tmp_path, {"a.txt"}, log)
    assert can_undo_cleanup(log)
    assert len(undo_last_cleanup(log).restored) == 2
    assert can_undo_cleanup(log)  # the clean-up before is still there
    for p in (trash_dir(trash_home) / "files").iterdir():  # the editor emptied the trash
        p.unlink()
    assert can_undo_cleanup(log)  # only an undo finds out the file is gone, and says so
    assert [p for p, _ in undo_last_cleanup(log).not_restored] == [str(folder / "poem-again.txt")]
    assert not can_undo_cleanup(log) and undo_last_cleanup(log).run is None


def test_a_tampered_or_unreadable_action_log_has_no_clean_up_to_undo(folder, tmp_path, trash_home):
    log = tmp_path / "actions.jsonl"
    trash_some(folder, tmp_path, {"poem.txt"}, log)
    entries = log_entries(log)
    outside = {**entries[-1], "root": "relative/place", "source": "/etc/passwd"}
    tampered = tmp_path / "tampered.jsonl"
    lines = [b"\xff\xfe not json", b"[1, 2]", b'{"action": "trash"}', json.dumps(outside).encode()]
    tampered.write_bytes(b"\n".join(lines) + b"\n")
    assert not can_undo_cleanup(tampered)
    assert undo_last_cleanup(tampered).run is None  # what undo would do agrees
    cut = tmp_path / "cut.jsonl"  # the last line cut short: the lines before still count
    cut.write_bytes(log.read_bytes()[:-20])
    assert can_undo_cleanup(cut)
    a_folder = tmp_path / "folder.jsonl"
    a_folder.mkdir()
    assert not can_undo_cleanup(a_folder)


def test_undo_never_overwrites_a_file_now_at_the_original_place(folder, tmp_path, trash_home):
    log = tmp_path / "actions.jsonl"
    trash_some(folder, tmp_path, {"a.txt"}, log)
    (folder / "copies" / "a-copy.txt").write_text("a new file the editor wrote since", encoding="utf-8")
    undone = undo_last_cleanup(log)
    assert undone.restored == [str(folder / "copies" / "a-gbk.txt")]
    [(path, why)] = undone.not_restored
    assert path == str(folder / "copies" / "a-copy.txt") and "left as it is" in why
    assert (folder / "copies" / "a-copy.txt").read_text(encoding="utf-8") == "a new file the editor wrote since"
    assert [p.name for p in (trash_dir(trash_home) / "files").iterdir()] == ["a-copy.txt"]  # still in the trash


def test_undo_reports_files_no_longer_in_the_trash(folder, tmp_path, trash_home):
    log = tmp_path / "actions.jsonl"
    trash_some(folder, tmp_path, {"poem.txt"}, log)
    for p in (trash_dir(trash_home) / "files").iterdir():  # the editor emptied the trash
        p.unlink()
    undone = undo_last_cleanup(log)
    assert undone.restored == [] and "not in the trash any more" in undone.not_restored[0][1]


def test_undo_picks_the_right_copy_when_a_path_was_trashed_twice(folder, tmp_path, trash_home):
    log = tmp_path / "actions.jsonl"
    trash_some(folder, tmp_path, {"poem.txt"}, log)  # poem-again.txt, first version
    (folder / "poem-again.txt").write_text(POEM * 8 + "第二版", encoding="utf-8")
    time.sleep(1.1)  # trash entries are dated to the second
    report = trash_some(folder, tmp_path, {"poem.txt"}, log)  # and its second version
    assert report.done == ["poem-again.txt"]
    assert undo_last_cleanup(log).restored == [str(folder / "poem-again.txt")]
    assert (folder / "poem-again.txt").read_text(encoding="utf-8").endswith("第二版")
    assert [p.name for p in (trash_dir(trash_home) / "files").iterdir()] == ["poem-again.txt"]


def test_undo_of_a_move_puts_the_files_back(folder, tmp_path):
    log = tmp_path / "actions.jsonl"
    plan = plan_cleanup(groups(folder, tmp_path), keep={"a.txt"})
    execute(plan, folder, "move", dest=tmp_path / "moved", log_path=log)
    assert not (folder / "copies" / "a-copy.txt").exists()
    assert len(undo_last_cleanup(log).restored) == 2
    assert (folder / "copies" / "a-copy.txt").exists() and not (tmp_path / "moved" / "copies" / "a-copy.txt").exists()


def test_cli_undo_reports_what_was_and_was_not_restored(folder, tmp_path, trash_home):
    log = tmp_path / "actions.jsonl"
    trash_some(folder, tmp_path, {"a.txt"}, log)
    (folder / "copies" / "a-gbk.txt").write_text("in the way", encoding="utf-8")
    proc = simdesk("undo", "--log", log)
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == [
        f"restored  {folder / 'copies' / 'a-copy.txt'}",
        f"not restored  {folder / 'copies' / 'a-gbk.txt'}: a file is at its place again; left as it is "
        "(the removed copy was not touched)",
    ]
    assert proc.stderr.strip() == "simdesk: 1 files restored, 1 not restored"
    (folder / "copies" / "a-gbk.txt").unlink()  # the obstacle moved away: a retry restores the same clean-up
    proc = simdesk("undo", "--log", log, "--format", "json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["restored"] == [str(folder / "copies" / "a-gbk.txt")]
    proc = simdesk("undo", "--log", log, "--format", "json")  # every file is back: nothing left
    assert proc.returncode == 0 and json.loads(proc.stdout)["run"] is None
    assert "nothing to undo" in proc.stderr


def test_cli_undo_uses_the_windows_log_by_default(folder, tmp_path, trash_home):
    data = trash_home / ".local" / "share" / "simdesk"
    trash_some(folder, tmp_path, {"poem.txt"}, data / "actions.jsonl")
    proc = simdesk("undo")
    assert proc.returncode == 0 and proc.stdout.strip() == f"restored  {folder / 'poem-again.txt'}"


def test_the_window_undoes_its_last_cleanup(qtbot, window, folder, trash_home, data_dir):
    from PySide6.QtCore import Qt

    from tests.gui.test_window import answer_box, press_on_member
    from tests.gui.window_driver import open_and_wait, trashed_names

    open_and_wait(qtbot, window, folder)
    press_on_member(qtbot, window, "a.txt", Qt.Key.Key_Space)  # keep, as the editor marks it
    with qtbot.waitSignal(window.cleanup_done, timeout=20_000):
        window.menus.act_trash.trigger()
        answer_box(qtbot, window, "confirm_cleanup")
    answer_box(qtbot, window, "cleanup_report", QMessageBox.StandardButton.Ok)
    assert trashed_names(trash_home) == ["a-copy.txt", "a-gbk.txt"]
    assert window.menus.act_undo in window.menus.menu_review.actions()
    with qtbot.waitSignal(window.undo_done, timeout=20_000) as done:
        window.menus.act_undo.trigger()
    assert len(done.args[0].restored) == 2
    text = answer_box(qtbot, window, "undo_report", QMessageBox.StandardButton.Ok)
    assert text == "2 files restored, 0 not restored."
    assert trashed_names(trash_home) == [] and (folder / "copies" / "a-copy.txt").exists()
    assert [e["action"] for e in log_entries(data_dir / "actions.jsonl")].count("undo") == 2
