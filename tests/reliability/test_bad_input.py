"""Bad input. Each case becomes a clear entry in `problems` (the CLI's JSON, the index's
problems table, the window's Problems tab) and the scan goes on; nothing crashes or hangs, memory stays bounded.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import simdesk.core.index.scan as scan_mod
from simdesk.cli import main as cli_main
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.reading.documents import walk
from simdesk.core.records import ScanOptions
from tests.reliability.conftest import REPO, run_unprivileged, scan_args, simdesk_argv
from tests.reliability.corpus import ARTICLE, HUGE_BYTES, POEM, build_bad_folder

ONE = ScanOptions(jobs=1)
# case -> words its problem must contain
EXPECTED = {
    "empty": "empty file",
    "blank": "empty file",
    "png renamed .txt": "binary",
    "zip renamed .txt": "binary",
    "pdf renamed .txt": "binary",
    "NUL bytes": "binary",
    "undecodable bytes": "not text",
    "corrupt UTF-8": "not text",
    "mixed encodings": "different encodings",
    "500 MB file": "over the size cap of 20.0 MB",
    "file name not UTF-8": "not valid UTF-8",
    "nesting past PATH_MAX": "too long",
    "symlink loop (folder)": "leads back to a folder already scanned",
    "symlink loop (file)": "Too many levels of symbolic links",
    "dangling symlink": "No such file",
}
INDEXED = ("10 MB single line", "deep nesting")
PEAK_RSS_LIMIT_MB = 768  # measured 436 MB on 2026-11-23 (the 10 MB line segmented in the scan process, --jobs 1)


def problem_for(problems: list[dict], rel: str) -> str:
    found = [p["error"] for p in problems if p["path"] == rel or (rel.endswith("/") and p["path"].startswith(rel))]
    assert found, f"no problem reported for {rel}"
    return found[0]


# The scan runs under a small parent of its own, so its peak RSS counts only the scan (the test process's
# RUSAGE_CHILDREN also takes in any child of an earlier test that happens to be reaped meanwhile), and with
# --jobs 1, so the 10 MB line is segmented in the process measured (pool workers are the fork server's children).
_PEAK_PARENT = (
    "import json, resource, subprocess, sys; p = subprocess.run(sys.argv[2:], capture_output=True, text=True); "
    "open(sys.argv[1], 'w').write(json.dumps([p.returncode, p.stdout, p.stderr, "
    "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))"
)


def scan_json_with_peak(folder: Path, db: Path, out: Path) -> tuple[dict, subprocess.CompletedProcess, float]:
    """`simdesk scan FOLDER --threshold 3 --format json --db DB --jobs 1`: (parsed JSON, process, peak RSS in MB)."""
    argv = simdesk_argv(*scan_args(folder, db, "--format", "json", "--jobs", 1))
    subprocess.run([sys.executable, "-c", _PEAK_PARENT, str(out), *argv], check=True, timeout=300, cwd=REPO)
    returncode, stdout, stderr, peak_kb = json.loads(out.read_text())
    assert returncode == 0, stderr
    return json.loads(stdout), subprocess.CompletedProcess(argv, returncode, stdout, stderr), peak_kb / 1024


def test_every_bad_input_is_a_clear_problem_and_the_scan_goes_on(tmp_path):
    root = tmp_path / "bad"
    cases = build_bad_folder(root)
    started = time.perf_counter()
    data, proc, peak_mb = scan_json_with_peak(root, tmp_path / "i.sqlite", tmp_path / "peak")  # the real command
    seconds = time.perf_counter() - started
    for case, words in EXPECTED.items():
        assert words in problem_for(data["problems"], cases[case]), case
    documents = {m["path"] for g in data["groups"] for m in g["members"]}
    assert {"good.txt", "good-copy.txt"} <= documents  # the good documents still group
    with Index(tmp_path / "i.sqlite") as index:
        indexed = {d.path for d in index.documents()}
        stored = [{"path": p.path, "error": p.error} for p in index.problems()]
        assert index.integrity_ok()
    assert stored == data["problems"]  # the index's problems table says the same as the CLI
    for case in INDEXED:
        assert cases[case] in indexed, case
    assert "loop/note.txt" in indexed and data["documents"] == len(indexed)
    assert not set(indexed) & {p["path"] for p in data["problems"]}
    assert "problems" in proc.stderr.splitlines()[-1]
    # bounded: the 10 MB line is read and segmented in seconds; the 500 MB file is never read
    assert seconds < 90, f"scan took {seconds:.0f} s"
    assert peak_mb < PEAK_RSS_LIMIT_MB, f"peak RSS {peak_mb:.0f} MB"
    print(f"bad-input scan: {len(EXPECTED) + len(INDEXED)} cases in {seconds:.1f} s, peak RSS {peak_mb:.0f} MB")


def test_the_size_cap_skips_a_huge_file_without_reading_it(tmp_path, monkeypatch):
    root = tmp_path / "r"
    root.mkdir()
    with open(root / "huge.txt", "wb") as fh:
        fh.truncate(HUGE_BYTES)  # sparse
    (root / "ok.txt").write_text(ARTICLE, encoding="utf-8")
    opened: list[str] = []
    import simdesk.core.reading.documents as documents

    real_open = documents._open_regular

    def spy_open(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(documents, "_open_regular", spy_open)  # every opening of a file to read goes through it
    with Index(tmp_path / "i.sqlite") as index:
        result = scan(root, index, ScanOptions(jobs=1, max_bytes=20 * 1024 * 1024))
    assert [p.path for p in result.problems] == ["huge.txt"]
    assert "500.0 MB is over the size cap of 20.0 MB" in result.problems[0].error
    assert not any(o.endswith("huge.txt") for o in opened) and any(o.endswith("ok.txt") for o in opened)


def test_a_ten_megabyte_single_line_is_indexed_in_bounded_time(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    line = (ARTICLE.replace("。", "，") * 70_000).encode("utf-8")[: 10 * 1024 * 1024]
    (root / "line.txt").write_bytes(line.decode("utf-8", "ignore").encode("utf-8"))
    started = time.perf_counter()
    with Index(tmp_path / "i.sqlite") as index:
        result = scan(root, index, ONE)
        assert index.count() == 1 and not result.problems
    assert time.perf_counter() - started < 60


@pytest.mark.parametrize("ascii_only", [False, True])
def test_a_single_line_without_any_break_does_not_hang(tmp_path, ascii_only):
    """No spaces, no punctuation: a 4 MB run of one word class (the segmenter's worst case)."""
    root = tmp_path / "r"
    root.mkdir()
    text = ("abcdefghij" * 400_000) if ascii_only else (POEM.replace("，", "").replace("。", "") * 200_000)[:1_400_000]
    (root / "run.txt").write_text(text, encoding="utf-8")
    started = time.perf_counter()
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ONE)
        assert index.count() == 1
    assert time.perf_counter() - started < 60


