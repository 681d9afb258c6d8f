"""Sections of a submission: found at the form's headings, each with its exact copied share."""

from __future__ import annotations

import pytest

from neardup_gui.core.collection import Collection
from neardup_gui.core.screening import screen_folder, source_passage_spans, submission_detail
from neardup_gui.core.sections import find_sections, heading_kind, section_figures
from neardup_gui.core.settings import Settings
from neardup_gui.core.units import tokenize
from tests.conftest import SAMPLE


@pytest.mark.parametrize("line, kind", [
    ("立项依据", "known"), ("一、立项依据", "known"), ("（二）研究内容：", "known"), ("3. Methods", "known"),
    ("References", "known"), ("Aims and objectives", "known"), ("第三章 研究方案与可行性", "known"), ("第三章 野外观测", "numbered"),
    ("2.1 Sampling design", "numbered"), ("1. Collect the samples every week.", ""),
    ("本项目拟研究城市内涝。", ""), ("Methods are described below in detail for each work package", ""),
    ("", ""),
])
def test_heading_kind(line: str, kind: str) -> None:
    assert heading_kind(line) == kind


def test_a_short_template_paragraph_is_a_heading_of_the_form() -> None:
    assert heading_kind("Part 3: Case for support", is_template=True) == "template"
    assert heading_kind("Part 3: Case for support") == ""
    assert heading_kind("V:0, I:10", is_template=True) == ""  # a table's recurring cell names nothing
    # a form's long instruction is template but no heading
    assert heading_kind("Please describe the case for support in no more than two pages and attach it",
                        is_template=True) == ""


def test_sections_cover_the_text_in_order() -> None:
    text = "标题\n立项依据\n背景一段。\n研究内容\n内容一段。\n内容二段。\n参考文献\n[1] 某文献."
    secs = find_sections(text)
    assert [s.title for s in secs] == ["", "立项依据", "研究内容", "参考文献"]
    assert secs[0].span[0] == 0 and secs[-1].span[1] == len(text)
    assert all(a.span[1] == b.span[0] for a, b in zip(secs, secs[1:]))


def test_a_heading_without_a_body_joins_the_next() -> None:
    secs = find_sections("Part 3\nBackground\nText of it.\nMethods\nMore text.", template=[(0, 6)])
    assert [s.title for s in secs] == ["Part 3 / Background", "Methods"]


def test_section_figures_are_exact_unit_counts() -> None:
    text = "Background\none two three four five\nMethods\nsix seven eight nine ten"
    units = tokenize(text)
    secs = find_sections(text)
    m = text.index("six")
    figs = section_figures(units, secs, [("src.docx", [(m, m + len("six seven eight"))])])
    assert [(f.section.title, f.units, f.copied, f.largest_source) for f in figs] == [
        ("Background", 6, 0, ""), ("Methods", 6, 3, "src.docx")]
    assert figs[1].share == pytest.approx(0.5)


def test_the_copied_methods_section_of_the_sample_is_found(tmp_path) -> None:
    """zh-04 copies zh-03's whole 技术路线 section; en-04 copies en-03's Methods."""
    with Collection.open(tmp_path / "i.ndx") as coll:
        forms = tuple(str(SAMPLE.parent / "sample_src" / f"_form-{lang}.md") for lang in ("zh", "en"))
        screen_folder(coll, str(SAMPLE), Settings(workers=2, template_files=forms), name="s")
        for rel, heading in (("zh-04-山区滑坡监测.txt", "技术路线"), ("en-04-hospital-surfaces.docx", "Methods")):
            d = submission_detail(coll.store, "s", rel)
            figs = section_figures(d.units, find_sections(d.text, d.template),
                                   [(s.name, source_passage_spans(s)) for s in d.sources], d.template, d.excluded)
            worst = max(figs, key=lambda f: f.share)
            assert worst.section.title == heading
            assert worst.share > 0.75
            # (a short section may hold one shared phrase of the minimum run: zh-04's 预期成果 holds
            # "一份；发表论文三篇", 8 of its 62 units, also in zh-12)
            assert all(f.share < 0.15 for f in figs if f is not worst)
