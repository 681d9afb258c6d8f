"""Benchmark: index + pairs on copy-heavy collections beside the datasketch pipeline, same run.

The collections (``copyheavy.py``): light edits of every section of the development corpus with
shared boilerplate paragraphs, at 1,000 and 10,000 documents by default (``--sizes``; 50,000 takes
about ten minutes here, docs/speed.md). Each contender runs in its own child process, so its peak
memory (``ru_maxrss``) is its own:

* ``ours``: ``neardup index`` then ``pairs`` at plain similarity 0.8 (the automatic template rule
  off), the collection-wide pass in local worker processes;
* ``datasketch``: what a user would otherwise write — read the files, ``MinHash(num_perm=128)``
  of each document's 4-unit shingles, ``MinHashLSH(threshold=0.8)``, and every candidate pair
  verified by the exact LCS ratio with rapidfuzz (``LCSseq``) over the same units, kept at ≥ 0.8.

Recall on the 1,000-document collection is against the brute-force truth: every pair compared
by :func:`compare_documents` (the definition; pairs whose length ratio cannot reach 0.8 skipped,
which is exact); on larger ones the peer's row gives the share of our pairs it found.
Usage: ``python benchmarks/bench_pairs_scale.py [--sizes 1000,10000]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

THRESHOLD = 0.8


def child(kind: str, folder: str, db: str, workers: int) -> None:
    """Run one contender in this (child) process; print its figures as JSON."""
    started = time.monotonic()
    if kind == "ours":
        from neardup_gui.core import processes
        from neardup_gui.core.collection import Collection
        from neardup_gui.core.settings import Settings

        processes.allow_fork()  # as the command line does (one thread, no Qt here)

        settings = Settings(threshold=THRESHOLD, auto_template=False, workers=workers)
        with Collection.open(db) as coll:
            coll.index_folder(folder, settings)
            indexed = time.monotonic()
            pairs = [(p.a.path, p.b.path) for p in coll.pairs(settings)]
        extra = {"index_s": indexed - started, "pairs_s": time.monotonic() - indexed}
    else:
        pairs, extra = datasketch_pipeline(folder)
    out = {"seconds": time.monotonic() - started, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
           "pairs": sorted(map(sorted, pairs)), **extra}
    print(json.dumps(out))


def datasketch_pipeline(folder: str, lsh_threshold: float = THRESHOLD):
    """The peer: (pairs kept at the exact LCS ratio ≥ THRESHOLD, figures). ``lsh_threshold``: the
    LSH's own threshold on the estimated shingle resemblance (``peer_lsh_sweep.py`` lowers it)."""
    from datasketch import MinHash, MinHashLSH
    from rapidfuzz.distance import LCSseq

    from neardup_gui.core.units import tokenize

    paths = sorted(str(p) for p in Path(folder).rglob("*.txt"))
    lsh = MinHashLSH(threshold=lsh_threshold, num_perm=128)
    units = {}
    t0 = time.monotonic()
    for path in paths:
        toks = tokenize(Path(path).read_text(encoding="utf-8")).tokens
        units[path] = toks
        m = MinHash(num_perm=128)
        m.update_batch([" ".join(toks[i:i + 4]).encode("utf-8") for i in range(max(1, len(toks) - 3))])
        lsh.insert(path, m)
        units[path] = (toks, m)
    t1 = time.monotonic()
    pairs, verified = [], 0
    for path in paths:
        toks, m = units[path]
        for other in lsh.query(m):
            if other <= path:
                continue
            verified += 1
            o = units[other][0]
            lcs = LCSseq.similarity(toks, o)
            if lcs / (len(toks) + len(o) - lcs) >= THRESHOLD:
                pairs.append((path, other))
    return pairs, {"minhash_s": t1 - t0, "verify_s": time.monotonic() - t1, "verified": verified}


def brute_truth(folder: str) -> set[tuple[str, str]]:
    """Every pair with exact similarity ≥ THRESHOLD (compare_documents over all pairs)."""
    from neardup_gui.core.compare import compare_documents
    from neardup_gui.core.units import tokenize

    paths = sorted(str(p) for p in Path(folder).rglob("*.txt"))
    texts = {p: Path(p).read_text(encoding="utf-8") for p in paths}
    units = {p: tokenize(t) for p, t in texts.items()}
    truth = set()
    for a, b in itertools.combinations(paths, 2):
        na, nb = len(units[a]), len(units[b])
        if min(na, nb) < THRESHOLD * max(na, nb):
            continue  # even a containment of 1 cannot reach the threshold
        comp = compare_documents(texts[a], texts[b], min_run=8, units_a=units[a], units_b=units[b],
                                 with_raw_lcs=False, min_similarity=THRESHOLD)
        if comp is not None and comp.similarity >= THRESHOLD:
            truth.add((a, b))
    return truth


def run_child(kind: str, folder: Path, db: Path, workers: int) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", kind, str(folder), str(db), str(workers)],
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--child", nargs=4)
    args = ap.parse_args()
    if args.child:
        kind, folder, db, workers = args.child
        child(kind, folder, db, int(workers))
        return
    from copyheavy import build

    print(f"copy-heavy collections, plain similarity ≥ {THRESHOLD}; {args.workers} worker processes; "
          f"{os.cpu_count()} cores")
    print("docs | contender | total s | index/minhash s | pairs/verify s | peak MB | pairs | recall")
    for size in map(int, args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "docs"
            build(folder, size)
            truth = brute_truth(str(folder)) if size <= 1000 else None
            rows = {}
            for kind in ("datasketch", "ours"):
                r = run_child(kind, folder, Path(tmp) / "index.db", args.workers)
                rows[kind] = (r, {tuple(p) for p in r["pairs"]})
            for kind, (r, found) in rows.items():
                if truth is not None:
                    recall = f"{len(found & truth) / max(len(truth), 1):.3f}"
                elif kind == "datasketch":  # no brute force at this size: the share of our pairs it found
                    ours = rows["ours"][1]
                    recall = f"{len(found & ours) / max(len(ours), 1):.3f} of ours"
                else:
                    recall = "-"
                first = r.get("index_s", r.get("minhash_s", 0.0))
                second = r.get("pairs_s", r.get("verify_s", 0.0))
                print(f"{size} | {kind} | {r['seconds']:.1f} | {first:.1f} | {second:.1f} | {r['peak_mb']:.0f} | "
                      f"{len(found)} | {recall}", flush=True)
            if truth is not None:
                print(f"{size} | brute-force truth | | | | | {len(truth)} |")


if __name__ == "__main__":
    main()
