"""Page furniture of a PDF: running headers, footers and page numbers, found among page boxes."""

from __future__ import annotations

import math
import re
from collections import Counter

from neardup_gui.core.extract.pdf.lines import Box

PAGE_NUMBER_RE = re.compile(
    r"^(?:"
    r"(?:page|p\.|pp\.|seite|página)?\s*[-–—(\[]?\s*\d{1,4}\s*[-–—)\]]?"
    r"|(?:page\s*)?\d{1,4}\s*(?:/|of|von|de)\s*\d{1,4}"
    r"|第\s*[\d一二三四五六七八九十百]+\s*页(?:\s*[,，/]?\s*共\s*\d+\s*页)?"
    r"|[-–—]?\s*(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})\s*[-–—]?"
    r")$",
    re.I,
)
_DIGITS_RE = re.compile(r"\d+")
# Furniture is short: a title, an author, a date, a page number.
_MAX_FURNITURE_CHARS = 160

def _margin_groups(boxes: list[Box], height: float, pitch: float) -> list[int]:
    """Indices of the boxes set apart at the page's top and bottom edges.

    Walking in from an edge, boxes belong to the edge's group until the first gap that is
    clearly wider than the spacing of the body (1.5 line pitches, and 1.5 times the page's
    usual gap between boxes). Without such a gap within the first three boxes, the edge has
    no group: text that merely happens to be first or last on a page is body text.
    """
    wide = 1.5 * (pitch or 12.0)
    order = sorted(range(len(boxes)), key=lambda i: boxes[i].top)
    gaps = sorted(boxes[b].top - (height - boxes[a].bottom) for a, b in zip(order, order[1:]))
    if len(gaps) >= 3:
        wide = max(wide, 1.5 * gaps[len(gaps) // 2])
    found: list[int] = []
    for reach, position in (
        (lambda i: height - boxes[i].bottom, lambda i: boxes[i].top),  # from the top
        (lambda i: height - boxes[i].top, lambda i: boxes[i].bottom),  # from the bottom
    ):
        ranked = sorted(range(len(boxes)), key=position)
        edge = -1e9
        for k, i in enumerate(ranked[:4]):
            if k and position(i) - edge > wide:
                found.extend(ranked[:k])
                break
            edge = max(edge, reach(i))
    return found


def find_furniture(pages: list[list[Box]], heights: list[float], pitch: float) -> set[tuple[int, int]]:
    """(page, box) indices of running headers, footers and page numbers.

    A candidate is one of the two highest or two lowest short boxes of a page. Each paragraph
    is a box, so the first and last lines of a page's body are candidates too; a candidate is
    furniture when

    - its exact text recurs at the same place among the candidates of at least half of the
      pages (and at least three: two pages often start with the same words by chance), or
    - it is set apart from the body at the page edge (``_margin_groups``) and its text, digits
      ignored, recurs among such candidates of at least half of the pages (and two), or
    - it is outermost and looks like a page number, and it is set apart from the body or its
      number minus the page's index is shared with another page (numbers counting pages).
    """
    candidates: list[tuple[int, int, str, str, bool]] = []
    for p, boxes in enumerate(pages):
        short = [i for i, b in enumerate(boxes) if len(b.text) <= _MAX_FURNITURE_CHARS and b.lines <= 2]
        if not short or len(boxes) < 2:
            continue
        apart = set(_margin_groups(boxes, heights[p], pitch))
        by_top = sorted(range(len(boxes)), key=lambda i: boxes[i].top)[:2]
        by_bottom = sorted(range(len(boxes)), key=lambda i: boxes[i].bottom)[:2]
        for i in dict.fromkeys(by_top + by_bottom):
            if i in short:
                text = " ".join(boxes[i].text.lower().split())
                # Where it stands (to 3 pt) is part of the exact text's identity.
                place = f"t{round(boxes[i].top / 3)}" if i in by_top else f"b{round(boxes[i].bottom / 3)}"
                candidates.append((p, i, f"{place} {text}", _DIGITS_RE.sub("#", text), i in apart))
    exact_pages: dict[str, set[int]] = {}
    apart_pages: dict[str, set[int]] = {}
    for p, _, exact, key, apart in candidates:
        exact_pages.setdefault(exact, set()).add(p)
        if apart:
            apart_pages.setdefault(key, set()).add(p)
    numbered: list[tuple[int, int, int | None, bool]] = []
    for p, i, exact, _, apart in candidates:
        outermost = i in (
            min(range(len(pages[p])), key=lambda j: pages[p][j].top),
            min(range(len(pages[p])), key=lambda j: pages[p][j].bottom),
        )
        if outermost and PAGE_NUMBER_RE.match(pages[p][i].text.strip()):
            digits = _DIGITS_RE.search(pages[p][i].text)
            numbered.append((p, i, int(digits.group()) - p if digits else None, apart))
    offsets = Counter(offset for _, _, offset, _ in numbered if offset is not None)
    need = max(2, math.ceil(0.5 * len(pages)))
    found: set[tuple[int, int]] = set()
    if len(pages) >= 2:
        for p, i, exact, key, apart in candidates:
            if len(exact_pages[exact]) >= max(3, need) or (apart and len(apart_pages[key]) >= need):
                found.add((p, i))
    for p, i, offset, apart in numbered:
        if apart or (offset is not None and offsets[offset] >= 2):
            found.add((p, i))
    return found

