"""Fixtures for the window's tests: offscreen Qt, a real folder, a real index, a trash under a temporary home."""
from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any Qt import

import pytest  # noqa: E402

from simdesk.gui.app import make_window  # noqa: E402
from simdesk.gui.settings import Settings  # noqa: E402


@pytest.fixture(scope="session")
def corpus(small_corpus) -> Path:
    """The shared small collection (~300 real Chinese documents with planted near-duplicates). Read-only."""
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


@pytest.fixture
def window(qtbot, settings, data_dir):
    w = make_window(settings, data_dir)
    qtbot.addWidget(w)
    w.resize(1400, 850)
    w.show()
    yield w
    w.stop_scan()
    w.background.wait()
    w.writer.wait()


@pytest.fixture
def trash_home(tmp_path, monkeypatch) -> Path:
    """A home whose freedesktop trash is under tmp_path. send2trash reads its folders when first imported,
    so its module constants are pointed there as well as the environment."""
    home = tmp_path / "home"
    share = home / ".local" / "share"
    share.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(share))
    from send2trash import plat_other

    data = os.fsencode(share)
    monkeypatch.setattr(plat_other, "XDG_DATA_HOME", data)
    monkeypatch.setattr(plat_other, "HOMETRASH_B", os.path.join(data, b"Trash"))
    monkeypatch.setattr(plat_other, "HOMETRASH", os.fsdecode(os.path.join(data, b"Trash")))
    return home
