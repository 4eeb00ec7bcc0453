"""What reading, folding and normalising cost alone, against another version: the CPU seconds of the scan's
read of every file of a folder (read_text_file: open, read, decode, hash, markup; through a ReadAhead of the
list, links not followed, as the scan reads, where the version has one), of `fold` over every text and of
`without_links` + `normalize_folded` over every folded text, in one process, best of 3 each, and whether the
two versions' texts, folded and normalised forms are the same.

    python -m bench.reading FOLDER [--baseline DIR] [--rounds 2]

`--baseline` is a folder holding another version's `simdesk` package (bench.versions); the versions run
alternately, `--rounds` times each. Prints `name value unit` lines.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import inspect
import json
import time
from pathlib import Path

from bench import versions

STEPS = ("read", "fold", "normalise")


def measure(folder: Path) -> dict:
    """Best-of-3 CPU seconds of each step over every file of `folder`, and a digest of what they give."""
    from simdesk.core import DecodeError, ScanOptions, read_text_file, walk

    # the scan's inner steps, not the engine's public surface (as bench.stages times them)
    normalize = importlib.import_module("simdesk.core.reading.normalize")
    fold, normalize_folded, without_links = normalize.fold, normalize.normalize_folded, normalize.without_links

    options = ScanOptions()
    entries = list(walk(folder, options.includes, options.max_bytes))
    # the scan's own argument: the walk's string where read_text_file takes one, a Path before
    by_string = "str" in str(inspect.signature(read_text_file).parameters["path"].annotation)

    read_ahead = getattr(importlib.import_module("simdesk.core.reading.documents"), "ReadAhead", None)
    paths = [e.location if by_string else e.path for e in entries]

    def read_all() -> list[str]:
        out = []
        with contextlib.ExitStack() as stack:
            ahead = None if read_ahead is None else stack.enter_context(read_ahead(paths, follow_links=False))
            extra = {} if ahead is None else {"ahead": ahead}
            for path in paths:
                try:
                    out.append(read_text_file(path, options.max_bytes, False, **extra).text)
                except (OSError, DecodeError):
                    pass
        return out

    def best(step):
        times = []
        for _ in range(3):
            start = time.process_time()
            result = step()
            times.append(time.process_time() - start)
        return min(times), result

    fold("臺灣")  # OpenCC and the tables loaded before the clock runs
    seconds = {}
    seconds["read"], texts = best(read_all)
    seconds["fold"], folded = best(lambda: [fold(t) for t in texts])
    seconds["normalise"], normal = best(lambda: [normalize_folded(without_links(f), strip_links=False) for f in folded])
    digest = hashlib.sha256("\0".join(texts + folded + normal).encode("utf-8", "surrogatepass")).hexdigest()
    return {"seconds": seconds, "digest": digest, "files": len(entries), "texts": len(texts)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="the folder whose files are read")
    parser.add_argument("--baseline", type=Path, help="a folder holding another version's simdesk package")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each version, alternately")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)  # one run, in the version's code
    args = parser.parse_args()
    if args.child:
        import simdesk

        print(json.dumps(measure(args.folder) | {"code": simdesk.__file__}))
        return
    runs, load = versions.runs(__file__, [str(args.folder)], args.baseline, args.rounds)
    for name, rs in runs.items():
        print(f"reading_{name}_code {rs[0]['code']} ({rs[0]['files']} files, {rs[0]['texts']} texts, load {load:.1f})")
        for step in STEPS:
            best = min(r["seconds"][step] for r in rs) / rs[0]["files"] * 1e6
            print(
                f"reading_{name}_{step} "
                + " ".join(f"{r['seconds'][step]:.3f}" for r in rs)
                + f" s CPU ({best:.1f} µs a file, best)"
            )
    if "baseline" in runs:
        for step in STEPS:
            ratio = min(r["seconds"][step] for r in runs["this"]) / min(r["seconds"][step] for r in runs["baseline"])
            print(f"reading_ratio_{step} {ratio:.2f} (this / baseline, best)")
        equal = all(r["digest"] == runs["this"][0]["digest"] for rs in runs.values() for r in rs)
        print(f"reading_same_results {int(equal)} (1: the same texts, folded and normalised forms)")


if __name__ == "__main__":
    main()
