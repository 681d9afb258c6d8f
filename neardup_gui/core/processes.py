"""How child processes start: ``spawn`` unless ``fork`` is both chosen and safe.

``spawn`` starts a fresh interpreter that imports what it needs (about 0.25 s a child here, two
children in parallel on two cores); ``fork`` copies the parent, already imported, in a few
milliseconds. Measured on the 797 real copyright files (``neardup index`` + ``neardup pairs
--threshold 0.8``, ``tests/benchmarks/acceptance/vs_datasketch.py``): index 1.74–1.78 s →
1.47–1.52 s, pairs in two processes 1.17–1.41 s → 0.94–1.01 s (one process: 1.32 s).

Forking copies the parent's memory but only its calling thread: a lock another thread held
(SQLite's, a GUI toolkit's) stays locked forever in the child. So ``fork`` is used only where
the program chose it (:func:`allow_fork`: the command line does, the app never does), on Linux
(on macOS system libraries are not fork-safe), while the calling process runs one Python thread,
and never once Qt is loaded (its threads are invisible to :mod:`threading`). The choice is made
for each child as it is started: a child replaced later, from a feeding thread, is spawned.

SQLite: a forked child never uses a connection of its parent (SQLite forbids it). The pass's
workers open their own, read-only, while the parent keeps its connection open and idle (no
statement running, so no lock held) until they have ended; the extraction children open none.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
import threading
from multiprocessing.context import BaseContext

log = logging.getLogger(__name__)

__all__ = ["allow_fork", "context", "fork_safe"]

_fork_allowed = False


def allow_fork(allowed: bool = True) -> None:
    """Let children be forked when :func:`fork_safe` (the command line's choice)."""
    global _fork_allowed  # noqa: PLW0603 - one process-wide choice, made at start-up
    _fork_allowed = allowed


def fork_safe() -> bool:
    """True when a child may be forked here and now (see the module docstring)."""
    return (_fork_allowed and sys.platform.startswith("linux") and threading.active_count() == 1
            and "PySide6" not in sys.modules)


# A forked child starts with its parent's address space, and an extraction child caps its own
# (RLIMIT_AS, ``ExtractLimits.memory_limit_mb``): a parent this large is not forked for a capped
# child, so that the file still has about the room a spawned child leaves it (a fresh command-line
# process maps about 175–250 MB; a spawned child about 170 MB).
FORK_MAX_PARENT_MB = 320


def virtual_mb() -> float:
    """This process's virtual memory size (Linux; 0 where it cannot be read)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def context(capped: bool = False) -> BaseContext:
    """The context to start the next child with: ``fork`` when :func:`fork_safe` (and, for a child
    that caps its address space, ``capped``, while this process is under FORK_MAX_PARENT_MB),
    else ``spawn``."""
    fork = fork_safe() and not (capped and virtual_mb() > FORK_MAX_PARENT_MB)
    method = "fork" if fork else "spawn"
    log.debug("starting a child process by %s", method)
    return multiprocessing.get_context(method)
