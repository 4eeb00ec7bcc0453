"""Walk a folder, pick the text files to index, read them and decode them into text.

Every failure becomes a `Problem` with a reason an editor can act on; nothing here raises for a bad file.
"""
from __future__ import annotations

import codecs
import fnmatch
import hashlib
import os
import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from simdesk.core.records import Problem

BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE: it starts with the same two bytes
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# Characters that do not occur in real text: C0 controls other than tab, newlines, form feed, and DEL.
CONTROL = set(range(0x00, 0x09)) | {0x0B} | set(range(0x0E, 0x20)) | {0x7F}
CONTROL_TABLE = {c: None for c in CONTROL}
CONTROL_CHAR = re.compile("[" + "".join(re.escape(chr(c)) for c in sorted(CONTROL)) + "]")  # found: then counted
BINARY_CONTROL_RATIO = 0.01
MB = 1024 * 1024  # the size cap is given in MB of 2**20 bytes (--max-size 20 is 20 * 2**20): shown the same way
CHANGED_WHILE_READ = "changed while being scanned (another program may still be writing it); scan again to index it"


class DecodeError(ValueError):
    """The bytes are not text in any encoding simdesk recognises."""


@dataclass(frozen=True, slots=True)
class FileEntry:
    """A file found by the walk, before it is read."""

    rel: str  # relative to the root, '/'-separated
    path: Path
    size: int
    mtime_ns: int


@dataclass(frozen=True, slots=True)
class TextFile:
    """A file read and decoded."""

    text: str
    encoding: str
    content_hash: str
    size: int
    mtime_ns: int


def content_hash(data: bytes) -> str:
    """The hash that identifies a file's exact bytes (exact duplicates, moves, unchanged checks)."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def matches(rel: str, includes: tuple[str, ...]) -> bool:
    """True when the file's name (or, for a pattern with '/', its relative path) matches a pattern."""
    name = rel.rsplit("/", 1)[-1]
    for pattern in includes:
        target = rel if "/" in pattern else name
        if fnmatch.fnmatch(target.casefold(), pattern.casefold()):
            return True
    return False


def walk(
    root: Path,
    includes: tuple[str, ...],
    max_bytes: int,
    follow_symlinks: bool = True,
    on_problem: Callable[[Problem], None] = lambda p: None,
    is_cancelled: Callable[[], bool] = lambda: False,
) -> Iterator[FileEntry]:
    """Yield the files under `root` to index, in a stable order.

    Hidden folders and files (name starting with '.') are skipped, symlinked folders are followed once
    (a loop is reported, not followed), and files over `max_bytes` are reported, not yielded.
    """
    seen_dirs: set[tuple[int, int]] = set()
    stack: list[tuple[Path, str]] = [(root, "")]
    while stack:
        if is_cancelled():
            return
        folder, prefix = stack.pop()
        try:
            st = folder.stat()
        except OSError as exc:
            why = "disappeared during the scan" if isinstance(exc, FileNotFoundError) else exc.strerror or exc
            on_problem(Problem(prefix or ".", f"folder cannot be opened: {why}"))
            continue
        key = (st.st_dev, st.st_ino)
        if key in seen_dirs:
            on_problem(Problem(prefix, "folder skipped: a symbolic link leads back to a folder already scanned"))
            continue
        seen_dirs.add(key)
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            why = "disappeared during the scan" if isinstance(exc, FileNotFoundError) else exc.strerror or exc
            on_problem(Problem(prefix or ".", f"folder cannot be read: {why}"))
            continue
        subfolders = []
        for entry in entries:
            name = entry.name
            rel = f"{prefix}{name}"
            if name.startswith("."):
                continue
            try:
                rel.encode("utf-8")
            except UnicodeEncodeError:
                shown = os.fsencode(rel).decode("utf-8", "backslashreplace")
                on_problem(Problem(shown, "file name is not valid UTF-8; rename it to index it"))
                continue
            try:
                is_link = entry.is_symlink()
                if entry.is_dir(follow_symlinks=follow_symlinks):
                    if is_link and not follow_symlinks:
                        continue
                    subfolders.append((Path(entry.path), rel + "/"))
                    continue
                if not matches(rel, includes):
                    continue
                st = entry.stat(follow_symlinks=True)
            except OSError as exc:
                on_problem(Problem(rel, f"cannot be read: {exc.strerror or exc}"))
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            if st.st_size > max_bytes:
                on_problem(Problem(rel, f"skipped: {st.st_size / MB:.1f} MB is over the size cap of {max_bytes / MB:.1f} MB"))
                continue
            yield FileEntry(rel, Path(entry.path), st.st_size, st.st_mtime_ns)
        stack.extend(reversed(subfolders))


