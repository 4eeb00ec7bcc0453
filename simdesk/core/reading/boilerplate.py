"""Boilerplate and shared notices: lines that recur across many documents of a collection.

A line is frequent when its key (normalised: no punctuation, spaces or digits) has 2 characters or more and
occurs in at least `min_document_frequency(n)` documents of the n in the collection (`boilerplate_set`). The
identical copies of a text (one content hash) count once, and the collection's size is its number of distinct
texts (`class_boilerplate`): a page copied a thousand times is one text, its lines are not boilerplate.

- A frequent line whose key has at most 80 characters (MAX_KEY_CHARS) is boilerplate (repost notices,
  signatures, copyright footers, attributions). Boilerplate is dropped before fingerprinting for pair
  search and before verification, so that two different articles with the same footer do not match, and
  one article with and without it does.
- A frequent longer line is a shared notice (a licence paragraph under many package descriptions). It is
  never dropped: in a group of ten copies or more every paragraph is frequent, and dropping them leaves each
  copy only its edited lines. Verification uses notices as a gate instead (fingerprint/similarity.py): a pair whose texts
  hold one must also agree on what is left of a text without its notices.
- In a group of ten copies or more every untouched line is frequent, so a copy without its frequent lines
  keeps only its edited lines. A text whose frequent lines hold CROWD_SHARE of it or more is therefore also
  compared whole (frequent_parts, verify.crowd_score), on the condition that what its frequent lines do not
  hold is found in the other text, both ways: a copy's edited lines are, a page's own article under a site
  menu or a description above a licence notice is not.

A line's hash (`line_hash`) tells the two kinds apart by its lowest bit (1: a key over MAX_KEY_CHARS), so
one sorted array per document (`line_hashes`, kept in the index) and one set per collection serve both.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import mmh3
import numpy as np

from simdesk.core.compiled import KERNELS
from simdesk.core.reading.normalize import fold, without_links

MIN_KEY_CHARS = 2
MAX_KEY_CHARS = 80
MIN_REST_CHARS = 20  # a text's rest without its notices, in key characters: less and the notice gate is not used
# A text whose frequent lines hold this share of its key characters or more is also compared as a member of a
# large copy group (frequent_parts, verify.crowd_score).
CROWD_SHARE = 0.25
SEED = 0xB0113
# Punctuation, symbols, spaces and digits: what a line's key leaves out, one class (faster than an alternation).
KEY_DROP = re.compile(r"[\W\d_]+")
# The lines are joined by a letter KEY_DROP keeps, cleaned in one pass and split on it again; a text holding
# that letter itself is joined by line feeds and cleaned by the alternation that keeps them.
LINE_JOIN = "\ua66e"  # CYRILLIC LETTER MULTIOCULAR O
KEY_DROP_BUT_LF = re.compile(r"[^\w\n]+|[_\d]+")


def line_keys(text: str) -> list[str]:
    """One key per line of the text: the line folded as documents are (text.fold: NFKC, case, script,
    look-alikes), links dropped, then without punctuation, symbols, spaces and digits."""
    return folded_line_keys(fold(text))


def folded_line_keys(folded: str, links_dropped: bool = False) -> list[str]:
    """`line_keys` of a text already folded (`links_dropped`: and passed through text.without_links). The
    lines (str.splitlines) are joined and cleaned in one pass: a regex call per line cost as much as the whole
    text's (and the one-class pass with LINE_JOIN takes 20% less than the alternation, measured 2026-11-24)."""
    lines = (folded if links_dropped else without_links(folded)).splitlines()
    if not lines:
        return []
    if LINE_JOIN in folded:
        return KEY_DROP_BUT_LF.sub("", "\n".join(lines)).split("\n")
    return KEY_DROP.sub("", LINE_JOIN.join(lines)).split(LINE_JOIN)


