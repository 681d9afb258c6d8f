"""How child processes start: ``spawn`` unless ``fork`` (or, for a child that opens the index, a
fork server) is both chosen and safe.

``spawn`` starts a fresh interpreter that imports what it needs (about 0.25 s a child here, two
children in parallel on two cores); ``fork`` copies the parent, already imported, in a few
milliseconds, which makes a parallel pass pay on small collections (docs/speed.md).

Forking copies the parent's memory but only its calling thread: a lock another thread held
(SQLite's, a GUI toolkit's) stays locked forever in the child. So ``fork`` is used only where
the program chose it (:func:`allow_fork`: the command line does, the app never does), on Linux
(on macOS system libraries are not fork-safe), while the calling process runs one Python thread,
and never once Qt is loaded (its threads are invisible to :mod:`threading`). The choice is made
for each child as it is started: a child replaced later, from a feeding thread, is spawned.

SQLite: a child that opens the index is never forked from a process that has it open. A forked
child gets a copy of SQLite's bookkeeping of its parent's locks but not the locks (POSIX locks
are not inherited): a connection it opens would take the locks for held and never ask the
system for them, so another process could checkpoint and delete the write-ahead log under the
child's reads, or take the file for unused. Every open WAL connection holds such a lock (a
SHARED lock on the database file, for as long as it is open). So the pass's workers, which open
the index read-only, are started by a fork server (``forkserver``: a fresh interpreter started
by exec, which has imported the core but never opened a database, and forks each child in a few
milliseconds; :func:`start_server` starts it early, while the command line imports the core, so
that its own start costs nothing). The extraction children, forked from the caller itself, open
no database.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
import threading
from multiprocessing.context import BaseContext

from neardup_gui.core import lifeline

log = logging.getLogger(__name__)

__all__ = ["allow_fork", "context", "fork_safe", "server_allowed", "start_server"]

_fork_allowed = False


def allow_fork(allowed: bool = True) -> bool:
    """Let children be forked when :func:`fork_safe` (the command line's choice); returns the
    choice it replaces."""
    global _fork_allowed  # noqa: PLW0603 - one process-wide choice, made at start-up
    previous, _fork_allowed = _fork_allowed, allowed
    return previous


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


# What the fork server imports before it forks anything: first what ends it with this process
# (it is not a multiprocessing child, so it is bound to its parent on import, with the parent's id
# in lifeline.PARENT_ENV; the workers it forks end with it), then what a pass worker runs, then
# the tables each worker would build on its first text (built once in the server, shared).
SERVER_PRELOAD = ["neardup_gui.core.server_lifeline", "neardup_gui.core.pairpass", "neardup_gui.core.server_tables"]


def server_allowed() -> bool:
    """True when children that open the index are forked by the fork server (see above): where
    forking is chosen, on Linux. (Unlike :func:`fork_safe`, whatever threads this process runs:
    the server is a fresh interpreter. The frozen command line, whose start-up imports PySide6,
    so never forks, uses it too.)"""
    return _fork_allowed and sys.platform.startswith("linux")


# The numerical libraries' own threads, in the server and the workers it forks: one each (the
# workers are one per core already, and a thread per core makes a server started for nothing,
# beside a small command, cost it more than twice as much).
SERVER_ENVIRONMENT = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


_server_failed = False  # it could not be started once: not tried again (nor said again)


def _server_running() -> bool:
    """Start the fork server unless it runs; False when it cannot be started."""
    global _server_failed  # noqa: PLW0603 - one server per process
    from multiprocessing import forkserver

    if _server_failed:
        return False
    multiprocessing.get_context("forkserver").set_forkserver_preload(SERVER_PRELOAD)
    saved = {k: os.environ.get(k) for k in [*SERVER_ENVIRONMENT, lifeline.PARENT_ENV]}
    os.environ.update({k: v for k, v in SERVER_ENVIRONMENT.items() if saved[k] is None})
    os.environ[lifeline.PARENT_ENV] = str(os.getpid())
    try:
        forkserver.ensure_running()
        return True
    except OSError as exc:  # (e.g. a temporary folder whose path is too long for a socket's)
        log.warning("the fork server did not start (%s): worker processes are spawned", exc)
        _server_failed = True
        return False
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def start_server() -> None:
    """Start the fork server now, if children that open the index are to be forked by it: its
    interpreter imports the core while this process does the same (the command line calls this
    first thing in the commands that pair)."""
    if server_allowed():
        _server_running()


def context(capped: bool = False, opens_index: bool = False) -> BaseContext:
    """The context to start the next child with: for a child that ``opens_index``, the fork
    server where forking is chosen (on Linux), else ``spawn``; for another, ``fork`` when
    :func:`fork_safe` (and, for a child that caps its address space, ``capped``, while this
    process is under FORK_MAX_PARENT_MB), else ``spawn``."""
    # numpy's OpenBLAS reserves buffers for every core when it loads: in a child whose address
    # space is capped that can fail before the first file is read (at 192 MB), so children take one
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if opens_index:
        method = "forkserver" if server_allowed() and _server_running() else "spawn"
        log.debug("starting a child process by %s", method)
        return multiprocessing.get_context(method)
    fork = fork_safe() and not (capped and virtual_mb() > FORK_MAX_PARENT_MB)
    method = "fork" if fork else "spawn"
    log.debug("starting a child process by %s", method)
    return multiprocessing.get_context(method)
