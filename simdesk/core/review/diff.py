"""Side-by-side comparison of two texts: aligned rows with the changed runs inside each line, and the one
similarity figure (analysis.text_similarity, the score the groups table and the slider show).

Two modes. "normalised" (the default) compares the texts as the engine does: folded as text.fold folds them
(invisible characters out, full/half-width, case, traditional/simplified Chinese, Latin look-alikes), spaces
ignored, and line wrapping ignored (each text's lines are joined and cut again after every sentence end, so
two copies wrapped differently show the same rows); the collection's boilerplate lines (repost notices,
footers: boilerplate.py) are shown greyed as "boilerplate" rows where they stand between sentences, and are
compared out of the rows they begin or end where a re-flowed copy joined them to a sentence; they never count
as changes. On a 1 MB copy re-flowed as one paragraph, in the 20,000-document test collection, this left 581
changed places of 2,913 (2026-11-24): a frequent line joined into the middle of a sentence is still compared
as text, and so is one of under CUT_BOILERPLATE_CHARS characters. "raw" compares the decoded lines as they
are.

Built on diff-match-patch (Google's Myers diff with a time bound, maintained as the `diff-match-patch`
package): rows are aligned first, then each pair of changed rows is diffed again on tokens, where a token
is one CJK character or one word/space/punctuation run of other scripts. So Chinese is compared character by
character and English word by word. Every diff-match-patch call has a time bound, the row alignment too
(LINE_TIMEOUT_S, then as much again on anchors), and the changed runs inside rows have a budget: past it,
changed rows are marked whole and listed in ``SideBySide.rough`` instead of the caller waiting on a 1 MB
document; ``refine`` finds the changes inside the rough rows asked for (a window asks for the rows in view,
so it compares with FIRST_VIEW_BUDGET_S and refines as the editor scrolls).

    result = compare_texts(old, new)                 # normalised; compare_texts(old, new, mode="raw")
    for row in result.rows: ...   # row.left / row.right, with spans of changed characters
    result = refine(result, range(100, 140))        # rows 100-139 with their changed runs, when rough
"""

from __future__ import annotations

import bisect
import re
import time
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from diff_match_patch import diff_match_patch

from simdesk.core.matching.analysis import text_relation
from simdesk.core.reading.boilerplate import boilerplate_lines, folded_boilerplate_lines
from simdesk.core.reading.documents import read_text_file
from simdesk.core.reading.normalize import fold, without_invisible
from simdesk.core.records import MAX_FILE_BYTES

BUDGET_S = 2.0  # the changed runs inside rows, once the rows are aligned
# A window's comparison: the changed runs of the first rows within this, the others when they come into view
# (refine). A 1 MB pair with 27,777 rows all changed (a re-flowed copy, raw) took 3.0 s with BUDGET_S.
FIRST_VIEW_BUDGET_S = 0.15
KEY_CHUNK = 200  # rows folded in one call (see _keys)
HOPELESS_ROWS = 2000  # past this many rows, a line alignment with few shared rows skips Myers (see _align)
LINE_TIMEOUT_S = 0.3  # the line alignment by diff-match-patch; then the one on anchors, if it gave up
GAP_TIMEOUT_S = 0.05  # one gap between two anchor lines
INLINE_TIMEOUT_S = 0.2  # one pair of lines
CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\U00020000-\U0002fa1f"  # ideographs, kana, full-width forms
TOKEN = re.compile(rf"[{CJK}]|[^\W{CJK}]+|\s+|.", re.DOTALL)  # one CJK character | a word | spaces | other

SEGMENT_CHARS = 100  # longer lines are shown as several rows, cut after a sentence end when there is one
HARD_CUT_CHARS = 160
SENTENCE_END = re.compile(r"[。！？；!?;…]+[”’」』）)]*|[.]+[\"')\]]*\s+")

