"""Reading order and paragraphs of a PDF from its visual lines, and the document they make.

Columns are found by their gutter, tables read column by column, paragraphs formed from the
lines of each column by the document's own line pitch and right edges, and paragraphs broken by
a page or column end joined again; running headers, footers and page numbers are marked
(:mod:`.furniture`). Reader-free: both readers' lines come through here.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter

from neardup_gui.core.extract.common import Extracted, join_wrapped, resolve_line_hyphens
from neardup_gui.core.extract.pdf.furniture import find_furniture
from neardup_gui.core.document import CharSpan
from neardup_gui.core.extract.pdf.lines import CJK_CHAR_RE, HIDDEN_END, HIDDEN_START, Box, Line

# (page rows, page height, page width) of each page, as :func:`assemble` takes them
PageRows = tuple[list[list[Line]], float, float]


def extracted(page_rows: list[PageRows], page_rotated: list[list[Box]], meta: dict[str, str],
              warnings: list[str], images: int = 0) -> Extracted:
    """The extraction of a PDF from each page's visual lines and rotated runs (:func:`assemble`):
    words broken at line ends mended from the document's own words, hidden glyphs' marks made
    the paragraphs' hidden spans; ``images``, the number of pictures drawn, makes a PDF without
    words a scanned one."""
    paragraphs, furniture = assemble(page_rows, page_rotated)
    paragraphs = resolve_line_hyphens(paragraphs)
    hidden: dict[int, list[CharSpan]] = {}
    for index, paragraph in enumerate(paragraphs):
        if HIDDEN_START in paragraph or HIDDEN_END in paragraph:
            paragraphs[index], hidden[index] = _without_hidden_marks(paragraph)
    result = Extracted(paragraphs=paragraphs, furniture=furniture, meta=meta, warnings=warnings, hidden=hidden)
    if images:
        # Used only when the body has no words (build_document): pages that are pictures.
        result.empty_code = "scanned-pdf"
        result.empty_reason = "scanned PDF: no text layer"
    return result


_HIDDEN_MARK_RE = re.compile(f"([{HIDDEN_START}{HIDDEN_END}])")


def _without_hidden_marks(paragraph: str) -> tuple[str, list[CharSpan]]:
    """A paragraph without the marks of hidden glyphs (HIDDEN_START … HIDDEN_END), and the spans
    they marked in what is left, white space at their ends left out (a space drawn after a hidden
    glyph is not hidden; a mark left open runs to the paragraph's end)."""
    out: list[str] = []
    spans: list[CharSpan] = []
    length, opened = 0, -1
    for piece in _HIDDEN_MARK_RE.split(paragraph):
        if piece == HIDDEN_START:
            opened = length if opened < 0 else opened
        elif piece == HIDDEN_END:
            if 0 <= opened < length:
                spans.append((opened, length))
            opened = -1
        else:
            out.append(piece)
            length += len(piece)
    if 0 <= opened < length:
        spans.append((opened, length))
    text = "".join(out)
    trimmed = []
    for start, end in spans:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end:
            trimmed.append((start, end))
    return text, trimmed


def assemble(page_rows: list[PageRows], page_rotated: list[list[Box]]) -> tuple[list[str], set[int]]:
    """The document's paragraphs in reading order and the indices of those that are page
    furniture, from each page's visual lines and rotated runs (placed after the page's body)."""
    edges = _line_edges(page_rows)
    pitch = _line_pitches([rows for rows, _, _ in page_rows], edges)
    pages = [
        _page_boxes(rows, height, width, pitch, edges) + rotated
        for (rows, height, width), rotated in zip(page_rows, page_rotated)
    ]
    furniture_at = find_furniture(pages, [height for _, height, _ in page_rows], pitch[0])
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
    return paragraphs, furniture


def _gutter_order(rows: list[list[Line]]) -> list[tuple[list[list[Line]], str]]:
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
    out: list[tuple[list[list[Line]], str]] = []
    spanning: list[list[Line]] = []
    band_left: list[list[Line]] = []
    band_right: list[list[Line]] = []

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


def _flows(rows: list[list[Line]]) -> list[list[Line]]:
    """Reading order: single-cell rows flow in order; a run of multi-cell rows (a table, two
    columns on a shared baseline grid) is read column by column.

    A single-cell row right after a multi-cell run (within three lines' height) stays in the
    run when it lies inside one of the run's columns (a cell or column with more lines than
    its neighbours).
    """
    flows: list[list[Line]] = []
    current: list[Line] = []
    block: list[list[Line]] = []
    columns: list[list[float]] = []

    def flush_block() -> None:
        if not block:
            return
        ordered: list[list[Line]] = [[] for _ in columns]
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


def _column_of(columns: list[list[float]], line: Line, strict: bool = False) -> int:
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
    lines: list[Line],
    pitch: tuple[float, dict[tuple[int, int], float]],
    page: tuple[float, dict[tuple[int, int], tuple[float, int]]] | None,
) -> list[tuple[list[str], Line, Line, int]]:
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
    out: list[tuple[list[str], Line, Line, int]] = []
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
    rows: list[list[Line]],
    page_height: float,
    page_width: float,
    pitch: tuple[float, dict[tuple[int, int], float]],
    edges: dict[tuple[int, int], tuple[float, int]],
) -> list[Box]:
    """A page's paragraphs in reading order, each with its place on the page (for furniture)."""
    boxes: list[Box] = []
    for group, side in _gutter_order(rows):
        column_top = side == "right"
        for flow in _flows(group):
            # Inside a column the document's other lines say nothing about the right edge.
            for texts, first, last, count in _flow_paragraphs(flow, pitch, None if side else (page_width, edges)):
                text = join_wrapped(texts)
                if text:
                    boxes.append(Box([text], page_height - first.y1, last.y0, count, column_top))
                    column_top = False
    return boxes


def _line_edges(page_rows: list[PageRows]) -> dict[tuple[int, int], tuple[float, int]]:
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
    pages_rows: list[list[list[Line]]], edges: dict[tuple[int, int], tuple[float, int]]
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


_TERMINAL = set(".!?。！？:：;；\"”’)）]】」』…")


def _continues(previous: str, following: str) -> bool:
    """True when ``following`` (first on a page) carries on ``previous`` (last on the page before)."""
    if not previous or not following or previous[-1] in _TERMINAL:
        return False
    first = following[0]
    if first.islower() or previous[-1] in "-\u00ad\u2010,，、":
        return True
    return bool(CJK_CHAR_RE.match(previous[-1]) and CJK_CHAR_RE.match(first) and first not in "第")

