"""Fidelity of the two PDF readers: plain texts printed to PDF by LibreOffice, read back by each,
compared with the text they were printed from.

For each ``*.txt`` of a folder (rendered man pages: ``benchmarks/acceptance/render_man.py``;
corpus sections), LibreOffice makes a PDF (one call, cached beside the texts in ``pdf/``), and
the PDF is read by the fast reader (PDFium) and by the salvage reader alone (pdfminer.six). Printed:
each reader's exact similarity to the source text (groundtruth.truth_of_texts: mean and worst),
how many PDFs the two read into the same units, and the CPU seconds of each.

Usage: ``python benchmarks/measure_pdf_readers.py FOLDER [FOLDER …]``
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import groundtruth as gt  # noqa: E402
from neardup_gui.core.document import Document  # noqa: E402
from neardup_gui.core.extract import extract_file  # noqa: E402
from neardup_gui.core.settings import ExtractLimits  # noqa: E402
from neardup_gui.core.units import tokenize  # noqa: E402

READERS = {"fast (PDFium)": ExtractLimits(), "salvage (pdfminer.six)": ExtractLimits(pdf_fast=False)}


def pdfs_of(folder: Path) -> list[tuple[Path, Path]]:
    """(text, PDF) of each text of ``folder``, the PDFs made once by LibreOffice."""
    texts = sorted(folder.glob("*.txt"))
    out = folder / "pdf"
    out.mkdir(exist_ok=True)
    for _ in range(3):  # (one LibreOffice run sometimes stops before the end of a long list)
        missing = [t for t in texts if not (out / f"{t.stem}.pdf").exists()]
        if not missing:
            break
        with tempfile.TemporaryDirectory() as profile:
            subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless",
                            "--infilter=Text (encoded):UTF8,LF,,", "--convert-to", "pdf:writer_pdf_Export",
                            "--outdir", str(out), *map(str, missing)], check=True, capture_output=True, timeout=3600)
    return [(t, out / f"{t.stem}.pdf") for t in texts if (out / f"{t.stem}.pdf").exists()]


def main() -> int:
    for folder in map(Path, sys.argv[1:]):
        pairs = pdfs_of(folder)
        print(f"{folder}: {len(pairs)} texts printed to PDF by LibreOffice")
        units: dict[str, list] = {}
        for label, limits in READERS.items():
            scores, start = [], time.process_time()
            units[label] = []
            for text, pdf in pairs:
                doc = extract_file(str(pdf), limits)
                extracted = doc.text if isinstance(doc, Document) else ""
                units[label].append(tokenize(extracted).tokens)
                scores.append(gt.truth_of_texts(text.read_text(encoding="utf-8", errors="replace"), extracted).similarity)
            cpu = time.process_time() - start
            print(f"  {label:<24} similarity to the source: mean {statistics.mean(scores):.4f}, worst {min(scores):.4f} "
                  f"({cpu:.1f} s CPU)")
        fast, salvage = units.values()
        same = sum(a == b for a, b in zip(fast, salvage))
        print(f"  the same units from both readers: {same} of {len(pairs)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
