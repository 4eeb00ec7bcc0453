"""jieba, as simdesk imports it: without pkg_resources. jieba imports pkg_resources when it can, only to open the
files of its own package (its dictionary, its HMM tables), which it otherwise opens by path: the same bytes, without
pkg_resources' ~0.25 s (idle) of import in each process that loads jieba before its first text (the workers' fork
server, a scan's process). pkg_resources imported later, by anything else, loads as usual."""

from __future__ import annotations

import sys


def _import_without_pkg_resources() -> None:
    if "jieba" in sys.modules or "pkg_resources" in sys.modules:
        return
    sys.modules["pkg_resources"] = None  # type: ignore[assignment]  # "import pkg_resources" raises ImportError
    try:
        import jieba  # noqa: F401
    finally:
        del sys.modules["pkg_resources"]


_import_without_pkg_resources()

import jieba  # noqa: E402

__all__ = ["jieba"]
