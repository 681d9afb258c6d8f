"""Benchmark: edited passages (core/passages.py) against their former implementation, on the real
comparisons of a collection-wide pass.

Run: ``.venv/bin/python tests/benchmarks/bench_passages.py`` (``make bench``): builds a copy-heavy
collection of ``--docs`` documents from the development corpus (tests/benchmarks/copyheavy.py),
indexes it, and runs ``neardup pairs --threshold 0.8 --no-auto-template --workers 1`` in this
process. Every passage computation of that pass (``passage_cover`` in the counts-only
comparisons) is run twice on the same inputs: by the current module and by the frozen copy of the
implementation before issue 16 (tests/core/passages_reference.py), alternating which goes first.
Prints both times and the speed-up, and exits 1 if any cover or passage differs.

``--dir PATH``: use that folder of documents instead (e.g. a collection of real copyright files);
``--db FILE``: an index of it already built (copied first: the pass caches its results in it).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import copyheavy  # noqa: E402
from neardup_gui import cli  # noqa: E402
from neardup_gui.core import compare, passages  # noqa: E402
from tests.core import passages_reference as reference  # noqa: E402


class Timed:
    """``passage_cover`` as the pass calls it, run by both implementations and compared."""

    def __init__(self) -> None:
        self.calls = self.differ = 0
        self.new = self.old = 0.0
        self.units = 0

    def __call__(self, a, b, runs, pos_a, pos_b, codes_a, codes_b, align, rules=passages.DEFAULT_RULES):
        args = (a, b, list(runs), pos_a, pos_b, codes_a, codes_b, align, rules)
        order = (("new", passages._found), ("old", reference._found))
        if self.calls % 2:
            order = order[::-1]
        found = {}
        for name, fn in order:
            started = time.perf_counter()
            found[name] = fn(*args) if runs else []
            setattr(self, name, getattr(self, name) + time.perf_counter() - started)
        self.calls += 1
        self.units += len(codes_a) + len(codes_b)
        if found["new"] != found["old"]:
            self.differ += 1
            print(f"DIFFERENT passages: {len(codes_a)} × {len(codes_b)} units, {len(runs)} anchors", flush=True)
        cover = passages.passage_cover(*args)
        if cover != reference.passage_cover(*args):
            self.differ += 1
            print(f"DIFFERENT cover: {len(codes_a)} × {len(codes_b)} units", flush=True)
        return cover


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=400, help="documents of the built copy-heavy collection")
    parser.add_argument("--dir", type=Path, help="a folder of documents to use instead")
    parser.add_argument("--db", type=Path, help="an index of --dir already built (copied before the pass)")
    parser.add_argument("--threshold", default="0.8")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "index.db"
        if args.db:
            shutil.copy(args.db, db)
            source = f"{args.db.name} (copied)"
        else:
            folder = args.dir
            if folder is None:
                folder = Path(tmp) / "docs"
                copyheavy.build(folder, args.docs)
            started = time.perf_counter()
            cli.main(["index", str(folder), "--db", str(db), "-q"])
            source = f"{folder.name}: indexed in {time.perf_counter() - started:.1f} s"
        timed = Timed()
        compare.passage_cover = timed  # the name the comparison calls
        started = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):  # the pairs themselves are not the figures
            cli.main(["pairs", "--db", str(db), "--threshold", args.threshold, "--no-auto-template", "--workers", "1",
                      "--json", "-q"])
        total = time.perf_counter() - started
    print(f"\ncollection: {source}", file=sys.stderr)
    print(f"pairs pass: {total:.1f} s wall (including both passage computations below)")
    print(f"passage computations: {timed.calls:,} comparisons, {timed.units / max(1, timed.calls):,.0f} units per pair on average")
    print(f"  former implementation: {timed.old:7.2f} s")
    print(f"  current:               {timed.new:7.2f} s   ({timed.old / max(timed.new, 1e-9):.1f}× faster)")
    print(f"  comparisons with different passages or covers: {timed.differ}")
    return 1 if timed.differ else 0


if __name__ == "__main__":
    sys.exit(main())
