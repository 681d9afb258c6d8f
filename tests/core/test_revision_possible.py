"""Whether a revised passage can exist at all (compare.revision_possible, core/_kernels.c
``chain_bound``): a test that lets the comparison skip the search for revised passages, so it
must never say "impossible" where the search finds one. Checked three ways: the kernel against a
readable reference of the same bound; the search with and without the test on revised copies,
shuffled revised copies and unrelated texts of both languages (the same passages); and that it
does rule out what chance shares (two unrelated sections of one book), which is what it is for."""

from __future__ import annotations

import random
from collections import defaultdict

import numpy as np
import pytest

from neardup_gui.core import compare
from neardup_gui.core.compare import REVISION, compare_documents, revision_possible
from neardup_gui.core.prepared import UnitCodes, _revision_possible_prepared, compare_prepared, prepare_document
from neardup_gui.core.units import tokenize
from tests.core.test_revised_seeds import _revise, _sections

_kernels = pytest.importorskip("neardup_gui.core._kernels")


def _reference(ca: np.ndarray, cb: np.ndarray, w: np.ndarray, rules=REVISION) -> tuple[int, float]:
    """The bound as the docstring of chain_bound states it, point by point: the most seeds and
    the most weight of a path through the pairs of equal k-windows (no negative code in them)."""
    k = rules.seed_units
    cw = np.concatenate([[0.0], np.cumsum(w)])
    where_b = defaultdict(list)
    for j in range(len(cb) - k + 1):
        g = tuple(cb[j:j + k])
        if min(g) >= 0:
            where_b[g].append(j)
    rows = {i: where_b.get(tuple(ca[i:i + k]), []) for i in range(len(ca) - k + 1) if min(ca[i:i + k]) >= 0}
    seeds, weight = {}, {}
    for i in sorted(rows):
        for j in rows[i]:
            c, wt = seeds.get((i - 1, j - 1), -1), -1.0
            if c >= 0:
                wt = weight[(i - 1, j - 1)] + w[i + k - 1]
            m = k  # a seed starts with units weighing seed_weight, all equal
            while i + m <= len(ca) and cw[i + m] - cw[i] < rules.seed_weight - 1e-9:
                m += 1
            if i + m <= len(ca) and j + m <= len(cb) and all(ca[i + t] >= 0 and ca[i + t] == cb[j + t]
                                                             for t in range(k, m)):
                before = [(seeds[(r, q)], weight[(r, q)]) for r in range(i - rules.max_hole - k, i - k + 1)
                          for q in rows.get(r, ()) if j - rules.max_hole - k <= q <= j - k and seeds[(r, q)] >= 0]
                c = max(c, 1 + max((s for s, _ in before), default=0))
                wt = max(wt, cw[i + k] - cw[i] + max((x for _, x in before), default=0.0))
            seeds[(i, j)], weight[(i, j)] = c, wt
    return max([0, *seeds.values()]), max([0.0, *weight.values()])


def test_the_kernel_computes_the_bound_its_reference_computes():
    rng = np.random.default_rng(3)
    for _ in range(600):
        na, nb = rng.integers(0, 160, 2)
        vocab = int(rng.integers(2, 6))
        ca, cb = rng.integers(0, vocab, na).astype(np.int64), rng.integers(0, vocab, nb).astype(np.int64)
        ca[rng.random(na) < 0.05], cb[rng.random(nb) < 0.05] = -1, -2  # units in a passage
        w = np.where(rng.random(na) < 0.5, 1.0, REVISION.word_weight)
        got = _kernels.chain_bound(ca, cb, w, REVISION.seed_units, REVISION.seed_weight, REVISION.max_hole,
                                   REVISION.min_seeds, 10**7)
        seeds, weight = _reference(ca, cb, w)
        assert got[0] == min(seeds, REVISION.min_seeds)
        if seeds >= REVISION.min_seeds:  # (the weight is computed where the seeds reach min_seeds)
            assert got[1] == pytest.approx(weight)


def test_a_bound_too_large_to_compute_says_nothing():
    same = np.zeros(200, dtype=np.int64)  # every window equals every other: 198² pairs
    assert _kernels.chain_bound(same, same, np.ones(200), 3, 4.0, 30, 4, 1000) is None
    assert compare.CHAIN_BOUND_MAX_POINTS >= 1_000_000
    # a phrase repeated: 100,000 pairs, 6 or 7 in every row of a window (the weight's reads bounded)
    phrase = np.tile(np.arange(5, dtype=np.int64), 200)
    assert _kernels.chain_bound(phrase, phrase[:500], np.ones(1000), 3, 4.0, 30, 4, 200_000) is None
    assert _kernels.chain_bound(phrase, phrase[:500], np.ones(1000), 3, 4.0, 30, 4, 10**7) is not None


