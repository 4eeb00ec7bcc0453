"""Loading: the walk's filters and the decoding order (BOM, UTF-8, GB18030, detector), on real files."""

from __future__ import annotations

import os

import pytest

from simdesk.core.reading.documents import (
    BINARY_CONTROL_RATIO,
    DecodeError,
    _checked,
    decode_bytes,
    matches,
    read_text_file,
    walk,
)
from simdesk.core.records import Problem

ZH = "近日，多地出台政策支持新能源汽车消费，业内人士认为这将进一步推动产业发展。\n第二段文字在这里继续。"


@pytest.mark.parametrize("encoding", ["utf-8", "gb18030", "utf-16", "utf-8-sig", "utf-32"])
def test_decodes_each_encoding_back_to_the_same_text(encoding):
    text, used = decode_bytes(ZH.encode(encoding))
    assert text.lstrip("\ufeff") == ZH
    assert used in {encoding, "utf-8-sig" if encoding == "utf-8-sig" else encoding}


def test_gbk_text_is_read_as_gb18030_not_guessed():
    text, used = decode_bytes("中华人民共和国成立于一九四九年，首都北京。".encode("gbk"))
    assert used == "gb18030"
    assert text == "中华人民共和国成立于一九四九年，首都北京。"


def test_big5_text_is_told_apart_from_gb18030():
    source = "臺灣的傳統文化非常豐富，許多節慶活動都保留了古老的習俗與儀式，吸引了大量的觀光客前來參觀。" * 3
    text, used = decode_bytes(source.encode("big5"))
    assert used.replace("_", "").lower() in {"big5", "big5hkscs", "cp950"}
    assert text == source


def test_utf16_without_bom_is_detected():
    source = "This file is UTF-16 without a byte order mark. 这是没有字节顺序标记的文件。\n" * 5
    text, used = decode_bytes(source.encode("utf-16-le"))
    assert "utf_16" in used.replace("-", "_").lower()
    assert text == source


@pytest.mark.parametrize(
    "payload",
    [b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4, b"PK\x03\x04" + bytes(200) + os.urandom(300)],
)
def test_binary_data_is_refused_with_a_reason(payload):
    with pytest.raises(DecodeError, match="binary|not text"):
        decode_bytes(payload)


@pytest.mark.parametrize("controls", [0, 1, 4, 5, 6, 40])
def test_utf8_with_control_characters_is_binary_past_one_in_a_hundred(controls):
    """UTF-8 text's control characters are counted on its bytes: the same verdict as on the text (_checked),
    text with up to 1% of them is text (a stray form feed or escape), more is binary."""
    text = ("中文字" * 100 + "abcdefghij" * 20)[: 500 - controls] + "\x1b" * controls
    data = text.encode("utf-8")
    try:
        _checked(text, "utf-8")
    except DecodeError as exc:
        with pytest.raises(DecodeError, match="binary") as raised:
            decode_bytes(data)
        assert str(raised.value) == str(exc)
    else:
        assert decode_bytes(data) == (text, "utf-8")
    assert (controls > 5) == (controls > BINARY_CONTROL_RATIO * len(text))


@pytest.mark.parametrize("first", ["\ufeff", "\uff80", "ÿ", "þ"])
def test_text_starting_with_a_bom_s_first_byte_is_read_by_its_bom_or_as_utf8(first):
    """Only a byte-order mark decides the encoding before UTF-8: text whose first byte merely begins one
    (U+FF80 is EF BE 80 in UTF-8, ÿ is FF in Latin-1) is read as any other."""
    text = first + "文字 text " * 10
    data = text.encode("utf-8")
    decoded, used = decode_bytes(data)
    if first == "\ufeff":
        assert (decoded, used) == (text[1:], "utf-8-sig")
    else:
        assert (decoded, used) == (text, "utf-8")


def test_empty_file_is_a_problem(tmp_path):
    (tmp_path / "empty.txt").write_bytes(b"  \n")
    with pytest.raises(DecodeError, match="empty"):
        read_text_file(tmp_path / "empty.txt", 1000)


