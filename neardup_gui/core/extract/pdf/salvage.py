"""The salvage of damaged PDFs for pdfminer.six: lost cross-reference entries, page trees and
contents, damaged streams, a file whose end is lost, pages rebuilt from their contents.

Each function repairs one kind of damage met by fuzzing real files (benchmarks/stress/fuzz.py) and
says so: the reader turns what is found here into the document's warnings.
"""

from __future__ import annotations

import logging
import re
import zlib
from typing import TYPE_CHECKING

from neardup_gui.core.extract.common import ExtractError

if TYPE_CHECKING:  # pdfminer.six is imported where it is used (only damaged files need it)
    from pdfminer.pdfdocument import PDFDocument, PDFXRef
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdftypes import PDFStream

log = logging.getLogger(__name__)

_STREAM_CHUNK = 1 << 20
def _stream_size_ok(stream, cap: int) -> bool:
    """False when a Flate stream expands beyond ``cap`` bytes (checked without keeping the output)."""
    from pdfminer.pdftypes import LITERALS_FLATE_DECODE

    raw = getattr(stream, "rawdata", None)
    if raw is None:
        return True
    filters = stream.get_filters()
    if not filters or filters[0][0] not in LITERALS_FLATE_DECODE:
        return True
    if stream.decipher is not None and stream.objid is not None:
        raw = stream.decipher(stream.objid, stream.genno, raw, stream.attrs)
    inflater = zlib.decompressobj()
    total = 0
    pending = raw
    try:
        while pending:
            total += len(inflater.decompress(pending, _STREAM_CHUNK))
            if total > cap:
                return False
            pending = inflater.unconsumed_tail
    except zlib.error:
        return True  # pdfminer has its own recovery for damaged streams
    return True


def check_page_streams(page, cap: int, checked: set[int]) -> None:
    """Refuse compression bombs in a page's content streams and form XObjects before decoding."""
    from pdfminer.pdftypes import PDFStream, resolve1

    todo = list(page.contents or [])
    resources = resolve1(page.resources) or {}
    xobjects = resolve1(resources.get("XObject")) if isinstance(resources, dict) else None
    if isinstance(xobjects, dict):
        todo.extend(xobjects.values())
    while todo:
        item = todo.pop()
        objid = getattr(item, "objid", None)
        stream = resolve1(item)
        if not isinstance(stream, PDFStream):
            continue
        key = objid if objid is not None else id(stream)
        if key in checked:
            continue
        checked.add(key)
        if stream.get("Subtype") is not None and getattr(stream.get("Subtype"), "name", "") == "Image":
            continue  # images are never decoded for text
        if not _stream_size_ok(stream, cap):
            raise ExtractError(
                "zip-bomb",
                f"PDF stream expands beyond {cap // 1048576} MB (compression bomb); refused",
            )
        inner = resolve1(stream.get("Resources"))
        if isinstance(inner, dict):
            more = resolve1(inner.get("XObject"))
            if isinstance(more, dict):
                todo.extend(more.values())


_OBJ_RE = re.compile(rb"(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\b")
_CATALOG_RE = re.compile(rb"(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\s*<<\s*/Type\s*/Catalog\b")

def surviving_objects(data: bytes) -> tuple[bytes, str] | None:
    """The complete objects of a damaged PDF under a new trailer, and what was lost; None when
    no object is complete."""
    end = data.rfind(b"endobj")
    if end < 0 or not _OBJ_RE.search(data, 0, end):
        return None
    body = data[: end + len(b"endobj")]
    catalogs = _CATALOG_RE.findall(body)
    lost = "the end of the file (cross-reference table and trailer) is lost" if len(body) < len(data) - 64 or b"startxref" not in data[-1024:] \
        else "the cross-reference table or trailer is damaged"
    pages = b""
    if not catalogs and not _OBJSTM_RE.search(body):
        # (Where objects are packed in object streams, pages may survive unseen here: not done.)
        # The catalog is lost, and with it the page objects written before it (LibreOffice
        # writes them last, after the fonts): pages are rebuilt around the content streams that
        # no surviving page names.
        number = max(int(m.group(1)) for m in _OBJ_RE.finditer(body)) + 1
        named = {ref for m in _CONTENTS_RE.finditer(body) for ref in _REF_RE.findall(m.group(1))}
        pages, count = _rebuilt_pages(body, number, named)
        if count:
            lost += f", with its catalog and {count} page{'s' if count != 1 else ''} (rebuilt from their contents)"
    if catalogs:
        number, generation = catalogs[-1]
        tail = b"\ntrailer\n<< /Root %s %s R >>\n%%%%EOF\n" % (number, generation)
    else:
        # No catalog survives: a new one without a page tree makes pdfminer find the page
        # objects by scanning.
        number = max(int(m.group(1)) for m in _OBJ_RE.finditer(body + pages)) + 1
        tail = (b"\n%d 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root %d 0 R >>\n%%%%EOF\n"
                % (number, number))
        if not pages:
            lost += ", with its catalog"
    return body + pages + tail, lost


