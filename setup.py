"""The optional compiled parts: Myers' diff without a clock (neardup_gui/core/_myers.c), three
steps of a comparison (neardup_gui/core/_kernels.c) and the units of a text (neardup_gui/core/_units.c).

Built when a C compiler is at hand (``pip install -e .`` does it); without one the package
installs all the same and core/compare.py and core/units.py use diff-match-patch and numpy instead (same answers).
"""
from setuptools import Extension, setup

setup(ext_modules=[
    Extension(f"neardup_gui.core.{name}", [f"neardup_gui/core/{name}.c"], optional=True, extra_compile_args=["-O2"])
    for name in ("_myers", "_kernels", "_units")
])
