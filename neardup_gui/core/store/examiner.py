"""The examiner's own records in the index: who the applicants of each file are, and the decisions.

Both are keyed by what survives the index's life: a file's path (absolute) and the sha256 of its
content. A refresh and a re-read keep both; a move keeps the content (and :func:`moved` carries
the path along); a changed file keeps its path. A rebuild makes a new index file, so every change
is also written, inside its transaction, to a side file beside the index
(``<index>.examiner.json``), and a new index file at that place starts from it (:func:`restore`).

Every SQL statement about these records is here; :mod:`neardup_gui.core.applicants` and
:mod:`neardup_gui.core.decisions` give them their meaning.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:
    from neardup_gui.core.store import Store

log = logging.getLogger(__name__)

SIDE_SUFFIX = ".examiner.json"
SIDE_SCHEMA = "neardup-examiner/1"
APPLICANT_SOURCES = ("csv", "examiner")
VERDICTS = ("confirmed", "permitted", "not_relevant")
REASONS = ("", "own_work", "cited", "common_knowledge")

# (path, sha256, position, name, source, set_at): one name of a file's applicants; a file the
# examiner says has none is one row with the name ''
ApplicantRow = tuple[str, str, int, str, str, float]
# (sha_lo, sha_hi, path_lo, path_hi, verdict, reason, note, decided_at)
DecisionRow = tuple[str, str, str, str, str, str, str, float]


def create_tables(conn: sqlite3.Connection) -> None:
    """Schema 9's tables (new files and migrated ones alike)."""
    conn.execute("""CREATE TABLE IF NOT EXISTS applicants (
        path TEXT NOT NULL,
        sha256 TEXT NOT NULL DEFAULT '',  -- the content when it was named ('' not read then)
        position INTEGER NOT NULL,
        name TEXT NOT NULL,  -- '' alone: the examiner says the file has no applicant
        source TEXT NOT NULL CHECK (source IN ('csv', 'examiner')),
        set_at REAL NOT NULL,
        PRIMARY KEY (path, position)
    ) WITHOUT ROWID""")
    conn.execute("CREATE INDEX IF NOT EXISTS applicants_sha ON applicants (sha256)")
    conn.execute("""CREATE TABLE IF NOT EXISTS decisions (
        sha_lo TEXT NOT NULL,  -- the two texts' sha256, the smaller first
        sha_hi TEXT NOT NULL,
        path_lo TEXT NOT NULL,  -- their files when decided: a text changed since is found by them
        path_hi TEXT NOT NULL,
        verdict TEXT NOT NULL CHECK (verdict IN ('confirmed', 'permitted', 'not_relevant')),
        reason TEXT NOT NULL DEFAULT '' CHECK (reason IN ('', 'own_work', 'cited', 'common_knowledge')),
        note TEXT NOT NULL DEFAULT '',
        decided_at REAL NOT NULL,
        PRIMARY KEY (sha_lo, sha_hi)
    ) WITHOUT ROWID""")
    conn.execute("CREATE INDEX IF NOT EXISTS decisions_paths ON decisions (path_lo, path_hi)")
    for table, column, definition in (
            ("screening_rows", "copied_from_own", "REAL NOT NULL DEFAULT 0"),
            ("screening_rows", "copied_from_others", "REAL NOT NULL DEFAULT 0"),
            ("screening_rows", "set_apart", "REAL NOT NULL DEFAULT 0"),
            ("screening_rows", "resubmission_of", "TEXT NOT NULL DEFAULT ''"),
            ("screening_rows", "authors", "TEXT NOT NULL DEFAULT '[]'"),
            ("screening_sources", "sha256", "TEXT NOT NULL DEFAULT ''"),
            ("screening_sources", "authors", "TEXT NOT NULL DEFAULT '[]'")):
        if column not in {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")


def migrate(conn: sqlite3.Connection) -> None:
    """Schema 9 over an earlier index: the tables, the figures kept before (no applicant was known:
    everything copied was others' work), each screened source's sha256, and the sources the
    examiner excluded for a submission as decisions "not relevant"."""
    create_tables(conn)
    conn.execute("UPDATE screening_rows SET copied_from_others = copied")
    conn.execute("UPDATE screening_sources SET sha256 = COALESCE((SELECT d.sha256 FROM documents d "
                 "WHERE d.id = screening_sources.doc_id), '') WHERE kind = 'collection'")
    conn.execute("UPDATE screening_sources SET sha256 = COALESCE((SELECT r.sha256 FROM screening_rows r "
                 "WHERE r.screening_id = screening_sources.screening_id AND r.path = screening_sources.path), '') "
                 "WHERE kind = 'submission'")
    for sub_sha, source_path, created in conn.execute(
            "SELECT submission_sha256, source_path, created FROM source_exclusions").fetchall():
        sub = conn.execute("SELECT path FROM screening_rows WHERE sha256 = ? LIMIT 1", (sub_sha,)).fetchone()
        src = conn.execute("SELECT sha256 FROM screening_sources WHERE path = ? AND sha256 != '' LIMIT 1",
                           (source_path,)).fetchone()
        if sub is None or src is None:
            continue  # (kept as it is: still honoured by its path)
        _put_decision(conn, (sub_sha, sub[0]), (src[0], source_path), "not_relevant", "", "", created)
        conn.execute("DELETE FROM source_exclusions WHERE submission_sha256 = ? AND source_path = ?",
                     (sub_sha, source_path))


# --- applicants ----------------------------------------------------------------------------------


def applicant_rows(store: Store) -> list[ApplicantRow]:
    """Every stored name, by path and position."""
    return store.conn.execute(
        "SELECT path, sha256, position, name, source, set_at FROM applicants ORDER BY path, position").fetchall()


def applicants_stamp(store: Store) -> tuple:
    """A value that changes whenever the applicants change (what a cached reading is checked by)."""
    return tuple(store.conn.execute("SELECT COUNT(*), COALESCE(MAX(set_at), 0), "
                                    "COALESCE(SUM(length(name) + position), 0) FROM applicants").fetchone())


def set_applicants(store: Store, assignments: Iterable[tuple[str, str, Sequence[str]]],
                   source: str) -> list[tuple[str, str]]:
    """Name the applicants of files, replacing what was stored for each path: ``(path, sha256,
    names)``; no names stores "no applicant". One transaction; returns the files that changed
    (``(path, sha256)``)."""
    if source not in APPLICANT_SOURCES:
        raise ValueError(f"an applicant's source is one of {APPLICANT_SOURCES}, not {source!r}")
    now = time.time()
    changed: list[tuple[str, str]] = []
    with store.transaction() as conn:
        for path, sha, names in assignments:
            before = conn.execute("SELECT sha256, name, source FROM applicants WHERE path = ? ORDER BY position",
                                  (path,)).fetchall()
            rows = [(sha, n, source) for n in (list(names) or [""])]
            if before == rows:
                continue  # (the same again: its time stays the time it was set)
            conn.execute("DELETE FROM applicants WHERE path = ?", (path,))
            conn.executemany("INSERT INTO applicants (path, sha256, position, name, source, set_at) "
                             "VALUES (?, ?, ?, ?, ?, ?)", [(path, sha, i, n, source, now) for i, (_, n, _) in enumerate(rows)])
            changed.append((path, sha))
        if changed:
            save_side_file(conn, store.path)
    return changed


def forget_applicants(store: Store, paths: Iterable[str]) -> list[str]:
    """Take the examiner's names off files (their file's metadata names them again); returns
    the paths that had some."""
    with store.transaction() as conn:
        gone = [p for p in paths if conn.execute("DELETE FROM applicants WHERE path = ?", (p,)).rowcount > 0]
        if gone:
            save_side_file(conn, store.path)
    return gone


def moved(conn: sqlite3.Connection, store_path: Path, old: str, new: str) -> None:
    """A file the indexer found moved (same content, new path): its applicants and decisions
    follow it (inside the caller's transaction)."""
    n = conn.execute("UPDATE OR REPLACE applicants SET path = ? WHERE path = ?", (new, old)).rowcount
    n += conn.execute("UPDATE decisions SET path_lo = ? WHERE path_lo = ?", (new, old)).rowcount
    n += conn.execute("UPDATE decisions SET path_hi = ? WHERE path_hi = ?", (new, old)).rowcount
    if n:
        save_side_file(conn, store_path)


# --- decisions -----------------------------------------------------------------------------------


def decision_rows(store: Store) -> list[DecisionRow]:
    return store.conn.execute("SELECT sha_lo, sha_hi, path_lo, path_hi, verdict, reason, note, decided_at "
                              "FROM decisions ORDER BY decided_at").fetchall()


def decisions_stamp(store: Store) -> tuple:
    return tuple(store.conn.execute("SELECT COUNT(*), COALESCE(MAX(decided_at), 0) FROM decisions").fetchone())


def put_decision(store: Store, a: tuple[str, str], b: tuple[str, str], verdict: str, reason: str, note: str) -> float:
    """Record the examiner's decision on two texts (``(sha256, path)`` each), replacing any
    earlier one on them, or on their files (a decision taken before a text changed); returns
    its time."""
    now = time.time()
    with store.transaction() as conn:
        _put_decision(conn, a, b, verdict, reason, note, now)
        save_side_file(conn, store.path)
    return now


def _put_decision(conn: sqlite3.Connection, a: tuple[str, str], b: tuple[str, str], verdict: str, reason: str,
                  note: str, at: float) -> None:
    if verdict not in VERDICTS or reason not in REASONS:
        raise ValueError(f"a decision is one of {VERDICTS} (reason one of {REASONS}), not {verdict!r} ({reason!r})")
    if not a[0] or not b[0]:
        raise ValueError("a decision needs both texts' content (a file that was not read has none)")
    (sha_lo, path_lo), (sha_hi, path_hi) = sorted([a, b])
    _delete_decision(conn, a, b)
    conn.execute("INSERT INTO decisions (sha_lo, sha_hi, path_lo, path_hi, verdict, reason, note, decided_at) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (sha_lo, sha_hi, path_lo, path_hi, verdict, reason, note, at))


def remove_decision(store: Store, a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Take back the decision on two texts (or on their files, taken before a text changed)."""
    with store.transaction() as conn:
        done = _delete_decision(conn, a, b)
        if done:
            save_side_file(conn, store.path)
    return done


def _delete_decision(conn: sqlite3.Connection, a: tuple[str, str], b: tuple[str, str]) -> bool:
    lo, hi = sorted([a[0], b[0]])
    n = conn.execute("DELETE FROM decisions WHERE sha_lo = ? AND sha_hi = ?", (lo, hi)).rowcount
    for p, q in ((a[1], b[1]), (b[1], a[1])):
        n += conn.execute("DELETE FROM decisions WHERE path_lo = ? AND path_hi = ?", (p, q)).rowcount
    return n > 0


def known_content(store: Store, path: str) -> str:
    """The sha256 the index knows of a file: a document's, else a screened submission's; ""."""
    found = store.conn.execute("SELECT sha256 FROM documents WHERE path = ? AND sha256 != ''", (path,)).fetchone() \
        or store.conn.execute("SELECT sha256 FROM screening_rows WHERE path = ? AND sha256 != '' "
                              "ORDER BY screening_id DESC LIMIT 1", (path,)).fetchone()
    return found[0] if found else ""


# --- the screenings a change touches ---------------------------------------------------------------


def screened_rows_with(store: Store, shas: Iterable[str], paths: Iterable[str] = ()) -> list[tuple[int, str]]:
    """(screening id, submission rel) of every screened submission whose file, or one of whose
    sources, has one of these contents or paths: the rows whose figures a change of applicants
    or decisions moves."""
    shas, paths = sorted(set(shas) - {""}), sorted(set(paths) - {""})
    found: set[tuple[int, str]] = set()
    for column, values in (("sha256", shas), ("path", paths)):
        for i in range(0, len(values), 400):
            chunk = values[i:i + 400]
            marks = ",".join("?" * len(chunk))
            found.update(store.conn.execute(
                f"SELECT screening_id, rel FROM screening_rows WHERE {column} IN ({marks}) AND status = 'done'", chunk))
            found.update(store.conn.execute(
                f"SELECT DISTINCT screening_id, rel FROM screening_sources WHERE {column} IN ({marks})", chunk))
    return sorted(found)


def screened_sources(store: Store, screening_id: int) -> list[tuple[str, str, str]]:
    """(submission rel, source path, source sha256) of every source kept in a screening."""
    return store.conn.execute("SELECT rel, path, sha256 FROM screening_sources WHERE screening_id = ?",
                              (screening_id,)).fetchall()


def all_screened_rows(store: Store) -> list[tuple[int, str]]:
    return store.conn.execute(
        "SELECT screening_id, rel FROM screening_rows WHERE status = 'done' ORDER BY screening_id, rel").fetchall()


# --- the side file ---------------------------------------------------------------------------------


def side_file(index_path: str | Path) -> Path:
    """Where an index's examiner records are kept beside it (they outlive a rebuild of the index)."""
    index_path = Path(index_path)
    return index_path.with_name(index_path.name + SIDE_SUFFIX)


def save_side_file(conn: sqlite3.Connection, index_path: Path) -> None:
    """Write every applicant and decision to the side file (inside the writing transaction, so
    two writers never leave an older copy last). A side file that cannot be written is said in
    the log; the index keeps the records."""
    data = {
        "schema": SIDE_SCHEMA,
        "applicants": conn.execute("SELECT path, sha256, position, name, source, set_at FROM applicants "
                                   "ORDER BY path, position").fetchall(),
        "decisions": conn.execute("SELECT sha_lo, sha_hi, path_lo, path_hi, verdict, reason, note, decided_at "
                                  "FROM decisions ORDER BY sha_lo, sha_hi").fetchall(),
    }
    target = side_file(index_path)
    tmp = target.with_name(target.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, indent=0)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        log.warning("the examiner's records were not copied to %s (%s); the index keeps them", target, exc)


def restore(conn: sqlite3.Connection, index_path: Path) -> int:
    """Into a new index file: the records of the side file beside it (an index rebuilt, or made
    again at the same place). A side file that cannot be read is set aside under another name,
    never overwritten, and said in the log. Returns how many records came back."""
    source = side_file(index_path)
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return 0
    except (OSError, ValueError) as exc:
        return _set_aside(source, exc)
    try:
        if not isinstance(data, dict) or data.get("schema") != SIDE_SCHEMA:
            raise ValueError(f"not a record of this version ({data.get('schema') if isinstance(data, dict) else data!r})")
        applicants = [(str(p), str(s), int(i), str(n), str(src), float(t)) for p, s, i, n, src, t in data["applicants"]]
        decisions = [tuple(map(str, r[:7])) + (float(r[7]),) for r in data["decisions"]]
        conn.executemany("INSERT OR REPLACE INTO applicants (path, sha256, position, name, source, set_at) "
                         "VALUES (?, ?, ?, ?, ?, ?)", applicants)
        conn.executemany("INSERT OR REPLACE INTO decisions (sha_lo, sha_hi, path_lo, path_hi, verdict, reason, note, "
                         "decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", decisions)
    except (KeyError, TypeError, ValueError, sqlite3.IntegrityError) as exc:
        conn.execute("DELETE FROM applicants")
        conn.execute("DELETE FROM decisions")
        return _set_aside(source, exc)
    log.info("%d applicants' names and %d decisions read back from %s", len(applicants), len(decisions), source)
    return len(applicants) + len(decisions)


def _set_aside(source: Path, exc: Exception) -> int:
    aside = source.with_name(f"{source.name}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        source.rename(aside)
    except OSError:
        aside = source
    log.warning("the examiner's records in %s cannot be read (%s): kept as %s, not read into the new index",
                source, exc, aside)
    return 0
