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
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from simdesk.core.reading.markup import MarkupError, markup_kind, visible_text
from simdesk.core.reading.normalize import fold
from simdesk.core.records import Problem

BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE: it starts with the same two bytes
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
BOM_FIRST = frozenset(bom[0] for bom, _ in BOMS)  # a file starting with none of these bytes has no BOM
# Characters that do not occur in real text: C0 controls other than tab, newlines, form feed, and DEL.
CONTROL = set(range(0x00, 0x09)) | {0x0B} | set(range(0x0E, 0x20)) | {0x7F}
CONTROL_CHAR = re.compile("[" + "".join(re.escape(chr(c)) for c in sorted(CONTROL)) + "]")  # found: then counted
CONTROL_BYTES = bytes(sorted(CONTROL))  # in UTF-8 these bytes are these characters and only them
BINARY_CONTROL_RATIO = 0.01
MB = 1024 * 1024  # the size cap is given in MB of 2**20 bytes (--max-size 20 is 20 * 2**20): shown the same way
CHANGED_WHILE_READ = "changed while being scanned (another program may still be writing it); scan again to index it"


class DecodeError(ValueError):
    """The bytes are not text in any encoding simdesk recognises."""


@dataclass(frozen=True, slots=True)
class FileEntry:
    """A file found by the walk, before it is read."""

    rel: str  # relative to the root, '/'-separated
    location: str | Path  # where it is; kept as the walk's string (a Path per file costs ~240 B more at 1M files)
    size: int
    mtime_ns: int

    @property
    def path(self) -> Path:
        return Path(self.location)


@dataclass(frozen=True, slots=True)
class TextFile:
    """A file read and decoded: `text` is what is compared (a web page's or Markdown file's visible text,
    see markup.py), `markup` says which ("html", "markdown" or "" for plain text)."""

    text: str
    encoding: str
    content_hash: str
    size: int
    mtime_ns: int
    markup: str = ""


