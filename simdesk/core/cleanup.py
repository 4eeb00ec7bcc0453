"""Clean-up of groups: which copy to keep, a plan of what to remove, and carrying it out safely.

Safety rules, each answering a way other tools lost people's files:
- a plan never removes every member of a group (a group with nothing kept is refused, not emptied), unless
  the caller passes `allow_last_copy=True` because the editor confirmed that very case;
- each file is re-checked against the scan (size, modification time, content hash) right before it is
  touched, and skipped when it changed;
- before a group's first file goes, a copy it keeps is re-read and must still be what the scan saw (a
  regular file, not a link or a folder, with the scanned content hash, and not the very file being removed
  under another name); otherwise the whole group is left alone with the reason;
- a file is only ever removed as itself: one that became a symbolic link or anything but a regular file
  since the scan is skipped;
- the report counts a file as done only when it is verified gone from its place, and counts the bytes
  freed only for files that were their content's last name (a hard link's removal frees nothing);
- write-ahead logging (actionlog.py): each file's intent is on disk before it moves, its outcome after;
  when the log cannot be written (a full disk) nothing more is moved, so undo.py can always find every
  file the clean-up touched.

    plan = plan_cleanup(grouping, keep={"a.txt"})
    report = execute(plan, root, "trash", log_path=data_dir / "actions.jsonl")
"""
from __future__ import annotations

import os
import shutil
import stat
import uuid
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from simdesk.core.actionlog import ActionLog, utc_now
from simdesk.core.documents import DecodeError, content_hash, open_regular
from simdesk.core.records import Group, Member

KEEP_RULES = ("oldest", "newest", "largest", "shortest_path")  # the one-click rules, each a one-criterion chain
FOLDER_CRITERION = "in:"  # "in:FOLDER": prefer the copies under FOLDER (relative to the scanned folder)


def under(path: str, folder: str) -> bool:
    """Whether relative `path` lies under relative `folder` ('' or '.': the whole collection)."""
    folder = folder.strip("/")
    return not folder or folder == "." or path.startswith(folder + "/")


@dataclass(frozen=True, slots=True)
class KeepChain:
    """An ordered chain of criteria that picks the copy to keep in a group, as dupeGuru's Re-Prioritize
    dialog orders its criteria: the first criterion decides, the next one breaks its ties, and so on; what
    is still tied goes to the group's order (the representative first).

    Criteria: "oldest", "newest" (modification time), "largest" (bytes), "shortest_path", and
    "in:FOLDER" (copies under FOLDER first, FOLDER relative to the scanned folder). Written as one
    comma-separated text, the form `simdesk clean --keep` takes:

        KeepChain.parse("in:news,oldest,largest").choose(group.members)
    """

    criteria: tuple[str, ...]

    @classmethod
    def parse(cls, spec: str | KeepChain) -> KeepChain:
        """A chain from its text ("in:news,oldest"; '-' may stand for '_'). Raises ValueError saying what is
        wrong and what is accepted."""
        if isinstance(spec, KeepChain):
            return spec
        criteria = []
        for part in (p.strip() for p in spec.split(",")):
            if part.startswith(FOLDER_CRITERION):
                folder = part[len(FOLDER_CRITERION):].strip().strip("/")
                if not folder:
                    raise ValueError(f"{part!r} names no folder: write in:FOLDER, FOLDER relative to the scanned folder")
                criteria.append(FOLDER_CRITERION + folder)
            elif part.replace("-", "_") in KEEP_RULES:
                criteria.append(part.replace("-", "_"))
            else:
                raise ValueError(f"unknown keep criterion {part!r}; use a comma-separated chain of "
                                 f"{', '.join(r.replace('_', '-') for r in KEEP_RULES)} and in:FOLDER")
        return cls(tuple(criteria))

    def __str__(self) -> str:
        return ",".join(self.criteria)

    def key(self, m: Member) -> tuple:
        """The member's rank under the chain: the smallest key is kept."""
        return tuple(_criterion_key(c, m) for c in self.criteria)

    def choose(self, members: Sequence[Member]) -> Member:
        """The member the chain keeps (ties: the first in `members`)."""
        return min(members, key=self.key)


