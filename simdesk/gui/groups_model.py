"""A two-level Qt model over a core Grouping: one row per group, its members as children, built on demand.

Rows are positions in an order array (numpy) over the grouping's groups; a Group object is only built by
`Grouping.group(k)` when the view asks for one of its cells, so showing 100,000 groups costs what is on
screen. Sorting and the path filter permute or subset that array; nothing per row is created up front.
"""
from __future__ import annotations

import bisect
import datetime as _dt
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont

from simdesk.core import Decisions, Group, Grouping, Member, encoding_name, similarity_percent
from simdesk.gui.diff_view import similarity_text
from simdesk.gui.translations import fill

TOP = 0  # internalId of group rows; member rows carry (group position + 1)
MemberRole = Qt.ItemDataRole.UserRole + 1
GroupRole = Qt.ItemDataRole.UserRole + 2
PathRole = Qt.ItemDataRole.UserRole + 3
SortRole = Qt.ItemDataRole.UserRole + 4

DISPLAY = Qt.ItemDataRole.DisplayRole
CHECK = Qt.ItemDataRole.CheckStateRole
FONT = Qt.ItemDataRole.FontRole
FOREGROUND = Qt.ItemDataRole.ForegroundRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole
# data() answers these roles only; the view asks for a dozen per cell, so the rest return at once
ANSWERED = frozenset(int(r) for r in (DISPLAY, CHECK, FONT, FOREGROUND, TOOLTIP, MemberRole, GroupRole, PathRole))
GROUP_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
MEMBER_FLAGS = GROUP_FLAGS | Qt.ItemFlag.ItemNeverHasChildren
MEMBER_PATH_FLAGS = MEMBER_FLAGS | Qt.ItemFlag.ItemIsUserCheckable

COLUMNS = 8
COL_PATH, COL_MEMBERS, COL_SIZE, COL_DISTANCE, COL_SIMILARITY, COL_MODIFIED, COL_ENCODING, COL_STATUS = range(COLUMNS)
ModelIndex = QModelIndex | QPersistentModelIndex


def file_then_folder(path: str) -> str:
    """A relative path as the list shows it: the file name first, then its folder ('b.txt — a/x'), so that
    eliding a long entry in the middle keeps both the name and the end of the folder."""
    folder, _, name = path.rpartition("/")
    return f"{name} — {folder}" if folder else name


def human_size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"


