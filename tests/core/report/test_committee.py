"""The committee's reports of a screening: first page, sections, numbered sources, coloured full text."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from neardup_gui.core.collection import Collection
from neardup_gui.core.report import write_report
from neardup_gui.core.report.committee import (
    build_screening_report, build_submission_report, committee_csv, committee_json, default_report_name,
)
from neardup_gui.core.report.committee_html import render_screening_html, render_submission_html
from neardup_gui.core.report.model import MATCH, TEMPLATE
from neardup_gui.core.report.strings import keys, translator
from neardup_gui.core.screening import screen_folder, submission_detail
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import Store
from tests.conftest import SAMPLE

# The call's two forms are given as template files, as an examiner gives them: each is in only
# 5 of the sample's 30 proposals, far below the automatic template rule (issue 14).
FORMS = tuple(str(SAMPLE.parent / "sample_src" / f"_form-{lang}.md") for lang in ("en", "zh"))
SETTINGS = Settings(workers=2, template_files=FORMS)
ZH4 = "zh-04-山区滑坡监测.txt"


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("rep") / "i.ndx"
    with Collection.open(path) as coll:
        screen_folder(coll, str(SAMPLE), SETTINGS, name="call 2026")
    return path


def test_every_report_string_has_both_languages() -> None:

    en, zh = translator("en"), translator("zh_CN")
    for k in keys():
        # every placeholder either language names, filled
        assert en(k, **_fill(k)) and zh(k, **_fill(k))
        assert en(k, **_fill(k)) != zh(k, **_fill(k)) or k in ("passage", "sha256", "r_a_in_b", "r_b_in_a"), k


def _fill(key: str) -> dict[str, str]:
    """A value for every placeholder of ``key`` in either language."""
    import string

    from neardup_gui.core.report.strings import _CATALOG

    return {f: "1" for text in _CATALOG[key] for _, f, _, _ in string.Formatter().parse(text) if f}


def test_chinese_first_page_uses_cnki_terms(db: Path) -> None:
    with Store(db) as store:
        r = build_submission_report(store, "call 2026", ZH4, SETTINGS, lang="zh_CN")
    html = render_submission_html(r)
    first_page = html[: html.index("全文标明引文")]
    for term in ("文本复制检测报告单", "送检文档", "检测时间", "总文字复制比", "去除引用文献复制比", "单篇最大文字复制比",
                 "重复字数", "分段检测结果", "相似文献列表"):
        assert term in first_page, term
    assert "Similarity report" not in html and 'lang="zh-Hans"' in html
    assert r.copied == pytest.approx(0.43, abs=0.05) and r.flagged
    # the section copied is named, with its share
    [hot] = [s for s in r.sections if s.share > 0.5]
    assert hot.title == "技术路线" and hot.largest_source == "zh-03-城市内涝预警.docx"
    assert r.copied_units == sum(s.copied for s in r.sections)


def test_english_report_and_its_full_text(db: Path) -> None:
    with Store(db) as store:
        r = build_submission_report(store, "call 2026", "en-04-hospital-surfaces.docx", SETTINGS, lang="en")
        detail = submission_detail(store, "call 2026", "en-04-hospital-surfaces.docx")
    html = render_submission_html(r)
    for term in ("Similarity report", "Copied", "Copied without quotations", "Largest single source", "Similarity by section",
                 "Similar documents", "Full text with matched passages", "Matched passages side by side",
                 "Appendix: settings and file identities", detail.row.sha256):
        assert term in html, term
    # the full text is the whole submission, and its coloured runs are exactly the source's passages
    assert "".join(s.text for s in r.full_text) == detail.text
    pos, coloured = 0, []
    for s in r.full_text:
        if s.kind == MATCH:
            assert s.match == 0  # source number 1
            coloured.append((pos, pos + len(s.text)))
        pos += len(s.text)
    spans = sorted(x.a for x in detail.sources[0].spans)
    assert sum(e - b for b, e in coloured) == sum(e - b for b, e in spans)
    assert "<sup>[1]</sup>" in html
    assert r.side_by_side and r.side_by_side[0].passages


def test_excluded_sources_are_listed_not_counted(db: Path, tmp_path: Path) -> None:
    with Store(db) as store:
        d = submission_detail(store, "call 2026", ZH4)
        r = build_submission_report(store, "call 2026", ZH4, SETTINGS, enabled=set())
    assert r.copied == 0.0 and r.sources[0].excluded and not r.side_by_side
    assert all(s.kind != MATCH for s in r.full_text)
    assert any(s.kind == TEMPLATE for s in r.full_text) == bool(d.template)


def test_screening_report_ranks_and_csv(db: Path) -> None:
    with Store(db) as store:
        r = build_screening_report(store, "call 2026", SETTINGS, lang="zh_CN")
    html = render_screening_html(r)
    assert "批量检测报告：call 2026" in html and "共检测 30 份申请书；8 份达到或超过标记线（30.0%）" in html
    rows = list(csv.DictReader(io.StringIO(committee_csv(r))))
    assert len(rows) == 30 and [int(x["rank"]) for x in rows] == list(range(1, 31))
    assert sum(int(x["flagged"]) for x in rows) == 8
    ratios = [float(x["copied_ratio"]) for x in rows]
    assert ratios == sorted(ratios, reverse=True)
    data = committee_json(r)
    assert data["schema"] == "neardup-committee-report/1" and data["kind"] == "screening"
    assert sum(x["flagged"] for x in data["rows"]) == 8


def test_submission_csv_has_the_overall_ratio_on_each_source_row(db: Path, tmp_path: Path) -> None:
    with Store(db) as store:
        r = build_submission_report(store, "call 2026", ZH4, SETTINGS)
    out = tmp_path / "r.csv"
    write_report(r, out)
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert len(rows) == len(r.sources) >= 1
    assert float(rows[0]["copied_ratio"]) == pytest.approx(r.copied, abs=1e-6)
    assert rows[0]["source"] == "zh-03-城市内涝预警.docx" and rows[0]["found_in"] == "submission"
    out = tmp_path / "r.json"
    write_report(r, out)
    assert json.loads(out.read_text(encoding="utf-8"))["document"]["name"] == ZH4


def test_default_report_names(db: Path) -> None:
    with Store(db) as store:
        r = build_submission_report(store, "call 2026", ZH4, SETTINGS, lang="zh_CN")
        s = build_screening_report(store, "call 2026", SETTINGS)
    assert default_report_name(r, "pdf") == f"zh-04-山区滑坡监测 - 相似性检测报告 {r.created[:10]}.pdf"
    assert default_report_name(s, "html") == f"call 2026 - screening report {s.created[:10]}.html"


def test_cli_report_of_a_screening_in_chinese(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    run = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "report", "--db", str(db), "--screening", "call 2026",
                          "--submission", ZH4, "--lang", "zh_CN", "--out", str(out), "-q"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "总文字复制比" in out.read_text(encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "neardup_gui.cli", "report", "--db", str(db), "--screening", "nope",
                          "--out", str(out), "-q"], capture_output=True, text=True)
    assert run.returncode == 2 and "no screening named 'nope'" in run.stderr


def test_a_checked_submission_gets_the_same_committee_report(tmp_path: Path) -> None:
    from neardup_gui.core.report.committee import build_check_report

    with Collection.open(tmp_path / "c.ndx") as coll:
        coll.index_folder(str(SAMPLE), SETTINGS)
        [result] = coll.check([str(SAMPLE / ZH4)], SETTINGS)
        r = build_check_report(coll, result, SETTINGS, lang="zh_CN")
    html = render_submission_html(r)
    assert "文献库 30 篇文档" in html and "检测批次" not in html
    assert r.sources[0].document.name == "zh-03-城市内涝预警.docx" and r.sources[0].kind == "collection"
    assert r.copied == pytest.approx(result.summary.copied_ratio_without_template)
    assert [s.title for s in r.sections if s.share > 0.5] == ["技术路线"]
    assert r.side_by_side and r.side_by_side[0].passages


def test_an_edited_copy_is_one_passage_per_copied_section_in_both_shades(tmp_path: Path, corpus_dir: Path) -> None:
    """(issue 15.2) A real section with 20 % of its words replaced: the side-by-side quotes each
    edited passage once, identical runs in the source's colour and the edits lighter."""
    from report_corpus import edited_copy_collection

    from neardup_gui.core.report.committee import build_check_report
    from neardup_gui.core.report.html import LIGHT_PALETTE, PALETTE

    submission = edited_copy_collection(tmp_path, corpus_dir)
    settings = Settings(workers=1, threshold=0.05)
    with Collection.open(tmp_path / "c.ndx") as coll:
        coll.index_folder(str(tmp_path / "collection"), settings)
        [result] = coll.check([str(submission)], settings)
        r = build_check_report(coll, result, settings, lang="en")
    comp = result.matches[0].comparison
    assert comp.passages and len(comp.spans) > 2 * len(comp.passages)
    assert len(r.side_by_side[0].passages) == len(comp.passages)
    html = render_submission_html(r)
    side = html[html.index("Matched passages side by side"):]
    rows = side.split('<tr class="passage">')[1:]
    assert len(rows) == len(comp.passages)
    assert all('class="m0"' in row and 'class="e0"' in row for row in rows)
    assert "edited words" in side
    qt = render_submission_html(r, flavour="qt")
    assert f"background-color:{LIGHT_PALETTE[0]}" in qt and f"background-color:{PALETTE[0]}" in qt


def test_a_chinese_report_uses_chinese_punctuation(db: Path) -> None:
    """No half-width colon after Chinese words ("标记: 已标记：" mixed both), the flag said once."""
    import re

    with Store(db) as store:
        r = build_submission_report(store, "call 2026", ZH4, SETTINGS, lang="zh_CN")
        screening = build_screening_report(store, "call 2026", SETTINGS, lang="zh_CN")
    for page in (render_submission_html(r, flavour="qt"), render_screening_html(screening, flavour="qt")):
        text = re.sub(r"<[^>]+>", "", page)
        assert not re.search(r"[\u4e00-\u9fff）][:;] ?", text), re.search(r".{12}[\u4e00-\u9fff）][:;].{12}", text)
    assert "已标记：总文字复制比达到或超过标记线" in render_submission_html(r)
    assert "标记:" not in render_submission_html(r)
