"""The editor's decisions on one folder's documents: copies to keep, copies queued for the trash, pairs that
are not duplicates; kept in memory for the window and the command line, written to the folder's index in
batches through one connection, and undoable action by action. core.review holds one per review.

    decisions = Decisions(index.path, index.keep_marks(), index.queued_for_trash(), index.ignored_pairs())
    decisions.set_keep("a.txt", seen=group)   # in memory at once
    decisions.save()                          # one transaction for everything pending
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from simdesk.core.index.store import Index
from simdesk.core.records import Group

KEEP = "keep"
QUEUED = "queued"
REVIEWED = "reviewed"
UNDO_DEPTH = 100  # editor actions on the marks that Decisions.undo() can take back
SEQ_META = "decisions_seq"  # index meta key: the number of the last change saved (see Decisions.adopt)
# a logged change's value: on or off (KEEP, QUEUED), the group's members (REVIEWED), the other path ("ignore")
ChangeValue = bool | dict[str, str] | str


class Decisions:
    """The editor's decisions on one folder: copies to keep, copies queued for the trash (exclusive: marking
    one takes it out of the other) and pairs that are not duplicates (they never group together again).

    A keep mark is bound to its group as the editor saw it: `reviewed[path]` holds the members shown when
    it was marked (path -> content hash). A member that joined the group since, or whose content changed,
    is undecided, and a clean-up leaves it alone until the editor decides (cleanup.plan_cleanup).

    A change applies in memory at once and is logged with a number; `save()` writes the changes not saved
    yet in one transaction through one index connection kept open for the review (a key press costs a
    row, not a connection and a schema check), with the number of the last one (SEQ_META), so that a
    review read from the index meanwhile knows which changes it has (adopt). Changes may be made on one
    thread and saved on another.
    """

    def __init__(
        self,
        index_path: Path,
        keep: Iterable[str] = (),
        queued: Iterable[str] = (),
        not_duplicates: Iterable[tuple[str, str]] = (),
        reviewed: dict[str, dict[str, str]] | None = None,
        read_seq: int = 0,
    ) -> None:
        """`read_seq`: SEQ_META as read from the index before the decisions were (0: none saved yet)."""
        self.index_path = Path(index_path)
        self.keep: set[str] = set(keep)
        self.reviewed: dict[str, dict[str, str]] = dict(reviewed or {})
        self.queued: set[str] = set(queued) - self.keep
        self.not_duplicates: set[tuple[str, str]] = {_pair(a, b) for a, b in not_duplicates}
        self.read_seq = read_seq
        self._seq = self._saved = read_seq
        self._log: list[tuple[int, str, str, ChangeValue]] = []  # (number, kind, path, value), in the order made
        self._undo: list[tuple[set[str], set[str], dict[str, dict[str, str]]]] = []  # marks before each action
        self._asked: list[int] = []  # tickets of the rules over many groups whose copies are being chosen
        self._tickets = 0
        self._lock = threading.Lock()
        self._index: Index | None = None
        self._generation = 0

    @property
    def generation(self) -> int:
        """A number that grows whenever the decisions change or the editor acts on them (see the class)."""
        return self._generation

    def of(self, path: str) -> str | None:
        """'keep', 'queued' or None."""
        return KEEP if path in self.keep else QUEUED if path in self.queued else None

    def set_keep(self, path: str, on: bool = True, seen: Group | None = None) -> None:
        """Mark `path` to keep (or unmark it). `seen`: the group as the editor sees it now; the mark then
        decides for exactly those members (a mark made without it decides for none)."""
        if on:
            self.keep.add(path)
            self.queued.discard(path)
            if seen is not None:
                self._bind(path, {m.path: m.content_hash for m in seen.members})
        else:
            self.keep.discard(path)
            if self.reviewed.pop(path, None) is not None:
                self._note(REVIEWED, path, {})
        self._note(KEEP, path, on)

    def _bind(self, path: str, members: dict[str, str]) -> None:
        if self.reviewed.get(path) != members:
            self.reviewed[path] = members
            self._note(REVIEWED, path, members)

    def set_queued(self, path: str, on: bool = True) -> None:
        if on:
            self.queued.add(path)
            self.keep.discard(path)
            if self.reviewed.pop(path, None) is not None:
                self._note(REVIEWED, path, {})
        else:
            self.queued.discard(path)
        self._note(QUEUED, path, on)

    def toggle_keep(self, path: str, seen: Group | None = None) -> bool:
        self.set_keep(path, path not in self.keep, seen)
        return path in self.keep

    def toggle_queued(self, path: str) -> bool:
        self.set_queued(path, path not in self.queued)
        return path in self.queued

    def toggle_keep_all(self, paths: Sequence[str], seen: Sequence[Group | None] = ()) -> bool:
        """Keep every one of `paths`, or none of them if the first is kept already (the editor's Space over
        several copies); `seen[k]` is the group of paths[k] as shown (see set_keep). Returns whether they
        are kept now."""
        on = bool(paths) and paths[0] not in self.keep
        for k, p in enumerate(paths):
            if (p in self.keep) != on:
                self.set_keep(p, on, seen[k] if k < len(seen) else None)
        return on

    def toggle_queued_all(self, paths: Sequence[str]) -> bool:
        """Queue every one of `paths` for the trash, or none of them if the first is queued already."""
        on = bool(paths) and paths[0] not in self.queued
        for p in paths:
            if (p in self.queued) != on:
                self.set_queued(p, on)
        return on

    def keep_only(self, group: Group, path: str) -> None:
        """Keep exactly `path` among the group's members (the one-click rules)."""
        self.keep_choices([(group, path)])

    def keep_choices(self, chosen: Iterable[tuple[Group, str]]) -> None:
        """keep_only() in each group of `chosen` ((group, path) pairs of one grouping, so no path is in two of
        them: a keep rule over many groups) at once: each kept path bound to its group as it is now, every
        other kept member unmarked, in set operations and one entry of the log per change (4,401 groups of
        11,740 members: a few milliseconds, so a window applies them on its thread)."""
        bound = {path: {m.path: m.content_hash for m in group.members} for group, path in chosen}
        members: set[str] = set().union(*bound.values()) if bound else set()
        unkept = (members & self.keep) - bound.keys()
        kept = bound.keys() - self.keep
        unbound = unkept & self.reviewed.keys()
        rebound = {path: seen for path, seen in bound.items() if self.reviewed.get(path) != seen}
        self.keep -= unkept
        self.keep |= kept
        self.queued -= kept
        for path in unbound:
            del self.reviewed[path]
        self.reviewed.update(rebound)
        changes: list[tuple[str, str, ChangeValue]] = [(REVIEWED, path, {}) for path in unbound]
        changes += [(KEEP, path, False) for path in unkept]
        changes += [(REVIEWED, path, seen) for path, seen in rebound.items()]
        changes += [(KEEP, path, True) for path in kept]
        self._note_all(changes)

    def checkpoint(self) -> None:
        """Remember the keep and trash marks as they are, before an editor's action (a key press on a
        selection, a rule over many groups), so that undo() can bring them back; the last UNDO_DEPTH
        actions are remembered. A kept path's members are never changed in place, only replaced (set_keep,
        keep_choices), so the mapping is copied, not each path's members."""
        self._undo.append((set(self.keep), set(self.queued), dict(self.reviewed)))
        del self._undo[:-UNDO_DEPTH]
        with self._lock:
            self._generation += 1

    def ask(self) -> int:
        """A rule over many groups was asked for and its copies are being chosen (off the editor's thread):
        until they are, it is the editor's last action on the marks, the one undo() calls off. Returns the
        rule's ticket for answered()."""
        self._tickets += 1
        self._asked.append(self._tickets)
        return self._tickets

    def answered(self, ticket: int) -> bool:
        """The copies of the rule `ticket` (ask) are chosen, or could not be: whether the rule still stands
        (undo() did not call it off). Either way it is no longer being chosen."""
        if ticket not in self._asked:
            return False
        self._asked.remove(ticket)
        return True

    @property
    def can_undo(self) -> bool:
        """Whether undo() has an action to take back: a rule whose copies are being chosen, or marks as they
        were at a checkpoint."""
        return bool(self._asked or self._undo)

    def undo(self) -> bool:
        """Take back the editor's last action on the marks: the last rule whose copies are still being chosen
        is called off (the marks untouched), else the keep and trash marks are put back as they were at the
        last checkpoint (saved like any change, the changes logged at once). False when there is nothing to
        undo (can_undo). 'Not duplicates' decisions are not undone here."""
        if self._asked:
            self._asked.pop()
            return True
        if not self._undo:
            return False
        keep, queued, reviewed = self._undo.pop()
        # the sets and the mapping changed in place: the lists hold them
        unkept, kept = self.keep - keep, keep - self.keep
        unqueued, requeued = self.queued - queued, queued - self.queued
        unbound = self.reviewed.keys() - reviewed.keys()
        rebound = {path: members for path, members in reviewed.items() if self.reviewed.get(path) != members}
        self.keep -= unkept
        self.queued -= unqueued
        self.queued |= requeued
        self.keep |= kept
        for path in unbound:
            del self.reviewed[path]
        self.reviewed.update(rebound)
        changes: list[tuple[str, str, ChangeValue]] = [(KEEP, path, False) for path in unkept]
        changes += [(QUEUED, path, False) for path in unqueued]
        changes += [(QUEUED, path, True) for path in requeued]
        changes += [(KEEP, path, True) for path in kept]
        changes += [(REVIEWED, path, {}) for path in unbound]
        changes += [(REVIEWED, path, members) for path, members in rebound.items()]
        self._note_all(changes, acted=True)
        return True

    def mark_not_duplicates(self, a: str, b: str) -> None:
        self.not_duplicates.add(_pair(a, b))
        self._note("ignore", a, b)

    def forget(self, paths: Iterable[str]) -> None:
        """Files that left the folder (a clean-up) are no longer queued; the index drops them at the rescan."""
        for p in paths:
            self.queued.discard(p)

    @property
    def unsaved(self) -> int:
        with self._lock:
            return sum(1 for seq, *_ in self._log if seq > self._saved)

    def _note(self, kind: str, path: str, value: ChangeValue) -> None:
        self._note_all([(kind, path, value)])

    def _note_all(self, changes: Sequence[tuple[str, str, ChangeValue]], acted: bool = False) -> None:
        """Log `changes` (kind, path, value) in their order, under one lock; the generation moves when any
        was made or the editor `acted` (an undo that found the marks as they were)."""
        with self._lock:
            seq = self._seq
            self._log.extend((seq + k, kind, path, value) for k, (kind, path, value) in enumerate(changes, 1))
            self._seq = seq + len(changes)
            if changes or acted:
                self._generation += 1

    def adopt(self, older: Decisions) -> None:
        """Replay on these decisions (read from the index) the changes of `older` they do not have: every
        one numbered after `read_seq`, saved or not (a change saved while these were being read may or may
        not be in what was read), so a rescan's fresh review keeps what the editor did while it ran.
        Writing one twice is harmless."""
        with older._lock:
            changes = [(kind, path, value) for seq, kind, path, value in older._log if seq > self.read_seq]
            self._seq = max(self._seq, older._seq)
        for kind, path, value in changes:
            if kind == "ignore":
                self.mark_not_duplicates(path, str(value))
            elif kind == REVIEWED:
                if isinstance(value, dict) and value:
                    self._bind(path, dict(value))
                else:
                    self.reviewed.pop(path, None)
                    self._note(REVIEWED, path, {})
            else:
                (self.set_keep if kind == KEEP else self.set_queued)(path, bool(value))

    def save(self) -> int:
        """Write the pending changes in one transaction; return how many. On failure they stay pending
        (and the error is raised), so the next save tries again."""
        with self._lock:
            changes = [entry for entry in self._log if entry[0] > self._saved]
        if not changes:
            return 0
        if self._index is None:
            self._index = Index(self.index_path)
        with self._index.transaction():
            for _, kind, path, value in changes:
                if kind == KEEP:
                    self._index.set_keep(path, bool(value))
                elif kind == QUEUED:
                    self._index.set_queued_for_trash(path, bool(value))
                elif kind == REVIEWED:
                    assert isinstance(value, dict), value
                    self._index.set_reviewed(path, dict(value))
                else:
                    try:
                        self._index.ignore_pair(path, str(value))
                    except KeyError:  # a document no longer indexed: nothing to remember
                        pass
            self._index.set_meta(SEQ_META, str(changes[-1][0]))
        with self._lock:
            self._saved = max(self._saved, changes[-1][0])
        return len(changes)

    def close(self) -> None:
        """Close the index session (changes not saved stay so)."""
        if self._index is not None:
            self._index.close()
            self._index = None

    def __getstate__(self) -> dict:
        """Pickled without the index session and the lock (a review is read in a process of its own and
        shown in another: review/process.py); the receiver opens its own session when it saves."""
        with self._lock:
            state = dict(self.__dict__)
        del state["_lock"]
        state["_index"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)
