"""Grouping: groups with a centre within the threshold of every member, against a plain union-find oracle."""

from __future__ import annotations

import heapq

import numpy as np
from hypothesis import given, settings, strategies as st
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from simdesk.core.index.documents import Snapshot
from simdesk.core.matching.groups import Grouper, build_group, split_chains
from simdesk.core.matching.pairs import brute_force_pairs, pairs_within


def snapshot(fps: list[int], hashes: list[str] | None = None) -> Snapshot:
    n = len(fps)
    return Snapshot(
        np.arange(1, n + 1, dtype=np.int64),
        np.array(fps, dtype=np.uint64),
        np.arange(n, dtype=np.int64) + 100,
        np.arange(n, dtype=np.int64),
        np.full(n, 50),
        [f"f{k:03d}.txt" for k in range(n)],
        hashes or [f"h{k}" for k in range(n)],
        ["utf-8"] * n,
    )


def grouper(fps, hashes=None, ignored=()):
    snap = snapshot(fps, hashes)
    i, j, d = pairs_within(snap.fingerprints, 12)
    return Grouper(snap, i, j, d, ignored=ignored)


def oracle_components(fps: list[int], t: int) -> set[frozenset[str]]:
    parent = list(range(len(fps)))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b, _ in brute_force_pairs(np.array(fps, dtype=np.uint64), t):
        parent[find(a)] = find(b)
    comps: dict[int, set[str]] = {}
    for k in range(len(fps)):
        comps.setdefault(find(k), set()).add(f"f{k:03d}.txt")
    return {frozenset(c) for c in comps.values() if len(c) > 1}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_groups_at_every_threshold_are_centred_parts_of_the_union_find_components(seed):
    rng = np.random.default_rng(seed)
    fps = []
    for c in rng.integers(0, 2**64, size=15, dtype=np.uint64).tolist():
        fps.append(c)
        for _ in range(int(rng.integers(0, 4))):
            x = c
            for bit in rng.choice(64, size=int(rng.integers(0, 9)), replace=False):
                x ^= 1 << int(bit)
            fps.append(x)
    g = grouper(fps)
    for t in range(13):
        grouping = g.at(t)
        got = {frozenset(m.path for m in grp.members) for grp in grouping}
        components = oracle_components(fps, t)
        # a component in which one member is within t of every other is one group; any other (a chain) is
        # split into groups each within one component, every member within t of its group's representative
        for c in components:
            rows = [int(p[1:4]) for p in c]
            if any(all(bin(fps[x] ^ fps[y]).count("1") <= t for y in rows) for x in rows):
                assert c in got
        assert all(any(grp <= c for c in components) for grp in got)
        assert all(m.distance <= t for grp in grouping for m in grp.members)
        assert len(set().union(*got)) == sum(len(grp) for grp in got)  # no document in two groups
        sizes = [len(grp.members) for grp in grouping]
        assert sizes == sorted(sizes, reverse=True)
        assert grouping.documents_in_groups == sum(sizes)
        assert grouping.redundant == sum(sizes) - len(sizes)


def test_histogram_counts_pairs_per_distance():
    fps = [0, 0b1, 0b11, 0b111111]  # distances 1, 2, 6, 1, 5, 4
    assert grouper(fps).histogram() == [0, 2, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0]


def test_representative_is_closest_to_all_and_members_carry_their_distance():
    fps = [0b0, 0b1, 0b11, 0b111]  # 0b1 and 0b11 each have the least total distance: the first path wins
    group = grouper(fps).at(3).group(0)
    assert group.members[0].path == "f001.txt"
    assert {m.path: m.distance for m in group.members} == {"f000.txt": 1, "f001.txt": 0, "f002.txt": 1, "f003.txt": 2}


def test_identical_only_when_every_member_has_the_same_bytes():
    assert grouper([5, 5], hashes=["x", "x"]).at(0).group(0).identical
    assert not grouper([5, 5], hashes=["x", "y"]).at(0).group(0).identical


def test_ignored_pairs_never_group():
    g = grouper([0, 0b1, 2**64 - 1], ignored=[("f001.txt", "f000.txt")])
    assert len(g.at(12)) == 0


def test_regrouping_does_not_recompute_pairs():
    g = grouper([0, 0b1, 0b111, 0b1111111])
    assert len(g.at(1)) == 1 and len(g.at(1).group(0).members) == 2
    assert len(g.at(7).group(0).members) == 4
    assert g.at(1) is g.at(1)


def test_huge_group_representative_in_bounded_memory():
    # zero is one bit from every single-bit value, which are two bits from each other: a zero represents
    fps = [0 if k % 3 == 0 else 1 << (k % 8) for k in range(5000)]
    group = build_group(snapshot(fps), np.arange(len(fps)), 1)  # 5000 members: computed in row chunks
    assert group.members[0].path == "f000.txt"
    assert all(m.distance == bin(fps[int(m.path[1:-4])]).count("1") for m in group.members)


