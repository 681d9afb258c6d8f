"""Incremental indexing of a folder: scan → extract (worker processes) → units → fingerprints → store.

Only new and changed files are extracted (size and mtime first, then sha256); a file that moved
is recognised by its hash and keeps its text and fingerprints; a deleted file is removed. A
change of the fingerprint parameters re-fingerprints from the stored text without
re-extracting. Documents are written in transactions of at most half a second of work (each
document whole), so a cancelled or killed run resumes where it stopped.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import os
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np

from neardup_gui.core.arrays import reduce_with_flat_arrays
from neardup_gui.core.document import CharSpan, Document, Skipped
from neardup_gui.core.flags import Flag, integrity_flags
from neardup_gui.core.fingerprints import FINGERPRINT_ALGORITHM, build_tables, fingerprint
from neardup_gui.core import processes
from neardup_gui.core.progress import Cancelled, ProgressFn, count_noun, no_progress, wrap_progress
from neardup_gui.core.scan import FileEntry, FolderUnavailable, ScanResult, folder_problem, scan_folder
from neardup_gui.core.extract import format_of, reader_version
from neardup_gui.core.settings import ExtractLimits, FingerprintParams, Settings
from neardup_gui.core.prepared import unit_bag
from neardup_gui.core.store import (
    SCREENINGS_SUFFIX, SearchRows, SentenceCounts, Store, StoredDocument, compress_text, pack_bag, pack_spans, search_rows,
)
from neardup_gui.core.store import examiner
from neardup_gui.core.store import documents as doc_rows
from neardup_gui.core.templates import sentence_key_array
from neardup_gui.core.units import tokenize
from neardup_gui.core.workers import Lightened, extract_many, process_many_behind

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class IndexReport:
    """What an indexing run did."""

    added: int = 0
    updated: int = 0
    moved: int = 0
    removed: int = 0
    unchanged: int = 0
    # documents kept as the index held them: their subfolder (or entry) could not be read this time
    unread: int = 0
    skipped: tuple[Skipped, ...] = ()
    # (path, warnings) of every indexed document of the collection that carries warnings
    warned: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # (path, integrity flags) of every indexed document of the collection that carries flags
    flagged: tuple[tuple[str, tuple[Flag, ...]], ...] = ()
    refingerprinted: int = 0
    # of the updated: unchanged files read again, an earlier reader of their format having read them
    reread: int = 0
    elapsed_s: float = 0.0
    # the folder's files of formats neardup does not read (absolute paths): left out, named
    others: tuple[str, ...] = ()
    changed_ids: tuple[int, ...] = field(default=(), repr=False)

    def to_json(self, *, folder: str, db: str, documents: int, indexed: int,
                applicants: dict[str, Any] | None = None) -> dict[str, Any]:
        """The run's summary as ``neardup index --json`` prints it: the folder and index as
        given, the collection's counts after the run, and the applicants kept (when any were given)."""
        return {
            "folder": folder, "db": db, "documents": documents, "indexed": indexed,
            "added": self.added, "updated": self.updated, "moved": self.moved, "removed": self.removed,
            "unchanged": self.unchanged, "unread": self.unread, "refingerprinted": self.refingerprinted,
            "reread": self.reread,
            "with_warnings": [{"path": path, "warnings": list(warnings)} for path, warnings in self.warned],
            "with_flags": [{"path": path, "flags": [f.to_json() for f in flags]} for path, flags in self.flagged],
            "skipped": [{"path": s.path, "code": s.code, "reason": s.reason} for s in self.skipped],
            "other_files": list(self.others),
            "elapsed_s": round(self.elapsed_s, 3),
            **({"applicants": applicants} if applicants is not None else {}),
        }


@functools.lru_cache(maxsize=16)  # (asked once per document written)
def params_key(params: FingerprintParams) -> str:
    """The canonical text of the fingerprint parameters and of the algorithm version, stored
    beside every fingerprint: fingerprints made by an older version are recomputed."""
    return json.dumps({**params.to_dict(), "algorithm": FINGERPRINT_ALGORITHM}, sort_keys=True)


