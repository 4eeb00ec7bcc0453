"""The tokenizer as the limit: bare jieba.lcut (or rjieba.cut) over a collection's decoded text on N worker
processes, timed after every worker has its texts in memory and the segmenter's dictionary loaded."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

_texts: list[str] = []


def _load(paths: list[str], max_bytes: int, segmenter: str) -> None:
    import jieba

    from simdesk.core import DecodeError, read_text_file

    jieba.setLogLevel(60)
    jieba.initialize()
    if segmenter == "rjieba":
        import rjieba

        rjieba.cut("加载词典", False)  # its dictionary loads on first use
    global _texts
    _texts = []
    for p in paths:
        try:
            _texts.append(read_text_file(Path(p), max_bytes).text)
        except (OSError, DecodeError):
            pass


def _ready(_: int) -> int:
    time.sleep(0.2)  # hold this worker so that the other takes the next ready() call
    return sum(map(len, _texts))


def _segment(hmm: bool, segmenter: str) -> tuple[int, float]:
    if segmenter == "rjieba":
        import rjieba

        cut = rjieba.cut
    else:
        import jieba

        def cut(text: str, hmm: bool = True) -> list[str]:
            return jieba.lcut(text, HMM=hmm)

    cpu = time.process_time()
    for text in _texts:
        cut(text, hmm)
    return sum(map(len, _texts)), time.process_time() - cpu


def bare_jieba(
    paths: list[Path], workers: int, hmm: bool, segmenter: str = "jieba", max_bytes: int = 20 * 1024 * 1024
) -> tuple[int, float, float]:
    """(characters, wall seconds, CPU seconds) for jieba.lcut (`segmenter` "jieba") or rjieba.cut ("rjieba")
    over the decoded text of `paths`, split over `workers` processes."""
    ctx = multiprocessing.get_context("spawn")
    shards = [[str(p) for p in paths[w::workers]] for w in range(workers)]
    pools = [ctx.Pool(1, initializer=_load, initargs=(shard, max_bytes, segmenter)) for shard in shards]
    try:
        for pool in pools:
            pool.apply(_ready, (0,))  # wait until texts are loaded
        started = time.perf_counter()
        pending = [pool.apply_async(_segment, (hmm, segmenter)) for pool in pools]
        done = [p.get() for p in pending]
        return sum(c for c, _ in done), time.perf_counter() - started, sum(t for _, t in done)
    finally:
        for pool in pools:
            pool.terminate()
