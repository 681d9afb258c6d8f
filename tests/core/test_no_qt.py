"""Core must never import Qt: checked by reading the source and by importing it in a clean process."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "neardup_gui" / "core"
QT_IMPORT = re.compile(r"^\s*(from|import)\s+(PySide6|shiboken6|PyQt5|PyQt6)\b", re.MULTILINE)


def test_no_qt_import_statement_in_core():
    offenders = [str(p) for p in CORE.rglob("*.py") if QT_IMPORT.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_importing_every_core_module_loads_no_qt():
    modules = sorted(
        "neardup_gui." + ".".join(p.relative_to(CORE.parent).with_suffix("").parts).replace(".__init__", "")
        for p in CORE.rglob("*.py")
    )
    assert "neardup_gui.core.units" in modules
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'PyQt5', 'PyQt6'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
