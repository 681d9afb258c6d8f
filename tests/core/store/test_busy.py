"""Waiting for another writer of the index can be stopped, and says that it waits.

Another process (the app, another command) holding the index's write lock made a writer wait in
SQLite's own busy handler, in C, for the whole timeout (30 s): Ctrl+C was heard only then
(measured: `neardup pairs` ended 27.6 s after it) and the app's Cancel not at all. The wait is
now made of short slices (store.BUSY_SLICE_S), and a caller's hook (store.while_busy) is called
between them. The lock is held by a real second process here.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from neardup_gui.core.progress import Cancelled
from neardup_gui.core.store import IndexProblem, Store, while_busy
from tests.signals import hear_ctrl_c

ROOT = Path(__file__).resolve().parents[3]


HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")  # the write lock, as a window writing the index holds it
print("HELD", flush=True)
sys.stdin.readline()  # until told (or the test ends)
conn.execute("ROLLBACK")
print("RELEASED", flush=True)
sys.stdin.readline()
"""


class Holder:
    """A second process holding the index's write lock until :meth:`release`."""

    def __init__(self, db: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "HELD"

    def release(self) -> None:
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "RELEASED"

    def close(self) -> None:
        self.proc.kill()
        self.proc.communicate(timeout=60)  # (closes its pipes)


@pytest.fixture
def db(tmp_path) -> Path:
    path = tmp_path / "i.ndx"
    with Store(path) as store:
        store.set_meta("note", "before")
    return path


@pytest.fixture
def holder(db):
    h = Holder(db)
    yield h
    h.close()


def _note(db: Path) -> str | None:
    with Store(db, create=False) as store:
        return store.get_meta("note")


def test_a_wait_reports_itself_and_goes_on_once_the_other_writer_is_done(db, holder) -> None:
    waited: list[float] = []

    def hook(seconds: float) -> None:
        waited.append(seconds)
        if len(waited) == 3:
            holder.release()  # the other program finishes while this one waits

    with Store(db, create=False) as store, while_busy(hook):
        store.set_meta("note", "after")
    assert len(waited) >= 3 and waited == sorted(waited)
    assert _note(db) == "after"


def test_a_cancel_while_waiting_stops_it_and_leaves_nothing_open(db, holder) -> None:
    calls: list[float] = []

    def hook(seconds: float) -> None:
        calls.append(seconds)
        if len(calls) == 2:
            raise Cancelled()

    with Store(db, create=False) as store:
        with while_busy(hook), pytest.raises(Cancelled):
            with store.transaction() as conn:
                conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('note', 'never')")
        assert not store.conn.in_transaction
        holder.release()
        store.set_meta("note", "later")  # the same store writes once the lock is free
    assert _note(db) == "later"


def test_the_wait_still_ends_at_the_timeout_with_a_plain_busy_error(db, holder) -> None:
    calls: list[float] = []
    with Store(db, create=False, timeout_s=0.5) as store, while_busy(calls.append):
        with pytest.raises(IndexProblem) as err:
            store.set_meta("note", "never")
        assert not store.conn.in_transaction
    assert err.value.kind == "busy"
    assert calls and max(calls) < 0.5 + 1e-9
    holder.release()
    assert _note(db) == "before"


def _stderr_line(proc: subprocess.Popen, wanted: str) -> str:
    """Read the command's stderr until a line says ``wanted`` (fails if the command ends first)."""
    seen = ""
    for line in proc.stderr:
        seen += line
        if wanted in line:
            return seen
    raise AssertionError(f"never said {wanted!r}; stderr: {seen!r}")


def test_the_command_line_says_it_waits_and_ctrl_c_stops_it_at_once(db, holder, tmp_path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "neardup_gui.cli", "pairs", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            start_new_session=True,
                            preexec_fn=hear_ctrl_c)
    try:
        # (said only by the wait in slices: SQLite's own wait, in C, said nothing and heard
        # Ctrl+C only at its end, 30 s later; a slice is 0.1 s, see store.BUSY_SLICE_S)
        _stderr_line(proc, "being written by another")
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl+C reaches the terminal's whole process group
        _, err = proc.communicate(timeout=300)  # (a guard against a hang, not a speed test)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()  # (closes its pipes)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    holder.release()
    assert _note(db) == "before"


def test_ctrl_c_just_after_commit_keeps_the_write_and_logs_no_error(db, caplog) -> None:
    """An interrupted `neardup index` printed "cannot rollback - no transaction is active" with
    its traceback: Ctrl+C had come once COMMIT had returned, and the rollback found nothing open."""
    with Store(db, create=False) as store:
        with pytest.raises(KeyboardInterrupt):
            with store.transaction() as conn:
                conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('note', 'kept')")
                conn.execute("COMMIT")  # (the moment: COMMIT has returned, the interrupt comes)
                raise KeyboardInterrupt
        assert not store.conn.in_transaction
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert _note(db) == "kept"
