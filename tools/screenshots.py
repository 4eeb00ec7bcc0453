"""The window's screenshots in docs/: a re-flowed repost compared as normalised and raw, an edited pair in a
dark theme and in Chinese, a 1 MB pair. Each is taken offscreen on a collection made here:

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tools.screenshots docs/ [MEDIUM [INDEX]]

- the small test collection (bench.corpus, seed 7) with a re-flowed repost of one of its articles: the
  same text wrapped at another width, with half-width commas and a repost notice that twelve documents of
  the collection carry (so the scan finds it to be boilerplate);
- the medium collection (bench.corpus, seed 3: 20,000 documents) in a dark theme, English and Chinese;
- a 1 MB pair made from the medium collection's texts by bench.gui_bench.one_megabyte_pair.

MEDIUM: the medium collection made before (else made here); INDEX, an index of it made before (`simdesk scan
MEDIUM --db INDEX`), saves its first scan. The window is 1,400 x 850: the size at which the groups list
shows its Similarity and Status columns without scrolling.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import textwrap
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from bench.corpus import build
from bench.gui_bench import one_megabyte_pair
from simdesk.core import index_path
from simdesk.gui import refcount_guard
from simdesk.gui.app import make_window, preload_native_segmenter
from simdesk.gui.settings import Settings
from tests.gui.window_driver import member_index

NOTICE = "本文转载自新华网，版权归原作者所有，如有侵权请联系删除。"
SIZE = (1400, 850)


def wait_for(signal, timeout_s: float = 600) -> None:
    loop = QEventLoop()
    signal.connect(loop.quit)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()
    signal.disconnect(loop.quit)


def dark_palette() -> QPalette:
    p = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#2d2d30",
        QPalette.ColorRole.WindowText: "#e8e8e8",
        QPalette.ColorRole.Base: "#1e1e1e",
        QPalette.ColorRole.AlternateBase: "#262626",
        QPalette.ColorRole.Text: "#e8e8e8",
        QPalette.ColorRole.Button: "#3a3a3d",
        QPalette.ColorRole.ButtonText: "#e8e8e8",
        QPalette.ColorRole.Highlight: "#2f65ca",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.ToolTipBase: "#3a3a3d",
        QPalette.ColorRole.ToolTipText: "#e8e8e8",
        QPalette.ColorRole.PlaceholderText: "#9a9a9a",
    }
    for role, colour in roles.items():
        p.setColor(role, QColor(colour))
    return p


def utf8(path: Path) -> bool:
    try:
        path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return False
    return True


def chinese_article(text: str) -> bool:
    """Mostly Chinese prose: many commas, few Latin letters."""
    latin = sum(ch.isascii() and ch.isalpha() for ch in text)
    return text.count("，") > 10 and latin < 0.02 * len(text)


def reflowed_collection(work: Path) -> tuple[Path, str, str]:
    """The small collection plus a re-flowed repost of its longest Chinese article; the pair's paths."""
    root = work / "articles"
    build(root, "small", 7)
    texts = sorted((p for p in root.rglob("*.txt") if utf8(p)), key=lambda p: p.stat().st_size)
    original = next(p for p in reversed(texts) if chinese_article(p.read_text("utf-8")))
    text = original.read_text(encoding="utf-8")
    flat = " ".join(text.split())
    repost = NOTICE + "\n" + "\n".join(textwrap.wrap(flat, 29, break_on_hyphens=False)).replace("，", ",") + "\n"
    (root / "转载").mkdir(exist_ok=True)
    copy = root / "转载" / f"{original.stem}（重排转载）.txt"
    copy.write_text(repost, encoding="utf-8")
    for other in texts[:11]:  # the notice is boilerplate of this collection: a dozen documents carry it
        other.write_text(other.read_text(encoding="utf-8") + "\n" + NOTICE + "\n", encoding="utf-8")
    return root, str(original.relative_to(root)), str(copy.relative_to(root))


