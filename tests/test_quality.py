"""Detection quality on the team's small collection, scored by the team's evaluate.py: floors, not targets.

Measured when set (seed 7): precision 1.0, recall 0.593. The medium collection's figures are in README.
"""
from __future__ import annotations

from click.testing import CliRunner

from simdesk.cli import main
from tests.conftest import evaluate


def test_small_collection_scores_above_the_floors(tmp_path, small_corpus):
    result = CliRunner().invoke(main, ["scan", str(small_corpus), "--format", "json", "--db",
                                       str(tmp_path / "i.sqlite")], catch_exceptions=False)
    out = tmp_path / "result.json"
    out.write_text(result.stdout, encoding="utf-8")
    scores = evaluate(small_corpus, out)
    assert scores["unknown_paths"] == 0
    assert scores["precision"] >= 0.98
    assert scores["recall"] >= 0.55
    assert scores["recall_exact"] == 1.0 and scores["recall_reencode"] == 1.0
    assert scores["recall_punct_width"] >= 0.9 and scores["recall_rewrap"] >= 0.85
