"""Property tests (hypothesis) over decoding, normalising, tokenizing, fingerprinting and
the index, the last against a brute-force oracle over real files and a real SQLite index."""

from __future__ import annotations

import codecs
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, note, settings, strategies as st

from simdesk.core.fingerprint.features import segment, weighted_terms
from simdesk.core.fingerprint.simhash import hamming, simhash
from simdesk.core.index.scan import scan
from simdesk.core.index.store import Index
from simdesk.core.matching.pairs import pairs_within
from simdesk.core.matching.radius import MAX_PAIR_RADIUS
from simdesk.core.reading.documents import DecodeError, decode_bytes
from simdesk.core.reading.normalize import NON_WORD, normalize
from simdesk.core.records import ScanOptions
from tests.reliability.corpus import ARTICLE, POEM

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CHINESE = sorted(
    set(
        ARTICLE
        + POEM
        + "千山鸟飞绝万径人踪灭孤舟蓑笠翁独钓寒江雪的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年"
    )
)
# Text an editor writes: Chinese, Latin letters, digits, punctuation of both widths, spaces and line breaks.
ALPHABET = CHINESE + list(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \n，。！？、；：“”（）,.!?;:'\"()-"
)
texts = st.text(alphabet=ALPHABET, min_size=1, max_size=300)
# GB18030 bytes that Big5 also decodes go to a detector; on random text of fewer Han characters than this it
# was found to pick Big5 (e.g. '0000一一他千'); at this length and above it picked right in every run.
MIN_HAN = 24
ONE_EDIT_MAX_BITS = 8  # measured: 0-5 bits over 400 random edits of 1,000+ character documents


# -- decoding -------------------------------------------------------------------------------------------
@FAST
@given(st.binary(max_size=2000))
def test_decoding_any_bytes_raises_nothing_but_decode_error(data):
    try:
        text, encoding = decode_bytes(data)
    except DecodeError:
        return
    assert isinstance(text, str) and codecs.lookup(encoding)


@FAST
@given(st.binary(max_size=600), st.sampled_from([b"\x89PNG\r\n\x1a\n", b"PK\x03\x04", b"%PDF-1.4\n", b"\xff\xd8\xff"]))
def test_binary_headers_with_any_tail_raise_nothing_but_decode_error(tail, head):
    try:
        decode_bytes(head + tail)
    except DecodeError:
        pass


@FAST
@given(
    st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=400),
    st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-32"]),
)
def test_unicode_encodings_round_trip(text, encoding):
    decoded, _ = decode_bytes(text.encode(encoding))
    assert decoded == text


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.text(alphabet=ALPHABET, min_size=MIN_HAN, max_size=400))
def test_gb18030_round_trips_when_the_bytes_are_not_also_utf8(text):
    data = text.encode("gb18030")
    try:
        data.decode("utf-8")
        assume(False)  # the same bytes are valid UTF-8 too: either reading is right
    except UnicodeDecodeError:
        pass
    assume(sum("\u4e00" <= c <= "\u9fff" for c in text) >= MIN_HAN)
    decoded, encoding = decode_bytes(data)
    note(encoding)
    assert decoded == text


# -- normalising and tokenizing ----------------------------------------------------------------------
@FAST
@given(st.text(max_size=400))
def test_normalise_leaves_words_separated_by_single_spaces(text):
    norm = normalize(text)
    assert norm == norm.strip() and "  " not in norm and not any(c in "\t\n\r" for c in norm)
    assert not NON_WORD.search(norm)


def full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else "\u3000" if c == " " else c for c in text)


@FAST
@given(texts)
def test_full_width_and_case_variants_normalise_the_same(text):
    """(Not idempotent by design: punctuation between two Chinese characters leaves a word boundary, which a
    second pass would take for a line wrap. Normalising happens once, before segmenting.)"""
    assert normalize(full_width(text)) == normalize(text) == normalize(text.upper()) == normalize(text.swapcase())


@FAST
@given(texts)
def test_tokens_cover_the_normalised_text_exactly(text):
    norm = normalize(text)
    tokens = segment(norm)
    assert all(t and not t.isspace() and " " not in t for t in tokens)
    assert "".join(tokens) == norm.replace(" ", "")


@FAST
@given(st.text(max_size=300))
def test_features_never_fail_and_weigh_positively(text):
    weights = weighted_terms(text)
    assert all(w > 0 for w in weights.values())
    if normalize(text).replace(" ", ""):
        assert weights  # any text with a word or a symbol has features


# -- fingerprints -----------------------------------------------------------------------------------
@FAST
@given(texts)
def test_fingerprints_are_deterministic(text):
    assert simhash(weighted_terms(text)) == simhash(weighted_terms("".join(list(text))))


@pytest.fixture(scope="module")
def long_documents(small_corpus) -> list[str]:
    """Real Chinese documents of 1,000 characters and more from the small collection."""
    out = []
    for path in sorted(small_corpus.rglob("*.txt")):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if len(text) >= 1000:
            out.append(text)
    assert len(out) >= 20
    return out


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_a_one_character_edit_moves_a_long_documents_fingerprint_by_few_bits(long_documents, data):
    text = data.draw(st.sampled_from(long_documents))
    at = data.draw(st.integers(0, len(text) - 1))
    kind = data.draw(st.sampled_from(["replace", "insert", "delete"]))
    char = data.draw(st.sampled_from(ALPHABET))
    edited = {
        "replace": text[:at] + char + text[at + 1 :],
        "insert": text[:at] + char + text[at:],
        "delete": text[:at] + text[at + 1 :],
    }[kind]
    d = hamming(simhash(weighted_terms(text)), simhash(weighted_terms(edited)))
    note(f"{kind} {char!r} at {at} of {len(text)}: {d} bits")
    assert d <= ONE_EDIT_MAX_BITS


