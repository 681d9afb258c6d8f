"""`make bench`: run every benchmark script in this folder, one process each, and keep their output.

Each ``bench_*.py`` prints its figures beside a peer measured in the same run; the evaluations
in ``EVALUATIONS`` print quality figures against a ground truth of their own construction.
Output is also written to ``benchmarks/out/<name>.txt``. ``make bench ONLY=fingerprints``
runs one.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
EVALUATIONS = ("eval_pan.py", "eval_template.py", "eval_disguise.py", "flags_clean.py")  # self-contained quality evaluations run with the benchmarks


def main() -> int:
    only = os.environ.get("ONLY", "")
    scripts = sorted(p for p in [*HERE.glob("bench_*.py"), *(HERE / e for e in EVALUATIONS)] if only in p.stem)
    out_dir = HERE / "out"
    out_dir.mkdir(exist_ok=True)
    failed = []
    for script in scripts:
        print(f"\n=== {script.stem} ===", flush=True)
        started = time.monotonic()
        proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
        sys.stdout.write(proc.stdout)
        sys.stderr.write(proc.stderr[-4000:])
        (out_dir / f"{script.stem}.txt").write_text(proc.stdout, encoding="utf-8")
        print(f"--- {script.stem}: exit {proc.returncode} in {time.monotonic() - started:.0f} s", flush=True)
        if proc.returncode:
            failed.append(script.stem)
    if failed:
        print("failed: " + ", ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
