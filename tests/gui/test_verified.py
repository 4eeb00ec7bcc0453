"""The window in the engine's default mode: SimHash candidates checked on their texts (core.analysis)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from simdesk.gui.groups_model import COL_SIMILARITY, COLUMN, NOT_READ
from tests.gui.window_driver import as_sets, engine_groups, open_and_wait, shown_groups


def test_verified_groups_match_the_engines_default(qtbot, verified_window, corpus, tmp_path):
    window = verified_window
    assert window.threshold_bar.value() == 12  # every verified candidate, as `simdesk scan` shows by default
    early: list[list] = []  # the groups shown while the first scan still ran: (identical?, paths) per group
    phases: list[tuple[str, int, int]] = []
    window.groups_shown.connect(
        lambda: (
            early.append([(g.identical, frozenset(m.path for m in g.members)) for g in window.groups_model.grouping])
            if window.is_scanning()
            else None
        )
    )
    window.scans.progress.connect(lambda p: phases.append((p.phase, p.done, p.total)))
    open_and_wait(qtbot, window, corpus)
    engine = engine_groups(corpus, None, tmp_path / "cli.sqlite")
    assert engine["min_similarity"] == pytest.approx(0.7)
    final = sorted(map(sorted, shown_groups(window)))
    assert final == sorted(map(sorted, as_sets(engine)))
    # identical copies first, while the similar ones were checked: each of them inside a final group
    assert early and early[0] and all(identical for identical, _ in early[0])
    assert all(any(paths <= set(group) for group in final) for _, paths in early[0])
    assert len(early[0]) < len(final)
    # the titles of the verified groups are read too (not only those of the identical copies shown first)
    title = COLUMN["title"]
    qtbot.waitUntil(
        lambda: all(
            window.groups_model.index(r, title).data() != NOT_READ for r in range(window.groups_model.rowCount())
        ),
        timeout=30_000,
    )
    # verification reports how far it is: texts read, then pairs scored, each up to its total
    for phase in ("verifying", "scoring"):
        steps = [(done, total) for name, done, total in phases if name == phase]
        assert steps and steps[-1][0] == steps[-1][1] > 0 and len(steps) >= 2, (phase, steps)
    assert "at least 70% alike" in window.threshold_bar.counts_label.text()
    # the bar says what the number means in this mode: a similarity, not bits
    label = window.threshold_bar.value_label.text()
    assert "≥ 70% similar" in label and "bits" not in label
    assert "bits" not in window.threshold_bar.histogram.toolTip()
    # members show their verified similarity, not the fingerprint's
    window.selection.show_group_row(0)
    member = window.members_model.index(1, COL_SIMILARITY)
    assert "Similarity of the texts" in member.data(Qt.ItemDataRole.ToolTipRole)

    out = tmp_path / "groups.json"
    with qtbot.waitSignal(window.exported, timeout=10_000):
        window.review_actions.export_to(out, "json")
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported["groups"] == engine["groups"] and exported["min_similarity"] == engine["min_similarity"]


def test_cancel_in_verified_mode_stops_quickly(qtbot, verified_window, corpus):
    import time

    window = verified_window
    cancelled_at = {}

    def on_progress(p):
        if p.phase == "reading" and p.done > 0 and not cancelled_at:
            cancelled_at["t"] = time.perf_counter()
            window.cancel_scan()

    with qtbot.waitSignal(window.review_ready, timeout=60_000):
        window.open_folder(corpus)
        window.scans.progress.connect(on_progress)
    assert window.review.result.stats.cancelled
    assert time.perf_counter() - cancelled_at["t"] < 1.5
    # what was indexed is shown at once: its identical copies (no text was compared yet)
    from simdesk.core import Index

    by_hash: dict[str, set[str]] = {}
    with Index(window.index_path) as index:
        for doc in index.documents():
            by_hash.setdefault(doc.content_hash, set()).add(doc.path)
    assert window.review.documents == len([p for paths in by_hash.values() for p in paths]) > 0
    identical = sorted(sorted(paths) for paths in by_hash.values() if len(paths) > 1)
    assert sorted(map(sorted, shown_groups(window))) == identical
