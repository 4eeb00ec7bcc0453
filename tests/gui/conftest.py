"""Fixtures for the window's tests: offscreen Qt, a real folder, a real index, a trash under a temporary home."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any Qt import

import pytest

from simdesk.gui.app import make_window
from simdesk.gui.settings import Settings


@pytest.fixture(scope="session")
def corpus(small_corpus) -> Path:
    """The small collection (~300 real Chinese documents with planted near-duplicates). Read-only."""
    return small_corpus


@pytest.fixture(scope="session", autouse=True)
def refcount_guard() -> None:
    """As run_app does: PySide6 6.12 on Python 3.11 drops a reference to None on every void call."""
    from simdesk.gui import refcount_guard as guard

    guard.install()


@pytest.fixture
def settings(tmp_path) -> Settings:
    s = Settings.at(tmp_path / "settings.ini")
    s.set("scan/workers", 1)  # in-process reading: no process pool start-up in tests
    s.set("ui/language", "en")
    s.set("review/verify", False)  # plain SimHash groups; test_verified.py covers the verified mode
    return s


@pytest.fixture
def data_dir(tmp_path) -> Path:
    return tmp_path / "data"


def _shown(qtbot, w):
    """A window at 1,400 x 850, shown; its scan stopped and its threads waited for afterwards."""
    qtbot.addWidget(w)
    w.resize(1400, 850)
    w.show()
    yield w
    w.stop_scan()
    w.background.wait()
    w.writer.wait()


@pytest.fixture
def verified_window(qtbot, settings, data_dir):
    """The window in the engine's default mode: SimHash candidates checked on their texts."""
    settings.set("review/verify", True)
    yield from _shown(qtbot, make_window(settings, data_dir))


@pytest.fixture
def window(qtbot, settings, data_dir):
    yield from _shown(qtbot, make_window(settings, data_dir))
