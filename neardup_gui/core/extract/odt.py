"""OpenDocument text (.odt): paragraphs, headings, lists and tables of content.xml; the spans of
text a reader cannot see (hidden, coloured as its background, tiny: extract/hiding.py)."""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from neardup_gui.core.document import CharSpan
from neardup_gui.core.extract.common import ExtractError, Extracted, has_text, parse_xml, read_package, read_xml_part
from neardup_gui.core.extract.hiding import WHITE, HiddenSpans, Look, parse_colour
from neardup_gui.core.settings import ExtractLimits

if TYPE_CHECKING:
    import zipfile

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


_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
_FO = "{urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0}"
_STYLE_NAME = f"{_TEXT}style-name"
# points in one unit of each length unit ODF writes
_POINTS = {"pt": 1.0, "pc": 12.0, "in": 72.0, "cm": 72 / 2.54, "mm": 72 / 25.4, "px": 0.75}


def _points(value: str | None) -> float | None:
    """A font size in points ("10pt", "0.35cm"); None for a percentage or anything else."""
    if not value:
        return None
    for unit, factor in _POINTS.items():
        if value.endswith(unit):
            try:
                return float(value[: -len(unit)]) * factor
            except ValueError:
                return None
    return None


def _text_look(style: ET.Element) -> tuple[Look, tuple[int, int, int] | None]:
    """(the look of a style's text properties, its paragraph background)."""
    props = style.find(f"{_STYLE}text-properties")
    look = Look()
    if props is not None:
        display = props.get(f"{_TEXT}display")
        colour = props.get(f"{_FO}color")
        look = Look(hidden=None if display is None else display == "none",
                    colour=parse_colour(colour) if colour else None,
                    points=_points(props.get(f"{_FO}font-size")),
                    background=parse_colour(props.get(f"{_FO}background-color")))
    paragraph = style.find(f"{_STYLE}paragraph-properties")
    return look, parse_colour(paragraph.get(f"{_FO}background-color")) if paragraph is not None else None


class _Styles:
    """The looks of a document's text and paragraph styles (content.xml's automatic styles and
    styles.xml's), their parent chains resolved, and the page colour."""

    def __init__(self, *roots: ET.Element | None) -> None:  # None: a part not read
        self.page = WHITE
        self._raw: dict[tuple[str, str], tuple[str, Look, tuple[int, int, int] | None]] = {}
        self._defaults: dict[str, Look] = {}
        self._looks: dict[tuple[str, str], Look] = {}
        for root in roots:
            if root is None:
                continue
            for style in root.iter(f"{_STYLE}style"):
                look, background = _text_look(style)
                key = (style.get(f"{_STYLE}family", ""), style.get(f"{_STYLE}name", ""))
                self._raw[key] = (style.get(f"{_STYLE}parent-style-name", ""), look, background)
            for style in root.iter(f"{_STYLE}default-style"):
                self._defaults[style.get(f"{_STYLE}family", "")] = _text_look(style)[0]
            for layout in root.iter(f"{_STYLE}page-layout-properties"):
                self.page = parse_colour(layout.get(f"{_FO}background-color")) or self.page
                break

    def look(self, family: str, name: str) -> Look:
        """The look a style gives its text: its parent chain, then the family's default style."""
        key = (family, name)
        if key in self._looks:
            return self._looks[key]
        self._looks[key] = Look()  # (a cycle of parents ends here)
        raw = self._raw.get(key)
        if raw is None:
            look = self._defaults.get(family, Look())
        else:
            parent = self.look(family, raw[0]) if raw[0] else self._defaults.get(family, Look())
            look = Look(background=raw[2]).over(raw[1].over(parent)) if raw[2] else raw[1].over(parent)
        self._looks[key] = look
        return look


def _inline_text(element, out: HiddenSpans, styles: _Styles | None = None, look: Look = Look()) -> None:  # noqa: B008
    unseen = styles is not None and look.unseen(styles.page)
    if element.text:
        out.add(element.text, unseen)
    for child in element:
        tag = child.tag
        if tag == f"{_TEXT}s":
            out.add(" " * int(child.get(f"{_TEXT}c", "1") or 1), unseen)
        elif tag == f"{_TEXT}tab":
            out.add("\t", unseen)
        elif tag == f"{_TEXT}line-break":
            out.add(" ", unseen)
        elif tag not in _SKIP_INLINE:
            name = child.get(_STYLE_NAME) if styles is not None else None
            _inline_text(child, out, styles, styles.look("text", name).over(look) if name else look)
        if child.tail:
            out.add(child.tail, unseen)


def _blocks(element, out: list[str], styles: _Styles | None = None,
            hidden: dict[int, list[CharSpan]] | None = None) -> None:
    """Paragraph texts in document order (with ``styles``, the unseen spans of paragraph ``i`` of
    ``out`` go to ``hidden[i]``)."""
    for child in element:
        tag = child.tag
        if tag in _PARAGRAPHS:
            parts = HiddenSpans()
            look = styles.look("paragraph", child.get(_STYLE_NAME, "")) if styles is not None else Look()
            _inline_text(child, parts, styles, look)
            if parts.spans and hidden is not None:
                hidden[len(out)] = parts.spans
            out.append(parts.text())
        elif tag not in _SKIP_BLOCK:
            # lists, sections, tables, rows and cells hold paragraphs in document order
            _blocks(child, out, styles, hidden)


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
    hidden: dict[int, list[CharSpan]] = {}
    _blocks(text_root, paragraphs, _Styles(root, _styles_part(archive, names)), hidden)
    if salvaged and not any(has_text(p) for p in paragraphs):
        raise ExtractError("corrupt", "damaged OpenDocument text: content.xml is cut short before any text")
    return Extracted(paragraphs=paragraphs, warnings=warnings, hidden=hidden, meta=_properties(archive, names))


_DC = "{http://purl.org/dc/elements/1.1/}"
_META = "{urn:oasis:names:tc:opendocument:xmlns:meta:1.0}"


def _properties(archive: zipfile.ZipFile, names: set[str]) -> dict[str, str]:
    """The title and author of meta.xml (the author: its creator, else its initial creator);
    optional metadata, so a missing or damaged part gives none."""
    if "meta.xml" not in names:
        return {}
    try:
        root = ET.fromstring(read_xml_part(archive, "meta.xml", _WHAT))
    except ExtractError as exc:
        if exc.code == "unsafe-xml":
            raise
        return {}
    except ET.ParseError:
        return {}
    meta: dict[str, str] = {}
    for key, tags in (("title", (f"{_DC}title",)), ("author", (f"{_DC}creator", f"{_META}initial-creator"))):
        for tag in tags:
            element = root.find(f"{_OFFICE}meta/{tag}")
            if element is not None and element.text and element.text.strip():
                meta[key] = element.text.strip()
                break
    return meta


def _styles_part(archive: zipfile.ZipFile, names: set[str]) -> ET.Element | None:
    """styles.xml, parsed; None when it is missing or damaged (styles only decide what is hidden)."""
    if "styles.xml" not in names:
        return None
    try:
        return ET.fromstring(read_xml_part(archive, "styles.xml", _WHAT))
    except ExtractError as exc:
        if exc.code == "unsafe-xml":
            raise
    except ET.ParseError:
        pass
    log.info("styles.xml unreadable: hidden text is found by the document's own styles only")
    return None
