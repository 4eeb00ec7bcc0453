"""A bundle opened on the desktop: the members of its groups loaded into the folder's index, so the window and
`simdesk scan`'s review (groups, threshold slider, diff, keep marks, not-duplicates, clean-up) work on them
as on a scanned folder; and the editor's decisions exported back as `decisions.parquet`. A bundle of an
object store or a dataset opens as its own folder, its texts fetched by URI when the diff or verification
needs them (core.texts).

Only group members are loaded (a bundle of 100M documents has a few million), each with its fingerprint, its
boilerplate-free fingerprint and, in verified mode, its verified pairs and scores, marked as searched and
scored under the current rules, and whether its text is short: opening the folder groups them at once, and a
clean-up plans, without reading a text. The index is
marked as imported (review.BUNDLE_META), so opening it never rescans the folder (that would index everything).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simdesk.cluster.bundle import Bundle, BundleError, check_documents, check_short_texts
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import DEFAULT_VERIFY, VerifySettings, verify_rules
from simdesk.core.reading.texts import TEXTS_META
from simdesk.core.records import Document, Problem, Relation
from simdesk.core.review.review import BUNDLE_META

LOCAL_SOURCES = ("folder", "glob")


@dataclass(frozen=True)
class ImportReport:
    root: Path
    members: int
    pairs: int
    problems: int

    def summary(self) -> str:
        return f"{self.members} documents in groups and {self.pairs} pairs imported; open {self.root} to review them"


def bundle_root(bundle: Bundle) -> Path:
    """The folder the window opens for the bundle: the folder its paths are relative to, or, for a bundle of
    an object store or a dataset (texts read by URI), the bundle's own folder."""
    source = bundle.manifest["source"]
    return Path(source["root"]) if source["kind"] in LOCAL_SOURCES else bundle.path.resolve()


def uri_prefix(bundle: Bundle, paths: list[str], uris: list[str]) -> str:
    """The URI prefix the bundle's paths are read under ('' for a bundle of local files). Raises BundleError
    when the documents' URIs do not all end with their paths under one prefix."""
    if bundle.manifest["source"]["kind"] in LOCAL_SOURCES or not paths:
        return ""
    prefix = uris[0][: len(uris[0]) - len(paths[0])]
    if any(u != prefix + p for p, u in zip(paths, uris)):
        raise BundleError(f"{bundle.path}: its documents' URIs do not share one prefix; it cannot be opened")
    return prefix


