"""core/_units.c: the units of a text cut in C, the same as core/units.py's numpy path.

Unit ids are stored in every index and must never change: the compiled tokenizer is checked
here, field by field, against the path it stands in for (itself checked against the plain
definition in test_units.py), on real text of both scripts, on random texts built from the
characters where the two could part (non-ASCII letters NFKC changes, CJK beside words, digits,
underscores, surrogates, characters never seen before), and its MurmurHash3 against mmh3's.
"""

from __future__ import annotations

import random

import mmh3
import numpy as np
import pytest

from neardup_gui.core import units as units_module
from neardup_gui.core.units import UNIT_HASH_SEED, tokenize
from tests.benchmarks.copyheavy import CORPUS

_units = units_module._compiled_units


needs_ext = pytest.mark.skipif(_units is None, reason="the compiled tokenizer is not built here")


def plain(text: str):
    """:func:`tokenize` by the numpy path (the compiled module set aside)."""
    kept = units_module._compiled_units
    units_module._compiled_units = None
    try:
        return tokenize(text)
    finally:
        units_module._compiled_units = kept


def assert_same(text: str) -> None:
    got, want = tokenize(text), plain(text)
    for name in ("ids", "starts", "ends", "cjk"):
        a, b = getattr(got, name), getattr(want, name)
        assert a.dtype == b.dtype, (name, text)
        assert np.array_equal(a, b), (name, text)
    assert got.spaced() == want.spaced()
    assert got.tokens == want.tokens
    got.ids[:1] = got.ids[:1]  # (writable, as the numpy path's arrays are)


@needs_ext
def test_murmur_is_mmh3s() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 80)))
        seed = rng.choice((UNIT_HASH_SEED, 0, rng.randrange(2**32)))
        assert _units.hash64(data, seed) == mmh3.hash64(data, seed, signed=False)[0]


@needs_ext
def test_real_text_of_both_scripts() -> None:
    files = sorted(CORPUS.rglob("*.txt"))[:300]
    assert files, "the shared corpus is missing"
    for f in files:
        assert_same(f.read_text(encoding="utf-8"))


@needs_ext
@pytest.mark.parametrize("seed", range(4))
def test_random_texts_where_the_two_could_part(seed: int) -> None:
    rng = random.Random(seed)
    pieces = ["a", "Z", "q", "0", "9", " ", "  ", "\n", "\t", ".", ",", "_", "-", "é", "É", "ß", "²", "½", "ª",
              "ﬁ", "İ", "Σ", "ς", "中", "文", "。", "々", "〇", "ア", "가", "\U00020000", "Ａ", "１", "\U0001d400",
              "\u0301", "\u00a0", "\u2028", "\ud800", "ÿ", "µ", "Ⅻ", "٣", "ก", "\u0e31", chr(0x10ffff)]
    for _ in range(3000):
        assert_same("".join(rng.choice(pieces) for _ in range(rng.randrange(0, 30))))
    # long runs (the hash's 16-byte blocks and tails), and a text of one run
    for n in (1, 15, 16, 17, 31, 32, 33, 1000):
        assert_same("Ab" * n)
        assert_same(" x" + "7" * n + "é")


@needs_ext
def test_a_character_never_seen_before_is_learnt() -> None:
    # (the class table learns code points on first use: the C side asks for them first)
    fresh = next(c for c in range(0x1F000, 0x1FFFF) if units_module._CLASS[c] == 255)
    assert_same(f"word {chr(fresh)} next{chr(fresh)}word")
    assert units_module._CLASS[fresh] != 255


@needs_ext
def test_empty_and_unitless_texts() -> None:
    for text in ("", " ", "...", "。！？", "\n\n", "__"):
        assert_same(text)
