"""Applicants and decisions in the window, driven as the examiner drives them (pytest-qt).

A call where X resubmits their own indexed proposal, Y copies half of it and Z writes their own
(applicants from the files' author metadata): the screening table says whose each text is; a
decision taken in Y's submission view changes the figures as it says, outlives quitting the
window, a refresh and a rebuild of the index, and is printed in the committee report.
"""

from __future__ import annotations

import html
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel

from tests.applicants_case import NAMES, make_call
from neardup_gui.app.examiner import ApplicantDialog, DecisionDialog
from neardup_gui.app.export import write_report_file
from neardup_gui.app.mainwindow import MainWindow
from neardup_gui.app.submissionview import SubmissionView


@pytest.fixture
def call(tmp_path: Path) -> tuple[Path, Path]:
    collection, folder, _, _ = make_call(tmp_path, metadata=True)
    return collection, folder


def _window(qtbot, collection: Path) -> MainWindow:
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    with qtbot.waitSignal(w.duplicates_ready, timeout=180000):
        w.open_folder(str(collection))
    qtbot.waitUntil(lambda: not w.runner.is_busy(), timeout=60000)
    return w


def _screen(qtbot, w: MainWindow, folder: Path) -> dict:
    with qtbot.waitSignal(w.screening_ready, timeout=180000):
        w.screen_folder(str(folder), "call")
    return {r.rel: r for r in w.screening_page.visible_rows()}


def _open(qtbot, w: MainWindow, rel: str) -> SubmissionView:
    with qtbot.waitSignal(w.submission_opened, timeout=60000) as blocker:
        w.open_submission("call", rel)
    return blocker.args[0]


def _cell(page, rel: str, column: int) -> str:
    model = page.model
    row = next(i for i in range(model.rowCount()) if model.record(i).rel == rel)
    return model.index(row, column).data()


def test_the_screening_table_says_whose_text_it_is(qtbot, call) -> None:
    collection, folder = call
    w = _window(qtbot, collection)
    rows = _screen(qtbot, w, folder)
    page = w.screening_page
    assert [r.rel for r in page.visible_rows()][0] == "y-proposal.docx"  # ranked by copying from others
    assert not page.view.isColumnHidden(page.model.APPLICANTS_COLUMN)  # (shown once an applicant is known)
    assert not page.view.isColumnHidden(page.model.WITHOUT_OWN_COLUMN)
    assert _cell(page, "x-resubmission.docx", page.model.APPLICANTS_COLUMN) == f"{NAMES['x']} (file metadata)"
    assert _cell(page, "x-resubmission.docx", page.model.FLAG_COLUMN) == "resubmission / duplicate submission"
    assert _cell(page, "x-resubmission.docx", 3) == "0.0%" and _cell(page, "x-resubmission.docx", 2) == "100.0%"
    assert _cell(page, "y-proposal.docx", page.model.FLAG_COLUMN) == "flagged"
    assert abs(rows["y-proposal.docx"].copied_from_others - 0.5) < 0.06
    page.flagged_only.setChecked(True)
    assert [r.rel for r in page.visible_rows()] == ["y-proposal.docx"]
    page.flagged_only.setChecked(False)
    page.undecided_only.setChecked(True)  # (Z has no source: nothing to decide)
    assert {r.rel for r in page.visible_rows()} == {"x-resubmission.docx", "y-proposal.docx"}
    # the documents list names each document's applicants, with where that was said
    docs = w.documents_page.model
    named = {docs.record(i).rel: docs.index(i, docs.APPLICANTS_COLUMN).data() for i in range(docs.rowCount())}
    assert named["x-2024-proposal.docx"] == f"{NAMES['x']} (file metadata)"
    w.close()


def _decide(qtbot, view: SubmissionView, source: str, choice: str, note: str) -> None:
    row = next(i for i in range(view.legend.count()) if view._source(view.legend.item(i).data(256)).name == source)
    view.legend.setCurrentRow(row)
    dialog = view.decide()
    assert isinstance(dialog, DecisionDialog)
    dialog.buttons[choice].setChecked(True)
    dialog.note.setPlainText(note)
    with qtbot.waitSignal(view.exclusion_changed, timeout=60000):
        dialog._ok()


