"""Two flat Qt table models over a core Grouping: the groups, one row per group, and the members of the
group that is current, side by side. Both show the columns of one table, COLUMNS: adding a column is one
entry there. The members list shows each class of identical copies as one row that unfolds to its files.

A row of the groups list is a position in an order array (numpy) over the grouping's groups; a Group object
is built by `Grouping.group(k)` only when the view asks for a cell of its row, so 100,000 groups cost what
is on screen. A QTableView asks a flat model for the visible cells only (a tree view walks every top-level
row after each change), so a regroup, a sort or a key typed in the filter costs whole-array operations in
core (Grouping.matching, Grouping.ordered) plus one screenful of cells. Sorting, filtering and regrouping
move rows with layoutChanged, the persistent indexes following their group: the selection and the current
group stay where they are.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont

from simdesk.core import (
    HEADLINE_KEYS,
    Decisions,
    Fate,
    Group,
    Grouping,
    Headline,
    Headlines,
    Member,
    Review,
    contained,
    encoding_name,
    percent,
    share_text,
    similarity_percent,
)
from simdesk.gui.translations import fill

MemberRole = Qt.ItemDataRole.UserRole + 1
GroupRole = Qt.ItemDataRole.UserRole + 2
PathRole = Qt.ItemDataRole.UserRole + 3
FoldRole = Qt.ItemDataRole.UserRole + 4  # a members list's row: True for a class of identical copies

DISPLAY = Qt.ItemDataRole.DisplayRole
CHECK = Qt.ItemDataRole.CheckStateRole
FONT = Qt.ItemDataRole.FontRole
FOREGROUND = Qt.ItemDataRole.ForegroundRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole
STATUS_TIP = Qt.ItemDataRole.StatusTipRole
# data() answers these roles only; the view asks for a dozen per cell, so the rest return at once
ANSWERED = frozenset(int(r) for r in (DISPLAY, CHECK, FONT, FOREGROUND, TOOLTIP, MemberRole, GroupRole, PathRole))
ROW_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren
CHECKABLE_FLAGS = ROW_FLAGS | Qt.ItemFlag.ItemIsUserCheckable
CONTEXT = "GroupsModel"  # the translation context of every text below (lupdate wants it literal)
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


def _when(mtime_ns: int) -> str:
    return _dt.datetime.fromtimestamp(mtime_ns / 1e9).strftime("%Y-%m-%d %H:%M")


@dataclass(frozen=True)
class Row:
    """What a column's functions see of one row: the group, and for a member row the member and whether it
    is the group's representative; `keep` and `queued` are the editor's marks (paths)."""

    group: Group
    member: Member | None
    keep: set[str]
    queued: set[str]
    headlines: Headlines | None = None  # the review's titles, dates and sources, as far as they were read
    fate: Fate | None = None  # a member row's: what a clean-up does with it, and why (Review.fates)

    @property
    def copy(self) -> Member:
        """The member of a member row."""
        assert self.member is not None
        return self.member

    @property
    def representative(self) -> bool:
        return self.member is not None and self.member.path == self.group.members[0].path

    @property
    def headline(self) -> Headline | None:
        """The headline of the member (of the representative on a group row); None while not read yet."""
        if self.headlines is None:
            return None
        return self.headlines.cached(self.member if self.member is not None else self.group.members[0])


NOT_READ = "…"  # a title, date or source not read yet (the window reads them off the GUI thread)


def _title(r: Row) -> str:
    h = r.headline
    return NOT_READ if h is None else h.title


def _date(r: Row) -> str:
    h = r.headline
    return NOT_READ if h is None else h.date


def _source(r: Row) -> str:
    h = r.headline
    return NOT_READ if h is None else h.source


def _date_font(r: Row) -> QFont | None:
    """Italics for a date that is the file's modification time, not one the text carries."""
    h = r.headline
    if h is None or h.dated_in_text:
        return None
    font = QFont()
    font.setItalic(True)
    return font


def _date_tip(r: Row) -> str | None:
    h = r.headline
    if h is None:
        return None
    if h.dated_in_text:
        return QCoreApplication.translate("GroupsModel", "The date written in the text")
    return QCoreApplication.translate("GroupsModel", "No date in the text: the file's modification date")


def _group_similarity(g: Group) -> str:
    """The least similarity of a member to the first document, over the members that are not held whole
    inside it (those are counted: "4 inside"), as the members list shows them."""
    inside = sum(1 for m in g.members[1:] if contained(m.held, m.holds))
    scores = [s for m in g.members[1:] if (s := m.score) is not None and not contained(m.held, m.holds)]
    if scores or inside:  # verified on the texts: the least similar member
        least = min(scores, default=1.0)
        text = percent(least) if least >= 1.0 else "≥ " + percent(least)
        if not inside:
            return text
        count = fill(QCoreApplication.translate("GroupsModel", "%1 inside"), f"{inside:,}")
        return f"{text} · {count}" if scores else count
    return f"≥ {similarity_percent(g.max_distance):.0f}%" if g.max_distance else "100%"


