"""Integrity flags in the window: the documents list and the screening table (a column and a
filter), the check summary, and the submission view with the flagged places underlined
(a real index and screening of disguised copies; pytest-qt, offscreen)."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QPalette

from neardup_gui.app.checkview import CheckView
from neardup_gui.app.documentsview import DocumentsView
from neardup_gui.app.models import DocumentsModel
from neardup_gui.app.screeningview import ScreeningModel, ScreeningView
from neardup_gui.app.submissionview import FLAG_COLOUR, submission_html
from neardup_gui.core.collection import Collection
from neardup_gui.core.screening import screen_folder, submission_detail
from neardup_gui.core.settings import Settings
from tests import disguises as dz


@pytest.fixture(scope="module")
def screened(tmp_path_factory):
    """A collection of one page; a call of its plain copy, a Cyrillic copy and a white-letter DOCX."""
    from tests.corpus import corpus_dir

    page = (corpus_dir() / "debian-reference-en" / "ch01-010.txt").read_text(encoding="utf-8")
    tmp = tmp_path_factory.mktemp("flags")
    coll, call = tmp / "collection", tmp / "call"
    coll.mkdir()
    call.mkdir()
    (coll / "page.txt").write_text(page, encoding="utf-8")
    rng = random.Random(7)
    cyrillic = dz.look_alikes(page, rng)
    (call / "cyrillic.txt").write_text(cyrillic.text, encoding="utf-8")
    (call / "plain.txt").write_text(page, encoding="utf-8")
    glued = dz.glued_letters(page, rng)
    dz.write_docx(call / "white.docx", glued, "white")
    settings = Settings(workers=1)
    collection = Collection.open(tmp / "c.ndx")
    collection.index_folder(str(call), settings)  # (the call's own files: the documents list below)
    docs = collection.documents()
    collection.close()
    with Collection.open(tmp / "main.ndx") as main:
        main.index_folder(str(coll), settings)
        screening = screen_folder(main, str(call), settings)
        details = {r.rel: submission_detail(main.store, screening.info.id, r.rel) for r in screening.rows}
        checked = main.check([str(call / "cyrillic.txt")], settings)[0]
    return docs, screening, details, checked, cyrillic, glued


def test_the_documents_list_shows_and_filters_the_flags(qtbot, screened):
    docs = screened[0]
    view = DocumentsView()
    qtbot.addWidget(view)
    view.set_documents(docs)
    proxy = view.proxy
    cells = {proxy.record_at(proxy.index(r, 0)).rel: proxy.index(r, DocumentsModel.FLAGS_COLUMN).data()
             for r in range(proxy.rowCount())}
    assert cells["plain.txt"] == ""
    assert cells["cyrillic.txt"].startswith("replaced characters ")
    assert cells["white.docx"] == f"hidden text {screened[5].flags['hidden']:,}"
    view.with_flags.setChecked(True)
    assert sorted(proxy.record_at(proxy.index(r, 0)).rel for r in range(proxy.rowCount())) == ["cyrillic.txt", "white.docx"]
    tip = proxy.index(0, DocumentsModel.FLAGS_COLUMN).data(Qt.ItemDataRole.ToolTipRole)
    assert "left out of every figure" in tip


def test_the_screening_table_has_a_flags_column_and_filter(qtbot, screened):
    screening = screened[1]
    view = ScreeningView()
    qtbot.addWidget(view)
    view.set_screening(screening)
    assert view.model.headerData(ScreeningModel.FLAGS_COLUMN, Qt.Orientation.Horizontal) == "Integrity flags"
    assert not view.view.isColumnHidden(ScreeningModel.FLAGS_COLUMN)  # (shown: some submission is flagged)
    view.with_flags.setChecked(True)
    assert sorted(r.rel for r in view.visible_rows()) == ["cyrillic.txt", "white.docx"]
    view.with_flags.setChecked(False)
    assert len(view.visible_rows()) == 3
    # the flagged copies rank with the plain one: the disguise hid nothing
    assert {round(r.copied, 2) for r in view.visible_rows()} == {1.0}


def test_the_submission_view_underlines_the_flagged_places(qtbot, screened):
    details, glued = screened[2], screened[5]
    palette = QPalette()
    underline = f'<span style="text-decoration:underline; color:{FLAG_COLOUR};">'
    detail = details["cyrillic.txt"]
    html = submission_html(detail, detail.sources, {s.rank: i for i, s in enumerate(detail.sources, 1)}, palette)
    assert html.count(underline) == len(detail.row.flags[0].spans) > 0
    white = details["white.docx"]
    html = submission_html(white, white.sources, {s.rank: i for i, s in enumerate(white.sources, 1)}, palette)
    assert html.count(underline) == glued.flags["hidden"]
    assert not any(flag for flag in details["plain.txt"].row.flags)


def test_the_check_summary_says_the_flags(qtbot, tmp_path, screened):
    checked = screened[3]
    view = CheckView(QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(view)
    view.set_results([checked])
    text = view.summary_label.text()
    assert "Integrity flags:" in text and f"Replaced characters: {checked.flags[0].count:,} in" in text
