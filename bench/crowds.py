"""`python -m bench.crowds` (or `python -m bench --only crowds`): many copies of a few texts, as a crawl folder
has them, through the whole default `simdesk scan` (verification included, a fresh index, JSON out).

Three collections, each at full size and at a tenth of it, back to back in one run (the ratio of the two
times is ~10 when the cost is linear, ~100 when every pair is a candidate):
- contents: N files of 3 short contents ("页面不存在", a 404 notice, a line of punctuation) and one real
  near-copy pair (an article and a copy with typos), target <= 60 s and <= 1 GB at 20,002 files, the pair
  grouped;
- copies: N exact copies of one 3 KB article, target <= 30 s and <= 1 GB at 5,000;
- oneliners: N one-line notices of 3 templates differing only in their numbers, with PLANTED one-liners each
  copied once with a typo (same numbers), target <= 60 s at 6,000; how many planted copies group (what the
  crowd bound, analysis.CROWD_LIMIT, can miss) and whether any notices of other numbers group.
Each figure line carries the load average before the run. Collections are made under --work once and reused.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bench.corpus import REPO

Figure = tuple[str, float, str]

SHORT_CONTENTS = ("页面不存在", "404 Not Found\nThe requested URL was not found on this server.", "。。。 ---- !!")
TEMPLATES = (
    "您的订单{0}已于{1}月{2}日发货，运单号{3}，请注意查收。",
    "第{0}期开奖结果：{1} {2} {3}，下期奖池累计{0}万元。",
    "系统通知：用户{0}于{1}点{2}分登录，地址10.{1}.{2}.{3}。",
)
PLANTED = 50
PER_FOLDER = 1000
SIZES = {"contents": 20_000, "copies": 5_000, "oneliners": 6_000}
TARGETS = {"contents": "<= 60 s, <= 1024 MB", "copies": "<= 30 s, <= 1024 MB", "oneliners": "<= 60 s"}


def _article(chars: int, skip: int = 0) -> str:
    """A real Chinese text of about `chars` characters (the corpus sources)."""
    from bench.corpus.sources import chinese_texts

    texts = [t for t in chinese_texts() if len(t) >= chars]
    return texts[skip][:chars]


def _write(root: Path, files: list[str]) -> None:
    """Write the texts as root/dNNN/fNNNNNN.txt, PER_FOLDER a folder."""
    for k, text in enumerate(files):
        folder = root / f"d{k // PER_FOLDER:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{k:06d}.txt").write_text(text, encoding="utf-8")


def contents_files(n: int, seed: int = 7) -> list[str]:
    """n texts of SHORT_CONTENTS in turn, then an article and its copy with typos."""
    from bench.corpus.edits import typo

    article = _article(800)
    return [SHORT_CONTENTS[k % 3] for k in range(n)] + [article, typo(article, random.Random(seed), ())]


def copies_files(n: int) -> list[str]:
    """n copies of one article of ~3 KB (1,000 Chinese characters)."""
    return [_article(1000, 1)] * n


def oneliner(rng: random.Random, template: str) -> str:
    return template.format(rng.randint(10_000, 99_999), rng.randint(1, 12), rng.randint(1, 28), rng.randint(100, 999))


def oneliner_files(n: int, seed: int = 7, planted: int = PLANTED) -> tuple[list[str], list[tuple[int, int]]]:
    """n one-liners of TEMPLATES (numbers drawn at random), the first `planted` of them followed by a copy with
    one character changed; returns the texts and the planted (original, copy) positions."""
    rng = random.Random(seed)
    files: list[str] = []
    pairs = []
    for k in range(n):
        text = oneliner(rng, TEMPLATES[k % len(TEMPLATES)])
        files.append(text)
        if k < planted:
            han = [x for x, ch in enumerate(text) if "\u4e00" <= ch <= "\u9fff"]
            at = rng.choice(han)
            files.append(text[:at] + ("的" if text[at] != "的" else "是") + text[at + 1 :])
            pairs.append((len(files) - 2, len(files) - 1))
    return files, pairs


def ensure(work: Path, name: str, n: int) -> tuple[Path, list[tuple[int, int]]]:
    """The collection `name` of size n under `work`, made when missing; its planted pairs (one-liners)."""
    root = work / f"{name}-{n}"
    if name == "oneliners":
        files, pairs = oneliner_files(n)
    else:
        files, pairs = (contents_files(n) if name == "contents" else copies_files(n)), []
    if not (root / ".complete").exists():
        _write(root, files)
        (root / ".complete").touch()
    return root, pairs


def path_of(k: int) -> str:
    return f"d{k // PER_FOLDER:03d}/f{k:06d}.txt"


def scan_measured(root: Path, db: Path, code: Path = REPO) -> tuple[float, float, dict, float]:
    """Wall seconds and the peak RSS (MB, the process tree summed) of the default `simdesk scan ROOT --format
    json` on a fresh index, its report, and the CPU seconds of its process tree (what a loaded machine
    disturbs least); `code`: the folder whose `simdesk` package runs (another version's for a baseline)."""
    seconds, mb, printed, cpu = scan_command(root, db, code)
    return seconds, mb, json.loads(printed.decode("utf-8")), cpu


def scan_command(root: Path, db: Path, code: Path = REPO) -> tuple[float, float, bytes, float]:
    """scan_measured, with the report as the bytes the command printed."""
    import psutil

    from bench.scan_run import PeakRss

    for p in db.parent.glob(db.name + "*"):
        p.unlink()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "simdesk", "scan", str(root), "--db", str(db), "--format", "json"],
            stdout=out,
            stderr=err,
            cwd=code,
            env=dict(os.environ, PYTHONPATH=str(code)),
        )
        with PeakRss(children_every_s=0.1, proc=psutil.Process(proc.pid)) as tree:
            _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            err.seek(0)
            raise RuntimeError(f"simdesk scan failed: {err.read().decode(errors='replace')[-2000:]}")
        out.seek(0)
        printed = out.read()
    return seconds, tree.peak / 2**20, printed, usage.ru_utime + usage.ru_stime + tree.children_cpu()


