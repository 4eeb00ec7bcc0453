"""Text normalisation: the one way a document's text is folded before it is fingerprinted or verified.

    fold("臺灣軟體，ＡＢＣ Рython")     # '台湾软体,abc python'   (script, width, case, look-alikes; lines kept)
    fold("imp\u00adoses")              # 'imposes'              (invisible characters out)
    normalize("臺灣\n軟體，ＡＢＣ")       # '台湾软体 abc'           (+ links out, wraps out, punctuation -> spaces)

Steps of `fold`, each chosen so that copies an editor would call the same text fold alike:
- invisible characters out: Unicode's format characters (category Cf: soft hyphen, zero-width space,
  joiner and non-joiner, word joiner, a byte-order mark inside the text, bidirectional marks and
  isolates, tags...), the variation selectors and the combining grapheme joiner. Web pages hyphenate with
  soft hyphens, editors and messengers leave zero-width spaces and joiners, text watermarks hide bits in
  them, concatenated files carry inner BOMs; NFKC keeps them all, and left in they cut words apart
  ('imp\u00adoses' read as 'imp' and 'oses'), so an English copy with a few of them scored as another text.
- Unicode NFKC: full-width letters and digits become half-width, compatibility ideographs (U+F900..,
  U+2F800..) and Kangxi radicals become the unified ideographs they stand for.
- case folding.
- script: traditional Chinese becomes simplified with OpenCC's `tw2s` conversion (phrase-level, with the
  Taiwan variant characters 裡/台/著...), so a repost converted to traditional (OpenCC s2t, s2tw or s2hk)
  folds to its original: measured on 300,000 characters of Debian's zh_CN manual pages, s2t / s2tw / s2hk
  then tw2s agree with the original to 0.99998 / 0.99998 / 0.99996 of characters. (tw2sp also maps Taiwan
  vocabulary, 軟體 -> 软件, but it is not idempotent on simplified text: plain s2t copies then agree to
  only 0.995.) Only text with Han characters is converted (~30 M characters a second).
- look-alikes: Cyrillic and Greek letters that Unicode's confusables list as a Latin letter, in both
  cases (а, е, о, р, с, у, х, ѕ, і, ј, ο, ρ, α...), become that letter, so 'Рython' with a Cyrillic Р is
  'python'. The table comes
  from the confusable-homoglyphs package (Unicode's confusables.txt); only text with such letters is
  translated.

This module imports no other simdesk module but the compiled kernels (simdesk.core.compiled): features, the
segmenter, boilerplate and verification all import it.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from simdesk.core.compiled import KERNELS

CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
HAN = re.compile(f"[{CJK}]")
# Whitespace between two CJK characters is a line wrap, not a word boundary: it goes. Written to start with
# \s, its behind-check after it (= (?<=[CJK])\s+(?=[CJK])): re then skips to each whitespace character
# instead of trying every position (0.17 -> 0.11 s over the 9.4 M characters of a 20,000-file collection).
CJK_GAP = re.compile(rf"\s(?<=[{CJK}]\s)\s*(?=[{CJK}])")
SPACES = re.compile(r"\s+")
# Punctuation and symbols of any width (NON_WORD), and spaces, become one boundary: '，' and ',' weigh the
# same (nothing). One pass: a run of them becomes one space.
NON_WORD = re.compile(r"[^\w\s]|_")
BOUNDARIES = re.compile(r"[\W_]+")  # = (?:[^\w\s]|_|\s)+ (\s is in \W), one class: twice as fast
# Links and e-mail addresses are boilerplate of reposts, not content: they are dropped before segmenting.
# The local part is bounded (64, as in RFC 5321): unbounded, a long run of letters (a base64 blob, a 4 MB
# line) made every position scan to the end of the run looking for '@', quadratic time (hours for 4 MB).
LINKS = re.compile(r"(?:https?|ftp)://\S+|www\.[\w.-]+\S*|[\w.+-]{1,64}@[\w-]+\.[\w.-]+", re.ASCII | re.IGNORECASE)
# Greek and Cyrillic (with their supplements): where look-alikes of Latin letters live.
LOOK_ALIKE_RANGES = ((0x0370, 0x03FF), (0x0400, 0x052F), (0x1D00, 0x1D7F), (0xA640, 0xA69F))
LOOK_ALIKE_SCRIPTS = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in LOOK_ALIKE_RANGES) + "]")
# Invisible characters that are not format characters (Cf) but are as invisible in a word: the combining
# grapheme joiner, the Mongolian free variation selectors, the variation selectors (emoji and ideographic)
INVISIBLE_MARKS = ((0x034F, 0x034F), (0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
# Every format character lies in these code points (planes 0, 1 and 14, Unicode 14 to 16)
FORMAT_PLANES = (range(0x20000), range(0xE0000, 0xE1000))
SCRIPT_CONVERSION = "tw2s.json"  # OpenCC: traditional (Taiwan variants included) to simplified, phrase-level
# in simdesk/resources: the characters that can make SCRIPT_CONVERSION change a line, and the hash of the
# dictionaries they were read from (written by tools/script_triggers.py)
SCRIPT_TRIGGERS = "script_triggers.txt"
SCRIPT_JOIN = 64  # lines to convert at most this many characters apart are converted in one call


@lru_cache(maxsize=1)
def _to_simplified() -> Callable[[str], str]:
    import opencc  # loaded on first Chinese text (~20 ms)

    return opencc.OpenCC(SCRIPT_CONVERSION).convert


def script_dictionaries() -> list[Path]:
    """The dictionary files SCRIPT_CONVERSION reads, in the installed OpenCC. Raises OSError or ValueError."""
    import opencc

    share = Path(opencc.__file__).parent / "clib" / "share" / "opencc"
    found: list[str] = []

    def collect(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("file"), str):
                found.append(node["file"])
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    collect(json.loads((share / SCRIPT_CONVERSION).read_text(encoding="utf-8")))
    if not found:
        raise ValueError(f"{SCRIPT_CONVERSION} names no dictionary")
    return [share / name for name in dict.fromkeys(found)]


def script_dictionaries_hash() -> str:
    """The hash of the installed SCRIPT_CONVERSION's dictionaries (names and bytes). Raises OSError or
    ValueError."""
    digest = hashlib.blake2b(digest_size=16)
    for path in script_dictionaries():
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@lru_cache(maxsize=1)
def script_trigger_codes() -> tuple[int, ...] | None:
    """The code points of the Basic Multilingual Plane that can make the script conversion change a line
    (SCRIPT_TRIGGERS, surrogates left out), or None when the file was made for other dictionaries than the
    installed OpenCC's (or cannot be read)."""
    try:
        digest, chars = (
            files("simdesk").joinpath("resources", SCRIPT_TRIGGERS).read_text(encoding="utf-8").split("\n")[:2]
        )
        if digest != script_dictionaries_hash():
            return None
    except (OSError, ValueError, ImportError):
        return None
    return tuple(sorted({ord(c) for c in chars if ord(c) < 0xD800 or 0xE000 <= ord(c) < 0x10000}))


