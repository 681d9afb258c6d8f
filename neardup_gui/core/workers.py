"""Extraction in worker processes that can be killed: time limit, memory cap, crash isolation.

A pool of long-lived child processes (started as :mod:`neardup_gui.core.processes` decides:
``spawn``, or ``fork`` from the command line) extracts one file at a time each. As with any
``spawn`` start, a script that calls these functions must guard its entry point with
``if __name__ == "__main__":``. A child that overruns the time limit is
killed and replaced; a child that runs out of its address-space cap reports ``memory``; a child
that dies reports ``crash``. One file's failure never stops the others. Each child is sent its
next file while it works on one (``AHEAD``); :func:`process_many_behind` feeds the children from
a thread of its own while the caller works on the results (the index build writes them).
"""

from __future__ import annotations

import logging
import math
import os
import signal
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.reduction import ForkingPickler
from typing import Any, Callable

from neardup_gui.core import lifeline, processes
from neardup_gui.core.document import Document, Skipped
from neardup_gui.core.extract import extract_file, format_of, os_failure, too_large_reason, unsupported
from neardup_gui.core.progress import ProgressFn, no_progress
from neardup_gui.core.settings import ExtractLimits

log = logging.getLogger(__name__)

__all__ = ["Lightened", "extract_isolated", "extract_many", "process_many", "process_many_behind"]

# (function, argument): run as function(document, argument) in the worker after extraction.
# what Collection.check has its submissions prepared with, by name (see Prepare)
SUBMISSION_PREPARE = "neardup_gui.core.fingerprints:fingerprint_document"

# (function, argument); the function may be given by name, "package.module:function", so that
# the parent need not import it (and what it imports) before the children start
Prepare = tuple[Callable[[Document, Any], Any] | str, Any]

_READY = "ready"
# Files sent to a child beyond the one it works on: it starts the next as soon as it has sent a
# result, without waiting for the parent to read it and answer (for files of a few milliseconds
# of work, the round trip would be a large part of it).
AHEAD = 1
# How often the parent wakes to check deadlines and let ``progress`` cancel.
_TICK_S = 0.2
# A fresh child imports the extractors before it says it is ready; allow it this long.
_STARTUP_S = 60.0


def resolve_prepare(prepare: Prepare | None) -> Prepare | None:
    """``prepare`` with its function imported when it was given by name ("module:function")."""
    if prepare is not None and isinstance(prepare[0], str):
        import importlib

        module, _, name = prepare[0].partition(":")
        prepare = (getattr(importlib.import_module(module), name), prepare[1])
    return prepare


@dataclass(frozen=True)
class Lightened:
    """What a prepare function returns to send back ``document``, a lighter copy of the extracted
    document, in its place: its text travels in ``prepared`` already, in the form the caller
    stores (the index build's compressed text), and need not cross the pipe twice."""

    document: Document
    prepared: Any


def extract_and_prepare(path: str, limits: ExtractLimits, prepare: Prepare | None) -> tuple[Document | Skipped, Any]:
    """One file extracted and, when it has text, prepared (``prepare`` resolved). Any failure but
    running out of memory (the caller's to handle) is reported as a skipped file, never raised:
    one file never takes the run down, in a worker process or on a cluster."""
    try:
        result: Document | Skipped = extract_file(path, limits)
        extra = prepare[0](result, prepare[1]) if prepare is not None and isinstance(result, Document) else None
    except MemoryError:
        raise
    except BaseException as exc:  # noqa: BLE001 — report, never take the run down
        return Skipped(path, "crash", f"extraction failed: {type(exc).__name__}: {exc}"[:300]), None
    if isinstance(extra, Lightened):
        return extra.document, extra.prepared
    return result, extra


