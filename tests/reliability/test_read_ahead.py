"""Reading a list of files with the next ones opened ahead (documents.ReadAhead) gives what reading them one
by one gives, in the same order, for every kind of bad file; each file is opened once; a reader stopped
partway (a cancel, an error) leaves no file open and no thread behind."""

from __future__ import annotations

import os
import pickle
import threading
from pathlib import Path

import pytest

import simdesk.core.reading.documents as documents
from simdesk.core.matching.reread import profiles_of
from simdesk.core.reading.documents import DecodeError, ReadAhead, read_text_file
from simdesk.core.reading.texts import Texts
from tests.reliability.conftest import run_unprivileged
from tests.reliability.corpus import ARTICLE, POEM

MAX_BYTES = 4096
NAMES = [
    "a.txt",
    "gone.txt",  # listed, then deleted before it is read
    "b.txt",
    "link.txt",  # a symbolic link to a.txt
    "big.txt",  # over the size cap
    "secret.txt",  # unreadable for an unprivileged user
    "pipe.txt",  # a named pipe
    "page.html",
    "c.txt",
]
# what reading each bad file one by one raises (the read-ahead must say the same)
EXPECTED = {
    "gone.txt": "FileNotFoundError",
    "big.txt": "grew past the size cap",
    "secret.txt": "PermissionError",
    "pipe.txt": "not a regular file",
}


def bad_folder(root: Path) -> list[str]:
    """The files of NAMES under `root`, as the paths a reader is given, in that order."""
    root.mkdir()
    root.chmod(0o755)
    (root / "a.txt").write_text(ARTICLE, encoding="utf-8")
    (root / "b.txt").write_text(POEM * 2, encoding="gb18030")
    (root / "c.txt").write_text(POEM + ARTICLE, encoding="utf-8")
    (root / "page.html").write_text(f"<html><title>标题</title><body><p>{POEM}</p></body></html>", encoding="utf-8")
    (root / "big.txt").write_text(ARTICLE * (MAX_BYTES // len(ARTICLE.encode()) + 2), encoding="utf-8")
    (root / "secret.txt").write_text(POEM, encoding="utf-8")
    (root / "link.txt").symlink_to(root / "a.txt")
    os.mkfifo(root / "pipe.txt")
    for name in NAMES:
        path = root / name
        if path.is_file() and not path.is_symlink():
            path.chmod(0o644)
    (root / "secret.txt").chmod(0o000)
    return [str(root / name) for name in NAMES]


def outcome(read) -> list:
    """What `read()` gives as comparable data: the file's text and how it was decoded, or the error's type and words."""
    try:
        tf = read()
    except (OSError, DecodeError) as exc:
        return ["error", type(exc).__name__, str(exc)]
    return ["text", tf.text, tf.encoding, tf.content_hash, tf.size, tf.mtime_ns, tf.markup]


def read_both(paths: list[str], follow_links: bool, depth: int) -> dict:
    """Each file read one by one, and read with a ReadAhead of `depth` files, and the files opened each way."""
    opened: list[str] = []
    real_open = documents._open_regular

    def spy_open(path, *args):
        opened.append(str(path))
        return real_open(path, *args)

    documents._open_regular = spy_open  # in the forked child only: the one place a file is opened to read
    one_by_one = [outcome(lambda p=p: read_text_file(p, MAX_BYTES, follow_links)) for p in paths]
    opened_one_by_one, opened[:] = opened[:], []
    with ReadAhead(paths, follow_links, depth) as ahead:
        with_ahead = [outcome(lambda p=p: read_text_file(p, MAX_BYTES, follow_links, ahead)) for p in paths]
    return {"one_by_one": one_by_one, "ahead": with_ahead, "opened": [opened_one_by_one, opened]}


@pytest.mark.parametrize("follow_links", [False, True])
@pytest.mark.parametrize("depth", [1, 3, 16])
def test_read_ahead_reads_what_one_by_one_reads(shared_tmp, follow_links, depth):
    paths = bad_folder(shared_tmp / "docs")
    for p in paths:  # the codecs and markup readers loaded: after dropping root nothing can be imported
        outcome(lambda p=p: read_text_file(p, MAX_BYTES, follow_links))
    got = run_unprivileged(lambda: read_both(paths, follow_links, depth))
    assert got["ahead"] == got["one_by_one"]
    by_name = dict(zip(NAMES, got["ahead"]))
    for name, words in EXPECTED.items():
        assert by_name[name][0] == "error" and words in " ".join(by_name[name][1:]), name
    assert [by_name[n][0] for n in ("a.txt", "b.txt", "c.txt", "page.html")] == ["text"] * 4
    assert by_name["page.html"][1].strip() == POEM  # the page's visible text, as read one by one
    if follow_links:
        assert by_name["link.txt"][1:] == by_name["a.txt"][1:]
    else:  # the scan's way: a link is never opened through
        assert by_name["link.txt"][:2] == ["error", "OSError"] and "symbolic links" in by_name["link.txt"][2]
    opened_one_by_one, opened_ahead = got["opened"]
    assert sorted(opened_ahead) == sorted(opened_one_by_one) == sorted(paths)  # each file opened once


def test_verification_reads_ahead_what_it_reads_one_by_one(tmp_path):
    paths = bad_folder(tmp_path / "docs")
    (tmp_path / "docs" / "secret.txt").unlink()  # as root, permission bits do not count: vanished instead
    texts = Texts(tmp_path / "docs", MAX_BYTES)
    rels = [Path(p).name for p in paths]
    boilerplate = frozenset()
    together = profiles_of(texts, rels, boilerplate)
    alone = [profiles_of(texts, [rel], boilerplate)[0] for rel in rels]
    assert pickle.dumps(together) == pickle.dumps(alone)
    assert [short is None for _, _, short in together] == [
        n in {"gone.txt", "secret.txt", "big.txt", "pipe.txt"} for n in NAMES
    ]


def open_descriptors() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


class Cancelled(Exception):
    pass


def test_a_reader_stopped_partway_leaves_nothing_open(tmp_path):
    paths = bad_folder(tmp_path / "docs")
    threads, before = threading.active_count(), open_descriptors()
    read = []
    with pytest.raises(Cancelled), ReadAhead(paths, follow_links=False, depth=4) as ahead:
        for p in paths:
            if len(read) == 2:  # a cancel mid-list: the files opened ahead are never read
                raise Cancelled
            read.append(outcome(lambda p=p: read_text_file(p, MAX_BYTES, False, ahead)))
    assert open_descriptors() == before and threading.active_count() == threads
    # a reader that skips files, then is closed: the skipped files and those opened ahead are closed too
    ahead = ReadAhead(paths, follow_links=True, depth=8)
    assert outcome(lambda: read_text_file(paths[-3], MAX_BYTES, True, ahead))[0] == "error"  # the pipe
    assert open_descriptors() != before  # the files after it, opened ahead
    ahead.close()
    assert open_descriptors() == before and threading.active_count() == threads
    # closed, it opens what it is asked for, as reading one by one does
    assert outcome(lambda: read_text_file(paths[0], MAX_BYTES, True, ahead)) == outcome(
        lambda: read_text_file(paths[0], MAX_BYTES, True)
    )
    assert open_descriptors() == before
