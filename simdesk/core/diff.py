"""Side-by-side comparison of two texts: aligned rows with the changed runs inside each line, and a similarity.

Built on diff-match-patch (Google's Myers diff with a time bound, maintained as the `diff-match-patch`
package): lines are aligned first, then each pair of changed lines is diffed again on tokens, where a token
is one CJK character or one word/space/punctuation run of other scripts. So Chinese is compared character by
character and English word by word. Every diff-match-patch call has a time bound and the whole comparison
has a budget: past it, changed lines are marked whole (``SideBySide.exact`` is then False) instead of the
caller waiting on a 1 MB document.

    result = compare_texts(old, new)
    for row in result.rows: ...   # row.left / row.right, with spans of changed characters
"""
from __future__ import annotations

import bisect
import re
import time
from dataclasses import dataclass
from pathlib import Path

from diff_match_patch import diff_match_patch

from simdesk.core.documents import read_text_file

BUDGET_S = 2.0  # the whole comparison, line alignment and intra-line changes together
LINE_TIMEOUT_S = 0.5  # the line alignment by diff-match-patch, before falling back to anchors
GAP_TIMEOUT_S = 0.05  # one gap between two anchor lines
INLINE_TIMEOUT_S = 0.2  # one pair of lines
CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\U00020000-\U0002fa1f"  # ideographs, kana, full-width forms
TOKEN = re.compile(rf"[{CJK}]|[^\W{CJK}]+|\s+|.", re.DOTALL)  # one CJK character | a word | spaces | other

SEGMENT_CHARS = 100  # longer lines are shown as several rows, cut after a sentence end when there is one
HARD_CUT_CHARS = 160
SENTENCE_END = re.compile(r"[。！？；!?;…]+[”’」』）)]*|[.]+[\"')\]]*\s+")

Span = tuple[int, int]  # [start, end) in characters of the row's text


@dataclass(frozen=True, slots=True)
class Row:
    """One aligned row. A side is None where the other side has a line the first lacks (a filler row)."""

    kind: str  # "equal", "replace", "delete" (left only), "insert" (right only)
    left: str | None  # a line, or a piece of a long line
    right: str | None
    left_no: int | None  # 1-based line numbers; None on a filler or on a long line's later pieces
    right_no: int | None
    left_spans: tuple[Span, ...] = ()
    right_spans: tuple[Span, ...] = ()


@dataclass(frozen=True, slots=True)
class SideBySide:
    """Rows of a side-by-side comparison; `hunks` are the row numbers where each run of changed rows starts."""

    rows: tuple[Row, ...]
    hunks: tuple[int, ...]
    similarity: float  # percent of characters the two texts have in common (100 for equal texts)
    exact: bool  # False when the time budget made some changed lines marked whole


def tokens(line: str) -> list[str]:
    """A line split into diff tokens: single CJK characters, words, space runs, single other characters."""
    return TOKEN.findall(line)


def segments(text: str) -> tuple[list[str], list[int | None]]:
    """The text's rows: its lines, long ones cut after sentence ends (or hard-cut) so that a paragraph of
    Chinese without line breaks aligns piece by piece; and each row's line number (None on continuations)."""
    pieces: list[str] = []
    numbers: list[int | None] = []
    for no, line in enumerate(text.splitlines(), start=1):
        if len(line) <= SEGMENT_CHARS:
            pieces.append(line)
            numbers.append(no)
            continue
        start = 0
        first = True
        while start < len(line):
            if len(line) - start <= SEGMENT_CHARS:
                end = len(line)
            else:
                end = start + HARD_CUT_CHARS
                for m in SENTENCE_END.finditer(line, start + 1, start + HARD_CUT_CHARS):
                    end = m.end()
                    if end - start >= SEGMENT_CHARS // 2:
                        break
            pieces.append(line[start:end])
            numbers.append(no if first else None)
            first = False
            start = end
    return pieces, numbers


def _encode(items: list[str], table: dict[str, str]) -> str:
    """Each distinct item becomes one character, so diff-match-patch diffs item sequences."""
    out = []
    for item in items:
        code = table.get(item)
        if code is None:
            code = chr(0x100 + len(table)) if len(table) < 0x10F000 else "\U0010FFFF"
            table[item] = code
        out.append(code)
    return "".join(out)


def anchored_diff(a: str, b: str, dmp: diff_match_patch) -> list[tuple[int, str]]:
    """A patience-style diff of two encoded line sequences: lines that occur exactly once in each are
    anchors; the longest run of anchors in the same order is kept equal, and the gaps between anchors are
    diffed by diff-match-patch. Near-linear where Myers' algorithm is quadratic in the number of changes."""
    count_a: dict[str, int] = {}
    count_b: dict[str, int] = {}
    for ch in a:
        count_a[ch] = count_a.get(ch, 0) + 1
    for ch in b:
        count_b[ch] = count_b.get(ch, 0) + 1
    where_b = {ch: j for j, ch in enumerate(b) if count_b[ch] == 1}
    pairs = [(i, where_b[ch]) for i, ch in enumerate(a) if count_a[ch] == 1 and ch in where_b]
    # longest increasing subsequence of the b positions (patience sorting, with back links)
    tails: list[int] = []  # index into pairs of the smallest tail of each length
    tail_values: list[int] = []
    back = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        n = bisect.bisect_left(tail_values, j)
        back[k] = tails[n - 1] if n else -1
        if n == len(tails):
            tails.append(k)
            tail_values.append(j)
        else:
            tails[n] = k
            tail_values[n] = j
    anchors = []
    k = tails[-1] if tails else -1
    while k >= 0:
        anchors.append(pairs[k])
        k = back[k]
    anchors.reverse()
    out: list[tuple[int, str]] = []
    ai = bi = 0
    for i, j in [*anchors, (len(a), len(b))]:
        if i > ai or j > bi:
            out.extend(dmp.diff_main(a[ai:i], b[bi:j], False))
        if i < len(a):
            out.append((0, a[i]))
        ai, bi = i + 1, j + 1
    return out


