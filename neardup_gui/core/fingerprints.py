"""Document fingerprints: simhash64, 1-bit minwise, LSH band keys, sentence fingerprints, anchors.

What each fingerprint is for, and whose method it is (docs/methods.md):

- ``simhash``: 64-bit simhash of weighted words (Yu, Hu and Zhang): a whole-document
  near-duplicate test with Hamming radius ≤ 3, searched with Manku's permuted tables.
- ``minhash_bits``: the k-bit 1-bit minwise fingerprint (Yuan, Long, Zhang and Gui):
  R̂ = 2·E_b − 1 estimates the Jaccard similarity of the unit-shingle sets; a threshold r becomes
  a Hamming radius r_h = ⌈k(1 − r)/2⌉, searched with group merging (alg.H) or permuted tables
  (alg.G).
- ``lsh_keys``: MinHash band keys (LSH banding, after Rajaraman and Ullman): documents sharing a
  band key are LSH candidates.
- ``sentence_fps``: Huang, Wang and Li's sentence fingerprints, m buckets of the n smallest
  sentence hashes; documents sharing a bucket fingerprint are "perhaps-similar".
- ``anchors``: winnowing anchors over unit k-grams — our improvement on Huang, Wang and Li for
  *partial* copies: any common run of at least ``anchor_window + anchor_kgram − 1`` units shares at least
  one anchor, however small that run is against the whole document.

Every hash is seeded from ``FingerprintParams.seed`` and reproducible across processes and
machines; arrays are serialised little-endian.
"""

from __future__ import annotations

import functools
from collections import Counter
import itertools
import logging
import math
import re
import struct
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import mmh3
import numpy as np

from neardup_gui.core.arrays import distinct, distinct_first_counts
from neardup_gui.core.folding import fold_map, fold_table
from neardup_gui.core.settings import FingerprintParams
from neardup_gui.core.units import (CJK_CLASS, Units, normalise_token, sentences_in_units, slice_hashes,
                                    tokenize, unit_id)

if TYPE_CHECKING:
    from neardup_gui.core.document import Document

# A word counter for the simhash's features: the runs of a text → its words and their counts.
WordCounter = Callable[[str], Counter]

try:  # k-grams, the MinHash signature and winnowing in C (core/_units.c); numpy below otherwise
    from neardup_gui.core import _units as _compiled
except ImportError:  # pragma: no cover - a build without a C compiler
    _compiled = None

log = logging.getLogger(__name__)

# The version of the fingerprint algorithms, stored with every fingerprint (indexer.params_key):
# 1 = k permutations, simhash over the NFKC text; 2 = one permutation hashing with densification,
# simhash from the units; 3 = units with disguises folded (look-alike letters, format characters
# inside words, traditional characters, text the file hides). A change here re-fingerprints every
# index from its stored text.
FINGERPRINT_ALGORITHM = 3

_U64 = np.uint64
_MASK64 = (1 << 64) - 1
_EMPTY_MIN = np.iinfo(np.uint64).max  # the "min" of an empty shingle set, as datasketch does
_POLY = _U64(0x9E3779B97F4A7C15)  # odd multiplier of the rolling k-gram combination
_SHIFTS = np.arange(64, dtype=np.uint64)
_PROBES = 32  # densification probes per round (vectorised)

# purposes of the derived seeds: one independent hash family each
# (_P_PERM served the k-permutation minhash of algorithm 1; it keeps its number so the others keep theirs)
_P_SHINGLE, _P_PERM, _P_BIT, _P_BAND, _P_SIMHASH, _P_SENTENCE, _P_BUCKET, _P_ANCHOR, _P_DENSIFY, _P_GRAM = range(1, 11)

_RESOURCES = Path(__file__).resolve().parents[2] / "resources" / "stopwords"
_CJK_CHAR_RE = re.compile(rf"[{CJK_CLASS}]")


# ---------------------------------------------------------------------------------- records


