"""`python -m bench.quality run|kit|score|features ...`: see bench/quality/__init__.py."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from bench.corpus.sources import MissingSource
from bench.quality import __doc__ as GUIDE
from bench.quality.kit import CLASSES


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.quality", description=GUIDE,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="make the kit's collection under --work, then score it")
    run.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "simdesk-quality")
    kit = sub.add_parser("kit", help="make the kit's collection")
    kit.add_argument("out", type=Path)
    for p in (run, kit):
        p.add_argument("--size", choices=("small", "full"), default="full")
        p.add_argument("--seed", type=int, default=11)
        p.add_argument("--classes", default=",".join(CLASSES),
                       help="comma-separated classes to make (default: all; template needs no source text)")
    score = sub.add_parser("score", help="score simdesk and its peers on a collection with a truth.json")
    score.add_argument("folder", type=Path)
    for p in (run, score):
        p.add_argument("--no-peers", action="store_true", help="simdesk only")
        p.add_argument("--json", type=Path, help="also write the scores to this file")
    features = sub.add_parser("features", help="simdesk's feature options, one by one")
    features.add_argument("folder", type=Path)
    args = ap.parse_args(argv)

    if args.command == "features":
        from bench.quality.features import features as run_features

        run_features(args.folder)
        return
    if args.command == "run":  # a kit of some classes only is made beside the whole one
        some = "" if args.classes == ",".join(CLASSES) else "-" + args.classes.replace(",", "-")
        folder = args.work / f"kit-{args.size}-{args.seed}{some}"
    else:
        folder = args.folder if args.command == "score" else args.out
    if args.command in ("run", "kit"):
        from bench.quality.kit import build

        started = time.perf_counter()
        try:
            counts = build(folder, args.size, args.seed, tuple(c for c in args.classes.split(",") if c))
        except MissingSource as e:
            sys.exit(f"bench.quality: {e}")
        print(f"kit ({args.size}, seed {args.seed}): {sum(counts.values())} files in {folder} "
              f"({', '.join(f'{k} {v}' for k, v in counts.items())}), made in {time.perf_counter() - started:.1f} s",
              flush=True)
        if args.command == "kit":
            return
    from bench.quality.score import all_runs, table

    text, data = table(folder, all_runs(folder, peers=not args.no_peers))
    print(text)
    if args.json:
        args.json.write_text(json.dumps(data, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