Span = tuple[int, int]  # [start, end) in characters of the row's text
NORMALISED, RAW = "normalised", "raw"
DIFF_MODES = (NORMALISED, RAW)
DEFAULT_DIFF_MODE = NORMALISED
CHANGED = frozenset(("replace", "delete", "insert"))
REFLOW_SENTENCE_END = re.compile(r"[。！？；!?;…．]+[”’」』）)\"']*|[.]+[\"')\]]*(?=\s|$)")
# a line that ends a sentence once joined to the next (a full stop only when a space follows: never at a line end)
# a boilerplate line is compared out of a row only when its key (punctuation kept) has this many characters:
# a frequent short line (No, 没有, a manual's heading 注意) is a word of sentences too, and "No objection" /
# "Objection" must stay a change
CUT_BOILERPLATE_CHARS = 6  # --《论语》
ENDS_SENTENCE = re.compile(r"[。！？；!?;…．]+[”’」』）)\"']*$")


@dataclass(frozen=True, slots=True)
class Row:
    """One aligned row. A side is None where the other side has a line the first lacks (a filler row)."""

    kind: str  # "equal", "replace", "delete" (left only), "insert" (right only), "boilerplate" (not compared)
    left: str | None  # a line, a piece of a long line, or (normalised) a sentence
    right: str | None
    left_no: int | None  # 1-based line numbers; None on a filler or on a row continuing the line above
    right_no: int | None
    left_spans: tuple[Span, ...] = ()
    right_spans: tuple[Span, ...] = ()


@dataclass(frozen=True, slots=True)
class SideBySide:
    """Rows of a side-by-side comparison; `hunks` are the row numbers where each run of changed rows starts."""

    rows: tuple[Row, ...]
    hunks: tuple[int, ...]
    similarity: float  # percent: analysis.text_similarity, the figure the groups table shows for the pair
    mode: str = DEFAULT_DIFF_MODE
    boilerplate: int = 0  # boilerplate lines shown greyed (both sides), never counted as changes
    rough: frozenset[int] = frozenset()  # changed rows marked whole for want of time: refine() finds their runs
    timed_out: bool = False  # a pair of rows took longer than INLINE_TIMEOUT_S: its runs are approximate
    # the share of the left text found in the right one and of the right in the left (verify.Relation)
    shares: tuple[float, float] | None = None

    @property
    def exact(self) -> bool:
        """Every changed run found (no row left rough, no diff cut short by its time bound)."""
        return not self.rough and not self.timed_out


def tokens(line: str) -> list[str]:
    """A line split into diff tokens: single CJK characters, words, space runs, single other characters."""
    return TOKEN.findall(line)


def segments(text: str) -> tuple[list[str], list[int | None]]:
    """The raw mode's rows: the text's lines, long ones cut after sentence ends (or hard-cut) so that a
    paragraph of Chinese without line breaks aligns piece by piece; and each row's line number (None on
    continuations)."""
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


def _latin_word(ch: str) -> bool:
    """A character of a script that separates words by spaces (a wrap between two of them is a space)."""
    return ch.isalnum() and (ord(ch) < 0x2E80 or 0xFF10 <= ord(ch) <= 0xFF5A)  # full-width letters too


_LATIN_WORD = r"(?:(?![\u2e80-\uff0f\uff5b-\U0010ffff])[^\W_])"  # a character _latin_word accepts (\w is isalnum or _)
_CJK_SPACE = re.compile(rf"(?<!{_LATIN_WORD}) | (?!{_LATIN_WORD})")  # a single space not between two of them


def _sentences(block: str) -> list[Span]:
    """A re-flowed block cut after every sentence end; a sentence longer than HARD_CUT_CHARS (not counting
    spaces, so that two copies spaced differently are cut at the same characters) cut hard."""
    out: list[Span] = []
    start = 0
    ends = [m.end() for m in REFLOW_SENTENCE_END.finditer(block)]
    for end in [*ends, len(block)]:
        while end - start > HARD_CUT_CHARS:
            cut, count = start, 0
            while cut < end and count < HARD_CUT_CHARS:
                count += not block[cut].isspace()
                cut += 1
            if cut >= end:
                break
            out.append((start, cut))
            start = cut
        if end > start:
            out.append((start, end))
            start = end
    return out


Boilerplate = tuple[int, str, int]  # (the content row it stands before, the line, its line number)


