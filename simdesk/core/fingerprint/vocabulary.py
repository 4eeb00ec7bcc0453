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
from simdesk.core.fingerprint.features import (
    FeatureSettings,
    idf_table,
    stop_words,
    text_pieces,
    token_pieces,
    weighted_terms,
)
from simdesk.core.fingerprint.simhash import BITS, SEED, feature_hashes, votes
from simdesk.core.reading.normalize import normalize_folded

SPACE, NUMBER, STOP = 1, 2, 4  # flags of a token: never a feature; dropped as a number; dropped as a stop word
MAX_TOKENS = 1 << 19  # a table this full starts again at the next document: memory stays ~100 MB
# the blocks (runs of normalised text between spaces) whose token ids are kept: this many, or this many characters,
# and the blocks start again at the next piece of text (~20 MB: 4 bytes a character, ~40 a block in its table)
MAX_BLOCKS = 1 << 17
MAX_BLOCK_CHARS = 1 << 21
# the most tokens whose weights and hash bit rows `weigh` keeps room for between documents (~34 MB at 512 B a
# row): a text of more distinct tokens gets arrays of its own, not room a worker would hold for every text after it
KEPT_WEIGH_ROWS = 1 << 16
LAST_DOCUMENT = (1 << 32) - 1  # the compiled tallies number a thread's documents in uint32


