"""The main window: lays out the parts, creates the actions and wires signals. It owns no logic: scanning,
grouping, comparing, planning and carrying out a clean-up, and exports are all core calls, run off the GUI
thread through gui.worker."""
from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, Qt, QTimer, QUrl, Signal, Slot
from PySide6.QtGui import (QAction, QCloseEvent, QDesktopServices, QDragEnterEvent, QDropEvent, QGuiApplication,
                           QKeySequence)
from PySide6.QtWidgets import (QAbstractItemView, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
                               QListWidget, QListWidgetItem, QMainWindow, QMessageBox, QProgressBar, QPushButton,
                               QSplitter, QStackedWidget, QTableView, QTabWidget, QTreeView, QVBoxLayout, QWidget)

from simdesk.core import report as report_mod
from simdesk.core.cleanup import (CleanupPlan, CleanupReport, execute, keep_by_rule, keep_marks_by_rule,
                                  plan_cleanup)
from simdesk.core.diff import compare_files
from simdesk.core.groups import MAX_THRESHOLD
from simdesk.core import paths
from simdesk.core.records import Member, Progress
from simdesk.gui.diff_view import DiffView
from simdesk.gui.groups_model import COL_PATH, GroupsModel, human_size
from simdesk.gui.problems_model import ProblemsModel
from simdesk.gui.resources import icon
from simdesk.gui.settings import Settings
from simdesk.gui.settings_dialog import SettingsDialog
from simdesk.gui.threshold_bar import ThresholdBar
from simdesk.gui.translations import fill
from simdesk.gui.worker import (Background, Review, ScanJob, ScanWorker, write_keep, write_keeps, write_not_duplicates,
                                write_queued)


