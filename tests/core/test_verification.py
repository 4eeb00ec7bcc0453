"""Boilerplate, the verification score, and the verified analysis on real folders and a real index."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simdesk.core.fingerprint.similarity import profile, shingle_score, similarity
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import VerifySettings, analyse, candidate_pairs, pair_radius, text_similarity
from simdesk.core.matching.copies import identical_copies
from simdesk.core.reading.boilerplate import boilerplate_set, line_hashes, min_document_frequency, strip_boilerplate
from simdesk.core.records import ScanOptions

FOOTER = "（本文来源：新浪网。版权归原作者所有，如有侵权请联系删除。）"
SAYINGS = [
    "人无远虑，必有近忧。",
    "宁走十步远，不走一步险。",
    "病急乱投医，逢庙就烧香。",
    "大王好见，小鬼难求。",
    "财压奴婢，艺压当行。",
    "一家不知一家，和尚不知道家。",
    "失事容易，得事艰难。",
    "小的不哄，老的不欺。",
    "天无一月雨，人无一世穷。",
    "针无两头锋利，人无两副身心。",
    "好酒不怕酿，好人不怕讲。",
    "死生有命，富贵在天。",
]


def shingled(text):
    return profile(text).shingles


def test_shingle_score_is_resemblance_or_gated_containment():
    a = shingled("今天天气很好我们一起去公园散步")
    assert shingle_score(a, a) == 1.0
    truncated = shingled("今天天气很好我们一起去公园")
    assert shingle_score(a, truncated) == 1.0  # contained, and not much shorter
    tiny = shingled("今天天气")
    assert shingle_score(a, tiny) < 0.3  # contained, but far shorter: the length gate applies
    assert shingle_score(a, shingled("床前明月光疑是地上霜")) == 0.0
    assert shingle_score(shingled("今天天气很好，我们"), shingled("今天天气很好,我们")) == 1.0


def test_short_texts_also_count_their_edit_similarity():
    assert text_similarity("你妈妈喊你回家吃饭哦,回家罗回家罗", "你妈妈叫你回家吃饭啦,回家罗回家罗") >= 0.85
    assert (
        shingle_score(shingled("你妈妈喊你回家吃饭哦,回家罗回家罗"), shingled("你妈妈叫你回家吃饭啦,回家罗回家罗"))
        < 0.7
    )
    assert text_similarity("How are you? I am fine. Thanks.", "How r you?I am fine. Thanks.") >= 0.95
    assert text_similarity("第一章 总则", "第二章 总则") < 0.5  # too short for edit similarity: a new title
    assert text_similarity("人无远虑，必有近忧。一家不知一家", "宁走十步远，不走一步险。大王好见") < 0.3
    p = profile("床前明月光，疑是地上霜。举头望明月，低头思故乡。")
    assert similarity(p, p) == 1.0


def test_boilerplate_needs_many_documents_and_short_lines():
    docs = [f"{s}\n{FOOTER}" for s in SAYINGS] + ["另一段很长的正文。" * 20 + "\n" + FOOTER]
    hashes = [line_hashes(d) for d in docs]
    assert min_document_frequency(len(docs)) == 10
    boiler = boilerplate_set(hashes, len(docs))
    assert len(boiler) == 1  # only the footer: each saying occurs once
    assert strip_boilerplate(docs[0], boiler) == SAYINGS[0]
    assert strip_boilerplate(FOOTER, boiler) == FOOTER  # nothing else would remain: the text stays whole
    assert boilerplate_set(hashes[:9], 9) == frozenset()  # too few documents to tell


def test_length_aware_radius():
    verify = VerifySettings()
    assert pair_radius(np.array([100, 399, 400, 1499, 1500, 10**6]), verify).tolist() == [18, 18, 16, 16, 12, 12]


def test_candidates_include_far_pairs_only_for_short_texts():
    fps = np.array([0, (1 << 15) - 1, 2**64 - 1, 2**64 - 1 - ((1 << 15) - 1)], dtype=np.uint64)  # d = 15 twice
    i, j, d, scaled = candidate_pairs(fps, np.array([100, 100, 5000, 5000]), VerifySettings())
    assert set(zip(i.tolist(), j.tolist(), d.tolist())) == {(0, 1, 15)}
    assert scaled.tolist() == [10]  # 15 bits of an 18-bit radius is 10 of 12


def write(root, files):
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def test_shared_footer_does_not_group_different_sayings_but_a_repost_groups(tmp_path):
    root = tmp_path / "docs"
    files = {f"s{k:02d}.txt": f"{s}\n\n{FOOTER}" for k, s in enumerate(SAYINGS)}
    files["plain.txt"] = SAYINGS[0]  # the same saying without the footer
    write(root, files)
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        grouper = analyse(root, index, verify=VerifySettings(jobs=1))
        groups = [sorted(m.path for m in g.members) for g in grouper.at(12)]
        assert groups == [["plain.txt", "s00.txt"]]
        assert grouper.at(12).group(0).members[1].score == 1.0
        # the boilerplate-free fingerprint of the reposted saying is (all but float rounding of ties) the
        # plain saying's, while their stored fingerprints, footer included, are far apart
        snap = grouper.snapshot
        row = {p: k for k, p in enumerate(snap.paths)}
        assert bin(int(snap.fingerprints[row["s00.txt"]] ^ snap.fingerprints[row["plain.txt"]])).count("1") <= 3
        assert bin(index.document("s00.txt").fingerprint ^ index.document("plain.txt").fingerprint).count("1") > 10
        # scores are kept: a second analysis reads nothing new and gives the same groups
        assert index.scores()
        again = analyse(root, index, verify=VerifySettings(jobs=1))
        assert [sorted(m.path for m in g.members) for g in again.at(12)] == groups


def test_verified_analysis_matches_truth_on_the_small_collection(tmp_path, small_corpus):
    truth = json.loads((small_corpus / "truth.json").read_text("utf-8"))["files"]
    with Index(tmp_path / "i.sqlite") as index:
        scan(small_corpus, index, ScanOptions(jobs=2))
        grouping = analyse(small_corpus, index).at(12)
        wrong = sum(
            1 for g in grouping for m in g.members if truth[m.path]["group"] != truth[g.members[0].path]["group"]
        )
        grouped = sum(len(g.members) for g in grouping)
        assert wrong <= 0.02 * grouped
        assert all(m.score is None or m.score >= 0.7 for g in grouping for m in g.members[1:])


def test_changed_candidates_equal_a_full_search(tmp_path):
    from simdesk.core.matching.analysis import changed_candidates

    rng = np.random.default_rng(5)
    centres = rng.integers(0, 2**64, size=60, dtype=np.uint64)
    fps = np.array(
        [
            int(c) ^ (1 << int(rng.integers(0, 64))) * int(rng.integers(0, 2)) ^ int(rng.integers(0, 2**20))
            for c in np.repeat(centres, 4)
        ],
        dtype=np.uint64,
    )
    chars = rng.choice([100, 800, 5000], size=len(fps))
    ids = np.arange(10, 10 + len(fps))
    verify = VerifySettings()
    full = candidate_pairs(fps, chars, verify)
    as_set = lambda c: set(zip(*(x.tolist() for x in c)))  # noqa: E731
    dirty = rng.random(len(fps)) < 0.1
    # what the index keeps: every candidate's score, minus the pairs that touch a changed document
    known = {
        (int(ids[a]), int(ids[b])): 1.0
        for a, b in zip(full[0].tolist(), full[1].tolist())
        if not dirty[a] and not dirty[b]
    }
    assert as_set(changed_candidates(fps, chars, ids, dirty, known, verify)) == as_set(full)
    assert as_set(changed_candidates(fps, chars, ids, np.ones(len(fps), bool), {}, verify)) == as_set(full)


def test_rescan_after_one_edit_scores_only_the_new_pairs(tmp_path, small_corpus):
    import shutil

    root = tmp_path / "copy"
    shutil.copytree(small_corpus, root)
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        first = analyse(root, index, verify=VerifySettings(jobs=1))
        before = {tuple(sorted(m.path for m in g.members)) for g in first.at(12)}
        kept = index.scores()
        victim = root / first.at(12).group(0).members[1].path
        victim.write_text(
            victim.read_text(encoding="utf-8", errors="replace") + "\n另外补充了一句新的话。", encoding="utf-8"
        )
        scan(root, index, ScanOptions(jobs=1))
        paired, known = index.paired_fingerprints()
        # only the edited document lost its pairing (a class of identical copies is paired through its first)
        reps = identical_copies(index.snapshot().hashes).representatives
        assert known[reps].sum() == len(reps) - 1 and not known.sum() - known[reps].sum()
        second = analyse(root, index, verify=VerifySettings(jobs=1))
        after = {tuple(sorted(m.path for m in g.members)) for g in second.at(12)}
        assert index.paired_fingerprints()[1][identical_copies(index.snapshot().hashes).representatives].all()
        unchanged_pairs = {k: v for k, v in index.scores().items() if k in kept}
        assert len(unchanged_pairs) >= len(kept) - 20  # the untouched documents' scores were kept, not redone
        assert len(after) >= len(before) - 1


def test_the_diff_shows_the_stored_score_of_every_verified_pair(tmp_path, small_corpus):
    """One similarity: the figure a side-by-side comparison reports is the score grouping used."""
    from simdesk.core.matching.analysis import collection_boilerplate
    from simdesk.core.review.diff import compare_files

    with Index(tmp_path / "i.sqlite") as index:
        scan(small_corpus, index, ScanOptions(jobs=1))
        grouping = analyse(small_corpus, index, verify=VerifySettings(jobs=1)).at(12)
        boilerplate = collection_boilerplate(index)
    pairs = [(g.members[0].path, m.path, m.score) for g in grouping for m in g.members[1:] if m.score is not None]
    assert len(pairs) >= 20 and any(s < 1.0 for _, _, s in pairs)
    for a, b, stored in pairs[:40]:
        for mode in ("normalised", "raw"):
            shown = compare_files(small_corpus / a, small_corpus / b, mode=mode, boilerplate=boilerplate)
            assert round(shown.similarity, 1) == round(100 * stored, 1), (a, b, mode)


def test_a_read_plan_scores_each_pair_once_with_its_texts_held_and_reads_each_text_once_when_it_can():
    from simdesk.core.matching.analysis import read_plan

    rng = np.random.default_rng(3)
    a = rng.integers(0, 400, size=900)
    b = (a + rng.integers(1, 6, size=900)) % 400  # chains: components of many rows
    a, b = np.minimum(a, b), np.maximum(a, b)
    keep = np.unique(a * 400 + b, return_index=True)[1]
    a, b = a[keep], b[keep]
    texts = len(np.unique(np.r_[a, b]))
    for limit, window, chunk in ((2, 1, 1), (7, 3, 2), (50, 10, 4), (1000, 16, 8), (1000, 64, 16)):
        steps = read_plan(a, b, 400, limit, window, chunk=chunk)
        every = np.concatenate([np.r_[s.inside, s.pairs] for s in steps])
        assert sorted(every.tolist()) == list(range(len(a)))
        held: set[int] = set()
        reads = inside = 0
        sent_back: set[int] = set()
        for step in steps:
            assert not held & set(step.reads)  # a text is read again only after it was let go
            for rows, pairs, back in step.tasks():  # a task reads both texts of each pair it scores
                assert 0 < len(rows) <= chunk and set(a[pairs]) | set(b[pairs]) <= set(rows.tolist())
                sent_back |= set(rows[back].tolist())
                inside += len(pairs)
            assert sorted(r for rows, _, _ in step.tasks() for r in rows.tolist()) == sorted(step.reads)
            held |= set(step.reads)
            reads += len(step.reads)
            assert all(a[k] in held and b[k] in held for k in step.pairs.tolist())
            assert set(a[step.pairs]) | set(b[step.pairs]) <= sent_back  # the other pairs' profiles come back
            held -= set(step.drops)
            assert len(held) <= limit
        assert not held  # every text let go at the end
        if limit >= 50:  # chains of neighbours fit: every text read once
            assert reads == texts
        if chunk >= 8:  # neighbours read together: some pairs scored where both texts are read
            assert inside > len(a) // 10


def test_one_template_filled_twice_is_not_a_copy_with_a_typo():
    # gettext messages (git, PostgreSQL, xkeyboard-config) and notifications: a number or a key name differs
    filled = [
        ("'GIT_AUTHOR_DATE' already given", "'GIT_AUTHOR_EMAIL' already given"),
        ("匈牙利语（QWERTY，101 键，逗号，无死键）", "匈牙利语（QWERTY，102 键，逗号，无死键）"),
        ("您的订单 20231120 已发货，请注意查收。", "您的订单 20231121 已发货，请注意查收。"),
    ]
    for a, b in filled:
        assert text_similarity(a, b) < 0.7, (a, b)
    # copies with typos, a digit mistyped as a letter, a dropped word, "r" for "are": edit similarity counts
    copies = [
        ("'GIT_AUTHOR_DATE' already given", "'GIT_AUTHRO_DATE' already given"),
        ("Ubuntu 7.04‘(Feisty Fawn)’", "Ubuntu 7.o4‘(Feisty Fawn)’"),
        ("软件源列表 %3$s 第 %2$u 行中的类别 “%1$s” 无法识别", "软件源列表 %r$s 第 %2$u 行中的类别 “%1$s” 无法识别"),
        ("戴尔 Inspiron 6000/8000 笔记本电脑", "戴尔 Inspiron 6000x8000 结记本电脑"),
        (
            "考完GRE再考SQL？\n  -- PostgreSQL tuna-collection#119",
            "考完GRE再考SQL？\n  -- PostgreSQL tuna-collection#1\n19",
        ),
        ("How are you? I am fine. Thanks.", "How r you?I am fine. Thanks."),
        ("unable to install new info file", "unable to install new new info file"),
        ("你妈妈喊你回家吃饭哦,回家罗回家罗", "你妈妈叫你回家吃饭啦,回家罗回家罗"),
    ]
    for a, b in copies:
        assert text_similarity(a, b) >= 0.85, (a, b)


def test_collages_do_not_chain_texts_that_are_not_copies_into_one_group(tmp_path):
    """Two collages, each of two whole texts: A + B and B + C. Each collage pairs with both texts it holds
    (a text found whole in one up to 4 times its size), and the pairs chain A to C through B (A / C: 0.08).
    Groups are stars: every member reaches the threshold against the group's representative."""
    a = "床前明月光，疑是地上霜。举头望明月，低头思故乡。这首《静夜思》是李白客居扬州时所作，写出了游子思乡的情怀，千百年来传诵不衰。"
    b = "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。孟浩然这首《春晓》写春日清晨的所见所闻，语言平易，意味深长。"
    c = "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。王之涣登鹳雀楼所作，前两句写景，后两句说理，气势雄浑。"
    root = tmp_path / "poems"
    files = {"a.txt": a, "b.txt": b, "c.txt": c, "collage1.txt": a + "\n" + b, "collage2.txt": b + "\n" + c}
    write(root, files)
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        grouper = analyse(root, index, verify=VerifySettings(jobs=1))
    grouping = grouper.at(grouper.max_threshold)
    assert text_similarity(a, c) < 0.1
    groups = [[m.path for m in g.members] for g in grouping]
    assert sum(len(g) for g in groups) == 5 and len(groups) == 2  # one group of all five before
    for g in grouping:
        rep = g.members[0].path
        for m in g.members[1:]:
            assert m.score >= 0.7 and text_similarity(files[rep], files[m.path]) == m.score
    assert not any({"a.txt", "c.txt"} <= {m.path for m in g.members} for g in grouping)


