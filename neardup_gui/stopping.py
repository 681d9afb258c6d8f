"""Signals that stop a command as Ctrl+C does: SIGTERM (a logout, a shutdown, a task manager) and
SIGHUP (its terminal closed). Each raises :class:`Terminated`, a KeyboardInterrupt, where Ctrl+C
raises one, so the work stops the same way: workers told and joined, the open transaction rolled
back, what was committed kept. The exit status is 128 + the signal's number, as a shell reports a
command a signal ended (SIGTERM: 143, SIGHUP: 129).
"""

from __future__ import annotations

import signal
from typing import Any

__all__ = ["STOPPING_SIGNALS", "Terminated", "said", "stop_on_signals"]

# The stopping signals, and what the command says when one stops it.
STOPPING_SIGNALS = {"SIGTERM": "terminated", "SIGHUP": "hung up"}


class Terminated(KeyboardInterrupt):
    """A stopping signal received (:data:`STOPPING_SIGNALS`)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def said(exc: Terminated) -> str:
    """What the command says when ``exc`` stops it."""
    return STOPPING_SIGNALS[signal.Signals(exc.signum).name]


class Handlers(dict):
    """The handlers :func:`stop_on_signals` replaced, by signal number."""

    def restore(self) -> None:
        for number, handler in self.items():
            signal.signal(number, handler)


def _raise_terminated(signum: int, _frame: Any) -> None:
    raise Terminated(signum)


def stop_on_signals() -> Handlers:
    """Make the stopping signals raise :class:`Terminated` in this (the main) thread; returns the
    handlers replaced, to restore. A signal ignored when the command started (``nohup`` ignores
    SIGHUP) stays ignored."""
    replaced = Handlers()
    for name in STOPPING_SIGNALS:
        number = getattr(signal, name, None)
        if number is None:  # (no SIGHUP on Windows)
            continue
        try:
            if signal.getsignal(number) is signal.SIG_DFL:
                replaced[number] = signal.signal(number, _raise_terminated)
        except ValueError:  # (not the main thread: a caller that runs a command in a thread)
            break
    return replaced
