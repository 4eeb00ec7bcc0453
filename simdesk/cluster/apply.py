"""`simdesk cluster-apply`: the editor's decisions on a bundle (decisions.parquet) carried out where the documents
are (an object store through fsspec, or local files), as a separate explicit command, never deleting outright.

Each document decided `trash` is moved under a trash prefix (`--move-to`, keeping its path): its bytes are
copied there and read back, and only when the copy holds the same bytes is the original removed. Before
anything moves, each object is checked unchanged since the cluster scan (the bundle's size and version: ETag
or modification time), and no group of the bundle may lose every member (a decision that would leave none is
refused, as the desktop's clean-up refuses it). Every move is written ahead to a JSON-lines log (`intent`,
flushed and fsynced, then `done` or `failed`), which `undo_apply` reads to put the objects back.

Nothing outside the user's choice is touched and nothing is replaced: the bundle's rows and the decisions file
are checked as untrusted input (bundle.check_documents: a path outside the root, a URI elsewhere, columns of
other types refuse the whole run, naming the row); `--move-to` inside the bundle's root is refused; a copy is
created exclusively (a file already at its destination gets a fresh numbered name beside it, never
overwritten). Undo takes only complete log entries (path, URI under the logged root, destination under the
logged trash prefix, size and content hash), skips the rest with a count, puts an object back only when its
trash copy holds the logged bytes, and never over something standing at its place.

    plan = plan_apply(open_bundle("archive.bundle"), Path("decisions.parquet"), "s3://archive-trash/2026-11/")
    report = apply_plan(plan, Path("apply.jsonl"))            # or print(plan.summary()) for a dry run
    undo_apply(Path("apply.jsonl"))
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from simdesk.cluster.bundle import (
    LOCAL_KINDS,
    Bundle,
    BundleError,
    check_columns,
    check_documents,
    location_inside,
    relative_path_problem,
    uri_problem,
)
from simdesk.cluster.sources import object_version
from simdesk.core.cleanup.actionlog import ActionLog, utc_now
from simdesk.core.reading.texts import filesystem, is_local
from simdesk.core.review.report import printable

TRASH = "trash"
DECISIONS = ("keep", "trash", "not_duplicate")
ACTION = "cluster-apply"


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
    root: str = ""  # the folder or URI prefix the bundle's documents lie under
    move_to: str = ""  # the trash prefix, ending with '/'

    def summary(self) -> str:
        lines = [f"move {printable(m.uri)} -> {printable(m.dest)}" for m in self.moves]
        lines += [f"refused {printable(p)}: {printable(why)}" for p, why in self.refused]
        lines.append(f"{len(self.moves)} to move, {len(self.refused)} refused")
        return "\n".join(lines)


@dataclass
class ApplyReport:
    done: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    skipped_lines: int = 0  # log lines undo did not take: cut short, incomplete, or naming places elsewhere

    def summary(self) -> str:
        lines = [f"failed {printable(p)}: {printable(why)}" for p, why in self.failed]
        text = f"{len(self.done)} moved, {len(self.failed)} failed"
        if self.skipped_lines:
            text += f" ({self.skipped_lines} log lines skipped: not complete entries of this log's moves)"
        lines.append(text)
        return "\n".join(lines)


def read_decisions(decisions: Path) -> list[dict]:
    """The decisions file's rows (path, decision), checked: the columns and their types, and each row's
    decision one of keep, trash, not_duplicate and its path relative inside the folder. Raises BundleError
    naming the first row that is not."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        schema = pq.read_schema(decisions)
    except (OSError, pa.ArrowException, ValueError) as exc:
        raise BundleError(
            f"{decisions}: not a decisions file ({str(exc).splitlines()[0] if str(exc) else exc})"
        ) from None
    check_columns(
        f"{decisions}: not a decisions file", schema, pa.schema([("path", pa.string()), ("decision", pa.string())])
    )
    try:
        rows = pq.read_table(decisions, columns=["path", "decision"]).to_pylist()
    except (OSError, pa.ArrowException, ValueError) as exc:
        raise BundleError(f"{decisions}: not a decisions file ({exc})") from None
    for k, r in enumerate(rows):
        if r["decision"] not in DECISIONS:
            raise BundleError(
                f"{decisions}: row {k} has the decision {r['decision']!r:.60}, none of "
                f"{', '.join(DECISIONS)}; nothing was moved"
            )
        why = relative_path_problem(r["path"])
        if why is not None and r["decision"] == TRASH:
            raise BundleError(f"{decisions}: row {k} {why}; nothing was moved")
    return rows


