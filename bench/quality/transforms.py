"""How a text is changed on its way into an editor's folder, for the evaluation kit: converted between
simplified and traditional script (OpenCC, phrase-level), saved as a web page or as Markdown, given
look-alike characters, typos or synonyms, English passages put in. Each function is deterministic for a
given `random.Random` state.
"""

from __future__ import annotations

import html
import random
import re
import unicodedata
from functools import cache, lru_cache

from markdown_it import MarkdownIt

from bench.corpus.edits import paragraphs, sentences

# ---- script ----


@cache
def _converter(config: str):
    import opencc

    return opencc.OpenCC(config)


def convert(text: str, config: str) -> str:
    """`text` converted by OpenCC with `config`: s2t, s2tw, s2twp (Taiwan phrases), s2hk, t2s, tw2sp."""
    return _converter(config).convert(text)


def as_big5(text: str) -> str:
    """`text` as saving it in Big5 leaves it: no-break spaces become spaces (Big5 has none)."""
    return text.replace("\xa0", " ")


def big5_safe(text: str) -> bool:
    """Whether `text` (as `as_big5` leaves it) survives a round trip through Big5 (cp950): only such texts
    are saved in Big5."""
    try:
        return as_big5(text).encode("cp950").decode("cp950") == as_big5(text)
    except UnicodeEncodeError:
        return False


# ---- markup ----

SITE_NAMES = ("技術文摘", "开源周刊", "Linux 中文社区", "程序员之家", "自由软件论坛", "Tech Notes")
NAV = ("首页", "新闻", "教程", "下载", "论坛", "关于我们", "联系我们", "登录", "注册")
PAGE_STYLE = """body{font-family:"PingFang SC","Microsoft YaHei",sans-serif;margin:0;color:#222}
.nav a{margin:0 8px;color:#06c;text-decoration:none}.content{max-width:760px;margin:auto;line-height:1.8}
.footer{color:#999;font-size:12px;border-top:1px solid #eee;margin-top:40px}"""
PAGE_SCRIPT = """window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}
gtag('js',new Date());gtag('config','UA-%d-1');
document.addEventListener('DOMContentLoaded',function(){var s=document.createElement('script');
s.src='https://cdn.example.com/share.js?v=%d';document.body.appendChild(s);});"""


def _escape(text: str, rng: random.Random) -> str:
    """HTML-escape, with some characters written as numeric or named entities as page generators do."""
    out = html.escape(text, quote=False)
    if rng.random() < 0.5:
        out = out.replace("“", "&ldquo;").replace("”", "&rdquo;").replace("—", "&mdash;")
    if rng.random() < 0.3:
        out = re.sub(r"[，。]", lambda m: f"&#{ord(m.group())};", out)
    return out


def html_page(text: str, rng: random.Random, title: str | None = None, site: str | None = None) -> str:
    """`text` saved as a web page: doctype, head with meta charset, a style sheet and scripts, a navigation
    bar, the paragraphs as <p> (lines within a paragraph joined by <br>), a related-links list and a
    footer. `site` fixes the template (pages of one site share every byte outside the article)."""
    site = site or rng.choice(SITE_NAMES)
    site_rng = random.Random(site)  # the template depends on the site only
    title = title or next((line.strip() for line in text.splitlines() if line.strip()), "文章")[:40]
    body = "\n".join(
        "<p>" + "<br>\n".join(_escape(line, rng) for line in para.splitlines()) + "</p>" for para in paragraphs(text)
    )
    nav = "".join(f'<a href="/{k}/">{name}</a>' for k, name in enumerate(NAV))
    related = "".join(
        f'<li><a href="/a/{site_rng.randrange(10**6)}.html">{name}精选文章第{k}期</a></li>'
        for k, name in enumerate(NAV[:5])
    )
    return (
        f'<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n<meta charset="{{charset}}">\n'
        f"<title>{html.escape(title)} - {site}</title>\n<style>{PAGE_STYLE}</style>\n"
        f"<script>{PAGE_SCRIPT % (site_rng.randrange(10**8), site_rng.randrange(100))}</script>\n</head>\n"
        f'<body>\n<div class="nav">{nav}</div>\n<div class="content">\n<h1>{html.escape(title)}</h1>\n'
        f'<div class="meta">来源：{site}&nbsp;|&nbsp;阅读 {rng.randrange(100, 99999)}</div>\n{body}\n</div>\n'
        f'<ul class="related">{related}</ul>\n<div class="footer">&copy; 2024 {site} 版权所有 '
        f"京ICP备{site_rng.randrange(10**7):07d}号</div>\n</body>\n</html>\n"
    )