class GroupsModel(QAbstractItemModel):
    """Groups of the current threshold, sortable and filtered by path; members carry keep/trash marks."""

    decisions_changed = Signal()  # the editor changed a mark: the window saves the review's decisions

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.grouping: Grouping | None = None
        self.order = np.zeros(0, dtype=np.int64)  # visible row -> group number k
        self.decisions: Decisions | None = None  # the review's, shared: marks survive a regroup
        self.filter_text = ""
        self.sort_column = COL_MEMBERS
        self.sort_order = Qt.SortOrder.DescendingOrder
        self._row_group: np.ndarray | None = None  # snapshot row -> group number (-1: none), for the filter

    # -- contents -------------------------------------------------------------------------------------
    def set_grouping(self, grouping: Grouping | None, decisions: Decisions | None = None) -> None:
        self.beginResetModel()
        self.grouping = grouping
        self.decisions = decisions
        self._row_group = None
        self.order = self._ordered(self._filtered())
        self.endResetModel()

    def set_filter(self, text: str) -> None:
        self.beginResetModel()
        self.filter_text = text.strip()
        self.order = self._ordered(self._filtered())
        self.endResetModel()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        # remember each persistent index by its group number, so it follows its group to the new row
        kept = [(int(self.order[i.row() if i.internalId() == TOP else i.internalId() - 1]),
                 i.internalId() == TOP, i.row(), i.column()) for i in old]
        self.sort_column, self.sort_order = column, order
        self.order = self._ordered(self.order)
        position = self._positions()
        new = []
        for k, is_group, row, col in kept:
            pos = int(position[k])
            if pos < 0:
                new.append(QModelIndex())
            elif is_group:
                new.append(self.createIndex(pos, col, TOP))
            else:
                new.append(self.createIndex(row, col, pos + 1))
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def _positions(self) -> np.ndarray:
        n = len(self.grouping) if self.grouping is not None else 0
        position = np.full(n, -1, dtype=np.int64)
        position[self.order] = np.arange(len(self.order))
        return position

    def _filtered(self) -> np.ndarray:
        if self.grouping is None:
            return np.zeros(0, dtype=np.int64)
        n = len(self.grouping)
        if not self.filter_text:
            return np.arange(n, dtype=np.int64)
        needle = self.filter_text.casefold()
        paths = self.grouping.snapshot.paths
        row_group = self._row_groups()
        hits = np.fromiter((needle in p.casefold() for p in paths), dtype=bool, count=len(paths))
        return np.unique(row_group[hits & (row_group >= 0)]).astype(np.int64)

    def _row_groups(self) -> np.ndarray:
        if self._row_group is None:
            assert self.grouping is not None
            row_group = np.full(len(self.grouping.snapshot), -1, dtype=np.int64)
            for k in range(len(self.grouping)):
                row_group[self.grouping.member_rows(k)] = k
            self._row_group = row_group
        return self._row_group

    def _ordered(self, ks: np.ndarray) -> np.ndarray:
        """`ks` (group numbers) in the current sort order; ties keep the engine's order (largest first)."""
        g = self.grouping
        if g is None or len(ks) == 0:
            return ks
        key = self._sort_keys(self.sort_column)
        base = np.sort(ks)
        if key is None:
            return base
        keys = key[base]
        if self.sort_order == Qt.SortOrder.DescendingOrder:
            keys = -keys
        return base[np.argsort(keys, kind="stable")]

    def _sort_keys(self, col: int) -> np.ndarray | None:
        """One key per group for a column, computed with whole-array operations where the data allows."""
        g = self.grouping
        assert g is not None
        if col == COL_MEMBERS:
            return g.sizes().astype(np.float64)
        if col in (COL_SIZE, COL_MODIFIED, COL_PATH):
            rg = self._row_groups()
            rows = np.flatnonzero(rg >= 0)
            owners = rg[rows]
            snap = g.snapshot
            if col == COL_SIZE:
                return np.bincount(owners, weights=snap.sizes[rows], minlength=len(g))
            if col == COL_MODIFIED:
                latest = np.zeros(len(g), dtype=np.float64)
                np.maximum.at(latest, owners, snap.mtimes[rows].astype(np.float64))
                return latest
            first = np.full(len(g), len(snap), dtype=np.float64)  # snapshot rows are in path order
            np.minimum.at(first, owners, rows.astype(np.float64))
            return first
        if col in (COL_DISTANCE, COL_SIMILARITY):
            distance = g.max_distances.astype(np.float64)
            return distance if col == COL_DISTANCE else -distance
        return None

    # -- marks: the review's decisions, shown and changed here, saved by the window -------------------------
    @property
    def keep(self) -> set[str]:
        return self.decisions.keep if self.decisions is not None else set()

    @property
    def queued(self) -> set[str]:
        return self.decisions.queued if self.decisions is not None else set()

    def set_keep(self, index: QModelIndex, keep: bool) -> None:
        member = self.member(index)
        if member is None or self.decisions is None:
            return
        self.decisions.set_keep(member.path, keep, self.group(index))  # bound to the group as shown
        self._member_changed(index)
        self.decisions_changed.emit()

    def visible_group_ids(self) -> list[int]:
        """The ids of the groups the filter shows, in the order shown."""
        return [int(k) + 1 for k in self.order]

    def toggle_keep_rows(self, rows: list[QModelIndex]) -> None:
        """Space over several member rows (the current one first): Decisions.toggle_keep_all, each mark
        bound to its group as shown."""
        rows = [idx for idx in rows if self.member(idx) is not None]
        if rows and self.decisions is not None:
            self.decisions.toggle_keep_all([self.member(i).path for i in rows], [self.group(i) for i in rows])
            self._rows_changed(rows)

    def toggle_queued_rows(self, rows: list[QModelIndex]) -> None:
        """Delete over several member rows (the current one first): Decisions.toggle_queued_all."""
        rows = [idx for idx in rows if self.member(idx) is not None]
        if rows and self.decisions is not None:
            self.decisions.toggle_queued_all([self.member(i).path for i in rows])
            self._rows_changed(rows)

    def _rows_changed(self, rows: list[QModelIndex]) -> None:
        for idx in rows:
            self._member_changed(idx)
        self.decisions_changed.emit()

    def marks_changed(self) -> None:
        """Many marks changed at once (a keep rule): every visible row repaints."""
        self.layoutAboutToBeChanged.emit()
        self.layoutChanged.emit()
        self.decisions_changed.emit()

    def _member_changed(self, index: QModelIndex) -> None:
        left = self.index(index.row(), 0, index.parent())
        right = self.index(index.row(), self.columnCount() - 1, index.parent())
        self.dataChanged.emit(left, right)

    # -- lookups --------------------------------------------------------------------------------------
    def index_of_path(self, path: str) -> QModelIndex:
        """The member row showing `path` (invalid when it is in no visible group). Snapshot rows are in path
        order, so this is a binary search and a table lookup, whatever the number of groups."""
        if self.grouping is None:
            return QModelIndex()
        paths = self.grouping.snapshot.paths
        row = bisect.bisect_left(paths, path)
        if row >= len(paths) or paths[row] != path:
            return QModelIndex()
        k = int(self._row_groups()[row])
        position = int(self._positions()[k]) if k >= 0 else -1
        if position < 0:
            return QModelIndex()
        members = self.group_at(position).members
        member_row = next(n for n, m in enumerate(members) if m.path == path)
        return self.index(member_row, COL_PATH, self.index(position, 0))

    def group_at(self, row: int) -> Group:
        assert self.grouping is not None
        return self.grouping.group(int(self.order[row]))

    def group(self, index: QModelIndex) -> Group | None:
        if not index.isValid() or self.grouping is None:
            return None
        row = index.row() if index.internalId() == TOP else index.internalId() - 1
        return self.group_at(row)

    def member(self, index: QModelIndex) -> Member | None:
        if not index.isValid() or index.internalId() == TOP or self.grouping is None:
            return None
        return self.group_at(index.internalId() - 1).members[index.row()]

    # -- QAbstractItemModel ---------------------------------------------------------------------------
    def index(self, row: int, column: int, parent: ModelIndex = QModelIndex()) -> QModelIndex:
        # bounds checked here rather than with hasIndex(), which would call rowCount() and columnCount()
        # back in Python: QTreeView asks for an index of every group row after each reset
        if not 0 <= column < COLUMNS or row < 0:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, TOP) if row < len(self.order) else QModelIndex()
        if parent.internalId() != TOP or parent.column() != 0 or row >= self.rowCount(parent):
            return QModelIndex()
        return self.createIndex(row, column, parent.row() + 1)

    def parent(self, index: ModelIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == TOP:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, TOP)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:
        if not parent.isValid():
            return len(self.order)
        if parent.internalId() != TOP or parent.column() != 0 or self.grouping is None:
            return 0
        return int(self.grouping.sizes()[int(self.order[parent.row()])])

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return COLUMNS

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == TOOLTIP:
            return (self.tr("The file name, then its folder; a group row names its first document"),
                    self.tr("How many documents the group holds"),
                    self.tr("The size of the file, or of the whole group"),
                    self.tr("Fingerprint bits that differ from the group's first document (advanced)"),
                    self.tr("How much of the text the document shares with the group's first document, "
                            "checked character by character (the figure the comparison shows)"),
                    self.tr("When the file was last modified"),
                    self.tr("The text encoding the file was read in"),
                    self.tr("Keep, to trash, or the group's representative"))[section]
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        return (self.tr("Document"), self.tr("Members"), self.tr("Size"), self.tr("Distance"),
                self.tr("Similarity"), self.tr("Modified"), self.tr("Encoding"), self.tr("Status"))[section]

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if index.internalId() == TOP:
            return GROUP_FLAGS
        return MEMBER_PATH_FLAGS if index.column() == COL_PATH else MEMBER_FLAGS

    def setData(self, index: ModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role == Qt.ItemDataRole.CheckStateRole and self.member(QModelIndex(index)) is not None:
            checked = value in (Qt.CheckState.Checked, Qt.CheckState.Checked.value, 2, True)
            self.set_keep(QModelIndex(index), checked)
            return True
        return False

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in ANSWERED or not index.isValid() or self.grouping is None:
            return None
        if index.internalId() == TOP:
            return self._group_data(self.group_at(index.row()), index.column(), role)
        group = self.group_at(index.internalId() - 1)
        member = group.members[index.row()]
        return self._member_data(member, index.row() == 0, index.column(), role)

    def _group_data(self, g: Group, col: int, role: int) -> Any:
        if role == GroupRole:
            return g
        if role == PathRole:
            return g.members[0].path
        if role == DISPLAY:
            if col == COL_PATH:
                return fill(self.tr("Group %1: %2"), str(g.id), file_then_folder(g.members[0].path))
            if col == COL_MEMBERS:
                return len(g.members)
            if col == COL_SIZE:
                return human_size(g.total_size)
            if col == COL_DISTANCE:
                return g.max_distance
            if col == COL_SIMILARITY:
                scores = [s for m in g.members[1:] if (s := m.score) is not None]
                if scores:  # verified on the texts: the least similar member
                    least = min(scores) * 100
                    return similarity_text(least) if least >= 99.95 else "≥ " + similarity_text(least)
                return f"≥ {similarity_percent(g.max_distance):.0f}%" if g.max_distance else "100%"
            if col == COL_MODIFIED:
                return _when(max(m.mtime_ns for m in g.members))
            if col == COL_STATUS:
                kept = sum(1 for m in g.members if m.path in self.keep)
                text = self.tr("identical") if g.identical else self.tr("similar")
                return text + (fill(self.tr(", %1 kept"), str(kept)) if kept else "")
        if role == FONT and col == COL_PATH:
            font = QFont()
            font.setBold(True)
            return font
        if role == TOOLTIP and col == COL_PATH:
            return "\n".join(m.path for m in g.members[:20])
        return None

    def _member_data(self, m: Member, representative: bool, col: int, role: int) -> Any:
        if role == MemberRole:
            return m
        if role == PathRole:
            return m.path
        if role == DISPLAY:
            if col == COL_PATH:
                return file_then_folder(m.path)
            if col == COL_SIZE:
                return human_size(m.size)
            if col == COL_DISTANCE:
                return m.distance
            if col == COL_SIMILARITY:
                score = m.score
                if score is not None:  # verified on the texts
                    return similarity_text(score * 100)  # the figure the diff's header shows too
                return f"~{similarity_percent(m.distance):.1f}%"  # fingerprint bits that agree
            if col == COL_MODIFIED:
                return _when(m.mtime_ns)
            if col == COL_ENCODING:
                return encoding_name(m.encoding)
            if col == COL_STATUS:
                if m.path in self.keep:
                    return self.tr("keep")
                if m.path in self.queued:
                    return self.tr("to trash")
                return self.tr("representative") if representative else ""
            return None
        if role == CHECK and col == COL_PATH:
            return Qt.CheckState.Checked if m.path in self.keep else Qt.CheckState.Unchecked
        if role == FONT and m.path in self.queued:
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role == FOREGROUND and m.path in self.queued:
            return QBrush(QColor("#b3261e"))
        if role == TOOLTIP and col == COL_PATH:
            return m.path
        if role == TOOLTIP and col == COL_SIMILARITY:
            return (self.tr("Similarity of the texts, checked character by character") if m.score
                    is not None else self.tr("Share of the 64 fingerprint bits that agree (approximate)"))
        return None


def _when(mtime_ns: int) -> str:
    return _dt.datetime.fromtimestamp(mtime_ns / 1e9).strftime("%Y-%m-%d %H:%M")
