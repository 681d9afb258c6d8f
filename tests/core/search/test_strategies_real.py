"""Search strategies on REAL fingerprints of the corpus, with planted near-duplicates."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neardup_gui.core.fingerprints import fingerprint, hamming_radius, lsh_layout
from neardup_gui.core.units import sentences
from neardup_gui.core.search import AnchorIndex, SentenceIndex, make_search
from neardup_gui.core.settings import FingerprintParams
from neardup_gui.core.units import tokenize

PARAMS = FingerprintParams()
K = PARAMS.minhash_bits


def _edit(text: str, rng: np.random.Generator) -> str:
    """A light resubmission: one sentence dropped, one reworded, one added."""
    spans = sentences(text)
    if len(spans) < 4:
        return text + "\n新增的一句话。"
    drop, reword = rng.choice(len(spans), size=2, replace=False)
    out, pos = [], 0
    for i, (s, e) in enumerate(spans):
        out.append(text[pos:s])
        if i == reword:
            out.append(text[s:e][::-1])  # same characters, new order: a reworded sentence
        elif i != drop:
            out.append(text[s:e])
        pos = e
    out.append(text[pos:])
    return "".join(out) + "\nA sentence the applicant added. 申请人新增的一句话。"


@pytest.fixture(scope="module")
def real(corpus_dir):
    rng = np.random.default_rng(2024)
    texts = [f.read_text(encoding="utf-8") for f in sorted(corpus_dir.glob("debian-reference-*/*.txt"))]
    planted_from = rng.choice(len(texts), size=60, replace=False)
    texts += [_edit(texts[i], rng) for i in planted_from]
    fps = [fingerprint(t, tokenize(t), PARAMS) for t in texts]
    ids = np.arange(len(texts), dtype=np.int64) * 10 + 1
    return {
        "ids": ids,
        "simhash": np.array([f.simhash for f in fps], dtype=np.uint64).reshape(-1, 1),
        "bits": np.stack([f.minhash_bits for f in fps]),
        "lsh": np.stack([f.lsh_keys for f in fps]),
        "fps": fps,
        "planted": [(int(src), len(texts) - 60 + j) for j, src in enumerate(planted_from)],
    }


def _pairs(result):
    return list(zip(result[1].tolist(), result[0].tolist()))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_real_fingerprints_all_strategies_agree(real, data):
    kind = data.draw(st.sampled_from(["simhash", "bits"]))
    if kind == "simhash":
        bits, radius = 64, data.draw(st.integers(0, 3))
    else:
        bits, radius = K, hamming_radius(K, data.draw(st.sampled_from([0.7, 0.75, 0.8, 0.85, 0.9, 0.95])))
    matrix = real[kind]
    strategies = [make_search("brute", bits), make_search("permuted", bits, radius), make_search("grouped", bits, radius)]
    for s in strategies:
        s.build(real["ids"], matrix)
    src, planted = data.draw(st.sampled_from(real["planted"]))
    for q in (matrix[src], matrix[planted], matrix[data.draw(st.integers(0, len(matrix) - 1))]):
        expected = _pairs(strategies[0].query(q, radius))
        assert len(expected) >= 1
        for s in strategies[1:]:
            assert _pairs(s.query(q, radius)) == expected, s.name


def test_planted_edits_lie_within_the_radius(real):
    """The radii are not vacuous: planted resubmissions really are neighbours."""
    ids = real["ids"]
    grouped = make_search("grouped", K, hamming_radius(K, 0.7))
    grouped.build(ids, real["bits"])
    simhash = make_search("permuted", 64, 3)
    simhash.build(ids, real["simhash"])
    found_bits = found_sim = 0
    for src, planted in real["planted"]:
        found_bits += ids[planted] in grouped.query(real["bits"][src], hamming_radius(K, 0.7))[0]
        found_sim += ids[planted] in simhash.query(real["simhash"][src], 3)[0]
    assert found_bits >= 40  # of 60
    assert found_sim >= 20


def test_lsh_and_sentence_and_anchor_lookups_find_planted(real):
    ids = real["ids"]
    bands, _ = lsh_layout(PARAMS.lsh_threshold, PARAMS.lsh_perms)
    lsh = make_search("lsh", bands=bands)
    lsh.build(ids, real["lsh"])
    sent = SentenceIndex()
    sent.build(ids, [f.sentence_fps for f in real["fps"]])
    anchors = AnchorIndex()
    anchors.build(ids, [f.anchors for f in real["fps"]])
    hits = {"lsh": 0, "sentences": 0, "anchors": 0}
    for src, planted in real["planted"]:
        hits["lsh"] += ids[planted] in lsh.query(real["lsh"][src])[0]
        hits["sentences"] += ids[planted] in sent.perhaps_similar(real["fps"][src].sentence_fps)[0]
        got, shared = anchors.candidates(real["fps"][src].anchors, min_shared=1)
        hits["anchors"] += ids[planted] in got
    assert hits["lsh"] >= 50
    assert hits["sentences"] >= 45
    assert hits["anchors"] == 60  # every edit leaves common runs far longer than G units