class MainWindow(QMainWindow):
    """Open a folder, watch it scan, explore groups at a live threshold, compare, clean up."""

    review_ready = Signal()  # a scan finished and its groups are shown
    groups_shown = Signal()  # groups are shown (from the index, a scan or a regroup)
    diff_shown = Signal()
    cleanup_done = Signal(object)  # CleanupReport
    undo_done = Signal(object)  # core.undo.UndoReport
    exported = Signal(str)
    failed = Signal(str)
    language_changed = Signal(str)

    def __init__(self, settings: Settings, data_dir: Path, demo: Callable[[], Path] | None = None) -> None:
        super().__init__()
        self.settings = settings
        self.data_dir = Path(data_dir)
        self.demo = demo
        self.root: Path | None = None
        self.index_path: Path | None = None
        self.review: Review | None = None
        self.scan_job: ScanJob | None = None
        self._retired_jobs: set[ScanJob] = set()  # cancelled, their threads not ended yet
        self.last_report: CleanupReport | None = None
        self._diff_request = 0
        self._unsaved_keep: dict[str, bool] = {}  # keep-marks on their way to the index
        self._unsaved_queue: dict[str, bool] = {}  # trash-queue decisions on their way to the index
        self._opened_at = 0.0
        self.background = Background(self)
        self.writer = Background(self, serial=True)  # the editor's decisions, in order

        self.groups_model = GroupsModel(self)
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
        self._refresh_recent()
        self._update_actions()

    # -- layout ---------------------------------------------------------------------------------------
    def _build_widgets(self) -> None:
        self.stack = QStackedWidget(self)
        self.setCentralWidget(self.stack)

        # the welcome page: demo, open, recent folders
        self.welcome = QWidget(self.stack)
        self.welcome_title = QLabel(self.welcome)
        self.welcome_title.setObjectName("welcome_title")
        font = self.welcome_title.font()
        font.setPointSize(font.pointSize() + 6)
        self.welcome_title.setFont(font)
        self.welcome_text = QLabel(self.welcome)
        self.welcome_text.setWordWrap(True)
        self.demo_button = QPushButton(self.welcome)
        self.open_button = QPushButton(self.welcome)
        self.recent_label = QLabel(self.welcome)
        self.recent_list = QListWidget(self.welcome)
        col = QVBoxLayout(self.welcome)
        col.setContentsMargins(60, 40, 60, 40)
        col.addWidget(self.welcome_title)
        col.addWidget(self.welcome_text)
        buttons = QHBoxLayout()
        buttons.addWidget(self.demo_button)
        buttons.addWidget(self.open_button)
        buttons.addStretch(1)
        col.addLayout(buttons)
        col.addWidget(self.recent_label)
        col.addWidget(self.recent_list, 1)
        self.stack.addWidget(self.welcome)

        # the review page: threshold + groups + problems on the left, the diff on the right
        self.review_page = QSplitter(Qt.Orientation.Horizontal, self.stack)
        left = QWidget(self.review_page)
        self.threshold_bar = ThresholdBar(left)
        self.filter_edit = QLineEdit(left)
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setObjectName("filter")
        self.groups_view = QTreeView(left)
        self.groups_view.setObjectName("groups")
        self.groups_view.setModel(self.groups_model)
        self.groups_view.setUniformRowHeights(True)  # no per-row size queries over 100,000 groups
        self.groups_view.setSortingEnabled(True)
        self.groups_view.header().setSortIndicator(1, Qt.SortOrder.DescendingOrder)
        self.groups_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.groups_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.groups_view.setAllColumnsShowFocus(True)
        header = self.groups_view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for col, width in enumerate((310, 76, 70, 70, 80, 120, 70, 100)):
            header.resizeSection(col, width)
        self.problems_view = QTableView(left)
        self.problems_view.setModel(self.problems_model)
        self.problems_view.horizontalHeader().setStretchLastSection(True)
        self.problems_view.setColumnWidth(0, 320)
        self.tabs = QTabWidget(left)
        self.tabs.addTab(self.groups_view, "")
        self.tabs.addTab(self.problems_view, "")
        col = QVBoxLayout(left)
        col.setContentsMargins(4, 4, 4, 4)
        col.addWidget(self.threshold_bar)
        col.addWidget(self.filter_edit)
        col.addWidget(self.tabs, 1)
        self.diff_view = DiffView(self.review_page)
        self.review_page.addWidget(left)
        self.review_page.addWidget(self.diff_view)
        self.review_page.setStretchFactor(0, 6)
        self.review_page.setStretchFactor(1, 5)
        self.review_page.setSizes([600, 500])
        self.stack.addWidget(self.review_page)

        # the status bar: scan progress and its Cancel button
        self.progress_label = QLabel(self)
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setMaximumWidth(260)
        self.cancel_button = QPushButton(self)
        self.cancel_button.setObjectName("cancel")
        bar = self.statusBar()
        bar.addPermanentWidget(self.progress_label)
        bar.addPermanentWidget(self.progress_bar)
        bar.addPermanentWidget(self.cancel_button)
        self._show_progress(False)

    def _create_actions(self) -> None:
        def action(name: str, slot: Callable[[], None], shortcut: QKeySequence | str | None = None,
                   pixmap: str | None = None) -> QAction:
            a = QAction(self)
            a.setObjectName(name)
            a.triggered.connect(lambda _checked=False: slot())  # the slots take no `checked` argument
            if shortcut is not None:
                a.setShortcut(QKeySequence(shortcut))
            if pixmap is not None:
                a.setIcon(icon(pixmap))
            self.addAction(a)  # shortcuts work wherever the focus is in the window
            return a

        K = QKeySequence.StandardKey
        self.act_open = action("open", self.choose_folder, K.Open, "SP_DirOpenIcon")
        self.act_demo = action("demo", self.open_demo, None, "SP_FileDialogInfoView")
        self.act_rescan = action("rescan", self.rescan, K.Refresh, "SP_BrowserReload")
        self.act_cancel = action("cancel", self.cancel_scan, "Esc", "SP_BrowserStop")
        self.act_export_json = action("export_json", partial(self.choose_export, "json"))
        self.act_export_csv = action("export_csv", partial(self.choose_export, "csv"))
        self.act_settings = action("settings", self.edit_settings, K.Preferences)
        self.act_quit = action("quit", self.close, K.Quit)
        self.act_keep = action("keep", self.toggle_keep, "Space")
        self.act_queue = action("queue", self.toggle_queued, K.Delete)
        self.act_keep_rules = {rule: action(f"keep_{rule}", partial(self.keep_by_rule, rule))
                               for rule in ("oldest", "newest", "largest", "shortest_path")}
        self.act_keep_rules_all = {rule: action(f"keep_{rule}_everywhere", partial(self.keep_by_rule_everywhere, rule))
                                   for rule in ("oldest", "newest", "largest", "shortest_path")}
        self.act_not_duplicates = action("not_duplicates", self.mark_not_duplicates)
        self.act_trash = action("trash", self.trash_marked, "Shift+Del", "SP_TrashIcon")
        self.act_move = action("move", self.move_marked)
        self.act_undo = action("undo_cleanup", self.undo_last_cleanup)
        self.act_open_doc = action("open_document", self.open_document, "Ctrl+Return")
        self.act_reveal = action("reveal", self.reveal_document)
        self.act_copy_path = action("copy_path", self.copy_path, "Ctrl+Shift+C")
        self.act_next = action("next_change", self.diff_view.next_change, "N")
        self.act_prev = action("previous_change", self.diff_view.previous_change, "P")
        self.act_filter = action("find", lambda: self.filter_edit.setFocus(), K.Find)
        self.act_about = action("about", self.about)

    def _create_menus(self) -> None:
        bar = self.menuBar()
        self.menu_file = bar.addMenu("")
        for a in (self.act_open, self.act_demo):
            self.menu_file.addAction(a)
        self.menu_recent = self.menu_file.addMenu("")
        self.menu_file.addSeparator()
        for a in (self.act_rescan, self.act_cancel):
            self.menu_file.addAction(a)
        self.menu_file.addSeparator()
        for a in (self.act_export_json, self.act_export_csv):
            self.menu_file.addAction(a)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_settings)
        self.menu_file.addAction(self.act_quit)
        self.menu_review = bar.addMenu("")
        self.menu_review.addAction(self.act_keep)
        self.menu_review.addAction(self.act_queue)
        self.menu_keep_rules = self.menu_review.addMenu("")
        for a in self.act_keep_rules.values():
            self.menu_keep_rules.addAction(a)
        self.menu_keep_rules_all = self.menu_review.addMenu("")
        for a in self.act_keep_rules_all.values():
            self.menu_keep_rules_all.addAction(a)
        self.menu_review.addAction(self.act_not_duplicates)
        self.menu_review.addSeparator()
        self.menu_review.addAction(self.act_trash)
        self.menu_review.addAction(self.act_move)
        self.menu_review.addAction(self.act_undo)
        self.menu_document = bar.addMenu("")
        for a in (self.act_open_doc, self.act_reveal, self.act_copy_path):
            self.menu_document.addAction(a)
        self.menu_view = bar.addMenu("")
        for a in (self.act_next, self.act_prev, self.act_filter):
            self.menu_view.addAction(a)
        self.menu_help = bar.addMenu("")
        self.menu_help.addAction(self.act_about)
        toolbar = self.addToolBar("main")
        toolbar.setObjectName("toolbar")
        for a in (self.act_open, self.act_rescan, self.act_cancel, self.act_trash):
            toolbar.addAction(a)
        self.toolbar = toolbar

    def _wire(self) -> None:
        self.demo_button.clicked.connect(self.open_demo)
        self.open_button.clicked.connect(self.choose_folder)
        self.recent_list.itemActivated.connect(self._open_recent_item)
        self.cancel_button.clicked.connect(self.cancel_scan)
        self.threshold_bar.threshold_changed.connect(self.set_threshold)
        self.filter_edit.textChanged.connect(self.groups_model.set_filter)
        self.groups_view.selectionModel().selectionChanged.connect(self._selection_changed)
        self.groups_view.doubleClicked.connect(lambda _: self.open_document())
        self.groups_model.keep_toggled.connect(self._persist_keep)
        self.groups_model.queued_toggled.connect(self._persist_queued)
        self.groups_model.modelReset.connect(self._update_actions)

    def retranslate(self) -> None:
        """Every visible text, so switching the language in the settings applies at once."""
        self.setWindowTitle(self.tr("simdesk — near-duplicate documents") if self.root is None
                            else fill(self.tr("simdesk — %1"), str(self.root)))
        self.welcome_title.setText(self.tr("Find near-duplicate documents"))
        self.welcome_text.setText(self.tr(
            "Open a folder of text documents (or drop it on this window). simdesk indexes it, groups the "
            "documents that are nearly the same, and lets you compare them side by side and clean up safely."))
        self.demo_button.setText(self.tr("Open the demo collection"))
        self.open_button.setText(self.tr("Open a folder…"))
        self.recent_label.setText(self.tr("Recent folders"))
        self.filter_edit.setPlaceholderText(self.tr("Filter by path"))
        self.tabs.setTabText(0, self.tr("Groups"))
        self.tabs.setTabText(1, fill(self.tr("Problems (%1)"), str(len(self.problems_model.problems))))
        self.cancel_button.setText(self.tr("Cancel"))
        texts = {
            self.act_open: self.tr("&Open folder…"), self.act_demo: self.tr("Open the &demo collection"),
            self.act_rescan: self.tr("&Rescan"), self.act_cancel: self.tr("&Cancel scan"),
            self.act_export_json: self.tr("Export groups as &JSON…"),
            self.act_export_csv: self.tr("Export groups as C&SV…"),
            self.act_settings: self.tr("&Settings…"), self.act_quit: self.tr("&Quit"),
            self.act_keep: self.tr("&Keep this copy"), self.act_queue: self.tr("&Queue for the trash"),
            self.act_keep_rules["oldest"]: self.tr("Keep the &oldest"),
            self.act_keep_rules["newest"]: self.tr("Keep the &newest"),
            self.act_keep_rules["largest"]: self.tr("Keep the &largest"),
            self.act_keep_rules["shortest_path"]: self.tr("Keep the &shortest path"),
            self.act_keep_rules_all["oldest"]: self.tr("Keep the &oldest"),
            self.act_keep_rules_all["newest"]: self.tr("Keep the &newest"),
            self.act_keep_rules_all["largest"]: self.tr("Keep the &largest"),
            self.act_keep_rules_all["shortest_path"]: self.tr("Keep the &shortest path"),
            self.act_not_duplicates: self.tr("&Not duplicates"),
            self.act_trash: self.tr("Move the others to the &trash…"),
            self.act_move: self.tr("Move the others to a &folder…"),
            self.act_undo: self.tr("&Undo last clean-up"),
            self.act_open_doc: self.tr("&Open in the default application"),
            self.act_reveal: self.tr("&Reveal in the file manager"), self.act_copy_path: self.tr("&Copy path"),
            self.act_next: self.tr("&Next change"), self.act_prev: self.tr("&Previous change"),
            self.act_filter: self.tr("&Filter by path"), self.act_about: self.tr("&About simdesk"),
        }
        for a, text in texts.items():
            a.setText(text)
        self.act_not_duplicates.setToolTip(self.tr("The two selected documents never group together again"))
        self.menu_file.setTitle(self.tr("&File"))
        self.menu_recent.setTitle(self.tr("Open &recent"))
        self.menu_review.setTitle(self.tr("&Review"))
        self.menu_keep_rules.setTitle(self.tr("Keep in this group"))
        self.menu_keep_rules_all.setTitle(self.tr("Keep in every group"))
        self.menu_document.setTitle(self.tr("&Document"))
        self.menu_view.setTitle(self.tr("&View"))
        self.menu_help.setTitle(self.tr("&Help"))
        self.threshold_bar.retranslate()
        self.diff_view.retranslate()
        self.groups_model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.groups_model.columnCount() - 1)
        self._show_counts()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- opening a folder -----------------------------------------------------------------------------
    def open_folder(self, folder: Path | str) -> None:
        """Show the folder's groups from its index at once (if it was indexed before), then rescan."""
        self.stop_scan()
        self.root = Path(folder).resolve()
        self.index_path = paths.index_path(self.root, self.data_dir)
        self.settings.add_recent(str(self.root))
        self._refresh_recent()
        self.review = None
        self._unsaved_keep.clear()
        self.groups_model.queued.clear()
        self.groups_model.set_grouping(None, keep=set())
        self.problems_model.set_problems([])
        self.diff_view.clear()
        self.stack.setCurrentWidget(self.review_page)
        self._opened_at = time.perf_counter()
        self.retranslate()
        self._start_scan(show_index_first=True)

    def open_demo(self) -> None:
        if self.demo is not None:
            self.open_folder(self.demo())

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open a folder of documents"),
                                                  self.settings.get("ui/last_folder"))
        if folder:
            self.open_folder(folder)

    def rescan(self) -> None:
        if self.root is not None:
            self.stop_scan()
            self._start_scan(show_index_first=False)

    def _start_scan(self, show_index_first: bool) -> None:
        assert self.root is not None and self.index_path is not None
        worker = ScanWorker(self.root, self.index_path, self.settings.scan_options(), MAX_THRESHOLD,
                            show_index_first, self.settings.min_similarity(), self.threshold_bar.value())
        job = ScanJob(worker, self)
        worker.loaded.connect(self._on_loaded)
        worker.progress.connect(self._on_progress)
        worker.finished.connect(self._on_finished)
        worker.failed.connect(self._on_failed)
        job.done.connect(self._on_job_done)
        self.scan_job = job
        self._show_progress(True)
        self.progress_label.setText(self.tr("Opening the index…"))
        self.progress_bar.setRange(0, 0)
        job.start()
        self._update_actions()

    def cancel_scan(self) -> None:
        if self.scan_job is not None:
            self.scan_job.cancel()
            self.progress_label.setText(self.tr("Cancelling…"))

    def stop_scan(self) -> None:
        """Cancel any running scan and wait a little for its thread (opening another folder, closing the
        window). A thread still busy after that is kept until it ends: deleting a running QThread aborts."""
        if self.scan_job is not None:
            job, self.scan_job = self.scan_job, None
            if job.stop():
                job.deleteLater()
            else:
                self._retired_jobs.add(job)
            self._show_progress(False)

    def is_scanning(self) -> bool:
        return self.scan_job is not None and self.scan_job.is_running()

    @Slot(object)
    def _on_loaded(self, review: Review) -> None:
        if self.sender() is not (self.scan_job.worker if self.scan_job else None):
            return  # a stale worker from a folder that is no longer open
        self._apply_review(review)

    @Slot(object)
    def _on_finished(self, review: Review) -> None:
        if self.sender() is not (self.scan_job.worker if self.scan_job else None):
            return
        if review.unchanged and self.review is not None:
            # the groups on screen (and any regrouping the editor did meanwhile) stand; only the scan's
            # result and problems are new
            self.review.result, self.review.problems = review.result, review.problems
            self.problems_model.set_problems(review.problems)
            self.tabs.setTabText(1, fill(self.tr("Problems (%1)"), str(len(review.problems))))
        else:
            self._apply_review(review)
        stats = review.result.stats if review.result else None
        if stats is not None:
            if stats.cancelled:
                message = fill(self.tr("Scan cancelled: %1 documents indexed so far are kept"),
                               f"{review.documents:,}")
            else:
                message = fill(self.tr("Scanned %1 files in %2 s: %3 new, %4 changed, %5 deleted, %6 problems"),
                               f"{stats.listed:,}", f"{stats.seconds:.1f}", f"{stats.new:,}", f"{stats.changed:,}",
                               f"{stats.deleted:,}", f"{stats.problems:,}")
            self.statusBar().showMessage(message)
        self._show_progress(False)
        self.review_ready.emit()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        if self.sender() is not (self.scan_job.worker if self.scan_job else None):
            return
        self._show_progress(False)
        self.statusBar().showMessage(fill(self.tr("The scan failed: %1"), message))
        self._warn("scan_failed", self.tr("The scan failed"), message)
        self.failed.emit(message)

    @Slot()
    def _on_job_done(self) -> None:
        job = self.sender()
        if job is self.scan_job:
            self.scan_job = None
            job.deleteLater()
            self._show_progress(False)
        elif job in self._retired_jobs:
            self._retired_jobs.discard(job)
            job.deleteLater()
        self._update_actions()

    @Slot(object)
    def _on_progress(self, p: Progress) -> None:
        if p.phase == "waiting":
            self.progress_bar.setRange(0, 0)
            self.progress_label.setText(self.tr("Waiting for another scan of this folder to end…"))
        elif p.phase == "listing":
            self.progress_bar.setRange(0, 0)
            self.progress_label.setText(fill(self.tr("Listing files… %1 found"), f"{p.done:,}"))
        elif p.phase == "reading":
            self.progress_bar.setRange(0, max(p.total, 1))
            self.progress_bar.setValue(p.done)
            eta = fill(self.tr("about %1 s left"), f"{p.eta:.0f}") if p.eta is not None else ""
            self.progress_label.setText(fill(self.tr("%1 / %2 files · %3 files/s · %4"), f"{p.done:,}",
                                             f"{p.total:,}", f"{p.rate:.0f}", eta))
        elif p.phase == "verifying" and p.total:
            self.progress_bar.setRange(0, p.total)
            self.progress_bar.setValue(p.done)
            self.progress_label.setText(fill(self.tr("Checking %1 candidate pairs on their texts…"),
                                             f"{p.total:,}"))
        else:  # saving, boilerplate, pairing, done
            self.progress_bar.setRange(0, 0)
            self.progress_label.setText(self.tr("Grouping…"))

    def _show_progress(self, visible: bool) -> None:
        for w in (self.progress_label, self.progress_bar, self.cancel_button):
            w.setVisible(visible)

    # -- groups at a threshold ------------------------------------------------------------------------
    def _apply_review(self, review: Review) -> None:
        # marks the writer has not stored yet were not in the index this review was read from
        for path, keep in self._unsaved_keep.items():
            (review.keep.add if keep else review.keep.discard)(path)
        for path, queued in self._unsaved_queue.items():
            (review.queued.add if queued else review.queued.discard)(path)
        self.groups_model.queued.clear()
        self.groups_model.queued.update(review.queued - review.keep)
        self.review = review
        self.threshold_bar.set_histogram(review.grouper.histogram())
        self.problems_model.set_problems(review.problems)
        self.tabs.setTabText(1, fill(self.tr("Problems (%1)"), str(len(review.problems))))
        self.set_threshold(self.threshold_bar.value())

    @Slot(int)
    def set_threshold(self, threshold: int) -> None:
        """Regroup in memory at `threshold` (no rescan, no index query)."""
        self.threshold_bar.set_value(threshold)
        self.settings.set("review/last_threshold", threshold)
        if self.review is None:
            return
        selected = self._selected_paths()
        self.groups_model.set_grouping(self.review.grouper.at(threshold), keep=self.review.keep)
        self._reselect(selected)
        self._show_counts()
        self.groups_shown.emit()

    def _show_counts(self) -> None:
        g = self.groups_model.grouping
        if g is None or self.review is None:
            self.threshold_bar.set_counts(0, 0, 0, 0)
            return
        self.threshold_bar.set_counts(len(g), g.documents_in_groups, g.redundant, self.review.documents,
                                      self.review.min_similarity)

    # -- selection and the diff -----------------------------------------------------------------------
    def _selected_paths(self) -> list[str]:
        return [p for i in self.groups_view.selectionModel().selectedRows(COL_PATH)
                if (p := (m.path if (m := self.groups_model.member(i)) else None))]

    def _reselect(self, paths: list[str]) -> None:
        """After a regroup or rescan, select the same members again where they still are in a group."""
        indexes = [i for p in paths if (i := self.groups_model.index_of_path(p)).isValid()]
        self.select_members([i for i in indexes if i.parent() == indexes[0].parent()] if indexes else [])

    def select_members(self, indexes: list[QModelIndex]) -> None:
        """Select these member rows (expanding their group), the first one current."""
        if not indexes:
            return
        selection = self.groups_view.selectionModel()
        self.groups_view.expand(indexes[0].parent())
        flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        selection.setCurrentIndex(indexes[0], QItemSelectionModel.SelectionFlag.ClearAndSelect
                                  | QItemSelectionModel.SelectionFlag.Rows)
        for idx in indexes[1:]:
            selection.select(idx, flags)
        self.groups_view.scrollTo(indexes[0])

    def selected_members(self) -> list[Member]:
        rows = sorted(self.groups_view.selectionModel().selectedRows(COL_PATH),
                      key=lambda i: (i.parent().row(), i.row()))
        return [m for i in rows if (m := self.groups_model.member(i)) is not None]

    def current_pair(self) -> tuple[Member, Member] | None:
        """What to compare: two selected members; or one and its group's representative; or a group's
        first two members."""
        members = self.selected_members()
        if len(members) >= 2:
            return members[0], members[1]
        group = self.groups_model.group(self.groups_view.currentIndex())
        if group is None or len(group.members) < 2:
            return None
        if len(members) == 1 and members[0].path != group.members[0].path:
            return group.members[0], members[0]
        return group.members[0], group.members[1]

    def _selection_changed(self) -> None:
        self._update_actions()
        pair = self.current_pair()
        if pair is None or self.root is None:
            self.diff_view.clear()
            return
        self._diff_request += 1
        request = self._diff_request
        left, right = pair
        root = self.root
        max_bytes = self.settings.scan_options().max_bytes
        self.diff_view.summary.setText(self.tr("Comparing…"))
        self.background.call(lambda: compare_files(root / left.path, root / right.path, max_bytes),
                             partial(self._show_diff, request, left.path, right.path),
                             partial(self._diff_failed, request))

    def _show_diff(self, request: int, left: str, right: str, result) -> None:
        if request != self._diff_request:
            return  # the selection moved on while this was computed
        self.diff_view.show_result(result, left, right)
        self.diff_shown.emit()

    def _diff_failed(self, request: int, message: str) -> None:
        if request == self._diff_request:
            self.diff_view.clear(fill(self.tr("Cannot compare: %1"), message))

    # -- decisions ------------------------------------------------------------------------------------
    def _current_member_index(self) -> QModelIndex | None:
        idx = self.groups_view.currentIndex()
        if self.groups_model.member(idx) is None:
            return None
        return self.groups_model.index(idx.row(), COL_PATH, idx.parent())

    def toggle_keep(self) -> None:
        if (idx := self._current_member_index()) is not None:
            self.groups_model.toggle_keep(idx)

    def toggle_queued(self) -> None:
        if (idx := self._current_member_index()) is not None:
            self.groups_model.toggle_queued(idx)

    def keep_by_rule(self, rule: str) -> None:
        idx = self.groups_view.currentIndex()
        group = self.groups_model.group(idx)
        if group is not None:
            self.groups_model.keep_only(idx, keep_by_rule(group, rule).path)

    def keep_by_rule_everywhere(self, rule: str) -> None:
        """Apply a one-click rule to every group at the current threshold (computed off the GUI thread)."""
        grouping = self.groups_model.grouping
        if grouping is None:
            return
        self.background.call(lambda: keep_marks_by_rule(grouping, rule), self._apply_keep_marks)

    def _apply_keep_marks(self, marks: tuple[set[str], set[str]]) -> None:
        keep, drop = marks
        self.groups_model.apply_keep_marks(keep, drop)
        if self.index_path is not None:
            changes = {**{p: False for p in drop}, **{p: True for p in keep}}
            self._unsaved_keep.update(changes)
            self.writer.call(partial(write_keeps, self.index_path, keep, drop), partial(self._saved, changes),
                             self._decision_failed)
        self.statusBar().showMessage(fill(self.tr("One copy marked to keep in each of %1 groups"), f"{len(keep):,}"))

    @Slot(str, bool)
    def _persist_keep(self, path: str, keep: bool) -> None:
        if self.index_path is not None:
            self._unsaved_keep[path] = keep
            self.writer.call(partial(write_keep, self.index_path, path, keep), partial(self._saved, {path: keep}),
                             self._decision_failed)

    @Slot(str, bool)
    def _persist_queued(self, path: str, queued: bool) -> None:
        if self.index_path is not None:
            self._unsaved_queue[path] = queued
            self.writer.call(partial(write_queued, self.index_path, path, queued),
                             partial(self._queue_saved, path, queued), self._decision_failed)

    def _queue_saved(self, path: str, queued: bool, _result: object = None) -> None:
        if self._unsaved_queue.get(path) == queued:  # a later change to the same path is still on its way
            del self._unsaved_queue[path]

    def _saved(self, changes: dict[str, bool], _result: object = None) -> None:
        for path, keep in changes.items():
            if self._unsaved_keep.get(path) == keep:  # a later change to the same path is still on its way
                del self._unsaved_keep[path]

    def mark_not_duplicates(self) -> None:
        pair = self.current_pair()
        if pair is None or self.review is None or self.index_path is None:
            return
        a, b = pair[0].path, pair[1].path
        self.writer.call(partial(write_not_duplicates, self.index_path, a, b), None, self._decision_failed)
        # regroup in memory without the pair; the index holds the decision for the next start
        self.review.grouper = self.review.grouper.without([(a, b)])
        self.set_threshold(self.threshold_bar.value())
        self.statusBar().showMessage(fill(self.tr("%1 and %2 will not be grouped together again"), a, b))

    def _decision_failed(self, message: str) -> None:
        self.statusBar().showMessage(fill(self.tr("Could not save the decision: %1"), message))

    # -- clean-up -------------------------------------------------------------------------------------
    def trash_marked(self) -> None:
        self._plan_cleanup("trash", None)

    def move_marked(self) -> None:
        dest = QFileDialog.getExistingDirectory(self, self.tr("Move the duplicates to…"))
        if dest:
            self.move_marked_to(Path(dest))

    def move_marked_to(self, dest: Path) -> None:
        """Plan moving every copy not kept below `dest` (keeping relative paths), then ask to confirm."""
        self._plan_cleanup("move", dest)

    def _plan_cleanup(self, action: str, dest: Path | None) -> None:
        grouping, model = self.groups_model.grouping, self.groups_model
        if grouping is None or self.root is None:
            return
        keep, queued = set(model.keep), set(model.queued)
        self.background.call(lambda: plan_cleanup(grouping, keep, queued),
                             partial(self._confirm_cleanup, action, dest))

    def _confirm_cleanup(self, action: str, dest: Path | None, plan: CleanupPlan) -> None:
        refused = ""
        if plan.refusals:
            refused = "\n\n" + fill(self.tr("%1 groups are left alone because every copy in them is queued: "
                                       "mark one copy to keep."), str(len(plan.refusals)))
        box = QMessageBox(self)
        box.setTextFormat(Qt.TextFormat.PlainText)  # the destination folder's name is not HTML
        box.setObjectName("confirm_cleanup")
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(self.tr("Clean up"))
        if plan.files == 0:
            box.setIcon(QMessageBox.Icon.Information)
            box.setText(self.tr("Nothing to remove. Mark the copy to keep in a group (Space) and the others go, "
                                "or queue single copies (Delete).") + refused)
            box.setStandardButtons(QMessageBox.StandardButton.Ok)
        else:
            question = (self.tr("Move %1 files (%2) to the trash?") if action == "trash"
                        else self.tr("Move %1 files (%2) to %3?"))
            box.setText(fill(question, f"{plan.files:,}", human_size(plan.bytes), dest) + refused)
            box.setInformativeText(self.tr("Each file is checked to be unchanged since the scan first; "
                                           "changed files are skipped."))
            box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)
            box.setDefaultButton(QMessageBox.StandardButton.Cancel)
            box.accepted.connect(partial(self.carry_out, plan, action, dest))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # window-modal, without a nested event loop

    def carry_out(self, plan: CleanupPlan, action: str, dest: Path | None = None) -> None:
        """Execute a confirmed plan off the GUI thread; the report says what was verified done."""
        assert self.root is not None
        root, log = self.root, paths.action_log(self.data_dir)
        self.statusBar().showMessage(self.tr("Cleaning up…"))
        self.background.call(lambda: execute(plan, root, action, dest=dest, log_path=log), self._cleanup_finished,
                             self._cleanup_failed)

    def _cleanup_finished(self, report: CleanupReport) -> None:
        self.last_report = report
        self.groups_model.queued.difference_update(report.done)
        done = (self.tr("%1 files sent to the trash (%2).") if report.action == "trash"
                else self.tr("%1 files moved (%2)."))
        text = fill(done, len(report.done), human_size(report.bytes_done))
        details = [f"{p}: {why}" for p, why in report.skipped + report.failed]
        if report.skipped:
            text += " " + fill(self.tr("%1 skipped."), str(len(report.skipped)))
        if report.failed:
            text += " " + fill(self.tr("%1 failed."), str(len(report.failed)))
        self.statusBar().showMessage(text)
        box = QMessageBox(QMessageBox.Icon.Information, self.tr("Clean-up finished"), text,
                          QMessageBox.StandardButton.Ok, self)
        box.setObjectName("cleanup_report")
        if details:
            box.setDetailedText("\n".join(details))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.cleanup_done.emit(report)
        self.rescan()  # the index learns what left, and the groups refresh

    def _cleanup_failed(self, message: str) -> None:
        self._warn("cleanup_failed", self.tr("Clean-up failed"), message)

    def undo_last_cleanup(self) -> None:
        """Put the files of the last clean-up back (core.undo), off the GUI thread; report what came back."""
        from simdesk.core.undo import undo_last_cleanup

        log = paths.action_log(self.data_dir)
        self.background.call(lambda: undo_last_cleanup(log), self._undo_finished, self._cleanup_failed)

    def _undo_finished(self, report) -> None:
        text = (self.tr("Nothing to undo.") if report.run is None
                else fill(self.tr("%1 files restored, %2 not restored."), str(len(report.restored)),
                          str(len(report.not_restored))))
        self.statusBar().showMessage(text)
        box = QMessageBox(QMessageBox.Icon.Information, self.tr("Undo last clean-up"), text,
                          QMessageBox.StandardButton.Ok, self)
        box.setObjectName("undo_report")
        if report.not_restored:
            box.setDetailedText("\n".join(f"{p}: {why}" for p, why in report.not_restored))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.undo_done.emit(report)
        if report.restored and self.root is not None:
            self.rescan()

    # -- documents ------------------------------------------------------------------------------------
    def _current_path(self) -> Path | None:
        idx = self.groups_view.currentIndex()
        member = self.groups_model.member(idx)
        group = self.groups_model.group(idx)
        rel = member.path if member else (group.members[0].path if group else None)
        return self.root / rel if rel and self.root else None

    def open_document(self) -> None:
        if (path := self._current_path()) is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))

    def reveal_document(self) -> None:
        if (path := self._current_path()) is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(path.parent)))

    def copy_path(self) -> None:
        if (path := self._current_path()) is not None:
            QGuiApplication.clipboard().setText(str(path))

    # -- export ---------------------------------------------------------------------------------------
    def choose_export(self, fmt: str) -> None:
        if self.groups_model.grouping is None:
            return
        name, _ = QFileDialog.getSaveFileName(self, self.tr("Export groups"), f"groups.{fmt}",
                                              "JSON (*.json)" if fmt == "json" else "CSV (*.csv)")
        if name:
            self.export_to(Path(name), fmt)

    def export_to(self, path: Path, fmt: str) -> None:
        """Write the current groups as JSON (the `simdesk scan --format json` shape) or CSV, off the GUI thread."""
        grouping, review = self.groups_model.grouping, self.review
        if grouping is None or review is None or self.root is None:
            return
        root, documents, problems = str(self.root), review.documents, list(review.problems)

        def write() -> str:
            text = (report_mod.grouping_json(root, grouping, documents, problems) if fmt == "json"
                    else report_mod.groups_csv(grouping, problems))
            Path(path).write_text(text, encoding="utf-8")
            return str(path)

        self.background.call(write, self._exported, self._export_failed)

    def _exported(self, path: str) -> None:
        self.statusBar().showMessage(fill(self.tr("Exported to %1"), path))
        self.exported.emit(path)

    def _export_failed(self, message: str) -> None:
        self._warn("export_failed", self.tr("Export failed"), message)

    def _warn(self, name: str, title: str, message: str) -> None:
        """A window-modal warning that does not block the caller (no nested event loop)."""
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self)
        box.setTextFormat(Qt.TextFormat.PlainText)  # messages carry file names: never read as HTML
        box.setObjectName(name)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # -- settings, recent, drop, close ----------------------------------------------------------------
    def edit_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self)
        if dialog.exec():
            dialog.save()
            self.language_changed.emit(self.settings.get("ui/language"))

    def about(self) -> None:
        QMessageBox.about(self, self.tr("About simdesk"), self.tr(
            "simdesk finds near-duplicate text documents (Chinese first) with 64-bit SimHash fingerprints "
            "kept in a SQLite index, and helps you clean them up safely."))

    def _refresh_recent(self) -> None:
        self.recent_list.clear()
        self.menu_recent.clear()
        for folder in self.settings.get("ui/recent_folders"):
            QListWidgetItem(folder, self.recent_list)
            a = self.menu_recent.addAction(folder)
            a.triggered.connect(partial(self.open_folder, folder))

    def _open_recent_item(self, item: QListWidgetItem) -> None:
        self.open_folder(item.text())

    def _update_actions(self) -> None:
        has_groups = self.groups_model.grouping is not None
        has_member = self.groups_model.member(self.groups_view.currentIndex()) is not None
        has_group = self.groups_model.group(self.groups_view.currentIndex()) is not None
        for a in (self.act_export_json, self.act_export_csv, self.act_trash, self.act_move,
                  *self.act_keep_rules_all.values()):
            a.setEnabled(has_groups)
        for a in (self.act_keep, self.act_queue):
            a.setEnabled(has_member)
        for a in (*self.act_keep_rules.values(), self.act_not_duplicates, self.act_open_doc, self.act_reveal,
                  self.act_copy_path):
            a.setEnabled(has_group)
        self.act_rescan.setEnabled(self.root is not None)
        self.act_cancel.setEnabled(self.scan_job is not None)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile() and Path(urls[0].toLocalFile()).is_dir():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile() and Path(urls[0].toLocalFile()).is_dir():
            event.acceptProposedAction()
            QTimer.singleShot(0, partial(self.open_folder, urls[0].toLocalFile()))

    def closeEvent(self, event: QCloseEvent) -> None:
        self.settings.set_geometry(self.saveGeometry(), self.saveState())
        self.settings.set("review/last_threshold", self.threshold_bar.value())
        self.settings.sync()
        self.stop_scan()
        for job in list(self._retired_jobs):
            job.thread.wait()
        self.background.wait()
        self.writer.wait()
        super().closeEvent(event)
