"""What verification would read again of each text, kept from the scan pass: the worker that fingerprints a
text appends its visible text, its folded text (normalize.fold) and its page title (markup.page_heading) to its
own file of a scratch folder that lives for one scan and its analysis (ScratchTexts). The scanning process keeps
only where each record lies (in the index's temporary table: Index.stored_texts) and never loads one;
verification's read tasks load a text's record instead of reading, decoding and folding its file again, then
compute its profile, headline and short flag as before with the collection's boilerplate (stored_or_read):
the same strings in, the same results out.

    with ScratchTexts(root, index) as scratch:
        scan(root, index, options, keep=scratch.keeper(options.jobs))
        analyse(root, index, verify=verify, scratch=scratch)

Why texts and not profiles: a profile made in the scan pass could only be one without boilerplate, which is
known once the whole collection is; on the medium collection 16,249 of 20,000 texts hold a boilerplate line
(3,751 would have been loaded), and making each text's profile, headline and short flag in the scan pass
(~80 us with its pickle) cost more than the loads spared (~95 us each). A text's record costs ~7 us to write
and ~5 us to load, against ~47 us to read, decode and fold its file (medium collection, 2026-11-28).

A record is used only while the file keeps the size and modification time the scan read it with (os.stat,
in the worker): a file changed since is read again, as without a store. The folder is removed when the block
ends, is cancelled or fails; a folder left by a scanning process that is gone (killed by a signal) is removed
by the next ScratchTexts made in the same place.

Like pair_scores.py, this module imports neither the index's store nor the analysis, and the workers' fork
server preloads it (pair_scores imports it).
"""

from __future__ import annotations

import os
import pickle
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from simdesk.core.fingerprint.similarity import Profile
from simdesk.core.index.scan import ScannedText, StoredAt
from simdesk.core.matching.reread import profiles_of, verified_read
from simdesk.core.reading.markup import page_heading
from simdesk.core.reading.texts import Texts
from simdesk.core.workers import worker_count

if TYPE_CHECKING:
    from simdesk.core.index.documents import Snapshot
    from simdesk.core.index.store import Index

PREFIX = "simdesk-scan-texts-"  # + the scanning process's tag (process_tag) + "-" + a random part
# The most bytes of records a scan keeps on disk, over all its processes' files: beyond them (or half the free
# space of the temporary folder, when less) texts are read again in verification, as without a store. A record
# takes ~1.9 KB on the medium collection (texts of ~450 characters, pickled): 2 GiB hold ~1.1 million.
SCRATCH_BYTES = 2 << 30
# A text longer than this (characters) is not kept: its record would be twice its size, and it is read again.
KEPT_CHARS = 1 << 20

Read = tuple[Profile, str, bool | None]  # what profiles_of gives of a text: profile, packed headline, short flag