def import_bundle(bundle: Bundle, index: Index, verify: VerifySettings = DEFAULT_VERIFY) -> ImportReport:
    """Load the bundle's group members, pairs and problems into `index` (the index of bundle_root(bundle)),
    replacing an earlier import. Raises BundleError when `index` holds a desktop scan (never overwritten)."""
    root = bundle_root(bundle)
    if index.count() and index.meta(BUNDLE_META) is None:
        raise BundleError(
            f"{index.path} holds a scan of {root} made on this computer; give another index file "
            "(--db) to import the bundle"
        )
    groups = bundle.table("groups", ["doc_id"]).column("doc_id").to_numpy()
    members = np.unique(groups)
    import pyarrow as pa
    import pyarrow.compute as pc

    table = bundle.table("documents")
    docs = table.filter(pc.is_in(table.column("doc_id"), value_set=pa.array(members, pa.int64()))).to_pydict()
    check_documents(bundle, docs["path"], docs["uri"], docs["doc_id"])  # no row names a file outside the root
    check_short_texts(bundle, docs["short"], docs["doc_id"])
    pairs = bundle.table("pairs").to_pydict()
    member_set = set(members.tolist())
    kept = [k for k, (a, b) in enumerate(zip(pairs["a"], pairs["b"])) if a in member_set and b in member_set]
    problems = bundle.table("problems", ["path", "error"]).to_pydict()
    with index.transaction():  # an earlier import's members stay (with the editor's decisions) if still members
        index.delete_paths(set(index.stored_states()) - set(docs["path"]))
        index.set_meta("features", bundle.manifest["features"])
        index.set_meta("root", str(root))
        index.set_meta(BUNDLE_META, str(bundle.path.resolve()))
        index.set_meta(TEXTS_META, uri_prefix(bundle, docs["path"], docs["uri"]))
        index.upsert_documents(
            Document(
                docs["path"][k],
                docs["size"][k],
                docs["mtime_ns"][k],
                docs["content_hash"][k],
                docs["encoding"][k],
                docs["chars"][k],
                _unsigned(docs["fingerprint"][k]),
                b"",
                docs["votes"][k],
            )
            for k in range(len(docs["doc_id"]))
        )
        index.replace_problems(Problem(p, e) for p, e in zip(problems["path"], problems["error"]))
    ids = {path: state[0] for path, state in index.stored_states().items()}
    by_doc = {d: ids[p] for d, p in zip(docs["doc_id"], docs["path"])}
    clean = [(ids[p], _unsigned(c)) for p, c in zip(docs["path"], docs["clean_fp"])]
    # no line hashes are loaded, so the desktop finds no boilerplate and keeps each boilerplate-free
    # fingerprint (computed without none); every member counts as searched, its pairs as scored
    index.set_clean_fingerprints(clean, frozenset())
    # whether each text is short, as the cluster's verification found it without its boilerplate (the shares of
    # the pairs were measured without it too): a clean-up plan then reads no object (null: read when asked)
    index.store_short_texts((ids[p], bool(v)) for p, v in zip(docs["path"], docs["short"]) if v is not None)
    if bundle.verified:
        index.set_paired_fingerprints(clean)
        nan = float("nan")
        a_in_b, b_in_a = (pairs.get(c) or [None] * len(pairs["a"]) for c in ("a_in_b", "b_in_a"))  # older bundles
        index.store_scores(
            (
                by_doc[pairs["a"][k]],
                by_doc[pairs["b"][k]],
                Relation(
                    pairs["score"][k], nan if a_in_b[k] is None else a_in_b[k], nan if b_in_a[k] is None else b_in_a[k]
                ),
            )
            for k in kept
        )
        with index.transaction():
            index.set_meta("verify_rules", verify_rules(verify))
    return ImportReport(root, len(members), len(kept), len(problems["path"]))


def export_decisions(index: Index, bundle: Bundle, out: Path, removals: Iterable[str] = ()) -> Path:
    """The editor's decisions on an imported bundle as Parquet: one row per decided document (path, uri,
    decision 'keep' or 'trash') and per 'not duplicates' pair (decision 'not_duplicate', `other` its
    partner), for a job that acts on the objects where they are. `removals`: the copies the review's
    clean-up plan removes (Review.plan_cleanup: those a kept copy holds), exported as 'trash' beside the
    copies queued by hand; a copy no kept copy holds is never among them."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    docs = bundle.table("documents", ["path", "uri"]).to_pydict()
    uri = dict(zip(docs["path"], docs["uri"]))
    rows: list[tuple[str, str, str | None]] = [(p, "keep", None) for p in sorted(index.keep_marks())]
    rows += [(p, "trash", None) for p in sorted(set(index.queued_for_trash()) | set(removals))]
    rows += [(a, "not_duplicate", b) for a, b in sorted(index.ignored_pairs())]
    table = pa.table(
        {
            "path": [r[0] for r in rows],
            "uri": [uri.get(r[0], "") for r in rows],
            "decision": [r[1] for r in rows],
            "other": pa.array([r[2] for r in rows], pa.string()),
        }
    )
    out = Path(out)
    tmp = out.with_name(out.name + ".partial")
    pq.write_table(table, tmp)
    tmp.replace(out)
    return out


def _unsigned(value: int) -> int:
    return int(np.int64(value).view(np.uint64))
