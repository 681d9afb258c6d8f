"""How a worker thread's news reaches the GUI thread: one relay for the whole process, never deleted.

A worker (a task's, a report's) emits on the relay with the key its task or job was registered
under; Qt queues the call to the relay's own slots on the GUI thread, and there the relay hands
it to the receiver registered under that key — if it is still there (a task let go of, a report
job of a closed window: the news is dropped).

Why one, and never deleted. Each task (and report job) used to have a relay of its own, connected
to it, deleted by whichever side let go of it last: often the worker thread, just after its last
signal. The task deleted on the GUI thread at that moment undoes its connections from the relay,
and Qt tells the sender (``QObject::disconnectNotify``), which PySide looks up on the relay's
Python object — being freed on the worker thread at that very moment: a segmentation fault in
the GUI's event loop (the main thread in ``exec``, a pooled thread with no Python frame), CI's
crash of about one run in thirty. A worker that lets go of its work a few milliseconds late
makes it certain (``tests/app/test_relay.py``: 5,000 tasks crashed the old design in six runs of
six, 5,000 report jobs in three of three). With this relay, which lives as long as the process, no Qt object is ever deleted off the
GUI thread, and a task or job has no connection from another thread to undo.

The receivers' side (on the GUI thread): ``deliver_progress(fraction, message)``,
``deliver_done(result)``, ``deliver_error(error, detail)``, ``deliver_cancelled()``; after one of
the last three, nothing more is delivered under that key.
"""

from __future__ import annotations

import functools
import itertools
import weakref
from typing import Any, Protocol

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal, Slot


class Receiver(Protocol):
    def deliver_progress(self, fraction: float, message: str) -> None: ...
    def deliver_done(self, result: Any) -> None: ...
    def deliver_error(self, error: Any, detail: str) -> None: ...
    def deliver_cancelled(self) -> None: ...


class Relay(QObject):
    """Emitted on from any thread; its slots run on the GUI thread. Make it with :func:`relay`."""

    progress = Signal(int, float, str)  # key, fraction, message
    done = Signal(int, object)  # key, result
    failed = Signal(int, object, str)  # key, the error (an exception or a message), details
    cancelled = Signal(int)  # key

    def __init__(self) -> None:
        super().__init__()
        # key -> weak reference to the receiver: the relay never keeps a task or job alive, and a
        # receiver freed (always on the GUI thread) takes its key with it
        self._receivers: dict[int, weakref.ref] = {}
        self._keys = itertools.count(1)
        queued = Qt.ConnectionType.QueuedConnection
        self.progress.connect(self._progress, queued)
        self.done.connect(self._done, queued)
        self.failed.connect(self._failed, queued)
        self.cancelled.connect(self._cancelled, queued)

    def register(self, receiver: Receiver) -> int:
        """The key a worker emits under for ``receiver`` (GUI thread)."""
        key = next(self._keys)
        self._receivers[key] = weakref.ref(receiver, functools.partial(self._forget, key))
        return key

    def _forget(self, key: int, _ref: weakref.ref) -> None:
        self._receivers.pop(key, None)

    def _receiver(self, key: int, last: bool = False) -> Receiver | None:
        ref = self._receivers.pop(key, None) if last else self._receivers.get(key)
        receiver = ref() if ref is not None else None
        # (a job's C++ side deleted with its window while Python still holds the wrapper: nothing
        # to tell, and telling it would raise)
        if receiver is None or (isinstance(receiver, QObject) and not shiboken6.isValid(receiver)):
            return None
        return receiver

    @Slot(int, float, str)
    def _progress(self, key: int, fraction: float, message: str) -> None:
        receiver = self._receiver(key)
        if receiver is not None:
            receiver.deliver_progress(fraction, message)

    @Slot(int, object)
    def _done(self, key: int, result: Any) -> None:
        receiver = self._receiver(key, last=True)
        if receiver is not None:
            receiver.deliver_done(result)

    @Slot(int, object, str)
    def _failed(self, key: int, error: Any, detail: str) -> None:
        receiver = self._receiver(key, last=True)
        if receiver is not None:
            receiver.deliver_error(error, detail)

    @Slot(int)
    def _cancelled(self, key: int) -> None:
        receiver = self._receiver(key, last=True)
        if receiver is not None:
            receiver.deliver_cancelled()


_relay: Relay | None = None


def relay() -> Relay:
    """The process's relay, made on first use — on the GUI thread, where tasks and jobs are made
    (a worker is handed it, never makes it). Held here for the life of the process."""
    global _relay
    if _relay is None:
        made = Relay()
        app = QCoreApplication.instance()
        if app is not None and made.thread() is not app.thread():
            made.moveToThread(app.thread())
        _relay = made
    return _relay
