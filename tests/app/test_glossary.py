"""One name for each figure: docs/glossary.md's names are the ones the window, the reports, the CLI
and the help (F1) use, in English and Chinese, and the names it retires appear nowhere."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from neardup_gui.cli.collection import run_check
from neardup_gui.core.report import strings
from neardup_gui.core.report.csv import HEADINGS_ZH

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
TS = ROOT / "resources" / "translations" / "neardup_zh_CN.ts"


def glossary() -> list[dict]:
    """The table's rows: figure, English, Chinese, the names it is not called."""
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] not in ("Figure", "---") and not set(cells[0]) <= {"-"}:
            rows.append({"figure": cells[0], "en": cells[1], "zh": cells[2],
                         "not": [n.strip() for n in cells[4].split(";") if n.strip()]})
    return rows


def _bare(text: str) -> str:
    """A label as a name: no accelerator, no colon, no "…"; lower case for English."""
    return re.sub(r"[:：…]$", "", text.replace("&", "").strip()).strip().lower()


def ts_messages() -> list[tuple[str, str, str]]:
    out = []
    for context in ET.parse(TS).getroot().iter("context"):
        name = context.find("name").text
        for message in context.iter("message"):
            tr = message.find("translation")
            form = tr.find("numerusform")
            out.append((name, message.find("source").text, (form.text if form is not None else tr.text) or ""))
    return out


def help_names(qapp, language: str) -> list[str]:
    from neardup_gui.app.helpview import HelpDialog
    from neardup_gui.app.i18n import Translations

    translations = Translations(qapp)
    try:
        assert translations.switch(language)
        dialog = HelpDialog()
        names = [name for name, _ in dialog.figures()]
        dialog.deleteLater()
        return names
    finally:
        translations.switch("en")


def test_the_glossary_lists_the_figures():
    rows = glossary()
    assert {r["figure"] for r in rows} >= {"copied", "copied_without_quotes", "largest_source", "similarity",
                                          "a_in_b", "identical_units", "copied_units", "units", "template_share"}
    chinese = {r["figure"]: r["zh"] for r in rows}
    assert (chinese["copied"], chinese["copied_without_quotes"], chinese["largest_source"]) == (
        "总文字复制比", "去除引用文献复制比", "单篇最大文字复制比")  # CNKI's


def test_a_label_with_a_figures_english_name_has_its_chinese_name():
    """Every label of the window and of the reports that is a figure's English name is translated
    to that figure's Chinese name (two figures share "Copied": the whole text's and a section's)."""
    allowed: dict[str, set[str]] = {}
    for r in glossary():
        allowed.setdefault(_bare(r["en"]), set()).add(r["zh"])
    wrong = []
    for context, source, zh in ts_messages():
        if _bare(source) in allowed and re.sub(r"[:：…]$|\(&\w\)", "", zh).strip() not in allowed[_bare(source)]:
            wrong.append((context, source, zh))
    for key, (en, zh) in strings._CATALOG.items():
        if _bare(en) in allowed and zh not in allowed[_bare(en)]:
            wrong.append(("report", key, zh))
    assert not wrong


def test_every_figure_is_named_in_the_window_and_the_reports():
    sources = {_bare(s) for _, s, _ in ts_messages()}
    catalog = {_bare(en) for en, _ in strings._CATALOG.values()}
    for r in glossary():
        if r["figure"] in ("section_copied",):  # (named "Copied" in the sections table, as copied is)
            continue
        where = [name for name, found in (("window", _bare(r["en"]) in sources),
                                          ("reports", _bare(r["en"]) in catalog)) if found]
        assert where, f"{r['figure']}: {r['en']!r} is named nowhere"


def test_retired_names_appear_nowhere():
    """A retired name is never a label (exactly), and a retired phrase of two or more words never
    appears inside any text of the window, the reports, the CSV headings or the CLI."""
    retired = [n for r in glossary() for n in r["not"]]
    cli = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "neardup_gui" / "cli").glob("*.py")))
    texts = [t for _, s, zh in ts_messages() for t in (s, zh)]
    texts += [t for pair in strings._CATALOG.values() for t in pair] + list(HEADINGS_ZH.values())
    found = []
    for name in retired:
        phrase = " " in name or re.search(r"[\u4e00-\u9fff]{5,}", name)
        for text in texts:
            if _bare(text) == _bare(name) or (phrase and name.lower() in text.lower()):
                found.append((name, text))
        if " " in name and name.lower() in cli.lower():
            found.append((name, "the command line (neardup_gui/cli/)"))
    assert not found


def test_the_help_names_each_figure_as_the_glossary_does(qapp):
    rows = glossary()
    english = {r["en"] for r in rows}
    chinese = {r["zh"] for r in rows}
    en_names, zh_names = help_names(qapp, "en"), help_names(qapp, "zh_CN")
    figures = [(e, z) for e, z in zip(en_names, zh_names) if e in english]
    assert len(figures) >= 10
    by_en = {}
    for r in rows:
        by_en.setdefault(r["en"], set()).add(r["zh"])
    for en, zh in figures:
        assert zh in by_en[en] and zh in chinese, (en, zh)


def test_the_command_line_says_the_glossarys_names(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    text = ("Sandy beaches protect coastal towns, roads and wetlands from storm waves, yet many of them are "
            "retreating along our regional coastline after three winter storms.")
    a.write_text(text, encoding="utf-8")
    b.write_text(text.replace("three", "two"), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "compare", str(a), str(b)], capture_output=True,
                         text=True, cwd=ROOT, check=True).stdout
    for name in ("similarity r", "A in B", "B in A", "identical units"):
        assert name in out, name


@pytest.mark.parametrize("name", ["copied", "copied without quotations", "largest single source",
                                  "share of the submission", "similarity r"])
def test_the_check_command_names_its_figures(name):
    check = inspect.getsource(run_check)
    assert name in check
