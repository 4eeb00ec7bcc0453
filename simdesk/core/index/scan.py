"""The scan pipeline: list a folder, read and fingerprint what is new or changed in worker processes, and
write the results to the folder's index from this process alone. Incremental, cancellable, with progress.

    from simdesk.core.index.scan import scan
    result = scan(Path("articles"), index, ScanOptions(), on_progress=print)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from simdesk.core.fingerprint.features import DEFAULT_FEATURES, FeatureSettings
from simdesk.core.fingerprint.minhash import RULES as BAND_RULES, text_bands
from simdesk.core.fingerprint.simhash import seal_votes
from simdesk.core.fingerprint.vocabulary import text_votes
from simdesk.core.index.pooling import pooled
from simdesk.core.memory import release_freed_memory
from simdesk.core.reading.boilerplate import folded_line_hashes
from simdesk.core.reading.documents import (
    CHANGED_WHILE_READ,
    DecodeError,
    FileEntry,
    ReadAhead,
    TextFile,
    content_hash,
    describe_os_error,
    read_bytes,
    source_of_bytes,
    visible,
    walk,
)
from simdesk.core.reading.normalize import fold, normalize_folded, without_links
from simdesk.core.records import Document, Problem, Progress, ScanOptions, ScanStats
from simdesk.core.workers import (
    CancelToken,
    process_pool,
    start_worker_server,
    stop_workers,
    worker_count,
    worker_server_ready,
)

if TYPE_CHECKING:  # workers import this module for fingerprint_file: the index's sqlite-utils (and the pandas
    # it imports when installed) cost ~1 s of CPU per worker for nothing they use
    from simdesk.core.index.store import Index

CHUNK_FILES = 32
CHUNK_BYTES = 512 * 1024
# Chunks given to the workers ahead, per worker: while this process writes a second's documents to the index
# (~0.1-0.3 s at ~3,000 documents a second) no result is taken and no chunk given; a chunk of 32 files is ~10 ms
# of a worker's work, so 4 ran out within ~0.04 s of a write and the workers waited for it; 24 last ~0.2 s
CHUNKS_AHEAD = 24
COMMIT_EVERY_S = 1.0
# Once every chunk is given to the workers, the documents taken are written as soon as this many wait: the
# workers still read what they hold (CHUNKS_AHEAD chunks each) meanwhile, and the write after the last chunk,
# which they do not overlap, holds a few of them instead of up to a second's (on the medium collection
# 3,100-3,550 documents, 0.04-0.05 s of writes).
TAIL_COMMIT_DOCS = 256
PROGRESS_EVERY_S = 0.1


@dataclass
class ScanResult:
    root: Path
    stats: ScanStats
    problems: list[Problem] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Moved:
    path: str
    old_path: str
    size: int
    mtime_ns: int


@dataclass(frozen=True, slots=True)
class ScannedText:
    """A text the scan pass fingerprinted, in the forms it made of it (text_document), for a scan's TextKeeper."""

    path: str
    size: int
    mtime_ns: int
    text: str  # the visible text (documents.visible)
    source: str  # the file as written (the text itself for a plain text)
    markup: str  # documents.TextFile.markup: '' for a plain text
    folded: str  # normalize.fold(text)


# Where a TextKeeper stored a text: the number of its file, the offset and the length of its record.
StoredAt = tuple[int, int, int]


class TextKeeper(Protocol):
    """What a scan gives each text it fingerprints, in the process that read it (a worker): it stores what it
    wants of the text and says where (None: not stored); `flush` ends each chunk of texts, before their
    documents go back to the scanning process."""

    def __call__(self, text: ScannedText) -> StoredAt | None: ...

    def flush(self) -> None: ...


# A document whose text a TextKeeper stored, and where: a plain tuple, which a worker's results unpickle in a
# tenth of a dataclass's time (0.15 against 2.7 us more than the document alone).
_Stored = tuple[Document, StoredAt]


