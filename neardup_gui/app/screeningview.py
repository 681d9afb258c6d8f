"""The Screening tab: a call's submissions ranked by copied share, each opening its submission view.

The examiner chooses (or drops) a folder of new submissions; the window screens it in the task
runner (:func:`run_screening`: against the collection and against each other, resumable) and the
ranked table appears here, sortable and filterable, with the flag line settable live. Earlier
screenings are kept in the index and reopened from the drop-down.
"""

from __future__ import annotations

import logging
import os
from typing import Any, Sequence

from PySide6.QtCore import QCoreApplication, QModelIndex, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from neardup_gui.app.flagtext import flags_cell, flags_tooltip
from neardup_gui.app.flowlayout import FlowLayout
from neardup_gui.app.paths import display_path, files_tip, local_file
from neardup_gui.app.examiner import applicants_tip, rows_decision_cell, rows_decision_icon
from neardup_gui.app.models import (
    Column, FilterProxy, RecordTableModel, applicants_column, decision_column, localise_reason, percent,
)
from neardup_gui.app.widgets import filter_as_typed, make_table
from neardup_gui.core.collection import Collection
from neardup_gui.core.extract import READ_SUFFIXES
from neardup_gui.core.progress import ProgressFn
from neardup_gui.core.screening import (
    DEFAULT_FLAG, Screening, ScreeningInfo, ScreeningRow, list_screenings, load_screening, screen_folder, set_flag,
)
from neardup_gui.core.settings import Settings

log = logging.getLogger(__name__)


# --- the work (run in the task runner; each opens its own Collection) ---------------------------


def run_screening(db_path: str, folder: str, name: str, flag: float, settings: Settings,
                  progress: ProgressFn) -> tuple[list[ScreeningInfo], Screening]:
    """Screen ``folder`` as the call ``name`` (resumes or refreshes a screening of that name)."""
    with Collection.open(db_path) as coll:
        screening = screen_folder(coll, folder, settings, name=name or None, flag=flag, progress=progress)
        return list_screenings(coll.store), screening


def open_screenings(db_path: str, name: str | None, progress: ProgressFn) -> tuple[list[ScreeningInfo], Screening | None]:
    """The screenings kept in the index, and one of them (``name``, else the latest) with its rows."""
    progress(0.0, "")
    if not os.path.exists(db_path):
        return [], None
    with Collection.open(db_path, create=False) as coll:
        infos = list_screenings(coll.store)
        chosen = name if name and any(i.name == name for i in infos) else (infos[0].name if infos else None)
        return infos, (load_screening(coll.store, chosen) if chosen else None)


def save_flag(db_path: str, name: str, flag: float, progress: ProgressFn) -> None:
    with Collection.open(db_path, create=False) as coll:
        set_flag(coll.store, name, flag)


# --- the table -----------------------------------------------------------------------------------


