"""What the examiner has is never lost by the window: Refresh (or rebuild) with the collection's
folder gone — a drive not connected, a folder renamed — says so and changes nothing in the
index (before, a refresh emptied it); a subfolder that cannot be read keeps its documents; a
second call in a folder of the same name is a second screening."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from neardup_gui.app.mainwindow import MainWindow
from neardup_gui.app.paths import index_path_for

ROOT = Path(__file__).resolve().parents[2]


def _indexed_in_new_process(db: Path) -> list[str]:
    code = ("import json; from neardup_gui.core.collection import Collection; "
            f"c = Collection.open({str(db)!r}, create=False); "
            "print(json.dumps(sorted(d.rel for d in c.documents() if d.status == 'indexed')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


ZH = "本项目研究水稻抗旱基因的功能与分子育种应用。" * 3
EN = "This proposal studies coastal erosion with coupled models. " * 3


def _opened(qtbot, folder: Path, files: dict[str, str]) -> MainWindow:
    """A window showing a new collection of ``files`` (name in the folder -> text), indexed."""
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.open_folder(str(folder))
    return window


def test_refresh_and_rebuild_with_the_folder_gone_change_nothing(qtbot, no_blocking_dialogs, tmp_path):
    folder = tmp_path / "proposals"
    window = _opened(qtbot, folder, {"a.txt": ZH, "b.txt": EN})
    db = index_path_for(folder)
    assert _indexed_in_new_process(db) == ["a.txt", "b.txt"]
    folder.rename(tmp_path / "proposals-moved")
    for action in (window.refresh, window.rebuild):
        with qtbot.waitSignal(window.task_failed, timeout=60_000) as failed:
            action()
        assert failed.args == ["The collection's folder cannot be read."]
        assert window.last_error[1].startswith("Nothing in the index was changed")
        dialog = window._error_dialogs[-1]
        assert dialog.isVisible() and dialog.advice.text().endswith("proposals: no such folder")
        assert not dialog.details.isVisible() and not dialog.copy_button.isVisible()  # nothing to copy
        dialog.reject()
        qtbot.waitUntil(lambda: not window.is_busy(), timeout=60_000)
        # the window still shows the documents, the index still holds them, none set aside
        assert {d.rel for d in window.documents_page.model.records()} == {"a.txt", "b.txt"}
        assert _indexed_in_new_process(db) == ["a.txt", "b.txt"]
        assert not list(db.parent.glob(db.name + ".unusable-*"))
    window.close()


def test_a_folder_emptied_is_asked_about_and_no_keeps_everything(qtbot, no_blocking_dialogs, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    folder = tmp_path / "share"
    window = _opened(qtbot, folder, {"a.txt": ZH, "b.txt": EN})
    db = index_path_for(folder)
    for f in folder.iterdir():
        f.rename(tmp_path / f.name)  # the share "unmounted": its mount point left empty
    answers = [QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes]
    asked = []

    def question(parent, title, text, *args, **kwargs):
        asked.append(text)
        return answers[len(asked) - 1]

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    with qtbot.waitSignal(window.task_failed, timeout=60_000) as failed:
        window.refresh()
    assert failed.args == ["The collection's folder holds no documents now."]
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=60_000)  # (asked once the failed task is wound up)
    assert "holds no documents now, while this collection's index holds 2" in asked[0]
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=60_000)
    assert _indexed_in_new_process(db) == ["a.txt", "b.txt"]  # No: nothing changed
    assert not window._error_dialogs  # (asked, not an error shown)
    with qtbot.waitSignal(window.collection_loaded, timeout=60_000):
        window.refresh()  # asked again; Yes: the documents deleted on purpose leave the index
    assert len(asked) == 2 and window.last_report.removed == 2
    assert _indexed_in_new_process(db) == []
    window.close()


def test_the_reasons_a_folder_cannot_be_read_are_said_in_chinese(qapp):
    from neardup_gui.app.i18n import Translations
    from neardup_gui.app.models import localise_reason

    translations = Translations(qapp)
    try:
        assert translations.switch("zh_CN")
        assert localise_reason("no such folder") == "文件夹不存在"
        assert localise_reason("not a folder") == "不是文件夹"
        assert localise_reason("folder cannot be read: permission denied").startswith("无法读取文件夹")
    finally:
        translations.switch("en")



def test_a_subfolder_that_cannot_be_read_is_kept_and_the_status_bar_says_so(qtbot, no_blocking_dialogs, tmp_path):
    folder = tmp_path / "proposals"
    window = _opened(qtbot, folder, {"a.txt": EN, "2024/b.txt": ZH})
    (folder / "2024").rename(tmp_path / "2024")
    (folder / "2024").symlink_to(folder / "2024")  # a link to itself: it cannot be looked at
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.refresh()
    assert (window.last_report.removed, window.last_report.unread) == (0, 1)
    assert "1 document kept as it was: its folder could not be read." in window.statusBar().currentMessage()
    assert {d.rel for d in window.documents_page.model.records() if d.status == "indexed"} == {"a.txt", "2024/b.txt"}
    window.close()


def test_two_calls_in_folders_of_the_same_name_are_two_screenings(qtbot, no_blocking_dialogs, tmp_path):
    """The window names a screening as the core does: "submissions" of 2024 and of 2025 are both
    kept (the second "submissions (2)"); before, the window named it after the folder itself and
    the 2025 call replaced the 2024 one."""
    window = _opened(qtbot, tmp_path / "collection", {"a.txt": ZH, "b.txt": EN})
    for year, text in (("2024", ZH), ("2025", EN)):
        call = tmp_path / year / "submissions"
        call.mkdir(parents=True)
        (call / f"{year}.txt").write_text(text, encoding="utf-8")
        with qtbot.waitSignal(window.screening_ready, timeout=120_000):
            window.screen_folder(str(call))
    combo = window.screening_page.combo
    assert sorted(combo.itemText(i) for i in range(combo.count())) == ["submissions", "submissions (2)"]
    window.close()


def test_files_an_earlier_reader_read_are_read_again_and_the_status_bar_says_so(qtbot, no_blocking_dialogs, tmp_path):
    """An index of an earlier version (no reader version in its documents): a refresh reads the
    text files again, as this version reads them, and says so (extract.READER_VERSIONS)."""
    import sqlite3

    folder = tmp_path / "proposals"
    window = _opened(qtbot, folder, {"a.txt": EN, "b.txt": ZH})
    with sqlite3.connect(index_path_for(folder)) as conn:
        conn.execute("UPDATE documents SET meta = json_remove(meta, '$.reader')")
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.refresh()
    assert (window.last_report.updated, window.last_report.reread, window.last_report.unchanged) == (2, 2, 0)
    assert "2 unchanged files read again: this version reads their format differently." in (
        window.statusBar().currentMessage())
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.refresh()
    assert (window.last_report.reread, window.last_report.unchanged) == (0, 2)
    assert "read again" not in window.statusBar().currentMessage()
    window.close()
