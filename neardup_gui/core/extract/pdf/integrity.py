"""Whether a PDF is intact enough for the fast reader: its structure checked from its bytes.

PDFium repairs a damaged file in silence (it rebuilds a lost cross-reference table, skips a
page the tree no longer names, draws a damaged stream's noise): text lost or made up without a
word. So before PDFium reads a file, its structure is checked here, and a file with any sign of
damage is read by the salvage reader (pdfminer.six, :mod:`.miner`), which says what it repaired:

- every cross-reference table (classic or stream, and those its /Prev names) parses, and every
  object it lists begins where it says;
- every stream ends where its /Length says, names only filters a reader knows, and its Flate
  data inflates whole with its checksum right (images aside; not in an encrypted file, whose
  streams only PDFium can decrypt) — and under the size cap: more is a compression bomb, refused;
- every font's character map it names is there and a stream, its glyph widths are as many as its
  codes and numbers (a Type 3 font's matrix six numbers), and every font a content stream sets is
  named among the file's font resources;
- every page has contents and a page box of four numbers, and the page tree counts as many pages
  as there are page objects.

Only regular expressions and zlib over the bytes. Objects packed in object streams are read from
them (unpacked once, inflated anyway).
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field

from neardup_gui.core.extract.common import ExtractError

_STARTXREF_RE = re.compile(rb"startxref\s+(\d+)\s*(?:%%EOF)?\s*$")
_HEADER_RE = re.compile(rb"\s*(\d+)\s+(\d+)\s+obj\b")
_SECTION_RE = re.compile(rb"(\d+)\s+(\d+)\s*[\r\n]+")
_ENTRY_RE = re.compile(rb"(\d{10}) (\d{5}) ([nf]) ?(?:\r\n|\r|\n)")
_TRAILER_RE = re.compile(rb"\s*trailer\s*<<")
_REF = rb"\s+(\d+)\s+(\d+)\s+R"
_PREV_RE = re.compile(rb"/Prev\s+(\d+)")
_XREFSTM_RE = re.compile(rb"/XRefStm\s+(\d+)")
_ROOT_RE = re.compile(rb"/Root" + _REF)
_ENCRYPT_RE = re.compile(rb"/Encrypt\b")
_LENGTH_RE = re.compile(rb"/Length(?:\s+(\d+)\b(?!\s+\d+\s+R)|" + _REF + rb")")
_FILTER_RE = re.compile(rb"/Filter\s*(/[^\s/\[\]<>()]+|\[[^\]]*\])")
_NAME_RE = re.compile(rb"/([^\s/\[\]<>()]+)")
_TYPE_RE = re.compile(rb"/Type\s*/(\w+)")
_SUBTYPE_RE = re.compile(rb"/Subtype\s*/(\w+)")
_W_RE = re.compile(rb"/W\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s*\]")
_INDEX_RE = re.compile(rb"/Index\s*\[([\d\s]*)\]")
_SIZE_RE = re.compile(rb"/Size\s+(\d+)")
_COLUMNS_RE = re.compile(rb"/Columns\s+(\d+)")
_PREDICTOR_RE = re.compile(rb"/Predictor\s+(\d+)")
_N_RE = re.compile(rb"/N\s+(\d+)")
_FIRST_RE = re.compile(rb"/First\s+(\d+)")
_TOUNICODE_RE = re.compile(rb"/ToUnicode\s*(?:(\d+)\s+(\d+)\s+R|(/\w+))")
_WIDTHS_RE = re.compile(rb"/Widths\s*(?:\[([^\]]*)\]|(\d+)\s+(\d+)\s+R)")
_FONTMATRIX_RE = re.compile(rb"/FontMatrix\s*\[([^\]]*)\]")
_FIRSTCHAR_RE = re.compile(rb"/FirstChar\s+(\d+)")
_LASTCHAR_RE = re.compile(rb"/LastChar\s+(\d+)")
_CONTENTS_RE = re.compile(rb"/Contents\s*(?:\d+\s+\d+\s+R|\[)")
_MEDIABOX_RE = re.compile(rb"/MediaBox\s*(?:\[([^\]]*)\]|\d+\s+\d+\s+R)")
_COUNT_RE = re.compile(rb"/Count\s+(\d+)")
_PAGES_RE = re.compile(rb"/Pages" + _REF)
_NUMBER_RE = re.compile(rb"[-+]?(?:\d+\.?\d*|\.\d+)")
_TF_RE = re.compile(rb"/([^\s/\[\]<>()%{}]+)\s+[-+\d.]+\s+Tf\b")
_FONT_RESOURCES_RE = re.compile(rb"/Font\s*(?:<<((?:\s*/[^\s/\[\]<>()]+\s+\d+\s+\d+\s+R)*)\s*>>|(\d+)\s+\d+\s+R)")
_RESOURCE_NAME_RE = re.compile(rb"/([^\s/\[\]<>()]+)\s+\d+\s+\d+\s+R")
_PROGRAM_RE = re.compile(rb"/Length[123]\b|/Subtype\s*/(?!Form\b)")
# the tokens of PDF objects (a string nesting one pair of parentheses); the last alternative is
# anything else, which no intact object holds
_TOKEN_RE = re.compile(rb"(<<|>>|\[|\]|/[^\s/\[\]<>(){}%]*|\((?:\\.|[^\\()]|\((?:\\.|[^\\()])*\))*\)"
                       rb"|<[0-9A-Fa-f\s]*>|\d+\s+\d+\s+R\b|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z]+|%[^\r\n]*|\S)", re.S)
_STREAM_RE = re.compile(rb"\bstream(?:\r\n|\n|\r)")
_ENDSTREAM_RE = re.compile(rb"\s*endstream")

# The filters PDF defines (and their abbreviations, valid inside content streams' images).
_FILTERS = {b"FlateDecode", b"Fl", b"LZWDecode", b"LZW", b"ASCII85Decode", b"A85", b"ASCIIHexDecode", b"AHx",
            b"RunLengthDecode", b"RL", b"CCITTFaxDecode", b"CCF", b"DCTDecode", b"DCT", b"JBIG2Decode",
            b"JPXDecode", b"Crypt"}
_FLATE = {b"FlateDecode", b"Fl"}
_STEP = 1 << 20  # bytes inflated at a time, so a bomb is stopped at the cap


class _Damaged(Exception):
    """A sign of damage, in words (for the log and the warning of a file read by pdfminer)."""


@dataclass
class _Object:
    body: bytes  # the dictionary (up to ``stream``) or the whole object (up to ``endobj``)
    stream: bytes | None = None  # the stream's raw data (None: not a stream)
    named_fonts: frozenset[bytes] = frozenset()  # the fonts its content (if any) sets with Tf


@dataclass
class _File:
    data: bytes
    offsets: dict[int, int] = field(default_factory=dict)  # object → offset in the file
    packed: dict[int, tuple[int, int]] = field(default_factory=dict)  # object → (object stream, index)
    trailer: bytes = b""
    encrypted: bool = False


def damage(data: bytes, cap: int) -> str:
    """Why the fast reader may not read ``data`` as it stands, in words; "" when it may.
    ExtractError("zip-bomb") when a stream expands beyond ``cap`` bytes."""
    try:
        _check(data, cap)
    except _Damaged as exc:
        return str(exc)
    return ""


def _check(data: bytes, cap: int) -> None:
    pdf = _File(data)
    _read_cross_references(pdf)
    objects = _objects(pdf, cap)
    pages = 0
    for number, obj in objects.items():
        if not _well_formed(obj.body):
            raise _Damaged(f"the dictionary of object {number} is damaged")
        kinds = _TYPE_RE.findall(obj.body) if b"/Type" in obj.body else ()
        if b"Font" in kinds:
            _check_font(number, obj, objects)
        elif b"Page" in kinds:
            pages += 1
            if not _CONTENTS_RE.search(obj.body) and not _top_keys(obj.body) <= _PAGE_KEYS:
                # (a blank page has no contents; a page holding a key no page has lost its
                # /Contents to a damaged byte, ``/Con\\ents``)
                raise _Damaged(f"page object {number} has no contents and a key no page has")
            box = _MEDIABOX_RE.search(obj.body)
            if box and box.group(1) is not None and not _numbers(box.group(1), 4):
                raise _Damaged(f"the page box of page object {number} is damaged")
    _check_font_names(objects)
    root = _ROOT_RE.search(pdf.trailer)
    catalog = objects.get(int(root.group(1))) if root else None
    tree = _PAGES_RE.search(catalog.body) if catalog else None
    node = objects.get(int(tree.group(1))) if tree else None
    count = _COUNT_RE.search(node.body) if node else None
    if count is None:
        raise _Damaged("the page tree is lost")
    if int(count.group(1)) != pages:
        raise _Damaged(f"the page tree counts {int(count.group(1))} pages; {pages} page objects found")


def _well_formed(body: bytes) -> bool:
    """Whether an object's body (or a stream's dictionary) is tokens of PDF objects, every
    dictionary pairs of a name and a value, every bracket closed: a flipped byte that fuses a
    key with its value (``/Type\x83Font``) leaves a key without one."""
    stack: list[list[int]] = []  # per open dictionary or array: [is_dict, keys and values in it]
    for token in _TOKEN_RE.findall(body):
        first = token[:1]
        if first == b"%":
            continue
        if token in (b"<<", b"["):
            if stack and stack[-1][0]:
                stack[-1][1] += 1
            stack.append([token == b"<<", 0])
            continue
        if token in (b">>", b"]"):
            if not stack or stack[-1][0] != (token == b">>") or (stack[-1][0] and stack[-1][1] % 2):
                return False
            stack.pop()
            continue
        if first.isalpha() or first.isdigit() or first in b"-+./(<":
            if stack and stack[-1][0]:
                if stack[-1][1] % 2 == 0 and first != b"/":
                    return False  # (a key that is not a name)
                stack[-1][1] += 1
            continue
        return False
    return not stack


# the keys a page's dictionary may hold (ISO 32000-2, table 31)
_PAGE_KEYS = {b"Type", b"Parent", b"LastModified", b"Resources", b"MediaBox", b"CropBox", b"BleedBox", b"TrimBox",
              b"ArtBox", b"BoxColorInfo", b"Contents", b"Rotate", b"Group", b"Thumb", b"B", b"Dur", b"Trans",
              b"Annots", b"AA", b"Metadata", b"PieceInfo", b"StructParents", b"ID", b"PZ", b"SeparationInfo",
              b"Tabs", b"TemplateInstantiated", b"PresSteps", b"UserUnit", b"VP", b"AF", b"OutputIntents", b"DPart"}


def _top_keys(body: bytes) -> set[bytes]:
    """The keys of an object's outermost dictionary (of a well-formed body)."""
    keys, depth, position = set(), 0, 0
    for token in _TOKEN_RE.findall(body):
        if token in (b"<<", b"["):
            if depth == 1:
                position += 1
            depth += 1
        elif token in (b">>", b"]"):
            depth -= 1
        elif depth == 1 and token[:1] != b"%":
            if position % 2 == 0:
                keys.add(token[1:])
            position += 1
    return keys


