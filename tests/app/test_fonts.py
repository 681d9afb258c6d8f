"""English in a Latin font, Chinese in a CJK font: no full-width apostrophe in "it's"."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QFontMetricsF

from neardup_gui.app.i18n import install_cjk_font_fallback, interface_font, is_cjk_family


@pytest.fixture
def cjk(qapp) -> None:
    if "Noto Sans CJK SC" not in QFontDatabase.families():
        pytest.skip("fonts-noto-cjk not installed")


def narrow_latin_marks(font: QFont) -> bool:
    """The apostrophe and quotation marks are proportional (well narrower than an ideograph)."""
    m = QFontMetricsF(font)
    return all(m.horizontalAdvance(c) < 0.7 * m.horizontalAdvance("中") for c in "’‘“”")


@pytest.mark.parametrize("desktop", [["Noto Sans CJK SC"], ["Sans Serif"], ["DejaVu Sans"]])
def test_latin_family_first_whatever_the_desktop_font(cjk, desktop) -> None:
    base = QFont()
    base.setFamilies(desktop)
    font = interface_font(base)
    latin, cjk = font.families()
    assert not is_cjk_family(latin) and is_cjk_family(cjk)
    assert QFontInfo(font).family() == latin
    assert narrow_latin_marks(font)
    cjk_only = QFont()
    cjk_only.setFamilies(["Noto Sans CJK SC"])
    assert not narrow_latin_marks(cjk_only)  # (what the window drew before)


def test_the_application_font_draws_english_in_a_latin_font(qapp, cjk) -> None:
    before = qapp.font()
    try:
        fallback = QFont(before)
        fallback.setFamilies(["Sans Serif"])  # (the generic name Qt skipped, so the CJK family came first)
        qapp.setFont(fallback)
        assert install_cjk_font_fallback(qapp) == "Noto Sans CJK SC"
        assert not is_cjk_family(QFontInfo(qapp.font()).family())
        assert narrow_latin_marks(qapp.font())
    finally:
        qapp.setFont(before)
