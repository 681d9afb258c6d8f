"""One collection and its index: the single entry point the window and the command line share.

A :class:`Collection` wraps one index file. It indexes a folder incrementally, checks new
submissions against it, lists verified near-duplicate pairs and clusters, and compares two
documents exactly. It is used from one thread at a time (SQLite connections stay in the thread
that opened them): the app opens one per task.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import os
import shutil
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from neardup_gui.core import indexer, pairpass
from neardup_gui.core.applicants import carry_applicants, metadata_names
from neardup_gui.core.candidates import CandidateFinder
from neardup_gui.core.compare import units_in_spans
from neardup_gui.core.credit import credit, credited_first
from neardup_gui.core.matrixcache import MatrixCache
from neardup_gui.core.prepared import PreparedDocument, UnitCodes
from neardup_gui.core.document import Document, Skipped
from neardup_gui.core.fingerprints import Fingerprints, fingerprint_document
from neardup_gui.core.flags import integrity_flags
from neardup_gui.core.indexer import IndexReport
from neardup_gui.core.passages import rules_key as passage_rules_key
from neardup_gui.core.progress import ProgressFn, no_progress, wrap_progress
from neardup_gui.core.ownership import Records, judged, set_apart, stamp_of
from neardup_gui.core.results import (
    NOBODY, Applicants, CheckResult, CheckSummary, Cluster, Comparison, DocumentInfo, Exclusions, Pair, SourceMatch,
)
from neardup_gui.core.summary import set_apart_mask, summarise
from neardup_gui.core.scan import FileEntry, UnkeepableName, is_valid_name, name_problem, shown_name
from neardup_gui.core.settings import COLLECTION_FIELDS, Settings, collection_values, with_values
from neardup_gui.core.store import DocumentGone, IndexProblem, Store
from neardup_gui.core.store import documents as doc_rows, pairs as pairs_cache, search as search_store
from neardup_gui.core.templates import COPIES_ALIKE, MIN_SENTENCE_UNITS, sentence_key_spans, sentence_keys
from neardup_gui.core.templates import copied_keys as templates_copied_keys
from neardup_gui.core.units import Units
from neardup_gui.core.verify import Marked, Verifier
from neardup_gui.core.workers import extract_isolated, start_extraction

log = logging.getLogger(__name__)

# The verified-pairs cache keeps the pairs at or above the threshold asked (a lower threshold
# asked later pairs the collection again: a floor below it made every pass verify far more,
# docs/speed.md), and, once pairs are asked by containment, those whose larger containment
# reaches this (a screening ranks by it), whatever their r.
PAIR_CONTAINMENT_FLOOR = 0.2
# The default cut of pairs ranked by containment (the screening's default flag line).
CONTAINMENT_CUT = 0.3
PAIR_ORDERS = ("similarity", "containment")
# A source is listed for a checked submission when at least this share of it is copied.
SOURCE_FLOOR = 0.01
# Clusters up to this size get the similarity of every pair of members, compared exactly where
# the pairs cache has none (below its floor); larger ones show the cached pairs only.
RING_MAX_COMPARE = 40

__all__ = ["AddedFile", "Collection", "IndexProblem", "IndexReport", "compare_files", "copy_target", "read_submission"]


def read_submission(path: str, settings: Settings) -> Document | Skipped:
    """Extract one submission in a killable worker process (a hostile file cannot hang us)."""
    return extract_isolated(os.path.abspath(path), settings.limits)


def _info(d, applicants: Applicants = NOBODY) -> DocumentInfo:  # noqa: ANN001 - a store.StoredDocument
    return DocumentInfo(
        doc_id=d.id, path=d.path, rel=d.rel, size=d.size, sha256=d.sha256, status=d.status,
        reason=d.reason, units=d.units, template_share=float(d.meta.get("template_share", 0.0)),
        format=d.format, exclusions=Exclusions.from_dict(d.meta.get("exclusions") or {}),
        warnings=tuple(d.warnings), flags=d.flags, indexed_at=float(d.indexed_at or 0.0), applicants=applicants,
        authors=metadata_names(d.meta),
    )


def _file_stamp(path: str) -> tuple[str, int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (path, -1, -1)
    return (path, st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=8)
def _template_file_keys(stamps: tuple[tuple[str, int, int], ...], limits) -> frozenset[int]:  # noqa: ANN001
    keys: set[int] = set()
    for path, _, _ in stamps:
        result = read_submission(path, Settings(limits=limits))
        if isinstance(result, Document):
            keys.update(k for _, k in sentence_keys(result.text))
        else:
            log.warning("template file %s skipped: %s", path, result.reason)
    return frozenset(keys)


def user_template_keys(settings: Settings) -> frozenset[int]:
    """Sentence keys of the user's own template files: template wherever they occur.

    Extracted in a killable worker like any submission, and once per version of the files (keyed
    by size and mtime), not on every check.
    """
    if not settings.template_files:
        return frozenset()
    return _template_file_keys(tuple(_file_stamp(p) for p in settings.template_files), settings.limits)


@dataclass(frozen=True)
class AddedFile:
    """A file added to the collection: where it came from, the member's path, and how it was kept.

    ``how``: "copied" (into the collection's folder), "external" (stays where it is; a refresh
    keeps it), "inside" (it was in the folder already)."""

    source: str
    member: str
    how: str
    doc_id: int = 0

    def to_json(self, skipped_reason: str | None) -> dict[str, Any]:
        """``skipped_reason``: why its document could not be read (None: it was indexed)."""
        return {"file": self.source, "member": self.member, "how": self.how, "skipped_reason": skipped_reason}


def _inside(folder: str, path: str) -> bool:
    return os.path.commonpath([folder, path]) == folder


def copy_target(folder: str, name: str, on_clash: str = "rename") -> str:
    """Where a file called ``name`` is copied into ``folder``: its name, or when taken and
    ``on_clash`` is "rename", the first free ``stem (n).ext`` (n = 2, 3, …)."""
    target = os.path.join(folder, name)
    if on_clash == "replace" or not os.path.exists(target):
        return target
    stem, ext = os.path.splitext(name)
    n = 2
    while os.path.exists(os.path.join(folder, f"{stem} ({n}){ext}")):
        n += 1
    return os.path.join(folder, f"{stem} ({n}){ext}")


class Collection:
    """An open index file (SQLite) of one collection folder."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._finder: CandidateFinder | None = None
        self._finder_key: tuple | None = None
        self._marked: dict[int, Marked] = {}
        self._verifier_key: str | None = None
        self._copied: tuple[tuple[int, int], frozenset[int]] | None = None  # see copied_keys
        self._records: Records | None = None  # see records

    # --- opening -------------------------------------------------------------------------------

    @classmethod
    def open(cls, db_path: str | Path, *, create: bool = True) -> "Collection":
        """Open (or create) an index file; raises :class:`IndexProblem` with a plain message."""
        return cls(Store(db_path, create=create))

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> "Collection":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def db_path(self) -> Path:
        return self.store.path

    @property
    def folder(self) -> str | None:
        return self.store.get_meta("folder")

    def settings_for(self, defaults: Settings) -> Settings:
        """``defaults`` with this collection's own values (threshold, exclusions, template files,
        …) where it has them; an unusable stored value keeps the default, with a warning."""
        stored = {k: v for k, v in self.store.collection_settings().items() if k in COLLECTION_FIELDS}
        return with_values(defaults, stored, where=str(self.db_path))

    def has_own_settings(self) -> bool:
        return bool(self.store.collection_settings())

    def save_settings(self, settings: Settings) -> None:
        """Keep ``settings``' per-collection values with this collection (in its index)."""
        self.store.set_collection_settings(collection_values(settings))

    def _changed(self) -> None:
        self._finder = None
        self._marked.clear()

    # --- indexing ------------------------------------------------------------------------------

    def index_folder(self, folder: str, settings: Settings, progress: ProgressFn = no_progress, *,
                     allow_empty: bool = False) -> IndexReport:
        """Index ``folder`` incrementally (see :mod:`neardup_gui.core.indexer`; ``allow_empty``:
        a folder that holds no documents now empties the index, instead of changing nothing)."""
        extraction = None
        if settings.dask_address:
            from neardup_gui.core.dask_backend import DaskConnection, dask_extraction

            extraction = dask_extraction(DaskConnection.of(settings))
        try:
            report = indexer.index_folder(self.store, folder, settings, progress, extraction,
                                          allow_empty=allow_empty)
        finally:
            self._changed()
        progress(1.0, "Saving the search tables")
        self.finder(settings).save()
        return report

    def add_files(self, paths: Sequence[str], settings: Settings, progress: ProgressFn = no_progress,
                  *, keep: str = "external", on_clash: str = "rename") -> list[AddedFile]:
        """Make checked submissions members of the collection, so a refresh keeps them.

        ``keep="copy"``: each file is copied into the collection's folder (a file of the same name
        there is kept and the copy renamed ``name (2).ext``, or, with ``on_clash="replace"``,
        replaced); ``keep="external"``: the file stays where it is and is remembered as an
        external member. A file already inside the folder is simply indexed. Returns what was
        done with each file, in order.
        """
        if keep not in ("copy", "external") or on_clash not in ("rename", "replace"):
            raise ValueError(f"keep={keep!r}, on_clash={on_clash!r}")
        folder = self.folder
        if not folder:
            raise ValueError("this index has no collection folder; index a folder first")
        for p in map(os.path.abspath, paths):  # (before anything is done: a name the index cannot keep)
            problem = name_problem(p, "path")
            if problem:
                raise UnkeepableName(f"{shown_name(p)}: {problem}")
        done: list[AddedFile] = []
        for p in paths:
            p = os.path.abspath(p)
            if _inside(folder, p):
                done.append(AddedFile(p, p, "inside"))
            elif keep == "copy":
                target = copy_target(folder, os.path.basename(p), on_clash)
                shutil.copy2(p, target)
                done.append(AddedFile(p, target, "copied"))
            else:
                with self.store.transaction() as conn:
                    self.store.add_external_member(conn, p)
                done.append(AddedFile(p, p, "external"))
        entries = []
        for added in done:
            st = os.stat(added.member)
            entries.append(FileEntry(path=added.member, rel=self._rel_for(added.member), size=st.st_size,
                                     mtime_ns=st.st_mtime_ns))
        carry_applicants(self.store, [(a.source, a.member) for a in done if a.how == "copied"])
        try:
            ids = indexer.index_files(self.store, entries, settings, progress)
        finally:
            self._changed()
        return [replace(a, doc_id=i) for a, i in zip(done, ids)]

    def _rel_for(self, path: str) -> str:
        folder = self.folder
        if folder and _inside(folder, path):
            return os.path.relpath(path, folder).replace(os.sep, "/")
        return path  # a file outside the folder is listed by its absolute path

    # --- reading -------------------------------------------------------------------------------

    def documents(self) -> list[DocumentInfo]:
        records = self.records()
        return [_info(d, records.applicants.of(d.path, d.sha256, d.meta)) for d in self.store.documents()]

    def document(self, doc_id: int) -> DocumentInfo:
        d = self.store.document(doc_id)
        if d is None:
            raise DocumentGone(doc_id)
        return _info(d, self.records().applicants.of(d.path, d.sha256, d.meta))

    def records(self) -> Records:
        """The examiner's records (applicants, decisions) as they are now: read again only when
        they changed since the last reading (another window or command may change them)."""
        if self._records is None or self._records.stamp != stamp_of(self.store):
            self._records = Records.load(self.store)
        return self._records

    def document_text(self, doc_id: int) -> str:
        return self.store.text(doc_id).text

    def same_document(self, info: DocumentInfo) -> None:
        """Raise :class:`DocumentGone` unless this index's document ``info.doc_id`` is the one
        ``info`` describes (the same content).

        Ids are never reused within one index, but a rebuilt index numbers its documents from 1
        again: a check shown before a rebuild named its sources by the old numbers, and the side
        by side of a source (or a report) opened before the check was made again showed whichever
        document the new index gave that number, under the old source's name."""
        d = self.store.document(info.doc_id)
        if d is None or (info.sha256 and d.sha256 != info.sha256):
            raise DocumentGone(info.doc_id)

    def stats(self) -> dict[str, int]:
        return {"documents": self.store.count(), "indexed": self.store.count("indexed"),
                "with_warnings": self.store.count_with_warnings(), "skipped": self.store.count("skipped")}

    # --- templates and verification ------------------------------------------------------------

    def template_min_frequency(self, settings: Settings) -> int:
        """Documents a sentence must be in to be template by the automatic rule (both tests)."""
        n = self.store.count("indexed")
        return max(settings.template_min_docs, math.ceil(settings.template_min_share * n - 1e-9), 2)

    def template_keys(self, settings: Settings) -> np.ndarray:
        """Sentences template by the automatic rule: in at least ``template_min_docs`` documents
        and at least ``template_min_share`` of the collection (the call's form), unless their
        documents copy one another (:meth:`copied_keys`), minus those the examiner chose to
        count. Empty with ``auto_template`` off."""
        if not settings.auto_template:
            return np.zeros(0, dtype=np.int64)
        keys = self.form_keys(self.template_min_frequency(settings))
        _, counted = self.store.marked_keys()
        if counted and len(keys):
            keys = keys[~np.isin(keys, np.fromiter(counted, dtype=np.int64, count=len(counted)))]
        return keys

    def form_keys(self, min_frequency: int) -> np.ndarray:
        """Sentences in at least ``min_frequency`` documents that are not copying
        (:meth:`copied_keys`): the automatic rule's part before the examiner's choices."""
        keys = self.store.frequent_sentences(min_frequency)
        copied = self.copied_keys(min_frequency)
        if copied and len(keys):
            keys = keys[~np.isin(keys, np.fromiter(copied, dtype=np.int64, count=len(copied)))]
        return keys

    def copied_keys(self, min_frequency: int) -> frozenset[int]:
        """Sentences in at least ``min_frequency`` documents whose documents are copies of one
        another beyond them (``templates.copied_keys``): copying, counted though frequent.

        Two documents are alike when the edited passages they share (a comparison counting
        everything, under the default settings: the question is what the documents hold, not
        what the examiner counts) cover at least ``COPIES_ALIKE`` of their text outside the
        frequent sentences, or when neither holds anything else. Kept until the index's
        documents change."""
        # One state of the index throughout: another window or command indexing it meanwhile
        # removed documents between the list of a sentence's documents and the reading of their
        # texts (`neardup screen` beside `neardup index`: DocumentGone, with its traceback).
        with self.store.reading():
            return self._copied_keys(min_frequency)

    def _copied_keys(self, min_frequency: int) -> frozenset[int]:
        state = (self.store.fingerprint_generation(), min_frequency)
        if self._copied is not None and self._copied[0] == state:
            return self._copied[1]
        keys = self.store.frequent_sentences(min_frequency)
        copied: frozenset[int] = frozenset()
        if len(keys):
            plain = Verifier(Settings(), (), ())
            ordered = np.sort(keys)
            # per document: its text marked, and its units outside every frequent sentence
            docs: dict[int, tuple[Marked, np.ndarray]] = {}
            answers: dict[tuple[int, int], bool] = {}

            def document(doc_id: int) -> tuple[Marked, np.ndarray]:
                if doc_id not in docs:
                    t = self.store.compared_text(doc_id)
                    m = plain.mark(t.text, t.furniture, hidden=t.hidden)
                    starts, ends, hashes = sentence_key_spans(m.text, m.units)
                    at = np.minimum(np.searchsorted(ordered, hashes), len(ordered) - 1)
                    found = ordered[at] == hashes
                    spans = list(zip(starts[found].tolist(), ends[found].tolist()))
                    docs[doc_id] = (m, ~units_in_spans(m.units, spans))
                return docs[doc_id]

            def alike(a: int, b: int) -> bool:
                if (a, b) not in answers:
                    (ma, rest_a), (mb, rest_b) = document(a), document(b)
                    rest = int(rest_a.sum()) + int(rest_b.sum())
                    if rest < 2 * plain.settings.min_run:
                        answers[a, b] = True  # nothing else in either: byte copies, or copies of one text
                    else:
                        result = plain.compare(ma, mb)
                        shared = 0 if result is None else int(
                            (units_in_spans(ma.units, [p.a for p in result.passages]) & rest_a).sum()
                            + (units_in_spans(mb.units, [p.b for p in result.passages]) & rest_b).sum())
                        answers[a, b] = shared >= COPIES_ALIKE * rest
                return answers[a, b]

            copied = templates_copied_keys(self.store.sentence_documents(keys.tolist()), alike)
        self._copied = (state, copied)
        return copied

    def verifier(self, settings: Settings) -> Verifier:
        """The one template model of this collection under ``settings``: checks, pairs, clusters,
        comparisons and reports all mark texts through it."""
        keys = self.template_keys(settings)
        marked, _ = self.store.marked_keys()
        v = Verifier(settings, keys, user_template_keys(settings), marked)
        key = self._verify_key(settings, v)
        if key != self._verifier_key:
            self._marked.clear()
            self._verifier_key = key
        return v

    # --- text the examiner marks -----------------------------------------------------------------

    def mark_template(self, text: str, action: str = "exclude") -> int:
        """Mark the sentences of ``text`` as template (``exclude``) or to be counted (``count``),
        stored in the index; returns the mark's id (``unmark`` undoes it). Results derived
        afterwards (pairs, clusters, checks) use it: the pairs cache is keyed by the template."""
        keys = sorted({k for _, k in sentence_keys(text)})
        if not keys:
            raise ValueError("the text holds no sentence long enough to mark "
                             f"(at least {MIN_SENTENCE_UNITS} words or characters)")
        mark_id = self.store.add_template_mark(action, text, keys)
        self._changed()
        return mark_id

    def mark_keys(self, keys: Sequence[int], text: str, action: str = "exclude") -> int:
        """Mark given sentence keys (a common passage's) with its text; see :meth:`mark_template`."""
        mark_id = self.store.add_template_mark(action, text, list(keys))
        self._changed()
        return mark_id

    def unmark(self, mark_id: int) -> bool:
        """Undo a mark of the examiner; False when there was none with this id."""
        done = self.store.remove_template_mark(mark_id)
        self._changed()
        return done

    def _verify_key(self, settings: Settings, v: Verifier) -> str:
        return _verify_key_of(_verify_base(settings), _sorted_keys(v.all_template_keys))

    def _save_pairs_template(self, settings: Settings, v: Verifier) -> None:
        self.store.save_search_table(PAIRS_TEMPLATE, _verify_base(settings),
                                     _sorted_keys(v.all_template_keys).astype("<i8").tobytes())

    def _template_changed(self, settings: Settings, v: Verifier, stored_key: str | None) -> set[int] | None:
        """The documents whose countable text differs between the pairs cache's template and
        ``v``'s, when nothing else of the verification changed: those holding a sentence that
        became template or stopped being one (a mark, an undo, a sentence the automatic rule
        took in or let go). None when that cannot be told: other settings, no snapshot of the
        cache's template keys (an index of an earlier version), or one that does not give
        ``stored_key`` (not the keys the cached pairs were made with)."""
        base = _verify_base(settings)
        data = self.store.load_search_table(PAIRS_TEMPLATE, base) if stored_key else None
        if data is None or len(data) % 8:
            return None
        before = np.frombuffer(bytes(data), dtype="<i8")
        if _verify_key_of(base, before) != stored_key:
            return None
        changed = np.setxor1d(before, _sorted_keys(v.all_template_keys)).tolist()
        return {d for docs in self.store.sentence_documents(changed).values() for d in docs}

    def marked(self, doc_id: int, v: Verifier) -> Marked:
        m = self._marked.get(doc_id)
        if m is None:
            t = self.store.compared_text(doc_id)
            # (an indexed document's quotations are never read: only a submission's, summarised)
            m = v.mark(t.text, t.furniture, hidden=t.hidden, quoted=False)
            if len(self._marked) > 512:
                self._marked.clear()
            self._marked[doc_id] = m
        return m

    def finder(self, settings: Settings) -> CandidateFinder:
        key = (settings.strategy, indexer.params_key(settings.fingerprints), self.store.count())
        if self._finder is None or self._finder_key != key:
            self._finder = CandidateFinder(self.store, settings)
            self._finder_key = key
        return self._finder

    def compare(self, doc_a: int, doc_b: int, settings: Settings) -> Comparison:
        """The exact comparison of two indexed documents (A = ``doc_a``)."""
        v = self.verifier(settings)
        result = v.compare(self.marked(doc_a, v), self.marked(doc_b, v))
        assert result is not None  # no cut-offs given
        return result

    # --- checking submissions ------------------------------------------------------------------

    def check(
        self,
        paths: Sequence[str],
        settings: Settings,
        progress: ProgressFn = no_progress,
        extraction: Iterator[tuple[str, Document | Skipped, Any]] | None = None,
    ) -> list[CheckResult]:
        """Check each submission against the collection: verified sources, best first.

        The submissions are extracted in killable worker processes while this process loads
        the template model and the search tables; the workers also tokenize and fingerprint
        them (:func:`fingerprints.fingerprint_document`), so a cold ``neardup check`` overlaps
        the two.
        ``extraction``: that extraction started by the caller (:func:`workers.start_extraction`
        over the absolute paths, with ``prepare=(SUBMISSION_PREPARE, settings.fingerprints)``),
        consumed and closed here.
        """
        paths = [os.path.abspath(p) for p in paths]
        results: dict[int, CheckResult] = {}
        extracted: dict[str, tuple[Document | Skipped, Any]] = {}
        if paths:
            progress(0.0, f"Reading {os.path.basename(paths[0])}")

        def reading(_fraction: float, _name: str) -> None:  # ticks while waiting: lets a cancel through
            progress(len(results) / max(len(paths), 1), "Reading the submissions")

        runs = extraction
        try:
            if runs is None:
                runs = start_extraction(list(dict.fromkeys(paths)), settings.limits,
                                        max(1, min(settings.workers, len(paths))), reading,
                                        prepare=(fingerprint_document, settings.fingerprints))
            # while the workers read the files
            self.finder(settings)
            v = self.verifier(settings)
            for i, path in enumerate(paths):
                while path not in extracted:
                    done, result, prepared = next(runs)
                    extracted[os.path.abspath(done)] = (result, prepared)
                doc, prepared = extracted[path]
                if isinstance(doc, Skipped):
                    results[i] = CheckResult(path=shown_name(path), file=_unless_shown(path), units=0, matches=(),
                                             summary=CheckSummary(0, 0, 0, 0),
                                             skipped_reason=doc.reason)
                    continue
                sub = wrap_progress(progress, i / len(paths), (i + 1) / len(paths))
                sub(0.0, f"Checking {os.path.basename(path)}")
                results[i] = self.check_document(doc, settings, sub, verifier=v, prepared=prepared)
        finally:
            if runs is not None:
                runs.close()  # no worker outlives the check (cancelled or not)
        progress(1.0, "Checked")
        return [results[i] for i in range(len(paths))]

    def check_document(self, doc: Document, settings: Settings, progress: ProgressFn = no_progress,
                       verifier: Verifier | None = None,
                       prepared: tuple[Units, Fingerprints] | None = None, records: Records | None = None) -> CheckResult:
        """Check one extracted submission; the collection's copy of the same file is not a source.

        ``verifier``: ``self.verifier(settings)`` when the caller has it already; ``prepared``:
        :func:`fingerprints.fingerprint_document` of ``doc``, when done already; ``records``: the
        examiner's applicants and decisions (default: this index's; a call's screening gives
        the collection's)."""
        v = verifier or self.verifier(settings)
        records = records or self.records()
        units, fp = prepared if prepared is not None else fingerprint_document(doc, settings.fingerprints)
        sub = v.mark(doc.text, doc.furniture, units)
        # (a name that is not valid UTF-8 is never in the index: the scan leaves it out)
        same_file = doc_rows.ids_at(self.store, os.path.abspath(doc.path)) if is_valid_name(doc.path) else set()
        countable = sub.countable_mask()
        candidates = self.finder(settings).find(fp, units.ids[countable], exclude=same_file)
        matches: list[SourceMatch] = []
        ordered = sorted(candidates.values(), key=lambda c: (-c.shared_anchors, -(c.estimate or 0), c.doc_id))
        # the submission coded once, each candidate against it on the prepared path (the same
        # answer as v.compare; its bounds drop a candidate that shares a chance run or two before
        # any alignment)
        codes = UnitCodes()
        prepared_sub = v.prepare(sub, codes) if ordered else None
        for n, cand in enumerate(ordered, 1):
            progress(n / max(len(ordered), 1), f"Verifying {n} of {len(ordered)} candidates")
            info = self.store.document(cand.doc_id)
            if info is None or info.status != "indexed":
                continue
            comp = v.compare_prepared(prepared_sub, v.prepare(self.marked(cand.doc_id, v), codes),
                                      min_similarity=SOURCE_FLOOR, min_containment=SOURCE_FLOOR)
            if comp is None or not comp.passages and comp.passage_units_a == 0:
                continue
            if comp.containment_a < SOURCE_FLOOR and comp.similarity < SOURCE_FLOOR:
                continue
            matches.append(SourceMatch(_info(info, records.applicants.of(info.path, info.sha256, info.meta)), comp,
                                       cand.estimate, tuple(sorted(cand.found_by))))
        # whose each source is (the applicant's own?) and what the examiner decided on it
        sha = str(doc.meta.get("sha256", ""))
        applicants = records.applicants.of(os.path.abspath(doc.path), sha, doc.meta)
        matches = judged(matches, (sha, os.path.abspath(doc.path)), applicants, records)
        # whose text each passage is: one source each, the others "also in" (core/credit.py);
        # the sources the examiner set apart after them, credited among themselves
        apart = credited_first(credit(sub.units, countable, [m for m in matches if set_apart(m)]))
        counting = countable & ~set_apart_mask(sub.units, countable, apart)  # (permitted text counts nowhere)
        counted = credited_first(credit(sub.units, counting, [m for m in matches if not set_apart(m)]))
        # (the path as it can be shown, printed and written in a report: a name that is not valid
        # UTF-8 has its bytes written as \xff)
        return CheckResult(path=shown_name(doc.path), file=_unless_shown(doc.path), units=len(units),
                           matches=tuple(counted + apart), summary=summarise(sub, counted, apart), text=doc.text,
                           exclusions=sub.exclusions, warnings=doc.warnings, hidden=doc.hidden,
                           flags=integrity_flags(doc.text, doc.hidden, units), applicants=applicants, sha256=sha)

    # --- collection-wide ------------------------------------------------------------------------

    def pairs(self, settings: Settings, progress: ProgressFn = no_progress, *, by: str = "similarity",
              cut: float | None = None) -> list[Pair]:
        """Verified pairs, best first (incremental), each oriented: A the smaller document (or, equal
        in size, the later in path order), so "A in B" reads "how much of the one found in the other".

        ``by="similarity"``: ranked and cut by r (``cut`` default: ``settings.threshold``);
        ``by="containment"``: ranked and cut by the larger containment max(A in B, B in A) (``cut``
        default :data:`CONTAINMENT_CUT`), r beside it: a section copied into a long proposal has a
        low r but most of the copier is found in the source.
        """
        if by not in PAIR_ORDERS:
            raise ValueError(f"pairs are ranked by one of {', '.join(PAIR_ORDERS)}, not {by!r}")
        if by == "similarity":
            floor, cfloor = (settings.threshold if cut is None else min(cut, settings.threshold)), None
        else:
            floor, cfloor = settings.threshold, min(PAIR_CONTAINMENT_FLOOR, CONTAINMENT_CUT if cut is None else cut)
        self._update_pairs(settings, progress, cfloor, min_similarity=floor)
        if by == "similarity":
            rows = pairs_cache.at_least(self.store, settings.threshold if cut is None else cut, by="similarity")
        else:
            rows = pairs_cache.at_least(self.store, CONTAINMENT_CUT if cut is None else cut, by="containment")
        infos = {d.doc_id: d for d in self.documents()}
        decisions = self.records().decisions
        # (a pair whose document another window removed in between is left out)
        listed = [oriented(Pair(infos[a], infos[b], s, ca, cb, c, decisions.on(
                      (infos[a].sha256, infos[a].path), (infos[b].sha256, infos[b].path))))
                  for a, b, s, ca, cb, c in rows if a in infos and b in infos]
        # Ties (a copy-heavy collection has hundreds of pairs at 1.0) in path order, not in the
        # order of the ids an index build happened to give: two builds list them alike.
        if by == "similarity":
            listed.sort(key=lambda p: (-p.similarity, p.a.rel, p.b.rel))
        else:
            listed.sort(key=lambda p: (-max(p.containment_a, p.containment_b), -p.similarity, p.a.rel, p.b.rel))
        return listed

    def pass_spec(self, settings: Settings, min_containment: float | None = None,
                  min_similarity: float | None = None) -> pairpass.PassSpec:
        """What the collection-wide pass needs to pair the documents not paired yet.

        Resets the pairs cache first when it was made under other settings or with higher
        cut-offs than asked now: pairs at or above ``min_similarity`` (default: the threshold),
        and with ``min_containment`` also those whose larger containment reaches it."""
        v = self.verifier(settings)
        key = self._verify_key(settings, v)
        floor = settings.threshold if min_similarity is None else min_similarity
        stored_cfloor = self.store.get_meta("pairs_containment_floor", "")
        cfloor_ok = min_containment is None or (stored_cfloor != "" and float(stored_cfloor) <= min_containment)
        conn = self.store.conn
        if self.store.get_meta("pairs_key") != key or float(self.store.get_meta("pairs_floor", "1")) > floor \
                or not cfloor_ok:
            with self.store.transaction():
                stored_key = self.store.get_meta("pairs_key")  # (read again, inside the write lock)
                floors_ok = float(self.store.get_meta("pairs_floor", "1")) <= floor and cfloor_ok
                # Only the template changed (the examiner marked a passage, or undid a mark): the
                # documents holding a sentence whose status changed are paired again, and every
                # pair of theirs dropped; the other pairs stand, their texts marked as before.
                # (Each mark re-paired all 10,000 generated documents: 28 s for a sentence held
                # by 77 of them.) Otherwise the cache starts again.
                changed = self._template_changed(settings, v, stored_key) if floors_ok else None
                if changed is not None and len(changed) <= REPAIR_MAX_SHARE * max(self.store.count("indexed"), 1):
                    self.store.unpair(conn, changed)
                    MatrixCache.carry(self.store, stored_key, key, changed)
                else:
                    pairs_cache.forget_all(conn)
                    self.store.set_meta("pairs_floor", repr(floor))
                    self.store.set_meta("pairs_containment_floor",
                                        "" if min_containment is None else repr(min_containment))
                self.store.set_meta("pairs_key", key)
                self._save_pairs_template(settings, v)
        elif not search_store.has_search_table(self.store, PAIRS_TEMPLATE, _verify_base(settings)):
            try:  # (an index of an earlier version: its next change of template is then diffed too)
                with self.store.transaction():
                    self._save_pairs_template(settings, v)
            except (sqlite3.Error, IndexProblem) as exc:
                log.info("the pairs cache's template keys were not kept: %s", exc)
        # Documents paired now are paired down to the cache's own floors (they may be lower than
        # asked now), so a later call down to those floors finds their pairs too.
        floor = float(self.store.get_meta("pairs_floor", repr(floor)))
        stored_cfloor = self.store.get_meta("pairs_containment_floor", "")
        todo = pairs_cache.unpaired_ids(self.store)
        return pairpass.PassSpec(
            db_path=str(self.store.path), settings=settings, template_keys=self.template_keys(settings),
            user_template_keys=frozenset(v.user_template_keys), marked_keys=frozenset(v.marked_keys), todo=todo,
            min_similarity=floor, min_containment=None if stored_cfloor == "" else float(stored_cfloor),
        )

    def _update_pairs(self, settings: Settings, progress: ProgressFn, min_containment: float | None = None,
                      executor: pairpass.Executor | None = None, *, min_similarity: float | None = None) -> None:
        """Pair the documents not paired yet (the collection-wide pass, :mod:`pairpass`): in
        worker processes, or on a Dask cluster with ``settings.dask_address``; only this process
        writes the results."""
        key = indexer.params_key(settings.fingerprints)
        if self.store.get_meta("params") not in (None, key):
            # An index fingerprinted with other parameters (anchors of 12 units in early indexes)
            # is brought up to date from its stored texts first, as ``index`` would do: its
            # documents are invisible to the candidate search until then (172 of 178 pairs at
            # 0.5 were missed on 288 man pages). Refingerprinted documents are paired again.
            indexer.refingerprint(self.store, settings.fingerprints, wrap_progress(progress, 0.0, 0.2))
            progress = wrap_progress(progress, 0.2, 1.0)
        spec = self.pass_spec(settings, min_containment, min_similarity)
        if executor is None and settings.dask_address:
            from neardup_gui.core.dask_backend import DaskConnection, dask_pass

            executor = dask_pass(DaskConnection.of(settings))
        if len(spec.todo):
            pairpass.run_pass(spec, self._write_pairs, progress, executor)

    def _write_pairs(self, batch: list[pairpass.DocumentPairs]) -> None:
        """Store the verified pairs of a batch of documents, and mark those documents paired."""
        if not batch:
            return
        pairs_cache.write_found(self.store, batch)

    def clusters(self, settings: Settings, progress: ProgressFn = no_progress) -> list[Cluster]:
        """Near-duplicate clusters that do not chain: every member is similar to its representative.

        Seed 004's order-and-compare: documents in a fixed order (most near-duplicates first,
        then longer, then by path: not by id, which an index build gives in the order extraction
        finishes); the first unassigned one becomes a representative and takes every unassigned
        document similar to it; a document similar only to a member stays out.
        """
        pairs = self.pairs(settings, wrap_progress(progress, 0.0, 0.8))
        sim: dict[int, dict[int, float]] = {}
        infos: dict[int, DocumentInfo] = {}
        for p in pairs:
            sim.setdefault(p.a.doc_id, {})[p.b.doc_id] = p.similarity
            sim.setdefault(p.b.doc_id, {})[p.a.doc_id] = p.similarity
            infos[p.a.doc_id], infos[p.b.doc_id] = p.a, p.b
        order = sorted(sim, key=lambda d: (-len(sim[d]), -infos[d].units, infos[d].rel))
        assigned: set[int] = set()
        clusters = []
        for rep in order:
            if rep in assigned:
                continue
            members = [d for d in sorted(sim[rep], key=lambda d: (-sim[rep][d], infos[d].rel)) if d not in assigned]
            if not members:
                continue
            assigned.add(rep)
            assigned.update(members)
            clusters.append(Cluster(infos[rep], tuple(infos[d] for d in [rep] + members),
                                    tuple([1.0] + [sim[rep][d] for d in members])))
        matrices = wrap_progress(progress, 0.8, 1.0)
        if not any(len(c.members) >= 3 for c in clusters):
            matrices(1.0, "")
            return clusters
        # (one verifier for every cluster: each made its own, reading the template's keys again)
        v = self.verifier(settings)
        # The matrices compare members below the pairs cache's floor (tens of seconds for the
        # clusters of 10,000 copy-heavy documents): said as it goes, and cancellable between them;
        # what they compared is kept in the index for the next call (:class:`MatrixCache`).
        cache = MatrixCache.load(self.store, self._verify_key(settings, v))
        out = []
        try:
            for i, cluster in enumerate(clusters):
                if len(cluster.members) >= 3:
                    matrices(i / len(clusters), f"Comparing {i + 1} of {len(clusters)}")
                out.append(self._with_pairwise(cluster, settings, v, cache))
        finally:
            cache.save(self.store)  # (a cancelled call keeps what it compared, too)
        matrices(1.0, "")
        return out

    def _with_pairwise(self, cluster: Cluster, settings: Settings, v: Verifier | None = None,
                       cache: "MatrixCache | None" = None) -> Cluster:
        """The cluster with every pair of its members' similarity, and ``ring`` set when it has 3
        or more members all pairwise at or above the threshold.

        Pairs come from the verified-pairs cache (kept from the threshold up); a pair missing
        there is compared exactly when the cluster is small enough (``RING_MAX_COMPARE``
        members), else left unknown (``None``: below the cache's floor).
        """
        ids = [m.doc_id for m in cluster.members]
        n = len(ids)
        if n < 3:
            return cluster
        known: dict[tuple[int, int], float] = {}
        for i in range(0, n, 400):
            chunk = ids[i:i + 400]
            for a, b, sim in pairs_cache.similarities_touching(self.store, chunk):
                known[(a, b)] = sim
        matrix: list[list[float | None]] = [[1.0 if i == j else None for j in range(n)] for i in range(n)]
        # scale: the pairs cache starts at the threshold, so more pairs are compared
        # here; each member is prepared once and compared on the prepared path (the same answer
        # as self.compare, without marking and re-coding both texts for every pair), for its
        # figures only, as the pass does (the passages a view needs were made and dropped: 27,622
        # comparisons of the generated 10,000's clusters, 22.8 s at every refresh → see docs/speed.md)
        v = v or self.verifier(settings)
        codes = UnitCodes()
        prepared: dict[int, PreparedDocument] = {}

        def similarity(lo: int, hi: int) -> float:
            for d in (lo, hi):
                if d not in prepared:
                    prepared[d] = v.prepare(self.marked(d, v), codes)
            comp = v.compare_prepared(prepared[lo], prepared[hi], counts_only=True)
            assert comp is not None  # no cut-offs given
            return comp.similarity

        for i in range(n):
            for j in range(i + 1, n):
                lo, hi = sorted((ids[i], ids[j]))
                sim = known.get((lo, hi))
                if sim is None and n <= RING_MAX_COMPARE:
                    sim = cache.get(lo, hi) if cache is not None else None
                    if sim is None:
                        sim = similarity(lo, hi)
                        if cache is not None:
                            cache.put(lo, hi, sim)
                matrix[i][j] = matrix[j][i] = sim
        ring = all(matrix[i][j] is not None and matrix[i][j] >= settings.threshold
                   for i in range(n) for j in range(i + 1, n))
        return replace(cluster, pairwise=tuple(tuple(row) for row in matrix), ring=ring)


