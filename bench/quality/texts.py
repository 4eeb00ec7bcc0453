"""The real texts the evaluation kit is made from, none of them a source of the standard collections
(bench/corpus): English sayings (`fortunes`), Tang and Song poems (`fortunes-zh`'s tang300 and song100),
the Debian Reference in simplified and in Taiwanese traditional Chinese (`debian-reference-zh-cn`,
`debian-reference-zh-tw`), the traditional-Chinese manual pages of `manpages-zh` (zh_TW), and the
reStructuredText sources of the Python documentation (`python3-doc`) for long English documents.
"""

from __future__ import annotations

import gzip
import re
from functools import lru_cache
from pathlib import Path

from bench.corpus.sources import fortune_entries, manual_pages, require

ENGLISH_FORTUNES = (
    "fortunes",
    "literature",
    "wisdom",
    "people",
    "science",
    "work",
    "humorists",
    "politics",
    "education",
    "computers",
    "love",
    "pets",
    "sports",
    "food",
    "songs-poems",
    "definitions",
)
DEBIAN_REFERENCE = Path("/usr/share/debian-reference")
PYTHON_DOCS = Path("/usr/share/doc")  # python3-doc installs python3.X/html/_sources/
HAN = re.compile(r"[\u4e00-\u9fff]")
SECTION_HEADING = re.compile(r"^(\d+(?:\.\d+)+)\.[ \xa0]\S.*$", re.M)


@lru_cache(maxsize=1)
def english_sayings() -> tuple[str, ...]:
    """English fortune entries of 60-600 characters, ASCII only (no art, no other languages), by file."""
    out = []
    for name in ENGLISH_FORTUNES:
        path = Path("/usr/share/games/fortunes") / name
        if not path.exists():
            continue
        for entry in fortune_entries(name, "fortunes"):
            text = entry.strip()
            if 60 <= len(text) <= 600 and text.isascii() and sum(ch.isalpha() for ch in text) > 0.6 * len(text):
                out.append(text)
    require(Path("/usr/share/games/fortunes/fortunes"), "fortunes")
    return tuple(out)


@lru_cache(maxsize=1)
def classical_poems() -> tuple[str, ...]:
    """Tang and Song poems (simplified characters), each with its title and poet lines."""
    poems = []
    for name in ("tang300", "song100"):
        for entry in fortune_entries(name, "fortunes-zh", min_chars=16):
            poems.append("\n".join(line.strip() for line in entry.splitlines() if line.strip()))
    return tuple(poems)


def _reference_sections(lang: str) -> dict[str, str]:
    """The Debian Reference's plain-text edition in `lang`, cut at its numbered headings: {number: text}."""
    path = require(DEBIAN_REFERENCE / f"debian-reference.{lang}.txt.gz", f"debian-reference-{lang}")
    text = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
    first_chapter = re.search(r"\n(?:第\s*1\s*章|章\s*1\.)", text)  # after the contents, tables, figures
    if first_chapter is None:
        raise ValueError(f"{path}: no first chapter heading (第 1 章) found")
    body_start = first_chapter.start()
    heads = [m for m in SECTION_HEADING.finditer(text) if m.start() > body_start]
    sections: dict[str, str] = {}
    for m, nxt in zip(heads, heads[1:] + [None]):
        chunk = text[m.start() : nxt.start() if nxt else len(text)]
        # the text edition indents by four; paragraphs stay separated by blank lines
        chunk = "\n".join(line[4:] if line.startswith("    ") else line for line in chunk.splitlines()).strip()
        number = m.group(1)
        sections.setdefault(number, chunk)
    return sections


@lru_cache(maxsize=1)
def debian_reference() -> tuple[tuple[str, str, str], ...]:
    """(section number, simplified text, traditional text) for every section both editions have, in order."""
    cn, tw = _reference_sections("zh-cn"), _reference_sections("zh-tw")
    return tuple((k, cn[k], tw[k]) for k in cn if k in tw)


@lru_cache(maxsize=1)
def traditional_manual_pages() -> tuple[str, ...]:
    """Manual pages in traditional Chinese (manpages-zh's zh_TW), as text."""
    return tuple(manual_pages("zh_TW", "manpages-zh"))


@lru_cache(maxsize=1)
def long_english_documents(min_chars: int = 60_000, max_chars: int = 110_000) -> tuple[tuple[str, str], ...]:
    """(name, text) of the Python documentation's sources of at least `min_chars`, each cut to at most
    `max_chars` at a paragraph break: unrelated long English documents about one subject."""
    found = sorted(PYTHON_DOCS.glob("python3*/html/_sources"))
    root = require(found[-1] if found else PYTHON_DOCS / "python3/html/_sources", "python3-doc")
    out = []
    for path in sorted(root.rglob("*.rst.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if len(text) < min_chars:
            continue
        if len(text) > max_chars:
            text = text[: text.rfind("\n\n", 0, max_chars)]
        out.append((str(path.relative_to(root)), text))
    return tuple(out)


def han_count(text: str) -> int:
    return len(HAN.findall(text))
