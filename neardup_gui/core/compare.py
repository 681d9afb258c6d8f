"""Exact comparison of two documents: LCS alignment, trustable match runs, similarity, containment.

The similarity is seed 004's r(A, B) = |LCS| / (|A| + |B| − |LCS|) over unit sequences, with two
refinements that keep chance out of the count:

* template and excluded units are removed from both sequences *before* aligning, so the form a
  fund prescribes can neither be counted nor pull the alignment towards itself; a stretch of
  removed text that both texts hold at the aligned position does not cut the run around it
  (an exclusion takes the same text out of both sides; identical texts stay identical);
* only *trustable* LCS units count: those in maximal aligned runs of at least ``min_run`` units
  (consecutive in both texts). Seed 004 keeps the coherent central part of the LCS for the same
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
O((N+M)·D) diff (seed 004's choice) is tried first within a budget on D; beyond it rapidfuzz's
bit-parallel LCS, O(N·M/64), takes over, with units coded by frequency so that its fast table
look-up serves most of them. ``docs/similarity.md`` gives the measured figures.
"""

from __future__ import annotations

import bisect
import codecs
import functools
import logging
import math
from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence

import numpy as np

from neardup_gui.core.document import CharSpan
from neardup_gui.core.passages import countable_marks, coverage_bound, passage_cover, passages_of
from neardup_gui.core.results import Comparison, Exclusions, MatchSpan
from neardup_gui.core.units import Units, tokenize

try:  # the compiled fast path; the readable Myers diff below is the fallback and the cross-check
    from rapidfuzz.distance import Indel as _Indel
    from rapidfuzz.distance import LCSseq as _LCSseq
except ImportError:  # pragma: no cover - rapidfuzz is a declared dependency
    _Indel = None
    _LCSseq = None

try:  # Myers' O((N+M)·D) diff compiled (google-diff-match-patch's C++ port): close texts
    from fast_diff_match_patch import diff as _dmp_diff
except ImportError:  # pragma: no cover - a declared dependency; the bit-parallel path serves
    _dmp_diff = None
try:  # the same diff, our own C (core/_myers.c): no clock read at every step, stops beyond a budget
    from neardup_gui.core import _myers
except ImportError:  # built when a C compiler is at hand (setup.py); diff-match-patch serves otherwise
    _myers = None
try:  # two steps of a comparison in C (core/_kernels.c): the same answers as the numpy code here
    from neardup_gui.core import _kernels
except ImportError:  # (not built: the numpy code serves)
    _kernels = None

log = logging.getLogger(__name__)

Block = tuple[int, int, int]  # (i in A, j in B, length): A[i:i+length] == B[j:j+length]

# Code points usable to spell a dense unit code as one character of a str (surrogates skipped,
# because a str is built through UTF-32 decoding, which refuses them).
_SURROGATES = 0xD800
_SURROGATE_GAP = 0x800
_MAX_STR_CODES = 0x110000 - _SURROGATE_GAP


# ----------------------------------------------------------------------------------------------
# Alignment
# ----------------------------------------------------------------------------------------------


