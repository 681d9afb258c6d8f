"""The salvage reader: a PDF's glyphs read with pdfminer.six, its damage repaired and said.

pdfminer.six is slow (its content-stream interpreter is Python) but every object it reads is in
our hands: a damaged cross-reference table, page tree, content stream or font is recovered by
:mod:`.salvage` and :mod:`.fonts` and said in the document's warnings. It reads what the fast
reader (:mod:`.fium`) does not: damaged files and pages PDFium cannot read.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from neardup_gui.core.extract.common import ExtractError, Extracted, has_text
from neardup_gui.core.extract.pdf import hidden as hiding
from neardup_gui.core.extract.pdf.fonts import LOST_FONT, NO_TEXT_FONT, interpreter, lost_fonts_marked, resource_manager
from neardup_gui.core.extract.pdf.layout import PageRows, extracted
from neardup_gui.core.extract.pdf.lines import (
    LIGATURES,
    Box,
    Glyph,
    GlyphColumns,
    page_rows,
    page_transform,
    rotated_boxes,
)
from neardup_gui.core.extract.pdf.salvage import (
    check_page_streams,
    contents_under_a_damaged_key,
    document_pages,
    flate_without_filter,
    inflates,
    resolved_stream,
    scanned_xref,
    surviving_objects,
)
from neardup_gui.core.settings import ExtractLimits

if TYPE_CHECKING:  # pdfminer.six is imported where it is used (only damaged files need it)
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.layout import LTLayoutContainer, LTPage
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfinterp import PDFResourceManager
    from pdfminer.pdfpage import PDFPage

log = logging.getLogger(__name__)

# Glyphs without a Unicode mapping come out as "(cid:123)": noise, not text.
_CID_RE = re.compile(r"\(cid:\d+\)")


def read(data: bytes, limits: ExtractLimits) -> Extracted:
    """Extract a PDF's text; raises ExtractError for encrypted, scanned or damaged files.

    A PDF whose end is lost (cross-reference table, trailer, a cut download) is read again from
    the objects that survive (pdfminer's fallback parser over the complete objects, under a
    trailer naming the surviving catalog, or a new one so that the page objects are found by
    scanning); the result carries a warning. What has no surviving page keeps its reason.
    """
    try:
        return _read(data, limits)
    except ExtractError as exc:
        if exc.code != "corrupt" or getattr(exc, "final", False):
            raise
        patched = surviving_objects(data)
        if patched is None:
            raise
        lost = ExtractError("corrupt", f"damaged PDF: {patched[1]}, and no page with text survives ({exc.reason})")
        try:
            result = _read(patched[0], limits)
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


def page_glyphs(layout: LTPage, out: list[Glyph], rotated: list[Glyph], stats: dict[str, Any],
                page_box: tuple[float, float, float, float] | None = None) -> None:
    """The page's glyphs: upright ones into ``out``, rotated ones (in drawing order) into
    ``rotated``, each marked hidden as :mod:`.hidden` says (``page_box``: the visible box,
    the layout's box when None); images are counted."""
    drawn = _Drawn()
    _collect(layout, out, rotated, stats, drawn)
    glyphs = out[len(out) - len(drawn.upright_notes):] + rotated[len(rotated) - len(drawn.turned_notes):]
    if not glyphs:
        return
    box = page_box if page_box is not None else (layout.x0, layout.y0, layout.x1, layout.y1)
    notes = np.array(drawn.upright_notes + drawn.turned_notes, dtype=np.float64).reshape(-1, 4)
    arrays = hiding.PageGlyphs(*(np.array([getattr(g, name) for g in glyphs], dtype=np.float64)
                                 for name in ("x0", "y0", "x1", "y1", "size")),
                               *(notes[:, k].astype(np.int64) for k in range(3)), notes[:, 3],
                               np.full((len(glyphs), 4), np.nan))
    for glyph, hidden in zip(glyphs, hiding.hidden(arrays, box, drawn.covers).tolist()):
        glyph.hidden = hidden


@dataclass
class _Drawn:
    """What :func:`_collect` notes for the hidden-text rule: each glyph's render mode, colours and
    place in the drawing order (upright ones first, as ``out`` then ``rotated``), and covers."""

    order_now: int = 0
    upright_notes: list[tuple[int, int, int, int]] = field(default_factory=list)
    turned_notes: list[tuple[int, int, int, int]] = field(default_factory=list)
    covers: list[hiding.Cover] = field(default_factory=list)


def _collect(layout: LTLayoutContainer, out: list[Glyph], rotated: list[Glyph], stats: dict[str, Any],
             drawn: _Drawn) -> None:
    from pdfminer.layout import LTChar, LTCurve, LTFigure, LTImage

    for obj in layout:
        drawn.order_now += 1
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
            text = text.translate(LIGATURES)
            state = getattr(obj, "graphicstate", None)
            note = (getattr(obj, "render_mode", 0), _rgba(getattr(state, "ncolor", None)),
                    _rgba(getattr(state, "scolor", None)), drawn.order_now)
            if obj.upright:
                out.append(Glyph(text, obj.x0, obj.x1, obj.y0, obj.y1, obj.matrix[5], size))
                drawn.upright_notes.append(note)
            else:
                rotated.append(Glyph(text, obj.x0, obj.x1, obj.y0, obj.y1, (obj.y0 + obj.y1) / 2, size))
                drawn.turned_notes.append(note)
        elif isinstance(obj, LTImage):
            stats["images"] += 1
            drawn.covers.append(hiding.Cover(obj.x0, obj.y0, obj.x1, obj.y1, None, drawn.order_now))
        elif isinstance(obj, LTFigure):
            _collect(obj, out, rotated, stats, drawn)
        elif isinstance(obj, LTCurve) and obj.fill:
            colour = _rgba(obj.non_stroking_color)
            drawn.covers.append(hiding.Cover(obj.x0, obj.y0, obj.x1, obj.y1, colour, drawn.order_now))


def _rgba(colour: object) -> int:
    """A pdfminer colour (gray, RGB or CMYK components from 0 to 1) as opaque 0xRRGGBBAA; black
    for what is not such a colour (a pattern: what shows is not known, so taken as ink). pdfminer
    keeps no transparency: its text is never fully transparent."""
    if isinstance(colour, (int, float)):
        colour = (colour,)
    if not isinstance(colour, (tuple, list)) or not all(isinstance(v, (int, float)) for v in colour):
        return 0x000000FF
    values = [min(max(float(v), 0.0), 1.0) for v in colour]
    if len(values) == 1:
        r = g = b = values[0]
    elif len(values) == 3:
        r, g, b = values
    elif len(values) == 4:
        c, m, y, k = values
        r, g, b = (1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)
    else:
        return 0x000000FF
    return round(r * 255) << 24 | round(g * 255) << 16 | round(b * 255) << 8 | 255


@dataclass
class _Damage:
    """What reading the pages met, page numbers from 1: said in the document's warnings."""

    warnings: list[str] = field(default_factory=list)
    pages: dict[int, str] = field(default_factory=dict)  # page → what was damaged (the first sign)
    unfiltered: list[int] = field(default_factory=list)  # contents read as the compressed data they hold
    misnamed: list[int] = field(default_factory=list)  # contents under a damaged /Contents key
    objects_found: int = 0  # objects the cross-reference table lost, found by reading the file


def _read(data: bytes, limits: ExtractLimits) -> Extracted:
    document = _open(data)
    scanned = scanned_xref(data, list(document.xrefs))
    document.xrefs.append(scanned)
    stats: dict[str, Any] = {"images": 0, "lost": 0, "kept": 0, "strict": set(), "damaged_maps": set(),
                             "checked_maps": set(), "damaged_widths": set()}
    damage = _Damage()
    rows, rotated = _read_pages(document, data, limits, stats, damage)
    damage.objects_found = len(scanned.found)
    warnings = _warnings(damage, stats)
    meta = {"pages": str(len(rows))}
    info = document.info[0] if document.info else {}
    for key, name in (("Title", "title"), ("Author", "author")):
        value = _info_text(info.get(key))
        if value:
            meta[name] = value
    return extracted(rows, rotated, meta, warnings, images=stats["images"])


def _open(data: bytes) -> PDFDocument:
    """pdfminer's document of ``data``; ExtractError when it is encrypted or cannot be opened."""
    from pdfminer.pdfdocument import PDFDocument, PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.pdfparser import PDFParser
    from pdfminer.psexceptions import PSException

    try:
        # The empty user password opens files that only have an owner password (print/copy
        # restrictions): their text is extracted like any other.
        return PDFDocument(PDFParser(io.BytesIO(data)), password="")
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
            return PDFDocument(PDFParser(io.BytesIO(data[:info] + b"/Xnfo" + data[info + 5:])), password="")
        except Exception:  # noqa: BLE001
            raise ExtractError("corrupt", f"damaged PDF: {exc or type(exc).__name__}") from exc


def _read_pages(document: PDFDocument, data: bytes, limits: ExtractLimits, stats: dict[str, Any],
                damage: _Damage, wanted: set[int] | None = None) -> tuple[list[PageRows], list[list[Box]]]:
    """Each page's visual lines and rotated runs; what was damaged goes to ``damage``. With
    ``wanted`` (page indices from 0), only those pages are read (the others have no rows)."""

    manager = resource_manager(stats["strict"])
    # No layout analysis by pdfminer (laparams=None): visual lines are rebuilt from the glyphs
    # (lines.page_rows).
    device = _device(manager)
    pages_interpreter = interpreter(manager, device)
    cap = limits.max_unzipped_mb * 1024 * 1024
    rows: list[PageRows] = []
    rotated_runs: list[list[Box]] = []
    checked: set[int] = set()
    try:
        for page in document_pages(document, damage.warnings):
            number = len(rows) + 1
            if wanted is not None and number - 1 not in wanted:
                rows.append(([], 0.0, 0.0))
                rotated_runs.append([])
                continue
            check_page_streams(page, cap, checked)
            page.resources = lost_fonts_marked(page.resources, stats["damaged_maps"], stats["checked_maps"],
                                               stats["damaged_widths"])
            if contents_under_a_damaged_key(page):
                damage.misnamed.append(number)
            streams = list(map(resolved_stream, page.contents or []))
            if any([flate_without_filter(stream, data) for stream in filter(None, streams)]):
                damage.unfiltered.append(number)
            if not all(map(inflates, filter(None, streams))):
                # (a flipped byte in a page's compressed contents: what inflates after it is noise)
                damage.pages[number] = "damaged compressed data"
            elif None in streams:  # (named, but found nowhere in the file, or not a stream)
                damage.pages[number] = "lost"
            try:
                pages_interpreter.process_page(page)
            except (ExtractError, MemoryError, RecursionError):
                raise
            except Exception as exc:  # noqa: BLE001 — pdfminer's operators raise many kinds on damage
                # a damaged content stream: the page's text up to the damage is kept (found by
                # fuzzing: a TJ whose operand was damaged lost the whole document, "'PSLiteral'
                # object is not iterable")
                log.info("page %d damaged: %r", number, exc)
                device.end_page(page)
                damage.pages.setdefault(number, type(exc).__name__)
            layout = device.get_result()
            glyphs: list[Glyph] = []
            turned: list[Glyph] = []
            page_glyphs(layout, glyphs, turned, stats, _visible_box(page, layout))
            rows.append((page_rows(GlyphColumns.of(glyphs)), layout.height, layout.width))
            rotated_runs.append(rotated_boxes(turned, layout.height))
    except (ExtractError, MemoryError, RecursionError):
        raise
    except Exception as exc:  # noqa: BLE001 — PSException, and what a damaged page tree raises
        if not rows:
            raise ExtractError("corrupt", f"damaged PDF: {exc or type(exc).__name__}") from exc
        log.info("PDF damaged after page %d: %r", len(rows), exc)
        damage.warnings.append(f"recovered from a damaged file: the PDF is damaged after page {len(rows)} "
                               f"({exc or type(exc).__name__}); the pages after it are lost")
    if not rows:
        raise ExtractError("corrupt", "damaged PDF: no pages found")
    return rows, rotated_runs


@dataclass
class SomePages:
    """Pages read by this reader for the fast one: rows and rotated runs by page index, the
    pictures drawn on them, and the warnings their reading gives."""

    pages: dict[int, tuple[PageRows, list[Box]]]
    images: int
    warnings: list[str]


def read_pages(data: bytes, limits: ExtractLimits, wanted: set[int]) -> SomePages | None:
    """The pages ``wanted`` (indices from 0) of a PDF the fast reader reads: the pages it could
    not read. None when this reader finds the file damaged or finds other pages (the whole file is
    then read by :func:`read`)."""
    try:
        document = _open(data)
        stats: dict[str, Any] = {"images": 0, "lost": 0, "kept": 0, "strict": set(), "damaged_maps": set(),
                                 "checked_maps": set(), "damaged_widths": set()}
        damage = _Damage()
        rows, rotated = _read_pages(document, data, limits, stats, damage, wanted)
        warnings = _warnings(damage, stats)
    except ExtractError as exc:
        if exc.code == "zip-bomb":
            raise
        return None
    if damage.warnings or damage.pages or damage.unfiltered or damage.misnamed or max(wanted) >= len(rows):
        return None
    return SomePages({i: (rows[i], rotated[i]) for i in wanted}, stats["images"], warnings)


def _device(manager: PDFResourceManager) -> PDFPageAggregator:
    """pdfminer's page aggregator, each character noting the text render mode it was drawn in
    (``render_mode``: its text state is not kept with it)."""
    from pdfminer.converter import PDFPageAggregator

    class Device(PDFPageAggregator):
        def render_string(self, textstate, seq, ncs, graphicstate):  # noqa: ANN001, ANN202
            drawn = self.cur_item._objs
            before = len(drawn)
            super().render_string(textstate, seq, ncs, graphicstate)
            for obj in drawn[before:]:
                obj.render_mode = textstate.render

    return Device(manager, laparams=None)


def _visible_box(page: PDFPage, layout: LTPage) -> tuple[float, float, float, float]:
    """The page's crop box in its glyphs' space (lines.page_transform), the layout's box when
    it has none or it cannot be read."""
    try:
        x0, y0, x1, y1 = (float(v) for v in page.mediabox)
        cx0, cy0, cx1, cy1 = (float(v) for v in page.cropbox)
        a, b, c, d, e, f = page_transform(x0, y0, x1, y1, page.rotate)
    except (TypeError, ValueError):
        return layout.x0, layout.y0, layout.x1, layout.y1
    xs = (a * cx0 + c * cy0 + e, a * cx1 + c * cy1 + e)
    ys = (b * cx0 + d * cy0 + f, b * cx1 + d * cy1 + f)
    return min(xs), min(ys), max(xs), max(ys)


def _pages_named(pages: list[int]) -> str:
    return f"page{'s' if len(pages) != 1 else ''} {', '.join(map(str, pages))}"


def _warnings(damage: _Damage, stats: dict[str, Any]) -> list[str]:
    """The document's warnings, in a fixed order; ExtractError when no character survives."""
    warnings = list(damage.warnings)
    if damage.objects_found:
        n = damage.objects_found
        warnings.insert(0, f"recovered from a damaged file: its cross-reference table is damaged; {n} "
                           f"object{'s' if n != 1 else ''} found by reading the whole file")
    if damage.misnamed:
        warnings.append(f"recovered from a damaged file: the name of the contents of {_pages_named(damage.misnamed)} "
                        "is damaged; read from the stream it names")
    if damage.unfiltered:
        warnings.append(f"recovered from a damaged file: the contents of {_pages_named(damage.unfiltered)} lost "
                        "their description and were read as the compressed data they hold")
    if damage.pages:
        warnings.append(f"recovered from a damaged file: the contents of page{'s' if len(damage.pages) != 1 else ''} "
                        f"{', '.join(f'{n} ({why})' for n, why in damage.pages.items())} are damaged; their text "
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
    return warnings


def _info_text(value: object) -> str:
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