def _child_main(conn: Connection, limits: ExtractLimits, prepare: Prepare | None = None) -> None:
    """Body of a worker process: extract the paths it is sent until told to stop.

    With ``prepare = (function, argument)``, each extracted document is also passed through
    ``function(document, argument)`` here (fingerprinting: it uses every core, and jieba's
    dictionary is loaded once per worker) and the result travels back with the document.
    """
    lifeline.bind_to_parent()  # (before the cap: it starts a thread)
    try:
        import resource

        cap = limits.memory_limit_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ImportError, ValueError, OSError) as exc:  # no RLIMIT_AS on this system
        log.warning("no memory cap for extraction workers: %s", exc)
    # The parent handles Ctrl+C, SIGTERM and cancellation, and kills its children itself: a child
    # must not die of the signal its process group shares (it would be taken for a file that
    # crashed the extraction, and kept so in the index).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    prepare = resolve_prepare(prepare)
    conn.send(_READY)
    while True:
        try:
            path = conn.recv()
        except (EOFError, OSError):
            return
        if path is None:
            return
        try:
            result, extra = extract_and_prepare(path, limits, prepare)
        except MemoryError:
            result = Skipped(path, "memory", f"needs more than {limits.memory_limit_mb} MB of memory")
            conn.send((result, None))
            os._exit(0)  # the heap may be in a poor state: the parent starts a fresh child
        try:
            conn.send((result, extra))
        except MemoryError:
            conn.send((Skipped(path, "memory", f"needs more than {limits.memory_limit_mb} MB of memory"), None))
            os._exit(0)


class _Worker:
    """One child process and the file it is working on."""

    def __init__(self, context, limits: ExtractLimits, prepare: Prepare | None = None) -> None:
        self.conn, child_conn = context.Pipe()
        self.process = context.Process(
            target=_child_main, args=(child_conn, limits, prepare), daemon=True, name="neardup-extract"
        )
        self.process.start()
        child_conn.close()
        self.ready = False
        self.time_limit_s = 0.0
        self.path: str | None = None
        # files sent after ``path``, waiting in the pipe for the child to finish it (see AHEAD)
        self.ahead: deque[str] = deque()
        self.deadline = time.monotonic() + _STARTUP_S

    def submit(self, path: str, time_limit_s: float) -> None:
        self.conn.send(path)
        self.time_limit_s = time_limit_s
        if self.path is not None:
            self.ahead.append(path)
            return
        self.path = path
        # A child still starting reads the file once it is ready, and the file's time limit
        # counts from then (``started``): a busy machine's slow start-up is not the file's
        # fault, and start-up has its own limit.
        self.deadline = time.monotonic() + (time_limit_s if self.ready else _STARTUP_S + time_limit_s)

    def advance(self) -> None:
        """The child answered for ``path``: it is at work on the next file sent ahead, whose
        time limit counts from now."""
        self.path = self.ahead.popleft() if self.ahead else None
        if self.path is not None:
            self.deadline = time.monotonic() + self.time_limit_s

    def take_back(self) -> list[str]:
        """The files sent ahead that the child will never read (it is killed or dead)."""
        ahead, self.ahead = list(self.ahead), deque()
        return ahead

    def started(self) -> None:
        """The child said it is ready: the limit of the file it was handed counts from now."""
        self.ready = True
        if self.path is not None:
            self.deadline = time.monotonic() + self.time_limit_s

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()

    def stop(self) -> None:
        """Ask an idle child to exit; kill it if it does not."""
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.process.join(2)
        self.kill()


def _precheck(path: str, limits: ExtractLimits) -> Skipped | None:
    """Reasons decided without a child: unsupported type, missing file, over the size cap."""
    if format_of(path) is None:
        return unsupported(path)
    try:
        size = os.stat(path).st_size
    except FileNotFoundError as exc:
        return os_failure(path, exc)
    except OSError:
        return None  # the child reports the exact reason
    if size > limits.size_limit_mb * 1024 * 1024:
        return Skipped(path, "too-large", too_large_reason(size, limits))
    return None


def _death_reason(worker: _Worker, limits: ExtractLimits) -> Skipped:
    assert worker.path is not None
    code = worker.process.exitcode
    if code == -signal.SIGKILL:
        # Killed by someone else, most often the kernel's out-of-memory killer.
        return Skipped(worker.path, "memory", "worker was killed, most likely out of memory")
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return Skipped(worker.path, "crash", f"extraction crashed ({name})")
    return Skipped(worker.path, "crash", f"extraction worker exited unexpectedly (status {code})")


def extract_many(
    paths: Sequence[str],
    limits: ExtractLimits = ExtractLimits(),
    workers: int = 0,
    progress: ProgressFn = no_progress,
) -> Iterator[tuple[str, Document | Skipped]]:
    """Extract files in ``workers`` child processes; yield ``(path, result)`` as each finishes.

    Every path is yielded exactly once, in completion order. ``workers`` <= 0 means one per
    core. ``progress`` is called after each file and several times a second while waiting;
    raising ``Cancelled`` from it kills the children and propagates. Closing the iterator
    early also kills them.
    """
    inner = process_many(paths, limits, workers, progress)
    try:
        for path, result, _ in inner:
            yield path, result
    finally:
        inner.close()  # kills the children at once when the caller stops early


