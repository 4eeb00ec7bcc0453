"""Real Chinese texts from Debian packages, read into plain strings: the sayings of `fortunes-zh` and the
translated manual pages of `manpages-zh` (simplified Chinese), with texts that already repeat each other in
the packages left out.

The packages are system packages (`./dev.sh setup` installs them); a missing one is a clear error that
names it.
"""

from __future__ import annotations

import gzip
import re
import zlib
from collections import Counter
from functools import lru_cache
from pathlib import Path

import numpy as np

FORTUNES_DIR = Path("/usr/share/games/fortunes")
MAN_DIR = Path("/usr/share/man")


class MissingSource(RuntimeError):
    """A Debian package the collections are made from is not installed."""


def require(path: Path, package: str) -> Path:
    if not path.exists():
        raise MissingSource(
            f"{path} not found: install the Debian package {package} "
            f"(./dev.sh setup does, or: sudo apt-get install {package})"
        )
    return path


# ---- fortune files: entries separated by a line holding only '%' ----

NOT_ALNUM = re.compile(r"[\W_]+")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def fortune_entries(name: str, package: str, min_chars: int = 20) -> list[str]:
    """The entries of one fortune file (e.g. `chinese` of fortunes-zh), colour codes removed."""
    raw = require(FORTUNES_DIR / name, package).read_bytes().decode("utf-8", errors="replace")
    entries = []
    for block in re.split(r"^%$", ANSI.sub("", raw), flags=re.M):
        block = block.strip("\n").rstrip()
        if len(block.strip()) >= min_chars:
            entries.append(block.strip("\n"))
    return entries


# ---- manual pages: troff source to readable text ----

PARAGRAPH_REQUESTS = {"PP", "LP", "P", "sp", "HP"}
BREAK_REQUESTS = {"br", "TP", "RS", "RE", "nf", "fi", "in", "ti", "EX", "EE", "TQ", "UE", "ME"}
FONT_REQUESTS = {"B", "I", "R", "SM", "SB"}
ALTERNATING_REQUESTS = {"BR", "BI", "IB", "IR", "RB", "RI"}  # arguments joined without spaces
HEADING_REQUESTS = {"SH", "SS"}
NAMED_GLYPHS = {
    "em": "—",
    "en": "–",
    "hy": "-",
    "co": "©",
    "rg": "®",
    "bu": "•",
    "lq": "“",
    "rq": "”",
    "oq": "‘",
    "cq": "’",
    "aq": "'",
    "dq": '"',
    "mi": "-",
    "mu": "×",
    "de": "°",
    "tm": "™",
    "<=": "≤",
    ">=": "≥",
    "->": "→",
    "<-": "←",
    "ti": "~",
    "ha": "^",
    "rs": "\\",
    "ba": "|",
}
INLINE = re.compile(
    r"""\\(?:
      f(?:\[[^\]]*\]|\(..|.)          # font changes
    | s[-+]?(?:\d|\(\d\d|\[\d+\])     # size changes
    | \((?P<glyph2>..)                # \(xx glyphs
    | \[(?P<glyph>[^\]]*)\]           # \[name] glyphs
    | [*n](?:\(..|\[[^\]]*\]|.)       # strings and registers
    | [&|^%:)cdu]                     # zero-width marks
    | (?P<lit>[-e .0~'`])             # literal characters
    | "[^\n]*                         # a comment to the end of the line
)""",
    re.X,
)
LITERAL = {"-": "-", "e": "\\", " ": " ", ".": ".", "0": " ", "~": " ", "'": "'", "`": "`"}


def _inline(line: str) -> str:
    def repl(m: re.Match) -> str:
        name = m.group("glyph2") or m.group("glyph")
        if name is not None:
            return NAMED_GLYPHS.get(name, "")
        lit = m.group("lit")
        return LITERAL[lit] if lit is not None else ""

    return INLINE.sub(repl, line)


def _request_args(rest: str) -> list[str]:
    """Arguments of a request line: space separated, double quotes group words."""
    return [
        quoted.replace('""', '"') if quoted else word for quoted, word in re.findall(r'"((?:[^"]|"")*)"?|(\S+)', rest)
    ]