def shoot(
    app: QApplication,
    out: Path,
    folder: Path,
    pair: tuple[str | None, str] | None,
    language: str,
    dark: bool,
    mode: str,
    work: Path,
    workers: int = 1,
) -> None:
    """Open `folder` in a window (language, palette, diff mode), compare `pair` (None: the first group
    with an edit; a first path of None: the second one against its group's first document), save a PNG."""
    settings = Settings.at(work / f"settings-{out.stem}.ini")
    settings.set("ui/language", language)
    settings.set("ui/diff_mode", mode)
    settings.set("scan/workers", workers)
    app.setPalette(dark_palette() if dark else app.style().standardPalette())
    window = make_window(settings, work / "data")
    window.resize(*SIZE)
    window.show()
    read: list[float] = []
    window.headlines_done.connect(lambda: read.append(time.perf_counter()))
    window.open_folder(folder)
    wait_for(window.review_ready)
    window.set_threshold(12)
    if not read or read[-1] < time.perf_counter() - 0.5:  # every member's title, date and source shown
        wait_for(window.headlines_done)
    if pair is None:  # a member edited from its group's first document (verified between 80% and 98%)
        model = window.groups_model
        for r in range(model.rowCount()):
            group = model.group_at(r)
            edited = [m for m in group.members[1:] if m.score is not None and 0.8 <= m.score <= 0.98]
            if edited and group.members[0].size > 300:
                pair = (None, edited[0].path)
                break
    assert pair is not None
    window.selection.select_members([member_index(window, p) for p in pair if p is not None])
    wait_for(window.diff_shown)
    view = window.diff_view
    deadline = time.perf_counter() + 10
    while view.result.rough.intersection(view.left.visible_range()) and time.perf_counter() < deadline:
        app.processEvents()  # the changes inside the rows in view, found off the GUI thread
        time.sleep(0.01)
    save_and_close(app, window, out, view.summary.text())


def save_and_close(app: QApplication, window, out: Path, shown: str) -> None:
    """Let the window paint, save it as `out`, say what it shows, close it."""
    for _ in range(5):
        app.processEvents()
    out.parent.mkdir(parents=True, exist_ok=True)
    window.grab().save(str(out), "PNG")
    print(f"{out}: {shown}")
    window.close()
    window.deleteLater()
    app.processEvents()


def start_app() -> QApplication:
    """The application as the screenshots show it: Fusion style, the segmenter loaded."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setStyle("Fusion")  # the same look whatever the platform's style (and a palette it follows)
    refcount_guard.install()
    preload_native_segmenter()
    return app


def main(argv: list[str]) -> int:
    docs = Path(argv[1] if len(argv) > 1 else "docs")
    app = start_app()
    work = Path(tempfile.mkdtemp(prefix="simdesk-screenshots-"))
    try:
        root, original, copy = reflowed_collection(work)
        shoot(app, docs / "window-reflowed-normalised-en.png", root, (None, copy), "en", False, "normalised", work)
        shoot(app, docs / "window-reflowed-raw-zh_CN.png", root, (None, copy), "zh_CN", False, "raw", work)
        shoot(app, docs / "window-edited-dark-zh_CN.png", root, None, "zh_CN", True, "normalised", work)
        medium = Path(argv[2]) if len(argv) > 2 else work / "medium"
        if len(argv) <= 2:
            build(medium, "medium", 3)
        if len(argv) > 3:  # an index made before: no first scan
            target = index_path(medium.resolve(), work / "data")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(argv[3], target)
        # the window at 20,000 documents (~4,400 groups) in a dark theme, English and Chinese (the light theme's
        # are tools/screenshot_headlines.py's)
        for name, language, dark in (("dark-en", "en", True), ("dark-zh_CN", "zh_CN", True)):
            shoot(app, docs / f"window-20k-{name}.png", medium, None, language, dark, "normalised", work, workers=0)
        pair = one_megabyte_pair(medium, work / "pair")
        shoot(
            app, docs / "window-1mb-dark-en.png", pair, ("reference.txt", "edited.txt"), "en", True, "normalised", work
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
