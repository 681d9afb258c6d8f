"""A worker process ends with its parent, however the parent dies (core/lifeline.py).

The commands' and the window's own tests kill them mid-work (tests/cli/test_interrupt_cli.py,
tests/app/test_window_stopped.py); these check the two halves of the binding alone, in real
processes: the watch that holds where the system has no death signal (macOS, Windows), and the
check of a parent that died before the child asked for its death signal.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.signals import ORPHANS_GONE_S, end_session, left_alive

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sessions and /proc")

ROOT = Path(__file__).resolve().parents[2]

# A parent that starts one spawned child and says its id; what the child does is given.
PARENT = textwrap.dedent('''
    import multiprocessing, os, sys, time
    from pathlib import Path
    from neardup_gui.core import lifeline

    def child(marker, wait_for_orphaning):
        if wait_for_orphaning:  # the parent dies before the child binds itself
            while os.getppid() == multiprocessing.parent_process().pid:
                time.sleep(0.01)
        lifeline.bind_to_parent(death_signal={death_signal})
        Path(marker).write_text("bound")
        while True:
            time.sleep(1)

    if __name__ == "__main__":
        p = multiprocessing.get_context("spawn").Process(target=child, args=(sys.argv[1], {orphaned}))
        p.start()
        print(p.pid, flush=True)
        if {orphaned}:
            os._exit(0)
        for _ in range(6000):  # (a guard against a hang: a minute)
            if Path(sys.argv[1]).exists():
                break
            time.sleep(0.01)
        print("bound" if Path(sys.argv[1]).exists() else "never bound", flush=True)
        time.sleep(600)
''')


def start_parent(tmp_path: Path, *, death_signal: bool, orphaned: bool) -> tuple[subprocess.Popen, int, Path]:
    script = tmp_path / "parent.py"
    script.write_text(PARENT.format(death_signal=death_signal, orphaned=orphaned))
    marker = tmp_path / "bound"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(script), str(marker)], stdout=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    return proc, int(proc.stdout.readline()), marker


def left_after_parent(proc: subprocess.Popen, kill: bool) -> list[tuple[int, str]]:
    """The parent's session once it has ended (killed first with ``kill``): what is still alive
    ORPHANS_GONE_S later."""
    try:
        if kill:
            assert proc.stdout.readline().strip() == "bound"
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(60)
        return left_alive(proc.pid)
    finally:
        end_session(proc.pid)
        proc.stdout.close()


def test_the_watch_ends_a_child_whose_parent_is_killed_without_a_death_signal(tmp_path) -> None:
    """What holds on macOS and Windows: the child's thread sees the parent's sentinel close."""
    proc, _, _ = start_parent(tmp_path, death_signal=False, orphaned=False)
    alive = left_after_parent(proc, kill=True)
    assert alive == [], f"alive {ORPHANS_GONE_S} s after its parent was killed: {alive}"


def test_a_child_whose_parent_died_before_it_asked_for_the_death_signal_ends_at_once(tmp_path) -> None:
    """The kernel's death signal covers only a parent alive when it is asked for: a parent gone
    already is found by the check that follows, and the child never runs on."""
    proc, child, marker = start_parent(tmp_path, death_signal=True, orphaned=True)
    alive = left_after_parent(proc, kill=False)
    assert alive == [], f"the child {child} outlived its parent: {alive}"
    assert not marker.exists()  # (it ended inside bind_to_parent, not later by its watch)


def test_the_fork_server_binding_ends_a_process_whose_parent_is_not_the_one_given() -> None:
    """The fork server is given its parent's id: a server whose parent is already gone (its id is
    not the one given) ends as it imports its binding."""
    done = subprocess.run([sys.executable, "-c", "from neardup_gui.core import lifeline; "
                           "lifeline.bind_to_process(1); print('ran on')"],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert done.returncode == 1 and "ran on" not in done.stdout, (done.returncode, done.stdout, done.stderr)
