"""The main window's parts: its widgets and their layout, its actions and menus, and every visible text
(so a change of language applies at once). Functions of the window, kept out of main_window.py, which wires
these parts to the review."""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QListWidget,
                               QListWidgetItem, QProgressBar, QPushButton, QSplitter, QStackedWidget, QTableView,
                               QTabWidget, QTreeView, QVBoxLayout, QWidget)

from simdesk.core import KEEP_RULES
from simdesk.gui.diff_view import DiffView
from simdesk.gui.resources import icon
from simdesk.gui.threshold_bar import ThresholdBar
from simdesk.gui.translations import fill

if TYPE_CHECKING:
    from simdesk.gui.main_window import MainWindow


def build_widgets(w: MainWindow) -> None:
    w.stack = QStackedWidget(w)
    w.setCentralWidget(w.stack)

    # the welcome page: demo, open, recent folders
    w.welcome = QWidget(w.stack)
    w.welcome_title = QLabel(w.welcome)
    w.welcome_title.setObjectName("welcome_title")
    font = w.welcome_title.font()
    font.setPointSize(font.pointSize() + 6)
    w.welcome_title.setFont(font)
    w.welcome_text = QLabel(w.welcome)
    w.welcome_text.setWordWrap(True)
    w.demo_button = QPushButton(w.welcome)
    w.open_button = QPushButton(w.welcome)
    w.recent_label = QLabel(w.welcome)
    w.recent_list = QListWidget(w.welcome)
    col = QVBoxLayout(w.welcome)
    col.setContentsMargins(60, 40, 60, 40)
    col.addWidget(w.welcome_title)
    col.addWidget(w.welcome_text)
    buttons = QHBoxLayout()
    buttons.addWidget(w.demo_button)
    buttons.addWidget(w.open_button)
    buttons.addStretch(1)
    col.addLayout(buttons)
    col.addWidget(w.recent_label)
    col.addWidget(w.recent_list, 1)
    w.stack.addWidget(w.welcome)

    # the review page: threshold + groups + problems on the left, the diff on the right
    w.review_page = QSplitter(Qt.Orientation.Horizontal, w.stack)
    left = QWidget(w.review_page)
    w.threshold_bar = ThresholdBar(left)
    w.filter_edit = QLineEdit(left)
    w.filter_edit.setClearButtonEnabled(True)
    w.filter_edit.setObjectName("filter")
    w.groups_view = QTreeView(left)
    w.groups_view.setObjectName("groups")
    w.groups_view.setModel(w.groups_model)
    w.groups_view.setUniformRowHeights(True)  # no per-row size queries over 100,000 groups
    w.groups_view.setSortingEnabled(True)
    w.groups_view.header().setSortIndicator(1, Qt.SortOrder.DescendingOrder)
    w.groups_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    w.groups_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    w.groups_view.setAllColumnsShowFocus(True)
    header = w.groups_view.header()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    for col, width in enumerate((310, 76, 70, 70, 80, 120, 70, 100)):
        header.resizeSection(col, width)
    w.problems_view = QTableView(left)
    w.problems_view.setModel(w.problems_model)
    w.problems_view.horizontalHeader().setStretchLastSection(True)
    w.problems_view.setColumnWidth(0, 320)
    w.tabs = QTabWidget(left)
    w.tabs.addTab(w.groups_view, "")
    w.tabs.addTab(w.problems_view, "")
    col = QVBoxLayout(left)
    col.setContentsMargins(4, 4, 4, 4)
    col.addWidget(w.threshold_bar)
    col.addWidget(w.filter_edit)
    col.addWidget(w.tabs, 1)
    w.diff_view = DiffView(w.review_page)
    w.review_page.addWidget(left)
    w.review_page.addWidget(w.diff_view)
    w.review_page.setStretchFactor(0, 6)
    w.review_page.setStretchFactor(1, 5)
    w.review_page.setSizes([600, 500])
    w.stack.addWidget(w.review_page)

    # the status bar: scan progress and its Cancel button
    w.progress_label = QLabel(w)
    w.progress_bar = QProgressBar(w)
    w.progress_bar.setMaximumWidth(260)
    w.cancel_button = QPushButton(w)
    w.cancel_button.setObjectName("cancel")
    bar = w.statusBar()
    bar.addPermanentWidget(w.progress_label)
    bar.addPermanentWidget(w.progress_bar)
    bar.addPermanentWidget(w.cancel_button)
    for widget in (w.progress_label, w.progress_bar, w.cancel_button):
        widget.setVisible(False)


