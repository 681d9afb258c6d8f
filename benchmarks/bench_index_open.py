"""Opening a large index: time and peak memory until the first query can run (issue 4).

Builds index files of 100k and 1M documents (synthetic 256-bit minhash and simhash fingerprints:
real ones for distribution are in bench_search.py; here only the size matters), stores their
search tables (stamped with the fingerprint generation, schema 3), then opens each in a fresh
process and times open → ready → one query. The peer, measured in the same run, is opening the
same file without stored tables (tables built at open).
Files are cached under benchmarks/out/.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "benchmarks" / "out"

PROBE = r"""
import json, sys, time


def peak_mb():
    # VmHWM, not getrusage: ru_maxrss survives exec and would report the parent's peak
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024

t0 = time.perf_counter()
from neardup_gui.core.collection import Collection
from neardup_gui.core.settings import Settings
import numpy as np
t_import = time.perf_counter()
coll = Collection.open(sys.argv[1], create=False)
finder = coll.finder(Settings())
t_ready = time.perf_counter()
fp = coll.store.fingerprints_of(1)
ids, _ = finder.minhash.query(fp.minhash_bits, finder.radius)
t_query = time.perf_counter()
print(json.dumps({"import_s": t_import - t0, "open_ready_s": t_ready - t_import, "first_query_s": t_query - t_ready,
                  "found": int(len(ids)), "delta": finder.delta,
                  "peak_rss_mb": peak_mb()}))
"""


def build(path: Path, n: int) -> None:
    from neardup_gui.core.indexer import params_key
    from neardup_gui.core.settings import Settings
    from neardup_gui.core.store import Store

    settings = Settings()
    key = params_key(settings.fingerprints)
    rng = np.random.default_rng(7)
    words = rng.integers(0, 2**63, size=(n, 4), dtype=np.int64).view(np.uint64)
    # plant near-neighbours of document 1 so the query has something to find
    for i in range(1, 20):
        words[i] = words[0] ^ (np.uint64(1) << np.uint64(i))
    sims = rng.integers(-(2**63), 2**63 - 1, size=n, dtype=np.int64)
    started = time.perf_counter()
    with Store(path) as store:
        with store.transaction() as conn:
            conn.executemany(
                "INSERT INTO documents (id, rel, path, size, mtime_ns, sha256, status, indexed_at) "
                "VALUES (?, ?, ?, 0, 0, '', 'indexed', 0)",
                ((i + 1, f"d{i}.txt", f"/c/d{i}.txt") for i in range(n)))
            blobs = words.astype("<u8")
            conn.executemany(
                "INSERT INTO fingerprints (doc_id, params, simhash, minhash, lsh, sentence_fps, anchors) "
                "VALUES (?, ?, ?, ?, x'', x'', x'')",
                ((i + 1, key, int(sims[i]), blobs[i].tobytes()) for i in range(n)))
        from neardup_gui.core.candidates import CandidateFinder
        import neardup_gui.core.candidates as c

        finder = CandidateFinder(store, settings)
        c.SNAPSHOT_MIN_DOCS = 0
        finder.save()
    print(f"  built {path.name}: {n} documents in {time.perf_counter() - started:.0f} s, "
          f"{path.stat().st_size / 2**20:.0f} MB", flush=True)


def current(path: Path) -> bool:
    """Whether a cached file holds fingerprints under today's parameters and algorithm version."""
    from neardup_gui.core.indexer import params_key
    from neardup_gui.core.settings import Settings
    from neardup_gui.core.store import Store

    with Store(path) as store:
        key = params_key(Settings().fingerprints)
        return store.conn.execute("SELECT 1 FROM fingerprints WHERE params = ? LIMIT 1", (key,)).fetchone() is not None


def restamp(path: Path) -> None:
    """A cached file whose snapshot predates schema 3 (no generation): save the snapshot again."""
    from neardup_gui.core import candidates as c
    from neardup_gui.core.candidates import CandidateFinder
    from neardup_gui.core.settings import Settings
    from neardup_gui.core.store import Store

    with Store(path) as store:
        finder = CandidateFinder(store, Settings())
        if store.search_table_generation("minhash:grouped", finder.params_json) == store.fingerprint_generation():
            return
        with store.transaction() as conn:
            conn.execute("DELETE FROM search_tables")
        c.SNAPSHOT_MIN_DOCS = 0
        CandidateFinder(store, Settings()).save()
        print(f"  re-saved the snapshot of {path.name} with its generation", flush=True)


def probe(path: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    sizes = [int(s) for s in (sys.argv[1:] or ["100000", "1000000"])]
    print("| documents | stored tables: open→ready | peak RSS | no stored tables (peer): open→ready | peak RSS | first query |")
    print("|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        path = OUT / f"open-{n}.ndx"
        if path.exists() and not current(path):
            path.unlink()  # written by an older fingerprint algorithm: its key no longer matches
        if not path.exists():
            build(path, n)
        restamp(path)
        with_tables = probe(path)
        bare = OUT / f"open-{n}-bare.ndx"
        subprocess.run(["cp", str(path), str(bare)], check=True)
        import sqlite3

        conn = sqlite3.connect(bare)
        conn.execute("DELETE FROM search_tables")
        conn.commit()
        conn.close()
        without = probe(bare)
        bare.unlink()
        assert with_tables["found"] >= 19 and with_tables["found"] == without["found"]
        print(f"| {n:,} | {with_tables['open_ready_s']:.2f} s | {with_tables['peak_rss_mb']:.0f} MB | "
              f"{without['open_ready_s']:.2f} s | {without['peak_rss_mb']:.0f} MB | {with_tables['first_query_s'] * 1000:.1f} ms |",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