@dataclass(frozen=True, slots=True)
class Reflowed:
    """A text's rows in the normalised mode (see reflowed)."""

    rows: list[str]  # as shown: the original characters
    numbers: list[int | None]  # the line each row starts on (None when that is the row above's)
    keys: list[str]  # as compared: folded (text.fold), without spaces
    boilerplate: list[Boilerplate]  # the boilerplate lines set apart
    frequent: tuple[str, ...] = ()  # every boilerplate line of the text, those joined to a sentence too


def reflowed(text: str, boilerplate: Collection[int] = frozenset()) -> Reflowed:
    """The normalised mode's rows of a text: its lines joined, with a space only between two words of a
    space-separated script (so the spacing, like the wrapping, is the same for every copy), cut after every
    sentence end; and the boilerplate lines apart where they stand between sentences (one that stands inside
    a sentence, as a manual page's frequent line does, is joined to it as the other copy joins it). Rows
    show the original characters but the invisible ones (text.without_invisible); they are compared folded
    (text.fold)."""
    drop = boilerplate_lines(text, boilerplate)
    rows: list[str] = []
    numbers: list[int | None] = []
    extra: list[Boilerplate] = []
    pieces: list[str] = []
    starts: list[int] = []  # offset in the block where each piece starts
    lines: list[int] = []  # and its line number

    def flush() -> None:
        block = "".join(pieces)
        last = numbers[-1] if numbers else None
        for start, end in _sentences(block):
            row = block[start:end]
            stripped = row.lstrip()
            start += len(row) - len(stripped)
            stripped = stripped.rstrip()
            if not stripped:
                continue
            no = lines[bisect.bisect_right(starts, start) - 1]
            rows.append(stripped)
            numbers.append(None if no == last else no)
            last = no
        pieces.clear()
        starts.clear()
        lines.clear()

    length = 0
    for no, line in enumerate(text.splitlines(), start=1):
        if no - 1 in drop and (not pieces or ENDS_SENTENCE.search(pieces[-1])):
            flush()
            length = 0
            extra.append((len(rows), line.strip(), no))
            continue
        piece = " ".join(without_invisible(line).split())  # a soft hyphen or zero-width space is no change
        if not piece:
            continue
        if " " in piece:  # a space only between two words of a space-separated script
            piece = _CJK_SPACE.sub("", piece)
        if pieces and _latin_word(pieces[-1][-1]) and _latin_word(piece[0]):
            piece = " " + piece
        starts.append(length)
        lines.append(no)
        pieces.append(piece)
        length += len(piece)
    flush()
    keys = _keys(rows)
    # a boilerplate line re-wrapped onto the end of a sentence is a row of its own once cut (--《论语》)
    apart = folded_boilerplate_lines("\n".join(keys), boilerplate)
    source_lines = text.splitlines()
    shown = Reflowed(rows, numbers, keys, extra, tuple(source_lines[k] for k in sorted(drop)))
    return _set_apart(shown, apart) if apart else shown


def _set_apart(text: Reflowed, apart: Collection[int]) -> Reflowed:
    """`text` with the rows in `apart` moved to its boilerplate lines, where they stood."""
    rows: list[str] = []
    numbers: list[int | None] = []
    keys: list[str] = []
    moved: list[Boilerplate] = []
    now: list[int] = []  # each row's place among the rows kept
    line = shown = 0  # the line a row is on; the line of the last row kept
    for k, row in enumerate(text.rows):
        line = number if (number := text.numbers[k]) is not None else line
        now.append(len(rows))
        if k in apart:
            moved.append((len(rows), row, line))
            continue
        rows.append(row)
        numbers.append(None if line == shown else line)
        keys.append(text.keys[k])
        shown = line
    now.append(len(rows))
    extra = sorted(
        [(now[at], line_text, no) for at, line_text, no in text.boilerplate] + moved, key=lambda b: (b[0], b[2])
    )
    return Reflowed(rows, numbers, keys, extra, text.frequent)


