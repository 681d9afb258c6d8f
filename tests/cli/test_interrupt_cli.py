"""Ctrl+C in the middle of `neardup index` or `neardup pairs`: the command stops at once with exit
code 130, no worker process outlives it, and what was done is kept: the next run finishes the
work and its answers are those of a run never interrupted.

The interrupt is sent as a terminal sends it, to the command's whole process group, once the
command's own progress says the work is under way (no sleep: the same on any machine; what is
left then takes seconds here).
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
from tests.benchmarks.copyheavy import build
from tests.signals import hear_ctrl_c

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups and /proc")

ROOT = Path(__file__).resolve().parents[2]


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
