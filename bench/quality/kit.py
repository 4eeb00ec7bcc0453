"""Write the evaluation kit's collection: near-duplicates as editors meet them, in six classes, each file's
class in truth.json so that precision and recall can be reported per class.

    script    simplified <-> traditional: OpenCC conversions (s2t, s2twp, s2hk, t2s), the Debian Reference's
              real Taiwanese edition of a section, in UTF-8, Big5 and GB18030
    markup    the same text as a web page (.html/.htm, or HTML in a .txt) with a site's style, scripts,
              navigation and entities, or as Markdown (.md, or rendered into a page)
    long      unrelated English documents of 60,000-110,000 characters (must not group), a few with a
              lightly edited copy (must group)
    mixed     unrelated Chinese texts quoting the same English sentence (must not group); copies with
              English passages put in (must group)
    short     poems and sayings with look-alike characters (homoglyphs), typos or synonyms; different
              poems of one form and poet (must not group)
    combined  converted + saved as a page or Markdown + a repost header (+ a typo), in Big5 or GB18030
    template  form texts filled from templates (templates.py): SMS notices, letters, invoices, invitations,
              official notices, product pages in Chinese and English; fills of one template must not group,
              a fill's copy (a typo, re-wrapped, re-encoded, punctuation width, saved again) must

Hard negatives in every class are originals with no copy that look like others: pages of one site
template, manual pages of one family, English documents on one subject, quotes of one sentence.

    truth.json = {"files": {path: {"group", "role", "edits", "encoding", "short", "class"}},
                  "edit_kinds": [...], "classes": [...]}
"""

from __future__ import annotations

import difflib
import json
import random
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from bench.corpus.collection import fresh_path
from bench.corpus.edits import EDITS as TEXT_EDITS
from bench.corpus.sources import without_repeats
from bench.quality import templates, texts, transforms as tf

CLASSES = ("script", "markup", "long", "mixed", "short", "combined", "template")
SIZES = {  # groups with copies, originals without (hard negatives), per class
    "small": {"groups": 5, "negatives": 6, "long_documents": 8, "template_fills": 3},
    "full": {"groups": 40, "negatives": 30, "long_documents": 54, "template_fills": 8},
}
SHORT_CHARS = 140
FOLDERS = ("收件箱", "下載", "archive/2023", "archive/2024", "稿件/轉載", "web", "notes")
SAME_SECTION = 0.85  # least similarity of a Debian Reference section and its Taiwanese edition (simplified)
AnyKit = TypeVar("AnyKit", bound="Kit")  # a kit, or a collection's own kind of kit (its builders take that kind)


