"""Alignment of two unit sequences: the matching blocks of one longest common subsequence.

Huang, Wang and Li compute the LCS with Myers' O((N+M)·D) diff; close texts (a
resubmission, after the shared-k-gram filter of :mod:`neardup_gui.core.compare`) are aligned that
way, compiled (core/_myers.c, or google-diff-match-patch's C++ port) within an edit-distance budget,
and in readable Python for small pieces. Beyond the budget rapidfuzz's bit-parallel LCS, O(N·M/64),
takes over; sequences too large for its bit matrix are split at unique anchors (patience diff).
Every back-end returns the same kind of answer, blocks ``(i, j, length)`` increasing in both
sequences whose lengths sum to the LCS length; which LCS among equally long ones depends on the
back-end. ``docs/similarity.md`` gives the measured costs behind the budgets.
"""

from __future__ import annotations

import bisect
import codecs
import logging
from typing import Sequence

import numpy as np

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

    Myers in Python costs about 1.6 µs·D² (plus C-speed snakes), rapidfuzz about N·M/6400 µs
    (10 ns per 64-cell word): Myers wins while D < √(N·M)/100, so a failed attempt costs at most
    about as much as the fallback, and a resubmission (D small after the shared-k-gram filter)
    is aligned in a fraction of the fallback's time.
    """
    return max(4, int((n * m) ** 0.5) // 100)


def align(a_ids: np.ndarray, b_ids: np.ndarray) -> list[Block]:
    """Matching blocks ``(i, j, length)`` of one LCS of two unit-id sequences, in order.

    The blocks are disjoint, increasing in both sequences, and their lengths sum to the LCS
    length. Close sequences (a resubmission, after the shared-k-gram filter) are aligned by
    Myers' diff, as Huang, Wang and Li do; when their edit distance exceeds :func:`myers_budget`,
    rapidfuzz's bit-parallel LCS alignment takes over. Deterministic: the same inputs always
    give the same blocks.
    """
    if len(a_ids) == 0 or len(b_ids) == 0:
        return []
    return _align_sequences(*_as_sequences(a_ids, b_ids))


# Bounded memory. rapidfuzz's alignment keeps one bit per cell of the N×M matrix: two 320,000-unit
# copies of one highly repetitive text (a 2 MB licence collection, where nearly every unit is in a
# shared k-gram) would need 12.6 GB. Above this many cells (256 MB of bits) the alignment is
# split at unique anchors first (patience diff); Myers' diff is tried before that only within the
# edit distance it covers in about a second, so a long resubmission stays exact.
SPLIT_MIN_CELLS = 2_000_000_000
SPLIT_MYERS_MAX_D = 800
# Anchors: runs of this many units that occur exactly once in each sequence.
ANCHOR_UNITS = 12


def _align_sequences(sa: Sequence, sb: Sequence, lcs: int | None = None, lcs_at_most: int | None = None) -> list[Block]:
    """``lcs``: the LCS length when known (the bound computed before the alignment): then the
    edit distance is known too, and Myers' diff is tried only when it is within its budget (it
    then succeeds), never in vain (a failed attempt costs as much as the bit-parallel alignment
    it falls back to).
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


# The compiled Myers diff costs about 3–8 µs per unit of edit distance D and little else; the
# bit-parallel alignment about 1.5e-7 ms per cell whatever D (10,000²: 16 ms).
# So Myers serves while D ≤ N·M / DMP_CELLS_PER_D, with at least DMP_MIN_D (tiny pieces) and at
# most DMP_MAX_D (its time stays under about a second on any size).
DMP_CELLS_PER_D = 40_000
# Below this many cells the readable Myers diff or the bit-parallel alignment takes microseconds,
# and the compiled diff gains nothing (the local alignments inside passages, a few dozen cells).
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
    lower bound of the edit distance, the first band tried when larger than DMP_FIRST_BAND (the
    narrower bands could not hold the distance)."""
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
    would be set aside, never reported. Our C exists because diff-match-patch reads the process
    CPU clock (a system call) at every step of its bisection, and has no bound on the edit
    distance (docs/speed-history.md, fifth round).
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
    """Matching blocks of an LCS by Myers' O((N+M)·D) greedy diff (Huang, Wang and Li's choice).

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
