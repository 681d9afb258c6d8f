"""The text layer of a PDF written by Qt: its ToUnicode maps corrected to the characters drawn.

A PDF viewer reads a font's text back through the font's ToUnicode map (glyph → character). Qt
builds that map by looking each glyph up in the font's own character map and keeping the lowest
code point that draws it. CJK fonts draw a Kangxi radical (U+2F00–U+2FD5) or a CJK radicals
supplement form (U+2E80–U+2EFF) with the same glyph as the ideograph it stands for, and those
code points are lower, so 文 was read back as ⽂ (U+2F42): the page looked right, yet searching it
for 文字复制比 found nothing and a copied passage gave other characters.

:func:`fix_to_unicode` rewrites the destination code points of every ToUnicode map of a PDF by a
mapping (radical → ideograph, found by the caller from the fonts, which only Qt can read here).
Qt writes these maps uncompressed with four hex digits per code point, so each replacement has
the length of what it replaces: no offset of the file moves and its cross-reference table stays
right. A map written another way (compressed, or longer code points) is left as it is and said
in the log, never half rewritten.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from typing import Mapping

log = logging.getLogger(__name__)

# The code points a reader must never get back from a report: CJK radicals supplement and Kangxi
# radicals (U+2E80–U+2FDF), which look like ideographs and are not the text.
RADICALS = range(0x2E80, 0x2FE0)

_TO_UNICODE_REF = re.compile(rb"/ToUnicode\s+(\d+)\s+0\s+R")
_TOKEN = re.compile(rb"<([0-9A-Fa-f]*)>|\[|\]")
_MAP_BLOCK = re.compile(rb"begin(bfrange|bfchar)(.*?)end\1", re.S)


def is_radical(ch: str) -> bool:
    return ord(ch) in RADICALS


def kangxi_equivalents() -> dict[int, int]:
    """Each Kangxi radical → the ideograph Unicode says it is (its compatibility decomposition);
    the radicals supplement has no such decomposition and is found from the fonts instead."""
    out = {}
    for cp in RADICALS:
        folded = unicodedata.normalize("NFKC", chr(cp))
        if folded != chr(cp) and len(folded) == 1 and ord(folded) <= 0xFFFF:
            out[cp] = ord(folded)
    return out


def _rewrite_cmap(stream: bytes, mapping: Mapping[int, int]) -> tuple[bytes, int]:
    """The CMap ``stream`` with its destination code points mapped; (new stream, replacements).

    Read as tokens: a ``bfchar`` entry is <code> <destination>; a ``bfrange`` entry is <first>
    <last> then one destination (counted up along the range: mapped only for a range of one
    code) or an array of destinations, one per code."""
    out = bytearray(stream)
    count = 0

    def replace(token: re.Match[bytes], offset: int) -> None:
        nonlocal count
        digits = token.group(1)
        if digits is None or len(digits) != 4:
            return
        cp = int(digits, 16)
        if cp in mapping:
            at = offset + token.start(1)
            out[at:at + 4] = f"{mapping[cp]:04X}".encode("ascii")
            count += 1

    for block in _MAP_BLOCK.finditer(stream):
        offset = block.start(2)
        tokens = list(_TOKEN.finditer(block.group(2)))
        i = 0
        if block.group(1) == b"bfchar":
            while i + 1 < len(tokens):
                replace(tokens[i + 1], offset)
                i += 2
            continue
        while i + 2 < len(tokens):
            first, last, dest = tokens[i:i + 3]
            if dest.group(0) == b"[":
                i += 3
                while i < len(tokens) and tokens[i].group(0) != b"]":
                    replace(tokens[i], offset)
                    i += 1
                i += 1
            else:
                if first.group(1) is not None and first.group(1).upper() == (last.group(1) or b"").upper():
                    replace(dest, offset)
                i += 3
    return bytes(out), count


def fix_to_unicode(data: bytes, mapping: Mapping[int, int]) -> tuple[bytes, int]:
    """``data`` (a whole PDF file) with the destinations of its ToUnicode maps rewritten by
    ``mapping`` (code point → code point, both in the Basic Multilingual Plane); returns (the
    file, how many code points were replaced). Lengths never change (see the module's note)."""
    out = bytearray(data)
    total = 0
    for number in sorted(set(_TO_UNICODE_REF.findall(data))):
        found = re.search(rb"(?:^|[\r\n])" + number + rb"\s+0\s+obj\s*<<(.*?)>>\s*stream\r?\n", data, re.S)
        if found is None:
            log.warning("ToUnicode object %s not found; its text layer is left as Qt wrote it", number.decode())
            continue
        if b"/Filter" in found.group(1):
            log.warning("ToUnicode object %s is compressed; its text layer is left as Qt wrote it", number.decode())
            continue
        start = found.end()
        end = data.find(b"endstream", start)
        if end < 0:
            continue
        stream = data[start:end]
        fixed, count = _rewrite_cmap(stream, mapping)
        if len(fixed) != len(stream):  # (cannot happen with four-digit codes; never write a broken file)
            log.warning("ToUnicode object %s would change length; left as Qt wrote it", number.decode())
            continue
        out[start:end] = fixed
        total += count
    return bytes(out), total
