"""core.review without a toolkit, on real folders, a real SQLite index and the real trash under a temporary
home: the grouping mode rule, the editor's decisions and their exclusivity, saving them in one session,
the pair to compare, clean-up, undo and export."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest

from simdesk.core import (
    DEFAULT_MIN_SIMILARITY,
    DEFAULT_THRESHOLD,
    CancelToken,
    Decisions,
    Group,
    Index,
    Member,
    ReviewSettings,
    ScanOptions,
    action_log,
    open_review,
    pair_to_compare,
    undo_last,
)
from tests.folders import OTHER, POEM, POEMS, SNOWS, small_folder

PLAIN = ReviewSettings(min_similarity=0, scan=ScanOptions(jobs=1))
VERIFIED = ReviewSettings(scan=ScanOptions(jobs=1))


@pytest.fixture
def folder(tmp_path) -> Path:
    root = small_folder(tmp_path)
    os.utime(root / "copies" / "poem-copy.txt", ns=(1_000_000_000, 1_000_000_000))  # the oldest poem
    return root


def review_of(folder: Path, tmp_path: Path, settings: ReviewSettings = PLAIN, **kw):
    with Index(tmp_path / "index.sqlite") as index:
        return open_review(folder, index, settings, **kw)


def groups(review, threshold=None) -> list[list[str]]:
    return sorted(sorted(m.path for m in g.members) for g in review.grouping(threshold))


# -- settings: one mode rule, defaults defined once ------------------------------------------------------
def test_the_mode_rule_and_its_defaults():
    assert ReviewSettings().verified and ReviewSettings().min_similarity == DEFAULT_MIN_SIMILARITY == 0.7
    assert ReviewSettings().shown_threshold == 12  # every verified candidate
    assert not PLAIN.verified and PLAIN.shown_threshold == DEFAULT_THRESHOLD == 3
    # the command line: a threshold alone, or similarity 0, is plain; a similarity (with or without a
    # threshold) is verified
    assert not ReviewSettings.from_options(threshold=5).verified
    assert ReviewSettings.from_options(threshold=5).shown_threshold == 5
    assert not ReviewSettings.from_options(similarity=0).verified
    assert ReviewSettings.from_options(similarity=0.9).min_similarity == 0.9
    assert ReviewSettings.from_options(threshold=8, similarity=0.8).verified
    assert ReviewSettings.from_options().min_similarity == DEFAULT_MIN_SIMILARITY


def test_workers_and_the_size_cap_reach_verification():
    settings = ReviewSettings(scan=ScanOptions(jobs=3, max_bytes=1234))
    assert (settings.verify_settings().jobs, settings.verify_settings().max_bytes) == (3, 1234)
    assert settings.verify_settings().min_similarity == DEFAULT_MIN_SIMILARITY


# -- open_review: scan, pair, group ----------------------------------------------------------------------
def test_open_review_groups_in_both_modes(folder, tmp_path):
    for settings in (PLAIN, VERIFIED):
        review = review_of(folder, tmp_path, settings)
        assert review.documents == 5 and groups(review) == [POEMS, SNOWS]
        assert review.result is not None and not review.result.stats.cancelled
        assert (review.min_similarity is not None) == settings.verified


def test_an_unchanged_rescan_reuses_the_pairs_shown(folder, tmp_path):
    first = review_of(folder, tmp_path)
    again = review_of(folder, tmp_path, shown=first)
    assert again.unchanged and again.grouper is first.grouper
    (folder / "new.txt").write_text(OTHER + "多一行。\n", encoding="utf-8")
    changed = review_of(folder, tmp_path, shown=again)
    assert not changed.unchanged and changed.documents == 6


def test_a_rescan_cancelled_before_it_changed_a_document_keeps_the_groups_shown(folder, tmp_path):
    shown = review_of(folder, tmp_path, VERIFIED)
    (folder / "new.txt").write_text(OTHER + "多一行。\n", encoding="utf-8")
    cancel = CancelToken()
    cancel.cancel()
    again = review_of(folder, tmp_path, VERIFIED, shown=shown, cancel=cancel)
    assert again.result.stats.cancelled and again.result.stats.new == 0
    assert again.unchanged and again.grouper is shown.grouper


def test_from_the_index_without_scanning(folder, tmp_path):
    review_of(folder, tmp_path)
    (folder / "snow.txt").unlink()
    stale = review_of(folder, tmp_path, rescan=False)
    assert stale.result is None and stale.documents == 5  # what the index holds, not what the folder has


# -- decisions ----------------------------------------------------------------------------------------------
def test_keep_and_queued_are_exclusive(tmp_path):
    d = Decisions(tmp_path / "i.sqlite")
    d.set_keep("a")
    d.set_queued("a")
    assert d.queued == {"a"} and d.keep == set() and d.of("a") == "queued"
    assert d.toggle_keep("a") and d.queued == set() and d.of("a") == "keep"
    assert not d.toggle_keep("a") and d.of("a") is None
    assert d.toggle_queued("b") and not d.toggle_queued("b")
    assert Decisions(tmp_path / "i.sqlite", keep={"x"}, queued={"x", "y"}).queued == {"y"}  # keep wins


def test_space_and_delete_over_several_copies_follow_the_first(tmp_path):
    d = Decisions(tmp_path / "i.sqlite", keep={"b"}, queued={"c"})
    assert d.toggle_keep_all(["a", "b", "c"]) and d.keep == {"a", "b", "c"} and d.queued == set()
    assert not d.toggle_keep_all(["b", "a"]) and d.keep == {"c"}  # the first was kept: none of them now
    assert d.toggle_queued_all(["a", "c"]) and d.queued == {"a", "c"} and d.keep == set()
    assert not d.toggle_queued_all(["c", "x"]) and d.queued == {"a"}
    assert not d.toggle_keep_all([])
    a, b = (Member(k, p, 0, 1, "utf-8", 0, f"h{k}") for k, p in enumerate(("a", "b")))
    assert d.toggle_keep_all(["a"], [Group(1, False, (a, b))])
    assert d.reviewed["a"] == {"a": "h0", "b": "h1"}  # bound to the group as shown


def test_decisions_are_saved_in_one_session_and_read_back(folder, tmp_path):
    review = review_of(folder, tmp_path)
    d = review.decisions
    d.set_keep("poem.txt")
    d.set_queued("copies/snow-copy.txt")
    d.set_keep("copies/snow-copy.txt")  # later change wins: kept, off the queue
    d.set_queued("snow.txt")
    assert d.unsaved == 4
    assert d.save() == 4 and d.unsaved == 0 and d.save() == 0
    d.set_keep("copies/poem-gbk.txt")
    assert d.save() == 1
    d.close()
    with Index(tmp_path / "index.sqlite") as index:
        assert index.keep_marks() == {"poem.txt", "copies/snow-copy.txt", "copies/poem-gbk.txt"}
        assert index.queued_for_trash() == {"snow.txt"}
    again = review_of(folder, tmp_path)
    assert again.decisions.keep == {"poem.txt", "copies/snow-copy.txt", "copies/poem-gbk.txt"}
    assert again.decisions.queued == {"snow.txt"}


def test_a_fresh_review_adopts_the_changes_not_saved_yet(folder, tmp_path):
    shown = review_of(folder, tmp_path)
    shown.decisions.set_keep("poem.txt")
    shown.decisions.save()
    fresh = review_of(folder, tmp_path, shown=shown)  # read while ...
    shown.decisions.set_queued("poem.txt")  # ... the editor changed their mind, not saved yet
    shown.decisions.mark_not_duplicates("snow.txt", "copies/snow-copy.txt")
    fresh.decisions.adopt(shown.decisions)
    assert fresh.decisions.queued == {"poem.txt"} and fresh.decisions.keep == set()
    assert fresh.decisions.save() == 2
    fresh.decisions.close()
    with Index(tmp_path / "index.sqlite") as index:
        assert index.keep_marks() == set() and index.queued_for_trash() == {"poem.txt"}
        assert index.ignored_pairs() == {("copies/snow-copy.txt", "snow.txt")}


def test_a_change_saved_while_a_fresh_review_was_read_is_kept(folder, tmp_path):
    shown = review_of(folder, tmp_path)
    shown.decisions.set_keep("poem.txt")
    fresh = review_of(folder, tmp_path, shown=shown)  # read from the index before ...
    assert shown.decisions.save() == 1  # ... the writer saved the mark
    fresh.decisions.adopt(shown.decisions)
    assert fresh.decisions.keep == {"poem.txt"}
    again = review_of(folder, tmp_path, shown=fresh)  # read after that save: nothing left to replay
    again.decisions.adopt(shown.decisions)
    assert again.decisions.keep == {"poem.txt"} and again.decisions.unsaved == 0


def test_not_duplicates_regroups_at_once_and_lasts(folder, tmp_path):
    review = review_of(folder, tmp_path)
    review.mark_not_duplicates("snow.txt", "copies/snow-copy.txt")
    assert groups(review) == [POEMS]
    review.decisions.save()
    review.decisions.close()
    assert groups(review_of(folder, tmp_path)) == [POEMS]


def test_keep_rules_in_one_group_and_everywhere(folder, tmp_path):
    review = review_of(folder, tmp_path)
    poems = next(g for g in review.grouping() if len(g.members) == 3)
    review.decisions.set_keep("poem.txt")
    assert review.keep_by_rule(poems, "oldest") == "copies/poem-copy.txt"
    assert review.decisions.keep == {"copies/poem-copy.txt"}  # exactly one kept in the group
    assert review.keep_by_rule_everywhere("shortest_path") == []
    assert review.decisions.keep == {"poem.txt", "snow.txt"}
    # keep_in: the copy kept is chosen under that folder; a group with nothing there is left alone
    review.decisions.set_keep("poem.txt", False)
    review.decisions.set_keep("snow.txt", False)
    left = review.keep_by_rule_everywhere("largest", keep_in="copies")
    assert left == [] and review.decisions.keep <= {p for p in POEMS + SNOWS if p.startswith("copies/")}
    (folder / "copies" / "snow-copy.txt").unlink()
    (folder / "elsewhere").mkdir()
    (folder / "elsewhere" / "snow-2.txt").write_text(OTHER, encoding="utf-8")
    moved = review_of(folder, tmp_path)
    snow_group = next(g.id for g in moved.grouping() if any("snow" in m.path for m in g.members))
    assert moved.keep_by_rule_everywhere("oldest", keep_in="copies") == [snow_group]


def test_a_pair_is_compared_as_the_groups_show_it(folder, tmp_path):
    review = review_of(folder, tmp_path, VERIFIED)
    score = review.pair_score("poem.txt", "copies/poem-gbk.txt")
    assert score == 1.0 and review.pair_score("poem.txt", "snow.txt") is None  # not a verified pair
    result = review.compare("poem.txt", "copies/poem-gbk.txt")
    assert all(row.kind == "equal" for row in result.rows)  # the GB18030 copy decoded as the scan does
    plain = review_of(folder, tmp_path / "plain", PLAIN)
    assert plain.pair_score("poem.txt", "copies/poem-gbk.txt") is None  # plain groups are not verified


def test_the_pair_to_compare():
    a, b, c = (Member(k, p, 0, 1, "utf-8", 0, "h") for k, p in enumerate(("a", "b", "c")))
    group = Group(1, True, (a, b, c))
    assert pair_to_compare([c, b], group) == (c, b)  # two selected: those
    assert pair_to_compare([c], group) == (a, c)  # one: with the representative
    assert pair_to_compare([a], group) == (a, b)  # the representative itself: with the next member
    assert pair_to_compare([], group) == (a, b)
    assert pair_to_compare([], Group(2, True, (a,))) is None and pair_to_compare([], None) is None
    d = Member(3, "d", 2, 1, "utf-8", 0, "other text")  # after two identical copies: compared with those
    assert pair_to_compare([], Group(3, False, (a, b, d))) == (a, d) == pair_to_compare([a], Group(3, False, (a, b, d)))


# -- the review's progress: decided groups and undecided copies -------------------------------------------
def test_decided_groups_and_undecided_copies(folder, tmp_path):
    review = review_of(folder, tmp_path)
    grouping = review.grouping()
    poems, snows = (next(g for g in grouping if any(m.path == p for m in g.members)) for p in ("poem.txt", "snow.txt"))
    ids = [g.id for g in grouping]

    def by_brute_force():  # a group is decided when every copy is kept, queued or seen by a keep mark
        d = review.decisions
        return [
            all(
                m.path in d.keep
                or m.path in d.queued
                or any(d.reviewed.get(k.path, {}).get(m.path) == m.content_hash for k in g.members if k.path in d.keep)
                for m in g.members
            )
            for g in grouping
        ]

    assert review.decided().tolist() == by_brute_force() == [False, False]
    review.decisions.set_keep("poem.txt")  # a mark made without the group in view decides for nobody else
    assert review.decided().tolist() == by_brute_force() == [False, False]
    assert review.undecided_copies([poems.id]) == 2
    review.decisions.set_keep("poem.txt", seen=poems)
    assert review.decided().tolist() == by_brute_force() and review.decided()[poems.id - 1]
    assert review.next_undecided(ids, after=None) == snows.id
    review.decisions.set_queued("snow.txt")  # the other snow copy is still undecided
    assert review.undecided_copies([snows.id, poems.id]) == 1 and not review.decided()[snows.id - 1]
    review.decisions.set_queued("copies/snow-copy.txt")
    assert review.decided().tolist() == by_brute_force() == [True, True]
    assert review.next_undecided(ids) is None
    # decisions survive in the index: a review read again counts the same
    review.decisions.save()
    assert review_of(folder, tmp_path, rescan=False).decided().tolist() == [True, True]


# -- clean-up, undo, export -------------------------------------------------------------------------------
def test_plan_keeps_one_copy_and_refuses_an_emptied_group(folder, tmp_path):
    review = review_of(folder, tmp_path)
    poems = next(g for g in review.grouping() if any(m.path == "poem.txt" for m in g.members))
    review.decisions.set_keep("poem.txt", seen=poems)  # the mark decides for the members shown with it
    review.decisions.set_queued("snow.txt")
    review.decisions.set_queued("copies/snow-copy.txt")
    plan = review.plan_cleanup()
    assert sorted(r.path for r in plan.removals) == ["copies/poem-copy.txt", "copies/poem-gbk.txt"]
    assert len(plan.refusals) == 1  # every snow copy queued: the group is left alone


def test_clean_up_to_the_real_trash_then_undo(folder, tmp_path, trash_home):
    review = review_of(folder, tmp_path)
    review.keep_by_rule_everywhere("shortest_path")
    review.decisions.set_queued("copies/snow-copy.txt")  # queued and not kept: goes with the rest
    report = review.clean_up(review.plan_cleanup())
    gone = ["copies/poem-copy.txt", "copies/poem-gbk.txt", "copies/snow-copy.txt"]
    assert sorted(report.done) == gone and not report.skipped and not report.failed
    assert not any((folder / p).exists() for p in gone) and (folder / "poem.txt").exists()
    trashed = trash_home / ".local" / "share" / "Trash" / "files"
    assert sorted(p.name for p in trashed.iterdir()) == ["poem-copy.txt", "poem-gbk.txt", "snow-copy.txt"]
    assert review.decisions.queued == set()  # what left is no longer queued
    assert action_log().exists()
    undone = undo_last()
    assert sorted(undone.restored) == sorted(str((folder / p).absolute()) for p in gone)
    assert (folder / "copies" / "poem-gbk.txt").read_bytes() == POEM.encode("gb18030")


def test_export_carries_the_decisions(folder, tmp_path):
    review = review_of(folder, tmp_path)
    assert "decision" not in review.export("json")  # nothing decided: the scan's shape exactly
    review.decisions.set_keep("poem.txt")
    review.decisions.set_queued("copies/poem-gbk.txt")
    review.mark_not_duplicates("snow.txt", "copies/snow-copy.txt")
    doc = json.loads(review.export("json"))
    members = {m["path"]: m.get("decision") for g in doc["groups"] for m in g["members"]}
    assert members == {"poem.txt": "keep", "copies/poem-gbk.txt": "queued", "copies/poem-copy.txt": None}
    assert doc["not_duplicates"] == [["copies/snow-copy.txt", "snow.txt"]]
    rows = list(csv.DictReader(io.StringIO(review.export("csv"))))
    assert {r["path"]: r["decision"] for r in rows if r["path"]} == {
        "poem.txt": "keep",
        "copies/poem-gbk.txt": "queued",
        "copies/poem-copy.txt": "",
    }
    assert "poem.txt  [keep]" in review.export("text")
    out = review.write_export(tmp_path / "groups.json", "json")
    text = out.read_text(encoding="utf-8")
    assert json.loads(text) == doc
    # written group by group, the text is still json.dumps of the whole document (the shape tools read)
    assert text == json.dumps(doc, ensure_ascii=False, indent=2)


def test_an_export_written_in_blocks_reads_each_groups_headlines(folder, tmp_path, monkeypatch):
    """Groups are built and their headlines read EXPORT_MEMBERS members at a time: with blocks of one
    member, every group still carries its members' titles, in the same order as one block."""
    import simdesk.core.review.review as review_module

    review = review_of(folder, tmp_path)
    whole = review.export("json")
    monkeypatch.setattr(review_module, "EXPORT_MEMBERS", 1)
    fresh = review_of(folder, tmp_path)
    assert fresh.export("json") == whole
    assert fresh.export("csv") == review.export("csv")
    assert all(m["title"] for g in json.loads(whole)["groups"] for m in g["members"])


