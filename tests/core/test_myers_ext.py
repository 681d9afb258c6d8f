"""core/_myers.c: diff-match-patch's diff, edit for edit, without its clock and with a budget.

The compiled module replaced fast_diff_match_patch on the hot path of the pass only because it
gives the same blocks: checked here on random sequences built to produce ties (small alphabets,
repeated runs), on real text with light edits, and through whole comparisons.
"""

from __future__ import annotations

import random
import sys

import pytest
from fast_diff_match_patch import diff as dmp_diff

from neardup_gui.core import align as align_module
from neardup_gui.core.compare import compare_documents
from neardup_gui.core.units import tokenize
from benchmarks.copyheavy import light_edit
from benchmarks.repetitive import edited_pair, synthetic_copyright

_myers = align_module._myers


needs_ext = pytest.mark.skipif(_myers is None, reason="the compiled diff is not built here")


def dmp_blocks(sa: str, sb: str) -> list[tuple[int, int, int]]:
    out, i, j = [], 0, 0
    for op, n in dmp_diff(sa, sb, timelimit=0, checklines=False, cleanup="No", counts_only=True):
        if op == "=":
            if n:
                out.append((i, j, n))
            i, j = i + n, j + n
        elif op == "-":
            i += n
        else:
            j += n
    return out


def as_text(codes: list[int]) -> str:
    return "".join(chr(0x100 + c) for c in codes)


def check(sa: str, sb: str) -> None:
    want = dmp_blocks(sa, sb)
    assert _myers.blocks(sa, sb, 10**9) == want
    d = len(sa) + len(sb) - 2 * sum(n for _, _, n in want)
    # within the budget: the same blocks; one unit beyond it: None (the caller aligns otherwise)
    assert _myers.blocks(sa, sb, d) == want
    assert _myers.blocks(sa, sb, d - 1) is None


@needs_ext
def test_random_sequences_with_ties_give_diff_match_patch_blocks() -> None:
    rng = random.Random(16)
    for _ in range(4000):
        alpha = rng.choice([2, 3, 4, 8, 30, 1000])
        n = rng.choice([0, 1, 2, 3, 5, 10, 30, 100, 300])
        a = [rng.randrange(alpha) for _ in range(n)]
        b = list(a)
        for _ in range(rng.choice([0, 1, 2, 5, 20, n])):
            r = rng.random()
            if r < 0.4 and b:
                del b[rng.randrange(len(b))]
            elif r < 0.8:
                b.insert(rng.randrange(len(b) + 1), rng.randrange(alpha))
            elif b:  # a run doubled: the shifts of diff_cleanupMerge
                k = rng.randrange(len(b))
                b[k:k] = b[k:k + rng.randrange(1, 10)]
        if rng.random() < 0.3:
            a, b = b, a
        check(as_text(a), as_text(b))


@needs_ext
def test_real_text_with_light_edits_gives_diff_match_patch_blocks(corpus_dir) -> None:
    rng = random.Random(4)
    texts = [p.read_text(encoding="utf-8") for p in sorted(corpus_dir.rglob("*.txt"))[:6]]
    texts.append(synthetic_copyright(30))  # thousands of near-identical stanzas
    for text in texts:
        text = text[:40_000]
        for rate in (0.005, 0.03, 0.1):
            ids_a, ids_b = tokenize(text).ids, tokenize(light_edit(text, rate, rng)).ids
            ca, cb, distinct = align_module._dense_codes(ids_a, ids_b)
            sa, sb = align_module._codes_as_sequences(ca, cb, distinct)
            check(sa, sb)


@needs_ext
def test_wide_code_points_and_empty_texts() -> None:
    top = chr(sys.maxunicode)
    for sa, sb in [("", ""), ("", "ab"), ("ab", ""), ("a", "a"), (top + "a" + top, "a" + top), ("\x00\x01", "\x01\x00")]:
        check(sa, sb)


@needs_ext
def test_comparisons_equal_with_and_without_the_compiled_diff(corpus_dir) -> None:
    """Whole comparisons (similarity, containments, spans, passages) through our diff, through
    diff-match-patch's, and through neither (the bit-parallel alignment's own tie-breaks differ,
    so only the first two are compared for equality)."""
    rng = random.Random(7)
    text = max(sorted(corpus_dir.rglob("*.txt")), key=lambda p: p.stat().st_size).read_text(encoding="utf-8")[:60_000]
    pairs = [(text, light_edit(text, 0.02, rng)), (light_edit(text, 0.05, rng), light_edit(text, 0.05, rng)),
             edited_pair(synthetic_copyright(20))]
    calls = []

    class Counted:
        @staticmethod
        def blocks(sa, sb, max_d):
            calls.append(len(sa))
            return _myers.blocks(sa, sb, max_d)

    for a, b in pairs:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(align_module, "_myers", Counted)
            ours = compare_documents(a, b, min_run=8)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(align_module, "_myers", None)
            theirs = compare_documents(a, b, min_run=8)
        assert ours == theirs
        assert ours.common_units > 1000
    assert len(calls) >= len(pairs)  # (the compiled path ran for each pair)
