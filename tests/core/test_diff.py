"""core.diff: aligned rows, changed runs inside lines (characters for Chinese, words otherwise), bounds."""
from __future__ import annotations

import random
import time

from simdesk.core.diff import compare_files, compare_texts, segments


def changed(text: str, spans) -> list[str]:
    return [text[a:b] for a, b in spans]


def test_chinese_changes_are_single_characters():
    left = "床前明月光\n疑是地上霜\n举头望明月\n低头思故乡"
    right = "床前明月光\n疑是地下霜\n举头望明月\n低头思故乡\n（转载）"
    result = compare_texts(left, right)
    kinds = [r.kind for r in result.rows]
    assert kinds == ["equal", "replace", "equal", "equal", "insert"]
    row = result.rows[1]
    assert changed(row.left, row.left_spans) == ["上"]
    assert changed(row.right, row.right_spans) == ["下"]
    assert result.rows[4].left is None and result.rows[4].right_no == 5
    assert result.hunks == (1, 4)
    assert 80 < result.similarity < 100 and result.exact


def test_other_scripts_change_whole_words():
    result = compare_texts("The quick brown fox jumps", "The quick red fox jumped")
    row = result.rows[0]
    assert changed(row.left, row.left_spans) == ["brown", "jumps"]
    assert changed(row.right, row.right_spans) == ["red", "jumped"]


def test_equal_texts_are_fully_similar():
    result = compare_texts("一\n二\n", "一\n二\n")
    assert result.similarity == 100.0 and result.hunks == ()


def test_long_paragraph_is_cut_into_rows_and_change_is_found():
    sentence = "这是一个很长的段落中的句子，用来测试对齐。"
    left = sentence * 200
    right = left[:2000] + "插入" + left[2000:]
    pieces, numbers = segments(left)
    assert len(pieces) > 20 and numbers[0] == 1 and numbers[1] is None
    result = compare_texts(left, right)
    changes = [changed(r.right, r.right_spans) for r in result.rows if r.kind != "equal"]
    assert changes == [["插入"]]


def test_one_megabyte_document_is_bounded(tmp_path):
    rng = random.Random(5)
    alphabet = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可。"
    left = "".join(rng.choice(alphabet) for _ in range(1_000_000))
    chars = list(left)
    for k in rng.sample(range(len(chars)), 3000):
        chars[k] = "X"
    (tmp_path / "a.txt").write_text(left, encoding="utf-8")
    (tmp_path / "b.txt").write_text("".join(chars), encoding="utf-8")
    started = time.monotonic()
    result = compare_files(tmp_path / "a.txt", tmp_path / "b.txt", budget_s=1.0)
    assert time.monotonic() - started < 8
    assert result.rows and result.hunks


def test_many_scattered_changes_in_a_long_text_are_each_found():
    """Myers' diff gives up on 20,000 lines with 2,000 changes; the anchored fallback still aligns them."""
    lines = [f"第{i}行 内容 {'甲乙丙丁' * 5}" for i in range(20000)]
    edited = [line + "改" if i % 10 == 0 else line for i, line in enumerate(lines)]
    started = time.monotonic()
    result = compare_texts("\n".join(lines), "\n".join(edited))
    assert time.monotonic() - started < 5
    changed = [r for r in result.rows if r.kind != "equal"]
    assert len(changed) == 2000 and len(result.hunks) == 2000
    assert all(r.kind == "replace" and [r.right[a:b] for a, b in r.right_spans] == ["改"] for r in changed)
    assert result.exact
