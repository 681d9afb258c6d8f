"""Edited passages: the exact aligned runs of a comparison merged across small edits.

Copy-then-edit is the usual way to evade a screen: substitute a word every few words, insert or
drop one here and there. Each edit breaks an exact run, and a run shorter than ``min_run`` does
not count, so an edited copy reads as confetti of short runs and its containment falls with the
edit rate (measured on Chinese text with 30 % of the words replaced: 0.49 for a wholly copied
text). The PAN text-alignment systems (2012–2015; e.g. Sanchez-Perez et al., 2014) seed on exact
matches, *extend* the seeds across small gaps into passages, then filter. This module does that
on top of the exact alignment of :mod:`neardup_gui.core.compare`:

1. **Anchors**: the exact runs of ≥ ``min_run`` units (the trustable runs the similarity counts).
   Every passage holds at least one; a text that shares no such run with the other forms none.
2. **Seeds**: between two consecutive anchors, and outward from the first and the last, the two
   texts are aligned locally and the aligned runs weighing ≥ ``short_run`` are kept: three CJK
   characters, or two words (a word unit weighs ``word_weight`` = 1.5 characters). Alone they
   would be chance (a three-character phrase recurs in any two texts on one subject); inside a
   copied stretch they are the words the editor left alone. Seeds of word pairs count only in a
   passage holding at least ``min_anchors_for_words`` anchors; a passage around a lone anchor
   is built from seeds of ``short_run`` units, as before word pairs counted.
3. **Chaining**: from an anchor, seeds are followed while the unmatched stretch ("hole") before
   the next seed is at most ``max_hole`` units in each text — a substituted, inserted or dropped
   word or two — and is not written in CJK on one side and in words on the other (a translated
   description between two identical table rows is not an edit: with 8-unit anchors the check
   proposes the English original of a translated section, and its package rows chained across
   the translations read 0.18 containment, above the true source of a 15 % copy; now 0.05).
   When the chain reaches the next anchor the two anchors are one passage. Regions
   longer than ``2 × window`` are aligned a window at a time from each end, for as long as the
   chain goes on.
4. **Joining**: two chains that stopped short of each other are one passage when the gap between
   them is at most ``gap_share`` of their joint length (a burst of edits inside a long copied
   section), provided the joined passage passes the filter below.
5. **Filter**: a passage is kept only if its seeds cover at least ``min_density`` of it and its
   anchors at least ``min_anchor_share``, in each text; otherwise it is cut back to its outer
   anchors, and if still too thin its anchors stand alone. The anchor share also bounds what
   passages can cover (coverage ≤ anchor units / share), which keeps :func:`coverage_bound` —
   the upper bound the containment cut-off prunes with — exact.

Passages are disjoint and in the same order in both texts (they follow one monotone alignment),
are never extended across removed (template or excluded) text — only an exact run may hold
some, where both texts have it at the aligned place — and cover every anchor; so containment
counted over passages is never below the exact containment.

Counting only (:func:`passage_cover`, what the collection-wide pass stores) finds the same
passages with fewer local alignments: a hole of at most ``max_hole`` units in each text joins its
two anchors whatever it holds, so its seeds are looked for only when a density test needs them.

Why these bounds (``PassageRules`` defaults), measured with ``tests/benchmarks/eval_pan.py`` on
the development corpus, both languages (figures in ``docs/quality.md``):

* ``short_run`` = 3 and ``max_hole`` = 12 units: with 30 % of the Chinese words replaced,
  clusters of two or three substituted words with a leftover run of one or two characters
  between them are common. Measured on 10 such copies (before the joining step existed): seeds
  of ≥ 4 units and holes of ≤ 10 gave containment 0.84 in 5.3 passages per copy; seeds of ≥ 3,
  0.92 in 3.8; with holes of ≤ 12 and the joining step, 0.99 in 1.0. Passages start only from
  anchors, so short seeds and wide holes add nothing between unrelated texts.
* ``min_density`` = 0.4 and ``min_anchor_share`` = 0.1: an English copy with 30 % of its words
  replaced keeps only about a quarter of its units in runs of ≥ 8, so an anchor share of 0.2
  split such copies (containment 0.69); 0.1 keeps most whole (0.79), and the cut-off bound stays
  finite (ten times the anchor bound).
* ``gap_share`` = 0.2: joins chains across bursts of edits (a 20-unit gap between two copied
  stretches of 50 units) but not across an inserted paragraph of other text.
* ``word_weight`` = 1.5: a seed must be as unlikely by chance in English as in Chinese. Measured
  on 64-unit windows of unrelated sections of the same book, aligned as passages are: runs of
  ≥ 2 words cover 0.6 % of the English units, runs of ≥ 3 characters 0.6 % of the Chinese ones
  (≥ 3 words: under 0.05 %). An English copy with 30 % of its words replaced keeps 62 % of its
  units in runs of ≥ 2 words but only 55 % in runs of ≥ 3, and its holes between 3-word runs
  often exceed ``max_hole``: with 3-unit seeds such copies broke into pieces (containment 0.84
  over 120 copies, 36 below 0.8); with word pairs, 0.93 (11 below 0.8, two of them without any
  anchor). Chinese is unchanged (a CJK run's weight is its length).
* ``min_anchors_for_words`` = 2: parallel text that is not a copy — two tables with the same
  header and one common row, a template sentence with other nouns — shares one exact run and
  many word pairs around it. Two anchors chained in order are independent evidence of copying;
  one is a shared phrase. With word pairs counted around lone anchors too, the unrelated pairs
  at ≥ 0.1 containment (5 splits of the evaluation, 13,920 pairs) rose from 6 to 16; with this
  rule they stay at the 6 of the former rules (the book's own repeated headings and rows).

With these, no passage on the unrelated pairs of the evaluation grew by more than a few units
beyond its anchors, and no pair of the default evaluation reaches 0.1 containment (the same
count as the exact runs alone: zero).
"""