def _criterion_key(criterion: str, m: Member) -> object:
    if criterion == "oldest":
        return m.mtime_ns
    if criterion == "newest":
        return -m.mtime_ns
    if criterion == "largest":
        return -m.size
    if criterion == "shortest_path":
        return (len(m.path), m.path.count("/"), m.path)
    return 0 if under(m.path, criterion[len(FOLDER_CRITERION):]) else 1


def keep_by_rule(group: Group, rule: str | KeepChain) -> Member:
    """The member a rule (one criterion, or a chain: KeepChain) keeps. Ties go to the representative's
    order (members[0] first)."""
    return KeepChain.parse(rule).choose(group.members)


def undecided_members(group: Group, keep: Collection[str], queued: Collection[str],
                      reviewed: Mapping[str, Mapping[str, str]] | None,
                      paired: Callable[[str, str], bool] | None = None) -> list[Member]:
    """The members of `group` no decision covers: neither kept nor queued for the trash, nor seen with their
    present content by a keep mark of the group (`reviewed`: kept path -> the members its group had, path
    -> content hash; None: every keep mark covers its whole group), nor, with `paired` (whether two paths are
    a grouping pair: Grouping.paired), paired with a kept copy. A keep mark decides only for the copies of
    the copy kept: a member that reaches the threshold against the group's representative only (a group's
    members all pair with its representative, not always with each other) is not one. A clean-up leaves
    them where they are; a group without any is decided."""
    return _undecided(group, keep, queued, reviewed, paired)[0]


def _undecided(group: Group, keep: Collection[str], queued: Collection[str],
               reviewed: Mapping[str, Mapping[str, str]] | None,
               paired: Callable[[str, str], bool] | None) -> tuple[list[Member], list[Member]]:
    """undecided_members, and those of them below the threshold to every kept copy (with `paired` and a copy
    kept), each pair looked up once."""
    kept = [m.path for m in group.members if m.path in keep]
    undecided: list[Member] = []
    below: list[Member] = []
    for m in group.members:
        if m.path in keep or m.path in queued:
            continue
        near = None if paired is None or not kept else any(paired(k, m.path) for k in kept)
        seen = bool(kept) and (reviewed is None or any(reviewed.get(k, {}).get(m.path) == m.content_hash
                                                       for k in kept))
        if not (seen and near is not False):
            undecided.append(m)
            if near is False:
                below.append(m)
    return undecided, below


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
    survivors: dict[int, tuple[Member, ...]] = field(default_factory=dict)  # with what the scan saw of them
    allow_last_copy: bool = False  # the editor confirmed removing every copy of some groups (plan_cleanup)
    undecided: tuple[tuple[int, str], ...] = ()  # (group, path): joined a group after its keep mark was made
    below_kept: tuple[tuple[int, str], ...] = ()  # (group, path) of `undecided`: pairs with no kept copy

    @property
    def files(self) -> int:
        return len(self.removals)

    @property
    def bytes(self) -> int:
        return sum(r.size for r in self.removals)


def plan_cleanup(groups: Iterable[Group], keep: set[str] | frozenset[str],
                 queued: set[str] | frozenset[str] = frozenset(), *, allow_last_copy: bool = False,
                 reviewed: Mapping[str, Mapping[str, str]] | None = None,
                 paired: Callable[[str, str], bool] | None = None) -> CleanupPlan:
    """Plan the removal of duplicates.

    In a group with at least one kept member, every member not kept is removed. In a group with nothing
    kept, only the members queued for removal are; queuing every member of such a group is refused (the
    group is left alone and named in `refusals`) unless `allow_last_copy` says the editor confirmed exactly
    that. A kept member is never removed, even if also queued.

    With `reviewed` (each kept path -> the members its group had, path -> content hash, when the editor
    marked it), a keep mark decides only for the members the editor saw: one that joined the group since,
    or whose content changed, is undecided and not removed unless queued (listed in `undecided`). With
    `paired` (Grouping.paired by path), so is a member that pairs with no kept copy: it is in the group
    through another member, not a copy of the one kept (listed in `undecided` and in `below_kept`).
    """
    removals: list[Removal] = []
    refusals: list[Refusal] = []
    survivors: dict[int, tuple[Member, ...]] = {}
    undecided: list[tuple[int, str]] = []
    distant: list[tuple[int, str]] = []
    for g in groups:
        kept = [m for m in g.members if m.path in keep]
        if kept:
            members, below = _undecided(g, keep, queued, reviewed, paired)
            left = {m.path for m in members}
            undecided.extend((g.id, m.path) for m in members)
            distant.extend((g.id, m.path) for m in below)
            doomed = [m for m in g.members if m.path not in keep and m.path not in left]
        else:
            doomed = [m for m in g.members if m.path in queued]
            if doomed and len(doomed) == len(g.members) and not allow_last_copy:
                refusals.append(Refusal(g.id, "every copy is marked for removal: mark one to keep"))
                continue
        if not doomed:
            continue
        removals.extend(Removal(m.path, m.size, m.mtime_ns, m.content_hash, g.id) for m in doomed)
        doomed_paths = {m.path for m in doomed}
        survivors[g.id] = tuple(m for m in g.members if m.path not in doomed_paths)
    return CleanupPlan(tuple(removals), tuple(refusals), survivors, allow_last_copy, tuple(undecided),
                       tuple(distant))


