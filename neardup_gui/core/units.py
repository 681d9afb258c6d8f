"""Units, sentences and paragraphs: the atoms every comparison counts, with their offsets.

A *unit* is one CJK character, or one run of other letters/digits. Units are compared after
NFKC normalisation and lower-casing; punctuation and white space are not units. Every unit
keeps its ``[start, end)`` character offsets in the extracted text, so any result can be
highlighted in the text the examiner reads.
"""

from __future__ import annotations

import functools
import operator
import re
import unicodedata
from dataclasses import dataclass, field

import mmh3
import numpy as np

from neardup_gui.core.arrays import distinct
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
    """The unit sequence of a text: 64-bit ids, character offsets, and the normalised tokens."""

    ids: np.ndarray  # uint64, one per unit: a seeded mmh3 hash of the normalised token
    starts: np.ndarray  # int64 character offsets into the text
    ends: np.ndarray
    text: str = field(default="", repr=False)  # the text the offsets point into
    cjk: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]  # bool: a CJK unit

    def __len__(self) -> int:
        return len(self.ids)

    @functools.cached_property
    def tokens(self) -> tuple[str, ...]:
        """The normalised token of each unit (built on first use: most callers need only ids)."""
        raw = unit_strings(self.text, self.starts, self.ends)
        unseen = set(raw).difference(_NORMALISED)  # C loops; only unseen tokens take a Python step
        if unseen:
            if len(_NORMALISED) + len(unseen) > _RUN_CACHE_MAX:
                _NORMALISED.clear()
                unseen = set(raw)
            for tok in unseen:
                _NORMALISED[tok] = normalise_token(tok)
        return tuple(map(_NORMALISED.__getitem__, raw))

    @functools.cached_property
    def sentence_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """:func:`sentence_bounds` of the text (computed once for every fingerprint that needs them)."""
        return sentence_bounds(self.text)

    @functools.cached_property
    def sentence_spans(self) -> list[CharSpan]:
        """:func:`sentences` of the text."""
        starts, ends = self.sentence_bounds
        return list(zip(starts.tolist(), ends.tolist()))

    @functools.cached_property
    def sentence_units(self) -> tuple[np.ndarray, np.ndarray]:
        """For each sentence, its first unit and the unit after its last (``[lo, hi)``; empty
        when ``lo == hi``)."""
        starts, ends = self.sentence_bounds
        return (np.searchsorted(self.starts, starts, side="left"),
                np.searchsorted(self.starts, ends, side="left"))

    def span(self, i: int, j: int) -> CharSpan:
        """Character span covering units ``i`` to ``j - 1`` (``i < j``)."""
        return int(self.starts[i]), int(self.ends[j - 1])


def normalise_token(token: str) -> str:
    """NFKC and lower-case: full-width forms, ligatures and case collapse to one unit."""
    if token.isascii():
        return token.lower()
    return unicodedata.normalize("NFKC", token).lower()


_NORMALISED: dict[str, str] = {}  # raw token -> normalised token, per process (bounded)


def unit_id(token: str) -> int:
    """The stable 64-bit id of a normalised token."""
    return mmh3.hash64(token, UNIT_HASH_SEED, signed=False)[0]


# Class of every code point, filled lazily from the regexes themselves (so it can never disagree
# with them): 0 not part of a unit, 1 a unit on its own (CJK), 2 part of a run, 255 unknown yet.
_CLASS = np.full(0x110000, 255, dtype=np.uint8)
_CJK_ONE_RE = re.compile(rf"[{CJK_CLASS}]")
_RUN_CHAR_RE = re.compile(rf"[^\W_{CJK_CLASS}]")


def _classes(codes: np.ndarray) -> np.ndarray:
    """The unit class of each code point in ``codes`` (uint32), learning the new ones."""
    cls = _CLASS[codes]
    if (cls == 255).any():
        for c in distinct(codes[cls == 255]).tolist():
            ch = chr(c)
            _CLASS[c] = 1 if _CJK_ONE_RE.match(ch) else 2 if _RUN_CHAR_RE.match(ch) else 0
        cls = _CLASS[codes]
    return cls


