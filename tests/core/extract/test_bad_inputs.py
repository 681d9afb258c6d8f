"""The bad-input suite: every damaged, disguised or hostile file gets its own reason, quickly.

One case per row of the issue, each with the expected ``Skipped.code`` (or the text that must
come out). Extraction runs in-process here; the worker limits (time, memory, crash) are tested
in test_workers.py, and no outcome here depends on the machine's speed (how long extraction
takes is measured in benchmarks/bench_extract.py).
"""

from __future__ import annotations

import importlib.util
import io
import os
import zipfile
from pathlib import Path

import pytest

import neardup_gui.core.extract as extract_mod
from neardup_gui.core.document import Document, Skipped
from neardup_gui.core.extract import SUPPORTED_SUFFIXES, extract_file
from neardup_gui.core.settings import ExtractLimits

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "ingest"
_spec = importlib.util.spec_from_file_location("ingest_fixtures", FIXTURES / "make_fixtures.py")
mf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mf)

JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + bytes(range(256)) * 4 + b"\xff\xd9"


def run(path: Path, limits: ExtractLimits = ExtractLimits()) -> Document | Skipped:
    return extract_file(str(path), limits)


def expect(result: Document | Skipped, code: str) -> Skipped:
    assert isinstance(result, Skipped), result
    assert result.code == code, result
    assert result.reason
    return result


def rezip(source: bytes, replace: dict[str, bytes] | None = None, add: dict[str, bytes] | None = None) -> bytes:
    """A copy of a docx archive with some members replaced or added."""
    replace, add = replace or {}, add or {}
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(source)) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info.filename, replace.get(info.filename, zin.read(info)))
        for name, data in add.items():
            zout.writestr(name, data)
    return out.getvalue()


EN_DOCX = (FIXTURES / "en.docx").read_bytes()
EN_PDF = (FIXTURES / "en.pdf").read_bytes()


@pytest.mark.parametrize("suffix", sorted(SUPPORTED_SUFFIXES))
def test_empty_file_of_each_type(tmp_path, suffix):
    path = tmp_path / f"empty{suffix}"
    path.write_bytes(b"")
    expect(run(path), "empty")


@pytest.mark.parametrize("suffix", [".txt", ".md", ".html", ".rtf"])
def test_blank_or_markup_only_files_are_not_documents(tmp_path, suffix):
    content = {".txt": " \n\t\n", ".md": "\n\n", ".html": "<html><body><p> </p></body></html>",
               ".rtf": r"{\rtf1\ansi{\fonttbl{\f0 Arial;}}\par\par}"}[suffix]
    path = tmp_path / f"blank{suffix}"
    path.write_text(content)
    assert run(path).code in {"empty"}


def test_punctuation_only_is_no_text(tmp_path):
    path = tmp_path / "dots.txt"
    path.write_text("… — ; ,,, ***\n")
    expect(run(path), "no-text")


def test_jpeg_renamed_pdf(tmp_path):
    path = tmp_path / "photo.pdf"
    path.write_bytes(JPEG)
    assert expect(run(path), "wrong-format").reason == "file is a JPEG image, not a PDF"


def test_html_renamed_docx(tmp_path):
    path = tmp_path / "page.docx"
    path.write_text("<!DOCTYPE html><html><body><p>Saved as web page</p></body></html>")
    assert expect(run(path), "wrong-format").reason == "file is an HTML page, not a Word .docx document"


