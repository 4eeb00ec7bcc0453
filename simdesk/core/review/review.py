"""One folder's review, without a toolkit: scan, pair and group it, hold the editor's decisions
(decisions.py), choose and compare the pair to show, plan and carry out a clean-up, undo it, export. The
window and the command line both drive this module; neither holds a rule of its own.

    review = open_review(Path("articles"), index, ReviewSettings(), on_progress=print)
    grouping = review.grouping()                   # the groups at the settings' threshold
    review.keep_by_rule_everywhere("oldest")       # one copy kept in each group (in memory)
    plan = review.plan_cleanup()                   # every copy not kept goes
    report = review.clean_up(plan, "trash")        # verified gone, logged for undo

Two grouping modes, told apart by one rule (`ReviewSettings.verified`): by default SimHash candidates are
checked on their texts and a pair groups when its similarity reaches `min_similarity` (0.7); with
`min_similarity` 0, plain SimHash groups, unverified.

`threshold`, in both modes, is the largest distance a grouping pair may have, 0..12. In plain mode it is
the Hamming distance in bits between the two fingerprints. In verified mode it is that distance scaled to
the pair's candidate radius (bits * 12 / radius; shorter texts get a wider radius, analysis.py), so 12
takes every verified candidate; what a verified group means to the editor is its similarity.
"""

from __future__ import annotations

import bisect
import importlib
import io
import threading
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import TextIO

import numpy as np

from simdesk.core import paths
from simdesk.core.cleanup.plan import (
    CleanupPlan,
    CleanupReport,
    Fate,
    KeepChain,
    execute,
    keep_by_rule,
    member_fates,
    plan_cleanup,
    undecided_members,
    under,
)
from simdesk.core.cleanup.undo import UndoReport, undo_last_cleanup
from simdesk.core.fingerprint.similarity import DEFAULT_MIN_SIMILARITY
from simdesk.core.index.pooling import pooled
from simdesk.core.index.scan import ScanResult, scan
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import VerifySettings, analyse, cancelled_grouper
from simdesk.core.matching.groups import (
    DEFAULT_THRESHOLD,
    SPARSE_GRAPHS,
    Grouper,
    Grouping,
    exact_grouper,
    grouper_for,
)
from simdesk.core.matching.radius import MAX_THRESHOLD
from simdesk.core.matching.reread import short_document, short_text
from simdesk.core.matching.scratch_texts import ScratchTexts
from simdesk.core.reading.headline import HEADLINE_KEYS, Headline, Headlines, read_headline_blocks, unpacked
from simdesk.core.reading.texts import Texts, texts_of
from simdesk.core.records import Group, Member, Problem, Progress, ScanOptions
from simdesk.core.review import report
from simdesk.core.review.decisions import KEEP, QUEUED, SEQ_META, Decisions
from simdesk.core.review.diff import BUDGET_S, DEFAULT_DIFF_MODE, SideBySide, compare_texts
from simdesk.core.workers import CancelToken, worker_count


def compare_documents(
    texts: Texts,
    a: str,
    b: str,
    budget_s: float = BUDGET_S,
    mode: str = DEFAULT_DIFF_MODE,
    boilerplate: Collection[int] = frozenset(),
    similarity: float | None = None,
    shares: tuple[float, float] | None = None,
) -> SideBySide:
    """Read two documents as the scan reads them and compare them (diff.compare_texts). Raises OSError or
    DecodeError."""
    return compare_texts(texts.read(a).text, texts.read(b).text, budget_s, mode, boilerplate, similarity, shares)


SCOPES = ("selected", "shown", "all")  # the groups a rule or a clean-up acts on: see action_scope


@dataclass(frozen=True, slots=True)
class Scope:
    """The groups an action over many groups (a keep rule, a clean-up) acts on and why those: `kind` is
    "selected" (the groups the editor selected), "shown" (the groups the filters show) or "all"."""

    kind: str
    groups: tuple[int, ...] | None  # group ids (1-based) in ascending order; None: every group
    total: int  # the groups at the threshold

    @property
    def count(self) -> int:
        """How many groups the action reaches."""
        return self.total if self.groups is None else len(self.groups)


def action_scope(selected: Collection[int], shown: Collection[int] | None, total: int) -> Scope:
    """The one scope rule of every action over many groups: the groups explicitly `selected`, else the groups
    the filters `shown` (a text filter and a decided/undecided filter alike; None when no filter is on), else
    every group (`total` of them). A group only looked at is not a selection: the caller passes the groups
    the editor chose as such (the window: two or more selected rows)."""
    if selected:
        return Scope("selected", tuple(sorted(set(selected))), total)
    if shown is not None:
        return Scope("shown", tuple(sorted(set(shown))), total)
    return Scope("all", None, total)