def _boilerplate_free(a: Reflowed, b: Reflowed) -> tuple[Reflowed, Reflowed]:
    """Two texts' rows compared without the boilerplate lines of either text that begin or end them: a boilerplate
    line between two sentences stands apart in one text, and a copy re-wrapped as one paragraph joins it to
    the next sentence (--《论语》天下皆知…), a row that is the other's once the line is out. A row left with
    no key, or whose key lies inside a boilerplate line (the line held a sentence end), is set apart as
    boilerplate."""
    lines = {key for key in _keys(list(a.frequent + b.frequent)) if len(key) >= CUT_BOILERPLATE_CHARS}
    if not lines:
        return a, b
    cuts = _Cuts(_by_first(lines), _by_first({line[::-1] for line in lines}), "\n".join(lines), max(map(len, lines)))
    return _without(a, cuts), _without(b, cuts)


@dataclass(frozen=True, slots=True)
class _Cuts:
    """The boilerplate lines (as row keys) a pair's rows are compared without (_boilerplate_free)."""

    starts: dict[str, list[str]]  # by first character, the longest first
    ends: dict[str, list[str]]  # the lines reversed, likewise: a row's end is its reversed key's start
    inside: str  # every line, one per line
    longest: int


def _by_first(lines: set[str]) -> dict[str, list[str]]:
    """`lines` by their first character, the longest first (so no line is cut out of a longer one)."""
    out: dict[str, list[str]] = {}
    for line in sorted(lines, key=len, reverse=True):
        out.setdefault(line[0], []).append(line)
    return out


def _cut_start(key: str, starts: dict[str, list[str]]) -> str:
    """`key` without the lines of `starts` that begin it, one after the other."""
    while (lines := starts.get(key[:1])) is not None:
        line = next((line for line in lines if key.startswith(line)), None)
        if line is None:
            break
        key = key[len(line) :]
    return key


def _without(text: Reflowed, cuts: _Cuts) -> Reflowed:
    """`text` with the boilerplate lines of `cuts` cut from the start and the end of its rows' keys."""
    keys = list(text.keys)
    apart = set()
    for k, key in enumerate(keys):
        if (
            key[:1] not in cuts.starts
            and key[-1:] not in cuts.ends
            and (len(key) > cuts.longest or key not in cuts.inside)
        ):
            continue
        key = _cut_start(_cut_start(key, cuts.starts)[::-1], cuts.ends)[::-1]
        if not key or CUT_BOILERPLATE_CHARS <= len(key) <= cuts.longest and key in cuts.inside:
            apart.add(k)
        keys[k] = key
    cut = replace(text, keys=keys)
    return _set_apart(cut, apart) if apart else cut


def _keys(rows: list[str]) -> list[str]:
    """Rows as compared: folded, without spaces. Folded KEY_CHUNK rows at a time, joined (fold keeps line
    breaks and a row has none): faster than a fold per row, and no one call holds Python's lock for long
    (OpenCC over a whole 1 MB text holds it ~40 ms, which the window's GUI thread would wait for)."""
    keys: list[str] = []
    for k in range(0, len(rows), KEY_CHUNK):
        chunk = rows[k : k + KEY_CHUNK]
        folded = fold("\n".join(chunk)).split("\n")
        if len(folded) != len(chunk):  # never seen; a row-by-row fold is the definition
            folded = [fold(row) for row in chunk]
        keys.extend("".join(key.split()) for key in folded)
    return keys


def _encode(items: list[str], table: dict[str, str]) -> str:
    """Each distinct item becomes one character, so diff-match-patch diffs item sequences."""
    out = []
    for item in items:
        code = table.get(item)
        if code is None:
            code = chr(0x100 + len(table)) if len(table) < 0x10F000 else "\U0010ffff"
            table[item] = code
        out.append(code)
    return "".join(out)


