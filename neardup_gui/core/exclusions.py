"""Optional exclusions: quoted text and the bibliography, found as character spans.

Quoting a source with quotation marks, and listing the same references, is not copying; an
examiner may leave both out of the similarity (settings ``exclude_quotes`` and
``exclude_bibliography``). They are reported apart, never silently dropped.
"""

from __future__ import annotations

import logging
import re

from neardup_gui.core.document import CharSpan

log = logging.getLogger(__name__)

# A quotation never runs past its paragraph nor beyond this many characters: an unbalanced
# opening mark must not swallow the rest of the document.
MAX_QUOTE_CHARS = 1000

# Paired marks: opening → closing. Straight double quotes open and close alike.
_PAIRS = {"“": "”", "「": "」", "『": "』", "‘": "’", '"': '"'}

_OPENERS_RE = re.compile("[" + re.escape("".join(_PAIRS)) + "]")
_MARKS_OF = {mark: re.compile("[" + re.escape(mark + close) + "]") for mark, close in _PAIRS.items()}

# A bibliography starts in the latter part of the text: a "References" line near the top is a
# table of contents entry or a heading of the form, not the list itself.
BIBLIOGRAPHY_MIN_POSITION = 0.4

_BIBLIOGRAPHY_RE = re.compile(
    r"""^[ \t\u3000]*
        (?:(?:第?[0-9一二三四五六七八九十]+[章节]?|[IVXLC]+)[ \t\u3000]*[.．、:：)）]?[ \t\u3000]*)?
        (?:参[ \t\u3000]*考[ \t\u3000]*文[ \t\u3000]*献|主要参考文献|引用文献
          |references|bibliography|works[ \t]+cited|literature[ \t]+cited|reference[ \t]+list)
        [ \t\u3000]*[:：]?[ \t\u3000]*$""",
    re.IGNORECASE | re.MULTILINE | re.VERBOSE,
)


def _is_word(ch: str) -> bool:
    return ch.isalnum()


def _can_open(text: str, i: int, mark: str) -> bool:
    """Whether the mark at ``i`` plausibly opens a quotation."""
    if mark in "“「『":
        return True  # unambiguous opening marks
    nxt = text[i + 1] if i + 1 < len(text) else ""
    prev = text[i - 1] if i > 0 else ""
    # ‘ and " open only before text and not straight after a letter (don't, 5" disk, O"Brien)
    return bool(nxt) and not nxt.isspace() and not (prev and _is_word(prev))


def _can_close(text: str, j: int, mark: str) -> bool:
    """Whether the mark at ``j`` plausibly closes a quotation."""
    if mark in "”」』":
        return True
    nxt = text[j + 1] if j + 1 < len(text) else ""
    prev = text[j - 1] if j > 0 else ""
    # ’ between letters is an apostrophe (it’s); a closing mark follows text, not a space
    return bool(prev) and not prev.isspace() and not (nxt and _is_word(nxt) and _is_word(prev))


def quoted_spans(text: str) -> tuple[CharSpan, ...]:
    """Spans of quoted passages, marks included; sorted, nested quotations inside the outer one.

    A quotation closes within its paragraph and ``MAX_QUOTE_CHARS``; an opening mark without a
    closing one there is ignored.
    """
    spans: list[CharSpan] = []
    i, n = 0, len(text)
    while True:
        # jump to the next mark (one regex search, not a Python step per character)
        found = _OPENERS_RE.search(text, i)
        if found is None:
            break
        i = found.start()
        mark = text[i]
        closing = _PAIRS[mark]
        if not _can_open(text, i, mark):
            i += 1
            continue
        limit = min(n, i + 1 + MAX_QUOTE_CHARS)
        newline = text.find("\n", i + 1, limit)
        if newline != -1:
            limit = newline
        depth, end = 0, -1
        for m in _MARKS_OF[mark].finditer(text, i + 1, limit):
            j, ch = m.start(), m.group()
            if ch == closing and _can_close(text, j, ch):
                if depth == 0:
                    end = j + 1
                    break
                depth -= 1
            elif ch == mark and mark != closing and _can_open(text, j, ch):
                depth += 1  # the same kind nested: “ … “ … ” … ”
        if end == -1:
            i += 1
            continue
        if end - i > 2:  # something between the marks
            spans.append((i, end))
        i = end
    return tuple(spans)


def bibliography_spans(text: str) -> tuple[CharSpan, ...]:
    """The bibliography: from its heading line to the end of the text, when that heading starts
    in the latter part of the text (after ``BIBLIOGRAPHY_MIN_POSITION`` of it). Empty otherwise."""
    end = len(text.rstrip())
    for m in _BIBLIOGRAPHY_RE.finditer(text):
        start = m.start() + (len(m.group()) - len(m.group().lstrip()))
        if start >= BIBLIOGRAPHY_MIN_POSITION * len(text) and end > start:
            return ((start, end),)
    return ()
