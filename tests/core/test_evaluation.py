"""simdesk's scoring equals a brute-force count over every pair of files, and `simdesk evaluate` prints it
with a sweep."""

from __future__ import annotations

import itertools

from click.testing import CliRunner

from simdesk.cli import main
from simdesk.core.evaluation import files_left, load_truth, score_cleanup, score_groups


def brute_force(truth, groups) -> dict[str, float]:
    """Every pair of files, one at a time: in one true group? in one found group? Recall per edit kind:
    each variant against its group's original."""
    found = {path: k for k, g in enumerate(groups) for path in g}
    together = lambda a, b: a in found and found.get(b) == found[a]  # noqa: E731
    out = {}
    for prefix, files in (("", sorted(truth)), ("short_", sorted(p for p, t in truth.items() if t.short))):
        true = guessed = both = 0
        for a, b in itertools.combinations(files, 2):
            same = truth[a].group == truth[b].group
            true += same
            guessed += together(a, b)
            both += same and together(a, b)
        p = both / guessed if guessed else 1.0
        r = both / true if true else 1.0
        out |= {f"{prefix}precision": p, f"{prefix}recall": r, f"{prefix}f1": 2 * p * r / (p + r) if p + r else 0.0}
    original = {t.group: path for path, t in truth.items() if t.role == "original"}
    for kind in {k for t in truth.values() for k in t.edits}:
        variants = [path for path, t in truth.items() if t.role == "variant" and kind in t.edits]
        out[f"recall_{kind}"] = sum(together(v, original[truth[v].group]) for v in variants) / len(variants)
    return out


def test_scores_equal_a_brute_force_count_over_all_pairs(small_corpus):
    truth = load_truth(small_corpus)
    by_group: dict[str, list[str]] = {}
    for path, t in sorted(truth.items()):
        by_group.setdefault(t.group, []).append(path)
    # a grouping with some right, some split and some wrongly merged groups, and a path not in the truth
    groups = [g for g in by_group.values() if len(g) > 1]
    guess = list(groups[::2]) + [groups[1] + groups[3], groups[5][:1], groups[7][1:] + ["elsewhere.txt"]]
    expected = brute_force(truth, guess)
    ours = score_groups(truth, guess)
    lines = dict(line.split() for line in ours.lines())
    assert set(lines) == set(expected)
    for name, value in expected.items():
        assert abs(float(lines[name]) - value) < 1e-4, name
    assert 0 < ours.precision < 1 and 0 < ours.recall < 1


def test_perfect_grouping_scores_one(small_corpus):
    truth = load_truth(small_corpus)
    by_group: dict[str, list[str]] = {}
    for path, t in truth.items():
        by_group.setdefault(t.group, []).append(path)
    scores = score_groups(truth, by_group.values())
    assert (scores.precision, scores.recall, scores.f1) == (1.0, 1.0, 1.0)
    assert set(scores.recall_by_edit.values()) == {1.0}


def test_evaluate_command_prints_scores_and_the_sweep(tmp_path, small_corpus):
    result = CliRunner().invoke(
        main, ["evaluate", str(small_corpus), "--db", str(tmp_path / "i.sqlite")], catch_exceptions=False
    )
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    values = dict(line.split() for line in lines if not line.startswith("sweep"))
    assert float(values["precision"]) >= 0.98 and float(values["recall"]) >= 0.86  # 1.000, 0.888 (2026-11-23)
    sweep = [line.split() for line in lines if line.startswith("sweep plain")]
    recalls = [float(row[4]) for row in sweep]
    assert len(sweep) == 13 and recalls == sorted(recalls)  # a wider radius never loses a pair


def test_evaluate_without_truth_is_a_usage_error(tmp_path):
    (tmp_path / "a.txt").write_text("文本", encoding="utf-8")
    result = CliRunner().invoke(main, ["evaluate", str(tmp_path)])
    assert result.exit_code == 2 and "truth.json" in result.output


def test_a_clean_up_is_scored_by_the_documents_it_lost_and_the_copies_it_removed(small_corpus, tmp_path):
    truth = load_truth(small_corpus)
    by_group: dict[str, list[str]] = {}
    for path, t in sorted(truth.items()):
        by_group.setdefault(t.group, []).append(path)
    copies = [g for g in by_group.values() if len(g) > 2]
    # a clean-up that keeps one file of each group but two (all of the first gone; the second's first file
    # gone, its others kept), and one that removes nothing
    left = {g[0] for g in by_group.values()} - {copies[0][0]}
    left = (left - {copies[1][0]}) | set(copies[1][1:])
    scores = score_cleanup(truth, left)
    redundant = len(truth) - len(by_group)
    assert (scores.files, scores.groups, scores.redundant) == (len(truth), len(by_group), redundant)
    assert scores.lost == (truth[copies[0][0]].group,) and scores.documents_lost == 1
    assert scores.removed == len(truth) - len(left) and scores.wrong_removals == len(copies[0])
    assert scores.removal_recall == (scores.removed - len(copies[0])) / redundant
    assert dict(line.split() for line in scores.lines())["documents_lost"] == "1"
    untouched = score_cleanup(truth, set(truth) | {"elsewhere.txt"})
    assert (untouched.documents_lost, untouched.removed, untouched.removal_recall) == (0, 0, 0.0)
    # files_left reads what is on disk: a removed file is gone, a symbolic link is left
    root = tmp_path / "after"
    for path in list(truth)[:3]:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
    first, second = list(truth)[:2]
    (root / first).write_text("x", encoding="utf-8")
    (root / second).symlink_to(root / "nowhere")
    assert files_left(root, truth) == {first, second}
