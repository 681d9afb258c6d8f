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
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from neardup_gui.core import indexer
from neardup_gui.core.candidates import PAIR_MIN_SHARED_ANCHORS, CandidateFinder
from neardup_gui.core.compare import units_in_spans
from neardup_gui.core.document import Document, Skipped
from neardup_gui.core.fingerprints import Fingerprints, fingerprint_document
from neardup_gui.core.indexer import IndexReport
from neardup_gui.core.passages import rules_key as passage_rules_key
from neardup_gui.core.progress import ProgressFn, no_progress, wrap_progress
from neardup_gui.core.results import (
    CheckResult, CheckSummary, Cluster, Comparison, DocumentInfo, Pair, SourceMatch,
)
from neardup_gui.core.scan import FileEntry
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import IndexProblem, Store
from neardup_gui.core.templates import sentence_keys
from neardup_gui.core.units import Units
from neardup_gui.core.verify import Marked, Verifier
from neardup_gui.core.workers import extract_isolated, start_extraction

log = logging.getLogger(__name__)

# Pairs below both of these are not kept in the verified-pairs cache.
PAIR_FLOOR = 0.2
# A source is listed for a checked submission when at least this share of it is copied.
SOURCE_FLOOR = 0.01

__all__ = ["Collection", "IndexProblem", "IndexReport", "compare_files", "read_submission"]


_PAIR_BATCH = 200  # documents per transaction when pairs are computed


def read_submission(path: str, settings: Settings) -> Document | Skipped:
    """Extract one submission in a killable worker process (a hostile file cannot hang us)."""
    return extract_isolated(os.path.abspath(path), settings.limits)