def _cases(lang: str) -> list[tuple[str, str]]:
    """(submission, source) pairs: revised copies, revised copies with their paragraphs shuffled and
    another text's paragraphs mixed in, light edits, and unrelated sections of one book."""
    rng = random.Random(5)
    texts = _sections(lang, 12)
    out = []
    for n, source in enumerate(texts[:8]):
        other = texts[(n + 5) % len(texts)]
        heavy = _revise(source, rng, (3, 7) if n % 2 else (4, 9))
        paragraphs = [p for p in heavy.split("\n") if p.strip()] + [p for p in other.split("\n") if p.strip()][:2]
        rng.shuffle(paragraphs)
        out += [(heavy, source), ("\n".join(paragraphs), source), (_revise(source, rng, (10, 20)), source),
                (other, source)]
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_search_finds_the_same_revised_passages_with_the_test_as_without(lang, monkeypatch):
    cases = _cases(lang)
    got = [compare_documents(a, b, min_run=8, with_raw_lcs=False) for a, b in cases]
    monkeypatch.setattr(compare, "revision_possible", lambda *args, **kwargs: True)
    want = [compare_documents(a, b, min_run=8, with_raw_lcs=False) for a, b in cases]
    found = 0
    for g, w in zip(got, want):
        assert [(p.a, p.b, p.revised, p.moved) for p in g.passages] == [(p.a, p.b, p.revised, p.moved)
                                                                          for p in w.passages]
        assert (g.containment_a, g.containment_b, g.similarity) == (w.containment_a, w.containment_b, w.similarity)
        found += any(p.revised for p in g.passages)
    assert found >= 8  # the heavy revisions are found as revised passages, moved or not


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_prepared_comparison_rules_out_revisions_chance_cannot_make_and_answers_the_same(lang, monkeypatch):
    cases = _cases(lang)
    codes = UnitCodes()
    pairs = [(prepare_document(tokenize(a), min_run=8, codes=codes), prepare_document(tokenize(b), min_run=8,
                                                                                      codes=codes))
             for a, b in cases]
    ruled_out = [not _revision_possible_prepared(a, b) for a, b in pairs]
    got = [compare_prepared(a, b, min_similarity=0.01, min_containment=0.01) for a, b in pairs]
    got_pairs = [compare_prepared(a, b, min_similarity=0.5) for a, b in pairs]  # (no containment cut-off)
    monkeypatch.setattr(compare, "revision_possible", lambda *args, **kwargs: True)
    monkeypatch.setattr("neardup_gui.core.prepared.revision_possible", lambda *args, **kwargs: True)
    want = [compare_prepared(a, b, min_similarity=0.01, min_containment=0.01) for a, b in pairs]
    want_pairs = [compare_prepared(a, b, min_similarity=0.5) for a, b in pairs]
    cuts = [(0.01, 0.01)] * len(pairs) + [(0.5, None)] * len(pairs)
    for g, w, (least, contained) in zip(got + got_pairs, want + want_pairs, cuts):
        if g is None:  # ruled out: below both cut-offs (a bound may now prove what the alignment found)
            assert w is None or (w.similarity < least and (contained is None or max(
                w.containment_a, w.containment_b) < contained))
        else:
            assert [(p.a, p.b, p.revised) for p in g.passages] == [(p.a, p.b, p.revised) for p in w.passages]
            assert (g.containment_a, g.containment_b) == (w.containment_a, w.containment_b)
    # the unrelated sections (every fourth case) share short runs by chance, never a chain of them
    unrelated = ruled_out[3::4]
    assert sum(unrelated) >= len(unrelated) - 1
    assert not any(ruled_out[0::4])  # a heavy revision is never ruled out


def test_units_in_a_passage_match_nothing():
    text = tokenize("本项目研究分布式系统中的一致性问题，提出一种新的共识算法并给出证明。" * 3)
    codes = np.asarray(text.ids % 1000, dtype=np.int64)
    weight = np.ones(len(codes))
    free = np.zeros(len(codes), dtype=bool)
    assert revision_possible(codes, codes, free, free, weight)
    assert not revision_possible(codes, codes, ~free, free, weight)
