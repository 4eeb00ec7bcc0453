"""The main window: wires its parts (window_parts.py) to one folder's review (core.review). It holds no rule:
grouping, the editor's decisions, the pair to compare, clean-up, undo and export are each one call to the
review, run off the GUI thread through gui.worker when they may take time."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QFileDialog, QMessageBox

from simdesk.core import (
    FIRST_VIEW_BUDGET_S,
    CleanupPlan,
    CleanupReport,
    HelperProcess,
    KeepChain,
    Member,
    Progress,
    Review,
    Scope,
    SideBySide,
    TimeLeft,
    UndoReport,
    action_log,
    damaged_prefix,
    index_path,
    pair_to_compare,
    refine,
    undo_last,
)
from simdesk.gui.diff_view import Rendered, render
from simdesk.gui.groups_model import DECIDED_FILTERS, GroupsModel, MembersModel
from simdesk.gui.index_problem import offer_index_rebuild
from simdesk.gui.messages import WindowMessages
from simdesk.gui.problems_model import ProblemsModel
from simdesk.gui.settings import Settings
from simdesk.gui.settings_dialog import SettingsDialog
from simdesk.gui.translations import fill
from simdesk.gui.worker import Background, Scans, ScanWorker

HEADLINE_BATCH = 150  # documents read per batch of titles (~0.1-0.3 s in the helper process)
SEARCH_BATCH = 600  # per batch while a filter waits for the texts not read yet
# The headline reader starts no batch while the editor moves the slider, sorts or types in the filter, nor
# for this long after: the helper process shares the machine's cores with the window. When it read in a
# thread of the window (sharing Python's lock), at 20,000 documents (load 15) a slider step took 143 ms median
# and a sort by Distance 214 ms while it read, 99 and 43 ms after.
HEADLINE_PAUSE_S = 0.5
DIFF_PAUSE_S = 3.0  # a comparison under way holds the reader back as long (or until it is shown)


class MainWindow(WindowMessages):
    """Open a folder, watch it scan, explore groups at a live threshold, compare, clean up."""

    review_ready = Signal()  # a scan finished and its groups are shown
    groups_shown = Signal()  # groups are shown (from the index, a scan or a regroup)
    diff_shown = Signal()
    cleanup_done = Signal(object)  # CleanupReport
    undo_done = Signal(object)  # UndoReport
    exported = Signal(str)
    failed = Signal(str)
    language_changed = Signal(str)
    reviewed = Signal(int, int)  # groups decided, groups shown at the threshold (the counter's figures)
    headlines_done = Signal()  # every group member's title, date and source has been read

    def __init__(self, settings: Settings, data_dir: Path, demo: Callable[[], Path] | None = None) -> None:
        super().__init__()
        self.settings = settings
        self.data_dir = Path(data_dir)
        self.demo = demo
        self.root: Path | None = None
        self.index_path: Path | None = None
        self.review: Review | None = None
        self.time_left = TimeLeft(False)  # the running scan's (see _start_scan)
        self.scans = Scans(self)
        self.last_report: CleanupReport | None = None
        self._diff_request = 0
        self.background = Background(self)
        # comparisons and headlines are computed in a process of their own: a thread here held the GUI
        # thread up to 100-150 ms at a time (Python's lock) on a 1 MB pair
        self.helper = HelperProcess()
        self.writer = Background(self, serial=True)  # saves the editor's decisions, in order
        self._compare_soon = QTimer(self)  # one comparison for a burst of selection changes
        self._compare_soon.setSingleShot(True)
        self._compare_soon.setInterval(0)
        self._compare_soon.timeout.connect(self._compare_current)
        self._count_soon = QTimer(self)  # one count of the decided groups for a burst of marks
        self._count_soon.setSingleShot(True)
        self._count_soon.setInterval(100)
        self._count_soon.timeout.connect(self._count_reviewed)
        self._closing = False
        self._said: Callable[[], str] | None = None  # makes the status bar's message (see say)
        self._reading_headlines = False
        self._headlines_paused_until = 0.0  # time.monotonic(); read by the reader's thread between files

        self.groups_model = GroupsModel(self)
        self.members_model = MembersModel(self.groups_model, self)
        self.problems_model = ProblemsModel(self)
        self._build_widgets()
        self._create_actions()
        self._create_menus()
        self._wire()
        self.retranslate()
        self.setAcceptDrops(True)
        self.resize(1280, 800)
        if (geometry := settings.geometry()) is not None:
            self.restoreGeometry(geometry)
        if (state := settings.window_state()) is not None:
            self.restoreState(state)
        self.threshold_bar.set_value(settings.threshold())
        self.restore_layout()
        self.refresh_recent()
        self.update_actions()

    def _wire(self) -> None:
        self.demo_button.clicked.connect(self.open_demo)
        self.open_button.clicked.connect(self.choose_folder)
        self.recent_list.itemActivated.connect(lambda item: self.open_folder(item.text()))
        self.cancel_button.clicked.connect(self.cancel_scan)
        self.scans.loaded.connect(self._set_review)
        self.scans.progress.connect(self._on_progress)
        self.scans.finished.connect(self._on_finished)
        self.scans.failed.connect(self._on_failed)
        self.scans.ended.connect(self._on_scan_ended)
        self.threshold_bar.threshold_changed.connect(self.set_threshold)
        self.filter_edit.textChanged.connect(self.groups_model.set_filter)
        self.filter_edit.textChanged.connect(lambda _text: self.pause_headlines())
        self.filter_edit.textChanged.connect(lambda _text: self.show_search_coverage())
        self.decided_filter.currentIndexChanged.connect(
            lambda k: self.groups_model.set_decided_filter(DECIDED_FILTERS[k])
        )
        self.groups_view.selectionModel().currentRowChanged.connect(self._current_group_changed)
        self.groups_view.selectionModel().selectionChanged.connect(self.update_actions)
        self.members_view.selectionModel().selectionChanged.connect(self._selection_changed)
        self.members_view.doubleClicked.connect(lambda _: self.open_document())
        self.groups_model.decisions_changed.connect(self.save_decisions)
        self.groups_model.decisions_changed.connect(self.count_reviewed_soon)
        self.groups_model.headlines_wanted.connect(self.read_headlines, Qt.ConnectionType.QueuedConnection)
        self.groups_model.modelReset.connect(self.update_actions)
        self.groups_model.layoutChanged.connect(self.update_actions)
        self.groups_model.layoutChanged.connect(self._show_counts)  # a filter changes what is shown
        self.diff_view.mode_changed.connect(self._diff_mode_changed)
        self.diff_view.shown.connect(self.diff_shown)
        self.diff_view.spans_wanted.connect(self._refine_diff)
        self.groups_view.horizontalHeader().sortIndicatorChanged.connect(self._sorted)  # after the view's sort

    def retranslate(self) -> None:
        """Every visible text, so switching the language in the settings applies at once (the status bar's
        message, made again)."""
        self._retranslate_parts()
        if self.statusBar().currentMessage() and self._said is not None:
            self.statusBar().showMessage(self._said())
        self._show_counts()
        self.count_reviewed_soon()

    def say(self, make: Callable[[], str], timeout_ms: int = 0) -> None:
        """Show a message in the status bar, made by `make` (made again when the language changes)."""
        self._said = make
        self.statusBar().showMessage(make(), timeout_ms)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- opening and scanning a folder ------------------------------------------------------------------
    def open_folder(self, folder: Path | str) -> None:
        """Show the folder's groups from its index at once (if it was indexed before), then rescan."""
        self.stop_scan()
        self.root = Path(folder).resolve()
        self.index_path = index_path(self.root, self.data_dir)
        self.settings.add_recent(str(self.root))
        self.refresh_recent()
        self._set_review(None)
        self.groups_model.set_grouping(None)
        self.members_model.set_group(None)
        self.problems_model.set_problems([])
        self._diff_request += 1  # a comparison still running is of the folder before
        self.diff_view.clear()
        self.stack.setCurrentWidget(self.review_page)
        self.retranslate()
        self._start_scan(show_index_first=True)

    def open_demo(self) -> None:
        if self.demo is not None:
            self.open_folder(self.demo())

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, self.tr("Open a folder of documents"), self.settings.get("ui/last_folder")
        )
        if folder:
            self.open_folder(folder)

    def rescan(self) -> None:
        if self.root is not None:
            self.stop_scan()
            self._start_scan(show_index_first=False)

    def _start_scan(self, show_index_first: bool) -> None:
        assert self.root is not None and self.index_path is not None
        settings = self.settings.review_settings()
        self.time_left = TimeLeft(settings.verified)
        self.scans.start(ScanWorker(self.root, self.index_path, settings, show_index_first, self.threshold_bar.value()))
        self._show_progress(True)
        self.progress_label.setText(self.tr("Opening the index…"))
        self.progress_bar.setRange(0, 0)
        self.update_actions()

    def cancel_scan(self) -> None:
        if self.scans.current is not None:
            self.scans.cancel()
            self.progress_label.setText(self.tr("Cancelling…"))

    def stop_scan(self) -> None:
        """Cancel any running scan (opening another folder, closing the window)."""
        self.scans.stop()
        self._show_progress(False)

    def is_scanning(self) -> bool:
        return self.scans.running()

    @Slot(object)
    def _on_finished(self, review: Review) -> None:
        if review.unchanged and self.review is not None:
            # the groups on screen (and any regrouping the editor did meanwhile) stand; only the scan's
            # result and problems are new
            self.review.result, self.review.problems = review.result, review.problems
            self._show_problems()
        else:
            self._set_review(review)
        if review.result is not None:
            self.say(partial(self.scan_summary, review))
        self._show_progress(False)
        self.review_ready.emit()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._show_progress(False)
        self.say(lambda: fill(self.tr("The scan failed: %1"), message))
        if self.index_path is not None and damaged_prefix(self.index_path) in message:
            offer_index_rebuild(self, self.index_path, message, self.rescan)  # the rebuild, or not
        else:
            self.warn("scan_failed", self.tr("The scan failed"), message)
        self.failed.emit(message)

    @Slot()
    def _on_scan_ended(self) -> None:
        self._show_progress(False)
        self.update_actions()

    @Slot(object)
    def _on_progress(self, p: Progress) -> None:
        left = self.time_left.update(p)
        checking = self.time_left.checking
        checked = (checking.pairs, checking.share(self.time_left.clock(), left))
        text, maximum, value = self.progress_text(p, left, checked)
        self.progress_label.setText(text)
        self.progress_bar.setRange(0, maximum)
        self.progress_bar.setValue(value)

    def _show_progress(self, visible: bool) -> None:
        for w in (self.progress_label, self.progress_bar, self.cancel_button):
            w.setVisible(visible)

    # -- the review on screen -----------------------------------------------------------------------------
    def _set_review(self, review: Review | None) -> None:
        """Show `review`; the decisions the editor made since the shown one was read and not yet saved are
        carried over, and the shown one's index session is closed once the writer is done with it."""
        old, self.review = self.review, review
        if old is not None:
            if review is not None:
                review.decisions.adopt(old.decisions)
                review.headlines.adopt(old.headlines)
            self.writer.call(old.decisions.close)
        self.groups_model.set_review(review)
        if review is None:
            return
        self.helper.prepare()  # here, on the GUI thread: the helper's fork server lives as long as it
        self.save_decisions()
        if review.notice and (old is None or old.notice != review.notice):
            self.say(lambda: review.notice)
            self.show_box("index_notice", QMessageBox.Icon.Information, self.tr("The index was updated"), review.notice)
        self.threshold_bar.set_mode(review.min_similarity)
        self.threshold_bar.set_histogram(review.grouper.histogram())
        self._show_problems()
        self.set_threshold(self.threshold_bar.value())

    def _show_problems(self) -> None:
        self.problems_model.set_problems(self.review.problems if self.review else [])
        self.tabs.setTabText(1, fill(self.tr("Problems (%1)"), f"{len(self.problems_model.problems):,}"))

    @Slot(int)
    def set_threshold(self, threshold: int) -> None:
        """Regroup in memory at `threshold` (no rescan, no index query)."""
        self.threshold_bar.set_value(threshold)
        self.settings.set("review/last_threshold", threshold)
        if self.review is None:
            return
        self.pause_headlines()
        selected = [m.path for m in self.selected_members()]
        current = self.current_group()
        self.groups_model.set_grouping(self.review.grouping(threshold), self.review.decisions)
        self.reselect(selected or ([current.members[0].path] if current is not None else []))
        self._show_counts()
        self.count_reviewed_soon()
        self.read_headlines()
        self.groups_shown.emit()

    def _show_counts(self) -> None:
        g = self.groups_model.grouping
        if g is None or self.review is None:
            self.threshold_bar.set_counts(0, 0, 0, 0)
            return
        shown = len(self.groups_model.order) if self.groups_model.filtering() else None
        self.threshold_bar.set_counts(
            len(g), g.documents_in_groups, g.redundant, self.review.documents, self.review.min_similarity, shown
        )

    # -- selection and the diff -----------------------------------------------------------------------
    def current_pair(self) -> tuple[Member, Member] | None:
        return pair_to_compare(self.selected_members(), self.members_model.shown)

    def _sorted(self) -> None:
        self.pause_headlines()
        if self.groups_model.partial_sort:
            self.say(
                lambda: self.tr(
                    "Sorted on the titles, dates and sources read so far: the groups not read yet come last, and "
                    "the list is sorted again once every one is read"
                ),
                10_000,
            )

    def _current_group_changed(self) -> None:
        """Another group is current: its members below, its first pair compared."""
        self.show_current_members()
        self._selection_changed()

    def _selection_changed(self) -> None:
        self.update_actions()
        self._compare_soon.start()  # select_members changes the selection twice: compare once

    def _diff_mode_changed(self, mode: str) -> None:
        self.settings.set("ui/diff_mode", mode)
        self._compare_current()

    def _compare_current(self) -> None:
        """Compare the current pair off the GUI thread, in the diff's mode and without the collection's
        boilerplate, so that the header shows the similarity the table shows (the stored score when the pair
        was verified); the panes' lines are made there too (plain data: their documents are built on the GUI
        thread)."""
        pair, review = self.current_pair(), self.review
        if pair is None or review is None:
            self._diff_request += 1  # a comparison still running is of a pair no longer selected
            self.diff_view.clear()
            return
        self._diff_request += 1
        request, (left, right) = self._diff_request, pair
        comparison = partial(
            review.comparison,
            left.path,
            right.path,
            self.threshold_bar.value(),
            self.diff_view.mode,
            FIRST_VIEW_BUDGET_S,
        )
        label, helper = self.diff_view.boilerplate_label(), self.helper
        self.diff_view.summary.setText(self.tr("Comparing…"))
        self.pause_headlines(DIFF_PAUSE_S)
        here = review.texts.process_local
        # a comparison the selection moved past before it started (an arrow key held) is not made
        self.background.call(
            lambda: None if request != self._diff_request else render(helper.run(comparison(), here), label),
            partial(self._show_diff, request, left.path, right.path),
            partial(self._diff_failed, request),
        )

    def _show_diff(self, request: int, left: str, right: str, rendered: Rendered) -> None:
        if request == self._diff_request:  # else the selection moved on while this was computed
            self.pause_headlines()  # from now on, not the comparison's whole allowance
            self.diff_view.show_result(rendered.result, left, right, rendered)  # then diff_view.shown

    def _refine_diff(self, result: SideBySide, rows: list[int]) -> None:
        """The changed runs of the rough rows in view, found off the GUI thread."""
        self.background.call(
            lambda: refine(result, rows),
            partial(self.diff_view.show_refined, result),
            lambda _message: self.diff_view.show_refined(result, result),
        )

    def _diff_failed(self, request: int, message: str) -> None:
        if request == self._diff_request:
            self.diff_view.clear(fill(self.tr("Cannot compare: %1"), message))

    # -- decisions: the review's, shown by the model, saved by the writer in batches ----------------------
    def _checkpoint(self) -> None:
        """Before an action on the marks: Ctrl+Z brings them back as they are now."""
        if self.review is not None:
            self.review.decisions.checkpoint()

    def undo_marks(self) -> None:
        """Ctrl+Z: the keep and trash marks as they were before the last action on them."""
        if self.review is not None and self.review.decisions.undo():
            self.groups_model.marks_changed()
            self.say(lambda: self.tr("The last change of marks was undone"))
        else:
            self.say(lambda: self.tr("No change of marks to undo"))

    def toggle_keep(self) -> None:
        """Space: keep every selected copy, or none of them if the current one was kept."""
        if (members := self.selected_members_current_first()) and self.members_model.shown is not None:
            self._checkpoint()
            self.groups_model.toggle_keep(members, self.members_model.shown)

    def toggle_queued(self) -> None:
        """Delete: queue every selected copy for the trash, or none of them if the current one was queued."""
        if members := self.selected_members_current_first():
            self._checkpoint()
            self.groups_model.toggle_queued(members)

    def keep_by_rule(self, rule: str) -> None:
        if self.review is not None and (group := self.current_group()):
            self._checkpoint()
            self.review.keep_by_rule(group, rule)
            self.groups_model.marks_changed()
            self.next_undecided()  # decided: on to the next group

    def next_undecided(self) -> None:
        """Select the next group (in the order shown) where no copy is kept yet, and show its first pair."""
        if self.review is None:
            return
        current = self.current_group()
        gid = self.review.next_undecided(
            self.groups_model.visible_group_ids(), current.id if current else None, self.threshold_bar.value()
        )
        if gid is None:
            self.say(lambda: self.tr("Every group shown is decided"))
            return
        self.show_group_row(self.groups_model.row_of_group(gid))

    def keep_by_rule_everywhere(self, rule: str | KeepChain, keep_in: str | None = None) -> None:
        """Apply a rule (one criterion or a chain, and a reference folder) to the groups of rule_scope(): the
        chosen ones, else the ones the filters show, else every group at the current threshold (the copies
        are chosen off the GUI thread)."""
        if self.review is not None:
            review, threshold, scope = self.review, self.threshold_bar.value(), self.rule_scope()
            self.background.call(
                partial(review.rule_choices, rule, threshold, keep_in, only=scope.groups),
                partial(self._apply_rule_choices, review, threshold, scope),
            )

    def _apply_rule_choices(self, review: Review, threshold: int, scope: Scope, choices) -> None:
        if review is self.review:
            chosen, left_alone = choices
            self._checkpoint()
            partly = review.apply_choices(chosen, threshold)
            self.groups_model.marks_changed()
            self.say(partial(self.rule_summary, len(chosen), scope, len(partly), len(left_alone)))

    def choose_keep_rules(self) -> None:
        """The "Keep by rules" dialog (a chain of criteria, a reference folder); applied when accepted."""
        if self.review is None:
            return
        from simdesk.gui.rules_dialog import KeepRulesDialog

        dialog = KeepRulesDialog(
            self.review.folders(), self.rule_scope_text(), self.settings.get("review/keep_chain"), self
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(partial(self._keep_by_dialog, dialog))
        dialog.open()

    def _keep_by_dialog(self, dialog) -> None:
        chain = dialog.chain()
        self.settings.set("review/keep_chain", str(chain))
        self.keep_by_rule_everywhere(chain, dialog.reference_folder())

    def rule_scope_text(self, scope: Scope | None = None) -> str:
        """What a rule over many groups will act on, in words (see rule_scope)."""
        scope = self.rule_scope() if scope is None else scope
        if scope.kind == "all":
            return fill(self.tr("Applies to every group (%1)"), f"{scope.count:,}")
        if scope.kind == "selected":
            return fill(self.tr("Applies to the %1 selected groups"), f"{scope.count:,}")
        if scope.count == 1:
            return self.tr("Applies to the 1 group the filter shows")
        return fill(self.tr("Applies to the %1 groups the filter shows"), f"{scope.count:,}")

    # -- the review's progress: decided groups, counted from the decisions the index keeps -----------------
    def count_reviewed_soon(self) -> None:
        self._count_soon.start()

    def _count_reviewed(self) -> None:
        if self._closing:
            return
        if self.review is None or self.groups_model.grouping is None:
            self.reviewed_label.setText("")
            return
        review, threshold = self.review, self.threshold_bar.value()
        self.background.call(
            lambda: (review.grouping(threshold), review.decided(threshold)), partial(self._show_reviewed, review)
        )

    def _show_reviewed(self, review: Review, counted) -> None:
        if review is self.review and not self._closing:  # a count may come back after the window closed
            grouping, decided = counted
            self.reviewed_label.setText(
                fill(self.tr("Reviewed %1 of %2 groups"), f"{int(decided.sum()):,}", f"{len(decided):,}")
            )
            self.groups_model.set_decided(grouping, decided)
            self.reviewed.emit(int(decided.sum()), len(decided))

    # -- titles, dates and sources: read off the GUI thread, a batch at a time -------------------------------
    def pause_headlines(self, seconds: float = HEADLINE_PAUSE_S) -> None:
        """The editor is acting (slider, sort, filter, a comparison): the headline reader starts no batch for
        `seconds` from now, and goes on after."""
        self._headlines_paused_until = time.monotonic() + seconds

    def read_headlines(self) -> None:
        """Start reading the titles, dates and sources of the groups' members, unless it is under way."""
        if not self._reading_headlines and self.review is not None:
            self._reading_headlines = True
            self._read_on(self.review, 0)

    def _read_headlines(self, review: Review, position: int) -> None:
        """One batch (HEADLINE_BATCH documents, SEARCH_BATCH while a filter waits for texts not read yet):
        the groups the lists asked for first, then the groups in the order shown from `position`, then every
        other group (a filter searches them all; texts on this computer only); the lists repaint and the
        filter searches again after each batch."""
        grouping, shown = self.groups_model.grouping, self.groups_model.order
        order = shown.copy()
        if grouping is None or self._closing:
            self._reading_headlines = False
            return
        wanted = sorted(self.groups_model.wanted)
        self.groups_model.wanted.clear()
        size = SEARCH_BATCH if self.groups_model.filter_text else HEADLINE_BATCH
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

        self.background.call(
            batch,
            partial(self._headlines_read, review, grouping, shown),
            lambda _message: setattr(self, "_reading_headlines", False),
        )

    def _headlines_read(self, review: Review, grouping, shown, position: int) -> None:
        if review is self.review and not self._closing:
            every = len(shown) + (len(grouping) if review.texts.uri_prefix is None else 0)
            done = position >= every and not self.groups_model.wanted
            if grouping is not self.groups_model.grouping or shown is not self.groups_model.order:
                # regrouped, sorted or filtered meanwhile: the groups in their new order (what was read is skipped)
                done, position = False, 0
            self.groups_model.headlines_read(all_read=done)
            self.show_search_coverage()
            if done:
                self._reading_headlines = False
                self.headlines_done.emit()
                return
        self._read_on(review, position)

    def show_search_coverage(self) -> None:
        """Under the filter, while it waits for texts not read yet: how many of the groups' texts it searched
        (the reader reads them all, a large batch at a time while a filter is on)."""
        read = total = 0
        if self.groups_model.filter_text and self.review is not None and self.groups_model.grouping is not None:
            read, total = self.review.search_coverage(self.groups_model.grouping)
            if read < total:
                self.read_headlines()
        self.filter_note.setVisible(read < total)
        self.filter_note.setText(
            fill(self.tr("Searching every text: %1 of %2 read so far…"), f"{read:,}", f"{total:,}")
        )

    def _read_on(self, review: Review, position: int) -> None:
        """The next batch, once the editor pauses (looked at again every 200 ms at most: a pause may be cut
        short), unless another review is shown meanwhile (then its own reading: a first scan's identical
        copies, then all)."""
        if review is self.review and not self._closing:
            wait_ms = int((self._headlines_paused_until - time.monotonic()) * 1000)
            if wait_ms > 0:
                QTimer.singleShot(min(wait_ms, 200), self, lambda: self._read_on(review, position))
            else:
                self._read_headlines(review, position)
        else:
            self._reading_headlines = False
            if not self._closing:
                self.read_headlines()

    def mark_not_duplicates(self) -> None:
        if (pair := self.current_pair()) is not None and self.review is not None:
            self.review.mark_not_duplicates(pair[0].path, pair[1].path)
            self.save_decisions()
            self.set_threshold(self.threshold_bar.value())
            self.say(lambda: fill(self.tr("%1 and %2 will not be grouped together again"), pair[0].path, pair[1].path))

    def save_decisions(self) -> None:
        if self.review is not None:
            self.writer.call(self.review.decisions.save, None, self._decision_failed)

    def _decision_failed(self, message: str) -> None:
        self.say(lambda: fill(self.tr("Could not save the decision: %1"), message))

    # -- clean-up and undo ----------------------------------------------------------------------------
    def trash_marked(self) -> None:
        self.plan_cleanup("trash", None)

    def move_marked(self) -> None:
        if dest := QFileDialog.getExistingDirectory(self, self.tr("Move the duplicates to…")):
            self.move_marked_to(Path(dest))

    def move_marked_to(self, dest: Path) -> None:
        """Plan moving every copy not kept below `dest` (keeping relative paths), then ask to confirm."""
        self.plan_cleanup("move", dest)

    def plan_cleanup(self, action: str, dest: Path | None) -> None:
        """Plan the clean-up of the groups of rule_scope() and count the copies still undecided in the groups
        it touches (off the GUI thread), then ask to confirm, naming those groups."""
        if self.review is not None:
            review, threshold, scope = self.review, self.threshold_bar.value(), self.rule_scope()

            def planned() -> tuple[CleanupPlan, int]:
                plan = review.plan_cleanup(threshold, scope.groups)
                return plan, review.undecided_copies(plan.survivors, threshold)

            self.background.call(
                planned,
                lambda got: self.confirm_cleanup(
                    got[0], action, dest, partial(self.carry_out, got[0], action, dest), got[1], scope
                ),
            )

    def carry_out(self, plan: CleanupPlan, action: str, dest: Path | None = None) -> None:
        """Execute a confirmed plan off the GUI thread; the report says what was verified done."""
        assert self.review is not None
        self.say(lambda: self.tr("Cleaning up…"))
        self.background.call(
            partial(self.review.clean_up, plan, action, dest, action_log(self.data_dir)),
            self._cleanup_finished,
            self._cleanup_failed,
        )

    def _cleanup_finished(self, report: CleanupReport) -> None:
        self.last_report = report
        self.say(lambda: self.cleanup_summary(report))
        self.show_cleanup_report(report)
        self.cleanup_done.emit(report)
        self.rescan()  # the index learns what left, and the groups refresh

    def _cleanup_failed(self, message: str) -> None:
        self.warn("cleanup_failed", self.tr("Clean-up failed"), message)

    def undo_last_cleanup(self) -> None:
        """Put the files of the last clean-up back, off the GUI thread; report what came back."""
        self.background.call(partial(undo_last, action_log(self.data_dir)), self._undo_finished, self._cleanup_failed)

    def _undo_finished(self, report: UndoReport) -> None:
        self.say(lambda: self.undo_summary(report))
        self.show_undo_report(report)
        self.undo_done.emit(report)
        if report.restored and self.root is not None:
            self.rescan()

    # -- export ---------------------------------------------------------------------------------------
    def choose_export(self, fmt: str) -> None:
        if self.review is None:
            return
        name, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export groups"), f"groups.{fmt}", "JSON (*.json)" if fmt == "json" else "CSV (*.csv)"
        )
        if name:
            self.export_to(Path(name), fmt)

    def export_to(self, path: Path, fmt: str) -> None:
        """Write the groups on screen with the editor's decisions as JSON (the `simdesk scan --format json`
        shape) or CSV, off the GUI thread."""
        if self.review is not None:
            failed = partial(self.warn, "export_failed", self.tr("Export failed"))
            self.background.call(
                partial(self.review.write_export, path, fmt, self.threshold_bar.value()), self._exported, failed
            )

    def _exported(self, path: Path) -> None:
        self.say(lambda: fill(self.tr("Exported to %1"), str(path)))
        self.exported.emit(str(path))

    # -- settings, recent, close ----------------------------------------------------------------
    def edit_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self)
        if dialog.exec():
            dialog.save()
            self.language_changed.emit(self.settings.get("ui/language"))

    def about(self) -> None:
        QMessageBox.about(self, self.tr("About simdesk"), self.about_text())

    def closeEvent(self, event: QCloseEvent) -> None:
        self._closing = True
        self._count_soon.stop()
        self.settings.set_geometry(self.saveGeometry(), self.saveState())
        self.save_layout()
        self.settings.set("review/last_threshold", self.threshold_bar.value())
        self.settings.sync()
        self.stop_scan()
        self.scans.wait()
        self.helper.close()  # a comparison or a batch of headlines under way fails at once
        self.background.wait()
        if self.review is not None:
            self.writer.call(self.review.decisions.save)
            self.writer.call(self.review.decisions.close)
        self.writer.wait()
        super().closeEvent(event)
