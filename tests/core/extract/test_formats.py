"""Extraction of well-formed files in every format: exact paragraphs, units and offsets."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from neardup_gui.core.document import Document
from neardup_gui.core.extract import extract_file
from neardup_gui.core.extract.common import join_wrapped, resolve_line_hyphens
from neardup_gui.core.units import tokenize

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "ingest"
_spec = importlib.util.spec_from_file_location("ingest_fixtures", FIXTURES / "make_fixtures.py")
mf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mf)

REPORT_EN = [f"Paragraph {i + 1}. " + (mf.REPORT_BODY_EN * 3).strip() for i in range(mf.REPORT_PARAGRAPHS // 2)]
REPORT_ZH = [f"第{i + 1}段。" + mf.REPORT_BODY_ZH * 4 for i in range(mf.REPORT_PARAGRAPHS // 2)]
REPORT_CELLS = [cell for row in mf.REPORT_TABLE for cell in row]
REPORT_BODY = ["Chapter 1 Method", *REPORT_EN, *REPORT_CELLS, *REPORT_ZH]


def body_paragraphs(doc: Document) -> list[str]:
    return [doc.text[s:e] for s, e in doc.paragraphs if (s, e) not in doc.furniture]


def assert_well_formed(doc: Document) -> None:
    """Document.text is the paragraphs joined by one newline, and the spans say so."""
    assert isinstance(doc, Document), doc
    assert "\n".join(doc.text[s:e] for s, e in doc.paragraphs) == doc.text
    assert all(doc.text[s:e] == doc.text[s:e].strip() and e > s for s, e in doc.paragraphs)
    assert set(doc.furniture) <= set(doc.paragraphs)
    assert len(doc.meta["sha256"]) == 64 and int(doc.meta["size"]) > 0


@pytest.fixture(scope="session")
def report_docx(tmp_path_factory) -> Path:
    """The python-docx document that report.pdf/.odt/.rtf were converted from, built afresh."""
    path = tmp_path_factory.mktemp("docx") / "report.docx"
    mf.build_report_docx(path)
    return path


@pytest.mark.parametrize("name", ["en.docx", "en.pdf"])
def test_english_from_libreoffice(name):
    doc = extract_file(str(FIXTURES / name))
    assert_well_formed(doc)
    assert body_paragraphs(doc) == mf.EN_PARAGRAPHS
    assert tokenize(doc.text).tokens == tokenize("\n".join(mf.EN_PARAGRAPHS)).tokens


@pytest.mark.parametrize("name", ["zh.docx", "zh.pdf"])
def test_chinese_from_libreoffice(name):
    doc = extract_file(str(FIXTURES / name))
    assert_well_formed(doc)
    assert body_paragraphs(doc) == mf.ZH_PARAGRAPHS
    units = tokenize(doc.text)
    assert "".join(units.tokens) == "".join(tokenize("".join(mf.ZH_PARAGRAPHS)).tokens)
    # offsets point into the extracted text
    assert all(doc.text[s:e] == t for t, s, e in zip(units.tokens, units.starts, units.ends))


def test_python_docx_body_tables_and_margins(report_docx):
    doc = extract_file(str(report_docx))
    assert_well_formed(doc)
    assert doc.format == "docx"
    assert body_paragraphs(doc) == REPORT_BODY
    assert doc.margins.splitlines() == [mf.REPORT_HEADER, "1"]
    assert mf.REPORT_HEADER not in doc.text


def test_docx_content_controls_hyperlinks_and_deletions(tmp_path):
    """Text inside hyperlinks and content controls counts; deleted revisions do not."""
    import docx
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    document = docx.Document()
    p = document.add_paragraph("See ")
    p._p.append(parse_xml(
        f'<w:hyperlink {nsdecls("w", "r")} r:id="rId99"><w:r><w:t>the report</w:t></w:r></w:hyperlink>'
    ))
    p._p.append(parse_xml(f'<w:del {nsdecls("w")} w:id="1" w:author="x"><w:r><w:delText>gone</w:delText></w:r></w:del>'))
    p.add_run(" now.")
    document.element.body.insert(1, parse_xml(
        f'<w:sdt {nsdecls("w")}><w:sdtContent><w:p><w:r><w:t>Inside a control</w:t></w:r></w:p></w:sdtContent></w:sdt>'
    ))
    path = tmp_path / "links.docx"
    document.save(str(path))
    doc = extract_file(str(path))
    assert body_paragraphs(doc) == ["See the report now.", "Inside a control"]


def test_odt_and_rtf_from_libreoffice():
    for name in ("report.odt", "report.rtf"):
        doc = extract_file(str(FIXTURES / name))
        assert_well_formed(doc)
        assert body_paragraphs(doc) == REPORT_BODY, name


def test_pdf_from_libreoffice_marks_running_header_and_page_numbers():
    doc = extract_file(str(FIXTURES / "report.pdf"))
    assert_well_formed(doc)
    pages = int(doc.meta["pages"])
    assert pages >= 3
    furniture = [doc.text[s:e] for s, e in doc.furniture]
    assert sorted(furniture) == sorted([mf.REPORT_HEADER] * pages + [str(n) for n in range(1, pages + 1)])
    body = body_paragraphs(doc)
    # Wrapped lines and the paragraph broken by a page end are rejoined exactly: one space
    # between English words, none between Chinese characters.
    assert [p for p in body if p.startswith("Paragraph")] == REPORT_EN
    chinese = [p.replace(" ", "") for p in body if p.startswith("第")]
    assert chinese == REPORT_ZH
    assert body[0] == "Chapter 1 Method"
    # PDF tables come out column by column; the cells are all there, each once.
    table = body[1 + len(REPORT_EN): 1 + len(REPORT_EN) + len(REPORT_CELLS)]
    assert sorted(table) == sorted(REPORT_CELLS)


def test_pdf_ligatures_hyphens_and_wrapped_paragraphs(tmp_path):
    lines = [
        (700, "The \x01rst line of this paragraph is long enough to reach the right edge of the exam-", True),
        (686, "ple column, and the \x02ow of text goes on and on, line after line, to the end of the para-", True),
        (672, "graph, which is short. Word processors set the text of a paragraph in lines of equal", True),
        (658, "length: only the last line of a paragraph is shorter.", False),
        (644, "A second paragraph follows directly below the first one, without any space between", True),
        (630, "them, as many documents do.", False),
    ]
    path = tmp_path / "ligatures.pdf"
    path.write_bytes(mf.simple_pdf([lines], ligature_font=True))
    doc = extract_file(str(path))
    # "para-graph" is rejoined: the document writes "paragraph" elsewhere; "exam-ple" keeps its
    # hyphen: nothing in the document says it is one word (resolve_line_hyphens)
    assert body_paragraphs(doc) == [
        "The first line of this paragraph is long enough to reach the right edge of the exam-ple column, "
        "and the flow of text goes on and on, line after line, to the end of the paragraph, which is short. "
        "Word processors set the text of a paragraph in lines of equal length: only the last line of a "
        "paragraph is shorter.",
        "A second paragraph follows directly below the first one, without any space between them, as many "
        "documents do.",
    ]
    assert doc.furniture == ()


def test_pdf_repeated_footer_lines_are_furniture(tmp_path):
    """Lines repeating at the bottom of every page (numbers aside) are marked, not dropped."""
    bodies = ["The method is described first.", "Results follow on this page.", "Discussion closes the paper."]
    pages = [
        [(780, bodies[n - 1], False), (40, f"Confidential draft - page {n} of 3", False)]
        for n in (1, 2, 3)
    ]
    path = tmp_path / "footer.pdf"
    path.write_bytes(mf.simple_pdf(pages))
    doc = extract_file(str(path))
    assert [doc.text[s:e] for s, e in doc.furniture] == [f"Confidential draft - page {n} of 3" for n in (1, 2, 3)]
    assert body_paragraphs(doc) == bodies


def test_join_wrapped_rules():
    assert join_wrapped(["研究方法", "的选择"]) == "研究方法的选择"
    assert join_wrapped(["near", "duplicate"]) == "near duplicate"
    assert resolve_line_hyphens([join_wrapped(["exam-", "ple"])]) == ["exam-ple"]  # no evidence: kept
    assert resolve_line_hyphens([join_wrapped(["an exam-", "ple"]), "One example."]) == ["an example", "One example."]
    assert resolve_line_hyphens([join_wrapped(["iptables-", "restore reads"]), "restore"]) == ["iptables-restore reads", "restore"]
    assert join_wrapped(["exam\u00ad", "ple"]) == "example"  # a soft hyphen always goes
    assert join_wrapped(["Jean-", "Paul"]) == "Jean- Paul"  # a capital after the hyphen: kept
    assert join_wrapped(["使用 Python", "编写"]) == "使用 Python 编写"


ENCODED = "Résumé — naïve café, 100 €.\n近似重复检测用于发现内容大部分相同的文档。"


@pytest.mark.parametrize(
    ("encoding", "text", "recorded"),
    [
        ("utf-8", ENCODED, {"utf-8"}),
        ("utf-8-sig", ENCODED, {"utf-8-sig"}),
        ("utf-16", ENCODED, {"utf-16"}),
        ("cp1252", "Résumé — naïve café, “quoted” 100 €. " * 8, {"cp1252"}),
        ("cp1252", "The café served crème brûlée.", {"cp1252"}),
        ("gbk", "近似重复检测用于发现内容大部分相同的文档。审查人员在评审之前进行比较。" * 4, {"gb18030"}),
        ("gbk", "中文", {"gb18030"}),
        ("big5", "近似重複檢測用於發現內容大部分相同的文件。審查人員在評審之前進行比較。" * 4, {"big5", "big5hkscs", "cp950"}),
        ("shift_jis", "日本語の文章です。これは重複検出のためのテストです。ひらがなとカタカナ。" * 4, {"shift_jis", "cp932"}),
    ],
)
def test_text_encodings(tmp_path, encoding, text, recorded):
    path = tmp_path / f"{encoding}.txt"
    path.write_bytes(text.encode(encoding))
    doc = extract_file(str(path))
    assert_well_formed(doc)
    assert doc.meta["encoding"] in recorded
    assert tokenize(doc.text).tokens == tokenize(text).tokens


def test_text_paragraphs_hard_wraps_joined_lines_kept(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text(
        "A paragraph that an editor wrapped at a fixed width of about\n"
        "sixty columns, as plain-text mail and README files often are,\n"
        "ends here.\n\n"
        "foo login:\npassword:\n\n"
        "研究内容包括三个方面：第一，建立近似重复检测的理论框架，明确相似度的定义；\n"
        "第二，设计高效的指纹算法，使检索速度满足大规模文档集的需要。\n"
        "第三，在真实语料上验证方法的效果。\n\n"
        "- the first item of a list that is long enough to look wrapped\n"
        "- the second item of the list\n",
        encoding="utf-8",
    )
    doc = extract_file(str(path))
    assert body_paragraphs(doc) == [
        "A paragraph that an editor wrapped at a fixed width of about sixty columns, as plain-text "
        "mail and README files often are, ends here.",
        "foo login:",
        "password:",
        "研究内容包括三个方面：第一，建立近似重复检测的理论框架，明确相似度的定义；",
        "第二，设计高效的指纹算法，使检索速度满足大规模文档集的需要。",
        "第三，在真实语料上验证方法的效果。",
        "- the first item of a list that is long enough to look wrapped",
        "- the second item of the list",
    ]


def test_html_visible_text_only(tmp_path):
    path = tmp_path / "page.html"
    path.write_bytes(
        "<!DOCTYPE html><html><head><meta charset='gbk'><title>标题</title><style>p{color:red}</style>"
        "<script>var secret='x';</script></head><body><h1>近似重复</h1><p>One <b>bold</b> word.</p>"
        "<ul><li>first</li><li>second &amp; last</li></ul><noscript>enable js</noscript></body></html>".encode("gbk")
    )
    doc = extract_file(str(path))
    assert body_paragraphs(doc) == ["近似重复", "One bold word.", "first", "second & last"]
    assert doc.meta["title"] == "标题"


def test_rtf_unicode_codepage_and_skipped_destinations(tmp_path):
    path = tmp_path / "note.rtf"
    path.write_bytes(
        rb"{\rtf1\ansi\ansicpg936\deff0{\fonttbl{\f0\fnil SimSun;}}{\colortbl;\red0\green0\blue0;}"
        rb"{\*\generator Hand;}{\info{\title Secret title}}"
        rb"\pard No: \'bd\'fc\'cb\'c6 and \u37325\'3f\u22797\'3f.\par"
        rb"{\header Running head\par}Second {\b bold} line\tab end.\par}"
    )
    doc = extract_file(str(path))
    assert body_paragraphs(doc) == ["No: 近似 and 重复.", "Second bold line end."]
    assert doc.meta["encoding"] == "cp936"


@pytest.mark.parametrize(
    ("line", "is_number"),
    [("12", True), ("- 3 -", True), ("Page 3 of 10", True), ("2 / 9", True), ("第 3 页", True),
     ("第3页，共10页", True), ("xii", True), ("iv", True), ("Civil", False), ("mild", False),
     ("Chapter 3", False), ("3.2 Results", False)],
)
def test_page_number_patterns(line, is_number):
    from neardup_gui.core.extract.pdf.furniture import PAGE_NUMBER_RE

    assert bool(PAGE_NUMBER_RE.match(line)) is is_number


def test_text_hard_wrapped_chinese_joined_without_spaces(tmp_path):
    sentence = "近似重复检测用于发现内容大部分相同的文档审查人员在评审之前将每一份新提交的材料与整个文档集进行比较。"
    lines = [sentence[i:i + 22] for i in range(0, len(sentence), 22)]
    path = tmp_path / "wrapped.txt"
    path.write_text("标题\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    doc = extract_file(str(path))
    assert body_paragraphs(doc) == ["标题", sentence]


def test_docx_text_box_read_once(tmp_path):
    """A text box is stored twice (mc:Choice and mc:Fallback); its text must count once."""
    import docx
    from docx.oxml import parse_xml

    ns = (
        'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
        'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
        'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
        'xmlns:v="urn:schemas-microsoft-com:vml"'
    )
    box = "<w:txbxContent><w:p><w:r><w:t>Boxed words</w:t></w:r></w:p></w:txbxContent>"
    run = parse_xml(
        f"<w:r {ns}><mc:AlternateContent><mc:Choice Requires=\"wps\"><wps:txbx>{box}</wps:txbx></mc:Choice>"
        f"<mc:Fallback><v:textbox>{box}</v:textbox></mc:Fallback></mc:AlternateContent></w:r>"
    )
    document = docx.Document()
    paragraph = document.add_paragraph("Before the box. ")
    paragraph._p.append(run)
    path = tmp_path / "box.docx"
    document.save(str(path))
    assert body_paragraphs(extract_file(str(path))) == ["Before the box. Boxed words"]


def test_libreoffice_pdf_with_mixed_chinese_latin_lines_keeps_reading_order():
    """Regression: pdfminer's default line_margin merged and reordered lines of such PDFs (0.64)."""
    import sys

    from neardup_gui.core.extract import extract_file

    sys.path.insert(0, str(FIXTURES.parents[2] / "benchmarks"))
    from groundtruth import truth_of_texts

    doc = extract_file(str(FIXTURES / "mixed-lines-zh.pdf"))
    source = (FIXTURES / "mixed-lines-zh.txt").read_text(encoding="utf-8")
    assert truth_of_texts(source, doc.text).similarity > 0.95
    # Visual lines rebuilt from the glyphs: the text is as good as its source.
    assert truth_of_texts(source, doc.text).similarity > 0.97
    assert sentence_key_share(source, doc.text) >= 0.9


