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
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class TruthFile:
    group: str
    role: str  # "original" or "variant"
    edits: tuple[str, ...]
    short: bool
    category: str = ""  # the evaluation kit's "class" (script, markup, long, mixed, short, combined)


@dataclass(frozen=True)
class ClassScores:
    """Pairwise scores over the pairs that touch one class: true pairs (within the class's groups) and
    found pairs with at least one file of the class, so a false group across classes counts against both."""

    files: int
    true_pairs: int
    found_pairs: int
    right_pairs: int

    @property
    def precision(self) -> float:
        return self.right_pairs / self.found_pairs if self.found_pairs else 1.0

    @property
    def recall(self) -> float:
        return self.right_pairs / self.true_pairs if self.true_pairs else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


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
        out = [
            f"{prefix}{name} {getattr(self, name):.4f}"
            for name in ("precision", "recall", "f1", "short_precision", "short_recall", "short_f1")
        ]
        out += [f"{prefix}recall_{kind} {value:.4f}" for kind, value in sorted(self.recall_by_edit.items())]
        return out


def load_truth(corpus: Path) -> dict[str, TruthFile]:
    """The truth.json of a collection. Raises FileNotFoundError when the folder has none."""
    data = json.loads((Path(corpus) / "truth.json").read_text(encoding="utf-8"))["files"]
    return {
        path: TruthFile(v["group"], v["role"], tuple(v["edits"]), bool(v["short"]), v.get("class", ""))
        for path, v in data.items()
    }


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


def score_classes(truth: dict[str, TruthFile], groups: Iterable[Iterable[str]]) -> dict[str, ClassScores]:
    """ClassScores for each class of the truth (in first-seen order) and for "all" files. A true group
    lies within one class; paths not in the truth are ignored."""
    pairs = lambda n: n * (n - 1) // 2  # noqa: E731
    classes = list(dict.fromkeys(t.category for t in truth.values())) + ["all"]
    in_class = lambda t, c: c == "all" or t.category == c  # noqa: E731
    found: dict[str, list[str]] = {}
    for k, g in enumerate(groups):
        for path in g:
            if path in truth:
                found.setdefault(f"f{k}", []).append(path)
    out = {}
    for c in classes:
        files = [f for f, t in truth.items() if in_class(t, c)]
        true_pairs = sum(pairs(n) for n in Counter(truth[f].group for f in files).values())
        found_pairs = right = 0
        for members in found.values():
            n_c = sum(in_class(truth[f], c) for f in members)
            found_pairs += pairs(len(members)) - pairs(len(members) - n_c)
            right += sum(pairs(n) for n in Counter(truth[f].group for f in members if in_class(truth[f], c)).values())
        out[c] = ClassScores(len(files), true_pairs, found_pairs, right)
    return out


@dataclass(frozen=True)
class CleanupScores:
    """What a clean-up left of a collection, against its truth. A true group is one document: it is lost when
    none of its files is left. Each file of a group beyond one is a redundant copy; a removal is right when
    its group keeps a file."""

    files: int
    groups: int
    removed: int
    lost: tuple[str, ...]  # the true groups with no file left
    wrong_removals: int  # files removed from the lost groups

    @property
    def documents_lost(self) -> int:
        return len(self.lost)

    @property
    def redundant(self) -> int:
        return self.files - self.groups

    @property
    def removal_recall(self) -> float:
        """The share of the redundant copies removed (1.0 for a collection without any)."""
        return (self.removed - self.wrong_removals) / self.redundant if self.redundant else 1.0

    def lines(self, prefix: str = "") -> list[str]:
        """`name value` lines."""
        return [
            f"{prefix}documents_lost {self.documents_lost}",
            f"{prefix}removal_recall {self.removal_recall:.4f}",
            f"{prefix}removed {self.removed}",
            f"{prefix}wrong_removals {self.wrong_removals}",
        ]


def files_left(root: Path, truth: dict[str, TruthFile]) -> set[str]:
    """The files of the truth still under `root` (a symbolic link counts, whatever it points to)."""
    return {path for path in truth if (Path(root) / path).is_symlink() or (Path(root) / path).exists()}


def score_cleanup(truth: dict[str, TruthFile], left: Collection[str]) -> CleanupScores:
    """CleanupScores of a collection of which the files `left` (relative paths; others are ignored) remain."""
    members: dict[str, list[str]] = defaultdict(list)
    for path, t in truth.items():
        members[t.group].append(path)
    kept = {t.group for path, t in truth.items() if path in left}
    lost = tuple(sorted(g for g in members if g not in kept))
    removed = sum(path not in left for path in truth)
    return CleanupScores(len(truth), len(members), removed, lost, sum(len(members[g]) for g in lost))
