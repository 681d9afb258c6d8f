"""Bounded-memory alignment: long pairs split at unique anchors give the unsplit answer."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import LCSseq

from benchmarks.copyheavy import light_edit
from benchmarks.repetitive import edited_pair, synthetic_copyright
from neardup_gui.core import align as align_module
from neardup_gui.core.align import _align_sequences, unique_anchors
from neardup_gui.core.compare import compare_documents
from neardup_gui.core.units import tokenize

MIN_RUN = 8


@pytest.fixture
def split_everything(monkeypatch):
    """Make every alignment "large", so the split path runs on test-sized inputs; count its uses."""
    calls = []
    real = align_module._anchored_blocks

    def counted(sa, sb):
        calls.append((len(sa), len(sb)))
        return real(sa, sb)

    monkeypatch.setattr(align_module, "_anchored_blocks", counted)
    monkeypatch.setattr(align_module, "_dmp_diff", None)  # the compiled diffs would serve first
    monkeypatch.setattr(align_module, "_myers", None)
    monkeypatch.setattr(align_module, "SPLIT_MIN_CELLS", 200_000)
    monkeypatch.setattr(align_module, "SPLIT_MYERS_MAX_D", 4)
    return calls


def unsplit(text_a: str, text_b: str):
    return compare_documents(text_a, text_b, min_run=MIN_RUN)


def test_repetitive_licence_collection_split_gives_the_exact_similarity(split_everything) -> None:
    a, b = edited_pair(synthetic_copyright(60))  # 60 near-identical stanzas, 2 % words dropped each
    with pytest.MonkeyPatch.context() as mp:  # the reference: no split
        mp.setattr(align_module, "SPLIT_MIN_CELLS", 10**18)
        mp.setattr(align_module, "SPLIT_MYERS_MAX_D", 10**9)
        exact = unsplit(a, b)
    split = unsplit(a, b)
    assert split_everything  # the split path really ran
    assert exact.similarity > 0.85
    assert split.similarity == exact.similarity and split.common_units == exact.common_units


def test_real_text_light_edit_split_gives_the_exact_count(split_everything, corpus_dir) -> None:
    sections = sorted((corpus_dir / "debian-reference-en").glob("*.txt"))[:30]
    text = "\n".join(p.read_text(encoding="utf-8") for p in sections)
    edited = light_edit(text, 0.02, random.Random(3))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(align_module, "SPLIT_MIN_CELLS", 10**18)
        mp.setattr(align_module, "SPLIT_MYERS_MAX_D", 10**9)
        exact = unsplit(text, edited)
    split = unsplit(text, edited)
    assert split_everything
    assert split.common_units == exact.common_units and split.similarity == exact.similarity


def test_split_alignment_is_a_common_subsequence_nearly_as_long_as_the_lcs(split_everything) -> None:
    a, b = edited_pair(synthetic_copyright(40), rate=0.05)  # heavier edits: anchors off the LCS exist
    ids_a, ids_b = tokenize(a).ids, tokenize(b).ids
    ca, cb, distinct = align_module._dense_codes(ids_a, ids_b)
    sa, sb = align_module._codes_as_sequences(ca, cb, distinct)
    blocks = _align_sequences(sa, sb)
    assert split_everything
    last_i = last_j = 0
    for i, j, n in blocks:
        assert i >= last_i and j >= last_j and sa[i:i + n] == sb[j:j + n]
        last_i, last_j = i + n, j + n
    assert sum(n for _, _, n in blocks) >= 0.995 * LCSseq.similarity(sa, sb)


def test_without_unique_anchors_windows_keep_memory_bounded(split_everything) -> None:
    ca, cb = "ab" * 450, "ab" * 400 + "b" + "ab" * 40  # every 12-unit run repeats: no anchor
    assert unique_anchors(np.frombuffer(ca.encode("utf-32-le"), "<u4").astype(np.int64),
                          np.frombuffer(cb.encode("utf-32-le"), "<u4").astype(np.int64)) == []
    blocks = _align_sequences(ca, cb)
    assert all(ca[i:i + n] == cb[j:j + n] for i, j, n in blocks)
    assert 0.9 * LCSseq.similarity(ca, cb) <= sum(n for _, _, n in blocks) <= LCSseq.similarity(ca, cb)


@settings(max_examples=120, deadline=None)
@given(a=st.lists(st.integers(0, 30), min_size=0, max_size=200), b=st.lists(st.integers(0, 30), max_size=200),
       k=st.integers(1, 6))
def test_unique_anchors_are_unique_equal_increasing_and_disjoint(a, b, k) -> None:
    ca, cb = np.array(a, dtype=np.int64), np.array(b, dtype=np.int64)
    anchors = unique_anchors(ca, cb, k)
    grams_a = [tuple(a[i:i + k]) for i in range(len(a) - k + 1)]
    grams_b = [tuple(b[j:j + k]) for j in range(len(b) - k + 1)]
    end_i = end_j = 0
    for i, j in anchors:
        gram = tuple(a[i:i + k])
        assert gram == tuple(b[j:j + k])
        assert grams_a.count(gram) == 1 and grams_b.count(gram) == 1
        assert i >= end_i and j >= end_j
        end_i, end_j = i + k, j + k


def test_repetitive_pair_through_the_compiled_diff_keeps_its_similarity() -> None:
    """The default path (the compiled Myers diff for long close texts) on the repetitive licence
    collection: an exact LCS (its length is checked), so the similarity differs from the reference
    (rapidfuzz's alignment, unsplit) only by which of the equally long LCSs is picked (issue 16:
    ±0.005; the real 2 MB Boost pair: 0.9574 → 0.9559)."""
    assert align_module._dmp_diff is not None
    a, b = edited_pair(synthetic_copyright(60))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(align_module, "_dmp_diff", None)
        mp.setattr(align_module, "_myers", None)
        mp.setattr(align_module, "SPLIT_MIN_CELLS", 10**18)
        mp.setattr(align_module, "SPLIT_MYERS_MAX_D", 10**9)
        reference = unsplit(a, b)
    compiled = unsplit(a, b)
    ids_a, ids_b = tokenize(a).ids, tokenize(b).ids
    ca, cb, distinct = align_module._dense_codes(ids_a, ids_b)
    sa, sb = align_module._codes_as_sequences(ca, cb, distinct)
    assert len(sa) * len(sb) >= align_module.DMP_MIN_CELLS
    assert align_module._compiled_myers_blocks(sa, sb, None) is not None  # the compiled path ran
    assert abs(compiled.similarity - reference.similarity) <= 0.005
