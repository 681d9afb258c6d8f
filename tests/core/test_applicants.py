"""Each document's applicants: the examiner's CSV or word, else the file's own metadata, kept by path and content."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.applicants_case import write_docx, write_libreoffice_docx
from neardup_gui.core.applicants import (
    ApplicantBook, ApplicantsFileError, import_applicants, metadata_names, read_applicants_csv, set_applicants,
    split_names,
)
from neardup_gui.core.collection import Collection
from neardup_gui.core.extract import extract_file
from neardup_gui.core.results import Applicants
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import Store, examiner

SETTINGS = Settings(workers=1)
TEXT = ["A proposal on the tidal energy of estuaries with a long enough first paragraph to be read.",
        "Its second paragraph says how the turbines are moored and what they cost over twenty years."]


def test_names_are_split_on_semicolons_and_enumeration_commas_not_on_commas() -> None:
    assert split_names("Zhang, San; 李四、王五；Zhang, San") == ("Zhang, San", "李四", "王五")
    assert Applicants(("ＡＢＣ Lab",)).shares_with(Applicants(("abc  lab", "x")))
    assert not Applicants(()).shares_with(Applicants(()))


@pytest.mark.parametrize("author", ["Administrator", "python-docx", "微软用户", "Microsoft Office User", "  USER "])
def test_an_author_field_that_names_a_machine_or_a_program_names_nobody(author: str) -> None:
    assert metadata_names({"author": author}) == ()
    assert metadata_names({"author": f"{author}; 王小明"}) == ("王小明",)


def test_a_csv_as_excel_saves_it_in_chinese(tmp_path: Path) -> None:
    folder = tmp_path / "call"
    folder.mkdir()
    for name in ("a.docx", "b.docx"):
        (folder / name).write_bytes(b"x")
    (tmp_path / "beside.docx").write_bytes(b"x")
    csv = tmp_path / "申请人.csv"
    csv.write_bytes("文件,申请人\r\na.docx,王小明\r\na.docx,李四\r\nb.docx,\"Zhang, San; Li Hua\"\r\n"
                    "beside.docx,赵六\r\n,nobody\r\nc.docx,\r\nmissing.docx,钱七\r\n\r\n".encode("gb18030"))
    table = read_applicants_csv(str(csv), str(folder))
    assert dict(table.rows) == {
        str(folder / "a.docx"): ("王小明", "李四"),  # (one per line, or several in one field)
        str(folder / "b.docx"): ("Zhang, San", "Li Hua"),
        str(tmp_path / "beside.docx"): ("赵六",),  # (not in the folder: beside the CSV)
        str(folder / "missing.docx"): ("钱七",),
    }
    assert table.problems == ("line 6: no file named", "line 7: no applicant for c.docx",
                              f"line 8: missing.docx is not a file in {folder} (kept: it applies once it is there)")


def test_a_file_that_is_no_csv_is_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(ApplicantsFileError, match="No such file"):
        read_applicants_csv(str(tmp_path / "none.csv"), str(tmp_path))
    (tmp_path / "bin.csv").write_bytes(b"\x00\x01\xff\xfe" * 10)
    with pytest.raises(ApplicantsFileError, match="not a"):
        read_applicants_csv(str(tmp_path / "bin.csv"), str(tmp_path))


def test_the_examiners_word_over_the_metadata_by_path_then_by_content_of_a_moved_file(tmp_path: Path) -> None:
    here, gone = tmp_path / "here.docx", tmp_path / "gone.docx"
    here.write_bytes(b"x")
    rows = [(str(here), "aa", 0, "Examiner's Name", "examiner", 1.0),
            (str(gone), "bb", 0, "Moved Applicant", "csv", 2.0),
            (str(tmp_path / "none.docx"), "cc", 0, "", "examiner", 3.0)]
    book = ApplicantBook(rows)
    meta = {"author": "Metadata Author"}
    assert book.of(str(here), "zz", meta) == Applicants(("Examiner's Name",), "examiner")  # (changed: by its path)
    assert book.of(str(tmp_path / "new.docx"), "bb", meta) == Applicants(("Moved Applicant",), "csv")
    # an identical copy of a file still in its place is not that file: its own metadata decides
    assert book.of(str(tmp_path / "copy.docx"), "aa", meta) == Applicants(("Metadata Author",), "metadata")
    assert book.of(str(tmp_path / "none.docx"), "cc", meta) == Applicants((), "examiner")  # "no applicant"
    assert book.of(str(tmp_path / "other.docx"), "dd", {"author": "Administrator"}) == Applicants()


def test_an_odt_and_a_pdf_name_their_author(tmp_path: Path) -> None:
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    docx = tmp_path / "p.docx"
    write_libreoffice_docx(docx, TEXT, "王小明", tmp_path / "profile")
    for fmt in ("odt", "pdf"):
        subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp_path / 'profile'}", "--headless", "--convert-to",
                        fmt, "--outdir", str(tmp_path), str(docx)], capture_output=True, timeout=180, check=True)
    for name in ("p.docx", "p.odt", "p.pdf"):
        assert extract_file(str(tmp_path / name)).meta.get("author") == "王小明", name


def test_applicants_kept_across_processes_refresh_and_a_changed_file(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir()
    write_docx(folder / "a.docx", TEXT, "Author A")
    write_docx(folder / "b.docx", TEXT[::-1], None)
    db = tmp_path / "i.ndx"
    with Collection.open(db) as coll:
        coll.index_folder(str(folder), SETTINGS)
        table = read_applicants_csv_text(tmp_path, "b.docx,Applicant B\n", folder)
        imported = import_applicants(coll.store, table, {d.path: d.sha256 for d in coll.documents()})
        assert len(imported.changed) == 1
        assert import_applicants(coll.store, table, {}).changed == ()  # (the same again changes nothing)
    with Collection.open(db) as coll:  # (another connection, as another process would)
        applicants = {Path(d.path).name: d.applicants for d in coll.documents()}
        assert applicants == {"a.docx": Applicants(("Author A",), "metadata"), "b.docx": Applicants(("Applicant B",), "csv")}
        a = next(d for d in coll.documents() if d.rel == "a.docx")
        set_applicants(coll.store, [(a.path, a.sha256)], ["Examiner Said"])
    write_docx(folder / "a.docx", TEXT + ["A third paragraph written later on, long enough to count as text."], "Author A")
    with Collection.open(db) as coll:
        coll.index_folder(str(folder), SETTINGS)
        applicants = {Path(d.path).name: d.applicants for d in coll.documents()}
        assert applicants["a.docx"] == Applicants(("Examiner Said",), "examiner")  # changed, kept by its path
        a = next(d for d in coll.documents() if d.rel == "a.docx")
        set_applicants(coll.store, [(a.path, a.sha256)], None)  # the examiner's word taken back
        assert coll.document(a.doc_id).applicants == Applicants(("Author A",), "metadata")


def read_applicants_csv_text(tmp_path: Path, text: str, folder: Path):  # noqa: ANN201
    csv = tmp_path / "applicants.csv"
    csv.write_text(text, encoding="utf-8")
    return read_applicants_csv(str(csv), str(folder))


def test_a_side_file_that_cannot_be_read_is_set_aside_never_overwritten(tmp_path: Path, caplog) -> None:
    db = tmp_path / "i.ndx"
    side = examiner.side_file(db)
    side.write_text("{not json", encoding="utf-8")
    with Store(db) as store:
        assert examiner.applicant_rows(store) == []
        examiner.set_applicants(store, [("/x.docx", "ab", ["Someone"])], "examiner")
    kept = list(tmp_path.glob("i.ndx.examiner.json.unreadable-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == "{not json"
    assert "cannot be read" in caplog.text
    for tail in ("", "-wal", "-shm"):
        Path(f"{db}{tail}").unlink(missing_ok=True)
    with Store(db) as store:  # (the side file written since is read back)
        assert [r[3] for r in examiner.applicant_rows(store)] == ["Someone"]
