"""Document fingerprints: simhash64, 1-bit minwise, LSH band keys, sentence fingerprints, anchors.

What each fingerprint is for, and which seed it comes from:

- ``simhash``: 64-bit simhash of weighted words (seed 002): a whole-document near-duplicate test
  with Hamming radius ≤ 3, searched with Manku's permuted tables.
- ``minhash_bits``: the k-bit 1-bit minwise fingerprint (seed 000): R̂ = 2·E_b − 1 estimates the
  Jaccard similarity of the unit-shingle sets; a threshold r becomes a Hamming radius
  r_h = ⌈k(1 − r)/2⌉, searched with group merging (alg.H) or permuted tables (alg.G).
- ``lsh_keys``: MinHash band keys (seed 001): documents sharing a band key are LSH candidates.
- ``sentence_fps``: seed 004's sentence fingerprints, m buckets of the n smallest sentence hashes;
  documents sharing a bucket fingerprint are "perhaps-similar".
- ``anchors``: winnowing anchors over unit k-grams — our improvement on seed 004 for *partial*
  copies: any common run of at least ``anchor_window + anchor_kgram − 1`` units shares at least
  one anchor, however small that run is against the whole document.

Every hash is seeded from ``FingerprintParams.seed`` and reproducible across processes and
machines; arrays are serialised little-endian.
"""

from __future__ import annotations

import functools
from collections import Counter
import logging
import math
import re
import struct
from dataclasses import dataclass
from pathlib import Path

import mmh3
import numpy as np

from neardup_gui.core.settings import FingerprintParams
from neardup_gui.core.units import CJK_CLASS, Units, normalise_token, sentences, tokenize

log = logging.getLogger(__name__)

_U64 = np.uint64
_MASK64 = (1 << 64) - 1
_EMPTY_MIN = np.iinfo(np.uint64).max  # the "min" of an empty shingle set, as datasketch does
_POLY = _U64(0x9E3779B97F4A7C15)  # odd multiplier of the rolling k-gram combination
_SHIFTS = np.arange(64, dtype=np.uint64)
_CHUNK = 4096  # shingles per block of the (shingles × permutations) matrix: bounds memory

# purposes of the derived seeds: one independent hash family each
_P_SHINGLE, _P_PERM, _P_BIT, _P_BAND, _P_SIMHASH, _P_SENTENCE, _P_BUCKET, _P_ANCHOR = range(1, 9)

_RESOURCES = Path(__file__).resolve().parents[2] / "resources" / "stopwords"
_CJK_RUN_RE = re.compile(rf"[{CJK_CLASS}]+")
_CJK_CHAR_RE = re.compile(rf"[{CJK_CLASS}]")
_OTHER_WORD_RE = re.compile(rf"[^\W_{CJK_CLASS}]+")


# ---------------------------------------------------------------------------------- records


@dataclass(frozen=True, eq=False)
class Fingerprints:
    """All stored fingerprints of one document (arrays are uint64)."""

    simhash: int  # unsigned 64-bit
    minhash_bits: np.ndarray  # ⌈k/64⌉ words; bit j of the fingerprint = bit j%64 of word j//64
    lsh_keys: np.ndarray  # one key per LSH band
    sentence_fps: np.ndarray  # m values, 0 where a bucket is empty
    anchors: np.ndarray  # sorted distinct winnowing anchor hashes

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Fingerprints):
            return NotImplemented
        return (
            self.simhash == other.simhash
            and np.array_equal(self.minhash_bits, other.minhash_bits)
            and np.array_equal(self.lsh_keys, other.lsh_keys)
            and np.array_equal(self.sentence_fps, other.sentence_fps)
            and np.array_equal(self.anchors, other.anchors)
        )

    __hash__ = None  # type: ignore[assignment]  # arrays inside: not hashable

    def to_bytes(self) -> bytes:
        """One blob: simhash, then each array as a u32 count and little-endian u64 words."""
        parts = [struct.pack("<Q", self.simhash)]
        for arr in (self.minhash_bits, self.lsh_keys, self.sentence_fps, self.anchors):
            parts.append(struct.pack("<I", len(arr)))
            parts.append(words_to_bytes(arr))
        return b"".join(parts)

    @classmethod
    def from_bytes(cls, data: bytes) -> "Fingerprints":
        (simhash,) = struct.unpack_from("<Q", data, 0)
        pos = 8
        arrays = []
        for _ in range(4):
            (count,) = struct.unpack_from("<I", data, pos)
            pos += 4
            arrays.append(words_from_bytes(data[pos : pos + 8 * count]))
            pos += 8 * count
        if pos != len(data):
            raise ValueError(f"fingerprint blob has {len(data) - pos} trailing bytes")
        return cls(simhash, *arrays)


