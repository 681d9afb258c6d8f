"""Units, sentences and paragraphs: the atoms every comparison counts, with their offsets.

A *unit* is one CJK character, or one run of other letters/digits. Units are compared after
NFKC normalisation and lower-casing; punctuation and white space are not units. Every unit
keeps its ``[start, end)`` character offsets in the extracted text, so any result can be
highlighted in the text the examiner reads.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import mmh3
import numpy as np

from neardup_gui.core.document import CharSpan

# Ideographs (URO, Ext. A–H, compatibility), kana, Hangul syllables, 々 and 〇: one unit each.
CJK_CLASS = (
    "\u3005\u3007\u3040-\u309f\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
    "\uf900-\ufaff\U00020000-\U0003134f"
)
_UNIT_RE = re.compile(rf"[{CJK_CLASS}]|[^\W_{CJK_CLASS}]+")
_CJK_RE = re.compile(rf"[{CJK_CLASS}]")

# Sentence ends: Chinese 。！？； (and their half-width forms after NFKC), English . ! ? followed
# by white space or the end; a line break always ends a sentence. Closing quotes and brackets
# after the end mark stay with the sentence.
_SENTENCE_END_RE = re.compile(
    r"""(?:[。！？；!?;]+|\.(?=\s|$)|\.{3}|…+)[”’"'」』）)\]]*|\n"""
)

UNIT_HASH_SEED = 0x6E64  # fixed: unit ids are stored in indexes and must never change


@dataclass(frozen=True, eq=False)
class Units:
    """The unit sequence of a text: normalised tokens, 64-bit ids, and character offsets."""

    tokens: tuple[str, ...]
    ids: np.ndarray  # uint64, one per unit: a seeded mmh3 hash of the normalised token
    starts: np.ndarray  # int64 character offsets into the text
    ends: np.ndarray

    def __len__(self) -> int:
        return len(self.tokens)

    def span(self, i: int, j: int) -> CharSpan:
        """Character span covering units ``i`` to ``j - 1`` (``i < j``)."""
        return int(self.starts[i]), int(self.ends[j - 1])


def normalise_token(token: str) -> str:
    """NFKC and lower-case: full-width forms, ligatures and case collapse to one unit."""
    if token.isascii():
        return token.lower()
    return unicodedata.normalize("NFKC", token).lower()


def unit_id(token: str) -> int:
    """The stable 64-bit id of a normalised token."""
    return mmh3.hash64(token, UNIT_HASH_SEED, signed=False)[0]


def tokenize(text: str) -> Units:
    """Split ``text`` into units with their offsets and ids."""
    tokens: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    ids_cache: dict[str, int] = {}
    ids: list[int] = []
    for m in _UNIT_RE.finditer(text):
        tok = normalise_token(m.group())
        tokens.append(tok)
        starts.append(m.start())
        ends.append(m.end())
        uid = ids_cache.get(tok)
        if uid is None:
            uid = ids_cache[tok] = unit_id(tok)
        ids.append(uid)
    return Units(
        tokens=tuple(tokens),
        ids=np.array(ids, dtype=np.uint64),
        starts=np.array(starts, dtype=np.int64),
        ends=np.array(ends, dtype=np.int64),
    )


def is_cjk(char: str) -> bool:
    """True for a character that counts as one unit on its own (ideograph, kana, Hangul)."""
    return bool(_CJK_RE.fullmatch(char))


def cjk_share(text: str) -> float:
    """Share of units in ``text`` that are CJK characters (0 for a text without units)."""
    units = _UNIT_RE.findall(text)
    if not units:
        return 0.0
    return sum(1 for u in units if len(u) == 1 and _CJK_RE.match(u)) / len(units)


def _trimmed(text: str, start: int, end: int) -> CharSpan | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def sentences(text: str) -> list[CharSpan]:
    """Character spans of the sentences of ``text``, white space trimmed, in order."""
    spans: list[CharSpan] = []
    pos = 0
    for m in _SENTENCE_END_RE.finditer(text):
        span = _trimmed(text, pos, m.end())
        if span:
            spans.append(span)
        pos = m.end()
    span = _trimmed(text, pos, len(text))
    if span:
        spans.append(span)
    return spans


def paragraphs(text: str) -> list[CharSpan]:
    """Character spans of the non-blank lines of ``text`` (the extracted paragraphs)."""
    spans: list[CharSpan] = []
    pos = 0
    for line in text.split("\n"):
        span = _trimmed(text, pos, pos + len(line))
        if span:
            spans.append(span)
        pos += len(line) + 1
    return spans