def read_bytes(path: Path, max_bytes: int) -> tuple[bytes, os.stat_result]:
    """Read a whole file, refusing one that has grown past `max_bytes` since it was listed, or that changed
    while it was read (another program writing it: the bytes may be half old, half new)."""
    with open(path, "rb") as fh:
        st = os.fstat(fh.fileno())
        data = fh.read(max_bytes + 1)
        after = os.fstat(fh.fileno())
    if len(data) > max_bytes:
        raise DecodeError(f"skipped: grew past the size cap of {max_bytes / MB:.1f} MB while being read")
    if (after.st_size, after.st_mtime_ns) != (st.st_size, st.st_mtime_ns) or len(data) != st.st_size:
        raise DecodeError(CHANGED_WHILE_READ)
    return data, st


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Decode a file's bytes; return (text, encoding name).

    Order: a byte-order mark; strict UTF-8; strict GB18030 (when Big5 also decodes, a detector picks between
    the two); otherwise charset-normalizer, which also finds UTF-16 without a BOM. Binary data raises
    DecodeError. GB18030 is tried before any detector because detectors often misread it as something else.
    """
    for bom, name in BOMS:
        if data.startswith(bom):
            try:
                return _checked(data.decode(name), name)
            except UnicodeDecodeError as exc:
                raise DecodeError(f"starts with a {name.upper()} byte-order mark but is not valid {name.upper()} "
                                  f"(byte {exc.start})") from None
    if b"\x00" not in data:
        try:
            return _checked(data.decode("utf-8"), "utf-8")
        except UnicodeDecodeError:
            pass
        try:
            text = _checked(data.decode("gb18030"), "gb18030")
        except (UnicodeDecodeError, DecodeError):
            pass
        else:
            try:
                data.decode("big5")
            except UnicodeDecodeError:
                return text
            return _detect(data, ("gb18030", "big5")) or text
    found = _detect(data, None)
    if found is None:
        if b"\x00" in data:
            raise DecodeError("binary file (contains NUL bytes), not text")
        raise DecodeError("not text in any known encoding (undecodable bytes, or parts in different encodings)")
    return found


def _checked(text: str, encoding: str) -> tuple[str, str]:
    if text and CONTROL_CHAR.search(text) and \
            len(text) - len(text.translate(CONTROL_TABLE)) > BINARY_CONTROL_RATIO * len(text):
        raise DecodeError(f"binary file (control characters when read as {encoding}), not text")
    return text, encoding


def _detect(data: bytes, candidates: tuple[str, ...] | None) -> tuple[str, str] | None:
    from charset_normalizer import from_bytes  # imported late: it costs start-up time

    best = from_bytes(data, cp_isolation=list(candidates) if candidates else None).best()
    if best is None:
        return None
    try:
        return _checked(str(best), best.encoding)
    except DecodeError:
        return None


def read_text_file(path: Path, max_bytes: int) -> TextFile:
    """Read and decode one file. Raises DecodeError or OSError with a reason."""
    data, st = read_bytes(path, max_bytes)
    return text_file_of(data, st.st_mtime_ns)


def text_file_of(data: bytes, mtime_ns: int) -> TextFile:
    """Decode a file's bytes, however they were fetched (a local file, an object store). Raises DecodeError."""
    if not data.strip():
        raise DecodeError("empty file")
    text, encoding = decode_bytes(data)
    return TextFile(text, encoding, content_hash(data), len(data), mtime_ns)


def describe_os_error(exc: OSError) -> str:
    """A one-line reason for a file that could not be read."""
    if isinstance(exc, FileNotFoundError):
        return "disappeared before it could be read"
    if isinstance(exc, PermissionError):
        return "cannot be read: permission denied"
    if isinstance(exc, IsADirectoryError):
        return "is a folder, not a file"
    return f"cannot be read: {exc.strerror or exc}"
