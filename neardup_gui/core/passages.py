"""Edited passages: exact aligned runs merged across small edits into copied-then-edited passages.

An edit (a word substituted, inserted or dropped) breaks an exact run, and a run shorter than
``min_run`` does not count alone, so an edited copy reads as confetti of short runs. As the PAN
text-alignment systems do (seed, extend, filter; e.g. Sanchez-Perez et al., 2014), the runs of one
monotone alignment are merged here, in named steps:

1. **Anchors**: the exact runs of at least ``min_run`` units. Every passage holds one; a text that
   shares no such run with the other forms none.
2. **Seeds**: between two consecutive anchors, and outward from the outer ones (``window`` units at
   a time), the two texts are aligned locally and the aligned runs weighing at least ``short_run``
   are kept: three CJK characters, or two words (a word weighs ``word_weight`` = 1.5 characters, so
   a seed is about as unlikely by chance in English as in Chinese). Seeds of word pairs count only
   in a passage holding ``min_anchors_for_words`` anchors: parallel text that is no copy (two
   tables with one common row) shares one anchor and many word pairs around it.
3. **Chaining**: seeds are followed while the unmatched hole before the next is at most
   ``max_hole`` units in each text and is not a translation (CJK on one side, words on the other);
   a chain that reaches the next anchor joins the two.
4. **Joining**: two chains join across a gap of at most ``gap_share`` of their joint length (a
   burst of edits inside one copied section).
5. **Density**: seeds cover at least ``min_density`` and anchors at least ``min_anchor_share`` of a
   passage, in each text; otherwise it is cut back to its outer anchors, and if still too thin its
   anchors stand alone.

Guarantees: passages are disjoint, in the same order in both texts, never extended across
removed (template or excluded) text — only an exact run may hold some, where both texts removed
the same text at the aligned place — and every anchor lies in one. Anchors are at least
``min_anchor_share`` of every passage (or a passage is one anchor), which bounds what passages can
cover: :func:`coverage_bound`. The rules' values and the measurements behind them:
``docs/similarity.md`` ("Edited passages").

The chaining runs in C where it is built (core/_kernels.c: ``chained_passages``, these steps step
for step, calling ``align`` for the local alignments); the Python below is its specification and
its fallback, and tests hold the two equal on random inputs.
"""

from __future__ import annotations

import itertools
import logging
import math
from bisect import bisect_left
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from neardup_gui.core.align import Block, _align_codes
from neardup_gui.core.units import Units

try:  # the chaining in C (core/_kernels.c: chained_passages), step for step the Python below
    from neardup_gui.core import _kernels
except ImportError:  # no C compiler at install time: the same passages from the Python below
    _kernels = None

log = logging.getLogger(__name__)

Run = tuple[int, int, int]  # (i in A, j in B, length), in countable-unit coordinates
# A passage as found: (start_a, end_a, start_b, end_b, its seeds and anchors in order)
Found = tuple[int, int, int, int, tuple[Run, ...]]
Align = Callable[[np.ndarray, np.ndarray], list[Block]]


@dataclass(frozen=True)
class PassageRules:
    """How far exact runs may be merged into one edited passage (see the module docstring)."""

    short_run: int = 3  # seeds inside a passage: aligned runs weighing at least this much
    word_weight: float = 1.5  # weight of a word unit in a seed (a CJK character weighs 1)
    min_anchors_for_words: int = 2  # anchors a passage needs before seeds of word pairs count in it
    max_hole: int = 12  # largest unmatched stretch between two seeds, in each text
    window: int = 64  # how far beyond its outer anchors a passage may be extended, a step at a time
    min_density: float = 0.4  # seed units / passage units, in each text
    min_anchor_share: float = 0.1  # anchor units / passage units, in each text
    gap_share: float = 0.2  # two chains join across a gap of this share of their joint length

    @property
    def max_region(self) -> int:
        """Regions up to this size between two anchors are aligned whole; longer ones only at
        both ends (``window`` units each), which is as far as a chain of seeds could reach."""
        return 2 * self.window


DEFAULT_RULES = PassageRules()


