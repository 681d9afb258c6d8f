"""The report as a paginated PDF (A4, page numbers, CJK fonts embedded), drawn by Qt's text engine.

The report model is rendered to the ``"qt"`` flavour of the report HTML (inline styles, which Qt's
rich-text engine understands), laid out by :class:`QTextDocument` on the PDF writer's own
resolution, and painted page by page with a footer. Works headless (``QT_QPA_PLATFORM=offscreen``)
and in a worker thread; a :class:`QGuiApplication` is created only when none exists (the fonts
need one).
"""

from __future__ import annotations

import functools
import itertools
import logging
import os
from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QFont, QGuiApplication, QPageLayout, QPageSize, QPainter, QPdfWriter, QRawFont, QTextDocument,
)

from neardup_gui.core.report import part_path, report_html, report_title
from neardup_gui.core.report.pdftext import RADICALS, fix_to_unicode, kangxi_equivalents
from neardup_gui.core.report.strings import translator

log = logging.getLogger(__name__)

RESOLUTION_DPI = 300
MARGINS_MM = QMarginsF(14.0, 14.0, 14.0, 12.0)
FOOTER_MM = 8.0
BODY_FONT_PT = 9.0
# Latin text in a Latin font (its quotation marks and apostrophes proportional, not the CJK fonts'
# full-width ones), Chinese in a CJK font: Qt takes each character from the first family that has it.
FONT_FAMILIES = ["Noto Sans", "DejaVu Sans", "Liberation Sans", "Noto Sans CJK SC", "Source Han Sans SC",
                 "WenQuanYi Micro Hei"]


def ensure_gui_application() -> QGuiApplication:
    """The running Qt application, or a new QGuiApplication when there is none (command line).

    The caller keeps the returned object alive for as long as it draws.
    """
    app = QGuiApplication.instance()
    if app is None:
        app = QGuiApplication(["neardup"])
    return app  # type: ignore[return-value]


def write_pdf(report, path: str | Path, *, title: str = "") -> int:
    """Write ``report`` (any report model) as a PDF at ``path``; returns the number of pages.

    The file appears complete or not at all: it is written beside the target and renamed.
    From a worker thread, call it only while the application exists (the app's export does);
    from the command line it makes its own.
    """
    app = ensure_gui_application()  # noqa: F841 - kept alive while we draw
    tmp = str(part_path(path))  # (a name of this writer's own: see core.report.part_path)
    try:
        pages = _paint(report, tmp, title)
        _fix_text_layer(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    log.info("wrote %s (%d pages)", path, pages)
    return pages


def laid_out(report, writer: QPdfWriter) -> tuple[QTextDocument, QFont, QSizeF]:  # noqa: ANN001
    """The report laid out on ``writer``'s pages, with the writer's metrics (the text measured is
    the text drawn): (the document, its font, the size of a page's body above the footer)."""
    paint_rect = writer.pageLayout().paintRectPixels(RESOLUTION_DPI)
    body = QSizeF(paint_rect.width(), paint_rect.height() - FOOTER_MM / 25.4 * RESOLUTION_DPI)
    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(writer)
    font = QFont()
    font.setFamilies(FONT_FAMILIES)
    font.setPointSizeF(BODY_FONT_PT)
    if hasattr(font, "setFeature"):  # (Qt ≥ 6.7) no "ﬁ" ligature: the text layer reads "fi" as typed
        font.setFeature(QFont.Tag("liga"), 0)
    doc.setDefaultFont(font)
    doc.setDocumentMargin(0)
    doc.setHtml(report_html(report, flavour="qt"))
    doc.setPageSize(body)
    return doc, font, body


def new_writer(path: str, title: str = "") -> QPdfWriter:
    """A PDF writer of A4 pages at the report's resolution and margins."""
    writer = QPdfWriter(path)
    writer.setResolution(RESOLUTION_DPI)
    writer.setTitle(title)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     MARGINS_MM, QPageLayout.Unit.Millimeter))
    return writer


def _paint(report, tmp: str, title: str) -> int:  # noqa: ANN001
    """Lay the report out on A4 pages and paint them, with a footer, into a new PDF at ``tmp``."""
    writer = new_writer(tmp, title or report_title(report))
    version, created = _stamp(report)
    t = translator(getattr(report, "lang", "en"))
    writer.setCreator(f"neardup {version}")
    footer_px = FOOTER_MM / 25.4 * RESOLUTION_DPI
    doc, font, body = laid_out(report, writer)
    pages = doc.pageCount()

    painter = QPainter()
    if not painter.begin(writer):
        raise OSError(f"cannot write the PDF file {tmp}")
    try:
        footer_font = QFont(font)
        footer_font.setPointSizeF(7.5)
        for page in range(pages):
            if page:
                writer.newPage()
            painter.save()
            painter.translate(0, -page * body.height())
            doc.drawContents(painter, QRectF(0, page * body.height(), body.width(), body.height()))
            painter.restore()
            painter.setFont(footer_font)
            painter.setPen(Qt.GlobalColor.darkGray)
            footer = QRectF(0, body.height(), body.width(), footer_px)
            painter.drawText(footer, Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignLeft,
                             f"neardup {version} · {created}")
            painter.drawText(footer, Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignRight,
                             t("page", n=page + 1, m=pages))
    finally:
        painter.end()
    del painter, writer  # closes the file before it is renamed
    return pages


def _fix_text_layer(path: str) -> None:
    """Correct the ToUnicode maps Qt wrote (see :mod:`neardup_gui.core.report.pdftext`): every
    radical code point becomes the ideograph whose glyph was drawn."""
    with open(path, "rb") as fh:
        data = fh.read()
    fixed, count = fix_to_unicode(data, radical_equivalents(tuple(FONT_FAMILIES)))
    if count:
        with open(path, "r+b") as fh:  # (same length: written over in place)
            fh.write(fixed)
    log.debug("text layer of %s: %d radical code points replaced by their ideographs", path, count)


@functools.lru_cache(maxsize=4)
def radical_equivalents(families: tuple[str, ...]) -> dict[int, int]:
    """Radical code point → the ideograph drawn with the same glyph, in the CJK fonts among
    ``families`` (what the page shows); Unicode's own equivalents for the Kangxi radicals the
    fonts do not share. Needs the running Qt application (fonts)."""
    mapping = kangxi_equivalents()
    ideographs = "".join(chr(c) for c in itertools.chain(range(0x4E00, 0xA000), range(0x3400, 0x4DC0)))
    radicals = "".join(chr(c) for c in RADICALS)
    for family in reversed(families):  # (the first family's glyphs win: it is the one drawn)
        raw = QRawFont.fromFont(QFont(family))
        if not raw.isValid() or not raw.supportsCharacter("文"):
            continue
        first: dict[int, int] = {}
        for ch, glyph in zip(ideographs, raw.glyphIndexesForString(ideographs)):
            if glyph:
                first.setdefault(glyph, ord(ch))
        for ch, glyph in zip(radicals, raw.glyphIndexesForString(radicals)):
            if glyph in first:
                mapping[ord(ch)] = first[glyph]
    return mapping


def _stamp(report) -> tuple[str, str]:  # noqa: ANN001
    """(application version, creation time) of any report model, for the footer."""
    if hasattr(report, "summary"):
        return report.summary.app_version, report.summary.created
    return report.app_version, report.created
