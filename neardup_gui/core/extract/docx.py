"""Word documents (.docx): body paragraphs and tables in document order; headers apart; the
spans of text a reader cannot see (hidden, coloured as its background, tiny: extract/hiding.py)."""

from __future__ import annotations

import logging
import posixpath
from typing import TYPE_CHECKING

from neardup_gui.core.document import CharSpan
from neardup_gui.core.extract.common import ExtractError, Extracted, has_text, parse_xml, read_package, read_xml_part
from neardup_gui.core.extract.hiding import AUTO, WHITE, HiddenSpans, Look, parse_colour
from neardup_gui.core.settings import ExtractLimits

if TYPE_CHECKING:
    import zipfile

    from lxml.etree import _Element

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


_R, _PPR, _RPR, _PSTYLE, _RSTYLE, _VAL = f"{_W}r", f"{_W}pPr", f"{_W}rPr", f"{_W}pStyle", f"{_W}rStyle", f"{_W}val"
_VANISH, _COLOR, _SZ, _HIGHLIGHT, _SHD, _FILL = (
    f"{_W}vanish", f"{_W}color", f"{_W}sz", f"{_W}highlight", f"{_W}shd", f"{_W}fill",
)
# The highlight colours of WordprocessingML (ST_HighlightColor), as RGB
_HIGHLIGHTS = {
    "black": "000000", "blue": "0000FF", "cyan": "00FFFF", "green": "00FF00", "magenta": "FF00FF", "red": "FF0000",
    "yellow": "FFFF00", "white": "FFFFFF", "darkBlue": "000080", "darkCyan": "008080", "darkGreen": "008000",
    "darkMagenta": "800080", "darkRed": "800000", "darkYellow": "808000", "darkGray": "808080", "lightGray": "C0C0C0",
}


def _on(element) -> bool:
    """The value of a toggle property (``<w:vanish/>``, ``<w:vanish w:val="false"/>``)."""
    return (element.get(_VAL) or "true").lower() not in ("0", "false", "off")


def _run_look(rpr) -> Look:
    """What a w:rPr (of a run or a style) says of how its text is seen."""
    if rpr is None:
        return Look()
    hidden = colour = points = highlight = shading = None
    for child in rpr:
        tag = child.tag
        if tag == _VANISH:
            hidden = _on(child)
        elif tag == _COLOR:
            value = child.get(_VAL) or ""
            colour = AUTO if value.lower() == "auto" else parse_colour(value)
        elif tag == _SZ:
            try:
                points = int(child.get(_VAL) or "") / 2  # (half-points)
            except ValueError:
                pass
        elif tag == _HIGHLIGHT:
            highlight = parse_colour(_HIGHLIGHTS.get(child.get(_VAL) or ""))
        elif tag == _SHD:
            shading = parse_colour(child.get(_FILL))
    return Look(hidden=hidden, colour=colour, points=points, background=highlight or shading)


class _Styles:
    """The run looks of a document's styles (word/styles.xml), their ``basedOn`` chains resolved,
    and the page colour; a document without styles has the defaults."""

    def __init__(self, styles: _Element | None = None, page: tuple[int, int, int] = WHITE) -> None:
        self.page = page
        self.default = Look()
        self.default_paragraph = ""
        self._raw: dict[str, tuple[str, Look, tuple[int, int, int] | None]] = {}
        self._looks: dict[str, Look] = {}
        if styles is None:
            return
        defaults = styles.find(f"{_W}docDefaults/{_W}rPrDefault/{_RPR}")
        self.default = _run_look(defaults)
        for style in styles.iter(f"{_W}style"):
            sid = style.get(f"{_W}styleId") or ""
            based = style.find(f"{_W}basedOn")
            shading = style.find(f"{_PPR}/{_SHD}")
            self._raw[sid] = (based.get(_VAL) or "" if based is not None else "", _run_look(style.find(_RPR)),
                              parse_colour(shading.get(_FILL)) if shading is not None else None)
            if style.get(f"{_W}type") == "paragraph" and _on_default(style):
                self.default_paragraph = sid

    def look(self, sid: str) -> Look:
        """The look a style gives its runs, from its chain of ``basedOn`` styles (what none of
        them sets stays unset)."""
        if sid in self._looks:
            return self._looks[sid]
        self._looks[sid] = Look()  # (a cycle of basedOn ends here)
        raw = self._raw.get(sid)
        look = Look() if raw is None else raw[1].over(self.look(raw[0]) if raw[0] else Look())
        self._looks[sid] = look
        return look

    def paragraph_background(self, sid: str) -> tuple[int, int, int] | None:
        seen = set()
        while sid and sid not in seen:
            seen.add(sid)
            raw = self._raw.get(sid)
            if raw is None:
                return None
            if raw[2] is not None:
                return raw[2]
            sid = raw[0]
        return None


def _on_default(style: _Element) -> bool:
    return (style.get(f"{_W}default") or "").lower() in ("1", "true", "on")


