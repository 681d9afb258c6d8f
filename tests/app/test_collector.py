"""Reference cycles are collected on the GUI thread while worker threads run (app/collector.py)."""

from __future__ import annotations

import gc
import threading
import time

from PySide6.QtCore import QObject

from neardup_gui.app import collector
from neardup_gui.app.mainwindow import MainWindow
from neardup_gui.app.tasks import TaskRunner


class _Watched(QObject):
    """A Qt object of the GUI thread that says on which thread Python freed it."""

    freed_in: list[int] = []

    def __del__(self) -> None:
        _Watched.freed_in.append(threading.get_ident())


def _allocate(n: int, progress) -> list[list[int]]:
    """Worker work that allocates as indexing does: many small containers, kept (the result)."""
    kept = [[i] for i in range(n)]
    progress(1.0, "")
    return kept


def test_a_qt_object_caught_in_a_cycle_is_freed_on_the_gui_thread_while_a_worker_allocates(qtbot):
    """Before: the worker's allocations started CPython's collection on the worker thread, which
    freed the GUI thread's object there (how a segmentation fault in Qt's event loop came about)."""
    gui = threading.get_ident()
    runner = TaskRunner()
    try:
        _Watched.freed_in = []
        gc.collect()  # (the young generation starts empty: the cycle below is the one to collect)
        watched = _Watched()
        watched.itself = watched  # a reference cycle: only the cyclic collector frees it
        del watched
        results: list[list[list[int]]] = []
        with qtbot.waitSignal(runner.task_finished, timeout=60_000):
            runner.start("allocate", _allocate, 300_000, on_done=results.append)
        qtbot.waitUntil(lambda: bool(_Watched.freed_in), timeout=10_000)  # (the GUI thread's timer)
        assert _Watched.freed_in == [gui]
        assert collector.collections()[0] >= 1
    finally:
        assert runner.shutdown(60)


def test_the_collection_is_given_back_when_the_last_runner_has_shut_down(qtbot):
    assert collector.holds() == 0 and gc.isenabled()
    first, second = TaskRunner(), TaskRunner()
    assert collector.holds() == 2 and not gc.isenabled()
    assert first.shutdown(60)
    assert first.shutdown(60)  # (a second shutdown lets go of nothing more)
    assert collector.holds() == 1 and not gc.isenabled()
    assert second.shutdown(60)
    assert collector.holds() == 0 and gc.isenabled()


def test_a_window_holds_the_collection_until_it_is_closed(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    assert collector.holds() == 1 and not gc.isenabled()
    window.close()
    assert collector.holds() == 0 and gc.isenabled()


def test_a_full_collection_waits_for_its_time(qtbot):
    runner = TaskRunner()
    thresholds = gc.get_threshold()
    try:
        gc.set_threshold(1, 1, 1)
        collector._collector.next_full = time.monotonic() + 3600.0
        before = collector.collections()
        kept = []
        for _ in range(5):
            kept.append([[] for _ in range(50)])  # (the young generation passes its threshold of 1)
            collector._collector.collect_due()
        after = collector.collections()
        assert after[2] == before[2]  # (the next full collection is an hour away)
        assert after[0] + after[1] - before[0] - before[1] == 5
        collector._collector.next_full = 0.0  # (its time has come)
        due = time.monotonic()  # (the next full one is set from a clock read after this: no bet on speed)
        for _ in range(3):  # (a full one once the oldest count passes 1: two younger ones at most)
            kept.append([[] for _ in range(50)])
            collector._collector.collect_due()
        assert collector.collections()[2] == before[2] + 1
        assert collector._collector.next_full >= due + collector.FULL_EVERY_S
    finally:
        gc.set_threshold(*thresholds)
        assert runner.shutdown(60)
