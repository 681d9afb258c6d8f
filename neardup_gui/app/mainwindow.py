"""The main window: assembles the collection panel, the tab views and the progress panel; runs the work."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from neardup_gui import __version__
from neardup_gui.app import jobs
from neardup_gui.app.appsettings import (
    last_folder,
    load_language,
    load_recent,
    load_settings,
    needs_refingerprint,
    open_store,
    remember_folder,
    remember_recent,
    save_language,
    save_settings,
)
from neardup_gui.app.diffview import DiffInput, DiffView
from neardup_gui.app.errors import ErrorDialog, explain, is_index_problem
from neardup_gui.app.intake import Intake
from neardup_gui.app.i18n import Translations, resolve_language
from neardup_gui.app.models import localise_reason
from neardup_gui.app.paths import display_path, files_tip, index_path_for, sample_folder
from neardup_gui.app.screeningview import open_screenings, run_screening, save_flag
from neardup_gui.app.settingsdialog import SettingsDialog
from neardup_gui.app.submissionview import SubmissionView, load_submission
from neardup_gui.app.tasks import Task, TaskRunner
from neardup_gui.app.welcome import WelcomeView
from neardup_gui.app.widgets import ProgressPanel
from neardup_gui.app.windowlayout import WindowLayout
from neardup_gui.core.dask_connection import ClusterUnavailable
from neardup_gui.core.document import Skipped
from neardup_gui.core.extract import READ_SUFFIXES
from neardup_gui.core.scan import FolderUnavailable, gbk_reading, is_valid_name, shown_name
from neardup_gui.core.results import CheckResult, Cluster, Pair, SourceMatch
from neardup_gui.core.settings import COLLECTION_FIELDS, Settings, collection_values
from neardup_gui.core.screening import ScreeningGone
from neardup_gui.core.store import DocumentGone, IndexProblem

if TYPE_CHECKING:
    from neardup_gui.core.common_passages import CommonPassage
    from neardup_gui.core.screening import Screening, ScreeningInfo, SubmissionDetail

log = logging.getLogger(__name__)


class MainWindow(WindowLayout, Intake, QMainWindow):
    """The examiner's window. Long work runs in the task runner; the GUI thread only shows results."""

    collection_loaded = Signal()
    duplicates_ready = Signal()
    containment_ready = Signal()  # the Duplicates list ranked by containment
    check_ready = Signal()
    screening_ready = Signal()
    submission_opened = Signal(object)  # SubmissionView
    diff_opened = Signal(object)  # DiffView
    task_failed = Signal(str)  # the headline shown

    def __init__(self, translations: Translations | None = None, store: QSettings | None = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.store = store or open_store()
        # the global defaults (new collections start from them) and the open collection's values
        self.defaults: Settings = load_settings(self.store)
        self.settings: Settings = self.defaults
        self.updating = False  # results are being re-derived for changed settings
        self._update_pending = False
        self._update_reason = "settings"  # why the results are re-derived: "settings" or "index"
        self.language_setting = load_language(self.store)
        self.translations = translations or Translations(QApplication.instance())
        self.runner = TaskRunner(self)
        self.main_task: Task | None = None
        self.folder: str | None = None
        self.db_path: str | None = None
        self.check_results: list[CheckResult] = []
        self.pairs: list[Pair] = []
        self.clusters: list[Cluster] = []
        self.diff_views: list[DiffView] = []
        self.submission_views: list[SubmissionView] = []
        self.last_error: tuple[str, str] | None = None
        self.last_report = None  # the IndexReport of the last indexing run
        # the files of the collection's folder that are of no format neardup reads, as the last
        # indexing run of this collection found them (named beside the counts)
        self.other_files: tuple[str, ...] = ()
        self.unread_files: tuple[Skipped, ...] = ()  # files the scan could not read, with their reasons
        self._error_dialogs: list[ErrorDialog] = []
        self._closing = False
        self.setAcceptDrops(True)

        self._build_actions()
        self._build_menus()
        self.welcome = WelcomeView()
        self.welcome.open_folder_requested.connect(self.choose_folder)
        self.welcome.sample_requested.connect(self.open_sample)
        self.welcome.recent_requested.connect(self.open_folder)
        self.workspace = self._build_workspace()
        self.stack = QStackedWidget()
        self.stack.addWidget(self.welcome)
        self.stack.addWidget(self.workspace)
        self.progress_panel = ProgressPanel()
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.progress_panel)
        self.setCentralWidget(central)
        self._refresh_recent(load_recent(self.store))
        self._update_actions()
        self.retranslate_ui()
        self.resize(1280, 800)

    # -- construction ----------------------------------------------------------------------------

    # -- text --------------------------------------------------------------------------------------

    def retranslate_ui(self) -> None:
        self.setWindowTitle(self._title())
        self.file_menu.setTitle(self.tr("&File"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.recent_menu.setTitle(self.tr("Open &recent"))
        self.open_action.setText(self.tr("&Open a folder…"))
        self.open_action.setToolTip(self.tr("Choose a folder of documents to index as a collection"))
        self.sample_action.setText(self.tr("Open the &sample collection"))
        self.check_action.setText(self.tr("&Check files…"))
        self.check_action.setToolTip(self.tr("Check one or more submissions against the collection"))
        self.refresh_action.setText(self.tr("&Refresh the collection"))
        self.export_action.setText(self.tr("&Export a report…"))
        self.export_action.setToolTip(self.tr(
            "Save what the current tab shows (check results, duplicate pairs or clusters) as HTML, PDF, CSV or JSON"))
        self.settings_action.setText(self.tr("&Settings…"))
        self.examiner.retranslate()
        self.quit_action.setText(self.tr("&Quit"))
        self.about_action.setText(self.tr("&About neardup"))
        self.help_action.setText(self.tr("neardup &Help"))
        self.help_action.setToolTip(self.tr("What each figure means, and the keyboard shortcuts (F1)"))
        self.collection_title.setText("<big>" + self.tr("<b>Collection</b>") + "</big>")
        self.refresh_button.setText(self.tr("Refresh"))
        self.refresh_button.setToolTip(self.tr("Pick up new, changed and deleted files (only those are read) (F5)"))
        self.check_button.setText(self.tr("Check files…"))
        self.check_button.setToolTip(self.tr("Check one or more submissions against the collection (Ctrl+K); you can also drop files on the window"))
        self.open_other_button.setText(self.tr("Open another folder…"))
        self.recent_label.setText(self.tr("Recent collections:"))
        self.recent_list.setAccessibleName(self.tr("Recent collections"))
        self.notice_refresh.setText(self.tr("Refresh now"))
        self._say_updating()
        self.tabs.setTabText(0, self.tr("Documents"))
        self.tabs.setTabText(1, self.tr("Check"))
        self.tabs.setTabText(2, self.tr("Duplicates"))
        self.tabs.setTabText(3, self.tr("Clusters"))
        self.tabs.setTabToolTip(0, self.tr("Every file of the collection and its status"))
        self.tabs.setTabToolTip(1, self.tr("Sources found for checked submissions"))
        self.tabs.setTabToolTip(2, self.tr("Pairs of the collection at or above the similarity threshold"))
        self.tabs.setTabToolTip(3, self.tr("Groups of near-duplicates"))
        self.tabs.setTabText(4, self.tr("Common passages"))
        self.tabs.setTabToolTip(4, self.tr("Passages found in many documents: which are left out as template, and why"))
        self.tabs.setTabText(5, self.tr("Screening"))
        self.tabs.setTabToolTip(5, self.tr("A whole call: every new submission checked against the collection and "
                                           "each other, ranked by copied share"))
        for page in (self.documents_page, self.check_page, self.duplicates_page, self.clusters_page, self.common_page,
                     self.screening_page):
            page.retranslate_ui()
        self.progress_panel.retranslate_ui()
        self._update_counts()
        self._update_notice_text()
        if self.runner.is_busy() and self.progress_panel.task is not None:
            self.progress_panel.what.setText(self._task_title(self.progress_panel.task.name))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        elif event.type() == QEvent.Type.ApplicationPaletteChange and not getattr(self, "_restyling", False):
            # a light/dark switch of the desktop: the colours follow the new palette
            from neardup_gui.app.main import apply_style

            self._restyling = True
            try:
                apply_style(QApplication.instance())
            finally:
                self._restyling = False
        super().changeEvent(event)

    def _title(self) -> str:
        if self.folder:
            return self.tr("{name} — neardup").format(name=os.path.basename(self.folder.rstrip(os.sep)) or self.folder)
        return "neardup"

    def _task_title(self, name: str) -> str:
        return {
            "index": self.tr("Indexing"),
            "rebuild": self.tr("Rebuilding the index"),
            "load": self.tr("Opening"),
            "duplicates": self.tr("Finding duplicates"),
            "check": self.tr("Checking"),
            "add": self.tr("Adding to the collection"),
            "update": self.tr("Updating the results"),
            "screen": self.tr("Screening the call"),
            "records": self.tr("Keeping the applicants and decisions"),
        }.get(name, name)

    # -- running work ----------------------------------------------------------------------------

    def is_busy(self) -> bool:
        return self.main_task is not None and self.main_task.is_running()

    def _start(self, name: str, fn: Callable[..., Any], *args: Any, on_done: Callable[[Any], None],
               **kwargs: Any) -> Task | None:
        """Start the one long task; the progress panel follows it."""
        if self._closing:
            return None
        if self.is_busy():
            self.statusBar().showMessage(self.tr("Please wait for the current task to finish, or cancel it."), 5000)
            return None
        task = self.runner.start(name, fn, *args, on_done=on_done, on_error=self._task_error,
                                 on_cancelled=lambda: self._task_cancelled(name), **kwargs)
        self.main_task = task
        self.progress_panel.follow(task, self._task_title(name))
        task.finished.connect(self._update_actions)
        task.finished.connect(self._main_task_finished)
        self._update_actions()
        return task

    def progress_panel_cancel(self) -> None:
        if self.is_busy():
            self.progress_panel.cancel()

    def _task_cancelled(self, name: str) -> None:
        self.statusBar().showMessage(self.tr("Cancelled. Everything finished before cancelling is kept."), 8000)
        if name in ("index", "rebuild") and self.db_path and Path(self.db_path).exists():
            # Show what the index holds now: every document is either complete or absent.
            self._start_load(after_cancel=True)

    def _task_error(self, exc: BaseException, detail: str) -> None:
        if isinstance(exc, FolderUnavailable) and exc.emptied and self.folder and self.db_path:
            self.last_error = (self.tr("The collection's folder holds no documents now."), "")
            self.task_failed.emit(self.last_error[0])
            # asked once the failed task is wound up (its progress panel gone, a new one allowed)
            QTimer.singleShot(0, lambda: self._ask_to_empty(exc))
            return
        if self._rebuilding() and (is_index_problem(exc) or isinstance(exc, (IndexProblem, DocumentGone, ScreeningGone))):
            # a result opened while the index is rebuilt: the file is away or half made for a
            # moment (this is no damage to offer a rebuild for; found by random actions)
            self.last_error = (self.tr("The index is being rebuilt."), self.tr("Try again when it is done."))
            self.task_failed.emit(self.last_error[0])
            self.statusBar().showMessage(" ".join(self.last_error), 8000)
            return
        headline, advice = explain(exc)
        self.last_error = (headline, advice)
        self.task_failed.emit(headline)
        if is_index_problem(exc) and self.folder:
            answer = QMessageBox.question(
                self, self.tr("neardup"),
                f"{headline}\n\n{advice}\n\n{exc}\n\n" + self.tr("Rebuild the index now?"),
            )
            if answer == QMessageBox.StandardButton.Yes:
                self.rebuild()
            return
        said = str(exc)
        if isinstance(exc, FolderUnavailable):
            detail = ""  # (an expected condition, said in full: no traceback to copy)
            said = f"{exc.folder}: {localise_reason(exc.reason)}"  # (the advice says that nothing was changed)
        elif isinstance(exc, ClusterUnavailable):
            detail = ""  # (an expected condition, said in full by the core: no traceback to copy)
        elif isinstance(exc, DocumentGone):
            detail, said = "", ""  # (expected: the headline and advice say it all)
        elif isinstance(exc, ScreeningGone):
            detail, said = "", ""
            # the tab shows the screening as the index holds it now (the same one if it is still there)
            shown = self.screening_page.screening
            QTimer.singleShot(0, lambda: self.open_screening(shown.info.name if shown is not None else None))
        dialog = ErrorDialog(headline, f"{advice}\n\n{said}" if said else advice, detail, self)
        self._error_dialogs.append(dialog)
        dialog.finished.connect(lambda _r, d=dialog: self._error_dialogs.remove(d))
        dialog.open()

    def _rebuilding(self) -> bool:
        return self.main_task is not None and self.main_task.name == "rebuild" and self.main_task.is_running()

    def task_error(self, exc: BaseException, detail: str) -> None:
        """A task of another view (a submission's side by side) failed: said as the window's are."""
        self._task_error(exc, detail)

    def _update_actions(self) -> None:
        busy = self.is_busy()
        has = self.db_path is not None
        for w in (self.refresh_action, self.refresh_button, self.notice_refresh):
            w.setEnabled(has and not busy)
        for w in (self.check_action, self.check_button):
            w.setEnabled(has and not busy)
        self.check_page.set_enabled_actions(
            has and not busy, has and not busy and any(not r.skipped_reason for r in self.check_results))
        self.export_action.setEnabled(has and not busy)
        self.examiner.set_enabled(has and not busy)
        self.screening_page.set_enabled_actions(has and not busy)

    def export_scope(self) -> tuple[str, list[CheckResult] | None]:
        """What "Export a report" saves: the check results on the Check tab, clusters on the
        Clusters tab, otherwise the duplicate pairs."""
        tab = self.tabs.currentWidget()
        if tab is self.check_page and self.check_results:
            return "check", list(self.check_results)
        if tab is self.clusters_page:
            return "clusters", None
        if tab is self.screening_page and self.screening_page.screening is not None:
            info = self.screening_page.screening.info
            return "screening", {"screening": info.name, "folder": info.folder}
        return "pairs", None

    def export_current(self) -> None:
        if not self.db_path:
            return
        from neardup_gui.app.export import export_report

        scope, items = self.export_scope()
        export_report(self, scope, self.db_path, self.settings, items, folder=self.folder or "")

    # -- opening a collection ---------------------------------------------------------------------

    def choose_folder(self) -> None:
        start = last_folder(self.store, "collection", os.path.dirname(self.folder) if self.folder else "")
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose the folder of the collection"), start)
        if folder:
            remember_folder(self.store, "collection", os.path.dirname(folder.rstrip(os.sep)) or folder)
            self.open_folder(folder)

    def open_sample(self) -> None:
        folder = sample_folder()
        if not folder.is_dir():
            QMessageBox.warning(self, self.tr("neardup"), self.tr("The sample collection is missing from this installation."))
            return
        self.open_folder(str(folder))

    def open_folder(self, folder: str) -> None:
        """Open ``folder`` as the collection: load its saved index, or index it the first time."""
        if self.is_busy():
            self.statusBar().showMessage(self.tr("Please wait for the current task to finish, or cancel it."), 5000)
            return
        folder = str(Path(folder).expanduser().resolve())
        if not Path(folder).is_dir():
            QMessageBox.warning(self, self.tr("neardup"),
                                self.tr("The folder {folder} does not exist any more. Choose it again from where it is now.").format(folder=folder))
            return
        if not is_valid_name(folder):  # (before: the index, the recent list and the title could not hold its name)
            gbk = gbk_reading(folder)
            QMessageBox.warning(self, self.tr("neardup"), self.tr(
                "The folder {folder} cannot be opened: its path is not valid UTF-8{gbk}. Rename it, then open it again.").format(
                    folder=shown_name(folder), gbk=(" " + self.tr("(in GBK: '{name}')").format(name=gbk)) if gbk else ""))
            return
        self.folder = folder
        self.db_path = str(index_path_for(folder))
        self.settings = self.defaults  # until the collection's own values are read
        self._update_pending = False
        self._set_updating(False)
        self.check_results = []
        for page in (self.documents_page, self.duplicates_page, self.clusters_page, self.common_page, self.screening_page):
            page.reset()
        self._set_documents(())
        self._set_duplicates((), ())
        self._show_check_results([])
        self._refresh_recent(remember_recent(self.store, folder))
        self.stack.setCurrentWidget(self.workspace)
        self.setWindowTitle(self._title())
        self._set_notice("")
        if Path(self.db_path).exists():
            self._start_load()
        else:
            self._start("index", jobs.index_collection, self.db_path, folder, self.settings, on_done=self._indexed)
        self._update_actions()

    def _start_load(self, after_cancel: bool = False) -> None:
        assert self.db_path and self.folder
        if self._closing:
            return
        self.runner.start("load", jobs.load_collection, self.db_path, self.folder, defaults=self.defaults,
                          on_done=lambda state: self._loaded(state, after_cancel), on_error=self._task_error)

    def refresh(self) -> None:
        """Incremental refresh: only new, changed, moved and deleted files are handled."""
        if self.folder and self.db_path:
            self._start("index", jobs.index_collection, self.db_path, self.folder, self.settings, on_done=self._indexed)

    def _ask_to_empty(self, exc: FolderUnavailable) -> None:
        """The collection's folder holds no documents now: an unmounted share, or all deleted.
        Nothing was changed; the examiner says which (No, the default, keeps the index as it is)."""
        if self._closing:
            return
        answer = QMessageBox.question(
            self, self.tr("neardup"),
            self.tr("The folder {folder} holds no documents now, while this collection's index holds {n}. "
                    "If the folder is on a drive or a network share, connect it and refresh: nothing was "
                    "changed.\n\nWere the documents deleted on purpose? Remove all {n} from the index?").format(
                folder=exc.folder, n=exc.emptied),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        if answer == QMessageBox.StandardButton.Yes:
            self._start("index", jobs.index_collection, self.db_path, self.folder, self.settings, allow_empty=True,
                        on_done=self._indexed)

    def rebuild(self) -> None:
        if self.folder and self.db_path:
            self._start("rebuild", jobs.rebuild_collection, self.db_path, self.folder, self.settings,
                        on_done=self._rebuilt)

    def _rebuilt(self, state: jobs.CollectionState) -> None:
        """A fresh index holds no screening: the Screening tab says so (before, it kept showing the
        old file's, whose report and submissions then failed: "no screening named …")."""
        self._indexed(state)
        if state.db_path == self.db_path:
            self.open_screening(None)

    def _loaded(self, state: jobs.CollectionState, after_cancel: bool) -> None:
        if state.db_path != self.db_path:
            return
        if state.settings is not None:
            self.settings = state.settings
        self.other_files, self.unread_files = state.others, state.unread  # (as the last scan left them)
        self._set_documents(state.documents)
        # after a cancel here, or an indexing that stopped before its end when the index was last
        # written (the program closed or killed): only part of the folder is indexed, and it says so
        self._set_notice("cancelled" if after_cancel else "unfinished" if state.unfinished else "saved")
        self.open_screening(None)
        self.collection_loaded.emit()
        self._find_duplicates()

    def _indexed(self, state: jobs.CollectionState) -> None:
        if state.db_path != self.db_path:
            return
        if state.settings is not None:
            self.settings = state.settings
        report = state.report
        self.last_report = report
        if report is not None:
            self.other_files, self.unread_files = state.others, state.unread
        self._set_documents(state.documents)
        self._set_notice("")
        if report is not None:
            message = self.tr("Indexed: {added} added, {updated} updated, {moved} moved, {removed} removed, "
                              "{unchanged} unchanged, {warned} with warnings, {skipped} skipped ({seconds:.1f} s)").format(
                added=report.added, updated=report.updated, moved=report.moved, removed=report.removed,
                unchanged=report.unchanged, warned=len(report.warned),
                # (the documents skipped, as the counts line says; the files the scan could not
                # read are said apart, as there: before, both were one "skipped" figure here only)
                skipped=sum(1 for d in state.documents if d.status == "skipped"),
                seconds=report.elapsed_s)
            if state.unread:
                message += " " + self.tr("%n file(s) could not be read.", "", len(state.unread))
            if report.reread:
                message += " " + self.tr("%n unchanged file(s) read again: this version reads their format "
                                         "differently.", "", report.reread)
            if report.unread:
                message += " " + self.tr("%n document(s) kept as they were: their folder could not be read.", "",
                                         report.unread)
            self.statusBar().showMessage(message, 15000)
        self.collection_loaded.emit()
        changed = report is not None and (report.added or report.updated or report.moved or report.removed
                                          or report.reread)
        if changed and any(not r.skipped_reason for r in self.check_results):
            # The shown checks were made against the collection as it was: a source removed or
            # changed (indexed again under a new id) stayed listed with its old figures, and its
            # report or side by side could not be made. Checked again with the results, as after
            # a change of settings; a source added is found.
            self.update_results(reason="index")
        else:
            self._find_duplicates()

    def _find_duplicates(self) -> None:
        if self.db_path:
            self._start("duplicates", jobs.find_duplicates, self.db_path, self.settings, on_done=self._duplicates_found)

    def _duplicates_found(self, found: jobs.Duplicates) -> None:
        self._set_documents(found.documents)
        self._set_duplicates(found.pairs, found.clusters)
        self.common_page.set_busy(False)
        self.common_page.set_passages(found.passages, found.rules)
        if self.duplicates_page.by_containment_shown():
            self._find_containment_pairs()
        self.duplicates_ready.emit()

    def _find_containment_pairs(self) -> None:
        """The Duplicates list ranked by containment (a copied part of a longer document), asked for by the examiner."""
        if self.db_path and not self._closing:
            self.runner.start("containment", jobs.containment_pairs, self.db_path, self.settings,
                              on_done=self._containment_pairs_found, on_error=self._task_error)

    def _containment_pairs_found(self, pairs: tuple[Pair, ...]) -> None:
        self.duplicates_page.set_containment_pairs(pairs)
        self.containment_ready.emit()

    def mark_text_as_template(self, text: str) -> None:
        """Text selected in a side-by-side view becomes template (stored; undone in Common passages).
        Whether it holds a whole sentence is found out in the task (tokenizing a selection of a
        whole document is no work for the GUI thread)."""
        if self.db_path:
            self._start("update", jobs.mark_text, self.db_path, text, self._shown_check_paths(), self.settings,
                        on_done=self._marked_text)

    def _marked_text(self, updated: jobs.Updated | None) -> None:
        if updated is None:
            from neardup_gui.core.templates import MIN_SENTENCE_UNITS

            self.statusBar().showMessage(self.tr(
                "Select at least one whole sentence ({n} words or characters) to mark it as template.").format(
                n=MIN_SENTENCE_UNITS), 8000)
            return
        self._results_updated(updated)

    def _shown_check_paths(self) -> list[str]:
        return [r.read_from for r in self.check_results if not r.skipped_reason]

    def act_on_passage(self, passage: CommonPassage, action: str) -> None:
        """Exclude, count or undo a common passage (stored in the index), then derive every result
        again under it."""
        if not self.db_path:
            return
        task = self._start("update", jobs.mark_passage, self.db_path, passage, action, self._shown_check_paths(),
                           self.settings, on_done=self._results_updated)
        if task is not None:
            self.common_page.set_busy(True)
            task.finished.connect(lambda: self.common_page.set_busy(False))

    def _set_notice(self, kind: str) -> None:
        """The notice above the tabs: "" none, "saved" (the saved index, opened as it was),
        "cancelled" (indexing cancelled now), "unfinished" (the last indexing, in an earlier
        session, stopped before its end)."""
        self._notice_kind = kind
        self._update_notice_text()

    def _update_notice_text(self) -> None:
        kind = getattr(self, "_notice_kind", "")
        if kind == "cancelled":
            self.notice.setText(self.tr("Indexing was cancelled: the documents indexed so far are shown. "
                                        "Refresh to continue where it stopped."))
        elif kind == "unfinished":
            self.notice.setText(self.tr("The last indexing of this folder did not finish (it was cancelled, or the "
                                        "program was closed): only the documents indexed until then are shown. "
                                        "Refresh to continue where it stopped."))
        elif kind == "saved":
            self.notice.setText(self.tr("This is the saved index; files may have changed since. "
                                        "Refresh to pick up new, changed and deleted files."))
        self.notice.setVisible(bool(kind))
        self.notice_refresh.setVisible(bool(kind))

    def _refresh_recent(self, folders: Sequence[str]) -> None:
        self.welcome.set_recent(list(folders)) if hasattr(self, "welcome") else None
        self.recent_list.clear()
        self.recent_menu.clear()
        for folder in folders:
            name = os.path.basename(folder.rstrip(os.sep)) or folder
            item = QListWidgetItem(name)
            item.setToolTip(folder)
            item.setData(Qt.ItemDataRole.UserRole, folder)
            self.recent_list.addItem(item)
            act = self.recent_menu.addAction(f"{name}  ({display_path(folder)})")
            act.triggered.connect(lambda _c=False, f=folder: self.open_folder(f))
        self.recent_menu.setEnabled(bool(folders))

    # -- documents, pairs, clusters -----------------------------------------------------------------

    def _set_documents(self, documents: Sequence) -> None:
        self.documents_page.set_documents(documents)
        self._update_counts()

    def _update_counts(self) -> None:
        self.folder_label.setText(display_path(self.folder) if self.folder else "")
        self.folder_label.setToolTip(self.folder or "")
        docs = self.documents_page.records()
        indexed = sum(1 for d in docs if d.status == "indexed")
        warned = sum(1 for d in docs if d.status == "indexed" and d.warnings)
        skipped = sum(1 for d in docs if d.status == "skipped")
        # (intake: "512 indexed, 3 with warnings, 2 skipped"; Qt's plural forms, English's from its .qm)
        counts = self.tr("%n document(s): {indexed} indexed, {warned} with warnings, {skipped} skipped", "",
                         len(docs))
        text = counts.format(indexed=indexed, warned=warned, skipped=skipped) if self.folder else ""
        others = self.other_files if self.folder else ()
        unread = self.unread_files if self.folder else ()
        if unread:  # (files the scan could not read: not in the documents' list, so named here)
            text += self.tr("; %n file(s) could not be read", "", len(unread))
        if others:
            text += self.tr("; %n other file(s) left out (not a format neardup reads)", "", len(others))
        self.counts_label.setText(text)
        tips = [files_tip(self.tr("Could not be read:"),
                          [(p.path, localise_reason(p.reason)) for p in unread], self.folder or "",
                          self.tr("…and {n} more")),
                files_tip(self.tr("Left out: neardup reads {formats} files, and by its content a file named without a "
                                  "type (README, ls.1).").format(formats=" ".join(READ_SUFFIXES)),
                          others, self.folder or "", self.tr("…and {n} more"))]
        self.counts_label.setToolTip("\n\n".join(t for t in tips if t))

    def _set_duplicates(self, pairs: Sequence[Pair], clusters: Sequence[Cluster]) -> None:
        self.pairs = list(pairs)
        self.clusters = list(clusters)
        self.duplicates_page.set_pairs(self.pairs, self.settings.threshold)
        self.clusters_page.set_clusters(self.clusters, self.settings.threshold)

    def export_check_report(self, result: CheckResult) -> None:
        """The committee's report of one checked submission (next to it, in the interface's language)."""
        if self.db_path and not result.skipped_reason:
            from neardup_gui.app.export import export_report

            export_report(self, "check-submission", self.db_path, self.settings, {"result": result})

    # -- screening a call ----------------------------------------------------------------------------

    def screen_folder(self, folder: str, name: str = "", flag: float | None = None) -> None:
        """Screen a folder of new submissions against the collection and each other (resumable)."""
        if not self.db_path:
            QMessageBox.information(self, self.tr("neardup"),
                                    self.tr("Open a collection first (a folder of documents), then screen a call against it."))
            return
        if self.folder and os.path.normpath(os.path.abspath(folder)) == os.path.normpath(self.folder):
            log.info("screening the collection's own folder %s: each file is compared with the others", folder)
        self.tabs.setCurrentWidget(self.screening_tab)
        line = flag if flag is not None else self.screening_page.flag_spin.value() / 100
        # (no name: the folder's, or "name (2)" when a screening of another folder has it)
        self._start("screen", run_screening, self.db_path, folder, name, line, self.settings, on_done=self._screened)

    def _screened(self, found: tuple[list[ScreeningInfo], Screening]) -> None:
        infos, screening = found
        self.screening_page.set_screenings(infos, screening)
        self.screening_ready.emit()

    def open_screening(self, name: str | None) -> None:
        """Show a screening kept in the index (``None``: the latest one)."""
        if self.db_path and not self._closing:
            self.runner.start("screenings", open_screenings, self.db_path, name,
                              on_done=self._screened, on_error=self._task_error)

    def _flag_changed(self, name: str, line: float) -> None:
        if self.db_path and not self._closing and not self.is_busy():
            self.runner.start("flag", save_flag, self.db_path, name, line, on_error=self._task_error)

    def open_submission(self, name: str, rel: str) -> None:
        """The submission's full text coloured by its sources (loaded in the background)."""
        if self.db_path and not self._closing:
            self.runner.start("submission", load_submission, self.db_path, name, rel,
                              on_done=self._show_submission, on_error=self._task_error)

    def _show_submission(self, detail: SubmissionDetail) -> None:
        view = SubmissionView(detail, self.db_path, self.settings, self.runner, self)
        view.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        view.exclusion_changed.connect(lambda name, _rel: self.open_screening(name))
        view.diff_opened.connect(self.diff_opened)
        self.submission_views.append(view)
        view.destroyed.connect(lambda _o=None, v=view: self.submission_views.remove(v) if v in self.submission_views else None)
        view.show()
        self.submission_opened.emit(view)

    # -- side by side --------------------------------------------------------------------------------

    def _source_activated(self, result: CheckResult, match: SourceMatch) -> None:
        if self.db_path and not self._closing:
            self.runner.start("diff", jobs.source_diff, self.db_path, result, match,
                              on_done=self._show_diff, on_error=self._task_error)

    def open_pair_diff(self, doc_a: int, doc_b: int) -> None:
        if self.db_path and not self._closing:
            self.runner.start("diff", jobs.pair_diff, self.db_path, doc_a, doc_b, self.settings,
                              on_done=self._show_diff, on_error=self._task_error)

    def _show_diff(self, diff: DiffInput) -> None:
        view = DiffView(diff, self)
        view.mark_template_requested.connect(self.mark_text_as_template)
        view.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self.diff_views.append(view)
        view.destroyed.connect(lambda _o=None, v=view: self.diff_views.remove(v) if v in self.diff_views else None)
        view.show()
        if view.spans:
            view.go_to_match(0)
        self.diff_opened.emit(view)

    # -- settings and language ---------------------------------------------------------------------

    def open_settings(self) -> None:
        collection = os.path.basename(self.folder.rstrip(os.sep)) if self.folder else None
        dialog = SettingsDialog(self.settings, self.language_setting, self, collection=collection,
                                store=self.store)
        dialog.accepted.connect(lambda: self.apply_settings(dialog.result_settings(), dialog.result_language(),
                                                            as_defaults=dialog.result_as_defaults()))
        dialog.finished.connect(dialog.deleteLater)
        self.settings_dialog = dialog
        dialog.open()

    def apply_settings(self, new: Settings, language: str, as_defaults: bool = False) -> None:
        """Keep the new settings, switch the language live, and redo the work they change.

        The matching and template values belong to the open collection (kept in its index);
        with no collection open, or ``as_defaults``, they also become the defaults for new
        collections. The machine's values (fingerprint size, strategy, workers, the Dask cluster
        and its certificates) are global.
        """
        old = self.settings
        self.settings = new
        if self.db_path is None or as_defaults:
            self.defaults = new
        else:  # (the machine's values are all but the collection's: the cluster's too)
            self.defaults = new.with_(**{name: getattr(self.defaults, name) for name in COLLECTION_FIELDS})
        save_settings(self.store, self.defaults)
        if language != self.language_setting:
            self.language_setting = language
            save_language(self.store, language)
            self.translations.switch(resolve_language(language))
        if not self.db_path:
            return
        if collection_values(old) != collection_values(new) and not self._closing:
            self.runner.start("save-settings", jobs.save_collection_settings, self.db_path, new,
                              on_error=self._task_error)
        if needs_refingerprint(old, new):
            QMessageBox.information(self, self.tr("neardup"),
                                    self.tr("The fingerprints are being rebuilt from the stored texts in the background."))
            self.refresh()
        elif collection_values(old) != collection_values(new) or old.strategy != new.strategy:
            self.update_results()

    def update_results(self, reason: str = "settings") -> None:
        """Re-derive what is shown (pairs, clusters, the checked submissions) under the current
        settings and the collection as it is, showing "updating" meanwhile; waits for a running
        task first. ``reason``: "settings" (changed) or "index" (the collection changed)."""
        if not self.db_path or self._closing:
            return
        self._update_reason = reason
        self._set_updating(True)
        if self.is_busy():
            self._update_pending = True
            return
        self._update_pending = False
        paths = [r.read_from for r in self.check_results if not r.skipped_reason]
        task = self._start("update", jobs.update_results, self.db_path, paths, self.settings,
                           on_done=self._results_updated)
        if task is None:
            self._set_updating(False)

    def after_records_changed(self) -> None:
        """Applicants named or a decision taken: every list follows (documents, pairs, the checked
        submissions, the screening shown; the screenings' figures were made again with them)."""
        shown = self.screening_page.current_name() or None
        self.update_results(reason="records")
        self.open_screening(shown)

    def _results_updated(self, updated: jobs.Updated) -> None:
        if updated.settings != self.settings:  # changed again meanwhile: that update follows
            return
        self._duplicates_found(updated.duplicates)
        if updated.checks:
            current = self.check_page.submission_combo.currentIndex()
            self._show_check_results(list(updated.checks))
            if 0 <= current < len(updated.checks):
                self.check_page.submission_combo.setCurrentIndex(current)
        if self._update_reason == "index":
            self.statusBar().showMessage(self.tr(
                "The checked submissions were compared again with the collection as it is now."), 8000)
        elif self._update_reason == "records":
            self.statusBar().showMessage(self.tr("The results now follow the applicants and decisions."), 8000)
        else:
            self.statusBar().showMessage(self.tr("The results now follow the changed settings."), 8000)

    def _say_updating(self) -> None:
        if self._update_reason == "index":
            self.updating_label.setText(self.tr("Checking the shown submissions again against the changed collection… "
                                                "Their figures are those of the collection before until this finishes."))
        elif self._update_reason == "records":
            self.updating_label.setText(self.tr("Updating the results for the applicants and decisions…"))
        else:
            self.updating_label.setText(self.tr("Updating the results for the changed settings… "
                                                "The figures shown are those of the previous settings until this finishes."))

    def _set_updating(self, on: bool) -> None:
        self._say_updating()
        self.updating = on
        self.updating_label.setVisible(on)
        self.check_page.set_updating(on)

    def _main_task_finished(self) -> None:
        if self._update_pending and not self._closing:
            self.update_results(self._update_reason)
        elif self.updating and not (self.is_busy() and self.main_task.name == "update"):
            self._set_updating(False)  # done, cancelled or failed

    def show_help(self) -> None:
        from neardup_gui.app.helpview import HelpDialog

        dialog = getattr(self, "help_dialog", None)
        if dialog is None:
            dialog = self.help_dialog = HelpDialog(self)
        dialog.show()
        dialog.activateWindow()

    def show_about(self) -> None:
        QMessageBox.about(
            self, self.tr("About neardup"),
            self.tr("<h3>neardup {version}</h3><p>Near-duplicate and plagiarism screening of local "
                    "document collections, in Chinese and English. Similarity is the LCS ratio of "
                    "the two texts with template text left out. No document leaves this computer.</p>").format(
                version=__version__),
        )


    def closeEvent(self, event: QCloseEvent) -> None:
        """Cancel running work and wait for it: every document is written whole or not at all."""
        self._closing = True
        if self.runner.is_busy():
            self.statusBar().showMessage(self.tr("Stopping the running task…"))
            QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
            try:
                self.runner.shutdown()
            finally:
                QApplication.restoreOverrideCursor()
        else:
            self.runner.shutdown()
        for view in list(self.diff_views) + list(self.submission_views):
            view.close()
        self.store.sync()
        super().closeEvent(event)
