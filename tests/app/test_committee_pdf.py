"""The committee's PDF: drawn by Qt, read back with poppler's pdftotext."""

from __future__ import annotations

import shutil
import subprocess
import unicodedata

import pytest

from neardup_gui.core.collection import Collection
from neardup_gui.core.report.committee import build_submission_report
from neardup_gui.core.screening import screen_folder
from neardup_gui.core.settings import Settings
from neardup_gui.qtpdf import write_pdf
from tests.conftest import SAMPLE

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")


@pytest.mark.parametrize("lang, terms", [
    ("zh_CN", ["文本复制检测报告单", "总文字复制比", "技术路线", "相似片段对照", "第 1 "]),
    ("en", ["Similarity report", "Overall similarity", "Similarity r", "page 1 of"]),
])
def test_submission_pdf(qapp, tmp_path, lang, terms) -> None:
    with Collection.open(tmp_path / "i.ndx") as coll:
        forms = tuple(str(SAMPLE.parent / "sample_src" / f"_form-{lang}.md") for lang in ("zh", "en"))
        screen_folder(coll, str(SAMPLE), Settings(workers=2, template_files=forms), name="c")
        report = build_submission_report(coll.store, "c", "zh-04-山区滑坡监测.txt", Settings(), lang=lang)
    out = tmp_path / "r.pdf"
    pages = write_pdf(report, out)
    assert pages >= 3
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True).stdout
    # (poppler reads some CJK glyphs back as Kangxi radicals, which NFKC folds to the ideographs)
    text = unicodedata.normalize("NFKC", text)
    for term in terms:
        assert term in text, term
    assert "Similarit y" not in text
