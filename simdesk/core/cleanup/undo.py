"""Undo the last clean-up: put the files it sent to the freedesktop trash (or moved away) back in their place.

The action log (cleanup/plan.py) names each clean-up (`run`) and each file's absolute place (`source`), size and
content hash. A trashed file is found in the trash by its `.trashinfo` (`Path=` equal to that place, the
`DeletionDate` nearest the logged time) and checked against the logged size and hash before it is moved
back. Nothing is ever overwritten: a file now standing at the original place is left as it is and the
trashed copy stays in the trash. What was and was not restored is reported and appended to the log.

A trashed file is recognised by its original place and its content (size and hash), never by the time alone:
the trash dates deletions in local time without a zone, so an undo in another time zone (or after a clock
change) finds the same files; the time only orders copies of the same content. The log is written ahead
(actionlog.py): a file whose intent is logged without an outcome (a crash, a full disk) is looked for where
it would have gone, and reported as never moved when it is still in its place.

Undo is idempotent and retries: a clean-up stays "the last" until each of its files is restored, found
never moved, or known gone from the trash; running undo again after a partial undo retries the files
still away, never an older clean-up.

    if can_undo_cleanup(data_dir / "actions.jsonl"):
        report = undo_last_cleanup(data_dir / "actions.jsonl")
        print(report.summary())
"""

from __future__ import annotations

import os
import shutil
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from urllib.parse import unquote_to_bytes

from simdesk.core.cleanup.actionlog import ActionLog, read_entries, utc_now
from simdesk.core.reading.documents import content_hash


@dataclass
class UndoReport:
    """What an undo did: `restored` and `not_restored` hold absolute original paths."""

    run: str | None  # the clean-up undone; None when there was nothing to undo
    action: str = ""
    restored: list[str] = field(default_factory=list)
    not_restored: list[tuple[str, str]] = field(default_factory=list)  # (path, why it stayed away)
    ignored_lines: int = 0  # log lines that were not valid entries (cut short, hand-edited, wrong types)

    def summary(self) -> str:
        if self.run is None:
            text = "nothing to undo: no clean-up in the action log that is not undone already"
        else:
            text = f"{len(self.restored)} files restored"
            if self.not_restored:
                text += f", {len(self.not_restored)} not restored"
        if self.ignored_lines:
            text += f" ({self.ignored_lines} log lines ignored: not valid entries)"
        return text


@dataclass(frozen=True)
class _TrashEntry:
    info: Path
    file: Path
    original: str
    deleted_at: float


def read_log(log_path: Path) -> list[dict]:
    """The log's valid entries in order (actionlog.read_entries: bad lines are ignored, never fatal)."""
    return read_entries(log_path)[0]


SETTLED = ("restored", "never moved", "gone")  # an undo outcome after which a file is not tried again


def last_cleanup(entries: list[dict]) -> tuple[str | None, list[dict]]:
    """The last clean-up with files still to put back: (its run id, one entry per such file: its `done`
    entry, or its `intent` when no outcome followed). Files already settled by an undo are left out."""
    settled = {
        (e["undoes"], os.path.normpath(e["path"]))
        for e in entries
        if e.get("action") == "undo" and e.get("outcome") in SETTLED
    }
    runs: dict[str, dict[str, dict]] = {}
    order: list[str] = []
    for e in entries:
        if e.get("action") not in ("trash", "move"):
            continue
        run = e.get("run") or f"{e['action']}:{e['root']}:{str(e.get('time', ''))[:16]}"  # logs before runs
        if run not in runs:
            runs[run] = {}
            order.append(run)
        files = runs[run]
        source = _source(e)
        if e["outcome"] in ("intent", "done"):
            files[source] = e
        else:  # failed or skipped: the file never left
            files.pop(source, None)
    for run in reversed(order):
        pending = [e for source, e in runs[run].items() if (run, source) not in settled]
        if pending:
            return run, pending
    return None, []


@dataclass(frozen=True)
class PendingUndo:
    """The clean-up an undo would put back now: its run id (None: nothing to undo), how its files left
    ("trash" or "move") and their absolute original places, in the order they were logged."""

    run: str | None
    action: str
    paths: list[str]


def cleanup_to_undo(log_path: Path) -> PendingUndo:
    """What undo_last_cleanup(log_path) would put back, read without acting: the last clean-up in the log
    with files neither restored, found never moved, nor known gone from the trash. The log is untrusted: a
    missing log, one that is not a file or cannot be read has none, and lines that are not valid entries are
    ignored (read_entries)."""
    log_path = Path(log_path)
    try:
        if not log_path.is_file():
            return PendingUndo(None, "", [])
        entries, _ignored = read_entries(log_path)
    except OSError:
        return PendingUndo(None, "", [])
    run, pending = last_cleanup(entries)
    return PendingUndo(run, pending[0]["action"] if pending else "", [_source(e) for e in pending])


def can_undo_cleanup(log_path: Path) -> bool:
    """Whether undo_last_cleanup(log_path) has a clean-up to put back (cleanup_to_undo)."""
    return cleanup_to_undo(log_path).run is not None


def _source(entry: dict) -> str:
    return os.path.normpath(entry.get("source") or os.path.join(entry["root"], entry["path"]))


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


def trash_entries_for(path: str) -> list[_TrashEntry]:
    """The trash entries (home trash and the trash of `path`'s file system) whose original place is `path`."""
    path = os.path.normpath(path)
    return [t for trash, top in _trash_dirs([path]) for t in _entries_in(trash, top) if t.original == path]


