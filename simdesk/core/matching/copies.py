"""Identical copies as one class: the documents with one content hash are searched and verified through one
representative, and the pairs found for it are given to the other copies afterwards.

    copies = identical_copies(snap.hashes)
    i, j, source, swapped = with_copies(copies, rep_i, rep_j)   # pairs of representatives -> of documents
    scores = np.where(source >= 0, rep_scores[source], 1.0)

A class is the documents whose bytes hash alike (the content hash the index stores for every document), so
its members are copies in the strictest sense: keeping any one of them loses nothing, and the index needs no
other record of the class than the hashes it has. Texts equal only after normalisation (another encoding,
other line wrapping) are separate classes, verified as pairs (score 1.0) like any near-duplicates.

Without classes, n copies of one text made n (n - 1) / 2 candidates, each read, scored and stored: 2,002 files
of 3 short contents took 19.8 s and 913 MB, 20,002 exhausted 4 GB. With them, a class costs one search and
one verification whatever its size, and its members add pairs in memory only: a star of identical pairs to
the representative, and each relation of the representative once per member (see with_copies), so centred
grouping (groups.centred_labels) takes the representative, paired with every member of the group, as centre.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np


@dataclass(frozen=True)
class Copies:
    """The classes of identical copies of a snapshot: `rep[row]` is the row of its class's representative
    (the row itself for a representative, and for a document with no copy)."""

    rep: np.ndarray  # int64, one per snapshot row

    def __len__(self) -> int:
        return len(self.rep)

    @cached_property
    def representatives(self) -> np.ndarray:
        """The rows that stand for their class (path order)."""
        return np.flatnonzero(self.rep == np.arange(len(self.rep)))

    @cached_property
    def sizes(self) -> np.ndarray:
        """For each row, how many documents its class holds (1: no copy)."""
        return np.bincount(self.rep, minlength=len(self.rep))[self.rep]

    @cached_property
    def _others(self) -> tuple[np.ndarray, np.ndarray]:
        """(start, others): the rows of each class other than its representative, as a CSR over rows (the rows
        of representative r are others[start[r]:start[r + 1]], in path order)."""
        n = len(self.rep)
        member = np.flatnonzero(self.rep != np.arange(n))
        order = member[np.argsort(self.rep[member], kind="stable")]
        counts = np.bincount(self.rep[member], minlength=n)
        start = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=start[1:])
        return start, order

    def others(self, rep: int) -> np.ndarray:
        """The copies of representative `rep` other than itself (path order)."""
        start, order = self._others
        return order[start[rep] : start[rep + 1]]


def identical_copies(hashes: Sequence[str] | np.ndarray, preferred: np.ndarray | None = None) -> Copies:
    """The classes of the rows (path order) with one content hash (or one value of an array: plain groups
    class documents by fingerprint). Each class's representative is its first row among those flagged in
    `preferred` (e.g. already searched and verified: their kept scores stay valid), else its first row."""
    n = len(hashes)
    if n == 0:
        return Copies(np.zeros(0, dtype=np.int64))
    # bytes, not str: 32 B a document instead of 128 at a million documents
    keys = hashes if isinstance(hashes, np.ndarray) else np.array(hashes, dtype="S")
    _, cls = np.unique(keys, return_inverse=True)
    cls = cls.ravel()
    rows = np.arange(n)
    later = np.zeros(n, dtype=bool) if preferred is None else ~np.asarray(preferred, dtype=bool)
    order = np.lexsort((rows, later, cls))  # by class, the preferred first, then path order
    first = np.r_[True, cls[order][1:] != cls[order][:-1]]
    rep_of_class = np.empty(int(cls.max()) + 1, dtype=np.int64)
    rep_of_class[cls[order][first]] = order[first]
    return Copies(rep_of_class[cls])


def with_copies(copies: Copies, i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, ...]:
    """Pairs of representatives (i, j; each pair once) given to their classes: each pair (a, b) stays, and each
    other copy m of a's class gets (m, b), each of b's (a, m); every copy is paired with its representative.
    Returns (i, j, source, swapped) with i < j: `source[k]` is the input pair that output pair k copies, -1 for
    a copy and its representative (identical: a score of 1.0, a distance of 0), and `swapped[k]` whether its
    rows stand for the input pair's the other way round (for figures that have a direction). So a
    representative pairs with every member of the classes it pairs with, and a class of c copies with r
    relations adds c - 1 + r (c - 1) pairs, not c (c - 1) / 2 + r c^2."""
    i, j = np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)
    start, order = copies._others  # noqa: SLF001
    count = np.diff(start)
    src = np.arange(len(i), dtype=np.int64)
    out_i, out_j, out_src, out_turned = [i], [j], [src], [np.zeros(len(i), dtype=bool)]
    for side, other, turned in ((i, j, False), (j, i, True)):  # the copies of each side, with the other side
        c = count[side]
        k = np.repeat(src, c)
        offsets = np.arange(len(k)) - np.repeat(np.cumsum(c) - c, c)
        out_i.append(order[start[side[k]] + offsets])
        out_j.append(other[k])
        out_src.append(k)
        out_turned.append(np.full(len(k), turned))
    members = order
    out_i.append(copies.rep[members])
    out_j.append(members)
    out_src.append(np.full(len(members), -1, dtype=np.int64))
    out_turned.append(np.zeros(len(members), dtype=bool))
    a, b = np.concatenate(out_i), np.concatenate(out_j)
    return np.minimum(a, b), np.maximum(a, b), np.concatenate(out_src), np.concatenate(out_turned) ^ (a > b)


def copied_values(values: np.ndarray, source: np.ndarray, identical: float) -> np.ndarray:
    """Per-pair `values` of representatives given to the pairs with_copies made (`identical` for a copy and its
    representative)."""
    out = np.full((len(source), *values.shape[1:]), identical, dtype=values.dtype)
    has = source >= 0
    out[has] = values[source[has]]
    return out


def copied_shares(held: np.ndarray, source: np.ndarray, swapped: np.ndarray) -> np.ndarray:
    """The shares (of i in j, of j in i; verify_pairs' `held`) of representatives given to the pairs with_copies
    made, in their rows' order; a copy and its representative hold each other whole."""
    return swap_shares(copied_values(held, source, 1.0), swapped)


def swap_shares(held: np.ndarray, swapped: np.ndarray) -> np.ndarray:
    """Shares (rows of: share of i in j, share of j in i) for pairs whose ends are exchanged where `swapped`
    (Relation.shares for arrays); changes `held` in place and returns it."""
    held[swapped] = held[swapped][:, ::-1]
    return held
