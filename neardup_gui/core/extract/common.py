"""Shared pieces of the format extractors: content sniffing, archive and XML guards, assembly."""

from __future__ import annotations

import bisect
import io
import itertools
import logging
import operator
import re
import struct
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Callable, Sequence

from neardup_gui.core.document import CharSpan, Document, Skipped
from neardup_gui.core.settings import ExtractLimits

log = logging.getLogger(__name__)


class ExtractError(Exception):
    """A file that cannot be used; ``code`` and ``reason`` become its :class:`Skipped`."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


@dataclass
class Extracted:
    """What a format module returns: body paragraphs in reading order, and extras.

    ``furniture`` holds indices into ``paragraphs`` of page furniture (PDF running headers,
    footers, page numbers).
    """

    paragraphs: list[str]
    furniture: set[int] = field(default_factory=set)
    margins: list[str] = field(default_factory=list)
    meta: dict[str, str] = field(default_factory=dict)
    # Set when the file has no text for a known reason (scanned PDF); overrides "no-text".
    empty_code: str = ""
    empty_reason: str = ""
    # What the examiner must know about a text that was read only in part or leniently
    # (invalid bytes replaced, a damaged container salvaged); the document is still indexed.
    warnings: list[str] = field(default_factory=list)
    # Text its reader cannot see (extract/hiding.py): paragraph index -> spans in that paragraph
    hidden: dict[int, list[CharSpan]] = field(default_factory=dict)


# (the zero-width space and the byte order mark are not white space: invisible, they stay in
# the text as the file holds it, and comparison reads them as format characters, core/units.py)
_SPACE_RE = re.compile(r"[ \t\r\f\v\u00a0\u2000-\u200a\u3000\u202f\u205f]+")
# C0 and C1 control characters but the tab (line breaks included): each becomes one space. One
# regex pass, not a Python step per character.
_CONTROL_RE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def clean_paragraph(text: str) -> str:
    """One paragraph on one line: runs of white space become one space, ends trimmed.

    Line breaks inside a paragraph become spaces so ``Document.text`` separates paragraphs
    by exactly one ``"\\n"``; control characters (except tab, kept as space) are removed.
    """
    # ("\r\n" becomes two spaces here, and one with the white space around it below)
    text = _CONTROL_RE.sub(" ", text)
    return _SPACE_RE.sub(" ", text).strip()


def has_text(text: str) -> bool:
    """True when the text holds at least one letter or digit (one unit)."""
    return any(c.isalnum() for c in text)


# Joins the paragraphs of a document while they are cleaned together: NUL, which neither str.split
# nor _SPACE_RE counts as white space and the control passes below leave alone (a text file never
# holds one: it is binary), so an ASCII text stays ASCII and a Latin-1 one stays one byte a
# character; a Unicode noncharacter when a paragraph holds a NUL; and a text holding both is
# cleaned paragraph by paragraph.
_PARAGRAPH_JOIN = "\x00"
_PARAGRAPH_JOIN_ELSE = "\ufdd1"


# Latin-1 control characters but the tab and NUL, and the no-break space, each to a space (for
# bytes.translate)
_LATIN1_CONTROLS = bytes(32 if (0 < c < 32 and c != 9) or 0x7F <= c <= 0xA0 else c for c in range(256))
_CONTROL_BUT_NUL_RE = re.compile(r"[\x01-\x08\x0a-\x1f\x7f-\x9f]")
# Where str.split's white space (after the control characters became spaces) and _SPACE_RE's differ
# (``in`` a text of narrower characters costs nothing)
_SPLIT_DIFFERS = "\u1680\u2028\u2029"


def clean_paragraphs(paragraphs: Sequence[str]) -> list[str]:
    """:func:`clean_paragraph` of each paragraph, in a few passes over the whole document in C
    rather than two regex passes per paragraph (a text file has one per line).

    The paragraphs are joined by a character no step touches; control characters become spaces
    (one ``bytes.translate`` for a text of Latin-1 characters, cleaned as bytes); runs of white
    space become one space with ``split`` where its white space is ``_SPACE_RE``'s (five times
    faster than the regex), else with the regex itself. ``tests/core/test_index_fastpaths.py``
    checks it against the character-by-character definition.
    """
    if not paragraphs:
        return []
    join = _PARAGRAPH_JOIN
    joined = join.join(paragraphs)
    if joined.count(join) == len(paragraphs) - 1:
        try:  # (one byte a character: str.encode copies it as it is)
            raw = joined.encode("latin-1")
        except UnicodeEncodeError:
            joined = _CONTROL_BUT_NUL_RE.sub(" ", joined)
        else:
            # controls and no-break spaces to spaces: the rest of Latin-1's white space is ASCII's.
            # The runs of white space of the whole text become one space each at once (none
            # crosses a join, which is not white space); the one left beside a join, or at either
            # end, is what stripping each paragraph removes (a text file has one per line: 100
            # a document, 0.2 ms of its extraction one by one)
            spaced = b" ".join(raw.translate(_LATIN1_CONTROLS).split())
            return spaced.replace(b" \x00", b"\x00").replace(b"\x00 ", b"\x00").decode("latin-1").split("\x00")
    else:
        join = _PARAGRAPH_JOIN_ELSE
        joined = join.join(paragraphs)
        if joined.count(join) != len(paragraphs) - 1:
            return [clean_paragraph(p) for p in paragraphs]
        joined = _CONTROL_RE.sub(" ", joined)
    # no step matched across the join, so each paragraph is cleaned as on its own; the runs of
    # white space paragraph by paragraph (a third less than over the whole text and trimming
    # each paragraph after: 2,375 real copyright files)
    if any(map(joined.__contains__, _SPLIT_DIFFERS)):
        return list(map(str.strip, _SPACE_RE.sub(" ", joined).split(join)))
    return list(map(" ".join, map(str.split, joined.split(join))))


def build_document(path: str, fmt: str, result: Extracted, meta: dict[str, str]) -> Document | Skipped:
    """Join cleaned paragraphs with ``"\n"``, record their spans, refuse a document without text."""
    cleaned = clean_paragraphs(result.paragraphs)
    kept = list(itertools.compress(range(len(cleaned)), cleaned))  # the indices of non-empty paragraphs
    parts = list(filter(None, cleaned))
    # paragraph i starts after the i paragraphs before it and their "\n"s
    ends = list(map(operator.add, itertools.accumulate(map(len, parts)), itertools.count()))
    spans: list[CharSpan] = list(zip(map(operator.sub, ends, map(len, parts)), ends))
    furniture: list[CharSpan] = (
        [span for span, index in zip(spans, kept) if index in result.furniture] if result.furniture else []
    )
    text = "\n".join(parts)
    hidden = _hidden_spans(result, cleaned, kept, spans) if result.hidden else ()
    page_furniture = set(furniture)
    body_has_text = any(has_text(text[s:e]) for s, e in spans if (s, e) not in page_furniture)
    if not body_has_text:
        if result.empty_code:
            return Skipped(path, result.empty_code, result.empty_reason)
        if not text.strip():
            return Skipped(path, "empty", f"no text in this {fmt} file")
        return Skipped(path, "no-text", "no words in the file: only punctuation, numbers of pages or symbols")
    margins = "\n".join(filter(None, clean_paragraphs(result.margins)))
    return Document(
        path=path,
        format=fmt,
        text=text,
        paragraphs=tuple(spans),
        furniture=tuple(furniture),
        hidden=hidden,
        margins=margins,
        meta=dict(meta),
        warnings=tuple(result.warnings),
    )


def _hidden_spans(result: Extracted, cleaned: list[str], kept: list[int], spans: list[CharSpan]) -> tuple[CharSpan, ...]:
    """The hidden spans of the extracted paragraphs, as spans of the document's text (each
    paragraph cleaned again with the place of every character it keeps)."""
    out: list[CharSpan] = []
    for (start, _), index in zip(spans, kept):
        within = result.hidden.get(index)
        if not within:
            continue
        text, at = _cleaned_with_places(result.paragraphs[index])
        if text != cleaned[index]:  # (cannot happen: one definition of cleaning)
            log.warning("hidden text of paragraph %d not placed: its cleaning differs", index)
            continue
        for a, b in within:
            lo, hi = bisect.bisect_left(at, a), bisect.bisect_left(at, b)
            if lo < hi:
                out.append((start + lo, start + hi))
    return tuple(out)


def _cleaned_with_places(text: str) -> tuple[str, list[int]]:
    """:func:`clean_paragraph` of ``text``, and where each of its characters was in ``text``."""
    text = _CONTROL_RE.sub(" ", text)  # (one for one)
    parts: list[str] = []
    at: list[int] = []
    pos = 0
    for m in _SPACE_RE.finditer(text):
        parts += (text[pos:m.start()], " ")
        at += range(pos, m.start() + 1)
        pos = m.end()
    parts.append(text[pos:])
    at += range(pos, len(text))
    joined = "".join(parts)
    lead = len(joined) - len(joined.lstrip())
    stripped = joined.strip()
    return stripped, at[lead:lead + len(stripped)]


# --- sniffing -------------------------------------------------------------------------------

_MAGIC = (
    (b"%PDF-", "pdf"),
    (b"PK\x03\x04", "zip"),
    (b"PK\x05\x06", "zip"),  # an empty archive
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "ole"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
    (b"\x1f\x8b", "gzip"),
    (b"{\\rtf", "rtf"),
)
_HTML_RE = re.compile(rb"^\s*(<!doctype\s+html|<html|<head|<body|<meta|<!--|<title|<div|<p[ >])", re.I)
_TEXT_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


def sniff(data: bytes) -> str:
    """What the bytes look like: pdf, zip, ole, jpeg, png, gif, gzip, rtf, html, blank, text, binary."""
    head = data[:1024]
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    # PDF allows junk before the header within the first kilobyte.
    if b"%PDF-" in head:
        return "pdf"
    body = head
    for bom in _TEXT_BOMS:
        if head.startswith(bom):
            body = head[len(bom):]
            if bom != _TEXT_BOMS[0]:
                try:
                    body = head[len(bom): len(bom) + (len(head) - len(bom)) // 2 * 2].decode(
                        "utf-16-le" if bom == b"\xff\xfe" else "utf-16-be"
                    ).encode("utf-8")
                except UnicodeDecodeError:
                    return "binary"
            break
    if not body.strip():
        return "blank" if not data[1024:].strip() else "text"
    if _HTML_RE.match(body):
        return "html"
    if body.lstrip().startswith(b"{\\rtf"):
        return "rtf"
    if body is head and looks_binary(data[:8192]):
        return "binary"
    return "text"


# control bytes that plain text does not hold (tab, line feed, form feed, carriage return and
# escape it may)
_BINARY_CONTROLS = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))


def looks_binary(sample: bytes) -> bool:
    """Binary unless the sample is plausibly text in some 8-bit or UTF-16 encoding."""
    if not sample:
        return False
    nul = sample.count(0)
    if nul:
        # UTF-16 without a BOM: NULs on one parity only, text on the other.
        even = sample[0::2].count(0)
        odd = sample[1::2].count(0)
        half = len(sample) / 2
        if (even > 0.3 * half and odd < 0.02 * half) or (odd > 0.3 * half and even < 0.02 * half):
            return False
        return True
    controls = len(sample) - len(sample.translate(None, _BINARY_CONTROLS))
    if controls and b"\x08" in sample:  # overstrikes of a formatted man page are text (bold: N\bN)
        controls -= len(_OVERSTRIKE_BYTES_RE.findall(sample))
    return controls > 0.05 * len(sample)


# a backspace between two bytes that are not controls (in UTF-8, a character's last byte before it)
_OVERSTRIKE_BYTES_RE = re.compile(rb"(?<=[^\x00-\x1f])\x08(?=[^\x00-\x1f])")


_DESCRIPTIONS = {
    "pdf": "a PDF",
    "zip": "a zip archive",
    "ole": "an OLE (legacy Office) file",
    "jpeg": "a JPEG image",
    "png": "a PNG image",
    "gif": "a GIF image",
    "gzip": "a gzip archive",
    "rtf": "an RTF document",
    "html": "an HTML page",
    "text": "plain text",
    "binary": "binary data",
    "blank": "white space",
}


def describe_content(kind: str) -> str:
    """The words for a sniffed kind, for reasons such as "file is a JPEG image, not a PDF"."""
    return _DESCRIPTIONS.get(kind, kind)


# --- archives and XML ------------------------------------------------------------------------

# DOCTYPE declarations in UTF-8 and UTF-16: Office and LibreOffice never write them, and a
# DTD is how external entities and "billion laughs" expansions get in.
_DTD_MARKERS = tuple(
    marker.encode(enc) for marker in ("<!DOCTYPE", "<!ENTITY") for enc in ("utf-8", "utf-16-le", "utf-16-be")
)


def open_zip(data: bytes, limits: ExtractLimits, what: str) -> zipfile.ZipFile:
    """Open a docx/odt archive after checking its declared sizes against the zip-bomb limits.

    Raises ExtractError("corrupt" | "zip-bomb"). Read its XML with :func:`read_xml_part`.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, NotImplementedError) as exc:
        # (NotImplementedError: "zip file version 20.5", a directory entry's version damaged)
        raise ExtractError("corrupt", f"damaged {what}: not a readable zip archive ({exc})") from exc
    _check_sizes(infos, limits, what)
    return archive


