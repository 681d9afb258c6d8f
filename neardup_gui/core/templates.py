"""Template text: sentences of the collection's form, the user's template files, page furniture.

Seed 004 found template text to be the main source of false alarms; a frequency count alone
hides what was copied most widely (issue 14). Template text is therefore:

1. every sentence of a template file the user supplies, wherever it occurs;
2. sentences the examiner marked (stored in the index: ``store.template_marks``);
3. automatically, only sentences in at least ``template_min_docs`` documents AND at least
   ``template_min_share`` (half) of the collection — the call's form — counted by
   :class:`TemplateModel` (or the index's ``sentence_df``) over sentence keys, unless the
   documents holding them are copies of one another beyond them (:func:`copied_keys`: copying,
   not a form), minus those the examiner chose to count;
4. the page furniture a PDF extraction recognised (running headers, footers, page numbers).

A sentence key hashes the sentence's *normalised units*, so white space, punctuation, full-width
forms and case do not make two copies of the form's sentence different.
"""

from __future__ import annotations

import logging
import struct
import unicodedata
from dataclasses import dataclass, field
from typing import Callable, Collection, Iterable, Iterator, Mapping

import mmh3
import numpy as np

from neardup_gui.core.arrays import distinct
from neardup_gui.core.compare import merge_spans
from neardup_gui.core.document import CharSpan
from neardup_gui.core.settings import Settings
from neardup_gui.core.units import Units, sentences_in_units, slice_hashes, tokenize, utf8_offsets

log = logging.getLogger(__name__)

MIN_SENTENCE_UNITS = 4  # shorter sentences ("注：", "Yes.") recur by chance, not by form
SENTENCE_KEY_SEED = 0x7470  # fixed: keys are stored in indexes and must never change
# Frequent sentences held by nearly the same documents (Jaccard similarity of the two sets of
# documents at least this) are one text: a form's sentences, or one copied document's.
SAME_DOCUMENTS = 0.8
# Two documents holding a frequent text are copies of one another beyond it when the passages
# they share cover at least this share of their text outside the frequent sentences (see
# copied_keys; measured in docs/quality.md: forms' documents 0.06–0.39, copies 1.00); pairs of its
# documents asked, at most:
COPIES_ALIKE = 0.5
COPY_PAIRS = 9
_MAGIC = b"NDTM"
_VERSION = 1


def sentence_key(tokens: Iterable[str]) -> int:
    """Stable signed 64-bit key of a sentence's normalised units (fits an SQLite INTEGER)."""
    return mmh3.hash64(_SEPARATOR.join(tokens), SENTENCE_KEY_SEED, signed=True)[0]


def sentence_keys(text: str, units: Units | None = None) -> list[tuple[CharSpan, int]]:
    """``(span, key)`` of every sentence of ``text`` with at least ``MIN_SENTENCE_UNITS`` units.

    ``units`` may pass ``tokenize(text)`` when the caller has it already. Each key is
    :func:`sentence_key` of the sentence's tokens (see :func:`sentence_key_array`).
    """
    units = units if units is not None else tokenize(text)
    starts, ends, keep, keys = _sentence_keys(text, units)
    return list(zip(zip(starts[keep].tolist(), ends[keep].tolist()), keys.tolist()))


def sentence_key_array(text: str, units: Units) -> np.ndarray:
    """The keys of :func:`sentence_keys` alone, in the same order (int64): what the index stores,
    without a ``(span, key)`` tuple per sentence."""
    return _sentence_keys(text, units)[3]


