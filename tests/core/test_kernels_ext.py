"""core/_kernels.c: steps of a comparison in C give what the numpy (or Python) code gives.

``shared_cover`` stands for the window search of :func:`prepared_module._shared_mask_prepared`,
``counted_runs`` for :func:`compare._aligned_pairs` + :func:`compare._match_spans` in the
counts-only form the collection-wide pass uses, ``real_overlap`` for the multiset overlap of the
shared items, ``windows`` for :attr:`PreparedDocument.windows`, ``greedy_blocks`` for
:func:`align_module.myers_blocks`, ``posting_counts`` for :meth:`candidates.AnchorPostings.counts`,
``chained_passages`` for the Python of :func:`passages._chained_passages` (also in test_passages_fast.py).
Each comparison below is made twice, with the compiled steps and with the numpy ones, and must be
equal field for field.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from neardup_gui.core import align as align_module
from neardup_gui.core import prepared as prepared_module
from neardup_gui.core import compare as compare_module
from neardup_gui.core import passages as passages_module
from neardup_gui.core.align import _align_codes
from neardup_gui.core.prepared import compare_prepared, prepare_document, UnitCodes
from neardup_gui.core.exclusions import quoted_spans
from neardup_gui.core.passages import DEFAULT_RULES, PassageRules
from neardup_gui.core.units import tokenize
from benchmarks.copyheavy import light_edit
from tests.core.test_passages_fast import anchors_of
from tests.corpus import corpus_dir

_kernels = compare_module._kernels
needs_ext = pytest.mark.skipif(_kernels is None, reason="the compiled kernels are not built here")


def both(a, b, **cuts):
    """compare_prepared with the compiled steps and with numpy's (counts only, as the pass asks).

    One step has no numpy twin: the compiled bound of revised passages (compare.revision_possible;
    without it the search is made), so the compiled path may prove below the cut-offs, and return
    None for, a pair the other aligns and finds below them: that pair's answer is made None."""
    fast = compare_prepared(a, b, counts_only=True, **cuts)
    with pytest.MonkeyPatch.context() as mp:
        for module in (align_module, compare_module, prepared_module, passages_module):
            mp.setattr(module, "_kernels", None)
        plain = compare_prepared(a, b, counts_only=True, **cuts)
    if fast is None and plain is not None and _below(plain, **cuts):
        plain = None
    return fast, plain


def _below(c, min_similarity=None, min_containment=None) -> bool:
    """Whether ``c`` misses every cut-off given (what compare_prepared's None stands for)."""
    if min_similarity is None and min_containment is None:
        return False
    return ((min_similarity is None or c.similarity < min_similarity)
            and (min_containment is None or max(c.containment_a, c.containment_b) < min_containment))


@needs_ext
def test_random_documents_with_repeats_and_gaps() -> None:
    """Small vocabularies (repeated windows, ties), template stretches (gap items), every cut-off."""
    rng = random.Random(16)
    codes = UnitCodes()
    words = [f"w{i}" for i in range(40)]
    compared = 0
    for trial in range(400):
        vocab = words[: rng.choice([3, 6, 12, 40])]
        base = [rng.choice(vocab) for _ in range(rng.randrange(5, 300))]
        other = list(base)
        for _ in range(rng.randrange(0, 12)):
            k = rng.randrange(len(other) + 1)
            if rng.random() < 0.5 and other:
                del other[k - 1 if k else 0]
            else:
                other.insert(k, rng.choice(vocab))
        ta, tb = " ".join(base), " ".join(other)
        form = " ".join(rng.choice(vocab) for _ in range(12))
        tpl_a = tpl_b = ()
        if trial % 3 == 0:  # the same template text inside both: a gap item each
            cut = rng.randrange(len(ta) + 1)
            ta = ta[:cut] + " " + form + " " + ta[cut:]
            tpl_a = [(cut + 1, cut + 1 + len(form))]
            cut = rng.randrange(len(tb) + 1)
            tb = tb[:cut] + " " + form + " " + tb[cut:]
            tpl_b = [(cut + 1, cut + 1 + len(form))]
        min_run = rng.choice([1, 2, 4, 8])
        pa = prepare_document(tokenize(ta), min_run=min_run, codes=codes, template=tpl_a)
        pb = prepare_document(tokenize(tb), min_run=min_run, codes=codes, template=tpl_b)
        for cuts in ({}, {"min_similarity": 0.5}, {"min_similarity": 0.9}, {"min_containment": 0.6}):
            fast, plain = both(pa, pb, **cuts)
            assert fast == plain, (trial, cuts)
            compared += fast is not None
    assert compared > 500


