"""Python's cyclic garbage collection on the GUI thread only, while worker threads run Python.

CPython collects reference cycles in whichever thread happens to allocate past the collector's
threshold. Our worker threads allocate a great deal (indexing, the collection-wide pass,
writing a report), so they are usually that thread: any Qt object of the GUI thread caught in
a reference cycle — a closed dialog, a model, a task whose slots are bound methods of the window
— would then be deleted on the worker thread while the GUI thread may be delivering its events,
and a QObject deleted outside its own thread is undefined behaviour (a segmentation fault in
Qt's event loop, the main thread in ``exec`` and a worker in the middle of indexing, seen once
in about 25 CI runs).

So while anything holds it (each :class:`~neardup_gui.app.tasks.TaskRunner`, from its start
until its workers have returned: the window's runner covers the report jobs it starts), the
automatic collection is switched off and a timer on the GUI thread collects instead: the
generation CPython would have collected, when its count passes CPython's own threshold, checked
every :data:`TICK_MS`. Cycles are still
freed, in bounded steps (a young generation at a time, as CPython does), only never on a worker.
The same cure as Camelot's ``GarbageCollector`` for PyQt applications. Without a hold (the
command line, the core's tests), nothing changes: this module never runs in the core.

Hold and release on the GUI thread only.
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QCoreApplication, QObject, QTimer

TICK_MS = 200
# A full collection walks every object of the process, and the GUI thread pauses for it: at
# most one in this many seconds, and further apart when it takes long (at most 2 % of the GUI
# thread's time), much as CPython's own rule spaces them (a full one only when the objects that
# survived since the last are a quarter of those older).
FULL_EVERY_S = 10.0
FULL_SHARE = 0.02


class _Collector(QObject):
    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.holds = 0
        self.was_enabled = True
        self.collections = [0, 0, 0]  # how many of each generation this collector ran
        self.next_full = time.monotonic() + FULL_EVERY_S
        self.timer = QTimer(self)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self.collect_due)

    def collect_due(self) -> int:
        """Collect the oldest generation whose count has passed its threshold; the objects freed."""
        thresholds = gc.get_threshold()
        counts = gc.get_count()
        for generation in (2, 1, 0):
            if counts[generation] > thresholds[generation]:
                if generation == 2 and time.monotonic() < self.next_full:
                    continue
                self.collections[generation] += 1
                started = time.monotonic()
                freed = gc.collect(generation)
                if generation == 2:
                    took = time.monotonic() - started
                    self.next_full = time.monotonic() + max(FULL_EVERY_S, took / FULL_SHARE)
                return freed
        return 0


_collector: _Collector | None = None


def hold() -> bool:
    """From now until the matching :func:`release`, cycles are collected on the GUI thread only.

    False (and nothing held) without an application object: no event loop to collect on, so
    Python's collector is left as it is.
    """
    global _collector
    app = QCoreApplication.instance()
    if app is None:
        return False
    if _collector is None or _collector.parent() is not app:
        _collector = _Collector(app)
    if _collector.holds == 0:
        _collector.was_enabled = gc.isenabled()
        gc.disable()
        _collector.timer.start()
    _collector.holds += 1
    return True


def release() -> None:
    """Let go of a :func:`hold`; the last one gives the collection back to Python."""
    if _collector is None or _collector.holds == 0:
        return
    _collector.holds -= 1
    if _collector.holds == 0:
        _collector.timer.stop()
        if _collector.was_enabled:
            gc.enable()


def holds() -> int:
    """How many holds are in place (0: Python's own collector runs)."""
    return _collector.holds if _collector is not None else 0


def collections() -> tuple[int, int, int]:
    """How many collections of each generation ran on the GUI thread (for tests)."""
    return tuple(_collector.collections) if _collector is not None else (0, 0, 0)  # type: ignore[return-value]
