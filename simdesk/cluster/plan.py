"""What a cluster scan computes, independent of the engine that runs it: the mode chosen from the options (the
desktop's rule), the per-partition steps (fingerprint items, verification shingles), the fingerprinted
collection as arrays, and the bundle tables built from it. Every step calls simdesk.core; nothing here
re-implements a feature, the boilerplate rule, the fingerprint, the pair radius or the score.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simdesk.cluster.sources import Source, SourceItem
from simdesk.core.fingerprint.features import FeatureSettings
from simdesk.core.fingerprint.simhash import to_signed
from simdesk.core.fingerprint.similarity import Profile
from simdesk.core.index.documents import Snapshot
from simdesk.core.matching.analysis import DEFAULT_VERIFY, VerifySettings, boilerplate_sources, boilerplate_votes
from simdesk.core.matching.copies import swap_shares
from simdesk.core.matching.groups import DEFAULT_THRESHOLD, Grouping
from simdesk.core.matching.reread import profile_and_short
from simdesk.core.reading.boilerplate import LineHashes
from simdesk.core.records import MAX_FILE_BYTES, Document, Problem
from simdesk.core.review.review import ReviewSettings


@dataclass(frozen=True)
class ScanPlan:
    """The options of one cluster scan, as plain values. Mode as `simdesk scan` chooses it: `threshold`
    alone (or similarity 0) is plain SimHash at that distance; otherwise verified, grouped at `threshold`
    (the scaled distance, default the long radius) and `similarity` (default 0.7)."""

    threshold: int | None = None
    similarity: float | None = None
    jobs: int = 0
    max_bytes: int = MAX_FILE_BYTES
    driver_pairs: int = 20_000_000  # connected components on the driver up to this many pairs

    @property
    def verified(self) -> bool:
        """The desktop's one rule for the grouping mode (core.review)."""
        return ReviewSettings.from_options(self.threshold, self.similarity).verified

    @property
    def radius(self) -> int:
        """Plain mode's pair radius."""
        return DEFAULT_THRESHOLD if self.threshold is None else self.threshold

    @property
    def verify(self) -> VerifySettings:
        if self.similarity is None:
            return VerifySettings(max_bytes=self.max_bytes)
        return VerifySettings(min_similarity=self.similarity, max_bytes=self.max_bytes)

    @property
    def group_threshold(self) -> int:
        if not self.verified:
            return self.radius
        return self.verify.long_radius if self.threshold is None else self.threshold

    def manifest(self) -> dict[str, object]:
        out: dict[str, object] = {
            "mode": "verified" if self.verified else "plain",
            "threshold": self.group_threshold,
            "max_threshold": self.verify.long_radius if self.verified else self.radius,
        }
        if self.verified:
            v = self.verify
            out["min_similarity"] = v.min_similarity
            out["verify"] = {
                "long_radius": v.long_radius,
                "medium_radius": v.medium_radius,
                "medium_chars": v.medium_chars,
                "short_radius": v.short_radius,
                "short_chars": v.short_chars,
            }
        return out


DEFAULT_PLAN = ScanPlan()
assert DEFAULT_PLAN.verify == DEFAULT_VERIFY


def fingerprint_items(
    source: Source, items: list[SourceItem], settings: FeatureSettings
) -> list[tuple[SourceItem, Document | Problem]]:
    """Each item read and fingerprinted by the desktop's code (one partition's work), the next ones fetched
    meanwhile (Source.read_ahead)."""
    with source.read_ahead(items) as ahead:
        return [(item, source.document(item, settings, ahead)) for item in items]


def read_boilerplate_votes(
    source: Source,
    items: list[SourceItem],
    wanted: set[int],
    lines: LineHashes,
    chars: np.ndarray,
    settings: FeatureSettings,
) -> dict[int, np.ndarray]:
    """boilerplate_votes of the wanted lines over these items (`lines`, `chars`: theirs, row for row), each
    text read in the order the votes read them with the next ones fetched meanwhile (Source.read_ahead)."""
    rows = boilerplate_sources(wanted, lines, chars)  # the rows boilerplate_votes reads, in its order
    with source.read_ahead([items[row] for row in rows], follow_links=True) as ahead:
        return boilerplate_votes(wanted, lines, chars, lambda row: source.read_texts([items[row]], ahead)[0], settings)


def shingle_items(
    source: Source, items: list[SourceItem], boilerplate: frozenset[int]
) -> list[tuple[Profile, bool | None]]:
    """The verification profile (shingles, short text) of each item's text and whether it is short
    (reread.profile_and_short: one partition's work; an empty profile and None when unreadable)."""
    return [profile_and_short(text, boilerplate) for text in source.read_texts(items)]


