"""`neardup add`: a file joins the collection, copied or kept outside, and the next refresh keeps it;
the collection's own settings (saved by the app) apply to the command line too."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from neardup_gui.cli import EXIT_OK, EXIT_USAGE, main
from neardup_gui.core.collection import Collection
from neardup_gui.core.settings import Settings

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample"


def run(capsys, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(list(args))
    return code, capsys.readouterr().out


def test_add_external_and_copied_members_survive_a_refresh(tmp_path, capsys):
    folder = tmp_path / "call"
    folder.mkdir()
    for name in ("en-01-coastal-erosion.docx", "en-05-dementia-speech.txt", "zh-04-山区滑坡监测.txt"):
        shutil.copy(SAMPLE / name, folder / name)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    late = inbox / "en-10-glacier-hydrology.txt"
    shutil.copy(SAMPLE / late.name, late)
    clash = inbox / "en-05-dementia-speech.txt"
    shutil.copy(SAMPLE / "en-15-coral-acoustics.txt", clash)
    db = tmp_path / "c.ndx"
    assert main(["index", str(folder), "--db", str(db), "-q"]) == EXIT_OK

    code, out = run(capsys, "add", str(late), "--db", str(db), "--json", "-q")
    assert code == EXIT_OK
    assert json.loads(out) == [{"file": str(late), "member": str(late), "how": "external", "skipped_reason": None}]
    code, out = run(capsys, "add", str(clash), "--db", str(db), "--copy", "-q")
    assert code == EXIT_OK
    assert f"copied into the folder as {folder / 'en-05-dementia-speech (2).txt'}" in out
    assert (folder / "en-05-dementia-speech.txt").read_bytes() == (SAMPLE / "en-05-dementia-speech.txt").read_bytes()

    code, out = run(capsys, "index", str(folder), "--db", str(db), "--json", "-q")
    report = json.loads(out)
    assert report["removed"] == 0 and report["indexed"] == 5

    code, _ = run(capsys, "add", str(tmp_path / "nope.txt"), "--db", str(db))
    assert code == EXIT_USAGE


def test_the_collection_settings_apply_to_pairs(tmp_path, capsys):
    folder = tmp_path / "sample"
    shutil.copytree(SAMPLE, folder)
    db = tmp_path / "c.ndx"
    assert main(["index", str(folder), "--db", str(db), "-q"]) == EXIT_OK
    _, out = run(capsys, "pairs", "--db", str(db), "--json", "-q")
    default_pairs = json.loads(out)
    with Collection.open(db) as coll:
        coll.save_settings(Settings(threshold=0.85))
    _, out = run(capsys, "pairs", "--db", str(db), "--json", "-q")
    high = json.loads(out)
    assert high == [p for p in default_pairs if p["similarity"] >= 0.85] and len(high) < len(default_pairs)
    _, out = run(capsys, "pairs", "--db", str(db), "--json", "-q", "--threshold", "0.7")  # an option wins
    assert json.loads(out) == default_pairs
