"""The second candidate source: MinHash bands of the shingles verification scores (core/fingerprint/minhash.py), checked
against a brute-force oracle, and on real folders the copies SimHash places beyond its radius."""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np

from simdesk.core.fingerprint.minhash import DESKTOP, band_keys, band_pairs, signature, text_bands
from simdesk.core.fingerprint.similarity import profile, shingle_pieces, shingles
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.analysis import VerifySettings, analyse, pair_radius, text_similarity
from simdesk.core.reading.boilerplate import folded_line_hashes
from simdesk.core.reading.documents import decode_bytes
from simdesk.core.reading.normalize import fold, normalize, normalize_folded
from simdesk.core.records import ScanOptions

# English passages put into Chinese texts: SimHash weighs their words more than the Chinese ones
PASSAGES = [
    "The committee met again on Thursday evening and agreed that the new timetable would take effect at the "
    "start of next month, after the printers had confirmed the delivery dates for every regional office. "
    "Several members asked for the minutes to be circulated before the weekend so that the branches could "
    "prepare their own schedules and inform the volunteers who help with the distribution on Saturdays.",
    "Visitors who arrive by train should leave the station by the north exit, cross the square and follow the "
    "river path for about ten minutes until they reach the old warehouse with the green doors. The entrance "
    "for the exhibition is on the left side of the building, next to the bicycle racks, and the ticket desk "
    "opens half an hour before the first guided tour of the morning begins.",
]


def brute_force_band_pairs(keys, empty, max_bucket):
    """Every pair sharing a key in some band whose key is held by at most max_bucket live rows."""
    live = [r for r in range(len(keys)) if not empty[r]]
    out = set()
    for band in range(keys.shape[1]):
        holders: dict[int, list[int]] = {}
        for r in live:
            holders.setdefault(int(keys[r, band]), []).append(r)
        for rows in holders.values():
            if len(rows) <= max_bucket:
                out.update(combinations(sorted(rows), 2))
    return out


def test_band_pairs_equal_a_brute_force_oracle():
    rng = np.random.default_rng(3)
    for n, alphabet, max_bucket in ((200, 40, 64), (300, 12, 30), (1, 5, 64), (0, 5, 64)):
        keys = rng.integers(0, alphabet, size=(n, DESKTOP.bands)).astype(np.uint32)
        empty = rng.random(n) < 0.1
        i, j = band_pairs(keys, empty, max_bucket)
        assert (i < j).all()
        assert len(set(zip(i.tolist(), j.tolist()))) == len(i)  # each pair once
        assert set(zip(i.tolist(), j.tolist())) == brute_force_band_pairs(keys, empty, max_bucket)


def test_signatures_estimate_the_jaccard_similarity_of_shingle_sets():
    rng = np.random.default_rng(4)
    pool = rng.choice(2**32, size=3000, replace=False).astype(np.uint32)
    for shared, own in ((1000, 0), (600, 200), (300, 350), (0, 500)):
        a = np.sort(np.r_[pool[:shared], pool[1000 : 1000 + own]])
        b = np.sort(np.r_[pool[:shared], pool[2000 : 2000 + own]])
        jaccard = shared / (shared + 2 * own)
        agree = float(np.mean(signature(a, 128) == signature(b, 128)))
        assert abs(agree - jaccard) < 0.1, (shared, own, agree, jaccard)
    assert len(text_bands("")) == 0
    assert len(text_bands(normalize("床前明月光，疑是地上霜。"))) == DESKTOP.bands


def test_template_sentences_are_not_joined_by_edit_similarity():
    """Two sentences of one template share their punctuation and numbers, which normalisation turns into
    spaces and short tokens: edit similarity is measured without the spaces."""
    a = "的 32 位系统上的应用程序而言，最大的文件大小甚至更小(2^31 -1) bytes = (2GiB -1 byte)。"
    b = "因为 FAT 文件系统的设计，最大的文件大小为 (2^32 - 1) bytes = (4GiB -1 byte)。"
    assert text_similarity(a, b) < 0.7
    assert (
        text_similarity(
            "If you don't care where you are, then you ain't lost.", "If u don't care where u are,then u ain't lost."
        )
        >= 0.9
    )
    assert text_similarity("参见 /usr/share/doc/xdg-utils/README", "参见 /usr/shhre/doc/xdg-utilsrREADME") >= 0.9


def _mixed_copies(small_corpus, root):
    """Each original of 150-1,500 characters of the small collection and a copy with two English paragraphs
    put in after its first sentence; returns [(original, copy)]."""
    truth = json.loads((small_corpus / "truth.json").read_text("utf-8"))["files"]
    pairs = []
    for k, (rel, info) in enumerate(sorted(truth.items())):
        text = (small_corpus / rel).read_bytes().decode(info["encoding"], errors="strict")
        if info["role"] != "original" or not 150 <= len(text) <= 1500:
            continue
        cut = text.find("。") + 1 or len(text) // 2
        original, copy = root / f"{k:03d}.txt", root / f"{k:03d}-en.txt"
        original.write_text(text, encoding="utf-8")
        passage = " ".join(PASSAGES[k % 2 :] + PASSAGES[: k % 2])
        copy.write_text(text[:cut] + " " + passage + " " + text[cut:], encoding="utf-8")
        pairs.append((original.name, copy.name))
    return pairs


