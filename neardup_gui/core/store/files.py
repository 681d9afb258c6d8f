"""The index file on disk: SQLite's errors in words, the file's size, one open index per file in a process, waiting while it is busy."""

from __future__ import annotations

import errno
import os
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from neardup_gui.core.store.records import IndexProblem


def _has_json_each(conn: sqlite3.Connection) -> bool:
    """True when this SQLite has ``json_each`` (built in since 3.38): a document's search rows are
    then inserted from one JSON array in one statement, half the cost of a row-by-row executemany."""
    try:
        return conn.execute("SELECT value FROM json_each('[-9223372036854775808]')").fetchall() == [(-(1 << 63),)]
    except sqlite3.Error:
        return False


def _no_space(folder: Path) -> bool:
    try:
        return os.statvfs(folder).f_bavail == 0
    except (OSError, AttributeError):  # no statvfs on this system
        return False


def _is_busy(exc: sqlite3.Error) -> bool:
    msg = str(exc).lower()
    return "locked" in msg or "busy" in msg


def _translate_error(exc: sqlite3.Error, path: Path) -> IndexProblem:
    msg = str(exc).lower()
    if "database disk image is malformed" in msg or "file is not a database" in msg or "malformed" in msg:
        return IndexProblem(
            "corrupt",
            f"The index file {path} is damaged ({exc}). It was left untouched; rebuild the index "
            "to a new file (the documents themselves are not affected).",
        )
    if _is_busy(exc):
        return IndexProblem("busy", f"The index {path} is being written by another neardup window or command; try again when it has finished.")
    if "disk is full" in msg or "database or disk is full" in msg or (
            ("disk i/o error" in msg or "unable to open" in msg) and _no_space(path.parent)):
        # (a disk already full when the index is opened fails on the -shm file: an I/O error)
        return IndexProblem("disk-full", f"The disk holding {path} is full. Nothing was lost: the last change was rolled back. Free some space and try again.")
    if "readonly" in msg or "read-only" in msg or (
            "unable to open" in msg and not os.access(path.parent, os.W_OK)):
        # (SQLite cannot open a WAL file where it cannot create the -shm file beside it)
        return IndexProblem("read-only", f"The index {path} cannot be written (read-only location). Choose a writable location for the index.")
    return IndexProblem("io", f"The index {path} could not be used: {exc}")


def _file_size(path: Path) -> int:
    """The size of a file, 0 when there is none (also when it is removed while we look): one
    stat, failing where ``Path.exists`` would fail (a permission refused), not in between."""
    try:
        return path.stat().st_size
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            return 0
        raise


# The index files this process has a connection to, by (device, inode): how many Stores. While
# one is open, another Store of the same file does not read its header with open()/close():
# closing any descriptor of a file drops every POSIX lock the process holds on it, the locks of
# its SQLite connections included (SQLite itself never closes a descriptor while a lock is held).
# With them gone, another process could take the file for unused, checkpoint and delete the WAL
# under a write in progress, and write beside it (seen: `neardup index` writing through a lock
# held by another process after it had opened and closed a Store).
_OPEN_FILES: dict[tuple[int, int], int] = {}
_OPEN_FILES_LOCK = threading.Lock()


def _inode_of(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _open_here(path: Path) -> bool:
    """True when this process already has a Store open on ``path``'s file."""
    inode = _inode_of(path)
    with _OPEN_FILES_LOCK:
        return inode is not None and _OPEN_FILES.get(inode, 0) > 0


def _register_open(path: Path) -> tuple[int, int] | None:
    inode = _inode_of(path)
    if inode is not None:
        with _OPEN_FILES_LOCK:
            _OPEN_FILES[inode] = _OPEN_FILES.get(inode, 0) + 1
    return inode


def _register_close(inode: tuple[int, int] | None) -> None:
    if inode is None:
        return
    with _OPEN_FILES_LOCK:
        left = _OPEN_FILES.get(inode, 0) - 1
        if left > 0:
            _OPEN_FILES[inode] = left
        else:
            _OPEN_FILES.pop(inode, None)


# Waiting for another writer (another window or command writing the index) is done in slices
# of this length, up to the store's timeout: between two, Ctrl+C is heard (a KeyboardInterrupt)
# and the caller's hook (:func:`while_busy`) can report the wait and cancel it. (SQLite's own
# wait sleeps in C for the whole timeout, 30 s: measured, `neardup pairs` stopped 27.6 s after
# Ctrl+C while the app held the write lock.)
BUSY_SLICE_S = 0.1
_busy = threading.local()


@contextmanager
def while_busy(hook: Callable[[float], None]) -> Iterator[None]:
    """In this thread, call ``hook(seconds waited)`` between the slices of a wait for another
    writer; it may raise (a cancel) to stop waiting: nothing was written then."""
    previous = getattr(_busy, "hook", None)
    _busy.hook = hook
    try:
        yield
    finally:
        _busy.hook = previous