def file_sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@dataclass(frozen=True)
class Prepared:
    """A document's units and fingerprints, ready to be written."""

    units: int
    simhash: int
    minhash: np.ndarray
    lsh_keys: np.ndarray
    sentence_fps: np.ndarray
    anchors: np.ndarray
    sentence_hashes: np.ndarray
    grams: np.ndarray  # the check's dense tier (fingerprints.grams)
    bag: bytes  # its bag of units as stored (store.pack_bag of prepared.unit_bag)
    flags: tuple[Flag, ...] = ()  # its integrity flags (core/flags.py)
    # the stored forms of the text and of its paragraph spans, made by the extraction worker
    # (store.compress_text, store.pack_spans) so that the one writer does not
    body: bytes | None = None
    packed_paragraphs: bytes | None = None
    rows: SearchRows | None = None  # (store.search_rows)

    __reduce__ = reduce_with_flat_arrays  # (sent by the extraction workers: its arrays as bytes)


def prepare(text: str, params: FingerprintParams, hidden: Sequence[CharSpan] = (), *,
            paragraphs: Sequence[CharSpan] | None = None) -> Prepared:
    """Units, every fingerprint and the integrity flags of one extracted text (``hidden``: the
    spans its file hides). With ``paragraphs`` (its paragraph spans) also the stored forms of
    the text, of the spans and of the search rows (:func:`prepare_document`)."""
    units = tokenize(text, hidden)
    fp = fingerprint(text, units, params)
    keys = sentence_key_array(text, units)
    stored = {} if paragraphs is None else {
        "body": compress_text(text), "packed_paragraphs": pack_spans(paragraphs),
        "rows": search_rows(fp.lsh_keys, fp.anchors, fp.sentence_fps, keys, fp.grams)}
    return Prepared(
        units=len(units),
        simhash=int(fp.simhash),
        minhash=fp.minhash_bits,
        lsh_keys=fp.lsh_keys,
        sentence_fps=fp.sentence_fps,
        anchors=fp.anchors,
        sentence_hashes=keys,
        grams=fp.grams,
        bag=pack_bag(unit_bag(units.ids)),
        flags=integrity_flags(text, hidden, units),
        **stored,
    )


def prepare_document(doc: Document, params: FingerprintParams) -> Lightened:
    """:func:`prepare` for a worker process (module-level, so it can be sent by name), with the
    text compressed and the paragraph spans packed for the index; the document goes back to the
    writer without its text and paragraph spans (``text=""``, ``paragraphs=()``): the writer
    stores the compressed forms, and the text would cross the pipe and be unpickled for nothing
    (2,375 copyright files: 40 MB of text)."""
    prep = prepare(doc.text, params, doc.hidden, paragraphs=doc.paragraphs)
    return Lightened(dataclasses.replace(doc, text="", paragraphs=()), prep)


def write_indexed(
    store: Store,
    entry: FileEntry,
    doc: Document,
    params: FingerprintParams,
    replace_id: int | None = None,
    prep: Prepared | None = None,
    sentence_counts: SentenceCounts | None = None,
    indexed_at: float | None = None,
) -> int:
    """Write one extracted document with its text, fingerprints and search rows: one transaction.

    ``sentence_counts``: the document's sentences are counted when the caller (a commit group)
    says so, see :meth:`Store.write_fingerprints`. ``indexed_at``: when the indexing that reads it
    started (the documents of one run share it: which came first decides whose a passage found
    in several is, core/credit.py); default now."""
    if prep is None:
        prep = prepare(doc.text, params, doc.hidden)
    elif not doc.text and (prep.body is None or prep.packed_paragraphs is None):
        # (a lightened document's text comes back only in its prepared form)
        raise ValueError(f"{doc.path}: prepared without its text")
    meta = {k: v for k, v in doc.meta.items() if k != "sha256"}
    with store.transaction() as conn:
        doc_id = store.write_document(
            conn, rel=entry.rel, path=entry.path, size=entry.size, mtime_ns=entry.mtime_ns,
            sha256=doc.meta.get("sha256", ""), status="indexed", fmt=doc.format, units=prep.units,
            meta=meta, replace_id=replace_id, warnings=doc.warnings, flags=prep.flags, indexed_at=indexed_at,
        )
        store.write_text(conn, doc_id, doc.text, doc.paragraphs, doc.furniture, doc.margins,
                         body=prep.body, packed_paragraphs=prep.packed_paragraphs, hidden=doc.hidden)
        store.write_fingerprints(
            conn, doc_id, params_json=params_key(params), simhash=prep.simhash, minhash_words=prep.minhash,
            lsh_keys=prep.lsh_keys, sentence_fps=prep.sentence_fps, anchors=prep.anchors, grams=prep.grams,
            sentence_hashes=prep.sentence_hashes, sentence_counts=sentence_counts, rows=prep.rows,
            new_document=True, bag=prep.bag,
        )
    return doc_id


