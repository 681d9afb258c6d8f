"""Names that are not valid UTF-8: an archive unpacked from a Windows zip keeps its GBK names as
bytes. Before, the first such name stopped the whole index build (an exception in SQLite); now
each is listed with its reason, what it reads as in GBK, and the rest is read."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from neardup_gui.core.collection import Collection
from neardup_gui.core.scan import gbk_reading, is_valid_name, name_problem, scan_folder, shown_name
from neardup_gui.core.settings import Settings

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"
GBK_PROPOSAL = "申请书.docx".encode("gbk")
GBK_FOLDER = "往年项目".encode("gbk")


def bytes_path(folder: Path, *names: bytes) -> bytes:
    return os.path.join(os.fsencode(str(folder)), *names)


def archive_with_gbk_names(folder: Path) -> Path:
    """Two proposals under valid names, a real Word file and a folder of texts under GBK names, a
    name that is no encoding's text, and a picture under a GBK name."""
    folder.mkdir()
    shutil.copy(SAMPLE / "en-01-coastal-erosion.docx", folder / "proposal.docx")
    shutil.copy(SAMPLE / "zh-04-山区滑坡监测.txt", folder / "山区滑坡监测.txt")
    shutil.copyfile(SAMPLE / "en-01-coastal-erosion.docx", bytes_path(folder, GBK_PROPOSAL))
    os.mkdir(bytes_path(folder, GBK_FOLDER))
    shutil.copyfile(SAMPLE / "en-05-dementia-speech.txt", bytes_path(folder, GBK_FOLDER, b"old.txt"))
    shutil.copyfile(SAMPLE / "en-05-dementia-speech.txt", bytes_path(folder, b"bad\xff\xfe.txt"))
    with open(bytes_path(folder, "照片.png".encode("gbk")), "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + bytes(64))
    return folder


def test_names_shown_and_explained():
    name = os.fsdecode(b"/x/" + GBK_PROPOSAL)
    assert not is_valid_name(name) and is_valid_name("/x/申请书.docx")
    assert shown_name(name) == "/x/\\xc9\\xea\\xc7\\xeb\\xca\\xe9.docx"
    assert shown_name("/x/申请书.docx") == "/x/申请书.docx"
    assert shown_name("a\ud800b") == "a\\ud800b"  # (a lone surrogate of a Windows name)
    # a GBK name some of whose bytes happen to form UTF-8 (\xc2\xbc is "¼"): every byte escaped
    mixed = os.fsdecode(b"/x/" + "滑坡监测申请.txt".encode("gbk"))
    assert shown_name(mixed) == "/x/\\xbb\\xac\\xc6\\xc2\\xbc\\xe0\\xb2\\xe2\\xc9\\xea\\xc7\\xeb.txt"
    assert gbk_reading(mixed) == "滑坡监测申请.txt"
    assert gbk_reading(name) == "申请书.docx"
    assert name_problem(name) == ("name not valid UTF-8 (in GBK: '申请书.docx'): rename the file "
                                  "(the index cannot keep this name)")
    assert name_problem(os.fsdecode(b"bad\xff\xfe.txt")) == (
        "name not valid UTF-8: rename the file (the index cannot keep this name)")  # (no GBK reading)
    assert name_problem("/x/申请书.docx") is None


def test_the_scan_lists_each_bad_name_with_its_reason(tmp_path):
    folder = archive_with_gbk_names(tmp_path / "archive")
    result = scan_folder(str(folder))
    assert [f.rel for f in result.files] == ["proposal.docx", "山区滑坡监测.txt"]
    reasons = {p.path: (p.code, p.reason) for p in result.problems}
    assert reasons == {
        shown_name(os.fsdecode(bytes_path(folder, GBK_PROPOSAL))):
            ("bad-name", "name not valid UTF-8 (in GBK: '申请书.docx'): rename the file (the index cannot keep this name)"),
        shown_name(os.fsdecode(bytes_path(folder, GBK_FOLDER))):
            ("bad-name", "folder name not valid UTF-8 (in GBK: '往年项目'): rename the folder "
                         "(the index cannot keep its documents' names)"),
        shown_name(os.fsdecode(bytes_path(folder, b"bad\xff\xfe.txt"))):
            ("bad-name", "name not valid UTF-8: rename the file (the index cannot keep this name)"),
    }
    assert all(is_valid_name(p) for p in reasons)
    assert result.others == (shown_name(os.fsdecode(bytes_path(folder, "照片.png".encode("gbk")))),)


def test_an_index_of_such_an_archive_reads_the_rest_and_keeps_the_reasons(tmp_path):
    folder = archive_with_gbk_names(tmp_path / "archive")
    db = tmp_path / "a.ndx"
    with Collection.open(str(db), create=True) as coll:
        report = coll.index_folder(str(folder), Settings())
        assert report.added == 2 and len(report.skipped) == 3
        # checking a submission saved under a GBK name: it is read, the result names it as shown
        result = coll.check([os.fsdecode(bytes_path(folder, GBK_PROPOSAL))], Settings())[0]
        assert not result.skipped_reason and is_valid_name(result.path)
        assert result.matches and result.matches[0].source.rel == "proposal.docx"
        assert result.matches[0].comparison.similarity == 1.0
    with Collection.open(str(db), create=False) as coll:  # (another opening: the index is whole)
        assert sorted(d.rel for d in coll.documents() if d.status == "indexed") == ["proposal.docx", "山区滑坡监测.txt"]


def test_a_collection_folder_whose_own_path_is_not_utf8_changes_nothing(tmp_path):
    from neardup_gui.core.scan import FolderUnavailable

    folder = os.fsdecode(bytes_path(tmp_path, GBK_FOLDER))
    os.mkdir(folder)
    shutil.copy(SAMPLE / "en-05-dementia-speech.txt", os.path.join(folder, "a.txt"))
    with Collection.open(str(tmp_path / "b.ndx"), create=True) as coll:
        try:
            coll.index_folder(folder, Settings())
        except FolderUnavailable as exc:
            assert is_valid_name(str(exc)) and "path not valid UTF-8 (in GBK: '往年项目')" in exc.reason
        else:
            raise AssertionError("a folder whose path the index cannot keep was indexed")
        assert coll.documents() == []
        assert coll.store.get_meta("indexing_unfinished") is None  # (no mark left: nothing was begun)


def test_a_screening_lists_a_submission_not_read_until_it_can_be_read(tmp_path):
    """A call's submission under a GBK name, a broken link and a second link to a submission:
    the first two are skipped rows with their reasons (before: missing from the table), the link
    to a listed file is no row; renamed and screened again, the submission is checked, and a
    problem gone leaves the table."""
    from neardup_gui.core.screening import load_screening, screen_folder

    archive = tmp_path / "archive"
    archive.mkdir()
    shutil.copy(SAMPLE / "en-01-coastal-erosion.docx", archive / "old.docx")
    call = tmp_path / "call"
    call.mkdir()
    shutil.copy(SAMPLE / "en-05-dementia-speech.txt", call / "a.txt")
    os.symlink(call / "a.txt", call / "same-as-a.txt")
    os.symlink(call / "gone.txt", call / "broken.txt")
    bad = bytes_path(call, GBK_PROPOSAL)
    shutil.copyfile(SAMPLE / "en-01-coastal-erosion.docx", bad)
    settings = Settings(auto_template=False)
    with Collection.open(str(tmp_path / "i.ndx"), create=True) as coll:
        coll.index_folder(str(archive), settings)
        rows = {r.rel: r for r in screen_folder(coll, str(call), settings).rows}
        shown = "\\xc9\\xea\\xc7\\xeb\\xca\\xe9.docx"
        assert set(rows) == {"a.txt", "broken.txt", shown}
        assert rows[shown].status == "skipped" and "in GBK: '申请书.docx'" in rows[shown].reason
        assert rows["broken.txt"].reason == "broken symbolic link: its target does not exist"
        os.rename(bad, call / "申请书.docx")
        os.unlink(call / "broken.txt")
        screen_folder(coll, str(call), settings)
    with Collection.open(str(tmp_path / "i.ndx"), create=False) as coll:  # (read back in a new opening)
        rows = {r.rel: r for r in load_screening(coll.store, "call").rows}
    assert set(rows) == {"a.txt", "申请书.docx"}
    assert rows["申请书.docx"].status == "done" and rows["申请书.docx"].largest > 0.95
