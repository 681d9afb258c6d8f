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


def revised_paragraphs(n: int, seeds: int = 6, seed_len: int = 4) -> tuple[list[str], list[str]]:
    """``n`` source paragraphs and their revisions: runs of ``seed_len`` words kept, each next
    word replaced, so no run of ``MIN_RUN`` is left (each revision is a revised passage alone)."""
    source, revised = [], []
    for k in range(n):
        s, r = [], []
        for j in range(seeds):
            kept = [f"p{k}s{j}w{i}" for i in range(seed_len)]
            s += kept + [f"p{k}old{j}"]
            r += kept + [f"p{k}new{j}"]
        source.append(" ".join(s))
        revised.append(" ".join(r))
    return source, revised


def test_revised_paragraphs_count_in_any_order() -> None:
    """Four revised paragraphs (short runs in order, none of ``MIN_RUN``) shuffled: each is a
    revised passage wherever it moved, not only those one alignment in order reaches."""
    source, revised = revised_paragraphs(4)
    copy = "\n".join(revised[k] for k in (3, 1, 0, 2))
    c = compare_documents(copy, "\n".join(source), min_run=MIN_RUN)
    assert [p.revised for p in c.passages] == [True] * 4
    assert c.containment_a == pytest.approx(116 / 120)  # each passage ends on its last seed
    assert_tiling(c)


def test_short_sentences_of_a_shuffled_paragraph_count_between_copied_ones() -> None:
    """A paragraph's sentences shuffled, every other one shorter than a run: each short one sits
    between copied sentences in both texts, word for word the same, so it is copied too."""
    lengths = [12, 4, 11, 5, 13, 3, 10, 6, 12, 7]
    sentences = [" ".join(f"s{k}w{i}" for i in range(n)) + "." for k, n in enumerate(lengths)]
    order = [4, 9, 0, 5, 8, 3, 2, 7, 6, 1]  # long and short alternate, no neighbour kept
    copy, source = " ".join(sentences[k] for k in order), " ".join(sentences)
    c = compare_documents(copy, source, min_run=MIN_RUN)
    assert c.containment_a == c.containment_b == 1.0
    short = [p for p in c.passages if p.units_a < MIN_RUN]
    assert len(short) == 5 and all(p.moved and p.matched_units == p.units_a for p in short)
    assert_tiling(c)


def test_a_short_phrase_shared_inside_other_text_is_not_copied() -> None:
    """A short phrase of the source found in the copy's own text is no copy: the stretch between
    copied text must be the same, word for word and whole, in both texts."""
    copied = " ".join(f"c{i}" for i in range(20))
    own_a, own_b = (" ".join(f"{x}{i}" for i in range(40)) for x in "xy")
    source = f"{copied} {own_a} the same file name {own_a}"
    copy = f"{copied} {own_b} the same file name {own_b}"
    c = compare_documents(copy, source, min_run=MIN_RUN)
    assert c.passage_units_a == 20


@settings(max_examples=60, deadline=None)
@given(lengths=st.lists(st.integers(1, 14), min_size=2, max_size=12), seed=st.integers(0, 2**16))
def test_property_shuffled_sentences_are_counted_once(lengths, seed) -> None:
    """Sentences of any length shuffled: passages stay disjoint and exact, each unit counted once."""
    rng = random.Random(seed)
    sentences = [" ".join(f"s{k % 4}w{i % 5}" if rng.random() < 0.3 else f"s{k}w{i}" for i in range(n)) + "."
                 for k, n in enumerate(lengths)]
    order = list(range(len(sentences)))
    rng.shuffle(order)
    copy, source = " ".join(sentences[k] for k in order), " ".join(sentences)
    c = compare_documents(copy, source, min_run=MIN_RUN)
    assert_tiling(c)
    assert c.containment_a <= 1.0 and c.containment_b <= 1.0
    for p in c.passages:
        for run in p.runs:
            assert tokenize(copy[run.a[0]:run.a[1]]).tokens == tokenize(source[run.b[0]:run.b[1]]).tokens


def test_a_run_is_not_kept_from_its_sentence_by_the_short_seeds_of_another() -> None:
    """Two sentences of a paragraph swapped, both starting with the same words: the passage in
    order runs on into the wrong sentence and joins its short pieces across the differences
    (seeds of 4 and 6 characters), which would leave the right sentence of the copy no run of 8 in
    the source. An exact run of ``min_run`` takes precedence over short seeds: every sentence is
    found whole, each unit counted once, the similarity over what stays in order."""
    source = ("通常使用符号链接比使用硬链接更合适，除非你有一个好理由使用硬链接。\n\n"
              "“.”目录链接到它所在的目录，因此任何新建目录的链接数从2开始。"
              "“..”目录链接到父目录，因此目录的链接数随着新的子目录的创建而增加。")
    copy = ("通常使用符号链接比使用硬链接更合适，除非你有一个好理由使用硬链接。\n"
            "“..”目录链接到父目录，因此目录的链接数随着新的子目录的创建而增加。"
            "“.”目录链接到它所在的目录，因此任何新建目录的链接数从2开始。")
    c = compare_documents(copy, source, min_run=MIN_RUN)
    assert c.containment_a == c.containment_b == 1.0  # was 0.69 / 0.77
    assert not any(r.units < MIN_RUN for p in c.passages if not p.moved for r in p.runs)
    assert_tiling(c)
