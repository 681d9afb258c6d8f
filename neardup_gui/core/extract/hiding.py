"""Text a document hides from its reader: hidden runs, text coloured as its background, tiny text.

A copy can be hidden from a similarity checker by gluing letters to its words, or whole
passages to its pages, that a reader never sees: Word's hidden attribute, white letters on the
white page (or on a white highlight or shading), letters under 2 points high. Such text stays
in the extracted text (every offset holds) and its spans go to ``Document.hidden``: the
comparison reads it as invisible (core/units.py), and the examiner is shown where it is.

This module holds what the DOCX and ODT readers share: the colour and size rules, and the
assembly of a paragraph's hidden spans.
"""

from __future__ import annotations

from dataclasses import dataclass

from neardup_gui.core.document import CharSpan

# Text under this size (points) cannot be read on a page.
MIN_VISIBLE_POINTS = 2.0
# A text colour this close to its background on every channel (0–255) is not seen on it.
SAME_COLOUR = 16
WHITE = (255, 255, 255)
AUTO = (-1, -1, -1)  # a colour set to "automatic": readable on any background


def parse_colour(value: str | None) -> tuple[int, int, int] | None:
    """An ``RRGGBB`` (or ``#RRGGBB``) colour; None for "auto", "transparent" or anything else."""
    if not value:
        return None
    value = value.strip().lstrip("#")
    if len(value) != 6:
        return None
    try:
        number = int(value, 16)
    except ValueError:
        return None
    return number >> 16, (number >> 8) & 0xFF, number & 0xFF


def same_colour(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    """True when text of colour ``a`` cannot be told from a background of colour ``b``."""
    return max(abs(x - y) for x, y in zip(a, b)) <= SAME_COLOUR


@dataclass(frozen=True)
class Look:
    """How a run of text is drawn, as far as seeing it goes (None: not set at this level)."""

    hidden: bool | None = None  # the format's hidden attribute
    colour: tuple[int, int, int] | None = None  # None: automatic (always readable)
    points: float | None = None  # font size
    background: tuple[int, int, int] | None = None  # highlight or shading behind the run

    def over(self, base: "Look") -> "Look":
        """This look with what it leaves unset taken from ``base``."""
        return Look(
            hidden=base.hidden if self.hidden is None else self.hidden,
            colour=base.colour if self.colour is None else self.colour,
            points=base.points if self.points is None else self.points,
            background=base.background if self.background is None else self.background,
        )

    def unseen(self, page: tuple[int, int, int]) -> bool:
        """True when a reader cannot see text drawn so on a page of colour ``page``."""
        if self.hidden:
            return True
        if self.points is not None and self.points < MIN_VISIBLE_POINTS:
            return True
        if self.colour is None or self.colour == AUTO:
            return False
        return same_colour(self.colour, self.background if self.background is not None else page)


class HiddenSpans:
    """A paragraph's text as it is read piece by piece, with the spans of its unseen pieces."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.spans: list[CharSpan] = []
        self._length = 0

    def add(self, piece: str, unseen: bool) -> None:
        if not piece:
            return
        if unseen:
            if self.spans and self.spans[-1][1] == self._length:
                self.spans[-1] = (self.spans[-1][0], self._length + len(piece))
            else:
                self.spans.append((self._length, self._length + len(piece)))
        self.parts.append(piece)
        self._length += len(piece)

    def text(self) -> str:
        return "".join(self.parts)
