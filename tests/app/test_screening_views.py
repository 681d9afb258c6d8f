"""The Screening tab and the submission view, driven as the examiner drives them (pytest-qt)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QPushButton

from neardup_gui.app.diffview import DiffView
from neardup_gui.app.mainwindow import MainWindow
from neardup_gui.app.paths import index_path_for
from neardup_gui.app import colours
from neardup_gui.app.submissionview import SubmissionView, source_colour
from neardup_gui.core.palette import MUTED_BACKGROUND, MUTED_FOREGROUND
from neardup_gui.core.collection import Collection
from neardup_gui.core.screening import load_screening
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import Store

FORMS = tuple(str(Path(__file__).resolve().parents[2] / "resources" / "sample_src" / f"_form-{lang}.md")
              for lang in ("zh", "en"))
PLANTED = {"zh-01-水稻抗旱基因.docx", "zh-02-水稻干旱响应调控.pdf", "en-01-coastal-erosion.docx",
           "en-02-shoreline-retreat.pdf", "zh-03-城市内涝预警.docx", "zh-04-山区滑坡监测.txt",
           "en-03-wastewater-resistance.pdf", "en-04-hospital-surfaces.docx"}


@pytest.fixture(scope="module")
def indexed_sample(tmp_path_factory, sample_dir: Path) -> Path:
    db = tmp_path_factory.mktemp("sample-index") / "sample.sqlite"
    with Collection.open(db) as collection:
        collection.index_folder(str(sample_dir.resolve()), Settings())
        collection.pairs(Settings())
    return db


@pytest.fixture
def window(qtbot, indexed_sample: Path, sample_dir: Path):
    target = index_path_for(sample_dir)
    target.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(indexed_sample) + suffix)
        if src.exists():
            shutil.copy(src, str(target) + suffix)
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    with qtbot.waitSignal(w.duplicates_ready, timeout=120000):
        w.open_folder(str(sample_dir))
    qtbot.waitUntil(lambda: not w.runner.is_busy(), timeout=60000)  # (the kept screenings are read too)
    yield w
    w.close()


@pytest.fixture
def screened(qtbot, window: MainWindow, sample_dir: Path) -> MainWindow:
    """The sample's submissions screened as a call against the sample collection.

    The sample mixes two calls' forms (each in 5 of its 30 proposals, far from the automatic
    template rule's "nearly every document"): the examiner gives them as template files first."""
    with qtbot.waitSignal(window.duplicates_ready, timeout=180000):
        window.apply_settings(window.settings.with_(template_files=FORMS), window.language_setting)
    with qtbot.waitSignal(window.screening_ready, timeout=180000):
        window.screen_folder(str(sample_dir))
    return window


def test_the_screening_table_ranks_the_planted_copies_first(qtbot, screened: MainWindow) -> None:
    page = screened.screening_page
    assert screened.tabs.currentWidget() is page
    rows = page.visible_rows()
    assert len(rows) == 30
    assert {r.rel for r in rows[:8]} == PLANTED
    copied = [r.copied for r in rows]
    assert copied == sorted(copied, reverse=True)
    assert "30 submissions" in page.summary.text() and "8 at or above" in page.summary.text()
    # sortable: by name, then back by copied share
    page.view.sortByColumn(1, Qt.SortOrder.AscendingOrder)
    names = [r.rel for r in page.visible_rows()]
    assert names == sorted(names, key=str.lower)
    page.view.sortByColumn(2, Qt.SortOrder.DescendingOrder)
    assert {r.rel for r in page.visible_rows()[:8]} == PLANTED
    # filterable: text, and the flagged ones only, at a line the examiner moves
    page.filter.setText("zh-0")
    shown = page.visible_rows()
    # the filter matches the submission or its largest source: zh-12 shares one 10-unit run of
    # stock phrasing with zh-03 (resources/sample/EXPECTED.md), found since anchors are 8-grams,
    # and one 8-character phrase with zh-04, found since a check proposes every document sharing
    # a run of the minimum run
    assert all("zh-0" in r.rel or "zh-0" in Path(r.largest_source).name for r in shown)
    assert sum("zh-0" in r.rel for r in shown) == 9 and len(shown) >= 10
    page.filter.clear()
    page.flagged_only.setChecked(True)
    assert {r.rel for r in page.visible_rows()} == PLANTED
    page.flag_spin.setValue(60)
    assert {r.rel for r in page.visible_rows()} == {"zh-01-水稻抗旱基因.docx", "zh-02-水稻干旱响应调控.pdf",
                                                   "en-01-coastal-erosion.docx", "en-02-shoreline-retreat.pdf"}
    assert "4 at or above" in page.summary.text()


