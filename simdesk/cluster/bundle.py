"""Bundles: what a cluster scan leaves behind for the desktop. A folder of Parquet tables plus `manifest.json`:

    manifest.json       format, feature settings (the string the index stores), mode, threshold, source, counts
    documents.parquet   doc_id, path, uri, size, mtime_ns, version, content_hash, encoding, chars,
                        fingerprint, clean_fp (int64, the index's signed form), lines, votes, bands, short
                        (int8: whether verification found its text short, reread.measured_short, 1 or 0;
                        null where it did not read it); sorted by fingerprint, which is written
                        DELTA_BINARY_PACKED (the varint-delta fingerprint file of classic SimHash deployments)
    problems.parquet    path, uri, error
    pairs.parquet       a, b (doc_id, a < b), distance, scaled (the slider's distance), score, and the share of
                        a's text found in b's and of b's in a's (a_in_b, b_in_a; verified mode)
    groups.parquet      group, doc_id, rank (0: the representative), distance, score

A table may be one file or a folder of part files (as Spark writes it). A bundle is written into a hidden
folder beside its destination and renamed into place only when complete, manifest last: a job killed at any
moment leaves either the previous bundle or none, never a half one (`open_bundle` refuses a folder without a
manifest). A bundle made with other feature settings than the reader's is refused: its fingerprints would not
compare with the reader's.

A bundle is untrusted input: `open_bundle` checks the manifest's fields and each table's columns and types,
and `check_documents` refuses, naming the row, a document whose path is absolute or has a `..` component, or
whose URI does not lie at that path under the manifest's root: no row can name a file outside the folder;
`check_short_texts` refuses a `short` value other than 0, 1 or null.
"""

from __future__ import annotations

import json
import os
import posixpath
import shutil
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from simdesk.core.fingerprint.features import DEFAULT_FEATURES, FeatureSettings

FORMAT = "simdesk-bundle"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
TABLES = ("documents", "problems", "pairs", "groups")
OPTIONAL_COLUMNS = frozenset({"bands", "short"})  # read as nulls from bundles written before them
SOURCE_KINDS = ("folder", "glob", "objects", "dataset")
LOCAL_KINDS = ("folder", "glob")  # documents are files on this computer, their URIs plain paths


class BundleError(ValueError):
    """A bundle that cannot be used; the message says why and what to do."""


def schemas():
    """The Arrow schema of each table."""
    import pyarrow as pa

    return {
        "documents": pa.schema(
            [
                ("doc_id", pa.int64()),
                ("path", pa.string()),
                ("uri", pa.string()),
                ("size", pa.int64()),
                ("mtime_ns", pa.int64()),
                ("version", pa.string()),
                ("content_hash", pa.string()),
                ("encoding", pa.string()),
                ("chars", pa.int64()),
                ("fingerprint", pa.int64()),
                ("clean_fp", pa.int64()),
                ("lines", pa.binary()),
                ("votes", pa.binary()),
                ("bands", pa.binary()),  # MinHash band keys (Document.bands); absent from older bundles
                ("short", pa.int8()),  # whether the text is short (reread.measured_short); absent from older bundles
            ]
        ),
        "problems": pa.schema([("path", pa.string()), ("uri", pa.string()), ("error", pa.string())]),
        "pairs": pa.schema(
            [
                ("a", pa.int64()),
                ("b", pa.int64()),
                ("distance", pa.int8()),
                ("scaled", pa.int8()),
                ("score", pa.float64()),
                ("a_in_b", pa.float64()),
                ("b_in_a", pa.float64()),
            ]
        ),
        "groups": pa.schema(
            [
                ("group", pa.int64()),
                ("doc_id", pa.int64()),
                ("rank", pa.int32()),
                ("distance", pa.int8()),
                ("score", pa.float64()),
            ]
        ),
    }