_OBJSTM_RE = re.compile(rb"/Type\s*/ObjStm\b")
_CONTENTS_RE = re.compile(rb"/Contents\s*(\[[^\]]*\]|\d+\s+\d+\s+R)")
_REF_RE = re.compile(rb"(\d+)\s+(\d+)\s+R")
_STREAM_OBJ_RE = re.compile(rb"(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\s*<<((?:[^<>]|<[^<>]*>)*)>>\s*stream\r?\n")
_FONT_OBJ_RE = re.compile(rb"(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\s*<<\s*/Type\s*/Font\s*/Subtype\s*/\w+\s*"
                          rb"/BaseFont\s*/([A-Z]{6})\+")
_FONT_DICT_RE = re.compile(rb"(?<![0-9])\d{1,10}\s+\d{1,5}\s+obj\s*<<\s*((?:/[\w.+-]+\s+\d+\s+\d+\s+R\s*)+)>>\s*endobj")
_FONT_REF_RE = re.compile(rb"/([\w.+-]+)\s+(\d+)\s+(\d+)\s+R")
_TF_RE = re.compile(rb"/([\w.+-]+)\s+[-\d.]+\s+Tf\b")
_MEDIABOX_RE = re.compile(rb"/MediaBox\s*\[\s*([-\d.\s]+)\]")
_REBUILT_SCAN = 8 << 20  # bytes of a content stream decoded to find the fonts it names

def document_pages(document: PDFDocument, warnings: list[str]) -> list[PDFPage]:
    """The document's pages. When its page tree is damaged (a flipped byte in ``/Kids``: pdfminer
    raised "'PSKeyword' object has no attribute 'objid'" and the whole PDF was lost, or silently
    skipped the page whose reference was damaged — found by fuzzing), the page objects it no
    longer names are found among all objects, each with what it inherits from its parent, placed
    after the named page numbered just below it (writers number pages in order), with a warning.
    The tree is checked by its own count of pages, so an intact file is not scanned."""
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdftypes import resolve1
    from pdfminer.psparser import LIT

    pages: list = []
    failure: Exception | None = None
    try:
        pages.extend(PDFPage.create_pages(document))
    except (ExtractError, MemoryError, RecursionError):
        raise
    except Exception as exc:  # noqa: BLE001 — what a damaged page tree raises
        failure = exc
    try:
        root = resolve1(document.catalog.get("Pages")) if isinstance(document.catalog, dict) else None
        count = resolve1(root.get("Count")) if isinstance(root, dict) else None
    except Exception:  # noqa: BLE001 — a damaged reference: the pages found are all there is to count
        count = None
    # (a catalog that names no page tree — its own object damaged — made pdfminer list the
    # objects typed /Page, and a page whose /Type was damaged was left out in silence: found
    # by fuzzing)
    tree_lost = not isinstance(root, dict)
    if failure is None and not tree_lost and not (isinstance(count, int) and count > len(pages)):
        return pages
    named = {page.pageid for page in pages}
    objects: dict[int, dict] = {}
    for xref in document.xrefs:
        for objid in sorted(xref.get_objids()):
            if objid in objects:
                continue  # (an object listed by two tables)
            try:
                obj = document.getobj(objid)
            except Exception:  # noqa: BLE001
                continue
            if isinstance(obj, dict):
                objects[objid] = obj
    kids: set[int] = set()  # the objects a node of the tree names as its kids
    for obj in objects.values():
        if obj.get("Type") is LIT("Pages"):
            try:
                listed = resolve1(obj.get("Kids"))
            except Exception:  # noqa: BLE001
                listed = None
            if isinstance(listed, list):
                kids.update(ref.objid for ref in listed if isinstance(getattr(ref, "objid", None), int))
            if tree_lost and count is None and "Parent" not in obj:  # the root: its count of pages
                count = resolve1(obj.get("Count"))
    found = []
    box = pages[0].attrs.get("MediaBox") if pages else None  # (the size of the pages read)
    for objid, obj in objects.items():
        kind = obj.get("Type")
        # a page, or a kid of the tree whose /Type was damaged (``/Pa\xa3e``) and that is no node
        if objid in named or not (kind is LIT("Page") or (objid in kids and kind is not LIT("Pages")
                                                            and "Kids" not in obj)):
            continue
        attrs = dict(obj)
        parent = resolve1(obj.get("Parent"))
        for key in PDFPage.INHERITABLE_ATTRS:
            if key not in attrs and isinstance(parent, dict) and key in parent:
                attrs[key] = parent[key]
        page = _page_of(document, objid, attrs, box)
        if page is not None:
            found.append(page)
    lost = count - len(pages) - len(found) if isinstance(count, int) else 0
    if lost > 0 and (pages or found):
        # (pages the tree counts that are found nowhere: said, never dropped in silence)
        warnings.append(f"recovered from a damaged file: the page tree counts {count} pages; "
                        f"{lost} of them {'are' if lost != 1 else 'is'} lost")
    if not found:
        if failure is not None and not pages:
            raise failure
        return pages
    for page in found:  # after the named page numbered just below it
        at = max((i + 1 for i, named_page in enumerate(pages)
                  if isinstance(named_page.pageid, int) and named_page.pageid < page.pageid), default=0)
        pages.insert(at, page)
    why = f" ({type(failure).__name__})" if failure is not None else ""
    warnings.append(f"recovered from a damaged file: the page tree is damaged{why}; {len(found)} "
                    f"page{'s' if len(found) != 1 else ''} found among its objects")
    return pages


