"""What `simdesk scan` finds on a folder, and what a bundle holds, in one comparable shape: fingerprints by
path, pairs as (path, path, scaled distance, score, share of the first text in the second, of the second in
the first; the paths in order, shares rounded; score and shares None in plain mode), groups as member paths
with distance and score, in order. The pairs are
every pair of documents they stand for: an engine may search one document of each class (one content hash
verified, one fingerprint plain) and give the others its pairs (copies.with_copies), another every one."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

from simdesk.cluster.bundle import open_bundle
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import analyse
from simdesk.core.matching.groups import grouper_for
from simdesk.core.records import ScanOptions


def _ordered(x: str, y: str, d: int, s: float | None, held: tuple) -> tuple:
    """A pair of paths x, y in path order, its shares following their texts."""
    return (x, y, d, s, *held) if x < y else (y, x, d, s, *held[::-1])


def every_pair(pairs: set, class_of: Mapping[str, object], identical: tuple) -> set:
    """`pairs` with the pairs they stand for: each pair of two classes given to every two of their members,
    and every two members of one class paired with the figures `identical` (distance, score, shares)."""
    members: dict[object, list[str]] = {}
    for path, c in sorted(class_of.items()):
        members.setdefault(c, []).append(path)
    out: set[tuple] = set()
    for a, b, d, s, a_in_b, b_in_a in pairs:
        if class_of[a] == class_of[b]:
            continue
        out.update(_ordered(x, y, d, s, (a_in_b, b_in_a)) for x in members[class_of[a]] for y in members[class_of[b]])
    for paths in members.values():
        out.update((x, y, *identical) for k, x in enumerate(paths) for y in paths[k + 1 :])
    return out


def _share(value: float) -> float | None:
    return None if value is None or value != value else round(float(value), 9)


def desktop(folder: Path, db: Path, threshold: int | None = None, verified: bool = False) -> dict:
    """The desktop's scan of `folder`: plain at `threshold`, or verified with the defaults."""
    with Index(db) as index:
        scan(folder, index, ScanOptions(jobs=1))
        fps = {d.path: d.fingerprint for d in index.documents()}
        if verified:
            grouper = analyse(folder, index)
            t = grouper.max_threshold
            ok = grouper.scores >= grouper.min_similarity
            snap = grouper.snapshot
            pairs = {
                _ordered(snap.paths[a], snap.paths[b], int(s), round(float(sc), 9), (_share(h[0]), _share(h[1])))
                for a, b, s, sc, h in zip(
                    grouper.i[ok], grouper.j[ok], grouper.d[ok], grouper.scores[ok], grouper.held[ok]
                )
            }
        else:
            if threshold is None:
                raise ValueError("a plain scan is compared at a threshold")
            grouper = grouper_for(index, threshold)
            t = threshold
            snap = grouper.snapshot
            pairs = {
                _ordered(snap.paths[a], snap.paths[b], int(d), None, (None, None))
                for a, b, d in zip(grouper.i, grouper.j, grouper.d)
            }
        groups = [
            [(m.path, m.distance, None if m.score is None else round(m.score, 9)) for m in g.members]
            for g in grouper.at(t)
        ]
        classes = {d.path: d.content_hash if verified else d.fingerprint for d in index.documents()}
    return {
        "fingerprints": fps,
        "pairs": every_pair(pairs, classes, (0, 1.0, 1.0, 1.0) if verified else (0, None, None, None)),
        "groups": groups,
    }


def from_bundle(path: Path, expand: bool = True) -> dict:
    """A bundle in the comparable shape; its pairs as written when not `expand`ed to every pair they stand for."""
    b = open_bundle(path)
    docs = b.table("documents").to_pydict()
    paths = dict(zip(docs["doc_id"], docs["path"]))
    fps = {p: int(np.int64(f).view(np.uint64)) for p, f in zip(docs["path"], docs["fingerprint"])}
    pt = b.table("pairs").to_pydict()
    pairs = set()
    for a, bb, scaled, score, a_in_b, b_in_a in zip(
        pt["a"], pt["b"], pt["scaled"], pt["score"], pt["a_in_b"], pt["b_in_a"]
    ):
        score = None if score is None else round(score, 9)
        pairs.add(_ordered(paths[a], paths[bb], scaled, score, (_share(a_in_b), _share(b_in_a))))
    verified = any(score is not None for score in pt["score"])
    classes = dict(zip(docs["path"], docs["content_hash"] if verified else docs["fingerprint"]))
    if expand:
        pairs = every_pair(pairs, classes, (0, 1.0, 1.0, 1.0) if verified else (0, None, None, None))
    gt = b.table("groups").to_pydict()
    groups: dict[int, list] = {}
    for g, doc, _rank, dist, score in sorted(
        zip(gt["group"], gt["doc_id"], gt["rank"], gt["distance"], gt["score"]), key=lambda r: (r[0], r[2])
    ):
        groups.setdefault(g, []).append((paths[doc], dist, None if score is None else round(score, 9)))
    return {"fingerprints": fps, "pairs": pairs, "groups": [groups[g] for g in sorted(groups)]}
