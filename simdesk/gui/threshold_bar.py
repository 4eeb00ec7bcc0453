"""The threshold slider (0..12) over a histogram of pair counts per distance, with the counts of the current
grouping. Emits `threshold_changed` at once when the slider moves, then at most once per STEP_MS while it
keeps moving (the last value always), so the groups follow a drag step by step.

The label says what the number means in the grouping mode in use (core.review): in plain mode, bits of
Hamming distance (and the share of fingerprint bits that agree); in verified mode, what a pair shown is,
its least similarity on the texts, with the distance scaled to the pair's length as the reach (12: every
verified candidate)."""

from __future__ import annotations

import math

from PySide6.QtCore import QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QSlider, QVBoxLayout, QWidget

from simdesk.core import MAX_THRESHOLD, similarity_percent
from simdesk.gui.translations import fill

STEP_MS = 40  # the least time between two regroups during a drag (each takes a few ms at 20,000 documents)


class Histogram(QWidget):
    """Bars of how many pairs lie at each distance (log scale), those within the threshold highlighted."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.counts: list[int] = [0] * (MAX_THRESHOLD + 1)
        self.threshold = 0
        self.verified = False
        self.setMinimumHeight(36)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:
        return QSize(200, 40)

    def set_counts(self, counts: list[int]) -> None:
        self.counts = list(counts) + [0] * (MAX_THRESHOLD + 1 - len(counts))
        self.retranslate()
        self.update()

    def retranslate(self) -> None:
        """The tooltip, one line per distance, in the current language."""
        template = self.tr("%1/%3: %2 pairs") if self.verified else self.tr("%1 bits: %2 pairs")
        self.setToolTip("\n".join(fill(template, str(d), f"{c:,}", MAX_THRESHOLD) for d, c in enumerate(self.counts)))

    def set_threshold(self, threshold: int) -> None:
        self.threshold = threshold
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        n = len(self.counts)
        width = self.width() / n
        top = max((math.log10(c + 1) for c in self.counts), default=0) or 1
        inside = self.palette().highlight().color()
        outside = QColor(inside)
        outside.setAlpha(70)
        for d, c in enumerate(self.counts):
            h = (self.height() - 2) * math.log10(c + 1) / top
            painter.fillRect(
                QRectF(d * width + 1, self.height() - h, width - 2, h), inside if d <= self.threshold else outside
            )
        painter.end()


class ThresholdBar(QWidget):
    threshold_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.histogram = Histogram(self)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setRange(0, MAX_THRESHOLD)
        self.slider.setPageStep(1)
        self.slider.setTickPosition(QSlider.TickPosition.TicksBelow)
        self.slider.setObjectName("threshold")
        self.value_label = QLabel(self)
        self.value_label.setMinimumWidth(150)
        self.counts_label = QLabel(self)
        self.counts_label.setObjectName("counts")
        self.counts_label.setWordWrap(True)  # never wider than the list under it
        self.caption = QLabel(self)
        self.min_similarity: float | None = None  # None: plain SimHash groups
        row = QHBoxLayout()
        row.addWidget(self.caption)
        row.addWidget(self.slider, 1)
        row.addWidget(self.value_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.histogram)
        layout.addLayout(row)
        layout.addWidget(self.counts_label)
        self._emitted: int | None = None  # the value last emitted
        self._throttle = QTimer(self)
        self._throttle.setSingleShot(True)
        self._throttle.setInterval(STEP_MS)
        self._throttle.timeout.connect(self._catch_up)
        self.slider.valueChanged.connect(self._moved)
        self.retranslate()

    def retranslate(self) -> None:
        self.caption.setText(self.tr("Threshold"))
        self.histogram.retranslate()
        if self.min_similarity is None:
            self.slider.setToolTip(self.tr("Largest Hamming distance between near-duplicates (bits of 64)"))
        else:
            self.slider.setToolTip(
                fill(
                    self.tr(
                        "Every pair shown is at least %1% similar on its text. The slider limits how far apart their "
                        "fingerprints may be, scaled to the length of the texts: %2 takes every checked candidate."
                    ),
                    f"{self.min_similarity * 100:.0f}",
                    MAX_THRESHOLD,
                )
            )
        self._show_value(self.slider.value())

    def set_mode(self, min_similarity: float | None) -> None:
        """The grouping mode: the verified grouping's least similarity, or None for plain SimHash groups."""
        self.min_similarity = min_similarity
        self.histogram.verified = min_similarity is not None
        self.retranslate()

    def value(self) -> int:
        return self.slider.value()

    def set_value(self, threshold: int) -> None:
        """Set without emitting (the caller regroups itself)."""
        self.slider.blockSignals(True)
        self.slider.setValue(threshold)
        self.slider.blockSignals(False)
        self._emitted = threshold
        self._show_value(threshold)

    def set_histogram(self, counts: list[int]) -> None:
        self.histogram.set_counts(counts)

    def set_counts(
        self,
        groups: int,
        documents: int,
        redundant: int,
        total: int,
        min_similarity: float | None = None,
        shown: int | None = None,
    ) -> None:
        """The grouping's figures; `shown`: how many groups the filters show (None: no filter is on)."""
        text = fill(
            self.tr("%1 groups · %2 documents in groups · %3 redundant copies · %4 documents indexed"),
            f"{groups:,}",
            f"{documents:,}",
            f"{redundant:,}",
            f"{total:,}",
        )
        if shown is not None:
            text = fill(self.tr("%1 of %2 groups shown by the filter"), f"{shown:,}", f"{groups:,}") + " · " + text
        if min_similarity is not None:
            text += "\n" + fill(
                self.tr("Each pair checked on its text: at least %1% alike"), f"{min_similarity * 100:.0f}"
            )
        self.counts_label.setText(text)

    def _moved(self, value: int) -> None:
        self._show_value(value)
        if not self._throttle.isActive():
            self._emit(value)  # the first step of a move regroups at once

    def _catch_up(self) -> None:
        """STEP_MS after a regroup: the value the slider reached meanwhile, if it moved on."""
        if self.slider.value() != self._emitted:
            self._emit(self.slider.value())

    def _emit(self, value: int) -> None:
        self._emitted = value
        self._throttle.start()
        self.threshold_changed.emit(value)

    def _show_value(self, value: int) -> None:
        self.histogram.set_threshold(value)
        if self.min_similarity is None:
            self.value_label.setText(
                fill(self.tr("≤ %1 bits (~%2% similar)"), value, f"{similarity_percent(value):.0f}")
            )
        else:
            self.value_label.setText(
                fill(self.tr("≥ %1% similar · reach %2/%3"), f"{self.min_similarity * 100:.0f}", value, MAX_THRESHOLD)
            )
