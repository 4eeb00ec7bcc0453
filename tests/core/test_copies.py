"""Identical copies as one class, texts without features and crowds of one-liners: what a crawl folder with
thousands of copies of one page holds is searched, verified and stored in pairs linear in its size, and
grouped as before (copies.py, analysis.candidates)."""

from __future__ import annotations

import random

import numpy as np

from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import CROWD_LIMIT, CROWD_WINDOW, VerifySettings, analyse, crowd_pairs, kept_grouper
from simdesk.core.matching.copies import identical_copies, with_copies
from simdesk.core.records import ScanOptions
from tests.core.test_notices import REFERENCE

VERIFY = VerifySettings(jobs=1)
ARTICLE = "".join(REFERENCE)
SHORT = ("页面不存在", "404 Not Found\nThe requested URL was not found on this server.", "。。。 ---- !!")
TEMPLATE = "您的订单{0}已于{1}月{2}日发货，运单号{3}，请注意查收。"


def _write(root, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def _analysed(root, db):
    with Index(db) as index:
        scan(root, index, ScanOptions(jobs=1))
        grouper = analyse(root, index, verify=VERIFY)
        return grouper, index.scores(), kept_grouper(index, VERIFY)


def _segment_entries(db) -> int:
    with Index(db) as index:
        return sum(len(docs) // 2 for (docs,) in index.conn.execute("SELECT docs FROM segments"))


def _groups(grouper) -> list[list[str]]:
    return sorted(sorted(m.path for m in g.members) for g in grouper.at(grouper.max_threshold))


def _typo(text: str, at: int) -> str:
    han = [k for k, c in enumerate(text) if "\u4e00" <= c <= "\u9fff"]
    k = han[at % len(han)]
    return text[:k] + ("的" if text[k] != "的" else "是") + text[k + 1 :]


def test_thousands_of_copies_of_three_pages_make_one_candidate_and_three_groups(tmp_path):
    """2,000 files of 3 short contents and one real near-copy pair: one candidate is verified and stored (the
    pair), where every pair of copies was before (1,999,000 at 2,000 such files); the copies are 3 groups
    of identical copies, the pair a fourth."""
    root = tmp_path / "crawl"
    files = {f"d{k // 500}/{k:04d}.txt": SHORT[k % 3] for k in range(2000)}
    files["article.txt"] = ARTICLE
    files["repost.txt"] = _typo(ARTICLE, 3)
    _write(root, files)
    grouper, scores, kept = _analysed(root, tmp_path / "i.sqlite")
    assert len(scores) == 1
    assert _segment_entries(tmp_path / "i.sqlite") == 4 * 5  # the copies are not in the segment table
    groups = _groups(grouper)
    expected = sorted(
        [sorted(p for p, t in files.items() if t == text) for text in SHORT] + [["article.txt", "repost.txt"]]
    )
    assert groups == expected
    assert _groups(kept) == expected  # what a cancelled scan shows: the same
    copies = [g for g in grouper.at(grouper.max_threshold) if g.identical]
    assert sorted(len(g.members) for g in copies) == [666, 667, 667]
    assert all(m.score == 1.0 and m.distance == 0 for g in copies for m in g.members)


def test_a_class_of_copies_takes_its_representatives_pairs(tmp_path):
    """3 copies of an article and 2 of a repost of it: one group of 5 whose representative pairs with every
    member; the group tells its classes of identical copies apart (Group.copies). The index keeps one
    scored pair, not ten."""
    root = tmp_path / "c"
    repost = _typo(ARTICLE, 5)
    files = {
        "a1.txt": ARTICLE,
        "a2.txt": ARTICLE,
        "a3.txt": ARTICLE,
        "b1.txt": repost,
        "b2.txt": repost,
        "other.txt": "宁走十步远，不走一步险。病急乱投医，逢庙就烧香。",
    }
    _write(root, files)
    grouper, scores, kept = _analysed(root, tmp_path / "i.sqlite")
    assert len(scores) == 1
    (group,) = grouper.at(grouper.max_threshold)
    assert sorted(m.path for m in group.members) == ["a1.txt", "a2.txt", "a3.txt", "b1.txt", "b2.txt"]
    grouping = grouper.at(grouper.max_threshold)
    rep = grouping.snapshot_row(group.members[0].path)
    assert all(grouping.paired(rep, grouping.snapshot_row(m.path)) for m in group.members[1:])
    assert sorted(sorted(m.path for m in c) for c in group.copies) == [
        ["a1.txt", "a2.txt", "a3.txt"],
        ["b1.txt", "b2.txt"],
    ]
    assert not group.identical
    (score,) = (r.score for r in scores.values())
    first = group.members[0]
    assert all(m.score == (1.0 if m.content_hash == first.content_hash else score) for m in group.members[1:])
    same = [grouping.snapshot_row(m.path) for m in group.members[1:] if m.content_hash == first.content_hash]
    assert same and all(grouping.held(r, rep) == grouping.held(rep, r) == 1.0 for r in same)  # copies: whole
    # any copy may be the one kept: it holds what its representative holds (a2 keeps a3 and both reposts)
    row = {p: grouping.snapshot_row(p) for p in files}
    assert grouping.held(row["a3.txt"], row["a2.txt"]) == 1.0 and grouping.holds(row["a2.txt"], row["a3.txt"])
    for b in ("b1.txt", "b2.txt"):
        assert grouping.held(row[b], row["a2.txt"]) == grouping.held(row["b1.txt"], row["a1.txt"]) is not None
        assert grouping.held(row["a3.txt"], row[b]) == grouping.held(row["a1.txt"], row["b1.txt"]) is not None
        assert grouping.pair_score(row["a3.txt"], row[b]) == score
    assert _groups(kept) == _groups(grouper)


def test_a_class_whose_representative_is_deleted_is_searched_again(tmp_path):
    """The scores of a class are kept under its representative: when that file goes, the next copy becomes the
    representative and is searched again, so the class keeps its pairs (as on a fresh index)."""
    root = tmp_path / "c"
    files = {"a1.txt": ARTICLE, "a2.txt": ARTICLE, "b.txt": _typo(ARTICLE, 2)}
    _write(root, files)
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        analyse(root, index, verify=VERIFY)
        (root / "a1.txt").unlink()
        scan(root, index, ScanOptions(jobs=1))
        assert _groups(analyse(root, index, verify=VERIFY)) == [["a2.txt", "b.txt"]]
        assert _groups(kept_grouper(index, VERIFY)) == [["a2.txt", "b.txt"]]


def test_texts_without_features_never_pair_and_stay_out_of_the_segment_table(tmp_path):
    """A byte-order mark and whitespace have no features (fingerprint 0): 40 such files of different whitespace
    are in no group and in no segment row (every insert of one rewrote a shared row); near() finds them."""
    root = tmp_path / "blank"
    root.mkdir()
    files = {f"b{k:02d}.txt": "\ufeff" + " " * k + "\n" * (k % 3) for k in range(40)}
    for rel, text in files.items():
        (root / rel).write_bytes(text.encode("utf-8"))
    files["text.txt"] = ARTICLE
    _write(root, {"text.txt": ARTICLE})
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        snap = index.snapshot()
        assert int((snap.fingerprints == 0).sum()) == 40
        assert _groups(analyse(root, index, verify=VERIFY)) == []
        assert index.scores() == {}
        entries = sum(len(docs) // 2 for (docs,) in index.conn.execute("SELECT docs FROM segments"))
        assert entries == 4  # the article's four blocks
        assert sorted(d.path for d, _ in index.near(0, 0)) == sorted(p for p in files if p != "text.txt")
        index.delete_paths(["b00.txt"])
        assert len(index.near(0, 2)) == 39


def test_one_liners_differing_in_numbers_are_a_bounded_crowd(tmp_path):
    """300 notices of one template with other numbers (one fingerprint: numbers are not features) and 5 of them
    copied with a typo: the candidates stay within the crowd bound, a seventh of every pair (46,360), the 5
    copies group with their originals and no two notices of other numbers do."""
    rng = random.Random(5)
    texts = [
        TEMPLATE.format(rng.randint(10_000, 99_999), rng.randint(1, 12), rng.randint(1, 28), rng.randint(100, 999))
        for _ in range(300)
    ]
    files = {f"n{k:03d}.txt": t for k, t in enumerate(texts)}
    files.update({f"n{k:03d}-copy.txt": _typo(texts[k], k) for k in range(0, 50, 10)})
    root = tmp_path / "notices"
    _write(root, files)
    grouper, scores, kept = _analysed(root, tmp_path / "i.sqlite")
    n = len(files)
    assert n > CROWD_LIMIT
    assert len(scores) <= (CROWD_WINDOW + 4) * n < n * (n - 1) // 2 // 7
    assert _groups(grouper) == sorted([f"n{k:03d}-copy.txt", f"n{k:03d}.txt"] for k in range(0, 50, 10))
    assert _groups(kept) == _groups(grouper)


def test_a_crowd_of_copies_groups_whole_around_its_pivot(tmp_path):
    """100 saves of one page that differ only in the spaces after it (one fingerprint, a crowd): one group of
    100, its representative paired with each (before, every pair was scored: 4,950; now each with the pivot
    and a few neighbours)."""
    root = tmp_path / "saves"
    files = {f"s{k:03d}.txt": f"{ARTICLE}{' ' * (k + 1)}\n" for k in range(100)}
    _write(root, files)
    grouper, scores, kept = _analysed(root, tmp_path / "i.sqlite")
    assert _groups(grouper) == [sorted(files)]
    assert len(scores) <= (CROWD_WINDOW + 2) * len(files)
    assert _groups(kept) == [sorted(files)]


def test_with_copies_gives_each_copy_its_representatives_pairs():
    copies = identical_copies(["x", "y", "x", "z", "y", "x"])  # classes {0, 2, 5}, {1, 4}, {3}
    assert copies.rep.tolist() == [0, 1, 0, 3, 1, 0]
    assert copies.sizes.tolist() == [3, 2, 3, 1, 2, 3]
    i, j, source, swapped = with_copies(copies, np.array([0, 1]), np.array([1, 3]))
    got = sorted(zip(i.tolist(), j.tolist(), source.tolist(), swapped.tolist()))
    assert got == sorted(
        [
            (0, 1, 0, False),
            (1, 2, 0, True),
            (1, 5, 0, True),
            (0, 4, 0, False),  # 0-1, its copies'
            (1, 3, 1, False),
            (3, 4, 1, True),  # 1-3, and 4 (a copy of 1) with 3: 3-4 is 1-3 turned
            (0, 2, -1, False),
            (0, 5, -1, False),
            (1, 4, -1, False),
        ]
    )  # each copy with its representative
    preferred = identical_copies(["x", "y", "x", "z", "y", "x"], np.array([0, 0, 1, 0, 0, 0], dtype=bool))
    assert preferred.rep.tolist() == [2, 1, 2, 3, 1, 2]


def test_crowd_pairs_are_linear_in_the_crowd():
    n = 2000
    stand_in = np.zeros(n + 1, dtype=np.int64)  # rows 0..n-1 one crowd (stand-in 0), row n on its own
    stand_in[n] = -1
    chars = np.r_[np.arange(n) % 7 + 20, 21]
    i, j = crowd_pairs(np.array([0]), np.array([n]), stand_in, chars)
    assert len(i) <= n * (CROWD_WINDOW + 1) + CROWD_WINDOW + 1
    assert ((i < j) & (j <= n)).all()
    partners = np.bincount(np.r_[i, j], minlength=n + 1)
    assert partners[0] >= n  # the pivot pairs with every crowd text and the row near it
    assert CROWD_WINDOW <= partners[n] <= CROWD_WINDOW + 1  # the row near the crowd: the pivot and a window
