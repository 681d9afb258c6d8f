"""A round of the any-order tiling reads the shared selection only, not the whole texts (a long
submission against a candidate that shares a chance run or two with it): the stretches it packs
are those the whole-text masks gave, and the comparison is what it was."""

from __future__ import annotations

import numpy as np

from neardup_gui.core.compare import _open_stretches, _stretches_of, compare_documents


def test_the_stretches_of_a_selection_are_those_of_its_mask():
    rng = np.random.default_rng(0)
    for _ in range(3000):
        n = int(rng.integers(0, 80))
        mask = rng.random(n) < rng.random()
        k = int(rng.integers(1, 10))
        want = _open_stretches(mask, k)
        got = _stretches_of(np.flatnonzero(mask), k)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_a_phrase_repeated_in_a_long_text_is_matched_once_and_the_rest_found_moved():
    phrase = "the committee shall review every proposal against the published criteria"
    filler = " ".join(f"word{n}" for n in range(400))
    long_text = f"{phrase}. {filler}. {phrase}. tail text here. second block of copied words stays the same"
    short = "second block of copied words stays the same today and " + phrase
    c = compare_documents(short, long_text, min_run=8, with_raw_lcs=False)
    # the phrase is counted once in the short text, the moved block too
    assert c.passage_units_a == c.units_a - 2  # all but "today and"
    assert sum(p.moved for p in c.passages) == 1
