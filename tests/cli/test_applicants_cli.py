"""Whose text it is, from the command line: applicants, own work apart from others', decisions.

A call where applicant X resubmits their own indexed proposal, Y copies half of it and Z copies
nothing: X is a resubmission (copied from X's own documents, not from others), Y is flagged with
X's proposal as the source of half of it, Z is clean — whether the applicants come from the
examiner's CSV or from the files' own author metadata. Every command runs in a process of its
own, as the examiner runs them: what one writes the next reads.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from docx import Document as DocxDocument

from tests.applicants_case import NAMES, make_call, write_docx

ENV = {**os.environ, "PYTHONIOENCODING": "utf-8"}


def neardup(*args: str, ok: bool = True) -> subprocess.CompletedProcess:
    run = subprocess.run([sys.executable, "-m", "neardup_gui.cli", *args], capture_output=True, text=True, env=ENV,
                         timeout=600)
    if ok:
        assert run.returncode == 0, run.stderr
    return run


def screen_json(call: Path, db: Path, *extra: str) -> dict[str, dict]:
    out = neardup("screen", str(call), "--db", str(db), "--name", "call", "--json", "-q", *extra).stdout
    return {r["rel"]: r for r in json.loads(out)["submissions"]}


def _assert_the_three_applicants(rows: dict[str, dict], source: str) -> None:
    x, y, z = rows["x-resubmission.docx"], rows["y-proposal.docx"], rows["z-proposal.docx"]
    assert x["applicants"] == {"names": [NAMES["x"]], "source": source}
    assert x["label"] == "resubmission / duplicate submission"
    assert Path(x["resubmission_of"]).name == "x-2024-proposal.docx"
    assert x["copied_from_own"] > 0.95 and x["copied_from_others"] < 0.02 and not x["flagged"]
    own = [s for s in x["source_list"] if s["same_applicant"]]
    assert [Path(s["path"]).name for s in own] == ["x-2024-proposal.docx"]
    assert y["flagged"] and y["label"] is None and y["copied_from_own"] == 0.0
    assert abs(y["copied_from_others"] - 0.5) < 0.06
    assert Path(y["largest_source"]).name == "x-2024-proposal.docx"
    assert not any(s["same_applicant"] for s in y["source_list"])
    assert z["copied"] == 0.0 and not z["flagged"] and z["label"] is None and not z["source_list"]


def test_a_call_with_its_applicants_from_a_csv(tmp_path: Path) -> None:
    collection, call, collection_csv, call_csv = make_call(tmp_path, metadata=False)
    db = tmp_path / "index.ndx"
    indexed = json.loads(neardup("index", str(collection), "--db", str(db), "--applicants", str(collection_csv),
                                 "--json", "-q").stdout)
    assert indexed["applicants"] == {"files": 5, "changed": 5, "problems": []}
    rows = screen_json(call, db, "--applicants", str(call_csv))  # (GB18030, as Excel saves it in Chinese)
    _assert_the_three_applicants(rows, "csv")
    # a check of the resubmission says the same (its applicant found by its path)
    [checked] = json.loads(neardup("check", str(call / "x-resubmission.docx"), "--db", str(db), "--json",
                                   "-q").stdout)
    assert checked["label"] == "resubmission / duplicate submission"
    assert checked["summary"]["copied_from_own"] > 0.95 and checked["summary"]["copied_from_others"] < 0.02
    assert checked["matches"][0]["same_applicant"] and checked["applicants"]["source"] == "csv"
    [y] = json.loads(neardup("check", str(call / "y-proposal.docx"), "--db", str(db), "--json", "-q").stdout)
    assert abs(y["summary"]["copied_from_others"] - 0.5) < 0.06 and y["summary"]["copied_from_own"] == 0.0


@pytest.mark.parametrize("libreoffice", [False, True], ids=["python-docx", "libreoffice"])
def test_a_call_with_its_applicants_from_docx_author_metadata_alone(tmp_path: Path, libreoffice: bool) -> None:
    if libreoffice and shutil.which("soffice") is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    collection, call, _, _ = make_call(tmp_path, metadata=True, libreoffice=libreoffice)
    db = tmp_path / "index.ndx"
    neardup("index", str(collection), "--db", str(db), "-q")
    listed = {Path(a["path"]).name: a for a in json.loads(neardup("applicants", "--db", str(db), "--json").stdout)}
    assert listed["x-2024-proposal.docx"] == {"path": str(collection / "x-2024-proposal.docx"),
                                              "names": [NAMES["x"]], "source": "metadata"}
    _assert_the_three_applicants(screen_json(call, db), "metadata")


def test_python_docx_default_author_names_nobody(tmp_path: Path) -> None:
    """python-docx writes "python-docx" as every file's author: a program, not an applicant, or
    every such file would be one applicant's own work."""
    collection, call, _, _ = make_call(tmp_path, metadata=False)
    db = tmp_path / "index.ndx"
    neardup("index", str(collection), "--db", str(db), "-q")
    rows = screen_json(call, db)
    assert rows["x-resubmission.docx"]["applicants"] == {"names": [], "source": None}
    assert rows["x-resubmission.docx"]["flagged"] and rows["x-resubmission.docx"]["label"] is None


