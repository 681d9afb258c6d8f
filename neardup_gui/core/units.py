"""Units, sentences and paragraphs: the atoms every comparison counts, with their offsets.

A *unit* is one CJK character, or one run of other letters/digits. Units are compared after
NFKC normalisation, the folds of :mod:`~neardup_gui.core.folding` (look-alike letters,
traditional characters) and lower-casing; punctuation and white space are not units. Invisible
format characters (category Cf) are not units either, and inside a run they do not end it: the
run goes on after them, as a reader sees the word. Text the file hides (``Document.hidden``) is
compared as if it were such a character. Every unit keeps its ``[start, end)`` character
offsets in the extracted text, so any result can be highlighted in the text the examiner reads.
"""

from __future__ import annotations

import functools
import itertools
import operator
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterable

import mmh3
import numpy as np

from neardup_gui.core.arrays import distinct
from neardup_gui.core.document import CharSpan
from neardup_gui.core.folding import FORMAT_CATEGORY, fold, fold_table

# Ideographs (URO, Ext. A–H, compatibility), kana, Hangul syllables, 々 and 〇: one unit each.
CJK_CLASS = (
    "\u3005\u3007\u3040-\u309f\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
    "\uf900-\ufaff\U00020000-\U0003134f"
)
_UNIT_RE = re.compile(rf"[{CJK_CLASS}]|[^\W_{CJK_CLASS}]+")  # (units as cjk_share counts them)
_CJK_RE = re.compile(rf"[{CJK_CLASS}]")

# Sentence ends: Chinese 。！？； (and their half-width forms after NFKC), English . ! ? followed
# by white space or the end; a line break always ends a sentence. Closing quotes and brackets
# after the end mark stay with the sentence.
_SENTENCE_END_RE = re.compile(
    r"""(?:[。！？；!?;]+|\.(?=\s|$)|\.{3}|…+)[”’"'」』）)\]]*|\n"""
)

UNIT_HASH_SEED = 0x6E64  # fixed: unit ids are stored in indexes and must never change

try:  # the compiled tokenizer (setup.py builds it when a C compiler is at hand; same units without)
    from neardup_gui.core import _units as _compiled_units
except ImportError:  # pragma: no cover - a build without a C compiler
    _compiled_units = None


@dataclass(frozen=True, eq=False)
class Units:
    """The unit sequence of a text: 64-bit ids, character offsets, and the normalised tokens."""

    ids: np.ndarray  # uint64, one per unit: a seeded mmh3 hash of the normalised token
    starts: np.ndarray  # int64 character offsets into the text
    ends: np.ndarray
    text: str = field(default="", repr=False)  # the text the offsets point into
    cjk: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]  # bool: a CJK unit
    # the text of every unit, each followed by a space, when tokenize built it: see spaced()
    spaced_text: str | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.ids)

    def spaced(self) -> str:
        """The text of every unit, each followed by a space (units never hold one), in order."""
        if self.spaced_text is not None:
            return self.spaced_text
        return joined_units(self.text, self.starts, self.ends, " ")

    @functools.cached_property
    def tokens(self) -> tuple[str, ...]:
        """The normalised token of each unit (built on first use: most callers need only ids)."""
        raw = self.spaced()[:-1].split(" ") if len(self) else []
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


@functools.lru_cache(maxsize=1)
def unit_pattern() -> re.Pattern:
    """The plain definition of units as one regex (what :func:`tokenize` must equal): a CJK
    character, or a run of other word characters that goes on through the format characters
    standing between two of them. (Built on first use: finding the format characters reads
    every code point's category.)"""
    fmt = "".join(re.escape(chr(c)) for c in range(0x110000)
                  if unicodedata.category(chr(c)) == FORMAT_CATEGORY and not 0xD800 <= c < 0xE000)
    word = rf"[^\W_{CJK_CLASS}]"
    return re.compile(rf"[{CJK_CLASS}]|{word}(?:[{fmt}]*{word})*")


def normalise_token(token: str) -> str:
    """NFKC, folded and lower-cased (:func:`~neardup_gui.core.folding.fold`): full-width forms,
    ligatures, look-alike letters, traditional characters, format characters and case collapse
    to one unit."""
    return fold(token)


_NORMALISED: dict[str, str] = {}  # raw token -> normalised token, per process (bounded)