EXPORT_MEMBERS = 20_000  # group members an export builds and reads headlines for at a time
BUNDLE_META = "bundle"  # index meta key: the cluster bundle the index was imported from (simdesk import)


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    """How a folder is reviewed: plain values that the command line's options and the window's settings
    fill. Defaults are defined here and nowhere else."""

    min_similarity: float = DEFAULT_MIN_SIMILARITY  # verified mode's least similarity; 0: plain SimHash groups
    threshold: int | None = None  # the module docstring's meaning; None: the mode's default
    scan: ScanOptions = ScanOptions()
    regroup: bool = True  # pairs searched up to MAX_THRESHOLD, so any threshold can be shown (the window)

    @classmethod
    def from_options(
        cls,
        threshold: int | None = None,
        similarity: float | None = None,
        scan: ScanOptions = ScanOptions(),
        regroup: bool = True,
    ) -> ReviewSettings:
        """The command line's rule: a threshold alone, or a similarity of 0, asks for plain SimHash groups;
        otherwise groups are verified (at `similarity`, by default 0.7)."""
        plain = similarity == 0 or (threshold is not None and similarity is None)
        return cls(
            0.0 if plain else (DEFAULT_MIN_SIMILARITY if similarity is None else similarity), threshold, scan, regroup
        )

    @property
    def verified(self) -> bool:
        """The one mode rule: verified grouping unless the least similarity is 0."""
        return self.min_similarity > 0

    @property
    def default_threshold(self) -> int:
        """Every verified candidate in verified mode; 3 bits in plain mode."""
        return MAX_THRESHOLD if self.verified else DEFAULT_THRESHOLD

    @property
    def shown_threshold(self) -> int:
        return min(self.default_threshold if self.threshold is None else self.threshold, MAX_THRESHOLD)

    def verify_settings(self) -> VerifySettings:
        """The analysis settings: the scan's size cap and worker count reach verification too."""
        return VerifySettings(min_similarity=self.min_similarity, max_bytes=self.scan.max_bytes, jobs=self.scan.jobs)


