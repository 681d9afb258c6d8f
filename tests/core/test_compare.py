"""Exact comparison: LCS alignment against brute force, trustable runs, cut-offs, real text."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import LCSseq

from tests.corpus import corpus_dir
from neardup_gui.core import align as align_module
from neardup_gui.core.align import align, align_bit_parallel, lcs_length, myers_blocks
from neardup_gui.core.compare import compare_documents, compare_units, merge_spans, shared_kgram_mask, units_in_spans
from neardup_gui.core.settings import Settings
from neardup_gui.core.units import cjk_share, paragraphs, tokenize

MIN_RUN = Settings().min_run




def corpus_texts(lang: str) -> list[str]:
    folder = corpus_dir() / f"debian-reference-{lang}"
    return [p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt"))]


def brute_lcs(a: list[int], b: list[int]) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def assert_valid_blocks(blocks: list[tuple[int, int, int]], a: list[int], b: list[int]) -> None:
    last_i = last_j = 0
    for i, j, n in blocks:
        assert n > 0 and i >= last_i and j >= last_j
        assert a[i : i + n] == b[j : j + n]
        last_i, last_j = i + n, j + n


def light_edit(text: str, rng: random.Random, every: int = 60) -> str:
    """A resubmission: every ~``every`` characters delete, replace or insert a few characters."""
    out, i = [], 0
    filler = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经"
    while i < len(text):
        step = rng.randint(every // 2, every * 3 // 2)
        out.append(text[i : i + step])
        i += step
        r = rng.random()
        if r < 0.4:
            i += rng.randint(1, 3)
        elif r < 0.8:
            out.append("".join(rng.choice(filler) for _ in range(rng.randint(1, 3))))
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# align / myers_blocks against brute force
# ---------------------------------------------------------------------------------------------

small_seqs = st.lists(st.integers(min_value=0, max_value=4), max_size=18)


@settings(max_examples=300, deadline=None)
@given(small_seqs, small_seqs)
def test_align_and_myers_give_an_lcs(a: list[int], b: list[int]) -> None:
    expected = brute_lcs(a, b)
    ids_a, ids_b = np.array(a, dtype=np.uint64), np.array(b, dtype=np.uint64)
    fast = align(ids_a, ids_b)
    reference = myers_blocks(a, b)
    for blocks in (fast, reference, align_bit_parallel(ids_a, ids_b)):
        assert_valid_blocks(blocks, a, b)
        assert sum(n for _, _, n in blocks) == expected
    assert lcs_length(np.array(a, dtype=np.uint64), np.array(b, dtype=np.uint64)) == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=2**64 - 1), max_size=12), st.data())
def test_align_with_full_64_bit_ids(a: list[int], data: st.DataObject) -> None:
    b = data.draw(st.lists(st.sampled_from(a + [0, 2**64 - 1]), max_size=12))
    blocks = align(np.array(a, dtype=np.uint64), np.array(b, dtype=np.uint64))
    assert_valid_blocks(blocks, a, b)
    assert sum(n for _, _, n in blocks) == brute_lcs(a, b)


def test_ids_that_collide_in_python_hash_are_kept_apart() -> None:
    # hash(2**61 + 2) == hash(3): rapidfuzz, given raw ints, reports a false match.
    assert hash(2**61 + 2) == hash(3)
    assert LCSseq.similarity([2**61 + 2], [3]) == 1
    assert align(np.array([2**61 + 2, 7], dtype=np.uint64), np.array([3, 7], dtype=np.uint64)) == [(1, 1, 1)]


def test_myers_matches_rapidfuzz_on_real_chinese_text() -> None:
    rng = random.Random(7)
    text = corpus_texts("zh-cn")[3]
    edited = light_edit(text, rng)
    a, b = tokenize(text).ids, tokenize(edited).ids
    fast = align(a, b)
    reference = myers_blocks(a.tolist(), b.tolist())
    assert_valid_blocks(reference, a.tolist(), b.tolist())
    assert sum(n for *_, n in fast) == sum(n for *_, n in reference) == lcs_length(a, b)


def test_myers_gives_up_beyond_its_budget() -> None:
    a, b = list("abcabba"), list("cbabac")  # edit distance (insertions + deletions) 5
    assert myers_blocks(a, b, max_d=4) is None
    assert sum(n for *_, n in myers_blocks(a, b, max_d=5)) == 4


def test_kgram_hash_collisions_fall_back_to_exact_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    a = np.array([1, 2, 3, 4, 9, 1, 2, 3], dtype=np.uint64)
    b = np.array([7, 2, 3, 4, 8, 1, 2], dtype=np.uint64)
    expected = shared_kgram_mask(a, b, 3)
    # a multiplier of 0 hashes a k-gram to its last unit only: collisions everywhere
    monkeypatch.setattr(align_module, "_HASH_MULTIPLIER", np.uint64(0))
    got = shared_kgram_mask(a, b, 3)
    assert got[0].tolist() == expected[0].tolist() and got[1].tolist() == expected[1].tolist()


def test_myers_textbook_example_from_seed_004() -> None:
    # A = abcabba, B = cbabac: |LCS| = 4 (e.g. "caba"), r = 4 / (7 + 6 - 4)
    a, b = list("abcabba"), list("cbabac")
    blocks = myers_blocks(a, b)
    assert sum(n for *_, n in blocks) == 4
    assert_valid_blocks(blocks, a, b)


# ---------------------------------------------------------------------------------------------
# Trustable runs on hand-written text
# ---------------------------------------------------------------------------------------------


def test_hand_written_english_exact_numbers() -> None:
    a = "The committee funds basic research in physics. We measure the thermal noise of the mirror coatings at low temperature."
    b = "Our group will measure the thermal noise of the mirror coatings at low temperature and compare it with theory."
    result = compare_documents(a, b, min_run=8)
    # "measure the thermal noise of the mirror coatings at low temperature" = 11 units
    assert result.common_units == 11
    assert result.units_a == 19 and result.units_b == 19
    assert result.similarity == pytest.approx(11 / (19 + 19 - 11))
    assert result.containment_a == pytest.approx(11 / 19)
    (span,) = result.spans
    assert a[span.a[0] : span.a[1]] == "measure the thermal noise of the mirror coatings at low temperature"
    assert b[span.b[0] : span.b[1]] == "measure the thermal noise of the mirror coatings at low temperature"
    assert result.raw_lcs >= 11


def test_short_common_runs_do_not_count() -> None:
    a = "本项目研究深度学习模型的可解释性问题。"
    b = "该课题关注模型的可解释性与鲁棒性。"
    result = compare_documents(a, b, min_run=8)
    assert result.raw_lcs == 7  # 模型的可解释性
    assert result.common_units == 0 and result.similarity == 0.0 and result.spans == ()
    assert compare_documents(a, b, min_run=7).common_units == 7


def test_template_inside_a_copied_passage_splits_the_highlight() -> None:
    form = "（请在此处填写研究目标）"
    a = "我们提出一种基于图神经网络的方法" + form + "用于预测蛋白质之间的相互作用关系。"
    b = "前言。我们提出一种基于图神经网络的方法" + form + "用于预测蛋白质之间的相互作用关系。结束。"
    tpl_a = ((a.index(form), a.index(form) + len(form)),)
    tpl_b = ((b.index(form), b.index(form) + len(form)),)
    result = compare_documents(a, b, min_run=8, template_a=tpl_a, template_b=tpl_b)
    # 16 + 16 countable units align as one run across the removed form text, highlighted in two
    assert result.common_units == 32
    assert [s.units for s in result.spans] == [16, 16]
    for span in result.spans:
        assert not (span.a[0] < tpl_a[0][1] and span.a[1] > tpl_a[0][0])
        assert not (span.b[0] < tpl_b[0][1] and span.b[1] > tpl_b[0][0])
    assert a[slice(*result.spans[0].a)] == "我们提出一种基于图神经网络的方法"
    assert b[slice(*result.spans[1].b)] == "用于预测蛋白质之间的相互作用关系"
    assert result.template_a == tpl_a
    assert result.template_share_a == pytest.approx(10 / 42)  # 请在此处填写研究目标
    assert result.units_a == 32 and result.units_b == 32 + 4  # 前言, 结束


def test_excluded_units_are_removed_from_both_counts() -> None:
    a = "研究背景如下。“知识就是力量，这句话出自培根的名著”。我们的工作完全是原创的内容。"
    b = "另一份申请书。“知识就是力量，这句话出自培根的名著”。其余内容毫不相干而且很长很长。"
    qa = ((a.index("“"), a.index("”") + 1),)
    qb = ((b.index("“"), b.index("”") + 1),)
    plain = compare_documents(a, b, min_run=8)
    assert plain.common_units == 16
    excluded = compare_documents(a, b, min_run=8, excluded_a=qa, excluded_b=qb)
    assert excluded.common_units == 0
    assert excluded.units_a == plain.units_a - 16 and excluded.units_b == plain.units_b - 16
    assert excluded.excluded_share_a == pytest.approx(16 / plain.units_a)
    assert excluded.excluded_a == qa


def test_empty_and_tiny_inputs() -> None:
    result = compare_documents("", "", min_run=8)
    assert (result.similarity, result.containment_a, result.containment_b, result.common_units) == (0.0, 0.0, 0.0, 0)
    # identical is identical: two equal texts shorter than min_run are one whole run (issue 14)
    result = compare_documents("只有几个字", "只有几个字", min_run=8)
    assert result.common_units == 5 and result.similarity == 1.0 and result.raw_lcs == 5
    assert compare_documents("只有几个字", "只有几个字呀", min_run=8).common_units == 0
    assert compare_documents("只有几个字", "只有几个字", min_run=5).similarity == 1.0
    with pytest.raises(ValueError):
        compare_documents("a", "b", min_run=0)


def test_units_in_spans_and_merge() -> None:
    units = tokenize("ab 中文 cd")
    assert units_in_spans(units, [(1, 2)]).tolist() == [True, False, False, False]
    assert units_in_spans(units, [(3, 5), (7, 9)]).tolist() == [False, True, True, True]
    assert merge_spans([(5, 8), (0, 2), (2, 3), (7, 9), (4, 4)]) == ((0, 3), (5, 9))


def test_shared_kgram_mask_exact() -> None:
    a = np.array([1, 2, 3, 4, 9, 1, 2, 3], dtype=np.uint64)
    b = np.array([7, 2, 3, 4, 8, 1, 2], dtype=np.uint64)
    ma, mb = shared_kgram_mask(a, b, 3)
    assert ma.tolist() == [False, True, True, True, False, False, False, False]
    assert mb.tolist() == [False, True, True, True, False, False, False]


# ---------------------------------------------------------------------------------------------
# Real text: chance LCS, resubmissions, partial copies
# ---------------------------------------------------------------------------------------------


def chinese_prose(text: str) -> str:
    """The paragraphs of a section that are Chinese prose (the book also quotes shell commands)."""
    return "\n".join(text[s:e] for s, e in paragraphs(text) if cjk_share(text[s:e]) >= 0.9)


def test_unrelated_chinese_sections_have_large_raw_lcs_but_no_similarity() -> None:
    prose = [p for p in map(chinese_prose, corpus_texts("zh-cn")) if len(tokenize(p)) >= 400]
    assert len(prose) >= 12
    units = [tokenize(p) for p in prose[:12]]
    shares = []
    for i in range(0, len(units), 2):
        result = compare_units(units[i], units[i + 1], min_run=MIN_RUN, with_raw_lcs=True)
        shorter = min(result.units_a, result.units_b)
        shares.append(result.raw_lcs / shorter)
        assert result.raw_lcs / shorter > 0.12  # chance alone makes a long LCS ...
        assert result.similarity < 0.03  # ... which the trustable runs do not count
        if i == 0:  # pinned: the computation is exact and deterministic
            assert (result.units_a, result.units_b, result.raw_lcs, result.common_units) == (782, 823, 142, 0)
    assert sum(shares) / len(shares) > 0.15


def test_light_edit_resubmission_scores_high() -> None:
    rng = random.Random(11)
    text = max(corpus_texts("zh-cn"), key=len)
    edited = light_edit(text, rng)
    result = compare_documents(text, edited, min_run=MIN_RUN)
    assert result.similarity > 0.85
    assert result.containment_a > 0.9 and result.containment_b > 0.9
    assert compare_documents(text, edited, min_run=MIN_RUN) == result  # deterministic


def test_one_section_copy_high_containment_low_similarity() -> None:
    zh = corpus_texts("zh-cn")
    copied = zh[20]
    host = "\n".join([zh[30], zh[31], copied, zh[32], zh[33]])
    result = compare_documents(copied, host, min_run=MIN_RUN)
    assert result.containment_a == 1.0  # every unit of the copied section, none lost to chance
    assert result.similarity < 0.35
    full = compare_documents(copied, host, min_run=MIN_RUN, alignment="full")
    assert full.common_units < result.common_units  # plain LCS: ties give away the first units
    assert result.containment_b == pytest.approx(result.common_units / result.units_b)
    # every span of A lies in the copied section of the host
    offset = host.index(copied)
    assert all(offset <= s.b[0] and s.b[1] <= offset + len(copied) for s in result.spans)


def test_english_resubmission_and_unrelated() -> None:
    en = corpus_texts("en")
    rng = random.Random(3)
    words = en[12].split(" ")
    for _ in range(len(words) // 25):  # drop one word in 25
        del words[rng.randrange(len(words))]
    result = compare_documents(en[12], " ".join(words), min_run=MIN_RUN)
    assert result.similarity > 0.7
    unrelated = compare_documents(en[12], en[60], min_run=MIN_RUN)
    assert unrelated.similarity < 0.05


# ---------------------------------------------------------------------------------------------
# Cut-offs and the shared-k-gram alignment against the plain full alignment
# ---------------------------------------------------------------------------------------------


def _corpus_pairs(lang: str, count: int, seed: int):
    texts = corpus_texts(lang)
    rng = random.Random(seed)
    for _ in range(count):
        i, j = rng.sample(range(len(texts)), 2)
        kind = rng.randrange(3)
        if kind == 0:
            b = texts[j]
        elif kind == 1:
            b = light_edit(texts[i], rng, every=40)
        else:
            s = rng.randrange(len(texts[i]) // 2)
            b = texts[j][: len(texts[j]) // 2] + texts[i][s : s + len(texts[i]) // 3] + texts[j][len(texts[j]) // 2 :]
        yield tokenize(texts[i]), tokenize(b)


@pytest.mark.parametrize("lang", ["zh-cn", "en"])
def test_cutoff_never_drops_a_pair_that_reaches_it(lang: str) -> None:
    pruned = 0
    for ua, ub in _corpus_pairs(lang, 40, seed=21):
        exact = compare_units(ua, ub, min_run=MIN_RUN)
        fast = compare_units(ua, ub, min_run=MIN_RUN, min_similarity=0.5)
        full_fast = compare_units(ua, ub, min_run=MIN_RUN, min_similarity=0.5, alignment="full")
        if full_fast is None:  # the bound holds for the full alignment too
            assert compare_units(ua, ub, min_run=MIN_RUN, alignment="full").similarity < 0.5
        if fast is None:
            pruned += 1
            assert exact.similarity < 0.5
        else:
            assert fast == exact  # a returned result is exact
        part = compare_units(ua, ub, min_run=MIN_RUN, min_containment=0.2, with_raw_lcs=False)
        if part is None:
            assert max(exact.containment_a, exact.containment_b) < 0.2
        else:
            assert part.common_units == exact.common_units and part.spans == exact.spans
    assert pruned >= 10  # the unrelated pairs and most partial copies


def anchors(c) -> int:
    """The units of a comparison's exact runs of min_run (the anchors of its passages)."""
    return sum(s.units for s in c.spans)


