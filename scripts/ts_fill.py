#!/usr/bin/env python3
"""Update the Chinese translation file from the source, keeping every translation already made.

`pyside6-lupdate` keys a translation by (context, source); when a string moves to another class
(a tab split into its own view module) its context changes and lupdate would drop the work.
This runs lupdate, then fills each unfinished message from any earlier translation of the same
source text (in any context, including the extra .ts files given, e.g. from other branches), and
compiles the .qm. Usage: scripts/ts_fill.py [PYTHON] [EXTRA.ts ...]
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TS = ROOT / "resources" / "translations" / "neardup_zh_CN.ts"
QM = TS.with_suffix(".qm")
# English's own translation holds only the plural forms of the counted messages (lupdate
# -pluralonly): "%n source(s) found" → "%n source found", "%n sources found". A form written by
# hand in the file is kept; a new message gets the forms the "(s)" convention gives.
TS_EN = ROOT / "resources" / "translations" / "neardup_en.ts"


def _text(translation: ET.Element) -> str:
    """A translation's text; for a %n (numerus) message, its first plural form."""
    form = translation.find("numerusform")
    return (form.text if form is not None else translation.text) or ""


def known(paths: list[Path]) -> tuple[dict[tuple[str, str], str], dict[str, str]]:
    """Finished translations by (context, source) and by source alone."""
    by_key: dict[tuple[str, str], str] = {}
    by_source: dict[str, str] = {}
    for path in paths:
        for context in ET.parse(path).getroot().iter("context"):
            name = context.find("name").text
            for message in context.iter("message"):
                tr = message.find("translation")
                if tr is None or tr.get("type") in ("unfinished", "vanished", "obsolete") or not _text(tr):
                    continue
                source = message.find("source").text
                by_key[(name, source)] = _text(tr)
                by_source.setdefault(source, _text(tr))
    return by_key, by_source


def english_plurals(bindir: Path, sources: list[str]) -> None:
    """Update neardup_en.ts (plural forms only) and compile it."""
    subprocess.run([str(bindir / "pyside6-lupdate"), "-pluralonly", *sources, "-ts", str(TS_EN), "-no-obsolete",
                    "-source-language", "en", "-target-language", "en"], check=True)
    text = TS_EN.read_text(encoding="utf-8")
    tree = ET.parse(TS_EN)
    for message in tree.getroot().iter("message"):
        tr = message.find("translation")
        forms = tr.findall("numerusform")
        if tr.get("type") != "unfinished" and all(f.text for f in forms):
            continue
        source = message.find("source").text
        while len(forms) < 2:
            forms.append(ET.SubElement(tr, "numerusform"))
        forms[0].text, forms[1].text = source.replace("(s)", ""), source.replace("(s)", "s")
        tr.attrib.pop("type", None)
    TS_EN.write_text(text[: text.index("<TS")] + ET.tostring(tree.getroot(), encoding="unicode") + "\n",
                     encoding="utf-8")
    subprocess.run([str(bindir / "pyside6-lrelease"), str(TS_EN), "-qm", str(TS_EN.with_suffix(".qm"))], check=True)


def main() -> int:
    bindir = Path(sys.argv[1]).parent if len(sys.argv) > 1 else Path(sys.executable).parent
    extra = [Path(p) for p in sys.argv[2:]]
    by_key, by_source = known([TS, *extra])
    sources = sorted(str(p) for p in (ROOT / "neardup_gui" / "app").glob("*.py"))
    subprocess.run([str(bindir / "pyside6-lupdate"), *sources, "-ts", str(TS), "-no-obsolete"], check=True)
    text = TS.read_text(encoding="utf-8")
    tree = ET.parse(TS)
    missing = 0
    for context in tree.getroot().iter("context"):
        name = context.find("name").text
        for message in context.iter("message"):
            tr = message.find("translation")
            if tr.get("type") != "unfinished" and _text(tr):
                continue
            source = message.find("source").text
            found = by_key.get((name, source)) or by_source.get(source)
            if found:
                forms = tr.findall("numerusform")
                for form in forms:  # a %n message: Chinese has one plural form
                    form.text = found
                if not forms:
                    tr.text = found
                tr.attrib.pop("type", None)
            else:
                missing += 1
                print(f"untranslated: [{name}] {source}")
    head = text[: text.index("<TS")]
    body = ET.tostring(tree.getroot(), encoding="unicode")
    TS.write_text(head + body + "\n", encoding="utf-8")
    subprocess.run([str(bindir / "pyside6-lrelease"), str(TS), "-qm", str(QM)], check=True)
    english_plurals(bindir, sources)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
