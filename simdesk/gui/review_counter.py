"""The review's progress in the status bar: how many of the groups shown are decided, counted off the GUI
thread from the decisions the index keeps (Review.decided), once for a burst of marks; a count the marks
or the threshold moved past while it ran is not shown."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np
from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QStatusBar

from simdesk.core import Grouping, Review
from simdesk.gui.diff_view import ElidedTitle
from simdesk.gui.groups_model import GroupsModel
from simdesk.gui.translations import fill
from simdesk.gui.worker import Background

COUNT_AFTER_MS = 100  # one count for the marks made within this long


class ReviewCounter(QObject):
    """Counts the decided groups of the review `review()` at `threshold()` and shows them in `bar`; the
    groups list learns which groups are decided (its decided filter)."""

    counted = Signal(int, int)  # groups decided, groups at the threshold
    # the review's stamp the count describes (Review.stamp) and one flag per group (Review.decided)
    flags_counted = Signal(object, object)

    def __init__(
        self,
        bar: QStatusBar,
        groups: GroupsModel,
        review: Callable[[], Review | None],
        threshold: Callable[[], int],
        background: Background,
    ) -> None:
        super().__init__(bar)
        self.groups, self.review, self.threshold, self.background = groups, review, threshold, background
        self.label = ElidedTitle(bar, Qt.TextElideMode.ElideRight, widest=320)
        self.label.setObjectName("reviewed")
        bar.addPermanentWidget(self.label)
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(COUNT_AFTER_MS)
        self._soon.timeout.connect(self._count)
        self._closed = False

    def close(self) -> None:
        """The window closes: no count starts, none is shown."""
        self._closed = True
        self._soon.stop()

    def count_soon(self) -> None:
        """Count again once the marks rest; until a count of them is shown, the figure is greyed: it is of
        the marks before (a rule over every group leaves "Reviewed 0" for a second)."""
        self.label.setEnabled(False)
        self._soon.start()

    def _count(self) -> None:
        review = self.review()
        if self._closed:
            return
        if review is None or self.groups.grouping is None:
            self.label.setText("")
            self.label.setEnabled(True)
            return
        threshold = self.threshold()
        self.background.call(
            lambda: (review.grouping(threshold), review.decided(threshold)),
            partial(self._show, review, review.stamp(threshold)),
        )

    def _show(self, review: Review, stamp: tuple[int, int], counted: tuple[Grouping, np.ndarray]) -> None:
        """Show a count, unless the window closed, shows another review, or the marks or the threshold changed
        while it was counted (another count follows every such change: count_soon)."""
        if self.review() is review and not self._closed and review.current(stamp, self.threshold()):
            grouping, decided = counted
            self.label.setText(
                fill(self.tr("Reviewed %1 of %2 groups"), f"{int(decided.sum()):,}", f"{len(decided):,}")
            )
            self.label.setEnabled(True)
            self.groups.set_decided(grouping, decided)
            self.counted.emit(int(decided.sum()), len(decided))
            self.flags_counted.emit(stamp, decided)

    def retranslate(self) -> None:
        self.label.setToolTip(
            self.tr(
                "Groups in which every copy is kept, queued for the trash, or was shown beside a copy marked to keep; "
                "counted from the decisions the index keeps, so the count is back when the review resumes"
            )
        )
        self.count_soon()