def _inline(left: str, right: str, dmp: diff_match_patch) -> tuple[tuple[Span, ...], tuple[Span, ...], int]:
    """Changed spans of two lines and the characters they share."""
    table: dict[str, str] = {}
    lt, rt = tokens(left), tokens(right)
    diffs = dmp.diff_main(_encode(lt, table), _encode(rt, table), False)
    lspans: list[Span] = []
    rspans: list[Span] = []
    li = ri = lpos = rpos = common = 0
    for op, text in diffs:
        n = len(text)
        if op == 0:
            width = sum(len(t) for t in lt[li:li + n])
            common += width
            lpos += width
            rpos += sum(len(t) for t in rt[ri:ri + n])
            li += n
            ri += n
        elif op == -1:
            width = sum(len(t) for t in lt[li:li + n])
            _add_span(lspans, lpos, lpos + width)
            lpos += width
            li += n
        else:
            width = sum(len(t) for t in rt[ri:ri + n])
            _add_span(rspans, rpos, rpos + width)
            rpos += width
            ri += n
    return tuple(lspans), tuple(rspans), common


def _add_span(spans: list[Span], start: int, end: int) -> None:
    if end <= start:
        return
    if spans and spans[-1][1] == start:
        spans[-1] = (spans[-1][0], end)
    else:
        spans.append((start, end))


def compare_texts(left: str, right: str, budget_s: float = BUDGET_S) -> SideBySide:
    """Align `left` (the reference) and `right` (the candidate) line by line, with changed runs inside lines."""
    deadline = time.monotonic() + budget_s
    exact = True
    dmp = diff_match_patch()
    dmp.Diff_Timeout = min(LINE_TIMEOUT_S, budget_s)
    (llines, lnos), (rlines, rnos) = segments(left), segments(right)
    table: dict[str, str] = {}
    lcodes, rcodes = _encode(llines, table), _encode(rlines, table)
    started = time.monotonic()
    line_diffs = dmp.diff_main(lcodes, rcodes, False)
    if time.monotonic() - started >= dmp.Diff_Timeout:
        # diff-match-patch gave up on the best alignment (long texts with many scattered changes) and
        # returned a coarse one: align on the lines found once in each text instead, diffing the gaps
        dmp.Diff_Timeout = GAP_TIMEOUT_S
        line_diffs = anchored_diff(lcodes, rcodes, dmp)

    rows: list[Row] = []
    common = 0
    li = ri = 0
    pending_del: list[int] = []
    pending_ins: list[int] = []

    def flush() -> None:
        nonlocal common, exact
        for k in range(max(len(pending_del), len(pending_ins))):
            a = pending_del[k] if k < len(pending_del) else None
            b = pending_ins[k] if k < len(pending_ins) else None
            if a is not None and b is not None:
                ltext, rtext = llines[a], rlines[b]
                remaining = deadline - time.monotonic()
                if remaining > 0.01:
                    dmp.Diff_Timeout = min(INLINE_TIMEOUT_S, remaining)
                    started = time.monotonic()
                    ls, rs, shared = _inline(ltext, rtext, dmp)
                    if time.monotonic() - started >= dmp.Diff_Timeout:
                        exact = False
                    common += shared
                else:
                    exact = False
                    ls, rs = ((0, len(ltext)),), ((0, len(rtext)),)
                rows.append(Row("replace", ltext, rtext, lnos[a], rnos[b], ls, rs))
            elif a is not None:
                rows.append(Row("delete", llines[a], None, lnos[a], None, ((0, len(llines[a])),), ()))
            else:
                rows.append(Row("insert", None, rlines[b], None, rnos[b], (), ((0, len(rlines[b])),)))
        pending_del.clear()
        pending_ins.clear()

    for op, text in line_diffs:
        n = len(text)
        if op == 0:
            flush()
            for k in range(n):
                rows.append(Row("equal", llines[li + k], rlines[ri + k], lnos[li + k], rnos[ri + k]))
                common += len(llines[li + k])
            li += n
            ri += n
        elif op == -1:
            pending_del.extend(range(li, li + n))
            li += n
        else:
            pending_ins.extend(range(ri, ri + n))
            ri += n
    flush()

    hunks = tuple(k for k, row in enumerate(rows) if row.kind != "equal" and (k == 0 or rows[k - 1].kind == "equal"))
    total = sum(map(len, llines)) + sum(map(len, rlines))
    similarity = 100.0 if total == 0 else 100.0 * 2 * common / total
    return SideBySide(tuple(rows), hunks, min(similarity, 100.0), exact)


def compare_files(left: Path, right: Path, max_bytes: int = 20 * 1024 * 1024,
                  budget_s: float = BUDGET_S) -> SideBySide:
    """Read and decode two files (as the scan does) and compare them. Raises OSError or DecodeError."""
    return compare_texts(read_text_file(left, max_bytes).text, read_text_file(right, max_bytes).text, budget_s)
