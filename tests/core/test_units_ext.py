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
from benchmarks.copyheavy import CORPUS

_units = units_module._compiled_units


needs_ext = pytest.mark.skipif(_units is None, reason="the compiled tokenizer is not built here")


def plain(text: str, hidden=()):
    """:func:`tokenize` by the numpy path (the compiled module set aside)."""
    kept = units_module._compiled_units
    units_module._compiled_units = None
    try:
        return tokenize(text, hidden)
    finally:
        units_module._compiled_units = kept


def assert_same(text: str, hidden=()) -> None:
    got, want = tokenize(text, hidden), plain(text, hidden)
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
    # disguises: look-alike letters, format characters inside and beside runs (the soft hyphen
    # of Latin-1 texts too), traditional characters, and spans the file hides
    pieces += ["а", "е", "Н", "ο", "ν", "Ι", "\u00ad", "\u200b", "\u200d", "\u2060", "\ufeff", "\u202e",
               "\U000e0041", "後", "發", "x"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 30)))
        hidden = sorted((a, a + rng.randrange(1, 4)) for a in rng.sample(range(len(text)), min(len(text), rng.randrange(3))))
        assert_same(text, hidden)
    for text in ("wo\u00adrd\u00ad \u00adx", "\u00ad", "a\u00ad\u00adb", "ab\u200b"):  # (Latin-1, one byte a character)
        assert_same(text)
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


# --- sentences (units.sentence_bounds) and the hashes of slices (fingerprints, template keys) ---


def plain_bounds(text: str) -> tuple[np.ndarray, np.ndarray]:
    """:func:`units.sentence_bounds` by the numpy path."""
    kept = units_module._compiled_units
    units_module._compiled_units = None
    try:
        return units_module.sentence_bounds(text)
    finally:
        units_module._compiled_units = kept


def assert_same_bounds(text: str) -> None:
    got, want = units_module.sentence_bounds(text), plain_bounds(text)
    for a, b in zip(got, want):
        assert a.dtype == b.dtype == np.int64, text
        assert np.array_equal(a, b), text


@needs_ext
def test_sentence_bounds_on_every_short_string() -> None:
    """Every string of up to five of the characters that decide an end or a trim: runs of full
    stops against three, marks, ellipses, closers, white space (wide too), the end of the text."""
    import itertools

    for n in range(6):
        for chars in itertools.product(". a!)…\n\u3000" if n < 5 else ". !)…\n", repeat=n):
            assert_same_bounds("".join(chars))


@needs_ext
@pytest.mark.parametrize("seed", range(3))
def test_sentence_bounds_of_random_and_real_texts(seed: int) -> None:
    rng = random.Random(seed)
    alphabet = list("。！？；!?;.…\n”’\"'」』）)] \t\r\x0b\x0c\x1c\u3000\u00a0\u2028\u2029\u0085abc中文") + ["\ud800", "é"]
    for _ in range(4000):
        chosen = rng.sample(alphabet, rng.randint(1, 8))  # (few kinds at once: long runs of each)
        assert_same_bounds("".join(rng.choice(chosen) for _ in range(rng.choice((1, 3, 10, 40, 200)))))
    for f in sorted(CORPUS.rglob("*.txt"))[seed::20]:
        assert_same_bounds(f.read_text(encoding="utf-8"))


@needs_ext
def test_slice_hashes_are_mmh3s() -> None:
    rng = random.Random(7)
    for _ in range(300):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 200)))
        lo = np.array(sorted(rng.randrange(len(data) + 1) for _ in range(rng.randrange(0, 20))), dtype=np.int64)
        hi = np.array([rng.randint(a, len(data)) for a in lo.tolist()], dtype=np.int64)
        seed = rng.randrange(2**32)
        got = units_module.slice_hashes(data, lo, hi, seed)
        assert got.dtype == np.uint64
        assert got.tolist() == [mmh3.hash64(data[a:b], seed, signed=False)[0] for a, b in zip(lo.tolist(), hi.tolist())]
        assert np.array_equal(got, units_module.slice_hashes(data.decode("latin-1").encode("latin-1"), lo, hi, seed))
    for lo, hi in (([0], [5]), ([2], [1]), ([-1], [1]), ([0, 1], [1])):
        with pytest.raises(ValueError):
            _units.slice_hashes(b"abcd", np.array(lo, dtype=np.int64), np.array(hi, dtype=np.int64), 1)


def test_utf8_offsets_are_the_encoded_lengths() -> None:
    rng = random.Random(2)
    for _ in range(2000):
        text = "".join(rng.choice(["a", " ", "é", "中", "\U00020000", "\ud800", "ÿ", "\u0800"]) for _ in range(rng.randrange(0, 30)))
        offsets = np.arange(len(text) + 1)
        want = [len(text[:o].encode("utf-8", "surrogatepass")) for o in offsets.tolist()]
        assert units_module.utf8_offsets(text, offsets).tolist() == want


@needs_ext
@pytest.mark.parametrize("seed", range(2))
def test_sentence_hashes_and_keys_are_the_python_paths(seed: int) -> None:
    """The index's sentence fingerprints and template keys, hashed in C from the sentences cut in
    C, against the mmh3 call per sentence over the numpy sentences."""
    from neardup_gui.core import fingerprints, templates
    from neardup_gui.core.settings import FingerprintParams

    params = FingerprintParams()

    def computed(text: str):
        units = tokenize(text)
        return (fingerprints.sentence_hashes(text, params, units), fingerprints.sentence_fingerprints(text, params, units),
                templates.sentence_key_array(text, units), templates.sentence_keys(text, units))

    def assert_same_keys(text: str) -> None:
        got = computed(text)
        kept = units_module._compiled_units
        units_module._compiled_units = None
        try:
            want = computed(text)
        finally:
            units_module._compiled_units = kept
        for a, b in zip(got[:3], want[:3]):
            assert a.dtype == b.dtype and np.array_equal(a, b), text
        assert got[3] == want[3], text

    rng = random.Random(seed)
    pieces = ["Word", "the", " ", ". ", "! ", "\n", "。", "中文", "é", "İ", "Σ", "ﬁ", "²", "\U00020000", "’", "…", "\ud800", "ß"]
    for _ in range(1500):
        assert_same_keys("".join(rng.choice(pieces) for _ in range(rng.randrange(0, 60))))
    for f in sorted(CORPUS.rglob("*.txt"))[seed::10]:
        assert_same_keys(f.read_text(encoding="utf-8"))