def line_key_hashes(folded: str, links_dropped: bool = False, kernels: Any = KERNELS) -> tuple[list[int], list[int]]:
    """The hash (line_hash; 0 for a key under MIN_KEY_CHARS characters) and the length of the key of each line of
    a text already folded (folded_line_keys; `links_dropped` as there): what frequent_rows reads of its lines. The
    compiled `kernels`, when there are, key and hash the text in one pass over it (13 against 37 µs a text on the
    medium collection, links dropped included, 2026-11-27)."""
    text = folded if links_dropped else without_links(folded)
    if hasattr(kernels, "line_keys"):  # not in kernels built before it: the pure path
        hashes, lengths = kernels.line_keys(text, SEED, MIN_KEY_CHARS, MAX_KEY_CHARS)
        return hashes, lengths
    keys = folded_line_keys(text, links_dropped=True)
    return [line_hash(key) if len(key) >= MIN_KEY_CHARS else 0 for key in keys], [len(key) for key in keys]


def line_hash(key: str) -> int:
    """The 32-bit hash of a line key; its lowest bit is 1 for a long key (a notice when frequent), else 0."""
    h = mmh3.hash(key, SEED, signed=False)
    return h | 1 if len(key) > MAX_KEY_CHARS else h & ~1


def is_notice(hashes: np.ndarray) -> np.ndarray:
    """Which of the line hashes are of long lines (keys over MAX_KEY_CHARS): notices when frequent."""
    return (np.asarray(hashes) & 1).astype(bool)


def line_hashes(text: str) -> np.ndarray:
    """Sorted unique 32-bit hashes of the keys of a text's lines (2 key characters or more): the candidate
    boilerplate lines and the candidate notices."""
    return folded_line_hashes(fold(text))


KEY_PIECE = 1 << 20  # characters of a long text's lines keyed and hashed at a time (folded_line_hashes)
# The line breaks of str.splitlines
LINE_BREAKS = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def folded_line_hashes(
    folded: str, links_dropped: bool = False, piece: int = KEY_PIECE, kernels: Any = KERNELS
) -> np.ndarray:
    """`line_hashes` of a text already folded (`links_dropped`: as in folded_line_keys). The compiled `kernels`
    (simdesk.core.compiled), when there are, key and hash the text in one pass over it (a fifth of the time);
    otherwise a text longer than `piece` is keyed and hashed a piece of a line at a time (the same hashes: a key
    drops characters one by one, and the hash is fed piece by piece), in memory for a piece rather than a few
    copies of the whole."""
    if kernels is not None:
        text = folded if links_dropped else without_links(folded)
        return np.frombuffer(kernels.line_hashes(text, SEED, MIN_KEY_CHARS, MAX_KEY_CHARS), dtype=np.uint32)
    if len(folded) > piece:
        return _long_line_hashes(folded if links_dropped else without_links(folded), piece)
    keys = {k for k in folded_line_keys(folded, links_dropped) if MIN_KEY_CHARS <= len(k)}
    # a few dozen keys: sorted in Python, then one array (np.unique cost more than the hashing)
    return np.array(sorted(set(map(line_hash, keys))), dtype=np.uint32)


def _long_line_hashes(text: str, piece: int) -> np.ndarray:
    """folded_line_hashes of a long text whose links are dropped, each line `piece` characters at a time."""
    found = set()
    start = 0
    breaks = ((m.start(), m.end()) for m in LINE_BREAKS.finditer(text))
    for end, after in itertools.chain(breaks, [(len(text), len(text))]):
        hasher, chars = mmh3.mmh3_32(b"", SEED), 0
        for at in range(start, end, piece):
            key = KEY_DROP.sub("", text[at : min(at + piece, end)])
            hasher.update(key.encode("utf-8"))
            chars += len(key)
        if chars >= MIN_KEY_CHARS:
            h = hasher.uintdigest()
            found.add(h | 1 if chars > MAX_KEY_CHARS else h & ~1)
        start = after
    return np.array(sorted(found), dtype=np.uint32)


