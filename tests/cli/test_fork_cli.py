"""The command line forks its children (core/processes.py); the app and any threaded process spawn
them. Forked or spawned, one process or two: the same index and the same pairs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from neardup_gui.core import pairpass, processes
from benchmarks.copyheavy import build

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
        def both():  # (an extraction child; a pass worker, which opens the index)
            return processes.context().get_start_method() + "/" + processes.context(opens_index=True).get_start_method()
        seen = [both()]
        processes.allow_fork()
        seen.append(both())
        stop = threading.Event()
        t = threading.Thread(target=stop.wait); t.start()
        seen.append(both())
        stop.set(); t.join()
        seen.append(both())
        import PySide6.QtCore
        seen.append(both())
        print(" ".join(seen))
    """)
    # (the fork server is a fresh interpreter: another thread, or Qt, here does not matter to it)
    assert out == "spawn/spawn fork/forkserver spawn/forkserver fork/forkserver spawn/forkserver"


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


@pytest.mark.parametrize("fork", [True, False])
def test_the_tables_of_every_fingerprint_are_built_before_the_children_are_forked(folder, tmp_path, fork) -> None:
    """An index build that forks its extraction children builds the stop words' tables (and the
    folding tables) first, once: the children inherit them. One that spawns them leaves that to
    each child."""
    out = python(f"""
        from neardup_gui.core import fingerprints, folding, processes
        from neardup_gui.core.indexer import index_folder
        from neardup_gui.core.settings import Settings
        from neardup_gui.core.store import Store
        processes.allow_fork({fork})
        with Store({str(tmp_path / "t.db")!r}) as store:
            index_folder(store, {str(folder)!r}, Settings(workers=2))
        print(fingerprints._stop_unit_ids.cache_info().currsize, folding.fold_map.cache_info().currsize)
    """)
    assert out == ("1 1" if fork else "0 0")


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
        # (the pass's workers open the index: the fork server forks them, not this process)
        assert ("starting a child process by forkserver" in done.stderr) == (workers == "2")
        runs[workers] = sorted((min(r["a"], r["b"]), max(r["a"], r["b"]), r["similarity"])
                               for r in json.loads(done.stdout))
    assert len(runs["1"]) > 50
    assert runs["2"] == runs["1"]


def test_without_a_fork_server_the_workers_are_spawned_and_the_pairs_the_same(folder, tmp_path) -> None:
    """A temporary folder whose path is too long for the server's socket: said once, the pass's
    workers are spawned, the pairs are those of one process."""
    db = tmp_path / "nosrv.db"
    assert neardup("index", str(folder), "--db", str(db), "-q").returncode == 0
    one = tmp_path / "one.db"
    one.write_bytes(db.read_bytes())
    long_tmp = tmp_path / ("x" * 60) / ("y" * 60)
    long_tmp.mkdir(parents=True)
    env = {**os.environ, "TMPDIR": str(long_tmp)}
    done = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "-vv", "pairs", "--db", str(db), "--threshold",
                           "0.8", "--json", "-q", "--workers", "2"], capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr.count("the fork server did not start") == 1
    assert "starting a child process by spawn" in done.stderr
    alone = neardup("pairs", "--db", str(one), "--threshold", "0.8", "--json", "-q", "--workers", "1")
    assert alone.returncode == 0, alone.stderr[-2000:]
    assert json.loads(done.stdout) == json.loads(alone.stdout)


WORKER_LOCKS = """
import os, sys
from neardup_gui.core import pairpass, processes
from neardup_gui.core.collection import Collection
from neardup_gui.core.settings import Settings

def locked_inodes(pid):
    with open("/proc/locks") as f:
        return {line.split()[5].split(":")[-1] for line in f
                if len(line.split()) > 5 and line.split()[4] == str(pid)}

if __name__ == "__main__":
    processes.allow_fork(sys.argv[2] == "cli")
    processes.start_server()
    with Collection.open(sys.argv[1], create=False) as coll:  # the caller has the index open
        spec = coll.pass_spec(Settings(), None, 0.8)
        coll.store.get_meta("folder")
        ctx = processes.context(opens_index=True)
        with ctx.Pool(2, initializer=pairpass._init_worker, initargs=(spec,)) as pool:
            pids = {pool.apply(os.getpid) for _ in range(8)}  # workers past their start: index open
            print(ctx.get_start_method(), os.getpid() in pids,
                  *sorted(" ".join(sorted(locked_inodes(p))) or "-" for p in pids), sep="|")
"""


@pytest.mark.parametrize("caller", ["cli", "app"])
def test_a_pass_worker_holds_its_own_lock_on_the_index(folder, tmp_path, caller) -> None:
    """Every open WAL connection holds a lock on the database file (so that no other process
    deletes the log under it). A worker forked from a process that has the index open would get
    a copy of SQLite's bookkeeping of the parent's locks but not the locks: it would take its
    own for held and never ask the system for them. The pass's workers are started by the fork
    server (the command line) or spawned (the app): each holds its lock, seen in /proc/locks,
    while the caller keeps the index open."""
    db = tmp_path / "locks.db"
    done = neardup("index", str(folder), "--db", str(db), "-q")
    assert done.returncode == 0, done.stderr[-2000:]
    script = tmp_path / "worker_locks.py"
    script.write_text(textwrap.dedent(WORKER_LOCKS))
    run = subprocess.run([sys.executable, str(script), str(db), caller], capture_output=True, text=True,
                         timeout=300, cwd=str(Path(__file__).resolve().parents[2]))
    assert run.returncode == 0, run.stderr[-2000:]
    method, in_caller, *workers = run.stdout.strip().split("|")
    assert method == ("forkserver" if caller == "cli" else "spawn")
    assert in_caller == "False"
    assert workers, "no worker answered"
    for locked in workers:
        assert str(db.stat().st_ino) in locked.split(), f"a worker holds no lock on the index: {workers}"


def test_the_fork_servers_workers_find_the_folding_tables_built() -> None:
    # the fork server builds the tables each pass worker would build on its first text (the folds
    # of look-alike letters and traditional characters: about 55 ms a worker); a worker it forks
    # finds them built, and this process has not built them
    out = python("""
        from neardup_gui.core import folding, processes

        # (evaluated in the worker: a function of this script could not be sent to the server)
        BUILT = ("(__import__('neardup_gui.core.folding', fromlist=['fold_map']).fold_map.cache_info().currsize,"
                 " __import__('neardup_gui.core.folding', fromlist=['fold_table']).fold_table.cache_info().currsize)")
        processes.allow_fork()
        processes.start_server()
        with processes.context(opens_index=True).Pool(1) as pool:
            print(pool.apply_async(eval, (BUILT,)).get(timeout=60), folding.fold_map.cache_info().currsize)
    """)
    assert out == "(1, 1) 0"
