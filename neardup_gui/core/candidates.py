"""Candidate sources of a document, from every search strategy, before exact verification.

Each strategy proposes documents; the union is verified by LCS. The strategies:

- ``anchors``: winnowing anchors shared with the document's countable text (finds partial copies
  of at least ``anchor_guarantee`` units whatever the overall similarity; our addition): the
  collection-wide pass's channel for copies;
- ``grams``: a check's channel for copies: every k-gram of the submission looked up among the
  stored grams (the dense tier, ``fingerprints.grams``), so every document sharing a run of
  ``gram_guarantee`` units (8, the comparison's minimum run) is proposed, whatever the two
  documents' lengths: what the exact comparison can find, the check finds;
- ``minhash``: 1-bit minwise fingerprints within the Hamming radius of the estimate floor
  (Yuan, Long, Zhang and Gui), searched with the configured strategy (brute, permuted = alg.G, grouped = alg.H);
- ``simhash``: 64-bit simhash within Hamming distance 3 (Yu, Hu and Zhang; Manku's permuted tables);
- ``lsh``: a shared MinHash LSH band key (Rajaraman and Ullman);
- ``sentences``: a shared seed-004 sentence fingerprint ("perhaps-similar").
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

try:  # (setup.py builds it when a C compiler is at hand; the same counts come from numpy without)
    from neardup_gui.core import _kernels
except ImportError:  # pragma: no cover - a build without a C compiler
    _kernels = None
from neardup_gui.core.fingerprints import (
    Fingerprints, anchor_kgrams, anchors, estimate_similarity, gram_kgrams, hamming_radius,
)
from neardup_gui.core.indexer import params_key
from neardup_gui.core.search import deserialise, make_search, serialise
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import Store
from neardup_gui.core.store import search as search_store

log = logging.getLogger(__name__)

# Estimated shingle resemblance from which the 1-bit minhash search proposes a document: the
# lowest threshold of Yuan, Long, Zhang and Gui (r = 0.7, where it needs k ≥ 256). Below it,
# their alg.H does more work than brute force (measured at 1M fingerprints, k = 256: 13 ms vs 34 ms at r = 0.7, but 53 ms vs
# 32 ms at r = 0.6); lower resemblance is the LSH channel's (band threshold 0.5) and copied
# passages are the anchors' (any common run of anchor_guarantee units, whatever the estimate).
ESTIMATE_FLOOR = 0.7
SIMHASH_RADIUS = 3
SIMHASH_ONLY_MIN_ESTIMATE = 0.3
MAX_ANCHOR_CANDIDATES = 200
# A check looks up every k-gram of a submission among the stored grams (any run of the minimum
# length shared with a document is proposed) for submissions of up to this many countable units:
# the look-up reads the postings of every k-gram, and a long submission shares short k-grams
# with most documents of a large collection by chance, so that its candidates ranked by shared
# grams would be chance neighbours, not sources. Longer submissions are searched by the winnowed
# anchors (any run of anchor_guarantee units), the resemblance channels and the sentences;
# docs/fingerprints.md gives the figures.
GRAMS_MAX_QUERY_UNITS = 5000
# The cap for whole-collection pairs (documents proposed by two shared anchors or more). There the
# candidates are ranked by the resemblance of their anchor sets, not by the raw count: where a
# licence is shared by hundreds of files, long files share many anchors with every document while
# a short near-duplicate shares fewer but a larger part of its own. Measured on 797 real
# copyright files with --no-auto-template, r >= 0.5: recall 0.950 (cap applied before the
# exclusion of paired documents), 0.982 (after it), 0.999 with this ranking, equal to an uncapped
# pass; on the same grown to 2,375 files at 0.8: the same 12,815 pairs in 92 s, where an uncapped
# pass (cap 5,000) took 715 s.
MAX_PAIR_ANCHOR_CANDIDATES = 200
# Contents whose channel look-ups a pass keeps for their byte copies (the oldest dropped first).
RAW_CHANNELS_KEPT = 1000
# For whole-collection pairs (similarity ≥ 0.2 at the least), a document proposed by the anchors
# alone must share two: in a large collection almost every document shares one phrase of k units
# with some twenty others by chance (measured at 100,000 documents: 24 such candidates per
# document, 99 % sharing exactly one anchor, similarity ≤ 0.005), and verifying them made pairs
# cost 0.26 s per document. A pair at similarity 0.2 has thousands of common units, dozens of
# anchors when its runs reach G = 55 units. ``eval_quality.py`` measures what this costs.
# Re-measured for anchors of 8 units (797 real copyright files, --no-auto-template, anchor-only
# candidate pairs sampled): one shared anchor reaches similarity 0.2 in 2 of 300 pairs (12 units:
# 18 of 300), two shared anchors in 10 of 300 (28), none reaches 0.5: one 8-gram is still chance,
# two are not to be dropped (docs/fingerprints.md).
PAIR_MIN_SHARED_ANCHORS = 2


@dataclass
class Candidate:
    doc_id: int
    found_by: set[str] = field(default_factory=set)
    shared_anchors: int = 0
    estimate: float | None = None  # 1-bit minwise estimate of the shingle resemblance (an estimate)


def strategy_names(strategy: str) -> tuple[str, str]:
    """(minhash search, simhash search) for a settings strategy name."""
    if strategy == "auto":
        return "grouped", "permuted"
    if strategy in ("brute", "permuted", "grouped"):
        return strategy, ("permuted" if strategy != "brute" else "brute")
    if strategy == "lsh":
        return "brute", "brute"  # LSH buckets are looked up in the index; Hamming by brute force
    raise ValueError(f"unknown search strategy {strategy!r}")


# Search tables are stored in the index once a collection has this many documents (smaller ones
# build faster than they load) and rewritten when this share of documents changed since.
SNAPSHOT_MIN_DOCS = 5000
SNAPSHOT_STALE_SHARE = 0.02


# Anchor rows a pass loads into memory at most (16 bytes each); above it, it asks SQLite per document.
ANCHOR_POSTINGS_MAX_ROWS = 20_000_000


def _most_shared(ids: np.ndarray, counts: np.ndarray, cap: int, ties: np.ndarray | None = None) -> np.ndarray:
    """The positions of the ``cap`` documents sharing the most keys: most first, then the lower
    of ``ties`` (a rank per document), then the lower id."""
    return np.lexsort((ids, ids if ties is None else ties, -counts))[:cap]


class AnchorPostings:
    """Every anchor row of the index in memory, sorted by hash, for the many look-ups of a pass.

    Gives the counts :meth:`Store.lookup_counts` gives for the anchors table, as arrays, without
    one SQL query per document (a pass looks up every document's anchors; in a copy-heavy
    collection the anchors of shared boilerplate list every document)."""

    def __init__(self, hashes: np.ndarray, doc_ids: np.ndarray) -> None:
        self.hashes = hashes
        self.doc_ids = doc_ids
        self._per_document: np.ndarray | None = None

    def anchors_of(self, doc_ids: np.ndarray) -> np.ndarray:
        """How many anchors each of ``doc_ids`` has (computed once, on first use)."""
        if self._per_document is None:
            self._per_document = np.bincount(self.doc_ids) if len(self.doc_ids) else np.zeros(1, dtype=np.int64)
        ids = np.asarray(doc_ids, dtype=np.int64)
        inside = ids < len(self._per_document)
        out = np.zeros(len(ids), dtype=np.int64)
        out[inside] = self._per_document[ids[inside]]
        return out

    @classmethod
    def load(cls, store: Store, table: str = "anchors") -> "AnchorPostings | None":
        """The anchors of ``store`` (None when there are more than ANCHOR_POSTINGS_MAX_ROWS), or
        the rows of another search table (``lsh_keys``, ``sentence_fps``), the same way."""
        column = {"anchors": "hash", "lsh_keys": "key", "sentence_fps": "fp", "grams": "hash"}[table]
        with store.reading() as conn:
            rows = search_store.row_count(conn, table)
            if rows > ANCHOR_POSTINGS_MAX_ROWS:
                return None
            held = cls._from_fingerprints(conn, table)
            if held is not None and len(held.hashes) == rows:
                return held
            flat = np.fromiter(itertools.chain.from_iterable(search_store.rows_by_value(conn, table, column)),
                               dtype=np.int64, count=2 * rows)
        pairs = flat.reshape(-1, 2)
        return cls(np.ascontiguousarray(pairs[:, 0]), np.ascontiguousarray(pairs[:, 1]))

    @classmethod
    def _from_fingerprints(cls, conn, table: str) -> "AnchorPostings | None":  # noqa: ANN001
        """The rows of ``table`` made from the fingerprints table, where every document's row
        holds the same values as one array (Store.write_fingerprints writes both in one
        transaction, and removing a document removes both): one row a document to read instead
        of one a search row, sorted here as ``ORDER BY`` sorts them (by value, then document).
        0.24 s → 0.03 s for the anchors of 2,372 copyright files, in each worker of a pass. None
        when a stored array is damaged; the caller also reads the table itself when the counts
        differ."""
        column = {"anchors": "anchors", "lsh_keys": "lsh", "sentence_fps": "sentence_fps", "grams": "grams"}[table]
        ids, blobs = [], []
        for doc_id, blob in search_store.fingerprint_arrays(conn, column):
            if not isinstance(blob, bytes) or len(blob) % 8:
                return None
            ids.append(doc_id)
            blobs.append(blob)
        values = np.frombuffer(b"".join(blobs), dtype="<u8").view(np.int64)
        docs = np.repeat(np.asarray(ids, dtype=np.int64), [len(b) // 8 for b in blobs])
        if table == "sentence_fps":  # (0 marks an empty bucket: no row)
            kept = values != 0
            values, docs = values[kept], docs[kept]
        order = np.lexsort((docs, values))
        values, docs = values[order], docs[order]
        # a value twice in one document's array (LSH bands, sentence buckets) is one row
        first = np.ones(len(values), dtype=bool)
        first[1:] = (values[1:] != values[:-1]) | (docs[1:] != docs[:-1])
        return cls(np.ascontiguousarray(values[first]), np.ascontiguousarray(docs[first]))

    def counts(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(doc ids, how many of ``keys`` each has), doc ids ascending."""
        if _kernels is not None and self.hashes.dtype == np.int64 and self.doc_ids.dtype == np.int64:
            # the same in C (core/_kernels.c: posting_counts), without the sorting of the postings
            # read: a pass looks up every document's anchors, LSH keys and sentence fingerprints
            ids, counts = _kernels.posting_counts(self.hashes, self.doc_ids, np.asarray(keys, dtype=np.uint64))
            return np.frombuffer(ids, dtype=np.int64), np.frombuffer(counts, dtype=np.int64)
        signed = np.unique(np.asarray(keys, dtype=np.uint64)).view(np.int64)
        lo = np.searchsorted(self.hashes, signed, side="left")
        hi = np.searchsorted(self.hashes, signed, side="right")
        lengths = hi - lo
        total = int(lengths.sum())
        if total == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        starts = np.repeat(lo - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
        docs = self.doc_ids[starts + np.arange(total)]
        return np.unique(docs, return_counts=True)


class CandidateFinder:
    """Search tables over an index's fingerprints.

    Loaded from the snapshot stored in the index when there is one (then brought up to date with
    the documents added or removed since, so a stale or interrupted snapshot is never wrong),
    otherwise built from the fingerprints.
    """

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.params = settings.fingerprints
        self.params_json = params_key(self.params)
        minhash_name, simhash_name = strategy_names(settings.strategy)
        k = self.params.minhash_bits
        self.radius = hamming_radius(k, ESTIMATE_FLOOR)
        self.delta = 0  # documents applied on top of a stored snapshot
        names = (f"minhash:{minhash_name}", f"simhash:{simhash_name}")
        # Read in one transaction, so the generation and the tables are of the same moment.
        with store.reading():
            indexed_with = store.get_meta("params")
            if indexed_with not in (None, self.params_json):
                # Documents fingerprinted with other parameters (anchors of 12 units in early indexes,
                # another minhash size) are invisible to the search until ``index`` brings them up
                # to date from their stored text: say so instead of missing them silently.
                log.warning("the index was fingerprinted with other parameters; run the indexing again "
                            "(neardup index) to bring it up to date: until then, candidates are missed")
            self.generation = store.fingerprint_generation()
            stamped = [store.search_table_generation(n, self.params_json) for n in names]
            # Snapshots saved at this very generation are exact: no scan of the fingerprints
            # (0.15-0.2 s at 100,000 documents). Otherwise they are brought up to date.
            current = None if stamped == [self.generation] * 2 else store.fingerprint_ids(self.params_json)
            self.minhash = self._load(names[0], current, 2,
                                      lambda: make_search(minhash_name, bits=k, max_radius=self.radius))
            self.simhash = self._load(names[1], current, 1,
                                      lambda: make_search(simhash_name, bits=64, max_radius=SIMHASH_RADIUS))
        self.count = len(current) if current is not None else len(self.minhash)
        self.anchor_postings: AnchorPostings | None = None  # set by a pass: see AnchorPostings
        # and the LSH keys' and sentence fingerprints' rows (measured on the generated 10,000:
        # 19,932 SQL look-ups took 2.1 s of a 42 s pass)
        self.lsh_postings: AnchorPostings | None = None
        self.sentence_postings: AnchorPostings | None = None
        # A check (min_shared_anchors 1) looks up every k-gram of the submission among the stored
        # grams (the dense tier): any run of gram_guarantee units it shares with a document holds
        # a gram that document stored, whichever minima the submission's own windows would pick.
        # what the channels proposed for a content (byte copies ask again), see find
        self._raw_channels: dict[object, tuple] = {}
        # set by a pass: a rank per document id (by path) breaking ties between documents that
        # share as many anchors, so the candidates do not depend on the order ids were given in
        self.tie_rank: np.ndarray | None = None

    def _load(self, name: str, current: np.ndarray | None, column: int, new):  # noqa: ANN001
        """The stored snapshot brought up to ``current`` (None: it is exact already), or built."""
        data = self.store.load_search_table(name, self.params_json)
        search = None
        if data is not None:
            try:
                search = deserialise(data)
                search.check()
            except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
                # a cache, never the truth: built again from the fingerprints (and stored again
                # by save), where a query would have failed or read rows that do not exist
                log.warning("the stored search table %s is damaged (%s); it is built again from the "
                            "fingerprints", name, exc)
                search = None
        if search is not None:
            if current is None:
                return search
            have = search.doc_ids()
            gone = np.setdiff1d(have, current, assume_unique=True)
            missing = np.setdiff1d(current, have, assume_unique=True)
            if len(gone):
                search.remove(gone)
            if len(missing):
                ids, sims, words = self.store.fingerprint_rows(missing)
                search.add(ids, words if column == 2 else sims.reshape(-1, 1))
            self.delta = max(self.delta, len(gone) + len(missing))
            return search
        if current is None:  # (a snapshot stamped exact, but damaged)
            current = self.store.fingerprint_ids(self.params_json)
        search = new()
        if len(current):
            ids, sims, words = self.store.fingerprint_matrix()
            keep = np.isin(ids, current)
            search.build(ids[keep], words[keep] if column == 2 else sims[keep].reshape(-1, 1))
        self.delta = max(self.delta, len(current))
        return search

    def save(self) -> bool:
        """Store the search tables in the index when that pays off (large, changed collections)."""
        if self.count < SNAPSHOT_MIN_DOCS or self.delta < max(1, SNAPSHOT_STALE_SHARE * self.count):
            return False
        minhash_name, simhash_name = strategy_names(self.settings.strategy)
        # Stamped with the generation the tables were loaded at: if fingerprints changed since
        # (another process, or this one after loading), the stamp no longer matches and the next
        # load checks the snapshot in full, as for a snapshot without a stamp.
        self.store.save_search_table(f"minhash:{minhash_name}", self.params_json, serialise(self.minhash), self.generation)
        self.store.save_search_table(f"simhash:{simhash_name}", self.params_json, serialise(self.simhash), self.generation)
        self.delta = 0
        return True

    def _anchor_totals(self, doc_ids: np.ndarray) -> np.ndarray:
        """How many anchors each of ``doc_ids`` has: from the postings in memory, else from SQL."""
        if self.anchor_postings is not None:
            return self.anchor_postings.anchors_of(doc_ids)
        totals: dict[int, int] = {}
        listed = [int(d) for d in doc_ids]
        for i in range(0, len(listed), 500):
            chunk = listed[i:i + 500]
            totals.update(search_store.anchor_counts(self.store, chunk))
        return np.fromiter((totals.get(d, 0) for d in listed), dtype=np.int64, count=len(listed))

    def find(self, fp: Fingerprints, countable_ids: np.ndarray, *, exclude: set[int] = frozenset(),
             min_shared_anchors: int = 1, admit: Callable[[np.ndarray], np.ndarray] | None = None,
             estimates: bool = True, own_anchors: np.ndarray | None = None,
             content_key: object = None) -> dict[int, Candidate]:
        """All candidates for a document with fingerprints ``fp`` (``countable_ids``: its countable unit ids).

        ``min_shared_anchors``: documents proposed by the anchors must share at least this many
        (``check`` takes every one: a single copied paragraph shares one; ``pairs`` asks for
        ``PAIR_MIN_SHARED_ANCHORS``). ``exclude``: documents that are never candidates.

        ``admit`` (the collection-wide pass): a vectorised test, True for the ids that may be
        candidates at all, each id judged on its own (not paired already, and long enough to reach
        the threshold: an exact bound); it replaces ``exclude``. ``estimates``: False to compute the 1-bit estimate only
        where it decides something (for documents proposed by simhash alone), not for every
        candidate. ``own_anchors``: the winnowed anchors of ``countable_ids`` when the caller has
        them (the stored ones, when nothing of the document was removed). ``content_key``: equal
        for documents of equal content (byte copies), whose channels then are looked up once.

        Whatever is left out goes BEFORE the anchor cap, in numpy: in a copy-heavy collection
        every document shares a licence's anchors with hundreds of others, and the ones already
        paired (or too short to matter) must not take the places of the others. Measured on 797
        real copyright files with --no-auto-template: 104 of the 2,095 pairs at r ≥ 0.5 were lost
        to the cap when it was applied first.
        """
        if admit is None:
            left_out = np.fromiter(exclude, dtype=np.int64, count=len(exclude))

            def admit(ids: np.ndarray) -> np.ndarray:
                return ~np.isin(ids, left_out)

        found: dict[int, Candidate] = {}
        raw = self._raw_channels.get(content_key) if content_key is not None else None
        if raw is None:
            raw = self._channels(fp, countable_ids, min_shared_anchors, own_anchors)
            if content_key is not None:
                self._raw_channels[content_key] = raw
                if len(self._raw_channels) > RAW_CHANNELS_KEPT:
                    self._raw_channels.pop(next(iter(self._raw_channels)))
        ids, counts, n_query, channels = raw
        # ``admit`` tests each id on its own: one call for the anchors' ids and every channel's
        # (a call costs tens of microseconds of numpy whatever its length: five per document)
        pieces = [ids, *(got for _, got in channels)]
        allowed = admit(np.concatenate(pieces)) if sum(map(len, pieces)) else np.zeros(0, dtype=bool)
        ends = np.cumsum([len(p) for p in pieces])
        keep = allowed[:ends[0]]
        if len(ids):
            ids, counts = ids[keep], counts[keep]
        cap = MAX_PAIR_ANCHOR_CANDIDATES if min_shared_anchors > 1 else MAX_ANCHOR_CANDIDATES
        if len(ids) > cap:
            # most shared anchors first, then the lower rank (or id); in numpy: text shared by
            # every document (a licence notice) makes every document share an anchor with thousands
            ties = ids if self.tie_rank is None else self.tie_rank[np.minimum(ids, len(self.tie_rank) - 1)]
            if min_shared_anchors > 1:
                # Pairs: rank by the resemblance of the anchor sets, not the raw count. A licence
                # shared by hundreds of long files gives each many shared anchors; a short file
                # that is a near-duplicate shares fewer, but a far larger share of its own (797
                # real copyright files, --no-auto-template: with the raw count, 34 of the 2,095
                # pairs at r >= 0.5 fell beyond the cap).
                theirs = self._anchor_totals(ids)
                resemblance = counts / np.maximum(n_query + theirs - counts, 1)
                best = np.lexsort((ids, ties, -counts, -resemblance))[:cap]
            else:
                best = _most_shared(ids, counts, cap, ties)
            ids, counts = ids[best], counts[best]
        channel = "anchors" if min_shared_anchors > 1 else "grams"
        for doc_id, n in zip(ids.tolist(), counts.tolist()):
            found[doc_id] = Candidate(doc_id, {channel}, n)
        for (how, got), start, end in zip(channels, ends[:-1].tolist(), ends[1:].tolist()):
            if not len(got):
                continue
            for doc_id in got[allowed[start:end]].tolist():
                c = found.get(doc_id)
                if c is None:
                    c = found[doc_id] = Candidate(doc_id)
                c.found_by.add(how)
        return self._estimated(found, fp, estimates)

    def _sharing_anchors(self, query_anchors: np.ndarray, min_shared: int,
                         table: str = "anchors") -> tuple[np.ndarray, np.ndarray]:
        """(doc ids, shared keys) of the documents sharing at least ``min_shared`` of
        ``query_anchors`` in ``table`` (the anchors, or a check's grams)."""
        if not len(query_anchors):
            ids = counts = np.zeros(0, dtype=np.int64)
        elif self.anchor_postings is not None and table == "anchors":
            ids, counts = self.anchor_postings.counts(query_anchors)
        else:
            looked_up = self.store.lookup_counts(table, "hash", query_anchors)
            ids = np.fromiter(looked_up.keys(), dtype=np.int64, count=len(looked_up))
            counts = np.fromiter(looked_up.values(), dtype=np.int64, count=len(looked_up))
        keep = counts >= min_shared
        return ids[keep], counts[keep]

    def _holding(self, table: str, column: str, postings: AnchorPostings | None, keys: np.ndarray) -> np.ndarray:
        """The documents (ids ascending) holding one of ``keys`` in a search table."""
        if not len(keys):
            return np.zeros(0, dtype=np.int64)
        if postings is not None:
            return postings.counts(keys)[0]
        return np.array(sorted(self.store.lookup_counts(table, column, keys)), dtype=np.int64)

    def _estimated(self, found: dict[int, Candidate], fp: Fingerprints, estimates: bool = True) -> dict[int, Candidate]:
        """``found`` with the 1-bit estimates (every candidate's, or with ``estimates`` False only
        where it decides something), less the documents proposed by simhash alone whose estimate
        is low. A 64-bit simhash within 3 bits is a near-duplicate claim the 1-bit minhash can
        check for free: such documents were never near duplicates (measured on 15,000 documents:
        ~0.7 per 1,000 indexed, estimates −0.09…0.14, none verified, 25 ms each). They are dropped
        before the exact verification."""
        k = self.params.minhash_bits
        wanted = [d for d, c in found.items() if estimates or c.found_by == {"simhash"}]
        if wanted:
            ids, _, words = self.store.fingerprint_rows(np.array(wanted, dtype=np.int64))
            for doc_id, w in zip(ids, words):
                found[int(doc_id)].estimate = estimate_similarity(fp.minhash_bits, w, k)
        for doc_id in [d for d, c in found.items()
                       if c.found_by == {"simhash"} and (c.estimate is None or c.estimate < SIMHASH_ONLY_MIN_ESTIMATE)]:
            del found[doc_id]
        return found

    def _channels(self, fp: Fingerprints, countable_ids: np.ndarray, min_shared_anchors: int,
                  own_anchors: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, int, list[tuple[str, np.ndarray]]]:
        """What every channel proposes for a document, before any document is left out: the
        anchor candidates sharing ``min_shared_anchors`` (ids, counts), how many anchors the
        document has, and each other channel's ids. Anchors of the countable text only: template
        text must not make every form a candidate."""
        channels: list[tuple[str, np.ndarray]] = []
        if min_shared_anchors <= 1:
            # a check: the anchors always (a copied passage of anchor_guarantee units),
            # and for a submission of up to GRAMS_MAX_QUERY_UNITS every k-gram among the stored
            # grams (a run of gram_guarantee units, a revised passage's short runs)
            # (every anchor_kgram-unit k-gram of the submission, not only its winnowed ones: an
            # edited copy's windows pick other minima than its source's)
            a_ids, a_counts = self._sharing_anchors(anchor_kgrams(countable_ids, self.params), 1)
            channels.append(("anchors", np.sort(a_ids[_most_shared(a_ids, a_counts, MAX_ANCHOR_CANDIDATES)])))
            if len(countable_ids) <= GRAMS_MAX_QUERY_UNITS:
                query_anchors = gram_kgrams(countable_ids, self.params)
                ids, counts = self._sharing_anchors(query_anchors, 1, "grams")
            else:
                query_anchors = ids = counts = np.zeros(0, dtype=np.int64)
        else:  # the pass: the winnowed anchors on both sides (PAIR_MIN_SHARED_ANCHORS is measured for them)
            query_anchors = anchors(countable_ids, self.params) if own_anchors is None else own_anchors
            ids, counts = self._sharing_anchors(query_anchors, min_shared_anchors)
        if self.count:
            channels.append(("minhash", np.asarray(self.minhash.query(fp.minhash_bits, self.radius)[0], dtype=np.int64)))
            channels.append(("simhash", np.asarray(self.simhash.query(np.array([fp.simhash], dtype=np.uint64),
                                                                      SIMHASH_RADIUS)[0], dtype=np.int64)))
        channels.append(("lsh", self._holding("lsh_keys", "key", self.lsh_postings, fp.lsh_keys)))
        sent = fp.sentence_fps[fp.sentence_fps != 0]
        if len(sent):
            channels.append(("sentences", self._holding("sentence_fps", "fp", self.sentence_postings, sent)))
        return ids, counts, len(query_anchors), channels