def test_without_applicants_the_columns_of_own_work_are_left_out(qtbot, screened: MainWindow) -> None:
    """No applicant known: "copied without own documents" would repeat "copied" and the
    applicants' column would be empty, taking the width the names need at 1024 px; both are
    hidden (the model keeps them: naming an applicant shows them, test_examiner_views)."""
    page = screened.screening_page
    assert not any(r.applicants for r in page.visible_rows())
    for column in (page.model.WITHOUT_OWN_COLUMN, page.model.APPLICANTS_COLUMN):
        assert page.view.isColumnHidden(column)
    assert not page.view.isColumnHidden(page.model.FLAG_COLUMN)
    # the warnings' and the integrity flags' columns are shown only when some submission has one
    model = page.model
    for column in (model.WARNINGS_COLUMN, model.FLAGS_COLUMN):
        said = [model.index(row, column).data() for row in range(model.rowCount())]
        assert page.view.isColumnHidden(column) == (not any(said))
    assert not any(r.flags for r in page.visible_rows()) and page.view.isColumnHidden(model.FLAGS_COLUMN)


def test_the_flag_reads_whole_in_a_narrow_window(qtbot, screened: MainWindow) -> None:
    """At 1024 px the table is wider than the window: names are elided in their middle, but a
    text column keeps its first words (a flag read as "f…d" says nothing)."""
    page = screened.screening_page
    screened.resize(1024, 700)
    qtbot.wait(50)
    qtbot.waitUntil(lambda: page.view.columnWidth(page.model.FLAG_COLUMN)
                    >= page.view.fontMetrics().horizontalAdvance("flagged"), timeout=5000)


def test_screenings_are_reopened_in_a_new_window(qtbot, screened: MainWindow, sample_dir: Path) -> None:
    screened.screening_page.flag_spin.setValue(45)
    qtbot.waitUntil(lambda: not screened.runner.is_busy(), timeout=30000)
    with Store(screened.db_path) as store:  # the flag line is kept with the screening
        assert load_screening(store, "sample").info.flag == pytest.approx(0.45)
    screened.close()
    w = MainWindow()
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.screening_ready, timeout=60000):
        w.open_folder(str(sample_dir))
    assert w.screening_page.combo.currentText() == "sample"
    assert {r.rel for r in w.screening_page.visible_rows()[:8]} == PLANTED
    assert w.screening_page.flag_spin.value() == 45
    w.close()


def test_a_cancelled_screening_is_shown_as_interrupted_and_resumes(qtbot, window: MainWindow, sample_dir: Path) -> None:
    with qtbot.waitSignal(window.duplicates_ready, timeout=180000):  # the forms given (see ``screened``)
        window.apply_settings(window.settings.with_(template_files=FORMS), window.language_setting)
    # cancelled at once: the worker stops at its next progress report (reading the files takes
    # worker processes, far longer than the next line of this test)
    window.screen_folder(str(sample_dir))
    task = window.main_task
    task.cancel()
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=120000)
    assert task.outcome == "cancelled"
    with qtbot.waitSignal(window.screening_ready, timeout=60000):
        window.open_screening("sample")
    assert "interrupted" in window.screening_page.summary.text()
    assert len(window.screening_page.visible_rows()) < 30
    with qtbot.waitSignal(window.screening_ready, timeout=180000):
        window.screening_page.rescreen()
    assert len(window.screening_page.visible_rows()) == 30
    assert "interrupted" not in window.screening_page.summary.text()
    assert {r.rel for r in window.screening_page.visible_rows()[:8]} == PLANTED