@dataclass(frozen=True, eq=False)
class Fingerprints:
    """All stored fingerprints of one document (arrays are uint64)."""

    simhash: int  # unsigned 64-bit
    minhash_bits: np.ndarray  # ⌈k/64⌉ words; bit j of the fingerprint = bit j%64 of word j//64
    lsh_keys: np.ndarray  # one key per LSH band
    sentence_fps: np.ndarray  # m values, 0 where a bucket is empty
    anchors: np.ndarray  # sorted distinct winnowing anchor hashes
    grams: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint64))  # the check's dense tier

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Fingerprints):
            return NotImplemented
        return (
            self.simhash == other.simhash
            and np.array_equal(self.minhash_bits, other.minhash_bits)
            and np.array_equal(self.lsh_keys, other.lsh_keys)
            and np.array_equal(self.sentence_fps, other.sentence_fps)
            and np.array_equal(self.anchors, other.anchors)
            and np.array_equal(self.grams, other.grams)
        )

    __hash__ = None  # type: ignore[assignment]  # arrays inside: not hashable

    def to_bytes(self) -> bytes:
        """One blob: simhash, then each array as a u32 count and little-endian u64 words."""
        parts = [struct.pack("<Q", self.simhash)]
        for arr in (self.minhash_bits, self.lsh_keys, self.sentence_fps, self.anchors, self.grams):
            parts.append(struct.pack("<I", len(arr)))
            parts.append(words_to_bytes(arr))
        return b"".join(parts)

    @classmethod
    def from_bytes(cls, data: bytes) -> "Fingerprints":
        (simhash,) = struct.unpack_from("<Q", data, 0)
        pos = 8
        arrays = []
        for _ in range(5):
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
    if _compiled is not None:  # the same values in C, one loop (every document's shingles and anchors)
        return np.frombuffer(_compiled.kgram_hashes(np.ascontiguousarray(ids), k, seed, False), dtype=np.uint64)
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
    return _distinct_kgram_hashes(unit_ids, params.shingle_units, _derived_seed(params.seed, _P_SHINGLE))


def _distinct_kgram_hashes(ids: np.ndarray, k: int, seed: int) -> np.ndarray:
    """``distinct(_kgram_hashes(ids, k, seed))``, in one C call when it is built."""
    ids = np.asarray(ids, dtype=np.uint64)
    if _compiled is not None and len(ids):
        return np.frombuffer(_compiled.kgram_hashes(np.ascontiguousarray(ids), k, seed, True), dtype=np.uint64)
    return distinct(_kgram_hashes(ids, k, seed))


def signature_length(params: FingerprintParams) -> int:
    """Values in a signature: the 1-bit fingerprint and the LSH keys share one signature."""
    return max(params.minhash_bits, params.lsh_perms)


# ------------------------------------------------------------------------------- minhash


def minhash_signature(unit_ids: np.ndarray, params: FingerprintParams, count: int | None = None) -> np.ndarray:
    """MinHash signature (uint64) of the unit shingles: ``count`` values (default
    ``signature_length(params)``), each equal in two documents with probability = their Jaccard.

    **One permutation hashing with optimal densification** (Li, Owen, Zhang 2012; Shrivastava
    2017) — our improvement on the k independent permutations of Yuan et al. and of MinHash. The seeded
    64-bit shingle hash is the one random permutation; its range is cut into ``count`` equal
    bins and each bin keeps its smallest hash. A bin that no shingle fell into borrows the value
    of the first non-empty bin along its own seeded probe sequence, the same sequence in every
    document, so Pr[sig_A[i] = sig_B[i]] = J(A, B) for every bin i, as with k permutations, and
    the 1-bit estimate R̂ = 2·E_b − 1 and the LSH banding apply unchanged. The cost is one sort of the
    shingle hashes instead of a (shingles × k) product (``docs/fingerprints.md`` has the speed
    and the tables of Yuan et al. reproduced with it). An empty document gets the maximum value
    everywhere.
    """
    count = count or signature_length(params)
    shingles = shingle_hashes(unit_ids, params)  # sorted ascending, distinct
    return one_permutation_signature(shingles, count, params.seed)


