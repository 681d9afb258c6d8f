"""What the index stores and hands out: documents, texts, search rows, and how they are packed."""

from __future__ import annotations

import itertools
import json
import sqlite3
import zlib
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from neardup_gui.core.arrays import distinct, distinct_first_counts, reduce_with_flat_arrays
from neardup_gui.core.flags import Flag

try:  # the search rows' JSON in C (core/_units.c); json.dumps below otherwise
    from neardup_gui.core import _units as _compiled
except ImportError:  # pragma: no cover - a build without a C compiler
    _compiled = None


class DocumentGone(KeyError):
    """A document no longer in the index: removed from the folder, or changed (a changed document
    is indexed again under a new id) after a result naming it — a check shown, a screening, a
    report being written — was made. A ``KeyError`` (its callers' ``except KeyError`` still hold)
    that says so in words: before, the examiner was shown a bare number ("67")."""

    def __init__(self, doc_id: int) -> None:
        super().__init__(doc_id)
        self.doc_id = doc_id

    def __str__(self) -> str:
        return (f"document {self.doc_id} is no longer in the collection: it was removed or changed "
                "after this result was made")


class IndexProblem(Exception):
    """An index file that cannot be used, with a sentence the examiner can act on.

    ``kind`` is one of ``corrupt``, ``too-new``, ``not-an-index``, ``busy``, ``disk-full``,
    ``read-only``, ``io``.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def to_signed(values: np.ndarray) -> list[int]:
    """uint64 → the signed 64-bit integers SQLite stores (same bits)."""
    return np.asarray(values, dtype=np.uint64).view(np.int64).tolist()


def to_unsigned(value: int) -> int:
    return value & 0xFFFF_FFFF_FFFF_FFFF


def compress_text(text: str) -> bytes:
    """A text as the texts table stores it (zlib of its UTF-8); an extraction worker compresses
    its document's text so that the writer does not. Level 3: on 2,375 real copyright files
    (41.7 MB of text) 0.29 s of CPU for 10.9 MB instead of level 6's 0.57 s for 9.9 MB
    (docs/speed.md); any level decompresses to the same text."""
    if not text:  # (most documents' margins: zlib's set-up alone takes about 10 µs a call)
        return _EMPTY_TEXT
    return zlib.compress(text.encode("utf-8"), _TEXT_LEVEL)


_TEXT_LEVEL = 3
_EMPTY_TEXT = zlib.compress(b"", _TEXT_LEVEL)


def pack_bag(counts: np.ndarray) -> bytes:
    """A bag of units (:func:`~neardup_gui.core.compare.unit_bag`) as the bags table stores it:
    zlib of its counts as little-endian uint16, a count beyond stored as the largest (2,048
    bytes before zlib; about 480 after, on real files)."""
    return zlib.compress(np.minimum(counts, 0xFFFF).astype("<u2").tobytes(), 1)


def unpack_bag(blob: bytes) -> np.ndarray:
    """:func:`pack_bag` undone (uint16 counts)."""
    return np.frombuffer(zlib.decompress(blob), dtype="<u2")


def pack_spans(spans: Sequence[tuple[int, int]]) -> bytes:
    """Paragraph or furniture spans as the texts table stores them (little-endian int64 pairs)."""
    return _pack_spans(spans)


def _pack_spans(spans: Sequence[tuple[int, int]]) -> bytes:
    # (the pairs' numbers streamed: half the time of np.asarray on a tuple of pairs)
    if not spans:  # (most documents' furniture and hidden spans)
        return b""
    return np.fromiter(itertools.chain.from_iterable(spans), dtype="<i8", count=2 * len(spans)).tobytes()


def _unpack_spans(blob: bytes) -> tuple[tuple[int, int], ...]:
    return tuple(map(tuple, np.frombuffer(blob, dtype="<i8").reshape(-1, 2).tolist()))


@dataclass(frozen=True)
class StoredDocument:
    """A row of the documents table."""

    id: int
    rel: str
    path: str
    size: int
    mtime_ns: int
    sha256: str
    status: str
    code: str
    reason: str
    format: str
    units: int
    meta: dict
    warnings: tuple[str, ...] = ()
    flags: tuple[Flag, ...] = ()  # integrity flags (core/flags.py)
    indexed_at: float = 0.0  # when the indexing run that read it started


@dataclass(frozen=True, eq=False)
class SearchRows:
    """A document's search rows as :meth:`Store.write_fingerprints` inserts them: the distinct
    keys of each table as a JSON array of signed 64-bit integers (made by :func:`search_rows`
    where the document is fingerprinted, so that the one writer does not)."""

    lsh_keys: str
    anchors: str
    sentence_fps: str
    sentences: str
    sentence_keys: np.ndarray  # the sentences' distinct keys (int64), for sentence_df
    grams: str = "[]"

    __reduce__ = reduce_with_flat_arrays  # (sent by the extraction workers)


def search_rows(lsh_keys: np.ndarray, anchors: np.ndarray, sentence_fps: np.ndarray,
                sentence_hashes: np.ndarray, grams: np.ndarray | None = None) -> SearchRows:
    """The search rows of one document's fingerprints (0 marks an empty sentence bucket)."""
    keys = distinct(np.asarray(sentence_hashes, dtype=np.int64))
    grams = np.zeros(0, dtype=np.uint64) if grams is None else grams
    if _compiled is not None and all(isinstance(a, np.ndarray) and a.dtype == np.uint64
                                     for a in (lsh_keys, anchors, sentence_fps, grams)):
        # the same JSON in C (core/_units.c: json_keys), each key sorted and formatted without a
        # Python int: 3,000 copy-heavy documents, 0.23 s → 0.05 s of the extraction workers' CPU
        return SearchRows(
            lsh_keys=_compiled.json_keys(np.ascontiguousarray(lsh_keys), True, False),
            anchors=_compiled.json_keys(np.ascontiguousarray(anchors), True, False),
            sentence_fps=_compiled.json_keys(np.ascontiguousarray(sentence_fps), True, True),
            sentences=_compiled.json_keys(keys, False, False),
            sentence_keys=keys,
            grams=_compiled.json_keys(np.ascontiguousarray(grams), True, False),
        )
    fps = distinct(sentence_fps[sentence_fps != 0]) if len(sentence_fps) else sentence_fps
    return SearchRows(
        lsh_keys=json.dumps(to_signed(distinct(lsh_keys))),
        anchors=json.dumps(to_signed(distinct(anchors))),
        sentence_fps=json.dumps(to_signed(fps)),
        sentences=json.dumps(keys.tolist()),
        sentence_keys=keys,
        grams=json.dumps(to_signed(distinct(grams))) if len(grams) else "[]",
    )


