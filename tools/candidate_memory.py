"""The scanning process's memory through the analysis's first phases, alone: on a copy of an analysed index,
the snapshot, the boilerplate-free fingerprints (kept in the index: nothing is read again), then the candidate
search (SimHash pairs, crowds, MinHash band pairs) and the band flags, every document searched again as a first
analysis searches it. Prints the resident and peak memory (VmRSS, VmHWM) after each step, and the candidates.

    python tools/candidate_memory.py INDEX FOLDER WORK     # INDEX is copied to WORK/a.sqlite first

At a million documents (bench.million's index) it takes minutes; the candidate search is what it measures.
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

import numpy as np

from simdesk.core.fingerprint.minhash import DESKTOP
from simdesk.core.index.store import Index
from simdesk.core.matching import analysis
from simdesk.core.memory import release_freed_memory
from simdesk.core.reading.boilerplate import class_boilerplate
from simdesk.core.reading.texts import texts_of


def memory() -> str:
    """This process's resident and peak memory (Linux)."""
    with open("/proc/self/status") as f:
        status = {line.split(":")[0]: line.split()[1] for line in f if line.startswith(("VmRSS", "VmHWM"))}
    return f"rss {int(status['VmRSS']) // 1024} MB, peak {int(status['VmHWM']) // 1024} MB"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("index", type=Path)
    ap.add_argument("folder", type=Path)
    ap.add_argument("work", type=Path)
    args = ap.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    db = args.work / "a.sqlite"
    for p in args.work.glob("a.sqlite*"):
        p.unlink()
    shutil.copy(args.index, db)
    started = time.perf_counter()

    def step(label: str) -> None:
        print(f"{time.perf_counter() - started:.0f} s, {label}: {memory()}", flush=True)

    verify = analysis.DEFAULT_VERIFY
    step("start")
    with Index(db) as index:
        snap = index.snapshot()
        step("snapshot")
        state = index.analysis_state()
        copies = analysis.identical_copies(snap.hashes)  # every class searched again, as a first analysis does
        boilerplate = class_boilerplate(state[0], copies.representatives)  # as analyse counts it
        texts = texts_of(args.folder, index, verify.max_bytes)
        fps = analysis.clean_fingerprints(texts, index, snap, state, boilerplate, analysis.DEFAULT_FEATURES)
        del state
        release_freed_memory()
        step("boilerplate-free fingerprints")
        dirty = np.zeros(len(fps), dtype=bool)
        dirty[copies.representatives] = True
        keys, empty = index.band_keys(DESKTOP.bands)
        step("band keys")
        i, j, d, _ = analysis.candidates(fps, snap, copies, dirty, keys, empty, index.scores, verify)
        del keys, empty
        step("candidates")
        beyond, _ = analysis.band_flags(i, j, d, snap.fingerprints, snap.chars, verify)
        release_freed_memory()
        step(f"band flags ({len(i):,} candidates, {int(beyond.sum()):,} beyond their radius)")


if __name__ == "__main__":
    main()
