"""Renders a core.diff.SideBySide: reference left, candidate right, rows aligned, scrolling together,
changed runs highlighted inside rows, next/previous change, the switch between the normalised and the raw
comparison. It computes nothing itself: the comparison arrives ready from a background call.

Every Qt document is touched on the GUI thread only: the background call that compares returns plain lines
(`render`), the panes' documents are built from them a chunk of rows per turn of the event loop
(`DocumentBuilder`), and highlights are painted only on the rows in view (extra selections rebuilt on each
scroll), so showing a 1 MB pair never holds the GUI thread long. A window's comparison finds the changed runs of the first rows
only (core.FIRST_VIEW_BUDGET_S); the rough rows that come into view are asked for (`spans_wanted`), refined
off the GUI thread (core.refine) and repainted (`show_refined`). Colours come from the palette and keep a
contrast of at least 4.5:1 with the text (WCAG AA) in light and dark themes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextOption,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextDocumentLayout,
    QPlainTextEdit,
    QSizePolicy,
    QSplitter,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from simdesk.core import DIFF_MODES, Row, SideBySide, contained, percent
from simdesk.gui.translations import fill

NORMALISED, RAW = DIFF_MODES

MIN_CONTRAST = 4.5  # WCAG AA for normal text
CHANGED_HUE = QColor("#f2c200")  # a changed row
LEFT_HUE = QColor("#e5534b")  # what the reference has and the candidate lacks
RIGHT_HUE = QColor("#2da44e")  # what the candidate adds


def luminance(c: QColor) -> float:
    """WCAG relative luminance of a colour."""

    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours (1..21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def mix(a: QColor, b: QColor, t: float) -> QColor:
    """`a` moved a share `t` (0..1) of the way to `b`."""
    return QColor.fromRgbF(
        a.redF() + (b.redF() - a.redF()) * t,
        a.greenF() + (b.greenF() - a.greenF()) * t,
        a.blueF() + (b.blueF() - a.blueF()) * t,
    )


def tint(base: QColor, hue: QColor, text: QColor, strength: float) -> QColor:
    """`base` tinted towards `hue`, as strongly as `strength` allows while `text` keeps MIN_CONTRAST on it."""
    t = strength
    while t > 0.02 and contrast(mix(base, hue, t), text) < MIN_CONTRAST:
        t -= 0.02
    return mix(base, hue, t)


@dataclass(frozen=True)
class DiffColours:
    """The diff's colours for one palette: backgrounds the text stays readable on, greyed boilerplate text."""

    text: QColor
    changed_line: QColor
    left_change: QColor
    right_change: QColor
    filler: QColor
    boilerplate_text: QColor

    @classmethod
    def of(cls, palette: QPalette) -> DiffColours:
        base = palette.color(QPalette.ColorRole.Base)
        text = palette.color(QPalette.ColorRole.Text)
        dark = luminance(base) < luminance(text)
        grey = text
        for step in range(1, 30):  # as far towards the background as the contrast allows
            candidate = mix(text, base, step / 50)
            if contrast(candidate, base) < MIN_CONTRAST:
                break
            grey = candidate
        return cls(
            text,
            tint(base, CHANGED_HUE, text, 0.30 if dark else 0.22),
            tint(base, LEFT_HUE, text, 0.55 if dark else 0.40),
            tint(base, RIGHT_HUE, text, 0.55 if dark else 0.40),
            mix(base, text, 0.10),
            grey,
        )


@dataclass(frozen=True)
class Rendered:
    """A comparison and its two panes' lines (one per row), ready to be laid out on the GUI thread: plain
    data, made on any thread."""

    result: SideBySide
    lines: tuple[list[str], list[str]]
    label: str  # put before boilerplate rows


RENDER_CHUNK_ROWS = 400  # rows inserted into a pane's document per turn of the GUI thread's event loop (~8 ms)


