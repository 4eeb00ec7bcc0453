"""Clean-up of groups: which copy to keep, a plan of what to remove, and carrying it out safely.

Safety rules, each answering a way other tools lost people's files:
- a plan never removes every member of a group (a group with nothing kept is refused, not emptied), unless
  the caller passes `allow_last_copy=True` because the editor confirmed that very case;
- each file is re-checked against the scan (size, modification time, content hash) right before it is
  touched, and skipped when it changed;
- a group whose kept copies have vanished from disk is refused at execution time;
- the report counts a file as done only when it is verified gone from its place;
- every action is appended to a JSON-lines log in the user's data folder, with what undo.py needs to put
  the files of the last clean-up back.

    plan = plan_cleanup(grouping, keep={"a.txt"})
    report = execute(plan, root, "trash", log_path=data_dir / "actions.jsonl")
"""
from __future__ import annotations

import json
import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from simdesk.core.documents import content_hash
from simdesk.core.records import Group, Member

KEEP_RULES = ("oldest", "newest", "largest", "shortest_path")


def keep_by_rule(group: Group, rule: str) -> Member:
    """The member a one-click rule keeps. Ties go to the representative's order (members[0] first)."""
    members = list(group.members)
    if rule == "oldest":
        return min(members, key=lambda m: m.mtime_ns)
    if rule == "newest":
        return max(members, key=lambda m: m.mtime_ns)
    if rule == "largest":
        return max(members, key=lambda m: m.size)
    if rule == "shortest_path":
        return min(members, key=lambda m: (len(m.path), m.path.count("/"), m.path))
    raise ValueError(f"unknown keep rule {rule!r}; use one of {', '.join(KEEP_RULES)}")


@dataclass(frozen=True, slots=True)
class Removal:
    """A file the plan removes, with what the scan saw of it (to check it has not changed since)."""

    path: str
    size: int
    mtime_ns: int
    content_hash: str
    group_id: int


@dataclass(frozen=True, slots=True)
class Refusal:
    group_id: int
    reason: str


@dataclass(frozen=True)
class CleanupPlan:
    """What a clean-up would remove; `survivors` maps each touched group to the paths it keeps."""

    removals: tuple[Removal, ...]
    refusals: tuple[Refusal, ...]
    survivors: dict[int, tuple[str, ...]] = field(default_factory=dict)
    allow_last_copy: bool = False  # the editor confirmed removing every copy of some groups (plan_cleanup)

    @property
    def files(self) -> int:
        return len(self.removals)

    @property
    def bytes(self) -> int:
        return sum(r.size for r in self.removals)


def plan_cleanup(groups: Iterable[Group], keep: set[str] | frozenset[str],
                 queued: set[str] | frozenset[str] = frozenset(), *, allow_last_copy: bool = False) -> CleanupPlan:
    """Plan the removal of duplicates.

    In a group with at least one kept member, every member not kept is removed. In a group with nothing
    kept, only the members queued for removal are; queuing every member of such a group is refused (the
    group is left alone and named in `refusals`) unless `allow_last_copy` says the editor confirmed exactly
    that. A kept member is never removed, even if also queued.
    """
    removals: list[Removal] = []
    refusals: list[Refusal] = []
    survivors: dict[int, tuple[str, ...]] = {}
    for g in groups:
        kept = [m for m in g.members if m.path in keep]
        if kept:
            doomed = [m for m in g.members if m.path not in keep]
        else:
            doomed = [m for m in g.members if m.path in queued]
            if doomed and len(doomed) == len(g.members) and not allow_last_copy:
                refusals.append(Refusal(g.id, "every copy is marked for removal: mark one to keep"))
                continue
        if not doomed:
            continue
        removals.extend(Removal(m.path, m.size, m.mtime_ns, m.content_hash, g.id) for m in doomed)
        doomed_paths = {m.path for m in doomed}
        survivors[g.id] = tuple(m.path for m in g.members if m.path not in doomed_paths)
    return CleanupPlan(tuple(removals), tuple(refusals), survivors, allow_last_copy)


def changed_since_scan(root: Path, removal: Removal) -> str | None:
    """Why the file no longer is what the scan saw (None when it is unchanged)."""
    path = root / removal.path
    try:
        st = path.stat()
        if st.st_size != removal.size or st.st_mtime_ns != removal.mtime_ns:
            return "changed since the scan (size or modification time differs)"
        if content_hash(path.read_bytes()) != removal.content_hash:
            return "changed since the scan (content differs)"
    except FileNotFoundError:
        return "no longer there"
    except OSError as exc:
        return f"cannot be checked: {exc.strerror or exc}"
    return None


