"""The optional compiled parts: Myers' diff without a clock (neardup_gui/core/_myers.c) and three
steps of a comparison (neardup_gui/core/_kernels.c).

Built when a C compiler is at hand (``pip install -e .`` does it); without one the package
installs all the same and core/compare.py uses diff-match-patch and numpy instead (same answers).
"""
from setuptools import Extension, setup

setup(ext_modules=[
    Extension(f"neardup_gui.core.{name}", [f"neardup_gui/core/{name}.c"], optional=True, extra_compile_args=["-O2"])
    for name in ("_myers", "_kernels")
])