def _mount_point(path: str) -> Path:
    p = Path(os.path.realpath(os.path.dirname(path) or "/"))
    while not os.path.ismount(p) and p != p.parent:
        p = p.parent
    return p


def _entries_in(trash: Path, top: Path) -> list[_TrashEntry]:
    out: list[_TrashEntry] = []
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
        out.append(
            _TrashEntry(
                info, trash / "files" / info.name[: -len(".trashinfo")], os.path.normpath(original), deleted or 0.0
            )
        )
    return out


def _logged_time(entry: dict) -> float | None:
    if isinstance(entry.get("at"), (int, float)):
        return float(entry["at"])
    try:
        return datetime.fromisoformat(entry["time"]).timestamp()
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
    """Move `src` to `dest`, never replacing a file at `dest` (a hard link fails when dest exists); the
    folder `dest` goes in must exist (a vanished folder is never made again)."""
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
    """Restore the files of the last clean-up in the action log at `log_path` (see the module docstring);
    nothing to undo when there is no log there."""
    log_path = Path(log_path)
    entries, ignored = read_entries(log_path)
    run, pending = last_cleanup(entries)
    report = UndoReport(run, pending[0]["action"] if pending else "", ignored_lines=ignored)
    if run is None:
        return report
    sources = [_source(e) for e in pending]
    trash_entries: dict[str, list[_TrashEntry]] = {}
    if report.action == "trash":
        for trash, top in _trash_dirs(sources):
            for t in _entries_in(trash, top):
                trash_entries.setdefault(t.original, []).append(t)
    with ActionLog(log_path) as log:
        undo_run = uuid.uuid4().hex
        for entry, source in zip(pending, sources):
            outcome, why = _restore(entry, Path(source), trash_entries)
            if outcome == "restored":
                report.restored.append(source)
            elif outcome != "never moved":
                report.not_restored.append((source, why))
            stamp, at = utc_now()
            line = {
                "time": stamp,
                "at": at,
                "action": "undo",
                "run": undo_run,
                "undoes": run,
                "path": source,
                "outcome": outcome,
            }
            if why:
                line["reason"] = why
            log.append(line, sync=True)
    return report


def _restore(entry: dict, source: Path, trash_entries: dict[str, list[_TrashEntry]]) -> tuple[str, str]:
    """Put one file back: ("restored", ""), ("never moved", "") for a logged intent whose file is still
    in its place, ("gone", why) when it is nowhere to be found, ("not restored", why) otherwise (a retry
    may succeed once the reason is dealt with)."""
    if os.path.lexists(source):
        if _same_file(source, entry):  # never moved (an intent alone), or put back by an undo cut short
            if entry["action"] == "trash":
                _drop_stale_trash_copies(source, entry, trash_entries)
            return ("never moved" if entry["outcome"] == "intent" else "restored"), ""
        return "not restored", "a file is at its place again; left as it is (the removed copy was not touched)"
    why = _unsafe_place(entry, source)
    if why is not None:
        return "not restored", why
    found: _TrashEntry | None = None
    if entry["action"] == "move":
        moved = Path(entry.get("to", ""))
        if not entry.get("to") or not moved.exists():
            return "gone", "no longer where it was moved to"
        if not _same_file(moved, entry):
            return "not restored", "the moved copy has changed since; left where it is"
        candidate = moved
    else:
        when = _logged_time(entry)
        candidates = [t for t in trash_entries.get(os.path.normpath(str(source)), []) if t.file.exists()]
        candidates.sort(key=lambda t: abs(t.deleted_at - when) if when is not None else -t.deleted_at)
        found = next((t for t in candidates if _same_file(t.file, entry)), None)
        if found is None:
            if candidates:
                return "not restored", "the copy in the trash differs from the one removed"
            return "gone", "not in the trash any more (emptied, restored by hand, or in a trash simdesk cannot read)"
        candidate = found.file
    try:
        _put_back(candidate, source)
    except FileExistsError:
        return "not restored", "a file is at its place again; left as it is (the removed copy was not touched)"
    except OSError as exc:
        return "not restored", f"could not be put back: {exc.strerror or exc}"
    if found is not None:
        try:
            found.info.unlink()
        except OSError:
            pass
    return "restored", ""


def _unsafe_place(entry: dict, source: Path) -> str | None:
    """Why a file may not be put back at `source` (None when it may): its folder is gone (renamed or
    removed since: never made again), or a folder on its way under the logged root is now a symbolic link
    (putting it back would write wherever the link points)."""
    root = Path(entry["root"])
    parent = source.parent
    if not parent.is_dir():
        return f"its folder {parent} no longer exists (renamed or removed since); not made again"
    try:
        rel_parts = parent.relative_to(root).parts
    except ValueError:
        return "its place lies outside the logged folder"
    here = root
    for part in rel_parts:
        here = here / part
        if here.is_symlink():
            return f"{here} is now a symbolic link; not restored through it"
    return None


def _drop_stale_trash_copies(source: Path, entry: dict, trash_entries: dict[str, list[_TrashEntry]]) -> None:
    """A file already back in its place with the logged content (an undo cut short after the restore): its
    copies still in the trash with that content are the same document twice, removed with their entries;
    an entry whose file is already gone from the trash is removed too."""
    for t in trash_entries.get(os.path.normpath(str(source)), []):
        if os.path.lexists(t.file):
            if not _same_file(t.file, entry):
                continue
            try:
                os.unlink(t.file)
            except OSError:
                continue
        try:
            t.info.unlink()
        except OSError:
            pass
