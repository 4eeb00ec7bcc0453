"""The short manual under Help: resources/manual/manual_<language>.md shown in a non-modal window."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from simdesk.core import resource
from simdesk.gui.resources import resolve_language


def manual_text(language_setting: str) -> str:
    """The manual's Markdown in the language the setting resolves to (English when there is none)."""
    path = resource("manual", f"manual_{resolve_language(language_setting)}.md")
    if not path.exists():
        path = resource("manual", "manual_en.md")
    return path.read_text(encoding="utf-8")


class ManualDialog(QDialog):
    def __init__(self, language_setting: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("manual")
        self.setWindowTitle(self.tr("simdesk manual"))
        self.browser = QTextBrowser(self)
        self.browser.setAccessibleName(self.tr("simdesk manual"))
        self.browser.setOpenExternalLinks(True)
        self.browser.setMarkdown(manual_text(language_setting))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(640, 560)