def _check_sizes(infos: list[zipfile.ZipInfo], limits: ExtractLimits, what: str) -> None:
    total = 0
    cap = limits.max_unzipped_mb * 1024 * 1024
    for info in infos:
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        # Small members compress well legitimately; only large expansions are suspicious.
        if info.file_size > 1024 * 1024 and ratio > limits.max_zip_ratio:
            raise ExtractError(
                "zip-bomb",
                f"{what} looks like a zip bomb: {info.filename} expands {ratio:.0f}-fold",
            )
    if total > cap:
        raise ExtractError(
            "zip-bomb",
            f"{what} expands to {total / 1048576:.0f} MB, over the {limits.max_unzipped_mb} MB limit",
        )


def open_package(data: bytes, limits: ExtractLimits, what: str,
                 damaged: str = "") -> tuple[zipfile.ZipFile, list[str]]:
    """Open a docx/odt archive, or salvage the members before the damage of one whose central
    directory is lost (a truncated download): returns the archive and the warnings to carry.

    ``damaged``: why the archive, opened normally, could not be read (a damaged directory
    entry, a bad checksum): salvage it from the local headers at once.
    The salvaged members are read from their local headers (:func:`salvage_members`) and put in
    a fresh in-memory archive, under the same zip-bomb limits. Raises ExtractError when nothing
    can be salvaged (the original reason) or the archive breaks a limit.
    """
    try:
        if damaged:
            raise ExtractError("corrupt", damaged)
        return open_zip(data, limits, what), []
    except ExtractError as exc:
        if exc.code == "zip-bomb":
            # The directory's sizes are what a flipped byte changes as easily as any other: one
            # part "expanding 7,105,648-fold" was a damaged size (found by fuzzing: 6 of 900
            # DOCX with one to three flipped bytes were refused as zip bombs). The parts are read
            # from their own headers instead, inflated under the same limits: a real bomb is
            # still refused, by what its data expands to.
            damaged = "the zip archive's directory is damaged"
        elif exc.code != "corrupt":
            raise
        members, damage = salvage_members(data, limits, what, directory_read=bool(damaged))
        if not members:
            if exc.code == "zip-bomb":  # (no part expands as a bomb: its sizes were damaged)
                raise ExtractError("corrupt", f"damaged {what}: its zip directory declares impossible "
                                              f"sizes and no part can be read ({damage})") from exc
            raise
    # a part found twice (a run of the file written twice) is kept once, its last copy, the one
    # the rebuilt archive's reader took before; zipfile printed "UserWarning: Duplicate name" on
    # the console of `neardup index` (found by benchmarks/stress/fuzz.py)
    members = list(dict(members).items())
    rebuilt = io.BytesIO()
    with zipfile.ZipFile(rebuilt, "w", zipfile.ZIP_STORED) as out:
        for name, content in members:
            out.writestr(name, content)
    names = ", ".join(name for name, _ in members[:6]) + (", …" if len(members) > 6 else "")
    problem = damaged or "the zip archive's directory is unreadable"
    note = (f"recovered from a damaged file: {problem}; "
            f"{len(members)} part{'s' if len(members) != 1 else ''} read up to the damage ({names})"
            + (f"; {damage}" if damage else ""))
    return zipfile.ZipFile(rebuilt), [note]


