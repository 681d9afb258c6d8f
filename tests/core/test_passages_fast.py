"""The passages found in C (core/_kernels.c) are the Python specification's, and both keep the
guarantees of core/passages.py, on every kind of input.

The specification (passages.py without the compiled kernel) and the kernel are run on the same
inputs and must give the same passages, the same seeds in the same order: random sequences with
substitutions, insertions and deletions, Chinese and English text from the corpus, mixed scripts,
removed (template) text. Every answer is also checked against the module's guarantees: passages
disjoint and in the same order in both texts, every anchor inside one, nothing merged across
removed text, each passage dense or a lone anchor.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.corpus import corpus_dir
from neardup_gui.core import passages
from neardup_gui.core.align import _align_codes
from neardup_gui.core.compare import compare_units
from neardup_gui.core.passages import DEFAULT_RULES, PassageRules
from neardup_gui.core.units import tokenize

MIN_RUN = 8


def anchors_of(codes_a: np.ndarray, codes_b: np.ndarray, jumps_a: np.ndarray, jumps_b: np.ndarray,
               min_run: int = MIN_RUN) -> list[tuple[int, int, int]]:
    """The exact runs of ≥ ``min_run`` units of an LCS, cut where removed text lies on either
    side (as the comparison's runs are, in countable coordinates)."""
    runs = []
    for i, j, n in _align_codes(codes_a, codes_b):
        start = 0
        for k in range(n - 1):
            if jumps_a[i + k] or jumps_b[j + k]:
                if k + 1 - start >= min_run:
                    runs.append((i + start, j + start, k + 1 - start))
                start = k + 1
        if n - start >= min_run:
            runs.append((i + start, j + start, n - start))
    return runs


def assert_same(runs, codes_a, codes_b, jumps_a, jumps_b, cjk_a=None, cjk_b=None,
                rules: PassageRules = DEFAULT_RULES) -> list:
    args = (runs, codes_a, codes_b, jumps_a, jumps_b, _align_codes, rules, cjk_a, cjk_b)
    found = passages.find_passages(*args)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(passages, "_kernels", None)
        spec = passages.find_passages(*args)
    assert found == spec
    assert_guarantees(spec, runs, jumps_a, jumps_b, rules)
    return found


def assert_guarantees(found: list, runs, jumps_a: np.ndarray, jumps_b: np.ndarray, rules: PassageRules) -> None:
    """The guarantees of core/passages.py (its module docstring) hold for ``found``."""
    anchors = set(runs)
    end_a = end_b = 0
    for sa, ea, sb, eb, seeds in found:
        assert end_a <= sa < ea and end_b <= sb < eb  # disjoint, in the same order in both texts
        end_a, end_b = ea, eb
        assert (seeds[0][0], seeds[0][1]) == (sa, sb) and (seeds[-1][0] + seeds[-1][2], seeds[-1][1] + seeds[-1][2]) == (ea, eb)
        for (i, j, n), (i2, j2, _) in zip(seeds, seeds[1:]):
            assert i + n <= i2 and j + n <= j2  # seeds in order, disjoint
        held = [r for r in seeds if r in anchors]
        for jumps, start, end, side in ((jumps_a, sa, ea, 0), (jumps_b, sb, eb, 1)):
            for k in np.flatnonzero(jumps[start:end - 1]) + start:  # removed text only inside an anchor
                assert any(r[side] <= k and k + 1 < r[side] + r[2] for r in held), (k, side)
        assert held  # every passage holds an anchor
        if len(seeds) > 1:
            length = max(ea - sa, eb - sb)
            assert sum(n for *_, n in seeds) >= rules.min_density * length
            assert sum(n for *_, n in held) >= rules.min_anchor_share * length
    inside = {r for *_, seeds in found for r in seeds}
    assert anchors <= inside  # every anchor lies in a passage


def edited(base: list[int], edits: list[tuple[int, str, int]]) -> list[int]:
    copy = list(base)
    for k, op, new in edits:
        if not copy:
            break
        k %= len(copy)
        if op == "s":
            copy[k] = new
        elif op == "i":
            copy.insert(k, new)
        else:
            del copy[k]
    return copy


def dense(a: list[int], b: list[int]) -> tuple[np.ndarray, np.ndarray]:
    _, inverse = np.unique(np.array(a + b, dtype=np.uint64), return_inverse=True)
    return inverse[: len(a)].astype(np.int64), inverse[len(a):].astype(np.int64)


def random_mask(rng: random.Random, n: int, rate: float) -> np.ndarray:
    return np.array([rng.random() < rate for _ in range(n)], dtype=bool)


@settings(max_examples=300, deadline=None)
@given(
    base=st.lists(st.integers(0, 40), min_size=0, max_size=300),
    edits=st.lists(st.tuples(st.integers(0, 299), st.sampled_from("sid"), st.integers(0, 80)), max_size=60),
    cjk=st.sampled_from(["none", "all", "words", "mixed"]),
    jump_rate=st.sampled_from([0.0, 0.0, 0.01, 0.05]),
    seed=st.integers(0, 2**16),
)
def test_same_passages_on_random_edited_copies(base, edits, cjk, jump_rate, seed) -> None:
    rng = random.Random(seed)
    codes_a, codes_b = dense(edited(base, edits), base)
    jumps_a = random_mask(rng, max(0, len(codes_a) - 1), jump_rate)
    jumps_b = random_mask(rng, max(0, len(codes_b) - 1), jump_rate)
    if cjk == "none":
        cjk_a = cjk_b = None
    elif cjk == "all":
        cjk_a, cjk_b = np.ones(len(codes_a), bool), np.ones(len(codes_b), bool)
    elif cjk == "words":
        cjk_a, cjk_b = np.zeros(len(codes_a), bool), np.zeros(len(codes_b), bool)
    else:  # a unit's script follows its code, as in real text
        cjk_a, cjk_b = codes_a % 3 == 0, codes_b % 3 == 0
    for min_run in (MIN_RUN, 3):
        runs = anchors_of(codes_a, codes_b, jumps_a, jumps_b, min_run)
        assert_same(runs, codes_a, codes_b, jumps_a, jumps_b, cjk_a, cjk_b)


@settings(max_examples=200, deadline=None)
@given(
    lengths=st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20), st.integers(1, 15)), min_size=1, max_size=40),
    alphabet=st.integers(2, 50),
    seed=st.integers(0, 2**16),
)
def test_same_passages_for_any_increasing_anchors(lengths, alphabet, seed) -> None:
    """Anchors that are not an LCS's runs (gaps of any width, equal or unrelated holes)."""
    rng = random.Random(seed)
    runs, a, b = [], [], []
    for gap_a, gap_b, n in lengths:
        hole = [rng.randrange(alphabet) for _ in range(max(gap_a, gap_b))]
        a += hole[:gap_a]
        b += hole[:gap_b] if rng.random() < 0.5 else [rng.randrange(alphabet) for _ in range(gap_b)]
        run = [rng.randrange(alphabet) for _ in range(n)]
        runs.append((len(a), len(b), n))
        a += run
        b += run
    a += [rng.randrange(alphabet) for _ in range(rng.randrange(30))]
    codes_a, codes_b = dense(a, b)
    jumps_a = random_mask(rng, max(0, len(a) - 1), 0.02)
    jumps_b = random_mask(rng, max(0, len(b) - 1), 0.02)
    cjk_a, cjk_b = codes_a % 2 == 0, codes_b % 2 == 0
    assert_same(runs, codes_a, codes_b, jumps_a, jumps_b, cjk_a, cjk_b)
    assert_same(runs, codes_a, codes_b, jumps_a, jumps_b)
    wide = PassageRules(short_run=4, max_hole=20, window=16, min_anchors_for_words=1)
    assert_same(runs, codes_a, codes_b, jumps_a, jumps_b, cjk_a, cjk_b, rules=wide)


