"""Group near-duplicates: groups of the pairs within a threshold, each with a centre that holds every other
member, regrouped in memory.

A verified pair is a copy relation with a direction: B is a copy of A when their similarity reaches the least
similarity and A holds B's text (the share of B's text found in A reaches it too: verify.Relation). Copies with
a typo, re-wrapped or re-encoded hold each other; a truncated copy is held by the full text, not the other way
round; a sentence quoted in an article is held by it (and only groups with it when the length gates of the
similarity let it). Plain (unverified) pairs hold each other.

A group is a connected component of those relations when one of its members holds all the others (copies of
one text, or a star around the original). A component without such a member is a chain (an article quoting
a sentence that a second article quotes too; a collage holding most of text A and the whole of a short text
B) and is split into stars (`split_chains`): the member holding the most others left is a centre, its group
is it and what it holds; again with the members left, until fewer than two are. So every member of a group
is a copy of the group's representative (a centre): keeping that one copy keeps every member's text, and no
member is shown beside a representative it is not a copy of (docs/quality.md, "Chains").

`Grouper` keeps every pair up to the largest threshold, sorted by distance, so moving the threshold never
rescans the folder nor queries the index again. Groups are materialised lazily, one at a time, so a view
showing the first screenful of 100,000 groups does not pay for the rest.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from simdesk.core.index.documents import ContentHashes, Snapshot
from simdesk.core.matching.copies import swap_shares
from simdesk.core.matching.pairs import pairs_within
from simdesk.core.matching.radius import MAX_THRESHOLD
from simdesk.core.reading.markup import name_suffix
from simdesk.core.records import Group, Member

if TYPE_CHECKING:  # the index a grouper is read from (grouper_for)
    from simdesk.core.index.store import Index

# scipy's sparse graphs (connected components here, and the reading order of verification's plan): imported where
# they are used, ~0.2 s of CPU that a scan's process spends once it has listed its folder, waiting for its workers
# (review.load_while_reading), instead of before it lists it; a scan with no pairs never spends it
SPARSE_GRAPHS = ("scipy.sparse", "scipy.sparse.csgraph")

DEFAULT_THRESHOLD = 3  # plain SimHash groups (unverified): bits of Hamming distance
# what the groups can be ordered by (Grouping.sort_keys); any other key keeps the engine's order (largest first)
ORDER_KEYS = ("members", "size", "modified", "path", "distance", "similarity")


class Grouper:
    """Pairs of a snapshot up to `max_threshold`, ready to be grouped at any threshold up to it."""

    def __init__(
        self,
        snapshot: Snapshot,
        i: np.ndarray,
        j: np.ndarray,
        d: np.ndarray,
        max_threshold: int = MAX_THRESHOLD,
        ignored: Iterable[tuple[str, str]] = (),
        scores: np.ndarray | None = None,
        min_similarity: float | None = None,
        boilerplate: frozenset[int] = frozenset(),
        held: np.ndarray | None = None,
        read_headlines: Mapping[str, str] | None = None,
        short: np.ndarray | None = None,
    ) -> None:
        """`scores` (optional, one per pair) are verification scores; with `min_similarity`, only pairs scoring at
        least that group (see fingerprint/similarity.py). Without them, every pair within the threshold groups. `held`
        (optional, pairs x 2, with scores): the share of i's text found in j's and of j's in i's
        (verify.Relation; NaN: not measured, taken as both held); a member is a copy of a text that holds
        its share at `min_similarity` or more. `boilerplate`: the collection's boilerplate line hashes the scores
        were computed without (a comparison of two members needs them to show the same similarity).
        `read_headlines`: the packed headlines (headline.packed_headline) of the members verification read, by
        path, so a report reads only the others' texts. `short`: whether each snapshot row's text is short as
        verification stored it without `boilerplate` (analysis.stored_short_texts: 1, 0, -1 for not stored), so
        a clean-up plan reads no file (stored_short)."""
        self.snapshot = snapshot
        self.boilerplate = boilerplate
        self.read_headlines: Mapping[str, str] = {} if read_headlines is None else read_headlines
        self.short = short
        self.max_threshold = max_threshold
        self.min_similarity = min_similarity if scores is not None else None
        if scores is None:
            scores = np.full(len(i), np.nan)
        if held is None:
            held = np.full((len(i), 2), np.nan)
        keep = d <= max_threshold
        i, j, d, scores, held = i[keep], j[keep], d[keep], scores[keep], held[keep]
        ignored_pairs = {(min(a, b), max(a, b)) for a, b in ignored}
        if ignored_pairs and len(i):
            paths = snapshot.paths
            drop = np.fromiter(
                (
                    (min(paths[a], paths[b]), max(paths[a], paths[b])) in ignored_pairs
                    for a, b in zip(i.tolist(), j.tolist())
                ),
                dtype=bool,
                count=len(i),
            )
            i, j, d, scores, held = i[~drop], j[~drop], d[~drop], scores[~drop], held[~drop]
        order = np.argsort(d, kind="stable")
        self.i, self.j, self.d, self.scores, self.held = i[order], j[order], d[order], scores[order], held[order]
        self._cut = np.searchsorted(self.d, np.arange(max_threshold + 2), side="left")
        self._cache: dict[tuple[int, float | None], Grouping] = {}

    def without(self, pairs: Iterable[tuple[str, str]]) -> Grouper:
        """This grouper without the given pairs of paths (an editor's "not duplicates"), in memory."""
        return Grouper(
            self.snapshot,
            self.i,
            self.j,
            self.d,
            self.max_threshold,
            ignored=pairs,
            scores=self.scores if self.verified else None,
            min_similarity=self.min_similarity,
            boilerplate=self.boilerplate,
            held=self.held if self.verified else None,
            read_headlines=self.read_headlines,
            short=self.short,
        )

    @property
    def verified(self) -> bool:
        return self.min_similarity is not None

    def read_headline(self, row: int) -> str | None:
        """The packed headline verification read of a snapshot row (read_headlines), else of the
        representative of its identical copies when both names end alike (the same bytes read as the same
        kind of file: markup.markup_kind tells a page or Markdown file by its suffix); None when neither was
        read."""
        paths = self.snapshot.paths
        packed = self.read_headlines.get(paths[row])
        if packed is None and (rep := self._same_text(row)) != row:
            packed = self.read_headlines.get(paths[rep])
        return packed

    def stored_short(self, row: int) -> bool | None:
        """Whether a snapshot row's text is short as verification stored it (`short`), else as stored for the
        representative of its identical copies when both names end alike (read_headline); None when neither
        is stored (reread.short_document then reads the text)."""
        if self.short is None:
            return None
        flag = int(self.short[row])
        if flag < 0 and (rep := self._same_text(row)) != row:
            flag = int(self.short[rep])
        return None if flag < 0 else bool(flag)

    def _same_text(self, row: int) -> int:
        """The representative of a row's identical copies when it is read as the same text (the same bytes, and
        names that end alike: markup.markup_kind tells a page or Markdown file by its suffix), else the row."""
        paths, copy_of = self.snapshot.paths, self.snapshot.copy_of
        if (
            copy_of is not None
            and (rep := int(copy_of[row])) != row
            and name_suffix(paths[rep]) == name_suffix(paths[row])
        ):
            return rep
        return row

    def _accepted(self, end: int, min_similarity: float | None) -> np.ndarray:
        if min_similarity is None:
            return np.ones(end, dtype=bool)
        return self.scores[:end] >= min_similarity  # NaN (could not be verified) never passes

    def histogram(self, min_similarity: float | None = None) -> list[int]:
        """How many grouping pairs lie at each distance 0..max_threshold."""
        ms = self.min_similarity if min_similarity is None else min_similarity
        accepted = self._accepted(len(self.d), ms)
        return np.bincount(self.d[accepted].astype(np.int64), minlength=self.max_threshold + 1).tolist()

    def pair_count(self, threshold: int) -> int:
        """Candidate pairs within the threshold (verified or not)."""
        return int(self._cut[min(threshold, self.max_threshold) + 1])

    def at(self, threshold: int, min_similarity: float | None = None) -> Grouping:
        """The groups at distance <= threshold (and, for a verified grouper, score >= min_similarity, by default
        the grouper's own). Memoised."""
        if not 0 <= threshold <= self.max_threshold:
            raise ValueError(f"threshold must be between 0 and {self.max_threshold}, not {threshold}")
        ms = self.min_similarity if min_similarity is None else min_similarity
        key = (threshold, ms)
        if key not in self._cache:
            end = self.pair_count(threshold)
            ok = self._accepted(end, ms)
            self._cache[key] = Grouping(
                self.snapshot,
                threshold,
                self.i[:end][ok],
                self.j[:end][ok],
                self.scores[:end][ok] if ms is not None else None,
                ms,
                self.held[:end][ok] if ms is not None else None,
            )
        return self._cache[key]


class Grouping:
    """The groups at one threshold. Group k (0-based, largest first) is built on demand by `group(k)`."""

    def __init__(
        self,
        snapshot: Snapshot,
        threshold: int,
        i: np.ndarray,
        j: np.ndarray,
        scores: np.ndarray | None = None,
        min_similarity: float | None = None,
        held: np.ndarray | None = None,
    ) -> None:
        self.snapshot = snapshot
        self.threshold = threshold
        self.min_similarity = min_similarity
        if held is None:
            held = np.full((len(i), 2), np.nan)
        # which way each pair is a copy: j holds i's text, i holds j's (NaN: not measured, both)
        j_holds = ~(held[:, 0] < min_similarity) if min_similarity is not None else np.ones(len(i), dtype=bool)
        i_holds = ~(held[:, 1] < min_similarity) if min_similarity is not None else np.ones(len(i), dtype=bool)
        copies = j_holds | i_holds  # a pair neither of whose texts holds the other's is no copy
        i, j, held, j_holds, i_holds = i[copies], j[copies], held[copies], j_holds[copies], i_holds[copies]
        scores = scores[copies] if scores is not None else None
        self._pairs = (i, j, scores)
        self._held = held
        n = len(snapshot)
        if len(i):
            from scipy.sparse import coo_matrix  # where it is used: see SPARSE_GRAPHS
            from scipy.sparse.csgraph import connected_components

            graph = coo_matrix((np.ones(len(i), dtype=np.int8), (i, j)), shape=(n, n))
            _, labels = connected_components(graph, directed=False)
            copy = np.r_[i[j_holds], j[i_holds]]  # each copy, and the text holding it
            holder = np.r_[j[j_holds], i[i_holds]]
            labels, self._central = centred_labels(labels, copy, holder)
        else:
            labels = np.arange(n)
            self._central = np.zeros(n, dtype=bool)
        sizes = np.bincount(labels) if n else np.zeros(0, dtype=np.int64)
        in_group = np.flatnonzero(sizes[labels] >= 2) if n else np.zeros(0, dtype=np.int64)
        # members ordered by (component, path order); components ordered largest first, then by first path
        member_labels = labels[in_group]
        order = np.lexsort((in_group, member_labels))
        members = in_group[order]
        member_labels = member_labels[order]
        starts = (
            np.flatnonzero(np.r_[True, member_labels[1:] != member_labels[:-1]])
            if len(members)
            else np.zeros(0, dtype=np.int64)
        )
        counts = np.diff(np.r_[starts, len(members)])
        first = members[starts] if len(members) else np.zeros(0, dtype=np.int64)
        rank = np.lexsort((first, -counts))
        number = np.empty(len(rank), dtype=np.int64)  # component (in member order) -> group number
        number[rank] = np.arange(len(rank))
        self._members = members
        self._owners = np.repeat(number, counts)  # the group number of each entry of _members
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
        building the groups (see representatives). A sort by distance costs this, not every Group."""
        fps = self.snapshot.fingerprints
        out = np.zeros(len(self), dtype=np.int64)
        if len(self._members):
            reps = self.representatives[self._owners]
            np.maximum.at(out, self._owners, np.bitwise_count(fps[self._members] ^ fps[reps]).astype(np.int64))
        return out

    @cached_property
    def row_groups(self) -> np.ndarray:
        """The group number of each snapshot row (-1: in no group)."""
        out = np.full(len(self.snapshot), -1, dtype=np.int64)
        out[self._members] = self._owners
        return out

    def matching(self, text: str) -> np.ndarray:
        """The numbers of the groups with a member whose path holds `text` (case-insensitive), in group
        order; every group when `text` is blank."""
        needle = text.strip().casefold()
        if not needle:
            return np.arange(len(self), dtype=np.int64)
        paths = self.snapshot.paths
        hits = np.fromiter(
            (needle in paths[r].casefold() for r in self._members.tolist()), dtype=bool, count=len(self._members)
        )
        return np.unique(self._owners[hits])

    def sort_keys(self, key: str) -> np.ndarray | None:
        """One number per group to order the groups by `key` (one of ORDER_KEYS; ascending means smallest
        first), computed on whole arrays: no Group is built. None: `key` has no order (the engine's)."""
        snap, owners, rows = self.snapshot, self._owners, self._members
        if key == "members":
            return self._counts.astype(np.float64)
        if key == "size":
            return np.bincount(owners, weights=snap.sizes[rows], minlength=len(self))
        if key == "modified":
            latest = np.zeros(len(self), dtype=np.float64)
            np.maximum.at(latest, owners, snap.mtimes[rows].astype(np.float64))
            return latest
        if key == "path":  # snapshot rows are in path order: a group's first row names it
            first = np.full(len(self), len(snap), dtype=np.float64)
            np.minimum.at(first, owners, rows.astype(np.float64))
            return first
        if key == "distance":
            return self.max_distances.astype(np.float64)
        if key == "similarity":
            return self.least_scores if self.min_similarity is not None else -self.max_distances.astype(np.float64)
        return None

    def ordered(self, groups: np.ndarray, key: str, descending: bool = False) -> np.ndarray:
        """`groups` (group numbers) ordered by `key` (see sort_keys); ties keep the engine's order."""
        base = np.sort(np.asarray(groups, dtype=np.int64))
        keys = self.sort_keys(key) if len(base) else None
        if keys is None:
            return base
        keys = keys[base]
        return base[np.argsort(-keys if descending else keys, kind="stable")]

    @cached_property
    def representatives(self) -> np.ndarray:
        """The snapshot row of each group's representative (Group.members[0]), without building the groups:
        as build_group chooses it."""
        out = self._members[self._starts].copy()  # pairs: both totals are equal, the first path wins
        for k in np.flatnonzero(self._counts > 2).tolist():
            if k in self._groups:
                out[k] = self.snapshot_row(self._groups[k].members[0].path)
            else:
                rows = self.member_rows(k)
                out[k] = rows[representative_of(self.snapshot.fingerprints[rows], self._central[rows])]
        return out

    def paired(self, a: int, b: int) -> bool:
        """Whether two snapshot rows are a grouping pair at this threshold (one holds the other's text as a
        copy): a member is always paired with its group's representative, with another member not always."""
        return self._pair_at(*self._standing_for(a, b)) is not None

    def held(self, copy: int, keeper: int) -> float | None:
        """The share of snapshot row `copy`'s text found in row `keeper`'s, when the two are a grouping pair
        (None when they are not; NaN when the share was not measured: plain groups, or relations kept
        before shares were). A clean-up keeping `keeper` may remove `copy` only when it reaches the least
        similarity (holds)."""
        copy, keeper = self._standing_for(copy, keeper)
        at = self._pair_at(copy, keeper)
        if at is None:
            return None
        shares = self._scores_by_pair[2]
        return float(shares[at, 0 if copy < keeper else 1])

    def holds(self, keeper: int, copy: int) -> bool:
        """Whether row `keeper` holds row `copy`'s text as a copy at this grouping: the two are a grouping pair
        and the share of `copy`'s text found in `keeper` reaches the least similarity (not measured: plain
        groups, where every pair within the threshold is a copy)."""
        share = self.held(copy, keeper)
        return share is not None and not (self.min_similarity is not None and share < self.min_similarity)

    def _standing_for(self, a: int, b: int) -> tuple[int, int]:
        """The rows of the pair that stands for rows a and b: themselves, or, for identical copies the
        analysis paired through their representatives (Snapshot.copy_of, copies.with_copies), the pair of a
        copy and the other's representative, of the two representatives, or of a copy and its own
        representative (identical texts: whole in each other)."""
        copy_of = self.snapshot.copy_of
        if copy_of is None or self._pair_at(a, b) is not None:
            return a, b
        ra, rb = int(copy_of[a]), int(copy_of[b])
        if ra == rb:
            return (ra, a) if a != ra else (a, b)
        for x, y in ((a, rb), (ra, b), (ra, rb)):
            if self._pair_at(x, y) is not None:
                return x, y
        return a, b

    def _pair_at(self, a: int, b: int) -> int | None:
        codes = self._scores_by_pair[0]
        code = min(a, b) * len(self.snapshot) + max(a, b)  # Python integers: numpy scalars cost more here
        at = int(codes.searchsorted(code))
        return at if at < len(codes) and int(codes[at]) == code else None

    def snapshot_row(self, path: str) -> int:
        """The snapshot row of `path` (-1: not indexed). Snapshot rows are in path order."""
        paths = self.snapshot.paths
        r = bisect.bisect_left(paths, path)
        return r if r < len(paths) and paths[r] == path else -1

    @cached_property
    def least_scores(self) -> np.ndarray:
        """Each group's least verified similarity of a member to its representative (what the group row's
        Similarity shows), NaN where none was verified; on whole arrays."""
        out = np.full(len(self), np.nan)
        i, j, scores = self._pairs
        if scores is None or not len(i):
            return out
        n = np.int64(len(self.snapshot))
        codes, sorted_scores, _ = self._scores_by_pair
        assert sorted_scores is not None  # scores were given
        reps = self.representatives[self._owners]
        others = self._members != reps
        a, b = reps[others], self._members[others]
        wanted = np.minimum(a, b).astype(np.int64) * n + np.maximum(a, b).astype(np.int64)
        at = np.minimum(np.searchsorted(codes, wanted), len(codes) - 1)
        found = codes[at] == wanted
        values = np.where(found, sorted_scores[at], np.inf)
        least = np.full(len(self), np.inf)
        np.minimum.at(least, self._owners[others], values)
        out[np.isfinite(least)] = least[np.isfinite(least)]
        return out

    def member_rows(self, k: int) -> np.ndarray:
        """Snapshot rows of group k's members (path order)."""
        s = self._starts[k]
        return self._members[s : s + self._counts[k]]

    @cached_property
    def _scores_by_pair(self) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
        """(sorted pair codes min * n + max, their scores (None for plain pairs), their shares: the smaller
        row's text found in the larger's, and the other way): 32 bytes a pair where a dict took ~200; the
        codes also tell whether two rows are paired."""
        i, j, scores = self._pairs
        n = np.int64(len(self.snapshot))
        codes = np.minimum(i, j).astype(np.int64) * n + np.maximum(i, j).astype(np.int64)
        order = np.argsort(codes)
        shares = swap_shares(self._held[order], (i > j)[order])
        return codes[order], scores[order] if scores is not None else None, shares

    def _relation(self, rep: int, row: int) -> tuple[float, float, float] | None:
        """(score, share of `row`'s text in `rep`'s, share of `rep`'s in `row`'s) of a verified pair."""
        rep, row = self._standing_for(rep, row)
        at = self._pair_at(rep, row)
        if at is None:
            return None
        _, scores, shares = self._scores_by_pair
        assert scores is not None  # a scorer of verified pairs only
        held, holds = shares[at] if row < rep else shares[at][::-1]
        return float(scores[at]), float(held), float(holds)

    def _relations(self, reps: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """_relation of many pairs of snapshot rows (reps[k], rows[k]) at once: rows of (score, share of the
        row's text in the rep's, share of the rep's in the row's), NaN where the pair was not verified."""
        n = np.int64(len(self.snapshot))
        codes, scores, shares = self._scores_by_pair
        assert scores is not None  # a scorer of verified pairs only
        out = np.full((len(rows), 3), np.nan)
        if not len(codes):
            return out

        def at_of(a: np.ndarray, b: np.ndarray) -> np.ndarray:  # _pair_at: the pair's position, else -1
            code = np.minimum(a, b).astype(np.int64) * n + np.maximum(a, b).astype(np.int64)
            at = np.minimum(np.searchsorted(codes, code), len(codes) - 1)
            return np.where(codes[at] == code, at, -1)

        a, b = np.asarray(reps, dtype=np.int64), np.asarray(rows, dtype=np.int64)
        at = at_of(a, b)
        sa, sb = a.copy(), b.copy()  # the pair standing for each (_standing_for)
        copy_of = self.snapshot.copy_of
        if copy_of is not None and (at < 0).any():
            ra, rb = copy_of[a].astype(np.int64), copy_of[b].astype(np.int64)
            same = (at < 0) & (ra == rb) & (a != ra)  # a copy and its own representative
            sa[same], sb[same] = ra[same], a[same]
            at[same] = at_of(sa[same], sb[same])
            other = (at < 0) & (ra != rb)
            for x, y in ((a, rb), (ra, b), (ra, rb)):
                found = at_of(x[other], y[other])
                take = np.flatnonzero(other)[found >= 0]
                sa[take], sb[take], at[take] = x[take], y[take], found[found >= 0]
                other[take] = False
        ok = at >= 0
        k, swap = at[ok], (sb < sa)[ok]
        out[ok, 0] = scores[k]
        out[ok, 1] = np.where(swap, shares[k, 0], shares[k, 1])
        out[ok, 2] = np.where(swap, shares[k, 1], shares[k, 0])
        return out

    def groups(self, ks: range) -> list[Group]:
        """group(k, keep=False) of each of `ks`, the relations of their members to their representatives
        looked up at once (a report's block of groups: one binary search of all its pairs, not one a member)."""
        if self._pairs[2] is None:
            return [self.group(k, keep=False) for k in ks]
        built = {k: self._groups[k] for k in ks if k in self._groups}
        todo = [k for k in ks if k not in built]
        fps = self.snapshot.fingerprints
        rows = [self.member_rows(k) for k in todo]
        reps = [representative_of(fps[r], self._central[r]) for r in rows]
        sizes = [len(r) for r in rows]
        if todo:
            rep_rows = np.repeat([int(r[rep]) for r, rep in zip(rows, reps)], sizes)
            relations = self._relations(rep_rows, np.concatenate(rows)).tolist()
        starts = np.cumsum([0, *sizes]).tolist()
        for n, k in enumerate(todo):
            mine = relations[starts[n] : starts[n + 1]]
            built[k] = build_group(self.snapshot, rows[n], k + 1, None, self._central[rows[n]], reps[n], mine)
        return [built[k] for k in ks]

    def pair_score(self, a: int, b: int) -> float | None:
        """The verification score of two snapshot rows, when that pair was verified."""
        if self._pairs[2] is None:
            return None
        at = self._pair_at(*self._standing_for(a, b))
        scores = self._scores_by_pair[1]
        return None if at is None or scores is None else float(scores[at])

    def group(self, k: int, keep: bool = True) -> Group:
        """Group k (0-based), built once and kept (what a view shows); with `keep=False` one not kept
        already is built and let go (a report of 200,000 groups does not hold them all)."""
        group = self._groups.get(k)
        if group is None:
            scorer = self._relation if self._pairs[2] is not None else None
            rows = self.member_rows(k)
            group = build_group(self.snapshot, rows, k + 1, scorer, self._central[rows])
            if keep:
                self._groups[k] = group
        return group

    def __iter__(self) -> Iterator[Group]:
        """Every group in order, those not kept already built and let go (group(k, keep=False))."""
        return (self.group(k, keep=False) for k in range(len(self)))


def representative_of(fps: np.ndarray, central: np.ndarray | None = None) -> int:
    """The index of a group's representative among its members' fingerprints (in path order): of the
    members `central` marks (paired with every other member; all when None or none), the one with the least
    total Hamming distance to all others, the first path on a tie."""
    if len(fps) == 2:  # most groups: both members lie at the same total, so the first central one
        return 1 if central is not None and not central[0] and central[1] else 0
    if len(fps) <= 4096:
        totals = np.bitwise_count(fps[:, None] ^ fps[None, :]).sum(axis=1)
    else:  # bounded memory for huge groups: rows in chunks
        totals = np.concatenate(
            [np.bitwise_count(fps[s : s + 1024, None] ^ fps[None, :]).sum(axis=1) for s in range(0, len(fps), 1024)]
        )
    if central is not None and central.any():
        totals = np.where(central, totals, np.iinfo(np.int64).max)
    return int(np.argmin(totals))  # rows are in path order, so argmin's first minimum is the first path


def centred_labels(labels: np.ndarray, copy: np.ndarray, holder: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Group labels (from the connected components `labels` of the pairs) in which each group of two or more
    has a centre holding every other member, and which rows are such a centre. The relations are directed:
    `holder[k]` holds `copy[k]`'s text (a pair of copies holding each other is there both ways, each way once).

    A component with a member holding all others is kept whole (found on whole arrays: a member's count of
    copies it holds against its component's size). The others (chains) are split by split_chains."""
    n = len(labels)
    holds = np.bincount(holder, minlength=n)
    sizes = np.bincount(labels, minlength=n)
    full = holds == sizes[labels] - 1
    centred = np.zeros(len(sizes), dtype=bool)
    centred[labels[full]] = True
    chain = (sizes >= 2) & ~centred
    if not chain.any():
        return labels, full & (sizes[labels] >= 2)
    labels = split_chains(labels, chain, copy, holder)
    same = labels[copy] == labels[holder]
    within = np.bincount(holder[same], minlength=n)
    new_sizes = np.bincount(labels)
    return labels, (within == new_sizes[labels] - 1) & (new_sizes[labels] >= 2)


def split_chains(labels: np.ndarray, chain: np.ndarray, copy: np.ndarray, holder: np.ndarray) -> np.ndarray:
    """The labels with each component marked in `chain` (by label) split greedily: the member holding the most
    of those left (ties: the first row, i.e. path) takes them as its group, until no member left holds one
    left; a member left over is alone (in no group). New groups take labels from len(chain) on.

    Chains are independent, so all are split from one queue. A member's count (of the copies it holds that are
    left) only falls, so the queue keeps the count a member was queued with and recounts it on its row of the
    relations when it comes first: taken when the count stands, queued again with the new count when it fell.
    One recount per member taken or queued again, where counting down every holder of every member taken cost
    a Python step per relation (3-6 s at 339,295 pairs of a crowd of near-identical texts)."""
    n = len(labels)
    labels = labels.copy()
    in_chain = chain[labels[copy]]
    # the relations within chains, once each, sorted by holder: the copies row h holds are held[start[h]:start[h + 1]]
    codes = np.sort(holder[in_chain].astype(np.int64) * n + copy[in_chain].astype(np.int64))
    codes = codes[np.diff(codes, prepend=-1) != 0]  # np.unique hashes first: 8 x slower here
    held = codes % n
    start = np.searchsorted(codes // n, np.arange(n + 1))
    left = chain[labels]  # members of chains not in a group yet
    count = np.diff(start)
    rows = np.flatnonzero(left & (count > 0))
    queue = list(zip((-count[rows]).tolist(), rows.tolist()))
    heapq.heapify(queue)
    fresh = len(chain)
    while queue:
        c, centre = heapq.heappop(queue)
        if not left[centre]:
            continue
        copies = held[start[centre] : start[centre + 1]]
        copies = copies[left[copies]]
        if len(copies) != -c:  # fewer left since it was queued
            if len(copies):
                heapq.heappush(queue, (-len(copies), centre))
            continue
        left[copies] = False
        left[centre] = False
        labels[copies] = fresh
        labels[centre] = fresh
        fresh += 1
    rest = np.flatnonzero(left)
    labels[rest] = fresh + np.arange(len(rest))
    return labels


def build_group(
    snap: Snapshot,
    rows: np.ndarray,
    group_id: int,
    scorer: Callable[[int, int], tuple[float, float, float] | None] | None = None,
    central: np.ndarray | None = None,
    rep: int | None = None,
    relations: Sequence[Sequence[float]] | None = None,
) -> Group:
    """A group of the given snapshot rows: the representative is chosen by representative_of (a member
    holding every other one, the closest to all; `rep`, its index in `rows`, when the caller chose it); the
    others follow by distance to it, then path. `scorer` (verified groups): (score, share of the member's text
    in the representative, of the representative's in the member) of the representative's row and a
    member's; or those of each of `rows` found already (`relations`, NaN where not verified)."""
    fps = snap.fingerprints[rows]
    rep = representative_of(fps, central) if rep is None else rep
    # the members' fields as Python values at once (a numpy scalar looked up per field cost more than the rest)
    dist = np.bitwise_count(fps ^ fps[rep]).tolist()
    at = rows.tolist()
    ids, sizes, mtimes = snap.ids[rows].tolist(), snap.sizes[rows].tolist(), snap.mtimes[rows].tolist()
    if isinstance(snap.hashes, ContentHashes):  # the group's digits at once: one row each cost ~3 us
        hashes = [h.decode("ascii") for h in snap.hashes.digits[rows].tolist()]
    else:
        hashes = [snap.hashes[r] for r in at]
    paths = [snap.paths[r] for r in at]
    order = sorted(range(len(at)), key=lambda x: (x != rep, dist[x], paths[x]))
    rep_row = at[rep]

    def relation_of(x: int) -> tuple[float | None, float | None, float | None]:
        if scorer is None and relations is None:
            return None, None, None
        found: Sequence[float] | None
        if x == rep:
            found = (1.0, 1.0, 1.0)
        elif relations is not None:
            found = relations[x]
        else:
            assert scorer is not None
            found = scorer(rep_row, at[x])
        if found is None:
            return None, None, None
        score, held, holds = (None if v != v else v for v in found)  # NaN: not measured
        return score, held, holds

    members = tuple(
        Member(ids[x], paths[x], dist[x], sizes[x], snap.encodings[at[x]], mtimes[x], hashes[x], *relation_of(x))
        for x in order
    )
    identical = len({m.content_hash for m in members}) == 1
    return Group(group_id, identical, members)


def exact_copies(snap: Snapshot) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairs (i, j, distance) joining the documents with the same content hash: each to the first of its
    hash in path order (a group's representative, every distance from it being that of identical texts).
    Found on whole arrays in milliseconds, so a first scan can show them before any text is compared."""
    if len(snap) < 2:
        e = np.zeros(0, dtype=np.int64)
        return e, e, e
    hashes = np.asarray(snap.hashes)
    order = np.argsort(hashes, kind="stable")  # rows are in path order: the first of each hash comes first
    same = hashes[order][1:] == hashes[order][:-1]
    run = np.cumsum(np.r_[True, ~same]) - 1  # the hash run of each sorted position
    first = order[np.flatnonzero(np.r_[True, ~same])]
    j = order[1:][same]
    i = first[run[1:][same]]
    fps = snap.fingerprints
    return i, j, np.bitwise_count(fps[i] ^ fps[j]).astype(np.int64)


def exact_grouper(index: Index, min_similarity: float | None = None) -> Grouper:
    """The groups of identical texts in an index, honouring "not duplicates"; scored 1.0 (as verification
    scores identical texts) when `min_similarity` asks for verified groups."""
    snap = index.snapshot()
    i, j, d = exact_copies(snap)
    copy_of = np.arange(len(snap))
    copy_of[j] = i  # a star around each first copy: two others pair through it (Grouping._standing_for)
    return Grouper(
        replace(snap, copy_of=copy_of),
        i,
        j,
        d,
        ignored=index.ignored_pairs(),
        scores=np.ones(len(i)) if min_similarity else None,
        min_similarity=min_similarity or None,
        held=np.ones((len(i), 2)) if min_similarity else None,
    )


def grouper_for(index: Index, max_threshold: int = MAX_THRESHOLD) -> Grouper:
    """Read the index once and pair every document within `max_threshold` bits, honouring the editor's
    "not duplicates" decisions. Regrouping at any threshold up to `max_threshold` is then in memory.
    Documents with one fingerprint are searched through the first of them and given its pairs after
    (copies.with_copies): n of them at distance 0 made n (n - 1) / 2 pairs (20,002 files of 3 contents: 66 M)."""
    from simdesk.core.matching.copies import copied_values, identical_copies, with_copies

    snap = index.snapshot()
    same = identical_copies(snap.fingerprints)
    reps = same.representatives
    i, j, d = pairs_within(snap.fingerprints[reps], max_threshold)
    i, j, source, _ = with_copies(same, reps[i], reps[j])
    return Grouper(
        replace(snap, copy_of=same.rep),
        i,
        j,
        copied_values(d, source, 0),
        max_threshold=max_threshold,
        ignored=index.ignored_pairs(),
    )
