"""The segmenter gives exactly jieba's tokens: rjieba is used only when the shipped sample proves it identical."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import jieba
import pytest

from simdesk.core.fingerprint import segmenter
from simdesk.core.fingerprint.features import normalize
from simdesk.core.fingerprint.segmenter import Segmenter, sample_texts

rjieba = pytest.importorskip("rjieba")

TEXTS = [
    "今天天气很好，我们去公园玩吧！他说：“你好。”随后来到了网易杭研大厦。",
    "Linux 2.6.32 内核由 Linus Torvalds 发布，SHA-2 校验和与 Werner.Almesberger 的补丁一起提交。",
    "生僻字：㐀㐁㐂䶵 鿐鿑鿒鿓鿔鿕鿖鿗 𠀀𠀁𪚥 龥龦。",  # outside jieba's Han range: rjieba alone cuts them differently
    "こんにちは世界、한국어 텍스트 café naïve Ελληνικά",
    "１２３ＡＢＣ　全角 abc123def 中文abc混合123文本",
    "",
]


def jieba_tokens(text: str, hmm: bool) -> list[str]:
    return [t for t in jieba.lcut(text, HMM=hmm) if t.strip()]


def test_shipped_sample_makes_rjieba_the_choice() -> None:
    seg = Segmenter(sample_texts())
    assert seg.choice.name == "rjieba", seg.choice.reason
    assert "identical" in seg.choice.reason


@pytest.mark.parametrize("hmm", [True, False])
@pytest.mark.parametrize("text", TEXTS)
def test_routed_rjieba_equals_jieba_on_normalised_text(text: str, hmm: bool) -> None:
    norm = normalize(text)
    assert Segmenter(sample_texts()).cut(norm, hmm) == jieba_tokens(norm, hmm)


@pytest.mark.parametrize("preference", ["auto", "jieba"])
@pytest.mark.parametrize("hmm", [True, False])
def test_block_tokens_are_each_blocks_tokens_between_spaces(preference: str, hmm: bool) -> None:
    """The blocks of normalised text (split at its spaces) cut in one call where they can be: each block's own
    tokens, a " " between two blocks' and nowhere else."""
    seg = Segmenter(sample_texts(), preference)
    for text in TEXTS:
        blocks = [b for b in normalize(text).split(" ") if b]
        for chosen in (blocks, blocks[:1], [b for b in blocks if b.isascii()]):
            if not chosen:
                continue
            expected: list[str] = []
            for k, block in enumerate(chosen):
                expected += [" "] * bool(k) + seg.cut(block, hmm)
            assert [t for t in seg.block_tokens(chosen, hmm) if t == " " or t.strip()] == expected


def test_rare_characters_are_why_the_routing_exists() -> None:
    """Plain rjieba glues characters jieba emits one by one; the routed cut does not."""
    norm = normalize(TEXTS[2])
    plain = [t for t in rjieba.cut(norm, hmm=True) if t.strip()]
    assert plain != jieba_tokens(norm, True)
    assert Segmenter(sample_texts()).cut(norm, True) == jieba_tokens(norm, True)


def test_falls_back_to_jieba_with_a_reason_when_rjieba_differs(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(rjieba, "cut", lambda text, hmm=True: list(text))  # a broken rjieba: one char a token
    with caplog.at_level(logging.WARNING, logger="simdesk.core.fingerprint.segmenter"):
        seg = Segmenter(sample_texts())
    assert seg.choice.name == "jieba"
    assert "differs from jieba" in seg.choice.reason
    assert "differs from jieba" in caplog.text
    norm = normalize(TEXTS[0])
    assert seg.cut(norm) == jieba_tokens(norm, True)


def test_falls_back_when_rjieba_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "rjieba", None)  # import rjieba raises ImportError
    seg = Segmenter(sample_texts())
    assert seg.choice.name == "jieba" and "not installed" in seg.choice.reason


def test_jieba_can_be_forced() -> None:
    seg = Segmenter(sample_texts(), "jieba")
    assert seg.choice.name == "jieba"
    with pytest.raises(ValueError):
        Segmenter(sample_texts(), "fastest")


def test_environment_variable_forces_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    segmenter.default_segmenter.cache_clear()
    monkeypatch.setenv(segmenter.ENV_VAR, "jieba")
    try:
        assert segmenter.segmenter_choice().name == "jieba"
    finally:
        segmenter.default_segmenter.cache_clear()


def test_empty_sample_cannot_prove_anything() -> None:
    assert Segmenter([]).choice.name == "jieba"


def test_recorded_jieba_tokens_are_the_installed_jiebas() -> None:
    """The shipped tokens the start-up check compares rjieba with are jieba's own (regenerate them with
    segmenter.record_jieba_tokens when jieba or the sample changes)."""
    import json

    from simdesk.core.resources import resource

    shipped = json.loads(resource(segmenter.RECORDED_TOKENS).read_text(encoding="utf-8"))
    assert shipped == json.loads(segmenter.record_jieba_tokens())
    assert len(segmenter.recorded_jieba_tokens()) == 2 * len([t for t in sample_texts() if t.strip()])


def test_choosing_rjieba_loads_no_jieba_dictionary() -> None:
    code = (
        "import jieba; from simdesk.core.fingerprint.segmenter import default_segmenter; "
        "c = default_segmenter().choice; print(c.name, jieba.dt.initialized)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "SIMDESK_SEGMENTER": "auto"},
    ).stdout.split()
    assert out == ["rjieba", "False"]
