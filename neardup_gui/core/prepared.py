"""Prepared documents: what a comparison needs of a document, computed once per pass.

A pass (pairs, clusters, screening) compares each document with many others. Its countable units
are coded once (:class:`UnitCodes`, shared by the pass), its ``min_run``-grams hashed once, its bag
of units counted once; :func:`compare_prepared` then returns exactly what
:func:`~neardup_gui.core.compare.compare_documents` returns for the same texts and marks, after
exact upper bounds (the shorter length, the bag of units, the shared k-grams, the LCS length) have
ruled out, cheapest first, the candidates that cannot reach a cut-off.
"""

from __future__ import annotations

import functools
import logging
import math
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from neardup_gui.core.align import _codes_as_sequences, _HASH_MULTIPLIER, _lcs_length_sequences
from neardup_gui.core.compare import (
    REVISION, _aligned_comparison, _below_cutoffs, _cover, _gap_keys, _multiset_overlap, _ratio, _shared_mask_codes,
    _with_gaps, item_index, merge_spans, revised_bound, revision_possible, seed_weights, units_in_spans,
)
from neardup_gui.core.document import CharSpan
from neardup_gui.core.passages import DEFAULT_RULES, countable_marks
from neardup_gui.core.results import Comparison, Exclusions
from neardup_gui.core.units import Units

try:  # the window search, the bag bounds and the unit coding in C (core/_kernels.c): the same answers
    from neardup_gui.core import _kernels
except ImportError:  # (not built: the numpy code serves)
    _kernels = None

log = logging.getLogger(__name__)



class UnitCodes:
    """Small integer codes for unit ids (and for removed text), shared by one pass's documents.

    The alignment only asks which items are equal, so any injective coding gives the same
    answer as the per-pair dense codes of :func:`compare_units`; a shared one costs one look-up
    per unit of a document instead of a sort per pair. Codes are given in order of first sight
    (a document's new units in ascending order of id), so the units of the first documents (the
    commonest words and characters) get codes below 256, the ones rapidfuzz looks up in a
    table. A stretch of removed text (a gap item) is coded by its unit ids, apart from every
    unit. Owned by one pass in one process (never shared state).
    """

    def __init__(self) -> None:
        self._codes: dict[object, int] = {}  # unit id (or ("gap", key)) → code, without core/_kernels.c
        self._gaps: dict[bytes, int] = {}  # a removed stretch's key → code, with it
        self._next = 0  # the next code given (the codes given so far: 0 .. _next - 1)
        self._units = 0  # how many unit ids are in the table
        # with core/_kernels.c: the unit ids in an open-addressing table (unit_codes), kept at
        # most half full; one document's units coded in one call, without a sort (np.unique
        # with its inverse would be most of the cost of preparing a document)
        self._keys = self._vals = None
        if _kernels is not None and hasattr(_kernels, "unit_codes"):
            self._keys, self._vals = self._table(1024)

    @staticmethod
    def _table(size: int) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros(size, dtype=np.uint64), np.full(size, 0xFFFFFFFF, dtype=np.uint32)

    def __len__(self) -> int:
        return self._next if self._keys is not None else len(self._codes)

    def encode(self, ids: np.ndarray) -> np.ndarray:
        if len(ids) == 0:
            return np.zeros(0, dtype=np.uint32)
        if self._keys is not None:
            ids = np.ascontiguousarray(ids, dtype=np.uint64)
            if 2 * (self._units + len(ids)) > len(self._keys):
                self._grow(self._units + len(ids))
            coded, after = _kernels.unit_codes(self._keys, self._vals, ids, self._next)
            self._units += after - self._next
            self._next = after
            return np.frombuffer(coded, dtype=np.uint32)
        uniq, inverse = np.unique(np.asarray(ids, dtype=np.uint64), return_inverse=True)
        known = self._codes
        keys = uniq.tolist()
        got = list(map(known.get, keys))  # a C loop; only units not seen before take a Python step
        if None in got:
            got = [known.setdefault(u, len(known)) if c is None else c for u, c in zip(keys, got)]
        return np.array(got, dtype=np.uint32)[inverse.reshape(-1)]

    def _grow(self, units: int) -> None:
        """A table at most half full with ``units`` unit ids, holding the codes given so far."""
        size = len(self._keys)
        while 2 * units > size:
            size *= 2
        held = self._vals != 0xFFFFFFFF
        keys, vals = self._table(size)
        _kernels.code_table_put(keys, vals, self._keys[held], self._vals[held])  # (fresh, contiguous copies)
        self._keys, self._vals = keys, vals

    def encode_gaps(self, keys: list[bytes]) -> dict[bytes, int]:
        """Codes of removed stretches (by their unit ids), never equal to a unit's code."""
        if self._keys is not None:
            out = {}
            for k in keys:
                code = self._gaps.get(k)
                if code is None:
                    code = self._gaps[k] = self._next
                    self._next += 1
                out[k] = code
            return out
        known = self._codes
        return {k: known.setdefault(("gap", k), len(known)) for k in keys}


