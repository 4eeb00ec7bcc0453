"""Unrelated long texts never reach the grouping similarity, whatever their length or kind: English prose
(the standard library's docstrings and comments), Chinese (word sequences drawn by frequency from jieba's dictionary),
source code (the standard library), logs (package-manager lines over a small vocabulary) and mixed text.
Measured when written: the highest score was 0.26 (1,000,000 characters of logs); character trigrams
scored 0.63-0.999 on the same kinds of pairs."""

from __future__ import annotations

import ast
import itertools
import os
import random
import sysconfig
from functools import lru_cache
from pathlib import Path

import jieba
import pytest

from simdesk.core.fingerprint.similarity import DEFAULT_MIN_SIMILARITY
from simdesk.core.matching.analysis import text_similarity

LENGTHS = (10_000, 100_000, 1_000_000)


@lru_cache(maxsize=1)
def stdlib_files() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    return sorted(
        p
        for p in root.rglob("*.py")
        if p.stat().st_size > 2000
        and not {"test", "tests", "encodings", "idlelib", "site-packages", "dist-packages"} & set(p.parts)
    )


def halves(items: list, seed: int) -> tuple[list, list]:
    items = list(items)
    random.Random(seed).shuffle(items)
    return items[::2], items[1::2]


def fill(pieces: list[str], length: int, sep: str = "\n") -> str:
    out, n = [], 0
    for p in pieces:
        out.append(p)
        n += len(p) + 1
        if n >= length:
            break
    text = sep.join(out)
    assert len(text) >= length, "not enough source text for this length"
    return text[:length]


@lru_cache(maxsize=1)
def docstrings() -> list[str]:
    docs = []
    for path in stdlib_files():
        source = path.read_text(encoding="utf-8", errors="replace")
        docs.append(" ".join(line.strip()[1:].strip() for line in source.splitlines() if line.strip().startswith("# ")))
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        docs += [
            ast.get_docstring(n) or ""
            for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
        ]
    return sorted({d for d in docs if len(d) > 200})


def english(length: int) -> tuple[str, str]:
    a, b = halves(docstrings(), 1)
    return fill(a, length), fill(b, length)


def code(length: int) -> tuple[str, str]:
    a, b = halves(stdlib_files(), 2)
    return (
        fill([p.read_text(encoding="utf-8", errors="replace") for p in a], length),
        fill([p.read_text(encoding="utf-8", errors="replace") for p in b], length),
    )


@lru_cache(maxsize=1)
def chinese_words() -> tuple[list[str], list[int]]:
    """jieba's dictionary words and their cumulative frequencies."""
    words, freqs = [], []
    with open(os.path.join(os.path.dirname(jieba.__file__), "dict.txt"), encoding="utf-8") as fh:
        for line in fh:
            w, f = line.split()[:2]
            words.append(w)
            freqs.append(int(f))
    return words, list(itertools.accumulate(freqs))


def chinese(length: int, seed: int) -> str:
    words, cumulative = chinese_words()
    rng = random.Random(seed)
    out, n = [], 0
    while n < length:
        sentence = "".join(rng.choices(words, cum_weights=cumulative, k=rng.randint(6, 20))) + rng.choice("，。！？")
        out.append(sentence)
        n += len(sentence)
    return "".join(out)[:length]


def log(length: int, seed: int) -> str:
    rng = random.Random(seed)
    packages = [f"lib{w}{k}" for k, w in enumerate(("ssl", "xml", "png", "gtk", "qt", "z", "ffi", "uuid"))]
    lines, n = [], 0
    day = rng.randrange(1, 300)
    while n <= length:
        p = rng.choice(packages)
        msg = rng.choice(
            [
                f"status installed {p}:amd64 {rng.randrange(1, 9)}.{rng.randrange(40)}",
                f"configure {p}:amd64 {rng.randrange(1, 9)}.{rng.randrange(40)} <none>",
                f"trigproc {p}:amd64 {rng.randrange(1, 9)}.{rng.randrange(40)}",
            ]
        )
        line = (
            f"2026-{day // 28 + 1:02d}-{day % 28 + 1:02d} {rng.randrange(24):02d}:{rng.randrange(60):02d}:"
            f"{rng.randrange(60):02d} {msg}"
        )
        lines.append(line)
        n += len(line) + 1
    return "\n".join(lines)[:length]


def pair(kind: str, length: int) -> tuple[str, str]:
    if kind == "english":
        return english(length)
    if kind == "code":
        return code(length)
    if kind == "chinese":
        return chinese(length, 1), chinese(length, 2)
    if kind == "log":
        return log(length, 1), log(length, 2)
    en_a, en_b = english(length // 2)
    return chinese(length // 2, 3) + en_a, chinese(length // 2, 4) + en_b  # mixed


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["english", "chinese", "mixed", "code", "log"])
def test_unrelated_long_texts_never_reach_the_grouping_similarity(kind):
    for length in LENGTHS:
        a, b = pair(kind, length)
        assert len(a) == len(b) == length
        score = text_similarity(a, b)
        assert score < 0.5 < DEFAULT_MIN_SIMILARITY, (kind, length, score)


def test_a_long_copy_with_a_passage_inserted_still_scores_high():
    a, _ = english(100_000)
    passage = chinese(2000, 9)
    assert text_similarity(a, a[:50_000] + passage + a[50_000:]) >= 0.95


def test_chinese_texts_quoting_the_same_english_sentence_do_not_match_but_inserted_english_does():
    quote = " “The quick brown fox jumps over the lazy dog, and nobody in the village ever saw it again.” "
    a, b = chinese(300, 5), chinese(300, 6)
    assert text_similarity(a[:150] + quote + a[150:], b[:100] + quote + b[100:]) < 0.3
    english_passage = english(400)[0]
    assert text_similarity(a, a[:150] + english_passage + a[150:]) >= DEFAULT_MIN_SIMILARITY