def pane_lines(result: SideBySide, side: str, label: str) -> list[str]:
    """One pane's lines: one per row, empty on fillers, boilerplate rows after `label`."""
    left = side == "left"
    lines = []
    for row in result.rows:
        text = (row.left if left else row.right) or ""
        lines.append(label + text if row.kind == "boilerplate" and text else text)
    return lines


def render(result: SideBySide, label: str) -> Rendered:
    """Both panes' lines for `result`. Plain Python, so it runs off the GUI thread (the background call that
    compares); the documents are built from these lines on the GUI thread only (`DocumentBuilder`): Qt's
    text layout run on two threads at once (a pool thread building a 1 MB pane while the GUI thread swapped
    another document in) crashed the window."""
    return Rendered(result, (pane_lines(result, "left", label), pane_lines(result, "right", label)), label)


def new_document(font: QFont, parent: QObject) -> QTextDocument:
    """An empty pane document: plain-text layout, no undo, no wrapping (the pane's: else setDocument lays
    every block out again)."""
    doc = QTextDocument(parent)
    doc.setDocumentLayout(QPlainTextDocumentLayout(doc))
    doc.setDefaultFont(font)
    doc.setUndoRedoEnabled(False)
    option = QTextOption(doc.defaultTextOption())
    option.setWrapMode(QTextOption.WrapMode.NoWrap)
    doc.setDefaultTextOption(option)
    return doc