def test_without_a_pair_regroups_in_memory_and_keeps_verification():
    snap = snapshot([0, 0b1, 0b11])
    i, j, d = pairs_within(snap.fingerprints, 12)
    verified = Grouper(snap, i, j, d, scores=np.array([0.9, 0.8, 0.3]), min_similarity=0.5)
    assert [len(g.members) for g in verified.at(12)] == [3]
    split = verified.without([("f001.txt", "f000.txt")])
    assert split.verified and split.min_similarity == 0.5
    assert [sorted(m.path for m in g.members) for g in split.at(12)] == [["f001.txt", "f002.txt"]]


def random_groups(seed: int = 4, n: int = 400, scores: bool = False):
    """Two copies of one grouping of `n` random fingerprints in groups of 2-5 (distances up to 12 bits), one
    to build every Group of, one left unbuilt; verified with random scores when `scores`."""
    rng = np.random.default_rng(seed)
    fps = rng.integers(0, 2**63, size=n, dtype=np.int64).view(np.uint64)
    i, j = [], []
    k = 0
    while k < n - 6:
        size = int(rng.integers(2, 6))
        for m in range(1, size):
            fps[k + m] = fps[k] ^ np.uint64(int(rng.integers(1, 2**12)))
            i.append(k)
            j.append(k + m)
        k += size + 1
    i, j = np.array(i), np.array(j)
    d = np.bitwise_count(fps[i] ^ fps[j]).astype(np.int64)
    ids = np.arange(n)
    snap = Snapshot(
        ids,
        fps,
        rng.integers(10, 10_000, n),
        rng.integers(0, 10**12, n),
        np.full(n, 10),
        [f"{x:04d}.txt" for x in ids],
        [f"{x}" for x in ids],
        ["utf-8"] * n,
    )
    s = rng.uniform(0.5, 1.0, len(i)) if scores else None
    make = lambda: Grouper(snap, i, j, d, max_threshold=64, scores=s, min_similarity=0.5 if scores else None).at(64)  # noqa: E731
    return make(), make()


def test_max_distances_equal_the_built_groups():
    """Grouping.max_distances (a sort by distance) agrees with every Group.max_distance, pairs and larger."""
    grouping, fresh = random_groups()
    assert len(grouping) > 50 and (grouping.sizes() > 2).any()
    expected = [grouping.group(k).max_distance for k in range(len(grouping))]
    assert fresh.max_distances.tolist() == expected


def test_whole_array_views_of_a_grouping_agree_with_its_groups():
    """What the window sorts and filters by, computed without building a Group, against the built Groups:
    each row's group, each group's representative, least verified similarity, size, latest change, path."""
    grouping, fresh = random_groups(7, scores=True)
    groups = list(grouping)
    snap = grouping.snapshot
    row_of = {p: r for r, p in enumerate(snap.paths)}
    owner = np.full(len(snap), -1)
    for k, g in enumerate(groups):
        owner[[row_of[m.path] for m in g.members]] = k
    assert fresh.row_groups.tolist() == owner.tolist()
    assert fresh.representatives.tolist() == [row_of[g.members[0].path] for g in groups]
    least = [min(m.score for m in g.members[1:] if m.score is not None) for g in groups]
    assert np.allclose(fresh.least_scores, least)
    keys = {
        "members": lambda g: len(g.members),
        "size": lambda g: g.total_size,
        "modified": lambda g: max(m.mtime_ns for m in g.members),
        "path": lambda g: min(m.path for m in g.members),
        "distance": lambda g: g.max_distance,
        "similarity": lambda g: least[g.id - 1],
    }
    for key, value in keys.items():
        for descending in (False, True):
            order = fresh.ordered(np.arange(len(fresh)), key, descending).tolist()
            assert sorted(order) == list(range(len(groups)))
            shown = [value(groups[k]) for k in order]
            assert shown == sorted(shown, reverse=descending), key
    needle = groups[3].members[-1].path[1:3]
    assert fresh.matching(needle.upper() + " ").tolist() == [
        k for k, g in enumerate(groups) if any(needle in m.path for m in g.members)
    ]
    assert fresh.matching("").tolist() == list(range(len(groups)))
    assert fresh._groups == {}  # none of this built a Group