def write_table(folder: Path, name: str, table) -> None:
    """Write one table as `name`.parquet; the documents' fingerprints delta-encoded (they are sorted)."""
    import pyarrow.parquet as pq

    table = table.cast(schemas()[name])
    if name == "documents":
        delta = ["doc_id", "fingerprint"]
        pq.write_table(
            table,
            folder / f"{name}.parquet",
            compression="zstd",
            use_dictionary=[c for c in ("encoding",) if c in table.column_names],
            column_encoding=dict.fromkeys(delta, "DELTA_BINARY_PACKED"),
        )
    else:
        pq.write_table(table, folder / f"{name}.parquet", compression="zstd")


class BundleWriter:
    """Writes a bundle atomically: tables go into `self.folder` (hidden, beside the destination); `commit`
    writes the manifest and renames the folder into place; leaving the block without commit removes it.

        with BundleWriter(out) as w:
            write_table(w.folder, "documents", table)
            w.commit(manifest)
    """

    def __init__(self, out: Path) -> None:
        self.out = Path(out)
        if self.out.exists() and not (self.out / MANIFEST).exists() and any(self.out.iterdir()):
            raise BundleError(f"{out} exists and is not a bundle; give another --out (nothing was overwritten)")
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self.folder = self.out.parent / f".{self.out.name}.partial-{uuid.uuid4().hex[:12]}"
        self.committed = False

    def __enter__(self) -> BundleWriter:
        self.folder.mkdir()
        return self

    def commit(self, manifest: dict) -> Path:
        body = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            **manifest,
        }
        tmp = self.folder / (MANIFEST + ".tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(body, fh, ensure_ascii=False, indent=2, sort_keys=True)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.folder / MANIFEST)
        _fsync_tree(self.folder)
        old = None
        if self.out.exists():  # the previous bundle steps aside only once the new one is complete
            old = self.out.parent / f".{self.out.name}.old-{uuid.uuid4().hex[:12]}"
            os.replace(self.out, old)
        os.replace(self.folder, self.out)
        _fsync_dir(self.out.parent)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        self.committed = True
        return self.out

    def __exit__(self, *exc) -> None:
        if not self.committed:
            shutil.rmtree(self.folder, ignore_errors=True)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_tree(folder: Path) -> None:
    for dirpath, _, files in os.walk(folder):
        for f in files:
            fd = os.open(os.path.join(dirpath, f), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        _fsync_dir(Path(dirpath))


@dataclass(frozen=True)
class Bundle:
    """An opened bundle: its manifest, and its tables read on demand (pyarrow Tables)."""

    path: Path
    manifest: dict

    def table(self, name: str, columns: list[str] | None = None):
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            return pq.read_table(self.path / f"{name}.parquet", columns=columns, schema=schemas()[name])
        except (OSError, pa.ArrowException, ValueError) as exc:
            raise BundleError(f"{self.path}: {name}.parquet cannot be read ({_first_line(exc)})") from None

    @property
    def kind(self) -> str:
        return self.manifest["source"]["kind"]

    @property
    def root(self) -> str:
        """The folder (or URI prefix) every document of the bundle lies under, as the manifest says."""
        return self.manifest["source"]["root"]

    @property
    def verified(self) -> bool:
        return self.manifest["mode"] == "verified"


def open_bundle(path: Path | str, settings: FeatureSettings = DEFAULT_FEATURES) -> Bundle:
    """Open a bundle for reading. Raises BundleError for a folder that is not a complete bundle, a newer
    format, or one made with other feature settings than `settings`."""
    path = Path(path)
    manifest_path = path / MANIFEST
    if not manifest_path.is_file():
        raise BundleError(f"{path}: not a simdesk bundle (no {MANIFEST}: not one, or a run that did not finish)")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BundleError(f"{path}: the manifest cannot be read ({exc})") from None
    if not isinstance(manifest, dict):
        raise BundleError(f"{path}: the manifest is not a JSON object; not a simdesk bundle")
    if manifest.get("format") != FORMAT:
        raise BundleError(f"{path}: not a simdesk bundle (format {manifest.get('format')!r})")
    version = manifest.get("format_version", 0)
    if not isinstance(version, int) or isinstance(version, bool):
        raise BundleError(f"{path}: the manifest's format_version {version!r} is not a number")
    if version > FORMAT_VERSION:
        raise BundleError(
            f"{path}: written by a newer simdesk (bundle format {manifest['format_version']}, "
            f"this one reads {FORMAT_VERSION}); upgrade simdesk"
        )
    if manifest.get("features") != settings.to_json():
        raise BundleError(
            f"{path}: made with other feature settings ({manifest.get('features')}) than this "
            f"simdesk uses ({settings.to_json()}); its fingerprints do not compare: scan again"
        )
    _check_manifest(path, manifest)
    _check_tables(path)
    return Bundle(path, manifest)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]


def _check_manifest(path: Path, manifest: dict) -> None:
    """Raise BundleError unless the manifest's fields the readers use have their types."""
    source = manifest.get("source")
    if not isinstance(source, dict):
        raise BundleError(f"{path}: the manifest's source is {source!r:.80}, not an object; not a bundle simdesk wrote")
    kind, spec, root = source.get("kind"), source.get("spec"), source.get("root")
    if kind not in SOURCE_KINDS:
        raise BundleError(f"{path}: the manifest's source kind {kind!r:.80} is none of {', '.join(SOURCE_KINDS)}")
    if not isinstance(spec, str) or not isinstance(root, str) or not root:
        raise BundleError(f"{path}: the manifest's source has no spec or root text; not a bundle simdesk wrote")
    if kind in LOCAL_KINDS and not os.path.isabs(root):
        raise BundleError(f"{path}: the manifest's root {root!r:.80} is not an absolute folder")
    if manifest.get("mode") not in ("verified", "plain"):
        raise BundleError(f"{path}: the manifest's mode {manifest.get('mode')!r:.80} is neither verified nor plain")


def _type_class(t) -> str:
    import pyarrow as pa

    for name, test in (
        ("integer", pa.types.is_integer),
        ("text", lambda x: pa.types.is_string(x) or pa.types.is_large_string(x)),
        ("bytes", lambda x: pa.types.is_binary(x) or pa.types.is_large_binary(x)),
        ("number", pa.types.is_floating),
        ("null", pa.types.is_null),
    ):
        if test(t):
            return name
    return str(t)


def check_columns(what: str, actual, expected) -> None:
    """Raise BundleError naming the first column of `expected` (an Arrow schema) that `actual` lacks or holds
    with another kind of type (integer, text, bytes, number; an all-null column passes)."""
    for f in expected:
        if f.name not in actual.names and f.name in OPTIONAL_COLUMNS:
            continue
        if f.name not in actual.names:
            raise BundleError(f"{what}: no column {f.name!r} (it has {', '.join(actual.names) or 'none'})")
        got = _type_class(actual.field(f.name).type)
        if got not in (_type_class(f.type), "null"):
            raise BundleError(f"{what}: column {f.name!r} holds {actual.field(f.name).type}, not {_type_class(f.type)}")


def _check_tables(path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    for name, schema in schemas().items():
        where = path / f"{name}.parquet"
        try:
            actual = pq.ParquetDataset(where).schema if where.is_dir() else pq.read_schema(where)
        except (OSError, pa.ArrowException, ValueError) as exc:
            raise BundleError(f"{path}: {name}.parquet is not a readable Parquet table ({_first_line(exc)})") from None
        check_columns(f"{path}: {name}.parquet", actual, schema)


def relative_path_problem(rel: object) -> str | None:
    """Why `rel` is not a relative path inside a folder (None when it is): not text, empty, absolute (also
    in Windows' forms), with a `..` component or a NUL."""
    if not isinstance(rel, str) or not rel:
        return "has no path"
    parts = rel.replace("\\", "/").split("/")
    if (
        rel.startswith(("/", "\\"))
        or (len(rel) > 2 and rel[0].isalpha() and rel[1] == ":" and rel[2] in "/\\")
        or os.path.isabs(rel)
    ):
        return f"has an absolute path {rel!r}"
    if ".." in parts:
        return f"has a path with '..' ({rel!r}) that leads outside the folder"
    if "\0" in rel:
        return "has a path with a NUL character"
    return None


def document_problem(bundle: Bundle, path: object, uri: object) -> str | None:
    """Why a documents row may not be acted on (None when it may): its path (relative_path_problem), or a URI
    that is not that path under the manifest's root (for a dataset, whose rows are not files, the path only)."""
    why = relative_path_problem(path)
    if why is not None or bundle.kind == "dataset":
        return why
    assert isinstance(path, str)  # a relative path: relative_path_problem found none
    return uri_problem(bundle.kind, bundle.root, path, uri)


def uri_problem(kind: str, root: str, path: str, uri: object) -> str | None:
    """Why `uri` is not the relative `path` under `root` (a folder for a local kind, else a URI prefix)."""
    if not isinstance(uri, str) or not uri:
        return "has no URI"
    if kind in LOCAL_KINDS:
        if os.path.normpath(uri) != os.path.normpath(os.path.join(root, path)):
            return f"has a URI {uri!r} that is not its path under the folder {root}"
        return None
    from simdesk.core.reading.texts import filesystem

    try:
        root_fs, root_path = filesystem(root)
        uri_fs, uri_path = filesystem(uri)
    except Exception as exc:  # fsspec raises its own errors for an unknown protocol  # noqa: BLE001
        return f"has a URI {uri!r} that cannot be read ({_first_line(exc)})"
    wanted = posixpath.normpath(posixpath.join("/" + root_path.strip("/"), path))
    if type(uri_fs) is not type(root_fs) or posixpath.normpath("/" + uri_path.lstrip("/")) != wanted:
        return f"has a URI {uri!r} that is not its path under the root {root}"
    return None


def location_inside(kind: str, location: str, root: str) -> bool:
    """Whether `location` (a folder or URI prefix) is `root` or lies inside it; for a local kind, a folder
    (plain or file://) is compared resolved, links followed."""
    from simdesk.core.reading.texts import filesystem

    if kind in LOCAL_KINDS:
        if location.startswith("file://"):
            location = location[len("file://") :]
        elif "://" in location:
            return False  # another store than this computer's files
        here, top = os.path.realpath(location), os.path.realpath(root)
        return here == top or here.startswith(top.rstrip(os.sep) + os.sep)
    try:
        loc_fs, loc_path = filesystem(location)
        root_fs, root_path = filesystem(root)
    except Exception:  # noqa: BLE001  fsspec's own errors: an unreadable location is not the root
        return False
    here = posixpath.normpath("/" + loc_path.strip("/"))
    top = posixpath.normpath("/" + root_path.strip("/"))
    return type(loc_fs) is type(root_fs) and (here == top or here.startswith(top.rstrip("/") + "/"))


def check_documents(bundle: Bundle, paths: list, uris: list, doc_ids: list | None = None) -> None:
    """Raise BundleError naming the first row whose path or URI document_problem refuses."""
    for k, (p, u) in enumerate(zip(paths, uris)):
        why = document_problem(bundle, p, u)
        if why is not None:
            row = f"doc_id {doc_ids[k]}" if doc_ids is not None else f"row {k}"
            raise BundleError(
                f"{bundle.path}: documents.parquet {row} {why}; the bundle is refused (nothing "
                "was read into the index or moved)"
            )


def check_short_texts(bundle: Bundle, values: list, doc_ids: list) -> None:
    """Raise BundleError naming the first documents row whose `short` (whether verification found its text
    short) is neither 1, 0 nor null: a clean-up decides on it without reading the text."""
    for k, value in enumerate(values):
        if value not in (None, 0, 1) or isinstance(value, bool):
            raise BundleError(
                f"{bundle.path}: documents.parquet doc_id {doc_ids[k]} has a short value {value!r:.40} (not 0, 1 "
                "or null); the bundle is refused (nothing was read into the index or moved)"
            )