def write_skipped(store: Store, entry: FileEntry, skipped: Skipped, replace_id: int | None = None) -> int:
    """Record a file that could not be used, with its reason, so it is listed, never dropped."""
    sha = ""
    if skipped.code != "too-large":  # over the size cap: not read at all, not even to hash it
        try:
            sha = file_sha256(entry.path)
        except OSError:
            pass
    with store.transaction() as conn:
        return store.write_document(
            conn, rel=entry.rel, path=entry.path, size=entry.size, mtime_ns=entry.mtime_ns, sha256=sha,
            status="skipped", code=skipped.code, reason=skipped.reason, replace_id=replace_id,
        )


def refingerprint(store: Store, params: FingerprintParams, progress: ProgressFn = no_progress) -> list[int]:
    """Recompute fingerprints whose parameters differ from ``params``, from the stored text, and
    record ``params`` as the index's (every caller needs both: ``index`` and a ``pairs`` pass on
    an index of an earlier version). Written in commit groups, as an index build is."""
    key = params_key(params)
    stale = doc_rows.fingerprinted_otherwise(store, key)
    with _CommitGroups(store) as group:
        for i, doc_id in enumerate(stale):
            progress(i / max(len(stale), 1), f"Re-fingerprinting {i + 1} of {len(stale)}")
            t = store.compared_text(doc_id)
            prep = prepare(t.text, params, t.hidden)
            group.next()
            store.write_flags(store.conn, doc_id, prep.flags)
            store.write_fingerprints(
                store.conn, doc_id, params_json=key, simhash=prep.simhash, minhash_words=prep.minhash,
                lsh_keys=prep.lsh_keys, sentence_fps=prep.sentence_fps, anchors=prep.anchors, grams=prep.grams,
                sentence_hashes=prep.sentence_hashes, sentence_counts=group.sentence_counts, bag=prep.bag,
            )
    store.set_meta("params", key)
    if stale:
        progress(1.0, f"Re-fingerprinted {count_noun(len(stale), 'document')}")
    return stale


def fill_bags(store: Store, progress: ProgressFn = no_progress) -> int:
    """Give the documents indexed before schema 5 their bag of units (``prepared.unit_bag``), from
    their stored texts, in commit groups; returns how many. Until then the pairs pass bounds them
    only once prepared (exact, slower in a copy-heavy collection)."""
    missing = store.documents_without_bags()
    with _CommitGroups(store) as group:
        for i, doc_id in enumerate(missing):
            progress(i / max(len(missing), 1), f"Completing the index: {i + 1} of {len(missing)}")
            t = store.compared_text(doc_id)
            group.next()
            store.write_bag(store.conn, doc_id, pack_bag(unit_bag(tokenize(t.text, t.hidden).ids)))
    return len(missing)


# A commit is a disk sync (synchronous=FULL): one per document made the writer the bottleneck
# of an index build (1,000 text files: 1.9 s of 4.4 s in COMMIT). Documents are grouped instead,
# each group at most this long or this large; every document is still whole or absent. Each
# commit also writes every page the group touched to the journal, and the search tables' rows
# land all over them: 2,375 files took 0.5 s less of the writer's time with groups of 2 s
# than of 0.5 s (a killed run redoes at most that much).
COMMIT_EVERY_S = 2.0
COMMIT_EVERY_DOCS = 1000
# SQLite's page cache while an index is built: the search tables' B-trees are written at random
# places, and with the default 2 MB their pages were read back again and again (797 files: the
# writer's sentence and anchor rows took 0.44 s instead of 0.70 s with 64 MB)
WRITE_CACHE_MB = 64