def test_exact_copies_join_every_document_of_one_content_to_the_first_of_it():
    """exact_copies against grouping by content hash: the same groups, each pair from the group's first path
    (its representative), so every member's score to it is known."""
    from simdesk.core.matching.groups import exact_copies

    hashes = ["b", "a", "c", "a", "b", "a", "d"]
    snap = snapshot([5, 1, 9, 1, 5, 1, 3], hashes)
    i, j, d = exact_copies(snap)
    assert sorted(zip(i.tolist(), j.tolist())) == [(0, 4), (1, 3), (1, 5)]
    assert d.tolist() == [0, 0, 0]
    grouping = Grouper(snap, i, j, d, scores=np.ones(len(i)), min_similarity=0.7).at(0)
    assert sorted(sorted(m.path for m in g.members) for g in grouping) == [
        ["f000.txt", "f004.txt"],
        ["f001.txt", "f003.txt", "f005.txt"],
    ]
    assert all(g.identical and all(m.score == 1.0 for m in g.members) for g in grouping)
    assert [len(x) for x in exact_copies(snapshot([1], ["a"]))] == [0, 0, 0]


def test_a_chain_without_a_centre_splits_into_stars():
    # a-b, b-c, c-d, d-e pair; a and e have nothing in common: no member pairs with all the others
    snap = snapshot([0, 0b1111, 0b11111111, 0b111111111111, 0b1111111111111111])
    i, j = np.array([0, 1, 2, 3]), np.array([1, 2, 3, 4])
    grouping = Grouper(snap, i, j, np.zeros(4, dtype=np.int64)).at(0)
    groups = [[m.path for m in g.members] for g in grouping]
    assert groups == [["f001.txt", "f000.txt", "f002.txt"], ["f003.txt", "f004.txt"]]
    assert all(grouping.paired(grouping.snapshot_row(g[0]), grouping.snapshot_row(p)) for g in groups for p in g[1:])
    assert not grouping.paired(0, 2)
    # a star around one member stays whole, and that member represents it however far its fingerprint is
    star = Grouper(snap, np.array([0, 0, 0, 0]), np.array([1, 2, 3, 4]), np.zeros(4, dtype=np.int64)).at(0)
    assert [[m.path for m in g.members][0] for g in star] == ["f000.txt"] and len(star.group(0).members) == 5
    assert star.representatives.tolist() == [0]


def reference_split_chains(labels: np.ndarray, chain: np.ndarray, copy: np.ndarray, holder: np.ndarray) -> np.ndarray:
    """split_chains as first written: each chain split from its own queue, the count of every holder of a
    member taken counted down one relation at a time (a Python step per relation). The oracle of the split."""
    labels = labels.copy()
    in_chain = chain[labels[copy]]
    held_by: dict[int, set[int]] = {}  # row -> the rows it holds
    holders: dict[int, set[int]] = {}  # row -> the rows holding it
    for c, h in zip(copy[in_chain].tolist(), holder[in_chain].tolist()):
        held_by.setdefault(h, set()).add(c)
        holders.setdefault(c, set()).add(h)
    fresh = len(chain)
    members_of: dict[int, list[int]] = {}
    for row in sorted(set(held_by) | set(holders)):
        members_of.setdefault(int(labels[row]), []).append(row)
    for rows in members_of.values():
        left = set(rows)
        count = {r: len(held_by.get(r, ())) for r in rows}
        heap = [(-count[r], r) for r in rows]
        heapq.heapify(heap)
        while heap:
            c, centre = heapq.heappop(heap)
            if centre not in left or -c != count[centre]:
                continue
            if count[centre] == 0:
                break
            group = {centre} | (held_by.get(centre, set()) & left)
            left -= group
            labels[list(group)] = fresh
            fresh += 1
            for r in group:
                for h in holders.get(r, set()) & left:
                    count[h] -= 1
                    heapq.heappush(heap, (-count[h], h))
        for r in left:
            labels[r] = fresh
            fresh += 1
    return labels


def partition(labels: np.ndarray) -> np.ndarray:
    """Each row's label renamed to the first row that has it: equal for two labellings of the same groups."""
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    return first[inverse]