def plan_apply(bundle: Bundle, decisions: Path, move_to: str) -> ApplyPlan:
    """The moves the `trash` decisions ask for, checked against the bundle (a path it does not hold, a group
    that would lose every member) and against the objects now (gone or changed since the scan). Raises
    BundleError for a bundle of a dataset (rows are filtered out of a dataset, not moved), a trash prefix
    inside the bundle's root, a bundle row naming a place outside its root, or decisions that are not a
    decisions file."""
    kind = bundle.kind
    if kind == "dataset":
        raise BundleError(
            f"{bundle.path}: its documents are rows of {bundle.manifest['source']['spec']}; rows are "
            "not moved: filter the dataset with the decisions instead"
        )
    if not move_to:
        raise BundleError("--move-to is empty: give the folder or URI prefix the trashed documents go to")
    if location_inside(kind, move_to, bundle.root):
        raise BundleError(
            f"--move-to {move_to} lies inside the bundle's folder {bundle.root}: a moved document "
            "could land on another one; give a place outside it (nothing was moved)"
        )
    rows = read_decisions(decisions)
    trash = sorted({r["path"] for r in rows if r["decision"] == TRASH})
    docs = bundle.table("documents", ["doc_id", "path", "uri", "size", "version"]).to_pydict()
    check_documents(bundle, docs["path"], docs["uri"], docs["doc_id"])
    by_path = {p: k for k, p in enumerate(docs["path"])}
    groups = bundle.table("groups", ["group", "doc_id"]).to_pydict()
    members: dict[int, list[int]] = {}
    for g, d in zip(groups["group"], groups["doc_id"]):
        members.setdefault(g, []).append(d)
    row_of_id = {d: k for k, d in enumerate(docs["doc_id"])}
    group_of = {d: g for g, ds in members.items() for d in ds}
    trashed_ids = {docs["doc_id"][by_path[p]] for p in trash if p in by_path}
    prefix = move_to if move_to.endswith("/") else move_to + "/"
    plan = ApplyPlan(kind, root=bundle.root, move_to=prefix)
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
            kept = ", ".join(docs["path"][row_of_id[d]] for d in members[g][:3] if d in row_of_id)
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
    if kind in LOCAL_KINDS:
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
    """Move each object of the plan: copy (to a fresh name when its destination is taken), read back,
    compare, then remove the original. Written ahead to `log_path` (intent before each move, with the
    destination it will have, its outcome after). An object whose copy cannot be made or does not read
    back the same stays where it is."""
    report = ApplyReport()
    with ActionLog(log_path) as log:
        for m in plan.moves:
            time_, at = utc_now()
            entry = {
                "action": ACTION,
                "path": m.path,
                "uri": m.uri,
                "kind": plan.kind,
                "root": plan.root,
                "move_to": plan.move_to,
                "size": m.size,
                "version": m.version,
                "time": time_,
                "at": at,
            }
            try:
                src_fs, src_path = filesystem(m.uri)
                data = src_fs.cat_file(src_path)
                dest = _fresh_destination(m.dest)
            except Exception as exc:  # noqa: BLE001  fsspec plug-ins raise their own errors
                report.failed.append((m.path, f"{type(exc).__name__}: {exc}"))
                continue
            entry.update(dest=dest, sha256=hashlib.sha256(data).hexdigest())
            log.append({**entry, "outcome": "intent"}, sync=True)
            try:
                _move(m.uri, dest, data)
            except OSError as exc:
                log.append({**entry, "outcome": "failed", "error": str(exc)}, sync=True)
                report.failed.append((m.path, str(exc)))
                continue
            log.append({**entry, "outcome": "done"}, sync=True)
            report.done.append(m.path)
    return report


def _fresh_destination(dest: str) -> str:
    """`dest`, or the first numbered name beside it ("a (1).txt") where nothing stands now."""
    fs, _ = filesystem(dest)
    stem, ext = posixpath.splitext(dest)
    for n in range(10_000):
        candidate = dest if n == 0 else f"{stem} ({n}){ext}"
        local = _local(candidate)
        if not (os.path.lexists(local) if local is not None else fs.exists(filesystem(candidate)[1])):
            return candidate
    raise FileExistsError(f"{dest} and its numbered variants already exist")


