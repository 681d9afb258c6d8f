"""PDF: text in reading order, wraps mended, page furniture recognised, damage salvaged and said.

Two readers give a page's glyphs to the same layout (:mod:`.lines`, :mod:`.layout`,
:mod:`.furniture`): PDFium (:mod:`.fium`), fast, for intact files, and pdfminer.six
(:mod:`.miner`), which salvages damaged ones (:mod:`.salvage`, :mod:`.fonts`).
"""

from __future__ import annotations

import logging

from neardup_gui.core.extract.common import ExtractError, Extracted
from neardup_gui.core.extract.pdf import fium, integrity, miner
from neardup_gui.core.settings import ExtractLimits

log = logging.getLogger(__name__)

__all__ = ["extract"]


def extract(data: bytes, limits: ExtractLimits) -> Extracted:
    """Extract a PDF's text; raises ExtractError for encrypted, scanned or damaged files.

    An intact file (:mod:`.integrity`) is read by PDFium (:mod:`.fium`); any other, and any file
    PDFium cannot open, by pdfminer.six (:mod:`.miner`), which salvages what is damaged and says
    so. A file it reads without a word of its own says why it was not read by the fast reader.
    ``limits.pdf_fast`` False reads every file with pdfminer.six (the two readers compared).
    """
    why = ""
    if limits.pdf_fast and fium.available():
        why = integrity.damage(data, limits.max_unzipped_mb * 1024 * 1024)
        if not why:
            try:
                result = fium.read(data, limits)
            except (ExtractError, MemoryError, RecursionError):
                raise
            except Exception as exc:  # noqa: BLE001 — a file PDFium trips on is still read, by the salvage reader
                log.warning("the fast PDF reader failed: %r", exc)
                result = None
            if result is not None:
                return result
            why = "PDFium cannot read it"
        log.info("PDF read by pdfminer.six: %s", why)
    result = miner.read(data, limits)
    if why and not result.warnings:
        result.warnings.append(f"read by the salvage reader (pdfminer.six): {why}")
    return result
