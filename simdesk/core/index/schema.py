"""Opening an index file as this version's layout: a new file gets it whole, its history recorded; an earlier
layout still read in place is migrated (migrations.py, sqlite-utils Migrations); a layout missing only what an
additive change adds gets it; any other layout, older or newer, is rebuilt empty with the editor's decisions
carried over by path (its documents are read again from the folder). The stored schema version and other
settings live in the meta table."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from simdesk.core.index.connection import IndexConnection, IndexError_, scan_running
from simdesk.core.index.layout import (
    APPLICATION_ID,
    META,
    SCHEMA_VERSION,
    ensure_tables,
    missing_indexes,
    missing_parts,
    segments_off,
    segments_pending,
    segments_remade,
    stale_triggers,
)
from simdesk.core.index.migrations import IN_PLACE, migrate, pending, record_all
from simdesk.core.index.sqlite_library import sqlite_utils
from simdesk.core.index.stored_decisions import decisions_by_path, restore_decisions


@dataclass(frozen=True)
class Rebuild:
    """An index of another layout rebuilt: why (for the editor), and how many decisions carried over."""

    reason: str
    migrated_decisions: int


def create(conn: IndexConnection, db: sqlite_utils.Database) -> None:
    """This version's layout in a new (empty) file."""
    with conn.transaction():
        _write_layout(conn, db)


def _write_layout(conn: IndexConnection, db: sqlite_utils.Database) -> None:
    """This version's layout, its history recorded, in a file that holds no table."""
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    ensure_tables(conn, db)
    set_meta(db, "schema_version", str(SCHEMA_VERSION))
    record_all(db)


def upgrade(conn: IndexConnection, db: sqlite_utils.Database, kind: str, path: Path) -> Rebuild | None:
    """Bring an existing index file (recognise.py's 'ours' or 'legacy') to this version's layout; returns the
    Rebuild when its layout could not be read in place."""
    version = _stored_version(conn, kind, path)
    if kind == "ours" and version in IN_PLACE:
        # nothing is written to a file that holds this layout whole (a reader never waits on a scan here), nor to
        # a read-only file that lacks only an index (layout.missing_indexes)
        # a segment table a bulk write left to make again (a kill), unless a scan writing now makes it at its end
        marked = segments_pending(conn)
        remake = marked and not scan_running(path)
        wanting = pending(db, version) or missing_parts(conn, db, marked) or stale_triggers(conn) or remake
        if wanting or (missing_indexes(conn) and os.access(path, os.W_OK)):
            with conn.transaction():
                ran = migrate(db, version)
                ensure_tables(conn, db)  # what a step dropped, or what an additive change adds: nothing to say
                set_meta(db, "schema_version", str(SCHEMA_VERSION))
                if remake:  # a bulk write was cut short (a kill): its documents are found again
                    segments_remade(conn)
                elif marked:  # a scan writes in bulk now: its segment triggers stay off
                    segments_off(conn)
            if ran:
                conn.execute("VACUUM")  # give back the pages of what the migration dropped
        return None
    # Another layout is never misread: the documents are read again from the folder, and the editor's
    # decisions (by path) carried over to the new layout.
    with conn.transaction():
        decisions = decisions_by_path(conn)[:4]
        for name in _user_tables(conn):
            conn.execute(f'DROP TABLE "{name}"')
        _write_layout(conn, db)
        migrated = restore_decisions(conn, *decisions)
    carried = (
        f"{migrated} keep marks, queued copies and 'not duplicates' decisions were migrated"
        if migrated
        else "there were no keep marks or 'not duplicates' decisions to migrate"
    )
    reason = (
        f"the index {path} was written by another version of simdesk (schema "
        f"{version}, this one reads {SCHEMA_VERSION}): its documents are read again from "
        f"the folder; {carried}"
    )
    return Rebuild(reason, migrated)


def _stored_version(conn: IndexConnection, kind: str, path: Path) -> str | None:
    table = "meta" if kind == "legacy" else META
    try:
        row = conn.execute(f"SELECT value FROM {table} WHERE key = 'schema_version'").fetchone()
    except sqlite3.OperationalError:
        row = None
    if row is None and kind == "ours":
        raise IndexError_(
            f"{path} is marked as a simdesk index but has no simdesk tables; simdesk does "
            "not write to it: give --db another file"
        )
    return row[0] if row else None


def _user_tables(conn: IndexConnection) -> list[str]:
    return [
        r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    ]


def meta(conn: IndexConnection, key: str) -> str | None:
    row = conn.execute(f"SELECT value FROM {META} WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def set_meta(db: sqlite_utils.Database, key: str, value: str) -> None:
    db.table(META).upsert({"key": key, "value": value}, pk="key")
