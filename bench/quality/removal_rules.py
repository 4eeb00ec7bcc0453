"""Which removal rule loses no document: every keep rule applied to every group of a collection with a
truth.json, the plan computed for several rules of when a copy goes (the shares verification keeps), scored
as documents lost (true groups with no file left) and removal recall (redundant copies removed). The last row
is simdesk's own rule (member_fates, as `simdesk clean` plans it): both hold >= 70% of each other, and a short
text written in characters goes only beside a copy with the same words.

    python -m bench.quality.removal_rules CORPUS_DIR [--db INDEX]

One scan (or the index given), then each rule in memory; nothing is moved.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from simdesk.core import GOES, KEEP_RULES, Index, KeepChain, ReviewSettings, member_fates, open_review

# (name, least share of the copy the kept text holds, least share of the kept text the copy holds, never the
# fuller text: a copy holding more of the kept text than the kept text holds of it stays)
RULES = (
    ("the kept copy holds >= 70% of it (one way)", 0.7, 0.0, False),
    ("both hold >= 70% of each other", 0.7, 0.7, False),
    ("one way >= 85%", 0.85, 0.0, False),
    ("one way >= 95%", 0.95, 0.0, False),
    ("both >= 70%, never the fuller text", 0.7, 0.7, True),
)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        prog="python -m bench.quality.removal_rules",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--db", type=Path, help="the collection's index (default: a new one in a temporary folder)")
    args = ap.parse_args(argv)
    files = json.loads((args.corpus / "truth.json").read_text(encoding="utf-8"))["files"]
    truth = {path: meta["group"] for path, meta in files.items()}
    members: dict[str, list[str]] = {}
    for path, group in truth.items():
        members.setdefault(group, []).append(path)
    redundant = sum(len(m) - 1 for m in members.values())
    with tempfile.TemporaryDirectory() as tmp, Index(args.db or Path(tmp) / "index.sqlite") as index:
        review = open_review(args.corpus, index, ReviewSettings())
    grouping = review.grouping()
    row = grouping.snapshot_row
    groups = list(grouping)

    def cell(removed: set[str]) -> str:
        left = set(truth) - removed
        lost = sum(1 for paths in members.values() if not any(p in left for p in paths))
        right = sum(1 for p in removed if any(q in left for q in members[truth[p]]))
        return f"{lost} lost, {right / redundant:.3f}"

    print("| a copy goes when | " + " | ".join(KEEP_RULES) + " |")
    print("|---|" + "---|" * len(KEEP_RULES))
    for name, forward, back, fuller in RULES:
        cells = []
        for rule in KEEP_RULES:
            chain = KeepChain.parse(rule)
            removed = set()
            for group in groups:
                kept = chain.choose(group.members).path
                for m in group.members:
                    held, holds = grouping.held(row(m.path), row(kept)), grouping.held(row(kept), row(m.path))
                    if m.path == kept or held is None or holds is None:
                        continue
                    if held >= forward and holds >= back and not (fuller and holds > held):
                        removed.add(m.path)
            cells.append(cell(removed))
        print(f"| {name} | " + " | ".join(cells) + " |")
    held_by, least = review.held(), review.min_similarity
    cells = []
    for rule in KEEP_RULES:
        chain = KeepChain.parse(rule)
        removed = {
            f.path
            for group in groups
            for f in member_fates(
                group, {chain.choose(group.members).path}, (), None, held_by, least, review.short_text
            )
            if f.fate == GOES
        }
        cells.append(cell(removed))
    print("| simdesk's rule: both >= 70%, a short text only beside the same words | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
