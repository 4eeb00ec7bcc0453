"""Where a cluster scan's texts come from: a folder, a glob, a Parquet/JSONL dataset with `path` and `text`
columns, or an object-store prefix read through fsspec (s3://, gs://, abfs://, hdfs://, memory://, ...).

A source lists `SourceItem`s (path, size, version) without reading them, and turns an item into the desktop's
`Document` (or a `Problem`) with the desktop's own decoding and fingerprint code. A `Source` is a plain
picklable value, so Spark executors and worker processes receive it and read the items themselves.

    source = open_source("s3://archive/2026/", includes=("*.txt",), max_bytes=20 * MB)
    for item in source.items(problems.append): ...
"""

from __future__ import annotations

import glob as globmod
import hashlib
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from simdesk.core.fingerprint.features import FeatureSettings
from simdesk.core.index.scan import file_document, text_document
from simdesk.core.reading.documents import (
    MB,
    DecodeError,
    FileEntry,
    ReadAhead,
    TextFile,
    content_hash,
    matches,
    read_text_file,
    walk,
)
from simdesk.core.reading.texts import arrow_filesystem, dataset_format, filesystem, read_uri
from simdesk.core.records import DEFAULT_INCLUDES, MAX_FILE_BYTES, Document, Problem

DATASET_SUFFIXES = (".parquet", ".jsonl", ".json")
GLOB_CHARS = "*?["


@dataclass(frozen=True, slots=True)
class SourceItem:
    """One text of a source, listed but not read. `version` is what tells a changed object from an unchanged
    one besides its size: the modification time in nanoseconds for files, the ETag (or modification time) for
    objects, the content hash for a dataset row. `text` is set for dataset rows only."""

    path: str  # relative to the source's root, '/'-separated: what the desktop shows
    uri: str  # where the text is read again (verification, the window's diff)
    size: int
    version: str
    mtime_ns: int = 0
    text: str | None = None


