"""The command line on an archive whose names are not valid UTF-8 (GBK names kept as bytes), its
output read as strict UTF-8: before, `index` stopped at the first such name with a traceback,
`check` and its reports of a submission so named failed, `screen` left it out of the table."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.core.test_undecodable_names import GBK_PROPOSAL, SAMPLE, archive_with_gbk_names, bytes_path


def neardup(*args: str | bytes, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict", LC_ALL="C.UTF-8")
    return subprocess.run([sys.executable, "-m", "neardup_gui.cli", *args], capture_output=True, env=env,
                          cwd=cwd, timeout=600)


def test_index_check_reports_add_and_screen_with_gbk_names(tmp_path):
    folder = archive_with_gbk_names(tmp_path / "archive")
    db = str(tmp_path / "a.ndx")
    run = neardup("index", str(folder), "--db", db, "-q")
    out, err = run.stdout.decode("utf-8"), run.stderr.decode("utf-8")  # (strict: valid UTF-8 only)
    assert run.returncode == 1, err  # (EXIT_SKIPPED: files skipped, their reasons listed)
    assert "2 documents indexed" in out and "3 skipped" in out
    assert "\\xc9\\xea\\xc7\\xeb\\xca\\xe9.docx: name not valid UTF-8 (in GBK: '申请书.docx')" in out
    assert "folder name not valid UTF-8 (in GBK: '往年项目')" in out
    assert "Traceback" not in err

    submission = bytes_path(folder, GBK_PROPOSAL)
    run = neardup("check", submission, "--db", db, "--json", "-q")
    assert run.returncode == 0, run.stderr.decode()
    result = json.loads(run.stdout.decode("utf-8"))[0]
    assert result["path"].endswith("\\xc9\\xea\\xc7\\xeb\\xca\\xe9.docx")
    assert result["matches"][0]["path"] == str(folder / "proposal.docx")
    run = neardup("check", submission, "--db", db, "-q")
    assert run.returncode == 0 and "Traceback" not in run.stderr.decode("utf-8")
    for fmt in ("html", "csv", "json", "pdf"):
        out_file = tmp_path / f"report.{fmt}"
        run = neardup("report", "--out", str(out_file), "--check", submission, "--db", db, "-q")
        assert run.returncode == 0, run.stderr.decode()
        assert out_file.stat().st_size > 0
    assert "\\xc9\\xea\\xc7\\xeb\\xca\\xe9.docx" in (tmp_path / "report.html").read_text(encoding="utf-8")

    run = neardup("add", submission, "--db", db)
    assert run.returncode == 2, run.stderr  # (EXIT_USAGE: nothing added)
    assert "name not valid UTF-8 (in GBK: '申请书.docx'): rename the file" in run.stderr.decode("utf-8")

    call = tmp_path / "call"
    call.mkdir()
    shutil.copy(SAMPLE / "en-02-shoreline-retreat.pdf", call / "a.pdf")
    shutil.copyfile(SAMPLE / "en-01-coastal-erosion.docx", bytes_path(call, GBK_PROPOSAL))
    run = neardup("screen", str(call), "--db", db, "--json", "-q")
    assert run.returncode in (0, 1), run.stderr.decode()
    rows = {r["rel"]: r for r in json.loads(run.stdout.decode("utf-8"))["submissions"]}
    assert set(rows) == {"a.pdf", "\\xc9\\xea\\xc7\\xeb\\xca\\xe9.docx"}
    assert rows["\\xc9\\xea\\xc7\\xeb\\xca\\xe9.docx"]["status"] == "skipped"
    assert "in GBK: '申请书.docx'" in rows["\\xc9\\xea\\xc7\\xeb\\xca\\xe9.docx"]["reason"]