def test_a_rule_decides_only_the_groups_it_is_given(tmp_path):
    """rule_choices(only=ids): the groups an editor filtered or selected; the others are not decided."""
    from simdesk.core import Index, ReviewSettings, open_review
    from tests.folders import POEMS, SNOWS, small_folder

    root = small_folder(tmp_path)
    with Index(tmp_path / "i.sqlite") as index:
        review = open_review(root, index, ReviewSettings())
        grouping = review.grouping()
        snow = next(g for g in grouping if g.members[0].path in SNOWS)
        chosen, left_alone = review.rule_choices("shortest_path", only=[snow.id])
        assert [g.id for g, _ in chosen] == [snow.id] and left_alone == []
        review.apply_choices(chosen)
        assert review.decisions.keep & set(SNOWS) and not review.decisions.keep & set(POEMS)


def test_undo_puts_the_marks_back_and_saves_them(tmp_path):
    from simdesk.core import Index, ReviewSettings, open_review
    from tests.folders import POEMS, small_folder

    root = small_folder(tmp_path)
    a, b, c = POEMS
    with Index(tmp_path / "i.sqlite") as index:
        decisions = open_review(root, index, ReviewSettings()).decisions
    decisions.set_keep(a)
    decisions.set_queued(b)
    assert decisions.undo() is False  # no action was checkpointed
    decisions.checkpoint()
    decisions.set_keep(b)
    decisions.set_queued(a)
    decisions.checkpoint()
    decisions.set_keep(c)
    assert decisions.undo() and decisions.keep == {b} and decisions.queued == {a}
    assert decisions.undo() and decisions.keep == {a} and decisions.queued == {b}
    decisions.save()
    decisions.close()
    with Index(tmp_path / "i.sqlite") as index:
        assert index.keep_marks() == {a} and index.queued_for_trash() == {b}


