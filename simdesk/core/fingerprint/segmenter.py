"""Cut normalised text into jieba's precise-mode tokens, with rjieba (jieba-rs, ~19x faster) where it is shown
to give exactly jieba's tokens, and jieba itself otherwise.

rjieba is used only after a check at first use: every line of a fixed shipped sample
(simdesk/resources/segmenter_sample.txt), normalised as documents are, must come out identical from both, with and
without HMM. jieba's tokens of the sample are shipped beside it (segmenter_sample_tokens.json) with the jieba
version and dictionary hash they came from: when the installed jieba is that one, the check compares rjieba with
them and jieba's dictionary is never loaded (~0.8 s of CPU in each process that segments); otherwise jieba
cuts the sample itself. On raw text the two differ (ASCII runs such as 'SHA-2' are cut differently), but simdesk only
ever segments normalised text, where punctuation is already spaces. Characters outside jieba's Han range
(CJK extension A/B, U+9FD6.., kana, Hangul, accented Latin) are routed the way jieba routes them: jieba emits
them one at a time, while rjieba would feed them to its HMM; so only runs jieba itself treats as Han or
alphanumeric go to rjieba, and the rest is cut here by jieba's own rules.

    seg = default_segmenter()
    seg.choice          # Choice(name='rjieba', reason='identical to jieba on 30 sample texts')
    seg.cut("今天 天气 很好", hmm=True)

SIMDESK_SEGMENTER=jieba (or rjieba, or auto, the default) overrides the choice, e.g. to benchmark both ways.
A forced rjieba is still checked: when it differs, jieba is used and the reason says so.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

ENV_VAR = "SIMDESK_SEGMENTER"
CHOICES = ("auto", "jieba", "rjieba")
# Normalised text made only of these goes to rjieba whole; anything else is routed run by run.
_OUTSIDE_FAST_PATH = re.compile(r"[^\u4E00-\u9FD5a-zA-Z0-9 ]")

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Choice:
    """Which segmenter cuts documents, and why (shown by the CLI and the window)."""

    name: str  # "rjieba" or "jieba"
    reason: str


class Segmenter:
    """Cuts normalised text into jieba's tokens (whitespace tokens dropped), by the engine `choice` names."""

    def __init__(self, sample: Sequence[str], preference: str = "auto") -> None:
        """`sample`: normalised texts on which rjieba must equal jieba before it is used.
        `preference`: "auto" (rjieba when installed and identical), "jieba", or "rjieba"."""
        if preference not in CHOICES:
            raise ValueError(f"segmenter must be one of {', '.join(CHOICES)}, not {preference!r}")
        from simdesk.core.fingerprint.jieba_library import jieba

        jieba.setLogLevel(60)
        self._jieba = jieba
        self._rjieba_cut: Callable[..., list[str]] | None = None
        if preference == "jieba":
            self.choice = Choice("jieba", f"{ENV_VAR}=jieba")
        else:
            self.choice = self._check_rjieba(sample)
        level = logging.INFO if self.choice.name == "rjieba" or preference == "jieba" else logging.WARNING
        log.log(level, "segmenter: %s (%s)", self.choice.name, self.choice.reason)

    def cut(self, text: str, hmm: bool = True) -> list[str]:
        """jieba precise-mode tokens of normalised `text`, without the whitespace tokens."""
        if self._rjieba_cut is None:
            return [t for t in self._jieba.lcut(text, HMM=hmm) if t.strip()]
        return self._cut_routed(text, hmm)

    def tokens(self, text: str, hmm: bool = True) -> list[str]:
        """`cut`'s tokens in the same order, but whitespace tokens may be left in: for a caller that drops
        them itself (the vocabulary flags them), one list instead of two."""
        if self._rjieba_cut is None:
            return self._jieba.lcut(text, HMM=hmm)
        if not _OUTSIDE_FAST_PATH.search(text):
            return self._rjieba_cut(text, hmm)
        return self._cut_routed(text, hmm)

    def block_tokens(self, blocks: list[str], hmm: bool = True) -> list[str]:
        """The tokens of each of `blocks` (runs of normalised text without a space, none empty) in order, a
        " " token between the tokens of two blocks and no other " " token: the tokens of " ".join(blocks), a
        space being a word boundary for both segmenters (the rest of the whitespace tokens may be left in,
        as by `tokens`). The blocks that need the jieba routing are cut one by one, the rest in one call."""
        text = " ".join(blocks)
        if self._rjieba_cut is None:
            return self._jieba.lcut(text, HMM=hmm)
        if not _OUTSIDE_FAST_PATH.search(text):
            return self._rjieba_cut(text, hmm)
        out: list[str] = []
        for k, block in enumerate(blocks):
            if k:
                out.append(" ")
            out += self.tokens(block, hmm)
        return out

    def cut_with_jieba(self, text: str, hmm: bool = True) -> list[str]:
        return [t for t in self._jieba.lcut(text, HMM=hmm) if t.strip()]

    # -- rjieba -------------------------------------------------------------------------------------------
    def _check_rjieba(self, sample: Sequence[str]) -> Choice:
        try:
            import rjieba
        except ImportError:
            return Choice("jieba", "rjieba is not installed (pip install rjieba for a ~19x faster scan)")
        self._rjieba_cut = rjieba.cut
        texts = [t for t in sample if t.strip()]
        if not texts:
            self._rjieba_cut = None
            return Choice("jieba", "the segmenter sample is empty, so rjieba could not be checked")
        recorded = recorded_jieba_tokens()
        for text in texts:
            for hmm in (True, False):
                theirs = recorded.get((text, hmm))
                if theirs is None:
                    theirs = self.cut_with_jieba(text, hmm)
                ours = self._cut_routed(text, hmm)
                if ours != theirs:
                    self._rjieba_cut = None
                    where = next(
                        (k for k, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs))
                    )
                    return Choice(
                        "jieba",
                        f"rjieba {_version('rjieba')} differs from jieba on the sample "
                        f"(HMM={hmm}): {ours[where : where + 3]} instead of {theirs[where : where + 3]} "
                        f"in {text[:40]!r}",
                    )
        return Choice(
            "rjieba",
            f"rjieba {_version('rjieba')} is identical to jieba {_version('jieba')} on {len(texts)} sample texts",
        )

    def _cut_routed(self, text: str, hmm: bool) -> list[str]:
        cut = self._rjieba_cut
        assert cut is not None
        if not _OUTSIDE_FAST_PATH.search(text):
            return [t for t in cut(text, hmm) if t.strip()]
        # As jieba.cut does: runs of its Han/alphanumeric class are segmented (here by rjieba); any other
        # character is a token of its own and whitespace is dropped.
        han, skip = self._jieba.re_han_default, self._jieba.re_skip_default
        out: list[str] = []
        for block in han.split(text):
            if not block:
                continue
            if han.match(block):
                out.extend(t for t in cut(block, hmm) if t.strip())
            else:
                for piece in skip.split(block):
                    if piece and not skip.match(piece):
                        out.extend(c for c in piece if c.strip())
        return out


