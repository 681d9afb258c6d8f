"""Word documents (.docx): body paragraphs and tables in document order; headers apart."""

from __future__ import annotations

import logging
import posixpath

from neardup_gui.core.extract.common import ExtractError, Extracted, has_text, parse_xml, read_package, read_xml_part
from neardup_gui.core.settings import ExtractLimits

log = logging.getLogger(__name__)

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_P, _TBL, _SDT, _TR, _TC = f"{_W}p", f"{_W}tbl", f"{_W}sdt", f"{_W}tr", f"{_W}tc"
_SDT_CONTENT = f"{_W}sdtContent"
# Runs inside these wrappers still belong to the paragraph's visible text.
_RUN_CONTAINERS = {f"{_W}{n}" for n in ("hyperlink", "smartTag", "ins", "fldSimple", "customXml", "sdt", "sdtContent", "r")}
_T, _TAB, _BR, _CR, _NOBREAK, _SOFTHYPHEN, _SYM = (
    f"{_W}t", f"{_W}tab", f"{_W}br", f"{_W}cr", f"{_W}noBreakHyphen", f"{_W}softHyphen", f"{_W}sym",
)
# Deleted revisions, field codes and formatting are not text; a shape's text box is written
# twice (mc:Choice for new readers, mc:Fallback for old ones): read it once.
_SKIP = {f"{_W}{n}" for n in ("del", "delText", "instrText", "rPr", "pPr", "fldData")} | {
    "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
}