def _local(location: str) -> str | None:
    """The plain path of a location on this computer's file system, None for another store."""
    if location.startswith("file://"):
        return location[len("file://") :]
    return None if "://" in location else location


def entry_problem(e: object) -> str | None:
    """Why a log line is not a complete entry of a cluster-apply move (None when it is): its fields and
    types, its path relative, its URI that path under the logged root, its destination under the logged
    trash prefix (that path, or a numbered name beside it), its size and content hash."""
    if not isinstance(e, dict) or e.get("action") != ACTION:
        return "not a move of cluster-apply"
    text = ("path", "uri", "dest", "kind", "root", "move_to", "sha256", "outcome")
    if not all(isinstance(e.get(k), str) and e[k] for k in text):
        return "a field is missing"
    if not isinstance(e.get("size"), int) or isinstance(e["size"], bool) or e["size"] < 0:
        return "no size"
    if e["kind"] not in LOCAL_KINDS + ("objects",) or len(e["sha256"]) != 64:
        return "no kind or content hash"
    why = relative_path_problem(e["path"]) or uri_problem(e["kind"], e["root"], e["path"], e["uri"])
    if why:
        return why
    if location_inside(e["kind"], e["move_to"], e["root"]):
        return "its trash prefix lies inside the folder"
    stem, ext = posixpath.splitext(e["move_to"] + e["path"])
    dest = e["dest"]
    if dest != stem + ext and not (
        dest.startswith(stem + " (")
        and dest.endswith(f"){ext}")
        and dest[len(stem) + 2 : len(dest) - len(ext) - 1].isdigit()
    ):
        return "its destination is not its path under the trash prefix"
    return None


def undo_apply(log_path: Path) -> ApplyReport:
    """Put back every object the log says was moved (or may have been: an intent without an outcome), from its
    trash copy when that holds the logged bytes; an object back in its place already is left alone, and
    nothing standing at an object's place is replaced. Lines that are not complete entries are skipped and
    counted."""
    last: dict[str, dict] = {}
    report = ApplyReport()
    try:
        text = Path(log_path).read_bytes().decode("utf-8", "replace")
    except OSError as exc:
        raise BundleError(f"{log_path}: the log cannot be read ({exc.strerror or exc})") from None
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            e = json.loads(line)
        except ValueError:
            report.skipped_lines += 1
            continue
        if entry_problem(e) is not None:
            report.skipped_lines += 1
            continue
        last[e["uri"]] = e
    with ActionLog(log_path) as log:
        for uri, e in last.items():
            if e["outcome"] not in ("done", "intent"):
                continue
            try:
                if current_state(e["kind"], uri) is not None:  # never left, or already put back
                    _drop_stale_copy(e)
                    for location in (uri, e["dest"]):  # and a copy cut short on either side
                        if (local := _local(location)) is not None:
                            _drop_partial(local)
                    continue
                why = _restore_problem(e)
                if why is not None:
                    report.failed.append((e["path"], why))
                    continue
                _move(e["dest"], uri)
            except OSError as exc:
                report.failed.append((e["path"], str(exc)))
                continue
            time_, at = utc_now()
            log.append({**e, "outcome": "restored", "time": time_, "at": at}, sync=True)
            report.done.append(e["path"])
    return report


def _drop_stale_copy(e: dict) -> None:
    """An object still (or again) in its place with the logged bytes whose trash copy holds them too (a move
    cut short between the copy and the removal, or a restore cut short after the copy): the copy is removed,
    so an undo leaves nothing behind. Anything else at the destination is left as it is."""
    try:
        src_fs, src_path = filesystem(e["uri"])
        dest_fs, dest_path = filesystem(e["dest"])
        local = _local(e["dest"])
        if local is not None and os.path.islink(local):
            return
        if not dest_fs.exists(dest_path):
            return
        here, there = src_fs.cat_file(src_path), dest_fs.cat_file(dest_path)
        if here == there and hashlib.sha256(there).hexdigest() == e["sha256"]:
            dest_fs.rm_file(dest_path)
    except Exception:  # noqa: BLE001  a copy that cannot be checked stays; it costs space, not a document
        pass


def _partial_name(path: str) -> str:
    """Where a copy to `path` is written before it is linked to its place (hidden, beside it)."""
    folder, name = os.path.split(path)
    return os.path.join(folder, f".{name}.simdesk-partial")


