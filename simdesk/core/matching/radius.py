"""The widest Hamming radius the pair search covers, which is the grouping threshold's top. A module that
imports nothing: the command line defines its options with it before it loads the engine."""

from __future__ import annotations

MAX_PAIR_RADIUS = 12  # the widest search (pairs.pairs_within)
MAX_THRESHOLD = MAX_PAIR_RADIUS  # the grouping threshold's top: the slider's, `--threshold`'s