def random_relations(rng: np.random.Generator, min_similarity: float) -> tuple[np.ndarray, ...]:
    """(labels, copy, holder) as Grouping builds them from random pairs with random shares: crowds of rows
    pairing with most of each other, sparse chains, pairs given twice; shares tied at the least similarity,
    under it, or NaN (not measured: held both ways)."""
    n = int(rng.integers(2, 60))
    i_parts, j_parts = [], []
    for _ in range(int(rng.integers(1, 4))):
        rows = rng.choice(n, size=int(rng.integers(2, n + 1)), replace=False)
        density = float(rng.choice([0.05, 0.3, 0.9]))
        a, b = np.triu_indices(len(rows), 1)
        keep = rng.random(len(a)) < density
        i_parts.append(rows[a[keep]])
        j_parts.append(rows[b[keep]])
    i, j = np.concatenate(i_parts), np.concatenate(j_parts)
    if not len(i):
        i, j = np.array([0]), np.array([1])
    shares = np.array([0.2, min_similarity - 0.01, min_similarity, 0.95, 1.0, np.nan])
    held = rng.choice(shares, size=(len(i), 2))
    j_holds, i_holds = ~(held[:, 0] < min_similarity), ~(held[:, 1] < min_similarity)
    copies = j_holds | i_holds
    i, j, j_holds, i_holds = i[copies], j[copies], j_holds[copies], i_holds[copies]
    graph = coo_matrix((np.ones(len(i), dtype=np.int8), (i, j)), shape=(n, n))
    _, labels = connected_components(graph, directed=False)
    return labels, np.r_[i[j_holds], j[i_holds]], np.r_[j[j_holds], i[i_holds]]


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_chains_split_as_the_per_relation_reference_splits_them(seed):
    rng = np.random.default_rng(seed)
    labels, copy, holder = random_relations(rng, 0.7)
    chain = rng.random(labels.max() + 1) < 0.8  # most components split, some left whole
    got = split_chains(labels, chain, copy, holder)
    want = reference_split_chains(labels, chain, copy, holder)
    assert partition(got).tolist() == partition(want).tolist()


def test_groups_built_a_block_at_once_equal_those_built_one_by_one():
    """Grouping.groups (a report's blocks: the members' relations to their representatives looked up at once)
    gives the groups group() builds, shares both ways, NaN shares, identical copies paired through their
    representatives (Snapshot.copy_of) and content hashes kept as one array (ContentHashes)."""
    from dataclasses import replace

    from simdesk.core.index.documents import ContentHashes

    rng = np.random.default_rng(11)
    n = 300
    fps = rng.integers(0, 2**63, size=n, dtype=np.int64).view(np.uint64)
    copy_of = np.arange(n)
    i, j = [], []
    k = 0
    through = []  # (a copy, another member of its group): paired through the copy's representative
    while k < n - 8:
        size = int(rng.integers(2, 7))
        for m in range(1, size):
            if rng.random() < 0.4:  # an identical copy of the group's first text
                fps[k + m] = fps[k]
                copy_of[k + m] = k
            else:
                fps[k + m] = fps[k] ^ np.uint64(int(rng.integers(1, 2**12)))
            i.append(k)
            j.append(k + m)
        members = range(k + 1, k + size)
        through += [(c, m) for c in members for m in members if copy_of[c] != c and copy_of[m] == m]
        k += size + 1
    i, j = np.array(i), np.array(j)
    d = np.bitwise_count(fps[i] ^ fps[j]).astype(np.int64)
    scores = rng.uniform(0.5, 1.0, len(i))
    held = rng.uniform(0.5, 1.0, (len(i), 2))
    held[rng.random(len(i)) < 0.1] = np.nan  # shares not measured
    digits = np.array([f"{copy_of[r]:064x}".encode() for r in range(n)], dtype="S64")
    snap = replace(random_groups(n=n)[0].snapshot, fingerprints=fps, copy_of=copy_of)
    for hashes in (ContentHashes(digits), [h.decode() for h in digits.tolist()]):
        grouper = Grouper(
            replace(snap, hashes=hashes), i, j, d, max_threshold=64, scores=scores, min_similarity=0.5, held=held
        )
        one_by_one = [grouper.at(64).group(k, keep=False) for k in range(len(grouper.at(64)))]
        grouping = grouper.at(64)
        assert len(one_by_one) > 40 and any(not g.identical for g in one_by_one)
        assert any(m.held is None for g in one_by_one for m in g.members)
        assert grouping.groups(range(len(grouping))) == one_by_one
        assert [
            g for k0 in range(0, len(grouping), 7) for g in grouping.groups(range(k0, k0 + 7)[: len(grouping) - k0])
        ] == one_by_one
        grouping.group(3)  # a group kept already is given as kept
        assert grouping.groups(range(2, 5)) == one_by_one[2:5]
        # any two rows, copies of paired rows among them: the relation of the pair that stands for them
        a, b = rng.integers(0, n, 3000), rng.integers(0, n, 3000)
        paired = rng.integers(0, len(i), 1000)
        a[:1000], b[:1000] = i[paired], j[paired]
        a[1000 : 1000 + len(through)], b[1000 : 1000 + len(through)] = np.array(through).T
        a[2000:2500], b[2000:2500] = b[2000:2500], copy_of[b[2000:2500]]  # a copy and its own representative
        at_once = grouping._relations(a, b)
        for x, y, got in zip(a.tolist(), b.tolist(), at_once):
            want = grouping._relation(x, y)
            assert np.array_equal(got, np.full(3, np.nan) if want is None else np.array(want), equal_nan=True)
        assert np.isfinite(at_once[:1000, 0]).all() and len(through) > 20
        assert np.isfinite(at_once[1000 : 1000 + len(through), 0]).all()