def _sort_out(paths: Sequence[str], limits: ExtractLimits) -> tuple[list[tuple[str, Skipped]], deque[str]]:
    """The files decided without a child (too large, unsupported, unreadable) and the queue of
    the others, in the given order."""
    queue: deque[str] = deque()
    decided: list[tuple[str, Skipped]] = []
    for path in paths:
        early = _precheck(path, limits)
        if early is not None:
            decided.append((path, early))
        else:
            queue.append(path)
    return decided, queue


def _feed(pool: list[_Worker], queue: deque[str], limits: ExtractLimits) -> None:
    """Send the queued files to the children that can take one."""
    for worker in pool:
        # a second file goes ahead while every child can still have one (at the end of
        # the run a file waiting behind another would leave a child idle)
        while worker.ready and queue and (worker.path is None or (
                len(worker.ahead) < AHEAD and len(queue) > len(pool))):
            path = queue.popleft()
            try:
                worker.submit(path, limits.time_limit_s)
            except OSError:
                # The child died; its sentinel reports it below.
                queue.appendleft(path)
                break


def _read_child(
    worker: _Worker,
    exited: bool,
    finished: list[tuple[str, Document | Skipped, Any]],
    sizes: dict[str, int] | None,
) -> tuple[bool, bool]:
    """Read everything the child sent before it (possibly) exited into ``finished``; EOF means
    gone. Returns ``(exited, replace)``: whether the child is gone, whether it must be replaced
    (it ran out of memory)."""
    replace = False
    while True:
        try:
            if not worker.conn.poll():
                break
            raw = worker.conn.recv_bytes()  # (what recv() reads and unpickles)
            message = ForkingPickler.loads(raw)
        except (EOFError, OSError):
            exited = True
            break
        if message == _READY:
            worker.started()
        else:
            result, extra = message
            finished.append((worker.path or result.path, result, extra))
            if sizes is not None:
                sizes[finished[-1][0]] = len(raw)
            if isinstance(result, Skipped) and result.code == "memory":
                # The child ends itself after a MemoryError; give it no more work
                # (the files sent ahead go to another).
                worker.path = None
                replace = True
            else:
                worker.advance()
    return exited, replace


def _judge_child(
    worker: _Worker,
    exited: bool,
    replace: bool,
    limits: ExtractLimits,
    finished: list[tuple[str, Document | Skipped, Any]],
) -> bool:
    """Whether a child must be replaced: ``replace`` already, or it died (its file reported, with
    the reason) or overran the time limit (its file reported as a timeout). Raises when a child
    failed to start."""
    if exited and not replace:
        worker.process.join(1)
        if not worker.ready:  # died before it could read its file: not the file's fault
            raise RuntimeError(
                f"extraction worker failed to start (status {worker.process.exitcode}); "
                "is the memory limit too low?"
            )
        if worker.path is not None:
            finished.append((worker.path, _death_reason(worker, limits), None))
            worker.path = None
        return True
    if worker.path is not None and time.monotonic() > worker.deadline:
        finished.append((
            worker.path,
            Skipped(worker.path, "timeout", f"extraction took longer than {limits.time_limit_s:g} s"),
            None,
        ))
        worker.path = None
        return True
    if not worker.ready and time.monotonic() > worker.deadline:
        raise RuntimeError("extraction worker did not start in time")
    return replace


class _Waiter:
    """:func:`multiprocessing.connection.wait` asked again and again of the same pipes and
    sentinels: where ``select.poll`` exists, one poll object keeps them registered until they
    change, instead of a selector made and every object registered at each call (35 µs of CPU a
    call, about one call a file). The same answer: every object with input, a hang-up or an
    error, or none once ``timeout`` seconds (None: no limit) have passed."""

    def __init__(self) -> None:
        self._objects: list = []
        self._poll = None
        self._by_fd: dict[int, Any] = {}

    def wait(self, objects: list, timeout: float | None) -> list:
        import select

        if not hasattr(select, "poll"):  # pragma: no cover - (Windows: no poll)
            return wait(objects, timeout)
        if len(objects) != len(self._objects) or any(a is not b for a, b in zip(objects, self._objects)):
            self._poll, self._by_fd = select.poll(), {}
            for obj in objects:
                fd = obj if isinstance(obj, int) else obj.fileno()
                self._poll.register(fd, select.POLLIN)
                self._by_fd[fd] = obj
            self._objects = list(objects)
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            ms = None if deadline is None else max(0, math.ceil((deadline - time.monotonic()) * 1e3))
            events = self._poll.poll(ms)  # (retried by Python itself when a signal interrupts it)
            if events or (deadline is not None and time.monotonic() >= deadline):
                return [self._by_fd[fd] for fd, _ in events]


