"""Progress reporting and cancellation for long-running core functions.

Core functions take ``progress(fraction, message)``; the caller cancels them by making that
callable raise :class:`Cancelled`. No Qt here: the app wraps these in its task runner. An empty
message moves the bar (and gives a chance to cancel) without news: the previous message stands.
"""

from __future__ import annotations

import bisect
from typing import Callable

ProgressFn = Callable[[float, str], None]


class Cancelled(Exception):
    """Raised from a progress callback to stop the work in progress."""


def no_progress(fraction: float, message: str = "") -> None:
    """The default progress callback: ignore the report."""


def wrap_progress(progress: ProgressFn, start: float, end: float) -> ProgressFn:
    """Give a sub-step the share ``[start, end]`` of the caller's progress bar."""
    span = end - start

    def sub(fraction: float, message: str = "") -> None:
        fraction = min(max(fraction, 0.0), 1.0)
        progress(start + span * fraction, message)

    return sub


def count_noun(n: int, singular: str, plural: str | None = None) -> str:
    """``1 document``, ``2 documents``: the English count of a noun (the app translates messages
    of these forms with Qt's plural forms; see app/widgets.py, ``ProgressCounts``)."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


class RemainingTime:
    """Seconds left of a task, from the pace of its recent work rather than from its start.

    A task's pace is not even: a screening stands still at 2 % while its worker processes start,
    and again while the index's tables are saved, then reads and compares quickly. Dividing the
    time since the start by the fraction done said "about 3:32 left" at that first stop for work
    that ended 14 s later. Here time the work stood still (no progress for ``STILL_S``) is left
    out of the pace, the pace is the fastest of the recent ones (over the last 2, 5 and 15 s of
    work, and over all of it), and nothing is said while the work stands still or before a tenth
    of it is done: the estimate may run short when the work stops again, and follows the work as
    it goes on. Times are the caller's (a monotonic clock, in seconds), so that it is tested on
    recorded runs (tests/core/test_remaining_time.py).
    """

    WINDOWS_S = (2.0, 5.0, 15.0)
    MIN_FRACTION = 0.1  # nothing said before this much is done (a slow start weighs least then)
    MIN_ELAPSED_S = 3.0  # nor in a task's first seconds (a short task needs no estimate)
    STILL_S = 5.0  # no progress for this long: the work stands still

    def __init__(self, start: float) -> None:
        self.start = start
        self._last = start  # when the last progress came
        self._worked = [0.0]  # time of work (stops left out) at each progress report
        self._fractions = [0.0]

    def add(self, now: float, fraction: float) -> None:
        """A progress report: ``fraction`` done at time ``now``."""
        if fraction <= self._fractions[-1] or now < self._last:
            return
        self._worked.append(self._worked[-1] + min(now - self._last, self.STILL_S))
        self._fractions.append(fraction)
        self._last = now

    def _fraction_at(self, worked: float) -> float:
        i = bisect.bisect_right(self._worked, worked) - 1
        return self._fractions[max(i, 0)]

    def seconds_left(self, now: float) -> float | None:
        """The estimate at time ``now``, or None when there is no pace to go by."""
        done = self._fractions[-1]
        since = now - self._last
        if done < self.MIN_FRACTION or now - self.start < self.MIN_ELAPSED_S or done >= 1.0 or since > self.STILL_S:
            return None
        worked = self._worked[-1] + since
        rates = [done / worked]
        for window in self.WINDOWS_S:
            if window < worked:
                rates.append((done - self._fraction_at(worked - window)) / window)
        return (1.0 - done) / max(rates)
