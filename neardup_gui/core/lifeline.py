"""Child processes that never outlive their parent, however it dies.

A worker process (extraction, the pass, the fork server that starts the pass's workers) holds
tens of megabytes and the collection's files; if its parent is killed (SIGKILL, the out-of-memory
killer, a crash of the interpreter) nothing else would ever end it. So every child binds itself
to its parent first thing, with :func:`bind_to_parent` (a :mod:`multiprocessing` child) or
:func:`bind_to_process` (the fork server, Linux only):

- on Linux the kernel kills it when its parent dies (``PR_SET_PDEATHSIG``, asked through
  ``prctl``); a parent that died before the request was made is caught by looking at the parent
  id after it (the request only covers a parent alive when it is made);
- everywhere, a thread of the child waits for the parent to go, and ends the process when it
  does: on :mod:`multiprocessing`'s sentinel of the parent (a pipe whose writing end the parent
  holds, which reads as closed when the parent dies; on Windows the parent's process handle),
  and on POSIX on the parent id changing (the child is given to another process when its parent
  dies). This is what holds on macOS and Windows, where there is no death signal.

The kernel's death signal follows the thread that started the child, not its process: children
are started from a thread that outlives them (the caller's, which stops its children before it
returns; the fork server's main thread). A child forked after another holds a copy of the other's
sentinel pipe, which then closes only once both are gone; children are forked on Linux alone
(core/processes.py), where the death signal ends each at once.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from multiprocessing.connection import wait

log = logging.getLogger(__name__)

__all__ = ["PARENT_ENV", "bind_to_parent", "bind_to_process", "death_signal_available"]

# The variable that gives the fork server its parent's id (it is not a multiprocessing child).
PARENT_ENV = "NEARDUP_PARENT_PID"
# How often the watch looks at the parent id (the sentinel wakes it at once where it serves).
WATCH_S = 0.2
# The watch thread does nothing deep: a small stack, so that an extraction child's capped
# address space (ExtractLimits.memory_limit_mb) keeps nearly all its room for the file.
_WATCH_STACK = 256 * 1024
_PR_SET_PDEATHSIG = 1
# What a child whose parent has gone exits with (it is nobody's to read: the parent is gone).
ORPHANED_EXIT = 1


def death_signal_available() -> bool:
    """True where the kernel can kill a child when its parent dies (Linux)."""
    return sys.platform.startswith("linux")


def _ask_death_signal() -> bool:
    """Ask the kernel for SIGKILL when the parent dies; False where that cannot be had."""
    if not death_signal_available():
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
            log.warning("no death signal for this worker process: prctl failed (errno %d)", ctypes.get_errno())
            return False
    except (OSError, AttributeError) as exc:
        log.warning("no death signal for this worker process: %s", exc)
        return False
    return True


def _end() -> None:
    os._exit(ORPHANED_EXIT)


def _sentinel_closed(sentinel: int | None) -> bool:
    return sentinel is not None and bool(wait([sentinel], timeout=0))


def _watch(sentinel: int | None, parent_id: int | None) -> None:
    """Body of the watch thread: end the process once the parent is gone."""
    timeout = None if parent_id is None else WATCH_S
    while True:
        if sentinel is not None:
            gone = bool(wait([sentinel], timeout))
        else:
            time.sleep(WATCH_S)
            gone = False
        if gone or (parent_id is not None and os.getppid() != parent_id):
            _end()


def _start_watch(sentinel: int | None, parent_id: int | None) -> None:
    if sentinel is None and parent_id is None:
        return
    previous = threading.stack_size(_WATCH_STACK)
    try:
        threading.Thread(target=_watch, args=(sentinel, parent_id), name="neardup-parent-watch", daemon=True).start()
    finally:
        threading.stack_size(previous)


def bind_to_parent(*, death_signal: bool = True) -> None:
    """End this :mod:`multiprocessing` child when the process that started it dies (see the
    module's docstring); call it first thing in the child. A child whose parent is already gone
    ends here. ``death_signal`` False leaves only the watch (what holds where there is none)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    sentinel = getattr(parent, "sentinel", None)
    if death_signal:
        _ask_death_signal()
    # The parent id is watched where this process's parent is the process that started it (fork,
    # spawn). A child of the fork server has the server for parent (which ends with that process:
    # bind_to_process), and the sentinel alone tells of the process that started it; so has a
    # child whose parent died already, and its sentinel is closed.
    parent_id = parent.pid if os.name == "posix" and os.getppid() == parent.pid else None
    if _sentinel_closed(sentinel):
        _end()
    _start_watch(sentinel, parent_id)


def bind_to_process(parent_id: int | None) -> None:
    """End this process when process ``parent_id``, its parent, dies: the fork server's binding
    (it is started by exec, not as a multiprocessing child, and given its parent's id in
    :data:`PARENT_ENV`). The fork server runs on Linux alone (core/processes.py): the death signal
    serves, and no watch thread is started (the server forks, and a fork copies one thread).
    None: the parent is unknown, nothing is done."""
    if parent_id is None or not _ask_death_signal():
        return
    if os.getppid() != parent_id:
        _end()
