"""The Documents tab: every file of the collection with its status, filterable."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QCheckBox, QLineEdit, QPushButton, QVBoxLayout, QWidget

from neardup_gui.app.flowlayout import FlowLayout
from neardup_gui.app.models import DocumentsModel, FilterProxy
from neardup_gui.app.widgets import filter_as_typed, make_table
from neardup_gui.core.results import DocumentInfo


class DocumentsView(QWidget):
    """The documents table and its filter box."""

    applicants_requested = Signal(object)  # the chosen documents (DocumentInfo): name their applicants

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("documentsTab")
        self.model = DocumentsModel(self)
        self.proxy = FilterProxy(parent=self)
        self.proxy.setSourceModel(self.model)
        self.view = make_table(self.proxy, "documentsView", names=(0,), texts=(3, DocumentsModel.APPLICANTS_COLUMN))
        # ("Set applicant…" names the applicants of every chosen document)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.filter = QLineEdit()
        self.filter.setObjectName("documentsFilter")
        self.filter.setClearButtonEnabled(True)
        filter_as_typed(self.filter, self.proxy)
        # Documents read only in part or leniently (invalid bytes replaced, a damaged file
        # salvaged): what the examiner should look at before trusting their figures.
        self.with_warnings = QCheckBox()
        self.with_warnings.setObjectName("documentsWithWarnings")
        self.with_warnings.toggled.connect(self._filter_rows)
        # Documents with integrity flags (look-alike letters, hidden text, invisible or
        # traditional characters): what may be a disguised copy
        self.with_flags = QCheckBox()
        self.with_flags.setObjectName("documentsWithFlags")
        self.with_flags.toggled.connect(self._filter_rows)
        self.applicant_button = QPushButton()
        self.applicant_button.setObjectName("documentsSetApplicant")
        self.applicant_button.clicked.connect(
            lambda: self.applicants_requested.emit(self.selected()) if self.selected() else None)
        row = FlowLayout()  # (the options go under the filter when the window is narrow)
        row.add(self.filter, stretch=True)
        row.add(self.with_warnings)
        row.add(self.with_flags)
        row.add(self.applicant_button)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.view, 1)
        self.retranslate_ui()

    def set_documents(self, documents: Sequence[DocumentInfo]) -> None:
        self.model.set_records(documents)

    def records(self) -> list[DocumentInfo]:
        return self.model.records()

    def selected(self) -> list[DocumentInfo]:
        """The documents chosen in the table."""
        rows = [self.proxy.record_at(i) for i in self.view.selectionModel().selectedRows()]
        return [d for d in rows if d is not None]

    def reset(self) -> None:
        """Another collection: no rows, no filter left over from the previous one."""
        self.filter.clear()
        self.with_warnings.setChecked(False)
        self.with_flags.setChecked(False)
        self.model.set_records(())

    def _filter_rows(self, _on: bool = False) -> None:
        warnings, flags = self.with_warnings.isChecked(), self.with_flags.isChecked()
        self.proxy.set_condition(
            (lambda d: d.status == "indexed" and (not warnings or bool(d.warnings)) and (not flags or bool(d.flags)))
            if warnings or flags else None)

    def retranslate_ui(self) -> None:
        self.filter.setPlaceholderText(self.tr("Filter documents…"))
        self.filter.setAccessibleName(self.tr("Filter documents"))
        self.view.setAccessibleName(self.tr("Documents"))
        self.with_warnings.setText(self.tr("Only documents with warnings"))
        self.with_warnings.setToolTip(self.tr("Documents read only in part or leniently: "
                                              "invalid bytes replaced, or recovered from a damaged file"))
        self.with_flags.setText(self.tr("Only documents with integrity flags"))
        self.applicant_button.setText(self.tr("Set applicant…"))
        self.applicant_button.setToolTip(self.tr("Name the applicants of the chosen documents (their own author "
                                                 "field names them until then); a CSV for many: File › Import "
                                                 "applicants"))
        self.with_flags.setToolTip(self.tr("Documents with look-alike letters, hidden text, invisible characters "
                                           "or traditional characters: perhaps a disguised copy"))
        self.model.retranslate()
