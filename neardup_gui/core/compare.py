"""Exact comparison of two documents: LCS alignment, trustable match runs, similarity, containment.

The similarity is Huang, Wang and Li's r(A, B) = |LCS| / (|A| + |B| − |LCS|) over unit sequences, with two
refinements that keep chance out of the count:

* template and excluded units are removed from both sequences *before* aligning, so the form a
  fund prescribes can neither be counted nor pull the alignment towards itself; a stretch of
  removed text that both texts hold at the aligned position does not cut the run around it
  (an exclusion takes the same text out of both sides; identical texts stay identical);
* only *trustable* LCS units count: those in maximal aligned runs of at least ``min_run`` units
  (consecutive in both texts). Huang, Wang and Li keep the coherent central part of the LCS for the same
  reason; a run length is a sharper test than "head or tail of the page".

Which LCS: every unit of a run of ``min_run`` aligned units lies inside a ``min_run``-gram that
occurs in both texts (the run itself is one). Units outside every shared ``min_run``-gram can
never be counted, so they are left out of the alignment (their positions are kept, so no run
bridges them). This is the default ``alignment="shared-kgrams"``: scattered chance matches can
no longer win an LCS tie against a copied passage (with the plain alignment a section copied
verbatim loses its first units to identical characters earlier in the host text), and texts that
share little align in microseconds. ``alignment="full"`` aligns all countable units, the literal
definition, kept as the reference the tests compare with.

Speed: the multiset overlap of the shared-k-gram units is an exact upper bound of the trustable
count; it costs one sort and lets a caller with a cut-off skip the alignment of candidates that
cannot reach it. After the filter a resubmission differs only by a few units, so Myers'
O((N+M)·D) diff (Huang, Wang and Li's choice) is tried first within a budget on D; beyond it rapidfuzz's
bit-parallel LCS, O(N·M/64), takes over, with units coded by frequency so that its fast table
look-up serves most of them. ``docs/similarity.md`` gives the measured figures.
"""

from __future__ import annotations

import itertools
import logging
import math
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

import numpy as np

from neardup_gui.core.align import (
    Block, _align_codes, _align_sequences, _codes_as_sequences, _dense_codes, _lcs_length_sequences,
    _window_labels,
)
from neardup_gui.core import align
from neardup_gui.core.document import CharSpan
from neardup_gui.core.passages import DEFAULT_RULES, Found, Run, countable_marks, coverage_bound, find_passages
from neardup_gui.core.results import Comparison, MatchSpan, Passage
from neardup_gui.core.units import Units, tokenize

try:  # two steps of a comparison in C (core/_kernels.c): the same answers as the numpy code here
    from neardup_gui.core import _kernels
except ImportError:  # (not built: the numpy code serves)
    _kernels = None

log = logging.getLogger(__name__)

# ----------------------------------------------------------------------------------------------
# Shared k-grams: the only units that can ever be part of a trustable run
# ----------------------------------------------------------------------------------------------