def _decisions(db: Path) -> list[dict]:
    return json.loads(neardup("decide", "--list", "--db", str(db), "--json").stdout)


def test_applicants_and_decisions_outlive_refresh_moves_and_rebuild_and_a_changed_text_is_said(tmp_path: Path) -> None:
    collection, call, collection_csv, call_csv = make_call(tmp_path, metadata=False)
    db = tmp_path / "index.ndx"
    neardup("index", str(collection), "--db", str(db), "--applicants", str(collection_csv), "-q")
    screen_json(call, db, "--applicants", str(call_csv))
    y, x = call / "y-proposal.docx", collection / "x-2024-proposal.docx"
    said = json.loads(neardup("decide", str(y), str(x), "--as", "cited", "--note", "quoted with reference [3]",
                              "--db", str(db), "--json").stdout)
    assert said["decision"]["decision"] == "cited" and said["screened_rows_updated"] >= 1
    # the decision changes the figures as it says: cited text leaves the copied share
    rows = screen_json(call, db)
    assert rows["y-proposal.docx"]["copied"] == 0.0 and abs(rows["y-proposal.docx"]["set_apart_ratio"] - 0.5) < 0.06
    assert not rows["y-proposal.docx"]["flagged"]
    # refresh, then the proposal moved within the collection: found again by its content
    neardup("index", str(collection), "--db", str(db), "-q")
    (collection / "archive").mkdir()
    moved = collection / "archive" / "x-2024-proposal.docx"
    x.rename(moved)
    indexed = json.loads(neardup("index", str(collection), "--db", str(db), "--json", "-q").stdout)
    assert indexed["moved"] == 1
    applicants = {Path(a["path"]).name: a for a in json.loads(neardup("applicants", "--db", str(db), "--json").stdout)}
    assert applicants["x-2024-proposal.docx"]["path"] == str(moved)
    assert applicants["x-2024-proposal.docx"]["names"] == [NAMES["x"]]
    [d] = _decisions(db)
    assert ({d["a"], d["b"]}, d["note"], d["applied"]) == ({str(y), str(moved)}, "quoted with reference [3]", True)
    # rebuilt: a new index file at the same place starts from the examiner's records beside it
    for tail in ("", "-wal", "-shm"):
        Path(f"{db}{tail}").unlink(missing_ok=True)
    shutil.rmtree(f"{db}.screenings")
    neardup("index", str(collection), "--db", str(db), "-q")
    assert [(d["decision"], d["applied"]) for d in _decisions(db)] == [("cited", True)]
    rows = screen_json(call, db)  # (the call's applicants were named by the CSV given before the rebuild)
    assert rows["x-resubmission.docx"]["applicants"]["source"] == "csv"
    assert rows["x-resubmission.docx"]["label"] and rows["y-proposal.docx"]["copied"] == 0.0
    # one file changed: the decision on it says so and no longer applies
    d = DocxDocument(str(y))
    d.add_paragraph("A closing paragraph written after the examiner decided on this text.")
    d.save(str(y))
    rows = screen_json(call, db)
    decision = next(s["decision"] for s in rows["y-proposal.docx"]["source_list"] if s["decision"])
    assert decision["text_changed_since"] and not decision["applied"]
    assert rows["y-proposal.docx"]["flagged"] and rows["y-proposal.docx"]["undecided_sources"] >= 1
    [d] = _decisions(db)
    assert d["text_changed_since"] and not d["applied"]


