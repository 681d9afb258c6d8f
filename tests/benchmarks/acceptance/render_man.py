"""Render real man pages (gzipped groff) to plain text files: the acceptance trials' raw material.

Usage: python render_man.py SRC_DIR OUT_DIR N [--min-chars C]
Takes the first N pages (sorted by name) whose rendering has at least C characters.
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
    min_chars = int(sys.argv[5]) if len(sys.argv) > 5 else 1500
    out.mkdir(parents=True, exist_ok=True)
    done = 0
    for page in sorted(src.glob("*.gz")):
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
