"""The window's options, declared once with their types and defaults, kept in QSettings across runs.

Core never reads QSettings: `review_settings()` turns these into the plain ReviewSettings the engine takes;
every default that is the engine's is imported from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

from simdesk.core import DEFAULT_DIFF_MODE, DIFF_MODES, MAX_THRESHOLD, ReviewSettings, ScanOptions

SETTINGS_VERSION = 1
RECENT_MAX = 8
LANGUAGES = ("system", "en", "zh_CN")


# the layouts the window remembers across runs (QHeaderView/QSplitter.saveState blobs)
VIEW_STATES = {
    "groups_header": "ui/groups_columns",
    "review_splitter": "ui/review_splitter",
    "diff_panes": "ui/diff_panes",
    "groups_split": "ui/groups_split",
}


@dataclass(frozen=True)
class Option:
    key: str
    type: type
    default: Any


OPTIONS = {
    o.key: o
    for o in (
        Option("scan/includes", list, list(ScanOptions().includes)),
        Option("scan/max_size_mb", float, ScanOptions().max_bytes / (1024 * 1024)),
        Option("scan/workers", int, 0),
        Option("review/default_threshold", int, -1),  # -1: the engine's default for the grouping mode
        Option("review/verify", bool, True),
        Option("review/min_similarity", float, ReviewSettings().min_similarity),
        Option("review/last_threshold", int, -1),  # -1: use the default threshold
        Option("review/keep_chain", str, "oldest"),  # the last chain of the "Keep by rules" dialog (core.KeepChain)
        Option("ui/language", str, "system"),
        Option("ui/diff_mode", str, DEFAULT_DIFF_MODE),  # how the diff compares (core.DIFF_MODES)
        Option("ui/last_folder", str, ""),
        Option("ui/recent_folders", list, []),
    )
}


class Settings:
    """Typed access to the QSettings store given (tests pass an INI file in tmp_path)."""

    def __init__(self, store: QSettings) -> None:
        self.store = store
        if int(str(self.store.value("version", 0) or 0)) < SETTINGS_VERSION:  # an INI file gives a string
            self.store.setValue("version", SETTINGS_VERSION)

    @classmethod
    def at(cls, path: Path) -> Settings:
        return cls(QSettings(str(path), QSettings.Format.IniFormat))

    @classmethod
    def user(cls) -> Settings:
        return cls(QSettings("simdesk", "simdesk"))

    def get(self, key: str) -> Any:
        option = OPTIONS[key]
        raw = self.store.value(key, None)
        if raw is None:
            return option.default
        try:
            if option.type is bool:  # an INI file gives back the strings "true" / "false"
                return raw in (True, 1) or str(raw).lower() in ("true", "1", "yes")
            if option.type is list:
                if isinstance(raw, str):  # an INI file gives back one value as a string
                    return [raw] if raw else []
                return [str(x) for x in raw] if isinstance(raw, list | tuple) else option.default
            return option.type(raw)
        except (TypeError, ValueError):
            return option.default

    def set(self, key: str, value: Any) -> None:
        if key not in OPTIONS:
            raise KeyError(f"unknown setting {key!r}")
        self.store.setValue(key, value)

    def sync(self) -> None:
        self.store.sync()

    # -- derived values -------------------------------------------------------------------------------
    def scan_options(self) -> ScanOptions:
        includes = tuple(p.strip() for p in self.get("scan/includes") if p.strip()) or ScanOptions().includes
        return ScanOptions(
            includes=includes,
            max_bytes=int(self.get("scan/max_size_mb") * 1024 * 1024),
            jobs=max(0, self.get("scan/workers")),
        )

    def review_settings(self) -> ReviewSettings:
        """What the engine needs to review a folder: the grouping mode, the threshold, the scan's options."""
        similarity = min(max(self.get("review/min_similarity"), 0.0), 1.0) if self.get("review/verify") else 0.0
        default = self.get("review/default_threshold")
        return ReviewSettings(similarity, None if default < 0 else min(default, MAX_THRESHOLD), self.scan_options())

    def min_similarity(self) -> float | None:
        """The verified grouping's least similarity, or None for plain SimHash groups."""
        settings = self.review_settings()
        return settings.min_similarity if settings.verified else None

    def threshold(self) -> int:
        """The slider's value at start: the last one used, else the default for the grouping mode."""
        last = self.get("review/last_threshold")
        return min(max(last, 0), MAX_THRESHOLD) if last >= 0 else self.review_settings().shown_threshold

    def add_recent(self, folder: str) -> None:
        recent = [f for f in self.get("ui/recent_folders") if f != folder]
        self.set("ui/recent_folders", [folder, *recent][:RECENT_MAX])
        self.set("ui/last_folder", folder)

    def geometry(self) -> QByteArray | None:
        value = self.store.value("ui/geometry")
        return value if isinstance(value, QByteArray) else None

    def set_geometry(self, geometry: QByteArray, state: QByteArray) -> None:
        self.store.setValue("ui/geometry", geometry)
        self.store.setValue("ui/state", state)

    def window_state(self) -> QByteArray | None:
        value = self.store.value("ui/state")
        return value if isinstance(value, QByteArray) else None

    def diff_mode(self) -> str:
        mode = self.get("ui/diff_mode")
        return mode if mode in DIFF_MODES else DEFAULT_DIFF_MODE

    def view_state(self, name: str) -> QByteArray | None:
        """A view's saved layout (`name` in VIEW_STATES: splitter sizes, column widths and sort order)."""
        value = self.store.value(VIEW_STATES[name])
        return value if isinstance(value, QByteArray) else None

    def set_view_state(self, name: str, state: QByteArray) -> None:
        self.store.setValue(VIEW_STATES[name], state)
