"""MinHash signatures and LSH band keys over the shingles the desktop's verification scores
(simdesk.core.analysis.verification_profile(...).shingles: the 32-bit shingle hashes of a text without its
boilerplate, verify.shingles). At scale the verified mode's candidates come from these bands, not from SimHash radii of 12..18
bits, which no equi-join can reach; every candidate is then scored with the desktop's score function.

The shingles are already 32-bit hashes, so each permutation is one multiply-add modulo the Mersenne prime
2^61 - 1 (datasketch's scheme), done for all shingles and permutations in one numpy operation instead of a
Python call per shingle.

Bands: 40 bands of 3 rows (120 permutations). Two texts whose shingle sets have Jaccard similarity J share
a band with probability 1 - (1 - J^3)^40: 0.66 at J = 0.3, 0.93 at 0.4, 0.995 at 0.5, 1 - 1e-9 at 0.7. The
desktop's similarity is also containment for texts of comparable length, and edit similarity for two short
texts, so a pair that reaches 0.7 only by containment (one text 70% inside a text twice its size: J ~ 0.3)
or only by edit similarity (a short text with a quarter of its shingles changed) is found less surely: the
price of a join that stays linear.
"""
from __future__ import annotations

import mmh3
import numpy as np

NUM_PERM = 120
BANDS = 40
ROWS = NUM_PERM // BANDS
PRIME = np.uint64((1 << 61) - 1)
MAX_HASH = np.uint64((1 << 32) - 1)
SEED = 0x5D35
CHUNK = 8192  # shingles hashed at a time: bounded memory for a huge text
EMPTY = np.full(NUM_PERM, MAX_HASH, dtype=np.uint64)


def _permutations() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.RandomState(SEED)
    a = rng.randint(1, int(PRIME), size=NUM_PERM, dtype=np.uint64)
    b = rng.randint(0, int(PRIME), size=NUM_PERM, dtype=np.uint64)
    return a, b


A, B = _permutations()


def signature(shingles: np.ndarray) -> np.ndarray:
    """The MinHash signature (NUM_PERM uint64 values) of a set of 32-bit shingles; EMPTY for no shingles."""
    sig = EMPTY.copy()
    hv = np.asarray(shingles, dtype=np.uint64)
    for s in range(0, len(hv), CHUNK):
        part = hv[s:s + CHUNK, None]
        with np.errstate(over="ignore"):
            permuted = ((part * A[None, :] + B[None, :]) % PRIME) & MAX_HASH
        np.minimum(sig, permuted.min(axis=0), out=sig)
    return sig


def band_keys(sig: np.ndarray) -> np.ndarray:
    """One signed 64-bit key per band: texts sharing a key in the same band are candidates."""
    rows = np.ascontiguousarray(sig, dtype="<u8").reshape(BANDS, ROWS)
    return np.array([mmh3.hash64(r.tobytes(), seed=band, signed=True)[0] for band, r in enumerate(rows)],
                    dtype=np.int64)


def lsh_candidates(keys: np.ndarray, empty: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """All pairs (i < j) of rows sharing a band key (`keys`: rows x BANDS, from band_keys), each once; rows
    flagged in `empty` (texts without shingles) are never candidates. The in-memory form of the band join."""
    n = len(keys)
    pairs = set()
    for band in range(BANDS):
        values = keys[:, band]
        order = np.argsort(values, kind="stable")
        sv = values[order]
        starts = np.flatnonzero(np.r_[True, sv[1:] != sv[:-1]]) if n else np.empty(0, dtype=np.int64)
        ends = np.r_[starts[1:], n]
        for s, e in zip(starts.tolist(), ends.tolist()):
            if e - s < 2:
                continue
            members = sorted(int(r) for r in order[s:e] if empty is None or not empty[r])
            pairs.update((members[x], members[y]) for x in range(len(members)) for y in range(x + 1, len(members)))
    if not pairs:
        e = np.empty(0, dtype=np.int64)
        return e, e.copy()
    arr = np.array(sorted(pairs), dtype=np.int64)
    return arr[:, 0], arr[:, 1]
