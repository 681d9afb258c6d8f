"""RTF (.rtf): a small RTF reader for the text of the body.

Handles groups, ``\\uN`` Unicode escapes with their ``\\ucN`` fallbacks, ``\\'hh`` bytes in the
document's ``\\ansicpgN`` code page, ``\\bin``, and skips destinations that are not body text
(font and colour tables, style sheets, pictures, ``{\\*...}`` groups, headers, footnotes).
"""

from __future__ import annotations

import codecs
import logging
import re

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
    defpap listtext pntext pntxta pntxtb sp sn sv txe xe tc userprops docvar""".split()
)
_BREAKS = {"par": "\n", "sect": "\n", "page": "\n", "cell": "\n", "row": "\n", "line": " ", "tab": "\t"}
_SYMBOLS = {
    "emdash": "\u2014", "endash": "\u2013", "bullet": "\u2022", "lquote": "\u2018",
    "rquote": "\u2019", "ldblquote": "\u201c", "rdblquote": "\u201d", "emspace": " ",
    "enspace": " ", "qmspace": " ",
}
_CONTROL_SYMBOLS = {"~": "\u00a0", "_": "-", "-": "", "\\": "\\", "{": "{", "}": "}"}


def _codec(number: int) -> str:
    name = f"cp{number}"
    try:
        codecs.lookup(name)
    except LookupError:
        return "cp1252"
    return name


def rtf_to_text(raw: str) -> tuple[str, str]:
    """The body text of an RTF string (one char per byte) and the code page it used."""
    out: list[str] = []
    pending = bytearray()  # \'hh bytes waiting to be decoded together (multi-byte code pages)
    codepage = "cp1252"
    stack: list[tuple[bool, int]] = []
    skip, uc = False, 1
    fallback = 0  # characters still to drop after a \uN
    first_in_group = False
    pos, end = 0, len(raw)

    def flush() -> None:
        if pending:
            if not skip:
                out.append(bytes(pending).decode(codepage, errors="replace"))
            pending.clear()

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
        flush()
        if brace == "{":
            stack.append((skip, uc))
            first_in_group = True
            continue
        if brace == "}":
            if stack:
                skip, uc = stack.pop()
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
            elif word == "ansicpg" and param:
                codepage = _codec(int(param))
            elif word == "uc" and param is not None:
                uc = max(0, int(param))
            elif word == "u" and param is not None:
                value = int(param)
                if value < 0:
                    value += 65536
                if not skip:
                    out.append(chr(value))
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
            elif not skip and symbol in _CONTROL_SYMBOLS:
                out.append(_CONTROL_SYMBOLS[symbol])
            continue
        if text is not None:
            if fallback:
                dropped = min(fallback, len(text))
                text = text[dropped:]
                fallback -= dropped
            if not skip and text:
                out.append(text)
    flush()
    result = "".join(out)
    # Characters beyond the BMP arrive as two \uN surrogates.
    result = result.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return result, codepage


def extract(data: bytes) -> Extracted:
    """Extract an RTF document's body paragraphs; meta['encoding'] is its ANSI code page."""
    raw = data.decode("latin-1")
    if not raw.lstrip().startswith("{\\rtf"):
        raise ExtractError("corrupt", "damaged RTF document: no {\\rtf header")
    text, codepage = rtf_to_text(raw)
    return Extracted(paragraphs=text.split("\n"), meta={"encoding": codepage})