@needs_ext
def test_real_resubmissions_with_marks() -> None:
    rng = random.Random(4)
    codes = UnitCodes()
    for lang in ("en", "zh-cn"):
        texts = [p.read_text(encoding="utf-8") for p in sorted((corpus_dir() / f"debian-reference-{lang}").glob("*.txt"))]
        for i in range(0, len(texts), 11):
            a = texts[i] + "\n“" + texts[(i + 3) % len(texts)][:400] + "”"
            b = light_edit(a, rng.uniform(0.005, 0.05), rng)
            pa = prepare_document(tokenize(a), min_run=8, codes=codes, excluded=quoted_spans(a))
            pb = prepare_document(tokenize(b), min_run=8, codes=codes, excluded=quoted_spans(b))
            fast, plain = both(pa, pb, min_similarity=0.8)
            assert fast == plain


@needs_ext
def test_a_hash_collision_is_reported_not_trusted() -> None:
    # two different windows given the same hash: the caller must compare item by item
    k = 3
    items_a = np.array([1, 2, 3, 4], dtype=np.uint32)
    items_b = np.array([1, 2, 9, 4], dtype=np.uint32)
    hashes = np.array([7, 8], dtype=np.uint64)
    inverse = np.array([0, 1], dtype=np.int32)
    first = np.array([0, 1], dtype=np.int32)
    assert _kernels.shared_cover(hashes, inverse, first, items_a, hashes, inverse, first, items_b, k, -1) is False
    # the same windows under honest hashes: what each covers, and None below at_least
    got = _kernels.shared_cover(hashes, inverse, first, items_a, np.array([7, 10], dtype=np.uint64), inverse, first,
                                np.array([1, 2, 3, 5], dtype=np.uint32), k, -1)
    assert [np.frombuffer(m, dtype=bool).tolist() for m in got] == [[True, True, True, False]] * 2
    assert _kernels.shared_cover(hashes, inverse, first, items_a, np.array([7, 10], dtype=np.uint64), inverse, first,
                                 np.array([1, 2, 3, 5], dtype=np.uint32), k, 4) is None


@needs_ext
def test_wrong_array_types_are_refused() -> None:
    with pytest.raises(TypeError):
        _kernels.shared_cover(np.zeros(2, dtype=np.int32), *([np.zeros(2, dtype=np.int32)] * 7), 3, -1)
    # windows that do not fit their items (an inverse pointing past the hashes, a first window
    # running off the end) are refused, never read out of bounds
    items = np.arange(4, dtype=np.uint32)
    hashes, first = np.array([1, 2], dtype=np.uint64), np.array([0, 1], dtype=np.int32)
    for inverse, first_ in ((np.array([0, 5], dtype=np.int32), first), (np.array([0, 1], dtype=np.int32),
                                                                         np.array([0, 3], dtype=np.int32))):
        with pytest.raises(ValueError):
            _kernels.shared_cover(hashes, inverse, first_, items, hashes, np.array([0, 1], dtype=np.int32), first,
                                  items, 3, -1)
    with pytest.raises(IndexError):
        sel = np.arange(3, dtype=np.int64)
        _kernels.counted_runs([(0, 0, 5)], sel, sel, np.zeros(3, dtype=np.int32), np.zeros(3, dtype=np.int32), sel, sel,
                              1, 0)


@needs_ext
def test_real_overlap_is_the_multiset_overlap_of_the_real_selected_items() -> None:
    rng = np.random.default_rng(3)
    for trial in range(300):
        na, nb = rng.integers(0, 80, size=2)
        top = int(rng.choice([3, 50, 70_000]))  # (a large code grows the counting table)
        items_a = rng.integers(0, top, na).astype(np.uint32)
        items_b = rng.integers(0, top, nb).astype(np.uint32)
        unit_a = np.where(rng.random(na) < 0.2, -1, np.arange(na)).astype(np.int32 if trial % 2 else np.int64)
        unit_b = np.where(rng.random(nb) < 0.2, -1, np.arange(nb)).astype(np.int32)
        sel_a = np.flatnonzero(rng.random(na) < 0.7).astype(np.int64)
        sel_b = np.flatnonzero(rng.random(nb) < 0.7).astype(np.int64)
        real_a, real_b = sel_a[unit_a[sel_a] >= 0], sel_b[unit_b[sel_b] >= 0]
        ua, ca = np.unique(items_a[real_a], return_counts=True)
        ub, cb = np.unique(items_b[real_b], return_counts=True)
        _, ia, ib = np.intersect1d(ua, ub, assume_unique=True, return_indices=True)
        want = (int(np.minimum(ca[ia], cb[ib]).sum()), len(sel_a) - len(real_a), len(sel_b) - len(real_b))
        assert _kernels.real_overlap(items_a, unit_a, sel_a, items_b, unit_b, sel_b) == want