def test_pairs_show_and_filter_one_applicants_own_documents_and_the_undecided(tmp_path: Path) -> None:
    collection, _, _, _ = make_call(tmp_path, metadata=True)
    # X's proposal again, lightly edited, for another programme; and a copy by someone else
    proposal = [p.text for p in DocxDocument(str(collection / "x-2024-proposal.docx")).paragraphs]
    write_docx(collection / "x-2025-other-programme.docx", proposal[:-1], NAMES["x"])
    write_docx(collection / "w-copy.docx", proposal[1:], "Wang Fang")
    db = tmp_path / "index.ndx"
    neardup("index", str(collection), "--db", str(db), "-q")

    def names(*extra: str) -> set[frozenset[str]]:
        out = json.loads(neardup("pairs", "--db", str(db), "--json", "-q", *extra).stdout)
        return {frozenset((Path(p["a"]).name, Path(p["b"]).name)) for p in out}

    own = frozenset(("x-2024-proposal.docx", "x-2025-other-programme.docx"))
    assert names("--applicant", "same") == {own}
    assert own not in names("--applicant", "others") and len(names("--applicant", "others")) == 2
    every = json.loads(neardup("pairs", "--db", str(db), "--json", "-q").stdout)
    assert {p["same_applicant"] for p in every} == {True, False}
    plain = neardup("pairs", "--db", str(db), "-q").stdout
    assert plain.count("(same applicant)") == 1
    neardup("decide", str(collection / "x-2024-proposal.docx"), str(collection / "x-2025-other-programme.docx"),
            "--as", "own-work", "--db", str(db))
    assert own not in names("--undecided") and len(names("--undecided")) == 2
    decided = [p for p in json.loads(neardup("pairs", "--db", str(db), "--json", "-q").stdout) if p["decision"]]
    assert [p["decision"]["decision"] for p in decided] == ["own-work"]
    # the pairs report says it too (JSON, CSV and HTML)
    for ext in ("json", "csv", "html"):
        neardup("report", "--db", str(db), "--scope", "pairs", "--out", str(tmp_path / f"pairs.{ext}"), "-q")
    reported = json.loads((tmp_path / "pairs.json").read_text(encoding="utf-8"))["pairs"]
    mine = [p for p in reported if p["same_applicant"]]
    assert len(mine) == 1 and mine[0]["decision"]["decision"] == "own-work" and mine[0]["decision"]["applied"]
    assert ",own-work," in (tmp_path / "pairs.csv").read_text(encoding="utf-8-sig")
    assert "permitted: the applicant's own work" in (tmp_path / "pairs.html").read_text(encoding="utf-8").replace(
        "&#x27;", "'")


def test_a_csv_that_cannot_be_used_is_said_and_changes_nothing(tmp_path: Path) -> None:
    collection, _, _, _ = make_call(tmp_path, metadata=False)
    db = tmp_path / "index.ndx"
    missing = neardup("index", str(collection), "--db", str(db), "--applicants", str(tmp_path / "none.csv"), ok=False)
    assert missing.returncode == 2 and "cannot read the applicants" in missing.stderr and not db.exists()
    csv = tmp_path / "some.csv"
    csv.write_text("path,applicant\nx-2024-proposal.docx,王小明\nother-0.docx,\nnot-there.docx,Nobody\n",
                   encoding="utf-8")
    run = neardup("index", str(collection), "--db", str(db), "--applicants", str(csv), "--json", "-q")
    kept = json.loads(run.stdout)["applicants"]
    assert kept["files"] == 2 and len(kept["problems"]) == 2
    assert "line 3: no applicant for other-0.docx" in run.stderr and "line 4: not-there.docx is not a file" in run.stderr


def test_a_file_added_by_copying_keeps_the_applicants_its_original_was_given(tmp_path: Path) -> None:
    collection, call, _, _ = make_call(tmp_path, metadata=False)
    db = tmp_path / "index.ndx"
    neardup("index", str(collection), "--db", str(db), "-q")
    csv = tmp_path / "added.csv"
    csv.write_text("z-proposal.docx,Zhang Wei\n", encoding="utf-8")  # (beside the CSV, not in the collection)
    shutil.copy(call / "z-proposal.docx", tmp_path / "z-proposal.docx")
    neardup("add", str(tmp_path / "z-proposal.docx"), "--copy", "--db", str(db), "--applicants", str(csv), "-q")
    listed = {Path(a["path"]).name: a for a in json.loads(neardup("applicants", "--db", str(db), "--json").stdout)}
    assert listed["z-proposal.docx"]["path"] == str(collection / "z-proposal.docx")
    assert listed["z-proposal.docx"]["names"] == ["Zhang Wei"] and listed["z-proposal.docx"]["source"] == "csv"
