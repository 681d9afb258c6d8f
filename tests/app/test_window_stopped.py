"""The window stopped in the middle of an index build — by SIGTERM (a logout, a shutdown, a task
manager's "End task"), or killed outright (SIGKILL: the out-of-memory killer, a crash): no worker
process outlives it, SIGTERM closes it as its close button does, and the next start completes the
index with nothing lost.

The real application runs in a child process (``startup_driver.py``) in a session of its own, and
the signal goes to it alone. The folder holds a PDF that only the extraction's time limit ends, so
the build is under way whenever the signal comes, on any machine.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.copyheavy import build
from tests.core.reliability_helpers import consistency_problems, integrity, snapshot
from tests.fixtures.ingest.make_fixtures import endless_pdf
from tests.signals import ORPHANS_GONE_S, end_session, left_alive, session_processes

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sessions and /proc")

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("startup_driver.py")
# A PDF that only the extraction's time limit ends, made the largest file (read first): a worker is
# busy with it whenever the signal comes, and so cannot notice its parent gone by a closed pipe.
ENDLESS = "endless.pdf"
# A guard against a hang, not a speed figure.
BOUND_S = 120.0


def child_env() -> dict[str, str]:
    env = dict(os.environ)  # (the isolated HOME and XDG folders of this test)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["PYTHONPATH"] = str(ROOT)
    return env


@pytest.fixture(scope="module")
def folder(tmp_path_factory, corpus_dir) -> Path:
    root = tmp_path_factory.mktemp("stopped")
    build(root / "docs", 60, seed=5, families=12)
    return root / "docs"


def workers_of(session: int) -> int:
    """The extraction processes the window started (spawned: ``spawn_main`` in their command)."""
    count = 0
    for pid, _ in session_processes(session):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                count += b"spawn_main" in f.read()
        except OSError:
            continue
    return count


def index_under_way(proc: subprocess.Popen) -> None:
    """Return once the window's index task has a document back from its extraction workers (its
    progress names the file: the collection's are .txt files): they are at work, one of them on
    the endless PDF (the largest file, read first), which only the time limit ends."""
    deadline = time.monotonic() + BOUND_S
    buffer = b""
    while True:
        assert time.monotonic() < deadline, "the index build was never seen under way"
        assert proc.poll() is None, f"the window ended first (status {proc.returncode})"
        ready, _, _ = select.select([proc.stdout], [], [], 0.05)
        if ready:
            buffer += os.read(proc.stdout.fileno(), 65536)
            *lines, buffer = buffer.split(b"\n")
            if any(line.startswith(b"PROGRESS index ") and line.endswith(b".txt") for line in lines):
                assert workers_of(proc.pid), session_processes(proc.pid)
                return


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_the_window_stopped_mid_index_leaves_no_worker_and_the_next_start_completes_it(folder, tmp_path, how):
    docs = tmp_path / "docs"
    shutil.copytree(folder, docs)
    (docs / ENDLESS).write_bytes(endless_pdf(padding=1 << 16))
    with open(tmp_path / "stderr", "wb") as stderr:
        proc = subprocess.Popen([sys.executable, str(DRIVER), "--open", str(docs), "--say-progress"], cwd=ROOT,
                                env=child_env(), stdout=subprocess.PIPE, stderr=stderr, start_new_session=True)
    try:
        index_under_way(proc)
        os.kill(proc.pid, how)
        proc.wait(BOUND_S)
        alive = left_alive(proc.pid)
    finally:
        end_session(proc.pid)  # (what is left holds the output pipe open: it goes before it is read)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        out = proc.stdout.read().decode("utf-8", "replace")
        proc.stdout.close()
    assert alive == [], f"alive {ORPHANS_GONE_S} s after {how.name} to the window: {alive}"
    if how == signal.SIGTERM:  # closed as its close button does: the task cancelled and waited for
        reports = [json.loads(line[len("REPORT "):]) for line in out.splitlines() if line.startswith("REPORT ")]
        assert reports and reports[-1]["exit_code"] == 128 + signal.SIGTERM, (tmp_path / "stderr").read_text()
    else:
        assert proc.returncode == -signal.SIGKILL

    (docs / ENDLESS).unlink()
    again = subprocess.run([sys.executable, str(DRIVER), "--open", str(docs), "--refresh"], capture_output=True,
                           text=True, env=child_env(), cwd=ROOT, timeout=BOUND_S)
    lines = [line for line in again.stdout.splitlines() if line.startswith("REPORT ")]
    assert lines, f"no report; exit {again.returncode}\n{again.stderr[-3000:]}"
    window = json.loads(lines[-1][len("REPORT "):])["window"]
    db = Path(window["db"])
    assert integrity(db) == ["ok"] and consistency_problems(db) == []
    files = sorted(str(p.relative_to(docs)) for p in docs.rglob("*") if p.is_file())
    indexed = snapshot(db).documents
    assert sorted(indexed) == files and {status for status, _ in indexed.values()} == {"indexed"}
