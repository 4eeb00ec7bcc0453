"""Exports are safe. CSV cells that a spreadsheet would run as a formula (= + - @, tab,
carriage return) are neutralised in the CLI's CSV, the query CSV and the window's export; the window shows
file names as plain text, never as HTML (simdesk writes no HTML file)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

import pytest

from simdesk.core.review.report import FORMULA_START, SIGNED_FORMULA, groups_csv, safe_cell
from tests.reliability.conftest import REPO, scan_args, simdesk, simdesk_argv
from tests.reliability.corpus import ARTICLE, POEM

DANGEROUS = ["=HYPERLINK(1).txt", "+SUM(1).txt", "-2+3.txt", "@cmd.txt", "\tTAB.txt", "\rCR.txt"]


@pytest.fixture
def formula_folder(tmp_path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    for k, name in enumerate(DANGEROUS):
        (root / name).write_text(ARTICLE * 3 + "。" * k, encoding="utf-8")
    (root / "=bad.txt").write_bytes(b"\x00\x01" * 100)  # a problem row whose path is a formula too
    (root / "<img src=x onerror=alert(1)>.txt").write_text(POEM * 5, encoding="utf-8")
    (root / "<b>bold<b>-copy.txt").write_text(POEM * 5, encoding="utf-8")
    return root


def risky(cell: str) -> bool:
    """What a spreadsheet would run: a formula start, a sign only when a formula's makings follow it."""
    return cell.startswith(FORMULA_START) and not (cell[0] in "+-" and not SIGNED_FORMULA.match(cell))


def text_cells(rows: list[list[str]]) -> list[str]:
    return [c for row in rows for c in row]


def test_safe_cell_neutralises_every_formula_start():
    for start in FORMULA_START:
        assert safe_cell(start + "1+1") == "'" + start + "1+1"
    assert safe_cell("正文.txt") == "正文.txt" and safe_cell(3) == "3"


def test_safe_cell_keeps_ordinary_text_that_starts_with_a_dash():
    """An attribution or a list item is text to a spreadsheet: it stays as written; a sign before what a
    formula is made of does not."""
    for text in ("-- 理查德·马修·斯托曼", "—— 鲁迅", "- 第一条", "--《论语》", "+ 附录"):
        assert safe_cell(text) == text
    for formula in ("-1+1", "+cmd|' /C calc'!A0", "- A1", "--1", "-(1)", "+@SUM(A1)", "-=1", '-"a"&"b"'):
        assert safe_cell(formula) == "'" + formula, formula


def test_cli_csv_has_no_cell_a_spreadsheet_would_run(formula_folder, tmp_path):
    proc = subprocess.run(
        simdesk_argv(*scan_args(formula_folder, tmp_path / "i.sqlite", "--format", "csv")),
        capture_output=True,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.reader(io.StringIO(proc.stdout.decode("utf-8"), newline="")))  # '\r' in a name stays
    cells = text_cells(rows)
    assert not [c for c in cells if risky(c)]
    paths = {row[2] for row in rows[1:] if len(row) == len(rows[0])}
    assert {"'" + name for name in DANGEROUS} <= paths  # neutralised, not dropped
    assert ["'=bad.txt"] == [row[0] for row in rows if row and row[0].startswith("'=bad")]


def test_cli_query_csv_is_neutralised(formula_folder, tmp_path):
    proc = simdesk(
        "query",
        formula_folder,
        "--text",
        ARTICLE * 3,
        "--threshold",
        "3",
        "--format",
        "csv",
        "--db",
        tmp_path / "i.sqlite",
    )
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    assert len(rows) > len(DANGEROUS) and not [c for c in text_cells(rows) if risky(c)]


def test_json_keeps_the_names_exact(formula_folder, tmp_path):
    proc = simdesk(*scan_args(formula_folder, tmp_path / "i.sqlite", "--format", "json"))
    names = {m["path"] for g in json.loads(proc.stdout)["groups"] for m in g["members"]}
    assert set(DANGEROUS) <= names  # JSON is data, not a spreadsheet: nothing to neutralise


def test_the_windows_csv_export_is_neutralised(qtbot, window, formula_folder, tmp_path):
    from tests.gui.window_driver import open_and_wait

    open_and_wait(qtbot, window, formula_folder)
    out = tmp_path / "export.csv"
    with qtbot.waitSignal(window.exported, timeout=10_000):
        window.review_actions.export_to(out, "csv")
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert len(rows) > len(DANGEROUS) and not [c for c in text_cells(rows) if risky(c)]


def test_the_window_shows_names_as_text_not_html(qtbot, window, formula_folder):
    from PySide6.QtCore import Qt

    from tests.gui.window_driver import open_and_wait

    open_and_wait(qtbot, window, formula_folder)
    model = window.groups_model
    row = next(r for r in range(model.rowCount()) if any("<img" in m.path for m in model.group_at(r).members))
    window.selection.show_group_row(row)
    with qtbot.waitSignal(window.diff_shown, timeout=10_000):
        window.selection.select_members([window.members_model.index(0, 0), window.members_model.index(1, 0)])
    titles = window.diff_view.left_title, window.diff_view.right_title
    assert all(t.textFormat() == Qt.TextFormat.PlainText for t in titles)
    assert any("<img src=x onerror=alert(1)>.txt" in t.text() for t in titles)


def test_a_carriage_return_in_a_name_cannot_start_a_row():
    from simdesk.core.records import Group, Member

    evil = 'x\r=HYPERLINK("http://evil").txt'
    group = Group(1, True, (Member(1, evil, 0, 10, "utf-8", 0, "h"), Member(2, "b.txt", 0, 10, "utf-8", 0, "h")))
    rows = list(csv.reader(io.StringIO(groups_csv([group]), newline="")))
    assert [r[2] for r in rows[1:]] == [evil, "b.txt"]  # one row per member: the CR stays inside its cell
    assert not [c for c in text_cells(rows) if risky(c)]


def test_groups_csv_neutralises_problem_reasons_too():
    from simdesk.core.records import Problem

    text = groups_csv([], [Problem("-x.txt", "=cannot be read")])
    assert not [c for c in text_cells(list(csv.reader(io.StringIO(text)))) if risky(c)]
