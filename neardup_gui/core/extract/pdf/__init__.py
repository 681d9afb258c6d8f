"""PDF: text in reading order, wraps mended, page furniture recognised, damage salvaged and said.

Two readers give a page's glyphs to the same layout (:mod:`.lines`, :mod:`.layout`,
:mod:`.furniture`): PDFium (:mod:`.fium`), fast, for intact files, and pdfminer.six
(:mod:`.miner`), which salvages damaged ones (:mod:`.salvage`, :mod:`.fonts`).
"""

from __future__ import annotations

from neardup_gui.core.extract.common import Extracted
from neardup_gui.core.extract.pdf import miner
from neardup_gui.core.settings import ExtractLimits

__all__ = ["extract"]


def extract(data: bytes, limits: ExtractLimits) -> Extracted:
    """Extract a PDF's text; raises ExtractError for encrypted, scanned or damaged files."""
    return miner.read(data, limits)