@dataclass
class CleanupReport:
    """What a clean-up did. `done` holds only files verified gone from their place."""

    action: str
    done: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, why it was left alone)
    failed: list[tuple[str, str]] = field(default_factory=list)  # (path, what went wrong)
    refused_groups: list[Refusal] = field(default_factory=list)
    bytes_done: int = 0

    def summary(self) -> str:
        verb = {"trash": "sent to the trash", "move": "moved"}.get(self.action, self.action)
        parts = [f"{len(self.done)} files {verb} ({self.bytes_done:,} bytes)"]
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped")
        if self.failed:
            parts.append(f"{len(self.failed)} failed")
        if self.refused_groups:
            parts.append(f"{len(self.refused_groups)} groups refused")
        return ", ".join(parts)


def _send_to_trash(path: Path) -> None:
    from send2trash import send2trash  # imported late: it looks up the trash folders on import

    send2trash(str(path))


def _unique_destination(dest: Path) -> Path:
    if not dest.exists():
        return dest
    for n in range(1, 10_000):
        candidate = dest.with_name(f"{dest.stem} ({n}){dest.suffix}")
        if not candidate.exists():
            return candidate
    raise FileExistsError(f"{dest} and its numbered variants already exist")


def execute(plan: CleanupPlan, root: Path, action: str = "trash", *, dest: Path | None = None,
            log_path: Path | None = None, trash: Callable[[Path], None] = _send_to_trash,
            on_progress: Callable[[int, int], None] | None = None) -> CleanupReport:
    """Carry out `plan` under `root`: "trash" sends files to the system trash, "move" moves them below `dest`
    keeping their relative paths (never overwriting). Changed files are skipped; a group whose kept copies
    are gone from disk is refused. Returns what was verified done; appends each outcome to `log_path`."""
    if action not in ("trash", "move"):
        raise ValueError(f"unknown action {action!r}; use 'trash' or 'move'")
    if action == "move" and dest is None:
        raise ValueError("moving needs a destination folder")
    root = Path(root)
    report = CleanupReport(action, refused_groups=list(plan.refusals))
    bad_groups = set() if plan.allow_last_copy else {gid for gid, paths in plan.survivors.items()
                                                     if not any(os.path.lexists(root / p) for p in paths)}
    for gid in sorted(bad_groups):
        report.refused_groups.append(Refusal(gid, "the copies to keep are no longer on disk"))
    log = _ActionLog(log_path, action, root)
    try:
        for k, r in enumerate(plan.removals):
            if on_progress is not None:
                on_progress(k, len(plan.removals))
            if r.group_id in bad_groups:
                report.skipped.append((r.path, "its group has no copy left to keep"))
                log.write(r, "skipped", "its group has no copy left to keep")
                continue
            why = changed_since_scan(root, r)
            if why is not None:
                report.skipped.append((r.path, why))
                log.write(r, "skipped", why)
                continue
            source = root / r.path
            target = None
            try:
                if action == "trash":
                    trash(source)
                else:
                    target = _unique_destination(Path(dest) / r.path)  # type: ignore[arg-type]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.move(str(source), str(target))
            except Exception as exc:  # any failure costs this file, never the rest of the clean-up
                report.failed.append((r.path, str(exc) or type(exc).__name__))
                log.write(r, "failed", str(exc) or type(exc).__name__)
                continue
            if os.path.lexists(source):
                report.failed.append((r.path, "still in its place after the action"))
                log.write(r, "failed", "still in its place after the action")
                continue
            report.done.append(r.path)
            report.bytes_done += r.size
            log.write(r, "done", None, str(target) if target else None, source=str(source.absolute()))
    finally:
        log.close()
    if on_progress is not None:
        on_progress(len(plan.removals), len(plan.removals))
    return report


class _ActionLog:
    """Appends one JSON object a line: when, what, which file, the outcome. Nothing when path is None."""

    def __init__(self, path: Path | None, action: str, root: Path) -> None:
        self.action = action
        self.root = str(root)
        self.run = uuid.uuid4().hex  # one clean-up: what "Undo last clean-up" puts back (core/undo.py)
        self.fh = None
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self.fh = open(path, "a", encoding="utf-8")

    def write(self, r: Removal, outcome: str, reason: str | None, to: str | None = None,
              source: str | None = None) -> None:
        if self.fh is None:
            return
        entry = {"time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "action": self.action, "root": self.root,
                 "path": r.path, "size": r.size, "content_hash": r.content_hash, "outcome": outcome,
                 "run": self.run, "at": time.time(), "mtime_ns": r.mtime_ns}
        if source:  # what undo needs: the absolute place the file left (matched to the trash's Path=)
            entry["source"] = source
        if reason:
            entry["reason"] = reason
        if to:
            entry["to"] = to
        self.fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self.fh.flush()

    def close(self) -> None:
        if self.fh is not None:
            self.fh.close()
