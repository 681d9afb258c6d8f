"""`neardup screen` of a call of 500 PDF proposals against a 10,000-document index, beside the
time the same PDFs take to read with pdftotext (poppler) and with neardup alone.

Built once and cached under ``benchmarks/out/`` (``NEARDUP_BENCH_OUT`` moves it):

- the index: bench_check's collection (real corpus sections and generated proposals, written
  straight into the index) at its 10,000-document checkpoint, built by bench_check.build (or
  the one bench_check.py has built already);
- the call: 500 proposals, 60 % Chinese, of generated text (synthcorpus, 1–12 pages), written by
  python-docx with a running header and made PDF by LibreOffice (one call); one in five holds a
  section copied from a generated document of the index, one in twenty a section of another
  proposal of the call (``planted.json`` says which).

Measured in the same run, each a whole process (wall; CPU of it and its workers): ``neardup
screen CALL --db COPY --json`` on a fresh copy of the index; ``neardup extract`` of the 500 PDFs;
``pdftotext`` of each. Printed: the figures, and how many planted copies the screening flagged.

Usage: ``python benchmarks/bench_screen_pdfs.py [--calls 500] [--index 10000]`` (the first
run builds the index, about 25 minutes on two cores, and the call, about 3 minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = Path(os.environ.get("NEARDUP_BENCH_OUT", HERE / "out")) / "screen_pdfs"
sys.path.insert(0, str(HERE))

import bench_check  # noqa: E402
from pdfcorpus import write_docx  # noqa: E402

NEARDUP = ROOT / ".venv" / "bin" / "neardup"
PAGE_UNITS = {"en": 450, "zh": 1000}  # units of generated text a page holds, about


def build_call(folder: Path, count: int, index_size: int, seed: int = 50) -> dict[str, str]:
    """The call's PDFs (once); what each copies: {file: "index REL" | "call FILE" | ""}."""
    planted_path = folder / "planted.json"
    if planted_path.exists() and len(list(folder.glob("*.pdf"))) == count:
        return json.loads(planted_path.read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    bulk = index_size - 400  # (the generated documents, numbered from 0, after 355 sections and plants)
    texts: dict[str, list[str]] = {}
    planted: dict[str, str] = {}
    for i in range(count):
        lang = "zh" if rng.random() < bench_check.ZH_SHARE else "en"
        pages = rng.randint(1, 12)
        own = bench_check.model(lang).generate(random.Random(seed * 10**6 + i), pages * PAGE_UNITS[lang]).split("\n")
        name = f"{lang}-{i:04d}"
        planted[name + ".pdf"] = ""
        if i % 5 == 1:
            rel, text = bench_check.bulk_doc(rng.randrange(bulk))
            section = text.split("\n")[:8]
            own[len(own) // 2:len(own) // 2] = section
            planted[name + ".pdf"] = f"index {rel}"
        elif i % 20 == 2 and i > 20:
            other = f"{lang}-{i - 20:04d}"
            if other in texts:
                own[:0] = texts[other][:6]
                planted[name + ".pdf"] = f"call {other}.pdf"
        texts[name] = [p for p in own if p.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        sources = []
        for name, paragraphs in texts.items():
            target = Path(tmp) / f"{name}.docx"
            write_docx(target, name[:2], paragraphs[0][:40], ["\n".join(paragraphs)], 1)
            sources.append(target)
        print(f"converting {len(sources)} proposals to PDF with LibreOffice…", file=sys.stderr, flush=True)
        for _ in range(5):  # (one LibreOffice run sometimes stops before the end of a long list)
            missing = [d for d in sources if not (folder / f"{d.stem}.pdf").exists()]
            for at in range(0, len(missing), 50):
                with tempfile.TemporaryDirectory() as profile:
                    subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to",
                                    "pdf:writer_pdf_Export", "--outdir", str(folder), *map(str, missing[at:at + 50])],
                                   check=True, capture_output=True, timeout=3600)
        missing = [d.stem for d in sources if not (folder / f"{d.stem}.pdf").exists()]
        if missing:
            raise SystemExit(f"LibreOffice did not make {len(missing)} of the PDFs, e.g. {missing[0]}")
    planted_path.write_text(json.dumps(planted, ensure_ascii=False, indent=1), encoding="utf-8")
    return planted


def timed(cmd: list[str], **kw) -> tuple[float, float, subprocess.CompletedProcess]:  # noqa: ANN003
    """(wall s, CPU s of the process and its children, the run)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run(cmd, capture_output=True, text=True, **kw)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=500)
    ap.add_argument("--index", type=int, default=10_000)
    args = ap.parse_args()
    sections = bench_check.real_sections()
    plans = [bench_check.make_plan("en", sections), bench_check.make_plan("zh", sections)]
    bench_check.build(args.index, 4 * 3600, plans, sections)
    index = bench_check.checkpoint_path(args.index)
    call = OUT / f"call-{args.calls}"
    planted = build_call(call, args.calls, args.index)
    pdfs = sorted(call.glob("*.pdf"))
    size = sum(p.stat().st_size for p in pdfs) / 1048576
    cores = os.cpu_count() or 1
    print(f"a call of {len(pdfs)} PDF proposals ({size:.1f} MB) against an index of {args.index} documents, "
          f"{cores} cores (load average {os.getloadavg()[0]:.1f})")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "index.sqlite"
        shutil.copyfile(index, db)
        wall, cpu, run = timed([str(NEARDUP), "screen", str(call), "--db", str(db), "--json", "-q"], cwd=ROOT)
        if run.returncode not in (0, 1):
            print(run.stderr[-3000:])
            return 1
        result = json.loads(run.stdout)
    print(f"  neardup screen: {wall:7.1f} s wall, {cpu:7.1f} s CPU")
    rows = {Path(r["path"]).name: r for r in result["submissions"]}
    copies = {name: what.split(" ", 1)[1] for name, what in planted.items() if what and name in rows}
    found = [name for name, source in copies.items() if Path(rows[name]["largest_source"] or "").name ==
             Path(source).name]
    flagged = {name for name, r in rows.items() if r["flagged"]}
    print(f"  planted copies whose largest source is the one copied: {len(found)} of {len(copies)}; "
          f"flagged (copied share at least {result['flag']}): {len(flagged & set(copies))} of them, "
          f"{len(flagged - set(copies))} others")
    wall, cpu, _ = timed([str(NEARDUP), "extract", *map(str, pdfs)], cwd=ROOT)
    print(f"  neardup extract of the PDFs: {wall:7.1f} s wall, {cpu:7.1f} s CPU "
          f"({len(pdfs) / cpu:.1f} files/s, {size / cpu:.2f} MB/s per core)")
    wall, cpu, _ = timed(["sh", "-c", 'for f in "$@"; do pdftotext -q "$f" /dev/null; done', "sh", *map(str, pdfs)])
    print(f"  pdftotext of the PDFs:       {wall:7.1f} s wall, {cpu:7.1f} s CPU "
          f"({len(pdfs) / cpu:.1f} files/s, {size / cpu:.2f} MB/s per core)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
