"""The datasketch pipeline at lower LSH thresholds: what the peer costs at our recall.

``bench_pairs_scale.py`` runs the peer as a user would write it for pairs at 0.8: ``MinHashLSH
(threshold=0.8)``. On the generated copy-heavy collections that LSH proposes too few candidates
(its recall at 1,000 documents is 0.45 against the brute-force truth): the shingle resemblance
of a light edit is far below its LCS ratio. Lowering the LSH threshold buys recall with more
candidates to verify. This sweep runs the same pipeline (same tokens, MinHash 128 of 4-unit
shingles, every candidate verified by rapidfuzz's exact LCS ratio, kept at ≥ 0.8) at each
threshold given, and measures its recall against the pairs of ``neardup pairs --json``:

    neardup index DIR --db F -q
    neardup pairs --db F --threshold 0.8 --no-auto-template --json -q > OURS.json
    python benchmarks/peer_lsh_sweep.py DIR OURS.json 0.8,0.6,0.5,0.4,0.3

"Extra" counts the peer's pairs that are not ours: its ratio is the plain LCS of all units,
ours seed 004's (common runs of at least ``min_run`` units), which is lower or equal, so a pair
can reach 0.8 by its measure and not by ours. Each threshold runs in a child process.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))


def child(folder: str, lsh_threshold: float) -> None:
    from bench_pairs_scale import datasketch_pipeline

    started = time.monotonic()
    pairs, extra = datasketch_pipeline(folder, lsh_threshold)
    print(json.dumps({"seconds": time.monotonic() - started, "pairs": [sorted(p) for p in pairs], **extra}))


def main() -> None:
    if sys.argv[1] == "--child":
        child(sys.argv[2], float(sys.argv[3]))
        return
    folder, ours_json, thresholds = sys.argv[1], sys.argv[2], sys.argv[3]
    ours = {tuple(sorted((p["a"], p["b"]))) for p in json.loads(Path(ours_json).read_text(encoding="utf-8"))}
    print(f"{len(ours)} pairs of ours at 0.8")
    print("LSH threshold | total s | MinHash s | verify s | verified | pairs | recall of ours | extra")
    for t in thresholds.split(","):
        out = subprocess.run([sys.executable, __file__, "--child", folder, t], capture_output=True, text=True, check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        found = {tuple(p) for p in r["pairs"]}
        print(f"{t} | {r['seconds']:.1f} | {r['minhash_s']:.1f} | {r['verify_s']:.1f} | {r['verified']} | {len(found)} | "
              f"{len(found & ours) / max(len(ours), 1):.3f} | {len(found - ours)}", flush=True)


if __name__ == "__main__":
    main()