def unit_id(token: str) -> int:
    """The stable 64-bit id of a normalised token."""
    return mmh3.hash64(token, UNIT_HASH_SEED, signed=False)[0]


# Class of every code point, filled lazily from the regexes themselves (so it can never disagree
# with them): 0 not part of a unit, 1 a unit on its own (CJK), 2 part of a run, 3 a format
# character (inside a run it goes on; elsewhere it is nothing), 255 unknown yet.
_CLASS = np.full(0x110000, 255, dtype=np.uint8)
_CJK_ONE_RE = re.compile(rf"[{CJK_CLASS}]")
_RUN_CHAR_RE = re.compile(rf"[^\W_{CJK_CLASS}]")
FORMAT_CLASS = 3
# What text a file hides is compared as: a format character (zero-width space), one for one
HIDDEN_AS = 0x200B


def _classes(codes: np.ndarray) -> np.ndarray:
    """The unit class of each code point in ``codes`` (uint32), learning the new ones."""
    cls = _CLASS[codes]
    if (cls == 255).any():
        for c in distinct(codes[cls == 255]).tolist():
            ch = chr(c)
            _CLASS[c] = (1 if _CJK_ONE_RE.match(ch) else 2 if _RUN_CHAR_RE.match(ch)
                         else FORMAT_CLASS if unicodedata.category(ch) == FORMAT_CATEGORY else 0)
        cls = _CLASS[codes]
    return cls


def _run_mask(cls: np.ndarray) -> np.ndarray:
    """True for the code points inside runs: run characters, and format characters whose nearest
    other characters on both sides are run characters (they join the run's two halves)."""
    run = cls == 2
    fmt = cls == FORMAT_CLASS
    if not fmt.any():
        return run
    n = len(cls)
    at = np.arange(n)
    left = np.maximum.accumulate(np.where(fmt, -1, at))  # the last other character at or before each
    right = np.minimum.accumulate(np.where(fmt, n, at)[::-1])[::-1]  # the first at or after each
    inside = fmt & (left >= 0) & (right < n)
    inside[inside] = run[left[inside]] & run[right[inside]]
    return run | inside


