"""The diff controller: compares the selected pair off the GUI thread (in the helper process), shows it in
the diff view unless the selection moved on meanwhile, and finds the changed runs of the rows scrolled to."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject, QTimer

from simdesk.core import FIRST_VIEW_BUDGET_S, HelperProcess, Member, Review, SideBySide, refine
from simdesk.gui.diff_view import DiffView, Rendered, render
from simdesk.gui.headline_reader import HeadlineReader
from simdesk.gui.settings import Settings
from simdesk.gui.translations import fill
from simdesk.gui.worker import Background

DIFF_PAUSE_S = 3.0  # a comparison under way holds the headline reader back as long (or until it is shown)


class DiffController(QObject):
    """Shows in `view` the comparison of the pair `pair()` of the review `review()` at `threshold()`."""

    def __init__(
        self,
        view: DiffView,
        pair: Callable[[], tuple[Member, Member] | None],
        review: Callable[[], Review | None],
        threshold: Callable[[], int],
        background: Background,
        helper: HelperProcess,
        reader: HeadlineReader,
        settings: Settings,
    ) -> None:
        super().__init__(view)
        self.view, self.pair, self.review, self.threshold = view, pair, review, threshold
        self.background, self.helper, self.reader, self.settings = background, helper, reader, settings
        self._request = 0  # the comparison whose result is shown; a result of an earlier one is dropped
        self._soon = QTimer(self)  # one comparison for a burst of selection changes
        self._soon.setSingleShot(True)
        self._soon.setInterval(0)
        self._soon.timeout.connect(self.compare_current)
        view.mode_changed.connect(self._mode_changed)
        view.spans_wanted.connect(self._refine)

    def compare_soon(self) -> None:
        self._soon.start()  # select_members changes the selection twice: compare once

    def clear(self) -> None:
        """Nothing compared (another folder): a comparison still running is dropped."""
        self._request += 1
        self.view.clear()

    def _mode_changed(self, mode: str) -> None:
        self.settings.set("ui/diff_mode", mode)
        self.compare_current()

    def compare_current(self) -> None:
        """Compare the current pair off the GUI thread, in the diff's mode and without the collection's
        boilerplate, so that the header shows the similarity the table shows (the stored score when the pair
        was verified); the panes' lines are made there too (plain data: their documents are built on the GUI
        thread)."""
        pair, review = self.pair(), self.review()
        if pair is None or review is None:
            self.clear()  # a comparison still running is of a pair no longer selected
            return
        self._request += 1
        request, (left, right) = self._request, pair
        comparison = partial(
            review.comparison, left.path, right.path, self.threshold(), self.view.mode, FIRST_VIEW_BUDGET_S
        )
        label, helper = self.view.boilerplate_label(), self.helper
        self.view.comparing()  # what is being built for the pair before is dropped
        self.reader.pause(DIFF_PAUSE_S)
        here = review.texts.process_local
        # a comparison the selection moved past before it started (an arrow key held) is not made; one under
        # way in the helper is dropped by this one, numbered higher (its process ended: it raises Superseded,
        # shown nowhere)
        self.background.call(
            lambda: None if request != self._request else render(helper.run(comparison(), here, request), label),
            partial(self._show, request, left.path, right.path),
            partial(self._failed, request),
        )

    def _show(self, request: int, left: str, right: str, rendered: Rendered) -> None:
        if request == self._request:  # else the selection moved on while this was computed
            self.reader.pause()  # from now on, not the comparison's whole allowance
            self.view.show_result(rendered.result, left, right, rendered)  # then DiffView.shown

    def _refine(self, result: SideBySide, rows: list[int]) -> None:
        """The changed runs of the rough rows in view, found off the GUI thread."""
        self.background.call(
            lambda: refine(result, rows),
            partial(self.view.show_refined, result),
            lambda _message: self.view.show_refined(result, result),
        )

    def _failed(self, request: int, message: str) -> None:
        if request == self._request:
            self.view.clear(fill(self.tr("Cannot compare: %1"), message))
