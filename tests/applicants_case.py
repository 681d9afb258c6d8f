"""A call where one applicant resubmits their own indexed proposal, one copies half of it, one copies nothing.

Applicant X's proposal is in the collection (with four proposals of other people); in the call,
X resubmits it (lightly edited), Y submits half of it with as much text of their own, Z submits
their own text only. Who wrote what is said either by a CSV (every file written by python-docx,
whose author field names the program, not a person) or by the files' own author metadata alone
(python-docx's core properties, and one proposal LibreOffice made).
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path
from xml.sax.saxutils import escape

from docx import Document as DocxDocument

from tests.corpus import corpus_dir

NAMES = {"x": "王小明", "y": "Li Hua", "z": "Zhang Wei"}


def _paragraphs(name: str) -> list[str]:
    text = (corpus_dir() / "debian-reference-en" / name).read_text(encoding="utf-8")
    return [p for p in text.split("\n") if len(p.split()) >= 12]


def _texts() -> list[list[str]]:
    files = sorted((corpus_dir() / "debian-reference-en").glob("*.txt"))
    texts = [_paragraphs(f.name) for f in files]
    return [t for t in texts if sum(len(p.split()) for p in t) > 250]


def _words(paragraphs: list[str]) -> int:
    return sum(len(p.split()) for p in paragraphs)


def write_docx(path: Path, paragraphs: list[str], author: str | None = None) -> None:
    """A DOCX by python-docx; ``author``: its core properties' author (None: python-docx's own)."""
    d = DocxDocument()
    if author is not None:
        d.core_properties.author = author
    for p in paragraphs:
        d.add_paragraph(p)
    d.save(str(path))


def write_libreoffice_docx(path: Path, paragraphs: list[str], author: str, profile: Path) -> None:
    """A DOCX LibreOffice made (from flat OpenDocument text naming its author)."""
    flat = path.with_suffix(".fodt")
    body = "".join(f"<text:p>{escape(p)}</text:p>" for p in paragraphs)
    flat.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
        'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">'
        f"<office:meta><meta:initial-creator>{escape(author)}</meta:initial-creator>"
        f"<dc:creator>{escape(author)}</dc:creator></office:meta>"
        f"<office:body><office:text>{body}</office:text></office:body></office:document>", encoding="utf-8")
    out = path.parent / "lo-out"
    subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "docx",
                    "--outdir", str(out), str(flat)], capture_output=True, timeout=180, check=True)
    shutil.move(out / flat.with_suffix(".docx").name, path)
    shutil.rmtree(out)
    flat.unlink()


def make_call(root: Path, *, metadata: bool, libreoffice: bool = False) -> tuple[Path, Path, Path | None, Path | None]:
    """The collection's folder and the call's folder under ``root``; with ``metadata`` the files
    name their authors, else two CSVs do (one for the collection, one for the call). Returns
    (collection folder, call folder, collection CSV, call CSV); ``libreoffice``: X's indexed
    proposal made by LibreOffice (needs soffice)."""
    texts = _texts()
    proposal = texts[0] + texts[1]
    half = proposal[: len(proposal) // 2]
    own_y = [p for t in texts[4:9] for p in t]
    while _words(own_y) > _words(half) and len(own_y) > 1:  # as much text of Y's own as copied
        own_y = own_y[:-1]
    own_z = texts[9] + texts[10]
    archive, call = root / "collection", root / "call"
    archive.mkdir()
    call.mkdir()
    author = (lambda who: NAMES[who]) if metadata else (lambda who: None)
    if libreoffice:
        write_libreoffice_docx(archive / "x-2024-proposal.docx", proposal, NAMES["x"], root / "lo-profile")
    else:
        write_docx(archive / "x-2024-proposal.docx", proposal, author("x"))
    others = {f"other-{k}.docx": f"Applicant {k}" for k in range(4)}
    for k, (name, who) in enumerate(others.items()):
        write_docx(archive / name, texts[11 + k], who if metadata else None)
    rng = random.Random(7)
    resubmitted = [" ".join(w if rng.random() > 0.02 else "revised" for w in p.split()) for p in proposal]
    write_docx(call / "x-resubmission.docx", resubmitted, author("x"))
    write_docx(call / "y-proposal.docx", half + own_y, author("y"))
    write_docx(call / "z-proposal.docx", own_z, author("z"))
    if metadata:
        return archive, call, None, None
    collection_csv, call_csv = root / "collection-applicants.csv", root / "call-applicants.csv"
    collection_csv.write_text("path,applicant\nx-2024-proposal.docx,王小明\n"
                              + "".join(f"{name},{who}\n" for name, who in others.items()), encoding="utf-8")
    # (as Excel saves a CSV in Chinese: GB18030, Windows separators, the call's files by name)
    call_csv.write_bytes("文件,申请人\r\nx-resubmission.docx,王小明\r\ny-proposal.docx,Li Hua\r\n"
                         "z-proposal.docx,Zhang Wei\r\n".encode("gb18030"))
    return archive, call, collection_csv, call_csv
