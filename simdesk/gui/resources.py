"""The one place the window locates its shipped files: translations (.qm), icons and the demo collection."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QLibraryInfo, QLocale
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QStyle

from simdesk.core import resource

LANGUAGE_NAMES = {"en": "English", "zh_CN": "简体中文"}


def resolve_language(setting: str, locale: QLocale | None = None) -> str:
    """'system' follows the locale: Chinese locales get Simplified Chinese, every other one English."""
    if setting in LANGUAGE_NAMES:
        return setting
    name = (locale or QLocale.system()).name()
    return "zh_CN" if name.startswith("zh") else "en"


def translation_file(language: str) -> Path | None:
    """simdesk's compiled translation for `language`, or None for English (the source language)."""
    if language == "en":
        return None
    path = resource("translations", f"simdesk_{language}.qm")
    return path if path.exists() else None


def qt_translation_dir() -> str:
    """Where Qt's own translations (standard dialog buttons) are, when the Qt build ships them."""
    return QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)


def icon(name: str) -> QIcon:
    """A standard icon from the current style (no icon files to ship or keep in sync)."""
    pixmap = getattr(QStyle.StandardPixmap, name)
    return QApplication.style().standardIcon(pixmap)


def demo_folder(demo: Callable[[], Path] | None) -> Path | None:
    """The demo collection (written on first use by the callable the CLI passes in)."""
    return Path(demo()) if demo is not None else None
