"""RTF (.rtf): a small RTF reader for the text of the body.

Handles groups, ``\\uN`` Unicode escapes with their ``\\ucN`` fallbacks, ``\\'hh`` bytes in the
document's ``\\ansicpgN`` code page, ``\\bin``, and skips destinations that are not body text
(font and colour tables, style sheets, pictures, ``{\\*...}`` groups, headers, footnotes).

An RTF file has no checksum: a damaged one is still read, and what gives the damage away is
counted and left out, with a warning (:class:`Damage`): bytes an RTF file never holds (control
characters; 8-bit bytes in a file whose writer escapes every non-ASCII character), a ``\\uN``
outside Unicode, entries of the font, colour, style or list tables found outside their tables
(a destination whose opening was damaged, a stretch of the tables duplicated into the body), and
groups left open (the file cut short) or closed once too often. Found by fuzzing LibreOffice's
RTF: before, a damaged file gave ``;;;;`` and Latin-1 noise in its text, in silence.
"""

from __future__ import annotations

import codecs
import logging
import re
from dataclasses import dataclass

from neardup_gui.core.extract.common import ExtractError, Extracted

log = logging.getLogger(__name__)

_TOKEN_RE = re.compile(
    r"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?"  # control word with optional parameter
    r"|\\'([0-9a-fA-F]{2})"  # a byte in the code page
    r"|\\([^a-zA-Z'])"  # control symbol
    r"|([{}])"
    r"|[\r\n]+"
    r"|([^\\{}\r\n]+)"
)
_SKIP_DESTINATIONS = frozenset(
    """fonttbl colortbl stylesheet info pict object themedata datastore listtable
    listoverridetable rsidtbl generator xmlnstbl latentstyles fldinst header headerl headerr
    headerf footer footerl footerr footerf footnote private revtbl bkmkstart bkmkend pgdsctbl
    mmathPr wgrffmtfilter filetbl annotation atnid atnauthor comment operator shppict
    nonshppict objdata panose falt fontemb fontfile protusertbl colorschememapping defchp
    defpap listtext pntext pntxta pntxtb sp sn sv txe xe tc userprops docvar
    leveltext levelnumbers listname""".split()
)
# Control words that only the font, colour, style and list tables hold (and the document
# information): met outside a skipped destination, they are a table's entries whose opening was
# damaged, or a stretch of the tables copied into the body — not text.
_TABLE_WORDS = frozenset(
    """fnil froman fswiss fmodern fscript fdecor ftech fbidi fcharset fprq
    red green blue ctint cshade
    sbasedon snext slink sautoupd shidden ssemihidden sqformat spriority sunhideused slocked
    spersonal scompose sreply styrsid
    listlevel levelnfc levelnfcn leveljc leveljcn levelfollow levelstartat levelspace
    levelindent levellegal levelnorestart levelold levelprev levelprevspace listid
    listtemplateid listhybrid listsimple listrestarthdn listoverride listoverridecount lfolevel
    listoverridestartat listoverrideformat
    creatim revtim printim buptim nofpages nofwords nofchars nofcharsws edmins vern""".split()
)
_BREAKS = {"par": "\n", "sect": "\n", "page": "\n", "cell": "\n", "row": "\n", "line": " ", "tab": "\t"}
_SYMBOLS = {
    "emdash": "\u2014", "endash": "\u2013", "bullet": "\u2022", "lquote": "\u2018",
    "rquote": "\u2019", "ldblquote": "\u201c", "rdblquote": "\u201d", "emspace": " ",
    "enspace": " ", "qmspace": " ",
}
# (a backslash before a line end is a paragraph mark, as \par)
_CONTROL_SYMBOLS = {"~": "\u00a0", "_": "-", "-": "", "\\": "\\", "{": "{", "}": "}", "\n": "\n", "\r": "\n"}
# Bytes an RTF file never holds in its text: control characters (tab and line ends aside)
_CONTROL_BYTES_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]+")
_EIGHT_BIT_RE = re.compile("([\x80-\xff]+)")
_TRAILING_RE = re.compile(r"[\x00\s]*\Z")  # (what may follow the document's last brace; fails fast)
# A writer that escapes one non-ASCII character (\'hh, \uN) escapes them all
_ESCAPED_RE = re.compile(r"\\'[0-9a-fA-F]{2}|\\u-?\d")


@dataclass
class Damage:
    """What gave a damaged RTF away, counted while it was read."""

    open_groups: int = 0  # groups still open at the end: the file is cut short
    extra_closings: int = 0  # a closing brace with no group open
    characters: int = 0  # bytes an RTF never holds, \uN outside Unicode: left out
    table_entries: int = 0  # table entries outside their tables: left out

    def details(self) -> list[str]:
        said = []
        if self.open_groups:
            said.append(f"its end is lost ({self.open_groups} group{'s' if self.open_groups != 1 else ''} left open)")
        if self.extra_closings:
            said.append(f"{self.extra_closings} closing brace{'s' if self.extra_closings != 1 else ''} too many")
        if self.characters:
            said.append(f"{self.characters} damaged character{'s' if self.characters != 1 else ''} left out")
        if self.table_entries:
            said.append(f"{self.table_entries} entr{'ies' if self.table_entries != 1 else 'y'} of its font, colour, "
                        "style or list tables found outside them and left out")
        return said

    def warning(self) -> str | None:
        details = self.details()
        if not details:
            return None
        return f"recovered from a damaged file: {'; '.join(details)}; the text that survives was read"


def _codec(number: int) -> str:
    name = f"cp{number}"
    try:
        codecs.lookup(name)
    except LookupError:
        return "cp1252"
    return name


