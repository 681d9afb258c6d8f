"""The two PDF readers: PDFium (extract/pdf/fium.py) for intact files, pdfminer.six (miner.py) for
damaged ones and the pages PDFium cannot read. They give the same units on real PDFs — the
fixtures, the sample, corpus sections made by LibreOffice, two columns, a turned page, a scan
with a text layer, vertical Chinese — and an index built with either gives the same pairs and
checks; the fast reader reads only what the structure check (integrity.py) passes, and says when
the salvage reader read a page. Text a PDF hides is marked the same by both (hidden.py).
"""

from __future__ import annotations

import ctypes
import importlib.util
from pathlib import Path

import docx
import numpy as np
import pytest
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import RGBColor

from neardup_gui.core.collection import Collection
from neardup_gui.core.document import Document
from neardup_gui.core.extract import extract_bytes
from neardup_gui.core.extract.common import build_document
from neardup_gui.core.extract.pdf import fium, integrity, miner
from neardup_gui.core.settings import ExtractLimits, Settings
from neardup_gui.core.units import tokenize, unit_strings

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "ingest"
SAMPLE = Path(__file__).resolve().parents[4] / "resources" / "sample"
FAST, SALVAGE = ExtractLimits(), ExtractLimits(pdf_fast=False)
_spec = importlib.util.spec_from_file_location("make_fixtures", FIXTURES / "make_fixtures.py")
mf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mf)

needs_pdfium = pytest.mark.skipif(not fium.available(), reason="pypdfium2 is not installed here")
pytestmark = needs_pdfium


def read(data: bytes, limits: ExtractLimits = FAST) -> Document:
    result = extract_bytes("/x/file.pdf", "pdf", data, limits, {})
    assert isinstance(result, Document), result
    return result


def units(doc: Document) -> list[str]:
    found = tokenize(doc.text)
    return unit_strings(doc.text, found.starts, found.ends)


def _line(y: int, text: bytes, before: bytes = b"", x: int = 72) -> bytes:
    return b"BT /F1 12 Tf %s %d %d Td (%s) Tj 0 Tr ET\n" % (before, x, y, text)


def _one_page(content: bytes, page_extra: bytes = b"", image: bool = False) -> bytes:
    """A page of Helvetica text (``/F1``) and, with ``image``, a grey picture ``/Im1``."""
    xobject = b" /XObject << /Im1 6 0 R >>" if image else b""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >>%s >> "
               b"/Contents 4 0 R%s >>" % (xobject, page_extra),
               mf._stream(content), b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
               mf._stream(bytes(range(0, 256, 4)), b" /Type /XObject /Subtype /Image /Width 8 /Height 8 "
                                                    b"/ColorSpace /DeviceGray /BitsPerComponent 8")]
    return mf.pdf_from_objects(objects)


TRICKS = _one_page(
    _line(700, b"Visible opening sentence of the page.")
    + _line(670, b"invisible words", b"3 Tr")
    + b"1 1 1 rg\n" + _line(640, b"white words") + b"0 0 0 rg\n"
    + _line(610, b"offpage words", x=700)
    + b"q 0 0 10 10 re W n\n" + _line(580, b"clipped words") + b"Q\n"
    + b"0 0 0 rg 50 540 300 24 re f 1 1 1 rg\n" + _line(548, b"white on black") + b"0 0 0 rg\n"
    + b"q 200 0 0 60 60 440 cm /Im1 Do Q\n" + _line(460, b"scanned text layer", b"3 Tr")
    + b"BT /F1 12 Tf 72 400 Td (glued) Tj 1 1 1 rg (x) Tj 0 0 0 rg ( word) Tj ET\n"
    + _line(370, b"Visible closing sentence of the page."), image=True)


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, bytes]:
    """PDFs LibreOffice makes in one run: corpus sections in both languages, a page of vertical
    Chinese, and a DOCX whose words each carry a letter coloured white."""
    from tests.corpus import CORPUS

    folder = tmp_path_factory.mktemp("made")
    sources = []
    for lang, count in (("en", 3), ("zh-cn", 3)):
        for path in sorted((CORPUS / f"debian-reference-{lang}").glob("*.txt"))[5:5 + count]:
            target = folder / f"{lang}-{path.stem}.docx"
            document = docx.Document()
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    document.add_paragraph(line)
            document.save(str(target))
            sources.append(target)
    zh = (CORPUS / "debian-reference-zh-cn" / "ch01-001.txt").read_text(encoding="utf-8").splitlines()[2:5]
    vertical = docx.Document()
    direction = OxmlElement("w:textDirection")
    direction.set(qn("w:val"), "tbRl")
    vertical.sections[0]._sectPr.append(direction)
    for line in zh:
        vertical.add_paragraph(line)
    vertical.save(str(folder / "vertical.docx"))
    white = docx.Document()
    for line in ("Upon starting the system, you are presented with the character based login screen.",
                 "Suppose your hostname is foo, the login prompt looks as follows."):
        paragraph = white.add_paragraph()
        for word in line.split():
            paragraph.add_run(word)
            paragraph.add_run("q").font.color.rgb = RGBColor(255, 255, 255)
            paragraph.add_run(" ")
    white.add_paragraph().add_run("A white sentence on its own line.").font.color.rgb = RGBColor(255, 255, 255)
    white.add_paragraph("The last visible sentence.")
    white.save(str(folder / "white.docx"))
    mf.soffice_convert([*sources, folder / "vertical.docx", folder / "white.docx"], "pdf:writer_pdf_Export", folder)
    return {p.stem: p.read_bytes() for p in folder.glob("*.pdf")}


