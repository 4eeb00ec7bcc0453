"""From an up-to-date index to verified groups: boilerplate-free fingerprints, length-aware SimHash
candidates, and an exact check of each candidate on the texts (verify.py).

    grouper = analyse(root, index)
    grouping = grouper.at(grouper.max_threshold)   # every verified pair: the default view

Steps, each incremental through the index:
1. Boilerplate lines of the collection (boilerplate.py) are found from the line hashes stored at scan time.
2. Each document that contains boilerplate gets a fingerprint without it: its stored SimHash votes minus
   the votes of its boilerplate lines (no document is segmented again); the others keep their own.
3. Candidates: pairs within a radius set by the length of the shorter text (12 bits; 16 under 1,500
   characters; 18 under 400), since near-duplicates with fewer features lie further apart. Each pair's
   distance is scaled to its radius (d * 12 / radius, rounded up), so one slider of 0..12 bits serves all.
   Pairs whose texts share a MinHash band of their shingles (minhash.py, keys kept at scan time) join
   them: copies SimHash places beyond the radius (a Chinese text with English passages put in, a short
   text with several typos); beyond the radius they count at the slider's widest setting, and only from
   a score of BAND_MIN_SCORE.
4. Each candidate not verified before is scored on the texts without boilerplate; scores are kept in the
   index. A pair groups when its score reaches `min_score`.

Incremental: every candidate is kept with its score, and each document remembers the fingerprint its
candidates were searched with; after a rescan only the documents that changed (or whose boilerplate did)
are compared with the others, and only their new pairs are read and scored.

Measured on the medium corpus (seed 7, 20,000 documents), defaults: precision 0.995, recall 0.983;
short texts 0.994 / 0.968; every edit kind >= 0.956. See docs/quality.md.
"""
from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from simdesk.core.boilerplate import boilerplate_hits, boilerplate_set, line_hash, line_keys, strip_boilerplate
from simdesk.core.features import DEFAULT_FEATURES, FeatureSettings, weighted_terms
from simdesk.core.fingerprint import BITS, from_votes, unpack_votes, votes
from simdesk.core.groups import Grouper
from simdesk.core.index import Index, Snapshot
from simdesk.core.minhash import DESKTOP, RULES as BAND_RULES, band_pairs
from simdesk.core.pairs import pairs_within
from simdesk.core.records import MAX_FILE_BYTES, Progress
from simdesk.core.texts import Texts, texts_of
from simdesk.core.verify import DEFAULT_MIN_SCORE, VERSION as VERIFY_VERSION, Profile, profile, similarity
from simdesk.core.workers import CancelToken, map_chunks, process_pool, worker_count

TEXT_CHUNK = 64  # texts read per task
SCORE_STEP = 2000  # pairs scored between two progress reports
POOL_FROM_TEXTS = 1000  # fewer texts to read: in this process (starting workers costs ~1.5 s)
VOTES_LEFT = 2e-3  # stored votes are rounded to ~5e-4 of the largest: less than this is a tie / nothing
BRUTE_FORCE_ROWS = 1024  # shorter texts are compared with longer ones in blocks of rows x columns
BRUTE_FORCE_COLUMNS = 16384
BRUTE_FORCE_BUDGET = 600_000_000  # comparisons (~2 s on 2 cores); past it, the wide radii are narrowed
INCREMENTAL_BUDGET = 200_000_000  # changed documents x all: under it, only the changed ones are searched
# A pair proposed by the MinHash bands alone (its fingerprints beyond the radius) groups from this score,
# not from min_score: it lacks SimHash's agreement. Measured 2026-11-23 on the evaluation kit, two held-out
# collections and the small test collection (4,705 files), such pairs scored: texts sharing only a repost
# footer, a licence notice or a template 0.70-0.82 (35 pairs from 0.80); copies 0.80-1.00 (mixed-language
# 0.99-1.00, short texts with several typos mostly 0.85-0.96; 4 copies below 0.85 are left out).
BAND_MIN_SCORE = 0.85


@dataclass(frozen=True, slots=True)
class VerifySettings:
    """How candidates are found and confirmed. Plain values, shared by the CLI and the window."""

    long_radius: int = 12
    medium_radius: int = 16
    medium_chars: int = 1500
    short_radius: int = 18
    short_chars: int = 400
    min_score: float = DEFAULT_MIN_SCORE
    max_bytes: int = MAX_FILE_BYTES
    jobs: int = 0  # worker processes for re-reading texts (0: one per core)


