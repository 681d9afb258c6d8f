"""OpenDocument text (.odt): paragraphs, headings, lists and tables of content.xml."""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET

from neardup_gui.core.extract.common import ExtractError, Extracted, has_text, parse_xml, read_package, read_xml_part
from neardup_gui.core.settings import ExtractLimits

log = logging.getLogger(__name__)

_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_MANIFEST = "{urn:oasis:names:tc:opendocument:xmlns:manifest:1.0}"
_WHAT = "OpenDocument text"
_PARAGRAPHS = {f"{_TEXT}p", f"{_TEXT}h"}
# Inside a paragraph: notes and annotations are not body text; change-tracking deletions neither.
_SKIP_INLINE = {f"{_TEXT}note", f"{_OFFICE}annotation", f"{_TEXT}tracked-changes", f"{_TEXT}bookmark-ref"}
_SKIP_BLOCK = {f"{_TEXT}tracked-changes", f"{_TEXT}sequence-decls", f"{_TEXT}variable-decls", f"{_OFFICE}forms"}


def _inline_text(element, out: list[str]) -> None:
    if element.text:
        out.append(element.text)
    for child in element:
        tag = child.tag
        if tag == f"{_TEXT}s":
            out.append(" " * int(child.get(f"{_TEXT}c", "1") or 1))
        elif tag == f"{_TEXT}tab":
            out.append("\t")
        elif tag == f"{_TEXT}line-break":
            out.append(" ")
        elif tag not in _SKIP_INLINE:
            _inline_text(child, out)
        if child.tail:
            out.append(child.tail)


def _blocks(element, out: list[str]) -> None:
    for child in element:
        tag = child.tag
        if tag in _PARAGRAPHS:
            parts: list[str] = []
            _inline_text(child, parts)
            out.append("".join(parts))
        elif tag not in _SKIP_BLOCK:
            # lists, sections, tables, rows and cells hold paragraphs in document order
            _blocks(child, out)


def extract(data: bytes, limits: ExtractLimits) -> Extracted:
    """Extract an .odt after the archive checks (``read_xml_part`` refuses DTDs before parsing)."""
    return read_package(data, limits, _WHAT, _read)


def _read(archive, warnings: list[str], salvaged: bool) -> Extracted:
    """The text of an opened (or salvaged) package; ``warnings`` gathers what was left out."""
    names = set(archive.namelist())
    if "META-INF/manifest.xml" in names:
        try:
            manifest = ET.fromstring(read_xml_part(archive, "META-INF/manifest.xml", _WHAT))
        except (ExtractError, ET.ParseError) as exc:
            if isinstance(exc, ExtractError) and exc.code != "corrupt":
                raise
            # Only the encryption mark is read from it; an encrypted content.xml fails to parse.
            detail = exc.reason if isinstance(exc, ExtractError) else str(exc)
            warnings.append(f"recovered from a damaged file: META-INF/manifest.xml left out ({detail})")
            manifest = None
        if manifest is not None and manifest.find(f".//{_MANIFEST}encryption-data") is not None:
            raise ExtractError("encrypted", "password-protected OpenDocument file: remove the password")
    if "content.xml" not in names:
        raise ExtractError("corrupt", "damaged OpenDocument text: no content.xml")
    content = read_xml_part(archive, "content.xml", _WHAT)
    if salvaged:
        # content.xml may be cut short: keep what parses (lxml's recovering parser, no DTDs)
        from lxml import etree

        recovered = parse_xml(content, "content.xml", _WHAT, recover=True)
        try:
            root = ET.fromstring(etree.tostring(recovered))
        except ET.ParseError:  # (cut inside the namespace declarations, a prefix is left unbound and
            root = recovered  # the serialised tree no longer parses: lxml's own tree answers the same finds)
    else:
        try:
            root = ET.fromstring(content)
        except ET.ParseError as exc:
            raise ExtractError("corrupt", f"damaged OpenDocument text: {exc}") from exc
    body = root.find(f"{_OFFICE}body")
    text_root = body.find(f"{_OFFICE}text") if body is not None else None
    if text_root is None and salvaged:
        raise ExtractError("corrupt", "damaged OpenDocument text: content.xml is cut short before its text")
    if text_root is None:
        raise ExtractError("wrong-format", "OpenDocument file without text body (a spreadsheet or drawing?)")
    paragraphs: list[str] = []
    _blocks(text_root, paragraphs)
    if salvaged and not any(has_text(p) for p in paragraphs):
        raise ExtractError("corrupt", "damaged OpenDocument text: content.xml is cut short before any text")
    return Extracted(paragraphs=paragraphs, warnings=warnings)