@pytest.mark.parametrize("lang", ["zh-cn", "en"])
def test_shared_kgram_alignment_against_full_alignment(lang: str) -> None:
    total_full = total_kgram = 0
    for ua, ub in _corpus_pairs(lang, 60, seed=5):
        full = compare_units(ua, ub, min_run=MIN_RUN, alignment="full", with_raw_lcs=True)
        kgram = compare_units(ua, ub, min_run=MIN_RUN, with_raw_lcs=True)
        assert kgram.raw_lcs == full.raw_lcs
        # Both count only runs of an LCS-like alignment; they differ only by tie-breaking, by a
        # sliver of the shorter text, and the k-gram one is never far below.
        assert abs(anchors(kgram) - anchors(full)) <= 0.02 * min(full.units_a, full.units_b) + 2
        total_full += anchors(full)
        total_kgram += anchors(kgram)
    assert total_kgram >= total_full


def test_many_distinct_units_skip_the_surrogate_range() -> None:
    # more distinct units than code points below the surrogates: codes must still spell a str
    codes = np.array([0, 0xD7FF, 0xD800, 0xDFFF, 0x10F7FF], dtype=np.uint32)
    text = align_module._codes_to_str(codes)
    assert len(text) == 5 and len(set(text)) == 5
    assert [ord(c) for c in text] == [0, 0xD7FF, 0xE000, 0xE7FF, 0x10FFFF]
    ids = np.arange(60_000, dtype=np.uint64) * np.uint64(2**40)  # 60,000 distinct units
    assert lcs_length(ids, ids) == 60_000
    assert lcs_length(ids, ids[::-1][:5].copy()) == 1
    assert align(ids, ids[-4:].copy()) == [(59_996, 0, 4)]


