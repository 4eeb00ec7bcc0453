"""The guard against PySide6 6.12's dropped references to None on Python 3.11 keeps the window alive."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtWidgets import QLabel

from simdesk.gui import refcount_guard


@pytest.mark.skipif(not refcount_guard.needed(), reason="this PySide6/Python pair keeps its references")
def test_void_calls_drop_references_and_the_guard_outlasts_them(qtbot):
    refcount_guard.install()  # idempotent: the session fixture did it already
    label = QLabel()
    qtbot.addWidget(label)
    before = sys.getrefcount(None)
    for _ in range(20_000):
        label.setText("x")
    assert sys.getrefcount(None) <= before - 19_000  # the bug is there ...
    assert sys.getrefcount(None) > refcount_guard.EXTRA_REFERENCES // 2  # ... and far from zero