def _paragraph_look(p: _Element, styles: _Styles) -> Look:
    """The look a paragraph gives its runs: its style's, over its shading."""
    ppr = p.find(_PPR)
    style = ppr.find(_PSTYLE) if ppr is not None else None
    sid = (style.get(_VAL) or "") if style is not None else styles.default_paragraph
    shading = ppr.find(_SHD) if ppr is not None else None
    background = parse_colour(shading.get(_FILL)) if shading is not None else None
    return Look(background=background or styles.paragraph_background(sid)).over(styles.look(sid)).over(styles.default)


def _paragraph_text(p, styles: _Styles | None = None) -> tuple[str, list[CharSpan]]:
    """Visible text of a w:p: text runs, tabs, breaks; deleted revisions and field codes left out.
    With the paragraph's ``styles``, also the spans of the text its reader cannot see (hidden,
    coloured as its background, under 2 points)."""
    out = HiddenSpans()
    base = _paragraph_look(p, styles) if styles is not None else None
    stack = [(iter(p), False)]
    while stack:
        child = next(stack[-1][0], None)
        if child is None:
            stack.pop()
            continue
        tag = child.tag
        unseen = stack[-1][1]
        if tag == _T:
            if child.text:
                out.add(child.text, unseen)
        elif tag == _TAB:
            out.add("\t", unseen)
        elif tag in (_BR, _CR):
            out.add(" ", unseen)
        elif tag == _NOBREAK:
            out.add("-", unseen)
        elif tag in _SKIP or tag == _SOFTHYPHEN or tag == _SYM:
            continue
        elif len(child):
            if tag == _R and base is not None:
                unseen = _run_unseen(child, base, styles)
            stack.append((iter(child), unseen))
    return out.text(), out.spans


def _run_unseen(run: _Element, base: Look, styles: _Styles) -> bool:
    rpr = run.find(_RPR)
    if rpr is None:
        return base.unseen(styles.page)
    look = _run_look(rpr)
    style = rpr.find(_RSTYLE)
    if style is not None:  # a character style, between the run's own formatting and its paragraph's
        look = look.over(styles.look(style.get(_VAL) or ""))
    return look.over(base).unseen(styles.page)


def _block_items(parent, out: list[str], styles: _Styles | None = None,
                 hidden: dict[int, list[CharSpan]] | None = None) -> None:
    """Paragraph texts under a body, cell or content control, tables row by row, in order (with
    ``styles``, the unseen spans of paragraph ``i`` of ``out`` go to ``hidden[i]``)."""
    for child in parent:
        tag = child.tag
        if tag == _P:
            text, spans = _paragraph_text(child, styles)
            if spans and hidden is not None:
                hidden[len(out)] = spans
            out.append(text)
        elif tag == _TBL:
            for row in child.iter(_TR):
                if row.getparent() is not child:
                    continue  # rows of nested tables are reached through their cells
                for cell in row:
                    if cell.tag == _TC:
                        _block_items(cell, out, styles, hidden)
                    elif cell.tag == _SDT:
                        for content in cell.iter(_SDT_CONTENT):
                            for tc in content:
                                if tc.tag == _TC:
                                    _block_items(tc, out, styles, hidden)
        elif tag == _SDT:
            for content in child:
                if content.tag == _SDT_CONTENT:
                    _block_items(content, out, styles, hidden)
        elif tag in (f"{_W}customXml", f"{_W}ins"):
            _block_items(child, out, styles, hidden)


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
    # Headers and footers in the order the sections refer to them, each once. A damaged one
    # is left out with a warning: the body is what is compared.
    try:
        relationships = _relationships(archive, main)
    except ExtractError as exc:
        warnings.append(f"recovered from a damaged file: headers and footers left out ({exc.reason})")
        relationships = {}
    paragraphs: list[str] = []
    hidden: dict[int, list[CharSpan]] = {}
    _block_items(body, paragraphs, _styles(archive, root, relationships), hidden)
    if salvaged and not any(has_text(p) for p in paragraphs):
        raise ExtractError("corrupt", f"damaged Word document: {main} is cut short before any text")
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
    return Extracted(paragraphs=paragraphs, margins=margins, meta=meta, warnings=warnings, hidden=hidden)


_STYLES_TYPE = "/styles"


def _styles(archive: zipfile.ZipFile, root: _Element, relationships: dict[str, tuple[str, str]]) -> _Styles:
    """The document's styles and page colour. Styles only decide what is hidden: a damaged or
    missing styles part leaves the defaults (direct formatting is still read)."""
    background = root.find(f"{_W}background")
    page = parse_colour(background.get(f"{_W}color")) if background is not None else None
    name = next((n for t, n in relationships.values() if t.endswith(_STYLES_TYPE)), "word/styles.xml")
    try:
        styles = parse_xml(read_xml_part(archive, name, _WHAT), name, _WHAT)
    except KeyError:
        styles = None
    except ExtractError as exc:
        if exc.code == "unsafe-xml":
            raise
        log.info("styles part %s unreadable: %s", name, exc.reason)
        styles = None
    return _Styles(styles, page or WHITE)
