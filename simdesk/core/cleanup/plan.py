"""Clean-up of groups: which copy to keep, a plan of what to remove, and carrying it out safely.

Safety rules, each answering a way other tools lost people's files:
- a plan never removes every member of a group (a group with nothing kept is refused, not emptied), unless
  the caller passes `allow_last_copy=True` because the editor confirmed that very case;
- each file is re-checked against the scan (size, modification time, content hash) right before it is
  touched, and skipped when it changed;
- right before each file goes, a copy its group keeps is re-read and must still be what the scan saw (a
  regular file, not a link or a folder, with the scanned content hash, and not the very file being removed
  under another name); otherwise the rest of the group is left alone with the reason;
- one clean-up at a time per folder (an OS lock on the folder, shared on the folders above it), and a file
  whose place resolves outside the folder (an absolute or `..` path, a folder on its way now a link
  elsewhere) is never touched; a move never replaces a file at its destination;
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

import errno
import os
import shutil
import stat
import uuid
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from simdesk.core.cleanup.actionlog import ActionLog, utc_now
from simdesk.core.reading.documents import DecodeError, content_hash, open_regular
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
                folder = part[len(FOLDER_CRITERION) :].strip().strip("/")
                if not folder:
                    raise ValueError(
                        f"{part!r} names no folder: write in:FOLDER, FOLDER relative to the scanned folder"
                    )
                criteria.append(FOLDER_CRITERION + folder)
            elif part.replace("-", "_") in KEEP_RULES:
                criteria.append(part.replace("-", "_"))
            else:
                raise ValueError(
                    f"unknown keep criterion {part!r}; use a comma-separated chain of "
                    f"{', '.join(r.replace('_', '-') for r in KEEP_RULES)} and in:FOLDER"
                )
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
    return 0 if under(m.path, criterion[len(FOLDER_CRITERION) :]) else 1


def keep_by_rule(group: Group, rule: str | KeepChain) -> Member:
    """The member a rule (one criterion, or a chain: KeepChain) keeps. Ties go to the representative's
    order (members[0] first)."""
    return KeepChain.parse(rule).choose(group.members)


# A member's fate in a clean-up (Fate.fate), and why (Fate.why)
KEEP, GOES, STAYS = "keep", "goes", "stays"
WHY_KEPT = "kept"  # marked as the copy to keep
WHY_QUEUED = "queued"  # the editor sent this very copy to the trash
WHY_HELD = "held"  # a kept copy holds its text (Fate.held: the share, at the least similarity or more)
WHY_BELOW = "below"  # no kept copy holds enough of its text (Fate.held: the most one holds)
WHY_PART = "part"  # a kept copy holds its text but it is a small part of that copy (Fate.holds): a passage
WHY_UNSEEN = "unseen"  # joined the group, or changed, since its keep mark was made
WHY_NOTHING_KEPT = "nothing_kept"  # the group has no copy to keep
# a short text that differs from the kept copy in a word (Fate.held, Fate.holds: the shares each way): "好灯一拨就亮"
# beside "好灯一拔就亮", "人贵有志" beside "人贵有智" are other sayings as often as typos, so it stays
WHY_WORDS = "words"
# goes: its text and that of a copy staying for WHY_WORDS (Fate.keeper) hold each other whole
WHY_SAME = "same"
WHOLE = 1.0 - 1e-9  # a share this close to 1 is whole (floating-point sums of shingle counts)


@dataclass(frozen=True, slots=True)
class Fate:
    """What a clean-up does with one member of a group, and why: `fate` is KEEP, GOES (to the trash, or
    moved) or STAYS; `why` one of the WHY_ values; `held` the share of the member's text found in `keeper`,
    the kept copy holding the most of it, and `holds` the share of the kept copy's text found in the member
    (None: no kept copy pairs with it; NaN: not measured: plain groups, pairs under verify.SHARE_FLOOR)."""

    path: str
    fate: str
    why: str
    held: float | None = None
    keeper: str | None = None
    holds: float | None = None


Held = Callable[[str, str], "float | None"]  # (copy, keeper) -> share of copy's text in keeper (Grouping.held)
# path -> whether its text is short enough that one word changed may make it another text (Review.short_text)
Short = Callable[[str], bool]


def member_fates(
    group: Group,
    keep: Collection[str],
    queued: Collection[str],
    reviewed: Mapping[str, Mapping[str, str]] | None = None,
    held: Held | None = None,
    least: float | None = None,
    short: Short | None = None,
) -> list[Fate]:
    """Each member's fate, in the group's order. A copy leaves only when the copy kept holds it: a member not
    kept goes when a kept copy of the group holds its text (`held(copy, keeper)`, the share of the copy's
    text found in the kept copy, reaches `least`, the least similarity; with `least` None, plain groups,
    every copy of the group is held; a share not measured, NaN, never is), is a version of that copy rather than a passage of it (the share of the kept
    copy's text found in the member, `held(keeper, copy)`, reaches `least` too: a sentence quoted in a
    kept article is no copy of it) and the editor saw it as it is now with that keep mark (`reviewed`: kept
    path -> the members its group had, path -> content hash; None: every keep mark covers its whole group).
    Keeping a quoted sentence never removes the article quoting it; keeping a copy missing more than
    1 - `least` of a text never removes the text. A member queued for the trash goes (the editor chose that
    very copy); with nothing kept, every other member stays. Without `held`, every member of the group is
    held by every kept copy.

    A short text (`short(path)`: at most similarity.SHORT_UNITS characters and words without its
    boilerplate) goes only when it and a kept copy hold each other whole: the same words, whatever their
    width, punctuation, wrapping or boilerplate lines. One word changed or added either way and it stays
    (WHY_WORDS): two sayings a character apart are as alike as a saying and its typo'd copy. A later member
    whose text and that of such a staying copy hold each other whole goes (WHY_SAME): the staying copy keeps it."""
    kept = [m.path for m in group.members if m.path in keep]
    staying: list[str] = []  # short texts that stay for WHY_WORDS, in the group's order
    fates = []
    for m in group.members:
        if m.path in keep:
            fates.append(Fate(m.path, KEEP, WHY_KEPT))
            continue
        if m.path in queued:
            fates.append(Fate(m.path, GOES, WHY_QUEUED))
            continue
        if not kept:
            fates.append(Fate(m.path, STAYS, WHY_NOTHING_KEPT))
            continue
        shares = {k: 1.0 if held is None else held(m.path, k) for k in kept}
        back = {k: 1.0 if held is None else held(k, m.path) for k in kept}
        holding = [k for k in kept if _holds(shares[k], least)]
        if not holding:  # the most a kept copy holds of it, if any pairs with it
            known = {k: share for k in kept if (share := shares[k]) is not None}
            keeper = max(known, key=known.__getitem__) if known else None
            fates.append(
                Fate(
                    m.path,
                    STAYS,
                    WHY_BELOW,
                    shares[keeper] if keeper else None,
                    keeper,
                    back[keeper] if keeper else None,
                )
            )
            continue
        versions = [k for k in holding if _holds(back[k], least)]
        if not versions:
            keeper = max(holding, key=lambda k: _rank(back[k]))
            fates.append(Fate(m.path, STAYS, WHY_PART, shares[keeper], keeper, back[keeper]))
            continue
        seen = [k for k in versions if reviewed is None or reviewed.get(k, {}).get(m.path) == m.content_hash]
        if not seen:
            fates.append(Fate(m.path, STAYS, WHY_UNSEEN, shares[versions[0]], versions[0], back[versions[0]]))
            continue
        keeper = max(seen, key=lambda k: _rank(shares[k]))
        if short is not None and not any(_whole(shares[k]) and _whole(back[k]) for k in seen) and short(m.path):
            assert held is not None  # plain groups (no held) hold every copy whole
            twin = next((s for s in staying if _whole(held(m.path, s)) and _whole(held(s, m.path))), None)
            if twin is not None:
                fates.append(Fate(m.path, GOES, WHY_SAME, held(m.path, twin), twin, held(twin, m.path)))
            else:
                staying.append(m.path)
                fates.append(Fate(m.path, STAYS, WHY_WORDS, shares[keeper], keeper, back[keeper]))
            continue
        fates.append(Fate(m.path, GOES, WHY_HELD, shares[keeper], keeper, back[keeper]))
    return fates


def _whole(share: float | None) -> bool:
    """Whether a share is the whole text (not a share not measured: None, NaN)."""
    return share is not None and share >= WHOLE


def _holds(share: float | None, least: float | None) -> bool:
    """Whether a share of a copy's text found in a kept copy lets it go: it reaches `least`; in plain groups
    (`least` None, nothing measured), every copy of the group is held. A share not measured (NaN: a pair
    under verify.SHARE_FLOOR, or kept by an older version) never lets a copy go from verified groups."""
    return share is not None and (least is None or share >= least)


def _rank(share: float | None) -> float:
    return -1.0 if share is None else 1.0 if share != share else share


def undecided_members(
    group: Group,
    keep: Collection[str],
    queued: Collection[str],
    reviewed: Mapping[str, Mapping[str, str]] | None,
    held: Held | None = None,
    least: float | None = None,
    short: Short | None = None,
) -> list[Member]:
    """The members of `group` no decision covers: neither kept nor queued for the trash, nor held by a kept
    copy the editor saw them with (member_fates). A clean-up leaves them where they are; a group without
    any is decided."""
    fates = member_fates(group, keep, queued, reviewed, held, least, short)
    return [m for m, f in zip(group.members, fates) if f.fate == STAYS]


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
    """What a clean-up would remove; `survivors` maps each touched group to the paths it keeps; `fates` says,
    for every member of each group with a decision, whether it is kept, goes or stays, and why."""

    removals: tuple[Removal, ...]
    refusals: tuple[Refusal, ...]
    survivors: dict[int, tuple[Member, ...]] = field(default_factory=dict)  # with what the scan saw of them
    allow_last_copy: bool = False  # the editor confirmed removing every copy of some groups (plan_cleanup)
    fates: tuple[tuple[int, Fate], ...] = ()  # (group, fate) of every member of a group with a keep mark

    @property
    def undecided(self) -> tuple[tuple[int, str], ...]:
        """(group, path) of the copies that stay in groups with a copy kept (no kept copy holds them, or
        they joined the group or changed since the keep mark)."""
        return tuple((g, f.path) for g, f in self.fates if f.fate == STAYS)

    @property
    def below_kept(self) -> tuple[tuple[int, str], ...]:
        """(group, path) of `undecided` copies that no kept copy holds at the least similarity."""
        return tuple((g, f.path) for g, f in self.fates if f.why == WHY_BELOW)

    @property
    def files(self) -> int:
        return len(self.removals)

    @property
    def bytes(self) -> int:
        return sum(r.size for r in self.removals)


def plan_cleanup(
    groups: Iterable[Group],
    keep: set[str] | frozenset[str],
    queued: set[str] | frozenset[str] = frozenset(),
    *,
    allow_last_copy: bool = False,
    reviewed: Mapping[str, Mapping[str, str]] | None = None,
    held: Held | None = None,
    least: float | None = None,
    short: Short | None = None,
) -> CleanupPlan:
    """Plan the removal of duplicates.

    In a group with at least one kept member, a member not kept is removed when a kept copy holds its text
    (member_fates: `held(copy, keeper)`, Grouping.held by path, reaches `least`, the least similarity) and
    the editor saw it with that keep mark (`reviewed`: each kept path -> the members its group had, path ->
    content hash, when the editor marked it), and, for a short text (`short`), only when the two hold each
    other whole; the others stay, each with the reason (`fates`). In a group
    with nothing kept, only the members queued for removal are; queuing every member of such a group is
    refused (the group is left alone and named in `refusals`) unless `allow_last_copy` says the editor
    confirmed exactly that. A kept member is never removed, even if also queued.
    """
    removals: list[Removal] = []
    refusals: list[Refusal] = []
    survivors: dict[int, tuple[Member, ...]] = {}
    fates: list[tuple[int, Fate]] = []
    for g in groups:
        kept = [m for m in g.members if m.path in keep]
        if kept:
            group_fates = member_fates(g, keep, queued, reviewed, held, least, short)
            fates.extend((g.id, f) for f in group_fates)
            doomed = [m for m, f in zip(g.members, group_fates) if f.fate == GOES]
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
    return CleanupPlan(tuple(removals), tuple(refusals), survivors, allow_last_copy, tuple(fates))


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
    return _kept_copy_now(root, kept, _doomed_inodes(root, removals))


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
            parts.append(
                f"{len(self.hard_links)} of them hard links (another name keeps their content: no space freed)"
            )
        if self.failed:
            parts.append(f"{len(self.failed)} failed")
        if self.refused_groups:
            parts.append(f"{len(self.refused_groups)} groups refused")
        text = ", ".join(parts)
        return f"{text}; {self.stopped}" if self.stopped else text


def _send_to_trash(path: Path) -> None:
    """Send one file to the freedesktop trash. When the move fails after the trash's `.trashinfo` was written
    (a read-only folder: the rename is refused), that orphan entry is removed again: a failed move leaves
    nothing in the trash."""
    from send2trash import send2trash  # imported late: it looks up the trash folders on import

    try:
        send2trash(str(path))
    except BaseException:
        _remove_orphan_trash_entries(path)
        raise


def _remove_orphan_trash_entries(path: Path) -> None:
    """Remove the `.trashinfo` entries naming `path` that have no file in the trash beside them."""
    from simdesk.core.cleanup.undo import trash_entries_for

    for entry in trash_entries_for(str(path)):
        if not os.path.lexists(entry.file):
            try:
                entry.info.unlink()
            except OSError:
                pass


class CleanupBusy(OSError):
    """Another clean-up of the same folder (or of a folder containing it, or inside it) is running."""


class _FolderLock:
    """One clean-up at a time per folder: an exclusive OS lock (flock) on the folder itself and a shared one
    on each folder above it, so a clean-up of a folder and one of a folder inside it exclude each other too.
    Nothing is written anywhere; the OS releases the locks when the process ends, killed or not. Raises
    CleanupBusy at once when another clean-up holds one of them."""

    def __init__(self, root: Path) -> None:
        self.root = Path(os.path.realpath(root))
        self.fds: list[int] = []

    def __enter__(self) -> _FolderLock:
        try:
            import fcntl
        except ImportError:  # not on POSIX
            return self
        chain = [self.root, *self.root.parents]
        try:
            for k, folder in enumerate(chain):
                try:
                    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
                except OSError:
                    if k == 0:
                        raise
                    continue  # a folder above that cannot be opened: the folder's own lock still holds
                self.fds.append(fd)
                try:
                    fcntl.flock(fd, (fcntl.LOCK_EX if k == 0 else fcntl.LOCK_SH) | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise CleanupBusy(
                        errno.EBUSY,
                        f"another clean-up of {folder if k else self.root} is running "
                        "(the window or `simdesk clean`); nothing was moved: try "
                        "again when it has finished",
                    ) from None
                except OSError:  # a file system without locks (some network shares): nothing to hold there
                    pass
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        for fd in self.fds:
            os.close(fd)  # closing releases the lock
        self.fds = []


def _outside_root(root: Path, rel: str) -> str | None:
    """Why `root/rel` is not a place under `root` a clean-up may act on (None when it is): an absolute path,
    a `..` component, or a folder on the way that now resolves outside `root` (a link placed since)."""
    parts = rel.replace("\\", "/").split("/")
    if not rel or os.path.isabs(rel) or ".." in parts:
        return "lies outside the folder (an absolute path or '..'); left alone"
    parent = os.path.realpath(os.path.dirname(root / rel))
    real_root = os.path.realpath(root)
    if parent != real_root and not parent.startswith(real_root.rstrip(os.sep) + os.sep):
        return "lies outside the folder (a folder on its way is now a link elsewhere); left alone"
    return None


def _fresh_name(target: Path) -> Path:
    """`target`, or the first numbered name beside it ("a (1).txt") that nothing holds now."""
    for n in range(10_000):
        candidate = target if n == 0 else target.with_name(f"{target.stem} ({n}){target.suffix}")
        if not os.path.lexists(candidate):
            return candidate
    raise FileExistsError(f"{target} and its numbered variants already exist")


def _move_exclusively(source: Path, target: Path) -> None:
    """Move `source` to `target`, never replacing anything there: a hard link fails when its name exists
    (FileExistsError), and across file systems the copy is created with O_EXCL, synced, then the unlink."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in (errno.EXDEV, errno.EPERM, errno.ENOTSUP, errno.EMLINK):
            raise
        with open(source, "rb") as fin, open(target, "xb") as fout:
            try:
                shutil.copyfileobj(fin, fout)
                fout.flush()
                os.fsync(fout.fileno())
            except BaseException:
                os.unlink(target)
                raise
        shutil.copystat(source, target)
    os.unlink(source)