def min_document_frequency(documents: int) -> int:
    """In how many documents a line must occur to be boilerplate: 10, or 1 in 800 documents in larger
    collections, the count rounded down to a power of two so that the rule does not move (and every
    document's boilerplate with it) each time a few files come or go. Measured on the medium corpus
    (20,000 documents, so 20): a minimum of 16 gives precision 0.992, recall 0.977; 20 gives 0.995, 0.983;
    10 drops lines that near-duplicate clusters share (recall 0.931, measured before the medium-length candidate class)."""
    return max(10, (1 << (max(documents, 1).bit_length() - 1)) // 800)


def boilerplate_set(per_document: Iterable[np.ndarray], documents: int) -> frozenset[int]:
    """The frequent line hashes of a collection, from each document's line_hashes(): its boilerplate lines
    and its notices (is_notice)."""
    arrays = [a for a in per_document if len(a)]
    if not arrays:
        return frozenset()
    values, counts = np.unique(np.concatenate(arrays), return_counts=True)
    return frozenset(values[counts >= min_document_frequency(documents)].tolist())


def without_notices(boilerplate: Collection[int]) -> frozenset[int]:
    """The boilerplate lines of a set of frequent line hashes: those dropped from texts (not notices)."""
    return frozenset(h for h in boilerplate if not h & 1)


@dataclass(frozen=True)
class LineHashes:
    """The candidate boilerplate line hashes of many documents in one array: row i's are
    values[bounds[i]:bounds[i + 1]] (sorted uint32)."""

    values: np.ndarray  # uint32
    bounds: np.ndarray  # int64, one more than the rows

    def __len__(self) -> int:
        return len(self.bounds) - 1

    def row(self, i: int) -> np.ndarray:
        return self.values[self.bounds[i] : self.bounds[i + 1]]

    @classmethod
    def of(cls, per_document: list[np.ndarray]) -> LineHashes:
        bounds = np.zeros(len(per_document) + 1, dtype=np.int64)
        np.cumsum([len(a) for a in per_document], out=bounds[1:])
        values = np.concatenate(per_document) if per_document else np.empty(0, dtype=np.uint32)
        return cls(values.astype(np.uint32, copy=False), bounds)

    def holding(self, hashes: Collection[int]) -> tuple[np.ndarray, np.ndarray]:
        """Which of `values` are among `hashes` (bool), and how many of each row's are: one vectorised test, a
        binary search in the few thousand sorted hashes (3.4x faster than np.isin's sort of all 3.6 M values of
        200,000 documents)."""
        wanted = np.sort(np.fromiter(hashes, dtype=np.uint32, count=len(hashes)))
        if not len(wanted):
            return np.zeros(len(self.values), dtype=bool), np.zeros(len(self), dtype=np.int64)
        at = np.minimum(np.searchsorted(wanted, self.values), len(wanted) - 1)
        mask = wanted[at] == self.values
        before = np.concatenate([[0], np.cumsum(mask)])
        return mask, before[self.bounds[1:]] - before[self.bounds[:-1]]

    def hits(self, hashes: Collection[int], rows: np.ndarray | None = None) -> Iterator[tuple[int, np.ndarray]]:
        """For each of `rows` (every row when None), the row and its line hashes among `hashes`."""
        mask, counts = self.holding(hashes)
        empty = self.values[:0]
        for row in range(len(self)) if rows is None else rows.tolist():
            if counts[row]:
                b0, b1 = self.bounds[row], self.bounds[row + 1]
                yield row, self.values[b0:b1][mask[b0:b1]]
            else:
                yield row, empty

    def rows(self, rows: np.ndarray) -> LineHashes:
        """The line hashes of `rows` only (ascending), in one array as here."""
        keep = np.zeros(len(self), dtype=bool)
        keep[rows] = True
        lengths = np.diff(self.bounds)[keep]
        bounds = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=bounds[1:])
        return LineHashes(self.values[np.repeat(keep, np.diff(self.bounds))], bounds)