_LOCAL_HEADER = struct.Struct("<4sHHHHHIIIHH")
_DESCRIPTOR_SIG = b"PK\x07\x08"

_ODT_MIMETYPE = b"application/vnd.oasis.opendocument.text"
ZIP_NAMES_BYTES = 1 << 20  # what is read of a damaged zip, named without a type, to learn its type


def zip_document_format(data: bytes | None = None, path: str | None = None) -> str | None:
    """"docx" or "odt" for a zip that is a Word document (a part under ``word/``) or an
    OpenDocument text (its ``mimetype`` part), else None; ``data``: the whole file, or ``path``
    to read it. Nothing is inflated but a ``mimetype`` of a few bytes (a zip bomb stays unread).
    A zip whose directory is lost (a truncated download) is judged by its parts' local headers,
    which it keeps up to the cut (the first ``ZIP_NAMES_BYTES`` of a file)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data) if data is not None else path) as archive:
            names = archive.namelist()
            if any(name.startswith("word/") for name in names):
                return "docx"
            mimetype = archive.getinfo("mimetype") if "mimetype" in names else None
            if mimetype is not None and mimetype.file_size <= 100 and archive.read(mimetype).strip() == _ODT_MIMETYPE:
                return "odt"
            return None
    except (zipfile.BadZipFile, KeyError, ValueError, RuntimeError, EOFError):
        pass  # its directory is lost: its parts' own headers may tell
    except OSError:
        return None
    if data is None:
        try:
            with open(path, "rb") as handle:
                data = handle.read(ZIP_NAMES_BYTES)
        except OSError:
            return None
    for found in re.finditer(rb"PK\x03\x04", data):
        at = found.start()
        if at + _LOCAL_HEADER.size > len(data):
            break
        *_, name_len, extra_len = _LOCAL_HEADER.unpack_from(data, at)
        name = data[at + _LOCAL_HEADER.size: at + _LOCAL_HEADER.size + name_len]
        if name.startswith(b"word/"):
            return "docx"
        body = at + _LOCAL_HEADER.size + name_len + extra_len
        if name == b"mimetype" and data[body: body + len(_ODT_MIMETYPE)] == _ODT_MIMETYPE:
            return "odt"
    return None



def read_package(data: bytes, limits: ExtractLimits, what: str,
                 read: Callable[[zipfile.ZipFile, list[str], bool], Extracted]) -> Extracted:
    """Open a docx/odt package and read it with ``read(archive, warnings, salvaged)``.

    When the directory opens but the main part cannot be read through it (a damaged entry, a bad
    checksum), the parts are read from their own headers instead, up to the damage; the first
    error is kept when that fails too.
    """
    archive, warnings = open_package(data, limits, what)
    salvaged = bool(warnings)  # (read from the parts' headers already)
    try:
        return read(archive, warnings, salvaged)
    except ExtractError as exc:
        # (the read's own warnings — a damaged header part left out before the body failed —
        # do not make it salvaged: before, such a document was skipped without trying)
        if exc.code != "corrupt" or salvaged:
            raise
        try:
            archive, warnings = open_package(data, limits, what, damaged=exc.reason)
            return read(archive, warnings, True)
        except ExtractError as again:
            if again.code != "corrupt":
                raise
            raise exc from None


_INFLATE_STEP = 1 << 16


def _inflate_part(data: bytes, start: int, stop: int, room: int, limits: ExtractLimits, what: str,
                  name: str) -> tuple[bytes, bool, int, bool]:
    """A part's deflate data from ``start`` (up to ``stop``): its content, whether its stream
    ended, where, and whether it is damaged (then the content is what inflates before the
    damage, and "where" is the damage). Inflated 64 KB of input at a time, and refused as soon as what it expands
    to passes the room left or the zip-bomb ratio — whatever its headers declare (a size there
    may be damaged), and before a bomb fills memory."""
    inflater = zlib.decompressobj(-15)
    view = memoryview(data)
    pieces: list[bytes] = []
    size, pos, stop = 0, start, min(stop, len(data))  # (a damaged size may point past the end)
    while pos < stop and not inflater.eof:
        fed = view[pos:min(pos + _INFLATE_STEP, stop)]
        before = inflater.copy()
        try:
            pieces.append(inflater.decompress(fed))
        except zlib.error:
            # damaged deflate data: what inflates before the damage, 64 bytes of input at a time
            inflater, at = before, 0
            for at in range(0, len(fed), 64):
                try:
                    pieces.append(inflater.decompress(fed[at:at + 64]))
                except zlib.error:
                    break
            content = b"".join(pieces)
            if len(content) > room:
                raise ExtractError("zip-bomb", f"{what} expands past the {limits.max_unzipped_mb} MB limit") from None
            return content, False, pos + at, True
        pos += len(fed)
        size += len(pieces[-1])
        if size > room:
            raise ExtractError("zip-bomb", f"{what} expands past the {limits.max_unzipped_mb} MB limit")
        consumed = pos - start - len(inflater.unused_data)
        if size > 1024 * 1024 and size / max(consumed, 1) > limits.max_zip_ratio:
            raise ExtractError("zip-bomb", f"{what} looks like a zip bomb: {name} expands "
                                           f"{size / max(consumed, 1):.0f}-fold")
    return b"".join(pieces), inflater.eof, pos - len(inflater.unused_data), False


def salvage_members(data: bytes, limits: ExtractLimits, what: str,
                    directory_read: bool = False) -> tuple[list[tuple[str, bytes]], str]:
    """Members read one after another from their local file headers, up to the damage.

    Handles data descriptors (sizes written after the data, as LibreOffice does) by inflating
    until the deflate stream ends. A member cut by the end of the file is kept as far as its
    deflate data goes, only if it is XML (the parser recovers the paragraphs before the cut).
    An XML member whose compressed data or checksum is damaged (a flipped byte, a bad sector)
    is kept up to its damage (:func:`xml_before_damage`) and the reading goes on with the next
    member; another damaged member is left out. Returns the members and what was damaged or
    stopped the reading (``directory_read``: the caller read the zip directory, so reaching it
    says nothing). Raises ExtractError("zip-bomb") past the limits.
    """
    cap = limits.max_unzipped_mb * 1024 * 1024
    members: list[tuple[str, bytes]] = []
    notes: list[str] = []  # members damaged on the way

    def said(stop: str = "") -> str:
        return "; ".join([*notes, stop] if stop else notes)

    total = 0
    pos = 0
    while True:
        if pos + _LOCAL_HEADER.size > len(data):
            return members, said("the file ends there" if pos >= len(data) else f"cut at byte {len(data)}")
        (sig, _version, flags, method, _time, _date, crc, csize, _usize,
         name_len, extra_len) = _LOCAL_HEADER.unpack_from(data, pos)
        if sig == b"PK\x01\x02":
            return members, said("" if directory_read else f"its directory, from byte {pos}, is cut short or damaged")
        if sig != b"PK\x03\x04":
            # a run of bytes inserted or deleted before it (the directory's offsets are off by
            # as much): the reading goes on at the next part's header, if there is one
            following = data.find(b"PK\x03\x04", pos + 1)
            if following < 0:
                return members, said(f"no further part at byte {pos}")
            notes.append(f"no part at byte {pos}, the next one at byte {following}")
            pos = following
            continue
        start = pos + _LOCAL_HEADER.size + name_len + extra_len
        name = data[pos + _LOCAL_HEADER.size: pos + _LOCAL_HEADER.size + name_len].decode(
            "utf-8" if flags & 0x800 else "cp437", errors="replace")
        if flags & 0x1:
            raise ExtractError("encrypted", f"encrypted {what}: remove the password")
        described = bool(flags & 0x8)
        room = cap - total
        if method == 0:
            if described:
                return members, said(f"{name}: stored part without sizes")
            content = data[start:start + csize]
            if len(content) < csize:
                return members, said(f"{name} is cut short")
            end = start + csize
            complete = True
        elif method == 8:
            content, complete, end, broken = _inflate_part(
                data, start, len(data) if described else start + csize, room, limits, what, name)
            if broken:
                # the member is kept up to its damage (XML), and the next one is where its
                # header says, or the next local header after the damage
                following = start + csize if not described else data.find(b"PK\x03\x04", end)
                if name.endswith(".xml") and content:
                    members.append((name, xml_before_damage(content)[0]))
                    total += len(content)
                    notes.append(f"{name}: damaged compressed data, its text read up to the damage")
                else:
                    notes.append(f"{name}: damaged compressed data")
                if following < 0 or following <= pos:
                    return members, said()
                pos = following
                continue
        else:
            return members, said(f"{name}: unknown compression method {method}")
        if not complete:
            if name.endswith(".xml") and content:
                members.append((name, content))
            return members, said(f"{name} is cut short")
        expected = crc
        if described:
            # optional signature, CRC-32, then 4- or 8-byte sizes (Zip64)
            tail = data[end:end + 24]
            skip = 4 if tail.startswith(_DESCRIPTOR_SIG) else 0
            expected = int.from_bytes(tail[skip:skip + 4], "little") if len(tail) >= skip + 4 else zlib.crc32(content)
            size_len = 4
            if len(tail) >= skip + 20 and int.from_bytes(tail[skip + 8:skip + 16], "little") == len(content):
                size_len = 8
            end += skip + 4 + 2 * size_len
        total += len(content)
        if zlib.crc32(content) != expected:
            if not name.endswith(".xml"):
                notes.append(f"{name}: checksum mismatch")
                pos = end
                continue
            content, cut = xml_before_damage(content)
            notes.append(f"{name}: checksum mismatch, " + ("its text read up to the damage" if cut else
                                                            "some of its characters may be read wrongly"))
        members.append((name, content))
        pos = end


def xml_before_damage(content: bytes) -> tuple[bytes, bool]:
    """An XML part whose bytes are damaged, up to its first error (a 256-byte step before it;
    the recovering parser then closes what is open): the bytes after a flipped bit of deflate
    data are noise until the stream ends or fails. A part that parses whole is kept whole (the
    damage changed characters, not structure); the second value says whether it was cut."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, huge_tree=False)
    step = 256
    for at in range(0, len(content), step):
        try:
            parser.feed(content[at:at + step])
        except etree.XMLSyntaxError:
            # the noise began before the parser saw it (a deflate stream knocked out of step
            # copies earlier bytes before it writes impossible ones): back to the end of the
            # last paragraph before it
            ends = [content.rfind(tag, 0, at) for tag in _PARAGRAPH_ENDS]
            last = max(ends)
            return (content[:last + len(_PARAGRAPH_ENDS[ends.index(last)])] if last > 0 else content[:at]), True
    try:
        parser.close()
    except etree.XMLSyntaxError:
        pass
    return content, False