def words_to_bytes(words: np.ndarray) -> bytes:
    """Serialise a uint64 array, little-endian whatever the machine."""
    return np.ascontiguousarray(words, dtype="<u8").tobytes()


def words_from_bytes(data: bytes) -> np.ndarray:
    """Inverse of :func:`words_to_bytes`; returns a native uint64 array."""
    if len(data) % 8:
        raise ValueError(f"{len(data)} bytes is not a whole number of 64-bit words")
    return np.frombuffer(data, dtype="<u8").astype(np.uint64)


def simhash_to_sqlite(value: int) -> int:
    """An unsigned 64-bit simhash as the signed integer SQLite can store."""
    return value - (1 << 64) if value >= 1 << 63 else value


def simhash_from_sqlite(value: int) -> int:
    """Inverse of :func:`simhash_to_sqlite`."""
    return value & _MASK64


# ------------------------------------------------------------------------------- hash utils


def _derived_seed(seed: int, purpose: int) -> int:
    """A 64-bit seed for one hash family, from the user seed and the family's purpose."""
    return _splitmix(((seed & _MASK64) * 0x100000001B3 + purpose) & _MASK64)


def _splitmix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser on a uint64 array: every input bit reaches every output bit."""
    x = x ^ (x >> _U64(30))
    x = x * _U64(0xBF58476D1CE4E5B9)
    x = x ^ (x >> _U64(27))
    x = x * _U64(0x94D049BB133111EB)
    return x ^ (x >> _U64(31))


def _kgram_hashes(ids: np.ndarray, k: int, seed: int) -> np.ndarray:
    """Hashes of every run of ``k`` consecutive ids (one run of all ids if fewer than ``k``)."""
    ids = np.asarray(ids, dtype=np.uint64)
    n = len(ids)
    if n == 0:
        return np.empty(0, dtype=np.uint64)
    k = min(k, n)
    count = n - k + 1
    h = np.full(count, _U64(seed), dtype=np.uint64)
    # polynomial rolling combination with uint64 wrap-around: one vector op per position in
    # the k-gram, never a Python step per k-gram
    for j in range(k):
        h *= _POLY
        h += ids[j : j + count]
    return _mix(h ^ _U64(k))


def shingle_hashes(unit_ids: np.ndarray, params: FingerprintParams) -> np.ndarray:
    """Distinct hashes of the ``params.shingle_units``-unit shingles (the set Jaccard is over)."""
    return np.unique(_kgram_hashes(unit_ids, params.shingle_units, _derived_seed(params.seed, _P_SHINGLE)))


@functools.lru_cache(maxsize=16)
def _permutations(seed: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` seeded universal hash functions x ↦ a·x + b (mod 2⁶⁴), a odd: bijections."""
    rng = np.random.Generator(np.random.PCG64(_derived_seed(seed, _P_PERM)))
    a = rng.integers(0, _MASK64, size=count, dtype=np.uint64, endpoint=True) | _U64(1)
    b = rng.integers(0, _MASK64, size=count, dtype=np.uint64, endpoint=True)
    a.flags.writeable = False
    b.flags.writeable = False
    return a, b


def signature_length(params: FingerprintParams) -> int:
    """Permutations in a signature: the 1-bit fingerprint and the LSH share a prefix."""
    return max(params.minhash_bits, params.lsh_perms)


# ------------------------------------------------------------------------------- minhash


def minhash_signature(unit_ids: np.ndarray, params: FingerprintParams) -> np.ndarray:
    """MinHash signature (uint64) of the unit shingles, ``signature_length(params)`` values.

    Each of the k permutations is simulated by a seeded universal hash a·x + b (mod 2⁶⁴) over
    the mixed shingle hashes; the work is a (shingles × k) numpy product in blocks, with no
    Python step per shingle. An empty document gets the maximum value everywhere.
    """
    count = signature_length(params)
    a, b = _permutations(params.seed, count)
    shingles = shingle_hashes(unit_ids, params)
    sig = np.full(count, _EMPTY_MIN, dtype=np.uint64)
    buf = np.empty((min(_CHUNK, max(len(shingles), 1)), count), dtype=np.uint64)
    for start in range(0, len(shingles), _CHUNK):
        block = shingles[start : start + _CHUNK]
        out = buf[: len(block)]
        np.multiply(block[:, None], a[None, :], out=out)
        out += b
        np.minimum(sig, out.min(axis=0), out=sig)
    return sig


