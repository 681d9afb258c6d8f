"""Score `neardup pairs --json` output against truth.py's pairs at several thresholds.

Usage: python score_pairs.py TRUTH.json PAIRS.json [T ...] [--folder DIR]   (default T: 0.5 0.7 0.9)
With --folder, a reported pair absent from the truth file (which holds pairs ≥ its floor only) gets its
exact truth computed here (groundtruth.truth_of_texts).
A reported pair counts as correct when its true similarity is ≥ T − 0.005 (product and truth may pick
different LCS alignments; the gap shows up as borderline misses, listed).
"""
from __future__ import annotations

import json
import os
import sys


def key(a: str, b: str) -> tuple[str, str]:
    a, b = os.path.basename(a), os.path.basename(b)
    return (a, b) if a < b else (b, a)


def main() -> None:
    args = sys.argv[1:]
    folder = None
    if "--folder" in args:
        folder = args[args.index("--folder") + 1]
        args = args[: args.index("--folder")] + args[args.index("--folder") + 2:]
    truth = {key(a, b): r for a, b, r, *_ in json.load(open(args[0]))["pairs"]}
    got = {key(p["a"], p["b"]): p["similarity"] for p in json.load(open(args[1]))}
    if folder:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
        from groundtruth import truth_of_texts

        for a, b in [k for k in got if k not in truth]:
            truth[(a, b)] = truth_of_texts(open(os.path.join(folder, a), errors="replace").read(),
                                           open(os.path.join(folder, b), errors="replace").read()).similarity
    for t in [float(x) for x in args[2:]] or [0.5, 0.7, 0.9]:
        want = {k for k, r in truth.items() if r >= t}
        rep = {k for k, r in got.items() if r >= t}
        tp = len(want & rep)
        ok = sum(1 for k in rep if truth.get(k, 0.0) >= t - 0.005)
        recall = tp / len(want) if want else 1.0
        precision = ok / len(rep) if rep else 1.0
        print(f"r≥{t}: truth {len(want)}, reported {len(rep)}, recall {recall:.4f}, precision {precision:.4f}")
        missed = sorted(want - rep, key=lambda k: -truth[k])
        for k in missed[:5]:
            print(f"   missed {k} true {truth[k]:.4f} reported {got.get(k)}")
        wrong = [k for k in rep if truth.get(k, 0.0) < t - 0.005]
        for k in wrong[:5]:
            print(f"   wrong {k} reported {got[k]:.4f} true {truth.get(k, 0.0):.4f}")


if __name__ == "__main__":
    main()