def fingerprint_file(
    entry: FileEntry,
    max_bytes: int,
    settings: FeatureSettings,
    moved_from: dict[str, str],
    ahead: ReadAhead | None = None,
    keep: TextKeeper | None = None,
) -> Document | _Moved | Problem | _Stored:
    """Read, decode and fingerprint one file (runs in a worker process). `moved_from` maps the content hash
    of each document that vanished from the index to its old path: such a file is a move, not new text.
    The file is opened and read once (_read_listed), its bytes hashed for a move, then decoded.
    `ahead`: the ReadAhead of the entries this one is read among (opened without following links); `keep`:
    given the text (its Document then comes back with where it was stored)."""
    read = _read_listed(entry, max_bytes, ahead)
    if isinstance(read, Problem):
        return read
    data, st = read
    if moved_from and (old := moved_from.get(content_hash(data))) is not None:
        return _Moved(entry.rel, old, len(data), st.st_mtime_ns)
    return _document_of_bytes(entry, data, st, settings, keep)


def file_document(
    entry: FileEntry, max_bytes: int, settings: FeatureSettings, ahead: ReadAhead | None = None
) -> Document | Problem:
    """Read, decode and fingerprint one listed file: its Document, or the Problem that kept it out."""
    read = _read_listed(entry, max_bytes, ahead)
    if isinstance(read, Problem):
        return read
    doc = _document_of_bytes(entry, *read, settings)
    return doc[0] if isinstance(doc, tuple) else doc


def _read_listed(entry: FileEntry, max_bytes: int, ahead: ReadAhead | None) -> tuple[bytes, os.stat_result] | Problem:
    """A listed file's bytes and status (read_bytes: a regular file, no link followed as it was listed as a
    file, not changed while read), or the Problem that kept it out."""
    try:
        return read_bytes(entry.location, max_bytes, follow_links=False, ahead=ahead)
    except (DecodeError, OSError) as exc:
        return _unreadable(entry, exc)


def _document_of_bytes(
    entry: FileEntry, data: bytes, st: os.stat_result, settings: FeatureSettings, keep: TextKeeper | None = None
) -> Document | Problem | _Stored:
    """The Document of a listed file's bytes (read_text_file's decoding: documents.text_of_bytes), or the
    Problem that kept it out; a file rewritten since it was listed is left out. `keep`: see fingerprint_file."""
    try:
        source = source_of_bytes(data, st, entry.location)
        tf = visible(source)
    except DecodeError as exc:
        return _unreadable(entry, exc)
    if (tf.size, tf.mtime_ns) != (entry.size, entry.mtime_ns):
        # rewritten between listing and reading: another program is writing it, what was read may be passing
        return Problem(entry.rel, CHANGED_WHILE_READ)
    return _text_document(entry.rel, tf, settings, keep, source.text)


def _unreadable(entry: FileEntry, exc: DecodeError | OSError) -> Problem:
    return Problem(entry.rel, str(exc) if isinstance(exc, DecodeError) else describe_os_error(exc))


def text_document(rel: str, tf: TextFile, settings: FeatureSettings) -> Document:
    """The indexed record of a decoded text: fingerprint, boilerplate line hashes, SimHash votes and the
    MinHash band keys of the shingles verification scores (of the whole text: boilerplate is known only
    once the collection is, and the keys only propose candidates that verification then scores). The text
    is folded once for all of them, and normalised once for the votes and the shingles."""
    doc = _text_document(rel, tf, settings)
    return doc[0] if isinstance(doc, tuple) else doc


def _text_document(
    rel: str, tf: TextFile, settings: FeatureSettings, keep: TextKeeper | None = None, source: str | None = None
) -> Document | _Stored:
    """text_document, its text's forms given to `keep` when there is one (`source`: the file as written)."""
    folded = fold(tf.text)
    unlinked = without_links(folded)  # links go for the line keys and verification's normalisation alike
    lines = folded_line_hashes(unlinked, links_dropped=True).tobytes()
    norm = normalize_folded(unlinked, strip_links=False)  # = normalize_folded(folded): verification's
    tallies = text_votes(tf.text, folded, settings, norm=norm if settings.strip_links else None)
    fingerprint, votes = seal_votes(tallies)
    at = None
    if keep is not None:
        text = source if source is not None else tf.text
        try:
            at = keep(ScannedText(rel, tf.size, tf.mtime_ns, tf.text, text, tf.markup, folded))
        except Exception:  # noqa: BLE001 (what is kept spares verification a read: it never costs the document)
            at = None
    del folded, unlinked  # a huge text's shingles are made with two copies of it held (the text, its normal form)
    doc = Document(
        rel,
        tf.size,
        tf.mtime_ns,
        tf.content_hash,
        tf.encoding,
        len(tf.text),
        fingerprint,
        lines,
        votes,
        text_bands(norm).tobytes(),
    )
    return doc if at is None else (doc, at)


