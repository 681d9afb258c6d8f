"""The duplicate report on a real collection: model, HTML, CSV and JSON, escaping of hostile input."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from dataclasses import fields
from html.parser import HTMLParser
from pathlib import Path

import pytest

from neardup_gui.core.collection import Collection
from neardup_gui.core.report import build_report, format_for, write_report
from neardup_gui.core.report.csv import neutralise, render_csv
from neardup_gui.core.report.html import CSP, ELEMENTS, PALETTE, render_html
from neardup_gui.core.report.jsonout import SCHEMA, report_json
from neardup_gui.core.report.model import ELIDED, MATCH, PLAIN, TEMPLATE, quote, segments
from neardup_gui.core.settings import ExtractLimits, FingerprintParams, Settings
from report_corpus import EVIL_CONTENT, EVIL_REL, FORM_LINE, FORMULA_REL, SETTINGS, shared_collection

ROOT = Path(__file__).resolve().parents[3]
SCHEMA_FILE = ROOT / "docs" / "report-schema.json"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory, corpus_dir):
    planted, db = shared_collection(tmp_path_factory, corpus_dir)
    coll = Collection.open(db, create=False)
    yield planted, coll
    coll.close()


@pytest.fixture(scope="module")
def reports(indexed):
    planted, coll = indexed
    results = coll.check([str(planted.submission)], SETTINGS)
    return {
        "pairs": build_report(coll, "pairs", SETTINGS),
        "clusters": build_report(coll, "clusters", SETTINGS),
        "check": build_report(coll, "check", SETTINGS, items=results),
    }


# --- the model ----------------------------------------------------------------------------------


def test_segments_mark_matches_over_template_and_keep_colours():
    text = "0123456789abcdefghij"
    segs = segments(text, (2, 18), spans=[(4, 8), (12, 14)], template=[(6, 13)], excluded=[(16, 20)])
    assert [(s.text, s.kind, s.match) for s in segs] == [
        ("23", PLAIN, -1), ("4567", MATCH, 0), ("89ab", TEMPLATE, -1), ("cd", MATCH, 1),
        ("ef", PLAIN, -1), ("gh", "excluded", -1),
    ]
    assert "".join(s.text for s in segs) == text[2:18]


def test_long_passage_is_elided_in_the_middle_and_says_so():
    text = "intro " + " ".join(f"w{i}" for i in range(1000)) + " outro"
    span = (6, len(text) - 6)
    segs = quote(text, span, [span], [], [], context=10, max_chars=400)
    kinds = [s.kind for s in segs]
    assert ELIDED in kinds and kinds.count(ELIDED) == 1
    gap = next(s for s in segs if s.kind == ELIDED)
    shown = sum(len(s.text) for s in segs if s.kind == MATCH)
    assert shown <= 400 and int(gap.text.split()[1]) == (span[1] - span[0]) - shown
    assert segs[0].text == "intro " and segs[-1].text == " outro"  # context, cut at word boundaries
    assert all(not s.text.startswith(("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")) for s in segs if s.kind == MATCH)


def test_pairs_report_holds_the_planted_pairs_with_their_passages(indexed, reports):
    planted, coll = indexed
    report = reports["pairs"]
    names = {frozenset((p.a.name, p.b.name)): p for p in report.pairs}
    for a, b in ((planted.en_original, planted.en_resubmission), (planted.zh_original, planted.zh_resubmission)):
        p = names[frozenset((a, b))]
        assert 0.8 < p.similarity < 1.0
        docs = {d.rel: d for d in coll.documents()}
        text_a, text_b = coll.document_text(docs[p.a.name].doc_id), coll.document_text(docs[p.b.name].doc_id)
        comp = coll.compare(docs[p.a.name].doc_id, docs[p.b.name].doc_id, SETTINGS)
        # a light edit: many exact runs, merged into few passages (one entry per copied section)
        assert len(comp.spans) > 5 and len(p.passages) == len(comp.passages) < len(comp.spans)
        assert p.common_units == comp.common_units and p.similarity == pytest.approx(comp.similarity)
        for passage, whole in zip(p.passages, comp.passages):
            # the passage's own colour covers exactly its runs on both sides, the edits between them
            # the lighter shade (a long passage by its beginning and end)
            for side, text, pick in (("a", text_a, lambda r: r.a), ("b", text_b, lambda r: r.b)):
                own = "".join(s.text if s.kind == MATCH else "\0" for s in getattr(passage, side)
                              if (s.kind == MATCH and s.match == passage.index) or s.kind == ELIDED)
                runs = "".join(text[pick(r)[0]:pick(r)[1]] for r in whole.runs)
                head, _, tail = own.partition("\0")
                assert runs.startswith(head) and runs.endswith(tail) and (own == runs or "\0" in own)
            assert passage.units == whole.matched_units == sum(r.units for r in whole.runs)
        assert p.a.sha256 == docs[p.a.name].sha256 and p.a.size == docs[p.a.name].size
    zh = names[frozenset((planted.zh_original, planted.zh_resubmission))]
    assert all(ps.cjk_a and ps.cjk_b for ps in zh.passages)
    # the ranked order is by similarity, best first
    sims = [p.similarity for p in report.pairs]
    assert sims == sorted(sims, reverse=True) and [p.rank for p in report.pairs] == list(range(1, len(sims) + 1))
    assert report.summary.counts["pairs"] == len(report.pairs) >= 4
    assert report.summary.counts["documents"] == 10
    assert report.summary.index_size > 0 and report.summary.collection_folder == str(planted.root)


def test_check_report_names_the_submission_by_its_own_bytes(indexed, reports):
    planted, _ = indexed
    report = reports["check"]
    [sub] = report.submissions
    data = planted.submission.read_bytes()
    assert sub.document.sha256 == hashlib.sha256(data).hexdigest() and sub.document.size == len(data)
    assert sub.document.submission and report.pairs
    top = report.pairs[0]
    assert top.a == sub.document and top.containment_a > 0.4
    # the form line is template in the submission: quoted muted where it touches a passage's context
    template = [s.text.strip() for p in report.pairs for ps in p.passages for s in ps.a if s.kind == TEMPLATE]
    assert template and all(t in FORM_LINE for t in template)
    assert top.template_share_a > 0


def test_clusters_report_pairs_each_member_with_its_representative(reports):
    report = reports["clusters"]
    assert report.clusters
    reps = {c.members[0].path for c in report.clusters}
    for p in report.pairs:
        assert p.a.path in reps and p.group.startswith("cluster ")
    assert len(report.pairs) == sum(len(c.members) - 1 for c in report.clusters)


def test_check_scope_needs_results_and_unknown_scope_is_refused(indexed):
    _, coll = indexed
    with pytest.raises(ValueError):
        build_report(coll, "check", SETTINGS)
    with pytest.raises(ValueError):
        build_report(coll, "everything", SETTINGS)
    assert format_for("r.HTM") == "html" and format_for("r.pdf") == "pdf"
    with pytest.raises(ValueError):
        format_for("r.docx")


# --- HTML ---------------------------------------------------------------------------------------


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.data: list[str] = []
        self.style = ""
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(attrs)
        self._in_style = tag == "style"

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.style += data
        else:
            self.data.append(data)


@pytest.mark.parametrize("scope", ["pairs", "clusters", "check"])
def test_html_is_self_contained_and_nothing_from_a_document_becomes_markup(indexed, reports, scope):
    page = render_html(reports[scope])
    parser = _Elements()
    parser.feed(page)
    parser.close()
    assert set(parser.tags) <= ELEMENTS
    assert "script" not in parser.tags
    names = {name.lower() for name, _ in parser.attrs}
    assert not any(n.startswith("on") for n in names)  # no onload= or any other handler
    assert names <= {"lang", "charset", "http-equiv", "content", "name", "class", "id", "href", "colspan",
                     "rowspan", "style"}
    assert ("http-equiv", "Content-Security-Policy") in parser.attrs and ("content", CSP) in parser.attrs
    # nothing is loaded from anywhere: links only jump inside the page
    assert all(v.startswith("#") for k, v in parser.attrs if k == "href")
    assert "url(" not in parser.style and "@import" not in parser.style
    text = "".join(parser.data)
    if scope == "check":
        assert str(indexed[0].submission) in text  # its path holds <script>alert(1)</script>
    else:
        assert EVIL_CONTENT in text  # the hostile text is shown, as text
        assert EVIL_REL in text and FORMULA_REL in text
    assert "Noto Sans CJK SC" in parser.style and "@media print" in parser.style
    for i, colour in enumerate(PALETTE):
        assert f".m{i} {{ background: {colour};" in parser.style


def test_html_states_every_setting_and_the_summary(reports):
    report = reports["pairs"]
    page = render_html(report)
    for cls, prefix in ((Settings, ""), (FingerprintParams, "fingerprints."), (ExtractLimits, "limits.")):
        for f in fields(cls):
            if f.name in ("limits", "fingerprints"):
                continue
            assert f">{prefix}{f.name}<" in page, f.name
    s = report.summary
    for value in (s.created, s.app_version, s.index_path, s.collection_folder, f"{s.index_size:,} bytes"):
        assert value in page
    p = report.pairs[0]
    assert p.a.sha256 in page and p.b.sha256 in page and f'id="pair-{p.rank}"' in page
    # passage i is painted colour i on both sides, its edits in the lighter shade of it
    assert page.count('<span class="m0">') >= 2 + 1 and page.count('<span class="e0">') >= 2


def test_qt_flavour_uses_inline_styles_only(reports):
    page = render_html(reports["pairs"], flavour="qt")
    parser = _Elements()
    parser.feed(page)
    assert set(parser.tags) <= ELEMENTS and "class" not in {k for k, _ in parser.attrs}
    assert f"background-color:{PALETTE[0]}" in page


# --- CSV ----------------------------------------------------------------------------------------


def test_neutralise_formulas():
    assert neutralise('=HYPERLINK("http://x","y")') == '\'=HYPERLINK("http://x","y")'
    for bad in ("+1", "-2+3", "@SUM(A1)", "\tx", "\rx", "  =1+1"):
        assert neutralise(bad).startswith("'")
    for good in ("0.873", "ch01.txt", "/tmp/=x.txt", "重新提交.txt", ""):
        assert neutralise(good) == good


@pytest.mark.parametrize("scope", ["pairs", "check"])
def test_csv_has_bom_one_row_per_pair_and_no_live_formula(reports, tmp_path, scope):
    report = reports[scope]
    out = tmp_path / "r.csv"
    write_report(report, out)
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    header, body = rows[0], rows[1:]
    assert len(body) == len(report.pairs)
    for row in body:
        assert len(row) == len(header)
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    if scope == "pairs":
        names = {c for row in body for c in row}
        assert "'" + FORMULA_REL in names and EVIL_REL in names
        top = body[0]
        assert float(top[header.index("similarity")]) == pytest.approx(report.pairs[0].similarity, abs=1e-6)
        assert "重新提交.txt" in raw.decode("utf-8-sig") or "副本" in raw.decode("utf-8-sig")


# --- JSON ---------------------------------------------------------------------------------------


def _validate(value, schema, root, where="$"):
    """A small JSON Schema check: the keywords docs/report-schema.json uses."""
    if "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        _validate(value, root["$defs"][name], root, where)
    types = schema.get("type")
    if types:
        kinds = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
        ok = False
        for t in (types if isinstance(types, list) else [types]):
            if t == "integer":
                ok |= isinstance(value, int) and not isinstance(value, bool)
            elif t == "number":
                ok |= isinstance(value, (int, float)) and not isinstance(value, bool)
            else:
                ok |= isinstance(value, kinds[t])
        assert ok, f"{where}: {value!r} is not {types}"
    if "const" in schema:
        assert value == schema["const"], where
    if "enum" in schema:
        assert value in schema["enum"], where
    if "minimum" in schema:
        assert value >= schema["minimum"], where
    if "maximum" in schema:
        assert value <= schema["maximum"] + 1e-12, where
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            assert key in value, f"{where}: {key} missing"
        props = schema.get("properties", {})
        if schema.get("additionalProperties") is False:
            assert set(value) <= set(props), f"{where}: unexpected {set(value) - set(props)}"
        for key, sub in props.items():
            if key in value:
                _validate(value[key], sub, root, f"{where}.{key}")
    if isinstance(value, list):
        assert len(value) >= schema.get("minItems", 0) and len(value) <= schema.get("maxItems", 1 << 30), where
        if "items" in schema:
            for i, item in enumerate(value):
                _validate(item, schema["items"], root, f"{where}[{i}]")


@pytest.mark.parametrize("scope", ["pairs", "clusters", "check"])
def test_json_follows_the_documented_schema(reports, tmp_path, scope):
    out = tmp_path / "r.json"
    write_report(reports[scope], out)
    data = json.loads(out.read_text(encoding="utf-8"))
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert data["schema"] == SCHEMA == schema["properties"]["schema"]["const"]
    _validate(data, schema, schema)
    assert data == json.loads(json.dumps(report_json(reports[scope]), ensure_ascii=False))
    assert len(data["pairs"]) == data["summary"]["counts"]["pairs"]
    # every setting is there, nested as in Settings
    assert set(data["summary"]["settings"]["fingerprints"]) == {f.name for f in fields(FingerprintParams)}
    assert set(data["summary"]["settings"]) == {f.name for f in fields(Settings)}


def test_the_validator_rejects_what_the_schema_forbids(reports):
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    data = report_json(reports["pairs"])
    data = json.loads(json.dumps(data))
    data["pairs"][0]["similarity"] = 1.5
    with pytest.raises(AssertionError):
        _validate(data, schema, schema)
    data = json.loads(json.dumps(report_json(reports["pairs"])))
    del data["summary"]["settings"]["min_run"]
    with pytest.raises(AssertionError):
        _validate(data, schema, schema)


def test_a_failed_write_leaves_no_partial_file(reports, tmp_path):
    target = tmp_path / "taken.html"
    target.mkdir()  # the name is taken by a folder: the final rename fails
    with pytest.raises(OSError):
        write_report(reports["pairs"], target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken.html"]
    with pytest.raises(ValueError):
        write_report(reports["pairs"], tmp_path / "r.pdf")  # PDF is written by the Qt side


def test_two_reports_written_to_one_name_at_once_do_not_write_into_each_other(reports, tmp_path):
    """An export started twice to one file (found by random actions on the window): both wrote
    "….json.part", and the second rename failed. Each writer now has a file of its own, and
    another's unfinished file is left alone."""
    import threading

    target = tmp_path / "twice.json"
    theirs = tmp_path / "twice.json.part"  # (another writer's file under the old, shared name)
    theirs.write_text("half a report", encoding="utf-8")
    write_report(reports["pairs"], target)
    assert theirs.read_text(encoding="utf-8") == "half a report"
    assert json.loads(target.read_text(encoding="utf-8"))["pairs"]

    failures: list[BaseException] = []
    start = threading.Barrier(4)

    def write() -> None:
        start.wait()
        try:
            for _ in range(5):
                write_report(reports["pairs"], target)
        except BaseException as exc:  # noqa: BLE001
            failures.append(exc)

    writers = [threading.Thread(target=write) for _ in range(4)]
    for w in writers:
        w.start()
    for w in writers:
        w.join()
    assert failures == []
    assert json.loads(target.read_text(encoding="utf-8"))["pairs"]  # whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["twice.json", "twice.json.part"]