def _group_members(g: Group) -> int | str:
    """The Members cell of a group row: the count, and how many of them are identical copies."""
    identical = g.identical_members
    if not identical:
        return len(g.members)
    return fill(QCoreApplication.translate("GroupsModel", "%1 (%2 identical)"), f"{len(g.members):,}", f"{identical:,}")


def _member_similarity(m: Member) -> str:
    if m.score is not None:  # verified on the texts
        if contained(m.held, m.holds):  # all of it is in the first document: say so, not "100%"
            return fill(QCoreApplication.translate("GroupsModel", "inside · %1"), percent(m.holds or 0.0))
        return percent(m.score)  # the figure the diff's header shows too
    return f"~{similarity_percent(m.distance):.1f}%"  # fingerprint bits that agree


def _member_similarity_tip(r: Row) -> str:
    m = r.member
    assert m is not None
    if m.score is None:
        return QCoreApplication.translate("GroupsModel", "Share of the 64 fingerprint bits that agree (approximate)")
    first = r.group.members[0].path
    if contained(m.held, m.holds):
        return fill(
            QCoreApplication.translate(
                "GroupsModel", "All of this document is in %1; it is %2 of that document's length"
            ),
            first,
            percent(m.holds or 0.0),
        )
    if m.held is not None and m.holds is not None and m.path != first:
        return fill(
            QCoreApplication.translate(
                "GroupsModel",
                "Similarity of the texts, checked character by "
                "character: %1. %2 of this document's text is in %3, "
                "%4 of that one's is in this one",
            ),
            percent(m.score),
            percent(m.held),
            first,
            percent(m.holds),
        )
    return QCoreApplication.translate("GroupsModel", "Similarity of the texts, checked character by character")


def _group_status(r: Row) -> str:
    kept = sum(1 for m in r.group.members if m.path in r.keep)
    if r.group.identical:
        text = QCoreApplication.translate("GroupsModel", "identical")
    else:
        text = QCoreApplication.translate("GroupsModel", "similar")
    return text + (fill(QCoreApplication.translate("GroupsModel", ", %1 kept"), str(kept)) if kept else "")


def _member_status(r: Row) -> str:
    """keep; goes (with the share of its text the kept copy holds); stays, and why; for a group with nothing
    kept, which copy represents it."""
    assert r.member is not None
    f = r.fate
    if r.member.path in r.keep:
        return QCoreApplication.translate("GroupsModel", "keep")
    if r.member.path in r.queued:
        return QCoreApplication.translate("GroupsModel", "to trash")
    if f is None or f.why == "nothing_kept":
        return QCoreApplication.translate("GroupsModel", "representative") if r.representative else ""
    share = share_text(f.held)
    if f.why == "same":
        return QCoreApplication.translate("GroupsModel", "goes: same as one staying")
    if f.fate == "goes":
        return (
            fill(QCoreApplication.translate("GroupsModel", "goes: %1 in kept"), share)
            if share
            else QCoreApplication.translate("GroupsModel", "goes")
        )
    if f.why == "unseen":
        return QCoreApplication.translate("GroupsModel", "stays: not seen")
    if f.why == "part":
        return QCoreApplication.translate("GroupsModel", "stays: a passage")
    if f.why == "words":
        return fill(QCoreApplication.translate("GroupsModel", "stays: a word differs (%1 in kept)"), share or "?")
    return (
        fill(QCoreApplication.translate("GroupsModel", "stays: %1 in kept"), share)
        if share
        else QCoreApplication.translate("GroupsModel", "stays: no copy")
    )


def _member_status_tip(r: Row) -> str | None:
    """The whole reason of a member's Status."""
    f = r.fate
    if f is None or f.why in ("kept", "nothing_kept"):
        return None
    share = share_text(f.held)
    kept = f.keeper or ""
    if f.why == "queued":
        return QCoreApplication.translate("GroupsModel", "You sent this copy to the trash")
    if f.why == "held":
        return (
            fill(
                QCoreApplication.translate("GroupsModel", "Goes to the trash: %1 of its text is in %2, the copy kept"),
                share,
                kept,
            )
            if share
            else fill(QCoreApplication.translate("GroupsModel", "Goes to the trash: a copy of %1, the copy kept"), kept)
        )
    if f.why == "same":
        return fill(
            QCoreApplication.translate(
                "GroupsModel", "Goes to the trash: the same words as %1, which stays (it differs from the copy kept)"
            ),
            kept,
        )
    if f.why == "unseen":
        return QCoreApplication.translate(
            "GroupsModel",
            "Stays: it joined the group, or changed, after the copy to keep was marked. Mark it to decide it",
        )
    if f.why == "words":
        return fill(
            QCoreApplication.translate(
                "GroupsModel",
                "Stays: a short text that differs from %1, the copy kept, in a word (%2 of its text is in it): "
                "it may be another saying, not a copy",
            ),
            kept,
            share or "?",
        )
    if f.why == "part":
        return fill(
            QCoreApplication.translate(
                "GroupsModel",
                "Stays: its text is in %1, the copy kept, but it is only %2 of that text: a passage of it, not a copy",
            ),
            kept,
            share_text(f.holds) or "?",
        )
    if share:
        return fill(
            QCoreApplication.translate(
                "GroupsModel",
                "Stays: only %1 of its text is in %2, the copy kept "
                "(a copy goes only when the copy kept holds its text)",
            ),
            share,
            kept,
        )
    return QCoreApplication.translate("GroupsModel", "Stays: no copy kept holds its text")


