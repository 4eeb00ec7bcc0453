"""Driving the window in tests: open a folder and wait for its scan, read the groups it shows, ask the
engine (`simdesk scan`) for its own, look into the temporary trash."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from simdesk.cli import main as cli_main
from simdesk.gui.groups_model import MemberRole

SCAN_TIMEOUT_MS = 60_000


def open_and_wait(qtbot, window, folder: Path) -> None:
    """Open a folder in the window and wait until its scan has finished and the groups are shown."""
    with qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS):
        window.open_folder(folder)


def trashed_names(home: Path) -> list[str]:
    files = home / ".local" / "share" / "Trash" / "files"
    return sorted(p.name for p in files.iterdir()) if files.exists() else []


def shown_groups(window) -> list[frozenset[str]]:
    """The groups as the view shows them: each group row's member paths."""
    model = window.groups_model
    out = []
    for r in range(model.rowCount()):
        parent = model.index(r, 0)
        out.append(frozenset(model.index(k, 0, parent).data(MemberRole).path for k in range(model.rowCount(parent))))
    return out


def engine_groups(folder: Path, threshold: int | None, db: Path) -> dict:
    """`simdesk scan --format json` on the same folder (its own index file); without a threshold, the
    engine's default mode."""
    limit = [] if threshold is None else ["--threshold", str(threshold)]
    result = CliRunner().invoke(cli_main, ["scan", str(folder), *limit, "--format", "json", "--db", str(db),
                                           "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def as_sets(doc: dict) -> list[frozenset[str]]:
    return [frozenset(m["path"] for m in g["members"]) for g in doc["groups"]]


def group_index_containing(window, path: str):
    """The group row whose members include `path` (fails the test when none does)."""
    model = window.groups_model
    for r in range(model.rowCount()):
        parent = model.index(r, 0)
        for k in range(model.rowCount(parent)):
            idx = model.index(k, 0, parent)
            if idx.data(MemberRole).path == path:
                return parent
    raise AssertionError(f"{path} is in no group")


def member_index(window, path: str):
    """The member row showing `path`."""
    parent = group_index_containing(window, path)
    model = window.groups_model
    return next(model.index(k, 0, parent) for k in range(model.rowCount(parent))
                if model.index(k, 0, parent).data(MemberRole).path == path)
