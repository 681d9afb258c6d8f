"""Extraction in killable worker processes: results for every path, limits, crashes, cancel.

Process start-up costs about a second, so these tests are few and each covers several cases.
No outcome depends on the machine's speed: the file that must time out never finishes
(``endless_pdf``), the memory hog is read without a time limit that could race with its memory
limit, and the crash is caused at a point known from the run's own progress, not after a delay.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import signal
from pathlib import Path

import pytest

from neardup_gui.core.document import Document, Skipped
from neardup_gui.core.progress import Cancelled
from neardup_gui.core.settings import ExtractLimits
from neardup_gui.core.workers import extract_isolated, extract_many

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ingest"
_spec = importlib.util.spec_from_file_location("ingest_fixtures", FIXTURES / "make_fixtures.py")
mf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mf)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hostile")
    files = {
        "slow": folder / "slow.pdf",
        "hog": folder / "hog.pdf",
        "big": folder / "big.txt",
        "text": folder / "plain.txt",
    }
    files["slow"].write_bytes(mf.endless_pdf())  # never finishes
    files["hog"].write_bytes(mf.huge_stream_pdf(300))  # inflates to 300 MB in one piece
    files["big"].write_bytes(b"word " * (300 * 1024))
    files["text"].write_text("Plain words in a plain file.")
    return files


def test_many_files_each_reported_once_with_limits(hostile):
    # (320 MB of address space: a worker's libraries take most of 192 MB once a PDF has been
    # read by PDFium and an encrypted one by pdfminer.six with cryptography)
    limits = ExtractLimits(time_limit_s=5.0, memory_limit_mb=320, size_limit_mb=1, max_unzipped_mb=4000)
    paths = [
        str(FIXTURES / "en.docx"), str(FIXTURES / "zh.pdf"), str(FIXTURES / "locked.pdf"),
        str(hostile["slow"]), str(hostile["big"]), str(hostile["text"]),
        str(FIXTURES / "report.odt"), str(FIXTURES / "missing.pdf"), str(FIXTURES / "make_fixtures.py"),
    ]
    fractions: list[float] = []
    results = list(extract_many(paths, limits, workers=2, progress=lambda f, m="": fractions.append(f)))
    assert sorted(p for p, _ in results) == sorted(paths)
    by_path = {p: r for p, r in results}
    codes = {os.path.basename(p): (r.code if isinstance(r, Skipped) else "ok") for p, r in by_path.items()}
    assert codes == {
        "en.docx": "ok", "zh.pdf": "ok", "locked.pdf": "encrypted", "slow.pdf": "timeout",
        "big.txt": "too-large", "plain.txt": "ok", "report.odt": "ok",
        "missing.pdf": "vanished", "make_fixtures.py": "unsupported",
    }
    assert by_path[str(hostile["slow"])].reason == "extraction took longer than 5 s"
    assert by_path[str(FIXTURES / "zh.pdf")].text.splitlines() == mf.ZH_PARAGRAPHS
    assert by_path[str(hostile["text"])].text == "Plain words in a plain file."
    assert fractions[-1] == 1.0 and fractions == sorted(fractions)
    assert multiprocessing.active_children() == []


def test_memory_hog_is_stopped_by_the_memory_limit(hostile):
    # No time limit to race with: the memory cap alone must stop it, however slow the machine.
    limits = ExtractLimits(time_limit_s=3600, memory_limit_mb=192, max_unzipped_mb=4000)
    paths = [str(hostile["hog"]), str(hostile["text"])]
    results = dict(extract_many(paths, limits, workers=1))
    assert results[paths[0]].code == "memory"
    assert results[paths[1]].text == "Plain words in a plain file."  # a fresh worker took over
    assert multiprocessing.active_children() == []


def test_crashed_worker_is_reported_and_replaced(hostile, tmp_path):
    """A worker that dies (here: SIGSEGV sent while it works on a file that never ends) → ``crash``."""
    other = tmp_path / "other.txt"
    other.write_text("Other words in another file.")
    paths = [str(hostile["text"]), str(hostile["slow"]), str(other)]
    killed: list[int] = []
    reported: list[str] = []

    def progress(fraction: float, message: str = "") -> None:
        # One worker: once the first file is back, the worker has been handed the endless one,
        # and the next report without a file (a heartbeat) finds it at work on it: "crash" it.
        if message:
            reported.append(message)
        elif reported == ["plain.txt"] and not killed:
            for child in multiprocessing.active_children():
                os.kill(child.pid, signal.SIGSEGV)
                killed.append(child.pid)

    results = dict(extract_many(paths, ExtractLimits(time_limit_s=3600), workers=1, progress=progress))
    assert killed
    assert results[paths[1]].code == "crash"
    assert "SIGSEGV" in results[paths[1]].reason
    assert results[paths[0]].text == "Plain words in a plain file."
    assert results[paths[2]].text == "Other words in another file."  # a fresh worker took over


def test_cancel_kills_children(hostile):
    def progress(fraction: float, message: str = "") -> None:
        if multiprocessing.active_children():
            raise Cancelled()

    with pytest.raises(Cancelled):
        list(extract_many([str(hostile["slow"])] * 1 + [str(hostile["text"])], ExtractLimits(), 2, progress))
    assert multiprocessing.active_children() == []


def test_extract_isolated_matches_in_process():
    result = extract_isolated(str(FIXTURES / "en.pdf"))
    assert isinstance(result, Document)
    assert result.text.splitlines() == mf.EN_PARAGRAPHS


def _explode_on_b(doc, argument):  # noqa: ANN001 - a prepare step that fails for one document
    if doc.path.endswith("b.txt"):
        raise RuntimeError("boom")
    return argument


def test_a_failing_prepare_step_skips_that_file_in_a_daemonic_worker_too(tmp_path) -> None:
    """A Dask worker (daemonic: no child processes) extracts in its own process; a document whose
    preparation fails is skipped with the reason there too, as in a worker process, and the
    others go on (the fallback used to let the exception end the whole task)."""
    import multiprocessing

    from neardup_gui.core.dask_backend import extract_partition

    for name in ("a.txt", "b.txt", "c.txt"):
        (tmp_path / name).write_text(f"text of {name} " * 20, encoding="utf-8")
    paths = [str(tmp_path / n) for n in ("a.txt", "b.txt", "c.txt")]
    with multiprocessing.get_context("fork").Pool(1) as pool:  # pool workers are daemonic
        out = pool.apply(extract_partition, (paths, ExtractLimits(), (f"{__name__}:_explode_on_b", 7)))
    got = {p.rsplit("/", 1)[-1]: (r, extra) for p, r, extra in out}
    assert got["a.txt"][1] == 7 and got["c.txt"][1] == 7
    assert isinstance(got["b.txt"][0], Skipped) and got["b.txt"][0].code == "crash" and "boom" in got["b.txt"][0].reason


def test_fed_behind_the_caller_gives_the_same_results_and_reports_in_its_thread(hostile, tmp_path):
    """process_many_behind (the index build's): every path once with what process_many gives,
    while the caller is slow (it writes the index meanwhile); progress only in the caller's thread."""
    import threading
    import time

    from neardup_gui.core.workers import process_many, process_many_behind

    limits = ExtractLimits(time_limit_s=60, size_limit_mb=1)
    extra = []
    for i in range(6):
        extra.append(tmp_path / f"t{i}.txt")
        extra[-1].write_text(f"Words of file {i}. " * (i + 1))
    paths = [str(FIXTURES / "en.docx"), str(hostile["big"]), str(FIXTURES / "missing.pdf"), *map(str, extra)]
    threads: set[str] = set()
    fractions: list[float] = []

    def progress(fraction: float, message: str = "") -> None:
        threads.add(threading.current_thread().name)
        fractions.append(fraction)

    behind = []
    for item in process_many_behind(paths, limits, 2, progress):
        behind.append(item)
        time.sleep(0.05)  # (a slow caller: the children go on meanwhile)
    plain = list(process_many(paths, limits, 2))

    def summary(items):
        return sorted((p, r.code if isinstance(r, Skipped) else r.text) for p, r, _ in items)

    assert summary(behind) == summary(plain) and len(behind) == len(paths)
    assert threads == {threading.current_thread().name}
    assert fractions[-1] == 1.0 and fractions == sorted(fractions)
    assert multiprocessing.active_children() == []


def test_fed_behind_the_caller_holds_at_most_its_budget_of_bytes(tmp_path, monkeypatch):
    """What waits for a slow caller is bounded in bytes as well as in number: with a budget of one
    byte only one result waits at a time, whatever its size, and every result still arrives, the
    same as process_many's, each result's size measured as it came down the pipe."""
    import time

    from neardup_gui.core import workers
    from neardup_gui.core.workers import process_many, process_many_behind

    paths = []
    for i in range(8):
        paths.append(tmp_path / f"t{i}.txt")
        paths[-1].write_text(f"Words of file {i}, some more of them. " * (200 * (i + 1)))
    paths = [str(p) for p in paths]
    sizes: dict[str, int] = {}
    plain = list(process_many(paths, ExtractLimits(), 2, sizes=sizes))
    assert sorted(sizes) == sorted(paths) and min(sizes.values()) > 7000  # (the text rides along)
    monkeypatch.setattr(workers, "BEHIND_BYTES", 1)
    monkeypatch.setattr(workers, "_behind_peak", [0])
    behind = []
    for item in process_many_behind(paths, ExtractLimits(), 2):
        behind.append(item)
        time.sleep(0.05)  # (a slow caller: the children are done long before it)
    assert sorted((p, r.text) for p, r, _ in behind) == sorted((p, r.text) for p, r, _ in plain)
    assert 0 < workers._behind_peak[0] <= max(sizes.values())
    assert multiprocessing.active_children() == []


def test_fed_behind_the_caller_cancels_and_raises_its_errors(hostile):
    import threading

    from neardup_gui.core.workers import process_many_behind

    def progress(fraction: float, message: str = "") -> None:
        if multiprocessing.active_children():
            raise Cancelled()

    with pytest.raises(Cancelled):
        list(process_many_behind([str(hostile["slow"]), str(hostile["text"])], ExtractLimits(), 2, progress))
    assert multiprocessing.active_children() == []
    assert [t for t in threading.enumerate() if t.name == "neardup-extract-feed"] == []
    # an error of the feeding thread (here: no child can start, its prepare step does not
    # exist) is raised in the caller's
    with pytest.raises(RuntimeError, match="failed to start"):
        list(process_many_behind([str(hostile["text"])], ExtractLimits(), 1,
                                 prepare=("neardup_gui.core.fingerprints:no_such_step", None)))
    assert multiprocessing.active_children() == []


def test_files_sent_ahead_of_a_killed_child_go_to_another(hostile, tmp_path):
    """A child gets its next file before it has finished one (workers.AHEAD); when it is killed
    (time limit, memory) or dies, the files it had not started are extracted by its successor,
    each once, never reported with its predecessor's reason."""
    texts = []
    for i in range(4):
        texts.append(tmp_path / f"after-{i}.txt")
        texts[-1].write_text(f"Words of file number {i}.")
    for first, limits, code in (
        (hostile["slow"], ExtractLimits(time_limit_s=5.0), "timeout"),
        (hostile["hog"], ExtractLimits(time_limit_s=3600, memory_limit_mb=192, max_unzipped_mb=4000), "memory"),
    ):
        paths = [str(first), *map(str, texts)]
        results = list(extract_many(paths, limits, workers=1))
        assert sorted(p for p, _ in results) == sorted(paths)
        by_path = dict(results)
        assert by_path[str(first)].code == code
        assert [by_path[str(t)].text for t in texts] == [f"Words of file number {i}." for i in range(4)]
        assert multiprocessing.active_children() == []


def test_the_kept_poll_answers_as_multiprocessing_wait_does() -> None:
    """workers._Waiter (one poll object kept while the pipes stay the same) gives what
    multiprocessing.connection.wait gives: nothing at the time-out, a pipe with input, a pipe
    whose other end has gone, a bare file descriptor (a sentinel) that can be read; and it
    follows a change of the objects asked about."""
    import time as clock
    from multiprocessing.connection import wait

    from neardup_gui.core.workers import _Waiter

    waiter = _Waiter()
    a_read, a_write = multiprocessing.Pipe(duplex=False)
    b_read, b_write = multiprocessing.Pipe(duplex=False)
    r_fd, w_fd = os.pipe()
    try:
        objects = [a_read, b_read, r_fd]
        started = clock.monotonic()
        assert waiter.wait(objects, 0.05) == [] == wait(objects, 0)
        assert clock.monotonic() - started >= 0.05
        b_write.send("x")
        assert waiter.wait(objects, 1) == [b_read] == wait(objects, 1)
        os.write(w_fd, b"!")
        assert set(waiter.wait(objects, 1)) == {b_read, r_fd} == set(wait(objects, 1))
        a_write.close()  # (a hang-up reads as ready)
        assert set(waiter.wait(objects, None)) == {a_read, b_read, r_fd} == set(wait(objects, None))
        assert waiter.wait([a_read], 0) == [a_read] and set(waiter.wait([r_fd, b_read], 0)) == {r_fd, b_read}
    finally:
        for conn in (a_read, b_read, b_write):
            conn.close()
        os.close(r_fd), os.close(w_fd)
