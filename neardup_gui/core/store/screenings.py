"""The screenings of calls kept in the index: their list, each submission's row and its sources.

Every SQL statement about the tables ``screenings``, ``screening_rows``, ``screening_sources``
and ``source_exclusions`` that :mod:`neardup_gui.core.screening` runs is here; that module gives
the rows their meaning (it packs and unpacks them) and this one reads and writes them as tuples in
the column orders below.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:
    from neardup_gui.core.store import Store

# a submission's row as read and written: these columns, in this order (then marks, screening_id)
ROW_COLS = ("rel, path, size, mtime_ns, sha256, batch_id, status, reason, warnings, units, copied, copied_overall, "
            "copied_without_quotes, largest, largest_source, sources, template_share, quoted_share, flags, "
            "copied_from_own, copied_from_others, set_apart, resubmission_of, authors")
# a screening as read: these columns, in this order
INFO_COLS = "id, name, folder, state, created, updated, flag"


# --- reading -----------------------------------------------------------------------------------


def names_and_folders(store: Store) -> dict[str, str]:
    """Every screening's name with the folder it screened."""
    return dict(store.conn.execute("SELECT name, folder FROM screenings").fetchall())


def row_count(store: Store, screening_id: int) -> int:
    """How many submissions' rows a screening has."""
    return store.conn.execute("SELECT COUNT(*) FROM screening_rows WHERE screening_id = ?", (screening_id,)).fetchone()[0]


def all_screenings(store: Store) -> list[tuple]:
    """Every screening (:data:`INFO_COLS`), most recently updated first."""
    return store.conn.execute(f"SELECT {INFO_COLS} FROM screenings ORDER BY updated DESC, id DESC").fetchall()


def screening_named(store: Store, screening: str | int) -> tuple | None:
    """The screening (:data:`INFO_COLS`) of this id (an int) or name (a str); None if there is none."""
    col = "id" if isinstance(screening, int) else "name"
    return store.conn.execute(f"SELECT {INFO_COLS} FROM screenings WHERE {col} = ?", (screening,)).fetchone()


def rows_of(store: Store, screening_id: int) -> list[tuple]:
    """Every submission's row of a screening (:data:`ROW_COLS`), in no particular order."""
    return store.conn.execute(f"SELECT {ROW_COLS} FROM screening_rows WHERE screening_id = ?",
                              (screening_id,)).fetchall()


def row_with_marks(store: Store, screening_id: int, rel: str) -> tuple | None:
    """One submission's row (:data:`ROW_COLS`, then its packed marks); None if there is none."""
    return store.conn.execute(f"SELECT {ROW_COLS}, marks FROM screening_rows WHERE screening_id = ? AND rel = ?",
                              (screening_id, rel)).fetchone()


def sources_of(store: Store, screening_id: int, rel: str) -> list[tuple]:
    """A submission's kept sources by rank: (rank, kind, doc_id, path, name, similarity,
    containment, source_containment, common, units_a, units_b, spans, passages, indexed_at,
    sha256, authors)."""
    return store.conn.execute(
        "SELECT rank, kind, doc_id, path, name, similarity, containment, source_containment, common, units_a, "
        "units_b, spans, passages, indexed_at, sha256, authors FROM screening_sources "
        "WHERE screening_id = ? AND rel = ? ORDER BY rank", (screening_id, rel)).fetchall()


def excluded_source_paths(store: Store, sha256: str) -> set[str]:
    """The source paths excluded (before decisions, by path) for the submission with this sha256."""
    return {r[0] for r in store.conn.execute(
        "SELECT source_path FROM source_exclusions WHERE submission_sha256 = ?", (sha256,))}


def created_at(store: Store, screening_id: int) -> float | None:
    """When the screening of this id was made; None if there is none."""
    row = store.conn.execute("SELECT created FROM screenings WHERE id = ?", (screening_id,)).fetchone()
    return None if row is None else row[0]


def run_key(store: Store, screening_id: int) -> str | None:
    """What the screening's rows were computed from (None before a first run)."""
    return store.conn.execute("SELECT run_key FROM screenings WHERE id = ?", (screening_id,)).fetchone()[0]


def checked_rels(store: Store, screening_id: int) -> set[str]:
    """The submissions of a screening that have a result (a row of a scan problem, batch_id 0, has none)."""
    return {r[0] for r in store.conn.execute(
        "SELECT rel FROM screening_rows WHERE screening_id = ? AND batch_id != 0", (screening_id,))}


def sha256_at(store: Store, screening_id: int, path: str) -> str:
    """The sha256 of the submission at ``path`` in a screening; '' when there is none."""
    r = store.conn.execute("SELECT sha256 FROM screening_rows WHERE screening_id = ? AND path = ?",
                           (screening_id, path)).fetchone()
    return r[0] if r else ""


# --- writing -----------------------------------------------------------------------------------


def delete(store: Store, screening_id: int, others_key: str) -> None:
    """Forget a screening's rows, sources, itself and its meta entry ``others_key``: one transaction."""
    with store.transaction() as conn:
        conn.execute("DELETE FROM screening_sources WHERE screening_id = ?", (screening_id,))
        conn.execute("DELETE FROM screening_rows WHERE screening_id = ?", (screening_id,))
        conn.execute("DELETE FROM screenings WHERE id = ?", (screening_id,))
        conn.execute("DELETE FROM meta WHERE key = ?", (others_key,))