def test_truncated_pdf(tmp_path):
    path = tmp_path / "truncated.pdf"
    path.write_bytes(EN_PDF[: len(EN_PDF) // 2])
    expect(run(path), "corrupt")


def test_pdf_form_xobjects_in_a_cycle_extract_the_real_text(tmp_path):
    path = tmp_path / "cycle.pdf"
    path.write_bytes(mf.cyclic_forms_pdf())
    result = run(path)
    assert isinstance(result, Document)
    assert result.text == "Text next to a cycle of forms"


def test_pdf_with_huge_compressed_stream(tmp_path):
    path = tmp_path / "bomb.pdf"
    path.write_bytes(mf.huge_stream_pdf(64))
    assert path.stat().st_size < 200_000
    result = expect(run(path, ExtractLimits(max_unzipped_mb=16)), "zip-bomb")
    assert "16 MB" in result.reason


def test_password_protected_pdf():
    assert expect(run(FIXTURES / "locked.pdf"), "encrypted").reason == "password-protected PDF: remove the password"


def test_owner_password_only_pdf_extracts_normally():
    result = run(FIXTURES / "restricted.pdf")
    assert isinstance(result, Document)
    assert [result.text[s:e] for s, e in result.paragraphs] == mf.EN_PARAGRAPHS


def test_scanned_pdf(tmp_path):
    path = tmp_path / "scan.pdf"
    path.write_bytes(mf.scanned_pdf())
    assert expect(run(path), "scanned-pdf").reason == "scanned PDF: no text layer"


def test_pdf_without_text_or_images_is_empty(tmp_path):
    path = tmp_path / "blank.pdf"
    path.write_bytes(mf.simple_pdf([[]]))
    expect(run(path), "empty")


@pytest.mark.parametrize(
    ("case", "content"),
    [
        ("random bytes", bytes(range(256)) * 8),
        ("plain text", b"just some words, not a zip archive at all\n" * 10),
    ],
)
def test_docx_not_a_zip(tmp_path, case, content):
    path = tmp_path / "notzip.docx"
    path.write_bytes(content)
    expect(run(path), "corrupt")


def test_docx_truncated_is_salvaged_with_a_warning(tmp_path):
    # Two thirds of the file: the zip directory is lost, word/document.xml is whole.
    path = tmp_path / "truncated.docx"
    path.write_bytes(EN_DOCX[: len(EN_DOCX) * 2 // 3])
    result = run(path)
    assert isinstance(result, Document), result
    assert [result.text[s:e] for s, e in result.paragraphs] == mf.EN_PARAGRAPHS
    assert len(result.warnings) == 1
    assert result.warnings[0].startswith("recovered from a damaged file: the zip archive's directory is unreadable")


def test_docx_bad_crc(tmp_path):
    data = bytearray(EN_DOCX)
    with zipfile.ZipFile(io.BytesIO(EN_DOCX)) as archive:
        info = archive.getinfo("word/document.xml")
    # Flip one byte of the compressed document.xml: the stored CRC no longer matches.
    header_len = 30 + len(info.filename.encode()) + len(info.extra)
    data[info.header_offset + header_len + info.compress_size // 2] ^= 0x55
    path = tmp_path / "badcrc.docx"
    path.write_bytes(bytes(data))
    expect(run(path), "corrupt")


def test_encrypted_docx_is_an_ole_file(tmp_path):
    path = tmp_path / "locked.docx"
    path.write_bytes(bytes.fromhex("D0CF11E0A1B11AE1") + bytes(504) + b"EncryptionInfo" + bytes(1000))
    assert expect(run(path), "encrypted").reason == "encrypted Word document: remove the password"


def test_a_doc_without_its_compound_file_is_damaged(tmp_path):
    # (a real .doc is read: tests/core/extract/test_doc.py; before, every .doc was "legacy Word .doc")
    path = tmp_path / "old.doc"
    path.write_bytes(bytes.fromhex("D0CF11E0A1B11AE1") + bytes(2000))
    assert expect(run(path), "corrupt").reason.startswith("damaged Word document: its compound file cannot be read")


def test_docx_zip_bomb(tmp_path):
    path = tmp_path / "bomb.docx"
    path.write_bytes(rezip(EN_DOCX, add={"word/media/padding.bin": bytes(40 * 1024 * 1024)}))
    assert path.stat().st_size < 200_000
    expect(run(path), "zip-bomb")


def test_docx_over_unzipped_cap(tmp_path):
    path = tmp_path / "big.docx"
    path.write_bytes(rezip(EN_DOCX, add={"word/media/noise.bin": os.urandom(3 * 1024 * 1024)}))
    expect(run(path, ExtractLimits(max_unzipped_mb=2)), "zip-bomb")


def _with_doctype(dtd: str) -> bytes:
    with zipfile.ZipFile(io.BytesIO(EN_DOCX)) as archive:
        xml = archive.read("word/document.xml").decode("utf-8")
    head, sep, rest = xml.partition("?>")
    body = rest.replace("Near-duplicate detection", "&payload; Near-duplicate detection", 1)
    return rezip(EN_DOCX, replace={"word/document.xml": (head + sep + dtd + body).encode("utf-8")})


def test_docx_external_entity_does_not_leak(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT")
    path = tmp_path / "xxe.docx"
    path.write_bytes(_with_doctype(f'<!DOCTYPE w:document [<!ENTITY payload SYSTEM "file://{secret}">]>'))
    result = expect(run(path), "unsafe-xml")
    assert "TOP-SECRET" not in repr(result)


def test_docx_billion_laughs(tmp_path):
    entities = "".join(f'<!ENTITY l{i} "{"&l%d;" % (i - 1) * 10}">' for i in range(1, 10))
    path = tmp_path / "laughs.docx"
    path.write_bytes(_with_doctype(f'<!DOCTYPE w:document [<!ENTITY l0 "lol">{entities}<!ENTITY payload "&l9;">]>'))
    expect(run(path), "unsafe-xml")


def test_odt_with_doctype_is_refused(tmp_path):
    source = (FIXTURES / "report.odt").read_bytes()
    with zipfile.ZipFile(io.BytesIO(source)) as archive:
        xml = archive.read("content.xml").decode("utf-8")
    head, sep, rest = xml.partition("?>")
    path = tmp_path / "xxe.odt"
    path.write_bytes(rezip(source, replace={"content.xml": (head + sep + '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>' + rest).encode()}))
    expect(run(path), "unsafe-xml")


@pytest.mark.parametrize(
    ("encoding", "text"),
    [
        ("cp1252", "Déjà vu: the naïve café’s “menu” costs 12 €.\n"),
        ("utf-16", "UTF-16 with a byte-order mark: 近似重复检测。\n"),
        ("gbk", "国家自然科学基金申请书的研究内容与研究方法。\n"),
        ("shift_jis", "日本語の文章です。これは重複検出のためのテストです。\n"),
    ],
)
def test_text_in_legacy_encodings(tmp_path, encoding, text):
    path = tmp_path / f"{encoding}.txt"
    path.write_bytes(text.encode(encoding))
    result = run(path)
    assert isinstance(result, Document)
    assert result.text == text.strip()


def test_binary_file_named_txt(tmp_path):
    path = tmp_path / "program.txt"
    path.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 16)
    assert expect(run(path), "binary").reason == "file is binary data, not text"


def test_image_named_txt(tmp_path):
    path = tmp_path / "photo.txt"
    path.write_bytes(JPEG)
    assert expect(run(path), "wrong-format").reason == "file is a JPEG image, not text"


def test_file_over_the_size_cap(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_bytes(b"word " * (300 * 1024))  # 1.5 MB
    result = expect(run(path, ExtractLimits(size_limit_mb=1)), "too-large")
    assert "over the 1 MB limit" in result.reason


@pytest.mark.parametrize(
    "name",
    [
        'quote"s and \'apostrophes\'.txt',
        "new\nline.txt",
        "<script>alert(1)<\\script>.txt",  # "/" cannot be in a file name
        "cafe\u0301 NFD.txt",
        "x" * 240 + ".txt",
    ],
)
def test_awkward_file_names(tmp_path, name):
    path = tmp_path / name
    path.write_text("Awkward names still hold ordinary text.", encoding="utf-8")
    result = run(path)
    assert isinstance(result, Document)
    assert result.path == str(path)
    assert result.text == "Awkward names still hold ordinary text."


def test_very_long_path(tmp_path):
    folder = tmp_path
    for i in range(12):
        folder = folder / (f"{i:02d}" + "d" * 200)
    folder.mkdir(parents=True)
    path = folder / "deep.txt"
    path.write_text("Deep in the tree.")
    assert len(str(path)) > 2400
    assert run(path).text == "Deep in the tree."


def test_missing_file(tmp_path):
    expect(run(tmp_path / "gone.pdf"), "vanished")


def test_unreadable_file(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads any file; the unreadable case is tested in test_scan with a dropped user")
    path = tmp_path / "locked.txt"
    path.write_text("secret")
    path.chmod(0)
    expect(run(path), "unreadable")


def test_file_rewritten_while_read(tmp_path, monkeypatch):
    """Deterministic: the file is rewritten right after its bytes were read, before the check."""
    path = tmp_path / "moving.txt"
    path.write_text("First version of the text.")
    real = extract_mod.read_snapshot

    def read_then_rewrite(p, limits):
        snapshot = real(p, limits)
        path.write_text("Second, longer version of the text.")
        return snapshot

    monkeypatch.setattr(extract_mod, "read_snapshot", read_then_rewrite)
    expect(run(path), "changed")
    monkeypatch.undo()
    assert run(path).text == "Second, longer version of the text."


def test_sha256_and_size_are_of_the_bytes_read(tmp_path):
    import hashlib

    data = "Hashing the exact bytes.".encode()
    path = tmp_path / "h.txt"
    path.write_bytes(data)
    result = run(path)
    assert result.meta["sha256"] == hashlib.sha256(data).hexdigest()
    assert result.meta["size"] == str(len(data))


def test_spreadsheet_renamed_docx(tmp_path):
    """An .xlsx renamed .docx is a zip of OOXML too; its main part says what it is."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", (
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.'
            'spreadsheetml.sheet.main+xml"/></Types>'))
        archive.writestr("_rels/.rels", (
            '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
            'officeDocument" Target="xl/workbook.xml"/></Relationships>'))
        archive.writestr("xl/workbook.xml", "<workbook/>")
    path = tmp_path / "sheet.docx"
    path.write_bytes(buffer.getvalue())
    assert "spreadsheetml" in expect(run(path), "wrong-format").reason


def test_password_protected_odt(tmp_path):
    source = (FIXTURES / "report.odt").read_bytes()
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">'
        '<manifest:encryption-data manifest:checksum-type="SHA256/1K" manifest:checksum="AAAA">'
        '<manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" '
        'manifest:initialisation-vector="AAAA"/></manifest:encryption-data></manifest:file-entry>'
        "</manifest:manifest>"
    )
    path = tmp_path / "locked.odt"
    path.write_bytes(rezip(source, replace={"META-INF/manifest.xml": manifest.encode()}))
    expect(run(path), "encrypted")


@pytest.mark.parametrize(
    ("content", "fmt"),
    [
        (rb"{\rtf1\ansi Exported by a web system.\par}", "rtf"),
        (b"<html><body><p>Exported by a web system.</p></body></html>", "html"),
        (b"Exported by a web system.\n", "txt"),
        (EN_DOCX, "docx"),
    ],
)
def test_other_formats_renamed_doc_are_extracted(tmp_path, content, fmt):
    path = tmp_path / "export.doc"
    path.write_bytes(content)
    result = run(path)
    assert isinstance(result, Document) and result.format == fmt
    assert result.text.startswith("Exported by a web system." if fmt != "docx" else "Near-duplicate")
