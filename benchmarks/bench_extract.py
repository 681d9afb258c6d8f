"""Extraction speed per format, one worker against all cores, on real documents.

Builds (once, cached under benchmarks/out/extract/) txt, docx (python-docx) and pdf
(LibreOffice, one call for all files) versions of sections of the development corpus, then
prints files/s and MB/s per format for in-process extraction, 1 worker and all cores, and the
speed-up of all cores over one worker. Also times one 30-page docx in-process.

Then real PDFs as proposals come (pdfcorpus.py: 40 LibreOffice PDFs of 2–56 pages, half Chinese,
with running headers, page numbers and two-column pages), read one file after another in one
process each way, in the same run: neardup's reading (PDFium for an intact file, see
docs/extraction.md), neardup with its salvage reader alone (pdfminer.six, how it read every PDF
before), PDFium's own plain text through pypdfium2 (the raw fast reader, no layout), and
``pdftotext`` (poppler, a process a file): files and MB per CPU second (per core).

Run: ``python benchmarks/bench_extract.py`` (``make bench``). The corpus is found at
``../shared/corpus`` next to the project, or wherever ``NEARDUP_CORPUS`` points.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from neardup_gui.core.document import Skipped  # noqa: E402
from neardup_gui.core.extract import extract_file  # noqa: E402
from neardup_gui.core.settings import ExtractLimits  # noqa: E402
from neardup_gui.core.workers import extract_many  # noqa: E402

CORPUS = Path(os.environ.get("NEARDUP_CORPUS", ROOT.parent / "shared" / "corpus"))
OUT = ROOT / "benchmarks" / "out" / "extract"
PER_FORMAT = 210  # documents per format (70 Chinese, 140 English)


def corpus_sections() -> list[Path]:
    zh = sorted((CORPUS / "debian-reference-zh-cn").glob("*.txt"))[:70]
    en = sorted((CORPUS / "debian-reference-en").glob("*.txt"))[: PER_FORMAT - len(zh)]
    if len(zh) + len(en) < PER_FORMAT:
        sys.exit(f"corpus at {CORPUS} has too few sections")
    return zh + en


def build(sections: list[Path]) -> dict[str, list[Path]]:
    """Write the documents once; later runs reuse them."""
    import docx

    made: dict[str, list[Path]] = {}
    for fmt in ("txt", "docx", "pdf"):
        (OUT / fmt).mkdir(parents=True, exist_ok=True)
    txt = [OUT / "txt" / f"{s.parent.name[-5:]}-{s.stem}.txt" for s in sections]
    for source, target in zip(sections, txt):
        if not target.exists():
            shutil.copyfile(source, target)
    made["txt"] = txt
    made["docx"] = []
    for source in txt:
        target = OUT / "docx" / (source.stem + ".docx")
        if not target.exists():
            document = docx.Document()
            for line in source.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    document.add_paragraph(line)
            document.save(str(target))
        made["docx"].append(target)
    pdf = [OUT / "pdf" / (s.stem + ".pdf") for s in txt]
    missing = [s for s, p in zip(txt, pdf) if not p.exists()]
    if missing:
        print(f"converting {len(missing)} files to PDF with LibreOffice (one call)…", file=sys.stderr)
        with tempfile.TemporaryDirectory() as profile:
            subprocess.run(
                ["soffice", f"-env:UserInstallation=file://{profile}", "--headless",
                 "--infilter=Text (encoded):UTF8,LF,,", "--convert-to", "pdf:writer_pdf_Export",
                 "--outdir", str(OUT / "pdf"), *map(str, missing)],
                check=True, capture_output=True, timeout=3600,
            )
    made["pdf"] = pdf
    return made


def thirty_page_docx() -> Path:
    import docx

    target = OUT / "thirty-pages.docx"
    if not target.exists():
        document = docx.Document()
        words = 0
        for section in sorted((CORPUS / "debian-reference-en").glob("*.txt")):
            for line in section.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    document.add_paragraph(line)
                    words += len(line.split())
            if words > 15000:  # about 30 pages of 500 words
                break
        document.save(str(target))
    return target


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(label: str, paths: list[Path], run) -> tuple[float, float]:
    """Run ``run(paths)`` (an iterable of results); print and return (files/s, steady files/s).

    The steady rate counts from the first result to the last, leaving out worker start-up.
    """
    size = sum(p.stat().st_size for p in paths) / 1048576
    cpu = cpu_seconds()
    start = time.perf_counter()
    stamps: list[float] = []
    results = []
    for result in run([str(p) for p in paths]):
        results.append(result)
        stamps.append(time.perf_counter())
    elapsed = stamps[-1] - start
    steady = (len(stamps) - 1) / max(stamps[-1] - stamps[0], 1e-9)
    cpu = cpu_seconds() - cpu
    skipped = [r for r in results if isinstance(r, Skipped)]
    print(f"  {label:<12} {len(paths) / elapsed:8.1f} files/s {size / elapsed:7.2f} MB/s "
          f"(steady {steady:.1f} files/s; {len(paths)} files, {size:.1f} MB, {elapsed:.1f} s wall, "
          f"{cpu:.1f} s CPU, load {os.getloadavg()[0]:.1f}, {len(skipped)} skipped)")
    if skipped:
        print(f"    first skipped: {skipped[0]}")
    return len(paths) / elapsed, steady


def raw_pdfium_text(path: str) -> str:
    """PDFium's plain text of a PDF (pypdfium2's text page, no layout of ours)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(path)
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in document)
    finally:
        document.close()


