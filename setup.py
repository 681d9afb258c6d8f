"""The optional compiled part: Myers' diff without a clock (neardup_gui/core/_myers.c).

Built when a C compiler is at hand (``pip install -e .`` does it); without one the package
installs all the same and core/compare.py aligns with diff-match-patch instead (same answers).
"""
from setuptools import Extension, setup

setup(ext_modules=[Extension("neardup_gui.core._myers", ["neardup_gui/core/_myers.c"], optional=True,
                             extra_compile_args=["-O2"])])
