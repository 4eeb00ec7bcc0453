"""Where a scan's time goes: the scan run in this process (no workers), each stage's CPU time measured by a
wrapper (CPU time, which other work on a shared machine disturbs less than wall time; shares are of the scan's CPU).

    python -m bench.stages FOLDER [--segmenter jieba|auto]
    SIMDESK_PURE=1 python -m bench.stages FOLDER      # without the compiled kernels (simdesk/core/compiled.py)
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import defaultdict
from pathlib import Path

STAGES = (
    ("simdesk.core.index.scan", "walk", "list the folder"),
    ("simdesk.core.index.scan", "read_text_file", "read + decode + hash"),
    ("simdesk.core.index.scan", "fold", "fold (NFKC, case, script)"),
    ("simdesk.core.index.scan", "normalize_folded", "normalise (links, wraps, punctuation)"),
    ("simdesk.core.fingerprint.segmenter", "Segmenter.tokens", "segment into tokens"),
    ("simdesk.core.index.scan", "text_votes", "vocabulary: count, ids, filters, TF x IDF, SimHash votes"),
    ("simdesk.core.index.scan", "seal_votes", "SimHash from votes, pack votes"),
    ("simdesk.core.index.scan", "from_votes", "SimHash from votes"),  # engines before seal_votes
    ("simdesk.core.index.scan", "pack_votes", "pack votes"),
    ("simdesk.core.index.scan", "folded_line_hashes", "line hashes"),
    ("simdesk.core.index.scan", "text_bands", "MinHash band keys (shingles, signature)"),
    ("simdesk.core.index.store", "Index.upsert_documents", "write the index"),
)
NESTED = {"vocabulary: count, ids, filters, TF x IDF, SimHash votes": ("segment into tokens",)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--segmenter", default="auto")
    args = ap.parse_args()
    os.environ["SIMDESK_SEGMENTER"] = args.segmenter
    import importlib

    importlib.import_module("simdesk.core.worker_preload")  # what a worker has loaded before its first file
    from simdesk.core import default_segmenter

    default_segmenter()
    spent: dict[str, float] = defaultdict(float)

    def timed(fn, label):
        if label == "list the folder":  # a generator: time each step of it

            def walk(*a, **k):
                it = fn(*a, **k)
                while True:
                    t = time.process_time()
                    try:
                        item = next(it)
                    except StopIteration:
                        spent[label] += time.process_time() - t
                        return
                    spent[label] += time.process_time() - t
                    yield item

            return walk

        def wrapper(*a, **k):
            t = time.process_time()
            try:
                return fn(*a, **k)
            finally:
                spent[label] += time.process_time() - t

        return wrapper

    for module, name, label in STAGES:
        mod = importlib.import_module(module)
        owner, attr = (getattr(mod, name.split(".")[0]), name.split(".")[1]) if "." in name else (mod, name)
        if hasattr(owner, attr):  # stages the engine of this checkout has
            setattr(owner, attr, timed(getattr(owner, attr), label))
    from simdesk.core import Index, ScanOptions, scan_folder

    with tempfile.TemporaryDirectory() as tmp, Index(Path(tmp) / "i.sqlite") as index:
        cpu, t = time.process_time(), time.perf_counter()
        result = scan_folder(args.folder, index, ScanOptions(jobs=1))
        total, cpu = time.perf_counter() - t, time.process_time() - cpu
    s = result.stats
    print(
        f"scan_in_process_seconds {total:.2f} s ({s.listed} files, {s.chars} chars, {default_segmenter().choice.name})"
    )
    print(f"scan_in_process_cpu_seconds {cpu:.2f} s")
    for outer, inner in NESTED.items():  # a stage timed around others is shown without them
        spent[outer] -= sum(spent[label] for label in inner)
    for _, _, label in STAGES:
        if label not in spent:
            continue
        print(f"stage[{label}] {spent[label]:.2f} s ({100 * spent[label] / cpu:.0f}%)")
    rest = cpu - sum(spent.values())
    print(f"stage[everything else] {rest:.2f} s ({100 * rest / cpu:.0f}%)")


if __name__ == "__main__":
    main()