def test_can_undo_says_whether_undo_has_an_action_to_take_back(tmp_path):
    """can_undo: a checkpointed action on the marks, or a rule over many groups whose copies are still being
    chosen (ask); undo() calls the last such rule off first, marks untouched, and its answer is then dropped."""
    from simdesk.core import Index, ReviewSettings, open_review
    from tests.folders import POEMS, small_folder

    root = small_folder(tmp_path)
    a, b, _ = POEMS
    with Index(tmp_path / "i.sqlite") as index:
        decisions = open_review(root, index, ReviewSettings()).decisions
    assert not decisions.can_undo
    decisions.set_keep(a)  # a change outside any editor's action: nothing to take back
    assert not decisions.can_undo
    decisions.checkpoint()
    decisions.set_queued(b)
    assert decisions.can_undo
    first, second = decisions.ask(), decisions.ask()
    assert decisions.undo() and decisions.can_undo and decisions.queued == {b}  # the second rule called off
    assert not decisions.answered(second)  # its copies come back: dropped
    assert decisions.answered(first) and not decisions.answered(first)  # it stands, answered once
    assert decisions.undo() and decisions.queued == set() and decisions.keep == {a}
    assert not decisions.can_undo and not decisions.undo()
    decisions.ask()
    assert decisions.can_undo and decisions.undo() and not decisions.can_undo
    decisions.close()


