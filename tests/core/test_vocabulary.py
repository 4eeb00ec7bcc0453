"""The scan's fast fingerprint path (vocabulary.text_votes, text.nfkc, one-pass line keys) gives exactly what the
straightforward reference gives: the same SimHash votes to the last bit, hence the same fingerprints and stored
votes, on Chinese (simplified and traditional), web pages, English, numbers, stop words, symbols and ties."""

from __future__ import annotations

import re
import sys
import unicodedata

import numpy as np
import pytest

from simdesk.core.compiled import KERNELS
from simdesk.core.fingerprint.features import (
    DEFAULT_FEATURES,
    SEGMENT_PIECE,
    FeatureSettings,
    idf_table,
    parse_idf,
    weighted_terms,
)
from simdesk.core.fingerprint.simhash import from_votes, votes
from simdesk.core.fingerprint.vocabulary import Vocabulary, text_votes
from simdesk.core.reading.boilerplate import (
    LINE_JOIN,
    MIN_KEY_CHARS,
    folded_line_hashes,
    folded_line_keys,
    line_hash,
    line_keys,
)
from simdesk.core.reading.markup import visible_text
from simdesk.core.reading.normalize import BOUNDARIES, LINKS, fold, nfkc, without_links

ARTICLE = (
    "近日，多地出台政策支持新能源汽车消费，业内人士认为这将进一步推动产业发展。\n"
    "专家表示：充电基础设施建设仍需加快；电池回收体系也有待完善！（记者 王明）\n"
)
SAMPLES = [
    ARTICLE,
    "臺灣軟體公司發布了新的資料庫系統，支援簡體中文和繁體中文的全文檢索。\r\n開發團隊表示，這個系統裡面的搜尋引擎經過三年的測試。",
    visible_text(
        "<html><head><title>通知</title><style>p{}</style></head><body><p>关于调整&nbsp;办公时间的通知</p>"
        "<p>各部门：自下周一起，上午九点上班。</p><script>var x=1;</script></body></html>",
        "html",
    ),
    "The quick brown fox jumps over the lazy dog. The dog sleeps; the fox runs away, again and again.",
    "版本 2.4.1 于 2024 年 3 月 15 日发布，修复了 17 个问题，下载 https://example.com/a/b?c=1 或写信 dev@example.org",
    "的了是在和",  # stop words only: they stay (a text still has a fingerprint)
    "2024 12 31 ２０２５",  # numbers only
    "！？。。……——",  # symbols only: character n-grams
    "zqxvw zqxvw pkrtm pkrtm",  # two words unknown to the IDF table, of equal weight: ties
    "ａｂｃ　ＤＥＦ\u00a0ｇｈｉ，ｶﾞｷﾞ Ａ\u0301 ﬁ ㈱ ①",  # full width, composed by NFKC, ligatures
    "𠀀𠀁 㐀㐁 龦 漢字 かな 한국어 Ελληνικά Русский Рython",  # rare CJK, kana, Hangul, look-alikes
    "行一\u2028行二\u2029行三\x0c行四\x1c行五\x85行六\r行七\n\n_下划线_ 123 行八",  # every line boundary
    "",
]


def reference(text: str, settings: FeatureSettings = DEFAULT_FEATURES, fallback: bool = True) -> np.ndarray:
    return votes(weighted_terms(text, settings, fallback))


SETTINGS = [
    DEFAULT_FEATURES,
    FeatureSettings(stopwords=False),
    FeatureSettings(drop_numbers=False),
    FeatureSettings(strip_links=False),
    FeatureSettings(hmm=True),
    FeatureSettings(bigrams=True),
    FeatureSettings(char_ngrams=2),
]


# the pure path, and the compiled kernels where they are built (tests/core/test_kernels.py compares the two)
PATHS = [None] if KERNELS is None else [None, KERNELS]


@pytest.mark.parametrize("kernels", PATHS, ids=lambda k: "pure" if k is None else "compiled")
@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: s.to_json())
def test_votes_equal_the_reference_bit_for_bit(settings: FeatureSettings, kernels: object) -> None:
    table = Vocabulary()
    for _ in range(2):  # the second round reads every token from the table
        for text in SAMPLES:
            for fallback in (True, False):
                ours = text_votes(text, fold(text), settings, fallback, table, kernels=kernels)
                theirs = reference(text, settings, fallback)
                assert ours.tobytes() == theirs.tobytes(), (text, fallback)
                assert from_votes(ours) == from_votes(theirs)


def test_ties_stay_ties() -> None:
    text = "zqxvw zqxvw pkrtm pkrtm"
    tallies = text_votes(text, fold(text), DEFAULT_FEATURES)
    assert (tallies == 0).any()  # bits on which the two features disagree cancel exactly
    assert tallies.tobytes() == reference(text).tobytes()