def test_no_anchor_and_one_anchor() -> None:
    codes = np.arange(20, dtype=np.int64)
    none = np.zeros(19, dtype=bool)
    assert assert_same([], codes, codes, none, none) == []
    assert assert_same([(0, 0, 20)], codes, codes, none, none) == [(0, 20, 0, 20, ((0, 0, 20),))]


# --- real text: Chinese and English copies with light and heavy edits, and template gaps ----------

LANGS = {"zh": "debian-reference-zh-cn", "en": "debian-reference-en"}


def units_codes(text: str, other: str):
    a, b = tokenize(text), tokenize(other)
    codes_a, codes_b = dense(a.ids.tolist(), b.ids.tolist())
    return a, b, codes_a, codes_b


def edit_words(rng: random.Random, words: list[str], rate: float, pool: list[str]) -> list[str]:
    out = []
    for w in words:
        r = rng.random()
        if r < rate / 3:
            out.append(rng.choice(pool))  # substituted
        elif r < 2 * rate / 3:
            out += [w, rng.choice(pool)]  # inserted after
        elif r >= rate:
            out.append(w)  # kept (else: dropped)
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("rate", [0.01, 0.05, 0.3])
def test_same_passages_on_edited_corpus_copies(lang: str, rate: float) -> None:
    files = sorted((corpus_dir() / LANGS[lang]).glob("*.txt"))
    assert files, "the corpus is needed"
    rng = random.Random(f"{lang}{rate}")
    checked = 0
    for path in rng.sample(files, min(6, len(files))):
        text = path.read_text(encoding="utf-8")[:20_000]
        if lang == "zh":
            words = list(text)
            pool = list("的一是在不了有和人这中大为上个国我以要他")
            copy = "".join(edit_words(rng, words, rate, pool))
        else:
            words = text.split()
            copy = " ".join(edit_words(rng, words, rate, ["the", "a", "of", "system", "file", "new", "to"]))
        a, b, codes_a, codes_b = units_codes(copy, text)
        for jump_rate in (0.0, 0.003):  # removed (template) text here and there
            jumps_a = random_mask(rng, max(0, len(codes_a) - 1), jump_rate)
            jumps_b = random_mask(rng, max(0, len(codes_b) - 1), jump_rate)
            runs = anchors_of(codes_a, codes_b, jumps_a, jumps_b)
            found = assert_same(runs, codes_a, codes_b, jumps_a, jumps_b, a.cjk, b.cjk)
            checked += bool(found)
    assert checked >= 6  # the copies were found at all