def _sentence_keys(text: str, units: Units) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(sentence starts, ends, which are kept, the kept ones' keys). Each key is hashed from a
    slice of all the tokens joined once (the same string as joining the sentence's own), all of
    them in one call (:func:`~neardup_gui.core.units.slice_hashes`)."""
    starts, ends, lo, hi = sentences_in_units(text, units)
    if len(units) == 0 or len(starts) == 0:
        none = np.zeros(0, dtype=np.int64)
        return starts, ends, np.zeros(len(starts), dtype=bool), none
    keep = hi - lo >= MIN_SENTENCE_UNITS
    joined, lengths = _joined_tokens(units)
    # where each token starts in ``joined`` (one past the end for the last)
    at = np.zeros(len(units) + 1, dtype=np.int64)
    np.cumsum(lengths + 1, out=at[1:])
    first, last = at[lo[keep]], at[hi[keep]] - 1
    # hashed as mmh3 hashes a str, its UTF-8 (the tokens are units' text, never a lone surrogate;
    # "surrogatepass" only keeps one from raising here)
    data = joined.encode("utf-8", "surrogatepass")
    if len(data) != len(joined):
        first, last = utf8_offsets(joined, first), utf8_offsets(joined, last)
    return starts, ends, keep, slice_hashes(data, first, last, SENTENCE_KEY_SEED).view(np.int64)  # (signed)


def _joined_tokens(units: Units) -> tuple[str, np.ndarray]:
    """The units' normalised tokens, each followed by ``_SEPARATOR``, and their lengths, in C.

    Normalising (NFKC, lower-case) the units' text joined by the separator is joining their
    normalised tokens: the separator, a control character, is a normalisation boundary (it
    neither composes nor decomposes) and neither cased nor case-ignorable (lower-casing
    Σ looks at its neighbours). When the text is in NFKC already and lower-casing keeps every
    length (nearly all Chinese and English text) the lengths are the units' own.
    ``tests/core/test_index_fastpaths.py`` checks it against joining ``units.tokens``.
    """
    raw = units.spaced().replace(" ", _SEPARATOR)  # (no unit holds a space)
    own = units.ends - units.starts
    changed: list[tuple[int, str]] = []
    normal = raw if unicodedata.is_normalized("NFKC", raw) else _nfkc(raw, changed)
    lowered = normal.lower()
    if len(lowered) != len(normal):  # (a character grew: İ)
        tokens = lowered.split(_SEPARATOR)[:-1]
        return lowered, np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
    # lower-casing kept every length: only the tokens of the pieces NFKC changed have new ones
    for first, piece in changed:
        tokens = piece.split(_SEPARATOR)[:-1]
        own[first:first + len(tokens)] = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
    return lowered, own


def _nfkc(raw: str, changed: list[tuple[int, str]]) -> str:
    """NFKC of tokens joined by (and ending with) ``_SEPARATOR``, a piece of about
    ``_NFKC_PIECE`` characters at a time cut after a separator: only the pieces not in NFKC
    already are normalised (a text has a few compatibility characters, ² or ﬁ, and normalising
    all of a long one took 20 ns a character). Appends (index of the piece's first token, the
    piece normalised) to ``changed`` for each piece it changed."""
    out: list[str] = []
    start = token = 0
    while start < len(raw):
        end = raw.find(_SEPARATOR, min(start + _NFKC_PIECE, len(raw) - 1)) + 1
        piece = raw[start:end]
        if not unicodedata.is_normalized("NFKC", piece):
            normal = unicodedata.normalize("NFKC", piece)
            changed.append((token, normal))
            piece = normal
        out.append(piece)
        token += piece.count(_SEPARATOR)
        start = end
    return "".join(out)


_NFKC_PIECE = 4096
_SEPARATOR = "\x1f"


def template_file_keys(texts: Iterable[str]) -> frozenset[int]:
    """Keys of every sentence of the user's template files (their extracted texts)."""
    return frozenset(key for text in texts for _, key in sentence_keys(text))


@dataclass(eq=False)
class TemplateModel:
    """Document frequencies of sentence keys over a collection, updated incrementally.

    A sentence is template when it occurs in at least ``min_docs`` documents and in at least
    ``min_share`` of the collection. Counts are per document (a sentence repeated inside one
    document counts once). Additions and removals are buffered and merged in one sort when the
    model is next read, so adding documents one by one stays linear.
    """

    min_docs: int = 5
    min_share: float = 0.02
    documents: int = 0
    _keys: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False)
    _counts: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False)
    _pending: list[tuple[np.ndarray, int]] = field(default_factory=list, repr=False)
    # template_keys() for (documents, min_docs, min_share): checking many texts reuses it
    _cached: tuple[tuple[int, int, float], frozenset[int]] | None = field(default=None, repr=False)

    @classmethod
    def from_settings(cls, settings: Settings) -> "TemplateModel":
        return cls(min_docs=settings.template_min_docs, min_share=settings.template_min_share)

    # -- updates ---------------------------------------------------------------------------

    def add(self, keys: Iterable[int]) -> None:
        """Count one document, given its sentence keys."""
        self._pending.append((distinct(np.fromiter(keys, dtype=np.int64)), 1))
        self.documents += 1
        self._cached = None

    def remove(self, keys: Iterable[int]) -> None:
        """Un-count one document previously added with the same keys."""
        if self.documents == 0:
            raise ValueError("no document to remove")
        self._pending.append((distinct(np.fromiter(keys, dtype=np.int64)), -1))
        self.documents -= 1
        self._cached = None

    def add_text(self, text: str) -> list[int]:
        """Count one document given its text; returns its keys (keep them to remove it later)."""
        keys = [key for _, key in sentence_keys(text)]
        self.add(keys)
        return keys

    def _flush(self) -> None:
        if not self._pending:
            return
        keys = np.concatenate([self._keys] + [k for k, _ in self._pending])
        counts = np.concatenate([self._counts] + [np.full(len(k), s, dtype=np.int64) for k, s in self._pending])
        self._pending.clear()
        uniq, inverse = np.unique(keys, return_inverse=True)
        summed = np.bincount(inverse, weights=counts, minlength=len(uniq)).astype(np.int64)
        if (summed < 0).any():
            raise ValueError("a removed document's keys were never added")
        keep = summed > 0
        self._keys, self._counts = uniq[keep], summed[keep]

    # -- queries ---------------------------------------------------------------------------

    def frequency(self, key: int) -> int:
        """Number of documents containing the sentence ``key``."""
        self._flush()
        i = int(np.searchsorted(self._keys, key))
        return int(self._counts[i]) if i < len(self._keys) and self._keys[i] == key else 0

    def min_frequency(self) -> int:
        """The document frequency at or above which a sentence is template."""
        return max(self.min_docs, int(np.ceil(self.min_share * self.documents - 1e-9)), 1)

    def template_keys(self) -> frozenset[int]:
        """Keys of all template sentences of the collection as it stands."""
        state = (self.documents, self.min_docs, self.min_share)
        if self._cached is None or self._cached[0] != state:
            self._flush()
            self._cached = (state, frozenset(self._keys[self._counts >= self.min_frequency()].tolist()))
        return self._cached[1]

    def is_template(self, key: int) -> bool:
        return self.frequency(key) >= self.min_frequency()

    # -- persistence -----------------------------------------------------------------------

    def rows(self) -> Iterator[tuple[int, int]]:
        """``(key, document frequency)`` rows, for a database table."""
        self._flush()
        return zip(self._keys.tolist(), self._counts.tolist())

    @classmethod
    def from_rows(
        cls, rows: Iterable[tuple[int, int]], documents: int, *, min_docs: int = 5, min_share: float = 0.02
    ) -> "TemplateModel":
        pairs = sorted(rows)
        model = cls(min_docs=min_docs, min_share=min_share, documents=documents)
        model._keys = np.array([k for k, _ in pairs], dtype=np.int64)
        model._counts = np.array([c for _, c in pairs], dtype=np.int64)
        return model

    def to_bytes(self) -> bytes:
        """Little-endian serialisation: header, then keys (int64) and counts (int64)."""
        self._flush()
        header = struct.pack("<4sIQdQ", _MAGIC, _VERSION, self.min_docs, self.min_share, self.documents)
        n = struct.pack("<Q", len(self._keys))
        return header + n + self._keys.astype("<i8").tobytes() + self._counts.astype("<i8").tobytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> "TemplateModel":
        head = struct.calcsize("<4sIQdQ")
        magic, version, min_docs, min_share, documents = struct.unpack_from("<4sIQdQ", data, 0)
        if magic != _MAGIC or version != _VERSION:
            raise ValueError("not a template model (or a newer version)")
        (n,) = struct.unpack_from("<Q", data, head)
        body = head + 8
        if len(data) != body + 16 * n:
            raise ValueError("template model data is truncated")
        model = cls(min_docs=int(min_docs), min_share=float(min_share), documents=int(documents))
        model._keys = np.frombuffer(data, dtype="<i8", count=n, offset=body).astype(np.int64)
        model._counts = np.frombuffer(data, dtype="<i8", count=n, offset=body + 8 * n).astype(np.int64)
        return model


