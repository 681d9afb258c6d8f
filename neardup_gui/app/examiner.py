"""The examiner's records in the window: applicants named (a CSV, "Set applicant…") and decisions taken.

The work runs in the task runner (each function opens its own index); the dialogs only ask. What
the lists show of the records — an applicant's names with where they came from, a decision's
icon and words — is said here once for every view.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Sequence

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import (
    QApplication,
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from neardup_gui.core.applicants import ImportedApplicants, import_applicants, read_applicants_csv, set_applicants
from neardup_gui.core.collection import Collection
from neardup_gui.core.decisions import CHOICES, decide
from neardup_gui.core.progress import ProgressFn
from neardup_gui.core.results import Applicants, Decision, Pair
from neardup_gui.core.screening import SubmissionDetail, decide_source, refigure_files, submission_detail

if TYPE_CHECKING:
    from neardup_gui.app.mainwindow import MainWindow
    from neardup_gui.core.results import CheckSummary
    from neardup_gui.core.screening import ScreenedSource

log = logging.getLogger(__name__)


# --- the work (run in the task runner) -------------------------------------------------------------


def import_applicants_csv(db_path: str, csv_path: str, folder: str, progress: ProgressFn) -> ImportedApplicants:
    """Keep a CSV's applicants in the index (paths in ``folder``, the collection's), then make the
    figures of the screenings they touch again."""
    progress(0.0, "")
    table = read_applicants_csv(csv_path, folder)
    with Collection.open(db_path, create=False) as coll:
        imported = import_applicants(coll.store, table, {d.path: d.sha256 for d in coll.documents()})
        refigure_files(coll.store, imported.changed, progress)
    return imported


def name_applicants(db_path: str, files: Sequence[tuple[str, str]], names: Sequence[str] | None,
                    progress: ProgressFn) -> int:
    """The examiner names the applicants of files (``(path, sha256)``; ``names`` empty: none;
    None: their own metadata again); the figures of the screenings they touch are made again."""
    progress(0.0, "")
    with Collection.open(db_path, create=False) as coll:
        changed = set_applicants(coll.store, files, names)
        refigure_files(coll.store, changed, progress)
    return len(changed)


def decide_pair(db_path: str, a: tuple[str, str], b: tuple[str, str], choice: str | None, note: str,
                progress: ProgressFn) -> Decision | None:
    """The examiner's decision on two texts (``(sha256, path)`` each; ``choice`` None takes it back)."""
    progress(0.0, "")
    with Collection.open(db_path, create=False) as coll:
        decision = decide(coll.store, a, b, choice, note)
        refigure_files(coll.store, [(a[1], a[0]), (b[1], b[0])], progress)
    return decision


def decide_on_source(db_path: str, screening: str, rel: str, source_path: str, choice: str | None, note: str,
                     progress: ProgressFn) -> SubmissionDetail:
    """The examiner's decision on a source of a screened submission; the submission read again."""
    progress(0.0, "")
    with Collection.open(db_path, create=False) as coll:
        decide_source(coll.store, screening, rel, source_path, choice, note)
        detail = submission_detail(coll.store, screening, rel)
    _ = detail.units  # (tokenized here, not on the GUI thread)
    return detail


# --- what the lists show --------------------------------------------------------------------------


def source_word(source: str) -> str:
    """Where a document's applicants were named, in a word or two."""
    return {
        "csv": QCoreApplication.translate("Examiner", "CSV"),
        "examiner": QCoreApplication.translate("Examiner", "set"),
        "metadata": QCoreApplication.translate("Examiner", "file metadata"),
    }.get(source, source)


def applicants_cell(a: Applicants) -> str:
    """A document's applicants as a list shows them: "王小明 (file metadata)"; "" when unknown."""
    if not a:
        return QCoreApplication.translate("Examiner", "none (set)") if a.source == "examiner" else ""
    return QCoreApplication.translate("Examiner", "{names} ({source})").format(names=a.text(), source=source_word(a.source))


def applicants_tip(a: Applicants) -> str:
    if a.source == "csv":
        return QCoreApplication.translate("Examiner", "Named by the examiner's list of applicants (CSV)")
    if a.source == "examiner":
        return QCoreApplication.translate("Examiner", "Set by the examiner")
    if a.source == "metadata":
        return QCoreApplication.translate("Examiner", "Taken from the file's own author field: set the applicant "
                                                      "if it names someone else")
    return QCoreApplication.translate("Examiner", "Not known: the applicant's own earlier work cannot be told from "
                                                  "others' work. Use “Set applicant…” or import a CSV.")


