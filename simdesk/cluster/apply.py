"""`simdesk cluster-apply`: the editor's decisions on a bundle (decisions.parquet) carried out where the documents
are (an object store through fsspec, or local files), as a separate explicit command, never deleting outright.

Each document decided `trash` is moved under a trash prefix (`--move-to`, keeping its path): its bytes are
copied there and read back, and only when the copy holds the same bytes is the original removed. Before
anything moves, each object is checked unchanged since the cluster scan (the bundle's size and version: ETag
or modification time), and no group of the bundle may lose every member (a decision that would leave none is
refused, as the desktop's clean-up refuses it). Every move is written ahead to a JSON-lines log (`intent`,
flushed and fsynced, then `done` or `failed`), which `undo_apply` reads to put the objects back.

    plan = plan_apply(open_bundle("archive.bundle"), Path("decisions.parquet"), "s3://archive-trash/2026-11/")
    report = apply_plan(plan, Path("apply.jsonl"))            # or print(plan.summary()) for a dry run
    undo_apply(Path("apply.jsonl"))
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from simdesk.cluster.bundle import Bundle, BundleError
from simdesk.cluster.sources import object_version
from simdesk.core.actionlog import ActionLog, utc_now
from simdesk.core.texts import filesystem, is_local

TRASH = "trash"


@dataclass(frozen=True)
class Move:
    """One object to move: from `uri` to `dest`, as the bundle saw it (size, version)."""

    path: str
    uri: str
    dest: str
    size: int
    version: str


@dataclass
class ApplyPlan:
    """What cluster-apply would move, and the decisions it refuses with their reason."""

    kind: str  # the bundle's source kind: 'objects', 'folder' or 'glob'
    moves: list[Move] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)

    def summary(self) -> str:
        lines = [f"move {m.uri} -> {m.dest}" for m in self.moves]
        lines += [f"refused {p}: {why}" for p, why in self.refused]
        lines.append(f"{len(self.moves)} to move, {len(self.refused)} refused")
        return "\n".join(lines)


@dataclass
class ApplyReport:
    done: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)

    def summary(self) -> str:
        lines = [f"failed {p}: {why}" for p, why in self.failed]
        lines.append(f"{len(self.done)} moved, {len(self.failed)} failed")
        return "\n".join(lines)


def plan_apply(bundle: Bundle, decisions: Path, move_to: str) -> ApplyPlan:
    """The moves the `trash` decisions ask for, checked against the bundle (a path it does not hold, a group
    that would lose every member) and against the objects now (gone or changed since the scan). Raises
    BundleError for a bundle of a dataset (rows are filtered out of a dataset, not moved) or decisions that
    are not a decisions file."""
    import pyarrow.parquet as pq

    kind = bundle.manifest["source"]["kind"]
    if kind == "dataset":
        raise BundleError(f"{bundle.path}: its documents are rows of {bundle.manifest['source']['spec']}; rows are "
                          "not moved: filter the dataset with the decisions instead")
    try:
        rows = pq.read_table(decisions, columns=["path", "decision"]).to_pylist()
    except (OSError, ValueError, KeyError) as exc:
        raise BundleError(f"{decisions}: not a decisions file ({exc})") from None
    trash = sorted({r["path"] for r in rows if r["decision"] == TRASH})
    docs = bundle.table("documents", ["doc_id", "path", "uri", "size", "version"]).to_pydict()
    by_path = {p: k for k, p in enumerate(docs["path"])}
    groups = bundle.table("groups", ["group", "doc_id"]).to_pydict()
    members: dict[int, list[int]] = {}
    for g, d in zip(groups["group"], groups["doc_id"]):
        members.setdefault(g, []).append(d)
    row_of_id = {d: k for k, d in enumerate(docs["doc_id"])}
    group_of = {d: g for g, ds in members.items() for d in ds}
    trashed_ids = {docs["doc_id"][by_path[p]] for p in trash if p in by_path}
    plan = ApplyPlan(kind)
    prefix = move_to if move_to.endswith("/") else move_to + "/"
    for path in trash:
        k = by_path.get(path)
        if k is None:
            plan.refused.append((path, "not in the bundle"))
            continue
        g = group_of.get(docs["doc_id"][k])
        if g is None:
            plan.refused.append((path, "in no group of the bundle"))
            continue
        if all(d in trashed_ids for d in members[g]):
            kept = ", ".join(docs["path"][row_of_id[d]] for d in members[g][:3])
            plan.refused.append((path, f"every copy of its group would go ({kept}...): keep one"))
            continue
        uri, size, version = docs["uri"][k], docs["size"][k], docs["version"][k]
        now = current_state(kind, uri)
        if now is None:
            plan.refused.append((path, f"{uri} is gone"))
        elif now != (size, version):
            plan.refused.append((path, f"{uri} changed since the cluster scan"))
        else:
            plan.moves.append(Move(path, uri, prefix + path, size, version))
    return plan


def current_state(kind: str, uri: str) -> tuple[int, str] | None:
    """(size, version) of the object or file now, as a cluster scan records them; None when it is gone."""
    if kind in ("folder", "glob"):
        try:
            st = os.stat(uri)
        except FileNotFoundError:
            return None
        return st.st_size, str(st.st_mtime_ns)
    fs, path = filesystem(uri)
    try:
        info = fs.info(path)
    except FileNotFoundError:
        return None
    return int(info.get("size") or 0), object_version(info)[0]


def apply_plan(plan: ApplyPlan, log_path: Path) -> ApplyReport:
    """Move each object of the plan: copy, read back, compare, then remove the original. Written ahead to
    `log_path` (intent before each move, its outcome after). An object whose copy cannot be made or does not
    read back the same stays where it is."""
    report = ApplyReport()
    with ActionLog(log_path) as log:
        for m in plan.moves:
            time_, at = utc_now()
            entry = {"action": "cluster-apply", "path": m.path, "uri": m.uri, "dest": m.dest, "kind": plan.kind,
                     "size": m.size, "version": m.version, "time": time_, "at": at}
            log.append({**entry, "outcome": "intent"}, sync=True)
            try:
                _move(m.uri, m.dest)
            except OSError as exc:
                log.append({**entry, "outcome": "failed", "error": str(exc)}, sync=True)
                report.failed.append((m.path, str(exc)))
                continue
            log.append({**entry, "outcome": "done"}, sync=True)
            report.done.append(m.path)
    return report


def undo_apply(log_path: Path) -> ApplyReport:
    """Put back every object the log says was moved (or may have been: an intent without an outcome), from its
    trash copy; an object back in its place already is left alone."""
    entries = [json.loads(line) for line in Path(log_path).read_text(encoding="utf-8").splitlines() if line.strip()]
    last: dict[str, dict] = {}
    for e in entries:
        if e.get("action") == "cluster-apply":
            last[e["uri"]] = e
    report = ApplyReport()
    with ActionLog(log_path) as log:
        for uri, e in last.items():
            if e["outcome"] not in ("done", "intent"):
                continue
            if current_state(e["kind"], uri) is not None:  # never left, or already put back
                continue
            try:
                _move(e["dest"], uri)
            except OSError as exc:
                report.failed.append((e["path"], str(exc)))
                continue
            time_, at = utc_now()
            log.append({**e, "outcome": "restored", "time": time_, "at": at}, sync=True)
            report.done.append(e["path"])
    return report


def _move(src: str, dest: str) -> None:
    """Copy `src` to `dest` (any two fsspec locations), read the copy back, and only when its bytes are the
    same remove `src`. Raises OSError saying what failed; `src` stays unless the copy is verified."""
    try:
        src_fs, src_path = filesystem(src)
        dest_fs, dest_path = filesystem(dest)
        data = src_fs.cat_file(src_path)
        parent = dest_path.rsplit("/", 1)[0]
        if parent:
            dest_fs.makedirs(parent, exist_ok=True)
        if is_local(src_fs) and is_local(dest_fs):
            shutil.copy2(src_path, dest_path)  # keeps the modification time: a file put back is unchanged
        else:
            dest_fs.pipe_file(dest_path, data)
        if hashlib.sha256(dest_fs.cat_file(dest_path)).digest() != hashlib.sha256(data).digest():
            raise OSError(f"{dest}: the copy does not read back the same; {src} left in place")
        src_fs.rm_file(src_path)
    except OSError:
        raise
    except Exception as exc:  # fsspec plug-ins raise their own errors
        raise OSError(f"{src} -> {dest}: {type(exc).__name__}: {exc}") from None


def cluster_apply(bundle: Bundle, decisions: Path, move_to: str, log_path: Path, dry_run: bool = False) -> str:
    """Plan and (unless `dry_run`) carry out the decisions; what was or would be done, as text."""
    plan = plan_apply(bundle, decisions, move_to)
    if dry_run:
        return plan.summary() + " (dry run: nothing moved)"
    report = apply_plan(plan, log_path)
    refused = "".join(f"refused {p}: {why}\n" for p, why in plan.refused)
    return f"{refused}{report.summary()}, {len(plan.refused)} refused; log: {log_path} (undo: --undo {log_path})"
