"""A folder of real PDFs as proposals come: LibreOffice's, Chinese and English, 1 to 60 pages.

Each document is a title and a run of sections of the development corpus (real text; see
``callcorpus.corpus_root``) under headings, written by python-docx with a running header, a
page number in the footer ("Page N of M" / "第 N 页 共 M 页") and, in one document in four, the
body set in two columns; then converted to PDF by LibreOffice in one call. The lengths are
spread evenly over 1–40 pages of prose (1–60 pages as set) (about 1,150 characters a page in English — the corpus has many short lines — and 1,050 in Chinese).
Deterministic for a seed. Usage: ``python benchmarks/pdfcorpus.py --out DIR [--count N]``.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from callcorpus import sections  # noqa: E402

CHARS_PER_PAGE = {"en": 1150, "zh": 1050}
HEADER = {"en": "Research proposal: {title}", "zh": "项目申请书：{title}"}


def _field(run, code: str) -> None:  # noqa: ANN001 - a python-docx run
    """A Word field (PAGE, NUMPAGES) in ``run``, as Word writes it."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    for kind, text in (("begin", None), (None, code), ("end", None)):
        if kind:
            element = OxmlElement("w:fldChar")
            element.set(qn("w:fldCharType"), kind)
        else:
            element = OxmlElement("w:instrText")
            element.set(qn("xml:space"), "preserve")
            element.text = f" {text} "
        run._r.append(element)


def _page_footer(paragraph, lang: str) -> None:  # noqa: ANN001 - a python-docx paragraph
    before, middle, after = ("Page ", " of ", "") if lang == "en" else ("第 ", " 页 共 ", " 页")
    paragraph.add_run(before)
    _field(paragraph.add_run(), "PAGE")
    paragraph.add_run(middle)
    _field(paragraph.add_run(), "NUMPAGES")
    if after:
        paragraph.add_run(after)


def _two_columns(document) -> None:  # noqa: ANN001 - a python-docx document
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    section = document.sections[0]._sectPr
    cols = section.find(qn("w:cols"))
    if cols is None:
        cols = OxmlElement("w:cols")
        section.append(cols)
    cols.set(qn("w:num"), "2")
    cols.set(qn("w:space"), "425")


def write_docx(path: Path, lang: str, title: str, parts: list[str], columns: int) -> None:
    from docx import Document

    document = Document()
    document.sections[0].header.paragraphs[0].text = HEADER[lang].format(title=title)
    _page_footer(document.sections[0].footer.paragraphs[0], lang)
    if columns == 2:
        _two_columns(document)
    document.add_heading(title, level=1)
    for number, part in enumerate(parts, 1):
        lines = [line for line in part.split("\n") if line.strip()]
        document.add_heading(f"{number}. {lines[0][:60]}", level=2)
        for line in lines[1:]:
            document.add_paragraph(line)
    document.save(str(path))


def build(out: Path, count: int = 40, seed: int = 50) -> list[Path]:
    """Write ``count`` PDFs (half Chinese) to ``out`` once; the paths, in order."""
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    pool = {lang: sections(lang) for lang in ("en", "zh")}
    pdfs: list[Path] = []
    todo: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(count):
            lang = ("en", "zh")[index % 2]
            pages = 1 + (index * 39) // max(count - 1, 1)  # 1 … 40 pages of prose, more with code lines
            name = f"{lang}-{index:03d}"
            pdf = out / f"{name}.pdf"
            pdfs.append(pdf)
            if pdf.exists():
                continue
            budget = pages * CHARS_PER_PAGE[lang]
            parts: list[str] = []
            while sum(map(len, parts)) < budget:
                parts.append(rng.choice(pool[lang]))
            title = parts[0].split("\n", 1)[0][:50]
            docx = Path(tmp) / f"{name}.docx"
            write_docx(docx, lang, title, parts, 2 if index % 4 == 3 else 1)
            todo.append(docx)
        if todo:
            print(f"converting {len(todo)} documents to PDF with LibreOffice (one call)…", file=sys.stderr)
            for _ in range(3):  # (one LibreOffice run sometimes stops before the end of a long list)
                missing = [d for d in todo if not (out / f"{d.stem}.pdf").exists()]
                if missing:
                    with tempfile.TemporaryDirectory() as profile:
                        subprocess.run(
                            ["soffice", f"-env:UserInstallation=file://{profile}", "--headless",
                             "--convert-to", "pdf:writer_pdf_Export", "--outdir", str(out), *map(str, missing)],
                            check=True, capture_output=True, timeout=3600,
                        )
    missing = [p for p in pdfs if not p.exists()]
    if missing:
        raise SystemExit(f"LibreOffice did not write {len(missing)} PDFs, e.g. {missing[0]}")
    return pdfs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=50)
    args = parser.parse_args()
    paths = build(args.out, args.count, args.seed)
    size = sum(p.stat().st_size for p in paths) / 1048576
    print(f"{len(paths)} PDFs, {size:.1f} MB in {args.out}")


if __name__ == "__main__":
    main()
