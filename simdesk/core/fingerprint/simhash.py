"""64-bit SimHash fingerprints of weighted features (mmh3), and Hamming distances between them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import mmh3
import numpy as np

from simdesk.core.compiled import KERNELS

SEED = 0x51D35C  # fixed: fingerprints must be equal across runs, processes and platforms
BITS = 64
MASK64 = (1 << 64) - 1


@lru_cache(maxsize=1 << 20)
def feature_hash(feature: str) -> int:
    """The unsigned 64-bit MurmurHash3 (x64, first half of the 128-bit digest) of a feature's UTF-8 bytes."""
    return mmh3.hash64(feature.encode("utf-8"), seed=SEED, x64arch=True, signed=False)[0]


def feature_hashes(features: Iterable[str], count: int = -1) -> np.ndarray:
    """feature_hash of each feature, uncached, as unsigned 64-bit integers."""
    return np.fromiter(
        (mmh3.hash64(f.encode("utf-8"), seed=SEED, x64arch=True, signed=False)[0] for f in features),
        dtype="<u8",
        count=count,
    )


def votes(weights: Mapping[str, float]) -> np.ndarray:
    """SimHash's 64 tallies: for bit i, the weight of the features whose hash has bit i set minus the weight
    of those where it is clear (halved). Additive: the votes of a text are the sum of its parts' votes."""
    if not weights:
        return np.zeros(BITS)
    hashes = np.fromiter((feature_hash(f) for f in weights), dtype="<u8", count=len(weights))
    w = np.fromiter(weights.values(), dtype=np.float64, count=len(weights))
    bits = np.unpackbits(hashes.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")  # (n, 64), bit 0 first
    return w @ bits - 0.5 * w.sum()


TIE = 1e-5  # tallies within this fraction of the largest are ties


def from_votes(tallies: np.ndarray, tie: float | None = None) -> int:
    """The fingerprint of a vote vector: bit i set where tally i is positive.

    A tally that is zero up to rounding (a tie: in short texts, equally weighted features often cancel) is
    clear, so that votes summed or subtracted in another order (float32 storage, boilerplate removal) give
    the same fingerprint."""
    tallies = np.asarray(tallies, dtype=np.float64)
    if tie is None:  # `tie`: a caller that knows its rounding error (stored votes) gives it
        tie = TIE * max(float(np.abs(tallies).max(initial=0.0)), 1e-12)
    return int(np.packbits(tallies > tie, bitorder="little").view("<u8")[0])


def from_votes_rows(tallies: np.ndarray, ties: np.ndarray) -> np.ndarray:
    """from_votes of each row of `tallies` (rows x BITS) with its own tie (`ties`, a number a row): uint64."""
    return np.packbits(np.asarray(tallies, dtype=np.float64) > ties[:, None], axis=1, bitorder="little").view("<u8")[
        :, 0
    ]


def pack_votes(tallies: np.ndarray) -> bytes:
    """Votes in 132 bytes: their largest magnitude as float32, then each tally over it as float16."""
    tallies = np.asarray(tallies, dtype=np.float64)
    scale = float(np.abs(tallies).max(initial=0.0)) or 1.0
    return np.float32(scale).tobytes() + (tallies / scale).astype("<f2").tobytes()


def seal_votes(tallies: np.ndarray, kernels: Any = KERNELS) -> tuple[int, bytes]:
    """`(from_votes(tallies), pack_votes(tallies))` of a text's own votes, in one pass over them with the compiled
    `kernels` (simdesk/core/compiled.py) when there are: the same bits (tests/core/test_kernels.py)."""
    if kernels is None:
        return from_votes(tallies), pack_votes(tallies)
    return kernels.seal_votes(np.ascontiguousarray(tallies, dtype=np.float64), TIE)


def unpack_votes(blob: bytes) -> np.ndarray | None:
    """The votes packed by pack_votes (to about 3 significant digits), or None for an empty blob."""
    if len(blob) != 4 + 2 * BITS:
        return None
    scale = float(np.frombuffer(blob[:4], dtype="<f4")[0])
    return np.frombuffer(blob[4:], dtype="<f2").astype(np.float64) * scale


def unpack_votes_rows(blobs: Sequence[bytes]) -> np.ndarray:
    """unpack_votes of each blob (each packed by pack_votes): rows x BITS."""
    packed = np.frombuffer(b"".join(blobs), dtype=np.uint8).reshape(len(blobs), 4 + 2 * BITS)
    scale = packed[:, :4].copy().view("<f4")[:, 0].astype(np.float64)
    return packed[:, 4:].copy().view("<f2").astype(np.float64) * scale[:, None]


def simhash(weights: Mapping[str, float]) -> int:
    """SimHash: bit i is set when the features whose hash has bit i set outweigh those where it is clear."""
    return from_votes(votes(weights))


def hamming(a: int, b: int) -> int:
    """The number of bits in which two fingerprints differ."""
    return (a ^ b).bit_count()


def to_signed(fp: int) -> int:
    """SQLite stores 64-bit signed integers: map an unsigned fingerprint into that range."""
    return fp - (1 << 64) if fp >= (1 << 63) else fp


def to_unsigned(value: int) -> int:
    return value & MASK64


def similarity_percent(distance: int) -> float:
    """The share of fingerprint bits that agree, as a percentage (an approximate similarity)."""
    return 100.0 * (1 - distance / BITS)