@dataclass
class Collection:
    """The fingerprinted documents of a scan as arrays, in path order (the desktop's snapshot order);
    `doc_ids` number them in fingerprint order, the bundle's row order."""

    items: list[SourceItem]
    docs: list[Document]
    problems: list[tuple[SourceItem | None, Problem]] = field(default_factory=list)

    def __post_init__(self) -> None:
        order = sorted(range(len(self.docs)), key=lambda k: self.docs[k].path)
        self.items = [self.items[k] for k in order]
        self.docs = [self.docs[k] for k in order]
        self.fingerprints = np.array([d.fingerprint for d in self.docs], dtype=np.uint64)
        self.chars = np.array([d.chars for d in self.docs], dtype=np.int64)
        signed = self.fingerprints.view(np.int64)
        by_fp = np.lexsort((np.arange(len(self.docs)), signed))
        self.doc_ids = np.empty(len(self.docs), dtype=np.int64)
        self.doc_ids[by_fp] = np.arange(len(self.docs))
        self.clean = self.fingerprints.copy()
        self.short = np.full(len(self.docs), -1, dtype=np.int8)  # verification's measured_short; -1: not read

    def __len__(self) -> int:
        return len(self.docs)

    def snapshot(self, fingerprints: np.ndarray | None = None) -> Snapshot:
        d = self.docs
        return Snapshot(
            self.doc_ids,
            self.fingerprints if fingerprints is None else fingerprints,
            np.array([x.size for x in d], dtype=np.int64),
            np.array([x.mtime_ns for x in d], dtype=np.int64),
            self.chars,
            [x.path for x in d],
            [x.content_hash for x in d],
            [x.encoding for x in d],
        )

    def line_hashes(self) -> list[np.ndarray]:
        return [np.frombuffer(d.line_hashes, dtype="<u4") for d in self.docs]

    def documents_table(self):
        import pyarrow as pa

        order = np.argsort(self.doc_ids, kind="stable")
        d = [self.docs[k] for k in order]
        it = [self.items[k] for k in order]
        return pa.table(
            {
                "doc_id": pa.array(np.arange(len(d), dtype=np.int64)),
                "path": [x.path for x in d],
                "uri": [x.uri for x in it],
                "size": [x.size for x in d],
                "mtime_ns": [x.mtime_ns for x in d],
                "version": [x.version for x in it],
                "content_hash": [x.content_hash for x in d],
                "encoding": [x.encoding for x in d],
                "chars": [x.chars for x in d],
                "fingerprint": pa.array(self.fingerprints[order].view(np.int64)),
                "clean_fp": pa.array(self.clean[order].view(np.int64)),
                "lines": [x.line_hashes for x in d],
                "votes": [x.votes for x in d],
                "bands": [x.bands for x in d],
                "short": pa.array(self.short[order], mask=self.short[order] < 0),
            }
        )

    def problems_table(self):
        import pyarrow as pa

        rows = sorted(self.problems, key=lambda p: p[1].path)
        return pa.table(
            {
                "path": [p.path for _, p in rows],
                "uri": [i.uri if i else "" for i, _ in rows],
                "error": [p.error for _, p in rows],
            }
        )


def pairs_table(
    doc_ids: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    d: np.ndarray,
    scaled: np.ndarray,
    scores: np.ndarray | None,
    held: np.ndarray | None = None,
):
    """Pairs of snapshot rows as the bundle's pairs table (doc ids, a < b); `held` (pairs x 2, verified mode):
    the share of i's text found in j's and of j's in i's, written as a_in_b and b_in_a of the ordered ids."""
    import pyarrow as pa

    a, b = doc_ids[i], doc_ids[j]
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    order = np.lexsort((hi, lo))
    score = (
        pa.array(np.asarray(scores, dtype=np.float64)[order])
        if scores is not None
        else pa.nulls(len(order), pa.float64())
    )
    if held is None:
        shares = [pa.nulls(len(order), pa.float64())] * 2
    else:  # a_in_b: the smaller id's text found in the larger's
        ours = swap_shares(np.array(held, dtype=np.float64), a > b)[order]
        shares = [pa.array(ours[:, 0]), pa.array(ours[:, 1])]
    return pa.table(
        {
            "a": lo[order],
            "b": hi[order],
            "distance": np.asarray(d, dtype=np.int8)[order],
            "scaled": np.asarray(scaled, dtype=np.int8)[order],
            "score": score,
            "a_in_b": shares[0],
            "b_in_a": shares[1],
        }
    )


def groups_table(grouping: Grouping):
    """The groups at the scan's threshold, as the desktop builds them (core.groups), one row per member."""
    import pyarrow as pa

    rows = [(g.id, m.doc_id, rank, m.distance, m.score) for g in grouping for rank, m in enumerate(g.members)]
    cols: list[tuple[object, ...]] = list(zip(*rows)) if rows else [(), (), (), (), ()]
    return pa.table(
        {
            "group": pa.array(cols[0], pa.int64()),
            "doc_id": pa.array(cols[1], pa.int64()),
            "rank": pa.array(cols[2], pa.int32()),
            "distance": pa.array(cols[3], pa.int8()),
            "score": pa.array(cols[4], pa.float64()),
        }
    )


def signed(values: np.ndarray) -> list[int]:
    return [to_signed(int(v)) for v in values]


def manifest_of(source: Source, plan: ScanPlan, settings: FeatureSettings, engine: str, counts: dict) -> dict:
    return {
        "features": settings.to_json(),
        **plan.manifest(),
        "engine": engine,
        "counts": counts,
        "source": {
            "kind": source.kind,
            "spec": source.spec,
            "root": source.root,
            "includes": list(source.includes),
            "max_bytes": source.max_bytes,
        },
    }
