"""The index's tables and their migrations, one function per schema version that added to them."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass


_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE documents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- ids are never reused: results may outlive a document
    rel TEXT NOT NULL UNIQUE,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('indexed', 'skipped')),
    code TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    format TEXT NOT NULL DEFAULT '',
    units INTEGER NOT NULL DEFAULT 0,
    meta TEXT NOT NULL DEFAULT '{}',
    indexed_at REAL NOT NULL
);
CREATE INDEX documents_sha ON documents (sha256);
CREATE INDEX documents_path ON documents (path);
CREATE TABLE texts (
    doc_id INTEGER PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
    body BLOB NOT NULL,
    paragraphs BLOB NOT NULL,
    furniture BLOB NOT NULL,
    margins BLOB NOT NULL
);
CREATE TABLE fingerprints (
    doc_id INTEGER PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
    params TEXT NOT NULL,
    simhash INTEGER NOT NULL,
    minhash BLOB NOT NULL,
    lsh BLOB NOT NULL,
    sentence_fps BLOB NOT NULL,
    anchors BLOB NOT NULL
);
CREATE TABLE lsh_keys (key INTEGER NOT NULL, doc_id INTEGER NOT NULL, PRIMARY KEY (key, doc_id)) WITHOUT ROWID;
CREATE TABLE anchors (hash INTEGER NOT NULL, doc_id INTEGER NOT NULL, PRIMARY KEY (hash, doc_id)) WITHOUT ROWID;
CREATE TABLE sentence_fps (fp INTEGER NOT NULL, doc_id INTEGER NOT NULL, PRIMARY KEY (fp, doc_id)) WITHOUT ROWID;
CREATE TABLE sentences (hash INTEGER NOT NULL, doc_id INTEGER NOT NULL, PRIMARY KEY (hash, doc_id)) WITHOUT ROWID;
CREATE INDEX lsh_keys_doc ON lsh_keys (doc_id);
CREATE INDEX anchors_doc ON anchors (doc_id);
CREATE INDEX sentence_fps_doc ON sentence_fps (doc_id);
CREATE INDEX sentences_doc ON sentences (doc_id);
CREATE TABLE sentence_df (hash INTEGER PRIMARY KEY, docs INTEGER NOT NULL);
CREATE INDEX sentence_df_docs ON sentence_df (docs);
CREATE TABLE pairs (
    a INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    b INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    similarity REAL NOT NULL,
    containment_a REAL NOT NULL,
    containment_b REAL NOT NULL,
    common INTEGER NOT NULL,
    PRIMARY KEY (a, b)
) WITHOUT ROWID;
CREATE INDEX pairs_b ON pairs (b);
CREATE TABLE paired (doc_id INTEGER PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE);
CREATE TABLE search_tables (
    name TEXT PRIMARY KEY,
    params TEXT NOT NULL,
    data BLOB NOT NULL,
    built_at REAL NOT NULL,
    generation INTEGER
);
CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""

# Any change to the fingerprints table (a cascade from documents included) moves its generation
# on, inside the same transaction. A search-table snapshot stamped with the current generation
# is therefore exactly up to date, and opening the index needs no scan of the fingerprints.
_TRIGGERS = [
    f"CREATE TRIGGER IF NOT EXISTS fingerprints_{event.lower()} AFTER {event} ON fingerprints "
    "BEGIN UPDATE counters SET value = value + 1 WHERE name = 'fingerprints'; END"
    for event in ("INSERT", "UPDATE", "DELETE")
]


def _schema4_intake(conn: sqlite3.Connection) -> None:
    """Schema 4 (intake): the warnings of a document indexed with warnings, a JSON list of
    sentences ('[]' for a clean one); the status stays 'indexed'."""
    columns = {r[1] for r in conn.execute("PRAGMA table_info(documents)")}
    if "warnings" not in columns:
        conn.execute("ALTER TABLE documents ADD COLUMN warnings TEXT NOT NULL DEFAULT '[]'")


def _schema5_bags(conn: sqlite3.Connection) -> None:
    """Schema 5: every indexed document's bag of units (:func:`~neardup_gui.core.compare.unit_bag`),
    so the pairs pass bounds a candidate before reading and tokenizing its text. A document
    indexed before has none and is prepared to be bounded, as before."""
    conn.execute("CREATE TABLE IF NOT EXISTS bags ("
                 "doc_id INTEGER PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE, counts BLOB NOT NULL)")


def _schema6_disguise(conn: sqlite3.Connection) -> None:
    """Schema 6: the spans of text each document's file hides (``Document.hidden``), and the
    integrity flags of each document and screened submission (a JSON list, core/flags.py). A
    document indexed before has none until it is read again (every reader's version moved on)."""
    for table, column, definition in (("texts", "hidden", "BLOB NOT NULL DEFAULT x''"),
                                      ("documents", "flags", "TEXT NOT NULL DEFAULT '[]'"),
                                      ("screening_rows", "flags", "TEXT NOT NULL DEFAULT '[]'")):
        if column not in {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")


def _schema7_credit(conn: sqlite3.Connection) -> None:
    """Schema 7: when each source of a screened submission was indexed (0 for a source kept
    before: credit then goes by kind and by how much each source holds)."""
    if "indexed_at" not in {r[1] for r in conn.execute("PRAGMA table_info(screening_sources)")}:
        conn.execute("ALTER TABLE screening_sources ADD COLUMN indexed_at REAL NOT NULL DEFAULT 0")


def _schema8_grams(conn: sqlite3.Connection) -> None:
    """Schema 8: the check's dense tier. A document fingerprinted before has no grams until it is
    fingerprinted again from its stored text (its parameters changed: ``indexer.refingerprint``).
    (Created in schema 10's layout: :func:`_schema10_grams_by_document`.)"""
    _create_grams(conn)
    if "grams" not in {r[1] for r in conn.execute("PRAGMA table_info(fingerprints)")}:
        conn.execute("ALTER TABLE fingerprints ADD COLUMN grams BLOB NOT NULL DEFAULT x''")


# The grams by document (each document's rows are written together, in order: appended to the
# table), and by hash in GRAMS_LOOKUP, the index a check looks its k-grams up in.
GRAMS_LOOKUP = "grams_hash"
_GRAMS_LOOKUP_SQL = f"CREATE INDEX IF NOT EXISTS {GRAMS_LOOKUP} ON grams (hash, doc_id)"


def _create_grams(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS grams (doc_id INTEGER NOT NULL, hash INTEGER NOT NULL,"
                 " PRIMARY KEY (doc_id, hash)) WITHOUT ROWID")  # (in column order: quick_check misreads others)
    conn.execute(_GRAMS_LOOKUP_SQL)


def create_gram_lookup(conn: sqlite3.Connection) -> None:
    """The grams' index by hash, when it is missing (see :func:`drop_gram_lookup`)."""
    conn.execute(_GRAMS_LOOKUP_SQL)


def drop_gram_lookup(conn: sqlite3.Connection) -> None:
    """Drop the grams' index by hash while an empty grams table is filled (a new index is
    built): each row then goes to the end of the table, and the index is made once at the end,
    sorted, instead of a row at a random place of it at a time."""
    conn.execute(f"DROP INDEX IF EXISTS {GRAMS_LOOKUP}")


def _schema10_grams_by_document(conn: sqlite3.Connection) -> None:
    """Schema 10: the grams table is keyed by (doc_id, hash), with an index by hash, instead of
    by (hash, doc_id) with an index by doc_id: the same rows and look-ups, but an index build
    writes each document's rows at the end of the table. The rows of an index of schema 8 or 9
    are copied over (in the order of the new key), once."""
    columns = [r[1] for r in conn.execute("PRAGMA table_info(grams)")]
    if columns and columns[0] == "hash":  # schema 8 and 9: PRIMARY KEY (hash, doc_id)
        conn.execute("DROP INDEX IF EXISTS grams_doc")
        conn.execute("ALTER TABLE grams RENAME TO grams_schema9")
        _create_grams(conn)
        conn.execute("DROP INDEX IF EXISTS grams_hash")
        conn.execute("INSERT INTO grams (doc_id, hash) SELECT doc_id, hash FROM grams_schema9 ORDER BY doc_id, hash")
        conn.execute("DROP TABLE grams_schema9")
    _create_grams(conn)


def _add_generation(conn: sqlite3.Connection) -> None:
    """Schema 3's additions (new files and migrated ones alike)."""
    conn.execute("CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)")
    conn.execute("INSERT OR IGNORE INTO counters (name, value) VALUES ('fingerprints', 0)")
    for trigger in _TRIGGERS:
        conn.execute(trigger)
    columns = {r[1] for r in conn.execute("PRAGMA table_info(search_tables)")}
    if "generation" not in columns:
        conn.execute("ALTER TABLE search_tables ADD COLUMN generation INTEGER")


def _schema4_template(conn: sqlite3.Connection) -> None:
    """Schema 4's additions for examiner-marked template text (new files and migrated ones alike).

    A mark is one action of the examiner on a passage: ``exclude`` (it is template: never
    counted) or ``count`` (count it even though the automatic rule would take it out). Its
    sentence keys are what the comparison uses; its text is what the examiner is shown. For a
    key in several marks the latest mark decides; removing a mark undoes it.
    """
    conn.execute(
        "CREATE TABLE IF NOT EXISTS template_marks ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " action TEXT NOT NULL CHECK (action IN ('exclude', 'count')),"
        " text TEXT NOT NULL,"
        " created_at REAL NOT NULL)")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS template_mark_keys ("
        " key INTEGER NOT NULL,"
        " mark_id INTEGER NOT NULL REFERENCES template_marks (id) ON DELETE CASCADE,"
        " PRIMARY KEY (key, mark_id)) WITHOUT ROWID")  # (in column order: quick_check misreads others)
    conn.execute("CREATE INDEX IF NOT EXISTS template_mark_keys_mark ON template_mark_keys (mark_id)")


@dataclass(frozen=True)
class TemplateMark:
    """Text the examiner marked: ``action`` ``exclude`` (template) or ``count``."""

    id: int
    action: str
    text: str
    keys: tuple[int, ...]
    created_at: float
def _schema4_appday(conn: sqlite3.Connection) -> None:
    """Schema 4: the examiner's settings for this collection (one JSON value per
    name), and files added from outside the folder that a refresh keeps."""
    conn.execute("CREATE TABLE IF NOT EXISTS collection_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.execute("CREATE TABLE IF NOT EXISTS external_members (path TEXT PRIMARY KEY, added_at REAL NOT NULL)")
def _schema4_screen(conn: sqlite3.Connection) -> None:
    """Schema 4, screening a call: named screenings of a folder of submissions, one row per
    submission with its figures, its verified sources (with their passages), and the sources the
    examiner excluded for a submission (by the submission's sha256, so it holds in any screening)."""
    conn.execute("""CREATE TABLE IF NOT EXISTS screenings (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        folder TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'running',  -- running (or interrupted) | done
        created REAL NOT NULL,
        updated REAL NOT NULL,
        flag REAL NOT NULL DEFAULT 0.3,
        run_key TEXT NOT NULL DEFAULT '',  -- settings and template model the rows were computed under
        settings TEXT NOT NULL DEFAULT '{}'
    )""")
    conn.execute("""CREATE TABLE IF NOT EXISTS screening_rows (
        screening_id INTEGER NOT NULL REFERENCES screenings (id) ON DELETE CASCADE,
        rel TEXT NOT NULL,
        path TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        sha256 TEXT NOT NULL DEFAULT '',
        batch_id INTEGER NOT NULL DEFAULT 0,  -- the submission's id in the screening's own index
        status TEXT NOT NULL,  -- done | skipped
        reason TEXT NOT NULL DEFAULT '',
        warnings TEXT NOT NULL DEFAULT '[]',
        units INTEGER NOT NULL DEFAULT 0,
        copied REAL NOT NULL DEFAULT 0,  -- copied share, template excluded (the ranking figure)
        copied_overall REAL NOT NULL DEFAULT 0,
        copied_without_quotes REAL NOT NULL DEFAULT 0,
        largest REAL NOT NULL DEFAULT 0,
        largest_source TEXT NOT NULL DEFAULT '',
        sources INTEGER NOT NULL DEFAULT 0,
        template_share REAL NOT NULL DEFAULT 0,
        quoted_share REAL NOT NULL DEFAULT 0,
        marks BLOB NOT NULL DEFAULT x'',  -- the submission's template / excluded / quoted spans
        PRIMARY KEY (screening_id, rel)
    ) WITHOUT ROWID""")
    conn.execute("""CREATE TABLE IF NOT EXISTS screening_sources (
        screening_id INTEGER NOT NULL REFERENCES screenings (id) ON DELETE CASCADE,
        rel TEXT NOT NULL,  -- the submission
        rank INTEGER NOT NULL,
        kind TEXT NOT NULL,  -- collection | submission
        doc_id INTEGER NOT NULL,  -- in the collection's index or in the screening's own
        path TEXT NOT NULL,
        name TEXT NOT NULL,
        similarity REAL NOT NULL,
        containment REAL NOT NULL,
        source_containment REAL NOT NULL,
        common INTEGER NOT NULL,
        units_a INTEGER NOT NULL,
        units_b INTEGER NOT NULL,
        spans BLOB NOT NULL,
        passages BLOB NOT NULL DEFAULT x'',  -- the edited passages, zlib JSON
        PRIMARY KEY (screening_id, rel, rank)
    ) WITHOUT ROWID""")
    conn.execute("""CREATE TABLE IF NOT EXISTS source_exclusions (
        submission_sha256 TEXT NOT NULL,
        source_path TEXT NOT NULL,
        created REAL NOT NULL,
        PRIMARY KEY (submission_sha256, source_path)
    ) WITHOUT ROWID""")
