"""Word 97-2003 documents (.doc), read from their piece table (core/extract/doc.py).

Before, every .doc was skipped ("legacy Word .doc: save it as .docx"): an archive of proposals
from before 2007 — in a research fund's office, most of them — was not compared at all. The
fixtures are real LibreOffice conversions (tests/fixtures/ingest/make_fixtures.py) of the same
sources as the .docx / .odt fixtures, so each must read as its sibling does."""

from __future__ import annotations

import random
import shutil
import struct
from pathlib import Path

import pytest

from neardup_gui.core.document import Document, Skipped
from neardup_gui.core.extract import extract_file
from neardup_gui.core.extract.doc import _paragraphs

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "ingest"
SIBLINGS = {"en.doc": "en.docx", "zh.doc": "zh.docx", "report.doc": "report.odt"}


@pytest.mark.parametrize("name", sorted(SIBLINGS))
def test_a_doc_reads_as_the_same_document_saved_as_docx_or_odt(name):
    doc, sibling = extract_file(str(FIXTURES / name)), extract_file(str(FIXTURES / SIBLINGS[name]))
    assert isinstance(doc, Document) and doc.format == "doc" and not doc.warnings
    assert doc.text == sibling.text and len(doc.text) > 100
    if name == "report.doc":  # (the table's cells are paragraphs; the header and footer are not text)
        assert "Chapter 1 Method" in doc.text and "第1段。" in doc.text


def _indexed_pairs(tmp_path: Path, files: dict[str, str], others: tuple[str, ...] = ()):
    """A folder of fixtures (name → fixture) and of other files, indexed: (pairs, left out)."""
    from neardup_gui.core.collection import Collection
    from neardup_gui.core.indexer import left_out
    from neardup_gui.core.settings import Settings

    folder = tmp_path / "folder"
    folder.mkdir()
    for name, fixture in files.items():
        shutil.copy(FIXTURES / fixture, folder / name)
    for name in others:
        (folder / name).write_bytes(bytes.fromhex("D0CF11E0A1B11AE1") + bytes(600))
    settings = Settings(auto_template=False)
    with Collection.open(str(tmp_path / "i.ndx")) as coll:
        report = coll.index_folder(str(folder), settings)
        assert report.added == len(files) and report.skipped == ()
        pairs = [({p.a.rel, p.b.rel}, p.similarity) for p in coll.pairs(settings)]
        return pairs, left_out(coll.store)


def test_a_doc_is_indexed_and_paired_with_its_docx(tmp_path):
    pairs, _ = _indexed_pairs(tmp_path, {"proposal-2005.doc": "report.doc", "proposal-2025.odt": "report.odt",
                                         "other.doc": "zh.doc"})
    assert pairs == [({"proposal-2005.doc", "proposal-2025.odt"}, 1.0)]


def _patched_fib(tmp_path: Path, offset: int, value: int, mask: int | None = None) -> Path:
    """A copy of en.doc with one 16-bit field of its File Information Block changed."""
    data = bytearray((FIXTURES / "en.doc").read_bytes())
    at = data.find(b"\xec\xa5\x01\x01")  # (wIdent, nFib 0x0101 at the start of WordDocument)
    assert at > 0
    (old,) = struct.unpack_from("<H", data, at + offset)
    struct.pack_into("<H", data, at + offset, old | value if mask is None else value)
    path = tmp_path / "patched.doc"
    path.write_bytes(bytes(data))
    return path


def test_an_encrypted_doc_and_a_word_95_doc_say_why(tmp_path):
    encrypted = extract_file(str(_patched_fib(tmp_path, 0x0A, 0x0100)))
    assert isinstance(encrypted, Skipped) and encrypted.code == "encrypted"
    assert encrypted.reason == "encrypted Word document: remove the password"
    word95 = extract_file(str(_patched_fib(tmp_path, 0x02, 0x0068, mask=0)))
    assert isinstance(word95, Skipped) and word95.code == "legacy-doc"
    assert word95.reason == "Word 6/95 document: save it as .docx"


def test_an_ole_file_that_is_not_a_doc_and_a_doc_that_is_not_ole(tmp_path):
    fake = tmp_path / "old.doc"
    fake.write_bytes(bytes.fromhex("D0CF11E0A1B11AE1") + bytes(2000))
    result = extract_file(str(fake))
    assert isinstance(result, Skipped) and result.code == "corrupt"
    assert result.reason.startswith("damaged Word document: its compound file cannot be read")
    binary = tmp_path / "junk.doc"
    binary.write_bytes(bytes(range(256)) * 20)
    result = extract_file(str(binary))
    assert isinstance(result, Skipped) and result.reason == "damaged Word document: the file holds binary data"


