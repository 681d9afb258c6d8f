"""Benchmark: exact pair verification (compare_units) against peers, on real corpus text.

Run: ``.venv/bin/python benchmarks/bench_compare.py`` (``make bench``). Prints pairs per
second for typical proposals (Chinese ~8k units, English ~4k units) and a 30-page Chinese case
(~35k units), for: resubmissions (light edits), one-section partial copies, unrelated texts.

Peers measured in the same run on the same unit sequences:
- ``rapidfuzz``: the plain full alignment, rapidfuzz's LCS opcodes over all units (the
  alignment alone, before any run filtering);
- ``full``: ``compare_units(alignment="full")``, our comparison without the shared-k-gram filter;
- ``difflib``: Python's ``difflib.SequenceMatcher(autojunk=False)`` matching blocks (not an
  LCS, the usual stand-in) — skipped where it would take minutes.

The corpus is ``<project root>/../shared/corpus`` unless ``NEARDUP_CORPUS`` says otherwise.
"""

from __future__ import annotations

import difflib
import os
import random
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from neardup_gui.core.align import align_bit_parallel
from neardup_gui.core.compare import compare_units  # noqa: E402
from neardup_gui.core.settings import Settings  # noqa: E402
from neardup_gui.core.units import Units, tokenize  # noqa: E402

MIN_RUN = Settings().min_run


def corpus_dir() -> Path:
    return Path(os.environ.get("NEARDUP_CORPUS", ROOT.parent / "shared" / "corpus"))


def book(lang: str) -> str:
    folder = corpus_dir() / f"debian-reference-{lang}"
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt")))


def cut(text: str, start_unit: int, n_units: int) -> str:
    """The text of ``n_units`` units starting at unit ``start_unit``."""
    units = tokenize(text)
    end = min(start_unit + n_units, len(units)) - 1
    return text[int(units.starts[start_unit]) : int(units.ends[end])]


def light_edit(text: str, rng: random.Random, every: int = 80) -> str:
    out, i = [], 0
    while i < len(text):
        step = rng.randint(every // 2, every * 3 // 2)
        out.append(text[i : i + step])
        i += step
        r = rng.random()
        if r < 0.4:
            i += rng.randint(1, 3)
        elif r < 0.8:
            out.append(rng.choice(["的", "我们", "研究", "the", "and", "进一步", "系统"]))
    return "".join(out)


def timed(fn: Callable[[], object], budget_s: float = 1.5, max_runs: int = 200) -> float:
    """Seconds per call: repeat within a time budget, report the median of the runs."""
    times = []
    start = time.perf_counter()
    while len(times) < max_runs and (not times or time.perf_counter() - start < budget_s):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2]


def cases(rng: random.Random) -> list[tuple[str, str, str]]:
    zh, en = book("zh-cn"), book("en")
    zh_units, en_units = len(tokenize(zh)), len(tokenize(en))
    out = []
    for lang, text, total, size in (("zh", zh, zh_units, 8000), ("en", en, en_units, 4000)):
        a = cut(text, 0, size)
        other = cut(text, total // 2, size)
        section = cut(text, size // 3, size // 5)
        host = cut(text, total // 2, size - size // 5)
        mid = len(host) // 2
        out += [
            (f"{lang} {size // 1000}k resubmission", a, light_edit(a, rng)),
            (f"{lang} {size // 1000}k one-section copy", a, host[:mid] + section + host[mid:]),
            (f"{lang} {size // 1000}k unrelated", a, other),
        ]
    big = 35000
    a = cut(zh, 0, big)
    other = cut(zh, zh_units - big, big)
    section = cut(zh, 5000, 5000)
    out += [
        ("zh 30-page resubmission", a, light_edit(a, rng)),
        ("zh 30-page one-section copy", a, other[: len(other) // 2] + section + other[len(other) // 2 :]),
        ("zh 30-page unrelated", a, other),
    ]
    return out


def main() -> None:
    rng = random.Random(2024)
    print(f"min_run={MIN_RUN}; times are medians per pair; pairs/s = 1 / time", flush=True)
    header = (
        f"{'case':30} {'units':>12} {'sim':>6} {'ours':>8} {'ours+cut':>8} {'full':>8} {'rapidfuzz':>9} {'difflib':>8}"
    )
    print(header)
    print("-" * len(header))
    for name, text_a, text_b in cases(rng):
        ua, ub = tokenize(text_a), tokenize(text_b)
        ours = compare_units(ua, ub, min_run=MIN_RUN)
        t_ours = timed(lambda: compare_units(ua, ub, min_run=MIN_RUN))
        # a check-style cut-off: similarity 0.5 or containment 0.3 of either text
        t_cut = timed(lambda: compare_units(ua, ub, min_run=MIN_RUN, min_similarity=0.5, min_containment=0.3))
        t_full = timed(lambda: compare_units(ua, ub, min_run=MIN_RUN, alignment="full"), budget_s=1.0, max_runs=20)
        t_rf = timed(lambda: align_bit_parallel(ua.ids, ub.ids), budget_s=1.0, max_runs=20)
        t_difflib = difflib_time(ua, ub)
        units = f"{len(ua)}/{len(ub)}"
        print(
            f"{name:30} {units:>12} {ours.similarity:6.3f} {rate(t_ours):>8} {rate(t_cut):>8} "
            f"{rate(t_full):>8} {rate(t_rf):>9} {rate(t_difflib):>8}",
            flush=True,
        )
    print("\ncolumns: pairs per second. ours = compare_units (shared-k-gram filter, Myers or")
    print("rapidfuzz, exact); ours+cut = with min_similarity=0.5, min_containment=0.3 (pairs that")
    print("cannot reach either are skipped); full = compare_units(alignment='full'); rapidfuzz =")
    print("plain LCS opcodes over all units; difflib = SequenceMatcher blocks (not an LCS).")


def difflib_time(ua: Units, ub: Units) -> float | None:
    if len(ua) * len(ub) > 10_000 * 10_000:
        return None  # minutes per pair: not worth the machine time

    def run() -> None:
        difflib.SequenceMatcher(None, ua.tokens, ub.tokens, autojunk=False).get_matching_blocks()

    return timed(run, budget_s=1.0, max_runs=3)


def rate(seconds: float | None) -> str:
    if seconds is None:
        return "skipped"
    return f"{1 / seconds:,.0f}" if seconds < 1 else f"{1 / seconds:.2f}"


if __name__ == "__main__":
    main()
