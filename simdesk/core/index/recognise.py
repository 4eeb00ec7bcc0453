"""Whether a file given as the index is simdesk's: an index of this application id, a simdesk index from before
the application id (its exact tables), a new or empty file, or anything else, refused before a byte of it is
written (the file is untrusted input: read, never written, here)."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path
from urllib.parse import quote

from simdesk.core.index.connection import IndexError_, failure
from simdesk.core.index.layout import APPLICATION_ID

SQLITE_MAGIC = b"SQLite format 3\x00"
# The tables of simdesk's layouts 1-6, written before the application id: a file with exactly these is ours
LEGACY_TABLES = {"meta", "documents", "problems", "keep_marks", "trash_queue", "scores", "ignored_pairs", "reviewed"}
LEGACY_COLUMNS = {"path", "size", "mtime_ns", "content_hash", "fingerprint", "b0", "b1", "b2", "b3"}


def recognise(path: Path) -> str:
    """'new' (no file, or an empty one), 'ours' (simdesk's application id), 'legacy' (a simdesk index from
    before the application id); anything else raises IndexError_. Reads the file and writes nothing."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return "new"
    except OSError as exc:
        raise failure(exc, path) from None
    if stat.S_ISDIR(st.st_mode):
        raise IndexError_(f"{path} is a folder: give --db the path of an index file")
    if not stat.S_ISREG(st.st_mode):
        raise IndexError_(f"{path} is not a regular file: give --db the path of an index file")
    if st.st_size == 0:
        return "new"
    try:
        with open(path, "rb") as fh:
            header = fh.read(100)
    except OSError as exc:
        raise failure(exc, path) from None
    refuse = f"{path} is not a simdesk index ({{}}); simdesk does not write to it: give --db another file"
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise IndexError_(refuse.format("not an SQLite database"))
    app_id = int.from_bytes(header[68:72], "big")
    if app_id == APPLICATION_ID:
        return "ours"
    kind = _without_application_id(path) if app_id == 0 else None
    if kind is None:
        raise IndexError_(refuse.format("an SQLite database of another program"))
    return kind


def _without_application_id(path: Path) -> str | None:
    """An SQLite file without an application id: 'new' when it has no table (nothing in it to harm), 'legacy'
    when it holds nothing but simdesk's tables of layouts 1-6 with their schema version and document
    columns, None for anything else. Opened read-only."""
    try:
        conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        tables = {
            r[0]
            for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        }
        if not tables:
            return "new"
        if not {"meta", "documents"} <= tables <= LEGACY_TABLES:
            return None
        version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        columns = {r[1] for r in conn.execute("PRAGMA table_info(documents)")}
        ours = version is not None and version[0] in {"1", "2", "3", "4", "5", "6"} and LEGACY_COLUMNS <= columns
        return "legacy" if ours else None
    except sqlite3.Error:
        return None
    finally:
        conn.close()
