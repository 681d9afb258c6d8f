"""Reading the search rows whole (the candidate search's postings in memory) and asking whether
a search structure is kept.

A function taking ``conn`` runs in the caller's read transaction, so that several reads see the
same moment; the rows come back as the cursor's iterator (no per-row work is added here).
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Iterator, Sequence

if TYPE_CHECKING:
    from neardup_gui.core.store import Store


def row_count(conn: sqlite3.Connection, table: str) -> int:
    """How many rows a search table (``anchors``, ``lsh_keys``, …) holds."""
    return conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


def rows_by_value(conn: sqlite3.Connection, table: str, column: str) -> Iterator[tuple[int, int]]:
    """Every (value, doc_id) of a search table, by value."""
    return conn.execute(f"SELECT {column}, doc_id FROM {table} ORDER BY {column}")


def fingerprint_arrays(conn: sqlite3.Connection, column: str) -> Iterator[tuple[int, bytes]]:
    """Every document's (doc_id, packed array) of one column of the fingerprints table."""
    return conn.execute(f"SELECT doc_id, {column} FROM fingerprints")


def anchor_counts(store: Store, doc_ids: Sequence[int]) -> list[tuple[int, int]]:
    """(doc_id, how many anchors it has) for those of ``doc_ids`` (at most 500) that have any."""
    return store.conn.execute(
        f"SELECT doc_id, COUNT(*) FROM anchors WHERE doc_id IN ({','.join('?' * len(doc_ids))}) GROUP BY doc_id",
        doc_ids).fetchall()


def has_search_table(store: Store, name: str, params_json: str) -> bool:
    """True when a search structure ``name`` is kept for these parameters."""
    return store.conn.execute("SELECT 1 FROM search_tables WHERE name = ? AND params = ?",
                              (name, params_json)).fetchone() is not None
