"""What verification's re-read of a text costs, against another version: the CPU seconds per text of
reread.profiles_of (read, decode, fold, the profile without boilerplate, the packed headline, the short flag)
over `--texts` files of a folder (one in every few, in path order), in one process, best of `--rounds`, and
whether the two versions give the same profile, headline and short flag for every file of the folder.

    python -m bench.reread FOLDER [--baseline DIR] [--texts 4000] [--rounds 3]

The boilerplate is the folder's own, as verification's: the frequent lines (boilerplate_set) of its distinct
texts. `--baseline` is a folder holding another version's `simdesk` package (bench.versions); the versions run
alternately, `--rounds` times each. Prints `name value unit` lines.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench import versions


def profile_digest(prof: Any, digest: Any) -> None:
    """Feed a Profile's compared fields (its caches left out) to `digest`, nested profiles and runs included."""
    for f in dataclasses.fields(prof):
        if not f.compare:
            continue
        value = getattr(prof, f.name)
        digest.update(f.name.encode())
        if value is None:
            digest.update(b"\0none")
        elif isinstance(value, np.ndarray):
            digest.update(str(value.dtype).encode() + value.tobytes())
        elif isinstance(value, tuple):
            for run in value:
                digest.update(f"{run.units},{run.width}".encode() + run.hashes.tobytes())
        elif dataclasses.is_dataclass(value):
            profile_digest(value, digest)
        else:
            digest.update(repr(value).encode("utf-8", "surrogatepass"))


def measure(folder: Path, texts_wanted: int, check: bool) -> dict:
    """CPU seconds of profiles_of over `texts_wanted` files, and (with `check`) a digest of what it gives for each
    file of the folder."""
    from simdesk.core import DecodeError, ScanOptions, Texts, walk

    # verification's inner steps, not the engine's public surface (as bench.stages times them)
    profiles_of = importlib.import_module("simdesk.core.matching.reread").profiles_of
    boilerplate = importlib.import_module("simdesk.core.reading.boilerplate")

    options = ScanOptions()
    rels = sorted(e.rel for e in walk(folder, options.includes, options.max_bytes))
    texts = Texts(folder, options.max_bytes)
    distinct: dict[str, np.ndarray] = {}
    for rel in rels:
        try:
            text = texts.read(rel).text
        except (OSError, DecodeError):
            continue
        if text not in distinct:
            distinct[text] = boilerplate.line_hashes(text)
    frequent = boilerplate.boilerplate_set(distinct.values(), len(distinct))
    del distinct
    step = max(1, len(rels) // texts_wanted)
    timed = rels[::step][:texts_wanted]
    profiles_of(texts, timed[:50], frequent)  # OpenCC and the tables loaded before the clock runs
    start = time.process_time()
    profiles_of(texts, timed, frequent)
    seconds = time.process_time() - start
    out: dict = {"seconds": seconds, "texts": len(timed), "files": len(rels), "boilerplate": len(frequent)}
    if check:
        digests = []
        for prof, head, short in profiles_of(texts, rels, frequent):
            digest = hashlib.blake2b(digest_size=12)
            profile_digest(prof, digest)
            digest.update(head.encode("utf-8", "surrogatepass") + f"\0{short}".encode())
            digests.append(digest.hexdigest())
        out |= {"rels": rels, "digests": digests}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="the folder whose files are read")
    parser.add_argument("--texts", type=int, default=4000, help="files timed")
    parser.add_argument("--baseline", type=Path, help="a folder holding another version's simdesk package")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each version, alternately")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)  # one run, in the version's code
    parser.add_argument("--check", action="store_true", help=argparse.SUPPRESS)  # ... that digests every file
    args = parser.parse_args()
    if args.child:
        import simdesk

        print(json.dumps(measure(args.folder, args.texts, args.check) | {"code": simdesk.__file__}))
        return
    runs, load = versions.runs(__file__, [str(args.folder), "--texts", str(args.texts)], args.baseline, args.rounds)
    versions.print_per_text(
        "reread", runs, load, lambda r: f"{r['texts']} texts of {r['files']}, {r['boilerplate']} frequent lines"
    )
    if "baseline" in runs:
        checked, _ = versions.runs(__file__, [str(args.folder), "--texts", "50", "--check"], args.baseline, 1)
        this, base = checked["this"][0], checked["baseline"][0]
        differ = [rel for rel, a, b in zip(this["rels"], this["digests"], base["digests"]) if a != b]
        same = this["rels"] == base["rels"] and not differ
        print(
            f"reread_same_results {int(same)} (1: the same profile, headline and short flag for all {len(this['rels'])} files)"
        )
        for rel in differ[:10]:
            print(f"reread_differs {rel}")


if __name__ == "__main__":
    main()
