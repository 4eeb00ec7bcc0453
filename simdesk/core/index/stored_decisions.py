"""The editor's decisions as the index stores them: keep marks and the trash queue (exclusive), what each keep
mark was made on, 'not duplicates' pairs; read by path from an index of any layout, damaged or not, and
carried into a new one."""

from __future__ import annotations

import sqlite3

from simdesk.core.index.connection import IndexConnection

DECISION_QUERIES = {  # each kind of decision by path, read on its own (a layout or a damage may lack one)
    "keep marks": "SELECT d.path FROM keep_marks m JOIN documents d ON d.id = m.doc_id",
    "queued copies": "SELECT d.path FROM trash_queue m JOIN documents d ON d.id = m.doc_id",
    "'not duplicates' pairs": "SELECT da.path, db.path FROM ignored_pairs p JOIN documents da ON da.id = p.a "
    "JOIN documents db ON db.id = p.b",
    "what keep marks were made on": "SELECT dk.path, dm.path, r.content_hash FROM reviewed r JOIN documents dk "
    "ON dk.id = r.keep_id JOIN documents dm ON dm.id = r.member_id",
}


def decisions_by_path(
    conn: sqlite3.Connection,
) -> tuple[list[str], list[str], list[tuple[str, str]], list[tuple[str, str, str]], list[str]]:
    """(keep marks, queued copies, 'not duplicates' pairs, what each keep mark was made on, the kinds that
    could not be read) of an index of any simdesk layout, damaged or not, by path."""
    found: dict[str, list] = {}
    unreadable = []
    for kind, sql in DECISION_QUERIES.items():
        try:
            found[kind] = [tuple(r) for r in conn.execute(sql).fetchall() if all(isinstance(v, str) for v in r)]
        except sqlite3.Error:
            found[kind] = []
            unreadable.append(kind)
    keep = [r[0] for r in found["keep marks"]]
    queued = [r[0] for r in found["queued copies"] if r[0] not in set(keep)]
    return keep, queued, found["'not duplicates' pairs"], found["what keep marks were made on"], unreadable


def restore_decisions(
    conn: IndexConnection,
    keep: list[str],
    queued: list[str],
    ignored: list[tuple[str, str]],
    seen: list[tuple[str, str, str]],
) -> int:
    """Decisions on documents not read yet: each gets a stale row (size -1) that the next scan fills in
    by path, keeping its id (or deletes, with the decisions, when the file is gone)."""
    paths = sorted({*keep, *queued, *(p for pair in ignored for p in pair), *(p for k, m, _ in seen for p in (k, m))})
    conn.executemany(
        "INSERT INTO documents(path, size, mtime_ns, content_hash, encoding, chars, "
        "fingerprint) VALUES (?, -1, 0, x'', '', 0, 0)",
        ((p,) for p in paths),
    )
    id_of = dict(conn.execute("SELECT path, id FROM documents"))
    conn.executemany("INSERT OR IGNORE INTO keep_marks(doc_id) VALUES (?)", ((id_of[p],) for p in keep))
    conn.executemany(
        "INSERT OR IGNORE INTO trash_queue(doc_id) VALUES (?)", ((id_of[p],) for p in queued if p not in set(keep))
    )
    conn.executemany(
        "INSERT OR IGNORE INTO ignored_pairs(a, b) VALUES (?, ?)",
        (sorted((id_of[a], id_of[b])) for a, b in ignored if a != b),
    )
    conn.executemany(
        "INSERT OR IGNORE INTO reviewed(keep_id, member_id, content_hash) VALUES (?, ?, ?)",
        ((id_of[k], id_of[m], h) for k, m, h in seen),
    )
    return sum(
        conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("keep_marks", "trash_queue", "ignored_pairs")
    )