def test_a_copy_leaves_only_when_the_copy_kept_holds_its_text(tmp_path):
    """A collage of two whole poem notes holds each of them (a text found whole in one up to 4 times its size)
    and represents the group; the two notes have nothing in common. Keeping one note removes nothing: it
    holds half of the collage and none of the other note, so both stay, and the plan says why, with the share
    the kept note holds. Keeping the collage removes nothing either: each note is in it whole, but is half of
    it, a passage and not a copy of it. A note the editor queues goes."""
    a = "床前明月光，疑是地上霜。举头望明月，低头思故乡。这首《静夜思》是李白客居扬州时所作，写出了游子思乡的情怀，千百年来传诵不衰。"
    b = "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。孟浩然这首《春晓》写春日清晨的所见所闻，语言平易，意味深长。"
    root = tmp_path / "notes"
    root.mkdir()
    for name, text in {"a.txt": a, "b.txt": b, "both.txt": a + "\n" + b}.items():
        (root / name).write_text(text, encoding="utf-8")
    with Index(tmp_path / "index.sqlite") as index:
        review = open_review(root, index, ReviewSettings(scan=ScanOptions(jobs=1)))
    group = review.grouping().group(0)
    assert [m.path for m in group.members][0] == "both.txt" and len(group.members) == 3
    assert all(m.held == 1.0 and m.holds < 0.6 for m in group.members[1:])  # each note held whole by the collage
    review.decisions.keep_only(group, "a.txt")
    plan = review.plan_cleanup()
    assert plan.removals == ()
    assert set(plan.undecided) == {(group.id, "b.txt"), (group.id, "both.txt")} == set(plan.below_kept)
    fates = {f.path: f for f in review.fates(group)}
    assert fates["a.txt"].fate == "keep"
    assert fates["both.txt"].fate == "stays" and fates["both.txt"].keeper == "a.txt"
    assert 0.3 < fates["both.txt"].held < 0.7  # half of the collage is the kept note
    assert fates["b.txt"].fate == "stays" and fates["b.txt"].held is None  # the notes are no pair at all
    assert sorted(m.path for m in review.undecided(group)) == ["b.txt", "both.txt"] and not review.decided()[0]
    # a rule's choices say which groups they leave with such copies, so a count of groups decided agrees
    # with the review's counter
    assert review.apply_choices(review.rule_choices("largest")[0]) == [group.id] and not review.decided()[0]
    assert review.plan_cleanup().removals == ()
    assert {f.path: f.why for f in review.fates(group)} == {"both.txt": "kept", "a.txt": "part", "b.txt": "part"}
    assert review.apply_choices([(group, "a.txt")]) == [group.id] and not review.decided()[0]
    review.decisions.set_queued("b.txt")  # the editor's own choice: queued, it goes
    assert sorted(r.path for r in review.plan_cleanup().removals) == ["b.txt"]


