"""The Chinese interface shows no English: every label, button, header, menu, title, tooltip and
message of every screen — welcome, each tab with results, the side by side, the submission view,
settings and help — is Chinese, apart from names (neardup, PDF, Ctrl+K, r) and the documents'
own names."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from neardup_gui.app.mainwindow import MainWindow
from neardup_gui.app.paths import index_path_for
from neardup_gui.core.collection import Collection
from neardup_gui.core.settings import Settings
from tests.app.uiwalk import english_words, texts
from tests.conftest import SAMPLE

FORMS = tuple(str(SAMPLE.parent / "sample_src" / f"_form-{lang}.md") for lang in ("zh", "en"))
CALL = ("zh-04-山区滑坡监测.txt", "en-04-hospital-surfaces.docx", "zh-12-桥梁健康监测.txt")


@pytest.fixture(scope="module")
def indexed(tmp_path_factory) -> tuple[Path, Path]:
    """(a copy of the sample without the call's files, its index), and the call's folder beside it."""
    base = tmp_path_factory.mktemp("zh-ui")
    collection, call = base / "基金申请-2025", base / "call"
    shutil.copytree(SAMPLE, collection)
    call.mkdir()
    for name in CALL:
        shutil.move(str(collection / name), call / name)
    db = base / "index.sqlite"
    with Collection.open(db) as coll:
        coll.index_folder(str(collection), Settings(template_files=FORMS))
        coll.pairs(Settings(template_files=FORMS))
    return collection, db


def english_in(top, where: str) -> list[tuple[str, str, list[str]]]:
    return [(f"{where}: {w}", t, english_words(t)) for w, t in texts(top) if english_words(t)]


def test_the_chinese_interface_shows_no_english(qtbot, indexed, tmp_path) -> None:
    collection, db = indexed
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
        found = english_in(window, "welcome")
        with qtbot.waitSignal(window.duplicates_ready, timeout=180_000):
            window.open_folder(str(collection))
        qtbot.waitUntil(lambda: not window.runner.is_busy(), timeout=60_000)
        with qtbot.waitSignal(window.duplicates_ready, timeout=180_000):
            window.apply_settings(window.settings.with_(template_files=FORMS), window.language_setting)
        submission = tmp_path / "resubmitted-en-01.docx"
        shutil.copy(collection / "en-01-coastal-erosion.docx", submission)
        with qtbot.waitSignal(window.check_ready, timeout=180_000):
            window.check_files([str(submission)])
        with qtbot.waitSignal(window.screening_ready, timeout=180_000):
            window.screen_folder(str(collection.parent / "call"))
        found += english_in(window, "after the screening")  # (its status bar message)
        for i in range(window.tabs.count()):
            window.tabs.setCurrentIndex(i)
            found += english_in(window, window.tabs.tabText(i))
        with qtbot.waitSignal(window.submission_opened, timeout=60_000) as opened:
            window.open_submission(window.screening_page.current_name(), CALL[0])
        view = opened.args[0]
        found += english_in(view, "submission view")
        with qtbot.waitSignal(view.diff_opened, timeout=60_000) as shown:
            view.open_source(view.detail.sources[0].rank)
        found += english_in(shown.args[0], "side by side")
        window.open_settings()
        found += english_in(window.settings_dialog, "settings")
        window.settings_dialog.reject()
        window.show_help()
        found += english_in(window.help_dialog, "help")
        assert not found, "\n".join(f"{w}: {e} in {t[:120]!r}" for w, t, e in found)
    finally:
        window.translations.switch("en")
        window.close()
