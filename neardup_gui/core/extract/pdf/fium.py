"""The fast reader: a PDF's glyphs read with PDFium (pypdfium2), laid out as the salvage reader's.

PDFium parses the file and its fonts in C++; the characters of a page and the objects drawn on
it are read in one call each (``_pdfium.c``, or the same calls through ctypes where it is not
built) and turned here into the glyphs :mod:`.lines` sets into lines, the same records the
salvage reader (:mod:`.miner`) gives. What PDFium's text page changes is undone: the spaces it
generates are left out, a line-end hyphen it marks is a hyphen again, a ligature it splits is
one glyph again, and a space it dropped (a text object holding only a space is passed over, a
second space in a row removed) is put back, so both readers give the same glyphs.

:func:`read` gives None when the salvage reader must read the file: pypdfium2 is missing, the
file shows damage (:mod:`.integrity`), or PDFium cannot open it. A page PDFium cannot load, or
whose fonts give some glyphs no character, is read by the salvage reader, and said.
"""

from __future__ import annotations

import ctypes
import functools
import logging
import re
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from neardup_gui.core.extract.common import Extracted
from neardup_gui.core.extract.pdf import hidden as hiding
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
from neardup_gui.core.settings import ExtractLimits

if TYPE_CHECKING:  # PDFium's handles: ctypes pointer types of pypdfium2's raw bindings
    from pypdfium2.raw import FPDF_DOCUMENT, FPDF_FONT, FPDF_PAGE, FPDF_PAGEOBJECT, FPDF_TEXTPAGE

_Coordinate = TypeVar("_Coordinate", float, np.ndarray)

try:  # the compiled reading of a page (setup.py builds it where a C compiler is)
    from neardup_gui.core.extract.pdf import _pdfium as _compiled_pdfium
except ImportError:  # pragma: no cover - a build without a compiler
    _compiled_pdfium = None

log = logging.getLogger(__name__)

# The PDFium functions _pdfium.c calls, in the order of its table.
FUNCTIONS = (
    "FPDFText_CountChars", "FPDFText_GetUnicode", "FPDFText_IsGenerated", "FPDFText_HasUnicodeMapError",
    "FPDFText_IsHyphen", "FPDFText_GetCharOrigin", "FPDFText_GetCharBox", "FPDFText_GetMatrix",
    "FPDFText_GetFontSize", "FPDFText_GetTextObject", "FPDFTextObj_GetFont", "FPDFTextObj_GetTextRenderMode",
    "FPDFPageObj_GetFillColor", "FPDFPageObj_GetStrokeColor", "FPDFPageObj_GetClipPath", "FPDFClipPath_CountPaths",
    "FPDFClipPath_CountPathSegments", "FPDFClipPath_GetPathSegment", "FPDFPathSegment_GetPoint",
    "FPDFPage_CountObjects", "FPDFPage_GetObject", "FPDFPageObj_GetType", "FPDFPageObj_GetBounds",
    "FPDFPath_GetDrawMode", "FPDFFormObj_CountObjects", "FPDFFormObj_GetObject", "FPDFPageObj_GetMatrix",
    "FPDFTextObj_GetFontSize",
)
# One record a character of a text page (_pdfium.c's CharRecord): its origin, its glyph's tight
# box, its matrix, its font size; its text object and font; its code point, flags (_GENERATED,
# _MAP_ERROR, _HYPHEN); its text object's render mode, fill and stroke colours (0xRRGGBBAA)
# and the box of its clip path (NaN: none).
CHAR_DTYPE = np.dtype([
    ("ox", "<f8"), ("oy", "<f8"), ("left", "<f8"), ("right", "<f8"), ("bottom", "<f8"), ("top", "<f8"),
    ("a", "<f8"), ("b", "<f8"), ("c", "<f8"), ("d", "<f8"), ("size", "<f8"), ("object", "<u8"), ("font", "<u8"),
    ("unicode", "<u4"), ("flags", "<i4"), ("render", "<i4"), ("fill", "<u4"), ("stroke", "<u4"),
    ("clip", "<f4", (4,)), ("pad", "<u4"),
])
# One record an object drawn on a page (_pdfium.c's ObjectRecord): its handle, a text object's
# font, its bounds, its matrix, a text object's font size, its type (1 text, 2 path, 3 image,
# 4 shading, 5 form), a path's fill mode (0 not filled), a form's pictures and filled paths, and
# its fill colour.
OBJECT_DTYPE = np.dtype([
    ("object", "<u8"), ("font", "<u8"), ("left", "<f4"), ("bottom", "<f4"), ("right", "<f4"), ("top", "<f4"),
    ("a", "<f4"), ("b", "<f4"), ("c", "<f4"), ("d", "<f4"), ("e", "<f4"), ("f", "<f4"), ("font_size", "<f4"),
    ("type", "<i4"), ("fill_mode", "<i4"), ("images", "<i4"), ("paths", "<i4"), ("fill", "<u4"),
])
_GENERATED, _MAP_ERROR, _HYPHEN = 1, 2, 4
_TEXT, _PATH, _IMAGE, _SHADING, _FORM = 1, 2, 3, 4, 5
_BLACK = 0x000000FF
# A text object narrower than this is passed over by PDFium's text page (its kSizeEpsilon).
_EMPTY_WIDTH = 0.01


