"""What an editor reads first of a document: its title, its date and its source line.

- The title is a web page's own (its first <h1>, else its <title>), else the first meaningful line: not
  blank, not a boilerplate line of the collection (repost notices, footers: boilerplate.py), not a source
  line, not a byline (作者, 记者, 发布时间, By...), not a line that is only a date, a link or a few symbols.
  Long lines are cut at MAX_TITLE_CHARS.
- The date is the first date written out in full (year, month and day) in the first DATE_HEAD_LINES or the
  last DATE_TAIL_LINES lines: 2024-05-12 (a time after it, 2024-05-12 10:00 or 2024-05-12T10:00, is left),
  2024/5/12, 2024.5.12, 2024年5月12日 (or 号), 二〇二四年五月十二日, 民國113年5月12日 (Taiwan's era),
  May 12, 2024, 12 May 2024, 12-May-2024, 25/12/2024 or 12/25/2024 when only one order makes a date
  (5/3/2024 could be either: not taken), 05.03.2024 (day first, as written with dots); else the first month written with its year there, 2024年5月,
  二〇二四年五月 or May 2024, as YYYY-MM; else the file's modification date, and the headline says which
  (`dated_by`). Narrow patterns on purpose: a date parser reading free text (dateparser.search) takes any
  pair of numbers for a date, so a month is never read from digits alone (2024-05 may be a part number), a
  day and month without a year (新华社3月5日电) are not dated, and years are 1900-2100.
- The source is the first short line that names one (来源, 转载, 转自, 原文, 出处, 稿源, 摘自, Source:,
  Reposted from, Originally published...; traditional script too, the line being folded as documents are),
  else the first boilerplate line of the document that attributes it (a line the boilerplate detection
  found in many documents that starts with a dash, '—— 鲁迅', '--《谚语》', or carries a link); other
  recurring lines (a manual page's heading, a menu) are not sources.

Computed from a document's text, never stored per document in the index: verification computes each text's
from the read it scores (packed_headline: the groups' members it reads are kept for the report, see
analysis.verify_pairs); a report reads the other members (read_headlines); `Headlines` reads and keeps the
window's per (path, content hash), with the text folded for search.

    headline = headline_of(text, mtime_ns, boilerplate)
    headline.title, headline.date, headline.dated_by, headline.source
"""

from __future__ import annotations

import bisect
import datetime as _dt
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import chain
from typing import Any, TypeVar

from simdesk.core.compiled import KERNELS
from simdesk.core.reading.boilerplate import MIN_KEY_CHARS, boilerplate_lines
from simdesk.core.reading.documents import DecodeError, ReadAhead, read_source_file, visible
from simdesk.core.reading.markup import name_suffix, page_heading
from simdesk.core.reading.normalize import LINKS, fold
from simdesk.core.reading.texts import Texts
from simdesk.core.records import Member
from simdesk.core.workers import CancelToken, map_chunks, process_pool

MAX_TITLE_CHARS = 80
MAX_SOURCE_CHARS = 120
TITLE_LINES = 60  # a title is looked for in the first lines only
DATE_HEAD_LINES = 20
DATE_TAIL_LINES = 8
HEADLINE_KEYS = ("title", "date", "source")  # the fields groups can be ordered by (Review.ordered)
TEXT = "text"  # dated_by: a date written in the text
MODIFIED = "modified"  # dated_by: the file's modification time

