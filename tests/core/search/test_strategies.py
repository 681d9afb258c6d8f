"""Search strategies on random fingerprints: the exact ones return exactly what brute force does."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neardup_gui.core.search import (
    AnchorIndex,
    BruteSearch,
    GroupedSearch,
    HammingSearch,
    LshSearch,
    PermutedSearch,
    SentenceIndex,
    deserialise,
    group_layout,
    make_search,
    permuted_layout,
    serialise,
)
from neardup_gui.core.search.base import pack_state, unpack_state


def _random_fps(rng: np.random.Generator, n: int, bits: int) -> np.ndarray:
    words = -(-bits // 64)
    fps = rng.integers(0, 2**64, size=(n, words), dtype=np.uint64)
    if bits % 64:
        fps[:, -1] &= np.uint64((1 << (bits % 64)) - 1)
    return fps


def _flip(rng: np.random.Generator, fp: np.ndarray, bits: int, count: int) -> np.ndarray:
    out = fp.copy()
    for b in rng.choice(bits, size=count, replace=False):
        out[b // 64] ^= np.uint64(1) << np.uint64(b % 64)
    return out


def _reference(ids: np.ndarray, fps: np.ndarray, q: np.ndarray, radius: int) -> list[tuple[int, int]]:
    """Python-int Hamming distances: the reference of the reference."""
    out = []
    for doc, row in zip(ids.tolist(), fps.tolist()):
        d = sum(bin(a ^ b).count("1") for a, b in zip(row, q.tolist()))
        if d <= radius:
            out.append((d, doc))
    return sorted(out)


def _as_pairs(result: tuple[np.ndarray, np.ndarray]) -> list[tuple[int, int]]:
    ids, dist = result
    return list(zip(dist.tolist(), ids.tolist()))


def _strategies(bits: int, max_radius: int) -> list:
    return [make_search("brute", bits), make_search("permuted", bits, max_radius), make_search("grouped", bits, max_radius)]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    bits=st.sampled_from([64, 128, 256, 400]),
    n=st.integers(0, 300),
    radius_share=st.floats(0.0, 0.12),
)
def test_exact_strategies_equal_brute_force(seed, bits, n, radius_share):
    rng = np.random.default_rng(seed)
    max_radius = max(1, int(bits * radius_share))
    fps = _random_fps(rng, n, bits)
    ids = rng.permutation(10 * n + 1)[:n].astype(np.int64)
    strategies = _strategies(bits, max_radius)
    for s in strategies:
        s.build(ids, fps)
    queries = [_random_fps(rng, 1, bits)[0]]
    for i in rng.integers(0, max(n, 1), size=min(n, 6)):
        # neighbours inside, on and just outside the radius
        queries.append(_flip(rng, fps[i], bits, int(rng.integers(0, max_radius + 3))))
    for q in queries:
        for radius in {0, max_radius // 2, max_radius}:
            expected = _reference(ids, fps, q, radius)
            for s in strategies:
                assert _as_pairs(s.query(q, radius)) == expected, (s.name, radius)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bits=st.sampled_from([64, 256]), ops=st.integers(1, 6))
def test_updates_keep_strategies_equal(seed, bits, ops):
    rng = np.random.default_rng(seed)
    max_radius = 3 if bits == 64 else 26
    ids = np.arange(200, dtype=np.int64)
    fps = _random_fps(rng, 200, bits)
    truth = dict(zip(ids.tolist(), fps))
    strategies = _strategies(bits, max_radius)
    for s in strategies:
        s.build(ids, fps)
    next_id = 200
    for _ in range(ops):
        # add new documents (some near stored ones), replace some, remove some
        new_ids = np.arange(next_id, next_id + 30, dtype=np.int64)
        next_id += 30
        sources = rng.choice(list(truth), size=30)
        new_fps = np.stack([_flip(rng, truth[int(d)], bits, int(rng.integers(0, max_radius + 2))) for d in sources])
        replaced = rng.choice(list(truth), size=5, replace=False).astype(np.int64)
        replaced_fps = _random_fps(rng, 5, bits)
        removed = rng.choice(list(truth), size=8, replace=False).astype(np.int64)
        for s in strategies:
            s.add(new_ids, new_fps)
            s.add(replaced, replaced_fps)
            s.remove(removed)
        truth.update(zip(new_ids.tolist(), new_fps))
        truth.update(zip(replaced.tolist(), replaced_fps))
        for d in removed.tolist():
            truth.pop(d, None)
    all_ids = np.array(sorted(truth), dtype=np.int64)
    all_fps = np.stack([truth[d] for d in all_ids.tolist()])
    for s in strategies:
        assert len(s) == len(truth)
        assert s.doc_ids().tolist() == all_ids.tolist()
    for q in [all_fps[0], all_fps[-1], _flip(rng, all_fps[len(all_fps) // 2], bits, 2)]:
        expected = _reference(all_ids, all_fps, q, max_radius)
        assert len(expected) >= 1
        for s in strategies:
            assert _as_pairs(s.query(q, max_radius)) == expected, s.name
        # compaction and a round trip through bytes change nothing
        for s in strategies:
            again = deserialise(serialise(s))
            assert _as_pairs(again.query(q, max_radius)) == expected, s.name


def test_grouped_radius_changes_at_query_time():
    rng = np.random.default_rng(11)
    bits = 256
    fps = _random_fps(rng, 500, bits)
    ids = np.arange(500, dtype=np.int64)
    grouped = GroupedSearch(bits, max_radius=40)
    grouped.build(ids, fps)
    brute = BruteSearch(bits)
    brute.build(ids, fps)
    m = len(grouped.groups)
    assert m == 43 and grouped.max_radius == m - 1  # g = 256 // 41 = 6 bits, ⌈256/6⌉ groups
    q = _flip(rng, fps[7], bits, 30)
    for radius in (0, 5, 26, 30, m - 1):
        assert _as_pairs(grouped.query(q, radius)) == _as_pairs(brute.query(q, radius))
    with pytest.raises(ValueError):
        grouped.query(q, m)


def test_seed000_example_layouts():
    # seed 000: 64 bits, r_h = 3, six groups of 11, 11, 11, 11, 10, 10 bits
    groups = group_layout(64, 5, 11)
    assert [w for _, w in groups] == [11, 11, 11, 11, 10, 10]
    assert [s for s, _ in groups] == [0, 11, 22, 33, 44, 54]
    # alg.G on the same six blocks: C(6, 3) = 20 tables of three blocks
    layout = permuted_layout(64, 3, blocks=6)
    assert len(layout.tables) == 20 and all(len(t) == 3 for t in layout.tables)
    # seed 002: 4 tables keyed on one 16-bit block each for 64 bits, r_h = 3
    layout = permuted_layout(64, 3)
    assert [layout.blocks[t[0]] for t in layout.tables] == [(0, 16), (16, 16), (32, 16), (48, 16)]


def test_radius_limits_and_bad_input():
    permuted = PermutedSearch(64, 3)
    permuted.build(np.arange(3), np.array([1, 2, 3], dtype=np.uint64))
    assert _as_pairs(permuted.query(1, 3)) == [(0, 0), (1, 2), (2, 1)]
    with pytest.raises(ValueError):
        permuted.query(1, 4)
    with pytest.raises(ValueError):
        permuted.query(1, -1)
    with pytest.raises(ValueError):
        permuted.build(np.array([1, 1]), np.array([1, 2], dtype=np.uint64))
    with pytest.raises(ValueError):
        make_search("grouped", 64)
    with pytest.raises(ValueError):
        make_search("nearest")
    assert isinstance(permuted, HammingSearch)


def test_query_many_matches_query():
    rng = np.random.default_rng(2)
    fps = _random_fps(rng, 100, 64)
    s = PermutedSearch(64, 3)
    s.build(np.arange(100), fps)
    qs = np.stack([_flip(rng, fps[i], 64, 2) for i in range(5)])
    many = s.query_many(qs, 3)
    assert [_as_pairs(r) for r in many] == [_as_pairs(s.query(q, 3)) for q in qs]
    assert all(i in r[0].tolist() for i, r in enumerate(many))


def test_serialised_tables_are_little_endian():
    s = BruteSearch(64)
    s.build(np.array([5]), np.array([0x0102030405060708], dtype=np.uint64))
    blob = serialise(s)
    assert blob[:4] == b"NDSX"
    assert bytes([8, 7, 6, 5, 4, 3, 2, 1]) in blob  # the fingerprint, least significant byte first
    assert (5).to_bytes(8, "little") in blob
    # arrays handed over in big-endian order still come back right
    name, params, arrays = unpack_state(pack_state("brute", {"bits": 64}, {"x": np.array([258], dtype=">u8")}))
    assert arrays["x"].tolist() == [258] and arrays["x"].dtype == np.uint64
    with pytest.raises(ValueError):
        deserialise(b"XXXX" + blob[4:])


def test_lsh_returns_exactly_docs_sharing_a_band_key():
    rng = np.random.default_rng(4)
    keys = rng.integers(0, 50, size=(300, 8), dtype=np.uint64)  # few values: many collisions
    ids = np.arange(1000, 1300, dtype=np.int64)
    lsh = make_search("lsh", bands=8)
    lsh.build(ids, keys)
    lsh.add(np.array([5000]), np.array([[7] * 8], dtype=np.uint64))
    lsh.remove(np.array([1003]))
    stored = {int(d): k for d, k in zip(ids, keys) if d != 1003}
    stored[5000] = np.array([7] * 8, dtype=np.uint64)
    for q in (keys[0], keys[3], np.array([7] * 8, dtype=np.uint64)):
        expected = {d: int((k == q).sum()) for d, k in stored.items() if (k == q).any()}
        got_ids, got_counts = lsh.query(q)
        assert dict(zip(got_ids.tolist(), got_counts.tolist())) == expected
        assert got_counts.tolist() == sorted(got_counts.tolist(), reverse=True)
        twice = {d: c for d, c in expected.items() if c >= 2}
        assert dict(zip(*(a.tolist() for a in lsh.query(q, min_shared=2)))) == twice
    again = deserialise(serialise(lsh))
    assert isinstance(again, LshSearch)
    assert [a.tolist() for a in again.query(keys[0])] == [a.tolist() for a in lsh.query(keys[0])]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), min_shared=st.integers(1, 3))
def test_posting_index_matches_sets(seed, min_shared):
    rng = np.random.default_rng(seed)
    docs = {d: rng.integers(1, 60, size=rng.integers(0, 12), dtype=np.uint64) for d in range(40)}
    index = AnchorIndex()
    index.build(np.array(list(docs)), list(docs.values()))
    # replace one, add two, remove two
    docs[3] = np.array([1, 2, 3], dtype=np.uint64)
    docs[100] = np.array([5, 6, 7, 5], dtype=np.uint64)
    docs[101] = np.array([], dtype=np.uint64)
    index.add(np.array([3, 100, 101]), [docs[3], docs[100], docs[101]])
    for d in (7, 100):
        docs.pop(d)
    index.remove(np.array([7, 100]))
    assert len(index) == len(docs)
    for q in (np.array([1, 2, 3, 5], dtype=np.uint64), rng.integers(1, 60, size=8, dtype=np.uint64)):
        qs = set(q.tolist())
        expected = {d: len(qs & set(h.tolist())) for d, h in docs.items()}
        expected = {d: c for d, c in expected.items() if c >= min_shared}
        for idx in (index, deserialise(serialise(index))):
            ids, counts = idx.candidates(q, min_shared)
            assert dict(zip(ids.tolist(), counts.tolist())) == expected


def test_sentence_index_ignores_empty_buckets():
    index = SentenceIndex()
    index.build(np.array([1, 2, 3]), [np.array([0, 11, 0, 12]), np.array([0, 0, 0, 12]), np.array([0, 0, 0, 0])])
    ids, counts = index.perhaps_similar(np.array([0, 0, 0, 12], dtype=np.uint64))
    assert ids.tolist() == [1, 2] and counts.tolist() == [1, 1]
    assert index.perhaps_similar(np.zeros(4, dtype=np.uint64))[0].tolist() == []
    ids, _ = index.candidates(np.array([12], dtype=np.uint64), max_docs_per_hash=1)
    assert ids.tolist() == []  # 12 is in two documents: skipped as template