@dataclass(frozen=True)
class _Library:
    """pypdfium2's raw PDFium functions, and their addresses in _pdfium.c's order."""

    raw: ModuleType
    table: bytes


@functools.cache
def _library() -> _Library | None:
    """PDFium, initialised once in this process; None when pypdfium2 is not installed."""
    try:
        import pypdfium2.raw as raw
    except ImportError:
        log.info("pypdfium2 is not installed: PDFs are read by pdfminer.six alone")
        return None
    raw.FPDF_InitLibrary()
    addresses = [ctypes.cast(getattr(raw, name), ctypes.c_void_p).value for name in FUNCTIONS]
    table = np.array(addresses, dtype=np.uintp).tobytes()
    if _compiled_pdfium is not None and _compiled_pdfium.sizes() != (CHAR_DTYPE.itemsize, OBJECT_DTYPE.itemsize,
                                                                      len(FUNCTIONS)):
        raise ImportError("_pdfium.c does not match fium.py's records: rebuild it (pip install -e .)")
    return _Library(raw, table)


def available() -> bool:
    """Whether the fast reader can read here (pypdfium2 is installed)."""
    return _library() is not None


@dataclass
class _Document:
    """What reading the pages gives: each page's rows and rotated runs (None: a page the
    salvage reader must read, with the reason), the pictures drawn."""

    rows: list[PageRows | None]
    rotated: list[list[Box]]
    pass_on: dict[int, str]  # page index → why the salvage reader reads it
    images: int = 0


def read(data: bytes, limits: ExtractLimits, compiled: bool = True) -> Extracted | None:
    """The text of an intact PDF read by PDFium; None when the salvage reader must read it (see
    the module's docstring). ``compiled``: read pages with _pdfium.c when it is built."""
    lib = _library()
    if lib is None:
        return None
    raw = lib.raw
    document = raw.FPDF_LoadMemDocument64(data, len(data), None)
    if not document:
        log.info("PDFium cannot open the file (error %d)", raw.FPDF_GetLastError())
        return None
    try:
        count = raw.FPDF_GetPageCount(document)
        if count <= 0:
            return None
        read_pages = _Document([], [], {})
        widths = _Widths(raw)
        for index in range(count):
            _read_page(lib, document, index, read_pages, widths, compiled and _compiled_pdfium is not None)
        meta = {"pages": str(count)}
        for key, name in (("Title", "title"), ("Author", "author")):
            value = _meta_text(raw, document, key)
            if value:
                meta[name] = value
    finally:
        raw.FPDF_CloseDocument(document)
    warnings: list[str] = []
    if read_pages.pass_on:
        from neardup_gui.core.extract.pdf import miner

        passed = miner.read_pages(data, limits, set(read_pages.pass_on))
        if passed is None:
            return None
        for index, (rows, rotated) in passed.pages.items():
            read_pages.rows[index], read_pages.rotated[index] = rows, rotated
        read_pages.images += passed.images
        warnings.extend(_passed_on_warnings(read_pages.pass_on))
        warnings.extend(passed.warnings)
    if any(rows is None for rows in read_pages.rows):
        return None
    return extracted(read_pages.rows, read_pages.rotated, meta, warnings, images=read_pages.images)


def _passed_on_warnings(pass_on: dict[int, str]) -> list[str]:
    by_reason: dict[str, list[int]] = {}
    for index, why in sorted(pass_on.items()):
        by_reason.setdefault(why, []).append(index + 1)
    return [f"page{'s' if len(pages) != 1 else ''} {', '.join(map(str, pages))} read by the salvage reader "
            f"(pdfminer.six): {why}" for why, pages in by_reason.items()]


def _meta_text(raw: ModuleType, document: FPDF_DOCUMENT, key: str) -> str:
    size = raw.FPDF_GetMetaText(document, key.encode("ascii"), None, 0)
    if size <= 2:
        return ""
    buffer = ctypes.create_string_buffer(size)
    raw.FPDF_GetMetaText(document, key.encode("ascii"), buffer, size)
    return buffer.raw[:size - 2].decode("utf-16-le", errors="replace").strip()


