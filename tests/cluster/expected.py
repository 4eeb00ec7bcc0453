"""What `simdesk scan` finds on a folder, and what a bundle holds, in one comparable shape: fingerprints by
path, pairs as (path, path, distance, scaled distance, score), groups as member paths in order. The pairs are
every pair of documents they stand for: an engine may search one document of each class (one content hash
verified, one fingerprint plain) and give the others its pairs (copies.with_copies), another every one."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simdesk.cluster.bundle import open_bundle
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import analyse
from simdesk.core.matching.groups import grouper_for
from simdesk.core.records import ScanOptions


def every_pair(pairs: set, class_of: dict[str, object], identical: tuple) -> set:
    """`pairs` with the pairs they stand for: each pair of two classes given to every two of their members,
    and every two members of one class paired with the figures `identical` (distance, score)."""
    members: dict[object, list[str]] = {}
    for path, c in sorted(class_of.items()):
        members.setdefault(c, []).append(path)
    out = set()
    for a, b, d, s in pairs:
        if class_of[a] == class_of[b]:
            continue
        out.update((*sorted((x, y)), d, s) for x in members[class_of[a]] for y in members[class_of[b]])
    for paths in members.values():
        out.update((x, y, *identical) for k, x in enumerate(paths) for y in paths[k + 1 :])
    return out


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
                (snap.paths[a], snap.paths[b], int(s), round(float(sc), 9))
                for a, b, s, sc in zip(grouper.i[ok], grouper.j[ok], grouper.d[ok], grouper.scores[ok])
            }
        else:
            grouper = grouper_for(index, threshold)
            t = threshold
            snap = grouper.snapshot
            pairs = {(snap.paths[a], snap.paths[b], int(d), None) for a, b, d in zip(grouper.i, grouper.j, grouper.d)}
        groups = [
            [(m.path, m.distance, None if m.score is None else round(m.score, 9)) for m in g.members]
            for g in grouper.at(t)
        ]
        classes = {d.path: d.content_hash if verified else d.fingerprint for d in index.documents()}
    return {
        "fingerprints": fps,
        "pairs": every_pair(pairs, classes, (0, 1.0) if verified else (0, None)),
        "groups": groups,
    }


def from_bundle(path: Path) -> dict:
    b = open_bundle(path)
    docs = b.table("documents").to_pydict()
    paths = dict(zip(docs["doc_id"], docs["path"]))
    fps = {p: int(np.int64(f).view(np.uint64)) for p, f in zip(docs["path"], docs["fingerprint"])}
    pt = b.table("pairs").to_pydict()
    pairs = set()
    for a, bb, scaled, score in zip(pt["a"], pt["b"], pt["scaled"], pt["score"]):
        pa_, pb = sorted((paths[a], paths[bb]))
        pairs.add((pa_, pb, scaled, None if score is None else round(score, 9)))
    verified = any(score is not None for score in pt["score"])
    classes = dict(zip(docs["path"], docs["content_hash"] if verified else docs["fingerprint"]))
    pairs = every_pair(pairs, classes, (0, 1.0) if verified else (0, None))
    gt = b.table("groups").to_pydict()
    groups: dict[int, list] = {}
    for g, doc, _rank, dist, score in sorted(
        zip(gt["group"], gt["doc_id"], gt["rank"], gt["distance"], gt["score"]), key=lambda r: (r[0], r[2])
    ):
        groups.setdefault(g, []).append((paths[doc], dist, None if score is None else round(score, 9)))
    return {"fingerprints": fps, "pairs": pairs, "groups": [groups[g] for g in sorted(groups)]}
