"""The committee's PDF: drawn by Qt, read back with poppler's pdftotext as a reader's viewer reads it.

The text layer must be the text shown: every passage the report quotes (its HTML twin's coloured
runs) is found in the PDF's text, and no character comes back as a CJK radical (文 as ⽂).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from neardup_gui.core.collection import Collection
from neardup_gui.core.report import build_report, report_html
from neardup_gui.core.report.committee import build_screening_report, build_submission_report
from neardup_gui.core.report.pdftext import RADICALS, fix_to_unicode
from neardup_gui.core.screening import screen_folder
from neardup_gui.core.settings import Settings
from neardup_gui.qtpdf import write_pdf
from tests.conftest import SAMPLE

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")


@pytest.fixture(scope="module")
def screened(tmp_path_factory) -> Path:
    """The sample screened as a call against itself, the forms as template files."""
    db = tmp_path_factory.mktemp("pdf") / "i.ndx"
    with Collection.open(db) as coll:
        forms = tuple(str(SAMPLE.parent / "sample_src" / f"_form-{lang}.md") for lang in ("zh", "en"))
        screen_folder(coll, str(SAMPLE), Settings(workers=2, template_files=forms), name="c")
    return db


class _Passages(HTMLParser):
    """The text of every coloured run (classes m0…, e0…: a passage's identical and edited text)."""

    def __init__(self) -> None:
        super().__init__()
        self.runs: list[str] = []
        self._open: list[list[str] | None] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        classes = (dict(attrs).get("class") or "").split()
        coloured = any(re.fullmatch(r"[me]\d+", c) for c in classes) and "swatch" not in classes
        if tag == "span":
            self._open.append([] if coloured else None)

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self._open:
            run = self._open.pop()
            if run is not None:
                self.runs.append("".join(run))

    def handle_data(self, data: str) -> None:
        for run in self._open:
            if run is not None:
                run.append(data)


def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def assert_text_layer(report, out: Path, quotes: bool = True) -> str:
    """Write ``report`` as PDF; every quoted run of its HTML is in the PDF's text (``quotes``: it
    quotes some), no radical is."""
    write_pdf(report, out)
    text = pdf_text(out)
    radicals = sorted({c for c in text if ord(c) in RADICALS})
    assert not radicals, f"CJK radicals in the text layer: {radicals}"
    assert "\ufb01" not in text and "\ufb02" not in text  # (no ligature stands for "fi", "fl")
    flat = re.sub(r"\s+", "", text)
    parser = _Passages()
    parser.feed(report_html(report))
    runs = [re.sub(r"\s+", "", r) for r in parser.runs]
    runs = [r for r in runs if r]
    assert bool(runs) == quotes
    missing = [r for r in runs if r not in flat]
    assert not missing, f"{len(missing)} of {len(runs)} quoted runs not in the PDF's text, e.g. {missing[0][:80]!r}"
    return text


@pytest.mark.parametrize("lang, terms", [
    ("zh_CN", ["文本复制检测报告单", "总文字复制比", "去除引用文献复制比", "单篇最大文字复制比", "技术路线",
               "相似片段对照", "第 1 "]),
    ("en", ["Similarity report", "page 1 of"]),
])
def test_submission_pdf_text_is_the_text_shown(qapp, screened, tmp_path, lang, terms) -> None:
    with Collection.open(screened, create=False) as coll:
        report = build_submission_report(coll.store, "c", "zh-04-山区滑坡监测.txt", Settings(), lang=lang)
    text = assert_text_layer(report, tmp_path / "r.pdf")
    for term in terms:  # (searched as a reader searches: exactly, no normalisation)
        assert term in text, term
    assert "Similarit y" not in text


def test_english_submission_quotes_english_passages(qapp, screened, tmp_path) -> None:
    with Collection.open(screened, create=False) as coll:
        report = build_submission_report(coll.store, "c", "en-02-shoreline-retreat.pdf", Settings(), lang="en")
    assert report.side_by_side
    assert_text_layer(report, tmp_path / "r.pdf")


def test_screening_and_pairs_pdfs_in_chinese(qapp, screened, tmp_path) -> None:
    with Collection.open(screened, create=False) as coll:
        screening = build_screening_report(coll.store, "c", Settings(), lang="zh_CN")
        pairs = build_report(coll, "pairs", Settings(threshold=0.5), lang="zh_CN")
    assert "水稻抗旱基因" in assert_text_layer(screening, tmp_path / "s.pdf", quotes=False)
    assert_text_layer(pairs, tmp_path / "p.pdf")


def test_to_unicode_rewrite_keeps_every_offset() -> None:
    """The rewrite of a ToUnicode map changes code points in place: the file's length and every
    byte outside the map's destinations stay as they were."""
    cmap = (b"/CIDInit /ProcSet findresource begin\n2 beginbfrange\n<0000> <0000> <0000>\n"
            b"<0001> <0003> [<2F42> <0041> <2EA0> ]\nendbfrange\n1 beginbfchar\n<2F42> <2F00>\nendbfchar\n"
            b"1 beginbfrange\n<0007> <0007> <2F42>\n<0008> <0009> <2F42>\nendbfrange\nend\n")
    pdf = (b"%PDF-1.4\n5 0 obj\n<< /Type /Font /ToUnicode 6 0 R >>\nendobj\n6 0 obj\n<< /Length "
           + str(len(cmap)).encode() + b" >>\nstream\n" + cmap + b"endstream\nendobj\n")
    fixed, count = fix_to_unicode(pdf, {0x2F42: 0x6587, 0x2EA0: 0x6C11, 0x2F00: 0x4E00})
    assert len(fixed) == len(pdf)
    assert count == 4
    assert b"[<6587> <0041> <6C11> ]" in fixed
    assert b"<2F42> <4E00>" in fixed  # (a bfchar's code is the glyph, not text: kept)
    assert b"<0007> <0007> <6587>" in fixed
    assert b"<0008> <0009> <2F42>" in fixed  # (a range counts up from its first character: kept)



def _bad_breaks(doc) -> list[str]:  # noqa: ANN001 - a laid-out QTextDocument
    """Every line end that falls inside a Latin word although the word had a break point (a space,
    a - . _ / or a zero-width space): the text around it, the break marked by |."""
    bad = []
    block = doc.begin()
    while block.isValid():
        text, layout = block.text(), block.layout()
        for i in range(layout.lineCount() - 1):
            end = layout.lineAt(i).textStart() + layout.lineAt(i).textLength()
            before, after = text[end - 1:end], text[end:end + 1]
            if not (before.isascii() and before.isalnum() and after.isascii() and after.isalnum()):
                continue  # (after a space or a mark, or beside a CJK character: a break point)
            start = max(text.rfind(" ", 0, end), text.rfind("\u200b", 0, end)) + 1
            if any(c in "-._/ \u200b" for c in text[start:end]):  # the word had a break point
                bad.append(text[max(0, end - 30):end] + "|" + text[end:end + 10])
        block = block.next()
    return bad


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_pdf_tables_break_file_names_after_their_punctuation(qapp, screened, tmp_path, lang) -> None:
    """The screening report's narrow columns of file names: a line ends after a name's - . _ /,
    never inside one of its words (some names do wrap)."""
    from neardup_gui.qtpdf import laid_out, new_writer

    from dataclasses import replace

    with Collection.open(screened, create=False) as coll:
        report = build_screening_report(coll.store, "c", Settings(), lang=lang)
    # names joined by _ (Unicode's line breaking breaks after a hyphen, not after _ or .)
    report = replace(report, rows=tuple(replace(r, rel=r.rel.replace("-", "_")) for r in report.rows))
    writer = new_writer(str(tmp_path / "s.pdf"))
    doc, _, _ = laid_out(report, writer)
    wrapped = 0
    block = doc.begin()
    while block.isValid():
        wrapped += block.text().replace("\u200b", "") in {r.rel for r in report.rows} and block.layout().lineCount() > 1
        block = block.next()
    assert wrapped
    assert not _bad_breaks(doc)
