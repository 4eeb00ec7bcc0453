"""MinHash signatures and LSH band keys over the shingles verification scores (verify.shingles): the second
candidate source, for near-duplicates whose SimHash fingerprints lie beyond the candidate radius.

    sig = signature(shingles(normalize(text)), DESKTOP.perms)
    keys = band_keys(sig, DESKTOP.rows)            # texts sharing a key in one band are candidates
    i, j = band_pairs(keys_of_every_text)          # in memory, on the desktop and the cluster's driver

SimHash weighs words: a Chinese text with an English passage put in, or a short text with several typos,
lands 19-27 bits from its original while its shingles agree (Jaccard 0.3-0.9). MinHash estimates the Jaccard
similarity of the shingle sets themselves, so bands of it find those pairs; every candidate is then scored
by verify.similarity like SimHash's.

Each permutation is a multiply-add-shift of the 32-bit shingle hash ((a x + b) mod 2^64, top 32 bits; a odd),
all shingles and permutations in one numpy operation: 48 permutations of 1,500 texts (0.75 M characters)
took 0.19 s, against 0.38 s for the same count modulo the prime 2^61 - 1 (datasketch's scheme). datasketch
itself hashes shingles given as bytes, one Python call per text and a Python object per signature; the
shingles here are already numpy hashes and the desktop stores only band keys.

DESKTOP, 16 bands of 3 rows (48 permutations): a pair of shingle sets with Jaccard J shares a band with
probability 1 - (1 - J^3)^16: 0.35 at J = 0.3, 0.65 at 0.4, 0.88 at 0.5, 0.97 at 0.6, 0.9985 at 0.7. The
index keeps the low 24 bits of each key (48 B a document, index.BAND_KEY_BYTES): at 200,000 texts random
collisions join ~1,200 pairs a band, of which the single-band gate (analysis.SINGLE_BAND_RADIUS) passed 1,122
in all to verification on the large collection, every one rejected. The cluster engines use the same keys,
kept the same way (cluster.verified).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mmh3
import numpy as np

from simdesk.core.fingerprint.similarity import SHINGLE_PIECE, SHINGLER, WORD_SHINGLE, shingle_pieces, shingle_runs

MAX_PERM = 128
SEED = 0x5D35
CHUNK = 8192  # shingles hashed at a time: bounded memory for a huge text
MAX_BUCKET = 64  # texts sharing one band's key beyond this count are not paired through it (see band_pairs)


@dataclass(frozen=True, slots=True)
class Banding:
    """How a signature is cut into LSH bands: `bands` bands of `rows` permutations each."""

    bands: int
    rows: int

    @property
    def perms(self) -> int:
        return self.bands * self.rows


DESKTOP = Banding(bands=16, rows=3)
RULES = f"1 {SEED} {DESKTOP.bands}x{DESKTOP.rows}"  # stored in the index: a change reads every document again


def _permutations() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.RandomState(SEED)
    a = rng.randint(1, 1 << 63, size=MAX_PERM, dtype=np.uint64) | np.uint64(1)
    b = rng.randint(0, 1 << 63, size=MAX_PERM, dtype=np.uint64)
    return a, b


A, B = _permutations()
_DESKTOP_A, _DESKTOP_B = A[: DESKTOP.perms].copy(), B[: DESKTOP.perms].copy()
EMPTY_ROW = np.uint64((1 << 32) - 1)


def signature(shingles: np.ndarray, perms: int) -> np.ndarray:
    """The MinHash signature (`perms` uint64 values below 2^32) of a set of 32-bit shingles; all 2^32 - 1 for
    no shingles (band_keys of such a signature are never compared: see `band_pairs`' `empty`)."""
    if not 0 < perms <= MAX_PERM:
        raise ValueError(f"perms must be between 1 and {MAX_PERM}, not {perms}")
    sig = np.full(perms, EMPTY_ROW, dtype=np.uint64)
    hv = np.asarray(shingles, dtype=np.uint64)
    for s in range(0, len(hv), CHUNK):
        with np.errstate(over="ignore"):  # one matrix, transformed in place: 15% less than three temporaries
            permuted = np.multiply.outer(hv[s : s + CHUNK], A[:perms])
            permuted += B[:perms]
        permuted >>= np.uint64(32)
        np.minimum(sig, permuted.min(axis=0), out=sig)
    return sig


def band_keys(sig: np.ndarray, rows: int) -> np.ndarray:
    """One signed 64-bit key per band of `rows` values: texts sharing a key in the same band are candidates.
    The low 32 bits (`keys.astype(np.uint32)`) serve as a shorter key for a smaller collection."""
    data, size = np.ascontiguousarray(sig, dtype="<u8").tobytes(), 8 * rows  # one bytes object, sliced per band
    return np.array(
        [
            mmh3.hash64(data[at : at + size], seed=band, signed=True)[0]
            for band, at in enumerate(range(0, len(data), size))
        ],
        dtype=np.int64,
    )


def text_bands(norm: str, piece: int = SHINGLE_PIECE, shingler: Any = SHINGLER) -> np.ndarray:
    """The desktop's band keys (DESKTOP, the low 32 bits of each) of a normalised text's shingles (little-endian
    uint32; the index keeps the low 24 bits of each); none for a text without shingles. The compiled `shingler`
    (similarity.compiled_shingler), when there is one, folds each shingle into the signature as it reads the
    text; otherwise the shingles are made in numpy, those of a text longer than `piece` characters a piece at a
    time (similarity.shingle_pieces): a minimum over parts is the minimum over the whole, so the keys are those
    of the whole text's shingles in memory for a piece. A minimum over all shingles is the minimum over the
    unique ones, so none are made unique first (np.unique cost more than the permutations it spared: the
    numpy path takes 0.66 x the time it took with it and with a text's two runs in two calls, 20,000 texts)."""
    if shingler is not None:
        keys = shingler.band_keys(norm, WORD_SHINGLE, _DESKTOP_A, _DESKTOP_B, DESKTOP.rows)
        return np.frombuffer(keys, dtype=np.uint32).astype("<u4", copy=False)
    if len(norm) <= piece:
        runs = [r.hashes for r in shingle_runs(norm, shingler=None)]
        parts = iter([np.concatenate(runs)] if len(runs) > 1 else runs)
    else:
        parts = shingle_pieces(norm, piece=piece)
    sig = np.full(DESKTOP.perms, EMPTY_ROW, dtype=np.uint64)
    found = False
    for part in parts:
        if len(part):
            found = True
            np.minimum(sig, signature(part, DESKTOP.perms), out=sig)
    if not found:
        return np.empty(0, dtype="<u4")
    return band_keys(sig, DESKTOP.rows).astype("<u4")


def band_pairs(
    keys: np.ndarray, empty: np.ndarray | None = None, max_bucket: int = MAX_BUCKET
) -> tuple[np.ndarray, np.ndarray]:
    """All pairs (i < j) of rows sharing a key in some band (`keys`: rows x bands), each once, in order.

    Rows flagged in `empty` (texts without shingles) are never paired. A key shared by more than `max_bucket`
    rows in one band is skipped: its rows share a passage (a notice, a licence) or are many exact copies,
    which SimHash pairs at distance 0; pairing them all would cost max_bucket^2 / 2 candidates a key."""
    n = len(keys)
    codes = np.empty(0, dtype=np.int64)  # the pairs found so far, sorted, each once
    if n:
        live = np.ones(n, dtype=bool) if empty is None else ~np.asarray(empty, dtype=bool)
        rows = np.flatnonzero(live)
        for band in range(keys.shape[1]):
            values = keys[rows, band]
            order = np.argsort(values, kind="stable")  # equal keys keep row order: members come sorted
            sv = values[order]
            starts = np.flatnonzero(np.r_[True, sv[1:] != sv[:-1]])
            sizes = np.diff(np.r_[starts, len(sv)])
            found: list[np.ndarray] = []
            # every bucket of one size at once (a loop over buckets took 34 s for 200,000 texts' 16 bands)
            for size in np.unique(sizes[(sizes >= 2) & (sizes <= max_bucket)]).tolist():
                first = starts[sizes == size]
                members = rows[order[first[:, None] + np.arange(size)]]
                a, b = np.triu_indices(size, k=1)
                found.append((members[:, a] * n + members[:, b]).ravel())
            if not found:
                continue
            # merged band by band (a pair is in one bucket of a band, so each band's codes are distinct): the
            # stable sort of two sorted runs is a linear merge, and the bands' codes are never held all at once
            # (+438 MB over the keys for the 16 bands of a million documents when they were)
            band_codes = np.concatenate(found)
            band_codes.sort()
            merged = np.concatenate([codes, band_codes])
            del band_codes
            merged.sort(kind="stable")
            codes = merged[np.r_[True, merged[1:] != merged[:-1]]]
            del merged
    return codes // n, codes % n
