"""The main window: owns one folder's review (core.review) and the collaborators that show and act on it, and
wires them together. It holds no rule: grouping, the editor's decisions, the pair to compare, clean-up, undo
and export are each one call to the review, run off the GUI thread through gui.worker when they may take
time.

Its collaborators, each in its own module: the two pages (window_pages), the lists' selection
(list_selection), the headline reader, the diff controller, the review's actions (review_actions), the scan's
progress (scan_progress), the actions and menus (window_menus) and the messages (messages)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import QEvent, QModelIndex, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QListWidgetItem, QMainWindow, QMessageBox, QStackedWidget

from simdesk.core import HelperProcess, Review, UndoReport, damaged_prefix, index_path
from simdesk.gui.diff_controller import DiffController
from simdesk.gui.groups_model import DECIDED_FILTERS, GroupsModel, MembersModel
from simdesk.gui.headline_reader import HeadlineReader
from simdesk.gui.index_problem import offer_index_rebuild
from simdesk.gui.list_selection import ListSelection
from simdesk.gui.messages import WindowMessages
from simdesk.gui.problems_model import ProblemsModel
from simdesk.gui.review_actions import ReviewActions
from simdesk.gui.review_counter import ReviewCounter
from simdesk.gui.scan_progress import ScanProgress
from simdesk.gui.settings import Settings
from simdesk.gui.settings_dialog import SettingsDialog
from simdesk.gui.translations import fill
from simdesk.gui.window_menus import WindowMenus
from simdesk.gui.window_pages import ReviewPage, WelcomePage
from simdesk.gui.worker import Background, Scans, ScanWorker

THRESHOLD_SAVE_MS = 1000  # the threshold is remembered once the slider rests this long (and on closing)


class MainWindow(QMainWindow):
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
        self.settings, self.data_dir, self.demo = settings, Path(data_dir), demo
        self.root: Path | None = None
        self.index_path: Path | None = None
        self.review: Review | None = None
        self.scans = Scans(self)
        self.background = Background(self)
        # comparisons and headlines are computed in a process of their own: a thread here held the GUI
        # thread up to 100-150 ms at a time (Python's lock) on a 1 MB pair
        self.helper = HelperProcess()
        # comparisons in one of their own: a newer one ends the process of one under way (HelperProcess.run's
        # `supersede`), which would otherwise fail a batch of headlines it was reading
        self.comparer = HelperProcess()
        self.writer = Background(self, serial=True)  # saves the editor's decisions, in order
        self._save_threshold = QTimer(self)  # the slider's threshold, remembered once it rests
        self._save_threshold.setSingleShot(True)
        self._save_threshold.setInterval(THRESHOLD_SAVE_MS)
        self._save_threshold.timeout.connect(self._remember_threshold)
        self._said: Callable[[], str] | None = None  # makes the status bar's message (see say)

        self.groups_model = GroupsModel(self)
        self.members_model = MembersModel(self.groups_model, self)
        self.problems_model = ProblemsModel(self)
        self.messages = WindowMessages(self)
        self.stack = QStackedWidget(self)
        self.setCentralWidget(self.stack)
        self.welcome = WelcomePage(self.stack)
        self.stack.addWidget(self.welcome)
        page = self.review_page = ReviewPage(self.groups_model, self.members_model, self.problems_model, self.stack)
        self.stack.addWidget(page)
        # the widgets the window wires, and tests and benchmarks drive, by their names
        self.demo_button, self.recent_list = self.welcome.demo_button, self.welcome.recent_list
        self.threshold_bar, self.filter_edit = page.threshold_bar, page.filter_edit
        self.decided_filter, self.filter_note, self.diff_view = page.decided_filter, page.filter_note, page.diff_view
        self.groups_view, self.members_view = page.groups_view, page.members_view
        self.problems_view, self.tabs = page.problems_view, page.tabs
        shown, threshold, bg, helper = self._review, self.threshold_bar.value, self.background, self.helper
        self.counter = ReviewCounter(self.statusBar(), self.groups_model, shown, threshold, bg)
        self.scan_progress = ScanProgress(self.statusBar(), self.messages)
        self.reviewed_label, self.progress_label = self.counter.label, self.scan_progress.label
        self.progress_bar = self.scan_progress.bar
        s = self.selection = ListSelection(self.groups_view, self.members_view, self.groups_model, self.members_model)
        self.reader = HeadlineReader(self.groups_model, shown, bg, helper, self.filter_note, self)
        self.diff = DiffController(
            self.diff_view, s.current_pair, shown, threshold, bg, self.comparer, self.reader, settings
        )
        self.review_actions = ReviewActions(
            self,
            shown,
            threshold,
            s,
            self.groups_model,
            self.messages,
            settings,
            self.data_dir,
            self.say,
            bg,
            self.writer,
        )
        self.menus = WindowMenus(self)
        self._wire()
        self.retranslate()
        self.setAcceptDrops(True)
        self.resize(1280, 800)
        if (geometry := settings.geometry()) is not None:
            self.restoreGeometry(geometry)
        if (state := settings.window_state()) is not None:
            self.restoreState(state)
        self.threshold_bar.set_value(settings.threshold())
        page.restore_layout(settings)
        self.refresh_recent()
        self.update_actions()
        self.review_actions.read_action_log()

    def _review(self) -> Review | None:
        return self.review

    def _wire(self) -> None:
        self.welcome.demo_button.clicked.connect(self.open_demo)
        self.welcome.open_button.clicked.connect(self.choose_folder)
        self.recent_list.itemActivated.connect(lambda item: self.open_folder(item.text()))
        self.scan_progress.cancel_button.clicked.connect(self.cancel_scan)
        self.scans.loaded.connect(self._set_review)
        self.scans.progress.connect(self.scan_progress.show)
        self.scans.finished.connect(self._on_finished)
        self.scans.failed.connect(self._on_failed)
        self.scans.ended.connect(self._on_scan_ended)
        self.threshold_bar.threshold_changed.connect(self.set_threshold)
        self.filter_edit.textChanged.connect(self.groups_model.set_filter)
        self.filter_edit.textChanged.connect(lambda _text: self.reader.pause())
        self.filter_edit.textChanged.connect(lambda _text: self.reader.show_search_coverage())
        self.decided_filter.currentIndexChanged.connect(
            lambda k: self.groups_model.set_decided_filter(DECIDED_FILTERS[k])
        )
        self.groups_view.selectionModel().currentRowChanged.connect(self._current_group_changed)
        self.groups_view.selectionModel().selectionChanged.connect(self.update_actions)
        self.members_view.selectionModel().selectionChanged.connect(self._selection_changed)
        self.members_view.doubleClicked.connect(self._member_double_clicked)
        for view in (self.groups_view, self.members_view):
            view.customContextMenuRequested.connect(partial(self.menus.show_context_menu, view))
        self.members_model.keep_asked.connect(self.review_actions.set_keep)
        self.review_actions.decisions_changed.connect(self.review_actions.save_decisions)
        self.review_actions.decisions_changed.connect(self.counter.count_soon)
        self.review_actions.undo_changed.connect(self.update_actions)
        self.review_actions.cleanup_done.connect(self.cleanup_done)
        self.review_actions.cleanup_done.connect(lambda _report: self.rescan())  # the index learns what left
        self.review_actions.undo_done.connect(self._undo_finished)
        self.review_actions.exported.connect(self.exported)
        self.groups_model.headlines_wanted.connect(self.reader.read, Qt.ConnectionType.QueuedConnection)
        self.groups_model.modelReset.connect(self.update_actions)
        self.groups_model.layoutChanged.connect(self.update_actions)
        self.groups_model.layoutChanged.connect(self._show_counts)  # a filter changes what is shown
        self.reader.done.connect(self.headlines_done)
        self.counter.counted.connect(self.reviewed)
        self.counter.flags_counted.connect(self.review_actions.rule_counted)  # a rule's summary
        self.diff_view.shown.connect(self.diff_shown)
        self.groups_view.horizontalHeader().sortIndicatorChanged.connect(self._sorted)  # after the view's sort

    def retranslate(self) -> None:
        """Every visible text, so switching the language in the settings applies at once (the status bar's
        message, made again)."""
        title = self.tr("simdesk — near-duplicate documents")
        self.setWindowTitle(title if self.root is None else fill(self.tr("simdesk — %1"), str(self.root)))
        self.welcome.retranslate()
        self.review_page.retranslate()
        self.scan_progress.retranslate()
        self.menus.retranslate()
        if self.statusBar().currentMessage() and self._said is not None:
            self.statusBar().showMessage(self._said())
        self._show_counts()
        self.counter.retranslate()  # and counts again

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
        self.diff.clear()  # a comparison still running is of the folder before
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
        self.scans.start(ScanWorker(self.root, self.index_path, settings, show_index_first, self.threshold_bar.value()))
        self.scan_progress.start(settings.verified)
        self.update_actions()
        self.review_actions.read_action_log()  # another simdesk (`simdesk undo`) may have written it since

    def cancel_scan(self) -> None:
        if self.scans.current is not None:
            self.scans.cancel()
            self.scan_progress.cancelling()

    def stop_scan(self) -> None:
        """Cancel any running scan (opening another folder, closing the window)."""
        self.scans.stop()
        self.scan_progress.set_visible(False)

    def is_scanning(self) -> bool:
        return self.scans.running()

    def _member_double_clicked(self, index: QModelIndex) -> None:
        """A double-click unfolds or folds a class of identical copies, opens a file."""
        if not self.selection.toggle_copies(index):
            self.menus.open_document()

    def escape(self) -> None:
        """Esc: cancel the scan under way, else clear the groups chosen in the list."""
        if self.scans.current is not None:
            self.cancel_scan()
        else:
            self.selection.clear_group_selection()

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
            self.say(partial(self.messages.scan_summary, review))
        self.scan_progress.set_visible(False)
        self.review_ready.emit()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.scan_progress.set_visible(False)
        self.say(lambda: fill(self.tr("The scan failed: %1"), message))
        if self.index_path is not None and damaged_prefix(self.index_path) in message:
            offer_index_rebuild(self, self.index_path, message, self.rescan)  # the rebuild, or not
        else:
            self.messages.warn("scan_failed", self.tr("The scan failed"), message)
        self.failed.emit(message)

    @Slot()
    def _on_scan_ended(self) -> None:
        self.scan_progress.set_visible(False)
        self.update_actions()

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
        self.review_actions.save_decisions()
        if review.notice and (old is None or old.notice != review.notice):
            self.say(lambda: review.notice)
            notice = self.tr("The index was updated")
            self.messages.show_box("index_notice", QMessageBox.Icon.Information, notice, review.notice)
        self.threshold_bar.set_mode(review.min_similarity)
        self.threshold_bar.set_histogram(review.grouper.histogram())
        self._show_problems()
        self.set_threshold(self.threshold_bar.value())

    def _show_problems(self) -> None:
        self.problems_model.set_problems(self.review.problems if self.review else [])
        self.review_page.show_problem_count()

    @Slot(int)
    def set_threshold(self, threshold: int) -> None:
        """Regroup in memory at `threshold` (no rescan, no index query)."""
        self.threshold_bar.set_value(threshold)
        self._save_threshold.start()
        if self.review is None:
            return
        self.reader.pause()
        selected = [m.path for m in self.selection.selected_members()]
        current = self.selection.current_group()
        self.groups_model.set_grouping(self.review.grouping(threshold), self.review.decisions)
        self.selection.reselect(selected or ([current.members[0].path] if current is not None else []))
        self._show_counts()
        self.counter.count_soon()
        self.reader.read()
        self.groups_shown.emit()

    def _remember_threshold(self) -> None:
        self.settings.set("review/last_threshold", self.threshold_bar.value())

    def _show_counts(self) -> None:
        g = self.groups_model.grouping
        if g is None or self.review is None:
            self.threshold_bar.set_counts(0, 0, 0, 0)
            return
        shown = len(self.groups_model.order) if self.groups_model.filtering() else None
        self.threshold_bar.set_counts(
            len(g), g.documents_in_groups, g.redundant, self.review.documents, self.review.min_similarity, shown
        )

    def _sorted(self) -> None:
        self.reader.pause()
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
        self.selection.show_current_members()
        self._selection_changed()

    def _selection_changed(self) -> None:
        self.update_actions()
        self.diff.compare_soon()

    def mark_not_duplicates(self) -> None:
        self.review_actions.mark_not_duplicates(lambda: self.set_threshold(self.threshold_bar.value()))

    def _undo_finished(self, report: UndoReport) -> None:
        self.undo_done.emit(report)
        if report.restored:
            self.rescan()

    # -- what applies, recent folders, a folder dropped -------------------------------------------
    def update_actions(self) -> None:
        """Enable what applies to the current selection."""
        s = self.selection
        self.menus.enable(
            has_groups=self.groups_model.grouping is not None,
            has_member=bool(s.selected_members()),
            has_group=s.current_group() is not None,
            has_folder=self.root is not None,
            scanning=self.scans.current is not None,
            can_undo=self.review is not None and self.review.decisions.can_undo,
            can_undo_cleanup=self.review_actions.can_undo_cleanup,
        )

    def refresh_recent(self) -> None:
        folders = self.settings.get("ui/recent_folders")
        self.recent_list.clear()
        for folder in folders:
            QListWidgetItem(folder, self.recent_list)
        self.menus.refresh_recent(folders)

    @staticmethod
    def dropped_folder(event: QDragEnterEvent | QDropEvent) -> str | None:
        """The folder dragged onto the window, if what is dragged is one local folder."""
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile() and Path(urls[0].toLocalFile()).is_dir():
            return urls[0].toLocalFile()
        return None

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self.dropped_folder(event) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        if (folder := self.dropped_folder(event)) is not None:
            event.acceptProposedAction()
            QTimer.singleShot(0, partial(self.open_folder, folder))

    # -- settings, close ----------------------------------------------------------------------------------
    def edit_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self)
        if dialog.exec():
            dialog.save()
            self.language_changed.emit(self.settings.get("ui/language"))

    def closeEvent(self, event: QCloseEvent) -> None:
        self.reader.close()
        self.counter.close()
        self._save_threshold.stop()
        self.settings.set_geometry(self.saveGeometry(), self.saveState())
        self.review_page.save_layout(self.settings)
        self._remember_threshold()
        self.settings.sync()
        self.stop_scan()
        self.scans.wait()
        self.helper.close()  # a batch of headlines under way fails at once
        self.comparer.close()  # and a comparison
        self.background.wait()
        if self.review is not None:
            self.writer.call(self.review.decisions.save)
            self.writer.call(self.review.decisions.close)
        self.writer.wait()
        super().closeEvent(event)