def _numbers(listed: bytes, count: int) -> bool:
    """Whether ``listed`` is ``count`` numbers and nothing else."""
    values = listed.split()
    return len(values) == count and all(_NUMBER_RE.fullmatch(v) for v in values)


def _read_cross_references(pdf: _File) -> None:
    """``pdf.offsets``, ``packed`` and ``trailer`` from the tables from the last ``startxref`` on
    (a later table's entry wins over an earlier one's, as an update appended to a file does)."""
    data = pdf.data
    end = _STARTXREF_RE.search(data, max(0, len(data) - 2048))
    if end is None:
        raise _Damaged("the file's end (startxref) is lost")
    todo, seen = [int(end.group(1))], set()
    while todo:
        at = todo.pop()
        if at in seen or at >= len(data):
            raise _Damaged("a cross-reference table is not where the file says")
        seen.add(at)
        if data.startswith(b"xref", at):
            trailer = _classic_table(pdf, at + 4)
            hybrid = _XREFSTM_RE.search(trailer)
            if hybrid:
                todo.append(int(hybrid.group(1)))
        else:
            trailer = _stream_table(pdf, at)
        pdf.trailer = pdf.trailer or trailer
        pdf.encrypted = pdf.encrypted or bool(_ENCRYPT_RE.search(trailer))
        prev = _PREV_RE.search(trailer)
        if prev:
            todo.append(int(prev.group(1)))
    if not _ROOT_RE.search(pdf.trailer):
        raise _Damaged("the trailer names no catalog")
    for number, offset in pdf.offsets.items():
        header = _HEADER_RE.match(data, offset)
        if header is None or int(header.group(1)) != number:
            raise _Damaged(f"object {number} is not where the cross-reference table says")


