"""Plain text (.txt, .md): detect the encoding, decode, split into paragraphs."""

from __future__ import annotations

import codecs
import logging
import re
import unicodedata
from contextvars import ContextVar
from dataclasses import dataclass

from charset_normalizer import from_bytes

from neardup_gui.core.extract.common import FORMATTER_HYPHEN, ExtractError, Extracted, join_wrapped, resolve_line_hyphens
from neardup_gui.core.extract.roff import is_roff, roff_paragraphs

log = logging.getLogger(__name__)

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)

# Chinese detectors often name a subset of what the file uses; decode with the superset so a
# rare character does not fail the whole file.
_SUPERSETS = {"gb2312": "gb18030", "gbk": "gb18030", "big5": "big5hkscs", "shift_jis": "cp932", "euc_kr": "cp949"}

# Tie-break order for equally plausible guesses (see ``_choose``).
_PREFERRED = {name: rank for rank, name in enumerate(
    ["utf_8", "gb18030", "cp1252", "big5", "cp932", "euc_jp", "cp949", "cp1250", "latin_1"]
)}

_BLANK_LINES_RE = re.compile(r"\n[ \t\u3000]*\n")
_SENTENCE_ENDS = set("。！？；.!?;:：”’\"")
_LIST_ITEM_RE = re.compile(r"^\s*(?:[-*+•·]|\d{1,3}[.)、]|[a-zA-Z][.)]|[（(]?[一二三四五六七八九十\d]+[)）、])\s")


# How much damage a text may carry and still be read in an encoding: invalid bytes (replaced by
# U+FFFD) at most this share of the file's bytes, or ``MIN_INVALID_ALLOWED`` bytes in a short
# file. Measured by benchmarks/measure_decoding.py (table in docs/extraction.md): real
# UTF-8 text is still found and read right with 10 % of its bytes damaged, GB18030 up to 2 %
# damaged (0.6 % invalid: its decoder resynchronises at once), Big5 up to 5 %; no real binary
# file (programs, images, archives, an SQLite database, compressed data) comes within 4 % of
# fitting UTF-8, GB18030 or Big5. 3 % sits between the two.
MAX_INVALID_SHARE = 0.03
MIN_INVALID_ALLOWED = 4

# Encodings tried leniently when nothing fits strictly (UTF-16 is tried by its NUL bytes).
_LENIENT_CANDIDATES = ("utf-8", "gb18030", "big5hkscs")
# Lenient UTF-8 comes before the detector only with evidence: at least as many valid
# multi-byte characters as invalid bytes (Latin text in a legacy code page read as UTF-8 has
# next to no valid ones: "café" in cp1252 has none; Chinese in GBK is far over the allowance).
_UTF8_EVIDENCE = 1
# ... or invalid bytes so rare (at most one per this many bytes) that they are strays in UTF-8
# text, not the letters of a legacy code page: a page of English in cp1252 that uses one
# accented letter is read as UTF-8 with that letter replaced and a warning saying where.
_STRAY_SPACING = 2000
_SHOWN_OFFSETS = 5
_CHUNK_CHAOS = 0.5
_MEAN_CHAOS = 0.2

_invalid_spans: ContextVar[list[tuple[int, int]] | None] = ContextVar("neardup_invalid_spans", default=None)
_ERRORS = "neardup-record-invalid"


class _TooDamaged(Exception):
    """More invalid bytes than allowed: stop decoding in this encoding."""


def _record_invalid(exc: UnicodeDecodeError) -> tuple[str, int]:
    """Error handler: note the invalid byte range, replace it by one U+FFFD."""
    spans = _invalid_spans.get()
    if spans is None:
        raise exc
    spans.append((exc.start, exc.end))
    return "\ufffd", exc.end


codecs.register_error(_ERRORS, _record_invalid)


