"""Template text: sentences of the collection's form, the user's template files, page furniture.

Seed 004 found template text to be the main source of false alarms; a frequency count alone
hides what was copied most widely. Template text is therefore:

1. every sentence of a template file the user supplies, wherever it occurs;
2. sentences the examiner marked (stored in the index: ``store.template_marks``);
3. automatically, only sentences in at least ``template_min_docs`` documents AND at least
   ``template_min_share`` (half) of the collection — the call's form — counted by the index's
   ``sentence_df`` over sentence keys, unless the documents holding them are copies of one
   another beyond them (:func:`copied_keys`: copying, not a form), minus those the examiner
   chose to count;
4. the page furniture a PDF extraction recognised (running headers, footers, page numbers).

A sentence key hashes the sentence's *normalised units*, so white space, punctuation, full-width
forms and case do not make two copies of the form's sentence different.
"""

from __future__ import annotations

import logging
import unicodedata
from typing import Callable, Collection, Iterable, Mapping

import mmh3
import numpy as np

from neardup_gui.core.document import CharSpan
from neardup_gui.core.folding import fold
from neardup_gui.core.units import Units, needs_folding, sentences_in_units, slice_hashes, tokenize, utf8_offsets

log = logging.getLogger(__name__)

MIN_SENTENCE_UNITS = 4  # shorter sentences ("注：", "Yes.") recur by chance, not by form
SENTENCE_KEY_SEED = 0x7470  # fixed: keys are stored in indexes and must never change
# Frequent sentences held by nearly the same documents (Jaccard similarity of the two sets of
# documents at least this) are one text: a form's sentences, or one copied document's.
SAME_DOCUMENTS = 0.8
# Two documents holding a frequent text are copies of one another beyond it when the passages
# they share cover at least this share of their text outside the frequent sentences (see
# copied_keys; measured in docs/quality.md); pairs of its documents asked, at most:
COPIES_ALIKE = 0.5
COPY_PAIRS = 9


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


def sentence_key_spans(text: str, units: Units) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The character starts and ends of the sentences :func:`sentence_keys` keys, and their keys,
    as three arrays."""
    starts, ends, keep, keys = _sentence_keys(text, units)
    return starts[keep], ends[keep], keys


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
    if needs_folding(raw):
        # a disguise or traditional characters (folding.fold works character by character, so
        # the joined tokens fold as each one does); their lengths are counted again
        lowered = fold(raw)
        tokens = lowered.split(_SEPARATOR)[:-1]
        return lowered, np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
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


def _shuffled(doc_id: int) -> int:
    return (doc_id * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF  # (Fibonacci hashing: a fixed shuffle)


def copied_keys(holders: Mapping[int, Collection[int]], alike: Callable[[int, int], bool], *,
                same: float = SAME_DOCUMENTS, pairs: int | None = None) -> frozenset[int]:
    """Of the frequent sentences the automatic rule would take out (``holders``: each key → the
    documents holding it), those that are copying: the documents holding them are copies of one
    another beyond that text.

    Sentences held by nearly the same documents (Jaccard ≥ ``same``) are one text: the parts of
    a form, or the unedited sentences of a copied document. For each such text, up to ``pairs``
    pairs of its documents (all pairs when fewer; else neighbours in a fixed shuffle) are asked
    ``alike(a, b)``: do the two documents share their text outside the frequent sentences too
    (``Collection.copied_keys``: the passages they share cover at least ``COPIES_ALIKE`` of it, or
    neither holds anything else)? When most pairs are alike, the text's sentences are copying.

    Why: a frequency count cannot tell a form from a document copied by many, and the more widely
    a text was copied the more it matters. In a small folder half the collection is a handful of
    documents: five copies of one proposal among eight files were each wholly "template" before,
    and not one of their ten pairs was reported; six lightly edited copies of a Chinese section
    among eleven files lost a third of their similarity (0.76 → 0.53). What tells a form from a
    copy is what else its documents share: applicants fill a form with text of their own,
    unrelated to each other's, while copies share their edited sentences too, or nothing else at
    all (byte copies). A text pasted into half a small folder beside writing of each writer's own
    has the shape of a form (a block of the call's text beside each applicant's own: the issue-14
    call of 26) and stays automatic, listed in the common passages with one click to count it.
    """
    wanted = COPY_PAIRS if pairs is None else pairs
    groups: dict[frozenset[int], list[int]] = {}
    for key, docs in holders.items():
        if len(docs) >= 2:
            groups.setdefault(frozenset(docs), []).append(int(key))
    # one text: the groups held by nearly the same documents as its largest group
    texts: list[tuple[frozenset[int], list[int]]] = []
    having: dict[int, list[int]] = {}  # document → the texts whose first group holds it
    for held, keys in sorted(groups.items(), key=lambda g: (-len(g[1]), min(g[1]))):
        # a text held by nearly the same documents holds one of any fifth of them, and more
        probe = sorted(held)[:int((1 - same) * len(held)) + 1]
        for t in sorted({t for d in probe for t in having.get(d, ())}):
            rep, members = texts[t]
            if len(rep & held) >= same * len(rep | held) - 1e-9:
                members.extend(keys)
                break
        else:
            for d in held:
                having.setdefault(d, []).append(len(texts))
            texts.append((held, list(keys)))
    out: list[int] = []
    for held, keys in texts:
        docs = sorted(held)
        if len(docs) * (len(docs) - 1) // 2 <= wanted:
            chosen = [(a, b) for i, a in enumerate(docs) for b in docs[i + 1:]]
        else:
            # neighbours in one fixed shuffle of all documents: not neighbours by name (an
            # applicant's resubmissions), and texts held by overlapping documents ask the same
            # pairs (each pair is compared once)
            shuffled = sorted(docs, key=_shuffled)
            chosen = [(min(a, b), max(a, b)) for a, b in zip(shuffled, shuffled[1:wanted + 1])]
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
