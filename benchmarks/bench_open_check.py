"""What the damage check at open costs: ``PRAGMA quick_check`` against the structural checks alone.

Opens copies of the index files that ``bench_index_open.py`` builds (100k and 1M synthetic
documents, under benchmarks/out/), each three times, with the full quick_check (what
``Store`` does up to ``QUICK_CHECK_MAX_BYTES``) and with the structural checks only (header,
size, schema: what it does above that size), in the same run.
Run ``bench_index_open.py`` first for the large files; missing ones are left out.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "benchmarks" / "out"


def time_open(path: Path, full_check: bool, repeats: int = 3) -> float:
    import neardup_gui.core.store as store_mod

    store_mod.QUICK_CHECK_MAX_BYTES = (1 << 62) if full_check else 0
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        store_mod.Store(path, create=False).close()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    files = [p for p in (OUT / "open-100000.ndx", OUT / "open-1000000.ndx") if p.exists()]
    with tempfile.TemporaryDirectory() as tmp:
        for source in files:
            copy = Path(tmp) / source.name
            shutil.copyfile(source, copy)
            size_mb = copy.stat().st_size / 1e6
            full = time_open(copy, True)
            structural = time_open(copy, False)
            print(f"{source.name:22s} {size_mb:8.1f} MB  open with quick_check {full:7.3f} s   "
                  f"structural only {structural:7.3f} s")
            copy.unlink()


if __name__ == "__main__":
    main()
