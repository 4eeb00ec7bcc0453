"""The collection of copies carrying invisible characters (bench/quality/invisible.py): every class has
copies with each kind of invisible character and hard negatives that carry them too; simdesk groups the
copies with their originals and nothing else; and the clean-up measure (bench/quality/clean.py) runs the
real `simdesk clean --keep RULE` on copies of it and scores what is left.

Measured 2026-11-27 on the small collection (seed 11: 66 files, 54 true pairs), simdesk at its default
settings through `simdesk scan --format json`: precision and recall 1.000 in every class (before invisible
characters were folded out: English recall 0.733, mixed 0.887 on the full collection). The full collection's
figures are in docs/quality.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.quality.clean import RULES, clean_runs
from bench.quality.invisible import CLASSES, build
from bench.quality.score import simdesk_run
from bench.quality.transforms import INVISIBLE
from simdesk.core import load_truth, score_classes
from simdesk.core.reading.normalize import without_invisible


@pytest.fixture(scope="module")
def collection(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("invisible") / "small"
    build(folder, "small", seed=11)
    return folder


def test_every_class_has_copies_with_every_kind_and_hard_negatives(collection):
    data = json.loads((collection / "truth.json").read_text("utf-8"))
    files = data["files"]
    assert data["classes"] == list(CLASSES)
    for klass in CLASSES:
        mine = {p: v for p, v in files.items() if v["class"] == klass}
        kinds = {e for v in mine.values() if v["role"] == "variant" for e in v["edits"]}
        assert kinds >= set(INVISIBLE), klass
        assert any("negative" in v["edits"] for v in mine.values()), klass
    for path, v in files.items():  # every copy carries invisible characters, as characters or references
        raw = (collection / path).read_bytes().decode(v["encoding"])
        if v["role"] == "variant":
            assert "html" in v["edits"] and "&" in raw or without_invisible(raw) != raw, path


def test_copies_group_with_their_originals_and_nothing_else(collection):
    scores = score_classes(load_truth(collection), simdesk_run(collection).groups)
    for klass in (*CLASSES, "all"):
        assert scores[klass].precision == 1.0, klass
        assert scores[klass].recall >= 0.99, klass


def test_the_clean_up_measure_scores_what_simdesk_clean_left(collection):
    truth = load_truth(collection)
    runs = clean_runs(collection)
    assert [r.rule for r in runs] == list(RULES)
    groups = len({t.group for t in truth.values()})
    for run in runs:
        s = run.scores
        assert (s.files, s.groups) == (len(truth), groups)
        assert run.trashed == s.removed and run.skipped == 0  # what it reports trashed is gone, nothing else
        assert s.documents_lost == 0 and s.removal_recall == 1.0, run.rule  # copies differ by invisible characters only
    assert all((collection / path).exists() for path in truth)  # the collection itself is untouched
