"""Start-up: the QApplication, its translations, the main window; and the --screenshot mode for docs/checks.

run_app("articles")                                   # the window on a folder
run_app("articles", screenshot="docs/screenshot.png")  # scan, show the largest group's diff, save, exit
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from simdesk.core import ReviewProcess, data_dir as user_data_dir
from simdesk.gui import refcount_guard
from simdesk.gui.settings import Settings
from simdesk.gui.translations import install_language

SCREENSHOT_TIMEOUT_MS = 15 * 60 * 1000
SCREENSHOT_SIZE = (1500, 900)


def preload_native_segmenter() -> None:
    """Import rjieba now, before the window shows: its constructor builds the dictionary in Rust while
    holding the GIL (0.15-0.25 s), which in the middle of a scan's analysis would freeze the event loop."""
    try:
        import rjieba  # noqa: F401
    except ImportError:
        pass


def make_window(settings: Settings, data_dir: Path, demo: Callable[[], Path] | None = None):
    """The main window with the language of `settings` installed (the tests' entry point too)."""
    from simdesk.gui.main_window import MainWindow

    app = QApplication.instance()
    assert app is not None, "create a QApplication first"
    install_language(app, settings.get("ui/language"))
    window = MainWindow(settings, data_dir, demo)
    window.language_changed.connect(lambda setting: install_language(app, setting))
    # what is loaded by now (modules, Qt's wrappers, the segmenter's tables: ~94,000 objects) is never
    # traversed by Python's collector again: each full collection held the GUI thread 50-165 ms (load ~5)
    gc.collect()  # garbage of before (a window closed) is not kept for ever
    gc.freeze()
    return window


def largest_group_row(model, look_at: int = 500) -> int:
    """The row of the largest group (the model lists the largest first); among groups of that size, the one
    whose first two members most likely differ in text (different bytes in the same encoding, then the larger
    distance), so that the picture shows highlighted changes rather than two identical copies."""
    largest = len(model.group_at(0).members)
    best, best_score = 0, -1
    for row in range(min(model.rowCount(), look_at)):
        if len(model.group_at(row).members) < largest:
            break
        first, second = model.group_at(row).members[:2]
        score = (
            -2
            if first.content_hash == second.content_hash
            else (second.distance + 1 if first.encoding == second.encoding else -1)
        )
        if score > best_score:
            best, best_score = row, score
    return best


SCREENSHOT_WAIT_S = 120  # the most a screenshot waits for the titles it shows to be read


def headlines_shown(window) -> bool:
    """Whether the title, date and source of every row on screen (the groups in view, the members listed)
    are read."""
    review = window.review
    if review is None:
        return True
    view, model = window.groups_view, window.groups_model
    first = max(view.rowAt(0), 0)
    last = view.rowAt(view.viewport().height() - 1)
    last = model.rowCount() - 1 if last < 0 else last
    members = [model.group_at(r).members[0] for r in range(first, last + 1)]
    listed = window.members_model  # a folded class of identical copies shows its first file only
    members += [m for r in range(listed.rowCount()) if (m := listed.member_at(r)) is not None]
    return not review.headlines.missing(members)


def take_screenshot(window, out: Path, on_exit: Callable[[int], None]) -> None:
    """When the scan has finished: select the largest group and its first two members, wait for the diff
    and for the titles, dates and sources on screen (at most SCREENSHOT_WAIT_S), save a PNG of the whole
    window and call on_exit(0) (1 if the scan failed or nothing could be shown)."""
    deadline = 0.0

    def ready() -> None:
        nonlocal deadline
        model = window.groups_model
        if model.rowCount() == 0:
            save()  # nothing to compare: still a picture of the window as it is
            return
        window.selection.show_group_row(largest_group_row(model))  # its members listed below it
        deadline = time.monotonic() + SCREENSHOT_WAIT_S
        window.diff_shown.connect(lambda: QTimer.singleShot(300, window, when_read))
        window.selection.select_members([window.members_model.index(0, 0), window.members_model.index(1, 0)])

    def when_read() -> None:
        if headlines_shown(window) or time.monotonic() > deadline:
            QTimer.singleShot(100, window, save)  # the lists repaint first
        else:
            QTimer.singleShot(200, window, when_read)

    def save() -> None:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            ok = window.grab().save(str(out), "PNG")
        except OSError:
            ok = False
        if not ok:
            print(f"simdesk: error: the screenshot could not be saved to {out}", file=sys.stderr)
        on_exit(0 if ok else 1)

    window.review_ready.connect(ready)
    window.failed.connect(lambda message: on_exit(1))


def run_app(
    folder: str | None,
    screenshot: str | None = None,
    demo: Callable[[], Path] | None = None,
    settings: Settings | None = None,
    data_dir: Path | None = None,
) -> int:
    """Open the window (on `folder`, else the welcome page offering the demo and recent folders) and run
    the event loop; return the exit code. With `screenshot`, see take_screenshot."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    refcount_guard.install()
    app.setApplicationName("simdesk")
    app.setOrganizationName("simdesk")
    settings = settings or Settings.user()
    preload_native_segmenter()
    ReviewProcess.prepare()  # the scans' fork server loads the engine (~1 s of CPU) while the window opens
    window = make_window(settings, data_dir or user_data_dir(), demo)
    if screenshot is not None:
        window.resize(*SCREENSHOT_SIZE)
        code = {"value": 1}

        def finish(value: int) -> None:
            code["value"] = value
            window.close()
            app.exit(value)

        take_screenshot(window, Path(screenshot), finish)
        QTimer.singleShot(SCREENSHOT_TIMEOUT_MS, lambda: finish(1))
        target = folder or (str(demo()) if demo is not None else None)
        if target is None:
            return 2
        window.show()
        QTimer.singleShot(0, lambda: window.open_folder(target))
        app.exec()
        return code["value"]
    window.show()
    if folder is not None:
        QTimer.singleShot(0, lambda: window.open_folder(folder))
    return app.exec()
