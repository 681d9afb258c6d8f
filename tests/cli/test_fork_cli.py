"""The command line forks its children (core/processes.py); the app and any threaded process spawn
them. Forked or spawned, one process or two: the same index and the same pairs."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from neardup_gui.core import pairpass, processes
from tests.benchmarks.copyheavy import build

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork is used on Linux only")


def neardup(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "neardup_gui.cli", *args], capture_output=True, text=True, timeout=600)


def python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_fork_only_where_chosen_and_safe() -> None:
    # a fresh process: not chosen → spawn; chosen → fork; a second thread or Qt loaded → spawn again
    out = python("""
        import threading, time
        from neardup_gui.core import processes
        seen = [processes.context().get_start_method()]
        processes.allow_fork()
        seen.append(processes.context().get_start_method())
        stop = threading.Event()
        t = threading.Thread(target=stop.wait); t.start()
        seen.append(processes.context().get_start_method())
        stop.set(); t.join()
        seen.append(processes.context().get_start_method())
        import PySide6.QtCore
        seen.append(processes.context().get_start_method())
        print(" ".join(seen))
    """)
    assert out == "spawn fork spawn fork spawn"


def test_a_large_parent_spawns_the_children_that_cap_their_memory() -> None:
    # a forked child starts with its parent's address space: an extraction child (which caps its
    # own) is spawned from a parent over FORK_MAX_PARENT_MB, so the file keeps its room
    out = python("""
        import mmap
        from neardup_gui.core import processes
        processes.allow_fork()
        seen = [processes.context(capped=True).get_start_method()]
        block = mmap.mmap(-1, (processes.FORK_MAX_PARENT_MB + 200) * 2**20)  # mapped, never touched
        seen += [processes.context(capped=True).get_start_method(), processes.context().get_start_method()]
        print(" ".join(seen))
    """)
    assert out == "fork spawn fork"


def test_this_test_process_never_forks() -> None:
    # (pytest-qt has loaded Qt here: the in-process tests always spawn)
    processes.allow_fork()
    try:
        assert processes.context().get_start_method() == "spawn"
    finally:
        processes.allow_fork(False)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("fork")
    build(root / "docs", pairpass.PARALLEL_MIN_DOCS_FORKED + 20, seed=5, families=60)
    return root / "docs"


def test_forked_index_and_pass_equal_one_process(folder, tmp_path) -> None:
    """Two forked extraction children and two forked pass workers: the same pairs as one process."""
    dbs = {}
    for workers in ("1", "2"):
        db = dbs[workers] = tmp_path / f"w{workers}.db"
        done = neardup("-vv", "index", str(folder), "--db", str(db), "-q", "--workers", workers)
        assert done.returncode == 0, done.stderr[-2000:]
        assert "starting a child process by fork" in done.stderr
        assert "by spawn" not in done.stderr
    runs = {}
    for workers in ("1", "2"):
        done = neardup("-vv", "pairs", "--db", str(dbs[workers]), "--threshold", "0.8", "--json", "-q",
                       "--workers", workers)
        assert done.returncode == 0, done.stderr[-2000:]
        assert ("starting a child process by fork" in done.stderr) == (workers == "2")
        runs[workers] = sorted((min(r["a"], r["b"]), max(r["a"], r["b"]), r["similarity"])
                               for r in json.loads(done.stdout))
    assert len(runs["1"]) > 50
    assert runs["2"] == runs["1"]


def test_the_pass_forks_while_its_parent_holds_no_lock_on_the_database(folder, tmp_path) -> None:
    """A forked worker opens its own connection, but SQLite's bookkeeping of its parent's locks is
    copied into it: the parent must hold none on the database file then (no read transaction
    open), only the lock on the shared-memory file that every open WAL connection holds."""
    db = tmp_path / "locks.db"
    done = neardup("index", str(folder), "--db", str(db), "-q")
    assert done.returncode == 0, done.stderr[-2000:]
    code = textwrap.dedent(f"""
        import os, sys
        from neardup_gui.core import processes
        real = processes.context
        def context(capped=False):
            ctx = real(capped)
            if ctx.get_start_method() == "fork":
                mine = [f for f in map(str.split, open("/proc/locks")) if len(f) > 5 and f[4] == str(os.getpid())]
                print("FORK", *[f[5].split(":")[-1] for f in mine], file=sys.stderr)
            return ctx
        processes.context = context
        from neardup_gui import cli
        sys.exit(cli.main(["pairs", "--db", {str(db)!r}, "--threshold", "0.8", "--json", "-q", "--workers", "2"]))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    forks = [line.split()[1:] for line in done.stderr.splitlines() if line.startswith("FORK")]
    assert forks, "the pass did not fork its workers"
    database = str(db.stat().st_ino)
    for locked in forks:
        assert database not in locked