@dataclass(frozen=True)
class Decoded:
    """A decoded text; ``invalid`` are the byte ranges replaced by U+FFFD (empty when clean)."""

    text: str
    encoding: str
    invalid: tuple[tuple[int, int], ...] = ()

    @property
    def invalid_bytes(self) -> int:
        return sum(end - start for start, end in self.invalid)

    def warning(self, size: int) -> str:
        """What an examiner is told about the replaced bytes ("" when there were none)."""
        if not self.invalid:
            return ""
        n = self.invalid_bytes
        offsets = ", ".join(str(start) for start, _ in self.invalid[:_SHOWN_OFFSETS])
        more = len(self.invalid) - _SHOWN_OFFSETS
        where = f"at byte {offsets}" if len(self.invalid) == 1 else f"at bytes {offsets}"
        if more > 0:
            where += f" and {more} more place{'s' if more > 1 else ''}"
        return (f"{n} of {size} bytes are not valid {_display_name(self.encoding)} and were replaced "
                f"by \ufffd ({where}); the rest was read normally")


def _display_name(encoding: str) -> str:
    name = codecs.lookup(encoding).name
    return {"utf-8": "UTF-8", "utf-8-sig": "UTF-8", "gb18030": "GB18030", "big5hkscs": "Big5",
            "utf-16": "UTF-16", "utf-16-le": "UTF-16", "utf-16-be": "UTF-16", "utf-32": "UTF-32"}.get(name, name)


def allowed_invalid(size: int) -> int:
    """The most invalid bytes a text of ``size`` bytes may carry and still be read."""
    return max(MIN_INVALID_ALLOWED, int(size * MAX_INVALID_SHARE))


def decode_leniently(data: bytes, encoding: str, limit: int | None = None) -> Decoded | None:
    """Decode with invalid sequences replaced by U+FFFD; None when more than ``limit`` bytes
    (default: :func:`allowed_invalid`) are invalid."""
    limit = allowed_invalid(len(data)) if limit is None else limit
    spans: list[tuple[int, int]] = []
    token = _invalid_spans.set(spans)
    try:
        text = data.decode(encoding, errors=_ERRORS)
    except (UnicodeDecodeError, LookupError):
        return None
    finally:
        _invalid_spans.reset(token)
    decoded = Decoded(text, encoding, tuple(spans))
    return decoded if decoded.invalid_bytes <= limit else None


