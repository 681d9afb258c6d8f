"""The window keeps responding while an indexing task's worker is killed by a hostile file.

An indexing task runs through the app's task runner over a folder with a PDF that takes too
long (killed at the time limit) and one that inflates past the memory cap (killed by it),
beside ordinary documents. A QTimer on the GUI thread must keep ticking at its interval the
whole time, and the task must end with the hostile files listed as skipped with their reasons.
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer

from neardup_gui.app.jobs import index_collection
from neardup_gui.app.tasks import TaskRunner
from neardup_gui.core.settings import ExtractLimits, Settings

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ingest"
_spec = importlib.util.spec_from_file_location("ingest_fixtures", FIXTURES / "make_fixtures.py")
mf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mf)

TICK_MS = 50


@pytest.fixture
def runner(qtbot):
    r = TaskRunner()
    yield r
    r.shutdown(30)


def test_gui_ticks_while_hostile_files_kill_workers(qtbot, runner, corpus_dir, tmp_path):
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "slow.pdf").write_bytes(mf.slow_pdf(2))  # far longer than the time limit
    (folder / "hog.pdf").write_bytes(mf.huge_stream_pdf(700))  # inflates past the memory cap
    (folder / "en.docx").write_bytes((FIXTURES / "en.docx").read_bytes())
    sections = sorted((corpus_dir / "debian-reference-en").glob("*.txt"))[:6]
    for s in sections:
        (folder / s.name).write_text(s.read_text(encoding="utf-8")[:1500], encoding="utf-8")
    settings = Settings(workers=2, limits=ExtractLimits(time_limit_s=6.0, memory_limit_mb=448, max_unzipped_mb=4000))
    db = tmp_path / "index" / "collection.ndx"

    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start()
    outcome: dict[str, object] = {}
    task = runner.start("index", index_collection, str(db), str(folder), settings,
                        on_done=lambda state: outcome.setdefault("state", state),
                        on_error=lambda exc, detail: outcome.setdefault("error", detail))
    started = time.monotonic()
    with qtbot.waitSignal(task.finished, timeout=90_000):
        pass
    ended = time.monotonic()
    timer.stop()

    assert "error" not in outcome, outcome.get("error")
    state = outcome["state"]
    reasons = {Path(s.path).name: (s.code, s.reason) for s in state.report.skipped}
    assert reasons["slow.pdf"] == ("timeout", "extraction took longer than 6 s")
    # The hog is stopped by whichever limit it meets first on a busy machine; either way its
    # worker is killed and replaced, and the reason says which.
    assert reasons["hog.pdf"] in {("memory", "needs more than 448 MB of memory"),
                                  ("memory", "worker was killed, most likely out of memory"),
                                  ("timeout", "extraction took longer than 6 s")}
    assert set(reasons) == {"slow.pdf", "hog.pdf"}
    assert {d.rel for d in state.documents if d.status == "indexed"} == {"en.docx"} | {s.name for s in sections}
    # The event loop kept turning: ticks all through the task, never a long gap.
    during = [t for t in ticks if started <= t <= ended]
    gaps = [b - a for a, b in zip(during, during[1:])]
    assert ended - started > 6.0  # the slow PDF really held a worker up to the limit
    assert len(during) >= 0.5 * (ended - started) / (TICK_MS / 1000)
    assert max(gaps) < 0.5, f"the GUI thread stalled for {max(gaps):.2f} s"