def troff_text(source: str) -> str:
    """The readable text of a manual page's troff source: headings and paragraphs kept, requests,
    comments and font escapes dropped. Not a formatter: enough to get the words a reader sees."""
    out: list[str] = []
    for raw in source.splitlines():
        if raw.startswith(('.\\"', "'\\\"", '.\\"')) or raw.strip() in (".", "'"):
            continue
        if raw.startswith((".", "'")):
            m = re.match(r"[.'](\S*)\s*(.*)", raw)
            assert m is not None  # any line starting with . or '
            name, rest = m.group(1), m.group(2)
            if name == "if" or name == "ie" or name == "el":
                # po4a's `.if !'po4a'hide' .BR ...`: keep what follows the condition
                inner = re.search(r"\s\.(\S+)\s*(.*)$", raw)
                if not inner:
                    continue
                name, rest = inner.group(1), inner.group(2)
            if name in HEADING_REQUESTS:
                out += ["", _inline(" ".join(_request_args(rest))), ""]
            elif name in PARAGRAPH_REQUESTS:
                out.append("")
            elif name == "IP":
                args = _request_args(rest)
                out += ["", _inline(args[0])] if args else [""]
            elif name in FONT_REQUESTS:
                out.append(_inline(" ".join(_request_args(rest))))
            elif name in ALTERNATING_REQUESTS:
                out.append(_inline("".join(_request_args(rest))))
            elif name in BREAK_REQUESTS:
                continue
            continue  # any other request carries no running text
        out.append(_inline(raw))
    text = "\n".join(line.rstrip() for line in out)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def manual_pages(lang: str, package: str, min_han: int = 100) -> list[str]:
    """The text of every manual page under /usr/share/man/LANG with at least `min_han` Chinese characters,
    in path order."""
    root = require(MAN_DIR / lang, package)
    texts = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        try:
            data = path.read_bytes()
            if path.suffix == ".gz":
                data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error):
            continue
        text = troff_text(data.decode("utf-8", errors="replace"))
        if len(re.findall(r"[\u4e00-\u9fff]", text)) >= min_han and "\ufffd" not in text:
            texts.append(text)
    return texts


# ---- texts that repeat each other in the sources ----


def gram_hashes(text: str, gram: int) -> np.ndarray:
    """Distinct 64-bit hashes of the character n-grams of `text`'s letters and digits (numpy: a polynomial
    hash over code points, then a multiplicative mix so that `hash % m` samples evenly)."""
    letters = NOT_ALNUM.sub("", text)
    codes = np.frombuffer(letters.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    if len(codes) < gram:
        codes = np.concatenate([codes, np.zeros(gram - len(codes), dtype=np.uint64)])
    h = np.zeros(len(codes) - gram + 1, dtype=np.uint64)
    for k in range(gram):
        h = h * np.uint64(1_000_003) + codes[k : len(codes) - gram + 1 + k]
    h = (h ^ (h >> np.uint64(29))) * np.uint64(0xBF58476D1CE4E5B9)
    return np.unique(h ^ (h >> np.uint64(32)))


def without_repeats(
    texts: list[str], gram: int = 5, keep_one_in: int = 4, overlap: float = 0.3, common: int | None = None
) -> list[str]:
    """`texts` in order, less each text that shares `overlap` of its sampled character n-grams (of letters
    and digits) with an earlier kept text: a page installed under two names, a saying quoted twice. Only
    planted variants may be near-duplicates in a collection. Strict on purpose: two manual pages made from
    one template (`DROP USER`, `DROP GROUP`) are left out too, as an editor would not call them distinct.
    `common`: n-grams already in that many kept texts no longer count (for English, where frequent
    n-grams are everywhere and counting them is slow)."""
    owner: dict[int, list[int]] = {}
    sizes: list[int] = []
    kept: list[str] = []
    for text in texts:
        grams = gram_hashes(text, gram)
        sampled = grams[grams % np.uint64(keep_one_in) == 0]
        sample = (sampled if len(sampled) else grams).tolist()
        hits = Counter(k for g in sample for k in owner.get(g, ()) if common is None or len(owner[g]) < common)
        if any(n >= overlap * min(len(sample), sizes[k]) for k, n in hits.items()):
            continue
        for g in sample:
            owner.setdefault(g, []).append(len(kept))
        sizes.append(len(sample))
        kept.append(text)
    return kept


@lru_cache(maxsize=1)
def chinese_texts() -> tuple[str, ...]:
    """Every source text of the standard collections, in a fixed order: sayings, then manual pages."""
    sayings = fortune_entries("chinese", "fortunes-zh")
    pages = manual_pages("zh_CN", "manpages-zh")
    return tuple(sayings + pages)