def _end_pool(pool: list[_Worker | None]) -> None:
    """Stop the idle children, kill the others."""
    for worker in pool:
        if worker is None:
            continue
        if worker.process.is_alive() and worker.path is None and not worker.ahead and worker.ready:
            worker.stop()
        else:
            worker.kill()


def process_many(
    paths: Sequence[str],
    limits: ExtractLimits = ExtractLimits(),
    workers: int = 0,
    progress: ProgressFn = no_progress,
    prepare: Prepare | None = None,
    announce: bool = False,
    sizes: dict[str, int] | None = None,
) -> Iterator[tuple[str, Document | Skipped, Any]]:
    """:func:`extract_many` that also runs ``prepare = (function, argument)`` on each document
    in the worker; yields ``(path, result, prepared)`` (``prepared`` is None for a Skipped).

    ``function`` must be a module-level function (it is sent to the workers by name). With
    ``announce`` the first item is ``(None, None, None)``, yielded as soon as the children are
    started and have their first files (see :func:`start_extraction`). ``sizes``: filled with the
    bytes each result took on its way from the child (by path), for a caller that bounds what it
    holds.
    """
    total = len(paths)
    done = 0
    decided, queue = _sort_out(paths, limits)
    count = max(1, min(workers if workers > 0 else (os.cpu_count() or 1), len(queue))) if queue else 0
    pool: list[_Worker | None] = []  # None: a slot whose child ended when no work was left
    waiter = _Waiter()
    try:
        for _ in range(count):
            worker = _Worker(processes.context(capped=True), limits, prepare)
            pool.append(worker)
            # the first file goes down the pipe at once: the child reads it as soon as it has
            # started, and the time limit counts from now (start-up included)
            worker.submit(queue.popleft(), limits.time_limit_s)
        if announce:
            yield None, None, None  # type: ignore[misc]
        for path, early in decided:
            done += 1
            progress(done / max(total, 1), os.path.basename(path))
            yield path, early, None

        while queue or any(w.path is not None for w in pool):
            _feed(pool, queue, limits)  # type: ignore[arg-type]
            now = time.monotonic()
            timeout = max(0.0, min([_TICK_S] + [w.deadline - now for w in pool]))
            ready = set(waiter.wait([w.conn for w in pool] + [w.process.sentinel for w in pool], timeout))
            finished: list[tuple[str, Document | Skipped, Any]] = []
            for index, worker in enumerate(pool):
                replace = False
                exited = worker.process.sentinel in ready
                if worker.conn in ready or exited:
                    exited, replace = _read_child(worker, exited, finished, sizes)
                replace = _judge_child(worker, exited, replace, limits, finished)
                if replace:
                    # the files sent ahead are not this file's fault: another child takes them
                    queue.extendleft(reversed(worker.take_back()))
                    worker.path = None
                    worker.kill()
                    pool[index] = _Worker(processes.context(capped=True), limits, prepare) if queue else None  # type: ignore[call-overload]
            pool = [w for w in pool if w is not None]
            # the children get their next files before the caller takes these results (it
            # writes them to the index meanwhile): both run at once
            _feed(pool, queue, limits)  # type: ignore[arg-type]
            for path, result, extra in finished:
                done += 1
                progress(done / total, os.path.basename(path))
                yield path, result, extra
            if not finished:
                progress(done / total, "")
    finally:
        _end_pool(pool)


# Results waiting for the caller of process_many_behind at most, in number and in bytes (as
# they came down the pipe; one larger than that alone still goes): a caller slower than the
# children holds them up again once this much waits, so their memory stays bounded. Enough for
# the children to go on through a commit of the index (a few hundred milliseconds; a result is
# about 15 KB).
BEHIND_QUEUE = 256
BEHIND_BYTES = 64 << 20
_END = object()
_behind_peak = [0]  # the most bytes that waited at once in this process (for the tests)


