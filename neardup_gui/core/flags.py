"""Integrity flags: where a document was made to look unlike what it is, counted and placed.

Comparison undoes the disguises (core/folding.py, core/units.py); the examiner is told of them,
as Turnitin's "Flags" and Copyleaks' cheat detection tell: each flag has a kind, a count of
characters and the spans where they are.

- ``replaced``: look-alike letters of another script inside words ("Cyrillic а in a Latin
  word"), with the number of words holding them. Honest text mixes scripts too — Greek letters
  in formulas (TNFα, the α value), Russian names, English terms in Chinese — so a document is
  flagged only when at least ``MIN_MIXED_WORDS`` of its words have a look-alike between two
  Latin letters, which no honest spelling does; then every look-alike in a Latin word is
  counted, and so are words made only of look-alikes (and digits) between Latin words or numbers.
- ``hidden``: text the file hides from its reader (``Document.hidden``), in characters.
- ``invisible``: format characters (zero-width spaces and joiners, soft hyphens, word joiners,
  byte order marks, bidi controls, tags), all of them, when at least one stands inside a word
  (between two characters of units): a byte order mark at the start of a file, or a bidi mark
  beside punctuation, changes no word and is no disguise.
- ``traditional``: traditional characters folded to simplified ones for comparison, when there
  are at least ``MIN_TRADITIONAL`` (a simplified text quoting a name or a title is not one).
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from neardup_gui.core.document import CharSpan
from neardup_gui.core.folding import fold_table
from neardup_gui.core.units import FORMAT_CLASS, Units, _classes, text_codes, tokenize

REPLACED, HIDDEN, INVISIBLE, TRADITIONAL = "replaced", "hidden", "invisible", "traditional"
KINDS = (REPLACED, HIDDEN, INVISIBLE, TRADITIONAL)
MIN_MIXED_WORDS = 3
MIN_TRADITIONAL = 10


@dataclass(frozen=True)
class Flag:
    """One integrity flag of a document: ``count`` characters of one ``kind`` at ``spans``."""

    kind: str
    count: int
    spans: tuple[CharSpan, ...] = ()
    words: int = 0  # ``replaced``: the words holding the replaced letters

    def to_json(self) -> dict:
        out = {"kind": self.kind, "count": self.count, "spans": [list(s) for s in self.spans]}
        if self.kind == REPLACED:
            out["words"] = self.words
        return out

    @classmethod
    def from_json(cls, data: dict) -> "Flag":
        return cls(kind=str(data["kind"]), count=int(data["count"]),
                   spans=tuple((int(a), int(b)) for a, b in data.get("spans", ())), words=int(data.get("words", 0)))


def flags_to_json(flags: Iterable[Flag]) -> str:
    """Flags as the index stores them (a JSON list)."""
    return json.dumps([f.to_json() for f in flags], separators=(",", ":"))


def flags_from_json(text: str | None) -> tuple[Flag, ...]:
    """:func:`flags_to_json` undone; nothing for an empty or unreadable value."""
    try:
        return tuple(Flag.from_json(d) for d in json.loads(text or "[]"))
    except (TypeError, ValueError, KeyError):
        return ()


def integrity_flags(text: str, hidden: Iterable[CharSpan] = (), units: Units | None = None) -> tuple[Flag, ...]:
    """The flags of a document's ``text`` and ``hidden`` spans (``units``: ``tokenize(text,
    hidden)`` when the caller has it), in the order of :data:`KINDS`. Costs one table look-up
    per character; words are looked at one by one only where a look-alike letter stands."""
    hidden = _merged(hidden)
    found: list[Flag] = []
    if hidden:
        found.append(Flag(HIDDEN, sum(b - a for a, b in hidden), hidden))
    if text.isascii():  # (a question that costs nothing: no look-alike, format or traditional character)
        return tuple(found)
    codes = text_codes(text)
    if codes.dtype == np.uint8 and "\xad" not in text:  # Latin-1 without a soft hyphen: nothing else to find
        return tuple(found)
    cls = _classes(codes).copy()
    hidden_mask = np.zeros(len(codes), dtype=bool)
    for a, b in hidden:
        hidden_mask[a:b] = True
    cls[hidden_mask] = FORMAT_CLASS  # (hidden characters are as invisible to the words around them)
    folded = fold_table()[codes] != 0
    replaced = _replaced(text, cls, folded, units if units is not None else tokenize(text, hidden))
    if replaced is not None:
        found.insert(0, replaced)
    invisible = _invisible(cls, hidden_mask)
    if invisible is not None:
        found.append(invisible)
    traditional = np.flatnonzero((cls == 1) & folded)
    if len(traditional) >= MIN_TRADITIONAL:
        found.append(Flag(TRADITIONAL, len(traditional), _spans_of(traditional)))
    return tuple(found)


def _merged(spans: Iterable[CharSpan]) -> tuple[CharSpan, ...]:
    out: list[CharSpan] = []
    for a, b in sorted(s for s in spans if s[0] < s[1]):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return tuple(out)


def _spans_of(positions: np.ndarray) -> tuple[CharSpan, ...]:
    """The maximal runs of consecutive positions (sorted), as spans."""
    if len(positions) == 0:
        return ()
    breaks = np.flatnonzero(np.diff(positions) != 1)
    starts = positions[np.concatenate(([0], breaks + 1))]
    ends = positions[np.concatenate((breaks, [len(positions) - 1]))] + 1
    return tuple(zip(starts.tolist(), ends.tolist()))


def _invisible(cls: np.ndarray, hidden_mask: np.ndarray) -> Flag | None:
    """Every format character (hidden text aside), when one stretch of format characters (and
    hidden text) has characters of units as its nearest neighbours on both sides: inside a word."""
    fmt = cls == FORMAT_CLASS
    where = np.flatnonzero(fmt & ~hidden_mask)
    if len(where) == 0:
        return None
    n = len(cls)
    edges = np.diff(fmt.view(np.int8), prepend=np.int8(0), append=np.int8(0))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    inside = (starts > 0) & (ends < n)
    unit = (cls == 1) | (cls == 2)
    inside[inside] = unit[starts[inside] - 1] & unit[ends[inside]]
    # (a stretch of hidden text alone, a letter glued to a word, is the hidden flag's)
    if len(starts):
        inside &= np.add.reduceat((fmt & ~hidden_mask).astype(np.int64), starts) > 0
    if not inside.any():
        return None
    return Flag(INVISIBLE, len(where), _spans_of(where))


def _is_latin(char: str) -> bool:
    if char.isascii():
        return char.isalpha()
    return char.isalpha() and unicodedata.name(char, "").startswith("LATIN")


def _replaced(text: str, cls: np.ndarray, folded: np.ndarray, units: Units) -> Flag | None:
    """Look-alike letters in Latin words (see the module's rule), or None when the document has
    fewer than ``MIN_MIXED_WORDS`` words with one between two Latin letters."""
    look_alike = np.flatnonzero((cls == 2) & folded)
    if len(look_alike) == 0 or len(units) == 0:
        return None
    owner = np.searchsorted(units.starts, look_alike, side="right") - 1
    keep = (owner >= 0) & (look_alike < units.ends[np.maximum(owner, 0)])
    owner, look_alike = owner[keep], look_alike[keep]
    by_word: dict[int, list[int]] = {}
    for w, pos in zip(owner.tolist(), look_alike.tolist()):
        by_word.setdefault(w, []).append(pos)
    starts, ends = units.starts.tolist(), units.ends.tolist()

    def latin_letters(w: int) -> list[int]:
        return [i for i in range(starts[w], ends[w]) if _is_latin(text[i])]

    evidence = 0
    mixed: dict[int, list[int]] = {}
    whole: list[int] = []
    for w, positions in by_word.items():
        latin = latin_letters(w)
        if latin:
            mixed[w] = positions
            if any(latin[0] < p < latin[-1] for p in positions):
                evidence += 1
        elif all(not text[i].isalpha() or i in positions for i in range(starts[w], ends[w])):
            whole.append(w)
    if evidence < MIN_MIXED_WORDS:
        return None
    n = len(starts)

    def latin_or_number(v: int) -> bool:  # a word with Latin letters, or a number ("-с 1", "400а")
        if units.cjk[v]:
            return False
        letters = [text[i] for i in range(starts[v], ends[v]) if text[i].isalpha()]
        return not letters or any(map(_is_latin, letters))

    # words of look-alikes only, among Latin words, numbers or other such words, one of them at
    # least a Latin word or a number ("with ^А с (…"): taken from the Latin side, until none is left
    left, whole_set = set(whole), set(whole)

    def anchored(v: int) -> bool:
        return v in mixed or latin_or_number(v)

    while left:
        taken = set()
        for w in left:
            near = [v for v in (w - 1, w + 1) if 0 <= v < n]
            if near and all(anchored(v) or v in whole_set for v in near) and any(map(anchored, near)):
                taken.add(w)
        if not taken:
            break
        for w in taken:
            mixed[w] = by_word[w]
        left -= taken
    positions = np.array(sorted(p for ps in mixed.values() for p in ps), dtype=np.int64)
    return Flag(REPLACED, len(positions), _spans_of(positions), words=len(mixed))