def test_one_scope_rule_for_rules_and_clean_ups(folder, tmp_path):
    """The groups chosen, else the groups the filters show, else every group; a clean-up planned on a scope
    removes copies of its groups only."""
    from simdesk.core import action_scope

    assert action_scope([3, 1, 3], [1, 2], 4) == action_scope([1, 3], None, 4)
    assert action_scope([3, 1], [2], 4).kind == "selected" and action_scope([3, 1], [2], 4).groups == (1, 3)
    shown = action_scope([], [2, 4, 2], 4)
    assert (shown.kind, shown.groups, shown.count) == ("shown", (2, 4), 2)
    everything = action_scope([], None, 4)
    assert (everything.kind, everything.groups, everything.count) == ("all", None, 4)
    assert action_scope([], [], 4).count == 0  # a filter that shows nothing reaches nothing

    review = review_of(folder, tmp_path)
    review.keep_by_rule_everywhere("shortest_path")  # poem.txt and snow.txt kept: three copies would go
    poem = next(g for g in review.grouping() if any(m.path == "poem.txt" for m in g.members))
    plan = review.plan_cleanup(only=[poem.id])
    assert sorted(r.path for r in plan.removals) == sorted(p for p in POEMS if p != "poem.txt")
    assert review.plan_cleanup(only=[]).files == 0
    assert review.plan_cleanup().files == 3