@dataclass
class Review:
    """What one folder's review holds: its pairs ready to regroup at any threshold, the editor's
    decisions, the problems of the last scan, and that scan's result."""

    root: Path
    index_path: Path
    settings: ReviewSettings
    grouper: Grouper
    decisions: Decisions
    texts: Texts  # where texts are read again (texts_of: the files under root, or a bundle's by URI)
    problems: list[Problem] = field(default_factory=list)
    result: ScanResult | None = None  # None: read from the index without scanning
    unchanged: bool = False  # the scan changed no document: the pairs are those of the review before it
    notice: str = ""  # something the editor must be told (the index was rebuilt or its decisions migrated)
    _rows: tuple[object, dict[str, int]] | None = field(default=None, repr=False)  # snapshot, path -> row
    # reread.short_text by (path, hash) of the texts read because verification stored nothing of them
    _short: dict[tuple[str, str], bool] = field(default_factory=dict, repr=False)

    @property
    def documents(self) -> int:
        return len(self.grouper.snapshot)

    @property
    def min_similarity(self) -> float | None:
        """The verified grouping's least similarity (None: plain SimHash groups)."""
        return self.grouper.min_similarity

    @cached_property
    def headlines(self) -> Headlines:
        """Titles, dates, sources and search forms of the groups' members, read when asked and kept (see
        headline.py): never stored per document in the index."""
        return Headlines(self.texts, self.grouper.boilerplate)

    def matching(self, query: str, grouping: Grouping | None = None) -> np.ndarray:
        """The numbers of the groups of `grouping` (the settings' when None) with a member whose path holds
        `query` (Grouping.matching) or whose title, source or text does, as far as they were read
        (Headlines.matching: folded, so case, width, script and wrapping do not matter); every group for a
        blank query."""
        grouping = self.grouping() if grouping is None else grouping
        by_path = grouping.matching(query)
        if not query.strip() or not len(self.headlines):
            return by_path
        row_of = self._row_of_path()
        rows = np.fromiter((row_of[p] for p in self.headlines.matching(query) if p in row_of), dtype=np.int64)
        groups = grouping.row_groups[rows]
        return np.union1d(by_path, groups[groups >= 0])

    def search_coverage(self, grouping: Grouping | None = None) -> tuple[int, int]:
        """(members read, members) of the groups of `grouping` (the settings' when None): matching() finds a
        text once it is read, so a filter is complete when both are equal."""
        grouping = self.grouping() if grouping is None else grouping
        snapshot, cached = grouping.snapshot, self.headlines.cached_at
        rows = np.flatnonzero(grouping.row_groups >= 0).tolist()
        return sum(cached(snapshot.paths[r], snapshot.hashes[r]) is not None for r in rows), len(rows)

    def ordered(
        self, groups: np.ndarray, key: str, descending: bool = False, grouping: Grouping | None = None
    ) -> np.ndarray:
        """`groups` (group numbers of `grouping`, the settings' when None) ordered by `key`: one of
        Grouping.sort_keys' keys, or a field of the headline of each group's first document (HEADLINE_KEYS:
        title, date, source) as far as the headlines were read. Titles and sources compare case-folded
        (Chinese by radical and strokes, the order of Unicode's ideographs), dates as ISO text (a month,
        2024-03, before its days); a group without one (no title, no source) and then a group not read yet
        (unread_headlines) come last whatever the direction; ties keep the engine's order."""
        return self.ordered_and_unread(groups, key, descending, grouping)[0]

    def ordered_and_unread(
        self, groups: np.ndarray, key: str, descending: bool = False, grouping: Grouping | None = None
    ) -> tuple[np.ndarray, int]:
        """ordered(), and how many of the groups it placed last for want of a headline read (0 for a key
        that is no headline's): one walk through the headlines for both."""
        grouping = self.grouping() if grouping is None else grouping
        if key not in HEADLINE_KEYS:
            return grouping.ordered(groups, key, descending), 0
        base = np.sort(np.asarray(groups, dtype=np.int64)).tolist()
        read: list[tuple[int, str]] = []
        blank: list[int] = []
        unread: list[int] = []
        for k, h in zip(base, self._group_headlines(grouping, base)):
            value = "" if h is None else getattr(h, key)
            if h is None:
                unread.append(k)
            elif not value:
                blank.append(k)
            else:
                read.append((k, value if key == "date" else value.casefold()))
        read.sort(key=lambda item: item[1], reverse=descending)  # stable: ties keep the engine's order
        return np.array([k for k, _ in read] + blank + unread, dtype=np.int64), len(unread)

    def unread_headlines(self, groups: np.ndarray, grouping: Grouping | None = None) -> int:
        """How many of `groups` have a first document whose headline is not read yet (a sort by title, date
        or source places them last until they are)."""
        grouping = self.grouping() if grouping is None else grouping
        return sum(h is None for h in self._group_headlines(grouping, np.asarray(groups, dtype=np.int64).tolist()))

    def _group_headlines(self, grouping: Grouping, groups: list[int]) -> list[Headline | None]:
        """The cached headline of each group's first document (None: not read), building no Group."""
        snapshot, cached = grouping.snapshot, self.headlines.cached_at
        rows = grouping.representatives[groups].tolist() if groups else []
        return [cached(snapshot.paths[r], snapshot.hashes[r]) for r in rows]

    def _row_of_path(self) -> dict[str, int]:
        snapshot = self.grouper.snapshot
        if self._rows is None or self._rows[0] is not snapshot:
            self._rows = (snapshot, {p: r for r, p in enumerate(snapshot.paths)})
        return self._rows[1]

    def grouping(self, threshold: int | None = None) -> Grouping:
        """The groups at `threshold` (the settings' when None), regrouped in memory."""
        return self.grouper.at(self._threshold(threshold))

    def _threshold(self, threshold: int | None) -> int:
        """The threshold grouped at for `threshold` (the settings' when None; at most the grouper's)."""
        t = self.settings.shown_threshold if threshold is None else threshold
        return min(t, self.grouper.max_threshold)

    def prepare(self, threshold: int | None = None, groups: int = 100, every: bool = True) -> None:
        """Group at `threshold` and build the first `groups` groups and the histogram now, then, with `every`,
        group at every other threshold (all memoised), so a view shows them, and a slider moves, without
        computing anything the first time (each grouping of 20,000 documents takes 5-30 ms; a cancelled
        review, which must come at once, leaves them to the slider)."""
        grouping = self.grouping(threshold)
        self.grouper.histogram()
        for k in range(min(groups, len(grouping))):
            grouping.group(k)
        for other in range(self.grouper.max_threshold + 1 if every else 0):
            self.grouping(other).row_groups  # noqa: B018 (memoised: where each document is, for a regroup)

    def undecided(self, group: Group, threshold: int | None = None) -> list[Member]:
        """The group's copies (a group at `threshold`) no decision covers (cleanup.undecided_members): neither
        kept nor queued, nor seen by a keep mark of the group as they are now and paired with the copy kept.
        A group with none is decided."""
        d = self.decisions
        return undecided_members(
            group, d.keep, d.queued, d.reviewed, self.held(threshold), self.min_similarity, self.short_text
        )

    def fates(self, group: Group, threshold: int | None = None) -> list[Fate]:
        """What a clean-up would do with each member of `group` (a group at `threshold`), in the group's
        order, and why (cleanup.member_fates): kept; goes, because a kept copy holds its text; stays, because
        none holds enough of it, or the editor has not seen it with the keep mark, or nothing is kept."""
        d = self.decisions
        return member_fates(
            group, d.keep, d.queued, d.reviewed, self.held(threshold), self.min_similarity, self.short_text
        )

    def held(self, threshold: int | None = None) -> Callable[[str, str], float | None]:
        """(copy, keeper) -> the share of copy's text found in keeper's when the two paths are a grouping pair
        at `threshold` (Grouping.held; None when they are not): a copy leaves only when a kept copy holds it."""
        grouping = self.grouping(threshold)
        return lambda copy, keeper: grouping.held(grouping.snapshot_row(copy), grouping.snapshot_row(keeper))

    def short_text(self, path: str) -> bool:
        """Whether a document's text without its boilerplate is short (reread.short_document: a word changed
        may make it another text, so a clean-up removes it only beside the same words): as verification
        stored it (Grouper.stored_short), so no file is read; a file over SHORT_BYTES bytes never is. Only
        where nothing is stored (an index or a bundle written before it was) is the text read, when first asked
        (cleanup.member_fates asks only for copies that differ from the copy kept), and kept by content."""
        row = self._row_of_path().get(path)
        if row is None:
            return True
        snapshot = self.grouper.snapshot
        key = (path, snapshot.hashes[row])

        def read_now() -> bool:
            if key not in self._short:
                self._short[key] = short_text(self.texts.read_or_none(path), self.grouper.boilerplate)
            return self._short[key]

        return short_document(int(snapshot.sizes[row]), self.grouper.stored_short(row), read_now)

    def decided(self, threshold: int | None = None) -> np.ndarray:
        """One flag per group at `threshold` (group k at k): every copy in it is decided. Only groups that
        hold a keep or trash mark are built and checked, so it costs the marks, not the groups."""
        grouping = self.grouping(threshold)
        out = np.zeros(len(grouping), dtype=bool)
        marked = self.decisions.keep | self.decisions.queued
        if not marked or not len(grouping):
            return out
        paths = self.grouper.snapshot.paths
        rows = [r for p in marked if (r := bisect.bisect_left(paths, p)) < len(paths) and paths[r] == p]
        groups = grouping.row_groups[np.asarray(rows, dtype=np.int64)]
        for k in np.unique(groups[groups >= 0]).tolist():
            out[k] = not self.undecided(grouping.group(k), threshold)
        return out

    def undecided_copies(self, group_ids: Iterable[int], threshold: int | None = None) -> int:
        """How many copies no decision covers in the groups with these ids (a clean-up's affected groups:
        CleanupPlan.survivors), at `threshold`."""
        grouping = self.grouping(threshold)
        return sum(
            len(self.undecided(grouping.group(g - 1), threshold)) for g in set(group_ids) if 0 < g <= len(grouping)
        )

    def next_undecided(
        self, shown: Sequence[int], after: int | None = None, threshold: int | None = None
    ) -> int | None:
        """The next group to decide: the first after group `after` in `shown` (group ids in the order the
        editor sees them, wrapping round) that is not decided (see decided); None when every shown group is."""
        decided = self.decided(threshold)
        ids = list(shown)
        start = ids.index(after) + 1 if after in ids else 0
        for gid in ids[start:] + ids[:start]:
            if not decided[gid - 1]:
                return gid
        return None

    def pair_score(self, a: str, b: str, threshold: int | None = None) -> float | None:
        """The stored verification score of two documents at `threshold` (what the Similarity column shows
        for them), or None when that pair was not verified there."""
        paths = self.grouper.snapshot.paths
        rows = [bisect.bisect_left(paths, p) for p in (a, b)]  # snapshot rows are in path order
        if any(r >= len(paths) or paths[r] != p for r, p in zip(rows, (a, b))):
            return None
        score = self.grouping(threshold).pair_score(rows[0], rows[1])
        return None if score is None or score != score else score  # NaN: could not be verified

    def compare(
        self, a: str, b: str, threshold: int | None = None, mode: str = DEFAULT_DIFF_MODE, budget_s: float = BUDGET_S
    ) -> SideBySide:
        """Two documents side by side as the engine compares them: read as the scan reads them, without the
        collection's boilerplate, headed by the similarity the groups show (the stored score when verified).
        Changed rows past `budget_s` are left rough (diff.refine finds their runs)."""
        return self.comparison(a, b, threshold, mode, budget_s)()

    def comparison(
        self, a: str, b: str, threshold: int | None = None, mode: str = DEFAULT_DIFF_MODE, budget_s: float = BUDGET_S
    ) -> partial[SideBySide]:
        """compare() as one picklable call that holds no review (the texts' reader, the two paths, the
        collection's boilerplate, the pair's score): a window runs it in a process of its own
        (core.HelperProcess)."""
        return partial(
            compare_documents,
            self.texts,
            a,
            b,
            budget_s,
            mode,
            self.grouper.boilerplate,
            self.pair_score(a, b, threshold),
            self.pair_shares(a, b, threshold),
        )

    def pair_shares(self, a: str, b: str, threshold: int | None = None) -> tuple[float, float] | None:
        """(share of a's text found in b's, of b's in a's) as stored for a grouping pair at `threshold`, or None
        when the pair is not one or its shares were not measured."""
        grouping = self.grouping(threshold)
        ra, rb = grouping.snapshot_row(a), grouping.snapshot_row(b)
        if ra < 0 or rb < 0:
            return None
        held, holds = grouping.held(ra, rb), grouping.held(rb, ra)
        if held is None or holds is None or held != held or holds != holds:  # not a pair; NaN: not measured
            return None
        return held, holds

    # -- decisions that regroup or span every group -----------------------------------------------------
    def mark_not_duplicates(self, a: str, b: str) -> None:
        """`a` and `b` never group together again: regrouped at once, remembered in the index on save."""
        self.decisions.mark_not_duplicates(a, b)
        self.grouper = self.grouper.without([(a, b)])

    def keep_by_rule(self, group: Group, rule: str | KeepChain) -> str:
        """Keep the member the rule picks (a criterion, or a chain of them: cleanup.KeepChain) and no other;
        its path."""
        chosen = keep_by_rule(group, rule).path
        self.decisions.keep_only(group, chosen)
        return chosen

    def rule_choices(
        self,
        rule: str | KeepChain,
        threshold: int | None = None,
        keep_in: str | None = None,
        only: Collection[int] | None = None,
        keep: bool = False,
    ) -> tuple[list[tuple[Group, str]], list[int]]:
        """What a rule (a criterion such as "oldest", or a chain: "in:news,oldest,largest") keeps in every
        group at `threshold` (or in the groups whose ids are in `only`: the ones an editor filtered or
        selected): (group, path kept) pairs, and the ids of the groups left alone. With `keep_in` (a folder
        relative to the root: the reference folder), the copy kept is chosen among the members under that
        folder, and a group with none there is left alone. Decides nothing yet (so it may run off the
        window's thread); apply_choices() does. With `keep`, the groups built stay built (Grouping.group): a
        window's counter reads every group holding a mark next (decided), 0.6 s of building again for 4,401
        groups; a clean-up from the command line lets them go."""
        chain = KeepChain.parse(rule)
        chosen, left_alone = [], []
        for g in self._groups(threshold, only, keep):
            members = g.members if keep_in is None else tuple(m for m in g.members if under(m.path, keep_in))
            if members:
                chosen.append((g, chain.choose(members).path))
            else:
                left_alone.append(g.id)
        return chosen, left_alone

    def folders(self) -> list[str]:
        """Every folder that holds an indexed document, relative to the root, sorted (for choosing a folder
        rule)."""
        out = set()
        for path in self.grouper.snapshot.paths:
            folder = path.rpartition("/")[0]
            while folder and folder not in out:
                out.add(folder)
                folder = folder.rpartition("/")[0]
        return sorted(out)

    def apply_choices(self, chosen: Iterable[tuple[Group, str]], threshold: int | None = None) -> list[int]:
        """Keep the chosen copy in each group (rule_choices' groups at `threshold`) and no other; the ids of the
        groups where copies stay undecided (partly_decided)."""
        chosen = list(chosen)
        self.keep_choices(chosen)
        return self.partly_decided([group for group, _ in chosen], threshold)

    def keep_choices(self, chosen: Iterable[tuple[Group, str]]) -> None:
        """Keep the chosen copy in each group (rule_choices' groups) and no other: the marks alone, at once (a
        window applies them on its thread, then counts partly_decided off it: see stamp)."""
        self.decisions.keep_choices(chosen)

    def partly_decided(
        self, groups: Iterable[Group], threshold: int | None = None, decided: np.ndarray | None = None
    ) -> list[int]:
        """The ids of the groups (at `threshold`) where copies stay undecided: below the threshold to the copy
        kept (see undecided), so that a count of groups a rule decided agrees with the review's counter. Builds
        every member's fate (0.45-0.8 s for 4,401 groups), unless given `decided`: decided() as counted at the
        same stamp (a window's counter counts it off its thread after every change of marks anyway, and says
        a rule's summary from it only while the review is as it was: see stamp)."""
        if decided is not None:
            return [group.id for group in groups if not decided[group.id - 1]]
        return [group.id for group in groups if self.undecided(group, threshold)]

    def stamp(self, threshold: int | None = None) -> tuple[int, int]:
        """What a figure counted from the groups at `threshold` and the editor's decisions depends on (how many
        groups a keep rule left partly undecided, how many groups are decided): the decisions' generation
        (Decisions.generation) and the threshold grouped at. A figure counted off the window's thread is
        shown only while current(): a mark changed, an undo, another rule, "not duplicates" (which regroups)
        or another threshold meanwhile, and it describes groups or marks that are no longer there."""
        return self.decisions.generation, self._threshold(threshold)

    def current(self, stamp: tuple[int, int], threshold: int | None = None) -> bool:
        """Whether a figure counted at `stamp` still describes the review at `threshold` (see stamp)."""
        return stamp == self.stamp(threshold)

    def keep_by_rule_everywhere(
        self, rule: str | KeepChain, threshold: int | None = None, keep_in: str | None = None
    ) -> list[int]:
        """Keep one copy in every group by a rule (see rule_choices); returns the ids of groups left alone."""
        chosen, left_alone = self.rule_choices(rule, threshold, keep_in)
        self.apply_choices(chosen, threshold)
        return left_alone

    # -- clean-up, undo, export ---------------------------------------------------------------------------
    def plan_cleanup(self, threshold: int | None = None, only: Collection[int] | None = None) -> CleanupPlan:
        """What a clean-up removes at `threshold` (in the groups whose ids are in `only`: an action_scope's;
        None: every group): in a group with a copy kept, every other copy paired with a kept one; in a group
        with none kept, the queued copies, unless that is every copy (refused). See cleanup.plan_cleanup."""
        return plan_cleanup(
            self._groups(threshold, only),
            self.decisions.keep,
            self.decisions.queued,
            reviewed=self.decisions.reviewed,
            held=self.held(threshold),
            least=self.min_similarity,
            short=self.short_text,
        )

    def _groups(self, threshold: int | None, only: Collection[int] | None, keep: bool = False) -> Iterable[Group]:
        """The groups at `threshold` whose ids are in `only` (every group when None); with `keep`, every one
        kept once built (Grouping.group), else only those asked for by id."""
        grouping = self.grouping(threshold)
        if only is None:
            return (grouping.group(k, keep) for k in range(len(grouping))) if keep else grouping
        return (grouping.group(k - 1) for k in sorted(set(only)) if 0 < k <= len(grouping))

    def clean_up(
        self, plan: CleanupPlan, action: str = "trash", dest: Path | None = None, log: Path | None = None
    ) -> CleanupReport:
        """Carry out a plan ("trash" or "move" below `dest`); each file is checked unchanged since the scan
        first, and only files verified gone count as done. Logged to `log` (the user's action log) for undo.
        Raises OSError for a review whose texts are read by URI (a bundle of an object store or a dataset):
        those are acted on by `simdesk cluster-apply`, never from here."""
        if self.texts.uri_prefix is not None:
            raise OSError(
                f"the documents are in {self.texts.uri_prefix}, not on this computer: export the "
                "decisions (simdesk import BUNDLE --decisions decisions.parquet) and apply them with "
                "simdesk cluster-apply"
            )
        done = execute(plan, self.root, action, dest=dest, log_path=log or paths.action_log())
        self.decisions.forget(done.done)
        return done

    def export(self, fmt: str, threshold: int | None = None) -> str:
        """The groups at `threshold` as "json" (the `simdesk scan --format json` shape), "csv" or "text",
        with the editor's decisions and each member's title, date and source (headline.py)."""
        out = io.StringIO()
        self.export_to(out, fmt, threshold)
        return out.getvalue()

    def write_export(self, path: Path, fmt: str, threshold: int | None = None) -> Path:
        with open(path, "w", encoding="utf-8", newline="") as out:
            self.export_to(out, fmt, threshold)
        return Path(path)

    def export_to(self, out: TextIO, fmt: str, threshold: int | None = None) -> None:
        """export(), written to `out` as it is made: groups are built EXPORT_MEMBERS members at a time, and
        the headlines of those not read yet (by the window, or by verification in the analysis's pass:
        Grouper.read_headlines) are read for that block (in the scan's worker processes when there are many),
        so a million documents' report never holds every group or headline at once."""
        grouping = self.grouping(threshold)
        decisions = {**dict.fromkeys(self.decisions.queued, QUEUED), **dict.fromkeys(self.decisions.keep, KEEP)}
        headlines: dict[str, Headline] = {}
        groups = self._groups_with_headlines(grouping, headlines)
        if fmt == "json":
            report.write_groups_json(
                out,
                str(self.root),
                grouping.threshold,
                self.documents,
                groups,
                self.problems,
                grouping.min_similarity,
                decisions,
                sorted(self.decisions.not_duplicates),
                headlines,
            )
        elif fmt == "csv":
            report.write_groups_csv(out, groups, self.problems, decisions, headlines)
        else:
            report.write_groups_text(
                out, str(self.root), grouping, self.documents, self.problems, decisions, headlines, groups
            )

    def _groups_with_headlines(self, grouping: Grouping, headlines: dict[str, Headline]) -> Iterator[Group]:
        """The groups of `grouping` in order, EXPORT_MEMBERS members at a time; before each block is given,
        `headlines` holds its members' headlines (those the window or verification read already, the others
        read now)."""
        ends = np.unique(
            np.searchsorted(
                np.cumsum(grouping.sizes()), np.arange(EXPORT_MEMBERS, grouping.documents_in_groups, EXPORT_MEMBERS)
            )
            + 1
        )
        bounds = [(b0, b1) for b0, b1 in zip([0, *ends.tolist()], [*ends.tolist(), len(grouping)]) if b1 > b0]
        # the block whose headlines are being read, and the packed headlines verification read of its members
        built: list[tuple[list[Group], dict[str, str]]] = []
        paths = grouping.snapshot.paths

        def to_read() -> Iterator[list[Member]]:
            for b0, b1 in bounds:
                block = grouping.groups(range(b0, b1))
                read_before = {
                    paths[r]: packed
                    for k in range(b0, b1)
                    for r in grouping.member_rows(k).tolist()
                    if (packed := self.grouper.read_headline(r)) is not None
                }
                built.append((block, read_before))
                yield [
                    m
                    for g in block
                    for m in g.members
                    if m.path not in read_before and self.headlines.cached(m) is None
                ]

        for read in read_headline_blocks(
            self.texts,
            to_read(),
            grouping.documents_in_groups,
            self.grouper.boilerplate,
            worker_count(self.settings.scan.jobs),
        ):
            block, read_before = built.pop()
            headlines.clear()
            for g in block:
                for m in g.members:
                    if (h := self.headlines.cached(m)) is not None:
                        headlines[m.path] = h
                    elif (packed := read_before.get(m.path)) is not None:
                        headlines[m.path] = unpacked(packed, m.mtime_ns)
            headlines.update(read)
            yield from block