def create_actions(w: MainWindow) -> None:
    def action(name: str, slot: Callable[[], None], shortcut: QKeySequence | str | None = None,
               pixmap: str | None = None) -> QAction:
        a = QAction(w)
        a.setObjectName(name)
        a.triggered.connect(lambda _checked=False: slot())  # the slots take no `checked` argument
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        if pixmap is not None:
            a.setIcon(icon(pixmap))
        w.addAction(a)  # shortcuts work wherever the focus is in the window
        return a

    K = QKeySequence.StandardKey
    w.act_open = action("open", w.choose_folder, K.Open, "SP_DirOpenIcon")
    w.act_demo = action("demo", w.open_demo, None, "SP_FileDialogInfoView")
    w.act_rescan = action("rescan", w.rescan, K.Refresh, "SP_BrowserReload")
    w.act_cancel = action("cancel", w.cancel_scan, "Esc", "SP_BrowserStop")
    w.act_export_json = action("export_json", partial(w.choose_export, "json"))
    w.act_export_csv = action("export_csv", partial(w.choose_export, "csv"))
    w.act_settings = action("settings", w.edit_settings, K.Preferences)
    w.act_quit = action("quit", w.close, K.Quit)
    w.act_keep = action("keep", w.toggle_keep, "Space")
    w.act_queue = action("queue", w.toggle_queued, K.Delete)
    w.act_keep_rules = {rule: action(f"keep_{rule}", partial(w.keep_by_rule, rule))
                           for rule in KEEP_RULES}
    w.act_keep_rules_all = {rule: action(f"keep_{rule}_everywhere", partial(w.keep_by_rule_everywhere, rule))
                               for rule in KEEP_RULES}
    w.act_not_duplicates = action("not_duplicates", w.mark_not_duplicates)
    w.act_trash = action("trash", w.trash_marked, "Shift+Del", "SP_TrashIcon")
    w.act_move = action("move", w.move_marked)
    w.act_undo = action("undo_cleanup", w.undo_last_cleanup)
    w.act_open_doc = action("open_document", w.open_document, "Ctrl+Return")
    w.act_reveal = action("reveal", w.reveal_document)
    w.act_copy_path = action("copy_path", w.copy_path, "Ctrl+Shift+C")
    w.act_next = action("next_change", w.diff_view.next_change, "N")
    w.act_prev = action("previous_change", w.diff_view.previous_change, "P")
    w.act_filter = action("find", lambda: w.filter_edit.setFocus(), K.Find)
    w.act_about = action("about", w.about)


def create_menus(w: MainWindow) -> None:
    bar = w.menuBar()
    w.menu_file = bar.addMenu("")
    for a in (w.act_open, w.act_demo):
        w.menu_file.addAction(a)
    w.menu_recent = w.menu_file.addMenu("")
    w.menu_file.addSeparator()
    for a in (w.act_rescan, w.act_cancel):
        w.menu_file.addAction(a)
    w.menu_file.addSeparator()
    for a in (w.act_export_json, w.act_export_csv):
        w.menu_file.addAction(a)
    w.menu_file.addSeparator()
    w.menu_file.addAction(w.act_settings)
    w.menu_file.addAction(w.act_quit)
    w.menu_review = bar.addMenu("")
    w.menu_review.addAction(w.act_keep)
    w.menu_review.addAction(w.act_queue)
    w.menu_keep_rules = w.menu_review.addMenu("")
    for a in w.act_keep_rules.values():
        w.menu_keep_rules.addAction(a)
    w.menu_keep_rules_all = w.menu_review.addMenu("")
    for a in w.act_keep_rules_all.values():
        w.menu_keep_rules_all.addAction(a)
    w.menu_review.addAction(w.act_not_duplicates)
    w.menu_review.addSeparator()
    w.menu_review.addAction(w.act_trash)
    w.menu_review.addAction(w.act_move)
    w.menu_review.addAction(w.act_undo)
    w.menu_document = bar.addMenu("")
    for a in (w.act_open_doc, w.act_reveal, w.act_copy_path):
        w.menu_document.addAction(a)
    w.menu_view = bar.addMenu("")
    for a in (w.act_next, w.act_prev, w.act_filter):
        w.menu_view.addAction(a)
    w.menu_help = bar.addMenu("")
    w.menu_help.addAction(w.act_about)
    toolbar = w.addToolBar("main")
    toolbar.setObjectName("toolbar")
    for a in (w.act_open, w.act_rescan, w.act_cancel, w.act_trash):
        toolbar.addAction(a)
    w.toolbar = toolbar