def rules_key(rules: PassageRules | None = None) -> str:
    """The merging rules as a stable string: results cached under other rules are recomputed,
    because their figures were counted differently."""
    r = rules or DEFAULT_RULES
    return (f"passages-4:{r.short_run}:{r.word_weight}:{r.min_anchors_for_words}:{r.max_hole}:{r.window}:"
            f"{r.min_density}:{r.min_anchor_share}:{r.gap_share}")


def coverage_bound(anchor_bound: int, rules: PassageRules = DEFAULT_RULES) -> int:
    """Upper bound of the units passages can cover (in either text), given an upper bound of the
    anchor units: anchors are at least ``min_anchor_share`` of every passage."""
    return int(anchor_bound / rules.min_anchor_share) if rules.min_anchor_share > 0 else 1 << 62


def countable_marks(u: Units, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Of the countable units ``pos`` of ``u``: True between k and k + 1 where removed text lies
    (nothing is merged across it), and which are CJK characters (None when ``u`` does not say)."""
    return np.diff(pos) > 1, None if u.cjk is None else u.cjk[pos]


def find_passages(
    runs: Sequence[Run],
    codes_a: np.ndarray,
    codes_b: np.ndarray,
    jumps_a: np.ndarray,
    jumps_b: np.ndarray,
    align: Align = _align_codes,
    rules: PassageRules = DEFAULT_RULES,
    cjk_a: np.ndarray | None = None,
    cjk_b: np.ndarray | None = None,
) -> list[Found]:
    """The passages of one monotone alignment, in order, in countable coordinates.

    ``runs``: the anchors (exact runs of ≥ min_run units), increasing in both texts.
    ``codes_*``: the countable units' codes (equal units ↔ equal codes). ``jumps_*[k]`` is True
    when removed text lies between countable units k and k + 1: nothing is merged across it.
    ``align(x, y)`` returns the matching blocks ``(i, j, n)`` of an LCS of two code arrays.
    ``cjk_*``: True for each countable unit that is a CJK character (None: all of them, so seeds
    are runs of ``short_run`` units and no hole is told apart as a translation).
    """
    # lighter seeds exist when fewer than short_run words weigh short_run (1.5: two words)
    word_pairs = cjk_a is not None and math.ceil(rules.short_run / rules.word_weight - 1e-9) < rules.short_run
    found = _chained_passages(runs, codes_a, codes_b, jumps_a, jumps_b, align, rules, cjk_a, cjk_b, word_pairs)
    if not word_pairs or rules.min_anchors_for_words <= 1:
        return found
    return _without_lone_word_pairs(found, runs, codes_a, codes_b, jumps_a, jumps_b, align, rules, cjk_a, cjk_b)


def _without_lone_word_pairs(found: list[Found], runs: Sequence[Run], codes_a: np.ndarray, codes_b: np.ndarray,
                             jumps_a: np.ndarray, jumps_b: np.ndarray, align: Align, rules: PassageRules,
                             cjk_a: np.ndarray, cjk_b: np.ndarray | None) -> list[Found]:
    """Step 2's rule on word pairs: a passage with fewer than ``min_anchors_for_words`` anchors
    that holds a seed lighter than ``short_run`` units is built again, between its neighbours,
    from seeds of ``short_run`` units only."""
    anchor_set = set(runs)
    enough = rules.min_anchors_for_words
    out: list[Found] = []
    for k, passage in enumerate(found):
        seeds = passage[4]
        # (enough anchors are known as soon as they are met: a long copy's passage holds thousands)
        if next(itertools.islice(filter(anchor_set.__contains__, seeds), enough - 1, None), None) is not None:
            out.append(passage)
            continue
        if all(n >= rules.short_run for _, _, n in seeds):
            out.append(passage)
            continue
        anchors = [r for r in seeds if r in anchor_set]
        # Between the passage before (as kept) and the one after (which can only shrink), so the
        # passages stay disjoint and in order.
        a0, b0 = (out[-1][1], out[-1][3]) if out else (0, 0)
        a1, b1 = (found[k + 1][0], found[k + 1][2]) if k + 1 < len(found) else (len(codes_a), len(codes_b))
        again = _chained_passages([(i - a0, j - b0, n) for i, j, n in anchors], codes_a[a0:a1], codes_b[b0:b1],
                                  jumps_a[a0:max(a0, a1 - 1)], jumps_b[b0:max(b0, b1 - 1)], align, rules,
                                  cjk_a[a0:a1], None if cjk_b is None else cjk_b[b0:b1], False)
        out.extend((sa + a0, ea + a0, sb + b0, eb + b0, tuple((i + a0, j + b0, n) for i, j, n in seeds))
                   for sa, ea, sb, eb, seeds in again)
    return out


def _chained_passages(
    runs: Sequence[Run], codes_a: np.ndarray, codes_b: np.ndarray, jumps_a: np.ndarray, jumps_b: np.ndarray,
    align: Align, rules: PassageRules, cjk_a: np.ndarray | None, cjk_b: np.ndarray | None, word_pairs: bool,
) -> list[Found]:
    """Steps 2–5 with seeds of word pairs wherever the texts have words (``word_pairs``) or none."""
    if _kernels is not None and all(m is None or m.dtype == np.bool_ for m in (jumps_a, jumps_b, cjk_a, cjk_b)):
        return _kernels.chained_passages(
            runs, codes_a, codes_b, jumps_a, jumps_b, align, cjk_a, cjk_b, rules.short_run, rules.word_weight,
            rules.max_hole, rules.window, rules.min_density, rules.min_anchor_share, rules.gap_share, word_pairs)
    runs = sorted(runs)
    if not runs:
        return []
    s = _Seeding(codes_a, codes_b, jumps_a, jumps_b, align, rules, cjk_a, cjk_b, word_pairs)
    anchor_set = set(runs)
    return _dense_passages(_joined(_chains(runs, s), anchor_set, s), anchor_set, s)


class _Seeding:
    """Seeds and chains of seeds between anchors: steps 2 and 3 (see the module docstring)."""

    def __init__(self, codes_a: np.ndarray, codes_b: np.ndarray, jumps_a: np.ndarray, jumps_b: np.ndarray,
                 align: Align, rules: PassageRules, cjk_a: np.ndarray | None, cjk_b: np.ndarray | None,
                 word_pairs: bool) -> None:
        self.codes_a, self.codes_b, self.align, self.rules = codes_a, codes_b, align, rules
        self.na, self.nb = len(codes_a), len(codes_b)
        # after these countable units lies removed text (plain lists: bisect is cheaper per call)
        self.cut_a = np.flatnonzero(jumps_a).tolist()
        self.cut_b = np.flatnonzero(jumps_b).tolist()
        # Seed weights (a word weighs more than a character), as prefix sums where A mixes
        # scripts; a text in one script needs none (all its runs of a length weigh the same).
        has_a = cjk_a is not None and bool(cjk_a.any())
        only_a = cjk_a is None or bool(cjk_a.all())
        self.cum: list[float] | None = None
        if not word_pairs or only_a:
            self.min_units = rules.short_run
        elif not has_a:
            self.min_units = max(1, math.ceil(rules.short_run / rules.word_weight - 1e-9))
        else:
            self.min_units = max(1, math.ceil(rules.short_run / max(1.0, rules.word_weight) - 1e-9))
            self.cum = np.concatenate([[0.0], np.cumsum(np.where(cjk_a, 1.0, rules.word_weight))]).tolist()
        # CJK counts as prefix sums, only where a hole can be CJK on one side and words on the other
        has_b = cjk_b is not None and bool(cjk_b.any())
        only_b = cjk_b is None or bool(cjk_b.all())
        mixed = cjk_a is not None and cjk_b is not None and ((has_a and not only_b) or (has_b and not only_a))
        self.cjk_sum_a = np.concatenate([[0], np.cumsum(cjk_a)]).tolist() if mixed else None
        self.cjk_sum_b = np.concatenate([[0], np.cumsum(cjk_b)]).tolist() if mixed else None

    def translated(self, a0: int, a1: int, b0: int, b1: int) -> bool:
        """A hole written in CJK on one side and in words on the other is a translation, not an
        edit: both holes of 3 units or more, one at least 3/4 CJK, the other at most 1/4."""
        if self.cjk_sum_a is None or self.cjk_sum_b is None or a1 - a0 < 3 or b1 - b0 < 3:
            return False
        share_a = (self.cjk_sum_a[a1] - self.cjk_sum_a[a0]) / (a1 - a0)
        share_b = (self.cjk_sum_b[b1] - self.cjk_sum_b[b0]) / (b1 - b0)
        return (share_a >= 0.75 and share_b <= 0.25) or (share_b >= 0.75 and share_a <= 0.25)

    def seeds_between(self, a0: int, a1: int, b0: int, b1: int) -> list[Run]:
        """The seeds of the local alignment of A[a0:a1] and B[b0:b1]: its runs weighing ``short_run``."""
        if a1 - a0 < self.min_units or b1 - b0 < self.min_units:
            return []
        blocks = self.align(self.codes_a[a0:a1], self.codes_b[b0:b1])
        cum, s = self.cum, self.rules.short_run
        if cum is None:
            return [(a0 + i, b0 + j, n) for i, j, n in blocks if n >= self.min_units]
        return [(a0 + i, b0 + j, n) for i, j, n in blocks
                if n >= s or (n >= self.min_units and cum[a0 + i + n] - cum[a0 + i] >= s - 1e-9)]

    def chain_forward(self, seeds: list[Run], ea: int, eb: int) -> list[Run]:
        """The seeds chained forward from the end (ea, eb) of a run, while holes stay small."""
        taken, h = [], self.rules.max_hole
        for i, j, n in seeds:
            if i < ea or j < eb:
                continue
            if i - ea > h or j - eb > h or self.translated(ea, i, eb, j):
                break
            taken.append((i, j, n))
            ea, eb = i + n, j + n
        return taken

    def chain_backward(self, seeds: list[Run], sa: int, sb: int) -> list[Run]:
        """The seeds chained backward from the start (sa, sb) of a run, in text order."""
        taken, h = [], self.rules.max_hole
        for i, j, n in reversed(seeds):
            if i + n > sa or j + n > sb:
                continue
            if sa - (i + n) > h or sb - (j + n) > h or self.translated(i + n, sa, j + n, sb):
                break
            taken.append((i, j, n))
            sa, sb = i, j
        taken.reverse()
        return taken

    def extend_forward(self, ea: int, eb: int, lim_a: int, lim_b: int) -> list[Run]:
        """Seeds chained from (ea, eb) towards (lim_a, lim_b), one window at a time."""
        taken: list[Run] = []
        w, h = self.rules.window, self.rules.max_hole
        while True:
            wa, wb = min(lim_a, ea + w), min(lim_b, eb + w)
            more = self.chain_forward(self.seeds_between(ea, wa, eb, wb), ea, eb)
            if not more:
                return taken
            taken.extend(more)
            ea, eb = more[-1][0] + more[-1][2], more[-1][1] + more[-1][2]
            if (wa == lim_a and wb == lim_b) or (wa - ea > h and wb - eb > h):
                return taken  # the chain stopped inside the window, not at its edge

    def extend_backward(self, sa: int, sb: int, lim_a: int, lim_b: int) -> list[Run]:
        """Seeds chained from (sa, sb) back towards (lim_a, lim_b), one window at a time."""
        taken: list[Run] = []
        w, h = self.rules.window, self.rules.max_hole
        while True:
            wa, wb = max(lim_a, sa - w), max(lim_b, sb - w)
            more = self.chain_backward(self.seeds_between(wa, sa, wb, sb), sa, sb)
            if not more:
                return taken
            taken[:0] = more
            sa, sb = more[0][0], more[0][1]
            if (wa == lim_a and wb == lim_b) or (sa - wa > h and sb - wb > h):
                return taken


def _free_after(cuts: list[int], pos: int, limit: int) -> int:
    """Largest end ≤ limit such that [pos, end) crosses no removed text (pos: first unit)."""
    k = bisect_left(cuts, pos - 1)  # first cut at or after unit pos - 1
    return min(limit, cuts[k] + 1) if k < len(cuts) else limit


def _free_before(cuts: list[int], pos: int, limit: int) -> int:
    """Smallest start ≥ limit such that [start, pos) crosses no removed text (pos: one past)."""
    k = bisect_left(cuts, pos) - 1  # last cut before unit pos
    return max(limit, cuts[k] + 1) if k >= 0 else limit


def _crossing(cuts: list[int], end: int, start: int) -> bool:
    """True when removed text lies anywhere between unit ``end - 1`` and unit ``start``."""
    k = bisect_left(cuts, end - 1)
    return k < len(cuts) and cuts[k] <= start - 1


def _end(chain: Sequence[Run]) -> tuple[int, int]:
    return chain[-1][0] + chain[-1][2], chain[-1][1] + chain[-1][2]


def _chains(runs: list[Run], s: _Seeding) -> list[list[Run]]:
    """Step 3: the anchors in chains of seeds, each chain from one anchor (its seeds before it
    included) to where seeds stop reaching the next anchor."""
    h, max_region = s.rules.max_hole, s.rules.max_region
    first = runs[0]
    groups: list[list[Run]] = [s.extend_backward(first[0], first[1], _free_before(s.cut_a, first[0], 0),
                                                 _free_before(s.cut_b, first[1], 0)) + [first]]
    # Most regions between consecutive anchors (thousands per long copy) are decided without a
    # local alignment: a hole narrower than a seed in either text holds no seed, so the anchors
    # are one passage exactly when the hole is small, open and not a translation, and otherwise
    # the next anchor starts a chain of its own. Only the other regions are aligned.
    attention: list[int] = []
    quick = opened = np.zeros(0, dtype=bool)
    if len(runs) > 1:
        joins, quick, opened = _quick_regions(runs, s.cut_a, s.cut_b, s.min_units, h)
        if s.cjk_sum_a is not None:
            for k in np.flatnonzero(joins).tolist():
                prev, nxt = runs[k], runs[k + 1]
                joins[k] = not s.translated(prev[0] + prev[2], nxt[0], prev[1] + prev[2], nxt[1])
        attention = np.flatnonzero(~joins).tolist()
    placed = 0  # runs[:placed + 1] are in groups
    for k in attention:
        groups[-1].extend(runs[placed + 1 : k + 1])  # regions placed..k-1 joined their anchors
        placed = k + 1
        nxt = runs[k + 1]
        if quick[k]:
            groups.append([nxt])
            continue
        prev = runs[k]
        ea, eb = prev[0] + prev[2], prev[1] + prev[2]
        sa, sb = nxt[0], nxt[1]
        open_between = bool(opened[k])
        if open_between and sa - ea <= max_region and sb - eb <= max_region:
            seeds = s.seeds_between(ea, sa, eb, sb)  # a small region without removed text: aligned whole
            fwd = s.chain_forward(seeds, ea, eb)
        else:
            seeds = []
            fwd = s.extend_forward(ea, eb, _free_after(s.cut_a, ea, sa), _free_after(s.cut_b, eb, sb))
        groups[-1].extend(fwd)
        end_a, end_b = _end(fwd) if fwd else (ea, eb)
        if sa - end_a <= h and sb - end_b <= h and open_between and not s.translated(end_a, sa, end_b, sb):
            groups[-1].append(nxt)  # the chain reached the next anchor: one passage
            continue
        if seeds:
            back = [r for r in s.chain_backward(seeds, sa, sb) if r[0] >= end_a and r[1] >= end_b]
        else:
            back = s.extend_backward(sa, sb, max(end_a, _free_before(s.cut_a, sa, end_a)),
                                     max(end_b, _free_before(s.cut_b, sb, end_b)))
        groups.append(back + [nxt])
    groups[-1].extend(runs[placed + 1 :])
    ea, eb = _end(runs)
    groups[-1].extend(s.extend_forward(ea, eb, _free_after(s.cut_a, ea, s.na), _free_after(s.cut_b, eb, s.nb)))
    return groups


def _joined(groups: list[list[Run]], anchor_set: set[Run], s: _Seeding) -> list[tuple[list[Run], int, int]]:
    """Step 4: chains that stopped short of each other joined across a gap small beside both,
    when the joined chain passes the density test; each with its seed and anchor units."""
    h, gap_share = s.rules.max_hole, s.rules.gap_share
    merged: list[tuple[list[Run], int, int]] = []
    for group in groups:
        matched = sum(r[2] for r in group)
        anchored = sum(r[2] for r in group if r in anchor_set)
        if merged:
            prev, pm, pa = merged[-1]
            ea, eb = _end(prev)
            sa, sb = group[0][0], group[0][1]
            joint = (ea - prev[0][0]) + (group[-1][0] + group[-1][2] - sa)
            allowed = max(h, int(gap_share * joint))
            if (sa - ea <= allowed and sb - eb <= allowed and not _crossing(s.cut_a, ea, sa)
                    and not _crossing(s.cut_b, eb, sb) and not s.translated(ea, sa, eb, sb)
                    and _dense(prev[0], group[-1], pm + matched, pa + anchored, s.rules)):
                prev.extend(group)
                merged[-1] = (prev, pm + matched, pa + anchored)
                continue
        merged.append((group, matched, anchored))
    return merged


def _dense_passages(chains: list[tuple[list[Run], int, int]], anchor_set: set[Run], s: _Seeding) -> list[Found]:
    """Step 5: each chain as a passage when dense enough; else cut back to its outer anchors, and
    if still too thin, its anchors each a passage of its own."""
    out: list[Found] = []
    for seeds, matched, anchored in chains:
        if not _dense(seeds[0], seeds[-1], matched, anchored, s.rules):
            at = [k for k, r in enumerate(seeds) if r in anchor_set]
            seeds = seeds[at[0] : at[-1] + 1]
            if not _dense(seeds[0], seeds[-1], sum(r[2] for r in seeds),
                          sum(r[2] for r in seeds if r in anchor_set), s.rules):
                log.debug("chain of %d seeds rejected", len(seeds))
                out.extend((i, i + n, j, j + n, ((i, j, n),)) for i, j, n in seeds if (i, j, n) in anchor_set)
                continue
        out.append((seeds[0][0], seeds[-1][0] + seeds[-1][2], seeds[0][1], seeds[-1][1] + seeds[-1][2], tuple(seeds)))
    return out


def _quick_regions(
    runs: Sequence[Run], cut_a: list[int], cut_b: list[int], min_units: int, max_hole: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each region between consecutive anchors: whether it is decided without an alignment
    and joins its anchors (``joins``, before the translation test), whether it is decided so
    (``quick``: narrower than ``min_units`` in one text, so it holds no seed), and whether no
    removed text lies in it (``opened``)."""
    arr = np.array(runs, dtype=np.int64).reshape(-1, 3)
    end_a, end_b = arr[:-1, 0] + arr[:-1, 2], arr[:-1, 1] + arr[:-1, 2]
    gap_a, gap_b = arr[1:, 0] - end_a, arr[1:, 1] - end_b
    opened = ~_crosses(cut_a, end_a, arr[1:, 0]) & ~_crosses(cut_b, end_b, arr[1:, 1])
    quick = (gap_a >= 0) & (gap_b >= 0) & ((gap_a < min_units) | (gap_b < min_units))
    joins = quick & opened & (gap_a <= max_hole) & (gap_b <= max_hole)
    return joins, quick, opened


def _crosses(cuts: list[int], end: np.ndarray, start: np.ndarray) -> np.ndarray:
    """:func:`_crossing` for many regions at once."""
    if not cuts:
        return np.zeros(len(end), dtype=bool)
    c = np.asarray(cuts, dtype=np.int64)
    k = np.searchsorted(c, end - 1, side="left")
    return (k < len(c)) & (c[np.minimum(k, len(c) - 1)] <= start - 1)


def _dense(first: Run, last: Run, matched: int, anchored: int, rules: PassageRules) -> bool:
    """Whether a chain from ``first`` to ``last`` holding ``matched`` seed units, ``anchored`` of
    them in anchors, has seeds covering ``min_density`` and anchors ``min_anchor_share`` of it."""
    length = max(last[0] + last[2] - first[0], last[1] + last[2] - first[1])
    return matched >= rules.min_density * length and anchored >= rules.min_anchor_share * length