def one_bit_fingerprint(signature: np.ndarray) -> np.ndarray:
    """Seed 000's b = 1 bit of each minimum, packed into ⌈k/64⌉ uint64 words.

    The bit is the top bit of a mix of (minimum, permutation index): a hash b(·) with
    Pr[b(u) = b(v)] = 1/2 for u ≠ v, independent across permutations. Padding bits of the last
    word are 0 in every fingerprint, so they never count in a Hamming distance.
    """
    signature = np.asarray(signature, dtype=np.uint64)
    k = len(signature)
    salt = np.arange(k, dtype=np.uint64) * _U64(0xD6E8FEB86659FD93)
    bits = _mix(signature ^ salt) >> _U64(63)
    words = -(-k // 64)
    padded = np.zeros(words * 64, dtype=np.uint64)
    padded[:k] = bits
    return np.bitwise_or.reduce(padded.reshape(words, 64) << _SHIFTS, axis=1)


def hamming(a_words: np.ndarray, b_words: np.ndarray) -> int:
    """Number of differing bits between two packed fingerprints."""
    return int(np.bitwise_count(np.bitwise_xor(np.asarray(a_words, np.uint64), np.asarray(b_words, np.uint64))).sum())


def estimate_similarity(a_words: np.ndarray, b_words: np.ndarray, k: int) -> float:
    """ESTIMATE of the Jaccard similarity from two k-bit 1-bit fingerprints (seed 000).

    R̂ = 2·E_b − 1 with E_b = 1 − hamming/k the share of equal bits; unbiased, variance
    4·E_b(1 − E_b)/k, and it can fall below 0 for unrelated documents. Only for finding
    candidates: the product reports the LCS similarity, never this estimate as a result.
    """
    e_b = 1.0 - hamming(a_words, b_words) / k
    return 2.0 * e_b - 1.0


def hamming_radius(k: int, r: float) -> int:
    """r_h = ⌈k(1 − r)/2⌉: the Hamming radius of a similarity threshold r for k bits."""
    # rounding first keeps 100·(1 − 0.8)/2 = 9.999… from becoming 10 by luck and 10.000…1 → 11
    return max(0, math.ceil(round(k * (1.0 - r) / 2.0, 9)))


# ---------------------------------------------------------------------------------- LSH


@functools.lru_cache(maxsize=64)
def lsh_layout(threshold: float, num_perm: int) -> tuple[int, int]:
    """(bands, rows) minimising false positive + false negative weight, as datasketch does.

    For every b·r ≤ num_perm, the false-positive weight is ∫₀ᵗ 1 − (1 − sʳ)ᵇ ds and the
    false-negative weight ∫ₜ¹ (1 − sʳ)ᵇ ds (both weighted 0.5); the first minimum wins.
    """
    if not 0.0 < threshold < 1.0:
        raise ValueError(f"LSH threshold must be in (0, 1), not {threshold}")
    grid_fp = np.linspace(0.0, threshold, 2001)
    grid_fn = np.linspace(threshold, 1.0, 2001)
    best, best_err = (1, 1), math.inf
    for bands in range(1, num_perm + 1):
        for rows in range(1, num_perm // bands + 1):
            fp = np.trapezoid(1.0 - (1.0 - grid_fp**rows) ** bands, grid_fp)
            fn = np.trapezoid((1.0 - grid_fn**rows) ** bands, grid_fn)
            err = 0.5 * fp + 0.5 * fn
            if err < best_err:
                best, best_err = (bands, rows), err
    return best


def lsh_band_keys(signature: np.ndarray, params: FingerprintParams) -> np.ndarray:
    """One uint64 key per band of the first ``params.lsh_perms`` MinHash values (seed 001)."""
    bands, rows = lsh_layout(params.lsh_threshold, params.lsh_perms)
    block = np.asarray(signature, dtype=np.uint64)[: bands * rows].reshape(bands, rows)
    h = np.full(bands, _U64(_derived_seed(params.seed, _P_BAND)), dtype=np.uint64)
    h += np.arange(bands, dtype=np.uint64)  # the same rows in two bands give different keys
    for j in range(rows):
        h *= _POLY
        h += block[:, j]
    return _mix(h)


# ------------------------------------------------------------------------------- simhash


@functools.lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    """Chinese and English stop words from ``resources/stopwords`` (normalised)."""
    words: set[str] = set()
    for name in ("zh.txt", "en.txt"):
        for line in (_RESOURCES / name).read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                words.add(normalise_token(line))
    return frozenset(words)


@functools.lru_cache(maxsize=1)
@functools.lru_cache(maxsize=None)
def _jieba_posseg():  # type: ignore[no-untyped-def]
    """jieba's part-of-speech tokenizer, initialised once, its chatter silenced."""
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba.posseg.dt


def _tag_jieba(text: str) -> list[tuple[str, str]]:
    return [(p.word, p.flag) for p in _jieba_posseg().cut(text, HMM=False)]


def _tag_rjieba(text: str) -> list[tuple[str, str]]:
    import rjieba

    return rjieba.tag(text, False)


def pos_tagger():  # type: ignore[no-untyped-def]
    """``text -> [(word, tag)]``: jieba's dictionary segmentation with part of speech, no HMM.

    rjieba (the Rust port of jieba, the same dictionary) when installed: 26× faster than
    ``jieba.posseg`` on the development corpus and no 2.6 s dictionary load per process; on all
    119 Chinese sections its words and noun tags are identical to jieba's
    (``test_rjieba_and_jieba_give_the_same_simhash``). jieba itself otherwise.
    """
    try:
        import rjieba  # noqa: F401
    except ImportError:
        return _tag_jieba
    return _tag_rjieba


def simhash_weights(text: str, params: FingerprintParams, tagger=None) -> dict[str, float]:  # noqa: ANN001
    """Seed 002's word weights W = Score / max Score, Score = tf + λ(Len + Pos).

    Chinese words come from jieba's dictionary segmentation with part of speech, without the HMM
    (4.5× faster on our corpus and it still tags every dictionary word; see :func:`pos_tagger`); Pos = 1 for nouns (tags
    starting with ``n``). Other text contributes its units (letters/digit runs) with Pos = 0,
    as we have no English tagger. Len = 1 for words of at least 4 characters. Stop words
    are removed before counting.
    """
    tagger = tagger or pos_tagger()
    norm = normalise_token(text)
    stops = stop_words()
    runs = _CJK_RUN_RE.findall(norm)
    tagged = tagger("\n".join(runs)) if runs else []
    # counted in C (Counter, set comprehensions): a Python step per word cost more than jieba
    tf = Counter(w for w, _ in tagged)
    nouns = {w for w, flag in tagged if flag[:1] == "n"}
    for word in [w for w in tf if w in stops or not _CJK_CHAR_RE.match(w)]:
        del tf[word]
    others = Counter(_OTHER_WORD_RE.findall(norm))
    for word in [w for w in others if w in stops]:
        del others[word]
    tf.update(others)
    noun = {w: w in nouns for w in tf}
    lam = params.simhash_lambda
    scores = {w: n + lam * ((len(w) >= 4) + noun[w]) for w, n in tf.items()}
    if not scores:
        return {}
    top = max(scores.values())
    return {w: s / top for w, s in scores.items()}


def simhash_from_weights(weights: dict[str, float], seed: int) -> int:
    """Charikar's simhash of weighted features: bit i is 1 where Σ ±W is positive."""
    if not weights:
        return 0
    hseed = _derived_seed(seed, _P_SIMHASH) & 0xFFFFFFFF
    hashes = np.fromiter(
        (mmh3.hash64(w, hseed, signed=False)[0] for w in weights), dtype=np.uint64, count=len(weights)
    )
    w = np.fromiter(weights.values(), dtype=np.float64, count=len(weights))
    bits = ((hashes[:, None] >> _SHIFTS) & _U64(1)).astype(np.float64)
    v = w @ (2.0 * bits - 1.0)
    return int(np.bitwise_or.reduce((v > 0).astype(np.uint64) << _SHIFTS))


def simhash64(text: str, params: FingerprintParams) -> int:
    """64-bit simhash of ``text`` with seed 002's word weighting (unsigned)."""
    return simhash_from_weights(simhash_weights(text, params), params.seed)


# ------------------------------------------------------------------- sentence fingerprints


def sentence_hashes(text: str, params: FingerprintParams, units: Units | None = None) -> np.ndarray:
    """Distinct hashes of the sentences of ``text`` over their normalised units.

    Hashing unit ids, not characters, makes spacing, punctuation, case and full-/half-width
    edits invisible; sentences without units are skipped.
    """
    if units is None:
        units = tokenize(text)
    spans = sentences(text)
    if not spans or len(units) == 0:
        return np.empty(0, dtype=np.uint64)
    bounds = np.array(spans, dtype=np.int64)
    lo = np.searchsorted(units.starts, bounds[:, 0], side="left")
    hi = np.searchsorted(units.starts, bounds[:, 1], side="left")
    ids = np.ascontiguousarray(units.ids, dtype="<u8")
    hseed = _derived_seed(params.seed, _P_SENTENCE) & 0xFFFFFFFF
    out = [mmh3.hash64(ids[a:b].tobytes(), hseed, signed=False)[0] for a, b in zip(lo.tolist(), hi.tolist()) if b > a]
    return np.unique(np.array(out, dtype=np.uint64))


def sentence_fingerprints(text: str, params: FingerprintParams, units: Units | None = None) -> np.ndarray:
    """Seed 004's m sentence fingerprints: bucket = hash mod m, n smallest per bucket hashed.

    Returns ``params.sentence_buckets`` uint64 values; 0 marks an empty bucket (a non-empty
    bucket never hashes to 0).
    """
    m, n = params.sentence_buckets, params.sentence_smallest
    hashes = sentence_hashes(text, params, units)  # sorted ascending
    out = np.zeros(m, dtype=np.uint64)
    if len(hashes) == 0:
        return out
    buckets = hashes % _U64(m)
    bseed = _derived_seed(params.seed, _P_BUCKET) & 0xFFFFFFFF
    for j in range(m):
        smallest = hashes[buckets == _U64(j)][:n]
        if len(smallest):
            value = mmh3.hash64(words_to_bytes(smallest), bseed, signed=False)[0]
            out[j] = value or 1
    return out


# -------------------------------------------------------------------------------- anchors


def anchor_guarantee(params: FingerprintParams) -> int:
    """G: any common run of at least G units shares at least one anchor."""
    return params.anchor_window + params.anchor_kgram - 1


def anchors(unit_ids: np.ndarray, params: FingerprintParams) -> np.ndarray:
    """Winnowing anchors (Schleimer, Wilkerson, Aiken 2003): sorted distinct k-gram hashes.

    Our improvement on seed 004 for partial copies. Hash every ``anchor_kgram``-unit k-gram;
    in every window of ``anchor_window`` consecutive k-gram hashes keep the minimum (the
    rightmost on ties). A common run of G = window + kgram − 1 units contains one whole window
    in both documents, and both keep that window's minimum, so they share an anchor: a copied
    section of G units or more is found whatever the overall similarity. The expected density
    on random text is 2/(window + 1), about one anchor per 24 units with the defaults.
    """
    h = _kgram_hashes(unit_ids, params.anchor_kgram, _derived_seed(params.seed, _P_ANCHOR))
    if len(unit_ids) < params.anchor_kgram:
        return np.empty(0, dtype=np.uint64)  # no whole k-gram: nothing worth anchoring
    w = min(params.anchor_window, len(h))
    windows = np.lib.stride_tricks.sliding_window_view(h, w)
    pick = (w - 1) - np.argmin(windows[:, ::-1], axis=1)
    positions = np.unique(np.arange(len(windows)) + pick)
    return np.unique(h[positions])


# ------------------------------------------------------------------------------- together


def fingerprint(text: str, units: Units, params: FingerprintParams) -> Fingerprints:
    """Every fingerprint of one document (``units`` must be ``tokenize(text)``)."""
    signature = minhash_signature(units.ids, params)
    return Fingerprints(
        simhash=simhash64(text, params),
        minhash_bits=one_bit_fingerprint(signature[: params.minhash_bits]),
        lsh_keys=lsh_band_keys(signature, params),
        sentence_fps=sentence_fingerprints(text, params, units),
        anchors=anchors(units.ids, params),
    )
