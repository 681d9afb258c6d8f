"""PDF: text in reading order with pdfminer.six, wraps mended, page furniture recognised."""

from __future__ import annotations

import bisect
import io
import logging
import math
import re
import zlib
from collections import Counter
from dataclasses import dataclass
from typing import Any

from neardup_gui.core.extract.common import ExtractError, Extracted, has_text, join_wrapped, resolve_line_hyphens
from neardup_gui.core.settings import ExtractLimits

log = logging.getLogger(__name__)

_LIGATURES = str.maketrans(
    {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl", "\ufb05": "st", "\ufb06": "st"}
)
# Glyphs without a Unicode mapping come out as "(cid:123)": noise, not text.
_CID_RE = re.compile(r"\(cid:\d+\)")
_PAGE_NUMBER_RE = re.compile(
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
_STREAM_CHUNK = 1 << 20
_CJK_CHAR_RE = re.compile("[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")


@dataclass
class _Box:
    paragraphs: list[str]
    top: float  # distance of the box's top from the page top
    bottom: float  # distance of the box's bottom from the page bottom
    lines: int
    column_top: bool = False  # first paragraph of a right-hand column: may carry one on

    @property
    def text(self) -> str:
        return " ".join(self.paragraphs)


# --- visual lines ----------------------------------------------------------------------------
#
# pdfminer's own layout analysis groups glyphs into lines in content-stream order and lines
# into boxes by proximity. LibreOffice draws the Latin runs, the CJK runs and the spaces of
# one visual line as separate strokes in separate fonts, so those boxes hold fragments of
# lines and come out in the wrong order (sentences split, neighbouring paragraphs
# interleaved). The page's glyphs are therefore read without pdfminer's analysis and set
# into visual lines here: glyphs on one baseline, left to right.

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


@dataclass
class _Glyph:
    text: str
    x0: float
    x1: float
    y0: float
    y1: float
    base: float
    size: float


@dataclass
class _Line:
    """A run of glyphs on one baseline without a cell-sized gap: text left to right."""

    text: str
    x0: float
    x1: float
    y0: float
    y1: float
    base: float
    size: float
    first_word: float  # width of the first word (first character for CJK)


def _glyphs(layout, out: list[_Glyph], rotated: list[_Glyph], stats: dict[str, Any]) -> None:
    """The page's glyphs: upright ones into ``out``, rotated ones (in drawing order) into
    ``rotated``; images are counted."""
    from pdfminer.layout import LTChar, LTFigure, LTImage

    for obj in layout:
        if isinstance(obj, LTChar):
            if obj.fontname == LOST_FONT:
                stats["lost"] += 1  # (a damaged file's text whose font is lost: codes, not characters)
                continue
            if obj.fontname == NO_TEXT_FONT:
                continue
            text = obj.get_text()
            if text.startswith("(cid:"):
                text = _CID_RE.sub("", text)
                if not text and obj.fontname in stats["strict"]:
                    stats["lost"] += 1  # (a code its font's ToUnicode map does not name: damaged)
                    continue
            if not text:
                continue
            stats["kept"] += 1
            size = max(obj.size if obj.size > 0 else obj.height, 0.1)
            text = text.translate(_LIGATURES)
            if obj.upright:
                out.append(_Glyph(text, obj.x0, obj.x1, obj.y0, obj.y1, obj.matrix[5], size))
            else:
                rotated.append(_Glyph(text, obj.x0, obj.x1, obj.y0, obj.y1, (obj.y0 + obj.y1) / 2, size))
        elif isinstance(obj, LTImage):
            stats["images"] += 1
        elif isinstance(obj, LTFigure):
            _glyphs(obj, out, rotated, stats)


def _rotated_boxes(glyphs: list[_Glyph], page_height: float) -> list[_Box]:
    """Rotated text (a margin stamp, a turned table heading) as paragraphs after the page's
    body: runs of glyphs in drawing order, a new run where the next glyph is not adjacent."""
    boxes: list[_Box] = []
    run: list[_Glyph] = []

    def close() -> None:
        parts: list[str] = []
        for index, g in enumerate(run):
            if index:
                before = run[index - 1]
                gap = max(g.x0 - before.x1, before.x0 - g.x1, g.y0 - before.y1, before.y0 - g.y1)
                if gap > _WORD_GAP * g.size and not (_CJK_CHAR_RE.match(g.text) or _CJK_CHAR_RE.match(before.text)):
                    parts.append(" ")
            parts.append(" " if g.text.isspace() else g.text)
        text = " ".join("".join(parts).split())
        if text:
            top = page_height - max(g.y1 for g in run)
            boxes.append(_Box([text], top, min(g.y0 for g in run), 1))

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


def _baseline_rows(glyphs: list[_Glyph]) -> list[list[_Glyph]]:
    """Glyphs grouped by baseline, top row first."""
    rows: list[list[_Glyph]] = []
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


def _split_row(row: list[_Glyph], gap_ems: float) -> list[_Line]:
    """A baseline row as lines: glyphs left to right, split at gaps wider than ``gap_ems``."""
    row = sorted(row, key=lambda g: g.x0)
    ink = [g for g in row if not g.text.isspace()]
    if not ink:
        return []
    size = Counter(round(g.size, 1) for g in ink).most_common(1)[0][0]
    lines: list[_Line] = []
    parts: list[str] = []
    first: _Glyph | None = None
    last_x1 = 0.0
    reach = 0.0  # the end of the last glyph drawn, or of the spaces drawn on from it
    y0 = y1 = 0.0
    word_end = 0.0
    # Measuring the first word: 0 in a word, 1 after a CJK character (closing punctuation
    # still belongs to it: it cannot start a line), 2 done.
    word_state = 0

    def close() -> None:
        text = "".join(parts).strip()
        if text and first is not None:
            lines.append(_Line(text, first.x0, last_x1, y0, y1, first.base, size, word_end - first.x0))

    previous: _Glyph | None = None
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
                parts, first = [], None
            elif (
                gap > _WORD_GAP * max(g.x1 - g.x0, g.size)
                and parts[-1] != " "
                and not _CJK_CHAR_RE.match(g.text)
                and not _CJK_CHAR_RE.match(parts[-1][-1])
            ):
                # A space only between Latin words: the gap a word processor leaves between
                # CJK and Latin text (autospacing) is typography, not a space in the text.
                parts.append(" ")
                word_state = 2
        if first is None:
            first, last_x1, reach, y0, y1 = g, g.x1, g.x1, g.y0, g.y1
            word_end, word_state = g.x1, 1 if _CJK_CHAR_RE.match(g.text) else 0
            parts.append(g.text)
            continue
        if word_state == 0:
            if _CJK_CHAR_RE.match(g.text) and g.text not in _NO_LINE_START:
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
        parts.append(g.text)
        last_x1 = max(last_x1, g.x1)
        reach = max(reach, last_x1)
        y0, y1 = min(y0, g.y0), max(y1, g.y1)
    close()
    return lines


# Glyphs a proportional font draws narrow (under 0.3 em in Times, Helvetica, Liberation Sans,
# Noto Sans): one of them as wide as the page's other glyphs says the font is monospaced.
_NARROW = frozenset("iIl.,:;'!|")


def _monospaced(glyphs: list[_Glyph]) -> bool:
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


def _page_rows(glyphs: list[_Glyph]) -> list[list[_Line]]:
    """Visual lines of a page, top first; a row with several cells has several lines (on a
    monospaced page, each row is one line: see :func:`_monospaced`)."""
    gap = float("inf") if _monospaced(glyphs) else _CELL_GAP
    rows = [_split_row(row, gap) for row in _baseline_rows(glyphs)]
    rows = [row for row in rows if row]
    out: list[list[_Line]] = []
    for index, row in enumerate(rows):
        if len(row) > 1:
            neighbours = [rows[j] for j in (index - 1, index + 1) if 0 <= j < len(rows)]
            if not any(len(other) > 1 for other in neighbours):
                # A lone multi-cell row needs the wider gap (a loosely justified line is one line).
                row = _split_row_lines(row)
        out.append(row)
    return out


def _split_row_lines(row: list[_Line]) -> list[_Line]:
    """Rejoin cells of one row separated by less than the lone-row gap."""
    merged = [row[0]]
    for line in row[1:]:
        prev = merged[-1]
        if line.x0 - prev.x1 <= _LONE_CELL_GAP * prev.size:
            cjk = _CJK_CHAR_RE.match(prev.text[-1]) and _CJK_CHAR_RE.match(line.text[0])
            merged[-1] = _Line(
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


def _gutter_order(rows: list[list[_Line]]) -> list[tuple[list[list[_Line]], str]]:
    """Rows in reading order for a page with two side-by-side columns of text.

    Columns whose baselines do not line up give rows holding a line of one column only, so
    top-to-bottom order would interleave them. A gutter is recognised at the most common left
    edge ``c`` in the middle of the text width when at least three lines start there, most
    of them have a line entirely left of ``c`` beside them, and fewer lines cross ``c`` than
    start right of it. Rows with a line crossing ``c``
    (a title over both columns) split the page into bands; in each band the left column's
    rows come before the right column's. Three or more columns are read as two (the right
    part row by row), a documented limit. Returns groups of rows in reading order, each
    with its side: "left" or "right" for one column's part of a band, "" otherwise.
    """
    lines = [line for row in rows for line in row]
    if len(lines) < 6:
        return [(rows, "")]
    left = min(line.x0 for line in lines)
    width = max(line.x1 for line in lines) - left
    starts = Counter(
        round(line.x0 / 2) for line in lines if left + 0.25 * width < line.x0 < left + 0.75 * width
    )
    if not starts:
        return [(rows, "")]
    bucket, count = starts.most_common(1)[0]
    if count < 3:
        return [(rows, "")]
    cut = min(line.x0 for line in lines if round(line.x0 / 2) == bucket) - 1.0
    left_bases = sorted(line.base for line in lines if line.x1 <= cut)
    right_lines = [line for line in lines if line.x0 >= cut]
    if len(left_bases) < 3:
        return [(rows, "")]
    beside = 0
    for line in right_lines:
        at = bisect.bisect_left(left_bases, line.base - line.size)
        if at < len(left_bases) and left_bases[at] <= line.base + line.size:
            beside += 1
    if beside < max(3, 0.5 * len(right_lines)):
        return [(rows, "")]
    if sum(1 for line in lines if line.x0 < cut < line.x1) > len(right_lines):
        # More text across the gutter than in the right column: a single column with a
        # two-part list or table in it (read as a table by _flows), not two columns.
        return [(rows, "")]
    out: list[tuple[list[list[_Line]], str]] = []
    spanning: list[list[_Line]] = []
    band_left: list[list[_Line]] = []
    band_right: list[list[_Line]] = []

    def close_band() -> None:
        out.extend((part, side) for part, side in ((band_left, "left"), (band_right, "right")) if part)

    for row in rows:
        if any(line.x0 < cut < line.x1 for line in row):
            close_band()
            band_left, band_right = [], []
            spanning.append(row)
            continue
        if spanning:
            out.append((spanning, ""))
            spanning = []
        on_left = [line for line in row if line.x1 <= cut]
        on_right = [line for line in row if line.x0 >= cut]
        if on_left:
            band_left.append(on_left)
        if on_right:
            band_right.append(on_right)
    close_band()
    if spanning:
        out.append((spanning, ""))
    return out


def _flows(rows: list[list[_Line]]) -> list[list[_Line]]:
    """Reading order: single-cell rows flow in order; a run of multi-cell rows (a table, two
    columns on a shared baseline grid) is read column by column.

    A single-cell row right after a multi-cell run (within three lines' height) stays in the
    run when it lies inside one of the run's columns (a cell or column with more lines than
    its neighbours).
    """
    flows: list[list[_Line]] = []
    current: list[_Line] = []
    block: list[list[_Line]] = []
    columns: list[list[float]] = []

    def flush_block() -> None:
        if not block:
            return
        ordered: list[list[_Line]] = [[] for _ in columns]
        for row in block:
            for line in row:
                ordered[_column_of(columns, line)].append(line)
        flows.extend(column for column in ordered if column)
        block.clear()
        columns.clear()

    for row in rows:
        near = bool(block) and block[-1][0].base - row[0].base <= 3 * row[0].size
        if len(row) > 1 or (near and all(_column_of(columns, line, strict=True) >= 0 for line in row)):
            if not block and current:
                flows.append(current)
                current = []
            block.append(row)
            for line in row:
                at = _column_of(columns, line, strict=True)
                if at < 0:
                    columns.append([line.x0, line.x1])
                    columns.sort()
                else:
                    columns[at][0] = min(columns[at][0], line.x0)
                    columns[at][1] = max(columns[at][1], line.x1)
            continue
        flush_block()
        current.append(row[0])
    flush_block()
    if current:
        flows.append(current)
    return flows


def _column_of(columns: list[list[float]], line: _Line, strict: bool = False) -> int:
    """Index of the column interval ``line`` overlaps most; -1 when none (or, ``strict``, when
    the line reaches into another column too)."""
    best, best_overlap = -1, 0.0
    hits = 0
    for index, (x0, x1) in enumerate(columns):
        overlap = min(x1, line.x1) - max(x0, line.x0)
        if overlap > 0:
            hits += 1
            if overlap > best_overlap:
                best, best_overlap = index, overlap
    if strict and hits != 1:
        return -1
    if best < 0 and not strict:
        best = min(range(len(columns)), key=lambda i: abs(columns[i][0] - line.x0))
    return best


def _flow_paragraphs(
    lines: list[_Line],
    pitch: tuple[float, dict[tuple[int, int], float]],
    page: tuple[float, dict[tuple[int, int], tuple[float, int]]] | None,
) -> list[tuple[list[str], _Line, _Line, int]]:
    """Paragraphs of one flow: (texts of the lines, first line, last line, line count).

    A line ends a paragraph when the vertical step to the next line is clearly wider than the
    document's line pitch, when the next line's first word would have fitted in the room left
    at its end (a wrapped line never leaves that much room), or when the next line starts
    indented (first-line indent) or outdented (next list item) against its own continuation.
    """
    left = min(line.x0 for line in lines)
    right = max(line.x1 for line in lines)
    if page is not None:
        # The column's right edge: the widest line of the document starting at this left
        # edge in this size (a page of short paragraphs may have no line that reaches it).
        # ``page`` is None inside one of two columns: there only the column's lines count.
        page_width, edges = page
        key = round(left)
        size = round(Counter(line.size for line in lines).most_common(1)[0][0])
        same_left = [edges[k, size] for k in range(key - 1, key + 2) if (k, size) in edges]
        right = max([right] + [x1 for x1, _ in same_left])
        if sum(n for _, n in same_left) < 6 and left < 0.25 * page_width:
            # Too few lines to find the column's edge (all may end paragraphs): assume the
            # right margin mirrors the left one.
            right = max(right, page_width - left - 2.0)
    # The pitch of this column by font size (see _line_pitches).
    default, by_key = pitch
    key = round(left)
    pitches = {sz: value for (x, sz), value in by_key.items() if abs(x - key) <= 1}
    out: list[tuple[list[str], _Line, _Line, int]] = []
    texts: list[str] = []
    start = lines[0]
    count = 0
    for index, line in enumerate(lines):
        texts.append(line.text)
        count += 1
        if index == len(lines) - 1:
            break
        following = lines[index + 1]
        step = line.base - following.base
        em = max(line.size, following.size)
        breaks = (
            step > 1.3 * max(pitches.get(round(line.size), default), 0.8 * em)
            or step < 0.3 * em  # overlapping rows: never one paragraph
            or right - line.x1 > following.first_word + 0.5 * em
            or (following.x0 < line.x0 - em and count > 1)  # not after a first-line indent
            or (
                following.x0 > line.x0 + em
                and index + 2 < len(lines)
                and lines[index + 2].x0 < following.x0 - em
            )
            or abs(line.size - following.size) > 0.15 * em
        )
        if breaks:
            out.append((texts, start, line, count))
            texts, start, count = [], following, 0
    out.append((texts, start, lines[-1], count))
    return out


def _page_boxes(
    rows: list[list[_Line]],
    page_height: float,
    page_width: float,
    pitch: tuple[float, dict[tuple[int, int], float]],
    edges: dict[tuple[int, int], tuple[float, int]],
) -> list[_Box]:
    """A page's paragraphs in reading order, each with its place on the page (for furniture)."""
    boxes: list[_Box] = []
    for group, side in _gutter_order(rows):
        column_top = side == "right"
        for flow in _flows(group):
            # Inside a column the document's other lines say nothing about the right edge.
            for texts, first, last, count in _flow_paragraphs(flow, pitch, None if side else (page_width, edges)):
                text = join_wrapped(texts)
                if text:
                    boxes.append(_Box([text], page_height - first.y1, last.y0, count, column_top))
                    column_top = False
    return boxes


def _line_edges(page_rows: list[tuple[list[list[_Line]], float, float]]) -> dict[tuple[int, int], tuple[float, int]]:
    """Where a column's wrapped lines end, by left edge and font size (rounded to a point),
    over the document, and the number of lines.

    Justified text ends most lines at the same point: the widest line end shared by at
    least three lines (to half a point) is the edge, so an overfull line does not move it.
    Ragged text rarely shares line ends: there the widest line sets the edge. Lines running
    into the right margin beyond half the left margin's width (an unbreakable URL) are left
    out.
    """
    ends: dict[tuple[int, int], Counter[float]] = {}
    for rows, _, width in page_rows:
        for row in rows:
            line = row[0]
            if len(row) == 1 and line.x1 <= width - 0.5 * line.x0:
                ends.setdefault((round(line.x0), round(line.size)), Counter())[round(line.x1 * 2) / 2] += 1
    edges: dict[tuple[int, int], tuple[float, int]] = {}
    for key, counts in ends.items():
        widest = max(counts)
        shared = [end for end, n in counts.items() if n >= 3 and end >= 0.9 * widest]
        edges[key] = (max(shared) if shared else widest, sum(counts.values()))
    return edges


def _line_pitches(
    pages_rows: list[list[list[_Line]]], edges: dict[tuple[int, int], tuple[float, int]]
) -> tuple[float, dict[tuple[int, int], float]]:
    """The baseline-to-baseline step of consecutive lines inside one paragraph: a document
    default, and one by (left edge, font size) of the line above.

    A step below a full line (one reaching its column's right edge) is a step inside a
    paragraph unless that line was a paragraph of its own that happened to fill the line;
    so the smallest such step (to half a point, averaged) is the pitch, kept per left edge and
    size so that single-spaced quotations do not set the pitch of a double-spaced body. The
    default, for text without full lines, is a low quantile of all steps (paragraph gaps only
    make steps larger).
    """
    steps: list[float] = []
    full: dict[tuple[int, int], dict[float, list[float]]] = {}
    for rows in pages_rows:
        for above, below in zip(rows, rows[1:]):
            line = above[0]
            step = line.base - below[0].base
            if not 0.8 * line.size <= step <= 3 * line.size:
                continue
            steps.append(step)
            key = (round(line.x0), round(line.size))
            right = edges.get(key, (0.0, 0))[0]
            if len(above) == 1 and len(below) == 1 and line.x1 >= right - line.size:
                full.setdefault(key, {}).setdefault(round(step * 2) / 2, []).append(step)
    by_key = {}
    for key, buckets in full.items():
        smallest = buckets[min(buckets)]
        by_key[key] = sum(smallest) / len(smallest)
    if not steps:
        return 0.0, by_key
    steps.sort()
    return steps[len(steps) // 10], by_key


def _stream_size_ok(stream, cap: int) -> bool:
    """False when a Flate stream expands beyond ``cap`` bytes (checked without keeping the output)."""
    from pdfminer.pdftypes import LITERALS_FLATE_DECODE

    raw = getattr(stream, "rawdata", None)
    if raw is None:
        return True
    filters = stream.get_filters()
    if not filters or filters[0][0] not in LITERALS_FLATE_DECODE:
        return True
    if stream.decipher is not None and stream.objid is not None:
        raw = stream.decipher(stream.objid, stream.genno, raw, stream.attrs)
    inflater = zlib.decompressobj()
    total = 0
    pending = raw
    try:
        while pending:
            total += len(inflater.decompress(pending, _STREAM_CHUNK))
            if total > cap:
                return False
            pending = inflater.unconsumed_tail
    except zlib.error:
        return True  # pdfminer has its own recovery for damaged streams
    return True


def _check_page_streams(page, cap: int, checked: set[int]) -> None:
    """Refuse compression bombs in a page's content streams and form XObjects before decoding."""
    from pdfminer.pdftypes import PDFStream, resolve1

    todo = list(page.contents or [])
    resources = resolve1(page.resources) or {}
    xobjects = resolve1(resources.get("XObject")) if isinstance(resources, dict) else None
    if isinstance(xobjects, dict):
        todo.extend(xobjects.values())
    while todo:
        item = todo.pop()
        objid = getattr(item, "objid", None)
        stream = resolve1(item)
        if not isinstance(stream, PDFStream):
            continue
        key = objid if objid is not None else id(stream)
        if key in checked:
            continue
        checked.add(key)
        if stream.get("Subtype") is not None and getattr(stream.get("Subtype"), "name", "") == "Image":
            continue  # images are never decoded for text
        if not _stream_size_ok(stream, cap):
            raise ExtractError(
                "zip-bomb",
                f"PDF stream expands beyond {cap // 1048576} MB (compression bomb); refused",
            )
        inner = resolve1(stream.get("Resources"))
        if isinstance(inner, dict):
            more = resolve1(inner.get("XObject"))
            if isinstance(more, dict):
                todo.extend(more.values())


def _margin_groups(boxes: list[_Box], height: float, pitch: float) -> list[int]:
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


def _furniture(pages: list[list[_Box]], heights: list[float], pitch: float) -> set[tuple[int, int]]:
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
        if outermost and _PAGE_NUMBER_RE.match(pages[p][i].text.strip()):
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


_TERMINAL = set(".!?。！？:：;；\"”’)）]】」』…")


def _continues(previous: str, following: str) -> bool:
    """True when ``following`` (first on a page) carries on ``previous`` (last on the page before)."""
    if not previous or not following or previous[-1] in _TERMINAL:
        return False
    first = following[0]
    if first.islower() or previous[-1] in "-\u00ad\u2010,，、":
        return True
    return bool(_CJK_CHAR_RE.match(previous[-1]) and _CJK_CHAR_RE.match(first) and first not in "第")


_OBJ_RE = re.compile(rb"(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\b")
_CATALOG_RE = re.compile(rb"(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\s*<<\s*/Type\s*/Catalog\b")


def extract(data: bytes, limits: ExtractLimits) -> Extracted:
    """Extract a PDF's text; raises ExtractError for encrypted, scanned or damaged files.

    A PDF whose end is lost (cross-reference table, trailer, a cut download) is read again from
    the objects that survive (pdfminer's fallback parser over the complete objects, under a
    trailer naming the surviving catalog, or a new one so that the page objects are found by
    scanning); the result carries a warning. What has no surviving page keeps its reason.
    """
    try:
        return _extract(data, limits)
    except ExtractError as exc:
        if exc.code != "corrupt" or getattr(exc, "final", False):
            raise
        patched = _surviving_objects(data)
        if patched is None:
            raise
        lost = ExtractError("corrupt", f"damaged PDF: {patched[1]}, and no page with text survives ({exc.reason})")
        try:
            result = _extract(patched[0], limits)
        except ExtractError as again:
            if again.code != "corrupt":
                raise
            raise lost from None
        if not any(has_text(p) for p in result.paragraphs):
            raise lost from None
        pages = int(result.meta.get("pages", "0"))
        result.warnings.insert(0, f"recovered from a damaged file: {patched[1]}; {pages} "
                                  f"page{'s' if pages != 1 else ''} read from the objects that survive")
        return result


def _surviving_objects(data: bytes) -> tuple[bytes, str] | None:
    """The complete objects of a damaged PDF under a new trailer, and what was lost; None when
    no object is complete."""
    end = data.rfind(b"endobj")
    if end < 0 or not _OBJ_RE.search(data, 0, end):
        return None
    body = data[: end + len(b"endobj")]
    catalogs = _CATALOG_RE.findall(body)
    lost = "the end of the file (cross-reference table and trailer) is lost" if len(body) < len(data) - 64 or b"startxref" not in data[-1024:] \
        else "the cross-reference table or trailer is damaged"
    pages = b""
    if not catalogs and not _OBJSTM_RE.search(body):
        # (Where objects are packed in object streams, pages may survive unseen here: not done.)
        # The catalog is lost, and with it the page objects written before it (LibreOffice
        # writes them last, after the fonts): pages are rebuilt around the content streams that
        # no surviving page names.
        number = max(int(m.group(1)) for m in _OBJ_RE.finditer(body)) + 1
        named = {ref for m in _CONTENTS_RE.finditer(body) for ref in _REF_RE.findall(m.group(1))}
        pages, count = _rebuilt_pages(body, number, named)
        if count:
            lost += f", with its catalog and {count} page{'s' if count != 1 else ''} (rebuilt from their contents)"
    if catalogs:
        number, generation = catalogs[-1]
        tail = b"\ntrailer\n<< /Root %s %s R >>\n%%%%EOF\n" % (number, generation)
    else:
        # No catalog survives: a new one without a page tree makes pdfminer find the page
        # objects by scanning.
        number = max(int(m.group(1)) for m in _OBJ_RE.finditer(body + pages)) + 1
        tail = (b"\n%d 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root %d 0 R >>\n%%%%EOF\n"
                % (number, number))
        if not pages:
            lost += ", with its catalog"
    return body + pages + tail, lost


_OBJSTM_RE = re.compile(rb"/Type\s*/ObjStm\b")
_CONTENTS_RE = re.compile(rb"/Contents\s*(\[[^\]]*\]|\d+\s+\d+\s+R)")
_REF_RE = re.compile(rb"(\d+)\s+(\d+)\s+R")
_STREAM_OBJ_RE = re.compile(rb"(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\s*<<((?:[^<>]|<[^<>]*>)*)>>\s*stream\r?\n")
_FONT_OBJ_RE = re.compile(rb"(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\s*<<\s*/Type\s*/Font\s*/Subtype\s*/\w+\s*"
                          rb"/BaseFont\s*/([A-Z]{6})\+")
_FONT_DICT_RE = re.compile(rb"(?<![0-9])\d{1,10}\s+\d{1,5}\s+obj\s*<<\s*((?:/[\w.+-]+\s+\d+\s+\d+\s+R\s*)+)>>\s*endobj")
_FONT_REF_RE = re.compile(rb"/([\w.+-]+)\s+(\d+)\s+(\d+)\s+R")
_TF_RE = re.compile(rb"/([\w.+-]+)\s+[-\d.]+\s+Tf\b")
_MEDIABOX_RE = re.compile(rb"/MediaBox\s*\[\s*([-\d.\s]+)\]")
_REBUILT_SCAN = 8 << 20  # bytes of a content stream decoded to find the fonts it names
LOST_FONT = "NeardupLostFont"  # the font given to text whose font is lost: its glyphs are dropped
NO_TEXT_FONT = "NeardupNoTextFont"  # the font given to a subset whose codes are not characters


def _lost_fonts_marked(resources, damaged_maps: set[int] | None = None,  # noqa: ANN001, ANN202 - pdfminer objects
                       checked_maps: set[int] | None = None, damaged_widths: set | None = None):
    """The page's resources with every font that is lost replaced by the lost-font placeholder:
    a font reference to an object that is gone or damaged (not a dictionary), or a font whose
    ToUnicode map is named but gone. pdfminer would read such a font's codes through a standard
    encoding — a LibreOffice subset's codes 1, 2, 3… as "!\"#" — and the document would be
    indexed as that garbage, with no warning. Unchanged when every font is there. A ToUnicode map
    whose compressed data is damaged (some of its characters may be wrong) adds its object number
    to ``damaged_maps``; ``checked_maps``: the maps (and fonts' widths) checked so far in the
    document (pages share their fonts: each map is inflated once, not once a page). A font whose
    glyph widths are damaged (:func:`_widths_damaged`) adds its name to ``damaged_widths``."""
    from pdfminer.pdftypes import PDFStream, resolve1

    res = resolve1(resources)
    fonts = resolve1(res.get("Font")) if isinstance(res, dict) else None
    if not isinstance(fonts, dict):
        return resources
    kept: dict = {}
    lost = False
    for name, ref in fonts.items():
        try:
            spec = resolve1(ref)
        except Exception:  # noqa: BLE001 — a damaged object ("Invalid dictionary construct"): lost
            spec = None
        if damaged_widths is not None and isinstance(spec, dict):
            key = ("widths", getattr(ref, "objid", id(spec)))
            if checked_maps is None or key not in checked_maps:  # (each font once a document)
                if checked_maps is not None:
                    checked_maps.add(key)
                if _widths_damaged(spec):
                    damaged_widths.add(str(getattr(resolve1(spec.get("BaseFont")), "name", name)))
        if damaged_maps is not None and isinstance(spec, dict):
            cmap = spec.get("ToUnicode")
            stream = resolve1(cmap)
            key = getattr(cmap, "objid", id(stream))
            if isinstance(stream, PDFStream) and (checked_maps is None or key not in checked_maps):
                if checked_maps is not None:
                    checked_maps.add(key)
                if not _inflates(stream):
                    damaged_maps.add(key)
        unreadable = _unreadable_subset(spec) if isinstance(spec, dict) else "lost"
        if not unreadable and "ToUnicode" in spec and not isinstance(resolve1(spec["ToUnicode"]), PDFStream):
            unreadable = "lost"
        if unreadable:
            kept[name] = _lost_font_spec(LOST_FONT if unreadable == "lost" else NO_TEXT_FONT)
            lost = True
        else:
            kept[name] = ref
    return {**res, "Font": kept} if lost else resources


def _widths_damaged(spec: dict) -> bool:
    """True when a simple font's ``/Widths`` cannot be its glyphs' widths: not as many as its
    codes from ``/FirstChar`` to ``/LastChar``, or not all numbers from 0 to 10,000 (a thousandth
    of the text size each). Bytes inserted in the array (found by fuzzing) moved the glyphs after
    a damaged width, and the same characters were read in another order, some lost where two
    landed on one place, without a word."""
    from pdfminer.pdftypes import resolve1
    from pdfminer.psparser import LIT

    if "Widths" not in spec or spec.get("Subtype") is LIT("Type3"):  # (a Type 3 font's are in its own units)
        return False
    try:
        widths = resolve1(spec.get("Widths"))
        first, last = resolve1(spec.get("FirstChar")), resolve1(spec.get("LastChar"))
        values = [resolve1(w) for w in widths] if isinstance(widths, list) else None
    except Exception:  # noqa: BLE001
        return True
    if values is None or not (isinstance(first, int) and isinstance(last, int)):
        return True
    return len(values) != last - first + 1 or not all(
        isinstance(w, (int, float)) and not isinstance(w, bool) and 0 <= w <= 10_000 for w in values)


_SUBSET_TAG_RE = re.compile(r"[A-Z]{6}\+")


def _resource_manager(strict: set[str]):  # noqa: ANN202 - a pdfminer PDFResourceManager
    """pdfminer's resource manager, but a subset font with no encoding of its own and a ToUnicode
    map (LibreOffice's kind: its codes 1, 2, 3… are the subset's glyphs, not characters) names
    characters only through that map. pdfminer falls back to a standard encoding for a code the
    map does not name, which turns a damaged map into "!\"#$%&"; here such a code is a lost
    character (its font's name is added to ``strict``, and :func:`_glyphs` counts it)."""
    from pdfminer.pdffont import PDFSimpleFont
    from pdfminer.pdfinterp import PDFResourceManager
    from pdfminer.pdftypes import PDFStream, resolve1
    from pdfminer.psparser import PSLiteral

    class Manager(PDFResourceManager):
        def get_font(self, objid, spec):  # noqa: ANN001, ANN202
            try:
                font = super().get_font(objid, spec)
            except Exception:  # noqa: BLE001 — pdfminer's font parsers raise many kinds
                font = self._without_program(objid, spec)
            if not isinstance(font, PDFSimpleFont) or not isinstance(spec, dict) or "Encoding" in spec:
                return font
            base, cmap = resolve1(spec.get("BaseFont")), resolve1(spec.get("ToUnicode"))
            # a subset's codes; or a font whose name or map is damaged: nothing says its codes
            # follow a standard encoding
            if isinstance(cmap, PDFStream) and (not isinstance(base, PSLiteral) or _SUBSET_TAG_RE.match(str(base.name))
                                                or not _inflates(cmap)):
                font.cid2unicode = {}
                strict.add(font.fontname)
            return font

        def _without_program(self, objid, spec):  # noqa: ANN001, ANN202
            """A font whose embedded program is damaged (pdfminer reads a Type 1 program for its
            built-in encoding, and a flipped byte there raised "not enough values to unpack" and
            lost the whole document — found by fuzzing): read through its ToUnicode map alone
            (its name goes to ``strict``), or, without one, the lost-font placeholder (its text
            left out and counted)."""
            if isinstance(spec, dict) and isinstance(resolve1(spec.get("ToUnicode")), PDFStream):
                descriptor = resolve1(spec.get("FontDescriptor"))
                kept = {k: v for k, v in spec.items() if k not in ("Encoding", "FontDescriptor")}
                if isinstance(descriptor, dict):
                    kept["FontDescriptor"] = {k: v for k, v in descriptor.items()
                                              if k not in ("FontFile", "FontFile2", "FontFile3")}
                try:
                    font = PDFResourceManager.get_font(self, None, kept)
                except Exception:  # noqa: BLE001
                    pass
                else:
                    if isinstance(font, PDFSimpleFont):
                        font.cid2unicode = {}
                    strict.add(font.fontname)
                    return font
            return PDFResourceManager.get_font(self, None, _lost_font_spec(LOST_FONT))

    return Manager(caching=True)


def _unreadable_subset(spec: dict) -> str:
    """A font subset (its name tagged ``ABCDEF+``) with neither an encoding nor a ToUnicode map,
    whose codes cannot be characters: a TrueType subset flagged symbolic (its codes name glyphs,
    PDF 32000 9.6.6.4), or a subset whose embedded font program is gone (a subset is always
    embedded: without it nothing tells what its codes are). pdfminer would read the codes through
    a standard encoding. "lost" for the second (a damaged file), "symbolic" for the first (a
    LibreOffice subset that lost its map, or a symbol font's subset: its glyphs are left out
    without a warning, as glyphs without characters always are), "" for a font that is read."""
    from pdfminer.pdftypes import resolve1
    from pdfminer.psparser import PSLiteral

    if "Encoding" in spec or "ToUnicode" in spec:
        return ""
    subtype, base = resolve1(spec.get("Subtype")), resolve1(spec.get("BaseFont"))
    if not (isinstance(base, PSLiteral) and _SUBSET_TAG_RE.match(str(base.name))
            and isinstance(subtype, PSLiteral) and subtype.name in ("TrueType", "Type1", "MMType1")):
        return ""
    descriptor = resolve1(spec.get("FontDescriptor"))
    if not isinstance(descriptor, dict) or not any(key in descriptor for key in ("FontFile", "FontFile2", "FontFile3")):
        return "lost"
    flags = resolve1(descriptor.get("Flags"))
    return "symbolic" if subtype.name == "TrueType" and isinstance(flags, int) and flags & 4 else ""


def _pages(document, warnings: list[str]) -> list:  # noqa: ANN001 - pdfminer's PDFPages
    """The document's pages. When its page tree is damaged (a flipped byte in ``/Kids``: pdfminer
    raised "'PSKeyword' object has no attribute 'objid'" and the whole PDF was lost, or silently
    skipped the page whose reference was damaged — found by fuzzing), the page objects it no
    longer names are found among all objects, each with what it inherits from its parent, placed
    after the named page numbered just below it (writers number pages in order), with a warning.
    The tree is checked by its own count of pages, so an intact file is not scanned."""
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdftypes import resolve1
    from pdfminer.psparser import LIT

    pages: list = []
    failure: Exception | None = None
    try:
        pages.extend(PDFPage.create_pages(document))
    except (ExtractError, MemoryError, RecursionError):
        raise
    except Exception as exc:  # noqa: BLE001 — what a damaged page tree raises
        failure = exc
    try:
        root = resolve1(document.catalog.get("Pages")) if isinstance(document.catalog, dict) else None
        count = resolve1(root.get("Count")) if isinstance(root, dict) else None
    except Exception:  # noqa: BLE001 — a damaged reference: the pages found are all there is to count
        count = None
    # (a catalog that names no page tree — its own object damaged — made pdfminer list the
    # objects typed /Page, and a page whose /Type was damaged was left out in silence: found
    # by fuzzing)
    tree_lost = not isinstance(root, dict)
    if failure is None and not tree_lost and not (isinstance(count, int) and count > len(pages)):
        return pages
    named = {page.pageid for page in pages}
    objects: dict[int, dict] = {}
    for xref in document.xrefs:
        for objid in sorted(xref.get_objids()):
            if objid in objects:
                continue  # (an object listed by two tables)
            try:
                obj = document.getobj(objid)
            except Exception:  # noqa: BLE001
                continue
            if isinstance(obj, dict):
                objects[objid] = obj
    kids: set[int] = set()  # the objects a node of the tree names as its kids
    for obj in objects.values():
        if obj.get("Type") is LIT("Pages"):
            try:
                listed = resolve1(obj.get("Kids"))
            except Exception:  # noqa: BLE001
                listed = None
            if isinstance(listed, list):
                kids.update(ref.objid for ref in listed if isinstance(getattr(ref, "objid", None), int))
            if tree_lost and count is None and "Parent" not in obj:  # the root: its count of pages
                count = resolve1(obj.get("Count"))
    found = []
    box = pages[0].attrs.get("MediaBox") if pages else None  # (the size of the pages read)
    for objid, obj in objects.items():
        kind = obj.get("Type")
        # a page, or a kid of the tree whose /Type was damaged (``/Pa\xa3e``) and that is no node
        if objid in named or not (kind is LIT("Page") or (objid in kids and kind is not LIT("Pages")
                                                            and "Kids" not in obj)):
            continue
        attrs = dict(obj)
        parent = resolve1(obj.get("Parent"))
        for key in PDFPage.INHERITABLE_ATTRS:
            if key not in attrs and isinstance(parent, dict) and key in parent:
                attrs[key] = parent[key]
        page = _page_of(document, objid, attrs, box)
        if page is not None:
            found.append(page)
    lost = count - len(pages) - len(found) if isinstance(count, int) else 0
    if lost > 0 and (pages or found):
        # (pages the tree counts that are found nowhere: said, never dropped in silence)
        warnings.append(f"recovered from a damaged file: the page tree counts {count} pages; "
                        f"{lost} of them {'are' if lost != 1 else 'is'} lost")
    if not found:
        if failure is not None and not pages:
            raise failure
        return pages
    for page in found:  # after the named page numbered just below it
        at = max((i + 1 for i, named_page in enumerate(pages)
                  if isinstance(named_page.pageid, int) and named_page.pageid < page.pageid), default=0)
        pages.insert(at, page)
    why = f" ({type(failure).__name__})" if failure is not None else ""
    warnings.append(f"recovered from a damaged file: the page tree is damaged{why}; {len(found)} "
                    f"page{'s' if len(found) != 1 else ''} found among its objects")
    return pages


def _page_of(document, objid: int, attrs: dict, box):  # noqa: ANN001, ANN202 - pdfminer's
    """A page object found outside the page tree, or None. One whose MediaBox or CropBox is
    damaged (``[0 0 595.30 W41.88]``: pdfminer raised, and the page was lost without a word —
    found by fuzzing) is given ``box``, the size of the pages read."""
    from pdfminer.pdfpage import PDFPage

    try:
        return PDFPage(document, objid, attrs, None)
    except Exception:  # noqa: BLE001
        pass
    kept = {k: v for k, v in attrs.items() if k not in ("MediaBox", "CropBox")}
    if box is not None:
        kept["MediaBox"] = box
    try:
        return PDFPage(document, objid, kept, None)
    except Exception:  # noqa: BLE001
        return None


# an object's header at the start of a line: "12 0 obj"
_LINE_OBJ_RE = re.compile(rb"(?:^|(?<=[\r\n]))(\d{1,10})[ \t\r\n]+(\d{1,5})[ \t\r\n]+obj\b")


def _scanned_xref(data: bytes, others: list):  # noqa: ANN202 - a pdfminer PDFXRef
    """A cross-reference table of the objects whose headers begin a line of the file, put after
    the file's own tables (``others``): pdfminer asks it only for an object those do not lead to
    — a damaged entry (``0\xb100000965``), a reference to an object that is gone. Found by
    fuzzing (tests/stress/fuzz.py): one flipped byte in the table left the page whose contents
    the entry located empty, without a word. The file is scanned (one regular expression, not a
    parse of its objects) at the first such look-up, so an intact file is never scanned; the
    last header of a number wins, as an update appended to a file replaces its objects. Objects
    packed in object streams are not found this way (LibreOffice writes none). ``found`` holds
    the objects it gave. It lists only the objects the other tables do not, as pdfminer lists
    every table's objects to find pages when the catalog names none."""
    from pdfminer.pdfdocument import PDFXRef

    class ScannedXRef(PDFXRef):
        def __init__(self) -> None:
            super().__init__()
            self.scanned = False
            self.found: set[int] = set()

        def _scan(self) -> None:
            if not self.scanned:
                self.scanned = True
                for m in _LINE_OBJ_RE.finditer(data):
                    self.offsets[int(m.group(1))] = (None, m.start(1), int(m.group(2)))

        def get_objids(self):  # noqa: ANN202
            self._scan()
            listed = {objid for xref in others for objid in xref.get_objids()}
            return [objid for objid in self.offsets if objid not in listed]

        def get_pos(self, objid):  # noqa: ANN001, ANN202
            self._scan()
            pos = super().get_pos(objid)  # (KeyError: not in the file either)
            self.found.add(objid)
            return pos

    return ScannedXRef()


def _resolved_stream(item):  # noqa: ANN001, ANN202
    """A page's content stream, or None (a damaged reference)."""
    from pdfminer.pdftypes import PDFStream, resolve1

    try:
        stream = resolve1(item)
    except Exception:  # noqa: BLE001 — what a damaged reference raises
        return None
    return stream if isinstance(stream, PDFStream) else None


_ZLIB_HEADERS = (b"x\x01", b"x^", b"x\x9c", b"x\xda")
_FILTERS = {"FlateDecode", "Fl", "LZWDecode", "LZW", "ASCII85Decode", "A85", "ASCIIHexDecode", "AHx",
            "RunLengthDecode", "RL", "CCITTFaxDecode", "CCF", "DCTDecode", "DCT", "JBIG2Decode", "JPXDecode",
            "Crypt"}


def _flate_without_filter(stream, data: bytes) -> bool:  # noqa: ANN001 - a pdfminer PDFStream
    """True, and the stream given its filter again, when a page's contents stream has lost its
    filter (a run of bytes inserted in its dictionary: pdfminer read ``{}``; or a flipped byte
    made it a filter no reader knows, ``/FlateDecode\xf2``) and its data is one whole zlib
    stream, as LibreOffice writes them: the compressed bytes were read as operators, and the
    page was empty without a word (found by fuzzing). Content operators are text, so data that
    inflates whole, its checksum right, is compressed data. A dictionary whose end was damaged
    (``/FlateDecode\xf2>``) left pdfminer no data at all: it is taken from the file (``data``),
    between the object's ``stream`` and ``endstream`` — only then (a stream always has a
    ``/Length``: an empty page's has one), so an intact file is not searched."""
    from pdfminer.psparser import LIT

    raw = getattr(stream, "rawdata", None)
    try:
        names = [getattr(kind, "name", kind) for kind, _ in stream.get_filters()]
    except Exception:  # noqa: BLE001 — a damaged /Filter or /DecodeParms
        names = ["?"]
    if names and all(name in _FILTERS for name in names):
        return False
    if raw == b"" and "Length" not in stream.attrs and isinstance(getattr(stream, "objid", None), int):
        raw = _stream_bytes(data, stream.objid)
    if not raw or not raw.startswith(_ZLIB_HEADERS) or not _inflates_whole(raw):
        return False
    stream.attrs["Filter"] = LIT("FlateDecode")
    stream.attrs.pop("DecodeParms", None)
    stream.rawdata, stream.data = raw, None
    return True


# the keys a page's dictionary may hold (ISO 32000-2, table 31)
_PAGE_KEYS = {"Type", "Parent", "LastModified", "Resources", "MediaBox", "CropBox", "BleedBox", "TrimBox",
              "ArtBox", "BoxColorInfo", "Contents", "Rotate", "Group", "Thumb", "B", "Dur", "Trans", "Annots",
              "AA", "Metadata", "PieceInfo", "StructParents", "ID", "PZ", "SeparationInfo", "Tabs",
              "TemplateInstantiated", "PresSteps", "UserUnit", "VP", "AF", "OutputIntents", "DPart"}


def _contents_under_a_damaged_key(page) -> bool:  # noqa: ANN001 - a pdfminer PDFPage
    """True, and the page given its contents, when a page without ``/Contents`` holds a key no
    page has whose value is a stream or an array of streams: ``/Con\\ents 2 0 R``, a flipped
    byte in the key (the page was read empty without a word — found by fuzzing)."""
    from pdfminer.pdftypes import PDFStream, resolve1

    if page.contents:
        return False
    for key, value in page.attrs.items():
        if key in _PAGE_KEYS:
            continue
        try:
            target = resolve1(value)
            items = [resolve1(item) for item in (target if isinstance(target, list) else [target])]
        except Exception:  # noqa: BLE001
            continue
        if items and all(isinstance(item, PDFStream) for item in items):
            page.contents = items
            return True
    return False


_STREAM_KEYWORD_RE = re.compile(rb"stream\r?\n")


def _stream_bytes(data: bytes, objid: int) -> bytes:
    """The bytes between ``stream`` and ``endstream`` of object ``objid`` in the file, or b""."""
    start = re.search(rb"(?<![0-9])%d\s+\d+\s+obj\b" % objid, data)
    if start is None:
        return b""
    opened = _STREAM_KEYWORD_RE.search(data, start.end(), start.end() + 4096)
    end = data.find(b"endstream", opened.end()) if opened else -1
    return data[opened.end():end].rstrip(b"\r\n") if end > 0 else b""


def _inflates(stream) -> bool:  # noqa: ANN001 - a pdfminer PDFStream
    """False when a Flate stream's data is damaged (a zlib error, or cut before its end)."""
    from pdfminer.pdftypes import LITERALS_FLATE_DECODE

    raw = getattr(stream, "rawdata", None)
    filters = stream.get_filters() if raw is not None else []
    if not filters or filters[0][0] not in LITERALS_FLATE_DECODE or stream.decipher is not None:
        return True
    return _inflates_whole(raw)


def _inflates_whole(raw: bytes) -> bool:
    """True when ``raw`` is zlib data that inflates to its end, its checksum right (or whose
    first 4 MB inflate without an error: a longer stream is not inflated twice)."""
    inflater = zlib.decompressobj()
    try:
        inflater.decompress(raw, 1 << 22)
    except zlib.error:
        return False
    return inflater.eof or bool(inflater.unconsumed_tail)


def _interpreter(manager, device):  # noqa: ANN001, ANN202 - pdfminer's
    """pdfminer's page interpreter, but a font name the resources do not hold (a damaged content
    stream's ``/F\x83 12 Tf``) sets the lost-font placeholder: pdfminer set a default font that
    reads the codes through a standard encoding (garbage, indexed without a warning)."""
    from pdfminer.pdfinterp import PDFPageInterpreter
    from pdfminer.psparser import PSLiteral

    class Interpreter(PDFPageInterpreter):
        def do_Tf(self, fontid, fontsize):  # noqa: ANN001, ANN202
            key = fontid.name if isinstance(fontid, PSLiteral) else fontid
            try:
                missing = key not in self.fontmap
            except TypeError:  # (an unhashable operand)
                missing, key = True, None
            if missing:
                lost = self.rsrcmgr.get_font(None, _lost_font_spec())
                if key is not None:
                    self.fontmap[key] = lost
                else:
                    self.textstate.font = lost
                    return
            super().do_Tf(fontid, fontsize)

        def do_TJ(self, seq):  # noqa: ANN001, ANN202
            if isinstance(seq, list):  # (a damaged operand draws nothing; pdfminer raised)
                super().do_TJ(seq)

    return Interpreter(manager, device)


def _lost_font_spec(name: str = "") -> dict:
    from pdfminer.psparser import LIT

    name = name or LOST_FONT
    return {"Type": LIT("Font"), "Subtype": LIT("Type1"), "BaseFont": LIT(name),
            "FontDescriptor": {"Type": LIT("FontDescriptor"), "FontName": LIT(name), "Flags": 32,
                               "FontBBox": [0, 0, 1000, 1000], "ItalicAngle": 0, "Ascent": 800, "Descent": -200,
                               "CapHeight": 700, "StemV": 80}}


def _rebuilt_pages(body: bytes, number: int, named: set[tuple[bytes, bytes]]) -> tuple[bytes, int]:
    """Page objects (numbered from ``number``) for the content streams that survive and no page
    names (``named``: (number, generation) of the surviving pages' contents), in the order
    written, and how many.

    A content stream names its fonts (``/F1 12 Tf``) through the page's resources, lost with the
    page. The names come from a surviving font dictionary (``<</F1 26 0 R …>>``, LibreOffice's
    written after the fonts), else from LibreOffice's own rule: font ``/Fk`` is the font whose
    subset tag is k in base 26, least significant letter first (``BAAAAA+`` is ``/F1``; its PDF
    writer's ``appendSubsetName``). Text in a font that did not survive is dropped (and counted),
    not guessed.
    """
    fonts: dict[bytes, bytes] = {}
    for m in _FONT_OBJ_RE.finditer(body):
        tag = m.group(3)
        k = sum((c - 65) * 26 ** i for i, c in enumerate(tag))
        fonts[b"F%d" % k] = b"%s %s R" % (m.group(1), m.group(2))
    for m in _FONT_DICT_RE.finditer(body):
        for ref in _FONT_REF_RE.finditer(m.group(1)):
            fonts[ref.group(1)] = b"%s %s R" % (ref.group(2), ref.group(3))
    box = _MEDIABOX_RE.findall(body)
    media = box[-1].strip() if box else b"0 0 595.28 841.89"  # (A4 when no page size survives)
    out = []
    count = 0
    for m in _STREAM_OBJ_RE.finditer(body):
        header = m.group(3)
        if (m.group(1), m.group(2)) in named:
            continue
        if re.search(rb"/(Type|Subtype|Length1|Length2|DecodeParms|Predictor|PatternType|ShadingType|FunctionType)\b", header):
            continue  # fonts, images, forms, object and xref streams
        if re.search(rb"/Filter", header) and not re.search(rb"/Filter\s*/FlateDecode\s*(/|$)", header):
            continue
        raw = body[m.end():body.find(b"endstream", m.end())]
        try:
            content = zlib.decompressobj().decompress(raw, _REBUILT_SCAN) if b"/Filter" in header else raw[:_REBUILT_SCAN]
        except zlib.error:
            continue
        if b"BT" not in content or not _TF_RE.search(content):
            continue
        # (a font that did not survive is left out of the page's fonts: the interpreter gives a
        # name its page does not hold the lost-font placeholder, see _interpreter)
        names = dict.fromkeys(_TF_RE.findall(content))
        font_dict = b" ".join(b"/%s %s" % (name, fonts[name]) for name in names if name in fonts)
        out.append(b"\n%d 0 obj\n<< /Type /Page /MediaBox [%s] /Contents %s %s R /Resources << /Font << %s >> >> >>\nendobj\n"
                   % (number + count, media, m.group(1), m.group(2), font_dict))
        count += 1
    return (b"".join(out), count) if count else (b"", 0)


def _extract(data: bytes, limits: ExtractLimits) -> Extracted:
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.pdfdocument import PDFDocument, PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.pdfparser import PDFParser
    from pdfminer.psexceptions import PSException

    parser = PDFParser(io.BytesIO(data))
    try:
        # The empty user password opens files that only have an owner password (print/copy
        # restrictions): their text is extracted like any other.
        document = PDFDocument(parser, password="")
    except PDFPasswordIncorrect as exc:
        raise ExtractError("encrypted", "password-protected PDF: remove the password") from exc
    except PDFEncryptionError as exc:
        raise ExtractError("encrypted", f"encrypted PDF this program cannot open ({exc})") from exc
    except (PSException, ValueError, KeyError, TypeError) as exc:
        # the document information (author, title) is read with the trailer: damaged, it lost
        # the whole PDF ("Invalid dictionary construct: [/'Author', …" — found by fuzzing); it is
        # not text, so the PDF is read again without it
        info = data.rfind(b"/Info")
        try:
            if info < 0:
                raise exc
            document = PDFDocument(PDFParser(io.BytesIO(data[:info] + b"/Xnfo" + data[info + 5:])), password="")
        except Exception:  # noqa: BLE001
            raise ExtractError("corrupt", f"damaged PDF: {exc or type(exc).__name__}") from exc
    scanned = _scanned_xref(data, list(document.xrefs))
    document.xrefs.append(scanned)
    stats: dict[str, Any] = {"images": 0, "lost": 0, "kept": 0, "strict": set(), "damaged_maps": set(),
                             "checked_maps": set(), "damaged_widths": set()}
    manager = _resource_manager(stats["strict"])
    # No layout analysis by pdfminer (laparams=None): its line and box grouping breaks up the
    # lines of LibreOffice PDFs that mix Chinese and Latin text; visual lines are rebuilt from
    # the glyphs below (see _baseline_rows).
    device = PDFPageAggregator(manager, laparams=None)
    interpreter = _interpreter(manager, device)
    cap = limits.max_unzipped_mb * 1024 * 1024
    page_rows: list[tuple[list[list[_Line]], float, float]] = []
    page_rotated: list[list[_Box]] = []
    checked: set[int] = set()
    warnings: list[str] = []
    damaged_pages: dict[int, str] = {}  # page number → what was damaged (the first sign)
    unfiltered: list[int] = []  # pages whose contents lost their dictionary, read as compressed data
    misnamed: list[int] = []  # pages whose /Contents key was damaged, read from the stream it names
    try:
        for page in _pages(document, warnings):
            _check_page_streams(page, cap, checked)
            page.resources = _lost_fonts_marked(page.resources, stats["damaged_maps"], stats["checked_maps"],
                                                stats["damaged_widths"])
            if _contents_under_a_damaged_key(page):
                misnamed.append(len(page_rows) + 1)
            streams = list(map(_resolved_stream, page.contents or []))
            if any([_flate_without_filter(stream, data) for stream in filter(None, streams)]):
                unfiltered.append(len(page_rows) + 1)
            if not all(map(_inflates, filter(None, streams))):
                # (a flipped byte in a page's compressed contents: what inflates after it is noise)
                damaged_pages[len(page_rows) + 1] = "damaged compressed data"
            elif None in streams:  # (named, but found nowhere in the file, or not a stream)
                damaged_pages[len(page_rows) + 1] = "lost"
            try:
                interpreter.process_page(page)
            except (ExtractError, MemoryError, RecursionError):
                raise
            except Exception as exc:  # noqa: BLE001 — pdfminer's operators raise many kinds on damage
                # a damaged content stream: the page's text up to the damage is kept (found by
                # fuzzing: a TJ whose operand was damaged lost the whole document, "'PSLiteral'
                # object is not iterable")
                log.info("page %d damaged: %r", len(page_rows) + 1, exc)
                device.end_page(page)
                damaged_pages.setdefault(len(page_rows) + 1, type(exc).__name__)
            layout = device.get_result()
            glyphs: list[_Glyph] = []
            rotated: list[_Glyph] = []
            _glyphs(layout, glyphs, rotated, stats)
            page_rows.append((_page_rows(glyphs), layout.height, layout.width))
            page_rotated.append(_rotated_boxes(rotated, layout.height))
    except (ExtractError, MemoryError, RecursionError):
        raise
    except Exception as exc:  # noqa: BLE001 — PSException, and what a damaged page tree raises
        if not page_rows:
            raise ExtractError("corrupt", f"damaged PDF: {exc or type(exc).__name__}") from exc
        log.info("PDF damaged after page %d: %r", len(page_rows), exc)
        warnings.append(f"recovered from a damaged file: the PDF is damaged after page {len(page_rows)} "
                        f"({exc or type(exc).__name__}); the pages after it are lost")
    if not page_rows:
        raise ExtractError("corrupt", "damaged PDF: no pages found")
    if scanned.found:
        n = len(scanned.found)
        warnings.insert(0, f"recovered from a damaged file: its cross-reference table is damaged; {n} "
                           f"object{'s' if n != 1 else ''} found by reading the whole file")
    if misnamed:
        warnings.append(f"recovered from a damaged file: the name of the contents of page{'s' if len(misnamed) != 1 else ''} "
                        f"{', '.join(map(str, misnamed))} is damaged; read from the stream it names")
    if unfiltered:
        warnings.append(f"recovered from a damaged file: the contents of page{'s' if len(unfiltered) != 1 else ''} "
                        f"{', '.join(map(str, unfiltered))} lost their description and were read as the "
                        "compressed data they hold")
    if damaged_pages:
        warnings.append(f"recovered from a damaged file: the contents of page{'s' if len(damaged_pages) != 1 else ''} "
                        f"{', '.join(f'{n} ({why})' for n, why in damaged_pages.items())} are damaged; their text "
                        "after the damage is lost or read wrongly")
    if stats["lost"]:
        if not stats["kept"]:
            error = ExtractError("corrupt", f"damaged PDF: the fonts of its text are lost ({stats['lost']} characters "
                                            "cannot be read)")
            error.final = True  # (its objects were all read: reading them again cannot help)
            raise error
        warnings.append(f"{stats['lost']} characters whose font is lost are left out")
    if stats["damaged_widths"]:
        n = len(stats["damaged_widths"])
        warnings.append(f"the glyph widths of {n} font{'s' if n != 1 else ''} are damaged: "
                        "characters may be read in another order or left out")
    if stats["damaged_maps"]:
        n = len(stats["damaged_maps"])
        warnings.append(f"the character map of {n} font{'s' if n != 1 else ''} is damaged: some characters "
                        "may be read wrongly")
    edges = _line_edges(page_rows)
    pitch = _line_pitches([rows for rows, _, _ in page_rows], edges)
    pages = [
        _page_boxes(rows, height, width, pitch, edges) + rotated
        for (rows, height, width), rotated in zip(page_rows, page_rotated)
    ]
    furniture_at = _furniture(pages, [height for _, height, _ in page_rows], pitch[0])
    paragraphs: list[str] = []
    furniture: set[int] = set()
    last_body = -1  # index in ``paragraphs`` of the latest body paragraph
    for p, boxes in enumerate(pages):
        first_on_page = True
        for i, box in enumerate(boxes):
            for paragraph in box.paragraphs:
                if (p, i) in furniture_at:
                    furniture.add(len(paragraphs))
                    paragraphs.append(paragraph)
                    continue
                carried = (first_on_page and p > 0) or box.column_top
                if carried and last_body >= 0 and _continues(paragraphs[last_body], paragraph):
                    # A paragraph broken by the page or column end: rejoin it; the page's
                    # furniture follows the whole paragraph.
                    paragraphs[last_body] = join_wrapped([paragraphs[last_body], paragraph])
                else:
                    last_body = len(paragraphs)
                    paragraphs.append(paragraph)
                first_on_page = False
    meta = {"pages": str(len(pages))}
    info = document.info[0] if document.info else {}
    for key, name in (("Title", "title"), ("Author", "author")):
        value = _info_text(info.get(key))
        if value:
            meta[name] = value
    result = Extracted(paragraphs=resolve_line_hyphens(paragraphs), furniture=furniture, meta=meta, warnings=warnings)
    if stats["images"]:
        # Used only when the body has no words (build_document): pages that are pictures.
        result.empty_code = "scanned-pdf"
        result.empty_reason = "scanned PDF: no text layer"
    return result


def _info_text(value) -> str:
    from pdfminer.pdftypes import resolve1
    from pdfminer.utils import decode_text

    value = resolve1(value)
    if isinstance(value, bytes):
        try:
            return decode_text(value).strip()
        except Exception:  # noqa: BLE001 — metadata is optional
            return ""
    if isinstance(value, str):
        return value.strip()
    return ""