def _open(qtbot, w: MainWindow, rel: str) -> SubmissionView:
    with qtbot.waitSignal(w.submission_opened, timeout=60000) as blocker:
        w.open_submission("sample", rel)
    return blocker.args[0]


def test_each_row_opens_the_submission_view(qtbot, screened: MainWindow) -> None:
    page = screened.screening_page
    index = page.proxy.index(0, 0)
    with qtbot.waitSignal(screened.submission_opened, timeout=60000) as blocker:
        page.view.activated.emit(index)
    view = blocker.args[0]
    assert view.detail.row.rel == page.visible_rows()[0].rel
    assert view.legend.count() >= 1


def test_submission_view_colours_toggles_and_excludes(qtbot, screened: MainWindow) -> None:
    view = _open(qtbot, screened, "zh-04-山区滑坡监测.txt")
    assert view.isVisible()
    first = view.detail.sources[0]
    assert first.name == "zh-03-城市内涝预警.docx"
    colour = source_colour(view.palette(), 1).name()
    assert colour in view.text.toHtml()
    assert "42." in view.figures.text() or "43." in view.figures.text()
    [hot] = [f for f in view.section_figures if f.share > 0.5]
    assert hot.section.title == "技术路线"
    # the window's section figures are the committee report's (passages counted in both)
    from neardup_gui.core.report.committee import build_submission_report

    with Store(screened.db_path) as store:
        report = build_submission_report(store, view.detail.screening.name, view.detail.row.rel, screened.settings)
    assert [(f.section.title, f.copied, f.share) for f in view.section_figures] == [
        (r.title, r.copied, r.share) for r in report.sections]
    # untick the source: the figures and colours follow at once
    view.set_source_counted(first.rank, False)
    # (zh-12 shares one 8-character phrase with it: 1 %)
    assert view.summary.copied_ratio_without_template < 0.02
    assert colour not in view.text.toHtml()
    assert "1.0%" in view.figures.text()
    view.set_source_counted(first.rank, True)
    assert view.summary.copied_ratio_without_template > 0.4
    # exclude it for this submission: remembered in the index, the screening's row follows
    with qtbot.waitSignal(screened.screening_ready, timeout=60000):
        view.exclude_button.click()
    assert view.detail.sources[0].excluded and view.exclude_button.text() == "Count this source again"
    row = {r.rel: r for r in screened.screening_page.visible_rows()}["zh-04-山区滑坡监测.txt"]
    assert row.copied < 0.02
    with Store(screened.db_path) as store:
        assert load_screening(store, "sample").rows[-1].status == "done"
    with qtbot.waitSignal(screened.screening_ready, timeout=60000):
        view.exclude_button.click()
    assert not view.detail.sources[0].excluded


def test_clicking_a_passage_opens_it_beside_its_source(qtbot, screened: MainWindow) -> None:
    view = _open(qtbot, screened, "en-04-hospital-surfaces.docx")
    rank = view.detail.sources[0].rank
    assert f'href="passage:{rank}:0"' in view.text.toHtml()
    with qtbot.waitSignal(view.diff_opened, timeout=60000) as blocker:
        view.text.anchorClicked.emit(QUrl(f"passage:{rank}:0"))
    diff = blocker.args[0]
    assert isinstance(diff, DiffView)
    assert diff.diff.title_b == "en-03-wastewater-resistance.pdf" and diff.current_match >= 0


def test_the_submission_view_shows_edited_words_apart(qtbot, screened: MainWindow) -> None:
    """A light edit of an indexed proposal: its identical text in the source's colour, the words
    the applicant changed in the lighter shade of it, as in the side-by-side view and the report."""
    view = _open(qtbot, screened, "en-02-shoreline-retreat.pdf")
    exact, edited = colours.passage_shades(0, view.palette())
    shown = view.text.toHtml()
    assert exact.name() in shown and edited.name() in shown
    from neardup_gui.core.report.committee import build_submission_report
    from neardup_gui.core.report.model import EDITED

    with Store(screened.db_path) as store:
        report = build_submission_report(store, view.detail.screening.name, view.detail.row.rel, screened.settings)
    words = [s.text for s in report.full_text if s.kind == EDITED and s.match == 0]
    assert words and all(w in view.detail.text for w in words)


