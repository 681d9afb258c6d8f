"""Word 97–2003 documents (``.doc``): the text of the main document, from its piece table.

A ``.doc`` is an OLE compound file (read with olefile) whose ``WordDocument`` stream begins with
the File Information Block (FIB). The FIB gives the length of the main document in characters
(``ccpText``) and where the piece table (``Clx``) lies in the table stream (``0Table`` or
``1Table``). Each piece is a run of characters stored either as 8-bit code page 1252 text
("compressed") or as UTF-16 (Chinese text always is), at a file offset of the ``WordDocument``
stream ([MS-DOC] 2.4.1, "Retrieving Text"). Headers, footers, footnotes and comments come after
the main text and are not read (page furniture, as a PDF's running headers are).

Word's special characters: a paragraph ends with CR, a table cell and row with BEL (each cell is
a paragraph here), a field is ``0x13 code 0x14 result 0x15`` (the result is kept, the code — such
as ``PAGE`` or ``HYPERLINK "…"`` — dropped), pictures and drawn objects are ``0x01`` and ``0x08``.

Word 6 and 95 files (an older FIB) and encrypted files are reported, not guessed at.

A damaged file whose compound file cannot be read (a cut download loses the directory, which
LibreOffice and Word write last; a flipped byte in a sector chain) still holds its text: the
``WordDocument`` stream is found by its FIB, read on from there, and its pieces by the piece table
found where the FIB says it is in the table stream, else by the FIB's range of text
(``fcMin``–``fcMac``). What is read that way carries a warning; the text cut off is counted.
"""

from __future__ import annotations

import io
import re
import struct
from typing import TYPE_CHECKING

from neardup_gui.core.extract.common import ExtractError, Extracted

if TYPE_CHECKING:
    from olefile import OleFileIO

FIB_IDENT = 0xA5EC
FIB_WORD97 = 0x00C1  # nFib of Word 97 and later (Word 6/95: 0x0065–0x0069)
_FLAGS = 0x000A  # fEncrypted 0x0100, fWhichTblStm 0x0200, fObfuscated 0x8000
_CCP_TEXT = 0x004C  # FibRgLw97.ccpText: characters of the main document
_FC_CLX = 0x01A2  # FibRgFcLcb97.fcClx, lcbClx: the piece table in the table stream

# the main stream of the other programs' OLE files (a workbook or slides saved as .doc)
_OTHER_PROGRAMS = (("Workbook", "an Excel workbook"), ("Book", "an Excel workbook"),
                   ("PowerPoint Document", "a PowerPoint presentation"), ("VisioDocument", "a Visio drawing"))
# the main streams of a Microsoft Works word processor's .wps (Works 4: MN0; 8 and 9: CONTENTS)
_WORKS_STREAMS = ("MN0", "CONTENTS", "MatOST")

NOUN = "Word document"  # (as a .docx is called in reasons: one translation)


def _damaged(why: str) -> ExtractError:
    return ExtractError("corrupt", f"damaged {NOUN}: {why}")


def extract(data: bytes) -> Extracted:
    """The main text of a Word 97–2003 document, one item per paragraph (and table cell); a
    damaged one's surviving text (see the module's docstring)."""
    try:
        return _extract(data)
    except ExtractError as exc:
        if exc.code != "corrupt":
            raise
        salvaged = _salvage(data)
        if salvaged is None:
            raise
        salvaged.warnings.insert(0, f"recovered from a damaged file: {exc.reason.removeprefix(f'damaged {NOUN}: ')}; "
                                    f"the text was read from the Word stream that survives")
        return salvaged


