"""Every colour the app chooses, derived from the current palette so light and dark themes both read.

No colour here is fixed: each is the palette's own role (text, base, highlight) or a hue mixed
into the palette's base colour, so a dark theme (Breeze Dark, a dark Fusion palette) gets dark
tints with light text and a light theme gets pale tints with dark text. The style sheet rules
that need colours are generated here (``style_sheet``) and re-applied when the palette changes.
"""

from __future__ import annotations

import logging

from PySide6.QtGui import QColor, QGuiApplication, QPalette

from neardup_gui.core import palette as shared

log = logging.getLogger(__name__)

NOTICE_HUE = "#f0b400"  # amber: "this may be out of date"
ACCENT_HUE = "#339af0"  # blue: the check summary


def current() -> QPalette:
    return QGuiApplication.palette()


def is_dark(palette: QPalette | None = None) -> bool:
    """True when text is lighter than its background (a dark theme)."""
    p = palette or current()
    return p.color(QPalette.ColorRole.Base).lightness() < p.color(QPalette.ColorRole.Text).lightness()


def mix(a: QColor, b: QColor, share_b: float) -> QColor:
    """``a`` with ``share_b`` of ``b`` mixed in (0: a, 1: b)."""
    t = min(max(share_b, 0.0), 1.0)
    return QColor.fromRgbF(
        a.redF() * (1 - t) + b.redF() * t,
        a.greenF() * (1 - t) + b.greenF() * t,
        a.blueF() * (1 - t) + b.blueF() * t,
    )


def _tint(hue: str, palette: QPalette | None, light: float, dark: float) -> QColor:
    p = palette or current()
    return mix(p.color(QPalette.ColorRole.Base), QColor(hue), dark if is_dark(p) else light)


def text(palette: QPalette | None = None) -> QColor:
    return (palette or current()).color(QPalette.ColorRole.Text)


def passage_shades(index: int, palette: QPalette | None = None) -> tuple[QColor, QColor]:
    """(identical text, edited words) of passage or source ``index`` on this palette: the colours
    of :func:`neardup_gui.core.palette.passage_colours`, which the reports use too."""
    p = palette or current()
    exact, edited = shared.passage_colours(index, p.color(QPalette.ColorRole.Base).name(), is_dark(p))
    return QColor(exact), QColor(edited)


def match_colour(index: int, palette: QPalette | None = None) -> QColor:
    """Background of matched passage ``index`` (the same on both sides); text stays ``text()``."""
    return passage_shades(index, palette)[0]


def match_marker(index: int, palette: QPalette | None = None) -> QColor:
    """The stronger shade of a passage's colour, for the overview bars."""
    p = palette or current()
    return QColor(shared.marker_colour(index, p.color(QPalette.ColorRole.Base).name(), is_dark(p)))


def muted_colours(palette: QPalette | None = None) -> tuple[QColor, QColor]:
    """(foreground, background) of template and excluded text (the reports' grey in a light theme)."""
    p = palette or current()
    fg, bg = shared.muted_colours(p.color(QPalette.ColorRole.Base).name(), text(p).name(), is_dark(p))
    return QColor(fg), QColor(bg)


def muted_foreground(palette: QPalette | None = None) -> QColor:
    return muted_colours(palette)[0]


def muted_background(palette: QPalette | None = None) -> QColor:
    return muted_colours(palette)[1]


def overview_background(palette: QPalette | None = None) -> QColor:
    return (palette or current()).color(QPalette.ColorRole.AlternateBase)


def overview_muted(palette: QPalette | None = None) -> QColor:
    p = palette or current()
    return mix(p.color(QPalette.ColorRole.Base), p.color(QPalette.ColorRole.Text), 0.25)


def overview_frame(palette: QPalette | None = None) -> QColor:
    p = palette or current()
    return mix(p.color(QPalette.ColorRole.Base), p.color(QPalette.ColorRole.Text), 0.65)


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours (1 to 21); body text wants at least 4.5."""
    def luminance(c: QColor) -> float:
        def channel(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def style_sheet(palette: QPalette | None = None) -> str:
    """The style sheet rules whose colours come from ``palette`` (appended to resources/style)."""
    p = palette or current()
    fg = text(p).name()
    notice_bg = _tint(NOTICE_HUE, p, light=0.18, dark=0.28).name()
    notice_border = _tint(NOTICE_HUE, p, light=0.6, dark=0.6).name()
    summary_bg = _tint(ACCENT_HUE, p, light=0.1, dark=0.22).name()
    summary_border = _tint(ACCENT_HUE, p, light=0.4, dark=0.5).name()
    hint = mix(text(p), p.color(QPalette.ColorRole.Window), 0.35).name()  # secondary, still easy to read
    warning = mix(text(p), QColor(NOTICE_HUE), 0.45 if not is_dark(p) else 0.35).name()
    line = mix(p.color(QPalette.ColorRole.Window), text(p), 0.25).name()
    # the examiner's own selection in the texts: a translucent wash, the passages' colours show through it
    h = p.color(QPalette.ColorRole.Highlight)
    wash = f"rgba({h.red()}, {h.green()}, {h.blue()}, 90)"
    return f"""
QLabel#notice, QLabel#updatingNotice {{ background: {notice_bg}; color: {fg}; border: 1px solid {notice_border}; border-radius: 4px; padding: 6px; }}
QLabel#checkSummary {{ background: {summary_bg}; color: {fg}; border: 1px solid {summary_border}; border-radius: 4px; padding: 6px; }}
QLabel#checkSummary:disabled {{ color: {hint}; }}
QLabel#dropHint, QLabel#emptyHint, QLabel#figuresMeaning {{ color: {hint}; }}
QLabel#hiddenSources, QLabel#refingerprintNote {{ color: {warning}; }}
QWidget#progressPanel {{ border-top: 1px solid {line}; }}
QPlainTextEdit#paneA, QPlainTextEdit#paneB, QTextBrowser#submissionText {{ selection-background-color: {wash}; selection-color: {fg}; }}
"""


def dark_fusion_palette() -> QPalette:
    """A dark palette for the Fusion style, as a Breeze Dark user gets (screenshots, tests)."""
    p = QPalette()
    role = QPalette.ColorRole
    for r, c in ((role.Window, "#2b2b2b"), (role.WindowText, "#e6e6e6"), (role.Base, "#1e1e1e"),
                 (role.AlternateBase, "#262626"), (role.ToolTipBase, "#3a3a3a"), (role.ToolTipText, "#f0f0f0"),
                 (role.Text, "#e6e6e6"), (role.Button, "#353535"), (role.ButtonText, "#e6e6e6"),
                 (role.BrightText, "#ff6b6b"), (role.Highlight, "#3d7bd9"), (role.HighlightedText, "#ffffff"),
                 (role.Link, "#74b0ff"), (role.PlaceholderText, "#8c8c8c"), (role.Mid, "#3f3f3f"),
                 (role.Dark, "#1a1a1a"), (role.Light, "#4a4a4a"), (role.Shadow, "#000000")):
        p.setColor(r, QColor(c))
    for r in (role.Text, role.WindowText, role.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, r, QColor("#7a7a7a"))
    return p