@dataclass(frozen=True)
class Column:
    """One column of both lists: its header and tooltip (English; translated in the GroupsModel context),
    its width, the text of a group row and of a member row, the Review.ordered key it sorts by (None: the
    engine's order), and its tooltip for a member cell (None: none)."""

    key: str
    title: object  # QT_TRANSLATE_NOOP's English text, translated by header_data
    tip: object
    width: int
    group_text: Callable[[Row], Any]
    member_text: Callable[[Row], Any]
    order: str | None = None
    member_tip: Callable[[Row], str | None] = lambda r: None
    elide_end: bool = False  # a long text is cut at its end (a title), not in its middle (a path)


COLUMNS: tuple[Column, ...] = (
    Column(
        "document",
        QT_TRANSLATE_NOOP("GroupsModel", "Document"),
        QT_TRANSLATE_NOOP("GroupsModel", "The file name, then its folder; a group row names its first document"),
        280,
        lambda r: fill(
            QCoreApplication.translate("GroupsModel", "Group %1: %2"),
            str(r.group.id),
            file_then_folder(r.group.members[0].path),
        ),
        lambda r: file_then_folder(r.copy.path),
        "path",
        lambda r: r.copy.path,
    ),
    Column(
        "similarity",
        QT_TRANSLATE_NOOP("GroupsModel", "Similarity"),
        QT_TRANSLATE_NOOP(
            "GroupsModel",
            "How much of the text the document shares with the group's first document, "
            "checked character by character (the figure the comparison shows)",
        ),
        104,
        lambda r: _group_similarity(r.group),
        lambda r: _member_similarity(r.copy),
        "similarity",
        _member_similarity_tip,
    ),
    Column(
        "status",
        QT_TRANSLATE_NOOP("GroupsModel", "Status"),
        QT_TRANSLATE_NOOP(
            "GroupsModel",
            "What a clean-up does with the copy: keep; goes to the trash, because the "
            "copy kept holds its text (the share in kept); stays, and why",
        ),
        150,
        _group_status,
        _member_status,
        None,
        _member_status_tip,
    ),
    Column(
        "title",
        QT_TRANSLATE_NOOP("GroupsModel", "Title"),
        QT_TRANSLATE_NOOP(
            "GroupsModel",
            "The document's first meaningful line (a web page's own title), not a "
            "repost notice or a byline; a group row shows its first document's",
        ),
        240,
        _title,
        _title,
        "title",
        lambda r: r.headline.title if r.headline else None,
        True,
    ),
    Column(
        "date",
        QT_TRANSLATE_NOOP("GroupsModel", "Date"),
        QT_TRANSLATE_NOOP(
            "GroupsModel",
            "The date written in the text; in italics, the file's modification date (the text carries none)",
        ),
        84,
        _date,
        _date,
        "date",
        _date_tip,
    ),
    Column(
        "source",
        QT_TRANSLATE_NOOP("GroupsModel", "Source"),
        QT_TRANSLATE_NOOP(
            "GroupsModel",
            "Where the text says it comes from (来源, 转载, Source…), else the repost "
            "notice it shares with many documents",
        ),
        160,
        _source,
        _source,
        "source",
        lambda r: r.headline.source if r.headline else None,
        True,
    ),
    Column(
        "members",
        QT_TRANSLATE_NOOP("GroupsModel", "Members"),
        QT_TRANSLATE_NOOP(
            "GroupsModel",
            "How many documents the group holds; in brackets, how many of them have an identical copy in the "
            "group (the members list shows each set of identical copies as one row, 'N identical copies')",
        ),
        76,
        lambda r: _group_members(r.group),
        lambda r: None,
        "members",
    ),
    Column(
        "size",
        QT_TRANSLATE_NOOP("GroupsModel", "Size"),
        QT_TRANSLATE_NOOP("GroupsModel", "The size of the file, or of the whole group"),
        70,
        lambda r: human_size(r.group.total_size),
        lambda r: human_size(r.copy.size),
        "size",
    ),
    Column(
        "distance",
        QT_TRANSLATE_NOOP("GroupsModel", "Bits apart"),
        QT_TRANSLATE_NOOP(
            "GroupsModel",
            "Fingerprint bits (of 64) that differ from the group's first document "
            "(advanced); checked groups reach further apart on long texts, so this "
            "is not the slider's scale",
        ),
        70,
        lambda r: r.group.max_distance,
        lambda r: r.copy.distance,
        "distance",
    ),
    Column(
        "modified",
        QT_TRANSLATE_NOOP("GroupsModel", "Modified"),
        QT_TRANSLATE_NOOP("GroupsModel", "When the file was last modified"),
        120,
        lambda r: _when(max(m.mtime_ns for m in r.group.members)),
        lambda r: _when(r.copy.mtime_ns),
        "modified",
    ),
    Column(
        "encoding",
        QT_TRANSLATE_NOOP("GroupsModel", "Encoding"),
        QT_TRANSLATE_NOOP("GroupsModel", "The text encoding the file was read in"),
        70,
        lambda r: None,
        lambda r: encoding_name(r.copy.encoding),
    ),
)
COLUMN = {c.key: n for n, c in enumerate(COLUMNS)}  # column number by key
COL_PATH, COL_MEMBERS, COL_SIZE, COL_DISTANCE, COL_SIMILARITY, COL_MODIFIED, COL_ENCODING, COL_STATUS = (
    COLUMN[k] for k in ("document", "members", "size", "distance", "similarity", "modified", "encoding", "status")
)
COL_TITLE, COL_DATE, COL_SOURCE = (COLUMN[k] for k in ("title", "date", "source"))
HEADLINE_COLUMNS = (COL_TITLE, COL_DATE, COL_SOURCE)
DECIDED_FILTERS = ("all", "undecided", "decided")  # which groups the list shows by the editor's decisions


