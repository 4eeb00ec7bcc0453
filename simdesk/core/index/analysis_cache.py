"""What the analysis keeps in the index between runs: each document's boilerplate-free fingerprint and the
boilerplate it was computed without, the fingerprint its candidate pairs were last searched with, its MinHash
band keys and candidate boilerplate lines as the scan stored them, the verified relations of pairs (score,
and the share of each text the other holds) and whether each text verification read is short. All of it is stale as soon as a document's text changes (the
content trigger in layout.py)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import chain

import numpy as np

from simdesk.core.fingerprint.simhash import to_signed
from simdesk.core.index.connection import IndexConnection, made_after
from simdesk.core.index.layout import BAND_KEY_BYTES, SCORES_B_SQL
from simdesk.core.reading.boilerplate import LineHashes
from simdesk.core.records import Relation

READ_ROWS = 50_000  # rows read from the index at a time into arrays (documents.SNAPSHOT_ROWS)
SCORE_IDS = 450  # documents whose scores one statement deletes (twice as many parameters: SQLite allows 999)
SCORE_ROWS = 199  # scores one statement inserts (five parameters a row)


class AnalysisCache:
    """The analysis's stored results in one open index (each write its own transaction)."""

    def __init__(self, conn: IndexConnection) -> None:
        self.conn = conn

    def analysis_state(self) -> tuple[LineHashes, np.ndarray, np.ndarray]:
        """For every snapshot row (path order): its candidate boilerplate line hashes, whether its clean
        fingerprint was computed without its lines in `clean_boilerplate()` (bool), and its clean fingerprint
        (uint64; rows without one hold their plain fingerprint)."""
        rows = self.conn.execute(
            "SELECT coalesce(b.hashes, x''), d.clean, coalesce(d.clean_fp, d.fingerprint) "
            "FROM documents d LEFT JOIN line_hashes b ON b.doc_id = d.id WHERE d.size >= 0 ORDER BY d.path"
        )
        blobs = bytearray()
        lengths: list[np.ndarray] = []
        clean: list[np.ndarray] = []
        fps: list[np.ndarray] = []
        # one growing buffer, not an array per document (~100 B each at 1M), and numbers as arrays a block of
        # rows at a time: lists of a million Python ints took ~100 MB more at the analysis's start
        while block := rows.fetchmany(READ_ROWS):
            blob_column, flag_column, fp_column = zip(*block)
            lengths.append(np.fromiter(map(len, blob_column), dtype=np.int64, count=len(block)) // 4)
            blobs += b"".join(blob_column)
            clean.append(np.array(flag_column, dtype=bool))
            fps.append(np.array(fp_column, dtype=np.int64))
            del block, blob_column, flag_column, fp_column
        bounds = np.zeros(sum(map(len, lengths)) + 1, dtype=np.int64)
        if lengths:
            np.cumsum(np.concatenate(lengths), out=bounds[1:])
        values = np.frombuffer(blobs, dtype="<u4")  # the buffer itself, not a copy of it
        values.flags.writeable = False
        return (
            LineHashes(values, bounds),
            np.concatenate(clean) if clean else np.zeros(0, dtype=bool),
            (np.concatenate(fps) if fps else np.zeros(0, dtype=np.int64)).view(np.uint64),
        )

    def clean_boilerplate(self) -> frozenset[int]:
        """The boilerplate line hashes the documents flagged clean were fingerprinted without."""
        return frozenset(r[0] for r in self.conn.execute("SELECT hash FROM clean_boilerplate"))

    def band_keys(self, bands: int) -> tuple[np.ndarray, np.ndarray]:
        """For every snapshot row (path order): its MinHash band keys as stored (rows x `bands`, uint32, the low
        BAND_KEY_BYTES bytes of each) and whether it has none (no shingles, or indexed before band keys were
        kept)."""
        width = BAND_KEY_BYTES * bands
        rows = self.conn.execute(
            "SELECT coalesce(m.keys, x'') FROM documents d LEFT JOIN minhash_bands m "
            "ON m.doc_id = d.id WHERE d.size >= 0 ORDER BY d.path"
        )
        # a block of rows at a time into arrays: a million rows fetched whole (a tuple and a bytes object each),
        # joined, widened and copied took ~250 MB over the keys themselves
        keys: list[np.ndarray] = []
        empty: list[np.ndarray] = []
        while block := rows.fetchmany(READ_ROWS):
            missing = np.fromiter((len(blob) != width for (blob,) in block), dtype=bool, count=len(block))
            stored = np.frombuffer(b"".join(blob for (blob,) in block if len(blob) == width), dtype=np.uint8)
            wide = np.zeros((len(block), bands, 4), dtype=np.uint8)
            wide[~missing, :, :BAND_KEY_BYTES] = stored.reshape(-1, bands, BAND_KEY_BYTES)
            keys.append(wide.view("<u4").reshape(len(block), bands))
            empty.append(missing)
        if not keys:
            return np.zeros((0, bands), dtype=np.uint32), np.zeros(0, dtype=bool)
        return np.concatenate(keys).astype(np.uint32, copy=False), np.concatenate(empty)

    def line_hashes(self) -> LineHashes:
        """Every snapshot row's candidate boilerplate line hashes (path order)."""
        return self.analysis_state()[0]

    def set_clean_fingerprints(self, rows: Iterable[tuple[int, int | None]], boilerplate: frozenset[int]) -> None:
        """(document id, boilerplate-free fingerprint) for each document recomputed without its lines in
        `boilerplate`, which becomes the set `clean_boilerplate()` returns; a fingerprint of None marks a
        document to be computed again (its text could not be read as indexed). The caller must pass every
        document whose lines in `boilerplate` differ from its lines in the set stored before."""
        rows = list(rows)
        computed = [doc_id for doc_id, fp in rows if fp is not None]
        with self.conn.transaction():
            # what was searched and verified on the old boilerplate-free text is stale, and whether a text is
            # short was measured without its old boilerplate lines; a clean fingerprint equal to the plain one
            # is stored as NULL (most documents: 9 B each saved)
            self.conn.executemany(
                "UPDATE documents SET clean_fp = nullif(?, fingerprint), clean = 1, paired = 0, short = NULL "
                "WHERE id = ?",
                ((to_signed(fp), doc_id) for doc_id, fp in rows if fp is not None),
            )
            self.conn.executemany(
                "UPDATE documents SET clean = 0, short = NULL WHERE id = ?",
                ((doc_id,) for doc_id, fp in rows if fp is None),
            )
            # a few hundred documents a statement, each found by the key on `a` and the index on `b` (scores_b)
            for start in range(0, len(computed) if self.keeps_more_scores_than(0) else 0, SCORE_IDS):
                chunk = computed[start : start + SCORE_IDS]
                marks = ",".join("?" * len(chunk))
                self.conn.execute(f"DELETE FROM scores WHERE a IN ({marks}) OR b IN ({marks})", chunk + chunk)
            if boilerplate != self.clean_boilerplate():
                self.conn.execute("DELETE FROM clean_boilerplate")
                self.conn.executemany(
                    "INSERT INTO clean_boilerplate(hash) VALUES (?)", ((h,) for h in sorted(boilerplate))
                )

    def paired_fingerprints(self) -> tuple[np.ndarray, np.ndarray]:
        """For every snapshot row: the boilerplate-free fingerprint its candidate pairs were last searched
        with (uint64), and whether there is one. Stored as a flag: set with the current clean fingerprint,
        reset whenever that fingerprint changes (set_clean_fingerprints, the content trigger)."""
        rows = self.conn.execute(
            "SELECT CASE WHEN paired THEN coalesce(clean_fp, fingerprint) ELSE 0 END, paired "
            "FROM documents WHERE size >= 0 ORDER BY path"
        )
        fps: list[np.ndarray] = []
        known: list[np.ndarray] = []
        while block := rows.fetchmany(READ_ROWS):  # not a million tuples at once (~100 MB at 1M)
            fp_column, flag_column = zip(*block)
            fps.append(np.array(fp_column, dtype=np.int64))
            known.append(np.array(flag_column, dtype=bool))
        if not fps:
            return np.empty(0, dtype=np.uint64), np.empty(0, dtype=bool)
        return np.concatenate(fps).view(np.uint64), np.concatenate(known)

    def set_paired_fingerprints(self, rows: Iterable[tuple[int, int]]) -> None:
        """(document id, fingerprint) of documents whose candidate pairs are now all searched and scored; the
        fingerprint must be the document's current boilerplate-free one (the flag stands for it)."""
        with self.conn.transaction():
            self.conn.executemany(
                "UPDATE documents SET paired = 1 WHERE id = ? AND coalesce(clean_fp, fingerprint) = ?",
                ((doc_id, to_signed(fp)) for doc_id, fp in rows),
            )

    def forget_pairing(self) -> None:
        """Every document's candidates must be searched again (and every pair scored again)."""
        with self.conn.transaction():
            self.conn.execute("UPDATE documents SET paired = 0")
            self.conn.execute("DELETE FROM scores")

    def scores(self) -> dict[tuple[int, int], Relation]:
        """Verified relations kept from earlier analyses (score, and the share of each text the other holds:
        NaN when unknown), by (smaller id, larger id), `a_in_b` the share of the smaller id's text."""
        nan = float("nan")
        return {
            (a, b): Relation(s, nan if x is None else x, nan if y is None else y)
            for a, b, s, x, y in self.conn.execute("SELECT a, b, score, a_in_b, b_in_a FROM scores")
        }

    def keeps_more_scores_than(self, limit: int) -> bool:
        """Whether more than `limit` verified relations are kept (reads at most limit + 1 rows)."""
        sql = "SELECT count(*) FROM (SELECT 1 FROM scores LIMIT ?)"
        return int(self.conn.execute(sql, (limit + 1,)).fetchone()[0]) > limit

    @contextmanager
    def scores_indexed_after(self) -> Iterator[None]:
        """For the scores stored within: when the index keeps none yet (a first analysis), the index on their
        second member (scores_b) is dropped and made again once they are all in, cancelled or failing too
        (a first analysis of the medium collection stored its 87,234 scores in ~25% less CPU). A kill in
        between leaves a file that lacks only that index: read right without it, and made by the next open
        that can write (layout.missing_indexes)."""
        if self.keeps_more_scores_than(0):
            yield
            return
        with made_after(
            self.conn,
            lambda: self.conn.execute("DROP INDEX IF EXISTS scores_b"),
            lambda: self.conn.execute(SCORES_B_SQL),
        ):
            yield

    def store_scores(self, rows: Iterable[tuple[int, int, Relation]]) -> None:
        """Keep (document id, document id, their relation) for each verified pair."""
        rows = list(rows)
        a = np.array([r[0] for r in rows], dtype=np.int64)
        b = np.array([r[1] for r in rows], dtype=np.int64)
        scores = np.array([r[2].score for r in rows], dtype=np.float64)
        shares = np.array([r[2].shares() for r in rows], dtype=np.float64).reshape(-1, 2)
        self.store_score_arrays(a, b, scores, shares)

    def store_score_arrays(self, a: np.ndarray, b: np.ndarray, scores: np.ndarray, shares: np.ndarray) -> None:
        """store_scores of pairs given as arrays: document ids `a`, `b`, each pair's score and `shares`
        (rows x 2: a_in_b, b_in_a, NaN when unknown), kept in that order. The rows go to SQLite as plain
        values (a NaN share is bound as NULL: SQLite stores a NaN as NULL): 87,234 relations of the medium
        collection built as a Relation each and their rows took about as much CPU as SQLite's inserts. They go in
        the order of their key (a pair given twice keeps the last): the b-tree is then written from left to
        right (~15% less CPU for the medium collection's scores), SCORE_ROWS to a statement (~40% less CPU than
        one a row for the same rows, measured on the medium collection's scores before scores_b is made)."""
        swap = a > b
        first, second = np.where(swap, shares[:, 1], shares[:, 0]), np.where(swap, shares[:, 0], shares[:, 1])
        low, high = np.minimum(a, b), np.maximum(a, b)
        order = np.lexsort((high, low))  # stable: of a pair given twice, the last is still written last
        columns = (low[order], high[order], np.asarray(scores)[order], first[order], second[order])
        values = list(chain.from_iterable(zip(*(column.tolist() for column in columns))))
        whole = len(order) // SCORE_ROWS * SCORE_ROWS * len(columns)
        step = SCORE_ROWS * len(columns)
        with self.conn.transaction():  # the rows of a statement go in their order: a pair given twice keeps the last
            if whole:
                self.conn.executemany(_insert_scores(SCORE_ROWS), (values[k : k + step] for k in range(0, whole, step)))
            if whole < len(values):
                self.conn.execute(_insert_scores((len(values) - whole) // len(columns)), values[whole:])

    def store_short_texts(self, rows: Iterable[tuple[int, bool]]) -> None:
        """Keep (document id, whether its text is short: reread.measured_short) for each text verification read,
        without the boilerplate lines in `clean_boilerplate()`."""
        with self.conn.transaction():
            self.conn.executemany(
                "UPDATE documents SET short = ? WHERE id = ?", ((int(short), doc_id) for doc_id, short in rows)
            )

    def short_texts(self, max_size: int) -> tuple[np.ndarray, np.ndarray]:
        """(document ids, whether each text is short) of the documents of at most `max_size` bytes whose
        flag is stored (store_short_texts): int64 and bool arrays."""
        rows = self.conn.execute(
            "SELECT id, short FROM documents WHERE size BETWEEN 0 AND ? AND short IS NOT NULL", (max_size,)
        ).fetchall()
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        return ids, np.fromiter((r[1] for r in rows), dtype=bool, count=len(rows))


def _insert_scores(rows: int) -> str:
    """The statement that inserts (or replaces) `rows` scores (AnalysisCache.store_score_arrays)."""
    return "INSERT OR REPLACE INTO scores(a, b, score, a_in_b, b_in_a) VALUES " + ", ".join(["(?, ?, ?, ?, ?)"] * rows)