def test_the_same_template_text_in_both_texts_does_not_cut_a_run():
    """Issue 14: template text at the aligned position of BOTH texts is taken out of both sides
    without cutting the copied passage around it; the highlight still skips the template."""
    from neardup_gui.core.compare import compare_documents

    shared_tail = "我国水稻种植面积约三千万公顷其中相当一部分分布在降水季节分配不均的丘陵和雨养地区"
    a = "锌指转录因子调控机制与育种应用\n研究背景\n" + shared_tail
    b = "关键基因的功能解析与分子育种应用\n研究背景\n" + shared_tail
    heading = (a.index("研究背景"), a.index("研究背景") + 4)
    heading_b = (b.index("研究背景"), b.index("研究背景") + 4)
    comp = compare_documents(a, b, min_run=8, template_a=[heading], template_b=[heading_b])
    # "育种应用" + [template heading] + tail is one copied run of 44 countable units
    assert [s.units for s in comp.spans] == [4, len(shared_tail)]
    assert comp.common_units == 4 + len(shared_tail)
    assert a[comp.spans[0].a[0]:comp.spans[0].a[1]] == "育种应用"
    assert a[comp.spans[1].a[0]:comp.spans[1].a[1]] == shared_tail
    # a different heading in B (not the same removed text) cuts the run: the 4 units are lost
    b2 = b.replace("研究背景", "立项依据")
    other = (b2.index("立项依据"), b2.index("立项依据") + 4)
    comp = compare_documents(a, b2, min_run=8, template_a=[heading], template_b=[other])
    assert [s.units for s in comp.spans] == [len(shared_tail)]