def header_data(section: int, orientation: Qt.Orientation, role: int) -> Any:
    """Both lists' headers: the column's title, its tooltip."""
    if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
        return None
    if role == TOOLTIP:
        return QCoreApplication.translate(CONTEXT, str(COLUMNS[section].tip))
    if role == DISPLAY:
        return QCoreApplication.translate(CONTEXT, str(COLUMNS[section].title))
    return None


class GroupsModel(QAbstractTableModel):
    """The groups of the current threshold, one row each, sortable and filtered by path; shows the review's
    marks (Review.decisions), which the window changes through the review."""

    marks_shown = Signal()  # marks changed: every list showing them repaints
    headlines_wanted = Signal()  # a list showed a title not read yet (the window's reader reads it next)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.grouping: Grouping | None = None
        self.order = np.zeros(0, dtype=np.int64)  # visible row -> group number k
        self.decisions: Decisions | None = None  # the review's, shared: marks survive a regroup
        self.filter_text = ""
        self.sort_column = COL_MEMBERS
        self.sort_order = Qt.SortOrder.DescendingOrder
        self.review: Review | None = None  # the filter searches its headlines too (Review.matching)
        self.wanted: set[int] = set()  # groups whose title was asked for before it was read: read them first
        self.decided_filter = DECIDED_FILTERS[0]
        self.partial_sort = False  # sorted by title, date or source while some were not read yet
        self._sorted: np.ndarray | None = None  # the order sort() made, while nothing else changed it
        self._decided: tuple[Grouping, np.ndarray] | None = None  # Review.decided of a grouping, as counted

    @property
    def headlines(self) -> Headlines | None:
        return self.review.headlines if self.review is not None else None

    def set_review(self, review: Review | None) -> None:
        """The review whose headlines the list shows and the filter searches (its groupings are shown by
        set_grouping)."""
        self.review = review
        self.wanted.clear()
        self._decided = None

    def want(self, k: int) -> None:
        """A list showed group `k` before its titles were read: read them next (headlines_wanted)."""
        if k not in self.wanted:
            self.wanted.add(k)
            self.headlines_wanted.emit()

    def headlines_read(self, all_read: bool = False) -> None:
        """More titles, dates and sources were read: their cells repaint, and a filter typed meanwhile
        takes in the texts read since; once `all_read` and every group's headline is there, a sort by title,
        date or source that placed unread groups last is made again (once: rows do not move under the editor
        after every batch; a bundle's texts are read for the rows shown only, so its sort stays as made)."""
        if self.filter_text:
            self.set_filter(self.filter_text)
        if all_read and self.partial_sort:
            self._sorted = None  # the same column and direction, on more headlines
            self.sort(self.sort_column, self.sort_order)
        if self.rowCount():
            self.dataChanged.emit(
                self.index(0, min(HEADLINE_COLUMNS)), self.index(self.rowCount() - 1, max(HEADLINE_COLUMNS))
            )
        self.marks_shown.emit()  # the members list repaints too

    def set_decided(self, grouping: Grouping, decided: np.ndarray) -> None:
        """Which groups of `grouping` are decided (Review.decided, counted off the GUI thread); the list
        follows when it shows decided or undecided groups only."""
        self._decided = (grouping, decided)
        if self.decided_filter != DECIDED_FILTERS[0] and grouping is self.grouping:
            self.set_filter(self.filter_text)

    def set_decided_filter(self, mode: str) -> None:
        """Show every group, the undecided ones or the decided ones (DECIDED_FILTERS)."""
        self.decided_filter = mode
        self.set_filter(self.filter_text)

    # -- contents -------------------------------------------------------------------------------------
    def set_grouping(self, grouping: Grouping | None, decisions: Decisions | None = None) -> None:
        """Show `grouping` (a regroup): rows move with layoutChanged, each persistent index (the selection,
        the current row) following the group that now holds its group's first document."""
        if grouping is None or self.grouping is None or grouping.snapshot is not self.grouping.snapshot:
            self.beginResetModel()
            self.grouping, self.decisions = grouping, decisions
            self.order = self._ordered(self._filtered())
            self.endResetModel()
            return
        self.decisions = decisions
        old = self.grouping  # a persistent index follows the first document of the group it showed
        self._rearrange(
            lambda: self._swap_grouping(grouping), lambda k: int(grouping.row_groups[old.member_rows(k)[0]])
        )

    def _swap_grouping(self, grouping: Grouping) -> None:
        self.grouping = grouping
        self.order = self._ordered(self._filtered())

    def set_filter(self, text: str) -> None:
        self.filter_text = text.strip()
        self._rearrange(lambda: setattr(self, "order", self._ordered(self._filtered())), lambda k: k)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Order the rows by `column`; by title, date or source, on what is read (Review.ordered: groups not
        read yet last; `partial_sort` says so until headlines_read(all_read=True) sorts again)."""
        if (column, order) == (self.sort_column, self.sort_order) and self.order is self._sorted:
            return  # QTableView.sortByColumn sorts twice (its header's signal, then itself): once is enough
        self.sort_column, self.sort_order = column, order
        self._rearrange(lambda: setattr(self, "order", self._ordered(self.order)), lambda k: k)
        self._sorted = self.order

    def _rearrange(self, change: Callable[[], None], follow: Callable[[int], int]) -> None:
        """Apply `change` to the rows; each persistent index moves to the row of group `follow(k)` (k: the
        group it showed; -1: gone)."""
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        shown = [int(self.order[i.row()]) if 0 <= i.row() < len(self.order) else -1 for i in old]
        change()
        position = self._positions()
        new = []
        for index, k in zip(old, shown):
            target = follow(k) if k >= 0 else -1
            row = int(position[target]) if target >= 0 else -1
            new.append(self.createIndex(row, index.column()) if row >= 0 else QModelIndex())
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def _positions(self) -> np.ndarray:
        """Group number -> visible row (-1: filtered out)."""
        n = len(self.grouping) if self.grouping is not None else 0
        position = np.full(n, -1, dtype=np.int64)
        position[self.order] = np.arange(len(self.order))
        return position

    def _filtered(self) -> np.ndarray:
        if self.grouping is None:
            return np.zeros(0, dtype=np.int64)
        ks = (
            self.review.matching(self.filter_text, self.grouping)
            if self.review is not None
            else self.grouping.matching(self.filter_text)
        )
        if (
            self.decided_filter != DECIDED_FILTERS[0]
            and self._decided is not None
            and self._decided[0] is self.grouping
        ):
            ks = ks[self._decided[1][ks] == (self.decided_filter == "decided")]
        return ks

    def _ordered(self, ks: np.ndarray) -> np.ndarray:
        """`ks` (group numbers) in the current sort order; ties keep the engine's order (largest first)."""
        self.partial_sort = False
        key = COLUMNS[self.sort_column].order if 0 <= self.sort_column < len(COLUMNS) else None
        if self.grouping is None or key is None:
            return np.sort(ks)
        descending = self.sort_order == Qt.SortOrder.DescendingOrder
        if self.review is None:
            return self.grouping.ordered(ks, key, descending) if key not in HEADLINE_KEYS else np.sort(ks)
        order, unread = self.review.ordered_and_unread(ks, key, descending, self.grouping)
        self.partial_sort = unread > 0
        return order

    # -- marks: the review's decisions, shown here (the window changes them through the review) -------------
    @property
    def keep(self) -> set[str]:
        return self.decisions.keep if self.decisions is not None else set()

    @property
    def queued(self) -> set[str]:
        return self.decisions.queued if self.decisions is not None else set()

    def marks_changed(self) -> None:
        """Marks changed (a key, a rule, an undo): every visible row repaints, the members list too."""
        if self.rowCount():
            self.dataChanged.emit(self.index(0, COL_STATUS), self.index(self.rowCount() - 1, COL_STATUS))
        self.marks_shown.emit()

    # -- lookups --------------------------------------------------------------------------------------
    def filtering(self) -> bool:
        """Whether a filter is on: a text, or the decided/undecided choice."""
        return bool(self.filter_text) or self.decided_filter != DECIDED_FILTERS[0]

    def visible_group_ids(self) -> list[int]:
        """The ids of the groups the filter shows, in the order shown."""
        return (self.order + 1).tolist()

    def row_of_path(self, path: str) -> int:
        """The row of the group showing `path` (-1 when it is in no visible group): a binary search and two
        table lookups, whatever the number of groups."""
        if self.grouping is None or (r := self.grouping.snapshot_row(path)) < 0:
            return -1
        k = int(self.grouping.row_groups[r])
        return int(self._positions()[k]) if k >= 0 else -1

    def row_of_group(self, group_id: int) -> int:
        """The row showing group `group_id` (-1: filtered out or none)."""
        if self.grouping is None or not 0 < group_id <= len(self.grouping):
            return -1
        return int(self._positions()[group_id - 1])

    def group_at(self, row: int) -> Group:
        assert self.grouping is not None
        return self.grouping.group(int(self.order[row]))

    def group(self, index: ModelIndex) -> Group | None:
        if not index.isValid() or self.grouping is None or not 0 <= index.row() < len(self.order):
            return None
        return self.group_at(index.row())

    # -- QAbstractTableModel --------------------------------------------------------------------------
    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.order)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        return header_data(section, orientation, role)

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        return ROW_FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags

    def data(self, index: ModelIndex, role: int = DISPLAY) -> Any:
        if role not in ANSWERED or not index.isValid() or self.grouping is None:
            return None
        g = self.group_at(index.row())
        col = index.column()
        if role == GroupRole:
            return g
        if role == PathRole:
            return g.members[0].path
        row = Row(g, None, self.keep, self.queued, self.headlines)
        if col in HEADLINE_COLUMNS and row.headline is None:
            self.want(g.id - 1)
        if role == DISPLAY:
            return COLUMNS[col].group_text(row)
        if role == FONT and col == COL_PATH:
            font = QFont()
            font.setBold(True)
            return font
        if role == FONT and col == COL_DATE:
            return _date_font(row)
        if role == TOOLTIP and col == COL_PATH:
            return "\n".join(m.path for m in g.members[:20])
        if role == TOOLTIP and col in HEADLINE_COLUMNS:
            return COLUMNS[col].member_tip(row)
        return None