def test_fields_keep_their_result_and_word_marks_become_breaks():
    text = ("See \x13 HYPERLINK \"http://x\" \x14the site\x15 and page \x13PAGE\x145\x15.\r"
            "cell one\x07cell two\x07\x07next\x0bline\x0cpage\x1epart\x1foptional\x01\x08end")
    assert _paragraphs(text) == ("See the site and page 5.\ncell one\ncell two\n\nnext\nline\npage-partoptionalend")
    nested = "a\x13 IF \x13 PAGE \x141\x15 = 1 \"x\" \x14one\x15b"
    assert _paragraphs(nested) == "aoneb"
    assert _paragraphs("no fields\rat all\x07") == "no fields\nat all\n"


def test_damaged_docs_never_stop_a_run_and_what_survives_is_read(tmp_path):
    """Byte flips, cuts and duplicated runs of the real LibreOffice .doc files: each is read or
    skipped with a reason, never an exception; a flip in the text itself still reads the rest."""
    rng = random.Random(7)
    outcomes = {"read": 0, "skipped": 0}
    for name in SIBLINGS:
        data = (FIXTURES / name).read_bytes()
        for i in range(25):
            damaged = bytearray(data)
            kind = i % 3
            if kind == 0:
                for _ in range(rng.randint(1, 40)):
                    damaged[rng.randrange(len(damaged))] = rng.randrange(256)
            elif kind == 1:
                damaged = damaged[: rng.randrange(512, len(damaged))]
            else:
                start = rng.randrange(len(damaged))
                run = damaged[start:start + rng.randint(16, 4096)]
                at = rng.randrange(len(damaged))
                damaged[at:at] = run
            path = tmp_path / f"{i}-{name}"
            path.write_bytes(bytes(damaged))
            result = extract_file(str(path))
            assert isinstance(result, (Document, Skipped))
            outcomes["read" if isinstance(result, Document) else "skipped"] += 1
            if isinstance(result, Skipped):
                assert result.reason and result.code in ("corrupt", "encrypted", "legacy-doc", "wrong-format",
                                                         "no-text", "empty", "binary")
    assert outcomes["read"] > 0 and outcomes["skipped"] > 0
    # one flipped character of the text: the text is read, the rest of it unchanged
    data = bytearray((FIXTURES / "en.doc").read_bytes())
    whole = extract_file(str(FIXTURES / "en.doc")).text
    at = data.find(whole[200:230].encode("utf-16-le")) if data.find(whole[200:230].encode("cp1252")) < 0 else \
        data.find(whole[200:230].encode("cp1252"))
    assert at > 0
    data[at] = ord("#")
    (tmp_path / "flip.doc").write_bytes(bytes(data))
    flipped = extract_file(str(tmp_path / "flip.doc"))
    assert isinstance(flipped, Document) and sum(a != b for a, b in zip(flipped.text, whole)) <= 1


def test_an_index_that_skipped_its_docs_reads_them_at_the_next_refresh(tmp_path):
    """An index made before .doc files were read holds them as skipped ("legacy Word .doc"); the
    files have not changed, yet the next refresh reads them (else they stayed skipped for good)."""
    from neardup_gui.core.collection import Collection
    from neardup_gui.core.settings import Settings

    folder = tmp_path / "archive"
    folder.mkdir()
    shutil.copy(FIXTURES / "en.doc", folder / "old.doc")
    shutil.copy(FIXTURES / "en.docx", folder / "new.docx")
    db = str(tmp_path / "i.ndx")
    with Collection.open(db) as coll:
        coll.index_folder(str(folder), Settings())
        with coll.store.transaction() as conn:  # (as the earlier version left it)
            conn.execute("UPDATE documents SET status = 'skipped', code = 'legacy-doc', "
                         "reason = 'legacy Word .doc: save it as .docx' WHERE rel = 'old.doc'")
    with Collection.open(db) as coll:
        report = coll.index_folder(str(folder), Settings())
        assert report.updated == 1 and report.unchanged == 1 and report.skipped == ()
        assert {d.rel: d.status for d in coll.documents()} == {"old.doc": "indexed", "new.docx": "indexed"}
        assert coll.document_text(next(d.doc_id for d in coll.documents() if d.rel == "old.doc")) == \
            coll.document_text(next(d.doc_id for d in coll.documents() if d.rel == "new.docx"))
        again = coll.index_folder(str(folder), Settings())  # (and then it is unchanged, as any file)
        assert again.unchanged == 2 and again.updated == 0


# --- WPS Writer's .wps, Word's templates and macro-enabled documents ---------------------------
# A Chinese fund office's archive holds many files of Kingsoft WPS Writer: its .wps is Word's
# binary format (the fixture: LibreOffice's Word 97 export, as WPS writes it), or a .docx when the
# user saved it so. Before, every .wps was one of the folder's other files, never compared.

