"""The built-in demo collection: a few hundred Tang and Song poems (public domain, shipped in simdesk/resources/)
with planted near-duplicates, written on first use. Nothing is downloaded."""

from __future__ import annotations

import random
import re
from pathlib import Path

from simdesk.core.resources import resource

DEMO_VERSION = "1"
FULL2HALF = str.maketrans("，。！？：；（）", ",.!?:;()")


def classics() -> list[str]:
    raw = resource("demo", "classics.txt").read_text(encoding="utf-8")
    body = "\n".join(line for line in raw.splitlines() if not line.startswith("#"))
    return [t.strip() for t in body.split("\n%\n") if t.strip()]


def _variant(text: str, rng: random.Random) -> tuple[str, str]:
    kind = rng.choice(["typo", "footer", "header", "punct", "rewrap", "exact"])
    if kind == "typo":
        chars = list(text)
        idx = [i for i, c in enumerate(chars) if "\u4e00" <= c <= "\u9fff"]
        for i in rng.sample(idx, max(1, len(idx) // 40)):
            chars[i] = rng.choice("的一是在不了有和人这中大为上个")
        return "".join(chars), kind
    if kind == "footer":
        return text + "\n\n（本文转自古诗文网，版权归原作者所有。）", kind
    if kind == "header":
        return "【转载】经典诗词赏析\n\n" + text, kind
    if kind == "punct":
        return text.translate(FULL2HALF), kind
    if kind == "rewrap":
        flat = re.sub(r"\s*\n\s*", "", text)
        return "\n".join(flat[i : i + 17] for i in range(0, len(flat), 17)), kind
    return text, kind


def ensure_demo(dest: Path) -> Path:
    """Write the demo collection into `dest` unless this version is already there; return `dest`."""
    stamp = dest / ".simdesk-demo"
    if stamp.exists() and stamp.read_text(encoding="utf-8").strip() == DEMO_VERSION:
        return dest
    rng = random.Random(20261123)
    poems = classics()
    folders = ["唐诗", "宋词", "稿件/草稿", "archive"]
    dest.mkdir(parents=True, exist_ok=True)
    for n, poem in enumerate(poems):
        title = poem.splitlines()[0].strip("《》 ")[:20] or f"poem{n}"
        safe = re.sub(r"[\\/:*?\"<>|]", "_", title)
        folder = folders[0] if n < 320 else folders[1]
        enc = "gb18030" if n % 9 == 0 else "utf-8"
        (dest / folder).mkdir(parents=True, exist_ok=True)
        (dest / folder / f"{n:03d}-{safe}.txt").write_bytes(poem.encode(enc))
        if rng.random() < 0.25:
            for k in range(rng.choice([1, 1, 2])):
                text, kind = _variant(poem, rng)
                target = dest / rng.choice(folders[2:])
                target.mkdir(parents=True, exist_ok=True)
                (target / f"{n:03d}-{safe}-{kind}{k}.txt").write_bytes(
                    text.encode(rng.choice(["utf-8", "gb18030", "utf-16"]))
                )
    stamp.write_text(DEMO_VERSION, encoding="utf-8")
    return dest
