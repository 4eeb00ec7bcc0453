"""The local engine: the cluster plan on one machine. Items are fingerprinted in a process pool (the desktop
scan's pool, jieba preloaded), plain pairs come from the desktop's numpy pair search; verified mode takes its
candidates, the rules that keep them and its groups from cluster.verified (the desktop's analysis), its
texts' profiles read in the pool. So on one collection it gives exactly the fingerprints, pairs and groups of
`simdesk scan`.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace

import numpy as np

from simdesk.cluster.keys import pairs_by_keys
from simdesk.cluster.plan import (
    Collection,
    ScanPlan,
    fingerprint_items,
    groups_table,
    pairs_table,
    read_boilerplate_votes,
    shingle_items,
)
from simdesk.cluster.sources import Source, SourceItem
from simdesk.cluster.verified import candidates_of, verified_tables
from simdesk.core.fingerprint.features import FeatureSettings
from simdesk.core.fingerprint.similarity import Profile
from simdesk.core.matching.analysis import clean_fingerprint
from simdesk.core.matching.copies import copied_values, identical_copies, with_copies
from simdesk.core.matching.groups import Grouper
from simdesk.core.matching.pair_scores import scored
from simdesk.core.matching.pairs import pairs_within
from simdesk.core.reading.boilerplate import LineHashes, class_boilerplate, without_notices
from simdesk.core.records import Document, Problem
from simdesk.core.workers import process_pool, worker_count

CHUNK_ITEMS = 64
POOL_FROM = 256  # fewer items: in this process (starting workers costs ~1.5 s)
KEY_JOIN_FROM = 20_000_000  # plain pairs by the key join from here (bench.cluster_pairs, docs/scale.md)
KEY_JOIN_MAX_RADIUS = 3  # wider radii cut 64 bits into more, narrower keys whose buckets fill up (r = 5: 24 bits)


def _in_pool(fn: Callable, chunks: list, jobs: int, size: int) -> list:
    """fn(chunk) for each chunk, in order: in a process pool when there is work enough for one."""
    workers = worker_count(jobs)
    if workers <= 1 or size < POOL_FROM:
        return [fn(c) for c in chunks]
    with process_pool(workers) as pool:
        futures: list[Future] = [pool.submit(fn, c) for c in chunks]
        return [f.result() for f in futures]


def _fingerprint_chunk(args: tuple[Source, list[SourceItem], FeatureSettings]):
    return fingerprint_items(*args)


def _shingle_chunk(args: tuple[Source, list[SourceItem], frozenset[int]]):
    return shingle_items(*args)


def fingerprint(
    source: Source, items: list[SourceItem], settings: FeatureSettings, jobs: int, reused: dict[str, Document]
) -> Collection:
    """The collection of `items`: those in `reused` (unchanged since the previous bundle) as they were, the
    others read and fingerprinted in worker processes."""
    todo = [it for it in items if it.path not in reused]
    chunks = [(source, todo[s : s + CHUNK_ITEMS], settings) for s in range(0, len(todo), CHUNK_ITEMS)]
    docs_items, docs = [], []
    problems: list[tuple[SourceItem | None, Problem]] = []
    for it in items:
        if it.path in reused:
            docs_items.append(it)
            docs.append(reused[it.path])
    for result in _in_pool(_fingerprint_chunk, chunks, jobs, len(todo)):
        for it, r in result:
            if isinstance(r, Document):
                docs_items.append(it)
                docs.append(r)
            else:
                problems.append((it, r))
    return Collection(docs_items, docs, problems)


def plain_pairs(fps: np.ndarray, radius: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair within `radius` bits: the desktop's in-memory search up to KEY_JOIN_FROM fingerprints, the
    permuted-key join in bounded memory above, up to KEY_JOIN_MAX_RADIUS (the desktop's search held 11 GB and
    had not finished 100M in 20 minutes). Both are exact and return the same arrays."""
    if len(fps) >= KEY_JOIN_FROM and radius <= KEY_JOIN_MAX_RADIUS:
        return pairs_by_keys(fps, radius)
    return pairs_within(fps, radius)


def pair_and_group(source: Source, col: Collection, plan: ScanPlan, settings: FeatureSettings):
    """(pairs table, groups table) of a fingerprinted collection, as `simdesk scan` pairs and groups it."""
    if not plan.verified:
        snap = col.snapshot()
        same = identical_copies(snap.fingerprints)  # one fingerprint searched once, as groups.grouper_for
        reps = same.representatives
        i, j, d = plain_pairs(snap.fingerprints[reps], plan.radius)
        i, j, copied, _ = with_copies(same, reps[i], reps[j])
        d = copied_values(d, copied, 0)
        grouping = Grouper(replace(snap, copy_of=same.rep), i, j, d, max_threshold=plan.radius).at(plan.radius)
        return pairs_table(col.doc_ids, i, j, d, d, None), groups_table(grouping)
    lines = LineHashes.of(col.line_hashes())
    boilerplate = class_boilerplate(lines, identical_copies([d.content_hash for d in col.docs]).representatives)
    hits = [hh for _, hh in lines.hits(without_notices(boilerplate))]  # notices stay in fingerprints
    wanted = {int(h) for hh in hits for h in hh.tolist()}
    if wanted:
        line_votes = read_boilerplate_votes(source, col.items, wanted, lines, col.chars, settings)
        for row, hh in enumerate(hits):
            if len(hh) and len(col.docs[row].votes):
                col.clean[row] = np.uint64(
                    clean_fingerprint(col.docs[row].votes, hh, line_votes, int(col.fingerprints[row]))
                )
    found = candidates_of(col, plan.verify)
    rows = np.unique(np.concatenate([found.i, found.j])).tolist()
    chunks = [
        (source, [col.items[r] for r in rows[s : s + CHUNK_ITEMS]], boilerplate)
        for s in range(0, len(rows), CHUNK_ITEMS)
    ]
    profiles: dict[int, Profile] = {}
    for s, result in zip(range(0, len(rows), CHUNK_ITEMS), _in_pool(_shingle_chunk, chunks, plan.jobs, len(rows))):
        for row, (prof, short) in zip(rows[s : s + CHUNK_ITEMS], result):
            profiles[row] = prof
            if short is not None:
                col.short[row] = short  # written to the bundle: a clean-up of its groups reads no text
    scores, held = scored(
        [profiles[a] for a in found.i.tolist()],
        [profiles[b] for b in found.j.tolist()],
        found.band_only,
        found.plain_near,
    )
    return verified_tables(col, found, scores, held, plan)
