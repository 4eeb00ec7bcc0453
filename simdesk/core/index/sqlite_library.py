"""sqlite-utils, as the index's modules import it: without pandas. sqlite-utils imports pandas when it is
installed, only to map pandas' Timestamp to a column type, a value the index never stores; that import costs a
scan's process ~0.3 s (idle) to ~1 s (under load) of CPU before its first file. pandas imported later, by
anything else, loads as usual."""

from __future__ import annotations

import sys


def _import_without_pandas() -> None:
    if "sqlite_utils" in sys.modules or "pandas" in sys.modules:
        return
    sys.modules["pandas"] = None  # type: ignore[assignment]  # "import pandas" raises ImportError meanwhile
    try:
        import sqlite_utils  # noqa: F401
    finally:
        del sys.modules["pandas"]


_import_without_pandas()

import sqlite_utils  # noqa: E402
from sqlite_utils import Migrations  # noqa: E402
from sqlite_utils.db import ForeignKey  # noqa: E402

__all__ = ["ForeignKey", "Migrations", "sqlite_utils"]
