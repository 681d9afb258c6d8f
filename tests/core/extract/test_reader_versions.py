"""An index keeps no document read by an earlier reader of its format (extract.READER_VERSIONS).

When a version reads a format differently (this one: manual pages' sources read as `man` shows
them, words a formatter broke mended, PDF gaps bridged by drawn spaces), an index made by an
earlier version held the old readings of unchanged files for ever: its figures mixed two
readings of one format, and a new submission read the new way was compared with archives read
the old way. Now each document records its reader's version, and the next indexing reads again
the ones an earlier reader read — across processes, as an examiner's upgrade happens.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from neardup_gui.core.extract import READER_VERSIONS, extract_file

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "resources" / "sample"
_roff_spec = importlib.util.spec_from_file_location("roff_pages", Path(__file__).with_name("test_roff.py"))
_roff = importlib.util.module_from_spec(_roff_spec)
_roff_spec.loader.exec_module(_roff)
LEDGER_1 = _roff.LEDGER_1  # a manual page's source


def _cli(*args: str) -> dict | list:
    out = subprocess.run([sys.executable, "-m", "neardup_gui.cli", *args, "--json", "-q"], cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=300).stdout
    return json.loads(out)


def _as_an_earlier_version_left_it(db: Path, formats: tuple[str, ...]) -> None:
    """The index as the version before reader versions wrote it: no "reader" in any meta."""
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE documents SET meta = json_remove(meta, '$.reader') "
                     f"WHERE format IN ({','.join('?' * len(formats))})", formats)


def test_documents_an_earlier_reader_read_are_read_again_once(tmp_path):
    folder = tmp_path / "archive"
    folder.mkdir()
    (folder / "ledger.1").write_text(LEDGER_1, encoding="utf-8")
    (folder / "ledger-old.1").write_text(LEDGER_1.replace("small society", "small club"), encoding="utf-8")
    shutil.copy(SAMPLE / "en-01-coastal-erosion.docx", folder)
    shutil.copy(SAMPLE / "en-02-shoreline-retreat.pdf", folder)
    shutil.copy(SAMPLE / "en-05-dementia-speech.txt", folder)
    db = tmp_path / "archive.ndx"
    first = _cli("index", str(folder), "--db", str(db))
    assert (first["added"], first["reread"]) == (5, 0)
    for name, fmt in [("ledger.1", "txt"), ("en-02-shoreline-retreat.pdf", "pdf"),
                      ("en-01-coastal-erosion.docx", "docx")]:
        assert extract_file(str(folder / name)).meta["reader"] == str(READER_VERSIONS.get(fmt, 1))
    fresh_pairs = _cli("pairs", "--db", str(db), "--threshold", "0.5")

    _as_an_earlier_version_left_it(db, ("txt", "pdf", "docx"))
    again = _cli("index", str(folder), "--db", str(db))  # a new process: the upgraded program
    # the three text files, the PDF and the .docx read again
    assert (again["updated"], again["reread"], again["unchanged"]) == (5, 5, 0)
    assert _cli("pairs", "--db", str(db), "--threshold", "0.5") == fresh_pairs
    with sqlite3.connect(db) as conn:
        readers = dict(conn.execute("SELECT rel, json_extract(meta, '$.reader') FROM documents"))
    txt, pdf, docx = (str(READER_VERSIONS[f]) for f in ("txt", "pdf", "docx"))
    assert readers == {"ledger.1": txt, "ledger-old.1": txt, "en-02-shoreline-retreat.pdf": pdf,
                       "en-05-dementia-speech.txt": txt, "en-01-coastal-erosion.docx": docx}

    third = _cli("index", str(folder), "--db", str(db))
    assert (third["updated"], third["reread"], third["unchanged"]) == (0, 0, 5)


def test_the_summary_says_what_was_read_again(tmp_path):
    folder = tmp_path / "archive"
    folder.mkdir()
    shutil.copy(SAMPLE / "en-05-dementia-speech.txt", folder)
    db = tmp_path / "archive.ndx"
    _cli("index", str(folder), "--db", str(db))
    _as_an_earlier_version_left_it(db, ("txt",))
    out = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "index", str(folder), "--db", str(db), "-q"],
                         cwd=ROOT, capture_output=True, text=True, check=True, timeout=300).stdout
    assert ("1 unchanged file read again: this version reads its format differently (see docs/extraction.md); "
            "the figures that involve them may change") in out