def test_fingerprints_are_the_same_in_another_process(tmp_path):
    """The same text gives the same fingerprint in a fresh interpreter (hash seeds, dict order)."""
    import json
    import subprocess
    import sys

    samples = [ARTICLE, POEM * 3, "mixed 中英文 text, 2024年", "。。。", "a"]
    code = (
        "import json,sys; from simdesk.core.fingerprint.features import weighted_terms; "
        "from simdesk.core.fingerprint.simhash import simhash; "
        "print(json.dumps([simhash(weighted_terms(t)) for t in json.load(sys.stdin)]))"
    )
    for seed in ("0", "12345"):
        out = subprocess.run(
            [sys.executable, "-c", code],
            input=json.dumps(samples),
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=True,
        ).stdout
        assert json.loads(out) == [simhash(weighted_terms(t)) for t in samples]


# -- the index against a brute-force oracle ----------------------------------------------------------------
BASE = ARTICLE * 2
CONTENTS = [  # near-duplicates at several distances, other texts, and files that are problems
    BASE,
    BASE + "（转载）",
    BASE.replace("政策", "措施"),
    BASE[: len(BASE) // 2],
    POEM * 3,
    POEM * 3 + "李白",
    "千山鸟飞绝，万径人踪灭。" * 4,
    "",
    "\x00\x01binary" * 20,
]
NAMES = ["a.txt", "b.txt", "sub/c.txt", "sub/d.txt", "e.md", "f.txt"]
ops = st.lists(
    st.one_of(
        st.tuples(st.just("write"), st.sampled_from(NAMES), st.integers(0, len(CONTENTS) - 1)),
        st.tuples(st.just("delete"), st.sampled_from(NAMES), st.just(0)),
        st.tuples(st.just("move"), st.sampled_from(NAMES), st.integers(0, len(NAMES) - 1)),
        st.tuples(st.just("scan"), st.just(""), st.just(0)),
        st.tuples(st.just("query"), st.sampled_from(NAMES), st.integers(0, 16)),
    ),
    min_size=1,
    max_size=14,
)


def oracle(root: Path) -> dict[str, int]:
    """What the index must hold: every file now under root that decodes to text, and its fingerprint."""
    out = {}
    for path in root.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if not data.strip():
            continue
        try:
            text, _ = decode_bytes(data)
        except DecodeError:
            continue
        out[path.relative_to(root).as_posix()] = simhash(weighted_terms(text))
    return out


def check_against_oracle(index: Index, root: Path, radius: int, probe: int) -> None:
    expected = oracle(root)
    stored = {d.path: d.fingerprint for d in index.documents()}
    assert stored == expected
    got = [(d.path, dist) for d, dist in index.near(probe, radius)]
    brute = sorted(
        ((p, hamming(fp, probe)) for p, fp in expected.items() if hamming(fp, probe) <= radius),
        key=lambda x: (x[1], x[0]),
    )
    assert got == brute
    if radius > MAX_PAIR_RADIUS:
        return
    snap = index.snapshot()
    i, j, d = pairs_within(snap.fingerprints, radius)
    got_pairs = {
        (min(snap.paths[a], snap.paths[b]), max(snap.paths[a], snap.paths[b]), int(k))
        for a, b, k in zip(i.tolist(), j.tolist(), d.tolist())
    }
    names = sorted(expected)
    brute_pairs = {
        (x, y, hamming(expected[x], expected[y]))
        for n, x in enumerate(names)
        for y in names[n + 1 :]
        if hamming(expected[x], expected[y]) <= radius
    }
    assert got_pairs == brute_pairs


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops)
def test_index_equals_a_brute_force_oracle_through_inserts_deletes_moves_and_rescans(steps):
    work = Path(tempfile.mkdtemp(prefix="simdesk-fuzz-"))
    root = work / "docs"
    root.mkdir()
    try:
        with Index(work / "i.sqlite") as index:
            scanned = False
            for kind, name, arg in steps:
                path = root / name
                if kind == "write":
                    path.parent.mkdir(parents=True, exist_ok=True)
                    data = CONTENTS[arg].encode("gb18030" if arg % 2 else "utf-8")
                    path.write_bytes(data)
                elif kind == "delete" and path.exists():
                    path.unlink()
                elif kind == "move" and path.exists():
                    target = root / NAMES[arg]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(path, target)
                elif kind == "scan":
                    scan(root, index, ScanOptions(jobs=1))
                    scanned = True
                elif kind == "query" and scanned:
                    stored = index.document(name)
                    probe = stored.fingerprint if stored else simhash(weighted_terms(name))
                    radius = arg
                    scan(root, index, ScanOptions(jobs=1))
                    check_against_oracle(index, root, radius, probe)
            scan(root, index, ScanOptions(jobs=1))
            for radius in (0, 3, 8, 12, 16):
                check_against_oracle(index, root, radius, simhash(weighted_terms(BASE)))
            assert index.integrity_ok()
    finally:
        shutil.rmtree(work, ignore_errors=True)
