"""Test and benchmark collections of real Chinese text with planted near-duplicates and a truth.json
(`python -m bench.corpus OUT --size small|medium|large --seed N`), and the helpers the benchmark uses on
them (samples, a warm page cache, edits made and undone).

| size | documents | made in (one core) |
|---|---|---|
| small | ~300 | ~2 s (reading the sources) |
| medium | ~20,000 | ~6 s |
| large | ~200,000 | ~30 s |
"""

from __future__ import annotations

from bench.corpus.collection import SIZES, Summary, build
from bench.corpus.sources import MissingSource
from bench.corpus.workload import REPO, Edits, ensure_collection, sample, text_files, warm

__all__ = [
    "SIZES",
    "Summary",
    "build",
    "MissingSource",
    "REPO",
    "Edits",
    "ensure_collection",
    "sample",
    "text_files",
    "warm",
]