def markdown(text: str, rng: random.Random) -> str:
    """`text` as a Markdown document: the first line a heading, some phrases in bold, a link, and lines
    that look like list items marked as a list."""
    lines = text.splitlines()
    out = []
    for k, line in enumerate(lines):
        stripped = line.strip()
        if k == 0 and stripped:
            out.append(f"# {stripped}")
        elif re.match(r"^(\d+[.、]|[*•-])\s*", stripped):
            out.append("- " + re.sub(r"^(\d+[.、]|[*•-])\s*", "", stripped))
        elif stripped and rng.random() < 0.15 and len(stripped) > 12:
            cut = rng.randrange(2, min(10, len(stripped) - 2))
            out.append(f"**{stripped[:cut]}**{stripped[cut:]}")
        else:
            out.append(line)
    out.append(f"\n[原文链接](https://www.example.org/p/{rng.randrange(10**6)})")
    return "\n".join(out) + "\n"


def markdown_page(text: str, rng: random.Random, site: str | None = None) -> str:
    """`text` written as Markdown, then rendered to HTML by markdown-it-py and put in a site's page."""
    rendered = MarkdownIt().render(markdown(text, rng))
    page = html_page("x", rng, title=text.strip().splitlines()[0][:40] if text.strip() else "文章", site=site)
    return re.sub(r"<p>x</p>", lambda m: rendered, page, count=1)


# ---- short texts ----

# Latin letters and their Cyrillic or Greek look-alikes
LATIN_LOOKALIKES = {
    "a": "а",
    "c": "с",
    "e": "е",
    "o": "о",
    "p": "р",
    "x": "х",
    "y": "у",
    "i": "і",
    "s": "ѕ",
    "A": "Α",
    "B": "Β",
    "E": "Ε",
    "H": "Η",
    "K": "Κ",
    "M": "Μ",
    "O": "Ο",
    "P": "Ρ",
    "T": "Τ",
}


@lru_cache(maxsize=1)
def han_lookalikes() -> dict[str, str]:
    """Unified ideographs and the compatibility ideographs or Kangxi radicals that look the same (read
    from the Unicode database: the look-alike normalises (NFKC) to the unified one)."""
    out: dict[str, str] = {}
    for code in list(range(0x2F00, 0x2FD6)) + list(range(0xF900, 0xFADA)):
        ch = chr(code)
        base = unicodedata.normalize("NFKC", ch)
        if len(base) == 1 and base != ch and "\u4e00" <= base <= "\u9fff":
            out.setdefault(base, ch)
    return out


def homoglyphs(text: str, rng: random.Random, share: float = 0.3) -> str:
    """About `share` of the characters that have a look-alike replaced by it (at least one)."""
    table = {**LATIN_LOOKALIKES, **han_lookalikes()}
    spots = [k for k, ch in enumerate(text) if ch in table]
    if not spots:
        return text
    chars = list(text)
    for k in rng.sample(spots, max(1, round(len(spots) * share))):
        chars[k] = table[chars[k]]
    return "".join(chars)


# word -> a word of the same meaning (common substitutions in reposted short texts)
ZH_SYNONYMS = {
    "喊": "叫",
    "哦": "啦",
    "非常": "十分",
    "立刻": "马上",
    "已经": "早已",
    "因为": "由于",
    "但是": "可是",
    "忽然": "突然",
    "看见": "看到",
    "知道": "晓得",
    "仿佛": "好像",
    "美丽": "漂亮",
    "快乐": "高兴",
    "告诉": "跟",
    "开始": "起初",
    "一起": "一同",
    "现在": "如今",
    "所以": "因此",
    "常常": "经常",
    "寂寞": "孤寂",
    "回家": "归家",
    "春风": "东风",
    "明月": "皓月",
    "故乡": "家乡",
    "朋友": "友人",
}
EN_SYNONYMS = {
    "big": "large",
    "small": "little",
    "quick": "fast",
    "begin": "start",
    "end": "finish",
    "happy": "glad",
    "answer": "reply",
    "help": "assist",
    "buy": "purchase",
    "show": "display",
    "often": "frequently",
    "maybe": "perhaps",
    "enough": "sufficient",
    "get": "obtain",
    "world": "earth",
    "people": "folks",
    "always": "ever",
    "never": "not once",
    "think": "believe",
}