_PARAGRAPH_ENDS = (b"</w:p>", b"</text:p>", b"</text:h>")


def read_xml_part(archive: zipfile.ZipFile, name: str, what: str) -> bytes:
    """The bytes of one XML member, refused if it declares a DTD or entities.

    The declared size bounds the read (checked by ``open_zip``) and zipfile checks the CRC.
    Raises ExtractError("corrupt" | "unsafe-xml"); KeyError when the member is missing.
    """
    try:
        content = archive.read(name)
    except KeyError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, NotImplementedError, OSError) as exc:
        raise ExtractError("corrupt", f"damaged {what}: {name}: {exc}") from exc
    if any(marker in content for marker in _DTD_MARKERS):
        raise ExtractError(
            "unsafe-xml", f"{what} contains an XML DTD or entity declaration ({name}); refused for safety"
        )
    return content


def parse_xml(content: bytes, name: str, what: str, recover: bool = False):
    """Parse XML with lxml, never loading DTDs, resolving entities or touching the network.

    ``recover``: keep what parses of a part cut short (a salvaged file), instead of refusing it.
    """
    from lxml import etree

    parser = etree.XMLParser(
        resolve_entities=False, load_dtd=False, no_network=True, huge_tree=False, remove_comments=True,
        recover=recover,
    )
    try:
        root = etree.fromstring(content, parser)
    except etree.XMLSyntaxError as exc:
        raise ExtractError("corrupt", f"damaged {what}: {name}: {exc}") from exc
    if root is None:
        raise ExtractError("corrupt", f"damaged {what}: {name}: nothing readable")
    return root


