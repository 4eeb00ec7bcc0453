"""A document's boilerplate-free fingerprint computed for many documents at once (clean_fingerprints_of) is the
one the straightforward sum gives, bit for bit: its votes minus each of its boilerplate lines' votes added one by
one, ties and documents of nothing but boilerplate included."""

from __future__ import annotations

import numpy as np

from simdesk.core.fingerprint.simhash import BITS, from_votes, pack_votes, unpack_votes
from simdesk.core.matching.analysis import VOTES_LEFT, clean_fingerprint, clean_fingerprints_of


def reference(packed: bytes, hits: np.ndarray, line_votes: dict[int, np.ndarray], plain: int) -> int:
    whole = unpack_votes(packed)
    if not len(hits) or whole is None:
        return plain
    zero = np.zeros(BITS)
    rest = whole - sum((line_votes.get(int(h), zero) for h in hits), zero)
    rounding = VOTES_LEFT * max(float(np.abs(whole).max()), 1e-9)
    return from_votes(rest, tie=rounding) if np.abs(rest).max() > rounding else plain


def test_many_at_once_equal_the_sum_one_by_one():
    rng = np.random.default_rng(5)
    line_votes = {int(h): rng.normal(size=BITS) * rng.choice([1e-3, 1.0, 100.0]) for h in rng.integers(0, 2**32, 300)}
    lines = list(line_votes)
    packed, hits, plain = [], [], []
    for n in range(3000):
        held = set(rng.choice(lines, int(rng.integers(0, 12))).tolist()) | ({12345} if n % 7 == 0 else set())
        h = np.array(sorted(held), dtype=np.uint32)  # 12345: a line whose votes are not known
        own = rng.normal(size=BITS) * rng.choice([0.0, 1e-4, 1.0])  # 0: nothing but boilerplate
        votes = sum((line_votes.get(int(x), np.zeros(BITS)) for x in h), np.zeros(BITS)) + own
        packed.append(pack_votes(votes) if n % 11 else b"")  # b"": votes not kept
        hits.append(h)
        plain.append(int(rng.integers(0, 2**63)) * 2 + 1)
    expected = [reference(p, h, line_votes, q) for p, h, q in zip(packed, hits, plain)]
    assert clean_fingerprints_of(packed, hits, line_votes, np.array(plain, dtype=np.uint64)).tolist() == expected
    assert [clean_fingerprint(p, h, line_votes, q) for p, h, q in zip(packed, hits, plain)] == expected
    assert sum(e != q for e, q in zip(expected, plain)) > 500  # many have a fingerprint of their own
    assert sum(e == q for e, q, h in zip(expected, plain, hits) if len(h)) > 100  # some are all boilerplate
