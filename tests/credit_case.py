"""A call to screen where applicants copied one indexed original and one of them (tests of credit)."""

from __future__ import annotations

import random
from pathlib import Path

from docx import Document as DocxDocument

from tests.corpus import corpus_dir
from neardup_gui.core.collection import Collection
from neardup_gui.core.screening import screen_folder
from neardup_gui.core.settings import Settings

SETTINGS = Settings(auto_template=False, workers=1)


def _docx(path: Path, paragraphs: list[str]) -> None:
    d = DocxDocument()
    for p in paragraphs:
        d.add_paragraph(p)
    d.save(str(path))


def _paragraphs(name: str) -> list[str]:
    text = (corpus_dir() / "debian-reference-en" / name).read_text(encoding="utf-8")
    return [p for p in text.split("\n") if len(p.split()) >= 12]


def credit_call(root: Path, settings: Settings = SETTINGS) -> tuple[Path, Path]:
    """An archive (the original and four other documents) indexed, and a call screened as "call":
    applicants 1–3 copied the original (light edits) with a short section of their own each,
    applicant 4 copied applicant 1's own section and one paragraph of the original, applicant 5
    wrote their own. Returns (the index, the call's folder)."""
    files = sorted((corpus_dir() / "debian-reference-en").glob("*.txt"))
    texts = [_paragraphs(f.name) for f in files]
    texts = [t for t in texts if sum(len(p.split()) for p in t) > 250]
    original = texts[0] + texts[1] + texts[2]
    own = [t[:4] for t in texts[3:8]]  # each applicant's own section, shorter than the original
    archive, folder = root / "archive", root / "call"
    archive.mkdir()
    folder.mkdir()
    _docx(archive / "original.docx", original)
    for k, t in enumerate(texts[10:14]):
        _docx(archive / f"other-{k}.docx", t)
    rng = random.Random(3)
    for k in (1, 2, 3):
        edited = [" ".join(w if rng.random() > 0.03 else "changed" for w in p.split()) for p in original]
        _docx(folder / f"applicant-{k}.docx", edited + own[k - 1])
    _docx(folder / "applicant-4.docx", own[0] + original[:1] + own[3])  # the first applicant's own section
    _docx(folder / "applicant-5.docx", own[4])
    db = root / "index.ndx"
    with Collection.open(db) as coll:
        coll.index_folder(str(archive), settings)
        screen_folder(coll, str(folder), settings, name="call")
    return db, folder