def _drop_partial(path: str) -> None:
    """Remove the partial copy a move to `path` cut short left beside it (a regular file, never a link)."""
    partial = _partial_name(path)
    try:
        if os.path.isfile(partial) and not os.path.islink(partial):
            os.unlink(partial)
    except FileNotFoundError:
        pass


def _restore_problem(e: dict) -> str | None:
    """Why the trash copy of a logged move may not be put back (None when it may): it is gone, it is not the
    logged bytes, or (on this computer) the object's folder is gone or now resolves outside the logged root."""
    fs, path = filesystem(e["dest"])
    try:
        data = fs.cat_file(path)
    except FileNotFoundError:
        return f"{e['dest']} is gone"
    except Exception as exc:  # noqa: BLE001  fsspec plug-ins raise their own errors
        return f"{e['dest']} cannot be read ({type(exc).__name__}: {exc})"
    local = _local(e["dest"])
    if local is not None and os.path.islink(local):
        return f"{e['dest']} is now a symbolic link; not restored through it"
    if hashlib.sha256(data).hexdigest() != e["sha256"]:
        return f"{e['dest']} does not hold the bytes that were moved; left where it is"
    place = _local(e["uri"]) if e["kind"] in LOCAL_KINDS else None
    if place is not None:
        parent = os.path.dirname(place)
        if not os.path.isdir(parent):
            return f"its folder {parent} no longer exists (renamed or removed since); not made again"
        if not location_inside(e["kind"], parent, e["root"]):
            return f"its folder {parent} now resolves outside {e['root']} (a link placed since); not restored"
    return None


def _move(src: str, dest: str, data: bytes | None = None) -> None:
    """Copy `src` to `dest` (any two fsspec locations), read the copy back, and only when its bytes are the
    same remove `src`. On this computer `dest` is created exclusively (nothing there is ever replaced); on
    an object store it is written only when nothing stands there now. Raises OSError saying what failed;
    `src` stays unless the copy is verified."""
    try:
        src_fs, src_path = filesystem(src)
        dest_fs, dest_path = filesystem(dest)
        if data is None:
            data = src_fs.cat_file(src_path)
        if is_local(dest_fs):
            os.makedirs(os.path.dirname(dest_path) or ".", exist_ok=True)
            # written whole under a name of its own, then linked to its place (which fails when anything is
            # there): a kill mid-copy leaves the partial name, never a short file at the object's place
            partial = _partial_name(dest_path)
            _drop_partial(dest_path)
            try:
                with open(partial, "xb") as out:
                    out.write(data)
                    out.flush()
                    os.fsync(out.fileno())
                if is_local(src_fs):
                    shutil.copystat(src_path, partial)  # the modification time: a file put back is unchanged
                os.link(partial, dest_path)
            except FileExistsError:
                raise OSError(
                    f"{dest}: something is there already; nothing was replaced, {src} left in place"
                ) from None
            finally:
                _drop_partial(dest_path)
        else:
            if dest_fs.exists(dest_path):
                raise OSError(f"{dest}: something is there already; nothing was replaced, {src} left in place")
            parent = dest_path.rsplit("/", 1)[0]
            if parent:
                dest_fs.makedirs(parent, exist_ok=True)
            dest_fs.pipe_file(dest_path, data)
        if hashlib.sha256(dest_fs.cat_file(dest_path)).digest() != hashlib.sha256(data).digest():
            raise OSError(f"{dest}: the copy does not read back the same; {src} left in place")
        src_fs.rm_file(src_path)
    except OSError:
        raise
    except Exception as exc:  # fsspec plug-ins raise their own errors  # noqa: BLE001
        raise OSError(f"{src} -> {dest}: {type(exc).__name__}: {exc}") from None


def cluster_apply(bundle: Bundle, decisions: Path, move_to: str, log_path: Path, dry_run: bool = False) -> str:
    """Plan and (unless `dry_run`) carry out the decisions; what was or would be done, as text."""
    plan = plan_apply(bundle, decisions, move_to)
    if dry_run:
        return plan.summary() + " (dry run: nothing moved)"
    report = apply_plan(plan, log_path)
    refused = "".join(f"refused {printable(p)}: {printable(why)}\n" for p, why in plan.refused)
    return f"{refused}{report.summary()}, {len(plan.refused)} refused; log: {log_path} (undo: --undo {log_path})"
