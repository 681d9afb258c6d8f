"""Render real man pages (gzipped groff) to plain text files: the acceptance trials' raw material.

Usage: python render_man.py SRC_DIR OUT_DIR N [--min-chars C] [--stride K] [--skip-prefix P]
Takes the first N pages (sorted by name, every K-th one: K > 1 spreads them over the alphabet) whose rendering has at least C characters.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def render(path: Path) -> str:
    groff = subprocess.run(f"zcat '{path}' | preconv -e UTF-8 | groff -man -Tutf8 -P-c 2>/dev/null | col -b", shell=True,
                           capture_output=True, timeout=30)
    return groff.stdout.decode("utf-8", "replace")


def main() -> None:
    src, out, n = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    min_chars = int(sys.argv[sys.argv.index("--min-chars") + 1]) if "--min-chars" in sys.argv else 1500
    skip = sys.argv[sys.argv.index("--skip-prefix") + 1] if "--skip-prefix" in sys.argv else None
    stride = int(sys.argv[sys.argv.index("--stride") + 1]) if "--stride" in sys.argv else 1
    out.mkdir(parents=True, exist_ok=True)
    done = 0
    for page in [p for p in sorted(src.glob("*.gz")) if not (skip and p.name.startswith(skip))][::stride]:
        if done >= n:
            break
        try:
            text = render(page)
        except subprocess.TimeoutExpired:
            continue
        if len(text) < min_chars or "\ufffd" in text:
            continue
        (out / (page.name.removesuffix(".gz") + ".txt")).write_text(text, encoding="utf-8")
        done += 1
    print(f"{done} pages rendered into {out}")


if __name__ == "__main__":
    main()