def test_keeping_one_identical_copy_sends_every_other_copy_of_its_class(tmp_path):
    """Identical copies are one class (Group.copies, paired through their representative only): keeping any
    one file of the class sends the others, in the verified mode too."""
    root = small_folder(tmp_path)
    (root / "crawl").mkdir()
    for n in range(40):
        (root / "crawl" / f"page-{n:02d}.txt").write_text(POEM, encoding="utf-8")
    review = review_of(root, tmp_path, VERIFIED)
    group = next(g for g in review.grouping() if any(m.path == "crawl/page-00.txt" for m in g.members))
    poems = next(c for c in group.copies if any(m.path == "crawl/page-00.txt" for m in c))
    assert len(poems) >= 40 and group.identical_members >= len(poems)
    kept = "crawl/page-17.txt"  # neither the class's first file nor the group's representative
    review.decisions.keep_only(group, kept)
    fates = {f.path: f for f in review.fates(group)}
    assert all(fates[m.path].fate == "goes" for m in poems if m.path != kept)
    plan = review.plan_cleanup(None)
    going = {r.path for r in plan.removals}
    assert {m.path for m in poems} - going == {kept}


def test_a_rule_over_many_groups_marks_as_one_keep_only_in_each_and_undoes_in_place(tmp_path):
    """Decisions.keep_choices: in each group the chosen copy kept (out of the trash queue) and bound to the
    group as it is, every other kept copy unmarked and unbound; saved like single marks; undo puts every mark
    back in the very sets the lists hold."""
    root = small_folder(tmp_path)
    with Index(tmp_path / "i.sqlite") as index:
        review = open_review(root, index, PLAIN)
    decisions = review.decisions
    poem = next(g for g in review.grouping() if g.members[0].path in POEMS)
    snow = next(g for g in review.grouping() if g.members[0].path in SNOWS)
    decisions.set_keep("poem.txt", seen=poem)
    decisions.set_queued("copies/poem-copy.txt")
    keep, queued, reviewed = decisions.keep, decisions.queued, decisions.reviewed
    before = (set(keep), set(queued), dict(reviewed))
    generation = decisions.generation
    decisions.checkpoint()
    decisions.keep_choices([(poem, "copies/poem-copy.txt"), (snow, "snow.txt")])
    assert decisions.keep == {"copies/poem-copy.txt", "snow.txt"} and decisions.queued == set()
    assert decisions.reviewed == {
        "copies/poem-copy.txt": {m.path: m.content_hash for m in poem.members},
        "snow.txt": {m.path: m.content_hash for m in snow.members},
    }
    assert decisions.generation > generation
    marked = decisions.generation
    decisions.keep_choices([(poem, "copies/poem-copy.txt")])  # as it is already: nothing changes
    assert decisions.generation == marked
    decisions.save()
    decisions.close()
    with Index(tmp_path / "i.sqlite") as index:
        assert index.keep_marks() == decisions.keep and index.queued_for_trash() == set()
        assert index.reviewed() == decisions.reviewed
    assert decisions.undo() and (decisions.keep, decisions.queued, decisions.reviewed) == before
    assert decisions.keep is keep and decisions.queued is queued and decisions.reviewed is reviewed
    decisions.save()
    decisions.close()
    with Index(tmp_path / "i.sqlite") as index:
        assert (index.keep_marks(), index.queued_for_trash(), index.reviewed()) == before