def class_boilerplate(lines: LineHashes, representatives: np.ndarray) -> frozenset[int]:
    """boilerplate_set of a collection whose identical copies count once: `representatives` holds one row
    of `lines` per class of identical content (copies.identical_copies), and the collection's size is the number
    of classes. Identical texts have identical line hashes, so any row of a class stands for it."""
    # each row's hashes are unique, so the flat array counts documents as boilerplate_set does per row
    return boilerplate_set([lines.rows(representatives).values], len(representatives))


def boilerplate_lines(text: str, boilerplate: Collection[int], folded: str | None = None) -> frozenset[int]:
    """The numbers (0-based, as in text.splitlines()) of the text's boilerplate lines: the lines that
    strip_boilerplate drops (none when it would keep the text whole). `folded`: text.fold(text), when the
    caller has it."""
    if len(boilerplate) == 0:
        return frozenset()
    keys = line_keys(text) if folded is None else folded_line_keys(folded)
    if len(keys) != len(text.splitlines()):  # a character that NFKC turns into a line break: leave the text whole
        return frozenset()
    return _dropped([len(key) for key in keys], _frequent(keys, boilerplate))


def folded_boilerplate_lines(folded: str, boilerplate: Collection[int]) -> frozenset[int]:
    """boilerplate_lines of a text already folded (text.fold), for lines that are not the text's own: the
    rows a comparison cut a re-flowed text into."""
    if len(boilerplate) == 0:
        return frozenset()
    keys = folded_line_keys(folded)
    return _dropped([len(key) for key in keys], _frequent(keys, boilerplate))


def _frequent(keys: list[str], boilerplate: Collection[int]) -> list[bool]:
    """Which of a text's line keys are frequent (boilerplate or notices)."""
    return [MIN_KEY_CHARS <= len(key) and line_hash(key) in boilerplate for key in keys]


def _dropped(lengths: list[int], frequent: list[bool]) -> frozenset[int]:
    """boilerplate_lines from the lengths of the keys of a text's lines (as many as its lines) and which are
    frequent."""
    drop = frozenset(k for k, n in enumerate(lengths) if frequent[k] and n <= MAX_KEY_CHARS)
    if drop and sum(lengths) - sum(lengths[k] for k in drop) < MIN_KEY_CHARS:
        return frozenset()  # nothing else would remain
    return drop


def strip_boilerplate(text: str, boilerplate: Collection[int]) -> str:
    """The text without its boilerplate lines (`boilerplate`: a set of line hashes, see boilerplate_set);
    the whole text when nothing else would remain."""
    drop = boilerplate_lines(text, boilerplate)
    if not drop:
        return text
    return "\n".join(line for k, line in enumerate(text.splitlines()) if k not in drop)


def without_frequent_lines(text: str, boilerplate: Collection[int]) -> tuple[str, str | None]:
    """What verification scores a text on: the text without its boilerplate lines (as strip_boilerplate), and
    its rest, that text without its notices too (None when it holds no notice, or when fewer than
    MIN_REST_CHARS key characters would remain: a text that is all notice is not gated)."""
    parts = frequent_parts(text, boilerplate)
    return parts.stripped, parts.rest


@dataclass(frozen=True, slots=True)
class FrequentParts:
    """A text cut by the collection's frequent lines (see frequent_parts)."""

    stripped: str  # the text without its boilerplate lines
    rest: str | None  # ... and without its notices, when it holds one (MIN_REST_CHARS or more key characters)
    frequent: str | None  # its frequent lines, when they hold CROWD_SHARE of its key characters or more
    dropped: frozenset[int] = frozenset()  # the numbers of the lines stripped: boilerplate_lines of the text


def frequent_parts(text: str, boilerplate: Collection[int], folded: str | None = None) -> FrequentParts:
    """The text without its boilerplate, without its notices, and its frequent lines (`FrequentParts`), from
    one pass over its line keys (`folded`: normalize.fold(text), when the caller has it). A text that keeps
    every line is returned itself as `stripped` (the same object: its fold can be reused).

    `frequent` serves large copy groups (verify.crowd_score): in a group of ten copies or more every
    untouched line is frequent, so a copy without its frequent lines keeps only its edited lines. It is set
    when the frequent lines (boilerplate and notices) hold CROWD_SHARE or more of the text's key characters."""
    if len(boilerplate) == 0:
        return FrequentParts(text, None, None)
    lines = text.splitlines()
    return folded_frequent_rows(lines, without_links(fold(text) if folded is None else folded), boilerplate).parts(
        text, lines
    )