DEFAULT_VERIFY = VerifySettings()


@contextmanager
def _maybe_pool(jobs: int, texts: int):
    """A process pool when there are texts enough to be worth one, else None (in this process)."""
    workers = worker_count(jobs)
    if workers <= 1 or texts < POOL_FROM_TEXTS:
        yield None
        return
    with process_pool(workers) as pool:
        yield pool


def _clean_key(hits: np.ndarray) -> str:
    return hashlib.blake2b(hits.tobytes(), digest_size=8).hexdigest() if len(hits) else ""


def verification_profile(text: str | None, boilerplate: frozenset[int]) -> Profile:
    """What verification scores a text on (verify.profile) without its boilerplate lines; an empty profile
    for a text that could not be read."""
    return profile(strip_boilerplate(text, boilerplate)) if text else Profile(np.empty(0, dtype=np.uint32))


def text_similarity(left: str, right: str, boilerplate: frozenset[int] = frozenset()) -> float:
    """The similarity of two texts, 0..1: verify.similarity of their profiles without boilerplate, the one
    figure the groups table, the diff header and the slider show. `boilerplate` must be the collection's
    (Grouper.boilerplate) for the figure to equal the stored score of the pair."""
    return similarity(verification_profile(left, boilerplate), verification_profile(right, boilerplate))


def _profile_chunk(texts: Texts, rels: list[str], boilerplate: frozenset[int]) -> list[Profile]:
    """The verification profiles of the given documents without boilerplate (in a worker); a text that
    vanished or became unreadable since the scan is scored as empty (not verified)."""
    return [verification_profile(texts.read_or_none(rel), boilerplate) for rel in rels]


def boilerplate_votes(wanted: set[int], per_document: list[np.ndarray], chars: np.ndarray,
                      read_text: Callable[[int], str | None], settings: FeatureSettings) -> dict[int, np.ndarray]:
    """SimHash votes of each wanted boilerplate line, from the shortest document that has it (`chars`: each
    document's length; `read_text(row)`: its text, or None when it cannot be read any more)."""
    source: dict[int, int] = {}
    for row in np.argsort(chars, kind="stable").tolist():
        for h in per_document[row].tolist():
            if h in wanted and h not in source:
                source[h] = row
        if len(source) == len(wanted):
            break
    by_row: dict[int, set[int]] = {}
    for h, row in source.items():
        by_row.setdefault(row, set()).add(h)
    out: dict[int, np.ndarray] = {}
    for row, hashes in by_row.items():
        text = read_text(row)
        if text is None:
            continue
        for line, key in zip(text.splitlines(), line_keys(text)):
            h = line_hash(key)
            if h in hashes and h not in out:
                out[h] = votes(weighted_terms(line, settings, fallback=False))
    return out


def clean_fingerprints(texts: Texts, index: Index, snap: Snapshot, boilerplate: frozenset[int],
                       settings: FeatureSettings) -> np.ndarray:
    """Each document's fingerprint without its boilerplate lines, stored in the index.

    SimHash votes add up over a text's parts, so a document's boilerplate-free fingerprint is the sign of
    its stored votes minus the votes of its boilerplate lines: no document is read or segmented again,
    only one document per boilerplate line. Recomputed only when the boilerplate a document holds changed.
    """
    lines, tallies, keys, stored = index.analysis_state()
    per_doc = [np.frombuffer(blob, dtype="<u4") for blob in lines]
    fps = stored.copy()
    updates: list[tuple[int, int, str]] = []
    todo: list[tuple[int, str, np.ndarray]] = []
    for row, hits in enumerate(boilerplate_hits(per_doc, boilerplate)):
        key = _clean_key(hits)
        if keys[row] == key:
            continue
        if key and len(tallies[row]):
            todo.append((row, key, hits))
        else:
            fps[row] = snap.fingerprints[row]
            updates.append((int(snap.ids[row]), int(snap.fingerprints[row]), key))
    if todo:
        line_votes = boilerplate_votes({int(h) for _, _, hits in todo for h in hits}, per_doc, snap.chars,
                                       lambda row: texts.read_or_none(snap.paths[row]), settings)
        for row, key, hits in todo:
            fp = clean_fingerprint(tallies[row], hits, line_votes, int(snap.fingerprints[row]))
            fps[row] = np.uint64(fp)
            updates.append((int(snap.ids[row]), fp, key))
    if updates:
        index.set_clean_fingerprints(updates)
    return fps