def _regular_file_state(path: Path) -> tuple[os.stat_result, str] | str:
    """(its stat, its content hash) for a regular file read as itself (never through a link at its place);
    otherwise why it cannot be taken for the scanned file."""
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            return "is now a symbolic link"
        if stat.S_ISDIR(st.st_mode):
            return "is now a folder"
        if not stat.S_ISREG(st.st_mode):
            return "is no longer a regular file"
        fd = open_regular(path, follow_links=False)
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            digest = content_hash(fh.read())
    except FileNotFoundError:
        return "no longer there"
    except DecodeError:
        return "is no longer a regular file"
    except OSError as exc:
        return f"cannot be checked: {exc.strerror or exc}"
    return st, digest


def changed_since_scan(root: Path, removal: Removal | Member) -> str | None:
    """Why the file no longer is what the scan saw (None when it is unchanged)."""
    state = _regular_file_state(root / removal.path)
    if isinstance(state, str):
        return state
    st, digest = state
    if st.st_size != removal.size or st.st_mtime_ns != removal.mtime_ns:
        return "changed since the scan (size or modification time differs)"
    if digest != removal.content_hash:
        return "changed since the scan (content differs)"
    return None


def kept_copy_problem(root: Path, kept: tuple[Member, ...], removals: list[Removal]) -> str | None:
    """None when at least one copy the group keeps is still, verified by its content, what the scan saw
    and is not one of the files being removed under another name; else why the group must be left alone."""
    doomed = set()
    for r in removals:
        try:
            st = os.lstat(root / r.path)  # a removal is never followed through a link (changed_since_scan)
            doomed.add((st.st_dev, st.st_ino))
        except OSError:
            pass
    reasons = []
    for m in kept:
        why = changed_since_scan(root, m)
        if why is None:
            st = os.stat(root / m.path)
            if (st.st_dev, st.st_ino) not in doomed:
                return None
            why = "is the same file as a copy to remove (another name for it)"
        reasons.append(f"{m.path} {why}")
    if not kept:
        return "the group keeps no copy"
    return "the copy to keep cannot be verified: " + "; ".join(reasons)