def test_chinese_texts_with_english_passages_put_in_are_found_beyond_the_simhash_radius(tmp_path, small_corpus):
    root = tmp_path / "mixed"
    root.mkdir()
    pairs = _mixed_copies(small_corpus, root)
    assert len(pairs) >= 15
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        grouping = analyse(root, index, verify=VerifySettings(jobs=1)).at(12)
        snap = index.snapshot()
    row = {p: r for r, p in enumerate(snap.paths)}
    far = [
        (a, b)
        for a, b in pairs
        if int(np.bitwise_count(snap.fingerprints[row[a]] ^ snap.fingerprints[row[b]]))
        > pair_radius(np.array([min(snap.chars[row[a]], snap.chars[row[b]])]), VerifySettings())[0]
    ]
    assert len(far) >= 3  # SimHash alone misses these (3 of 20 on the small collection, seed 7)
    grouped = {tuple(sorted(m.path for m in g.members)) for g in grouping}
    assert all(len(g) == 2 and g[0] == g[1].replace(".txt", "-en.txt") for g in grouped)  # no false group
    # a pair only the bands propose counts without the whole-containment rule: found when the original's
    # shingles are at least half of the copy's (LENGTH_GATE), or by resemblance
    sizes = {p: len(profile((root / p).read_text("utf-8")).shingles) for pair in far for p in pair}
    gated = [(a, b) for a, b in far if sizes[a] >= 0.5 * sizes[b]]
    assert len(gated) >= 2
    assert all(tuple(sorted(p)) in grouped for p in gated)
    assert sum(tuple(sorted(p)) in grouped for p in pairs) >= len(pairs) - len(far)


