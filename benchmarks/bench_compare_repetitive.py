"""Benchmark: ``neardup compare`` of two edited copies of a 2 MB highly repetitive text.

The pair: the Debian copyright file of Boost when a Boost package is installed (else a synthetic
one of the same shape, ``repetitive.py``), each copy with 2 % of its words dropped. Printed: the
time and peak memory of ``neardup compare`` (run as a child process; ``ru_maxrss`` of the
children), its similarity, and beside it the exact LCS bound of the same filtered sequences by
rapidfuzz's bit-parallel ``LCSseq`` (length only, linear memory — the peer in the same run): the
reported similarity can be at most that bound, and the gap bounds how far the split alignment
can be from the unsplit one. Usage: ``python benchmarks/bench_compare_repetitive.py``.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from repetitive import boost_copyright, edited_pair, synthetic_copyright  # noqa: E402


def main() -> None:
    text = boost_copyright()
    source = "Debian copyright file of Boost"
    if text is None:
        text, source = synthetic_copyright(2000), "synthetic licence collection (2,000 stanzas)"
    a, b = edited_pair(text)
    with tempfile.TemporaryDirectory() as tmp:
        pa, pb = Path(tmp) / "a.txt", Path(tmp) / "b.txt"
        pa.write_text(a, encoding="utf-8")
        pb.write_text(b, encoding="utf-8")
        started = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "compare", str(pa), str(pb), "--json"],
                              capture_output=True, text=True, check=True)
        elapsed = time.monotonic() - started
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    ours = json.loads(proc.stdout)

    from rapidfuzz.distance import LCSseq

    from neardup_gui.core import align as align_module
    from neardup_gui.core import compare
    from neardup_gui.core.units import tokenize

    ua, ub = tokenize(a), tokenize(b)
    ca, cb, distinct = align_module._dense_codes(ua.ids, ub.ids)
    ma, mb = compare._shared_mask_codes(ca, cb, 8)
    sa, sb = align_module._codes_as_sequences(ca[ma], cb[mb], distinct)
    started = time.monotonic()
    lcs = int(LCSseq.similarity(sa, sb))
    peer_s = time.monotonic() - started
    bound = lcs / (ours["units_a"] + ours["units_b"] - lcs)
    print(f"pair: {source}, {len(a) / 1e6:.1f} MB each, {ours['units_a']:,} and {ours['units_b']:,} units, 2 % words dropped")
    print("what | seconds | peak MB | similarity")
    print(f"neardup compare (compiled Myers diff, split at unique anchors beyond its budget) | {elapsed:.1f} | {peak_mb:.0f} | {ours['similarity']:.4f}")
    print(f"rapidfuzz LCSseq length only (exact LCS bound) | {peer_s:.1f} | - | ≤ {bound:.4f}")
    print(f"gap to the exact bound: {bound - ours['similarity']:.4f}")


if __name__ == "__main__":
    main()
