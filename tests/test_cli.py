"""The `simdesk` command, driven like sqlite-utils' tests drive theirs (click's CliRunner), on real folders."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from simdesk.cli import main
from simdesk.core.records import ScanOptions

ARTICLE = (
    "近日，多地出台政策支持新能源汽车消费，业内人士认为这将进一步推动产业发展。"
    "专家表示，充电基础设施建设仍需加快，电池回收体系也有待完善。"
)


def make_folder(tmp_path):
    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text(ARTICLE, encoding="utf-8")
    (root / "sub" / "a-copy.txt").write_bytes(ARTICLE.replace("，", ",").encode("gb18030"))
    (root / "same.txt").write_text(ARTICLE, encoding="utf-8")
    (root / "other.txt").write_text("床前明月光，疑是地上霜。举头望明月，低头思故乡。", encoding="utf-8")
    (root / "broken.txt").write_bytes(b"\x00\xff\x00\xfe" * 100)
    return root


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_scan_json_with_a_threshold_has_the_documented_shape(tmp_path):
    root = make_folder(tmp_path)
    result = run("scan", root, "--threshold", "3", "--format", "json", "--db", tmp_path / "i.sqlite", "--jobs", "1")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == ["root", "threshold", "documents", "groups", "problems"]
    assert data["root"] == str(root) and data["threshold"] == 3 and data["documents"] == 4
    [group] = data["groups"]
    assert group["id"] == 1 and group["identical"] is False
    assert sorted(m["path"] for m in group["members"]) == ["a.txt", "same.txt", "sub/a-copy.txt"]
    assert {m["path"]: m["encoding"] for m in group["members"]}["sub/a-copy.txt"] == "gb18030"
    assert all(
        list(m) == ["path", "distance", "size", "encoding", "title", "date", "dated_by", "source"]
        for m in group["members"]
    )
    titles = {m["path"]: m["title"] for m in group["members"]}
    assert titles["a.txt"] == titles["same.txt"] == ARTICLE and titles["sub/a-copy.txt"] == ARTICLE.replace("，", ",")
    assert all(m["dated_by"] == "modified" and m["source"] == "" for m in group["members"])
    assert group["members"][0]["distance"] == 0
    assert data["problems"] == [{"path": "broken.txt", "error": data["problems"][0]["error"]}]
    assert "binary" in data["problems"][0]["error"] or "not text" in data["problems"][0]["error"]


def test_default_scan_is_verified_and_shows_similarity(tmp_path):
    root = make_folder(tmp_path)
    (root / "reposted.txt").write_text("【转载】本文转载自新浪网\n\n" + ARTICLE[:40], encoding="utf-8")
    data = json.loads(run("scan", root, "--format", "json", "--db", tmp_path / "i.sqlite").stdout)
    assert data["threshold"] == 12 and data["min_similarity"] == 0.7
    [group] = data["groups"]
    members = {m["path"]: m for m in group["members"]}
    assert set(members) == {"a.txt", "same.txt", "sub/a-copy.txt"}
    assert all(m["similarity"] == 1.0 for m in members.values())
    strict = json.loads(
        run("scan", root, "--similarity", "0.99", "--format", "json", "--db", tmp_path / "i.sqlite").stdout
    )
    assert strict["min_similarity"] == 0.99 and len(strict["groups"]) == 1


def test_scan_csv_and_text(tmp_path):
    root = make_folder(tmp_path)
    out = run("scan", root, "--format", "csv", "--db", tmp_path / "i.sqlite", "-j", "1").stdout
    rows = list(csv.DictReader(io.StringIO(out.split("\n\n")[0])))
    assert sorted(r["path"] for r in rows) == ["a.txt", "same.txt", "sub/a-copy.txt"]
    text = run("scan", root, "--db", tmp_path / "i.sqlite").stdout
    assert "1 groups" in text and "sub/a-copy.txt" in text and "broken.txt" in text


def test_default_index_lives_in_the_data_folder_not_the_scanned_one(tmp_path, private_home):
    root = make_folder(tmp_path)
    before = sorted(p.name for p in root.rglob("*"))
    assert run("scan", root, "-j", "1").exit_code == 0
    assert sorted(p.name for p in root.rglob("*")) == before
    assert list((private_home / ".local" / "share" / "simdesk" / "indexes").glob("*.sqlite"))


def test_query_by_text_and_by_file(tmp_path):
    root = make_folder(tmp_path)
    db = tmp_path / "i.sqlite"
    result = run("query", root, "--text", ARTICLE, "--format", "json", "--db", db)
    assert result.exit_code == 0
    paths = [m["path"] for m in json.loads(result.stdout)["matches"]]
    assert sorted(paths) == ["a.txt", "same.txt", "sub/a-copy.txt"]
    by_file = json.loads(run("query", root, root / "other.txt", "--format", "json", "--db", db).stdout)
    assert [m["path"] for m in by_file["matches"]] == ["other.txt"]


def test_bad_usage_exits_2_with_one_line(tmp_path):
    for args in (
        ["scan", tmp_path / "missing"],
        ["scan", tmp_path / "x", "--threshold", "99"],
        ["query", tmp_path],
        ["scan"],
    ):
        proc = subprocess.run([sys.executable, "-m", "simdesk", *map(str, args)], capture_output=True, text=True)
        assert proc.returncode == 2, args
        assert "Traceback" not in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "simdesk", "scan", str(tmp_path / "missing")], capture_output=True, text=True
    )
    assert proc.stderr.strip().count("\n") == 0 and "no such folder" in proc.stderr


def test_a_file_given_as_folder_is_refused(tmp_path):
    f = tmp_path / "file.txt"
    f.write_text("x", encoding="utf-8")
    result = CliRunner().invoke(main, ["scan", str(f)])
    assert result.exit_code == 2 and "not a folder" in result.output


def test_demo_collection_is_written_once_with_planted_duplicates(tmp_path):
    dest = tmp_path / "demo"
    assert run("demo", dest).stdout.strip() == str(dest)
    files = sorted(dest.rglob("*.txt"))
    assert 300 <= len(files) <= 700
    data = json.loads(run("scan", dest, "--format", "json", "--db", tmp_path / "d.sqlite").stdout)
    assert len(data["groups"]) >= 40 and not data["problems"]


# -- clean and undo: the real trash under the temporary home --------------------------------------------------
def trashed(home) -> list[str]:
    files = home / ".local" / "share" / "Trash" / "files"
    return sorted(p.name for p in files.iterdir()) if files.exists() else []


def test_clean_dry_run_touches_nothing(tmp_path, trash_home):
    root = make_folder(tmp_path)
    before = sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))
    result = run("clean", root, "--keep", "shortest-path", "--dry-run", "--format", "json", "-j", "1")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["dry_run"] and data["kept"] == ["a.txt"] and "done" not in data
    assert sorted(r["path"] for r in data["planned"]) == ["same.txt", "sub/a-copy.txt"]
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == before
    assert trashed(trash_home) == []


def test_clean_trashes_the_rest_and_undo_puts_it_back(tmp_path, trash_home):
    root = make_folder(tmp_path)
    os.utime(root / "sub" / "a-copy.txt", ns=(1_000_000_000, 1_000_000_000))
    result = run("clean", root, "--keep", "oldest", "-j", "1")
    assert result.exit_code == 0, result.output
    assert sorted(result.stdout.splitlines()) == ["trashed  a.txt", "trashed  same.txt"]
    assert "2 files sent to the trash" in result.stderr
    assert trashed(trash_home) == ["a.txt", "same.txt"]
    assert (root / "sub" / "a-copy.txt").exists() and (root / "other.txt").exists()
    again = json.loads(run("scan", root, "--format", "json", "-j", "1").stdout)
    assert again["groups"] == []  # one copy left: no group
    log = trash_home / ".local" / "share" / "simdesk" / "actions.jsonl"
    log_before = log.read_bytes()
    preview = run("undo", "--dry-run", "--format", "json")  # lists what undo would put back, moves nothing
    assert preview.exit_code == 0, preview.output
    listed = json.loads(preview.stdout)
    assert listed["action"] == "trash" and sorted(Path(p).name for p in listed["would_restore"]) == [
        "a.txt",
        "same.txt",
    ]
    assert "would put back 2 file(s) from the trash" in preview.stderr
    assert trashed(trash_home) == ["a.txt", "same.txt"] and not (root / "a.txt").exists()
    assert log.read_bytes() == log_before  # nothing written either
    undo = run("undo", "--format", "json")
    assert undo.exit_code == 0, undo.output
    after = run("undo", "--dry-run")  # the clean-up is put back: nothing left to undo
    assert after.exit_code == 0 and after.stdout == "" and "nothing to undo" in after.stderr
    assert sorted(Path(p).name for p in json.loads(undo.stdout)["restored"]) == ["a.txt", "same.txt"]
    assert (root / "a.txt").read_text(encoding="utf-8") == ARTICLE and trashed(trash_home) == []


def test_clean_keep_in_a_folder(tmp_path, trash_home):
    root = make_folder(tmp_path)
    data = json.loads(
        run("clean", root, "--keep", "largest", "--keep-in", "sub", "--dry-run", "--format", "json", "-j", "1").stdout
    )
    assert data["kept"] == ["sub/a-copy.txt"]
    assert sorted(r["path"] for r in data["planned"]) == ["a.txt", "same.txt"]
    nowhere = json.loads(
        run("clean", root, "--keep", "largest", "--keep-in", "elsewhere", "--format", "json", "-j", "1").stdout
    )
    assert nowhere["planned"] == [] and nowhere["done"] == []
    assert [r["reason"] for r in nowhere["refused_groups"]] == ["no copy under elsewhere"]
    assert trashed(trash_home) == []


def test_clean_skips_a_file_that_changed_after_the_scan(tmp_path, trash_home):
    from simdesk.core.index.store import Index
    from simdesk.core.review.review import ReviewSettings, open_review

    root = make_folder(tmp_path)
    with Index(tmp_path / "i.sqlite") as index:
        review = open_review(root, index, ReviewSettings(scan=ScanOptions(jobs=1)))
    review.keep_by_rule_everywhere("shortest_path")
    plan = review.plan_cleanup()
    (root / "same.txt").write_text(ARTICLE + "改过了", encoding="utf-8")  # edited after the scan
    report = review.clean_up(plan)
    assert report.done == ["sub/a-copy.txt"] and [p for p, _ in report.skipped] == ["same.txt"]
    assert trashed(trash_home) == ["a-copy.txt"]


def test_undo_with_nothing_to_undo(tmp_path):
    result = run("undo")
    assert result.exit_code == 0 and "nothing to undo" in result.stderr


def test_undo_dry_run_reads_an_untrusted_log_and_acts_on_nothing(tmp_path, trash_home):
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_bytes(b'{"action": "trash", "outcome": "done"}\nnot json at all\n\xff\xfe\n')
    result = run("undo", "--dry-run", "--log", str(tampered), "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"run": None, "action": None, "would_restore": []}
    assert "nothing to undo" in result.stderr
    missing = run("undo", "--dry-run", "--log", str(tmp_path / "no-such.jsonl"))
    assert missing.exit_code != 0 and "no such action log" in missing.stderr


def test_clean_keeps_by_a_chain_of_criteria(tmp_path, trash_home):
    root = make_folder(tmp_path)
    # a.txt and same.txt are the same size and older than the GB18030 copy; the chain prefers sub/ first
    for name, t in (("a.txt", 2), ("same.txt", 1), ("sub/a-copy.txt", 3)):
        os.utime(root / name, ns=(t * 10**9, t * 10**9))
    data = json.loads(run("clean", root, "--keep", "in:sub,oldest", "--dry-run", "--format", "json", "-j", "1").stdout)
    assert data["rule"] == "in:sub,oldest" and data["kept"] == ["sub/a-copy.txt"]
    data = json.loads(
        run("clean", root, "--keep", "in:elsewhere,oldest", "--dry-run", "--format", "json", "-j", "1").stdout
    )
    assert data["kept"] == ["same.txt"]  # nothing under elsewhere/: the next criterion decides
    bad = run("clean", root, "--keep", "oldest,biggest")
    assert bad.exit_code == 2 and "unknown keep criterion 'biggest'" in bad.output


def test_clean_removes_only_what_the_copy_kept_holds_and_says_why(tmp_path, trash_home):
    """Every keep rule on a folder of a story (whole, its first two thirds, a typo'd copy) and a sentence with
    the article quoting it: only the typo'd copy or the whole story ever goes, each planned removal and each
    copy left alone says why with its figure, and `simdesk clean` never trashes the article or the cut copy's
    source."""
    from tests.folders import story_folder

    root = story_folder(tmp_path / "docs", quoted=True)
    for rule in ("oldest", "newest", "largest", "shortest-path"):
        result = run("clean", root, "--keep", rule, "--dry-run", "--format", "json", "-j", "1")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        planned = {r["path"] for r in data["planned"]}
        assert planned <= {"typo.txt", "full.txt"} and len(planned) <= 1, (rule, planned)
        left = {u["path"]: u for u in data["undecided"]}
        (story,) = set(data["kept"]) & {"full.txt", "cut.txt", "typo.txt"}
        if story == "cut.txt":  # the cut copy kept: the whole text and its typo'd copy stay
            assert planned == set() and left["full.txt"]["why"] == left["typo.txt"]["why"] == "below"
        else:
            assert left["cut.txt"]["why"] == "part", (rule, left)
        assert all(u["reason"] and (u["held"] is None or 0 <= u["held"] <= 1) for u in left.values())
    text = run("clean", root, "--keep", "largest", "--dry-run", "-j", "1").stdout
    assert "would trash  typo.txt: " in text and "of its text is in full.txt (kept)" in text, text
    assert "left alone  cut.txt (group" in text and "a passage of that text, not a copy" in text, text
    done = run("clean", root, "--keep", "largest", "-j", "1")
    assert done.exit_code == 0, done.output
    assert trashed(trash_home) == ["typo.txt"]
    assert all((root / name).exists() for name in ("full.txt", "cut.txt", "quote.txt", "article.txt"))