def one_permutation_signature(hashes: np.ndarray, count: int, seed: int) -> np.ndarray:
    """OPH signature of a *sorted, distinct* uint64 hash set (see :func:`minhash_signature`)."""
    if not 1 <= count <= 1 << 31:
        raise ValueError(f"a signature has 1 to 2^31 values, not {count}")
    if _compiled is not None and len(hashes) and hashes.dtype == np.uint64:
        # the same in C (core/_units.c: oph_signature): each empty bin probes one value at a time
        # along the same sequence, where numpy probed 32 at once for all of them in rounds
        return np.frombuffer(_compiled.oph_signature(np.ascontiguousarray(hashes), count,
                                                     _derived_seed(seed, _P_DENSIFY)), dtype=np.uint64)
    sig = np.full(count, _EMPTY_MIN, dtype=np.uint64)
    if len(hashes) == 0:
        return sig
    # bin = ⌊h · count / 2⁶⁴⌋, from the top 32 bits: monotone in h, so in the sorted hashes each
    # bin is one contiguous stretch and its first element is its minimum
    bins = ((hashes >> _U64(32)) * _U64(count)) >> _U64(32)
    first = np.flatnonzero(np.concatenate(([True], bins[1:] != bins[:-1])))
    filled = np.zeros(count, dtype=bool)
    filled[bins[first]] = True
    sig[bins[first]] = hashes[first]
    pending = np.flatnonzero(~filled).astype(np.uint64)
    dseed = _U64(_derived_seed(seed, _P_DENSIFY))
    attempt = 0
    while len(pending):  # each round probes _PROBES bins per empty bin at once
        tries = np.arange(attempt, attempt + _PROBES, dtype=np.uint64)
        probes = _mix((pending[:, None] << _U64(32)) ^ tries[None, :] ^ dseed) % _U64(count)
        ok = filled[probes]
        hit = ok.any(axis=1)
        src = probes[np.arange(len(pending)), ok.argmax(axis=1)]
        sig[pending[hit]] = sig[src[hit]]  # sources are filled bins, never written here
        pending = pending[~hit]
        attempt += _PROBES
    return sig


def one_bit_fingerprint(signature: np.ndarray) -> np.ndarray:
    """The b = 1 bit of each minimum (Yuan et al.), packed into ⌈k/64⌉ uint64 words.

    The bit is the top bit of a mix of (minimum, permutation index): a hash b(·) with
    Pr[b(u) = b(v)] = 1/2 for u ≠ v, independent across permutations. Padding bits of the last
    word are 0 in every fingerprint, so they never count in a Hamming distance.
    """
    signature = np.asarray(signature, dtype=np.uint64)
    if _compiled is not None:  # the same in C (core/_units.c: one_bit): a few numpy calls' fixed cost
        return np.frombuffer(_compiled.one_bit(np.ascontiguousarray(signature)), dtype=np.uint64)
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
    """ESTIMATE of the Jaccard similarity from two k-bit 1-bit fingerprints (Yuan et al.).

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
    if (threshold, num_perm) in KNOWN_LSH_LAYOUTS:  # the defaults: 50 ms saved in every process
        return KNOWN_LSH_LAYOUTS[(threshold, num_perm)]
    return _lsh_layout_computed(threshold, num_perm)


# computed by _lsh_layout_computed (test_known_lsh_layouts_are_the_computed_ones)
KNOWN_LSH_LAYOUTS = {(0.5, 128): (25, 5)}


def _lsh_layout_computed(threshold: float, num_perm: int) -> tuple[int, int]:
    grid_fp = np.linspace(0.0, threshold, 2001)
    grid_fn = np.linspace(threshold, 1.0, 2001)
    # every (bands, rows) with bands·rows ≤ num_perm at once, in the loop order bands → rows, so
    # argmin (the first minimum) picks what the nested loops would
    pairs = np.array([(b, r) for b in range(1, num_perm + 1) for r in range(1, num_perm // b + 1)], dtype=np.float64)
    bands, rows = pairs[:, :1], pairs[:, 1:]
    fp = np.trapezoid(1.0 - (1.0 - grid_fp[None, :] ** rows) ** bands, grid_fp, axis=1)
    fn = np.trapezoid((1.0 - grid_fn[None, :] ** rows) ** bands, grid_fn, axis=1)
    best = int(np.argmin(0.5 * fp + 0.5 * fn))
    return int(pairs[best, 0]), int(pairs[best, 1])


def lsh_band_keys(signature: np.ndarray, params: FingerprintParams) -> np.ndarray:
    """One uint64 key per band of the first ``params.lsh_perms`` MinHash values (LSH banding)."""
    bands, rows = lsh_layout(params.lsh_threshold, params.lsh_perms)
    signature = np.asarray(signature, dtype=np.uint64)
    if _compiled is not None and len(signature) >= bands * rows:  # the same in C (core/_units.c: band_keys)
        return np.frombuffer(_compiled.band_keys(np.ascontiguousarray(signature), bands, rows,
                                                 _derived_seed(params.seed, _P_BAND)), dtype=np.uint64)
    block = signature[: bands * rows].reshape(bands, rows)
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
def _stop_unit_ids() -> np.ndarray:
    """Sorted unit ids of the stop words (a stop word that is one unit is matched by its id)."""
    return distinct(np.array([unit_id(w) for w in stop_words()], dtype=np.uint64))


def build_tables() -> None:
    """Build now the tables a worker would build on its first text: the folds of look-alike and
    traditional characters every tokenizing reads, and the stop words' unit ids every simhash
    reads. Called before workers are forked, which then inherit them: by an index build before
    its extraction children (35 ms a child), by the pairs pass's fork server
    (core/server_tables.py)."""
    fold_map()
    fold_table()
    _stop_unit_ids()


@functools.lru_cache(maxsize=1)
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


def _count_jieba(runs: str) -> Counter:
    return Counter(p.word for p in _jieba_posseg().cut(runs, HMM=False))


def _count_rjieba(runs: str) -> Counter:
    import rjieba

    return Counter(rjieba.cut(runs, False))


def _has_rjieba() -> bool:
    try:
        import rjieba  # noqa: F401
    except ImportError:
        return False
    return True


def _count_words(runs: str) -> Counter:
    """Word counts of jieba's dictionary segmentation (no HMM) of ``runs``: rjieba (the Rust
    port of jieba, the same dictionary) when installed — 26× faster than jieba and no 2.6 s
    dictionary load per process; on all 119 Chinese sections its words and noun tags equal
    jieba's (``test_rjieba_and_jieba_give_the_same_simhash``) — jieba itself otherwise."""
    return (_count_rjieba if _has_rjieba() else _count_jieba)(runs)


