"""simdesk's own scoring agrees with the team's evaluate.py, and `simdesk evaluate` prints it with a sweep."""
from __future__ import annotations

import json

from click.testing import CliRunner

from simdesk.cli import main
from simdesk.core.evaluation import load_truth, score_groups
from tests.conftest import evaluate


def test_scores_equal_the_shared_evaluate_script(tmp_path, small_corpus):
    truth = load_truth(small_corpus)
    by_group: dict[str, list[str]] = {}
    for path, t in sorted(truth.items()):
        by_group.setdefault(t.group, []).append(path)
    # a grouping with some right, some split and some wrongly merged groups
    groups = list(by_group.values())
    guess = [g for g in groups[::2] if len(g) > 1] + [groups[1] + groups[3], groups[5][:1]]
    out = tmp_path / "guess.json"
    out.write_text(json.dumps(guess), encoding="utf-8")
    expected = evaluate(small_corpus, out)
    ours = score_groups(truth, guess)
    for line in ours.lines():
        name, value = line.split()
        assert abs(float(value) - expected[name]) < 1e-4, name
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
    result = CliRunner().invoke(main, ["evaluate", str(small_corpus), "--db", str(tmp_path / "i.sqlite")],
                                catch_exceptions=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    values = dict(line.split() for line in lines if not line.startswith("sweep"))
    assert float(values["precision"]) >= 0.96 and float(values["recall"]) >= 0.9
    sweep = [line.split() for line in lines if line.startswith("sweep plain")]
    recalls = [float(row[4]) for row in sweep]
    assert len(sweep) == 13 and recalls == sorted(recalls)  # a wider radius never loses a pair


def test_evaluate_without_truth_is_a_usage_error(tmp_path):
    (tmp_path / "a.txt").write_text("文本", encoding="utf-8")
    result = CliRunner().invoke(main, ["evaluate", str(tmp_path)])
    assert result.exit_code == 2 and "truth.json" in result.output