def _classic_table(pdf: _File, at: int) -> bytes:
    data = pdf.data
    at = _skip_space(data, at)
    while True:
        section = _SECTION_RE.match(data, at)
        if section is None:
            break
        first, count = int(section.group(1)), int(section.group(2))
        at = section.end()
        for number in range(first, first + count):
            entry = _ENTRY_RE.match(data, at)
            if entry is None:
                raise _Damaged("an entry of the cross-reference table is damaged")
            at = entry.end()
            if entry.group(3) == b"n" and number not in pdf.offsets and number not in pdf.packed:
                pdf.offsets[number] = int(entry.group(1))
        at = _skip_space(data, at)
    trailer = _TRAILER_RE.match(data, at)
    if trailer is None:
        raise _Damaged("the trailer is damaged")
    close = data.find(b">>", trailer.end())
    # (the trailer holds no stream: its dictionary is short; nested ones end before startxref)
    stop = data.find(b"startxref", trailer.end())
    return data[trailer.end(): stop if stop > 0 else close + 2]


def _stream_table(pdf: _File, at: int) -> bytes:
    """A cross-reference stream at ``at`` (PDF 1.5): its entries, and its dictionary."""
    header = _HEADER_RE.match(pdf.data, at)
    if header is None:
        raise _Damaged("the cross-reference table is lost")
    obj = _object_at(pdf.data, header.end(), {})
    if obj.stream is None or not _TYPE_RE.search(obj.body) or _TYPE_RE.search(obj.body).group(1) != b"XRef":
        raise _Damaged("the cross-reference stream is damaged")
    widths = _W_RE.search(obj.body)
    size = _SIZE_RE.search(obj.body)
    if widths is None or size is None:
        raise _Damaged("the cross-reference stream is damaged")
    w = [int(x) for x in widths.groups()]
    index = _INDEX_RE.search(obj.body)
    bounds = [int(x) for x in index.group(1).split()] if index else [0, int(size.group(1))]
    raw = _decoded(obj, 1 << 26)
    row = sum(w)
    if row == 0 or len(bounds) % 2:
        raise _Damaged("the cross-reference stream is damaged")
    at = 0
    for first, count in zip(bounds[::2], bounds[1::2]):
        for number in range(first, first + count):
            entry = raw[at: at + row]
            at += row
            if len(entry) < row:
                raise _Damaged("the cross-reference stream is cut short")
            fields = [int.from_bytes(entry[s: s + n], "big") for s, n in ((0, w[0]), (w[0], w[1]), (w[0] + w[1], w[2]))]
            kind = fields[0] if w[0] else 1
            if number in pdf.offsets or number in pdf.packed:
                continue
            if kind == 1:
                pdf.offsets[number] = fields[1]
            elif kind == 2:
                pdf.packed[number] = (fields[1], fields[2])
    return obj.body


