"""Benchmark: index build and pairs pass on a Dask cluster of 1, 2 and 4 worker processes.

A copy-heavy collection (``copyheavy.py``), plain similarity at 0.8. For each N, a real
``distributed.LocalCluster`` of N single-threaded worker processes on loopback; the index is
built into a new file and the pass run over it, each timed; the local run (worker processes of
this machine, no Dask) is the peer, in the same run. Every run must give the local pairs.
Usage: ``python benchmarks/bench_dask_workers.py [--docs 2000] [--workers 1,2,4]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

THRESHOLD = 0.8


def run(folder: Path, db: Path, address: str) -> tuple[float, float, set]:
    from neardup_gui.core.collection import Collection
    from neardup_gui.core.settings import Settings

    settings = Settings(threshold=THRESHOLD, auto_template=False, dask_address=address)
    with Collection.open(db) as coll:
        started = time.monotonic()
        coll.index_folder(str(folder), settings)
        indexed = time.monotonic()
        pairs = {(min(p.a.path, p.b.path), max(p.a.path, p.b.path), round(p.similarity, 12)) for p in coll.pairs(settings)}
    return indexed - started, time.monotonic() - indexed, pairs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=2000)
    ap.add_argument("--workers", default="1,2,4")
    args = ap.parse_args()
    import dask
    import distributed

    from copyheavy import build

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "docs"
        build(folder, args.docs)
        print(f"{args.docs} copy-heavy documents, plain similarity ≥ {THRESHOLD}; {os.cpu_count()} cores")
        print("run | index s | pairs s | total s | pairs | same as local")
        t_index, t_pairs, local = run(folder, Path(tmp) / "local.db", "")
        print(f"local worker processes | {t_index:.1f} | {t_pairs:.1f} | {t_index + t_pairs:.1f} | {len(local)} | -", flush=True)
        for n in map(int, args.workers.split(",")):
            with dask.config.set({"distributed.worker.daemon": False}):
                with distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                                              dashboard_address=None, silence_logs=40) as cluster:
                    t_index, t_pairs, found = run(folder, Path(tmp) / f"dask{n}.db", cluster.scheduler_address)
            print(f"Dask, {n} worker process{'es' if n > 1 else ''} | {t_index:.1f} | {t_pairs:.1f} | "
                  f"{t_index + t_pairs:.1f} | {len(found)} | {'yes' if found == local else 'NO'}", flush=True)


if __name__ == "__main__":
    main()
