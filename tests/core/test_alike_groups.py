"""The common passages' parts are grouped by the documents holding them (core/common_passages.py:
``alike_groups``): prefix filtering gives exactly the groups of comparing each part with every
group's first part in turn, the quadratic scan it replaced (12 s for the 3,309 passages of
3,000 documents; 54 s for the 4,578 of the generated 10,000)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from neardup_gui.core.common_passages import _jaccard, alike_groups
from neardup_gui.core.templates import SAME_DOCUMENTS


def jaccard(a: frozenset[int], b: frozenset[int]) -> float:
    """The definition (the union built): what ``_jaccard`` computes without building it."""
    return len(a & b) / len(a | b) if a or b else 1.0


@given(st.frozensets(st.integers(0, 60), max_size=40), st.frozensets(st.integers(0, 60), max_size=40))
@settings(max_examples=300, deadline=None)
def test_jaccard_is_the_definition_to_the_bit(a, b):
    assert _jaccard(a, b) == jaccard(a, b)


def scanned(sets: list[frozenset[int]], same: float) -> list[int]:
    """The quadratic scan: each set joins the first group whose first set is alike, or opens one."""
    firsts: list[frozenset[int]] = []
    out = []
    for s in sets:
        for g, first in enumerate(firsts):
            if jaccard(first, s) >= same:
                out.append(g)
                break
        else:
            out.append(len(firsts))
            firsts.append(s)
    return out


def _families(rng: random.Random, n: int, universe: int) -> list[frozenset[int]]:
    """Sets as common passages give them: a few documents' sets, each repeated with a few members
    added or dropped (a form's parts, some applicants deleting an instruction), and strays."""
    bases = [frozenset(rng.sample(range(universe), rng.randint(1, min(universe, 40)))) for _ in range(max(1, n // 6))]
    out = []
    for _ in range(n):
        if rng.random() < 0.15:
            out.append(frozenset(rng.sample(range(universe), rng.randint(0, min(universe, 12)))))
            continue
        s = set(rng.choice(bases))
        for _ in range(rng.randint(0, 4)):
            if s and rng.random() < 0.5:
                s.discard(rng.choice(sorted(s)))
            else:
                s.add(rng.randrange(universe))
        out.append(frozenset(s))
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 12), max_size=10), max_size=40),
       st.sampled_from([SAME_DOCUMENTS, 0.5, 0.6, 0.75, 0.9, 1.0, 0.01, 0.0]))
def test_the_groups_of_the_quadratic_scan_on_any_sets(sets, same):
    assert alike_groups(sets, same) == scanned(sets, same)


def test_the_groups_of_the_quadratic_scan_on_near_alike_families():
    rng = random.Random(16)
    for trial in range(60):
        sets = _families(rng, rng.randint(1, 300), rng.choice([5, 30, 200, 3000]))
        for same in (SAME_DOCUMENTS, 0.7, 0.9):
            assert alike_groups(sets, same) == scanned(sets, same), (trial, same)


def test_sizes_at_the_threshold_exactly():
    """Overlaps that reach the threshold exactly (4 of 5 at 0.8): a prefix one element too short
    (⌈0.8 × 5⌉ computed as 5, 0.8 × 5 being 4.000000000000001 in floating point) would miss them."""
    a = frozenset(range(5))
    for dropped in range(5):
        b = a - {dropped}  # 4 / 5 = 0.8: alike
        assert alike_groups([a, b]) == [0, 0] == scanned([a, b], SAME_DOCUMENTS)
        c = (a - {dropped}) | {99}  # 4 / 6: not alike
        assert alike_groups([a, c]) == [0, 1] == scanned([a, c], SAME_DOCUMENTS)
    for n in range(1, 60):  # every size: n − ⌊0.2 n⌋ common of n
        big = frozenset(range(n))
        small = frozenset(range(n - int(n * 0.2 + 1e-9)))
        assert alike_groups([big, small]) == scanned([big, small], SAME_DOCUMENTS)
        assert alike_groups([small, big]) == scanned([small, big], SAME_DOCUMENTS)