def test_unreadable_files_and_folders_are_problems_for_an_unprivileged_user(shared_tmp):
    root = shared_tmp / "docs"
    (root / "locked").mkdir(parents=True)
    (root / "open.txt").write_text(ARTICLE, encoding="utf-8")
    (root / "secret.txt").write_text(POEM * 3, encoding="utf-8")
    (root / "locked" / "inside.txt").write_text(POEM * 2, encoding="utf-8")
    for p in (root, root / "open.txt", root / "locked" / "inside.txt"):
        p.chmod(0o755 if p.is_dir() else 0o644)
    db_dir = shared_tmp / "index"
    db_dir.mkdir(mode=0o777)
    db_dir.chmod(0o777)
    # warm up in this process: after dropping root, nothing can be imported from root's folders
    warm = shared_tmp / "warm"
    warm.mkdir()
    (warm / "w.txt").write_text(ARTICLE, encoding="utf-8")
    (warm / "bin.txt").write_bytes(b"\xff\xfe\xfa" * 50)
    CliRunner().invoke(
        cli_main,
        [str(a) for a in scan_args(warm, shared_tmp / "w.db", "--format", "json", "-j", 1)],
        catch_exceptions=False,
    )
    (root / "secret.txt").chmod(0o000)
    (root / "locked").chmod(0o000)

    def scan_as_nobody():
        result = CliRunner().invoke(
            cli_main,
            [str(a) for a in scan_args(root, db_dir / "i.sqlite", "--format", "json", "-j", 1)],
            catch_exceptions=False,
        )
        return {"code": result.exit_code, "out": result.stdout, "uid": os.getuid()}

    answer = run_unprivileged(scan_as_nobody)
    assert answer["code"] == 0, answer["out"]
    import json

    problems = {p["path"]: p["error"] for p in json.loads(answer["out"])["problems"]}
    assert problems["secret.txt"] == "cannot be read: permission denied"
    assert problems["locked/"].startswith("folder cannot be read: Permission denied")
    with Index(db_dir / "i.sqlite") as index:
        assert [d.path for d in index.documents()] == ["open.txt"]
        assert {p.path for p in index.problems()} == {"secret.txt", "locked/"}


