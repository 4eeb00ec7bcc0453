"""The "Keep by rules" dialog: an ordered chain of criteria (core.KeepChain) and an optional reference folder,
as dupeGuru's Re-Prioritize dialog builds its criteria list. It only builds the chain; the window applies it
(Review.rule_choices, off the GUI thread) to the groups it names."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from simdesk.core import KEEP_RULES, KeepChain
from simdesk.gui.translations import fill

FOLDER = "in:"  # the criterion "in:FOLDER" (core.cleanup.FOLDER_CRITERION)
DATA = Qt.ItemDataRole.UserRole


class KeepRulesDialog(QDialog):
    """Criteria on the left, the chain on the right (first decides, the next breaks its ties), a folder for
    "In folder" and for the reference folder, and what the rule will act on."""

    def __init__(self, folders: Sequence[str], scope: str, chain: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("keep_rules")
        self.setWindowTitle(self.tr("Keep by rules"))
        intro = QLabel(
            self.tr(
                "In each group, the first criterion chooses the copy to keep; each next one "
                "decides between the copies the ones before leave tied."
            ),
            self,
        )
        intro.setWordWrap(True)
        self.criteria = QListWidget(self)
        self.criteria.setObjectName("criteria")
        self.criteria.setAccessibleName(self.tr("Criteria"))
        for rule in (*KEEP_RULES, FOLDER):
            item = QListWidgetItem(self._name(rule), self.criteria)
            item.setData(DATA, rule)
        self.criteria.setCurrentRow(0)
        self.chain_list = QListWidget(self)
        self.chain_list.setObjectName("chain")
        self.chain_list.setAccessibleName(self.tr("Criteria in order"))
        self.add_button = QPushButton(self.tr("Add →"), self)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.up_button = QPushButton(self.tr("Up"), self)
        self.down_button = QPushButton(self.tr("Down"), self)
        self.folder = QComboBox(self)
        self.folder.setObjectName("folder")
        self.folder.setEditable(True)
        self.folder.addItems(list(folders))
        self.folder.setAccessibleName(self.tr("Folder"))
        self.reference = QCheckBox(
            self.tr("Reference folder: keep only a copy under this folder, and leave alone the groups with none there"),
            self,
        )
        self.reference.setObjectName("reference")
        self.scope = QLabel(scope, self)
        self.scope.setObjectName("scope")
        self.command = QLabel(self)
        self.command.setObjectName("command")
        self.command.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        moves = QVBoxLayout()
        for b in (self.add_button, self.remove_button, self.up_button, self.down_button):
            moves.addWidget(b)
        moves.addStretch(1)
        lists = QGridLayout()
        lists.addWidget(QLabel(self.tr("Criteria"), self), 0, 0)
        lists.addWidget(QLabel(self.tr("In this order"), self), 0, 2)
        lists.addWidget(self.criteria, 1, 0)
        lists.addLayout(moves, 1, 1)
        lists.addWidget(self.chain_list, 1, 2)
        folder_row = QHBoxLayout()
        folder_row.addWidget(QLabel(self.tr("Folder:"), self))
        folder_row.addWidget(self.folder, 1)
        col = QVBoxLayout(self)
        col.addWidget(intro)
        col.addLayout(lists)
        col.addLayout(folder_row)
        col.addWidget(self.reference)
        col.addWidget(self.scope)
        col.addWidget(self.command)
        col.addWidget(self.buttons)

        self.add_button.clicked.connect(self.add_current)
        self.criteria.itemDoubleClicked.connect(lambda _item: self.add_current())
        self.remove_button.clicked.connect(self.remove_current)
        self.up_button.clicked.connect(lambda: self.move_current(-1))
        self.down_button.clicked.connect(lambda: self.move_current(1))
        self.reference.toggled.connect(self._changed)
        self.folder.currentTextChanged.connect(self._changed)
        try:
            start = KeepChain.parse(chain).criteria if chain else ()
        except ValueError:  # a remembered chain this version does not know
            start = ()
        for criterion in start:
            self._append(criterion)
        self._changed()

    def _name(self, criterion: str) -> str:
        names = {
            "oldest": self.tr("Oldest (modification time)"),
            "newest": self.tr("Newest (modification time)"),
            "largest": self.tr("Largest"),
            "shortest_path": self.tr("Shortest path"),
            FOLDER: self.tr("In the folder below"),
        }
        if criterion in names:
            return names[criterion]
        return fill(self.tr("In folder %1"), criterion[len(FOLDER) :])

    def _append(self, criterion: str) -> None:
        if any(self.chain_list.item(k).data(DATA) == criterion for k in range(self.chain_list.count())):
            return  # a criterion twice decides nothing more
        item = QListWidgetItem(self._name(criterion), self.chain_list)
        item.setData(DATA, criterion)
        self.chain_list.setCurrentItem(item)

    def add_current(self) -> None:
        """Add the criterion selected on the left at the end of the chain ("In folder" takes the folder)."""
        item = self.criteria.currentItem()
        if item is None:
            return
        criterion = item.data(DATA)
        if criterion == FOLDER:
            folder = self.folder.currentText().strip().strip("/")
            if not folder:
                return
            criterion = FOLDER + folder
        self._append(criterion)
        self._changed()

    def remove_current(self) -> None:
        row = self.chain_list.currentRow()
        if row >= 0:
            self.chain_list.takeItem(row)
            self._changed()

    def move_current(self, step: int) -> None:
        row = self.chain_list.currentRow()
        target = row + step
        if row < 0 or not 0 <= target < self.chain_list.count():
            return
        item = self.chain_list.takeItem(row)
        self.chain_list.insertItem(target, item)
        self.chain_list.setCurrentRow(target)
        self._changed()

    def chain(self) -> KeepChain:
        return KeepChain(tuple(self.chain_list.item(k).data(DATA) for k in range(self.chain_list.count())))

    def reference_folder(self) -> str | None:
        folder = self.folder.currentText().strip().strip("/")
        return folder if self.reference.isChecked() and folder else None

    def _changed(self) -> None:
        chain = self.chain()
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(chain.criteria))
        option = f"--keep {chain}".replace("shortest_path", "shortest-path")
        if (reference := self.reference_folder()) is not None:
            option += f" --keep-in {reference}"
        self.command.setText(fill(self.tr("On the command line: simdesk clean FOLDER %1"), option))