def decode(data: bytes) -> Decoded:
    """Decode text bytes: the text, the encoding used and the byte ranges that were invalid.

    Order: a byte-order mark, UTF-16 without BOM, strict UTF-8, UTF-8 with a few invalid bytes
    among many valid multi-byte characters, the detector (charset-normalizer) on strict
    decodings, then UTF-8, GB18030 and Big5 with a few invalid bytes, judged by the detector
    on what remains. A text with more invalid bytes than :func:`allowed_invalid` in every
    encoding raises ExtractError("binary"); one with a BOM, ExtractError("corrupt").
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            decoded = decode_leniently(data, name)
            if decoded is None:
                raise ExtractError("corrupt", f"damaged {_display_name(name)} text: too many invalid bytes")
            return decoded
    if data.count(0) > len(data) // 8:
        # (before UTF-8: English in UTF-16 is valid UTF-8, NULs and all)
        # UTF-16 without a BOM: NULs sit on one byte parity (the high bytes of ASCII). UTF-16
        # accepts nearly any pair of bytes, so NULs on both parities (a program, a database)
        # are binary data however few invalid pairs it has.
        even, odd = data[0::2].count(0), data[1::2].count(0)
        half = len(data) / 2
        if not ((odd > 0.3 * half and even < 0.02 * half) or (even > 0.3 * half and odd < 0.02 * half)):
            raise ExtractError("binary", "binary data, not text")
        name = "utf-16-le" if odd > even else "utf-16-be"
        decoded = decode_leniently(data, name)
        if decoded is None:
            raise ExtractError("binary", "binary data, not text")
        return decoded
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    utf8 = decode_leniently(data, "utf-8")
    if utf8 is not None and (_multibyte(utf8) >= _UTF8_EVIDENCE * max(utf8.invalid_bytes, 1)
                             or utf8.invalid_bytes * _STRAY_SPACING <= len(data)):
        return utf8
    cut = _cut_in_a_character(data)
    if cut is not None:
        return cut
    best = _choose(from_bytes(data))
    if best is not None:
        name = best.encoding
        target = _SUPERSETS.get(name, name)
        try:
            return Decoded(data.decode(target), target)
        except (UnicodeDecodeError, LookupError):
            return Decoded(str(best), name)
    decoded = _lenient_guess(data)
    if decoded is None:
        raise ExtractError("binary", "binary data, not text (no text encoding fits)")
    return decoded


# Code pages of two or more bytes a character, where a cut can split the last character
_MULTIBYTE_CODECS = ("gb18030", "big5hkscs", "cp932", "cp949")
_MULTIBYTE_NAMES = frozenset("gb18030 gbk gb2312 big5 big5hkscs cp950 cp936 shift_jis cp932 euc_jp "
                             "euc_jis_2004 euc_jisx0213 euc_kr cp949 johab".split())


def _cut_in_a_character(data: bytes) -> Decoded | None:
    """A text in a multi-byte code page whose last character was cut (a broken download, ``head
    -c``): the bytes before it read in that code page, the cut bytes replaced and said. None when
    the text is not one.

    Only a text that neither GB18030 nor Big5 reads whole, but a multi-byte code page reads
    without its last one to three bytes; the detector judges those bytes. (Before, a short
    GB18030 text cut so went to the detector whole, which no longer offered GB18030 and read the
    Chinese as Thai, cp874, in silence — found by fuzzing real text in legacy code pages.)"""
    if not data or data[-1] < 0x80:
        return None
    if _decodes(data, "gb18030") or _decodes(data, "big5hkscs"):
        return None  # read whole: the detector decides as usual (cp932 and cp949 read nearly
        # any short run of high bytes whole: katakana, hangul; the detector judges them below)
    for k in (1, 2, 3):
        head = data[:-k]
        if not head or not any(_decodes(head, codec) for codec in _MULTIBYTE_CODECS):
            continue
        best = _choose(from_bytes(head))
        if best is None or best.encoding not in _MULTIBYTE_NAMES:
            return None
        name = _SUPERSETS.get(best.encoding, best.encoding)
        if _decodes(head, name):
            return decode_leniently(data, name)
        return None
    return None


def _decodes(data: bytes, codec: str) -> bool:
    try:
        data.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return False
    return True


def _multibyte(decoded: Decoded) -> int:
    """Valid non-ASCII characters of a decoded text."""
    return sum(1 for c in decoded.text if c > "\x7f") - len(decoded.invalid)


def _lenient_guess(data: bytes) -> Decoded | None:
    """The candidate encoding that fits all but a few bytes and reads as text.

    GB18030 accepts nearly any pair of high bytes, so Big5 text also "fits" it with few errors;
    the detector decides between the fits on the bytes left once the invalid ones are removed.
    """
    fits: list[tuple[float, float, int, Decoded]] = []
    for rank, name in enumerate(_LENIENT_CANDIDATES):
        decoded = decode_leniently(data, name)
        if decoded is None or not decoded.invalid:
            continue  # (a clean decoding was judged by the detector already)
        kept = bytearray()
        pos = 0
        for start, end in decoded.invalid:
            kept += data[pos:start]
            pos = end
        kept += data[pos:]
        # The detector gives up on an encoding at the first chunk past its chaos threshold; a
        # byte pair lost mid-character garbles a line (until the decoder finds its step again),
        # so the chunks are allowed more and the mean is held to the usual bound.
        match = from_bytes(bytes(kept), cp_isolation=[name], threshold=_CHUNK_CHAOS).best()
        if match is None or match.chaos > _MEAN_CHAOS:
            continue
        fits.append((match.chaos, -match.coherence, rank, decoded))
    if not fits:
        return None
    return min(fits, key=lambda f: f[:3])[3]


def _choose(matches):
    """The detector's guess, with ties broken towards the encodings our users' files are in.

    Short texts fit many code pages equally well (``naïve`` is valid cp1250, cp1252, cp775…);
    among the guesses as plausible as the best, the most common encoding for Chinese and
    Western text wins.
    """
    best = matches.best()
    if best is None:
        return None
    tied = [
        m for m in matches
        if m.chaos <= best.chaos + 0.01 and m.coherence >= best.coherence - 0.05
    ]
    return min(tied, key=lambda m: (_PREFERRED.get(m.encoding, len(_PREFERRED)), -m.coherence))


def split_paragraphs(text: str) -> list[str]:
    """Paragraphs of plain text.

    A line is a paragraph (most Chinese text, code, lists), except inside a block between
    blank lines whose lines are hard-wrapped at a fixed width: those lines are joined into one
    paragraph (see ``join_wrapped``).
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    out: list[str] = []
    widths = _CharWidths()
    for block in _BLANK_LINES_RE.split(text):
        lines = list(filter(str.strip, block.split("\n")))
        narrow = block.isascii() or not _MAYBE_WIDE_RE.search(block)
        # (widths measured with tabs expanded to every 8th column, as a terminal shows them:
        # ``col -b`` writes runs of spaces as tabs)
        measured = lines if "\t" not in block else [_expand_tabs(line, widths, narrow) for line in lines]
        if len(lines) > 1 and _hard_wrapped(measured, widths, narrow):
            out.append(join_wrapped(lines))
        elif "\u2010" in block:
            out.extend(_formatter_hyphens_joined(lines))
        else:
            out.extend(lines)
    return resolve_line_hyphens(out)


