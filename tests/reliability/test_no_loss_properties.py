"""Property: whatever an editor does, in whatever order (scan, mark copies to keep, clean up from a fresh or
a stale review, edit or copy files, add symbolic links, undo), no file's content is ever lost and no file is
ever overwritten. Random sequences drive the same core calls the window and `simdesk clean` make
(core.review). The texts are far apart, so every group is of exact copies, and after every step:
- a clean-up leaves in the folder every content that was there before it (it removes copies, never the last);
- each path's last written content is in its place or in the trash (under a temporary HOME);
- a file in its place holds exactly what was last written there (undo never overwrites)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings, strategies as st

from simdesk.core.cleanup.undo import undo_last_cleanup
from simdesk.core.index.store import Index
from simdesk.core.records import ScanOptions
from simdesk.core.review.review import ReviewSettings, open_review
from tests.folders import OTHER, POEM
from tests.reliability.test_no_file_lost import contents, trashed

TEXTS = [POEM, OTHER, "今天天气很好，我们去公园散步吧。看到了很多花和树，还有小朋友在玩耍。" * 8]
NAMES = ["a.txt", "b.txt", "sub/c.txt", "sub/d.txt", "e.txt"]
RULES = ["oldest", "newest", "largest", "shortest_path"]
PLAIN = ReviewSettings.from_options(threshold=3, scan=ScanOptions(jobs=1))

steps = st.lists(
    st.one_of(
        st.tuples(st.just("write"), st.sampled_from(NAMES), st.integers(0, len(TEXTS) - 1)),
        st.tuples(st.just("keep"), st.sampled_from(RULES), st.integers(0, 3)),
        st.tuples(st.just("clean"), st.sampled_from(["fresh", "stale"]), st.just(0)),
        st.tuples(st.just("link"), st.sampled_from(NAMES), st.integers(0, len(NAMES) - 1)),
        st.tuples(st.just("undo"), st.just(""), st.just(0)),
    ),
    min_size=1,
    max_size=10,
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps)
# the kept copy rewritten after the review: its group must be left alone
@example(
    [
        ("keep", "shortest_path", 0),
        ("keep", "shortest_path", 1),
        ("write", "a.txt", 2),
        ("write", "b.txt", 2),
        ("clean", "stale", 0),
        ("undo", "", 0),
    ]
)
# a symbolic link beside the only real file: never a second copy
@example(
    [
        ("write", "sub/c.txt", 2),
        ("link", "e.txt", 2),
        ("keep", "shortest_path", 0),
        ("keep", "shortest_path", 1),
        ("clean", "fresh", 0),
        ("undo", "", 0),
    ]
)
def test_no_sequence_of_actions_loses_or_overwrites_a_file(trash_home, sequence):
    base = Path(tempfile.mkdtemp(prefix="simdesk-property-"))
    trash = trash_home / ".local" / "share" / "Trash"
    shutil.rmtree(trash, ignore_errors=True)
    try:
        root, log = base / "docs", base / "actions.jsonl"
        (root / "sub").mkdir(parents=True)
        last: dict[str, bytes] = {}  # what the editor last wrote at each path

        def write(name: str, k: int) -> None:
            data = TEXTS[k].encode("utf-8")
            (root / name).unlink(missing_ok=True)  # a new file (never written through a link)
            (root / name).write_bytes(data)
            last[name] = data

        for k, name in enumerate(NAMES[:4]):
            write(name, k % 2)  # two pairs of copies to begin with
        with Index(base / "i.sqlite") as index:
            review = open_review(root, index, PLAIN)
            for op, arg, k in sequence:
                if op == "write":
                    write(arg, k)
                elif op == "keep":
                    review = open_review(root, index, PLAIN)
                    groups = list(review.grouping())
                    if groups:
                        review.keep_by_rule(groups[k % len(groups)], arg)
                        review.decisions.save()
                elif op == "link":  # a name that leads to another file, as editors make for "latest"
                    target = NAMES[k]
                    if target != arg and (root / target).is_file() and not (root / target).is_symlink():
                        (root / arg).unlink(missing_ok=True)
                        (root / arg).symlink_to(root / target)
                        last.pop(arg, None)
                elif op == "clean":
                    if arg == "fresh":  # otherwise the review on screen, however old
                        review = open_review(root, index, PLAIN)
                    kept = set(contents(root).values())
                    review.clean_up(review.plan_cleanup(), "trash", log=log)
                    assert set(contents(root).values()) == kept, "a clean-up removed the last copy of a content"
                else:
                    undo_last_cleanup(log) if log.exists() else None
                here, bin_ = contents(root), list(trashed(trash_home).values())
                for path, data in last.items():
                    assert here.get(path, data) == data, f"{path} was overwritten after {op}"
                    assert path in here or data in bin_, f"{path} is lost after {op}"
            review.decisions.close()
    finally:
        shutil.rmtree(base, ignore_errors=True)
