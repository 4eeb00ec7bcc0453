"""What a text's headline costs (its title, date and source: headline.packed_headline), against another version:
the CPU µs per text of packed_headline over every text of a folder, called as verification calls it (the text,
its fold, its lines, its folded lines and its boilerplate lines, prepared before the clock runs), in one pass in a
fresh process (as a scan's worker meets them: lines kept from earlier texts help only as much as they recur in
the folder), best of `--rounds`; and whether the two versions give the same packed headline for every text.

    python -m bench.headline FOLDER [--baseline DIR] [--rounds 3]

The boilerplate is the folder's own, as verification's: the frequent lines (boilerplate_set) of its distinct
texts. `--baseline` is a folder holding another version's `simdesk` package (bench.versions); the versions run
alternately, `--rounds` times each, each run in a process of its own. Prints `name value unit` lines.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import time
from pathlib import Path

from bench import versions


def measure(args: argparse.Namespace) -> dict:
    """CPU seconds of packed_headline over the folder's texts, and a digest of what it gives for each."""
    from simdesk.core import DecodeError, ScanOptions, Texts, walk

    # verification's inner steps, not the engine's public surface (as bench.reread and bench.stages time them)
    headline = importlib.import_module("simdesk.core.reading.headline")
    boilerplate = importlib.import_module("simdesk.core.reading.boilerplate")
    fold = importlib.import_module("simdesk.core.reading.normalize").fold

    options = ScanOptions()
    rels = sorted(e.rel for e in walk(args.folder, options.includes, options.max_bytes))
    texts = Texts(args.folder, options.max_bytes)
    read: list[tuple[str, str]] = []
    distinct: dict[str, object] = {}
    for rel in rels:
        try:
            text, heading = headline.text_and_heading(texts, rel)
        except (OSError, DecodeError):
            continue
        read.append((text, heading))
        if text not in distinct:
            distinct[text] = boilerplate.line_hashes(text)
    frequent = boilerplate.boilerplate_set(distinct.values(), len(distinct))
    del distinct
    calls = []  # what verification has of each text it reads (reread.profiles_of) when it asks for its headline
    for text, heading in read:
        if text:
            folded = fold(text)
            dropped = boilerplate.boilerplate_lines(text, frequent, folded)
            calls.append((text, folded, heading, dropped, text.splitlines(), folded.splitlines()))
    packed_headline = headline.packed_headline
    none: frozenset[int] = frozenset()
    packed = [""] * len(calls)
    start = time.process_time()
    for k, (text, folded, heading, dropped, lines, folded_lines) in enumerate(calls):
        packed[k] = packed_headline(text, none, folded, heading, dropped, lines, folded_lines)
    seconds = time.process_time() - start
    digest = hashlib.blake2b("\0".join(packed).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
    return {"seconds": seconds, "texts": len(calls), "files": len(rels), "digest": digest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="the folder whose texts are read")
    measured = versions.measured(parser, measure, __file__)
    if measured is None:
        return
    args, runs, load = measured
    versions.print_per_text("headline", runs, load, lambda r: f"{r['texts']} texts of {r['files']} files", 2)
    if "baseline" in runs:
        same = {r["digest"] for rs in runs.values() for r in rs}
        print(f"headline_same_results {int(len(same) == 1)} (1: the same packed headline for every text)")


if __name__ == "__main__":
    main()
