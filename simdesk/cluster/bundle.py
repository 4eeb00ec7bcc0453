"""Bundles: what a cluster scan leaves behind for the desktop. A folder of Parquet tables plus `manifest.json`:

    manifest.json       format, feature settings (the string the index stores), mode, threshold, source, counts
    documents.parquet   doc_id, path, uri, size, mtime_ns, version, content_hash, encoding, chars,
                        fingerprint, clean_fp (int64, the index's signed form), lines, votes; sorted by
                        fingerprint, which is written DELTA_BINARY_PACKED (the varint-delta fingerprint file
                        of classic SimHash deployments)
    problems.parquet    path, uri, error
    pairs.parquet       a, b (doc_id, a < b), distance, scaled (the slider's distance), score, and the share of
                        a's text found in b's and of b's in a's (a_in_b, b_in_a; verified mode)
    groups.parquet      group, doc_id, rank (0: the representative), distance, score

A table may be one file or a folder of part files (as Spark writes it). A bundle is written into a hidden
folder beside its destination and renamed into place only when complete, manifest last: a job killed at any
moment leaves either the previous bundle or none, never a half one (`open_bundle` refuses a folder without a
manifest). A bundle made with other feature settings than the reader's is refused: its fingerprints would not
compare with the reader's.
"""
from __future__ import annotations

import json
import os
import shutil
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from simdesk.core.features import DEFAULT_FEATURES, FeatureSettings

FORMAT = "simdesk-bundle"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
TABLES = ("documents", "problems", "pairs", "groups")


class BundleError(ValueError):
    """A bundle that cannot be used; the message says why and what to do."""


def schemas():
    """The Arrow schema of each table."""
    import pyarrow as pa

    return {
        "documents": pa.schema([("doc_id", pa.int64()), ("path", pa.string()), ("uri", pa.string()),
                                ("size", pa.int64()), ("mtime_ns", pa.int64()), ("version", pa.string()),
                                ("content_hash", pa.string()), ("encoding", pa.string()), ("chars", pa.int64()),
                                ("fingerprint", pa.int64()), ("clean_fp", pa.int64()), ("lines", pa.binary()),
                                ("votes", pa.binary())]),
        "problems": pa.schema([("path", pa.string()), ("uri", pa.string()), ("error", pa.string())]),
        "pairs": pa.schema([("a", pa.int64()), ("b", pa.int64()), ("distance", pa.int8()), ("scaled", pa.int8()),
                            ("score", pa.float64()), ("a_in_b", pa.float64()), ("b_in_a", pa.float64())]),
        "groups": pa.schema([("group", pa.int64()), ("doc_id", pa.int64()), ("rank", pa.int32()),
                             ("distance", pa.int8()), ("score", pa.float64())]),
    }


def write_table(folder: Path, name: str, table) -> None:
    """Write one table as `name`.parquet; the documents' fingerprints delta-encoded (they are sorted)."""
    import pyarrow.parquet as pq

    table = table.cast(schemas()[name])
    if name == "documents":
        delta = ["doc_id", "fingerprint"]
        pq.write_table(table, folder / f"{name}.parquet", compression="zstd",
                       use_dictionary=[c for c in ("encoding",) if c in table.column_names],
                       column_encoding={c: "DELTA_BINARY_PACKED" for c in delta})
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
        body = {"format": FORMAT, "format_version": FORMAT_VERSION, "created": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                time.gmtime()), **manifest}
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
        import pyarrow.parquet as pq

        return pq.read_table(self.path / f"{name}.parquet", columns=columns, schema=schemas()[name])

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
    if manifest.get("format") != FORMAT:
        raise BundleError(f"{path}: not a simdesk bundle (format {manifest.get('format')!r})")
    if int(manifest.get("format_version", 0)) > FORMAT_VERSION:
        raise BundleError(f"{path}: written by a newer simdesk (bundle format {manifest['format_version']}, "
                          f"this one reads {FORMAT_VERSION}); upgrade simdesk")
    if manifest.get("features") != settings.to_json():
        raise BundleError(f"{path}: made with other feature settings ({manifest.get('features')}) than this "
                          f"simdesk uses ({settings.to_json()}); its fingerprints do not compare: scan again")
    return Bundle(path, manifest)
