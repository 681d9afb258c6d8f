"""A small real collection for the report tests: Chinese and English texts, planted copies, hostile names.

Shared by tests/core/report/test_report.py, tests/cli/test_report_cli.py and tests/app/test_export.py.
The hostile file names need folders: a name cannot hold "/", so ``<script>alert(1)</script>`` and
``</td>`` are spread over nested folders and the document's path relative to the collection reads
exactly ``<script>alert(1)</script></td> "onload=alert(1) copy.txt``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from neardup_gui.core.settings import Settings

SETTINGS = Settings(workers=2, threshold=0.5)

EVIL_REL = '<script>alert(1)</script></td> "onload=alert(1) copy.txt'
FORMULA_REL = '=HYPERLINK("x","y") 副本.txt'
EVIL_CONTENT = '<script>alert(1)</script> </td> "onload=alert(1) =HYPERLINK("http://x","y")'
# The fund's form: a line in at least template_min_docs (5) documents is template text.
FORM_LINE = "Application form of the research fund office: part two, the proposal text as submitted for review."


@dataclass(frozen=True)
class Planted:
    root: Path  # the collection folder
    submission: Path  # a file outside the folder, checked against it (hostile name and content)
    en_original: str  # rel of the English original and its light-edit resubmission
    en_resubmission: str
    zh_original: str
    zh_resubmission: str


def _light_edit(text: str, every: int, cjk: bool) -> str:
    if cjk:
        chars = list(text)
        for i in range(40, len(chars), every):
            if not chars[i].isspace():
                chars[i] = "改"
        return "".join(chars)
    words = text.split(" ")
    for i in range(30, len(words), every):
        words[i] = "REVISED"
    return "A revised proposal\n" + " ".join(words)


def make_collection(base: Path, corpus_dir: Path, n_en: int = 3, n_zh: int = 3) -> Planted:
    en = sorted((corpus_dir / "debian-reference-en").glob("*.txt"))
    zh = sorted((corpus_dir / "debian-reference-zh-cn").glob("*.txt"))
    pick_en = [p for p in en if 2500 < p.stat().st_size < 5000][:n_en]
    pick_zh = [p for p in zh if 2500 < p.stat().st_size < 5000][:n_zh]
    root = base / "submissions"
    root.mkdir(parents=True)
    texts: dict[str, str] = {}
    for p in pick_en:
        texts[f"{p.stem}-en.txt"] = p.read_text(encoding="utf-8")
    for p in pick_zh:
        texts[f"{p.stem}-zh.txt"] = p.read_text(encoding="utf-8")
    names = list(texts)
    en_original, zh_original = names[0], names[n_en]
    texts["resubmitted.txt"] = _light_edit(texts[en_original], 45, cjk=False)
    texts["重新提交.txt"] = _light_edit(texts[zh_original], 90, cjk=True)
    # partial copies under hostile names, with hostile text around the copied part
    src_en, src_zh = texts[names[1]], texts[names[n_en + 1]]
    texts[EVIL_REL] = EVIL_CONTENT + "\n" + src_en[: len(src_en) * 3 // 4] + "\n" + EVIL_CONTENT
    texts[FORMULA_REL] = "前言 " + EVIL_CONTENT + "\n" + src_zh[: len(src_zh) * 3 // 4]
    for i, name in enumerate(sorted(texts)):
        if i % 2 == 0:  # the form line in 5 of the 10 documents: template
            texts[name] = FORM_LINE + "\n" + texts[name]
    for name, text in texts.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    outside = base / "checked" / "<script>alert(1)<" / 'script> "onload=alert(1) =HYPERLINK(x).txt'
    outside.parent.mkdir(parents=True)
    src = texts[names[2]]
    outside.write_text(EVIL_CONTENT + "\n" + src[: len(src) // 2] + "\n" + FORM_LINE + "\n" + EVIL_CONTENT, encoding="utf-8")
    return Planted(root, outside, en_original, "resubmitted.txt", zh_original, "重新提交.txt")


def shared_collection(tmp_path_factory, corpus_dir: Path) -> tuple[Planted, Path]:
    """The planted collection, indexed once per test session and reused by every report test module.

    It lives in the session's temporary folder; a marker written after indexing tells later
    modules that the index is complete (the report tests only read it).
    """
    from neardup_gui.core.collection import Collection

    base = tmp_path_factory.getbasetemp() / "report-collection"
    db = base / "c.ndx"
    done = base / "indexed"
    if not done.exists():
        if base.exists():
            import shutil

            shutil.rmtree(base)
        base.mkdir()
        planted = make_collection(base, corpus_dir)
        with Collection.open(db) as coll:
            report = coll.index_folder(str(planted.root), SETTINGS)
            assert not report.skipped
        done.write_text("yes", encoding="utf-8")
    # the planted names are fixed by make_collection's choice of corpus files
    return _planted_in(base, corpus_dir), db


def _planted_in(base: Path, corpus_dir: Path) -> Planted:
    en = sorted((corpus_dir / "debian-reference-en").glob("*.txt"))
    zh = sorted((corpus_dir / "debian-reference-zh-cn").glob("*.txt"))
    en_original = f"{[p for p in en if 2500 < p.stat().st_size < 5000][0].stem}-en.txt"
    zh_original = f"{[p for p in zh if 2500 < p.stat().st_size < 5000][0].stem}-zh.txt"
    outside = base / "checked" / "<script>alert(1)<" / 'script> "onload=alert(1) =HYPERLINK(x).txt'
    return Planted(base / "submissions", outside, en_original, "resubmitted.txt", zh_original, "重新提交.txt")


def edited_copy_collection(root: Path, corpus_dir: Path, rate: float = 0.2) -> Path:
    """(issue 15.2) A small collection of real English sections and, beside it, a submission that
    is one of them with ``rate`` of its words replaced by words of other sections (seeded): the
    copied-then-edited section a report must show as one passage per copied stretch.

    Returns the submission's path; the collection is the folder ``root / "collection"``."""
    import random
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import obfuscate as ob

    texts = sorted((corpus_dir / "debian-reference-en").glob("*.txt"))
    sized = [p for p in texts if 8000 < p.stat().st_size < 20000]
    coll = root / "collection"
    coll.mkdir(parents=True)
    for p in {sized[0], *texts[:4]}:
        (coll / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    vocab = ob.english_vocab([p.read_text(encoding="utf-8") for p in texts[-20:]])
    source = sized[0].read_text(encoding="utf-8")
    submission = root / "edited-copy.txt"
    submission.write_text(ob.obfuscate(source, "en", rate, vocab, random.Random(15)), encoding="utf-8")
    return submission
