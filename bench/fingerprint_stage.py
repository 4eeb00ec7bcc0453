"""The fingerprint stage's CPU: what a scan worker spends per text after reading it (index/scan.py text_document:
fold, line hashes, normal form, SimHash votes, MinHash band keys), against another version, and whether every
Document is the same.

    python -m bench.fingerprint_stage FOLDER [--baseline OTHER] [--rounds 3] [--workers 2]

The texts are read first (not timed). The CPU time is that of a worker's share of them, every `--workers`-th
chunk of the scan's chunks (CHUNK_FILES texts), fingerprinted in a fresh process as a worker does (its vocabulary
empty at the start, what the workers' fork server loads loaded): `cold`; then the same share again (`warm`: every token and block met). Each version runs in
its own process, alternately, `--rounds` times; `--baseline` is a folder holding another version's `simdesk`
package (`git archive REV simdesk | tar -x -C OTHER`, plus its built kernels). Prints `name value unit` lines:
each version's best CPU seconds and per text, the ratio, and whether every Document (fingerprint, line hashes,
votes, band keys) is the same.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import time
from pathlib import Path

from bench import versions


def measure(args: argparse.Namespace) -> dict[str, object]:
    """This process's version: the CPU seconds of text_document over a worker's share, cold then warm, and a
    digest of the Documents."""
    from simdesk.core import DEFAULT_FEATURES, DecodeError, ScanOptions, read_text_file, walk

    # the scan's inner step, not the engine's public surface (as bench.reading times its steps)
    scan = importlib.import_module("simdesk.core.index.scan")
    text_document, CHUNK_FILES = scan.text_document, scan.CHUNK_FILES

    options = ScanOptions()
    entries = list(walk(args.folder, options.includes, options.max_bytes))
    share = [e for k, e in enumerate(entries) if (k // CHUNK_FILES) % args.workers == 0]
    texts = []
    for e in share:
        try:
            texts.append((e.rel, read_text_file(e.location, options.max_bytes, False)))
        except (OSError, DecodeError):
            pass
    # what the workers' fork server loads before it forks them (core/worker_preload.py)
    features = importlib.import_module("simdesk.core.fingerprint.features")
    features.idf_table()
    features.stop_words()
    importlib.import_module("simdesk.core.reading.normalize").fold("臺灣 \u0420ython\u00ad")
    importlib.import_module("simdesk.core.fingerprint.segmenter").default_segmenter()
    seconds = {}
    digest = hashlib.sha1()
    for name in ("cold", "warm"):
        started = time.process_time()
        documents = [text_document(rel, tf, DEFAULT_FEATURES) for rel, tf in texts]
        seconds[name] = time.process_time() - started
    for d in documents:
        digest.update(f"{d.path}\0{d.fingerprint}\0".encode() + d.line_hashes + d.votes + d.bands)
    return {"texts": len(texts), "seconds": seconds, "digest": digest.hexdigest()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="the folder whose texts are fingerprinted")
    parser.add_argument("--workers", type=int, default=2, help="the share of one of this many workers")
    got = versions.measured(parser, measure, __file__)
    if got is not None:
        report(*got)


def report(args: argparse.Namespace, runs: dict[str, list[dict]], load: float) -> None:
    first = runs["this"][0]
    print(f"fingerprint_stage_texts {first['texts']} texts (a share of {args.workers} workers', load {load:.1f})")
    for name, rs in runs.items():
        print(f"fingerprint_stage_{name}_code {rs[0]['code']}")
        for step in ("cold", "warm"):
            best = min(r["seconds"][step] for r in rs)
            print(
                f"fingerprint_stage_{name}_{step} {best:.3f} s CPU (best of {args.rounds}; "
                f"{1e6 * best / max(first['texts'], 1):.1f} µs a text; runs "
                + " ".join(f"{r['seconds'][step]:.2f}" for r in rs)
                + ")"
            )
    if "baseline" in runs:
        for step in ("cold", "warm"):
            this, base = (min(r["seconds"][step] for r in runs[n]) for n in ("this", "baseline"))
            rounds = " ".join(
                f"{t['seconds'][step] / b['seconds'][step]:.3f}" for t, b in zip(runs["this"], runs["baseline"])
            )
            print(f"fingerprint_stage_ratio_{step} {this / base:.3f} (this / baseline, best; round by round {rounds})")
        equal = all(r["digest"] == first["digest"] for rs in runs.values() for r in rs)
        print(f"fingerprint_stage_equal {int(equal)} (1: every Document the same)")


if __name__ == "__main__":
    main()