@dataclass
class Kit:
    """Writes files and their truth entries; draws source texts without reuse."""

    root: Path
    rng: random.Random
    size: dict
    classes: tuple[str, ...] = CLASSES

    def __post_init__(self) -> None:
        self.truth: dict[str, dict] = {}
        self.groups = 0
        if set(self.classes) <= {"template"}:  # made from its own lists: no source text needed
            return
        rng = self.rng
        sections = [s for s in texts.debian_reference() if 150 <= texts.han_count(s[1]) and len(s[1]) <= 6000]
        rng.shuffle(sections)
        self.sections = sections
        self.pages = without_repeats(sorted(p for p in texts.traditional_manual_pages() if len(p) <= 8000))
        rng.shuffle(self.pages)
        self.poems = without_repeats(list(texts.classical_poems()))
        rng.shuffle(self.poems)
        self.sayings = without_repeats(list(texts.english_sayings()), common=50)
        rng.shuffle(self.sayings)
        self.long_docs = list(texts.long_english_documents())
        rng.shuffle(self.long_docs)

    # ---- drawing texts ----

    def section(self) -> str:
        """A Chinese text: a Debian Reference section, then (when those run out) a traditional manual
        page converted to simplified."""
        if self.sections:
            return self.sections.pop()[1]
        return tf.convert(self.pages.pop(), "t2s")

    def section_pair(self) -> tuple[str, str]:
        """A Debian Reference section in simplified Chinese and its real Taiwanese edition, when the two
        say the same (similar once converted to simplified; longer sections are not compared: difflib is
        quadratic)."""
        while True:
            _, cn, tw = self.sections.pop()
            if (
                len(cn) <= 2500
                and difflib.SequenceMatcher(None, cn, tf.convert(tw, "tw2sp"), autojunk=False).ratio() >= SAME_SECTION
            ):
                return cn, tw

    def saying(self, max_chars: int = 600) -> str:
        for k in range(len(self.sayings) - 1, -1, -1):
            if len(self.sayings[k]) <= max_chars:
                return self.sayings.pop(k)
        raise ValueError("no English saying left")

    # ---- writing ----

    def new_group(self) -> str:
        self.groups += 1
        return f"k{self.groups}"

    def write(
        self,
        text: str,
        klass: str,
        group: str,
        role: str,
        edits: list[str],
        encoding: str = "utf-8",
        suffix: str = ".txt",
    ) -> None:
        text = text.replace("{charset}", encoding)  # a page's <meta charset> says how it is saved
        rel = fresh_path(self.root, self.rng, FOLDERS, self.truth, suffix)
        if encoding == "big5":
            text = tf.as_big5(text)
        (self.root / rel).write_bytes(text.encode("cp950" if encoding == "big5" else encoding))
        self.truth[rel] = {
            "group": group,
            "role": role,
            "edits": edits,
            "encoding": encoding,
            "short": len(text) < SHORT_CHARS,
            "class": klass,
        }

    def family(
        self, klass: str, original: tuple[str, str, str], variants: list[tuple[str, list[str], str, str]]
    ) -> None:
        """An original (text, encoding, suffix) and its copies (text, edit kinds, encoding, suffix)."""
        group = self.new_group()
        self.write(original[0], klass, group, "original", [], original[1], original[2])
        for text, edits, encoding, suffix in variants:
            self.write(text, klass, group, "variant", edits, encoding, suffix)

    def alone(self, klass: str, text: str, edits: list[str], encoding: str = "utf-8", suffix: str = ".txt") -> None:
        """A hard negative: an original with no copy (`edits` say how it was made to look like others)."""
        self.write(text, klass, self.new_group(), "original", edits, encoding, suffix)

    def big5_or(self, text: str, fallback: str = "utf-8") -> str:
        return "big5" if tf.big5_safe(text) else fallback


# ---- the six classes ----


def script_class(kit: Kit) -> None:
    rng = kit.rng
    for k in range(kit.size["groups"]):
        kind = k % 3
        if kind == 0:  # a section and its real Taiwanese edition; an OpenCC conversion in Big5
            cn, tw = kit.section_pair()
            s2twp = tf.convert(cn, "s2twp")
            kit.family(
                "script",
                (cn, rng.choice(("utf-8", "gb18030")), ".txt"),
                [
                    (tw, ["real_traditional"], kit.big5_or(tw), ".txt"),
                    (s2twp, ["opencc_s2twp", "big5"], kit.big5_or(s2twp), ".txt"),
                ],
            )
        elif kind == 1:  # a traditional manual page, converted to simplified, and the same in Big5
            page = kit.pages.pop()
            kit.family(
                "script",
                (page, "utf-8", ".txt"),
                [
                    (tf.convert(page, "t2s"), ["opencc_t2s"], "gb18030", ".txt"),
                    (page, ["big5"], kit.big5_or(page), ".txt"),
                ],
            )
        else:  # a poem in Hong Kong characters, and in traditional with a typo
            poem = kit.poems.pop()
            kit.family(
                "script",
                (poem, "utf-8", ".txt"),
                [
                    (tf.convert(poem, "s2hk"), ["opencc_s2hk"], "utf-8", ".txt"),
                    (tf.typos(tf.convert(poem, "s2t"), rng, 1), ["opencc_s2t", "typo"], kit.big5_or(poem), ".txt"),
                ],
            )
    for k in range(kit.size["negatives"]):  # traditional pages of one kind, and converted poems
        if k % 2:
            kit.alone("script", kit.pages.pop(), ["negative"], "utf-8")
        else:
            poem = tf.convert(kit.poems.pop(), "s2t")
            kit.alone("script", poem, ["negative", "opencc_s2t"], kit.big5_or(poem))