def real_pdfs() -> None:
    """The four readers of real PDFs, one after another on the same files (see the docstring)."""
    import pdfcorpus

    pdfs = pdfcorpus.build(OUT / "proposals", count=40)
    size = sum(p.stat().st_size for p in pdfs) / 1048576
    pages = sum(int(extract_file(str(p), ExtractLimits()).meta["pages"]) for p in pdfs)
    print(f"real PDFs: {len(pdfs)} LibreOffice proposals, {pages} pages, {size:.1f} MB, read one after another")
    runs = {
        "neardup": lambda p: extract_file(p, ExtractLimits()),
        "neardup, salvage reader alone": lambda p: extract_file(p, ExtractLimits(pdf_fast=False)),
        "PDFium plain text": raw_pdfium_text,
        "pdftotext": lambda p: subprocess.run(["pdftotext", "-q", p, "/dev/null"], check=False),
    }
    for label, run in runs.items():
        cpu = cpu_seconds()
        start = time.perf_counter()
        for path in pdfs:
            run(str(path))
        wall = time.perf_counter() - start
        cpu = cpu_seconds() - cpu
        print(f"  {label:<30} {len(pdfs) / cpu:7.1f} files/s {size / cpu:6.2f} MB/s {pages / cpu:7.1f} pages/s "
              f"per core ({cpu:.2f} s CPU, {wall:.2f} s wall)")


def main() -> None:
    real_pdfs()
    made = build(corpus_sections())
    cores = os.cpu_count() or 1
    limits = ExtractLimits()
    print(f"extraction speed, {PER_FORMAT} documents per format, {cores} cores "
          f"(load average {os.getloadavg()[0]:.1f}: other work on the machine limits the speed-up)")
    tiny = made["txt"][:cores]
    for n in (1, cores):
        start = time.perf_counter()
        list(extract_many([str(p) for p in tiny], limits, n))
        print(f"worker start-up and shut-down, {n} worker(s): {time.perf_counter() - start:.2f} s")
    for fmt, paths in made.items():
        print(f"{fmt}:")
        measure("in-process", paths, lambda ps: (extract_file(p, limits) for p in ps))
        one, one_steady = measure("1 worker", paths, lambda ps: (r for _, r in extract_many(ps, limits, 1)))
        many, many_steady = measure(
            f"{cores} workers", paths, lambda ps: (r for _, r in extract_many(ps, limits, cores))
        )
        print(f"  speed-up {cores} workers / 1 worker: {many / one:.2f}x overall, "
              f"{many_steady / one_steady:.2f}x steady")
    big = thirty_page_docx()
    start = time.perf_counter()
    doc = extract_file(str(big), limits)
    elapsed = time.perf_counter() - start
    print(f"30-page docx ({len(doc.text)} characters, {len(doc.paragraphs)} paragraphs): {elapsed * 1000:.0f} ms in-process")


if __name__ == "__main__":
    main()
