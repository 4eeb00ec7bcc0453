"""`python -m bench.corpus OUT [--size small|medium|large] [--seed N] [--crowd NxK] [--documents N]`: write a
collection and its truth.json."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bench.corpus.collection import SIZES, build
from bench.corpus.sources import MissingSource


def crowd_shape(value: str) -> tuple[int, int]:
    """`20x30` -> (20, 30)."""
    try:
        groups, copies = (int(v) for v in value.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected NxK (e.g. 20x30), not {value!r}") from None
    return groups, copies


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.corpus", description=__doc__)
    ap.add_argument("out", type=Path, help="the folder to write (replaced if it exists)")
    ap.add_argument(
        "--size", choices=SIZES, default="small", help=", ".join(f"{k}: ~{v:,} documents" for k, v in SIZES.items())
    )
    ap.add_argument("--seed", type=int, default=7, help="the same seed writes the same collection (default 7)")
    ap.add_argument(
        "--crowd",
        type=crowd_shape,
        metavar="NxK",
        help="also N large copy groups of K files (re-wrapped, typos), class 'crowd' in truth.json",
    )
    ap.add_argument("--documents", type=int, help="this many documents instead of the size's")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    try:
        summary = build(args.out, args.size, args.seed, args.crowd, args.documents)
    except (MissingSource, ValueError) as e:
        sys.exit(f"bench.corpus: {e}")
    print(f"{summary} written to {args.out} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