def test_compiled_candidates_equal_numpy():
    """candidate_pairs with the compiled kernels (the short texts' wide radii compared in C) gives the numpy
    search's arrays, in the same order, on clustered fingerprints of every length class, small blocks
    included (a block edge inside a run of near texts)."""
    import importlib

    from simdesk.core.matching import analysis

    try:
        kernels = importlib.import_module("simdesk.core.kernels")
    except ImportError:
        pytest.skip("the compiled kernels are not built (pip install -e .)")
    rng = np.random.default_rng(9)
    centres = rng.integers(0, 2**64, size=80, dtype=np.uint64)
    fps = np.repeat(centres, 6)
    for _ in range(14):
        flip = rng.random(len(fps)) < 0.7
        fps[flip] ^= np.uint64(1) << rng.integers(0, 64, size=int(flip.sum())).astype(np.uint64)
    chars = rng.choice([50, 300, 399, 400, 900, 1499, 1500, 5000], size=len(fps))
    verify = VerifySettings()
    expected = candidate_pairs(fps, chars, verify, kernels=None)
    assert len(expected[0]) > 100
    got = candidate_pairs(fps, chars, verify, kernels=kernels)
    assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(expected, got, strict=True))
    with pytest.MonkeyPatch.context() as mp:  # blocks smaller than the runs of near texts
        mp.setattr(analysis, "BRUTE_FORCE_ROWS", 7)
        mp.setattr(analysis, "BRUTE_FORCE_COLUMNS", 13)
        small = candidate_pairs(fps, chars, verify, kernels=None)
        assert all(np.array_equal(a, b) for a, b in zip(small, candidate_pairs(fps, chars, verify, kernels=kernels)))
        mp.setattr(
            analysis, "NEAR_PAIRS_THREADS_FROM", 0
        )  # the row blocks shared out among threads, whatever their work
        for threads in (2, 3, 5):
            mp.setattr(analysis, "NEAR_PAIRS_THREADS", threads)
            got = candidate_pairs(fps, chars, verify, kernels=kernels)
            assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(small, got, strict=True))