# on folded text (NFKC: full-width digits and colons are ASCII; traditional script is simplified)
SOURCE_CUE = re.compile(
    r"^[\W_]{0,4}(?:本文)?(?:来源|来自|转自|转载自?|原文(?:地址|链接|出处)?|出处|稿源|摘自|选自|source\b|sources\b|"
    r"reposted from|republished from|originally (?:published|appeared)|via\b)"
)
# a boilerplate line that attributes the text ('—— 鲁迅', '--《谚语》', a link): a source when no line names one
ATTRIBUTION = re.compile(r"^\s*(?:-{2,}|[—―~]+)")
# a line holds one of these words for SOURCE_CUE to match it (SOURCE_WORD: a quick test before SOURCE_CUE)
SOURCE_WORDS = (
    "来源",
    "来自",
    "转自",
    "转载",
    "原文",
    "出处",
    "稿源",
    "摘自",
    "选自",
    "source",
    "repost",
    "republish",
    "originally",
    "via",
)
SOURCE_WORD = re.compile("|".join(SOURCE_WORDS))
MONTHS = {
    m: k
    for k, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        1,
    )
    for m in names
}
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
NUMERIC_DATE = re.compile(r"(?<!\d)(\d{4})\s*(?:年|([-/.]))\s*(\d{1,2})\s*(?:月|\2)\s*(\d{1,2})(?!\d)(?:\s*日)?")
ROC_ERA = "民国"  # the Republic of China's era (Taiwan's calendar), as folding writes it
ROC_DATE = re.compile(ROC_ERA + r"\s*(\d{2,3})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日")
HAN_DIGITS = "〇零一二三四五六七八九"
HAN_VALUE = {c: max(k - 1, 0) for k, c in enumerate(HAN_DIGITS)}
# every date and month pattern below holds a digit (\d: any script's) or four Chinese digits: a line without
# either holds no date, and date_in / month_in skip it after this one search (most lines of a text). A class
# first, as \d|[〇...九]{4} finds: re skips to its characters, 2x faster than the alternation
DATE_HINT = re.compile(rf"[\d{HAN_DIGITS}](?:(?<=\d)|[{HAN_DIGITS}]{{3}})")
# and each holds four digits in a row, four Chinese digits or 民国 (ROC_DATE): a line without four digits or
# Chinese digits in a row, nor 民国, holds no date (may_hold_date; a class first: re skips to its characters,
# 3x faster than an alternation of the three)
DATE_RUN = 4
DATE_ROW = re.compile(rf"[\d{HAN_DIGITS}][\d{HAN_DIGITS}]{{{DATE_RUN - 1}}}")
HAN_DATE = re.compile(rf"([{HAN_DIGITS}]{{4}})年([{HAN_DIGITS}十]{{1,2}})月([{HAN_DIGITS}十]{{1,3}})日")
MONTH_FIRST = re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b")
DAY_FIRST = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?:\s+|-)({_MONTH})\.?(?:,?\s+|-)(\d{{4}})\b")
# 25/12/2024 (day first) or 12/25/2024 (month first): taken when only one of the two orders is a date;
# with dots, day first only (05.03.2024, as in Europe; 2.13.2024 is a version number)
DAY_MONTH_YEAR = re.compile(r"(?<![A-Za-z\d/.-])(\d{1,2})([/.])(\d{1,2})\2(\d{4})(?![\d/.-])")
# a month with its year, when no line gives a day: 2024年5月 (no day after it), 二〇二四年五月, May 2024
NUMERIC_MONTH = re.compile(r"(?<!\d)(\d{4})\s*年\s*(\d{1,2})\s*月(?!\s*\d)")
HAN_MONTH = re.compile(rf"([{HAN_DIGITS}]{{4}})年([{HAN_DIGITS}十]{{1,2}})月(?![{HAN_DIGITS}十])")
NAMED_MONTH = re.compile(rf"(?<!\d)(?<!\d\s)\b({_MONTH})\.?,?\s+(\d{{4}})\b")
BYLINE = re.compile(
    r"^[\W_]{0,4}(?:发布时间|发布日期|发表于|更新时间|时间|日期|作者|记者|通讯员|责任编辑|责编|编辑|"
    r"posted\b|published\b|updated\b|by\b|author\b)"
)
# MIN_KEY_CHARS characters a line key keeps (what boilerplate.KEY_DROP leaves: letters, neither digits nor '_')
KEY_CHARS = re.compile(r"[^\W\d_]" + r"[\W\d_]*[^\W\d_]" * (MIN_KEY_CHARS - 1))
DATES = (
    NUMERIC_DATE,
    ROC_DATE,
    HAN_DATE,
    MONTH_FIRST,
    DAY_FIRST,
    DAY_MONTH_YEAR,
    NUMERIC_MONTH,
    HAN_MONTH,
    NAMED_MONTH,
)


def _without_dates(line: str) -> str:
    if not may_hold_date(line):  # no date pattern can match: most lines a title is looked for in
        return line.strip()
    for pattern in DATES:
        line = pattern.sub(" ", line)
    return line.strip()


@dataclass(frozen=True, slots=True)
class Headline:
    """A document as an editor names it. `date` is ISO: YYYY-MM-DD, or YYYY-MM for a month the text gives
    without a day; `dated_by` says where it came from: TEXT or MODIFIED. `title` and `source` are '' when the document has none."""

    title: str
    date: str
    dated_by: str
    source: str

    @property
    def dated_in_text(self) -> bool:
        """Whether the date was written in the text (else it is the file's modification date)."""
        return self.dated_by == TEXT


