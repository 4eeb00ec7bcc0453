"""Driving the window in tests: open a folder and wait for its scan, read the groups it shows, ask the
engine (`simdesk scan`) for its own, look into the temporary trash."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from PySide6.QtGui import QColor, QPalette

from simdesk.cli import main as cli_main

SCAN_TIMEOUT_MS = 60_000


def open_and_wait(qtbot, window, folder: Path) -> None:
    """Open a folder in the window and wait until its scan has finished and the groups are shown."""
    with qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS):
        window.open_folder(folder)


def trashed_names(home: Path) -> list[str]:
    files = home / ".local" / "share" / "Trash" / "files"
    return sorted(p.name for p in files.iterdir()) if files.exists() else []


def shown_groups(window) -> list[frozenset[str]]:
    """The groups as the list shows them, in its order: each group row's member paths."""
    model = window.groups_model
    return [frozenset(m.path for m in model.group(model.index(r, 0)).members) for r in range(model.rowCount())]


def engine_groups(folder: Path, threshold: int | None, db: Path) -> dict:
    """`simdesk scan --format json` on the same folder (its own index file); without a threshold, the
    engine's default mode."""
    limit = [] if threshold is None else ["--threshold", str(threshold)]
    result = CliRunner().invoke(
        cli_main, ["scan", str(folder), *limit, "--format", "json", "--db", str(db), "--jobs", "1"]
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def as_sets(doc: dict) -> list[frozenset[str]]:
    return [frozenset(m["path"] for m in g["members"]) for g in doc["groups"]]


def group_index_containing(window, path: str):
    """The groups list's row whose group holds `path` (fails the test when none does)."""
    row = window.groups_model.row_of_path(path)
    assert row >= 0, f"{path} is in no group"
    return window.groups_model.index(row, 0)


def member_index(window, path: str):
    """The members list's row showing `path`, its group made the current one (as a click on it does)."""
    idx = window.selection.member_index(path)
    assert idx.isValid(), f"{path} is in no group"
    return idx


def dark_palette() -> QPalette:
    """A dark theme's palette: light text on dark backgrounds."""
    p = QPalette()
    for role, colour in (
        (QPalette.ColorRole.Window, "#2b2b2b"),
        (QPalette.ColorRole.Base, "#1e1e1e"),
        (QPalette.ColorRole.Text, "#e6e6e6"),
        (QPalette.ColorRole.WindowText, "#e6e6e6"),
        (QPalette.ColorRole.Button, "#353535"),
        (QPalette.ColorRole.ButtonText, "#e6e6e6"),
    ):
        p.setColor(role, QColor(colour))
    return p
