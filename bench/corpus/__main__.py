"""`python -m bench.corpus OUT [--size small|medium|large] [--seed N]`: write a collection and its truth.json."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bench.corpus.collection import SIZES, build
from bench.corpus.sources import MissingSource


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.corpus", description=__doc__)
    ap.add_argument("out", type=Path, help="the folder to write (replaced if it exists)")
    ap.add_argument("--size", choices=SIZES, default="small",
                    help=", ".join(f"{k}: ~{v:,} documents" for k, v in SIZES.items()))
    ap.add_argument("--seed", type=int, default=7, help="the same seed writes the same collection (default 7)")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    try:
        summary = build(args.out, args.size, args.seed)
    except MissingSource as e:
        sys.exit(f"bench.corpus: {e}")
    print(f"{summary} written to {args.out} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
