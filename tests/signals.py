"""Signals sent to commands in a test, as a terminal or a system sends them, and the processes a
command leaves behind once it has been stopped."""

from __future__ import annotations

import os
import signal
import time

# How long after its parent's death a worker process may live: "within a second", with room for a
# loaded machine (a guard, not a speed figure: the poll below returns as soon as none is left).
ORPHANS_GONE_S = 3.0


def hear_ctrl_c() -> None:
    """``preexec_fn`` of a command a test will interrupt: SIGINT as a terminal's command has it.
    (A process started in the background by a non-interactive shell, as a CI job may be, has
    SIGINT ignored, and its children inherit that: Python then installs no KeyboardInterrupt
    handler, and the command runs on as if never interrupted.)"""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def session_processes(session: int) -> list[tuple[int, str]]:
    """``(pid, command name)`` of the living processes of ``session`` (Linux, /proc). A command
    started with ``start_new_session=True`` leads a session of its own, and every process it
    starts (workers, the fork server, multiprocessing's resource tracker) stays in it, whoever
    adopts them when it dies. Zombies (dead, not yet reaped) are not counted."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()  # state, ppid, pgrp, session, ...
        if int(fields[3]) == session and fields[0] not in "ZX":
            found.append((int(pid), name))
    return found


def left_alive(session: int, within_s: float = ORPHANS_GONE_S) -> list[tuple[int, str]]:
    """The processes of ``session`` still alive ``within_s`` seconds from now; returns as soon as
    none is (polled: a test never waits longer than it must)."""
    deadline = time.monotonic() + within_s
    while True:
        alive = session_processes(session)
        if not alive or time.monotonic() >= deadline:
            return alive
        time.sleep(0.02)


def end_session(session: int) -> None:
    """SIGKILL what is left of ``session`` (a failed test's leftovers; never another's processes)."""
    for pid, _ in session_processes(session):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
