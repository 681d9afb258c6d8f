"""The one task runner: core functions in a worker thread, progress and results on the GUI thread.

Follows Orange3's concurrent utilities: the core function gets a plain ``progress(fraction,
message)`` callable; cancelling makes that callable raise :class:`Cancelled`; a small QObject
carries progress and the outcome to the GUI thread through queued signals, where the callbacks
run. Each task opens its own ``Collection`` (SQLite connections stay in the thread that made them).
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, Qt, QThreadPool, Signal, Slot

from neardup_gui.core.progress import Cancelled
from neardup_gui.core.store import while_busy

log = logging.getLogger(__name__)

# Progress reports closer together than this are dropped (the last one always arrives).
PROGRESS_INTERVAL_S = 0.05
# A wait this long for another writer of the index is shown in the task's progress (shorter
# ones, another process committing a batch, are not worth a word); it can be cancelled at once.
SAY_WAITING_AFTER_S = 0.5


class _Relay(QObject):
    """Lives on the GUI thread; the worker emits on it and Qt queues the calls."""

    progress = Signal(float, str)
    done = Signal(object)
    failed = Signal(object, str)
    cancelled = Signal()


class Task(QObject):
    """One running core function. Signals are delivered on the GUI thread."""

    progress = Signal(float, str)  # fraction 0..1, message (usually the current file)
    finished = Signal()  # after on_done / on_error / on_cancelled, whatever the outcome

    def __init__(
        self,
        name: str,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        on_done: Callable[[Any], None] | None,
        on_error: Callable[[BaseException, str], None] | None,
        on_cancelled: Callable[[], None] | None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.name = name
        self._fn = fn
        self._args = args
        self._kwargs = kwargs
        self._on_done = on_done
        self._on_error = on_error
        self._on_cancelled = on_cancelled
        self._cancel = threading.Event()
        self._ended = threading.Event()
        self._last_emit = 0.0
        self._reported = 0.0  # the last fraction reported (worker side)
        self.waiting = False  # waiting for another writer of the index (set by the worker)
        self.started_at = time.monotonic()
        self.fraction = 0.0
        self.message = ""
        self.outcome = ""  # "done" | "error" | "cancelled" once ended
        self.result: Any = None
        self.error: BaseException | None = None
        self._relay = _Relay()
        self._relay.progress.connect(self._deliver_progress, Qt.ConnectionType.QueuedConnection)
        self._relay.done.connect(self._deliver_done, Qt.ConnectionType.QueuedConnection)
        self._relay.failed.connect(self._deliver_error, Qt.ConnectionType.QueuedConnection)
        self._relay.cancelled.connect(self._deliver_cancelled, Qt.ConnectionType.QueuedConnection)

    # -- worker side -------------------------------------------------------------------------

    def report(self, fraction: float, message: str = "") -> None:
        """The ``progress`` callable handed to the core function (called in the worker)."""
        self.waiting = False
        self._reported = fraction
        self._emit(fraction, message)

    def _emit(self, fraction: float, message: str) -> None:
        if self._cancel.is_set():
            raise Cancelled()
        now = time.monotonic()
        if now - self._last_emit >= PROGRESS_INTERVAL_S or fraction >= 1.0:
            self._last_emit = now
            self._relay.progress.emit(float(fraction), str(message))

    def _waiting(self, waited_s: float) -> None:
        """Between the slices of a wait for another writer of the index (core/store.py)."""
        if self._cancel.is_set():
            raise Cancelled()
        if waited_s >= SAY_WAITING_AFTER_S:
            self.waiting = True  # (no estimate of the time left while the work stands still)
            self._emit(self._reported, QCoreApplication.translate(
                "Task", "Waiting: another window or command is writing to the index…"))

    def run_in_worker(self) -> None:
        try:
            with while_busy(self._waiting):
                result = self._fn(*self._args, progress=self.report, **self._kwargs)
        except Cancelled:
            self._relay.cancelled.emit()
        except BaseException as exc:  # noqa: BLE001 - every failure must reach the GUI, not kill it
            if self._cancel.is_set() and isinstance(exc, Cancelled):
                self._relay.cancelled.emit()
            else:
                detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
                log.error("task %s failed:\n%s", self.name, detail)
                self._relay.failed.emit(exc, detail)
        else:
            if self._cancel.is_set() and getattr(result, "cancelled", False):
                self._relay.cancelled.emit()
            else:
                self._relay.done.emit(result)
        finally:
            self._ended.set()

    # -- GUI side ------------------------------------------------------------------------------

    def cancel(self) -> None:
        """Ask the task to stop at its next progress report."""
        self._cancel.set()

    @property
    def cancel_requested(self) -> bool:
        return self._cancel.is_set()

    def is_running(self) -> bool:
        return not self.outcome

    def wait(self, timeout_s: float | None = None) -> bool:
        """Block until the worker has returned (not for the GUI callbacks); True if it has."""
        return self._ended.wait(timeout_s)

    def elapsed_s(self) -> float:
        return time.monotonic() - self.started_at

    def remaining_s(self) -> float | None:
        """Estimated seconds left from the pace so far; None until there is a pace to go by."""
        elapsed = self.elapsed_s()
        if self.fraction < 0.02 or elapsed < 0.5 or self.waiting:
            return None
        return elapsed * (1.0 - self.fraction) / self.fraction

    @Slot(float, str)
    def _deliver_progress(self, fraction: float, message: str) -> None:
        if self.outcome:
            return
        self.fraction = fraction
        if message:
            self.message = message
        self.progress.emit(fraction, message)

    @Slot(object)
    def _deliver_done(self, result: Any) -> None:
        self.outcome = "done"
        self.result = result
        try:
            if self._on_done:
                self._on_done(result)
        finally:
            self.finished.emit()

    @Slot(object, str)
    def _deliver_error(self, exc: BaseException, detail: str) -> None:
        self.outcome = "error"
        self.error = exc
        try:
            if self._on_error:
                self._on_error(exc, detail)
        finally:
            self.finished.emit()

    @Slot()
    def _deliver_cancelled(self) -> None:
        self.outcome = "cancelled"
        try:
            if self._on_cancelled:
                self._on_cancelled()
        finally:
            self.finished.emit()


class _Runnable(QRunnable):
    def __init__(self, task: Task) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._task = task

    def run(self) -> None:
        self._task.run_in_worker()


class TaskRunner(QObject):
    """Starts tasks on its own thread pool and keeps track of them until they end."""

    task_started = Signal(object)  # Task
    task_finished = Signal(object)  # Task

    def __init__(self, parent: QObject | None = None, max_threads: int = 2) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(max_threads)
        self._tasks: list[Task] = []
        self._closed = False

    def start(
        self,
        name: str,
        fn: Callable[..., Any],
        *args: Any,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException, str], None] | None = None,
        on_cancelled: Callable[[], None] | None = None,
        **kwargs: Any,
    ) -> Task:
        """Run ``fn(*args, progress=..., **kwargs)`` in a worker thread."""
        if self._closed:
            raise RuntimeError("the task runner has been shut down")
        # No Qt parent: the runner holds the task until it has ended, then Python frees it.
        task = Task(name, fn, args, kwargs, on_done, on_error, on_cancelled)
        self._tasks.append(task)
        task.finished.connect(lambda t=task: self._forget(t))
        self.task_started.emit(task)
        self._pool.start(_Runnable(task))
        return task

    def _forget(self, task: Task) -> None:
        if task in self._tasks:
            self._tasks.remove(task)
        self.task_finished.emit(task)

    def tasks(self) -> list[Task]:
        return list(self._tasks)

    def is_busy(self) -> bool:
        return bool(self._tasks)

    def cancel_all(self) -> None:
        for task in self._tasks:
            task.cancel()

    def shutdown(self, timeout_s: float = 30.0) -> bool:
        """Cancel every task and wait for the workers to return; True if they all did.

        Called from ``closeEvent``: core functions stop at their next progress report, and
        every SQLite write is one transaction, so nothing is left half-written.
        """
        self._closed = True
        self.cancel_all()
        return self._pool.waitForDone(int(timeout_s * 1000))