class _Widths:
    """The advance width of a character in a font at size 1, and a font's descent, each asked of
    PDFium once a document (PDFium finds a character's code by a search through the font's map)."""

    def __init__(self, raw: ModuleType) -> None:
        self.raw = raw
        self.widths: dict[tuple[int, int], float] = {}
        self.descents: dict[int, float] = {}
        self.value = ctypes.c_float()

    def _font(self, font: int) -> FPDF_FONT:
        return ctypes.cast(ctypes.c_void_p(font), self.raw.FPDF_FONT)

    def width(self, font: int, code: int) -> float:
        key = (font, code)
        found = self.widths.get(key)
        if found is None:
            self.value.value = 0.0
            ok = font and self.raw.FPDFFont_GetGlyphWidth(self._font(font), code, 1.0, self.value)
            found = self.widths[key] = self.value.value if ok else 0.0
        return found

    def descent(self, font: int) -> float:
        found = self.descents.get(font)
        if found is None:
            self.value.value = 0.0
            ok = font and self.raw.FPDFFont_GetDescent(self._font(font), 1.0, self.value)
            found = self.descents[font] = self.value.value if ok else 0.0
        return found

    def widths_of(self, fonts: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """:meth:`width` of each (font, code), asked once for each distinct pair."""
        if not len(codes):
            return np.zeros(0)
        distinct_fonts, font_ids = np.unique(fonts, return_inverse=True)
        keys, inverse = np.unique(font_ids.reshape(-1).astype(np.int64) << 21 | codes.astype(np.int64),
                                  return_inverse=True)
        font_list = distinct_fonts.tolist()
        known, width = self.widths, self.width
        values = np.array([known.get((font_list[k >> 21], k & 0x1FFFFF)) or width(font_list[k >> 21], k & 0x1FFFFF)
                           for k in keys.tolist()])
        return values[inverse.reshape(-1)]

    def descents_of(self, fonts: np.ndarray) -> np.ndarray:
        if not len(fonts):
            return np.zeros(0)
        distinct, inverse = np.unique(fonts, return_inverse=True)
        return np.array([self.descent(f) for f in distinct.tolist()])[inverse.reshape(-1)]


def _read_page(lib: _Library, document: FPDF_DOCUMENT, index: int, out: _Document, widths: _Widths,
               compiled: bool) -> None:
    raw = lib.raw
    page = raw.FPDF_LoadPage(document, index)
    if not page:
        out.rows.append(None)
        out.rotated.append([])
        out.pass_on[index] = "the fast reader could not read it"
        return
    textpage = raw.FPDFText_LoadPage(page)
    try:
        geometry = _Geometry.of(raw, page)
        page_address = ctypes.cast(page, ctypes.c_void_p).value
        text_address = ctypes.cast(textpage, ctypes.c_void_p).value if textpage else 0
        if compiled:
            chars = np.frombuffer(_compiled_pdfium.chars(lib.table, text_address), CHAR_DTYPE) if textpage else \
                np.zeros(0, CHAR_DTYPE)
            objects = np.frombuffer(_compiled_pdfium.objects(lib.table, page_address), OBJECT_DTYPE)
        else:
            chars = _page_chars_py(raw, textpage) if textpage else np.zeros(0, CHAR_DTYPE)
            objects = _page_objects_py(raw, page)
    finally:
        if textpage:
            raw.FPDFText_ClosePage(textpage)
        raw.FPDF_ClosePage(page)
    out.images += int(np.count_nonzero(objects["type"] == _IMAGE) + objects["images"][objects["type"] == _FORM].sum())
    glyphs = _page_glyphs(chars, objects, geometry, widths)
    if glyphs is None:
        out.rows.append(None)
        out.rotated.append([])
        out.pass_on[index] = "its fonts give some glyphs no character"
        return
    upright, turned = glyphs
    out.rows.append((page_rows(upright), geometry.height, geometry.width))
    out.rotated.append(rotated_boxes(turned, geometry.height))


@dataclass(frozen=True)
class _Geometry:
    """A page's size as the salvage reader sees it, and the map from PDFium's page space to it:
    the page box's lower left at the origin, the page's /Rotate applied (pdfminer's ctm)."""

    width: float
    height: float
    ctm: tuple[float, float, float, float, float, float]
    box: tuple[float, float, float, float]  # the visible (crop) box, in the salvage reader's space

    @classmethod
    def of(cls, raw: ModuleType, page: FPDF_PAGE) -> _Geometry:
        box = [ctypes.c_float() for _ in range(4)]
        if raw.FPDFPage_GetMediaBox(page, *box):
            x0, y0, x1, y1 = (v.value for v in box)
        else:
            x0, y0, x1, y1 = 0.0, 0.0, raw.FPDF_GetPageWidthF(page), raw.FPDF_GetPageHeightF(page)
        if not raw.FPDFPage_GetCropBox(page, *box):
            box = [ctypes.c_float(v) for v in (x0, y0, x1, y1)]
        ctm = page_transform(x0, y0, x1, y1, (raw.FPDFPage_GetRotation(page) % 4) * 90)
        (ax, ay), (bx, by) = _apply(ctm, x0, y0), _apply(ctm, x1, y1)
        (cx0, cy0), (cx1, cy1) = _apply(ctm, box[0].value, box[1].value), _apply(ctm, box[2].value, box[3].value)
        return cls(abs(ax - bx), abs(ay - by), ctm, (min(cx0, cx1), min(cy0, cy1), max(cx0, cx1), max(cy0, cy1)))


def _apply(m: tuple[float, ...], x: _Coordinate, y: _Coordinate) -> tuple[_Coordinate, _Coordinate]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _page_glyphs(chars: np.ndarray, objects: np.ndarray, geometry: _Geometry,
                 widths: _Widths) -> tuple[GlyphColumns, list[Glyph]] | None:
    """The page's upright glyphs as columns and its rotated glyphs in drawing order; None when a
    character has no text (a font that gives some glyphs no character: the salvage reader reads
    the page, counting what is lost as it does)."""
    chars = chars[(chars["flags"] & _GENERATED) == 0]
    codes = chars["unicode"].astype(np.int64)
    codes[(codes == 2) & ((chars["flags"] & _HYPHEN) != 0)] = ord("-")  # (PDFium's mark of a line-end hyphen)
    if np.any(((chars["flags"] & _MAP_ERROR) != 0) | (codes == 0)):
        return None
    ox, oy = chars["ox"], chars["oy"]
    # a ligature PDFium split (ﬁ → f, i): pieces with one origin in one text object make one glyph
    joined = np.ones(len(chars), dtype=bool)
    if len(chars) > 1:
        joined[1:] = (chars["object"][1:] != chars["object"][:-1]) | (ox[1:] != ox[:-1]) | (oy[1:] != oy[:-1])
    starts = np.flatnonzero(joined)
    first = chars[starts]
    advance = _advances(chars, codes, starts, widths)
    descent = widths.descents_of(first["font"])
    text = codes.astype("<u4").tobytes().decode("utf-32-le", errors="replace")
    bounds = np.append(starts, len(codes)).astype(np.int64)
    if _LIGATURE_RE.search(text):
        pieces = [text[a:b].translate(LIGATURES) for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist())]
        text = "".join(pieces)
        bounds = np.zeros(len(pieces) + 1, dtype=np.int64)
        np.cumsum([len(p) for p in pieces], out=bounds[1:])
    ctm = geometry.ctm
    gx, gy = _apply(ctm, first["ox"], first["oy"])
    # the glyph's matrix in the salvage reader's space (ctm after the character's matrix)
    a, b = first["a"] * ctm[0] + first["b"] * ctm[2], first["a"] * ctm[1] + first["b"] * ctm[3]
    c, d = first["c"] * ctm[0] + first["d"] * ctm[2], first["c"] * ctm[1] + first["d"] * ctm[3]
    size = first["size"]
    upright = (a * d > 0) & (b * c <= 0)
    # the advance box from (0, descent) to (advance, descent + size), as pdfminer's LTChar
    lx, ly = 0.0, descent * size
    ux, uy = advance * size, descent * size + size
    x0, y0 = a * lx + c * ly + gx, b * lx + d * ly + gy
    x1, y1 = a * ux + c * uy + gx, b * ux + d * uy + gy
    x0, x1 = np.minimum(x0, x1), np.maximum(x0, x1)
    y0, y1 = np.minimum(y0, y1), np.maximum(y0, y1)
    height = y1 - y0
    sizes = np.maximum(np.where(height > 0, height, 0.0), 0.1)
    base = np.where(upright, gy, (y0 + y1) / 2)
    hidden = hiding.hidden(
        hiding.PageGlyphs(x0, y0, x1, y1, sizes, first["render"], first["fill"], first["stroke"],
                          _orders(first["object"], objects), _clip_boxes(first["clip"], ctm)),
        geometry.box, _covers(objects, ctm))
    columns = _columns(text, bounds, upright, x0, x1, y0, y1, base, sizes, hidden)
    columns = _with_dropped_spaces(columns, chars, codes, objects, geometry, widths)
    turned = [Glyph(text[bounds[i]:bounds[i + 1]], x0[i], x1[i], y0[i], y1[i], base[i], sizes[i], bool(hidden[i]))
              for i in np.flatnonzero(~upright).tolist()]
    return columns, turned


