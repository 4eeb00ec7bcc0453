"""A text's SimHash votes with each distinct token looked up once per thread: the vocabulary keeps every token
met so far with its feature hash, jieba IDF and filter flags (whitespace, number, stop word), so a document
costs one dictionary lookup per distinct token and a few numpy reductions instead of a Python step per token, per
filter and per hash bit.

    tallies = text_votes(text, fold(text))     # == fingerprint.votes(features.weighted_terms(text)), bit for bit

The arithmetic is the reference's (features.weighted_terms, then fingerprint.votes), in the same order on the
same values: the weights vector holds count x IDF in first-occurrence order, the votes are `w @ bits - w.sum()/2`
over the same 64 unpacked hash bits, so fingerprints and stored votes are identical
(tests/core/test_vocabulary.py checks it on varied texts). Settings the table does not cover (bigrams,
character n-grams) and texts that fall back to character n-grams take the reference path.

The compiled kernels (simdesk/core/compiled.py), when built, count a piece's tokens in a small table of their
own (it stays in the processor's cache), look each distinct one up in the vocabulary, and write the weights and
hash bit rows in one pass, as float64 arrays equal to the pure path's (tests/core/test_kernels.py compares the
votes): numpy's `w @ rows` then adds them up as it does for the pure path, so the two give the same bits (a sum
in C would not: OpenBLAS's gemv does not add in sequence).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable
from itertools import chain, repeat
from typing import Any

import numpy as np

from simdesk.core.compiled import KERNELS
from simdesk.core.fingerprint.features import FeatureSettings, idf_table, stop_words, token_pieces, weighted_terms
from simdesk.core.fingerprint.simhash import BITS, feature_hashes, votes
from simdesk.core.reading.normalize import normalize_folded

SPACE, NUMBER, STOP = 1, 2, 4  # flags of a token: never a feature; dropped as a number; dropped as a stop word
MAX_TOKENS = 1 << 19  # a table this full starts again at the next document: memory stays ~100 MB
LAST_DOCUMENT = (1 << 32) - 1  # the compiled tallies number a thread's documents in uint32


class Vocabulary:
    """Every distinct token met by this thread: its id, feature hash, IDF and flags, in growing arrays."""

    def __init__(self, max_tokens: int = MAX_TOKENS) -> None:
        self.max_tokens = max_tokens
        self._ids: dict[str, int] = {}
        self.hashes = np.zeros(0, dtype=np.uint64)  # each token's feature hash
        self.idf = np.zeros(0, dtype=np.float64)
        self.flags = np.zeros(0, dtype=np.uint8)
        # the compiled tallies: the document that last counted each id, its count there, a document's ids in order
        self._seen = np.zeros(0, dtype=np.uint32)
        self._counts = np.zeros(0, dtype=np.int64)
        self._order = np.zeros(0, dtype=np.int64)
        self._document = 0

    def __len__(self) -> int:
        return len(self._ids)

    def tally(self, pieces: Iterable[list[str]], kernels: Any = KERNELS) -> tuple[np.ndarray, np.ndarray]:
        """The ids of a document's distinct tokens (given a piece at a time, in text order) in first-occurrence
        order, and how often each occurs, adding the tokens not met before. A full table starts again here,
        between documents: the arrays keep their size and are overwritten."""
        if len(self._ids) >= self.max_tokens:
            self._ids.clear()
        if kernels is None:
            counts = Counter(chain.from_iterable(pieces))
            return self.ids(list(counts)), np.fromiter(counts.values(), dtype=np.int64, count=len(counts))
        if self._document == LAST_DOCUMENT:
            self._seen[:] = 0
            self._document = 0
        self._document += 1
        found = 0
        for tokens in pieces:
            start = len(self._ids)
            self._reserve(start + len(tokens))
            new: list[str] = []
            found = kernels.tally_tokens(
                tokens, self._ids, new, self._seen, self._counts, self._order, found, self._document
            )
            if new:
                self._describe(new, start)
        ids = self._order[:found].copy()
        return ids, self._counts[ids]

    def ids(self, tokens: list[str]) -> np.ndarray:
        """The id of each token (distinct tokens), adding the ones not met before."""
        found = np.fromiter(map(self._ids.get, tokens, repeat(-1)), dtype=np.intp, count=len(tokens))
        if len(found) and found.min() < 0:
            new = [t for t, i in zip(tokens, found.tolist()) if i < 0]
            start = len(self._ids)
            self._reserve(start + len(new))
            self._ids.update(zip(new, range(start, start + len(new))))
            self._describe(new, start)
            found = np.fromiter(map(self._ids.__getitem__, tokens), dtype=np.intp, count=len(tokens))
        return found

    def weigh(
        self, ids: np.ndarray, counts: np.ndarray, mask: int, kernels: Any = KERNELS
    ) -> tuple[np.ndarray, np.ndarray]:
        """The TF x IDF weights (`counts` x IDF) of the tokens `ids` whose flags share no bit with `mask`, in
        their order, and each one's 64 feature hash bits, bit 0 first (as fingerprint.votes unpacks them)."""
        if kernels is None:
            kept = (self.flags[ids] & mask) == 0
            ids = ids[kept]
            hashes = self.hashes[ids].astype("<u8", copy=False)
            bits = np.unpackbits(hashes.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
            return counts[kept] * self.idf[ids], bits
        weights = np.empty(len(ids), dtype=np.float64)
        rows = np.empty((len(ids), BITS), dtype=np.float64)
        kept_count = kernels.weigh_tokens(ids, counts, self.hashes, self.idf, self.flags, mask, weights, rows)
        return weights[:kept_count], rows[:kept_count]

    def _reserve(self, size: int) -> None:
        """Room for `size` tokens in every array (new room zeroed: a zero `seen` is no document's)."""
        if size <= len(self.idf):
            return
        size = max(1024, 2 * size)
        for name in ("hashes", "idf", "flags", "_seen", "_counts", "_order"):
            old = getattr(self, name)
            grown = np.zeros(size, dtype=old.dtype)
            grown[: len(old)] = old
            setattr(self, name, grown)

    def _describe(self, tokens: list[str], start: int) -> None:
        """Hash, IDF and flags of new tokens, whose ids run from `start`."""
        end = start + len(tokens)
        idf, median = idf_table()
        stops = stop_words()
        self.hashes[start:end] = feature_hashes(tokens, len(tokens))
        self.idf[start:end] = [idf.get(t, median) for t in tokens]
        self.flags[start:end] = [
            (0 if t.strip() else SPACE) | (NUMBER if t.isdigit() else 0) | (STOP if t in stops else 0) for t in tokens
        ]


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
    kernels: Any = KERNELS,
) -> np.ndarray:
    """SimHash's 64 tallies of `text` (`folded`: text.fold(text), shared with the line hashes), equal to
    `fingerprint.votes(features.weighted_terms(text, settings, fallback))`. `table`: this thread's
    vocabulary unless given. `norm`: text.normalize_folded(folded, settings.strip_links) when the caller
    has it (the scan shares it with the MinHash shingles). `kernels`: the compiled kernels, or None for
    the pure path (the same bits)."""
    if settings.bigrams or settings.char_ngrams:
        return votes(weighted_terms(text, settings, fallback))
    if norm is None:
        norm = normalize_folded(folded, settings.strip_links)
    table = table or vocabulary()
    ids, counts = table.tally(token_pieces(norm, settings.hmm, spaces=True), kernels)
    mask = SPACE | (NUMBER if settings.drop_numbers else 0) | (STOP if settings.stopwords else 0)
    weights, bits = table.weigh(ids, counts, mask, kernels)
    if not len(weights) and fallback:
        # the reference's filters in its order, each falling back to what it had when it would leave nothing
        flags = table.flags[ids]
        mask = SPACE
        for wanted, flag in ((settings.drop_numbers, NUMBER), (settings.stopwords, STOP)):
            if wanted and ((flags & (mask | flag)) == 0).any():
                mask |= flag
        weights, bits = table.weigh(ids, counts, mask, kernels)
    if not len(weights):  # no words at all: the reference's character n-grams (fallback) or nothing
        return votes(weighted_terms(text, settings, fallback)) if fallback else np.zeros(BITS)
    return weights @ bits - 0.5 * weights.sum()