@lru_cache(maxsize=1)
def script_triggers() -> re.Pattern[str] | None:
    """A class of the characters that can make the script conversion change a line (script_trigger_codes; every
    character beyond the Basic Multilingual Plane, and lone surrogates, count as triggers too), or None when
    the file was made for other dictionaries than the installed OpenCC's (or cannot be read): then every text
    with Han characters is converted whole. ~13 ms on first use (the fork server pays it for its workers)."""
    codes = script_trigger_codes()
    if codes is None:
        return None
    ranges: list[tuple[int, int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    members = "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)
    return re.compile(f"[{members}\ud800-\udfff\U00010000-\U0010ffff]")


def to_simplified(text: str) -> str:
    """OpenCC's SCRIPT_CONVERSION of `text`, run only on its lines that hold a trigger (script_triggers): the
    conversion matches no dictionary key across a line break, so it converts a text as it converts each of
    its lines, and a line without a trigger holds no key that changes it. On the 20,000 texts of a medium
    collection 8% of the lines hold one."""
    convert = _to_simplified()
    triggers = script_triggers()
    if triggers is None:
        return convert(text)
    spans = script_spans(text, triggers)
    if not spans:
        return text
    out = []
    done = 0
    for k in range(0, len(spans), 2):
        start, end = spans[k], spans[k + 1]
        out.append(text[done:start])
        out.append(convert(text[start:end]))
        done = end
    out.append(text[done:])
    return "".join(out)


@lru_cache(maxsize=2)
def script_spanner(kernels: Any = KERNELS) -> Any:
    """The compiled class (kernels.CharSet) of the installed triggers, lone surrogates and the characters
    beyond the Basic Multilingual Plane (script_triggers), or None (the pure path; no triggers; kernels built
    before it)."""
    charset = getattr(kernels, "CharSet", None)
    codes = script_trigger_codes()
    return None if charset is None or codes is None else charset((*codes, *range(0xD800, 0xE000)), True)


def script_spans(text: str, triggers: re.Pattern[str], spanner: Any = True) -> list[int]:
    """Where to_simplified converts `text`: [start, end, start, end, ...] of its lines holding a trigger, a span
    running on over the next lines while their next trigger is at most SCRIPT_JOIN characters past its end
    (one call of the conversion for lines close together). By the compiled `spanner` when there is one
    (True: the installed one; None: this loop with `triggers`): 1.0 against 4.1 µs a text on the
    medium collection's 20,000 texts (2026-11-27, load 13)."""
    if spanner is True:
        spanner = script_spanner()
    if spanner is not None:
        return list(spanner.spans(text, SCRIPT_JOIN))
    out: list[int] = []
    done = 0
    size = len(text)
    find, search = text.find, triggers.search
    hit = search(text)
    while hit is not None:
        start = text.rfind("\n", done, hit.start()) + 1 or done
        end = find("\n", hit.end())
        if end < 0:
            end = size
        hit = search(text, end)
        while hit is not None and hit.start() - end <= SCRIPT_JOIN:
            end = find("\n", hit.end())
            if end < 0:
                end = size
            hit = search(text, end)
        out += (start, end)
        done = end
    return out


@lru_cache(maxsize=1)
def invisible_characters() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The invisible characters, as (a screen, the class): the class is every format character (category Cf)
    of the interpreter's Unicode database and INVISIBLE_MARKS; the screen is its characters of the Basic
    Multilingual Plane and every character beyond it, one class of few ranges that re searches 3-4x faster
    (10 against 33 ms over 1.9 M characters of Chinese text). Built on first use (~20 ms)."""
    ranges = invisible_ranges()
    members = "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges)
    screen = "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges if b < 0x10000)
    return re.compile(f"[{screen}\U00010000-\U0010ffff]"), re.compile(f"[{members}]+")


# invisible_ranges() of a Unicode database as it computes them (tests/core/test_text.py checks it), so that
# a process that folds text (the scan workers' fork server, a small scan's process) does not look at the
# category of 135,000 code points first (~20 ms of CPU) when its interpreter has that database (Python 3.11's)
RECORDED_INVISIBLE_RANGES = {
    "14.0.0": (
        *((0x034F, 0x034F), (0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF)),
        *((0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD), (0x070F, 0x070F)),
        *((0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E), (0x200B, 0x200F), (0x202A, 0x202E)),
        *((0x2060, 0x2064), (0x2066, 0x206F), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD)),
        *((0x110CD, 0x110CD), (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001)),
        (0xE0020, 0xE007F),
    ),
}


@lru_cache(maxsize=1)
def invisible_ranges() -> tuple[tuple[int, int], ...]:
    """The code point ranges (inclusive) of the invisible characters: every format character (category Cf) of
    the interpreter's Unicode database and INVISIBLE_MARKS (as recorded for that database, or computed)."""
    recorded = RECORDED_INVISIBLE_RANGES.get(unicodedata.unidata_version)
    return recorded if recorded is not None else computed_invisible_ranges()


def computed_invisible_ranges() -> tuple[tuple[int, int], ...]:
    """invisible_ranges() computed from the interpreter's Unicode database."""
    category = unicodedata.category
    ranges: list[tuple[int, int]] = list(INVISIBLE_MARKS)
    for plane in FORMAT_PLANES:
        for code in plane:
            if category(chr(code)) == "Cf":
                if ranges[-1][1] == code - 1:
                    ranges[-1] = (ranges[-1][0], code)
                else:
                    ranges.append((code, code))
    return tuple(ranges)


@lru_cache(maxsize=2)
def fold_screens(kernels: Any = KERNELS) -> tuple[Any, Any]:
    """The compiled screens of `fold` (kernels.CharSet), as (the invisible characters' screen, the look-alike
    scripts), each found in one pass where the regex class tries each character (~2 and ~1.5 µs a text less on
    the medium collection); (None, None) on the pure path."""
    charset = getattr(kernels, "CharSet", None)
    if charset is None:
        return None, None
    invisible = [c for a, b in invisible_ranges() if b < 0x10000 for c in range(a, b + 1)]  # the regex screen's
    look_alike = [c for a, b in LOOK_ALIKE_RANGES for c in range(a, b + 1)]
    return charset(invisible, True), charset(look_alike, False)


def without_invisible(text: str, screens: tuple[Any, Any] | None = None) -> str:
    """`text` without its invisible characters (invisible_characters); text without any (ASCII text, most
    text) is returned as it is after one fast search (by the compiled screen when there is one: `screens`,
    fold_screens() when None)."""
    if text.isascii():
        return text
    screen, invisible = invisible_characters()
    compiled = (fold_screens() if screens is None else screens)[0]
    if (screen.search(text) is None) if compiled is None else not compiled.found(text):
        return text
    return invisible.sub("", text)


@lru_cache(maxsize=1)
def look_alike_table() -> dict[int, str]:
    """Cyrillic and Greek letters that Unicode's confusables list maps to one Latin letter, as a str.translate
    table on case-folded text. A letter is kept only when its capital maps to the same Latin letter (Cyrillic
    а/А, е/Е, о/О, р/Р, с/С; Greek ο/Ο, ρ/Ρ...), so that folding never depends on case (т looks like no
    letter while Т looks like T: neither is folded)."""
    data = json.loads(files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8"))
    latin: dict[str, str] = {}
    for char, entries in data.items():
        if len(char) == 1 and LOOK_ALIKE_SCRIPTS.match(char):
            found = [e["c"] for e in entries if len(e["c"]) == 1 and e["c"].isascii() and e["c"].isalpha()]
            if found:
                latin[char] = found[0].lower()
    table: dict[int, str] = {}
    for char, letter in latin.items():
        capital = char.upper()
        if char == char.casefold() and (capital == char or latin.get(capital) == letter):
            table[ord(char)] = letter
    return table


# What NFKC changes in most Chinese text: full-width punctuation and no-break / ideographic spaces. Each is
# replaced by its compatibility decomposition first (which leaves NFKC's result unchanged), so that NFKC's quick
# check passes on most texts instead of normalising every character: 6x faster on the medium collection.
NFKC_FIRST = tuple((c, unicodedata.normalize("NFKD", c)) for c in "，：；？（）！\u00a0\u3000")


def nfkc(text: str) -> str:
    """unicodedata.normalize("NFKC", text), faster on Chinese text. Line by line when the quick check fails:
    a line break composes with nothing, so the result is the same, and one character that needs normalising
    no longer sends the whole text down the slow path (a 1 MB text: 69 -> 22 ms)."""
    for char, ascii_form in NFKC_FIRST:
        if char in text:
            text = text.replace(char, ascii_form)
    if unicodedata.is_normalized("NFKC", text):
        return text
    if "\n" not in text:
        return unicodedata.normalize("NFKC", text)
    return "\n".join([unicodedata.normalize("NFKC", line) for line in text.split("\n")])


FOLD_PIECE = 1 << 20  # characters of a long text folded at a time (fold)
# Where a long text's piece may end: before a space or a common punctuation mark, which nothing composes with
# (NFKC) and no phrase of the script conversion holds
FOLD_CUT = "\\s,.;:?!，。、；：？！"


@lru_cache(maxsize=8)
def _cuts(cut: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    return re.compile(f"[{cut}][^{cut}]*\\Z"), re.compile(f"[{cut}]")


def pieces(text: str, piece: int, cut: str) -> Iterator[tuple[int, int]]:
    """(start, end) of consecutive pieces of `text` of about `piece` characters, each ending before a character
    of `cut` (the body of a regex class): the last one in the piece, or the first after it when the piece has
    none (a longer stretch without one is taken whole)."""
    last, following = _cuts(cut)
    start = 0
    while start < len(text):
        end = min(start + piece, len(text))
        if end < len(text):
            found = last.search(text, start, end)
            found = found if found is not None and found.start() > start else following.search(text, end)
            end = found.start() if found is not None else len(text)
        yield start, end
        start = end


def fold(text: str, piece: int = FOLD_PIECE) -> str:
    """Invisible characters out, NFKC, case folding, traditional to simplified Chinese, Latin look-alikes to
    Latin; line breaks kept. A text longer than `piece` is folded a piece at a time, each ending before a
    space or a punctuation mark (pieces): the same text, in memory for a piece rather than a few copies of
    the whole (a 221 MB line took ~680 MB more in one go)."""
    if len(text) <= piece:
        return _fold(text)
    return "".join(_fold(text[start:end]) for start, end in pieces(text, piece, FOLD_CUT))


def _fold(text: str) -> str:
    text = nfkc(without_invisible(text)).casefold()
    if HAN.search(text):
        text = to_simplified(text)
    if has_look_alike(text):
        text = text.translate(look_alike_table())
    return text


def has_look_alike(text: str, screens: tuple[Any, Any] | None = None) -> bool:
    """Whether `text` holds a letter of LOOK_ALIKE_SCRIPTS (by the compiled screen when there is one:
    `screens`, fold_screens() when None)."""
    compiled = (fold_screens() if screens is None else screens)[1]
    return LOOK_ALIKE_SCRIPTS.search(text) is not None if compiled is None else bool(compiled.found(text))


# Han characters that folding keeps Han characters: the unified ideographs (no compatibility decomposition, no
# case). A few compatibility ideographs of HAN fold to characters beyond it (U+FA6C -> U+242EE).
UNIFIED_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]")


def fold_rows(part: str, rows: Iterable[int], folded_lines: Sequence[str]) -> str:
    """fold(part) of `part`, some lines of a text joined by line feeds ("\\n".join(lines[k] for k in rows),
    lines = text.splitlines()), from the text's folded lines: `folded_lines` = fold(text).splitlines(), as many
    as its lines, the text of at most FOLD_PIECE characters. Folding changes a line's characters by themselves
    or with their neighbours on the line (invisible characters, NFKC, case, look-alikes) or converts its phrases
    (the script conversion, whose phrases never span a line break), so the folded part is the text's folded
    lines joined; the one step that looks at the whole text, whether it holds a Han character (the script
    conversion runs only then), agrees when `part` holds a unified ideograph (then the text does too). Any
    other part is folded (a part without Han in a text with some: a character the conversion would change
    outside Han, beyond the Basic Multilingual Plane, stays as it is)."""
    if UNIFIED_HAN.search(part) is None:
        return fold(part)
    return "\n".join([folded_lines[k] for k in rows])


LINK_TRIGGER = re.compile(r"://|www\.|@")  # what every match of LINKS holds


def without_links(folded: str) -> str:
    """A folded text with its links and e-mail addresses replaced by spaces (folded text is lower case). The
    regex runs only on the lines where one of its three triggers occurs (LINK_TRIGGER, each line found from
    a trigger, the others left as they are): no link spans a line break, and the regex, which tries every
    position of a line, cost as much as the rest of the normalisation on texts with one address (0.18 s ->
    0.06 s on the 4,330 such texts of a 20,000-file collection)."""
    if "://" not in folded and "www." not in folded and "@" not in folded:
        return folded
    out = []
    done = 0  # the text up to here is in `out`; a line break or the start
    hit = LINK_TRIGGER.search(folded)
    while hit is not None:
        start = folded.rfind("\n", done, hit.start()) + 1
        end = folded.find("\n", hit.end())
        if end < 0:
            end = len(folded)
        out.append(folded[done:start])
        out.append(LINKS.sub(" ", folded[start:end]))
        done = end
        hit = LINK_TRIGGER.search(folded, end)
    out.append(folded[done:])
    return "".join(out)


def normalize(text: str, strip_links: bool = True) -> str:
    """`fold`, then links dropped, line wraps inside Chinese removed, punctuation and symbols turned into
    single spaces: the text features and verification work on."""
    return normalize_folded(fold(text), strip_links)


_WORD_PAIR = re.compile(r"(?<=[^\W_])(?=[^\W_])")  # between two word characters: no gap or boundary spans it


def normalize_folded(text: str, strip_links: bool = True, piece: int = FOLD_PIECE) -> str:
    """`normalize` of a text already folded (`fold`): the scan folds each text once for its features and its
    line keys. A text longer than `piece` is normalised a piece at a time, each ending between two word
    characters (where no wrap or run of boundaries can span the cut): the same text, in memory for a piece."""
    if strip_links:
        text = without_links(text)
    if len(text) <= piece:
        return normal_form(text).strip()
    parts = []
    start = 0
    while start < len(text):
        end = min(start + piece, len(text))
        if end < len(text):
            while end > start + 1 and not (text[end - 1].isalnum() and text[end].isalnum()):
                end -= 1
            if end == start + 1:  # no place in the piece: the next one after it
                found = _WORD_PAIR.search(text, start + piece)
                end = found.start() if found is not None else len(text)
        parts.append(normal_form(text[start:end]))
        start = end
    return "".join(parts).strip()


def gap_ranges() -> list[tuple[int, int]]:
    """The code point ranges (inclusive) of CJK: whitespace between two of their characters is a line wrap."""
    assert len(CJK) % 3 == 0 and CJK[1::3] == "-" * (len(CJK) // 3)
    return [(ord(CJK[i]), ord(CJK[i + 2])) for i in range(0, len(CJK), 3)]


# normal_form in one compiled pass (3 against 22 µs a text on the medium collection, 2026-11-27), or None for the
# pure-Python path (also with kernels built before the Normaliser)
NORMALISER = getattr(KERNELS, "Normaliser", lambda ranges: None)(gap_ranges())


def normal_form(text: str, normaliser: Any = NORMALISER) -> str:
    """A folded text with its line wraps inside Chinese removed and its punctuation, symbols and spaces turned
    into single spaces (CJK_GAP, then BOUNDARIES; not stripped): by the compiled `normaliser` when there is one
    (a run of characters BOUNDARIES replaces goes whole when it is whitespace alone between two CJK characters,
    which is what CJK_GAP removes)."""
    if normaliser is not None:
        return str(normaliser.normal(text))
    return BOUNDARIES.sub(" ", CJK_GAP.sub("", text))
