"""Build the bundled sample collection (resources/sample/) from the proposal texts beside this file.

Each ``zh-NN-*.md`` / ``en-NN-*.md`` is one short funding proposal: ``# `` starts the title,
``## `` a section heading, any other non-blank line is a paragraph. The members of the
application-form group (``FORM_MEMBERS``) hold only a title, a ``## 摘要``/``## Summary`` and a
``## 正文``/``## Body`` part; they are poured into ``_form-zh.md`` / ``_form-en.md`` at
``{{TITLE}}``, ``{{SUMMARY}}`` and ``{{BODY}}``, so that all of them carry the same headings,
instructions and declarations.

Formats (``LAYOUT``): ``docx`` written by python-docx, ``lo-docx`` converted from HTML by
LibreOffice, ``pdf`` converted from a python-docx file by LibreOffice (one batched call), and
``txt`` as UTF-8. Run ``python resources/sample_src/build_sample.py`` to rebuild the folder
(EXPECTED.md there is written by hand and left alone); ``--report`` prints the exact
similarities of the planted pairs (benchmarks/groundtruth.py).
"""

from __future__ import annotations

import argparse
import html
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT = ROOT / "resources" / "sample"

# stem -> format
LAYOUT: dict[str, str] = {
    "zh-01-水稻抗旱基因": "docx",
    "zh-02-水稻干旱响应调控": "pdf",
    "zh-03-城市内涝预警": "lo-docx",
    "zh-04-山区滑坡监测": "txt",
    "zh-05-社区高血压管理": "docx",
    "zh-06-古籍文字识别": "pdf",
    "zh-07-锂电池热失控": "txt",
    "zh-08-湿地鸟类迁徙": "lo-docx",
    "zh-09-中小学数学焦虑": "pdf",
    "zh-10-茶叶品质光谱检测": "docx",
    "zh-11-方言语音识别": "pdf",
    "zh-12-桥梁健康监测": "txt",
    "zh-13-农村互助养老": "lo-docx",
    "zh-14-海洋微塑料": "pdf",
    "zh-15-中药材重金属": "docx",
    "en-01-coastal-erosion": "docx",
    "en-02-shoreline-retreat": "pdf",
    "en-03-wastewater-resistance": "pdf",
    "en-04-hospital-surfaces": "lo-docx",
    "en-05-dementia-speech": "txt",
    "en-06-bridge-cables": "docx",
    "en-07-pollinator-decline": "pdf",
    "en-08-rural-broadband": "lo-docx",
    "en-09-perovskite-stability": "docx",
    "en-10-glacier-hydrology": "txt",
    "en-11-sign-language": "pdf",
    "en-12-child-literacy": "docx",
    "en-13-battery-recycling": "pdf",
    "en-14-medieval-manuscripts": "lo-docx",
    "en-15-coral-acoustics": "txt",
}

FORM_MEMBERS = {
    "zh": ("zh-05-社区高血压管理", "zh-06-古籍文字识别", "zh-07-锂电池热失控",
           "zh-08-湿地鸟类迁徙", "zh-09-中小学数学焦虑"),
    "en": ("en-05-dementia-speech", "en-06-bridge-cables", "en-07-pollinator-decline",
           "en-08-rural-broadband", "en-09-perovskite-stability"),
}

# (a, b, kind): what EXPECTED.md lists; a copies from / resubmits b
PLANTED: tuple[tuple[str, str, str], ...] = (
    ("zh-02-水稻干旱响应调控", "zh-01-水稻抗旱基因", "resubmission"),
    ("en-02-shoreline-retreat", "en-01-coastal-erosion", "resubmission"),
    ("zh-04-山区滑坡监测", "zh-03-城市内涝预警", "section-copy"),
    ("en-04-hospital-surfaces", "en-03-wastewater-resistance", "section-copy"),
)


@dataclass(frozen=True)
class SampleDoc:
    """One proposal of the collection: its file name, language, format and content."""

    stem: str
    lang: str
    fmt: str  # docx | lo-docx | pdf | txt
    blocks: tuple[tuple[str, str], ...]  # (kind, text), kind in title | heading | para

    @property
    def filename(self) -> str:
        return f"{self.stem}.{'txt' if self.fmt == 'txt' else 'pdf' if self.fmt == 'pdf' else 'docx'}"

    @property
    def text(self) -> str:
        """The plain text of the proposal, one block per line (what the txt file holds)."""
        return "\n".join(t for _, t in self.blocks) + "\n"


