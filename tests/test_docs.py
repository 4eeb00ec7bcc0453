"""The docs made from the program agree with it: docs/cli.md is the command's `--help`, docs/user-guide.md
is the manual the window shows (both written by tools/write_docs.py)."""

from __future__ import annotations

import importlib.util

import pytest

from tests.conftest import REPO


def write_docs():
    spec = importlib.util.spec_from_file_location("write_docs", REPO / "tools" / "write_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["cli.md", "user-guide.md"])
def test_generated_doc_matches_its_source(name: str) -> None:
    expected = write_docs().documents()[REPO / "docs" / name]
    actual = (REPO / "docs" / name).read_text(encoding="utf-8")
    assert actual == expected, f"docs/{name} is stale: run `python tools/write_docs.py`"


def test_cli_doc_has_every_command() -> None:
    from simdesk.cli import main

    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    for name in main.commands:
        assert f"\n## simdesk {name}\n" in text
        assert f"Usage: simdesk {name} " in text


def test_user_guide_is_the_manual_in_both_languages() -> None:
    text = (REPO / "docs" / "user-guide.md").read_text(encoding="utf-8")
    for manual in sorted((REPO / "simdesk" / "resources" / "manual").glob("manual_*.md")):
        first_paragraph = manual.read_text(encoding="utf-8").split("\n\n")[1]
        assert first_paragraph in text, manual.name