def _class_status(copies: tuple[Member, ...], fates: list[Fate | None], keep: set[str], queued: set[str]) -> str:
    """The Status of a class of identical copies: what a clean-up does with its files, counted ("keep 1 ·
    4,999 go"); empty while nothing is marked."""
    kept = sum(1 for m in copies if m.path in keep)
    trashed = sum(1 for m in copies if m.path in queued and m.path not in keep)
    go = sum(1 for f in fates if f is not None and f.fate == "goes" and f.why != "queued")
    stay = sum(1 for f in fates if f is not None and f.fate == "stays" and f.why != "nothing_kept")
    parts = [
        fill(QCoreApplication.translate("GroupsModel", "keep %1"), f"{kept:,}") if kept else "",
        fill(QCoreApplication.translate("GroupsModel", "%1 to trash"), f"{trashed:,}") if trashed else "",
        fill(QCoreApplication.translate("GroupsModel", "%1 go"), f"{go:,}") if go else "",
        fill(QCoreApplication.translate("GroupsModel", "%1 stay"), f"{stay:,}") if stay else "",
    ]
    return " · ".join(p for p in parts if p)


CLASS_TIP = QT_TRANSLATE_NOOP(
    "GroupsModel",
    "%1 files with the same text. A mark on this row (keep, trash) marks its first file, %2; keeping one "
    "file of the class sends its identical copies to the trash at the clean-up. Double-click or press Right "
    "to list the files, Left to fold them",
)
COLLAPSED, EXPANDED = "▸", "▾"
FIRST_FILE = object()  # a class row's cell that shows its first file's
INDENT = "\u2003\u2003"  # a file of an unfolded class, under its class row


