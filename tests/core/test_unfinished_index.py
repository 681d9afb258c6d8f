"""An indexing that stops before its end leaves the index saying so (``indexer.unfinished``):
whoever opens it next — the window after a restart, a command — is told that it holds only the
documents indexed until then. Before, a partial index looked whole ("the saved index")."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from neardup_gui.core.collection import Collection
from neardup_gui.core.indexer import unfinished
from neardup_gui.core.progress import Cancelled
from neardup_gui.core.scan import FolderUnavailable
from neardup_gui.core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def _folder(corpus_dir: Path, target: Path, n: int = 12) -> Path:
    target.mkdir()
    for path in sorted((corpus_dir / "debian-reference-en").glob("*.txt"))[:n]:
        shutil.copy(path, target / path.name)
    return target


def _in_another_process(db: Path) -> tuple[bool, int]:
    code = ("import sys; from neardup_gui.core.collection import Collection; "
            "from neardup_gui.core.indexer import unfinished\n"
            "with Collection.open(sys.argv[1], create=False) as c: print(bool(unfinished(c.store)), len(c.documents()))")
    out = subprocess.run([sys.executable, "-c", code, str(db)], capture_output=True, text=True, cwd=ROOT, check=True)
    flag, count = out.stdout.split()
    return flag == "True", int(count)


def _cancel_after(n: int):  # noqa: ANN202 - a progress function
    def progress(fraction: float, message: str = "") -> None:
        if message.startswith(f"Indexed {n} of"):
            raise Cancelled()
    return progress


def _cancelled(coll: Collection, folder: Path, settings: Settings, after: int) -> None:
    with pytest.raises(Cancelled):
        coll.index_folder(str(folder), settings, _cancel_after(after))


def test_a_cancelled_indexing_leaves_the_index_marked_until_a_refresh_completes(corpus_dir, tmp_path):
    folder = _folder(corpus_dir, tmp_path / "docs")
    db = tmp_path / "i.ndx"
    settings = Settings(workers=1)
    with Collection.open(str(db)) as coll:
        _cancelled(coll, folder, settings, 3)
        assert unfinished(coll.store) == str(folder)  # (the folder whose indexing stopped)
    flag, count = _in_another_process(db)
    assert flag and 0 < count < 12
    with Collection.open(str(db)) as coll:
        report = coll.index_folder(str(folder), settings)
        assert report.added == 12 - count and not unfinished(coll.store)
    assert _in_another_process(db) == (False, 12)


def test_a_folder_that_cannot_be_read_changes_nothing(corpus_dir, tmp_path):
    folder = _folder(corpus_dir, tmp_path / "docs", 3)
    db = tmp_path / "i.ndx"
    with Collection.open(str(db)) as coll:
        coll.index_folder(str(folder), Settings(workers=1))
        with pytest.raises(FolderUnavailable):
            coll.index_folder(str(tmp_path / "not-there"), Settings(workers=1))
        assert not unfinished(coll.store)  # (nothing was begun: the index is as whole as it was)


def test_a_report_on_a_partial_index_says_so(corpus_dir, tmp_path):
    """A report shown to a committee names a partial index in its summary (HTML and JSON): the
    files not indexed then were not compared. A whole index's report has no such line."""
    from neardup_gui.core.report import report_html
    from neardup_gui.core.report.jsonout import report_json
    from neardup_gui.core.report.model import build_report

    folder = _folder(corpus_dir, tmp_path / "docs", 6)
    settings = Settings(workers=1)
    with Collection.open(str(tmp_path / "i.ndx")) as coll:
        _cancelled(coll, folder, settings, 2)
        report = build_report(coll, "pairs", settings)
        assert report.summary.index_unfinished == str(folder)
        html = report_html(report)
        assert "Index incomplete" in html and f"the last indexing of {folder} did not finish" in html
        assert report_json(report)["summary"]["index_unfinished"] == str(folder)
        coll.index_folder(str(folder), settings)
        whole = build_report(coll, "pairs", settings)
        assert whole.summary.index_unfinished == "" and "Index incomplete" not in report_html(whole)