def test_the_more_coherent_of_two_lcs_tie_breaks_is_kept():
    """Two LCSs of equal length can keep different runs of min_run; the compare keeps the one
    with more units in runs (found by search; the forward tie-break alone keeps no run here)."""
    from neardup_gui.core import compare as C
    from neardup_gui.core.units import Units

    def units(ids):
        pos = np.arange(len(ids), dtype=np.int64)
        return Units(ids=np.array(ids, dtype=np.uint64), starts=pos, ends=pos + 1, text="x" * len(ids),
                     cjk=np.zeros(len(ids), dtype=bool))

    a = units([1, 3, 3, 3, 1, 1, 3, 1, 2, 1, 1, 2])
    b = units([2, 2, 1, 1, 1, 1, 3, 2, 2, 1])
    ca, cb, distinct = align_module._dense_codes(a.ids, b.ids)
    forward = align_module._align_sequences(*align_module._codes_as_sequences(ca, cb, distinct))
    pa, pb = C._aligned_pairs(forward, np.arange(12), np.arange(10))
    assert C._match_spans(a, b, pa, pb, np.arange(12), np.arange(10), 3)[1] == 0
    comp = C.compare_units(a, b, min_run=3, alignment="full")
    assert comp.common_units == 3
    assert [p.units_a for p in comp.passages if not p.moved] == [3]