def _decoded(obj: _Object, cap: int) -> bytes:
    """The data of a Flate stream with a PNG predictor undone (cross-reference streams)."""
    raw = _inflated(obj.stream or b"", cap)
    predictor = _PREDICTOR_RE.search(obj.body)
    if predictor is None or int(predictor.group(1)) < 10:
        return raw
    columns = int(_COLUMNS_RE.search(obj.body).group(1)) if _COLUMNS_RE.search(obj.body) else 1
    out = bytearray()
    previous = bytearray(columns)
    for at in range(0, len(raw) - columns, columns + 1):
        kind, line = raw[at], bytearray(raw[at + 1: at + 1 + columns])
        if kind == 2:  # Up, as every writer of these streams uses
            line = bytearray((a + b) & 255 for a, b in zip(line, previous))
        elif kind != 0:
            raise _Damaged("the cross-reference stream uses a predictor not checked here")
        out += line
        previous = line
    return bytes(out)


def _skip_space(data: bytes, at: int) -> int:
    while at < len(data) and data[at] in b" \t\r\n\f\x00":
        at += 1
    return at


def _object_at(data: bytes, at: int, offsets: dict[int, int]) -> _Object:
    """The object whose header ends at ``at``: its dictionary and stream, or its whole body."""
    end = data.find(b"endobj", at)
    keyword = _STREAM_RE.search(data, at, end if end > 0 else len(data))
    if keyword is None:
        return _Object(data[at: end if end > 0 else len(data)])
    body = data[at: keyword.start()]
    length = _LENGTH_RE.search(body)
    if length is None:
        raise _Damaged("a stream has no length")
    if length.group(1) is not None:
        size = int(length.group(1))
    else:
        where = offsets.get(int(length.group(2)))
        value = _HEADER_RE.match(data, where) if where is not None else None
        number = re.match(rb"\s*(\d+)\s+endobj", data[value.end(): value.end() + 64]) if value else None
        if number is None:
            raise _Damaged("the length of a stream is lost")
        size = int(number.group(1))
    start = keyword.end()
    if _ENDSTREAM_RE.match(data, start + size) is None:
        raise _Damaged("a stream does not end where its length says")
    return _Object(body, data[start: start + size])


