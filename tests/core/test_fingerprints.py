"""Fingerprints: simhash weighting, 1-bit minhash, estimate and radius, LSH, sentences, anchors."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import mmh3
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neardup_gui.core import fingerprints as fpm
from neardup_gui.core import units as units_mod
from neardup_gui.core.fingerprints import (
    Fingerprints,
    anchor_guarantee,
    anchor_kgrams,
    anchors,
    estimate_similarity,
    fingerprint,
    hamming,
    hamming_radius,
    lsh_band_keys,
    lsh_layout,
    minhash_signature,
    one_bit_fingerprint,
    sentence_fingerprints,
    shingle_hashes,
    simhash64,
    simhash_from_features,
    simhash_from_sqlite,
    simhash_to_sqlite,
    simhash_weights,
    words_from_bytes,
    words_to_bytes,
)
from neardup_gui.core.settings import FingerprintParams
from neardup_gui.core.units import tokenize

PARAMS = FingerprintParams()
ROOT = Path(__file__).resolve().parents[2]


def _texts(corpus: Path, lang: str, count: int) -> list[str]:
    files = sorted((corpus / f"debian-reference-{lang}").glob("*.txt"))[:count]
    return [f.read_text(encoding="utf-8") for f in files]


def _exact_jaccard(a: str, b: str) -> float:
    sa = set(shingle_hashes(tokenize(a).ids, PARAMS).tolist())
    sb = set(shingle_hashes(tokenize(b).ids, PARAMS).tolist())
    return len(sa & sb) / len(sa | sb)


# ------------------------------------------------------------------------------------ simhash


def test_simhash_weights_worked_example():
    # λ = 0.5. 计算机: tf 2, noun → 2 + 0.5·1 = 2.5 (the maximum, so W = 1).
    # 研究: tf 1, tagged vn (not a noun) → 1 → 0.4. 中华人民共和国: noun, 7 characters →
    # 1 + 0.5·2 = 2 → 0.8. 快速: adverb → 0.4. 数据库: noun → 1.5 → 0.6.
    # database: tf 2 after lower-casing, 8 letters → 2.5 → 1.0; fast: 4 letters → 1.5 → 0.6.
    # 的, 我们, the, is: stop words.
    text = "计算机计算机研究的中华人民共和国。我们快速数据库 The database Database is fast"
    assert simhash_weights(text, PARAMS) == pytest.approx(
        {"计算机": 1.0, "研究": 0.4, "中华人民共和国": 0.8, "快速": 0.4, "数据库": 0.6, "database": 1.0, "fast": 0.6}
    )


def test_simhash_weights_follow_lambda():
    weights = simhash_weights("database database fast", FingerprintParams(simhash_lambda=2.0))
    # database: 2 + 2·1 = 4; fast: 1 + 2·1 = 3
    assert weights == pytest.approx({"database": 1.0, "fast": 0.75})


def test_simhash_bits_are_signs_of_weighted_sums():
    rng = np.random.default_rng(4)
    hashes = rng.integers(0, 2**64, size=5, dtype=np.uint64)
    weights = np.array([1.0, 0.7, 0.2, 0.45, 0.3])
    expected = 0
    for bit in range(64):
        total = sum(w if int(h) >> bit & 1 else -w for h, w in zip(hashes, weights))
        expected |= int(total > 0) << bit
    assert simhash_from_features(hashes, weights) == expected
    assert simhash_from_features(np.empty(0, np.uint64), np.empty(0)) == 0


def test_simhash_features_hash_words_with_the_seed():
    """Chinese words by seeded mmh3 of the word; other words by their unit id mixed with the seed."""
    from neardup_gui.core.units import unit_id

    f = fpm.simhash_features(tokenize("计算机 database"), PARAMS)
    seed = fpm._derived_seed(PARAMS.seed, fpm._P_SIMHASH)
    assert f.cjk_words == ("计算机",)
    assert int(f.hashes[0]) == mmh3.hash64("计算机", seed & 0xFFFFFFFF, signed=False)[0]
    mixed = fpm._mix(np.array([unit_id("database") ^ seed], dtype=np.uint64))[0]
    assert int(f.hashes[1]) == int(mixed)


def test_simhash_of_light_edit_is_near(corpus_dir):
    for text in _texts(corpus_dir, "zh-cn", 3) + _texts(corpus_dir, "en", 3):
        edited = text.replace("。", "，", 2).replace(". ", "; ", 2) + "\n附加一句话。"
        others = [simhash64(t, PARAMS) for t in _texts(corpus_dir, "en", 12)[6:]]
        mine = simhash64(text, PARAMS)
        assert hamming(np.uint64(mine), np.uint64(simhash64(edited, PARAMS))) <= 6
        assert np.mean([hamming(np.uint64(mine), np.uint64(o)) for o in others]) > 12


def test_simhash_sqlite_round_trip():
    for value in (0, 1, (1 << 63) - 1, 1 << 63, (1 << 64) - 1):
        stored = simhash_to_sqlite(value)
        assert -(1 << 63) <= stored < (1 << 63)
        assert simhash_from_sqlite(stored) == value


# ------------------------------------------------------------------------- minhash and 1 bit


def _oph_reference(hashes, count, seed):
    """One permutation hashing with optimal densification, one plain Python step at a time."""
    hashes = [int(h) for h in hashes]
    bins = {}
    for h in hashes:
        b = (h >> 32) * count >> 32
        bins[b] = min(bins.get(b, h), h)
    dseed = fpm._derived_seed(seed, fpm._P_DENSIFY)
    out = []
    for i in range(count):
        if i in bins:
            out.append(bins[i])
            continue
        t = 0
        while True:
            probe = int(fpm._mix(np.array([((i << 32) ^ t ^ dseed) & (2**64 - 1)], dtype=np.uint64))[0]) % count
            if probe in bins:
                out.append(bins[probe])
                break
            t += 1
    return out


@pytest.mark.parametrize("n,count", [(1, 64), (3, 256), (40, 256), (5000, 256), (900, 1024), (300, 400)])
def test_minhash_matches_the_one_permutation_reference(n, count):
    rng = np.random.default_rng(n + count)
    ids = rng.integers(0, 2**64, size=n + 3, dtype=np.uint64)
    params = FingerprintParams(minhash_bits=64, lsh_perms=64)
    sig = minhash_signature(ids, params, count)
    assert sig.tolist() == _oph_reference(shingle_hashes(ids, params), count, params.seed)


def test_minhash_bins_collide_with_probability_jaccard():
    """Every bin, densified or not, agrees in two documents with probability J (unbiased)."""
    rng = np.random.default_rng(11)
    for size, overlap in ((30, 10), (400, 300), (2000, 500)):  # sparse to dense, J = o/(2s − o)
        j = overlap / (2 * size - overlap)
        agree = []
        for trial in range(60):
            common = rng.integers(0, 2**64, size=overlap, dtype=np.uint64)
            a = np.unique(np.concatenate([common, rng.integers(0, 2**64, size=size - overlap, dtype=np.uint64)]))
            b = np.unique(np.concatenate([common, rng.integers(0, 2**64, size=size - overlap, dtype=np.uint64)]))
            seed = int(rng.integers(1, 2**31))
            sa = fpm.one_permutation_signature(a, 256, seed)
            sb = fpm.one_permutation_signature(b, 256, seed)
            agree.append((sa == sb).mean())
        # mean of 60 × 256 bin agreements; densified bins are correlated, so a loose 5 % band
        assert abs(np.mean(agree) - j) < 0.05, (size, overlap, np.mean(agree), j)


def test_empty_text_has_max_signature_and_no_anchors():
    units = tokenize("。，")
    sig = minhash_signature(units.ids, PARAMS)
    assert (sig == np.iinfo(np.uint64).max).all()
    fps = fingerprint("。，", units, PARAMS)
    assert fps.simhash == 0
    assert len(fps.anchors) == 0
    assert not fps.sentence_fps.any()


def test_one_bit_packing_layout():
    rng = np.random.default_rng(1)
    sig = rng.integers(0, 2**64, size=400, dtype=np.uint64)
    words = one_bit_fingerprint(sig)
    assert words.dtype == np.uint64 and len(words) == 7  # ⌈400/64⌉
    assert int(words[6]) >> 16 == 0  # the 48 padding bits stay 0
    changed = sig.copy()
    changed[70] ^= np.uint64(12345)
    diff = np.bitwise_xor(words, one_bit_fingerprint(changed))
    # only bit 70 = bit 6 of word 1 may differ
    assert all(int(d) == 0 for i, d in enumerate(diff) if i != 1)
    assert int(diff[1]) & ~(1 << 6) == 0
    # bit j really is the b(min) of permutation j: equal minimums give equal bits
    assert one_bit_fingerprint(sig[:64])[0] == words[0]


def test_hamming_radius_formula():
    assert hamming_radius(100, 0.8) == 10  # seed 000's worked example
    assert hamming_radius(64, 0.9) == 4  # ⌈3.2⌉
    assert hamming_radius(256, 0.8) == 26  # ⌈25.6⌉
    assert hamming_radius(400, 0.7) == 60
    assert hamming_radius(1024, 0.7) == 154  # ⌈153.6⌉
    assert hamming_radius(256, 1.0) == 0


def test_estimate_formula():
    a = np.array([0, 0, 0, 0], dtype=np.uint64)
    ones = np.full(4, np.iinfo(np.uint64).max, dtype=np.uint64)
    half = np.array([np.iinfo(np.uint64).max, np.iinfo(np.uint64).max, 0, 0], dtype=np.uint64)
    assert estimate_similarity(a, a, 256) == 1.0
    assert estimate_similarity(a, ones, 256) == -1.0
    assert estimate_similarity(a, half, 256) == 0.0
    # 26 differing bits of 256: E_b = 230/256, R̂ = 2·230/256 − 1
    b = a.copy()
    b[0] = np.uint64((1 << 26) - 1)
    assert hamming(a, b) == 26
    assert estimate_similarity(a, b, 256) == pytest.approx(2 * 230 / 256 - 1)


def test_estimate_tracks_exact_jaccard_on_planted_edits(corpus_dir):
    rng = np.random.default_rng(3)
    params = FingerprintParams(minhash_bits=1024)
    for text in _texts(corpus_dir, "en", 4) + _texts(corpus_dir, "zh-cn", 4):
        paras = text.split("\n")
        keep = [p for p in paras if rng.random() > 0.25] or paras[:1]
        edited = "\n".join(keep)
        exact = _exact_jaccard(text, edited)
        fa = one_bit_fingerprint(minhash_signature(tokenize(text).ids, params))
        fb = one_bit_fingerprint(minhash_signature(tokenize(edited).ids, params))
        est = estimate_similarity(fa, fb, 1024)
        e_b = (1 + exact) / 2
        sigma = 2 * math.sqrt(e_b * (1 - e_b) / 1024)
        assert abs(est - exact) <= 4 * sigma + 1e-9, (exact, est)


# ------------------------------------------------------------------------------------- LSH


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.7, 0.8, 0.9])
@pytest.mark.parametrize("num_perm", [64, 128])
def test_lsh_layout_matches_datasketch(threshold, num_perm):
    from datasketch.lsh import _optimal_param

    assert lsh_layout(threshold, num_perm) == fpm._lsh_layout_computed(threshold, num_perm) == _optimal_param(threshold, num_perm, 0.5, 0.5)


def test_known_lsh_layouts_are_the_computed_ones():
    for (threshold, perms), layout in fpm.KNOWN_LSH_LAYOUTS.items():
        assert fpm._lsh_layout_computed(threshold, perms) == layout


def test_lsh_band_keys_change_only_with_their_band():
    bands, rows = lsh_layout(PARAMS.lsh_threshold, PARAMS.lsh_perms)
    sig = minhash_signature(tokenize("one two three four five six seven").ids, PARAMS)
    keys = lsh_band_keys(sig, PARAMS)
    assert keys.shape == (bands,) and keys.dtype == np.uint64
    assert len(set(keys.tolist())) == bands  # equal rows in two bands still give two keys
    changed = sig.copy()
    changed[2 * rows] ^= np.uint64(1)  # first row of band 2
    diff = np.flatnonzero(keys != lsh_band_keys(changed, PARAMS))
    assert diff.tolist() == [2]


# -------------------------------------------------------------------------------- sentences


def test_sentence_fingerprints_ignore_spacing_punctuation_and_case():
    a = "The Quick brown fox. It jumps over the dog! 我们今天开会。明天继续讨论。"
    b = "the quick  Brown fox… It jumps,over the dog ! 我们今天开会。 明天继续讨论。"
    fa, fb = sentence_fingerprints(a, PARAMS), sentence_fingerprints(b, PARAMS)
    assert fa.shape == (PARAMS.sentence_buckets,)
    assert np.array_equal(fa, fb)
    assert np.count_nonzero(fa) <= 4  # four sentences fill at most four buckets


def test_one_changed_sentence_touches_at_most_two_buckets(corpus_dir):
    for text in _texts(corpus_dir, "zh-cn", 3) + _texts(corpus_dir, "en", 3):
        spans = units_mod.sentences(text)
        s, e = spans[len(spans) // 2]
        edited = text[:s] + "完全不同的一句话 entirely new words here。" + text[e:]
        diff = np.count_nonzero(sentence_fingerprints(text, PARAMS) != sentence_fingerprints(edited, PARAMS))
        assert diff <= 2


def test_single_sentence_fills_one_bucket():
    fps = sentence_fingerprints("只有一句话。", PARAMS)
    assert np.count_nonzero(fps) == 1


# ---------------------------------------------------------------------------------- anchors


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    before_a=st.integers(0, 300),
    before_b=st.integers(0, 300),
    extra=st.integers(0, 40),
)
def test_common_run_of_g_units_shares_an_anchor(seed, before_a, before_b, extra):
    rng = np.random.default_rng(seed)
    g = anchor_guarantee(PARAMS)
    run = rng.integers(0, 2**64, size=g + extra, dtype=np.uint64)
    a = np.concatenate([rng.integers(0, 2**64, size=before_a, dtype=np.uint64), run,
                        rng.integers(0, 2**64, size=200, dtype=np.uint64)])
    b = np.concatenate([rng.integers(0, 2**64, size=before_b, dtype=np.uint64), run,
                        rng.integers(0, 2**64, size=50, dtype=np.uint64)])
    assert len(np.intersect1d(anchors(a, PARAMS), anchors(b, PARAMS))) >= 1


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), length=st.integers(0, 400))
def test_every_kgram_look_up_finds_a_stored_anchor_from_one_common_kgram(seed, length):
    """check's look-up: the k-grams of the query are a superset of its anchors, and any single
    k-gram it shares with a stored text (far less than G units) is among them, so every stored
    anchor whose k-gram survived an edit is found."""
    rng = np.random.default_rng(seed)
    stored = rng.integers(0, 2**64, size=300, dtype=np.uint64)
    query = rng.integers(0, 2**64, size=length, dtype=np.uint64)
    keys = anchor_kgrams(query, PARAMS)
    assert np.all(keys[1:] > keys[:-1])  # sorted, distinct
    assert np.isin(anchors(query, PARAMS), keys).all()
    k = PARAMS.anchor_kgram
    for p in rng.choice(len(stored) - k + 1, size=5, replace=False):
        planted = np.concatenate([query[: length // 2], stored[p : p + k], query[length // 2 :]])
        kgram_hash = anchor_kgrams(stored[p : p + k], PARAMS)
        assert len(kgram_hash) == 1
        assert kgram_hash[0] in anchor_kgrams(planted, PARAMS)
    assert len(anchor_kgrams(query[: k - 1], PARAMS)) == 0  # no whole k-gram: no key


def test_anchor_density_on_real_text(corpus_dir):
    units = [tokenize(t) for t in _texts(corpus_dir, "zh-cn", 20) + _texts(corpus_dir, "en", 20)]
    total = sum(len(u) for u in units)
    count = sum(len(anchors(u.ids, PARAMS)) for u in units)
    assert 20 <= total / count <= 40


def test_partial_copy_found_by_anchors_not_by_minhash(corpus_dir):
    texts = _texts(corpus_dir, "en", 12)
    host = texts[0]
    source = max(texts[1:], key=len)
    paras = source.split("\n")
    taken = 1
    while taken < len(paras) and len(tokenize("\n".join(paras[:taken]))) < 3 * anchor_guarantee(PARAMS):
        taken += 1
    section = "\n".join(paras[:taken])
    copy = host + "\n" + section
    shared = np.intersect1d(anchors(tokenize(copy).ids, PARAMS), anchors(tokenize(source).ids, PARAMS))
    assert len(shared) >= 2
    assert _exact_jaccard(copy, source) < 0.5


# ------------------------------------------------------------------------- bytes and seeds


def test_words_serialise_little_endian():
    assert words_to_bytes(np.array([1, 2], dtype=np.uint64)) == bytes([1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0])
    big = np.array([1, 258], dtype=">u8")
    assert words_to_bytes(big) == words_to_bytes(np.array([1, 258], dtype=np.uint64))
    back = words_from_bytes(words_to_bytes(big))
    assert back.dtype == np.uint64 and back.tolist() == [1, 258]
    with pytest.raises(ValueError):
        words_from_bytes(b"123")


def test_fingerprints_round_trip(corpus_dir):
    text = _texts(corpus_dir, "zh-cn", 1)[0]
    fps = fingerprint(text, tokenize(text), PARAMS)
    blob = fps.to_bytes()
    assert blob[:8] == fps.simhash.to_bytes(8, "little")
    back = Fingerprints.from_bytes(blob)
    assert back == fps
    assert len(back.minhash_bits) == PARAMS.minhash_bits // 64
    assert len(back.lsh_keys) == lsh_layout(PARAMS.lsh_threshold, PARAMS.lsh_perms)[0]
    with pytest.raises(ValueError):
        Fingerprints.from_bytes(blob + b"\0")


_CHILD = """
import sys
from neardup_gui.core.fingerprints import fingerprint
from neardup_gui.core.settings import FingerprintParams
from neardup_gui.core.units import tokenize
text = sys.stdin.read()
print(fingerprint(text, tokenize(text), FingerprintParams(seed=int(sys.argv[1]))).to_bytes().hex())
"""


def test_same_seed_same_fingerprints_across_processes(corpus_dir, tmp_path):
    text = _texts(corpus_dir, "zh-cn", 2)[1] + _texts(corpus_dir, "en", 1)[0]
    env = {**os.environ, "PYTHONHASHSEED": "123", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, "7"], input=text, capture_output=True, text=True, env=env, check=True,
        cwd=tmp_path,
    ).stdout.strip()
    mine = fingerprint(text, tokenize(text), FingerprintParams(seed=7))
    assert bytes.fromhex(out) == mine.to_bytes()
    other = fingerprint(text, tokenize(text), FingerprintParams(seed=8))
    assert other.simhash != mine.simhash
    assert not np.array_equal(other.minhash_bits, mine.minhash_bits)


def _reference_weights(text, params):
    """Seed 002's weights by the letter: jieba.posseg over each run of CJK characters in context,
    the other units as words, Score = tf + λ(Len + Pos), W = Score / max Score."""
    import re
    from collections import Counter

    from neardup_gui.core.units import CJK_CLASS

    units = tokenize(text)
    stops = fpm.stop_words()
    runs = re.findall(rf"[{CJK_CLASS}]+", text)
    tagged = [(p.word, p.flag) for p in fpm._jieba_posseg().cut("\n".join(runs), HMM=False) if p.word != "\n"]
    tf = Counter(w for w, _ in tagged if w not in stops)
    nouns = {w for w, f in tagged if f.startswith("n")}
    others = Counter(t for t, c in zip(units.tokens, units.cjk) if not c and t not in stops)
    lam = params.simhash_lambda
    scores = {w: n + lam * ((len(w) >= 4) + (w in nouns)) for w, n in tf.items()}
    scores.update({w: n + lam * (len(w) >= 4) for w, n in others.items()})
    top = max(scores.values())
    return {w: v / top for w, v in scores.items()}


def test_rjieba_and_jieba_give_the_same_simhash(corpus_dir):
    """The fast path (rjieba, words tagged once per process) must not change a fingerprint: the
    same weights as jieba.posseg tagging each text in context, on every Chinese section."""
    params = FingerprintParams()
    files = sorted((corpus_dir / "debian-reference-zh-cn").glob("*.txt"))  # all 119 sections
    assert fpm._has_rjieba()
    for f in files:
        text = f.read_text(encoding="utf-8")
        reference = _reference_weights(text, params)
        assert fpm.simhash_weights(text, params) == pytest.approx(reference)
        assert fpm.simhash_weights(text, params, counter=fpm._count_jieba) == pytest.approx(reference)



def test_cjk_runs_text_puts_each_run_on_its_own_line():
    assert fpm._cjk_runs_text(tokenize("中文 abc 字符，再见")) == "中文\n字符\n再见"
    assert fpm._cjk_runs_text(tokenize("abc")) == ""
    assert fpm._cjk_runs_text(tokenize("字")) == "字"
