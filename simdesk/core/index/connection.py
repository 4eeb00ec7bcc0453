"""The index file's connection: every failure of the file (full, read-only, damaged, busy) comes out as an
IndexError_ that says in one line what went wrong and what to do; write transactions; the scan's lock."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

BUSY_TIMEOUT_S = 10.0
BUSY_MESSAGE = "the index is busy: another simdesk is scanning this folder; try again when it has finished"


class IndexError_(RuntimeError):
    """The index cannot be opened or used; the message says why and what to do, in one line."""


def damaged_prefix(path: Path) -> str:
    """How the message of a damaged index file begins (the window offers the rebuild on it)."""
    return f"the index {path} is damaged"


def damaged(path: Path, why: str) -> IndexError_:
    """The one line of a damaged index file: what SQLite found, and the rebuild."""
    return IndexError_(
        f"{damaged_prefix(path)} ({why}): open the folder in the window to rebuild it, "
        "carrying over the keep marks and other decisions still readable, or move it aside and "
        "scan again (its decisions are then left behind in the file moved aside)"
    )


# What an index's check on opening (check_pages) may cost: SQLite's quick_check takes 160,000-320,000 steps a
# MB of index at ~20 M steps a second (measured 2026-11-27 at load 9: 5,002 documents with 339,295 scores,
# 16.6 MB, in 5.25 M steps and 0.24 s), so an index of up to ~16-30 MB (a few thousand documents) is checked
# whole in a quarter of a second, a larger one as far as that goes.
CHECK_STEPS = 5_000_000
CHECK_EVERY = 1000  # steps between two looks at the budget


def check_pages(conn: sqlite3.Connection, path: Path, steps: int = CHECK_STEPS) -> None:
    """Raise the damaged index's IndexError_ when SQLite's `quick_check` finds a damaged page in the first
    `steps` steps of its work (an index of up to ~16-30 MB whole, of a larger one the pages checked first:
    see CHECK_STEPS): a damaged page no later statement reads (the segments or the scores of an unchanged
    folder) is found on opening, not in some later run."""
    looks = iter(range(steps // CHECK_EVERY))

    def spent() -> bool:
        return next(looks, None) is None

    conn.set_progress_handler(spent, CHECK_EVERY)
    try:
        found = [row[0] for row in conn.execute("PRAGMA quick_check(1)").fetchall()]
    except sqlite3.OperationalError as exc:
        if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_INTERRUPT:
            return  # the budget is spent: the rest is found when read
        raise
    finally:
        conn.set_progress_handler(None, 0)
    if found != ["ok"]:  # e.g. "*** in database main ***\nPage 5: btreeInitPage() returns error code 11"
        raise damaged(path, " ".join(" ".join(found).replace("*** in database main ***", "").split()))


def failure(exc: BaseException, path: Path) -> BaseException:
    """The IndexError_ that says in one line what went wrong with the index file, or `exc` itself when it
    is not a failure of the file (a programming error stays a traceback)."""
    if isinstance(exc, OSError):
        if exc.errno == 28:  # ENOSPC
            return IndexError_(f"no space left on the disk for the index {path}: free some space and try again")
        return IndexError_(f"the index {path} cannot be created: {exc.strerror or exc}")
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return exc
    primary = code & 0xFF
    if primary in (5, 6):  # SQLITE_BUSY, SQLITE_LOCKED
        return IndexError_(BUSY_MESSAGE)
    if primary == 13:  # SQLITE_FULL
        return IndexError_(
            f"no space left on the disk for the index {path} (what was indexed before is kept): "
            "free some space and scan again"
        )
    if primary in (11, 26):  # SQLITE_CORRUPT, SQLITE_NOTADB
        return damaged(path, str(exc))
    if primary in (8, 14, 3, 10):  # SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR
        if path.exists() and not os.access(path, os.W_OK):
            why = "the file is read-only"
        elif not os.access(path.parent, os.W_OK):
            why = "its folder is read-only"
        else:
            why = str(exc)
        return IndexError_(f"the index {path} cannot be written ({why}): give --db a writable place")
    return exc


def _translated(method: Callable[..., Any]) -> Any:
    """`method` with a failure of the file (full, read-only, damaged, busy) raised as IndexError_."""

    def call(self: sqlite3.Cursor, *args: Any) -> Any:
        try:
            return method(self, *args)
        except sqlite3.Error as exc:
            raise failure(exc, self.connection.index_path) from None  # type: ignore[attr-defined]

    return call


class _Cursor(sqlite3.Cursor):
    """Failures of the file come out as IndexError_ from any statement or fetch."""

    execute = _translated(sqlite3.Cursor.execute)
    executemany = _translated(sqlite3.Cursor.executemany)
    fetchone = _translated(sqlite3.Cursor.fetchone)
    fetchall = _translated(sqlite3.Cursor.fetchall)
    fetchmany = _translated(sqlite3.Cursor.fetchmany)
    __next__ = _translated(sqlite3.Cursor.__next__)


class IndexConnection(sqlite3.Connection):
    """A connection whose statements run through _Cursor (sqlite-utils' included)."""

    index_path: Path

    def cursor(self, factory=_Cursor):
        return super().cursor(factory)

    def execute(self, *args):
        return self.cursor().execute(*args)

    def executemany(self, *args):
        return self.cursor().executemany(*args)

    def executescript(self, script):
        try:
            return super().executescript(script)
        except sqlite3.Error as exc:
            raise failure(exc, self.index_path) from None

    def transaction(self) -> Transaction:
        """A write transaction (BEGIN IMMEDIATE: a second writer waits, then fails with 'busy')."""
        return Transaction(self)


def connect(path: Path) -> IndexConnection:
    """A connection to the index file at `path` (its folder made when missing), in autocommit mode: writes go
    through transaction()."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False, factory=IndexConnection
        )
    except (OSError, sqlite3.Error) as exc:
        raise failure(exc, path) from None
    conn.index_path = path
    return conn


def scan_lock_path(index_path: Path) -> Path:
    """The file a scan of the index at `index_path` locks (ScanLock)."""
    return index_path.with_name(index_path.name + ".scan-lock")


def scan_running(index_path: Path) -> bool:
    """Whether a scan (of any process, this one's included) holds the index's ScanLock now."""
    try:
        import fcntl
    except ImportError:  # not on POSIX: no lock to look at
        return False
    try:
        fh = open(scan_lock_path(index_path))  # noqa: SIM115 (closed below: closing releases a lock taken here)
    except OSError:  # none made yet, or not ours to read: no scan holds it
        return False
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        fh.close()
    return False


class ScanLock:
    """Held while a scan writes the index: a second scan fails at once with a 'busy' IndexError_. An OS lock on
    a file next to the index (scan_lock_path), released by the OS even when the scanning process is killed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fh: IO[str] | None = None

    def __enter__(self) -> ScanLock:
        try:
            import fcntl
        except ImportError:  # not on POSIX: SQLite's own locking still keeps the index sound
            return self
        try:
            open_lock = open(self.path, "a")
        except OSError as exc:
            raise failure(exc, self.path) from None
        self.fh = fh = open_lock
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.close()
            self.fh = None
            raise IndexError_(BUSY_MESSAGE) from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fh is not None:
            self.fh.close()  # closing releases the lock


class Transaction:
    """A write transaction on the connection, or the one it is already in (then committed by its owner)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.outer = False

    def __enter__(self) -> sqlite3.Connection:
        self.outer = not self.conn.in_transaction
        if self.outer:
            self.conn.execute("BEGIN IMMEDIATE")  # 'busy' comes out as IndexError_(BUSY_MESSAGE)
        return self.conn

    def __exit__(self, exc_type: type[BaseException] | None, exc: object, tb: object) -> None:
        if not self.outer:
            return
        if exc_type is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:  # a failed COMMIT or a full disk may have ended it already
            self.conn.execute("ROLLBACK")


@contextmanager
def made_after(conn: sqlite3.Connection, take_off: Callable[[], None], make: Callable[[], None]) -> Iterator[None]:
    """For a bulk write within: `take_off` (what the writes would keep up one row at a time: an index, triggers)
    in a transaction of its own, then `make` it in one once the block ends, failing too. When `make` fails then
    as well (a full disk, a closed index), the block's error is the one raised, and the next writable open
    makes what is missing."""
    with Transaction(conn):
        take_off()
    try:
        yield
    except BaseException:
        try:
            with Transaction(conn):
                make()
        except Exception:  # noqa: BLE001 (the error the writes met is the one to tell)
            pass
        raise
    with Transaction(conn):
        make()
