"""The main window: a collection panel, results (documents, check, duplicates, clusters), progress."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path
from typing import Any, Callable, Sequence

from PySide6.QtCore import QCoreApplication, QEvent, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QStandardItem,
    QStandardItemModel,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSlider,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from neardup_gui import __version__
from neardup_gui.app import jobs
from neardup_gui.app.appsettings import (
    load_language,
    load_recent,
    load_settings,
    needs_refingerprint,
    open_store,
    remember_recent,
    save_language,
    save_settings,
)
from neardup_gui.app.diffview import DiffInput, DiffView
from neardup_gui.app.errors import ErrorDialog, explain, is_index_problem
from neardup_gui.app.i18n import Translations, resolve_language
from neardup_gui.app.models import (
    RECORD_ROLE,
    DocumentsModel,
    FilterProxy,
    PairsModel,
    SourcesModel,
    percent,
    source_score,
)
from neardup_gui.app.paths import display_path, index_path_for, sample_folder
from neardup_gui.app.settingsdialog import SettingsDialog
from neardup_gui.app.tasks import Task, TaskRunner
from neardup_gui.app.welcome import WelcomeView
from neardup_gui.core.results import CheckResult, Cluster, Pair, SourceMatch
from neardup_gui.core.settings import Settings

log = logging.getLogger(__name__)

DOCUMENT_SUFFIXES = {".docx", ".pdf", ".txt", ".odt", ".md", ".rtf", ".doc", ".html", ".htm"}


def format_duration(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _progress_patterns() -> list[tuple[re.Pattern[str], str]]:
    return [
        (re.compile(r"^Indexed (?P<done>\d+) of (?P<total>\d+): (?P<file>.*)$", re.S), QCoreApplication.translate("ProgressMessages", "Indexed {done} of {total}: {file}")),
        (re.compile(r"^Added (?P<done>\d+) of (?P<total>\d+): (?P<file>.*)$", re.S), QCoreApplication.translate("ProgressMessages", "Added {done} of {total}: {file}")),
        (re.compile(r"^Re-fingerprinting (?P<done>\d+) of (?P<total>\d+)$"), QCoreApplication.translate("ProgressMessages", "Re-fingerprinting {done} of {total}")),
        (re.compile(r"^Comparing (?P<done>\d+) of (?P<total>\d+)$"), QCoreApplication.translate("ProgressMessages", "Comparing {done} of {total}")),
        (re.compile(r"^Verifying (?P<done>\d+) of (?P<total>\d+) candidates$"), QCoreApplication.translate("ProgressMessages", "Verifying {done} of {total} candidates")),
        (re.compile(r"^Reading (?P<file>.*)$", re.S), QCoreApplication.translate("ProgressMessages", "Reading {file}")),
        (re.compile(r"^[Ss]canning (?P<file>.*)$", re.S), QCoreApplication.translate("ProgressMessages", "Scanning {file}")),
        (re.compile(r"^found (?P<total>\d+) documents$"), QCoreApplication.translate("ProgressMessages", "Found {total} documents")),
        (re.compile(r"^Indexed (?P<total>\d+) documents \((?P<skipped>\d+) skipped\)$"),
         QCoreApplication.translate("ProgressMessages", "Indexed {total} documents ({skipped} skipped)")),
    ]


def localise_progress(message: str) -> str:
    """The core's progress message in the interface language (core itself never imports Qt)."""
    for pattern, template in _progress_patterns():
        match = pattern.match(message)
        if match:
            return template.format(**match.groupdict())
    return message