_WORD_CACHES: dict[tuple[int, object], dict[str, tuple[bool, int]]] = {}
_WORD_CACHE_MAX = 500_000


def _word_cache(hseed: int, counter: WordCounter | None) -> dict[str, tuple[bool, int]]:
    """word -> (is a noun, hash) learnt so far in this process, per seed (and test counter)."""
    key = (hseed, counter)
    cache = _WORD_CACHES.get(key)
    if cache is None or len(cache) > _WORD_CACHE_MAX:
        cache = _WORD_CACHES[key] = {}
    return cache


def _learn_words(words: list[str], cache: dict[str, tuple[bool, int]], hseed: int,
                 counter: WordCounter | None) -> None:
    """Tag new words, one per line. Without the HMM a word's flag is its dictionary tag whatever
    surrounds it, so a word tagged on its own line gets the flag it has in the text; should one
    segment differently on its own line, each word is tagged alone (and one that still splits
    is not a dictionary word: not a noun)."""
    tag = _tag_jieba if counter is _count_jieba else (_tag_rjieba if _has_rjieba() else _tag_jieba)
    tagged = [(w, f) for w, f in tag("\n".join(words)) if w != "\n"]
    if [w for w, _ in tagged] != words:
        tagged = [(w, t[0][1] if len(t) == 1 else "x") for w in words for t in [tag(w)]]
    h32 = hseed & 0xFFFFFFFF
    for w, flag in tagged:
        cache[w] = (flag[:1] == "n", mmh3.hash64(w, h32, signed=False)[0])


