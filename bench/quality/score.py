"""Score simdesk and its peers on one collection with a truth.json, in one run, per class.

- simdesk: the `simdesk scan DIR --format json` command at its default settings, in a fresh index;
- datasketch MinHash (128 permutations) + MinHashLSH at Jaccard 0.7, on word 3-shingles (jieba words of
  the lower-cased text) and on character 5-shingles (whitespace removed);
- the `simhash` package: Simhash over the same words, SimhashIndex at k=3.
The peers read each file as simdesk decodes it (same encoding detection), so they differ from simdesk in
how they compare texts only; they get no markup stripping, script folding or other normalisation.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from simdesk.core import DecodeError, ScanOptions, load_truth, read_text_file, score_classes, segment

MINHASH_PERMUTATIONS = 128
MINHASH_THRESHOLD = 0.7
SIMHASH_K = 3


@dataclass(frozen=True)
class Run:
    name: str
    groups: list[list[str]]
    seconds: float


def simdesk_run(root: Path, db: Path | None = None) -> Run:
    """`simdesk scan ROOT --format json` at the default settings, in a fresh index (at `db` when given, and
    kept there: the clean-up measure reuses it)."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "simdesk",
                "scan",
                str(root),
                "--format",
                "json",
                "--db",
                str(db or Path(tmp) / "index.sqlite"),
            ],
            capture_output=True,
            text=True,
        )
    if proc.returncode != 0:
        raise RuntimeError(f"simdesk scan failed: {proc.stderr.strip()}")
    groups = [[m["path"] for m in g["members"]] for g in json.loads(proc.stdout)["groups"]]
    return Run("simdesk", groups, time.perf_counter() - started)


def read_texts(root: Path, paths: list[str]) -> list[str]:
    """Each file's text as simdesk decodes it ('' when it cannot)."""
    out = []
    for path in paths:
        try:
            out.append(read_text_file(root / path, ScanOptions().max_bytes).text)
        except (OSError, DecodeError):
            out.append("")
    return out


def words(text: str) -> list[str]:
    return [w for w in segment(text.lower()) if w.strip()]


def word_shingles(text: str, n: int = 3) -> set[str]:
    words_ = words(text)
    if len(words_) < n:
        return {" ".join(words_)}
    return {" ".join(words_[k : k + n]) for k in range(len(words_) - n + 1)}


def char_shingles(text: str, n: int = 5) -> set[str]:
    chars = "".join(text.split())
    return {chars[k : k + n] for k in range(max(1, len(chars) - n + 1))}


def components(paths: list[str], pairs: list[tuple[int, int]]) -> list[list[str]]:
    """Connected components of the pairs (groups of two or more)."""
    if not pairs:
        return []
    a, b = zip(*pairs)
    n = len(paths)
    _, labels = connected_components(coo_matrix(([1] * len(a), (a, b)), shape=(n, n)), directed=False)
    groups: dict[int, list[str]] = {}
    for row, label in enumerate(labels.tolist()):
        groups.setdefault(label, []).append(paths[row])
    return [g for g in groups.values() if len(g) > 1]


def minhash_run(name: str, paths: list[str], texts: list[str], shingles: Callable[[str], set[str]]) -> Run:
    from datasketch import MinHash, MinHashLSH

    started = time.perf_counter()
    lsh = MinHashLSH(threshold=MINHASH_THRESHOLD, num_perm=MINHASH_PERMUTATIONS)
    sketches = []
    for k, text in enumerate(texts):
        m = MinHash(num_perm=MINHASH_PERMUTATIONS)
        m.update_batch([s.encode("utf-8") for s in sorted(shingles(text))])
        sketches.append(m)
        lsh.insert(k, m)
    pairs = [(k, o) for k, m in enumerate(sketches) for o in lsh.query(m) if o > k]
    return Run(name, components(paths, pairs), time.perf_counter() - started)


def simhash_run(paths: list[str], texts: list[str]) -> Run:
    from simhash import Simhash, SimhashIndex

    logging.getLogger("simhash").setLevel(logging.ERROR)  # a warning per large bucket, thousands of lines
    started = time.perf_counter()
    hashes = [Simhash(words(t) or [""]) for t in texts]
    index = SimhashIndex([(str(k), h) for k, h in enumerate(hashes)], k=SIMHASH_K)
    pairs = [(k, int(o)) for k, h in enumerate(hashes) for o in index.get_near_dups(h) if int(o) > k]
    return Run("simhash_k3", components(paths, pairs), time.perf_counter() - started)


def all_runs(root: Path, peers: bool = True, db: Path | None = None) -> list[Run]:
    """simdesk (its index at `db` when given), then (with `peers`) each peer, on the collection at `root`."""
    runs = [simdesk_run(root, db)]
    if peers:
        paths = sorted(load_truth(root))
        texts = read_texts(root, paths)
        runs += [
            minhash_run("minhash_words", paths, texts, word_shingles),
            minhash_run("minhash_chars", paths, texts, char_shingles),
            simhash_run(paths, texts),
        ]
    return runs


def false_groups(truth: dict, groups: list[list[str]]) -> int:
    """Found groups that join files of more than one true group."""
    return sum(len({truth[p].group for p in g if p in truth}) > 1 for g in groups)


def table(root: Path, runs: list[Run]) -> tuple[str, dict]:
    """A per-class table (P / R / F1 of each tool; files and true pairs per class; false groups: found
    groups that join two true groups) and the same as data."""
    truth = load_truth(root)
    scored = {run.name: score_classes(truth, run.groups) for run in runs}
    classes = [c for c in next(iter(scored.values())) if c]  # "": files of a collection without classes
    head = f"{'class':<10} {'files':>6} {'pairs':>6}  " + "  ".join(f"{run.name:>20}" for run in runs)
    lines = [head, f"{'':<10} {'':>6} {'':>6}  " + "  ".join(f"{'P     R     F1':>20}" for _ in runs)]
    for klass in classes:
        first = scored[runs[0].name][klass]
        cells = "  ".join(
            f"{s.precision:>6.3f}{s.recall:>6.3f}{s.f1:>6.3f}  " for s in (scored[r.name][klass] for r in runs)
        )
        lines.append(f"{klass:<10} {first.files:>6} {first.true_pairs:>6}  {cells}")
    wrong = {run.name: false_groups(truth, run.groups) for run in runs}
    lines.append(f"{'false grp':<10} {'':>6} {'':>6}  " + "  ".join(f"{wrong[run.name]:>20}" for run in runs))
    lines.append(f"{'seconds':<10} {'':>6} {'':>6}  " + "  ".join(f"{run.seconds:>20.1f}" for run in runs))
    data = {
        run.name: {
            k: asdict(v) | {"precision": v.precision, "recall": v.recall, "f1": v.f1}
            for k, v in scored[run.name].items()
        }
        | {"seconds": run.seconds, "false_groups": wrong[run.name]}
        for run in runs
    }
    return "\n".join(lines), data