def _objects(pdf: _File, cap: int) -> dict[int, _Object]:
    """Every object listed, its streams checked (:func:`_check_stream`), those packed in object
    streams unpacked."""
    data = pdf.data
    objects: dict[int, _Object] = {}
    for number, offset in pdf.offsets.items():
        header = _HEADER_RE.match(data, offset)
        obj = _object_at(data, header.end(), pdf.offsets)
        if obj.stream is not None:
            _check_stream(number, obj, cap, pdf.encrypted)
        objects[number] = obj
    if pdf.packed and pdf.encrypted:
        raise _Damaged("objects packed in an encrypted file are not checked here")
    unpacked: dict[int, list[bytes]] = {}
    for number, (holder, index) in pdf.packed.items():
        if holder not in unpacked:
            unpacked[holder] = _unpacked(objects.get(holder), cap)
        members = unpacked[holder]
        if index >= len(members):
            raise _Damaged(f"object {number} is not in the object stream the table says")
        objects[number] = _Object(members[index])
    return objects


def _unpacked(holder: _Object | None, cap: int) -> list[bytes]:
    """The objects of an object stream, in order."""
    if holder is None or holder.stream is None:
        raise _Damaged("an object stream is lost")
    count, first = _N_RE.search(holder.body), _FIRST_RE.search(holder.body)
    if count is None or first is None:
        raise _Damaged("an object stream is damaged")
    raw = _decoded(holder, cap)
    numbers = [int(x) for x in raw[: int(first.group(1))].split()]
    if len(numbers) != 2 * int(count.group(1)):
        raise _Damaged("an object stream is damaged")
    starts = [int(first.group(1)) + k for k in numbers[1::2]] + [len(raw)]
    return [raw[a:b] for a, b in zip(starts, starts[1:])]


