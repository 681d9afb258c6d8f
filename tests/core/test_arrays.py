import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from neardup_gui.core.arrays import distinct, distinct_first_counts


@given(hnp.arrays(st.sampled_from([np.uint64, np.int64, np.uint32]), hnp.array_shapes(max_dims=2, max_side=40),
                  elements=st.integers(0, 50)))
def test_distinct_equals_np_unique(values):
    got = distinct(values)
    want = np.unique(values)
    assert got.dtype == want.dtype
    assert got.tolist() == want.tolist()


def test_distinct_of_empty():
    assert distinct(np.empty(0, dtype=np.uint64)).tolist() == []


@given(hnp.arrays(np.uint64, st.integers(0, 60), elements=st.integers(0, 9)))
def test_distinct_first_counts_equals_np_unique(values):
    uniq, first, counts = distinct_first_counts(values)
    want = np.unique(values, return_index=True, return_counts=True)
    assert [x.tolist() for x in (uniq, first, counts)] == [x.tolist() for x in want]


@given(hnp.arrays(np.uint64, st.integers(0, 3000), elements=st.integers(0, 40)))
def test_distinct_first_counts_of_long_arrays_with_many_equal_values(values):
    # (long enough for the unstable sort to reorder equal values: the first index is still the least)
    uniq, first, counts = distinct_first_counts(values)
    want = np.unique(values, return_index=True, return_counts=True)
    assert [x.tolist() for x in (uniq, first, counts)] == [x.tolist() for x in want]
