"""The edits that turn an original into a near-duplicate, as editors' folders have them: a repost with a
header or a footer, a typo or two, a sentence added or removed, paragraphs swapped, lines re-wrapped,
full-width punctuation made half-width, an ending cut off. Each edit is `edit(text, rng, donors) -> text`
and must be deterministic for a given `random.Random` state.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

Edit = Callable[[str, random.Random, Sequence[str]], str]

SENTENCE_END = re.compile(r"(?<=[。！？；!?;])")
PARAGRAPH_BREAK = re.compile(r"\n[ \t\u3000]*\n")
# frequent characters a mistyped character is replaced with (a pinyin input method picks a wrong homophone
# just as often as a rare one; frequent ones keep the text readable)
FREQUENT_HAN = (
    "的是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会自着去之过家学"
    "对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头"
    "面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向"
)
SITES = (
    "人民网",
    "新华网",
    "澎湃新闻",
    "南方周末",
    "中国青年报",
    "光明网",
    "界面新闻",
    "财新网",
    "豆瓣小组",
    "百度贴吧",
)
TO_HALF = str.maketrans("，。！？：；（）【】“”‘’", ",.!?:;()[]\"\"''")
TO_FULL = str.maketrans(",!?:;()", "，！？：；（）")


def sentences(text: str) -> list[str]:
    return [s for s in SENTENCE_END.split(text) if s.strip()]


def paragraphs(text: str) -> list[str]:
    return [p for p in PARAGRAPH_BREAK.split(text) if p.strip()]


def typo(text: str, rng: random.Random, donors: Sequence[str]) -> str:
    """1-3% of the Chinese characters replaced by frequent ones (at least one)."""
    han = [i for i, ch in enumerate(text) if "\u4e00" <= ch <= "\u9fff"]
    if not han:
        return text
    chars = list(text)
    for i in rng.sample(han, max(1, round(len(han) * rng.uniform(0.01, 0.03)))):
        chars[i] = rng.choice(FREQUENT_HAN)
    return "".join(chars)


def insert_sentence(text: str, rng: random.Random, donors: Sequence[str]) -> str:
    """A sentence of another text put in at a sentence boundary."""
    parts = sentences(text)
    borrowed = sentences(rng.choice(donors)) if donors else []
    line = rng.choice(borrowed) if borrowed else "编者按：以上内容仅代表作者个人观点。"
    parts.insert(rng.randint(0, len(parts)), line)
    return "".join(parts)


def delete_sentence(text: str, rng: random.Random, donors: Sequence[str]) -> str:
    """One sentence removed (texts of fewer than three sentences are left as they are)."""
    parts = sentences(text)
    if len(parts) < 3:
        return text
    parts.pop(rng.randrange(len(parts)))
    return "".join(parts)


def reorder_paragraphs(text: str, rng: random.Random, donors: Sequence[str]) -> str:
    """Two paragraphs swapped (texts of fewer than three paragraphs are left as they are)."""
    parts = paragraphs(text)
    if len(parts) < 3:
        return text
    a, b = rng.sample(range(len(parts)), 2)
    parts[a], parts[b] = parts[b], parts[a]
    return "\n\n".join(parts)


def repost_header(text: str, rng: random.Random, donors: Sequence[str]) -> str:
    """A reposting site's header line with a link above the text."""
    site = rng.choice(SITES)
    return (
        f"转自{site} 原文地址：https://{rng.choice(['www', 'm', 'news'])}.example.cn/{rng.randrange(10**7)}\n\n{text}"
    )


def repost_footer(text: str, rng: random.Random, donors: Sequence[str]) -> str:
    """A reposting site's copyright notice below the text."""
    site = rng.choice(SITES)
    return f"{text}\n\n——来源：{site}。文章版权归原作者所有，转载请注明出处。"


def rewrap(text: str, rng: random.Random, donors: Sequence[str]) -> str:
    """Lines broken again at a fixed width of 20-50 characters, the old line breaks joined first half of
    the time."""
    if rng.random() < 0.5:
        text = re.sub(r"[ \t]*\n[ \t]*(?!\n)", "", text)
    width = rng.randint(20, 50)
    lines = []
    for line in text.split("\n"):
        lines += [line[k : k + width] for k in range(0, len(line), width)] or [""]
    return "\n".join(lines) + ("\n" if rng.random() < 0.5 else "")


def punct_width(text: str, rng: random.Random, donors: Sequence[str]) -> str:
    """Punctuation made half-width, or (half of the time) full-width."""
    return text.translate(TO_HALF if rng.random() < 0.5 else TO_FULL)


def truncate(text: str, rng: random.Random, donors: Sequence[str]) -> str:
    """The last 10-20% cut off."""
    return text[: round(len(text) * rng.uniform(0.8, 0.9))]


EDITS: dict[str, Edit] = {
    e.__name__: e
    for e in (
        typo,
        insert_sentence,
        delete_sentence,
        reorder_paragraphs,
        repost_header,
        repost_footer,
        rewrap,
        punct_width,
        truncate,
    )
}
SHORT_TEXT_EDITS = ("typo", "punct_width", "rewrap", "repost_footer")  # the others leave a short text no text
# kinds recorded in truth.json: the two byte-level copies, then the text edits
EDIT_KINDS = ("exact", "reencode", *EDITS)
