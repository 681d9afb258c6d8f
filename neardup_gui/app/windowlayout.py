"""The main window's actions, menus and workspace (the collection panel and the tabs), built once."""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMenu,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from neardup_gui.app.checkview import CheckView
from neardup_gui.app.clustersview import ClustersView
from neardup_gui.app.commonview import CommonView
from neardup_gui.app.documentsview import DocumentsView
from neardup_gui.app.duplicatesview import DuplicatesView
from neardup_gui.app.examiner import ExaminerActions
from neardup_gui.app.screeningview import ScreeningView


class WindowLayout:
    """Builds the widgets of ``MainWindow`` (a part of it: ``self`` is the window); their texts are set by its ``retranslate_ui``."""

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
        self.help_action = action(QKeySequence.StandardKey.HelpContents, self.show_help)
        self.cancel_action = action("Esc", self.progress_panel_cancel)
        self.examiner = ExaminerActions(self)  # applicants and decisions: menu item, dialogs, work

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
        self.file_menu.addAction(self.examiner.import_action)
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.settings_action)
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.quit_action)
        self.help_menu = self.menuBar().addMenu("")
        self.help_menu.addAction(self.help_action)
        self.help_menu.addAction(self.about_action)
        self.addAction(self.cancel_action)

    def _build_collection_panel(self) -> QWidget:
        """The panel left of the tabs: the collection's name, folder and counts, its buttons and
        the recent collections."""
        panel = QWidget()
        panel.setObjectName("collectionPanel")
        # (no least width of its own: its buttons' is; at most so many characters, so a larger text widens it)
        panel.setMaximumWidth(panel.fontMetrics().averageCharWidth() * 44)
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
        return panel

    def _build_workspace(self) -> QWidget:
        panel = self._build_collection_panel()
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
        # Shown while the results are re-derived for changed settings: what is on screen is old.
        self.updating_label = QLabel()
        self.updating_label.setObjectName("updatingNotice")
        self.updating_label.setWordWrap(True)
        self.updating_label.setVisible(False)

        # One view module per tab; the window only assembles them and runs the work.
        self.documents_page = DocumentsView()
        self.documents_page.applicants_requested.connect(lambda docs: self.examiner.set_applicants(
            [(d.rel or d.path, d.path, d.sha256, d.applicants) for d in docs if d.status == "indexed"]))
        self.check_page = CheckView(self.store)
        self.check_page.check_requested.connect(self.choose_files_to_check)
        self.check_page.add_requested.connect(self.add_checked_to_collection)
        self.check_page.report_requested.connect(self.export_check_report)
        self.check_page.source_activated.connect(self._source_activated)
        self.duplicates_page = DuplicatesView()
        self.duplicates_page.pair_activated.connect(self.open_pair_diff)
        self.duplicates_page.containment_requested.connect(self._find_containment_pairs)
        self.duplicates_page.decide_requested.connect(self.examiner.decide_pair)
        self.clusters_page = ClustersView()
        self.clusters_page.member_activated.connect(self.open_pair_diff)
        self.common_page = CommonView()
        self.common_page.action_requested.connect(self.act_on_passage)
        self.screening_page = ScreeningView()
        self.screening_page.screen_requested.connect(self.screen_folder)
        self.screening_page.screening_chosen.connect(self.open_screening)
        self.screening_page.flag_changed.connect(self._flag_changed)
        self.screening_page.submission_activated.connect(self.open_submission)
        self.screening_page.applicants_requested.connect(lambda rows: self.examiner.set_applicants(
            [(r.rel, r.path, r.sha256, r.applicants) for r in rows]))

        self.tabs = QTabWidget()
        self.tabs.setObjectName("resultTabs")
        self.documents_tab, self.check_tab, self.pairs_tab, self.clusters_tab = (
            self.documents_page, self.check_page, self.duplicates_page, self.clusters_page)
        self.tabs.addTab(self.documents_page, "")
        self.tabs.addTab(self.check_page, "")
        self.tabs.addTab(self.duplicates_page, "")
        self.tabs.addTab(self.clusters_page, "")
        self.tabs.addTab(self.common_page, "")
        self.common_tab = self.common_page
        self.screening_tab = self.screening_page
        self.tabs.addTab(self.screening_page, "")

        right = QWidget()
        r = QVBoxLayout(right)
        r.setContentsMargins(0, 0, 0, 0)
        r.addLayout(notice_row)
        r.addWidget(self.updating_label)
        r.addWidget(self.tabs, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(panel)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([270, 1000])
        splitter.setChildrenCollapsible(False)
        return splitter
