"""The bound of what revised passages cover, computed from each document's seed windows hashed
once (a check's long submission is not hashed again for each candidate): a speed-up that must
not change an answer, so it is the bound computed pair by pair, and the prepared comparison
still returns what the plain one returns."""

from __future__ import annotations

import random

import pytest

from neardup_gui.core.compare import compare_documents, revised_bound
from neardup_gui.core.prepared import UnitCodes, _revised_bound_prepared, compare_prepared, prepare_document
from neardup_gui.core.units import tokenize
from tests.corpus import corpus_dir


def _sections(lang: str, n: int) -> list[str]:
    folder = corpus_dir() / ("debian-reference-zh-cn" if lang == "zh" else "debian-reference-en")
    texts = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt"))]
    return [t for t in texts if 600 <= len(t) <= 6000][:n]


def _revise(text: str, rng: random.Random, every: tuple[int, int]) -> str:
    """A heavy revision of Chinese (and the words among it): one unit in every few replaced, so
    that only short runs stay in place — four to seven characters, two to six words."""
    units = tokenize(text)
    out, last = [], 0
    gap = rng.randint(*every)
    for k in range(len(units)):
        gap -= 1
        if gap == 0:
            start, end = int(units.starts[k]), int(units.ends[k])
            out.append(text[last:start])
            out.append("改" if units.cjk is not None and units.cjk[k] else "changed")
            last = end
            gap = rng.randint(*every)
    out.append(text[last:])
    return "".join(out)


def _passages(c):
    return [(p.a, p.b, p.revised, p.moved, p.matched_units) for p in c.passages]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_revised_bound_from_each_documents_seed_windows_is_the_pairs_bound(lang):
    rng = random.Random(11)
    texts = _sections(lang, 10)
    codes = UnitCodes()
    prepared = [prepare_document(tokenize(t), min_run=8, codes=codes) for t in texts]
    prepared += [prepare_document(tokenize(_revise(t, rng, (4, 9))), min_run=8, codes=codes) for t in texts[:4]]
    for a in prepared:
        for b in prepared:
            n = max(a.top_item, b.top_item) + 1
            assert _revised_bound_prepared(a, b) == revised_bound(a.items, b.items, a.unit, b.unit, n)
    # and the prepared comparison still equals the plain one on these pairs
    for a_text, b_text in zip(texts[:4], texts[1:5]):
        copy = _revise(a_text, rng, (4, 9)) + b_text[:300]
        pa = prepare_document(tokenize(copy), min_run=8, codes=codes)
        pb = prepare_document(tokenize(a_text), min_run=8, codes=codes)
        got = compare_prepared(pa, pb, min_similarity=0.01, min_containment=0.01)
        want = compare_documents(copy, a_text, min_run=8, min_similarity=0.01, min_containment=0.01,
                                 with_raw_lcs=False)
        assert (got is None) == (want is None)
        if got is not None:
            assert _passages(got) == _passages(want) and got.containment_a == want.containment_a
