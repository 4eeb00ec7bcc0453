"""Undo the last clean-up: put the files it sent to the freedesktop trash (or moved away) back in their place.

The action log (cleanup.py) names each clean-up (`run`) and each file's absolute place (`source`), size and
content hash. A trashed file is found in the trash by its `.trashinfo` (`Path=` equal to that place, the
`DeletionDate` nearest the logged time) and checked against the logged size and hash before it is moved
back. Nothing is ever overwritten: a file now standing at the original place is left as it is and the
trashed copy stays in the trash. What was and was not restored is reported and appended to the log, and an
undone clean-up is not undone twice (the next undo takes the clean-up before it).

    report = undo_last_cleanup(data_dir / "actions.jsonl")
    print(report.summary())
"""
from __future__ import annotations

import json
import os
import shutil
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from urllib.parse import unquote_to_bytes

from simdesk.core.documents import content_hash

TIME_TOLERANCE_S = 120.0  # a trash entry deleted this far from the logged time is another deletion


@dataclass
class UndoReport:
    """What an undo did: `restored` and `not_restored` hold absolute original paths."""

    run: str | None  # the clean-up undone; None when there was nothing to undo
    action: str = ""
    restored: list[str] = field(default_factory=list)
    not_restored: list[tuple[str, str]] = field(default_factory=list)  # (path, why it stayed away)

    def summary(self) -> str:
        if self.run is None:
            return "nothing to undo: no clean-up in the action log that is not undone already"
        text = f"{len(self.restored)} files restored"
        if self.not_restored:
            text += f", {len(self.not_restored)} not restored"
        return text


@dataclass(frozen=True)
class _TrashEntry:
    info: Path
    file: Path
    original: str
    deleted_at: float


def read_log(log_path: Path) -> list[dict]:
    """The log's entries in order; a line cut short by a crash is skipped, not fatal."""
    entries = []
    try:
        lines = Path(log_path).read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict):
            entries.append(entry)
    return entries


def last_cleanup(entries: list[dict]) -> tuple[str | None, list[dict]]:
    """The last clean-up not undone yet: (its run id, its entries whose outcome is 'done')."""
    undone = {e.get("undoes") for e in entries if e.get("action") == "undo"}
    runs: dict[str, list[dict]] = {}
    order: list[str] = []
    for e in entries:
        if e.get("action") not in ("trash", "move") or e.get("outcome") != "done":
            continue
        run = e.get("run") or f"{e.get('action')}:{e.get('root')}:{e.get('time', '')[:16]}"  # logs before runs
        if run not in runs:
            runs[run] = []
            order.append(run)
        runs[run].append(e)
    for run in reversed(order):
        if run not in undone:
            return run, runs[run]
    return None, []


def home_trash() -> Path:
    """The freedesktop home trash: $XDG_DATA_HOME/Trash (read now, not at import)."""
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(data) / "Trash"


def _trash_dirs(paths: list[str]) -> list[tuple[Path, Path]]:
    """(trash folder, the folder its relative Path= entries start from) to look in for `paths`."""
    home = home_trash()
    out = [(home, home.parent)]
    uid = str(os.getuid()) if hasattr(os, "getuid") else ""
    for top in sorted({_mount_point(p) for p in paths}):
        for trash in (top / ".Trash" / uid, top / f".Trash-{uid}"):
            if trash.is_dir() and trash != home:
                out.append((trash, top))
    return out


def _mount_point(path: str) -> Path:
    p = Path(os.path.realpath(os.path.dirname(path) or "/"))
    while not os.path.ismount(p) and p != p.parent:
        p = p.parent
    return p


def _entries_in(trash: Path, top: Path) -> list[_TrashEntry]:
    out = []
    try:
        infos = list((trash / "info").glob("*.trashinfo"))
    except OSError:
        return out
    for info in infos:
        original, deleted = None, None
        try:
            for line in info.read_text(encoding="utf-8", errors="replace").splitlines():
                if line.startswith("Path="):
                    original = os.fsdecode(unquote_to_bytes(line[5:].strip()))
                elif line.startswith("DeletionDate="):
                    deleted = datetime.fromisoformat(line[13:].strip()).timestamp()
        except (OSError, ValueError):
            continue
        if original is None:
            continue
        if not os.path.isabs(original):
            original = os.path.join(top, original)
        out.append(_TrashEntry(info, trash / "files" / info.name[:-len(".trashinfo")],
                               os.path.normpath(original), deleted or 0.0))
    return out


