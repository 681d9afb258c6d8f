"""Visual lines of a PDF page from its glyphs: glyphs on one baseline, left to right, cut at cells.

Both readers (PDFium's and pdfminer's) give their glyphs as :class:`Glyph` records; what follows
is reader-free. LibreOffice draws the Latin runs, the CJK runs and the spaces of one visual line
as separate strokes in separate fonts, so a reader's own grouping into lines (in content-stream
order) breaks such lines up; here the lines are rebuilt from the glyphs' places.
"""

from __future__ import annotations

import logging
import math
import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

try:  # the compiled kernel of page_rows (setup.py builds it where a C compiler is)
    from neardup_gui.core.extract.pdf import _lines as _compiled_lines
except ImportError:  # pragma: no cover - a build without a compiler
    _compiled_lines = None

log = logging.getLogger(__name__)

# A run of hidden glyphs is written between these two noncharacters in a line's text (by
# _split_row and _lines.c); layout.extracted turns them into the paragraph's hidden spans.
HIDDEN_START = "\ufdd2"
HIDDEN_END = "\ufdd3"
# Ligature characters as the letters they join (both readers' text goes through this).
LIGATURES = str.maketrans(
    {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl", "\ufb05": "st", "\ufb06": "st"}
)
CJK_CHAR_RE = re.compile("[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")


@dataclass
class Box:
    """A paragraph of a page with its place on the page (for furniture)."""

    paragraphs: list[str]
    top: float  # distance of the box's top from the page top
    bottom: float  # distance of the box's bottom from the page bottom
    lines: int
    column_top: bool = False  # first paragraph of a right-hand column: may carry one on

    @property
    def text(self) -> str:
        return " ".join(self.paragraphs)


# Glyphs whose baselines differ by less than this share of their size are on one line
# (covers mixed fonts and sub-/superscripts; line pitches are at least about one em).
_BASELINE_TOLERANCE = 0.45
# A space is read between glyphs further apart than this share of the glyph's size (as
# pdfminer's word_margin does).
_WORD_GAP = 0.1
# A horizontal gap wider than this many ems splits a visual line into cells (table cells,
# columns, a header's left and right parts); a lone line needs the wider gap, so a
# justified line with loose spacing stays whole.
# The gap is measured from the last glyph drawn, spaces included when they run on from it: a
# gap bridged by drawn spaces was typed (a plain text's double spaces, justified monospaced
# text, a man page's or a listing's aligned columns, as a text or word-processor file holds
# them); a gap between table cells has nothing drawn in it.
_CELL_GAP = 1.2
_LONE_CELL_GAP = 2.5
# Drawn spaces run on from the glyph before them when they start within this share of an em.
_SPACE_RUN_SLACK = 0.3
# Characters a line never starts with (CJK and Latin closing punctuation): the word before
# them moves to the next line with them.
_NO_LINE_START = frozenset("，。、；：？！）」』】〉》”’…・,.;:?!)]}%")


def page_transform(x0: float, y0: float, x1: float, y1: float, rotation: int) -> tuple[float, ...]:
    """The map (a, b, c, d, e, f) from a page's user space to the space its glyphs are read in:
    its media box (x0, y0)–(x1, y1) with the lower left corner at the origin, turned by its
    /Rotate (0, 90, 180 or 270) so that its text reads upright, as pdfminer.six sets a page."""
    return {90: (0.0, -1.0, 1.0, 0.0, -y0, x1), 180: (-1.0, 0.0, 0.0, -1.0, x1, y1),
            270: (0.0, 1.0, -1.0, 0.0, y1, -x0)}.get(rotation % 360, (1.0, 0.0, 0.0, 1.0, -x0, -y0))


@dataclass
class Glyph:
    """One glyph drawn on a page: its text, its box (PDF units, y up) and baseline, its size."""

    text: str
    x0: float
    x1: float
    y0: float
    y1: float
    base: float
    size: float
    hidden: bool = False  # drawn so that a reader does not see it (see hidden.py)


@dataclass(frozen=True)
class GlyphColumns:
    """A page's upright glyphs as columns, the form :func:`page_rows` reads: their texts joined
    in ``text``, glyph ``i``'s being ``text[starts[i]:starts[i + 1]]``; the boxes, baselines and
    sizes as float64 arrays; ``hidden`` as uint8. Only glyphs whose numbers are all finite."""

    text: str
    starts: np.ndarray
    x0: np.ndarray
    x1: np.ndarray
    y0: np.ndarray
    y1: np.ndarray
    base: np.ndarray
    size: np.ndarray
    hidden: np.ndarray

    def __len__(self) -> int:
        return len(self.x0)

    @classmethod
    def of(cls, glyphs: list[Glyph]) -> GlyphColumns:
        """The columns of ``glyphs`` (those whose numbers are all finite)."""
        glyphs = [g for g in glyphs if math.isfinite(g.x0 + g.x1 + g.y0 + g.y1 + g.base + g.size)]
        starts = np.zeros(len(glyphs) + 1, dtype=np.int64)
        np.cumsum([len(g.text) for g in glyphs], out=starts[1:])
        numbers = np.array([(g.x0, g.x1, g.y0, g.y1, g.base, g.size) for g in glyphs], dtype=np.float64).reshape(-1, 6)
        return cls("".join(g.text for g in glyphs), starts, *(np.ascontiguousarray(numbers[:, k]) for k in range(6)),
                   np.array([g.hidden for g in glyphs], dtype=np.uint8))

    def __add__(self, other: GlyphColumns) -> GlyphColumns:
        """These glyphs, then ``other``'s."""
        starts = np.concatenate([self.starts[:-1], other.starts + len(self.text)])
        return GlyphColumns(self.text + other.text, starts, *(np.concatenate([getattr(self, name), getattr(other, name)])
                                                              for name in ("x0", "x1", "y0", "y1", "base", "size",
                                                                           "hidden")))

    def glyphs(self) -> list[Glyph]:
        """The glyphs again, in order."""
        text, starts = self.text, self.starts.tolist()
        return [Glyph(text[starts[i]:starts[i + 1]], *numbers, bool(hidden))
                for i, (*numbers, hidden) in enumerate(zip(self.x0.tolist(), self.x1.tolist(), self.y0.tolist(),
                                                            self.y1.tolist(), self.base.tolist(), self.size.tolist(),
                                                            self.hidden.tolist()))]


@dataclass
class Line:
    """A run of glyphs on one baseline without a cell-sized gap: text left to right."""

    text: str
    x0: float
    x1: float
    y0: float
    y1: float
    base: float
    size: float
    first_word: float  # width of the first word (first character for CJK)


def rotated_boxes(glyphs: list[Glyph], page_height: float) -> list[Box]:
    """Rotated text (a margin stamp, a turned table heading) as paragraphs after the page's
    body: runs of glyphs in drawing order, a new run where the next glyph is not adjacent."""
    boxes: list[Box] = []
    run: list[Glyph] = []

    def close() -> None:
        parts: list[str] = []
        for index, g in enumerate(run):
            if index:
                before = run[index - 1]
                gap = max(g.x0 - before.x1, before.x0 - g.x1, g.y0 - before.y1, before.y0 - g.y1)
                if gap > _WORD_GAP * g.size and not (CJK_CHAR_RE.match(g.text) or CJK_CHAR_RE.match(before.text)):
                    parts.append(" ")
            parts.append(" " if g.text.isspace() else f"{HIDDEN_START}{g.text}{HIDDEN_END}" if g.hidden else g.text)
        text = " ".join("".join(parts).split()).replace(HIDDEN_END + HIDDEN_START, "")
        if text:
            top = page_height - max(g.y1 for g in run)
            boxes.append(Box([text], top, min(g.y0 for g in run), 1))

    for g in glyphs:
        if run:
            before = run[-1]
            near = max(g.x0 - before.x1, before.x0 - g.x1, g.y0 - before.y1, before.y0 - g.y1) <= 1.5 * g.size
            if not near:
                close()
                run = []
        run.append(g)
    if run:
        close()
    return boxes


def _baseline_rows(glyphs: list[Glyph]) -> list[list[Glyph]]:
    """Glyphs grouped by baseline, top row first."""
    rows: list[list[Glyph]] = []
    ref = 0.0
    ref_size = 0.0
    for g in sorted(glyphs, key=lambda g: -g.base):
        if rows and ref - g.base <= _BASELINE_TOLERANCE * max(ref_size, g.size):
            rows[-1].append(g)
            if not g.text.isspace() and g.size > ref_size:
                ref_size = g.size
            continue
        rows.append([g])
        ref = g.base
        ref_size = g.size
    return rows


def _split_row(row: list[Glyph], gap_ems: float) -> list[Line]:
    """A baseline row as lines: glyphs left to right, split at gaps wider than ``gap_ems``."""
    row = sorted(row, key=lambda g: g.x0)
    ink = [g for g in row if not g.text.isspace()]
    if not ink:
        return []
    size = Counter(round(g.size, 1) for g in ink).most_common(1)[0][0]
    lines: list[Line] = []
    parts: list[str] = []
    first: Glyph | None = None
    last_x1 = 0.0
    reach = 0.0  # the end of the last glyph drawn, or of the spaces drawn on from it
    y0 = y1 = 0.0
    word_end = 0.0
    # Measuring the first word: 0 in a word, 1 after a CJK character (closing punctuation
    # still belongs to it: it cannot start a line), 2 done.
    word_state = 0

    hidden = False  # within a run of hidden glyphs (marked HIDDEN_START … HIDDEN_END in the text)

    def close() -> None:
        text = "".join(parts).strip()
        if text and first is not None:
            text += HIDDEN_END if hidden else ""
            lines.append(Line(text, first.x0, last_x1, y0, y1, first.base, size, word_end - first.x0))

    def put(g: Glyph) -> None:
        nonlocal hidden
        if g.hidden != hidden:
            parts.append(HIDDEN_START if g.hidden else HIDDEN_END)
            hidden = g.hidden
        parts.append(g.text)

    previous: Glyph | None = None
    for g in row:
        if previous is not None and g.text == previous.text and abs(g.x0 - previous.x0) < 0.15 * g.size:
            continue  # a glyph drawn twice, slightly offset (fake bold): read once
        previous = g
        if g.text.isspace():
            if parts and parts[-1] != " ":
                parts.append(" ")
            if first is not None:
                word_state = 2
                if g.x0 <= reach + _SPACE_RUN_SLACK * size:
                    reach = max(reach, g.x1)
            continue
        if first is not None:
            gap = g.x0 - reach
            if gap > gap_ems * size:
                close()
                parts, first, hidden = [], None, False
            elif (
                gap > _WORD_GAP * max(g.x1 - g.x0, g.size)
                and parts[-1] != " "
                and not CJK_CHAR_RE.match(g.text)
                and not CJK_CHAR_RE.match(parts[-1][-1])
            ):
                # A space only between Latin words: the gap a word processor leaves between
                # CJK and Latin text (autospacing) is typography, not a space in the text.
                parts.append(" ")
                word_state = 2
        if first is None:
            first, last_x1, reach, y0, y1 = g, g.x1, g.x1, g.y0, g.y1
            word_end, word_state = g.x1, 1 if CJK_CHAR_RE.match(g.text) else 0
            put(g)
            continue
        if word_state == 0:
            if CJK_CHAR_RE.match(g.text) and g.text not in _NO_LINE_START:
                word_state = 2  # a line may break between Latin and CJK text
            else:
                word_end = g.x1
        elif word_state == 1:
            if g.text in _NO_LINE_START:
                word_end = g.x1
            elif g.text in "\"'":
                # No line break on either side of a straight quote (Unicode line breaking,
                # class QU): the quoted word goes with the character before it.
                word_end, word_state = g.x1, 0
            else:
                word_state = 2
        put(g)
        last_x1 = max(last_x1, g.x1)
        reach = max(reach, last_x1)
        y0, y1 = min(y0, g.y0), max(y1, g.y1)
    close()
    return lines


# Glyphs a proportional font draws narrow (under 0.3 em in Times, Helvetica, Liberation Sans,
# Noto Sans): one of them as wide as the page's other glyphs says the font is monospaced.
_NARROW = frozenset("iIl.,:;'!|")


def _monospaced(glyphs: list[Glyph]) -> bool:
    """Whether a page is set in a monospaced font: nine glyphs in ten share one width (0.45–0.75
    em: not CJK), narrow letters among them. Such a page is a plain text printed (a man page, a
    copyright file, a listing); its columns are aligned by spaces and tabs, which a text file
    holds and a text reader reads line by line — as this page then is (no cells)."""
    ink = [g for g in glyphs if not g.text.isspace() and g.size > 0]
    if len(ink) < 40:
        return False
    widths = Counter(round((g.x1 - g.x0) / g.size, 2) for g in ink)
    width, count = widths.most_common(1)[0]
    if not 0.45 <= width <= 0.75 or count < 0.9 * len(ink):
        return False
    return any(g.text in _NARROW and round((g.x1 - g.x0) / g.size, 2) == width for g in ink)


def page_rows(columns: GlyphColumns, compiled: bool = True) -> list[list[Line]]:
    """Visual lines of a page, top first; a row with several cells has several lines (on a
    monospaced page, each row is one line: see :func:`_monospaced`). The compiled kernel
    (``_lines.c``) gives the rows of :func:`_glyph_rows` when it is built (and ``compiled``)."""
    if compiled and _compiled_lines is not None:
        rows = [[Line(*line) for line in row] for row in _compiled_lines.rows(
            columns.text, columns.starts, columns.x0, columns.x1, columns.y0, columns.y1, columns.base,
            columns.size, columns.hidden)]
    else:
        rows = _glyph_rows(columns.glyphs())
    out: list[list[Line]] = []
    for index, row in enumerate(rows):
        if len(row) > 1:
            neighbours = [rows[j] for j in (index - 1, index + 1) if 0 <= j < len(rows)]
            if not any(len(other) > 1 for other in neighbours):
                # A lone multi-cell row needs the wider gap (a loosely justified line is one line).
                row = _split_row_lines(row)
        out.append(row)
    return out


def _glyph_rows(glyphs: list[Glyph]) -> list[list[Line]]:
    """The rows of lines of a page's glyphs, top first, rows without a line left out: the
    specification of the compiled kernel."""
    gap = float("inf") if _monospaced(glyphs) else _CELL_GAP
    rows = [_split_row(row, gap) for row in _baseline_rows(glyphs)]
    return [row for row in rows if row]


def _split_row_lines(row: list[Line]) -> list[Line]:
    """Rejoin cells of one row separated by less than the lone-row gap."""
    merged = [row[0]]
    for line in row[1:]:
        prev = merged[-1]
        if line.x0 - prev.x1 <= _LONE_CELL_GAP * prev.size:
            cjk = CJK_CHAR_RE.match(prev.text[-1]) and CJK_CHAR_RE.match(line.text[0])
            merged[-1] = Line(
                prev.text + ("" if cjk else " ") + line.text,
                prev.x0,
                line.x1,
                min(prev.y0, line.y0),
                max(prev.y1, line.y1),
                prev.base,
                prev.size,
                prev.first_word,
            )
        else:
            merged.append(line)
    return merged

