"""The main window's actions (with their shortcuts), its menus, toolbar and the lists' context menu, their
texts in the current language, and which actions apply to the selection."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QMenu, QMessageBox, QTableView

from simdesk.core import KEEP_RULES
from simdesk.gui.resources import icon
from simdesk.gui.translations import fill

if TYPE_CHECKING:
    from simdesk.gui.main_window import MainWindow


class WindowMenus(QObject):
    """Builds the window's actions, menus and toolbar, each action calling the window or its collaborators."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self._create_actions()
        self._create_menus()

    def _action(
        self,
        name: str,
        slot: Callable[[], object],
        shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
        pixmap: str = "",
    ) -> QAction:
        a = QAction(self.window)
        a.setObjectName(name)
        a.triggered.connect(lambda _checked=False: slot())  # the slots take no `checked` argument
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        if pixmap:
            a.setIcon(icon(pixmap))
        self.window.addAction(a)  # shortcuts work wherever the focus is in the window
        return a

    def _create_actions(self) -> None:
        w, review, action = self.window, self.window.review_actions, self._action
        K = QKeySequence.StandardKey
        self.act_open = action("open", w.choose_folder, K.Open, "SP_DirOpenIcon")
        self.act_demo = action("demo", w.open_demo, None, "SP_FileDialogInfoView")
        self.act_rescan = action("rescan", w.rescan, K.Refresh, "SP_BrowserReload")
        self.act_cancel = action("cancel", w.cancel_scan, None, "SP_BrowserStop")
        self.act_escape = action("escape", w.escape, "Esc")  # cancels a scan, else clears the chosen groups
        self.act_export_json = action("export_json", partial(review.choose_export, "json"))
        self.act_export_csv = action("export_csv", partial(review.choose_export, "csv"))
        self.act_settings = action("settings", w.edit_settings, K.Preferences)
        self.act_quit = action("quit", w.close, K.Quit)
        self.act_keep = action("keep", review.toggle_keep, "Space")
        self.act_queue = action("queue", review.toggle_queued, K.Delete)
        self.act_keep_rules = {rule: action(f"keep_{rule}", partial(review.keep_by_rule, rule)) for rule in KEEP_RULES}
        self.act_keep_rules_all = {
            rule: action(f"keep_{rule}_everywhere", partial(review.keep_by_rule_everywhere, rule))
            for rule in KEEP_RULES
        }
        self.act_keep_chain = action("keep_chain", review.choose_keep_rules, "Ctrl+K")
        self.act_not_duplicates = action("not_duplicates", w.mark_not_duplicates)
        self.act_trash = action("trash", review.trash_marked, "Shift+Del", "SP_TrashIcon")
        self.act_move = action("move", review.move_marked)
        self.act_undo = action("undo_cleanup", review.undo_last_cleanup)
        self.act_undo_marks = action("undo_marks", review.undo_marks, K.Undo)
        self.act_next_undecided = action("next_undecided", review.next_undecided, "U")
        self.act_open_doc = action("open_document", self.open_document, "Ctrl+Return")
        self.act_reveal = action("reveal", self.reveal_document)
        self.act_copy_path = action("copy_path", self.copy_path, "Ctrl+Shift+C")
        # Right and Left unfold and fold a class of identical copies, in the members list only (as in a tree)
        self.act_expand = action("expand_copies", w.selection.expand_copies, "Right")
        self.act_collapse = action("collapse_copies", w.selection.collapse_copies, "Left")
        for a in (self.act_expand, self.act_collapse):
            w.removeAction(a)
            a.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
            w.members_view.addAction(a)
        self.act_next = action("next_change", w.diff_view.next_change, "N")
        self.act_prev = action("previous_change", w.diff_view.previous_change, "P")
        self.act_filter = action("find", w.filter_edit.setFocus, K.Find)
        self.act_about = action("about", self.about)
        self.act_manual = action("manual", self.show_manual, K.HelpContents)

    def _create_menus(self) -> None:
        bar = self.window.menuBar()
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
        for a in (self.act_keep, self.act_queue, self.act_undo_marks, self.act_next_undecided):
            self.menu_review.addAction(a)
        self.menu_keep_rules = self.menu_review.addMenu("")
        for a in self.act_keep_rules.values():
            self.menu_keep_rules.addAction(a)
        self.menu_keep_rules_all = self.menu_review.addMenu("")
        for a in self.act_keep_rules_all.values():
            self.menu_keep_rules_all.addAction(a)
        self.menu_keep_rules_all.addSeparator()
        self.menu_keep_rules_all.addAction(self.act_keep_chain)
        # the rules' submenu names the groups they will act on as the menu opens
        self.menu_review.aboutToShow.connect(lambda: self.menu_keep_rules_all.setTitle(self.keep_everywhere_title()))
        self.menu_review.addAction(self.act_not_duplicates)
        self.menu_review.addSeparator()
        for a in (self.act_trash, self.act_move, self.act_undo):
            self.menu_review.addAction(a)
        self.menu_document = bar.addMenu("")
        for a in (self.act_open_doc, self.act_reveal, self.act_copy_path):
            self.menu_document.addAction(a)
        self.menu_view = bar.addMenu("")
        for a in (self.act_next, self.act_prev, self.act_filter):
            self.menu_view.addAction(a)
        self.menu_help = bar.addMenu("")
        self.menu_help.addAction(self.act_manual)
        self.menu_help.addAction(self.act_about)
        self.toolbar = self.window.addToolBar("main")
        self.toolbar.setObjectName("toolbar")
        for a in (self.act_open, self.act_rescan, self.act_cancel, self.act_trash):
            self.toolbar.addAction(a)

    def retranslate(self) -> None:
        """Every action's and menu's text, so switching the language in the settings applies at once."""
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
            self.act_expand: self.tr("List the identical copies"),
            self.act_collapse: self.tr("Fold the identical copies"),
            self.act_next: self.tr("&Next change"),
            self.act_prev: self.tr("&Previous change"),
            self.act_filter: self.tr("&Filter by path, title or text"),
            self.act_about: self.tr("&About simdesk"),
            self.act_manual: self.tr("simdesk &manual"),
        }
        for a, text in texts.items():
            a.setText(text)
        self.act_not_duplicates.setToolTip(self.tr("The two selected documents never group together again"))
        self.menu_file.setTitle(self.tr("&File"))
        self.menu_recent.setTitle(self.tr("Open &recent"))
        self.menu_review.setTitle(self.tr("&Review"))
        self.menu_keep_rules.setTitle(self.tr("Keep in this group"))
        self.menu_keep_rules_all.setTitle(self.keep_everywhere_title())
        self.menu_document.setTitle(self.tr("&Document"))
        self.menu_view.setTitle(self.tr("&View"))
        self.menu_help.setTitle(self.tr("&Help"))

    def keep_everywhere_title(self) -> str:
        """The title of the menu of rules over many groups: which groups they will act on (rule_scope), made
        again each time the menu opens."""
        return fill(self.tr("Keep one in %1"), self.window.messages.scope_phrase(self.window.selection.rule_scope()))

    def context_menu(self) -> QMenu:
        """The lists' context menu, built anew for each use from the actions the window owns (its texts are
        the current language's): the Review and Document menus' actions on the selection. Its submenus are
        its own children, never the menu bar's menus, so deleting it when it closes deletes nothing else."""
        menu = QMenu(self.window)
        menu.setObjectName("groups_menu")
        for a in (self.act_keep, self.act_queue, self.act_undo_marks):
            menu.addAction(a)
        submenus: tuple[tuple[str, list[QAction | None]], ...] = (
            (self.menu_keep_rules.title(), [*self.act_keep_rules.values()]),
            (self.keep_everywhere_title(), [*self.act_keep_rules_all.values(), None, self.act_keep_chain]),
        )
        for title, actions in submenus:
            sub = menu.addMenu(title)
            for item in actions:
                sub.addAction(item) if item is not None else sub.addSeparator()
        menu.addAction(self.act_not_duplicates)
        members, row = self.window.members_model, self.window.members_view.currentIndex().row()
        if (top := members.class_row(row)) >= 0:  # the current row is a class of identical copies, or in one
            menu.addAction(self.act_collapse if members.expanded(top) else self.act_expand)
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

    def enable(
        self,
        has_groups: bool,
        has_member: bool,
        has_group: bool,
        has_folder: bool,
        scanning: bool,
        can_undo: bool,
        can_undo_cleanup: bool,
    ) -> None:
        """Enable what applies: to the groups shown, the selected copies, the current group, the folder open,
        the scan under way, the review's last action on the marks (Decisions.can_undo), the last clean-up
        in the action log (ReviewActions.can_undo_cleanup)."""
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
        self.act_rescan.setEnabled(has_folder)
        self.act_cancel.setEnabled(scanning)
        self.act_undo_marks.setEnabled(can_undo)
        self.act_undo.setEnabled(can_undo_cleanup)

    def refresh_recent(self, folders: list[str]) -> None:
        self.menu_recent.clear()
        for folder in folders:
            self.menu_recent.addAction(folder).triggered.connect(partial(self.window.open_folder, folder))

    # -- the Document menu: the selected copy (else the current group's first) on this computer ------------
    def _document(self) -> Path | None:
        selected, group = self.window.selection.selected_members_current_first(), self.window.selection.current_group()
        rel = selected[0].path if selected else (group.members[0].path if group else None)
        return self.window.root / rel if rel and self.window.root else None

    def open_document(self) -> None:
        if (path := self._document()) is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))

    def reveal_document(self) -> None:
        if (path := self._document()) is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(path.parent)))

    def copy_path(self) -> None:
        if (path := self._document()) is not None:
            QGuiApplication.clipboard().setText(str(path))

    # -- the Help menu --------------------------------------------------------------------------------
    def show_manual(self) -> None:
        """The short manual, in the interface's language, in a window of its own (not modal)."""
        from simdesk.gui.manual import ManualDialog

        dialog = self.window.findChild(ManualDialog) or ManualDialog(
            self.window.settings.get("ui/language"), self.window
        )
        dialog.show()
        dialog.raise_()

    def about(self) -> None:
        QMessageBox.about(self.window, self.tr("About simdesk"), self.window.messages.about_text())
