"""The texts the scan pass keeps for verification (matching/scratch_texts.py): a text loaded from its record
gives the profile, headline and short flag its file read again gives, bit for bit, whatever boilerplate it
holds; a whole review with the store stores what one without it stores; a file changed since the scan is read
again; the folder goes at the end, on a cancel, on an error and after a killed scan, and is never made inside
the scanned folder."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from simdesk.core.index.scan import ScannedText, StoredAt, scan
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import analyse, collection_boilerplate, stored_short_texts
from simdesk.core.matching.reread import profiles_of
from simdesk.core.matching.scratch_texts import (
    PREFIX,
    ScratchKeeper,
    ScratchTexts,
    StoredTexts,
    process_tag,
    stored_or_read,
)
from simdesk.core.reading.boilerplate import frequent_parts
from simdesk.core.reading.texts import Texts
from simdesk.core.records import Progress, ScanOptions
from simdesk.core.review.review import ReviewSettings, open_review
from simdesk.core.workers import CancelToken


def _loaded_and_read(root: Path, tmp_path: Path, jobs: int) -> tuple[list, list, frozenset[int], int]:
    """stored_or_read of every text of `root` scanned with the store (its records written by `jobs` workers),
    profiles_of of every text read again, the collection's boilerplate and how many texts had a record."""
    with Index(tmp_path / f"index-{jobs}.sqlite") as index, ScratchTexts(root, index, tmp_path) as scratch:
        scan(root, index, ScanOptions(jobs=jobs), keep=scratch.keeper(jobs))
        assert scratch.folder is not None and os.listdir(scratch.folder)
        snap = index.snapshot()
        rows = scratch.stored_rows(snap)
        assert rows is not None
        boilerplate = collection_boilerplate(index)
        everything = np.arange(len(snap.paths))
        stored = int((rows.refs[:, 0] >= 0).sum())
        loaded = stored_or_read(Texts(root), snap.paths, rows.of(everything), boilerplate)
        read = profiles_of(Texts(root), snap.paths, boilerplate)
    return loaded, read, boilerplate, stored


def test_a_loaded_text_verifies_as_its_file_read_again(tmp_path, small_corpus):
    """Every text of the generator's small collection (repost notices, attributions, templates, copies) scanned
    in this process and with two workers, each kept: its profile, packed headline and short flag loaded from
    its record pickle as those of its file read again, for the texts holding boilerplate lines (some then
    scored without them) and the others alike."""
    for jobs in (1, 2):
        loaded, read, boilerplate, stored = _loaded_and_read(small_corpus, tmp_path, jobs)
        assert stored == len(read) >= 300 and boilerplate
        assert [pickle.dumps(x) for x in loaded] == [pickle.dumps(x) for x in read]
    texts = Texts(small_corpus)
    with Index(tmp_path / "index-1.sqlite") as index:
        paths = index.snapshot().paths
    stripped = sum(frequent_parts(texts.read(p).text, boilerplate).stripped != texts.read(p).text for p in paths)
    assert 20 < stripped < len(paths)  # texts with boilerplate lines dropped, and texts without


def test_a_review_with_the_store_stores_what_one_without_it_stores(tmp_path, small_corpus):
    """open_review (the store) and a scan and analysis without it: the same scores and shares, short flags and
    groups' headlines; the store is gone afterwards."""
    settings = ReviewSettings(scan=ScanOptions(jobs=2))
    with Index(tmp_path / "a.sqlite") as index:
        review = open_review(small_corpus, index, settings)
        scores, short = _table(index), _short(index)
        assert index.stored_texts().shape == (0, 4)
    with Index(tmp_path / "b.sqlite") as index:
        scan(small_corpus, index, settings.scan)
        grouper = analyse(small_corpus, index, verify=settings.verify_settings())
        assert _table(index) == scores and len(scores) > 100
        assert np.array_equal(_short(index), short) and (short >= 0).sum() > 100
    assert review.grouper.read_headlines == grouper.read_headlines and len(grouper.read_headlines) > 100
    assert not _own_scratch()


def _table(index: Index) -> list[tuple]:
    """The index's kept scores by the paths of their pairs (NaN shares as None)."""
    snap = index.snapshot()
    path = dict(zip(snap.ids.tolist(), snap.paths))
    rows = []
    for (a, b), r in index.scores().items():
        shares = (r.a_in_b, r.b_in_a) if path[a] < path[b] else (r.b_in_a, r.a_in_b)
        rows.append((*sorted((path[a], path[b])), *(None if x != x else x for x in (r.score, *shares))))
    return sorted(rows)


def _short(index: Index) -> np.ndarray:
    """The short flags verification stored, by path."""
    return stored_short_texts(index, index.snapshot(), collection_boilerplate(index))