@dataclass
class CleanupReport:
    """What a clean-up did. `done` holds only files verified gone from their place."""

    action: str
    done: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, why it was left alone)
    failed: list[tuple[str, str]] = field(default_factory=list)  # (path, what went wrong)
    refused_groups: list[Refusal] = field(default_factory=list)
    bytes_done: int = 0  # bytes freed: files that had other names (hard links) free nothing
    hard_links: list[str] = field(default_factory=list)  # done, but their content stays under another name
    stopped: str | None = None  # why the clean-up stopped early (the action log could not be written)

    def summary(self) -> str:
        verb = {"trash": "sent to the trash", "move": "moved"}.get(self.action, self.action)
        parts = [f"{len(self.done)} files {verb} ({self.bytes_done:,} bytes)"]
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped")
        if self.hard_links:
            parts.append(f"{len(self.hard_links)} of them hard links (another name keeps their content: no space "
                         "freed)")
        if self.failed:
            parts.append(f"{len(self.failed)} failed")
        if self.refused_groups:
            parts.append(f"{len(self.refused_groups)} groups refused")
        text = ", ".join(parts)
        return f"{text}; {self.stopped}" if self.stopped else text


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
    keeping their relative paths (never overwriting). Changed files are skipped; a group none of whose kept
    copies verifies is refused. Returns what was verified done. With `log_path`, each file's intent is
    written and synced before it moves and its outcome after; a log that cannot be written stops the
    clean-up before the next file moves."""
    if action not in ("trash", "move"):
        raise ValueError(f"unknown action {action!r}; use 'trash' or 'move'")
    if action == "move" and dest is None:
        raise ValueError("moving needs a destination folder")
    root = Path(root).absolute()
    report = CleanupReport(action, refused_groups=list(plan.refusals))
    by_group: dict[int, list[Removal]] = {}
    for r in plan.removals:
        by_group.setdefault(r.group_id, []).append(r)
    verdicts: dict[int, str | None] = {}  # group -> why it is left alone (None: go), decided at its first file
    run = uuid.uuid4().hex  # one clean-up: what "Undo last clean-up" puts back (core/undo.py)
    try:
        log = ActionLog(log_path) if log_path is not None else None
    except OSError as exc:
        raise OSError(exc.errno, f"the action log {log_path} cannot be written ({exc.strerror or exc}); "
                                 "nothing was moved") from None
    stopped: str | None = None  # set when the log fails: nothing more moves

    def write(r: Removal, outcome: str, reason: str | None = None, **extra: str) -> None:
        nonlocal stopped
        if log is None:
            return
        stamp, at = utc_now()
        entry = {"time": stamp, "at": at, "action": action, "root": str(root), "path": r.path, "size": r.size,
                 "mtime_ns": r.mtime_ns, "content_hash": r.content_hash, "outcome": outcome, "run": run,
                 "source": str(root / r.path), **extra}
        if dest is not None:
            entry["dest"] = str(Path(dest).absolute())
        if reason:
            entry["reason"] = reason
        try:
            log.append(entry, sync=outcome == "intent")
        except OSError as exc:
            stopped = f"the action log cannot be written ({exc.strerror or exc}): stopped before moving more files"
            if outcome == "intent":
                raise

    try:
        for k, r in enumerate(plan.removals):
            if on_progress is not None:
                on_progress(k, len(plan.removals))
            if stopped:
                report.skipped.append((r.path, stopped))
                continue
            if r.group_id not in verdicts:
                verdicts[r.group_id] = None if plan.allow_last_copy else kept_copy_problem(
                    root, plan.survivors.get(r.group_id, ()), by_group[r.group_id])
                if verdicts[r.group_id] is not None:
                    report.refused_groups.append(Refusal(r.group_id, verdicts[r.group_id]))
            if verdicts[r.group_id] is not None:
                why = f"its group was left alone: {verdicts[r.group_id]}"
                report.skipped.append((r.path, why))
                write(r, "skipped", why)
                continue
            why = changed_since_scan(root, r)
            if why is not None:
                report.skipped.append((r.path, why))
                write(r, "skipped", why)
                continue
            source = root / r.path
            try:
                target = _unique_destination(Path(dest).absolute() / r.path) if action == "move" else None
                nlink = os.lstat(source).st_nlink
            except OSError as exc:
                report.failed.append((r.path, str(exc)))
                write(r, "failed", str(exc))
                continue
            try:
                write(r, "intent", **({"to": str(target)} if target else {}))
            except OSError:
                report.skipped.append((r.path, stopped or "the action log cannot be written"))
                continue
            try:
                if target is None:
                    trash(source)
                else:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.move(str(source), str(target))
            except Exception as exc:  # any failure costs this file, never the rest of the clean-up
                report.failed.append((r.path, str(exc) or type(exc).__name__))
                write(r, "failed", str(exc) or type(exc).__name__)
                continue
            if os.path.lexists(source):
                report.failed.append((r.path, "still in its place after the action"))
                write(r, "failed", "still in its place after the action")
                continue
            report.done.append(r.path)
            if nlink > 1:
                report.hard_links.append(r.path)
            else:
                report.bytes_done += r.size
            write(r, "done", **({"to": str(target)} if target else {}))
    finally:
        if log is not None:
            log.close()
    report.stopped = stopped
    if on_progress is not None:
        on_progress(len(plan.removals), len(plan.removals))
    return report