class StoredDecisions:
    """The decisions of one open index (each write its own transaction)."""

    def __init__(self, conn: IndexConnection) -> None:
        self.conn = conn

    # keep_marks and trash_queue hold exclusive decisions: marking a document in one unmarks it in the other
    def _marked(self, table: str) -> set[str]:
        rows = self.conn.execute(f"SELECT d.path FROM {table} m JOIN documents d ON d.id = m.doc_id")
        return {r[0] for r in rows}

    def _set_mark(self, table: str, other: str, path: str, on: bool) -> None:
        doc_id = "(SELECT id FROM documents WHERE path = ?)"
        with self.conn.transaction():
            if on:
                self.conn.execute(
                    f"INSERT OR IGNORE INTO {table}(doc_id) SELECT id FROM documents WHERE path = ?", (path,)
                )
                self.conn.execute(f"DELETE FROM {other} WHERE doc_id = {doc_id}", (path,))
            else:
                self.conn.execute(f"DELETE FROM {table} WHERE doc_id = {doc_id}", (path,))

    def keep_marks(self) -> set[str]:
        return self._marked("keep_marks")

    def set_keep(self, path: str, keep: bool) -> None:
        """Mark a document as the copy to keep (which takes it out of the trash queue), or unmark it."""
        self._set_mark("keep_marks", "trash_queue", path, keep)

    def reviewed(self) -> dict[str, dict[str, str]]:
        """For each copy marked to keep: the members of its group as the editor saw them when marking it
        (path -> content hash). A keep mark decides only for those (review.Decisions)."""
        out: dict[str, dict[str, str]] = {}
        rows = self.conn.execute(
            "SELECT dk.path, dm.path, r.content_hash FROM reviewed r "
            "JOIN documents dk ON dk.id = r.keep_id JOIN documents dm ON dm.id = r.member_id"
        )
        for keep, member, digest in rows:
            out.setdefault(keep, {})[member] = digest
        return out

    def set_reviewed(self, keep: str, members: dict[str, str]) -> None:
        """Replace what the editor saw when marking `keep` (members: path -> content hash; empty: nothing)."""
        with self.conn.transaction():
            self.conn.execute("DELETE FROM reviewed WHERE keep_id = (SELECT id FROM documents WHERE path = ?)", (keep,))
            self.conn.executemany(
                "INSERT OR REPLACE INTO reviewed(keep_id, member_id, content_hash) "
                "SELECT k.id, m.id, ? FROM documents k, documents m WHERE k.path = ? AND m.path = ?",
                [(digest, keep, member) for member, digest in members.items()],
            )

    def queued_for_trash(self) -> set[str]:
        """Documents the editor queued for the trash (a decision kept across restarts, acted on only by an
        explicit clean-up)."""
        return self._marked("trash_queue")

    def set_queued_for_trash(self, path: str, queued: bool) -> None:
        """Queue a document for the trash (which unmarks it as the copy to keep), or take it off the queue."""
        self._set_mark("trash_queue", "keep_marks", path, queued)

    def ignored_pairs(self) -> set[tuple[str, str]]:
        rows = self.conn.execute(
            "SELECT da.path, db.path FROM ignored_pairs p "
            "JOIN documents da ON da.id = p.a JOIN documents db ON db.id = p.b"
        )
        return {(a, b) if a <= b else (b, a) for a, b in rows}

    def ignore_pair(self, path_a: str, path_b: str) -> None:
        """Record that two documents are not duplicates: they never group together again."""
        ids = [self.conn.execute("SELECT id FROM documents WHERE path = ?", (p,)).fetchone() for p in (path_a, path_b)]
        if None in ids:
            raise KeyError("both documents must be in the index")
        a, b = sorted((ids[0][0], ids[1][0]))
        if a == b:
            return
        with self.conn.transaction():
            self.conn.execute("INSERT OR IGNORE INTO ignored_pairs(a, b) VALUES (?, ?)", (a, b))

    def restore(
        self, keep: list[str], queued: list[str], ignored: list[tuple[str, str]], seen: list[tuple[str, str, str]]
    ) -> int:
        """Decisions by path carried into this (new) index, as a rebuild carries them (rescue.py)."""
        with self.conn.transaction():
            return restore_decisions(self.conn, keep, queued, ignored, seen)
