"""Query latency, build time and memory of every search strategy at 100k and 1M fingerprints.

Each figure is printed beside its peer from the same run: the exact strategies beside brute
force, our LSH buckets beside datasketch's ``MinHashLSH``. The stored fingerprints are
synthetic (uniform random, which is what 1-bit minhash and simhash bits look like) for size,
plus the REAL fingerprints of the development corpus and planted light edits of it, so the
queries (real documents) have real neighbours at the radius searched.

Usage: ``python benchmarks/bench_search.py [--sizes 100000,1000000] [--queries 200]``
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from neardup_gui.core.fingerprints import fingerprint, hamming_radius, lsh_layout, minhash_signature  # noqa: E402
from neardup_gui.core.search import deserialise, make_search, serialise  # noqa: E402
from neardup_gui.core.settings import FingerprintParams  # noqa: E402
from neardup_gui.core.units import sentences, tokenize  # noqa: E402

CORPUS = Path(os.environ.get("NEARDUP_CORPUS", ROOT.parent / "shared" / "corpus"))
PARAMS = FingerprintParams()


def real_fingerprints(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Fingerprints of the corpus and of one light edit (a sentence dropped) of each text."""
    texts = [f.read_text(encoding="utf-8") for f in sorted(CORPUS.glob("debian-reference-*/*.txt"))]
    edits = []
    for t in texts:
        spans = sentences(t)
        s, e = spans[int(rng.integers(0, len(spans)))]
        edits.append(t[:s] + t[e:])
    fps = [fingerprint(t, tokenize(t), PARAMS) for t in texts + edits]
    sigs = [minhash_signature(tokenize(t).ids, PARAMS)[: PARAMS.lsh_perms] for t in texts + edits]
    return {
        "simhash": np.array([f.simhash for f in fps], dtype=np.uint64).reshape(-1, 1),
        "bits": np.stack([f.minhash_bits for f in fps]),
        "lsh": np.stack([f.lsh_keys for f in fps]),
        "sig": np.stack(sigs),
    }


def timed_queries(fn, queries) -> tuple[float, float]:
    lat = []
    for q in queries:
        t0 = time.perf_counter()
        fn(q)
        lat.append(time.perf_counter() - t0)
    return float(np.percentile(lat, 50) * 1e3), float(np.percentile(lat, 99) * 1e3)


def measure_build(make, ids, matrix):
    tracemalloc.start()
    t0 = time.perf_counter()
    s = make()
    s.build(ids, matrix)
    build_s = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return s, build_s, peak


def measure_load(s) -> tuple[float, float, float]:
    blob = serialise(s)
    tracemalloc.start()
    t0 = time.perf_counter()
    again = deserialise(blob)
    load_s = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    del again
    return len(blob) / 2**20, load_s, peak


def row(*cells) -> None:
    print(" | ".join(str(c) for c in cells), flush=True)


