"""Pair search: simdesk's pairs_within on a million synthetic fingerprints (verified against brute force on a
subset), and against its peers on the medium collection's real fingerprints at k=3."""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np

from simdesk.core import brute_force_pairs, pairs_within

Figure = tuple[str, float, str]


def synthetic_fingerprints(n: int, seed: int = 7) -> np.ndarray:
    """n random 64-bit fingerprints, a tenth of them replaced by near-duplicates of others (0..12 bits
    flipped, so some exact copies) and a further 1% by small clusters around one source."""
    rng = np.random.default_rng(seed)
    fps = rng.integers(0, 2**64, size=n, dtype=np.uint64)
    k = n // 10
    variants = fps[rng.integers(0, n, size=k)].copy()
    flips = rng.integers(0, 13, size=k)
    for b in range(12):
        sel = flips > b
        variants[sel] ^= np.uint64(1) << rng.integers(0, 64, size=int(sel.sum())).astype(np.uint64)
    fps[rng.choice(n, size=k, replace=False)] = variants
    c = n // 100  # clusters of 5 around one source, each within 4 bits of it
    sources = fps[rng.integers(0, n, size=c // 5)]
    cluster = np.repeat(sources, 5)
    for _ in range(4):
        cluster ^= np.uint64(1) << rng.integers(0, 64, size=len(cluster)).astype(np.uint64)
    fps[rng.choice(n, size=len(cluster), replace=False)] = cluster
    return fps


def _timed(fn, *args):
    t = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t


def synthetic_figures(n: int, verify_n: int) -> Iterator[Figure]:
    fps = synthetic_fingerprints(n)
    results = {}
    for r in (3, 8):
        results[r], seconds = _timed(pairs_within, fps, r)
        yield f"pairs_r{r}_seconds", seconds, f"s ({n} fingerprints; target < {3 if r == 3 else 30} s)"
        yield f"pairs_r{r}_found", len(results[r][0]), "pairs"
    # exactness on a subset that holds many true pairs: random rows plus both ends of found pairs
    rng = np.random.default_rng(1)
    i8, j8, _ = results[8]
    take = rng.choice(len(i8), size=min(len(i8), verify_n // 4), replace=False)
    rows = np.unique(np.concatenate([i8[take], j8[take], rng.choice(n, size=verify_n // 2, replace=False)]))
    sub = fps[rows]
    oracle8 = brute_force_pairs(sub, 8)
    position = {int(r): k for k, r in enumerate(rows)}
    ok = True
    for r in (3, 8):
        oracle = {p for p in oracle8 if p[2] <= r}
        si, sj, sd = pairs_within(sub, r)
        ok &= set(zip(si.tolist(), sj.tolist(), sd.tolist())) == oracle
        # and the million-wide run, restricted to the subset, found exactly these pairs
        i, j, d = results[r]
        inside = np.isin(i, rows) & np.isin(j, rows)
        restricted = {
            (position[a], position[b], c) for a, b, c in zip(i[inside].tolist(), j[inside].tolist(), d[inside].tolist())
        }
        ok &= restricted == oracle
    yield "pairs_verified_rows", len(rows), "fingerprints compared with brute force (r=3 and r=8)"
    yield "pairs_identical_to_brute_force", int(ok), "bool"


def numpy_all_pairs(fps: np.ndarray, radius: int, rows: int = 512) -> set[tuple[int, int]]:
    """The plain peer: XOR and popcount of every pair, a block of rows at a time."""
    out: set[tuple[int, int]] = set()
    for s in range(0, len(fps), rows):
        block = np.bitwise_count(fps[s : s + rows, None] ^ fps[None, :])
        a, b = np.nonzero(block <= radius)
        a = a + s
        keep = a < b
        out.update(zip(a[keep].tolist(), b[keep].tolist()))
    return out


def peer_figures(weights: list[dict[str, float]], fps: np.ndarray, k: int = 3) -> Iterator[Figure]:
    """simdesk vs SimhashIndex, datasketch MinHashLSH and numpy all-pairs, on the same documents' features."""
    n = len(fps)
    runs = [_timed(pairs_within, fps, k) for _ in range(5)]
    (i, j, _), ours = runs[0][0], sorted(t for _, t in runs)[2]  # the median of 5: it takes milliseconds
    ours_pairs = set(zip(i.tolist(), j.tolist()))
    yield "peer_documents", n, "documents (medium collection)"
    yield "pairs_simdesk_k3_seconds", ours, "s (median of 5)"

    from simhash import Simhash, SimhashIndex

    def simhash_index() -> set[tuple[int, int]]:
        objs = [(str(x), Simhash(int(v))) for x, v in enumerate(fps.tolist())]
        index = SimhashIndex(objs, k=k)
        found = set()
        for x, h in objs:
            for other in index.get_near_dups(h):
                y = int(other)
                if y != int(x):
                    found.add((min(int(x), y), max(int(x), y)))
        return found

    theirs, seconds = _timed(simhash_index)
    yield "pairs_simhashindex_k3_seconds", seconds, "s (build + query every document)"
    yield "pairs_vs_simhashindex_speedup", seconds / ours, f"x (target >= 50; same pairs: {theirs == ours_pairs})"

    everything, seconds = _timed(numpy_all_pairs, fps, k)
    yield "pairs_numpy_allpairs_k3_seconds", seconds, "s"
    yield "pairs_vs_numpy_allpairs_speedup", seconds / ours, f"x (same pairs: {everything == ours_pairs})"

    # fingerprinting the same weighted features: simhash's Simhash (md5 per feature) vs simdesk (mmh3, numpy)
    from simdesk.core import simhash

    sample = weights[: min(len(weights), 5000)]
    _, mine = _timed(lambda: [simhash(w) for w in sample])
    _, theirs_fp = _timed(lambda: [Simhash(w) for w in sample])
    yield "fingerprint_simdesk_docs_per_s", len(sample) / mine, "docs/s"
    yield "fingerprint_simhash_pkg_docs_per_s", len(sample) / theirs_fp, "docs/s"

    from datasketch import MinHash, MinHashLSH

    token_sets = [[t.encode("utf-8") for t in w] for w in weights]
    hashes, seconds_mh = _timed(lambda: MinHash.bulk(token_sets, num_perm=128))
    yield "minhash_datasketch_docs_per_s", n / seconds_mh, "docs/s (MinHash, 128 permutations)"

    def lsh() -> set[tuple[int, int]]:
        index = MinHashLSH(threshold=0.8, num_perm=128)
        with index.insertion_session() as session:
            for x, m in enumerate(hashes):
                session.insert(x, m)
        found = set()
        for x, m in enumerate(hashes):
            for y in index.query(m):
                if y != x:
                    found.add((min(x, y), max(x, y)))
        return found

    lsh_pairs, seconds = _timed(lsh)
    yield "pairs_minhashlsh_seconds", seconds, f"s (threshold 0.8: {len(lsh_pairs)} candidate pairs)"
    yield "pairs_vs_minhashlsh_speedup", seconds / ours, "x (pair search only, fingerprints/MinHashes made)"
