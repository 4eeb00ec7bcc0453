"""A keep rule's marks over every group applied and undone in memory, as the window does on its thread, one
`name value unit` line each:

- keep_marks_apply_ms: Review.keep_choices of a rule's choices over every group (the median of the rounds);
- keep_marks_undo_ms: Decisions.undo() of them (the median);
- keep_marks_count_s: the count of the decided groups that follows (Review.decided, off the window's thread),
  the first after the rule.

    python -m bench.keep_marks /tmp/c_medium --db /tmp/c_medium.sqlite --rule oldest --rounds 7
"""

from __future__ import annotations

import statistics
import time

from bench.cleanup_plan import rule_arguments
from simdesk.core import Index, ReviewSettings, open_review


def main(argv: list[str] | None = None) -> None:
    args = rule_arguments("python -m bench.keep_marks", __doc__.splitlines()[0], 7).parse_args(argv)
    with Index(args.db) as index:
        review = open_review(args.folder, index, ReviewSettings(), rescan=False)
    chosen, _ = review.rule_choices(args.rule, keep=True)  # as the window asks them
    members = sum(len(g.members) for g, _ in chosen)
    review.keep_choices(chosen)
    started = time.perf_counter()
    review.decided()
    count = time.perf_counter() - started
    review.decisions.checkpoint()  # the marks before the rounds: none once undone
    review.decisions.undo()
    applied, undone = [], []
    for _ in range(args.rounds):
        review.decisions.checkpoint()
        started = time.perf_counter()
        review.keep_choices(chosen)
        applied.append(time.perf_counter() - started)
        started = time.perf_counter()
        review.decisions.undo()
        undone.append(time.perf_counter() - started)
    where = f"{len(chosen):,} groups, {members:,} members"
    print(f"keep_marks_apply_ms {statistics.median(applied) * 1000:.1f} ms  # {where}; median of {args.rounds}")
    print(f"keep_marks_undo_ms {statistics.median(undone) * 1000:.1f} ms  # the same marks undone")
    print(f"keep_marks_count_s {count:.2f} s  # the decided groups counted after the rule, the first time")


if __name__ == "__main__":
    main()
