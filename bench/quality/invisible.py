"""Write a collection of copies that carry invisible characters, in three classes, each file's class in
truth.json (`python -m bench.quality invisible OUT`, then `python -m bench.quality score OUT`):

    english   English sayings (`fortunes`, 60-600 characters) and passages of the Python documentation's
              sources (1,000-4,000 characters)
    mixed     Debian Reference sections with one or two English sayings, or a passage of the Python
              documentation, put in
    chinese   Debian Reference sections (simplified, or traditional manual pages converted) and Tang and
              Song poems

Each original has two copies: one with one kind of invisible character, one with two or three kinds, a
quarter of these (of texts of PAGE_CHARS or more) saved as a web page that writes them as character references (&shy;, &#8203;, &zwj;).
The kinds (transforms.INVISIBLE): soft hyphens at hyphenation points ('imp\\u00adoses'), zero-width spaces,
joiners, non-joiners and word joiners inside words ('adminis\\u200btra\\u200btor', 'd\\u200doesn't'), a
zero-width watermark, bidirectional marks and isolates, byte-order marks inside the text. Hard negatives
(originals with no copy) carry them too: other passages of the same documents, other sayings and poems,
Chinese texts quoting one English sentence (three per sentence).

    truth.json = {"files": {path: {"group", "role", "edits", "encoding", "short", "class"}},
                  "edit_kinds": [...], "classes": [...]}
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from bench.corpus.edits import paragraphs
from bench.corpus.sources import without_repeats
from bench.quality import texts, transforms as tf
from bench.quality.kit import Kit, write_collection

SIZES = {  # groups with copies, originals without (hard negatives), per class
    "small": {"groups": 6, "negatives": 4},
    "full": {"groups": 50, "negatives": 30},
}
KINDS = tuple(tf.INVISIBLE)
PASSAGE_CHARS = (1000, 4000)
PASSAGES_PER_DOCUMENT = 4
PAGE_CHARS = 600  # shorter texts are not saved as pages: a site's menus and footer would outweigh them


def english_passages(rng: random.Random) -> list[str]:
    """Passages of 1,000-4,000 characters of the Python documentation's sources, cut at paragraph breaks,
    up to PASSAGES_PER_DOCUMENT from each document (passages of one document on one subject: hard
    negatives for each other), less those that repeat an earlier one, shuffled."""
    out = []
    for _, text in texts.long_english_documents():
        taken: list[str] = []
        passage: list[str] = []
        for para in paragraphs(text):
            passage.append(para)
            size = sum(map(len, passage))
            if size > PASSAGE_CHARS[1]:
                passage = []
            elif size >= PASSAGE_CHARS[0]:
                taken.append("\n\n".join(passage))
                passage = []
        out += taken[:: max(1, len(taken) // PASSAGES_PER_DOCUMENT)][:PASSAGES_PER_DOCUMENT]
    out = without_repeats(out, common=50)  # the "What's New" documents open with one preamble
    rng.shuffle(out)
    return out


def invisible_copy(text: str, kinds: list[str], rng: random.Random) -> str:
    for kind in kinds:
        text = tf.INVISIBLE[kind](text, rng)
    return text


def with_invisible(
    kit: Kit, klass: str, originals: list[str], negatives: list[str], encodings: tuple[str, ...]
) -> None:
    """Each original with its two copies; each negative alone, carrying one or two kinds."""
    rng = kit.rng
    for k, text in enumerate(originals):
        one = [KINDS[k % len(KINDS)]]
        several = rng.sample(KINDS, rng.randint(2, 3))
        variants = [(invisible_copy(text, one, rng), one, rng.choice(encodings), ".txt")]
        copy = invisible_copy(text, several, rng)
        if k % 4 == 3 and len(text) >= PAGE_CHARS:
            variants.append((tf.with_entities(tf.html_page(copy, rng)), [*several, "html"], "utf-8", ".html"))
        else:
            variants.append((copy, several, rng.choice(encodings), ".txt"))
        kit.family(klass, (text, rng.choice(encodings), ".txt"), variants)
    for text in negatives:
        kinds = rng.sample(KINDS, rng.randint(1, 2))
        kit.alone(klass, invisible_copy(text, kinds, rng), ["negative", *kinds], rng.choice(encodings))


@dataclass
class InvisibleKit(Kit):
    """The kit's writer and texts, and passages of English documents."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.passages = english_passages(self.rng)


def english_class(kit: InvisibleKit) -> None:
    n, m = kit.size["groups"], kit.size["negatives"]
    originals = [kit.saying() if k % 2 else kit.passages.pop() for k in range(n)]
    negatives = [kit.saying() if k % 2 else kit.passages.pop() for k in range(m)]
    with_invisible(kit, "english", originals, negatives, ("utf-8",))


def mixed_class(kit: InvisibleKit) -> None:
    rng = kit.rng
    originals = [
        tf.insert_english(
            kit.section(), [kit.passages.pop()] if k % 2 else [kit.saying(400) for _ in range(rng.randint(1, 2))], rng
        )
        for k in range(kit.size["groups"])
    ]
    negatives = []
    quote = ""
    for k in range(kit.size["negatives"]):
        if k % 3 == 0:
            quote = kit.saying(160)  # three unrelated texts quote this sentence
        negatives.append(tf.quote_english(kit.section(), quote, rng))
    with_invisible(kit, "mixed", originals, negatives, ("utf-8", "utf-8", "gb18030"))


def chinese_class(kit: InvisibleKit) -> None:
    originals = [kit.poems.pop() if k % 3 == 2 else kit.section() for k in range(kit.size["groups"])]
    negatives = [kit.poems.pop() if k % 3 == 2 else kit.section() for k in range(kit.size["negatives"])]
    with_invisible(kit, "chinese", originals, negatives, ("utf-8", "utf-8", "gb18030"))


BUILDERS = {"english": english_class, "mixed": mixed_class, "chinese": chinese_class}
CLASSES = tuple(BUILDERS)


def build(out: Path, size: str = "small", seed: int = 11) -> dict[str, int]:
    """Write the collection (size, seed) to `out`, replacing it; returns the file count per class."""
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}, not {size!r}")
    return write_collection(InvisibleKit(Path(out), random.Random(seed), SIZES[size]), BUILDERS)