def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "?"


def sample_texts() -> list[str]:
    """The shipped sample, normalised as documents are."""
    from simdesk.core.reading.normalize import normalize
    from simdesk.core.resources import resource

    lines = resource("segmenter_sample.txt").read_text(encoding="utf-8").splitlines()
    return [normalize(line) for line in lines if line.strip() and not line.startswith("#")]


RECORDED_TOKENS = "segmenter_sample_tokens.json"


def jieba_identity() -> str:
    """What jieba's tokens depend on: its version and the SHA-1 of its dictionary."""
    import hashlib

    from simdesk.core.fingerprint.jieba_library import jieba

    with jieba.get_dict_file() as fh:
        return f"jieba {_version('jieba')}, dictionary sha1 {hashlib.sha1(fh.read()).hexdigest()}"


def recorded_jieba_tokens() -> dict[tuple[str, bool], list[str]]:
    """jieba's tokens of each sample text, with and without HMM, as shipped; empty when they were recorded with
    another jieba than the installed one (or are missing)."""
    import json

    from simdesk.core.resources import resource

    try:
        data = json.loads(resource(RECORDED_TOKENS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if data.get("jieba") != jieba_identity():
        return {}
    return {
        (text, hmm): tokens
        for text, by_hmm in data["tokens"].items()
        for hmm, tokens in ((True, by_hmm["hmm"]), (False, by_hmm["no_hmm"]))
    }


def record_jieba_tokens() -> str:
    """The JSON of segmenter_sample_tokens.json for the installed jieba (`python -c "from simdesk.core.fingerprint.segmenter
    import record_jieba_tokens; print(record_jieba_tokens())" > simdesk/resources/segmenter_sample_tokens.json`)."""
    import json

    from simdesk.core.fingerprint.jieba_library import jieba

    jieba.setLogLevel(60)
    tokens = {
        text: {h: [t for t in jieba.lcut(text, HMM=hmm) if t.strip()] for h, hmm in (("hmm", True), ("no_hmm", False))}
        for text in sample_texts()
        if text.strip()
    }
    return json.dumps({"jieba": jieba_identity(), "tokens": tokens}, ensure_ascii=False, indent=0)


@lru_cache(maxsize=1)
def default_segmenter() -> Segmenter:
    """The process's segmenter, chosen (and checked) on first use; SIMDESK_SEGMENTER may force jieba."""
    preference = os.environ.get(ENV_VAR, "auto").strip().lower() or "auto"
    if preference not in CHOICES:
        log.warning("segmenter: ignoring %s=%r (expected one of %s)", ENV_VAR, preference, ", ".join(CHOICES))
        preference = "auto"
    return Segmenter(sample_texts(), preference)


def segmenter_choice() -> Choice:
    """Which segmenter this process uses and why: for the CLI's and the window's status line."""
    return default_segmenter().choice
