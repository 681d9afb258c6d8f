"""Issue 14 in the window: the Common passages tab (exclude / count / undo, persisted and re-derived),
rings in the Clusters tab, what was left out in the check header, the automatic-template switch."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt

from neardup_gui.app.appsettings import load_settings, save_settings
from neardup_gui.app.mainwindow import MainWindow
from neardup_gui.app.settingsdialog import SettingsDialog
from neardup_gui.core.collection import Collection
from neardup_gui.core.settings import Settings
from tests import template_cases as tc



def _open(qtbot, window: MainWindow, folder: Path, threshold: float) -> None:
    # a new collection starts from the window's defaults
    window.defaults = window.settings = window.defaults.with_(threshold=threshold, workers=2)
    with qtbot.waitSignal(window.duplicates_ready, timeout=120_000):
        window.open_folder(str(folder))


def _row_of(window: MainWindow, needle: str) -> int:
    page = window.common_page
    rows = [r for r, p in enumerate(page.passages) if needle in p.text]
    assert len(rows) == 1, rows
    return rows[0]


def _b_pairs(window: MainWindow) -> int:
    return sum(1 for p in window.pairs if "call-b" in p.a.rel and "call-b" in p.b.rel)


def test_common_passages_tab_excludes_counts_and_undoes(qtbot, window, tmp_path) -> None:
    root, _ = tc.two_forms_collection(tmp_path, a=7, b=5)  # form A in 58 % (automatic), B in 42 %
    _open(qtbot, window, root, 0.3)
    page = window.common_page
    window.tabs.setCurrentWidget(page)
    form_a, form_b = _row_of(window, tc.FORM_A[1]), _row_of(window, tc.FORM_B[1])
    assert page.passages[form_a].status == "automatic" and page.passages[form_b].status == "counted"
    assert page.model.item(form_b, 1).text().startswith("5 ")
    assert "not counted" in page.model.item(form_a, 2).text()
    assert _b_pairs(window) > 0  # form B counts: its proposals look alike
    assert "at least 6 documents" in page.summary.text()  # half of 12

    # one click: exclude form B; the index keeps it and every result is derived again
    page.view.setCurrentIndex(page.model.index(form_b, 0))
    assert page.exclude_button.isEnabled() and not page.undo_button.isEnabled()
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        qtbot.mouseClick(page.exclude_button, Qt.MouseButton.LeftButton)
    assert _b_pairs(window) == 0
    row = _row_of(window, tc.FORM_B[1])
    assert page.passages[row].status == "marked" and page.view.currentIndex().row() == row
    with Collection.open(window.db_path, create=False) as coll:  # stored in the index
        assert [m.action for m in coll.store.template_marks()] == ["exclude"]

    # undo: form B counts again
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        qtbot.mouseClick(page.undo_button, Qt.MouseButton.LeftButton)
    assert _b_pairs(window) > 0 and page.passages[_row_of(window, tc.FORM_B[1])].status == "counted"

    # count the automatic form A: its pairs appear; the check header says what is left out
    page.view.setCurrentIndex(page.model.index(_row_of(window, tc.FORM_A[1]), 0))
    assert page.count_button.isEnabled()
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        qtbot.mouseClick(page.count_button, Qt.MouseButton.LeftButton)
    assert any("call-a" in p.a.rel and "call-a" in p.b.rel for p in window.pairs)
    assert page.passages[_row_of(window, tc.FORM_A[1])].by_examiner


def test_check_header_states_what_was_left_out(qtbot, window, tmp_path) -> None:
    root, _ = tc.form_collection(tmp_path)
    _open(qtbot, window, root, 0.5)
    assert window.pairs == []  # the call's form is automatic template
    with qtbot.waitSignal(window.check_ready, timeout=60_000):
        window.check_files([str(root / "proposal-03.txt")])
    text = window.check_page.summary_label.text()
    assert "Left out, by reason:" in text and "automatic template" in text


def test_a_ring_is_flagged_with_every_pair(qtbot, window, tmp_path) -> None:
    case = tc.ring_collection(tmp_path, documents=60)
    _open(qtbot, window, case.root, 0.5)
    page = window.clusters_page
    window.tabs.setCurrentWidget(page)
    rings = [r for r in range(page.model.rowCount()) if page.model.item(r, 0).text().startswith("Ring")]
    assert len(rings) == 1
    assert page.current_cluster() is not None and page.current_cluster().ring
    table = page.pairwise
    assert table.rowCount() == table.columnCount() == 7
    values = [float(table.item(x, y).text().rstrip("%")) for x in range(7) for y in range(7) if x != y]
    assert len(values) == 42 and min(values) >= 70.0
    assert "Ring" in page.pairwise_label.text()


def test_the_automatic_template_switch_is_kept(qtbot, tmp_path) -> None:
    dialog = SettingsDialog(Settings(), "")
    qtbot.addWidget(dialog)
    assert dialog.auto_template.isChecked() and dialog.template_min_share.isEnabled()
    dialog.auto_template.setChecked(False)
    assert not dialog.template_min_share.isEnabled()
    settings = dialog.result_settings()
    assert settings.auto_template is False
    store = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    save_settings(store, settings)
    again = load_settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    assert again.auto_template is False and again.template_min_share == Settings().template_min_share


def test_text_selected_side_by_side_is_marked_as_template(qtbot, window, tmp_path) -> None:
    from PySide6.QtGui import QTextCursor

    root, _ = tc.two_forms_collection(tmp_path, a=7, b=5)
    _open(qtbot, window, root, 0.3)
    pair = next(p for p in window.pairs if "call-b" in p.a.rel and "call-b" in p.b.rel)
    with qtbot.waitSignal(window.diff_opened, timeout=60_000) as opened:
        window.open_pair_diff(pair.a.doc_id, pair.b.doc_id)
    view = opened.args[0]
    text = view.pane_a.toPlainText()
    start = text.index(tc.FORM_B[1])
    cursor = view.pane_a.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start + len(tc.FORM_B[1]), QTextCursor.MoveMode.KeepAnchor)
    view.pane_a.setTextCursor(cursor)
    assert view.mark_template_button.isEnabled() and view.selected_text() == tc.FORM_B[1]
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        qtbot.mouseClick(view.mark_template_button, Qt.MouseButton.LeftButton)
    # the mark is listed (with the form it belongs to) and can be undone there; the pair lost it
    holder = [p for p in window.common_page.passages if tc.FORM_B[1] in p.text]
    assert len(holder) == 1 and len(holder[0].mark_ids) == 1
    with Collection.open(window.db_path, create=False) as coll:
        marks = coll.store.template_marks()
        assert [(m.action, m.text) for m in marks] == [("exclude", tc.FORM_B[1])]
    after = next(p for p in window.pairs if {p.a.doc_id, p.b.doc_id} == {pair.a.doc_id, pair.b.doc_id})
    assert after.similarity < pair.similarity
    view.close()


def test_a_selection_without_a_whole_sentence_is_not_marked_and_says_why(qtbot, window, tmp_path) -> None:
    """The check is made in the task, not on the GUI thread; nothing is stored, the status bar says why."""
    root, _ = tc.two_forms_collection(tmp_path, a=3, b=3)
    _open(qtbot, window, root, 0.3)
    window.mark_text_as_template("two words")
    qtbot.waitUntil(lambda: "whole sentence" in window.statusBar().currentMessage(), timeout=60_000)
    with Collection.open(window.db_path, create=False) as coll:
        assert coll.store.template_marks() == []


def test_copies_in_half_the_folder_are_shown_as_counted_copies(qtbot, window, tmp_path) -> None:
    """Five copies of one proposal among eight files (the automatic rule's frequency): in the
    window their pairs are listed, and the Common passages tab says why their text counts."""
    import shutil

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "ingest"
    folder = tmp_path / "folder"
    folder.mkdir()
    for i, source in enumerate(("zh.docx", "zh.doc", "zh.wps", "zh.docm", "zh.docx")):
        shutil.copy(fixtures / source, folder / f"copy-{i}{Path(source).suffix}")
    for source in ("en.docx", "report.odt", "en.dotx"):
        shutil.copy(fixtures / source, folder / source)
    _open(qtbot, window, folder, 0.9)
    copies = [p for p in window.pairs if p.a.rel.startswith("copy-") and p.b.rel.startswith("copy-")]
    assert len(copies) == 10 and all(p.similarity == 1.0 for p in copies)
    page = window.common_page
    rows = [r for r, p in enumerate(page.passages) if p.documents == 5]
    assert len(rows) == 1 and page.passages[rows[0]].copied
    assert page.model.item(rows[0], 2).text() == "counted: its documents copy one another"
    assert "unless the documents holding it copy one another" in page.summary.text()