class SentenceCounts:
    """The sentence keys of documents written in one transaction, waiting to be counted into
    ``sentence_df`` (:meth:`Store.count_sentences`): one statement per distinct count for the
    whole group instead of one upsert per key per document (on a copy-heavy collection the same
    sentences recur in hundreds of documents)."""

    def __init__(self) -> None:
        self._keys: list[np.ndarray] = []

    def add(self, keys: np.ndarray) -> None:
        """One document's distinct sentence keys (int64)."""
        if len(keys):
            self._keys.append(keys)

    def take(self) -> tuple[np.ndarray, np.ndarray]:
        """(distinct keys, number of documents holding each), and empty again."""
        if not self._keys:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        keys, _, counts = distinct_first_counts(np.concatenate(self._keys))
        self._keys = []
        return keys, counts


@dataclass(frozen=True)
class StoredText:
    text: str
    paragraphs: tuple[tuple[int, int], ...]
    furniture: tuple[tuple[int, int], ...]
    margins: str
    hidden: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class ComparedText:
    """What a comparison needs of a stored text: its body, its furniture and its hidden spans."""

    text: str
    furniture: tuple[tuple[int, int], ...]
    hidden: tuple[tuple[int, int], ...]


def _forget_sentences(conn: sqlite3.Connection, doc_id: int) -> None:
    """Take a document's sentences out of the document frequencies (before its rows go)."""
    conn.execute("UPDATE sentence_df SET docs = docs - 1 WHERE hash IN (SELECT hash FROM sentences WHERE doc_id = ?)",
                 (doc_id,))
    conn.execute("DELETE FROM sentence_df WHERE docs <= 0 AND hash IN (SELECT hash FROM sentences WHERE doc_id = ?)",
                 (doc_id,))