class _CommitGroups:
    """Groups consecutive document writes into one transaction (see COMMIT_EVERY_S); the
    sentences of the group's documents are counted once, just before it commits."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._txn = None
        self._since = 0.0
        self._docs = 0
        self.sentence_counts = SentenceCounts()

    def __enter__(self) -> "_CommitGroups":
        return self

    def __exit__(self, kind, exc, tb) -> None:  # noqa: ANN001
        # Cancelled: the documents written so far are whole, and kept; any other error rolls the
        # open group back.
        self.close(commit=kind is None or issubclass(kind, Cancelled))

    def next(self) -> None:
        """Called before each document: commits the group when it is old or large enough."""
        if self._txn is not None and (time.monotonic() - self._since > COMMIT_EVERY_S or self._docs >= COMMIT_EVERY_DOCS):
            self.close()
        if self._txn is None:
            self._txn = self.store.transaction()
            self._txn.__enter__()
            self._since, self._docs = time.monotonic(), 0
        self._docs += 1

    def close(self, commit: bool = True) -> None:
        txn, self._txn = self._txn, None
        if txn is None:
            return
        if commit:
            try:
                self.store.count_sentences(self.store.conn, self.sentence_counts)
            except BaseException as exc:
                txn.__exit__(type(exc), exc, exc.__traceback__)  # rolled back: nothing half-counted
                raise
            txn.__exit__(None, None, None)
        else:
            self.sentence_counts.take()  # (rolled back with their documents)
            err = RuntimeError("index write abandoned")
            try:
                txn.__exit__(RuntimeError, err, None)
            except RuntimeError:
                pass


def index_folder(store: Store, folder: str, settings: Settings, progress: ProgressFn = no_progress,
                 extraction=None, *, allow_empty: bool = False) -> IndexReport:  # noqa: ANN001
    """Bring the index of ``folder`` up to date; raises :class:`Cancelled` when cancelled.

    Raises :class:`FolderUnavailable`, changing nothing, when the folder cannot be read, and when
    it holds no documents at all while the index holds some, unless ``allow_empty`` (an unmounted
    share's empty mount point looks like a collection whose every file was deleted).

    ``extraction``: what extracts and fingerprints the files, with the signature of
    :func:`workers.process_many` (default: :func:`workers.process_many_behind`, its children fed
    while this thread writes; a Dask cluster's: :func:`dask_backend.dask_extraction`)."""
    started = time.monotonic()
    run_at = time.time()
    folder = os.path.abspath(folder)
    params = settings.fingerprints
    scan, existing, seen, kept_unread = _scan_for_update(store, folder, progress, allow_empty)
    changes = _what_changed(store, scan, existing, seen)
    for d in changes.gone:
        with store.transaction() as conn:
            store.remove(conn, d.id)
            store.forget_external_member(conn, d.path)
    written = _extract_and_write(store, changes.to_extract, existing, settings, run_at,
                                 wrap_progress(progress, 0.05, 0.95), extraction)
    skipped: list[Skipped] = list(scan.problems) + written.skipped
    stale = refingerprint(store, params, wrap_progress(progress, 0.95, 0.98))
    fill_bags(store, wrap_progress(progress, 0.98, 1.0))
    documents = doc_rows.noted(store)  # (only those with something to say: every row took 45 ms for 3,000)
    warned = _earlier_skips_and_warnings(documents, skipped)
    flagged = [(d.path, d.flags) for d in documents if d.status == "indexed" and d.flags]
    _keep_left_out(store, folder, scan)
    store.delete_meta(UNFINISHED_KEY)  # (a whole index holds no mark, as one made before marks were)
    report = IndexReport(
        added=written.added, updated=written.updated, moved=changes.moved, removed=len(changes.gone),
        unchanged=changes.unchanged, unread=len(kept_unread), skipped=tuple(skipped), warned=tuple(warned),
        flagged=tuple(flagged), refingerprinted=len(stale), reread=changes.reread,
        elapsed_s=time.monotonic() - started,
        changed_ids=tuple(written.changed_ids + stale), others=scan.others,
    )
    progress(1.0, index_summary(store.count("indexed"), len(warned), len(skipped)))
    log.info("indexed %s: %s", folder, report)
    return report


def _scan_for_update(store: Store, folder: str, progress: ProgressFn,
                     allow_empty: bool) -> tuple[ScanResult, dict[str, StoredDocument], set[str], set[str]]:
    """The first step of :func:`index_folder`: mark the index unfinished, scan ``folder`` (its
    external members included, the index's own files left out) and refuse a folder that is
    unavailable, changing nothing then. Returns the scan, the documents the index holds by rel,
    the rels still present (seen, or under a subfolder that could not be read) and those kept
    because they are under such a subfolder."""
    # Left set when this stops before the end (cancelled, the program closed, a crash, a full
    # disk), from the first step on: whoever opens the index next is told it holds only what was
    # done so far. A folder found unavailable changes nothing, this mark included.
    was_unfinished = store.get_meta(UNFINISHED_KEY)
    # (a path that is not valid UTF-8 is kept as it reads, its bad bytes as U+FFFD: it is said,
    # not used; such a folder is refused below, and the mark with it)
    store.set_meta(UNFINISHED_KEY, folder.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))
    progress(0.0, "Scanning the folder")
    scan = scan_folder(folder, wrap_progress(progress, 0.0, 0.05))
    # A folder that cannot be read at all (a typo, a drive not connected) says nothing of its
    # documents: taking them all for deleted would empty the index (and the examiner's work on it).
    existing = {d.rel: d for d in store.documents()}
    held = sum(not os.path.isabs(rel) for rel in existing)  # (external members: their own path)
    if folder in scan.unread or (not allow_empty and not scan.files and not scan.unread and held):
        if was_unfinished is None:
            store.delete_meta(UNFINISHED_KEY)
        else:
            store.set_meta(UNFINISHED_KEY, was_unfinished)
        if folder in scan.unread:
            raise FolderUnavailable(folder, folder_problem(folder)
                                    or next(p.reason for p in scan.problems if p.path == folder))
        raise FolderUnavailable(folder, f"it holds no documents now, while the index holds {held} "
                                        "(a drive or network share not connected?)", emptied=held)
    store.set_meta("folder", folder)
    # files added from outside the folder stay members while they exist; the index's
    # own files, kept in the folder (`neardup index . --db proposals.ndx`), are not among its others
    own = own_files(store)
    scan = ScanResult(files=scan.files + tuple(external_entries(store, folder)), problems=scan.problems,
                      unread=scan.unread, others=tuple(p for p in scan.others if not own(p)))
    seen = {f.rel for f in scan.files}
    # what is under a subfolder (or entry) that could not be read is kept as the index holds it
    unread = [os.path.relpath(u, folder).replace(os.sep, "/") for u in scan.unread]
    kept_unread = {rel for rel in existing if _under_any(rel, unread)} - seen
    seen |= kept_unread
    return scan, existing, seen, kept_unread


@dataclass
class _Changes:
    """What a scan found changed against the index (:func:`_what_changed`)."""

    to_extract: list[FileEntry]  # new and changed files, and those read again
    gone: list[StoredDocument]  # documents whose file is no longer there (a moved one excepted)
    unchanged: int
    moved: int
    reread: int  # files read again because an earlier reader of their format read them


def _what_changed(store: Store, scan: ScanResult, existing: dict[str, StoredDocument], seen: set[str]) -> _Changes:
    """Sort the scanned files against the index. A file touched but not changed (the same
    content) gets its new time and size; a new file with the content of a vanished one is a
    move, and keeps the document (its text, fingerprints, applicants and decisions): each of
    these is written in its own transaction here. The rest is to be extracted."""
    new: list[FileEntry] = []
    changed: list[FileEntry] = []
    # unchanged, but skipped for a reason this version no longer has, or read by an earlier reader
    again: list[FileEntry] = []
    unchanged = 0
    for f in scan.files:
        old = existing.get(f.rel)
        if old is None:
            new.append(f)
        elif _read_again(old):
            again.append(f)
        elif old.size == f.size and old.mtime_ns == f.mtime_ns:
            unchanged += 1
        else:
            changed.append(f)
    gone = [d for rel, d in existing.items() if rel not in seen]

    # A changed mtime with the same content is not a change; a new file with the hash of a
    # vanished one is a move: keep its text and fingerprints.
    moved = 0
    gone_by_sha = {}
    for d in gone:
        gone_by_sha.setdefault((d.size, d.sha256), d)
    to_extract: list[FileEntry] = list(again)
    reread = sum(1 for f in again if _older_reader(old := existing[f.rel])
                 and (old.size, old.mtime_ns) == (f.size, f.mtime_ns))
    for f in changed + new:
        old = existing.get(f.rel)
        candidates_move = old is None and any(size == f.size for size, _ in gone_by_sha)
        if old is None and not candidates_move:
            to_extract.append(f)
            continue
        try:
            sha = file_sha256(f.path)
        except OSError:
            to_extract.append(f)  # extraction will report why it cannot be read
            continue
        if old is not None and old.sha256 == sha:
            with store.transaction() as conn:
                doc_rows.set_file_stamp(conn, old.id, f.mtime_ns, f.size)
            unchanged += 1
            continue
        twin = gone_by_sha.pop((f.size, sha), None) if old is None else None
        if twin is not None:
            with store.transaction() as conn:
                doc_rows.set_place(conn, twin.id, f.rel, f.path, f.mtime_ns)
                examiner.moved(conn, store.path, twin.path, f.path)  # (its applicants and decisions follow it)
            gone.remove(twin)
            moved += 1
            continue
        to_extract.append(f)
    return _Changes(to_extract, gone, unchanged, moved, reread)


@dataclass
class _Written:
    """What :func:`_extract_and_write` wrote."""

    added: int
    updated: int
    skipped: list[Skipped]  # the files extraction could not read, in the order they came
    changed_ids: list[int]  # the documents indexed (not skipped), in the order they were written


def _extract_and_write(store: Store, to_extract: list[FileEntry], existing: dict[str, StoredDocument],
                       settings: Settings, run_at: float, extract_progress: ProgressFn,
                       extraction=None) -> _Written:  # noqa: ANN001
    """Extract ``to_extract`` in worker processes and write each document as it arrives, in
    commit groups (each document whole or absent); files with identical content are extracted once."""
    params = settings.fingerprints
    by_path = {f.path: f for f in to_extract}
    representatives, copies = identical_files(to_extract, settings.limits)
    added = updated = 0
    skipped: list[Skipped] = []
    changed_ids: list[int] = []
    total = len(to_extract)
    done = 0

    def extracted(paths: list[str]):  # noqa: ANN202 — (path, Document | Skipped, Prepared | None)
        def worker_progress(_fraction: float, message: str) -> None:  # (the fraction is of all files)
            extract_progress(done / total, message)

        return (extraction or process_many_behind)(paths, settings.limits, settings.workers, worker_progress,
                                                   prepare=(prepare_document, params))

    if to_extract:
        if extraction is None and processes.fork_safe():
            build_tables()  # (once here: the children forked below inherit them)
        # the largest files first: the children then finish together (797 copyright files: the
        # 2 MB ones, last in name order, left one child working alone for 0.4 s at the end)
        largest_first = sorted(representatives, key=lambda f: f.size, reverse=True)
        runs = _with_copies(extracted([f.path for f in largest_first]), copies, extracted)
        # Closed explicitly: an error while writing (a full disk) must not leave the workers
        # running for as long as something holds the traceback (the app shows it to the examiner).
        with store.page_cache(WRITE_CACHE_MB), store.filling_grams(), _CommitGroups(store) as group:
            try:
                for path, result, prep in runs:
                    group.next()
                    entry = by_path[path]
                    old = existing.get(entry.rel)
                    if isinstance(result, Skipped):
                        skipped.append(result)
                        doc_id = write_skipped(store, entry, result, replace_id=old.id if old else None)
                    else:
                        doc_id = write_indexed(store, entry, result, params, replace_id=old.id if old else None, prep=prep,
                                               indexed_at=run_at,
                                               sentence_counts=group.sentence_counts)
                        changed_ids.append(doc_id)
                    if old is None:
                        added += 1
                    else:
                        updated += 1
                    done += 1
                    extract_progress(done / total, f"Indexed {done} of {total}: {entry.rel}")
            finally:
                runs.close()
    return _Written(added, updated, skipped, changed_ids)


def _earlier_skips_and_warnings(documents: list[StoredDocument], skipped: list[Skipped]
                                ) -> list[tuple[str, tuple[str, ...]]]:
    """Files skipped in earlier runs stay listed with their reason (added to ``skipped``), and
    documents indexed with warnings keep them: returns those, ``(path, warnings)``, of the
    index's ``documents`` (all of them, or at least the skipped and those with warnings)."""
    known_skips = {s.path for s in skipped}
    warned: list[tuple[str, tuple[str, ...]]] = []
    for d in documents:
        if d.status == "skipped" and d.path not in known_skips:
            skipped.append(Skipped(d.path, d.code, d.reason))
        elif d.status == "indexed" and d.warnings:
            warned.append((d.path, d.warnings))
    return warned


def _read_again(old) -> bool:  # noqa: ANN001 - a stored document
    """A document skipped by an earlier version for a reason this one no longer has (every Word
    97-2003 .doc was "legacy Word .doc: save it as .docx" before extract/doc.py read them), or
    read by an earlier reader of its format (``extract.READER_VERSIONS``)."""
    if old.status == "skipped":
        return old.code == "legacy-doc" and old.reason.startswith("legacy Word .doc")
    return _older_reader(old)


def _older_reader(old) -> bool:  # noqa: ANN001 - a stored document
    """Whether an indexed document was read by an earlier reader of its format than this one."""
    try:
        read_by = int(old.meta.get("reader", 1))
    except (TypeError, ValueError):
        read_by = 1
    return old.status == "indexed" and read_by < reader_version(old.format)


def own_files(store: Store):  # noqa: ANN202 - (path) -> bool
    """Whether a path is one of the index's own files: the index, its WAL and shared memory, its
    rollback journal, the screenings' indexes beside it, the examiner's records beside it."""
    base = os.path.abspath(str(store.path))
    side = str(examiner.side_file(base))
    exact = {base, base + "-wal", base + "-shm", base + "-journal", side, side + ".tmp"}
    screenings = base + SCREENINGS_SUFFIX + os.sep
    return lambda path: path in exact or path.startswith(screenings)


UNFINISHED_KEY = "indexing_unfinished"  # meta: the folder, from the start of an indexing to its end


def unfinished(store: Store) -> str:
    """The folder whose last indexing stopped before its end (cancelled, the program closed or
    killed, an error), "" when it ended: the index holds the documents done until then, each
    whole; a refresh goes on from there."""
    return store.get_meta(UNFINISHED_KEY, "") or ""


LEFT_OUT_KEY = "left_out"  # the meta key of what the last scan of the folder left out


def _unread_files(scan: ScanResult) -> list[Skipped]:
    """The scan's problems that are files or folders not read (a name the index cannot keep, no
    permission, a broken link, a link loop): not a second link to a file listed once."""
    return [p for p in scan.problems if p.code != "duplicate-link"]


def _keep_left_out(store: Store, folder: str, scan: ScanResult) -> None:
    """Keep what the scan left out (files of other formats, files it could not read) in the index's
    meta, relative to the folder, so that a window opening the index later still names them."""
    def rel(path: str) -> str:
        return os.path.relpath(path, folder).replace(os.sep, "/")

    store.set_meta(LEFT_OUT_KEY, json.dumps({
        "others": [rel(p) for p in scan.others],
        "unread": [[rel(p.path), p.code, p.reason] for p in _unread_files(scan)],
    }, ensure_ascii=False))


def left_out(store: Store) -> tuple[tuple[str, ...], tuple[Skipped, ...]]:
    """What the last scan of the collection's folder left out: the files of other formats and the
    files it could not read (absolute paths), as :func:`index_folder` kept them; empty for an
    index made before they were kept."""
    folder = store.get_meta("folder", "")
    try:
        kept = json.loads(store.get_meta(LEFT_OUT_KEY, "{}"))
        others = tuple(os.path.join(folder, r) for r in kept.get("others", ()))
        unread = tuple(Skipped(os.path.join(folder, r), code, reason) for r, code, reason in kept.get("unread", ()))
    except (ValueError, TypeError, AttributeError):
        return (), ()
    return others, unread


def _under_any(rel: str, places: Sequence[str]) -> bool:
    """True when ``rel`` (a path in the collection, "/" between its parts) is one of ``places`` or inside one."""
    return any(rel == p or rel.startswith(p + "/") for p in places)


def identical_files(entries: list[FileEntry], limits: ExtractLimits) -> tuple[list[FileEntry], dict[str, list[FileEntry]]]:
    """The files to extract, and for each of them the other files with the same bytes and format.

    A copy-heavy collection holds many identical files (resubmissions; Debian packages that
    share one copyright file: 365 of 797), and extraction and fingerprints depend on nothing
    else: each is done once. Only files sharing their size with another are read (to hash
    them); a file that changes while it is hashed, or cannot be read, is extracted on its own.
    """
    cap = limits.size_limit_mb * 1024 * 1024
    by_size: dict[int, list[FileEntry]] = {}
    for entry in entries:
        if 0 < entry.size <= cap and format_of(entry.path) is not None:
            by_size.setdefault(entry.size, []).append(entry)
    groups: dict[tuple[str, str | None], list[FileEntry]] = {}
    for same_size in by_size.values():
        if len(same_size) < 2:
            continue
        for entry in same_size:
            digest = _steady_sha256(entry)
            if digest is not None:
                groups.setdefault((digest, format_of(entry.path)), []).append(entry)
    copies = {members[0].path: members[1:] for members in groups.values() if len(members) > 1}
    copied = {e.path for members in copies.values() for e in members}
    return [e for e in entries if e.path not in copied], copies


def _steady_sha256(entry: FileEntry) -> str | None:
    """The file's SHA-256 when it is still the file the scan saw, before and after reading it."""
    try:
        before = os.stat(entry.path)
        digest = file_sha256(entry.path)
        after = os.stat(entry.path)
    except OSError:
        return None
    seen = (entry.size, entry.mtime_ns)
    if (before.st_size, before.st_mtime_ns) != seen or (after.st_size, after.st_mtime_ns) != seen:
        return None
    return digest


def _with_copies(runs, copies: dict[str, list[FileEntry]], extract):  # noqa: ANN001, ANN202
    """``runs``, each document followed by its identical copies (its own path and modification
    time; the text, fingerprints and everything else shared). The copies of a file that was
    skipped are extracted themselves afterwards (``extract(paths)``): why it was skipped may be
    the file's own (it vanished, a time limit)."""
    retry: list[str] = []
    try:
        for path, result, prep in runs:
            yield path, result, prep
            for copy in copies.get(path, ()):
                if isinstance(result, Skipped):
                    retry.append(copy.path)
                else:
                    meta = {**result.meta, "mtime_ns": str(copy.mtime_ns)} if "mtime_ns" in result.meta else result.meta
                    yield copy.path, dataclasses.replace(result, path=copy.path, meta=meta), prep
    finally:
        runs.close()
    if retry:
        again = extract(retry)
        try:
            yield from again
        finally:
            again.close()


def index_summary(indexed: int, warned: int, skipped: int) -> str:
    """"Indexed 512 documents (3 with warnings, 2 skipped)": the end of every indexing run."""
    return f"Indexed {count_noun(indexed, 'document')} ({warned} with warnings, {skipped} skipped)"


def external_entries(store: Store, folder: str) -> list[FileEntry]:
    """The collection's external members (files added from outside its folder) that still
    exist, listed by their absolute path; one that is gone drops out like a deleted file."""
    entries = []
    for path in store.external_members():
        if os.path.commonpath([folder, path]) == folder:
            continue  # (the folder's own scan lists it)
        try:
            st = os.stat(path)
        except OSError:
            continue
        entries.append(FileEntry(path=path, rel=path, size=st.st_size, mtime_ns=st.st_mtime_ns))
    return entries


def index_files(store: Store, entries: Iterable[FileEntry], settings: Settings, progress: ProgressFn = no_progress) -> list[int]:
    """Add or update individual files (a checked submission added to the collection); the id of
    each, in the order of ``entries`` (the files are extracted in parallel and finish in any
    order: paired by order of completion, a good file was once reported with its neighbour's
    reason for being skipped)."""
    entries = list(entries)
    by_path = {e.path: e for e in entries}
    ids: dict[str, int] = {}
    run_at = time.time()
    runs = extract_many(list(by_path), settings.limits, settings.workers, no_progress)
    try:  # closed explicitly, as in index_folder: a failed write must not leave workers running
        for n, (path, result) in enumerate(runs, 1):
            entry = by_path[path]  # (a document already at its name is replaced by the store's write)
            if isinstance(result, Skipped):
                ids[path] = write_skipped(store, entry, result)
            else:
                ids[path] = write_indexed(store, entry, result, settings.fingerprints, indexed_at=run_at)
            progress(n / len(by_path), f"Added {n} of {len(by_path)}: {entry.rel}")
    finally:
        runs.close()
    return [ids[e.path] for e in entries]


__all__ = ["IndexReport", "index_folder", "index_files", "index_summary", "prepare", "refingerprint", "params_key", "Cancelled"]
