"""Write a collection: real Chinese texts in nested folders and mixed encodings, about a third of them with
planted near-duplicate variants, and `truth.json` saying which files belong together.

    truth.json = {"files": {"稿件/2020/0a1b2c3d.txt": {"group": "g12", "role": "original" | "variant",
                  "edits": ["typo", "truncate"], "encoding": "gb18030", "short": false}, ...},
                  "edit_kinds": [...]}

Files that share a `group` are near-duplicates an editor wants to see together; no other pair is. Short
texts (under 140 characters) are flagged `short`. The same (size, seed) writes the same bytes.

`crowd=(N, K)` also plants N large copy groups of K files each (an original of at least CROWD_MIN_CHARS
characters and K - 1 reposts of it: each with 1-3% typos, every third one also re-wrapped at its own
width), among the others and counted in the documents; every file then has a `class` in truth.json,
"crowd" or "standard", so that `python -m bench.quality score` reports the two apart (a group of 30 loses
recall to boilerplate: docs/quality.md, "Large copy groups"). `documents` replaces the size's count.
"""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bench.corpus import sources
from bench.corpus.edits import EDIT_KINDS, EDITS, SHORT_TEXT_EDITS, sentences

SIZES = {"small": 300, "medium": 20_000, "large": 200_000}
SHORT_CHARS = 140
VARIANT_SHARE = 0.35  # documents that get near-duplicates
ENCODINGS = (("utf-8", 0.8), ("gb18030", 0.15), ("utf-16", 0.05))
FOLDERS = tuple(
    f"{top}/{sub}" for top in ("稿件", "新闻", "archive", "misc") for sub in ("2019", "2020", "2021", "草稿")
)
CROWD_MIN_CHARS = 2000  # a crowd original: a manual page of many lines, as a much-copied article
CROWD_REWRAPPED = 3  # every third repost of a crowd original is re-wrapped too
REAL_SHARE_LARGE = 0.15  # in the large size, most documents are collages so that real texts are not all used up


@dataclass(frozen=True)
class Summary:
    documents: int
    groups: int
    variants: int

    def __str__(self) -> str:
        return f"{self.documents} documents in {self.groups} groups ({self.variants} variants)"


@lru_cache(maxsize=1)
def distinct_texts() -> tuple[str, ...]:
    """The source texts less those that repeat each other, in a fixed order (made once per process)."""
    return tuple(sources.without_repeats(list(sources.chinese_texts())))


def collage(rng: random.Random, lines: list[str]) -> str:
    """A new document of 8-30 real sentences drawn from many texts, in paragraphs of a few sentences."""
    paras: list[list[str]] = [[]]
    for _ in range(rng.randint(8, 30)):
        paras[-1].append(rng.choice(lines))
        if rng.random() < 0.25:
            paras.append([])
    return "\n\n".join("".join(p) for p in paras if p)


def fresh_path(root: Path, rng: random.Random, folders: tuple[str, ...], taken: dict, suffix: str = ".txt") -> str:
    """A random relative path in one of `folders` that `taken` does not hold yet; its folder is made."""
    while True:
        rel = f"{rng.choice(folders)}/{rng.getrandbits(32):08x}{suffix}"
        if rel not in taken:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            return rel


class Writer:
    """Puts each text at a fresh random path in one encoding and records its truth entry."""

    def __init__(self, root: Path, rng: random.Random) -> None:
        self.root = root
        self.rng = rng
        self.truth: dict[str, dict] = {}

    def encoding(self) -> str:
        return self.rng.choices([name for name, _ in ENCODINGS], [weight for _, weight in ENCODINGS])[0]

    def write(self, text: str, group: str, role: str, edits: list[str], encoding: str, klass: str = "") -> None:
        text = text if text.strip() else "（此稿为空）"
        rel = fresh_path(self.root, self.rng, FOLDERS, self.truth)
        # UTF-16 with its byte-order mark, as Windows editors save it; GB18030 encodes every character
        (self.root / rel).write_bytes(text.encode(encoding, errors="replace"))
        self.truth[rel] = {
            "group": group,
            "role": role,
            "edits": edits,
            "encoding": encoding,
            "short": len(text) < SHORT_CHARS,
        } | ({"class": klass} if klass else {})


