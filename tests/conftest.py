"""Shared fixtures: a private home for every test (so the data folder and the trash are temporary), and
collections made by the team's corpus generator (../shared/corpus/make_corpus.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_CORPUS = REPO.parent / "shared" / "corpus"


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


def make_corpus(out: Path, size: str = "small", seed: int = 7) -> Path:
    subprocess.run([sys.executable, str(SHARED_CORPUS / "make_corpus.py"), str(out), "--size", size,
                    "--seed", str(seed)], check=True, stdout=subprocess.DEVNULL)
    return out


@pytest.fixture(scope="session")
def small_corpus(tmp_path_factory) -> Path:
    """~300 real Chinese documents with planted near-duplicates and truth.json (seed 7). Read-only."""
    return make_corpus(tmp_path_factory.mktemp("corpus") / "small")


def truth_groups(corpus: Path) -> dict[str, str]:
    return {path: v["group"] for path, v in json.loads((corpus / "truth.json").read_text("utf-8"))["files"].items()}


def evaluate(corpus: Path, result_json: Path) -> dict[str, float]:
    """Score a result with the team's evaluate.py; returns its `name value` lines as a dict."""
    out = subprocess.run([sys.executable, str(SHARED_CORPUS / "evaluate.py"), str(corpus), str(result_json)],
                         check=True, capture_output=True, text=True).stdout
    return {name: float(value) for name, value in (line.split() for line in out.splitlines() if line.strip())}
