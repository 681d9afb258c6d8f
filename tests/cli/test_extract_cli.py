"""`neardup extract FILE…`: text on stdout, reasons on stderr, exit status, --json."""

from __future__ import annotations

import json
from pathlib import Path

from neardup_gui.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ingest"
EN_TEXT = (
    "Near-duplicate detection finds documents that share most of their text.\n"
    "An examiner compares every new submission with the whole collection before review.\n"
    "The fingerprint of a document is computed from overlapping shingles of its words, so that a single "
    "edited sentence changes only a small part of the fingerprint.\n"
    "Results are verified by the longest common subsequence of the two texts."
)


def test_several_files_with_headers_and_a_skipped_one(capsys, tmp_path):
    note = tmp_path / "note.txt"
    note.write_text("近似重复检测。", encoding="utf-8")
    code = main(["extract", "--workers", "2", str(FIXTURES / "en.docx"), str(FIXTURES / "locked.pdf"), str(note)])
    out, err = capsys.readouterr()
    assert code == 1
    assert out == f"==> {FIXTURES / 'en.docx'} <==\n{EN_TEXT}\n==> {note} <==\n近似重复检测。\n"
    assert f"{FIXTURES / 'locked.pdf'}: skipped: password-protected PDF: remove the password" in err


def test_json_output_and_single_file(capsys):
    code = main(["extract", "--json", str(FIXTURES / "en.pdf"), str(FIXTURES / "missing.docx")])
    out, _ = capsys.readouterr()
    assert code == 1
    records = json.loads(out)
    assert [r["status"] for r in records] == ["extracted", "skipped"]
    pdf, missing = records
    assert pdf["path"] == str(FIXTURES / "en.pdf") and pdf["format"] == "pdf"
    assert pdf["text"] == EN_TEXT and pdf["reason"] is None
    assert pdf["meta"]["pages"] == "1" and len(pdf["meta"]["sha256"]) == 64
    assert missing["reason"] == "no such file" and missing["text"] is None  # (a path given wrong, not a file that vanished)

    assert main(["extract", str(FIXTURES / "zh.docx")]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("近似重复检测用于发现内容大部分相同的文档。\n") and "==>" not in out and err == ""