def _unit_spans(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``[start, end)`` of every unit, as ``_UNIT_RE.finditer`` gives them, without a Python
    step per unit: a CJK code point is a unit; a maximal run of other word characters is one."""
    cls = _classes(codes)
    run = cls == 2
    prev_run = np.empty_like(run)
    prev_run[:1] = False
    prev_run[1:] = run[:-1]
    starts = np.flatnonzero((cls == 1) | (run & ~prev_run))
    # a run ends where the next code point is not a run character; a CJK unit after one character
    next_run = np.empty_like(run)
    next_run[-1:] = False
    next_run[:-1] = run[1:]
    run_ends = np.flatnonzero(run & ~next_run) + 1
    ends = np.empty_like(starts)
    is_run = run[starts]
    ends[~is_run] = starts[~is_run] + 1
    ends[is_run] = run_ends
    return starts.astype(np.int64), ends.astype(np.int64)


# unit ids learnt so far, per process: of CJK code points (a table over every code point, 0 =
# not learnt yet) and of runs (bounded: emptied when it grows past _RUN_CACHE_MAX)
_CJK_ID_TABLE = np.zeros(0x110000, dtype=np.uint64)
_RUN_IDS: dict[str, int] = {}
_RUN_CACHE_MAX = 500_000


def _cjk_ids(codes: np.ndarray) -> np.ndarray:
    ids = _CJK_ID_TABLE[codes]
    missing = ids == 0
    if missing.any():
        for c in distinct(codes[missing]).tolist():
            # an id of 0 is re-learnt each time, which is only slower, never wrong
            _CJK_ID_TABLE[c] = unit_id(normalise_token(chr(c)))
        ids = _CJK_ID_TABLE[codes]
    return ids


def _run_id(raw: str) -> int:
    uid = _RUN_IDS.get(raw)
    if uid is None:
        if len(_RUN_IDS) >= _RUN_CACHE_MAX:
            _RUN_IDS.clear()
        uid = _RUN_IDS[raw] = unit_id(normalise_token(raw))
    return uid


def tokenize(text: str) -> Units:
    """Split ``text`` into units with their offsets and ids.

    Vectorised: the unit boundaries come from a class per code point (numpy); a CJK unit's id is
    looked up by its code point, and only the runs of other letters are sliced out as strings, each
    distinct one normalised and hashed once. ``tests/core/test_units.py`` checks the result
    against the plain definition (one ``_UNIT_RE.finditer`` step per unit).
    """
    if not text:
        empty = np.empty(0, dtype=np.int64)
        return Units(ids=np.empty(0, dtype=np.uint64), starts=empty, ends=empty.copy(), text=text,
                     cjk=np.empty(0, dtype=bool))
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    starts, ends = _unit_spans(codes)
    ids = np.empty(len(starts), dtype=np.uint64)
    single = ends - starts == 1
    cjk = single & (_CLASS[codes[starts]] == 1)
    if cjk.any():
        ids[cjk] = _cjk_ids(codes[starts[cjk]])
    runs = ~cjk
    if runs.any():
        raw = _strings(codes, starts[runs], ends[runs])
        got = list(map(_RUN_IDS.get, raw))  # a C loop; only the unseen runs take a Python step
        if None in got:
            got = [_run_id(t) if v is None else v for t, v in zip(raw, got)]
        ids[runs] = np.array(got, dtype=np.uint64)
    return Units(ids=ids, starts=starts, ends=ends, text=text, cjk=cjk)


def unit_strings(text: str, starts: np.ndarray, ends: np.ndarray) -> list[str]:
    """``[text[a:b] for a, b in zip(starts, ends)]`` for the spans of units (which never hold a
    space), without a Python step per unit."""
    if len(starts) == 0:
        return []
    return _strings(np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4"), starts, ends)


def _strings(codes: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> list[str]:
    """The code points ``codes[a:b]`` of each span as strings: the spans are copied into one
    array, each followed by a space, decoded once and split at the spaces (in C). The spans
    must not contain a space (unit spans never do); a slice per span costs 0.1 µs more each."""
    if len(starts) == 0:
        return []
    lengths = ends - starts
    before = np.cumsum(lengths) - lengths  # the characters of the spans before each span
    total = int(before[-1] + lengths[-1])
    k = np.arange(total, dtype=np.int64)
    out = np.full(total + len(starts), 0x20, dtype="<u4")
    out[k + np.repeat(np.arange(len(starts), dtype=np.int64), lengths)] = codes[k + np.repeat(starts - before, lengths)]
    return out[:-1].tobytes().decode("utf-32-le", "surrogatepass").split(" ")


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
    starts, ends = sentence_bounds(text)
    return list(zip(starts.tolist(), ends.tolist()))


# The same, as one group (so that re.split returns the end marks between the pieces), after a
# look-ahead for the first character of any end mark: the regex engine then skips to the
# candidates at C speed instead of trying every alternative at every character (2.4× faster).
_SENTENCE_SPLIT_RE = re.compile(f"((?=[。！？；!?;.…\\n])(?:{_SENTENCE_END_RE.pattern}))")


def sentence_bounds(text: str) -> tuple[np.ndarray, np.ndarray]:
    """:func:`sentences` as two int64 arrays (starts, ends), without a Python step per sentence.

    A sentence is the text after the previous end mark up to and including its own end mark;
    ``re.split`` gives the pieces and the marks, str.strip (in C) the white space to trim.
    """
    parts = _SENTENCE_SPLIT_RE.split(text)  # piece, end mark, piece, …, last piece
    pieces = list(map(operator.add, parts[0::2], parts[1::2] + [""]))
    lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
    stripped = np.fromiter(map(len, map(str.strip, pieces)), dtype=np.int64, count=len(pieces))
    leading = lengths - np.fromiter(map(len, map(str.lstrip, pieces)), dtype=np.int64, count=len(pieces))
    starts = np.cumsum(lengths) - lengths + leading
    keep = stripped > 0
    return starts[keep], (starts + stripped)[keep]


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