def variants_of(text: str, rng: random.Random, donors: tuple[str, ...]) -> list[tuple[str, list[str], str | None]]:
    """1-3 near-duplicates of `text`: (text, edit kinds, encoding or None for a fresh one). An exact copy
    keeps the original's encoding; a re-encoded copy has the same text in a fresh encoding."""
    short = len(text) < SHORT_CHARS
    out: list[tuple[str, list[str], str | None]] = []
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3))):
        draw = rng.random()
        if draw < 0.08:
            out.append((text, ["exact"], "same"))
        elif draw < 0.14:
            out.append((text, ["reencode"], None))
        else:
            kinds = rng.sample(SHORT_TEXT_EDITS, 1) if short else rng.sample(list(EDITS), rng.choice((1, 1, 2, 3)))
            edited = text
            for kind in kinds:
                edited = EDITS[kind](edited, rng, donors)
            out.append((edited, kinds, None))
    return out


def crowd_copy(text: str, number: int, rng: random.Random, donors: tuple[str, ...]) -> tuple[str, list[str]]:
    """Repost `number` of a much-copied text and its edit kinds: 1-3% of its characters mistyped, and every
    CROWD_REWRAPPED-th one re-wrapped at its own width first (most reposts keep the original's lines)."""
    kinds = ["rewrap", "typo"] if number % CROWD_REWRAPPED == 0 else ["typo"]
    for kind in kinds:
        text = EDITS[kind](text, rng, donors)
    return text, kinds


def build(
    out: Path, size: str = "small", seed: int = 7, crowd: tuple[int, int] | None = None, documents: int | None = None
) -> Summary:
    """Write the collection (size, seed) to `out` (replacing what is there) and return its counts;
    `crowd=(N, K)` plants N copy groups of K files, `documents` replaces the size's document count."""
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}, not {size!r}")
    rng = random.Random(seed)
    texts = list(distinct_texts())
    rng.shuffle(texts)
    donors = tuple(texts)
    crowd_texts: list[str] = []
    groups, copies = crowd or (0, 0)
    if crowd:
        if groups < 1 or copies < 2:
            raise ValueError(f"crowd needs at least one group of two files, not {groups}x{copies}")
        crowd_texts = [t for t in texts if len(t) >= CROWD_MIN_CHARS][:groups]
        if len(crowd_texts) < groups:
            raise ValueError(f"only {len(crowd_texts)} source texts have {CROWD_MIN_CHARS} characters, not {groups}")
        texts = [t for t in texts if t not in crowd_texts]
    # collage sentences: short, and each under half of its text, so that no collage holds most of a real
    # text (a saying of one long "sentence" would make the collage its near-duplicate)
    lines = [s for t in texts[:3000] for s in sentences(t) if 8 <= len(s) <= 80 and 2 * len(s) < len(t)]
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    writer = Writer(out, rng)
    target = documents or SIZES[size]
    standard = "standard" if crowd else ""
    for k, original in enumerate(crowd_texts, 1):
        writer.write(original, f"c{k}", "original", [], writer.encoding(), "crowd")
        for number in range(copies - 1):
            copy, kinds = crowd_copy(original, number, rng, donors)
            writer.write(copy, f"c{k}", "variant", kinds, writer.encoding(), "crowd")
    real = iter(texts)
    number = 0
    while len(writer.truth) < target:
        number += 1
        group = f"g{number}"
        text: str | None = None
        if size != "large" or rng.random() < REAL_SHARE_LARGE:
            text = next(real, None)
        if text is None:
            text = collage(rng, lines)
        original_encoding = writer.encoding()
        writer.write(text, group, "original", [], original_encoding, standard)
        if rng.random() < VARIANT_SHARE:
            for edited, kinds, encoding in variants_of(text, rng, donors):
                enc = original_encoding if encoding == "same" else writer.encoding()
                writer.write(edited, group, "variant", kinds, enc, standard)
    (out / "truth.json").write_text(
        json.dumps({"files": writer.truth, "edit_kinds": list(EDIT_KINDS)}, ensure_ascii=False, indent=0),
        encoding="utf-8",
    )
    roles = [v["role"] for v in writer.truth.values()]
    return Summary(len(roles), number + len(crowd_texts), roles.count("variant"))
