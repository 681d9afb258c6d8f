"""The Qt binding itself: PySide6-Essentials 6.12.0 breaks the interpreter, so it is excluded.

On 6.12.0 (Python < 3.12) every ``Signal.emit()`` from Python drops one reference to ``True``;
a long indexing run emits progress often enough that the interpreter aborts ("bool_dealloc").
pyproject.toml pins ``PySide6-Essentials<6.12``; this test fails if a bad binding comes back.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    progress = Signal(float, str)
    flag = Signal(bool)


def test_emitting_signals_keeps_reference_counts(qapp):
    emitter = _Emitter()
    seen = []
    emitter.progress.connect(lambda f, m: seen.append(f))
    emitter.flag.connect(lambda b: None)
    before = sys.getrefcount(True)
    for i in range(5000):
        emitter.progress.emit(i / 5000, "indexing")
        emitter.flag.emit(True)
    assert len(seen) == 5000
    assert abs(sys.getrefcount(True) - before) < 10
