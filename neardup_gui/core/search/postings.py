"""Inverted indexes from hash to documents: winnowing anchors and sentence fingerprints.

- :class:`AnchorIndex` answers "which stored documents share at least s anchors with this one":
  the partial-copy search (a section copied into an otherwise different proposal shares every
  anchor of that section, see ``fingerprints.anchors``).
- :class:`SentenceIndex` answers Huang, Wang and Li's "perhaps-similar": documents sharing at least one
  sentence-bucket fingerprint (0, an empty bucket, never matches).

Both keep a sorted (hash, doc id) posting array; additions wait in a pending part and removals
are tombstones until a rebuild, as in the Hamming strategies. Exact: every stored document with
a common hash is returned, with the number of distinct hashes it shares.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from neardup_gui.core.arrays import distinct
from neardup_gui.core.search.base import _MIN_PENDING

log = logging.getLogger(__name__)


def _flatten(doc_ids: np.ndarray, hash_lists: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    ids = np.asarray(doc_ids, dtype=np.int64).reshape(-1)
    if len(ids) != len(hash_lists):
        raise ValueError(f"{len(ids)} doc ids for {len(hash_lists)} hash lists")
    if len(distinct(ids)) != len(ids):
        raise ValueError("doc ids must be unique")
    uniq = [distinct(np.asarray(h, dtype=np.uint64)) for h in hash_lists]
    uniq = [h[h != 0] for h in uniq]  # 0 is "no value" (an empty sentence bucket)
    lengths = np.array([len(h) for h in uniq], dtype=np.int64)
    keys = np.concatenate(uniq) if uniq else np.empty(0, dtype=np.uint64)
    return keys.astype(np.uint64), np.repeat(ids, lengths)


class PostingIndex:
    """hash → doc ids, with shared-hash counts per candidate."""

    name: ClassVar[str] = "postings"

    def __init__(self) -> None:
        self._keys = np.empty(0, dtype=np.uint64)
        self._docs = np.empty(0, dtype=np.int64)
        self._pending_keys = np.empty(0, dtype=np.uint64)
        self._pending_docs = np.empty(0, dtype=np.int64)
        self._removed = np.empty(0, dtype=np.int64)
        self._all_ids = np.empty(0, dtype=np.int64)  # sorted doc ids of the main part
        self._pending_ids = np.empty(0, dtype=np.int64)

    def build(self, doc_ids: np.ndarray, hash_lists: Sequence[np.ndarray]) -> None:
        """Replace everything with these documents' hashes."""
        keys, docs = _flatten(doc_ids, hash_lists)
        self._set_main(keys, docs, np.sort(np.asarray(doc_ids, dtype=np.int64).reshape(-1)))

    def _set_main(self, keys: np.ndarray, docs: np.ndarray, all_ids: np.ndarray) -> None:
        order = np.lexsort((docs, keys))
        self._keys, self._docs = keys[order], docs[order]
        self._all_ids = all_ids
        self._pending_keys = np.empty(0, dtype=np.uint64)
        self._pending_docs = np.empty(0, dtype=np.int64)
        self._removed = np.empty(0, dtype=np.int64)
        self._pending_ids = np.empty(0, dtype=np.int64)

    def add(self, doc_ids: np.ndarray, hash_lists: Sequence[np.ndarray]) -> None:
        """Add documents; a doc id already stored is replaced."""
        ids = np.asarray(doc_ids, dtype=np.int64).reshape(-1)
        keys, docs = _flatten(ids, hash_lists)
        self.remove(ids)
        self._pending_keys = np.concatenate([self._pending_keys, keys])
        self._pending_docs = np.concatenate([self._pending_docs, docs])
        self._pending_ids = np.union1d(self._pending_ids, ids)
        if len(self._pending_keys) > max(_MIN_PENDING, len(self._keys) // 8):
            self.compact()

    def remove(self, doc_ids: np.ndarray) -> None:
        """Remove documents (unknown ids are ignored)."""
        ids = np.asarray(doc_ids, dtype=np.int64).reshape(-1)
        if len(self._pending_ids):
            keep = ~np.isin(self._pending_docs, ids)
            self._pending_keys, self._pending_docs = self._pending_keys[keep], self._pending_docs[keep]
            self._pending_ids = np.setdiff1d(self._pending_ids, ids)
        gone = ids[np.isin(ids, self._all_ids)]
        if len(gone):
            self._removed = np.union1d(self._removed, gone)
            if len(self._removed) > max(64, len(self._all_ids) // 4):
                self.compact()

    def compact(self) -> None:
        """Fold pending postings and tombstones into the sorted main part."""
        live = ~np.isin(self._docs, self._removed)
        keys = np.concatenate([self._keys[live], self._pending_keys])
        docs = np.concatenate([self._docs[live], self._pending_docs])
        all_ids = np.union1d(np.setdiff1d(self._all_ids, self._removed), self._pending_ids)
        self._set_main(keys, docs, all_ids)

    def __len__(self) -> int:
        return len(self._all_ids) - len(self._removed) + len(self._pending_ids)

    def candidates(
        self, query_hashes: np.ndarray, min_shared: int = 1, max_docs_per_hash: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Docs sharing ≥ ``min_shared`` distinct hashes: (doc ids, shared counts), most first.

        ``max_docs_per_hash`` skips hashes stored for more documents than that (template text
        found everywhere says nothing about copying).
        """
        q = distinct(np.asarray(query_hashes, dtype=np.uint64))
        q = q[q != 0]
        lo = np.searchsorted(self._keys, q, side="left")
        hi = np.searchsorted(self._keys, q, side="right")
        lengths = hi - lo
        if max_docs_per_hash is not None:
            lengths = np.where(lengths > max_docs_per_hash, 0, lengths)
        total = int(lengths.sum())
        # gather every posting range in one vector op: start of each range repeated, plus a ramp
        ramp = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        docs = self._docs[np.repeat(lo, lengths) + ramp]
        if len(self._removed):  # stale postings of removed (or since replaced) documents
            docs = docs[~np.isin(docs, self._removed)]
        if len(self._pending_keys):
            docs = np.concatenate([docs, self._pending_docs[np.isin(self._pending_keys, q)]])
        ids, counts = np.unique(docs, return_counts=True)
        keep = counts >= min_shared
        ids, counts = ids[keep], counts[keep].astype(np.int64)
        order = np.lexsort((ids, -counts))
        return ids[order], counts[order]

    def state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        self.compact()
        return {}, {"keys": self._keys, "docs": self._docs, "all_ids": self._all_ids}

    @classmethod
    def from_state(cls, params: dict[str, Any], arrays: dict[str, np.ndarray]) -> "PostingIndex":
        obj = cls()
        obj._keys, obj._docs, obj._all_ids = arrays["keys"], arrays["docs"], arrays["all_ids"]
        return obj


class AnchorIndex(PostingIndex):
    """Winnowing anchors → documents: the partial-copy candidate search."""

    name: ClassVar[str] = "anchors"


class SentenceIndex(PostingIndex):
    """The sentence-bucket fingerprints of Huang, Wang and Li → documents."""

    name: ClassVar[str] = "sentences"

    def perhaps_similar(self, sentence_fps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Docs sharing at least one non-empty bucket fingerprint, with how many they share."""
        return self.candidates(sentence_fps, min_shared=1)