def _extract(data: bytes) -> Extracted:
    import olefile

    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except Exception as exc:  # noqa: BLE001 - olefile raises many kinds on a damaged file
        raise _damaged(f"its compound file cannot be read ({str(exc)[:80] or type(exc).__name__})") from exc
    with ole:
        if ole.exists("EncryptedPackage") or ole.exists("EncryptionInfo"):
            raise ExtractError("encrypted", "encrypted Word document: remove the password")
        if not ole.exists("WordDocument"):
            other = next((name for stream, name in _OTHER_PROGRAMS if ole.exists(stream)), "")
            if other:
                raise ExtractError("wrong-format", f"file is {other}, not a Word .doc document")
            if any(ole.exists(stream) for stream in _WORKS_STREAMS):
                # (a .wps of Microsoft Works, not of WPS Office: another format altogether)
                raise ExtractError("unsupported", "Microsoft Works document: save it as .docx")
            raise _damaged("no WordDocument stream")  # (a damaged directory, most often)
        words = _read(ole, "WordDocument")
        if len(words) < _FC_CLX + 8:
            raise _damaged("its WordDocument stream is cut short")
        ident, nfib = struct.unpack_from("<HH", words, 0)
        if ident != FIB_IDENT:
            raise _damaged("no Word file information block")
        if nfib < FIB_WORD97:
            raise ExtractError("legacy-doc", "Word 6/95 document: save it as .docx")
        (flags,) = struct.unpack_from("<H", words, _FLAGS)
        if flags & 0x0100 or flags & 0x8000:
            raise ExtractError("encrypted", "encrypted Word document: remove the password")
        table_name = "1Table" if flags & 0x0200 else "0Table"
        if not ole.exists(table_name):
            raise _damaged(f"its {table_name} stream is missing")
        table = _read(ole, table_name)
    (ccp_text,) = struct.unpack_from("<i", words, _CCP_TEXT)
    fc_clx, lcb_clx = struct.unpack_from("<II", words, _FC_CLX)
    if ccp_text < 0 or fc_clx + lcb_clx > len(table) or lcb_clx < 5:
        raise _damaged("its piece table lies outside the file")
    warnings: list[str] = []
    text = _main_text(words, _pieces(table, fc_clx, lcb_clx), ccp_text, warnings)
    return Extracted(paragraphs=_paragraphs(text).split("\n"), meta={"word_version": f"nFib {nfib:#06x}"},
                     warnings=warnings)


def _read(ole: OleFileIO, name: str) -> bytes:
    try:
        with ole.openstream(name) as stream:
            return stream.read()
    except Exception as exc:  # noqa: BLE001
        raise _damaged(f"its {name} stream cannot be read ({str(exc)[:80] or type(exc).__name__})") from exc


