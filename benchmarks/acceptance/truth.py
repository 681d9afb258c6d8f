"""Brute-force truth for the acceptance trials: every pair of a folder at exact similarity ≥ FLOOR.

Usage: python truth.py FOLDER FLOOR OUT.json [--workers W]

Independent of the product's comparison code: units from ``neardup_gui.core.units.tokenize`` (the
unit definition), exact LCS by dynamic programming from ``benchmarks/groundtruth.py``.
All pairs are considered; a pair is skipped only by exact upper bounds, never by an estimate:
r ≤ min(|A|,|B|)/max(|A|,|B|), and r ≤ L/(|A|+|B|−L) where L is the raw LCS length of all units
(rapidfuzz ``LCSseq``, exact bit-parallel), which is ≥ the LCS of the restricted units ≥ common.
Identical unit sequences have r = 1 without a DP. Pairs whose DP table would exceed MAX_CELLS
are reported apart ("too_big") with their upper bound, never silently dropped.
"""
from __future__ import annotations

import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rapidfuzz.distance import LCSseq  # noqa: E402

from groundtruth import truth_of_ids  # noqa: E402
from neardup_gui.core.units import tokenize  # noqa: E402

MAX_CELLS = 120_000_000

_IDS: dict[str, object] = {}


def _code_strings(ids_by_path: dict) -> dict[str, str]:
    vocab: dict[int, int] = {}
    out = {}
    for p, ids in ids_by_path.items():
        chars = []
        for x in ids.tolist():
            c = vocab.setdefault(x, len(vocab))
            c += 0x100 if c < 0xD800 - 0x100 else 0x100 + 0x800  # skip control chars and surrogates
            chars.append(chr(c))
        out[p] = "".join(chars)
    return out


def _exact(args):
    a, b = args
    t = truth_of_ids(_IDS[a], _IDS[b], 8)
    return a, b, t.similarity, t.containment_a, t.containment_b


def _init(ids):
    _IDS.update(ids)


def main() -> None:
    folder, floor, out = Path(sys.argv[1]), float(sys.argv[2]), Path(sys.argv[3])
    workers = int(sys.argv[sys.argv.index("--workers") + 1]) if "--workers" in sys.argv else 2
    t0 = time.monotonic()
    paths = sorted(str(p) for p in folder.rglob("*") if p.is_file())
    ids = {}
    for p in paths:
        raw = Path(p).read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("utf-8", "replace")
        ids[p] = tokenize(text).ids
    codes = _code_strings(ids)
    lens = {p: len(ids[p]) for p in paths}
    exact_jobs, identical, too_big, considered = [], [], [], 0
    for i, a in enumerate(paths):
        for b in paths[i + 1:]:
            la, lb = lens[a], lens[b]
            if not la or not lb or min(la, lb) < floor * max(la, lb):
                continue
            considered += 1
            if codes[a] == codes[b]:
                identical.append((a, b, 1.0, 1.0, 1.0))
                continue
            lcs = LCSseq.similarity(codes[a], codes[b])
            if lcs / (la + lb - lcs) < floor:
                continue
            if la * lb > MAX_CELLS:
                too_big.append((a, b, lcs / (la + lb - lcs)))
                continue
            exact_jobs.append((a, b))
    t1 = time.monotonic()
    with Pool(workers, initializer=_init, initargs=(ids,)) as pool:
        exact = pool.map(_exact, exact_jobs, chunksize=4)
    pairs = [r for r in identical + exact if r[2] >= floor]
    json.dump({"floor": floor, "pairs": pairs, "too_big": too_big, "n_docs": len(paths),
               "bound_checked": considered, "dp_pairs": len(exact_jobs),
               "seconds": {"bounds": t1 - t0, "dp": time.monotonic() - t1}}, out.open("w"))
    print(f"{len(paths)} docs, {considered} pairs past the length bound, {len(exact_jobs)} by DP, "
          f"{len(identical)} identical, {len(too_big)} too big; {len(pairs)} pairs ≥ {floor}; "
          f"{t1 - t0:.0f} s bounds + {time.monotonic() - t1:.0f} s DP")


if __name__ == "__main__":
    main()
