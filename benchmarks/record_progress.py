"""Record the progress reports of real runs of the core, for the remaining-time estimate's test.

Writes ``tests/fixtures/progress/runs.json``: for each run, the (seconds since its start, fraction
done) of each rise of its progress. The runs: indexing and screening the screenshots' archive and
call (packaging/screenshots.py), indexing 400 texts of the development corpus and finding their
pairs, and screening 120 texts (20 of them copies) against 600. The estimate is judged on the
shapes of these runs (where the work stands still, where it speeds up), scaled to longer runs.

    .venv/bin/python benchmarks/record_progress.py
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "packaging"))
OUT = ROOT / "tests" / "fixtures" / "progress" / "runs.json"


def recorder() -> tuple[list[list[float]], object]:
    samples: list[list[float]] = []
    start = time.monotonic()

    def progress(fraction: float, message: str = "") -> None:
        if not samples or fraction > samples[-1][1]:
            samples.append([round(time.monotonic() - start, 3), round(fraction, 4)])

    return samples, progress


def main() -> int:
    from neardup_gui.core.collection import Collection
    from neardup_gui.core.screening import screen_folder
    from neardup_gui.core.settings import Settings
    from tests.corpus import CORPUS

    import screenshots

    settings = Settings(workers=2)
    home = Path(tempfile.mkdtemp(prefix="neardup-progress-"))
    runs: dict[str, object] = {"note": "Progress reports (seconds since the start, fraction done) of real runs of "
                               "the core; see benchmarks/record_progress.py."}
    try:
        archive, call = screenshots.build_call(home)
        with Collection.open(home / "a.ndx") as coll:
            runs["index"], progress = recorder()
            coll.index_folder(str(archive), settings, progress=progress)
            runs["screening"], progress = recorder()
            screen_folder(coll, str(call), settings, name="call", progress=progress)
        texts = sorted(CORPUS.glob("*/*.txt"))
        big, call2 = home / "big", home / "call2"
        big.mkdir()
        call2.mkdir()
        for f in texts[:400]:
            shutil.copy(f, big / f"{f.parent.name}-{f.name}")
        with Collection.open(home / "b.ndx") as coll:
            runs["index_400"], progress = recorder()
            coll.index_folder(str(big), settings, progress=progress)
            runs["pairs_400"], progress = recorder()
            coll.pairs(settings, progress=progress)
        for f in texts[400:600]:
            shutil.copy(f, big / f"{f.parent.name}-{f.name}")
        for f in texts[600:700] + texts[:20]:
            shutil.copy(f, call2 / f"{f.parent.name}-{f.name}")
        with Collection.open(home / "c.ndx") as coll:
            coll.index_folder(str(big), settings)
            runs["screening_120"], progress = recorder()
            screen_folder(coll, str(call2), settings, name="call", progress=progress)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(runs, separators=(",", ":")) + "\n", encoding="utf-8")
    for name, samples in runs.items():
        if name != "note":
            print(f"{name}: {len(samples)} rises in {samples[-1][0]:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
