"""core.cleanup on a real folder and index: keep rules, plans that never empty a group, verified trash."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from simdesk.core.cleanup.plan import execute, keep_by_rule, plan_cleanup
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.groups import grouper_for
from simdesk.core.records import ScanOptions

POEM = "床前明月光，疑是地上霜。举头望明月，低头思故乡。" * 8
OTHER = "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。" * 8


@pytest.fixture
def folder(tmp_path) -> Path:
    root = tmp_path / "docs"
    (root / "copies").mkdir(parents=True)
    (root / "a.txt").write_text(POEM, encoding="utf-8")
    (root / "copies" / "a-copy.txt").write_text(POEM, encoding="utf-8")
    (root / "copies" / "a-copy-2.txt").write_text(POEM, encoding="gb18030")
    (root / "b.txt").write_text(OTHER, encoding="utf-8")
    (root / "b-again.txt").write_text(OTHER, encoding="utf-8")
    os.utime(root / "copies" / "a-copy.txt", ns=(1_000_000_000, 1_000_000_000))
    return root


def groups_of(root: Path, tmp_path: Path):
    with Index(tmp_path / "index.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        grouping = grouper_for(index).at(3)
        return list(grouping)


def test_keep_rules(folder, tmp_path):
    groups = groups_of(folder, tmp_path)
    poem = next(g for g in groups if len(g.members) == 3)
    assert keep_by_rule(poem, "oldest").path == "copies/a-copy.txt"
    assert keep_by_rule(poem, "shortest_path").path == "a.txt"
    assert keep_by_rule(poem, "largest").path == max(poem.members, key=lambda m: m.size).path
    with pytest.raises(ValueError):
        keep_by_rule(poem, "prettiest")


def test_trash_removes_exactly_the_unkept_and_logs(folder, tmp_path, trash_home):
    groups = groups_of(folder, tmp_path)
    plan = plan_cleanup(groups, keep={"a.txt"}, queued={"b.txt", "b-again.txt"})
    assert sorted(r.path for r in plan.removals) == ["copies/a-copy-2.txt", "copies/a-copy.txt"]
    assert [r.group_id for r in plan.refusals] == [next(g.id for g in groups if len(g.members) == 2)]
    log = tmp_path / "actions.jsonl"
    report = execute(plan, folder, "trash", log_path=log)
    assert sorted(report.done) == ["copies/a-copy-2.txt", "copies/a-copy.txt"]
    assert not (folder / "copies" / "a-copy.txt").exists() and (folder / "a.txt").exists()
    assert (folder / "b.txt").exists() and (folder / "b-again.txt").exists()
    trashed = sorted(p.name for p in (trash_home / ".local/share/Trash/files").iterdir())
    assert trashed == ["a-copy-2.txt", "a-copy.txt"]
    entries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert sorted(e["path"] for e in entries if e["outcome"] == "done") == sorted(report.done)
    assert "2 files sent to the trash" in report.summary()


def test_changed_file_is_skipped(folder, tmp_path, trash_home):
    groups = groups_of(folder, tmp_path)
    plan = plan_cleanup(groups, keep={"a.txt"})
    (folder / "copies" / "a-copy.txt").write_text(POEM + "改", encoding="utf-8")
    report = execute(plan, folder, "trash")
    assert report.done == ["copies/a-copy-2.txt"]
    assert [p for p, _ in report.skipped] == ["copies/a-copy.txt"]
    assert (folder / "copies" / "a-copy.txt").exists()


def test_group_whose_kept_copy_vanished_is_refused(folder, tmp_path, trash_home):
    groups = groups_of(folder, tmp_path)
    plan = plan_cleanup(groups, keep={"a.txt"})
    (folder / "a.txt").unlink()
    report = execute(plan, folder, "trash")
    assert report.done == [] and len(report.refused_groups) == 1
    assert (folder / "copies" / "a-copy.txt").exists()


def test_failed_trash_is_not_counted(folder, tmp_path):
    groups = groups_of(folder, tmp_path)
    plan = plan_cleanup(groups, keep={"a.txt"})

    def broken_trash(path: Path) -> None:
        raise OSError("the trash is full")

    report = execute(plan, folder, "trash", trash=broken_trash)
    assert report.done == [] and len(report.failed) == 2


def test_move_keeps_relative_paths(folder, tmp_path):
    groups = groups_of(folder, tmp_path)
    plan = plan_cleanup(groups, keep={"b.txt"})
    dest = tmp_path / "moved"
    (dest).mkdir()
    (dest / "b-again.txt").write_text("already here", encoding="utf-8")
    report = execute(plan, folder, "move", dest=dest)
    assert report.done == ["b-again.txt"]
    assert (dest / "b-again (1).txt").read_text(encoding="utf-8") == OTHER
    assert (dest / "b-again.txt").read_text(encoding="utf-8") == "already here"


# -- the keep chain: criteria in order, each breaking the ties of the one before ---------------------------
def _brute_force_keep(members, criteria):
    """The copy a chain keeps, by narrowing: the members best by the first criterion, among them the best by
    the next, and so on; the first left in the group's order."""
    left = list(members)
    for c in criteria:
        if c.startswith("in:"):
            inside = [m for m in left if m.path.startswith(c[3:] + "/")]
            left = inside or left
        else:
            value = {
                "oldest": lambda m: m.mtime_ns,
                "newest": lambda m: -m.mtime_ns,
                "largest": lambda m: -m.size,
                "shortest_path": lambda m: (len(m.path), m.path.count("/"), m.path),
            }[c]
            best = min(value(m) for m in left)
            left = [m for m in left if value(m) == best]
    return left[0]


def test_the_keep_chain_agrees_with_narrowing_by_each_criterion_in_turn():
    import random

    from simdesk.core import Group, KeepChain, Member

    rng = random.Random(14)
    folders = ["news", "news/2024", "archive", ""]
    names = ["a.txt", "bb.txt", "a-copy.txt", "稿件.txt"]
    singles = ["oldest", "newest", "largest", "shortest_path", "in:news", "in:archive", "in:news/2024"]
    for _trial in range(400):
        members = tuple(
            Member(
                k,
                "/".join(p for p in (rng.choice(folders), f"{k}{rng.choice(names)}") if p),
                0,
                rng.choice([10, 20, 20, 30]),
                "utf-8",
                rng.choice([1, 2, 2, 3]) * 10**9,
                "h",
            )
            for k in range(rng.randint(1, 6))
        )
        criteria = rng.sample(singles, rng.randint(1, 4))
        chain = KeepChain.parse(",".join(criteria))
        assert chain.choose(members) == _brute_force_keep(members, criteria), (criteria, members)
        assert keep_by_rule(Group(1, False, members), chain) == chain.choose(members)


def test_a_keep_chain_is_written_and_read_as_one_text():
    from simdesk.core import KeepChain

    chain = KeepChain.parse(" in:news/ , oldest,shortest-path")
    assert chain.criteria == ("in:news", "oldest", "shortest_path") and str(chain) == "in:news,oldest,shortest_path"
    assert KeepChain.parse(str(chain)) == chain
    for bad, said in (
        ("oldest,biggest", "unknown keep criterion 'biggest'"),
        ("in:", "names no folder"),
        ("", "unknown keep criterion ''"),
    ):
        with pytest.raises(ValueError, match=said):
            KeepChain.parse(bad)