SAME_TEXT_AS = {"zh.wps": ("zh.docx", "doc"), "zh.docm": ("zh.docx", "docx"), "en.dotx": ("en.docx", "docx")}


@pytest.mark.parametrize("name", sorted(SAME_TEXT_AS))
def test_wps_templates_and_macro_documents_read_as_their_docx(name):
    sibling, fmt = SAME_TEXT_AS[name]
    result, expected = extract_file(str(FIXTURES / name)), extract_file(str(FIXTURES / sibling))
    assert isinstance(result, Document) and result.format == fmt and not result.warnings
    assert result.text == expected.text and len(result.text) > 100


def test_a_wps_is_read_for_what_it_holds(tmp_path):
    """A .wps may be Word's binary format, a .docx or an OpenDocument text (each as WPS saves
    it), and Word's .dot / WPS's .wpt templates are .doc files: each read as its content says."""
    for source, name in (("zh.docx", "saved-as-docx.wps"), ("report.odt", "saved-as-odt.wps"),
                         ("en.doc", "template.dot"), ("zh.doc", "template.wpt")):
        shutil.copy(FIXTURES / source, tmp_path / name)
        result, expected = extract_file(str(tmp_path / name)), extract_file(str(FIXTURES / source))
        assert isinstance(result, Document), (name, result)
        assert result.format == expected.format and result.text == expected.text


def test_a_microsoft_works_wps_says_what_it_is(tmp_path):
    """Microsoft Works also named its files .wps (an OLE file whose text is in CONTENTS, not
    WordDocument): skipped with that reason, not as a damaged Word document."""
    data = bytearray((FIXTURES / "zh.doc").read_bytes())
    at = data.find("WordDocument".encode("utf-16-le") + b"\0\0")  # its directory entry's name
    name = "CONTENTS".encode("utf-16-le")
    data[at:at + 64] = name + bytes(64 - len(name))
    struct.pack_into("<H", data, at + 64, len(name) + 2)
    (tmp_path / "works.wps").write_bytes(bytes(data))
    result = extract_file(str(tmp_path / "works.wps"))
    assert isinstance(result, Skipped) and result.code == "unsupported"
    assert result.reason == "Microsoft Works document: save it as .docx"


def test_wps_files_are_indexed_and_their_spreadsheets_are_other_files(tmp_path):
    # (WPS Spreadsheets and Presentation files: other files, named but not read)
    pairs, (others, unread) = _indexed_pairs(
        tmp_path, {"申请书-2019.wps": "zh.wps", "申请书-2024.docx": "zh.docx", "form.dotx": "en.dotx"},
        others=("预算.et", "答辩.dps"))
    assert sorted(Path(path).name for path in others) == ["答辩.dps", "预算.et"] and unread == ()
    assert pairs == [({"申请书-2019.wps", "申请书-2024.docx"}, 1.0)]


def test_the_file_dialogs_offer_every_format_that_is_read():
    from neardup_gui.core.extract import DIALOG_PATTERNS, READ_SUFFIXES

    patterns = DIALOG_PATTERNS.split()
    assert sorted(patterns) == sorted(f"*{suffix}" for suffix in READ_SUFFIXES)
    assert patterns[:3] == ["*.docx", "*.doc", "*.wps"]


def _fib_at(data: bytes) -> int:
    """The file offset of the WordDocument stream (its FIB) in a LibreOffice .doc."""
    import io

    import olefile

    with olefile.OleFileIO(io.BytesIO(data)) as ole:
        fib = ole.openstream("WordDocument").read(64)
    return data.find(fib)


@pytest.mark.parametrize("name", sorted(SIBLINGS))
def test_a_cut_doc_reads_the_text_that_survives(tmp_path, name):
    """A .doc cut short (a broken download, a full disk) loses its compound file's directory,
    which LibreOffice writes last; its text comes before it. Before, every cut .doc was skipped
    ("its compound file cannot be read") — report.doc cut at 90 % lost all of its 9,447
    characters. Now the text is read as far as it survives, and the loss is said."""
    data = (FIXTURES / name).read_bytes()
    whole = extract_file(str(FIXTURES / name)).text
    text_at = _fib_at(data) + 2048  # (fcMin: LibreOffice's text, UTF-16, one piece)
    (ccp_text,) = struct.unpack_from("<i", data, _fib_at(data) + 0x4C)  # (the FIB's ccpText)
    text_end = text_at + 2 * ccp_text
    seen = {"whole": 0, "part": 0, "none": 0}
    for cut in sorted({*range(512, len(data), 211), text_at + 100, text_end + 1, len(data) - 512}):
        path = tmp_path / f"{cut}-{name}"
        path.write_bytes(data[:cut])
        result = extract_file(str(path))
        if cut <= text_at:
            assert isinstance(result, Skipped) and result.code == "corrupt", (cut, result)
            assert "compound file cannot be read" in result.reason or "no WordDocument" in result.reason
            seen["none"] += 1
            continue
        assert isinstance(result, Document), (cut, result)
        if not result.warnings:  # (only the last sectors lost, the directory whole: read as ever)
            assert result.text == whole and cut > data.rfind(b"R\x00o\x00o\x00t\x00"), cut
            continue
        assert result.warnings[0].startswith("recovered from a damaged file: ")
        assert "the text was read from the Word stream that survives" in result.warnings[0]
        if cut >= text_end:
            assert result.text == whole, cut
            seen["whole"] += 1
        else:
            # every paragraph before the cut whole, the last one up to the cut
            assert whole.startswith(result.text[:-1]) and result.text, cut
            missing = int(result.warnings[1].split(": ")[1].split()[0])
            assert result.warnings[1].endswith("characters of its text are missing")
            assert missing == ccp_text - (cut - text_at) // 2, cut  # (every character that survives read)
            seen["part"] += 1
    assert seen["whole"] and seen["part"] and seen["none"], seen