def test_passages_quote_each_span_once_with_the_changed_text_between_as_context():
    from neardup_gui.core.report.model import passages
    from neardup_gui.core.results import Comparison, MatchSpan

    words = [f"w{i}" for i in range(3000)]
    text_a = " ".join(words)
    edited = list(words)
    for i in range(50, len(edited), 50):
        edited[i] = "CHANGED"
    text_b = " ".join(edited)
    # spans: the runs between the changed words, same offsets on both sides up to the word lengths
    spans = []
    starts_a = [text_a.index(f" w{i} ") + 1 if i else 0 for i in range(0, 3000, 50)]
    for k, start in enumerate(starts_a):
        first = k * 50 + (1 if k else 0)
        last = min(k * 50 + 49, 2999)
        a = (text_a.index(f"w{first}", start), text_a.index(f"w{last}", start) + len(f"w{last}"))
        b_start = text_b.index(f" w{first} ") + 1 if first else 0
        b = (b_start, b_start + (a[1] - a[0]))
        spans.append(MatchSpan(a, b, last - first + 1))
    comp = Comparison(0.9, 0.9, 0.9, 2940, 3000, 3000, tuple(spans))
    quoted = passages(text_a, text_b, comp, context=40)
    assert len(quoted) == len(spans) == 60
    for p, s in zip(quoted, spans):
        assert "".join(seg.text for seg in p.a if seg.kind == MATCH) == text_a[s.a[0]:s.a[1]]
        assert "".join(seg.text for seg in p.b if seg.kind == MATCH) == text_b[s.b[0]:s.b[1]]
        assert {seg.match for seg in p.a if seg.kind == MATCH} == {p.index}  # neighbours are not quoted
        context_b = "".join(seg.text for seg in p.b if seg.kind == PLAIN)
        assert context_b.strip() in ("", "CHANGED") or context_b.split() == ["CHANGED", "CHANGED"]