def _advances(chars: np.ndarray, codes: np.ndarray, starts: np.ndarray, widths: _Widths) -> np.ndarray:
    """Each glyph's advance at size 1: its character's width in its font; a ligature's, the width
    of the ligature character when the font maps one. When the font gives no width (a ligature
    mapped to its letters, a character whose code PDFium cannot find), the step to the next
    glyph of its text object on its baseline, else its drawn box."""
    fonts = chars["font"]
    each = widths.widths_of(fonts, codes)
    if not len(starts):
        return np.zeros(0)
    advance = np.add.reduceat(each, starts)
    ends = np.append(starts[1:], len(codes))
    unknown = (np.minimum.reduceat(each, starts) <= 0)
    for g in np.flatnonzero(ends - starts > 1).tolist():
        ligature = _LIGATURE_OF.get("".join(map(chr, codes[starts[g]:ends[g]].tolist())))
        width = widths.width(int(fonts[starts[g]]), ligature) if ligature is not None else 0.0
        if width > 0:
            advance[g], unknown[g] = width, False
        else:
            unknown[g] = True
    for g in np.flatnonzero(unknown).tolist():
        k, scale = starts[g], chars["size"][starts[g]] * chars["a"][starts[g]]
        if scale <= 0:
            continue
        step = 0.0
        if g + 1 < len(starts):
            n = starts[g + 1]
            if chars["object"][n] == chars["object"][k] and chars["oy"][n] == chars["oy"][k]:
                step = (chars["ox"][n] - chars["ox"][k]) / scale
        advance[g] = step if step > 0 else max((chars["right"][k] - chars["ox"][k]) / scale, advance[g], 0.0)
    return advance


