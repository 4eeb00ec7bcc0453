"""Fixtures for the reliability suite: the real `simdesk` command in a subprocess, a child process that
drops root's privileges (so permission bits count), and the window's fixtures for the GUI checks."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.gui.conftest import data_dir, settings, window  # noqa: F401  (the window's fixtures; trash_home is in tests/conftest.py)

REPO = Path(__file__).resolve().parents[2]
NOBODY = 65534


def simdesk_argv(*args: object) -> list[str | bytes]:
    """The real command's argv, `python -m simdesk ARGS` (each as text; a path given as bytes, one not valid
    UTF-8, as it is), for subprocess.run or Popen."""
    return [sys.executable, "-m", "simdesk", *(a if isinstance(a, bytes) else str(a) for a in args)]


def scan_args(folder: Path | bytes, db: Path, *extra: object) -> list[object]:
    """`scan FOLDER --threshold 3 --db DB EXTRA...`: the scan the reliability tests run (simdesk_argv's or
    simdesk's arguments)."""
    return ["scan", folder, "--threshold", 3, "--db", db, *extra]


def apply_args(bundle: Path, decisions: Path, move_to: Path, log: Path) -> list[object]:
    """`cluster-apply BUNDLE --decisions D --move-to M --log L` (simdesk_argv's or simdesk's arguments)."""
    return ["cluster-apply", bundle, "--decisions", decisions, "--move-to", move_to, "--log", log]


def simdesk(*args: object, timeout: float = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the real command (`python -m simdesk ...`) to completion; stdout and stderr as text."""
    return subprocess.run(
        simdesk_argv(*args),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env or os.environ.copy(),
    )


def scan_json(folder: Path, db: Path, *extra: object) -> tuple[dict, subprocess.CompletedProcess]:
    """`simdesk scan FOLDER --threshold 3 --format json --db DB` in a subprocess: (parsed JSON, process)."""
    proc = simdesk(*scan_args(folder, db, "--format", "json", *extra))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout), proc


def as_dropped_user(env: dict) -> list[str]:
    """The command prefix that runs a command as user `nobody` (as root, permission bits are not enforced;
    [] when not root). Skips the test, saying why, when setpriv is missing or when `nobody` cannot run
    simdesk from this clone (a checkout under a private folder, a virtual environment it cannot read)."""
    if os.getuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv is needed to drop root's privileges")
    prefix = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    probe = subprocess.run(
        [*prefix, *simdesk_argv("--version")],
        cwd=REPO,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["exit code %d" % probe.returncode])[-1]  # noqa: UP031
        pytest.skip(
            f"user nobody cannot run simdesk from this clone ({last[:160]}): the test needs a checkout "
            "and a Python environment that other users can read"
        )
    return prefix


@pytest.fixture
def shared_tmp() -> Path:
    """A temporary folder that an unprivileged user can enter (pytest's tmp_path is root-only)."""
    path = Path(tempfile.mkdtemp(prefix="simdesk-reliability-"))
    path.chmod(0o755)
    yield path
    subprocess.run(["chmod", "-R", "u+rwx", str(path)], check=False)
    subprocess.run(["rm", "-rf", str(path)], check=False)


def run_unprivileged(fn: Callable[[], object], timeout: float = 120) -> object:
    """Run `fn` in a forked child as user `nobody` (as root, permission bits are not enforced) and return
    its JSON-able result. The interpreter cannot import from root's folders after the drop, so whatever
    `fn` needs must be imported (and warmed up) before calling this."""
    if os.getuid() != 0:
        return fn()
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)

    def target() -> None:
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            child.send(json.dumps({"ok": fn()}))
        except BaseException:  # noqa: BLE001  the parent reports it
            child.send(json.dumps({"error": traceback.format_exc()}))

    proc = ctx.Process(target=target)
    proc.start()
    if not parent.poll(timeout):
        proc.kill()
        raise TimeoutError("the unprivileged child did not answer")
    answer = json.loads(parent.recv())
    proc.join(10)
    if "error" in answer:
        raise AssertionError("in the unprivileged child:\n" + answer["error"])
    return answer["ok"]