def anchored_diff(a: str, b: str, dmp: diff_match_patch, deadline: float = float("inf")) -> list[tuple[int, str]]:
    """A patience-style diff of two encoded line sequences: lines that occur exactly once in each are
    anchors; the longest run of anchors in the same order is kept equal, and the gaps between anchors are
    diffed by diff-match-patch (each within dmp.Diff_Timeout; past `deadline` (time.monotonic) a gap keeps
    its common first and last lines equal and the rest is deleted and inserted). Near-linear where Myers'
    algorithm is quadratic in the number of changes."""
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
        if (i > ai or j > bi) and time.monotonic() < deadline:
            out.extend(dmp.diff_main(a[ai:i], b[bi:j], False))
        elif i > ai or j > bi:  # past the deadline: the gap's common ends equal, the middle changed whole
            x, y = a[ai:i], b[bi:j]
            head = dmp.diff_commonPrefix(x, y)
            tail = dmp.diff_commonSuffix(x[head:], y[head:])
            out.extend(
                d
                for d in (
                    (0, x[:head]),
                    (-1, x[head : len(x) - tail]),
                    (1, y[head : len(y) - tail]),
                    (0, x[len(x) - tail :]),
                )
                if d[1]
            )
        if i < len(a):
            out.append((0, a[i]))
        ai, bi = i + 1, j + 1
    return out


def _inline(
    left: str, right: str, dmp: diff_match_patch, normalised: bool
) -> tuple[tuple[Span, ...], tuple[Span, ...]]:
    """Changed spans of two rows (in the normalised mode, spaces are not compared and tokens are folded)."""
    folded: dict[str, str] = {}

    def positioned(row: str) -> tuple[list[str], list[Span]]:
        toks, spans, pos = [], [], 0
        for tok in tokens(row):
            if not (normalised and tok.isspace()):
                if normalised:
                    tok_key = folded.get(tok)
                    if tok_key is None:
                        tok_key = folded[tok] = fold(tok)
                else:
                    tok_key = tok
                toks.append(tok_key)
                spans.append((pos, pos + len(tok)))
            pos += len(tok)
        return toks, spans

    (lt, lpos), (rt, rpos) = positioned(left), positioned(right)
    table: dict[str, str] = {}
    diffs = dmp.diff_main(_encode(lt, table), _encode(rt, table), False)
    lspans: list[Span] = []
    rspans: list[Span] = []
    li = ri = 0
    for op, text in diffs:
        n = len(text)
        if op == 0:
            li += n
            ri += n
        elif op == -1:
            _add_span(lspans, lpos[li][0], lpos[li + n - 1][1])
            li += n
        else:
            _add_span(rspans, rpos[ri][0], rpos[ri + n - 1][1])
            ri += n
    return tuple(lspans), tuple(rspans)


def _add_span(spans: list[Span], start: int, end: int) -> None:
    if end <= start:
        return
    if spans and spans[-1][1] == start:
        spans[-1] = (spans[-1][0], end)
    else:
        spans.append((start, end))


def _runs(
    left: str, right: str, dmp: diff_match_patch, normalised: bool, remaining: float
) -> tuple[tuple[Span, ...], tuple[Span, ...], bool] | None:
    """The changed runs of two rows within `remaining` seconds, and whether the diff was cut short; None when
    too little time is left to try."""
    if remaining <= 0.01:
        return None
    dmp.Diff_Timeout = min(INLINE_TIMEOUT_S, remaining)
    started = time.monotonic()
    ls, rs = _inline(left, right, dmp, normalised)
    return ls, rs, time.monotonic() - started >= dmp.Diff_Timeout


Placed = tuple[Row, int | None, int | None]  # a row and the rows of each side it shows

RECUT_CHARS = 20_000  # a block of changed rows longer than this (both sides) is paired row by row, not re-cut
RECUT_SHARED = 0.6  # re-cut only a block whose sides share this share of their tokens: the same text cut apart


def _joined(rows: list[str]) -> tuple[str, list[int]]:
    """Rows of one side joined as the re-flow joined their text (a space only between two words of a
    space-separated script), and where each row starts."""
    text, starts = "", []
    for row in rows:
        if text and _latin_word(text[-1]) and _latin_word(row[0]):
            text += " "
        starts.append(len(text))
        text += row
    return text, starts


