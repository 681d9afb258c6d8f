"""The Common passages tab: every passage found in many documents, whether it counts, and why.

The examiner sees here everything the comparison may leave out: the text of each passage, how
many documents hold it, a few of their names and its status (a template file, marked by the
examiner, automatic, or counted). One button excludes the selected passage, one counts it, one
undoes the examiner's choice; the window stores the choice in the index and derives every
result again.
"""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from neardup_gui.app.columns import ColumnFit
from neardup_gui.app.models import percent
from neardup_gui.core.common_passages import CommonPassage
from neardup_gui.core.results import Exclusions

PASSAGE_ROLE = Qt.ItemDataRole.UserRole + 7  # the row's index into ``passages``
PREVIEW_CHARS = 160  # characters of a passage shown in its row (the whole text below the list)


def exclusions_text(exclusions: Exclusions) -> str:
    """"Left out, by reason: template files 80, automatic template 40 (120 units in all)" in the interface's
    language, for the check header and the side-by-side header."""
    names = {
        "template_files": QCoreApplication.translate("Exclusions", "template files"),
        "marked": QCoreApplication.translate("Exclusions", "marked by you"),
        "automatic": QCoreApplication.translate("Exclusions", "automatic template"),
        "furniture": QCoreApplication.translate("Exclusions", "page headers and footers"),
        "quotes": QCoreApplication.translate("Exclusions", "quotations"),
        "bibliography": QCoreApplication.translate("Exclusions", "bibliography"),
    }
    parts = [f"{names[k]} {v}" for k, v in exclusions.as_dict().items() if v]
    if not parts:
        return QCoreApplication.translate("Exclusions", "Nothing left out: every unit counts")
    return QCoreApplication.translate("Exclusions", "Left out, by reason: {parts} ({n} units in all)").format(
        n=exclusions.total, parts=", ".join(parts))