class DocumentBuilder(QObject):
    """Builds a pane's document on the GUI thread RENDER_CHUNK_ROWS rows per turn of the event loop (a 1 MB
    text in one setPlainText froze the window ~170 ms), then calls `done(document)`. `cancel()` stops it and
    deletes the half-built document: a comparison of a pair no longer shown is dropped."""

    def __init__(self, lines: list[str], font: QFont, done: Callable[[QTextDocument], None], parent: QObject) -> None:
        super().__init__(parent)
        self.lines = lines
        self.done = done
        self.document: QTextDocument | None = new_document(font, parent)
        self.cursor = QTextCursor(self.document)
        self.at = 0
        self.timer = QTimer(self)
        self.timer.setInterval(0)
        self.timer.timeout.connect(self.step)
        self.timer.start()

    def step(self) -> None:
        if self.document is None:
            return
        chunk = self.lines[self.at : self.at + RENDER_CHUNK_ROWS]
        if chunk:
            self.cursor.insertText(("\n" if self.at else "") + "\n".join(chunk))
            self.at += len(chunk)
        if self.at >= len(self.lines):
            self.timer.stop()
            document, self.document = self.document, None
            self.deleteLater()
            self.done(document)

    def cancel(self) -> None:
        self.timer.stop()
        if self.document is not None:
            self.document.deleteLater()
            self.document = None
        self.deleteLater()


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
    """One side: the rows as plain text (one block per row), a line-number gutter, and the highlights of the
    rows in view."""

    def __init__(self, side: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.side = side
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setObjectName(f"diff_{side}")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # reachable with Tab; read-only, so N and P still move
        self.setTabChangesFocus(True)
        self.numbers: list[int | None] = []
        self.rows: tuple[Row, ...] = ()
        self.label_width = 0  # characters of the label put before boilerplate rows
        self._document: QTextDocument | None = None  # the rendered document shown, once there is one
        self.colours = DiffColours.of(self.palette())
        self.gutter = LineNumbers(self)
        self.updateRequest.connect(self._scroll_gutter)
        self.verticalScrollBar().valueChanged.connect(self.paint_visible)

    def set_rows(
        self,
        document: QTextDocument | None,
        numbers: list[int | None],
        rows: tuple[Row, ...] = (),
        label_width: int = 0,
    ) -> None:
        """Show a rendered document (None: empty) whose blocks are `rows`."""
        self.numbers = numbers
        self.rows = rows
        self.label_width = label_width
        self.setExtraSelections([])
        if document is None:
            self.setPlainText("")
        else:
            old, self._document = self._document, document  # the one set before (the default one Qt deletes)
            document.setParent(self)
            self.setDocument(document)
            if old is not None:
                old.deleteLater()
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)
        self.paint_visible()

    def visible_range(self) -> range:
        """The rows on screen (with one row to spare below)."""
        first = self.firstVisibleBlock().blockNumber()
        height = max(self.fontMetrics().lineSpacing(), 1)
        return range(first, min(first + self.viewport().height() // height + 2, len(self.rows)))

    def paint_visible(self) -> None:
        """Highlight the rows in view: changed rows shaded, their changed runs coloured, filler rows grey,
        boilerplate greyed. Rebuilt on every scroll (a few dozen selections), never for the whole text."""
        c = self.colours
        doc = self.document()
        marks: list[QTextEdit.ExtraSelection] = []
        left = self.side == "left"
        for n in self.visible_range():
            row = self.rows[n]
            text = row.left if left else row.right
            if row.kind == "equal":
                continue
            block = doc.findBlockByNumber(n)
            if text is None:  # a filler facing a row of the other side
                marks.append(_line_mark(block, c.filler))
                continue
            if row.kind == "boilerplate":
                sel = QTextEdit.ExtraSelection()
                cursor = QTextCursor(block)
                cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
                sel.cursor = cursor
                sel.format.setForeground(c.boilerplate_text)
                sel.format.setFontItalic(True)
                marks.append(sel)
                continue
            marks.append(_line_mark(block, c.changed_line))
            for start, end in row.left_spans if left else row.right_spans:
                sel = QTextEdit.ExtraSelection()
                cursor = QTextCursor(block)
                cursor.setPosition(block.position() + start)
                cursor.setPosition(block.position() + end, QTextCursor.MoveMode.KeepAnchor)
                sel.cursor = cursor
                sel.format.setBackground(c.left_change if left else c.right_change)
                sel.format.setForeground(c.text)
                marks.append(sel)
        self.setExtraSelections(marks)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:  # a theme switch: colours follow the new palette
            self.colours = DiffColours.of(self.palette())
            self.paint_visible()
        super().changeEvent(event)

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
        self.paint_visible()


def _line_mark(block, colour: QColor) -> QTextEdit.ExtraSelection:
    sel = QTextEdit.ExtraSelection()
    sel.format.setBackground(colour)
    sel.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
    sel.cursor = QTextCursor(block)
    return sel


class ElidedTitle(QLabel):
    """A line of text that never asks for more width, so a long file name cannot widen the window: `text()`
    is the whole line, drawn cut (in the middle by default: a path keeps both ends) to the width given."""

    def __init__(self, parent: QWidget, mode: Qt.TextElideMode = Qt.TextElideMode.ElideMiddle, widest: int = 0) -> None:
        """`widest`: the most width it asks for (its whole text's up to that; 0: none, it takes what it is
        given)."""
        super().__init__(parent)
        self.mode = mode
        self.widest = widest
        self.setTextFormat(Qt.TextFormat.PlainText)  # a file named '<img src=…>.txt' is not HTML
        # asking for its width up to `widest` (a status bar's label), else taking what the layout gives
        self.setSizePolicy(
            QSizePolicy.Policy.Preferred if widest else QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed
        )

    def shown_text(self) -> str:
        """The text as drawn at the label's width."""
        return self.fontMetrics().elidedText(self.text(), self.mode, self.contentsRect().width())

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(min(hint.width(), self.widest), hint.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().windowText().color())
        painter.drawText(
            self.contentsRect(), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), self.shown_text()
        )
        painter.end()


class DiffView(QWidget):
    """Side-by-side view. `show_result` renders a comparison; `next_change`/`previous_change` move;
    `mode_changed` asks the window for the comparison in the other mode."""

    change_moved = Signal(int)  # the current change number (0-based)
    shown = Signal()  # a comparison is on screen, both panes filled
    mode_changed = Signal(str)  # core.diff.NORMALISED or RAW
    spans_wanted = Signal(object, list)  # (the comparison shown, its rough rows in view and a screen around)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: SideBySide | None = None
        self.current = -1
        self._generation = 0  # a newer comparison (or a clear) makes a pending pane stale
        self._builders: list[DocumentBuilder] = []  # the documents being built for the comparison to show
        self._refining = False  # spans_wanted emitted, show_refined not called yet
        self.result_label = ""
        self._titles = ("", "")
        self.left = DiffPane("left", self)
        self.right = DiffPane("right", self)
        self.left_title = ElidedTitle(self)
        self.right_title = ElidedTitle(self)
        self.summary = ElidedTitle(self, Qt.TextElideMode.ElideRight)
        self.summary.setObjectName("similarity")
        self.mode_button = QToolButton(self)
        self.mode_button.setObjectName("diff_mode")
        self.mode_button.setCheckable(True)
        self.mode_button.setChecked(True)
        self.mode_button.toggled.connect(lambda on: self.mode_changed.emit(NORMALISED if on else RAW))
        self.prev_button = QToolButton(self)
        self.next_button = QToolButton(self)
        self.prev_button.clicked.connect(self.previous_change)
        self.next_button.clicked.connect(self.next_change)

        head = QHBoxLayout()
        head.addWidget(self.summary, 1)
        head.addWidget(self.mode_button)
        head.addWidget(self.prev_button)
        head.addWidget(self.next_button)
        self.panes = QSplitter(Qt.Orientation.Horizontal, self)
        self.panes.setObjectName("diff_panes")
        for title, pane in ((self.left_title, self.left), (self.right_title, self.right)):
            box = QWidget(self.panes)
            col = QVBoxLayout(box)
            col.setContentsMargins(0, 0, 0, 0)
            col.addWidget(title)
            col.addWidget(pane, 1)
            self.panes.addWidget(box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(head)
        layout.addWidget(self.panes, 1)

        # synchronised scrolling: rows are aligned one to one, so equal scroll values show equal rows
        for a, b in ((self.left, self.right), (self.right, self.left)):
            a.verticalScrollBar().valueChanged.connect(b.verticalScrollBar().setValue)
            a.horizontalScrollBar().valueChanged.connect(b.horizontalScrollBar().setValue)
        self.left.verticalScrollBar().valueChanged.connect(self._want_spans)
        self.setTabOrder(self.left, self.right)
        self.retranslate()
        self.clear()

    @property
    def mode(self) -> str:
        return NORMALISED if self.mode_button.isChecked() else RAW

    def set_mode(self, mode: str) -> None:
        """Show the switch in `mode` (emits mode_changed when it changes)."""
        self.mode_button.setChecked(mode != RAW)

    def retranslate(self) -> None:
        self.prev_button.setText(self.tr("◀ Previous change"))
        self.next_button.setText(self.tr("Next change ▶"))
        self.prev_button.setToolTip(self.tr("Previous change (P)"))
        self.next_button.setToolTip(self.tr("Next change (N)"))
        self.mode_button.setText(self.tr("As normalised"))
        self.mode_button.setToolTip(
            self.tr(
                "On: compare the texts as the similarity does (line wrapping, spaces, full/half-width forms and "
                "boilerplate lines are not changes). Off: compare the raw lines."
            )
        )
        self.left.setAccessibleName(self.tr("Reference text"))
        self.right.setAccessibleName(self.tr("Candidate text"))
        self.left.setAccessibleDescription(self.tr("The first document of the pair, with its changes highlighted"))
        self.right.setAccessibleDescription(self.tr("The second document of the pair, with its changes highlighted"))
        self.summary.setAccessibleName(self.tr("Comparison summary"))
        self.mode_button.setAccessibleName(self.tr("Compare as normalised"))
        self._show_titles()
        if self.result is not None and self.result_label != self.tr("[boilerplate] "):
            self.show_result(self.result, self._titles[0], self._titles[1])
        self._show_summary()

    def clear(self, message: str = "") -> None:
        self.result = None
        self.current = -1
        self._drop_builds()
        self._generation += 1
        for pane in (self.left, self.right):
            pane.set_rows(None, [])
        self._titles = ("", "")
        self._show_titles()
        self._message = message or self.tr("Select a group, or two members, to compare them side by side.")
        self._show_summary()

    def render_result(self, result: SideBySide) -> Rendered:
        """`render` with this view's label (the window calls the module function off the GUI thread with
        `boilerplate_label()` taken here)."""
        return render(result, self.boilerplate_label())

    def boilerplate_label(self) -> str:
        return self.tr("[boilerplate] ")

    def comparing(self) -> None:
        """A newer comparison is under way: the one on screen stays until it comes; documents still being
        built for an older one are dropped, and no older one is announced as `shown`."""
        self._drop_builds()
        self._generation += 1
        self.summary.setText(self.tr("Comparing…"))

    def building(self) -> bool:
        """Whether documents of a comparison are being built to be shown."""
        return bool(self._builders)

    def _drop_builds(self) -> None:
        """Stop building the documents of a comparison no longer to be shown."""
        for builder in self._builders:
            builder.cancel()
        self._builders = []

    def show_result(
        self, result: SideBySide, left_title: str, right_title: str, rendered: Rendered | None = None
    ) -> None:
        """Show a comparison: both panes' documents are built on the GUI thread, a chunk of rows per turn of
        the event loop, while the comparison before stays on screen; then the left pane is swapped in, the
        right one on the next turn, the first change on the turn after, and `shown` is emitted. A newer
        comparison or a clear meanwhile drops what is being built."""
        rendered = rendered or self.render_result(result)
        self._drop_builds()
        self._generation += 1
        generation = self._generation
        self.summary.setText(self.tr("Comparing…"))
        label = len(rendered.label)
        rows = result.rows
        font = self.left.font()
        built: list[QTextDocument] = []

        def build(side: int) -> None:
            self._builders = [DocumentBuilder(rendered.lines[side], font, partial(got, side), self)]

        def got(side: int, document: QTextDocument) -> None:
            if generation != self._generation:
                document.deleteLater()
                return
            built.append(document)
            if side == 0:
                build(1)
                return
            self._builders = []
            self.result = result
            self.result_label = rendered.label
            self._titles = (left_title, right_title)
            self.current = -1
            self._show_titles()
            self.left.set_rows(built[0], [row.left_no for row in rows], rows, label)
            QTimer.singleShot(0, self, second)  # dropped with the view (a window closed meanwhile)

        def second() -> None:
            if self.result is not result:  # cleared meanwhile: nothing of it stays on screen
                built[1].deleteLater()
                return
            # the left pane shows this comparison: the right one follows, even if a newer one is coming
            self.right.set_rows(built[1], [row.right_no for row in rows], rows, label)
            QTimer.singleShot(0, self, third)

        def third() -> None:
            if generation != self._generation:  # a newer comparison is coming: `shown` is for that one
                return
            self._show_summary()
            if result.hunks:
                self.go_to_change(0)
            self._want_spans()
            self.shown.emit()

        build(0)

    def _show_titles(self) -> None:
        """Each pane's title: which side it is and the file's path (the whole path in its tooltip)."""
        for title, path, text in (
            (self.left_title, self._titles[0], self.tr("Reference: %1")),
            (self.right_title, self._titles[1], self.tr("Candidate: %1")),
        ):
            title.setText(fill(text, path) if path else "")
            title.setToolTip(path)

    def _want_spans(self) -> None:
        """Ask for the changed runs of the rough rows in view (and a screen above and below), one request at
        a time."""
        r = self.result
        if r is None or not r.rough or self._refining or len(self.right.rows) != len(r.rows):
            return
        shown = self.left.visible_range()
        screen = len(shown)
        rows = [n for n in range(max(shown.start - screen, 0), min(shown.stop + screen, len(r.rows))) if n in r.rough]
        if rows:
            self._refining = True
            self.spans_wanted.emit(r, rows)

    def show_refined(self, before: SideBySide, after: SideBySide) -> None:
        """`after` is `before` with more rows refined: repaint if it is still the comparison shown, then ask
        for the rows scrolled to meanwhile."""
        self._refining = False
        if before is self.result:
            self.result = after
            for pane in (self.left, self.right):
                pane.rows = after.rows
                pane.paint_visible()
        self._want_spans()

    def _show_summary(self) -> None:
        if self.result is None:
            self.summary.setText(getattr(self, "_message", ""))
            self.prev_button.setEnabled(False)
            self.next_button.setEnabled(False)
            return
        r = self.result
        changes = self.tr("1 change") if len(r.hunks) == 1 else fill(self.tr("%1 changes"), f"{len(r.hunks):,}")
        text = self._figure(r) + " · " + changes
        if r.hunks and self.current >= 0:
            text += fill(self.tr(" · change %1 of %2"), f"{self.current + 1:,}", f"{len(r.hunks):,}")
        if r.boilerplate:
            text += fill(self.tr(" · boilerplate lines greyed: %1"), str(r.boilerplate))
        if r.timed_out:
            text += self.tr(" · long text: some changed lines are marked whole")
        self.summary.setText(text)
        self.summary.setToolTip(text)
        self.prev_button.setEnabled(bool(r.hunks))
        self.next_button.setEnabled(bool(r.hunks))

    def _figure(self, r: SideBySide) -> str:
        """What the pair's figure is: its similarity, or, where one text holds the other whole and is a small
        part of it, that (never "100% similar" for a quote and the article quoting it)."""
        if r.shares is not None:
            left_in_right, right_in_left = r.shares
            if contained(right_in_left, left_in_right):
                return fill(
                    self.tr("All of the right text is in the left one; it is %1 of its length"), percent(left_in_right)
                )
            if contained(left_in_right, right_in_left):
                return fill(
                    self.tr("All of the left text is in the right one; it is %1 of its length"), percent(right_in_left)
                )
        return fill(self.tr("Similarity %1"), similarity_text(r.similarity))

    def go_to_change(self, k: int) -> None:
        """Scroll both panes to change `k`: its row centred, and its first changed run in view horizontally."""
        if self.result is None or not self.result.hunks:
            return
        self.current = k % len(self.result.hunks)
        n = self.result.hunks[self.current]
        row = self.result.rows[n]
        pane, spans = (self.left, row.left_spans) if row.left_spans else (self.right, row.right_spans)
        block = pane.document().findBlockByNumber(n)
        cursor = QTextCursor(block)
        if spans:
            cursor.setPosition(block.position() + spans[0][1])  # the run's end, then its start: all of it shown
            pane.setTextCursor(cursor)
            pane.ensureCursorVisible()
            cursor.setPosition(block.position() + spans[0][0])
        pane.setTextCursor(cursor)
        pane.centerCursor()
        other = self.right if pane is self.left else self.left
        other.verticalScrollBar().setValue(pane.verticalScrollBar().value())
        other.horizontalScrollBar().setValue(pane.horizontalScrollBar().value())
        self._show_summary()
        self.change_moved.emit(self.current)

    def next_change(self) -> None:
        self.go_to_change(self.current + 1)

    def previous_change(self) -> None:
        self.go_to_change(self.current - 1 if self.current >= 0 else -1)

    def current_row(self) -> int:
        """The row at the top of the left pane (for tests and the screenshot)."""
        return self.left.firstVisibleBlock().blockNumber()


def similarity_text(share_percent: float) -> str:
    """A similarity as the window writes it everywhere (the groups table, the diff header): one decimal,
    rounded down (core.percent: 99.95% reads 99.9%, 100.0% is whole)."""
    return percent(share_percent / 100)