def _recut(lrows: list[str], rrows: list[str], dmp: diff_match_patch) -> list[tuple[int, int, int, int]] | None:
    """A block of changed rows re-cut where both sides are cut: (left rows [a0, a1), right rows [b0, b1)) per
    row pair to show, so that two texts cut at other sentence ends (a full stop become a comma, two sentences
    joined or one split) face each other whole and only the characters that differ are marked. A side's cut
    is kept where the other side is cut at the same place of the two texts aligned on their tokens (folded,
    spaces not compared). None when the sides are not the same text re-cut (they share less than
    RECUT_SHARED of their tokens) or too long to align (RECUT_CHARS)."""
    (left, lstarts), (right, rstarts) = _joined(lrows), _joined(rrows)
    if len(left) + len(right) > RECUT_CHARS:
        return None
    folded: dict[str, str] = {}

    def positioned(text: str) -> tuple[list[str], list[int]]:
        toks, starts, pos = [], [], 0
        for tok in tokens(text):
            if not tok.isspace():
                key = folded.get(tok)
                toks.append(folded.setdefault(tok, fold(tok)) if key is None else key)
                starts.append(pos)
            pos += len(tok)
        return toks, starts

    (lt, lpos), (rt, rpos) = positioned(left), positioned(right)
    table: dict[str, str] = {}
    li = ri = shared = 0
    same: dict[int, int] = {}  # the start of a left token equal to a right one -> that right token's start
    for op, text in dmp.diff_main(_encode(lt, table), _encode(rt, table), False):
        n = len(text)
        if op == 0:
            same.update(zip(lpos[li : li + n], rpos[ri : ri + n]))
            li, ri, shared = li + n, ri + n, shared + n
        elif op == -1:
            li += n
        else:
            ri += n
    if shared < RECUT_SHARED * max(len(lt), len(rt), 1):
        return None
    right_row = {start: k for k, start in enumerate(rstarts)}
    cuts = [(0, 0)] + [
        (a, right_row[same[start]])
        for a, start in enumerate(lstarts)
        if a and start in same and same[start] in right_row and right_row[same[start]]
    ]
    cuts.append((len(lrows), len(rrows)))
    out = []
    for (a0, b0), (a1, b1) in zip(cuts, cuts[1:]):
        if a1 > a0 or b1 > b0:
            out.append((a0, a1, b0, b1))
    return out


