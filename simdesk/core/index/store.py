"""The SQLite segment index of one folder: documents and their fingerprints (each fingerprint's four 16-bit
blocks in a segment table of posting lists; identical copies and texts without features in a partial index),
each document's candidate boilerplate line hashes, verified scores, the editor's decisions, and the problems of
the last scan. `Index` opens the file and answers for the parts that do each job:

    recognise.py        whether a file given as the index is simdesk's (anything else is refused unwritten)
    connection.py       the file's failures as IndexError_ in one line; transactions; the scan's lock
    layout.py           the tables, indexes and triggers this version writes
    migrations.py       the steps from each earlier layout read in place
    schema.py           opening: create, migrate, or rebuild with the decisions carried over
    segments.py         the segment index's encoding (posting lists of 16-bit blocks, pigeonhole probes)
    documents.py        documents by path, snapshots, near(), the last scan's problems
    analysis_cache.py   boilerplate-free fingerprints, searched pairs, verified scores and short texts kept
                        between runs
    stored_decisions.py keep marks, the trash queue, 'not duplicates' pairs

One writer at a time (the scanning process); readers see committed data (WAL mode). sqlite-utils creates the
tables and adds what a later layout adds; hand-written SQL is kept for the hot paths (bulk writes, block
probes), with the measured reason beside each.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import numpy as np

from simdesk.core.index import schema
from simdesk.core.index.analysis_cache import AnalysisCache
from simdesk.core.index.connection import IndexError_, ScanLock, Transaction, check_pages, connect, scan_lock_path
from simdesk.core.index.documents import SEGMENTED_AFTER_ROWS, Documents, Snapshot
from simdesk.core.index.recognise import recognise
from simdesk.core.index.sqlite_library import sqlite_utils
from simdesk.core.index.stored_decisions import StoredDecisions
from simdesk.core.reading.boilerplate import LineHashes
from simdesk.core.records import Document, Problem, Relation

CACHE_KB = 65536
PACK_FROM_ROWS = 20_000  # documents written on one connection before packing the file can be worth its time


class Index:
    """A folder's index in one SQLite file. Use as a context manager, or call close().

    Raises IndexError_ (one line: why, and what to do) when the file is not a simdesk index, cannot be
    created or written (a read-only file or folder, a full disk) or is damaged, here or in any later call.
    Its documents, the analysis's cache and the editor's decisions are parts of their own (`docs`, `cache`,
    `decisions`); the methods below answer for them."""

    rebuilt = False
    rebuilt_reason = ""  # for the editor when `rebuilt`: why, and which decisions were migrated
    migrated_decisions = 0

    def __init__(self, path: Path | str, *, create: bool = True) -> None:
        self.path = Path(path)
        kind = recognise(self.path)
        if kind == "new" and not create:
            raise IndexError_(f"no index at {self.path}: scan the folder first")
        conn = self.conn = connect(self.path)
        self.db = sqlite_utils.Database(conn)
        try:
            conn.execute("PRAGMA foreign_keys=ON")
            if kind == "new":
                schema.create(conn, self.db)
            else:
                check_pages(conn, self.path)
                rebuild = schema.upgrade(conn, self.db, kind, self.path)
                if rebuild is not None:
                    self.rebuilt = True
                    self.rebuilt_reason = rebuild.reason
                    self.migrated_decisions = rebuild.migrated_decisions
            self.db.enable_wal()  # only now: the file is known to be simdesk's
            conn.execute("PRAGMA synchronous=NORMAL")
            # a page cache of up to 64 MB (SQLite's default is 2 MB): the path index and the segment table take
            # random inserts; writing 200,000 documents as a scan does took 8.5 s of CPU instead of 13.9 s
            conn.execute(f"PRAGMA cache_size = -{CACHE_KB}")
        except BaseException:
            conn.close()
            raise
        self.docs = Documents(conn, self.db)
        self.cache = AnalysisCache(conn)
        self.decisions = StoredDecisions(conn)

    # -- the file -----------------------------------------------------------------------------------
    def transaction(self) -> Transaction:
        """A write transaction (BEGIN IMMEDIATE: a second writer waits, then fails with 'busy')."""
        return self.conn.transaction()

    def scan_lock(self) -> ScanLock:
        """Held while a scan writes this index: a second scan fails at once with a 'busy' IndexError_.
        An OS lock on a file next to the index, released by the OS even when the scanning process is killed."""
        return ScanLock(scan_lock_path(self.path))

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def meta(self, key: str) -> str | None:
        return schema.meta(self.conn, key)

    def set_meta(self, key: str, value: str) -> None:
        schema.set_meta(self.db, key, value)

    def integrity_ok(self) -> bool:
        return bool(self.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok")

    def pack_if_rewritten(self, min_rows: int = PACK_FROM_ROWS) -> bool:
        """Rewrite the file compactly (VACUUM) when this connection wrote most of its documents (a first scan, a
        re-read of every file) and at least `min_rows` of them; returns whether it did. Rows that come in
        nearly in path order and then grow (the boilerplate-free fingerprints the analysis adds) leave pages
        part full: at 200,000 documents the file took 363.6 B per document before, 346.3 after, in 3.1 s of
        VACUUM under load 9. A failure (a full disk) leaves the file as it was and is not an error."""
        if self.docs.written < min_rows or 2 * self.docs.written < self.count():
            return False
        try:
            self.conn.execute("VACUUM")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the copy went through the WAL: give it back
        except IndexError_:
            return False
        self.docs.written = 0
        return True

    # -- documents (documents.py) -------------------------------------------------------------------
    def count(self) -> int:
        return self.docs.count()

    def stored_states(self) -> dict[str, tuple[int, int, int, str]]:
        return self.docs.stored_states()

    def mark_all_stale(self) -> None:
        self.docs.mark_all_stale()

    def upsert_documents(self, docs: Iterable[Document], indexed: set[str] | None = None) -> None:
        self.docs.upsert_documents(docs, indexed)

    def segmented_after(self, writing: int, min_rows: int = SEGMENTED_AFTER_ROWS) -> AbstractContextManager[None]:
        return self.docs.segmented_after(writing, min_rows)

    def move_document(self, old_path: str, new_path: str, size: int, mtime_ns: int) -> None:
        self.docs.move_document(old_path, new_path, size, mtime_ns)

    def delete_paths(self, paths: Iterable[str]) -> None:
        self.docs.delete_paths(paths)

    def document(self, path: str) -> Document | None:
        return self.docs.document(path)

    def documents(self) -> Iterator[Document]:
        return self.docs.documents()

    def snapshot(self) -> Snapshot:
        return self.docs.snapshot()

    def near(self, fingerprint: int, radius: int) -> list[tuple[Document, int]]:
        return self.docs.near(fingerprint, radius)

    def replace_problems(self, problems: Iterable[Problem]) -> None:
        self.docs.replace_problems(problems)

    def problems(self) -> list[Problem]:
        return self.docs.problems()

    def scan_votes(self, ids: Iterable[int]) -> dict[int, bytes]:
        return self.docs.scan_votes(ids)

    def drop_scan_votes(self) -> None:
        self.docs.drop_scan_votes()

    def keep_stored_texts(self, rows: Iterable[tuple[str, int, int, int]]) -> None:
        self.docs.keep_stored_texts(rows)

    def stored_texts(self) -> np.ndarray:
        return self.docs.stored_texts()

    def drop_stored_texts(self) -> None:
        self.docs.drop_stored_texts()

    # -- the analysis's cache (analysis_cache.py) ---------------------------------------------------
    def analysis_state(self) -> tuple[LineHashes, np.ndarray, np.ndarray]:
        return self.cache.analysis_state()

    def clean_boilerplate(self) -> frozenset[int]:
        return self.cache.clean_boilerplate()

    def band_keys(self, bands: int) -> tuple[np.ndarray, np.ndarray]:
        return self.cache.band_keys(bands)

    def line_hashes(self) -> LineHashes:
        return self.cache.line_hashes()

    def set_clean_fingerprints(self, rows: Iterable[tuple[int, int | None]], boilerplate: frozenset[int]) -> None:
        self.cache.set_clean_fingerprints(rows, boilerplate)

    def paired_fingerprints(self) -> tuple[np.ndarray, np.ndarray]:
        return self.cache.paired_fingerprints()

    def set_paired_fingerprints(self, rows: Iterable[tuple[int, int]]) -> None:
        self.cache.set_paired_fingerprints(rows)

    def forget_pairing(self) -> None:
        self.cache.forget_pairing()

    def scores(self) -> dict[tuple[int, int], Relation]:
        return self.cache.scores()

    def keeps_more_scores_than(self, limit: int) -> bool:
        return self.cache.keeps_more_scores_than(limit)

    def scores_indexed_after(self) -> AbstractContextManager[None]:
        return self.cache.scores_indexed_after()

    def store_scores(self, rows: Iterable[tuple[int, int, Relation]]) -> None:
        self.cache.store_scores(rows)

    def store_score_arrays(self, a: np.ndarray, b: np.ndarray, scores: np.ndarray, shares: np.ndarray) -> None:
        self.cache.store_score_arrays(a, b, scores, shares)

    def store_short_texts(self, rows: Iterable[tuple[int, bool]]) -> None:
        self.cache.store_short_texts(rows)

    def short_texts(self, max_size: int) -> tuple[np.ndarray, np.ndarray]:
        return self.cache.short_texts(max_size)

    # -- the editor's decisions (stored_decisions.py) -----------------------------------------------
    def keep_marks(self) -> set[str]:
        return self.decisions.keep_marks()

    def set_keep(self, path: str, keep: bool) -> None:
        self.decisions.set_keep(path, keep)

    def reviewed(self) -> dict[str, dict[str, str]]:
        return self.decisions.reviewed()

    def set_reviewed(self, keep: str, members: dict[str, str]) -> None:
        self.decisions.set_reviewed(keep, members)

    def queued_for_trash(self) -> set[str]:
        return self.decisions.queued_for_trash()

    def set_queued_for_trash(self, path: str, queued: bool) -> None:
        self.decisions.set_queued_for_trash(path, queued)

    def ignored_pairs(self) -> set[tuple[str, str]]:
        return self.decisions.ignored_pairs()

    def ignore_pair(self, path_a: str, path_b: str) -> None:
        self.decisions.ignore_pair(path_a, path_b)

    def restore_decisions(
        self, keep: list[str], queued: list[str], ignored: list[tuple[str, str]], seen: list[tuple[str, str, str]]
    ) -> int:
        return self.decisions.restore(keep, queued, ignored, seen)