def test_a_file_changed_since_the_scan_is_read_again(tmp_path):
    """A file rewritten after the scan pass (another size or time) is read again: the new text's profile. One
    rewritten with the same size and modification time (set back) keeps its record: the text as scanned, the
    rule the index's own change test follows."""
    root = tmp_path / "root"
    root.mkdir()
    for k in range(3):
        (root / f"{k}.txt").write_text(f"第{k}篇。" + "天地玄黄宇宙洪荒日月盈昃辰宿列张" * (k + 2), "utf-8")
    with Index(tmp_path / "x.sqlite") as index, ScratchTexts(root, index, tmp_path) as scratch:
        scan(root, index, ScanOptions(jobs=1), keep=scratch.keeper(1))
        snap = index.snapshot()
        rows = scratch.stored_rows(snap)
        assert rows is not None
        scanned = profiles_of(Texts(root), snap.paths, frozenset())
        (root / "0.txt").write_text("另一篇文章，长度也不一样。", "utf-8")
        same = root / "1.txt"
        st = same.stat()
        same.write_text(same.read_text("utf-8").replace("第1篇", "第9篇", 1), "utf-8")  # as many bytes
        os.utime(same, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert same.stat().st_size == st.st_size
        got = stored_or_read(Texts(root), snap.paths, rows.of(np.arange(3)), frozenset())
        now = profiles_of(Texts(root), snap.paths, frozenset())
    assert pickle.dumps(got[0]) == pickle.dumps(now[0]) != pickle.dumps(scanned[0])
    assert pickle.dumps(got[1]) == pickle.dumps(scanned[1]) != pickle.dumps(now[1])
    assert pickle.dumps(got[2]) == pickle.dumps(scanned[2]) == pickle.dumps(now[2])


def test_a_record_gone_damaged_or_another_texts_is_not_used(tmp_path, small_corpus):
    """Where a record lies pointing at another text's record, into the middle of one, or at a file removed: each
    text is read from its file, with the results of profiles_of."""
    with Index(tmp_path / "x.sqlite") as index, ScratchTexts(small_corpus, index, tmp_path) as scratch:
        scan(small_corpus, index, ScanOptions(jobs=1), keep=scratch.keeper(1))
        snap = index.snapshot()
        rows = scratch.stored_rows(snap)
        assert rows is not None and scratch.folder is not None
        paths, where = snap.paths[:3], rows.refs[:3].copy()
        where[0] = rows.refs[1]  # the second text's record
        where[1, 1:] += (1, -1)  # its own, one byte in
        where[2, 0] = 1  # a file no process wrote
        got = stored_or_read(Texts(small_corpus), paths, StoredTexts(scratch.folder, where), frozenset())
        assert [pickle.dumps(x) for x in got] == [
            pickle.dumps(x) for x in profiles_of(Texts(small_corpus), paths, frozenset())
        ]


def test_a_chunks_records_are_written_when_it_ends_where_the_keeper_said(tmp_path):
    """The records of a chunk's texts are written together when the chunk ends (flush), each where the keeper
    said it would lie; the next chunk's follow them in the same file; a text over the cap is not kept."""
    keep = ScratchKeeper(str(tmp_path), cap=1 << 20)
    texts = [
        ScannedText(f"{k}.txt", 10 + k, 1000 + k, "天地玄黄" * (k + 1), "天地玄黄" * (k + 1), "", "天地" * k)
        for k in range(5)
    ]
    first = [keep(t) for t in texts[:3]]
    records = Path(tmp_path, f"{os.getpid()}.records")
    assert records.stat().st_size == 0  # nothing written before the chunk ends
    keep.flush()
    second = [keep(t) for t in texts[3:]]
    keep.flush()
    data = records.read_bytes()
    for t, at in zip(texts, first + second):
        assert at is not None and at[0] == os.getpid()
        path, size, mtime_ns, heading, text, folded = pickle.loads(data[at[1] : at[1] + at[2]])
        assert (path, size, mtime_ns, heading, text, folded) == (t.path, t.size, t.mtime_ns, "", t.text, t.folded)
    assert sum(at[2] for at in first + second if at is not None) == len(data)
    full = ScratchKeeper(str(tmp_path), cap=len(data))
    assert full(texts[0]) is None  # the file holds its cap already
    full.flush()
    assert records.read_bytes() == data


def _own_scratch() -> list[str]:
    """This process's scratch folders in the system's temporary folder."""
    return [n for n in os.listdir(tempfile.gettempdir()) if n.startswith(f"{PREFIX}{process_tag(os.getpid())}-")]


def test_the_store_goes_at_the_end_on_a_cancel_and_on_an_error(tmp_path, small_corpus):
    """The folder exists while the scan and its analysis run and is removed when the review ends, is cancelled
    while verifying, or fails (a progress callback raising), with where its records lay forgotten."""
    seen: list[list[str]] = []
    cancel = CancelToken()

    def watch(p: Progress) -> None:
        if p.phase == "verifying":
            seen.append(_own_scratch())
            cancel.cancel()

    def fail(p: Progress) -> None:
        if p.phase == "verifying":
            raise RuntimeError("a failing caller")

    settings = ReviewSettings(scan=ScanOptions(jobs=2))
    with Index(tmp_path / "a.sqlite") as index:
        open_review(small_corpus, index, settings, on_progress=watch, cancel=cancel)
        assert cancel.cancelled and seen and len(seen[0]) == 1 and not _own_scratch()
        assert index.stored_texts().shape == (0, 4)
    with Index(tmp_path / "b.sqlite") as index, pytest.raises(RuntimeError, match="a failing caller"):
        open_review(small_corpus, index, settings, on_progress=fail)
    assert not _own_scratch()


def test_a_stale_store_of_a_process_gone_is_removed(tmp_path):
    """A folder left by a scanning process that no longer runs is removed by the next store made beside it, also
    when a later process runs under its number (another start time); one of a process that runs stays, and so
    does one named by its number alone."""
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = f"{PREFIX}{int(gone.stdout)}-abc"
    parent = process_tag(os.getppid())
    assert "." in parent  # Linux: the start time is known
    alive = f"{PREFIX}{parent}-def"
    number_only = f"{PREFIX}{os.getppid()}-ghi"
    reused = f"{PREFIX}{os.getppid()}.{int(parent.split('.')[1]) + 1}-jkl"
    for name in (dead, alive, number_only, reused):
        (tmp_path / name).mkdir()
        (tmp_path / name / "1.records").write_bytes(b"x")
    root = tmp_path / "root"
    root.mkdir()
    with Index(tmp_path / "x.sqlite") as index, ScratchTexts(root, index, tmp_path) as scratch:
        assert scratch.folder is not None
        kept = [alive, number_only, Path(scratch.folder).name, "root", "x.sqlite"]
        assert sorted(os.listdir(tmp_path)) == sorted(kept)
        assert Path(scratch.folder).name.startswith(f"{PREFIX}{process_tag(os.getpid())}-")
    assert (tmp_path / alive).exists() and not (tmp_path / dead).exists() and not (tmp_path / reused).exists()


def test_the_store_is_never_made_inside_the_scanned_folder(tmp_path):
    """A temporary folder inside the scanned one is not used: the store is made beside the index instead, and
    not at all when the index lies inside the scanned folder too (its texts are then read again)."""
    root, elsewhere = tmp_path / "root", tmp_path / "index"
    (root / "tmp").mkdir(parents=True)
    elsewhere.mkdir()
    with Index(elsewhere / "x.sqlite") as index:
        with ScratchTexts(root, index, root / "tmp") as scratch:
            assert scratch.folder is not None and Path(scratch.folder).parent == elsewhere.resolve()
    with Index(root / "x.sqlite") as index, ScratchTexts(root, index, root / "tmp") as scratch:
        assert scratch.folder is None and scratch.keeper(0) is None and scratch.stored_rows(index.snapshot()) is None
    assert os.listdir(root / "tmp") == []


@dataclass(frozen=True, slots=True)
class _KilledKeeper(ScratchKeeper):
    """A keeper that ends its worker process at the text `last`, as a kill would."""

    last: str = ""

    def __call__(self, text: ScannedText) -> StoredAt | None:
        if text.path == self.last:
            os._exit(9)
        return ScratchKeeper.__call__(self, text)


def test_a_worker_killed_while_it_keeps_texts_fails_the_scan_as_without_a_store(tmp_path, small_corpus):
    """A scan worker ending while it reads and keeps texts breaks the pool as it does without a store: the scan
    raises BrokenProcessPool; the store is removed with its block."""
    with Index(tmp_path / "x.sqlite") as index:
        with pytest.raises(BrokenProcessPool), ScratchTexts(small_corpus, index, tmp_path) as scratch:
            keep = scratch.keeper(2)
            assert keep is not None
            last = sorted(p.relative_to(small_corpus).as_posix() for p in small_corpus.rglob("*.txt"))[150]
            scan(small_corpus, index, ScanOptions(jobs=2), keep=_KilledKeeper(keep.folder, keep.cap, last))
    assert not [n for n in os.listdir(tmp_path) if n.startswith(PREFIX)]


def test_where_texts_lay_is_forgotten_with_the_transaction_that_kept_it(tmp_path):
    """A transaction rolled back (a full disk while the scan writes) takes the temporary table it made with it:
    the index then holds no stored texts, and forgetting them (the store's end) is no error that would hide
    the one the scan failed with."""
    with Index(tmp_path / "i.sqlite") as index:
        with pytest.raises(OSError), index.transaction():
            index.keep_stored_texts([("a.txt", 1, 0, 10)])
            raise OSError("no space left on device")
        assert index.stored_texts().shape == (0, 4)
        index.drop_stored_texts()
        with index.transaction():
            index.keep_stored_texts([("a.txt", 1, 0, 10)])  # made again; no document of that path: no row
        assert index.stored_texts().shape == (0, 4)
        index.drop_stored_texts()


def test_the_store_leaving_on_an_error_lets_that_error_through(tmp_path):
    """ScratchTexts left on an error whose clean-up fails too: the caller sees the first error."""
    root = tmp_path / "root"
    root.mkdir()
    with Index(tmp_path / "i.sqlite") as index:
        scratch = ScratchTexts(root, index, tmp_path)
        index.close()  # the clean-up's DELETE now fails
        with pytest.raises(RuntimeError, match="the scan's own"), scratch:
            raise RuntimeError("the scan's own")
        assert scratch.folder is None