def retranslate(w: MainWindow) -> None:
    """Every visible text, so switching the language in the settings applies at once."""
    w.setWindowTitle(w.tr("simdesk — near-duplicate documents") if w.root is None
                        else fill(w.tr("simdesk — %1"), str(w.root)))
    w.welcome_title.setText(w.tr("Find near-duplicate documents"))
    w.welcome_text.setText(w.tr(
        "Open a folder of text documents (or drop it on this window). simdesk indexes it, groups the "
        "documents that are nearly the same, and lets you compare them side by side and clean up safely."))
    w.demo_button.setText(w.tr("Open the demo collection"))
    w.open_button.setText(w.tr("Open a folder…"))
    w.recent_label.setText(w.tr("Recent folders"))
    w.filter_edit.setPlaceholderText(w.tr("Filter by path"))
    w.tabs.setTabText(0, w.tr("Groups"))
    w.tabs.setTabText(1, fill(w.tr("Problems (%1)"), str(len(w.problems_model.problems))))
    w.cancel_button.setText(w.tr("Cancel"))
    texts = {
        w.act_open: w.tr("&Open folder…"), w.act_demo: w.tr("Open the &demo collection"),
        w.act_rescan: w.tr("&Rescan"), w.act_cancel: w.tr("&Cancel scan"),
        w.act_export_json: w.tr("Export groups as &JSON…"),
        w.act_export_csv: w.tr("Export groups as C&SV…"),
        w.act_settings: w.tr("&Settings…"), w.act_quit: w.tr("&Quit"),
        w.act_keep: w.tr("&Keep this copy"), w.act_queue: w.tr("&Queue for the trash"),
        w.act_keep_rules["oldest"]: w.tr("Keep the &oldest"),
        w.act_keep_rules["newest"]: w.tr("Keep the &newest"),
        w.act_keep_rules["largest"]: w.tr("Keep the &largest"),
        w.act_keep_rules["shortest_path"]: w.tr("Keep the &shortest path"),
        w.act_keep_rules_all["oldest"]: w.tr("Keep the &oldest"),
        w.act_keep_rules_all["newest"]: w.tr("Keep the &newest"),
        w.act_keep_rules_all["largest"]: w.tr("Keep the &largest"),
        w.act_keep_rules_all["shortest_path"]: w.tr("Keep the &shortest path"),
        w.act_not_duplicates: w.tr("&Not duplicates"),
        w.act_trash: w.tr("Move the others to the &trash…"),
        w.act_move: w.tr("Move the others to a &folder…"),
        w.act_undo: w.tr("&Undo last clean-up"),
        w.act_open_doc: w.tr("&Open in the default application"),
        w.act_reveal: w.tr("&Reveal in the file manager"), w.act_copy_path: w.tr("&Copy path"),
        w.act_next: w.tr("&Next change"), w.act_prev: w.tr("&Previous change"),
        w.act_filter: w.tr("&Filter by path"), w.act_about: w.tr("&About simdesk"),
    }
    for a, text in texts.items():
        a.setText(text)
    w.act_not_duplicates.setToolTip(w.tr("The two selected documents never group together again"))
    w.menu_file.setTitle(w.tr("&File"))
    w.menu_recent.setTitle(w.tr("Open &recent"))
    w.menu_review.setTitle(w.tr("&Review"))
    w.menu_keep_rules.setTitle(w.tr("Keep in this group"))
    w.menu_keep_rules_all.setTitle(w.tr("Keep in every group"))
    w.menu_document.setTitle(w.tr("&Document"))
    w.menu_view.setTitle(w.tr("&View"))
    w.menu_help.setTitle(w.tr("&Help"))
    w.threshold_bar.retranslate()
    w.diff_view.retranslate()
    w.groups_model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, w.groups_model.columnCount() - 1)


def update_actions(w: MainWindow) -> None:
    """Enable what applies to the current selection."""
    has_groups = w.groups_model.grouping is not None
    has_member = w.groups_model.member(w.groups_view.currentIndex()) is not None
    has_group = w.groups_model.group(w.groups_view.currentIndex()) is not None
    for a in (w.act_export_json, w.act_export_csv, w.act_trash, w.act_move,
              *w.act_keep_rules_all.values()):
        a.setEnabled(has_groups)
    for a in (w.act_keep, w.act_queue):
        a.setEnabled(has_member)
    for a in (*w.act_keep_rules.values(), w.act_not_duplicates, w.act_open_doc, w.act_reveal,
              w.act_copy_path):
        a.setEnabled(has_group)
    w.act_rescan.setEnabled(w.root is not None)
    w.act_cancel.setEnabled(w.scan_job is not None)


def refresh_recent(w: MainWindow) -> None:
    w.recent_list.clear()
    w.menu_recent.clear()
    for folder in w.settings.get("ui/recent_folders"):
        QListWidgetItem(folder, w.recent_list)
        w.menu_recent.addAction(folder).triggered.connect(partial(w.open_folder, folder))


def dropped_folder(event: QDragEnterEvent | QDropEvent) -> str | None:
    """The folder dragged onto the window, if what is dragged is one local folder."""
    urls = event.mimeData().urls()
    if urls and urls[0].isLocalFile() and Path(urls[0].toLocalFile()).is_dir():
        return urls[0].toLocalFile()
    return None