def open_running(store: Store, name: str, folder: str, flag: float, settings_json: str) -> None:
    """Mark the screening ``name`` running over ``folder`` (made if there is none; its rows and
    sources forgotten when it screened another folder before): one transaction."""
    now = time.time()
    with store.transaction() as conn:
        r = conn.execute("SELECT id, folder FROM screenings WHERE name = ?", (name,)).fetchone()
        if r is None:
            conn.execute("INSERT INTO screenings (name, folder, state, created, updated, flag, settings) "
                         "VALUES (?, ?, 'running', ?, ?, ?, ?)",
                         (name, folder, now, now, flag, settings_json))
        else:
            if r[1] != folder:  # the same name for another folder: a new call under an old name
                conn.execute("DELETE FROM screening_sources WHERE screening_id = ?", (r[0],))
                conn.execute("DELETE FROM screening_rows WHERE screening_id = ?", (r[0],))
            conn.execute("UPDATE screenings SET folder = ?, state = 'running', updated = ?, flag = ?, settings = ? "
                         "WHERE id = ?", (folder, now, flag, settings_json, r[0]))


def start_over(store: Store, screening_id: int, new_run_key: str) -> None:
    """Forget every row and source of a screening and stamp it with ``new_run_key``: one transaction."""
    with store.transaction() as conn:
        conn.execute("DELETE FROM screening_sources WHERE screening_id = ?", (screening_id,))
        conn.execute("DELETE FROM screening_rows WHERE screening_id = ?", (screening_id,))
        conn.execute("UPDATE screenings SET run_key = ? WHERE id = ?", (new_run_key, screening_id))


def keep_only(store: Store, screening_id: int, keep: set[str]) -> None:
    """Forget the rows and sources of the submissions not in ``keep`` (files that left the folder): one transaction."""
    with store.transaction() as conn:
        for (rel,) in conn.execute("SELECT rel FROM screening_rows WHERE screening_id = ?", (screening_id,)).fetchall():
            if rel not in keep:
                conn.execute("DELETE FROM screening_sources WHERE screening_id = ? AND rel = ?", (screening_id, rel))
                conn.execute("DELETE FROM screening_rows WHERE screening_id = ? AND rel = ?", (screening_id, rel))


def mark_done(store: Store, screening_id: int) -> None:
    with store.transaction() as conn:
        conn.execute("UPDATE screenings SET state = 'done', updated = ? WHERE id = ?", (time.time(), screening_id))


def write_row(store: Store, screening_id: int, row: Sequence, marks: bytes, sources: Iterable[Sequence]) -> None:
    """One submission's row (:data:`ROW_COLS`) and its sources (each: rank, kind, doc_id, path,
    name, similarity, containment, source_containment, common, units_a, units_b, spans, passages,
    indexed_at, sha256, authors): one transaction, so a kill leaves it whole or absent."""
    with store.transaction() as conn:
        conn.execute(f"INSERT OR REPLACE INTO screening_rows ({ROW_COLS}, marks, screening_id) "
                     f"VALUES ({','.join('?' * 26)})", (*row, marks, screening_id))
        conn.execute("DELETE FROM screening_sources WHERE screening_id = ? AND rel = ?", (screening_id, row[0]))
        conn.executemany(
            "INSERT INTO screening_sources (screening_id, rel, rank, kind, doc_id, path, name, similarity, containment, "
            "source_containment, common, units_a, units_b, spans, passages, indexed_at, sha256, authors) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(screening_id, row[0], *s) for s in sources])
        conn.execute("UPDATE screenings SET updated = ? WHERE id = ?", (time.time(), screening_id))


def set_figures(store: Store, screening_id: int, rel: str, figures: Sequence) -> None:
    """A submission's figures made again: (copied, copied_overall, copied_without_quotes, largest,
    largest_source, sources, template_share, quoted_share, copied_from_own, copied_from_others,
    set_apart, resubmission_of), one transaction."""
    with store.transaction() as conn:
        conn.execute("UPDATE screening_rows SET copied = ?, copied_overall = ?, copied_without_quotes = ?, largest = ?, "
                     "largest_source = ?, sources = ?, template_share = ?, quoted_share = ?, copied_from_own = ?, "
                     "copied_from_others = ?, set_apart = ?, resubmission_of = ? WHERE screening_id = ? AND rel = ?",
                     (*figures, screening_id, rel))


def set_flag(store: Store, screening_id: int, flag: float) -> None:
    with store.transaction() as conn:
        conn.execute("UPDATE screenings SET flag = ? WHERE id = ?", (float(flag), screening_id))


def forget_exclusion(store: Store, sha256: str, source_path: str) -> None:
    """Take back an exclusion kept before decisions (by path): one transaction."""
    with store.transaction() as conn:
        conn.execute("DELETE FROM source_exclusions WHERE submission_sha256 = ? AND source_path = ?",
                     (sha256, source_path))


def exclude_by_path(store: Store, sha256: str, source_path: str) -> None:
    """Exclude a source known only by its path (kept before its content was): one transaction."""
    with store.transaction() as conn:
        conn.execute("INSERT OR IGNORE INTO source_exclusions (submission_sha256, source_path, created) "
                     "VALUES (?, ?, ?)", (sha256, source_path, time.time()))

