"""`--db` never harms a file simdesk did not create: a file is used as an index only when it carries simdesk's
application id and schema table (or is a simdesk index from before the application id); anything else is
refused before a byte of it changes, and the message never advises deleting it. Every failure of the index
file (damaged, read-only, not a file, a full disk) is one line on stderr and exit code 2, never a traceback."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from simdesk.cli import main as cli_main
from simdesk.core import ReviewSettings, open_review
from simdesk.core.index.connection import IndexError_
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.records import ScanOptions
from tests.folders import small_folder
from tests.reliability.conftest import run_unprivileged, scan_args, simdesk
from tests.reliability.corpus import ARTICLE, POEM


def folder(tmp: Path, files: int = 3) -> Path:
    root = tmp / "docs"
    root.mkdir()
    for k in range(files):
        (root / f"{k:04d}.txt").write_text(
            (ARTICLE if k % 2 else POEM) + f"\n第{k}篇，编号{k * 7919}。" * 3, encoding="utf-8"
        )
    return root


def fingerprint_of(path: Path) -> tuple[str, list[str]]:
    """The file's bytes (hashed) and the names beside it: whatever simdesk may have added or changed."""
    return hashlib.sha256(path.read_bytes()).hexdigest(), sorted(os.listdir(path.parent))


def one_line_failure(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert proc.stderr.startswith("simdesk: error: ")
    return proc.stderr.strip()


def test_another_programs_database_with_a_meta_and_documents_table_is_left_byte_for_byte(tmp_path):
    root = folder(tmp_path)
    other = tmp_path / "app" / "library.db"
    other.parent.mkdir()
    conn = sqlite3.connect(other)  # what simdesk's tables were called before the application id
    conn.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
        "INSERT INTO meta VALUES ('schema_version', '3');"
        "CREATE TABLE documents (id INTEGER PRIMARY KEY, path TEXT, title TEXT);"
        "INSERT INTO documents VALUES (1, 'thesis.tex', 'My thesis');"
    )
    conn.close()
    before = fingerprint_of(other)
    message = one_line_failure(simdesk("scan", root, "--db", other))
    assert message == (
        f"simdesk: error: {other} is not a simdesk index (an SQLite database of another program); "
        "simdesk does not write to it: give --db another file"
    )
    assert fingerprint_of(other) == before  # not dropped, not switched to WAL, no -wal or -shm beside it


@pytest.mark.parametrize("content", [b"", b"Dear diary,\n" * 300], ids=["empty-sqlite", "text"])
def test_other_files_are_refused_unchanged(tmp_path, content):
    root = folder(tmp_path)
    target = tmp_path / "notes.db"
    if content:
        target.write_bytes(content)
    else:  # an SQLite database with a table in it, however small
        sqlite3.connect(target).executescript("CREATE TABLE t (x); PRAGMA application_id = 42;")
    before = fingerprint_of(target)
    message = one_line_failure(simdesk("scan", root, "--db", target))
    assert "is not a simdesk index" in message and "delete" not in message
    assert fingerprint_of(target) == before


def test_dev_null_is_refused_in_one_line(tmp_path):
    root = folder(tmp_path)
    assert one_line_failure(simdesk("scan", root, "--db", "/dev/null")) == (
        "simdesk: error: /dev/null is not a regular file: give --db the path of an index file"
    )


