"""Where simdesk keeps its own files: the user's data folder, each scanned folder's index, the action log.

The scanned folder itself is never written to. Every caller (the command line, the window, tests, bench)
asks here, so moving a file means changing one line.

    index_path(Path("articles"))      # ~/.local/share/simdesk/indexes/articles-<hash>.sqlite on Linux
    action_log()                      # ~/.local/share/simdesk/actions.jsonl
"""

from __future__ import annotations

import hashlib
from pathlib import Path

APP_NAME = "simdesk"
ACTION_LOG_NAME = "actions.jsonl"
INDEXES_FOLDER = "indexes"
DEMO_FOLDER = "demo"


def data_dir() -> Path:
    """The user's data folder for simdesk (platformdirs: $XDG_DATA_HOME/simdesk on Linux), read each call
    so that a test's temporary HOME is honoured."""
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def index_path(root: Path | str, data: Path | None = None) -> Path:
    """Where the index of `root` lives when no index file is given: in the data folder (never in `root`),
    named after the folder and a hash of its resolved path, so two folders of one name never share one."""
    resolved = str(Path(root).resolve())
    digest = hashlib.sha1(resolved.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    name = "".join(c if c.isalnum() else "_" for c in Path(resolved).name)[:40] or "root"
    return (data if data is not None else data_dir()) / INDEXES_FOLDER / f"{name}-{digest}.sqlite"


def action_log(data: Path | None = None) -> Path:
    """The JSON-lines log every clean-up appends to and `undo` reads (one per user, shared by the window
    and the command line)."""
    return (data if data is not None else data_dir()) / ACTION_LOG_NAME


def demo_dir(data: Path | None = None) -> Path:
    """Where the built-in demo collection is written."""
    return (data if data is not None else data_dir()) / DEMO_FOLDER
