"""Turn a document's text into weighted terms: normalise (reading/normalize.py), segment with jieba, drop stop words, weight TF x IDF.

The IDF table is the one that ships with jieba, so a document's features never depend on the rest of the
collection: a fingerprint computed today equals the one computed tomorrow in another folder.
"""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from functools import lru_cache
from itertools import chain

from simdesk.core.reading.normalize import SPACES, normalize
from simdesk.core.resources import resource


@dataclass(frozen=True, slots=True)
class FeatureSettings:
    """How text becomes features. Stored in the index: a change re-fingerprints every document."""

    version: int = 6  # 6: text.fold removes invisible characters (soft hyphen, zero-width, bidi marks); 5: line hashes of long lines too (notices, boilerplate.py); 4: text.fold maps traditional Chinese to simplified and Latin look-alikes to Latin; 3: ties are clear bits
    stopwords: bool = True
    bigrams: bool = False  # word bigrams: measured worse (recall 0.378 vs 0.412 at k=3, medium seed 7)
    char_ngrams: int = 0  # >0: also character n-grams of this length (for text jieba segments poorly)
    hmm: bool = False  # jieba's HMM guesses new words; a typo changes its guesses (recall 0.412 -> 0.440 off)
    drop_numbers: bool = True  # numbers (dates, counters, ids) vary between copies and weigh as rare words
    strip_links: bool = True

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)


DEFAULT_FEATURES = FeatureSettings()


@lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    words: set[str] = set()
    for name in ("zh.txt", "en.txt"):
        for line in resource("stopwords", name).read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                words.add(normalize(line))
    return frozenset(words)


@lru_cache(maxsize=1)
def idf_table() -> tuple[dict[str, float], float]:
    """jieba's shipped IDF table (jieba/analyse/idf.txt) and its median, used for words the table does not know.

    Parsed as jieba.analyse's IDFLoader parses it (tests/core/test_vocabulary.py compares the two), without
    importing jieba.analyse: that import loads jieba.posseg's tables, ~2 s of CPU in each process that
    fingerprints (the scan's workers, the scanning process for boilerplate lines) for nothing used here."""
    from importlib.resources import files

    import numpy as np

    idf = parse_idf(files("jieba").joinpath("analyse", "idf.txt").read_bytes().decode("utf-8"))
    values = np.fromiter(idf.values(), dtype=np.float64, count=len(idf))
    middle = len(idf) // 2
    return idf, float(np.partition(values, middle)[middle])  # sorted(values)[middle], without the sort


def parse_idf(content: str) -> dict[str, float]:
    """The `word idf` lines of an IDF file as IDFLoader reads them (each line stripped, split at its space).
    Read in one split of the whole text and one float() per distinct value (~0.15 s of CPU instead of ~0.27 s
    for jieba's 270,000 lines, once in the workers' fork server): the same table whenever that split gives
    two fields a line, that is, when no word holds a space of another kind; otherwise line by line."""
    fields = content.split()
    lines = content.count("\n") + (0 if content.endswith("\n") else 1)
    if len(fields) != 2 * lines:  # a word holding a space, or an empty line: IDFLoader's reading
        return _idf_lines(content)
    texts = fields[1::2]
    value = {text: float(text) for text in set(texts)}  # ~3,300 distinct values in jieba's table
    return dict(zip(fields[::2], map(value.__getitem__, texts)))


def _idf_lines(content: str) -> dict[str, float]:
    idf: dict[str, float] = {}
    for line in content.splitlines():
        word, freq = line.strip().split(" ")
        idf[word] = float(freq)
    return idf


def segment(text: str, hmm: bool = False) -> list[str]:
    """jieba precise-mode tokens of normalised text, without the spaces (cut by rjieba when it is checked
    to be identical: see segmenter.py)."""
    from simdesk.core.fingerprint.segmenter import default_segmenter

    return default_segmenter().cut(text, hmm)


SEGMENT_PIECE = 1 << 16  # characters segmented at a time


def token_pieces(norm: str, hmm: bool = False, spaces: bool = False) -> Iterator[list[str]]:
    """The tokens of normalised text in text order, a list per piece of it: the text is segmented a piece at a
    time, cut at a space (a word boundary for the segmenter, so the tokens are the same as in one go), so that a
    10 MB line costs one piece's tokens in memory, not a list of millions of token strings (~250 MB).
    With `spaces`, whitespace tokens may be left in (the caller drops them; see Segmenter.tokens)."""
    from simdesk.core.fingerprint.segmenter import default_segmenter

    tokens_of = default_segmenter().tokens if spaces else segment
    for piece in text_pieces(norm):
        yield tokens_of(piece, hmm)


def text_pieces(norm: str) -> Iterator[str]:
    """The pieces of normalised text that token_pieces segments one at a time: at most SEGMENT_PIECE
    characters each, cut at a space (the space starts the next piece); a piece with no space at all is cut
    where it ends."""
    start = 0
    while start < len(norm):
        end = min(start + SEGMENT_PIECE, len(norm))
        if end < len(norm):
            cut = norm.rfind(" ", start, end)
            end = cut if cut > start else end
        yield norm[start:end]
        start = end


def token_counts(norm: str, hmm: bool = False) -> Counter:
    """How often each token of normalised text occurs, in first-occurrence order."""
    return Counter(chain.from_iterable(token_pieces(norm, hmm)))


def weighted_terms(text: str, settings: FeatureSettings = DEFAULT_FEATURES, fallback: bool = True) -> dict[str, float]:
    """The document's features and their TF x IDF weights.

    With `fallback` (documents), a text of nothing but stop words, numbers or symbols still gets features;
    without it (a part of a document, whose votes are subtracted from the whole), it gets exactly the
    features it contributes to its document."""
    norm = normalize(text, settings.strip_links)
    counts = token_counts(norm, settings.hmm)
    if settings.drop_numbers:
        counts = Counter({t: c for t, c in counts.items() if not t.isdigit()}) or (counts if fallback else Counter())
    if settings.stopwords:
        stops = stop_words()
        kept = Counter({t: c for t, c in counts.items() if t not in stops})
        counts = kept or (counts if fallback else Counter())  # a text of nothing but stop words still has a fingerprint
    idf, median = idf_table()
    weights: dict[str, float] = {}
    for token, count in counts.items():
        weights[token] = count * idf.get(token, median)
    if settings.bigrams:
        tokens = [t for t in segment(norm, settings.hmm) if t in counts]  # the kept tokens, in text order
        for (a, b), count in Counter(zip(tokens, tokens[1:])).items():
            key = f"{a}\x00{b}"
            weights[key] = count * min(idf.get(a, median), idf.get(b, median))
    if settings.char_ngrams or (not weights and fallback):
        n = settings.char_ngrams or 2
        # a text of symbols alone (no words at all) is fingerprinted by its raw characters
        chars = norm.replace(" ", "") or SPACES.sub("", unicodedata.normalize("NFKC", text))
        for gram, count in Counter(chars[i : i + n] for i in range(max(len(chars) - n + 1, 1))).items():
            if gram:
                weights["\x01" + gram] = weights.get("\x01" + gram, 0.0) + count * median
    return weights
