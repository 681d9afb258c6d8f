"""Every user-visible string of the app has a Chinese translation, and the compiled file is current."""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
TS = ROOT / "resources" / "translations" / "neardup_zh_CN.ts"
QM = ROOT / "resources" / "translations" / "neardup_zh_CN.qm"


def messages(path: Path) -> dict[tuple[str, str], str]:
    found = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.find("name").text
        for message in context.iter("message"):
            translation = message.find("translation")
            form = translation.find("numerusform")  # a %n message: Chinese has one plural form
            text = form.text if form is not None else translation.text
            found[(name, message.find("source").text)] = (
                "" if translation.get("type") in ("unfinished", "vanished", "obsolete") else (text or "")
            )
    return found


def test_every_string_in_the_source_is_translated(tmp_path):
    lupdate = Path(sys.executable).parent / "pyside6-lupdate"
    if not lupdate.exists():
        lupdate = Path(shutil.which("pyside6-lupdate") or "")
    if not lupdate.is_file():
        pytest.skip("pyside6-lupdate not installed")
    fresh = tmp_path / "fresh.ts"
    sources = sorted(str(p) for p in (ROOT / "neardup_gui" / "app").glob("*.py"))
    subprocess.run([str(lupdate), *sources, "-ts", str(fresh), "-no-obsolete"], check=True, capture_output=True)
    wanted = set(messages(fresh))
    have = messages(TS)
    missing = sorted(k for k in wanted if not have.get(k))
    assert not missing, f"untranslated: {missing[:5]}"
    assert len(wanted) > 150


def test_translations_keep_their_placeholders():
    import re

    for (context, source), translation in messages(TS).items():
        assert set(re.findall(r"\{[^}]*\}", source)) == set(re.findall(r"\{[^}]*\}", translation)), (context, source)


def test_the_compiled_file_holds_every_translation_of_the_source(qapp):
    from PySide6.QtCore import QTranslator

    translator = QTranslator()
    assert translator.load(str(QM))
    for (context, source), translation in messages(TS).items():
        n = 2 if "%n" in source else -1  # a %n message is looked up with its count
        assert translator.translate(context, source, None, n) == translation, (context, source)
