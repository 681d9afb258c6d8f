"""The persistent index: one SQLite file per collection, written one document per transaction.

The file holds documents (path, size, mtime_ns, sha256, status, reason), their extracted text
(zlib-compressed), their fingerprints, the per-document search rows (LSH band keys, anchors,
seed-004 sentence fingerprints, sentence hashes for template detection), the parameters that
shaped them, and the verified-pairs cache. WAL journal, ``synchronous=FULL``; the schema
version lives in ``PRAGMA user_version`` and a file from a newer version is refused.

A document is written in ONE transaction with everything derived from it, so a crash or a kill
at any moment leaves it either fully indexed or absent.
"""

from __future__ import annotations

import itertools
import json
import logging
import sqlite3
import time
import zlib
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import numpy as np

from neardup_gui.core.arrays import distinct
from neardup_gui.core.flags import Flag, flags_from_json, flags_to_json
from neardup_gui.core.store import examiner
from neardup_gui.core.store.schema import (  # noqa: F401 - the store package's names
    _SCHEMA as _SCHEMA,
    _TRIGGERS as _TRIGGERS,
    _schema4_intake as _schema4_intake,
    _schema5_bags as _schema5_bags,
    _schema6_disguise as _schema6_disguise,
    _schema7_credit as _schema7_credit,
    _schema8_grams as _schema8_grams,
    _schema10_grams_by_document as _schema10_grams_by_document,
    create_gram_lookup as create_gram_lookup,
    drop_gram_lookup as drop_gram_lookup,
    _add_generation as _add_generation,
    _schema4_template as _schema4_template,
    TemplateMark as TemplateMark,
    _schema4_appday as _schema4_appday,
    _schema4_screen as _schema4_screen,
)
from neardup_gui.core.store.records import (  # noqa: F401 - the store package's names
    DocumentGone as DocumentGone,
    IndexProblem as IndexProblem,
    to_signed as to_signed,
    to_unsigned as to_unsigned,
    compress_text as compress_text,
    _TEXT_LEVEL as _TEXT_LEVEL,
    pack_bag as pack_bag,
    unpack_bag as unpack_bag,
    pack_spans as pack_spans,
    _pack_spans as _pack_spans,
    _unpack_spans as _unpack_spans,
    StoredDocument as StoredDocument,
    SearchRows as SearchRows,
    search_rows as search_rows,
    SentenceCounts as SentenceCounts,
    StoredText as StoredText,
    ComparedText as ComparedText,
    _forget_sentences as _forget_sentences,
)
from neardup_gui.core.store.files import (  # noqa: F401 - the store package's names
    _has_json_each as _has_json_each,
    _no_space as _no_space,
    _is_busy as _is_busy,
    _translate_error as _translate_error,
    _file_size as _file_size,
    _OPEN_FILES as _OPEN_FILES,
    _OPEN_FILES_LOCK as _OPEN_FILES_LOCK,
    _inode_of as _inode_of,
    _open_here as _open_here,
    _register_open as _register_open,
    _register_close as _register_close,
    BUSY_SLICE_S as BUSY_SLICE_S,
    _busy as _busy,
    while_busy as while_busy,
)

from neardup_gui import __version__

log = logging.getLogger(__name__)

# 2: sentence_df (document frequency of each sentence, for templates)
# 3: counters + triggers: a generation of the fingerprints, stamped on search-table snapshots
# 4: template_marks + template_mark_keys (text the examiner marked as template or as counted);
#    documents.warnings (indexed with warnings: decoded leniently, salvaged from a damaged file);
#    the collection's own settings; external members (files kept from outside the folder);
#    screenings of a call: screenings, screening_rows, screening_sources, source_exclusions
# 5: bags (each document's bag of units: the pairs pass bounds a candidate before preparing it)
# 6: texts.hidden (the spans of text a file hides), documents.flags and screening_rows.flags (the
#    integrity flags: replaced letters, hidden text, invisible characters, traditional characters)
# 7: screening_sources.indexed_at (when each source was indexed: whose a passage found in several
#    sources is, core/credit.py)
# 8: grams + fingerprints.grams (the check's dense tier of winnowed k-grams: every document sharing
#    a run of 8 units with a submission is proposed, core/fingerprints.py)
# 9: the examiner's records (store/examiner.py): applicants, decisions; the split of each screened
#    submission's copying into its applicants' own work and others', and each source's sha256
# 10: grams keyed by (doc_id, hash), with an index by hash (was: by (hash, doc_id), with an index
#    by doc_id): an index build appends each document's rows and makes the index once at its end
SCHEMA_VERSION = 10
# the per-document search rows: (key, doc_id)
SEARCH_TABLES = ("lsh_keys", "anchors", "sentence_fps", "sentences", "grams")
# the folder of a collection's screening indexes, beside its index file (``<index>.screenings/N.ndx``)
SCREENINGS_SUFFIX = ".screenings"
APPLICATION_ID = 0x4E445550  # "NDUP": marks the file as ours in the SQLite header
# Files up to this size get a full ``PRAGMA quick_check`` at open: about 4 ms per MB (measured:
# 0.01 s for 300 documents, 0.24 s for a 61 MB file, 1.4 s for 610 MB), and the app opens the
# index once per task. Larger files are checked structurally (header, size) at open and report
# damage on the first query that meets it.
QUICK_CHECK_MAX_BYTES = 32 << 20