from __future__ import annotations

import itertools
import logging
import math
from bisect import bisect_left
from dataclasses import dataclass
from typing import NamedTuple, Sequence

import numpy as np

from neardup_gui.core.results import MatchSpan, Passage
from neardup_gui.core.units import Units

try:  # the chaining in C (core/_kernels.c: chained_passages, _chained_passages's Python step for step)
    from neardup_gui.core import _kernels
except ImportError:  # no C compiler at install time: the same passages from the Python below
    _kernels = None

log = logging.getLogger(__name__)

Run = tuple[int, int, int]  # (i in A, j in B, length), in countable-unit coordinates


@dataclass(frozen=True)
class PassageRules:
    """How far exact runs may be merged into one edited passage (see the module docstring)."""

    short_run: int = 3  # seeds inside a passage: aligned runs weighing at least this much
    word_weight: float = 1.5  # weight of a word unit in a seed (a CJK character weighs 1)
    min_anchors_for_words: int = 2  # anchors a passage needs before seeds of word pairs count in it
    max_hole: int = 12  # largest unmatched stretch between two seeds, in each text
    window: int = 64  # how far beyond its outer anchors a passage may be extended
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
    """The merging rules as a stable string: results cached with other rules (or before passages
    existed) are recomputed, because their containments were counted differently."""
    r = rules or DEFAULT_RULES
    return (f"passages-3:{r.short_run}:{r.word_weight}:{r.min_anchors_for_words}:{r.max_hole}:{r.window}:"
            f"{r.min_density}:{r.min_anchor_share}:{r.gap_share}")


def coverage_bound(anchor_bound: int, rules: PassageRules = DEFAULT_RULES) -> int:
    """Upper bound of the units passages can cover, given an upper bound of the anchor units."""
    return int(anchor_bound / rules.min_anchor_share) if rules.min_anchor_share > 0 else 1 << 62


@dataclass(frozen=True)
class _Chain:
    start_a: int
    start_b: int
    end_a: int
    end_b: int
    seeds: tuple[Run, ...]  # anchors and short seeds, in order
    anchors: tuple[Run, ...]


