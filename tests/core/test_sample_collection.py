"""The bundled sample collection: its files, languages, and the planted cases EXPECTED.md names.

Figures are measured independently of the product: text extracted with python-docx, pdftotext
and plain reads, and the exact brute-force truth of benchmarks/groundtruth.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from functools import cache
from itertools import combinations
from pathlib import Path

import docx
import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "resources" / "sample"
SAMPLE_SRC = ROOT / "resources" / "sample_src"
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(SAMPLE_SRC))

import build_sample  # noqa: E402
import groundtruth as gt  # noqa: E402

from neardup_gui.core.units import cjk_share, tokenize  # noqa: E402

DOCS = {d.stem: d for d in build_sample.documents()}


@cache
def extracted(name: str) -> str:
    path = SAMPLE / name
    if path.suffix == ".txt":
        return path.read_text(encoding="utf-8")
    if path.suffix == ".docx":
        return "\n".join(p.text for p in docx.Document(str(path)).paragraphs)
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], check=True,
                          capture_output=True, text=True, timeout=60).stdout


def files() -> list[Path]:
    return sorted(p for p in SAMPLE.iterdir() if p.suffix in (".docx", ".pdf", ".txt"))


def test_thirty_files_half_chinese_half_english_in_three_formats() -> None:
    paths = files()
    assert len(paths) == 30
    assert {p.name for p in paths} == {d.filename for d in DOCS.values()}
    langs = {p.name: ("zh" if cjk_share(extracted(p.name)) > 0.5 else "en") for p in paths}
    assert sum(v == "zh" for v in langs.values()) == 15
    assert all(langs[p.name] == p.name[:2] for p in paths)
    suffixes = [p.suffix for p in paths]
    assert (suffixes.count(".docx"), suffixes.count(".pdf"), suffixes.count(".txt")) == (14, 10, 6)
    sizes = sum(p.stat().st_size for p in SAMPLE.iterdir())
    assert sizes < 2_000_000


def test_docx_written_by_both_python_docx_and_libreoffice() -> None:
    apps = {}
    for p in files():
        if p.suffix == ".docx":
            app = zipfile.ZipFile(p).read("docProps/app.xml").decode()
            apps[p.name] = "LibreOffice" in app
    by_libreoffice = {f"{s}.docx" for s, fmt in build_sample.LAYOUT.items() if fmt == "lo-docx"}
    assert len(by_libreoffice) == 6
    assert {name for name, lo in apps.items() if lo} == by_libreoffice
    assert sum(not lo for lo in apps.values()) == 8


def test_proposal_lengths() -> None:
    for d in DOCS.values():
        if d.lang == "zh":
            assert 540 <= len(re.findall(r"[\u4e00-\u9fff]", d.text)) <= 1500, d.stem
        else:
            assert 250 <= len(tokenize(d.text)) <= 900, d.stem


def test_extracted_text_keeps_the_source_units() -> None:
    # txt and docx give back exactly the units written; pdf (line breaks, fonts) nearly so
    for p in files():
        source = tokenize(DOCS[p.stem].text).tokens
        got = tokenize(extracted(p.name)).tokens
        if p.suffix == ".pdf":
            assert gt.truth_of_texts(DOCS[p.stem].text, extracted(p.name)).similarity > 0.97, p.name
        else:
            assert got == source, p.name


def test_expected_md_names_every_planted_pair_and_group() -> None:
    expected = (SAMPLE / "EXPECTED.md").read_text(encoding="utf-8")
    for a, b, _kind in build_sample.PLANTED:
        assert DOCS[a].filename in expected and DOCS[b].filename in expected
        assert (SAMPLE / DOCS[a].filename).exists() and (SAMPLE / DOCS[b].filename).exists()
    for group in build_sample.FORM_MEMBERS.values():
        assert len(group) >= 5
        for stem in group:
            assert DOCS[stem].filename in expected


def _truth(a: str, b: str) -> gt.Truth:
    return gt.truth_of_texts(extracted(DOCS[a].filename), extracted(DOCS[b].filename))


@pytest.mark.parametrize("a,b,kind", build_sample.PLANTED)
def test_planted_pairs_on_extracted_text(a: str, b: str, kind: str) -> None:
    t = _truth(a, b)
    if kind == "resubmission":
        assert a[:2] == b[:2] and DOCS[a].fmt != DOCS[b].fmt
        assert t.similarity >= 0.75
        assert t.containment_b >= 0.9  # almost all of the earlier version is kept
    else:
        assert t.containment_a >= 0.3
        assert t.similarity < 0.5


def _own_text(stem: str) -> str:
    source = (SAMPLE_SRC / f"{stem}.md").read_text(encoding="utf-8")
    return "\n".join(t for kind, t in build_sample.parse_blocks(source) if kind != "heading")


def test_template_group_high_with_form_and_zero_without() -> None:
    for lang, group in build_sample.FORM_MEMBERS.items():
        for a, b in combinations(group, 2):
            assert gt.truth_of_texts(DOCS[a].text, DOCS[b].text).similarity >= 0.5, (a, b)
            # pdf line breaks cut a few runs of the form
            assert _truth(a, b).similarity >= 0.45, (a, b)
            # without the form: only the member's own title, summary and body paragraphs
            assert gt.truth_of_texts(_own_text(a), _own_text(b)).common == 0, (a, b)


def test_unrelated_proposals_share_at_most_incidental_runs() -> None:
    planted = {frozenset((a, b)) for a, b, _ in build_sample.PLANTED}
    members = {frozenset(p) for g in build_sample.FORM_MEMBERS.values() for p in combinations(g, 2)}
    stems = sorted(DOCS)
    truths = gt.all_pairs([tokenize(DOCS[s].text).ids for s in stems])
    others = {frozenset((stems[i], stems[j])): t for (i, j), t in truths.items()}
    assert planted | members <= set(others)
    for pair, t in others.items():
        if pair not in planted | members:
            assert t.similarity < 0.02, sorted(pair)