def pair_to_compare(selected: Sequence[Member], group: Group | None) -> tuple[Member, Member] | None:
    """What to compare side by side: the first two selected members; or the one selected and its group's
    representative; or the representative and the group's first member with another text (an identical
    copy shows no change), else its second member."""
    if len(selected) >= 2:
        return selected[0], selected[1]
    if group is None or len(group.members) < 2:
        return None
    first = group.members[0]
    if len(selected) == 1 and selected[0].path != first.path:
        return first, selected[0]
    return first, next((m for m in group.members[1:] if m.content_hash != first.content_hash), group.members[1])


def undo_last(log: Path | None = None) -> UndoReport:
    """Put back the files of the last clean-up in the action log (the user's, by default)."""
    return undo_last_cleanup(log or paths.action_log())


def open_review(
    root: Path,
    index: Index,
    settings: ReviewSettings = ReviewSettings(),
    on_progress: Callable[[Progress], None] | None = None,
    cancel: CancelToken | None = None,
    *,
    rescan: bool = True,
    shown: Review | None = None,
    on_exact: Callable[[Review], None] | None = None,
) -> Review:
    """Bring the index of `root` up to date (unless `rescan` is False: what the index holds now), find and
    verify its pairs as the settings say, and read the editor's decisions: the review of the folder.

    `shown`, a review of the same folder on screen already: when the scan changed no document, its pairs
    are reused instead of analysed again (seconds on a large folder). Cancelling keeps what was indexed; the
    review then holds, within a second, the groups the index has without comparing any more texts
    (analysis.cancelled_grouper: the identical copies, and the pairs verified so far unless they are too many
    to group at once). Raises what scan() raises (an unreadable root; a busy index).

    `on_exact`, in verified mode: called, once the index is up to date and before any text is compared, with
    a review of the identical copies alone (groups the verified review holds too), so a first scan shows
    groups while the similar ones are checked.
    """
    root = Path(root)
    cancel = cancel or CancelToken()
    # an index imported from a cluster bundle holds the groups' members only: a scan would index the whole folder
    rescan = rescan and index.meta(BUNDLE_META) is None
    if not (rescan and settings.verified):
        return _reviewed(root, index, settings, on_progress, cancel, rescan, shown, on_exact, None)
    # the scan pass keeps each text it reads (scratch_texts): verification below loads it, not reads it again
    with ScratchTexts(root, index) as scratch:
        return _reviewed(root, index, settings, on_progress, cancel, rescan, shown, on_exact, scratch)


