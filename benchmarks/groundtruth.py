"""Ground-truth similarity by brute force: exact LCS by dynamic programming, independent of core.

This is the reference the evaluation scores the product against, so it shares nothing with
``neardup_gui.core.compare`` except the unit definition (``neardup_gui.core.units.tokenize``)
and the definition of the numbers in ARCHITECTURE.md:

- the LCS of the two unit sequences (units compared by their 64-bit ids), taken over the units
  that lie inside a ``min_run``-gram occurring in both texts (``docs/similarity.md``, "Which
  LCS": other units can never be in a counted run, and letting them compete for LCS ties only
  cuts copied passages short); their positions are kept, so no run bridges a dropped unit.
  ``restrict=False`` gives the literal LCS of all units instead;
- of the aligned unit pairs, keep only maximal runs of at least ``min_run`` units that are
  consecutive in both sequences (the match spans); ``common`` = units in those runs;
- the kept runs are chained where the unmatched stretch between two consecutive runs is at most
  ``HOLE`` units in both texts (an edit: a word or two substituted, inserted or dropped), or is
  itself mostly copied (its LCS at least ``DENSE`` of the longer side, up to ``STRETCH`` units:
  edits every few units, which leave only runs shorter than ``min_run``); a chain
  is a passage, from its first run to its last. ``identical`` = the units of the runs plus those of
  every stretch chained across in runs of two units or more of its LCS (the identical units of the passages);
- ``similarity = identical / (|A| + |B| - identical)``, ``containment_a = passage units of A / |A|``,
  ``containment_b`` likewise. This is simpler than the product's passages (no seeds, no windows,
  no joining across larger gaps): on copies edited here and there the two agree closely, and where
  they differ the product counts more of an edited copy, never less.

The LCS is computed by the textbook O(N·M) recurrence, vectorised over one row at a time:
with ``t[j] = max(L[i-1][j], L[i-1][j-1] + [a_i == b_j])`` the row is
``L[i] = maximum.accumulate(t)``, because unrolling ``L[i][j] = max(t[j], L[i][j-1])`` gives
the running maximum. The whole table is kept (uint16 while lengths allow) for the traceback.

Tie-breaking (an LCS alignment is not unique, and which runs survive ``min_run`` can depend
on it): the traceback starts at (N, M) and walks back; whenever ``a_i == b_j`` it takes the
diagonal (always optimal: equal last units are matched in some LCS), otherwise it moves up
(drops ``a_i``) when ``L[i-1][j] >= L[i][j-1]`` and left (drops ``b_j``) otherwise. So matches
are taken as late as possible in both sequences. This is deterministic; a product that uses
another diff (Myers, rapidfuzz's Indel opcodes) may pick another alignment and keep slightly
different runs, which is why the evaluation compares at thresholds rather than digit by digit.

Exact prefilter: every kept run is a common substring of at least ``min_run`` units, so it
contains a ``min_run``-gram present in both texts. Two texts without a shared ``min_run``-gram
therefore have ``common = 0`` and similarity exactly 0, and the DP can be skipped. Grams are
compared by a 64-bit hash; a hash collision only costs a needless DP, never a wrong answer.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from neardup_gui.core.units import tokenize

log = logging.getLogger(__name__)

DEFAULT_MIN_RUN = 8


@dataclass(frozen=True)
class Run:
    """A maximal aligned run: units ``a_start..a_start+length`` of A equal those of B."""

    a_start: int
    b_start: int
    length: int


@dataclass(frozen=True)
class Truth:
    """Exact similarity of two unit sequences under the product's definition."""

    len_a: int
    len_b: int
    lcs: int  # raw LCS length, before the min_run filter
    common: int  # units inside kept runs
    runs: tuple[Run, ...]
    identical: int = -1  # units of the runs and of the LCS of the stretches chained across (-1: common)
    cover_a: int = -1  # units of A inside the chains, from first run to last (-1: common)
    cover_b: int = -1

    @property
    def same(self) -> int:
        return self.common if self.identical < 0 else self.identical

    @property
    def similarity(self) -> float:
        denom = self.len_a + self.len_b - self.same
        return self.same / denom if denom else 0.0

    @property
    def containment_a(self) -> float:
        """Share of A inside the passages (A contained in B)."""
        covered = self.common if self.cover_a < 0 else self.cover_a
        return covered / self.len_a if self.len_a else 0.0

    @property
    def containment_b(self) -> float:
        covered = self.common if self.cover_b < 0 else self.cover_b
        return covered / self.len_b if self.len_b else 0.0


