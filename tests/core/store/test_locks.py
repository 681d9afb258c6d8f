"""A Store opened beside another one of the same process keeps that one's locks.

Closing any descriptor of a file drops every POSIX lock the process holds on it. The header
check read the index file with open()/close(): a second Store opened in a process (the app opens
one per task) dropped the write lock of the first. Another process could then take the file for
unused when it closed its own connection, checkpoint and delete the WAL under the write in
progress, and write beside it — a lost or torn write. Two real processes here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from neardup_gui.core.store import Store

ROOT = Path(__file__).resolve().parents[3]

OTHER_PROCESS = """
import sys
from neardup_gui.core.store import IndexProblem, Store
db = sys.argv[1]
Store(db, create=False).close()  # open and close: the last connection here, it may clean up
store = Store(db, create=False, timeout_s=0.5)
try:
    store.set_meta("note", "written by the other process")
    print("WROTE")
except IndexProblem as exc:
    print(exc.kind)
finally:
    store.close()
"""


def _other_process_writes(db: Path) -> str:
    run = subprocess.run([sys.executable, "-c", OTHER_PROCESS, str(db)], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_a_second_store_keeps_the_first_ones_write_lock(tmp_path) -> None:
    db = tmp_path / "i.ndx"
    Store(db).close()
    writer = Store(db, create=False)
    try:
        writer.conn.execute("BEGIN IMMEDIATE")  # a task in the middle of a write
        writer.set_meta("note", "being written")
        assert _other_process_writes(db) == "busy"
        reader = Store(db, create=False)  # another task of the same process opens the index
        try:
            assert reader.get_meta("folder") is None
            assert _other_process_writes(db) == "busy"  # before: WROTE, through the lock
        finally:
            reader.close()
        writer.conn.execute("COMMIT")
    finally:
        writer.close()
    with Store(db, create=False) as again:
        assert again.get_meta("note") == "being written"
    assert _other_process_writes(db) == "WROTE"  # (free again: the test can tell the two apart)