def _info(d) -> DocumentInfo:  # noqa: ANN001 - a store.StoredDocument
    return DocumentInfo(
        doc_id=d.id, path=d.path, rel=d.rel, size=d.size, sha256=d.sha256, status=d.status,
        reason=d.reason, units=d.units, template_share=float(d.meta.get("template_share", 0.0)),
        format=d.format,
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


class Collection:
    """An open index file (SQLite) of one collection folder."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._finder: CandidateFinder | None = None
        self._finder_key: tuple | None = None
        self._marked: dict[int, Marked] = {}
        self._verifier_key: str | None = None

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

    def _changed(self) -> None:
        self._finder = None
        self._marked.clear()

    # --- indexing ------------------------------------------------------------------------------

    def index_folder(self, folder: str, settings: Settings, progress: ProgressFn = no_progress) -> IndexReport:
        """Index ``folder`` incrementally (see :mod:`neardup_gui.core.indexer`)."""
        try:
            report = indexer.index_folder(self.store, folder, settings, progress)
        finally:
            self._changed()
        progress(1.0, "Saving the search tables")
        self.finder(settings).save()
        return report

    def add_files(self, paths: Sequence[str], settings: Settings, progress: ProgressFn = no_progress) -> list[int]:
        """Add checked submissions to the collection (they are listed under ``added/``)."""
        entries = []
        for p in paths:
            p = os.path.abspath(p)
            st = os.stat(p)
            entries.append(FileEntry(path=p, rel=self._rel_for(p), size=st.st_size, mtime_ns=st.st_mtime_ns))
        try:
            return indexer.index_files(self.store, entries, settings, progress)
        finally:
            self._changed()

    def _rel_for(self, path: str) -> str:
        folder = self.folder
        if folder and os.path.commonpath([folder, path]) == folder:
            return os.path.relpath(path, folder).replace(os.sep, "/")
        return path  # a file outside the folder is listed by its absolute path

    # --- reading -------------------------------------------------------------------------------

    def documents(self) -> list[DocumentInfo]:
        return [_info(d) for d in self.store.documents()]

    def document(self, doc_id: int) -> DocumentInfo:
        d = self.store.document(doc_id)
        if d is None:
            raise KeyError(doc_id)
        return _info(d)

    def document_text(self, doc_id: int) -> str:
        return self.store.text(doc_id).text

    def stats(self) -> dict[str, int]:
        return {"documents": self.store.count(), "indexed": self.store.count("indexed"), "skipped": self.store.count("skipped")}

    # --- templates and verification ------------------------------------------------------------

    def template_keys(self, settings: Settings) -> np.ndarray:
        """Sentences frequent enough in this collection to be template (the application form)."""
        n = self.store.count("indexed")
        min_docs = max(settings.template_min_docs, math.ceil(settings.template_min_share * n), 2)
        return self.store.frequent_sentences(min_docs)

    def verifier(self, settings: Settings) -> Verifier:
        keys = self.template_keys(settings)
        v = Verifier(settings, keys, user_template_keys(settings))
        key = self._verify_key(settings, v)
        if key != self._verifier_key:
            self._marked.clear()
            self._verifier_key = key
        return v

    def _verify_key(self, settings: Settings, v: Verifier) -> str:
        h = hashlib.sha256()
        h.update(json.dumps([settings.min_run, settings.exclude_quotes, settings.exclude_bibliography,
                             indexer.params_key(settings.fingerprints),
                             passage_rules_key()]).encode())  # cached containments count passages (issue 15)
        keys = v.all_template_keys
        h.update(np.sort(np.fromiter(keys, dtype=np.int64, count=len(keys))).tobytes())
        return h.hexdigest()

    def marked(self, doc_id: int, v: Verifier) -> Marked:
        m = self._marked.get(doc_id)
        if m is None:
            stored = self.store.text(doc_id)
            m = v.mark(stored.text, stored.furniture)
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
                    results[i] = CheckResult(path=path, units=0, matches=(), summary=CheckSummary(0, 0, 0, 0),
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
                       prepared: tuple[Units, Fingerprints] | None = None) -> CheckResult:
        """Check one extracted submission; the collection's copy of the same file is not a source.

        ``verifier``: ``self.verifier(settings)`` when the caller has it already; ``prepared``:
        :func:`fingerprints.fingerprint_document` of ``doc``, when done already."""
        v = verifier or self.verifier(settings)
        units, fp = prepared if prepared is not None else fingerprint_document(doc, settings.fingerprints)
        sub = v.mark(doc.text, doc.furniture, units)
        same_file = {r[0] for r in self.store.conn.execute(
            "SELECT id FROM documents WHERE path = ?", (os.path.abspath(doc.path),))}
        countable = sub.countable_mask()
        candidates = self.finder(settings).find(fp, units.ids[countable], exclude=same_file)
        matches: list[SourceMatch] = []
        ordered = sorted(candidates.values(), key=lambda c: (-c.shared_anchors, -(c.estimate or 0), c.doc_id))
        for n, cand in enumerate(ordered, 1):
            progress(n / max(len(ordered), 1), f"Verifying {n} of {len(ordered)} candidates")
            info = self.store.document(cand.doc_id)
            if info is None or info.status != "indexed":
                continue
            comp = v.compare(sub, self.marked(cand.doc_id, v), min_similarity=SOURCE_FLOOR, min_containment=SOURCE_FLOOR)
            if comp is None or comp.common_units == 0:
                continue
            if comp.containment_a < SOURCE_FLOOR and comp.similarity < SOURCE_FLOOR:
                continue
            matches.append(SourceMatch(_info(info), comp, cand.estimate, tuple(sorted(cand.found_by))))
        matches.sort(key=lambda m: (-m.comparison.containment_a, -m.comparison.similarity, m.source.rel))
        return CheckResult(path=doc.path, units=len(units), matches=tuple(matches),
                           summary=summarise(sub, matches), text=doc.text)

    # --- collection-wide ------------------------------------------------------------------------

    def pairs(self, settings: Settings, progress: ProgressFn = no_progress) -> list[Pair]:
        """Verified pairs with similarity ≥ ``settings.threshold``, best first (incremental)."""
        self._update_pairs(settings, progress)
        rows = self.store.conn.execute(
            "SELECT a, b, similarity, containment_a, containment_b, common FROM pairs WHERE similarity >= ? "
            "ORDER BY similarity DESC, a, b", (settings.threshold,)).fetchall()
        infos = {d.doc_id: d for d in self.documents()}
        # (a pair whose document another window removed in between is left out)
        return [Pair(infos[a], infos[b], s, ca, cb, c) for a, b, s, ca, cb, c in rows if a in infos and b in infos]

    def _update_pairs(self, settings: Settings, progress: ProgressFn) -> None:
        v = self.verifier(settings)
        key = self._verify_key(settings, v)
        floor = min(PAIR_FLOOR, settings.threshold)
        conn = self.store.conn
        if self.store.get_meta("pairs_key") != key or float(self.store.get_meta("pairs_floor", "1")) > floor:
            with self.store.transaction():
                conn.execute("DELETE FROM pairs")
                conn.execute("DELETE FROM paired")
                self.store.set_meta("pairs_key", key)
                self.store.set_meta("pairs_floor", repr(floor))
        todo = [r[0] for r in conn.execute(
            "SELECT id FROM documents WHERE status = 'indexed' AND id NOT IN (SELECT doc_id FROM paired) ORDER BY id")]
        if not todo:
            return
        finder = self.finder(settings)
        done_now: set[int] = set()
        batch: list[tuple[int, list[tuple[int, Comparison]], float]] = []
        flushed = time.monotonic()
        for n, doc_id in enumerate(todo, 1):
            progress((n - 1) / len(todo), f"Comparing {n} of {len(todo)}")
            # Another window may replace or remove documents meanwhile: those are skipped here
            # and paired when their new rows are (they are not in ``paired``).
            fp = self.store.fingerprints_of(doc_id)
            if fp is None:
                continue
            try:
                a = self.marked(doc_id, v)
            except KeyError:
                continue
            cands = finder.find(fp, a.units.ids[a.countable_mask()], exclude={doc_id} | done_now,
                                min_shared_anchors=PAIR_MIN_SHARED_ANCHORS)
            found = []
            for cand in cands.values():
                try:
                    b = self.marked(cand.doc_id, v)
                except KeyError:
                    continue
                comp = v.compare(a, b, min_similarity=floor)
                if comp is not None and comp.similarity >= floor:
                    found.append((cand.doc_id, comp))
            batch.append((doc_id, found, float(units_share(a))))
            done_now.add(doc_id)
            # one transaction per batch, not per document: a commit is a disk sync, and the
            # pairs are a cache (an interrupted run resumes from the ``paired`` table)
            if len(batch) >= _PAIR_BATCH or time.monotonic() - flushed > 1.0:
                self._write_pairs(batch)
                batch, flushed = [], time.monotonic()
        self._write_pairs(batch)
        progress(1.0, "Compared")

    def _write_pairs(self, batch: list[tuple[int, list[tuple[int, Comparison]], float]]) -> None:
        """Store the verified pairs of a batch of documents, and mark those documents paired."""
        if not batch:
            return
        conn = self.store.conn
        with self.store.transaction():
            ids = sorted({d for doc_id, found, _ in batch for d in [doc_id, *(o for o, _ in found)]})
            alive: set[int] = set()
            for i in range(0, len(ids), 500):
                chunk = ids[i:i + 500]
                alive.update(r[0] for r in conn.execute(
                    f"SELECT id FROM documents WHERE id IN ({','.join('?' * len(chunk))})", chunk))
            for doc_id, found, share in batch:
                if doc_id not in alive:
                    continue
                for other, comp in found:
                    if other not in alive:
                        continue
                    lo, hi = (doc_id, other) if doc_id < other else (other, doc_id)
                    ca, cb = (comp.containment_a, comp.containment_b) if lo == doc_id else (comp.containment_b, comp.containment_a)
                    conn.execute("INSERT OR REPLACE INTO pairs VALUES (?, ?, ?, ?, ?, ?)",
                                 (lo, hi, comp.similarity, ca, cb, comp.common_units))
                conn.execute("INSERT OR IGNORE INTO paired (doc_id) VALUES (?)", (doc_id,))
                conn.execute("UPDATE documents SET meta = json_set(meta, '$.template_share', ?) WHERE id = ?", (share, doc_id))

    def clusters(self, settings: Settings, progress: ProgressFn = no_progress) -> list[Cluster]:
        """Near-duplicate clusters that do not chain: every member is similar to its representative.

        Seed 004's order-and-compare: documents in a fixed order (most near-duplicates first,
        then longer, then id); the first unassigned one becomes a representative and takes every
        unassigned document similar to it; a document similar only to a member stays out.
        """
        pairs = self.pairs(settings, progress)
        sim: dict[int, dict[int, float]] = {}
        infos: dict[int, DocumentInfo] = {}
        for p in pairs:
            sim.setdefault(p.a.doc_id, {})[p.b.doc_id] = p.similarity
            sim.setdefault(p.b.doc_id, {})[p.a.doc_id] = p.similarity
            infos[p.a.doc_id], infos[p.b.doc_id] = p.a, p.b
        order = sorted(sim, key=lambda d: (-len(sim[d]), -infos[d].units, d))
        assigned: set[int] = set()
        clusters = []
        for rep in order:
            if rep in assigned:
                continue
            members = [d for d in sorted(sim[rep], key=lambda d: (-sim[rep][d], d)) if d not in assigned]
            if not members:
                continue
            assigned.add(rep)
            assigned.update(members)
            clusters.append(Cluster(infos[rep], tuple(infos[d] for d in [rep] + members),
                                    tuple([1.0] + [sim[rep][d] for d in members])))
        return clusters


def units_share(m: Marked) -> float:
    """Share of a marked text's units that are template."""
    n = len(m.units)
    return float(units_in_spans(m.units, m.template).sum()) / n if n else 0.0