def _align(
    llines: list[str],
    lnos: list[int | None],
    rlines: list[str],
    rnos: list[int | None],
    budget_s: float,
    keys: tuple[list[str], list[str]] | None = None,
) -> tuple[list[Placed], set[int], bool]:
    """Rows of two sides aligned, with the changed runs inside each pair of changed rows; the placed rows
    left rough (marked whole when the budget ran out), and whether a diff was cut short. With `keys` (the
    normalised mode), rows are equal when their keys are, and changes inside rows are found on folded text."""
    normalised = keys is not None
    lkeys, rkeys = keys if keys is not None else (llines, rlines)
    timed_out = False
    rough: set[int] = set()
    dmp = diff_match_patch()
    dmp.Diff_Timeout = LINE_TIMEOUT_S
    table: dict[str, str] = {}
    lcodes, rcodes = _encode(lkeys, table), _encode(rkeys, table)
    started = time.monotonic()
    if len(lcodes) + len(rcodes) > HOPELESS_ROWS and 2 * sum((Counter(lcodes) & Counter(rcodes)).values()) < min(
        len(lcodes), len(rcodes)
    ):
        # most rows changed (the raw lines of a re-flowed copy): Myers would spend its whole time bound on a
        # coarse alignment; the anchors give one at once, the gaps between them taken as changed whole
        dmp.Diff_Timeout = GAP_TIMEOUT_S
        line_diffs = anchored_diff(lcodes, rcodes, dmp, started)
        anchored = True
    else:
        line_diffs = dmp.diff_main(lcodes, rcodes, False)
        anchored = False
    if not anchored and time.monotonic() - started >= dmp.Diff_Timeout:
        # diff-match-patch gave up on the best alignment (long texts with many scattered changes) and
        # returned a coarse one: align on the rows found once in each text instead, diffing the gaps
        dmp.Diff_Timeout = GAP_TIMEOUT_S
        line_diffs = anchored_diff(lcodes, rcodes, dmp, time.monotonic() + LINE_TIMEOUT_S)
    deadline = time.monotonic() + budget_s

    placed: list[Placed] = []
    li = ri = 0
    pending_del: list[int] = []
    pending_ins: list[int] = []

    def flush() -> None:
        """The changed rows met since the last equal ones: re-cut where both sides are cut (normalised),
        else paired in order."""
        dmp.Diff_Timeout = INLINE_TIMEOUT_S
        if (
            normalised
            and pending_del
            and pending_ins
            and time.monotonic() < deadline
            and (pieces := _recut([llines[a] for a in pending_del], [rlines[b] for b in pending_ins], dmp))
        ):
            for a0, a1, b0, b1 in pieces:
                place(pending_del[a0:a1], pending_ins[b0:b1])
            pending_del.clear()
            pending_ins.clear()
            return
        pair_up(pending_del, pending_ins)
        pending_del.clear()
        pending_ins.clear()

    def place(lefts: list[int], rights: list[int]) -> None:
        """Rows of each side shown as one row pair (a re-cut block): equal when their keys are."""
        if len(lefts) <= 1 and len(rights) <= 1 or not lefts or not rights:
            pair_up(lefts, rights)
            return
        ltext, rtext = _joined([llines[a] for a in lefts])[0], _joined([rlines[b] for b in rights])[0]
        if "".join(lkeys[a] for a in lefts) == "".join(rkeys[b] for b in rights):
            placed.append((Row("equal", ltext, rtext, lnos[lefts[0]], rnos[rights[0]]), lefts[0], rights[0]))
            return
        replaced(ltext, rtext, lefts[0], rights[0])

    def replaced(ltext: str, rtext: str, a: int, b: int) -> None:
        """A changed row pair (left row `a`, right row `b` first) with its changed runs, rough past the
        budget."""
        nonlocal timed_out
        found = _runs(ltext, rtext, dmp, normalised, deadline - time.monotonic())
        ls: tuple[Span, ...]
        rs: tuple[Span, ...]
        if found is None:
            rough.add(len(placed))
            ls, rs = ((0, len(ltext)),), ((0, len(rtext)),)
        else:
            ls, rs, late = found
            timed_out |= late
        placed.append((Row("replace", ltext, rtext, lnos[a], rnos[b], ls, rs), a, b))

    def pair_up(lefts: list[int], rights: list[int]) -> None:
        """Changed rows of each side paired in order, the longer side's last ones alone."""
        for k in range(max(len(lefts), len(rights))):
            a = lefts[k] if k < len(lefts) else None
            b = rights[k] if k < len(rights) else None
            if a is not None and b is not None:
                replaced(llines[a], rlines[b], a, b)
            elif a is not None:
                placed.append((Row("delete", llines[a], None, lnos[a], None, ((0, len(llines[a])),), ()), a, None))
            elif b is not None:
                placed.append((Row("insert", None, rlines[b], None, rnos[b], (), ((0, len(rlines[b])),)), None, b))

    for op, text in line_diffs:
        n = len(text)
        if op == 0:
            flush()
            for k in range(n):
                placed.append(
                    (Row("equal", llines[li + k], rlines[ri + k], lnos[li + k], rnos[ri + k]), li + k, ri + k)
                )
            li += n
            ri += n
        elif op == -1:
            pending_del.extend(range(li, li + n))
            li += n
        else:
            pending_ins.extend(range(ri, ri + n))
            ri += n
    flush()
    return placed, rough, timed_out


def _with_boilerplate(
    placed: list[Placed], left: list[Boilerplate], right: list[Boilerplate]
) -> tuple[list[Row], list[int]]:
    """The aligned rows with each side's boilerplate lines where they stand (before the content row that
    follows them), and where each placed row went; boilerplate lines of both sides that stand at the same place
    share rows."""
    out: list[Row] = []
    where: list[int] = []
    a = b = 0

    def put(left_upto: float, right_upto: float) -> None:
        nonlocal a, b
        ls: list[Boilerplate] = []
        rs: list[Boilerplate] = []
        while a < len(left) and left[a][0] <= left_upto:
            ls.append(left[a])
            a += 1
        while b < len(right) and right[b][0] <= right_upto:
            rs.append(right[b])
            b += 1
        for k in range(max(len(ls), len(rs))):
            lb = ls[k] if k < len(ls) else None
            rb = rs[k] if k < len(rs) else None
            out.append(
                Row(
                    "boilerplate",
                    lb[1] if lb else None,
                    rb[1] if rb else None,
                    lb[2] if lb else None,
                    rb[2] if rb else None,
                )
            )

    for row, li, ri in placed:
        put(-1 if li is None else li, -1 if ri is None else ri)
        where.append(len(out))
        out.append(row)
    put(float("inf"), float("inf"))
    return out, where


