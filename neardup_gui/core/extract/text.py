"""Plain text (.txt, .md): detect the encoding, decode, split into paragraphs."""

from __future__ import annotations

import codecs
import logging
import re
import unicodedata

from charset_normalizer import from_bytes

from neardup_gui.core.extract.common import ExtractError, Extracted, join_wrapped, resolve_line_hyphens

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


def decode(data: bytes) -> tuple[str, str]:
    """Decode text bytes; return the text and the name of the encoding used.

    Order: a byte-order mark, strict UTF-8, UTF-16 without BOM, then charset-normalizer.
    Raises ExtractError("binary") when nothing decodes it plausibly.
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(name), name
            except UnicodeDecodeError as exc:
                raise ExtractError("corrupt", f"damaged {name} text: {exc.reason}") from exc
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    if data.count(0) > len(data) // 8:
        # UTF-16 without a BOM: NULs sit on one byte parity.
        name = "utf-16-le" if data[1::2].count(0) > data[0::2].count(0) else "utf-16-be"
        try:
            return data[: len(data) // 2 * 2].decode(name), name
        except UnicodeDecodeError as exc:
            raise ExtractError("binary", "binary data, not text") from exc
    best = _choose(from_bytes(data))
    if best is None:
        raise ExtractError("binary", "binary data, not text (no text encoding fits)")
    name = best.encoding
    target = _SUPERSETS.get(name, name)
    try:
        return data.decode(target), target
    except (UnicodeDecodeError, LookupError):
        return str(best), name


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
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    out: list[str] = []
    for block in _BLANK_LINES_RE.split(text):
        lines = [line for line in block.split("\n") if line.strip()]
        if len(lines) > 1 and _hard_wrapped(lines):
            out.append(join_wrapped(lines))
        else:
            out.extend(lines)
    return resolve_line_hyphens(out)


def _display_width(line: str) -> int:
    return sum(2 if "\u1100" <= c and unicodedata.east_asian_width(c) in "WF" else 1 for c in line.rstrip())


def _hard_wrapped(lines: list[str]) -> bool:
    """True when all lines but the last fill most of the block's width and none is a list item."""
    if any(_LIST_ITEM_RE.match(line) for line in lines[1:]):
        return False
    widths = [_display_width(line) for line in lines]
    widest = max(widths)
    if widest < 40:
        return False  # short lines: a poem, an address, a listing
    if not all(w >= 0.7 * widest for w in widths[:-1]):
        return False
    # One sentence or paragraph per line (as Chinese text often is) is not wrapping.
    ends = sum(1 for line in lines[:-1] if line.rstrip()[-1:] in _SENTENCE_ENDS)
    return ends * 2 < len(lines) - 1


def extract(data: bytes) -> Extracted:
    """Extract a text file's paragraphs; meta['encoding'] is the encoding used."""
    text, encoding = decode(data)
    if "\x00" in text:
        raise ExtractError("binary", "binary data, not text")
    return Extracted(paragraphs=split_paragraphs(text), meta={"encoding": encoding})