def _pieces(table: bytes, fc_clx: int, lcb_clx: int) -> list[tuple[int, int, int, bool]]:
    """(first character, last character + 1, file offset, compressed) of every piece, in order."""
    pos, end = fc_clx, fc_clx + lcb_clx
    while pos < end and table[pos] == 0x01:  # Prc: property modifiers, skipped
        if pos + 3 > end:
            raise _damaged("its piece table is cut short")
        (cb,) = struct.unpack_from("<H", table, pos + 1)
        pos += 3 + cb
    if pos + 5 > end or table[pos] != 0x02:
        raise _damaged("no piece table")
    (lcb,) = struct.unpack_from("<I", table, pos + 1)
    plc = pos + 5
    if lcb < 16 or plc + lcb > len(table) or (lcb - 4) % 12:
        raise _damaged("its piece table has a wrong length")
    n = (lcb - 4) // 12
    cps = struct.unpack_from(f"<{n + 1}i", table, plc)
    pieces = []
    for i in range(n):
        (fc,) = struct.unpack_from("<I", table, plc + 4 * (n + 1) + 8 * i + 2)
        compressed = bool(fc & 0x40000000)
        fc &= 0x3FFFFFFF
        pieces.append((cps[i], cps[i + 1], fc // 2 if compressed else fc, compressed))
    return pieces


def _main_text(words: bytes, pieces: list[tuple[int, int, int, bool]], ccp_text: int, warnings: list[str]) -> str:
    out: list[str] = []
    lost = 0
    for first, last, offset, compressed in pieces:
        if first >= ccp_text:
            break
        count = min(last, ccp_text) - first
        if count <= 0:
            continue
        width = 1 if compressed else 2
        raw = words[offset:offset + count * width]
        if len(raw) < count * width:
            lost += count - len(raw) // width
            raw = raw[:len(raw) // width * width]
        out.append(raw.decode("cp1252", "replace") if compressed else raw.decode("utf-16-le", "replace"))
    if lost:
        warnings.append(f"the file is cut short: {lost} characters of its text are missing")
    return "".join(out)


# Word's marks: paragraph and line ends, table cells and rows, page and section breaks
_BREAKS = {"\r": "\n", "\x0b": "\n", "\x0c": "\n", "\x07": "\n", "\x0e": "\n"}
_DROPPED = {"\x01", "\x02", "\x03", "\x04", "\x05", "\x08", "\x1f"}


_PLAIN = str.maketrans({**_BREAKS, "\x1e": "-", **{c: None for c in _DROPPED}})


def _paragraphs(text: str) -> str:
    """Word's special characters replaced: breaks become newlines, a field keeps its result."""
    if "\x13" not in text:  # (no field: one pass in C)
        return text.translate(_PLAIN).replace("\x14", "").replace("\x15", "")
    out: list[str] = []
    fields: list[bool] = []  # per open field: still in its code (before 0x14)
    for ch in text:
        if ch == "\x13":
            fields.append(True)
        elif ch == "\x14":
            if fields:
                fields[-1] = False
        elif ch == "\x15":
            if fields:
                fields.pop()
        elif fields and any(fields):
            continue
        elif ch in _BREAKS:
            out.append(_BREAKS[ch])
        elif ch == "\x1e":  # non-breaking hyphen
            out.append("-")
        elif ch not in _DROPPED:
            out.append(ch)
    return "".join(out)


# --- salvage -------------------------------------------------------------------------------------

_FC_MIN = 0x0018  # FibBase.fcMin, fcMac: where the document's text lies in the WordDocument stream
_CCP_ALL = range(0x004C, 0x006C, 4)  # ccpText, ccpFtn, ccpHdd, ccpMcr, ccpAtn, ccpEdn, ccpTxbx, ccpHdrTxbx
_NFIB_MAX = 0x0200  # (Word 97: 0x00C1 … Word 2007 and later: 0x0112)
_MAX_FIBS = 16
_FIB_RE = re.compile(rb"\xec\xa5", re.S)


def _salvage(data: bytes) -> Extracted | None:
    """The text of a Word 97–2003 document whose compound file cannot be read, from its FIB
    onwards; None when no FIB with readable text is found."""
    best: Extracted | None = None
    tried = 0
    for m in _FIB_RE.finditer(data):
        fib = m.start()
        if len(data) - fib < _FC_CLX + 8:
            break
        (nfib,) = struct.unpack_from("<H", data, fib + 2)
        (flags,) = struct.unpack_from("<H", data, fib + _FLAGS)
        if not FIB_WORD97 <= nfib <= _NFIB_MAX or flags & 0x8100:
            continue
        ccps = [struct.unpack_from("<i", data, fib + at)[0] for at in _CCP_ALL]
        ccp_text = ccps[0]
        if ccp_text <= 0 or min(ccps) < 0 or sum(ccps) > len(data):
            continue
        tried += 1
        if tried > _MAX_FIBS:
            break  # (bytes that look like FIBs, each a scan of the file: a bound on the time)
        words = data[fib:]
        pieces = _found_pieces(data, words, ccps)
        if pieces is None:
            continue
        warnings: list[str] = []
        text = _main_text(words, pieces, ccp_text, warnings)
        if not _plausible(text):
            continue
        found = Extracted(paragraphs=_paragraphs(text).split("\n"), meta={"word_version": f"nFib {nfib:#06x}"},
                          warnings=warnings)
        if best is None or len(text) > sum(map(len, best.paragraphs)):
            best = found
    return best


def _found_pieces(data: bytes, words: bytes, ccps: list[int]) -> list[tuple[int, int, int, bool]] | None:
    """The piece table named by the FIB, found in what survives of the file (its table stream's
    place is in the lost directory); else one piece over the FIB's text range."""
    fc_clx, lcb_clx = struct.unpack_from("<II", words, _FC_CLX)
    if 21 <= lcb_clx <= 1 << 24:
        # the Clx's piece table: 0x02, its length, and the first character position, 0
        start = 0
        head = b"\x02" + struct.pack("<I", lcb_clx - 5) + b"\x00\x00\x00\x00"
        while (at := data.find(head, start)) >= 0:
            start = at + 1
            try:
                pieces = _pieces(data, at, lcb_clx)
            except ExtractError:
                continue
            if pieces and pieces[-1][1] >= ccps[0] and all(offset < len(data) for _, _, offset, _ in pieces):
                return pieces
    fc_min, fc_mac = struct.unpack_from("<II", words, _FC_MIN)
    total = sum(ccps) + (1 if sum(ccps[1:]) else 0)
    if not 0 < fc_min < fc_mac or total <= 0:
        return None
    for width in (2, 1):
        if abs((fc_mac - fc_min) - width * total) <= width:
            return [(0, total, fc_min, width == 1)]
    return None


_CONTROL = re.compile(r"[\x00\x06\x0f-\x12\x16-\x1d\ufffd\ue000-\uf8ff]")


def _plausible(text: str) -> bool:
    """Text, not bytes read as text: few control, private-use or replaced characters."""
    return bool(text.strip()) and len(_CONTROL.findall(text)) <= len(text) // 20
