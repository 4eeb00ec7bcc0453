"""What telling template fills apart costs verification: every pair an analysis of FOLDER scored (its index's
stored scores) is scored again in this process with verify.similarity, once as it is and once with the texts'
whole normalised text left out of their profiles (no template_fill check beyond short texts), alternating
rounds; CPU time (which other work on a shared machine disturbs less than wall time), the median of the rounds.

    python -m simdesk scan FOLDER --db DB      # first: an analysed index
    python tools/fill_cost.py FOLDER DB [--rounds 3]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from pathlib import Path

from simdesk.core.fingerprint.similarity import FILL_SCORE, Profile, similarity
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import collection_boilerplate
from simdesk.core.matching.reread import verification_profile
from simdesk.core.reading.texts import texts_of


def timed(pairs: list[tuple[Profile, Profile]]) -> tuple[float, list[float]]:
    started = time.process_time()
    scores = [similarity(a, b) for a, b in pairs]
    return time.process_time() - started, scores


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        prog="python tools/fill_cost.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("folder", type=Path)
    ap.add_argument("db", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    with Index(args.db) as index:
        snap = index.snapshot()
        boilerplate = collection_boilerplate(index)
        stored = index.scores()
        texts = texts_of(args.folder, index)
    row_of = {int(doc_id): row for row, doc_id in enumerate(snap.ids)}
    rows = sorted({row_of[x] for pair in stored for x in pair if x in row_of})
    started = time.process_time()
    profiles = {row: verification_profile(texts.read_or_none(snap.paths[row]), boilerplate) for row in rows}
    build = time.process_time() - started
    pairs = [(profiles[row_of[a]], profiles[row_of[b]]) for a, b in stored if a in row_of and b in row_of]
    plain = [(dataclasses.replace(a, filled=""), dataclasses.replace(b, filled="")) for a, b in pairs]
    with_fill, without = [], []
    for _ in range(args.rounds):
        seconds, scores = timed(pairs)
        with_fill.append(seconds)
        seconds, plain_scores = timed(plain)
        without.append(seconds)
    capped = sum(s <= FILL_SCORE < p for s, p in zip(scores, plain_scores))
    filled_chars = sum(len(p.filled) for p in profiles.values())
    print(
        f"{len(pairs)} scored pairs, {len(profiles)} profiles (built in {build:.1f} s CPU, whole normalised "
        f"texts {filled_chars / 1e6:.1f} M characters held)"
    )
    print(
        f"similarity: {statistics.median(with_fill):.2f} s CPU with fills told apart, "
        f"{statistics.median(without):.2f} s without (ratio {statistics.median(with_fill) / statistics.median(without):.3f}); "
        f"{capped} pairs capped at {FILL_SCORE} by it"
    )


if __name__ == "__main__":
    main()