class _Hole(NamedTuple):
    """In a chain built for counts only: the region from the end ``(i, j)`` of one anchor to the
    start ``(end_a, end_b)`` of the next, joined whatever seeds it holds, standing for them.
    Its ``n`` is 0 (no seed units counted); it is no anchor and never a chain's first or last
    item (an anchor precedes and follows it)."""

    i: int
    j: int
    n: int
    end_a: int
    end_b: int


def find_passages(
    runs: Sequence[Run],
    codes_a: np.ndarray,
    codes_b: np.ndarray,
    jumps_a: np.ndarray,
    jumps_b: np.ndarray,
    align,
    rules: PassageRules = DEFAULT_RULES,
    cjk_a: np.ndarray | None = None,
    cjk_b: np.ndarray | None = None,
    counts_only: bool = False,
) -> list[tuple[int, int, int, int, tuple[Run, ...]]]:
    """Passages as ``(start_a, end_a, start_b, end_b, seeds)`` in countable coordinates.

    ``runs``: the anchors (exact runs of ≥ min_run units), increasing in both texts.
    ``codes_*``: the countable units' codes (equal units ↔ equal codes). ``jumps_*[k]`` is True
    when removed text lies between countable units k and k + 1: nothing is merged across it.
    ``align(x, y)`` returns the matching blocks ``(i, j, n)`` of an LCS of two code arrays.
    ``cjk_*``: True for each countable unit that is a CJK character (None: all of them, so
    seeds are runs of ``short_run`` units and no hole is told apart as a translation).

    Seeds of word pairs (lighter than ``short_run`` units) are trusted only inside a passage
    that holds ``min_anchors_for_words`` anchors: a passage around a lone anchor is built again,
    between its neighbours, from seeds of ``short_run`` units (see the module docstring).

    ``counts_only``: the same passages, but their seeds are not all looked for: where two anchors
    join whatever lies between them, the hole stands in ``seeds`` for the seeds it holds (see
    :class:`_Hole`), unless the passage's density test needs them (:func:`passage_cover`).
    """
    # lighter seeds exist when fewer than short_run words weigh short_run (1.5: two words)
    word_pairs = cjk_a is not None and math.ceil(rules.short_run / rules.word_weight - 1e-9) < rules.short_run
    # A passage holding a hole holds the two anchors around it, so it passes the anchor test
    # below without its seeds as long as two anchors are enough.
    holes = counts_only and rules.min_anchors_for_words <= 2
    found = _chained_passages(runs, codes_a, codes_b, jumps_a, jumps_b, align, rules, cjk_a, cjk_b, word_pairs,
                              holes)
    if not word_pairs or rules.min_anchors_for_words <= 1:
        return found
    anchor_set = set(runs)
    enough = rules.min_anchors_for_words
    out: list[tuple[int, int, int, int, tuple[Run, ...]]] = []
    for k, passage in enumerate(found):
        seeds = passage[4]
        # (enough anchors are known as soon as they are met: a long copy's passage holds thousands)
        if next(itertools.islice(filter(anchor_set.__contains__, seeds), enough - 1, None), None) is not None:
            out.append(passage)
            continue
        anchors = [r for r in seeds if r in anchor_set]
        if all(n >= rules.short_run for _, _, n in seeds):
            out.append(passage)
            continue
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
    runs: Sequence[Run],
    codes_a: np.ndarray,
    codes_b: np.ndarray,
    jumps_a: np.ndarray,
    jumps_b: np.ndarray,
    align,
    rules: PassageRules,
    cjk_a: np.ndarray | None,
    cjk_b: np.ndarray | None,
    word_pairs: bool,
    holes: bool = False,
) -> list[tuple[int, int, int, int, tuple[Run, ...]]]:
    """:func:`find_passages`, with seeds of word pairs wherever its anchors (``word_pairs``) or none;
    ``holes``: the holes two anchors join across whatever they hold are not aligned unless a
    density test needs their seeds (a :class:`_Hole` stands for them in the chain).

    In C when it is built (core/_kernels.c: chained_passages, the Python steps below, step for
    step, calling ``align`` for the local alignments): the collection-wide pass chains the
    anchors of every comparison, thousands of regions per long copy, where the Python steps
    around the alignments were about an eighth of the pass (2,372 grown copyright files).
    """
    if _kernels is not None and all(m is None or m.dtype == np.bool_ for m in (jumps_a, jumps_b, cjk_a, cjk_b)):
        return _kernels.chained_passages(
            runs, codes_a, codes_b, jumps_a, jumps_b, align, cjk_a, cjk_b, _Hole, rules.short_run,
            rules.word_weight, rules.max_hole, rules.window, rules.min_density, rules.min_anchor_share,
            rules.gap_share, word_pairs, holes)
    # (the Python steps below: the code the C one follows, and its fallback)
    runs = sorted(runs)
    if not runs:
        return []
    # Seed weights (a word weighs more than a character), as prefix sums where A mixes scripts;
    # a text in one script needs none (all its runs of a length weigh the same).
    has_a = cjk_a is not None and bool(cjk_a.any())
    only_a = cjk_a is None or bool(cjk_a.all())
    if not word_pairs or only_a:
        min_units, cum = rules.short_run, None
    elif not has_a:
        min_units, cum = max(1, math.ceil(rules.short_run / rules.word_weight - 1e-9)), None
    else:
        min_units = max(1, math.ceil(rules.short_run / max(1.0, rules.word_weight) - 1e-9))
        cum = np.concatenate([[0.0], np.cumsum(np.where(cjk_a, 1.0, rules.word_weight))]).tolist()
    sure_units = rules.short_run  # this many units are a seed whatever they are (a CJK unit weighs 1)
    # CJK counts as prefix sums, only where a hole can be CJK on one side and words on the other.
    has_b = cjk_b is not None and bool(cjk_b.any())
    only_b = cjk_b is None or bool(cjk_b.all())
    mixed = cjk_a is not None and cjk_b is not None and ((has_a and not only_b) or (has_b and not only_a))
    cjk_sum_a = np.concatenate([[0], np.cumsum(cjk_a)]).tolist() if mixed else None
    cjk_sum_b = np.concatenate([[0], np.cumsum(cjk_b)]).tolist() if mixed else None

    def translated(a0: int, a1: int, b0: int, b1: int) -> bool:
        """A hole written in CJK on one side and in words on the other is a translation, not an
        edit: both holes of 3 units or more, one at least 3/4 CJK, the other at most 1/4 (an
        edit next to an option name or a command mixes the two in a short hole on both sides)."""
        if cjk_sum_a is None or cjk_sum_b is None or a1 - a0 < 3 or b1 - b0 < 3:
            return False
        share_a = (cjk_sum_a[a1] - cjk_sum_a[a0]) / (a1 - a0)
        share_b = (cjk_sum_b[b1] - cjk_sum_b[b0]) / (b1 - b0)
        return (share_a >= 0.75 and share_b <= 0.25) or (share_b >= 0.75 and share_a <= 0.25)

    def could_be_translated(a0: int, a1: int, b0: int, b1: int) -> bool:
        """Whether any part of this hole from its start or to its end could be :func:`translated`:
        not when it is too short, nor when both sides are wholly CJK or both wholly words."""
        if cjk_sum_a is None or cjk_sum_b is None or a1 - a0 < 3 or b1 - b0 < 3:
            return False
        in_a, in_b = cjk_sum_a[a1] - cjk_sum_a[a0], cjk_sum_b[b1] - cjk_sum_b[b0]
        return not ((in_a == 0 and in_b == 0) or (in_a == a1 - a0 and in_b == b1 - b0))

    na, nb = len(codes_a), len(codes_b)
    # after these countable units lies removed text (plain lists: bisect is cheaper per call)
    cut_a = np.flatnonzero(jumps_a).tolist()
    cut_b = np.flatnonzero(jumps_b).tolist()
    w, h, s = rules.window, rules.max_hole, rules.short_run
    max_region = rules.max_region

    def seeds_between(a0: int, a1: int, b0: int, b1: int) -> list[Run]:
        if a1 - a0 < min_units or b1 - b0 < min_units:
            return []
        blocks = align(codes_a[a0:a1], codes_b[b0:b1])
        if cum is None:
            return [(a0 + i, b0 + j, n) for i, j, n in blocks if n >= min_units]
        return [(a0 + i, b0 + j, n) for i, j, n in blocks
                if n >= sure_units or (n >= min_units and cum[a0 + i + n] - cum[a0 + i] >= s - 1e-9)]

    def free_after(cuts: list[int], pos: int, limit: int) -> int:
        """Largest end ≤ limit such that [pos, end) crosses no removed text (pos: first unit)."""
        k = bisect_left(cuts, pos - 1)  # first cut at or after unit pos - 1
        return min(limit, cuts[k] + 1) if k < len(cuts) else limit

    def free_before(cuts: list[int], pos: int, limit: int) -> int:
        """Smallest start ≥ limit such that [start, pos) crosses no removed text (pos: one past)."""
        k = bisect_left(cuts, pos) - 1  # last cut before unit pos
        return max(limit, cuts[k] + 1) if k >= 0 else limit

    def crosses(cuts: list[int], end: int, start: int) -> bool:
        """True when removed text lies anywhere between unit ``end - 1`` and unit ``start``."""
        k = bisect_left(cuts, end - 1)
        return k < len(cuts) and cuts[k] <= start - 1

    def chain_forward(seeds: list[Run], ea: int, eb: int) -> list[Run]:
        taken = []
        for i, j, n in seeds:
            if i < ea or j < eb:
                continue
            if i - ea > h or j - eb > h or translated(ea, i, eb, j):
                break
            taken.append((i, j, n))
            ea, eb = i + n, j + n
        return taken

    def chain_backward(seeds: list[Run], sa: int, sb: int) -> list[Run]:
        taken = []
        for i, j, n in reversed(seeds):
            if i + n > sa or j + n > sb:
                continue
            if sa - (i + n) > h or sb - (j + n) > h or translated(i + n, sa, j + n, sb):
                break
            taken.append((i, j, n))
            sa, sb = i, j
        taken.reverse()
        return taken

    def extend_forward(ea: int, eb: int, lim_a: int, lim_b: int) -> list[Run]:
        """Seeds chained from (ea, eb) towards (lim_a, lim_b), one window at a time."""
        taken: list[Run] = []
        while True:
            wa, wb = min(lim_a, ea + w), min(lim_b, eb + w)
            more = chain_forward(seeds_between(ea, wa, eb, wb), ea, eb)
            if not more:
                return taken
            taken.extend(more)
            ea, eb = more[-1][0] + more[-1][2], more[-1][1] + more[-1][2]
            if (wa == lim_a and wb == lim_b) or (wa - ea > h and wb - eb > h):
                return taken  # the chain stopped inside the window, not at its edge

    def extend_backward(sa: int, sb: int, lim_a: int, lim_b: int) -> list[Run]:
        """Seeds chained from (sa, sb) back towards (lim_a, lim_b), one window at a time."""
        taken: list[Run] = []
        while True:
            wa, wb = max(lim_a, sa - w), max(lim_b, sb - w)
            more = chain_backward(seeds_between(wa, sa, wb, sb), sa, sb)
            if not more:
                return taken
            taken[:0] = more
            sa, sb = more[0][0], more[0][1]
            if (wa == lim_a and wb == lim_b) or (sa - wa > h and sb - wb > h):
                return taken

    def end_of(seeds: Sequence[Run], a0: int, b0: int) -> tuple[int, int]:
        return (seeds[-1][0] + seeds[-1][2], seeds[-1][1] + seeds[-1][2]) if seeds else (a0, b0)

    # Left edge of the first anchor, then every region between anchors, then the right edge.
    first = runs[0]
    groups: list[list[Run]] = [extend_backward(first[0], first[1], free_before(cut_a, first[0], 0),
                                               free_before(cut_b, first[1], 0)) + [first]]
    # Most regions between consecutive anchors (thousands per long copy) are decided without a
    # local alignment: a hole narrower than a seed in either text holds no seed, so the anchors
    # are one passage exactly when the hole is small, open and not a translation, and otherwise
    # the next anchor starts a chain of its own (nothing to chain back to it). These are found
    # for all regions at once; only the others go through the loop below.
    attention: list[int] = []  # the regions that are not quick joins
    if len(runs) > 1:  # (one anchor, as for two identical texts: no region, no numpy call)
        joins, quick, opened = _quick_regions(runs, cut_a, cut_b, min_units, h)
        if cjk_sum_a is not None:
            for k in np.flatnonzero(joins).tolist():
                prev, nxt = runs[k], runs[k + 1]
                joins[k] = not translated(prev[0] + prev[2], nxt[0], prev[1] + prev[2], nxt[1])
        attention = np.flatnonzero(~joins).tolist()
    placed = 0  # runs[:placed + 1] are in groups
    most = [0]  # for each group, the seed units its holes could hold at most
    hole_max = min(h, max_region)
    for k in attention:
        groups[-1].extend(runs[placed + 1 : k + 1])  # regions placed..k-1 joined their anchors
        placed = k + 1
        nxt = runs[k + 1]
        if quick[k]:
            groups.append([nxt])
            most.append(0)
            continue
        prev = runs[k]
        ea, eb = prev[0] + prev[2], prev[1] + prev[2]
        sa, sb = nxt[0], nxt[1]
        open_between = bool(opened[k])
        if (holes and open_between and 0 <= sa - ea <= hole_max and 0 <= sb - eb <= hole_max
                and not could_be_translated(ea, sa, eb, sb)):
            # Joined whatever seeds the hole holds (it is within max_hole, and no part of it can
            # be a translation); they are looked for only if a density test needs them.
            groups[-1].append(_Hole(ea, eb, 0, sa, sb))
            groups[-1].append(nxt)
            # seeds are disjoint in both texts; at least 1, so that a chain holding a hole is
            # known by its bound (the hole is not quick: ≥ min_units units on each side)
            most[-1] += max(1, min(sa - ea, sb - eb))
            continue
        if open_between and sa - ea <= max_region and sb - eb <= max_region:
            seeds = seeds_between(ea, sa, eb, sb)  # a small region without removed text: align it whole
            fwd = chain_forward(seeds, ea, eb)
        else:
            seeds = []
            fwd = extend_forward(ea, eb, free_after(cut_a, ea, sa), free_after(cut_b, eb, sb))
        groups[-1].extend(fwd)
        end_a, end_b = end_of(fwd, ea, eb)
        if sa - end_a <= h and sb - end_b <= h and open_between and not translated(end_a, sa, end_b, sb):
            groups[-1].append(nxt)  # the chain reached the next anchor: one passage
            continue
        if seeds:
            back = [r for r in chain_backward(seeds, sa, sb) if r[0] >= end_a and r[1] >= end_b]
        else:
            back = extend_backward(sa, sb, max(end_a, free_before(cut_a, sa, end_a)),
                                   max(end_b, free_before(cut_b, sb, end_b)))
        groups.append(back + [nxt])
        most.append(0)
    groups[-1].extend(runs[placed + 1 :])
    last = runs[-1]
    ea, eb = last[0] + last[2], last[1] + last[2]
    groups[-1].extend(extend_forward(ea, eb, free_after(cut_a, ea, na), free_after(cut_b, eb, nb)))

    # Chains that stopped short of each other are one passage when the gap between them is
    # small beside both (a cluster of edits inside one copied section).
    anchor_set = set(runs)
    # Seed and anchor units of each chain, summed once and added up as chains join (the density
    # test of a join would otherwise walk the whole joined chain again).
    # A hole counts no seed units until resolved (so a chain dense without them is dense), and
    # at most ``most`` (so a chain thin even with them is thin); only in between are they found.
    sums = [(sum(r[2] for r in g), sum(r[2] for r in g if r in anchor_set)) for g in groups]

    def resolved(chain: list) -> list[Run]:
        """The chain with the seeds of its holes in their place (as the full search finds them)."""
        out: list[Run] = []
        for r in chain:
            if r.__class__ is _Hole:
                out.extend(chain_forward(seeds_between(r.i, r.end_a, r.j, r.end_b), r.i, r.j))
            else:
                out.append(r)
        return out

    merged: list[list[Run]] = [groups[0]]
    merged_sums, merged_most = [sums[0]], [most[0]]
    for group, (matched, anchored), more in zip(groups[1:], sums[1:], most[1:]):
        prev = merged[-1]
        ea, eb = end_of(prev, 0, 0)
        sa, sb = group[0][0], group[0][1]
        joint = (ea - prev[0][0]) + (group[-1][0] + group[-1][2] - sa)
        allowed = max(h, int(rules.gap_share * joint))
        joined = (merged_sums[-1][0] + matched, merged_sums[-1][1] + anchored)
        if (sa - ea <= allowed and sb - eb <= allowed
                and not crosses(cut_a, ea, sa) and not crosses(cut_b, eb, sb) and not translated(ea, sa, eb, sb)):
            dense_now = _dense(prev[0], group[-1], *joined, rules)
            if (not dense_now and merged_most[-1] + more
                    and _dense(prev[0], group[-1], joined[0] + merged_most[-1] + more, joined[1], rules)):
                prev[:], group = resolved(prev), resolved(group)
                merged_sums[-1] = (sum(r[2] for r in prev), merged_sums[-1][1])
                matched, merged_most[-1], more = sum(r[2] for r in group), 0, 0
                joined = (merged_sums[-1][0] + matched, joined[1])
                dense_now = _dense(prev[0], group[-1], *joined, rules)
            if dense_now:
                prev.extend(group)
                merged_sums[-1] = joined
                merged_most[-1] += more
                continue
        merged.append(group)
        merged_sums.append((matched, anchored))
        merged_most.append(more)

    out = []
    for seeds, (matched, anchored), more in zip(merged, merged_sums, merged_most):
        if more and not _dense(seeds[0], seeds[-1], matched, anchored, rules):
            seeds = resolved(seeds)  # the density test needs the seeds of the holes
            matched = sum(r[2] for r in seeds)
        if not _dense(seeds[0], seeds[-1], matched, anchored, rules):
            # Too thin to call one passage: first drop what lies beyond the outer anchors,
            # then, if still too thin, let the anchors stand alone.
            at = [k for k, r in enumerate(seeds) if r in anchor_set]
            seeds = seeds[at[0] : at[-1] + 1]
            if not _dense_enough(seeds, anchor_set, rules):
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
    """For each region, True when removed text lies anywhere between unit ``end - 1`` and unit
    ``start`` (``crosses`` in :func:`_chained_passages`, for many regions at once)."""
    if not cuts:
        return np.zeros(len(end), dtype=bool)
    c = np.asarray(cuts, dtype=np.int64)
    k = np.searchsorted(c, end - 1, side="left")
    return (k < len(c)) & (c[np.minimum(k, len(c) - 1)] <= start - 1)


