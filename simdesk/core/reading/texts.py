"""Where a review reads its documents' texts again (the diff, verification, boilerplate votes): the files under
its folder, or, for a bundle imported from an object store or a dataset, the URI each document came from,
fetched on demand through fsspec (`s3://`, `gs://`, `memory://`, `file://`, ...; a dataset row's URI is
`DATASET#path`, looked up in the dataset with pyarrow).

    texts = Texts(root, uri_prefix="s3://archive/2026/")
    texts.read("a/b.txt")   # the decoded, visible text of s3://archive/2026/a/b.txt; OSError when unreachable
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simdesk.core.reading.documents import (
    MB,
    DecodeError,
    ReadAhead,
    TextFile,
    content_hash,
    read_text_file,
    text_file_of,
    visible,
)
from simdesk.core.records import MAX_FILE_BYTES

TEXTS_META = "texts_uri"  # index meta: the URI prefix an imported bundle's paths are read under ('' or none: files)
DATASET_MARK = "#"  # a dataset row's URI: the dataset, '#', the row's path


@dataclass(frozen=True)
class Texts:
    """Reads documents by their path relative to `root` (files), or under `uri_prefix` when set. Picklable,
    so worker processes read with it too."""

    root: Path
    max_bytes: int = MAX_FILE_BYTES
    uri_prefix: str | None = None

    @property
    def process_local(self) -> bool:
        """Whether only this process can read the texts (an fsspec memory:// store): a helper process
        (HelperProcess) cannot."""
        return self.uri_prefix is not None and self.uri_prefix.startswith("memory://")

    def where(self, rel: str) -> str:
        """What the editor is shown as the document's place: its file, or its URI."""
        return str(self.root / rel) if self.uri_prefix is None else self.uri_prefix + rel

    def file(self, rel: str) -> str:
        """The document's file (for texts read from the folder), as a string: a Path per read costs more
        than the read's own Python."""
        return os.path.join(self.root, rel)

    def read(self, rel: str, ahead: ReadAhead | None = None) -> TextFile:
        """The document's decoded text as the scan read it (`ahead`: the read_ahead of the documents it is
        read among). Raises DecodeError, or OSError saying which file or URI could not be read."""
        if self.uri_prefix is None:
            return read_text_file(self.file(rel), self.max_bytes, ahead=ahead)
        return read_uri(self.uri_prefix + rel, self.max_bytes)

    def read_or_none(self, rel: str, ahead: ReadAhead | None = None) -> str | None:
        """The text, or None when it cannot be read any more (verification then scores it as empty)."""
        try:
            return self.read(rel, ahead).text
        except (OSError, DecodeError):
            return None

    def read_ahead(self, rels: list[str]) -> ReadAhead:
        """A ReadAhead for reading these documents in this order (documents.ReadAhead): their files are
        fetched while the ones before are worked on. Texts read by URI are fetched as they are read."""
        return ReadAhead([self.file(rel) for rel in rels] if self.uri_prefix is None else [])


def read_uri(uri: str, max_bytes: int = MAX_FILE_BYTES, mtime_ns: int = 0) -> TextFile:
    """Fetch and decode one object (or one dataset row) as a cluster scan read it: a page as its visible text.
    Raises DecodeError, or OSError naming the URI when it is unreachable (missing, no network, no access,
    no fsspec plug-in for its scheme)."""
    try:
        if DATASET_MARK in uri:
            return _dataset_row(uri)
        import fsspec

        with fsspec.open(uri, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except DecodeError:
        raise
    except FileNotFoundError:
        raise OSError(f"{uri}: cannot be fetched: no such object (moved or deleted since the cluster scan?)") from None
    except Exception as exc:  # fsspec plug-ins raise their own errors (botocore, aiohttp, ImportError)  # noqa: BLE001
        raise OSError(f"{uri}: cannot be fetched: {type(exc).__name__}: {exc}") from None
    if len(data) > max_bytes:
        raise DecodeError(f"skipped: grew past the size cap of {max_bytes / MB:.1f} MB")
    return visible(text_file_of(data, mtime_ns, uri.rsplit("/", 1)[-1]))


def _dataset_row(uri: str) -> TextFile:
    import pyarrow.compute as pc
    import pyarrow.dataset as ds

    spec, path = uri.split(DATASET_MARK, 1)
    fs, root = filesystem(spec)
    files = [f for f in fs.expand_path(root, recursive=True) if fs.isfile(f) and "/_" not in f and "/." not in f]
    if not files:
        raise FileNotFoundError(spec)
    for name in files:
        data = ds.dataset(name, format=dataset_format(name), filesystem=arrow_filesystem(fs))
        rows = data.to_table(columns=["text"], filter=pc.field("path") == path).column("text").to_pylist()
        if rows and isinstance(rows[0], str):
            raw = rows[0].encode("utf-8", "surrogatepass")
            if not rows[0].strip():
                raise DecodeError("empty text")
            return TextFile(rows[0], "utf-8", content_hash(raw), len(raw), 0)
    raise FileNotFoundError(uri)


def filesystem(spec: str) -> tuple[Any, str]:  # fsspec ships no types
    """(the fsspec filesystem, the path within it) of a URI or local path."""
    import fsspec

    return fsspec.core.url_to_fs(spec)


def is_local(fs: object) -> bool:
    """Whether an fsspec filesystem is this computer's own."""
    from fsspec.implementations.local import LocalFileSystem

    return isinstance(fs, LocalFileSystem)


def dataset_format(name: str) -> str:
    """pyarrow's format name for one file of a dataset: JSON Lines by its suffix, else Parquet."""
    return "json" if name.endswith((".jsonl", ".json")) else "parquet"


def arrow_filesystem(fs: object) -> Any:  # pyarrow ships no types
    """An fsspec filesystem for pyarrow (local paths stay pyarrow's own)."""
    if is_local(fs):
        return None
    import pyarrow.fs as pafs

    return pafs.PyFileSystem(pafs.FSSpecHandler(fs))


def texts_of(root: Path, index, max_bytes: int = MAX_FILE_BYTES) -> Texts:
    """How the review of `root` with this index reads its texts: by URI when the index was imported from a
    bundle of an object store or a dataset, from the folder otherwise."""
    return Texts(Path(root), max_bytes, index.meta(TEXTS_META) or None)