# The largest unmatched stretch, in each text, that two consecutive runs are chained across
# whatever it holds; and, up to STRETCH units, one whose LCS is at least DENSE of its longer side.
HOLE = 12
DENSE = 0.4
STRETCH = 200


def chained(a: np.ndarray, b: np.ndarray, runs: Sequence[Run], hole: int = HOLE) -> tuple[int, int, int]:
    """(identical, cover_a, cover_b) of ``runs`` (increasing in both texts) chained across small
    stretches: see the module docstring."""
    identical = cover_a = cover_b = 0
    start = None
    prev = None
    for r in list(runs) + [None]:
        if r is not None and prev is not None:
            gap_a = r.a_start - (prev.a_start + prev.length)
            gap_b = r.b_start - (prev.b_start + prev.length)
            if 0 <= gap_a <= STRETCH and 0 <= gap_b <= STRETCH:
                stretch_a = a[prev.a_start + prev.length:r.a_start]
                stretch_b = b[prev.b_start + prev.length:r.b_start]
                same = _seeded(stretch_a, stretch_b)
                if (gap_a <= hole and gap_b <= hole) or same >= DENSE * max(gap_a, gap_b):
                    identical += same + r.length
                    prev = r
                    continue
        if prev is not None:  # the chain from ``start`` ends at ``prev``
            cover_a += prev.a_start + prev.length - start.a_start
            cover_b += prev.b_start + prev.length - start.b_start
        if r is not None:
            start = prev = r
            identical += r.length
    if runs:  # the texts' edges, before the first run and after the last, as a stretch between runs
        first, last = runs[0], runs[-1]
        for (a0, a1), (b0, b1) in (((0, first.a_start), (0, first.b_start)),
                                   ((last.a_start + last.length, len(a)), (last.b_start + last.length, len(b)))):
            if 0 < a1 - a0 <= STRETCH and 0 < b1 - b0 <= STRETCH:
                same = _seeded(a[a0:a1], b[b0:b1])
                if same and same >= DENSE * max(a1 - a0, b1 - b0):
                    identical += same
                    cover_a, cover_b = cover_a + a1 - a0, cover_b + b1 - b0
    return identical, cover_a, cover_b


def _seeded(x: np.ndarray, y: np.ndarray) -> int:
    """The units of an LCS of two stretches that lie in its runs of two units or more (a single
    common word or character in an edited stretch is chance)."""
    return sum(r.length for r in runs_of(lcs_pairs(x, y)) if r.length >= 2)


