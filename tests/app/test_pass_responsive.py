"""The window stays responsive while the collection-wide pass runs in worker processes."""

from __future__ import annotations

import multiprocessing
import time

import pytest
from PySide6.QtCore import QTimer

from benchmarks.copyheavy import build
from neardup_gui.core import pairpass

TICK_MS = 10



def test_window_keeps_ticking_during_the_parallel_pairs_pass(qtbot, window, tmp_path, corpus_dir, isolated_home,
                                                             monkeypatch):
    # worker processes from a few hundred documents on, so that a test-sized call uses them
    monkeypatch.setattr(pairpass, "PARALLEL_MIN_DOCS", 100)
    folder = tmp_path / "call"
    build(folder, 600, seed=3, families=150)  # light edits of real sections: a copy-heavy call
    with qtbot.waitSignal(window.duplicates_ready, timeout=300_000):
        window.open_folder(str(folder))
    qtbot.waitUntil(lambda: not window.runner.is_busy(), timeout=120_000)
    assert window.settings.workers >= 2 or pytest.skip("one worker process configured")

    ticks: list[float] = []
    children_seen: list[int] = []

    def tick() -> None:
        ticks.append(time.monotonic())
        children_seen.append(len(multiprocessing.active_children()))

    timer = QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(tick)
    timer.start()
    # a lower threshold than the cache was made for: the whole collection is paired again
    lower = window.settings.with_(threshold=window.settings.threshold - 0.2)
    started = time.monotonic()
    with qtbot.waitSignal(window.duplicates_ready, timeout=300_000):
        window.apply_settings(lower, "en")
    finished = time.monotonic()
    timer.stop()
    qtbot.waitUntil(lambda: not window.runner.is_busy(), timeout=120_000)

    during = [t for t in ticks if started <= t <= finished]
    assert max(children_seen) >= 2  # the pass really ran in worker processes meanwhile
    assert len(during) >= 10  # the event loop kept serving the timer ...
    gaps = [b - a for a, b in zip([started, *during], [*during, finished])]
    assert max(gaps) < 0.5 * (finished - started)  # ... and was never held for most of the pass
    assert window.pairs and all(p.similarity >= lower.threshold for p in window.pairs)  # the pass finished