def _unit_spans(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``[start, end)`` of every unit, as ``unit_pattern().finditer`` gives them, without a Python
    step per unit: a CJK code point is a unit; a maximal run of other word characters (and the
    format characters between them) is one."""
    cls = _classes(codes)
    run = _run_mask(cls)
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


def tokenize(text: str, hidden: Iterable[CharSpan] = ()) -> Units:
    """Split ``text`` into units with their offsets and ids.

    ``hidden``: spans of ``text`` the file hides (``Document.hidden``); their characters are
    compared as format characters (``HIDDEN_AS``): never a unit, and a letter hidden inside a
    word leaves the word whole. The units' offsets still point into ``text``.

    Vectorised: the unit boundaries come from a class per code point (numpy); a CJK unit's id is
    looked up by its code point, and only the runs of other letters are sliced out as strings, each
    distinct one normalised and hashed once. ``tests/core/test_units.py`` checks the result
    against the plain definition (one regex step per unit). Where core/_units.c is built, the
    units are cut and their ASCII runs hashed in C (:func:`_tokenize_compiled`, checked against
    this path in ``tests/core/test_units_ext.py``).
    """
    if not text:
        empty = np.empty(0, dtype=np.int64)
        return Units(ids=np.empty(0, dtype=np.uint64), starts=empty, ends=empty.copy(), text=text,
                     cjk=np.empty(0, dtype=bool))
    codes = text_codes(text)
    source = text  # the text the runs are read from: hidden characters replaced
    hidden = [(a, b) for a, b in hidden if a < b]
    if hidden:
        codes = codes.astype(np.uint32)
        for a, b in hidden:
            codes[a:b] = HIDDEN_AS
        source = codes.astype("<u4", copy=False).tobytes().decode("utf-32-le", "surrogatepass")
    if _compiled_units is not None:
        return _tokenize_compiled(text, codes, source)
    if codes.dtype == np.uint8 and "\xad" not in text:  # Latin-1 without a soft hyphen: no CJK, no format character
        return _tokenize_runs(text, codes, _LATIN1_RUN[codes])
    cls = _classes(codes)
    if not (cls == 1).any():
        return _tokenize_runs(text, codes, _run_mask(cls))
    starts, ends = _unit_spans(codes)
    ids = np.empty(len(starts), dtype=np.uint64)
    single = ends - starts == 1
    cjk = single & (_CLASS[codes[starts]] == 1)
    if cjk.any():
        ids[cjk] = _cjk_ids(codes[starts[cjk]])
    runs = ~cjk
    if runs.any():
        ids[runs] = _run_ids(_joined(codes, starts[runs], ends[runs], " ")[:-1].split(" "))
    spaced = _joined(codes, starts, ends, " ") if hidden else None
    return Units(ids=ids, starts=starts, ends=ends, text=text, cjk=cjk, spaced_text=spaced)


def _tokenize_compiled(text: str, codes: np.ndarray, source: str) -> Units:
    """:func:`tokenize` with the units cut and the ASCII runs' ids computed in C
    (``core/_units.c``); CJK units and other runs take their ids from the caches here (the
    other runs read from ``source``: ``text`` with its hidden characters replaced)."""
    got = _compiled_units.units(codes, _CLASS, UNIT_HASH_SEED)
    if got is None:  # a code point of an unknown class: learn them all, then cut
        _classes(codes)
        got = _compiled_units.units(codes, _CLASS, UNIT_HASH_SEED)
    starts, ends, ids, kinds, spaced = got
    starts = np.frombuffer(starts, dtype=np.int64)
    ends = np.frombuffer(ends, dtype=np.int64)
    ids = np.frombuffer(ids, dtype=np.uint64)
    kinds = np.frombuffer(kinds, dtype=np.uint8)
    cjk = kinds == 1
    if cjk.any():
        ids[cjk] = _cjk_ids(codes[starts[cjk]])
    other = np.flatnonzero(kinds == 2)
    if len(other):
        ids[other] = _run_ids([source[a:b] for a, b in zip(starts[other].tolist(), ends[other].tolist())])
    spaced_text = spaced.decode("latin-1") if codes.dtype == np.uint8 else spaced.decode("utf-32-le", "surrogatepass")
    return Units(ids=ids, starts=starts, ends=ends, text=text, cjk=cjk, spaced_text=spaced_text)


def _run_ids(raw: list[str] | list[bytes], known: dict | None = None) -> np.ndarray:
    """The unit ids of runs of letters/digits, given as their text (or as their Latin-1 bytes,
    with ``known`` the cache of such runs, ``_LATIN1_RUN_IDS``)."""
    # C loops (the look-ups straight into the array); only each distinct unseen run takes a
    # Python step (a list first, then np.array, would take about 40 % longer).
    known = _RUN_IDS if known is None else known
    try:
        return np.fromiter(map(known.__getitem__, raw), dtype=np.uint64, count=len(raw))
    except KeyError:
        pass
    unseen = set(raw).difference(known)
    if len(known) + len(unseen) > _RUN_CACHE_MAX:
        known.clear()
        unseen = set(raw)
    for token in unseen:
        text = token if isinstance(token, str) else token.decode("latin-1")
        known[token] = unit_id(normalise_token(text))
    return np.fromiter(map(known.__getitem__, raw), dtype=np.uint64, count=len(raw))


# (the runs of one-byte texts, by their bytes: see _tokenize_runs)
_LATIN1_RUN_IDS: dict[bytes, int] = {}


# For Latin-1 text: True for the code points that are part of a run (none is CJK); a table for
# bytes.translate keeping them and making every other character a space
_LATIN1_RUN = _classes(np.arange(256, dtype=np.uint32)) == 2
_RUN_BYTES = bytes(c if _LATIN1_RUN[c] else 32 for c in range(256))


def _tokenize_runs(text: str, codes: np.ndarray, runs: np.ndarray) -> Units:
    """:func:`tokenize` of a text without CJK characters (``runs``: which code points are part of
    a run): every unit is a run, and the runs' strings are cut from one joined string by one
    split instead of a slice each."""
    edges = np.diff(runs.view(np.int8), prepend=np.int8(0), append=np.int8(0))  # +1 at a start, −1 after an end
    starts = np.flatnonzero(edges == 1).astype(np.int64)
    ends = np.flatnonzero(edges == -1).astype(np.int64)
    if codes.dtype == np.uint8 and len(starts) and not runs[codes == 0xAD].any():
        # one byte a character (and no soft hyphen inside a run): every other character to a
        # space and split, in C (a fifth less than the joined string below on 2,375 real
        # copyright files)
        raw = codes.tobytes().translate(_RUN_BYTES).split()
        ids = _run_ids(raw, _LATIN1_RUN_IDS)
        spaced = b" ".join(raw).decode("latin-1") + " "
    else:
        spaced = _joined(codes, starts, ends, " ", inside=runs)
        ids = _run_ids(spaced[:-1].split(" ")) if len(starts) else np.empty(0, dtype=np.uint64)
    return Units(ids=ids, starts=starts, ends=ends, text=text, cjk=np.zeros(len(starts), dtype=bool), spaced_text=spaced)


def needs_folding(text: str) -> bool:
    """True when a character of ``text`` is folded by more than NFKC and lower-casing: a
    look-alike letter, a traditional character, or a format character (whose class is learnt)."""
    if text.isascii():  # (none of these is ASCII; the question costs nothing)
        return False
    codes = text_codes(text)
    if codes.dtype == np.uint8:
        return "\xad" in text  # (the only format character of Latin-1; none is folded)
    return bool(fold_table()[codes].any() or (_CLASS[codes] == FORMAT_CLASS).any())


def text_codes(text: str) -> np.ndarray:
    """The code points of ``text``: uint8 for a text of Latin-1 characters (below U+0100: one
    byte each, a quarter of the memory every pass over them reads), else uint32."""
    if text.isascii():
        return np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    try:  # (a copy for a text Python holds one byte a character; else it fails where a wider one is)
        return np.frombuffer(text.encode("latin-1"), dtype=np.uint8)
    except UnicodeEncodeError:
        return code_points(text)


def unit_strings(text: str, starts: np.ndarray, ends: np.ndarray) -> list[str]:
    """``[text[a:b] for a, b in zip(starts, ends)]`` for the spans of units (which never hold a
    space), without a Python step per unit."""
    if len(starts) == 0:
        return []
    return joined_units(text, starts, ends, " ")[:-1].split(" ")


def joined_units(text: str, starts: np.ndarray, ends: np.ndarray, separator: str) -> str:
    """The spans ``text[a:b]`` of units, each followed by ``separator`` (a character no unit
    holds), as one string built in numpy: ``"".join(text[a:b] + separator for a, b in …)``."""
    return _joined(text_codes(text), starts, ends, separator)


def _joined(codes: np.ndarray, starts: np.ndarray, ends: np.ndarray, separator: str,
            inside: np.ndarray | None = None) -> str:
    """:func:`joined_units` of code points (``inside``: which code points are in a span, when
    the caller has it)."""
    n = len(starts)
    if n == 0:
        return ""
    sep = ord(separator)
    if n == 1 or bool((starts[1:] > ends[:-1]).all()):
        # no two spans adjacent (a text without CJK): keep the spans' characters and the one
        # after each span, which becomes the separator
        if inside is None:
            edges = np.zeros(len(codes) + 1, dtype=np.int8)
            edges[starts] = 1
            edges[ends] = -1
            inside = np.cumsum(edges[:-1], dtype=np.int8) > 0
        kept = inside.copy()
        kept[ends[ends < len(codes)]] = True
        out = codes[kept]
        out[~inside[kept]] = sep
        if ends[-1] == len(codes):  # (the last span ends the text)
            out = np.append(out, out.dtype.type(sep))
    else:
        # copied span by span: span i's characters go after those of the spans before it and
        # their i separators
        lengths = ends - starts
        before = np.cumsum(lengths) - lengths
        total = int(before[-1] + lengths[-1])
        k = np.arange(total, dtype=np.int64)
        out = np.full(total + n, sep, dtype=codes.dtype)
        out[k + np.repeat(np.arange(n, dtype=np.int64), lengths)] = codes[k + np.repeat(starts - before, lengths)]
    if out.dtype == np.uint8:
        return out.tobytes().decode("latin-1")
    return out.astype("<u4", copy=False).tobytes().decode("utf-32-le", "surrogatepass")


def slice_hashes(data: bytes, starts: np.ndarray, ends: np.ndarray, seed: int) -> np.ndarray:
    """``mmh3.hash64(data[a:b], seed)[0]`` of every slice ``[a, b)`` of ``data``, as uint64: the
    sentences' hashes and keys of the index. In C (core/_units.c: one call for all of a text's
    sentences) when the module is built; else one mmh3 call per slice, in C loops."""
    if _compiled_units is not None:
        return np.frombuffer(_compiled_units.slice_hashes(data, np.ascontiguousarray(starts, dtype=np.int64),
                                                          np.ascontiguousarray(ends, dtype=np.int64), seed),
                             dtype=np.uint64)
    # (mmh3's seed by position: a partial with keywords builds a dict per call, 2.4 times slower;
    # its first half signed, read as unsigned, is the unsigned one)
    pieces = map(data.__getitem__, map(slice, np.asarray(starts).tolist(), np.asarray(ends).tolist()))
    hashes = map(_FIRST, map(mmh3.hash64, pieces, itertools.repeat(seed)))
    return np.fromiter(hashes, dtype=np.int64, count=len(starts)).view(np.uint64)


_FIRST = operator.itemgetter(0)


def utf8_offsets(text: str, offsets: np.ndarray) -> np.ndarray:
    """The byte offsets in ``text.encode("utf-8")`` of the character offsets ``offsets``."""
    offsets = np.asarray(offsets, dtype=np.int64)
    if text.isascii():
        return offsets
    cp = code_points(text)
    wide = np.flatnonzero(cp >= 0x80)  # (a few in a text of Latin script)
    extra = np.zeros(len(wide) + 1, dtype=np.int64)  # bytes beyond one, before each of them and in all
    np.cumsum(1 + (cp[wide] >= 0x800).astype(np.int64) + (cp[wide] >= 0x10000), out=extra[1:])
    return offsets + extra[np.searchsorted(wide, offsets)]


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


# The code points str.isspace() is true for (what str.strip removes, and the regex's \s);
# tests/core/test_index_fastpaths.py checks the list against every code point.
_WHITE_SPACE = (9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 133, 160, 5760, *range(8192, 8203), 8232, 8233, 8239, 8287, 12288)
_IS_SPACE = np.zeros(0x110000, dtype=bool)
_IS_SPACE[list(_WHITE_SPACE)] = True

# The characters of _SENTENCE_END_RE by their part in it, for sentence_ends
_MARK, _DOT, _ELLIPSIS, _LINE_FEED, _CLOSER = 1, 2, 3, 4, 5
_END_PART = np.zeros(0x110000, dtype=np.uint8)
_END_PART[[ord(c) for c in "。！？；!?;"]] = _MARK
_END_PART[ord(".")] = _DOT
_END_PART[ord("…")] = _ELLIPSIS
_END_PART[ord("\n")] = _LINE_FEED
_END_PART[[ord(c) for c in "”’\"'」』）)]"]] = _CLOSER


def code_points(text: str) -> np.ndarray:
    """The code points of ``text`` (uint32; lone surrogates kept as they are)."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")


