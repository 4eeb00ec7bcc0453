"""Group near-duplicates: connected components of the pairs within a threshold, regrouped in memory.

`Grouper` keeps every pair up to the largest threshold, sorted by distance, so moving the threshold never
rescans the folder nor queries the index again. Groups are materialised lazily, one at a time, so a view
showing the first screenful of 100,000 groups does not pay for the rest.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cached_property

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from simdesk.core.index import Snapshot
from simdesk.core.pairs import pairs_within
from simdesk.core.records import Group, Member

DEFAULT_THRESHOLD = 3  # plain SimHash groups (unverified): bits of Hamming distance
MAX_THRESHOLD = 12


class Grouper:
    """Pairs of a snapshot up to `max_threshold`, ready to be grouped at any threshold up to it."""

    def __init__(self, snapshot: Snapshot, i: np.ndarray, j: np.ndarray, d: np.ndarray,
                 max_threshold: int = MAX_THRESHOLD, ignored: Iterable[tuple[str, str]] = (),
                 scores: np.ndarray | None = None, min_score: float | None = None,
                 boilerplate: frozenset[int] = frozenset()) -> None:
        """`scores` (optional, one per pair) are verification scores; with `min_score`, only pairs scoring at
        least that group (see verify.py). Without them, every pair within the threshold groups.
        `boilerplate`: the collection's boilerplate line hashes the scores were computed without (a
        comparison of two members needs them to show the same similarity)."""
        self.snapshot = snapshot
        self.boilerplate = boilerplate
        self.max_threshold = max_threshold
        self.min_score = min_score if scores is not None else None
        if scores is None:
            scores = np.full(len(i), np.nan)
        keep = d <= max_threshold
        i, j, d, scores = i[keep], j[keep], d[keep], scores[keep]
        ignored = {tuple(sorted(p)) for p in ignored}
        if ignored and len(i):
            paths = snapshot.paths
            drop = np.fromiter(((min(paths[a], paths[b]), max(paths[a], paths[b])) in ignored
                                for a, b in zip(i.tolist(), j.tolist())), dtype=bool, count=len(i))
            i, j, d, scores = i[~drop], j[~drop], d[~drop], scores[~drop]
        order = np.argsort(d, kind="stable")
        self.i, self.j, self.d, self.scores = i[order], j[order], d[order], scores[order]
        self._cut = np.searchsorted(self.d, np.arange(max_threshold + 2), side="left")
        self._cache: dict[tuple[int, float | None], Grouping] = {}

    def without(self, pairs: Iterable[tuple[str, str]]) -> Grouper:
        """This grouper without the given pairs of paths (an editor's "not duplicates"), in memory."""
        return Grouper(self.snapshot, self.i, self.j, self.d, self.max_threshold, ignored=pairs,
                       scores=self.scores if self.verified else None, min_score=self.min_score,
                       boilerplate=self.boilerplate)

    @property
    def verified(self) -> bool:
        return self.min_score is not None

    def _accepted(self, end: int, min_score: float | None) -> np.ndarray:
        if min_score is None:
            return np.ones(end, dtype=bool)
        return self.scores[:end] >= min_score  # NaN (could not be verified) never passes

    def histogram(self, min_score: float | None = None) -> list[int]:
        """How many grouping pairs lie at each distance 0..max_threshold."""
        ms = self.min_score if min_score is None else min_score
        accepted = self._accepted(len(self.d), ms)
        return np.bincount(self.d[accepted].astype(np.int64), minlength=self.max_threshold + 1).tolist()

    def pair_count(self, threshold: int) -> int:
        """Candidate pairs within the threshold (verified or not)."""
        return int(self._cut[min(threshold, self.max_threshold) + 1])

    def at(self, threshold: int, min_score: float | None = None) -> Grouping:
        """The groups at distance <= threshold (and, for a verified grouper, score >= min_score, by default
        the grouper's own). Memoised."""
        if not 0 <= threshold <= self.max_threshold:
            raise ValueError(f"threshold must be between 0 and {self.max_threshold}, not {threshold}")
        ms = self.min_score if min_score is None else min_score
        key = (threshold, ms)
        if key not in self._cache:
            end = self.pair_count(threshold)
            ok = self._accepted(end, ms)
            self._cache[key] = Grouping(self.snapshot, threshold, self.i[:end][ok], self.j[:end][ok],
                                        self.scores[:end][ok] if ms is not None else None, ms)
        return self._cache[key]


class Grouping:
    """The groups at one threshold. Group k (0-based, largest first) is built on demand by `group(k)`."""

    def __init__(self, snapshot: Snapshot, threshold: int, i: np.ndarray, j: np.ndarray,
                 scores: np.ndarray | None = None, min_score: float | None = None) -> None:
        self.snapshot = snapshot
        self.threshold = threshold
        self.min_score = min_score
        self._pairs = (i, j, scores)
        self._score_of: dict[tuple[int, int], float] | None = None
        n = len(snapshot)
        if len(i):
            graph = coo_matrix((np.ones(len(i), dtype=np.int8), (i, j)), shape=(n, n))
            _, labels = connected_components(graph, directed=False)
        else:
            labels = np.arange(n)
        sizes = np.bincount(labels, minlength=n) if n else np.zeros(0, dtype=np.int64)
        in_group = np.flatnonzero(sizes[labels] >= 2) if n else np.zeros(0, dtype=np.int64)
        # members ordered by (component, path order); components ordered largest first, then by first path
        member_labels = labels[in_group]
        order = np.lexsort((in_group, member_labels))
        members = in_group[order]
        member_labels = member_labels[order]
        starts = np.flatnonzero(np.r_[True, member_labels[1:] != member_labels[:-1]]) if len(members) else np.zeros(0, dtype=np.int64)
        counts = np.diff(np.r_[starts, len(members)])
        first = members[starts] if len(members) else np.zeros(0, dtype=np.int64)
        rank = np.lexsort((first, -counts))
        self._members = members
        self._starts = starts[rank]
        self._counts = counts[rank]
        self._groups: dict[int, Group] = {}

    def __len__(self) -> int:
        return len(self._counts)

    @cached_property
    def documents_in_groups(self) -> int:
        return int(self._counts.sum())

    @property
    def redundant(self) -> int:
        """Copies beyond one per group: what a clean-up could remove."""
        return self.documents_in_groups - len(self)

    def sizes(self) -> np.ndarray:
        """Member count of each group, in group order."""
        return self._counts

    @cached_property
    def max_distances(self) -> np.ndarray:
        """Each group's Group.max_distance (its members' largest distance from the representative), without
        building the groups: pairs at once (either member is the representative), larger groups one by one
        as build_group picks their representative. A sort by distance costs this, not every Group."""
        fps = self.snapshot.fingerprints
        out = np.zeros(len(self), dtype=np.int64)
        two = np.flatnonzero(self._counts == 2)
        first = self._members[self._starts[two]]
        second = self._members[self._starts[two] + 1]
        out[two] = np.bitwise_count(fps[first] ^ fps[second])
        for k in np.flatnonzero(self._counts > 2).tolist():
            if k in self._groups:
                out[k] = self._groups[k].max_distance
                continue
            group = fps[self.member_rows(k)]
            if len(group) <= 4096:
                totals = np.bitwise_count(group[:, None] ^ group[None, :]).sum(axis=1)
            else:  # as build_group does: bounded memory
                totals = np.concatenate([np.bitwise_count(group[s:s + 1024, None] ^ group[None, :]).sum(axis=1)
                                         for s in range(0, len(group), 1024)])
            out[k] = np.bitwise_count(group ^ group[int(np.argmin(totals))]).max()
        return out

    @cached_property
    def row_groups(self) -> np.ndarray:
        """The group number of each snapshot row (-1: in no group)."""
        out = np.full(len(self.snapshot), -1, dtype=np.int64)
        counts = self._counts.astype(np.int64)
        ks = np.repeat(np.arange(len(self), dtype=np.int64), counts)
        offsets = np.repeat(self._starts - (np.cumsum(counts) - counts), counts)  # group k's rows, in k order
        out[self._members[offsets + np.arange(len(ks))]] = ks
        return out

    def member_rows(self, k: int) -> np.ndarray:
        """Snapshot rows of group k's members (path order)."""
        s = self._starts[k]
        return self._members[s:s + self._counts[k]]

    def pair_score(self, a: int, b: int) -> float | None:
        """The verification score of two snapshot rows, when that pair was verified."""
        i, j, scores = self._pairs
        if scores is None:
            return None
        if self._score_of is None:
            self._score_of = {(x, y): float(s) for x, y, s in zip(i.tolist(), j.tolist(), scores.tolist())}
        return self._score_of.get((min(a, b), max(a, b)))

    def group(self, k: int) -> Group:
        if k not in self._groups:
            scorer = self.pair_score if self._pairs[2] is not None else None
            self._groups[k] = build_group(self.snapshot, self.member_rows(k), k + 1, scorer)
        return self._groups[k]

    def __iter__(self) -> Iterator[Group]:
        return (self.group(k) for k in range(len(self)))


def build_group(snap: Snapshot, rows: np.ndarray, group_id: int,
                scorer: Callable[[int, int], float | None] | None = None) -> Group:
    """A group of the given snapshot rows: the representative is the member with the least total Hamming
    distance to all others (ties: first path); the others follow by distance to it, then path."""
    fps = snap.fingerprints[rows]
    if len(rows) <= 4096:
        totals = np.bitwise_count(fps[:, None] ^ fps[None, :]).sum(axis=1)
    else:  # bounded memory for huge groups: rows in chunks
        totals = np.concatenate([np.bitwise_count(fps[s:s + 1024, None] ^ fps[None, :]).sum(axis=1)
                                 for s in range(0, len(fps), 1024)])
    rep = int(np.argmin(totals))  # rows are in path order, so argmin's first minimum is the first path
    dist = np.bitwise_count(fps ^ fps[rep]).astype(np.int64)
    order = sorted(range(len(rows)), key=lambda x: (x != rep, int(dist[x]), snap.paths[rows[x]]))
    rep_row = int(rows[rep])

    def score_of(x: int) -> float | None:
        if scorer is None:
            return None
        return 1.0 if x == rep else scorer(rep_row, int(rows[x]))

    members = tuple(
        Member(int(snap.ids[rows[x]]), snap.paths[rows[x]], int(dist[x]), int(snap.sizes[rows[x]]),
               snap.encodings[rows[x]], int(snap.mtimes[rows[x]]), snap.hashes[rows[x]], score_of(x))
        for x in order
    )
    identical = len({m.content_hash for m in members}) == 1
    return Group(group_id, identical, members)


def grouper_for(index, max_threshold: int = MAX_THRESHOLD) -> Grouper:
    """Read the index once and pair every document within `max_threshold` bits, honouring the editor's
    "not duplicates" decisions. Regrouping at any threshold up to `max_threshold` is then in memory."""
    snap = index.snapshot()
    i, j, d = pairs_within(snap.fingerprints, max_threshold)
    return Grouper(snap, i, j, d, max_threshold=max_threshold, ignored=index.ignored_pairs())