def compare_texts(
    left: str,
    right: str,
    budget_s: float = BUDGET_S,
    mode: str = DEFAULT_DIFF_MODE,
    boilerplate: Collection[int] = frozenset(),
    similarity: float | None = None,
    shares: tuple[float, float] | None = None,
) -> SideBySide:
    """Align `left` (the reference) and `right` (the candidate) row by row, with changed runs inside rows.

    `boilerplate` is the collection's set of boilerplate line hashes (analysis.collection_boilerplate):
    with it, the similarity equals the pair's stored score and, in the normalised mode, those lines are
    shown apart. `similarity` (0..1): the pair's score when the index already holds it (the same function on
    the same texts), saving its computation on long texts, with `shares` (left in right, right in left).
    Raises ValueError for an unknown mode."""
    if mode not in DIFF_MODES:
        raise ValueError(f"unknown diff mode {mode!r}: use one of {', '.join(DIFF_MODES)}")
    if similarity is None or shares is None:
        found = text_relation(left, right, frozenset(boilerplate))
        similarity, shares = (found.score if similarity is None else similarity), (found.a_in_b, found.b_in_a)
    percent = 100.0 * similarity
    if mode == RAW:
        (llines, lnos), (rlines, rnos) = segments(left), segments(right)
        placed, rough, timed_out = _align(llines, lnos, rlines, rnos, budget_s)
        rows = [row for row, _, _ in placed]
        extra = 0
    else:
        a, b = _boilerplate_free(reflowed(left, boilerplate), reflowed(right, boilerplate))
        placed, rough, timed_out = _align(a.rows, a.numbers, b.rows, b.numbers, budget_s, (a.keys, b.keys))
        rows, where = _with_boilerplate(placed, a.boilerplate, b.boilerplate)
        rough = {where[k] for k in rough}
        extra = len(a.boilerplate) + len(b.boilerplate)
    hunks = tuple(
        k for k, row in enumerate(rows) if row.kind in CHANGED and (k == 0 or rows[k - 1].kind not in CHANGED)
    )
    return SideBySide(tuple(rows), hunks, percent, mode, extra, frozenset(rough), timed_out, shares)


def refine(result: SideBySide, wanted: Iterable[int], budget_s: float = BUDGET_S) -> SideBySide:
    """`result` with the changed runs found inside those of its rough rows that are `wanted` (row numbers),
    as far as `budget_s` allows; each row then equals what compare_texts finds with time enough. A window
    asks for the rows in view."""
    todo = sorted(result.rough.intersection(wanted))
    if not todo:
        return result
    deadline = time.monotonic() + budget_s
    dmp = diff_match_patch()
    rows = list(result.rows)
    rough = set(result.rough)
    timed_out = result.timed_out
    for k in todo:
        row = rows[k]
        found = _runs(row.left or "", row.right or "", dmp, result.mode == NORMALISED, deadline - time.monotonic())
        if found is None:
            break
        ls, rs, late = found
        timed_out |= late
        rows[k] = replace(row, left_spans=ls, right_spans=rs)
        rough.discard(k)
    return replace(result, rows=tuple(rows), rough=frozenset(rough), timed_out=timed_out)


def compare_files(
    left: Path,
    right: Path,
    max_bytes: int = MAX_FILE_BYTES,
    budget_s: float = BUDGET_S,
    mode: str = DEFAULT_DIFF_MODE,
    boilerplate: Collection[int] = frozenset(),
    similarity: float | None = None,
) -> SideBySide:
    """Read and decode two files (as the scan does) and compare them. Raises OSError or DecodeError."""
    return compare_texts(
        read_text_file(left, max_bytes).text,
        read_text_file(right, max_bytes).text,
        budget_s,
        mode,
        boilerplate,
        similarity,
    )