def test_a_decision_in_the_window_outlives_quit_refresh_and_rebuild_and_is_in_the_committee_report(
        qtbot, call, tmp_path: Path) -> None:
    collection, folder = call
    w = _window(qtbot, collection)
    _screen(qtbot, w, folder)
    view = _open(qtbot, w, "y-proposal.docx")
    assert view.summary.copied_from_others > 0.4
    with qtbot.waitSignal(w.screening_ready, timeout=60000):
        _decide(qtbot, view, "x-2024-proposal.docx", "cited", "quoted with reference [3]")
    # the figures follow the decision: the cited text is set apart, in every figure and list
    assert view.summary.copied_ratio == 0.0 and view.summary.set_apart > 0.4
    assert "set apart by your decisions" in view.figures.text()
    decided = next(s for s in view.detail.sources if s.name == "x-2024-proposal.docx")
    assert decided.decision.choice == "cited" and "permitted: cited" in view.legend.item(0).text() + \
        view.legend.item(1).text()
    row = {r.rel: r for r in w.screening_page.visible_rows()}["y-proposal.docx"]
    assert row.copied == 0.0 and not row.flagged(0.3) and row.decided == 1
    db = w.db_path
    view.close()
    w.close()
    # another process reads it
    listed = json.loads(subprocess.run([sys.executable, "-m", "neardup_gui.cli", "decide", "--list", "--db", db,
                                        "--json"], capture_output=True, text=True, check=True).stdout)
    assert [(d["decision"], d["note"], d["applied"]) for d in listed] == [("cited", "quoted with reference [3]", True)]
    # a new window, refreshed: still there
    w = _window(qtbot, collection)
    with qtbot.waitSignal(w.duplicates_ready, timeout=180000):
        w.refresh()
    rows = _screen(qtbot, w, folder)
    assert rows["y-proposal.docx"].copied == 0.0 and rows["y-proposal.docx"].decided == 1
    # rebuilt (the index set aside, a new one made): the decision is read back from beside it
    with qtbot.waitSignal(w.duplicates_ready, timeout=180000):
        w.rebuild()
    assert list(Path(db).parent.glob(Path(db).name + ".unusable-*"))
    rows = _screen(qtbot, w, folder)
    assert rows["y-proposal.docx"].copied == 0.0 and rows["y-proposal.docx"].decided == 1
    # the committee report prints it with its note and date, and both ratios
    out = tmp_path / "y-report.html"
    write_report_file(db, "submission", w.settings, str(out),
                      items={"screening": "call", "rel": "y-proposal.docx", "enabled": None, "lang": "zh_CN"})
    page = html.unescape(out.read_text(encoding="utf-8"))
    assert "去除本人文献复制比" in page and "总文字复制比" in page
    assert "审查人认定" in page and "允许：已注明引用" in page and "quoted with reference [3]" in page
    assert listed[0]["decided_at"].replace("T", " ")[:16] in page
    w.close()


def test_set_applicant_on_documents_and_decide_on_a_pair(qtbot, call) -> None:
    collection, folder = call
    shutil.copy(folder / "x-resubmission.docx", collection / "x-2025-other-programme.docx")  # (a duplicate submission)
    w = _window(qtbot, collection)
    page = w.documents_page
    model = page.model
    row = next(i for i in range(model.rowCount()) if model.record(i).rel == "other-0.docx")
    page.view.selectionModel().select(page.proxy.mapFromSource(model.index(row, 0)),
                                      QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows)
    page.applicant_button.click()
    dialog = next(d for d in w.examiner.dialogs if isinstance(d, ApplicantDialog))
    dialog.edit.setText(f"{NAMES['x']}; Co-applicant")
    with qtbot.waitSignal(w.duplicates_ready, timeout=120000):
        dialog._set()
    named = {model.record(i).rel: model.record(i).applicants for i in range(model.rowCount())}
    assert named["other-0.docx"].names == (NAMES["x"], "Co-applicant") and named["other-0.docx"].source == "examiner"
    # kept in the index, and beside it (what a rebuild starts from)
    side = Path(w.db_path + ".examiner.json")
    assert "Co-applicant" in side.read_text(encoding="utf-8")
    # the pair of one applicant's two proposals: marked as own work, decided, left out of "undecided only"
    pairs = w.duplicates_page
    [pair] = pairs.pairs
    assert pair.same_applicant and pairs.model.index(0, pairs.model.SAME_APPLICANT_COLUMN).data() == "own work"
    pairs.view.setCurrentIndex(pairs.proxy.index(0, 0))
    assert pairs.current_pair() == pair
    dialog = w.examiner.decide_pair(pair)
    dialog.buttons["own-work"].setChecked(True)
    dialog.note.setPlainText("the same proposal sent to a second programme")
    with qtbot.waitSignal(w.duplicates_ready, timeout=120000):
        dialog._ok()
    qtbot.waitUntil(lambda: not w.runner.is_busy(), timeout=60000)
    [pair] = pairs.pairs
    assert pair.decision.choice == "own-work" and pairs.model.index(0, pairs.model.DECISION_COLUMN).data() == \
        "permitted: own work"
    assert pairs.model.index(0, pairs.model.DECISION_COLUMN).data(1) is not None  # (its icon)
    pairs.undecided_only.setChecked(True)
    assert pairs.proxy.rowCount() == 0
    pairs.undecided_only.setChecked(False)
    w.close()
