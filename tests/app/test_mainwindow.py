"""User flows of the main window: first run, settings, language, errors (no collection needed)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from neardup_gui.app.appsettings import load_language, load_settings, open_store
from neardup_gui.app.errors import ErrorDialog, explain
from neardup_gui.app.mainwindow import MainWindow
from neardup_gui.app.widgets import localise_progress
from neardup_gui.app.settingsdialog import SettingsDialog
from neardup_gui.core.collection import IndexProblem


def make_window(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_first_run_shows_the_welcome_view(qtbot, isolated_home):
    window = make_window(qtbot)
    assert window.stack.currentWidget() is window.welcome
    assert window.welcome.open_button.text() == "Open a folder…"
    assert window.welcome.sample_button.text() == "Try the sample collection"
    assert "near-duplicate" in window.welcome.intro.text()
    assert not window.welcome.recent_list.isVisible()  # nothing recent yet
    assert not window.check_action.isEnabled()  # nothing to check against yet
    window.close()


def test_changing_a_setting_is_persisted(qtbot, isolated_home):
    window = make_window(qtbot)
    window.open_settings()
    dialog: SettingsDialog = window.settings_dialog
    assert dialog.isVisible()
    dialog.min_run.setValue(12)
    dialog.threshold.setValue(55)
    dialog.exclude_quotes.setChecked(True)
    assert not dialog.refingerprint_note.isVisible()
    dialog.fingerprint_size.setCurrentIndex(dialog.fingerprint_size.findData(512))
    assert dialog.refingerprint_note.isVisibleTo(dialog)  # says it needs re-fingerprinting
    dialog.accept()
    assert window.settings.min_run == 12
    assert window.settings.fingerprints.minhash_bits == 512
    window.close()
    stored = load_settings(open_store())
    assert (stored.min_run, stored.threshold, stored.exclude_quotes, stored.fingerprints.minhash_bits) == (12, 0.55, True, 512)
    assert (isolated_home / ".config" / "neardup" / "neardup.ini").is_file()
    # a new window starts with them
    again = make_window(qtbot)
    assert again.settings.min_run == 12
    again.close()


def test_switching_language_retranslates_the_open_window(qtbot):
    window = make_window(qtbot)
    assert window.tabs.tabText(2) == "Duplicates"
    window.open_settings()
    dialog = window.settings_dialog
    dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
    dialog.accept()
    try:
        assert window.translations.language == "zh_CN"
        qtbot.waitUntil(lambda: window.tabs.tabText(2) == "重复对", timeout=60_000)
        assert window.welcome.open_button.text() == "打开文件夹…"
        assert window.welcome.sample_button.text() == "试用示例文献库"
        assert window.documents_page.model.headerData(0, Qt.Orientation.Horizontal) == "文件"
        assert load_language(open_store()) == "zh_CN"
        # the core's progress messages are shown in Chinese too
        assert localise_progress("Indexed 3 of 30: zh-01.docx") == "已索引 3/30：zh-01.docx"
    finally:
        window.translations.switch("en")
    qtbot.waitUntil(lambda: window.tabs.tabText(2) == "Duplicates", timeout=60_000)
    assert localise_progress("Indexed 3 of 30: zh-01.docx") == "Indexed 3 of 30: zh-01.docx"
    window.close()


def test_errors_are_told_in_plain_words_with_copyable_details(qtbot):
    headline, advice = explain(IndexProblem("corrupt", "The index file x is truncated."))
    assert headline == "The index of this collection cannot be used."
    assert "rebuild" in advice
    headline, _ = explain(IndexProblem("busy", "busy"))
    assert headline == "The index is busy."
    dialog = ErrorDialog("Something went wrong.", "Copy the details.", "Traceback: line 1\nValueError: x")
    qtbot.addWidget(dialog)
    dialog.copy_details()
    assert QApplication.clipboard().text() == "Traceback: line 1\nValueError: x"


def test_dropping_files_without_a_collection_asks_to_open_one_first(qtbot, no_blocking_dialogs, tmp_path):
    window = make_window(qtbot)
    f = tmp_path / "submission.txt"
    f.write_text("一段文字", encoding="utf-8")
    window.handle_dropped([str(f)])
    assert no_blocking_dialogs and no_blocking_dialogs[-1][0] == "information"
    assert "Open a collection first" in no_blocking_dialogs[-1][1]
    assert window.stack.currentWidget() is window.welcome
    window.close()


def test_version_flag(capsys):
    from neardup_gui import __version__
    from neardup_gui.app.main import main

    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"neardup {__version__}"


def test_main_starts_the_window_with_its_ids_and_a_cjk_font(qtbot, monkeypatch):
    import sys

    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QGuiApplication

    from neardup_gui.app.main import APP_ID, main

    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # main installs its own; put it back after
    app = QApplication.instance()
    old_font, old_style = app.font(), app.styleSheet()
    seen: list[MainWindow] = []

    def close_window() -> None:
        seen.extend(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible())
        for w in seen:
            w.close()

    QTimer.singleShot(300, close_window)
    try:
        assert main([]) == 0
        assert QGuiApplication.desktopFileName() == APP_ID
        assert "Noto Sans CJK SC" in app.font().families()
        assert len(seen) == 1 and seen[0].stack.currentWidget() is seen[0].welcome
    finally:
        app.setFont(old_font)
        app.setStyleSheet(old_style)


def test_an_unexpected_exception_shows_a_dialog_instead_of_ending_the_app(qtbot, monkeypatch):
    import sys

    from neardup_gui.app.errors import install_exception_hook

    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    window = make_window(qtbot)
    shown = install_exception_hook(lambda: window)
    try:
        raise ZeroDivisionError("division by zero in a slot")
    except ZeroDivisionError:
        sys.excepthook(*sys.exc_info())
    assert len(shown) == 1
    dialog = shown[0]
    assert dialog.isVisible()
    assert dialog.headline.text() == "<b>Something went wrong.</b>"
    assert "ZeroDivisionError: division by zero in a slot" in dialog.details.toPlainText()
    dialog.reject()
    assert shown == []
    assert window.isVisible()
    window.close()


def test_a_damaged_index_is_set_aside_and_rebuilt_never_deleted(qtbot, no_blocking_dialogs, tmp_path):
    from neardup_gui.app.paths import index_path_for

    folder = tmp_path / "proposals"
    folder.mkdir()
    (folder / "a.txt").write_text("本项目研究水稻抗旱基因的功能与分子育种应用。" * 3, encoding="utf-8")
    (folder / "b.txt").write_text("This proposal studies coastal erosion with coupled models. " * 3, encoding="utf-8")
    damaged = index_path_for(folder)
    damaged.parent.mkdir(parents=True)
    damaged.write_bytes(b"SQLite format 3\x00" + b"\x13" * 3000)
    window = make_window(qtbot)
    with qtbot.waitSignal(window.collection_loaded, timeout=60_000):
        window.open_folder(str(folder))  # fails, asks (answered Yes), rebuilds
    assert window.last_error is not None
    assert window.last_error[0] == "The index of this collection cannot be used."
    assert any(kind == "question" and "Rebuild" in text for kind, text in no_blocking_dialogs)
    backups = list(damaged.parent.glob(damaged.name + ".unusable-*"))
    assert len(backups) == 1 and backups[0].read_bytes().startswith(b"SQLite format 3")
    assert {d.rel for d in window.documents_page.model.records()} == {"a.txt", "b.txt"}
    window.close()


def test_every_progress_message_of_the_core_is_said_in_chinese(qapp):
    """Each stage's words the core reports (found in its source: every ``progress(…, "…")``),
    shown in the window's language: before, "Finding common passages (12 documents read)",
    "Scanning the folder" (read as "Scanning" + a folder named "the folder"), "Reading the
    submissions", "Report ready" and seven others stood in English in the Chinese window."""
    import re
    from pathlib import Path

    from neardup_gui.app.i18n import Translations

    core = Path(__file__).resolve().parents[2] / "neardup_gui" / "core"
    call = re.compile(r'progress\(\s*[^"\n]*?,\s*f?"([^"]+)"\s*\)')
    messages = set()
    for path in core.rglob("*.py"):
        for template in call.findall(path.read_text(encoding="utf-8")):
            for n, noun in (("1", "document"), ("12", "documents")):
                text = re.sub(r"\{count_noun\([^}]*\)\}", f"{n} {noun}", template)
                messages.add(re.sub(r"\{[^}]*\}", "7", text))
    messages.add("Comparing 3 of 887")  # (the clusters' matrices, core/collection.py)
    assert len(messages) >= 20 and "Scanning the folder" in messages
    translations = Translations(qapp)
    try:
        assert translations.switch("zh_CN")
        untranslated = {m: localise_progress(m) for m in messages
                        if not re.search(r"[\u4e00-\u9fff]", localise_progress(m))}
        assert not untranslated
        assert localise_progress("Scanning the folder") == "正在扫描文件夹"
        assert localise_progress("Finding common passages (1 document read)") == "正在查找常见段落（已读 1 篇文档）"
    finally:
        translations.switch("en")
    assert localise_progress("Scanning the folder") == "Scanning the folder"