@dataclass(frozen=True)
class Source:
    """A parsed SOURCE argument. `kind` is 'folder', 'glob', 'objects' (fsspec prefix) or 'dataset'."""

    kind: str
    spec: str
    root: str
    includes: tuple[str, ...] = DEFAULT_INCLUDES
    max_bytes: int = MAX_FILE_BYTES
    files: tuple[str, ...] = field(default=())  # a dataset's files, or a glob's matches

    # -- listing --------------------------------------------------------------------------------------
    def items(self, on_problem: Callable[[Problem], None] = lambda p: None) -> Iterator[SourceItem]:
        """Every item of the source in a stable order; items over the size cap are reported, not listed."""
        if self.kind == "folder":
            for e in walk(Path(self.root), self.includes, self.max_bytes, on_problem=on_problem):
                yield SourceItem(e.rel, str(e.path), e.size, str(e.mtime_ns), e.mtime_ns)
        elif self.kind == "glob":
            for name in self.files:
                path = Path(name)
                rel = path.relative_to(self.root).as_posix()
                try:
                    st = path.stat()
                except OSError as exc:
                    on_problem(Problem(rel, f"cannot be read: {exc.strerror or exc}"))
                    continue
                if self._over_cap(rel, st.st_size, on_problem):
                    continue
                yield SourceItem(rel, str(path), st.st_size, str(st.st_mtime_ns), st.st_mtime_ns)
        elif self.kind == "objects":
            fs, root = filesystem(self.spec)
            infos = fs.find(root, detail=True)
            for name in sorted(infos):
                info = infos[name]
                if info.get("type", "file") != "file":
                    continue
                rel = name[len(root) :].lstrip("/")
                if rel.startswith(".") or "/." in rel or not matches(rel, self.includes):
                    continue
                size = int(info.get("size") or 0)
                if self._over_cap(rel, size, on_problem):
                    continue
                version, mtime_ns = object_version(info)
                yield SourceItem(rel, fs.unstrip_protocol(name), size, version, mtime_ns)
        else:
            yield from self._dataset_items(on_problem)

    def _over_cap(self, rel: str, size: int, on_problem: Callable[[Problem], None]) -> bool:
        if size > self.max_bytes:
            on_problem(
                Problem(rel, f"skipped: {size / MB:.1f} MB is over the size cap of {self.max_bytes / MB:.1f} MB")
            )
            return True
        return False

    def _dataset_items(self, on_problem: Callable[[Problem], None]) -> Iterator[SourceItem]:
        for batch in self.dataset_batches():
            yield from self.dataset_rows(batch.column("path").to_pylist(), batch.column("text").to_pylist(), on_problem)

    def dataset_rows(
        self, paths: Iterable[object], texts: Iterable[object], on_problem: Callable[[Problem], None]
    ) -> Iterator[SourceItem]:
        """Dataset rows as items: a row without a path or a text, or over the size cap, is a problem."""
        for _n, (path, text) in enumerate(zip(paths, texts)):
            if not isinstance(path, str) or not path:
                on_problem(Problem(f"<row without a path: {str(text)[:40]!r}>", "dataset row has no path"))
                continue
            if not isinstance(text, str):
                on_problem(Problem(path, "dataset row has no text"))
                continue
            data = text.encode("utf-8", "surrogatepass")
            if self._over_cap(path, len(data), on_problem):
                continue
            yield SourceItem(path, f"{self.spec}#{path}", len(data), content_hash(data), 0, text)

    def dataset_batches(self, paths: set[str] | None = None):
        """The dataset's record batches with `path` and `text` columns (only the given paths, when given)."""
        import pyarrow.compute as pc
        import pyarrow.dataset as ds

        fs, _ = filesystem(self.spec)
        for name in self.files:
            data = ds.dataset(name, format=dataset_format(name), filesystem=arrow_filesystem(fs))
            missing = {"path", "text"} - set(data.schema.names)
            if missing:
                raise ValueError(
                    f"{self.spec}: the dataset has no {' and no '.join(sorted(missing))} column "
                    f"(it has: {', '.join(data.schema.names)})"
                )
            where = pc.field("path").isin(sorted(paths)) if paths is not None else None
            yield from data.to_batches(columns=["path", "text"], filter=where)

    # -- reading --------------------------------------------------------------------------------------
    def read_ahead(self, items: Iterable[SourceItem], follow_links: bool = False) -> ReadAhead:
        """A ReadAhead for reading these items in this order (documents.ReadAhead, as the desktop's
        Texts.read_ahead): a folder's or glob's files are fetched while the ones before are worked on, so a
        cold folder is read with the disk busy ahead; objects and dataset rows are fetched as they are read.
        `follow_links` as the reader opens the files: document() follows none, read_texts() does."""
        files = self.kind in ("folder", "glob")
        return ReadAhead([item.uri for item in items] if files else [], follow_links)

    def document(
        self, item: SourceItem, settings: FeatureSettings, ahead: ReadAhead | None = None
    ) -> Document | Problem:
        """Read, decode and fingerprint one item with the desktop's code (never raises for a bad item).
        `ahead`: the read_ahead of the items it is read among."""
        try:
            if self.kind in ("folder", "glob"):
                entry = FileEntry(item.path, item.uri, item.size, item.mtime_ns)
                return file_document(entry, self.max_bytes, settings, ahead)
            return text_document(item.path, self.text_file(item), settings)
        except DecodeError as exc:
            return Problem(item.path, str(exc))
        except OSError as exc:
            return Problem(item.path, f"cannot be read: {exc.strerror or exc}")
        except Exception as exc:  # a bug or a broken object store must cost one item, never the job  # noqa: BLE001
            return Problem(item.path, f"internal error while reading: {type(exc).__name__}: {exc}")

    def text_file(self, item: SourceItem) -> TextFile:
        """The decoded text of an object or a dataset row. Raises DecodeError or OSError."""
        if item.text is not None:
            if not item.text.strip():
                raise DecodeError("empty text")
            data = item.text.encode("utf-8", "surrogatepass")
            return TextFile(item.text, "utf-8", content_hash(data), len(data), 0)
        return read_uri(item.uri, self.max_bytes, item.mtime_ns)

    def read_texts(self, items: list[SourceItem], ahead: ReadAhead | None = None) -> list[str | None]:
        """The texts of the given items (None for one that cannot be read any more), as verification and the
        window's diff need them: dataset rows are looked up in one pass over the dataset, files read with
        the next ones fetched meanwhile (`ahead`: the read_ahead(follow_links=True) of a list these items are
        read from in order; else one of these items)."""
        if all(i.text is not None for i in items):  # dataset rows listed with their text
            return [i.text for i in items]
        if self.kind == "dataset":
            wanted = {i.path for i in items}
            found: dict[str, str] = {}
            for batch in self.dataset_batches(wanted):
                found.update(zip(batch.column("path").to_pylist(), batch.column("text").to_pylist()))
            return [found.get(i.path) for i in items]
        if ahead is None:
            with self.read_ahead(items, follow_links=True) as ahead:
                return self.read_texts(items, ahead)
        out: list[str | None] = []
        for item in items:
            try:
                out.append(
                    self.text_file(item).text
                    if self.kind == "objects"
                    else read_text_file(item.uri, self.max_bytes, ahead=ahead).text
                )
            except (OSError, DecodeError):
                out.append(None)
        return out


