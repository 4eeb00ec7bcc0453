"""Whether a text is short is stored by verification, so a clean-up plan reads no file: the fates of a review
whose files are gone since the scan are those of the review that could read them. An index written before the
flag was stored opens with the column added and falls back to reading the texts, with the same fates; a text
changed since is measured again. Real folders, real index files, the default (verified) settings.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from simdesk.core import Index, ReviewSettings, ScanOptions, open_review
from simdesk.core.index.layout import RAW_DDL
from simdesk.core.matching.analysis import stored_short_texts
from simdesk.core.matching.reread import SHORT_BYTES, profile_and_short, short_document, short_text
from simdesk.core.reading.boilerplate import line_hash, line_keys
from tests.core.test_short_removal import LONG, LONG_TYPO, SAYING, TWIN

TEXTS = {
    "a.txt": SAYING,
    "a-half.txt": "好鼓一打就响,好灯一拨就亮.\n",  # the saying's words, other punctuation
    "b.txt": TWIN,  # a character apart from the saying
    "b-copy.txt": TWIN,  # an identical copy: verification reads its representative only
    "long.txt": LONG,
    "long-typo.txt": LONG_TYPO,
}
KEPT = ("b.txt", "long.txt")


def folder(tmp_path: Path) -> Path:
    root = tmp_path / "folder"
    root.mkdir()
    for name, text in TEXTS.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def fates(root: Path, db: Path, rescan: bool = False) -> dict[str, tuple[str, str]]:
    """path -> (fate, why) of every member with KEPT kept, from a new review of the index at `db`."""
    with Index(db) as index:
        review = open_review(root, index, ReviewSettings(scan=ScanOptions(jobs=1)), rescan=rescan)
    for group in review.grouping():
        kept = [m.path for m in group.members if m.path in KEPT]
        review.decisions.keep_only(group, kept[0])
    return {f.path: (f.fate, f.why) for _, f in review.plan_cleanup().fates}


def stored_flags(db: Path) -> dict[str, int | None]:
    conn = sqlite3.connect(db)
    try:
        return dict(conn.execute("SELECT path, short FROM documents"))
    finally:
        conn.close()


def test_a_plan_reads_no_file_verification_stored_whether_each_text_is_short(tmp_path):
    root, db = folder(tmp_path), tmp_path / "index.sqlite"
    seen = fates(root, db, rescan=True)
    assert seen == {
        "b.txt": ("keep", "kept"),
        "b-copy.txt": ("goes", "held"),
        "a-half.txt": ("stays", "words"),  # a short text a character apart from the copy kept
        "a.txt": ("goes", "same"),  # the same words as a-half.txt, which stays
        "long.txt": ("keep", "kept"),
        "long-typo.txt": ("goes", "held"),  # a long text with a typo
    }
    # stored for every text verification read: of two identical copies, their representative's stands for both
    flags = stored_flags(db)
    assert {flags.pop("b.txt"), flags.pop("b-copy.txt")} == {1, None}
    assert flags == {"a.txt": 1, "a-half.txt": 1, "long.txt": 0, "long-typo.txt": 0}
    shutil.rmtree(root)
    root.mkdir()  # every file gone since the scan: nothing can be read
    assert fates(root, db) == seen
    # what the plan says when it has to read them (as before the flags were stored): unreadable texts count
    # as short, so the long text's typo'd copy would stay: the plan above read no file
    conn = sqlite3.connect(db)
    conn.execute("UPDATE documents SET short = NULL")
    conn.commit()
    conn.close()
    assert fates(root, db)["long-typo.txt"] == ("stays", "words")


def as_written_before_the_flag(db: Path) -> None:
    """The index as a version of simdesk that stored no short flag wrote it: no column, the trigger without it."""
    (trigger,) = [s for s in RAW_DDL if "documents_content_changed" in s]
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER documents_content_changed")
    conn.execute("ALTER TABLE documents DROP COLUMN short")
    conn.execute(trigger.replace(", short = NULL", ""))
    conn.commit()
    conn.close()


def test_an_index_without_the_stored_flag_falls_back_to_reading_the_texts(tmp_path):
    root, db = folder(tmp_path), tmp_path / "index.sqlite"
    seen = fates(root, db, rescan=True)
    as_written_before_the_flag(db)
    with Index(db) as index:  # opened: the column is added, nothing stored in it
        assert not index.rebuilt and len(index.short_texts(SHORT_BYTES)[0]) == 0
    assert fates(root, db, rescan=True) == seen  # the pairs kept, the texts read for the plan
    assert set(stored_flags(db).values()) == {None}  # nothing verified again
    shutil.rmtree(root)
    root.mkdir()
    assert fates(root, db)["long-typo.txt"] == ("stays", "words")  # read: unreadable now, so it counts as short


def test_a_changed_text_is_measured_again(tmp_path):
    root, db = folder(tmp_path), tmp_path / "index.sqlite"
    fates(root, db, rescan=True)
    (root / "long-typo.txt").write_text("好鼓一打就响，好灯一拨就明。\n", encoding="utf-8")  # a saying now
    (root / "a-half.txt").write_text(LONG.replace("费时", "费事"), encoding="utf-8")
    fates(root, db, rescan=True)
    flags = stored_flags(db)
    assert flags["long-typo.txt"] == 1 and flags["a-half.txt"] == 0  # read again by verification
    with Index(db) as index:
        snap = index.snapshot()
        stored = stored_short_texts(index, snap, index.clean_boilerplate())
        assert stored is not None and stored[snap.paths.index("long-typo.txt")] == 1
        # groups shown without another boilerplate than the flags were measured without: none is taken
        assert stored_short_texts(index, snap, index.clean_boilerplate() | {12345}) is None
        index.store_short_texts([(1, True)])
        index.set_clean_fingerprints([(1, None)], index.clean_boilerplate())  # its boilerplate changed
        assert 1 not in index.short_texts(SHORT_BYTES)[0].tolist()


def test_one_rule_decides_from_what_was_stored_and_reads_only_without_it():
    reads: list[str] = []

    def read_now() -> bool:
        reads.append("read")
        return True

    assert short_document(SHORT_BYTES + 1, None, read_now) is False  # a larger file never is short
    assert short_document(100, False, read_now) is False and short_document(100, True, read_now) is True
    assert reads == []
    assert short_document(100, None, read_now) is True and reads == ["read"]  # nothing stored: read now
    attribution = frozenset(line_hash(k) for k in line_keys("--《谚语》"))
    over = SAYING + "    --《谚语》\n" * (SHORT_BYTES // 10)  # short without the lines, over SHORT_BYTES with them
    assert len(over) > SHORT_BYTES
    for text in (
        *TEXTS.values(),
        SAYING + "    --《谚语》\n",
        "Your temporary embarrassment will be relieved.",
        "",
        over,
    ):
        assert profile_and_short(text, attribution)[1] == short_text(text, attribution)  # verification's measure
    assert not short_text(over, attribution)  # never short: its file holds more than SHORT_BYTES bytes
    assert profile_and_short(None, attribution)[1] is None  # unreadable: nothing stored, read when asked