def _page_of(document: PDFDocument, objid: int, attrs: dict, box: object) -> PDFPage | None:
    """A page object found outside the page tree, or None. One whose MediaBox or CropBox is
    damaged (``[0 0 595.30 W41.88]``: pdfminer raised, and the page was lost without a word —
    found by fuzzing) is given ``box``, the size of the pages read."""
    from pdfminer.pdfpage import PDFPage

    try:
        return PDFPage(document, objid, attrs, None)
    except Exception:  # noqa: BLE001
        pass
    kept = {k: v for k, v in attrs.items() if k not in ("MediaBox", "CropBox")}
    if box is not None:
        kept["MediaBox"] = box
    try:
        return PDFPage(document, objid, kept, None)
    except Exception:  # noqa: BLE001
        return None


# an object's header at the start of a line: "12 0 obj"
_LINE_OBJ_RE = re.compile(rb"(?:^|(?<=[\r\n]))(\d{1,10})[ \t\r\n]+(\d{1,5})[ \t\r\n]+obj\b")


def scanned_xref(data: bytes, others: list[PDFXRef]) -> PDFXRef:
    """A cross-reference table of the objects whose headers begin a line of the file, put after
    the file's own tables (``others``): pdfminer asks it only for an object those do not lead to
    — a damaged entry (``0\xb100000965``), a reference to an object that is gone. Found by
    fuzzing (benchmarks/stress/fuzz.py): one flipped byte in the table left the page whose contents
    the entry located empty, without a word. The file is scanned (one regular expression, not a
    parse of its objects) at the first such look-up, so an intact file is never scanned; the
    last header of a number wins, as an update appended to a file replaces its objects. Objects
    packed in object streams are not found this way (LibreOffice writes none). ``found`` holds
    the objects it gave. It lists only the objects the other tables do not, as pdfminer lists
    every table's objects to find pages when the catalog names none."""
    from pdfminer.pdfdocument import PDFXRef

    class ScannedXRef(PDFXRef):
        def __init__(self) -> None:
            super().__init__()
            self.scanned = False
            self.found: set[int] = set()

        def _scan(self) -> None:
            if not self.scanned:
                self.scanned = True
                for m in _LINE_OBJ_RE.finditer(data):
                    self.offsets[int(m.group(1))] = (None, m.start(1), int(m.group(2)))

        def get_objids(self):  # noqa: ANN202
            self._scan()
            listed = {objid for xref in others for objid in xref.get_objids()}
            return [objid for objid in self.offsets if objid not in listed]

        def get_pos(self, objid):  # noqa: ANN001, ANN202
            self._scan()
            pos = super().get_pos(objid)  # (KeyError: not in the file either)
            self.found.add(objid)
            return pos

    return ScannedXRef()


