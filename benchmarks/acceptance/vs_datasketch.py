"""Issue 16's head-to-head, as a user would run it: `neardup index` + `neardup pairs --threshold 0.8
--no-auto-template` (the CLI) beside the datasketch pipeline (bench_pairs_scale.datasketch_pipeline:
MinHash 128 + MinHashLSH at 0.8 + rapidfuzz exact LCS of every candidate), same run, each in its own
process; recall of both against truth.py's pairs at r ≥ 0.8.

Usage: python vs_datasketch.py FOLDER TRUTH.json WORKDIR
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
T = 0.8


def key(a: str, b: str) -> tuple[str, str]:
    return tuple(sorted((os.path.basename(a), os.path.basename(b))))


def timed(cmd: list[str], out: Path | None = None) -> float:
    t0 = time.monotonic()
    with open(out, "w") if out else open(os.devnull, "w") as f:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", f"{out or '/dev/null'}.mem", *cmd],
                       stdout=f, stderr=subprocess.DEVNULL, check=True)
    return time.monotonic() - t0


def main() -> None:
    folder, truth_file, work = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    work.mkdir(parents=True, exist_ok=True)
    # no truth file yet ("-"): recall is left for later (the pair lists stay in WORKDIR)
    truth = ({key(a, b) for a, b, r, *_ in json.load(truth_file.open())["pairs"] if r >= T}
             if truth_file.is_file() else set())
    db = work / "h2h.db"
    for p in work.glob("h2h.db*"):
        p.unlink()
    shutil.rmtree(Path.home() / ".cache" / "neardup-none", ignore_errors=True)
    t_index = timed([str(BIN / "neardup"), "index", str(folder), "--db", str(db), "-q"])
    out = work / "h2h_pairs.json"
    t_pairs = timed([str(BIN / "neardup"), "pairs", "--db", str(db), "--threshold", str(T), "--no-auto-template",
                     "--json", "-q"], out)
    ours = {key(p["a"], p["b"]) for p in json.load(out.open()) if p["similarity"] >= T}
    peer_out = work / "h2h_peer.json"
    code = ("import json,sys; sys.path.insert(0, %r); import bench_pairs_scale as b; b.THRESHOLD = %r; "
            "p, x = b.datasketch_pipeline(%r); json.dump({'pairs': p, **x}, open(%r, 'w'))"
            % (str(HERE.parent), T, str(folder), str(peer_out)))
    t_peer = timed([sys.executable, "-c", code])
    peer_data = json.load(peer_out.open())
    peer = {key(a, b) for a, b in peer_data["pairs"]}
    rec = lambda s: len(s & truth) / len(truth) if truth else float("nan")  # noqa: E731
    print(f"{folder}: truth {len(truth)} pairs at r ≥ {T}")
    print(f"  ours: index {t_index:.1f} s + pairs {t_pairs:.1f} s = {t_index + t_pairs:.1f} s; "
          f"{len(ours)} pairs, recall {rec(ours):.4f}, false {len(ours - truth)}")
    print(f"  datasketch: {t_peer:.1f} s (minhash {peer_data['minhash_s']:.1f} s, verify {peer_data['verify_s']:.1f} s, "
          f"{peer_data['verified']} verified); {len(peer)} pairs, recall {rec(peer):.4f}, false {len(peer - truth)}")
    print(f"  ratio ours/peer {(t_index + t_pairs) / t_peer:.2f} (target ≤ 0.5); load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
