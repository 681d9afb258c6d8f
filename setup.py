"""The optional compiled parts: Myers' diff without a clock (neardup_gui/core/_myers.c), three
steps of a comparison (neardup_gui/core/_kernels.c), the units of a text (neardup_gui/core/_units.c),
and a PDF page's visual lines and glyphs (neardup_gui/core/extract/pdf/_lines.c, _pdfium.c).

Built when a C compiler is at hand (``pip install -e .`` does it); without one the package
installs all the same and core/compare.py, core/units.py and core/extract/pdf use diff-match-patch,
numpy and Python instead (same answers).
"""
from setuptools import Extension, setup

setup(ext_modules=[
    Extension(f"neardup_gui.{name.replace('/', '.')}", [f"neardup_gui/{name}.c"], optional=True,
              extra_compile_args=["-O2"])
    for name in ("core/_myers", "core/_kernels", "core/_units", "core/extract/pdf/_lines", "core/extract/pdf/_pdfium")
])
