"""Write the docs that are made from the program: docs/cli.md from the command's own `--help`, and
docs/user-guide.md from the manual the window shows (simdesk/resources/manual/). One source each:
tests/test_docs.py checks the files agree with what this writes.

    python tools/write_docs.py          # write both
    python tools/write_docs.py --check  # exit 1 when a file differs from what would be written
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import click

REPO = Path(__file__).resolve().parents[1]
WIDTH = 100  # the help's wrapping column: fixed, so the file does not depend on the terminal
MANUAL = REPO / "simdesk" / "resources" / "manual"
GENERATED = "<!-- Written by tools/write_docs.py from {source}; edit that, then run the tool. -->\n"


def command_help(command: click.Command, name: str, parent: click.Context | None = None) -> str:
    ctx = click.Context(command, info_name=name, parent=parent, terminal_width=WIDTH, max_content_width=WIDTH)
    return command.get_help(ctx)


def cli_markdown() -> str:
    """Every command's `--help`, as `simdesk COMMAND --help` prints it."""
    from simdesk.cli import main

    root = click.Context(main, info_name="simdesk", terminal_width=WIDTH, max_content_width=WIDTH)
    parts = [
        GENERATED.format(source="the `--help` of simdesk/cli.py"),
        "# The simdesk command\n\n",
        "Every command and option, as `simdesk --help` and `simdesk COMMAND --help` print them. "
        "Output formats and exit codes: [exports.md](exports.md).\n\n",
        "```\n",
        command_help(main, "simdesk"),
        "\n```\n",
    ]
    for name in main.list_commands(root):
        command = main.get_command(root, name)
        assert command is not None
        parts += [f"\n## simdesk {name}\n\n```\n", command_help(command, name, root), "\n```\n"]
    return "".join(parts)


def user_guide_markdown() -> str:
    """The window's manual (Help ▸ simdesk manual), English then Chinese."""
    english = (MANUAL / "manual_en.md").read_text(encoding="utf-8").rstrip("\n")
    chinese = (MANUAL / "manual_zh_CN.md").read_text(encoding="utf-8").rstrip("\n")
    return (
        GENERATED.format(source="simdesk/resources/manual/manual_*.md (the window's Help ▸ simdesk manual)")
        + english
        + "\n\n---\n\n"
        + chinese.replace("\n# ", "\n## ").replace("# ", "## ", 1)
        + "\n"
    )


def documents() -> dict[Path, str]:
    return {REPO / "docs" / "cli.md": cli_markdown(), REPO / "docs" / "user-guide.md": user_guide_markdown()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say which files differ (exit 1 if any)")
    args = parser.parse_args(argv)
    stale = []
    for path, text in documents().items():
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path)
        if not args.check:
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'differs' if args.check else 'written'}: {path.relative_to(REPO)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