def _logged_time(entry: dict) -> float | None:
    if isinstance(entry.get("at"), (int, float)):
        return float(entry["at"])
    try:
        return datetime.strptime(entry["time"], "%Y-%m-%dT%H:%M:%S%z").timestamp()
    except (KeyError, ValueError, TypeError):
        return None


def _same_file(path: Path, entry: dict) -> bool:
    """True when `path` holds what the clean-up removed (size, then content hash when logged)."""
    try:
        if path.is_symlink() or path.stat().st_size != entry.get("size", path.stat().st_size):
            return False
        return "content_hash" not in entry or content_hash(path.read_bytes()) == entry["content_hash"]
    except OSError:
        return False


def _put_back(src: Path, dest: Path) -> None:
    """Move `src` to `dest`, never replacing a file at `dest` (a hard link fails when dest exists)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(src, dest)
    except FileExistsError:
        raise
    except OSError:  # another file system, or one without hard links: an exclusive copy, then the unlink
        with open(src, "rb") as fin, open(dest, "xb") as fout:
            shutil.copyfileobj(fin, fout)
        shutil.copystat(src, dest)
    os.unlink(src)


def undo_last_cleanup(log_path: Path) -> UndoReport:
    """Restore the files of the last clean-up in the action log at `log_path` (see the module docstring)."""
    log_path = Path(log_path)
    run, done = last_cleanup(read_log(log_path))
    report = UndoReport(run, done[0].get("action", "") if done else "")
    if run is None:
        return report
    sources = [e.get("source") or os.path.join(e.get("root", ""), e.get("path", "")) for e in done]
    trash_entries: dict[str, list[_TrashEntry]] = {}
    if report.action == "trash":
        for trash, top in _trash_dirs(sources):
            for t in _entries_in(trash, top):
                trash_entries.setdefault(t.original, []).append(t)
    outcomes = []
    for entry, source in zip(done, sources):
        why = _restore(entry, Path(source), trash_entries)
        if why is None:
            report.restored.append(source)
        else:
            report.not_restored.append((source, why))
        outcomes.append((source, why))
    with open(log_path, "a", encoding="utf-8") as fh:
        stamp, undo_run = time.strftime("%Y-%m-%dT%H:%M:%S%z"), uuid.uuid4().hex
        for source, why in outcomes:
            line = {"time": stamp, "action": "undo", "run": undo_run, "undoes": run, "path": source,
                    "outcome": "restored" if why is None else "not restored"}
            if why:
                line["reason"] = why
            fh.write(json.dumps(line, ensure_ascii=False) + "\n")
    return report


def _restore(entry: dict, source: Path, trash_entries: dict[str, list[_TrashEntry]]) -> str | None:
    """Put one file back; None when done, else why not."""
    if os.path.lexists(source):
        return "a file is at its place again; left as it is (the removed copy was not touched)"
    if entry.get("action") == "move":
        moved = Path(entry.get("to", ""))
        if not entry.get("to") or not moved.exists():
            return "no longer where it was moved to"
        if not _same_file(moved, entry):
            return "the moved copy has changed since; left where it is"
        candidate = moved
    else:
        when = _logged_time(entry)
        matches = [t for t in trash_entries.get(os.path.normpath(str(source)), []) if t.file.exists()
                   and (when is None or abs(t.deleted_at - when) <= TIME_TOLERANCE_S)]
        matches.sort(key=lambda t: abs(t.deleted_at - when) if when is not None else -t.deleted_at)
        found = next((t for t in matches if _same_file(t.file, entry)), None)
        if found is None:
            return ("not in the trash any more (emptied, restored by hand, or in a trash simdesk cannot read)"
                    if not matches else "the copy in the trash differs from the one removed")
        candidate = found.file
    try:
        _put_back(candidate, source)
    except FileExistsError:
        return "a file is at its place again; left as it is (the removed copy was not touched)"
    except OSError as exc:
        return f"could not be put back: {exc.strerror or exc}"
    if entry.get("action") != "move":
        try:
            found.info.unlink()
        except OSError:
            pass
    return None