def _han_number(text: str) -> int:
    """二〇二四 -> 2024 (digit by digit); 十二 -> 12, 二十一 -> 21, 十 -> 10."""
    if "十" not in text:
        return int("".join(str(HAN_VALUE[c]) for c in text))
    tens, _, units = text.partition("十")
    return (HAN_VALUE[tens] if tens else 1) * 10 + (HAN_VALUE[units] if units else 0)


def _valid(year: int, month: int, day: int) -> str | None:
    if not 1900 <= year <= 2100:
        return None
    try:
        return _dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def _either_order(a: int, b: int, year: int) -> str | None:
    """25/12/2024 or 12/25/2024: the date when only one order of day and month makes one (or both the same)."""
    dates = {iso for iso in (_valid(year, b, a), _valid(year, a, b)) if iso is not None}
    return dates.pop() if len(dates) == 1 else None


def month_in(line: str) -> str | None:
    """The first month written with its year in a (folded) line, YYYY-MM; None when there is none."""
    return _month_in(line) if DATE_HINT.search(line) else None


def _month_in(line: str) -> str | None:
    """month_in without the DATE_HINT test."""
    found: list[tuple[int, str]] = []
    for pattern, parts in (
        (NUMERIC_MONTH, lambda m: (int(m[1]), int(m[2]))),
        (HAN_MONTH, lambda m: (_han_number(m[1]), _han_number(m[2]))),
        (NAMED_MONTH, lambda m: (int(m[2]), MONTHS[m[1]])),
    ):
        for m in pattern.finditer(line):
            if (iso := _valid(*parts(m), 1)) is not None:
                found.append((m.start(), iso[:7]))
                break
    return min(found)[1] if found else None


def date_in(line: str) -> str | None:
    """The first full date written in a (folded) line, ISO; None when there is none."""
    return _date_in(line) if DATE_HINT.search(line) else None


def _date_in(line: str) -> str | None:
    """date_in without the DATE_HINT test."""
    found: list[tuple[int, str]] = []
    for m in NUMERIC_DATE.finditer(line):
        if (iso := _valid(int(m[1]), int(m[3]), int(m[4]))) is not None:
            found.append((m.start(), iso))
            break
    for m in ROC_DATE.finditer(line):
        if (iso := _valid(int(m[1]) + 1911, int(m[2]), int(m[3]))) is not None:
            found.append((m.start(), iso))
            break
    for m in HAN_DATE.finditer(line):
        if (iso := _valid(_han_number(m[1]), _han_number(m[2]), _han_number(m[3]))) is not None:
            found.append((m.start(), iso))
            break
    for m in MONTH_FIRST.finditer(line):
        if (iso := _valid(int(m[3]), MONTHS[m[1]], int(m[2]))) is not None:
            found.append((m.start(), iso))
            break
    for m in DAY_FIRST.finditer(line):
        if (iso := _valid(int(m[3]), MONTHS[m[2]], int(m[1]))) is not None:
            found.append((m.start(), iso))
            break
    for m in DAY_MONTH_YEAR.finditer(line):
        day_first = _valid(int(m[4]), int(m[3]), int(m[1]))
        if (iso := _either_order(int(m[1]), int(m[3]), int(m[4])) if m[2] == "/" else day_first) is not None:
            found.append((m.start(), iso))
            break
    return min(found)[1] if found else None


