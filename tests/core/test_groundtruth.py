"""The brute-force ground truth and the evaluation scripts built on it (benchmarks/), on exact cases."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))

import eval_quality as eq  # noqa: E402
import evalcorpus as ec  # noqa: E402
import groundtruth as gt  # noqa: E402

from neardup_gui.core.units import tokenize  # noqa: E402


def _ids(seq: list[int] | str) -> np.ndarray:
    return np.array([ord(c) if isinstance(c, str) else c for c in seq], dtype=np.uint64)


def _lcs_len_reference(a: list[int], b: list[int]) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
    return table[-1][-1]


def test_seed_004_example_lcs_and_ratio() -> None:
    # seed 004: A = abcabba, B = cbabac, LCS = caba (length 4), r = 4 / (7 + 6 - 4)
    t = gt.truth_of_texts("a b c a b b a", "c b a b a c", min_run=1)
    assert (t.len_a, t.len_b, t.lcs, t.common) == (7, 6, 4, 4)
    assert t.similarity == pytest.approx(4 / 9)
    # the runs chained into one passage: A[1:7], B[1:5], the unmatched units between them included
    assert t.containment_a == pytest.approx(6 / 7)
    assert t.containment_b == pytest.approx(4 / 6)


def test_seed_004_example_runs_with_tie_breaking() -> None:
    # Matches are taken as late as possible (traceback from the end, diagonal on equal units,
    # "up" on ties): the LCS found is b,a,b,a rather than the seed's c,a,b,a.
    pairs = gt.lcs_pairs(_ids("abcabba"), _ids("cbabac"))
    assert len(pairs) == 4
    assert pairs == [(1, 1), (3, 2), (5, 3), (6, 4)]
    assert [r.length for r in gt.runs_of(pairs)] == [1, 1, 2]
    # with min_run = 2 only the run "ba" (A[5:7], B[3:5]) counts
    t = gt.truth_of_ids(_ids("abcabba"), _ids("cbabac"), min_run=2)
    assert t.lcs == 4 and t.common == 2
    assert t.runs == (gt.Run(5, 3, 2),)
    assert t.similarity == pytest.approx(2 / (7 + 6 - 2))


def test_min_run_keeps_only_long_runs() -> None:
    # A = run of 8 shared + 5 own + run of 3 shared; B = the same shared parts, other filler
    shared8 = list(range(100, 108))
    shared3 = [200, 201, 202]
    a = shared8 + [1, 2, 3, 4, 5] + shared3
    b = [9, 9] + shared8 + [7] + shared3 + [8]
    t8 = gt.truth_of_ids(_ids(a), _ids(b), min_run=8)
    # the LCS is taken over units of shared 8-grams only: the 3-unit run never competes
    assert (t8.lcs, t8.common) == (8, 8)
    literal = gt.truth_of_ids(_ids(a), _ids(b), min_run=8, restrict=False)
    assert (literal.lcs, literal.common) == (11, 8)
    assert t8.runs == (gt.Run(0, 2, 8),)
    assert t8.similarity == pytest.approx(8 / (16 + 15 - 8))
    assert t8.containment_a == pytest.approx(8 / 16)
    t3 = gt.truth_of_ids(_ids(a), _ids(b), min_run=3)
    assert t3.common == 11
    assert t3.similarity == pytest.approx(11 / (16 + 15 - 11))
    t9 = gt.truth_of_ids(_ids(a), _ids(b), min_run=9)
    assert t9.common == 0 and t9.similarity == 0.0


def test_identical_and_disjoint_texts() -> None:
    text = "The committee screens every proposal for resubmissions before review."
    t = gt.truth_of_texts(text, text)
    assert t.common == t.len_a == 9 and t.similarity == 1.0
    t = gt.truth_of_texts(text, "Completely different words appear in this other sentence here.")
    assert t.common == 0 and t.similarity == 0.0


def test_chinese_units_are_characters() -> None:
    a = "本项目研究水稻抗旱基因的表达调控机制。"
    b = "我们的项目研究水稻抗旱基因的表达调控网络。"
    t = gt.truth_of_texts(a, b, min_run=8)
    # shared run: 项目研究水稻抗旱基因的表达调控 = 15 characters
    assert t.common == 15
    assert (t.len_a, t.len_b) == (18, 20)
    assert t.similarity == pytest.approx(15 / (18 + 20 - 15))


def test_lcs_length_matches_reference_on_random_sequences() -> None:
    rng = random.Random(4)
    for _ in range(300):
        a = [rng.randrange(3) for _ in range(rng.randrange(0, 14))]
        b = [rng.randrange(3) for _ in range(rng.randrange(0, 14))]
        pairs = gt.lcs_pairs(_ids(a), _ids(b))
        assert len(pairs) == _lcs_len_reference(a, b)
        assert all(a[i] == b[j] for i, j in pairs)
        assert all(p[0] < q[0] and p[1] < q[1] for p, q in zip(pairs, pairs[1:]))


def test_prefilter_is_exact() -> None:
    # docs 0 and 1 share an 8-gram; doc 2 shares only 7-grams with both
    base = list(range(1000, 1020))
    docs = [
        _ids(base),
        _ids([1, 2] + base[5:13] + [3]),
        _ids(base[0:7] + [5] + base[10:17]),
    ]
    truths = gt.all_pairs(docs, min_run=8)
    assert set(truths) == {(0, 1)}
    assert truths[(0, 1)].common == 8
    # the prefilter never hides a pair with common > 0: compare with the DP on every pair
    for i in range(3):
        for j in range(i + 1, 3):
            assert (gt.truth_of_ids(docs[i], docs[j], 8).common > 0) == ((i, j) in truths)


# --- the evaluation's scoring (benchmarks/eval_quality.py) on a hand-made truth -----------

HAND_TRUTH = {
    "seed": 1, "min_run": 8, "truth_from": "source", "small": True,
    "documents": [{"path": f"docs/{n}"} for n in ("a.docx", "b.pdf", "c.txt", "d.docx", "t1.docx",
                                                  "t2.pdf", "t3.txt", "p.docx", "s.docx")],
    "pairs": [
        {"a": "docs/a.docx", "b": "docs/b.pdf", "similarity": 0.95, "similarity_no_template": 0.95},
        {"a": "docs/a.docx", "b": "docs/c.txt", "similarity": 0.72, "similarity_no_template": 0.72},
        {"a": "docs/c.txt", "b": "docs/d.docx", "similarity": 0.505, "similarity_no_template": 0.505},
        {"a": "docs/t1.docx", "b": "docs/t2.pdf", "similarity": 0.6, "similarity_no_template": 0.0},
        {"a": "docs/t1.docx", "b": "docs/t3.txt", "similarity": 0.6, "similarity_no_template": 0.0},
        {"a": "docs/p.docx", "b": "docs/s.docx", "similarity": 0.3, "similarity_no_template": 0.3},
    ],
    "planted": [
        {"path": "docs/p.docx", "kind": "partial",
         "sources": [{"path": "docs/s.docx", "similarity": 0.3, "containment_of_copy": 0.45}]},
        {"path": "docs/c.txt", "kind": "partial",
         "sources": [{"path": "docs/a.docx", "similarity": 0.72, "containment_of_copy": 0.2}]},
        {"path": "docs/b.pdf", "kind": "resub", "sources": [{"path": "docs/a.docx"}]},
    ],
    "template_groups": {"en": ["docs/t1.docx", "docs/t2.pdf", "docs/t3.txt"]},
}

# what the CLI printed: absolute paths, one pair missed just below the grey zone edge, one
# template pair reported, one pair that is not true at all
HAND_PAIRS = [
    {"a": "/x/docs/b.pdf", "b": "/x/docs/a.docx", "similarity": 0.94},
    {"a": "/x/docs/a.docx", "b": "/x/docs/c.txt", "similarity": 0.69},
    {"a": "/x/docs/t1.docx", "b": "/x/docs/t3.txt", "similarity": 0.6},
    {"a": "/x/docs/d.docx", "b": "/x/docs/c.txt", "similarity": 0.51},
]


def test_score_pairs_counts_hits_misses_and_false_alarms() -> None:
    sims = eq.truth_similarities(HAND_TRUTH)
    s5 = eq.score_pairs(sims, HAND_PAIRS, 0.5, grey=0.01)
    # true ≥ 0.5: ab, ac, cd; reported ≥ 0.5: ab, ac, t1t3, cd
    assert (s5.true_pairs, s5.reported, s5.hits) == (3, 4, 3)
    assert s5.recall == 1.0 and s5.precision == pytest.approx(3 / 4)
    assert (s5.misses_grey, s5.false_grey) == (0, 0)
    s7 = eq.score_pairs(sims, HAND_PAIRS, 0.7, grey=0.01)
    # true ≥ 0.7: ab, ac; reported ≥ 0.7: ab only (ac reported at 0.69, truth 0.72: not grey)
    assert (s7.true_pairs, s7.reported, s7.hits) == (2, 1, 1)
    assert s7.recall == 0.5 and s7.precision == 1.0 and s7.misses_grey == 0
    s7g = eq.score_pairs(sims, HAND_PAIRS, 0.7, grey=0.03)
    assert s7g.misses_grey == 1 and s7g.recall_outside_grey == 1.0
    s9 = eq.score_pairs(sims, HAND_PAIRS, 0.9)
    assert (s9.true_pairs, s9.reported, s9.hits, s9.recall, s9.precision) == (1, 1, 1, 1.0, 1.0)


def test_first_rank_and_template_pairs() -> None:
    big = eq.partial_copies(HAND_TRUTH, 0.3)
    small = eq.partial_copies(HAND_TRUTH, 0.1, 0.3)
    assert [c["path"] for c in big] == ["docs/p.docx"] and [c["path"] for c in small] == ["docs/c.txt"]
    check = [
        # the copy itself ranks first (it is in the index): it must be skipped
        {"path": "/x/docs/p.docx", "matches": [{"path": "/x/docs/p.docx", "similarity": 1.0},
                                               {"path": "/x/docs/s.docx", "similarity": 0.3}]},
        {"path": "/x/docs/c.txt", "matches": [{"path": "/x/docs/d.docx", "similarity": 0.51},
                                              {"path": "/x/docs/a.docx", "similarity": 0.72}]},
    ]
    r_big = eq.score_first_rank(big, check, "≥ 30 %")
    assert (r_big.copies, r_big.first, r_big.share, r_big.failures) == (1, 1, 1.0, ())
    r_small = eq.score_first_rank(small, check, "10–30 %")
    assert (r_small.first, r_small.failures) == (0, ("c.txt",))
    assert eq.template_pairs_reported(HAND_TRUTH, HAND_PAIRS) == (1, 3)
    table = eq.markdown(HAND_TRUTH, [eq.score_pairs(eq.truth_similarities(HAND_TRUTH), HAND_PAIRS, 0.5)],
                        [r_big, r_small], (1, 3), {"index": 1.0})
    assert "| pairs ≥ 0.5: precision (3/4) | 0.750 | ≥ 0.98 |" in table
    assert "| template-only overlaps: pairs reported at 0.5 (of 3) | 1 | 0 |" in table


# --- the evaluation collection's edits (benchmarks/evalcorpus.py) on real text ----------


def test_edits_are_deterministic_and_resubmissions_hit_their_target(corpus_dir) -> None:
    sections = ec.read_sections(corpus_dir / "debian-reference-en")
    paras = dict(sections)["ch01-010"] if "ch01-010" in dict(sections) else sections[5][1]
    pool = [s for _, p in sections[-5:] for s in p][:10]
    assert ec.apply_edits(paras, "en", 6, 3, pool) == ec.apply_edits(paras, "en", 6, 3, pool)
    assert ec.apply_edits(paras, "en", 0, 3, pool) == paras
    base = ec.Doc("base", "en", "original", paras)
    for target in (0.9, 0.7):
        edited, sim = ec.plant_resubmission(base, target, 11, pool, 8)
        # exact, recomputed independently of the search
        assert gt.truth_of_texts(base.text, "\n".join(edited)).similarity == pytest.approx(sim)
        assert abs(sim - target) < 0.1  # (one edit of this short section moves it by up to 0.16)


def test_strip_form_removes_exactly_the_form_units() -> None:
    for lang, content in (("en", "Glacier meltwater is routed through channels beneath the ice."),
                          ("zh", "冰川融水通过冰下通道排出，影响夏末河流流量。")):
        form = ec.FORM[lang]
        text = "\n".join(form["head"] + [content] + form["tail"])
        assert tokenize(ec.strip_form(text, lang)).tokens == tokenize(content).tokens


def test_restricted_lcs_keeps_a_copied_passage_whole() -> None:
    """A passage copied into a host whose earlier units match it by chance: the literal LCS may
    spend the passage's first units on the chance matches; the product's definition may not."""
    passage = list(range(500, 520))
    host_a = [1, 500, 501, 2] + passage
    host_b = passage + [3]
    restricted = gt.truth_of_ids(_ids(host_a), _ids(host_b), min_run=8)
    assert restricted.common == 20
    assert restricted.runs == (gt.Run(4, 0, 20),)
