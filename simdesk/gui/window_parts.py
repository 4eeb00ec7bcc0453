"""The main window's parts: its widgets and their layout, its actions and menus, every visible text (so a
change of language applies at once), and what is selected in the groups list. A base class of MainWindow,
which wires these parts to the review."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import QAbstractItemModel, QItemSelectionModel, QModelIndex, QPoint, Qt, QTimer, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QDragEnterEvent, QDropEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from simdesk.core import KEEP_RULES, Group, Member, Scope, action_scope
from simdesk.gui.diff_view import DiffView, ElidedTitle
from simdesk.gui.groups_model import COL_MEMBERS, COL_PATH, COLUMNS
from simdesk.gui.resources import icon
from simdesk.gui.threshold_bar import ThresholdBar
from simdesk.gui.translations import fill

UNCHECKED_BOX = (
    "QTableView::indicator:unchecked { width: 11px; height: 11px; border: 1px solid palette(text); "
    "background: palette(base); }"
)


class ElideEnd(QStyledItemDelegate):
    """Cuts a long cell at its end ('城市更新条例草案…'): a title's beginning says what it is."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideRight


class WindowParts(QMainWindow):
    """The main window's widgets, actions, menus and texts; MainWindow adds the wiring to the review.
    (Their texts are translated in this class's context, which Qt finds for MainWindow too.)"""

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
        self.decided_filter = QComboBox(left)  # every group, the undecided ones, the decided ones
        self.decided_filter.setObjectName("decided_filter")
        self.decided_filter.addItems(["", "", ""])
        # the groups, one row each, above the members of the current one: two flat tables (a view asks a flat
        # model for its visible cells only, so regrouping 4,000 groups costs a screenful)
        self.elide_end = ElideEnd(self)  # titles and sources cut at their end, in both lists
        self.groups_split = QSplitter(Qt.Orientation.Vertical, left)
        self.groups_split.setObjectName("groups_split")
        self.groups_view = self._list_view(self.groups_model, "groups")
        self.groups_view.setSortingEnabled(True)
        self.groups_view.horizontalHeader().setSortIndicator(COL_MEMBERS, Qt.SortOrder.DescendingOrder)
        self.members_view = self._list_view(self.members_model, "members")
        # the members' columns follow the groups' widths and order, which the settings remember
        groups_header, members_header = self.groups_view.horizontalHeader(), self.members_view.horizontalHeader()
        groups_header.sectionResized.connect(lambda col, _old, new: members_header.resizeSection(col, new))
        groups_header.sectionMoved.connect(lambda _col, old, new: members_header.moveSection(old, new))
        self.groups_split.addWidget(self.groups_view)
        self.groups_split.addWidget(self.members_view)
        self.groups_split.setStretchFactor(0, 3)
        self.groups_split.setStretchFactor(1, 2)
        self.problems_view = QTableView(left)
        self.problems_view.setModel(self.problems_model)
        self.problems_view.horizontalHeader().setStretchLastSection(True)
        self.problems_view.setColumnWidth(0, 320)
        self.tabs = QTabWidget(left)
        self.tabs.addTab(self.groups_split, "")
        self.tabs.addTab(self.problems_view, "")
        col = QVBoxLayout(left)
        col.setContentsMargins(4, 4, 4, 4)
        col.addWidget(self.threshold_bar)
        # a combo box's accessible name is its current item on Linux (Qt): a screen reader names it by its
        # label, this one
        self.decided_label = QLabel(left)
        self.decided_label.setBuddy(self.decided_filter)
        filters = QHBoxLayout()
        filters.addWidget(self.filter_edit, 1)
        filters.addWidget(self.decided_label)
        filters.addWidget(self.decided_filter)
        col.addLayout(filters)
        self.filter_note = QLabel(left)  # while a filter waits for texts not read yet: how far it searched
        self.filter_note.setObjectName("filter_note")
        self.filter_note.setVisible(False)
        col.addWidget(self.filter_note)
        col.addWidget(self.tabs, 1)
        self.diff_view = DiffView(self.review_page)
        self.review_page.addWidget(left)
        self.review_page.addWidget(self.diff_view)
        self.review_page.setStretchFactor(0, 6)
        self.review_page.setStretchFactor(1, 5)
        self.review_page.setSizes([600, 500])
        self.stack.addWidget(self.review_page)

        # the status bar: scan progress and its Cancel button
        self.progress_label = ElidedTitle(self, Qt.TextElideMode.ElideRight, widest=560)
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setMaximumWidth(260)
        self.cancel_button = QPushButton(self)
        self.cancel_button.setObjectName("cancel")
        bar = self.statusBar()
        self.reviewed_label = ElidedTitle(self, Qt.TextElideMode.ElideRight, widest=320)  # the review's progress
        self.reviewed_label.setObjectName("reviewed")
        bar.addPermanentWidget(self.reviewed_label)
        bar.addPermanentWidget(self.progress_label)
        bar.addPermanentWidget(self.progress_bar)
        bar.addPermanentWidget(self.cancel_button)
        for widget in (self.progress_label, self.progress_bar, self.cancel_button):
            widget.setVisible(False)

    def _list_view(self, model: QAbstractItemModel, name: str) -> QTableView:
        """A flat list of groups or members: whole rows selected, several at once, names elided in the
        middle (file name first: both ends stay), one row height for all (no per-row size query)."""
        view = QTableView(self)
        view.setObjectName(name)
        view.setModel(model)
        view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        view.setShowGrid(False)
        view.setWordWrap(False)
        view.setAlternatingRowColors(True)
        view.setTabKeyNavigation(False)  # Tab moves on to the next widget
        # an empty keep box drawn in the text's colour: the styles draw it in a shade lost on a dark base
        view.setStyleSheet(UNCHECKED_BOX)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(partial(self.show_context_menu, view))
        rows = view.verticalHeader()
        rows.setVisible(False)
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(view.fontMetrics().height() + 8)
        header = view.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setHighlightSections(False)
        for col, column in enumerate(COLUMNS):
            header.resizeSection(col, column.width)
            if column.elide_end:
                view.setItemDelegateForColumn(col, self.elide_end)
        return view

    def _create_actions(self) -> None:
        def action(
            name: str, slot: Callable[[], None], shortcut: QKeySequence | str | None = None, pixmap: str | None = None
        ) -> QAction:
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
        self.act_cancel = action("cancel", self.cancel_scan, None, "SP_BrowserStop")
        self.act_escape = action("escape", self.escape, "Esc")  # cancels a scan, else clears the chosen groups
        self.act_export_json = action("export_json", partial(self.choose_export, "json"))
        self.act_export_csv = action("export_csv", partial(self.choose_export, "csv"))
        self.act_settings = action("settings", self.edit_settings, K.Preferences)
        self.act_quit = action("quit", self.close, K.Quit)
        self.act_keep = action("keep", self.toggle_keep, "Space")
        self.act_queue = action("queue", self.toggle_queued, K.Delete)
        self.act_keep_rules = {rule: action(f"keep_{rule}", partial(self.keep_by_rule, rule)) for rule in KEEP_RULES}
        self.act_keep_rules_all = {
            rule: action(f"keep_{rule}_everywhere", partial(self.keep_by_rule_everywhere, rule)) for rule in KEEP_RULES
        }
        self.act_keep_chain = action("keep_chain", self.choose_keep_rules, "Ctrl+K")
        self.act_not_duplicates = action("not_duplicates", self.mark_not_duplicates)
        self.act_trash = action("trash", self.trash_marked, "Shift+Del", "SP_TrashIcon")
        self.act_move = action("move", self.move_marked)
        self.act_undo = action("undo_cleanup", self.undo_last_cleanup)
        self.act_undo_marks = action("undo_marks", self.undo_marks, K.Undo)
        self.act_next_undecided = action("next_undecided", self.next_undecided, "U")
        self.act_open_doc = action("open_document", self.open_document, "Ctrl+Return")
        self.act_reveal = action("reveal", self.reveal_document)
        self.act_copy_path = action("copy_path", self.copy_path, "Ctrl+Shift+C")
        self.act_next = action("next_change", self.diff_view.next_change, "N")
        self.act_prev = action("previous_change", self.diff_view.previous_change, "P")
        self.act_filter = action("find", lambda: self.filter_edit.setFocus(), K.Find)
        self.act_about = action("about", self.about)
        self.act_manual = action("manual", self.show_manual, K.HelpContents)

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
        # the rules' submenu names the groups they will act on as the menu opens
        self.menu_review.aboutToShow.connect(lambda: self.menu_keep_rules_all.setTitle(self.keep_everywhere_title()))
        self.menu_review.addAction(self.act_keep)
        self.menu_review.addAction(self.act_queue)
        self.menu_review.addAction(self.act_undo_marks)
        self.menu_review.addAction(self.act_next_undecided)
        self.menu_keep_rules = self.menu_review.addMenu("")
        for a in self.act_keep_rules.values():
            self.menu_keep_rules.addAction(a)
        self.menu_keep_rules_all = self.menu_review.addMenu("")
        for a in self.act_keep_rules_all.values():
            self.menu_keep_rules_all.addAction(a)
        self.menu_keep_rules_all.addSeparator()
        self.menu_keep_rules_all.addAction(self.act_keep_chain)
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
        self.menu_help.addAction(self.act_manual)
        self.menu_help.addAction(self.act_about)
        toolbar = self.addToolBar("main")
        toolbar.setObjectName("toolbar")
        for a in (self.act_open, self.act_rescan, self.act_cancel, self.act_trash):
            toolbar.addAction(a)
        self.toolbar = toolbar

    def _retranslate_parts(self) -> None:
        """Every visible text, so switching the language in the settings applies at once."""
        self.setWindowTitle(
            self.tr("simdesk — near-duplicate documents")
            if self.root is None
            else fill(self.tr("simdesk — %1"), str(self.root))
        )
        self.welcome_title.setText(self.tr("Find near-duplicate documents"))
        self.welcome_text.setText(
            self.tr(
                "Open a folder of text documents (or drop it on this window). simdesk indexes it, groups the "
                "documents that are nearly the same, and lets you compare them side by side and clean up safely."
            )
        )
        self.demo_button.setText(self.tr("Open the demo collection"))
        self.open_button.setText(self.tr("Open a folder…"))
        self.recent_label.setText(self.tr("Recent folders"))
        self.filter_edit.setPlaceholderText(self.tr("Filter by path, title or text"))
        for k, text in enumerate((self.tr("All groups"), self.tr("Undecided groups"), self.tr("Decided groups"))):
            self.decided_filter.setItemText(k, text)
        self.decided_filter.setToolTip(
            self.tr("Show every group, or only the groups with copies no decision covers yet, or only the decided ones")
        )
        self.tabs.setTabText(0, self.tr("Groups"))
        self.tabs.setTabText(1, fill(self.tr("Problems (%1)"), f"{len(self.problems_model.problems):,}"))
        self.cancel_button.setText(self.tr("Cancel"))
        texts = {
            self.act_open: self.tr("&Open folder…"),
            self.act_demo: self.tr("Open the &demo collection"),
            self.act_rescan: self.tr("&Rescan"),
            self.act_cancel: self.tr("&Cancel scan"),
            self.act_export_json: self.tr("Export groups as &JSON…"),
            self.act_export_csv: self.tr("Export groups as C&SV…"),
            self.act_settings: self.tr("&Settings…"),
            self.act_quit: self.tr("&Quit"),
            self.act_keep: self.tr("&Keep this copy"),
            self.act_queue: self.tr("&Queue for the trash"),
            self.act_keep_rules["oldest"]: self.tr("Keep the &oldest"),
            self.act_keep_rules["newest"]: self.tr("Keep the &newest"),
            self.act_keep_rules["largest"]: self.tr("Keep the &largest"),
            self.act_keep_rules["shortest_path"]: self.tr("Keep the &shortest path"),
            self.act_keep_rules_all["oldest"]: self.tr("Keep the &oldest"),
            self.act_keep_rules_all["newest"]: self.tr("Keep the &newest"),
            self.act_keep_rules_all["largest"]: self.tr("Keep the &largest"),
            self.act_keep_rules_all["shortest_path"]: self.tr("Keep the &shortest path"),
            self.act_keep_chain: self.tr("By &rules (criteria in order, reference folder)…"),
            self.act_not_duplicates: self.tr("&Not duplicates"),
            self.act_trash: self.tr("Move the others to the &trash…"),
            self.act_move: self.tr("Move the others to a &folder…"),
            self.act_undo: self.tr("&Undo last clean-up"),
            self.act_undo_marks: self.tr("Undo the last &marks"),
            self.act_next_undecided: self.tr("Next &undecided group"),
            self.act_open_doc: self.tr("&Open in the default application"),
            self.act_reveal: self.tr("&Reveal in the file manager"),
            self.act_copy_path: self.tr("&Copy path"),
            self.act_next: self.tr("&Next change"),
            self.act_prev: self.tr("&Previous change"),
            self.act_filter: self.tr("&Filter by path, title or text"),
            self.act_about: self.tr("&About simdesk"),
            self.act_manual: self.tr("simdesk &manual"),
        }
        for a, text in texts.items():
            a.setText(text)
        self.act_not_duplicates.setToolTip(self.tr("The two selected documents never group together again"))
        self.reviewed_label.setToolTip(
            self.tr(
                "Groups in which every copy is kept, queued for the trash, or was shown beside a copy marked to keep; "
                "counted from the decisions the index keeps, so the count is back when the review resumes"
            )
        )
        self.menu_file.setTitle(self.tr("&File"))
        self.menu_recent.setTitle(self.tr("Open &recent"))
        self.menu_review.setTitle(self.tr("&Review"))
        self.menu_keep_rules.setTitle(self.tr("Keep in this group"))
        self.menu_keep_rules_all.setTitle(self.keep_everywhere_title())
        self.menu_document.setTitle(self.tr("&Document"))
        self.menu_view.setTitle(self.tr("&View"))
        self.menu_help.setTitle(self.tr("&Help"))
        self.threshold_bar.retranslate()
        self.diff_view.retranslate()
        self.groups_model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.groups_model.columnCount() - 1)
        self._name_for_assistive_technology()

    def _name_for_assistive_technology(self) -> None:
        """Accessible names of the main widgets (screen readers say them), and the Tab order: slider,
        filter, groups, then the diff's mode switch and its two panes."""
        self.threshold_bar.slider.setAccessibleName(self.tr("Similarity threshold"))
        self.threshold_bar.slider.setAccessibleDescription(
            self.tr("Moves the least similarity a pair needs to be grouped; the groups follow at once")
        )
        self.filter_edit.setAccessibleName(self.tr("Filter groups"))
        self.decided_filter.setAccessibleName(self.tr("Decided or undecided groups"))
        self.decided_label.setText(self.tr("S&how:"))
        self.decided_label.setAccessibleName(self.tr("Decided or undecided groups"))
        self.groups_view.setAccessibleName(self.tr("Groups of similar documents"))
        self.groups_view.setAccessibleDescription(
            self.tr("One row per group; its documents are listed below. A rule keeps one copy in each selected group")
        )
        self.members_view.setAccessibleName(self.tr("Documents of the current group"))
        self.members_view.setAccessibleDescription(
            self.tr("Space keeps the selected copies, Delete queues them for the trash")
        )
        self.problems_view.setAccessibleName(self.tr("Files that could not be read"))
        self.diff_view.setAccessibleName(self.tr("Side-by-side comparison"))
        order = (
            self.threshold_bar.slider,
            self.filter_edit,
            self.decided_filter,
            self.tabs,
            self.groups_view,
            self.members_view,
            self.diff_view.mode_button,
            self.diff_view.left,
            self.diff_view.right,
        )
        for a, b in zip(order, order[1:]):
            QWidget.setTabOrder(a, b)

    def restore_layout(self) -> None:
        """Splitter sizes, column widths and the sort order as they were left."""
        header = self.groups_view.horizontalHeader()
        if (state := self.settings.view_state("groups_header")) is not None and header.restoreState(state):
            self.groups_view.sortByColumn(header.sortIndicatorSection(), header.sortIndicatorOrder())
            for col in range(header.count()):
                self.members_view.horizontalHeader().resizeSection(col, header.sectionSize(col))
        if (state := self.settings.view_state("groups_split")) is not None:
            self.groups_split.restoreState(state)
        if (state := self.settings.view_state("review_splitter")) is not None:
            self.review_page.restoreState(state)
        if (state := self.settings.view_state("diff_panes")) is not None:
            self.diff_view.panes.restoreState(state)
        self.diff_view.set_mode(self.settings.diff_mode())

    def save_layout(self) -> None:
        self.settings.set_view_state("groups_header", self.groups_view.horizontalHeader().saveState())
        self.settings.set_view_state("groups_split", self.groups_split.saveState())
        self.settings.set_view_state("review_splitter", self.review_page.saveState())
        self.settings.set_view_state("diff_panes", self.diff_view.panes.saveState())

    def keep_everywhere_title(self) -> str:
        """The title of the menu of rules over many groups: which groups they will act on (rule_scope), made
        again each time the menu opens."""
        return fill(self.tr("Keep one in %1"), self.scope_phrase(self.rule_scope()))

    def context_menu(self) -> QMenu:
        """The lists' context menu, built anew for each use from the actions the window owns (its texts are
        the current language's): the Review and Document menus' actions on the selection. Its submenus are
        its own children, never the menu bar's menus, so deleting it when it closes deletes nothing else."""
        menu = QMenu(self)
        menu.setObjectName("groups_menu")
        menu.addAction(self.act_keep)
        menu.addAction(self.act_queue)
        menu.addAction(self.act_undo_marks)
        for title, actions in (
            (self.menu_keep_rules.title(), list(self.act_keep_rules.values())),
            (self.keep_everywhere_title(), [*self.act_keep_rules_all.values(), None, self.act_keep_chain]),
        ):
            sub = menu.addMenu(title)
            for a in actions:
                sub.addAction(a) if a is not None else sub.addSeparator()
        menu.addAction(self.act_not_duplicates)
        menu.addSeparator()
        for a in (self.act_open_doc, self.act_reveal, self.act_copy_path):
            menu.addAction(a)
        return menu

    def show_context_menu(self, view: QTableView, pos: QPoint) -> QMenu:
        """Pop the context menu up at `pos` of `view`; it deletes itself once closed."""
        menu = self.context_menu()
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(view.viewport().mapToGlobal(pos))
        return menu

    def show_manual(self) -> None:
        """The short manual, in the interface's language, in a window of its own (not modal)."""
        from simdesk.gui.manual import ManualDialog

        dialog = self.findChild(ManualDialog) or ManualDialog(self.settings.get("ui/language"), self)
        dialog.show()
        dialog.raise_()

    def update_actions(self) -> None:
        """Enable what applies to the current selection."""
        has_groups = self.groups_model.grouping is not None
        has_member = bool(self.selected_members())
        has_group = self.current_group() is not None
        for a in (
            self.act_export_json,
            self.act_export_csv,
            self.act_trash,
            self.act_move,
            *self.act_keep_rules_all.values(),
            self.act_keep_chain,
        ):
            a.setEnabled(has_groups)
        for a in (self.act_keep, self.act_queue):
            a.setEnabled(has_member)
        for a in (
            *self.act_keep_rules.values(),
            self.act_not_duplicates,
            self.act_open_doc,
            self.act_reveal,
            self.act_copy_path,
        ):
            a.setEnabled(has_group)
        self.act_rescan.setEnabled(self.root is not None)
        self.act_cancel.setEnabled(self.scans.current is not None)

    def refresh_recent(self) -> None:
        self.recent_list.clear()
        self.menu_recent.clear()
        for folder in self.settings.get("ui/recent_folders"):
            QListWidgetItem(folder, self.recent_list)
            self.menu_recent.addAction(folder).triggered.connect(partial(self.open_folder, folder))

    @staticmethod
    def dropped_folder(event: QDragEnterEvent | QDropEvent) -> str | None:
        """The folder dragged onto the window, if what is dragged is one local folder."""
        urls = event.mimeData().urls()
        if urls and urls[0].isLocalFile() and Path(urls[0].toLocalFile()).is_dir():
            return urls[0].toLocalFile()
        return None

    # -- the selection in the groups list and the members list ----------------------------------------------
    def current_group(self) -> Group | None:
        return self.groups_model.group(self.groups_view.currentIndex())

    def show_group_row(self, row: int) -> None:
        """Make group `row` the current one (its members shown below), scrolled to."""
        index = self.groups_model.index(row, COL_PATH)
        self.groups_view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self.groups_view.scrollTo(index)
        self.show_current_members()

    def show_current_members(self) -> None:
        self.members_model.set_group(self.current_group())

    def reselect(self, selected: list[str]) -> None:
        """After a regroup or rescan, select the same members again where they still are in a group (those in
        the group of the first one)."""
        if selected and (row := self.groups_model.row_of_path(selected[0])) >= 0:
            if self.groups_view.currentIndex().row() != row:
                self.show_group_row(row)
            self.show_current_members()
            self.select_members(
                [
                    self.members_model.index(r, COL_PATH)
                    for p in selected
                    if (r := self.members_model.row_of_path(p)) >= 0
                ]
            )
        else:
            self.show_current_members()

    def member_index(self, path: str) -> QModelIndex:
        """The members list's row of `path`, making its group the current one (invalid: in no group shown)."""
        row = self.groups_model.row_of_path(path)
        if row < 0:
            return QModelIndex()
        if self.groups_view.currentIndex().row() != row:
            self.show_group_row(row)
        return self.members_model.index(self.members_model.row_of_path(path), COL_PATH)

    def select_members(self, indexes: list[QModelIndex]) -> None:
        """Select these rows of the members list, the first one current."""
        if not indexes:
            return
        selection = self.members_view.selectionModel()
        flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        selection.setCurrentIndex(
            indexes[0], QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        for idx in indexes[1:]:
            selection.select(idx, flags)
        self.members_view.scrollTo(indexes[0])

    def selected_members(self) -> list[Member]:
        """The selected members, in the list's order."""
        rows = sorted(i.row() for i in self.members_view.selectionModel().selectedRows(COL_PATH))
        members = self.members_model.members()
        return [members[r] for r in rows if r < len(members)]

    def selected_members_current_first(self) -> list[Member]:
        """Every selected member, the current one first (Space and Delete toggle as it is)."""
        current = self.members_model.member(self.members_view.currentIndex())
        rest = [m for m in self.selected_members() if current is None or m.path != current.path]
        return ([current] if current is not None else []) + rest

    def selected_groups(self) -> list[int]:
        """The ids of the groups the editor chose in the groups list: two or more selected rows (one row is
        the group looked at, selected by the click that shows it, not a choice); Esc clears them."""
        rows = self.groups_view.selectionModel().selectedRows(COL_PATH)
        if len(rows) < 2:
            return []
        return [g.id for i in rows if (g := self.groups_model.group(i)) is not None]

    def rule_scope(self) -> Scope:
        """The groups a rule over many groups or a clean-up acts on (core.action_scope): the groups chosen in
        the list, else the groups the filters show, else every group."""
        grouping = self.groups_model.grouping
        shown = self.groups_model.visible_group_ids() if self.groups_model.filtering() else None
        return action_scope(self.selected_groups(), shown, len(grouping) if grouping is not None else 0)

    def clear_group_selection(self) -> None:
        """Esc: no group chosen any more (the current group stays shown)."""
        selection = self.groups_view.selectionModel()
        current = self.groups_view.currentIndex()
        selection.clearSelection()
        if current.isValid():  # the group looked at stays selected as looked at, not as a choice
            selection.select(current, QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows)

    def escape(self) -> None:
        """Esc: cancel the scan under way, else clear the groups chosen in the list."""
        if self.scans.current is not None:
            self.cancel_scan()
        else:
            self.clear_group_selection()

    # -- documents ------------------------------------------------------------------------------------
    def _current_path(self) -> Path | None:
        selected, group = self.selected_members_current_first(), self.current_group()
        rel = selected[0].path if selected else (group.members[0].path if group else None)
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

    # -- a folder dropped on the window ---------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self.dropped_folder(event) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        if (folder := self.dropped_folder(event)) is not None:
            event.acceptProposedAction()
            QTimer.singleShot(0, partial(self.open_folder, folder))
