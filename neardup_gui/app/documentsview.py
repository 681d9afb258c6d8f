"""The Documents tab: every file of the collection with its status, filterable."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget

from neardup_gui.app.models import DocumentsModel, FilterProxy
from neardup_gui.app.widgets import make_table
from neardup_gui.core.results import DocumentInfo


class DocumentsView(QWidget):
    """The documents table and its filter box."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("documentsTab")
        self.model = DocumentsModel(self)
        self.proxy = FilterProxy(parent=self)
        self.proxy.setSourceModel(self.model)
        self.view = make_table(self.proxy, "documentsView")
        self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.filter = QLineEdit()
        self.filter.setObjectName("documentsFilter")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.set_text)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.view, 1)
        self.retranslate_ui()

    def set_documents(self, documents: Sequence[DocumentInfo]) -> None:
        first = self.model.rowCount() == 0
        self.model.set_records(documents)
        if first and documents:  # size the columns once, not on every refresh
            self.view.resizeColumnsToContents()

    def records(self) -> list[DocumentInfo]:
        return self.model.records()

    def reset(self) -> None:
        """Another collection: no rows, no filter left over from the previous one."""
        self.filter.clear()
        self.model.set_records(())

    def retranslate_ui(self) -> None:
        self.filter.setPlaceholderText(self.tr("Filter documents…"))
        self.filter.setAccessibleName(self.tr("Filter documents"))
        self.view.setAccessibleName(self.tr("Documents"))
        self.model.retranslate()
