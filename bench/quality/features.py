"""Each feature option of simdesk's pipeline scored on one collection (`python -m bench.quality features DIR`):
word unigrams (the default), + word bigrams, + character bigrams, unigrams without stop words; the
verified default and plain SimHash at k=3 for each (feature settings the command line does not offer)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from simdesk.core import (
    FeatureSettings,
    Grouper,
    Index,
    ScanOptions,
    Scores,
    analyse,
    load_truth,
    pairs_within,
    scan_folder,
    score_groups,
)

FEATURE_OPTIONS = {
    "words": FeatureSettings(),
    "words_bigrams": FeatureSettings(bigrams=True),
    "words_char2": FeatureSettings(char_ngrams=2),
    "words_no_stopwords": FeatureSettings(stopwords=False),
}


def emit(name: str, scores: Scores, seconds: float) -> None:
    for field in ("precision", "recall", "f1", "short_precision", "short_recall"):
        print(f"quality_{name}_{field} {getattr(scores, field):.4f} ratio")
    print(f"quality_{name}_seconds {seconds:.2f} s", flush=True)


def features(corpus: Path) -> None:
    truth = load_truth(corpus)
    for name, settings in FEATURE_OPTIONS.items():
        with tempfile.TemporaryDirectory() as tmp, Index(Path(tmp) / "q.sqlite") as index:
            started = time.perf_counter()
            scan_folder(corpus, index, ScanOptions(), settings=settings)
            grouper = analyse(corpus, index, settings=settings)
            emit(
                f"features_{name}",
                score_groups(truth, [[m.path for m in g.members] for g in grouper.at(12)]),
                time.perf_counter() - started,
            )
            snap = index.snapshot()
            i, j, d = pairs_within(snap.fingerprints, 3)
            plain = Grouper(snap, i, j, d, max_threshold=3).at(3)
            emit(f"features_{name}_plain_k3", score_groups(truth, [[m.path for m in g.members] for g in plain]), 0.0)
