"""Layouts that hold at 1024×700, and with the text at 200 %, in English and Chinese: the window
stays that size, no label or button is cut, no table header is clipped, names are elided in their
middle, and every screen with results (each tab, the submission view, the side by side, settings,
help) is looked at."""

from __future__ import annotations

import shutil
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QTableView, QTreeView

from neardup_gui.app.columns import header_of
from neardup_gui.app.mainwindow import MainWindow
from neardup_gui.app.paths import index_path_for
from neardup_gui.app.widgets import ElidedLabel
from tests.app.uiwalk import prepare, shown_widgets, visit

SIZE = (1024, 700)


def problems(top) -> list[str]:  # noqa: ANN001
    """What ``top`` shows cut: a label or button narrower than its text, a wrapped label shorter
    than its lines, a table header narrower than its words, a name not elided in its middle."""
    found = []
    for w in shown_widgets(top):
        if not w.isVisible() or w.width() <= 0:
            continue
        name = f"{type(w).__name__}#{w.objectName()}"
        if isinstance(w, ElidedLabel):
            continue  # (elides by design, the whole name in its tooltip)
        if isinstance(w, QLabel) and w.text() and not w.wordWrap():
            if w.width() + 1 < w.minimumSizeHint().width():
                found.append(f"{name} cut: {w.text()[:60]!r} ({w.width()} < {w.minimumSizeHint().width()})")
        elif isinstance(w, QLabel) and w.text() and w.wordWrap():
            if w.height() + 1 < w.heightForWidth(w.width()):
                found.append(f"{name} lines cut: {w.text()[:60]!r}")
        elif isinstance(w, QAbstractButton) and w.text():
            if w.width() + 1 < w.minimumSizeHint().width():
                found.append(f"{name} cut: {w.text()!r}")
        elif isinstance(w, (QTableView, QTreeView)) and hasattr(w, "column_fit") or hasattr(
                w.parent(), "column_fit") and getattr(w.parent(), "column_fit").view is w:
            fit = getattr(w, "column_fit", None) or w.parent().column_fit
            header = header_of(w)
            assert w.textElideMode() == Qt.TextElideMode.ElideMiddle
            for c in range(header.count()):
                if not header.isSectionHidden(c) and header.sectionSize(c) + 1 < fit.needed_width(c):
                    title = w.model().headerData(c, Qt.Orientation.Horizontal)
                    found.append(f"{name} header {title!r} clipped ({header.sectionSize(c)} < {fit.needed_width(c)})")
    return found


@pytest.mark.parametrize("text_scale", [1.0, 2.0])
def test_every_screen_holds_at_1024_by_700(qtbot, qapp, screens_collection, tmp_path, text_scale) -> None:
    """In English, then in Chinese after a live switch (a header once kept its English width)."""
    collection, db = screens_collection
    target = index_path_for(collection)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(db, target)
    font = qapp.font()
    if text_scale != 1.0:
        larger = qapp.font()
        larger.setPointSizeF(font.pointSizeF() * text_scale)
        qapp.setFont(larger)
    window = MainWindow()
    qtbot.addWidget(window)
    try:
        window.resize(*SIZE)
        window.show()
        qtbot.waitExposed(window)
        submission = tmp_path / "resubmitted-en-01.docx"
        shutil.copy(collection / "en-01-coastal-erosion.docx", submission)
        prepare(qtbot, window, collection, collection.parent / "call", submission)
        found = []
        for language, tab in (("en", "Duplicates"), ("zh_CN", "重复对")):
            assert window.translations.switch(language)
            qtbot.waitUntil(lambda: window.tabs.tabText(2) == tab, timeout=60_000)
            for screen, widget in visit(qtbot, window):
                widget.resize(*SIZE)
                qtbot.wait(50)  # (the columns are fitted once the event loop is back)
                if (widget.width(), widget.height()) != SIZE:
                    found.append(f"{language} {screen}: {widget.width()}×{widget.height()}, not {SIZE[0]}×{SIZE[1]}")
                found += [f"{language} {screen}: {p}" for p in problems(widget)]
        assert not found, "\n".join(found)
    finally:
        window.translations.switch("en")
        window.close()
        qapp.setFont(font)
