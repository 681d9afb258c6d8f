"""Copying counted in any order: moved paragraphs are copied text, and the figures agree.

The containments count every copied passage wherever it sits in the source (a tiling: each unit
of either text in one passage at most); the similarity stays seed 004's order-preserving ratio,
over the identical units of the in-order passages, the same units the containments count. The
truth here is of another kind than the product's alignment: shares known by construction, and
the order-free coverage by 8-grams found anywhere in the source, computed with a set of tuples.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.corpus import corpus_dir
from neardup_gui.core.compare import compare_documents
from neardup_gui.core.prepared import UnitCodes, compare_prepared, prepare_document
from neardup_gui.core.units import tokenize

MIN_RUN = 8
LANGS = {"zh": "debian-reference-zh-cn", "en": "debian-reference-en"}


def ngram_cover(text: str, source: str, n: int = MIN_RUN) -> float:
    """Share of ``text``'s units inside an ``n``-gram found anywhere in ``source``."""
    a, b = tokenize(text).ids.tolist(), tokenize(source).ids.tolist()
    grams = {tuple(b[i:i + n]) for i in range(len(b) - n + 1)}
    covered = np.zeros(len(a), dtype=bool)
    for i in range(len(a) - n + 1):
        if tuple(a[i:i + n]) in grams:
            covered[i:i + n] = True
    return float(covered.mean()) if len(a) else 0.0


def assert_tiling(c) -> None:
    """Passages in A's order, disjoint in both texts; the figures are their arithmetic."""
    assert list(c.passages) == sorted(c.passages, key=lambda p: (p.a, p.b))
    for side in ("a", "b"):
        spans = sorted(getattr(p, side) for p in c.passages)
        assert all(x[1] <= y[0] for x, y in zip(spans, spans[1:])), side
    assert c.passage_units_a == sum(p.units_a for p in c.passages)
    assert c.passage_units_b == sum(p.units_b for p in c.passages)
    assert c.common_units == sum(p.matched_units for p in c.passages if not p.moved)
    assert c.similarity == pytest.approx(c.common_units / (c.units_a + c.units_b - c.common_units))
    assert c.containment_a == pytest.approx(c.passage_units_a / c.units_a)


def shuffled_copy(path, rng: random.Random, foreign: list[str]) -> tuple[str, str, float]:
    """The source's paragraphs shuffled, ``foreign`` ones mixed in; and the share of the copy's
    units that came from the source (by construction)."""
    source = path.read_text(encoding="utf-8")
    paragraphs = [p for p in source.split("\n") if p.strip()]
    rng.shuffle(paragraphs)
    mixed = paragraphs + foreign
    rng.shuffle(mixed)
    copied = sum(len(tokenize(p)) for p in paragraphs)
    return "\n".join(mixed), source, copied / max(copied + sum(len(tokenize(p)) for p in foreign), 1)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_copy_of_shuffled_paragraphs_is_counted_as_copied(lang: str) -> None:
    """Each source's paragraphs shuffled, three foreign paragraphs mixed in: the source's
    containment is at least the order-free coverage by 8-grams (less 0.05), and at most what was
    copied by construction; where one alignment in order found a fraction of it. (Lines shorter
    than a run, a table's cells, count when they are revised passages: short runs in order.)"""
    files = sorted((corpus_dir() / LANGS[lang]).glob("*.txt"))
    rng = random.Random(44)
    checked = 0
    for path in rng.sample(files, 40):
        if sum(1 for p in path.read_text(encoding="utf-8").split("\n") if p.strip()) < 6:
            continue
        other = rng.choice(files).read_text(encoding="utf-8")
        copy, source, share = shuffled_copy(path, rng, [p for p in other.split("\n") if p.strip()][:3])
        c = compare_documents(copy, source, min_run=MIN_RUN)
        assert ngram_cover(copy, source) - 0.05 <= c.containment_a <= share + 0.02, path.name
        assert c.similarity < c.containment_a
        assert_tiling(c)
        checked += 1
        if checked == 8:
            break
    assert checked == 8


