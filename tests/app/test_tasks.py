"""The task runner: work in a worker thread, progress and outcome on the GUI thread, cancellation."""

from __future__ import annotations

import threading
import time

import pytest

from neardup_gui.app.tasks import TaskRunner
from neardup_gui.core.progress import Cancelled


def count_words(words: list[str], progress) -> dict[str, int]:
    counts: dict[str, int] = {}
    for i, w in enumerate(words):
        counts[w] = counts.get(w, 0) + 1
        progress((i + 1) / len(words), w)
    return counts


def slow_steps(n: int, progress, started: threading.Event | None = None) -> int:
    done = 0
    for i in range(n):
        if started is not None:
            started.set()
        progress(i / n, f"step {i}")
        time.sleep(0.01)
        done += 1
    return done


def steps_until_cancelled(started: threading.Event, progress) -> int:
    """Work that ends only by cancellation, however fast or slow the machine is."""
    steps = 0
    while True:
        started.set()
        progress(0.5, f"step {steps}")
        time.sleep(0.001)
        steps += 1


@pytest.fixture
def runner(qtbot):
    r = TaskRunner()
    yield r
    r.shutdown(60)


def test_result_and_progress_arrive_on_the_gui_thread(qtbot, runner):
    gui = threading.get_ident()
    seen: dict[str, object] = {}
    progress: list[tuple[float, str]] = []

    def done(result):
        seen["result"] = result
        seen["thread"] = threading.get_ident()

    def worker_thread(progress):
        seen["worker"] = threading.get_ident()
        return count_words("a b a c a".split(), progress)

    task = runner.start("count", worker_thread, on_done=done)
    task.progress.connect(lambda f, m: progress.append((f, m)))
    with qtbot.waitSignal(task.finished, timeout=60_000):
        pass
    assert seen["result"] == {"a": 3, "b": 1, "c": 1}
    assert seen["thread"] == gui
    assert seen["worker"] != gui
    assert progress[-1] == (1.0, "a")  # the last report always arrives
    assert task.outcome == "done"
    assert not runner.is_busy()


def test_cancel_stops_the_work_at_its_next_progress_report(qtbot, runner):
    started = threading.Event()
    outcome: list[str] = []
    task = runner.start("endless", steps_until_cancelled, started,
                        on_done=lambda r: outcome.append(f"done {r}"), on_cancelled=lambda: outcome.append("cancelled"))
    assert started.wait(60)
    task.cancel()
    with qtbot.waitSignal(task.finished, timeout=60_000):  # (a guard against a hang, not a speed test)
        pass
    assert outcome == ["cancelled"]
    assert task.outcome == "cancelled"


def test_an_exception_reaches_the_gui_with_its_details(qtbot, runner):
    errors: list[tuple[BaseException, str]] = []

    def broken(progress):
        progress(0.5, "halfway")
        raise ValueError("the file is not what it claims")

    task = runner.start("broken", broken, on_error=lambda e, d: errors.append((e, d)))
    with qtbot.waitSignal(task.finished, timeout=60_000):
        pass
    assert len(errors) == 1
    exc, detail = errors[0]
    assert isinstance(exc, ValueError) and "not what it claims" in str(exc)
    assert "Traceback" in detail and "broken" in detail


def test_a_failure_the_window_explains_is_logged_without_an_error(qtbot, runner, caplog):
    """A condition the window says in words (here a screening screened again since it was shown)
    goes to the log at INFO, with its traceback for the log file, and not to the console as an
    error: the monkey's five minutes printed 41 such tracebacks on the terminal. A failure the
    window can only call a bug stays an ERROR."""
    import logging

    from neardup_gui.core.screening import ScreeningGone

    def gone(progress):
        raise ScreeningGone("call", "c1.txt")

    def broken(progress):
        raise ValueError("a bug")

    caplog.set_level(logging.INFO, logger="neardup_gui.app.tasks")
    for name, fn in (("gone", gone), ("broken", broken)):
        task = runner.start(name, fn, on_error=lambda e, d: None)
        with qtbot.waitSignal(task.finished, timeout=60_000):
            pass
    levels = {r.getMessage().split("\n")[0]: r.levelno for r in caplog.records if "failed" in r.getMessage()}
    assert levels == {"task gone failed:": logging.INFO, "task broken failed:": logging.ERROR}
    assert all("Traceback" in r.getMessage() for r in caplog.records if "failed" in r.getMessage())


def test_shutdown_cancels_and_waits_for_every_worker(qtbot):
    runner = TaskRunner()
    started = threading.Event()
    task = runner.start("endless", steps_until_cancelled, started)
    assert started.wait(60)
    assert runner.shutdown(60)  # True: every worker returned (the endless one only by being cancelled)
    assert task.wait(0)
    with pytest.raises(RuntimeError):
        runner.start("late", slow_steps, 1)


def test_the_progress_callable_raises_cancelled_once_cancelled(qtbot, runner):
    task = runner.start("noop", lambda progress: 1)
    with qtbot.waitSignal(task.finished, timeout=60_000):
        pass
    task.cancel()
    with pytest.raises(Cancelled):
        task.report(0.5, "x")