def test_band_candidates_of_a_rescan_equal_those_of_a_fresh_index(tmp_path, small_corpus):
    """After one file gains an English passage, the incremental analysis finds what a fresh one finds."""
    root = tmp_path / "mixed"
    root.mkdir()
    pairs = _mixed_copies(small_corpus, root)
    victim = root / pairs[0][0]
    with Index(tmp_path / "i.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        analyse(root, index, verify=VerifySettings(jobs=1))
        victim.write_text(victim.read_text("utf-8") + " " + PASSAGES[1], encoding="utf-8")
        scan(root, index, ScanOptions(jobs=1))
        assert index.paired_fingerprints()[1].sum() == len(index.snapshot()) - 1
        again = analyse(root, index, verify=VerifySettings(jobs=1))
        incremental = {(a, b): round(s, 6) for a, b, s in _pairs(again)}
    with Index(tmp_path / "fresh.sqlite") as index:
        scan(root, index, ScanOptions(jobs=1))
        fresh = {(a, b): round(s, 6) for a, b, s in _pairs(analyse(root, index, verify=VerifySettings(jobs=1)))}
    assert incremental == fresh
    assert len(fresh) >= len(pairs)


def _pairs(grouper):
    paths = grouper.snapshot.paths
    return [(paths[a], paths[b], s) for a, b, s in zip(grouper.i.tolist(), grouper.j.tolist(), grouper.scores.tolist())]


def test_shingles_keep_their_units_for_every_script():
    """The fast split of verify.shingles gives the units of its definition: CJK characters and the runs of
    other word characters between them and spaces."""
    import mmh3

    from simdesk.core.fingerprint.similarity import (
        _WORD_SEED,
        _WORD_TAG,
        CHAR_SHINGLE,
        CHARS,
        WORD_SHINGLE,
        WORDS,
        _shingle_hashes,
    )

    for text in ("plain ascii words only", "中文和english混在一起的text 123", "日本語のテキスト and ไทย", ""):
        norm = normalize(text)
        parts = []
        chars = "".join(CHARS.findall(norm))
        words = WORDS.findall(norm)
        if chars:
            parts.append(
                _shingle_hashes(
                    np.frombuffer(chars.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64), CHAR_SHINGLE
                )
            )
        if words:
            codes = np.array([mmh3.hash(w, _WORD_SEED, signed=False) for w in words], dtype=np.uint64)
            parts.append(_shingle_hashes(codes | _WORD_TAG, WORD_SHINGLE))
        expected = np.unique(np.concatenate(parts)) if parts else np.empty(0, dtype=np.uint32)
        assert np.array_equal(shingles(norm), expected), text


def test_a_saying_found_whole_in_a_longer_text_needs_the_whole_containment_rule():
    """A pair only the bands propose is kept without the whole-containment rule: a collage that quotes a
    saying whole is no copy of it, though the rule scores the pair 1.0."""
    from simdesk.core.fingerprint.similarity import similarity

    saying = "地之秽者多生物，水之清者常无鱼，故君子当存含垢纳污之量，不可持好洁独行之操。"
    collage = (
        saying + "\n决定该函数是在事件之前还是之后调用。使用 speaker-test 来测试声卡。"
        "绿树听鹈鴂。更那堪，鹧鸪声住，杜鹃声切！啼到春归无寻处，苦恨芳菲都歇。"
    )
    a, b = profile(saying), profile(collage)
    assert similarity(a, b) == 1.0
    assert similarity(a, b, whole=False) < 0.85
    copy = profile(saying + "\n（转载）")
    assert similarity(a, copy, whole=False) >= 0.85


def test_a_pair_sharing_one_band_needs_its_fingerprints_near_unless_both_texts_are_short():
    """with_band_pairs: two bands shared always propose a pair; one band only within SINGLE_BAND_RADIUS bits,
    or when both texts are short enough for edit similarity (typos move them far apart)."""
    from simdesk.core.matching.analysis import EDIT_CHARS, SINGLE_BAND_RADIUS, with_band_pairs

    rng = np.random.default_rng(5)
    keys = rng.integers(0, 2**32, size=(8, DESKTOP.bands), dtype=np.uint64).astype(np.uint32)
    far = np.uint64((1 << (SINGLE_BAND_RADIUS + 1)) - 1)  # SINGLE_BAND_RADIUS + 1 bits apart
    near = np.uint64((1 << SINGLE_BAND_RADIUS) - 1)
    fps = np.array([0, far, 0, far, 0, near, 0, far], dtype=np.uint64)
    chars = np.array([900, 900, 900, 900, 900, 900, EDIT_CHARS, EDIT_CHARS])
    keys[1, 0] = keys[0, 0]  # rows 0, 1: one band, far apart: not proposed
    keys[3, :2] = keys[2, :2]  # rows 2, 3: two bands, far apart
    keys[5, 0] = keys[4, 0]  # rows 4, 5: one band, within the radius
    keys[7, 0] = keys[6, 0]  # rows 6, 7: one band, far apart, both short
    empty = np.zeros(8, dtype=bool)
    none = tuple(np.zeros(0, dtype=t) for t in (np.int64, np.int64, np.int8, np.int8))
    i, j, d, scaled = with_band_pairs(none, fps, chars, keys, empty, None, VerifySettings())
    assert sorted(zip(i.tolist(), j.tolist())) == [(2, 3), (4, 5), (6, 7)]
    assert d.tolist() == [SINGLE_BAND_RADIUS + 1, SINGLE_BAND_RADIUS, SINGLE_BAND_RADIUS + 1]


def test_shingles_made_a_piece_at_a_time_equal_those_of_the_whole_text(small_corpus):
    """A long text's shingles are made a piece at a time (similarity.shingle_pieces, bounded memory): the
    same set, and so the same band keys, as the whole text's, on the corpus's real texts with English passages
    put in, Thai, Japanese, texts shorter than a shingle, and pieces smaller than a word."""
    texts = [decode_bytes(p.read_bytes())[0] for p in sorted(small_corpus.rglob("*.txt"))[:40]]
    texts += [t[:400] + PASSAGES[0] + t[400:] + PASSAGES[1] for t in texts[:10]]
    texts += ["ภาษาไทยไม่มีช่องว่าง and some words", "日本語のテキストです", "中文", "a", "one two", "中 word 文 x"]
    whole = "\n".join(texts)
    for text in [*texts, whole]:
        norm = normalize(text)
        expected = band_keys_of(norm)
        for piece in (1, 2, 3, 7, 64, 1000, 1 << 20):
            parts = list(shingle_pieces(norm, piece=piece))
            union = np.unique(np.concatenate(parts)) if parts else np.empty(0, dtype=np.uint32)
            assert np.array_equal(union, shingles(norm)), (text[:20], piece)
            assert np.array_equal(text_bands(norm, piece=piece), expected), (text[:20], piece)


def band_keys_of(norm: str) -> np.ndarray:
    """The band keys of the whole text's shingles in one go (what text_bands did before pieces)."""
    sh = shingles(norm)
    if not len(sh):
        return np.empty(0, dtype="<u4")
    return band_keys(signature(sh, DESKTOP.perms), DESKTOP.rows).astype("<u4")


def test_long_texts_fold_normalise_and_hash_their_lines_a_piece_at_a_time_as_in_one_go(small_corpus):
    """fold, normalisation and the line hashes of a long text go a piece at a time (bounded memory): on the corpus's real
    texts, with traditional Chinese, full-width forms, invisible characters, links and every line break
    str.splitlines knows, pieces of any size give what the whole text gives."""
    texts = [decode_bytes(p.read_bytes())[0] for p in sorted(small_corpus.rglob("*.txt"))[:30]]
    texts += [
        "臺灣軟體，ＡＢＣ Рython imp\u00adoses www.example.com/x 電子郵件 a@b.cn\r\n第二行\u2028第三行\x0c四\r五\n\n",
        "一行没有换行的中文，也没有空格。" * 50,
        "ab",
        "",
    ]
    for text in [*texts, "\n".join(texts)]:
        folded = fold(text)
        for piece in (1, 5, 64, 1000):
            assert fold(text, piece=piece) == folded, piece
            assert normalize_folded(folded, piece=piece) == normalize_folded(folded), piece
            assert np.array_equal(folded_line_hashes(folded, piece=piece), folded_line_hashes(folded)), piece
