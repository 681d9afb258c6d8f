"""File → Export a report: the current tab decides what is saved, and the file is written."""

from __future__ import annotations

import html.parser

from neardup_gui.app.export import start_export
from neardup_gui.app.mainwindow import MainWindow

TEXT = "本项目研究水稻抗旱基因的功能与分子育种应用，构建抗旱新种质并开展田间鉴定。" * 4
OTHER = "This proposal studies coastal erosion with coupled wave and sediment models on three beaches. " * 4


def test_export_follows_the_current_tab_and_writes_the_report(qtbot, tmp_path):
    folder = tmp_path / "proposals"
    folder.mkdir()
    (folder / "a.txt").write_text(TEXT, encoding="utf-8")
    (folder / "b.txt").write_text(OTHER, encoding="utf-8")
    submission = tmp_path / "new.txt"
    submission.write_text(TEXT + "另外补充了新的研究内容。", encoding="utf-8")
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignals([window.collection_loaded, window.duplicates_ready], timeout=60_000):
        window.open_folder(str(folder))
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=60_000)
    assert window.export_action.isEnabled()

    window.tabs.setCurrentIndex(2)
    assert window.export_scope() == ("pairs", None)
    window.tabs.setCurrentIndex(3)
    assert window.export_scope() == ("clusters", None)

    with qtbot.waitSignal(window.check_ready, timeout=60_000):
        window.check_files([str(submission)])
    scope, items = window.export_scope()
    assert scope == "check" and [r.path for r in items] == [str(submission)]

    out = tmp_path / "report.html"
    job = start_export(window, scope, window.db_path, window.settings, str(out), items)
    with qtbot.waitSignal(job.done, timeout=60_000) as done:
        pass
    assert done.args == [str(out)]
    page = out.read_text(encoding="utf-8")
    assert "a.txt" in page and "new.txt" in page
    html.parser.HTMLParser().feed(page)
    window.close()
