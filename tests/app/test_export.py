"""Report export from the window: the four formats written in a worker thread, outcome on the GUI thread."""

from __future__ import annotations

import json
import subprocess

import pytest
from PySide6.QtCore import QThread
from PySide6.QtWidgets import QApplication, QFileDialog, QMainWindow

from neardup_gui.app import colours
from neardup_gui.app.export import FILTERS, start_export, with_extension, export_report
from neardup_gui.core.collection import Collection
from neardup_gui.core.report import html as report_html
from report_corpus import SETTINGS, shared_collection


@pytest.fixture(scope="module")
def db(tmp_path_factory, corpus_dir):
    return shared_collection(tmp_path_factory, corpus_dir)


def test_report_colours_are_the_diff_views_in_a_light_theme(qapp):
    light = QApplication.style().standardPalette()
    assert [colours.match_colour(i, light).name() for i in range(len(report_html.PALETTE))] == list(report_html.PALETTE)
    assert (colours.muted_foreground(light).name(), colours.muted_background(light).name()) == (
        report_html.MUTED_FOREGROUND, report_html.MUTED_BACKGROUND)


def test_the_chosen_format_gives_the_extension():
    assert with_extension("/x/report", "PDF document (*.pdf)") == "/x/report.pdf"
    assert with_extension("/x/report.csv", "PDF document (*.pdf)") == "/x/report.csv"
    assert with_extension("/x/report.v2", "JSON data (*.json)") == "/x/report.v2.json"
    assert [ext for _, ext in FILTERS] == ["html", "pdf", "csv", "json"]


@pytest.mark.parametrize("ext", ["html", "pdf", "csv", "json"])
def test_export_writes_in_the_background(qtbot, qapp, db, tmp_path, ext):
    planted, path = db
    out = tmp_path / f"report.{ext}"
    threads = []
    job = start_export(None, "pairs", str(path), SETTINGS, str(out))
    job.progress.connect(lambda f, m: threads.append(QThread.currentThread() is qapp.thread()))
    with qtbot.waitSignal(job.done, timeout=60000) as blocker:
        pass
    assert blocker.args == [str(out)] and job.outcome == "done"
    assert threads and all(threads)  # progress arrived on the GUI thread
    data = out.read_bytes()
    if ext == "html":
        assert b"Content-Security-Policy" in data and "重新提交.txt".encode() in data
    elif ext == "pdf":
        assert data.startswith(b"%PDF")
        fonts = subprocess.run(["pdffonts", str(out)], capture_output=True, text=True, check=True).stdout
        assert "NotoSansCJK" in fonts and all(" yes " in line for line in fonts.splitlines()[2:])
    elif ext == "csv":
        assert data.startswith(b"\xef\xbb\xbf") and data.count(b"\r\n") >= 5
    else:
        assert json.loads(data)["summary"]["scope"] == "pairs"


def test_check_export_of_given_results_and_a_failure_reported(qtbot, db, tmp_path):
    planted, path = db
    with Collection.open(path, create=False) as coll:
        results = coll.check([str(planted.submission)], SETTINGS)
    out = tmp_path / "check.json"
    job = start_export(None, "check", str(path), SETTINGS, str(out), items=results)
    with qtbot.waitSignal(job.done, timeout=60000):
        pass
    assert json.loads(out.read_text(encoding="utf-8"))["submissions"][0]["document"]["path"] == str(planted.submission)
    failing = start_export(None, "check", str(path), SETTINGS, str(tmp_path / "none.html"))  # no results given
    with qtbot.waitSignal(failing.failed, timeout=60000) as blocker:
        pass
    assert "check results" in blocker.args[0] and failing.outcome == "failed"
    assert not (tmp_path / "none.html").exists()


def test_export_report_asks_for_a_file_and_writes_it(qtbot, db, tmp_path, monkeypatch):
    planted, path = db
    window = QMainWindow()
    qtbot.addWidget(window)
    target = tmp_path / "from-dialog"
    asked = []

    def choose(parent, caption, directory, filters, selected):
        asked.append((caption, directory, filters))
        return str(target), "PDF document (*.pdf)"

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(choose))
    with Collection.open(path, create=False) as coll:
        folder = coll.folder
    export_report(window, "clusters", str(path), SETTINGS, folder=folder)
    # a sensible name in the collection's folder (or home), never in the index's hidden folder
    import datetime
    import os

    suggested = asked[0][1]
    assert suggested.endswith(f"duplicate clusters {datetime.date.today().isoformat()}.html")
    assert os.path.dirname(suggested) != os.path.dirname(str(path)) and "*.pdf" in asked[0][2]
    assert os.path.dirname(suggested) in (folder, os.path.expanduser("~"))
    written = tmp_path / "from-dialog.pdf"
    qtbot.waitUntil(lambda: "Report written" in window.statusBar().currentMessage(), timeout=60000)
    assert written.read_bytes().startswith(b"%PDF")


