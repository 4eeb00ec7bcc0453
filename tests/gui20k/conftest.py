"""The window on a generated 20,000-document collection (the project's medium collection, seed 3, plus a
1 MB text, an edited copy and a re-flowed copy of it): built and scanned once for the session, in a window
kept open across the tests. Marked `gui20k`: its own CI step (`./dev.sh test` runs it after the Spark
tests; `./dev.sh test-gui20k` alone)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any Qt import

import pytest
from PySide6.QtCore import QEventLoop, QTimer

from bench.corpus import build
from bench.gui_bench import one_megabyte_pair
from simdesk.core import Progress
from simdesk.gui.app import make_window
from simdesk.gui.settings import Settings
from tests.gui.conftest import refcount_guard  # noqa: F401  (the same guard as the window's tests)

SCAN_TIMEOUT_S = 900  # a first scan of 20,000 documents: ~20 s on 2 idle cores, minutes on a loaded machine
BIG = "big"  # the folder of the 1 MB text and its two copies


def wait_for(signal, timeout_s: float) -> None:
    """Run the event loop until `signal` (or the time is out)."""
    loop = QEventLoop()
    signal.connect(loop.quit)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()
    signal.disconnect(loop.quit)


@pytest.fixture(scope="session")
def collection20k(tmp_path_factory) -> Path:
    """20,000 generated documents (seed 3) and big/: reference.txt (~1 MB), edited.txt, reflowed.txt."""
    folder = tmp_path_factory.mktemp("c20k") / "medium"
    build(folder, "medium", seed=3)
    one_megabyte_pair(folder, folder / BIG)
    return folder


@dataclass
class FirstScan:
    """The session's window and what it showed during its first scan of the collection."""

    window: object
    folder: Path
    progress: list[Progress] = field(default_factory=list)
    shown_while_scanning: list[list[tuple[bool, frozenset[str]]]] = field(default_factory=list)


def window_settings(path: Path) -> Settings:
    settings = Settings.at(path)
    settings.set("ui/language", "en")  # every other setting the user's default (verified groups, a worker per core)
    return settings


@pytest.fixture(scope="session")
def first_scan(qapp, collection20k, tmp_path_factory) -> FirstScan:
    """A window opened on the collection, never indexed before, and left open once its scan ended."""
    work = tmp_path_factory.mktemp("window20k")
    window = make_window(window_settings(work / "settings.ini"), work / "data")
    window.resize(1400, 850)
    window.show()
    scan = FirstScan(window, collection20k)
    window.scans.progress.connect(scan.progress.append)
    window.groups_shown.connect(
        lambda: (
            scan.shown_while_scanning.append(
                [(g.identical, frozenset(m.path for m in g.members)) for g in window.groups_model.grouping]
            )
            if window.is_scanning()
            else None
        )
    )
    window.open_folder(collection20k)
    wait_for(window.review_ready, SCAN_TIMEOUT_S)
    assert window.review is not None and not window.is_scanning(), "the first scan did not end"
    yield scan
    window.close()


@pytest.fixture
def window20k(first_scan, qtbot):
    """The session's window, at the widest threshold, no filter, sorted as it opens; restored after."""
    window = first_scan.window
    window.filter_edit.setText("")
    window.set_threshold(12)
    yield window
    window.filter_edit.setText("")
    window.background.wait()