# SQLite's page cache while the grams' index is made at the end of a new index's build
# (filling_grams): its sorter holds as many rows in memory as the cache would, and one sort of all
# of them (the build's 64 MB) took longer than sorting pieces of this size and merging them
# (3,000 copy-heavy documents, 424,000 grams: 0.16 s against 0.12 s)
GRAM_LOOKUP_CACHE_MB = 2


class Store:
    """An open index file. One connection, used by the thread that opened it."""

    def __init__(self, path: str | Path, *, create: bool = True, timeout_s: float = 30.0) -> None:
        self.path = Path(path)
        self.timeout_s = timeout_s
        if self.path.is_dir():  # (before: a traceback from reading its header)
            raise IndexProblem("not-an-index", f"{self.path} is a folder, not an index file. It was left untouched; "
                                               f"give the index a file name, e.g. {self.path / 'neardup.ndx'}.")
        exists = _file_size(self.path) > 0
        if not exists and not create:
            raise IndexProblem("not-an-index", f"There is no index at {self.path}.")
        self._inode: tuple[int, int] | None = None
        if exists:
            if not _open_here(self.path):
                self._check_header()
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.conn = sqlite3.connect(self.path, timeout=timeout_s, isolation_level=None, check_same_thread=True)
            self._inode = _register_open(self.path)
            self.conn.execute("PRAGMA foreign_keys = ON")
            self.conn.execute(f"PRAGMA busy_timeout = {int(timeout_s * 1000)}")
            # A run killed while creating the index leaves an SQLite file without tables: nothing
            # to lose, so it is created again rather than refused.
            fresh = not exists or self._check_version()
            if fresh and not create:
                raise IndexProblem("not-an-index", f"There is no index at {self.path}.")
            self.conn.execute("PRAGMA journal_mode = WAL")
            if fresh and not self._create():
                self._check_version()  # another process created it first
            elif not fresh:
                if self.path.stat().st_size <= QUICK_CHECK_MAX_BYTES:
                    self._quick_check()
                self._migrate()
            self.conn.execute("PRAGMA synchronous = FULL")
            self._json_each = _has_json_each(self.conn)
        except (sqlite3.Error, IndexProblem) as exc:
            if hasattr(self, "conn"):
                self.conn.close()
            _register_close(self._inode)
            if isinstance(exc, IndexProblem):
                raise
            raise _translate_error(exc, self.path) from exc

    # --- opening -------------------------------------------------------------------------------

    def _check_header(self) -> None:
        with open(self.path, "rb") as fh:
            head = fh.read(100)
        if not head.startswith(b"SQLite format 3\x00"):
            raise IndexProblem(
                "not-an-index",
                f"{self.path} is not a neardup index (not an SQLite file). It was left untouched.",
            )
        if len(head) < 100:
            raise IndexProblem("corrupt", f"The index file {self.path} is truncated. It was left untouched; rebuild the index to a new file.")
        app_id = int.from_bytes(head[68:72], "big")
        if app_id not in (0, APPLICATION_ID):
            raise IndexProblem("not-an-index", f"{self.path} is an SQLite file of another program, not a neardup index. It was left untouched.")
        # A file cut short: not a whole number of pages, or fewer pages than its header counts
        # (that count is valid when its "version-valid-for" matches the change counter; a WAL
        # with frames may legitimately hold pages the main file does not have yet).
        page_size = int.from_bytes(head[16:18], "big")
        page_size = 65536 if page_size == 1 else page_size
        size = self.path.stat().st_size
        pages = int.from_bytes(head[28:32], "big")
        wal = Path(f"{self.path}-wal")
        # (the WAL comes and goes with other connections: it may vanish between a look and a stat)
        has_wal = _file_size(wal) > 0
        if page_size >= 512 and (size % page_size or (
                head[24:28] == head[92:96] and size < pages * page_size and not has_wal)):
            raise IndexProblem("corrupt", f"The index file {self.path} is truncated. It was left untouched; rebuild the index to a new file.")

    def _check_version(self) -> bool:
        """Refuse a newer schema or another program's file; True for an SQLite file with no tables."""
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise IndexProblem(
                "too-new",
                f"The index {self.path} was written by a newer neardup (schema {version}; this is "
                f"{__version__}, schema {SCHEMA_VERSION}). Update neardup to open it.",
            )
        tables = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if version == 0 and not tables:
            return True
        if version < 1 or "documents" not in tables:
            raise IndexProblem("not-an-index", f"{self.path} is an SQLite file but not a neardup index. It was left untouched.")
        return False

    def _migrate(self) -> None:
        """Bring an index of an older schema up to this one, in one transaction."""
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version >= SCHEMA_VERSION:
            return
        with self.transaction() as conn:
            version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may have
            if version < 2:
                conn.execute("CREATE TABLE IF NOT EXISTS sentence_df (hash INTEGER PRIMARY KEY, docs INTEGER NOT NULL)")
                conn.execute("CREATE INDEX IF NOT EXISTS sentence_df_docs ON sentence_df (docs)")
                conn.execute("DELETE FROM sentence_df")
                conn.execute("INSERT INTO sentence_df (hash, docs) SELECT hash, COUNT(*) FROM sentences GROUP BY hash")
            if version < 3:
                _add_generation(conn)  # snapshots saved before carry no generation: checked in full
            if version < 4:
                _schema4_template(conn)
                _schema4_intake(conn)
                _schema4_appday(conn)
                _schema4_screen(conn)
            if version < 5:
                _schema5_bags(conn)
            if version < 6:
                _schema6_disguise(conn)
            if version < 7:
                _schema7_credit(conn)
            if version < 8:
                _schema8_grams(conn)
            if version < 9:
                examiner.migrate(conn)
            if version < 10:
                _schema10_grams_by_document(conn)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        log.info("migrated %s from schema %d to %d", self.path, version, SCHEMA_VERSION)

    def _quick_check(self) -> None:
        """``PRAGMA quick_check``: damage anywhere in the file is reported at open, not mid-task."""
        rows = [r[0] for r in self.conn.execute("PRAGMA quick_check(5)")]
        if rows != ["ok"]:
            raise IndexProblem(
                "corrupt",
                f"The index file {self.path} is damaged ({rows[0]}). It was left untouched; rebuild the "
                "index to a new file (the documents themselves are not affected).",
            )

    def _create(self) -> bool:
        """Create the schema; False if another process did so while this one waited for the lock."""
        with self.transaction():
            if self.conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]:
                return False
            for stmt in _SCHEMA.split(";"):
                if stmt.strip():
                    self.conn.execute(stmt)
            _add_generation(self.conn)
            _schema4_template(self.conn)
            _schema4_intake(self.conn)
            _schema4_appday(self.conn)
            _schema4_screen(self.conn)
            _schema5_bags(self.conn)
            _schema6_disguise(self.conn)
            _schema7_credit(self.conn)
            _schema8_grams(self.conn)
            examiner.create_tables(self.conn)
            examiner.restore(self.conn, self.path)  # (a rebuilt index keeps the examiner's work)
            self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.set_meta("created_by", f"neardup {__version__}")
            self.set_meta("created_at", str(time.time()))
        return True

    def close(self) -> None:
        try:
            self.conn.close()
        except sqlite3.Error:  # closing never raises to the examiner
            log.exception("closing %s", self.path)
        inode, self._inode = self._inode, None
        _register_close(inode)

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; rolled back on any exception (one writer at a time).

        Inside a transaction already (a caller grouping several documents in one commit), this
        joins it: everything commits or rolls back with the outer one."""
        if self.conn.in_transaction:
            yield self.conn
            return
        try:
            self._begin_immediate()
        except sqlite3.Error as exc:
            raise _translate_error(exc, self.path) from exc
        except BaseException:  # (Ctrl+C or a cancel while waiting: no transaction left open)
            self._roll_back()
            raise
        try:
            yield self.conn
            self.conn.execute("COMMIT")
        except BaseException as exc:
            self._roll_back()
            if isinstance(exc, sqlite3.Error):
                raise _translate_error(exc, self.path) from exc
            raise

    def _roll_back(self) -> None:
        """Roll back the transaction if one is open: none is when Ctrl+C came just after COMMIT
        (seen: "cannot rollback - no transaction is active" with its traceback on an interrupted
        `neardup index`), or when SQLite rolled back itself (a full disk)."""
        if not self.conn.in_transaction:
            return
        try:
            self.conn.execute("ROLLBACK")
        except sqlite3.Error:
            log.exception("rollback failed on %s", self.path)

    def _begin_immediate(self) -> None:
        """``BEGIN IMMEDIATE``, waiting for another writer in slices of BUSY_SLICE_S up to the
        store's timeout (see BUSY_SLICE_S); the last busy error is raised when it runs out."""
        started = time.monotonic()
        self.conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SLICE_S * 1000)}")
        try:
            while True:
                try:
                    self.conn.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as exc:
                    waited = time.monotonic() - started
                    if not _is_busy(exc) or waited >= self.timeout_s:
                        raise
                hook = getattr(_busy, "hook", None)
                if hook is not None:
                    hook(waited)
        finally:
            self.conn.execute(f"PRAGMA busy_timeout = {int(self.timeout_s * 1000)}")

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A read transaction (``BEGIN`` … ``COMMIT``): every SELECT inside sees the same moment,
        whatever other processes commit meanwhile; takes no write lock."""
        if self.conn.in_transaction:  # inside the caller's transaction already
            yield self.conn
            return
        try:
            self.conn.execute("BEGIN")
        except sqlite3.Error as exc:
            raise _translate_error(exc, self.path) from exc
        try:
            yield self.conn
        finally:
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error:
                log.exception("ending a read transaction failed on %s", self.path)

    def integrity_check(self) -> list[str]:
        """``PRAGMA integrity_check``: an empty list when the file is sound."""
        rows = [r[0] for r in self.conn.execute("PRAGMA integrity_check")]
        return [] if rows == ["ok"] else rows

    # --- meta ----------------------------------------------------------------------------------

    def get_meta(self, key: str, default: str | None = None) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value: str) -> None:
        # (also called outside a transaction: a full, locked or read-only file says so plainly,
        # and a wait for another writer can be stopped)
        with self.transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def delete_meta(self, key: str) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM meta WHERE key = ?", (key,))

    # --- the collection's settings and external members ------------------------------------------

    def collection_settings(self) -> dict[str, object]:
        """The settings stored for this collection (name → value); a value that is not JSON is
        logged and left out (the caller falls back to its default)."""
        values: dict[str, object] = {}
        for name, text in self.conn.execute("SELECT name, value FROM collection_settings"):
            try:
                values[name] = json.loads(text)
            except (TypeError, ValueError):
                log.warning("collection setting %s in %s is not readable (%r); using the default", name, self.path, text)
        return values

    def set_collection_settings(self, values: dict[str, object]) -> None:
        """Store ``values`` as this collection's settings (replacing the stored ones), one transaction."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM collection_settings")
            conn.executemany("INSERT INTO collection_settings (name, value) VALUES (?, ?)",
                             [(k, json.dumps(v, ensure_ascii=False)) for k, v in values.items()])

    def external_members(self) -> list[str]:
        """Files from outside the collection folder that belong to the collection."""
        return [r[0] for r in self.conn.execute("SELECT path FROM external_members ORDER BY path")]

    def add_external_member(self, conn: sqlite3.Connection, path: str) -> None:
        conn.execute("INSERT OR IGNORE INTO external_members (path, added_at) VALUES (?, ?)", (path, time.time()))

    def forget_external_member(self, conn: sqlite3.Connection, path: str) -> None:
        conn.execute("DELETE FROM external_members WHERE path = ?", (path,))

    # --- documents -----------------------------------------------------------------------------

    _DOC_COLS = ("id, rel, path, size, mtime_ns, sha256, status, code, reason, format, units, meta, warnings, flags, "
                 "indexed_at")

    def _doc(self, row) -> StoredDocument:
        # (most documents have no warnings and no flags: "[]" read without the JSON decoder)
        return StoredDocument(*row[:11], meta=json.loads(row[11]),
                              warnings=() if row[12] == "[]" else tuple(json.loads(row[12])),
                              flags=() if row[13] == "[]" else flags_from_json(row[13]), indexed_at=row[14])

    def documents(self) -> list[StoredDocument]:
        try:  # the first full read of every task: damage the open-time checks missed surfaces here
            return [self._doc(r) for r in self.conn.execute(f"SELECT {self._DOC_COLS} FROM documents ORDER BY rel")]
        except sqlite3.DatabaseError as exc:
            raise _translate_error(exc, self.path) from exc

    def document(self, doc_id: int) -> StoredDocument | None:
        row = self.conn.execute(f"SELECT {self._DOC_COLS} FROM documents WHERE id = ?", (doc_id,)).fetchone()
        return self._doc(row) if row else None

    def count(self, status: str | None = None) -> int:
        if status is None:
            return self.conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
        return self.conn.execute("SELECT COUNT(*) FROM documents WHERE status = ?", (status,)).fetchone()[0]

    def count_with_warnings(self) -> int:
        """Indexed documents that carry warnings (read leniently or salvaged)."""
        return self.conn.execute(
            "SELECT COUNT(*) FROM documents WHERE status = 'indexed' AND warnings != '[]'").fetchone()[0]

    def text(self, doc_id: int) -> StoredText:
        """A document's stored text; damage SQLite cannot see (inside the compressed blob) is
        reported as a damaged index, never as a raw decoding error."""
        try:
            row = self.conn.execute(
                "SELECT body, paragraphs, furniture, margins, hidden FROM texts WHERE doc_id = ?", (doc_id,)
            ).fetchone()
        except sqlite3.DatabaseError as exc:
            raise _translate_error(exc, self.path) from exc
        if row is None:
            raise DocumentGone(doc_id)
        try:
            return StoredText(
                text=zlib.decompress(row[0]).decode("utf-8"),
                paragraphs=_unpack_spans(row[1]),
                furniture=_unpack_spans(row[2]),
                margins=zlib.decompress(row[3]).decode("utf-8"),
                hidden=_unpack_spans(row[4]),
            )
        except (zlib.error, UnicodeDecodeError, ValueError) as exc:
            raise self._damaged(f"the stored text of document {doc_id}", exc) from exc

    def compared_text(self, doc_id: int) -> ComparedText:
        """What a comparison needs of a stored text (its body, furniture and hidden spans),
        without the rest :meth:`text` decodes (a pass reads every document of the collection)."""
        try:
            row = self.conn.execute("SELECT body, furniture, hidden FROM texts WHERE doc_id = ?", (doc_id,)).fetchone()
        except sqlite3.DatabaseError as exc:
            raise _translate_error(exc, self.path) from exc
        if row is None:
            raise DocumentGone(doc_id)
        try:
            return ComparedText(zlib.decompress(row[0]).decode("utf-8"), _unpack_spans(row[1]), _unpack_spans(row[2]))
        except (zlib.error, UnicodeDecodeError, ValueError) as exc:
            raise self._damaged(f"the stored text of document {doc_id}", exc) from exc

    def _damaged(self, what: str, exc: Exception) -> IndexProblem:
        """Damage SQLite cannot see (inside a compressed blob), reported as a damaged index."""
        return IndexProblem(
            "corrupt",
            f"The index file {self.path} is damaged: {what} cannot be read ({exc}). It was left "
            "untouched; rebuild the index to a new file.",
        )

    def remove(self, conn: sqlite3.Connection, doc_id: int) -> None:
        """Delete a document and everything derived from it (inside the caller's transaction)."""
        _forget_sentences(conn, doc_id)
        for table in SEARCH_TABLES:
            conn.execute(f"DELETE FROM {table} WHERE doc_id = ?", (doc_id,))
        conn.execute("DELETE FROM pairs WHERE a = ? OR b = ?", (doc_id, doc_id))
        conn.execute("DELETE FROM documents WHERE id = ?", (doc_id,))

    def unpair(self, conn: sqlite3.Connection, doc_ids: Iterable[int]) -> None:
        """Drop every cached pair of ``doc_ids`` and mark them to be paired again (inside the
        caller's transaction)."""
        ids = sorted(doc_ids)
        for i in range(0, len(ids), 400):
            chunk = ids[i:i + 400]
            marks = ",".join("?" * len(chunk))
            conn.execute(f"DELETE FROM pairs WHERE a IN ({marks}) OR b IN ({marks})", chunk + chunk)
            conn.execute(f"DELETE FROM paired WHERE doc_id IN ({marks})", chunk)

    def write_document(
        self,
        conn: sqlite3.Connection,
        *,
        rel: str,
        path: str,
        size: int,
        mtime_ns: int,
        sha256: str,
        status: str,
        code: str = "",
        reason: str = "",
        fmt: str = "",
        units: int = 0,
        meta: dict | None = None,
        replace_id: int | None = None,
        warnings: Sequence[str] = (),
        flags: Sequence[Flag] = (),
        indexed_at: float | None = None,
    ) -> int:
        """Insert (or replace) a documents row inside the caller's transaction; returns its id.
        ``indexed_at``: when the indexing run that read it started (default now)."""
        if replace_id is not None:
            self.remove(conn, replace_id)
        old = conn.execute("SELECT id FROM documents WHERE rel = ?", (rel,)).fetchone()
        if old:
            self.remove(conn, old[0])
        cur = conn.execute(
            "INSERT INTO documents (rel, path, size, mtime_ns, sha256, status, code, reason, format, units, meta,"
            " indexed_at, warnings, flags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (rel, path, size, mtime_ns, sha256, status, code, reason, fmt, units,
             json.dumps(meta or {}, ensure_ascii=False), time.time() if indexed_at is None else indexed_at,
             json.dumps(list(warnings), ensure_ascii=False) if warnings else "[]",
             flags_to_json(flags) if flags else "[]"),
        )
        return int(cur.lastrowid)

    def write_flags(self, conn: sqlite3.Connection, doc_id: int, flags: Sequence[Flag]) -> None:
        """A document's integrity flags, made again (inside the caller's transaction)."""
        conn.execute("UPDATE documents SET flags = ? WHERE id = ?", (flags_to_json(flags), doc_id))

    def write_text(self, conn: sqlite3.Connection, doc_id: int, text: str, paragraphs, furniture, margins: str,
                   body: bytes | None = None, packed_paragraphs: bytes | None = None,
                   hidden: Sequence[tuple[int, int]] = ()) -> None:
        """The extracted text (``body``, ``packed_paragraphs``: :func:`compress_text` of ``text``
        and :func:`pack_spans` of ``paragraphs``, when the caller has them already)."""
        conn.execute(
            "INSERT OR REPLACE INTO texts (doc_id, body, paragraphs, furniture, margins, hidden) VALUES (?, ?, ?, ?, ?, ?)",
            (doc_id, compress_text(text) if body is None else body,
             _pack_spans(paragraphs) if packed_paragraphs is None else packed_paragraphs,
             _pack_spans(furniture), compress_text(margins), _pack_spans(hidden)),
        )

    def write_fingerprints(
        self,
        conn: sqlite3.Connection,
        doc_id: int,
        *,
        params_json: str,
        simhash: int,
        minhash_words: np.ndarray,
        lsh_keys: np.ndarray,
        sentence_fps: np.ndarray,
        anchors: np.ndarray,
        sentence_hashes: np.ndarray,
        grams: np.ndarray | None = None,
        sentence_counts: SentenceCounts | None = None,
        rows: SearchRows | None = None,
        new_document: bool = False,
        bag: bytes | None = None,
    ) -> None:
        """Fingerprints and every search row of one document (inside the caller's transaction).

        ``sentence_counts``: the document's sentences are counted into ``sentence_df`` when the
        caller calls :meth:`count_sentences` (before its transaction commits), not now.
        ``rows``: :func:`search_rows` of the same arrays, when the caller has them already.
        ``new_document``: ``doc_id`` was just made by :meth:`write_document`; ids are never
        reused (AUTOINCREMENT), so it has no earlier rows, search rows, pairs or counted
        sentences to clear (eight statements a document that found nothing). ``bag``: its
        :func:`~neardup_gui.core.store.pack_bag` (without one, any stored bag is dropped: it may
        be of an earlier text)."""
        if bag is not None:
            self.write_bag(conn, doc_id, bag)
        elif not new_document:
            conn.execute("DELETE FROM bags WHERE doc_id = ?", (doc_id,))
        if not new_document:
            _forget_sentences(conn, doc_id)
            for table in SEARCH_TABLES:
                conn.execute(f"DELETE FROM {table} WHERE doc_id = ?", (doc_id,))
        grams = np.zeros(0, dtype=np.uint64) if grams is None else grams
        conn.execute(
            "INSERT OR REPLACE INTO fingerprints (doc_id, params, simhash, minhash, lsh, sentence_fps, anchors, grams)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (doc_id, params_json, to_signed(np.array([simhash], dtype=np.uint64))[0],
             np.asarray(minhash_words, dtype="<u8").tobytes(), np.asarray(lsh_keys, dtype="<u8").tobytes(),
             np.asarray(sentence_fps, dtype="<u8").tobytes(), np.asarray(anchors, dtype="<u8").tobytes(),
             np.asarray(grams, dtype="<u8").tobytes()),
        )
        if rows is None:
            rows = search_rows(lsh_keys, anchors, sentence_fps, sentence_hashes, grams)
        self._insert_rows(conn, "lsh_keys", "key", doc_id, rows.lsh_keys)
        self._insert_rows(conn, "anchors", "hash", doc_id, rows.anchors)
        self._insert_rows(conn, "grams", "hash", doc_id, rows.grams)
        self._insert_rows(conn, "sentence_fps", "fp", doc_id, rows.sentence_fps)
        self._insert_rows(conn, "sentences", "hash", doc_id, rows.sentences)
        keys = rows.sentence_keys
        if sentence_counts is None:
            sentence_counts = SentenceCounts()
            sentence_counts.add(keys)
            self.count_sentences(conn, sentence_counts)
        else:
            sentence_counts.add(keys)
        if not new_document:
            conn.execute("DELETE FROM paired WHERE doc_id = ?", (doc_id,))
            conn.execute("DELETE FROM pairs WHERE a = ? OR b = ?", (doc_id, doc_id))

    def _insert_rows(self, conn: sqlite3.Connection, table: str, column: str, doc_id: int, keys: str) -> None:
        """``(key, doc_id)`` search rows of one document (``keys``: a JSON array of distinct keys)."""
        if keys == "[]":
            return
        if self._json_each:
            conn.execute(f"INSERT OR IGNORE INTO {table} ({column}, doc_id) SELECT value, ? FROM json_each(?)",
                         (doc_id, keys))
        else:
            conn.executemany(f"INSERT OR IGNORE INTO {table} ({column}, doc_id) VALUES (?, ?)",
                             [(k, doc_id) for k in json.loads(keys)])

    def count_sentences(self, conn: sqlite3.Connection, counts: SentenceCounts) -> None:
        """Add the waiting sentence keys to the document frequencies (inside the caller's transaction)."""
        keys, docs = counts.take()
        for n in distinct(docs).tolist():  # one statement per count: most keys have one or two
            chosen = keys[docs == n].tolist()
            if self._json_each:
                conn.execute("INSERT INTO sentence_df (hash, docs) SELECT value, ? FROM json_each(?) WHERE true "
                             "ON CONFLICT (hash) DO UPDATE SET docs = docs + excluded.docs", (n, json.dumps(chosen)))
            else:
                conn.executemany("INSERT INTO sentence_df (hash, docs) VALUES (?, ?) "
                                 "ON CONFLICT (hash) DO UPDATE SET docs = docs + excluded.docs",
                                 [(k, n) for k in chosen])

    @contextmanager
    def filling_grams(self) -> Iterator[None]:
        """Around the writing of many documents: when the grams table is empty (a new index), its
        index by hash is dropped and made once at the end, sorted (schema.drop_gram_lookup; on
        3,000 copy-heavy documents the writer's 0.6-0.75 CPU seconds for the grams became 0.1 for
        the rows and 0.15 for the index). Until then a check
        of this index looks its k-grams up by reading the whole table: slower, the same answers.
        The index is made at the end however the writing ends; should that fail too (a full
        disk), the next writing of documents makes it. With grams already stored, the index is
        kept up to date row by row, as always."""
        with self.transaction() as conn:
            fill = conn.execute("SELECT 1 FROM grams LIMIT 1").fetchone() is None
            if fill:
                drop_gram_lookup(conn)
            else:
                create_gram_lookup(conn)  # (left out by a writing that ended before it was made)
        try:
            yield
        except BaseException:
            if fill:
                try:
                    self._make_gram_lookup()
                except Exception:  # the writing's own error is the one to report
                    log.exception("the grams' index of %s is left to the next writing", self.path)
            raise
        if fill:
            self._make_gram_lookup()

    def _make_gram_lookup(self) -> None:
        with self.page_cache(GRAM_LOOKUP_CACHE_MB), self.transaction() as conn:
            create_gram_lookup(conn)

    @contextmanager
    def page_cache(self, mb: int) -> Iterator[None]:
        """SQLite's page cache at ``mb`` MB while writing many documents (the search tables' pages
        stay in memory between documents; default 2 MB), then back to what it was."""
        before = self.conn.execute("PRAGMA cache_size").fetchone()[0]
        self.conn.execute(f"PRAGMA cache_size = {-int(mb) * 1024}")
        try:
            yield
        finally:
            self.conn.execute(f"PRAGMA cache_size = {int(before)}")

    def fingerprint_matrix(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """All indexed documents' (doc_ids, simhashes uint64, minhash words (n, k/64) uint64)."""
        rows = self.conn.execute("SELECT doc_id, simhash, minhash FROM fingerprints ORDER BY doc_id").fetchall()
        if not rows:
            return np.zeros(0, np.int64), np.zeros(0, np.uint64), np.zeros((0, 0), np.uint64)
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        sims = np.fromiter((r[1] for r in rows), dtype=np.int64, count=len(rows)).view(np.uint64)
        words = np.frombuffer(b"".join(r[2] for r in rows), dtype="<u8").astype(np.uint64)
        return ids, sims, words.reshape(len(rows), -1)

    def write_bag(self, conn: sqlite3.Connection, doc_id: int, bag: bytes) -> None:
        """A document's :func:`pack_bag` (inside the caller's transaction)."""
        conn.execute("INSERT OR REPLACE INTO bags (doc_id, counts) VALUES (?, ?)", (doc_id, bag))

    def documents_without_bags(self) -> list[int]:
        """Indexed documents without a stored bag of units (indexed before schema 5)."""
        return [r[0] for r in self.conn.execute(
            "SELECT id FROM documents WHERE status = 'indexed' AND id NOT IN (SELECT doc_id FROM bags) ORDER BY id")]

    def bags(self, doc_ids: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(doc ids ascending, their bags as rows of a uint16 matrix) of every document with a
        stored bag, or of those of ``doc_ids`` that have one."""
        if doc_ids is None:
            rows = self.conn.execute("SELECT doc_id, counts FROM bags ORDER BY doc_id").fetchall()
        else:
            rows = []
            wanted = sorted({int(d) for d in doc_ids})
            for i in range(0, len(wanted), 500):  # (SQLite's limit on bound parameters)
                chunk = wanted[i:i + 500]
                rows += self.conn.execute(f"SELECT doc_id, counts FROM bags WHERE doc_id IN ({','.join('?' * len(chunk))})"
                                          " ORDER BY doc_id", chunk).fetchall()
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        if not rows:
            return ids, np.zeros((0, 0), dtype=np.uint16)
        try:
            matrix = np.array([unpack_bag(r[1]) for r in rows], dtype=np.uint16).reshape(len(rows), -1)
        except (zlib.error, ValueError) as exc:
            raise self._damaged("a stored bag of units", exc) from exc
        return ids, matrix

    def fingerprints_of(self, doc_id: int):  # -> Fingerprints | None
        """The stored fingerprints of one document."""
        from neardup_gui.core.fingerprints import Fingerprints

        row = self.conn.execute(
            "SELECT simhash, minhash, lsh, sentence_fps, anchors, grams FROM fingerprints WHERE doc_id = ?", (doc_id,)
        ).fetchone()
        if row is None:
            return None

        def arr(blob: bytes) -> np.ndarray:
            return np.frombuffer(blob, dtype="<u8").astype(np.uint64)

        return Fingerprints(simhash=to_unsigned(row[0]), minhash_bits=arr(row[1]), lsh_keys=arr(row[2]),
                            sentence_fps=arr(row[3]), anchors=arr(row[4]), grams=arr(row[5]))

    def fingerprint_ids(self, params_json: str) -> np.ndarray:
        """Sorted ids of the documents fingerprinted with these parameters."""
        rows = self.conn.execute("SELECT doc_id FROM fingerprints WHERE params = ? ORDER BY doc_id", (params_json,))
        return np.fromiter(itertools.chain.from_iterable(rows), dtype=np.int64)  # no Python step per row

    def fingerprint_rows(self, doc_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(doc_ids, simhashes, minhash words) of the given documents, in doc_id order."""
        ids = sorted(int(i) for i in doc_ids)
        found: list[tuple] = []
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            found.extend(self.conn.execute(
                f"SELECT doc_id, simhash, minhash FROM fingerprints WHERE doc_id IN ({','.join('?' * len(chunk))}) ORDER BY doc_id",
                chunk))
        if not found:
            return np.zeros(0, np.int64), np.zeros(0, np.uint64), np.zeros((0, 0), np.uint64)
        out_ids = np.array([r[0] for r in found], dtype=np.int64)
        sims = np.array([r[1] for r in found], dtype=np.int64).view(np.uint64)
        words = np.frombuffer(b"".join(r[2] for r in found), dtype="<u8").astype(np.uint64)
        return out_ids, sims, words.reshape(len(found), -1)

    def fingerprint_generation(self) -> int:
        """A number that changes whenever any fingerprint is written or removed (schema 3)."""
        row = self.conn.execute("SELECT value FROM counters WHERE name = 'fingerprints'").fetchone()
        return int(row[0]) if row else -1

    def search_table_generation(self, name: str, params_json: str) -> int | None:
        """The fingerprint generation a stored search structure was saved at (None: unknown)."""
        row = self.conn.execute(
            "SELECT generation FROM search_tables WHERE name = ? AND params = ?", (name, params_json)).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def load_search_table(self, name: str, params_json: str) -> bytearray | None:
        """The stored bytes of a built search structure, if built with these parameters.

        Read in chunks into one buffer: a plain SELECT would hold the blob twice (SQLite's copy
        and Python's), doubling the peak memory of opening a large index.
        """
        row = self.conn.execute(
            "SELECT rowid, length(data) FROM search_tables WHERE name = ? AND params = ?", (name, params_json)
        ).fetchone()
        if row is None:
            return None
        rowid, size = row
        buf = bytearray(size)
        view = memoryview(buf)
        with self.conn.blobopen("search_tables", "data", rowid, readonly=True) as blob:
            pos = 0
            while pos < size:
                chunk = blob.read(min(16 << 20, size - pos))
                view[pos:pos + len(chunk)] = chunk
                pos += len(chunk)
        return buf

    def save_search_table(self, name: str, params_json: str, data: bytes, generation: int | None = None) -> None:
        """Store a built search structure; ``generation``: the fingerprint generation it reflects
        exactly (None when it may not: it is then checked against the fingerprints at load)."""
        with self.transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO search_tables (name, params, data, built_at, generation) "
                         "VALUES (?, ?, ?, ?, ?)", (name, params_json, data, time.time(), generation))

    def stored_params(self) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT DISTINCT params FROM fingerprints")}

    def anchors_of(self, doc_id: int) -> np.ndarray:
        row = self.conn.execute("SELECT anchors FROM fingerprints WHERE doc_id = ?", (doc_id,)).fetchone()
        return np.frombuffer(row[0], dtype="<u8").astype(np.uint64) if row else np.zeros(0, np.uint64)

    def lookup_counts(self, table: str, column: str, keys: np.ndarray) -> dict[int, int]:
        """For each document, how many of ``keys`` it has in ``table`` (anchors, lsh_keys, …)."""
        assert table in SEARCH_TABLES
        counts: dict[int, int] = {}
        keys = to_signed(distinct(np.asarray(keys, dtype=np.uint64)))
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            q = f"SELECT doc_id, COUNT(*) FROM {table} WHERE {column} IN ({','.join('?' * len(chunk))}) GROUP BY doc_id"
            for doc_id, n in self.conn.execute(q, chunk):
                counts[doc_id] = counts.get(doc_id, 0) + n
        return counts

    def frequent_sentences(self, min_docs: int) -> np.ndarray:
        """Sentence keys (signed, see ``templates.sentence_key``) present in at least ``min_docs``
        documents: the collection's template sentences."""
        # sentence_df is kept in step with ``sentences`` in every document's transaction, so this
        # is an index range scan, not a GROUP BY over every sentence of the collection (1.2 s at
        # 15,000 documents, measured by benchmarks/bench_check.py).
        rows = self.conn.execute("SELECT hash FROM sentence_df WHERE docs >= ?", (min_docs,))
        return np.fromiter(itertools.chain.from_iterable(rows), dtype=np.int64)

    # --- text the examiner marked (schema 4) ------------------------------------------------

    def add_template_mark(self, action: str, text: str, keys: Sequence[int]) -> int:
        """Store one mark of the examiner (``exclude`` or ``count``) and return its id."""
        if action not in ("exclude", "count"):
            raise ValueError(f"a mark is 'exclude' or 'count', not {action!r}")
        with self.transaction() as conn:
            cur = conn.execute("INSERT INTO template_marks (action, text, created_at) VALUES (?, ?, ?)",
                               (action, text, time.time()))
            mark_id = int(cur.lastrowid)
            conn.executemany("INSERT OR IGNORE INTO template_mark_keys (key, mark_id) VALUES (?, ?)",
                             [(int(k), mark_id) for k in keys])
        return mark_id

    def remove_template_mark(self, mark_id: int) -> bool:
        """Undo a mark; False when there is no such mark."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM template_mark_keys WHERE mark_id = ?", (mark_id,))
            return conn.execute("DELETE FROM template_marks WHERE id = ?", (mark_id,)).rowcount > 0

    def template_marks(self) -> list[TemplateMark]:
        """Every mark, oldest first."""
        keys: dict[int, list[int]] = {}
        for key, mark_id in self.conn.execute("SELECT key, mark_id FROM template_mark_keys ORDER BY mark_id, key"):
            keys.setdefault(mark_id, []).append(key)
        return [TemplateMark(i, action, text, tuple(keys.get(i, ())), created)
                for i, action, text, created in self.conn.execute(
                    "SELECT id, action, text, created_at FROM template_marks ORDER BY id")]

    def marked_keys(self) -> tuple[frozenset[int], frozenset[int]]:
        """(keys marked as template, keys marked to be counted); the latest mark of a key decides."""
        latest: dict[int, str] = {}
        for key, action in self.conn.execute(
                "SELECT k.key, m.action FROM template_mark_keys k JOIN template_marks m ON m.id = k.mark_id "
                "ORDER BY m.id"):
            latest[key] = action
        return (frozenset(k for k, a in latest.items() if a == "exclude"),
                frozenset(k for k, a in latest.items() if a == "count"))

    def sentence_documents(self, keys: Sequence[int]) -> dict[int, list[int]]:
        """For each sentence key, the ids of the documents holding it (ascending)."""
        out: dict[int, list[int]] = {}
        keys = [int(k) for k in keys]
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            for key, doc_id in self.conn.execute(
                    f"SELECT hash, doc_id FROM sentences WHERE hash IN ({','.join('?' * len(chunk))}) "
                    "ORDER BY hash, doc_id", chunk):
                out.setdefault(key, []).append(doc_id)
        return out

    def sentence_frequencies(self, min_docs: int) -> dict[int, int]:
        """Document frequency of every sentence key in at least ``min_docs`` documents."""
        return dict(self.conn.execute("SELECT hash, docs FROM sentence_df WHERE docs >= ?", (min_docs,)))