def _formatter_hyphens_joined(lines: list[str]) -> list[str]:
    """Lines of a block that is not one wrapped paragraph (a list, hanging indents, a man page's
    synopsis), with a word a formatter broke at a line end put together again: a letter and
    U+2010 HYPHEN ending a line, a letter starting the next (groff and ``man`` break words so,
    ``ENVIRON‐`` ⏎ ``MENT`` too; a typist's hyphen is U+002D). ``resolve_line_hyphens`` mends
    the word unless the document writes it with its hyphen elsewhere: ``--organiza‐`` ⏎
    ``tion=ORG`` is one word."""
    out: list[str] = []
    for line in lines:
        if out and out[-1].endswith("\u2010") and len(out[-1]) >= 2 and out[-1][-2].isalpha():
            first = line.lstrip()
            if first[:1].isalpha():
                out[-1] = out[-1][:-1] + FORMATTER_HYPHEN + first
                continue
        out.append(line)
    return out


class _CharWidths(dict):
    """Display width (1, or 2 for East Asian wide and full-width characters) of each character
    from U+1100 on met so far, learnt on first use: widths are summed in a C loop."""

    def __missing__(self, c: str) -> int:
        width = self[c] = 2 if unicodedata.east_asian_width(c) in "WF" else 1
        return width


_MAYBE_WIDE_RE = re.compile("[^\x00-\u10ff]")  # (every character before U+1100 is one column)


def _expand_tabs(line: str, widths: _CharWidths, narrow: bool) -> str:
    """``line`` with each tab replaced by the spaces up to the next multiple of 8 columns, wide
    characters counting two (``narrow``: the caller knows that every character is one column)."""
    if "\t" not in line or narrow or not _MAYBE_WIDE_RE.search(line):
        return line.expandtabs()
    out: list[str] = []
    column = 0
    for c in line:
        if c == "\t":
            out.append(" " * (8 - column % 8))
            column += 8 - column % 8
        else:
            out.append(c)
            column += widths[c] if c >= "\u1100" else 1
    return "".join(out)


def _display_width(line: str, widths: _CharWidths) -> int:
    """Columns ``line`` (trailing white space dropped) takes in a fixed-width font."""
    line = line.rstrip()
    high = _MAYBE_WIDE_RE.findall(line)
    return len(line) + sum(map(widths.__getitem__, high)) - len(high)