def rtf_to_text(raw: str, damage: Damage | None = None) -> tuple[str, str]:
    """The body text of an RTF string (one char per byte) and the code page it used.
    ``damage``: counts what gave damage away (see the module's notes)."""
    damage = damage if damage is not None else Damage()
    out: list[str] = []
    pending = bytearray()  # \'hh bytes waiting to be decoded together (multi-byte code pages)
    codepage = "cp1252"
    # per open group: (skip, uc, where its output starts)
    stack: list[tuple[bool, int, int]] = []
    skip, uc = False, 1
    fallback = 0  # characters still to drop after a \uN
    first_in_group = False
    until_semicolon = False  # a table's entry outside any group: the next text, up to its ';', is left out
    escaped = _ESCAPED_RE.search(raw) is not None
    pos, end = 0, len(raw)

    def flush() -> None:
        if pending:
            if not skip:
                out.append(bytes(pending).decode(codepage, errors="replace"))
            pending.clear()

    def emit(text: str) -> None:
        """Text of the body, what an RTF never holds left out (or, from a writer that does not
        escape, 8-bit bytes decoded in the code page)."""
        nonlocal until_semicolon
        if until_semicolon:  # (a colour's ';', a font's name and ';'; text without one is kept)
            text, until_semicolon = text[text.find(";") + 1:], False
        if not text.isascii() or _CONTROL_BYTES_RE.search(text):
            found = sum(map(len, _CONTROL_BYTES_RE.findall(text)))
            text = _CONTROL_BYTES_RE.sub("", text)
            if escaped:
                found += sum(map(len, _EIGHT_BIT_RE.findall(text)))
                text = _EIGHT_BIT_RE.sub("", text)
            else:
                for i, piece in enumerate(_EIGHT_BIT_RE.split(text)):
                    if i % 2:
                        pending.extend(piece.encode("latin-1"))
                    elif piece:
                        flush()
                        out.append(piece)
                text = ""
            damage.characters += found
        if text:
            flush()
            out.append(text)

    while pos < end:
        match = _TOKEN_RE.match(raw, pos)
        if match is None:  # a lone backslash at the very end
            break
        pos = match.end()
        word, param, hexbyte, symbol, brace, text = match.groups()
        if hexbyte is not None:
            if fallback:
                fallback -= 1
                continue
            pending.append(int(hexbyte, 16))
            continue
        if text is not None:
            if fallback:
                dropped = min(fallback, len(text))
                if escaped and not skip and not text[:dropped].isascii():  # (a writer that escapes
                    damage.characters += 1  # writes its fallbacks as \'hh too: this one is damaged)
                text = text[dropped:]
                fallback -= dropped
            if not skip and text:
                emit(text)
            continue
        flush()
        if brace is not None:
            until_semicolon = False
        if brace == "{":
            stack.append((skip, uc, len(out)))
            first_in_group = True
            continue
        if brace == "}":
            if stack:
                skip, uc, _ = stack.pop()
            elif not _TRAILING_RE.match(raw, pos):
                damage.extra_closings += 1  # (one past the document's end, with nothing after it, is harmless)
            fallback = 0
            first_in_group = False
            continue
        was_first, first_in_group = first_in_group, False
        if word is not None:
            if word == "bin" and param:
                pos += max(0, int(param))
                continue
            if fallback:
                fallback -= 1
                continue
            if was_first and word in _SKIP_DESTINATIONS:
                skip = True
            elif word in _TABLE_WORDS:
                if not skip:
                    damage.table_entries += not until_semicolon  # (an entry, not each of its words)
                    if len(stack) >= 2:  # the entry's own group: what it wrote so far and the rest
                        del out[stack[-1][2]:]
                        skip = True
                    else:  # an entry outside any group (a colour): up to its ';'
                        until_semicolon = True
            elif word == "ansicpg" and param:
                codepage = _codec(int(param))
            elif word == "uc" and param is not None:
                uc = max(0, int(param))
            elif word == "u" and param is not None:
                value = int(param)
                if value < 0:
                    value += 65536
                if not skip:
                    if 0 <= value <= 0xFFFF:
                        out.append(chr(value))
                    else:  # (\uN is a signed 16-bit number)
                        damage.characters += 1
                fallback = uc
            elif not skip:
                if word in _BREAKS:
                    out.append(_BREAKS[word])
                elif word in _SYMBOLS:
                    out.append(_SYMBOLS[word])
            continue
        if symbol is not None:
            if symbol == "*" and was_first:
                skip = True
            elif fallback:
                fallback -= 1
            elif not skip:
                if symbol in _CONTROL_SYMBOLS:
                    out.append(_CONTROL_SYMBOLS[symbol])
                elif not symbol.isascii() or _CONTROL_BYTES_RE.match(symbol):
                    damage.characters += 1
            continue
    flush()
    damage.open_groups = len(stack)
    result = "".join(out)
    # Characters beyond the BMP arrive as two \uN surrogates.
    result = result.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return result, codepage


def extract(data: bytes) -> Extracted:
    """Extract an RTF document's body paragraphs; meta['encoding'] is its ANSI code page. A
    damaged document is read with a warning saying what gave the damage away (:class:`Damage`)."""
    raw = data.decode("latin-1")
    if not raw.lstrip().startswith("{\\rtf"):
        raise ExtractError("corrupt", "damaged RTF document: no {\\rtf header")
    damage = Damage()
    text, codepage = rtf_to_text(raw, damage)
    warning = damage.warning()
    return Extracted(paragraphs=text.split("\n"), meta={"encoding": codepage}, warnings=[warning] if warning else [])
