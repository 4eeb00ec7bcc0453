"""Small real folders the tests build: a poem in three copies (one GB18030) and a second text in two."""

from __future__ import annotations

from pathlib import Path

POEM = (
    "床前明月光，疑是地上霜。举头望明月，低头思故乡。\n"
    "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。\n"
    "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。\n"
) * 3
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


# A sentence, three articles quoting it whole, and a story (tests/core/test_copies_held.py)
QUOTE = (
    "知识分子的责任，首先是说真话。一个社会如果听不到真话，就会在虚假的繁荣中慢慢失去方向，"
    "而每一个沉默的人，都是这种失去的一部分。"
)
ARTICLES = [
    (
        "去年冬天，我在旧书店里翻到一本泛黄的杂志，里面有一篇关于乡村教师的报道。那位老师在山区教了三十年书，"
        "学生换了一茬又一茬，他却始终守着那间漏雨的教室。报道的最后，记者引用了一段话：",
        "读到这里，我合上杂志，在寒风里站了很久。后来我常常想起那位老师，想起他说过的话，也想起自己这些年"
        "究竟说过多少真话。",
    ),
    (
        "城市的夜晚总是灯火通明，写字楼里的人们加班到深夜，地铁站里挤满了疲惫的面孔。有人说这是奋斗的样子，"
        "也有人说这是一种无奈。一位社会学家在讲座中谈到：",
        "讲座结束后，台下的年轻人议论纷纷。有人认为这话说得太重，有人却觉得一语中的。城市还在运转，灯光照常亮起，"
        "而问题并没有答案。",
    ),
    (
        "这部纪录片拍摄了五年，记录了一座小镇从繁荣到衰落的过程。工厂关闭以后，年轻人陆续离开，只剩下老人和孩子。"
        "导演在片尾打出了一行字幕：",
        "影片上映后引起了不少讨论。有观众专程去了那座小镇，发现街道比片中更加冷清，只有几家小店还开着门，"
        "店主们说起往事，眼里仍有光。",
    ),
]
STORY = (
    "清晨的码头上，渔民们已经开始忙碌。他们把昨夜捕获的鱼一筐筐抬上岸，讨价还价的声音此起彼伏。"
    "老张在这里打鱼已经四十年了，他说海里的鱼一年比一年少，年轻人也不愿意再出海。"
    "太阳升起来的时候，码头渐渐安静下来，只剩下海鸥在空中盘旋。"
    "老张坐在船头抽着烟，望着远处的海平线，不知道在想些什么。"
    "他的儿子在城里开了一家小饭馆，几次劝他搬过去一起住，他总是摇头。"
    "他说，离开了海，他就不知道自己是谁了。"
    "傍晚，他又把船推进水里，像过去的每一天一样。"
)


def story_folder(root: Path, quoted: bool = False) -> Path:
    """root/: full.txt (a story), cut.txt (its first two thirds), typo.txt (two characters mistyped); with
    `quoted`, quote.txt and article.txt (an article a quarter of which is the quote)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "full.txt").write_text(STORY, encoding="utf-8")
    (root / "cut.txt").write_text(STORY[: len(STORY) * 2 // 3], encoding="utf-8")
    (root / "typo.txt").write_text(STORY.replace("码头", "马头", 1).replace("海鸥", "海欧"), encoding="utf-8")
    if quoted:
        (root / "quote.txt").write_text(QUOTE, encoding="utf-8")
        (root / "article.txt").write_text(ARTICLES[1][0] + QUOTE + ARTICLES[1][1], encoding="utf-8")
    return root