def shared_kgram_mask(a_ids: np.ndarray, b_ids: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Boolean masks of the units of A and B that lie in some k-gram occurring in both.

    Exact: k-grams are grouped by a 64-bit polynomial hash, and every group is then checked
    unit by unit; should a hash ever collide, the k-grams are compared as byte strings.
    """
    na, nb = len(a_ids), len(b_ids)
    mask_a = np.zeros(na, dtype=bool)
    mask_b = np.zeros(nb, dtype=bool)
    if k < 1 or na < k or nb < k:
        return mask_a, mask_b
    ca, cb, _ = _dense_codes(a_ids, b_ids)
    return _shared_mask_codes(ca, cb, k)


def _shared_mask_codes(
    ca: np.ndarray, cb: np.ndarray, k: int, gaps_a: np.ndarray | None = None, gaps_b: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`shared_kgram_mask` on dense codes. ``gaps_a[i]`` True: removed (template or
    excluded) text lies between units i and i + 1 of A; a k-gram across it does not count, as
    no run may cross it."""
    na, nb = len(ca), len(cb)
    if k < 1 or na < k or nb < k:
        return np.zeros(na, dtype=bool), np.zeros(nb, dtype=bool)
    wa = np.lib.stride_tricks.sliding_window_view(ca, k)
    wb = np.lib.stride_tricks.sliding_window_view(cb, k)
    windows = np.concatenate([wa, wb])
    labels = _window_labels(windows)
    la, lb = labels[: len(wa)], labels[len(wa) :]
    ok_a, ok_b = _whole_windows(gaps_a, len(wa), k), _whole_windows(gaps_b, len(wb), k)
    n_labels = int(labels.max()) + 1
    in_a = np.zeros(n_labels, dtype=bool)
    in_b = np.zeros(n_labels, dtype=bool)
    in_a[la[ok_a]] = True
    in_b[lb[ok_b]] = True
    return _cover(np.flatnonzero(in_b[la] & ok_a), na, k), _cover(np.flatnonzero(in_a[lb] & ok_b), nb, k)


def _whole_windows(gaps: np.ndarray | None, windows: int, k: int) -> np.ndarray:
    """True for each k-window that crosses no gap (all True without gaps)."""
    if gaps is None or k < 2 or not gaps.any():
        return np.ones(windows, dtype=bool)
    crossed = np.concatenate([[0], np.cumsum(gaps, dtype=np.int64)])  # gaps before unit i
    starts = np.arange(windows)
    return crossed[starts + k - 1] == crossed[starts]



def _cover(window_starts: np.ndarray, n: int, k: int) -> np.ndarray:
    """Units covered by windows of length k starting at ``window_starts``."""
    delta = np.bincount(window_starts, minlength=n + 1)[: n + 1] - np.bincount(window_starts + k, minlength=n + 1)[: n + 1]
    return np.cumsum(delta[:n]) > 0


def _multiset_overlap(ca: np.ndarray, cb: np.ndarray, distinct: int) -> int:
    """Σ over units of min(count in A, count in B), on dense codes: an upper bound of the LCS."""
    if len(ca) == 0 or len(cb) == 0:
        return 0
    return int(np.minimum(np.bincount(ca, minlength=distinct), np.bincount(cb, minlength=distinct)).sum())


# ----------------------------------------------------------------------------------------------
# Runs
# ----------------------------------------------------------------------------------------------


def _aligned_pairs(blocks: list[Block], pos_a: np.ndarray, pos_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All aligned index pairs of ``blocks``, mapped through ``pos_a``/``pos_b``."""
    if not blocks:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    arr = np.asarray(blocks, dtype=np.int64)
    lengths = arr[:, 2]
    total = int(lengths.sum())
    block_of = np.repeat(np.arange(len(arr)), lengths)
    within = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    ia = arr[block_of, 0] + within
    ib = arr[block_of, 1] + within
    return pos_a[ia], pos_b[ib]


def _counted(
    a: Units, b: Units, blocks: list[Block], sel_a: np.ndarray, sel_b: np.ndarray, unit_a: np.ndarray,
    unit_b: np.ndarray, min_run: int, whole: int, countable: tuple[np.ndarray, np.ndarray] | None,
) -> tuple[list, int, int]:
    """:func:`_match_spans` of the aligned pairs of ``blocks`` over the selections, and how many
    real items are aligned; in C (core/_kernels.c) for the counts-only form when it is built."""
    if (countable is not None and _kernels is not None and sel_a.dtype == np.int64 and sel_b.dtype == np.int64
            and countable[0].dtype == np.int64 and countable[1].dtype == np.int64):
        return _kernels.counted_runs(blocks, sel_a, sel_b, unit_a, unit_b, countable[0], countable[1], min_run, whole)
    pa, pb = _aligned_pairs(blocks, sel_a, sel_b)
    spans, common = _match_spans(a, b, pa, pb, unit_a, unit_b, min_run, whole, countable)
    return spans, common, int((unit_a[pa] >= 0).sum()) if len(pa) else 0


def _run_starts(pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """Indices where a new run begins: ``pa``/``pb`` do not both advance by exactly one."""
    if len(pa) == 0:
        return np.zeros(0, dtype=np.int64)
    step = (np.diff(pa) == 1) & (np.diff(pb) == 1)
    return np.concatenate([[0], np.flatnonzero(~step) + 1])


def _match_spans(
    a: Units, b: Units, pa: np.ndarray, pb: np.ndarray, pos_a: np.ndarray, pos_b: np.ndarray, min_run: int,
    whole: int = 0, countable: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[list, int]:
    """Keep the maximal aligned runs of ≥ ``min_run`` units, consecutive in both texts.

    ``pa``/``pb`` are aligned item indices; ``pos_a``/``pos_b`` map an item to its unit in the
    original text, or to −1 for a *gap item* (removed template/excluded text, see
    :func:`_with_gaps`). A run goes on across a gap only where both texts have the same removed
    text at the aligned position (the two gap items were aligned): an exclusion takes the same
    text out of both sides and never cuts a copied passage into pieces too short to count. Only
    real units are counted; a run is highlighted piece by piece, so no highlight covers removed
    text. ``whole`` > 0: a run holding this many real units (all countable units of both texts)
    counts whatever its length — two identical texts are identical however short.

    ``countable`` (the original unit index of every countable unit of A and of B): return the
    pieces as runs ``(i, j, n)`` in countable coordinates instead of MatchSpans, for a caller
    that needs only the counts (the collection-wide pass: no character offsets, no objects).
    """
    if len(pa) == 0:
        return [], 0
    real = pos_a[pa] >= 0
    starts = _run_starts(pa, pb)
    run_of = np.repeat(np.arange(len(starts)), np.diff(np.concatenate([starts, [len(pa)]])))
    real_len = np.bincount(run_of, weights=real, minlength=len(starts)).astype(np.int64)
    counted = real_len >= min_run
    if whole > 0:
        counted |= real_len == whole
    keep = counted[run_of] & real
    common = int(real_len[counted].sum())
    if common == 0:
        return [], 0
    ka, kb = pa[keep], pb[keep]
    pieces = _run_starts(ka, kb)  # split at gap items: no highlight covers removed text
    lengths = np.diff(np.concatenate([pieces, [len(ka)]]))
    if countable is not None:
        first_a = np.searchsorted(countable[0], pos_a[ka[pieces]])
        first_b = np.searchsorted(countable[1], pos_b[kb[pieces]])
        return list(zip(first_a.tolist(), first_b.tolist(), lengths.tolist())), common
    last = pieces + lengths - 1
    oa_first, oa_last = pos_a[ka[pieces]], pos_a[ka[last]]
    ob_first, ob_last = pos_b[kb[pieces]], pos_b[kb[last]]
    a0, a1 = a.starts[oa_first].tolist(), a.ends[oa_last].tolist()
    b0, b1 = b.starts[ob_first].tolist(), b.ends[ob_last].tolist()
    units = lengths.tolist()
    spans = [MatchSpan(a=(a0[t], a1[t]), b=(b0[t], b1[t]), units=units[t]) for t in range(len(pieces))]
    return spans, common


def _gap_keys(ids: np.ndarray, pos: np.ndarray) -> tuple[np.ndarray, list[bytes]]:
    """Where removed text lies between two countable units, and what it is.

    Returns the countable indices ``i`` with removed units between ``pos[i-1]`` and ``pos[i]``,
    and the removed unit ids there (as bytes: equal removed text ↔ equal key).
    """
    if len(pos) < 2:
        return np.zeros(0, dtype=np.int64), []
    jumps = np.flatnonzero(np.diff(pos) > 1) + 1
    return jumps, [ids[pos[i - 1] + 1 : pos[i]].tobytes() for i in jumps.tolist()]


def _with_gaps(
    codes: np.ndarray, pos: np.ndarray, jumps: np.ndarray, keys: list[bytes], gap_code: dict[bytes, int]
) -> tuple[np.ndarray, np.ndarray]:
    """The countable codes with one *gap item* where removed text was, and item → unit positions.

    A gap item's code stands for the removed text itself, so it aligns only with the same removed
    text in the other document; its unit position is −1 (it is never counted).
    """
    if len(jumps) == 0:
        return codes, pos
    gaps = np.array([gap_code[k] for k in keys], dtype=codes.dtype)
    return np.insert(codes, jumps, gaps), np.insert(pos, jumps, -1)


def _countable(mask: np.ndarray | None, n: int) -> np.ndarray:
    if mask is None:
        return np.arange(n, dtype=np.int64)
    mask = np.asarray(mask, dtype=bool)
    if len(mask) != n:
        raise ValueError(f"countable mask has {len(mask)} entries for {n} units")
    return np.flatnonzero(mask).astype(np.int64)


def _ratio(num: int, den: int) -> float:
    return num / den if den > 0 else 0.0


ALIGNMENTS = ("full", "shared-kgrams")


def compare_units(
    a: Units,
    b: Units,
    *,
    min_run: int,
    a_countable: np.ndarray | None = None,
    b_countable: np.ndarray | None = None,
    min_similarity: float | None = None,
    min_containment: float | None = None,
    with_raw_lcs: bool = False,
    alignment: str = "shared-kgrams",
) -> Comparison | None:
    """Compare two unit sequences exactly (see the module docstring for the definition).

    ``a_countable``/``b_countable`` are boolean masks (True = countable); template and excluded
    units are removed from both sequences before aligning; each stretch of them becomes one gap
    item standing for the removed text. Match spans are the trustable runs (≥ ``min_run``
    aligned units, consecutive in both texts, crossing removed text only where both texts
    removed the same text there), highlighted piece by piece so a highlight never covers
    template text; a run holding every countable unit of both texts counts whatever its length.

    Cut-offs (for verifying many candidates): with ``min_similarity`` and/or ``min_containment``
    given, ``None`` is returned when an exact upper bound proves that the similarity is below
    ``min_similarity`` and the larger containment is below ``min_containment`` (each test only
    when its cut-off is given). A returned Comparison is always exact, whether or not it reaches
    the cut-offs. The bound: every trustable unit lies in a ``min_run``-gram found in both texts,
    so common ≤ Σ_unit min(count in A, count in B) over those units.

    ``with_raw_lcs=True`` also computes the plain LCS of the countable units (a diagnostic
    costing a full O(N·M/64) pass, so off by default on this hot path); otherwise ``raw_lcs``
    is 0.

    ``alignment``: ``"shared-kgrams"`` (default) aligns only the units inside shared
    ``min_run``-grams, the only ones that can be counted; ``"full"`` aligns all countable units
    (the literal definition, the reference in tests; chance matches can win LCS ties there and
    cut the first units off a copied passage).
    """
    if min_run < 1:
        raise ValueError("min_run must be at least 1")
    if alignment not in ALIGNMENTS:
        raise ValueError(f"alignment must be one of {ALIGNMENTS}, not {alignment!r}")
    pos_a = _countable(a_countable, len(a))
    pos_b = _countable(b_countable, len(b))
    ids_a = a.ids[pos_a]
    ids_b = b.ids[pos_b]
    n_a, n_b = len(ids_a), len(ids_b)

    codes_a, codes_b, distinct = _dense_codes(ids_a, ids_b)  # once, for every step below
    # Removed text becomes one gap item per stretch, coded by what was removed: a run crosses
    # it only where both texts removed the same text there (identical stays identical).
    jumps_a, keys_a = _gap_keys(a.ids, pos_a)
    jumps_b, keys_b = _gap_keys(b.ids, pos_b)
    gap_code = {k: distinct + i for i, k in enumerate(dict.fromkeys(keys_a + keys_b))}
    items_a, unit_a = _with_gaps(codes_a, pos_a, jumps_a, keys_a, gap_code)
    items_b, unit_b = _with_gaps(codes_b, pos_b, jumps_b, keys_b, gap_code)
    n_codes = distinct + len(gap_code)
    identical = n_a > 0 and len(items_a) == len(items_b) and bool(np.array_equal(items_a, items_b))
    whole = n_a if identical else 0

    sel_a = np.arange(len(items_a), dtype=np.int64)
    sel_b = np.arange(len(items_b), dtype=np.int64)
    if not identical and (alignment == "shared-kgrams" or min_similarity is not None or min_containment is not None):
        mask_a, mask_b = _shared_mask_codes(items_a, items_b, min_run)
        shared_a = np.flatnonzero(mask_a).astype(np.int64)
        shared_b = np.flatnonzero(mask_b).astype(np.int64)
        if min_similarity is not None or min_containment is not None:
            real_a, real_b = items_a[shared_a], items_b[shared_b]
            bound = _multiset_overlap(real_a[real_a < distinct], real_b[real_b < distinct], n_codes)
            if _below_cutoffs(bound, n_a, n_b, min_similarity, min_containment) and (
                    min_containment is None or _below_cutoffs(
                        bound, n_a, n_b, min_similarity, min_containment,
                        revised_bound=revised_bound(items_a, items_b, unit_a, unit_b, n_codes))):
                return None
        if alignment == "shared-kgrams":
            sel_a, sel_b = shared_a, shared_b

    return _aligned_comparison(
        a, b, pos_a, pos_b, codes_a, codes_b, distinct, items_a, items_b, unit_a, unit_b, n_codes, sel_a, sel_b,
        whole=whole, min_run=min_run, with_raw_lcs=with_raw_lcs, blocks_are_lcs=alignment == "full" and not gap_code)


def _aligned_comparison(
    a: Units,
    b: Units,
    pos_a: np.ndarray,
    pos_b: np.ndarray,
    codes_a: np.ndarray,
    codes_b: np.ndarray,
    distinct: int,
    items_a: np.ndarray,
    items_b: np.ndarray,
    unit_a: np.ndarray,
    unit_b: np.ndarray,
    n_codes: int,
    sel_a: np.ndarray,
    sel_b: np.ndarray,
    *,
    whole: int,
    min_run: int,
    with_raw_lcs: bool,
    blocks_are_lcs: bool,
    lcs: int | None = None,
    counts_only: bool = False,
    lcs_at_most: int | None = None,
    marks: dict | None = None,
    unit_marks: tuple | None = None,
    revisable: bool | None = None,
    item_indexes: tuple | None = None,
) -> Comparison:
    """Align the selected items, keep the trustable runs, merge passages, count: where the plain
    path (:func:`compare_units`) and the prepared one (:func:`compare_prepared`) meet.

    ``codes_*``: codes of the countable units (``distinct`` > every one); ``items_*``: the same
    with the gap items (``n_codes`` > every one), ``unit_*`` their unit positions (−1 for a gap);
    ``sel_*``: the items aligned; ``whole``: the count when the two texts are identical.
    ``counts_only``: the figures without the spans and passages (left empty). ``marks``: further
    fields of the Comparison (the prepared path's template and exclusion spans and shares).
    ``unit_marks``: each side's :func:`~neardup_gui.core.passages.countable_marks`, when the caller
    keeps them (a prepared document's are the same for every comparison it takes part in).
    ``revisable``: False when the caller has found that no revised passage can exist in the two
    texts (:func:`revision_possible` of the whole texts): none is searched for. ``item_indexes``:
    each side's :func:`item_index`, when the caller keeps them.
    """
    marks = marks or {}
    n_a, n_b = len(codes_a), len(codes_b)
    countable = (pos_a, pos_b) if counts_only else None
    seq_a, seq_b = items_a[sel_a], items_b[sel_b]
    blocks = _align_sequences(*_codes_as_sequences(seq_a, seq_b, n_codes), lcs=lcs, lcs_at_most=lcs_at_most)
    # Aligned pairs in item coordinates; a run must be consecutive there in both texts.
    spans, common, n_real_aligned = _counted(a, b, blocks, sel_a, sel_b, unit_a, unit_b, min_run, whole, countable)
    if common < n_real_aligned:
        # Some aligned units fell outside the runs: an LCS is not unique, and which runs reach
        # min_run depends on the tie-breaks. Align once more with the opposite tie-breaks (the
        # reversed sequences) and keep the more coherent of the two LCSs (Huang, Wang and Li count
        # only the coherent part): a copied run cut by a tie-break is counted whole again.
        n_a_sel, n_b_sel = len(seq_a), len(seq_b)
        if lcs is None and len(seq_a) * len(seq_b) <= align.SPLIT_MIN_CELLS:
            lcs = sum(n for _, _, n in blocks)  # an LCS unless split at anchors (large sequences)
        back = _align_sequences(*_codes_as_sequences(seq_a[::-1].copy(), seq_b[::-1].copy(), n_codes),
                                lcs=lcs)  # (the reversed sequences have the same LCS length)
        back = [(n_a_sel - i - n, n_b_sel - j - n, n) for i, j, n in reversed(back)]
        spans_back, common_back, _ = _counted(a, b, back, sel_a, sel_b, unit_a, unit_b, min_run, whole, countable)
        if common_back > common:
            spans, common = spans_back, common_back

    if not with_raw_lcs:
        raw = 0
    elif blocks_are_lcs:
        raw = sum(n for _, _, n in blocks)  # the full alignment is an LCS already
    else:
        raw = _lcs_length_sequences(*_codes_as_sequences(codes_a, codes_b, distinct))
    (jumps_a, cjk_a), (jumps_b, cjk_b) = unit_marks or (countable_marks(a, pos_a), countable_marks(b, pos_b))
    if cjk_a is None or cjk_b is None:  # (both sides' flags, or neither's)
        cjk_a = cjk_b = None
    runs = spans if counts_only else _runs_of_spans(a, b, spans, pos_a, pos_b)
    # The in-order passages: the runs of the alignment merged across small edits.
    in_order = find_passages(runs, codes_a, codes_b, jumps_a, jumps_b, _align_codes, DEFAULT_RULES, cjk_a, cjk_b)
    in_order, moved, revised = (in_order, [], []) if whole else _tiling(
        in_order, items_a, items_b, unit_a, unit_b, pos_a, pos_b, codes_a, codes_b, n_codes, sel_a, sel_b, min_run,
        (jumps_a, cjk_a), (jumps_b, cjk_b), revisable is not False, item_indexes)
    # The identical units of the in-order passages the tiling left (a short seed may have given
    # way; their anchors and seeds: aligned runs, never a scattered common word): the similarity's
    # numerator, Huang, Wang and Li's ratio over the coherent part of the LCS, counted in the same
    # passages the containments count.
    identical = sum(_identical(p) for p in in_order)
    cover_a = sum(ea - sa for sa, ea, _, _, _ in itertools.chain(in_order, moved, revised))
    cover_b = sum(eb - sb for _, _, sb, eb, _ in itertools.chain(in_order, moved, revised))
    if counts_only:
        found, spans = (), []
    else:
        found = tuple(sorted([_passage(a, b, pos_a, pos_b, p, False) for p in in_order]
                             + [_passage(a, b, pos_a, pos_b, p, True) for p in moved]
                             + [_passage(a, b, pos_a, pos_b, p, True, revised=True) for p in revised],
                             key=lambda p: (p.a, p.b)))
        if moved:
            anchors = [MatchSpan(_chars(a, pos_a, i, i + n), _chars(b, pos_b, j, j + n), n)
                       for *_, seeds in moved for i, j, n in seeds if n >= min_run]
            spans = sorted([*spans, *anchors], key=lambda s: (s.a, s.b))
    return Comparison(
        **marks,
        similarity=_ratio(identical, n_a + n_b - identical),
        containment_a=_ratio(cover_a, n_a),
        containment_b=_ratio(cover_b, n_b),
        common_units=identical,
        units_a=n_a,
        units_b=n_b,
        spans=tuple(spans),
        raw_lcs=raw,
        passages=found,
        passage_units_a=cover_a,
        passage_units_b=cover_b,
    )


def _tiling(
    in_order: list[Found], items_a: np.ndarray, items_b: np.ndarray, unit_a: np.ndarray, unit_b: np.ndarray,
    pos_a: np.ndarray, pos_b: np.ndarray, codes_a: np.ndarray, codes_b: np.ndarray, n_codes: int,
    sel_a: np.ndarray, sel_b: np.ndarray, min_run: int, marks_a: tuple, marks_b: tuple, revisable: bool = True,
    item_indexes: tuple | None = None,
) -> tuple[list[Found], list[Found], list[Found]]:
    """The passages found out of order and the revised ones (:func:`_revised_passages`): the
    tiling of what the in-order passages left; and the in-order passages, split where another
    lies in their edited stretch.

    Copying counts wherever the copied text sits. Round after round, the identical units already
    in a passage are taken out of both texts (each stands for a barrier no run or passage
    crosses), the rest is aligned again, and its runs of ``min_run`` units are merged into
    passages by the same rules, until a round finds no run. Each round takes the longest
    order-consistent part of what is left (an LCS), so a shuffled copy comes back paragraph group
    by paragraph group, each with its edits. A passage joined across a gap may hold, in that gap,
    text copied from elsewhere: found by a later round, it splits the earlier passage there, so
    passages stay disjoint in both texts and each unit is counted once.

    Cheap when nothing moved: a new run needs ``min_run`` units of the first round's shared
    k-grams left over in both texts, which is checked before anything is aligned again.

    Then runs of ``min_run`` that short seeds of a passage keep from being found take their place
    (:func:`_anchor_over_short_seeds`), step by step while each step makes all passages cover
    more in one text and no less in the other. Revised passages and short copied sentences
    (:func:`_with_short_matches`) are found in what each tiling leaves.
    """
    n_a, n_b = len(codes_a), len(codes_b)
    used_a, used_b = np.zeros(n_a, dtype=bool), np.zeros(n_b, dtype=bool)  # identical units taken
    for *_, seeds in in_order:
        _take(used_a, used_b, seeds)
    # the item of each countable unit, and each item's countable unit (−1: a gap item), so that a
    # round reads the selection only, not the whole texts (a long submission against a chance
    # candidate: a few items)
    (real_a, index_a), (real_b, index_b) = item_indexes or (item_index(unit_a), item_index(unit_b))
    unit_of_a, unit_of_b = index_a[sel_a], index_b[sel_b]
    shared_a, shared_b = unit_of_a[unit_of_a >= 0], unit_of_b[unit_of_b >= 0]  # countable units of the shared k-grams
    kept, moved = list(in_order), []
    rounds = (items_a, items_b, unit_a, unit_b, pos_a, pos_b, codes_a, codes_b, n_codes, sel_a, sel_b, unit_of_a,
              unit_of_b, shared_a, shared_b, real_a, real_b)
    kept, moved = _tiling_rounds(kept, moved, *rounds, used_a, used_b, min_run, marks_a, marks_b)
    short = (items_a, items_b, unit_a, unit_b, pos_a, pos_b, codes_a, codes_b, n_codes, marks_a, marks_b, revisable)
    best = _with_short_matches(kept, moved, *short, used_a.copy(), used_b.copy())

    def step(kept: list[Found], moved: list[Found], used_a: np.ndarray, used_b: np.ndarray) -> tuple | None:
        """Runs of min_run that short seeds of a passage (joined across an edit: the weaker
        match) stand in the way of, taken: (kept, moved, used_a, used_b, found) or None."""
        trial_a, trial_b = used_a.copy(), used_b.copy()
        contest = _anchor_over_short_seeds(kept, moved, items_a, items_b, unit_a, unit_b, pos_a, pos_b, n_codes,
                                           sel_a, sel_b, real_a, real_b, trial_a, trial_b, min_run, index_a, index_b)
        if contest is None:
            return None
        kept_t, moved_t = _tiling_rounds(*contest, *rounds, trial_a, trial_b, min_run, marks_a, marks_b)
        return kept_t, moved_t, trial_a, trial_b, _with_short_matches(kept_t, moved_t, *short, trial_a.copy(),
                                                                       trial_b.copy())

    def gains(trial: tuple) -> bool:  # all passages cover more (none less)
        before, after = _covers(itertools.chain(*best)), _covers(itertools.chain(*trial))
        return after[0] >= before[0] and after[1] >= before[1] and after != before

    while (taken := step(kept, moved, used_a, used_b)) is not None:
        # a step that gains nothing may be followed by one that wins back what it cost and more
        # (a table repeating its phrases: the right row's run freed by the wrong row's)
        ahead = SHORT_SEED_LOOKAHEAD
        while taken is not None and not gains(taken[4]) and ahead > 0:
            taken, ahead = step(*taken[:4]), ahead - 1
        if taken is None or not gains(taken[4]):
            break
        kept, moved, used_a, used_b, best = taken
    return best


# How many further steps are tried after a step over short seeds that gains nothing (each a
# tiling of what is left: a table of 400 rows repeating their phrases, 0.11 s → 0.17 s at 1).
SHORT_SEED_LOOKAHEAD = 1


def item_index(unit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Of a text's items (``unit``: each item's unit position, −1 for a gap item): the item of each
    countable unit, and the countable unit of each item (−1 for a gap item)."""
    real = unit >= 0
    index = np.cumsum(real) - 1
    index[~real] = -1
    return np.flatnonzero(real), index


def _tiling_rounds(
    kept: list[Found], moved: list[Found], items_a: np.ndarray, items_b: np.ndarray, unit_a: np.ndarray,
    unit_b: np.ndarray, pos_a: np.ndarray, pos_b: np.ndarray, codes_a: np.ndarray, codes_b: np.ndarray, n_codes: int,
    sel_a: np.ndarray, sel_b: np.ndarray, unit_of_a: np.ndarray, unit_of_b: np.ndarray, shared_a: np.ndarray,
    shared_b: np.ndarray, real_a: np.ndarray, real_b: np.ndarray, used_a: np.ndarray, used_b: np.ndarray, min_run: int,
    marks_a: tuple, marks_b: tuple,
) -> tuple[list[Found], list[Found]]:
    """The rounds of :func:`_tiling` (``used_*`` updated in place)."""
    while np.count_nonzero(~used_a[shared_a]) >= min_run and np.count_nonzero(~used_b[shared_b]) >= min_run:
        # a k-gram shared now was shared in the first round (sel) and holds no unit taken since
        open_a = sel_a[(unit_of_a < 0) | ~used_a[np.maximum(unit_of_a, 0)]]
        open_b = sel_b[(unit_of_b < 0) | ~used_b[np.maximum(unit_of_b, 0)]]
        round_a, round_b = _shared_in_stretches(items_a, items_b, _stretches_of(open_a, min_run),
                                                _stretches_of(open_b, min_run), min_run, n_codes)
        if not len(round_a):
            break
        # (no item of a round is taken: its codes are the texts' own)
        blocks = _align_sequences(*_codes_as_sequences(items_a[round_a], items_b[round_b], n_codes + 2))
        runs, _, _ = _counted(None, None, blocks, round_a, round_b, unit_a, unit_b, min_run, 0, (pos_a, pos_b))
        if not runs:
            # The LCS spent the shared units on scattered matches (short repeated lines, a
            # table's cells): the longest shared run left is taken on its own, as tiling does.
            left_a, left_b = items_a.copy(), items_b.copy()
            left_a[real_a[used_a]] = n_codes  # a barrier of A's, found nowhere in B
            left_b[real_b[used_b]] = n_codes + 1
            mask_a = np.zeros(len(items_a), dtype=bool)
            mask_a[round_a] = True
            run = _longest_shared_run(left_a, left_b, mask_a, min_run)
            if run is None:
                break
            runs, _, _ = _counted(None, None, [(0, 0, run[2])], np.arange(run[0], run[0] + run[2], dtype=np.int64),
                                  np.arange(run[1], run[1] + run[2], dtype=np.int64), unit_a, unit_b, min_run, 0,
                                  (pos_a, pos_b))
            if not runs:
                break
        # no passage of this round reaches across an identical unit already taken
        jumps_a = marks_a[0] | used_a[:-1] | used_a[1:]
        jumps_b = marks_b[0] | used_b[:-1] | used_b[1:]
        found = find_passages(runs, codes_a, codes_b, jumps_a, jumps_b, _align_codes, DEFAULT_RULES, marks_a[1],
                              marks_b[1])
        for p in found:
            _take(used_a, used_b, p[4])
            kept = [piece for q in kept for piece in _split_around(q, p)]
            moved = [piece for q in moved for piece in _split_around(q, p)]
        moved.extend(found)
    return kept, moved


def _anchor_over_short_seeds(
    kept: list[Found], moved: list[Found], items_a: np.ndarray, items_b: np.ndarray, unit_a: np.ndarray,
    unit_b: np.ndarray, pos_a: np.ndarray, pos_b: np.ndarray, n_codes: int, sel_a: np.ndarray, sel_b: np.ndarray,
    real_a: np.ndarray, real_b: np.ndarray, used_a: np.ndarray, used_b: np.ndarray, min_run: int,
    index_a: np.ndarray | None = None, index_b: np.ndarray | None = None,
) -> tuple[list[Found], list[Found]] | None:
    """Exact runs of ``min_run`` that the short seeds of passages (shorter than ``min_run``,
    joined across edits) keep from being found: those of one alignment in order of what is open
    (free or held by a short seed), or else the longest one, taken; the short seeds in their way
    are left out of their passages (a passage split there, a piece without an anchor dropped).
    None when there is none: (kept, moved) otherwise, ``used_*`` updated in place. ``index_*``:
    each item's countable unit (:func:`item_index`), when the caller has it."""
    short = [(i, j, n) for *_, seeds in itertools.chain(kept, moved) for i, j, n in seeds if n < min_run]
    if not short:
        return None
    short_a, short_b = np.zeros(len(used_a), dtype=bool), np.zeros(len(used_b), dtype=bool)
    for i, j, n in short:
        short_a[i:i + n], short_b[j:j + n] = True, True
    # such a run lies in min_run open items in a row in each text, a short seed's unit among them
    # in one: asked in C of the selection before the masks are made, where it can be
    compiled = (_kernels is not None and index_a is not None and index_b is not None and sel_a.dtype == np.int64
                and sel_b.dtype == np.int64 and index_a.dtype == np.int64 and index_b.dtype == np.int64)
    if compiled:
        (long_a, with_short_a), (long_b, with_short_b) = (
            _kernels.open_runs(sel, index, used, short, min_run)
            for sel, index, used, short in ((sel_a, index_a, used_a, short_a), (sel_b, index_b, used_b, short_b)))
        if not ((with_short_a and long_b) or (with_short_b and long_a)):
            return None
    open_a, open_b = np.zeros(len(items_a), dtype=bool), np.zeros(len(items_b), dtype=bool)
    open_a[sel_a], open_b[sel_b] = True, True
    open_a[real_a[used_a & ~short_a]], open_b[real_b[used_b & ~short_b]] = False, False
    if not compiled:
        (long_a, with_short_a), (long_b, with_short_b) = (
            _open_runs(open_, real[short], min_run) for open_, real, short in ((open_a, real_a, short_a),
                                                                               (open_b, real_b, short_b)))
        if not ((with_short_a and long_b) or (with_short_b and long_a)):
            return None
    left_a, left_b = items_a.copy(), items_b.copy()
    left_a[~open_a], left_b[~open_b] = n_codes, n_codes + 1
    mask_a, mask_b = _shared_within(left_a, left_b, open_a, open_b, min_run, n_codes)
    if not mask_a.any():
        return None
    seeds_all = [s for *_, seeds in itertools.chain(kept, moved) for s in seeds]

    def anew(runs: list[Run]) -> list[Run]:
        """The runs through a short seed's unit that align anew (not along a passage's own seed)."""
        return [r for r in runs
                if (short_a[r[0]:r[0] + r[2]].any() or short_b[r[1]:r[1] + r[2]].any())
                and not any(sj - si == r[1] - r[0] and si < r[0] + r[2] and r[0] < si + sn
                            for si, sj, sn in seeds_all)]

    # the runs of one alignment in order of what is open, as a round of the tiling takes them …
    round_a, round_b = np.flatnonzero(mask_a).astype(np.int64), np.flatnonzero(mask_b).astype(np.int64)
    blocks = _align_sequences(*_codes_as_sequences(left_a[round_a], left_b[round_b], n_codes + 2))
    runs = anew(_counted(None, None, blocks, round_a, round_b, unit_a, unit_b, min_run, 0, (pos_a, pos_b))[0])
    while not runs and mask_a.any():  # … or else the longest shared run that aligns anew
        run = _longest_shared_run(left_a, left_b, mask_a, min_run)
        if run is None:
            return None
        i0, j0, n0 = run
        runs = anew(_counted(None, None, [(0, 0, n0)], np.arange(i0, i0 + n0, dtype=np.int64),
                             np.arange(j0, j0 + n0, dtype=np.int64), unit_a, unit_b, min_run, 0, (pos_a, pos_b))[0])
        runs = runs[:1]
        mask_a[i0:i0 + n0] = False
    if not runs:
        return None
    taken_a, taken_b = np.zeros(len(used_a), dtype=bool), np.zeros(len(used_b), dtype=bool)
    _take(taken_a, taken_b, runs)

    def without_crossed(p: Found) -> list[Found]:
        seeds = p[4]
        crossed = [taken_a[i:i + n].any() or taken_b[j:j + n].any() for i, j, n in seeds]
        if not any(crossed):
            return [p]
        pieces, part = [], []
        for s, c in zip(seeds, crossed):
            if c:
                pieces.append(part)
                part = []
            else:
                part.append(s)
        pieces.append(part)
        return [(q[0][0], q[-1][0] + q[-1][2], q[0][1], q[-1][1] + q[-1][2], tuple(q)) for q in pieces
                if q and max(x[2] for x in q) >= min_run]

    kept = [piece for q in kept for piece in without_crossed(q)]
    moved = [piece for q in moved for piece in without_crossed(q)]
    found = [(i, i + n, j, j + n, ((i, j, n),)) for i, j, n in runs]
    for p in found:
        kept = [piece for q in kept for piece in _split_around(q, p)]
        moved = [piece for q in moved for piece in _split_around(q, p)]
    used_a[:], used_b[:] = taken_a, taken_b
    for *_, seeds in itertools.chain(kept, moved):
        _take(used_a, used_b, seeds)
    return kept, moved + found


def _open_runs(open_: np.ndarray, short_items: np.ndarray, k: int) -> tuple[bool, bool]:
    """Whether ``open_`` holds ``k`` open items in a row, and such a stretch holding one of
    ``short_items`` (ascending)."""
    stretches = _free_stretches(~open_, None, k)
    if not stretches or not len(short_items):
        return bool(stretches), False
    bounds = np.array(stretches, dtype=np.int64)
    inside = np.searchsorted(short_items, bounds[:, 1]) - np.searchsorted(short_items, bounds[:, 0])
    return True, bool(inside.any())


def _with_short_matches(
    kept: list[Found], moved: list[Found], items_a: np.ndarray, items_b: np.ndarray, unit_a: np.ndarray,
    unit_b: np.ndarray, pos_a: np.ndarray, pos_b: np.ndarray, codes_a: np.ndarray, codes_b: np.ndarray, n_codes: int,
    marks_a: tuple, marks_b: tuple, revisable: bool, used_a: np.ndarray, used_b: np.ndarray,
) -> tuple[list[Found], list[Found], list[Found]]:
    """(in order, moved, revised) once the revised passages and the short copied sentences are
    found in what the tiling left (``used_*`` updated in place). ``revisable``: False when no
    revised passage can exist in the two whole texts (none is searched for)."""
    revised: list[Found] = []
    while revisable:
        found = _revised_passages(items_a, items_b, unit_a, unit_b, pos_a, pos_b, n_codes, used_a, used_b,
                                  marks_a, marks_b)
        if not found:
            break
        for p in found:
            used_a[p[0]:p[1]], used_b[p[2]:p[3]] = True, True  # holes too: nothing is found inside
            kept = [piece for q in kept for piece in _split_around(q, p)]
            moved = [piece for q in moved for piece in _split_around(q, p)]
        revised.extend(found)
    for p in _filled_gaps(codes_a, codes_b, used_a, used_b, marks_a, marks_b):
        _take(used_a, used_b, p[4])
        kept = [piece for q in kept for piece in _split_around(q, p)]
        moved = [piece for q in moved for piece in _split_around(q, p)]
        moved.append(p)
    return kept, moved, revised


def _covers(found: Iterable[Found]) -> tuple[int, int]:
    """The units passages cover in A and in B."""
    cover_a = cover_b = 0
    for sa, ea, sb, eb, _ in found:
        cover_a, cover_b = cover_a + ea - sa, cover_b + eb - sb
    return cover_a, cover_b


@dataclass(frozen=True)
class RevisionRules:
    """When short runs in the same order are a revised passage (see :func:`_revised_passages`)."""

    seed_units: int = 3  # a seed: an aligned run of at least this many units …
    seed_weight: float = 4.0  # … weighing this much: three words, four CJK characters (a word weighs 1.5)
    word_weight: float = 1.5
    max_hole: int = 30  # largest stretch between two seeds, in each text (a rewritten clause)
    min_seeds: int = 4
    min_weight: float = 18.0  # the seeds' weight in all: twelve words, eighteen characters
    min_density: float = 0.25  # seed units / passage units, in each text


REVISION = RevisionRules()


def revision_cover_bound(overlap: int, rules: RevisionRules = REVISION) -> int:
    """Upper bound of the units revised passages cover in either text, given an upper bound of
    their seed units (the multiset overlap of the units inside shared ``seed_units``-grams)."""
    return int(overlap / rules.min_density) if rules.min_density > 0 else 1 << 62


def _revised_passages(
    items_a: np.ndarray, items_b: np.ndarray, unit_a: np.ndarray, unit_b: np.ndarray, pos_a: np.ndarray,
    pos_b: np.ndarray, n_codes: int, used_a: np.ndarray, used_b: np.ndarray, marks_a: tuple, marks_b: tuple,
    rules: RevisionRules = REVISION,
) -> list[Found]:
    """Revised passages: what a heavy revision keeps of its source, found in what no passage
    holds. A revised paragraph keeps short runs (three to seven words, four to ten characters)
    in the same order around the rewritten words, and no run of ``min_run``: at least
    ``min_seeds`` such runs, weighing ``min_weight`` together, each at most ``max_hole`` units
    from the next in both texts, covering ``min_density`` of the passage, are a passage. Chance
    does not explain that: on unrelated sections of one book (both languages, the same subject
    next door) such chains appear only where the book repeats itself (docs/similarity.md).
    Returned in countable coordinates, seeds in order; counted in the containments, not in the
    similarity (Huang, Wang and Li's ratio over the in-order passages)."""
    k = rules.seed_units
    if _free_stretch_units(used_a, k) < rules.min_seeds * k or _free_stretch_units(used_b, k) < rules.min_seeds * k:
        return []
    real_a, real_b = np.flatnonzero(unit_a >= 0), np.flatnonzero(unit_b >= 0)
    unit_weight = seed_weights(marks_a[1], len(pos_a), rules)
    if not revision_possible(items_a[real_a], items_b[real_b], used_a, used_b, unit_weight, rules):
        return []
    left_a, left_b = items_a.copy(), items_b.copy()
    left_a[real_a[used_a]] = n_codes
    left_b[real_b[used_b]] = n_codes + 1
    open_a, open_b = np.ones(len(items_a), dtype=bool), np.ones(len(items_b), dtype=bool)
    open_a[real_a[used_a]], open_b[real_b[used_b]] = False, False
    mask_a, mask_b = _shared_within(left_a, left_b, open_a, open_b, k, n_codes)
    if mask_a.sum() < rules.min_seeds * k:
        return []
    sel_a, sel_b = np.flatnonzero(mask_a).astype(np.int64), np.flatnonzero(mask_b).astype(np.int64)
    blocks = _align_sequences(*_codes_as_sequences(left_a[sel_a], left_b[sel_b], n_codes + 2))
    runs, _, _ = _counted(None, None, blocks, sel_a, sel_b, unit_a, unit_b, k, 0, (pos_a, pos_b))
    weight = np.concatenate([[0.0], np.cumsum(unit_weight)])
    seeds = [r for r in sorted(runs) if weight[r[0] + r[2]] - weight[r[0]] >= rules.seed_weight - 1e-9]
    # removed text, or a unit some passage holds, ends a chain; so does a hole written in CJK on
    # one side and in words on the other (a translation keeps its commands and names in order)
    stop_a = np.concatenate([[0], np.cumsum(marks_a[0] | used_a[:-1] | used_a[1:])])
    stop_b = np.concatenate([[0], np.cumsum(marks_b[0] | used_b[:-1] | used_b[1:])])
    cjk_a, cjk_b = marks_a[1], marks_b[1]
    sum_a = None if cjk_a is None else np.concatenate([[0], np.cumsum(cjk_a)])
    sum_b = None if cjk_b is None else np.concatenate([[0], np.cumsum(cjk_b)])

    def translated(a0: int, a1: int, b0: int, b1: int) -> bool:
        if sum_a is None or sum_b is None or a1 - a0 < 3 or b1 - b0 < 3:
            return False
        share_a, share_b = (sum_a[a1] - sum_a[a0]) / (a1 - a0), (sum_b[b1] - sum_b[b0]) / (b1 - b0)
        return (share_a >= 0.75 and share_b <= 0.25) or (share_b >= 0.75 and share_a <= 0.25)

    out: list[Found] = []
    chain: list[Run] = []
    for seed in seeds + [None]:
        if chain and seed is not None:
            (i, j, n), (i2, j2, _) = chain[-1], seed
            if (i + n <= i2 <= i + n + rules.max_hole and j + n <= j2 <= j + n + rules.max_hole
                    and stop_a[i2] == stop_a[i + n - 1] and stop_b[j2] == stop_b[j + n - 1]
                    and not translated(i + n, i2, j + n, j2)):
                chain.append(seed)
                continue
        if len(chain) >= rules.min_seeds:
            sa, ea = chain[0][0], chain[-1][0] + chain[-1][2]
            sb, eb = chain[0][1], chain[-1][1] + chain[-1][2]
            units = sum(n for _, _, n in chain)
            heavy = sum(weight[i + n] - weight[i] for i, _, n in chain)
            written_alike = sum_a is None or sum_b is None or abs(
                (sum_a[ea] - sum_a[sa]) / (ea - sa) - (sum_b[eb] - sum_b[sb]) / (eb - sb)) <= 0.5
            if (heavy >= rules.min_weight - 1e-9 and units >= rules.min_density * (ea - sa)
                    and units >= rules.min_density * (eb - sb) and written_alike):
                out.append((sa, ea, sb, eb, tuple(chain)))
        chain = [seed] if seed is not None else []
    return out


def seed_weights(cjk: np.ndarray | None, n: int, rules: RevisionRules = REVISION) -> np.ndarray:
    """What each of ``n`` countable units weighs in a seed: a CJK character 1, a word
    ``word_weight``; every unit 1 when the texts do not say which are CJK (``cjk`` None)."""
    return np.ones(n) if cjk is None else np.where(cjk, 1.0, rules.word_weight)


# Above this many pairs of equal seed windows the bound is not computed (16 bytes each): the
# revised passages are searched as if it had said nothing.
CHAIN_BOUND_MAX_POINTS = 1_000_000


def revision_possible(codes_a: np.ndarray, codes_b: np.ndarray, used_a: np.ndarray | None,
                      used_b: np.ndarray | None, weight_a: np.ndarray, rules: RevisionRules = REVISION) -> bool:
    """False only when no chain of seeds can make a revised passage: the longest and the heaviest
    path through the pairs of equal ``seed_units``-windows of the units no passage holds (the
    countable units' codes, A's units' weights), stepping along a diagonal or on to a window 3
    to ``max_hole`` + 3 units further in both texts, hold fewer than ``min_seeds`` seeds or weigh
    less than ``min_weight`` (core/_kernels.c, ``chain_bound``). Every chain
    :func:`_revised_passages` can build is such a path, whichever LCS it aligns, so the answer
    is the same with or without this test; the test costs a pass over the pairs of equal windows
    where the search aligns the texts' shared windows (two texts of one vocabulary, by chance:
    about 0.3 ms against 5 ms for a 22,000- and a 7,000-character text). True (search) without
    the compiled kernels or above CHAIN_BOUND_MAX_POINTS pairs. ``used_*``: the units in a
    passage (None: none)."""
    if _kernels is None:
        return True
    ca, cb = np.asarray(codes_a, dtype=np.int64), np.asarray(codes_b, dtype=np.int64)
    if used_a is not None:
        ca = ca.copy()
        ca[used_a] = -1
    if used_b is not None:
        cb = cb.copy()
        cb[used_b] = -2
    bound = _kernels.chain_bound(ca, cb, np.ascontiguousarray(weight_a, dtype=np.float64), rules.seed_units,
                                 rules.seed_weight, rules.max_hole, rules.min_seeds, CHAIN_BOUND_MAX_POINTS)
    if bound is None:
        return True
    seeds, weight = bound
    return seeds >= rules.min_seeds and weight >= rules.min_weight - 1e-9


def _free_stretches(used: np.ndarray, jumps: np.ndarray | None, k: int = 1) -> list[tuple[int, int]]:
    """(start, end) of the maximal stretches of units no passage holds, cut where removed text
    lies (``jumps``, as :func:`~neardup_gui.core.passages.countable_marks` gives them; None: no
    cut), of at least ``k`` units, ascending: one call in C (core/_kernels.c) where it is built."""
    if _kernels is not None and used.dtype == np.bool_ and used.flags.c_contiguous and (
            jumps is None or (jumps.dtype == np.bool_ and jumps.flags.c_contiguous)):
        return _kernels.free_stretches(used, jumps, k)
    free = ~np.asarray(used, dtype=bool)
    if not len(free):
        return []
    cut = np.zeros(len(free) - 1, dtype=bool) if jumps is None else jumps
    before = np.concatenate([[True], ~free[:-1] | cut])  # a bound before each unit
    after = np.concatenate([~free[1:] | cut, [True]])  # and after it
    return [(s, e) for s, e in zip(np.flatnonzero(free & before).tolist(), (np.flatnonzero(free & after) + 1).tolist())
            if e - s >= k]


def _filled_gaps(codes_a: np.ndarray, codes_b: np.ndarray, used_a: np.ndarray, used_b: np.ndarray,
                 marks_a: tuple, marks_b: tuple, rules: RevisionRules = REVISION) -> list[Found]:
    """Copied sentences shorter than a run: a stretch no passage holds, bounded in each text by
    copied text (or the text's edge, or removed text), that is word for word a whole such stretch
    of the other text, weighing at least a revised passage's seed (three words, four CJK
    characters). A shuffle of a paragraph's sentences leaves its short sentences so, each between
    two copied ones on both sides. Chance does not explain that: the two stretches are equal from
    one copied unit to the next, and unrelated texts hold few passages, their gaps long and unlike
    (docs/similarity.md). Each stretch of B fills one of A at most; returned as one exact seed
    each, in countable coordinates."""
    k = rules.seed_units
    if not used_a.any() or not used_b.any():
        return []  # one stretch each: whole texts, equal only if identical (and then a passage)
    stretches_a = _free_stretches(used_a, marks_a[0], k)
    if not stretches_a:
        return []
    stretches_b = _free_stretches(used_b, marks_b[0], k)
    lengths_b = {e - s for s, e in stretches_b}
    cjk = marks_a[1]
    # a unit weighs at least 1: a stretch as long as a seed weighs (seed_units units) may weigh less
    light = math.ceil(rules.seed_weight - 1e-9)
    keep_a = [(s, e) for s, e in stretches_a if e - s in lengths_b and (
        e - s >= light or float(seed_weights(None if cjk is None else cjk[s:e], e - s, rules).sum())
        >= rules.seed_weight - 1e-9)]
    if not keep_a:
        return []
    lengths_a = {e - s for s, e in keep_a}
    places: dict[bytes, list[int]] = {}
    for s, e in stretches_b:
        if e - s in lengths_a:
            places.setdefault(codes_b[s:e].tobytes(), []).append(s)
    out: list[Found] = []
    for s, e in keep_a:
        free = places.get(codes_a[s:e].tobytes())
        if free:
            j = free.pop(0)
            out.append((s, e, j, j + e - s, ((s, j, e - s),)))
    return out


def _free_stretch_units(used: np.ndarray, k: int) -> int:
    """Units outside every passage, in stretches of at least ``k`` of them."""
    return sum(e - s for s, e in _free_stretches(used, None, k))


def _shared_within(items_a: np.ndarray, items_b: np.ndarray, open_a: np.ndarray, open_b: np.ndarray, k: int,
                   n_codes: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_shared_mask_codes` of two item sequences where only the ``open`` items can lie in
    a shared k-gram: the stretches of at least ``k`` open items are put end to end, a barrier
    between two (codes ``n_codes`` and ``n_codes + 1``, one per side: they match nothing), so the
    k-grams of a few stretches left over are hashed, not those of the whole texts."""
    got_a, got_b = _shared_in_stretches(items_a, items_b, _open_stretches(open_a, k), _open_stretches(open_b, k), k,
                                        n_codes)
    mask_a, mask_b = np.zeros(len(open_a), dtype=bool), np.zeros(len(open_b), dtype=bool)
    mask_a[got_a], mask_b[got_b] = True, True
    return mask_a, mask_b


def _shared_in_stretches(items_a: np.ndarray, items_b: np.ndarray, pieces_a: tuple, pieces_b: tuple, k: int,
                         n_codes: int) -> tuple[np.ndarray, np.ndarray]:
    """The items (ascending, int64) of A's and of B's stretches (:func:`_open_stretches`) inside a
    k-gram the other side's stretches hold too (see :func:`_shared_within`)."""
    if not len(pieces_a[0]) or not len(pieces_b[0]):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.copy()
    packed = []
    for (where, sep), items, barrier in zip((pieces_a, pieces_b), (items_a, items_b), (n_codes, n_codes + 1)):
        packed.append(np.where(sep, barrier, items[np.maximum(where, 0)]).astype(items.dtype))
    got_a, got_b = _shared_mask_compiled(packed[0], packed[1], k)
    return _items_of(got_a, pieces_a), _items_of(got_b, pieces_b)


def _items_of(got: np.ndarray, pieces: tuple) -> np.ndarray:
    """The items of a packed sequence's positions ``got`` (separators left out), ascending."""
    where, sep = pieces
    return where[got & ~sep].astype(np.int64)


def _shared_mask_compiled(ca: np.ndarray, cb: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_shared_mask_codes` by the window search in C (core/_kernels.c, as the prepared
    documents use it) where it is built and the codes fit; the numpy code otherwise and on any
    hash collision."""
    if (_kernels is not None and ca.dtype == np.uint32 and cb.dtype == np.uint32 and len(ca) >= k and len(cb) >= k
            and ca.flags.c_contiguous and cb.flags.c_contiguous):
        mult = int(align._HASH_MULTIPLIER)
        ha, fa, ia, col_a = _kernels.windows(ca, k, mult)
        hb, fb, ib, col_b = _kernels.windows(cb, k, mult)
        if not (col_a or col_b):
            got = _kernels.shared_cover(np.frombuffer(ha, dtype=np.uint64), np.frombuffer(ia, dtype=np.int32),
                                        np.frombuffer(fa, dtype=np.int32), ca, np.frombuffer(hb, dtype=np.uint64),
                                        np.frombuffer(ib, dtype=np.int32), np.frombuffer(fb, dtype=np.int32), cb, k, -1)
            if got is None:
                return np.zeros(len(ca), dtype=bool), np.zeros(len(cb), dtype=bool)
            if got is not False:
                return np.frombuffer(got[0], dtype=bool).copy(), np.frombuffer(got[1], dtype=bool).copy()
    return _shared_mask_codes(ca, cb, k)


def _stretches_of(items: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_open_stretches` of the mask that is True at ``items`` (ascending item indices),
    computed from them alone."""
    if not len(items):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
    breaks = np.flatnonzero(np.diff(items) != 1) + 1
    starts = np.concatenate([[0], breaks])
    ends = np.concatenate([breaks, [len(items)]])
    long = ends - starts >= k
    starts, ends = starts[long], ends[long]
    if not len(starts):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
    lengths = ends - starts + 1  # each stretch and its separator
    total = int(lengths.sum())
    offsets = np.repeat(np.cumsum(lengths) - lengths, lengths)
    within = np.arange(total) - offsets
    sep = within == np.repeat(lengths - 1, lengths)
    where = np.full(total, -1, dtype=np.int64)
    where[~sep] = items[np.repeat(starts, lengths)[~sep] + within[~sep]]
    return where, sep


def _open_stretches(open_: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The items of every stretch of at least ``k`` open items, end to end, one separator after
    each: (item index, -1 for a separator; True for a separator)."""
    edges = np.diff(np.concatenate([[0], open_.astype(np.int8), [0]]))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    long = ends - starts >= k
    starts, ends = starts[long], ends[long]
    if not len(starts):
        empty = np.zeros(0, dtype=np.int64)
        return empty, np.zeros(0, dtype=bool)
    lengths = ends - starts + 1  # each stretch and its separator
    total = int(lengths.sum())
    offsets = np.repeat(np.cumsum(lengths) - lengths, lengths)
    within = np.arange(total) - offsets
    where = np.repeat(starts, lengths) + within
    sep = within == np.repeat(lengths - 1, lengths)
    where[sep] = -1
    return where.astype(np.int64), sep


def _take(used_a: np.ndarray, used_b: np.ndarray, seeds: Sequence[Run]) -> None:
    for i, j, n in seeds:
        used_a[i:i + n] = True
        used_b[j:j + n] = True


def _split_around(p: Found, other: Found) -> list[Found]:
    """``p`` in pieces that leave out the stretch between two of its seeds where ``other`` lies
    (in either text); ``p`` itself when ``other`` lies outside it."""
    seeds = p[4]
    cuts = set()
    for side, (start, end) in ((0, (other[0], other[1])), (1, (other[2], other[3]))):
        if not (p[2 * side] < end and start < p[2 * side + 1]):
            continue
        for k in range(len(seeds) - 1):  # the stretch between seeds k and k + 1 holds ``other``
            if seeds[k][side] + seeds[k][2] <= start and end <= seeds[k + 1][side]:
                cuts.add(k + 1)
                break
    if not cuts:
        return [p]
    pieces, at = [], 0
    for cut in sorted(cuts) + [len(seeds)]:
        part = seeds[at:cut]
        pieces.append((part[0][0], part[-1][0] + part[-1][2], part[0][1], part[-1][1] + part[-1][2], tuple(part)))
        at = cut
    return pieces


def _identical(found: Found) -> int:
    """The identical units of a passage: those of its anchors and seeds."""
    return sum(n for _, _, n in found[4])


# How many places of B a window of A is extended from when the longest shared run is looked for
# (a window repeated more often than this is a table's filler, found again at its first places).
RUN_PLACES = 16


def _longest_shared_run(items_a: np.ndarray, items_b: np.ndarray, mask_a: np.ndarray,
                        k: int) -> tuple[int, int, int] | None:
    """The longest run ``(i, j, n)`` of equal items (``n`` ≥ ``k`` real units or gaps) starting at
    a shared ``k``-window of A (``mask_a``: the items inside one), extended from up to
    RUN_PLACES places of B per window; None when there is none."""
    if len(items_a) < k or len(items_b) < k:
        return None
    wa = np.lib.stride_tricks.sliding_window_view(items_a, k)
    wb = np.lib.stride_tricks.sliding_window_view(items_b, k)
    starts = np.flatnonzero(mask_a[: len(wa)])
    # (A's windows labelled where a run may start only: a long text's others are never looked up)
    labels = _window_labels(np.concatenate([wa[starts], wb]))
    la, lb = labels[: len(starts)], labels[len(starts):]
    order = np.argsort(lb, kind="stable")
    sorted_lb = lb[order]
    best: tuple[int, int, int] | None = None
    for t, i in enumerate(starts.tolist()):
        if i > 0 and mask_a[i - 1] and best is not None and best[0] <= i - 1 < best[0] + best[2]:
            continue  # inside the best run found so far: no longer run starts here
        lo = int(np.searchsorted(sorted_lb, la[t], side="left"))
        hi = min(int(np.searchsorted(sorted_lb, la[t], side="right")), lo + RUN_PLACES)
        for j in order[lo:hi].tolist():
            n = k
            while i + n < len(items_a) and j + n < len(items_b) and items_a[i + n] == items_b[j + n]:
                n += 1
            if best is None or n > best[2]:
                best = (i, j, n)
    return best


def _passage(a: Units, b: Units, pos_a: np.ndarray, pos_b: np.ndarray, found: Found, moved: bool, *,
             revised: bool = False) -> Passage:
    """A found passage (countable coordinates) as the character spans a view shows."""
    start_a, end_a, start_b, end_b, seeds = found
    return Passage(
        a=_chars(a, pos_a, start_a, end_a), b=_chars(b, pos_b, start_b, end_b),
        units_a=end_a - start_a, units_b=end_b - start_b, matched_units=_identical(found),
        runs=tuple(MatchSpan(a=_chars(a, pos_a, i, i + n), b=_chars(b, pos_b, j, j + n), units=n)
                   for i, j, n in seeds),
        moved=moved,
        revised=revised,
    )


def _runs_of_spans(a: Units, b: Units, spans: Sequence[MatchSpan], pos_a: np.ndarray, pos_b: np.ndarray) -> list[Run]:
    """The exact runs behind match spans, in countable coordinates (a span starts on a unit)."""
    if not spans:
        return []
    first_a = np.searchsorted(pos_a, np.searchsorted(a.starts, [s.a[0] for s in spans]))
    first_b = np.searchsorted(pos_b, np.searchsorted(b.starts, [s.b[0] for s in spans]))
    return [(int(i), int(j), s.units) for i, j, s in zip(first_a, first_b, spans)]


def _chars(u: Units, pos: np.ndarray, start: int, end: int) -> tuple[int, int]:
    return int(u.starts[pos[start]]), int(u.ends[pos[end - 1]])


def _below_cutoffs(
    anchor_bound: int, n_a: int, n_b: int, min_similarity: float | None, min_containment: float | None,
    identical_bound: int | None = None, revised_bound: int = 0,
) -> bool:
    """True when the figures cannot reach any given cut-off, given an upper bound of the anchor
    units (exact runs of ``min_run``) and, optionally, of the identical units.

    Passages cover at most :func:`coverage_bound` of the anchors in each text, and the identical
    units the similarity counts lie inside passages: both figures are bounded by that coverage.
    ``revised_bound``: what revised passages (which hold no anchor) can cover besides; they count
    in the containments only."""
    below = True
    cover = coverage_bound(anchor_bound)
    if min_similarity is not None:
        c = min(cover, n_a, n_b) if identical_bound is None else min(cover, n_a, n_b, identical_bound)
        below = below and _ratio(c, n_a + n_b - c) < min_similarity
    if min_containment is not None:
        cover += revised_bound
        below = below and max(_ratio(min(cover, n_a), n_a), _ratio(min(cover, n_b), n_b)) < min_containment
    return below


def revised_bound(items_a: np.ndarray, items_b: np.ndarray, unit_a: np.ndarray, unit_b: np.ndarray,
                  n_codes: int, masks: tuple[np.ndarray, np.ndarray] | None = None, revisable: bool = True) -> int:
    """What revised passages and short copied sentences can cover at most, in either text: their
    seeds lie in shared ``seed_units``-grams (:func:`revision_cover_bound` of the multiset overlap
    of those units).
    ``masks``: the items of each text inside those k-grams, when computed already. ``revisable``:
    False when no revised passage can exist (:func:`revision_possible`): then the short copied
    sentences alone, whole stretches equal word for word, cover at most that overlap."""
    mask_a, mask_b = masks if masks is not None else _shared_mask_codes(items_a, items_b, REVISION.seed_units)
    real_a = items_a[mask_a & (unit_a >= 0)]
    real_b = items_b[mask_b & (unit_b >= 0)]
    if not len(real_a) or not len(real_b):
        return 0
    overlap = _multiset_overlap(real_a, real_b, max(int(real_a.max()), int(real_b.max())) + 1)
    return revision_cover_bound(overlap) if revisable else overlap


# ----------------------------------------------------------------------------------------------
# Documents: character spans → countable masks
# ----------------------------------------------------------------------------------------------


def units_in_spans(units: Units, spans: Iterable[CharSpan]) -> np.ndarray:
    """Boolean mask of the units that overlap any of the character ``spans``."""
    mask = np.zeros(len(units), dtype=bool)
    for start, end in spans:
        if end <= start:
            continue
        # a unit [s, e) overlaps [start, end) iff s < end and e > start
        lo = int(np.searchsorted(units.ends, start, side="right"))
        hi = int(np.searchsorted(units.starts, end, side="left"))
        if hi > lo:
            mask[lo:hi] = True
    return mask


def merge_spans(spans: Iterable[CharSpan]) -> tuple[CharSpan, ...]:
    """Sorted, non-overlapping spans covering the same characters (touching spans joined)."""
    merged: list[list[int]] = []
    for start, end in sorted(s for s in spans if s[1] > s[0]):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return tuple((s, e) for s, e in merged)


def compare_documents(
    text_a: str,
    text_b: str,
    *,
    min_run: int,
    template_a: Iterable[CharSpan] = (),
    template_b: Iterable[CharSpan] = (),
    excluded_a: Iterable[CharSpan] = (),
    excluded_b: Iterable[CharSpan] = (),
    min_similarity: float | None = None,
    min_containment: float | None = None,
    with_raw_lcs: bool = True,
    alignment: str = "shared-kgrams",
    units_a: Units | None = None,
    units_b: Units | None = None,
) -> Comparison | None:
    """Compare two extracted texts; units overlapping template or excluded spans do not count.

    Fills the template/excluded spans and their shares (of all units of each text) in the result.
    ``units_a``/``units_b`` may pass already tokenised units of the same texts. Cut-offs and
    ``alignment`` as in :func:`compare_units`; ``raw_lcs`` is computed by default here (this is
    the explaining path: the diff view, ``neardup compare``).
    """
    ua = units_a if units_a is not None else tokenize(text_a)
    ub = units_b if units_b is not None else tokenize(text_b)
    tpl_a, tpl_b = merge_spans(template_a), merge_spans(template_b)
    exc_a, exc_b = merge_spans(excluded_a), merge_spans(excluded_b)
    t_mask_a, t_mask_b = units_in_spans(ua, tpl_a), units_in_spans(ub, tpl_b)
    e_mask_a = units_in_spans(ua, exc_a) & ~t_mask_a
    e_mask_b = units_in_spans(ub, exc_b) & ~t_mask_b
    result = compare_units(
        ua,
        ub,
        min_run=min_run,
        a_countable=~(t_mask_a | e_mask_a),
        b_countable=~(t_mask_b | e_mask_b),
        min_similarity=min_similarity,
        min_containment=min_containment,
        with_raw_lcs=with_raw_lcs,
        alignment=alignment,
    )
    if result is None:
        return None
    return replace(
        result,
        template_a=tpl_a,
        template_b=tpl_b,
        excluded_a=exc_a,
        excluded_b=exc_b,
        template_share_a=_ratio(int(t_mask_a.sum()), len(ua)),
        template_share_b=_ratio(int(t_mask_b.sum()), len(ub)),
        excluded_share_a=_ratio(int(e_mask_a.sum()), len(ua)),
        excluded_share_b=_ratio(int(e_mask_b.sum()), len(ub)),
    )
