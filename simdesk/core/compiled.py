"""The engine's compiled kernels (simdesk/core/kernels.pyx, built by `pip install` through setup.py), or None
when they are not built or SIMDESK_PURE=1 asks for the pure-Python path (benchmarks): each caller then takes
its pure-Python path, which gives the same bits (tests/core/test_kernels.py compares the two).

    from simdesk.core.compiled import KERNELS   # the module, or None
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

PURE = "SIMDESK_PURE"  # the environment variable that turns the compiled kernels off ("1")


def load_kernels() -> ModuleType | None:
    """The compiled kernels' module; None when the environment says SIMDESK_PURE=1 or they are not built (a
    checkout run without `pip install`, or a build for another Python)."""
    if os.environ.get(PURE, "0") not in ("", "0"):
        return None
    try:
        return importlib.import_module("simdesk.core.kernels")
    except ImportError:
        return None


KERNELS = load_kernels()
