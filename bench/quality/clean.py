"""What `simdesk clean FOLDER --keep RULE` leaves of a collection with a truth.json, for each keep rule: the
real command on a copy of the collection, under a temporary HOME (its trash, action log and data folder are
temporary too), scored by `simdesk.core.evaluation.score_cleanup`: documents lost (true groups with no file
left) and removal recall (the share of the redundant copies removed).

    runs = clean_runs(Path("corpus"))          # every rule; the collection is scanned once
    print(clean_table(runs))

The collection is scanned once into an index (the folder itself is never written to); each rule then gets a
fresh copy of the folder (modification times kept to the nanosecond, so the index's documents are unchanged)
and a copy of that index, as an editor who scanned before cleaning has.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from simdesk.core import CleanupScores, files_left, load_truth, score_cleanup

RULES = ("oldest", "newest", "largest", "shortest-path")


@dataclass(frozen=True)
class CleanRun:
    collection: str
    rule: str
    scores: CleanupScores
    trashed: int  # files `simdesk clean` reported sent to the trash
    skipped: int  # files it reported skipped or failed
    seconds: float  # the command's wall time


def simdesk(args: list[str], home: Path) -> subprocess.CompletedProcess:
    """`python -m simdesk ARGS` with HOME (and the XDG folders) under `home`."""
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
    }
    return subprocess.run([sys.executable, "-m", "simdesk", *args], capture_output=True, text=True, env=env)


def scan_index(root: Path, db: Path, home: Path) -> None:
    """`simdesk scan ROOT --db DB` at the default settings."""
    proc = simdesk(["scan", str(root), "--db", str(db), "--format", "json"], home)
    if proc.returncode != 0:
        raise RuntimeError(f"simdesk scan {root} failed: {proc.stderr.strip()}")


def clean_runs(root: Path, rules: tuple[str, ...] = RULES, index: Path | None = None) -> list[CleanRun]:
    """`simdesk clean COPY --keep RULE` for each rule on a fresh copy of the collection at `root`, scored
    against its truth.json. `index`: an index of `root` at the default settings (`simdesk scan ROOT --db
    INDEX`), copied for each rule; without it the collection is scanned first."""
    root = Path(root)
    truth = load_truth(root)
    runs = []
    with tempfile.TemporaryDirectory(prefix="simdesk-clean-") as tmp:
        work = Path(tmp)
        if index is None:
            index = work / "index.sqlite"
            scan_index(root, index, work / "home")
        for rule in rules:
            home, copy, db = work / f"home-{rule}", work / f"copy-{rule}", work / f"index-{rule}.sqlite"
            shutil.copytree(root, copy, symlinks=True)  # copy2: modification times kept
            shutil.copyfile(index, db)
            started = time.perf_counter()
            proc = simdesk(["clean", str(copy), "--keep", rule, "--db", str(db), "--format", "json"], home)
            seconds = time.perf_counter() - started
            if proc.returncode not in (0, 1):  # 1: some files skipped or failed, listed in the output
                raise RuntimeError(f"simdesk clean --keep {rule} failed: {proc.stderr.strip()}")
            out = json.loads(proc.stdout)
            scores = score_cleanup(truth, files_left(copy, truth))
            runs.append(
                CleanRun(root.name, rule, scores, len(out["done"]), len(out["skipped"]) + len(out["failed"]), seconds)
            )
            shutil.rmtree(copy)
            shutil.rmtree(home)  # the trash with it
            db.unlink()
    return runs


def clean_table(runs: list[CleanRun]) -> str:
    """One line per collection and rule: files, true groups, files trashed, documents lost, wrong removals
    (files of the lost documents), removal recall, the command's seconds."""
    head = (
        f"{'clean-up':<24} {'rule':<14} {'files':>6} {'groups':>6} {'trashed':>7} {'lost':>5} {'wrong':>5} "
        f"{'recall':>7} {'seconds':>7}"
    )
    lines = [head]
    for run in runs:
        s = run.scores
        lines.append(
            f"{run.collection[:24]:<24} {run.rule:<14} {s.files:>6} {s.groups:>6} {run.trashed:>7} "
            f"{s.documents_lost:>5} {s.wrong_removals:>5} {s.removal_recall:>7.4f} {run.seconds:>7.1f}"
        )
    return "\n".join(lines)


def clean_data(runs: list[CleanRun]) -> list[dict]:
    """The runs as data (for --json)."""
    return [
        {
            "collection": r.collection,
            "rule": r.rule,
            "trashed": r.trashed,
            "skipped": r.skipped,
            "seconds": r.seconds,
            "documents_lost": r.scores.documents_lost,
            "removal_recall": r.scores.removal_recall,
        }
        | asdict(r.scores)
        for r in runs
    ]
