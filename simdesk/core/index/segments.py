"""The segment index's encoding: each fingerprint's four 16-bit blocks as entries of posting lists in the
`segments` table (the SQL of its triggers, which keep it exact on every write of a document), and what a
query probes (pigeonhole: a document within radius r is within r // 4 bits of the query in some block)."""

from __future__ import annotations

from itertools import combinations

import numpy as np

# The segment table's row of block k holds the documents whose block value shares its top 16 - SEGMENT_LOW_BITS
# bits; each entry keeps the low bits beside the document id. Fewer, longer rows: 19.5 B a document at 20,000
# documents with 4 low bits, 23.3 with 3, 36.2 with none, against 43.2 for four expression indexes; 3 keeps room
# for 17.6 M document ids (MAX_DOCUMENT_ID) and rows of ~500 B at a million documents.
SEGMENT_LOW_BITS = 3

# Documents that many others may share a fingerprint with are not in the segment table: each insert of one
# rewrote rows holding all the others (20,000 copies of 3 pages: 15 s of the scan's 65, quadratic). They are
# the texts without features (whitespace alone: fingerprint 0, all of them) and the identical copies of a
# document indexed before them (Index.upsert_documents); a partial index holds them alone (no byte for any
# other document, a B-tree insert each) and near() compares them one by one.
UNSEGMENTED = "fingerprint = 0 OR unsegmented"
UNSEGMENTED_SQL = f"CREATE INDEX IF NOT EXISTS documents_unsegmented ON documents(fingerprint) WHERE {UNSEGMENTED}"


def _segment_key(k: int, fingerprint: str) -> str:
    """The SQL expression of the segment key of block k (bits 16k..16k+15) of a stored fingerprint: k and the
    block's top 16 - SEGMENT_LOW_BITS bits. Index.near() computes the same keys in Python (segment_values)."""
    high = 16 - SEGMENT_LOW_BITS
    return f"({k << high} | (({fingerprint} >> {16 * k + SEGMENT_LOW_BITS}) & {(1 << high) - 1}))"


def _segment_entry(k: int, doc_id: str, fingerprint: str) -> str:
    """The SQL expression of a document's entry in the posting list of block k: the number x = id << LOW_BITS |
    the block's low bits, as two characters, char(first(x // 127), 1 + x % 127), where first skips the surrogates.
    The first character is never ASCII and the second always is, so every entry is exactly two characters, a
    list is their concatenation in any order, and replace() of an entry's two characters removes that entry and
    nothing else (UTF-8 matches only whole characters). 3 bytes for x < 243,840, 4 below 8.05 M, 5 above; x must
    stay below 141 M (ids below 17.6 M: the insert trigger refuses more)."""
    x = f"(({doc_id} << {SEGMENT_LOW_BITS}) | (({fingerprint} >> {16 * k}) & {(1 << SEGMENT_LOW_BITS) - 1}))"
    return f"char(CASE WHEN {x} / 127 < 55168 THEN 128 + {x} / 127 ELSE 2176 + {x} / 127 END, 1 + {x} % 127)"


MAX_DOCUMENT_ID = (1_111_936 * 127) >> SEGMENT_LOW_BITS  # what _segment_entry can hold


def segment_ids(docs: str) -> np.ndarray:
    """The numbers x (id << SEGMENT_LOW_BITS | low bits) of a posting list written by _segment_entry."""
    pairs = np.frombuffer(docs.encode("utf-32-le"), dtype="<u4").reshape(-1, 2).astype(np.int64)
    first = pairs[:, 0]
    return np.where(first < 0xD800, first - 128, first - 2176) * 127 + pairs[:, 1] - 1