@settings(max_examples=200, deadline=None)
@given(
    base=st.lists(st.integers(0, 5), min_size=1, max_size=120),
    edits=st.lists(st.tuples(st.integers(0, 119), st.integers(0, 5), st.booleans()), max_size=40),
)
def test_alignment_told_its_lcs_length_gives_the_same_blocks(base, edits) -> None:
    """With the LCS length known, Myers' diff is skipped only where it would have failed: the
    blocks are the same as without it, from near copies (Myers) to far ones (bit-parallel)."""
    other = list(base)
    for at, code, insert in edits:
        at = min(at, len(other))
        if insert:
            other.insert(at, code)
        elif other:
            other[min(at, len(other) - 1)] = code
    ca, cb = np.array(base, dtype=np.int64), np.array(other, dtype=np.int64)
    sa, sb = align_module._codes_as_sequences(ca, cb, 6)
    lcs = int(LCSseq.similarity(sa, sb))
    assert align_module._align_sequences(sa, sb, lcs=lcs) == align_module._align_sequences(sa, sb)


# ---------------------------------------------------------------------------------------------
# the compiled Myers diff (diff-match-patch) and its guards
# ---------------------------------------------------------------------------------------------


def apply_edits(base: list[int], edits: list[tuple[int, int, int]]) -> list[int]:
    """``base`` with each ``(at, code, kind)`` applied: 0 substitutes, 1 inserts, 2 deletes."""
    other = list(base)
    for at, code, kind in edits:
        at = min(at, len(other))
        if kind == 1 or not other:
            other.insert(at, code)
        elif kind == 0:
            other[min(at, len(other) - 1)] = code
        else:
            del other[min(at, len(other) - 1)]
    return other


