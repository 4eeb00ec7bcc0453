"""Scoring candidate pairs: the CPU time of `pair_scores.scored` (what verification runs on a chunk of candidate
pairs; `candidate_relation` pair by pair in a version without it) over an analysed index's scored pairs, against
another version, and whether every score and share is the same bit for bit.

    simdesk scan DIR --db DB                      # once: the index and its scored pairs
    python -m bench.pair_scoring --index DB --folder DIR [--baseline OTHER] [--rounds 3] [--every 1]

The pairs are those the index keeps a score for (`--every N`: one in N), each with the flags verification gave
it (`band_flags` on the fingerprints its pairs were searched with), in order of their documents' ids; the
profiles are made first from the texts under DIR (not timed), as verification makes them. Each version runs in
its own process, alternately, `--rounds` times; `--baseline` is a folder holding another version's `simdesk`
package (`git archive REV simdesk | tar -x -C OTHER`). Prints `name value unit` lines: each version's best CPU
seconds and per pair, the ratio, and whether the results are equal (a digest of every score and both shares,
NaN and None included).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench import versions


def scoring() -> dict[str, Any]:
    """The functions verification scores a pair with, from the version on the path (public in simdesk.core since
    this benchmark; from their modules in a version before)."""
    names = {
        "candidate_relation": "matching.analysis",
        "band_flags": "matching.analysis",
        "verification_profile": "matching.reread",
    }
    core = importlib.import_module("simdesk.core")
    found = {
        name: getattr(core, name, None) or getattr(importlib.import_module(f"simdesk.core.{module}"), name)
        for name, module in names.items()
    }
    try:  # a chunk of pairs scored in one call (a version before: each pair by candidate_relation)
        found["scored"] = importlib.import_module("simdesk.core.matching.pair_scores").scored
    except (ImportError, AttributeError):
        found["scored"] = None
    return found


def measure(args: argparse.Namespace) -> dict[str, object]:
    """This process's version: the CPU seconds of scoring the index's pairs and a digest of the results."""
    from simdesk.core import DecodeError, Index, VerifySettings, collection_boilerplate, read_text_file

    fn = scoring()
    index = Index(args.index)
    snap = index.snapshot()
    row = {int(d): r for r, d in enumerate(snap.ids)}
    keys = sorted(index.scores())[:: args.every]
    i = np.array([row[a] for a, _ in keys], dtype=np.int64)
    j = np.array([row[b] for _, b in keys], dtype=np.int64)
    searched = index.paired_fingerprints()[0]
    d = np.bitwise_count(searched[i] ^ searched[j]).astype(np.int64)
    beyond, near = fn["band_flags"](i, j, d, snap.fingerprints, snap.chars, VerifySettings())
    boilerplate = collection_boilerplate(index)
    profiles = {}
    for r in sorted(set(i.tolist()) | set(j.tolist())):
        try:
            text = read_text_file(args.folder / snap.paths[r], VerifySettings().max_bytes).text
        except (OSError, DecodeError):
            text = ""
        profiles[r] = fn["verification_profile"](text, boilerplate)
    left, right = [profiles[a] for a in i.tolist()], [profiles[b] for b in j.tolist()]
    started = time.process_time()
    if fn["scored"] is not None:  # the pairs in one list, as verification scores a chunk of them
        scores, held = fn["scored"](left, right, beyond, near)
        out = np.column_stack([scores, held])
    else:
        out = np.full((len(i), 3), np.nan)
        for k, (a, b, band, plain) in enumerate(zip(left, right, beyond.tolist(), near.tolist())):
            rel = fn["candidate_relation"](a, b, band, plain)
            if rel is not None:
                out[k] = (rel.score, rel.a_in_b, rel.b_in_a)
    cpu = time.process_time() - started
    out[np.isnan(out[:, 0])] = -1.0  # -1: not kept (None)
    return {"pairs": len(i), "band": int(beyond.sum()), "cpu": cpu, "digest": hashlib.sha1(out.tobytes()).hexdigest()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", type=Path, required=True, help="an index scanned before (with --folder)")
    parser.add_argument("--folder", type=Path, required=True, help="the folder of --index")
    parser.add_argument("--every", type=int, default=1, help="score one pair in N")
    got = versions.measured(parser, measure, __file__)
    if got is None:
        return
    args, runs, load = got
    first = runs["this"][0]
    print(f"pair_scoring_pairs {first['pairs']} pairs ({first['band']} proposed by the bands alone)")
    best = {name: min(r["cpu"] for r in rs) for name, rs in runs.items()}
    for name, seconds in best.items():
        print(f"pair_scoring_{name}_code {runs[name][0]['code']}")
        print(
            f"pair_scoring_{name}_cpu {seconds:.3f} s (best of {args.rounds}, load {load:.1f}; "
            f"{1000 * seconds / max(first['pairs'], 1):.3f} ms a pair; runs "
            + " ".join(f"{r['cpu']:.2f}" for r in runs[name])
            + ")"
        )
    if "baseline" in best:
        ratios = [t["cpu"] / b["cpu"] for t, b in zip(runs["this"], runs["baseline"])]
        print(
            f"pair_scoring_ratio {best['this'] / best['baseline']:.3f} (this / baseline, best of each; round by "
            "round " + " ".join(f"{x:.3f}" for x in ratios) + ")"
        )
        equal = all(r["digest"] == first["digest"] for rs in runs.values() for r in rs)
        print(f"pair_scoring_equal {int(equal)} (1: every score and share the same, bit for bit)")


if __name__ == "__main__":
    main()
