"""Acceptance of issue 17 on damaged copies of real files: every readable one is indexed with a
warning (none skipped), and checking it against a collection of the originals names its true
source first.

The originals are real files made from the corpus: LibreOffice DOCX and PDF
(``soffice --convert-to``), python-docx DOCX, UTF-8 and GB18030 text. The damaged copies are
what a truncated download, a careless ``head -c`` or a bad disk leaves: cut files, stray bytes,
an invalid byte pair, a lost PDF end.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from neardup_gui.core.collection import Collection
from neardup_gui.core.document import Document
from neardup_gui.core.extract import extract_file
from neardup_gui.core.settings import Settings

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ingest"
_spec = importlib.util.spec_from_file_location("ingest_fixtures", FIXTURES / "make_fixtures.py")
mf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mf)


def _slice(path: Path, chars: int) -> str:
    text = path.read_text(encoding="utf-8")[:chars]
    return text.rsplit("\n", 1)[0] + "\n"


@pytest.fixture(scope="module")
def originals_and_damaged(corpus_dir, tmp_path_factory) -> tuple[Path, Path, dict[str, str]]:
    """(originals folder, damaged folder, damaged name → its original's name)."""
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is needed")
    import docx as python_docx

    base = tmp_path_factory.mktemp("acceptance")
    originals, damaged, work = base / "originals", base / "damaged", base / "work"
    for folder in (originals, damaged, work):
        folder.mkdir()
    en = sorted((corpus_dir / "debian-reference-en").glob("*.txt"))
    zh = sorted((corpus_dir / "debian-reference-zh-cn").glob("*.txt"))
    # LibreOffice DOCX and PDF of four sections
    lo_sources = {"lo-en-a": en[20], "lo-en-b": en[40], "lo-zh-a": zh[20], "lo-zh-b": zh[40]}
    pdf_sources = {"pdf-en-a": en[30], "pdf-en-b": en[50]}
    for name, source in {**lo_sources, **pdf_sources}.items():
        (work / f"{name}.txt").write_text(_slice(source, 4000 if "en" in name else 2000), encoding="utf-8")
    infilter = "Text (encoded):UTF8,LF,,"
    mf.soffice_convert([work / f"{n}.txt" for n in lo_sources], "docx:MS Word 2007 XML", work, infilter)
    mf.soffice_convert([work / f"{n}.txt" for n in pdf_sources], "pdf:writer_pdf_Export", work, infilter)
    for name in lo_sources:
        shutil.copy(work / f"{name}.docx", originals / f"{name}.docx")
    for name in pdf_sources:
        shutil.copy(work / f"{name}.pdf", originals / f"{name}.pdf")
    # python-docx DOCX, UTF-8 and GB18030 text
    document = python_docx.Document()
    for para in _slice(en[60], 4000).splitlines():
        document.add_paragraph(para)
    document.save(str(originals / "py-en.docx"))
    (originals / "zh-utf8.txt").write_text(_slice(zh[60], 3000), encoding="utf-8")
    (originals / "zh-gb.txt").write_bytes(_slice(zh[70], 3000).encode("gb18030"))
    longest = max(en[80:100], key=lambda p: p.stat().st_size)
    (originals / "en-utf8.txt").write_text(_slice(longest, 9000), encoding="utf-8")
    # distractors: other sections of the same book
    for i in range(8):
        (originals / f"other-en-{i}.txt").write_text(_slice(en[100 + i], 3000), encoding="utf-8")
        (originals / f"other-zh-{i}.txt").write_text(_slice(zh[80 + i], 1500), encoding="utf-8")

    truth: dict[str, str] = {}

    def damage(original: str, name: str, data: bytes) -> None:
        (damaged / name).write_bytes(data)
        truth[name] = original

    for name in lo_sources:  # the zip directory lost, 8 % and 40 % cut
        data = (originals / f"{name}.docx").read_bytes()
        damage(f"{name}.docx", f"{name}-cut8.docx", data[: int(len(data) * 0.92)])
    data = (originals / "lo-en-b.docx").read_bytes()
    damage("lo-en-b.docx", "lo-en-b-cut40.docx", data[: int(len(data) * 0.6)])
    data = (originals / "py-en.docx").read_bytes()
    damage("py-en.docx", "py-en-cut.docx", data[: int(len(data) * 0.5)])
    for name in pdf_sources:  # a PDF whose end (xref, trailer) is lost
        data = (originals / f"{name}.pdf").read_bytes()
        damage(f"{name}.pdf", f"{name}-noend.pdf", data[: data.rfind(b"xref") - 3])
    data = (originals / "zh-utf8.txt").read_bytes()  # cut in the middle of a character
    damage("zh-utf8.txt", "zh-utf8-cut.txt", data.rstrip()[:-1])
    data = (originals / "zh-gb.txt").read_bytes()  # one invalid byte pair
    at = len(data) // 2 // 2 * 2
    damage("zh-gb.txt", "zh-gb-bad.txt", data[:at] + b"\x81\x7f" + data[at:])
    data = (originals / "en-utf8.txt").read_bytes()  # stray bytes
    third = len(data) // 3
    damage("en-utf8.txt", "en-utf8-stray.txt", data[:third] + b"\xff" + data[third:2 * third] + b"\xfe" + data[2 * third:])
    return originals, damaged, truth


def test_every_readable_damaged_file_is_indexed_with_a_warning(originals_and_damaged, tmp_path):
    _, damaged, truth = originals_and_damaged
    settings = Settings(workers=2)
    with Collection.open(tmp_path / "damaged.ndx") as collection:
        report = collection.index_folder(str(damaged), settings)
        documents = {d.rel: d for d in collection.documents()}
    assert report.skipped == ()
    assert set(documents) == set(truth)
    for rel, d in documents.items():
        assert d.status == "indexed", rel
        assert d.warnings and d.warnings[0], rel
    assert {Path(p).name for p, _ in report.warned} == set(truth)


def test_checking_each_damaged_file_names_its_true_source_first(originals_and_damaged, tmp_path):
    originals, damaged, truth = originals_and_damaged
    settings = Settings(workers=2)
    with Collection.open(tmp_path / "originals.ndx") as collection:
        report = collection.index_folder(str(originals), settings)
        assert report.skipped == () and report.warned == ()
        names = sorted(truth)
        results = collection.check([str(damaged / n) for n in names], settings)
    for name, result in zip(names, results):
        assert not result.skipped_reason, name
        assert result.warnings, name
        assert result.matches, name
        assert Path(result.matches[0].source.path).name == truth[name], (
            name, [(Path(m.source.path).name, round(m.comparison.containment_a, 3)) for m in result.matches[:3]])


def test_damaged_files_named_without_a_type_are_read_as_their_named_copies(originals_and_damaged, tmp_path):
    """The same damaged files (LibreOffice DOCX cut at 8 % and 40 %, a python-docx DOCX cut in
    half, LibreOffice PDFs without their end, damaged text) saved without their suffixes: each
    is found a document by its content — a cut zip by its parts' own headers — and read with
    the text and the warnings of its named copy."""
    _, damaged, truth = originals_and_damaged
    bare = tmp_path / "bare"
    bare.mkdir()
    for name in truth:
        shutil.copy(damaged / name, bare / Path(name).stem)
    settings = Settings(workers=2)
    with Collection.open(tmp_path / "bare.ndx") as collection:
        report = collection.index_folder(str(bare), settings)
        documents = {d.rel: d for d in collection.documents()}
    assert report.skipped == () and report.others == ()
    assert set(documents) == {Path(n).stem for n in truth}
    for name in truth:
        named, unnamed = extract_file(str(damaged / name)), extract_file(str(bare / Path(name).stem))
        assert isinstance(unnamed, Document), name
        assert (unnamed.format, unnamed.text, unnamed.warnings) == (named.format, named.text, named.warnings), name
        assert documents[Path(name).stem].warnings, name
