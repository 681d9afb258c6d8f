"""`neardup check --json` in a new process: the headline figures share one denominator, with and
without the exclusions (the batch report showed "without template" above "copied")."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import docx
import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "resources" / "sample"


def neardup(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "neardup_gui.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=600)


@pytest.fixture(scope="module")
def indexed(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("headline")
    db = base / "sample.ndx"
    assert neardup("index", str(SAMPLE), "--db", str(db), "-q").returncode == 0
    return base, db


@pytest.mark.parametrize("options", [[], ["--exclude-quotes"], ["--exclude-quotes", "--exclude-bibliography"],
                                     ["--min-run", "20"]])
def test_check_figures_keep_their_order(indexed, options):
    base, db = indexed
    # a submission quoting half of one proposal and copying the other half
    paras = [p.text for p in docx.Document(SAMPLE / "en-01-coastal-erosion.docx").paragraphs if p.text.strip()]
    sub = docx.Document()
    for i, p in enumerate(paras):
        sub.add_paragraph(f"“{p}”" if i % 2 and len(p) < 900 else p)
    path = base / "quoted.docx"
    sub.save(path)
    second = base / "resubmitted.pdf"
    shutil.copy(SAMPLE / "en-02-shoreline-retreat.pdf", second)
    proc = neardup("check", str(path), str(second), "--db", str(db), "--json", "-q", *options)
    assert proc.returncode == 0, proc.stderr
    for result in json.loads(proc.stdout):
        s = result["summary"]
        assert s["countable_units"] > 0
        assert 0 <= s["largest_source_ratio"] <= s["copied_ratio"] <= 1
        assert s["copied_ratio_without_quotes"] <= s["copied_ratio"]
        assert s["copied_ratio_without_template"] <= s["copied_ratio"]
        for m in result["matches"]:
            assert m["containment"] <= s["copied_ratio"] + 1e-12
        if "--exclude-quotes" in options:
            assert s["copied_ratio_without_quotes"] == s["copied_ratio"]