def _dense_codes(a_ids: np.ndarray, b_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Map the ids of both sequences to small dense codes (equal ids ↔ equal codes).

    rapidfuzz hashes non-string elements with Python's ``hash``, which folds integers modulo
    2**61 − 1: two different 64-bit unit ids can collide there. Dense codes never collide.
    """
    both = np.concatenate([np.asarray(a_ids, dtype=np.uint64), np.asarray(b_ids, dtype=np.uint64)])
    uniq, inverse = np.unique(both, return_inverse=True)
    # Most frequent units get the smallest codes: rapidfuzz looks characters below 256 up in a
    # table and the rest in a hash map, so this roughly halves its time on Chinese text. The
    # alignment depends only on which units are equal, never on the codes themselves.
    counts = np.bincount(inverse, minlength=len(uniq))
    rank = np.empty(len(uniq), dtype=np.uint32)
    rank[np.argsort(-counts, kind="stable")] = np.arange(len(uniq), dtype=np.uint32)
    codes = rank[inverse]
    return codes[: len(a_ids)], codes[len(a_ids) :], len(uniq)


def _as_sequences(a_ids: np.ndarray, b_ids: np.ndarray) -> tuple[Sequence, Sequence]:
    """Both sequences in the form rapidfuzz compares fastest: a str of one character per unit."""
    ca, cb, distinct = _dense_codes(a_ids, b_ids)
    return _codes_as_sequences(ca, cb, distinct)


def _codes_as_sequences(ca: np.ndarray, cb: np.ndarray, distinct: int) -> tuple[Sequence, Sequence]:
    if distinct <= _SURROGATES:  # every code is a character as it stands (the usual case)
        return _as_str(ca), _as_str(cb)
    if distinct <= _MAX_STR_CODES:
        return _codes_to_str(ca), _codes_to_str(cb)
    return ca.tolist(), cb.tolist()  # small ints hash to themselves: still collision-free


_U4 = np.dtype("<u4")


def _as_str(codes: np.ndarray) -> str:
    """A str of one character per code (every code below the surrogates). The pass's items are
    little-endian uint32 already: decoded in place (22,000 sequences a pass over 2,372 copyright
    files: the copy and the bytes object made for each cost as much as the decoding)."""
    if codes.dtype == _U4 and codes.flags.c_contiguous:
        return codecs.utf_32_le_decode(codes)[0]
    return codes.astype(_U4).tobytes().decode("utf-32-le")


def _codes_to_str(codes: np.ndarray) -> str:
    shifted = codes + np.where(codes >= _SURROGATES, _SURROGATE_GAP, 0).astype(np.uint32)
    return shifted.astype("<u4").tobytes().decode("utf-32-le")


def myers_budget(n: int, m: int) -> int:
    """Largest edit distance D for which Myers' diff is tried before the bit-parallel LCS.

    Measured here: Myers in Python costs about 1.6 µs·D² (plus C-speed snakes); rapidfuzz about
    10 ns per 64-cell word, i.e. N·M/6400 µs. Myers wins while D < √(N·M)/100, so a failed
    attempt costs at most about as much as the fallback. After the shared-k-gram filter a
    resubmission of 35,000 units has D ≈ 100: Myers then takes 20 ms where rapidfuzz takes 500.
    """
    return max(4, int((n * m) ** 0.5) // 100)


def align(a_ids: np.ndarray, b_ids: np.ndarray) -> list[Block]:
    """Matching blocks ``(i, j, length)`` of one LCS of two unit-id sequences, in order.

    The blocks are disjoint, increasing in both sequences, and their lengths sum to the LCS
    length. Close sequences (a resubmission, after the shared-k-gram filter) are aligned by
    Myers' diff, as in seed 004; when their edit distance exceeds :func:`myers_budget`,
    rapidfuzz's bit-parallel LCS alignment takes over. Deterministic: the same inputs always
    give the same blocks.
    """
    if len(a_ids) == 0 or len(b_ids) == 0:
        return []
    return _align_sequences(*_as_sequences(a_ids, b_ids))


# Bounded memory. rapidfuzz's alignment keeps one bit per cell of the N×M matrix: two 320,000-unit
# copies of one highly repetitive text (a 2 MB licence collection, where nearly every unit is in a
# shared k-gram) needed 12.6 GB and 70 s. Above this many cells (256 MB of bits) the alignment is
# split at unique anchors first (patience diff); Myers' diff is tried before that only within the
# edit distance it covers in about a second, so a long resubmission stays exact.
SPLIT_MIN_CELLS = 2_000_000_000
SPLIT_MYERS_MAX_D = 800
# Anchors: runs of this many units that occur exactly once in each sequence.
ANCHOR_UNITS = 12


def _align_sequences(sa: Sequence, sb: Sequence, lcs: int | None = None, lcs_at_most: int | None = None) -> list[Block]:
    """``lcs``: the LCS length when known (the bound computed before the alignment): then the
    edit distance is known too, and Myers' diff is tried only when it is within its budget (it
    then succeeds), never in vain (measured on 2,375 copy-heavy copyright files: 40,782 of 135,365
    attempts failed and cost as much as the bit-parallel alignment they fell back to).
    ``lcs_at_most``: an upper bound of it otherwise (the bag of units), so a lower bound of the
    edit distance, where the search for it starts."""
    if len(sa) == 0 or len(sb) == 0:
        return []
    if (_myers is not None or _dmp_diff is not None) and isinstance(sa, str) and isinstance(sb, str) \
            and len(sa) * len(sb) >= DMP_MIN_CELLS:
        blocks = _compiled_myers_blocks(sa, sb, lcs, lcs_at_most)
        if blocks is not None:
            return blocks
    large = len(sa) * len(sb) > SPLIT_MIN_CELLS
    budget = myers_budget(len(sa), len(sb))
    if large:
        budget = min(budget, SPLIT_MYERS_MAX_D)
    if lcs is None or len(sa) + len(sb) - 2 * lcs <= budget:
        blocks = myers_blocks(sa, sb, max_d=budget)
        if blocks is not None:
            return blocks
    if large:
        return _anchored_blocks(sa, sb)
    if _Indel is None:  # pragma: no cover - rapidfuzz is a declared dependency
        return myers_blocks(sa, sb) or []
    return _rapidfuzz_blocks(sa, sb)


# The compiled Myers diff costs about 3–8 µs per unit of edit distance D (measured here: 10,000
# units, D = 600: 2.6 ms; D = 4,000: 32 ms; two unrelated texts: 440 ms) and little else; the
# bit-parallel alignment about 1.5e-7 ms per cell whatever D (1,000²: 0.15 ms; 10,000²: 16 ms).
# So Myers serves while D ≤ N·M / DMP_CELLS_PER_D, with at least DMP_MIN_D (tiny pieces) and at
# most DMP_MAX_D (its time stays under about a second on any size).
DMP_CELLS_PER_D = 40_000
# Below this many cells the readable Myers diff or the bit-parallel alignment takes microseconds,
# and the compiled diff gains nothing (the local alignments inside passages, median 36 cells:
# 20,000 of them from the pass over 2,375 copy-heavy files took 0.11 s either way, timed alone).
DMP_MIN_CELLS = 100_000
DMP_MIN_D = 16
DMP_MAX_D = 100_000
# The edit distance is unknown before aligning: the LCS length is found by rapidfuzz's banded
# bit-parallel LCS (cost ∝ N × band / 64), the band widened fourfold from this many units until it
# holds the edit distance or passes the budget (then the bit-parallel alignment takes over).
DMP_FIRST_BAND = 64


def dmp_budget(n: int, m: int) -> int:
    """Largest edit distance for which the compiled Myers diff is used (see DMP_CELLS_PER_D)."""
    return min(DMP_MAX_D, max(DMP_MIN_D, (n * m) // DMP_CELLS_PER_D))


def _banded_lcs(sa: str, sb: str, budget: int, floor: int = 0) -> int | None:
    """The LCS length when the edit distance is at most ``budget``, else None (rapidfuzz's LCS
    with a score cut-off only computes the band of the matrix that can reach it). ``floor``: a
    lower bound of the edit distance, the first band tried when larger than DMP_FIRST_BAND
    (measured on the 2,375 copy-heavy copyright files: 4,533 → 4,365 banded searches, 1.68 → 1.52 s)."""
    total = len(sa) + len(sb)
    band = min(max(DMP_FIRST_BAND, floor), budget)
    while True:
        cutoff = max(0, -(-(total - band) // 2))
        found = _lcs_length_sequences(sa, sb, at_least=cutoff)  # 0 when shorter than cutoff
        if found or cutoff == 0:
            return found
        if band >= budget:
            return None
        band = min(4 * band, budget)


def _compiled_myers_blocks(sa: str, sb: str, lcs: int | None, lcs_at_most: int | None = None) -> list[Block] | None:
    """Blocks of an LCS by the compiled Myers diff, or None when the edit distance is beyond
    :func:`dmp_budget` (the caller aligns otherwise).

    Exact: diff-match-patch's diff without a time limit is a shortest edit script of insertions
    and deletions, i.e. its equal stretches form an LCS (its "half match" shortcut, which may miss
    the optimum, is skipped when no time limit is set). Our own C (core/_myers.c) computes the
    same edit script, stopping as soon as the edit distance is proved beyond the budget; without
    it, diff-match-patch's is used, after the banded LCS has told whether the edit distance is
    within the budget (it has no bound of its own). When the LCS length is known (given, or
    computed by the banded LCS) the blocks are checked against it: a diff that were not shortest
    would be set aside, never reported.

    Measured on 2,375 copy-heavy copyright files (``neardup pairs --workers 1``, serial pass):
    15.6 s with diff-match-patch (1.8 s of it system time: it reads the process CPU clock at every
    step, 4.1 million reads) → 11.0 s with core/_myers.c, the same pairs byte for byte.
    """
    n, m = len(sa), len(sb)
    budget = dmp_budget(n, m)
    if lcs is None:
        floor = 0 if lcs_at_most is None else n + m - 2 * min(lcs_at_most, n, m)
        if floor > budget:
            return None
        if _myers is None:
            if _LCSseq is None:  # pragma: no cover
                return None
            lcs = _banded_lcs(sa, sb, budget, floor)
            if lcs is None:
                return None
    elif n + m - 2 * lcs > budget:
        return None
    if _myers is not None:
        blocks = _myers.blocks(sa, sb, budget)  # None beyond the budget
        if blocks is None:
            return None
        whole = True
    else:
        blocks, whole = _dmp_blocks(sa, sb)
    if not whole or (lcs is not None and sum(b[2] for b in blocks) != lcs):  # a guard: never seen to fire
        log.warning("compiled diff gave no LCS (%d×%d units): aligned bit-parallel instead", n, m)
        return None
    return blocks


def _dmp_blocks(sa: str, sb: str) -> tuple[list[Block], bool]:
    """The equal stretches of diff-match-patch's diff (no time limit), and whether its edit script
    spans both sequences whole."""
    blocks: list[Block] = []
    i = j = 0
    for op, length in _dmp_diff(sa, sb, timelimit=0, checklines=False, cleanup="No", counts_only=True):
        if op == "=":
            blocks.append((i, j, length))
            i += length
            j += length
        elif op == "-":
            i += length
        else:
            j += length
    return blocks, (i, j) == (len(sa), len(sb))


def _sequence_codes(seq: Sequence) -> np.ndarray:
    if isinstance(seq, str):
        return np.frombuffer(seq.encode("utf-32-le", "surrogatepass"), dtype="<u4").astype(np.int64)
    return np.asarray(seq, dtype=np.int64)


def unique_anchors(ca: np.ndarray, cb: np.ndarray, k: int = ANCHOR_UNITS) -> list[tuple[int, int]]:
    """Start positions ``(i, j)`` of k-unit runs found exactly once in A and once in B, equal,
    forming the longest chain increasing in both (patience diff), and not overlapping."""
    if len(ca) < k or len(cb) < k:
        return []
    wa = np.lib.stride_tricks.sliding_window_view(ca, k)
    wb = np.lib.stride_tricks.sliding_window_view(cb, k)
    labels = _window_labels(np.concatenate([wa, wb]))
    la, lb = labels[: len(wa)], labels[len(wa):]
    n_labels = int(labels.max()) + 1
    count_a = np.bincount(la, minlength=n_labels)
    count_b = np.bincount(lb, minlength=n_labels)
    once = (count_a == 1) & (count_b == 1)
    pos_b = np.full(n_labels, -1, dtype=np.int64)
    pos_b[lb] = np.arange(len(lb))
    ia = np.flatnonzero(once[la])  # ascending in A
    jb = pos_b[la[ia]]
    # longest increasing subsequence of jb (patience sorting), O(n log n)
    tails: list[int] = []
    tail_at: list[int] = []
    back = np.full(len(ia), -1, dtype=np.int64)
    for t, j in enumerate(jb.tolist()):
        h = bisect.bisect_left(tails, j)
        if h == len(tails):
            tails.append(j)
            tail_at.append(t)
        else:
            tails[h] = j
            tail_at[h] = t
        back[t] = tail_at[h - 1] if h > 0 else -1
    chain: list[int] = []
    t = tail_at[-1] if tail_at else -1
    while t >= 0:
        chain.append(t)
        t = int(back[t])
    chain.reverse()
    out: list[tuple[int, int]] = []
    end_a = end_b = 0
    for t in chain:
        i, j = int(ia[t]), int(jb[t])
        if i >= end_a and j >= end_b:
            out.append((i, j))
            end_a, end_b = i + k, j + k
    return out


def _anchored_blocks(sa: Sequence, sb: Sequence) -> list[Block]:
    """Matching blocks of two long sequences aligned piecewise between unique anchors.

    Each piece is aligned by :func:`_align_sequences` (so split again while it is large, with
    the anchors unique within it). An LCS through every anchor: equal to the unsplit LCS
    whenever the anchors lie on one (as in a copy with scattered edits), at most a little
    shorter otherwise. Without any anchor a large piece is cut into bounded windows.
    """
    k = ANCHOR_UNITS
    anchors = unique_anchors(_sequence_codes(sa), _sequence_codes(sb), k)
    if not anchors:
        return _windowed_blocks(sa, sb)
    blocks: list[Block] = []
    pi = pj = 0
    for i, j in [*anchors, (len(sa), len(sb))]:
        blocks.extend((x + pi, y + pj, n) for x, y, n in _align_sequences(sa[pi:i], sb[pj:j]))
        if i < len(sa):
            blocks.append((i, j, k))
        pi, pj = i + k, j + k
    return _merge_blocks(blocks)


def _windowed_blocks(sa: Sequence, sb: Sequence) -> list[Block]:
    """Last resort for a long piece without a unique anchor: aligned in windows along the diagonal
    (each at most SPLIT_MIN_CELLS cells), so memory stays bounded; an approximation of the LCS."""
    n, m = len(sa), len(sb)
    pieces = max(2, int(np.ceil((n * m / SPLIT_MIN_CELLS) ** 0.5)))
    blocks: list[Block] = []
    for p in range(pieces):
        a0, a1 = n * p // pieces, n * (p + 1) // pieces
        b0, b1 = m * p // pieces, m * (p + 1) // pieces
        sub_a, sub_b = sa[a0:a1], sb[b0:b1]
        if len(sub_a) * len(sub_b) > SPLIT_MIN_CELLS:  # cannot happen with the sizes above
            continue
        inner = myers_blocks(sub_a, sub_b, max_d=myers_budget(len(sub_a), len(sub_b)))
        if inner is None:
            inner = _rapidfuzz_blocks(sub_a, sub_b) if _Indel is not None else (myers_blocks(sub_a, sub_b) or [])
        blocks.extend((x + a0, y + b0, ln) for x, y, ln in inner)
    return _merge_blocks(blocks)


def _rapidfuzz_blocks(sa: Sequence, sb: Sequence) -> list[Block]:
    blocks: list[Block] = []
    for tag, i1, i2, j1, _j2 in _Indel.opcodes(sa, sb).as_list():
        if tag == "equal":
            blocks.append((i1, j1, i2 - i1))
    return blocks


def align_bit_parallel(a_ids: np.ndarray, b_ids: np.ndarray) -> list[Block]:
    """The same as :func:`align` through rapidfuzz only (the peer in tests and benchmarks)."""
    if len(a_ids) == 0 or len(b_ids) == 0:
        return []
    return _rapidfuzz_blocks(*_as_sequences(a_ids, b_ids))


def lcs_length(a_ids: np.ndarray, b_ids: np.ndarray) -> int:
    """Length of an LCS of two unit-id sequences (bit-parallel, no alignment kept)."""
    if len(a_ids) == 0 or len(b_ids) == 0:
        return 0
    return _lcs_length_sequences(*_as_sequences(a_ids, b_ids))


def _lcs_length_sequences(sa: Sequence, sb: Sequence, at_least: int = 0) -> int:
    """The LCS length; with ``at_least``, 0 when it is shorter than that (then computed faster:
    only the band of the matrix that can reach it)."""
    if len(sa) == 0 or len(sb) == 0:
        return 0
    if _LCSseq is None:  # pragma: no cover
        found = sum(n for _, _, n in _align_sequences(sa, sb))
        return found if found >= at_least else 0
    cutoff = at_least - LCS_CUTOFF_SLACK
    found = int(_LCSseq.similarity(sa, sb, score_cutoff=cutoff if cutoff > 0 else None))
    return found if found >= at_least else 0


# rapidfuzz's banded LCS (3.14) may return 0 when its cut-off equals the LCS length exactly (two
# real 425- and 424-unit selections with an LCS of 400: 0 at a cut-off of 400, 400 at 399; one
# in 290,000 random trials, never at a lower cut-off). The band is widened by this many units.
LCS_CUTOFF_SLACK = 16


def _snake(a: Sequence, b: Sequence, x: int, y: int) -> int:
    """Length of the common prefix of ``a[x:]`` and ``b[y:]``.

    Galloping over slice comparisons (done in C) instead of a unit-by-unit Python loop.
    """
    limit = min(len(a) - x, len(b) - y)
    if limit <= 0 or a[x] != b[y]:
        return 0
    lo, step = 1, 1  # a[x:x+lo] == b[y:y+lo] is known
    hi = limit + 1
    while lo < limit:
        nxt = min(lo + step, limit)
        if a[x + lo : x + nxt] == b[y + lo : y + nxt]:
            lo, step = nxt, step * 2
        else:
            hi = nxt
            break
    while hi - lo > 1:  # the first difference lies in [lo, hi)
        mid = (lo + hi) // 2
        if a[x + lo : x + mid] == b[y + lo : y + mid]:
            lo = mid
        else:
            hi = mid
    return lo


def myers_blocks(a: Sequence, b: Sequence, max_d: int | None = None) -> list[Block] | None:
    """Matching blocks of an LCS by Myers' O((N+M)·D) greedy diff (seed 004's algorithm).

    Keeps the furthest-reaching x of every diagonal k = x − y for each edit count d, then walks
    the stored frontiers back from (N, M). Memory is O(D²). With ``max_d`` given, returns
    ``None`` as soon as more than ``max_d`` insertions and deletions would be needed — cheap when
    the two sequences are close, which is exactly when this beats the bit-parallel O(N·M/64).
    """
    n, m = len(a), len(b)
    if n == 0 or m == 0:
        return []
    limit = n + m if max_d is None else min(max_d, n + m)
    offset = limit + 1
    v = [0] * (2 * limit + 3)  # v[offset + k]: furthest x reached on diagonal k
    trace: list[list[int]] = []
    done = False
    for d in range(limit + 1):
        trace.append(v[offset - d - 1 : offset + d + 2])  # v[-d-1 .. d+1] before step d
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[offset + k - 1] < v[offset + k + 1]):
                x = v[offset + k + 1]  # step down: a unit of b is inserted
            else:
                x = v[offset + k - 1] + 1  # step right: a unit of a is deleted
            y = x - k
            if x < n and y < m and a[x] == b[y]:  # then follow the diagonal while units are equal
                x += _snake(a, b, x, y)
            v[offset + k] = x
            if x >= n and x - k >= m:
                done = True
                break
        if done:
            break
    if not done:
        return None

    blocks: list[Block] = []
    x, y = n, m
    for d in range(len(trace) - 1, -1, -1):
        frontier = trace[d]
        k = x - y
        if d == 0:
            prev_x = prev_y = 0
        else:
            if k == -d or (k != d and frontier[k - 1 + d + 1] < frontier[k + 1 + d + 1]):
                prev_k = k + 1
            else:
                prev_k = k - 1
            prev_x = frontier[prev_k + d + 1]
            prev_y = prev_x - prev_k
        run = min(x - prev_x, y - prev_y)  # the snake that ended step d
        if run > 0:
            blocks.append((x - run, y - run, run))
        x, y = prev_x, prev_y
    blocks.reverse()
    return _merge_blocks(blocks)


def _merge_blocks(blocks: list[Block]) -> list[Block]:
    merged: list[Block] = []
    for i, j, n in blocks:
        if merged and merged[-1][0] + merged[-1][2] == i and merged[-1][1] + merged[-1][2] == j:
            merged[-1] = (merged[-1][0], merged[-1][1], merged[-1][2] + n)
        else:
            merged.append((i, j, n))
    return merged


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


_HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)


def _window_labels(windows: np.ndarray) -> np.ndarray:
    """Equal rows of ``windows`` get equal labels, different rows different labels."""
    h = np.zeros(len(windows), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for col in range(windows.shape[1]):
            h = h * _HASH_MULTIPLIER + windows[:, col].astype(np.uint64) + np.uint64(1)
    uniq, labels = np.unique(h, return_inverse=True)
    first = np.full(len(uniq), -1, dtype=np.int64)
    first[labels[::-1]] = np.arange(len(labels) - 1, -1, -1)  # first row of every label
    if np.array_equal(windows, windows[first[labels]]):
        return labels
    log.warning("k-gram hash collision: comparing k-grams byte by byte")
    row = np.dtype((np.void, windows.dtype.itemsize * windows.shape[1]))
    _, labels = np.unique(np.ascontiguousarray(windows).view(row).ravel(), return_inverse=True)
    return labels


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
            if _below_cutoffs(bound, n_a, n_b, min_similarity, min_containment):
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
) -> Comparison:
    """Align the selected items, keep the trustable runs, merge passages, count: where the plain
    path (:func:`compare_units`) and the prepared one (:func:`compare_prepared`) meet.

    ``codes_*``: codes of the countable units (``distinct`` > every one); ``items_*``: the same
    with the gap items (``n_codes`` > every one), ``unit_*`` their unit positions (−1 for a gap);
    ``sel_*``: the items aligned; ``whole``: the count when the two texts are identical.
    ``counts_only``: the figures without the spans and passages (left empty). ``marks``: further
    fields of the Comparison (the prepared path's template and exclusion spans and shares).
    ``unit_marks``: ``countable`` of :func:`~neardup_gui.core.passages.passage_cover`.
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
        # reversed sequences) and keep the more coherent of the two LCSs (seed 004 counts only
        # the coherent part). Measured: one resubmission in the evaluation collection kept 282
        # of its 283 aligned units this way against 280.
        n_a_sel, n_b_sel = len(seq_a), len(seq_b)
        if lcs is None and len(seq_a) * len(seq_b) <= SPLIT_MIN_CELLS:
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
    # Edited passages (issue 15): the runs merged across small edits; containment counts them.
    if counts_only:
        cover_a, cover_b = passage_cover(a, b, spans, pos_a, pos_b, codes_a, codes_b, _align_codes,
                                         countable=unit_marks)
        found, spans = (), []
    else:
        found, cover_a, cover_b = passages_of(a, b, spans, pos_a, pos_b, codes_a, codes_b, _align_codes)
    return Comparison(
        **marks,
        similarity=_ratio(common, n_a + n_b - common),
        containment_a=_ratio(cover_a, n_a),
        containment_b=_ratio(cover_b, n_b),
        common_units=common,
        units_a=n_a,
        units_b=n_b,
        spans=tuple(spans),
        raw_lcs=raw,
        passages=found,
        passage_units_a=cover_a,
        passage_units_b=cover_b,
    )


def _align_codes(ca: np.ndarray, cb: np.ndarray) -> list[Block]:
    """:func:`align` on codes that are already dense (the local alignments inside passages)."""
    if len(ca) == 0 or len(cb) == 0:
        return []
    if len(ca) * len(cb) < DMP_MIN_CELLS and _kernels is not None and ca.dtype == np.uint32 and cb.dtype == np.uint32:
        # :func:`_align_sequences` of small sequences, its readable Myers diff in C
        # (core/_kernels.c: greedy_blocks, step for step) on the codes as they are: the passages of
        # the pass align thousands of small regions, where building strings cost more than aligning
        blocks = _kernels.greedy_blocks(ca, cb, myers_budget(len(ca), len(cb)))
        if blocks is not None:
            return blocks
        sa, sb = _codes_as_sequences(ca, cb, int(max(ca.max(), cb.max())) + 1)
        return _rapidfuzz_blocks(sa, sb) if _Indel is not None else (myers_blocks(sa, sb) or [])
    return _align_sequences(*_codes_as_sequences(ca, cb, int(max(ca.max(), cb.max())) + 1))


def _below_cutoffs(
    bound: int, n_a: int, n_b: int, min_similarity: float | None, min_containment: float | None
) -> bool:
    """True when even ``bound`` common units cannot reach any given cut-off."""
    below = True
    if min_similarity is not None:
        below = below and _ratio(bound, n_a + n_b - bound) < min_similarity
    if min_containment is not None:
        cover = coverage_bound(bound)  # containment counts passages (core/passages.py)
        below = below and max(_ratio(cover, n_a), _ratio(cover, n_b)) < min_containment
    return below


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


# ----------------------------------------------------------------------------------------------
# Prepared documents: what a comparison needs of a document, computed once per pass
# ----------------------------------------------------------------------------------------------


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
        # with its inverse was most of the cost: 0.5 ms a long copyright file)
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
# upper bound of the multiset overlap, so of the LCS. Measured on 797 real copyright files at a
# threshold of 0.8: of 15,782 candidates the length bound let through, 1,024 buckets reject 14,460,
# the exact bag of units 14,462; it costs 1,024 operations per pair, for all of a document's
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
        items, k = self.items, self.min_run
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

    @functools.cached_property
    def top_item(self) -> int:
        """The largest item code (0 for a document without items)."""
        return int(self.items.max(initial=0))

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
        if "windows" in self.__dict__:
            w = self.__dict__["windows"]
            arrays += [w.hashes, w.first, w.inverse]
        return sum(x.nbytes for x in arrays) + (4 * BAG_BUCKETS if "buckets" in self.__dict__ else 0) + 200


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
    exact bound): in a copy-heavy collection most candidates that reach this step stop here
    (measured on 10,000 generated documents: 30,336 of 72,441), and the check costs most."""
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


def _compiled_shared_cover(a: PreparedDocument, b: PreparedDocument, at_least: int | None):  # noqa: ANN202
    """:func:`_numpy_shared_cover` in C (core/_kernels.c)."""
    wa, wb = a.windows, b.windows
    got = _kernels.shared_cover(wa.hashes, wa.inverse, wa.first, a.items, wb.hashes, wb.inverse, wb.first,
                                b.items, a.min_run, -1 if at_least is None else at_least)
    if got is None or got is False:
        return got
    return np.frombuffer(got[0], dtype=bool), np.frombuffer(got[1], dtype=bool)


def _numpy_shared_cover(a: PreparedDocument, b: PreparedDocument, at_least: int | None):  # noqa: ANN202
    """The masks of :func:`_shared_mask_prepared` from the window hashes (neither document's
    collided); None below ``at_least``; False when two windows of one hash differ (a collision)."""
    k, na, nb = a.min_run, len(a.items), len(b.items)
    wa, wb = a.windows, b.windows
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


def _reaching(masks: tuple[np.ndarray, np.ndarray], at_least: int | None) -> tuple[np.ndarray, np.ndarray] | None:
    """``masks``, or None when one of them holds fewer than ``at_least`` items."""
    if at_least is not None and min(int(masks[0].sum()), int(masks[1].sum())) < at_least:
        return None
    return masks


def _least_reaching(n_a: int, n_b: int, min_similarity: float | None, min_containment: float | None) -> int | None:
    """The fewest common units that can reach a cut-off (:func:`_below_cutoffs` is false from
    there on: it falls as the count grows); None when even ``min(n_a, n_b)`` cannot."""
    hi = min(n_a, n_b)
    if _below_cutoffs(hi, n_a, n_b, min_similarity, min_containment):
        return None
    if not _below_cutoffs(0, n_a, n_b, min_similarity, min_containment):
        return 0
    lo = 0  # below at lo, not below at hi
    if min_containment is None and min_similarity is not None and 0 < min_similarity <= 1:
        # c / (n_a + n_b − c) ≥ s from c = s·(n_a + n_b) / (1 + s) on: start there and step to
        # the first count _below_cutoffs passes (rounding may move it by one), instead of the
        # bisection's dozen calls (one per candidate of the pass that gets this far)
        c = min(max(math.ceil(min_similarity * (n_a + n_b) / (1 + min_similarity)), 1), hi)
        while c > 1 and not _below_cutoffs(c - 1, n_a, n_b, min_similarity, None):
            c -= 1
        while _below_cutoffs(c, n_a, n_b, min_similarity, None):
            c += 1
        return c
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _below_cutoffs(mid, n_a, n_b, min_similarity, min_containment):
            lo = mid
        else:
            hi = mid
    return hi


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
# itself is about as cheap as the bound. Measured on 300 documents of the 10,000-document
# copy-heavy collection: the bound spares 542 of 1,392 alignments (and their passages), CPU time
# 1.06 s → 1.03 s; most candidates never get here (the bag of units rejects them first).
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
    lcs_at_most = None  # else an upper bound of it: the real units' bag, plus the gap items
    if not identical:
        need = None  # the fewest trustable units that reach a cut-off: every bound is compared with it
        if cut:
            need = _least_reaching(n_a, n_b, min_similarity, min_containment)
            if need is None:
                return None
            if not bag_bounded and int(bag_bounds(a, [b])[0]) < need:
                return None
        shared = _shared_mask_prepared(a, b, at_least=need)
        if shared is None:
            return None
        sel_a = np.flatnonzero(shared[0]).astype(np.int64)
        sel_b = np.flatnonzero(shared[1]).astype(np.int64)
        if need is not None:
            if min(len(sel_a), len(sel_b)) < need:
                return None
            if _compiled(a, b):
                bound, gaps_a, gaps_b = _kernels.real_overlap(a.items, a.unit, sel_a, b.items, b.unit, sel_b)
            else:
                real_a, real_b = sel_a[a.unit[sel_a] >= 0], sel_b[b.unit[sel_b] >= 0]
                bound = _multiset_overlap_sparse(a.items[real_a], b.items[real_b])
                gaps_a, gaps_b = len(sel_a) - len(real_a), len(sel_b) - len(real_b)
            if bound < need:
                return None
            lcs_at_most = bound + min(gaps_a, gaps_b)
            near = _below_cutoffs(bound, n_a, n_b, None if min_similarity is None else min_similarity + LCS_BOUND_MARGIN,
                                  None if min_containment is None else min_containment + LCS_BOUND_MARGIN)
            if near and len(sel_a) * len(sel_b) >= LCS_BOUND_MIN_CELLS:
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
        unit_marks=(a.countable_marks, b.countable_marks) if counts_only else None)