def numpy_windows(items: np.ndarray, k: int, multiplier: int):
    """PreparedDocument.windows by numpy, with any multiplier (the definition the C one follows)."""
    windows = np.lib.stride_tricks.sliding_window_view(items, k)
    h = np.zeros(len(windows), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for col in range(k):
            h = h * np.uint64(multiplier) + windows[:, col].astype(np.uint64) + np.uint64(1)
    hashes, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    collided = not np.array_equal(windows, windows[first[inverse]])
    return hashes, first.astype(np.int32), inverse.reshape(-1).astype(np.int32), collided


def assert_windows(items: np.ndarray, k: int, multiplier: int = int(align_module._HASH_MULTIPLIER)) -> bool:
    hashes, first, inverse, collided = _kernels.windows(items, k, multiplier)
    want = numpy_windows(items, k, multiplier)
    assert np.array_equal(np.frombuffer(hashes, dtype=np.uint64), want[0])
    assert np.array_equal(np.frombuffer(first, dtype=np.int32), want[1])
    assert np.array_equal(np.frombuffer(inverse, dtype=np.int32), want[2])
    assert collided == want[3]
    return collided


@needs_ext
def test_windows_are_numpys_unique_of_the_window_hashes() -> None:
    """Hashes, first window of each (the earliest: a stable sort), inverse, and the collision flag."""
    rng = random.Random(21)
    for _ in range(600):
        k = rng.choice([1, 2, 3, 8, 8, 8])
        top = rng.choice([2, 3, 10, 300, 2**32 - 1])
        items = np.array([rng.randrange(top) for _ in range(rng.randrange(k, 400))], dtype=np.uint32)
        assert not assert_windows(items, k)
    # real documents' codes, as a pass prepares them
    codes = UnitCodes()
    for path in sorted((corpus_dir() / "debian-reference-en").glob("*.txt"))[:40]:
        units = tokenize(path.read_text(encoding="utf-8"))
        doc = prepare_document(units, min_run=8, codes=codes)
        if len(doc.items) >= 8:
            assert not assert_windows(doc.items, 8)
    # collisions: with a multiplier of 0 a window's hash is its last item + 1, so windows ending
    # alike share a hash whatever comes before; with 1, the sum of its items (+ k)
    collided = [assert_windows(np.array([rng.randrange(5) for _ in range(60)], dtype=np.uint32), 4, m)
                for m in (0, 1) for _ in range(20)]
    assert any(collided)
    assert not assert_windows(np.array([3, 3, 3, 3, 3], dtype=np.uint32), 2, 0)  # equal windows: no collision


@needs_ext
def test_windows_refuse_what_does_not_fit() -> None:
    with pytest.raises(ValueError):
        _kernels.windows(np.arange(3, dtype=np.uint32), 4, 7)
    with pytest.raises(ValueError):
        _kernels.windows(np.arange(3, dtype=np.uint32), 0, 7)
    with pytest.raises(TypeError):
        _kernels.windows(np.arange(9, dtype=np.int64), 4, 7)


@needs_ext
def test_greedy_blocks_are_the_readable_myers_diffs() -> None:
    """greedy_blocks is align_module.myers_blocks step for step (the same LCS among equally long
    ones, the same None beyond the budget): random sequences built for ties and real edits."""
    rng = random.Random(34)
    for _ in range(20000):
        top = rng.choice([2, 3, 5, 20, 1000])
        a = [rng.randrange(top) for _ in range(rng.randrange(0, 40))]
        b = list(a) if rng.random() < 0.6 else [rng.randrange(top) for _ in range(rng.randrange(0, 40))]
        for _ in range(rng.randrange(0, 6)):
            if b and rng.random() < 0.5:
                del b[rng.randrange(len(b))]
            else:
                b.insert(rng.randrange(len(b) + 1), rng.randrange(top))
        ca, cb = np.array(a, dtype=np.uint32), np.array(b, dtype=np.uint32)
        max_d = rng.choice([None, 0, 1, 2, 4, 8, 100])
        want = align_module.myers_blocks(*align_module._codes_as_sequences(ca, cb, 1001), max_d=max_d)
        assert _kernels.greedy_blocks(ca, cb, -1 if max_d is None else max_d) == want
    codes = UnitCodes()
    text = sorted((corpus_dir() / "debian-reference-en").glob("*.txt"))[0].read_text(encoding="utf-8")
    a = codes.encode(tokenize(text).ids)
    b = codes.encode(tokenize(light_edit(text, 0.02, random.Random(3))).ids)
    for lo in range(0, min(len(a), len(b)) - 300, 97):  # pieces as the passages align them
        pa, pb = a[lo:lo + rng.randrange(1, 300)], b[lo:lo + rng.randrange(1, 300)]
        budget = align_module.myers_budget(len(pa), len(pb))
        want = align_module.myers_blocks(*align_module._codes_as_sequences(pa, pb, len(codes) + 1), max_d=budget)
        assert _kernels.greedy_blocks(pa, pb, budget) == want


@needs_ext
def test_local_alignments_in_c_are_those_of_the_sequences() -> None:
    """_align_codes (the passages' local alignments) gives _align_sequences's blocks, in C or not."""
    rng = random.Random(35)
    for _ in range(3000):
        top = rng.choice([2, 4, 50])
        a = np.array([rng.randrange(top) for _ in range(rng.randrange(1, 120))], dtype=np.uint32)
        b = np.array([rng.randrange(top) for _ in range(rng.randrange(1, 120))], dtype=np.uint32)
        want = align_module._align_sequences(*align_module._codes_as_sequences(a, b, top + 1))
        assert align_module._align_codes(a, b) == want


@needs_ext
def test_posting_counts_are_the_numpy_counts() -> None:
    """AnchorPostings.counts in C: the documents holding any of the keys (each key once, compared
    as the signed hashes are stored), ascending, with how many of the keys each holds."""
    from neardup_gui.core import candidates

    rng = random.Random(36)
    for _ in range(3000):
        n = rng.randrange(0, 300)
        hashes = np.sort(np.array([rng.randrange(-50, 50) if rng.random() < 0.5 else rng.randrange(-2**63, 2**63)
                                   for _ in range(n)], dtype=np.int64))
        docs = np.array([rng.randrange(rng.choice([5, 100, 100_000])) for _ in range(n)], dtype=np.int64)
        postings = candidates.AnchorPostings(hashes, docs)
        pool = hashes.tolist() + [rng.randrange(-60, 60) for _ in range(10)]
        keys = np.array([rng.choice(pool) for _ in range(rng.randrange(0, 40))], dtype=np.int64).view(np.uint64)
        fast = postings.counts(keys)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(candidates, "_kernels", None)
            plain = postings.counts(keys)
        for got, want in zip(fast, plain):
            assert got.dtype == want.dtype and np.array_equal(got, want)
    with pytest.raises(ValueError):
        _kernels.posting_counts(np.zeros(2, dtype=np.int64), np.zeros(3, dtype=np.int64), np.zeros(1, dtype=np.uint64))
    with pytest.raises(ValueError):  # (a document id is never negative)
        _kernels.posting_counts(np.zeros(1, dtype=np.int64), np.full(1, -1, dtype=np.int64), np.zeros(1, dtype=np.uint64))


@needs_ext
def test_posting_counts_of_keys_held_by_most_documents_are_the_numpy_counts() -> None:
    """Keys held by most of a large collection (a licence's anchors): the documents are listed by
    one scan of the counts instead of a sort, in the same ascending order, with the same counts;
    beside them a few keys held by scattered documents (sorted)."""
    from neardup_gui.core import candidates

    rng = np.random.default_rng(41)
    # (first: most of 60,000 ids, scanned whatever ids earlier tests counted; then sorted ones)
    for n_docs, spread in ((60_000, 1), (300, 1), (2_000, 1000), (5_000, 3)):
        keys_held = rng.integers(-2**62, 2**62, size=6)
        docs = np.concatenate([rng.permutation(n_docs)[: int(0.8 * n_docs)] * spread for _ in keys_held])
        hashes = np.repeat(keys_held, int(0.8 * n_docs))
        order = np.lexsort((docs, hashes))
        postings = candidates.AnchorPostings(np.ascontiguousarray(hashes[order]), np.ascontiguousarray(docs[order]))
        for asked in (keys_held, keys_held[:1], np.concatenate([keys_held[2:], keys_held[2:3], [7]])):
            fast = postings.counts(asked.view(np.uint64))
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(candidates, "_kernels", None)
                plain = postings.counts(asked.view(np.uint64))
            assert len(fast[0]) > 200
            for got, want in zip(fast, plain):
                assert got.dtype == want.dtype and np.array_equal(got, want)


def chains_both_ways(args: tuple, word_pairs: bool) -> list:
    """passages._chained_passages in C and in Python."""
    fast = passages_module._chained_passages(*args, word_pairs)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(passages_module, "_kernels", None)
        plain = passages_module._chained_passages(*args, word_pairs)
    assert fast == plain
    return fast


@needs_ext
def test_chained_passages_are_the_pythons_under_any_rules() -> None:
    """Random edited copies, small vocabularies, removed text, CJK masks of every kind (none, all,
    mixed, translated stretches) and rules from narrow to wide (windows and holes small enough that
    chains are extended a window at a time and joined across gaps): the same passages as the
    Python code."""
    rng = random.Random(1625)
    chains = 0
    for trial in range(600):
        n = rng.randrange(20, 400)
        vocab = rng.choice([4, 10, 50, 1000])
        a = [rng.randrange(vocab) for _ in range(n)]
        b = list(a)
        for _ in range(rng.randrange(0, max(1, n // 6))):
            k = rng.randrange(len(b) + 1)
            op = rng.random()
            if op < 0.4 and b:
                b[min(k, len(b) - 1)] = rng.randrange(vocab)
            elif op < 0.7:
                b.insert(k, rng.randrange(vocab))
            elif b:
                del b[min(k, len(b) - 1)]
        if not b:
            continue
        _, inv = np.unique(np.array(a + b), return_inverse=True)
        ca, cb = inv[:n].astype(np.uint32), inv[n:].astype(np.uint32)
        rate = rng.choice([0.0, 0.0, 0.01, 0.05])
        ja = np.array([rng.random() < rate for _ in range(len(ca) - 1)], dtype=bool)
        jb = np.array([rng.random() < rate for _ in range(len(cb) - 1)], dtype=bool)
        kind = rng.choice(["none", "all", "words", "mixed", "stretches"])
        if kind == "none":
            cjk_a = cjk_b = None
        elif kind in ("all", "words"):
            cjk_a, cjk_b = (np.full(len(ca), kind == "all"), np.full(len(cb), kind == "all"))
        elif kind == "mixed":
            cjk_a = np.array([rng.random() < 0.5 for _ in ca], dtype=bool)
            cjk_b = np.array([rng.random() < 0.5 for _ in cb], dtype=bool)
        else:  # long stretches of one script, differing between the texts (translations)
            cjk_a = np.repeat(np.array([rng.random() < 0.5 for _ in range(len(ca) // 10 + 1)]), 10)[: len(ca)]
            cjk_b = np.repeat(np.array([rng.random() < 0.5 for _ in range(len(cb) // 10 + 1)]), 10)[: len(cb)]
        rules = PassageRules(short_run=rng.choice([2, 3, 4]), word_weight=rng.choice([1.0, 1.5, 2.5]),
                             max_hole=rng.choice([2, 6, 12, 30]), window=rng.choice([4, 16, 64]),
                             min_density=rng.choice([0.2, 0.4, 0.8]), min_anchor_share=rng.choice([0.05, 0.1, 0.5]),
                             gap_share=rng.choice([0.0, 0.2, 0.6]))
        runs = anchors_of(ca, cb, ja, jb, rng.choice([3, 5, 8]))
        rng.shuffle(runs)  # (sorted inside, as sorted() sorts tuples)
        args = (runs, ca, cb, ja, jb, _align_codes, rules, cjk_a, cjk_b)
        for word_pairs in (False, True):
            chains += len(chains_both_ways(args, word_pairs))
    assert chains > 2500  # the inputs made chains


@needs_ext
def test_chained_passages_refuse_what_does_not_fit() -> None:
    r = DEFAULT_RULES
    codes = np.arange(20, dtype=np.uint32)
    jumps = np.zeros(19, dtype=bool)
    rest = (r.short_run, r.word_weight, r.max_hole, r.window, r.min_density, r.min_anchor_share, r.gap_share, True)
    with pytest.raises(ValueError):  # a CJK mask shorter than its text
        _kernels.chained_passages([(0, 0, 20)], codes, codes, jumps, jumps, _align_codes, np.zeros(3, dtype=bool),
                                  None, *rest)
    with pytest.raises(TypeError):  # a mask of 8-byte items
        _kernels.chained_passages([(0, 0, 20)], codes, codes, jumps.astype(np.int64), jumps, _align_codes, None, None,
                                  *rest)
    with pytest.raises(ZeroDivisionError):  # an error of ``align`` comes through
        _kernels.chained_passages([(0, 0, 8), (12, 12, 8)], codes, codes, jumps, jumps, lambda x, y: 1 / 0, None, None,
                                  *rest)
    assert _kernels.chained_passages([], codes, codes, jumps, jumps, _align_codes, None, None, *rest) == []


def _free_stretches_reference(used: np.ndarray, jumps: np.ndarray | None, k: int) -> list[tuple[int, int]]:
    """The maximal stretches of units not used, cut after unit i where jumps[i], of k or more: read
    unit by unit."""
    out, start = [], None
    for i in range(len(used) + 1):
        if start is not None and (i == len(used) or used[i] or (jumps is not None and jumps[i - 1])):
            if i - start >= k:
                out.append((start, i))
            start = None
        if i < len(used) and not used[i] and start is None:
            start = i
    return out


@needs_ext
def test_free_stretches_are_read_unit_by_unit(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    for case in range(2000):
        n = int(rng.integers(0, 40))
        used = rng.random(n) < rng.choice([0.1, 0.5, 0.9])
        jumps = None if case % 3 == 0 else rng.random(max(n - 1, 0)) < 0.15
        k = int(rng.integers(1, 5))
        want = _free_stretches_reference(used, jumps, k)
        assert _kernels.free_stretches(used, jumps, k) == want
        assert compare_module._free_stretches(used, jumps, k) == want
        with monkeypatch.context() as m:  # the numpy path gives the same
            m.setattr(compare_module, "_kernels", None)
            assert compare_module._free_stretches(used, jumps, k) == want


@needs_ext
def test_free_stretches_refuse_what_does_not_fit() -> None:
    with pytest.raises(ValueError):
        _kernels.free_stretches(np.zeros(5, dtype=bool), np.zeros(5, dtype=bool), 1)
    with pytest.raises(TypeError):
        _kernels.free_stretches(np.zeros(5, dtype=np.int64), None, 1)


@needs_ext
def test_open_runs_are_those_of_the_open_mask() -> None:
    """open_runs over the selected items gives compare._open_runs of the mask it stands for: the
    selected items, less those of a unit used and not short."""
    rng = np.random.default_rng(11)
    for _ in range(2000):
        n_items = int(rng.integers(0, 50))
        unit = np.where(rng.random(n_items) < 0.1, -1, 0)
        unit[unit >= 0] = np.arange(int((unit >= 0).sum()))
        real, index = compare_module.item_index(unit)
        n_units = len(real)
        used = rng.random(n_units) < rng.choice([0.2, 0.6, 0.95])
        short = used & (rng.random(n_units) < rng.choice([0.0, 0.2, 0.5]))
        sel = np.flatnonzero(rng.random(n_items) < rng.choice([0.5, 0.9, 1.0])).astype(np.int64)
        k = int(rng.integers(1, 9))
        open_ = np.zeros(n_items, dtype=bool)
        open_[sel] = True
        open_[real[used & ~short]] = False
        want = compare_module._open_runs(open_, real[short], k)
        assert _kernels.open_runs(sel, index, used, short, k) == want


@needs_ext
def test_open_runs_refuse_what_does_not_fit() -> None:
    index = np.array([0, 1, -1, 2], dtype=np.int64)
    flags = np.zeros(3, dtype=bool)
    with pytest.raises(ValueError):  # an item beyond the text
        _kernels.open_runs(np.array([0, 4], dtype=np.int64), index, flags, flags, 2)
    with pytest.raises(ValueError):  # not ascending
        _kernels.open_runs(np.array([1, 0], dtype=np.int64), index, flags, flags, 2)
    with pytest.raises(ValueError):  # a unit beyond the flags
        _kernels.open_runs(np.array([0, 3], dtype=np.int64), index, flags[:2], flags[:2], 2)