def test_a_figure_counted_from_the_marks_is_current_until_they_or_the_groups_change(tmp_path):
    """Review.stamp / current: what a count off the window's thread (a rule's summary, the decided groups)
    depends on moves with every change of marks, every editor's action and undo, "not duplicates" and the
    threshold; saving moves nothing. partly_decided read from decided() agrees with the fates."""
    root = small_folder(tmp_path)
    with Index(tmp_path / "i.sqlite") as index:
        review = open_review(root, index, PLAIN)
    stamp = review.stamp()
    assert review.current(stamp) and review.current(stamp, PLAIN.shown_threshold)
    assert not review.current(stamp, PLAIN.shown_threshold - 1)  # another threshold: other groups
    chosen, _ = review.rule_choices("shortest_path")
    review.decisions.checkpoint()
    assert not review.current(stamp)  # an action began
    review.keep_choices(chosen)
    stamp = review.stamp()
    partly = review.partly_decided([g for g, _ in chosen])
    assert review.partly_decided([g for g, _ in chosen], decided=review.decided()) == partly
    review.decisions.save()
    assert review.current(stamp)
    for change in (
        lambda: review.decisions.undo(),
        lambda: review.decisions.set_keep("copies/snow-copy.txt"),
        lambda: review.decisions.set_queued("poem.txt"),
        lambda: review.mark_not_duplicates("poem.txt", "copies/poem-copy.txt"),
    ):
        review.decisions.checkpoint()
        stamp = review.stamp()
        change()
        assert not review.current(stamp)
    stamp = review.stamp()
    review.decisions.keep_choices([])  # nothing to change
    assert review.current(stamp)