def _paragraph_text(p) -> str:
    """Visible text of a w:p: text runs, tabs, breaks; deleted revisions and field codes left out."""
    parts: list[str] = []
    stack = [iter(p)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
        tag = child.tag
        if tag == _T:
            if child.text:
                parts.append(child.text)
        elif tag == _TAB:
            parts.append("\t")
        elif tag in (_BR, _CR):
            parts.append(" ")
        elif tag == _NOBREAK:
            parts.append("-")
        elif tag in _SKIP or tag == _SOFTHYPHEN or tag == _SYM:
            continue
        elif len(child):
            stack.append(iter(child))
    return "".join(parts)


def _block_items(parent, out: list[str]) -> None:
    """Paragraph texts under a body, cell or content control, tables row by row, in order."""
    for child in parent:
        tag = child.tag
        if tag == _P:
            out.append(_paragraph_text(child))
        elif tag == _TBL:
            for row in child.iter(_TR):
                if row.getparent() is not child:
                    continue  # rows of nested tables are reached through their cells
                for cell in row:
                    if cell.tag == _TC:
                        _block_items(cell, out)
                    elif cell.tag == _SDT:
                        for content in cell.iter(_SDT_CONTENT):
                            for tc in content:
                                if tc.tag == _TC:
                                    _block_items(tc, out)
        elif tag == _SDT:
            for content in child:
                if content.tag == _SDT_CONTENT:
                    _block_items(content, out)
        elif tag in (f"{_W}customXml", f"{_W}ins"):
            _block_items(child, out)


_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
_CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_OFFICE_DOCUMENT = "/officeDocument"
_WORD_MAIN_TYPES = (
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    "application/vnd.ms-word.document.macroEnabled.main+xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
)
_WHAT = "Word document"


def _relationships(archive, part: str) -> dict[str, tuple[str, str]]:
    """Relationship id → (type, member name) for one part (the package itself when ``part`` is "")."""
    folder, _, base = part.rpartition("/")
    rels_name = f"{folder}/_rels/{base}.rels" if part else "_rels/.rels"
    try:
        root = parse_xml(read_xml_part(archive, rels_name, _WHAT), rels_name, _WHAT)
    except KeyError:
        return {}
    out = {}
    for rel in root.iter(_REL):
        if rel.get("TargetMode") == "External":
            continue
        target = rel.get("Target", "")
        name = posixpath.normpath(posixpath.join(folder, target)).lstrip("/") if not target.startswith("/") else target.lstrip("/")
        out[rel.get("Id", "")] = (rel.get("Type", ""), name)
    return out


_DEFAULT_MAIN = "word/document.xml"


def _main_part(archive, warnings: list[str]) -> str:
    """The main document part named by the package relationships; in a package whose
    relationships are damaged or lost, Word's usual ``word/document.xml`` (with a warning)."""
    try:
        relationships = _relationships(archive, "")
    except ExtractError as exc:
        if exc.code != "corrupt" or _DEFAULT_MAIN not in archive.namelist():
            raise
        warnings.append(f"recovered from a damaged file: the package relationships are unreadable ({exc.reason})")
        return _DEFAULT_MAIN
    for rel_type, name in relationships.values():
        if rel_type.endswith(_OFFICE_DOCUMENT):
            return name
    if not relationships and _DEFAULT_MAIN in archive.namelist():
        warnings.append("recovered from a damaged file: the package relationships are missing")
        return _DEFAULT_MAIN
    raise ExtractError("corrupt", "damaged Word document: no main document part in the archive")


def _check_content_type(archive, part: str, warnings: list[str], salvaged: bool = False) -> None:
    """A .docx whose main part is a spreadsheet or a presentation is not a Word document.

    A damaged [Content_Types].xml is left out with a warning (the check falls to the main
    part's own root, which must hold a Word body). ``salvaged``: the archive was read up to
    its damage; LibreOffice writes [Content_Types].xml last, so its absence is expected there.
    """
    try:
        types = parse_xml(read_xml_part(archive, "[Content_Types].xml", _WHAT), "[Content_Types].xml", _WHAT)
    except KeyError as exc:
        if salvaged:
            return
        raise ExtractError("corrupt", "damaged Word document: no [Content_Types].xml") from exc
    except ExtractError as exc:
        if exc.code != "corrupt":
            raise
        if not salvaged:  # (a salvaged file's warning already says it was cut short)
            warnings.append(f"recovered from a damaged file: [Content_Types].xml left out ({exc.reason})")
        return
    for override in types.iter(f"{_CT}Override"):
        if override.get("PartName", "").lstrip("/") == part:
            content_type = override.get("ContentType", "")
            if content_type not in _WORD_MAIN_TYPES:
                raise ExtractError("wrong-format", f"not a Word document (its main part is {content_type})")
            return


def _core_properties(archive, meta: dict[str, str]) -> None:
    try:
        root = parse_xml(read_xml_part(archive, "docProps/core.xml", _WHAT), "docProps/core.xml", _WHAT)
    except (KeyError, ExtractError):
        return  # optional metadata
    for tag, key in (("{http://purl.org/dc/elements/1.1/}title", "title"), ("{http://purl.org/dc/elements/1.1/}creator", "author")):
        element = root.find(tag)
        if element is not None and element.text and element.text.strip():
            meta[key] = element.text.strip()


def extract(data: bytes, limits: ExtractLimits) -> Extracted:
    """Extract a .docx: body in document order; headers and footers go to ``margins``.

    Only the parts that hold text are read and parsed (python-docx would parse every part,
    styles and themes included, which costs most of the time on small files), each with a
    parser that never loads a DTD or resolves an entity.
    """
    return read_package(data, limits, _WHAT, _read)


def _read(archive, warnings: list[str], salvaged: bool) -> Extracted:
    """The text of an opened (or salvaged) package; ``warnings`` gathers what was left out."""
    main = _main_part(archive, warnings)
    _check_content_type(archive, main, warnings, salvaged)
    try:
        # a salvaged body may be cut short: keep the paragraphs before the cut
        root = parse_xml(read_xml_part(archive, main, _WHAT), main, _WHAT, recover=salvaged)
    except KeyError as exc:
        raise ExtractError("corrupt", f"damaged Word document: missing part {main}") from exc
    body = root.find(f"{_W}body")
    if body is None:
        raise ExtractError("corrupt", "damaged Word document: no document body")
    paragraphs: list[str] = []
    _block_items(body, paragraphs)
    if salvaged and not any(has_text(p) for p in paragraphs):
        raise ExtractError("corrupt", f"damaged Word document: {main} is cut short before any text")
    # Headers and footers in the order the sections refer to them, each once. A damaged one
    # is left out with a warning: the body is what is compared.
    try:
        relationships = _relationships(archive, main)
    except ExtractError as exc:
        warnings.append(f"recovered from a damaged file: headers and footers left out ({exc.reason})")
        relationships = {}
    margins: list[str] = []
    seen: set[str] = set()
    for reference in body.iter(f"{_W}headerReference", f"{_W}footerReference"):
        rel = relationships.get(reference.get(_R_ID, ""))
        if rel is None or rel[1] in seen:
            continue
        seen.add(rel[1])
        try:
            part = parse_xml(read_xml_part(archive, rel[1], _WHAT), rel[1], _WHAT)
        except KeyError:
            log.info("header/footer part %s missing", rel[1])
            continue
        except ExtractError as exc:
            if exc.code == "unsafe-xml":
                raise
            warnings.append(f"recovered from a damaged file: {rel[1]} left out ({exc.reason})")
            continue
        _block_items(part, margins)
    meta: dict[str, str] = {}
    _core_properties(archive, meta)
    return Extracted(paragraphs=paragraphs, margins=margins, meta=meta, warnings=warnings)
