"""The scan's progress in the status bar: one line of text, one bar that never goes back while the pairs are
checked, the time left, and the Cancel button."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QProgressBar, QPushButton, QStatusBar

from simdesk.core import Progress, TimeLeft
from simdesk.gui.diff_view import ElidedTitle
from simdesk.gui.messages import WindowMessages


class ScanProgress(QObject):
    """The progress widgets of `bar`, hidden while no scan runs; texts made by `messages`."""

    def __init__(self, bar: QStatusBar, messages: WindowMessages) -> None:
        super().__init__(bar)
        self.messages = messages
        self.time_left = TimeLeft(False)  # the running scan's (see start)
        self.label = ElidedTitle(bar, Qt.TextElideMode.ElideRight, widest=560)
        self.bar = QProgressBar(bar)
        self.bar.setMaximumWidth(260)
        self.cancel_button = QPushButton(bar)
        self.cancel_button.setObjectName("cancel")
        for widget in (self.label, self.bar, self.cancel_button):
            bar.addPermanentWidget(widget)
        self.set_visible(False)

    def set_visible(self, visible: bool) -> None:
        for widget in (self.label, self.bar, self.cancel_button):
            widget.setVisible(visible)

    def start(self, verified: bool) -> None:
        """A scan starts (`verified`: its candidate pairs are checked on their texts)."""
        self.time_left = TimeLeft(verified)
        self.set_visible(True)
        self.label.setText(self.tr("Opening the index…"))
        self.bar.setRange(0, 0)

    def cancelling(self) -> None:
        self.label.setText(self.tr("Cancelling…"))

    def show(self, p: Progress) -> None:
        """A report of the scan: the line, the bar and the time left."""
        left = self.time_left.update(p)
        checking = self.time_left.checking
        checked = (checking.pairs, checking.share(self.time_left.clock(), left))
        text, maximum, value = self.messages.progress_text(p, left, checked)
        self.label.setText(text)
        self.bar.setRange(0, maximum)
        self.bar.setValue(value)

    def retranslate(self) -> None:
        self.cancel_button.setText(self.tr("Cancel"))