def parse_blocks(source: str) -> list[tuple[str, str]]:
    blocks = []
    for line in source.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("## "):
            blocks.append(("heading", line[3:].strip()))
        elif line.startswith("# "):
            blocks.append(("title", line[2:].strip()))
        else:
            blocks.append(("para", line))
    return blocks


def fill_form(lang: str, member_source: str) -> list[tuple[str, str]]:
    """The form of ``lang`` with the member's title, summary and body put in its places."""
    parts: dict[str, list[str]] = {"title": [], "summary": [], "body": []}
    current = "title"
    for kind, text in parse_blocks(member_source):
        if kind == "title":
            parts["title"].append(text)
        elif kind == "heading":
            current = "summary" if text in ("摘要", "Summary") else "body"
        else:
            parts[current].append(text)
    out: list[tuple[str, str]] = []
    for kind, text in parse_blocks((HERE / f"_form-{lang}.md").read_text(encoding="utf-8")):
        if text == "{{SUMMARY}}":
            out += [("para", p) for p in parts["summary"]]
        elif text == "{{BODY}}":
            out += [("para", p) for p in parts["body"]]
        else:
            out.append((kind, text.replace("{{TITLE}}", parts["title"][0])))
    return out


def documents() -> list[SampleDoc]:
    """Every proposal of the collection, in name order."""
    members = {s for group in FORM_MEMBERS.values() for s in group}
    docs = []
    for stem, fmt in sorted(LAYOUT.items()):
        lang = stem[:2]
        source = (HERE / f"{stem}.md").read_text(encoding="utf-8")
        blocks = fill_form(lang, source) if stem in members else parse_blocks(source)
        docs.append(SampleDoc(stem, lang, fmt, tuple(blocks)))
    return docs


def write_docx(doc: SampleDoc, path: Path) -> None:
    import docx

    document = docx.Document()
    for kind, text in doc.blocks:
        if kind == "title":
            document.add_heading(text, level=0)
        elif kind == "heading":
            document.add_heading(text, level=1)
        else:
            document.add_paragraph(text)
    document.save(str(path))


def write_html(doc: SampleDoc, path: Path) -> None:
    tags = {"title": "h1", "heading": "h2", "para": "p"}
    body = "\n".join(f"<{tags[k]}>{html.escape(t)}</{tags[k]}>" for k, t in doc.blocks)
    path.write_text(f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{html.escape(doc.stem)}'
                    f"</title></head><body>\n{body}\n</body></html>\n", encoding="utf-8")


def soffice(args: list[str], profile: Path) -> None:
    subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", *args],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)


def build(out: Path = OUT) -> list[Path]:
    """Write every proposal into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    docs = documents()
    with tempfile.TemporaryDirectory(prefix="sample-") as tmp:
        tmpdir = Path(tmp)
        profile = tmpdir / "lo-profile"
        to_pdf, to_docx = [], []
        for d in docs:
            if d.fmt == "txt":
                (out / d.filename).write_text(d.text, encoding="utf-8")
            elif d.fmt == "docx":
                write_docx(d, out / d.filename)
            elif d.fmt == "pdf":
                write_docx(d, tmpdir / f"{d.stem}.docx")
                to_pdf.append(str(tmpdir / f"{d.stem}.docx"))
            else:
                write_html(d, tmpdir / f"{d.stem}.html")
                to_docx.append(str(tmpdir / f"{d.stem}.html"))
        if to_pdf:
            soffice(["--convert-to", "pdf", "--outdir", str(out), *to_pdf], profile)
        if to_docx:
            soffice(["--convert-to", "docx:MS Word 2007 XML", "--outdir", str(out), *to_docx], profile)
    written = [out / d.filename for d in docs]
    missing = [p.name for p in written if not p.exists()]
    if missing:
        raise RuntimeError(f"not written: {missing}")
    return written


def report() -> None:
    """Exact similarities of the planted pairs and the form group (with and without the form)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import groundtruth as gt

    by_stem = {d.stem: d for d in documents()}
    for a, b, kind in PLANTED:
        t = gt.truth_of_texts(by_stem[a].text, by_stem[b].text)
        print(f"{kind:13} {a} ~ {b}: similarity {t.similarity:.3f}, "
              f"containment of {a[:5]} {t.containment_a:.3f}, of {b[:5]} {t.containment_b:.3f}")
    for lang, group in FORM_MEMBERS.items():
        sims = []
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                sims.append(gt.truth_of_texts(by_stem[a].text, by_stem[b].text).similarity)
        print(f"form group {lang}: similarity with the form {min(sims):.3f}–{max(sims):.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--report", action="store_true", help="print the planted pairs' similarities")
    args = parser.parse_args()
    if args.report:
        report()
        return 0
    for path in build(args.out):
        print(path.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