def _turned_page() -> bytes:
    """A page shown turned a quarter (/Rotate 90) whose text is drawn turned back: upright as shown."""
    content = b"".join(b"BT /F1 12 Tf 0 1 -1 0 %d 72 Tm (Line %d of a page shown turned, read upright.) Tj ET\n"
                       % (100 + 20 * k, k) for k in range(6))
    return _one_page(content, b" /Rotate 90")


def test_the_compiled_page_reading_gives_the_python_records():
    """_pdfium.c's records, byte for byte those of the same PDFium calls through ctypes."""
    if fium._compiled_pdfium is None:
        pytest.skip("_pdfium.c is not built here")
    raw, table = fium._library().raw, fium._library().table
    pages = 0
    for path in [*sorted(FIXTURES.glob("*.pdf")), *sorted(SAMPLE.glob("*.pdf"))][:12]:
        if path.name == "locked.pdf":
            continue
        data = path.read_bytes()
        document = raw.FPDF_LoadMemDocument64(data, len(data), None)
        for index in range(raw.FPDF_GetPageCount(document)):
            page = raw.FPDF_LoadPage(document, index)
            text = raw.FPDFText_LoadPage(page)
            compiled = fium._compiled_pdfium.chars(table, ctypes.cast(text, ctypes.c_void_p).value)
            assert compiled == fium._page_chars_py(raw, text).tobytes()
            compiled = fium._compiled_pdfium.objects(table, ctypes.cast(page, ctypes.c_void_p).value)
            assert compiled == fium._page_objects_py(raw, page).tobytes()
            raw.FPDFText_ClosePage(text)
            raw.FPDF_ClosePage(page)
            pages += 1
        raw.FPDF_CloseDocument(document)
    assert pages > 20


def test_both_readers_give_the_same_units_on_real_pdfs(made):
    """Every fixture and sample PDF, corpus sections in both languages, two columns, a turned
    page, a scan with a text layer and vertical Chinese (read as lines across, by both: vertical
    writing is not recognised, a documented limit): the same units in the same order, the same
    furniture and hidden spans. The text may differ by a space between two CJK glyphs (a
    LibreOffice object of three spaces or more keeps only its ends in PDFium's text page), never
    by a unit."""
    files = {p.name: p.read_bytes() for p in [*FIXTURES.glob("*.pdf"), *SAMPLE.glob("*.pdf")] if p.name != "locked.pdf"}
    files.update({f"{name}.pdf": data for name, data in made.items()})
    files["turned.pdf"] = _turned_page()
    files["scan-with-text.pdf"] = _one_page(b"q 540 0 0 700 36 46 cm /Im1 Do Q\n" + b"".join(
        _line(700 - 20 * k, b"Line %d of the text layer of a scanned page." % k, b"3 Tr") for k in range(8)), image=True)
    assert len(files) >= 25
    for name, data in sorted(files.items()):
        fast, salvage = fium.read(data, FAST), miner.read(data, SALVAGE)
        assert fast is not None, name
        a, b = build_document(name, "pdf", fast, {}), build_document(name, "pdf", salvage, {})
        assert units(a) == units(b), name
        assert a.text.replace(" ", "") == b.text.replace(" ", ""), name
        assert (a.hidden, a.warnings) == (b.hidden, b.warnings[:0]) and not a.warnings, name
        # (LibreOffice sets a run of the vertical page below the page's bottom edge: off the
        # page, hidden by both; the honest files hide nothing)
        assert not a.hidden or name in ("vertical.pdf", "white.pdf"), name
        assert [a.text[s:e] for s, e in a.furniture] == [b.text[s:e] for s, e in b.furniture], name
    assert "Line 2 of a page shown turned, read upright. Line 3 of" in read(files["turned.pdf"]).text
    assert len(units(read(files["scan-with-text.pdf"]))) == 8 * 10  # (the layer is the page's text, not hidden)


def test_an_index_built_with_either_reader_gives_the_same_pairs_and_checks(tmp_path):
    """The sample collection indexed twice, its PDFs read by PDFium and by pdfminer.six: the same
    documents, pairs, similarities and a check's sources."""
    answers = []
    for limits in (FAST, SALVAGE):
        settings = Settings(workers=2, threshold=0.3, limits=limits)
        with Collection.open(tmp_path / f"{limits.pdf_fast}.ndx") as collection:
            collection.index_folder(str(SAMPLE), settings)
            units_of = {d.rel: d.units for d in collection.documents()}
            pairs = [(p.a.rel, p.b.rel, round(p.similarity, 9)) for p in collection.pairs(settings)]
            [check] = collection.check([str(SAMPLE / "zh-02-水稻干旱响应调控.pdf")], settings)
            sources = [(m.source.rel, round(m.comparison.containment_a, 9)) for m in check.matches]
        answers.append((units_of, pairs, sources))
    assert answers[0] == answers[1]
    assert answers[0][1] and answers[0][2]


