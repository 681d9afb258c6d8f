"""HTML pages (.html, .htm): visible text by block, without scripts and styles."""

from __future__ import annotations

import logging
import re
from html.parser import HTMLParser

from neardup_gui.core.extract.common import Extracted
from neardup_gui.core.extract.text import Decoded, decode, decode_leniently

log = logging.getLogger(__name__)

# Elements whose start or end begins a new paragraph.
_BLOCKS = frozenset(
    "address article aside blockquote body br caption dd div dl dt fieldset figcaption figure "
    "footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table tbody td tfoot "
    "th thead tr ul".split()
)
# Elements whose content is never visible text.
_HIDDEN = frozenset("script style template noscript svg math head object iframe".split())
_META_CHARSET_RE = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.I)
# Markup read as text, which only damage makes: the rest of a tag whose "<" was damaged or cut
# away (``font face="MS Mincho">``, ``e="margin-bottom: 0.14in">``: a quoted value closed by
# ">"; ``h1>``), and a style sheet's rules when the ``<style`` before them was damaged (a block holding
# both ":" and ";"). Found by fuzzing LibreOffice's HTML: these were read into the text in silence.
_LEAKED_TAG_RE = re.compile(
    r"""(?:(?:\b[A-Za-z][\w:-]*\s+)?(?:[A-Za-z_:][\w:.-]*\s*=\s*)?["'][^"'<>\n]*["']\s*/?>"""
    r"""|[^"'<>\s]*["']\s*/?>"""
    r"""|/?(?<![A-Za-z0-9_:-])[A-Za-z][A-Za-z0-9_:-]*/?>)\Z"""  # a bare tag name: ``Gtitle>``, ``h1>``
)
_TAG_REACH = 200  # (a tag's rest is looked for this far before each '>': the search stays linear)
_TAG_ENDS = frozenset("\"'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:-")
_BRACES_RE = re.compile(r"\{[^{}]*\}")  # (linear: each block runs to the next brace)
# A writer escapes '>' and '"' in text (&gt; &quot;): they are marked before parsing (two
# noncharacters) and restored in the text, so that only the ones written as such — a tag read as
# text — meet _LEAKED_TAG_RE.
_ESCAPED_GT_RE = re.compile(r"&(?:gt|#0*62|#[xX]0*3[eE])(?:;|(?![\w]))")
_ESCAPED_QUOT_RE = re.compile(r"&(?:quot|#0*34|#[xX]0*22)(?:;|(?![\w]))")
_UNMARK = str.maketrans({"\ufdd0": ">", "\ufdd1": '"'})


def _without_tags(data: str) -> tuple[str, int]:
    """``data`` without the rest of any tag in it (:data:`_LEAKED_TAG_RE`, ending at a '>')."""
    kept: list[str] = []
    last = found = 0
    at = data.find(">")
    while at >= 0:
        start = max(last, at + 1 - _TAG_REACH)
        end = data[start:at].rstrip().rstrip("/").rstrip()[-1:]  # (only a quote or a tag name's end can close one)
        tag = _LEAKED_TAG_RE.search(data[start:at + 1]) if end in _TAG_ENDS and end else None
        if tag is not None:
            kept.append(data[last:start + tag.start()])
            last = at + 1
            found += 1
        at = data.find(">", at + 1)
    return "".join(kept) + data[last:], found