class ScreeningModel(RecordTableModel[ScreeningRow]):
    """The submissions of a screening with their figures; ``flag`` is the line that flags a row."""

    def __init__(self, parent=None) -> None:
        c = "ScreeningModel"
        # The strings are marked for translation here and translated when shown.
        QCoreApplication.translate("ScreeningModel", "Rank"), QCoreApplication.translate("ScreeningModel", "Submission")
        QCoreApplication.translate("ScreeningModel", "Copied"), QCoreApplication.translate("ScreeningModel", "Flag")
        QCoreApplication.translate("ScreeningModel", "Largest source (file)")
        QCoreApplication.translate("ScreeningModel", "Largest single source")
        QCoreApplication.translate("ScreeningModel", "Sources"), QCoreApplication.translate("ScreeningModel", "Warnings")
        QCoreApplication.translate("ScreeningModel", "Share of the submission found in its sources, template text not counted")
        QCoreApplication.translate("ScreeningModel", "Share of the submission found in its single largest source")
        QCoreApplication.translate("ScreeningModel", "Sources counted (documents of the collection and other submissions of this call)")
        QCoreApplication.translate("ScreeningModel", "Integrity flags")
        QCoreApplication.translate("ScreeningModel", "Copied without own documents")
        QCoreApplication.translate("ScreeningModel", "Copied, not counting the text credited to the applicants' own "
                                                     "documents: what a submission is flagged by")
        QCoreApplication.translate("ScreeningModel", "Look-alike letters, hidden text, invisible or traditional "
                                                     "characters found in the submission")
        self.flag = DEFAULT_FLAG
        self.rank: dict[str, int] = {}
        super().__init__(
            [
                Column(c, "Rank", lambda r: str(self.rank.get(r.rel, "")), lambda r: self.rank.get(r.rel, 0),
                       numeric=True),
                Column(c, "Submission", lambda r: r.rel, lambda r: r.rel.lower()),
                Column(c, "Copied", lambda r: percent(r.copied) if r.status == "done" else "",
                       lambda r: r.copied if r.status == "done" else -1.0, numeric=True,
                       tooltip="Share of the submission found in its sources, template text not counted"),
                Column(c, "Copied without own documents",
                       lambda r: percent(r.copied_from_others) if r.status == "done" else "",
                       lambda r: r.copied_from_others if r.status == "done" else -1.0, numeric=True,
                       tooltip="Copied, not counting the text credited to the applicants' own documents: what a "
                               "submission is flagged by"),
                Column(c, "Largest single source", lambda r: percent(r.largest) if r.status == "done" else "",
                       lambda r: r.largest, numeric=True,
                       tooltip="Share of the submission found in its single largest source"),
                Column(c, "Largest source (file)", lambda r: os.path.basename(r.largest_source),
                       lambda r: os.path.basename(r.largest_source).lower()),
                Column(c, "Sources", lambda r: str(r.sources) if r.status == "done" else "", lambda r: r.sources,
                       numeric=True,
                       tooltip="Sources counted (documents of the collection and other submissions of this call)"),
                Column(c, "Flag", self._flag, lambda r: (int(r.flagged(self.flag)), bool(r.resubmission_of))),
                applicants_column(lambda r: r.applicants),
                decision_column(lambda r: rows_decision_cell(r.decided, r.undecided),
                                lambda r: (r.undecided == 0, r.decided)),
                Column(c, "Warnings", self._warnings, lambda r: self._warnings(r).lower()),
                Column(c, "Integrity flags", lambda r: flags_cell(r.flags), lambda r: len(r.flags),
                       tooltip="Look-alike letters, hidden text, invisible or traditional characters found in the submission"),
            ],
            parent,
        )

    def _flag(self, r: ScreeningRow) -> str:
        """Flagged (copied from others at or above the line), and a resubmission said apart."""
        words = []
        if r.flagged(self.flag):
            words.append(QCoreApplication.translate("ScreeningModel", "flagged"))
        if r.resubmission_of:
            words.append(QCoreApplication.translate("ScreeningModel", "resubmission / duplicate submission"))
        return "; ".join(words)

    @staticmethod
    def _warnings(r: ScreeningRow) -> str:
        if r.status != "done":
            return QCoreApplication.translate("ScreeningModel", "not read: {reason}").format(reason=localise_reason(r.reason))
        return "; ".join(r.warnings)

    def set_screening_rows(self, rows: Sequence[ScreeningRow], flag: float) -> None:
        self.flag = flag
        self.rank = {r.rel: i for i, r in enumerate(rows, 1)}
        self.set_records(rows)

    def set_flag(self, flag: float) -> None:
        self.flag = flag
        self.set_records(self.records())

    WITHOUT_OWN_COLUMN = 3
    FLAG_COLUMN = 7
    APPLICANTS_COLUMN = 8
    DECISION_COLUMN = 9
    WARNINGS_COLUMN = 10
    FLAGS_COLUMN = 11

    def decoration(self, record: ScreeningRow, column: int) -> Any:
        return rows_decision_icon(record.decided, record.undecided) if column == self.DECISION_COLUMN else None

    def tooltip(self, record: ScreeningRow, column: int) -> str | None:
        if column == self.APPLICANTS_COLUMN:
            return applicants_tip(record.applicants)
        if column == self.FLAG_COLUMN and record.resubmission_of:
            return QCoreApplication.translate("ScreeningModel", "{share} of it is the applicant's own {source}").format(
                share=percent(record.copied_from_own), source=os.path.basename(record.resubmission_of))
        if column == self.DECISION_COLUMN and record.undecided:
            return QCoreApplication.translate("ScreeningModel", "Sources without a decision (or decided before a "
                                                                "text changed): open the submission to decide")
        if column == self.FLAGS_COLUMN and record.flags:
            return f"{record.path}\n{flags_tooltip(record.flags)}"
        if column == self.WARNINGS_COLUMN and self._warnings(record):  # (the column may be cut short)
            return f"{record.path}\n{self._warnings(record)}"
        return record.path


