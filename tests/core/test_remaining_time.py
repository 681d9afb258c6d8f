"""The remaining-time estimate on recorded runs: never ten times the time that was really left.

The runs (tests/fixtures/progress/runs.json, benchmarks/record_progress.py) took about a
second each here; scaled to 30 s, 100 s and 300 s they keep every proportion of their pace (where
the work stands still, where it speeds up), which is all the estimate goes by. The clock is the
recording's, never the machine's: the test does not depend on this machine's speed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from neardup_gui.core.progress import RemainingTime

RUNS = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "progress" / "runs.json").read_text())
TICK_S = 0.5  # the window's progress panel asks every half second


def replay(samples: list[list[float]], scale: float):
    """(time, fraction done, the estimate, the time really left) at every tick of a scaled run."""
    run = [(t * scale, f) for t, f in samples]
    end = run[-1][0]
    estimate = RemainingTime(0.0)
    i, now, fraction = 0, 0.0, 0.0
    while now < end:
        while i < len(run) and run[i][0] <= now:
            estimate.add(*run[i])
            fraction = run[i][1]
            i += 1
        yield now, fraction, estimate.seconds_left(now), end - now
        now += TICK_S


@pytest.mark.parametrize("scale", [30, 100, 300])
@pytest.mark.parametrize("run", [name for name in RUNS if name != "note"])
def test_the_estimate_never_overshoots_tenfold(run, scale):
    shown = [(t, f, est, left) for t, f, est, left in replay(RUNS[run], scale) if est is not None]
    for t, f, est, left in shown:
        assert est <= 10 * (left + 1.0), f"at {t:.1f} s, {f:.0%} done: said {est:.0f} s, {left:.0f} s were left"
    if RUNS[run][-1][0] * scale > 20:
        assert shown  # (a run long enough to need one gets an estimate)


def test_the_pace_since_the_start_overshot_at_the_first_stop():
    """What the window said before: the time since the start over the fraction done, as soon as
    2 % was done. The screening stands still at 2 % while its workers start: at that stop this said
    many times the time left (the examiner saw "about 3:32 left" for 14 s of work)."""
    worst = max(t * (1 - f) / f / (left + 1.0)
                for t, f, _, left in replay(RUNS["screening"], 100) if f >= 0.02 and t >= 0.5)
    assert worst > 10


def test_nothing_is_said_while_the_work_stands_still_or_has_barely_begun():
    estimate = RemainingTime(0.0)
    estimate.add(1.0, 0.05)
    assert estimate.seconds_left(4.0) is None  # (5 % done)
    estimate.add(5.0, 0.2)
    assert estimate.seconds_left(6.0) == pytest.approx(0.8 / (0.15 / 2.0), rel=0.01)  # the last 2 s's pace
    assert estimate.seconds_left(12.0) is None  # nothing for 7 s
    estimate.add(30.0, 0.3)  # the 25 s it stood still count as 5: the pace is the work's
    assert estimate.seconds_left(30.5) < 0.7 / (0.3 / 30.5)