def test_moved_passages_are_numbered_on_both_sides_and_hold_identical_text() -> None:
    paragraphs = [" ".join(f"p{k}w{i}" for i in range(30)) for k in range(6)]
    source = "\n".join(paragraphs)
    copy = "\n".join(paragraphs[3:] + paragraphs[:3])  # the second half first
    c = compare_documents(copy, source, min_run=MIN_RUN)
    assert c.containment_a == c.containment_b == 1.0
    assert [p.moved for p in c.passages] == [False, True]  # the in-order half, then the moved one
    for p in c.passages:
        for run in p.runs:
            assert tokenize(copy[run.a[0]:run.a[1]]).tokens == tokenize(source[run.b[0]:run.b[1]]).tokens
    assert_tiling(c)
    assert c.similarity == pytest.approx(90 / (180 + 180 - 90))  # in order: half of each


@settings(max_examples=60, deadline=None)
@given(sizes=st.lists(st.integers(10, 60), min_size=2, max_size=9), seed=st.integers(0, 2**16),
       edit=st.sampled_from([0.0, 0.05]))
def test_property_shuffling_paragraphs_moves_containment_by_the_boundaries_only(sizes, seed, edit) -> None:
    """Shuffling the paragraphs of a copy changes its containment by at most what each cut
    boundary can cost (a passage edge: fewer than ``min_run`` units lost on either side)."""
    rng = random.Random(seed)
    paragraphs = [[f"t{k}u{i}" for i in range(n)] for k, n in enumerate(sizes)]
    source = "\n".join(" ".join(p) for p in paragraphs)
    edited = [[w if rng.random() >= edit else f"x{rng.randrange(10**6)}" for w in p] for p in paragraphs]
    in_order = "\n".join(" ".join(p) for p in edited)
    order = list(range(len(edited)))
    rng.shuffle(order)
    moved = "\n".join(" ".join(edited[k]) for k in order)
    straight = compare_documents(in_order, source, min_run=MIN_RUN)
    shuffled = compare_documents(moved, source, min_run=MIN_RUN)
    cut = sum(1 for x, y in zip(order, order[1:]) if y != x + 1) + 1  # boundaries the shuffle cut
    n = straight.units_a
    assert abs(shuffled.passage_units_a - straight.passage_units_a) <= 2 * MIN_RUN * cut
    assert shuffled.containment_a >= straight.containment_a - 2 * MIN_RUN * cut / n
    assert_tiling(shuffled)


def test_one_dropped_word_in_a_short_text_is_one_arithmetic() -> None:
    """Two 55-unit texts one word apart: everything but that word is identical, so the figures
    say so (the 7 units after the edit, too short to be a run alone, are in the passage)."""
    words = [f"w{i}" for i in range(55)]
    a, b = " ".join(words), " ".join(words[:47] + words[48:])
    c = compare_documents(a, b, min_run=MIN_RUN)
    assert c.containment_a == c.containment_b == 1.0
    assert c.common_units == 54
    assert c.similarity == pytest.approx(54 / (55 + 54 - 54)) and c.similarity >= 0.95


@settings(max_examples=40, deadline=None)
@given(sizes=st.lists(st.integers(8, 40), min_size=2, max_size=6), seed=st.integers(0, 2**16))
def test_property_the_prepared_comparison_finds_the_same_moved_passages(sizes, seed) -> None:
    rng = random.Random(seed)
    paragraphs = [" ".join(f"q{k}v{i % rng.choice([3, 50])}" for i in range(n)) for k, n in enumerate(sizes)]
    order = list(range(len(paragraphs)))
    rng.shuffle(order)
    a, b = "\n".join(paragraphs[k] for k in order), "\n".join(paragraphs)
    plain = compare_documents(a, b, min_run=MIN_RUN, with_raw_lcs=False)
    codes = UnitCodes()
    pa, pb = (prepare_document(tokenize(t), min_run=MIN_RUN, codes=codes) for t in (a, b))
    fast = compare_prepared(pa, pb)
    counts = compare_prepared(pa, pb, counts_only=True)
    assert (fast.similarity, fast.containment_a, fast.containment_b, fast.passages) == \
        (plain.similarity, plain.containment_a, plain.containment_b, plain.passages)
    assert (counts.similarity, counts.containment_a, counts.containment_b) == \
        (plain.similarity, plain.containment_a, plain.containment_b)