def _clip(line: str, limit: int) -> str:
    line = " ".join(line.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def headline_of(
    text: str,
    mtime_ns: int,
    boilerplate: Collection[int] = frozenset(),
    folded_text: str | None = None,
    heading: str = "",
) -> Headline:
    """The title, date and source of a document's text (the visible text of a page or Markdown file, as
    documents.read_text_file gives it); `boilerplate`: the collection's boilerplate line hashes;
    `folded_text`: text.fold(text), when the caller has it; `heading`: a web page's own title
    (markup.page_heading), which is the title when it has one."""
    return unpacked(packed_headline(text, boilerplate, folded_text, heading), mtime_ns)


PACKED_SEP = "\x1f"  # between a packed headline's fields: whitespace to str.split, so never inside a clipped field


def packed_headline(
    text: str,
    boilerplate: Collection[int] = frozenset(),
    folded_text: str | None = None,
    heading: str = "",
    dropped: Collection[int] | None = None,
    lines: list[str] | None = None,
    folded_lines: list[str] | None = None,
) -> str:
    """headline_of without the modification date, as one compact string (title, date written in the text or
    '', source): what verification keeps of each text it reads, for the report (unpacked with the member's
    modification time). `dropped`: boilerplate.boilerplate_lines(text, boilerplate), when the caller has it;
    `lines` and `folded_lines`: text.splitlines() and folded_text.splitlines(), when the caller has them."""
    folded_text = fold(text) if folded_text is None else folded_text
    lines = text.splitlines() if lines is None else lines
    folded = folded_text.splitlines() if folded_lines is None else folded_lines
    whole = len(folded) == len(lines)  # each folded line a part of the folded text
    if not whole:  # a character NFKC turns into a line break: fold line by line
        folded = [fold(line) for line in lines]
    if dropped is None:
        dropped = boilerplate_lines(text, boilerplate, folded_text)
    source_screen, date_screen = line_screens()
    if whole and source_screen is not None:
        named = source_screen.rows(folded_text)
    else:
        named = _rows_holding(_holds_source_word, folded_text if whole else None, folded)
    source = ""
    for k in named:
        if _NAMES_SOURCE[folded[k]]:
            source = lines[k]
            break
    else:  # no line names one: the first boilerplate line that attributes the text
        for k in sorted(dropped):
            if _ATTRIBUTES[folded[k]]:
                source = lines[k]
                break
    title = heading or _first_title(lines, folded, dropped, named)
    return PACKED_SEP.join(
        (
            _clip(title, MAX_TITLE_CHARS),
            _text_date(folded, folded_text if whole else None, date_screen),
            _clip(source.strip(), MAX_SOURCE_CHARS) if source else "",
        )
    )


def _first_title(lines: list[str], folded: list[str], dropped: Collection[int], named: list[int]) -> str:
    """The first line of the first TITLE_LINES that may be a title (_may_be_title) and is neither one of the
    `dropped` (boilerplate) lines nor a source line (of the `named` lines, those holding a source word), as the
    text writes it without a plain text's Markdown marks; '' when none."""
    for k in range(min(TITLE_LINES, len(folded))):
        f = folded[k]
        if not f or f.isspace() or k in dropped or not _MAY_BE_TITLE[f] or (k in named and _NAMES_SOURCE[f]):
            continue
        return lines[k].strip().lstrip("#>*-=+| \t").strip() or lines[k].strip()
    return ""


T = TypeVar("T")
LINE_MEMO = 2048  # per-line results kept (the lines that recur: boilerplate, the first lines of copies)...
LINE_MEMO_CHARS = 200  # ... of lines of at most this many characters (a longer line is computed each time)


class _LineMemo(dict[str, T]):
    """`test` of a folded line, as memo[line], kept for the next time the same line comes (up to LINE_MEMO lines
    of at most LINE_MEMO_CHARS characters, then forgotten all at once): a collection's boilerplate lines recur
    in many texts, its copies' first lines in each copy, and a line found kept costs one dictionary look-up."""

    def __init__(self, test: Callable[[str], T]) -> None:
        super().__init__()
        self.test = test

    def __missing__(self, line: str) -> T:
        value = self.test(line)
        if len(line) <= LINE_MEMO_CHARS:
            if len(self) >= LINE_MEMO:
                self.clear()
            self[line] = value
        return value


def _may_be_title(line: str) -> bool:
    """Whether a folded line may be a title: not blank, nor a date, a link or symbols alone, nor a byline."""
    rest = _without_dates(line)
    return KEY_CHARS.search(_without_link(rest)) is not None and BYLINE.match(rest) is None


def _names_source(line: str) -> bool:
    """Whether a folded line holding a source word names the text's source: short, and led by a source cue once
    its dates are left out."""
    return len(line) <= MAX_SOURCE_CHARS * 2 and SOURCE_CUE.match(_without_dates(line)) is not None


def _attributes(line: str) -> bool:
    """Whether a folded boilerplate line attributes the text: led by a dash ('—— 鲁迅', '--《谚语》'), or a link."""
    return ATTRIBUTION.match(line) is not None or _has_link(line)


_MAY_BE_TITLE = _LineMemo(_may_be_title)
_NAMES_SOURCE = _LineMemo(_names_source)
_ATTRIBUTES = _LineMemo(_attributes)
_DATE_IN = _LineMemo(date_in)
_MONTH_IN = _LineMemo(month_in)


def _holds_source_word(text: str) -> bool:
    return SOURCE_WORD.search(text) is not None


@lru_cache(maxsize=2)
def line_screens(kernels: Any = KERNELS) -> tuple[Any, Any]:
    """The compiled screens of a headline's lines (kernels.LineScreen), as (the lines holding a source word:
    _holds_source_word, the lines that may hold a date: may_hold_date), each one pass over the folded text
    where the regular expressions search it and then its lines; (None, None) on the pure path."""
    screen = getattr(kernels, "LineScreen", None)
    if screen is None:
        return None, None
    return screen(SOURCE_WORDS, "", 0), screen((ROC_ERA,), HAN_DIGITS, DATE_RUN)


def _rows_holding(
    found: Callable[[str], bool], folded_text: str | None, folded: list[str], rows: Iterable[int] | None = None
) -> list[int]:
    """The numbers of the folded lines for which `found` holds (of `rows`, in their order, when given), searched
    in the whole `folded_text` first (a text where none is found has no such line), then line by line;
    `folded_text` None: `folded` are not its lines (searched line by line). What a compiled screen of `found`
    gives in one pass (line_screens)."""
    if folded_text is not None and not found(folded_text):
        return []
    return [k for k in (range(len(folded)) if rows is None else rows) if found(folded[k])]


def _text_date(folded: list[str], folded_text: str | None, screen: Any) -> str:
    """The date written in the first DATE_HEAD_LINES or the last DATE_TAIL_LINES of the folded lines (a full date
    first, else a month), '' when none; `folded_text`: the text the folded lines are the lines of (None: they are
    not), `screen`: the compiled screen of may_hold_date. Only the lines that may hold one are read."""
    n = len(folded)
    tail = max(DATE_HEAD_LINES, n - DATE_TAIL_LINES)
    if folded_text is not None and screen is not None:
        rows = screen.rows(folded_text, DATE_HEAD_LINES, tail)
    else:
        rows = _rows_holding(may_hold_date, folded_text, folded, chain(range(min(DATE_HEAD_LINES, n)), range(tail, n)))
    if not rows:
        return ""
    dated = [folded[k] for k in rows]
    date = next((iso for line in dated if (iso := _DATE_IN[line]) is not None), None)
    if date is None:
        date = next((iso for line in dated if (iso := _MONTH_IN[line]) is not None), "")
    return date


def may_hold_date(text: str) -> bool:
    """Whether a folded text may hold a date or a month (every pattern of date_in and month_in holds four digits,
    four Chinese digits or 民国); False when it holds none."""
    return DATE_ROW.search(text) is not None or ROC_ERA in text


def _has_link(line: str) -> bool:
    """LINKS.search(line) on a folded line, only where one of its triggers occurs (normalize.without_links)."""
    return ("://" in line or "www." in line or "@" in line) and LINKS.search(line) is not None


def _without_link(line: str) -> str:
    """LINKS.sub(" ", line) on a folded line, only where one of its triggers occurs."""
    return LINKS.sub(" ", line) if "://" in line or "www." in line or "@" in line else line


def unpacked(packed: str, mtime_ns: int) -> Headline:
    """The Headline of a packed_headline, dated by `mtime_ns` (the file's modification time) when its text
    gives no date."""
    title, date, source = packed.split(PACKED_SEP)
    if date:
        return Headline(title, date, TEXT, source)
    return Headline(title, _dt.datetime.fromtimestamp(mtime_ns / 1e9).date().isoformat(), MODIFIED, source)


def text_and_heading(texts: Texts, rel: str, ahead: ReadAhead | None = None) -> tuple[str, str]:
    """The visible text and, for a web page on this computer, its own title (markup.page_heading); `ahead`:
    the texts.read_ahead of the documents it is read among. Raises OSError or DecodeError."""
    if texts.uri_prefix is not None:
        return texts.read(rel).text, ""
    source = read_source_file(texts.file(rel), texts.max_bytes, ahead=ahead)
    return visible(source).text, page_heading(source.text, source.markup)


def _headlines_of(texts: Texts, boilerplate: Collection[int], members: Sequence[Member]) -> list[Headline]:
    out = []
    with texts.read_ahead([m.path for m in members]) as ahead:
        for m in members:
            try:
                text, heading = text_and_heading(texts, m.path, ahead)
            except (OSError, DecodeError):
                text = heading = ""
            out.append(headline_of(text, m.mtime_ns, boilerplate, heading=heading))
    return out


REPORT_CHUNK = 400  # members per worker task when a report reads headlines in processes
# fewer members than this are read in this process: 11,692 members took 9.4 s here and 14.2 s in 2 worker
# processes (starting the pool, a shared 2-core machine); a pool pays off on larger reports
IN_PROCESS_BELOW = 20_000


def read_headlines(
    texts: Texts,
    members: Sequence[Member],
    boilerplate: Collection[int] = frozenset(),
    workers: int = 1,
    cancel: CancelToken | None = None,
    in_process_below: int = IN_PROCESS_BELOW,
) -> dict[str, Headline]:
    """The headlines of many members for a report (path -> Headline), read in `workers` processes when
    there are `in_process_below` or more, and nothing kept for search (a million-document report would hold
    gigabytes of it)."""
    members = list(members)
    out: dict[str, Headline] = {}
    for block in read_headline_blocks(texts, [members], len(members), boilerplate, workers, cancel, in_process_below):
        out.update(block)
    return out


def read_headline_blocks(
    texts: Texts,
    blocks: Iterable[Sequence[Member]],
    total: int,
    boilerplate: Collection[int] = frozenset(),
    workers: int = 1,
    cancel: CancelToken | None = None,
    in_process_below: int = IN_PROCESS_BELOW,
) -> Iterator[dict[str, Headline]]:
    """read_headlines of each block of members in turn (`total`: the members of every block), the worker
    processes started once for them all: a report written block by block holds one block's headlines."""
    read = partial(_headlines_of, texts, frozenset(boilerplate))
    cancel = cancel or CancelToken()
    pooled = workers > 1 and total >= in_process_below
    with process_pool(min(workers, -(-total // REPORT_CHUNK))) if pooled else nullcontext() as pool:
        for block in blocks:
            block = list(block)
            # identical copies under names that end alike are the same text: one is read, the others dated by
            # their own files (the medium collection's 360 groups of identical copies: 771 reads became 360)
            first: dict[tuple[str, str], Member] = {}
            same = [first.setdefault((m.content_hash, name_suffix(m.path)), m) for m in block]
            readers = list(first.values())
            chunks = [readers[k : k + REPORT_CHUNK] for k in range(0, len(readers), REPORT_CHUNK)]
            results = map_chunks(read, chunks, pool, cancel)
            found = {m.path: h for chunk, heads in zip(chunks, results) for m, h in zip(chunk, heads)}
            yield {m.path: redated(found[r.path], m.mtime_ns) for m, r in zip(block, same) if r.path in found}


def redated(headline: Headline, mtime_ns: int) -> Headline:
    """The headline of the same text in a file modified at `mtime_ns` (headline_of of it)."""
    if headline.dated_by == TEXT:
        return headline
    return unpacked(PACKED_SEP.join((headline.title, "", headline.source)), mtime_ns)


SPACES = re.compile(r"\s+")


def search_form(text: str, folded: str | None = None) -> str:
    """A text as the filter searches it: folded as documents are (full/half width, case, traditional and
    simplified script; `folded` when the caller has it) and without spaces or line breaks, so a query
    matches whatever the wrapping."""
    return SPACES.sub("", fold(text) if folded is None else folded)


Entry = tuple[str, str, Headline, str]  # a document's path, content hash, headline and search form


def entry_of(texts: Texts, boilerplate: Collection[int], member: Member) -> Entry:
    """What Headlines keeps of a member: its headline and its search form, read now. A file that cannot be
    read any more gets an empty title and its modification date."""
    try:
        text, heading = text_and_heading(texts, member.path)
    except (OSError, DecodeError):
        text = heading = ""
    folded = fold(text)
    # the path first, on a line of its own: a query never spans it and the text (no spaces in a query)
    return (
        member.path,
        member.content_hash,
        headline_of(text, member.mtime_ns, boilerplate, folded, heading),
        search_form(member.path) + "\n" + search_form(text, folded),
    )


def read_entries(texts: Texts, boilerplate: Collection[int], members: Sequence[Member]) -> list[Entry]:
    """entry_of each member (a window runs it in a process of its own: core.HelperProcess)."""
    return [entry_of(texts, boilerplate, m) for m in members]


class Headlines:
    """Headlines and search forms of a review's documents, read when first asked and kept in memory by
    path with the content hash they were read at (a document changed since is read again). Meant for the
    members of groups only.

    `fill` reads many (a worker thread's job: thousands of files take seconds); `cached` answers at once
    with what was read (None otherwise), so a view never reads a file on its thread. Safe to fill on one
    thread while another reads.
    """

    def __init__(self, texts: Texts, boilerplate: Collection[int] = frozenset()) -> None:
        """`texts`: where the review reads its documents (files under its folder, or a bundle's URIs)."""
        self.texts = texts
        self.boilerplate = boilerplate
        self._entries: dict[str, tuple[str, Headline, str]] = {}  # path -> (content hash, headline, search form)
        self._search: tuple[str, list[int], list[str], int] | None = None  # see _joined
        self._version = 0  # raised by every read

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def search_chars(self) -> int:
        """Characters kept for search: what the filter costs in memory (2 bytes a CJK character)."""
        return sum(len(entry[2]) for entry in list(self._entries.values()))

    def cached(self, member: Member) -> Headline | None:
        return self.cached_at(member.path, member.content_hash)

    def cached_at(self, path: str, content_hash: str) -> Headline | None:
        """The headline read for `path` at `content_hash`; None when not read (or read at another content)."""
        entry = self._entries.get(path)
        return entry[1] if entry is not None and entry[0] == content_hash else None

    def of(self, member: Member) -> Headline:
        """The member's headline, read now when not cached."""
        self.fill([member])
        return self._entries[member.path][1]

    def missing(self, members: Iterable[Member]) -> list[Member]:
        return [m for m in members if self.cached(m) is None]

    def fill(self, members: Iterable[Member], cancel: Callable[[], bool] | None = None) -> int:
        """Read the members not read yet; returns how many were read. `cancel()` true stops between files.
        A file that cannot be read any more gets an empty title and its modification date."""
        read = 0
        for m in self.missing(members):
            if cancel is not None and cancel():
                break
            self.store([entry_of(self.texts, self.boilerplate, m)])
            read += 1
        return read

    def reading(self, members: Iterable[Member]) -> partial[list[Entry]]:
        """The reading of the members not read yet as one picklable call (read_entries), for a process of
        its own; store() keeps what it returns."""
        return partial(read_entries, self.texts, self.boilerplate, self.missing(members))

    def store(self, entries: Iterable[Entry]) -> None:
        """Keep entries read by read_entries (here or in another process)."""
        for path, content_hash, headline, form in entries:
            self._entries[path] = (content_hash, headline, form)
            self._version += 1

    def adopt(self, older: Headlines) -> None:
        """Take over what another review's headlines read (same root; checked by content hash when used).
        Nothing is taken from headlines read without the same boilerplate (a first scan's identical copies
        are shown before the collection's boilerplate is known): their sources would differ."""
        if set(older.boilerplate) != set(self.boilerplate):
            return
        for path, entry in list(older._entries.items()):
            self._entries.setdefault(path, entry)
        self._version += 1

    def matching(self, query: str) -> set[str]:
        """The paths read whose path or text (title and source included) contains `query`, folded as the
        text is: case, width, traditional or simplified script and spaces do not matter. One search through
        all the texts joined (12 ms over the 11,692 members of a 20,000-document collection; a search per
        text took 25-33 ms, mostly allocations)."""
        needle = search_form(query).replace("\0", "")
        joined, starts, paths = self._joined()
        found = set()
        at = joined.find(needle) if needle else -1
        while at >= 0:
            k = bisect.bisect_right(starts, at) - 1
            found.add(paths[k])
            at = joined.find(needle, starts[k + 1]) if k + 1 < len(starts) else -1
        return found if needle else set(paths)

    def prepare_search(self) -> None:
        """Join the texts read for matching() now (a worker thread's job after reading: 75-300 ms for
        11,692 texts), so the next query on the GUI thread finds them joined."""
        self._joined()

    def _joined(self) -> tuple[str, list[int], list[str]]:
        """Every search form in one string ('\\0' between them), where each starts, and whose it is; made again
        after new reads."""
        version = self._version
        if self._search is None or self._search[3] != version:
            items = list(self._entries.items())
            starts, at = [], 0
            for _, (_, _, form) in items:
                starts.append(at)
                at += len(form) + 1
            self._search = ("\0".join(form for _, (_, _, form) in items), starts, [p for p, _ in items], version)
        return self._search[:3]