def sentence_ends(codes: np.ndarray) -> np.ndarray:
    """Where the matches of ``_SENTENCE_END_RE.finditer`` end, in order, from the code points of
    the text, in numpy (the regex tries its alternatives at every character: 15 ns each).

    Its matches never overlap one another whatever their kind, so each kind is found on its own:
    a run of marks (。！？；!?;) or of ellipses (…), with the closing quotes and brackets right
    after it; every line feed; and in a run of k full stops, taken from its left, k // 3 "..."
    (the last one with its closers when the run ends there), then the last full stop alone when
    white space or the end of the text follows it. One pass over the text finds the characters
    that take part (a few in a hundred); everything after works on their positions alone.
    """
    n = len(codes)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    part = _END_PART[codes]
    at = np.flatnonzero(part != 0)  # the characters that take part, in order (of a bool: 3 times faster)
    kind_at = part[at]

    def runs(kind: int) -> tuple[np.ndarray, np.ndarray]:  # [start, end) of the maximal runs of a kind
        pos = at[kind_at == kind]
        if len(pos) == 0:
            return pos, pos
        breaks = np.flatnonzero(pos[1:] != pos[:-1] + 1)
        return pos[np.append(0, breaks + 1)], pos[np.append(breaks, len(pos) - 1)] + 1

    closer_starts, closer_ends = runs(_CLOSER)

    def closed(ends: np.ndarray) -> np.ndarray:  # a match's end after the closers that follow it
        # (the character before a match's end is never a closer: a run of closers that follows
        # the match starts exactly at its end)
        if len(closer_starts) == 0:
            return ends
        i = np.minimum(np.searchsorted(closer_starts, ends), len(closer_starts) - 1)
        return np.where(closer_starts[i] == ends, closer_ends[i], ends)

    found = [at[kind_at == _LINE_FEED] + 1]
    for kind in (_MARK, _ELLIPSIS):
        ends = runs(kind)[1]
        if len(ends):
            found.append(closed(ends))
    starts, ends = runs(_DOT)
    if len(starts):
        length = ends - starts
        triples = length // 3
        # the "..." of every run: the i-th one ends 3·(i + 1) after its run's start
        owner = np.repeat(np.arange(len(starts)), triples)
        before = np.cumsum(triples) - triples
        ordinal = np.arange(len(owner)) - before[owner]
        triple_ends = starts[owner] + 3 * (ordinal + 1)
        # the closers follow the last "..." of a run whose length is a multiple of three
        last = (ordinal == triples[owner] - 1) & (length[owner] % 3 == 0)
        triple_ends[last] = closed(triple_ends[last])
        found.append(triple_ends)
        # a full stop left over, followed by white space or the end of the text
        single = (length % 3 != 0) & ((ends == n) | _IS_SPACE[codes[np.minimum(ends, n - 1)]])
        found.append(ends[single])
    return np.sort(np.concatenate(found)).astype(np.int64)