def test_a_doc_with_its_directory_or_piece_table_damaged_reads_whole(tmp_path):
    """The directory sector overwritten, a run of bytes inserted before the text (the sectors no
    longer where the header says), the piece table lost as well (the FIB's range of text read):
    each reads the whole text, with the warning."""
    data = (FIXTURES / "report.doc").read_bytes()
    whole = extract_file(str(FIXTURES / "report.doc")).text
    (directory,) = struct.unpack_from("<I", data, 48)
    at = (directory + 1) * 512
    no_directory = data[:at] + bytes(512) + data[at + 512:]
    fib = _fib_at(data)
    inserted = data[:fib - 300] + data[1000:1700] + data[fib - 300:]
    clx = no_directory.find(b"\x02\x10\x00\x00\x00\x00\x00\x00\x00")
    assert clx > 0
    no_pieces = no_directory[:clx] + bytes(21) + no_directory[clx + 21:]
    for label, damaged in (("directory", no_directory), ("inserted", inserted), ("pieces", no_pieces)):
        path = tmp_path / f"{label}.doc"
        path.write_bytes(damaged)
        result = extract_file(str(path))
        assert isinstance(result, Document), (label, result)
        assert result.text == whole, label
        assert result.warnings[0].startswith("recovered from a damaged file: "), label


def test_an_ole_file_without_a_word_stream_is_not_read_as_one(tmp_path):
    """Salvage reads only a Word FIB's text: a damaged compound file holding other data, or
    bytes that only look like a FIB, keep their reason."""
    data = bytearray((FIXTURES / "report.doc").read_bytes())
    fib = _fib_at(bytes(data))
    rng = random.Random(3)
    tail = bytearray(rng.randrange(256) for _ in range(len(data) - fib - 4))
    garbage = bytes(data[:fib + 4]) + bytes(tail)  # a FIB's first bytes, then noise
    (tmp_path / "noise.doc").write_bytes(garbage[: len(garbage) * 9 // 10])
    result = extract_file(str(tmp_path / "noise.doc"))
    assert isinstance(result, Skipped) and result.code == "corrupt", result
    head = bytes(data[:512])  # an OLE header, then no Word stream at all
    (tmp_path / "head.doc").write_bytes(head + bytes(rng.randrange(256) for _ in range(8192)))
    result = extract_file(str(tmp_path / "head.doc"))
    assert isinstance(result, Skipped) and result.code == "corrupt", result


def test_a_cut_doc_is_indexed_with_its_warning_and_paired_with_its_source(tmp_path):
    """In a folder: the cut file is indexed (not skipped), says it was recovered, and is paired
    with the proposal it was saved from — at 1.0 when its whole text survives."""
    from neardup_gui.core.collection import Collection
    from neardup_gui.core.settings import Settings

    data = (FIXTURES / "report.doc").read_bytes()
    folder = tmp_path / "folder"
    folder.mkdir()
    shutil.copy(FIXTURES / "report.odt", folder / "proposal-2025.odt")
    (folder / "resubmitted.doc").write_bytes(data[: len(data) * 9 // 10])
    settings = Settings(auto_template=False)
    with Collection.open(str(tmp_path / "i.ndx")) as coll:
        report = coll.index_folder(str(folder), settings)
        assert report.added == 2 and report.skipped == ()
        (info,) = [d for d in coll.documents() if d.rel == "resubmitted.doc"]
        assert info.status != "skipped" and info.warnings[0].startswith("recovered from a damaged file: ")
        pairs = [({p.a.rel, p.b.rel}, p.similarity) for p in coll.pairs(settings)]
    assert pairs == [({"proposal-2025.odt", "resubmitted.doc"}, 1.0)]