def _dense_enough(seeds: Sequence[Run], anchors: set[Run], rules: PassageRules) -> bool:
    """Seeds cover ``min_density`` and anchors ``min_anchor_share`` of the chain, in each text."""
    return _dense(seeds[0], seeds[-1], sum(r[2] for r in seeds), sum(r[2] for r in seeds if r in anchors), rules)


def _dense(first: Run, last: Run, matched: int, anchored: int, rules: PassageRules) -> bool:
    """:func:`_dense_enough` of a chain from ``first`` to ``last`` holding ``matched`` seed
    units, ``anchored`` of them in anchors."""
    length = max(last[0] + last[2] - first[0], last[1] + last[2] - first[1])
    return matched >= rules.min_density * length and anchored >= rules.min_anchor_share * length


def passages_of(
    a: Units,
    b: Units,
    spans: Sequence[MatchSpan],
    pos_a: np.ndarray,
    pos_b: np.ndarray,
    codes_a: np.ndarray,
    codes_b: np.ndarray,
    align,
    rules: PassageRules = DEFAULT_RULES,
) -> tuple[tuple[Passage, ...], int, int]:
    """The edited passages of a comparison whose exact runs are ``spans``.

    ``pos_*``: original unit index of each countable unit; ``codes_*``: their codes. Returns the
    passages and the countable units they cover in A and in B (gaps inside passages included).
    """
    if not spans:
        return (), 0, 0
    found = _found(a, b, _runs_of_spans(a, b, spans, pos_a, pos_b), pos_a, pos_b, codes_a, codes_b, align, rules)
    passages = []
    cover_a = cover_b = 0
    for start_a, end_a, start_b, end_b, seeds in found:
        cover_a += end_a - start_a
        cover_b += end_b - start_b
        exact = tuple(
            MatchSpan(a=_chars(a, pos_a, i, i + n), b=_chars(b, pos_b, j, j + n), units=n) for i, j, n in seeds
        )
        passages.append(Passage(
            a=_chars(a, pos_a, start_a, end_a), b=_chars(b, pos_b, start_b, end_b),
            units_a=end_a - start_a, units_b=end_b - start_b,
            matched_units=sum(n for _, _, n in seeds), runs=exact,
        ))
    return tuple(passages), cover_a, cover_b