def clean_fingerprint(packed_votes: bytes, hits: np.ndarray, line_votes: dict[int, np.ndarray], plain: int) -> int:
    """A document's fingerprint without its boilerplate lines: its stored votes (fingerprint.pack_votes) minus
    the votes of the boilerplate lines it holds (`hits`), or `plain` for a document of nothing but
    boilerplate (what is left is the rounding of the stored votes, under 1e-3 of their largest)."""
    whole = unpack_votes(packed_votes)
    zero = np.zeros(BITS)
    rest = whole - sum((line_votes.get(int(h), zero) for h in hits), zero)
    rounding = VOTES_LEFT * max(float(np.abs(whole).max()), 1e-9)
    return from_votes(rest, tie=rounding) if np.abs(rest).max() > rounding else plain


def pair_radius(chars: np.ndarray, verify: VerifySettings) -> np.ndarray:
    """The candidate radius for pairs whose shorter text has `chars` characters: shorter texts have fewer
    features, so near-duplicates among them lie further apart (the length-aware rule of docs/quality.md)."""
    radius = np.full(np.shape(chars), verify.long_radius, dtype=np.int64)
    radius[chars < verify.medium_chars] = max(verify.medium_radius, verify.long_radius)
    radius[chars < verify.short_chars] = max(verify.short_radius, verify.long_radius)
    return radius


def candidate_pairs(fps: np.ndarray, chars: np.ndarray, verify: VerifySettings) -> tuple[np.ndarray, ...]:
    """Pairs (i, j, distance, scaled distance) within the radius their shorter text's length allows.

    Pairs within long_radius come from the multi-index search (pairs.py); the wider radii of shorter texts
    are searched by comparing each shorter text with every longer one, in blocks, as long as that stays
    within BRUTE_FORCE_BUDGET comparisons (otherwise only the short class gets the wider radius, or none).
    """
    i, j, d = pairs_within(fps, verify.long_radius)
    found = [(i, j, d.astype(np.int64))]
    order = np.lexsort((np.arange(len(chars)), chars))  # by length: a row's partners are the rows after it
    n = len(order)
    for limit in (verify.medium_chars, verify.short_chars):
        m = int(np.searchsorted(chars[order], limit))
        if m * n - m * m // 2 <= BRUTE_FORCE_BUDGET:
            break
    else:
        m = 0
    radius = pair_radius(chars[order[:m]], verify)
    sorted_fps = fps[order]
    for r0 in range(0, m, BRUTE_FORCE_ROWS):
        r1 = min(r0 + BRUTE_FORCE_ROWS, m)
        rows = sorted_fps[r0:r1, None]
        row_radius = radius[r0:r1, None]
        for c0 in range(r0, n, BRUTE_FORCE_COLUMNS):
            dist = np.bitwise_count(rows ^ sorted_fps[None, c0:c0 + BRUTE_FORCE_COLUMNS]).astype(np.int64)
            a, b = np.nonzero((dist <= row_radius) & (dist > verify.long_radius))  # nearer: found above
            dd = dist[a, b]
            a, b = a + r0, b + c0
            keep = b > a
            x, y = order[a[keep]], order[b[keep]]
            found.append((np.minimum(x, y), np.maximum(x, y), dd[keep]))
    i = np.concatenate([f[0] for f in found]).astype(np.int64)
    j = np.concatenate([f[1] for f in found]).astype(np.int64)
    d = np.concatenate([f[2] for f in found]).astype(np.int64)
    return _normalised(i, j, d, chars, verify)


def _normalised(i: np.ndarray, j: np.ndarray, d: np.ndarray, chars: np.ndarray,
                verify: VerifySettings) -> tuple[np.ndarray, ...]:
    """(i < j, distance, scaled distance) for candidate pairs of snapshot rows."""
    i, j = np.minimum(i, j).astype(np.int64), np.maximum(i, j).astype(np.int64)
    return i, j, d.astype(np.int8), scaled_distance(d, np.minimum(chars[i], chars[j]), verify)


def scaled_distance(d: np.ndarray, shorter_chars: np.ndarray, verify: VerifySettings) -> np.ndarray:
    """Each pair's distance scaled to its radius (d * long_radius / radius, rounded up), so that one slider of
    0..long_radius serves pairs of every length; above long_radius for a pair outside its radius."""
    radius = pair_radius(shorter_chars, verify)
    return np.ceil(np.asarray(d) * verify.long_radius / radius).astype(np.int8)