def resolved_stream(item: object) -> PDFStream | None:
    """A page's content stream, or None (a damaged reference)."""
    from pdfminer.pdftypes import PDFStream, resolve1

    try:
        stream = resolve1(item)
    except Exception:  # noqa: BLE001 — what a damaged reference raises
        return None
    return stream if isinstance(stream, PDFStream) else None


_ZLIB_HEADERS = (b"x\x01", b"x^", b"x\x9c", b"x\xda")
_FILTERS = {"FlateDecode", "Fl", "LZWDecode", "LZW", "ASCII85Decode", "A85", "ASCIIHexDecode", "AHx",
            "RunLengthDecode", "RL", "CCITTFaxDecode", "CCF", "DCTDecode", "DCT", "JBIG2Decode", "JPXDecode",
            "Crypt"}


def flate_without_filter(stream: PDFStream, data: bytes) -> bool:
    """True, and the stream given its filter again, when a page's contents stream has lost its
    filter (a run of bytes inserted in its dictionary: pdfminer read ``{}``; or a flipped byte
    made it a filter no reader knows, ``/FlateDecode\xf2``) and its data is one whole zlib
    stream, as LibreOffice writes them: the compressed bytes were read as operators, and the
    page was empty without a word (found by fuzzing). Content operators are text, so data that
    inflates whole, its checksum right, is compressed data. A dictionary whose end was damaged
    (``/FlateDecode\xf2>``) left pdfminer no data at all: it is taken from the file (``data``),
    between the object's ``stream`` and ``endstream`` — only then (a stream always has a
    ``/Length``: an empty page's has one), so an intact file is not searched."""
    from pdfminer.psparser import LIT

    raw = getattr(stream, "rawdata", None)
    try:
        names = [getattr(kind, "name", kind) for kind, _ in stream.get_filters()]
    except Exception:  # noqa: BLE001 — a damaged /Filter or /DecodeParms
        names = ["?"]
    if names and all(name in _FILTERS for name in names):
        return False
    if raw == b"" and "Length" not in stream.attrs and isinstance(getattr(stream, "objid", None), int):
        raw = _stream_bytes(data, stream.objid)
    if not raw or not raw.startswith(_ZLIB_HEADERS) or not _inflates_whole(raw):
        return False
    stream.attrs["Filter"] = LIT("FlateDecode")
    stream.attrs.pop("DecodeParms", None)
    stream.rawdata, stream.data = raw, None
    return True


# the keys a page's dictionary may hold (ISO 32000-2, table 31)
_PAGE_KEYS = {"Type", "Parent", "LastModified", "Resources", "MediaBox", "CropBox", "BleedBox", "TrimBox",
              "ArtBox", "BoxColorInfo", "Contents", "Rotate", "Group", "Thumb", "B", "Dur", "Trans", "Annots",
              "AA", "Metadata", "PieceInfo", "StructParents", "ID", "PZ", "SeparationInfo", "Tabs",
              "TemplateInstantiated", "PresSteps", "UserUnit", "VP", "AF", "OutputIntents", "DPart"}


def contents_under_a_damaged_key(page: PDFPage) -> bool:
    """True, and the page given its contents, when a page without ``/Contents`` holds a key no
    page has whose value is a stream or an array of streams: ``/Con\\ents 2 0 R``, a flipped
    byte in the key (the page was read empty without a word — found by fuzzing)."""
    from pdfminer.pdftypes import PDFStream, resolve1

    if page.contents:
        return False
    for key, value in page.attrs.items():
        if key in _PAGE_KEYS:
            continue
        try:
            target = resolve1(value)
            items = [resolve1(item) for item in (target if isinstance(target, list) else [target])]
        except Exception:  # noqa: BLE001
            continue
        if items and all(isinstance(item, PDFStream) for item in items):
            page.contents = items
            return True
    return False


_STREAM_KEYWORD_RE = re.compile(rb"stream\r?\n")