# --- wrapped lines ---------------------------------------------------------------------------

_CJK_RE = re.compile(
    "[\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0003134f]"
)
_HYPHENS = "-\u2010"
# A hyphen that ended a line before a lower-case letter: broken word ("docu-ment") or a real
# hyphen that fell at the line end ("iptables-restore")? Decided once the whole document is
# known (resolve_line_hyphens). U+FDD0 is a Unicode noncharacter, reserved for such internal use.
LINE_HYPHEN = "\ufdd0"
# U+2010 HYPHEN ending a line is a formatter's (groff, ``man``: a typist's hyphen is U+002D), and
# most often a word it broke: mended unless the document writes the word with a hyphen elsewhere.
FORMATTER_HYPHEN = "\ufdd1"
_LINE_HYPHEN_RE = re.compile(rf"(\w+)([{LINE_HYPHEN}{FORMATTER_HYPHEN}])(\w+)")
_PIECES_RE = re.compile(rf"\w*[{LINE_HYPHEN}{FORMATTER_HYPHEN}]\w*")
_WORD_RE = re.compile(r"\w+")


def join_wrapped(lines: list[str]) -> str:
    """Join the wrapped lines of one paragraph.

    No space where both sides of the break are CJK (Chinese text has no spaces between
    words); a soft hyphen at a line end is removed; a hyphen at a line end followed by a
    lower-case letter is marked ``LINE_HYPHEN`` for :func:`resolve_line_hyphens` (U+2010 HYPHEN,
    a formatter's, before any letter: ``FORMATTER_HYPHEN``, ``ENVIRON‐`` ⏎ ``MENT``); otherwise one
    space.
    """
    out = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if not out:
            out = line
            continue
        last, first = out[-1], line[0]
        formatter = last == "\u2010"
        if last in _HYPHENS and len(out) >= 2 and out[-2].isalpha() and (first.islower() or (formatter and first.isalpha())):
            out = out[:-1] + (FORMATTER_HYPHEN if formatter else LINE_HYPHEN) + line
        elif last == "\u00ad":
            out = out[:-1] + line
        elif _CJK_RE.match(last) and _CJK_RE.match(first):
            out += line
        else:
            out += " " + line
    return out


