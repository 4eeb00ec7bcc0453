"""Where a scan's time goes: the scan run in this process (no workers), each stage timed by a wrapper.

    python -m bench.stages FOLDER [--segmenter jieba|auto]
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import defaultdict
from pathlib import Path

STAGES = (
    ("simdesk.core.scan", "walk", "list the folder"),
    ("simdesk.core.scan", "read_text_file", "read + decode + hash"),
    ("simdesk.core.features", "normalize", "normalise"),
    ("simdesk.core.features", "segment", "segment"),
    ("simdesk.core.scan", "weighted_terms", "features (incl. normalise + segment)"),
    ("simdesk.core.scan", "simhash", "SimHash"),
    ("simdesk.core.scan", "votes", "SimHash votes"),
    ("simdesk.core.scan", "from_votes", "SimHash from votes"),
    ("simdesk.core.scan", "line_hashes", "line hashes"),
    ("simdesk.core.index", "Index.upsert_documents", "write the index"),
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--segmenter", default="auto")
    args = ap.parse_args()
    os.environ["SIMDESK_SEGMENTER"] = args.segmenter
    import importlib

    importlib.import_module("simdesk.core.segmenter_preload")  # what a worker has loaded before its first file
    from simdesk.core import default_segmenter

    default_segmenter()
    spent: dict[str, float] = defaultdict(float)

    def timed(fn, label):
        if label == "list the folder":  # a generator: time each step of it
            def walk(*a, **k):
                it = fn(*a, **k)
                while True:
                    t = time.perf_counter()
                    try:
                        item = next(it)
                    except StopIteration:
                        spent[label] += time.perf_counter() - t
                        return
                    spent[label] += time.perf_counter() - t
                    yield item
            return walk

        def wrapper(*a, **k):
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                spent[label] += time.perf_counter() - t
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
    print(f"scan_in_process_seconds {total:.2f} s ({s.listed} files, {s.chars} chars, {default_segmenter().choice.name})")
    print(f"scan_in_process_cpu_seconds {cpu:.2f} s")
    inner = spent["normalise"] + spent["segment"]
    spent["features (incl. normalise + segment)"] -= inner
    for _, _, label in STAGES:
        if label not in spent:
            continue
        shown = "features: stop words, numbers, TF x IDF" if label.startswith("features") else label
        print(f"stage[{shown}] {spent[label]:.2f} s ({100 * spent[label] / total:.0f}%)")
    rest = total - sum(spent.values())
    print(f"stage[everything else] {rest:.2f} s ({100 * rest / total:.0f}%)")


if __name__ == "__main__":
    main()