def make_table(model_proxy: FilterProxy, name: str, stretch: tuple[int, ...] = (0,)) -> QTableView:
    view = QTableView()
    view.setObjectName(name)
    view.setModel(model_proxy)
    view.setSortingEnabled(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.verticalHeader().setVisible(False)
    view.horizontalHeader().setStretchLastSection(False)
    # Size columns from the first rows only: measuring thousands of rows would stall the GUI.
    view.horizontalHeader().setResizeContentsPrecision(40)
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    for column in stretch:  # the file names take the spare width
        view.horizontalHeader().setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
    view.setTabKeyNavigation(False)
    return view


class ProgressPanel(QWidget):
    """Progress of the running task: bar, current file, elapsed and remaining time, Cancel."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("progressPanel")
        self.task: Task | None = None
        self.what = QLabel()
        self.what.setObjectName("progressWhat")
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setTextVisible(True)
        self.message = QLabel()
        self.message.setObjectName("progressMessage")
        self.message.setMinimumWidth(200)
        self.times = QLabel()
        self.cancel_button = QPushButton()
        self.cancel_button.setObjectName("cancelButton")
        self.cancel_button.clicked.connect(self.cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.what)
        layout.addWidget(self.bar, 2)
        layout.addWidget(self.message, 3)
        layout.addWidget(self.times)
        layout.addWidget(self.cancel_button)
        self._timer = QTimer(self)
        self._timer.setInterval(500)
        self._timer.timeout.connect(self._tick)
        self.setVisible(False)
        self.retranslate_ui()

    def follow(self, task: Task, what: str) -> None:
        self.task = task
        self.what.setText(what)
        self.bar.setValue(0)
        self.message.setText("")
        self.cancel_button.setEnabled(True)
        task.progress.connect(self._progress)
        task.finished.connect(self._finished)
        self._tick()
        self._timer.start()
        self.setVisible(True)

    def cancel(self) -> None:
        if self.task is not None and self.task.is_running():
            self.task.cancel()
            self.cancel_button.setEnabled(False)
            self.message.setText(self.tr("Stopping…"))

    def _progress(self, fraction: float, message: str) -> None:
        self.bar.setValue(int(fraction * 1000))
        if message and not (self.task and self.task.cancel_requested):
            message = localise_progress(message)
            metrics = self.message.fontMetrics()
            self.message.setText(metrics.elidedText(message, Qt.TextElideMode.ElideMiddle, max(200, self.message.width())))
            self.message.setToolTip(message)

    def _tick(self) -> None:
        if self.task is None:
            return
        remaining = self.task.remaining_s()
        text = self.tr("Elapsed {elapsed}").format(elapsed=format_duration(self.task.elapsed_s()))
        if remaining is not None:
            text += "  ·  " + self.tr("about {remaining} left").format(remaining=format_duration(remaining))
        self.times.setText(text)

    def _finished(self) -> None:
        self._timer.stop()
        self.task = None
        self.setVisible(False)

    def retranslate_ui(self) -> None:
        self.cancel_button.setText(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop the running task; everything done so far is kept (Esc)"))
        self.bar.setAccessibleName(self.tr("Progress"))
        self._tick()


class MainWindow(QMainWindow):
    """The examiner's window. Long work runs in the task runner; the GUI thread only shows results."""

    collection_loaded = Signal()
    duplicates_ready = Signal()
    check_ready = Signal()
    diff_opened = Signal(object)  # DiffView
    task_failed = Signal(str)  # the headline shown

    def __init__(self, translations: Translations | None = None, store: QSettings | None = None) -> None:
        super().__init__()
        self.setObjectName("mainWindow")
        self.store = store or open_store()
        self.settings: Settings = load_settings(self.store)
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
        self.last_error: tuple[str, str] | None = None
        self.last_report = None  # the IndexReport of the last indexing run
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

    def _build_actions(self) -> None:
        def action(shortcut: QKeySequence | str | None, slot: Callable[[], Any]) -> QAction:
            a = QAction(self)
            if shortcut is not None:
                a.setShortcut(QKeySequence(shortcut))
            a.triggered.connect(lambda _checked=False: slot())
            return a

        self.open_action = action(QKeySequence.StandardKey.Open, self.choose_folder)
        self.sample_action = action(None, self.open_sample)
        self.check_action = action("Ctrl+K", self.choose_files_to_check)
        self.refresh_action = action(QKeySequence.StandardKey.Refresh, self.refresh)
        self.export_action = action("Ctrl+E", self.export_current)
        self.settings_action = action("Ctrl+,", self.open_settings)
        self.quit_action = action(QKeySequence.StandardKey.Quit, self.close)
        self.about_action = action(None, self.show_about)
        self.cancel_action = action("Esc", self.progress_panel_cancel)

    def _build_menus(self) -> None:
        self.file_menu = self.menuBar().addMenu("")
        self.file_menu.addAction(self.open_action)
        self.recent_menu = QMenu(self)
        self.file_menu.addMenu(self.recent_menu)
        self.file_menu.addAction(self.sample_action)
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.check_action)
        self.file_menu.addAction(self.refresh_action)
        self.file_menu.addAction(self.export_action)
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.settings_action)
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.quit_action)
        self.help_menu = self.menuBar().addMenu("")
        self.help_menu.addAction(self.about_action)
        self.addAction(self.cancel_action)

    def _build_workspace(self) -> QWidget:
        # Collection panel
        panel = QWidget()
        panel.setObjectName("collectionPanel")
        panel.setMinimumWidth(230)
        panel.setMaximumWidth(360)
        self.collection_title = QLabel()
        self.collection_title.setObjectName("collectionTitle")
        self.folder_label = QLabel()
        self.folder_label.setObjectName("folderLabel")
        self.folder_label.setWordWrap(True)
        self.folder_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.counts_label = QLabel()
        self.counts_label.setObjectName("countsLabel")
        self.counts_label.setWordWrap(True)
        self.refresh_button = QPushButton()
        self.refresh_button.clicked.connect(self.refresh)
        self.check_button = QPushButton()
        self.check_button.clicked.connect(self.choose_files_to_check)
        self.open_other_button = QPushButton()
        self.open_other_button.clicked.connect(self.choose_folder)
        self.recent_label = QLabel()
        self.recent_list = QListWidget()
        self.recent_list.setObjectName("recentList")
        self.recent_list.itemActivated.connect(lambda item: self.open_folder(item.data(Qt.ItemDataRole.UserRole)))
        self.recent_label.setBuddy(self.recent_list)
        p = QVBoxLayout(panel)
        p.addWidget(self.collection_title)
        p.addWidget(self.folder_label)
        p.addWidget(self.counts_label)
        p.addWidget(self.refresh_button)
        p.addWidget(self.check_button)
        p.addWidget(self.open_other_button)
        p.addSpacing(12)
        p.addWidget(self.recent_label)
        p.addWidget(self.recent_list, 1)

        # Notice shown after loading a saved index: it may be out of date.
        self.notice = QLabel()
        self.notice.setObjectName("notice")
        self.notice.setWordWrap(True)
        self.notice.setVisible(False)
        self.notice_refresh = QPushButton()
        self.notice_refresh.clicked.connect(self.refresh)
        self.notice_refresh.setVisible(False)
        notice_row = QHBoxLayout()
        notice_row.addWidget(self.notice, 1)
        notice_row.addWidget(self.notice_refresh)

        # Documents tab
        self.documents_model = DocumentsModel(self)
        self.documents_proxy = FilterProxy(parent=self)
        self.documents_proxy.setSourceModel(self.documents_model)
        self.documents_view = make_table(self.documents_proxy, "documentsView")
        self.documents_view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.documents_filter = QLineEdit()
        self.documents_filter.setClearButtonEnabled(True)
        self.documents_filter.textChanged.connect(self.documents_proxy.set_text)
        documents_tab = QWidget()
        d = QVBoxLayout(documents_tab)
        d.addWidget(self.documents_filter)
        d.addWidget(self.documents_view, 1)

        # Check tab
        self.submission_label = QLabel()
        self.submission_combo = QComboBox()
        self.submission_combo.setMinimumContentsLength(30)
        self.submission_combo.currentIndexChanged.connect(self._show_check_result)
        self.submission_label.setBuddy(self.submission_combo)
        self.check_here_button = QPushButton()
        self.check_here_button.clicked.connect(self.choose_files_to_check)
        self.add_button = QPushButton()
        self.add_button.setObjectName("addToCollectionButton")
        self.add_button.clicked.connect(self.add_checked_to_collection)
        self.summary_label = QLabel()
        self.summary_label.setObjectName("checkSummary")
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.threshold_label = QLabel()
        self.threshold_slider = QSlider(Qt.Orientation.Horizontal)
        self.threshold_slider.setRange(0, 100)
        self.threshold_spin = QSpinBox()
        self.threshold_spin.setRange(0, 100)
        self.threshold_spin.setSuffix(" %")
        self.threshold_label.setBuddy(self.threshold_spin)
        self.threshold_slider.valueChanged.connect(self.threshold_spin.setValue)
        self.threshold_spin.valueChanged.connect(self.threshold_slider.setValue)
        self.threshold_spin.valueChanged.connect(self._check_threshold_changed)
        self.sources_model = SourcesModel(self)
        self.sources_proxy = FilterProxy(score=source_score, parent=self)
        self.sources_proxy.setSourceModel(self.sources_model)
        self.sources_view = make_table(self.sources_proxy, "sourcesView")
        self.sources_view.sortByColumn(2, Qt.SortOrder.DescendingOrder)
        self.sources_view.activated.connect(self._source_activated)
        self.check_empty = QLabel()
        self.check_empty.setObjectName("emptyHint")
        self.check_empty.setWordWrap(True)
        self.check_empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        check_tab = QWidget()
        c = QVBoxLayout(check_tab)
        row = QHBoxLayout()
        row.addWidget(self.submission_label)
        row.addWidget(self.submission_combo, 1)
        row.addWidget(self.check_here_button)
        row.addWidget(self.add_button)
        c.addLayout(row)
        c.addWidget(self.summary_label)
        trow = QHBoxLayout()
        trow.addWidget(self.threshold_label)
        trow.addWidget(self.threshold_slider, 1)
        trow.addWidget(self.threshold_spin)
        c.addLayout(trow)
        c.addWidget(self.check_empty)
        c.addWidget(self.sources_view, 1)
        self.threshold_spin.setValue(int(self.store.value("check/minimum", 10)))

        # Duplicates tab
        self.pairs_model = PairsModel(self)
        self.pairs_proxy = FilterProxy(parent=self)
        self.pairs_proxy.setSourceModel(self.pairs_model)
        self.pairs_view = make_table(self.pairs_proxy, "pairsView", stretch=(1, 2))
        self.pairs_view.sortByColumn(0, Qt.SortOrder.DescendingOrder)
        self.pairs_view.activated.connect(self._pair_activated)
        self.pairs_filter = QLineEdit()
        self.pairs_filter.setClearButtonEnabled(True)
        self.pairs_filter.textChanged.connect(self.pairs_proxy.set_text)
        self.pairs_summary = QLabel()
        pairs_tab = QWidget()
        pl = QVBoxLayout(pairs_tab)
        prow = QHBoxLayout()
        prow.addWidget(self.pairs_summary, 1)
        prow.addWidget(self.pairs_filter, 1)
        pl.addLayout(prow)
        pl.addWidget(self.pairs_view, 1)

        # Clusters tab
        self.clusters_model = QStandardItemModel(self)
        self.clusters_view = QTreeView()
        self.clusters_view.setObjectName("clustersView")
        self.clusters_view.setModel(self.clusters_model)
        self.clusters_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.clusters_view.setAlternatingRowColors(True)
        self.clusters_view.activated.connect(self._cluster_activated)
        clusters_tab = QWidget()
        cl = QVBoxLayout(clusters_tab)
        cl.addWidget(self.clusters_view, 1)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("resultTabs")
        self.documents_tab, self.check_tab, self.pairs_tab, self.clusters_tab = (
            documents_tab, check_tab, pairs_tab, clusters_tab)
        self.tabs.addTab(documents_tab, "")
        self.tabs.addTab(check_tab, "")
        self.tabs.addTab(pairs_tab, "")
        self.tabs.addTab(clusters_tab, "")

        right = QWidget()
        r = QVBoxLayout(right)
        r.setContentsMargins(0, 0, 0, 0)
        r.addLayout(notice_row)
        r.addWidget(self.tabs, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(panel)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([270, 1000])
        splitter.setChildrenCollapsible(False)
        return splitter

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
        self.quit_action.setText(self.tr("&Quit"))
        self.about_action.setText(self.tr("&About neardup"))
        self.collection_title.setText(self.tr("<b>Collection</b>"))
        self.refresh_button.setText(self.tr("Refresh"))
        self.refresh_button.setToolTip(self.tr("Pick up new, changed and deleted files (only those are read) (F5)"))
        self.check_button.setText(self.tr("Check a file…"))
        self.check_button.setToolTip(self.tr("Check one or more submissions against the collection (Ctrl+K); you can also drop files on the window"))
        self.open_other_button.setText(self.tr("Open another folder…"))
        self.recent_label.setText(self.tr("Recent collections:"))
        self.recent_list.setAccessibleName(self.tr("Recent collections"))
        self.notice_refresh.setText(self.tr("Refresh now"))
        self.tabs.setTabText(0, self.tr("Documents"))
        self.tabs.setTabText(1, self.tr("Check"))
        self.tabs.setTabText(2, self.tr("Duplicates"))
        self.tabs.setTabText(3, self.tr("Clusters"))
        self.tabs.setTabToolTip(0, self.tr("Every file of the collection and its status"))
        self.tabs.setTabToolTip(1, self.tr("Sources found for checked submissions"))
        self.tabs.setTabToolTip(2, self.tr("Pairs of the collection at or above the similarity threshold"))
        self.tabs.setTabToolTip(3, self.tr("Groups of near-duplicates"))
        self.documents_filter.setPlaceholderText(self.tr("Filter documents…"))
        self.documents_filter.setAccessibleName(self.tr("Filter documents"))
        self.documents_view.setAccessibleName(self.tr("Documents"))
        self.pairs_filter.setPlaceholderText(self.tr("Filter pairs…"))
        self.pairs_filter.setAccessibleName(self.tr("Filter pairs"))
        self.pairs_view.setAccessibleName(self.tr("Duplicate pairs"))
        self.pairs_view.setToolTip(self.tr("Double-click or press Enter to compare side by side"))
        self.sources_view.setAccessibleName(self.tr("Sources"))
        self.sources_view.setToolTip(self.tr("Double-click or press Enter to compare side by side"))
        self.clusters_view.setAccessibleName(self.tr("Clusters"))
        self.clusters_view.setToolTip(self.tr("Double-click a member or press Enter to compare it with the representative"))
        self.submission_label.setText(self.tr("Submission:"))
        self.submission_combo.setAccessibleName(self.tr("Checked submission"))
        self.check_here_button.setText(self.tr("Check a file…"))
        self.add_button.setText(self.tr("Add to collection"))
        self.add_button.setToolTip(self.tr("Index the checked submissions as part of the collection"))
        self.threshold_label.setText(self.tr("Show sources from:"))
        tip = self.tr("Hide sources whose similarity and containment are both below this value")
        for w in (self.threshold_label, self.threshold_slider, self.threshold_spin):
            w.setToolTip(tip)
        self.threshold_slider.setAccessibleName(self.tr("Minimum score shown"))
        self.threshold_spin.setAccessibleName(self.tr("Minimum score shown"))
        self.check_empty.setText(self.tr("Drop one or more files anywhere on this window, or use “Check a file…”, "
                                         "to check a submission against the collection."))
        for model in (self.documents_model, self.sources_model, self.pairs_model):
            model.retranslate()
        self._fill_clusters()
        self._update_counts()
        self._update_pairs_summary()
        self._show_check_result()
        self._update_notice_text()
        if self.runner.is_busy() and self.progress_panel.task is not None:
            self.progress_panel.what.setText(self._task_title(self.progress_panel.task.name))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
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
        }.get(name, name)

    # -- running work ----------------------------------------------------------------------------

    def is_busy(self) -> bool:
        return self.main_task is not None and self.main_task.is_running()

    def _start(self, name: str, fn: Callable[..., Any], *args: Any, on_done: Callable[[Any], None]) -> Task | None:
        """Start the one long task; the progress panel follows it."""
        if self._closing:
            return None
        if self.is_busy():
            self.statusBar().showMessage(self.tr("Please wait for the current task to finish, or cancel it."), 5000)
            return None
        task = self.runner.start(name, fn, *args, on_done=on_done, on_error=self._task_error,
                                 on_cancelled=lambda: self._task_cancelled(name))
        self.main_task = task
        self.progress_panel.follow(task, self._task_title(name))
        task.finished.connect(self._update_actions)
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
        dialog = ErrorDialog(headline, f"{advice}\n\n{exc}" if str(exc) else advice, detail, self)
        self._error_dialogs.append(dialog)
        dialog.finished.connect(lambda _r, d=dialog: self._error_dialogs.remove(d))
        dialog.open()

    def _update_actions(self) -> None:
        busy = self.is_busy()
        has = self.db_path is not None
        for w in (self.refresh_action, self.refresh_button, self.notice_refresh):
            w.setEnabled(has and not busy)
        for w in (self.check_action, self.check_button, self.check_here_button):
            w.setEnabled(has and not busy)
        self.add_button.setEnabled(has and not busy and any(not r.skipped_reason for r in self.check_results))
        self.export_action.setEnabled(has and not busy)

    def export_scope(self) -> tuple[str, list[CheckResult] | None]:
        """What "Export a report" saves: the check results on the Check tab, clusters on the
        Clusters tab, otherwise the duplicate pairs."""
        tab = self.tabs.currentIndex()
        if tab == 1 and self.check_results:
            return "check", list(self.check_results)
        if tab == 3:
            return "clusters", None
        return "pairs", None

    def export_current(self) -> None:
        if not self.db_path:
            return
        from neardup_gui.app.export import export_report

        scope, items = self.export_scope()
        export_report(self, scope, self.db_path, self.settings, items)

    # -- opening a collection ---------------------------------------------------------------------

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose the folder of the collection"))
        if folder:
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
        self.folder = folder
        self.db_path = str(index_path_for(folder))
        self.check_results = []
        self._set_documents(())
        self._set_duplicates((), ())
        self._show_check_results([])
        self._refresh_recent(remember_recent(self.store, folder))
        self.stack.setCurrentWidget(self.workspace)
        self.setWindowTitle(self._title())
        self._loaded_from_saved = False
        self._update_notice_text()
        if Path(self.db_path).exists():
            self._start_load()
        else:
            self._start("index", jobs.index_collection, self.db_path, folder, self.settings, on_done=self._indexed)
        self._update_actions()

    def _start_load(self, after_cancel: bool = False) -> None:
        assert self.db_path and self.folder
        if self._closing:
            return
        self.runner.start("load", jobs.load_collection, self.db_path, self.folder,
                          on_done=lambda state: self._loaded(state, after_cancel), on_error=self._task_error)

    def refresh(self) -> None:
        """Incremental refresh: only new, changed, moved and deleted files are handled."""
        if self.folder and self.db_path:
            self._start("index", jobs.index_collection, self.db_path, self.folder, self.settings, on_done=self._indexed)

    def rebuild(self) -> None:
        if self.folder and self.db_path:
            self._start("rebuild", jobs.rebuild_collection, self.db_path, self.folder, self.settings, on_done=self._indexed)

    def _loaded(self, state: jobs.CollectionState, after_cancel: bool) -> None:
        if state.db_path != self.db_path:
            return
        self._set_documents(state.documents)
        self._loaded_from_saved = not after_cancel
        self._update_notice_text(partial=after_cancel)
        self.collection_loaded.emit()
        self._find_duplicates()

    def _indexed(self, state: jobs.CollectionState) -> None:
        if state.db_path != self.db_path:
            return
        self._loaded_from_saved = False
        self._set_documents(state.documents)
        self._update_notice_text()
        report = state.report
        self.last_report = report
        if report is not None:
            self.statusBar().showMessage(
                self.tr("Indexed: {added} added, {updated} updated, {moved} moved, {removed} removed, "
                        "{unchanged} unchanged, {skipped} skipped ({seconds:.1f} s)").format(
                    added=report.added, updated=report.updated, moved=report.moved, removed=report.removed,
                    unchanged=report.unchanged, skipped=len(report.skipped), seconds=report.elapsed_s),
                15000,
            )
        self.collection_loaded.emit()
        self._find_duplicates()

    def _find_duplicates(self) -> None:
        if self.db_path:
            self._start("duplicates", jobs.find_duplicates, self.db_path, self.settings, on_done=self._duplicates_found)

    def _duplicates_found(self, found: jobs.Duplicates) -> None:
        self._set_documents(found.documents)
        self._set_duplicates(found.pairs, found.clusters)
        self.duplicates_ready.emit()

    def _update_notice_text(self, partial: bool = False) -> None:
        saved = getattr(self, "_loaded_from_saved", False)
        if partial:
            self.notice.setText(self.tr("Indexing was cancelled: the documents indexed so far are shown. "
                                        "Refresh to continue where it stopped."))
        elif saved:
            self.notice.setText(self.tr("This is the saved index; files may have changed since. "
                                        "Refresh to pick up new, changed and deleted files."))
        self.notice.setVisible(partial or saved)
        self.notice_refresh.setVisible(partial or saved)

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
        first = self.documents_model.rowCount() == 0
        self.documents_model.set_records(documents)
        if first and documents:  # size the columns once, not on every refresh
            self.documents_view.resizeColumnsToContents()
        self._update_counts()

    def _update_counts(self) -> None:
        self.folder_label.setText(display_path(self.folder) if self.folder else "")
        self.folder_label.setToolTip(self.folder or "")
        docs = self.documents_model.records()
        indexed = sum(1 for d in docs if d.status == "indexed")
        skipped = sum(1 for d in docs if d.status == "skipped")
        self.counts_label.setText(
            self.tr("{total} documents: {indexed} indexed, {skipped} skipped").format(
                total=len(docs), indexed=indexed, skipped=skipped) if self.folder else ""
        )

    def _set_duplicates(self, pairs: Sequence[Pair], clusters: Sequence[Cluster]) -> None:
        self.pairs = list(pairs)
        self.clusters = list(clusters)
        self.pairs_model.set_records(self.pairs)
        self.pairs_view.resizeColumnsToContents()
        self._update_pairs_summary()
        self._fill_clusters()

    def _update_pairs_summary(self) -> None:
        self.pairs_summary.setText(
            self.tr("{n} pairs with similarity of at least {threshold}").format(
                n=len(self.pairs), threshold=percent(self.settings.threshold))
        )

    def _fill_clusters(self) -> None:
        model = self.clusters_model
        model.clear()
        model.setHorizontalHeaderLabels([self.tr("Cluster / document"), self.tr("Similarity to representative")])
        for i, cluster in enumerate(self.clusters, 1):
            rep = cluster.representative
            top = QStandardItem(self.tr("Cluster {i}: {n} documents, around {name}").format(
                i=i, n=len(cluster.members), name=rep.rel or rep.path))
            top.setData(("cluster", i - 1), RECORD_ROLE)
            blank = QStandardItem("")
            for member, sim in zip(cluster.members, cluster.similarities or (1.0,) * len(cluster.members)):
                name = QStandardItem(member.rel or member.path)
                name.setToolTip(member.path)
                name.setData(("member", i - 1, member.doc_id), RECORD_ROLE)
                score = QStandardItem(self.tr("representative") if member.doc_id == rep.doc_id else percent(sim))
                score.setData(("member", i - 1, member.doc_id), RECORD_ROLE)
                top.appendRow([name, score])
            model.appendRow([top, blank])
        self.clusters_view.expandAll()
        self.clusters_view.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)

    # -- checking submissions ---------------------------------------------------------------------

    def choose_files_to_check(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Choose submissions to check"), "",
            self.tr("Documents (*.docx *.pdf *.txt *.odt *.md *.html);;All files (*)"))
        if paths:
            self.check_files(paths)

    def check_files(self, paths: Sequence[str]) -> None:
        if not self.db_path:
            QMessageBox.information(self, self.tr("neardup"),
                                    self.tr("Open a collection first (a folder of documents), then check files against it."))
            return
        self.tabs.setCurrentWidget(self.check_tab)
        self._start("check", jobs.check_files, self.db_path, list(paths), self.settings, on_done=self._checked)

    def _checked(self, results: list[CheckResult]) -> None:
        self._show_check_results(results)
        skipped = [r for r in results if r.skipped_reason]
        if skipped:
            QMessageBox.warning(self, self.tr("neardup"), self.tr("Some files could not be read:") + "\n\n" +
                                "\n".join(f"{os.path.basename(r.path)}: {r.skipped_reason}" for r in skipped))
        self.check_ready.emit()

    def _show_check_results(self, results: list[CheckResult]) -> None:
        self.check_results = list(results)
        self.submission_combo.blockSignals(True)
        self.submission_combo.clear()
        for r in results:
            self.submission_combo.addItem(os.path.basename(r.path), r.path)
        self.submission_combo.blockSignals(False)
        self.submission_combo.setCurrentIndex(0 if results else -1)
        self._show_check_result()
        self._update_actions()

    def current_check_result(self) -> CheckResult | None:
        i = self.submission_combo.currentIndex()
        return self.check_results[i] if 0 <= i < len(self.check_results) else None

    def _show_check_result(self, *_args: Any) -> None:
        result = self.current_check_result()
        has = result is not None
        self.check_empty.setVisible(not has)
        self.sources_view.setVisible(has)
        self.submission_combo.setVisible(has)
        self.submission_label.setVisible(has)
        if result is None:
            self.sources_model.set_records([])
            self.summary_label.setText("")
            return
        self.sources_model.set_records(result.matches)
        self.sources_view.resizeColumnsToContents()
        if result.skipped_reason:
            self.summary_label.setText(self.tr("This file could not be read: {reason}").format(reason=result.skipped_reason))
            return
        s = result.summary
        largest = os.path.basename(s.largest_source) if s.largest_source else self.tr("none")
        self.summary_label.setText(
            self.tr("<b>Copied: {copied}</b> of {units} units &nbsp;·&nbsp; without quotations {nq} &nbsp;·&nbsp; "
                    "without template {nt} &nbsp;·&nbsp; largest single source {largest_ratio} ({largest}) "
                    "&nbsp;·&nbsp; template {template} &nbsp;·&nbsp; quoted {quoted} &nbsp;·&nbsp; {n} sources found").format(
                copied=percent(s.copied_ratio), units=result.units, nq=percent(s.copied_ratio_without_quotes),
                nt=percent(s.copied_ratio_without_template), largest_ratio=percent(s.largest_source_ratio),
                largest=largest, template=percent(s.template_share), quoted=percent(s.quoted_share),
                n=len(result.matches))
        )

    def _check_threshold_changed(self, value: int) -> None:
        self.sources_proxy.set_minimum(value / 100.0)
        self.store.setValue("check/minimum", value)

    def visible_sources(self) -> list[SourceMatch]:
        """The sources the table shows now, in its order."""
        return [self.sources_proxy.record_at(self.sources_proxy.index(r, 0)) for r in range(self.sources_proxy.rowCount())]

    def add_checked_to_collection(self) -> None:
        paths = [r.path for r in self.check_results if not r.skipped_reason]
        if paths and self.db_path and self.folder:
            self._start("add", jobs.add_files, self.db_path, self.folder, paths, self.settings, on_done=self._added)

    def _added(self, state: jobs.CollectionState) -> None:
        self._set_documents(state.documents)
        self.statusBar().showMessage(self.tr("The checked submissions are now part of the collection."), 8000)
        self._find_duplicates()

    # -- side by side --------------------------------------------------------------------------------

    def _pair_activated(self, index) -> None:
        pair = self.pairs_proxy.record_at(index)
        if pair is not None:
            self.open_pair_diff(pair.a.doc_id, pair.b.doc_id)

    def _source_activated(self, index) -> None:
        match = self.sources_proxy.record_at(index)
        result = self.current_check_result()
        if match is not None and result is not None and self.db_path and not self._closing:
            self.runner.start("diff", jobs.source_diff, self.db_path, result, match,
                              on_done=self._show_diff, on_error=self._task_error)

    def _cluster_activated(self, index) -> None:
        data = index.data(RECORD_ROLE)
        if not data or data[0] != "member":
            return
        cluster = self.clusters[data[1]]
        if data[2] != cluster.representative.doc_id:
            self.open_pair_diff(cluster.representative.doc_id, data[2])

    def open_pair_diff(self, doc_a: int, doc_b: int) -> None:
        if self.db_path and not self._closing:
            self.runner.start("diff", jobs.pair_diff, self.db_path, doc_a, doc_b, self.settings,
                              on_done=self._show_diff, on_error=self._task_error)

    def _show_diff(self, diff: DiffInput) -> None:
        view = DiffView(diff, self)
        view.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self.diff_views.append(view)
        view.destroyed.connect(lambda _o=None, v=view: self.diff_views.remove(v) if v in self.diff_views else None)
        view.show()
        if view.spans:
            view.go_to_match(0)
        self.diff_opened.emit(view)

    # -- settings and language ---------------------------------------------------------------------

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self.language_setting, self)
        dialog.accepted.connect(lambda: self.apply_settings(dialog.result_settings(), dialog.result_language()))
        dialog.finished.connect(dialog.deleteLater)
        self.settings_dialog = dialog
        dialog.open()

    def apply_settings(self, new: Settings, language: str) -> None:
        """Keep the new settings, switch the language live, and redo the work they change."""
        old = self.settings
        self.settings = new
        save_settings(self.store, new)
        if language != self.language_setting:
            self.language_setting = language
            save_language(self.store, language)
            self.translations.switch(resolve_language(language))
        if not self.db_path:
            return
        if needs_refingerprint(old, new):
            QMessageBox.information(self, self.tr("neardup"),
                                    self.tr("The fingerprints are being rebuilt from the stored texts in the background."))
            self.refresh()
        elif (old.threshold, old.min_run, old.template_min_docs, old.template_min_share, old.template_files,
              old.exclude_quotes, old.exclude_bibliography) != (
                new.threshold, new.min_run, new.template_min_docs, new.template_min_share, new.template_files,
                new.exclude_quotes, new.exclude_bibliography):
            self._find_duplicates()

    def show_about(self) -> None:
        QMessageBox.about(
            self, self.tr("About neardup"),
            self.tr("<h3>neardup {version}</h3><p>Near-duplicate and plagiarism screening of local "
                    "document collections, in Chinese and English. Similarity is the LCS ratio of "
                    "the two texts with template text left out. No document leaves this computer.</p>").format(
                version=__version__),
        )

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
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        self.handle_dropped(paths)

    def handle_dropped(self, paths: Sequence[str]) -> None:
        """A single folder opens as the collection; files are checked against the open one."""
        folders = [p for p in paths if os.path.isdir(p)]
        files = [p for p in paths if os.path.isfile(p)]
        if len(folders) == 1 and not files:
            self.open_folder(folders[0])
        elif files and not folders:
            self.check_files(files)
        else:
            QMessageBox.information(self, self.tr("neardup"),
                                    self.tr("Drop one folder to open it as a collection, or files to check them."))

    # -- closing ---------------------------------------------------------------------------------------

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
        for view in list(self.diff_views):
            view.close()
        self.store.sync()
        super().closeEvent(event)
