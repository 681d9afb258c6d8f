"""A collection "grown with light edits": every file plus two light edits of it (2 % of its words each).

Usage: python grow.py SRC_DIR OUT_DIR [--max-bytes B]
Files larger than B bytes (default 200,000) are copied once, without edits (keeps the brute-force
truth feasible; say so when reporting).
"""
from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from copyheavy import light_edit  # noqa: E402


def main() -> None:
    src, out = Path(sys.argv[1]), Path(sys.argv[2])
    max_bytes = int(sys.argv[sys.argv.index("--max-bytes") + 1]) if "--max-bytes" in sys.argv else 200_000
    rng = random.Random(16)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for p in sorted(src.glob("*.txt")):
        text = p.read_text(encoding="utf-8", errors="replace")
        (out / p.name).write_text(text, encoding="utf-8")
        if p.stat().st_size > max_bytes:
            continue
        for k in (1, 2):
            (out / f"{p.stem}.edit{k}.txt").write_text(light_edit(text, 0.02, rng), encoding="utf-8")
    print(f"{len(list(out.iterdir()))} files in {out}")


if __name__ == "__main__":
    main()