def markup_class(kit: Kit) -> None:
    rng = kit.rng
    site = rng.choice(tf.SITE_NAMES)  # one site's template for every page of this class: a hard negative
    for k in range(kit.size["groups"]):
        text = kit.section() if k % 4 else kit.section() + "\n\n" + kit.saying(300)  # some pages are mixed
        enc = rng.choice(("utf-8", "utf-8", "gb18030"))
        variants = [
            (tf.html_page(text, rng, site=site), ["html"], enc, rng.choice((".html", ".htm"))),
            (tf.markdown(text, rng), ["markdown"], "utf-8", ".md"),
        ]
        if k % 2:
            variants.append((tf.markdown_page(text, rng, site=site), ["markdown", "html"], "utf-8", ".html"))
        else:
            variants.append((tf.html_page(text, rng, site=site), ["html", "html_in_txt"], "utf-8", ".txt"))
        kit.family("markup", (text, "utf-8", ".txt"), variants)
    for k in range(kit.size["negatives"]):  # different articles in the same site's page  # noqa: B007
        kit.alone("markup", tf.html_page(kit.section(), rng, site=site), ["negative", "html"], "utf-8", ".html")


def long_class(kit: Kit) -> None:
    rng = kit.rng
    docs = kit.long_docs[: kit.size["long_documents"]]
    with_copy = max(2, len(docs) // 4)
    for k, (_, text) in enumerate(docs):
        if k < with_copy:
            edited = "\n\n".join(p for p in text.split("\n\n") if rng.random() > 0.03)  # ~3% of paragraphs out
            kit.family(
                "long",
                (text, "utf-8", ".txt"),
                [
                    (
                        f"Mirrored from docs.python.org on {rng.randint(2019, 2025)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}\n\n{edited}",
                        ["delete_paragraphs", "repost_header"],
                        "utf-8",
                        ".txt",
                    )
                ],
            )
        else:
            kit.alone("long", text, ["negative"], "utf-8", rng.choice((".txt", ".md")))


def mixed_class(kit: Kit) -> None:
    rng = kit.rng
    for _ in range(kit.size["groups"]):
        text = kit.section()
        passages = [kit.saying(400) for _ in range(rng.randint(1, 2))]
        kit.family(
            "mixed",
            (text, "utf-8", ".txt"),
            [(tf.insert_english(text, passages, rng), ["english_inserted"], rng.choice(("utf-8", "gb18030")), ".txt")],
        )
    quote = ""
    for k in range(kit.size["negatives"]):
        if k % 3 == 0:
            quote = kit.saying(160)  # three unrelated texts quote this sentence
        text = kit.section()
        kit.alone("mixed", tf.quote_english(text, quote, rng), ["negative", "quotes_shared_english"])


def short_class(kit: Kit) -> None:
    rng = kit.rng
    # the classic pair of the SimHash literature, and its English counterpart
    kit.family(
        "short",
        ("你妈妈喊你回家吃饭哦，回家罗回家罗", "utf-8", ".txt"),
        [("你妈妈叫你回家吃饭啦，回家罗回家罗", ["synonym"], "gb18030", ".txt")],
    )
    kit.family(
        "short",
        ("How are you? I am fine. Thanks.", "utf-8", ".txt"),
        [("How r you?I am fine. Thanks.", ["typo"], "utf-8", ".txt")],
    )
    edits: dict[str, Callable[[str, random.Random], str]] = {
        "homoglyph": tf.homoglyphs,
        "typo": tf.typos,
        "synonym": tf.synonyms,
    }
    for k in range(kit.size["groups"] * 2):
        text = kit.poems.pop() if k % 2 else kit.saying(200)
        kinds = [list(edits)[k % 3]] + ([list(edits)[(k + 1) % 3]] if k % 4 == 3 else [])
        variant = text
        for kind in kinds:
            variant = edits[kind](variant, rng)
        kit.family(
            "short",
            (text, rng.choice(("utf-8", "gb18030")), ".txt"),
            [(variant, kinds, "utf-8" if "homoglyph" in kinds else rng.choice(("utf-8", "gb18030")), ".txt")],
        )
    for k in range(kit.size["negatives"]):  # other poems (same forms, often the same poet) and sayings
        kit.alone("short", kit.poems.pop() if k % 2 else kit.saying(200), ["negative"])


def combined_class(kit: Kit) -> None:
    rng = kit.rng
    for k in range(kit.size["groups"]):
        if k % 2 == 0:  # a simplified section: Taiwanese characters, a page, a repost header, in Big5
            text = kit.section()
            page = tf.convert(tf.html_page(tf.repost_header(text, rng), rng), "s2twp")  # the site is Taiwanese too
            kit.family(
                "combined",
                (text, "utf-8", ".txt"),
                [(page, ["opencc_s2twp", "html", "repost_header", "big5"], kit.big5_or(page), ".html")],
            )
        else:  # a traditional manual page: simplified, Markdown, a typo, a repost header, in GB18030
            page = kit.pages.pop()
            md = tf.markdown(tf.repost_header(TEXT_EDITS["typo"](tf.convert(page, "t2s"), rng, ()), rng), rng)
            kit.family(
                "combined",
                (page, kit.big5_or(page), ".txt"),
                [(md, ["opencc_t2s", "markdown", "typo", "repost_header"], "gb18030", ".md")],
            )
    for _ in range(kit.size["negatives"] // 2):  # converted pages of other sections
        page = tf.convert(tf.html_page(kit.section(), rng), "s2twp")
        kit.alone("combined", page, ["negative", "html", "opencc_s2twp"], kit.big5_or(page), ".html")


# the copies a fill gets, in turn (a third of the fills get none): half of them one mistyped character
TEMPLATE_COPIES = ("typo", "rewrap", "typo", "reencode", "typo", "punct_width", "typo", "resave")


def template_class(kit: Kit) -> None:
    rng = kit.rng
    copies = 0
    for k, (_, language, text) in enumerate(templates.fills(rng, kit.size["template_fills"])):
        if k % 3 == 2:
            kit.alone("template", text, ["negative"], rng.choice(("utf-8", "gb18030")) if language == "zh" else "utf-8")
            continue
        kind = TEMPLATE_COPIES[copies % len(TEMPLATE_COPIES)]
        copies += 1
        copy, encoding = templates.copy_of(text, language, rng, kind)
        kit.family("template", (text, "utf-8", ".txt"), [(copy, [kind], encoding, ".txt")])


BUILDERS = {
    "script": script_class,
    "markup": markup_class,
    "long": long_class,
    "mixed": mixed_class,
    "short": short_class,
    "combined": combined_class,
    "template": template_class,
}


def write_collection(kit: AnyKit, builders: Mapping[str, Callable[[AnyKit], None]]) -> dict[str, int]:
    """Write a collection to `kit.root`, replacing it: each class's builder in turn (the classes in the order of
    `builders`), then truth.json; returns the file count per class."""
    out = kit.root
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for build_class in builders.values():
        build_class(kit)
    classes = list(builders)
    kinds = sorted({e for v in kit.truth.values() for e in v["edits"]})
    (out / "truth.json").write_text(
        json.dumps({"files": kit.truth, "edit_kinds": kinds, "classes": classes}, ensure_ascii=False, indent=0),
        encoding="utf-8",
    )
    return {klass: sum(v["class"] == klass for v in kit.truth.values()) for klass in classes}


def build(out: Path, size: str = "small", seed: int = 11, classes: tuple[str, ...] = CLASSES) -> dict[str, int]:
    """Write the kit's collection (size, seed) to `out`, replacing it; returns the file count per class.
    `classes`: only these (("template",) needs no installed source text)."""
    if size not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)}, not {size!r}")
    if unknown := set(classes) - set(CLASSES):
        raise ValueError(f"classes must be among {', '.join(CLASSES)}, not {', '.join(sorted(unknown))}")
    return write_collection(
        Kit(Path(out), random.Random(seed), SIZES[size], tuple(classes)),
        {klass: BUILDERS[klass] for klass in CLASSES if klass in classes},
    )