def test_file_that_grew_past_the_cap_is_refused(tmp_path):
    (tmp_path / "big.txt").write_text("字" * 1000, encoding="utf-8")
    with pytest.raises(DecodeError, match="size cap"):
        read_text_file(tmp_path / "big.txt", 100)


def test_include_patterns_match_names_case_insensitively():
    assert matches("a/b/Note.TXT", ("*.txt",))
    assert not matches("a/b/image.png", ("*.txt", "*.md"))
    assert matches("drafts/x.txt", ("drafts/*.txt",))


def test_include_patterns_match_as_fnmatch_does_pattern_by_pattern():
    import fnmatch

    def one_by_one(rel: str, includes: tuple[str, ...]) -> bool:
        name = rel.rsplit("/", 1)[-1]
        return any(fnmatch.fnmatch((rel if "/" in p else name).casefold(), p.casefold()) for p in includes)

    patterns = [
        ("*.txt", "*.md", "*.html"),
        ("news/*.txt", "*.MD"),
        ("a/[bc]*.x?t", "[!a]*"),
        ("ß*.txt", "*"),
        ("**/x",),
        (),
    ]
    paths = ["a.txt", "A.TXT", "news/a.txt", "News/B.TXT", "x/news/a.txt", "a/b.xyt", "a/c/d.xat", "b/x", "x"]
    paths += ["ss.txt", "SS.TXT", "Straße.Txt", "a.txt.bak", "dir.txt/file", "a\nb.txt", "é.md", "[x].md"]
    for includes in patterns:
        for rel in paths:
            assert matches(rel, includes) == one_by_one(rel, includes), (rel, includes)


def test_walk_filters_hidden_oversize_and_patterns_and_reports_loops(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.txt").write_text("一", encoding="utf-8")
    (tmp_path / "a" / "two.md").write_text("二", encoding="utf-8")
    (tmp_path / "a" / "skip.png").write_bytes(b"x")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "secret.txt").write_text("秘", encoding="utf-8")
    (tmp_path / "huge.txt").write_text("大" * 2000, encoding="utf-8")
    (tmp_path / "a" / "loop").symlink_to(tmp_path, target_is_directory=True)
    problems: list[Problem] = []
    found = [e.rel for e in walk(tmp_path, ("*.txt", "*.md"), 1000, on_problem=problems.append)]
    assert found == ["a/one.txt", "a/two.md"]
    reasons = {p.path: p.error for p in problems}
    assert "size cap" in reasons["huge.txt"]
    assert "symbolic link" in reasons["a/loop/"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_unreadable_folder_is_reported_and_the_walk_goes_on(tmp_path):
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "x.txt").write_text("x", encoding="utf-8")
    (tmp_path / "open.txt").write_text("开放", encoding="utf-8")
    os.chmod(tmp_path / "locked", 0)
    try:
        problems: list[Problem] = []
        found = [e.rel for e in walk(tmp_path, ("*.txt",), 10**6, on_problem=problems.append)]
    finally:
        os.chmod(tmp_path / "locked", 0o755)
    assert found == ["open.txt"]
    assert problems and problems[0].path.startswith("locked")


def test_short_gb18030_and_big5_files_decode_in_their_own_encoding():
    """Bytes valid in both encodings go to the reading with more common Chinese characters (measured on
    texts of at most 64 characters: see documents._common_share). The second text was read as Big5 before."""
    simplified = [
        "不管风吹浪打，胜似闲庭信步。",
        "作者:欧阳修（１００７－１０７２）",
        "你妈妈喊你回家吃饭哦,回家罗回家罗",
        "┌──────────┐",
        "人无远虑，必有近忧。",
    ]
    traditional = [
        "不管風吹浪打，勝似閒庭信步。",
        "這個系統裡面的搜尋引擎經過三年的測試",
        "你媽媽喊你回家吃飯哦,回家囉回家囉",
    ]
    for text in simplified:
        assert decode_bytes(text.encode("gb18030")) == (text, "gb18030")
    for text in traditional:
        assert decode_bytes(text.encode("big5")) == (text, "big5")