def lcs_table(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The full (N+1)×(M+1) LCS length table of two id sequences."""
    n, m = len(a), len(b)
    dtype = np.uint16 if min(n, m) < np.iinfo(np.uint16).max else np.uint32
    table = np.zeros((n + 1, m + 1), dtype=dtype)
    b = np.asarray(b)
    for i in range(1, n + 1):
        prev = table[i - 1]
        t = prev.copy()
        # diagonal step where a_i == b_j
        diag = prev[:-1] + (b == a[i - 1]).astype(dtype)
        np.maximum(t[1:], diag, out=t[1:])
        np.maximum.accumulate(t, out=table[i])
    return table


def lcs_pairs(a: Sequence[int] | np.ndarray, b: Sequence[int] | np.ndarray) -> list[tuple[int, int]]:
    """Aligned index pairs (i, j) of one LCS, ascending, with the tie-breaking in the module doc."""
    a = np.asarray(a)
    b = np.asarray(b)
    if len(a) == 0 or len(b) == 0:
        return []
    table = lcs_table(a, b)
    al = a.tolist()
    bl = b.tolist()
    pairs: list[tuple[int, int]] = []
    i, j = len(al), len(bl)
    while i > 0 and j > 0:
        if al[i - 1] == bl[j - 1]:
            pairs.append((i - 1, j - 1))
            i -= 1
            j -= 1
        elif table[i - 1, j] >= table[i, j - 1]:
            i -= 1
        else:
            j -= 1
    pairs.reverse()
    return pairs


def runs_of(pairs: Sequence[tuple[int, int]]) -> list[Run]:
    """Maximal runs of pairs consecutive in both sequences."""
    runs: list[Run] = []
    start = 0
    for k in range(1, len(pairs) + 1):
        if k == len(pairs) or pairs[k] != (pairs[k - 1][0] + 1, pairs[k - 1][1] + 1):
            runs.append(Run(pairs[start][0], pairs[start][1], k - start))
            start = k
    return runs


def shared_gram_masks(a: Sequence[int], b: Sequence[int], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Units inside an ``n``-gram that occurs in both sequences, by exact tuple comparison."""
    a, b = [int(x) for x in a], [int(x) for x in b]
    grams_a = {tuple(a[i:i + n]) for i in range(len(a) - n + 1)}
    grams_b = {tuple(b[i:i + n]) for i in range(len(b) - n + 1)}
    shared = grams_a & grams_b
    masks = []
    for seq in (a, b):
        mask = np.zeros(len(seq), dtype=bool)
        for i in range(len(seq) - n + 1):
            if tuple(seq[i:i + n]) in shared:
                mask[i:i + n] = True
        masks.append(mask)
    return masks[0], masks[1]


def truth_of_ids(a: np.ndarray, b: np.ndarray, min_run: int = DEFAULT_MIN_RUN, restrict: bool = True) -> Truth:
    """Exact similarity of two unit-id sequences (no prefilter).

    With ``restrict`` (the product's definition), ``lcs`` is the LCS length of the units inside
    shared ``min_run``-grams; without it, of all units.
    """
    a, b = np.asarray(a), np.asarray(b)
    if restrict:
        mask_a, mask_b = shared_gram_masks(a, b, min_run)
        ia, ib = np.flatnonzero(mask_a), np.flatnonzero(mask_b)
        pairs = [(int(ia[i]), int(ib[j])) for i, j in lcs_pairs(a[ia], b[ib])]
    else:
        pairs = lcs_pairs(a, b)
    kept = tuple(r for r in runs_of(pairs) if r.length >= min_run)
    return Truth(len(a), len(b), len(pairs), sum(r.length for r in kept), kept, *chained(a, b, kept))


def truth_of_texts(text_a: str, text_b: str, min_run: int = DEFAULT_MIN_RUN) -> Truth:
    """Exact similarity of two texts, units from ``neardup_gui.core.units.tokenize``."""
    return truth_of_ids(tokenize(text_a).ids, tokenize(text_b).ids, min_run)


def gram_keys(ids: np.ndarray, n: int) -> np.ndarray:
    """The hash of the ``n``-gram starting at every position of an id sequence (empty if shorter)."""
    ids = np.asarray(ids, dtype=np.uint64)
    if len(ids) < n:
        return np.zeros(0, dtype=np.uint64)
    with np.errstate(over="ignore"):
        h = np.zeros(len(ids) - n + 1, dtype=np.uint64)
        for k in range(n):
            # polynomial rolling combination; wrap-around is intended
            h = h * np.uint64(0x100000001B3) + ids[k : len(ids) - n + 1 + k]
    return h


def gram_hashes(ids: np.ndarray, n: int) -> np.ndarray:
    """Sorted unique hashes of the ``n``-grams of an id sequence (empty if shorter than n)."""
    return np.unique(gram_keys(ids, n))


def candidate_pairs(grams: Sequence[np.ndarray]) -> set[tuple[int, int]]:
    """Index pairs (i < j) of documents sharing at least one gram hash: a superset of truth > 0."""
    owners: dict[int, list[int]] = defaultdict(list)
    for doc, g in enumerate(grams):
        for h in g.tolist():
            owners[h].append(doc)
    pairs: set[tuple[int, int]] = set()
    for docs in owners.values():
        if len(docs) > 1:
            for x in range(len(docs)):
                for y in range(x + 1, len(docs)):
                    pairs.add((docs[x], docs[y]))
    return pairs


def all_pairs(
    id_seqs: Sequence[np.ndarray],
    min_run: int = DEFAULT_MIN_RUN,
    on_pair: Callable[[int, int], None] | None = None,
) -> dict[tuple[int, int], Truth]:
    """Exact truth for every pair (i < j) with similarity > 0; all other pairs are exactly 0."""
    grams = [gram_hashes(ids, min_run) for ids in id_seqs]
    out: dict[tuple[int, int], Truth] = {}
    for i, j in sorted(candidate_pairs(grams)):
        if on_pair:
            on_pair(i, j)
        t = truth_of_ids(id_seqs[i], id_seqs[j], min_run)
        if t.common:
            out[(i, j)] = t
    return out