def choice_text(choice: str) -> str:
    return {
        "confirmed": QCoreApplication.translate("Examiner", "copying confirmed"),
        "own-work": QCoreApplication.translate("Examiner", "permitted: own work"),
        "cited": QCoreApplication.translate("Examiner", "permitted: cited"),
        "common-knowledge": QCoreApplication.translate("Examiner", "permitted: common knowledge"),
        "not-relevant": QCoreApplication.translate("Examiner", "not relevant"),
    }.get(choice, choice)


def decision_cell(d: Decision | None) -> str:
    if d is None:
        return ""
    if d.changed:
        return QCoreApplication.translate("Examiner", "{decision} — text changed since").format(
            decision=choice_text(d.choice))
    return choice_text(d.choice)


def decision_tip(d: Decision | None) -> str:
    if d is None:
        return QCoreApplication.translate("Examiner", "No decision yet")
    lines = [QCoreApplication.translate("Examiner", "Decided {date}: {decision}").format(
        date=d.date().replace("T", " ").replace("+00:00", " UTC"), decision=choice_text(d.choice))]
    if d.note:
        lines.append(QCoreApplication.translate("Examiner", "Note: {note}").format(note=d.note))
    if d.changed:
        lines.append(QCoreApplication.translate("Examiner", "A text changed since this decision: it is not applied. "
                                                            "Decide again."))
    elif d.sets_apart:
        lines.append(QCoreApplication.translate("Examiner", "Its text is not counted in the copied share."))
    return "\n".join(lines)


def decision_icon(d: Decision | None) -> QIcon | None:
    """Decided: a tick; decided before a text changed: a warning; undecided: none."""
    if d is None:
        return None
    pixmap = QStyle.StandardPixmap.SP_MessageBoxWarning if d.changed else QStyle.StandardPixmap.SP_DialogApplyButton
    return QApplication.style().standardIcon(pixmap)


def rows_decision_cell(decided: int, undecided: int) -> str:
    """A screened submission's decisions: "" without sources, "decided", "1 of 3 decided"."""
    if not decided and not undecided:
        return ""
    if not undecided:
        return QCoreApplication.translate("Examiner", "decided")
    return QCoreApplication.translate("Examiner", "{n} of {total} decided").format(n=decided, total=decided + undecided)


def rows_decision_icon(decided: int, undecided: int) -> QIcon | None:
    if decided and not undecided:
        return QApplication.style().standardIcon(QStyle.StandardPixmap.SP_DialogApplyButton)
    return None


def source_notes(s: ScreenedSource) -> str:
    """What a submission's source list says of whose the source is and what was decided on it."""
    note = ""
    if s.same_applicant:
        note += " · " + QCoreApplication.translate("Examiner", "the applicant's own: not copying")
    if s.decision is not None:
        note += " · " + decision_cell(s.decision)
    return note


def whose_html(applicants: Applicants, summary: CheckSummary, names: dict[str, str]) -> str:
    """A submission's figures on whose the text is: its applicants, the share without their own
    documents, a resubmission, what the examiner's decisions set apart (``names``: the sources'
    names by path)."""
    import html

    parts = [QCoreApplication.translate("Examiner", "<b>Copied without own documents: {others}</b> (the flag's "
                                                    "figure)").format(others=_percent(summary.copied_from_others))]
    if summary.copied_from_own:
        parts.append(QCoreApplication.translate("Examiner", "copied from own documents {own}").format(
            own=_percent(summary.copied_from_own)))
    if summary.set_apart:
        parts.append(QCoreApplication.translate("Examiner", "set apart by your decisions {share}").format(
            share=_percent(summary.set_apart)))
    named = applicants_cell(applicants) or QCoreApplication.translate("Examiner", "not known")
    parts.append(QCoreApplication.translate("Examiner", "applicants: {names}").format(names=html.escape(named)))
    text = "<br>" + " &nbsp;·&nbsp; ".join(parts)
    if summary.resubmission_of:
        name = names.get(summary.resubmission_of, summary.resubmission_of)
        text += "<br><b>" + html.escape(QCoreApplication.translate(
            "Examiner", "Resubmission / duplicate submission of {name}: the applicant's own work, not copying").format(
            name=name)) + "</b>"
    return text


