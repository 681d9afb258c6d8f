"""The first-run view: what the tool does, and the ways to start (a folder, the sample, recent)."""

from __future__ import annotations

import logging
import os

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from neardup_gui.app.flowlayout import FlowLayout
from neardup_gui.app.paths import display_path


log = logging.getLogger(__name__)


class WelcomeView(QWidget):
    """Shown until a collection is open, so the window is never blank."""

    open_folder_requested = Signal()
    sample_requested = Signal()
    recent_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcomeView")
        self.title = QLabel()
        self.title.setObjectName("welcomeTitle")
        self.intro = QLabel()
        self.intro.setObjectName("welcomeIntro")
        self.intro.setWordWrap(True)
        font = self.intro.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.intro.setFont(font)
        self.open_button = QPushButton()
        self.open_button.setObjectName("openFolderButton")
        self.sample_button = QPushButton()
        self.sample_button.setObjectName("sampleButton")
        for button in (self.open_button, self.sample_button):  # (sizes in the text's own units)
            font = button.font()
            font.setPointSizeF(font.pointSizeF() * 1.1)
            button.setFont(font)
            button.setMinimumHeight(button.fontMetrics().height() * 2)
            button.setMinimumWidth(button.fontMetrics().averageCharWidth() * 20)
        self.open_button.setDefault(True)
        self.open_button.clicked.connect(self.open_folder_requested)
        self.sample_button.clicked.connect(self.sample_requested)
        self.recent_label = QLabel()
        self.recent_list = QListWidget()
        self.recent_list.setObjectName("welcomeRecent")
        self.recent_list.setMaximumHeight(self.recent_list.fontMetrics().height() * 10)
        self.recent_list.itemActivated.connect(lambda item: self.recent_requested.emit(item.data(Qt.ItemDataRole.UserRole)))
        self.recent_label.setBuddy(self.recent_list)
        self.drop_hint = QLabel()
        self.drop_hint.setObjectName("dropHint")
        self.drop_hint.setWordWrap(True)

        column = QVBoxLayout()
        column.addStretch(1)
        column.addWidget(self.title)
        column.addSpacing(8)
        column.addWidget(self.intro)
        column.addSpacing(18)
        buttons = FlowLayout()  # (side by side, or one under the other when the text is large)
        buttons.add(self.open_button)
        buttons.add(self.sample_button)
        column.addLayout(buttons)
        column.addSpacing(18)
        column.addWidget(self.recent_label)
        column.addWidget(self.recent_list)
        column.addWidget(self.drop_hint)
        column.addStretch(2)
        outer = QHBoxLayout(self)
        outer.addStretch(1)
        holder = QWidget()
        holder.setLayout(column)
        holder.setMaximumWidth(self.fontMetrics().averageCharWidth() * 110)
        outer.addWidget(holder, 4)
        outer.addStretch(1)
        self.set_recent([])
        self.retranslate_ui()

    def set_recent(self, folders: list[str]) -> None:
        self.recent_list.clear()
        for folder in folders:
            item = QListWidgetItem(f"{os.path.basename(folder.rstrip(os.sep)) or folder}   —   {display_path(folder)}")
            item.setData(Qt.ItemDataRole.UserRole, folder)
            item.setToolTip(folder)
            self.recent_list.addItem(item)
        has = bool(folders)
        self.recent_label.setVisible(has)
        self.recent_list.setVisible(has)

    def retranslate_ui(self) -> None:
        self.title.setText(self.tr("<h1>neardup</h1>"))
        self.intro.setText(
            self.tr(
                "neardup finds near-duplicate and copied passages in a folder of documents "
                "(Word, PDF and text files, in Chinese and English) and shows the matching text "
                "side by side. Everything stays on this computer: open a folder to index it, then "
                "drop a new submission on the window to check it against the collection."
            )
        )
        self.open_button.setText(self.tr("Open a folder…"))
        self.open_button.setToolTip(self.tr("Choose a folder of documents to index as a collection (Ctrl+O)"))
        self.sample_button.setText(self.tr("Try the sample collection"))
        self.sample_button.setToolTip(self.tr("Open the bundled sample of funding proposals with planted duplicates"))
        self.recent_label.setText(self.tr("Recent collections:"))
        self.recent_list.setAccessibleName(self.tr("Recent collections"))
        self.drop_hint.setText(self.tr("You can also drag a folder onto this window."))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)