# --- issue 15.2: edited passages ----------------------------------------------------------------


@pytest.fixture(scope="module")
def edited_check(tmp_path_factory, corpus_dir):
    """A real section copied with 20 % of its words replaced, checked against a small collection."""
    from report_corpus import edited_copy_collection

    root = tmp_path_factory.mktemp("edited")
    submission = edited_copy_collection(root, corpus_dir)
    settings = Settings(workers=1, threshold=0.05)  # a 20 % edited copy keeps far less than half in exact runs
    with Collection.open(root / "c.ndx") as coll:
        coll.index_folder(str(root / "collection"), settings)
        results = coll.check([str(submission)], settings)
        yield results, build_report(coll, "check", settings, items=results)


def test_an_edited_copy_is_reported_as_passages_with_both_shades(edited_check):
    from neardup_gui.core.report.html import LIGHT_PALETTE
    from neardup_gui.core.report.model import EDITED

    results, report = edited_check
    comp = results[0].matches[0].comparison
    assert comp.passages and len(comp.spans) > 2 * len(comp.passages)  # runs merged into passages
    pair = report.pairs[0]
    assert len(pair.passages) == len(comp.passages)  # one entry per copied section, not per run
    for quoted, p in zip(pair.passages, comp.passages):
        assert quoted.span_a == tuple(p.a) and quoted.units_a == p.units_a and len(quoted.runs) == len(p.runs)
        # the whole passage, edits included, is shown (a long one by its beginning and end)
        whole = results[0].text[p.a[0]:p.a[1]]
        shown = "".join(seg.text if seg.kind in (MATCH, EDITED) else "\0" for seg in quoted.a
                        if seg.kind in (MATCH, EDITED, ELIDED))
        head, _, tail = shown.partition("\0")
        assert whole.startswith(head) and whole.endswith(tail) and len(head) > 100
        assert "\0" in shown or shown == whole
    page = render_html(report)
    article = page[page.index('id="pair-1"'):]
    rows = article.split('<tr id="passage-')[1:]
    assert len(rows) == len(comp.passages)
    for i, row in enumerate(rows):
        colour = i % len(PALETTE)
        assert f'class="m{colour}"' in row and f'class="e{colour}"' in row, i  # identical and edited words
    assert f".e0 {{ background: {LIGHT_PALETTE[0]};" in page
    assert "edited words" in page and "A in B and B in A are counted over these passages" in page
    qt = render_html(report, flavour="qt")
    assert f"background-color:{LIGHT_PALETTE[0]}" in qt and f"background-color:{PALETTE[0]}" in qt
    data = report_json(report)["pairs"][0]["passages"][0]
    assert {"units_a", "units_b", "matched_units", "runs"} <= set(data) and data["runs"]


