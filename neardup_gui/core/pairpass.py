"""The collection-wide pass: partitions of documents → candidates → exact verification → the index.

The documents to pair (those not yet in the ``paired`` table) are cut into partitions. A
partition task opens the index read-only, finds each document's candidates and verifies them
exactly; it returns only the pairs that reach the pass's cut-offs. The tasks run in this process,
in local worker processes, or on a Dask cluster (:mod:`neardup_gui.core.dask_backend`): the same
function everywhere, so the answers are identical; only the caller writes the index.

Which pair is verified where: pair (d, c) is verified while pairing d when c is a candidate of
d and c is not itself to be paired before d in this pass (in path order), so the partitions need
not talk to each other, and the answers do not depend on how the documents were numbered.

Per-document work is done once per task: a document's marks (template, exclusions), its
tokens, codes and window hashes (:class:`~neardup_gui.core.compare.PreparedDocument`) are kept in
a cache bounded in bytes, and reused for every comparison it takes part in.
"""

from __future__ import annotations

import logging
import multiprocessing
import time
from collections import Counter, OrderedDict
from contextlib import closing
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np

from neardup_gui.core import lifeline, processes
from neardup_gui.core.candidates import PAIR_MIN_SHARED_ANCHORS, AnchorPostings, CandidateFinder
from neardup_gui.core.prepared import bag_bounds, BAG_BUCKETS, PreparedDocument, stored_bag_bounds, unit_bag, UnitCodes
from neardup_gui.core.results import Comparison, Exclusions
from neardup_gui.core.progress import Cancelled, ProgressFn, no_progress
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import Store
from neardup_gui.core.store import documents as doc_rows
from neardup_gui.core.verify import Verifier

log = logging.getLogger(__name__)

__all__ = ["DocumentPairs", "FoundPair", "PassSpec", "PartitionWorker", "run_pass", "partitions"]

# Memory a partition task may hold in prepared documents (a document of 5,000 units takes about
# 250 KB): bounded whatever the collection's size; documents evicted are prepared again if needed.
PREPARED_CACHE_BYTES = 256 * 1024 * 1024
# Documents per partition task: small enough for progress, cancel and load balance, large enough
# that a task's start-up (opening the index, loading the search tables) is paid rarely.
LOCAL_PARTITION_DOCS = 64
# Below this many documents to pair, worker processes cost more to start than they save (each
# imports the core, opens the index and loads the search tables: about a second; measured on a
# 1,000-document copy-heavy collection, 1.6 s in one process against 2.1 s in two).
PARALLEL_MIN_DOCS = 1500
# ... and when they are forked (core/processes.py), which costs a few milliseconds: measured on
# the 797 real copyright files, 1.32 s in one process against 0.94–1.01 s in two; on 1,000
# generated copy-heavy documents 1.5–2.1 s against 1.15–1.3 s; on 400 of the copyright files
# 1.18–1.26 s against 1.03–1.25 s.
PARALLEL_MIN_DOCS_FORKED = 400
# Stored bags of units a partition task holds in memory, as one matrix (2 KB each): above this
# many documents it reads those of each document's candidates from the index instead...
BAG_MATRIX_MAX_DOCS = 32_768
# ... and keeps the last ones it read decoded (:class:`_BagCache`, 2 KB a row): a family's
# documents are paired one after another (:func:`family_partitions`) and have the same candidates.
BAG_CACHE_ROWS = 8192
# Comparisons of documents with copies remembered per task (a few hundred bytes each).
_COMPARED_MAX = 100_000
# How often the caller wakes while waiting for results (lets ``progress`` cancel).
_TICK_S = 0.2


@dataclass(frozen=True)
class PassSpec:
    """Everything a partition task needs (picklable: sent once to every worker)."""

    db_path: str
    settings: Settings
    template_keys: np.ndarray  # the collection's template sentence keys
    user_template_keys: frozenset[int]
    marked_keys: frozenset[int]  # sentences the examiner marked as template in the index
    todo: np.ndarray  # sorted ids of the documents paired in this pass
    min_similarity: float
    min_containment: float | None = None

    def keeps(self, similarity: float, containment_a: float, containment_b: float) -> bool:
        """True for a pair the pass keeps: at or above either cut-off."""
        if similarity >= self.min_similarity:
            return True
        return self.min_containment is not None and max(containment_a, containment_b) >= self.min_containment