def _segments_added(row: str) -> str:
    """The SQL statement that adds the entries of trigger row `row` ('new') to the segment table, unless the
    partial index UNSEGMENTED_SQL holds the document."""
    fp, doc_id = f"{row}.fingerprint", f"{row}.id"
    values = ", ".join(f"({_segment_key(k, fp)}, {_segment_entry(k, doc_id, fp)})" for k in range(4))
    return (
        f"INSERT INTO segments(key, docs) SELECT column1, column2 FROM (VALUES {values}) "
        f"WHERE NOT ({fp} = 0 OR {row}.unsegmented) "  # UNSEGMENTED
        "ON CONFLICT(key) DO UPDATE SET docs = docs || excluded.docs;"
    )


def _segments_removed(row: str) -> str:
    """The SQL statements that take the entries of trigger row `row` ('old') out of the segment table (and the
    rows they leave empty)."""
    fp, doc_id = f"{row}.fingerprint", f"{row}.id"
    updates = "".join(
        f"UPDATE segments SET docs = replace(docs, {_segment_entry(k, doc_id, fp)}, '') "
        f"WHERE key = {_segment_key(k, fp)}; "
        for k in range(4)
    )
    keys = ", ".join(_segment_key(k, fp) for k in range(4))
    return updates + f"DELETE FROM segments WHERE key IN ({keys}) AND docs = '';"


# The segment index is kept by triggers, so every write of a document (a scan, a migration, the restore of
# decisions, another SQLite client) keeps it exact. Posting lists instead of four expression indexes on the
# fingerprint's blocks: 45.9 -> 17.4 B a document at 200,000 documents (dbstat, 2026-11-24); writing 200,000
# documents took 6.1 s of CPU instead of 8.9 (a trigger appends to four short rows where four b-trees took a
# random insert each).
SEGMENT_SQL = (
    f"""CREATE TRIGGER IF NOT EXISTS segments_add AFTER INSERT ON documents
    BEGIN
        SELECT RAISE(ABORT, 'the index holds more documents than it can, {MAX_DOCUMENT_ID:,}')
            WHERE new.id >= {MAX_DOCUMENT_ID};
        {_segments_added("new")}
    END""",
    f"""CREATE TRIGGER IF NOT EXISTS segments_remove AFTER DELETE ON documents
    BEGIN
        {_segments_removed("old")}
    END""",
    f"""CREATE TRIGGER IF NOT EXISTS segments_move AFTER UPDATE OF fingerprint, unsegmented ON documents
        WHEN old.fingerprint != new.fingerprint OR old.unsegmented != new.unsegmented
    BEGIN
        {_segments_removed("old")}
        {_segments_added("new")}
    END""",
)
SEGMENT_TRIGGERS = ("segments_add", "segments_remove", "segments_move")  # the names SEGMENT_SQL creates
# Every document's entries at once (a migration, a bulk write: the triggers keep them from then on).
SEGMENTS_FROM_DOCUMENTS = "INSERT INTO segments(key, docs) " + " UNION ALL ".join(
    f"SELECT {_segment_key(k, 'fingerprint')} AS key, group_concat({_segment_entry(k, 'id', 'fingerprint')}, '') "
    f"FROM documents WHERE NOT ({UNSEGMENTED}) GROUP BY key"
    for k in range(4)
)


def blocks_of(fp: int) -> tuple[int, int, int, int]:
    return tuple((fp >> (16 * k)) & 0xFFFF for k in range(4))  # type: ignore[return-value]


def segment_values(fingerprint: int, bits: int) -> np.ndarray:
    """k << 16 | v for every block k of `fingerprint` and every value v within `bits` bits of it (sorted): a
    segment row's key is such a value >> SEGMENT_LOW_BITS, and its entry's low bits complete it."""
    return np.unique(
        np.array(
            [(k << 16) | v for k, value in enumerate(blocks_of(fingerprint)) for v in _within_bits(value, bits)],
            dtype=np.int64,
        )
    )


def _within_bits(value: int, bits: int) -> list[int]:
    """Every 16-bit value that differs from `value` in at most `bits` bits."""
    out = []
    for k in range(bits + 1):
        for positions in combinations(range(16), k):
            mask = 0
            for p in positions:
                mask |= 1 << p
            out.append(value ^ mask)
    return out