def test_export_writes_the_report_in_the_language_it_is_given(qtbot, qapp, db, tmp_path):
    """(issues 18.6 / 19.5) The app passes its interface language: a Chinese export reads Chinese;
    without one given, the job takes the interface's (report_language) on the GUI thread."""
    from neardup_gui.app.export import ExportJob, report_language

    planted, path = db
    out = tmp_path / "pairs.html"
    job = start_export(None, "pairs", str(path), SETTINGS, str(out), lang="zh_CN")
    with qtbot.waitSignal(job.done, timeout=60000):
        pass
    page = out.read_text(encoding="utf-8")
    assert ">概要</h2>" in page and ">文档对排序</h2>" in page and ">Summary</h2>" not in page
    assert ExportJob(str(path), "pairs", SETTINGS, str(out)).lang == report_language()


def test_the_worker_holds_no_reference_to_the_job(qtbot, qapp, db, tmp_path):
    """The worker thread is given what it needs, never the job: holding it, it could drop the last
    reference after its last signal, and the job (a QObject of the GUI thread) and its relay were
    deleted on the worker thread while the GUI thread delivered their events (a segmentation
    fault once in CI, after the export test above)."""
    import gc
    import threading

    from PySide6.QtCore import QThreadPool

    from neardup_gui.app.export import ExportJob

    _, path = db
    pool = QThreadPool()
    pool.setMaxThreadCount(1)
    gate = threading.Event()
    pool.start(lambda: gate.wait(60))  # the export waits in the queue: its runnable exists, unrun
    job = ExportJob(str(path), "pairs", SETTINGS, str(tmp_path / "pairs.json")).start(pool)
    try:
        holders = [r for r in gc.get_referrers(job) if isinstance(r, dict) and any(v is job for v in r.values())]
        assert holders == []  # (before: the queued runnable's attributes held it)
    finally:
        gate.set()
    with qtbot.waitSignal(job.done, timeout=60000):
        pass
    assert job.wait(60) and pool.waitForDone(60000)
    assert json.loads((tmp_path / "pairs.json").read_text(encoding="utf-8"))


def test_a_job_deleted_while_its_worker_writes_costs_nothing(qtbot, qapp, db, tmp_path):
    """The window closed while a report was written: the job is deleted on the GUI thread, the
    worker (holding only the process's relay, never deleted) finishes the file and its news goes
    nowhere; nothing is deleted under the other thread."""
    import gc
    import threading

    from PySide6.QtCore import QThreadPool

    from neardup_gui.app.export import ExportJob
    from neardup_gui.app.relay import relay

    _, path = db
    pool = QThreadPool()
    pool.setMaxThreadCount(1)
    gate = threading.Event()
    pool.start(lambda: gate.wait(60))
    job = ExportJob(str(path), "pairs", SETTINGS, str(tmp_path / "pairs.json")).start(pool)
    assert job._relay is relay()  # (the process's relay: never deleted, see app/relay.py)
    ended = job._ended
    heard: list[str] = []
    job.done.connect(heard.append)
    job.deleteLater()
    del job
    qtbot.wait(50)
    gc.collect()
    gate.set()
    assert ended.wait(60) and pool.waitForDone(60000)
    qtbot.wait(100)
    assert heard == []  # (the job is gone: nothing delivered to it)
    assert json.loads((tmp_path / "pairs.json").read_text(encoding="utf-8"))


def test_a_window_freed_just_after_its_report_was_written_costs_nothing(qtbot, qapp, db, tmp_path):
    """A window (and its status bar) freed as soon as its report is written, twenty times: the
    job was a child of the window, deleted later, and the window's going deleted it first — a
    segmentation fault or an abort on a corrupted heap within a few rounds. Now the job has no
    Qt parent, is held until it has ended and let go of from the event loop."""
    import gc

    from neardup_gui.app import export

    _, path = db
    offered = []

    def write(round_: int) -> None:  # (its window is freed when it returns, as a test's was)
        window = QMainWindow()
        out = tmp_path / f"clusters-{round_}.html"
        job = export.start_export_with_feedback(window, "clusters", str(path), SETTINGS, str(out))
        job.done.connect(offered.append)
        qtbot.waitUntil(lambda: "Report written" in window.statusBar().currentMessage(), timeout=60000)

    for round_ in range(20):
        write(round_)
        gc.collect()
        qtbot.wait(5)
    qtbot.waitUntil(lambda: not export._RUNNING, timeout=5000)  # every job let go of
    assert len(offered) == 20 and all((tmp_path / f"clusters-{k}.html").exists() for k in range(20))


def test_a_report_whose_window_is_gone_is_written_and_says_nothing(qtbot, qapp, db, tmp_path):
    from neardup_gui.app import export

    _, path = db
    window = QMainWindow()
    job = export.start_export_with_feedback(window, "clusters", str(path), SETTINGS, str(tmp_path / "r.html"))
    window.deleteLater()
    with qtbot.waitSignal(job.done, timeout=60000):
        pass  # (no "already deleted" error from the feedback: the window is gone, nothing is said)
    assert (tmp_path / "r.html").exists()