@dataclass(frozen=True)
class FoundPair:
    """A verified pair, A = the document being paired."""

    other: int
    similarity: float
    containment_a: float
    containment_b: float
    common_units: int


@dataclass(frozen=True)
class DocumentPairs:
    """What pairing one document gave: its kept pairs and its template share."""

    doc_id: int
    found: tuple[FoundPair, ...]
    template_share: float
    exclusions: Exclusions = field(default_factory=Exclusions)  # units each exclusion removed
    comparisons: int = 0  # candidates verified (for the figures)


class PartitionWorker:
    """Pairs documents of one pass, in one process: its index connection, search tables and caches."""

    def __init__(self, spec: PassSpec, cache_bytes: int = PREPARED_CACHE_BYTES) -> None:
        self.spec = spec
        self.store = Store(spec.db_path, create=False)
        self.verifier = Verifier(spec.settings, spec.template_keys, spec.user_template_keys, spec.marked_keys)
        self.finder = CandidateFinder(self.store, spec.settings)
        self.finder.anchor_postings = AnchorPostings.load(self.store)
        self.finder.lsh_postings = AnchorPostings.load(self.store, "lsh_keys")
        self.finder.sentence_postings = AnchorPostings.load(self.store, "sentence_fps")
        self.codes = UnitCodes()
        self._cache: OrderedDict[int, PreparedDocument] = OrderedDict()
        self._cache_bytes = 0
        self._cache_limit = cache_bytes
        # Documents are ordered by relative path wherever an order decides something: which of
        # two documents pairs the other, which is A in their comparison (an LCS is not unique,
        # and which one the alignment picks may depend on the order of the two texts), which of
        # equally good anchor candidates are kept. So the answers do not depend on the ids the
        # index gave (they follow the order files finished extracting: local, parallel or Dask).
        # Files with the same bytes and format have the same text and marks: one prepared
        # document serves them all, and a comparison of the same two texts (in the same order)
        # is made once. Real archives hold many such copies (365 of 797 Debian copyright files).
        self._content: dict[int, tuple[str, str]] = {
            i: (sha, fmt) for i, sha, fmt in doc_rows.indexed_contents(self.store) if sha}
        self._shared = {k for k, n in Counter(self._content.values()).items() if n > 1}
        self._compared: OrderedDict[tuple, Comparison | None] = OrderedDict()
        rows = sorted(doc_rows.names_ids_units(self.store))
        top = max((i for _, i, _ in rows), default=0)
        # index top + 1 stands for any id unknown when the task started (a document added since)
        self._rank = np.full(top + 2, len(rows), dtype=np.int64)  # unknown (new) ids: last
        self._rank[[i for _, i, _ in rows]] = np.arange(len(rows))
        self.finder.tie_rank = self._rank
        self._in_todo = np.zeros(top + 2, dtype=bool)
        self._in_todo[spec.todo[spec.todo <= top]] = True
        # Unit counts for the exact length bound of :meth:`_admit`: every document's total, and
        # its countable units once it has been prepared (template and exclusions removed). An
        # unknown document may have any length.
        self._total = np.full(top + 2, np.iinfo(np.int64).max // 4, dtype=np.int64)
        self._total[[i for _, i, _ in rows]] = [u or 0 for _, _, u in rows]
        self._countable = np.full(top + 2, -1, dtype=np.int64)
        if self.verifier.removes_nothing():
            # Nothing is taken out of a text in this pass (no template sentence, quotes and
            # bibliography counted): a document without furniture counts every unit, known before
            # it is prepared. Its length then bounds a pair exactly before the preparation, so a
            # worker prepares only what can reach the threshold (2,375 copy-heavy copyright files
            # in two workers: 1,900 + 882 preparations of their 1,976 texts became 1,230 + 791,
            # and the pass's CPU 8.2 s → 6.1 s with the compiled tokenizer).
            bare = [i for i, n in doc_rows.furniture_lengths(self.store) if not n and i <= top]
            self._countable[bare] = self._total[bare]
        # The stored bags of units (schema 5): a candidate is bounded by its bag before it is
        # prepared. Most candidates of a copy-heavy collection share only boilerplate with the
        # document and are ruled out here, so a task prepares the documents it pairs and their
        # near-duplicates, not the whole collection (with two workers, each prepared nearly
        # every document of the generated 10,000: 9,738 of 9,966 for half of them).
        self._bag_row: np.ndarray | None = None
        self._bag_matrix = np.zeros((0, 0), dtype=np.uint16)
        self._bag_cache: _BagCache | None = None
        if spec.min_containment is None and spec.min_similarity > 0:
            if len(rows) <= BAG_MATRIX_MAX_DOCS:
                ids, self._bag_matrix = self.store.bags()
                self._bag_row = np.full(top + 2, -1, dtype=np.int64)
                self._bag_row[ids[ids <= top]] = np.flatnonzero(ids <= top)
            else:
                self._bag_cache = _BagCache(self.store, top)

    def close(self) -> None:
        self.store.close()

    def _rank_of(self, doc_id: int) -> int:
        return int(self._rank[min(doc_id, len(self._rank) - 1)])

    def _key(self, doc_id: int) -> object:
        """What identifies a document's prepared form: its content when known, else its id."""
        return self._content.get(doc_id, doc_id)

    def prepared(self, doc_id: int) -> PreparedDocument:
        """A document marked and prepared once (once per content), then kept while the cache allows."""
        key = self._content.get(doc_id, doc_id)  # (_key inlined: called for every candidate)
        p = self._cache.get(key)
        if p is None:
            t = self.store.compared_text(doc_id)  # KeyError when the document is gone
            p = self.verifier.prepare(self.verifier.mark(t.text, t.furniture, hidden=t.hidden, quoted=False), self.codes)
            self._cache[key] = p
            self._cache_bytes += p.nbytes
            while self._cache_bytes > self._cache_limit and len(self._cache) > 1:
                _, old = self._cache.popitem(last=False)  # (never p, the newest)
                self._cache_bytes -= old.nbytes
        else:
            self._cache.move_to_end(key)
        if doc_id < len(self._countable) - 1:
            self._countable[doc_id] = len(p.codes)
        return p

    def pair(self, doc_id: int) -> DocumentPairs | None:
        """Candidates of one document verified exactly; None if it vanished from the index."""
        spec = self.spec
        fp = self.store.fingerprints_of(doc_id)
        if fp is None:
            return None
        try:
            a = self.prepared(doc_id)
        except KeyError:
            return None
        # Nothing removed (no template, no exclusion in it): its countable anchors are the stored ones.
        whole = len(a.pos) == len(a.units)
        cands = self.finder.find(fp, a.units.ids[a.pos], admit=self._admit(doc_id, len(a.codes)),
                                 min_shared_anchors=PAIR_MIN_SHARED_ANCHORS, estimates=False,
                                 own_anchors=fp.anchors if whole else None,
                                 content_key=key if (key := self._key(doc_id)) in self._shared else None)
        others = []
        for other in self._bag_survivors(a, sorted(cands)):
            try:
                others.append((other, self.prepared(other)))
            except KeyError:
                continue
        if others and spec.min_containment is None:
            # The first two bounds of compare_prepared (length, bag of units), for all candidates
            # at once: in a copy-heavy collection they rule out nine in ten.
            n_a = len(a.codes)
            n_b = np.array([len(b.codes) for _, b in others], dtype=np.int64)
            common = np.minimum(np.minimum(n_b, n_a), bag_bounds(a, [b for _, b in others]))
            reach = _best_similarity(common, n_a, n_b) >= spec.min_similarity
            others = [o for o, ok in zip(others, reach.tolist()) if ok]
        found = []
        for other, b in others:
            swap = self._rank_of(other) < self._rank_of(doc_id)
            first, second = (b, a) if swap else (a, b)
            ids = (other, doc_id) if swap else (doc_id, other)
            memo = (self._key(ids[0]), self._key(ids[1]))
            if memo in self._compared:
                comp = self._compared[memo]
            else:
                comp = self.verifier.compare_prepared(first, second, min_similarity=spec.min_similarity,
                                                      min_containment=spec.min_containment, counts_only=True,
                                                      bag_bounded=spec.min_containment is None)
                if memo[0] in self._shared or memo[1] in self._shared:  # it may be asked again
                    self._compared[memo] = comp
                    if len(self._compared) > _COMPARED_MAX:
                        self._compared.popitem(last=False)
            if comp is None or not spec.keeps(comp.similarity, comp.containment_a, comp.containment_b):
                continue
            ca, cb = (comp.containment_b, comp.containment_a) if swap else (comp.containment_a, comp.containment_b)
            found.append(FoundPair(other, comp.similarity, ca, cb, comp.common_units))
        return DocumentPairs(doc_id, tuple(found), a.template_share, a.exclusions, len(cands))

    def _bag_survivors(self, a: PreparedDocument, cands: list[int]) -> list[int]:
        """``cands`` less those whose stored bag of units proves the pair below the threshold
        (similarity only; a candidate without a stored bag stays: it is bounded once prepared)."""
        spec = self.spec
        if not cands or spec.min_containment is not None or spec.min_similarity <= 0:
            return cands
        ids = np.asarray(cands, dtype=np.int64)
        at = np.minimum(ids, len(self._countable) - 1)
        if self._bag_row is not None:
            rows = self._bag_row[at]
            has = rows >= 0
            stored, picked = self._bag_matrix, rows[has]
        else:  # a large collection (the cache is made whenever the matrix is not): read or kept
            has, stored, picked = self._bag_cache.get(ids)
        if not has.any():
            return cands
        n_a = len(a.codes)
        common = np.minimum(np.minimum(stored_bag_bounds(unit_bag(a.units.ids[a.pos]), stored, picked), n_a),
                            self._total[at[has]])
        # The countable length of a candidate prepared already is known; of another, between its
        # common units and its total: the ratio is largest at the least, common / n_a.
        known = self._countable[at[has]]
        best = np.where(known >= 0, _best_similarity(np.minimum(common, np.maximum(known, 0)), n_a, np.maximum(known, 0)),
                        common / max(n_a, 1))
        keep = np.ones(len(ids), dtype=bool)
        keep[np.flatnonzero(has)[best < spec.min_similarity]] = False
        return ids[keep].tolist()

    def _admit(self, doc_id: int, n_a: int) -> Callable[[np.ndarray], np.ndarray]:
        """The candidates pairing ``doc_id`` may have, as a vectorised test (``find``'s ``admit``).

        Left out: the document itself and those of this pass before it in path order (they pair
        with it themselves, if it is their candidate); and, when only similarity is asked for,
        documents whose length alone proves the pair below the threshold. Seed 004's ratio of a
        pair is at most min(n_a, n_b) / max(n_a, n_b) over countable units: the first bound
        :func:`compare_prepared` tries, here computed for all of a document's candidates at once,
        before the anchor cap (so its places go to documents that can reach the threshold) and
        before they are prepared. A document not prepared yet has between 0 and its total units.
        """
        rank, in_todo = self._rank, self._in_todo
        last = len(rank) - 1
        my_rank = self._rank_of(doc_id)
        t = self.spec.min_similarity
        by_length = self.spec.min_containment is None and t > 0

        def admit(ids: np.ndarray) -> np.ndarray:
            at = np.minimum(ids, last)
            ok = (ids != doc_id) & ~(in_todo[at] & (rank[at] < my_rank))
            if by_length:
                known = self._countable[at]
                # the length most favourable to the pair: the known one, or n_a within the total
                n_b = np.where(known >= 0, known, np.minimum(n_a, self._total[at]))
                ok &= _best_similarity(np.minimum(n_b, n_a), n_a, n_b) >= t
            return ok

        return admit

    def run(self, doc_ids: Iterable[int]) -> list[DocumentPairs]:
        return [r for r in map(self.pair, doc_ids) if r is not None]


class _BagCache:
    """Stored bags of units read from the index for a task's candidates, kept decoded: a ring of
    ``rows`` rows, the oldest read overwritten first.

    Above BAG_MATRIX_MAX_DOCS documents a task does not hold every bag; it reads those of each
    document's candidates. The documents of a family are paired one after another and their
    candidates are mostly the same documents (50,000 generated copy-heavy documents: 135 candidates
    a document, each bag read and decompressed again for every member of its family, a fifth of a
    task's time). What :meth:`get` returns is what reading them gives, row for row.
    """

    def __init__(self, store: Store, top: int, rows: int | None = None) -> None:
        rows = BAG_CACHE_ROWS if rows is None else rows
        self.store = store
        self.slot = np.full(top + 1, -1, dtype=np.int64)  # id -> its row, for ids known at the start
        self.absent = np.zeros(top + 1, dtype=bool)  # read: the index holds no bag for it
        self.held = np.full(rows, -1, dtype=np.int64)  # row -> the id it holds
        self.matrix = np.zeros((rows, BAG_BUCKETS), dtype=np.uint16)
        self.next = 0  # the row written next
        self.reads = self.hits = 0  # (for the figures)

    def get(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For distinct ``ids``: which have a stored bag (``has``), and those bags as
        ``stored[picked]``, in the order of ``ids[has]``."""
        known = ids < len(self.slot)
        at = np.where(known, ids, 0)
        slots = np.where(known, self.slot[at], -1)
        hit = slots >= 0
        unread = ~hit & ~(known & self.absent[at])
        need = ids[unread]
        got, rows = self.store.bags(need.tolist()) if len(need) else (need, self.matrix[:0])
        self.reads += len(need)
        self.hits += int(hit.sum())
        # the rows this call uses are copied out before new ones may overwrite them
        kept = self.matrix[slots[hit]]
        stored = np.concatenate([kept, rows]) if len(got) else kept
        where = np.full(len(ids), -1, dtype=np.int64)
        where[hit] = np.arange(len(kept))
        found = np.zeros(len(need), dtype=bool)
        if len(got):
            pos = np.minimum(np.searchsorted(got, need), len(got) - 1)
            found = got[pos] == need
            where[np.flatnonzero(unread)[found]] = len(kept) + pos[found]
        has = where >= 0
        # remember what was read: the ids without a bag, and the bags (the last ones if too many)
        none = need[~found]
        self.absent[none[none < len(self.slot)]] = True
        if len(got):
            mine = got < len(self.slot)
            new_ids, new_rows = got[mine][-len(self.held):], rows[mine][-len(self.held):]
            at_rows = (self.next + np.arange(len(new_ids))) % len(self.held)
            old = self.held[at_rows]
            self.slot[old[old >= 0]] = -1
            self.held[at_rows] = new_ids
            self.slot[new_ids] = at_rows
            self.matrix[at_rows] = new_rows
            self.next = int((self.next + len(new_ids)) % len(self.held))
        return has, stored, where[has]


def _best_similarity(common: np.ndarray, n_a: int, n_b: np.ndarray) -> np.ndarray:
    """Seed 004's ratio common / (n_a + n_b − common) for each candidate, as
    :func:`~neardup_gui.core.compare.compare_prepared` computes it (0 for two empty texts)."""
    den = n_a + n_b - common
    return np.where(den > 0, common / np.maximum(den, 1), 0.0)


def partitions(todo: Sequence[int], size: int) -> list[list[int]]:
    """``todo`` cut into consecutive partitions of at most ``size`` documents."""
    todo = [int(d) for d in todo]
    return [todo[i:i + size] for i in range(0, len(todo), max(1, size))]


def family_keys(store: Store, doc_ids: np.ndarray) -> np.ndarray:
    """For each of ``doc_ids``, a key its near-duplicates most likely share: the least id of its
    component when documents sharing an LSH band key are joined (the bands of the 1-bit minwise
    fingerprint: two documents share one with a high probability when they are near-duplicates,
    and rarely otherwise). A document that shares no band key gets a key of its own."""
    keys = np.iinfo(np.int64).max - np.arange(len(doc_ids), dtype=np.int64)  # (keys of their own: last)
    postings = AnchorPostings.load(store, "lsh_keys")  # (None: too many rows to hold; no families)
    if postings is None or not len(postings.hashes):
        return keys
    bands, docs = postings.hashes, postings.doc_ids
    starts = np.flatnonzero(np.r_[True, bands[1:] != bands[:-1]])
    # each document holding a band key is joined to the first document holding it
    u = docs
    v = np.repeat(docs[starts], np.diff(np.r_[starts, len(docs)]))
    label = np.arange(int(docs.max()) + 1)
    while True:  # the least document id of every component (label propagation, pointers halved)
        low = np.minimum(label[u], label[v])
        new = label.copy()
        np.minimum.at(new, u, low)
        np.minimum.at(new, v, low)
        new = new[new]
        if np.array_equal(new, label):
            break
        label = new
    inside = doc_ids <= docs.max()
    held = np.zeros(len(label), dtype=bool)
    held[docs] = True
    joined = inside.copy()
    joined[inside] = held[doc_ids[inside]]
    keys[joined] = label[doc_ids[joined]]
    return keys


def family_partitions(todo: np.ndarray, keys: np.ndarray, size: int) -> list[list[int]]:
    """``todo`` ordered by family key and cut into partitions of about ``size`` documents, at a
    change of key where one comes within four times ``size``: near-duplicates land in one
    partition, so one worker prepares them (any partition of the documents gives the same pairs,
    see the module's docstring)."""
    order = np.lexsort((todo, keys))
    todo, keys = todo[order], keys[order]
    parts: list[list[int]] = []
    start = 0
    size = max(1, size)
    for i in range(1, len(todo) + 1):
        if i == len(todo) or (i - start >= size and keys[i] != keys[i - 1]) or i - start >= 4 * size:
            parts.append(todo[start:i].tolist())
            start = i
    return parts


def partition_costs(parts: list[list[int]], family: dict[int, int], docs: dict[int, tuple[int, str]]) -> list[float]:
    """An estimate of each partition's work: for each family in it, the square of its units (its
    distinct contents counted once: byte copies are compared once). Verifying two near-duplicates
    costs about their length times their edit distance, which grows with their length: a family
    of k edits of a text of n units costs about (k·n)², whatever the partition's size.
    ``family``: each document's family key; ``docs``: each document's (units, content hash)."""
    return [float(sum(float(v) * v for v in _family_units(part, family, docs).values())) for part in parts]


def _family_units(doc_ids: Iterable[int], family: dict[int, int], docs: dict[int, tuple[int, str]]) -> dict[int, int]:
    """The units of each family among ``doc_ids``, its distinct contents counted once."""
    sums: dict[int, int] = {}
    seen: set[tuple[int, str]] = set()
    for d in doc_ids:
        units, sha = docs.get(d, (0, ""))
        key = family.get(d, -d)
        if sha:
            if (key, sha) in seen:
                continue
            seen.add((key, sha))
        sums[key] = sums.get(key, 0) + (units or 0)
    return sums


def balanced_partitions(parts: list[list[int]], family: dict[int, int], docs: dict[int, tuple[int, str]],
                        workers: int) -> list[list[int]]:
    """``parts`` costliest first (:func:`partition_costs`), a partition that holds more than a
    worker's share of the whole cut into its families, and a family that does into one partition
    per document, so that all the workers share it: a family of long texts kept one worker busy
    while the others had finished (2,388 copyright files with two edits of each, the 2 MB Boost
    licence collection among them: its thirteen distinct copies, 78 comparisons of 326,000 units
    each, took 55 s in one worker of two). Which worker verifies a pair does not change it (see
    the module's docstring)."""
    costs = partition_costs(parts, family, docs)
    share = sum(costs) / (2 * max(1, workers))
    cut: list[list[int]] = []
    for part, cost in zip(parts, costs):
        if cost <= share or len(part) == 1:
            cut.append(part)
            continue
        families: dict[int, list[int]] = {}
        for d in part:
            families.setdefault(family.get(d, -d), []).append(d)
        groups = list(families.values())
        for group, group_cost in zip(groups, partition_costs(groups, family, docs)):
            if group_cost > share:
                cut.extend([d] for d in group)
            else:
                cut.append(group)
    costs = partition_costs(cut, family, docs)
    # a document alone costs its share of its family's work: its length times its family's
    # (a one-document partition's own square would rank every member of a family last)
    totals = _family_units((d for part in cut for d in part), family, docs)
    for i, part in enumerate(cut):
        if len(part) == 1:
            d = part[0]
            costs[i] = float(docs.get(d, (0, ""))[0] or 0) * totals.get(family.get(d, -d), 0)
    order = sorted(range(len(cut)), key=lambda i: -costs[i])
    return [cut[i] for i in order]


# --- local worker processes -------------------------------------------------------------------

_worker: PartitionWorker | None = None  # one per worker process, set by its initializer


def _init_worker(spec: PassSpec) -> None:
    global _worker  # noqa: PLW0603 - the state of a pool worker process, never of the caller
    import signal

    lifeline.bind_to_parent()  # (ends with the process that started the pass, however it ends)
    # The parent handles Ctrl+C and cancels. (SIGTERM keeps its default: the pool stops its
    # workers with it. Sent to the whole process group, it stops the parent's pass as well, and
    # what was written stays.)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker = PartitionWorker(spec)


def _run_partition(doc_ids: list[int]) -> tuple[int, list[DocumentPairs]]:
    assert _worker is not None
    return len(doc_ids), _worker.run(doc_ids)


def run_partition(spec: PassSpec, doc_ids: list[int]) -> list[DocumentPairs]:
    """One self-contained partition task (what a Dask worker runs)."""
    worker = PartitionWorker(spec)
    try:
        return worker.run(doc_ids)
    finally:
        worker.close()


# runs the partitions; yields (documents in the partition, its results) as each one finishes
Executor = Callable[[PassSpec, list[list[int]], ProgressFn], Iterator[tuple[int, list[DocumentPairs]]]]


def serial_results(spec: PassSpec, parts: list[list[int]], tick: ProgressFn) -> Iterator[tuple[int, list[DocumentPairs]]]:
    """The partitions in this process, one after the other."""
    worker = PartitionWorker(spec)
    try:
        for part in parts:
            tick(0.0, "")
            yield len(part), worker.run(part)
    finally:
        worker.close()


def process_results(workers: int) -> Executor:
    """The partitions in ``workers`` local processes (started as :mod:`~neardup_gui.core.processes`
    decides: ``spawn``, or by the fork server from the command line)."""

    def run(spec: PassSpec, parts: list[list[int]], tick: ProgressFn) -> Iterator[tuple[int, list[DocumentPairs]]]:
        ctx = processes.context(opens_index=True)  # (never forked from this process: it has the index open)
        # the context manager terminates the workers on any exit: a cancel stops them at once
        with ctx.Pool(workers, initializer=_init_worker, initargs=(spec,)) as pool:
            results = pool.imap_unordered(_run_partition, parts)
            for _ in parts:
                while True:
                    tick(0.0, "")
                    try:
                        got = results.next(timeout=_TICK_S)
                    except multiprocessing.TimeoutError:
                        continue
                    break
                yield got

    return run


def choose_executor(settings: Settings, n_todo: int) -> Executor:
    workers = max(1, int(settings.workers))
    if workers == 1 or n_todo < (PARALLEL_MIN_DOCS_FORKED if processes.server_allowed() else PARALLEL_MIN_DOCS):
        return serial_results
    return process_results(workers)


def run_pass(
    spec: PassSpec,
    write: Callable[[list[DocumentPairs]], None],
    progress: ProgressFn = no_progress,
    executor: Executor | None = None,
    partition_docs: int = LOCAL_PARTITION_DOCS,
) -> int:
    """Pair every document of ``spec.todo``; results go to ``write`` in batches as they arrive.

    ``write`` is called in this thread only (the one writer), with the results of at least one
    partition at a time, at most about a second apart. Returns the number of documents paired.
    ``progress`` may raise :class:`Cancelled`; the workers are stopped and what was written stays
    (the ``paired`` table lets the next pass resume).
    """
    todo = spec.todo
    if len(todo) == 0:
        return 0
    run = executor or choose_executor(spec.settings, len(todo))
    if run is serial_results:  # (one process prepares every document once whatever the order)
        parts = partitions(todo.tolist(), partition_docs)
    else:
        with closing(Store(spec.db_path, create=False)) as store:
            keys = family_keys(store, todo)
            parts = family_partitions(todo, keys, partition_docs)
            docs = {d: (units, sha)
                    for d, units, sha in doc_rows.ids_units_contents(store)}
        # The costliest first (a family's comparisons grow with its size and its documents'
        # lengths), so that no large partition is left for the end while the other workers idle;
        # one too large for a worker is shared by all of them.
        parts = balanced_partitions(parts, dict(zip(todo.tolist(), keys.tolist())), docs,
                                    max(2, int(spec.settings.workers)))
    done = 0
    batch: list[DocumentPairs] = []
    flushed = time.monotonic()
    total = len(todo)

    def tick(_f: float, _m: str) -> None:
        progress(done / total, f"Comparing {min(done + 1, total)} of {total}")

    progress(0.0, f"Comparing 1 of {total}")
    # closed on any exit (a cancel, a failed write): no worker outlives the pass
    with closing(run(spec, parts, tick)) as results:
        try:
            for size, result in results:
                batch.extend(result)
                done += size
                if len(batch) >= 200 or time.monotonic() - flushed > 1.0:
                    write(batch)
                    batch, flushed = [], time.monotonic()
                progress(done / total, f"Compared {done} of {total}")
        except Cancelled:
            write(batch)  # what was verified is kept: the next pass resumes after it
            raise
    write(batch)
    progress(1.0, "Compared")
    return done
