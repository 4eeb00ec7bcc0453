"""Driving the window in tests: open a folder and wait for its scan, look into the temporary trash."""
from __future__ import annotations

from pathlib import Path

SCAN_TIMEOUT_MS = 60_000


def open_and_wait(qtbot, window, folder: Path) -> None:
    """Open a folder in the window and wait until its scan has finished and the groups are shown."""
    with qtbot.waitSignal(window.review_ready, timeout=SCAN_TIMEOUT_MS):
        window.open_folder(folder)


def trashed_names(home: Path) -> list[str]:
    files = home / ".local" / "share" / "Trash" / "files"
    return sorted(p.name for p in files.iterdir()) if files.exists() else []
