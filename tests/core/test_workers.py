"""Extraction in killable worker processes: results for every path, limits, crashes, cancel.

Process start-up costs about a second, so these tests are few and each covers several cases.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import signal
import time
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
    files["slow"].write_bytes(mf.slow_pdf(2))  # about 20 s of interpretation
    files["hog"].write_bytes(mf.huge_stream_pdf(300))  # inflates to 300 MB in one piece
    files["big"].write_bytes(b"word " * (300 * 1024))
    files["text"].write_text("Plain words in a plain file.")
    return files


def test_many_files_each_reported_once_with_limits(hostile):
    limits = ExtractLimits(time_limit_s=5.0, memory_limit_mb=192, size_limit_mb=1, max_unzipped_mb=4000)
    paths = [
        str(FIXTURES / "en.docx"), str(FIXTURES / "zh.pdf"), str(FIXTURES / "locked.pdf"),
        str(hostile["slow"]), str(hostile["hog"]), str(hostile["big"]), str(hostile["text"]),
        str(FIXTURES / "report.odt"), str(FIXTURES / "missing.pdf"), str(FIXTURES / "make_fixtures.py"),
    ]
    fractions: list[float] = []
    start = time.monotonic()
    results = list(extract_many(paths, limits, workers=2, progress=lambda f, m="": fractions.append(f)))
    elapsed = time.monotonic() - start
    assert sorted(p for p, _ in results) == sorted(paths)
    by_path = {p: r for p, r in results}
    codes = {os.path.basename(p): (r.code if isinstance(r, Skipped) else "ok") for p, r in by_path.items()}
    assert codes == {
        "en.docx": "ok", "zh.pdf": "ok", "locked.pdf": "encrypted", "slow.pdf": "timeout",
        "hog.pdf": "memory", "big.txt": "too-large", "plain.txt": "ok", "report.odt": "ok",
        "missing.pdf": "vanished", "make_fixtures.py": "unsupported",
    }
    assert by_path[str(FIXTURES / "zh.pdf")].text.splitlines() == mf.ZH_PARAGRAPHS
    assert by_path[str(hostile["text"])].text == "Plain words in a plain file."
    assert fractions[-1] == 1.0 and fractions == sorted(fractions)
    assert elapsed < 30
    assert multiprocessing.active_children() == []


def test_crashed_worker_is_reported_and_replaced(hostile):
    """A worker that dies (here: SIGSEGV sent while it works on a slow file) → ``crash``."""
    paths = [str(hostile["slow"]), str(hostile["text"])]
    killed: list[int] = []

    def progress(fraction: float, message: str = "") -> None:
        # Wait until the worker has started and is deep in the slow file, then "crash" it.
        if not killed and time.monotonic() - start > 4.0:
            for child in multiprocessing.active_children():
                os.kill(child.pid, signal.SIGSEGV)
                killed.append(child.pid)

    start = time.monotonic()
    results = dict(extract_many(paths, ExtractLimits(time_limit_s=30), workers=1, progress=progress))
    assert killed
    assert results[paths[0]].code == "crash"
    assert "SIGSEGV" in results[paths[0]].reason
    assert results[paths[1]].text == "Plain words in a plain file."  # a fresh worker took over


def test_cancel_kills_children(hostile):
    def progress(fraction: float, message: str = "") -> None:
        if multiprocessing.active_children():
            raise Cancelled()

    start = time.monotonic()
    with pytest.raises(Cancelled):
        list(extract_many([str(hostile["slow"])] * 1 + [str(hostile["text"])], ExtractLimits(), 2, progress))
    assert time.monotonic() - start < 15
    assert multiprocessing.active_children() == []


def test_extract_isolated_matches_in_process():
    result = extract_isolated(str(FIXTURES / "en.pdf"))
    assert isinstance(result, Document)
    assert result.text.splitlines() == mf.EN_PARAGRAPHS