class ScratchTexts:
    """The scratch folder of one scan and its analysis, in `parent` (the system's temporary folder; beside the
    index when that one lies inside the scanned folder `root`, and none when both do: nothing is written in
    the scanned folder), with each process's file of records; and the index's temporary table of where each
    document's record lies, emptied when the block begins and ends."""

    def __init__(self, root: Path, index: Index, parent: Path | None = None, budget: int = SCRATCH_BYTES) -> None:
        self.index = index
        self.folder: str | None = None
        self.budget = 0
        index.drop_stored_texts()
        place = _scratch_parent(Path(root), index.path, parent)
        if place is None:
            return
        remove_stale(place)
        try:
            self.folder = tempfile.mkdtemp(prefix=f"{PREFIX}{process_tag(os.getpid())}-", dir=place)
            self.budget = min(budget, shutil.disk_usage(self.folder).free // 2)
        except OSError:  # no room or no right to write there: verification reads the texts
            self.folder = None

    def __enter__(self) -> ScratchTexts:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        try:
            self.close()
        except Exception:  # leaving on an error (a full disk, a damaged index): that error is the one to tell
            if exc_type is None:
                raise

    def close(self) -> None:
        """Remove the folder and forget where its records lay."""
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
        self.index.drop_stored_texts()

    def keeper(self, jobs: int) -> ScratchKeeper | None:
        """What a scan of `jobs` worker processes gives its texts (scan's `keep`), each process's file holding
        its share of the budget; None without a folder."""
        if self.folder is None or self.budget <= 0:
            return None
        return ScratchKeeper(self.folder, self.budget // max(1, worker_count(jobs)))

    def stored_rows(self, snap: Snapshot) -> StoredRows | None:
        """Where the record of each snapshot row lies, for the rows whose text this connection's scan stored;
        None when there is none."""
        if self.folder is None:
            return None
        table = self.index.stored_texts()  # (doc_id, file, offset, length) by doc_id
        if not len(table) or not len(snap.ids):
            return None
        order = np.argsort(snap.ids, kind="stable")
        ids = snap.ids[order]
        at = np.minimum(np.searchsorted(ids, table[:, 0]), len(ids) - 1)
        found = ids[at] == table[:, 0]
        refs = np.full((len(snap.ids), 3), -1, dtype=np.int64)
        refs[order[at[found]]] = table[found, 1:]
        return StoredRows(self.folder, refs)


def _scratch_parent(root: Path, index_path: Path, parent: Path | None) -> Path | None:
    """Where a scan of `root` keeps its scratch folder: `parent` (the system's temporary folder), else beside
    the index, whichever lies outside `root` first; None when both lie inside it."""
    for place in (Path(tempfile.gettempdir()) if parent is None else parent, index_path.resolve().parent):
        if not place.resolve().is_relative_to(root.resolve()):
            return place
    return None


def remove_stale(parent: Path) -> list[str]:
    """Remove the scratch folders in `parent` whose scanning process is gone (killed before it removed its
    own), also when a later process took its number: their names, in order."""
    removed: list[str] = []
    try:
        names = sorted(os.listdir(parent))
    except OSError:
        return removed
    for name in names:
        owner = name[len(PREFIX) :].split("-", 1)[0] if name.startswith(PREFIX) else ""
        pid, _, started = owner.partition(".")
        if not pid.isdigit():
            continue
        now = process_tag(int(pid)) if _alive(int(pid)) else None
        if now is None or (started and "." in now and now != owner):
            shutil.rmtree(os.path.join(parent, name), ignore_errors=True)
            removed.append(name)
    return removed


def process_tag(pid: int) -> str:
    """A process's number and, where the system tells it (Linux's /proc), when it started (clock ticks after
    boot): a number taken again by a later process gives another tag."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f"{pid}.{int(f.read().rsplit(b')', 1)[1].split()[19])}"
    except (OSError, ValueError, IndexError):
        return str(pid)


def _alive(pid: int) -> bool:
    """Whether a process of this number runs (another user's too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # not ours to signal: it runs
        return True
    return True


def records_file(folder: str, n: int) -> str:
    """The file of a scratch folder that process `n` appends its records to."""
    return os.path.join(folder, f"{n}.records")


@dataclass(frozen=True, slots=True)
class ScratchKeeper:
    """A scan's TextKeeper (index.scan): in the process that read a text, its record appended to the process's
    own file of `folder` (records_file), up to `cap` bytes a file; where it lies given back. A record: the
    pickle of (path, size, mtime_ns, page title, text, folded text or None when it is the text). The records of
    a chunk of texts are written in one go by `flush` (a write a chunk, not a text: ~3 us a text less). Never
    raises: a text it cannot store is read again in verification, and so is one whose chunk's write failed
    (its record is missing or another's: _record finds no record of its path there)."""

    folder: str
    cap: int

    def __call__(self, text: ScannedText) -> StoredAt | None:
        if len(text.text) > KEPT_CHARS:
            return None
        out = _OPEN.get(self.folder)
        if out is None:
            try:
                fd = os.open(records_file(self.folder, os.getpid()), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
                out = _OPEN[self.folder] = _Records(fd, os.fstat(fd).st_size)
            except OSError:
                return None
        at = out.size + len(out.pending)
        if at >= self.cap:
            return None
        heading = page_heading(text.source, text.markup) if text.markup else ""
        folded = None if text.folded == text.text else text.folded
        kept = (text.path, text.size, text.mtime_ns, heading, text.text, folded)
        record = pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL)
        out.pending += record
        return (os.getpid(), at, len(record))

    def flush(self) -> None:
        """Write the records of the texts given since the last flush, and close this process's file."""
        out = _OPEN.pop(self.folder, None)
        if out is None:
            return
        left = memoryview(out.pending)
        try:
            while left:
                left = left[os.write(out.fd, left) :]
        except OSError:  # no room: what was not written is read again in verification
            pass
        finally:
            try:
                os.close(out.fd)
            except OSError:
                pass


@dataclass(slots=True)
class _Records:
    """This process's file of records within a chunk: its descriptor, its size when opened, the records to write."""

    fd: int
    size: int
    pending: bytearray = field(default_factory=bytearray)


_OPEN: dict[str, _Records] = {}  # folder -> this process's file of records, within a chunk


@dataclass(frozen=True, slots=True)
class StoredTexts:
    """Where the records of a read task's texts lie: rows (file, offset, length), -1 for a text to read."""

    folder: str
    refs: np.ndarray


@dataclass(frozen=True, slots=True)
class StoredRows:
    """Where the record of each snapshot row lies (rows of file, offset, length; -1: read its text)."""

    folder: str
    refs: np.ndarray

    def of(self, rows: np.ndarray) -> StoredTexts | None:
        """The records of these rows, None when none has one."""
        refs = self.refs[rows]
        return StoredTexts(self.folder, refs) if (refs[:, 0] >= 0).any() else None


def stored_or_read(
    texts: Texts, rels: list[str], stored: StoredTexts | None, boilerplate: frozenset[int]
) -> list[Read]:
    """profiles_of the texts `rels`, each text taken from its record (`stored`) where it has one and its file
    keeps the size and modification time it was scanned with, read from its file otherwise."""
    out: list[Read | None] = [None] * len(rels)
    if stored is not None and texts.uri_prefix is None:
        files: dict[int, int] = {}
        try:
            for k, (n, offset, length) in enumerate(stored.refs.tolist()):
                if n >= 0 and (kept := _record(texts, rels[k], stored.folder, files, n, offset, length)) is not None:
                    heading, text, folded = kept
                    out[k] = verified_read(text, heading, boilerplate, text if folded is None else folded)
        finally:
            for fd in files.values():
                os.close(fd)
    todo = [k for k, got in enumerate(out) if got is None]
    if todo:
        for k, got in zip(todo, profiles_of(texts, [rels[k] for k in todo], boilerplate)):
            out[k] = got
    return [got for got in out if got is not None]


def _record(
    texts: Texts, rel: str, folder: str, files: dict[int, int], n: int, offset: int, length: int
) -> tuple[str, str, str | None] | None:
    """(page title, text, folded text or None) of the record at (n, offset, length), when it is the record of
    `rel` and the file is as it was scanned; None: read it (a record gone or damaged too)."""
    try:
        st = os.stat(texts.file(rel))
        if n not in files:
            files[n] = os.open(records_file(folder, n), os.O_RDONLY)
        path, size, mtime_ns, heading, text, folded = pickle.loads(os.pread(files[n], length, offset))
    except Exception:  # noqa: BLE001 (unreadable, removed, or not a record: the file is read as without a store)
        return None
    if path != rel or (st.st_size, st.st_mtime_ns) != (size, mtime_ns) or size > texts.max_bytes:
        return None
    return heading, text, folded
