"""The compiled Hamming look-ups (core/_kernels.c: group_hits, table_hits, near_rows) give what
the numpy steps they replace give, on random fingerprints with near-duplicates among them, and
the numpy steps still serve where the tables hold removed or pending rows."""

from __future__ import annotations

import numpy as np
import pytest

from neardup_gui.core import prepared as prepared_module
from neardup_gui.core import compare
from neardup_gui.core.search import (
    BruteSearch, GroupedSearch, PermutedSearch, base, deserialise, grouped, permuted, serialise,
)

_kernels = pytest.importorskip("neardup_gui.core._kernels")


def _fps(rng: np.random.Generator, n: int, words: int, flip_share: float = 0.03) -> np.ndarray:
    fps = rng.integers(0, 2**64, size=(n, words), dtype=np.uint64)
    half = n // 2
    if half:  # the second half: near-duplicates of the first, a few bits flipped
        flips = rng.random((n - half, words, 64)) < flip_share
        masks = (flips * (np.uint64(1) << np.arange(64, dtype=np.uint64))).sum(axis=2, dtype=np.uint64)
        fps[half:] = fps[: n - half] ^ masks
    return fps


def _numpy_query(search, fp, radius):  # noqa: ANN001, ANN202
    saved = base._kernels, grouped._kernels, permuted._kernels
    base._kernels = grouped._kernels = permuted._kernels = None
    try:
        return search.query(fp, radius)
    finally:
        base._kernels, grouped._kernels, permuted._kernels = saved


def _queries(rng: np.random.Generator, fps: np.ndarray, count: int) -> list[np.ndarray]:
    out = []
    for q in range(count):
        if len(fps) and q % 2:
            fp = fps[rng.integers(0, len(fps))].copy()
            fp[rng.integers(0, fps.shape[1])] ^= np.uint64(1) << np.uint64(int(rng.integers(0, 64)))
        else:
            fp = rng.integers(0, 2**64, size=fps.shape[1], dtype=np.uint64)
        out.append(fp)
    return out


@pytest.mark.parametrize("make, words, radii", [
    (lambda: GroupedSearch(256, 39), 4, (0, 3, 20, 39)),  # the minhash channel's layout
    (lambda: GroupedSearch(128, 10), 2, (0, 10)),
    (lambda: PermutedSearch(64, 3), 1, (0, 1, 3)),  # the simhash channel's
    (lambda: PermutedSearch(64, 6), 1, (0, 6)),
])
@pytest.mark.parametrize("n", [0, 1, 9, 2500])
def test_compiled_queries_equal_numpy_and_brute_force(make, words, radii, n: int) -> None:  # noqa: ANN001
    rng = np.random.default_rng(n + words)
    fps = _fps(rng, n, words)
    ids = rng.permutation(np.arange(7, 7 + 5 * n, 5, dtype=np.int64))  # ids unrelated to the rows' order
    search, brute = make(), BruteSearch(64 * words)
    search.build(ids, fps)
    brute.build(ids, fps)
    loaded = deserialise(serialise(search))  # the arrays of a stored snapshot (read-only, int32 rows)
    for fp in _queries(rng, fps if n else np.zeros((0, words), np.uint64), 60):
        for r in radii:
            got = search.query(fp, r)
            want = _numpy_query(search, fp, r)
            exact = brute.query(fp, r)
            for other in (want, exact, loaded.query(fp, r)):
                assert np.array_equal(got[0], other[0]) and np.array_equal(got[1], other[1])
                assert got[0].dtype == np.int64 and got[1].dtype == np.int64