def _reviewed(
    root: Path,
    index: Index,
    settings: ReviewSettings,
    on_progress: Callable[[Progress], None] | None,
    cancel: CancelToken,
    rescan: bool,
    shown: Review | None,
    on_exact: Callable[[Review], None] | None,
    scratch: ScratchTexts | None,
) -> Review:
    """open_review, the scan's texts kept in `scratch` when given."""
    keep = scratch.keeper(settings.scan.jobs) if scratch is not None else None
    scanning = load_while_reading(SPARSE_GRAPHS, worker_count(settings.scan.jobs), on_progress)
    result = scan(root, index, settings.scan, on_progress=scanning, cancel=cancel, keep=keep) if rescan else None
    s = result.stats if result is not None else None
    # a scan cancelled before it changed a document leaves the groups shown as they are
    kept = shown if s is not None and s.new == s.changed == s.moved == s.deleted == 0 else None
    unchanged = kept is not None
    if kept is not None:
        grouper = kept.grouper
    elif settings.verified and cancel.cancelled:  # what the index holds, at once: no text compared
        grouper = cancelled_grouper(index, settings.verify_settings())
    elif settings.verified:
        if on_exact is not None:
            on_exact(_review_of(root, index, settings, exact_grouper(index, settings.min_similarity), result))
        verify = settings.verify_settings()
        grouper = analyse(root, index, verify=verify, on_progress=on_progress, cancel=cancel, scratch=scratch)
    else:
        grouper = grouper_for(index, MAX_THRESHOLD if settings.regroup else settings.shown_threshold)
    if not cancel.cancelled:
        index.pack_if_rewritten()  # after a first scan: the analysis's writes done, the file rewritten compactly
    return _review_of(root, index, settings, grouper, result, unchanged)


