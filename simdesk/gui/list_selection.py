"""What is selected in the groups list and the members list: the current group, the chosen groups, the
selected copies, the pair to compare and the groups a rule acts on; and making a group or copies current."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPersistentModelIndex
from PySide6.QtWidgets import QTableView

from simdesk.core import Group, Member, Scope, action_scope, pair_to_compare
from simdesk.gui.groups_model import COL_PATH, GroupsModel, MembersModel

SELECT_ROWS = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
CLEAR_AND_SELECT_ROWS = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows


class ListSelection:
    """The selection of the two lists (`groups_view` over `groups`, `members_view` over `members`)."""

    def __init__(
        self, groups_view: QTableView, members_view: QTableView, groups: GroupsModel, members: MembersModel
    ) -> None:
        self.groups_view, self.members_view = groups_view, members_view
        self.groups, self.members = groups, members

    def current_group(self) -> Group | None:
        return self.groups.group(self.groups_view.currentIndex())

    def current_pair(self) -> tuple[Member, Member] | None:
        """The two copies to compare (core.pair_to_compare): the two selected, else the current group's first
        two."""
        return pair_to_compare(self.selected_members(), self.members.shown)

    def show_group_row(self, row: int) -> None:
        """Make group `row` the current one (its members shown below), scrolled to."""
        index = self.groups.index(row, COL_PATH)
        self.groups_view.selectionModel().setCurrentIndex(index, CLEAR_AND_SELECT_ROWS)
        self.groups_view.scrollTo(index)
        self.show_current_members()

    def show_current_members(self) -> None:
        self.members.set_group(self.current_group())

    def reselect(self, selected: list[str]) -> None:
        """After a regroup or rescan, select the same members again where they still are in a group (those in
        the group of the first one)."""
        if selected and (row := self.groups.row_of_path(selected[0])) >= 0:
            if self.groups_view.currentIndex().row() != row:
                self.show_group_row(row)
            self.show_current_members()
            for p in selected:  # unfold first: an unfolded class moves the rows below it
                self.members.reveal(p)
            self.select_members(
                [self.members.index(r, COL_PATH) for p in selected if (r := self.members.reveal(p)) >= 0]
            )
        else:
            self.show_current_members()

    def member_index(self, path: str) -> QModelIndex:
        """The members list's row of `path`, making its group the current one and unfolding its class of
        identical copies (invalid: in no group shown)."""
        row = self.groups.row_of_path(path)
        if row < 0:
            return QModelIndex()
        if self.groups_view.currentIndex().row() != row:
            self.show_group_row(row)
        return self.members.index(self.members.reveal(path), COL_PATH)

    def select_members(self, indexes: Sequence[QModelIndex | QPersistentModelIndex]) -> None:
        """Select these rows of the members list, the first one current."""
        # an index made before a class above it unfolded points at its row as it is now
        indexes = [self.members.index(r, COL_PATH) for i in indexes if (r := self.members.current_row(i)) >= 0]
        if not indexes:
            return
        selection = self.members_view.selectionModel()
        selection.setCurrentIndex(indexes[0], CLEAR_AND_SELECT_ROWS)
        for idx in indexes[1:]:
            selection.select(idx, SELECT_ROWS)
        self.members_view.scrollTo(indexes[0])

    def selected_members(self) -> list[Member]:
        """The selected members, in the list's order (a class of identical copies folded in one row: its
        first file)."""
        rows = sorted(i.row() for i in self.members_view.selectionModel().selectedRows(COL_PATH))
        chosen: dict[str, Member] = {}
        for r in rows:
            if (m := self.members.member_at(r)) is not None:
                chosen.setdefault(m.path, m)
        return list(chosen.values())

    def expand_copies(self) -> bool:
        """Right: list the files of the current class of identical copies; False when the current row is
        none (nothing done)."""
        row = self.members_view.currentIndex().row()
        if self.members.copies_at(row) is None or self.members.expanded(row):
            return False
        self.members.expand(row)
        return True

    def collapse_copies(self) -> bool:
        """Left: fold the class of the current row (a class row or one of its files) into its class row, which
        becomes current; False when the current row is in no unfolded class."""
        row = self.members_view.currentIndex().row()
        top = self.members.class_row(row)
        if top < 0 or not self.members.expanded(top):
            return False
        self.select_members([self.members.index(self.members.collapse(top), COL_PATH)])
        return True

    def toggle_copies(self, index: QModelIndex) -> bool:
        """A double-click on a class row unfolds or folds it; False for a file's row."""
        if self.members.copies_at(index.row()) is None:
            return False
        self.members.toggle(index.row())
        return True

    def selected_members_current_first(self) -> list[Member]:
        """Every selected member, the current one first (Space and Delete toggle as it is)."""
        current = self.members.member(self.members_view.currentIndex())
        rest = [m for m in self.selected_members() if current is None or m.path != current.path]
        return ([current] if current is not None else []) + rest

    def selected_groups(self) -> list[int]:
        """The ids of the groups the editor chose in the groups list: two or more selected rows (one row is
        the group looked at, selected by the click that shows it, not a choice); Esc clears them."""
        rows = self.groups_view.selectionModel().selectedRows(COL_PATH)
        if len(rows) < 2:
            return []
        return [g.id for i in rows if (g := self.groups.group(i)) is not None]

    def rule_scope(self) -> Scope:
        """The groups a rule over many groups or a clean-up acts on (core.action_scope): the groups chosen in
        the list, else the groups the filters show, else every group."""
        grouping = self.groups.grouping
        shown = self.groups.visible_group_ids() if self.groups.filtering() else None
        return action_scope(self.selected_groups(), shown, len(grouping) if grouping is not None else 0)

    def clear_group_selection(self) -> None:
        """Esc: no group chosen any more (the current group stays shown)."""
        selection = self.groups_view.selectionModel()
        current = self.groups_view.currentIndex()
        selection.clearSelection()
        if current.isValid():  # the group looked at stays selected as looked at, not as a choice
            selection.select(current, SELECT_ROWS)
