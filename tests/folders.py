"""Small real folders the tests build: a poem in three copies (one GB18030) and a second text in two."""
from __future__ import annotations

from pathlib import Path

POEM = ("床前明月光，疑是地上霜。举头望明月，低头思故乡。\n"
        "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。\n"
        "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。\n") * 3
OTHER = "千山鸟飞绝，万径人踪灭。孤舟蓑笠翁，独钓寒江雪。\n" * 6
POEMS = ["copies/poem-copy.txt", "copies/poem-gbk.txt", "poem.txt"]
SNOWS = ["copies/snow-copy.txt", "snow.txt"]


def small_folder(tmp_path: Path) -> Path:
    """tmp_path/docs: poem.txt, copies/poem-copy.txt, copies/poem-gbk.txt (GB18030), snow.txt,
    copies/snow-copy.txt."""
    root = tmp_path / "docs"
    (root / "copies").mkdir(parents=True)
    (root / "poem.txt").write_text(POEM, encoding="utf-8")
    (root / "copies" / "poem-copy.txt").write_text(POEM, encoding="utf-8")
    (root / "copies" / "poem-gbk.txt").write_text(POEM, encoding="gb18030")
    (root / "snow.txt").write_text(OTHER, encoding="utf-8")
    (root / "copies" / "snow-copy.txt").write_text(OTHER, encoding="utf-8")
    return root