def _check_stream(number: int, obj: _Object, cap: int, encrypted: bool) -> None:
    """The stream's filters known, its Flate data whole; the fonts its content sets noted."""
    kind = _FILTER_RE.search(obj.body)
    names = _NAME_RE.findall(kind.group(1)) if kind else []
    if any(name not in _FILTERS for name in names):
        raise _Damaged(f"the filter of stream {number} is damaged")
    subtype = _SUBTYPE_RE.search(obj.body)
    if encrypted or (subtype is not None and subtype.group(1) == b"Image"):
        return  # (an image is never decoded for text, and may be large)
    content = None
    if not names:
        content = obj.stream or b""
    elif names[0] in _FLATE:
        content = _inflated(obj.stream or b"", cap, number)
    if content is not None and not _PROGRAM_RE.search(obj.body) and b"Tf" in content:
        obj.named_fonts = frozenset(_TF_RE.findall(content))


def _inflated(raw: bytes, cap: int, number: int = 0) -> bytes:
    """``raw`` inflated whole, its checksum right; _Damaged otherwise, ExtractError past ``cap``."""
    inflater = zlib.decompressobj()
    pieces, size, pending = [], 0, raw
    try:
        while pending:
            piece = inflater.decompress(pending, _STEP)
            size += len(piece)
            if size > cap:
                raise ExtractError("zip-bomb", f"PDF stream expands beyond {cap // 1048576} MB (compression bomb); "
                                               "refused")
            pieces.append(piece)
            pending = inflater.unconsumed_tail
            if inflater.eof:
                break
    except zlib.error as exc:
        raise _Damaged(f"the compressed data of stream {number} is damaged ({exc})") from None
    if not inflater.eof:
        raise _Damaged(f"the compressed data of stream {number} is cut short")
    return b"".join(pieces)


def _check_font_names(objects: dict[int, _Object]) -> None:
    """Every font a content stream sets (``/F1 11 Tf``) is named in a font resource of the file:
    PDFium reads a name its page does not hold in a standard font, its codes as garbage."""
    named = set().union(*(obj.named_fonts for obj in objects.values()))
    if not named:
        return
    held: set[bytes] = set()
    for obj in objects.values():
        if b"/Font" not in obj.body:
            continue
        for resources in _FONT_RESOURCES_RE.finditer(obj.body):
            listed = resources.group(1)
            if listed is None:
                target = objects.get(int(resources.group(2)))
                listed = target.body if target is not None else b""
            held.update(_RESOURCE_NAME_RE.findall(listed))
    missing = named - held
    if missing:
        raise _Damaged(f"a content stream sets a font no resource holds (/{sorted(missing)[0].decode('latin-1')})")


def _check_font(number: int, obj: _Object, objects: dict[int, _Object]) -> None:
    cmap = _TOUNICODE_RE.search(obj.body)
    if cmap is not None and cmap.group(1) is not None:
        target = objects.get(int(cmap.group(1)))
        if target is None or target.stream is None:
            raise _Damaged(f"the character map of font {number} is lost")
    widths = _WIDTHS_RE.search(obj.body)
    subtype = _SUBTYPE_RE.search(obj.body)
    if subtype is not None and subtype.group(1) == b"Type3":
        matrix = _FONTMATRIX_RE.search(obj.body)
        if matrix is None or not _numbers(matrix.group(1), 6):
            raise _Damaged(f"the matrix of font {number} is damaged")
        return  # (a Type 3 font's widths are in its own units)
    if widths is None:
        return
    if widths.group(1) is not None:
        listed = widths.group(1)
    else:
        target = objects.get(int(widths.group(2)))
        if target is None:
            raise _Damaged(f"the glyph widths of font {number} are lost")
        listed = target.body.strip().lstrip(b"[").rstrip(b"]")
    first, last = _FIRSTCHAR_RE.search(obj.body), _LASTCHAR_RE.search(obj.body)
    values = listed.split()
    if (first is None or last is None or len(values) != int(last.group(1)) - int(first.group(1)) + 1
            or not all(_NUMBER_RE.fullmatch(v) and 0 <= float(v) <= 10_000 for v in values)):
        raise _Damaged(f"the glyph widths of font {number} are damaged")
