"""The yardstick of a whole scan: bare jieba.lcut (or rjieba.cut) over a folder's decoded texts in as many
processes as a scan has workers, as one command, so that it can be timed from outside beside `simdesk scan`.

    python -m bench.bare_lcut FOLDER [--segmenter jieba|rjieba] [--jobs N]

Prints one line: characters, the segmenting wall seconds and CPU seconds (texts and dictionaries loaded first;
the whole command's time includes that loading).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--segmenter", choices=("jieba", "rjieba"), default="jieba")
    ap.add_argument("--jobs", type=int, default=0)
    args = ap.parse_args()
    from bench import corpus
    from bench.throughput import bare_jieba
    from simdesk.core import DEFAULT_FEATURES, worker_count

    paths = corpus.text_files(args.folder)  # the files a scan reads
    chars, seconds, cpu = bare_jieba(paths, worker_count(args.jobs), DEFAULT_FEATURES.hmm, args.segmenter)
    print(f"{len(paths)} files, {chars} characters, {seconds:.2f} s wall, {cpu:.2f} s CPU ({args.segmenter})")


if __name__ == "__main__":
    main()
