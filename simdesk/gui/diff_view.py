"""Renders a core.diff.SideBySide: reference left, candidate right, rows aligned, scrolling together,
changed runs highlighted inside lines, next/previous change. It computes nothing itself."""
from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import (QColor, QPainter, QPaintEvent, QResizeEvent, QSyntaxHighlighter, QTextCharFormat,
                           QTextCursor, QTextDocument, QTextFormat)
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QPlainTextEdit, QSplitter, QTextEdit, QToolButton, QVBoxLayout,
                               QWidget)

from simdesk.core import Row, SideBySide
from simdesk.gui.translations import fill

MAX_LINE_MARKS = 20_000  # filler rows beyond this are still aligned, just not shaded grey
CHANGED_LINE = QColor("#fff4c2")
FILLER_LINE = QColor("#eeeeee")
CHANGE_LEFT = QColor("#ffb3ad")
CHANGE_RIGHT = QColor("#a8e6a3")


class SpanHighlighter(QSyntaxHighlighter):
    """Shades each changed row (one block per row) and colours its changed runs, on one side. Painted as
    character formats, so they sit under the text and over nothing else (extra selections would hide them)."""

    def __init__(self, document: QTextDocument, side: str) -> None:
        super().__init__(document)
        self.side = side
        self.rows: tuple[Row, ...] = ()
        self.line_format = QTextCharFormat()
        self.line_format.setBackground(CHANGED_LINE)
        self.format = QTextCharFormat()
        self.format.setBackground(CHANGE_LEFT if side == "left" else CHANGE_RIGHT)

    def highlightBlock(self, text: str) -> None:
        n = self.currentBlock().blockNumber()
        if n >= len(self.rows) or self.rows[n].kind == "equal":
            return
        row = self.rows[n]
        self.setFormat(0, len(text), self.line_format)
        for start, end in (row.left_spans if self.side == "left" else row.right_spans):
            self.setFormat(start, end - start, self.format)