class MembersModel(QAbstractTableModel):
    """The members of one group (the groups list's current one), representative first, each class of
    identical copies (Group.copies) as one row "N identical copies" that unfolds to its files (expand,
    collapse): a row is a (class, file) pair, file -1 for a class row, so a class of 5,000 copies costs one
    row until unfolded and its files cost a pair each, never a widget. A class row stands for its first file:
    marks, the comparison and the path. Keep marks are checked in the Document column, queued ones struck
    out. A keep box ticked or cleared asks for the mark (keep_asked); the window makes it through the
    review."""

    keep_asked = Signal(object, object, bool)  # member, its group as shown, keep

    def __init__(self, groups: GroupsModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.groups = groups
        self.shown: Group | None = None
        self._fates: dict[str, Fate] | None = None  # the shown group's, until a mark or the group changes
        self._classes: tuple[tuple[Member, ...], ...] = ()
        self._open: set[str] = set()  # the first paths of the unfolded classes
        self._rows: list[tuple[int, int]] = []  # (class, file; -1: the class row)
        self._positions: list[list[int]] = []  # each class's files' positions in the group's members
        groups.marks_shown.connect(self._repaint)

    def fate(self, member: Member) -> Fate | None:
        """What a clean-up does with a member of the shown group (Review.fates at the shown threshold)."""
        review, grouping = self.groups.review, self.groups.grouping
        if review is None or grouping is None or self.shown is None:
            return None
        if self._fates is None:
            self._fates = {f.path: f for f in review.fates(self.shown, grouping.threshold)}
        return self._fates.get(member.path)

    def set_group(self, group: Group | None) -> None:
        """Show `group`'s members (None: none), its classes of identical copies folded. The same group again
        (by its members) keeps the rows, the unfolded classes, and so the selection."""
        self._fates = None
        if group is not None and self.shown is not None and group.members == self.shown.members:
            self.shown = group
            return
        self.beginResetModel()
        self.shown = group
        self._classes = group.copies if group is not None else ()
        position = {m.path: n for n, m in enumerate(self.members())}
        self._positions = [[position[m.path] for m in copies] for copies in self._classes]
        self._open = set()
        self._rows = self._layout()
        self.endResetModel()

    def _layout(self) -> list[tuple[int, int]]:
        rows: list[tuple[int, int]] = []
        for c, copies in enumerate(self._classes):
            if len(copies) == 1:
                rows.append((c, 0))
                continue
            rows.append((c, -1))
            if copies[0].path in self._open:
                rows.extend((c, i) for i in range(len(copies)))
        return rows

    # -- classes of identical copies ------------------------------------------------------------------
    def copies_at(self, row: int) -> tuple[Member, ...] | None:
        """The class of identical copies of a class row (None: a file's row)."""
        if not 0 <= row < len(self._rows) or self._rows[row][1] >= 0:
            return None
        return self._classes[self._rows[row][0]]

    def class_row(self, row: int) -> int:
        """The class row of `row`: itself for a class row, its class's row for a file of an unfolded class,
        -1 for a file with no identical copy."""
        if not 0 <= row < len(self._rows):
            return -1
        c, i = self._rows[row]
        if len(self._classes[c]) == 1:
            return -1
        return row if i < 0 else row - i - 1

    def expanded(self, row: int) -> bool:
        copies = self.copies_at(row)
        return copies is not None and copies[0].path in self._open

    def expand(self, row: int) -> None:
        """List the files of the class at `row` under it (nothing for another row)."""
        copies = self.copies_at(row)
        if copies is None or copies[0].path in self._open:
            return
        c = self._rows[row][0]
        self.beginInsertRows(QModelIndex(), row + 1, row + len(copies))
        self._rows[row + 1 : row + 1] = [(c, i) for i in range(len(copies))]
        self.endInsertRows()
        self._open.add(copies[0].path)  # its fold mark changes after the insertion, with its own signal
        self.dataChanged.emit(self.index(row, COL_PATH), self.index(row, COL_PATH))

    def collapse(self, row: int) -> int:
        """Fold the class of `row` (a class row or one of its files) into its class row; returns that row."""
        top = self.class_row(row)
        copies = self.copies_at(top)
        if copies is None or copies[0].path not in self._open:
            return top
        self.beginRemoveRows(QModelIndex(), top + 1, top + len(copies))
        del self._rows[top + 1 : top + 1 + len(copies)]
        self.endRemoveRows()
        self._open.discard(copies[0].path)
        self.dataChanged.emit(self.index(top, COL_PATH), self.index(top, COL_PATH))
        return top

    def toggle(self, row: int) -> None:
        """Unfold a folded class, fold an unfolded one."""
        if self.expanded(row):
            self.collapse(row)
        else:
            self.expand(row)

    # -- lookups --------------------------------------------------------------------------------------
    def members(self) -> tuple[Member, ...]:
        return self.shown.members if self.shown is not None else ()

    def member_at(self, row: int) -> Member | None:
        """The file of `row`; a class row's first file."""
        if not 0 <= row < len(self._rows):
            return None
        c, i = self._rows[row]
        return self._classes[c][max(i, 0)]

    def member(self, index: ModelIndex) -> Member | None:
        return self.member_at(index.row()) if index.isValid() else None

    def row_of_path(self, path: str) -> int:
        """The row showing `path`: its own, or its class's row while the class is folded (-1: not a member)."""
        found = -1
        for n, (c, i) in enumerate(self._rows):
            copies = self._classes[c]
            if i >= 0 and copies[i].path == path:
                return n
            if i < 0 and found < 0 and any(m.path == path for m in copies):
                found = n
        return found

    def _key(self, row: int) -> int:
        """What an index of `row` carries (internalId) to find its row again after a class above it unfolds
        or folds: the position of its file in the group's members, twice, plus 1 for a class row."""
        c, i = self._rows[row]
        return 2 * self._positions[c][max(i, 0)] + (1 if i < 0 else 0)

    def current_row(self, index: ModelIndex) -> int:
        """The row that `index` (made before classes were unfolded or folded) shows now; -1: none."""
        if not index.isValid():
            return -1
        key = index.internalId()
        if 0 <= index.row() < len(self._rows) and self._key(index.row()) == key:
            return index.row()
        return next((r for r in range(len(self._rows)) if self._key(r) == key), -1)

    def reveal(self, path: str) -> int:
        """The row of `path`, its class unfolded when `path` is not the class's first file (the class row
        stands for that one); -1: not a member."""
        row = self.row_of_path(path)
        if (copies := self.copies_at(row)) is not None and copies[0].path != path:
            self.expand(row)
            return self.row_of_path(path)
        return row

    def _repaint(self) -> None:
        self._fates = None
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, len(COLUMNS) - 1))

    # -- QAbstractTableModel --------------------------------------------------------------------------
    def index(self, row: int, column: int, parent: ModelIndex = QModelIndex()) -> QModelIndex:
        if parent.isValid() or not 0 <= row < len(self._rows) or not 0 <= column < len(COLUMNS):
            return QModelIndex()
        return self.createIndex(row, column, self._key(row))

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        return header_data(section, orientation, role)

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return CHECKABLE_FLAGS if index.column() == COL_PATH else ROW_FLAGS

    def setData(self, index: ModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        member = self.member(index)
        if role == CHECK and member is not None and self.shown is not None:
            checked = value in (Qt.CheckState.Checked, Qt.CheckState.Checked.value, 2, True)
            self.keep_asked.emit(member, self.shown, checked)
            return True
        return False

    def _class_data(self, copies: tuple[Member, ...], row: int, col: int, role: int) -> Any:
        """A class row's own cells: its count, its files' fates, its fold mark and its tips; FIRST_FILE: the
        cell of its first file."""
        keep, queued = self.groups.keep, self.groups.queued
        first = copies[0]
        if role == DISPLAY and col == COL_PATH:
            mark = EXPANDED if self.expanded(row) else COLLAPSED
            count = fill(QCoreApplication.translate("GroupsModel", "%1 identical copies"), f"{len(copies):,}")
            return f"{mark} {count} · {file_then_folder(first.path)}"
        if role == DISPLAY and col == COL_MEMBERS:
            return f"{len(copies):,}"
        if role == DISPLAY and col == COL_STATUS:
            status = _class_status(copies, [self.fate(m) for m in copies], keep, queued)
            if not status and self.shown is not None and first.path == self.shown.members[0].path:
                return QCoreApplication.translate("GroupsModel", "representative")
            return status
        if role == CHECK and col == COL_PATH:
            if first.path in keep:
                return Qt.CheckState.Checked
            return Qt.CheckState.PartiallyChecked if any(m.path in keep for m in copies) else Qt.CheckState.Unchecked
        if role in (TOOLTIP, STATUS_TIP) and col in (COL_PATH, COL_STATUS):
            return fill(QCoreApplication.translate(CONTEXT, str(CLASS_TIP)), f"{len(copies):,}", first.path)
        if role in (FONT, FOREGROUND) and col != COL_DATE:
            if all(m.path in queued for m in copies):
                return self._file_data(first, col, role)
            font = QFont()
            font.setBold(col == COL_PATH)
            return font if role == FONT else None
        return FIRST_FILE

    def data(self, index: ModelIndex, role: int = DISPLAY) -> Any:
        m = self.member(index)
        if (role not in ANSWERED and role not in (STATUS_TIP, FoldRole)) or m is None or self.shown is None:
            return None
        if role == MemberRole:
            return m
        if role == GroupRole:
            return self.shown
        if role == PathRole:
            return m.path
        if role == FoldRole:
            return self.copies_at(index.row()) is not None
        if (copies := self.copies_at(index.row())) is not None:
            got = self._class_data(copies, index.row(), index.column(), role)
            if got is not FIRST_FILE:
                return got
        elif role == DISPLAY and index.column() == COL_PATH and self.class_row(index.row()) >= 0:
            return INDENT + file_then_folder(m.path)
        return self._file_data(m, index.column(), role)

    def _file_data(self, m: Member, col: int, role: int) -> Any:
        assert self.shown is not None
        keep, queued = self.groups.keep, self.groups.queued
        if role == STATUS_TIP:
            return None
        row = Row(
            self.shown,
            m,
            keep,
            queued,
            self.groups.headlines,
            self.fate(m) if col == COL_STATUS and role in (DISPLAY, TOOLTIP) else None,
        )
        if col in HEADLINE_COLUMNS and row.headline is None:
            self.groups.want(self.shown.id - 1)
        if role == DISPLAY:
            return COLUMNS[col].member_text(row)
        if role == CHECK and col == COL_PATH:
            return Qt.CheckState.Checked if m.path in keep else Qt.CheckState.Unchecked
        if role == FONT and (m.path in queued or col == COL_DATE):
            font = (_date_font(row) if col == COL_DATE else None) or QFont()
            font.setStrikeOut(m.path in queued)
            return font
        if role == FOREGROUND and m.path in queued:
            return QBrush(QColor("#b3261e"))
        if role == TOOLTIP:
            return COLUMNS[col].member_tip(row)
        return None