# The template keys the pairs cache was made with (search_tables' row of this name, under the
# settings' part of the verification key): what a change of template is diffed against.
PAIRS_TEMPLATE = "pairs_template_keys"
# Above this share of the collection re-paired, the whole cache starts again (as cheap, simpler).
REPAIR_MAX_SHARE = 0.5


def _verify_base(settings: Settings) -> str:
    """The verification key's part that is not the template: the comparison's settings."""
    return json.dumps([settings.min_run, settings.exclude_quotes, settings.exclude_bibliography,
                       indexer.params_key(settings.fingerprints),
                       passage_rules_key()])  # cached containments count passages


def _sorted_keys(keys) -> np.ndarray:  # noqa: ANN001 - a set of ints
    return np.sort(np.fromiter(keys, dtype=np.int64, count=len(keys)))


def _verify_key_of(base: str, template_keys: np.ndarray) -> str:
    """What the pairs cache (and the clusters' matrices) are stamped with: the comparison's
    settings and every template key (sorted int64)."""
    h = hashlib.sha256()
    h.update(base.encode())
    h.update(np.asarray(template_keys, dtype=np.int64).tobytes())
    return h.hexdigest()


def oriented(p: Pair) -> Pair:
    """The pair with the smaller document as A (by units; equal in size, the later in path
    order, as a resubmission named ``…-v2`` or ``edit-…`` is).

    Not by id: an index build numbers documents in the order their extraction finishes, which
    varies from run to run, so two builds of one folder showed a pair of equal size either way
    round (found when a test comparing two builds failed once in three fresh-clone runs)."""
    if p.a.units < p.b.units or (p.a.units == p.b.units and p.a.rel >= p.b.rel):
        return p
    return Pair(p.b, p.a, p.similarity, p.containment_b, p.containment_a, p.common_units, p.decision)


def compare_files(path_a: str, path_b: str, settings: Settings) -> tuple[Comparison, str, str]:
    """Compare two files without an index (template: the user's template files and PDF furniture)."""
    docs = []
    for p in (path_a, path_b):
        d = read_submission(p, settings)
        if isinstance(d, Skipped):
            raise ValueError(f"{p}: {d.reason}")
        docs.append(d)
    v = Verifier(settings, (), user_template_keys(settings))
    a, b = (v.mark(d.text, d.furniture, hidden=d.hidden) for d in docs)
    comp = v.compare(a, b)
    assert comp is not None
    return comp, docs[0].text, docs[1].text


def _unless_shown(path: str) -> str:
    """``path`` when it is not what :func:`shown_name` shows of it, else "" (nearly always)."""
    return "" if is_valid_name(path) else path
