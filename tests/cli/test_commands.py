"""`neardup index / check / pairs / clusters / compare` in this process, on the bundled sample
collection: the JSON the README documents, and the exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from neardup_gui.cli import EXIT_INDEX, EXIT_OK, EXIT_SKIPPED, EXIT_USAGE, main

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"
EN_SOURCE, EN_RESUB = "en-01-coastal-erosion.docx", "en-02-shoreline-retreat.pdf"
ZH_SOURCE, ZH_RESUB = "zh-01-水稻抗旱基因.docx", "zh-02-水稻干旱响应调控.pdf"


def run(capsys, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(list(args))
    return code, capsys.readouterr().out


@pytest.fixture(scope="module")
def indexed(tmp_path_factory) -> tuple[Path, Path]:
    """(folder, index): the sample collection indexed by `neardup index`."""
    base = tmp_path_factory.mktemp("cli")
    folder = base / "sample"
    shutil.copytree(SAMPLE, folder)
    db = base / "sample.ndx"
    assert main(["index", str(folder), "--db", str(db), "-q"]) == EXIT_OK
    return folder, db


def test_index_json_reports_the_run(indexed, capsys):
    folder, db = indexed
    code, out = run(capsys, "index", str(folder), "--db", str(db), "--json", "-q")  # again: nothing new
    assert code == EXIT_OK
    report = json.loads(out)
    assert report["indexed"] == 30 and report["added"] == 0 and report["unchanged"] == 30
    assert report["skipped"] == []


def test_check_json_ranks_the_source_first(indexed, capsys, tmp_path):
    folder, db = indexed
    # the resubmissions (their own entries in the index are not sources) and an unreadable
    # file: exit 1, the others still checked
    en, zh = folder / EN_RESUB, folder / ZH_RESUB
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"not a zip")
    code, out = run(capsys, "check", str(en), str(broken), str(zh), "--db", str(db), "--json", "-q", "--top", "3")
    assert code == EXIT_SKIPPED
    results = json.loads(out)
    assert [Path(r["path"]).name for r in results] == [EN_RESUB, "broken.docx", ZH_RESUB]  # the order given
    for r, source in ((results[0], EN_SOURCE), (results[2], ZH_SOURCE)):
        matches = r["matches"]
        assert Path(matches[0]["path"]).name == source
        assert matches[0]["similarity"] > 0.7 and matches[0]["containment"] > 0.8
        assert len(matches) <= 3
        keys = [(m["containment"], m["similarity"]) for m in matches]
        assert keys == sorted(keys, reverse=True)  # best first
    assert results[1]["matches"] == [] and "damaged Word document" in results[1]["skipped_reason"]


FORMS = [str(SAMPLE.parent / "sample_src" / f"_form-{lang}.md") for lang in ("en", "zh")]
TEMPLATE_GROUP = {f"{lang}-0{i}" for lang in ("en", "zh") for i in range(5, 10)}


def test_pairs_and_clusters_json(indexed, capsys):
    _, db = indexed
    templates = [arg for form in FORMS for arg in ("--template", form)]
    code, out = run(capsys, "pairs", "--db", str(db), "--threshold", "0.5", "--json", "-q", *templates)
    assert code == EXIT_OK
    listed = json.loads(out)
    pairs = {frozenset((Path(p["a"]).name, Path(p["b"]).name)): p["similarity"] for p in listed}
    assert set(pairs) == {frozenset((EN_SOURCE, EN_RESUB)), frozenset((ZH_SOURCE, ZH_RESUB))}
    assert all(0.7 < s < 1.0 for s in pairs.values())
    assert all("template_files" in p["exclusions"]["applied"] for p in listed)
    code, out = run(capsys, "clusters", "--db", str(db), "--threshold", "0.5", "--json", "-q", *templates)
    assert code == EXIT_OK
    clusters = json.loads(out)
    members = sorted(sorted(Path(m["path"]).name for m in c["members"]) + [Path(c["representative"]).name] for c in clusters)
    assert len(clusters) == 2 and all(EN_SOURCE in m or ZH_SOURCE in m for m in members)
    assert not any(c["ring"] for c in clusters)


def test_a_form_in_a_sixth_of_the_collection_counts_unless_given(indexed, capsys):
    """Issue 14: the sample's forms are each in 5 of 30 documents, far below the automatic rule
    (half the collection): without the form files, the form-only pairs are reported at 0.5."""
    _, db = indexed
    code, out = run(capsys, "pairs", "--db", str(db), "--threshold", "0.5", "--json", "-q")
    assert code == EXIT_OK
    names = {frozenset((Path(p["a"]).name[:5], Path(p["b"]).name[:5])) for p in json.loads(out)}
    group_pairs = {n for n in names if n <= TEMPLATE_GROUP}
    assert len(group_pairs) == 20  # 10 per language: what the form alone makes alike (EXPECTED.md)
    assert frozenset(("en-01", "en-02")) in names and frozenset(("zh-01", "zh-02")) in names
    code, out = run(capsys, "pairs", "--db", str(db), "--json", "-q")  # the default threshold 0.7
    assert {frozenset((Path(p["a"]).name[:5], Path(p["b"]).name[:5])) for p in json.loads(out)} == {
        frozenset(("en-01", "en-02")), frozenset(("zh-01", "zh-02"))}


def test_compare_two_files_without_an_index(indexed, capsys):
    folder, _ = indexed
    code, out = run(capsys, "compare", str(folder / EN_SOURCE), str(folder / EN_RESUB), "--json")
    assert code == EXIT_OK
    comp = json.loads(out)
    assert 0.8 < comp["similarity"] < 1.0 and comp["spans"] and comp["passages"]


def test_compare_reports_an_edited_copy_as_one_passage(capsys, tmp_path):
    """A Chinese text copied with one word in five replaced, written as DOCX: `compare --json`
    gives one passage whose identical runs are fewer units than it covers (issue 15)."""
    import random
    import sys

    import docx

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import obfuscate as ob

    from tests.corpus import corpus_dir

    files = sorted((corpus_dir() / "debian-reference-zh-cn").glob("*.txt"))
    source = files[30].read_text(encoding="utf-8")
    vocab = ob.chinese_vocab([f.read_text(encoding="utf-8") for f in files[60:70]])
    edited = ob.obfuscate(source, "zh", 0.2, vocab, random.Random(5))
    paths = []
    for name, text in (("source.docx", source), ("edited.docx", edited)):
        d = docx.Document()
        for para in text.split("\n\n"):
            d.add_paragraph(para.strip())
        d.save(str(tmp_path / name))
        paths.append(str(tmp_path / name))
    code, out = run(capsys, "compare", paths[1], paths[0], "--json")
    assert code == EXIT_OK
    comp = json.loads(out)
    assert len(comp["passages"]) == 1 and len(comp["spans"]) > 5
    passage = comp["passages"][0]
    assert passage["identical_units"] < passage["units_a"] and len(passage["runs"]) > 5
    assert comp["containment_a"] >= 0.9 > comp["common_units"] / comp["units_a"]
    code, out = run(capsys, "compare", paths[1], paths[0])
    assert out.count("identical]") == 1


def test_exit_codes_for_a_damaged_index_and_usage(indexed, capsys, tmp_path):
    folder, db = indexed
    damaged = tmp_path / "damaged.ndx"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4096)
    code, _ = run(capsys, "check", str(folder / EN_RESUB), "--db", str(damaged), "-q")
    assert code == EXIT_INDEX
    assert damaged.read_bytes().startswith(b"SQLite format 3\x00\xff")  # detected, not overwritten
    with pytest.raises(SystemExit) as exc:
        main(["check", "--db", str(db)])  # no file given
    assert exc.value.code == EXIT_USAGE


def test_index_names_the_files_of_other_formats_it_leaves_out(tmp_path, capsys):
    """A folder's files of no format neardup reads (an archive, a README, a budget sheet) were
    left out in silence: now counted and named, without changing the exit code."""
    folder = tmp_path / "call"
    folder.mkdir()
    shutil.copy(SAMPLE / EN_SOURCE, folder / EN_SOURCE)
    names = ["README.xlsx", "budget.xlsx", "site.tar.gz", *(f"scan-{i}.png" for i in range(5))]
    for name in names:
        (folder / name).write_bytes(b"not a document neardup reads")
    db = str(tmp_path / "call.ndx")
    code, out = run(capsys, "index", str(folder), "--db", db, "-q")
    assert code == EXIT_OK
    assert ("8 files of other formats left out (neardup reads .docx .doc .wps .pdf .txt .odt .rtf .md .html "
            ".docm .dot .dotm .dotx .htm .wpt .gz, and by its content a file named without a type): "
            "README.xlsx, budget.xlsx, scan-0.png, scan-1.png, scan-2.png and 3 more (--json lists them all)") in out
    assert "1 document indexed" in out and "0 skipped" in out
    code, out = run(capsys, "index", str(folder), "--db", db, "--json", "-q")
    assert code == EXIT_OK
    assert json.loads(out)["other_files"] == [str(folder / n) for n in sorted(names)]
    for name in names:
        (folder / name).unlink()
    code, out = run(capsys, "index", str(folder), "--db", db, "-q")
    assert "other formats" not in out


def test_an_index_kept_in_its_own_folder_is_not_among_the_other_files(tmp_path, capsys):
    """`neardup index . --db proposals.ndx`: the index, its WAL and shared memory and the
    screenings' indexes beside it were named as "files of other formats" of the folder, by every
    index and screen run after the first."""
    folder = tmp_path / "call"
    folder.mkdir()
    shutil.copy(SAMPLE / EN_SOURCE, folder / EN_SOURCE)
    shutil.copy(SAMPLE / EN_RESUB, folder / EN_RESUB)
    (folder / "budget.xlsx").write_bytes(b"not a document neardup reads")
    db = str(folder / "proposals.ndx")
    for _ in range(2):
        code, out = run(capsys, "index", str(folder), "--db", db, "--json", "-q")
        assert code == EXIT_OK and json.loads(out)["other_files"] == [str(folder / "budget.xlsx")]
        code, out = run(capsys, "screen", str(folder), "--db", db, "--json", "-q")
        assert code == EXIT_OK and json.loads(out)["other_files"] == [str(folder / "budget.xlsx")]
    assert (folder / "proposals.ndx.screenings").is_dir()  # (there, and still not named)


def test_an_index_path_that_is_a_folder_is_refused_and_left_untouched(tmp_path, capsys):
    """Before: a traceback (IsADirectoryError reading its header)."""
    folder = tmp_path / "call"
    folder.mkdir()
    shutil.copy(SAMPLE / EN_SOURCE, folder / EN_SOURCE)
    (tmp_path / "indexes").mkdir()
    (tmp_path / "indexes" / "keep.txt").write_text("mine", encoding="utf-8")
    capsys.readouterr()
    assert main(["index", str(folder), "--db", str(tmp_path / "indexes"), "-q"]) == EXIT_INDEX
    err = capsys.readouterr().err
    assert f"{tmp_path / 'indexes'} is a folder, not an index file. It was left untouched" in err
    assert [p.name for p in (tmp_path / "indexes").iterdir()] == ["keep.txt"]


def test_files_named_without_a_type_are_indexed_checked_and_compared_by_content(tmp_path, capsys):
    """A folder of Debian copyright files as they are named (``copyright``, ``python3.11``), a
    man page saved as ``ls.1``, a proposal saved without its suffix: all read by their content,
    paired as the same files named ``.txt``/``.docx`` would be; a program beside them is named
    among the other files; `extract` says why a binary file is not a document."""
    folder = tmp_path / "docs"
    folder.mkdir()
    text = (SAMPLE / "en-05-dementia-speech.txt").read_text(encoding="utf-8")
    (folder / "copyright").write_text(text, encoding="utf-8")
    (folder / "python3.11").write_text(text.replace("speech", "language"), encoding="utf-8")
    shutil.copy(SAMPLE / EN_SOURCE, folder / "proposal-2024")
    shutil.copy(SAMPLE / EN_RESUB, folder / "resubmission.v2")
    (folder / "run-me").write_bytes(bytes(range(256)) * 8)
    db = str(tmp_path / "d.ndx")
    code, out = run(capsys, "index", str(folder), "--db", db, "-q")
    assert code == EXIT_OK and "4 documents indexed" in out and "0 skipped" in out
    assert "1 file of other formats left out" in out and out.rstrip().endswith(": run-me")
    code, out = run(capsys, "pairs", "--db", db, "--threshold", "0.5", "--json", "-q")
    got = {frozenset((Path(p["a"]).name, Path(p["b"]).name)) for p in json.loads(out)}
    assert {frozenset(("copyright", "python3.11")), frozenset(("proposal-2024", "resubmission.v2"))} <= got
    code, out = run(capsys, "check", str(folder / "python3.11"), "--db", db, "--json", "-q")
    assert json.loads(out)[0]["matches"][0]["path"] == str(folder / "copyright")  # (itself is not its source)
    capsys.readouterr()
    assert main(["extract", str(folder / "run-me")]) == EXIT_SKIPPED
    assert "not a document: the file holds binary data" in capsys.readouterr().err