def _words_among(text: str, wanted: set[str]) -> set[str]:
    """Those of ``wanted`` that are words of ``text`` lower-cased (``w.lower()`` for a match ``w``
    of ``_WORD_RE``).

    When lower-casing maps each character of the text to one character on its own (no Σ, whose
    small form depends on its neighbours, and no character that grows, as İ does), the words of
    the lower-cased text are the lower-cased words: each wanted word is looked for in it, as a
    whole run of word characters, instead of listing every word of the document.
    """
    lowered = text.lower()
    if "\u03a3" in text or len(lowered) != len(text):
        return wanted & set(map(str.lower, set(_WORD_RE.findall(text))))
    found = set()
    for word in wanted:
        if not _WORD_RE.fullmatch(word):
            continue  # (a word holds word characters only)
        # (the literal first, the character before it checked after: a pattern that starts
        # with a look-behind is tried at every position)
        for m in re.finditer(re.escape(word) + r"(?!\w)", lowered):
            if m.start() == 0 or not _WORD_RE.match(lowered, m.start() - 1, m.start()):
                found.add(word)
                break
    return found


def resolve_line_hyphens(paragraphs: list[str]) -> list[str]:
    """Settle each hyphen marked by :func:`join_wrapped` from the document's own words.

    "docu-⏎ment" becomes "document" when the document writes "document" elsewhere; otherwise the
    hyphen stays ("iptables-restore"). A formatter's hyphen (U+2010, ``FORMATTER_HYPHEN``) is
    mended unless the document writes the hyphenated word elsewhere ("bal‐⏎ance": "balance").
    Word processors (Word, WPS, LibreOffice) do not hyphenate
    by default, so a hyphen at a line end is most often a real one: removing it would glue two
    units into one and break a copied run at that point. A broken common word is found elsewhere
    in the document.
    """
    # (no word or marked piece crosses a paragraph's end: only the marked paragraphs are searched
    # for marks, as a regex of word runs is tried at every character of what it is given)
    def has_mark(p: str) -> bool:
        return LINE_HYPHEN in p or FORMATTER_HYPHEN in p

    marked = [p for p in paragraphs if has_mark(p)]
    if not marked:
        return paragraphs
    # the document's words outside the marked pieces, of which only the settled words (a few a
    # document) are ever asked for
    rest = "\n".join([_PIECES_RE.sub(" ", p) if has_mark(p) else p for p in paragraphs])
    words = _words_among(rest, {(m.group(1) + m.group(3)).lower() for p in marked for m in _LINE_HYPHEN_RE.finditer(p)
                                if m.group(2) == LINE_HYPHEN})
    lowered = rest.lower() if FORMATTER_HYPHEN in "".join(marked) else ""

    def settle(m: re.Match) -> str:
        head, mark, tail = m.group(1), m.group(2), m.group(3)
        if mark == FORMATTER_HYPHEN:  # mended unless written with its hyphen elsewhere
            compound = f"{head}-{tail}".lower()
            kept = compound in lowered or compound.replace("-", "\u2010") in lowered
            return f"{head}-{tail}" if kept else head + tail
        return head + tail if (head + tail).lower() in words else f"{head}-{tail}"

    return [_LINE_HYPHEN_RE.sub(settle, p).replace(LINE_HYPHEN, "-").replace(FORMATTER_HYPHEN, "-")
            if has_mark(p) else p for p in paragraphs]