def test_a_damaged_page_anywhere_in_the_index_is_one_line(tmp_path):
    """Every page of an index overwritten in turn, as a disk fault would: the header page makes the file no
    SQLite database (refused, untouched); any other, read by this scan or not (the segments, the scores),
    is the damaged index's one line, naming the rebuild, found when the index is opened. The command line
    gives that line and exit 2 for the header, the segments' and the scores' pages."""
    root = small_folder(tmp_path)
    clean = tmp_path / "clean.sqlite"
    with Index(clean) as index:
        review = open_review(root, index, ReviewSettings(min_similarity=0, threshold=3))
        review.decisions.set_keep("poem.txt")
        review.decisions.mark_not_duplicates("poem.txt", "snow.txt")
        review.decisions.save()
        review.decisions.close()
        page_size = index.conn.execute("PRAGMA page_size").fetchone()[0]
        pages = index.conn.execute("PRAGMA page_count").fetchone()[0]
        tables = dict(index.conn.execute("SELECT rootpage, name FROM sqlite_master WHERE rootpage > 0"))
    assert {"segments", "scores", "line_hashes"} <= set(tables.values()) and pages > 10
    header = "is not a simdesk index (not an SQLite database); simdesk does not write to it: give --db another file"

    def damaged_copy(page: int) -> Path:
        db = tmp_path / f"page-{page}.sqlite"
        shutil.copy(clean, db)
        with open(db, "r+b") as fh:
            fh.seek((page - 1) * page_size)
            fh.write(b"\xff" * page_size)
        return db

    for page in range(1, pages + 1):
        db = damaged_copy(page)
        with pytest.raises(IndexError_) as refused:
            Index(db).close()
        message = str(refused.value)
        if page == 1:
            assert message.endswith(header)
        else:
            assert message.startswith(f"the index {db} is damaged ("), (page, tables.get(page))
            assert "open the folder in the window to rebuild it" in message
    by_name = {name: page for page, name in tables.items()}
    for page in (1, by_name["segments"], by_name["scores"]):
        db = damaged_copy(page)
        message = one_line_failure(simdesk(*scan_args(root, db)))
        if page == 1:
            assert message.endswith(header)
        else:
            assert message.startswith(f"simdesk: error: the index {db} is damaged ("), (page, tables.get(page))


def scanned_in_locked(tmp: Path) -> tuple[Path, Path]:
    """A small folder scanned into tmp/locked/i.sqlite: (the folder, the index file)."""
    root = folder(tmp)
    (tmp / "locked").mkdir()
    db = tmp / "locked" / "i.sqlite"
    with Index(db) as index:
        scan(root, index, ScanOptions(jobs=1))
    return root, db


def test_a_read_only_index_and_a_read_only_folder_are_one_line(shared_tmp):
    root, db = scanned_in_locked(shared_tmp)
    locked = db.parent
    db.chmod(0o444)
    locked.chmod(0o555)
    for path in (root, *root.iterdir()):
        path.chmod(0o755 if path.is_dir() else 0o644)
    fresh = locked / "new.sqlite"

    def scan_as_nobody():
        out = {}
        for name, target in (("file", db), ("folder", fresh)):
            result = CliRunner().invoke(cli_main, ["scan", str(root), "--db", str(target), "-j", "1"])
            out[name] = (result.exit_code, result.output, repr(result.exception))
        return out

    answer = run_unprivileged(scan_as_nobody)
    code, output, _ = answer["file"]
    assert code == 2 and output.strip().splitlines()[-1] == (
        f"simdesk: error: the index {db} cannot be written (the file is read-only): give --db a writable place"
    )
    code, output, _ = answer["folder"]
    assert code == 2 and output.strip() == (
        f"simdesk: error: the index {fresh} cannot be written (its folder is read-only): give --db a writable place"
    )
    assert not fresh.exists()


def test_a_read_only_index_without_the_scores_index_on_b_is_read_as_it_is(shared_tmp):
    """An index file made before the index on scores(b) opens for reading when it cannot be written (its
    documents and scores read right without it); the first open that can write adds it."""
    _, db = scanned_in_locked(shared_tmp)
    conn = sqlite3.connect(db)
    documents = conn.execute("SELECT count(*) FROM documents").fetchone()[0]
    conn.execute("DROP INDEX scores_b")
    conn.close()
    db.chmod(0o444)
    db.parent.chmod(0o777)  # the file read-only, its folder open to SQLite's shared-memory file

    def open_as_nobody():
        with Index(db, create=False) as index:
            has = index.conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'scores_b'").fetchone()[0]
            return [index.count(), has]

    assert run_unprivileged(open_as_nobody) == [documents, 0]
    db.chmod(0o644)
    with Index(db, create=False) as index:
        assert index.conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'scores_b'").fetchone()[0] == 1


@pytest.fixture
def small_disk(tmp_path):
    """A 160 KB tmpfs: room for the index's first pages, not for 300 documents."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=160k", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.decode().strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_is_one_line_and_keeps_what_was_indexed(tmp_path, small_disk):
    root = folder(tmp_path, files=300)
    db = small_disk / "i.sqlite"
    message = one_line_failure(simdesk("scan", root, "--db", db, "-j", "1"))
    assert message.startswith(f"simdesk: error: no space left on the disk for the index {db}")
    with Index(db) as index:  # still sound (opening it needs no new page)
        assert index.integrity_ok()
