"""The verified-pairs cache: the pairs found by the collection-wide pass (``pairs``) and the
documents it has paired (``paired``).

:class:`neardup_gui.core.collection.Collection` decides when the cache is used, kept or made
again; every SQL statement about these two tables outside the store's own is here.
"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Iterator, Sequence

import numpy as np

if TYPE_CHECKING:
    from neardup_gui.core.pairpass import DocumentPairs
    from neardup_gui.core.store import Store

# how pairs are ranked and cut: by similarity, or by the larger of the two containments
BY = ("similarity", "containment")


def at_least(store: Store, cut: float, by: str = "similarity") -> list[tuple[int, int, float, float, float, int]]:
    """Every cached pair (a, b, similarity, containment_a, containment_b, common) whose
    similarity (``by="similarity"``) or larger containment (``by="containment"``) reaches ``cut``."""
    if by == "similarity":
        return store.conn.execute(
            "SELECT a, b, similarity, containment_a, containment_b, common FROM pairs WHERE similarity >= ?",
            (cut,)).fetchall()
    if by == "containment":
        return store.conn.execute(
            "SELECT a, b, similarity, containment_a, containment_b, common FROM pairs "
            "WHERE max(containment_a, containment_b) >= ?", (cut,)).fetchall()
    raise ValueError(f"pairs are cut by one of {', '.join(BY)}, not {by!r}")


def similarities_touching(store: Store, doc_ids: Sequence[int]) -> Iterator[tuple[int, int, float]]:
    """(a, b, similarity) of every cached pair with a member among ``doc_ids`` (at most 400)."""
    marks = ",".join("?" * len(doc_ids))
    return store.conn.execute(f"SELECT a, b, similarity FROM pairs WHERE a IN ({marks}) OR b IN ({marks})",
                              list(doc_ids) + list(doc_ids))


def unpaired_ids(store: Store) -> np.ndarray:
    """The ids of the indexed documents the pass has not paired yet, in order (int64)."""
    return np.fromiter((r[0] for r in store.conn.execute(
        "SELECT id FROM documents WHERE status = 'indexed' AND id NOT IN (SELECT doc_id FROM paired) ORDER BY id")),
        dtype=np.int64)


def forget_all(conn: sqlite3.Connection) -> None:
    """Empty the cache: every pair, every document to be paired again (in the caller's transaction)."""
    conn.execute("DELETE FROM pairs")
    conn.execute("DELETE FROM paired")


def write_found(store: Store, batch: list[DocumentPairs]) -> None:
    """Store the verified pairs of a batch of documents, mark those documents paired and keep
    their template share and exclusions: one transaction. A document removed meanwhile (by
    another window) is left out, and so is each pair with it."""
    conn = store.conn
    with store.transaction():
        ids = sorted({d for r in batch for d in [r.doc_id, *(f.other for f in r.found)]})
        alive: set[int] = set()
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            alive.update(r[0] for r in conn.execute(
                f"SELECT id FROM documents WHERE id IN ({','.join('?' * len(chunk))})", chunk))
        for r in batch:
            doc_id = r.doc_id
            if doc_id not in alive:
                continue
            for f in r.found:
                if f.other not in alive:
                    continue
                lo, hi = (doc_id, f.other) if doc_id < f.other else (f.other, doc_id)
                ca, cb = (f.containment_a, f.containment_b) if lo == doc_id else (f.containment_b, f.containment_a)
                conn.execute("INSERT OR REPLACE INTO pairs VALUES (?, ?, ?, ?, ?, ?)",
                             (lo, hi, f.similarity, ca, cb, f.common_units))
            conn.execute("INSERT OR IGNORE INTO paired (doc_id) VALUES (?)", (doc_id,))
            conn.execute("UPDATE documents SET meta = json_set(meta, '$.template_share', ?, '$.exclusions', json(?)) "
                         "WHERE id = ?", (r.template_share, json.dumps(r.exclusions.as_dict()), doc_id))
