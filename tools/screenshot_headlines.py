"""The window at 20,000 documents with titles, dates and sources (docs/window-20k-headlines-*.png), offscreen:

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tools.screenshot_headlines docs/ [COLLECTION [INDEX]]

COLLECTION defaults to the medium collection (bench.corpus, seed 3) made in a temporary folder; INDEX, an
index of it made before (`simdesk scan COLLECTION --db INDEX`), saves the first scan. Before the shot the
groups of the repost notice "转载请注明出处" are decided by a rule (the counter shows them), and a group whose
copies carry a repost header is compared.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from bench.corpus import build
from simdesk.core import index_path
from simdesk.gui.app import make_window
from simdesk.gui.settings import Settings
from tools.screenshots import save_and_close, start_app, wait_for


def shoot(app: QApplication, out: Path, root: Path, language: str, work: Path) -> None:
    settings = Settings.at(work / f"settings-{language}.ini")
    settings.set("ui/language", language)
    window = make_window(settings, work / "data")
    window.resize(1400, 850)  # the groups list shows Similarity and Status, then the titles
    window.show()
    read: list[float] = []
    shown: list[float] = []
    window.headlines_done.connect(lambda: read.append(time.perf_counter()))
    window.groups_shown.connect(lambda: shown.append(time.perf_counter()))
    started = time.perf_counter()
    window.open_folder(root)
    wait_for(window.review_ready)
    ready = time.perf_counter()
    if not read or read[-1] < ready - 0.5:
        wait_for(window.headlines_done)
    print(
        f"{out.name}: groups shown {shown[0] - started:.1f} s after opening, the rescan done at "
        f"{ready - started:.1f} s, every member's title, date and source read at {read[-1] - started:.1f} s"
    )
    window.filter_edit.setText("转载请注明")
    window.groups_view.clearSelection()
    window.review_actions.keep_by_rule_everywhere("oldest")
    wait_for(window.reviewed)
    window.filter_edit.setText("")
    wait_for(window.reviewed, 5)
    model, headlines = window.groups_model, window.review.headlines
    # a group whose representative has no repost header and a member that has one (转自…)
    row, member = next(
        (r, n)
        for r in range(model.rowCount())
        for n, m in enumerate(model.group_at(r).members)
        if n > 0 and headlines.of(m).source.startswith("转自") and not headlines.of(model.group_at(r).members[0]).source
    )
    window.review_page.setSizes([800, 600])
    window.groups_view.horizontalHeader().resizeSection(0, 250)
    window.selection.show_group_row(row)
    window.selection.select_members([window.members_model.index(member, 0)])
    wait_for(window.diff_shown)
    save_and_close(app, window, out, f"{window.reviewed_label.text()}; {window.diff_view.summary.text()}")


def main(argv: list[str]) -> int:
    docs = Path(argv[1] if len(argv) > 1 else "docs")
    app = start_app()
    work = Path(tempfile.mkdtemp(prefix="simdesk-screenshots-"))
    try:
        root = Path(argv[2]) if len(argv) > 2 else work / "medium"
        if len(argv) <= 2:
            build(root, "medium", 3)
        if len(argv) > 3:  # an index made before: no first scan
            target = index_path(root.resolve(), work / "data")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(argv[3], target)
        docs.mkdir(parents=True, exist_ok=True)
        shoot(app, docs / "window-20k-headlines-en.png", root, "en", work)
        shoot(app, docs / "window-20k-headlines-zh_CN.png", root, "zh_CN", work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
