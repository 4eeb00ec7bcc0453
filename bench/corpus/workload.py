"""The collections the benchmark runs on: made with the project's generator when missing, sampled with
hard links, warmed into the page cache, and modified (then restored) for the incremental figures."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from bench.corpus.collection import build

REPO = Path(__file__).resolve().parents[2]
APPENDED = "\n\n（本段为基准测试追加的一句话，用于模拟编辑改动。）\n"


def ensure_collection(folder: Path, size: str, seed: int = 7) -> Path:
    """The collection at `folder`, made (size, seed) when it has no truth.json yet."""
    if not (folder / "truth.json").exists():
        build(folder, size, seed)
    return folder


def text_files(root: Path) -> list[Path]:
    from simdesk.core import ScanOptions, walk

    options = ScanOptions()
    return [e.path for e in walk(root, options.includes, options.max_bytes)]


def sample(root: Path, dest: Path, every: int) -> Path:
    """Every `every`-th text file of `root` (in walk order), hard-linked under `dest` with its relative path."""
    marker = dest / f".sample-of-{every}"
    if marker.exists():
        return dest
    if dest.exists():
        shutil.rmtree(dest)
    for path in text_files(root)[::every]:
        target = dest / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(path, target)
        except OSError:
            shutil.copy2(path, target)
    marker.touch()
    return dest


def warm(root: Path) -> tuple[int, float]:
    """Read every text file once so that each measured run starts from the same (warm) page cache."""
    t = time.perf_counter()
    total = 0
    for path in text_files(root):
        total += len(path.read_bytes())
    return total, time.perf_counter() - t


class Edits:
    """Change a share of a collection's files (a sentence appended, in each file's own encoding), and put
    their exact bytes back afterwards."""

    def __init__(self, root: Path, share: float) -> None:
        files = text_files(root)
        step = max(1, round(1 / share))
        self.paths = files[::step]
        self.saved: dict[Path, tuple[bytes, int]] = {}

    def apply(self) -> int:
        from simdesk.core import decode_bytes

        for path in self.paths:
            data = path.read_bytes()
            self.saved[path] = (data, path.stat().st_mtime_ns)
            text, encoding = decode_bytes(data)
            path.write_bytes((text + APPENDED).encode(encoding))
        return len(self.paths)

    def restore(self) -> None:
        for path, (data, mtime_ns) in self.saved.items():
            path.write_bytes(data)
            os.utime(path, ns=(mtime_ns, mtime_ns))
        self.saved.clear()
