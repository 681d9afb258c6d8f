"""Benchmark: edited passages (core/passages.py) against their former implementation, on the real
comparisons of a collection-wide pass.

Run: ``.venv/bin/python tests/benchmarks/bench_passages.py`` (``make bench``): builds a copy-heavy
collection of long documents from the development corpus — ``--families`` texts of
``--sections`` consecutive sections each (about 5,000 units, the size of a proposal), each in
``--copies`` light edits (tests/benchmarks/copyheavy.py: 0.5–3 % of the words or characters
dropped, replaced or doubled) — indexes it, and runs
``neardup pairs --threshold 0.8 --no-auto-template --workers 1`` in this process. Every
passage computation of that pass (``passage_cover`` in the counts-only comparisons) is run on
the same inputs by the current module and by the frozen copy of the implementation before
issue 16 (tests/core/passages_reference.py), alternating which goes first; so are the full
passages with all their seeds (what a comparison view shows). Prints the times and speed-ups,
and exits 1 if any cover or passage differs.

``--dir PATH``: use that folder of documents instead (e.g. a collection of real copyright files);
``--db FILE``: an index of it already built (copied first: the pass caches its results in it).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
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
    """``passage_cover`` as the pass calls it, run by both implementations and compared; the full
    passages (with all their seeds, as a comparison view builds them) are compared and timed too."""

    def __init__(self) -> None:
        self.calls = self.differ = 0
        self.times = {name: 0.0 for name in ("cover", "cover_old", "full", "full_old")}
        self.units = 0

    def _timed(self, name: str, fn, *args):
        started = time.perf_counter()
        result = fn(*args)
        self.times[name] += time.perf_counter() - started
        return result

    def __call__(self, a, b, runs, pos_a, pos_b, codes_a, codes_b, align, rules=passages.DEFAULT_RULES):
        args = (a, b, list(runs), pos_a, pos_b, codes_a, codes_b, align, rules)
        first, second = (passages, reference) if self.calls % 2 else (reference, passages)
        covers = {mod: self._timed("cover" if mod is passages else "cover_old", mod.passage_cover, *args)
                  for mod in (first, second)}
        found = {mod: self._timed("full" if mod is passages else "full_old", mod._found, *args) if runs else []
                 for mod in (first, second)}
        self.calls += 1
        self.units += len(codes_a) + len(codes_b)
        if covers[passages] != covers[reference] or found[passages] != found[reference]:
            self.differ += 1
            print(f"DIFFERENT: {len(codes_a)} × {len(codes_b)} units, {len(runs)} anchors", flush=True)
        return covers[passages]


def build_long(out: Path, families: int, sections_per_text: int, copies: int, seed: int = 16) -> int:
    """Write ``families × copies`` light edits of long texts (consecutive sections joined) into
    ``out``; returns how many."""
    rng = random.Random(seed)
    secs = copyheavy.sections()
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for f in range(families):
        start = (f * sections_per_text) % max(1, len(secs) - sections_per_text)
        base = "\n".join(secs[start : start + sections_per_text])
        for c in range(copies):
            (out / f"text{f:03d}_{c}.txt").write_text(copyheavy.light_edit(base, rng.uniform(0.005, 0.03), rng),
                                                      encoding="utf-8")
            written += 1
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--families", type=int, default=40, help="long texts of the built collection")
    parser.add_argument("--sections", type=int, default=15, help="corpus sections joined into one long text")
    parser.add_argument("--copies", type=int, default=6, help="light edits of each long text")
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
                folder = Path(tmp) / "long-copies"
                build_long(folder, args.families, args.sections, args.copies)
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
    t = timed.times
    print(f"passage computations: {timed.calls:,} comparisons, "
          f"{timed.units / max(1, timed.calls):,.0f} units per pair on average")
    print(f"  passage_cover (what the pass stores): former {t['cover_old']:6.2f} s, current {t['cover']:6.2f} s "
          f"({t['cover_old'] / max(t['cover'], 1e-9):.1f}× faster)")
    print(f"  full passages (as a view builds them): former {t['full_old']:6.2f} s, current {t['full']:6.2f} s "
          f"({t['full_old'] / max(t['full'], 1e-9):.1f}× faster)")
    print(f"  comparisons with different passages or covers: {timed.differ}")
    return 1 if timed.differ else 0


if __name__ == "__main__":
    sys.exit(main())