def bench_hamming(kind: str, bits: int, radius: int, n: int, real: np.ndarray, queries: int, rng) -> None:
    words = -(-bits // 64)
    matrix = rng.integers(0, 2**64, size=(n, words), dtype=np.uint64)
    matrix[: len(real)] = real  # the real ones first, so queries have neighbours
    ids = np.arange(n, dtype=np.int64)
    qs = real[rng.integers(0, len(real), size=queries)]
    brute_p50 = None
    for name in ("brute", "permuted", "grouped"):
        s, build_s, peak = measure_build(lambda: make_search(name, bits, radius), ids, matrix)
        size_mb, load_s, load_peak = measure_load(s)
        p50, p99 = timed_queries(lambda q, s=s: s.query(q, radius), qs)
        found = np.mean([len(s.query(q, radius)[0]) for q in qs[:20]])
        if name == "brute":
            brute_p50 = p50
        row(
            f"{kind} r_h={radius}", f"{n:,}", name, f"{build_s:.2f} s", f"{peak:.0f} MB",
            f"{size_mb:.0f} MB", f"{load_s:.2f} s / {load_peak:.0f} MB", f"{p50:.3f}", f"{p99:.3f}",
            f"{brute_p50 / p50:.1f}×", f"{found:.1f}",
        )
        del s


def bench_lsh(n: int, real_keys: np.ndarray, real_sig: np.ndarray, queries: int, rng, datasketch_max: int) -> None:
    bands, rows = lsh_layout(PARAMS.lsh_threshold, PARAMS.lsh_perms)
    sig = rng.integers(0, 2**32, size=(n, PARAMS.lsh_perms), dtype=np.uint64)
    sig[: len(real_sig)] = real_sig & np.uint64(0xFFFFFFFF)
    from neardup_gui.core.fingerprints import lsh_band_keys

    keys = np.stack([lsh_band_keys(s, PARAMS) for s in sig]) if n <= 200_000 else None
    if keys is None:  # vectorised band keys for the big synthetic part (same function, row-wise)
        keys = np.empty((n, bands), dtype=np.uint64)
        for start in range(0, n, 100_000):
            keys[start : start + 100_000] = np.stack([lsh_band_keys(s, PARAMS) for s in sig[start : start + 100_000]])
    ids = np.arange(n, dtype=np.int64)
    qi = rng.integers(0, len(real_sig), size=queries)
    s, build_s, peak = measure_build(lambda: make_search("lsh", bands=bands), ids, keys)
    size_mb, load_s, load_peak = measure_load(s)
    p50, p99 = timed_queries(lambda i: s.query(keys[i]), qi)
    row(
        f"LSH b={bands} r={rows}", f"{n:,}", "lsh (ours)", f"{build_s:.2f} s", f"{peak:.0f} MB", f"{size_mb:.0f} MB",
        f"{load_s:.2f} s / {load_peak:.0f} MB", f"{p50:.3f}", f"{p99:.3f}", "", "",
    )
    if n > datasketch_max:
        row(f"LSH b={bands} r={rows}", f"{n:,}", "datasketch MinHashLSH", "skipped (see --datasketch-max)", "", "", "", "", "", "", "")
        return
    from datasketch import LeanMinHash, MinHashLSH

    lsh = MinHashLSH(threshold=PARAMS.lsh_threshold, num_perm=PARAMS.lsh_perms)
    tracemalloc.start()
    t0 = time.perf_counter()
    with lsh.insertion_session(buffer_size=100_000) as session:
        for i in range(n):
            session.insert(i, LeanMinHash(seed=1, hashvalues=sig[i], scheme="affine64"), check_duplication=False)
    build_s = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    qm = [LeanMinHash(seed=1, hashvalues=sig[i], scheme="affine64") for i in qi]
    p50d, p99d = timed_queries(lsh.query, qm)
    row(
        f"LSH b={lsh.b} r={lsh.r}", f"{n:,}", "datasketch MinHashLSH", f"{build_s:.2f} s", f"{peak:.0f} MB", "", "",
        f"{p50d:.3f}", f"{p99d:.3f}", f"ours at {p50d / p50:.2f}× its speed", "",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--datasketch-max", type=int, default=100_000,
                        help="datasketch MinHashLSH above this size is skipped: ~0.5 ms and ~8 kB per insert (measured at 100k)")
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    real = real_fingerprints(rng)
    k = PARAMS.minhash_bits
    row("fingerprints", "stored", "strategy", "build", "build peak", "bytes", "load from bytes", "p50 ms", "p99 ms",
        "vs brute (p50)", "hits/query")
    for n in (int(x) for x in args.sizes.split(",")):
        bench_hamming("simhash64", 64, 3, n, real["simhash"], args.queries, rng)
        bench_hamming(f"{k}-bit r=0.8", k, hamming_radius(k, 0.8), n, real["bits"], args.queries, rng)
        bench_lsh(n, real["lsh"], real["sig"], args.queries, rng, args.datasketch_max)


if __name__ == "__main__":
    main()