@pytest.mark.parametrize("kernels", PATHS, ids=lambda k: "pure" if k is None else "compiled")
def test_a_text_longer_than_a_segmenting_piece_and_a_full_table(kernels: object) -> None:
    long_text = "".join(f"第{k}条 {ARTICLE}" for k in range(2 * SEGMENT_PIECE // len(ARTICLE)))
    table = Vocabulary(max_tokens=64)  # fewer than the long text's distinct tokens
    for text in (long_text, "全新 词汇 完全 不同", long_text):
        ours = text_votes(text, fold(text), DEFAULT_FEATURES, table=table, kernels=kernels)
        assert ours.tobytes() == reference(text).tobytes()
        if text.startswith("全新"):
            assert len(table) < 64  # full: it started again with this text's tokens alone


@pytest.mark.skipif(KERNELS is None, reason="the room is the compiled path's")
def test_a_text_of_many_distinct_tokens_gets_weighing_room_of_its_own(monkeypatch) -> None:
    """The room `weigh` keeps between documents is bounded (KEPT_WEIGH_ROWS): a text of more distinct tokens is
    weighed in arrays of its own, with the same votes, and the room kept does not grow for it."""
    from simdesk.core.fingerprint import vocabulary

    monkeypatch.setattr(vocabulary, "KEPT_WEIGH_ROWS", 16)
    long_text = "".join(f"第{k}条 {ARTICLE}" for k in range(40))  # more than 16 distinct tokens
    table = Vocabulary()
    for text in ("新能源 汽车", long_text, "新能源 汽车", long_text):
        ours = text_votes(text, fold(text), DEFAULT_FEATURES, table=table, kernels=KERNELS)
        assert ours.tobytes() == reference(text).tobytes()
        assert len(table._weights) <= 16 and len(table._rows) <= 16


def test_idf_table_is_jiebas() -> None:
    import jieba.analyse

    loader = jieba.analyse.default_tfidf.idf_loader
    assert idf_table() == (loader.idf_freq, loader.median_idf)


def test_an_idf_file_is_read_as_jieba_reads_it_line_by_line() -> None:
    def line_by_line(content: str) -> dict[str, float]:  # jieba.analyse.tfidf.IDFLoader
        idf = {}
        for line in content.splitlines():
            word, freq = line.strip().split(" ")
            idf[word] = float(freq)
        return idf

    contents = [
        "今天 3.5\n天气 7.25\n今天 4.0\n",  # a word twice: the last line holds
        "a 1\r\nb 2.5\r\n",
        "  padded 1.5  \nlast 2",  # spaces around a line, no newline at the end
        "全\u3000角 9.0\nno\u00a0break 8.0\n",  # words holding a space of another kind
        "x 1.0\x85y 2.0\u2028z 3.0\n",  # line breaks other than a newline
    ]
    for content in contents:
        assert parse_idf(content) == line_by_line(content), content


def test_nfkc_equals_unicodedata() -> None:
    for text in SAMPLES + ["，：；？（）！\u00a0\u3000", "Ａ\u0301，\u0301", "ｶﾞ，ﾟ"]:
        assert nfkc(text) == unicodedata.normalize("NFKC", text)


def test_boundaries_are_punctuation_symbols_underscore_and_spaces() -> None:
    every = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    assert BOUNDARIES.sub("", every) == re.sub(r"(?:[^\w\s]|_|\s)+", "", every)


def test_line_keys_in_one_pass_equal_line_by_line() -> None:
    # the last text holds the letter the lines are joined by (LINE_JOIN): it takes the line-feed join
    for text in SAMPLES + [f"第一{LINE_JOIN}行\n第二行 {LINE_JOIN}\r\n第三行"]:
        folded = fold(text)
        one_by_one = [re.sub(r"[\W_\d]+", "", line) for line in LINKS.sub(" ", folded).splitlines()]
        assert folded_line_keys(folded) == line_keys(text) == one_by_one
        assert folded_line_keys(without_links(folded), links_dropped=True) == one_by_one
        hashes = np.unique([line_hash(k) for k in one_by_one if MIN_KEY_CHARS <= len(k)]).astype(np.uint32)
        assert folded_line_hashes(folded).tobytes() == hashes.tobytes()


def test_each_thread_has_its_own_vocabulary() -> None:
    import threading

    from simdesk.core.fingerprint.vocabulary import vocabulary

    seen = []
    worker = threading.Thread(target=lambda: seen.append(vocabulary()))
    worker.start()
    worker.join()
    assert seen[0] is not vocabulary() and vocabulary() is vocabulary()