def test_tables_rebuilt_after_changes_are_read_again() -> None:
    """The permuted tables' flat copy follows a rebuild (rows added past the pending limit, then
    folded in), and removed or pending rows are handled by the numpy steps, exactly."""
    rng = np.random.default_rng(4)
    fps = _fps(rng, 600, 1)
    search, brute = PermutedSearch(64, 3), BruteSearch(64)
    search.build(np.arange(300), fps[:300])
    brute.build(np.arange(300), fps[:300])
    queries = _queries(rng, fps, 40)
    for fp in queries:
        assert np.array_equal(search.query(fp, 3)[0], brute.query(fp, 3)[0])  # (the flat copy is made)
    search.add(np.arange(300, 310), fps[300:310])  # pending rows
    brute.add(np.arange(300, 310), fps[300:310])
    search.remove(np.array([1, 2, 305]))  # tombstones and a pending row gone
    brute.remove(np.array([1, 2, 305]))
    for fp in queries + [fps[301], fps[1]]:
        assert np.array_equal(search.query(fp, 3)[0], brute.query(fp, 3)[0])
    search.add(np.arange(310, 600), fps[310:600])  # enough to fold everything into new tables
    brute.add(np.arange(310, 600), fps[310:600])
    search.compact()
    assert not len(search._pending_ids) and not len(search._removed)
    for fp in queries + [fps[599], fps[450]]:
        got, want = search.query(fp, 3), brute.query(fp, 3)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_kernels_refuse_inconsistent_arrays() -> None:
    postings = np.array([0, 1, 2], dtype=np.int32)
    with pytest.raises(ValueError):  # a key beyond the offsets
        _kernels.group_hits(postings, np.array([0, 3], dtype=np.int64), np.array([1], dtype=np.int64), 1, 3)
    with pytest.raises(ValueError):  # offsets beyond the postings
        _kernels.group_hits(postings, np.array([0, 9], dtype=np.int64), np.array([0], dtype=np.int64), 1, 3)
    with pytest.raises(ValueError):  # a row beyond the table (a damaged snapshot: no huge counter array)
        _kernels.group_hits(np.array([0, 2**31 - 1], dtype=np.int32), np.array([0, 2], dtype=np.int64),
                            np.array([0], dtype=np.int64), 1, 3)
    keys, order = np.array([1, 2, 3], dtype=np.uint64), np.array([0, 1, 2], dtype=np.int64)
    with pytest.raises(ValueError):  # one query for two tables
        _kernels.table_hits(keys, np.array([0, 1, 3], dtype=np.int64), order, np.array([1], dtype=np.uint64))
    rows = np.zeros((3, 2), dtype=np.uint64)
    with pytest.raises(ValueError):  # a candidate outside the rows
        _kernels.near_rows(rows, np.array([3], dtype=np.int64), np.zeros(2, np.uint64), 1, np.arange(3))
    with pytest.raises(ValueError):  # rows of another width than the query
        _kernels.near_rows(rows, np.array([0], dtype=np.int64), np.zeros(3, np.uint64), 1, np.arange(3))


def test_least_reaching_count_equals_the_bisection() -> None:
    """prepared_module._least_reaching starts from the closed form for a similarity cut-off: the count it
    returns is the bisection's, the least one _below_cutoffs lets through."""

    def bisection(n_a: int, n_b: int, s: float) -> int | None:
        hi = min(n_a, n_b)
        if compare._below_cutoffs(hi, n_a, n_b, s, None):
            return None
        if not compare._below_cutoffs(0, n_a, n_b, s, None):
            return 0
        lo = 0
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if compare._below_cutoffs(mid, n_a, n_b, s, None):
                lo = mid
            else:
                hi = mid
        return hi

    rng = np.random.default_rng(7)
    cuts = [0.8, 0.5, 0.2, 1.0, 0.9, 1e-9, 0.999999, 1 / 3, 2 / 3, *rng.random(20).tolist()]
    sizes = list(range(0, 40)) + rng.integers(1, 200_000, 60).tolist()
    for s in cuts:
        for n_a in sizes:
            for n_b in (0, 1, 5, n_a, n_a + 1, max(0, n_a - 1), 2 * n_a, int(rng.integers(1, 200_000))):
                assert prepared_module._least_reaching(n_a, n_b, s, None) == bisection(n_a, n_b, s), (n_a, n_b, s)
