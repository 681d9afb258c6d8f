"""A pass's unit codes in C (core/_kernels.c: unit_codes, code_table_put) are the codes the
Python dictionary gives, code for code: on random unit ids (hashes, CJK code points, many
repeats) with removed stretches coded in between, as the table grows, and in every prepared
document of the corpus. A table that would overflow is refused and left as it was."""

from __future__ import annotations

import numpy as np
import pytest

from neardup_gui.core.prepared import prepare_document, UnitCodes
from neardup_gui.core.units import tokenize
from tests.corpus import corpus_dir

_kernels = pytest.importorskip("neardup_gui.core._kernels")


def _python_codes() -> UnitCodes:
    codes = UnitCodes()
    codes._keys = codes._vals = None  # the dictionary (the code without core/_kernels.c)
    return codes


def test_the_compiled_codes_are_the_dictionarys() -> None:
    rng = np.random.default_rng(2026)
    for trial in range(24):
        compiled, python = UnitCodes(), _python_codes()
        assert compiled._keys is not None
        size = int(rng.integers(1, 6000))
        if trial % 3 == 0:  # CJK characters: ids are code points, differing in their low bits only
            vocab = np.arange(0x4E00, 0x4E00 + size, dtype=np.uint64)
        elif trial % 3 == 1:
            vocab = rng.integers(0, 2**64, size=size, dtype=np.uint64)
        else:  # ids equal in their low 32 bits
            vocab = rng.integers(0, 2**20, size=size, dtype=np.uint64) << np.uint64(40)
        for _doc in range(30):
            ids = vocab[rng.integers(0, len(vocab), size=int(rng.integers(0, 3000)))]
            got, want = compiled.encode(ids), python.encode(ids)
            assert got.dtype == want.dtype == np.uint32
            assert np.array_equal(got, want)
            gaps = [bytes(rng.integers(0, 3, size=2).astype(np.uint8)) for _ in range(int(rng.integers(0, 4)))]
            assert compiled.encode_gaps(gaps) == python.encode_gaps(gaps)
            assert len(compiled) == len(python)
        assert 2 * compiled._units <= len(compiled._keys)  # grown, never more than half full
        assert compiled._units == int((compiled._vals != 0xFFFFFFFF).sum())


def test_new_units_are_coded_in_ascending_order_of_id_after_the_known_ones() -> None:
    codes = UnitCodes()
    assert codes.encode(np.array([9, 3, 9, 5], dtype=np.uint64)).tolist() == [2, 0, 2, 1]
    assert codes.encode_gaps([b"x"]) == {b"x": 3}
    assert codes.encode(np.array([4, 9, 2**64 - 1, 1], dtype=np.uint64)).tolist() == [5, 2, 6, 4]
    assert len(codes) == 7
    assert codes.encode(np.zeros(0, dtype=np.uint64)).tolist() == []


def test_every_prepared_document_of_the_corpus_has_the_dictionarys_codes() -> None:
    compiled, python = UnitCodes(), _python_codes()
    paths = sorted(corpus_dir().rglob("*.txt"))[:60]
    assert paths
    for path in paths:
        units = tokenize(path.read_text(encoding="utf-8"))
        a = prepare_document(units, min_run=8, codes=compiled)
        b = prepare_document(units, min_run=8, codes=python)
        assert np.array_equal(a.codes, b.codes) and np.array_equal(a.items, b.items)


def test_a_full_table_is_refused_and_left_as_it_was() -> None:
    keys = np.zeros(8, dtype=np.uint64)
    vals = np.full(8, 0xFFFFFFFF, dtype=np.uint32)
    coded, after = _kernels.unit_codes(keys, vals, np.arange(10, 16, dtype=np.uint64), 0)
    assert np.frombuffer(coded, dtype=np.uint32).tolist() == [0, 1, 2, 3, 4, 5] and after == 6
    before = keys.copy(), vals.copy()
    with pytest.raises(ValueError, match="full"):
        _kernels.unit_codes(keys, vals, np.arange(100, 110, dtype=np.uint64), 6)
    assert np.array_equal(keys, before[0]) and np.array_equal(vals, before[1])
    # the units already in it are still found, with their codes
    coded, after = _kernels.unit_codes(keys, vals, np.array([15, 10], dtype=np.uint64), 6)
    assert np.frombuffer(coded, dtype=np.uint32).tolist() == [5, 0] and after == 6


def test_the_table_functions_refuse_what_they_cannot_hold() -> None:
    ids = np.arange(3, dtype=np.uint64)
    with pytest.raises(ValueError, match="2\\*\\*k"):  # not a power of two
        _kernels.unit_codes(np.zeros(6, np.uint64), np.full(6, 0xFFFFFFFF, np.uint32), ids, 0)
    with pytest.raises(ValueError, match="2\\*\\*k"):  # keys and values of different lengths
        _kernels.unit_codes(np.zeros(8, np.uint64), np.full(4, 0xFFFFFFFF, np.uint32), ids, 0)
    with pytest.raises(TypeError):  # ids of 4 bytes
        _kernels.unit_codes(np.zeros(8, np.uint64), np.full(8, 0xFFFFFFFF, np.uint32), ids.astype(np.uint32), 0)
    with pytest.raises(ValueError, match="read-only"):  # a read-only table
        keys = np.zeros(8, np.uint64)
        keys.flags.writeable = False
        _kernels.unit_codes(keys, np.full(8, 0xFFFFFFFF, np.uint32), ids, 0)
    with pytest.raises(OverflowError):
        _kernels.unit_codes(np.zeros(8, np.uint64), np.full(8, 0xFFFFFFFF, np.uint32), ids, 0xFFFFFFFC)
    with pytest.raises(ValueError, match="as many codes"):
        _kernels.code_table_put(np.zeros(8, np.uint64), np.full(8, 0xFFFFFFFF, np.uint32), ids, np.zeros(2, np.uint32))
    with pytest.raises(ValueError, match="out of range"):
        _kernels.code_table_put(np.zeros(8, np.uint64), np.full(8, 0xFFFFFFFF, np.uint32), ids,
                                np.full(3, 0xFFFFFFFF, np.uint32))


def test_codes_become_the_same_string_whatever_their_array() -> None:
    """The alignment reads codes as a str: decoded in place from the pass's uint32 items, through
    a copy from anything else (other types, byte orders, strided views), the same characters."""
    from neardup_gui.core.align import _as_str

    rng = np.random.default_rng(7)
    for dtype in (np.uint32, np.int64, np.uint16, np.dtype(">u4")):
        codes = rng.integers(0, 0xD800, 1000).astype(dtype)
        for view in (codes, codes[::2], codes[::-1], codes[:0], codes[5:6]):
            assert _as_str(view) == "".join(map(chr, view.tolist()))