def test_hidden_text_is_marked_by_both_readers():
    """Text drawn invisible (render mode 3), white on the page's white, off the page, or clipped
    away is hidden, and a letter glued white to a word; white on a black box and a scan's
    invisible text layer are not. The salvage reader does not follow clipping paths (a limit)."""
    hidden = {"invisible words", "white words", "offpage words", "clipped words", "x"}
    for limits, expected in ((FAST, hidden), (SALVAGE, hidden - {"clipped words"})):
        doc = read(TRICKS, limits)
        assert doc.text == ("Visible opening sentence of the page.\ninvisible words\nwhite words\n"
                            "offpage words clipped words\nwhite on black\nscanned text layer\ngluedx word\n"
                            "Visible closing sentence of the page.")
        assert {doc.text[s:e] for s, e in doc.hidden} == expected


def test_white_letters_of_a_libreoffice_pdf_are_hidden(made):
    """A DOCX whose words each carry a letter coloured white, saved as PDF by LibreOffice (a trick
    that beat the comparison): each white letter is a hidden span, in both readers; the text
    without them is the visible text."""
    for limits in (FAST, SALVAGE):
        doc = read(made["white"], limits)
        spans = [doc.text[s:e] for s, e in doc.hidden]
        assert spans.count("q") == 24 and spans[-1] == "A white sentence on its own line."
        visible = "".join(c for k, c in enumerate(doc.text) if not any(s <= k < e for s, e in doc.hidden))
        assert visible.split("\n")[:2] == [
            "Upon starting the system, you are presented with the character based login screen.",
            "Suppose your hostname is foo, the login prompt looks as follows."]


def test_a_file_the_structure_check_refuses_is_read_by_the_salvage_reader_and_said():
    """A stream longer than its /Length says: PDFium would read on in silence; pdfminer.six reads
    it, and as it says nothing of its own, the warning says why it read the file."""
    data = _one_page(_line(700, b"Words of a page whose stream length is wrong."))
    length = data.index(b"/Length ") + len(b"/Length ")
    end = data.index(b" ", length)
    damaged = data[:length] + str(int(data[length:end]) - 4).encode() + data[end:]
    damaged = damaged[:damaged.index(b"xref")] + b"xref" + damaged[damaged.index(b"xref") + 4:]
    assert integrity.damage(data, 1 << 20) == ""
    assert integrity.damage(damaged, 1 << 20) == "a stream does not end where its length says"
    doc = read(damaged)
    assert doc.warnings == ("read by the salvage reader (pdfminer.six): a stream does not end where its length says",)


def test_a_page_whose_font_gives_glyphs_no_character_is_read_by_the_salvage_reader():
    """Page 2 draws glyphs its font names no character for (glyph names no table knows): that page
    is read by pdfminer.six, as it always was, and the warning says so; page 1 by PDFium."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 7 0 R >> >> "
               b"/Contents 4 0 R >>",
               mf._stream(b"BT /F1 12 Tf 72 700 Td (A first page of plain words.) Tj ET"),
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 7 0 R /F2 8 0 R >> "
               b">> /Contents 6 0 R >>",
               mf._stream(b"BT /F1 12 Tf 72 700 Td (Second page words) Tj /F2 12 Tf ( ABC) Tj ET"),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Type /Encoding "
               b"/Differences [65 /g101 /g102 /g103] >> >>"]
    data = mf.pdf_from_objects(objects)
    doc = read(data)
    assert doc.warnings == ("page 2 read by the salvage reader (pdfminer.six): its fonts give some glyphs no character",)
    assert doc.text == read(data, SALVAGE).text


def test_a_compression_bomb_is_refused_before_pdfium_reads_it():
    bomb = mf.pdf_from_objects([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
                                mf._stream(b" " * (3 << 20), compress=True)])
    result = extract_bytes("/x/bomb.pdf", "pdf", bomb, ExtractLimits(max_unzipped_mb=2), {})
    assert (result.code, result.reason) == ("zip-bomb", "PDF stream expands beyond 2 MB (compression bomb); refused")


def test_honest_pdfs_structure_passes_in_every_writers_form(tmp_path):
    """The structure check passes what writers make of an intact file: LibreOffice's own, and the
    fixtures (a table, an owner password, hand-made pages): nothing read slowly for no reason."""
    for path in [*FIXTURES.glob("*.pdf"), *SAMPLE.glob("*.pdf")]:
        assert integrity.damage(path.read_bytes(), 1 << 28) == "", path.name
    assert np.all([integrity.damage(TRICKS, 1 << 20) == "", integrity.damage(_turned_page(), 1 << 20) == ""])
