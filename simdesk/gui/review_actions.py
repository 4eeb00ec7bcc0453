"""The review's actions in the window: keep and trash marks, keep rules, undo of marks, "not duplicates",
clean-up, undo of a clean-up and export. Each is a call to the review (core.Review) or its decisions, run
off the GUI thread when it may take time; the lists only show the marks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QFileDialog, QWidget

from simdesk.core import (
    CleanupPlan,
    CleanupReport,
    Group,
    KeepChain,
    Member,
    Review,
    Scope,
    UndoReport,
    action_log,
    can_undo_cleanup,
    undo_last,
)
from simdesk.gui.groups_model import GroupsModel
from simdesk.gui.list_selection import ListSelection
from simdesk.gui.messages import WindowMessages
from simdesk.gui.settings import Settings
from simdesk.gui.translations import fill
from simdesk.gui.worker import Background

if TYPE_CHECKING:
    from simdesk.gui.rules_dialog import KeepRulesDialog

Say = Callable[[Callable[[], str]], None]  # shows a message made by the function (made again in a new language)


@dataclass(frozen=True)
class _RuleApplied:
    """A keep rule applied to many groups, its summary waiting for the count of the groups decided."""

    review: Review
    stamp: tuple[int, int]  # Review.stamp once its marks were applied
    scope: Scope
    groups: list[Group]  # the groups it kept a copy in
    left_alone: int  # groups without a copy in the reference folder


class ReviewActions(QObject):
    """The editor's actions on the review `review()` at `threshold()`, on what `selection` holds; long ones
    run on `background`, the marks are saved by `writer` in order; messages go through `say` and `messages`."""

    decisions_changed = Signal()  # the editor changed marks: saved, and the decided groups counted again
    undo_changed = Signal()  # what Ctrl+Z (Decisions.can_undo) or the undo of a clean-up can take back changed
    cleanup_done = Signal(object)  # CleanupReport
    undo_done = Signal(object)  # UndoReport
    exported = Signal(str)

    def __init__(
        self,
        window: QWidget,
        review: Callable[[], Review | None],
        threshold: Callable[[], int],
        selection: ListSelection,
        groups: GroupsModel,
        messages: WindowMessages,
        settings: Settings,
        data_dir: Path,
        say: Say,
        background: Background,
        writer: Background,
    ) -> None:
        super().__init__(window)
        self.window, self.review, self.threshold, self.selection = window, review, threshold, selection
        self.groups, self.messages, self.settings, self.data_dir, self.say = groups, messages, settings, data_dir, say
        self.background, self.writer = background, writer
        self.last_report: CleanupReport | None = None
        self._rule: _RuleApplied | None = None  # the last rule over many groups, until its summary is said
        self._cleanup_undoable = False  # the action log has a clean-up to undo (can_undo_cleanup), as last read
        self._cleaning = 0  # clean-ups and undos of one under way
        self._log_reads = 0  # the action log's reads asked for: only the last one's answer counts

    # -- marks: the review's decisions, shown by the lists, saved by the writer in batches ----------------
    def _marked(self) -> None:
        self.groups.marks_changed()
        self.decisions_changed.emit()
        self.undo_changed.emit()

    def _checkpoint(self, review: Review) -> None:
        """Before an action on the marks: Ctrl+Z brings them back as they are now."""
        review.decisions.checkpoint()

    def undo_marks(self) -> None:
        """Ctrl+Z: the review's last action on the marks taken back (Decisions.undo: a rule over many groups
        whose copies are still being chosen is called off, else the marks are put back)."""
        if (review := self.review()) is not None and review.decisions.undo():
            self._marked()
            self.say(lambda: self.tr("The last change of marks was undone"))
        else:
            self.say(lambda: self.tr("No change of marks to undo"))

    def set_keep(self, member: Member, group: Group, keep: bool) -> None:
        """A keep box ticked or cleared in the members list (the mark bound to the group as shown): an action
        of its own, which Ctrl+Z takes back alone."""
        if (review := self.review()) is not None:
            self._checkpoint(review)
            review.decisions.set_keep(member.path, keep, group)
            self._marked()

    def toggle_keep(self) -> None:
        """Space: keep every selected copy, or none of them if the current one was kept
        (Decisions.toggle_keep_all, each mark bound to the group as shown)."""
        members, group = self.selection.selected_members_current_first(), self.selection.members.shown
        if members and group is not None and (review := self.review()) is not None:
            self._checkpoint(review)
            review.decisions.toggle_keep_all([m.path for m in members], [group] * len(members))
            self._marked()

    def toggle_queued(self) -> None:
        """Delete: queue every selected copy for the trash, or none of them if the current one was queued."""
        if (members := self.selection.selected_members_current_first()) and (review := self.review()) is not None:
            self._checkpoint(review)
            review.decisions.toggle_queued_all([m.path for m in members])
            self._marked()

    def keep_by_rule(self, rule: str) -> None:
        if (review := self.review()) is not None and (group := self.selection.current_group()):
            self._checkpoint(review)
            review.keep_by_rule(group, rule)
            self._marked()
            self.next_undecided()  # decided: on to the next group

    def next_undecided(self) -> None:
        """Select the next group (in the order shown) where no copy is kept yet, and show its first pair."""
        if (review := self.review()) is None:
            return
        current = self.selection.current_group()
        gid = review.next_undecided(self.groups.visible_group_ids(), current.id if current else None, self.threshold())
        if gid is None:
            self.say(lambda: self.tr("Every group shown is decided"))
            return
        self.selection.show_group_row(self.groups.row_of_group(gid))

    def keep_by_rule_everywhere(self, rule: str | KeepChain, keep_in: str | None = None) -> None:
        """Apply a rule (one criterion or a chain, and a reference folder) to the groups of rule_scope(): the
        chosen ones, else the ones the filters show, else every group at the current threshold (the copies
        are chosen off the GUI thread)."""
        if (review := self.review()) is not None:
            threshold, scope = self.threshold(), self.selection.rule_scope()
            ticket = review.decisions.ask()  # this rule, until its copies are chosen (or Ctrl+Z calls it off)
            self.undo_changed.emit()
            self.background.call(
                partial(review.rule_choices, rule, threshold, keep_in, only=scope.groups, keep=True),
                partial(self._apply_rule_choices, ticket, review, threshold, scope),
                partial(self._rule_failed, ticket, review),
            )

    def _rule_failed(self, ticket: int, review: Review, _message: str) -> None:
        review.decisions.answered(ticket)
        self.undo_changed.emit()

    def _apply_rule_choices(
        self,
        ticket: int,
        review: Review,
        threshold: int,
        scope: Scope,
        choices: tuple[list[tuple[Group, str]], list[int]],
    ) -> None:
        """The marks at once, unless Ctrl+Z called the rule off meanwhile; the summary once the counter has
        counted the groups decided with them (which groups stay partly undecided: rule_counted)."""
        if not review.decisions.answered(ticket):
            return
        if self._shown(review):
            chosen, left_alone = choices
            self._checkpoint(review)
            review.keep_choices(chosen)
            self._rule = _RuleApplied(review, review.stamp(threshold), scope, [g for g, _ in chosen], len(left_alone))
            self._marked()

    def rule_counted(self, stamp: tuple[int, int], decided: np.ndarray) -> None:
        """The counter counted the groups decided (ReviewCounter.flags_counted): the last rule's summary, when
        the count is of the marks the rule left; none once the marks or the groups changed after it (an
        undo, a mark, another rule, another threshold), as it would describe marks that are no longer there."""
        rule, review = self._rule, self.review()
        if rule is None:
            return
        if review is None or review is not rule.review or not review.current(rule.stamp, self.threshold()):
            self._rule = None
        elif stamp == rule.stamp:
            self._rule = None
            partly = review.partly_decided(rule.groups, decided=decided)
            self.say(partial(self.messages.rule_summary, len(rule.groups), rule.scope, len(partly), rule.left_alone))

    def _shown(self, review: Review) -> bool:
        """Whether `review` is still the one the window shows."""
        return self.review() is review

    def choose_keep_rules(self) -> None:
        """The "Keep by rules" dialog (a chain of criteria, a reference folder); applied when accepted."""
        if (review := self.review()) is None:
            return
        from simdesk.gui.rules_dialog import KeepRulesDialog

        dialog = KeepRulesDialog(
            review.folders(), self.rule_scope_text(), self.settings.get("review/keep_chain"), self.window
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(partial(self._keep_by_dialog, dialog))
        dialog.open()

    def _keep_by_dialog(self, dialog: KeepRulesDialog) -> None:
        chain = dialog.chain()
        self.settings.set("review/keep_chain", str(chain))
        self.keep_by_rule_everywhere(chain, dialog.reference_folder())

    def rule_scope_text(self, scope: Scope | None = None) -> str:
        """What a rule over many groups will act on, in words (see ListSelection.rule_scope)."""
        scope = self.selection.rule_scope() if scope is None else scope
        if scope.kind == "all":
            return fill(self.tr("Applies to every group (%1)"), f"{scope.count:,}")
        if scope.kind == "selected":
            return fill(self.tr("Applies to the %1 selected groups"), f"{scope.count:,}")
        if scope.count == 1:
            return self.tr("Applies to the 1 group the filter shows")
        return fill(self.tr("Applies to the %1 groups the filter shows"), f"{scope.count:,}")

    def mark_not_duplicates(self, regroup: Callable[[], None]) -> None:
        """The two copies compared never group together again; `regroup` shows the groups without them."""
        if (pair := self.selection.current_pair()) is not None and (review := self.review()) is not None:
            review.mark_not_duplicates(pair[0].path, pair[1].path)
            self.save_decisions()
            regroup()
            self.say(lambda: fill(self.tr("%1 and %2 will not be grouped together again"), pair[0].path, pair[1].path))

    def save_decisions(self) -> None:
        if (review := self.review()) is not None:
            self.writer.call(review.decisions.save, None, self._decision_failed)

    def _decision_failed(self, message: str) -> None:
        self.say(lambda: fill(self.tr("Could not save the decision: %1"), message))

    # -- clean-up and undo ----------------------------------------------------------------------------
    @property
    def can_undo_cleanup(self) -> bool:
        """Whether "Undo last clean-up" has a clean-up to put back: the action log said so when last read
        (core's can_undo_cleanup), and no clean-up or undo is under way."""
        return self._cleanup_undoable and self._cleaning == 0

    def read_action_log(self) -> None:
        """Read again, off the GUI thread, whether the action log has a clean-up to undo (another simdesk may
        have written it since); undo_changed tells when the answer changed what applies."""
        self._log_reads += 1
        read, log = self._log_reads, action_log(self.data_dir)
        self.background.call(
            partial(can_undo_cleanup, log),
            partial(self._action_log_read, read),
            lambda _message: self._action_log_read(read, False),
        )

    def _action_log_read(self, read: int, undoable: bool) -> None:
        if read == self._log_reads and self._cleaning == 0:
            self._cleanup_undoable = undoable
            self.undo_changed.emit()

    def _cleaning_started(self) -> None:
        self._cleaning += 1
        self._log_reads += 1  # a read asked for before is out of date
        self.undo_changed.emit()

    def _cleaning_ended(self, undoable: bool) -> None:
        """A clean-up or an undo ended; `undoable`: what the action log said right after it."""
        self._cleaning -= 1
        self._cleanup_undoable = undoable
        self._log_reads += 1
        self.undo_changed.emit()

    def trash_marked(self) -> None:
        self.plan_cleanup("trash", None)

    def move_marked(self) -> None:
        if dest := QFileDialog.getExistingDirectory(self.window, self.tr("Move the duplicates to…")):
            self.move_marked_to(Path(dest))

    def move_marked_to(self, dest: Path) -> None:
        """Plan moving every copy not kept below `dest` (keeping relative paths), then ask to confirm."""
        self.plan_cleanup("move", dest)

    def plan_cleanup(self, action: str, dest: Path | None) -> None:
        """Plan the clean-up of the groups of rule_scope() and count the copies still undecided in the groups
        it touches (off the GUI thread), then ask to confirm, naming those groups."""
        if (review := self.review()) is not None:
            threshold, scope = self.threshold(), self.selection.rule_scope()

            def planned() -> tuple[CleanupPlan, int]:
                plan = review.plan_cleanup(threshold, scope.groups)
                return plan, review.undecided_copies(plan.survivors, threshold)

            self.background.call(
                planned,
                lambda got: self.messages.confirm_cleanup(
                    got[0], action, dest, partial(self.carry_out, got[0], action, dest), got[1], scope
                ),
            )

    def carry_out(self, plan: CleanupPlan, action: str, dest: Path | None = None) -> None:
        """Execute a confirmed plan off the GUI thread; the report says what was verified done."""
        review = self.review()
        assert review is not None
        self.say(lambda: self.tr("Cleaning up…"))
        self._cleaning_started()
        log = action_log(self.data_dir)

        def clean_up() -> tuple[CleanupReport, bool]:
            return review.clean_up(plan, action, dest, log), can_undo_cleanup(log)

        self.background.call(clean_up, self._cleanup_finished, self._cleanup_failed)

    def _cleanup_finished(self, done: tuple[CleanupReport, bool]) -> None:
        report, undoable = done
        self._cleaning_ended(undoable)
        self.last_report = report
        self.say(lambda: self.messages.cleanup_summary(report))
        self.messages.show_cleanup_report(report)
        self.cleanup_done.emit(report)  # the window rescans: the index learns what left

    def _cleanup_failed(self, message: str) -> None:
        self._cleaning -= 1
        self.read_action_log()  # what the log holds now: a clean-up cut short may have moved some files
        self.messages.warn("cleanup_failed", self.tr("Clean-up failed"), message)

    def undo_last_cleanup(self) -> None:
        """Put the files of the last clean-up back, off the GUI thread; report what came back. Nothing while
        a clean-up or an undo is under way."""
        if self._cleaning:
            return
        self._cleaning_started()
        log = action_log(self.data_dir)

        def undo() -> tuple[UndoReport, bool]:
            return undo_last(log), can_undo_cleanup(log)

        self.background.call(undo, self._undo_finished, self._cleanup_failed)

    def _undo_finished(self, done: tuple[UndoReport, bool]) -> None:
        report, undoable = done
        self._cleaning_ended(undoable)
        self.say(lambda: self.messages.undo_summary(report))
        self.messages.show_undo_report(report)
        self.undo_done.emit(report)  # the window rescans when files came back

    # -- export ---------------------------------------------------------------------------------------
    def choose_export(self, fmt: str) -> None:
        if self.review() is None:
            return
        name, _ = QFileDialog.getSaveFileName(
            self.window,
            self.tr("Export groups"),
            f"groups.{fmt}",
            "JSON (*.json)" if fmt == "json" else "CSV (*.csv)",
        )
        if name:
            self.export_to(Path(name), fmt)

    def export_to(self, path: Path, fmt: str) -> None:
        """Write the groups on screen with the editor's decisions as JSON (the `simdesk scan --format json`
        shape) or CSV, off the GUI thread."""
        if (review := self.review()) is not None:
            failed = partial(self.messages.warn, "export_failed", self.tr("Export failed"))
            self.background.call(partial(review.write_export, path, fmt, self.threshold()), self._exported, failed)

    def _exported(self, path: Path) -> None:
        self.say(lambda: fill(self.tr("Exported to %1"), str(path)))
        self.exported.emit(str(path))