def test_same_passages_on_mixed_script_translation() -> None:
    """Identical rows around a translated description: the translation test on the quick path."""
    zh = (corpus_dir() / LANGS["zh"]).glob("*.txt")
    en = (corpus_dir() / LANGS["en"]).glob("*.txt")
    zh_text = sorted(zh)[0].read_text(encoding="utf-8")
    en_text = sorted(en)[0].read_text(encoding="utf-8")
    rows = [f"package{k} version {k}.{k} amd64 stable main" for k in range(40)]
    rng = random.Random(7)
    a_parts, b_parts = [], []
    for k, row in enumerate(rows):
        a_parts.append(row)
        b_parts.append(row)
        if k % 3 == 0:
            start = rng.randrange(0, 5000)
            a_parts.append(zh_text[start : start + rng.choice([1, 2, 5, 30])])
            b_parts.append(" ".join(en_text.split()[start // 5 : start // 5 + rng.choice([1, 2, 4, 20])]))
    a, b, codes_a, codes_b = units_codes("\n".join(a_parts), "\n".join(b_parts))
    none_a, none_b = np.zeros(len(codes_a) - 1, bool), np.zeros(len(codes_b) - 1, bool)
    runs = anchors_of(codes_a, codes_b, none_a, none_b)
    assert runs
    assert_same(runs, codes_a, codes_b, none_a, none_b, a.cjk, b.cjk)


@settings(max_examples=60, deadline=None)
@given(
    base=st.lists(st.integers(0, 30), min_size=0, max_size=200),
    edits=st.lists(st.tuples(st.integers(0, 199), st.sampled_from("sid"), st.integers(31, 60)), max_size=40),
)
def test_same_comparison_through_compare_units(base, edits) -> None:
    """Through the comparison itself: the same Comparison with the compiled steps and without."""
    a = tokenize(" ".join(f"u{i}" for i in edited(base, edits)))
    b = tokenize(" ".join(f"u{i}" for i in base))
    fast = compare_units(a, b, min_run=MIN_RUN)
    with pytest.MonkeyPatch.context() as mp:
        from neardup_gui.core import align, compare

        for module in (align, compare, passages):
            mp.setattr(module, "_kernels", None)
        plain = compare_units(a, b, min_run=MIN_RUN)
    assert fast == plain


@pytest.mark.parametrize("seed_in_hole", [True, False])
def test_a_seed_in_the_hole_decides_whether_two_anchors_are_one_passage(seed_in_hole: bool) -> None:
    """Two 3-unit anchors around a 12-unit hole: the anchors alone cover 6 of 18 units (below
    min_density 0.4), so whether they are one passage depends on the seed in the hole."""
    hole_b = [30, 31, 32, 33, 14, 15, 16, 34, 35, 36, 37, 38] if seed_in_hole else list(range(30, 42))
    codes_a = np.array([1, 2, 3, *range(10, 22), 4, 5, 6], dtype=np.int64)
    codes_b = np.array([1, 2, 3, *hole_b, 4, 5, 6], dtype=np.int64)
    runs = [(0, 0, 3), (15, 15, 3)]
    none = np.zeros(17, dtype=bool)
    found = assert_same(runs, codes_a, codes_b, none, none)
    if seed_in_hole:
        assert found == [(0, 18, 0, 18, ((0, 0, 3), (7, 7, 3), (15, 15, 3)))]
    else:
        assert [p[:4] for p in found] == [(0, 3, 0, 3), (15, 18, 15, 18)]


@pytest.mark.parametrize("seeds_in_holes", [True, False])
def test_two_chains_join_when_the_seeds_of_their_holes_make_them_dense(seeds_in_holes: bool) -> None:
    """Two chains of five 3-unit anchors with 12-unit holes between them, 13 other units apart:
    the anchors alone cover 30 of 139 units (below min_density), so whether the chains join into
    one passage depends on the seeds in the holes."""
    fresh = iter(range(100, 10_000))
    a: list[int] = []
    b: list[int] = []
    runs = []

    def chain() -> None:
        for k in range(5):
            if k:
                shared = [next(fresh) for _ in range(6)] if seeds_in_holes else []
                own_a = [next(fresh) for _ in range(12)]
                own_b = [next(fresh) for _ in range(12)]
                if shared:  # two 3-unit seeds at the same places on both sides
                    own_a[2:5] = own_b[2:5] = shared[:3]
                    own_a[7:10] = own_b[7:10] = shared[3:]
                a.extend(own_a)
                b.extend(own_b)
            anchor = [next(fresh) for _ in range(3)]
            runs.append((len(a), len(b), 3))
            a.extend(anchor)
            b.extend(anchor)

    chain()
    a.extend(next(fresh) for _ in range(13))
    b.extend(next(fresh) for _ in range(13))
    chain()
    codes_a, codes_b = np.array(a, dtype=np.int64), np.array(b, dtype=np.int64)
    none_a, none_b = np.zeros(len(a) - 1, bool), np.zeros(len(b) - 1, bool)
    found = assert_same(runs, codes_a, codes_b, none_a, none_b)
    if seeds_in_holes:
        assert [p[:4] for p in found] == [(0, 139, 0, 139)]
    else:
        assert all(p[1] - p[0] == 3 for p in found) and len(found) == 10  # the anchors stand alone
