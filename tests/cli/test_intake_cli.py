"""`neardup index / extract / check` on damaged files: warnings counted and shown, never a skip;
progress lines always say something; counts in the singular when there is one."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from neardup_gui.cli import EXIT_OK, main
from neardup_gui.core.collection import Collection
from neardup_gui.core.store import SCHEMA_VERSION

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ingest"
ROOT = Path(__file__).resolve().parents[2]

ZH = "这是一段完整的中文文本，用来检查截断的文件。第二句话也在这里。\n" * 40
EN = "A plain English paragraph that is read as it is, with nothing damaged in it.\n" * 30


def damaged_folder(folder: Path) -> dict[str, str]:
    """A folder of two clean and three damaged files; returns name → expected warning start."""
    folder.mkdir()
    (folder / "clean.txt").write_text(EN, encoding="utf-8")
    (folder / "clean.docx").write_bytes((FIXTURES / "zh.docx").read_bytes())
    zh = ZH.encode("utf-8").rstrip()
    (folder / "cut.txt").write_bytes(zh[:-1])  # the last character cut in half
    gb = ZH.encode("gb18030")
    (folder / "gb.txt").write_bytes(gb[:200] + b"\x81\x7f" + gb[200:])
    docx = (FIXTURES / "en.docx").read_bytes()
    (folder / "cut.docx").write_bytes(docx[: len(docx) * 2 // 3])
    return {
        "cut.txt": "2 of",
        "gb.txt": "1 of",
        "cut.docx": "recovered from a damaged file",
    }


def test_index_counts_and_lists_the_warnings(tmp_path, capsys):
    folder = tmp_path / "docs"
    expected = damaged_folder(folder)
    db = tmp_path / "c.ndx"
    capsys.readouterr()
    assert main(["index", str(folder), "--db", str(db)]) == EXIT_OK  # warnings are not skips
    out, err = capsys.readouterr()
    assert out.splitlines()[0].startswith(f"5 documents indexed in {db}, 3 with warnings, 0 skipped (5 added")
    assert "3 documents indexed with warnings:" in out
    for name, start in expected.items():
        assert any(line.startswith(f"  {folder / name}: {start}") for line in out.splitlines()), name
    progress = [line for line in err.splitlines() if line.startswith("[")]
    assert progress and all(line.split("] ", 1)[1].strip() for line in progress)  # never "[  5.0%] "
    assert "[100.0%] Indexed 5 documents (3 with warnings, 0 skipped)" in progress

    capsys.readouterr()
    assert main(["index", str(folder), "--db", str(db), "--json", "-q"]) == EXIT_OK
    report = json.loads(capsys.readouterr().out)
    assert report["skipped"] == []
    assert {Path(w["path"]).name: w["warnings"][0][:len(expected[Path(w["path"]).name])]
            for w in report["with_warnings"]} == expected


def test_one_document_is_counted_in_the_singular(tmp_path, capsys):
    folder = tmp_path / "one"
    folder.mkdir()
    (folder / "only.txt").write_text(EN, encoding="utf-8")
    capsys.readouterr()
    assert main(["index", str(folder), "--db", str(tmp_path / "one.ndx")]) == EXIT_OK
    out, err = capsys.readouterr()
    assert out.startswith("1 document indexed in ")
    assert "] found 1 document\n" in err
    assert "[100.0%] Indexed 1 document (0 with warnings, 0 skipped)\n" in err


def test_extract_and_check_report_warnings(tmp_path, capsys):
    folder = tmp_path / "docs"
    damaged_folder(folder)
    capsys.readouterr()
    main(["extract", str(folder / "gb.txt"), "--json"])
    [item] = json.loads(capsys.readouterr().out)
    assert item["status"] == "extracted" and item["warnings"][0].startswith("1 of ")
    main(["extract", str(folder / "cut.txt")])
    out, err = capsys.readouterr()
    assert out.startswith("这是一段") and f"{folder / 'cut.txt'}: warning: 2 of" in err

    db = tmp_path / "c.ndx"
    assert main(["index", str(folder), "--db", str(db), "-q"]) == EXIT_OK
    capsys.readouterr()
    assert main(["check", str(folder / "cut.docx"), "--db", str(db), "--json", "-q"]) == EXIT_OK
    [result] = json.loads(capsys.readouterr().out)
    assert result["warnings"][0].startswith("recovered from a damaged file")


def test_warnings_persist_across_processes_and_a_schema_3_index_is_migrated(tmp_path):
    """An index of schema 3 (before warnings were stored) is opened and extended by `neardup
    index` in another process; this process reads the warnings it wrote."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "clean.txt").write_text(EN, encoding="utf-8")
    db = tmp_path / "old.ndx"
    with Collection.open(db) as collection:
        from neardup_gui.core.settings import Settings

        collection.index_folder(str(folder), Settings(workers=1))
    conn = sqlite3.connect(db)
    conn.execute("ALTER TABLE documents DROP COLUMN warnings")
    conn.execute("PRAGMA user_version = 3")
    conn.commit()
    conn.close()
    (folder / "cut.txt").write_bytes(ZH.encode("utf-8").rstrip()[:-1])
    done = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "index", str(folder), "--db", str(db), "-q"],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == EXIT_OK, done.stderr
    with Collection.open(db, create=False) as collection:
        assert collection.store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        documents = {d.rel: d for d in collection.documents()}
        assert collection.stats()["with_warnings"] == 1
    assert documents["clean.txt"].warnings == ()  # indexed under schema 3: nothing to warn about
    assert documents["cut.txt"].status == "indexed"
    assert documents["cut.txt"].warnings[0].startswith("2 of ")


def test_the_parsers_own_log_lines_stay_off_the_console_unless_asked_for(tmp_path):
    """A LibreOffice PDF whose compressed page has a damaged checksum: pdfminer logs "Data-loss
    while decompressing corrupted data", naming no file, once per reading. `neardup index` says
    the damage in its own words, for the file; pdfminer's line is shown only with `-v` (found
    by benchmarks/stress/fuzz.py: dozens of such lines for a folder of damaged files)."""
    data = (FIXTURES / "en.pdf").read_bytes()
    stream = data.index(b"stream\n") + len(b"stream\n")
    last = data.index(b"\nendstream", stream) - 1  # the last byte of the zlib data: its checksum
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "checksum.pdf").write_bytes(data[:last] + bytes([data[last] ^ 0x55]) + data[last + 1:])
    runs = {}
    for verbose in ([], ["-v"]):
        db = tmp_path / f"index{len(verbose)}.ndx"
        runs[bool(verbose)] = subprocess.run(
            [sys.executable, "-m", "neardup_gui.cli", *verbose, "index", str(folder), "--db", str(db)],
            capture_output=True, text=True, cwd=ROOT, timeout=600)
        assert runs[bool(verbose)].returncode == EXIT_OK, runs[bool(verbose)].stderr
    quiet, loud = runs[False], runs[True]
    assert "checksum.pdf: recovered from a damaged file" in quiet.stdout + quiet.stderr
    assert "pdfminer" not in quiet.stderr and "Data-loss" not in quiet.stderr, quiet.stderr
    assert "WARNING pdfminer.pdftypes: Data-loss while decompressing corrupted data" in loud.stderr
