"""The `simdesk` command starts the fork server of a scan's worker processes before it loads the engine when
the scan will read its files in them (a first scan of a folder with enough files), so that the server loads
the engine on the other core meanwhile; `--jobs 1`, a small folder, a rescan and a command that scans nothing
start none then. Each command runs in a process of its own (the test session's fork server is running),
driven by a script that looks, as the engine's first module (numpy) is imported, at which of its children
are fork servers; and no process the command started outlives it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from simdesk.core.index.pooling import IN_PROCESS_BELOW
from simdesk.core.parent_watch import PARENT_ENV
from tests.core.test_worker_server import texts

REPO = Path(__file__).resolve().parents[1]
COMMAND_WATCHED = """
import json
import sys
import psutil

def fork_servers():
    return sum("multiprocessing.forkserver" in " ".join(c.cmdline()) for c in psutil.Process().children())

at_engine = []

def on_import(event, args):
    if event == "import" and args[0] == "numpy" and not at_engine:
        at_engine.append(None)  # first: psutil's own imports call back here
        at_engine[0] = fork_servers()

sys.addaudithook(on_import)
from simdesk.cli import main

main(sys.argv[1:], standalone_mode=False)
print(json.dumps({"at_engine": at_engine[0], "at_end": fork_servers()}), file=sys.stderr)
"""

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server is Linux's")


def watched(*args: object, home: Path) -> tuple[str, dict[str, int]]:
    """(what the command wrote on stdout, its fork servers as the engine began to load and at its end) of
    `simdesk ARGS` run in a process of its own; every process it started has ended once this returns."""
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data")}
    with subprocess.Popen(
        [sys.executable, "-c", COMMAND_WATCHED, *map(str, args)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as command:
        out, err = command.communicate(timeout=300)
    assert command.returncode == 0, err
    assert left_behind(command.pid) == []
    return out, json.loads(err.strip().splitlines()[-1])


def left_behind(pid: int) -> list[psutil.Process]:
    """The processes started for a scanning process `pid` (its fork server, workers, resource tracker: they
    carry its id in their environment) still running once it has ended; each is given 30 s to end (they
    are killed as it ends, parent_watch), so a slow machine is not taken for a leak."""
    started = []
    for p in psutil.process_iter():
        try:
            if p.environ().get(PARENT_ENV) == str(pid):
                started.append(p)
        except (psutil.AccessDenied, psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
    _, alive = psutil.wait_procs(started, timeout=30)
    return alive


def test_a_first_scan_starts_the_fork_server_before_the_engine_loads_and_reports_as_one_process(tmp_path):
    root = texts(tmp_path / "docs", IN_PROCESS_BELOW + 6)
    pooled, servers = watched(
        "scan", root, "--db", tmp_path / "a.sqlite", "--jobs", "2", "--format", "json", home=tmp_path
    )
    assert servers == {"at_engine": 1, "at_end": 1}
    alone, servers = watched(
        "scan", root, "--db", tmp_path / "b.sqlite", "--jobs", "1", "--format", "json", home=tmp_path
    )
    assert servers == {"at_engine": 0, "at_end": 0}
    assert json.loads(pooled)["documents"] == IN_PROCESS_BELOW + 6
    assert pooled == alone


def test_a_rescan_leaves_the_fork_server_to_the_scan_which_starts_none_when_nothing_changed(tmp_path):
    root = texts(tmp_path / "docs", IN_PROCESS_BELOW + 6)
    first, _ = watched("scan", root, "--db", tmp_path / "i.sqlite", "--jobs", "2", "--format", "json", home=tmp_path)
    again, servers = watched(
        "scan", root, "--db", tmp_path / "i.sqlite", "--jobs", "2", "--format", "json", home=tmp_path
    )
    assert servers == {"at_engine": 0, "at_end": 0}
    assert again == first


def test_a_small_folder_and_a_command_that_scans_nothing_start_no_fork_server(tmp_path):
    root = texts(tmp_path / "docs", IN_PROCESS_BELOW - 14)
    out, servers = watched(
        "scan", root, "--db", tmp_path / "i.sqlite", "--jobs", "2", "--format", "json", home=tmp_path
    )
    assert servers == {"at_engine": 0, "at_end": 0}
    assert json.loads(out)["documents"] == IN_PROCESS_BELOW - 14
    log = tmp_path / "actions.jsonl"
    log.write_text("", encoding="utf-8")
    _, servers = watched("undo", "--log", log, home=tmp_path)
    assert servers == {"at_engine": 0, "at_end": 0}


def test_the_default_index_of_a_folder_is_the_one_looked_for(tmp_path):
    """With no --db the index in the data folder decides: a first scan starts the server early, the rescan
    does not."""
    root = texts(tmp_path / "docs", IN_PROCESS_BELOW + 6)
    _, servers = watched("scan", root, "--jobs", "2", home=tmp_path)
    assert servers == {"at_engine": 1, "at_end": 1}
    _, servers = watched("scan", root, "--jobs", "2", home=tmp_path)
    assert servers == {"at_engine": 0, "at_end": 0}
