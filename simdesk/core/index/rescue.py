"""A damaged index rebuilt without losing the editor's decisions that can still be read: what the damaged file
still yields (keep marks, queued copies, 'not duplicates' pairs, each read on its own so one damaged table
does not cost the others) is carried over into a new index, and the damaged file is kept beside it.

    rescue = readable_decisions(path)      # what would carry over, for the editor to see first
    print(rescue.summary())
    rebuild_index(path)                   # the damaged file moved aside, a new index with those decisions
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from simdesk.core.index.store import Index
from simdesk.core.index.stored_decisions import DECISION_QUERIES, decisions_by_path


@dataclass
class Rescue:
    """The decisions read from a damaged index, by path, and the kinds that could not be read."""

    keep: list[str] = field(default_factory=list)
    queued: list[str] = field(default_factory=list)
    ignored: list[tuple[str, str]] = field(default_factory=list)
    seen: list[tuple[str, str, str]] = field(default_factory=list)  # (kept path, member path, content hash)
    unreadable: list[str] = field(default_factory=list)  # kinds of decision lost with the damage

    def summary(self) -> str:
        text = (
            f"{len(self.keep)} keep marks, {len(self.queued)} copies queued for the trash and "
            f"{len(self.ignored)} 'not duplicates' pairs carry over"
        )
        if self.unreadable:
            text += f"; lost with the damage: {', '.join(self.unreadable)}"
        return text


def readable_decisions(path: Path) -> Rescue:
    """The decisions the index file at `path` still yields, read without writing to it."""
    try:
        conn = sqlite3.connect(f"file:{Path(path).absolute()}?mode=ro", uri=True)
    except sqlite3.Error:
        return Rescue(unreadable=list(DECISION_QUERIES))
    try:
        return Rescue(*decisions_by_path(conn))
    finally:
        conn.close()


def rebuild_index(path: Path) -> tuple[Path, Rescue]:
    """Move the damaged index at `path` (and its -wal and -shm files) aside, beside it, create a new index
    there holding the decisions readable_decisions finds (the next scan reads the documents again), and
    return (where the damaged file went, what carried over)."""
    path = Path(path)
    rescue = readable_decisions(path)
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(path) + suffix)
        if src.exists():
            os.replace(src, Path(str(aside) + suffix))
    with Index(path) as index:
        index.restore_decisions(rescue.keep, rescue.queued, rescue.ignored, rescue.seen)
    return aside, rescue
