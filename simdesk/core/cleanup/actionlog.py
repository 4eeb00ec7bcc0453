"""The action log: a JSON-lines file that clean-up writes ahead of every move and undo reads back, checked.

Write-ahead: clean-up appends an `intent` line, flushed and fsynced, before a file leaves its place, and an
outcome line (`done`, `failed`, `skipped`) after. A crash or a full disk between the two leaves an intent
without an outcome, which undo treats as "may have moved": it looks for the file where it would have gone.
When the intent cannot be written, the file is not moved.

Times are stored in UTC (`time`, ISO 8601 with +00:00, and `at`, seconds since the epoch), so an undo in
another time zone reads the same instants. Reading validates every line as untrusted input (types; the
file's place inside the logged folder; an intent or done line complete: size and content hash, and for a
move its destination folder and its place inside it): a line that is not a valid entry is counted and
ignored, never fatal, so one bad line cannot block the others, and a hand-written line cannot make undo
move a file the log does not prove is the clean-up's.

    with ActionLog(path) as log:
        log.append({"action": "trash", ...}, sync=True)
    entries, ignored = read_entries(path)
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

OUTCOMES = ("intent", "done", "failed", "skipped")  # of a clean-up's file, in the order they are written
UNDO_OUTCOMES = ("restored", "not restored", "never moved", "gone")


def utc_now() -> tuple[str, float]:
    """(ISO 8601 time in UTC, seconds since the epoch) for a log line."""
    now = datetime.now(UTC)
    return now.isoformat(timespec="seconds"), now.timestamp()


def encode_line(entry: dict) -> str:
    """One JSON line. Names stay readable (ensure_ascii=False) unless a path holds bytes that are not
    UTF-8 (surrogate escapes), which only an ASCII-escaped line can carry through a UTF-8 file."""
    line = json.dumps(entry, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(entry, ensure_ascii=True)
    return line + "\n"


class ActionLog:
    """Appends entries to the log at `path`; `append(..., sync=True)` returns only once the line is on disk.
    Raises OSError (e.g. ENOSPC) when the line cannot be written: the caller must then not act."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fh = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115
        self._cut = self._ends_mid_line()

    def _ends_mid_line(self) -> bool:
        """True when the log's last line was cut short (a full disk, a crash): the next line must start on a
        line of its own, or it would be read as part of the broken one."""
        size = self.fh.seek(0, os.SEEK_END)
        if size == 0:
            return False
        with open(self.path, "rb") as raw:
            raw.seek(size - 1)
            return raw.read(1) != b"\n"

    def append(self, entry: dict, sync: bool = False) -> None:
        line = encode_line(entry)
        if self._cut:
            line = "\n" + line
        self.fh.write(line)
        try:
            self.fh.flush()
            if sync:
                os.fsync(self.fh.fileno())
        except OSError:
            self._cut = True  # part of the line may be on disk
            raise
        self._cut = False

    def close(self) -> None:
        try:
            self.fh.close()
        except OSError:  # a full disk refusing the last buffered bytes: every line that mattered was synced
            pass

    def __enter__(self) -> ActionLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _inside(path: str, folder: str) -> bool:
    path, folder = os.path.normpath(path), os.path.normpath(folder)
    return os.path.isabs(folder) and (path == folder or path.startswith(folder.rstrip(os.sep) + os.sep))


def valid_entry(e: object) -> bool:
    """True when `e` is a well-formed entry: the right types, and paths where a clean-up could have put
    them (a hand-edited line cannot make undo move a file from or to anywhere else)."""
    if not isinstance(e, dict) or not isinstance(e.get("action"), str) or not isinstance(e.get("path"), str):
        return False
    if e["action"] == "undo":
        return isinstance(e.get("undoes"), str) and e.get("outcome") in UNDO_OUTCOMES
    if e["action"] not in ("trash", "move") or e.get("outcome") not in OUTCOMES:
        return False
    root, rel = e.get("root"), e["path"]
    if not isinstance(root, str) or not os.path.isabs(root) or os.path.isabs(rel) or not rel:
        return False
    if ".." in rel.replace("\\", "/").split("/") or not _inside(os.path.join(root, rel), root):
        return False
    if "source" in e and (
        not isinstance(e["source"], str) or os.path.normpath(e["source"]) != os.path.normpath(os.path.join(root, rel))
    ):
        return False
    for key in ("size", "mtime_ns"):
        if key in e and (not isinstance(e[key], int) or isinstance(e[key], bool) or e[key] < 0):
            return False
    if e["outcome"] in ("intent", "done") and not (
        "size" in e and isinstance(e.get("content_hash"), str) and e["content_hash"]
    ):
        return False  # a file undo may move back must be recognisable: its size and content hash
    if "content_hash" in e and not isinstance(e["content_hash"], str):
        return False
    if "run" in e and not isinstance(e["run"], str):
        return False
    if "at" in e and (not isinstance(e["at"], (int, float)) or isinstance(e["at"], bool)):
        return False
    if "time" in e and not isinstance(e["time"], str):
        return False
    if e["action"] == "move" and e["outcome"] in ("intent", "done"):
        to, dest = e.get("to"), e.get("dest")
        if not (
            isinstance(to, str)
            and isinstance(dest, str)
            and os.path.isabs(dest)
            and _inside(to, dest)
            and os.path.normpath(to) != os.path.normpath(dest)
        ):
            return False  # a move proves where it went: its destination folder and its place inside it
    return True


def read_entries(path: Path) -> tuple[list[dict], int]:
    """(the valid entries in order, how many lines were ignored). A missing log is empty; a line cut short
    by a crash, or with wrong types, is ignored and counted."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return [], 0
    entries, ignored = [], 0
    for line in data.decode("utf-8", "replace").splitlines():
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            ignored += 1
            continue
        if valid_entry(entry):
            entries.append(entry)
        else:
            ignored += 1
    return entries, ignored