@settings(max_examples=400, deadline=None)
@given(
    base=st.lists(st.integers(0, 6), max_size=150),
    edits=st.lists(st.tuples(st.integers(0, 149), st.integers(0, 6), st.integers(0, 2)), max_size=60),
)
def test_compiled_myers_gives_an_lcs_or_steps_aside_beyond_its_budget(base, edits) -> None:
    """Its blocks are a common subsequence as long as the LCS (brute force: rapidfuzz's length);
    it declines exactly when the edit distance exceeds its budget."""
    other = apply_edits(base, edits)
    sa, sb = align_module._codes_as_sequences(np.array(base, dtype=np.int64), np.array(other, dtype=np.int64), 7)
    lcs = int(LCSseq.similarity(sa, sb))
    blocks = align_module._compiled_myers_blocks(sa, sb, None)
    within = len(sa) + len(sb) - 2 * lcs <= align_module.dmp_budget(len(sa), len(sb))
    if not within:
        assert blocks is None
        return
    assert blocks is not None
    assert_valid_blocks(blocks, list(sa), list(sb))
    assert sum(n for *_, n in blocks) == lcs
    assert align_module._compiled_myers_blocks(sa, sb, lcs) == blocks  # told its length: the same
    # told an upper bound of the length (the bag of units: the search for it starts nearer), the same
    bag = sum(min(base.count(c), other.count(c)) for c in set(base))
    assert bag >= lcs
    assert align_module._compiled_myers_blocks(sa, sb, None, bag) == blocks
    assert align_module._compiled_myers_blocks(sa, sb, None, lcs) == blocks


