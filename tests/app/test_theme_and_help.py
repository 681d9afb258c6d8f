"""Colours from the palette (light and dark), zoom of both panes, F1 help, Chinese where it was missing."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QPalette, QWheelEvent
from PySide6.QtWidgets import QApplication

from neardup_gui.app import colours
from neardup_gui.app.diffview import DiffInput, DiffView
from neardup_gui.app.main import apply_style
from neardup_gui.app.mainwindow import MainWindow
from neardup_gui.app.models import DocumentsModel, localise_reason
from neardup_gui.core.collection import compare_files
from neardup_gui.core.results import DocumentInfo
from neardup_gui.core.settings import Settings


@pytest.fixture
def dark(qapp):
    """The application in a dark Fusion palette (as a Breeze Dark user gets), restored after."""
    old_palette, old_style = qapp.palette(), qapp.styleSheet()
    qapp.setPalette(colours.dark_fusion_palette())
    apply_style(qapp)
    yield qapp
    qapp.setPalette(old_palette)
    qapp.setStyleSheet(old_style)


def background_of(widget) -> QColor:
    """The colour the widget paints behind its text (its centre pixel, away from the text)."""
    image = widget.grab().toImage()
    return image.pixelColor(3, image.height() // 2)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_banner_and_summary_read_in_light_and_dark(qtbot, qapp, theme, request):
    if theme == "dark":
        request.getfixturevalue("dark")
    else:
        apply_style(qapp)
    palette = qapp.palette()
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.stack.setCurrentWidget(window.workspace)
    window.notice.setText("This is the saved index; files may have changed since.")
    window.notice.setVisible(True)
    window.check_page.summary_label.setText("Copied: 18.4% of 1200 countable units")
    window.check_page.summary_label.setVisible(True)
    qtbot.waitExposed(window)
    for label in (window.notice, window.check_page.summary_label):
        bg = background_of(label)
        fg = label.palette().color(QPalette.ColorRole.WindowText)
        assert colours.contrast(fg, bg) >= 4.5, (label.objectName(), fg.name(), bg.name())
        # dark theme: a dark background under light text (it was a pale box with pale text)
        assert (bg.lightness() < 128) == (theme == "dark"), (label.objectName(), bg.name())
    for i in range(8):
        assert colours.contrast(colours.text(palette), colours.match_colour(i, palette)) >= 4.5
    window.close()


def test_side_by_side_in_dark_has_readable_highlights_and_zooms_both_panes(qtbot, dark, text_pair, tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(text_pair[0], encoding="utf-8")
    b.write_text(text_pair[1], encoding="utf-8")
    comp, ta, tb = compare_files(str(a), str(b), Settings())
    view = DiffView(DiffInput(ta, tb, comp, "a.txt", "b.txt", str(a), str(b)))
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    selection = view.pane_a.extraSelections()[-1]
    bg, fg = selection.format.background().color(), selection.format.foreground().color()
    assert colours.contrast(fg, bg) >= 4.5 and bg.lightness() < 128
    base = view.pane_a.font().pointSizeF()
    view.zoom_by(2)
    assert view.pane_a.font().pointSizeF() == view.pane_b.font().pointSizeF() == base + 2
    # Ctrl+wheel over one pane zooms both
    wheel = QWheelEvent(QPointF(20, 20), QPointF(20, 20), QPoint(0, 0), QPoint(0, 120), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.ControlModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.pane_b.viewport(), wheel)
    assert view.pane_a.font().pointSizeF() == view.pane_b.font().pointSizeF() == base + 3
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow, timeout=30_000)
    qtbot.keyClick(view.pane_a, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert view.pane_a.font().pointSizeF() == view.pane_b.font().pointSizeF() == base


def test_f1_opens_help_in_english_and_chinese(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=30_000)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    help_dialog = window.help_dialog
    assert help_dialog.isVisible()
    page = help_dialog.browser.toPlainText()
    assert "Largest single source" in page and "F3 / Shift+F3" in page and "never below the largest single source" in page
    try:
        assert window.translations.switch("zh_CN")
        qtbot.waitUntil(lambda: "最大" in help_dialog.browser.toPlainText(), timeout=30_000)
        zh = help_dialog.browser.toPlainText()
        assert "快捷键" in zh and "F3 / Shift+F3" in zh
        # the progress panel too (its Cancel button stayed in English after a switch)
        assert window.progress_panel.cancel_button.text() == "取消"
        # skip reasons and the file dialogs' filters are Chinese too
        assert localise_reason("scanned PDF: no text layer") == "扫描版 PDF：没有文字层"
        assert localise_reason("file is 250.0 MB, over the 200 MB limit") == "文件大小 250.0 MB，超过 200 MB 的上限"
        assert localise_reason("damaged PDF: xref table broken") == "PDF 已损坏：xref table broken"  # detail kept
        assert localise_reason("an archive (.zip): unpack it and check the documents inside") == \
            "压缩包（.zip）：请解压后检测其中的文档"
        assert localise_reason("something new") == "something new"  # unknown: shown as it is
        assert window.tr("Documents ({patterns});;All files (*)").startswith("文档")
    finally:
        window.translations.switch("en")
    window.close()


def test_the_reason_column_tooltip_is_the_reason(qapp):
    model = DocumentsModel()
    info = DocumentInfo(doc_id=1, path="/c/scan.pdf", rel="scan.pdf", size=1, sha256="", status="skipped",
                        reason="scanned PDF: no text layer")
    model.set_records([info])
    assert model.data(model.index(0, DocumentsModel.REASON_COLUMN), Qt.ItemDataRole.ToolTipRole) == "scanned PDF: no text layer"
    assert model.data(model.index(0, 0), Qt.ItemDataRole.ToolTipRole) == "/c/scan.pdf"
    assert model.headerData(DocumentsModel.REASON_COLUMN, Qt.Orientation.Horizontal) == "Reason"