class _Failed:
    """An exception of the feeding thread, handed to the caller to raise."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


def process_many_behind(
    paths: Sequence[str],
    limits: ExtractLimits = ExtractLimits(),
    workers: int = 0,
    progress: ProgressFn = no_progress,
    prepare: Prepare | None = None,
) -> Iterator[tuple[str, Document | Skipped, Any]]:
    """:func:`process_many` fed and read by a thread of its own while the caller works on what it
    yields (the index build writes each document to SQLite, which lets other threads run).

    Run by the caller's loop, the children would wait whenever it was busy: a child would get its
    next file only once the caller had read its result, a large result (a document's compressed
    text and search rows) would hold the child until then, and a commit of the index (a disk
    sync) would stall both children.

    ``progress`` is called in the caller's thread only (per result, and several times a second
    while waiting: raising :class:`Cancelled` there stops the thread and kills the children);
    at most :data:`BEHIND_QUEUE` results and :data:`BEHIND_BYTES` of them wait for the caller.
    """
    import queue
    import threading

    from neardup_gui.core.progress import Cancelled

    results: queue.Queue = queue.Queue(maxsize=BEHIND_QUEUE)  # (item, its bytes)
    stop = threading.Event()
    sizes: dict[str, int] = {}
    room = threading.Condition()
    waiting = [0]  # bytes of the results in ``results`` (added before a put, taken after a get)

    def stopping(_fraction: float, _message: str = "") -> None:  # the thread's progress: only stops it
        if stop.is_set():
            raise Cancelled()

    def handed(item: object, weight: int = 0) -> bool:  # (False once the caller has gone)
        while not stop.is_set():
            with room:
                if waiting[0] and waiting[0] + weight > BEHIND_BYTES:
                    room.wait(_TICK_S)
                    continue
                waiting[0] += weight
                _behind_peak[0] = max(_behind_peak[0], waiting[0])
            try:
                results.put((item, weight), timeout=_TICK_S)
                return True
            except queue.Full:
                with room:
                    waiting[0] -= weight
        return False

    # The children are started here, in the caller's thread, before the feeding thread: while
    # this process still runs one thread they may be forked (core/processes.py).
    runs = process_many(paths, limits, workers, stopping, prepare, announce=True, sizes=sizes)
    next(runs)  # the announcement: the children are started and have their first files

    def feed() -> None:
        try:
            try:
                for item in runs:
                    if not handed(item, sizes.pop(item[0], 0)):
                        return
            finally:
                runs.close()  # kills the children at once when stopped early
        except Cancelled:
            return
        except BaseException as exc:  # noqa: BLE001 — raised again in the caller's thread
            handed(_Failed(exc))
            return
        handed(_END)

    total = max(len(paths), 1)
    done = 0
    thread = threading.Thread(target=feed, name="neardup-extract-feed", daemon=True)
    thread.start()
    try:
        while True:
            try:
                item, weight = results.get(timeout=_TICK_S)
            except queue.Empty:
                progress(done / total, "")
                continue
            if weight:
                with room:
                    waiting[0] -= weight
                    room.notify()
            if item is _END:
                return
            if isinstance(item, _Failed):
                raise item.exc
            done += 1
            progress(done / total, os.path.basename(item[0]))
            yield item
    finally:
        stop.set()
        thread.join()


def start_extraction(
    paths: Sequence[str],
    limits: ExtractLimits = ExtractLimits(),
    workers: int = 0,
    progress: ProgressFn = no_progress,
    prepare: Prepare | None = None,
) -> Iterator[tuple[str, Document | Skipped, Any]]:
    """:func:`process_many`, returned once its children are started and have their first files.

    The caller goes on with other work (opening the index, loading its tables) while the files
    are extracted (and ``prepare``-d) in the children, then reads the ``(path, result,
    prepared)`` triples; closing the iterator kills the children.
    """
    runs = process_many(paths, limits, workers, progress, prepare=prepare, announce=True)
    next(runs)  # the announcement
    return runs


def extract_isolated(path: str, limits: ExtractLimits = ExtractLimits()) -> Document | Skipped:
    """Extract one file in a child process under the time and memory limits."""
    runs = extract_many([path], limits, 1)
    try:
        for _, result in runs:
            return result
    finally:
        runs.close()  # the worker goes now, not when the generator is collected
    raise AssertionError("extract_many yielded nothing")  # every path is yielded once