def test_compiled_myers_on_real_text_and_unrelated_text() -> None:
    rng = random.Random(11)
    texts = corpus_texts("zh-cn")
    text = "\n".join(texts[:8])
    a, b = tokenize(text).ids, tokenize(light_edit(text, rng, every=600)).ids  # a resubmission
    ca, cb, distinct = align_module._dense_codes(a, b)
    sa, sb = align_module._codes_as_sequences(ca, cb, distinct)
    assert len(sa) + len(sb) - 2 * lcs_length(a, b) <= align_module.dmp_budget(len(sa), len(sb))
    blocks = align_module._compiled_myers_blocks(sa, sb, None)
    assert blocks is not None and sum(n for *_, n in blocks) == lcs_length(a, b)
    assert_valid_blocks(blocks, list(sa), list(sb))
    # two unrelated long texts: far beyond the budget, the banded LCS says so and the diff never runs
    u = tokenize("\n".join(texts[8:16])).ids
    cu, cv, distinct = align_module._dense_codes(a, u)
    su, sv = align_module._codes_as_sequences(cu, cv, distinct)
    assert len(su) * len(sv) > 1_000_000
    assert align_module._compiled_myers_blocks(su, sv, None) is None
    assert sum(n for *_, n in align_module._align_sequences(su, sv)) == lcs_length(a, u)  # bit-parallel


def test_a_diff_that_is_not_an_lcs_is_set_aside(caplog) -> None:
    """The guard: told a length the diff does not reach, the blocks are refused (and logged)."""
    sa, sb = "abcabbaxyz", "cbabacxyz"
    lcs = int(LCSseq.similarity(sa, sb))
    assert align_module._compiled_myers_blocks(sa, sb, lcs) is not None
    with caplog.at_level("WARNING"):
        assert align_module._compiled_myers_blocks(sa, sb, lcs - 1) is None
    assert "compiled diff gave no LCS" in caplog.text


def test_banded_lcs_at_a_cut_off_equal_to_the_lcs() -> None:
    """rapidfuzz's banded LCS returned 0 for these two real selections (a pass's candidate pair)
    at a cut-off equal to their LCS, 400: the pass dropped 44 of 25,295 pairs of 10,000 generated
    documents. Our bound widens the band and keeps them."""
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).parents[1] / "fixtures" / "rapidfuzz_cutoff_edge.json").read_text())
    sa, sb = "".join(map(chr, data["a"])), "".join(map(chr, data["b"]))
    lcs = data["lcs"]
    assert LCSseq.similarity(sa, sb) == lcs
    for cut in range(lcs - 40, lcs + 1):
        assert align_module._lcs_length_sequences(sa, sb, at_least=cut) == lcs
    assert align_module._lcs_length_sequences(sa, sb, at_least=lcs + 1) == 0


@settings(max_examples=300, deadline=None)
@given(
    base=st.lists(st.integers(0, 9), min_size=1, max_size=300),
    edits=st.lists(st.tuples(st.integers(0, 299), st.integers(0, 9), st.integers(0, 2)), max_size=40),
    below=st.integers(-3, 40),
)
def test_banded_lcs_is_the_lcs_or_zero_below_its_cut_off(base, edits, below) -> None:
    other = apply_edits(base, edits)
    sa, sb = "".join(chr(0x100 + c) for c in base), "".join(chr(0x100 + c) for c in other)
    lcs = int(LCSseq.similarity(sa, sb))
    cut = max(0, lcs - below)
    assert align_module._lcs_length_sequences(sa, sb, at_least=cut) == (lcs if lcs >= cut else 0)
