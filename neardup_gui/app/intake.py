"""What comes into the main window: submissions chosen or dropped to be checked, added to the
collection, and a folder dropped to be opened or screened."""

from __future__ import annotations

import os
from typing import Sequence

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QMessageBox

from neardup_gui.app import jobs
from neardup_gui.app.appsettings import last_folder, remember_folder
from neardup_gui.app.models import localise_reason
from neardup_gui.app.paths import display_path, local_file
from neardup_gui.core.extract import DIALOG_PATTERNS
from neardup_gui.core.results import CheckResult, SourceMatch


class Intake:
    """Checking submissions, adding them to the collection, drag and drop (a part of ``MainWindow``:
    ``self`` is the window; its strings keep the MainWindow context of the translations)."""

    # -- checking submissions ---------------------------------------------------------------------

    def choose_files_to_check(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self, QCoreApplication.translate("MainWindow", "Choose submissions to check"), last_folder(self.store, "check", self.folder or ""),
            QCoreApplication.translate("MainWindow", "Documents ({patterns});;All files (*)").format(patterns=DIALOG_PATTERNS))
        if paths:
            remember_folder(self.store, "check", paths[0])
            self.check_files(paths)

    def check_files(self, paths: Sequence[str]) -> None:
        if not self.db_path:
            QMessageBox.information(self, QCoreApplication.translate("MainWindow", "neardup"),
                                    QCoreApplication.translate("MainWindow", "Open a collection first (a folder of documents), then check files against it."))
            return
        self.tabs.setCurrentWidget(self.check_tab)
        self._start("check", jobs.check_files, self.db_path, list(paths), self.settings, on_done=self._checked)

    def _checked(self, results: list[CheckResult]) -> None:
        self._show_check_results(results)
        skipped = [r for r in results if r.skipped_reason]
        if skipped:
            QMessageBox.warning(self, QCoreApplication.translate("MainWindow", "neardup"), QCoreApplication.translate("MainWindow", "Some files could not be read:") + "\n\n" +
                                "\n".join(f"{os.path.basename(r.path)}: {localise_reason(r.skipped_reason)}" for r in skipped))
        self.check_ready.emit()

    def _show_check_results(self, results: list[CheckResult]) -> None:
        self.check_results = list(results)
        self.check_page.set_results(self.check_results)
        self._update_actions()

    def current_check_result(self) -> CheckResult | None:
        return self.check_page.current_result()

    def visible_sources(self) -> list[SourceMatch]:
        """The sources the Check tab shows now, in its order."""
        return self.check_page.visible_sources()

    def add_checked_to_collection(self) -> None:
        """Make the checked submissions members of the collection: copied into its folder, or
        kept where they are as external members (asked), so that a refresh keeps them."""
        paths = [r.read_from for r in self.check_results if not r.skipped_reason]
        if not (paths and self.db_path and self.folder) or self.is_busy():
            return
        unkept = [r.path for r in self.check_results if not r.skipped_reason and r.file]
        if unkept:  # (a name that is not valid UTF-8: checked, but the index cannot keep it)
            QMessageBox.warning(self, QCoreApplication.translate("MainWindow", "Add to collection"), QCoreApplication.translate("MainWindow",
                "These files cannot be added to the collection: their names are not valid UTF-8 (in GBK, "
                "perhaps). Rename them, check them again, then add them.") + "\n\n" + "\n".join(unkept))
            return
        outside = [p for p in paths if os.path.commonpath([self.folder, os.path.abspath(p)]) != self.folder]
        keep, on_clash = "external", "rename"
        if outside:
            keep = self.ask_how_to_add(outside)
            if keep is None:
                return
        if keep == "copy":
            taken = [os.path.basename(p) for p in outside if os.path.exists(os.path.join(self.folder, os.path.basename(p)))]
            if taken:
                on_clash = self.ask_on_clash(taken)
                if on_clash is None:
                    return
        self._start("add", jobs.add_files, self.db_path, self.folder, paths, self.settings, on_done=self._added,
                    keep=keep, on_clash=on_clash)

    def ask_how_to_add(self, outside: Sequence[str]) -> str | None:
        """"copy", "external", or None (cancelled)."""
        return self._ask_adding(QMessageBox.Icon.Question, "addHowBox", QCoreApplication.translate("MainWindow",
            "{n} checked file(s) are outside the collection's folder {folder}.\n\n"
            "Copy them into the folder, or keep them where they are as external members? An external "
            "member stays in the collection when it is refreshed; if you move or delete the file, it "
            "leaves the collection.").format(n=len(outside), folder=display_path(self.folder or "")),
            [("copy", QCoreApplication.translate("MainWindow", "Copy into the folder"), QMessageBox.ButtonRole.AcceptRole),
             ("external", QCoreApplication.translate("MainWindow", "Keep where they are"),
              QMessageBox.ButtonRole.AcceptRole)])

    def ask_on_clash(self, names: Sequence[str]) -> str | None:
        """"rename", "replace", or None (cancelled) for files whose names the folder has already."""
        return self._ask_adding(QMessageBox.Icon.Warning, "addClashBox", QCoreApplication.translate("MainWindow",
            "The collection's folder already has a file named {names}.\n\n"
            "Rename the copy (for example “name (2).docx”), or replace the file in the folder?").format(
            names=", ".join(f"“{n}”" for n in names)),
            [("rename", QCoreApplication.translate("MainWindow", "Rename the copy"), QMessageBox.ButtonRole.AcceptRole),
             ("replace", QCoreApplication.translate("MainWindow", "Replace"), QMessageBox.ButtonRole.DestructiveRole)])

    def _ask_adding(self, icon: QMessageBox.Icon, name: str, text: str,
                    choices: Sequence[tuple[str, str, QMessageBox.ButtonRole]]) -> str | None:
        """A question of "Add to collection": the key of the choice clicked (the first is the
        default), None for Cancel."""
        box = QMessageBox(icon, QCoreApplication.translate("MainWindow", "Add to collection"), text, parent=self)
        box.setObjectName(name)
        buttons = {box.addButton(label, role): key for key, label, role in choices}
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(next(iter(buttons)))
        box.exec()
        return buttons.get(box.clickedButton())

    def _added(self, state: jobs.CollectionState) -> None:
        self._set_documents(state.documents)
        lines = []
        for a in state.added:
            name = os.path.basename(a.source)
            if a.how == "copied":
                lines.append(QCoreApplication.translate("MainWindow", "{name}: copied into the collection's folder as {member}").format(
                    name=name, member=os.path.basename(a.member)))
            elif a.how == "external":
                lines.append(QCoreApplication.translate("MainWindow", "{name}: kept where it is, as an external member ({path})").format(
                    name=name, path=display_path(a.member)))
            else:
                lines.append(QCoreApplication.translate("MainWindow", "{name}: already in the collection's folder").format(name=name))
        self.last_added = lines
        self.statusBar().showMessage(QCoreApplication.translate("MainWindow", "The checked submissions are now part of the collection."), 8000)
        # said in a box that does not block: the pairs are brought up to date meanwhile
        box = QMessageBox(QMessageBox.Icon.Information, QCoreApplication.translate("MainWindow", "Added to the collection"), "\n".join(lines),
                          QMessageBox.StandardButton.Ok, self)
        box.setObjectName("addedBox")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        box.open()
        self.added_box = box
        self._find_duplicates()

    # -- drag and drop -------------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [local_file(u) for u in event.mimeData().urls() if u.isLocalFile()]
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        self.handle_dropped(paths)

    def handle_dropped(self, paths: Sequence[str]) -> None:
        """A single folder opens as the collection; files are checked against the open one."""
        folders = [p for p in paths if os.path.isdir(p)]
        files = [p for p in paths if os.path.isfile(p)]
        if len(folders) == 1 and not files and self.tabs.currentWidget() is self.screening_tab and self.db_path:
            self.screen_folder(folders[0])  # a folder dropped on the Screening tab is a call to screen
        elif len(folders) == 1 and not files:
            self.open_folder(folders[0])
        elif files and not folders:
            self.check_files(files)
        else:
            QMessageBox.information(self, QCoreApplication.translate("MainWindow", "neardup"),
                                    QCoreApplication.translate("MainWindow", "Drop one folder to open it as a collection, or files to check them."))

    # -- closing ---------------------------------------------------------------------------------------