def _percent(x: float) -> str:
    return f"{x * 100:.1f}%"


# --- the dialogs ---------------------------------------------------------------------------------------


class ApplicantDialog(QDialog):
    """Name the applicants of chosen documents: names, none, or back to the files' own metadata."""

    def __init__(self, shown: Sequence[str], now: Sequence[Applicants], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("applicantDialog")
        self.setWindowTitle(self.tr("Set applicant"))
        self.names: tuple[str, ...] | None = ()
        self.action = ""  # "set" | "none" | "metadata"
        files = QLabel()
        files.setWordWrap(True)
        listed = ", ".join(shown[:5]) + (self.tr(" and {n} more").format(n=len(shown) - 5) if len(shown) > 5 else "")
        files.setText(self.tr("Applicants of {files}").format(files=listed))
        current = {applicants_cell(a) or self.tr("not known") for a in now}
        said = QLabel(self.tr("Now: {now}").format(now="; ".join(sorted(current))))
        said.setWordWrap(True)
        self.edit = QLineEdit()
        self.edit.setObjectName("applicantNames")
        self.edit.setPlaceholderText(self.tr("Names or IDs, several separated by ;"))
        if len({a.names for a in now}) == 1 and now and now[0]:
            self.edit.setText("; ".join(now[0].names))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.none_button = QPushButton(self.tr("No applicant"))
        self.none_button.setToolTip(self.tr("These files have no applicant: their author field is not used"))
        self.metadata_button = QPushButton(self.tr("Use the files' metadata"))
        self.metadata_button.setToolTip(self.tr("Forget what was set: each file's own author field names its applicant"))
        buttons.addButton(self.none_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.metadata_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.accepted.connect(self._set)
        buttons.rejected.connect(self.reject)
        self.none_button.clicked.connect(lambda: self._done("none", ()))
        self.metadata_button.clicked.connect(lambda: self._done("metadata", None))
        layout = QVBoxLayout(self)
        layout.addWidget(files)
        layout.addWidget(said)
        layout.addWidget(self.edit)
        layout.addWidget(buttons)
        self.resize(520, self.sizeHint().height())

    def _set(self) -> None:
        from neardup_gui.core.applicants import split_names

        names = split_names(self.edit.text())
        if names:
            self._done("set", names)
        else:
            self.edit.setFocus()

    def _done(self, action: str, names: tuple[str, ...] | None) -> None:
        self.action, self.names = action, names
        self.accept()


class DecisionDialog(QDialog):
    """The examiner's decision on two texts: one of :data:`CHOICES` or none, with a note."""

    def __init__(self, first: str, second: str, decision: Decision | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("decisionDialog")
        self.setWindowTitle(self.tr("Decide"))
        self.choice: str | None = None
        heading = QLabel(self.tr("<b>{a}</b> and <b>{b}</b>").format(a=_html(first), b=_html(second)))
        heading.setWordWrap(True)
        self.group = QButtonGroup(self)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        if decision is not None:
            state = QLabel(decision_tip(decision).replace("\n", "<br>"))
            state.setObjectName("decisionState")
            state.setWordWrap(True)
            layout.addWidget(state)
        self.buttons: dict[str | None, QRadioButton] = {}
        words = {**{c: choice_text(c) for c in CHOICES}, None: self.tr("no decision")}
        tips = {
            "confirmed": self.tr("The text was copied: it counts in the copied share"),
            "own-work": self.tr("The applicant's own earlier work: not counted"),
            "cited": self.tr("Quoted with its source named: not counted"),
            "common-knowledge": self.tr("Common knowledge of the field: not counted"),
            "not-relevant": self.tr("The match means nothing (a coincidence, a standard phrase): not counted"),
            None: self.tr("Take the decision back"),
        }
        for choice, text in words.items():
            button = QRadioButton(text)
            button.setObjectName(f"decision-{choice or 'none'}")
            button.setToolTip(tips[choice])
            self.group.addButton(button)
            self.buttons[choice] = button
            layout.addWidget(button)
        current = decision.choice if decision is not None else "confirmed"
        self.buttons.get(current, self.buttons["confirmed"]).setChecked(True)
        layout.addWidget(QLabel(self.tr("Note (printed in the reports):")))
        self.note = QPlainTextEdit()
        self.note.setObjectName("decisionNote")
        self.note.setPlainText(decision.note if decision is not None else "")
        self.note.setMaximumHeight(90)
        layout.addWidget(self.note)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        box.accepted.connect(self._ok)
        box.rejected.connect(self.reject)
        layout.addWidget(box)
        self.resize(480, self.sizeHint().height())

    def _ok(self) -> None:
        self.choice = next(c for c, b in self.buttons.items() if b.isChecked())
        self.accept()

    def note_text(self) -> str:
        return self.note.toPlainText().strip()


def _html(text: str) -> str:
    import html

    return html.escape(text)


# --- the window's part ----------------------------------------------------------------------------------


class ExaminerActions(QObject):
    """What the main window does with the examiner's records: "Import applicants (CSV)…" in its
    File menu, "Set applicant…" on chosen documents or submissions, "Decide…" on a pair; each runs
    as the window's task, after which the window shows every result again
    (``window.after_records_changed``)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.import_action = QAction(window)
        self.import_action.setObjectName("importApplicantsAction")
        self.import_action.triggered.connect(lambda _checked=False: self.import_csv())
        self.dialogs: list[QDialog] = []  # (open ones: kept alive until answered)

    def retranslate(self) -> None:
        self.import_action.setText(self.tr("Import &applicants (CSV)…"))
        self.import_action.setToolTip(self.tr("A CSV of path,applicant lines naming the applicants of the "
                                              "collection's files (paths relative to its folder)"))

    def set_enabled(self, on: bool) -> None:
        self.import_action.setEnabled(on)

    # -- applicants ----------------------------------------------------------------------------

    def import_csv(self, path: str = "") -> None:
        w = self.window
        if not w.db_path:
            return
        if not path:
            path, _ = QFileDialog.getOpenFileName(w, self.tr("Import applicants"), w.folder or "",
                                                  self.tr("CSV files (*.csv *.txt);;All files (*)"))
        if path:
            w._start("records", import_applicants_csv, w.db_path, path, w.folder or "", on_done=self._imported)

    def _imported(self, imported: ImportedApplicants) -> None:
        w = self.window
        w.statusBar().showMessage(self.tr("Applicants of {n} files read; {c} changed.").format(
            n=imported.files, c=len(imported.changed)), 10000)
        if imported.problems:
            box = QMessageBox(QMessageBox.Icon.Information, self.tr("neardup"),
                              self.tr("Some lines of the CSV were not used:"), parent=w)
            box.setObjectName("applicantsProblems")
            box.setInformativeText("\n".join(imported.problems[:12]) + (
                "\n" + self.tr("…and {n} more").format(n=len(imported.problems) - 12) if len(imported.problems) > 12 else ""))
            box.open()
            self.dialogs.append(box)
            box.finished.connect(lambda _r, b=box: self._forget(b))
        w.after_records_changed()

    def set_applicants(self, files: Sequence[tuple[str, str, str, Applicants]]) -> ApplicantDialog | None:
        """Ask for the applicants of ``files`` (``(shown name, path, sha256, applicants now)``)."""
        w = self.window
        files = [f for f in files if f[1]]
        if not w.db_path or not files:
            return None
        dialog = ApplicantDialog([f[0] for f in files], [f[3] for f in files], w)
        dialog.accepted.connect(lambda: w._start("records", name_applicants, w.db_path, [(p, sha) for _, p, sha, _ in files],
                                                 dialog.names, on_done=lambda _n: w.after_records_changed()))
        self._open(dialog)
        return dialog

    # -- decisions -----------------------------------------------------------------------------

    def decide_pair(self, pair: Pair) -> DecisionDialog | None:
        """Ask for the examiner's decision on a pair of the collection."""
        w = self.window
        if not w.db_path or pair is None:
            return None
        dialog = DecisionDialog(pair.a.rel or pair.a.path, pair.b.rel or pair.b.path, pair.decision, w)
        dialog.accepted.connect(lambda: w._start(
            "records", decide_pair, w.db_path, (pair.a.sha256, pair.a.path), (pair.b.sha256, pair.b.path),
            dialog.choice, dialog.note_text(), on_done=lambda _d: w.after_records_changed()))
        self._open(dialog)
        return dialog

    def _open(self, dialog: QDialog) -> None:
        self.dialogs.append(dialog)
        dialog.finished.connect(lambda _r, d=dialog: self._forget(d))
        dialog.open()

    def _forget(self, dialog: QDialog) -> None:
        if dialog in self.dialogs:
            self.dialogs.remove(dialog)
        dialog.deleteLater()
