"""Frozen records passed between the engine's modules and to its callers (CLI, window, tests)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter


@dataclass(frozen=True, slots=True)
class Document:
    """One indexed text file. `path` is relative to the scanned root, '/'-separated."""

    path: str
    size: int
    mtime_ns: int
    content_hash: str
    encoding: str
    chars: int
    fingerprint: int  # unsigned 64-bit SimHash
    line_hashes: bytes = b""  # boilerplate and notice candidates: sorted uint32 hashes of line keys (boilerplate.py)
    votes: bytes = b""  # SimHash's 64 tallies (fingerprint.pack_votes), so boilerplate can be subtracted later
    bands: bytes = b""  # MinHash band keys of its shingles (minhash.DESKTOP, uint32 each; empty: no shingles)

    def __reduce__(self) -> tuple[type[Document], tuple[object, ...]]:
        """Pickled as its fields in order, made again by its constructor: a scan's workers send every document
        back, and this pickles in ~2.2 us and loads in ~2.2 us against ~3.9 and ~3.3 us for a dataclass's state."""
        return (Document, _document_fields(self))


_document_fields = attrgetter(*(f.name for f in fields(Document)))


@dataclass(frozen=True, slots=True)
class Problem:
    """A file that could not be indexed, and why, in words an editor understands."""

    path: str
    error: str


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a scan stands. `total` is 0 while the folder is still being listed."""

    phase: str  # "listing", "reading", "saving"; verified: "boilerplate", "pairing", "verifying" (texts read),
    # "scoring" (candidate pairs scored); "done"
    done: int
    total: int
    elapsed: float
    current: str = ""

    @property
    def rate(self) -> float:
        """Files per second so far."""
        return self.done / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        """Seconds left at the current rate, or None when it cannot be told yet."""
        if self.total <= 0 or self.done <= 0 or self.rate <= 0:
            return None
        return max(self.total - self.done, 0) / self.rate


DEFAULT_INCLUDES = ("*.txt", "*.md", "*.markdown", "*.html", "*.htm", "*.xhtml")  # pages: visible text (markup.py)
MAX_FILE_BYTES = 20 * 1024 * 1024  # the size cap: larger files are reported, not read


@dataclass(frozen=True, slots=True)
class ScanOptions:
    """What a scan looks at. Plain values: the CLI and the window's settings both fill it."""

    includes: tuple[str, ...] = DEFAULT_INCLUDES
    max_bytes: int = MAX_FILE_BYTES
    jobs: int = 0  # 0: one worker process per core
    follow_symlinks: bool = True


@dataclass(frozen=True, slots=True)
class ScanStats:
    """What a scan did, counted."""

    listed: int = 0
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    moved: int = 0
    deleted: int = 0
    problems: int = 0
    cancelled: bool = False
    seconds: float = 0.0
    chars: int = 0


@dataclass(frozen=True, slots=True)
class Member:
    """A document as a member of a group: its Hamming distance to the group's representative."""

    doc_id: int
    path: str
    distance: int
    size: int
    encoding: str
    mtime_ns: int
    content_hash: str
    score: float | None = None  # verified similarity to the representative (fingerprint/similarity.py), when measured
    # the share of this member's text found in the representative's (what keeping the representative keeps of
    # it), and of the representative's text found in this member's; None when not measured (verify.Relation)
    held: float | None = None
    holds: float | None = None

    @property
    def similarity(self) -> float:
        """The fraction of the 64 fingerprint bits that agree with the representative."""
        return 1.0 - self.distance / 64


@dataclass(frozen=True, slots=True)
class Group:
    """Near-duplicates at one threshold. members[0] is the representative (closest to all others)."""

    id: int
    identical: bool
    members: tuple[Member, ...] = field(default_factory=tuple)

    @property
    def max_distance(self) -> int:
        return max((m.distance for m in self.members), default=0)

    @property
    def total_size(self) -> int:
        return sum(m.size for m in self.members)

    @property
    def copies(self) -> tuple[tuple[Member, ...], ...]:
        """The members as classes of identical copies (one content hash each; a class of one is a member with no
        copy in the group), in the order of their first member: what "N identical copies" stands for."""
        classes: dict[str, list[Member]] = {}
        for m in self.members:
            classes.setdefault(m.content_hash, []).append(m)
        return tuple(tuple(c) for c in classes.values())

    @property
    def identical_members(self) -> int:
        """How many members have an identical copy in the group: the files of its classes of two or more
        copies (`copies`), the sum of the "N identical copies" the members list shows."""
        counts: dict[str, int] = {}
        for m in self.members:
            counts[m.content_hash] = counts.get(m.content_hash, 0) + 1
        return sum(n for n in counts.values() if n > 1)


@dataclass(frozen=True, slots=True)
class Relation:
    """What verification finds of a pair of texts A and B: their similarity (`score`, the grouping gate) and
    how much of each text the other holds (`a_in_b`: the share of A's text found in B; `b_in_a` the other
    way), each 0..1. The shares are what a clean-up may rely on: a copy leaves only when the copy kept holds
    it. A quote found whole in an article is held by it (share 1.0) and holds little of it."""

    score: float
    a_in_b: float
    b_in_a: float

    def shares(self, swapped: bool = False) -> tuple[float, float]:
        """(share of A in B, share of B in A); with `swapped`, for the pair listed as (B, A)."""
        return (self.b_in_a, self.a_in_b) if swapped else (self.a_in_b, self.b_in_a)
