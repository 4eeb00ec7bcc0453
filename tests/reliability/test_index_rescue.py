"""A damaged index: the command line says so in one line naming what a rebuild carries over, and the window
shows it in a dialog whose Rebuild moves the damaged file aside and builds a new index that keeps the editor's
decisions still readable in it. A real index file, damaged on disk."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from simdesk.core import Index, ReviewSettings, open_review
from simdesk.core.index.rescue import readable_decisions, rebuild_index
from simdesk.core.paths import index_path
from simdesk.gui.index_problem import DIALOG_NAME
from tests.folders import small_folder
from tests.reliability.conftest import scan_args, simdesk


def decided_then_damaged(root: Path, db: Path) -> None:
    """Scan `root` into `db`, keep poem.txt, queue snow.txt, mark the pair not duplicates; then overwrite the
    index's metadata page (page 2) as a disk fault would."""
    db.parent.mkdir(parents=True, exist_ok=True)
    with Index(db) as index:
        review = open_review(root, index, ReviewSettings(min_similarity=0, threshold=3))
        review.decisions.set_keep("poem.txt")
        review.decisions.set_queued("snow.txt")
        review.decisions.mark_not_duplicates("poem.txt", "snow.txt")
        review.decisions.save()
        review.decisions.close()
    with open(db, "r+b") as fh:
        fh.seek(4096)
        fh.write(b"\xff" * 4096)


def test_a_damaged_index_is_one_line_and_its_rebuild_keeps_the_decisions(tmp_path):
    root = small_folder(tmp_path)
    db = tmp_path / "i.sqlite"
    decided_then_damaged(root, db)
    proc = simdesk(*scan_args(root, db))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    line = proc.stderr.strip().splitlines()[-1]
    assert line.startswith(f"simdesk: error: the index {db} is damaged") and "decisions" in line
    rescue = readable_decisions(db)
    assert (rescue.keep, rescue.queued, rescue.ignored, rescue.unreadable) == (
        ["poem.txt"],
        ["snow.txt"],
        [("poem.txt", "snow.txt")],
        [],
    )
    aside, _ = rebuild_index(db)
    assert aside.exists() and aside.name.startswith("i.sqlite.damaged-")
    with Index(db) as index:
        review = open_review(root, index, ReviewSettings(min_similarity=0, threshold=3))
        assert review.decisions.keep == {"poem.txt"} and review.decisions.queued == {"snow.txt"}
        review.decisions.close()


def test_the_window_offers_the_rebuild_and_says_what_carries_over(qtbot, window, data_dir, tmp_path):
    root = small_folder(tmp_path)
    db = index_path(root.resolve(), data_dir)
    decided_then_damaged(root, db)
    window.open_folder(root)
    box = None

    def dialog_shown() -> None:
        nonlocal box
        box = window.findChild(QMessageBox, DIALOG_NAME)
        assert box is not None and box.isVisible()

    qtbot.waitUntil(dialog_shown, timeout=60_000)
    assert "is damaged" in box.text()
    assert "1 keep marks, 1 copies queued for the trash, 1 'not duplicates' pairs" in box.informativeText()
    with qtbot.waitSignal(window.review_ready, timeout=60_000):
        box.findChild(type(box.buttons()[0]), "rebuild").click()
    assert window.review is not None and window.review.decisions.keep == {"poem.txt"}
    assert any(p.name.startswith(db.name + ".damaged-") for p in db.parent.iterdir())


def test_simdesk_gui_on_a_damaged_index_says_so_in_one_line(tmp_path):
    root = small_folder(tmp_path)
    share = tmp_path / "home" / "share"
    decided_then_damaged(root, index_path(root.resolve(), share / "simdesk"))
    env = {
        **os.environ,
        "HOME": str(tmp_path / "home"),
        "XDG_DATA_HOME": str(share),
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "home" / "config"),
    }
    proc = simdesk("gui", root, "--screenshot", tmp_path / "shot.png", env=env)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    said = [line for line in proc.stderr.splitlines() if line.startswith("simdesk")]
    assert len(said) == 1 and said[0].startswith("simdesk: error: the index ") and "is damaged" in said[0], said
