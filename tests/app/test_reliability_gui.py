"""The window keeps responding while an indexing task's worker is killed by a hostile file.

An indexing task runs through the app's task runner over a folder with a PDF that never
finishes (killed at the time limit, on any machine) and one that inflates past the memory cap
(killed by it), beside ordinary documents. A QTimer on the GUI thread must keep ticking while
the task runs, and the task must end with the hostile files listed as skipped with their
reasons. Nothing here depends on the machine's speed: the endless PDF cannot beat the limit,
and the ticks are counted while a worker is held by it (how long the GUI thread ever waits is
measured in benchmarks/bench_gui_responsiveness.py).
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
    (folder / "slow.pdf").write_bytes(mf.endless_pdf())  # never finishes: only the time limit ends it
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
    with qtbot.waitSignal(task.finished, timeout=600_000):  # a guard against a hang, not a speed test
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
    # The endless PDF held a worker for the whole time limit: the task lasted at least that long,
    # whatever the machine's speed, and the event loop kept turning meanwhile (a GUI thread
    # blocked by the task would have fired its timer at most once).
    during = [t for t in ticks if started <= t <= ended]
    assert ended - started >= 6.0
    assert len(during) >= 3
