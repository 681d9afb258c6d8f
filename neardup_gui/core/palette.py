"""The colours of copied text: one function for the window and for the reports on paper.

A passage (in the side-by-side view) or a source (in the submission view and the committee's
report) has a number; number ``i`` has one hue everywhere. Its identical text is a tint of that
hue, the edited words inside the passage a lighter tint of the same hue (the tint mixed towards
the background), so a copied-then-edited section reads as one passage and its edits still stand
out. On paper and in a light theme the tints are pastels under black text; in a dark theme they
are the hues mixed into the dark background, under light text. Template and excluded text is
grey. The window (app/colours.py) and the reports (core/report/html.py) both ask this module, so
a source is the same colour on screen as in its report.
"""

from __future__ import annotations

# Light backgrounds that stay readable under black text, told apart by hue.
PASTELS = ("#ffd8a8", "#b2f2bb", "#a5d8ff", "#fcc2d7", "#ffec99", "#d0bfff", "#99e9f2", "#e9fac8")
# The same hues at full strength: dark-theme tints and the overview bars' marks are mixed from them.
HUES = ("#ff922b", "#40c057", "#339af0", "#f06595", "#fab005", "#845ef7", "#22b8cf", "#94d82d")
PAPER = "#ffffff"
EDITED_BLEND = 0.55  # how far the edited words' shade moves from the passage's colour to the background
DARK_TINT = 0.36  # how much of the hue a dark theme's tint holds
MUTED_FOREGROUND = "#8c8c8c"  # template and excluded text, on paper and in a light theme
MUTED_BACKGROUND = "#f1f1f1"


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def mix(a: str, b: str, share_b: float) -> str:
    """``a`` with ``share_b`` of ``b`` mixed in (0: a, 1: b), as ``#rrggbb``."""
    t = min(max(share_b, 0.0), 1.0)
    return "#" + "".join(f"{round(x * (1 - t) + y * t):02x}" for x, y in zip(_rgb(a), _rgb(b)))


def passage_colours(index: int, background: str = PAPER, dark: bool = False) -> tuple[str, str]:
    """(identical text, edited words) backgrounds of passage or source ``index`` (0-based; the
    colours repeat after len(PASTELS), the numbers shown beside them tell those apart)."""
    k = index % len(PASTELS)
    exact = mix(background, HUES[k], DARK_TINT) if dark else PASTELS[k]
    return exact, mix(exact, background, EDITED_BLEND)


def marker_colour(index: int, background: str = PAPER, dark: bool = False) -> str:
    """The stronger shade of passage ``index``, for marks on the overview bars."""
    return mix(background, HUES[index % len(HUES)], 0.7 if dark else 0.6)


def muted_colours(background: str = PAPER, text: str = "#000000", dark: bool = False) -> tuple[str, str]:
    """(foreground, background) of template and excluded text: readable, plainly not the main text."""
    if not dark:
        return MUTED_FOREGROUND, MUTED_BACKGROUND
    return mix(text, background, 0.4), mix(background, text, 0.07)