def _fingerprint_chunk(
    entries: list[FileEntry],
    max_bytes: int,
    settings: FeatureSettings,
    moved_from: dict[str, str],
    ahead: ReadAhead | None = None,
    keep: TextKeeper | None = None,
) -> list[Document | _Moved | Problem | _Stored]:
    """fingerprint_file of each entry, the next ones fetched meanwhile (`ahead`: a ReadAhead of a list these
    entries are read from in order; else one of these entries); `keep` given each text, and flushed at the
    end."""
    if ahead is None:
        with ReadAhead(_locations(entries), follow_links=False) as ahead:
            return _fingerprint_chunk(entries, max_bytes, settings, moved_from, ahead, keep)
    out = []
    try:
        for e in entries:
            try:
                out.append(fingerprint_file(e, max_bytes, settings, moved_from, ahead, keep))
            except Exception as exc:  # a bug must cost one file, never the scan  # noqa: BLE001
                out.append(Problem(e.rel, f"internal error while reading: {type(exc).__name__}: {exc}"))
    finally:
        if keep is not None:
            keep.flush()
    return out


def _locations(entries: list[FileEntry]) -> list[str | Path]:
    return [e.location for e in entries]


def _chunks(entries: list[FileEntry]) -> list[list[FileEntry]]:
    out, cur, size = [], [], 0
    for e in entries:
        cur.append(e)
        size += e.size
        if len(cur) >= CHUNK_FILES or size >= CHUNK_BYTES:
            out.append(cur)
            cur, size = [], 0
    if cur:
        out.append(cur)
    return out


def _each_once(chunks: list[list[FileEntry]]) -> Iterator[list[FileEntry]]:
    """The chunks in order, each let go by the list as it is given (its entries then live until it is read)."""
    chunks.reverse()
    while chunks:
        yield chunks.pop()


def scan(
    root: Path,
    index: Index,
    options: ScanOptions = ScanOptions(),
    settings: FeatureSettings = DEFAULT_FEATURES,
    on_progress: Callable[[Progress], None] | None = None,
    cancel: CancelToken | None = None,
    keep: TextKeeper | None = None,
) -> ScanResult:
    """Bring `index` up to date with the text files under `root`.

    Only new and changed files (by size and modification time) are read; deleted ones are dropped; a file
    whose bytes equal a vanished document's is recorded as moved, keeping its fingerprint and decisions. A
    change of feature settings re-fingerprints everything. Cancelling keeps everything written so far.
    Raises FileNotFoundError/NotADirectoryError/PermissionError when `root` itself cannot be listed, and
    IndexError_ ('the index is busy') at once when another scan is writing the same index.
    `keep`: given each text read, in the process that read it; where it stored each is kept in the index for
    the analysis on this connection (Index.stored_texts).
    """
    with index.scan_lock():  # two scans interleaving their commits would each delete what the other listed
        return _scan_locked(root, index, options, settings, on_progress, cancel, keep)


