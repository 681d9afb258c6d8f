"""The compiled parts are built wherever they can be: setup.py builds them whenever a C compiler
and Python's headers are at hand (``make test`` installs gcc); a silent build failure would leave
the slower paths in place unnoticed (the answers are the same without them: test_compiled_optional)."""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

import pytest

from neardup_gui.core import align as align_module
from neardup_gui.core import compare, units
from neardup_gui.core.extract.pdf import fium, lines


@pytest.mark.parametrize("name, module", [("_myers", lambda: align_module._myers), ("_kernels", lambda: compare._kernels),
                                          ("_units", lambda: units._compiled_units),
                                          ("extract/pdf/_lines", lambda: lines._compiled_lines),
                                          ("extract/pdf/_pdfium", lambda: fium._compiled_pdfium)])
def test_built_where_a_compiler_is(name, module) -> None:
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if (shutil.which("cc") or shutil.which("gcc")) and headers.is_file():
        assert module() is not None, f"neardup_gui/core/{name}.c was not built (pip install -e . prints why)"
