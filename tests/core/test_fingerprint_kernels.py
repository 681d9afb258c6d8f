"""The fingerprints' k-grams, MinHash signature and winnowing in C (core/_units.c: kgram_hashes,
oph_signature, winnow) give the numpy code's values exactly: on random unit ids (short, long,
with many repeats), on every section of the corpus, and in every fingerprint of a document.
An index built with either is the same (``benchmarks/acceptance/same_index.py``)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from neardup_gui.core import fingerprints as fpm
from neardup_gui.core.settings import FingerprintParams
from neardup_gui.core.units import tokenize
from tests.corpus import corpus_dir

_units = pytest.importorskip("neardup_gui.core._units")
PARAMS = FingerprintParams()


def corpus_texts(lang: str) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted((corpus_dir() / f"debian-reference-{lang}").glob("*.txt"))]


def _numpy(fn, *args):  # noqa: ANN001, ANN202
    saved, fpm._compiled = fpm._compiled, None
    try:
        return fn(*args)
    finally:
        fpm._compiled = saved


def _id_arrays() -> list[np.ndarray]:
    rng = np.random.default_rng(2026)
    sizes = [*range(0, 40), *rng.integers(40, 6000, 40).tolist()]
    out = [rng.integers(0, 2**64, size=n, dtype=np.uint64) for n in sizes]
    out += [rng.integers(0, 4, size=n, dtype=np.uint64) for n in rng.integers(1, 500, 30).tolist()]  # repeats, ties
    out.append(np.full(300, 7, dtype=np.uint64))  # one k-gram over and over
    out.append(np.arange(2000, dtype=np.uint64)[::-1].copy())
    return out


@pytest.mark.parametrize("k", [1, 4, 8, 13, 100])
def test_kgram_hashes_equal_numpy(k: int) -> None:
    for ids in _id_arrays():
        got = fpm._kgram_hashes(ids, k, 0x1234_5678_9ABC_DEF0)
        assert got.dtype == np.uint64
        assert np.array_equal(got, _numpy(fpm._kgram_hashes, ids, k, 0x1234_5678_9ABC_DEF0))


def test_shingles_anchors_and_signatures_equal_numpy() -> None:
    narrow = dataclasses.replace(PARAMS, anchor_window=1)
    wide = dataclasses.replace(PARAMS, anchor_window=5000)  # a window longer than the text
    for ids in _id_arrays():
        for fn in (fpm.shingle_hashes, fpm.anchor_kgrams, fpm.anchors, fpm.minhash_signature):
            assert np.array_equal(fn(ids, PARAMS), _numpy(fn, ids, PARAMS)), fn.__name__
        for params in (narrow, wide):
            assert np.array_equal(fpm.anchors(ids, params), _numpy(fpm.anchors, ids, params))
        shingles = fpm.shingle_hashes(ids, PARAMS)
        for count in (1, 5, 128, 256, 4096):  # bins far outnumbering the shingles: long probe runs
            assert np.array_equal(fpm.one_permutation_signature(shingles, count, 9),
                                  _numpy(fpm.one_permutation_signature, shingles, count, 9))


def test_every_fingerprint_of_the_corpus_equals_numpy() -> None:
    for lang in ("en", "zh-cn"):
        for text in corpus_texts(lang)[::3]:
            units = tokenize(text)
            got, want = fpm.fingerprint(text, units, PARAMS), _numpy(fpm.fingerprint, text, units, PARAMS)
            assert got.simhash == want.simhash
            for field in ("minhash_bits", "lsh_keys", "sentence_fps", "anchors"):
                assert np.array_equal(getattr(got, field), getattr(want, field)), field


def test_signature_kernel_refuses_unsorted_hashes_and_bad_counts() -> None:
    with pytest.raises(ValueError):
        _units.oph_signature(np.array([5, 3], dtype=np.uint64), 8, 1)
    with pytest.raises(ValueError):
        _units.oph_signature(np.array([3, 3], dtype=np.uint64), 8, 1)  # not distinct
    with pytest.raises(ValueError):
        _units.oph_signature(np.array([3], dtype=np.uint64), 0, 1)
    with pytest.raises(ValueError):
        _units.kgram_hashes(np.array([1, 2], dtype=np.uint64), 0, 1, False)
    assert bytes(_units.winnow(np.array([1, 2], dtype=np.uint64), 8, 1, 48)) == b""  # no whole k-gram


def test_distinct_first_counts_equal_numpy() -> None:
    """The simhash's word counts (core/_units.c: distinct_first_counts, a hash table) are
    arrays.distinct_first_counts's: values in order, first occurrences, counts."""
    from neardup_gui.core.arrays import distinct_first_counts

    cjk = np.arange(0x4E00, 0x4E00 + 3000, dtype=np.uint64)[np.random.default_rng(3).integers(0, 3000, 9000)]
    high = (np.arange(5000, dtype=np.uint64) << np.uint64(44))[np.random.default_rng(4).integers(0, 5000, 8000)]
    for ids in [*_id_arrays(), cjk, high]:  # (high: ids differing in their high bits only)
        got = [np.frombuffer(b, dtype=t) for b, t in
               zip(_units.distinct_first_counts(ids), (np.uint64, np.int64, np.int64))]
        want = distinct_first_counts(ids)
        for g, w in zip(got, want):
            assert np.array_equal(g, w)
    for text in corpus_texts("en")[::4] + corpus_texts("zh-cn")[::4]:
        units = tokenize(text)
        got, want = fpm.simhash_features(units, PARAMS), _numpy(fpm.simhash_features, units, PARAMS)
        assert np.array_equal(got.other_first, want.other_first)
        assert np.array_equal(got.hashes, want.hashes) and np.array_equal(got.weights, want.weights)
    with pytest.raises(ValueError):
        _units.distinct_first_counts(np.arange(4, dtype=np.uint32))


def test_one_bit_fingerprint_and_band_keys_equal_numpy() -> None:
    """core/_units.c: one_bit and band_keys give fingerprints.one_bit_fingerprint and lsh_band_keys
    exactly: signatures of every length around a word's 64 bits, and LSH layouts of several
    thresholds and numbers of permutations."""
    rng = np.random.default_rng(7)
    for k in (0, 1, 2, 63, 64, 65, 127, 128, 129, 256, 1000):
        sig = rng.integers(0, 2**64, size=k, dtype=np.uint64)
        got = fpm.one_bit_fingerprint(sig)
        assert got.dtype == np.uint64 and len(got) == -(-k // 64)
        assert np.array_equal(got, _numpy(fpm.one_bit_fingerprint, sig))
    for threshold in (0.5, 0.7, 0.8, 0.9):
        for perms in (16, 64, 128, 256):
            params = dataclasses.replace(PARAMS, lsh_threshold=threshold, lsh_perms=perms, seed=11)
            sig = rng.integers(0, 2**64, size=max(perms, PARAMS.minhash_bits), dtype=np.uint64)
            got = fpm.lsh_band_keys(sig, params)
            assert got.dtype == np.uint64
            assert np.array_equal(got, _numpy(fpm.lsh_band_keys, sig, params))
    with pytest.raises(ValueError):
        _units.band_keys(np.zeros(10, dtype=np.uint64), 4, 3, 1)  # 12 values asked of 10