def _scan_locked(
    root: Path,
    index: Index,
    options: ScanOptions,
    settings: FeatureSettings,
    on_progress: Callable[[Progress], None] | None,
    cancel: CancelToken | None,
    keep: TextKeeper | None = None,
) -> ScanResult:
    started = time.perf_counter()
    cancel = cancel or CancelToken()
    report = _Reporter(on_progress, started)
    root = Path(root)
    if not root.exists():
        raise FileNotFoundError(f"{root} does not exist")
    if not root.is_dir():
        raise NotADirectoryError(f"{root} is not a folder")
    os.listdir(root)  # raises PermissionError for an unreadable root, before anything is touched

    with index.transaction():
        if index.meta("features") != settings.to_json() or index.meta("band_rules") != BAND_RULES:
            index.mark_all_stale()
            index.set_meta("features", settings.to_json())
            index.set_meta("band_rules", BAND_RULES)
        # a folder name that is not valid UTF-8 is stored with escapes (it is shown, never used as a path)
        index.set_meta("root", os.fsencode(root.resolve()).decode("utf-8", "backslashreplace"))

    problems: list[Problem] = []
    folder_problems: list[str] = []

    def on_walk_problem(p: Problem) -> None:
        problems.append(p)
        if p.error.startswith("folder cannot"):  # unreachable for now: its documents are kept
            folder_problems.append(p.path.rstrip("/") + "/")

    workers = worker_count(options.jobs)
    stored = index.stored_states()
    # the paths listed, kept only when some are indexed (those not listed any more are gone): on a first scan
    # the entries to read are the only list of a million files, let go as they are read
    listed: set[str] = set()
    listed_count = 0
    to_read: list[FileEntry] = []
    to_read_bytes, server_started = 0, False
    for entry in walk(
        root, options.includes, options.max_bytes, options.follow_symlinks, on_walk_problem, lambda: cancel.cancelled
    ):
        listed_count += 1
        if stored:
            listed.add(entry.rel)
        if (s := stored.get(entry.rel)) is None or s[1] != entry.size or s[2] != entry.mtime_ns:
            to_read.append(entry)
            to_read_bytes += entry.size
            if not server_started and pooled(len(to_read), to_read_bytes, workers):
                # the workers' fork server loads the engine (~1 s of CPU) while the rest is listed, so that a
                # cancel then finds no wait; an unchanged folder or a small one never starts it
                start_worker_server()
                server_started = True
        report.maybe(Progress("listing", listed_count, 0, report.elapsed(), entry.rel))
    unchanged = listed_count - len(to_read)
    reading = len(to_read)
    if reading and not cancel.cancelled:  # listed: the reading starts (its first chunk may take seconds)
        report.force(Progress("reading", 0, reading, report.elapsed()))
    if cancel.cancelled:  # listing was cut short: deleting "missing" documents would be wrong
        gone = []
    else:
        gone = [p for p in stored if p not in listed and not any(p.startswith(f) for f in folder_problems)]
    moved_from = {stored[p][3]: p for p in gone if stored[p][1] >= 0}
    # the contents indexed besides what is read now: a file read with one of them is an identical copy
    rereading = {e.rel for e in to_read} if stored else set()
    indexed = {s[3] for p, s in stored.items() if s[1] >= 0 and p not in rereading}
    del rereading
    counts = {"new": 0, "changed": 0, "moved": 0, "chars": 0}
    pending_docs: list[Document] = []
    pending_moves: list[_Moved] = []
    pending_stored: list[tuple[str, int, int, int]] = []  # (path, where its text was stored) of pending_docs'
    moved_old: set[str] = set()
    last_commit = time.perf_counter()

    def flush() -> None:
        nonlocal last_commit
        if not pending_docs and not pending_moves:
            return
        with index.transaction():
            for m in pending_moves:
                index.move_document(m.old_path, m.path, m.size, m.mtime_ns)
            index.upsert_documents(pending_docs, indexed)
            index.keep_stored_texts(pending_stored)
        indexed.update(d.content_hash for d in pending_docs)
        pending_docs.clear()
        pending_moves.clear()
        pending_stored.clear()
        last_commit = time.perf_counter()

    done = 0
    to_give = -1  # chunks not given to the workers yet: none left, the documents taken are written sooner

    def take(results: list[Document | _Moved | Problem | _Stored]) -> None:
        nonlocal done
        for r in results:
            done += 1
            if isinstance(r, tuple):
                r, at = r
                pending_stored.append((r.path, *at))
            if isinstance(r, Document):
                pending_docs.append(r)
                counts["changed" if r.path in stored else "new"] += 1
                counts["chars"] += r.chars
            elif isinstance(r, _Moved):
                if r.old_path in moved_old:  # two copies of a moved file: the second is read as new
                    doc = fingerprint_file(
                        FileEntry(r.path, root / r.path, r.size, r.mtime_ns), options.max_bytes, settings, {}
                    )
                    take([doc])
                    done -= 1
                    continue
                moved_old.add(r.old_path)
                pending_moves.append(r)
                counts["moved"] += 1
            else:
                problems.append(r)
            report.maybe(Progress("reading", done, reading, report.elapsed(), r.path))
        if results:  # every finished chunk is reported: a caller may cancel between chunks
            last = results[-1]
            report.force(
                Progress(
                    "reading", done, reading, report.elapsed(), (last[0] if isinstance(last, tuple) else last).path
                )
            )
        if time.perf_counter() - last_commit >= COMMIT_EVERY_S or (
            to_give == 0 and len(pending_docs) >= TAIL_COMMIT_DOCS
        ):
            flush()

    # a first scan or a re-read of every file: the segment table is made once they are all in
    with index.segmented_after(reading):
        if not pooled(len(to_read), to_read_bytes, workers):
            with ReadAhead(_locations(to_read), follow_links=False) as ahead:
                for entry in to_read:  # one file at a time: a cancel waits for one file, not a chunk
                    if cancel.cancelled:
                        break
                    take(_fingerprint_chunk([entry], options.max_bytes, settings, moved_from, ahead, keep))
        elif worker_server_ready(cancel):
            with process_pool(workers) as pool:
                chunks = _chunks(to_read)
                to_give = len(chunks)
                queue = _each_once(chunks)
                del chunks  # each chunk is held by the queue alone
                to_read.clear()  # each entry is now held by its chunk alone, until the chunk is read
                running: set[Future] = set()

                def give() -> None:
                    """Give the workers the next chunks until CHUNKS_AHEAD a worker are in flight (or a cancel)."""
                    nonlocal to_give
                    for chunk in queue:
                        running.add(
                            pool.submit(_fingerprint_chunk, chunk, options.max_bytes, settings, moved_from, None, keep)
                        )
                        to_give -= 1
                        if len(running) >= workers * CHUNKS_AHEAD or cancel.cancelled:
                            break

                try:
                    give()  # the first submit starts the workers
                    while running:
                        finished, running = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
                        for fut in finished:
                            take(fut.result())
                        if cancel.cancelled:
                            break
                        give()
                finally:
                    if running:  # cancelled (or failing): what workers are still reading is not waited for
                        stop_workers(pool)  # its futures end broken with the pool, none cancelled (see stop_workers)
                    pool.shutdown(wait=True, cancel_futures=not running)
        flush()

        report.force(Progress("saving", done, reading, report.elapsed()))
        problem_paths = {p.path for p in problems}
        with index.transaction():
            if not cancel.cancelled:
                # documents that vanished, minus those recorded as moved; files that became problems leave too
                index.delete_paths([p for p in gone if p not in moved_old])
                index.delete_paths([p for p in problem_paths if p in stored])
                index.replace_problems(problems)
            index.set_meta("last_scan", str(time.time()))
    stats = ScanStats(
        listed=listed_count,
        new=counts["new"],
        changed=counts["changed"],
        unchanged=unchanged,
        moved=counts["moved"],
        deleted=0 if cancel.cancelled else len([p for p in gone if p not in moved_old]),
        problems=len(problems),
        cancelled=cancel.cancelled,
        seconds=time.perf_counter() - started,
        chars=counts["chars"],
    )
    release_freed_memory()  # the entries and documents of a large scan: the analysis starts without them
    report.force(Progress("done", done, reading, report.elapsed()))
    return ScanResult(root, stats, sorted(problems, key=lambda p: p.path))


class _Reporter:
    """Calls on_progress at most every PROGRESS_EVERY_S seconds (and always for forced reports)."""

    def __init__(self, on_progress: Callable[[Progress], None] | None, started: float) -> None:
        self.on_progress = on_progress
        self.started = started
        self.last = 0.0

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def maybe(self, progress: Progress) -> None:
        if self.on_progress is None:
            return
        now = time.perf_counter()
        if now - self.last >= PROGRESS_EVERY_S:
            self.last = now
            self.on_progress(progress)

    def force(self, progress: Progress) -> None:
        if self.on_progress is not None:
            self.last = time.perf_counter()
            self.on_progress(progress)
