"""Progress reporting and cancellation for long-running core functions.

Core functions take ``progress(fraction, message)``; the caller cancels them by making that
callable raise :class:`Cancelled`. No Qt here: the app wraps these in its task runner. An empty
message moves the bar (and gives a chance to cancel) without news: the previous message stands.
"""

from __future__ import annotations

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
    """``1 document``, ``2 documents``: the English count of a noun (messages the app translates
    match these forms; see app/progressmessages)."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"