def execute(
    plan: CleanupPlan,
    root: Path,
    action: str = "trash",
    *,
    dest: Path | None = None,
    log_path: Path | None = None,
    trash: Callable[[Path], None] = _send_to_trash,
    on_progress: Callable[[int, int], None] | None = None,
) -> CleanupReport:
    """Carry out `plan` under `root`: "trash" sends files to the system trash, "move" moves them below `dest`
    keeping their relative paths (never replacing a file there: a fresh numbered name instead). Changed
    files are skipped; so is a file whose place resolves outside `root`; right before each file goes, a copy
    its group keeps is verified again (a group none of whose kept copies verifies is refused from then on).
    One clean-up at a time per folder: a second raises CleanupBusy (an OSError) before moving anything.
    Returns what was verified done by this call. With `log_path`, each file's intent is written and synced
    before it moves and its outcome after; a log that cannot be written stops the clean-up before the next
    file moves."""
    if action not in ("trash", "move"):
        raise ValueError(f"unknown action {action!r}; use 'trash' or 'move'")
    if action == "move" and dest is None:
        raise ValueError("moving needs a destination folder")
    root = Path(root).absolute()
    with _FolderLock(root):
        return _execute_locked(plan, root, action, dest, log_path, trash, on_progress)


def _doomed_inodes(root: Path, removals: list[Removal]) -> set[tuple[int, int]]:
    doomed = set()
    for r in removals:
        try:
            st = os.lstat(root / r.path)  # a removal is never followed through a link (changed_since_scan)
            doomed.add((st.st_dev, st.st_ino))
        except OSError:
            pass
    return doomed


