"""From an up-to-date index to verified groups: boilerplate-free fingerprints, length-aware SimHash
candidates, and an exact check of each candidate on the texts (fingerprint/similarity.py).

    grouper = analyse(root, index)
    grouping = grouper.at(grouper.max_threshold)   # every verified pair: the default view

Steps, each incremental through the index:
1. Boilerplate lines of the collection (boilerplate.py) are found from the line hashes stored at scan time.
2. Each document that contains boilerplate gets a fingerprint without it: its SimHash votes (kept from the
   scan on the same connection, computed again from the text otherwise) minus the votes of its boilerplate
   lines (no document is segmented again after a scan); the others keep their own.
3. Candidates, among one representative of each class of identical copies (copies.py: the other copies get
   its pairs after verification, so n copies of a page cost one search and one verification, not n^2 / 2),
   leaving out texts without features (fingerprint 0: all alike) and searching each crowd (a fingerprint held
   by more than CROWD_LIMIT texts) through a stand-in, its texts compared with a bounded few (crowd_pairs):
   pairs within a radius set by the length of the shorter text (12 bits; 16 under 1,500
   characters; 18 under 400), since near-duplicates with fewer features lie further apart. Each pair's
   distance is scaled to its radius (d * 12 / radius, rounded up), so one slider of 0..12 bits serves all.
   Pairs whose texts share a MinHash band of their shingles (minhash.py, keys kept at scan time) join
   them: copies SimHash places beyond the radius (a Chinese text with English passages put in, a short
   text with several typos); beyond the radius they count at the slider's widest setting, and only from
   a score of BAND_MIN_SIMILARITY. A pair sharing a single band is proposed only within SINGLE_BAND_RADIUS bits
   or when both texts are short (at 200,000 documents such pairs were 61% of the candidates, 0.1% grouped).
   A band pair whose plain fingerprints (whole texts, boilerplate included) lie within the radius is kept
   from a lower score when the large copy groups' rule scores it (verify.crowd_score): the members of such
   a group keep only their edited lines without boilerplate, and their clean fingerprints lie far apart.
4. Each candidate not verified before is scored on the texts without boilerplate; scores are kept in the
   index. A pair groups when its score reaches `min_similarity`.

Incremental: every candidate is kept with its score, and each document remembers the fingerprint its
candidates were searched with; after a rescan only the documents that changed (or whose boilerplate did)
are compared with the others, and only their new pairs are read and scored.

Measured on the medium corpus (seed 7, 20,000 documents), defaults: precision 0.995, recall 0.983;
short texts 0.994 / 0.968; every edit kind >= 0.956. See docs/quality.md.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from simdesk.core.compiled import KERNELS
from simdesk.core.fingerprint.features import DEFAULT_FEATURES, FeatureSettings
from simdesk.core.fingerprint.minhash import DESKTOP, RULES as BAND_RULES, band_pairs
from simdesk.core.fingerprint.simhash import BITS, from_votes, from_votes_rows, unpack_votes, unpack_votes_rows
from simdesk.core.fingerprint.similarity import (
    DEFAULT_MIN_SIMILARITY,
    EDIT_CHARS,
    VERSION as VERIFY_VERSION,
    Profile,
    relation,
    similarity,
)
from simdesk.core.index.documents import Snapshot
from simdesk.core.index.store import Index
from simdesk.core.matching.copies import (
    Copies,
    copied_shares,
    copied_values,
    identical_copies,
    swap_shares,
    with_copies,
)
from simdesk.core.matching.groups import Grouper, exact_grouper
from simdesk.core.matching.pair_scores import BAND_MIN_SIMILARITY, read_and_scored, scored
from simdesk.core.matching.pairs import pairs_within
from simdesk.core.matching.radius import MAX_THRESHOLD
from simdesk.core.matching.reread import (
    SHORT_BYTES,
    line_votes,
    line_votes_of,
    verification_profile,
    votes_of,
)
from simdesk.core.matching.scratch_texts import ScratchTexts, StoredRows
from simdesk.core.memory import release_freed_memory
from simdesk.core.reading.boilerplate import LineHashes, class_boilerplate, without_notices
from simdesk.core.reading.texts import Texts, texts_of
from simdesk.core.records import MAX_FILE_BYTES, Progress, Relation
from simdesk.core.workers import (
    Cancelled,
    CancelToken,
    map_chunks,
    process_pool,
    result_unless_cancelled,
    results_taken_promptly,
    stop_workers,
    worker_count,
    worker_server_ready,
)

TEXT_CHUNK = 64  # texts read per task
SCORE_STEP = 2000  # pairs scored between two progress reports
# Pairs scored per task: ~0.2 s of a crowd's pairs (~0.8 ms each), ~10 ms of the medium collection's (~45 us). A
# chunk's pairs come from a few tiles of SCORE_TILE x SCORE_TILE texts (read_plan), so each text's profile goes
# to the workers once with its chunk and serves several of its pairs (and a crowd's text keeps its units for
# them: Profile.filled_units). Measured 2026-11-27 (load 6-8): pickling and loading a profile takes ~40-60 us
# (~3 KB at the medium collection, ~10 KB at a crowd's ~900-character texts), about one medium pair's scoring.
SCORE_CHUNK = 256
SCORE_TILE = 32
# Pairs scored in this process between two looks at the workers' queue: about SCORE_HERE_S of them at the cost
# measured for those scored here, from SCORE_HERE (a crowd's: a few hundredths of a second, so the workers are
# given more as soon as they have room; a chunk of 256 scored here took 3.9 s of wall time at load 20, while the
# workers ran out of chunks) to SCORE_CHUNK (the medium collection's, ~4 ms: scored 32 at a time they took 12%
# more CPU, 2026-11-28).
SCORE_HERE = 32
SCORE_HERE_S = 0.02
QUEUED_PER_WORKER = 2  # tasks a worker has waiting (reads, chunks of pairs): the other pairs are scored here
# A chunk goes to the workers only when its pairs, at the cost measured for the pairs scored here, take more than
# SEND_MARGIN times what sending its texts' profiles takes (SEND_S a profile: pickled here, loaded there): a
# crowd's pairs (~0.8 ms each, ~100 texts a chunk) go, the medium collection's (~45 us each, more texts than
# pairs in a chunk) stay: sending them took the scanning process about the time it takes to score them.
SEND_S = 6e-5
SEND_MARGIN = 2.0
# A pair is scored in about a tenth of the time a text is read again for it (~45 us against ~465 us a text on
# the medium collection, 2026-11-27): the work that makes workers worth starting (POOL_FROM_TEXTS) counts a pair
# as that share of a text.
PAIRS_A_TEXT = 10
POOL_FROM_TEXTS = 1000  # fewer texts to read: in this process (starting workers costs ~1.5 s)
# Texts to segment again (votes, boilerplate lines' votes) go to the workers from this many: their fork server
# has the segmenter and the IDF table loaded, which this process would load for these texts alone (~0.6 s of
# CPU, measured 2026-11-27; a first scan of the medium collection segments 937 texts' boilerplate lines here).
SEGMENTED_POOL_FROM = 64
VOTES_LEFT = 2e-3  # stored votes are rounded to ~5e-4 of the largest: less than this is a tie / nothing
BRUTE_FORCE_ROWS = 1024  # shorter texts are compared with longer ones in blocks of rows x columns
BRUTE_FORCE_COLUMNS = 4096  # a block's XOR is rows x columns x 8 bytes: 32 MB (16,384 columns: 128 MB)
BRUTE_FORCE_BUDGET = 600_000_000  # comparisons (~2 s on 2 cores); past it, the wide radii are narrowed
# threads the compiled brute-force search shares its row blocks among, from this many comparisons (the medium
# collection's ~2e8 took ~0.15 s of CPU in one thread, while the worker processes waited)
NEAR_PAIRS_THREADS = 2
NEAR_PAIRS_THREADS_FROM = 20_000_000
INCREMENTAL_BUDGET = 200_000_000  # changed documents x all: under it, only the changed ones are searched
PROFILE_BATCH = 25_000  # texts whose verification profiles are held at once (~2 KB each at 500 characters)
PLAN_WINDOW = 2_000  # texts read per verification step (read by the workers while the steps before are scored)
VOTES_CHUNK = 50_000  # documents whose votes are held at once (~10 MB)
# A pair sharing a single band of its MinHash keys (J^3 ~ 1/16: most such texts share a passage, not the
# text) is a candidate only when its fingerprints also lie within this many bits, or when both texts are
# short enough for edit similarity (verify.EDIT_CHARS: typos move short texts 27-30 bits apart). Measured
# 2026-11-24 on the million benchmark's first 200,000 documents: such pairs were 244,511 of 399,313
# candidates and 214 of them grouped (212 within 24 bits); the others scored below 0.7 or, beyond the
# radius, below BAND_MIN_SIMILARITY. Pairs sharing two bands or more (14,125; 9,184 grouped) are all kept.
SINGLE_BAND_RADIUS = 24
# A fingerprint held by more texts than this (after identical copies are one class) is a crowd: one-liners of
# one template filled with other numbers (the features leave numbers out), a page saved again and again with
# another date or counter. Its texts would make every pair a candidate (6,000 such one-liners: 18 M pairs,
# over 10 minutes and 2.5 GB); instead one of them stands in for all in the search, and each is compared with
# the crowd's first text (its pivot: a crowd of copies groups whole around it) and with the CROWD_WINDOW texts
# next to it in order of length, then path; a text the search finds near the crowd with the pivot and the
# CROWD_WINDOW crowd texts nearest its length (see crowd_pairs). What this can miss: two texts of a crowd that
# are copies of each other but not of the pivot, and further apart in that order (MinHash bands still propose
# them when they share a band key fewer than minhash.MAX_BUCKET texts hold: a copy keeps its numbers).
CROWD_LIMIT = 16
CROWD_WINDOW = 16
# A cancelled analysis answers with the groups the index holds (kept_grouper) when it keeps at most this many
# verified pairs: grouping them at every threshold then takes a fraction of a second. A crowd of near-identical
# texts keeps far more, in long chains (5,002 texts 200 s into their analysis: 339,295 pairs, 3-6 s a
# threshold under load, over a minute for all 13): it answers with the identical copies alone (exact_grouper),
# at once, and the next scan shows the rest, scoring only the pairs not kept yet.
CANCELLED_KEPT_PAIRS = 20_000


@dataclass(frozen=True, slots=True)
class VerifySettings:
    """How candidates are found and confirmed. Plain values, shared by the CLI and the window."""

    long_radius: int = MAX_THRESHOLD
    medium_radius: int = 16
    medium_chars: int = 1500
    short_radius: int = 18
    short_chars: int = 400
    min_similarity: float = DEFAULT_MIN_SIMILARITY
    max_bytes: int = MAX_FILE_BYTES
    jobs: int = 0  # worker processes for re-reading texts (0: one per core)


DEFAULT_VERIFY = VerifySettings()


@contextmanager
def _maybe_pool(
    jobs: int, texts: int, cancel: CancelToken, from_texts: int = POOL_FROM_TEXTS
) -> Iterator[ProcessPoolExecutor | None]:
    """A process pool when there are `from_texts` texts or more to read (or work as long: `texts`), else None
    (in this process), its results taken promptly while it runs (workers.results_taken_promptly). The workers'
    fork server may be starting (a scan that read few files starts none): the pool is made once it forks, and
    a cancel meanwhile gives None at once (worker_server_ready), the caller then reading nothing."""
    workers = worker_count(jobs)
    if workers <= 1 or texts < from_texts or not worker_server_ready(cancel):
        yield None
        return
    with process_pool(workers) as pool, results_taken_promptly():
        yield pool


def text_similarity(left: str, right: str, boilerplate: frozenset[int] = frozenset()) -> float:
    """The similarity of two texts, 0..1: verify.similarity of their profiles without boilerplate (and limited
    by the notices they hold), the one figure the groups table, the diff header and the slider show. `boilerplate` must be the collection's
    (Grouper.boilerplate) for the figure to equal the stored score of the pair."""
    return similarity(verification_profile(left, boilerplate), verification_profile(right, boilerplate))


def text_relation(left: str, right: str, boilerplate: frozenset[int] = frozenset()) -> Relation:
    """text_similarity, and the share of each text the other holds (verify.relation), computed once."""
    return relation(verification_profile(left, boilerplate), verification_profile(right, boilerplate))


def boilerplate_sources(
    wanted: set[int], lines: LineHashes, chars: np.ndarray, has: np.ndarray | None = None
) -> dict[int, set[int]]:
    """Where each wanted boilerplate line's votes are computed: the shortest document that has it (`chars`:
    each document's length), as {row: the wanted hashes read from that row}. `has`: which of `lines.values`
    are wanted (LineHashes.holding(wanted)[0]), when the caller has it."""
    rows = np.repeat(np.arange(len(lines)), np.diff(lines.bounds))
    has = lines.holding(wanted)[0] if has is None else has
    hashes, rows = lines.values[has], rows[has]
    order = np.lexsort((rows, chars[rows]))  # the shortest document first (ties: the first row)
    first_hash, first = np.unique(hashes[order], return_index=True)
    by_row: dict[int, set[int]] = {}
    for h, row in zip(first_hash.tolist(), rows[order][first].tolist()):
        by_row.setdefault(row, set()).add(h)
    return by_row


def boilerplate_votes(
    wanted: set[int],
    lines: LineHashes,
    chars: np.ndarray,
    read_text: Callable[[int], str | None],
    settings: FeatureSettings,
) -> dict[int, np.ndarray]:
    """SimHash votes of each wanted boilerplate line, from the shortest document that has it (`chars`: each
    document's length; `read_text(row)`: its text, or None when it cannot be read any more)."""
    out: dict[int, np.ndarray] = {}
    for row, hashes_of_row in boilerplate_sources(wanted, lines, chars).items():
        text = read_text(row)
        if text is not None:
            out.update(line_votes(text, hashes_of_row, settings))
    return out


@contextmanager
def _boilerplate_votes_reading(
    texts: Texts,
    snap: Snapshot,
    wanted: set[int],
    lines: LineHashes,
    settings: FeatureSettings,
    jobs: int,
    cancel: CancelToken,
    has: np.ndarray | None = None,
) -> Iterator[Callable[[], dict[int, np.ndarray]]]:
    """boilerplate_votes of the snapshot's documents, their texts read and segmented in worker processes when
    there are many (the workers start with the segmenter and the IDF table loaded: this process would load
    them for these lines alone, ~2-4 s of CPU on a loaded machine). Given to the workers on entry; yields the
    call that waits for their votes ({} when cancelled), so this process works meanwhile. Without workers the
    texts are read when it is called. `has`: as boilerplate_sources takes it."""
    sources = boilerplate_sources(wanted, lines, snap.chars, has)
    items = [(snap.paths[row], hashes) for row, hashes in sources.items()]
    chunks = [items[c : c + TEXT_CHUNK] for c in range(0, len(items), TEXT_CHUNK)]
    fn = partial(line_votes_of, texts, settings=settings)
    with _maybe_pool(jobs, len(items), cancel, SEGMENTED_POOL_FROM) as pool:
        futures = [pool.submit(fn, chunk) for chunk in chunks] if pool is not None else []

        def votes() -> dict[int, np.ndarray]:
            if pool is None:
                results = map_chunks(fn, chunks, None, cancel)
            else:
                try:
                    results = [result_unless_cancelled(future, cancel) for future in futures]
                except Cancelled:
                    results = []
            out: dict[int, np.ndarray] = {}
            for result in results:
                for found in result:
                    out.update(found)
            return out

        try:
            yield votes
        finally:
            if pool is not None and (cancel.cancelled or not all(future.done() for future in futures)):
                stop_workers(pool)  # cancelled, or left unused: not waited for (see stop_workers)


def document_votes(
    texts: Texts,
    index: Index,
    snap: Snapshot,
    rows: list[int],
    settings: FeatureSettings,
    jobs: int = 0,
    cancel: CancelToken | None = None,
) -> dict[int, bytes]:
    """Packed SimHash votes of the given snapshot rows: those the scan on this connection kept, the others
    computed again from their texts (in worker processes when there are many); rows whose text cannot be
    read as indexed are left out."""
    have = index.scan_votes(int(snap.ids[r]) for r in rows)
    out = {r: have[int(snap.ids[r])] for r in rows if int(snap.ids[r]) in have}
    missing = [r for r in rows if r not in out]
    if not missing:
        return out
    chunks = [missing[c : c + TEXT_CHUNK] for c in range(0, len(missing), TEXT_CHUNK)]
    fn = partial(votes_of, texts, settings=settings)
    cancel = cancel or CancelToken()
    with _maybe_pool(jobs, len(missing), cancel, SEGMENTED_POOL_FROM) as pool:
        results = map_chunks(fn, [[(snap.paths[r], snap.hashes[r]) for r in chunk] for chunk in chunks], pool, cancel)
    for chunk, result in zip(chunks, results):
        out.update((r, v) for r, v in zip(chunk, result) if v is not None)
    return out


def clean_fingerprints(
    texts: Texts,
    index: Index,
    snap: Snapshot,
    state: tuple[LineHashes, np.ndarray, np.ndarray],
    boilerplate: frozenset[int],
    settings: FeatureSettings,
    jobs: int = 0,
    cancel: CancelToken | None = None,
) -> np.ndarray:
    """Each document's fingerprint without its boilerplate lines, stored in the index (`state`:
    Index.analysis_state(), read once by the caller). Cancelled, it stores nothing and returns what the
    index held (the next analysis computes them).

    SimHash votes add up over a text's parts, so a document's boilerplate-free fingerprint is the sign of
    its votes minus the votes of its boilerplate lines: only one document per boilerplate line is read
    again. The votes come from the scan on this connection; a document whose boilerplate changed at another
    time (its collection grew, lost documents) is read and its votes computed again. Recomputed only when
    the boilerplate a document holds changed. Notices (boilerplate.is_notice) are in `boilerplate` and stay
    in the fingerprint: a document whose notices changed gets its plain fingerprint again, and so its pairs
    are scored again (set_clean_fingerprints).
    """
    lines, clean, stored = state
    fps = stored.copy()
    before = index.clean_boilerplate()
    # a flagged document keeps its clean fingerprint unless it holds a line that became or ceased to be boilerplate
    need = ~clean
    if not need.all():  # a first analysis recomputes every document
        need |= lines.holding(before ^ boilerplate)[1] > 0
    held, counts = lines.holding(without_notices(boilerplate))
    rows = np.flatnonzero(need)
    plain = rows[counts[rows] == 0]  # no boilerplate line: its own fingerprint
    fps[plain] = snap.fingerprints[plain]
    updates: list[tuple[int, int | None]] = list(zip(snap.ids[plain].tolist(), snap.fingerprints[plain].tolist()))
    todo = rows[counts[rows] > 0]
    cancel = cancel or CancelToken()
    if len(todo):
        # each todo row's boilerplate hashes, one row after the other (the rows' values are in row order)
        flagged = np.zeros(len(lines), dtype=bool)
        flagged[todo] = True
        held &= np.repeat(flagged, np.diff(lines.bounds))
        hits = lines.values[held]
        lengths = counts[todo]
        wanted = set(np.unique(hits).tolist())
        ends = np.cumsum(lengths)
        # a first analysis recomputes every row holding a boilerplate line: `held` marks every wanted value
        has = held if need.all() else None
        # the lines' votes are computed in the workers while this process reads the first documents' own
        with _boilerplate_votes_reading(texts, snap, wanted, lines, settings, jobs, cancel, has) as line_votes:
            first = document_votes(texts, index, snap, todo[:VOTES_CHUNK].tolist(), settings, jobs, cancel)
            votes_of_lines = line_votes()
        for c in range(0, len(todo), VOTES_CHUNK):
            part, n = todo[c : c + VOTES_CHUNK], lengths[c : c + VOTES_CHUNK]
            part_hits = hits[ends[c] - n[0] : ends[c + len(part) - 1]]
            if c:
                tallies = document_votes(texts, index, snap, part.tolist(), settings, jobs, cancel)
            else:
                tallies, first = first, {}
            if cancel.cancelled:
                return stored
            # unreadable as indexed: the next analysis computes it again
            read = np.fromiter((r in tallies for r in part.tolist()), dtype=bool, count=len(part))
            updates.extend((doc_id, None) for doc_id in snap.ids[part[~read]].tolist())
            part_hits, part, n = part_hits[np.repeat(read, n)], part[read], n[read]
            found = _clean_fingerprints_flat(
                [tallies[r] for r in part.tolist()], part_hits, n, votes_of_lines, snap.fingerprints[part]
            )
            fps[part] = found
            updates.extend(zip(snap.ids[part].tolist(), found.tolist()))
    if updates or before != boilerplate:
        index.set_clean_fingerprints(updates, boilerplate)
    index.drop_scan_votes()
    return fps


def clean_fingerprint(packed_votes: bytes, hits: np.ndarray, line_votes: dict[int, np.ndarray], plain: int) -> int:
    """A document's fingerprint without its boilerplate lines: its stored votes (fingerprint.pack_votes) minus
    the votes of the boilerplate lines it holds (`hits`, without notices: they stay in fingerprints, see
    boilerplate.without_notices), or `plain` for a document of nothing but boilerplate (what is left is the
    rounding of the stored votes, under 1e-3 of their largest); `plain` too when the votes are not a packed
    tally (an empty blob). One document at a time (the cluster engines' executors): ~10 us where a call of
    clean_fingerprints_of for one document takes ~80 (its numpy calls); tests/core/test_clean_fingerprints.py
    holds the two equal bit for bit."""
    if not len(hits):
        return plain
    whole = unpack_votes(packed_votes)
    if whole is None:
        return plain
    zero = np.zeros(BITS)
    rest = whole - sum((line_votes.get(int(h), zero) for h in hits), zero)
    rounding = VOTES_LEFT * max(float(np.abs(whole).max()), 1e-9)
    return from_votes(rest, tie=rounding) if np.abs(rest).max() > rounding else plain


def clean_fingerprints_of(
    packed_votes: Sequence[bytes], hits: Sequence[np.ndarray], line_votes: dict[int, np.ndarray], plain: np.ndarray
) -> np.ndarray:
    """clean_fingerprint of many documents at once (uint64): the same sums in the same order (a document's line
    votes added one by one, in the order of its hits), as arrays: 4-5 us of CPU a document where one at a time
    took 11-15 us (5,000 documents of up to 12 lines, load 8; the medium collection recomputes 16,249)."""
    counts = np.fromiter(map(len, hits), dtype=np.int64, count=len(hits))
    flat = np.concatenate(hits) if len(hits) else np.zeros(0, dtype=np.uint32)
    return _clean_fingerprints_flat(packed_votes, flat, counts, line_votes, plain)


def _clean_fingerprints_flat(
    packed_votes: Sequence[bytes],
    flat: np.ndarray,
    counts: np.ndarray,
    line_votes: dict[int, np.ndarray],
    plain: np.ndarray,
) -> np.ndarray:
    """clean_fingerprints_of with the documents' hits one after the other in `flat` (`counts`: each document's)."""
    out = np.array(plain, dtype=np.uint64)
    valid = np.fromiter((len(blob) == 4 + 2 * BITS for blob in packed_votes), dtype=bool, count=len(packed_votes))
    rows = np.flatnonzero(valid & (counts > 0))
    if not len(rows):
        return out
    whole = unpack_votes_rows([packed_votes[k] for k in rows.tolist()])
    flat = flat.astype(np.int64)
    # the votes of the lines these documents hold as the rows of one table, in the order of their hashes (the
    # last row: zeros, for a line without votes): one document costs its own lines, not all of `line_votes`
    known = np.array([h for h in np.unique(flat).tolist() if h in line_votes], dtype=np.int64)
    table = np.zeros((len(known) + 1, BITS))
    for n, h in enumerate(known.tolist()):
        table[n] = line_votes[h]
    at = np.searchsorted(known, flat)
    picked = np.where(known[np.minimum(at, max(len(known) - 1, 0))] == flat, at, len(known)) if len(known) else at
    starts = (np.cumsum(counts) - counts)[rows]
    counts = counts[rows]
    # each document's line votes added one after the other from zeros, as the one-by-one sum did: its m-th
    # line's at the m-th turn (np.add.reduceat of the same rows took 4x as long)
    lines = np.zeros((len(rows), BITS))
    for m in range(int(counts.max())):
        have = np.flatnonzero(counts > m)
        lines[have] += table[picked[starts[have] + m]]
    rest = whole - lines
    rounding = VOTES_LEFT * np.maximum(np.abs(whole).max(axis=1), 1e-9)
    bits = from_votes_rows(rest, rounding)
    left = np.abs(rest).max(axis=1) > rounding
    out[rows[left]] = bits[left]
    return out


def pair_radius(chars: np.ndarray, verify: VerifySettings) -> np.ndarray:
    """The candidate radius for pairs whose shorter text has `chars` characters: shorter texts have fewer
    features, so near-duplicates among them lie further apart (the length-aware rule of docs/quality.md)."""
    radius = np.full(np.shape(chars), verify.long_radius, dtype=np.int64)
    radius[chars < verify.medium_chars] = max(verify.medium_radius, verify.long_radius)
    radius[chars < verify.short_chars] = max(verify.short_radius, verify.long_radius)
    return radius


def candidate_pairs(
    fps: np.ndarray, chars: np.ndarray, verify: VerifySettings, kernels: Any = KERNELS
) -> tuple[np.ndarray, ...]:
    """Pairs (i, j, distance, scaled distance) within the radius their shorter text's length allows.

    Pairs within long_radius come from the multi-index search (pairs.py); the wider radii of shorter texts
    are searched by comparing each shorter text with every longer one, in blocks, as long as that stays
    within BRUTE_FORCE_BUDGET comparisons (otherwise only the short class gets the wider radius, or none),
    by the compiled kernels (`kernels`: kernels.near_pairs, the same pairs in the same order) or in numpy.
    """
    i, j, d = pairs_within(fps, verify.long_radius, kernels)
    found = [(i, j, d.astype(np.int64))]
    order = np.lexsort((np.arange(len(chars)), chars))  # by length: a row's partners are the rows after it
    n = len(order)
    for limit in (verify.medium_chars, verify.short_chars):
        m = int(np.searchsorted(chars[order], limit))
        if m * n - m * m // 2 <= BRUTE_FORCE_BUDGET:
            break
    else:
        m = 0
    radius = pair_radius(chars[order[:m]], verify).astype(np.uint8)
    sorted_fps = np.ascontiguousarray(fps[order], dtype=np.uint64)
    if kernels is not None and m:
        near = _near_pairs_compiled(kernels, sorted_fps, radius, verify.long_radius)
    else:
        near = list(_near_pairs_numpy(sorted_fps, radius, verify.long_radius))
    for a, b, dd in near:  # positions in length order: back to rows
        x, y = order[a], order[b]
        found.append((np.minimum(x, y), np.maximum(x, y), dd.astype(np.int64)))
    i = np.concatenate([f[0] for f in found]).astype(np.int64)
    j = np.concatenate([f[1] for f in found]).astype(np.int64)
    d = np.concatenate([f[2] for f in found]).astype(np.int64)
    return _normalised(i, j, d, chars, verify)


def _near_pairs_compiled(
    kernels: Any, sorted_fps: np.ndarray, radius: np.ndarray, nearer: int
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """kernels.near_pairs of `sorted_fps` (the first len(radius) rows compared with every later one), its row
    blocks shared out among up to NEAR_PAIRS_THREADS threads (the kernel runs without the GIL; the workers are
    idle while pairs are searched): each thread takes a run of whole row blocks, about as many comparisons as
    the others (a block compares its rows with every later row), and their pairs, put one after the other, are
    the pairs of one call in its order."""
    m, n = len(radius), len(sorted_fps)
    starts = np.arange(0, m, BRUTE_FORCE_ROWS)
    work = np.cumsum((np.minimum(starts + BRUTE_FORCE_ROWS, m) - starts) * (n - starts))
    threads = min(NEAR_PAIRS_THREADS, os.cpu_count() or 1, len(starts))
    if threads < 2 or int(work[-1]) < NEAR_PAIRS_THREADS_FROM:
        parts = [(0, m)]
    else:  # row blocks split where the comparisons reach each thread's share
        cuts = np.searchsorted(work, work[-1] * np.arange(1, threads) / threads)
        bounds = [0, *sorted({int(starts[c]) for c in cuts.tolist() if 0 < c < len(starts)}), m]
        parts = list(zip(bounds, bounds[1:]))

    def search(part: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r0, r1 = part
        a, b, dd = kernels.near_pairs(sorted_fps[r0:], radius[r0:r1], nearer, BRUTE_FORCE_ROWS, BRUTE_FORCE_COLUMNS)
        a, b = np.frombuffer(a, dtype=np.int64) + r0, np.frombuffer(b, dtype=np.int64) + r0
        return a, b, np.frombuffer(dd, dtype=np.int8)

    if len(parts) == 1:
        return [search(parts[0])]
    with ThreadPoolExecutor(len(parts)) as pool:
        return list(pool.map(search, parts))


def _near_pairs_numpy(
    sorted_fps: np.ndarray, radius: np.ndarray, nearer: int
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(a, b, d) of each pair a < b of positions in `sorted_fps` at a distance above `nearer` and within
    radius[a] (the first len(radius) rows compared with every later one), block by block in the order
    kernels.near_pairs gives them."""
    n, m = len(sorted_fps), len(radius)
    for r0 in range(0, m, BRUTE_FORCE_ROWS):
        r1 = min(r0 + BRUTE_FORCE_ROWS, m)
        rows = sorted_fps[r0:r1, None]
        row_radius = radius[r0:r1, None]
        for c0 in range(r0, n, BRUTE_FORCE_COLUMNS):
            # uint8 distances: an int64 matrix of a block was 128 MB more at the pairing phase's peak
            dist = np.bitwise_count(rows ^ sorted_fps[None, c0 : c0 + BRUTE_FORCE_COLUMNS])
            a, b = np.nonzero((dist <= row_radius) & (dist > nearer))  # nearer: found by pairs_within
            dd = dist[a, b]
            a, b = a + r0, b + c0
            keep = b > a
            yield a[keep], b[keep], dd[keep]


def _normalised(
    i: np.ndarray, j: np.ndarray, d: np.ndarray, chars: np.ndarray, verify: VerifySettings
) -> tuple[np.ndarray, ...]:
    """(i < j, distance, scaled distance) for candidate pairs of snapshot rows."""
    i, j = np.minimum(i, j).astype(np.int64), np.maximum(i, j).astype(np.int64)
    return i, j, d.astype(np.int8), scaled_distance(d, np.minimum(chars[i], chars[j]), verify)


def scaled_distance(d: np.ndarray, shorter_chars: np.ndarray, verify: VerifySettings) -> np.ndarray:
    """Each pair's distance scaled to its radius (d * long_radius / radius, rounded up), so that one slider of
    0..long_radius serves pairs of every length; above long_radius for a pair outside its radius."""
    radius = pair_radius(shorter_chars, verify)
    return np.ceil(np.asarray(d) * verify.long_radius / radius).astype(np.int8)


def changed_candidates(
    fps: np.ndarray,
    chars: np.ndarray,
    ids: np.ndarray,
    dirty: np.ndarray,
    known: dict[tuple[int, int], float],
    verify: VerifySettings,
) -> tuple[np.ndarray, ...]:
    """The candidate pairs after a few documents changed: the kept pairs among unchanged documents (every
    candidate is kept in the index with its score) and every pair that involves a changed one, found by
    comparing the changed documents with all the others. Equal to candidate_pairs() on the same input."""
    row_of = {int(doc_id): row for row, doc_id in enumerate(ids.tolist())}
    old = [
        (row_of[a], row_of[b])
        for a, b in known
        if a in row_of and b in row_of and not dirty[row_of[a]] and not dirty[row_of[b]]
    ]
    found_i = [np.array([a for a, _ in old], dtype=np.int64)]
    found_j = [np.array([b for _, b in old], dtype=np.int64)]
    changed = np.flatnonzero(dirty)
    # a pair's radius is its shorter text's: each side's radius is computed once, and a block compares its
    # uint8 distances with the row's or the column's (5 full int64 matrices a block before: 14 s of the
    # 10,000-document first analysis measured under load, 2026-11-24)
    radius_of = pair_radius(chars, verify).astype(np.uint8)
    for r0 in range(0, len(changed), BRUTE_FORCE_ROWS):
        rows = changed[r0 : r0 + BRUTE_FORCE_ROWS]
        row_chars, row_radius = chars[rows, None], radius_of[rows, None]
        for c0 in range(0, len(fps), BRUTE_FORCE_COLUMNS):
            cols = np.arange(c0, min(c0 + BRUTE_FORCE_COLUMNS, len(fps)))
            dist = np.bitwise_count(fps[rows, None] ^ fps[None, cols])
            a, b = np.nonzero(
                np.where(row_chars <= chars[None, cols], dist <= row_radius, dist <= radius_of[None, cols])
            )
            a, b = rows[a], cols[b]
            keep = (a != b) & (~dirty[b] | (a < b))  # a pair of two changed documents once
            found_i.append(a[keep])
            found_j.append(b[keep])
    i = np.concatenate(found_i).astype(np.int64)
    j = np.concatenate(found_j).astype(np.int64)
    d = np.bitwise_count(fps[i] ^ fps[j]).astype(np.int64)
    return _normalised(i, j, d, chars, verify)


def crowd_stand_ins(fps: np.ndarray, rows: np.ndarray, limit: int = CROWD_LIMIT) -> np.ndarray:
    """For every snapshot row, the row that stands for it in the candidate search when it is in a crowd (one
    of more than `limit` of `rows` with one fingerprint: the first of them in path order), else -1."""
    out = np.full(len(fps), -1, dtype=np.int64)
    if not len(rows):
        return out
    values = fps[rows]
    order = rows[np.lexsort((rows, values))]
    starts = np.flatnonzero(np.r_[True, fps[order][1:] != fps[order][:-1]])
    counts = np.diff(np.r_[starts, len(order)])
    crowded = counts > limit
    for start, count in zip(starts[crowded].tolist(), counts[crowded].tolist()):
        out[order[start : start + count]] = order[start]
    return out


def crowd_pairs(
    i: np.ndarray, j: np.ndarray, stand_in: np.ndarray, chars: np.ndarray, window: int = CROWD_WINDOW
) -> tuple[np.ndarray, np.ndarray]:
    """The candidate pairs of rows (i < j) from the pairs the search found among stand-ins (`i`, `j`; a crowd
    is searched through its stand-in, crowd_stand_ins), each crowd's texts ordered by length, then path:
    - in a crowd, each text with its pivot (the stand-in) and with the `window` texts after it;
    - a pair of a stand-in and another row x: x with the pivot and with the `window` crowd texts nearest to its
      length; when x stands in for a crowd too, each of its texts likewise (and the other way round).
    Every other pair stays. Each text so gets at most ~3 `window` pairs and the pivots one per crowd text:
    linear in the crowd's size."""
    members = np.flatnonzero(stand_in >= 0)
    if not len(members):
        return i, j
    order = members[np.lexsort((members, chars[members], stand_in[members]))]  # by crowd, length, path
    crowd = stand_in[order]
    bounds = np.flatnonzero(np.r_[True, crowd[1:] != crowd[:-1], True])
    pivots = crowd[bounds[:-1]]
    rank = np.full(len(stand_in), -1, dtype=np.int64)  # stand-in row -> its crowd's number
    rank[pivots] = np.arange(len(pivots))
    lo, hi = bounds[:-1], bounds[1:]
    longest = np.int64(chars.max()) + 1
    keys = rank[crowd] * longest + chars[order]  # sorted: where a length falls in a crowd's order
    out_i, out_j = [crowd], [order]  # within a crowd: the pivot with each...
    for step in range(1, window + 1):  # ... and each with the next `window`
        same = crowd[:-step] == crowd[step:]
        out_i.append(order[:-step][same])
        out_j.append(order[step:][same])
    touched = (rank[i] >= 0) | (rank[j] >= 0)
    out_i.append(i[~touched])
    out_j.append(j[~touched])
    for near, pivot in ((i[touched], j[touched]), (j[touched], i[touched])):
        toward = rank[pivot] >= 0
        near, pivot = near[toward], pivot[toward]
        # the texts standing behind `near`: its crowd's when it stands in for one, else itself
        own = rank[near]
        sizes = np.where(own >= 0, (hi - lo)[own], 1)
        k = np.repeat(np.arange(len(near)), sizes)
        offsets = np.arange(len(k)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        texts = np.where(own[k] >= 0, order[np.minimum(lo[own[k]] + offsets, len(order) - 1)], near[k])
        target = rank[pivot[k]]
        out_i.append(texts)
        out_j.append(pivot[k])
        # the crowd's texts nearest in length: a window around where this text's length falls in its order
        at = np.searchsorted(keys, target * longest + chars[texts])
        begin = np.clip(at - window // 2, lo[target], np.maximum(hi[target] - window, lo[target]))
        for step in range(window):
            pos = begin + step
            ok = pos < hi[target]
            out_i.append(texts[ok])
            out_j.append(order[pos[ok]])
    a, b = np.concatenate(out_i), np.concatenate(out_j)
    a, b = np.minimum(a, b), np.maximum(a, b)
    n = np.int64(max(len(stand_in), 1))
    codes = np.unique((a * n + b)[a != b])
    return codes // n, codes % n


def simhash_candidates(
    fps: np.ndarray,
    plain: np.ndarray,
    chars: np.ndarray,
    ids: np.ndarray,
    copies: Copies,
    verify: VerifySettings,
    dirty: np.ndarray | None = None,
    kept_scores: Callable[[], dict] | None = None,
) -> tuple[tuple[np.ndarray, ...], bool]:
    """The SimHash candidate pairs (i, j, distance, scaled distance) among the representatives of identical
    copies (`copies`; the other copies get their pairs in with_copies), and whether the search was
    incremental. Texts without features (`plain` fingerprint 0) never pair: every one would pair with every
    other. A crowd is searched through a stand-in and its texts compared with a bounded few (crowd_pairs).
    `fps`: the clean fingerprints; with `dirty` (the representatives whose pairs must be searched again) and
    `kept_scores()` (the index's kept scores), only the dirty ones are searched when few and no crowd."""
    reps = copies.representatives
    searchable = reps[plain[reps] != 0]
    stand_in = crowd_stand_ins(fps, searchable)
    rows = searchable[(stand_in[searchable] < 0) | (stand_in[searchable] == searchable)]
    incremental = False
    if (
        dirty is not None
        and kept_scores is not None
        and not (stand_in >= 0).any()
        and dirty[rows].sum() * len(rows) <= INCREMENTAL_BUDGET
    ):
        incremental = True
        found = changed_candidates(fps[rows], chars[rows], ids[rows], dirty[rows], kept_scores(), verify)
    else:  # a crowd's pairs are made again from its stand-in's: the kept ones do not list them all
        found = candidate_pairs(fps[rows], chars[rows], verify)
    i, j = crowd_pairs(rows[found[0]], rows[found[1]], stand_in, chars)
    d = np.bitwise_count(fps[i] ^ fps[j]).astype(np.int64)
    # a crowd text longer than its stand-in has a narrower radius (a kept pair the bands found lies beyond it)
    within = (d <= pair_radius(np.minimum(chars[i], chars[j]), verify)) | ((stand_in[i] < 0) & (stand_in[j] < 0))
    return _normalised(i[within], j[within], d[within], chars, verify), incremental


def candidates(
    fps: np.ndarray,
    snap: Snapshot,
    copies: Copies,
    dirty: np.ndarray,
    keys: np.ndarray,
    empty: np.ndarray,
    kept_scores: Callable[[], dict],
    verify: VerifySettings,
) -> tuple[np.ndarray, ...]:
    """The candidate pairs (i, j, distance, scaled distance) among the representatives of identical copies:
    simhash_candidates and the MinHash band pairs (with_band_pairs) of the representatives."""
    found, incremental = simhash_candidates(
        fps, snap.fingerprints, snap.chars, snap.ids, copies, verify, dirty, kept_scores
    )
    copy = np.ones(len(fps), dtype=bool)
    copy[copies.representatives] = False
    return with_band_pairs(found, fps, snap.chars, keys, empty | copy, dirty if incremental else None, verify)


def band_flags(
    i: np.ndarray, j: np.ndarray, d: np.ndarray, plain: np.ndarray, chars: np.ndarray, verify: VerifySettings
) -> tuple[np.ndarray, np.ndarray]:
    """For candidate pairs (i, j at clean distance d) of `candidates`: (beyond, plain_near). `beyond`: the
    pair lies outside its radius, so only the MinHash bands proposed it; `plain_near`: such a pair whose plain
    fingerprints (`plain`: whole texts, boilerplate included) lie within the radius, a large copy group's
    members (see verify_pairs)."""
    radius = pair_radius(np.minimum(chars[i], chars[j]), verify)
    beyond = d > radius
    plain_near = beyond & (np.bitwise_count(plain[i] ^ plain[j]) <= radius)
    return beyond, plain_near


def kept_candidates(scores: np.ndarray, beyond: np.ndarray, plain_near: np.ndarray) -> np.ndarray:
    """The candidates whose scores stand (verify_pairs' scores: NaN for a pair candidate_relation did not
    keep): every pair within its radius, and a pair only the bands propose from BAND_MIN_SIMILARITY, or by the
    large copy groups' score."""
    return ~beyond | (scores >= BAND_MIN_SIMILARITY) | (plain_near & ~np.isnan(scores))


@dataclass(slots=True)
class _StepScores:
    """A verification step's pairs while they are scored: their positions in the pair arrays (`ks`), each chunk's
    positions with its result (a future of the pool, or the arrays scored in its read task or in this process),
    and the packed headlines of the rows let go after the step (kept when a pair of theirs reaches the least
    similarity, known once the step's scores are all in)."""

    ks: np.ndarray
    chunks: list[tuple[np.ndarray, Future | tuple[np.ndarray, np.ndarray]]] = field(default_factory=list)
    let_go: list[tuple[int, str]] = field(default_factory=list)
    shorts: list[tuple[int, bool]] = field(default_factory=list)  # (id, short text) of the rows it read
    counted: int = 0  # the first chunks whose pairs the progress reports counted
    planned: bool = False  # every chunk is under way and every row let go listed: its scores can be kept


def _scored_here(result: Future | tuple[np.ndarray, np.ndarray]) -> bool:
    """Whether a chunk's result is in: scored in a read task or in this process, or its future done."""
    return not isinstance(result, Future) or result.done()


@dataclass(slots=True)
class _KeptScores:
    """Where verify_pairs puts what it scores: each pair's score and shares (`out`, `held`, by position in the
    pair arrays `i`, `j` of snapshot rows), the rows with a pair reaching `min_similarity` (`paired`), the
    index's kept scores and short flags, and the headlines of the rows let go that pair (`headlines`)."""

    index: Index
    snap: Snapshot
    i: np.ndarray
    j: np.ndarray
    out: np.ndarray
    held: np.ndarray
    paired: np.ndarray
    headlines: dict[str, str] | None
    min_similarity: float
    wanted: np.ndarray | None = None  # bool by row: headlines kept whether or not the row pairs

    def settle(self, step: _StepScores, cancelled: bool = False) -> None:
        """Keep a step's scores (in the order of its pairs: the index stores them as it did in one process)
        and the headlines of its rows let go that pair (or `wanted`); cancelled, the scores that are in."""
        out, held, i, j, ids = self.out, self.held, self.i, self.j, self.snap.ids
        for ks, result in step.chunks:
            if isinstance(result, Future):
                if cancelled and (not result.done() or result.exception() is not None):
                    continue
                result = result.result()
            got, shares = result
            ks = ks[: len(got)]
            out[ks], held[ks] = got, shares
        ks = np.sort(step.ks)
        ks = ks[~np.isnan(out[ks])]  # NaN: not kept (or not scored before a cancel)
        reached = ks[out[ks] >= self.min_similarity]
        self.paired[i[reached]] = True
        self.paired[j[reached]] = True
        with self.index.transaction():  # the step's scores and short flags in one commit
            self.index.store_score_arrays(ids[i[ks]], ids[j[ks]], out[ks], held[ks])
            self.index.store_short_texts(step.shorts)
        if self.headlines is not None and not cancelled:
            wanted = self.wanted
            for r, head in step.let_go:  # a row let go early is read again, headline too
                if self.paired[r] or (wanted is not None and wanted[r]):
                    self.headlines[self.snap.paths[r]] = head


# A read task waiting or under way: its rows, the positions of the pairs it scores, and its future in the pool
# (or, in this process, the arguments it is run with when its result is wanted).
_ReadTask = tuple[np.ndarray, np.ndarray, Future | tuple]


class _StepScheduler:
    """The schedule of verify_pairs' work, step by step of a read plan: read tasks (read_and_scored: their
    texts' profiles, and the pairs both of whose texts a task reads scored there) go to the pool ahead of the
    step being scored, as many steps ahead as keep the profiles held or on their way within PROFILE_BATCH
    (read_ahead); the profiles they send back are held until their rows are let go; a step's other pairs are
    scored in this process, about SCORE_HERE_S of them between looks at the pool (here_batch), or sent to
    the workers in chunks of SCORE_CHUNK with their texts' profiles when the pool has room and they cost more to
    score than to send (worth_sending); each step's scores are kept (_KeptScores.settle) once all are in, oldest
    first. A step's read results are taken after the step before let its rows go (a row let go early is read
    again in a later step). This process runs a share of the first step's read tasks, the last ones (it has
    nothing to score meanwhile: the workers alone read a crowd's one step and scored its read tasks' pairs while
    it waited); without a pool it runs every task. Raises Cancelled when `cancel` is set: a cancel is seen
    before every pair scored here and every CANCEL_POLL_S while waiting for the workers."""

    def __init__(
        self,
        pool: ProcessPoolExecutor | None,
        workers: int,
        read_task: Callable[..., tuple[list, tuple[np.ndarray, np.ndarray]]],
        kept: _KeptScores,
        todo: np.ndarray,
        band: np.ndarray,
        near: np.ndarray,
        cancel: CancelToken,
        report: Callable[[str, int, int], None],
        reads: int,
        stored: StoredRows | None = None,
        held_limit: int = PROFILE_BATCH,
    ) -> None:
        self.pool = pool
        self.stored = stored
        self.workers = workers if pool is not None else 0
        self.queued = QUEUED_PER_WORKER * self.workers
        self.read_task = read_task
        self.kept = kept
        self.todo, self.band, self.near = todo, band, near
        self.cancel, self.report, self.reads = cancel, report, reads
        self.held_limit = held_limit
        self.profiles: dict[int, Profile] = {}  # the profiles sent back, by row, until the row is let go
        self.heads: dict[int, str] = {}  # the packed headlines of the rows read and not let go
        self.scoring: deque[_StepScores] = deque()  # the steps whose scores are not all kept yet, oldest first
        self.steps: Sequence[ReadStep] = ()
        self.ahead: deque[list[_ReadTask]] = deque()  # the read tasks of the steps submitted and not taken yet
        self.next_step = 0  # the first step whose read tasks are not submitted
        self.ahead_rows = 0  # the rows those read tasks read
        self.given, self.ended = 0, 0  # tasks given to the pool, and how many of them ended (_ended)
        self.ending = threading.Lock()
        self.read, self.done = 0, 0  # texts read, pairs scored
        self.here_s, self.here = 0.0, 0  # the CPU time of the pairs scored in this process, and how many

    def run(self, steps: Sequence[ReadStep]) -> None:
        """Read and score every step's pairs, keeping each step's scores as they are all in."""
        self.steps = steps
        if steps:  # the first step has nothing to score meanwhile: this process runs its share of its read tasks
            self.submit_next(here=len(steps[0].task_starts) // (self.workers + 1))
            self.read_ahead()
        for n, step in enumerate(steps):
            now = _StepScores(self.todo[np.r_[step.inside, step.pairs]])
            self.scoring.append(now)  # a cancel keeps what its read tasks scored
            self.take_reads(now)
            if self.next_step <= n + 1 < len(steps):  # the workers read the next step while this one is scored
                self.submit_next()
            self.read_ahead()
            if n == 0:
                self.report("scoring", 0, len(self.todo))
            self.score(step, now)
        self.collect(wait=True)

    def read_ahead(self) -> None:
        """Give the pool the read tasks of the steps after those submitted while the profiles held, with those
        on their way, stay within `held_limit`: the workers read on while this process scores the pairs of the
        steps before (a read plan's first steps have few pairs no read task scores, its last ones most)."""
        while (
            self.pool is not None
            and self.next_step < len(self.steps)
            and len(self.profiles) + self.ahead_rows + len(self.steps[self.next_step].read_rows) <= self.held_limit
        ):
            self.submit_next()

    def submit_next(self, here: int = 0) -> None:
        """Submit the read tasks of the next step not submitted (the last `here` run in this process)."""
        step = self.steps[self.next_step]
        self.ahead.append(self.submit(step, here))
        self.ahead_rows += len(step.read_rows)
        self.next_step += 1

    def submit(self, step: ReadStep, here: int = 0) -> list[_ReadTask]:
        """A step's read tasks, given to the pool but for the last `here` (without a pool: none), which are run
        in this process when taken (their arguments kept)."""
        i, j, paths = self.kept.i, self.kept.j, self.kept.snap.paths
        tasks: list[_ReadTask] = []
        pooled = len(step.task_starts) - here if self.pool is not None else 0
        for rows, inside, sent_back in step.tasks():
            ks = self.todo[inside]
            by_row = np.argsort(rows)
            left = by_row[np.searchsorted(rows[by_row], i[ks])]  # each pair's texts among the task's
            right = by_row[np.searchsorted(rows[by_row], j[ks])]
            where = self.stored.of(rows) if self.stored is not None else None
            args = ([paths[r] for r in rows.tolist()], left, right, self.band[ks], self.near[ks], sent_back, where)
            pool = self.pool if len(tasks) < pooled else None
            tasks.append((rows, ks, self.given_to(pool.submit(self.read_task, *args)) if pool is not None else args))
        return tasks

    def given_to(self, future: Future) -> Future:
        """A task given to the pool, counted until it ends (busy)."""
        self.given += 1
        future.add_done_callback(self._ended)
        return future

    def _ended(self, _: Future) -> None:
        """A task given to the pool ended (called on the pool's thread, or here when it had already ended)."""
        with self.ending:
            self.ended += 1

    def take_reads(self, now: _StepScores) -> None:
        """The oldest step's read tasks' results: those run in this process first, then the pool's as they come
        in. The profiles sent back are held, the headlines, short flags and pairs scored with them given to
        `now`."""
        ids = self.kept.snap.ids
        tasks = self.ahead.popleft()
        for rows, ks, task in sorted(tasks, key=lambda t: isinstance(t[2], Future)):
            if self.cancel.cancelled:
                raise Cancelled
            if isinstance(task, Future):
                got, scores = result_unless_cancelled(task, self.cancel)
            else:
                got, scores = self.read_task(*task, cancel=self.cancel)
                if len(scores[0]) < len(ks):
                    raise Cancelled
            for r, (prof, head, short) in zip(rows.tolist(), got):
                if prof is not None:
                    self.profiles[r] = prof
                self.heads[r] = head
                if short is not None:
                    now.shorts.append((int(ids[r]), short))
            now.chunks.append((ks, scores))
            self.ahead_rows -= len(rows)
            self.read += len(rows)
            self.report("verifying", self.read, self.reads)

    def score(self, step: ReadStep, now: _StepScores) -> None:
        """Score the step's pairs its read tasks did not (those whose texts two tasks read, or an earlier step),
        here or in the workers, then let its rows go."""
        cross = self.todo[step.pairs]
        i, j, profiles = self.kept.i, self.kept.j, self.profiles
        c = 0
        while c < len(cross):
            if self.cancel.cancelled:
                raise Cancelled
            self.collect(wait=False)
            ship = self.worth_sending(cross[c : c + SCORE_CHUNK])
            ks = cross[c : c + (SCORE_CHUNK if ship else self.here_batch())]
            c += len(ks)
            left = [profiles[r] for r in i[ks].tolist()]
            right = [profiles[r] for r in j[ks].tolist()]
            if self.pool is not None and ship:  # the profiles go with it, each once
                now.chunks.append(
                    (ks, self.given_to(self.pool.submit(scored, left, right, self.band[ks], self.near[ks])))
                )
                continue
            started = time.thread_time()
            got, shares = scored(left, right, self.band[ks], self.near[ks], self.cancel)
            self.here_s, self.here = self.here_s + time.thread_time() - started, self.here + len(got)
            now.chunks.append((ks, (got, shares)))
            if len(got) < len(ks):
                raise Cancelled
        for r in step.drops:  # a chunk under way holds the profiles it scores
            profiles.pop(r, None)  # a row whose pairs its read task scored all sent none back
            now.let_go.append((r, self.heads.pop(r)))
        now.planned = True

    def worth_sending(self, ks: np.ndarray) -> bool:
        """Whether the pairs `ks` cost more to score than to send their texts (first measured here), and the
        pool has room for them."""
        if self.pool is None or self.here < SCORE_HERE or self.busy() >= self.queued:
            return False
        texts = len(np.unique(np.concatenate([self.kept.i[ks], self.kept.j[ks]])))
        return self.here_s / self.here * len(ks) > SEND_MARGIN * SEND_S * texts

    def here_batch(self) -> int:
        """How many pairs to score here before the next look at the pool: about SCORE_HERE_S of them at the
        cost measured so far, from SCORE_HERE to SCORE_CHUNK."""
        if self.here < SCORE_HERE or self.here_s <= 0:
            return SCORE_HERE
        return int(min(SCORE_CHUNK, max(SCORE_HERE, SCORE_HERE_S * self.here / self.here_s)))

    def busy(self) -> int:
        """The tasks waiting in the pool or under way: read tasks and chunks of pairs given to it, not ended."""
        return self.given - self.ended

    def count(self) -> None:
        """Report the pairs scored, as their chunks come in."""
        before = self.done
        for step in self.scoring:
            while step.counted < len(step.chunks) and _scored_here(step.chunks[step.counted][1]):
                self.done += len(step.chunks[step.counted][0])
                step.counted += 1
        if self.done // SCORE_STEP > before // SCORE_STEP:
            self.report("scoring", self.done, len(self.todo))

    def collect(self, wait: bool) -> None:
        """Count the chunks scored and keep the scores of the steps whose chunks are all in, oldest first
        (`wait`: waiting for them; raises Cancelled)."""
        self.count()  # counts each step's chunks in order, up to the first not in: all in when it counted them all
        scoring = self.scoring
        while scoring and scoring[0].planned and (wait or scoring[0].counted == len(scoring[0].chunks)):
            for _, result in scoring[0].chunks:
                if isinstance(result, Future):
                    result_unless_cancelled(result, self.cancel)
                    self.count()
            self.kept.settle(scoring.popleft())

    def settle_cancelled(self) -> None:
        """Keep what is scored of every step under way (after a cancel)."""
        while self.scoring:
            self.kept.settle(self.scoring.popleft(), cancelled=True)


def verify_pairs(
    texts: Texts,
    index: Index,
    snap: Snapshot,
    i: np.ndarray,
    j: np.ndarray,
    boilerplate: frozenset[int],
    jobs: int = 0,
    cancel: CancelToken | None = None,
    on_progress: Callable[[str, int, int], None] | None = None,
    band_only: np.ndarray | None = None,
    plain_near: np.ndarray | None = None,
    headlines: dict[str, str] | None = None,
    min_similarity: float = DEFAULT_MIN_SIMILARITY,
    pool_from: int = POOL_FROM_TEXTS,
    read_chunk: int = TEXT_CHUNK,
    stored: StoredRows | None = None,
    plan_window: int = PLAN_WINDOW,
    profile_batch: int = PROFILE_BATCH,
    headline_rows: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The verification score of each candidate pair and the shares of each text the other holds
    (verify.relation: `held[k]` is (share of i[k]'s text in j[k]'s, share of j[k]'s in i[k]'s)); kept
    relations reused, new ones computed and kept.

    The texts involved are read in the worker processes, in the steps of a read_plan: each text is read when
    its first pair comes and let go after its last, and at most PROFILE_BATCH profiles are held (~2 KB each: a
    million documents' profiles would take gigabytes). A step's texts are read in tasks of up to `read_chunk`
    texts, each of texts that pair with each other as far as they fit, and a task scores the pairs both of
    whose texts it reads (pair_scores.read_and_scored: 15% of the medium collection's pairs, 11% of a crowd's),
    sending back only the profiles of texts with other pairs. Those other pairs are scored in chunks of
    SCORE_CHUNK pairs that share their texts (read_plan's tiles): a chunk goes to the workers, its texts'
    profiles with it, while fewer than QUEUED_PER_WORKER tasks a worker wait there and its pairs cost more to
    score than to send (SEND_MARGIN); otherwise SCORE_HERE to SCORE_CHUNK pairs (about SCORE_HERE_S of them)
    are scored in this process before the queue is looked at again (_StepScheduler). The workers read the steps
    ahead, as many as keep the profiles held and on their way within PROFILE_BATCH, while this process scores
    (a crowd of near-identical texts: hundreds of pairs a text, a millisecond each, most of them scored by two
    workers; the medium collection's pairs score in about the time their profiles take to be sent, and those no
    read task scores are scored here). Workers are used from `pool_from` texts to read, a pair counting
    1 / PAIRS_A_TEXT of a text. Each step reports `on_progress(phase, done, total)`: "verifying" counts the
    texts read, "scoring" the pairs scored (every SCORE_STEP or so). A cancel is seen before every pair scored
    here and every 50 ms while waiting for the workers, which are then stopped; the pairs whose scores are in
    are kept.
    A pair flagged in `band_only` (proposed by the MinHash bands alone) is kept only when it reaches
    BAND_MIN_SIMILARITY without the whole-containment rule (verify.similarity(..., whole=False)): a saying
    found whole inside a text four times its size is how a collage quotes it, not a copy; the others get
    NaN and are not kept, so they are never candidates again until one of their texts changes. A band pair
    also flagged in `plain_near` (the fingerprints of the whole texts, frequent lines included, lie within
    the radius) is also kept when the large copy groups' score (verify.crowd_score) reaches its score or
    DEFAULT_MIN_SIMILARITY: members of such a group keep only their edited lines without frequent lines, and so
    do their clean fingerprints (pair_scores.candidate_relation).

    `headlines`, when given, gets the packed headline (headline.packed_headline, read from the same text as the
    profile) of each text read that has a pair scoring `min_similarity` or more, by path: the groups' members
    verification read, whose texts the report then does not read again. The others' are let go with their
    profiles, so what is kept grows with the groups, not the collection. Whether each text read is short
    (reread.measured_short) is stored in the index with the step's scores (Index.store_short_texts), so a
    clean-up plan reads no file (stored_short_texts). `headline_rows`: rows whose headlines `headlines` gets
    whether or not they pair (the representatives of identical copies: their group is shown whatever their
    scores); those no pair has read are read in a step of their own after the others (headline_step), by the
    workers while this process scores the last pairs. `stored`: where the scan pass stored the texts it read
    (scratch_texts): those are loaded instead of read again. `plan_window`, `profile_batch`: read_plan's texts a
    step and most texts held (the workers read ahead within `profile_batch` too)."""
    report = on_progress or (lambda phase, done, total: None)
    known = index.scores()
    ids = snap.ids
    out = np.full(len(i), np.nan)
    held = np.full((len(i), 2), np.nan)
    if known:
        todo = []
        for k, (a, b) in enumerate(zip(i.tolist(), j.tolist())):
            s = known.get((int(min(ids[a], ids[b])), int(max(ids[a], ids[b]))))
            if s is None:
                todo.append(k)
            else:
                out[k] = s.score
                held[k] = s.shares(swapped=ids[a] > ids[b])
        todo_arr = np.array(todo, dtype=np.int64)
    else:  # a first analysis: no Python list of every candidate (millions at a million documents)
        todo_arr = np.arange(len(i), dtype=np.int64)
    del known
    if not len(todo_arr):
        return out, held
    paired = np.zeros(len(snap), dtype=bool)  # rows with a pair scoring min_similarity or more: headlines kept
    with np.errstate(invalid="ignore"):
        good = out >= min_similarity
    paired[i[good]] = paired[j[good]] = True
    band = np.zeros(len(i), dtype=bool) if band_only is None else band_only
    near = np.zeros(len(i), dtype=bool) if plain_near is None else plain_near
    cancel = cancel or CancelToken()
    steps = read_plan(i[todo_arr], j[todo_arr], len(snap), profile_batch, plan_window, chunk=read_chunk)
    wanted = None
    if headlines is not None and headline_rows is not None and len(headline_rows):
        wanted = np.zeros(len(snap), dtype=bool)
        wanted[headline_rows] = True
        unread = wanted.copy()
        unread[np.concatenate([step.read_rows for step in steps])] = False
        if unread.any():
            steps.append(headline_step(np.flatnonzero(unread), read_chunk))
    reads = sum(len(step.read_rows) for step in steps)
    kept = _KeptScores(index, snap, i, j, out, held, paired, headlines, min_similarity, wanted)
    read_task = partial(read_and_scored, texts, boilerplate=boilerplate)
    report("verifying", 0, reads)
    with _maybe_pool(jobs, reads + len(todo_arr) // PAIRS_A_TEXT, cancel, pool_from) as pool:
        scheduler = _StepScheduler(
            pool,
            worker_count(jobs),
            read_task,
            kept,
            todo_arr,
            band,
            near,
            cancel,
            report,
            reads,
            stored,
            profile_batch,
        )
        try:
            scheduler.run(steps)
        except Cancelled:  # what is scored is kept
            scheduler.settle_cancelled()
            if pool is not None:
                stop_workers(pool)  # the waiting futures end broken with the pool (see stop_workers)
            return out, held
    report("scoring", len(todo_arr), len(todo_arr))
    return out, held


@dataclass(frozen=True, slots=True)
class ReadStep:
    """One step of verification: read these rows' texts in read tasks of consecutive rows (`task_starts`), each
    task also scoring the pairs both of whose texts it reads (`inside`, task by task: `inside_starts`) and
    sending back the profiles of its rows that have another pair (`sent_back`); score the other pairs
    (`pairs`) on those profiles; let these rows' profiles go. The rows are kept as arrays (a million
    documents' plan held ~2.3 million Python ints in lists: ~80 MB) and given as lists (`reads`, `drops`)."""

    read_rows: np.ndarray
    pairs: np.ndarray  # positions in the pair arrays given to read_plan, in tiles of their rows (SCORE_TILE)
    drop_rows: np.ndarray
    task_starts: np.ndarray  # where each read task's rows begin in read_rows
    inside: np.ndarray  # positions of the pairs the read tasks score, task by task
    inside_starts: np.ndarray  # where each read task's pairs begin in inside
    sent_back: np.ndarray  # bool, by read row: a pair of it is in `pairs` or in a later step

    @property
    def reads(self) -> list[int]:
        return self.read_rows.tolist()

    @property
    def drops(self) -> list[int]:
        return self.drop_rows.tolist()

    def tasks(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Each read task's rows, the positions of the pairs it scores and which rows' profiles it sends back."""
        rows, pairs = np.r_[self.task_starts, len(self.read_rows)], np.r_[self.inside_starts, len(self.inside)]
        for t in range(len(self.task_starts)):
            yield (
                self.read_rows[rows[t] : rows[t + 1]],
                self.inside[pairs[t] : pairs[t + 1]],
                self.sent_back[rows[t] : rows[t + 1]],
            )


def headline_step(rows: np.ndarray, chunk: int = TEXT_CHUNK) -> ReadStep:
    """A step that reads `rows` in tasks of `chunk` and lets them go: no pair of theirs to score, their
    headlines and short flags alone are wanted (verify_pairs' headline_rows)."""
    empty = np.zeros(0, dtype=np.int64)
    starts = np.arange(0, len(rows), chunk, dtype=np.int64)
    return ReadStep(rows, empty, rows, starts, empty, np.zeros(len(starts), dtype=np.int64), np.zeros(len(rows), bool))


def read_plan(
    a: np.ndarray,
    b: np.ndarray,
    rows: int,
    limit: int,
    window: int = PLAN_WINDOW,
    tile: int = SCORE_TILE,
    chunk: int = TEXT_CHUNK,
) -> list[ReadStep]:
    """Steps that score every pair (a[k], b[k]) once, reading each text when its first pair comes and
    letting it go after its last, with at most about `limit` texts held between steps.

    Rows are taken in reverse Cuthill-McKee order of the pairs' graph (each connected set of pairs
    together, neighbours near each other), `window` rows a step; a pair is scored in the step of its later
    row. A text still needed when more than `limit` are held is let go, the one needed latest first, and
    read again when its pair comes: the only texts read twice (none when no set of pairs is that wide).
    A step's texts are read in tasks of at most `chunk` (_read_tasks: the texts that pair with each other
    within the step together as far as they fit), and a pair both of whose texts one task reads is scored
    there. The step's other pairs come in tiles of `tile` x `tile` rows of that order, so that a few pairs in
    a row share their texts (verify_pairs scores them in chunks, each text's profile sent once with its chunk).
    """
    if len(a) == 0:
        return []
    from scipy.sparse import coo_matrix  # where it is used: see SPARSE_GRAPHS
    from scipy.sparse.csgraph import reverse_cuthill_mckee

    graph = coo_matrix((np.ones(len(a), dtype=np.int8), (a, b)), shape=(rows, rows)).tocsr()
    perm = reverse_cuthill_mckee((graph + graph.T).tocsr(), symmetric_mode=True)
    involved = np.zeros(rows, dtype=bool)
    involved[a] = involved[b] = True
    order = perm[involved[perm]]
    pos = np.full(rows, -1, dtype=np.int64)
    pos[order] = np.arange(len(order))
    step_of = np.maximum(pos[a], pos[b]) // window
    last = np.full(rows, -1, dtype=np.int64)
    np.maximum.at(last, a, step_of)
    np.maximum.at(last, b, step_of)
    by_step = np.argsort(step_of, kind="stable")
    bounds = np.searchsorted(step_of[by_step], np.arange(int(step_of.max()) + 2))
    held: set[int] = set()
    crossing = np.zeros(rows, dtype=bool)  # rows with a pair no read task scores: their profiles are sent back
    planned = []
    for w in range(len(bounds) - 1):
        pairs = by_step[bounds[w] : bounds[w + 1]]
        need = np.unique(np.concatenate([a[pairs], b[pairs]]))
        reads = np.array([r for r in need.tolist() if r not in held], dtype=np.int64)
        held.update(reads.tolist())
        drops = need[last[need] == w].tolist()
        held.difference_update(drops)
        if len(held) > limit:  # wider than the limit: the texts needed latest are read again later
            # in numpy: a sort of the ~25,000 held rows by a Python key each step took seconds at a million
            kept = np.fromiter(held, dtype=np.int64, count=len(held))
            spill = kept[np.argsort(-last[kept], kind="stable")[: len(held) - limit]].tolist()
            drops += spill
            held.difference_update(spill)
        reads, starts, inside, inside_starts, pairs = _read_tasks(reads, pairs, a, b, pos, chunk)
        crossing[a[pairs]] = crossing[b[pairs]] = True
        first, second = np.minimum(pos[a[pairs]], pos[b[pairs]]), np.maximum(pos[a[pairs]], pos[b[pairs]])
        pairs = pairs[np.lexsort((second, first, second // tile, first // tile))]
        planned.append((reads, pairs, np.array(drops, dtype=np.int64), starts, inside, inside_starts))
    return [ReadStep(*step, sent_back=crossing[step[0]]) for step in planned]


def _read_tasks(
    reads: np.ndarray, pairs: np.ndarray, a: np.ndarray, b: np.ndarray, pos: np.ndarray, chunk: int
) -> tuple[np.ndarray, ...]:
    """A step's rows to read in tasks of at most `chunk`, and which of its pairs (positions in `a`, `b`) each
    task scores: (the rows task by task, where each task begins, the pairs the tasks score task by task, where
    each task's begin, the other pairs). The connected sets of the pairs among the rows read (in the plan's
    order `pos` of their first row, each in that order) are packed into tasks, a set longer than a task cut;
    a pair is a task's when both its rows are. Measured on the medium collection (20,000 files, 94,485 pairs,
    10 steps): its read tasks score 14,070 pairs this way, 9,316 in tasks of consecutive rows of the plan's
    order, 1,137 of rows in path order; 26,206 pairs have both texts read in their step (the others pair a
    text read in an earlier step). A crowd of 1,002 near-identical texts: 13,263 of 121,655."""
    empty = np.zeros(0, dtype=np.int64)
    if not len(reads):
        return reads, empty, empty, empty, pairs
    rows = np.sort(reads)
    la, lb = (np.minimum(np.searchsorted(rows, x[pairs]), len(rows) - 1) for x in (a, b))
    both = (rows[la] == a[pairs]) & (rows[lb] == b[pairs])
    la, lb = la[both], lb[both]
    from scipy.sparse import coo_matrix  # where it is used: see SPARSE_GRAPHS
    from scipy.sparse.csgraph import connected_components

    graph = coo_matrix((np.ones(len(la), dtype=np.int8), (la, lb)), shape=(len(rows), len(rows)))
    _, label = connected_components(graph, directed=False)
    first = np.full(int(label.max()) + 1, len(pos), dtype=np.int64)
    np.minimum.at(first, label, pos[rows])
    order = np.lexsort((pos[rows], first[label]))
    run = np.flatnonzero(np.r_[True, label[order][1:] != label[order][:-1], True])
    starts: list[int] = []
    at, fill = 0, chunk
    for size in np.diff(run).tolist():
        if fill + size > chunk:  # the set begins a task
            starts.append(at)
            fill = 0
            while size > chunk:  # a set longer than a task: cut
                at, size = at + chunk, size - chunk
                starts.append(at)
        at, fill = at + size, fill + size
    task_starts = np.array(starts, dtype=np.int64)
    task = np.empty(len(rows), dtype=np.int64)
    task[order] = np.searchsorted(task_starts, np.arange(len(rows)), side="right") - 1
    same = np.flatnonzero(both)[task[la] == task[lb]]  # the pairs a task scores, in their order
    mine = np.zeros(len(pairs), dtype=bool)
    mine[same] = True
    owner = task[np.minimum(np.searchsorted(rows, a[pairs[same]]), len(rows) - 1)]
    by_task = np.argsort(owner, kind="stable")
    inside = pairs[same][by_task]
    inside_starts = np.searchsorted(owner[by_task], np.arange(len(task_starts)))
    return rows[order], task_starts, inside, inside_starts, pairs[~mine]


def collection_boilerplate(index: Index, hashes: Sequence[str] | None = None) -> frozenset[int]:
    """The boilerplate line hashes of an indexed collection, from the line hashes stored at scan time (the
    set verification strips; the diff needs it to show the same similarity as the groups). Identical copies
    count once (boilerplate.class_boilerplate); `hashes`: the content hash of each snapshot row, when the caller
    has read them."""
    lines = index.line_hashes()
    return _collection_boilerplate(lines, index.snapshot().hashes if hashes is None else hashes)


def _collection_boilerplate(lines: LineHashes, hashes: Sequence[str]) -> frozenset[int]:
    """collection_boilerplate from the line hashes and content hashes already read (snapshot rows)."""
    return class_boilerplate(lines, identical_copies(hashes).representatives)


def stored_short_texts(index: Index, snap: Snapshot, boilerplate: frozenset[int]) -> np.ndarray | None:
    """Whether each snapshot row's text is short as verification stored it (Index.short_texts, for the rows
    reread.short_document asks about: at most SHORT_BYTES bytes): int8, 1 or 0, -1 where none is stored (the
    clean-up reads that text). None when `boilerplate`, the set the groups are shown without, is not the set
    the stored flags were measured without (a scan changed it and its analysis was cancelled)."""
    if boilerplate != index.clean_boilerplate():
        return None
    ids, short = index.short_texts(SHORT_BYTES)
    out = np.full(len(snap), -1, dtype=np.int8)
    by_id = np.argsort(snap.ids, kind="stable")
    at = np.searchsorted(snap.ids[by_id], ids)
    found = at < len(by_id)
    found[found] = snap.ids[by_id[at[found]]] == ids[found]
    out[by_id[at[found]]] = short[found]
    return out


def verify_rules(verify: VerifySettings) -> str:
    """What the kept candidates and scores of an index depend on (stored; a change searches and scores again)."""
    return (
        f"{VERIFY_VERSION} {verify.long_radius} {verify.medium_radius} {verify.medium_chars} "
        f"{verify.short_radius} {verify.short_chars} {BAND_RULES} {SINGLE_BAND_RADIUS} "
        f"copies crowds {CROWD_LIMIT} {CROWD_WINDOW}"
    )


def with_band_pairs(
    found: tuple[np.ndarray, ...],
    fps: np.ndarray,
    chars: np.ndarray,
    keys: np.ndarray,
    empty: np.ndarray,
    dirty: np.ndarray | None,
    verify: VerifySettings,
) -> tuple[np.ndarray, ...]:
    """The SimHash candidates `found` (i, j, distance, scaled distance) and the pairs sharing a MinHash band
    (`keys`, `empty`: Index.band_keys), each once; with `dirty`, only band pairs involving a changed document
    (the others are among the kept candidates). A pair beyond its radius gets the widest scaled distance."""
    i, j, d, scaled = found
    bi, bj = band_pairs(keys, empty)
    if dirty is not None:
        keep = dirty[bi] | dirty[bj]
        bi, bj = bi[keep], bj[keep]
    # the hopeful ones first, then those SimHash did not find: at a million documents most band pairs share one
    # band and lie far apart, and the membership test sorts what it is given
    bd = np.bitwise_count(fps[bi] ^ fps[bj])  # uint8: 1 B a band pair, not 8, until the few kept are joined
    # texts both within edit similarity's reach (verify.EDIT_CHARS) are compared whatever their fingerprints
    hopeful = (bd <= SINGLE_BAND_RADIUS) | (np.maximum(chars[bi], chars[bj]) <= EDIT_CHARS)
    rest = np.flatnonzero(~hopeful)
    ri, rj = bi[rest], bj[rest]
    shared = np.zeros(len(rest), dtype=np.int8)
    for band in range(keys.shape[1]):
        shared += keys[ri, band] == keys[rj, band]
    hopeful[rest[shared > 1]] = True
    del ri, rj, rest, shared  # not held through the membership test below
    bi, bj, bd = bi[hopeful], bj[hopeful], bd[hopeful]
    n = max(len(fps), 1)
    new = ~np.isin(bi * n + bj, np.minimum(i, j) * n + np.maximum(i, j))
    bi, bj, bd = bi[new], bj[new], bd[new]
    i, j, d, bscaled = _normalised(np.r_[i, bi], np.r_[j, bj], np.r_[d.astype(np.int64), bd], chars, verify)
    return i, j, d, np.minimum(np.r_[scaled, bscaled[len(scaled) :]], verify.long_radius).astype(np.int8)


def verified_grouper(
    snap: Snapshot,
    i: np.ndarray,
    j: np.ndarray,
    scaled: np.ndarray,
    scores: np.ndarray,
    held: np.ndarray,
    verify: VerifySettings,
    ignored: Iterable[tuple[str, str]] = (),
    boilerplate: frozenset[int] = frozenset(),
    read_headlines: Mapping[str, str] | None = None,
    short: np.ndarray | None = None,
) -> Grouper:
    """groups.Grouper over verified pairs of snapshot rows (their scaled distances, scores and shares),
    regrouping at any scaled distance up to the long radius: the desktop's and the cluster engines'
    (`read_headlines`, `short`: see Grouper)."""
    return Grouper(
        snap,
        i,
        j,
        scaled,
        max_threshold=verify.long_radius,
        ignored=ignored,
        scores=scores,
        min_similarity=verify.min_similarity,
        boilerplate=boilerplate,
        held=held,
        read_headlines=read_headlines,
        short=short,
    )


def kept_grouper(
    index: Index,
    verify: VerifySettings = DEFAULT_VERIFY,
    snap: Snapshot | None = None,
    boilerplate: frozenset[int] | None = None,
) -> Grouper:
    """The verified groups an index holds without analysing anything: the pairs scored by earlier analyses
    (kept in the index) and the identical copies (scored 1.0, as verification scores them), at the
    distances of the fingerprints their pairs were searched with, each class of identical copies given its
    representative's pairs (copies.with_copies). What a cancelled scan shows: whole-array
    work and three reads of the index (0.3 s at 20,000 documents), where an analysis takes a minute. An
    analysis passes the snapshot and the boilerplate it read (`snap`, `boilerplate`: else read here)."""
    snap = index.snapshot() if snap is None else snap
    paired, known = index.paired_fingerprints()
    fps = np.where(known, paired, snap.fingerprints)
    kept = index.scores()
    a = np.fromiter((x for x, _ in kept), dtype=np.int64, count=len(kept))
    b = np.fromiter((y for _, y in kept), dtype=np.int64, count=len(kept))
    s = np.fromiter((r.score for r in kept.values()), dtype=np.float64, count=len(kept))
    h = np.fromiter(
        (x for r in kept.values() for x in (r.a_in_b, r.b_in_a)), dtype=np.float64, count=2 * len(kept)
    ).reshape(-1, 2)
    del kept
    by_id = np.argsort(snap.ids)
    sorted_ids = snap.ids[by_id]
    rows = []
    for ids in (a, b):
        at = np.minimum(np.searchsorted(sorted_ids, ids), max(len(sorted_ids) - 1, 0))
        rows.append((by_id[at] if len(sorted_ids) else at, sorted_ids[at] == ids if len(sorted_ids) else at < 0))
    (i, found_i), (j, found_j) = rows
    both = found_i & found_j
    copies = identical_copies(snap.hashes, known)  # the representatives analyse chose
    fps = fps[copies.rep]  # a copy's fingerprint is its representative's (a copy not searched has its plain one)
    i, j, s, h = copies.rep[i[both]], copies.rep[j[both]], s[both], h[both]
    h = swap_shares(h, i > j)  # the shares follow the pair's rows: (share of i in j, share of j in i)
    i, j = np.minimum(i, j), np.maximum(i, j)
    n = max(len(snap), 1)
    _, first = np.unique(i * n + j, return_index=True)  # a pair kept twice (an index of before the classes): once
    first = first[i[first] != j[first]]
    i, j, source, swapped = with_copies(copies, i[first], j[first])
    s, h = copied_values(s[first], source, 1.0), copied_shares(h[first], source, swapped)
    d = np.bitwise_count(fps[i] ^ fps[j]).astype(np.int64)
    scaled = np.minimum(scaled_distance(d, np.minimum(snap.chars[i], snap.chars[j]), verify), verify.long_radius)
    clean = Snapshot(
        snap.ids, fps, snap.sizes, snap.mtimes, snap.chars, snap.paths, snap.hashes, snap.encodings, copies.rep
    )
    if boilerplate is None:
        boilerplate = collection_boilerplate(index, snap.hashes)
    short = stored_short_texts(index, snap, boilerplate)
    return verified_grouper(clean, i, j, scaled, s, h, verify, index.ignored_pairs(), boilerplate, short=short)


def cancelled_grouper(
    index: Index,
    verify: VerifySettings = DEFAULT_VERIFY,
    snap: Snapshot | None = None,
    boilerplate: frozenset[int] | None = None,
    kept_pairs: int = CANCELLED_KEPT_PAIRS,
) -> Grouper:
    """What a cancelled analysis or scan shows, within a second: the groups the index holds (kept_grouper) when
    it keeps at most `kept_pairs` verified pairs, else the identical copies alone (exact_grouper)."""
    if index.keeps_more_scores_than(kept_pairs):
        return exact_grouper(index, verify.min_similarity)
    return kept_grouper(index, verify, snap, boilerplate)


def analyse(
    root: Path,
    index: Index,
    settings: FeatureSettings = DEFAULT_FEATURES,
    verify: VerifySettings = DEFAULT_VERIFY,
    on_progress: Callable[[Progress], None] | None = None,
    cancel: CancelToken | None = None,
    scratch: ScratchTexts | None = None,
) -> Grouper:
    """Verified groups of an indexed folder (see the module docstring). The returned Grouper regroups at
    any scaled distance 0..long_radius and any minimum score in memory. Texts are read under `root`, or by
    URI for an index imported from a bundle of an object store or a dataset (texts.TEXTS_META). Cancelled,
    it keeps the scores computed so far and returns what cancelled_grouper returns. `scratch`: the store of
    the texts the scan just run on this index read (scratch_texts), which verification loads."""
    texts = texts_of(root, index, verify.max_bytes)
    started = time.perf_counter()

    def report(phase: str, done: int = 0, total: int = 0) -> None:
        if on_progress is not None:
            on_progress(Progress(phase, done, total, time.perf_counter() - started))

    snap = index.snapshot()
    rules = verify_rules(verify)
    if index.meta("verify_rules") != rules:  # other radii or another score: search and score again
        index.forget_pairing()
        with index.transaction():
            index.set_meta("verify_rules", rules)
    cancel = cancel or CancelToken()
    report("boilerplate")
    state = index.analysis_state()
    boilerplate = _collection_boilerplate(state[0], snap.hashes)
    fps = clean_fingerprints(texts, index, snap, state, boilerplate, settings, verify.jobs, cancel)
    del state
    release_freed_memory()  # each phase starts from what is held, not from the peak of the one before
    if cancel.cancelled:
        return cancelled_grouper(index, verify, snap, boilerplate)
    clean = Snapshot(snap.ids, fps, snap.sizes, snap.mtimes, snap.chars, snap.paths, snap.hashes, snap.encodings)
    report("pairing")
    paired, known = index.paired_fingerprints()
    searched = known & (paired == fps)
    copies = identical_copies(snap.hashes, searched)  # a class searched before keeps its representative
    dirty = np.zeros(len(fps), dtype=bool)
    dirty[copies.representatives] = ~searched[copies.representatives]
    keys, empty = index.band_keys(DESKTOP.bands)
    i, j, d, scaled = candidates(fps, snap, copies, dirty, keys, empty, index.scores, verify)
    del keys, empty, paired  # ~100 MB at a million documents, not held while verifying
    release_freed_memory()  # the search's temporaries, its threads' among them
    if cancel.cancelled:
        return cancelled_grouper(index, verify, snap, boilerplate)
    beyond, plain_near = band_flags(i, j, d, snap.fingerprints, snap.chars, verify)
    headlines: dict[str, str] = {}  # the groups' members verification reads: the report does not read them again
    # the texts the scan kept (not read again), looked up after the pair search: not held through its peak
    stored = None if scratch is None else scratch.stored_rows(snap)
    with index.scores_indexed_after():
        scores, held = verify_pairs(
            texts,
            index,
            clean,
            i,
            j,
            boilerplate,
            verify.jobs,
            cancel,
            report,
            beyond,
            plain_near,
            headlines,
            verify.min_similarity,
            stored=stored,
            headline_rows=np.unique(copies.rep[copies.sizes > 1]),
        )
    if cancel.cancelled:  # what was scored is kept: the pairs scored before and now, and the identical copies
        return cancelled_grouper(index, verify, snap, boilerplate)
    if dirty.any():
        index.set_paired_fingerprints((int(snap.ids[r]), int(fps[r])) for r in np.flatnonzero(dirty))
    release_freed_memory()
    report("done", len(i), len(i))
    keep = kept_candidates(scores, beyond, plain_near)
    i, j, source, swapped = with_copies(copies, i[keep], j[keep])  # the other copies of each class get its pairs
    scaled, scores = copied_values(scaled[keep], source, 0), copied_values(scores[keep], source, 1.0)
    held = copied_shares(held[keep], source, swapped)
    snapshot = replace(clean, copy_of=copies.rep)
    short = stored_short_texts(index, snap, boilerplate)
    return verified_grouper(
        snapshot, i, j, scaled, scores, held, verify, index.ignored_pairs(), boilerplate, headlines, short
    )
