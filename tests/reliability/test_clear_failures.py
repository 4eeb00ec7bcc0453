"""One clear line, never a traceback: each way the command can fail ends with `simdesk: error: ...` (or
click's usage message for a bad option) and a documented exit code (README: 0 done, 1 done with failures or
output lost, 2 refused). The real command in a subprocess."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.folders import OTHER, POEM
from tests.reliability.conftest import REPO, as_dropped_user, scan_args, simdesk, simdesk_argv


def no_traceback(proc: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr, proc.stderr


@pytest.fixture
def folder(tmp_path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "poem.txt").write_text(POEM, encoding="utf-8")
    (root / "poem-copy.txt").write_text(POEM, encoding="utf-8")
    (root / "snow.txt").write_text(OTHER, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    "option,value",
    [
        ("--max-size", "nan"),
        ("--max-size", "inf"),
        ("--max-size", "0"),
        ("--max-size", "-1"),
        ("--similarity", "nan"),
        ("--similarity", "1.5"),
    ],
)
def test_numbers_are_parsed_strictly(folder, tmp_path, option, value):
    proc = simdesk("scan", folder, option, value, "--db", tmp_path / "i.sqlite")
    no_traceback(proc)
    assert proc.returncode == 2 and f"Invalid value for '{option}'" in proc.stderr
    assert not (tmp_path / "i.sqlite").exists()  # refused before anything was done


def test_a_folder_whose_path_is_not_utf8_is_scanned(tmp_path):
    root = os.path.join(os.fsencode(tmp_path), b"caf\xe9-docs")  # Latin-1 bytes, as an old archive has them
    os.mkdir(root)
    for name, text in ((b"a.txt", POEM), (b"b.txt", POEM)):
        with open(os.path.join(root, name), "w", encoding="utf-8") as fh:
            fh.write(text)
    proc = subprocess.run(
        simdesk_argv(*scan_args(root, tmp_path / "i.sqlite", "--format", "json")),
        cwd=REPO,
        capture_output=True,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert b'"a.txt"' in proc.stdout and b'"b.txt"' in proc.stdout


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_stdout_on_a_full_device_is_one_line(folder, tmp_path):
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            simdesk_argv(*scan_args(folder, tmp_path / "i.sqlite")),
            cwd=REPO,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    no_traceback(proc)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-1] == "simdesk: error: the output could not be written (No space left on device)"


def test_a_command_that_ends_at_once_leaves_its_whole_output_and_index(folder, tmp_path):
    """A headless command ends its process at once when it is done (cli.leave_at_once): its report, held in
    stdout's buffer until then, arrives whole; its index is whole and commits what a second run finds
    unchanged; the scan's scratch folder is gone; the command's status is kept (2 for a refusal)."""
    first = simdesk(*scan_args(folder, tmp_path / "i.sqlite", "--format", "json"))
    no_traceback(first)
    assert first.returncode == 0 and first.stdout.endswith("\n")
    groups = json.loads(first.stdout)["groups"]
    assert [sorted(m["path"] for m in g["members"]) for g in groups] == [["poem-copy.txt", "poem.txt"]]
    with sqlite3.connect(tmp_path / "i.sqlite") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    again = simdesk(*scan_args(folder, tmp_path / "i.sqlite", "--format", "json"))
    assert again.returncode == 0 and json.loads(again.stdout)["groups"] == groups
    assert "3 unchanged" in again.stderr
    assert not list(tmp_path.rglob("simdesk-scan-texts-*"))
    refused = simdesk("scan", tmp_path / "nowhere", "--db", tmp_path / "j.sqlite")
    assert refused.returncode == 2 and refused.stderr.strip().endswith("no such folder")


@pytest.mark.parametrize("unbuffered", ["1", ""])
def test_a_report_to_a_closed_pipe_ends_quietly_with_status_1(folder, tmp_path, unbuffered):
    """stdout a pipe whose reader has gone (`simdesk scan ... | head` once head ended), the report written as
    it is made (PYTHONUNBUFFERED) or held in stdout's buffer to the end: status 1, nothing on stderr but the
    scan's counts, no traceback."""
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run(
            simdesk_argv(*scan_args(folder, tmp_path / "i.sqlite", "--format", "json")),
            cwd=REPO,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
            env={**os.environ, "PYTHONUNBUFFERED": unbuffered},
        )
    finally:
        os.close(write)
    no_traceback(proc)
    assert proc.returncode == 1
    assert [line for line in proc.stderr.splitlines() if not line.startswith("scanned ")] == []


def test_a_screenshot_to_an_unwritable_place_is_refused_at_once(folder, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    proc = simdesk("gui", folder, "--screenshot", blocker / "shot.png", timeout=60)
    no_traceback(proc)
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith(f"simdesk: error: {blocker / 'shot.png'}: cannot be written (")


def test_a_read_only_folder_is_scanned_and_its_clean_up_fails_per_file(folder, tmp_path, trash_home, shared_tmp):
    """As an unprivileged user: the folder is read, nothing can leave it; each file says why, no traceback."""
    root = shared_tmp / "ro"
    root.mkdir()
    for p in folder.iterdir():
        (root / p.name).write_bytes(p.read_bytes())
    home = shared_tmp / "home"
    (home / ".local" / "share").mkdir(parents=True)
    subprocess.run(["chmod", "-R", "a+rwX", str(home)], check=True)
    root.chmod(0o555)
    env = os.environ.copy()
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / ".local" / "share"))
    as_user = as_dropped_user(env)
    proc = subprocess.run(
        [*as_user, *simdesk_argv("clean", root, "--keep", "oldest", "-t", 3)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    no_traceback(proc)
    assert proc.returncode == 1, proc.stderr
    assert sorted(p.name for p in root.iterdir()) == ["poem-copy.txt", "poem.txt", "snow.txt"]
    assert any(line.startswith("failed  ") for line in proc.stdout.splitlines()), proc.stdout
    trash = home / ".local" / "share" / "Trash"
    left = [p.name for sub in ("info", "files") if (trash / sub).is_dir() for p in (trash / sub).iterdir()]
    assert left == []  # a failed move leaves no orphan .trashinfo behind


def test_a_clean_up_whose_action_log_cannot_be_written_moves_nothing(folder, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should be", encoding="utf-8")
    env = os.environ.copy()
    env["XDG_DATA_HOME"] = str(blocker)  # the action log's folder cannot be made
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "simdesk",
            "clean",
            str(folder),
            "--keep",
            "oldest",
            "-t",
            "3",
            "--db",
            str(tmp_path / "i.sqlite"),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        env=env,
    )
    no_traceback(proc)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1].startswith("simdesk: error: ") and "nothing was moved" in proc.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["poem-copy.txt", "poem.txt", "snow.txt"]