def sentences_in_units(text: str, units: Units) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Character bounds ``[start, end)`` of the sentences of ``text`` and their units ``[lo, hi)``
    among ``units`` (the ones cached on ``units`` when they were made from this very text)."""
    if units.text == text:
        starts, ends = units.sentence_bounds
        lo, hi = units.sentence_units
    else:
        starts, ends = sentence_bounds(text)
        lo = np.searchsorted(units.starts, starts, side="left")
        hi = np.searchsorted(units.starts, ends, side="left")
    return starts, ends, lo, hi


def sentence_bounds(text: str) -> tuple[np.ndarray, np.ndarray]:
    """:func:`sentences` as two int64 arrays (starts, ends), without a Python step per sentence.

    A piece runs from the end of one end mark (:func:`sentence_ends`) to the end of the next;
    trimmed, it starts at its first character that is not white space and ends after its last
    one. Both are found by stepping over the white space at every piece's ends at once, a
    character a step (a sentence is seldom followed by more than a line break and an indent);
    the pieces with more white space than ``_TRIM_STEPS`` are trimmed by ``str.strip``.
    """
    codes = text_codes(text)
    if _compiled_units is not None:
        # the same in one pass over the code points (core/_units.c: the ends left to right, each
        # piece trimmed): 0.5 ms of a copyright file's 4.4 ms of extraction and fingerprints
        starts, ends = _compiled_units.sentence_bounds(codes)
        return np.frombuffer(starts, dtype=np.int64), np.frombuffer(ends, dtype=np.int64)
    bounds = np.concatenate(([0], sentence_ends(codes), [len(text)]))
    starts, ends = _trim(text, codes, bounds[:-1], bounds[1:])
    keep = starts < ends  # (a piece of white space only has no character left)
    return starts[keep], ends[keep]


_TRIM_STEPS = 16


def _trim(text: str, codes: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pieces ``[starts, ends)`` of ``text`` without their leading and trailing white space
    (a piece of white space only becomes empty: its start equals its end)."""
    starts, ends = starts.astype(np.int64), ends.astype(np.int64)
    n = len(codes)
    if n == 0:
        return starts, ends
    for _ in range(_TRIM_STEPS):
        lead = (starts < ends) & _IS_SPACE[codes[np.minimum(starts, n - 1)]]
        if not lead.any():
            break
        starts += lead
    for _ in range(_TRIM_STEPS):
        trail = (ends > starts) & _IS_SPACE[codes[np.maximum(ends - 1, 0)]]
        if not trail.any():
            break
        ends -= trail
    # pieces still starting or ending with white space after the steps: their own strip
    left = (starts < ends) & (_IS_SPACE[codes[np.minimum(starts, n - 1)]] | _IS_SPACE[codes[np.maximum(ends - 1, 0)]])
    for i in np.flatnonzero(left).tolist():
        a, b = int(starts[i]), int(ends[i])
        piece = text[a:b]
        stripped = piece.lstrip()
        a += len(piece) - len(stripped)
        starts[i], ends[i] = a, a + len(stripped.rstrip())
    return starts, ends


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