def open_source(spec: str, includes: tuple[str, ...] = DEFAULT_INCLUDES, max_bytes: int = MAX_FILE_BYTES) -> Source:
    """Parse a SOURCE argument. Raises ValueError with a message for one that names nothing readable.

    A path or URL ending in .parquet, .jsonl or .json (a file, a Spark output folder, or a glob of them) is a
    dataset; any other URL is an object-store prefix; a local pattern with * ? [ is a glob; else a folder."""
    remote = "://" in spec and not spec.startswith("file://")
    local = spec[len("file://") :] if spec.startswith("file://") else spec
    if spec.rstrip("/").endswith(DATASET_SUFFIXES):
        if remote:
            fs, path = filesystem(spec)
            files = tuple(
                sorted(
                    fs.unstrip_protocol(p)
                    for p in fs.expand_path(path)
                    if fs.isfile(p) and p.endswith(DATASET_SUFFIXES) and "/_" not in p and "/." not in p
                )
            )
        else:
            base = spec.rstrip("/")
            if any(c in base for c in GLOB_CHARS):
                names = globmod.glob(base, recursive=True)
            elif os.path.isdir(base):
                names = [str(p) for p in Path(base).rglob("*") if p.suffix in DATASET_SUFFIXES]
            else:
                names = [base] if os.path.exists(base) else []
            files = tuple(
                sorted(n for n in names if os.path.isfile(n) and not os.path.basename(n).startswith(("_", ".")))
            )
        if not files:
            raise ValueError(f"{spec}: no Parquet or JSON Lines files there")
        return Source("dataset", spec, spec, includes, max_bytes, files)
    if remote:
        fs, path = filesystem(spec)
        if not fs.exists(path):
            raise ValueError(f"{spec}: nothing there")
        return Source("objects", spec, spec, includes, max_bytes)
    if any(c in local for c in GLOB_CHARS):
        files = tuple(sorted(n for n in globmod.glob(local, recursive=True) if os.path.isfile(n)))
        if not files:
            raise ValueError(f"{spec}: the pattern matches no files")
        root = _glob_root(local)
        return Source("glob", spec, root, includes, max_bytes, tuple(str(Path(f).resolve()) for f in files))
    folder = Path(local)
    if not folder.is_dir():
        raise ValueError(f"{spec}: no such folder" if not folder.exists() else f"{spec}: not a folder")
    return Source("folder", spec, str(folder.resolve()), includes, max_bytes)


def _glob_root(pattern: str) -> str:
    """The folder a glob's matches are shown relative to: its part before the first wildcard."""
    parts = Path(pattern).parts
    fixed = []
    for part in parts:
        if any(c in part for c in GLOB_CHARS):
            break
        fixed.append(part)
    return str(Path(*fixed).resolve()) if fixed else str(Path.cwd())


def object_version(info: dict) -> tuple[str, int]:
    """An object's (version, mtime_ns): its ETag when the store gives one, else its modification time."""
    mtime = info.get("mtime") or info.get("LastModified") or info.get("last_modified") or info.get("created")
    mtime_ns = 0
    if isinstance(mtime, (int, float)):
        mtime_ns = int(mtime * 1e9)
    elif mtime is not None and hasattr(mtime, "timestamp"):
        mtime_ns = int(mtime.timestamp() * 1e9)
    etag = info.get("ETag") or info.get("etag") or info.get("md5Hash") or info.get("generation")
    if etag:
        return str(etag).strip('"'), mtime_ns
    if mtime_ns:
        return str(mtime_ns), mtime_ns
    return hashlib.blake2b(repr(sorted(info.items())).encode(), digest_size=8).hexdigest(), mtime_ns
