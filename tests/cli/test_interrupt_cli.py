"""Ctrl+C, SIGTERM or SIGKILL in the middle of `neardup index` or `neardup pairs`: the command stops
(Ctrl+C: at once, exit code 130; SIGTERM as Ctrl+C does, 143), no worker process outlives it, even
when the command itself is killed, and what was done is kept: the next run finishes the work and
its answers are those of a run never interrupted.

Ctrl+C is sent as a terminal sends it, to the command's whole process group; SIGTERM and SIGKILL
to the command alone, as a logout, a task manager or the out-of-memory killer do. Each is sent
once the command's own progress says the work is under way (no sleep: the same on any machine;
what is left then takes seconds here, or, for the index build, a file that only the time limit
ends).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from neardup_gui.core import pairpass
from benchmarks.copyheavy import build
from tests.fixtures.ingest.make_fixtures import endless_pdf
from tests.signals import ORPHANS_GONE_S, end_session, hear_ctrl_c, left_alive

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups and /proc")

ROOT = Path(__file__).resolve().parents[2]
# A PDF that only the extraction's time limit ends, made the largest file (read first): a worker is
# busy with it whenever the signal comes, and so cannot notice its parent gone by a closed pipe.
ENDLESS = "endless.pdf"


def neardup(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "neardup_gui.cli", *args], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)


def interrupted(args: list[str], under_way: Callable[[str], bool]) -> subprocess.CompletedProcess:
    """Run ``neardup args``; send Ctrl+C once ``under_way`` holds for a line of its progress."""
    proc = subprocess.Popen([sys.executable, "-m", "neardup_gui.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True,
                            preexec_fn=hear_ctrl_c)
    seen = ""
    try:
        for line in proc.stderr:  # (ends when the command does: then it was never seen under way)
            seen += line
            if under_way(line):
                break
        else:
            raise AssertionError(f"ended before it was seen under way: {seen[-2000:]!r}")
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)  # (a guard against a hang, not a speed test)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, seen + err)


def past(percent: float) -> Callable[[str], bool]:
    """A progress line (``[ 12.5%] …``) at ``percent`` or beyond, and below 50 %."""
    def test(line: str) -> bool:
        m = re.match(r"\[\s*([0-9.]+)%\]", line)
        return bool(m) and percent <= float(m.group(1)) < 50
    return test


def pairs_of(output: str) -> list[tuple[str, str, float]]:
    return sorted((min(r["a"], r["b"]), max(r["a"], r["b"]), r["similarity"]) for r in json.loads(output))


def holders_of(path: Path) -> list[int]:
    """The processes that have ``path`` open."""
    target = os.path.realpath(path)
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                    found.append(int(pid))
                    break
            except OSError:
                continue
    return found


def none_left_holding(path: Path) -> None:
    # (the command waits for its workers before it exits: none may be left once it has)
    assert not holders_of(path), f"processes still hold {path}: {holders_of(path)}"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("interrupt")
    build(root / "docs", pairpass.PARALLEL_MIN_DOCS_FORKED + 20, seed=9, families=60)
    return root / "docs"


@pytest.fixture(scope="module")
def whole(folder, tmp_path_factory) -> tuple[Path, list]:
    """An index made and paired in one go, and a copy of it before its pass: what an interrupted
    run must come back to."""
    root = tmp_path_factory.mktemp("whole")
    db, unpaired = root / "whole.db", root / "unpaired.db"
    assert neardup("index", str(folder), "--db", str(db), "-q").returncode == 0
    shutil.copy(db, unpaired)  # (closed: its log is in the file)
    done = neardup("pairs", "--db", str(db), "--threshold", "0.8", "--json", "-q")
    assert done.returncode == 0, done.stderr[-2000:]
    return unpaired, pairs_of(done.stdout)


def test_ctrl_c_stops_the_pass_and_the_next_run_finishes_it(whole, tmp_path) -> None:
    db = tmp_path / "i.db"
    shutil.copy(whole[0], db)
    run = interrupted(["pairs", "--db", str(db), "--threshold", "0.8", "--workers", "2"], past(1))
    assert run.returncode == 130, run.stderr[-2000:]
    assert "interrupted" in run.stderr and "Traceback" not in run.stderr
    none_left_holding(db)
    with sqlite3.connect(db) as conn:  # stopped part-way: some documents paired, not all
        paired = conn.execute("SELECT count(*) FROM paired").fetchone()[0]
        total = conn.execute("SELECT count(*) FROM documents").fetchone()[0]
    assert paired < total
    again = neardup("pairs", "--db", str(db), "--threshold", "0.8", "--json", "-q")
    assert again.returncode == 0, again.stderr[-2000:]
    assert pairs_of(again.stdout) == whole[1]


def test_ctrl_c_stops_the_index_build_and_the_next_run_finishes_it(folder, whole, tmp_path) -> None:
    db = tmp_path / "i.db"
    run = interrupted(["index", str(folder), "--db", str(db), "--workers", "2"], past(5))
    assert run.returncode == 130, run.stderr[-2000:]
    assert "interrupted" in run.stderr and "Traceback" not in run.stderr
    none_left_holding(db)
    with sqlite3.connect(db) as conn:
        kept = conn.execute("SELECT count(*) FROM documents").fetchone()[0]
    files = sum(1 for p in folder.rglob("*") if p.is_file())
    # (the documents of the commit group open at the interrupt are rolled back: at most 2 s of
    # work, COMMIT_EVERY_S; a KeyboardInterrupt may come in the middle of a document's rows)
    assert kept < files
    # another process, later: the index says it is partial (before, nothing told it from a whole one)
    partial = neardup("clusters", "--db", str(db), "--json", "-q")
    assert partial.returncode == 0, partial.stderr[-2000:]
    assert "did not finish" in partial.stderr and f"neardup index {folder} --db {db}" in partial.stderr
    # (the same mark is there while another command indexes it now: said, not taken for a stop)
    assert "or is still running in another window or command" in partial.stderr
    assert json.loads(partial.stdout) is not None  # (the JSON on stdout stays as it was)
    again = neardup("index", str(folder), "--db", str(db), "--json", "-q")
    assert again.returncode == 0, again.stderr[-2000:]
    report = json.loads(again.stdout)
    assert report["unchanged"] == kept and report["added"] == files - kept and not report["skipped"]
    pairs = neardup("pairs", "--db", str(db), "--threshold", "0.8", "--json", "-q")
    assert pairs.returncode == 0, pairs.stderr[-2000:]
    assert pairs_of(pairs.stdout) == whole[1]
    assert "did not finish" not in pairs.stderr


def stopped(args: list[str], under_way: Callable[[str], bool], how: signal.Signals
            ) -> tuple[subprocess.CompletedProcess, list[tuple[int, str]]]:
    """Run ``neardup args`` in a session of its own; send ``how`` to the command alone once
    ``under_way`` holds for a line of its progress. Returns its outcome and the processes of its
    session (its workers, its fork server) still alive ORPHANS_GONE_S after the signal."""
    proc = subprocess.Popen([sys.executable, "-m", "neardup_gui.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True)
    seen = ""
    try:
        for line in proc.stderr:
            seen += line
            if under_way(line):
                break
        else:
            raise AssertionError(f"ended before it was seen under way: {seen[-2000:]!r}")
        os.kill(proc.pid, how)
        proc.wait(60)  # (a guard against a hang, not a speed test)
        alive = left_alive(proc.pid)
    finally:
        end_session(proc.pid)  # (what is left holds the output pipes open: it goes before they are read)
        if proc.poll() is None:
            proc.kill()
        out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, seen + err), alive


def said_stopped(run: subprocess.CompletedProcess, how: signal.Signals) -> None:
    """SIGTERM stops the command as Ctrl+C does: said in a line, its own exit status."""
    if how == signal.SIGKILL:
        assert run.returncode == -signal.SIGKILL
        return
    assert run.returncode == 128 + how, run.stderr[-2000:]
    assert run.stderr.rstrip().endswith("terminated") and "Traceback" not in run.stderr


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_pass_stopped_or_killed_leaves_no_worker_and_the_next_run_finishes_it(whole, tmp_path, how) -> None:
    db = tmp_path / "i.db"
    shutil.copy(whole[0], db)
    run, alive = stopped(["pairs", "--db", str(db), "--threshold", "0.8", "--workers", "2"], past(1), how)
    assert alive == [], f"alive {ORPHANS_GONE_S} s after {how.name} to the command: {alive}"
    said_stopped(run, how)
    none_left_holding(db)
    again = neardup("pairs", "--db", str(db), "--threshold", "0.8", "--json", "-q")
    assert again.returncode == 0, again.stderr[-2000:]
    assert pairs_of(again.stdout) == whole[1]


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_an_index_build_stopped_or_killed_leaves_no_worker_and_the_next_run_finishes_it(folder, whole, tmp_path, how) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(folder, docs)
    # a file that only the time limit (60 s) ends: the build is under way, a worker busy, whenever
    # the signal comes
    (docs / ENDLESS).write_bytes(endless_pdf(padding=1 << 16))
    db = tmp_path / "i.db"
    run, alive = stopped(["index", str(docs), "--db", str(db), "--workers", "2"],
                         lambda line: "] Indexed " in line, how)
    assert alive == [], f"alive {ORPHANS_GONE_S} s after {how.name} to the command: {alive}"
    said_stopped(run, how)
    none_left_holding(db)
    (docs / ENDLESS).unlink()
    again = neardup("index", str(docs), "--db", str(db), "--json", "-q")
    assert again.returncode == 0, again.stderr[-2000:]
    report = json.loads(again.stdout)
    files = sum(1 for p in docs.rglob("*") if p.is_file())
    assert report["unchanged"] + report["added"] == files and not report["skipped"]
    pairs = neardup("pairs", "--db", str(db), "--threshold", "0.8", "--json", "-q")
    assert pairs.returncode == 0, pairs.stderr[-2000:]
    assert pairs_of(pairs.stdout.replace(str(docs), str(folder))) == whole[1]  # (the same files, elsewhere)


def test_sighup_stops_a_command_as_sigterm_does_unless_ignored_when_it_started() -> None:
    """SIGHUP (its terminal closed) raises what SIGTERM raises, said "hung up", exit status 129;
    a command started with SIGHUP ignored (``nohup``) keeps ignoring it."""
    from neardup_gui.stopping import Terminated, said, stop_on_signals

    handlers = stop_on_signals()
    try:
        with pytest.raises(Terminated) as caught:
            os.kill(os.getpid(), signal.SIGHUP)
            signal.sigtimedwait([], 5)  # (a guard: the handler has raised before this)
    finally:
        handlers.restore()
    assert said(caught.value) == "hung up" and 128 + caught.value.signum == 129
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        handlers = stop_on_signals()
        handlers.restore()
        assert signal.SIGHUP not in handlers and signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, previous)
