"""Text a PDF hides from its reader: invisible, the colour of what lies under it, off the page,
or clipped away. Such text stays in the document's text (its offsets hold) and is marked hidden
(``Document.hidden``): it is not compared, and it is shown as hidden.

One rule for both readers, on arrays of a page's glyphs:

- **invisible**: render mode 3 (neither filled nor stroked) or 7 (a clip only), or every colour
  it is painted in fully transparent — except on a picture: a scanned page's text layer is
  drawn invisible over the scan, and is the page's visible text;
- **the colour of its background**: every colour it is painted in within ``SAME_COLOUR`` of the colour
  under its centre — the last filled shape drawn before it there, else the page's white (white
  on white; black on a black box). Over a picture the colour under it is unknown: not hidden;
- **too small to read**: drawn under ``MIN_VISIBLE_POINTS`` high (as in every format);
- **off the page**: its box does not meet the page's box;
- **clipped**: its box does not meet the box of its clip path.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from neardup_gui.core.extract.hiding import MIN_VISIBLE_POINTS, SAME_COLOUR

# Colours are 0xRRGGBBAA (PDFium's order); the same to the eye as extract/hiding.py says for
# every format (SAME_COLOUR on every channel).
_WHITE = 0xFFFFFFFF
# render modes (PDF 32000 9.3.6): which colours a glyph is painted in
_FILLED = np.array([1, 0, 1, 0, 1, 0, 1, 0], dtype=bool)
_STROKED = np.array([0, 1, 1, 0, 0, 1, 1, 0], dtype=bool)


@dataclass(frozen=True)
class Cover:
    """Something drawn on a page that text may lie over: its box, its colour (None for a picture
    or anything whose colour under the text is unknown), its place in the drawing order."""

    left: float
    bottom: float
    right: float
    top: float
    colour: int | None
    order: float


@dataclass(frozen=True)
class PageGlyphs:
    """What the rule asks of a page's glyphs, as arrays of one entry per glyph: their boxes and
    sizes, their render mode (-1 unknown: filled), fill and stroke colours (0xRRGGBBAA), their
    place in the drawing order, and the box of their clip path (NaN where there is none)."""

    x0: np.ndarray
    y0: np.ndarray
    x1: np.ndarray
    y1: np.ndarray
    size: np.ndarray
    render: np.ndarray
    fill: np.ndarray
    stroke: np.ndarray
    order: np.ndarray
    clip: np.ndarray  # (n, 4): left, bottom, right, top


def hidden(glyphs: PageGlyphs, page_box: tuple[float, float, float, float], covers: list[Cover]) -> np.ndarray:
    """Whether each glyph is hidden (a bool array)."""
    n = len(glyphs.x0)
    if n == 0:
        return np.zeros(0, dtype=bool)
    render = np.where((glyphs.render >= 0) & (glyphs.render <= 7), glyphs.render, 0).astype(np.int64)
    filled = _FILLED[render] & (glyphs.fill & 255 > 0)
    stroked = _STROKED[render] & (glyphs.stroke & 255 > 0)
    cx, cy = (glyphs.x0 + glyphs.x1) / 2, (glyphs.y0 + glyphs.y1) / 2
    under = np.full(n, _WHITE, dtype=np.int64)  # the colour under each glyph; -1 unknown
    best = np.full(n, -np.inf)
    on_picture = np.zeros(n, dtype=bool)  # a picture drawn there, before or after the glyph
    for cover in covers:
        inside = (cover.left <= cx) & (cx <= cover.right) & (cover.bottom <= cy) & (cy <= cover.top)
        there = inside & (cover.order < glyphs.order) & (cover.order > best)
        under[there] = -1 if cover.colour is None else cover.colour
        best[there] = cover.order
        if cover.colour is None:
            on_picture |= inside
    invisible = ~filled & ~stroked
    camouflaged = ~invisible & (~filled | _same(glyphs.fill, under)) & (~stroked | _same(glyphs.stroke, under))
    result = (invisible & ~on_picture) | (camouflaged & (under >= 0))
    left, bottom, right, top = page_box
    result |= (glyphs.x1 < left) | (glyphs.x0 > right) | (glyphs.y1 < bottom) | (glyphs.y0 > top)
    result |= glyphs.size < MIN_VISIBLE_POINTS
    clip = glyphs.clip
    with np.errstate(invalid="ignore"):
        clipped = (glyphs.x1 < clip[:, 0]) | (glyphs.y1 < clip[:, 1]) | (glyphs.x0 > clip[:, 2]) | (glyphs.y0 > clip[:, 3])
    return result | clipped


def _same(colours: np.ndarray, under: np.ndarray) -> np.ndarray:
    """Whether each colour's red, green and blue are within ``SAME_COLOUR`` of the colour under it."""
    a = colours.astype(np.int64)
    same = np.ones(len(a), dtype=bool)
    for shift in (24, 16, 8):
        same &= np.abs(((a >> shift) & 255) - ((under >> shift) & 255)) <= SAME_COLOUR
    return same