# Buckets of the bag-of-units bound (:attr:`PreparedDocument.buckets`): the units of a document are
# counted per bucket of their code, and the sum over buckets of the smaller count is an exact
# upper bound of the multiset overlap, so of the LCS. 1,024 buckets reject nearly every candidate
# the exact bag of units would; it costs 1,024 operations per pair, for all of a document's
# candidates at once, instead of a search of every window.
BAG_BUCKETS = 1024
# The index stores bags as uint16 (store.pack_bag): a full bucket stands for any count from there up.
BAG_FULL = 0xFFFF


def unit_bag(ids: np.ndarray) -> np.ndarray:
    """How many units fall in each of BAG_BUCKETS buckets of their ids.

    The index stores it for every document (all its units, :func:`~neardup_gui.core.store.pack_bag`),
    so the pairs pass bounds the common units of a candidate before preparing it. Bucketed by unit
    id rather than by the pass's codes, it is the same kind of exact upper bound as
    :attr:`PreparedDocument.buckets`; counting all units rather than the countable ones only
    loosens it."""
    buckets = (np.asarray(ids, dtype=np.uint64) & np.uint64(BAG_BUCKETS - 1)).astype(np.intp)
    return np.bincount(buckets, minlength=BAG_BUCKETS).astype(np.int64)


