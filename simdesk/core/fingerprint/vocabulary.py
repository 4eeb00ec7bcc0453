"""A text's SimHash votes with each distinct token looked up once per thread: the vocabulary keeps every token
met so far with its feature hash bits, jieba IDF and filter flags (whitespace, number, stop word), so a document
costs one dictionary lookup per distinct token and a few numpy reductions instead of a Python step per token,
per filter and per hash bit.

    tallies = text_votes(text, fold(text))     # == fingerprint.votes(features.weighted_terms(text)), bit for bit

The arithmetic is the reference's (features.weighted_terms, then fingerprint.votes), in the same order on the
same values: the weights vector holds count x IDF in first-occurrence order, the votes are `w @ bits - w.sum()/2`
over the same 64 unpacked hash bits, so fingerprints and stored votes are identical
(tests/core/test_vocabulary.py checks it on varied texts). Settings the table does not cover (bigrams,
character n-grams) and texts that fall back to character n-grams take the reference path.
"""

from __future__ import annotations

import threading
from itertools import repeat

import numpy as np

from simdesk.core.fingerprint.features import FeatureSettings, idf_table, stop_words, token_counts, weighted_terms
from simdesk.core.fingerprint.simhash import BITS, feature_hashes, votes
from simdesk.core.reading.normalize import normalize_folded

SPACE, NUMBER, STOP = 1, 2, 4  # flags of a token: never a feature; dropped as a number; dropped as a stop word
MAX_TOKENS = 1 << 19  # past this many distinct tokens (numbers, typos) the table starts again: memory stays ~100 MB


class Vocabulary:
    """Every distinct token met by this thread: its id, feature hash bits, IDF and flags, in growing arrays."""

    def __init__(self, max_tokens: int = MAX_TOKENS) -> None:
        self.max_tokens = max_tokens
        self._ids: dict[str, int] = {}
        self.bits = np.zeros((0, BITS), dtype=np.uint8)  # each token's feature hash, bit 0 first (as votes unpacks it)
        self.idf = np.zeros(0, dtype=np.float64)
        self.flags = np.zeros(0, dtype=np.uint8)

    def __len__(self) -> int:
        return len(self._ids)

    def ids(self, tokens: list[str]) -> np.ndarray:
        """The id of each token (distinct tokens), adding the ones not met before."""
        found = np.fromiter(map(self._ids.get, tokens, repeat(-1)), dtype=np.intp, count=len(tokens))
        if len(found) and found.min() < 0:
            if self._ids and len(self._ids) + len(tokens) > self.max_tokens:
                self._ids.clear()  # the arrays keep their size and are overwritten
                return self.ids(tokens)
            self._add([t for t, i in zip(tokens, found.tolist()) if i < 0])
            found = np.fromiter(map(self._ids.__getitem__, tokens), dtype=np.intp, count=len(tokens))
        return found

    def _add(self, tokens: list[str]) -> None:
        start = len(self._ids)
        end = start + len(tokens)
        if end > len(self.idf):
            size = max(1024, 2 * end)
            self.bits = np.resize(self.bits, (size, BITS))
            self.idf = np.resize(self.idf, size)
            self.flags = np.resize(self.flags, size)
        idf, median = idf_table()
        stops = stop_words()
        hashes = feature_hashes(tokens, len(tokens))
        self.bits[start:end] = np.unpackbits(hashes.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
        self.idf[start:end] = [idf.get(t, median) for t in tokens]
        self.flags[start:end] = [
            (0 if t.strip() else SPACE) | (NUMBER if t.isdigit() else 0) | (STOP if t in stops else 0) for t in tokens
        ]
        self._ids.update(zip(tokens, range(start, end)))


_per_thread = threading.local()


def vocabulary() -> Vocabulary:
    """This thread's vocabulary (each scan worker builds its own as it reads). Per thread: a table that fills up
    starts again, which must not renumber the tokens of a document another thread is weighing."""
    try:
        return _per_thread.table
    except AttributeError:
        _per_thread.table = Vocabulary()
        return _per_thread.table


def text_votes(
    text: str,
    folded: str,
    settings: FeatureSettings,
    fallback: bool = True,
    table: Vocabulary | None = None,
    norm: str | None = None,
) -> np.ndarray:
    """SimHash's 64 tallies of `text` (`folded`: text.fold(text), shared with the line hashes), equal to
    `fingerprint.votes(features.weighted_terms(text, settings, fallback))`. `table`: this thread's
    vocabulary unless given. `norm`: text.normalize_folded(folded, settings.strip_links) when the caller
    has it (the scan shares it with the MinHash shingles)."""
    if settings.bigrams or settings.char_ngrams:
        return votes(weighted_terms(text, settings, fallback))
    if norm is None:
        norm = normalize_folded(folded, settings.strip_links)
    counts = token_counts(norm, settings.hmm, spaces=True)
    table = table or vocabulary()
    ids = table.ids(list(counts))
    flags = table.flags[ids]
    kept = (flags & (SPACE | (NUMBER if settings.drop_numbers else 0) | (STOP if settings.stopwords else 0))) == 0
    if (
        not kept.any()
    ):  # the reference's filters in its order, each falling back to what it had when it would leave nothing
        kept = (flags & SPACE) == 0
        for wanted, flag in ((settings.drop_numbers, NUMBER), (settings.stopwords, STOP)):
            if wanted:
                rest = kept & ((flags & flag) == 0)
                kept = rest if rest.any() or not fallback else kept
    if not kept.any():  # no words at all: the reference's character n-grams (fallback) or nothing
        return votes(weighted_terms(text, settings, fallback)) if fallback else np.zeros(BITS)
    ids = ids[kept]
    w = np.fromiter(counts.values(), dtype=np.int64, count=len(counts))[kept] * table.idf[ids]
    return w @ table.bits[ids] - 0.5 * w.sum()