class Vocabulary:
    """Every distinct token met by this thread: its id, feature hash, IDF and flags, in growing arrays."""

    def __init__(
        self, max_tokens: int = MAX_TOKENS, max_blocks: int = MAX_BLOCKS, max_block_chars: int = MAX_BLOCK_CHARS
    ) -> None:
        self.max_tokens = max_tokens
        self.max_blocks = max_blocks
        self.max_block_chars = max_block_chars
        self._ids: dict[str, int] = {}
        self.hashes = np.zeros(0, dtype=np.uint64)  # each token's feature hash
        self.idf = np.zeros(0, dtype=np.float64)
        self.flags = np.zeros(0, dtype=np.uint8)
        # the compiled tallies: the document that last counted each id, its count there, a document's ids in order
        self._seen = np.zeros(0, dtype=np.uint32)
        self._counts = np.zeros(0, dtype=np.int64)
        self._order = np.zeros(0, dtype=np.int64)
        self._document = 0
        # the compiled weights and hash bit rows of a document's tokens, overwritten by the next one's
        self._weights = np.zeros(0, dtype=np.float64)
        self._rows = np.zeros((0, BITS), dtype=np.float64)
        # the compiled block tallies: each block met (normalised text between two spaces) with its token ids
        # (kernels.BlockTable, made on first use), and whether its blocks were segmented with HMM
        self._blocks: Any = None
        self._blocks_hmm = False

    def __len__(self) -> int:
        return len(self._ids)

    def tally(self, pieces: Iterable[list[str]], kernels: Any = KERNELS) -> tuple[np.ndarray, np.ndarray]:
        """The ids of a document's distinct tokens (given a piece at a time, in text order) in first-occurrence
        order, and how often each occurs, adding the tokens not met before. A full table starts again here,
        between documents: the arrays keep their size and are overwritten."""
        self._start_document()
        if kernels is None:
            counts = Counter(chain.from_iterable(pieces))
            return self.ids(list(counts)), np.fromiter(counts.values(), dtype=np.int64, count=len(counts))
        found = 0
        for tokens in pieces:
            start = len(self._ids)
            self._reserve(start + len(tokens))
            new: list[str] = []
            found = kernels.tally_tokens(
                tokens, self._ids, new, self._seen, self._counts, self._order, found, self._document
            )
            if new:
                self._describe(new, start, kernels)
        ids = self._order[:found].copy()
        return ids, self._counts[ids]

    def tally_text(self, norm: str, hmm: bool, kernels: Any = KERNELS) -> tuple[np.ndarray, np.ndarray]:
        """`tally` of the tokens of normalised text (token_pieces(norm, hmm, spaces=True)), its whitespace tokens
        left out (never features), by the compiled kernels: the text is read as blocks (its runs between spaces,
        word boundaries for the segmenter), each segmented once per thread and kept with its token ids in the
        kernels' BlockTable: copies, templates and common phrases cost a lookup per block, found from the text
        itself, not a segmenter call, a string and a dictionary lookup per token (91% of the 1.15 M blocks of the
        medium collection's texts are repeats). A piece's blocks met for the first time are segmented in one
        call (Segmenter.block_tokens), then counted from the blocks its first reading found (BlockTable.recount).
        The same ids, counts and order as `tally`, apart from the whitespace tokens."""
        from simdesk.core.fingerprint.segmenter import default_segmenter

        if self._blocks is None:
            self._blocks = kernels.BlockTable()
        if hmm != self._blocks_hmm:
            self._blocks.clear()
            self._blocks_hmm = hmm
        self._start_document()
        found = 0
        for piece in text_pieces(norm):
            if len(self._blocks) >= self.max_blocks or self._blocks.kept_chars >= self.max_block_chars:
                self._blocks.clear()  # between pieces too: a huge text of new blocks stays in bounds
            missing: list[str] = []
            counted = self._blocks.tally(piece, missing, self._seen, self._counts, self._order, found, self._document)
            if counted < 0:
                tokens = default_segmenter().block_tokens(missing, hmm)
                start = len(self._ids)
                self._reserve(start + len(tokens))
                new: list[str] = []
                self._blocks.encode(missing, tokens, self._ids, new)
                if new:
                    self._describe(new, start, kernels)
                counted = self._blocks.recount(self._seen, self._counts, self._order, found, self._document)
                if counted < 0:  # the table grew while the piece was read: read it again
                    counted = self._blocks.tally(
                        piece, [], self._seen, self._counts, self._order, found, self._document
                    )
            found = counted
        ids = self._order[:found].copy()
        return ids, self._counts[ids]

    def _start_document(self) -> None:
        """A full table starts again (ids and blocks), between documents: the arrays keep their size and are
        overwritten; the compiled tallies' document number moves on."""
        if len(self._ids) >= self.max_tokens:
            self._ids.clear()
            if self._blocks is not None:
                self._blocks.clear()
        if self._document == LAST_DOCUMENT:
            self._seen[:] = 0
            self._document = 0
        self._document += 1

    def ids(self, tokens: list[str]) -> np.ndarray:
        """The id of each token (distinct tokens), adding the ones not met before."""
        found = np.fromiter(map(self._ids.get, tokens, repeat(-1)), dtype=np.intp, count=len(tokens))
        if len(found) and found.min() < 0:
            new = [t for t, i in zip(tokens, found.tolist()) if i < 0]
            start = len(self._ids)
            self._reserve(start + len(new))
            self._ids.update(zip(new, range(start, start + len(new))))
            self._describe(new, start, None)
            found = np.fromiter(map(self._ids.__getitem__, tokens), dtype=np.intp, count=len(tokens))
        return found

    def weigh(
        self, ids: np.ndarray, counts: np.ndarray, mask: int, kernels: Any = KERNELS
    ) -> tuple[np.ndarray, np.ndarray]:
        """The TF x IDF weights (`counts` x IDF) of the tokens `ids` whose flags share no bit with `mask`, in
        their order, and each one's 64 feature hash bits, bit 0 first (as fingerprint.votes unpacks them). The
        compiled path's arrays may be the table's own (KEPT_WEIGH_ROWS), valid until its next `weigh`."""
        if kernels is None:
            kept = (self.flags[ids] & mask) == 0
            ids = ids[kept]
            hashes = self.hashes[ids].astype("<u8", copy=False)
            bits = np.unpackbits(hashes.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
            return counts[kept] * self.idf[ids], bits
        if len(ids) > len(self._weights) and len(ids) <= KEPT_WEIGH_ROWS:
            # room kept between documents: a large array is not mapped each time
            self._weights = np.empty(min(KEPT_WEIGH_ROWS, max(1024, 2 * len(ids))), dtype=np.float64)
            self._rows = np.empty((len(self._weights), BITS), dtype=np.float64)
        if len(ids) <= len(self._weights):
            weights, rows = self._weights, self._rows
        else:  # a document of more distinct tokens: its arrays are its own, let go with it
            weights, rows = np.empty(len(ids), dtype=np.float64), np.empty((len(ids), BITS), dtype=np.float64)
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

    def _describe(self, tokens: list[str], start: int, kernels: Any = KERNELS) -> None:
        """Hash, IDF and flags of new tokens, whose ids run from `start` (by the compiled kernels when given: the
        same values, in one pass without a Python step per token)."""
        end = start + len(tokens)
        idf, median = idf_table()
        stops = stop_words()
        describe = getattr(kernels, "describe_tokens", None)
        if describe is not None:
            describe(tokens, start, idf, median, stops, SEED, self.hashes, self.idf, self.flags, SPACE, NUMBER, STOP)
            return
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
    table = vocabulary() if table is None else table  # an empty table is falsy (__len__)
    if kernels is not None and hasattr(kernels, "BlockTable"):
        ids, counts = table.tally_text(norm, settings.hmm, kernels)
    else:  # the pure path, or kernels built before the block tallies
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