class CommonView(QWidget):
    """The list of common passages, the selected one's whole text, and the three actions."""

    action_requested = Signal(object, str)  # a CommonPassage; "exclude" | "count" | "undo"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("commonTab")
        self.passages: list[CommonPassage] = []
        self.rules: dict | None = None
        self.busy = False
        self.summary = QLabel()
        self.summary.setObjectName("commonSummary")
        self.summary.setWordWrap(True)
        self.model = QStandardItemModel(self)
        self.view = QTreeView()
        self.view.setObjectName("commonView")
        self.view.setModel(self.model)
        self.view.setRootIsDecorated(False)
        self.view.setAlternatingRowColors(True)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.selectionModel().currentRowChanged.connect(lambda *_: self._selection_changed())
        self.column_fit = ColumnFit(self.view, texts=(0, 3))
        self._filling = False  # the list being made again: its current row moves, nothing to show yet
        self.text = QPlainTextEdit()
        self.text.setObjectName("commonText")
        self.text.setReadOnly(True)
        self.exclude_button = QPushButton()
        self.exclude_button.setObjectName("commonExclude")
        self.count_button = QPushButton()
        self.count_button.setObjectName("commonCount")
        self.undo_button = QPushButton()
        self.undo_button.setObjectName("commonUndo")
        self.exclude_button.clicked.connect(lambda: self._request("exclude"))
        self.count_button.clicked.connect(lambda: self._request("count"))
        self.undo_button.clicked.connect(lambda: self._request("undo"))
        buttons = QHBoxLayout()
        buttons.addWidget(self.exclude_button)
        buttons.addWidget(self.count_button)
        buttons.addWidget(self.undo_button)
        buttons.addStretch(1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.view)
        splitter.addWidget(self.text)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(splitter, 1)
        layout.addLayout(buttons)
        self.retranslate_ui()

    # -- data ----------------------------------------------------------------------------------

    def set_passages(self, passages: Sequence[CommonPassage], rules: dict | None) -> None:
        """Show new passages, keeping the selection on the same passage when it is still listed."""
        current = self.current_passage()
        self.passages = list(passages)
        self.rules = rules
        self._fill()
        if current is not None:
            for row, p in enumerate(self.passages):
                if p.id == current.id:
                    self.view.setCurrentIndex(self.model.index(row, 0))
                    break
        self._update_summary()
        self._selection_changed()

    def reset(self) -> None:
        self.set_passages((), None)

    def set_busy(self, busy: bool) -> None:
        """While the window derives the results again, the actions wait."""
        self.busy = busy
        self._selection_changed()

    def current_passage(self) -> CommonPassage | None:
        index = self.view.currentIndex()
        if not index.isValid():
            return None
        row = index.siblingAtColumn(0).data(PASSAGE_ROLE)
        return self.passages[row] if row is not None and row < len(self.passages) else None

    def _request(self, action: str) -> None:
        passage = self.current_passage()
        if passage is not None and not self.busy:
            self.action_requested.emit(passage, action)

    # -- display -------------------------------------------------------------------------------

    def status_text(self, passage: CommonPassage) -> str:
        text = {
            "template-file": self.tr("template file"),
            "marked": self.tr("marked by you: not counted"),
            "automatic": self.tr("automatic: not counted"),
            "counted": (self.tr("counted by your choice") if passage.by_examiner
                        else self.tr("counted: its documents copy one another") if passage.copied
                        else self.tr("counted")),
        }
        return text.get(passage.status, passage.status)

    def _fill(self) -> None:
        self._filling = True
        try:
            self._fill_model()
        finally:
            self._filling = False

    def _fill_model(self) -> None:
        model = self.model
        # (``clear`` costs far more with a view attached; while the rows go, the current row moves
        # and is not followed: the selection is shown once, by ``set_passages``, when all is in)
        model.removeRows(0, model.rowCount())
        model.setHorizontalHeaderLabels([self.tr("Passage"), self.tr("Documents"), self.tr("Status"),
                                         self.tr("Found in (a few)")])
        for row, p in enumerate(self.passages):
            flat = " ".join(p.text.split())
            text = QStandardItem(flat[:PREVIEW_CHARS] + ("…" if len(flat) > PREVIEW_CHARS else ""))
            text.setData(row, PASSAGE_ROLE)
            text.setToolTip(p.text[:2000])
            docs = QStandardItem(self.tr("{n} ({share})").format(n=p.documents, share=percent(p.share)))
            docs.setData(p.documents, Qt.ItemDataRole.UserRole)
            status = QStandardItem(self.status_text(p))
            if p.status != "counted":
                font = status.font()
                font.setBold(True)
                status.setFont(font)
            names = QStandardItem(", ".join(p.names))
            names.setToolTip("\n".join(p.names))
            model.appendRow([text, docs, status, names])

    def _update_summary(self) -> None:
        left_out = sum(1 for p in self.passages if p.status != "counted")
        r = self.rules or {}
        if not r:
            rule = ""
        elif r.get("automatic"):
            rule = self.tr("Automatic template: a sentence in at least {n} documents ({docs} and {share} of the "
                           "collection) is left out, unless the documents holding it copy one another.").format(
                n=r.get("automatic_min_frequency"), docs=r.get("automatic_min_docs"),
                share=percent(r.get("automatic_min_share") or 0.0))
        else:
            rule = self.tr("Automatic template is off: only your template files and marks are left out.")
        # two counts, two messages: each takes its own plural form ("1 are left out" before)
        found = self.tr("%n passage(s) found in several documents", "", len(self.passages))
        out = self.tr("%n of them left out as template", "", left_out)
        self.summary.setText(self.tr("{found}; {left_out}. {rule}").format(found=found, left_out=out, rule=rule))

    def _selection_changed(self) -> None:
        if self._filling:
            return
        p = self.current_passage()
        self.text.setPlainText(p.text if p is not None else "")
        ok = p is not None and not self.busy
        self.exclude_button.setEnabled(ok and p.status in ("counted", "automatic"))
        self.count_button.setEnabled(ok and p.status in ("automatic", "marked"))
        self.undo_button.setEnabled(ok and bool(p.mark_ids))

    def retranslate_ui(self) -> None:
        self.view.setAccessibleName(self.tr("Common passages"))
        self.text.setAccessibleName(self.tr("Text of the selected passage"))
        self.exclude_button.setText(self.tr("Exclude as template"))
        self.exclude_button.setToolTip(self.tr("Never count this passage in any comparison (stored with the collection)"))
        self.count_button.setText(self.tr("Count it"))
        self.count_button.setToolTip(self.tr("Count this passage even though it is in most documents"))
        self.undo_button.setText(self.tr("Undo my choice"))
        self.undo_button.setToolTip(self.tr("Forget what you chose for this passage"))
        self._fill()
        self._update_summary()
        self._selection_changed()
