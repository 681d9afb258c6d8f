"""Sending Ctrl+C to a command in a test, as a terminal does."""

from __future__ import annotations

import signal


def hear_ctrl_c() -> None:
    """``preexec_fn`` of a command a test will interrupt: SIGINT as a terminal's command has it.
    (A process started in the background by a non-interactive shell, as a CI job may be, has
    SIGINT ignored, and its children inherit that: Python then installs no KeyboardInterrupt
    handler, and the command runs on as if never interrupted.)"""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
