"""Seed 000's experiment on our data: precision/recall of the k-bit estimate, alg.G vs alg.H cost.

1. Pairs: every section of the development corpus (Chinese and English) against a planted
   resubmission of itself — each sentence replaced, with probability p, by a sentence of
   another section, p drawn uniformly from [0, 0.45] so the exact similarities spread over
   0.4–1.0 — and against a few unrelated sections. The truth is the EXACT Jaccard similarity of
   the unit-shingle sets (what R̂ estimates); a pair is detected when its fingerprints differ
   in at most r_h = ⌈k(1 − r)/2⌉ bits, i.e. R̂ ≥ r (what the index search returns).
   Precision = |detected ∩ truly ≥ r| / |detected|, recall = |detected ∩ truly ≥ r| / |truly ≥ r|,
   for k = 64, 128, 256, 400, 1024 and r = 0.7, 0.8, 0.9.
2. Query cost at r = 0.7 (the seed's Table 1) and r = 0.8 for the same k: Manku's permuted
   tables (alg.G) and group merging (alg.H) over ``--size`` fingerprints (the corpus's real
   ones plus uniform random ones), beside brute force; mean candidates handed to the exact
   check and p50 latency.

Usage: ``python benchmarks/seed000_reproduction.py [--size 100000] [--queries 100]``
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from neardup_gui.core.fingerprints import (  # noqa: E402
    hamming_radius,
    one_bit_fingerprint,
    one_permutation_signature,
    shingle_hashes,
)
from neardup_gui.core.search import BruteSearch, GroupedSearch, PermutedSearch  # noqa: E402
from neardup_gui.core.settings import FingerprintParams  # noqa: E402
from neardup_gui.core.units import sentences, tokenize  # noqa: E402

CORPUS = Path(os.environ.get("NEARDUP_CORPUS", ROOT.parent / "shared" / "corpus"))
KS = (64, 128, 256, 400, 1024)
RS = (0.7, 0.8, 0.9)


def resubmission(text: str, pool: list[str], p: float, rng: np.random.Generator) -> str:
    out, pos = [], 0
    for s, e in sentences(text):
        out.append(text[pos:s])
        if rng.random() < p:
            donor = pool[int(rng.integers(0, len(pool)))]
            ds, de = sentences(donor)[int(rng.integers(0, len(sentences(donor))))]
            out.append(donor[ds:de])
        else:
            out.append(text[s:e])
        pos = e
    out.append(text[pos:])
    return "".join(out)


def jaccard(a: np.ndarray, b: np.ndarray) -> float:
    inter = len(np.intersect1d(a, b, assume_unique=True))
    union = len(a) + len(b) - inter
    return inter / union if union else 1.0


def make_pairs(rng: np.random.Generator, params: FingerprintParams):
    """(exact Jaccard, shingle hash sets of both sides) for every pair."""
    pairs = []
    for lang in ("zh-cn", "en"):
        texts = [f.read_text(encoding="utf-8") for f in sorted(CORPUS.glob(f"debian-reference-{lang}/*.txt"))]
        ids = [tokenize(t).ids for t in texts]
        shingles = [shingle_hashes(u, params) for u in ids]
        for i, text in enumerate(texts):
            pool = texts[:i] + texts[i + 1 :]
            for _ in range(3):
                edited = tokenize(resubmission(text, pool, float(rng.uniform(0, 0.45)), rng)).ids
                other = shingle_hashes(edited, params)
                pairs.append((jaccard(shingles[i], other), shingles[i], other))
            j = int(rng.integers(0, len(texts)))
            if j != i:
                pairs.append((jaccard(shingles[i], shingles[j]), shingles[i], shingles[j]))
    return pairs


_BITS: dict[tuple[int, int], np.ndarray] = {}


def bits(shingles: np.ndarray, k: int, seed: int) -> np.ndarray:
    """The k-bit fingerprint of a shingle set: a k-value one-permutation signature, 1 bit each
    (as the product computes it for minhash_bits = k; a k-signature is not a prefix of a larger one)."""
    key = (id(shingles), k)
    if key not in _BITS:
        _BITS[key] = one_bit_fingerprint(one_permutation_signature(shingles, k, seed))
    return _BITS[key]


def precision_recall(pairs, k: int, r: float, seed: int) -> tuple[float, float, int, int]:
    rh = hamming_radius(k, r)
    detected = truth = both = 0
    for exact, sa, sb in pairs:
        d = int(np.bitwise_count(bits(sa, k, seed) ^ bits(sb, k, seed)).sum())
        hit, real = d <= rh, exact >= r
        detected += hit
        truth += real
        both += hit and real
    return (both / detected if detected else 1.0), (both / truth if truth else 1.0), detected, truth


def query_costs(real_bits: dict[int, np.ndarray], size: int, queries: int, rng: np.random.Generator) -> None:
    print("\n## Query cost, alg.G (permuted tables) vs alg.H (group merging), "
          f"{size:,} stored fingerprints, {queries} real queries\n")
    print("| k | r | r_h | alg.G tables | alg.G candidates | alg.G p50 ms | alg.H groups (m) | alg.H postings read "
          "| alg.H candidates | alg.H p50 ms | brute p50 ms | G/H time |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for k in KS:
        words = -(-k // 64)
        matrix = rng.integers(0, 2**64, size=(size, words), dtype=np.uint64)
        if k % 64:
            matrix[:, -1] &= np.uint64((1 << (k % 64)) - 1)
        real = real_bits[k]
        matrix[: len(real)] = real
        ids = np.arange(size, dtype=np.int64)
        qs = real[rng.integers(0, len(real), size=queries)]
        brute = BruteSearch(k)
        brute.build(ids, matrix)
        for r in (0.7, 0.8):
            rh = hamming_radius(k, r)
            g = PermutedSearch(k, rh)
            g.build(ids, matrix)
            h = GroupedSearch(k, rh)
            h.build(ids, matrix)
            lat: dict[str, list[float]] = {"g": [], "h": [], "b": []}
            for q in qs:
                for key, s in (("g", g), ("h", h), ("b", brute)):
                    t0 = time.perf_counter()
                    got = s.query(q, rh)
                    lat[key].append(time.perf_counter() - t0)
                    if key == "g":
                        ref = got
                    elif key == "h":
                        assert np.array_equal(got[0], ref[0])
            cand_g = np.mean([g.candidate_count(q, rh) for q in qs[:20]])
            cand_h = np.mean([h.candidate_count(q, rh) for q in qs[:20]])
            post_h = np.mean([h.postings_scanned(q) for q in qs[:20]])
            p50 = {key: float(np.median(v) * 1e3) for key, v in lat.items()}
            print(f"| {k} | {r} | {rh} | {g.table_count()} | {cand_g:,.0f} | {p50['g']:.2f} | {len(h.groups)} | "
                  f"{post_h:,.0f} | {cand_h:,.0f} | {p50['h']:.2f} | {p50['b']:.2f} | {p50['g'] / p50['h']:.1f}× |",
                  flush=True)
            del g, h


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    rng = np.random.default_rng(2012)
    params = FingerprintParams(minhash_bits=max(KS))
    pairs = make_pairs(rng, params)
    sims = np.array([p[0] for p in pairs])
    print(f"# Seed 000 reproduction\n\n{len(pairs)} pairs; exact Jaccard quartiles "
          f"{np.percentile(sims, 25):.2f} / {np.median(sims):.2f} / {np.percentile(sims, 75):.2f}; "
          f"pairs ≥ 0.7: {(sims >= 0.7).sum()}, ≥ 0.8: {(sims >= 0.8).sum()}, ≥ 0.9: {(sims >= 0.9).sum()}\n")
    print("## Precision / recall of R̂ ≥ r (Hamming ≤ r_h) against the exact Jaccard\n")
    print("| k | " + " | ".join(f"r={r}: r_h, precision, recall" for r in RS) + " |")
    print("|---|" + "---|" * len(RS))
    for k in KS:
        cells = []
        for r in RS:
            prec, rec, _, _ = precision_recall(pairs, k, r, params.seed)
            cells.append(f"{hamming_radius(k, r)}, {prec:.2f}, {rec:.2f}")
        print(f"| {k} | " + " | ".join(cells) + " |", flush=True)
    real_bits = {k: np.stack([bits(p[1], k, params.seed) for p in pairs] + [bits(p[2], k, params.seed) for p in pairs])
                 for k in KS}
    query_costs(real_bits, args.size, args.queries, rng)


if __name__ == "__main__":
    main()
