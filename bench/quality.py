"""Detection quality of simdesk against its peers, on the same documents and the same jieba tokens, in one
run: `python -m bench.quality CORPUS_DIR` (a collection with truth.json, e.g.
`python -m bench.corpus DIR --size medium`).

Prints `name value unit` lines: precision, recall and F1 (pairwise, as simdesk.core.evaluation counts
them), the same for short texts, for
  - simdesk at its default settings (verified) and as plain SimHash at k=3,
  - the `simhash` package (Simhash over the same tokens, SimhashIndex at k=3),
  - datasketch (MinHash over the same tokens, 128 permutations, MinHashLSH at threshold 0.7).
`python -m bench.quality CORPUS_DIR --features` instead scores simdesk's default pipeline with each feature
option (word unigrams, + word bigrams, + character bigrams, unigrams without stop words).
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from simdesk.core import (DecodeError, FeatureSettings, Grouper, Index, ScanOptions, Scores, analyse, load_truth,
                          normalize, read_text_file, scan_folder, score_groups, segment)


def components(n: int, pairs: list[tuple[int, int]]) -> list[list[int]]:
    if not pairs:
        return []
    a, b = zip(*pairs)
    _, labels = connected_components(coo_matrix(([1] * len(a), (a, b)), shape=(n, n)), directed=False)
    groups: dict[int, list[int]] = {}
    for row, label in enumerate(labels.tolist()):
        groups.setdefault(label, []).append(row)
    return [g for g in groups.values() if len(g) > 1]


def emit(name: str, scores: Scores, seconds: float) -> None:
    for field in ("precision", "recall", "f1", "short_precision", "short_recall"):
        print(f"quality_{name}_{field} {getattr(scores, field):.4f} ratio")
    print(f"quality_{name}_seconds {seconds:.2f} s", flush=True)


def main(corpus: Path) -> None:
    truth = load_truth(corpus)
    paths = sorted(truth)
    with tempfile.TemporaryDirectory() as tmp, Index(Path(tmp) / "q.sqlite") as index:
        started = time.perf_counter()
        scan_folder(corpus, index, ScanOptions())
        grouper = analyse(corpus, index)
        emit("simdesk_default", score_groups(truth, [[m.path for m in g.members] for g in grouper.at(12)]),
             time.perf_counter() - started)
        snap = index.snapshot()
        started = time.perf_counter()
        i, j, d = index.pairs_within(3, snap)
        plain = Grouper(snap, i, j, d, max_threshold=3).at(3)
        emit("simdesk_plain_k3", score_groups(truth, [[m.path for m in g.members] for g in plain]),
             time.perf_counter() - started)

    tokens = []
    for p in paths:
        try:
            tokens.append(segment(normalize(read_text_file(corpus / p, 50 * 2**20).text)))
        except (OSError, DecodeError):
            tokens.append([])

    from simhash import Simhash, SimhashIndex

    started = time.perf_counter()
    hashes = [Simhash(t or [""]) for t in tokens]
    idx = SimhashIndex([(str(k), h) for k, h in enumerate(hashes)], k=3)
    pairs = [(k, int(o)) for k, h in enumerate(hashes) for o in idx.get_near_dups(h) if int(o) > k]
    emit("simhash_pkg_k3", score_groups(truth, [[paths[r] for r in g] for g in components(len(paths), pairs)]),
         time.perf_counter() - started)

    from datasketch import MinHash, MinHashLSH

    started = time.perf_counter()
    lsh = MinHashLSH(threshold=0.7, num_perm=128)
    sketches = []
    for k, t in enumerate(tokens):
        m = MinHash(num_perm=128)
        m.update_batch([w.encode("utf-8") for w in set(t)] or [b""])
        sketches.append(m)
        lsh.insert(str(k), m)
    pairs = [(k, int(o)) for k, m in enumerate(sketches) for o in lsh.query(m) if int(o) > k]
    emit("datasketch_lsh_0.7", score_groups(truth, [[paths[r] for r in g] for g in components(len(paths), pairs)]),
         time.perf_counter() - started)


FEATURE_OPTIONS = {
    "words": FeatureSettings(),
    "words_bigrams": FeatureSettings(bigrams=True),
    "words_char2": FeatureSettings(char_ngrams=2),
    "words_no_stopwords": FeatureSettings(stopwords=False),
}


def features(corpus: Path) -> None:
    truth = load_truth(corpus)
    for name, settings in FEATURE_OPTIONS.items():
        with tempfile.TemporaryDirectory() as tmp, Index(Path(tmp) / "q.sqlite") as index:
            started = time.perf_counter()
            scan_folder(corpus, index, ScanOptions(), settings=settings)
            grouper = analyse(corpus, index, settings=settings)
            emit(f"features_{name}", score_groups(truth, [[m.path for m in g.members] for g in grouper.at(12)]),
                 time.perf_counter() - started)
            snap = index.snapshot()
            i, j, d = index.pairs_within(3, snap)
            plain = Grouper(snap, i, j, d, max_threshold=3).at(3)
            emit(f"features_{name}_plain_k3", score_groups(truth, [[m.path for m in g.members] for g in plain]), 0.0)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[2] == "--features":
        features(Path(sys.argv[1]))
    elif len(sys.argv) == 2:
        main(Path(sys.argv[1]))
    else:
        sys.exit(__doc__)