def _stream_bytes(data: bytes, objid: int) -> bytes:
    """The bytes between ``stream`` and ``endstream`` of object ``objid`` in the file, or b""."""
    start = re.search(rb"(?<![0-9])%d\s+\d+\s+obj\b" % objid, data)
    if start is None:
        return b""
    opened = _STREAM_KEYWORD_RE.search(data, start.end(), start.end() + 4096)
    end = data.find(b"endstream", opened.end()) if opened else -1
    return data[opened.end():end].rstrip(b"\r\n") if end > 0 else b""


def inflates(stream: PDFStream) -> bool:
    """False when a Flate stream's data is damaged (a zlib error, or cut before its end)."""
    from pdfminer.pdftypes import LITERALS_FLATE_DECODE

    raw = getattr(stream, "rawdata", None)
    filters = stream.get_filters() if raw is not None else []
    if not filters or filters[0][0] not in LITERALS_FLATE_DECODE or stream.decipher is not None:
        return True
    return _inflates_whole(raw)


def _inflates_whole(raw: bytes) -> bool:
    """True when ``raw`` is zlib data that inflates to its end, its checksum right (or whose
    first 4 MB inflate without an error: a longer stream is not inflated twice)."""
    inflater = zlib.decompressobj()
    try:
        inflater.decompress(raw, 1 << 22)
    except zlib.error:
        return False
    return inflater.eof or bool(inflater.unconsumed_tail)


def _rebuilt_pages(body: bytes, number: int, named: set[tuple[bytes, bytes]]) -> tuple[bytes, int]:
    """Page objects (numbered from ``number``) for the content streams that survive and no page
    names (``named``: (number, generation) of the surviving pages' contents), in the order
    written, and how many.

    A content stream names its fonts (``/F1 12 Tf``) through the page's resources, lost with the
    page. The names come from a surviving font dictionary (``<</F1 26 0 R …>>``, LibreOffice's
    written after the fonts), else from LibreOffice's own rule: font ``/Fk`` is the font whose
    subset tag is k in base 26, least significant letter first (``BAAAAA+`` is ``/F1``; its PDF
    writer's ``appendSubsetName``). Text in a font that did not survive is dropped (and counted),
    not guessed.
    """
    fonts: dict[bytes, bytes] = {}
    for m in _FONT_OBJ_RE.finditer(body):
        tag = m.group(3)
        k = sum((c - 65) * 26 ** i for i, c in enumerate(tag))
        fonts[b"F%d" % k] = b"%s %s R" % (m.group(1), m.group(2))
    for m in _FONT_DICT_RE.finditer(body):
        for ref in _FONT_REF_RE.finditer(m.group(1)):
            fonts[ref.group(1)] = b"%s %s R" % (ref.group(2), ref.group(3))
    box = _MEDIABOX_RE.findall(body)
    media = box[-1].strip() if box else b"0 0 595.28 841.89"  # (A4 when no page size survives)
    out = []
    count = 0
    for m in _STREAM_OBJ_RE.finditer(body):
        header = m.group(3)
        if (m.group(1), m.group(2)) in named:
            continue
        if re.search(rb"/(Type|Subtype|Length1|Length2|DecodeParms|Predictor|PatternType|ShadingType|FunctionType)\b", header):
            continue  # fonts, images, forms, object and xref streams
        if re.search(rb"/Filter", header) and not re.search(rb"/Filter\s*/FlateDecode\s*(/|$)", header):
            continue
        raw = body[m.end():body.find(b"endstream", m.end())]
        try:
            content = zlib.decompressobj().decompress(raw, _REBUILT_SCAN) if b"/Filter" in header else raw[:_REBUILT_SCAN]
        except zlib.error:
            continue
        if b"BT" not in content or not _TF_RE.search(content):
            continue
        # (a font that did not survive is left out of the page's fonts: the interpreter gives a
        # name its page does not hold the lost-font placeholder, see interpreter)
        names = dict.fromkeys(_TF_RE.findall(content))
        font_dict = b" ".join(b"/%s %s" % (name, fonts[name]) for name in names if name in fonts)
        out.append(b"\n%d 0 obj\n<< /Type /Page /MediaBox [%s] /Contents %s %s R /Resources << /Font << %s >> >> >>\nendobj\n"
                   % (number + count, media, m.group(1), m.group(2), font_dict))
        count += 1
    return (b"".join(out), count) if count else (b"", 0)

