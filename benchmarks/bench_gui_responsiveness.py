"""The window on a few thousand real documents: does it stay responsive? (issue 6)

Builds a folder of ~3,000 documents from the development corpus (every section, its halves and
light edits of them, Chinese and English, as txt; cached under benchmarks/out/), opens it
in the real MainWindow (offscreen), and measures the gaps between ticks of a 10 ms QTimer on
the GUI thread while the window indexes the folder, lists the duplicate pairs, checks a
submission and opens the side-by-side view. A frozen window would show gaps of seconds.
The peer: the same timer in an idle window, in the same run. Then the examiner's everyday steps
on the loaded collection: each tab shown, the pairs sorted and filtered.

``--folder DIR --home DIR``: another collection (e.g. ``copyheavy.py``'s 10,000 documents), its
index kept under the given home, so a second run opens it indexed (docs/speed.md, fourteenth round).
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = Path(os.environ.get("NEARDUP_CORPUS", ROOT.parent / "shared" / "corpus"))
OUT = ROOT / "benchmarks" / "out" / "gui-folder"


def build_folder(target: int = 3000) -> list[Path]:
    if OUT.is_dir() and len(list(OUT.glob("*.txt"))) >= target:
        return sorted(OUT.glob("*.txt"))
    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(11)
    sections = sorted(CORPUS.glob("debian-reference-*/*.txt"))
    made = 0
    while made < target:
        for src in sections:
            text = src.read_text(encoding="utf-8")
            lang = "zh" if "zh" in src.parent.name else "en"
            variant = made // len(sections)
            if variant == 0:
                body = text
            else:
                lines = text.split("\n")
                rng.shuffle(lines)  # a different document made of the same section's lines
                keep = lines[: max(3, len(lines) * rng.randint(4, 9) // 10)]
                body = "\n".join(keep)
            (OUT / f"{lang}-{src.stem}-v{variant}.txt").write_text(body, encoding="utf-8")
            made += 1
            if made >= target:
                break
    return sorted(OUT.glob("*.txt"))


def main() -> int:
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--folder", help="another folder of documents (e.g. copyheavy.py's 10,000) instead of the "
                                     "built one; its index is kept under --home")
    ap.add_argument("--home", default=str(ROOT / "benchmarks" / "out" / "gui-home"))
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    home = Path(args.home)
    os.environ["HOME"] = str(home)
    os.environ["XDG_DATA_HOME"] = str(home / "data")
    os.environ["XDG_CONFIG_HOME"] = str(home / "config")
    global OUT
    if args.folder:
        OUT = Path(args.folder)
        files = sorted(p for p in OUT.rglob("*") if p.is_file())
    else:
        files = build_folder()
    from PySide6.QtCore import QElapsedTimer, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    from neardup_gui.app.mainwindow import MainWindow

    app = QApplication.instance() or QApplication([])
    window = MainWindow()
    window.show()
    gaps: list[float] = []
    clock = QElapsedTimer()
    clock.start()
    last = [clock.elapsed()]

    def tick() -> None:
        now = clock.elapsed()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(tick)
    timer.start()

    def run_until(predicate, limit_s: float) -> float:
        started = time.monotonic()
        while not predicate():
            app.processEvents()
            time.sleep(0.001)
            if time.monotonic() - started > limit_s:
                raise TimeoutError
        return time.monotonic() - started

    def measure(name: str, start, done, limit_s: float = 3600) -> None:
        gaps.clear()
        last[0] = clock.elapsed()
        start()
        elapsed = run_until(done, limit_s)
        g = sorted(gaps) or [0.0]
        print(f"| {name} | {elapsed:.1f} s | {len(g)} | {g[len(g) // 2]:.0f} ms | {g[int(len(g) * 0.99)]:.0f} ms | {g[-1]:.0f} ms |",
              flush=True)

    print(f"{len(files)} documents in {OUT.name}/ ({sum(f.stat().st_size for f in files) / 2**20:.1f} MB)")
    print("| step | took | timer ticks | median gap | p99 gap | worst gap |")
    print("|---|---:|---:|---:|---:|---:|")
    measure("idle window (peer)", lambda: None, lambda: len(gaps) >= 300)
    loaded = []
    window.collection_loaded.connect(lambda: loaded.append(1))
    dup = []
    window.duplicates_ready.connect(lambda: dup.append(1))
    measure("index the folder, then list pairs", lambda: window.open_folder(str(OUT)),
            lambda: loaded and dup and not window.is_busy())
    print(f"documents: {window.documents_page.model.rowCount()}, pairs: {window.duplicates_page.model.rowCount()}")
    checked = []
    window.check_ready.connect(lambda: checked.append(1))
    submission = files[len(files) // 2]
    measure("check a submission", lambda: window.check_files([str(submission)]),
            lambda: checked and not window.is_busy())
    opened = []
    window.diff_opened.connect(lambda view: opened.append(view))
    first = window.pairs[0] if window.pairs else None
    if first is not None:
        measure("open the side-by-side view", lambda: window.open_pair_diff(first.a.doc_id, first.b.doc_id),
                lambda: opened and not window.is_busy())
    measure("refresh (nothing changed)", window.refresh, lambda: not window.is_busy() and len(gaps) > 5)
    # the examiner goes through the tabs and the list (each step: what it shows at once, then idle)
    tabs = window.tabs
    for i in range(tabs.count()):
        measure(f"show the tab '{tabs.tabText(i)}'", lambda i=i: tabs.setCurrentIndex(i), lambda: len(gaps) > 20)
    view = window.duplicates_page.view
    for column in (1, 0):
        measure(f"sort the pairs by column {column}", lambda c=column: view.sortByColumn(c, Qt.SortOrder.AscendingOrder),
                lambda: len(gaps) > 20)
    measure("filter the pairs", lambda: window.duplicates_page.filter.setText("v1"), lambda: len(gaps) > 50)
    measure("clear the filter", lambda: window.duplicates_page.filter.clear(), lambda: len(gaps) > 50)
    measure("filter the documents", lambda: window.documents_page.filter.setText("v1"), lambda: len(gaps) > 50)
    measure("clear it", lambda: window.documents_page.filter.clear(), lambda: len(gaps) > 50)
    measure("switch the language to Chinese", lambda: window.translations.switch("zh_CN"), lambda: len(gaps) > 50)
    measure("and back to English", lambda: window.translations.switch("en"), lambda: len(gaps) > 50)
    # the examiner excludes a common passage (held by a few dozen documents) as template, then undoes it
    page = window.common_page
    chosen = sorted((p for p in page.passages if p.status == "counted"), key=lambda p: abs(p.documents - 50))
    if chosen:
        passage = chosen[0]
        print(f"passage held by {passage.documents} documents, {len(passage.keys)} sentences")
        updated = []
        window.duplicates_ready.connect(lambda: updated.append(1))
        measure("exclude it as template", lambda: window.act_on_passage(passage, "exclude"),
                lambda: updated and not window.is_busy())
        marked = next(p for p in page.passages if p.id == passage.id)
        updated.clear()
        measure("undo it", lambda: window.act_on_passage(marked, "undo"), lambda: updated and not window.is_busy())
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