def test_colours_follow_the_palette_light_and_dark() -> None:
    light, dark = QPalette(), colours.dark_fusion_palette()
    light.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
    light.setColor(QPalette.ColorRole.Text, QColor("#000000"))
    for n in range(1, 9):
        assert source_colour(light, n).lightnessF() > 0.7
        assert source_colour(dark, n).lightnessF() < 0.4
    hues = {source_colour(light, n).hslHue() // 20 for n in range(1, 7)}
    assert len(hues) == 6  # neighbouring sources are told apart
    assert colours.muted_colours(light) == (QColor(MUTED_FOREGROUND), QColor(MUTED_BACKGROUND))
    assert colours.muted_colours(dark)[0].lightnessF() < colours.text(dark).lightnessF()


def test_a_source_has_one_colour_on_screen_and_on_paper() -> None:
    """Source n of the submission view and of the committee's report: the same two shades (its
    text and its edited words), from the one colour function (the report was green where the
    window was lavender)."""
    from neardup_gui.core.report.committee_html import _colour
    from neardup_gui.core.report.html import _QT_STYLES

    light = QPalette()
    light.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
    for n in range(1, 12):
        exact, edited = colours.passage_shades(n - 1, light)
        assert source_colour(light, n) == exact
        css = _colour(n)  # the report's class of source n: m<k>, its edited words e<k>
        assert f"background-color:{exact.name()};" in _QT_STYLES[css]
        assert f"background-color:{edited.name()};" in _QT_STYLES["e" + css[1:]]


def test_duplicates_ranked_by_containment_list_the_section_copies(qtbot, window: MainWindow) -> None:
    page = window.duplicates_page
    by_similarity = {frozenset({p.a.rel, p.b.rel}) for p in page.model.records()}
    section_copy = frozenset({"zh-03-城市内涝预警.docx", "zh-04-山区滑坡监测.txt"})
    assert section_copy not in by_similarity  # r ≈ 0.27: below the similarity threshold
    with qtbot.waitSignal(window.containment_ready, timeout=120000):  # computed when asked for
        page.order.setCurrentIndex(1)
    shown = page.model.records()
    names = {frozenset({p.a.rel, p.b.rel}) for p in shown}
    assert section_copy in names
    assert {frozenset({"en-03-wastewater-resistance.pdf", "en-04-hospital-surfaces.docx"}),
            frozenset({"en-01-coastal-erosion.docx", "en-02-shoreline-retreat.pdf"})} <= names
    assert all(max(p.containment_a, p.containment_b) >= 0.3 for p in shown)
    contained = [max(p.containment_a, p.containment_b) for p in shown]
    assert contained == sorted(contained, reverse=True)
    assert "at least 30.0% of one document" in page.summary.text()


def test_the_check_tab_writes_the_committee_report_in_the_interface_language(
        qtbot, window: MainWindow, sample_dir: Path, tmp_path: Path, monkeypatch) -> None:
    from PySide6.QtCore import QLocale
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from neardup_gui.app import export

    asked: list[str] = []

    def choose(parent, caption, directory, filters, selected):
        asked.append(directory)
        return str(tmp_path / "report.html"), "HTML report (*.html)"

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(choose))
    opened: list[str] = []
    monkeypatch.setattr(export, "open_file", lambda p: opened.append(p) or True)
    QLocale.setDefault(QLocale("zh_CN"))
    try:
        with qtbot.waitSignal(window.check_ready, timeout=60000):
            window.check_files([str(sample_dir / "zh-04-山区滑坡监测.txt")])
        window.check_page.report_button.click()
        qtbot.waitUntil(lambda: window.findChild(QMessageBox, "reportWrittenBox") is not None, timeout=60000)
    finally:
        QLocale.setDefault(QLocale("en_US"))
    # suggested next to the submission, with a name a committee recognises
    assert Path(asked[0]).parent == sample_dir and Path(asked[0]).name.startswith("zh-04-山区滑坡监测 - 相似性检测报告 ")
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "总文字复制比" in page and "zh-03-城市内涝预警.docx" in page
    box = window.findChild(QMessageBox, "reportWrittenBox")
    box.findChild(QPushButton, "openReportButton").click()
    assert opened == [str(tmp_path / "report.html")]