def synonyms(text: str, rng: random.Random) -> str:
    """One to three words replaced by words of the same meaning (a typo when no listed word occurs)."""
    table = {**ZH_SYNONYMS, **EN_SYNONYMS}
    found = sorted({w for w in table if (re.search(rf"\b{w}\b", text) if w.isascii() else w in text)})
    if not found:
        return typos(text, rng)
    for word in rng.sample(found, min(len(found), rng.randint(1, 3))):
        text = (
            re.sub(rf"\b{word}\b", table[word], text, count=1) if word.isascii() else text.replace(word, table[word], 1)
        )
    return text


KEYBOARD_NEIGHBOURS = {
    "a": "s",
    "s": "d",
    "e": "r",
    "r": "t",
    "t": "y",
    "i": "o",
    "o": "p",
    "n": "m",
    "h": "j",
    "l": "k",
    "d": "f",
    "u": "i",
    "c": "v",
    "m": "n",
}
FREQUENT_HAN = "的是了不在有人这我他你们来说到着就要也会好看去那还把得都没对地"


def typos(text: str, rng: random.Random, count: int | None = None) -> str:
    """One or two typing mistakes: a Chinese character replaced by a frequent one, a letter by its
    keyboard neighbour, or two letters swapped."""
    chars = list(text)
    spots = [k for k, ch in enumerate(chars) if ch.isalpha()]
    for _ in range(count or rng.randint(1, 2)):
        if not spots:
            break
        k = rng.choice(spots)
        ch = chars[k]
        if "\u4e00" <= ch <= "\u9fff":
            chars[k] = rng.choice(FREQUENT_HAN)
        elif ch.lower() in KEYBOARD_NEIGHBOURS and rng.random() < 0.6:
            chars[k] = KEYBOARD_NEIGHBOURS[ch.lower()]
        elif k + 1 < len(chars) and chars[k + 1].isalpha():
            chars[k], chars[k + 1] = chars[k + 1], chars[k]
    return "".join(chars)


# ---- mixed language ----


def quote_english(text: str, quote: str, rng: random.Random) -> str:
    """`text` with an English sentence quoted at a sentence boundary (as an article cites a source)."""
    parts = sentences(text)
    at = rng.randint(1, max(1, len(parts) - 1))
    return "".join(parts[:at]) + f"正如一句英文名言所说：“{quote}”" + "".join(parts[at:])


def insert_english(text: str, passages: list[str], rng: random.Random) -> str:
    """`text` with English passages put in between its paragraphs (a bilingual repost)."""
    paras = paragraphs(text) or [text]
    for passage in passages:
        paras.insert(rng.randint(0, len(paras)), passage)
    return "\n\n".join(paras)


# ---- reposts ----


def repost_header(text: str, rng: random.Random) -> str:
    site = rng.choice(
        ("轉載自 PTT 實業坊", "转自微信公众号", "來源：聯合新聞網", "本文转载自知乎", "摘自 LIHKG 討論區")
    )
    return f"{site}（{rng.randint(2015, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}）\n\n{text}"


# ---- invisible characters ----

SOFT_HYPHEN = "\u00ad"
ZERO_WIDTH = (
    "\u200b",
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
)  # space (the commonest), non-joiner, joiner, word joiner
WATERMARK_BITS = ("\u200c", "\u200d")  # 0 and 1 of a hidden id, as text watermarks write them
BIDI_MARKS = ("\u200e", "\u200f", "\u061c")  # left-to-right, right-to-left, Arabic letter mark
BIDI_PAIRS = (
    ("\u2066", "\u2069"),
    ("\u2067", "\u2069"),
    ("\u202a", "\u202c"),
    ("\u202b", "\u202c"),
)  # isolates, embeddings
BOM = "\ufeff"
LATIN_WORD = re.compile(r"[A-Za-z]{6,}")
HAN_PAIR = re.compile(r"(?<=[\u4e00-\u9fff])(?=[\u4e00-\u9fff])")
INNER_LETTER = re.compile(r"(?<=[A-Za-z])(?=[A-Za-z])|(?<=[\u4e00-\u9fff])(?=[\u4e00-\u9fff])")


def _put_in(text: str, spots: list[int], marks: list[str]) -> str:
    """`text` with marks[k] put in before position spots[k] (spots ascending)."""
    out, last = [], 0
    for spot, mark in zip(spots, marks):
        out += [text[last:spot], mark]
        last = spot
    out.append(text[last:])
    return "".join(out)


