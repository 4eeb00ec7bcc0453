"""What verification computes from a document's text read again, in the analysis's worker processes: its
profile without boilerplate (verify.profile) and, from the same read and fold, its headline for the report
(headline.packed_headline) and whether it is a short text (measured_short: stored, so a clean-up plan reads
no file); its SimHash votes as the scan computed them, the votes of its boilerplate lines.

This module imports neither the index (sqlite-utils, and pandas when installed: ~1 s of CPU) nor the
analysis, and the scan's fork server preloads it (segmenter_preload), so a worker forked for verification
starts with everything it runs already loaded (it imported simdesk.core.matching.analysis, and with it the index,
before its first text: 2.1 s per worker measured on a loaded machine, 2026-11-23).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from simdesk.core.fingerprint.features import FeatureSettings
from simdesk.core.fingerprint.similarity import Profile, profile, short_in_characters
from simdesk.core.fingerprint.vocabulary import text_votes
from simdesk.core.index.scan import text_document
from simdesk.core.reading.boilerplate import folded_frequent_rows, frequent_parts, line_hash, line_keys
from simdesk.core.reading.documents import DecodeError
from simdesk.core.reading.headline import packed_headline, text_and_heading
from simdesk.core.reading.normalize import FOLD_PIECE, fold, fold_rows, normalize, normalize_folded, without_links
from simdesk.core.reading.texts import Texts


def verification_profile(text: str | None, boilerplate: frozenset[int], folded: str | None = None) -> Profile:
    """What verification scores a text on (verify.profile) without its boilerplate lines, with its rest
    without notices when it holds one, and whole beside its frequent lines when those hold much of it
    (boilerplate.frequent_parts); an empty profile for a text that could not be read. The text is folded once
    (normalize.fold; `folded` when the caller has it) for its line keys and for each part that is the whole
    text: the text when it keeps every line, and whole beside its frequent lines."""
    return _profile_and_dropped(text, boilerplate, folded)[0]


def profile_and_short(text: str | None, boilerplate: frozenset[int]) -> tuple[Profile, bool | None]:
    """verification_profile and whether the text is short (measured_short: None for a text that could not be
    read), from one pass over its lines: what a cluster engine's verification computes of each text."""
    if not text:
        return _empty(), None if text is None else measured_short(text, "")
    read = _Read(text, fold(text), boilerplate)
    return read.profile(), read.short()


def _profile_and_dropped(
    text: str | None, boilerplate: frozenset[int], folded: str | None = None
) -> tuple[Profile, frozenset[int], str]:
    """verification_profile, the numbers of the boilerplate lines it left out (boilerplate_lines) and the text
    without them (frequent_parts' `stripped`)."""
    if not text:
        return _empty(), frozenset(), ""
    read = _Read(text, fold(text) if folded is None else folded, boilerplate)
    return read.profile(), read.rows.dropped, read.parts.stripped


def _empty() -> Profile:
    """The profile of an empty text, or of one that could not be read (one each: a profile keeps caches)."""
    return Profile(np.empty(0, dtype=np.uint32))


class _Read:
    """A text read for verification, split into lines and folded once (`folded`: normalize.fold(text)), with
    its parts without boilerplate (boilerplate.folded_frequent_rows): each part is folded from the folded lines
    (normalize.fold_rows) and normalised once, for its profile and for measured_short."""

    def __init__(self, text: str, folded: str, boilerplate: frozenset[int]) -> None:
        self.text, self.folded = text, folded
        self.lines = text.splitlines()
        self.folded_lines = folded.splitlines()
        self.delinked = without_links(folded)  # for the line keys, and the text's normal form
        self.rows = folded_frequent_rows(self.lines, self.delinked, boilerplate)
        self.parts = self.rows.parts(text, self.lines)
        # the folded lines are the text's lines' (as many) and the text is folded in one piece: a part is
        # folded from its folded lines
        self._by_rows = len(self.folded_lines) == len(self.lines) and len(text) <= FOLD_PIECE
        self._normal: list[tuple[str, str]] = []  # (part, its normalised form), by identity

    def fold_of(self, part: str) -> str:
        """normalize.fold(part) of the text or one of its parts."""
        if part is self.text:
            return self.folded
        if self._by_rows:
            for mine, rows in (
                (self.parts.stripped, self.rows.stripped),
                (self.parts.rest, self.rows.rest),
                (self.parts.frequent, self.rows.frequent),
            ):
                if part is mine and rows is not None:
                    return fold_rows(part, rows, self.folded_lines)
        return fold(part)

    def normal_of(self, part: str) -> str:
        """normalize(part) of the text or one of its parts, kept for the next call."""
        for mine, normal in self._normal:
            if part is mine:
                return normal
        if part is self.text:  # its links dropped once, for its line keys too
            normal = normalize_folded(self.delinked, strip_links=False)
        else:
            normal = normalize_folded(self.fold_of(part))
        self._normal.append((part, normal))
        return normal

    def profile(self) -> Profile:
        """verification_profile of the text."""
        text, parts = self.text, self.parts
        return profile(
            parts.stripped,
            parts.rest,
            text if parts.frequent is not None else None,
            parts.frequent,
            fold_of=self.fold_of,
            full=text if parts.stripped is not text else None,
            normal_of=self.normal_of,
        )

    def short(self) -> bool:
        """measured_short of the text, from its stripped part's normalised form."""
        return measured_short(self.text, self.parts.stripped, self.normal_of)

    def headline(self, heading: str) -> str:
        """packed_headline of the text."""
        return packed_headline(
            self.text,
            folded_text=self.folded,
            heading=heading,
            dropped=self.rows.dropped,
            lines=self.lines,
            folded_lines=self.folded_lines,
        )


