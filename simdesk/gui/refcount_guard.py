"""Makes None, True and False effectively immortal where PySide6 drops references to them, as Python 3.12 does.

PySide6 6.12.0 on Python 3.11 releases a reference to None on every call of a method that returns nothing
(QLabel.setText, QPainter.drawText, QSyntaxHighlighter.setFormat, ...), and to True/False in some paths.
Python 3.12 made these objects immortal, so the bug is harmless there; on 3.11 the count reaches zero after
enough calls and the process dies with "Fatal Python error: none_dealloc" (measured: 1,000 QLabel.setText
calls take None's count down by exactly 1,000; PySide6 6.11.3 is not affected). These objects are never
freed anyway, so adding 2**40 references to their counts once costs nothing and outlasts any run of the program
(a million dropped references a second would take 12 days).
"""

from __future__ import annotations

import ctypes
import sys

import PySide6

EXTRA_REFERENCES = 2**40


def needed() -> bool:
    """True on the combinations known to drop references: PySide6 6.12 or later with a Python before 3.12
    (from 3.12 on, None, True and False are immortal and their counts are never used)."""
    return sys.version_info < (3, 12) and tuple(PySide6.__version_info__[:2]) >= (6, 12)


def install() -> bool:
    """Add the references where needed (once per process); return whether it did."""
    if not needed() or getattr(sys, "_simdesk_refcount_guard", False):
        return False
    for obj in (None, True, False):
        # ob_refcnt is the first field of every CPython object; written under the GIL
        ctypes.c_ssize_t.from_address(id(obj)).value += EXTRA_REFERENCES
    sys._simdesk_refcount_guard = True  # type: ignore[attr-defined]  # noqa: SLF001
    return True
