"""Folder scanning: supported files only, sorted, and every link or permission problem reported."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import unicodedata
from pathlib import Path

import pytest

from neardup_gui.core.progress import Cancelled
from neardup_gui.core.scan import SUPPORTED_SUFFIXES, FileEntry, scan_folder


def write(path: Path, text: str = "some words") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_supported_suffixes():
    assert SUPPORTED_SUFFIXES == {".txt", ".md", ".docx", ".pdf", ".html", ".htm", ".odt", ".rtf", ".doc",
                                  ".wps", ".wpt", ".dot", ".docm", ".dotx", ".dotm"}


def test_walks_recursively_sorted_and_filters(tmp_path):
    for rel in ["b.txt", "a/z.PDF", "a/b/c.docx", "a/b/d.md", "x.htm", "y.odt", "z.rtf", "old.doc",
                "photo.jpg", "notes.xlsx", ".hidden.txt", ".git/config.txt", "a/~$c.docx", "sub/.cache/p.pdf"]:
        write(tmp_path / rel)
    result = scan_folder(str(tmp_path))
    assert [f.rel for f in result.files] == ["a/b/c.docx", "a/b/d.md", "a/z.PDF", "b.txt", "old.doc", "x.htm", "y.odt", "z.rtf"]
    assert result.problems == ()
    # files of other formats are not documents, but are named: hidden and lock files are not
    assert result.others == (str(tmp_path / "notes.xlsx"), str(tmp_path / "photo.jpg"))
    entry = result.files[3]
    stat = (tmp_path / "b.txt").stat()
    assert entry == FileEntry(str(tmp_path / "b.txt"), "b.txt", stat.st_size, stat.st_mtime_ns)
    assert os.path.isabs(entry.path)


def test_symlink_loop_and_dangling_links(tmp_path):
    write(tmp_path / "docs" / "real.txt")
    os.symlink(tmp_path / "docs", tmp_path / "docs" / "again")  # a loop back to its parent
    os.symlink("self-loop", tmp_path / "self-loop")  # a link to itself: ELOOP
    os.symlink(tmp_path / "missing.pdf", tmp_path / "broken.pdf")
    os.symlink(tmp_path / "docs" / "real.txt", tmp_path / "alias.txt")
    result = scan_folder(str(tmp_path))
    assert [f.rel for f in result.files] == ["docs/real.txt"]
    problems = {os.path.relpath(p.path, tmp_path): p.code for p in result.problems}
    assert problems == {
        "docs/again": "link-loop",
        "self-loop": "link-loop",
        "broken.pdf": "broken-link",
        "alias.txt": "duplicate-link",
    }
    assert all(p.reason for p in result.problems)


def test_linked_folder_outside_the_root_is_followed(tmp_path):
    outside = tmp_path / "outside"
    write(outside / "shared.txt")
    root = tmp_path / "root"
    root.mkdir()
    os.symlink(outside, root / "linked")
    result = scan_folder(str(root))
    assert [f.rel for f in result.files] == ["linked/shared.txt"]


def test_awkward_names_and_long_paths(tmp_path):
    names = ['quote"s \'x\'.txt', "new\nline.txt", "<script>alert(1).txt", unicodedata.normalize("NFD", "café.txt")]
    for name in names:
        write(tmp_path / name)
    deep = tmp_path
    for i in range(12):
        deep = deep / (f"{i:02d}" + "d" * 200)
    write(deep / "deep.txt")
    result = scan_folder(str(tmp_path))
    rels = [f.rel for f in result.files]
    for name in names:
        assert name in rels  # names are kept exactly as stored (NFD stays NFD)
    assert any(r.endswith("/deep.txt") and len(r) > 2400 for r in rels)
    assert all(os.path.exists(f.path) for f in result.files)


def test_missing_root_and_file_root(tmp_path):
    assert [p.code for p in scan_folder(str(tmp_path / "nope")).problems] == ["vanished"]
    write(tmp_path / "f.txt")
    assert [p.code for p in scan_folder(str(tmp_path / "f.txt")).problems] == ["unsupported"]


def test_progress_and_cancel(tmp_path):
    for i in range(5):
        write(tmp_path / f"d{i}" / "f.txt")
    seen: list[float] = []
    scan_folder(str(tmp_path), lambda f, m="": seen.append(f))
    assert seen[-1] == 1.0 and all(0 <= f <= 1 for f in seen)

    def cancel(fraction, message=""):
        if fraction > 0:
            raise Cancelled()

    with pytest.raises(Cancelled):
        scan_folder(str(tmp_path), cancel)


def test_unreadable_file_and_folder_as_an_unprivileged_user():
    """Tests run as root, which reads anything: scan in a forked child that drops to 'nobody'."""
    if not hasattr(os, "fork"):
        pytest.skip("needs fork")
    root = Path(tempfile.mkdtemp(prefix="neardup-perm-", dir="/tmp"))
    try:
        root.chmod(0o755)
        write(root / "open.txt", "readable words")
        write(root / "locked.txt", "secret words").chmod(0)
        write(root / "closed" / "inside.txt", "hidden words")
        (root / "closed").chmod(0)
        payload = _run_unprivileged(root) if os.geteuid() == 0 else _scan_and_extract(root)
    finally:
        (root / "closed").chmod(0o755)
        shutil.rmtree(root)
    assert payload["files"] == ["open.txt"]
    assert payload["problems"] == {"closed": "unreadable", "locked.txt": "unreadable"}
    assert payload["extract_locked"] == "unreadable"


def _scan_and_extract(root: Path) -> dict:
    from neardup_gui.core.extract import extract_file

    result = scan_folder(str(root))
    return {
        "files": [f.rel for f in result.files],
        "problems": {os.path.relpath(p.path, root): p.code for p in result.problems},
        "extract_locked": extract_file(str(root / "locked.txt")).code,
    }


def _run_unprivileged(root: Path) -> dict:
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: drop to nobody, scan, report, exit without running pytest's cleanup
        status = 1
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            with os.fdopen(write_end, "w") as out:
                json.dump(_scan_and_extract(root), out)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    with os.fdopen(read_end) as incoming:
        data = incoming.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, data
    return json.loads(data)


def test_neardupignore_keeps_listed_files_out(tmp_path):
    from neardup_gui.core.scan import scan_folder

    (tmp_path / "notes").mkdir()
    for rel in ("a.txt", "EXPECTED.md", "notes/b.txt", "notes/draft.docx"):
        (tmp_path / rel).write_text("x", encoding="utf-8")
    (tmp_path / ".neardupignore").write_text("# answer keys\nEXPECTED.md\n\nnotes/*.docx\n", encoding="utf-8")
    assert [f.rel for f in scan_folder(str(tmp_path)).files] == ["a.txt", "notes/b.txt"]


def test_the_sample_collections_answer_key_is_not_a_document(sample_dir):
    from neardup_gui.core.scan import scan_folder

    rels = [f.rel for f in scan_folder(str(sample_dir)).files]
    assert len(rels) == 30 and "EXPECTED.md" not in rels


def test_other_files_left_out_by_the_examiner_are_not_named(tmp_path):
    write(tmp_path / "a.txt")
    write(tmp_path / "notes.csv")
    write(tmp_path / "data" / "budget.xlsx")
    write(tmp_path / ".neardupignore", "data/*\n")
    os.symlink(tmp_path / "gone.xlsx", tmp_path / "broken.xlsx")  # (a broken link to no document: not named)
    result = scan_folder(str(tmp_path))
    assert [f.rel for f in result.files] == ["a.txt"]
    assert result.others == (str(tmp_path / "notes.csv"),)
    assert result.problems == ()


def test_a_name_that_gives_no_type_is_a_document_by_its_content(tmp_path):
    """Debian's copyright files are named ``copyright``, a package's after it (``python3.11``), a
    rendered man page ``ls.1``: read when their content is a document; a program or an empty file
    with such a name is named among the others."""
    sample = Path(__file__).resolve().parents[2] / "resources" / "sample"
    for name in ("copyright", "python3.11", "python3-lazr.uri", "zlib.copyright", "ls.1", "README"):
        write(tmp_path / name, "Copyright: 1995-2024 Jean-loup Gailly and Mark Adler\nLicense: Zlib\n")
    shutil.copy(sample / "en-01-coastal-erosion.docx", tmp_path / "proposal-2024")  # a Word file, no suffix
    shutil.copy(sample / "en-02-shoreline-retreat.pdf", tmp_path / "proposal.v2")
    (tmp_path / "run-me").write_bytes(bytes(range(256)) * 8)  # binary
    (tmp_path / "empty").write_bytes(b"")
    (tmp_path / "sheet.v2").write_bytes((sample / "en-01-coastal-erosion.docx").read_bytes()[:100])  # a broken zip
    result = scan_folder(str(tmp_path))
    assert [f.rel for f in result.files] == ["README", "copyright", "ls.1", "proposal-2024", "proposal.v2",
                                             "python3-lazr.uri", "python3.11", "zlib.copyright"]
    assert result.others == tuple(str(tmp_path / n) for n in ("empty", "run-me", "sheet.v2"))


def test_office_files_named_without_a_type_are_read_as_what_they_are(tmp_path):
    """Real LibreOffice ODT and RTF files, and a PDF, saved without a suffix: documents by their
    content, extracted as their format; a zip whose `mimetype` member is huge (a bomb) is not
    unpacked to find out: it is one of the other files."""
    import io
    import zipfile

    from neardup_gui.core.document import Document
    from neardup_gui.core.extract import extract_file

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "ingest"
    for src, name in (("report.odt", "report"), ("report.rtf", "report-rtf"), ("en.pdf", "en.v3")):
        shutil.copy(fixtures / src, tmp_path / name)
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", b"a" * 200_000_000)  # 200 MB unpacked, 0.2 MB packed
    (tmp_path / "bomb").write_bytes(bomb.getvalue())
    result = scan_folder(str(tmp_path))
    assert [f.rel for f in result.files] == ["en.v3", "report", "report-rtf"]
    assert result.others == (str(tmp_path / "bomb"),)
    for name, fmt in (("report", "odt"), ("report-rtf", "rtf"), ("en.v3", "pdf")):
        doc = extract_file(str(tmp_path / name))
        assert isinstance(doc, Document) and doc.format == fmt and doc.text == extract_file(
            str(fixtures / {"odt": "report.odt", "rtf": "report.rtf", "pdf": "en.pdf"}[fmt])).text
    assert extract_file(str(tmp_path / "bomb")).reason == "not a document: the file holds a zip archive"


def test_the_systems_own_files_are_neither_documents_nor_other_files(tmp_path):
    """An archive copied from Windows or unpacked from a Mac's zip: Thumbs.db, desktop.ini and the
    __MACOSX folder's resource forks were named among the folder's "other files"."""
    write(tmp_path / "proposal.txt")
    (tmp_path / "Thumbs.db").write_bytes(b"junk\x00\x01")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "desktop.ini").write_bytes(b"[.ShellClassInfo]\r\n")
    (tmp_path / "sub" / "budget.xlsx").write_bytes(b"x")
    write(tmp_path / "__MACOSX" / "._proposal.txt", "\x00\x05\x16\x07Mac OS X")
    write(tmp_path / "__MACOSX" / "notes.txt", "a resource fork named as text")
    result = scan_folder(str(tmp_path))
    assert [f.rel for f in result.files] == ["proposal.txt"]
    assert result.others == (str(tmp_path / "sub" / "budget.xlsx"),) and result.problems == ()
