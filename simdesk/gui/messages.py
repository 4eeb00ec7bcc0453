"""What the main window tells the editor: a scan's progress line and summary, the clean-up confirmation, the
reports of a clean-up and an undo, warnings. Window-modal boxes opened without a nested event loop; texts
are plain (file names are never read as HTML)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from simdesk.core import CleanupPlan, CleanupReport, Progress, Review, Scope, UndoReport
from simdesk.gui.groups_model import human_size
from simdesk.gui.translations import fill


class WindowMessages(QObject):
    """Texts and message boxes of the main window (the boxes are window-modal over `window`)."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window

    def progress_text(
        self, p: Progress, left: float | None = None, checked: tuple[int, float] | None = None
    ) -> tuple[str, int, int]:
        """The progress label's text and the bar's range maximum (0: busy, no range) and value; `left`: the
        whole scan's seconds left (core.TimeLeft), None while unknown; `checked`: while the candidate pairs
        are checked (texts read and pairs scored by turns: one phase, one counter), how many pairs and the
        share of the check done (TimeLeft.checking)."""
        text, maximum, value = self._phase_text(p, checked)
        if left is not None and p.phase not in ("waiting", "listing", "done"):
            text += " · " + fill(self.tr("about %1 left"), self.duration_text(left))
        return text, maximum, value

    def duration_text(self, seconds: float) -> str:
        if seconds < 90:
            return fill(self.tr("%1 s"), f"{max(seconds, 1):.0f}")
        return fill(self.tr("%1 min"), f"{seconds / 60:.0f}")

    def _phase_text(self, p: Progress, checked: tuple[int, float] | None = None) -> tuple[str, int, int]:
        if p.phase == "waiting":
            return self.tr("Waiting for another scan of this folder to end…"), 0, 0
        if p.phase == "listing":
            return fill(self.tr("Listing files… %1 found"), f"{p.done:,}"), 0, 0
        if p.phase == "reading":
            text = fill(self.tr("%1 / %2 files · %3 files/s"), f"{p.done:,}", f"{p.total:,}", f"{p.rate:.0f}")
            return text, max(p.total, 1), p.done
        if p.phase in ("verifying", "scoring") and checked is not None:
            pairs, share = checked
            percent = f"{share * 100:.0f}"
            text = (
                fill(self.tr("Checking %1 candidate pairs on their texts: %2%"), f"{pairs:,}", percent)
                if pairs
                else fill(self.tr("Checking the candidate pairs on their texts: %1%"), percent)
            )
            return text, 1000, round(share * 1000)
        return self.tr("Grouping…"), 0, 0  # saving, boilerplate, pairing, done

    def scan_summary(self, review: Review) -> str:
        """What the scan that made `review` did (a review from a scan: its result is there)."""
        assert review.result is not None
        stats = review.result.stats
        if stats.cancelled:
            return fill(self.tr("Scan cancelled: %1 documents indexed so far are kept"), f"{review.documents:,}")
        return fill(
            self.tr("Scanned %1 files in %2 s: %3 new, %4 changed, %5 deleted, %6 problems"),
            f"{stats.listed:,}",
            f"{stats.seconds:.1f}",
            f"{stats.new:,}",
            f"{stats.changed:,}",
            f"{stats.deleted:,}",
            f"{stats.problems:,}",
        )

    def about_text(self) -> str:
        return self.tr(
            "simdesk finds near-duplicate text documents (Chinese first) with 64-bit SimHash fingerprints "
            "kept in a SQLite index, and helps you clean them up safely."
        )

    def show_box(self, name: str, icon: QMessageBox.Icon, title: str, text: str, details: str = "") -> None:
        box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, self.window)
        box.setTextFormat(Qt.TextFormat.PlainText)  # messages carry file names: never read as HTML
        box.setObjectName(name)
        if details:
            box.setDetailedText(details)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def warn(self, name: str, title: str, message: str) -> None:
        self.show_box(name, QMessageBox.Icon.Warning, title, message)

    def scope_phrase(self, scope: Scope) -> str:
        """The groups an action reaches, in words: "all 4,425 groups", "the 677 groups the filter shows", "the
        3 selected groups"."""
        n = f"{scope.count:,}"
        if scope.kind == "selected":
            return fill(self.tr("the %1 selected groups"), n)
        if scope.kind == "shown":
            return (
                self.tr("the 1 group the filter shows")
                if scope.count == 1
                else fill(self.tr("the %1 groups the filter shows"), n)
            )
        return self.tr("the only group") if scope.count == 1 else fill(self.tr("all %1 groups"), n)

    def rule_summary(self, chosen: int, scope: Scope, partly: int, left_alone: int) -> str:
        """What a keep rule over many groups did: in how many groups of its scope it kept a copy, how many of
        them keep copies the copy kept does not hold (they stay), how many it left alone."""
        text = (
            self.tr("One copy marked to keep in 1 group")
            if chosen == 1
            else fill(self.tr("One copy marked to keep in each of %1 groups"), f"{chosen:,}")
        )
        text += fill(self.tr(" (of %1)"), self.scope_phrase(scope))
        if partly:
            text += fill(self.tr("; in %1 of them some copies stay: the copy kept does not hold them"), f"{partly:,}")
        if left_alone:
            text += (
                self.tr("; 1 group left alone (no copy in the reference folder)")
                if left_alone == 1
                else fill(self.tr("; %1 groups left alone (no copy in the reference folder)"), f"{left_alone:,}")
            )
        return text

    def files_text(self, n: int) -> str:
        return self.tr("1 file") if n == 1 else fill(self.tr("%1 files"), f"{n:,}")

    def confirm_cleanup(
        self,
        plan: CleanupPlan,
        action: str,
        dest: object,
        on_yes: Callable[[], None],
        undecided: int,
        scope: Scope,
    ) -> None:
        """Ask before a clean-up: how many files and bytes go where, from which groups (`scope`: the groups
        chosen, the ones the filters show, or all), which groups are left alone, and how many copies in the
        groups it touches are still undecided (they stay: Review.undecided_copies)."""
        refused = ""
        if undecided:
            refused = "\n\n" + fill(
                self.tr("%1 other copies in these groups are still undecided: they stay where they are."),
                f"{undecided:,}",
            )
        if plan.refusals:
            refused += "\n\n" + fill(
                self.tr("%1 groups are left alone because every copy in them is queued: mark one copy to keep."),
                f"{len(plan.refusals):,}",
            )
        box = QMessageBox(self.window)
        box.setTextFormat(Qt.TextFormat.PlainText)  # the destination folder's name is not HTML
        box.setObjectName("confirm_cleanup")
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(self.tr("Clean up"))
        if plan.files == 0:
            box.setIcon(QMessageBox.Icon.Information)
            box.setText(
                fill(
                    self.tr(
                        "Nothing to remove in %1. Mark the copy to keep in a group (Space) and the "
                        "others go, or queue single copies (Delete)."
                    ),
                    self.scope_phrase(scope),
                )
                + refused
            )
            box.setStandardButtons(QMessageBox.StandardButton.Ok)
        else:
            question = (
                self.tr("Move %1 (%2) from %3 to the trash?")
                if action == "trash"
                else self.tr("Move %1 (%2) from %3 to %4?")
            )
            box.setText(
                fill(question, self.files_text(plan.files), human_size(plan.bytes), self.scope_phrase(scope), dest)
                + refused
            )
            box.setInformativeText(
                self.tr("Each file is checked to be unchanged since the scan first; changed files are skipped.")
            )
            box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)
            box.setDefaultButton(QMessageBox.StandardButton.Cancel)
            box.accepted.connect(on_yes)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    def cleanup_summary(self, report: CleanupReport) -> str:
        done = (
            self.tr("%1 files sent to the trash (%2).") if report.action == "trash" else self.tr("%1 files moved (%2).")
        )
        text = fill(done, f"{len(report.done):,}", human_size(report.bytes_done))
        if report.skipped:
            text += " " + fill(self.tr("%1 skipped."), f"{len(report.skipped):,}")
        if report.failed:
            text += " " + fill(self.tr("%1 failed."), f"{len(report.failed):,}")
        return text

    def show_cleanup_report(self, report: CleanupReport) -> None:
        details = "\n".join(f"{p}: {why}" for p, why in report.skipped + report.failed)
        self.show_box(
            "cleanup_report",
            QMessageBox.Icon.Information,
            self.tr("Clean-up finished"),
            self.cleanup_summary(report),
            details,
        )

    def undo_summary(self, report: UndoReport) -> str:
        return (
            self.tr("Nothing to undo.")
            if report.run is None
            else fill(
                self.tr("%1 files restored, %2 not restored."),
                f"{len(report.restored):,}",
                f"{len(report.not_restored):,}",
            )
        )

    def show_undo_report(self, report: UndoReport) -> None:
        self.show_box(
            "undo_report",
            QMessageBox.Icon.Information,
            self.tr("Undo last clean-up"),
            self.undo_summary(report),
            "\n".join(f"{p}: {why}" for p, why in report.not_restored),
        )