def test_the_summary_names_the_files_of_a_call_that_are_not_screened(qtbot, window: MainWindow, sample_dir: Path,
                                                                     tmp_path: Path) -> None:
    call = tmp_path / "call"
    call.mkdir()
    shutil.copy(sample_dir / "en-05-dementia-speech.txt", call)
    for name in ("budget.xlsx", "form.png"):
        (call / name).write_bytes(b"not a document neardup reads")
    with qtbot.waitSignal(window.screening_ready, timeout=180000):
        window.screen_folder(str(call))
    page = window.screening_page
    assert page.summary.text().startswith("<b>1 submission</b> in ")  # (not "1 submissions")
    assert page.summary.text().endswith(" · 2 other files left out (not a format neardup reads)")
    assert page.summary.toolTip().splitlines() == [
        "Not screened: neardup reads .docx .doc .wps .pdf .txt .odt .rtf .md .html .docm .dot .dotm .dotx .htm .wpt .gz "
        "files, and by its content a file "
        "named without a type (README, ls.1).", "budget.xlsx", "form.png"]


def test_a_submission_not_read_is_a_row_with_its_reason_in_the_interface_language(
        qtbot, window: MainWindow, tmp_path: Path, sample_dir: Path) -> None:
    """A call's submission saved under a GBK name: a row, its reason translated (before: the
    English reason in a Chinese window, and a column so wide that the names were cut to "en-0…")."""

    from tests.core.test_undecodable_names import GBK_PROPOSAL, bytes_path

    call = tmp_path / "call"
    call.mkdir()
    shutil.copy(sample_dir / "en-02-shoreline-retreat.pdf", call / "en-02-shoreline-retreat.pdf")
    shutil.copyfile(sample_dir / "en-01-coastal-erosion.docx", bytes_path(call, GBK_PROPOSAL))
    window.apply_settings(window.settings, "zh_CN")  # (the language only: nothing is computed again)
    try:
        qtbot.waitUntil(lambda: not window.runner.is_busy(), timeout=60000)
        with qtbot.waitSignal(window.screening_ready, timeout=180000):
            window.screen_folder(str(call))
        # (the columns are fitted once the event loop is back, and again when the table is
        # resized; on a loaded machine the last fitting may still be queued here)
        page = window.screening_page
        qtbot.waitUntil(lambda: page.view.columnWidth(page.model.WARNINGS_COLUMN)
                        <= max(240, page.view.viewport().width() // 3), timeout=5000)
        _the_row_not_read_is_translated(window)
    finally:  # (the interface's language is the application's: the next tests read English)
        window.apply_settings(window.settings, "en")
        window.translations.switch("en")


def _the_row_not_read_is_translated(window: MainWindow) -> None:
    page = window.screening_page
    rows = {r.rel: r for r in page.model.records()}
    shown = "\\xc9\\xea\\xc7\\xeb\\xca\\xe9.docx"
    assert set(rows) == {"en-02-shoreline-retreat.pdf", shown} and rows[shown].status == "skipped"
    row = page.model.records().index(rows[shown])
    text = page.model.index(row, page.model.WARNINGS_COLUMN).data()
    assert text == "未读取：文件名不是有效的 UTF-8 编码（按 GBK 编码读作“申请书.docx”）：请重命名该文件（索引无法保存这个文件名）"
    assert text in page.model.index(row, page.model.WARNINGS_COLUMN).data(Qt.ItemDataRole.ToolTipRole)
    assert page.view.columnWidth(page.model.WARNINGS_COLUMN) <= max(240, page.view.viewport().width() // 3)
    assert "1 份无法读取" in page.summary.text()