def load_while_reading(
    modules: Sequence[str], workers: int, on_progress: Callable[[Progress], None] | None
) -> Callable[[Progress], None]:
    """The scan's progress for `on_progress`, which also imports `modules` on a thread of their own once the
    scan has listed the files it reads in `workers` processes (its first "reading", index.pooling): the
    scanning process mostly waits then, for the workers' fork server to load, then for their chunks, while
    before its first file and after its last the workers wait for it. A module that fails to load here is met
    again where it is used."""
    started = False

    def relay(progress: Progress) -> None:
        nonlocal started
        if not started and progress.phase == "reading" and pooled(progress.total, 0, workers):
            started = True
            threading.Thread(target=_load, args=(modules,), name="simdesk-load", daemon=True).start()
        if on_progress is not None:
            on_progress(progress)

    return relay


def _load(modules: Sequence[str]) -> None:
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 (its user imports it again, and reports what failed)
            return


def _review_of(
    root: Path,
    index: Index,
    settings: ReviewSettings,
    grouper: Grouper,
    result: ScanResult | None,
    unchanged: bool = False,
) -> Review:
    """A review of `grouper`'s groups with the editor's decisions as the index holds them now."""
    read_seq = int(index.meta(SEQ_META) or 0)  # before the decisions: a save in between is replayed (adopt)
    decisions = Decisions(
        index.path, index.keep_marks(), index.queued_for_trash(), index.ignored_pairs(), index.reviewed(), read_seq
    )
    return Review(
        root,
        index.path,
        settings,
        grouper,
        decisions,
        texts_of(root, index, settings.scan.max_bytes),
        index.problems(),
        result,
        unchanged,
        index.rebuilt_reason if index.rebuilt else "",
    )


__all__ = ["Review", "ReviewSettings", "open_review", "pair_to_compare", "undo_last"]
