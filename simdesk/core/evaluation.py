"""Score a grouping against a collection's truth.json (as `python -m bench.corpus` writes it): pairwise
precision, recall and F1 (pairs of files in one found group against pairs in one true group; files in no
group are singletons), the same over short texts, and recall per edit kind (a variant is found when it
shares a group with its group's original).

    truth = load_truth(Path("corpus"))
    scores = score_groups(truth, [[m.path for m in g.members] for g in grouping])
"""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class TruthFile:
    group: str
    role: str  # "original" or "variant"
    edits: tuple[str, ...]
    short: bool


@dataclass(frozen=True)
class Scores:
    precision: float
    recall: float
    f1: float
    short_precision: float
    short_recall: float
    short_f1: float
    recall_by_edit: dict[str, float] = field(default_factory=dict)

    def lines(self, prefix: str = "") -> list[str]:
        """`name value` lines, as `simdesk evaluate` prints them."""
        out = [f"{prefix}{name} {getattr(self, name):.4f}" for name in
               ("precision", "recall", "f1", "short_precision", "short_recall", "short_f1")]
        out += [f"{prefix}recall_{kind} {value:.4f}" for kind, value in sorted(self.recall_by_edit.items())]
        return out


def load_truth(corpus: Path) -> dict[str, TruthFile]:
    """The truth.json of a collection. Raises FileNotFoundError when the folder has none."""
    data = json.loads((Path(corpus) / "truth.json").read_text(encoding="utf-8"))["files"]
    return {path: TruthFile(v["group"], v["role"], tuple(v["edits"]), bool(v["short"])) for path, v in data.items()}


def _prf(true_label: dict[str, str], pred: dict[str, int], files: list[str]) -> tuple[float, float, float]:
    pairs = lambda n: n * (n - 1) // 2  # noqa: E731
    t = sum(pairs(n) for n in Counter(true_label[f] for f in files).values())
    p = sum(pairs(n) for n in Counter(pred[f] for f in files).values())
    both = sum(pairs(n) for n in Counter((true_label[f], pred[f]) for f in files).values())
    precision = both / p if p else 1.0
    recall = both / t if t else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def score_groups(truth: dict[str, TruthFile], groups: Iterable[Iterable[str]]) -> Scores:
    """Pairwise scores of `groups` (lists of relative paths; files in no group are singletons)."""
    pred: dict[str, int] = {}
    for k, g in enumerate(groups):
        for path in g:
            if path in truth:
                pred[path] = k
    nxt = len(pred) + 1_000_000
    for path in truth:
        if path not in pred:
            pred[path] = nxt
            nxt += 1
    label = {f: v.group for f, v in truth.items()}
    p, r, f1 = _prf(label, pred, list(truth))
    sp, sr, sf1 = _prf(label, pred, [f for f, v in truth.items() if v.short])
    original = {v.group: f for f, v in truth.items() if v.role == "original"}
    found: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    for f, v in truth.items():
        if v.role != "variant":
            continue
        hit = pred[f] == pred[original[v.group]]
        for kind in v.edits:
            total[kind] += 1
            found[kind] += hit
    return Scores(p, r, f1, sp, sr, sf1, {k: found[k] / total[k] for k in total})
