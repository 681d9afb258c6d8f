"""HTML pages (.html, .htm): visible text by block, without scripts and styles."""

from __future__ import annotations

import logging
import re
from html.parser import HTMLParser

from neardup_gui.core.extract.common import Extracted
from neardup_gui.core.extract.text import Decoded, decode

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


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[str] = []
        self.current: list[str] = []
        self.hidden_depth = 0
        self.in_title = False
        self.title: list[str] = []

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
        if self.in_title:
            self.title.append(data)
        if self.hidden_depth == 0:
            self.current.append(data)


def _decode(data: bytes) -> Decoded:
    declared = _META_CHARSET_RE.search(data[:4096])
    if declared and not data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        name = declared.group(1).decode("ascii").lower()
        try:
            return Decoded(data.decode({"gb2312": "gb18030", "gbk": "gb18030"}.get(name, name)), name)
        except (UnicodeDecodeError, LookupError):
            log.debug("declared charset %s does not fit; detecting", name)
    return decode(data)


def extract(data: bytes) -> Extracted:
    """Extract the visible text of an HTML page, one paragraph per block element."""
    decoded = _decode(data)
    text, encoding = decoded.text, decoded.encoding
    collector = _TextCollector()
    collector.feed(text)
    collector.close()
    collector._break()
    meta = {"encoding": encoding}
    title = " ".join("".join(collector.title).split())
    if title:
        meta["title"] = title
    warning = decoded.warning(len(data))
    return Extracted(paragraphs=collector.paragraphs, meta=meta, warnings=[warning] if warning else [])