_LIGATURE_RE = re.compile("[\ufb00-\ufb06]")
_LIGATURE_OF = {"ff": 0xFB00, "fi": 0xFB01, "fl": 0xFB02, "ffi": 0xFB03, "ffl": 0xFB04, "st": 0xFB06}


def _orders(handles: np.ndarray, objects: np.ndarray) -> np.ndarray:
    """Each glyph's place in the page's drawing order (its text object's index; inf for text
    inside a form, drawn where the form is but not listed here)."""
    listed = objects["object"]
    if not len(listed):
        return np.full(len(handles), np.inf)
    order = np.argsort(listed, kind="stable")
    at = np.clip(np.searchsorted(listed[order], handles), 0, len(listed) - 1)
    return np.where(listed[order][at] == handles, order[at].astype(np.float64), np.inf)


def _clip_boxes(clip: np.ndarray, ctm: tuple[float, ...]) -> np.ndarray:
    clip = clip.astype(np.float64)
    (ax, ay), (bx, by) = _apply(ctm, clip[:, 0], clip[:, 1]), _apply(ctm, clip[:, 2], clip[:, 3])
    return np.stack([np.minimum(ax, bx), np.minimum(ay, by), np.maximum(ax, bx), np.maximum(ay, by)], axis=1)


def _covers(objects: np.ndarray, ctm: tuple[float, ...]) -> list[hiding.Cover]:
    """What text may lie over: filled paths (their colour), pictures, shadings and forms holding
    pictures or filled paths (their colour under the text unknown)."""
    kind = objects["type"]
    opaque = (objects["fill"] & 255) == 255  # (a translucent fill: what shows is unknown)
    filled = (kind == _PATH) & (objects["fill_mode"] > 0)
    unknown = (kind == _IMAGE) | (kind == _SHADING) | ((kind == _FORM) & ((objects["images"] > 0) | (objects["paths"] > 0)))
    chosen = np.flatnonzero(filled | unknown)
    if not len(chosen):
        return []
    o = objects[chosen]
    (ax, ay), (bx, by) = _apply(ctm, o["left"].astype(np.float64), o["bottom"].astype(np.float64)), \
        _apply(ctm, o["right"].astype(np.float64), o["top"].astype(np.float64))
    colours = [int(c) if f and p else None for c, f, p in zip(o["fill"].tolist(), filled[chosen].tolist(),
                                                               opaque[chosen].tolist())]
    return [hiding.Cover(*box, colour, float(i)) for box, colour, i in
            zip(zip(np.minimum(ax, bx).tolist(), np.minimum(ay, by).tolist(), np.maximum(ax, bx).tolist(),
                    np.maximum(ay, by).tolist()), colours, chosen.tolist())]


