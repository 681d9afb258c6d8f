"""The one task runner: core functions in a worker thread, progress and results on the GUI thread.

Follows Orange3's concurrent utilities: the core function gets a plain ``progress(fraction,
message)`` callable; cancelling makes that callable raise :class:`Cancelled`; the process's
relay (app/relay.py) carries progress and the outcome to the GUI thread through queued signals,
where the callbacks run. Each task opens its own ``Collection`` (SQLite connections stay in the
thread that made them).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
import traceback
import weakref
from typing import Any, Callable

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QThreadPool, QTimer, Signal

from neardup_gui.app import collector, errors
from neardup_gui.app.relay import Relay, relay
from neardup_gui.core.progress import Cancelled, RemainingTime
from neardup_gui.core.store import while_busy

log = logging.getLogger(__name__)

# Progress reports closer together than this are dropped (the last one always arrives).
PROGRESS_INTERVAL_S = 0.05
# A wait this long for another writer of the index is shown in the task's progress (shorter
# ones, another process committing a batch, are not worth a word); it can be cancelled at once.
SAY_WAITING_AFTER_S = 0.5


class _Work:
    """The worker's side of a :class:`Task`: what the worker thread runs and touches, without the Task.

    The worker holds only this: no Qt object but the process's relay, which is never deleted
    (app/relay.py). Holding the Task (a QObject of the GUI thread), it could drop the last
    reference to it after its last signal, and the Task would be deleted on the worker thread
    while the GUI thread delivered its events (the crash an export job had in CI, see app/export.py);
    holding a relay of the task's own, it deleted that relay while the GUI thread deleted the task
    (CI's segmentation fault in ``exec``, app/relay.py).
    """

    def __init__(self, name: str, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
                 relay: Relay, key: int) -> None:
        self.name = name
        self.fn = fn
        self.args = args
        self.kwargs = kwargs
        self.relay = relay
        self.key = key
        self.cancel = threading.Event()
        self.ended = threading.Event()
        self.last_emit = 0.0
        self.reported = 0.0  # the last fraction reported
        self.waiting = False  # waiting for another writer of the index

    def report(self, fraction: float, message: str = "") -> None:
        """The ``progress`` callable handed to the core function (called in the worker)."""
        self.waiting = False
        self.reported = fraction
        self._emit(fraction, message)

    def _emit(self, fraction: float, message: str) -> None:
        if self.cancel.is_set():
            raise Cancelled()
        now = time.monotonic()
        if now - self.last_emit >= PROGRESS_INTERVAL_S or fraction >= 1.0:
            self.last_emit = now
            self.relay.progress.emit(self.key, float(fraction), str(message))

    def _waiting(self, waited_s: float) -> None:
        """Between the slices of a wait for another writer of the index (core/store/)."""
        if self.cancel.is_set():
            raise Cancelled()
        if waited_s >= SAY_WAITING_AFTER_S:
            self.waiting = True  # (no estimate of the time left while the work stands still)
            self._emit(self.reported, QCoreApplication.translate(
                "Task", "Waiting: another window or command is writing to the index…"))

    def run(self) -> None:
        relay, key = self.relay, self.key
        try:
            with while_busy(self._waiting):
                result = self.fn(*self.args, progress=self.report, **self.kwargs)
        except Cancelled:
            relay.cancelled.emit(key)
        except BaseException as exc:  # noqa: BLE001 - every failure must reach the GUI, not kill it
            detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
            # A condition the window says in words (a folder taken away, a screening screened
            # again, the index busy) goes to the log file with its traceback, not to the
            # console as an error: the monkey's five minutes printed 41 tracebacks of them.
            # A failure the window can only call a bug stays an error.
            log.log(logging.ERROR if errors.is_bug(exc) else logging.INFO, "task %s failed:\n%s", self.name, detail)
            relay.failed.emit(key, exc, detail)
        else:
            if self.cancel.is_set() and getattr(result, "cancelled", False):
                relay.cancelled.emit(key)
            else:
                relay.done.emit(key, result)
        finally:
            self.ended.set()


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
        owner: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.name = name
        self._owner = weakref.ref(owner) if owner is not None else None  # see TaskRunner.start
        self._on_done = on_done
        self._on_error = on_error
        self._on_cancelled = on_cancelled
        self.started_at = time.monotonic()
        self._remaining = RemainingTime(self.started_at)
        self.fraction = 0.0
        self.message = ""
        self.outcome = ""  # "done" | "error" | "cancelled" once ended
        self.result: Any = None
        self.error: BaseException | None = None
        # (the worker emits on the process's relay under this task's key, and the relay calls the
        # ``deliver_*`` methods below on the GUI thread; the task is deleted on the GUI thread only)
        shared = relay()
        self._work = _Work(name, fn, args, kwargs, shared, shared.register(self))

    @property
    def waiting(self) -> bool:
        """Waiting for another writer of the index (set by the worker)."""
        return self._work.waiting

    def report(self, fraction: float, message: str = "") -> None:
        """The ``progress`` callable the core function gets (it is the worker's; see :class:`_Work`)."""
        self._work.report(fraction, message)

    # -- GUI side ------------------------------------------------------------------------------

    def cancel(self) -> None:
        """Ask the task to stop at its next progress report."""
        self._work.cancel.set()

    @property
    def cancel_requested(self) -> bool:
        return self._work.cancel.is_set()

    def is_running(self) -> bool:
        return not self.outcome

    def wait(self, timeout_s: float | None = None) -> bool:
        """Block until the worker has returned (not for the GUI callbacks); True if it has."""
        return self._work.ended.wait(timeout_s)

    def elapsed_s(self) -> float:
        return time.monotonic() - self.started_at

    def remaining_s(self) -> float | None:
        """Estimated seconds left from the recent pace of the work (core.progress.RemainingTime);
        None until there is a pace to go by, and while waiting for another writer of the index."""
        if self.waiting:
            return None
        return self._remaining.seconds_left(time.monotonic())

    def deliver_progress(self, fraction: float, message: str) -> None:
        if self.outcome:
            return
        self.fraction = fraction
        self._remaining.add(time.monotonic(), fraction)
        if message:
            self.message = message
        self.progress.emit(fraction, message)

    def _owner_gone(self) -> bool:
        if self._owner is None:
            return False
        owner = self._owner()
        return owner is None or not shiboken6.isValid(owner)

    def deliver_done(self, result: Any) -> None:
        self.outcome = "done"
        self.result = result
        try:
            if self._on_done and not self._owner_gone():
                self._on_done(result)
        finally:
            self.finished.emit()

    def deliver_error(self, exc: BaseException, detail: str) -> None:
        self.outcome = "error"
        self.error = exc
        try:
            if self._on_error and not self._owner_gone():
                self._on_error(exc, detail)
        finally:
            self.finished.emit()

    def deliver_cancelled(self) -> None:
        self.outcome = "cancelled"
        try:
            if self._on_cancelled and not self._owner_gone():
                self._on_cancelled()
        finally:
            self.finished.emit()


class TaskRunner(QObject):
    """Starts tasks on its own thread pool and keeps track of them until they end."""

    task_started = Signal(object)  # Task
    task_finished = Signal(object)  # Task

    def __init__(self, parent: QObject | None = None, max_threads: int = 2) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(max_threads)
        self._tasks: list[Task] = []
        self._ending: list[Task] = []  # tasks that have ended, let go of once back in the event loop
        self._closed = False
        # Until its workers have returned (``shutdown``), cycles are collected on the GUI thread
        # only: a Qt object freed by a collection on a worker thread crashes the event loop.
        self._holds_collector = collector.hold()

    def start(
        self,
        name: str,
        fn: Callable[..., Any],
        *args: Any,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException, str], None] | None = None,
        on_cancelled: Callable[[], None] | None = None,
        owner: QObject | None = None,
        **kwargs: Any,
    ) -> Task:
        """Run ``fn(*args, progress=..., **kwargs)`` in a worker thread.

        ``owner``: the view the callbacks belong to; once it is deleted (a window closed while
        its task ran), the task ends without calling them (they would raise "already deleted")."""
        if self._closed:
            raise RuntimeError("the task runner has been shut down")
        # No Qt parent: the runner holds the task until it has ended, then Python frees it.
        task = Task(name, fn, args, kwargs, on_done, on_error, on_cancelled, owner=owner)
        self._tasks.append(task)
        # (a weak reference: the connection lives on the task, and a strong one kept every task and
        # its result for as long as the window was open)
        task.finished.connect(functools.partial(self._forget_ref, weakref.ref(task)))
        self.task_started.emit(task)
        self._pool.start(task._work.run)  # (the work, never the task: see _Work)
        return task

    def _forget_ref(self, ref: "weakref.ref[Task]") -> None:
        task = ref()
        if task is not None:
            self._forget(task)

    def _forget(self, task: Task) -> None:
        if task in self._tasks:
            self._tasks.remove(task)
        # Held until control is back in the event loop: let go of here, the last reference could
        # go inside the task's own slot (this is called from its ``finished``), deleting the
        # QObject while Qt still delivers the event to it.
        self._ending.append(task)
        if len(self._ending) == 1:
            QTimer.singleShot(0, self, self._ending.clear)
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
        returned = self._pool.waitForDone(int(timeout_s * 1000))
        if returned and self._holds_collector:  # (a worker still running keeps the hold)
            self._holds_collector = False
            collector.release()
        return returned