def _kept_copy_now(root: Path, kept: tuple[Member, ...], doomed: set[tuple[int, int]]) -> str | None:
    """kept_copy_problem with the inodes of the group's removals given (read once per group)."""
    reasons = []
    for m in kept:
        why = changed_since_scan(root, m)
        if why is None:
            try:
                st = os.stat(root / m.path)
            except OSError as exc:
                why = f"cannot be checked: {exc.strerror or exc}"
            else:
                if (st.st_dev, st.st_ino) not in doomed:
                    return None
                why = "is the same file as a copy to remove (another name for it)"
        reasons.append(f"{m.path} {why}")
    if not kept:
        return "the group keeps no copy"
    return "the copy to keep cannot be verified: " + "; ".join(reasons)


def _execute_locked(
    plan: CleanupPlan,
    root: Path,
    action: str,
    dest: Path | None,
    log_path: Path | None,
    trash: Callable[[Path], None],
    on_progress: Callable[[int, int], None] | None,
) -> CleanupReport:
    report = CleanupReport(action, refused_groups=list(plan.refusals))
    by_group: dict[int, list[Removal]] = {}
    for r in plan.removals:
        by_group.setdefault(r.group_id, []).append(r)
    doomed: dict[int, set[tuple[int, int]]] = {}  # group -> inodes of its removals, read at its first file
    refused: dict[int, str] = {}  # group -> why it is left alone from now on
    run = uuid.uuid4().hex  # one clean-up: what "Undo last clean-up" puts back (core/cleanup/undo.py)
    try:
        log = ActionLog(log_path) if log_path is not None else None
    except OSError as exc:
        raise OSError(
            exc.errno, f"the action log {log_path} cannot be written ({exc.strerror or exc}); nothing was moved"
        ) from None
    stopped: str | None = None  # set when the log fails: nothing more moves
    dest_root = Path(dest).absolute() if dest is not None else None

    def write(r: Removal, outcome: str, reason: str | None = None, **extra: str) -> None:
        nonlocal stopped
        if log is None:
            return
        stamp, at = utc_now()
        entry = {
            "time": stamp,
            "at": at,
            "action": action,
            "root": str(root),
            "path": r.path,
            "size": r.size,
            "mtime_ns": r.mtime_ns,
            "content_hash": r.content_hash,
            "outcome": outcome,
            "run": run,
            "source": str(root / r.path),
            **extra,
        }
        if dest_root is not None:
            entry["dest"] = str(dest_root)
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
            why = _outside_root(root, r.path)
            if why is None and r.group_id not in refused and not plan.allow_last_copy:
                if r.group_id not in doomed:
                    doomed[r.group_id] = _doomed_inodes(root, by_group[r.group_id])
                problem = _kept_copy_now(root, plan.survivors.get(r.group_id, ()), doomed[r.group_id])
                if problem is not None:  # checked right before each removal, not once per group
                    refused[r.group_id] = problem
                    report.refused_groups.append(Refusal(r.group_id, problem))
            if why is None and r.group_id in refused:
                why = f"its group was left alone: {refused[r.group_id]}"
            if why is None:
                why = changed_since_scan(root, r)
            if why is not None:
                report.skipped.append((r.path, why))
                write(r, "skipped", why)
                continue
            source = root / r.path
            try:
                nlink = os.lstat(source).st_nlink
            except OSError as exc:
                report.failed.append((r.path, str(exc)))
                write(r, "failed", str(exc))
                continue
            try:
                target = _fresh_name(dest_root / r.path) if dest_root is not None else None
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
                    _move_exclusively(source, target)
            except Exception as exc:  # any failure costs this file, never the rest of the clean-up  # noqa: BLE001
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