def test_a_record_without_passages_falls_back_to_exact_runs(edited_check):
    from dataclasses import replace

    from neardup_gui.core.report.model import EDITED, passages

    results, _ = edited_check
    comp = replace(results[0].matches[0].comparison, passages=())
    quoted = passages(results[0].text, "x" * 10**6, comp)
    assert len(quoted) == len(comp.spans)
    assert not any(seg.kind == EDITED for p in quoted for seg in p.a)


# --- issue 17.3: documents indexed with warnings ------------------------------------------------


def test_documents_read_with_warnings_are_marked_and_counted(tmp_path, corpus_dir):
    """A real Chinese section whose file lost its last byte is indexed with a warning; the same
    damaged file is checked: every format names the warning and the summary counts it."""
    texts = sorted((corpus_dir / "debian-reference-zh-cn").glob("*.txt"))
    sized = [p for p in texts if 3000 < p.stat().st_size < 9000]
    folder = tmp_path / "collection"
    folder.mkdir()
    damaged = sized[0].read_text(encoding="utf-8").encode("utf-8").rstrip()[:-1]  # a Chinese character cut
    assert damaged[-1] >= 0x80
    (folder / "damaged.txt").write_bytes(damaged)
    for p in sized[1:4]:
        (folder / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    submission = tmp_path / "submitted.txt"
    submission.write_bytes(damaged)
    settings = Settings(workers=1, threshold=0.5)
    with Collection.open(tmp_path / "c.ndx") as coll:
        coll.index_folder(str(folder), settings)
        results = coll.check([str(submission)], settings)
        report = build_report(coll, "check", settings, items=results)
    assert results[0].warnings and results[0].matches[0].source.warnings
    assert report.summary.counts["with_warnings"] == 1
    pair = report.pairs[0]
    warning = pair.b.warnings[0]
    assert "not valid UTF-8" in warning and pair.a.warnings == results[0].warnings
    for flavour in ("browser", "qt"):
        page = render_html(report, flavour=flavour)
        assert "(4 indexed, 1 with warnings, 0 skipped)" in page
        assert page.count("⚠") >= 4  # ranking (both names), submissions table, file table
        assert f"</span> {warning}" in page
    rows = list(csv.DictReader(io.StringIO(render_csv(report))))
    assert rows[0]["warnings_source"] == warning and rows[0]["warnings_submission"] == "; ".join(results[0].warnings)
    data = report_json(report)
    assert data["summary"]["counts"]["with_warnings"] == 1 and list(data["pairs"][0]["b"]["warnings"]) == [warning]


# --- issues 18.6 / 19.5: the reports in the interface language ----------------------------------


@pytest.mark.parametrize("scope", ["pairs", "check", "clusters"])
def test_reports_in_chinese_have_chinese_headings_and_no_english_label_left(indexed, scope):
    import re

    from neardup_gui.core.report.strings import _CATALOG

    planted, coll = indexed
    items = coll.check([str(planted.submission)], SETTINGS) if scope == "check" else None
    report = build_report(coll, scope, SETTINGS, items=items, lang="zh_CN")
    assert report.lang == "zh_CN" and report.summary.title == _CATALOG[f"r_title_{scope}"][1]
    for flavour in ("browser", "qt"):
        page = render_html(report, flavour=flavour)
        for heading in ("概要", "检测设置", "未计入的内容", "匹配片段"):
            assert f">{heading}</h2>" in page, (flavour, heading)
        assert "文献库文档数" in page and "已索引" in page
        # every label of the catalog used by these reports: none left in English as a whole element
        # or label (documents' own text, quoted inside the passages, may be English)
        labels = [en for key, (en, zh) in _CATALOG.items() if "{" not in en and en != zh and len(en) > 2]
        shown = set(re.findall(r">([^<>]+?):?\s*<", page))
        left = sorted(en for en in labels if en in shown or en.strip() in shown)
        assert not left, (flavour, left)
    english = render_html(build_report(coll, scope, SETTINGS, items=items))
    assert ">Summary</h2>" in english and "概要" not in english


@pytest.mark.parametrize("scope", ["pairs", "check"])
def test_csv_in_chinese_has_chinese_headings_and_the_same_rows(indexed, scope):
    from dataclasses import replace

    from neardup_gui.core.report.csv import CHECK_COLUMNS, HEADINGS_ZH, PAIR_COLUMNS

    planted, coll = indexed
    items = coll.check([str(planted.submission)], SETTINGS) if scope == "check" else None
    report = build_report(coll, scope, SETTINGS, items=items)
    columns = CHECK_COLUMNS if scope == "check" else PAIR_COLUMNS
    assert set(columns) <= set(HEADINGS_ZH)
    en = list(csv.reader(io.StringIO(render_csv(report))))
    zh = list(csv.reader(io.StringIO(render_csv(replace(report, lang="zh_CN")))))
    assert en[0] == list(columns) and zh[0] == [HEADINGS_ZH[c] for c in columns]
    assert "相似度 r" in zh[0] and len(set(zh[0])) == len(zh[0])
    assert en[1:] == zh[1:]


def test_a_moved_paragraph_is_reported_where_it_lies_in_each_text(tmp_path, corpus_dir):
    """A real section whose first half was moved after its second: the report quotes every passage
    from both texts, the moved one from its own place in the source and said to be moved, in HTML
    (both flavours) and JSON."""
    texts = sorted((corpus_dir / "debian-reference-en").glob("*.txt"))
    source = next(p for p in texts if 8000 < p.stat().st_size < 20000).read_text(encoding="utf-8")
    paragraphs = [p for p in source.split("\n") if p.strip()]
    half = len(paragraphs) // 2
    (tmp_path / "collection").mkdir()
    (tmp_path / "collection" / "source.txt").write_text(source, encoding="utf-8")
    submission = tmp_path / "reordered.txt"
    submission.write_text("\n".join(paragraphs[half:] + paragraphs[:half]), encoding="utf-8")
    settings = Settings(workers=1, threshold=0.05)
    with Collection.open(tmp_path / "c.ndx") as coll:
        coll.index_folder(str(tmp_path / "collection"), settings)
        results = coll.check([str(submission)], settings)
        report = build_report(coll, "check", settings, items=results)
        from neardup_gui.core.report.committee import build_check_report
        from neardup_gui.core.report.committee_html import render_submission_html

        committee = render_submission_html(build_check_report(coll, results[0], settings))
    comp = results[0].matches[0].comparison
    moved = [i for i, p in enumerate(comp.passages) if p.moved]
    assert moved and len(moved) < len(comp.passages)
    quoted = report.pairs[0].passages
    assert [q.moved for q in quoted] == [p.moved for p in comp.passages]
    for q, p in zip(quoted, comp.passages):
        assert (q.span_a, q.span_b) == (tuple(p.a), tuple(p.b))
    for page in (render_html(report), render_html(report, flavour="qt")):
        rows = page[page.index('id="pair-1"'):].split('<tr id="passage-')[1:]
        assert [("moved: in another order" in row) for row in rows] == [p.moved for p in comp.passages]
    rows = committee[committee.index('class="passages"'):].split('<tr class="passage"')[1:]
    assert [("moved: in another order" in row) for row in rows] == [p.moved for p in comp.passages]
    data = report_json(report)["pairs"][0]["passages"]
    assert [d["moved"] for d in data] == [p.moved for p in comp.passages]


def test_a_fingerprint_estimate_below_zero_reads_zero(reports):
    """The b-bit MinHash estimate is corrected for chance collisions, so it can fall below 0 for a
    source sharing little (a heavy revision's: -0.031); the report shows it as 0, an estimate."""
    from dataclasses import replace

    report = reports["check"]
    assert report.pairs
    low = replace(report, pairs=tuple(replace(p, estimate=-0.031) for p in report.pairs))
    page = render_html(low)
    assert "-0.031" not in page and "0.000 (an estimate)" in page