def content_hash(data: bytes) -> str:
    """The hash that identifies a file's exact bytes (exact duplicates, moves, unchanged checks)."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def matches(rel: str, includes: tuple[str, ...]) -> bool:
    """True when the file's name (or, for a pattern with '/', its relative path) matches a pattern, ignoring
    case (fnmatch's rules)."""
    by_name, by_path = _include_rules(includes)
    return bool(
        (by_name is not None and by_name(os.path.normcase(rel.rsplit("/", 1)[-1].casefold())))
        or (by_path is not None and by_path(os.path.normcase(rel.casefold())))
    )


@lru_cache(maxsize=32)
def _include_rules(includes: tuple[str, ...]) -> tuple[Callable[[str], object] | None, ...]:
    """The patterns of `includes` as one compiled rule for the file name and one for the relative path (None
    when there is no such pattern): what fnmatch.fnmatch tries pattern by pattern, once a file instead of once
    a pattern and a file (a listing's ~8 us a file down to ~2)."""

    def rule(patterns: list[str]) -> Callable[[str], object] | None:
        if not patterns:
            return None
        return re.compile("|".join(f"(?:{fnmatch.translate(os.path.normcase(p.casefold()))})" for p in patterns)).match

    return rule([p for p in includes if "/" not in p]), rule([p for p in includes if "/" in p])


LINK_TO_FILE = (
    "a symbolic link to a file: not indexed (a document is a file, indexed where it lies, so a link "
    "is never taken for a second copy)"
)
NOT_REGULAR = "not a regular file (a named pipe, device or socket): not read"
LOOP = "folder skipped: a symbolic link leads back to a folder already scanned"
SNIFF_BYTES = 64 * 1024  # the first bytes of a large file decide whether it is binary before the rest is read
SNIFF_ABOVE = 1024 * 1024
READ_CHUNK = 1024 * 1024
READ_BUDGET_S = 60.0  # one file taking longer than this to read (a stalled network drive) is a problem
# files a reader of a list opens and has the kernel fetch ahead of the one it reads (ReadAhead), and how much of
# each: the first read's bytes (a larger file's rest comes by the kernel's own read-ahead as it is read)
READ_AHEAD_FILES = 16 if hasattr(os, "posix_fadvise") else 0
READ_AHEAD_BYTES = READ_CHUNK
OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def walk(
    root: Path,
    includes: tuple[str, ...],
    max_bytes: int,
    follow_symlinks: bool = True,
    on_problem: Callable[[Problem], None] = lambda p: None,
    is_cancelled: Callable[[], bool] = lambda: False,
) -> Iterator[FileEntry]:
    """Yield the files under `root` to index, in a stable order, each file once.

    A document is a file, known by its (device, inode), not by a path:
    - real folders are walked first, folders reached through a symbolic link only after all of them, so a
      folder that is both in the tree and behind a link (`latest -> reports`) is walked once, under its
      real name; a link leading to a folder already walked is reported (LOOP) and not followed;
    - a symbolic link to a file is reported (LINK_TO_FILE), never indexed;
    - a second name of the same file (a hard link) is reported and indexed once, under the first name;
    - named pipes, devices and sockets are reported (NOT_REGULAR), never opened.
    Hidden folders and files (name starting with '.') are skipped, and files over `max_bytes` are reported.
    """
    seen_dirs: set[tuple[int, int]] = set()
    seen_files: dict[tuple[int, int], str] = {}
    stack: list[tuple[Path, str]] = [(root, "")]
    linked: list[tuple[Path, str]] = []  # folders behind symbolic links: walked after every real folder
    while stack or linked:
        if is_cancelled():
            return
        folder, prefix = stack.pop() if stack else linked.pop(0)
        try:
            st = folder.stat()
        except OSError as exc:
            why = "disappeared during the scan" if isinstance(exc, FileNotFoundError) else exc.strerror or exc
            on_problem(Problem(prefix or ".", f"folder cannot be opened: {why}"))
            continue
        key = (st.st_dev, st.st_ino)
        if key in seen_dirs:
            on_problem(Problem(prefix, LOOP))
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
                    if not is_link:
                        subfolders.append((Path(entry.path), rel + "/"))
                    elif follow_symlinks:
                        linked.append((Path(entry.path), rel + "/"))
                    continue
                if not matches(rel, includes):
                    continue
                st = entry.stat(follow_symlinks=True)
            except OSError as exc:
                on_problem(Problem(rel, f"cannot be read: {exc.strerror or exc}"))
                continue
            if not stat.S_ISREG(st.st_mode):
                on_problem(Problem(rel, NOT_REGULAR))
                continue
            if is_link:
                on_problem(Problem(rel, LINK_TO_FILE))
                continue
            # only a file with more than one name can be met twice (a million single-named files: ~70 MB less)
            first = seen_files.setdefault((st.st_dev, st.st_ino), rel) if st.st_nlink > 1 else rel
            if first != rel:
                on_problem(
                    Problem(
                        rel,
                        f"the same file as {first} (a hard link, a second name of one file): "
                        "indexed once, under that name",
                    )
                )
                continue
            if st.st_size > max_bytes:
                on_problem(
                    Problem(rel, f"skipped: {st.st_size / MB:.1f} MB is over the size cap of {max_bytes / MB:.1f} MB")
                )
                continue
            yield FileEntry(rel, entry.path, st.st_size, st.st_mtime_ns)
        stack.extend(reversed(subfolders))


def open_regular(path: str | os.PathLike[str], follow_links: bool = True) -> int:
    """Open a file for reading without ever blocking: O_NONBLOCK (a named pipe with no writer would block
    `open` for ever), then a type check on the open descriptor (what was listed may have been swapped for
    a pipe or device since). Raises DecodeError(NOT_REGULAR) for anything but a regular file, OSError
    (ELOOP) for a symbolic link when `follow_links` is False. Returns a descriptor the caller closes."""
    return _open_regular(path, follow_links)[0]


def _open_regular(path: str | os.PathLike[str], follow_links: bool) -> tuple[int, os.stat_result]:
    """open_regular, and the open file's status."""
    flags = OPEN_FLAGS if follow_links else OPEN_FLAGS | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise DecodeError(NOT_REGULAR)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


class ReadAhead:
    """Reads the files of a list, in its order, with the disk kept busy: when one file is taken to be read,
    the next `depth` files are already open and the kernel has been asked to fetch their first bytes
    (posix_fadvise WILLNEED), so the wait for a folder not in the page cache overlaps the decoding and
    fingerprinting of the files before. No thread and no bytes are held: `depth` descriptors at most, and
    READ_AHEAD_BYTES of each in the page cache.

        with ReadAhead(paths, follow_links=False) as ahead:
            for path in paths:
                data, st = read_bytes(path, max_bytes, follow_links=False, ahead=ahead)

    Each file is opened once, by _open_regular (its checks, O_NOFOLLOW when `follow_links` is False), ahead
    of its turn; what that opening raised (the file vanished, is unreadable, is not a regular file) is raised
    when the file is taken, as reading it then would. A path taken out of turn is opened then; files of the
    list skipped are closed unread, and so is every file opened ahead when the reader is closed (a cancel, an
    error mid-list). Cold, 20,000 files read alone took 2.1-3.8 s one by one, 0.6-1.0 s with 16 opened ahead;
    reader threads were no faster (10,000 files: 0.5-1.5 s with 4, 0.5 s with 8 ahead) and need the
    interpreter's lock, which the worker holds while it computes."""

    def __init__(
        self, paths: Iterable[str | os.PathLike[str]], follow_links: bool = True, depth: int = READ_AHEAD_FILES
    ) -> None:
        self._paths = iter(paths)
        self._follow_links = follow_links
        self._depth = depth
        self._opened: deque[tuple[str | os.PathLike[str], tuple[int, os.stat_result] | Exception]] = deque()

    def take(self, path: str | os.PathLike[str]) -> tuple[int, os.stat_result]:
        """`path` opened (a descriptor the caller closes, and its status), as _open_regular gives it. The file
        in turn, the first opened ahead, is taken at once (one fill after, to keep `depth` ahead); any other is
        looked for among them after a fill (the first take's, or one out of turn)."""
        opened = self._opened
        if not opened or opened[0][0] != path:
            self._fill()
            if not any(p == path for p, _ in opened):
                return _open_regular(path, self._follow_links)
            while opened[0][0] != path:
                _close(opened.popleft()[1])  # skipped by the reader
        got = opened.popleft()[1]
        self._fill()
        if isinstance(got, Exception):
            raise got
        return got

    def _fill(self) -> None:
        opened, paths, follow_links = self._opened, self._paths, self._follow_links
        while len(opened) < self._depth:
            path = next(paths, None)
            if path is None:
                return
            try:
                fd, st = _open_regular(path, follow_links)
            except Exception as exc:  # raised when the file is taken  # noqa: BLE001
                opened.append((path, exc))
                continue
            opened.append((path, (fd, st)))
            try:
                os.posix_fadvise(fd, 0, min(st.st_size, READ_AHEAD_BYTES), os.POSIX_FADV_WILLNEED)
            except OSError:  # only advice: a file system without it is read as it comes
                pass

    def close(self) -> None:
        """Close every file opened ahead and not taken."""
        while self._opened:
            _close(self._opened.popleft()[1])
        self._paths = iter(())

    def __enter__(self) -> ReadAhead:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _close(opened: tuple[int, os.stat_result] | Exception) -> None:
    if not isinstance(opened, Exception):
        os.close(opened[0])


def read_bytes(
    path: str | os.PathLike[str],
    max_bytes: int,
    follow_links: bool = True,
    budget_s: float = READ_BUDGET_S,
    ahead: ReadAhead | None = None,
) -> tuple[bytes, os.stat_result]:
    """Read a whole regular file, refusing one that has grown past `max_bytes` since it was listed, that
    changed while it was read (another program writing it: the bytes may be half old, half new), that takes
    longer than `budget_s` to read, or whose first SNIFF_BYTES already show a large file is binary (500 MB
    of NUL bytes is refused after 64 KB, not read whole). A file read to its size at open in one short read
    (most files: one `read` of size + 1 bytes) takes no second read to see its end: its status after the
    read says whether it grew. `ahead`: the ReadAhead of a list of files this one is read from (opened with
    its `follow_links`)."""
    started = time.monotonic()
    fd, st = _open_regular(path, follow_links) if ahead is None else ahead.take(path)
    try:
        parts: list[bytes] = []
        total = 0
        after = None
        while total <= max_bytes:
            want = min(READ_CHUNK, max_bytes + 1 - total)
            if total < st.st_size:
                want = min(want, st.st_size + 1 - total)
            chunk = os.read(fd, want)
            if not chunk:
                break
            if not parts and st.st_size > SNIFF_ABOVE:
                _sniff(chunk[:SNIFF_BYTES])
            parts.append(chunk)
            total += len(chunk)
            if time.monotonic() - started > budget_s:
                raise DecodeError(
                    f"took longer than {budget_s:.0f} s to read (a slow or stalled drive?); scan again to index it"
                )
            if total == st.st_size and len(chunk) < want:  # the end, unless it grew meanwhile
                after = os.fstat(fd)
                if after.st_size == total:
                    break
        data = parts[0] if len(parts) == 1 else b"".join(parts)  # one part: no copy
        if after is None or after.st_size != total:
            after = os.fstat(fd)
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise DecodeError(f"skipped: grew past the size cap of {max_bytes / MB:.1f} MB while being read")
    if (after.st_size, after.st_mtime_ns) != (st.st_size, st.st_mtime_ns) or len(data) != st.st_size:
        raise DecodeError(CHANGED_WHILE_READ)
    return data, st


def _sniff(head: bytes) -> None:
    """Raise DecodeError when the first bytes of a large file are binary (what decode_bytes would say of
    them), so the rest is never read."""
    if b"\x00" not in head and not CONTROL_CHAR.search(head.decode("latin-1")):
        return
    try:
        decode_bytes(head[: len(head) - len(head) % 4])
    except DecodeError as exc:
        if str(exc).startswith("binary"):
            raise


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Decode a file's bytes; return (text, encoding name).

    Order: a byte-order mark; strict UTF-8; strict GB18030 (when Big5 also decodes, the one that reads as
    more common Chinese characters wins, GB18030 on a tie); otherwise charset-normalizer, which also finds UTF-16 without a BOM. Binary data raises
    DecodeError. GB18030 is tried before any detector because detectors often misread it as something else.
    """
    if data and data[0] in BOM_FIRST:
        for bom, name in BOMS:
            if data.startswith(bom):
                try:
                    return _checked(data.decode(name), name)
                except UnicodeDecodeError as exc:
                    raise DecodeError(
                        f"starts with a {name.upper()} byte-order mark but is not valid {name.upper()} "
                        f"(byte {exc.start})"
                    ) from None
    if b"\x00" not in data:
        try:
            utf8 = data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            # _checked, counted on the bytes: a UTF-8 control byte is a control character (and the bytes'
            # table walk is twice as fast as the regex on the text)
            if len(data) - len(data.translate(None, CONTROL_BYTES)) > BINARY_CONTROL_RATIO * len(utf8):
                raise DecodeError(_binary("utf-8"))
            return utf8, "utf-8"
        try:
            text = _checked(data.decode("gb18030"), "gb18030")
        except (UnicodeDecodeError, DecodeError):
            pass
        else:
            try:
                big5 = _checked(data.decode("big5"), "big5")
            except (UnicodeDecodeError, DecodeError):
                return text
            return big5 if _common_share(big5[0]) > _common_share(text[0]) else text
    found = _detect(data, None)
    if found is None:
        if b"\x00" in data:
            raise DecodeError("binary file (contains NUL bytes), not text")
        raise DecodeError("not text in any known encoding (undecodable bytes, or parts in different encodings)")
    return found


@lru_cache(maxsize=1)
def _common_hanzi() -> frozenset[str]:
    """GB2312's symbols (rows A1..A3, A9: punctuation, numerals, full-width forms, box drawing; not its kana,
    Greek, Cyrillic, pinyin and bopomofo, which Big5 bytes read as GB18030 and GB18030 bytes read as Big5
    often give) and its 3,755 common characters (level 1, rows B0..D7), decoded by Python's own codec."""
    chars = set()
    for hi in [0xA1, 0xA2, 0xA3, 0xA9, *range(0xB0, 0xD8)]:
        for lo in range(0xA1, 0xFF):
            try:
                chars.add(bytes((hi, lo)).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return frozenset(chars)


def _common_share(text: str) -> float:
    """How much of a text reads as common Chinese: the share of its non-ASCII characters that, folded to
    simplified (text.fold), are common characters or symbols. Bytes that are valid both as GB18030 and as Big5 read as
    common characters in their real encoding and mostly as rare ones, kana and symbols in the other.
    Measured on texts of at most 64 characters, decoded right (charset-normalizer, the detector used
    before, in brackets): GB18030, 3,000 Debian Reference sentences 3000 (2995), 3,000 lines of Chinese
    sayings and poems 2999 (2834); Big5, the same sentences converted to traditional 2908/2908 (2890), 2,999
    lines of zh_TW manual pages 2989 (2927). The first 4,096 non-ASCII characters are enough to tell."""
    wide = [c for c in text[:16384] if ord(c) > 0x7F][:4096]
    if not wide:
        return 0.0
    common = _common_hanzi()
    return sum(c in common for c in fold("".join(wide))) / len(wide)


def _checked(text: str, encoding: str) -> tuple[str, str]:
    # counted by the regex: str.translate with a table walks a 1 MB text in ~65 ms holding Python's lock
    if text and CONTROL_CHAR.search(text) and len(CONTROL_CHAR.findall(text)) > BINARY_CONTROL_RATIO * len(text):
        raise DecodeError(_binary(encoding))
    return text, encoding


def _binary(encoding: str) -> str:
    return f"binary file (control characters when read as {encoding}), not text"


def _detect(data: bytes, candidates: tuple[str, ...] | None) -> tuple[str, str] | None:
    from charset_normalizer import from_bytes  # imported late: it costs start-up time

    best = from_bytes(data, cp_isolation=list(candidates) if candidates else None).best()
    if best is None:
        return None
    try:
        return _checked(str(best), best.encoding)
    except DecodeError:
        return None


# Python codec names as people know them (charset-normalizer and the BOM check give Python's names)
ENCODING_NAMES = {
    "utf_8": "UTF-8",
    "utf_8_sig": "UTF-8 (BOM)",
    "utf_16": "UTF-16",
    "utf_16_le": "UTF-16 LE",
    "utf_16_be": "UTF-16 BE",
    "utf_32": "UTF-32",
    "utf_32_le": "UTF-32 LE",
    "utf_32_be": "UTF-32 BE",
    "gb18030": "GB18030",
    "gbk": "GBK",
    "gb2312": "GB2312",
    "big5": "Big5",
    "big5hkscs": "Big5-HKSCS",
    "cp950": "Big5 (CP950)",
    "cp936": "GBK (CP936)",
    "hz": "HZ",
    "euc_jp": "EUC-JP",
    "shift_jis": "Shift_JIS",
    "cp932": "Shift_JIS (CP932)",
    "euc_kr": "EUC-KR",
    "cp949": "EUC-KR (CP949)",
    "ascii": "ASCII",
    "latin_1": "ISO-8859-1",
    "iso8859_15": "ISO-8859-15",
    "cp1252": "Windows-1252",
    "cp1251": "Windows-1251",
    "koi8_r": "KOI8-R",
    "mac_roman": "Mac Roman",
}


def encoding_name(codec: str) -> str:
    """The usual name of an encoding ('gb18030' -> 'GB18030', 'utf_16_le' -> 'UTF-16 LE'), for people."""
    try:
        canonical = codecs.lookup(codec).name.replace("-", "_")
    except LookupError:
        return codec
    return ENCODING_NAMES.get(canonical, codec.upper().replace("_", "-"))


def read_source_file(
    path: str | os.PathLike[str], max_bytes: int, follow_links: bool = True, ahead: ReadAhead | None = None
) -> TextFile:
    """Read and decode one file as it is written (a web page's tags, a Markdown file's marks), for showing
    the source (`ahead`: see read_bytes). Raises DecodeError or OSError with a reason."""
    return source_of_bytes(*read_bytes(path, max_bytes, follow_links, ahead=ahead), path)


def source_of_bytes(data: bytes, st: os.stat_result, path: str | os.PathLike[str]) -> TextFile:
    """read_source_file of a file already read: its bytes and status as read_bytes gave them for `path`.
    Raises DecodeError."""
    return text_file_of(data, st.st_mtime_ns, os.path.basename(path))


def text_file_of(data: bytes, mtime_ns: int, name: str = "") -> TextFile:
    """Decode a file's bytes, however they were fetched (a local file, an object store), as written (the
    source; `name` tells Markdown by its suffix). Raises DecodeError."""
    if not data or data.isspace():  # = not data.strip(), without a copy
        raise DecodeError("empty file")
    text, encoding = decode_bytes(data)
    return TextFile(text, encoding, content_hash(data), len(data), mtime_ns, markup_kind(name, text))


def read_text_file(
    path: str | os.PathLike[str], max_bytes: int, follow_links: bool = True, ahead: ReadAhead | None = None
) -> TextFile:
    """Read and decode one file, and keep what a reader sees: the visible text of a web page (HTML or XHTML,
    told by content) or of a Markdown file, the text itself otherwise. This is what is fingerprinted,
    verified and compared (`ahead`: see read_bytes). Raises DecodeError (a markup file with no text too) or
    OSError with a reason."""
    return text_of_bytes(*read_bytes(path, max_bytes, follow_links, ahead=ahead), path)


def text_of_bytes(data: bytes, st: os.stat_result, path: str | os.PathLike[str]) -> TextFile:
    """read_text_file of a file already read (a reader that looked at its bytes first opens it once): its
    bytes and status as read_bytes gave them for `path`. Raises DecodeError."""
    return visible(source_of_bytes(data, st, path))


def visible(source: TextFile) -> TextFile:
    """A decoded file with its text replaced by its visible text when it is markup (markup.py). Raises
    DecodeError for a markup file with no text."""
    if not source.markup:
        return source
    try:
        text = visible_text(source.text, source.markup)
    except MarkupError as exc:
        raise DecodeError(str(exc)) from None
    return replace(source, text=text)


def describe_os_error(exc: OSError) -> str:
    """A one-line reason for a file that could not be read."""
    if isinstance(exc, FileNotFoundError):
        return "disappeared before it could be read"
    if isinstance(exc, PermissionError):
        return "cannot be read: permission denied"
    if isinstance(exc, IsADirectoryError):
        return "is a folder, not a file"
    return f"cannot be read: {exc.strerror or exc}"