def _without_rules(data: str) -> tuple[str, int]:
    """``data`` without the style rules in it (``p { margin: 0; }``: a block holding ":" and ";",
    with the selector before it on its line), when there are two or more in a row or nothing
    else: a style sheet read as text. A rule among words is the page's text."""
    cuts = []
    for block in _BRACES_RE.finditer(data):
        if ":" not in block.group() or ";" not in block.group():
            continue
        start = block.start()
        before = data[max(0, start - 81):start]  # (its selector: back to the line's start or the last rule)
        edge = max(before.rfind("\n"), before.rfind("}"))
        if edge >= 0 or start <= 80:
            start -= len(before) - edge - 1
        cuts.append((start, block.end()))
    if not cuts:
        return data, 0
    in_a_row = any(not data[end:start].strip() for (_, end), (start, _) in zip(cuts, cuts[1:]))
    rest = "".join(data[end:start] for end, start in zip([0] + [e for _, e in cuts], [s for s, _ in cuts] + [len(data)]))
    if in_a_row or not rest.strip():
        return rest, len(cuts)
    return data, 0


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[str] = []
        self.current: list[str] = []
        self.hidden_depth = 0
        self.in_title = False
        self.title: list[str] = []
        self.damaged_tags = 0  # markup read as text (a damaged or cut tag), left out
        self.cut_in_tag = False  # the file ends inside a tag

    def _break(self) -> None:
        if self.current:
            self.paragraphs.append("".join(self.current))
            self.current = []

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag == "title":
            self.in_title = True
        if tag in _HIDDEN:
            self.hidden_depth += 1
        elif tag in _BLOCKS:
            self._break()

    def handle_startendtag(self, tag: str, attrs) -> None:
        if tag in _BLOCKS:
            self._break()

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        if tag in _HIDDEN:
            self.hidden_depth = max(0, self.hidden_depth - 1)
        elif tag in _BLOCKS:
            self._break()
        elif tag in ("td", "th"):
            self.current.append(" ")

    def handle_data(self, data: str) -> None:
        if self.hidden_depth == 0:  # (a style sheet's own rules are hidden)
            if ">" in data:
                data, tags = _without_tags(data)
                self.damaged_tags += tags
            if "{" in data:
                data, rules = _without_rules(data)
                self.damaged_tags += rules
        if "\ufdd0" in data or "\ufdd1" in data:
            data = data.translate(_UNMARK)
        if self.in_title:
            self.title.append(data)
        if self.hidden_depth == 0:
            self.current.append(data)


def _decode(data: bytes) -> Decoded:
    """The page's text in the charset it declares; with a few invalid bytes still in it (a
    damaged file: they are replaced, counted and said, as in a text file), else detected.
    (Before, one invalid byte sent the page to the detector, which read a damaged English page
    with a handful of 8-bit bytes in a legacy code page, its noise in silence — found by fuzzing
    LibreOffice's HTML.)"""
    declared = _META_CHARSET_RE.search(data[:4096])
    if declared and not data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        name = declared.group(1).decode("ascii").lower()
        codec = {"gb2312": "gb18030", "gbk": "gb18030"}.get(name, name)
        try:
            return Decoded(data.decode(codec), name)
        except UnicodeDecodeError:
            damaged = decode_leniently(data, codec)
            if damaged is not None:
                return damaged
            log.debug("declared charset %s does not fit; detecting", name)
        except LookupError:
            log.debug("declared charset %s is unknown; detecting", name)
    return decode(data)


def extract(data: bytes) -> Extracted:
    """Extract the visible text of an HTML page, one paragraph per block element."""
    decoded = _decode(data)
    text, encoding = decoded.text, decoded.encoding
    collector = _TextCollector()
    if "&" in text:
        text = _ESCAPED_QUOT_RE.sub("\ufdd1", _ESCAPED_GT_RE.sub("\ufdd0", text))
    collector.feed(text)
    held = collector.rawdata.find("<")
    if held >= 0:  # what the parser holds back at the end is a tag (or comment) it never saw the
        # end of: the file was cut inside it (close() would give it as text)
        collector.rawdata = collector.rawdata[:held]
        collector.cut_in_tag = True
    collector.close()
    collector._break()
    meta = {"encoding": encoding}
    title = " ".join("".join(collector.title).split())
    if title:
        meta["title"] = title
    warnings = [w for w in [decoded.warning(len(data))] if w]
    damage = [*(["the file is cut short inside a tag"] if collector.cut_in_tag else []),
              *([f"{collector.damaged_tags} damaged tag{'s' if collector.damaged_tags != 1 else ''} left out"]
                if collector.damaged_tags else [])]
    if damage:
        warnings.append(f"recovered from a damaged file: {'; '.join(damage)}; the text that survives was read")
    return Extracted(paragraphs=collector.paragraphs, meta=meta, warnings=warnings)
