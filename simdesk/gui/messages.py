"""What the main window tells the editor: a scan's progress line, the clean-up confirmation, the reports of
a clean-up and an undo, warnings. Window-modal boxes opened without a nested event loop; texts are plain
(file names are never read as HTML)."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from simdesk.core import CleanupPlan, CleanupReport, Progress, Review, UndoReport
from simdesk.gui.groups_model import human_size
from simdesk.gui.translations import fill


def progress_text(w: QWidget, p: Progress) -> tuple[str, int, int]:
    """The progress label's text and the bar's range maximum (0: busy, no range) and value."""
    if p.phase == "waiting":
        return w.tr("Waiting for another scan of this folder to end…"), 0, 0
    if p.phase == "listing":
        return fill(w.tr("Listing files… %1 found"), f"{p.done:,}"), 0, 0
    if p.phase == "reading":
        eta = fill(w.tr("about %1 s left"), f"{p.eta:.0f}") if p.eta is not None else ""
        return (fill(w.tr("%1 / %2 files · %3 files/s · %4"), f"{p.done:,}", f"{p.total:,}", f"{p.rate:.0f}", eta),
                max(p.total, 1), p.done)
    if p.phase == "verifying" and p.total:
        return fill(w.tr("Checking %1 candidate pairs on their texts…"), f"{p.total:,}"), p.total, p.done
    return w.tr("Grouping…"), 0, 0  # saving, boilerplate, pairing, done


def scan_summary(w: QWidget, review: Review) -> str:
    stats = review.result.stats
    if stats.cancelled:
        return fill(w.tr("Scan cancelled: %1 documents indexed so far are kept"), f"{review.documents:,}")
    return fill(w.tr("Scanned %1 files in %2 s: %3 new, %4 changed, %5 deleted, %6 problems"),
                f"{stats.listed:,}", f"{stats.seconds:.1f}", f"{stats.new:,}", f"{stats.changed:,}",
                f"{stats.deleted:,}", f"{stats.problems:,}")


def about_text(w: QWidget) -> str:
    return w.tr("simdesk finds near-duplicate text documents (Chinese first) with 64-bit SimHash fingerprints "
                "kept in a SQLite index, and helps you clean them up safely.")


def show_box(parent: QWidget, name: str, icon: QMessageBox.Icon, title: str, text: str, details: str = "") -> None:
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)  # messages carry file names: never read as HTML
    box.setObjectName(name)
    if details:
        box.setDetailedText(details)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()


def warn(parent: QWidget, name: str, title: str, message: str) -> None:
    show_box(parent, name, QMessageBox.Icon.Warning, title, message)


def confirm_cleanup(w: QWidget, plan: CleanupPlan, action: str, dest: object, on_yes: Callable[[], None]) -> None:
    """Ask before a clean-up: how many files and bytes go where, and which groups are left alone."""
    refused = ""
    if plan.refusals:
        refused = "\n\n" + fill(w.tr("%1 groups are left alone because every copy in them is queued: "
                                     "mark one copy to keep."), str(len(plan.refusals)))
    box = QMessageBox(w)
    box.setTextFormat(Qt.TextFormat.PlainText)  # the destination folder's name is not HTML
    box.setObjectName("confirm_cleanup")
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle(w.tr("Clean up"))
    if plan.files == 0:
        box.setIcon(QMessageBox.Icon.Information)
        box.setText(w.tr("Nothing to remove. Mark the copy to keep in a group (Space) and the others go, "
                         "or queue single copies (Delete).") + refused)
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
    else:
        question = (w.tr("Move %1 files (%2) to the trash?") if action == "trash"
                    else w.tr("Move %1 files (%2) to %3?"))
        box.setText(fill(question, f"{plan.files:,}", human_size(plan.bytes), dest) + refused)
        box.setInformativeText(w.tr("Each file is checked to be unchanged since the scan first; "
                                    "changed files are skipped."))
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.accepted.connect(on_yes)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()


def cleanup_summary(w: QWidget, report: CleanupReport) -> str:
    done = (w.tr("%1 files sent to the trash (%2).") if report.action == "trash" else w.tr("%1 files moved (%2)."))
    text = fill(done, len(report.done), human_size(report.bytes_done))
    if report.skipped:
        text += " " + fill(w.tr("%1 skipped."), str(len(report.skipped)))
    if report.failed:
        text += " " + fill(w.tr("%1 failed."), str(len(report.failed)))
    return text


def show_cleanup_report(w: QWidget, report: CleanupReport) -> None:
    details = "\n".join(f"{p}: {why}" for p, why in report.skipped + report.failed)
    show_box(w, "cleanup_report", QMessageBox.Icon.Information, w.tr("Clean-up finished"),
             cleanup_summary(w, report), details)


def undo_summary(w: QWidget, report: UndoReport) -> str:
    return (w.tr("Nothing to undo.") if report.run is None
            else fill(w.tr("%1 files restored, %2 not restored."), str(len(report.restored)),
                      str(len(report.not_restored))))


def show_undo_report(w: QWidget, report: UndoReport) -> None:
    show_box(w, "undo_report", QMessageBox.Icon.Information, w.tr("Undo last clean-up"), undo_summary(w, report),
             "\n".join(f"{p}: {why}" for p, why in report.not_restored))