def walk_then(hook):
    """A `walk` that calls hook(rel) after yielding each entry, as if the world changed meanwhile."""

    def wrapped(*args, **kwargs):
        for entry in walk(*args, **kwargs):
            yield entry
            hook(entry.rel)

    return wrapped


def run_cli_scan(root: Path, db: Path) -> dict:
    import json

    result = CliRunner().invoke(
        cli_main, [str(a) for a in scan_args(root, db, "--format", "json", "-j", 1)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_files_deleted_or_rewritten_between_listing_and_reading(tmp_path, monkeypatch):
    root = tmp_path / "r"
    root.mkdir()
    for name in ("a", "b", "c", "d"):
        (root / f"{name}.txt").write_text(ARTICLE + name * 20, encoding="utf-8")

    def after_listing(rel: str) -> None:
        if rel == "d.txt":  # the last one listed: now delete one and rewrite another before they are read
            (root / "b.txt").unlink()
            (root / "c.txt").write_text(POEM * 9, encoding="utf-8")

    monkeypatch.setattr(scan_mod, "walk", walk_then(after_listing))
    data = run_cli_scan(root, tmp_path / "i.sqlite")
    problems = {p["path"]: p["error"] for p in data["problems"]}
    assert problems == {
        "b.txt": "disappeared before it could be read",
        "c.txt": "changed while being scanned (another program may still be writing it); scan again to index it",
    }
    monkeypatch.undo()
    with Index(tmp_path / "i.sqlite") as index:
        assert {d.path for d in index.documents()} == {"a.txt", "d.txt"}
        assert {p.path for p in index.problems()} == set(problems)
        again = scan(root, index, ONE)  # the next scan indexes the rewritten file, as the message says
        assert not again.problems and {d.path for d in index.documents()} == {"a.txt", "c.txt", "d.txt"}


def test_a_file_that_changes_while_it_is_read_is_not_indexed_half_written(tmp_path, monkeypatch):
    root = tmp_path / "r"
    root.mkdir()
    (root / "growing.txt").write_text(ARTICLE, encoding="utf-8")
    import simdesk.core.reading.documents as documents

    real_fstat, calls = os.fstat, []

    def fstat_then_append(fd):  # the second fstat (after the read) sees another program's append
        calls.append(fd)
        if len(calls) == 2:
            with open(root / "growing.txt", "a", encoding="utf-8") as fh:
                fh.write(POEM)
        return real_fstat(fd)

    monkeypatch.setattr(documents.os, "fstat", fstat_then_append)
    with Index(tmp_path / "i.sqlite") as index:
        result = scan(root, index, ONE)
        assert [p.error for p in result.problems] == [documents.CHANGED_WHILE_READ]
        assert index.count() == 0


def test_a_folder_that_disappears_mid_scan(tmp_path, monkeypatch):
    root = tmp_path / "r"
    for sub in ("a", "b", "c"):
        (root / sub).mkdir(parents=True)
        for k in range(3):
            (root / sub / f"{k}.txt").write_text(ARTICLE + f"{sub}{k}" * 9, encoding="utf-8")
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ONE)
        assert index.count() == 9
    for k in range(3):  # c/ changes, so the next scan has to read it
        (root / "c" / f"{k}.txt").write_text(POEM * (k + 2), encoding="utf-8")

    def vanish(rel: str) -> None:
        if rel == "a/0.txt":  # while the walk is in a/, b/ (a network share, say) goes away
            shutil.rmtree(root / "b")
        if rel == "c/2.txt":  # and after the listing, before the reading, so does c/
            shutil.rmtree(root / "c")

    monkeypatch.setattr(scan_mod, "walk", walk_then(vanish))
    data = run_cli_scan(root, tmp_path / "i.sqlite")
    problems = {p["path"]: p["error"] for p in data["problems"]}
    assert problems["b/"] == "folder cannot be opened: disappeared during the scan"
    assert {problems[f"c/{k}.txt"] for k in range(3)} == {"disappeared before it could be read"}
    assert len(problems) == 4
    with Index(tmp_path / "i.sqlite") as index:
        paths = {d.path for d in index.documents()}
    # a/ is intact; b/'s documents are kept (a vanished share may come back); c/'s files were seen gone
    assert paths == {f"{s}/{k}.txt" for s in ("a", "b") for k in range(3)}


def make_flat_folder(root: Path, n: int, text: bool) -> None:
    root.mkdir()
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for k in range(n):
            f = os.open(f"{k:06d}.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
            if text:
                os.write(f, f"第{k}号文件：{POEM[k % 20 :]}{k * 7919 % 100003}".encode())
            os.close(f)
    finally:
        os.close(fd)


def test_a_hundred_thousand_files_in_one_folder_are_listed_and_read(tmp_path):
    """100,000 empty files: the listing and the reading of each (empty: a problem each) at full count,
    without the cost of segmenting 100,000 texts (that is the stress variant)."""
    root = tmp_path / "flat"
    make_flat_folder(root, 100_000, text=False)
    started = time.perf_counter()
    with Index(tmp_path / "i.sqlite") as index:
        result = scan(root, index, ScanOptions(jobs=2))
        assert result.stats.listed == 100_000 and len(result.problems) == 100_000
        assert {p.error for p in result.problems} == {"empty file"}
        assert len(index.problems()) == 100_000 and index.integrity_ok()
    print(f"100,000 empty files scanned in {time.perf_counter() - started:.1f} s")


@pytest.mark.stress
def test_a_hundred_thousand_text_files_in_one_folder(tmp_path):
    root = tmp_path / "flat"
    make_flat_folder(root, 100_000, text=True)
    with Index(tmp_path / "i.sqlite") as index:
        result = scan(root, index, ScanOptions(jobs=0))
        assert result.stats.listed == 100_000 and not result.problems and index.count() == 100_000
        again = scan(root, index, ScanOptions(jobs=0))
        assert again.stats.unchanged == 100_000


def test_the_window_shows_the_same_problems(qtbot, window, tmp_path):
    from tests.gui.window_driver import open_and_wait

    root = tmp_path / "bad"
    cases = build_bad_folder(root, long_line=False)
    open_and_wait(qtbot, window, root)
    shown = {(p.path, p.error) for p in window.problems_model.problems}
    with Index(tmp_path / "check.sqlite") as index:
        expected = {(p.path, p.error) for p in scan(root, index, ONE).problems}
    assert shown == expected and len(shown) >= len(EXPECTED) - 1
    assert cases["500 MB file"] in {p for p, _ in shown}
    assert f"({len(shown)})" in window.tabs.tabText(1)
