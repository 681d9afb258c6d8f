"""Prepared documents (per-document work once per pass) give exactly the plain comparison."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.copyheavy import light_edit
from tests.corpus import corpus_dir
from neardup_gui.core import align as align_module
from neardup_gui.core import prepared as prepared_module
from neardup_gui.core.compare import compare_documents
from neardup_gui.core.prepared import compare_prepared, prepare_document, UnitCodes
from neardup_gui.core.exclusions import quoted_spans
from neardup_gui.core.units import paragraphs, tokenize

MIN_RUN = 8


def corpus_texts(lang: str) -> list[str]:
    folder = corpus_dir() / f"debian-reference-{lang}"
    return [p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt"))]


def both_ways(text_a: str, text_b: str, codes: UnitCodes, *, min_run: int = MIN_RUN, template_a=(), template_b=(),
              excluded_a=(), excluded_b=(), **cuts):
    plain = compare_documents(text_a, text_b, min_run=min_run, template_a=template_a, template_b=template_b,
                              excluded_a=excluded_a, excluded_b=excluded_b, with_raw_lcs=False, **cuts)
    pa = prepare_document(tokenize(text_a), min_run=min_run, codes=codes, template=template_a, excluded=excluded_a)
    pb = prepare_document(tokenize(text_b), min_run=min_run, codes=codes, template=template_b, excluded=excluded_b)
    return plain, compare_prepared(pa, pb, **cuts)


def test_prepared_equals_plain_on_real_resubmissions_and_unrelated_sections() -> None:
    rng = random.Random(16)
    codes = UnitCodes()  # one per pass: shared by every document below
    compared = 0
    for lang in ("en", "zh-cn"):
        texts = corpus_texts(lang)
        for i in range(0, len(texts), 9):
            edited = light_edit(texts[i], rng.uniform(0.005, 0.05), rng)
            for other in (edited, texts[(i + 1) % len(texts)], texts[i] + "\n" + texts[(i + 5) % len(texts)]):
                plain, fast = both_ways(texts[i], other, codes)
                assert fast == plain
                compared += 1
    assert compared > 100
    assert len(codes) > 5000  # the codes really were shared by both languages' documents


def test_prepared_equals_plain_with_template_and_excluded_text() -> None:
    en = corpus_texts("en")
    form = en[40]
    a = form + "\n" + en[3] + "\n“" + en[7][:300] + "”"
    b = en[3] + "\n" + form + "\n“" + en[7][:300] + "”"
    codes = UnitCodes()
    plain, fast = both_ways(a, b, codes, template_a=[(0, len(form))], template_b=[(len(en[3]) + 1, len(en[3]) + 1 + len(form))],
                            excluded_a=quoted_spans(a), excluded_b=quoted_spans(b))
    assert fast == plain
    assert plain.template_share_a > 0.1 and plain.excluded_share_a > 0  # the marks really applied
    assert plain.common_units > 0


def test_prepared_cutoffs_return_none_only_below_them() -> None:
    rng = random.Random(5)
    zh = corpus_texts("zh-cn")
    codes = UnitCodes()
    seen_none = seen_kept = 0
    for i in range(0, len(zh), 4):
        for other in (light_edit(zh[i], rng.uniform(0.0, 0.15), rng), zh[(i + 3) % len(zh)]):
            full, _ = both_ways(zh[i], other, codes)
            for cuts in ({"min_similarity": 0.8}, {"min_similarity": 0.5, "min_containment": 0.6}):
                plain, fast = both_ways(zh[i], other, codes, **cuts)
                if fast is None:
                    seen_none += 1
                    assert full.similarity < cuts["min_similarity"]
                    assert max(full.containment_a, full.containment_b) < cuts.get("min_containment", 2.0)
                else:
                    seen_kept += 1
                    assert fast == plain == full
    assert seen_none > 10 and seen_kept > 10


def test_prepared_lcs_bound_prunes_long_selections(monkeypatch) -> None:
    """With the LCS bound forced on, the answers are the same (it is exact) and it prunes."""
    monkeypatch.setattr(prepared_module, "LCS_BOUND_MIN_CELLS", 0)
    en = corpus_texts("en")
    codes = UnitCodes()
    # reordered paragraphs: many shared windows, a short LCS
    paras = [en[10][s:e] for s, e in paragraphs(en[10])]
    shuffled = "\n".join(paras[::-1])
    plain, fast = both_ways(en[10], shuffled, codes, min_similarity=0.9)
    full, _ = both_ways(en[10], shuffled, codes)
    assert full.similarity < 0.9 and fast is None


def test_hash_collision_falls_back_to_exact_labels(monkeypatch) -> None:
    """Every window hashed alike: the prepared path must still find exactly the shared k-grams."""
    monkeypatch.setattr(align_module, "_HASH_MULTIPLIER", np.uint64(0))  # hash = last unit only
    monkeypatch.setattr(prepared_module, "_HASH_MULTIPLIER", np.uint64(0))
    en = corpus_texts("en")
    codes = UnitCodes()
    plain, fast = both_ways(en[20], en[20][: len(en[20]) // 2] + " extra words here " + en[21], codes)
    assert fast == plain and plain.common_units > 0


@settings(max_examples=150, deadline=None)
@given(
    a=st.lists(st.integers(0, 6), max_size=60),
    b=st.lists(st.integers(0, 6), max_size=60),
    min_run=st.integers(1, 5),
    cut_a=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 8)), max_size=3),
    cut_b=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 8)), max_size=3),
)
def test_prepared_equals_plain_on_generated_sequences(a, b, min_run, cut_a, cut_b) -> None:
    """Tiny alphabets (many ties, repeated windows), gaps from template spans, every min_run."""
    words = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta"]
    text_a, text_b = " ".join(words[x] for x in a), " ".join(words[x] for x in b)
    tpl_a = [(s * 3, s * 3 + n * 3) for s, n in cut_a]
    tpl_b = [(s * 3, s * 3 + n * 3) for s, n in cut_b]
    codes = UnitCodes()
    plain, fast = both_ways(text_a, text_b, codes, min_run=min_run, template_a=tpl_a, template_b=tpl_b)
    assert fast == plain
    plain, fast = both_ways(text_a, text_b, codes, min_run=min_run, template_a=tpl_a, template_b=tpl_b,
                            min_similarity=0.5)
    assert fast is None or fast == plain


@settings(max_examples=150, deadline=None)
@given(
    a=st.lists(st.integers(0, 9), max_size=80),
    b=st.lists(st.integers(0, 9), max_size=80),
    buckets=st.sampled_from([1, 2, 3, 1024]),
    cut_a=st.lists(st.tuples(st.integers(0, 80), st.integers(0, 8)), max_size=3),
)
def test_bag_bound_is_never_below_the_common_units(a, b, buckets, cut_a) -> None:
    """The bucketed bag of units bounds the common units from above, whatever the buckets
    (1 bucket: the shorter length; 3: every bucket shared by many units) and the removed text."""
    words = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa"]
    text_a, text_b = " ".join(words[x] for x in a), " ".join(words[x] for x in b)
    tpl_a = [(s * 3, s * 3 + n * 3) for s, n in cut_a]
    saved = prepared_module.BAG_BUCKETS
    prepared_module.BAG_BUCKETS = buckets
    try:
        codes = UnitCodes()
        pa = prepare_document(tokenize(text_a), min_run=2, codes=codes, template=tpl_a)
        pb = prepare_document(tokenize(text_b), min_run=2, codes=codes)
        bound = int(prepared_module.bag_bounds(pa, [pb, pa])[0])
        same = int(prepared_module.bag_bounds(pa, [pb, pa])[1])
    finally:
        prepared_module.BAG_BUCKETS = saved
    plain = compare_documents(text_a, text_b, min_run=2, template_a=tpl_a, with_raw_lcs=False)
    assert bound >= plain.common_units
    assert same == len(pa.codes)  # a document shares its whole bag with itself


def test_bag_bound_rejects_same_length_text_of_another_kind_before_alignment(monkeypatch) -> None:
    """Two unrelated sections of about the same length pass the length bound; the bag of units
    rules them out at 0.8 without an alignment, and a light edit still gets through."""
    en = corpus_texts("en")
    codes = UnitCodes()
    base = en[30]
    other = next(t for t in en if t is not base and abs(len(t) - len(base)) < 0.1 * len(base))
    pa, pb = (prepare_document(tokenize(t), min_run=MIN_RUN, codes=codes) for t in (base, other))
    edit = prepare_document(tokenize(light_edit(base, 0.02, random.Random(3))), min_run=MIN_RUN, codes=codes)
    aligned = []
    real = prepared_module._aligned_comparison
    monkeypatch.setattr(prepared_module, "_aligned_comparison", lambda *a, **k: aligned.append(1) or real(*a, **k))
    assert compare_prepared(pa, pb, min_similarity=0.8) is None
    assert not aligned
    assert "windows" not in pb.__dict__  # its window hashes were never needed
    kept = compare_prepared(pa, edit, min_similarity=0.8)
    assert kept is not None and kept.similarity >= 0.8 and aligned


def _figures(c):
    return None if c is None else (c.similarity, c.containment_a, c.containment_b, c.common_units,
                                   c.passage_units_a, c.passage_units_b)


def test_counts_only_gives_the_figures_of_the_full_comparison() -> None:
    """The pass asks for the figures only; they must be those of the full comparison (passages
    counted the same way), on edited copies in both languages, with and without removed text."""
    rng = random.Random(5)
    codes = UnitCodes()
    checked = 0
    for lang in ("en", "zh-cn"):
        texts = corpus_texts(lang)
        for i in range(0, len(texts), 11):
            base = texts[i]
            for rate in (0.02, 0.1, 0.3):
                copy = light_edit(base, rate, rng) + "\n" + texts[(i + 5) % len(texts)][:400]
                quoted_a, quoted_b = quoted_spans(base), quoted_spans(copy)
                pa = prepare_document(tokenize(base), min_run=MIN_RUN, codes=codes, excluded=quoted_a)
                pb = prepare_document(tokenize(copy), min_run=MIN_RUN, codes=codes, excluded=quoted_b)
                full = compare_prepared(pa, pb)
                short = compare_prepared(pa, pb, counts_only=True)
                assert _figures(short) == _figures(full)
                assert short.spans == () and short.passages == ()
                checked += full.passage_units_a > full.common_units  # passages reached past the runs
    assert checked > 5


@settings(max_examples=150, deadline=None)
@given(
    a=st.lists(st.integers(0, 6), max_size=60),
    b=st.lists(st.integers(0, 6), max_size=60),
    min_run=st.integers(1, 5),
    cut_a=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 8)), max_size=3),
)
def test_counts_only_equals_full_on_generated_sequences(a, b, min_run, cut_a) -> None:
    words = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta"]
    text_a, text_b = " ".join(words[x] for x in a), " ".join(words[x] for x in b)
    tpl_a = [(s * 3, s * 3 + n * 3) for s, n in cut_a]
    codes = UnitCodes()
    pa = prepare_document(tokenize(text_a), min_run=min_run, codes=codes, template=tpl_a)
    pb = prepare_document(tokenize(text_b), min_run=min_run, codes=codes)
    assert _figures(compare_prepared(pa, pb, counts_only=True)) == _figures(compare_prepared(pa, pb))


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 3000), st.integers(0, 3000), st.sampled_from([None, 0.05, 0.3, 0.5, 0.8, 0.9, 0.99, 1.0]),
       st.sampled_from([None, 0.1, 0.5, 0.9]), st.one_of(st.none(), st.integers(0, 3000)), st.integers(0, 500))
def test_least_reaching_is_the_first_count_not_below_the_cutoffs(n_a, n_b, min_similarity, min_containment,
                                                                  identical_bound, revised) -> None:
    """The guess tried before the bisection (the similarity alone) changes nothing: the fewest
    anchor units from which _below_cutoffs is false, read count by count."""
    from neardup_gui.core.compare import _below_cutoffs

    if min_similarity is None and min_containment is None:
        return
    got = prepared_module._least_reaching(n_a, n_b, min_similarity, min_containment, identical_bound, revised)
    want = next((c for c in range(min(n_a, n_b) + 1)
                 if not _below_cutoffs(c, n_a, n_b, min_similarity, min_containment, identical_bound, revised)), None)
    assert got == want
