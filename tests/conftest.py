"""Fixtures for every test: a private home (so the data folder and the trash are temporary), and
collections of real Chinese text with planted near-duplicates made by the project's generator
(`bench/corpus/`, from the Debian packages fortunes-zh and manpages-zh)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench.corpus import build

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def private_home(tmp_path_factory, monkeypatch) -> Path:
    """Every test gets its own HOME and XDG data folder: indexes, the demo, logs and the trash go there."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    return home


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


@pytest.fixture(scope="session")
def small_corpus(tmp_path_factory) -> Path:
    """~300 real Chinese documents with planted near-duplicates and truth.json (seed 7). Read-only."""
    folder = tmp_path_factory.mktemp("corpus") / "small"
    build(folder, "small", seed=7)
    return folder


@pytest.fixture(scope="session", autouse=True)
def review_fork_server() -> None:
    """As a window does at its first scan: the fork server that review processes (and scan workers) are
    forked from is started with the whole engine loaded. Were a plain worker pool first to start it, every
    review process of the session would load the index and analysis modules itself (~0.6 s of CPU each)."""
    from simdesk.core import ReviewProcess

    ReviewProcess.prepare()