def summarise(sub: Marked, matches: Sequence[SourceMatch]) -> CheckSummary:
    """CNKI-style figures for one submission.

    - overall copied ratio: units covered by any source's match spans, plus template units, over
      all units (what the submission shares with the collection, form text included);
    - without template: covered units over countable units (template removed from both);
    - without quotes: as above with quoted units also removed from both;
    - largest source: the single source covering the most units (its containment).
    """
    units = sub.units
    n = len(units)
    if n == 0:
        return CheckSummary(0.0, 0.0, 0.0, 0.0)
    covered = np.zeros(n, dtype=bool)
    for m in matches:
        covered |= units_in_spans(units, [p.a for p in m.comparison.passages])  # edited passages (issue 15)
    template = units_in_spans(units, sub.template)
    excluded = units_in_spans(units, sub.excluded)
    quoted = units_in_spans(units, sub.quoted)
    countable = ~(template | excluded)
    overall = float((covered | template).sum()) / n
    without_template = float((covered & countable).sum()) / max(int(countable.sum()), 1)
    nq = countable & ~quoted
    without_quotes = float((covered & nq).sum()) / max(int(nq.sum()), 1)
    best = max(matches, key=lambda m: m.comparison.containment_a, default=None)
    return CheckSummary(
        copied_ratio=overall,
        copied_ratio_without_quotes=without_quotes,
        copied_ratio_without_template=without_template,
        largest_source_ratio=best.comparison.containment_a if best else 0.0,
        largest_source=best.source.path if best else "",
        template_share=float(template.sum()) / n,
        quoted_share=float(quoted.sum()) / n,
    )


def compare_files(path_a: str, path_b: str, settings: Settings) -> tuple[Comparison, str, str]:
    """Compare two files without an index (template: the user's template files and PDF furniture)."""
    docs = []
    for p in (path_a, path_b):
        d = read_submission(p, settings)
        if isinstance(d, Skipped):
            raise ValueError(f"{p}: {d.reason}")
        docs.append(d)
    v = Verifier(settings, (), user_template_keys(settings))
    a, b = (v.mark(d.text, d.furniture) for d in docs)
    comp = v.compare(a, b)
    assert comp is not None
    return comp, docs[0].text, docs[1].text