def test_a_wait_for_another_writer_is_shown_and_cancel_stops_it(qtbot, runner, tmp_path):
    """Another window or command holding the index's write lock: the task says it waits, and
    Cancel stops the wait (before: the worker sat in SQLite's busy handler for 30 s, deaf)."""
    from neardup_gui.core.store import Store
    from tests.core.store.test_busy import Holder

    db = tmp_path / "i.ndx"
    with Store(db) as store:
        store.set_meta("note", "before")

    def write_note(path, progress):
        with Store(path, create=False) as s:
            progress(0.3, "writing")
            s.set_meta("note", "from the task")

    holder = Holder(db)
    try:
        messages: list[str] = []
        outcome: list[str] = []
        task = runner.start("write", write_note, str(db), on_done=lambda r: outcome.append("done"),
                            on_cancelled=lambda: outcome.append("cancelled"))
        task.progress.connect(lambda f, m: messages.append(m))
        qtbot.waitUntil(lambda: any("another window or command is writing" in m for m in messages), timeout=60_000)
        assert task.waiting and task.remaining_s() is None  # (no estimate while nothing moves)
        task.cancel()
        with qtbot.waitSignal(task.finished, timeout=60_000):  # (a hang's guard: a cancel not heard would end in a busy error, not cancelled)
            pass
        assert outcome == ["cancelled"]
        holder.release()
    finally:
        holder.close()
    with Store(db, create=False) as store:
        assert store.get_meta("note") == "before"


def test_the_worker_holds_no_reference_to_the_task(qtbot):
    """The worker thread is given the task's work, never the task (a QObject of the GUI thread):
    holding it, the worker could drop the last reference after its last signal and delete the task
    on the worker thread while the GUI thread delivered its events (the export job's crash in CI)."""
    import gc

    runner = TaskRunner(max_threads=1)
    gate = threading.Event()
    runner._pool.start(lambda: gate.wait(60))  # the task waits in the queue: its runnable exists, unrun
    task = runner.start("noop", lambda progress: 7)
    try:
        holders = [r for r in gc.get_referrers(task)
                   if isinstance(r, dict) and any(v is task for v in r.values())]
        assert holders == []  # (before: the queued runnable's attributes held it)
        # no Qt object either but the process's relay, never deleted (app/relay.py; a relay of the
        # task's own, freed by the worker as the task was freed, was CI's segmentation fault)
        from PySide6.QtCore import QObject

        from neardup_gui.app.relay import relay

        assert [v for v in vars(task._work).values() if isinstance(v, QObject)] == [relay()]
        assert runner.start("other", lambda progress: 8)._work.relay is relay()  # one for all
    finally:
        gate.set()
    with qtbot.waitSignal(task.finished, timeout=60_000):
        pass
    assert task.result == 7
    assert runner.shutdown(60)


def test_an_ended_task_is_let_go_of_on_the_gui_thread(qtbot, runner):
    """Before, the runner's own connection to a task's ``finished`` held the task, so every task and
    its result (a pass's pairs, a collection's state) stayed in memory as long as the window was
    open. Now the runner lets go of it once back in the event loop, and it is deleted there."""
    import gc
    import weakref

    big = list(range(200_000))
    deleted_on: list[int] = []
    task = runner.start("result", lambda progress: big)
    task.destroyed.connect(lambda *_: deleted_on.append(threading.get_ident()))
    ref = weakref.ref(task)
    with qtbot.waitSignal(task.finished, timeout=60_000):
        pass
    assert task.wait(60)
    del task
    qtbot.waitUntil(lambda: (gc.collect() or True) and ref() is None, timeout=60_000)
    assert deleted_on == [threading.get_ident()]  # deleted, and on this (the GUI) thread
    assert not runner.is_busy()


def test_many_short_tasks_end_cleanly_whoever_lets_go_last(qtbot):
    """Tasks ending faster than their callbacks run, the window letting go of each at once: every
    outcome arrives once, in a consistent state, and nothing is deleted under the GUI thread."""
    runner = TaskRunner(max_threads=2)
    outcomes: list[int] = []
    for i in range(200):
        runner.start(f"t{i}", lambda progress, i=i: (progress(1.0, "done"), i)[1],
                     on_done=outcomes.append)
    qtbot.waitUntil(lambda: len(outcomes) == 200, timeout=60_000)
    assert sorted(outcomes) == list(range(200))
    assert runner.shutdown(60)
    qtbot.waitUntil(lambda: not runner.is_busy(), timeout=60_000)


def test_a_task_whose_owner_was_deleted_ends_without_its_callbacks(qtbot, runner):
    """A submission view closed while its side by side was being prepared (found by random actions:
    the callback made a window on the deleted view, "Internal C++ object already deleted")."""
    import shiboken6
    from PySide6.QtWidgets import QWidget

    view = QWidget()
    called: list[str] = []
    release = threading.Event()
    task = runner.start("diff", lambda progress: release.wait(60) and "diff",
                        on_done=lambda r: called.append(view.objectName() + r), owner=view)
    view.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(view), timeout=10_000)
    release.set()
    with qtbot.waitSignal(task.finished, timeout=60_000):
        pass
    assert called == [] and task.outcome == "done"
    kept = QWidget()
    task = runner.start("diff", lambda progress: "diff", on_done=lambda r: called.append(r), owner=kept)
    with qtbot.waitSignal(task.finished, timeout=60_000):
        pass
    assert called == ["diff"]  # (an owner still there: called as before)
