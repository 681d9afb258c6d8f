"""`neardup common` and `--no-auto-template` (issue 14): what is left out is listed and reversible."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from neardup_gui.cli import EXIT_OK, EXIT_USAGE, main
from tests import template_cases as tc

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"


def run(capsys, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(list(args))
    return code, capsys.readouterr().out


def _pair_names(out: str) -> set[frozenset[str]]:
    return {frozenset((Path(p["a"]).name, Path(p["b"]).name)) for p in json.loads(out)}


def test_common_lists_the_forms_and_one_action_excludes_each(tmp_path, capsys) -> None:
    folder = tmp_path / "sample"
    shutil.copytree(SAMPLE, folder)
    db = str(tmp_path / "s.ndx")
    assert main(["index", str(folder), "--db", db, "-q"]) == EXIT_OK
    code, out = run(capsys, "common", "--db", db, "--json", "-q")
    assert code == EXIT_OK
    data = json.loads(out)
    forms = [p for p in data["passages"] if p["documents"] == 5 and len(p["text"]) > 500]
    assert len(forms) == 2 and all(p["status"] == "counted" for p in forms)
    assert {n[:5] for p in forms for n in p["names"]} == {f"{lang}-0{i}" for lang in ("en", "zh") for i in range(5, 10)}
    assert data["rules"]["automatic"] and data["rules"]["automatic_min_frequency"] == 15
    before = _pair_names(run(capsys, "pairs", "--db", db, "--threshold", "0.5", "--json", "-q")[1])
    assert len(before) == 22
    for p in forms:
        code, _ = run(capsys, "common", "--db", db, "--exclude", p["id"][:8], "-q")
        assert code == EXIT_OK
    data = json.loads(run(capsys, "common", "--db", db, "--json", "-q")[1])
    assert [p["status"] for p in data["passages"] if p["id"] in {f["id"] for f in forms}] == ["marked", "marked"]
    assert len(data["marks"]) == 2 and {m["action"] for m in data["marks"]} == {"exclude"}
    code, text = run(capsys, "common", "--db", db, "-q")  # (counts in English: "1 sentence", never "1 sentences")
    n = len(data["passages"])
    assert text.startswith(f"{n} passage{'' if n == 1 else 's'} in at least ")
    for m in data["marks"]:
        assert f"  {m['sentences']} sentence{'' if m['sentences'] == 1 else 's'}  " in text
    after = _pair_names(run(capsys, "pairs", "--db", db, "--threshold", "0.5", "--json", "-q")[1])
    assert {frozenset(n[:5] for n in pair) for pair in after} == {frozenset(("en-01", "en-02")), frozenset(("zh-01", "zh-02"))}
    # undo one mark: that form's 10 pairs are back
    assert run(capsys, "common", "--db", db, "--unmark", str(data["marks"][0]["id"]), "-q")[0] == EXIT_OK
    assert len(_pair_names(run(capsys, "pairs", "--db", db, "--threshold", "0.5", "--json", "-q")[1])) == 12
    assert run(capsys, "common", "--db", db, "--unmark", "999", "-q")[0] == EXIT_USAGE
    assert run(capsys, "common", "--db", db, "--exclude", "nosuchid", "-q")[0] == EXIT_USAGE


def test_no_auto_template_counts_a_form_in_every_document(tmp_path, capsys) -> None:
    root, texts = tc.form_collection(tmp_path)
    db = str(tmp_path / "f.ndx")
    assert main(["index", str(root), "--db", db, "-q", "--workers", "2"]) == EXIT_OK
    assert json.loads(run(capsys, "pairs", "--db", db, "--threshold", "0.3", "--json", "-q")[1]) == []
    listed = json.loads(run(capsys, "pairs", "--db", db, "--threshold", "0.3", "--json", "-q", "--no-auto-template")[1])
    assert len(listed) >= 300 and all("automatic" not in p["exclusions"]["applied"] for p in listed)
    assert all(p["exclusions"]["units_a"]["automatic"] == 0 for p in listed)
    # checking a proposal: the form is automatic template, counted in the result's exclusions
    code, out = run(capsys, "check", str(root / "proposal-00.txt"), "--db", db, "--json", "-q")
    result = json.loads(out)[0]
    assert result["exclusions"]["units"]["automatic"] > 100 and "automatic" in result["exclusions"]["applied"]
    code, out = run(capsys, "check", str(root / "proposal-00.txt"), "--db", db, "--json", "-q", "--no-auto-template")
    assert json.loads(out)[0]["exclusions"]["units"]["automatic"] == 0
    code, out = run(capsys, "common", "--db", db)
    assert code == EXIT_OK and "automatic" in out and "26 docs" in out


def test_clusters_json_flags_the_ring(tmp_path, capsys) -> None:
    case = tc.ring_collection(tmp_path, documents=60)
    db = str(tmp_path / "r.ndx")
    assert main(["index", str(case.root), "--db", db, "-q", "--workers", "2"]) == EXIT_OK
    clusters = json.loads(run(capsys, "clusters", "--db", db, "--threshold", "0.5", "--json", "-q")[1])
    rings = [c for c in clusters if c["ring"]]
    assert len(rings) == 1 and len(rings[0]["members"]) == 7
    assert all(v >= 0.7 for row in rings[0]["pairwise"] for v in row)
    code, out = run(capsys, "clusters", "--db", db, "--threshold", "0.5", "-q")
    assert "a ring, every pair near-identical" in out


def test_copies_in_half_a_small_folder_are_counted_and_say_why(tmp_path, capsys) -> None:
    """Five copies of one proposal among eight files reach the automatic rule: `pairs` reports
    them, `common` lists their text as counted because its documents copy one another."""
    folder = tmp_path / "folder"
    folder.mkdir()
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "ingest"
    for i, source in enumerate(("zh.docx", "zh.doc", "zh.wps", "zh.docm", "zh.docx")):
        shutil.copy(fixtures / source, folder / f"copy-{i}{Path(source).suffix}")
    for source in ("en.docx", "report.odt", "en.dotx"):
        shutil.copy(fixtures / source, folder / source)
    db = str(tmp_path / "f.ndx")
    assert main(["index", str(folder), "--db", db, "-q"]) == EXIT_OK
    pairs = _pair_names(run(capsys, "pairs", "--db", db, "--threshold", "0.9", "--json", "-q")[1])
    assert {frozenset((f"copy-{a}", f"copy-{b}")) for a in range(5) for b in range(a + 1, 5)} == {
        frozenset(Path(n).stem for n in key) for key in pairs if all(n.startswith("copy-") for n in key)}
    data = json.loads(run(capsys, "common", "--db", db, "--json", "-q")[1])
    copied = [p for p in data["passages"] if p["documents"] == 5]
    assert len(copied) == 1 and copied[0]["status"] == "counted" and copied[0]["copied"] is True
    code, out = run(capsys, "common", "--db", db, "-q")
    assert code == EXIT_OK and "counted (copies)" in out
    assert "unless those documents copy one another" in out