def crowd_figures(work: Path, sizes: dict[str, int] = SIZES, baseline: Path | None = None) -> Iterator[Figure]:
    """Each collection at a tenth of its size, then whole: time, memory, groups, the ratio of the times; with
    `baseline` (a folder holding another version's `simdesk` package), that version's time at a tenth first."""
    work.mkdir(parents=True, exist_ok=True)
    for name, full in sizes.items():
        seconds: dict[int | str, float] = {}
        if baseline is not None:
            root, _ = ensure(work, name, full // 10)
            load = os.getloadavg()[0]
            s, mb, report, _ = scan_measured(root, work / f"{name}-baseline.sqlite", baseline)
            seconds["baseline"] = s
            yield f"crowds_{name}_{full // 10}_baseline_seconds", s, f"s ({baseline}, load {load:.1f})"
            yield f"crowds_{name}_{full // 10}_baseline_peak_rss_mb", mb, "MB"
            yield f"crowds_{name}_{full // 10}_baseline_groups", len(report["groups"]), "groups"
        for n in (full // 10, full):
            root, pairs = ensure(work, name, n)
            load = os.getloadavg()[0]
            s, mb, report, cpu = scan_measured(root, work / f"{name}-{n}.sqlite")
            seconds[n] = s
            groups = [sorted(m["path"] for m in g["members"]) for g in report["groups"]]
            files = report["documents"]
            where = f"({files} files, load {load:.1f}"
            yield f"crowds_{name}_{n}_seconds", s, f"s {where}; target at {full:,}: {TARGETS[name]})"
            yield f"crowds_{name}_{n}_cpu_seconds", cpu, "s (CPU, all processes of the scan)"
            yield f"crowds_{name}_{n}_peak_rss_mb", mb, f"MB {where}, all processes of the scan)"
            sizes_seen = sorted(len(g) for g in groups)
            yield (
                f"crowds_{name}_{n}_groups",
                len(groups),
                f"groups {where}; sizes {sizes_seen[:3]}..{sizes_seen[-3:]})",
            )
            if name == "contents":
                pair = sorted([path_of(n), path_of(n + 1)])
                yield f"crowds_contents_{n}_pair_grouped", int(pair in groups), "(1: the near-copy pair is a group)"
            if name == "oneliners":
                grouped = {tuple(g) for g in groups}
                found = sum(tuple(sorted((path_of(a), path_of(b)))) in grouped for a, b in pairs)
                yield f"crowds_oneliners_{n}_planted_grouped", found, f"of {len(pairs)} planted copies grouped alone"
                yield f"crowds_oneliners_{n}_other_groups", len(groups) - found, "groups of notices with other numbers"
        yield f"crowds_{name}_ratio", seconds[full] / seconds[full // 10], "x (time whole / time at a tenth; 10 linear)"
        if baseline is not None:
            yield f"crowds_{name}_speedup", seconds["baseline"] / seconds[full // 10], "x (baseline / this, at a tenth)"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        prog="python -m bench.crowds", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "simdesk-bench" / "crowds")
    ap.add_argument("--only", action="append", choices=list(SIZES), help="these collections only (repeatable)")
    ap.add_argument("--scale", type=float, default=1.0, help="sizes times this (e.g. 0.1 for a smoke run)")
    ap.add_argument(
        "--baseline",
        type=Path,
        help="a folder with another version's simdesk package (e.g. `git "
        "archive REV simdesk | tar -x -C DIR`): its time at a tenth of each size, in the same run",
    )
    args = ap.parse_args(argv)
    sizes = {k: max(20, round(v * args.scale)) for k, v in SIZES.items() if not args.only or k in args.only}
    print(f"cpu_count {os.cpu_count()} cores", flush=True)
    for name, value, unit in crowd_figures(args.work, sizes, args.baseline):
        print(f"{name} {value:.4g} {unit}" if isinstance(value, float) else f"{name} {value} {unit}", flush=True)


if __name__ == "__main__":
    main()