def _columns(text: str, bounds: np.ndarray, upright: np.ndarray, *numbers: np.ndarray) -> GlyphColumns:
    """The upright glyphs of ``text`` (split at ``bounds``) as columns."""
    keep = np.flatnonzero(upright)
    x0, x1, y0, y1, base, size, hidden = (np.ascontiguousarray(v[keep]) for v in numbers)
    finite = np.isfinite(x0 + x1 + y0 + y1 + base + size)
    if not finite.all():
        keep, x0, x1, y0, y1, base, size, hidden = (v[finite] for v in (keep, x0, x1, y0, y1, base, size, hidden))
    if len(keep) == len(bounds) - 1:
        joined, starts = text, bounds
    else:
        lengths = (bounds[keep + 1] - bounds[keep]).astype(np.int64)
        starts = np.zeros(len(keep) + 1, dtype=np.int64)
        np.cumsum(lengths, out=starts[1:])
        joined = "".join(text[a:b] for a, b in zip(bounds[keep].tolist(), bounds[keep + 1].tolist()))
    return GlyphColumns(joined, starts, x0, x1, y0, y1, base, size, hidden.astype(np.uint8))


def _with_dropped_spaces(columns: GlyphColumns, chars: np.ndarray, codes: np.ndarray, objects: np.ndarray,
                         geometry: _Geometry, widths: _Widths) -> GlyphColumns:
    """``columns`` with the spaces PDFium's text page dropped put back. PDFium passes over a text
    object narrower than a hair (one space) and keeps one of two spaces in a row in its text;
    LibreOffice draws the spaces of a line between its CJK and Latin runs as one object of spaces
    with jumps over the runs (``[<05> -1000 <05> -1000 <05>] TJ``), a space's box being its
    origin. So a text object drawing only blanks has one at each end of its bounds; one whose
    bounds reach past its glyphs drawn ends in a blank one; and a gap between two glyphs of a
    baseline, inside a text object that draws spaces, a whole number of its spaces wide (at most
    three, and under an em: never a gap that would part a line's cells) holds that many."""
    ctm = geometry.ctm
    texts = objects[objects["type"] == _TEXT]
    if ctm[1] != 0 or ctm[2] != 0 or not len(texts):
        return columns  # (a turned page: its lines are not horizontal in PDFium's space)
    spaces = codes == 32
    handles = texts["object"]
    ink = ~spaces
    # each text object's right end of glyphs drawn (-inf: none), and whether it has a space left
    order = np.argsort(handles)
    at = np.clip(np.searchsorted(handles[order], chars["object"]), 0, len(handles) - 1)
    listed = handles[order][at] == chars["object"]
    inked = np.full(len(texts), -np.inf)
    np.maximum.at(inked, order[at[listed & ink]], chars["right"][listed & ink])
    spaced = np.zeros(len(texts), dtype=bool)
    spaced[order[at[listed & spaces]]] = True
    last_space = np.full(len(texts), -np.inf)  # the origin of its last space left
    np.maximum.at(last_space, order[at[listed & spaces]], chars["ox"][listed & spaces])
    upright = (np.abs(texts["b"]) < 1e-6) & (np.abs(texts["c"]) < 1e-6) & (texts["a"] > 0) & (texts["font_size"] > 0)
    left, right, base_y = texts["left"].astype(np.float64), texts["right"].astype(np.float64), texts["f"]
    em = texts["font_size"] * np.abs(texts["d"])
    steps = widths.widths_of(texts["font"], np.full(len(texts), 32)) * texts["font_size"] * texts["a"]
    places: list[tuple[int, float]] = []  # (text object, x in PDFium's page space)
    blank = upright & np.isinf(inked)
    for i in np.flatnonzero(blank).tolist():
        places.append((i, left[i]))
        if right[i] - left[i] >= _EMPTY_WIDTH:
            places.append((i, right[i]))
    for i in np.flatnonzero(upright & ~blank & (right > np.maximum(inked, last_space) + _EMPTY_WIDTH)).tolist():
        places.append((i, right[i]))
    if np.any((codes >= 0x3000) & (codes <= 0x9FFF)):  # (objects of spaces with jumps: lines mixing CJK)
        places.extend(_gaps(columns, ctm, texts, upright & (blank | spaced), steps, em))
    if len(chars) > 1:
        places.extend(_runs(chars, spaces, order, at, listed, steps))
    if not places:
        return columns
    seen = set(zip(np.round(chars["ox"][spaces], 1).tolist(), np.round(chars["oy"][spaces], 1).tolist()))
    extra: list[Glyph] = []
    for i, x in places:
        key = (round(x, 1), round(float(base_y[i]), 1))
        if key in seen:
            continue
        seen.add(key)
        gx, gy = _apply(ctm, x, float(base_y[i]))
        size = float(texts["font_size"][i])
        extra.append(_space(widths, int(texts["font"][i]), gx, gy, size * float(texts["a"][i]) * ctm[0],
                            size * float(texts["d"][i]) * ctm[3]))
    return columns + GlyphColumns.of(extra) if extra else columns