def test_the_analysis_modules_load_on_a_thread_once_the_workers_read(tmp_path, monkeypatch):
    """load_while_reading imports its modules once the scan reads in worker processes (the first "reading" of
    a pooled scan), not while it lists nor for a scan read in this process; every progress is passed on."""
    import sys
    import threading

    from simdesk.core import Progress
    from simdesk.core.review.review import load_while_reading

    (tmp_path / "loaded_while_reading_probe.py").write_text("LOADED = True\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "loaded_while_reading_probe", raising=False)
    seen: list[Progress] = []
    relay = load_while_reading(("loaded_while_reading_probe",), 2, seen.append)
    listing, few = Progress("listing", 500, 0, 0.1), Progress("reading", 1, 10, 0.2)
    relay(listing)
    relay(few)  # ten files: read in this process, where a thread would only compete with the reading
    assert "loaded_while_reading_probe" not in sys.modules
    relay(Progress("reading", 40, 500, 0.3))
    relay(Progress("reading", 80, 500, 0.4))  # once
    loading = [t for t in threading.enumerate() if t.name == "simdesk-load"]
    assert len(loading) <= 1
    for thread in loading:
        thread.join(timeout=60)
    assert sys.modules["loaded_while_reading_probe"].LOADED
    assert [p.done for p in seen] == [500, 1, 40, 80]
