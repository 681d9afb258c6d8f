"""A call to screen: an archive of earlier proposals and a folder of new ones, some copied.

Built from the shared development corpus (real text; ``$NEARDUP_CORPUS`` or
``<project root>/../shared/corpus``): every proposal is a title and three sections under the
form's headings (立项依据 / 研究内容 / 研究方案 in Chinese; Background / Aims / Methods in
English), each section one corpus section. The sections are split, deterministically, between
the archive (indexed as the collection) and the call; planted in the call:

- ``partial``: one section replaced by a section of an archive proposal (about a third copied);
- ``mosaic``: each of the three sections from a different archive proposal, lightly trimmed;
- ``resubmission``: an archive proposal again, with its title changed and a section replaced;
- ``within``: one section copied from another proposal of the same call (found only when the
  submissions are checked against each other).

Written as docx (python-docx), txt and, with LibreOffice, some pdf. ``planted.json`` says which
file copies what. Usage: ``python benchmarks/callcorpus.py --out DIR [--no-pdf]``;
then ``neardup index DIR/archive --db F`` and ``neardup screen DIR/call --db F``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

HEADINGS = {"zh": ("立项依据", "研究内容", "研究方案"), "en": ("Background", "Aims", "Methods")}
FORM_TITLE = {"zh": "项目名称", "en": "Project title"}


def corpus_root() -> Path:
    root = Path(os.environ.get("NEARDUP_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"))
    if not (root / "debian-reference-en").is_dir():
        raise SystemExit(f"development corpus not found at {root} (set NEARDUP_CORPUS)")
    return root


def sections(lang: str) -> list[str]:
    folder = corpus_root() / ("debian-reference-zh-cn" if lang == "zh" else "debian-reference-en")
    return [p.read_text(encoding="utf-8").strip() for p in sorted(folder.glob("*.txt"))]


def proposal(lang: str, title: str, parts: list[str]) -> list[tuple[str, str]]:
    """(kind, text) paragraphs: title, the form's title field, then each heading and its section."""
    out = [("title", title), ("heading", FORM_TITLE[lang]), ("body", title)]
    for heading, body in zip(HEADINGS[lang], parts):
        out.append(("heading", heading))
        out.extend(("body", p) for p in body.split("\n") if p.strip())
    return out


def write(paras: list[tuple[str, str]], path: Path) -> None:
    if path.suffix == ".txt":
        path.write_text("\n".join(t for _, t in paras) + "\n", encoding="utf-8")
        return
    from docx import Document

    doc = Document()
    for kind, text in paras:
        if kind == "title":
            doc.add_heading(text, level=0)
        elif kind == "heading":
            doc.add_heading(text, level=1)
        else:
            doc.add_paragraph(text)
    doc.save(str(path))


def to_pdf(docx_files: list[Path]) -> None:
    """Convert with LibreOffice, in one run (each docx replaced by its pdf)."""
    if not docx_files or shutil.which("soffice") is None:
        return
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pdf",
                        "--outdir", str(docx_files[0].parent), *map(str, docx_files)],
                       check=True, capture_output=True, timeout=600)
    for f in docx_files:
        if f.with_suffix(".pdf").exists():
            f.unlink()


def trim(text: str, keep: float, rng: random.Random) -> str:
    paras = [p for p in text.split("\n") if p.strip()]
    n = max(1, int(len(paras) * keep))
    start = rng.randrange(0, len(paras) - n + 1)
    return "\n".join(paras[start:start + n])


def build(out: Path, *, pdf: bool = True, seed: int = 19) -> dict:
    rng = random.Random(seed)
    archive_dir, call_dir = out / "archive", out / "call"
    for d in (archive_dir, call_dir):
        d.mkdir(parents=True, exist_ok=True)
    planted: dict[str, dict] = {}
    archive: dict[str, list[tuple[str, list[str]]]] = {}
    call: dict[str, list[tuple[str, list[str]]]] = {}
    counts = {"zh": (12, 24), "en": (26, 44)}  # (archive, call) proposals per language
    for lang, (n_archive, n_call) in counts.items():
        pool = sections(lang)
        rng.shuffle(pool)
        need = 3 * (n_archive + n_call)
        assert len(pool) >= need, (lang, len(pool), need)
        chunks = [pool[i:i + 3] for i in range(0, need, 3)]
        archive[lang] = [(f"{lang}-archive-{i + 1:02d}", c) for i, c in enumerate(chunks[:n_archive])]
        call[lang] = [(f"{lang}-{i + 1:02d}", list(c)) for i, c in enumerate(chunks[n_archive:])]
        sources = list(range(n_archive))
        rng.shuffle(sources)
        plan = ["partial", "partial", "partial", "mosaic", "resubmission", "within"] if lang == "zh" else \
            ["partial"] * 5 + ["mosaic"] * 3 + ["resubmission"] * 2 + ["within"] * 2
        for k, kind in enumerate(plan):
            name, parts = call[lang][k]
            if kind == "partial":
                src = archive[lang][sources.pop()]
                parts[2] = src[1][rng.randrange(3)]
                planted[name] = {"kind": kind, "sources": [src[0]]}
            elif kind == "mosaic":
                srcs = [archive[lang][sources.pop()] for _ in range(3)]
                call[lang][k] = (name, [trim(s[1][i], 0.7, rng) for i, s in enumerate(srcs)])
                planted[name] = {"kind": kind, "sources": [s[0] for s in srcs]}
            elif kind == "resubmission":
                src = archive[lang][sources.pop()]
                call[lang][k] = (name, [src[1][0], src[1][1], parts[2]])
                planted[name] = {"kind": kind, "sources": [src[0]]}
            else:  # within the call: a section of a clean proposal further down
                other = call[lang][len(call[lang]) - 1 - k]
                parts[1] = other[1][0]
                planted[name] = {"kind": kind, "sources": [other[0]]}
    to_convert: list[Path] = []
    for folder, groups in ((archive_dir, archive), (call_dir, call)):
        for lang, items in groups.items():
            for i, (name, parts) in enumerate(items):
                title = parts[0].split("\n", 1)[0][:60]
                ext = ".txt" if i % 5 == 4 else ".docx"
                path = folder / f"{name}{ext}"
                write(proposal(lang, title, parts), path)
                if pdf and ext == ".docx" and i % 4 == 1:
                    to_convert.append(path)
    to_convert_by_dir: dict[Path, list[Path]] = {}
    for p in to_convert:
        to_convert_by_dir.setdefault(p.parent, []).append(p)
    for files in to_convert_by_dir.values():
        to_pdf(files)
    (out / "planted.json").write_text(json.dumps(planted, ensure_ascii=False, indent=1), encoding="utf-8")
    return planted


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--no-pdf", action="store_true")
    args = ap.parse_args()
    planted = build(args.out, pdf=not args.no_pdf)
    n_call = len(list((args.out / "call").iterdir()))
    n_archive = len(list((args.out / "archive").iterdir()))
    print(f"{n_archive} archive proposals, {n_call} in the call, {len(planted)} planted copies → {args.out}")


if __name__ == "__main__":
    main()
