"""PDFs of plain text (a man page, a listing, a copyright file printed by LibreOffice): the runs of
spaces a text holds are drawn as space glyphs, and a gap bridged by them is spacing, not a gap
between table cells.

Found on real man pages (``man -l`` rendered to text, ``soffice --convert-to pdf``): nroff
justifies lines with double spaces, which in a monospaced font leave a gap of 1.2 em — the width
that splits a row into cells. Rows of cells were then read as a table, column by column, and a
man page's PDF matched its own text at 0.42–0.81 (40 pages: mean 0.87). Read as the text was
typed, they match at 0.97–1.00 (mean 0.996).
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from neardup_gui.core.compare import compare_documents
from neardup_gui.core.document import Document
from neardup_gui.core.extract import extract_file
from neardup_gui.core.units import tokenize

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "ingest"
_spec = importlib.util.spec_from_file_location("ingest_fixtures", FIXTURES / "make_fixtures.py")
mf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mf)

# A manual page as `man` renders it (our own text): a header with its parts far apart, justified
# lines with double spaces, a hyphen (U+2010) ending a line, and a table aligned by spaces.
MAN_PAGE = """\
tabulate(1)                 General Commands Manual                tabulate(1)

NAME
       tabulate - arrange the records of a ledger file into aligned columns

SYNOPSIS
       tabulate [-w width]  [-s sep] [-H] [-q] file ...

DESCRIPTION
       tabulate  reads each ledger file named on the command line and writes
       its  records  to standard output, one record a line, with the fields of
       every record set in columns as wide as the widest field found in that
       column.   Records whose fields cannot be parsed are copied unchanged,
       and a warning naming the file and the line is written to standard er‐
       ror.

       When no file is named, the standard input is read.  When a file  name
       is  a single dash, the standard input is read at that place among the
       files.  The width of the output may be given; longer records wrap  at
       a  field boundary, and the continuation starts under the second field.

FIELDS
       Name       Width   Kind       Meaning
       date       10      text       the day the record was entered
       amount     12      number     the sum, with two decimals
       account    8       text       the ledger account it is booked to
       memo       40      text       free text, cut at the given width

EXIT STATUS
       0 when every record was read, 1 when a record was copied unchanged,
       and 2 when a file could not be opened.

                                  2024-03-01                      tabulate(1)