def _cjk_runs_text(units: Units) -> str:
    """The text's CJK units, one line per run of consecutive ones: what jieba segments."""
    idx = np.flatnonzero(units.cjk)
    if len(idx) == 0:
        return ""
    codes = np.frombuffer(units.text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    starts = units.starts[idx]
    chars = codes[starts]
    # a line feed before every unit that does not follow its predecessor directly
    shift = np.zeros(len(chars), dtype=np.int64)
    np.cumsum(starts[1:] != starts[:-1] + 1, out=shift[1:])
    lines = np.full(len(chars) + int(shift[-1]), 10, dtype="<u4")
    lines[np.arange(len(chars)) + shift] = chars
    out = lines.tobytes().decode("utf-32-le", "surrogatepass")
    # CJK units are NFKC-normalised one by one; ideographs almost never change (compatibility
    # ideographs do), and the quick check costs nothing when nothing does; traditional
    # characters fold to simplified ones, as their units do
    if not unicodedata.is_normalized("NFKC", out):
        out = unicodedata.normalize("NFKC", out)
    return out.translate(fold_map()) if fold_table()[codes[units.starts[idx]]].any() else out


@dataclass(frozen=True)
class SimhashFeatures:
    """The weighted features of a simhash: jieba's Chinese words, then the other words."""

    cjk_words: tuple[str, ...]
    other_first: np.ndarray  # for each other word, the index of its first unit
    hashes: np.ndarray  # uint64 feature hashes, CJK words first
    weights: np.ndarray  # float64 W = Score / max Score, same order


def simhash_features(units: Units, params: FingerprintParams, counter: WordCounter | None = None) -> SimhashFeatures:
    """The weighted words of Yu, Hu and Zhang: W = Score / max Score, Score = tf + λ(Len + Pos).

    Chinese words come from jieba's dictionary segmentation with part of speech, without the HMM
    (4.5× faster on our corpus and it still tags every dictionary word; see :func:`word_counter`),
    run over the text's CJK units; Pos = 1 for nouns (tags starting with ``n``). The other words
    are the text's other units (runs of letters/digits, normalised as units are), with Pos = 0,
    as we have no English tagger; they are counted by unit id in numpy, never word by word in
    Python. Len = 1 for words of at least 4 characters. Stop words are removed before counting.
    A word's hash is seeded mmh3: of the word for Chinese words, of the normalised token (the
    unit id, mixed with the seed) for the others.
    """
    lam = params.simhash_lambda
    hseed = _derived_seed(params.seed, _P_SIMHASH)
    stops = stop_words()
    # Chinese words: counted in C; a word's flag is its dictionary tag without the HMM, so its
    # (is a noun, hash) is looked up in a per-process cache and only new words are tagged
    runs = _cjk_runs_text(units)
    tf: Counter = (counter or _count_words)(runs) if runs else Counter()
    tf.pop("\n", None)  # the only token of the runs text that is not a word
    cjk_words = list(itertools.filterfalse(stops.__contains__, tf))  # C loops from here on
    known = _word_cache(hseed, counter)
    info = list(map(known.get, cjk_words))
    if None in info:
        new = [w for w, i in zip(cjk_words, info) if i is None]
        _learn_words(new, known, hseed, counter)
        info = list(map(known.__getitem__, cjk_words))
    nouns, word_hashes = zip(*info) if info else ((), ())
    n_cjk = len(cjk_words)
    cjk_scores = np.fromiter(map(tf.__getitem__, cjk_words), dtype=np.float64, count=n_cjk)
    cjk_scores += lam * np.fromiter(nouns, dtype=np.float64, count=n_cjk)
    cjk_scores += lam * (np.fromiter(map(len, cjk_words), dtype=np.int64, count=n_cjk) >= 4)
    cjk_hashes = np.fromiter(word_hashes, dtype=np.uint64, count=n_cjk)
    # other words: by unit id
    other = np.flatnonzero(~units.cjk)
    ids = units.ids[other]
    if _compiled is not None and ids.dtype == np.uint64:  # the same in C: counted in a hash table, not sorted
        uniq, first, counts = (np.frombuffer(b, dtype=t) for b, t in
                               zip(_compiled.distinct_first_counts(ids), (np.uint64, np.int64, np.int64)))
    else:
        uniq, first, counts = distinct_first_counts(ids)
    stop_ids = _stop_unit_ids()  # sorted: membership by binary search (np.isin costs more here)
    keep = stop_ids[np.minimum(np.searchsorted(stop_ids, uniq), len(stop_ids) - 1)] != uniq
    uniq, first, counts = uniq[keep], other[first[keep]], counts[keep]
    lengths = units.ends[first] - units.starts[first]
    other_scores = counts + lam * (lengths >= 4)
    other_hashes = _mix(uniq ^ _U64(hseed))
    scores = np.concatenate([cjk_scores, other_scores.astype(np.float64)])
    top = scores.max() if len(scores) else 1.0
    return SimhashFeatures(tuple(cjk_words), first, np.concatenate([cjk_hashes, other_hashes]), scores / top)


def simhash_weights(text: str, params: FingerprintParams,
                    counter: WordCounter | None = None) -> dict[str, float]:
    """The features of :func:`simhash_features` as ``{word: W}`` (for reading and tests)."""
    units = tokenize(text)
    f = simhash_features(units, params, counter)
    others = [normalise_token(text[s:e]) for s, e in zip(units.starts[f.other_first].tolist(), units.ends[f.other_first].tolist())]
    return dict(zip([*f.cjk_words, *others], f.weights.tolist()))


def simhash_from_features(hashes: np.ndarray, weights: np.ndarray) -> int:
    """Charikar's simhash of weighted features: bit i is 1 where Σ ±W is positive."""
    if len(hashes) == 0:
        return 0
    bits = np.unpackbits(np.ascontiguousarray(hashes, dtype="<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    v = 2.0 * (weights @ bits) - weights.sum()  # Σ w·(+1 if bit else −1)
    return int(np.packbits(v > 0, bitorder="little").view("<u8")[0])


def simhash64(text: str, params: FingerprintParams, units: Units | None = None) -> int:
    """64-bit simhash of ``text`` with Yu, Hu and Zhang's word weighting (unsigned)."""
    f = simhash_features(tokenize(text) if units is None else units, params)
    return simhash_from_features(f.hashes, f.weights)


# ------------------------------------------------------------------- sentence fingerprints


def sentence_hashes(text: str, params: FingerprintParams, units: Units | None = None) -> np.ndarray:
    """Distinct hashes of the sentences of ``text`` over their normalised units.

    Hashing unit ids, not characters, makes spacing, punctuation, case and full-/half-width
    edits invisible; sentences without units are skipped.
    """
    if units is None:
        units = tokenize(text)
    _, _, lo, hi = sentences_in_units(text, units)
    if len(lo) == 0 or len(units) == 0:
        return np.empty(0, dtype=np.uint64)
    keep = hi > lo
    ids = np.ascontiguousarray(units.ids, dtype="<u8").tobytes()
    hseed = _derived_seed(params.seed, _P_SENTENCE) & 0xFFFFFFFF
    # each sentence's little-endian unit ids, sliced from one bytes object
    return distinct(slice_hashes(ids, 8 * lo[keep], 8 * hi[keep], hseed))


def sentence_fingerprints(text: str, params: FingerprintParams, units: Units | None = None) -> np.ndarray:
    """Huang, Wang and Li's m sentence fingerprints: bucket = hash mod m, n smallest per bucket hashed.

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


def _anchor_kgram_hashes(unit_ids: np.ndarray, params: FingerprintParams) -> np.ndarray:
    return _kgram_hashes(unit_ids, params.anchor_kgram, _derived_seed(params.seed, _P_ANCHOR))


def anchor_kgrams(unit_ids: np.ndarray, params: FingerprintParams) -> np.ndarray:
    """Sorted distinct hashes of EVERY ``anchor_kgram``-unit k-gram, of the anchors' hash family.

    A superset of :func:`anchors` of the same units: looked up among the stored anchors of
    other documents, it finds each stored anchor whose k-gram occurs here, whether or not
    winnowing would have picked it on this side (an edited copy keeps few k-grams whole, and
    the windows around them differ, so the two sides rarely pick the same survivors).
    """
    if len(unit_ids) < params.anchor_kgram:
        return np.empty(0, dtype=np.uint64)
    return _distinct_kgram_hashes(unit_ids, params.anchor_kgram, _derived_seed(params.seed, _P_ANCHOR))


def anchors(unit_ids: np.ndarray, params: FingerprintParams) -> np.ndarray:
    """Winnowing anchors (Schleimer, Wilkerson, Aiken 2003): sorted distinct k-gram hashes.

    Our improvement on Huang, Wang and Li for partial copies. Hash every ``anchor_kgram``-unit k-gram;
    in every window of ``anchor_window`` consecutive k-gram hashes keep the minimum (the
    rightmost on ties). A common run of G = window + kgram − 1 units contains one whole window
    in both documents, and both keep that window's minimum, so they share an anchor: a copied
    section of G units or more is found whatever the overall similarity. The expected density
    on random text is 2/(window + 1), about one anchor per 24 units with the defaults.
    """
    if len(unit_ids) < params.anchor_kgram:
        return np.empty(0, dtype=np.uint64)  # no whole k-gram: nothing worth anchoring
    if _compiled is not None:  # the same in C (core/_units.c: winnow, the window minima by a deque)
        return np.frombuffer(_compiled.winnow(np.ascontiguousarray(unit_ids, dtype=np.uint64), params.anchor_kgram,
                                              _derived_seed(params.seed, _P_ANCHOR), params.anchor_window),
                             dtype=np.uint64)
    h = _anchor_kgram_hashes(unit_ids, params)
    # Which of a window's equal minima is kept (the rightmost) decides positions, never
    # values: the anchors are the distinct window minima.
    return distinct(window_minima(h, min(params.anchor_window, len(h))))


def gram_guarantee(params: FingerprintParams) -> int:
    """Any common run of at least this many units shares at least one gram (the check's tier)."""
    return params.gram_window + params.gram_kgram - 1


def grams(unit_ids: np.ndarray, params: FingerprintParams) -> np.ndarray:
    """The check's dense tier: winnowing minima of ``gram_kgram``-unit k-grams, one per window
    of ``gram_window`` (another hash family than the anchors'). Any common run of
    :func:`gram_guarantee` units (the default minimum run of a comparison, 8) shares one: a
    check looking up every k-gram of a submission (:func:`gram_kgrams`) proposes every document
    that shares a run the comparison can count, however long the two documents. Density about
    2/(window + 1): one gram in three units."""
    if len(unit_ids) < params.gram_kgram:
        return np.empty(0, dtype=np.uint64)
    seed = _derived_seed(params.seed, _P_GRAM)
    if _compiled is not None:
        return np.frombuffer(_compiled.winnow(np.ascontiguousarray(unit_ids, dtype=np.uint64), params.gram_kgram,
                                              seed, params.gram_window), dtype=np.uint64)
    h = _kgram_hashes(unit_ids, params.gram_kgram, seed)
    return distinct(window_minima(h, min(params.gram_window, len(h))))


def gram_kgrams(unit_ids: np.ndarray, params: FingerprintParams) -> np.ndarray:
    """Sorted distinct hashes of every ``gram_kgram``-unit k-gram, of the grams' hash family:
    what a check looks up among the stored grams of the collection."""
    if len(unit_ids) < params.gram_kgram:
        return np.empty(0, dtype=np.uint64)
    return _distinct_kgram_hashes(unit_ids, params.gram_kgram, _derived_seed(params.seed, _P_GRAM))


def window_minima(values: np.ndarray, w: int) -> np.ndarray:
    """The minimum of every window of ``w`` consecutive values (``len(values) - w + 1`` of them),
    by doubling: minima of windows of 1, 2, 4, … values, then two overlapping ones of the
    largest power of two — ⌈log₂ w⌉ + 1 vector passes instead of ``w`` comparisons per window."""
    minima = values
    width = 1
    while 2 * width <= w:
        minima = np.minimum(minima[:-width], minima[width:])
        width *= 2
    # minima[i] is now the minimum of values[i : i + width], with width ≤ w < 2 · width
    return np.minimum(minima[: len(values) - w + 1], minima[w - width:])


# ------------------------------------------------------------------------------- together


def fingerprint(text: str, units: Units, params: FingerprintParams) -> Fingerprints:
    """Every fingerprint of one document (``units`` must be ``tokenize(text)``)."""
    signature = minhash_signature(units.ids, params)
    return Fingerprints(
        simhash=simhash64(text, params, units),
        minhash_bits=one_bit_fingerprint(signature[: params.minhash_bits]),
        lsh_keys=lsh_band_keys(signature, params),
        sentence_fps=sentence_fingerprints(text, params, units),
        anchors=anchors(units.ids, params),
        grams=grams(units.ids, params),
    )


def fingerprint_document(doc: Document, params: FingerprintParams) -> tuple[Units, Fingerprints]:
    """A document's units and fingerprints. Module-level and light to import, so an extraction
    worker can be told to run it by name (``workers.SUBMISSION_PREPARE``): ``neardup check``
    has each submission fingerprinted on the worker's core while the index loads."""
    units = tokenize(doc.text, doc.hidden)
    return units, fingerprint(doc.text, units, params)