def _gaps(columns: GlyphColumns, ctm: tuple[float, ...], texts: np.ndarray, candidates: np.ndarray,
          steps: np.ndarray, em: np.ndarray) -> list[tuple[int, float]]:
    """(text object, x) of the spaces in gaps between glyphs of a baseline that lie inside a
    ``candidates`` text object a whole number of its spaces wide (see :func:`_with_dropped_spaces`)."""
    n = len(columns)
    if n < 2 or not candidates.any():
        return []
    order = np.lexsort((columns.x0, columns.base))
    base, x0, x1 = columns.base[order], columns.x0[order], columns.x1[order]
    gap = x0[1:] - x1[:-1]
    wide = np.flatnonzero((base[1:] == base[:-1]) & (gap > 0.1 * columns.size[order][:-1]))
    out: list[tuple[int, float]] = []
    if not len(wide):
        return out
    # the candidate objects in the salvage reader's space (ctm is a translation and a flip here)
    lx, ly = _apply(ctm, texts["left"].astype(np.float64), texts["f"].astype(np.float64))
    rx, _ = _apply(ctm, texts["right"].astype(np.float64), texts["f"].astype(np.float64))
    lo, hi = np.minimum(lx, rx), np.maximum(lx, rx)
    for k in wide.tolist():
        end, width = x1[k], gap[k]
        inside = np.flatnonzero(candidates & (np.abs(ly - base[k]) < 0.01) & (lo - 0.01 <= end) & (end <= hi + 0.01))
        for i in inside.tolist():
            step = steps[i] * abs(ctm[0])
            runs = round(width / step) if step > 0 else 0
            if 1 <= runs <= 3 and abs(width - runs * step) <= 0.05 * step and width < em[i]:
                # (back to PDFium's page space, where places are kept)
                out.extend((i, (end + r * step - ctm[4]) / ctm[0]) for r in range(runs))
                break
    return out


def _runs(chars: np.ndarray, spaces: np.ndarray, order: np.ndarray, at: np.ndarray, listed: np.ndarray,
          steps: np.ndarray) -> list[tuple[int, float]]:
    """(text object, x) of the second and later spaces of runs PDFium kept one of: a gap after a
    space inside its text object a whole number of spaces wide."""
    follows = np.flatnonzero(spaces[:-1] & (chars["object"][1:] == chars["object"][:-1]) & listed[:-1]
                             & (chars["oy"][1:] == chars["oy"][:-1]) & (chars["b"][:-1] == 0) & (chars["c"][:-1] == 0))
    objects = order[at[follows]]
    step = steps[objects]
    gap = chars["ox"][follows + 1] - chars["ox"][follows]
    with np.errstate(divide="ignore", invalid="ignore"):
        runs = np.where(step > 0, np.rint(gap / step), 0)
    whole = np.flatnonzero((runs >= 2) & (np.abs(gap - runs * step) <= 0.05 * step))
    out: list[tuple[int, float]] = []
    for k in whole.tolist():
        x = float(chars["ox"][follows[k]])
        out.extend((int(objects[k]), x + r * float(step[k])) for r in range(1, int(runs[k])))
    return out


def _space(widths: _Widths, font: int, x: float, y: float, size_x: float, size_y: float) -> Glyph:
    """A space glyph of ``font`` with its origin at (x, y) in the salvage reader's space."""
    advance = widths.width(font, 32)
    if not 0 < advance < 2:
        advance = 0.25
    x0, x1 = sorted((x, x + advance * size_x))
    y0 = y + widths.descent(font) * size_y
    return Glyph(" ", x0, x1, min(y0, y0 + size_y), max(y0, y0 + size_y), y, max(abs(size_y), 0.1))


def _page_chars_py(raw: ModuleType, textpage: FPDF_TEXTPAGE) -> np.ndarray:
    """_pdfium.c's chars() through ctypes: the same records, a Python call a character."""
    n = max(raw.FPDFText_CountChars(textpage), 0)
    out = np.zeros(n, CHAR_DTYPE)
    x, y = ctypes.c_double(), ctypes.c_double()
    box = [ctypes.c_double() for _ in range(4)]
    matrix = raw.FS_MATRIX()
    colour = [ctypes.c_uint() for _ in range(4)]
    last, state = None, (0, -1, _BLACK, _BLACK, [np.nan] * 4)
    for i in range(n):
        record = out[i]
        record["unicode"] = raw.FPDFText_GetUnicode(textpage, i)
        record["flags"] = ((raw.FPDFText_IsGenerated(textpage, i) == 1) * _GENERATED
                           | (raw.FPDFText_HasUnicodeMapError(textpage, i) == 1) * _MAP_ERROR
                           | (raw.FPDFText_IsHyphen(textpage, i) == 1) * _HYPHEN)
        raw.FPDFText_GetCharOrigin(textpage, i, x, y)
        record["ox"], record["oy"] = x.value, y.value
        raw.FPDFText_GetCharBox(textpage, i, *box)
        record["left"], record["right"], record["bottom"], record["top"] = (v.value for v in box)
        if raw.FPDFText_GetMatrix(textpage, i, matrix):
            record["a"], record["b"], record["c"], record["d"] = matrix.a, matrix.b, matrix.c, matrix.d
        record["size"] = raw.FPDFText_GetFontSize(textpage, i)
        obj = raw.FPDFText_GetTextObject(textpage, i)
        handle = ctypes.cast(obj, ctypes.c_void_p).value or 0
        if handle != last:
            last = handle
            if handle:
                font = ctypes.cast(raw.FPDFTextObj_GetFont(obj), ctypes.c_void_p).value or 0
                fill = _colour(raw.FPDFPageObj_GetFillColor(obj, *colour), colour)
                stroke = _colour(raw.FPDFPageObj_GetStrokeColor(obj, *colour), colour)
                state = (font, raw.FPDFTextObj_GetTextRenderMode(obj), fill, stroke, _clip_box_py(raw, obj))
            else:
                state = (0, -1, _BLACK, _BLACK, [np.nan] * 4)
        record["object"] = handle
        record["font"], record["render"], record["fill"], record["stroke"], record["clip"] = state
    return out


