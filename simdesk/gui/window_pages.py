"""The main window's two pages: the welcome page (demo, open, recent folders) and the review page (slider,
filters, the groups and members lists, problems, the side-by-side comparison), each with its texts, its
accessible names and, for the review page, the layout the settings remember."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from simdesk.gui.diff_view import DiffView
from simdesk.gui.groups_model import COL_MEMBERS, COL_PATH, COLUMNS, FoldRole, GroupsModel, MembersModel
from simdesk.gui.problems_model import ProblemsModel
from simdesk.gui.settings import Settings
from simdesk.gui.threshold_bar import ThresholdBar
from simdesk.gui.translations import fill

UNCHECKED_BOX = (
    "QTableView::indicator:unchecked { width: 11px; height: 11px; border: 1px solid palette(text); "
    "background: palette(base); }"
)


class ElideEnd(QStyledItemDelegate):
    """Cuts a long cell at its end ('城市更新条例草案…'): a title's beginning says what it is."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideRight


class ElideClassEnd(QStyledItemDelegate):
    """The members list's Document cell: a path cut in its middle, a row of identical copies ('▸ 300
    identical copies · page.txt — crawl') at its end, so that its count stays readable."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        if index.data(FoldRole):
            option.textElideMode = Qt.TextElideMode.ElideRight


class WelcomePage(QWidget):
    """What the window shows before a folder is open: the demo, Open, and the recent folders."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.title = QLabel(self)
        self.title.setObjectName("welcome_title")
        font = self.title.font()
        font.setPointSize(font.pointSize() + 6)
        self.title.setFont(font)
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        self.demo_button = QPushButton(self)
        self.open_button = QPushButton(self)
        self.recent_label = QLabel(self)
        self.recent_list = QListWidget(self)
        col = QVBoxLayout(self)
        col.setContentsMargins(60, 40, 60, 40)
        col.addWidget(self.title)
        col.addWidget(self.text)
        buttons = QHBoxLayout()
        buttons.addWidget(self.demo_button)
        buttons.addWidget(self.open_button)
        buttons.addStretch(1)
        col.addLayout(buttons)
        col.addWidget(self.recent_label)
        col.addWidget(self.recent_list, 1)

    def retranslate(self) -> None:
        self.title.setText(self.tr("Find near-duplicate documents"))
        self.text.setText(
            self.tr(
                "Open a folder of text documents (or drop it on this window). simdesk indexes it, groups the "
                "documents that are nearly the same, and lets you compare them side by side and clean up safely."
            )
        )
        self.demo_button.setText(self.tr("Open the demo collection"))
        self.open_button.setText(self.tr("Open a folder…"))
        self.recent_label.setText(self.tr("Recent folders"))


class ReviewPage(QSplitter):
    """The threshold, the filters, the groups above the members of the current one and the problems on the
    left; the comparison on the right."""

    def __init__(self, groups: GroupsModel, members: MembersModel, problems: ProblemsModel, parent: QWidget) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.groups_model, self.problems_model = groups, problems
        left = QWidget(self)
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
        self.groups_view = self._list_view(groups, "groups")
        self.groups_view.setSortingEnabled(True)
        self.groups_view.horizontalHeader().setSortIndicator(COL_MEMBERS, Qt.SortOrder.DescendingOrder)
        self.members_view = self._list_view(members, "members")
        self.members_view.setItemDelegateForColumn(COL_PATH, ElideClassEnd(self))
        # the members' columns follow the groups' widths and order, which the settings remember
        groups_header, members_header = self.groups_view.horizontalHeader(), self.members_view.horizontalHeader()
        groups_header.sectionResized.connect(lambda col, _old, new: members_header.resizeSection(col, new))
        groups_header.sectionMoved.connect(lambda _col, old, new: members_header.moveSection(old, new))
        self.groups_split.addWidget(self.groups_view)
        self.groups_split.addWidget(self.members_view)
        self.groups_split.setStretchFactor(0, 3)
        self.groups_split.setStretchFactor(1, 2)
        self.problems_view = QTableView(left)
        self.problems_view.setModel(problems)
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
        self.diff_view = DiffView(self)
        self.addWidget(left)
        self.addWidget(self.diff_view)
        self.setStretchFactor(0, 6)
        self.setStretchFactor(1, 5)
        self.setSizes([600, 500])

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

    def show_problem_count(self) -> None:
        self.tabs.setTabText(1, fill(self.tr("Problems (%1)"), f"{len(self.problems_model.problems):,}"))

    def retranslate(self) -> None:
        """Every visible text of the page, its accessible names and its Tab order."""
        self.filter_edit.setPlaceholderText(self.tr("Filter by path, title or text"))
        for k, text in enumerate((self.tr("All groups"), self.tr("Undecided groups"), self.tr("Decided groups"))):
            self.decided_filter.setItemText(k, text)
        self.decided_filter.setToolTip(
            self.tr("Show every group, or only the groups with copies no decision covers yet, or only the decided ones")
        )
        self.tabs.setTabText(0, self.tr("Groups"))
        self.show_problem_count()
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

    def restore_layout(self, settings: Settings) -> None:
        """Splitter sizes, column widths and the sort order as they were left."""
        header = self.groups_view.horizontalHeader()
        if (state := settings.view_state("groups_header")) is not None and header.restoreState(state):
            self.groups_view.sortByColumn(header.sortIndicatorSection(), header.sortIndicatorOrder())
            for col in range(header.count()):
                self.members_view.horizontalHeader().resizeSection(col, header.sectionSize(col))
        if (state := settings.view_state("groups_split")) is not None:
            self.groups_split.restoreState(state)
        if (state := settings.view_state("review_splitter")) is not None:
            self.restoreState(state)
        if (state := settings.view_state("diff_panes")) is not None:
            self.diff_view.panes.restoreState(state)
        self.diff_view.set_mode(settings.diff_mode())

    def save_layout(self, settings: Settings) -> None:
        settings.set_view_state("groups_header", self.groups_view.horizontalHeader().saveState())
        settings.set_view_state("groups_split", self.groups_split.saveState())
        settings.set_view_state("review_splitter", self.saveState())
        settings.set_view_state("diff_panes", self.diff_view.panes.saveState())