@dataclass(frozen=True, slots=True)
class FrequentRows:
    """Which lines of a text (the numbers of str.splitlines) make each of its FrequentParts: a part is those
    lines joined by line feeds (parts); None for a part the text does not have, and `stripped` None when the
    text keeps every line."""

    stripped: list[int] | None
    rest: list[int] | None
    frequent: list[int] | None
    dropped: frozenset[int] = frozenset()

    def parts(self, text: str, lines: list[str]) -> FrequentParts:
        """The FrequentParts of `text`, whose lines are `lines`."""
        return FrequentParts(
            text if self.stripped is None else _joined(lines, self.stripped),
            None if self.rest is None else _joined(lines, self.rest),
            None if self.frequent is None else _joined(lines, self.frequent),
            self.dropped,
        )


WHOLE = FrequentRows(None, None, None)  # a text that keeps every line and has no other part


def _joined(lines: list[str], rows: list[int]) -> str:
    return "\n".join([lines[k] for k in rows])


def folded_frequent_rows(
    lines: list[str], delinked: str, boilerplate: Collection[int], kernels: Any = KERNELS
) -> FrequentRows:
    """frequent_rows of a text whose lines are `lines` (text.splitlines()), from its folded text without links
    (`delinked`: without_links(fold(text))) keyed here (line_key_hashes). The compiled `kernels`, when they have
    it, key the text and read its rows in one call (the same rows)."""
    if len(boilerplate) == 0:
        return WHOLE
    if hasattr(kernels, "frequent_rows"):  # not in kernels built before it: the pure path
        got = kernels.frequent_rows(
            delinked, len(lines), SEED, MIN_KEY_CHARS, MAX_KEY_CHARS, boilerplate, CROWD_SHARE, MIN_REST_CHARS
        )
        return WHOLE if got is None else FrequentRows(*got)
    return frequent_rows(lines, *line_key_hashes(delinked, links_dropped=True), boilerplate)


def frequent_rows(
    lines: list[str], hashes: list[int], lengths: list[int], boilerplate: Collection[int]
) -> FrequentRows:
    """frequent_parts of a text as the numbers of its lines (`lines`: text.splitlines(); `hashes` and `lengths`:
    those of the keys of its folded lines, line_key_hashes): a text whose keys are not as many as its lines is
    left whole."""
    if len(boilerplate) == 0 or len(lengths) != len(lines):  # as boilerplate_lines: leave the text whole
        return WHOLE
    if isinstance(boilerplate, (set, frozenset)) and boilerplate.isdisjoint(hashes):
        return WHOLE  # no line's hash is frequent: told in one pass
    frequent = [n >= MIN_KEY_CHARS and h in boilerplate for h, n in zip(hashes, lengths)]
    if not any(frequent):
        return WHOLE
    drop = _dropped(lengths, frequent)
    kept = [k for k in range(len(lines)) if k not in drop] if drop else list(range(len(lines)))
    frequent_chars = sum(n for n, f in zip(lengths, frequent) if f)
    common = None
    if frequent_chars and frequent_chars >= CROWD_SHARE * sum(lengths):
        common = [k for k, f in enumerate(frequent) if f]
    stripped = kept if drop else None
    notices = {k for k in kept if lengths[k] > MAX_KEY_CHARS and frequent[k]}
    if not notices:
        return FrequentRows(stripped, None, common, drop)
    rest = [k for k in kept if k not in notices]
    if sum(lengths[k] for k in rest) < MIN_REST_CHARS:
        return FrequentRows(stripped, None, common, drop)
    return FrequentRows(stripped, rest, common, drop)