def copied_keys(holders: Mapping[int, Collection[int]], alike: Callable[[int, int], bool], *,
                same: float = SAME_DOCUMENTS, pairs: int | None = None) -> frozenset[int]:
    """Of the frequent sentences the automatic rule would take out (``holders``: each key → the
    documents holding it), those that are copying: the documents holding them are copies of one
    another beyond that text.

    Sentences held by nearly the same documents (Jaccard ≥ ``same``) are one text: the parts of
    a form, or the unedited sentences of a copied document. For each such text, up to
    ``pairs`` pairs of its documents (all pairs when fewer; a fixed pseudo-random choice
    otherwise) are asked ``alike(a, b)``: do the two documents share text besides the frequent
    sentences (``Collection.copied_keys``: the passages they share cover at least
    ``COPIES_ALIKE`` of their text outside the frequent sentences, or neither holds anything
    else). When most pairs are alike, the text's sentences are copying.

    Why: a frequency count cannot tell a form from a document copied by many, and the more widely
    a text was copied the more it matters. In a small folder half the collection is a handful of
    documents: five copies of one proposal among eight files were each wholly "template" before,
    and not one of their ten pairs was reported; six lightly edited copies of a Chinese section
    among eleven files lost a third of their similarity (0.76 → 0.53). What tells a form from a
    copy is what else its documents share: applicants fill a form with answers of their own,
    unrelated to each other's, while copies share their edited sentences too, or nothing else at
    all (byte copies); measured in docs/quality.md. A passage pasted into half a small folder,
    amid text of each writer's own, still looks like a form: it stays automatic, listed in the
    common passages with one click to count it.
    """
    wanted = COPY_PAIRS if pairs is None else pairs
    groups: dict[frozenset[int], list[int]] = {}
    for key, docs in holders.items():
        if len(docs) >= 2:
            groups.setdefault(frozenset(docs), []).append(int(key))
    # one text: the groups held by nearly the same documents as its largest group
    texts: list[tuple[frozenset[int], list[int]]] = []
    for held, keys in sorted(groups.items(), key=lambda g: (-len(g[1]), min(g[1]))):
        for rep, members in texts:
            if len(rep & held) >= same * len(rep | held) - 1e-9:
                members.extend(keys)
                break
        else:
            texts.append((held, list(keys)))
    out: list[int] = []
    for held, keys in texts:
        docs = sorted(held)
        if len(docs) * (len(docs) - 1) // 2 <= wanted:
            chosen = [(a, b) for i, a in enumerate(docs) for b in docs[i + 1:]]
        else:
            rng = np.random.default_rng(min(keys) & 0xFFFFFFFF)
            chosen = []
            while len(chosen) < wanted:
                a, b = rng.choice(len(docs), size=2, replace=False)
                chosen.append((docs[min(a, b)], docs[max(a, b)]))
        yes = no = 0
        for a, b in chosen:  # (until the majority is known)
            if alike(a, b):
                yes += 1
            else:
                no += 1
            if yes * 2 > len(chosen) or no * 2 >= len(chosen):
                break
        if yes * 2 > len(chosen):
            out.extend(keys)
    return frozenset(out)


def template_spans(
    text: str,
    model: TemplateModel | None,
    user_template_keys: frozenset[int] = frozenset(),
    furniture: Iterable[CharSpan] = (),
    units: Units | None = None,
) -> tuple[CharSpan, ...]:
    """Template spans of ``text``: collection template sentences, user template sentences and
    page furniture, merged and sorted (``units``: ``tokenize(text)`` if the caller has it)."""
    collection = model.template_keys() if model is not None else frozenset()
    keys = sentence_keys(text, units) if (collection or user_template_keys) else []
    spans = [span for span, key in keys if key in collection or key in user_template_keys]
    return merge_spans([*spans, *furniture])
