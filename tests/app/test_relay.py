"""The process's relay (app/relay.py): a worker's news reaches its task on the GUI thread, and no Qt
object is ever deleted off the GUI thread, however late a worker lets go of its work.

CI's segmentation fault (the main thread in ``exec``, a pooled thread with no Python frame, about one
run in thirty) was a task's own relay freed by the worker just as the GUI thread freed the task:
Qt told the relay of the connection undone, and PySide looked that up on the relay's Python object
being freed. A worker that lets go of its work a few milliseconds late makes it certain: the
stress below crashed the code before in every one of six runs of 5,000 tasks, and report jobs,
which had a relay of their own too, in three of three."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from neardup_gui.app.relay import relay
from neardup_gui.app.tasks import TaskRunner

ROOT = Path(__file__).resolve().parents[2]

STRESS = textwrap.dedent("""
    import logging, random, sys, time
    logging.disable(logging.CRITICAL)
    from PySide6.QtWidgets import QApplication, QLabel
    from neardup_gui.app import tasks

    random.seed(7)
    run = tasks._Work.run
    def late(self):  # the worker lets go of its work (and all it holds) 0-3 ms after its last signal
        run(self)
        time.sleep(random.random() * 0.003)
    tasks._Work.run = late

    app = QApplication([])
    runner = tasks.TaskRunner(max_threads=2)
    label = QLabel()
    label.show()
    N = int(sys.argv[1])
    count = {"started": 0, "ended": 0}

    def work(i, progress):
        for k in range(i % 6):
            progress(k / 6, f"step {k}")
        if i % 3 == 0:
            raise ValueError(f"failed {i}")
        return [i] * 10

    def ended(*_):
        count["ended"] += 1
        label.setText(str(count["ended"]))
        if count["started"] < N:
            start()
        if count["ended"] >= N:
            app.quit()

    def start():
        count["started"] += 1
        runner.start("t", work, count["started"], on_done=ended, on_error=ended, on_cancelled=ended)

    start(); start()
    app.exec()
    assert runner.shutdown(60)
    print("ended", count["ended"])
""")


# The same for report jobs (each owned by the window until it ends, then deleted later), the
# report's writing replaced by a few progress reports or a failure: the code before crashed in
# each of three runs.
STRESS_EXPORT = textwrap.dedent("""
    import logging, random, sys, time
    logging.disable(logging.CRITICAL)
    from PySide6.QtCore import QThreadPool
    from PySide6.QtWidgets import QApplication, QLabel
    from neardup_gui.app import export

    random.seed(7)
    def write_report_file(db_path, scope, settings, out_path, items=None, lang=None, progress=None):
        for k in range(4):
            progress(k / 4, "row")
        if int(out_path) % 3 == 0:
            raise OSError("disk full")
        return out_path
    export.write_report_file = write_report_file
    write = export._write_in_worker
    def late(*args):  # the worker lets go of what it was given 0-3 ms after its last signal
        write(*args)
        time.sleep(random.random() * 0.003)
    export._write_in_worker = late

    app = QApplication([])
    pool = QThreadPool()
    pool.setMaxThreadCount(2)
    window = QLabel()
    window.show()
    N = int(sys.argv[1])
    count = {"started": 0, "ended": 0}

    def ended():
        count["ended"] += 1
        window.setText(str(count["ended"]))
        if count["started"] < N:
            start()
        if count["ended"] >= N:
            app.quit()

    def start():
        count["started"] += 1
        job = export.ExportJob("index", "pairs", None, str(count["started"]), parent=window, lang="en")
        job.finished.connect(ended)
        job.finished.connect(job.deleteLater)
        job.start(pool)

    start(); start()
    app.exec()
    assert pool.waitForDone(60000)
    print("ended", count["ended"])
""")


@pytest.mark.parametrize("script", [STRESS, STRESS_EXPORT], ids=["tasks", "report jobs"])
def test_thousands_of_workers_letting_go_late_never_crash(tmp_path, script):
    path = tmp_path / "stress.py"
    path.write_text(script, encoding="utf-8")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT), "PYTHONFAULTHANDLER": "1"}
    run = subprocess.run([sys.executable, str(path), "5000"], capture_output=True, text=True, cwd=ROOT,
                         env=env, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]  # (before: -11, a segmentation fault)
    assert run.stdout.split()[-2:] == ["ended", "5000"]


def test_news_for_a_task_gone_is_dropped_and_its_key_forgotten(qtbot):
    """A task let go of before its worker's news arrives (a closed window's): nothing is delivered,
    nothing fails, and the relay keeps no key for it."""
    runner = TaskRunner(max_threads=1)
    release = threading.Event()
    heard: list[str] = []

    def work(progress):
        release.wait(60)
        progress(0.5, "half")
        return "result"

    task = runner.start("late", work)
    task.progress.connect(lambda *_: heard.append("progress"))
    task.finished.connect(lambda: heard.append("finished"))
    key = task._work.key
    assert key in relay()._receivers
    runner._tasks.remove(task)  # (as if its window had let go of it)
    del task
    gc.collect()
    assert key not in relay()._receivers
    release.set()
    assert runner._pool.waitForDone(60_000)
    qtbot.wait(100)
    assert heard == []
    assert runner.shutdown(60)


def test_the_relay_lives_on_the_gui_thread_and_is_made_once(qapp):
    assert relay() is relay()
    assert relay().thread() is qapp.thread()


def test_a_job_whose_window_closed_mid_report_is_told_nothing(qtbot, qapp, tmp_path):
    """The job's C++ side deleted with its window while Python still holds its wrapper: the
    worker's news is dropped (telling it would raise "already deleted" in the event loop)."""
    from PySide6.QtWidgets import QWidget

    from neardup_gui.app.export import ExportJob

    window = QWidget()
    job = ExportJob("index", "pairs", None, str(tmp_path / "r.json"), parent=window, lang="en")
    key = job._key
    window.deleteLater()  # (the window and the job with it, in C++; ``job`` still held here)
    qtbot.waitUntil(lambda: not __import__("shiboken6").isValid(job), timeout=10_000)
    relay().progress.emit(key, 0.5, "half")
    relay().done.emit(key, "r.json")
    qtbot.wait(50)  # (delivered: a raise in the relay's slot would fail the test)
    assert key not in relay()._receivers
