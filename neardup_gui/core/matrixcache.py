"""The similarities the clusters' matrices computed, kept in the index between calls."""

from __future__ import annotations

import logging
import sqlite3

import numpy as np

from neardup_gui.core.store import IndexProblem, Store
from neardup_gui.core.store import documents as doc_rows

log = logging.getLogger(__name__)


class MatrixCache:
    """The similarities the clusters' matrices computed (pairs of members below the pairs cache's
    floor), kept in the index between calls: at 10,000 copy-heavy documents they are 27,622
    comparisons, 10–12 s at every opening and refresh of the Duplicates tab, for the same figures.

    One row of ``search_tables`` (no change of schema), stamped with the verification key of the
    pairs cache (the comparison's settings, the fingerprint parameters, the passages' rules and
    every template key, the examiner's marks included): a record with another key is not read.
    Under one key a pair's value depends on its two texts only, and a document's text never
    changes under its id (a changed file is indexed again under a new id, and ids are never
    reused), so a value stays right for as long as its documents exist: adding, changing or
    removing documents leaves the others' values to be read, not compared again. A change of
    template changes the key: the pairs cache then carries over the values of the documents the
    change does not touch (:meth:`carry`, from ``Collection.pass_spec``). Values of documents
    gone are dropped when the record is saved again.
    """

    NAME = "cluster_matrices"
    _ROW = np.dtype([("a", "<i8"), ("b", "<i8"), ("similarity", "<f8")])

    def __init__(self, key: str, values: dict[tuple[int, int], float] | None = None) -> None:
        self.key = key
        self.values = values or {}
        self.added = 0

    @classmethod
    def load(cls, store: Store, key: str) -> "MatrixCache":
        values: dict[tuple[int, int], float] = {}
        data = store.load_search_table(cls.NAME, key)
        if data is not None and len(data) % cls._ROW.itemsize == 0:
            rows = np.frombuffer(bytes(data), dtype=cls._ROW)
            values = dict(zip(zip(rows["a"].tolist(), rows["b"].tolist()), rows["similarity"].tolist()))
        elif data is not None:  # (a cache, never the truth: compared again)
            log.warning("the stored matrices of the clusters are damaged (%d bytes); compared again", len(data))
        return cls(key, values)

    @classmethod
    def carry(cls, store: Store, old_key: str | None, new_key: str, changed: set[int]) -> None:
        """The values kept under ``old_key`` carried over to ``new_key``, but those of the
        ``changed`` documents (the pairs cache's template changed for them alone, see
        Collection.pass_spec); inside the caller's transaction."""
        if old_key is None:
            return
        kept = cls.load(store, old_key)
        if not kept.values:
            return
        rows = np.array([(a, b, s) for (a, b), s in kept.values.items() if a not in changed and b not in changed],
                        dtype=cls._ROW)
        store.save_search_table(cls.NAME, new_key, rows.tobytes())

    def get(self, lo: int, hi: int) -> float | None:
        return self.values.get((lo, hi))

    def put(self, lo: int, hi: int, similarity: float) -> None:
        self.values[(lo, hi)] = similarity
        self.added += 1

    def save(self, store: Store) -> bool:
        """Store the values of documents still indexed when some were added; True when stored.
        An index that cannot be written now (read-only, another writer holding it) only loses
        the saving."""
        if not self.added:
            return False
        try:
            alive = doc_rows.indexed_ids(store)
            rows = np.array([(a, b, s) for (a, b), s in self.values.items() if a in alive and b in alive],
                            dtype=self._ROW)
            store.save_search_table(self.NAME, self.key, rows.tobytes())
        except (sqlite3.Error, IndexProblem) as exc:
            log.info("the clusters' matrices were not kept in the index: %s", exc)
            return False
        self.added = 0
        return True
