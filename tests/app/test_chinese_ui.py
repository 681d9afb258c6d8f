"""The Chinese interface shows no English: every label, button, header, menu, title, tooltip and
message of every screen — welcome, each tab with results, the side by side, the submission view,
settings and help — is Chinese, apart from names (neardup, PDF, Ctrl+K, r) and the documents'
own names."""

from __future__ import annotations

import shutil

from neardup_gui.app.mainwindow import MainWindow
from neardup_gui.app.paths import index_path_for
from tests.app.conftest import SCREENS_FORMS
from tests.app.uiwalk import english_words, prepare, texts, visit


def english_in(top, where: str) -> list[tuple[str, str, list[str]]]:
    return [(f"{where}: {w}", t, english_words(t)) for w, t in texts(top) if english_words(t)]


def test_the_chinese_interface_shows_no_english(qtbot, screens_collection, tmp_path) -> None:
    collection, db = screens_collection
    target = index_path_for(collection)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(db, target)
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.translations.switch("zh_CN")
    try:
        window.resize(1280, 800)
        window.show()
        qtbot.waitExposed(window)
        qtbot.waitUntil(lambda: window.tabs.tabText(2) == "重复对", timeout=60_000)  # (the switch, delivered)
        found = []
        submission = tmp_path / "resubmitted-en-01.docx"
        shutil.copy(collection / "en-01-coastal-erosion.docx", submission)
        found += english_in(window, "welcome")
        prepare(qtbot, window, collection, collection.parent / "call", submission, SCREENS_FORMS)
        for screen, widget in visit(qtbot, window):
            found += english_in(widget, screen)
        assert not found, "\n".join(f"{w}: {e} in {t[:120]!r}" for w, t, e in found)
    finally:
        window.translations.switch("en")
        window.close()