def _hard_wrapped(lines: list[str], widths: _CharWidths, narrow: bool = False) -> bool:
    """True when all lines but the last fill most of the block's width and none is a list item
    (``narrow``: the caller knows that every character of the lines is one column wide)."""
    # (the cheap tests first: most blocks are not wrapped)
    if narrow or not any(map(_MAYBE_WIDE_RE.search, lines)):  # (every character one column)
        columns = list(map(len, map(str.rstrip, lines)))
    else:
        columns = [_display_width(line, widths) for line in lines]
    widest = max(columns)
    if widest < 40:
        return False  # short lines: a poem, an address, a listing
    if min(columns[:-1]) < 0.7 * widest:
        return False
    if any(map(_LIST_ITEM_RE.match, lines[1:])):
        return False
    # One sentence or paragraph per line (as Chinese text often is) is not wrapping.
    ends = sum(1 for line in lines[:-1] if line.rstrip()[-1:] in _SENTENCE_ENDS)
    return ends * 2 < len(lines) - 1


# Terminal formatting saved in a text file: a man page rendered by ``nroff``, ``groff -Tutf8`` or
# ``MAN_KEEP_FORMATTING=1 man``, a program's coloured output. Overstrikes print a character
# twice (bold: ``N\bN``) or over an underscore (underline: ``_\bN``, wide characters too);
# escape sequences are colours and styles (``ESC[1m``: CSI), hyperlinks (``ESC]8;;URL ESC\``:
# OSC) and the two-character ones (``ESC(B``). Left in, a formatted copy of a page would not
# match the plain page (``[1mNAME`` is not ``NAME``: similarity 0.30 for one man page), and
# overstrikes made the file look like binary data.
# (an OSC ends at BEL or ESC \ on its line: one left open removes its ESC ] only, not the text after it)
_ESCAPE_RE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b\n]*(?:\x07|\x1b\\)|[ -/]*[0-~])")
_OVERSTRIKE_RE = re.compile(r"[^\x08\n]\x08([^\x08\n])")


def undo_terminal_formatting(text: str) -> str:
    """``text`` without its terminal formatting: escape sequences removed, and at each position
    only the last character written there, as ``col -b`` shows it (the text of a man page
    rendered with ``col -b`` and of the same page with its overstrikes are then the same; a
    backspace that overstrikes nothing is dropped). A text with neither is returned as it is
    (two ``in`` tests)."""
    if "\x1b" in text:
        text = _ESCAPE_RE.sub("", text)
    if "\x08" in text:
        before = None
        while "\x08" in text and text != before:  # (bold underline: _\bN\bN, two rounds)
            before, text = text, _OVERSTRIKE_RE.sub(r"\1", text)
        if "\x08" in text:  # several backspaces in a row: a line printed over itself
            text = "\n".join(_overprinted(line) if "\x08" in line else line for line in text.split("\n"))
    return text


def _overprinted(line: str) -> str:
    """A line with backspaces as ``col -b`` shows it: each backspace moves back one character,
    what follows is written over what was there. groff moves back so over plain text where a
    man page's header is longer than the line."""
    cells: list[str] = []
    at = 0
    for c in line:
        if c == "\x08":
            at = max(at - 1, 0)
            continue
        if at == len(cells):
            cells.append(c)
        else:
            cells[at] = c
        at += 1
    return "".join(cells)


def extract(data: bytes) -> Extracted:
    """Extract a text file's paragraphs; meta['encoding'] is the encoding used, and a warning
    says how many bytes were invalid and where. Terminal formatting (overstrikes, escape
    sequences) is removed: :func:`undo_terminal_formatting`."""
    decoded = decode(data)
    if "\x00" in decoded.text:
        raise ExtractError("binary", "binary data, not text")
    warning = decoded.warning(len(data))
    if is_roff(decoded.text):  # a manual page's source: the text `man` shows (extract/roff.py)
        return Extracted(paragraphs=roff_paragraphs(decoded.text), meta={"encoding": decoded.encoding, "markup": "roff"},
                         warnings=[warning] if warning else [])
    return Extracted(paragraphs=split_paragraphs(undo_terminal_formatting(decoded.text)),
                     meta={"encoding": decoded.encoding}, warnings=[warning] if warning else [])