def changed_candidates(fps: np.ndarray, chars: np.ndarray, ids: np.ndarray, dirty: np.ndarray,
                       known: dict[tuple[int, int], float], verify: VerifySettings) -> tuple[np.ndarray, ...]:
    """The candidate pairs after a few documents changed: the kept pairs among unchanged documents (every
    candidate is kept in the index with its score) and every pair that involves a changed one, found by
    comparing the changed documents with all the others. Equal to candidate_pairs() on the same input."""
    row_of = {int(doc_id): row for row, doc_id in enumerate(ids.tolist())}
    old = [(row_of[a], row_of[b]) for a, b in known if a in row_of and b in row_of
           and not dirty[row_of[a]] and not dirty[row_of[b]]]
    found_i = [np.array([a for a, _ in old], dtype=np.int64)]
    found_j = [np.array([b for _, b in old], dtype=np.int64)]
    changed = np.flatnonzero(dirty)
    for r0 in range(0, len(changed), BRUTE_FORCE_ROWS):
        rows = changed[r0:r0 + BRUTE_FORCE_ROWS]
        for c0 in range(0, len(fps), BRUTE_FORCE_COLUMNS):
            cols = np.arange(c0, min(c0 + BRUTE_FORCE_COLUMNS, len(fps)))
            dist = np.bitwise_count(fps[rows, None] ^ fps[None, cols])
            radius = pair_radius(np.minimum(chars[rows, None], chars[None, cols]), verify)
            a, b = np.nonzero(dist <= radius)
            a, b = rows[a], cols[b]
            keep = (a != b) & (~dirty[b] | (a < b))  # a pair of two changed documents once
            found_i.append(a[keep])
            found_j.append(b[keep])
    i = np.concatenate(found_i).astype(np.int64)
    j = np.concatenate(found_j).astype(np.int64)
    d = np.bitwise_count(fps[i] ^ fps[j]).astype(np.int64)
    return _normalised(i, j, d, chars, verify)


def verify_pairs(texts: Texts, index: Index, snap: Snapshot, i: np.ndarray, j: np.ndarray,
                 boilerplate: frozenset[int], jobs: int = 0,
                 cancel: CancelToken | None = None,
                 on_progress: Callable[[str, int, int], None] | None = None) -> np.ndarray:
    """The verification score of each candidate pair (kept scores reused, new ones computed and kept).

    Each text involved is read once (in the worker processes), then every pair is scored here; each step
    reports `on_progress(phase, done, total)`: "verifying" counts the texts read, "scoring" the pairs scored."""
    report = on_progress or (lambda phase, done, total: None)
    known = index.scores()
    ids = snap.ids
    out = np.full(len(i), np.nan)
    todo = []
    for k, (a, b) in enumerate(zip(i.tolist(), j.tolist())):
        s = known.get((int(min(ids[a], ids[b])), int(max(ids[a], ids[b]))))
        if s is None:
            todo.append(k)
        else:
            out[k] = s
    if not todo:
        return out
    todo_arr = np.array(todo, dtype=np.int64)
    rows = np.unique(np.concatenate([i[todo_arr], j[todo_arr]])).tolist()
    chunks = [rows[c:c + TEXT_CHUNK] for c in range(0, len(rows), TEXT_CHUNK)]
    fn = partial(_profile_chunk, texts, boilerplate=boilerplate)
    report("verifying", 0, len(rows))
    with _maybe_pool(jobs, len(rows)) as pool:
        results = map_chunks(fn, [[snap.paths[r] for r in chunk] for chunk in chunks], pool, cancel or CancelToken(),
                             lambda n: report("verifying", min(n * TEXT_CHUNK, len(rows)), len(rows)))
    if len(results) < len(chunks):  # cancelled
        return out
    profiles = {r: g for chunk, result in zip(chunks, results) for r, g in zip(chunk, result)}
    new = []
    for n, k in enumerate(todo):
        if n % SCORE_STEP == 0:
            report("scoring", n, len(todo))
        a, b = int(i[k]), int(j[k])
        out[k] = similarity(profiles[a], profiles[b])
        new.append((int(ids[a]), int(ids[b]), float(out[k])))
    report("scoring", len(todo), len(todo))
    index.store_scores(new)
    return out


