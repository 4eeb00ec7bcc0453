"""A keep rule over every group and the clean-up plan that follows, deciding whether each short member is short
from what verification stored (no file read) against the same index with nothing stored (each member of at
most SHORT_BYTES bytes whose words differ from the kept copy's read, as for an index written before the flags
were), in alternating rounds on copies of one index, one `name value unit` line each:

- cleanup_rule_plan_s_stored / _read: Review.keep_by_rule_everywhere(RULE) then Review.plan_cleanup() on a
  review opened from the index (no rescan), the median of the rounds;
- cleanup_rule_plan_ratio: stored / read, the median of each round's ratio;
- cleanup_files_read_stored / _read: the texts the review read for the rule and the plan (the last round);
- cleanup_fates_equal: whether every member's fate and reason agree between the two.

    python -m bench.cleanup_plan /tmp/c_medium --db /tmp/c_medium.sqlite --rule oldest --rounds 3
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from simdesk.core import Index, ReviewSettings, Texts, open_review


@dataclass(frozen=True)
class CountedTexts(Texts):
    """Texts that count the documents read through them."""

    read_paths: list[str] = field(default_factory=list, compare=False)

    def read_or_none(self, rel: str, ahead: Any = None) -> str | None:  # ahead: a ReadAhead (Texts.read_ahead)
        self.read_paths.append(rel)
        return super().read_or_none(rel, ahead)


def rule_and_plan(root: Path, db: Path, rule: str) -> tuple[float, list[tuple[int, str, str, str]], int]:
    """Seconds of the rule and the plan on a review opened from `db`, every member's (group, path, fate,
    why), and how many texts the review read for them."""
    with Index(db) as index:
        review = open_review(root, index, ReviewSettings(), rescan=False)
    counted = CountedTexts(review.texts.root, review.texts.max_bytes, review.texts.uri_prefix)
    review = replace(review, texts=counted)
    started = time.perf_counter()
    review.keep_by_rule_everywhere(rule)
    plan = review.plan_cleanup()
    seconds = time.perf_counter() - started
    return seconds, sorted((g, f.path, f.fate, f.why) for g, f in plan.fates), len(counted.read_paths)


def rule_arguments(prog: str, description: str, rounds: int) -> argparse.ArgumentParser:
    """The arguments of a benchmark of a keep rule on an indexed folder: FOLDER --db INDEX --rule --rounds."""
    ap = argparse.ArgumentParser(prog=prog, description=description)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--db", type=Path, required=True, help="an index of the folder (`simdesk scan DIR --db DB`)")
    ap.add_argument("--rule", default="oldest")
    ap.add_argument("--rounds", type=int, default=rounds)
    return ap


def main(argv: list[str] | None = None) -> None:
    args = rule_arguments("python -m bench.cleanup_plan", __doc__.splitlines()[0], 3).parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="simdesk-cleanup-plan-") as tmp:
        stored, read = Path(tmp) / "stored.sqlite", Path(tmp) / "read.sqlite"
        shutil.copyfile(args.db, stored)
        shutil.copyfile(args.db, read)
        with sqlite3.connect(read) as conn:  # as an index written before the flags were stored
            conn.execute("UPDATE documents SET short = NULL")
        times: dict[str, list[float]] = {"stored": [], "read": []}
        fates: dict[str, list] = {}
        reads: dict[str, int] = {}
        for _ in range(args.rounds):
            for name, db in (("stored", stored), ("read", read)):
                seconds, fates[name], reads[name] = rule_and_plan(args.folder, db, args.rule)
                times[name].append(seconds)
    for name in ("stored", "read"):
        print(
            f"cleanup_rule_plan_s_{name} {statistics.median(times[name]):.2f} s  # keep rule {args.rule} over every "
            f"group and the plan, rounds {', '.join(f'{t:.2f}' for t in times[name])}"
        )
    ratios = [s / r for s, r in zip(times["stored"], times["read"])]
    print(f"cleanup_rule_plan_ratio {statistics.median(ratios):.3f} x  # stored / read, each round's")
    for name in ("stored", "read"):
        print(f"cleanup_files_read_{name} {reads[name]:,} files  # read by the review for the rule and the plan")
    print(f"cleanup_fates_equal {fates['stored'] == fates['read']}  # {len(fates['stored']):,} members' fates")


if __name__ == "__main__":
    main()