def stored_bag_bounds(bag: np.ndarray, stored: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
    """For each row of ``stored`` (bags read from the index), an exact upper bound of its common
    units with a document whose (countable) units have the :func:`unit_bag` ``bag``. ``rows``:
    only those rows of ``stored``, in that order (the pass's candidates among every stored bag)."""
    if (_kernels is not None and bag.dtype == np.int64 and stored.dtype == np.uint16 and stored.ndim == 2
            and stored.shape[1] == len(bag) and len(bag)):
        # the same in C (core/_kernels.c: bag_bounds), the candidates' rows read in place: in a
        # copy-heavy collection a document has dozens of candidates, each a row of 1,024 buckets
        picked = np.arange(len(stored), dtype=np.int64) if rows is None else np.ascontiguousarray(rows, dtype=np.int64)
        return np.frombuffer(_kernels.bag_bounds(bag, stored, picked), dtype=np.int64)
    if rows is not None:
        stored = stored[rows]
    rows = stored.astype(np.int64)
    if len(rows) and int(stored.max()) >= BAG_FULL:
        rows[stored >= BAG_FULL] = np.iinfo(np.int64).max // 4  # a full bucket: any count
    return np.minimum(rows, bag).sum(axis=1)


@dataclass(frozen=True)
class _Windows:
    """The ``min_run``-windows of a prepared document's items."""

    hashes: np.ndarray  # their distinct 64-bit hashes, sorted
    first: np.ndarray  # start of one window per distinct hash, to check a match item by item
    inverse: np.ndarray  # the index in hashes of every window's hash
    collided: bool  # two different windows of this document share a hash (then compared exactly)


@dataclass(frozen=True, eq=False)
class PreparedDocument:
    """A document ready to be compared many times: countable units coded, ``min_run``-grams hashed.

    Built by :func:`prepare_document`; compared by :func:`compare_prepared`, which returns
    exactly what :func:`compare_documents` returns for the same texts, marks and ``min_run``.
    What only some comparisons need (the window hashes, the bag of units) is computed on first
    use: in a copy-heavy collection most candidates are ruled out by the cheaper bounds.
    """

    units: Units  # offsets only (the text stays with the caller)
    min_run: int
    pos: np.ndarray  # original positions of the countable units
    codes: np.ndarray  # uint32 pass-wide codes of the countable units
    items: np.ndarray  # the codes with one gap item where removed text lies between two of them
    unit: np.ndarray  # the unit position of every item (−1: a gap item)
    template: tuple[CharSpan, ...] = ()
    excluded: tuple[CharSpan, ...] = ()
    template_share: float = 0.0
    excluded_share: float = 0.0
    exclusions: Exclusions = field(default_factory=Exclusions)  # what the marks removed, carried along

    @functools.cached_property
    def windows(self) -> _Windows:
        """The hashed ``min_run``-windows of the items (see :func:`_shared_mask_prepared`)."""
        return _windows_of(self.items, self.min_run)

    @functools.cached_property
    def seed_windows(self) -> _Windows:
        """The hashed windows of revised passages' seeds (``REVISION.seed_units`` items): hashed
        once per document, not once per comparison (see :func:`_revised_bound_prepared`)."""
        return _windows_of(self.items, REVISION.seed_units)

    @functools.cached_property
    def countable_items(self) -> np.ndarray:
        """The items of its countable units (no gap item), as int64."""
        return self.items[self.unit >= 0].astype(np.int64)

    @functools.cached_property
    def item_index(self) -> tuple[np.ndarray, np.ndarray]:
        """:func:`~neardup_gui.core.compare.item_index` of its items: the same for each of the
        document's comparisons."""
        return item_index(self.unit)

    @functools.cached_property
    def seed_weights(self) -> np.ndarray:
        """What each countable unit weighs in a revised passage's seed (when both texts say which
        units are CJK; see :class:`~neardup_gui.core.compare.RevisionRules`)."""
        return seed_weights(self.countable_marks[1], len(self.pos))

    @functools.cached_property
    def top_item(self) -> int:
        """The largest item code (0 for a document without items)."""
        return int(self.items.max(initial=0))

    @functools.cached_property
    def top_code(self) -> int:
        """The largest code of its countable units (-1 for a document without any)."""
        return int(self.codes.max()) if len(self.codes) else -1

    @functools.cached_property
    def countable_marks(self) -> tuple[np.ndarray, np.ndarray | None]:
        """:func:`~neardup_gui.core.passages.countable_marks` of its countable units: the same
        for each of the document's comparisons."""
        return countable_marks(self.units, self.pos)

    @functools.cached_property
    def buckets(self) -> np.ndarray:
        """How many countable units fall in each of BAG_BUCKETS buckets of their codes."""
        return np.bincount(self.codes % BAG_BUCKETS, minlength=BAG_BUCKETS).astype(np.int32)

    @property
    def nbytes(self) -> int:
        """Approximate memory held (for the caches of a pass)."""
        arrays = [self.units.ids, self.units.starts, self.units.ends, self.pos, self.codes, self.items, self.unit]
        for cached in ("windows", "seed_windows"):
            if cached in self.__dict__:
                w = self.__dict__[cached]
                arrays += [w.hashes, w.first, w.inverse]
        if "item_index" in self.__dict__:
            arrays += list(self.item_index)
        return sum(x.nbytes for x in arrays) + (4 * BAG_BUCKETS if "buckets" in self.__dict__ else 0) + 200


def _windows_of(items: np.ndarray, k: int) -> _Windows:
    """The hashed ``k``-windows of ``items``."""
    if len(items) < k:
        empty = np.zeros(0, dtype=np.int32)
        return _Windows(np.zeros(0, dtype=np.uint64), empty, empty.copy(), False)
    if _kernels is not None and items.dtype == np.uint32:  # (core/_kernels.c: the same, in C)
        hashes, first, inverse, collided = _kernels.windows(items, k, int(_HASH_MULTIPLIER))
        return _Windows(np.frombuffer(hashes, dtype=np.uint64), np.frombuffer(first, dtype=np.int32),
                        np.frombuffer(inverse, dtype=np.int32), collided)
    windows = np.lib.stride_tricks.sliding_window_view(items, k)
    h = np.zeros(len(windows), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for col in range(k):
            h = h * _HASH_MULTIPLIER + windows[:, col].astype(np.uint64) + np.uint64(1)
    hashes, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1).astype(np.int32)
    first = first.astype(np.int32)
    collided = not np.array_equal(windows, windows[first[inverse]])
    return _Windows(hashes, first, inverse, collided)


def bag_bounds(a: PreparedDocument, others: Sequence[PreparedDocument]) -> np.ndarray:
    """For each of ``others``, an exact upper bound of its common units with ``a`` (the bucketed
    bag of units, see BAG_BUCKETS), computed for all of them at once."""
    if not others:
        return np.zeros(0, dtype=np.int64)
    matrix = np.stack([o.buckets for o in others])
    return np.minimum(matrix, a.buckets).sum(axis=1, dtype=np.int64)


def prepare_document(
    units: Units,
    *,
    min_run: int,
    codes: UnitCodes,
    template: Iterable[CharSpan] = (),
    excluded: Iterable[CharSpan] = (),
    exclusions: Exclusions | None = None,
) -> PreparedDocument:
    """The per-document part of :func:`compare_documents`, done once (see :class:`PreparedDocument`)."""
    if min_run < 1:
        raise ValueError("min_run must be at least 1")
    tpl, exc = merge_spans(template), merge_spans(excluded)
    t_mask = units_in_spans(units, tpl)
    e_mask = units_in_spans(units, exc) & ~t_mask
    pos = np.flatnonzero(~(t_mask | e_mask)).astype(np.int64)
    coded = codes.encode(units.ids[pos])
    jumps, keys = _gap_keys(units.ids, pos)
    items, unit = _with_gaps(coded, pos, jumps, keys, codes.encode_gaps(keys))
    unit = unit.astype(np.int32) if len(units) < 2**31 else unit
    # (offsets and positions in 32 bits: a cache of prepared documents holds a third more)
    small = units.ends[-1] < 2**31 if len(units) else True
    offsets = np.int32 if small else np.int64
    return PreparedDocument(
        units=Units(ids=units.ids, starts=units.starts.astype(offsets), ends=units.ends.astype(offsets), cjk=units.cjk),
        min_run=min_run, pos=pos, codes=coded, items=items, unit=unit, template=tpl, excluded=exc,
        template_share=_ratio(int(t_mask.sum()), len(units)), excluded_share=_ratio(int(e_mask.sum()), len(units)),
        exclusions=exclusions if exclusions is not None else Exclusions(),
    )


def _shared_mask_prepared(
    a: PreparedDocument, b: PreparedDocument, at_least: int | None = None
) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`shared_kgram_mask` of two prepared documents' items, from their window hashes.

    One search of A's sorted distinct window hashes in B's; every hash found in both is checked
    item by item on one window each (the windows of one hash within a document were checked
    equal when it was prepared). On any collision the exact labels decide.

    ``at_least``: None is returned, before that check, when fewer items than this are covered
    in one of the texts by windows whose hashes match (a superset of the shared windows, so an
    exact bound): in a copy-heavy collection many candidates that reach this step stop here,
    and the check costs most."""
    k = a.min_run
    na, nb = len(a.items), len(b.items)
    if na < k or nb < k:
        return None if at_least else (np.zeros(na, dtype=bool), np.zeros(nb, dtype=bool))
    if a.windows.collided or b.windows.collided:
        return _reaching(_shared_mask_codes(a.items, b.items, k), at_least)
    got = (_compiled_shared_cover if _compiled(a, b) else _numpy_shared_cover)(a, b, at_least)
    if got is not False:
        return got
    log.warning("k-gram hash collision: comparing k-grams unit by unit")
    return _reaching(_shared_mask_codes(a.items, b.items, k), at_least)


def _compiled(a: PreparedDocument, b: PreparedDocument) -> bool:
    """Whether core/_kernels.c serves these two documents (built, and their items as it reads them)."""
    return _kernels is not None and a.items.dtype == np.uint32 and b.items.dtype == np.uint32


def _windows_of_pair(a: PreparedDocument, b: PreparedDocument, seeds: bool) -> tuple[_Windows, _Windows, int]:
    """Both documents' ``min_run``-windows, or (``seeds``) their seeds' windows, and the length."""
    if seeds:
        return a.seed_windows, b.seed_windows, REVISION.seed_units
    return a.windows, b.windows, a.min_run


def _compiled_shared_cover(a: PreparedDocument, b: PreparedDocument, at_least: int | None,
                           seeds: bool = False) -> tuple[np.ndarray, np.ndarray] | bool | None:
    """:func:`_numpy_shared_cover` in C (core/_kernels.c)."""
    wa, wb, k = _windows_of_pair(a, b, seeds)
    got = _kernels.shared_cover(wa.hashes, wa.inverse, wa.first, a.items, wb.hashes, wb.inverse, wb.first,
                                b.items, k, -1 if at_least is None else at_least)
    if got is None or got is False:
        return got
    return np.frombuffer(got[0], dtype=bool), np.frombuffer(got[1], dtype=bool)


def _numpy_shared_cover(a: PreparedDocument, b: PreparedDocument, at_least: int | None,
                        seeds: bool = False) -> tuple[np.ndarray, np.ndarray] | bool | None:
    """The masks of :func:`_shared_mask_prepared` from the window hashes (neither document's
    collided); None below ``at_least``; False when two windows of one hash differ (a collision).
    ``seeds``: of the seeds' windows rather than the ``min_run``-windows."""
    wa, wb, k = _windows_of_pair(a, b, seeds)
    na, nb = len(a.items), len(b.items)
    idx = np.searchsorted(wb.hashes, wa.hashes)
    np.minimum(idx, len(wb.hashes) - 1, out=idx)
    hit_a = wb.hashes[idx] == wa.hashes
    if not hit_a.any():
        return None if at_least else (np.zeros(na, dtype=bool), np.zeros(nb, dtype=bool))
    pair_b = idx[hit_a]
    hit_b = np.zeros(len(wb.hashes), dtype=bool)
    hit_b[pair_b] = True
    covers = _reaching((_cover(np.flatnonzero(hit_a[wa.inverse]), na, k),
                        _cover(np.flatnonzero(hit_b[wb.inverse]), nb, k)), at_least)
    if covers is None:
        return None
    offsets = np.arange(k)
    window_a = a.items[wa.first[hit_a][:, None] + offsets]
    window_b = b.items[wb.first[pair_b][:, None] + offsets]
    return covers if np.array_equal(window_a, window_b) else False


def _revised_bound_prepared(a: PreparedDocument, b: PreparedDocument, revisable: bool = True) -> int:
    """:func:`~neardup_gui.core.compare.revised_bound` of two prepared documents, their seeds'
    windows hashed once per document (a check's long submission is not hashed again for each
    of its candidates); ``revisable``: as :func:`_revision_possible_prepared` says (False: the
    short copied sentences alone). Two texts of one vocabulary share short runs everywhere by
    chance, so this bounds little there."""
    k = REVISION.seed_units
    masks = None
    if len(a.items) >= k and len(b.items) >= k and not (a.seed_windows.collided or b.seed_windows.collided):
        got = (_compiled_shared_cover if _compiled(a, b) else _numpy_shared_cover)(a, b, None, seeds=True)
        masks = got if got is not False else None
    return revised_bound(a.items, b.items, a.unit, b.unit, max(a.top_item, b.top_item) + 1, masks=masks,
                         revisable=revisable)


def _revision_possible_prepared(a: PreparedDocument, b: PreparedDocument) -> bool:
    """:func:`~neardup_gui.core.compare.revision_possible` of the two whole texts (no unit in a
    passage), weighted as :func:`~neardup_gui.core.compare._revised_passages` weighs them: when
    False, no revised passage exists in what the passages leave either (fewer pairs of windows,
    no longer paths), so the candidate's containments are bounded without them and the
    comparison does not search for them. Two texts of one vocabulary share short runs
    everywhere by chance (a 30-page Chinese submission and each of its 200 candidates, all but
    one chance: 192 ruled out here); ordered chains of them are what chance lacks."""
    real_a, real_b = a.countable_items, b.countable_items
    cjk_a, cjk_b = a.countable_marks[1], b.countable_marks[1]
    weight = np.ones(len(real_a)) if cjk_a is None or cjk_b is None else a.seed_weights
    return revision_possible(real_a, real_b, None, None, weight)


def _reaching(masks: tuple[np.ndarray, np.ndarray], at_least: int | None) -> tuple[np.ndarray, np.ndarray] | None:
    """``masks``, or None when one of them holds fewer than ``at_least`` items."""
    if at_least is not None and min(int(masks[0].sum()), int(masks[1].sum())) < at_least:
        return None
    return masks


def _least_reaching(n_a: int, n_b: int, min_similarity: float | None, min_containment: float | None,
                    identical_bound: int | None = None, revised: int = 0) -> int | None:
    """The fewest anchor units that can reach a cut-off (:func:`_below_cutoffs` is false from
    there on: it falls as the count grows); None when even ``min(n_a, n_b)`` cannot."""
    def below(count: int) -> bool:
        return _below_cutoffs(count, n_a, n_b, min_similarity, min_containment, identical_bound, revised)

    hi = min(n_a, n_b)
    if below(hi):
        return None
    lo = 0
    if not below(lo):
        return 0
    if min_similarity is not None and min_containment is None and 0 < min_similarity <= 1:
        # the anchors whose passages can cover the identical units the similarity needs: the
        # answer or next to it (rounding), tried before the bisection's dozen calls (one per
        # candidate of the pass that gets this far)
        guess = math.ceil(_fewest_identical(n_a, n_b, min_similarity) * DEFAULT_RULES.min_anchor_share)
        for c in (guess, guess + 1):
            if lo < c <= hi and below(c - 1) and not below(c):
                return c
    while hi - lo > 1:  # below at lo, not below at hi
        mid = (lo + hi) // 2
        if below(mid):
            lo = mid
        else:
            hi = mid
    return hi


def _fewest_identical(n_a: int, n_b: int, min_similarity: float) -> int:
    """The fewest identical units c with c / (n_a + n_b − c) ≥ ``min_similarity``."""
    c = max(0, min(math.ceil(min_similarity * (n_a + n_b) / (1 + min_similarity)), min(n_a, n_b)))
    while c > 0 and _ratio(c - 1, n_a + n_b - c + 1) >= min_similarity:
        c -= 1
    while c < min(n_a, n_b) and _ratio(c, n_a + n_b - c) < min_similarity:
        c += 1
    return c


def _identical_below(a: PreparedDocument, b: PreparedDocument, anchor_bound: int, bag: int,
                     min_similarity: float, min_containment: float | None, revised: int = 0,
                     memo: dict | None = None) -> bool:
    """Whether neither figure can reach its cut-off once the identical units are bounded by the
    LCS of the two texts' countable units (the in-order passages are a common subsequence):
    computed banded, only the part of the matrix that can reach the similarity's need. Tighter
    than ten times the anchors where two texts share boilerplate and short phrases. ``memo``:
    keeps the LCS for a second call on the same two documents (with another ``revised``)."""
    n_a, n_b = len(a.codes), len(b.codes)
    if _below_cutoffs(anchor_bound, n_a, n_b, min_similarity, min_containment, bag, revised):
        return True
    if min_containment is not None and not _below_cutoffs(anchor_bound, n_a, n_b, None, min_containment,
                                                          revised_bound=revised):
        return False  # the containment may reach its cut-off whatever the similarity
    need = _fewest_identical(n_a, n_b, min_similarity)
    if need == 0 or n_a == 0 or n_b == 0:
        return False
    if memo is not None and need in memo:
        return memo[need] < need
    top = max(a.top_code, b.top_code) + 1
    lcs = _lcs_length_sequences(*_codes_as_sequences(a.codes, b.codes, top), at_least=need)  # 0 below need
    if memo is not None:
        memo[need] = lcs
    return lcs < need


def _multiset_overlap_sparse(ca: np.ndarray, cb: np.ndarray) -> int:
    """:func:`_multiset_overlap` for codes of any size (pass-wide codes are not dense per pair)."""
    if len(ca) == 0 or len(cb) == 0:
        return 0
    top = int(max(ca.max(), cb.max())) + 1
    if top <= 4 * (len(ca) + len(cb)) + 1024:
        return _multiset_overlap(ca, cb, top)
    ua, na = np.unique(ca, return_counts=True)
    ub, nb = np.unique(cb, return_counts=True)
    _, ia, ib = np.intersect1d(ua, ub, assume_unique=True, return_indices=True)
    return int(np.minimum(na[ia], nb[ib]).sum())


# The bit-parallel LCS length (a tighter bound than the bag of units) is computed before the
# alignment when the selected sequences are this large (N·M cells): below it the alignment
# itself is about as cheap as the bound. Most candidates never get here (the bag of units rejects
# them first).
LCS_BOUND_MIN_CELLS = 10_000
# ... and only when the bag of units is within this margin of a cut-off: above it the LCS bound
# all but never rejects (2,375 copy-heavy copyright files at 0.8: 33 rejections of 11,600 bounds
# computed, all 33 within 0.1; 7 of 102 on the 797 real files, all within 0.1), and it costs about
# as much as the alignment it would spare.
LCS_BOUND_MARGIN = 0.1


def compare_prepared(
    a: PreparedDocument,
    b: PreparedDocument,
    *,
    min_similarity: float | None = None,
    min_containment: float | None = None,
    with_raw_lcs: bool = False,
    counts_only: bool = False,
    bag_bounded: bool = False,
) -> Comparison | None:
    """:func:`compare_documents` of two prepared documents: the same Comparison, computed faster.

    Cut-offs as in :func:`compare_units`, with more exact upper bounds of the trustable count
    tried before the alignment, cheapest first: the shorter length, the bag of units (skipped
    with ``bag_bounded``: the caller has applied it, as the pass does for all of a document's
    candidates at once), the units inside shared ``min_run``-grams, their multiset overlap and
    (for long selections near a cut-off) their LCS length. A returned Comparison is always exact;
    ``None`` means a bound proved both cut-offs missed. ``counts_only``: the figures only
    (similarity, containments, common units), without the spans and passages a view needs (the
    collection-wide pass stores the figures).
    """
    if a.min_run != b.min_run:
        raise ValueError("both documents must be prepared with the same min_run")
    n_a, n_b = len(a.codes), len(b.codes)
    cut = min_similarity is not None or min_containment is not None
    identical = n_a > 0 and len(a.items) == len(b.items) and bool(np.array_equal(a.items, b.items))
    if identical:
        sel_a, sel_b = np.arange(len(a.items), dtype=np.int64), np.arange(len(b.items), dtype=np.int64)
    lcs = None  # the LCS length of the selections, when a bound computed it
    revisable = None  # whether revised passages can exist at all, when a bound asked
    lcs_at_most = None  # else an upper bound of it: the real units' bag, plus the gap items
    if not identical:
        need = None  # the fewest anchor units that reach a cut-off: every bound is compared with it
        bag = min(n_a, n_b)  # the identical units are at most the LCS, at most the bag of units
        if cut:
            if not bag_bounded:
                bag = min(bag, int(bag_bounds(a, [b])[0]))
            # Revised passages and short copied sentences (no anchor) count in the containments:
            # what they can cover, bounded. That bound is a search of the shared seed windows,
            # so each test is first made without it (0: the most any test can then ask for) and
            # the bound computed where a test would rule the pair out without it, and before the
            # LCS bound (whose answer the alignment is given): the same tests pass or fail.
            if min_containment is not None:
                revisable = _revision_possible_prepared(a, b)
            revised, exact = 0, min_containment is None
            need = _least_reaching(n_a, n_b, min_similarity, min_containment, bag, revised)

            def exactly() -> None:
                nonlocal revised, exact, need
                if not exact:
                    revised, exact = _revised_bound_prepared(a, b, revisable), True
                    need = _least_reaching(n_a, n_b, min_similarity, min_containment, bag, revised)

            if need is None or bag < need:
                exactly()
                if need is None or bag < need:
                    return None
        shared = _shared_mask_prepared(a, b, at_least=need)
        if shared is None and need is not None and not exact:
            exactly()
            shared = _shared_mask_prepared(a, b, at_least=need)
        if shared is None:
            return None
        sel_a = np.flatnonzero(shared[0]).astype(np.int64)
        sel_b = np.flatnonzero(shared[1]).astype(np.int64)
        if need is not None:
            if min(len(sel_a), len(sel_b)) < need:
                exactly()
                if min(len(sel_a), len(sel_b)) < need:
                    return None
            if _compiled(a, b):
                bound, gaps_a, gaps_b = _kernels.real_overlap(a.items, a.unit, sel_a, b.items, b.unit, sel_b)
            else:
                real_a, real_b = sel_a[a.unit[sel_a] >= 0], sel_b[b.unit[sel_b] >= 0]
                bound = _multiset_overlap_sparse(a.items[real_a], b.items[real_b])
                gaps_a, gaps_b = len(sel_a) - len(real_a), len(sel_b) - len(real_b)
            if bound < need:
                exactly()
                if bound < need:
                    return None
            lcs_at_most = bound + min(gaps_a, gaps_b)
            lcs_memo: dict[int, int] = {}
            if min_similarity is not None and _identical_below(a, b, bound, bag, min_similarity, min_containment,
                                                               revised, lcs_memo):
                if exact:
                    return None
                exactly()
                if _identical_below(a, b, bound, bag, min_similarity, min_containment, revised, lcs_memo):
                    return None
            if len(sel_a) * len(sel_b) >= LCS_BOUND_MIN_CELLS:
                exactly()
                near = _below_cutoffs(bound, n_a, n_b,
                                      None if min_similarity is None else min_similarity + LCS_BOUND_MARGIN,
                                      None if min_containment is None else min_containment + LCS_BOUND_MARGIN, bag,
                                      revised)
                if near:
                    seq_a, seq_b = a.items[sel_a], b.items[sel_b]
                    top = int(max(seq_a.max(), seq_b.max())) + 1
                    # banded: only the part of the matrix that can reach ``need`` is computed (0 below it)
                    lcs = _lcs_length_sequences(*_codes_as_sequences(seq_a, seq_b, top), at_least=need)
                    if lcs < need:
                        return None
    n_codes = max(a.top_item, b.top_item) + 1
    return _aligned_comparison(
        a.units, b.units, a.pos, b.pos, a.codes, b.codes, n_codes, a.items, b.items, a.unit, b.unit, n_codes,
        sel_a, sel_b, whole=n_a if identical else 0, min_run=a.min_run, with_raw_lcs=with_raw_lcs,
        blocks_are_lcs=False, lcs=lcs, counts_only=counts_only, lcs_at_most=lcs_at_most,
        marks={"template_a": a.template, "template_b": b.template, "excluded_a": a.excluded, "excluded_b": b.excluded,
               "template_share_a": a.template_share, "template_share_b": b.template_share,
               "excluded_share_a": a.excluded_share, "excluded_share_b": b.excluded_share,
               "exclusions_a": a.exclusions, "exclusions_b": b.exclusions},
        unit_marks=(a.countable_marks, b.countable_marks) if counts_only else None, revisable=revisable,
        item_indexes=(a.item_index, b.item_index))