def _flag_score(r: ScreeningRow) -> float:
    return r.copied_from_others if r.status == "done" else 0.0


class ScreeningView(QWidget):
    """Choose or drop a folder of submissions; the ranked table of the call; earlier calls reopened."""

    screen_requested = Signal(str, str, float)  # folder, name, flag line
    screening_chosen = Signal(str)  # name: load it
    flag_changed = Signal(str, float)  # name, new line: remember it
    submission_activated = Signal(str, str)  # screening name, submission rel: open its view
    applicants_requested = Signal(object)  # the chosen rows (ScreeningRow): name their applicants

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("screeningTab")
        self.setAcceptDrops(True)
        self.screening: Screening | None = None
        self.infos: list[ScreeningInfo] = []
        self.screen_button = QPushButton()
        self.screen_button.setObjectName("screenFolderButton")
        self.screen_button.clicked.connect(self.choose_folder)
        self.rescreen_button = QPushButton()
        self.rescreen_button.setObjectName("rescreenButton")
        self.rescreen_button.clicked.connect(self.rescreen)
        self.combo_label = QLabel()
        self.combo = QComboBox()
        self.combo.setObjectName("screeningCombo")
        self.combo.setMinimumContentsLength(12)
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.activated.connect(self._chosen)
        self.combo_label.setBuddy(self.combo)
        self.flag_label = QLabel()
        self.flag_spin = QDoubleSpinBox()
        self.flag_spin.setObjectName("flagSpin")
        self.flag_spin.setRange(0.0, 100.0)
        self.flag_spin.setDecimals(0)
        self.flag_spin.setSuffix(" %")
        self.flag_spin.setValue(DEFAULT_FLAG * 100)
        self.flag_spin.valueChanged.connect(self._flag_moved)
        self.flag_label.setBuddy(self.flag_spin)
        self.flagged_only = QCheckBox()
        self.flagged_only.setObjectName("flaggedOnly")
        self.flagged_only.toggled.connect(self._flagged_only)
        self.with_flags = QCheckBox()
        self.with_flags.setObjectName("screeningWithFlags")
        self.with_flags.toggled.connect(self._with_flags)
        self.undecided_only = QCheckBox()
        self.undecided_only.setObjectName("screeningUndecided")
        self.undecided_only.toggled.connect(self._with_flags)
        self.applicant_button = QPushButton()
        self.applicant_button.setObjectName("screeningSetApplicant")
        self.applicant_button.clicked.connect(
            lambda: self.applicants_requested.emit(self.selected_rows()) if self.selected_rows() else None)
        self.filter = QLineEdit()
        self.filter.setObjectName("screeningFilter")
        self.filter.setClearButtonEnabled(True)
        self.summary = QLabel()
        self.summary.setObjectName("screeningSummary")
        self.summary.setWordWrap(True)
        self.model = ScreeningModel(self)
        self.proxy = FilterProxy(score=_flag_score, parent=self)
        self.proxy.setSourceModel(self.model)
        filter_as_typed(self.filter, self.proxy)
        self.view = make_table(self.proxy, "screeningView", names=(1, 5), texts=(7, 8, ScreeningModel.WARNINGS_COLUMN))
        # ("Set applicant…" names the applicants of every chosen submission)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # by rank: the highest copied share first
        self.view.activated.connect(self._activated)
        self.empty_hint = QLabel()
        self.empty_hint.setObjectName("emptyHint")
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout = QVBoxLayout(self)
        top = FlowLayout()
        for w in (self.screen_button, self.rescreen_button, self.combo_label):
            top.add(w)
        top.add(self.combo, stretch=True)
        for w in (self.flag_label, self.flag_spin, self.flagged_only, self.with_flags, self.undecided_only,
                  self.applicant_button):
            top.add(w)
        top.add(self.filter, stretch=True)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(self.empty_hint, 1)
        layout.addWidget(self.view, 1)
        self.retranslate_ui()
        self._update_visibility()

    # -- what is shown --------------------------------------------------------------------------

    def set_screenings(self, infos: Sequence[ScreeningInfo], current: Screening | None) -> None:
        self.infos = list(infos)
        self.combo.blockSignals(True)
        self.combo.clear()
        for info in self.infos:
            self.combo.addItem(info.name, info.name)
        self.combo.blockSignals(False)
        self.set_screening(current)

    def set_screening(self, screening: Screening | None) -> None:
        self.screening = screening
        if screening is not None:
            i = self.combo.findData(screening.info.name)
            if i < 0:
                self.combo.addItem(screening.info.name, screening.info.name)
                i = self.combo.count() - 1
            self.combo.setCurrentIndex(i)
            self.flag_spin.blockSignals(True)
            self.flag_spin.setValue(round(screening.info.flag * 100))
            self.flag_spin.blockSignals(False)
            self.model.set_screening_rows(screening.rows, screening.info.flag)
        else:
            self.model.set_screening_rows((), self.flag_spin.value() / 100)
        # A column no row says anything in is left out, and the names get its width: the
        # warnings', the integrity flags' and the applicants' — and with no applicant known,
        # "copied without own documents" too (it is copied itself then, as the reports say by
        # leaving it out). Naming an applicant, a flag or a warning brings them back.
        no_applicants = self._empty(ScreeningModel.APPLICANTS_COLUMN)
        for column in (ScreeningModel.WITHOUT_OWN_COLUMN, ScreeningModel.APPLICANTS_COLUMN):
            self.view.setColumnHidden(column, no_applicants)
        for column in (ScreeningModel.WARNINGS_COLUMN, ScreeningModel.FLAGS_COLUMN):
            self.view.setColumnHidden(column, self._empty(column))
        self._update_summary()
        self._update_visibility()

    def _empty(self, column: int) -> bool:
        model = self.model
        return not any(model.index(row, column).data() for row in range(model.rowCount()))

    def reset(self) -> None:
        self.filter.clear()
        self.flagged_only.setChecked(False)
        self.with_flags.setChecked(False)
        self.undecided_only.setChecked(False)
        self.set_screenings((), None)

    def visible_rows(self) -> list[ScreeningRow]:
        return [self.proxy.record_at(self.proxy.index(r, 0)) for r in range(self.proxy.rowCount())]

    def current_name(self) -> str:
        return self.screening.info.name if self.screening else ""

    def _update_visibility(self) -> None:
        has = self.screening is not None
        self.empty_hint.setVisible(not has)
        self.view.setVisible(has)
        self.rescreen_button.setEnabled(has)
        for w in (self.combo, self.combo_label):
            w.setVisible(bool(self.infos) or has)

    def _update_summary(self) -> None:
        s = self.screening
        if s is None:
            self.summary.setText("")
            return
        line = self.flag_spin.value() / 100
        done = [r for r in s.rows if r.status == "done"]
        flagged = sum(1 for r in s.rows if r.flagged(line))
        text = self.tr("<b>%n submission(s)</b> in {folder}", "", len(s.rows)).format(folder=display_path(s.info.folder))
        text += self.tr(": {flagged}, {unread}").format(
            flagged=self.tr("%n at or above the flag line", "", flagged),
            unread=self.tr("%n could not be read", "", len(s.rows) - len(done)))
        if s.others:  # (as the last screening run found them)
            text += " · " + self.tr("%n other file(s) left out (not a format neardup reads)", "", len(s.others))
        if s.info.state != "done":
            text += " · " + self.tr("interrupted: screen again to check the rest")
        self.summary.setText(text)
        self.summary.setToolTip(files_tip(
            self.tr("Not screened: neardup reads {formats} files, and by its content a file named "
                    "without a type (README, ls.1).").format(formats=" ".join(READ_SUFFIXES)),
            s.others, s.info.folder, self.tr("…and {n} more")))

    # -- the examiner's actions -----------------------------------------------------------------

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose the folder of new submissions"))
        if folder:
            self.request_screening(folder)

    def request_screening(self, folder: str, name: str = "") -> None:
        self.screen_requested.emit(folder, name or os.path.basename(os.path.normpath(folder)),
                                   self.flag_spin.value() / 100)

    def rescreen(self) -> None:
        if self.screening is not None:
            self.request_screening(self.screening.info.folder, self.screening.info.name)

    def _chosen(self, index: int) -> None:
        name = self.combo.itemData(index)
        if name and name != self.current_name():
            self.screening_chosen.emit(name)

    def _flag_moved(self, value: float) -> None:
        line = value / 100
        self.model.set_flag(line)
        if self.flagged_only.isChecked():
            self.proxy.set_minimum(line)
        self._update_summary()
        if self.screening is not None:
            self.flag_changed.emit(self.screening.info.name, line)

    def _flagged_only(self, on: bool) -> None:
        self.proxy.set_minimum(self.flag_spin.value() / 100 if on else 0.0)

    def _with_flags(self, _on: bool = False) -> None:
        flags, undecided = self.with_flags.isChecked(), self.undecided_only.isChecked()
        self.proxy.set_condition(
            (lambda r: (not flags or bool(r.flags)) and (not undecided or r.undecided > 0)) if flags or undecided
            else None)

    def selected_rows(self) -> list[ScreeningRow]:
        """The submissions chosen in the table (read ones only)."""
        rows = [self.proxy.record_at(i) for i in self.view.selectionModel().selectedRows()] \
            if self.view.selectionModel() else []
        return [r for r in rows if r is not None and r.status == "done"]

    def _activated(self, index: QModelIndex) -> None:
        row = self.proxy.record_at(index)
        if row is not None and row.status == "done" and self.screening is not None:
            self.submission_activated.emit(self.screening.info.name, row.rel)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        if len(urls) == 1 and urls[0].isLocalFile() and os.path.isdir(local_file(urls[0])):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = event.mimeData().urls()
        if len(urls) == 1 and os.path.isdir(local_file(urls[0])):
            event.acceptProposedAction()
            self.request_screening(local_file(urls[0]))

    def set_enabled_actions(self, can_screen: bool) -> None:
        self.screen_button.setEnabled(can_screen)
        self.rescreen_button.setEnabled(can_screen and self.screening is not None)
        self.applicant_button.setEnabled(can_screen and self.screening is not None)

    def retranslate_ui(self) -> None:
        self.screen_button.setText(self.tr("Screen a folder…"))
        self.screen_button.setToolTip(self.tr("Check every file of a folder of new submissions against the collection "
                                              "and against each other; you can also drop the folder here"))
        self.rescreen_button.setText(self.tr("Screen again"))
        self.rescreen_button.setToolTip(self.tr("Pick up new and changed submissions; an interrupted screening "
                                                "goes on where it stopped"))
        self.combo_label.setText(self.tr("Screening:"))
        self.combo.setAccessibleName(self.tr("Screenings kept in this collection"))
        self.flag_label.setText(self.tr("Flag line:"))
        tip = self.tr("A submission is flagged when its copied share without own documents (template text and the "
                      "applicant's own documents not counted) reaches this line")
        self.flag_label.setToolTip(tip)
        self.flag_spin.setToolTip(tip)
        self.flag_spin.setAccessibleName(self.tr("Flag line"))
        self.flagged_only.setText(self.tr("Flagged only"))
        self.with_flags.setText(self.tr("With integrity flags only"))
        self.undecided_only.setText(self.tr("Undecided only"))
        self.undecided_only.setToolTip(self.tr("Submissions with a source the examiner has not decided on yet (or "
                                               "decided on before a text changed)"))
        self.applicant_button.setText(self.tr("Set applicant…"))
        self.applicant_button.setToolTip(self.tr("Name the applicants of the chosen submissions: their own earlier "
                                                 "documents are then told apart from others'"))
        self.with_flags.setToolTip(self.tr("Submissions with look-alike letters, hidden text, invisible characters "
                                           "or traditional characters: perhaps a disguised copy"))
        self.filter.setPlaceholderText(self.tr("Filter submissions…"))
        self.filter.setAccessibleName(self.tr("Filter submissions"))
        self.view.setAccessibleName(self.tr("Screened submissions"))
        self.view.setToolTip(self.tr("Double-click or press Enter to open the submission with its sources coloured"))
        self.empty_hint.setText(self.tr("Screen a whole call: drop a folder of new submissions here, or use "
                                        "“Screen a folder…”. Each is checked against the collection and against "
                                        "the other submissions, and the table ranks them by copied share."))
        self.model.retranslate()
        self._update_summary()