def soft_hyphens(text: str, rng: random.Random, share: float = 0.5) -> str:
    """Hyphenation points in about `share` of the Latin words of six letters or more, as a web page's
    hyphenation (&shy;) leaves them: one every 2-4 letters, none within two letters of either end ('imp-oses',
    'adminis-tra-tor'); in Chinese text, between two ideographs now and then (a page hyphenated as Latin)."""
    spots = []
    for m in LATIN_WORD.finditer(text):
        if rng.random() < share:
            at = m.start() + rng.randint(2, 4)
            while at <= m.end() - 2:
                spots.append(at)
                at += rng.randint(2, 4)
    spots += [m.start() for m in HAN_PAIR.finditer(text) if rng.random() < share / 20]
    spots.sort()
    return _put_in(text, spots, [SOFT_HYPHEN] * len(spots))


def zero_width(text: str, rng: random.Random, rate: float = 0.04) -> str:
    """Zero-width spaces, joiners, non-joiners and word joiners inside words and between ideographs, about
    one every 1/`rate` places ('adminis\\u200btra\\u200btor', 'd\\u200doesn't'), as editors, messengers and
    copies out of PDF or web pages leave them."""
    spots = [m.start() for m in INNER_LETTER.finditer(text) if rng.random() < rate]
    return _put_in(text, spots, [rng.choice(ZERO_WIDTH) for _ in spots])


def watermark(text: str, rng: random.Random, every: int = 300) -> str:
    """A hidden 24-bit id written in zero-width non-joiners (0) and joiners (1) between word joiners, put
    inside a word about every `every` characters (at least once): how text watermarks trace a leak."""
    mark = "\u2060" + "".join(WATERMARK_BITS[rng.getrandbits(1)] for _ in range(24)) + "\u2060"
    inner = [m.start() for m in INNER_LETTER.finditer(text)]
    if not inner:
        return text
    spots = sorted(set(rng.sample(inner, max(1, min(len(inner), len(text) // every)))))
    return _put_in(text, spots, [mark] * len(spots))


def bidi_marks(text: str, rng: random.Random, share: float = 0.2) -> str:
    """Bidirectional marks after about `share` of the punctuation marks and numbers, and about `share` of
    the lines wrapped in an isolate or embedding pair (as right-to-left aware editors and chat clients
    write them)."""
    spots = [m.end() for m in re.finditer(r"[0-9]+|[.,;:!?，。；：！？]", text) if rng.random() < share]
    text = _put_in(text, spots, [rng.choice(BIDI_MARKS) for _ in spots])
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if line.strip() and rng.random() < share:
            start, end = rng.choice(BIDI_PAIRS)
            lines[k] = start + line + end
    return "\n".join(lines)


def inner_boms(text: str, rng: random.Random, count: int = 3) -> str:
    """Byte-order marks inside the text: at the start of up to `count` paragraphs (files saved with a BOM and
    concatenated) and once inside a line (a piece pasted from such a file)."""
    starts = [m.end() for m in re.finditer(r"\n\n+", text)]
    spots = rng.sample(starts, min(count, len(starts)))
    inner = [m.start() for m in INNER_LETTER.finditer(text)]
    if inner:
        spots.append(rng.choice(inner))
    spots = sorted(set(spots))
    return _put_in(text, spots, [BOM] * len(spots))


INVISIBLE = {
    "soft_hyphen": soft_hyphens,
    "zero_width": zero_width,
    "watermark": watermark,
    "bidi": bidi_marks,
    "inner_bom": inner_boms,
}
# how a page writes them: named or numeric character references (resiliparse reads them back as characters)
INVISIBLE_ENTITIES = {
    SOFT_HYPHEN: "&shy;",
    "\u200b": "&#8203;",
    "\u200c": "&zwnj;",
    "\u200d": "&zwj;",
    "\u200e": "&lrm;",
    "\u200f": "&rlm;",
    "\u2060": "&#x2060;",
    BOM: "&#xFEFF;",
}


def with_entities(page: str) -> str:
    """A page with its invisible characters written as character references (&shy;, &#8203;, &zwj;...)."""
    return re.sub("[" + "".join(INVISIBLE_ENTITIES) + "]", lambda m: INVISIBLE_ENTITIES[m.group()], page)
