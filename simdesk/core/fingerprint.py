"""64-bit SimHash fingerprints of weighted features (mmh3), and Hamming distances between them."""
from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

import mmh3
import numpy as np

SEED = 0x51D35C  # fixed: fingerprints must be equal across runs, processes and platforms
BITS = 64
MASK64 = (1 << 64) - 1


@lru_cache(maxsize=1 << 20)
def feature_hash(feature: str) -> int:
    """The unsigned 64-bit MurmurHash3 (x64, first half of the 128-bit digest) of a feature's UTF-8 bytes."""
    return mmh3.hash64(feature.encode("utf-8"), seed=SEED, x64arch=True, signed=False)[0]


def simhash(weights: Mapping[str, float]) -> int:
    """SimHash: bit i is set when the features whose hash has bit i set outweigh those where it is clear."""
    if not weights:
        return 0
    hashes = np.fromiter((feature_hash(f) for f in weights), dtype="<u8", count=len(weights))
    w = np.fromiter(weights.values(), dtype=np.float64, count=len(weights))
    bits = np.unpackbits(hashes.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")  # (n, 64), bit 0 first
    votes = w @ bits - 0.5 * w.sum()  # sum of +w where set, -w where clear, halved: the sign is what counts
    packed = np.packbits(votes > 0, bitorder="little")
    return int(packed.view("<u8")[0])


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
