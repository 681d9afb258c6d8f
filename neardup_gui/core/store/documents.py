"""Questions about the documents table the rest of the app asks in words: which ids a file has,
what a document's content is, the rows a task reads whole; and the two updates of a document's
place on disk that keep its id (a file touched, a file moved).

A function taking ``conn`` runs inside the caller's transaction; one taking ``store`` reads on
the store's connection as it is.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:
    from neardup_gui.core.store import Store, StoredDocument


def ids_at(store: Store, path: str) -> set[int]:
    """The ids of the documents indexed from the file at ``path`` (absolute)."""
    return {r[0] for r in store.conn.execute("SELECT id FROM documents WHERE path = ?", (path,))}


def indexed_ids(store: Store) -> set[int]:
    """The ids of every document indexed (not skipped)."""
    return {r[0] for r in store.conn.execute("SELECT id FROM documents WHERE status = 'indexed'")}


def sha256_of(store: Store, doc_id: int) -> str:
    """The sha256 of a document's content; '' when it is not in the index."""
    row = store.conn.execute("SELECT sha256 FROM documents WHERE id = ?", (doc_id,)).fetchone()
    return row[0] if row else ""


def count_and_last_id(store: Store) -> tuple[int, int]:
    """How many documents there are and the highest id given (0 for none): any addition or
    removal changes the pair."""
    return store.conn.execute("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM documents").fetchone()


def names_and_contents(store: Store) -> list[tuple[str, str]]:
    """Every document's (rel, sha256), by rel."""
    return store.conn.execute("SELECT rel, sha256 FROM documents ORDER BY rel").fetchall()


def noted(store: Store) -> list[StoredDocument]:
    """The documents the end of an indexing run names, by rel: the skipped ones and those with
    warnings or integrity flags (every other row holds '[]' in both). Only these are read whole
    and their JSON decoded (3,000 documents without any: 1 ms instead of the 20-45 ms of
    ``Store.documents``)."""
    return [store._doc(r) for r in store.conn.execute(
        f"SELECT {store._DOC_COLS} FROM documents WHERE status = 'skipped' OR warnings != '[]' OR flags != '[]'"
        " ORDER BY rel")]


def fingerprinted_otherwise(store: Store, params_json: str) -> list[int]:
    """The ids of the documents whose fingerprints were made with other parameters than ``params_json``."""
    return [r[0] for r in store.conn.execute("SELECT doc_id FROM fingerprints WHERE params != ?", (params_json,))]


# --- rows a task reads whole: each an iterator over the cursor, read as the caller goes -----------


def indexed_contents(store: Store) -> Iterator[tuple[int, str, str]]:
    """(id, sha256, format) of every indexed document."""
    return store.conn.execute("SELECT id, sha256, format FROM documents WHERE status = 'indexed'")


def names_ids_units(store: Store) -> Iterator[tuple[str, int, int | None]]:
    """(rel, id, units) of every document."""
    return store.conn.execute("SELECT rel, id, units FROM documents")


def ids_units_contents(store: Store) -> Iterator[tuple[int, int | None, str]]:
    """(id, units, sha256) of every document."""
    return store.conn.execute("SELECT id, units, sha256 FROM documents")


def furniture_lengths(store: Store) -> Iterator[tuple[int, int | None]]:
    """(doc_id, length of its stored furniture) of every stored text."""
    return store.conn.execute("SELECT doc_id, length(furniture) FROM texts")


# --- a document's place on disk, inside the caller's transaction ----------------------------------


def set_file_stamp(conn: sqlite3.Connection, doc_id: int, mtime_ns: int, size: int) -> None:
    """A file touched but not changed (the same sha256): its new time and size, the same document."""
    conn.execute("UPDATE documents SET mtime_ns = ?, size = ? WHERE id = ?", (mtime_ns, size, doc_id))


def set_place(conn: sqlite3.Connection, doc_id: int, rel: str, path: str, mtime_ns: int) -> None:
    """A file moved (the same sha256 at another name): its new place, the same document."""
    conn.execute("UPDATE documents SET rel = ?, path = ?, mtime_ns = ? WHERE id = ?", (rel, path, mtime_ns, doc_id))