def _colour(ok: int, colour: list) -> int:
    if not ok:
        return _BLACK
    r, g, b, a = (v.value & 255 for v in colour)
    return r << 24 | g << 16 | b << 8 | a


def _clip_box_py(raw: ModuleType, obj: FPDF_PAGEOBJECT) -> list[float]:
    out = [np.nan] * 4
    clip = raw.FPDFPageObj_GetClipPath(obj)
    if not clip:
        return out
    x, y = ctypes.c_float(), ctypes.c_float()
    for p in range(raw.FPDFClipPath_CountPaths(clip)):
        xs, ys = [], []
        for s in range(raw.FPDFClipPath_CountPathSegments(clip, p)):
            segment = raw.FPDFClipPath_GetPathSegment(clip, p, s)
            if segment and raw.FPDFPathSegment_GetPoint(segment, x, y):
                xs.append(x.value)
                ys.append(y.value)
        if not xs:
            continue
        box = [min(xs), min(ys), max(xs), max(ys)]
        if np.isnan(out[0]):
            out = box
        else:
            out = [max(out[0], box[0]), max(out[1], box[1]), min(out[2], box[2]), min(out[3], box[3])]
    return np.array(out, dtype=np.float32).tolist()


def _page_objects_py(raw: ModuleType, page: FPDF_PAGE) -> np.ndarray:
    """_pdfium.c's objects() through ctypes: the same records."""
    n = max(raw.FPDFPage_CountObjects(page), 0)
    out = np.zeros(n, OBJECT_DTYPE)
    for i in range(n):
        obj = raw.FPDFPage_GetObject(page, i)
        if obj:
            out[i] = _object_record_py(raw, obj)
    return out


def _object_record_py(raw: ModuleType, obj: FPDF_PAGEOBJECT) -> tuple:
    kind = raw.FPDFPageObj_GetType(obj)
    bounds = [ctypes.c_float() for _ in range(4)]
    left = bottom = right = top = np.nan
    if raw.FPDFPageObj_GetBounds(obj, *bounds):
        left, bottom, right, top = (v.value for v in bounds)
    matrix = raw.FS_MATRIX()
    m = (matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f) if raw.FPDFPageObj_GetMatrix(obj, matrix) \
        else (0.0,) * 6
    colour = [ctypes.c_uint() for _ in range(4)]
    fill = _colour(raw.FPDFPageObj_GetFillColor(obj, *colour), colour)
    font, font_size, fill_mode, images, paths = 0, 0.0, -1, 0, 0
    if kind == _PATH:
        mode, stroke = ctypes.c_int(), ctypes.c_int()
        if raw.FPDFPath_GetDrawMode(obj, mode, stroke):
            fill_mode = mode.value
    elif kind == _TEXT:
        font = ctypes.cast(raw.FPDFTextObj_GetFont(obj), ctypes.c_void_p).value or 0
        size = ctypes.c_float()
        if raw.FPDFTextObj_GetFontSize(obj, size):
            font_size = size.value
    elif kind == _IMAGE:
        images = 1
    elif kind == _FORM:
        for k in range(raw.FPDFFormObj_CountObjects(obj)):
            child = raw.FPDFFormObj_GetObject(obj, k)
            if child:
                inner = _object_record_py(raw, child)
                images += inner[15]
                paths += inner[16] + (inner[13] == _PATH and inner[14] > 0)
    handle = ctypes.cast(obj, ctypes.c_void_p).value or 0
    return (handle, font, left, bottom, right, top, *m, font_size, kind, fill_mode, images, paths, fill)
