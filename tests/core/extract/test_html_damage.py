"""A damaged HTML page gives the text that survives, and says it was damaged; never markup or a
legacy code page's noise in silence.

The pages are LibreOffice's HTML (``soffice --convert-to html``) of the report fixture (English
and Chinese paragraphs, a table, fonts named in ``<font face=…>``) and of the English DOCX
fixture. Found by fuzzing them (seeded flips, cuts, duplicated and deleted runs): before this
change, a page declaring UTF-8 with a few invalid bytes went to the charset detector, which read
an English page in a legacy code page (``Ù8ÑºÇÄ``); a tag whose ``<`` was damaged or cut away was
read as text (``font face="ＭＳ 明朝">``); a damaged ``<style`` put its rules in the text; a page
cut inside a tag ended with that tag's text — all without a warning.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from neardup_gui.core.document import Document
from tests.core.extract.test_salvage import _fuzz_cases, body, mf, read

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "ingest"


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, bytes]:
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is needed")
    work = tmp_path_factory.mktemp("html")
    mf.soffice_convert([FIXTURES / "report.odt", FIXTURES / "en.docx"], "html", work)
    return {name: (work / f"{name}.html").read_bytes() for name in ("report", "en")}


def _intact(data: bytes) -> Document:
    doc = read(data, "html")
    assert isinstance(doc, Document) and not doc.warnings, getattr(doc, "warnings", doc)
    return doc


def test_libreoffice_pages_are_read_without_a_warning(pages):
    report = _intact(pages["report"])
    assert "Paragraph 1. This chapter describes the method" in report.text and "第1段。" in report.text
    assert ">" not in report.text and "{" not in report.text
    assert _intact(pages["en"]).text.strip()


def test_a_few_invalid_bytes_in_a_declared_utf8_page_are_replaced_and_said(pages):
    data = pages["en"]
    assert b"charset=utf-8" in data
    full = _intact(data)
    damaged = bytearray(data)
    at = data.index(full.text.split()[5].encode())
    for i in range(12):
        damaged[at + 7 * i] = 0xE9
    doc = read(bytes(damaged), "html")
    assert doc.meta["encoding"] == "utf-8"  # (before: the detector's code page, in silence)
    assert doc.warnings[0].startswith("12 of ") and "not valid UTF-8" in doc.warnings[0]
    assert doc.text.count("\ufffd") == 12


def test_a_tag_whose_opening_is_damaged_is_left_out_and_said(pages):
    data = pages["report"]
    at = data.index(b'<font face="')
    doc = read(data[:at] + b"X" + data[at + 1:], "html")
    assert 'face="' not in doc.text and '">' not in doc.text
    assert list(doc.warnings) == ["recovered from a damaged file: 1 damaged tag left out; the text that survives was read"]


def test_style_rules_of_a_damaged_style_element_are_left_out(pages):
    data = pages["report"]
    assert data.count(b"<head>") == 1 and data.count(b"<style") == 1
    doc = read(data.replace(b"<head>", b"[head>").replace(b"<style", b"[style"), "html")
    assert "{" not in doc.text and "margin" not in doc.text
    assert "damaged tags left out" in doc.warnings[0]
    assert body(doc)[-5:] == body(_intact(data))[-5:]


def test_a_page_cut_inside_a_tag_gives_the_text_before_it(pages):
    data = pages["report"]
    at = data.index(b"<p", data.index(b"Paragraph 3.")) + 12
    doc = read(data[:at], "html")
    assert "<" not in doc.text and doc.text.rstrip().endswith(("alternatives.", "alternatives"))
    assert list(doc.warnings) == ["recovered from a damaged file: the file is cut short inside a tag; "
                                  "the text that survives was read"]


def test_damaged_libreoffice_pages_are_never_read_with_foreign_text_in_silence(pages):
    """Seeded flips (1–30), cuts, duplicated and deleted runs: whatever is read holds only
    characters of the intact text, or says it was damaged (before: 17 of these 120 cases read
    with markup or noise and no warning)."""
    silent = []
    for name, seed in (("report", 3), ("en", 12)):
        data = pages[name]
        alphabet = set(_intact(data).text)
        for case, damaged in _fuzz_cases(data, random.Random(seed), 60, flips=range(1, 31),
                                         kinds=("flip", "cut", "dup", "delete")):
            result = read(damaged, "html")
            if isinstance(result, Document) and not result.warnings:
                foreign = [c for c in result.text if c not in alphabet and not c.isspace()]
                if len(foreign) > 2:
                    silent.append((name, case, "".join(foreign[:20])))
    assert not silent, silent


def test_markup_and_rules_written_as_text_in_an_intact_page_are_text(tmp_path):
    """A page about markup: escaped as a writer escapes it (LibreOffice writes &lt; &gt; &quot;),
    or a rule among words, is the page's text, not damage."""
    page = ("<html><body><p>Set the margin with</p><pre>p { margin: 0; }\n&lt;a href=&quot;x&quot;&gt;</pre>"
            "<p>and <code>&lt;font face=&#34;Arial&#x22;&#62;</code> for the font, as in p { margin: 0; } "
            "or a &gt; b.</p></body></html>").encode()
    doc = read(page, "html")
    assert body(doc) == ["Set the margin with", 'p { margin: 0; } <a href="x">',
                         'and <font face="Arial"> for the font, as in p { margin: 0; } or a > b.']
    assert not doc.warnings


def test_markup_is_looked_for_near_each_gt_only():
    """The rest of a tag is looked for within a bounded stretch before each '>' (a first version
    tried every start position of a long run without spaces: 8 s for 20,000 Chinese characters
    followed by "a > b", and minutes for a page of them); a '>' after words, as in "a > b", is the
    page's text, and a word before a quoted attribute is taken for the tag's name."""
    from neardup_gui.core.extract.html import _TAG_REACH, _without_tags

    long_run = "中" * 200_000
    assert _without_tags(long_run + " a > b") == (long_run + " a > b", 0)
    assert _without_tags(long_run + 'e="margin: 0">' + long_run) == (long_run * 2, 1)
    assert _without_tags("x" * (3 * _TAG_REACH) + ">")[0] == "x" * (2 * _TAG_REACH + 1)  # (no farther back)
    assert _without_tags('before e="margin: 0" />after') == ("after", 1)
