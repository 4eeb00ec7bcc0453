"""The dialog a damaged index brings up: what is wrong, and a Rebuild button that moves the damaged file aside
and builds a new index from the folder, saying first which of the editor's decisions carry over (those the
damaged file still yields: core.index_rescue) and which are lost."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from simdesk.core import readable_decisions, rebuild_index
from simdesk.gui.translations import fill

DIALOG_NAME = "index_damaged"


def offer_index_rebuild(window: QWidget, index_path: Path, message: str, rebuilt: Callable[[], None]) -> QMessageBox:
    """Show the damaged index's message with a Rebuild button; on Rebuild, rebuild it and call `rebuilt`
    (which rescans). Returns the (non-modal) dialog."""
    rescue = readable_decisions(index_path)
    box = QMessageBox(window)
    box.setObjectName(DIALOG_NAME)
    box.setTextFormat(Qt.TextFormat.PlainText)  # the message names files: never read as HTML
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(window.tr("The index is damaged"))
    box.setText(message)
    carried = fill(
        window.tr(
            "Rebuild moves the damaged file aside (it is kept beside the new one) and reads the "
            "documents again from the folder. Carried over: %1 keep marks, %2 copies queued for "
            "the trash, %3 'not duplicates' pairs."
        ),
        f"{len(rescue.keep):,}",
        f"{len(rescue.queued):,}",
        f"{len(rescue.ignored):,}",
    )
    if rescue.unreadable:
        carried += " " + fill(window.tr("Lost with the damage: %1."), ", ".join(rescue.unreadable))
    box.setInformativeText(carried)
    rebuild = box.addButton(window.tr("Rebuild the index"), QMessageBox.ButtonRole.AcceptRole)
    rebuild.setObjectName("rebuild")
    box.addButton(QMessageBox.StandardButton.Cancel)

    def clicked(button) -> None:
        if button is not rebuild:
            return
        try:
            rebuild_index(index_path)
        except (OSError, RuntimeError) as exc:  # IndexError_ is a RuntimeError: a folder that cannot be written
            QMessageBox.warning(window, window.tr("The index could not be rebuilt"), str(exc))
            return
        rebuilt()

    box.buttonClicked.connect(clicked)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