def passage_cover(
    a: Units,
    b: Units,
    runs: Sequence[Run],
    pos_a: np.ndarray,
    pos_b: np.ndarray,
    codes_a: np.ndarray,
    codes_b: np.ndarray,
    align,
    rules: PassageRules = DEFAULT_RULES,
    countable: tuple[tuple[np.ndarray, np.ndarray | None], tuple[np.ndarray, np.ndarray | None]] | None = None,
) -> tuple[int, int]:
    """The countable units the passages cover in A and in B, as :func:`passages_of` counts them,
    from the exact runs in countable coordinates and without building the passages (what the
    collection-wide pass stores: on 2,375 copy-heavy files, building them was a tenth of it).

    ``countable``: A's and B's :func:`countable_marks` (what :func:`_found` derives from each
    side's units and positions), when the caller keeps them
    (the pass's prepared documents: the same for every comparison they take part in)."""
    if not runs:
        return 0, 0
    found = _found(a, b, runs, pos_a, pos_b, codes_a, codes_b, align, rules, counts_only=True, countable=countable)
    return sum(e - s for s, e, _, _, _ in found), sum(e - s for _, _, s, e, _ in found)


def countable_marks(u: Units, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Of the countable units ``pos`` of ``u``: True between k and k + 1 where removed text lies
    (nothing is merged across it), and which are CJK characters (None when ``u`` does not say)."""
    return np.diff(pos) > 1, None if u.cjk is None else u.cjk[pos]


def _found(a: Units, b: Units, runs: Sequence[Run], pos_a: np.ndarray, pos_b: np.ndarray, codes_a: np.ndarray,
           codes_b: np.ndarray, align, rules: PassageRules, counts_only: bool = False,
           countable: tuple | None = None) -> list[tuple[int, int, int, int, tuple[Run, ...]]]:
    (jumps_a, cjk_a), (jumps_b, cjk_b) = countable or (countable_marks(a, pos_a), countable_marks(b, pos_b))
    if cjk_a is None or cjk_b is None:  # (both sides' flags, or neither's)
        cjk_a = cjk_b = None
    return find_passages(runs, codes_a, codes_b, jumps_a, jumps_b, align, rules, cjk_a, cjk_b, counts_only)


def _runs_of_spans(a: Units, b: Units, spans: Sequence[MatchSpan], pos_a: np.ndarray, pos_b: np.ndarray) -> list[Run]:
    """The exact runs behind match spans, in countable coordinates (a span starts on a unit)."""
    first_a = np.searchsorted(pos_a, np.searchsorted(a.starts, [s.a[0] for s in spans]))
    first_b = np.searchsorted(pos_b, np.searchsorted(b.starts, [s.b[0] for s in spans]))
    return [(int(i), int(j), s.units) for i, j, s in zip(first_a, first_b, spans)]


def _chars(u: Units, pos: np.ndarray, start: int, end: int) -> tuple[int, int]:
    return int(u.starts[pos[start]]), int(u.ends[pos[end - 1]])
