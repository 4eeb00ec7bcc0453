"""The headline reader: reads the titles, dates and sources of the groups' members in the helper process, a
batch at a time off the GUI thread, the groups the lists asked for first, and holds back while the editor
acts."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel

from simdesk.core import Grouping, HelperProcess, Review
from simdesk.gui.groups_model import GroupsModel
from simdesk.gui.translations import fill
from simdesk.gui.worker import Background

HEADLINE_BATCH = 150  # documents read per batch of titles (~0.1-0.3 s in the helper process)
SEARCH_BATCH = 600  # per batch while a filter waits for the texts not read yet
# The headline reader starts no batch while the editor moves the slider, sorts or types in the filter, nor
# for this long after: the helper process shares the machine's cores with the window. When it read in a
# thread of the window (sharing Python's lock), at 20,000 documents (load 15) a slider step took 143 ms median
# and a sort by Distance 214 ms while it read, 99 and 43 ms after.
HEADLINE_PAUSE_S = 0.5


class HeadlineReader(QObject):
    """Reads the headlines of the review `review()` returns for the groups `groups` shows; `filter_note`
    says how far a filter searched while it waits for texts not read yet."""

    done = Signal()  # every group member's title, date and source has been read

    def __init__(
        self,
        groups: GroupsModel,
        review: Callable[[], Review | None],
        background: Background,
        helper: HelperProcess,
        filter_note: QLabel,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.groups, self.review, self.background, self.helper = groups, review, background, helper
        self.filter_note = filter_note
        self._reading = False
        self._paused_until = 0.0  # time.monotonic()
        self._closed = False

    def close(self) -> None:
        """The window closes: no batch starts any more."""
        self._closed = True

    def pause(self, seconds: float = HEADLINE_PAUSE_S) -> None:
        """The editor is acting (slider, sort, filter, a comparison): no batch starts for `seconds` from now,
        and the reading goes on after."""
        self._paused_until = time.monotonic() + seconds

    def read(self) -> None:
        """Start reading the titles, dates and sources of the groups' members, unless it is under way."""
        if not self._reading and (review := self.review()) is not None:
            self._reading = True
            self._read_on(review, 0)

    def _read_batch(self, review: Review, position: int) -> None:
        """One batch (HEADLINE_BATCH documents, SEARCH_BATCH while a filter waits for texts not read yet):
        the groups the lists asked for first, then the groups in the order shown from `position`, then every
        other group (a filter searches them all; texts on this computer only); the lists repaint and the
        filter searches again after each batch."""
        grouping, shown = self.groups.grouping, self.groups.order
        order = shown.copy()
        if grouping is None or self._closed:
            self._reading = False
            return
        wanted = sorted(self.groups.wanted)
        self.groups.wanted.clear()
        size = SEARCH_BATCH if self.groups.filter_text else HEADLINE_BATCH
        helper = self.helper

        def batch() -> int:
            missing = review.headlines.missing
            members = [m for k in wanted if k < len(grouping) for m in missing(grouping.group(k).members)]
            # a bundle's texts fetched by URI are read for the rows shown only, not the whole collection
            end = len(order) + (len(grouping) if review.texts.uri_prefix is None else 0)
            at = position if review.texts.uri_prefix is None else len(order)
            while len(members) < size and at < end:
                k = int(order[at]) if at < len(order) else at - len(order)
                members.extend(missing(grouping.group(k).members))
                at += 1
            review.headlines.store(helper.run(review.headlines.reading(members), review.texts.process_local))
            review.headlines.prepare_search()  # here, not on the GUI thread at the next key in the filter
            return at

        self.background.call(batch, partial(self._batch_read, review, grouping, shown), self._failed)

    def _shown(self, review: Review) -> bool:
        """Whether `review` is still the one the window shows."""
        return self.review() is review

    def _failed(self, _message: str) -> None:
        self._reading = False

    def _batch_read(self, review: Review, grouping: Grouping, shown: np.ndarray, position: int) -> None:
        if self._shown(review) and not self._closed:
            every = len(shown) + (len(grouping) if review.texts.uri_prefix is None else 0)
            all_read = position >= every and not self.groups.wanted
            if grouping is not self.groups.grouping or shown is not self.groups.order:
                # regrouped, sorted or filtered meanwhile: the groups in their new order (what was read is skipped)
                all_read, position = False, 0
            self.groups.headlines_read(all_read=all_read)
            self.show_search_coverage()
            if all_read:
                self._reading = False
                self.done.emit()
                return
        self._read_on(review, position)

    def show_search_coverage(self) -> None:
        """Under the filter, while it waits for texts not read yet: how many of the groups' texts it searched
        (the reader reads them all, a large batch at a time while a filter is on)."""
        read = total = 0
        review = self.review()
        if self.groups.filter_text and review is not None and self.groups.grouping is not None:
            read, total = review.search_coverage(self.groups.grouping)
            if read < total:
                self.read()
        self.filter_note.setVisible(read < total)
        self.filter_note.setText(
            fill(self.tr("Searching every text: %1 of %2 read so far…"), f"{read:,}", f"{total:,}")
        )

    def _read_on(self, review: Review, position: int) -> None:
        """The next batch, once the editor pauses (looked at again every 200 ms at most: a pause may be cut
        short), unless another review is shown meanwhile (then its own reading: a first scan's identical
        copies, then all)."""
        if review is self.review() and not self._closed:
            wait_ms = int((self._paused_until - time.monotonic()) * 1000)
            if wait_ms > 0:
                QTimer.singleShot(min(wait_ms, 200), self, lambda: self._read_on(review, position))
            else:
                self._read_batch(review, position)
        else:
            self._reading = False
            if not self._closed:
                self.read()