def sentence_key_share(source: str, extracted: str) -> float:
    """Share of the source's sentence keys found among the extracted text's sentence keys."""
    from neardup_gui.core.templates import sentence_keys

    wanted = {key for _, key in sentence_keys(source)}
    found = {key for _, key in sentence_keys(extracted)}
    assert wanted
    return len(wanted & found) / len(wanted)


def source_paragraphs(name: str) -> list[str]:
    """The paragraphs of a fixture's plain-text source (one per non-blank line)."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize(
    "name, pages",
    [("mixed-lines-zh", 1), ("mixed-pages-zh", 2)],
)
def test_libreoffice_pdf_mixed_chinese_latin_paragraphs_kept_whole(name, pages):
    """Every paragraph of the source comes out as one paragraph, in order, word for word.

    LibreOffice draws the Latin runs, the CJK runs and the spaces of a line separately; the
    extractor joins them into visual lines and the wrapped lines into their paragraphs (across
    the page break of the two-page file), with no space read into the gap LibreOffice leaves
    between Chinese and Latin text. Before, sentences were split and paragraphs interleaved.
    """
    doc = extract_file(str(FIXTURES / f"{name}.pdf"))
    assert_well_formed(doc)
    assert int(doc.meta["pages"]) == pages
    assert doc.furniture == ()
    assert body_paragraphs(doc) == source_paragraphs(f"{name}.txt")
    source = (FIXTURES / f"{name}.txt").read_text(encoding="utf-8")
    assert sentence_key_share(source, doc.text) == 1.0


def _two_column_pdf(offset: float) -> tuple[bytes, list[str]]:
    """A page with a title over two columns of wrapped Helvetica paragraphs.

    The right column's baselines sit ``offset`` points below the left one's. Returns the PDF
    and its paragraphs in reading order.
    """
    words = (
        "column text flows down the page and wraps at the gutter before it continues on the "
        "next line of the same column"
    ).split()
    paragraphs = [
        "A title that runs across both columns of the page",
        *(f"Left paragraph {n} says: " + " ".join(words[: 14 + 3 * n]) + "." for n in (1, 2)),
        *(f"Right paragraph {n} says: " + " ".join(words[: 12 + 4 * n]) + "." for n in (1, 2)),
    ]
    size, width = 10.0, 220.0
    ops = bytearray(b"BT /F1 16 Tf 72 760 Td (%s) Tj ET\n" % paragraphs[0].encode())
    for column, x, first in ((0, 72.0, 1), (1, 320.0, 3)):
        y = 720.0 - column * offset
        for text in paragraphs[first : first + 2]:
            line: list[str] = []
            lines: list[str] = []
            for word in text.split():
                if line and mf.helvetica_width(" ".join([*line, word]), size) > width:
                    lines.append(" ".join(line))
                    line = []
                line.append(word)
            lines.append(" ".join(line))
            for wrapped in lines:
                ops += b"BT /F1 %.1f Tf %.1f %.1f Td (%s) Tj ET\n" % (size, x, y, wrapped.encode())
                y -= 12.0
            y -= 12.0  # a blank line between paragraphs
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        mf._stream(bytes(ops)),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    return mf.pdf_from_objects(objects), paragraphs


@pytest.mark.parametrize("offset", [0.0, 6.0])
def test_pdf_two_columns_read_column_by_column(tmp_path, offset):
    """Side-by-side columns are read left column first, on a shared baseline grid (0) or not (6)."""
    data, paragraphs = _two_column_pdf(offset)
    path = tmp_path / "columns.pdf"
    path.write_bytes(data)
    doc = extract_file(str(path))
    assert_well_formed(doc)
    assert body_paragraphs(doc) == paragraphs


def test_libreoffice_two_column_pdf_paragraphs_whole_and_in_order():
    """A LibreOffice two-column section under a full-width title: the title, then the left
    column, then the right one; paragraphs broken by a column or page end are rejoined."""
    doc = extract_file(str(FIXTURES / "two-columns.pdf"))
    assert_well_formed(doc)
    assert int(doc.meta["pages"]) == 2
    assert doc.furniture == ()
    assert body_paragraphs(doc) == source_paragraphs("two-columns.txt")


def test_pdf_rotated_margin_text_kept_apart_from_body_lines(tmp_path):
    """A stamp turned 90° in the left margin is read as one paragraph after the body, not
    glyph by glyph into the body's lines."""
    body = [
        "The body of the page is set in horizontal lines at the left margin.",
        "A second paragraph follows after a blank line.",
    ]
    ops = bytearray()
    for y, text in ((700, body[0]), (676, body[1])):
        ops += b"BT /F1 11 Tf 72 %d Td (%s) Tj ET\n" % (y, text.encode())
    ops += b"BT /F1 10 Tf 0 1 -1 0 40 600 Tm (Draft stamp 2024-05) Tj ET\n"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        mf._stream(bytes(ops)),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    path = tmp_path / "stamp.pdf"
    path.write_bytes(mf.pdf_from_objects(objects))
    doc = extract_file(str(path))
    assert_well_formed(doc)
    assert body_paragraphs(doc) == [*body, "Draft stamp 2024-05"]
