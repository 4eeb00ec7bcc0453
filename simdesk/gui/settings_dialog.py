"""The settings dialog: file patterns, size cap, default threshold, worker count and language."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from simdesk.core import MAX_THRESHOLD
from simdesk.gui.resources import LANGUAGE_NAMES
from simdesk.gui.settings import Settings
from simdesk.gui.translations import fill


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.setWindowTitle(self.tr("Settings"))
        self.patterns = QLineEdit(" ".join(settings.get("scan/includes")), self)
        self.patterns.setToolTip(self.tr("File name patterns to index, separated by spaces, e.g. *.txt *.md"))
        self.max_size = QDoubleSpinBox(self)
        self.max_size.setRange(0.01, 1024)
        self.max_size.setSuffix(" MB")
        self.max_size.setValue(settings.get("scan/max_size_mb"))
        self.threshold = QSpinBox(self)
        self.threshold.setRange(-1, MAX_THRESHOLD)
        self.threshold.setToolTip(
            fill(
                self.tr(
                    "Without verification: bits of Hamming distance. With verification: the "
                    "distance scaled to the length of the texts (%1: every checked candidate)."
                ),
                MAX_THRESHOLD,
            )
        )
        self.threshold.setSpecialValueText(self.tr("the engine's default"))
        self.threshold.setValue(settings.get("review/default_threshold"))
        self.verify = QCheckBox(self.tr("Check each candidate pair on its text"), self)
        self.verify.setChecked(settings.get("review/verify"))
        self.min_similarity = QDoubleSpinBox(self)
        self.min_similarity.setRange(0.05, 1.0)
        self.min_similarity.setSingleStep(0.05)
        self.min_similarity.setValue(settings.get("review/min_similarity"))
        self.workers = QSpinBox(self)
        self.workers.setRange(0, 256)
        self.workers.setSpecialValueText(self.tr("one per core"))
        self.workers.setValue(settings.get("scan/workers"))
        self.language = QComboBox(self)
        self.language.addItem(self.tr("Follow the system"), "system")
        for code, name in LANGUAGE_NAMES.items():
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(settings.get("ui/language"))))
        form = QFormLayout(self)
        form.addRow(self.tr("File patterns"), self.patterns)
        form.addRow(self.tr("Skip files larger than"), self.max_size)
        form.addRow(self.tr("Default threshold"), self.threshold)
        form.addRow(self.tr("Verification"), self.verify)
        form.addRow(self.tr("Least similarity of the texts"), self.min_similarity)
        form.addRow(self.tr("Worker processes"), self.workers)
        form.addRow(self.tr("Language"), self.language)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def save(self) -> None:
        """Write the dialog's values to the settings (called when it is accepted)."""
        self.settings.set("scan/includes", [p for p in self.patterns.text().replace(",", " ").split() if p])
        self.settings.set("scan/max_size_mb", self.max_size.value())
        self.settings.set("review/default_threshold", self.threshold.value())
        self.settings.set("review/verify", self.verify.isChecked())
        self.settings.set("review/min_similarity", self.min_similarity.value())
        self.settings.set("scan/workers", self.workers.value())
        self.settings.set("ui/language", self.language.currentData())
        self.settings.sync()