def collection_boilerplate(index: Index, documents: int | None = None) -> frozenset[int]:
    """The boilerplate line hashes of an indexed collection, from the line hashes stored at scan time (the
    set verification strips; the diff needs it to show the same similarity as the groups)."""
    lines = index.analysis_state()[0]
    n = len(lines) if documents is None else documents
    return boilerplate_set((np.frombuffer(b, dtype="<u4") for b in lines), n)


def verify_rules(verify: VerifySettings) -> str:
    """What the kept candidates and scores of an index depend on (stored; a change searches and scores again)."""
    return f"{VERIFY_VERSION} {verify.long_radius} {verify.medium_radius} {verify.medium_chars} " \
           f"{verify.short_radius} {verify.short_chars} {BAND_RULES}"


def with_band_pairs(found: tuple[np.ndarray, ...], fps: np.ndarray, chars: np.ndarray, keys: np.ndarray,
                    empty: np.ndarray, dirty: np.ndarray | None, verify: VerifySettings) -> tuple[np.ndarray, ...]:
    """The SimHash candidates `found` (i, j, distance, scaled distance) and the pairs sharing a MinHash band
    (`keys`, `empty`: Index.band_keys), each once; with `dirty`, only band pairs involving a changed document
    (the others are among the kept candidates). A pair beyond its radius gets the widest scaled distance."""
    i, j, d, scaled = found
    bi, bj = band_pairs(keys, empty)
    if dirty is not None:
        keep = dirty[bi] | dirty[bj]
        bi, bj = bi[keep], bj[keep]
    n = max(len(fps), 1)
    new = ~np.isin(bi * n + bj, np.minimum(i, j) * n + np.maximum(i, j))
    bi, bj = bi[new], bj[new]
    bd = np.bitwise_count(fps[bi] ^ fps[bj]).astype(np.int64)
    i, j, d, bscaled = _normalised(np.r_[i, bi], np.r_[j, bj], np.r_[d.astype(np.int64), bd], chars, verify)
    return i, j, d, np.minimum(np.r_[scaled, bscaled[len(scaled):]], verify.long_radius).astype(np.int8)


def analyse(root: Path, index: Index, settings: FeatureSettings = DEFAULT_FEATURES,
            verify: VerifySettings = DEFAULT_VERIFY,
            on_progress: Callable[[Progress], None] | None = None,
            cancel: CancelToken | None = None) -> Grouper:
    """Verified groups of an indexed folder (see the module docstring). The returned Grouper regroups at
    any scaled distance 0..long_radius and any minimum score in memory. Texts are read under `root`, or by
    URI for an index imported from a bundle of an object store or a dataset (texts.TEXTS_META)."""
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
    report("boilerplate")
    boilerplate = collection_boilerplate(index, len(snap))
    fps = clean_fingerprints(texts, index, snap, boilerplate, settings)
    clean = Snapshot(snap.ids, fps, snap.sizes, snap.mtimes, snap.chars, snap.paths, snap.hashes, snap.encodings)
    report("pairing")
    paired, known = index.paired_fingerprints()
    dirty = ~known | (paired != fps)
    keys, empty = index.band_keys(DESKTOP.bands)
    if dirty.sum() * len(fps) <= INCREMENTAL_BUDGET:
        found = changed_candidates(fps, snap.chars, snap.ids, dirty, index.scores(), verify)
        i, j, d, scaled = with_band_pairs(found, fps, snap.chars, keys, empty, dirty, verify)
    else:
        found = candidate_pairs(fps, snap.chars, verify)
        i, j, d, scaled = with_band_pairs(found, fps, snap.chars, keys, empty, None, verify)
    cancel = cancel or CancelToken()
    scores = verify_pairs(texts, index, clean, i, j, boilerplate, verify.jobs, cancel, report)
    if not cancel.cancelled and dirty.any():
        index.set_paired_fingerprints((int(snap.ids[r]), int(fps[r])) for r in np.flatnonzero(dirty))
    report("done", len(i), len(i))
    beyond = d > pair_radius(np.minimum(snap.chars[i], snap.chars[j]), verify)
    keep = ~beyond | ~(scores < BAND_MIN_SCORE)  # a pair only the bands propose needs BAND_MIN_SCORE
    i, j, scaled, scores = i[keep], j[keep], scaled[keep], scores[keep]
    return Grouper(clean, i, j, scaled, max_threshold=verify.long_radius, ignored=index.ignored_pairs(),
                   scores=scores, min_score=verify.min_score, boilerplate=boilerplate)