"""


def _units(doc: Document) -> list[str]:
    return tokenize(doc.text).tokens


def _courier_pdf(rows: list[tuple[float, list[tuple[float, str]]]], font: bytes = b"Courier") -> bytes:
    """One page in a standard font (Courier), 10 pt: each row ``(y, [(x, text), …])``, every piece
    drawn at its own x."""
    ops = bytearray()
    for y, pieces in rows:
        for x, text in pieces:
            ops += b"BT /F1 10 Tf %.1f %.1f Td (%s) Tj ET\n" % (x, y, text.encode("latin-1"))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        mf._stream(bytes(ops)),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /%s >>" % font,
    ]
    return mf.pdf_from_objects(objects)


TABLE = [
    ["Name", "Width", "Kind"],
    ["date", "10", "text"],
    ["amount", "12", "number"],
    ["account", "8", "text"],
]
COLUMNS = (72.0, 144.0, 198.0)


def test_a_gap_bridged_by_drawn_spaces_is_spacing_one_with_nothing_drawn_splits_cells(tmp_path):
    """The same rows, the same positions: typed with spaces (as a text printed to PDF is), each
    row is one line, read in order; placed cell by cell with nothing between, they are a table,
    read column by column (as before)."""
    typed = [(700.0 - 12 * i, [(COLUMNS[0], "".join(cell.ljust(w) for cell, w in zip(row, (12, 9, 0))))])
             for i, row in enumerate(TABLE)]
    placed = [(700.0 - 12 * i, list(zip(COLUMNS, row))) for i, row in enumerate(TABLE)]
    # (in Helvetica: a page in a monospaced font is read row by row whatever its gaps, below)
    (tmp_path / "typed.pdf").write_bytes(_courier_pdf(typed, font=b"Helvetica"))
    (tmp_path / "placed.pdf").write_bytes(_courier_pdf(placed, font=b"Helvetica"))
    typed_doc = extract_file(str(tmp_path / "typed.pdf"))
    placed_doc = extract_file(str(tmp_path / "placed.pdf"))
    assert isinstance(typed_doc, Document) and isinstance(placed_doc, Document)
    assert typed_doc.text.split("\n") == [" ".join(row) for row in TABLE]
    assert placed_doc.text.split() == [row[c] for c in range(3) for row in TABLE]


def test_a_monospaced_page_is_read_row_by_row_even_across_tab_gaps(tmp_path):
    """A text with tabs printed by LibreOffice (a Debian copyright file: ``Files:<tab><tab>*``): a
    tab is not drawn, the next text starts at a tab stop. On a page in a monospaced font the
    rows are read whole, as the text file is (before: cells, and three such rows one under the
    other a table read column by column: 40 such copyright files 0.947 of their text, now
    0.9999). The same rows in Helvetica are a table, as before."""
    fields = [("Files:", "*"), ("Copyright:", "2013 NVIDIA Corporation"), ("License:", "MIT")]
    rows = [(700.0 - 12 * i, [(72.0, key), (142.9, value)]) for i, (key, value) in enumerate(fields)]
    rows += [(640.0 - 12 * i, [(72.0, line)]) for i, line in enumerate([
        "Permission is hereby granted, free of charge, to any person obtaining",
        "a copy of this software and associated documentation files.",
    ])]
    (tmp_path / "mono.pdf").write_bytes(_courier_pdf(rows))
    (tmp_path / "sans.pdf").write_bytes(_courier_pdf(rows, font=b"Helvetica"))
    mono, sans = extract_file(str(tmp_path / "mono.pdf")), extract_file(str(tmp_path / "sans.pdf"))
    assert isinstance(mono, Document) and isinstance(sans, Document)
    assert mono.text.split("\n")[:3] == [f"{key} {value}" for key, value in fields]
    assert sans.text.split()[:6] == ["Files:", "Copyright:", "License:", "*", "2013", "NVIDIA"]


def test_justified_lines_with_double_spaces_are_one_paragraph_in_order(tmp_path):
    """Three spaces between words (nroff's justification) leave 1.8 em in Courier, two 1.2 em
    (in LibreOffice's Liberation Mono 1.204 em: wider than a cell gap). Three such lines one under
    the other: one paragraph, in order (before: each row cut into cells at its wide spaces and the
    three read as a table, column by column)."""
    lines = [
        "captoinfo   looks in each given text file for termcap descriptions.  For",
        "each one found, an equivalent terminfo description is written   to the",
        "standard  output.   Termcap tc capabilities are translated directly.",
    ]
    (tmp_path / "lines.pdf").write_bytes(_courier_pdf([(700.0 - 12 * i, [(72.0, line)]) for i, line in enumerate(lines)]))
    doc = extract_file(str(tmp_path / "lines.pdf"))
    assert isinstance(doc, Document)
    assert doc.text == " ".join(" ".join(lines).split())


@pytest.fixture(scope="module")
def man_page_pdf(tmp_path_factory) -> tuple[Path, Path]:
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is needed")
    work = tmp_path_factory.mktemp("manpage")
    source = work / "tabulate.1.txt"
    source.write_text(MAN_PAGE, encoding="utf-8")
    mf.soffice_convert([source], "pdf:writer_pdf_Export", work, "Text (encoded):UTF8,LF,,")
    return source, work / "tabulate.1.pdf"


def test_libreoffice_pdf_of_a_man_page_reads_as_its_text(man_page_pdf):
    """A real LibreOffice PDF of the page: the same units in the same order as the text file
    (before: the header's three parts, the justified lines and the table were cut into cells and
    read column by column; the pair scored 0.59)."""
    source, pdf = man_page_pdf
    text_doc, pdf_doc = extract_file(str(source)), extract_file(str(pdf))
    assert isinstance(text_doc, Document) and isinstance(pdf_doc, Document)
    assert pdf_doc.text.startswith("tabulate(1) General Commands Manual tabulate(1)")
    assert "Name Width Kind Meaning date 10 text the day the record was entered" in " ".join(pdf_doc.text.split())
    assert _units(pdf_doc) == _units(text_doc)
    assert compare_documents(text_doc.text, pdf_doc.text, min_run=8).similarity == 1.0