# A file of more bytes than this is never short (short_document): SHORT_UNITS units and its boilerplate lines (an
# attribution, a repost notice) take a few hundred bytes in any encoding.
SHORT_BYTES = 1024


def short_text(text: str | None, boilerplate: frozenset[int]) -> bool:
    """measured_short of a text read now, without its lines of `boilerplate` (frequent_parts). A text that
    could not be read (None) counts as short: its words cannot be compared, so none of them is taken for a
    copy's."""
    return text is None or measured_short(text, frequent_parts(text, boilerplate).stripped)


def measured_short(text: str, stripped: str, normal_of: Callable[[str], str] = normalize) -> bool:
    """The rule for a short text, the one every reader applies: whether `text` without its boilerplate lines
    (`stripped`: frequent_parts) is short and written in characters (at most similarity.SHORT_UNITS units,
    half of them Chinese, Japanese or Thai characters): one character changed may make it another text
    (cleanup.member_fates). A text of more than SHORT_BYTES characters never is (its file holds more than
    SHORT_BYTES bytes, which short_document never counts short) and is not measured. `normal_of`: normalize,
    or a reader's own that gives the same form of `stripped` (verification's, which has it already)."""
    return len(text) <= SHORT_BYTES and short_in_characters(normal_of(stripped))


def short_document(size: int, stored: bool | None, read_now: Callable[[], bool]) -> bool:
    """The clean-up's one rule for whether a document of `size` bytes is short (cleanup.member_fates): a file
    of more than SHORT_BYTES bytes never is; otherwise what verification stored of its text (`stored`:
    measured_short; None when nothing was stored: an index or a bundle written before it was), else
    `read_now()`: short_text of its text read now."""
    if size > SHORT_BYTES:
        return False
    return read_now() if stored is None else stored


def profiles_of(texts: Texts, rels: list[str], boilerplate: frozenset[int]) -> list[tuple[Profile, str, bool | None]]:
    """The verification profile of each given document without boilerplate, its packed headline
    (headline.packed_headline, title and source as the report shows them) and whether it is short
    (measured_short), from one read and one fold of its text: the report then reads again only the members
    verification did not read, and a clean-up plan none. A text that vanished or became unreadable since the
    scan is scored as empty (not verified), has an empty title and is not measured (None)."""
    out: list[tuple[Profile, str, bool | None]] = []
    with texts.read_ahead(rels) as ahead:  # the next files fetched while one is worked on
        for rel in rels:
            try:
                text, heading = text_and_heading(texts, rel, ahead)
            except (OSError, DecodeError):
                out.append((_empty(), packed_headline(""), None))
                continue
            out.append(verified_read(text, heading, boilerplate))
    return out


def verified_read(
    text: str, heading: str, boilerplate: frozenset[int], folded: str | None = None
) -> tuple[Profile, str, bool | None]:
    """What profiles_of gives of a text read (its visible text, and `heading`: markup.page_heading of its file):
    its profile without boilerplate, packed headline and short flag, from one fold of it (`folded`:
    normalize.fold(text), when the caller has it)."""
    if not text:
        return _empty(), packed_headline("", heading=heading), measured_short("", "")
    read = _Read(text, fold(text) if folded is None else folded, boilerplate)
    return read.profile(), read.headline(heading), read.short()


def votes_of(texts: Texts, items: list[tuple[str, str]], settings: FeatureSettings) -> list[bytes | None]:
    """The packed SimHash votes of each (path, content hash) as the scan computes them, None for a document
    that cannot be read or no longer holds the indexed text."""
    out: list[bytes | None] = []
    with texts.read_ahead([rel for rel, _ in items]) as ahead:
        for rel, digest in items:
            try:
                tf = texts.read(rel, ahead)
            except (OSError, DecodeError):
                out.append(None)
                continue
            out.append(text_document(rel, tf, settings).votes if tf.content_hash == digest else None)
    return out


def line_votes(text: str, wanted: set[int], settings: FeatureSettings) -> dict[int, np.ndarray]:
    """The SimHash votes of the first line of `text` whose key hashes to each of `wanted` (as a part of a
    document: features.weighted_terms without fallback, through this process's vocabulary)."""
    out: dict[int, np.ndarray] = {}
    for line, key in zip(text.splitlines(), line_keys(text)):
        h = line_hash(key)
        if h in wanted and h not in out:
            out[h] = text_votes(line, fold(line), settings, fallback=False)
    return out


def line_votes_of(
    texts: Texts, items: list[tuple[str, set[int]]], settings: FeatureSettings
) -> list[dict[int, np.ndarray]]:
    """line_votes of each (path, wanted hashes); nothing for a text that cannot be read any more."""
    out = []
    with texts.read_ahead([rel for rel, _ in items]) as ahead:
        for rel, wanted in items:
            text = texts.read_or_none(rel, ahead)
            out.append(line_votes(text, wanted, settings) if text is not None else {})
    return out
