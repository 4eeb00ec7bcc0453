"""`python -m bench.quality run|kit|invisible|score|clean|features ...`: see bench/quality/__init__.py."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from bench.corpus.sources import MissingSource
from bench.quality import __doc__ as GUIDE
from bench.quality.kit import CLASSES


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        prog="python -m bench.quality", description=GUIDE, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="make the kit's collection under --work, then score it")
    run.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "simdesk-quality")
    kit = sub.add_parser("kit", help="make the kit's collection")
    kit.add_argument("out", type=Path)
    invisible = sub.add_parser("invisible", help="make the collection of copies carrying invisible characters")
    invisible.add_argument("out", type=Path)
    for p in (run, kit, invisible):
        p.add_argument("--size", choices=("small", "full"), default="full")
        p.add_argument("--seed", type=int, default=11)
    for p in (run, kit):
        p.add_argument(
            "--classes",
            default=",".join(CLASSES),
            help="comma-separated classes to make (default: all; template needs no source text)",
        )
    score = sub.add_parser("score", help="score simdesk and its peers on a collection with a truth.json")
    score.add_argument("folder", type=Path)
    for p in (run, score):
        p.add_argument("--no-peers", action="store_true", help="simdesk only")
        p.add_argument("--no-clean", action="store_true", help="without the clean-up measure")
    clean = sub.add_parser("clean", help="`simdesk clean --keep RULE` on copies of collections, scored")
    clean.add_argument("folders", type=Path, nargs="+")
    clean.add_argument(
        "--rules",
        default="oldest,newest,largest,shortest-path",
        help="comma-separated keep rules (default: %(default)s)",
    )
    for p in (run, score, clean):
        p.add_argument("--json", type=Path, help="also write the scores to this file")
    features = sub.add_parser("features", help="simdesk's feature options, one by one")
    features.add_argument("folder", type=Path)
    args = ap.parse_args(argv)

    if args.command == "features":
        from bench.quality.features import features as run_features

        run_features(args.folder)
        return
    if args.command == "clean":
        from bench.quality.clean import clean_data, clean_runs, clean_table

        runs = [r for folder in args.folders for r in clean_runs(folder, tuple(args.rules.split(",")))]
        print(clean_table(runs))
        if args.json:
            args.json.write_text(json.dumps(clean_data(runs), indent=2), encoding="utf-8")
        return
    if args.command == "run":  # a kit of some classes only is made beside the whole one
        some = "" if args.classes == ",".join(CLASSES) else "-" + args.classes.replace(",", "-")
        folder = args.work / f"kit-{args.size}-{args.seed}{some}"
    else:
        folder = args.folder if args.command == "score" else args.out
    if args.command in ("run", "kit", "invisible"):
        from bench.quality.invisible import build as build_invisible
        from bench.quality.kit import build

        started = time.perf_counter()
        try:
            if args.command == "invisible":
                counts = build_invisible(folder, args.size, args.seed)
            else:
                counts = build(folder, args.size, args.seed, tuple(c for c in args.classes.split(",") if c))
        except MissingSource as e:
            sys.exit(f"bench.quality: {e}")
        print(
            f"{args.command if args.command == 'invisible' else 'kit'} ({args.size}, seed {args.seed}): "
            f"{sum(counts.values())} files in {folder} ({', '.join(f'{k} {v}' for k, v in counts.items())}), "
            f"made in {time.perf_counter() - started:.1f} s",
            flush=True,
        )
        if args.command != "run":
            return
    from bench.quality.clean import clean_data, clean_runs, clean_table
    from bench.quality.score import all_runs, table

    with tempfile.TemporaryDirectory(prefix="simdesk-quality-") as tmp:
        db = Path(tmp) / "index.sqlite"
        text, data = table(folder, all_runs(folder, peers=not args.no_peers, db=db))
        print(text, flush=True)
        if not args.no_clean:
            runs = clean_runs(folder, index=db)
            print(clean_table(runs))
            data["clean"] = clean_data(runs)
    if args.json:
        args.json.write_text(json.dumps(data, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