class LineNumbers(QWidget):
    """The gutter of a pane: each row's line number in its file (blank on fillers and continued lines)."""

    def __init__(self, pane: DiffPane) -> None:
        super().__init__(pane)
        self.pane = pane

    def sizeHint(self) -> QSize:
        return QSize(self.pane.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(event.rect(), self.palette().window())
        painter.setPen(self.palette().placeholderText().color())
        pane = self.pane
        block = pane.firstVisibleBlock()
        top = round(pane.blockBoundingGeometry(block).translated(pane.contentOffset()).top())
        height = round(pane.blockBoundingRect(block).height())
        width = self.width() - 4
        while block.isValid() and top <= event.rect().bottom():
            n = block.blockNumber()
            if block.isVisible() and n < len(pane.numbers) and pane.numbers[n] is not None:
                painter.drawText(0, top, width, height, Qt.AlignmentFlag.AlignRight, str(pane.numbers[n]))
            block = block.next()
            top += height
        painter.end()


class DiffPane(QPlainTextEdit):
    def __init__(self, side: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setObjectName(f"diff_{side}")
        self.highlighter = SpanHighlighter(self.document(), side)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # keys stay with the groups list
        self.numbers: list[int | None] = []
        self.gutter = LineNumbers(self)
        self.updateRequest.connect(self._scroll_gutter)

    def set_rows(self, text: str, numbers: list[int | None]) -> None:
        self.numbers = numbers
        self.setPlainText(text)
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def gutter_width(self) -> int:
        digits = len(str(max((n for n in self.numbers if n is not None), default=1)))
        return 8 + self.fontMetrics().horizontalAdvance("9") * max(digits, 2)

    def _scroll_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        cr = self.contentsRect()
        self.gutter.setGeometry(QRect(cr.left(), cr.top(), self.gutter_width(), cr.height()))


class DiffView(QWidget):
    """Side-by-side view. `show_result` renders a comparison; `next_change`/`previous_change` move."""

    change_moved = Signal(int)  # the current change number (0-based)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: SideBySide | None = None
        self.current = -1
        self.left = DiffPane("left", self)
        self.right = DiffPane("right", self)
        self.left_title = QLabel(self)
        self.right_title = QLabel(self)
        for title in (self.left_title, self.right_title):
            title.setTextFormat(Qt.TextFormat.PlainText)  # a file named '<img src=…>.txt' is not HTML
            title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            title.setWordWrap(False)
        self.summary = QLabel(self)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setObjectName("similarity")
        self.prev_button = QToolButton(self)
        self.next_button = QToolButton(self)
        self.prev_button.clicked.connect(self.previous_change)
        self.next_button.clicked.connect(self.next_change)

        head = QHBoxLayout()
        head.addWidget(self.summary, 1)
        head.addWidget(self.prev_button)
        head.addWidget(self.next_button)
        panes = QSplitter(Qt.Orientation.Horizontal, self)
        for title, pane in ((self.left_title, self.left), (self.right_title, self.right)):
            box = QWidget(panes)
            col = QVBoxLayout(box)
            col.setContentsMargins(0, 0, 0, 0)
            col.addWidget(title)
            col.addWidget(pane, 1)
            panes.addWidget(box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(head)
        layout.addWidget(panes, 1)

        # synchronised scrolling: rows are aligned one to one, so equal scroll values show equal rows
        for a, b in ((self.left, self.right), (self.right, self.left)):
            a.verticalScrollBar().valueChanged.connect(b.verticalScrollBar().setValue)
            a.horizontalScrollBar().valueChanged.connect(b.horizontalScrollBar().setValue)
        self.retranslate()
        self.clear()

    def retranslate(self) -> None:
        self.prev_button.setText(self.tr("◀ Previous change"))
        self.next_button.setText(self.tr("Next change ▶"))
        self.prev_button.setToolTip(self.tr("Previous change (P)"))
        self.next_button.setToolTip(self.tr("Next change (N)"))
        self._show_summary()

    def clear(self, message: str = "") -> None:
        self.result = None
        self.current = -1
        for pane in (self.left, self.right):
            pane.highlighter.rows = ()
            pane.setExtraSelections([])
            pane.set_rows("", [])
        self.left_title.setText("")
        self.right_title.setText("")
        self._message = message or self.tr("Select a group, or two members, to compare them side by side.")
        self._show_summary()

    def show_result(self, result: SideBySide, left_title: str, right_title: str) -> None:
        self.result = result
        self.current = -1
        self.left_title.setText(fill(self.tr("Reference: %1"), left_title))
        self.right_title.setText(fill(self.tr("Candidate: %1"), right_title))
        for pane, side in ((self.left, "left"), (self.right, "right")):
            pane.highlighter.rows = result.rows
            left = side == "left"
            pane.set_rows("\n".join((row.left if left else row.right) or "" for row in result.rows),
                          [row.left_no if left else row.right_no for row in result.rows])
            pane.setExtraSelections(self._line_marks(pane, side))
        self._show_summary()
        if result.hunks:
            self.go_to_change(0)

    def _line_marks(self, pane: DiffPane, side: str) -> list[QTextEdit.ExtraSelection]:
        """Grey full-width bands where this side has no line facing the other side's (filler rows)."""
        assert self.result is not None
        marks = []
        doc = pane.document()
        for n, row in enumerate(self.result.rows[:MAX_LINE_MARKS]):
            if (row.left if side == "left" else row.right) is not None:
                continue
            sel = QTextEdit.ExtraSelection()
            sel.format.setBackground(FILLER_LINE)
            sel.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            sel.cursor = QTextCursor(doc.findBlockByNumber(n))
            marks.append(sel)
        return marks

    def _show_summary(self) -> None:
        if self.result is None:
            self.summary.setText(getattr(self, "_message", ""))
            self.prev_button.setEnabled(False)
            self.next_button.setEnabled(False)
            return
        r = self.result
        changes = self.tr("1 change") if len(r.hunks) == 1 else fill(self.tr("%1 changes"), str(len(r.hunks)))
        text = fill(self.tr("%1% of the text in common"), f"{r.similarity:.1f}") + " · " + changes
        if r.hunks and self.current >= 0:
            text += fill(self.tr(" · change %1 of %2"), str(self.current + 1), str(len(r.hunks)))
        if not r.exact:
            text += self.tr(" · long text: some changed lines are marked whole")
        self.summary.setText(text)
        self.prev_button.setEnabled(bool(r.hunks))
        self.next_button.setEnabled(bool(r.hunks))

    def go_to_change(self, k: int) -> None:
        if self.result is None or not self.result.hunks:
            return
        self.current = k % len(self.result.hunks)
        row = self.result.hunks[self.current]
        cursor = QTextCursor(self.left.document().findBlockByNumber(row))
        self.left.setTextCursor(cursor)
        self.left.centerCursor()
        self.right.verticalScrollBar().setValue(self.left.verticalScrollBar().value())
        self._show_summary()
        self.change_moved.emit(self.current)

    def next_change(self) -> None:
        self.go_to_change(self.current + 1)

    def previous_change(self) -> None:
        self.go_to_change(self.current - 1 if self.current >= 0 else -1)

    def current_row(self) -> int:
        """The row at the top of the left pane (for tests and the screenshot)."""
        return self.left.firstVisibleBlock().blockNumber()

