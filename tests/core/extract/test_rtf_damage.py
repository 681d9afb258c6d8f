"""A damaged RTF gives the text that survives, and says it was damaged; never table entries or
Latin-1 noise in silence.

An RTF file has no checksum, so the reader looks for what gives damage away: bytes an RTF never
holds, a ``\\uN`` outside Unicode, entries of the font, colour, style or list tables outside them,
groups left open or closed too often. The damaged files are made from LibreOffice's RTF of the
report fixture (``report.rtf``: English and Chinese paragraphs, a table, lists, styles).
Found by fuzzing: before this change a quarter of the seeded damaged copies were read with
``;;;;``, style names or ``ÈÌ«`` in their text and no warning, a ``\\u`` code out of range lost
the whole document, and raw GBK bytes were read as Latin-1.
"""

from __future__ import annotations

import random
from pathlib import Path

from neardup_gui.core.document import Document
from neardup_gui.core.extract.rtf import Damage, rtf_to_text
from tests.core.extract.test_salvage import _fuzz_cases, body, read

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "ingest"
REPORT = (FIXTURES / "report.rtf").read_bytes()


def _intact() -> Document:
    doc = read(REPORT, "rtf")
    assert isinstance(doc, Document) and not doc.warnings
    return doc


def _replace(data: bytes, old: bytes, new: bytes, count: int = 1) -> bytes:
    assert data.count(old) >= count, old
    return data.replace(old, new, count)


def test_libreoffice_rtf_is_read_without_a_warning():
    doc = _intact()
    assert "Paragraph 1. This chapter describes the method" in doc.text
    assert ";" not in doc.text and "Heading" not in doc.text


def test_a_stray_eight_bit_byte_is_left_out_and_said():
    damaged = _replace(REPORT, b"Paragraph 1. This", b"Paragraph 1. Th\xe9\x8fis")
    doc = read(damaged, "rtf")
    assert isinstance(doc, Document)
    assert "Paragraph 1. This chapter" in doc.text  # (before: "Thé\x8fis", in silence)
    assert list(doc.warnings) == ["recovered from a damaged file: 2 damaged characters left out; "
                                  "the text that survives was read"]


def test_control_characters_are_left_out_and_said():
    damaged = _replace(REPORT, b"Paragraph 1. This", b"Paragraph 1.\x01\x02 This")
    doc = read(damaged, "rtf")
    assert "Paragraph 1. This chapter" in doc.text and "\x01" not in doc.text
    assert "2 damaged characters left out" in doc.warnings[0]


def test_a_unicode_escape_out_of_range_loses_one_character_not_the_document():
    damaged = _replace(REPORT, b"\\u26412", b"\\u9926412")
    doc = read(damaged, "rtf")
    assert isinstance(doc, Document)  # (before: skipped, "chr() arg not in range(0x110000)")
    assert body(doc)[:3] == body(_intact())[:3]
    assert "1 damaged character left out" in doc.warnings[0]


def test_a_colour_table_whose_opening_is_damaged_gives_no_semicolons():
    damaged = _replace(REPORT, b"{\\colortbl;", b"X\\colortbl;")
    doc = read(damaged, "rtf")
    assert isinstance(doc, Document)
    assert ";;" not in doc.text  # (before: ";;;;;;;;;;;;;;;;;;;;;" ahead of the body)
    assert "Paragraph 1. This chapter describes" in doc.text
    assert list(doc.warnings) == ["recovered from a damaged file: 22 entries of its font, colour, style or list "
                                  "tables found outside them and left out; the text that survives was read"]


def test_style_sheet_entries_copied_into_the_body_are_left_out():
    start = REPORT.index(b"{\\s1\\")
    entries = REPORT[start: REPORT.index(b"}", REPORT.index(b"Heading 2;", start)) + 1]
    at = REPORT.index(b"Paragraph 1.")
    damaged = REPORT[:at] + entries + REPORT[at:]
    doc = read(damaged, "rtf")
    assert "Heading" not in doc.text  # (before: "Heading 1;Heading 2;" in the first paragraph)
    assert body(doc) == body(_intact())
    assert "2 entries of its font, colour, style or list tables" in doc.warnings[0]


def test_a_cut_rtf_gives_the_text_before_the_cut_and_says_its_end_is_lost():
    full = body(_intact())
    at = REPORT.index(b"Paragraph 1.") + 400
    doc = read(REPORT[:at], "rtf")
    assert isinstance(doc, Document)
    got = body(doc)
    assert got[:-1] == full[:len(got) - 1] and full[len(got) - 1].startswith(got[-1])
    assert doc.warnings[0].startswith("recovered from a damaged file: its end is lost (")
    assert "groups left open" in doc.warnings[0] or "group left open" in doc.warnings[0]


def test_raw_code_page_bytes_of_a_writer_that_does_not_escape_are_decoded():
    """Some writers put a DBCS code page's bytes in the file as they are: they are the code
    page's text, not damage (before: read as Latin-1, "ÄãºÃ")."""
    raw = b"{\\rtf1\\ansi\\ansicpg936\\deff0{\\fonttbl{\\f0 SimSun;}}\\pard " + "你好，世界".encode("gbk") + b"\\par}"
    doc = read(raw, "rtf")
    assert body(doc) == ["你好，世界"] and not doc.warnings


def test_the_damage_count_of_an_intact_hand_written_rtf_is_empty():
    damage = Damage()
    text, codepage = rtf_to_text(r"{\rtf1\ansi\ansicpg1252{\fonttbl{\f0\froman Times;}}{\colortbl;\red0\green0\blue0;}"
                                 r"\pard Caf\'e9 \u8220?quoted\u8221? line\line next\par}", damage)
    assert text == "Café \u201cquoted\u201d line next\n" and codepage == "cp1252"
    assert damage == Damage() and damage.warning() is None


def test_damaged_libreoffice_rtf_is_never_read_with_foreign_text_in_silence():
    """Seeded byte flips (1–30), cuts, duplicated and deleted runs of LibreOffice's RTF: whatever
    is read holds only characters of the intact text, or says it was damaged. Before this change
    26 of these 160 cases were read with noise and no warning."""
    alphabet = set(_intact().text)
    silent = []
    for case, damaged in _fuzz_cases(REPORT, random.Random(20261127), 160, flips=range(1, 31),
                                     kinds=("flip", "cut", "dup", "delete")):
        result = read(damaged, "rtf")
        assert isinstance(result, Document) or result.reason, case
        if isinstance(result, Document) and not result.warnings:
            foreign = [c for c in result.text if c not in alphabet and not c.isspace()]
            if len(foreign) > 2:
                silent.append((case, "".join(foreign[:20])))
    assert not silent, silent
