"""The report as one self-contained HTML file: summary, ranked table, passages side by side.

No external resource, no script, a Content-Security-Policy that forbids both; every string taken
from a document (text, file names, paths) goes through :func:`esc`, so a file named
``<script>…`` stays text. The same template has a ``"qt"`` flavour for Qt's rich-text engine
(which renders the PDF): it understands inline ``style`` attributes, tables and page breaks but
not class selectors, ``@media`` or ``white-space: pre-wrap`` in table cells, so there every class
becomes its inline style and line breaks become ``<br>``.
"""

from __future__ import annotations

import html as _html
import logging
from typing import Any, Callable

from neardup_gui.core.report.model import (
    EDITED, ELIDED, EXCLUDED, MATCH, TEMPLATE, DocRef, Passage, Report, ReportPair, Segment, flat_settings,
)

log = logging.getLogger(__name__)

# The diff view's palette (neardup_gui.app.diffview.PALETTE; a test keeps them equal): light
# backgrounds that stay readable under black text; match i has colour i on both sides.
PALETTE = ("#ffd8a8", "#b2f2bb", "#a5d8ff", "#fcc2d7", "#ffec99", "#d0bfff", "#99e9f2", "#e9fac8")


def lighter(colour: str, keep: float = 0.4) -> str:
    """``colour`` mixed with white, ``keep`` of it left: the edited words of a passage (issue 15.2)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(255 - (255 - c) * keep):02x}" for c in (r, g, b))


# Passage i's edited words: the same hue as its identical runs, lighter, so a copied-then-edited
# section reads as one entry and the changed words still stand out.
LIGHT_PALETTE = tuple(lighter(c) for c in PALETTE)
MUTED_FOREGROUND = "#8c8c8c"
MUTED_BACKGROUND = "#f1f1f1"

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
FONT_FAMILY = ('"Noto Sans", "DejaVu Sans", "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", '
               '"Hiragino Sans GB", "Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif')
MONO_FAMILY = '"DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace'

# The elements the template emits; the escaping tests check a report holds no other.
ELEMENTS = frozenset({
    "html", "head", "meta", "title", "style", "body", "header", "section", "article", "footer", "div",
    "h1", "h2", "h3", "p", "table", "colgroup", "col", "thead", "tbody", "tr", "th", "td", "span", "a",
    "code", "br",
})

EXPLANATION = (
    "Similarity is the share of the two texts' countable units in common matched passages (longest common "
    "subsequence over runs of at least the minimum length); containment is the share of one text found in "
    "the other. Template and excluded text is shown grey and never counted."
)

SETTING_LABELS = {
    "threshold": "similarity reported at or above",
    "min_run": "minimum units in a matched passage",
    "strategy": "candidate search strategy",
    "template_min_docs": "template: sentence in at least this many documents",
    "template_min_share": "template: and at least this share of the collection",
    "template_files": "template files",
    "exclude_quotes": "quoted text excluded",
    "exclude_bibliography": "bibliography excluded",
    "workers": "extraction processes",
}

_BASE_CSS = f"""
@page {{ size: A4; margin: 14mm 12mm 16mm 12mm; }}
html {{ -webkit-print-color-adjust: exact; print-color-adjust: exact; }}
body {{ font-family: {FONT_FAMILY}; font-size: 10.5pt; line-height: 1.45; color: #1b1b1b;
       background: #ffffff; margin: 24px auto; max-width: 1180px; padding: 0 16px; }}
h1 {{ font-size: 19pt; margin: 0 0 4px 0; }}
h2 {{ font-size: 14pt; margin: 26px 0 8px 0; border-bottom: 2px solid #d0d4d9; padding-bottom: 3px; }}
h3 {{ font-size: 11.5pt; margin: 16px 0 6px 0; }}
p {{ margin: 4px 0; }}
a {{ color: #1c5fb8; text-decoration: none; }}
code {{ font-family: {MONO_FAMILY}; font-size: 8.5pt; overflow-wrap: anywhere; }}
table {{ border-collapse: collapse; width: 100%; margin: 6px 0 10px 0; }}
th, td {{ border: 1px solid #d0d4d9; padding: 4px 6px; vertical-align: top; text-align: left; }}
td {{ overflow-wrap: anywhere; }}
thead th {{ overflow-wrap: normal; }}
thead th {{ background: #eef1f4; }}
.lead {{ color: #555; }}
.kv th {{ width: 32%; background: #f6f7f8; font-weight: 600; }}
.settings {{ font-size: 9pt; }}
.settings th {{ width: 30%; font-weight: 600; }}
.settings td {{ width: 20%; }}
.settings .units {{ font-weight: 400; }}
.num {{ text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }}
.rank td.num:first-child {{ width: 2.5em; }}
.legend span {{ padding: 1px 6px; margin-right: 6px; }}
.pair {{ margin-top: 18px; }}
.pair h2 {{ break-after: avoid; page-break-after: avoid; }}
.group {{ color: #555; }}
.docs th:first-child {{ width: 7em; }}
.passages td.q {{ white-space: pre-wrap; width: 47%; font-size: 10pt; }}
.passages td.n {{ width: 4.5em; text-align: center; white-space: nowrap; }}
.swatch {{ display: inline-block; min-width: 1.6em; border-radius: 3px; font-weight: 700; }}
.units {{ display: block; color: #555; font-size: 8.5pt; }}
.tpl {{ color: {MUTED_FOREGROUND}; background: {MUTED_BACKGROUND}; }}
.exc {{ color: {MUTED_FOREGROUND}; background: {MUTED_BACKGROUND}; text-decoration: line-through; }}
.gap {{ color: #555; font-style: italic; background: #ffffff; }}
.none {{ color: #555; font-style: italic; }}
.details {{ break-before: page; page-break-before: always; }}
.nw {{ white-space: nowrap; }}
.warn {{ color: #b35c00; font-weight: 700; }}
footer {{ margin-top: 30px; color: #666; font-size: 9pt; border-top: 1px solid #d0d4d9; padding-top: 6px; }}
{"".join(f".m{i} {{ background: {c}; color: #000; }}" + chr(10) for i, c in enumerate(PALETTE))}
{"".join(f".e{i} {{ background: {c}; color: #000; }}" + chr(10) for i, c in enumerate(LIGHT_PALETTE))}
@media print {{
  body {{ margin: 0; max-width: none; padding: 0; font-size: 9.5pt; }}
  a {{ color: inherit; }}
  .pair {{ break-inside: auto; }}
}}
"""

# Inline styles standing in for the classes in Qt's rich-text engine.
_QT_STYLES = {
    "lead": "color:#555555;",
    "th": "text-align:left;",
    "doc": "",
    "kv": "",
    "rank": "",
    "num": "text-align:right;",
    "legend": "",
    "pair": "",
    "group": "color:#555555;",
    "docs": "",
    "passages": "",
    "q": "",
    "n": "text-align:center;",
    "swatch": "font-weight:bold;",
    "units": "color:#555555; font-size:8pt;",
    "tpl": f"color:{MUTED_FOREGROUND}; background-color:{MUTED_BACKGROUND};",
    "exc": f"color:{MUTED_FOREGROUND}; background-color:{MUTED_BACKGROUND}; text-decoration:line-through;",
    "gap": "color:#555555; font-style:italic;",
    "none": "color:#555555; font-style:italic;",
    "details": "page-break-before:always;",
    "nw": "white-space:nowrap;",
    "warn": "color:#b35c00; font-weight:bold;",
    **{f"m{i}": f"background-color:{c}; color:#000000;" for i, c in enumerate(PALETTE)},
    **{f"e{i}": f"background-color:{c}; color:#000000;" for i, c in enumerate(LIGHT_PALETTE)},
    "passage": "",
}


def esc(value: Any) -> str:
    """Text from a document or the file system, made inert in element content and attributes."""
    return _html.escape(str(value), quote=True)


def pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def size_text(n: int) -> str:
    if n < 0:
        return "unreadable"
    if n < 1024:
        return f"{n:,} bytes"
    value, unit = n / 1024.0, "KB"
    for bigger in ("MB", "GB"):
        if value < 1024:
            break
        value, unit = value / 1024.0, bigger
    return f"{n:,} bytes ({value:.1f} {unit})"


def setting_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) if value else "none"
    return str(value)


WARNING_MARK = "⚠"


def warned(w: "_Writer", d: DocRef) -> str:
    """The document's name, with a warning mark (its warnings as the tooltip) when it was indexed
    with warnings: read only in part or leniently, so its figures may miss some of its text."""
    name = esc(d.name)
    if not d.warnings:
        return name
    return f'{name} <span{w.attr("warn")} title="{esc("; ".join(d.warnings))}">{WARNING_MARK}</span>'


class _Writer:
    """Accumulates the document; ``attr(cls)`` gives a class (browser) or inline style (Qt)."""

    def __init__(self, flavour: str) -> None:
        if flavour not in ("browser", "qt"):
            raise ValueError(f"unknown HTML flavour {flavour!r}")
        self.qt = flavour == "qt"
        self.parts: list[str] = []

    def __call__(self, *chunks: str) -> None:
        self.parts.extend(chunks)

    def attr(self, *classes: str, extra_style: str = "") -> str:
        if self.qt:
            style = "".join(_QT_STYLES.get(c, "") for c in classes) + extra_style
            return f' style="{style}"' if style else ""
        cls = f' class="{" ".join(classes)}"' if classes else ""
        return cls + (f' style="{extra_style}"' if extra_style else "")

    def text(self, value: Any) -> str:
        """Escaped text; in Qt, line breaks as ``<br>`` (its table cells ignore pre-wrap)."""
        s = esc(value)
        if self.qt:
            s = s.replace("\r\n", "\n").replace("\n", "<br>")
        return s

    def table(self, *classes: str) -> str:
        if self.qt:
            return f'<table border="1" cellspacing="0" cellpadding="4" width="100%"{self.attr(*classes)}>'
        return f"<table{self.attr(*classes)}>"


def render_html(report: Report, *, flavour: str = "browser") -> str:
    """The whole report as an HTML document (``flavour``: ``"browser"`` or ``"qt"``)."""
    w = _Writer(flavour)
    s = report.summary
    w("<!DOCTYPE html>\n" if not w.qt else "", '<html lang="en">\n<head>\n<meta charset="utf-8">\n')
    if not w.qt:
        w(f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">\n',
          '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
          f'<meta name="generator" content="neardup {esc(s.app_version)}">\n')
    w(f"<title>{esc(s.title)}</title>\n")
    if not w.qt:
        w(f"<style>{_BASE_CSS}</style>\n")
    w("</head>\n<body>\n")
    _header(w, report)
    _summary(w, report)
    if report.submissions:
        _submissions(w, report)
    if report.clusters:
        _clusters(w, report)
    _ranking(w, report)
    if report.exclusions is not None:
        _exclusions(w, report)  # issue 14
    _settings(w, report)
    _details(w, report)
    note = f"neardup {esc(s.app_version)} · {esc(s.created)} · {esc(EXPLANATION)}"
    w(f"<p{w.attr('group')}>{note}</p>\n" if w.qt else f"<footer><p>{note}</p></footer>\n")
    w("</body>\n</html>\n")
    return "".join(w.parts)


def _header(w: _Writer, report: Report) -> None:
    s = report.summary
    tag = "div" if w.qt else "header"
    w(f"<{tag}><h1>{esc(s.title)}</h1>\n",
      f"<p{w.attr('lead')}>Created {esc(s.created)} by neardup {esc(s.app_version)}.</p></{tag}>\n")


def _kv(w: _Writer, rows: list[tuple[str, str]], *, code_values: bool = False) -> None:
    w(w.table("kv"), "<tbody>\n")
    for key, value in rows:
        shown = f"<code>{esc(value)}</code>" if code_values else esc(value)
        w(f"<tr><th{w.attr('th')}>{esc(key)}</th><td>{shown}</td></tr>\n")
    w("</tbody></table>\n")


def _summary(w: _Writer, report: Report) -> None:
    s = report.summary
    c = s.counts
    sec = "div" if w.qt else "section"
    w(f'<{sec} id="summary"><h2>Summary</h2>\n')
    scope_text = {"check": "submissions checked against the collection", "pairs": "near-duplicate pairs of the collection",
                  "clusters": "near-duplicate clusters of the collection"}[s.scope]
    _kv(w, [
        ("Report", scope_text),
        ("Created", s.created),
        ("Application", f"neardup {s.app_version}"),
        ("Collection folder", s.collection_folder or "(not recorded)"),
        ("Index file", s.index_path),
        ("Index size", size_text(s.index_size)),
        ("Documents in the collection", f"{c.get('documents', 0)} ({c.get('indexed', 0)} indexed, "
                                        f"{c.get('with_warnings', 0)} with warnings, {c.get('skipped', 0)} skipped)"),
        _scope_count(s.scope, c, s.settings),
        ("Pairs reported", str(c.get("pairs", 0))),
        ("Matched passages", str(c.get("passages", 0))),
    ])
    w(f"<p{w.attr('legend')}>Colours: ")
    for i in range(min(4, len(PALETTE))):
        w(f"<span{w.attr(f'm{i}')}>match {i + 1}</span> ")
    w(f"… each matched passage has the same colour on both sides; <span{w.attr('tpl')}>template text</span> "
      f"and <span{w.attr('exc')}>excluded text</span> are grey and never counted.</p>\n")
    w(f"<p{w.attr('legend')}>One entry is one copied section: <span{w.attr('m0')}>identical text</span> in its "
      f"colour, <span{w.attr('e0')}>edited words</span> between the identical runs in a lighter shade of the "
      f"same colour. Containment is counted over these passages, edits included; similarity and common "
      f"units over the identical runs only.</p>\n")
    w(f"</{sec}>\n")


def _settings(w: _Writer, report: Report) -> None:
    """Every setting, two to a row: name (with what it means) and value."""
    sec = "div" if w.qt else "section"
    w(f'<{sec} id="settings"><h2>Settings</h2>\n', w.table("kv", "settings"), "<tbody>\n")
    rows = flat_settings(report.summary.settings)
    half = (len(rows) + 1) // 2
    for left, right in zip(rows[:half], rows[half:] + [None] * (2 * half - len(rows))):
        cells = []
        for item in (left, right):
            if item is None:
                cells.append("<th></th><td></td>")
                continue
            name, value = item
            label = SETTING_LABELS.get(name, "")
            hint = f"{'<br>' if w.qt else ''}<span{w.attr('units')}>{esc(label)}</span>" if label else ""
            cells.append(f"<th{w.attr('th')}>{esc(name)}{hint}</th><td>{esc(setting_value(value))}</td>")
        w(f"<tr>{''.join(cells)}</tr>\n")
    w(f"</tbody></table></{sec}>\n")


def _scope_count(scope: str, counts: dict[str, int], settings: dict[str, Any]) -> tuple[str, str]:
    """The summary line that depends on the scope: submissions, clusters, or the threshold of pairs."""
    if scope == "check":
        return "Submissions checked", str(counts.get("submissions", 0))
    if scope == "clusters":
        return "Clusters", str(counts.get("clusters", 0))
    return "Similarity threshold", str(settings.get("threshold", ""))


def _submissions(w: _Writer, report: Report) -> None:
    sec = "div" if w.qt else "section"
    w(f'<{sec} id="submissions"><h2>Submissions</h2>\n', w.table("rank"),
      f"<thead><tr><th>Submission</th><th{w.attr('nw')}>Units</th><th{w.attr('nw')}>Copied</th><th>Copied without template</th>"
      f"<th>Copied without quotes</th><th>Largest source</th><th{w.attr('nw')}>Sources</th></tr></thead><tbody>\n")
    for sub in report.submissions:
        if sub.skipped_reason:
            w(f"<tr><td>{esc(sub.document.name)}</td><td colspan=\"6\">skipped: {esc(sub.skipped_reason)}</td></tr>\n")
            continue
        n = w.attr("num")
        w(f"<tr><td>{warned(w, sub.document)}</td><td{n}>{sub.units}</td><td{n}>{pct(sub.copied_ratio)}</td>"
          f"<td{n}>{pct(sub.copied_ratio_without_template)}</td><td{n}>{pct(sub.copied_ratio_without_quotes)}</td>"
          f"<td>{pct(sub.largest_source_ratio)} {esc(sub.largest_source)}</td><td{n}>{sub.sources}</td></tr>\n")
    w(f"</tbody></table></{sec}>\n")


def _clusters(w: _Writer, report: Report) -> None:
    sec = "div" if w.qt else "section"
    w(f'<{sec} id="clusters"><h2>Clusters</h2>\n', w.table("rank"),
      "<thead><tr><th>Cluster</th><th>Document</th><th>Similarity to the first</th></tr></thead><tbody>\n")
    for c in report.clusters:
        for i, (m, sim) in enumerate(zip(c.members, c.similarities)):
            head = f"<td rowspan=\"{len(c.members)}\"{w.attr('num')}>{c.number}</td>" if i == 0 else ""
            ring = " (a ring: every pair near-identical)" if i == 0 and c.ring else ""
            w(f"<tr>{head}<td>{warned(w, m)}{esc(ring)}</td><td{w.attr('num')}>{'representative' if i == 0 else pct(sim)}</td></tr>\n")
    w(f"</tbody></table></{sec}>\n")


def _exclusions(w: _Writer, report: Report) -> None:
    """(issue 14) What was not counted and why: the rules, units removed, the passages left out."""
    ex = report.exclusions
    r = ex.rules
    sec = "div" if w.qt else "section"
    w(f'<{sec} id="exclusions"><h2>What was not counted</h2>\n')
    auto = (f"on: a sentence in at least {r.get('automatic_min_frequency')} documents "
            f"({r.get('automatic_min_docs')} and {pct(r.get('automatic_min_share') or 0)} of the collection)"
            if r.get("automatic") else "off")
    units = ex.units
    _kv(w, [
        ("Template files", f"{len(r.get('template_files', []))} files, {units.get('template_files', 0)} units"),
        ("Passages you marked as template", f"{r.get('marked', 0)} marks, {units.get('marked', 0)} units"),
        ("Passages you chose to count", str(r.get("counted", 0))),
        ("Automatic template", f"{auto}; {units.get('automatic', 0)} units"),
        ("PDF page furniture", f"{units.get('furniture', 0)} units"),
        ("Quotations", f"{'excluded' if r.get('quotes') else 'counted'}; {units.get('quotes', 0)} units"),
        ("Bibliography", f"{'excluded' if r.get('bibliography') else 'counted'}; {units.get('bibliography', 0)} units"),
    ])
    if ex.passages:
        w(w.table("rank"), "<thead><tr><th>Passage left out</th><th>Documents</th><th>Why</th></tr></thead><tbody>\n")
        for p in ex.passages:
            text = " ".join(p.text.split())
            w(f"<tr><td>{esc(text[:300])}{'…' if len(text) > 300 else ''}</td><td{w.attr('num')}>{p.documents}</td>"
              f"<td>{esc(p.status)}</td></tr>\n")
        w("</tbody></table>\n")
    w(f"</{sec}>\n")


def _ranking(w: _Writer, report: Report) -> None:
    sec = "div" if w.qt else "section"
    check = report.summary.scope == "check"
    w(f'<{sec} id="ranking"><h2>{"Sources found, best first" if check else "Ranked pairs"}</h2>\n')
    if not report.pairs:
        w(f"<p{w.attr('none')}>Nothing to report: no pair reached the threshold.</p></{sec}>\n")
        return
    head_a, head_b = ("Submission", "Source") if check else ("Document A", "Document B")
    dw = ' width="15%"' if w.qt else ""

    def cw(percent: int) -> str:
        """A fixed column width in Qt's engine, so that a heading is never broken inside a word
        (it broke "Similarity" as "Similarit y" in the PDF when the document columns took the room)."""
        return f' width="{percent}%" style="white-space:nowrap;"' if w.qt else ""

    w(w.table("rank"),
      f"<thead><tr><th{cw(4)}>#</th><th{dw}>{head_a}</th><th{dw}>{head_b}</th><th{cw(12)}>Similarity</th>"
      f"<th{cw(9)}>A in B</th><th{cw(9)}>B in A</th><th{cw(10)}>Common units</th><th{cw(13)}>Template A / B</th>"
      f"<th{cw(13)}>Passages</th></tr></thead><tbody>\n")
    n = w.attr("num")
    for p in report.pairs:
        w(f'<tr><td{n}><a href="#pair-{p.rank}">{p.rank}</a></td><td>{warned(w, p.a)}</td><td>{warned(w, p.b)}</td>'
          f"<td{n}>{pct(p.similarity)}</td><td{n}>{pct(p.containment_a)}</td><td{n}>{pct(p.containment_b)}</td>"
          f"<td{n}>{p.common_units}</td><td{n}>{pct(p.template_share_a)} / {pct(p.template_share_b)}</td>"
          f"<td{n}>{len(p.passages)}</td></tr>\n")
    w(f"</tbody></table></{sec}>\n")


def _details(w: _Writer, report: Report) -> None:
    if not report.pairs:
        return
    sec = "div" if w.qt else "section"
    w(f'<{sec} id="passages"{w.attr("details")}><h2>Matched passages</h2>\n</{sec}>\n')
    for p in report.pairs:
        _pair(w, p, report.summary.scope == "check")


def _pair(w: _Writer, p: ReportPair, check: bool) -> None:
    art = "div" if w.qt else "article"
    w(f'<{art} id="pair-{p.rank}"{w.attr("pair")}>\n',
      f"<h3>{p.rank}. {esc(p.a.name)} ⟷ {esc(p.b.name)}</h3>\n")
    if p.group:
        w(f"<p{w.attr('group')}>{'Submission' if check else 'In'}: {esc(p.group)}</p>\n")
    w(f"<p>Similarity {pct(p.similarity)} (exact runs) · "
      f"A in B {pct(p.containment_a)} · B in A {pct(p.containment_b)} (over passages) · "
      f"{p.common_units} common units in exact runs of "
      f"{p.units_a} (A) and {p.units_b} (B) · template share A {pct(p.template_share_a)}, B {pct(p.template_share_b)}"
      + (f" · excluded A {pct(p.excluded_share_a)}, B {pct(p.excluded_share_b)}"
         if p.excluded_share_a or p.excluded_share_b else "")
      + (f" · fingerprint estimate {p.estimate:.3f} (an estimate)" if p.estimate is not None else "")
      + "</p>\n")
    _docs(w, p.a, p.b, check)
    if not p.passages:
        w(f"<p{w.attr('none')}>No matched passage of the minimum length.</p></{art}>\n")
        return
    label_a = "Submission" if check else "A"
    label_b = "Source" if check else "B"
    w(w.table("passages"))
    if not w.qt:
        w('<colgroup><col class="n"><col><col></colgroup>')
    nw = ' width="8%"' if w.qt else ""
    qw = ' width="46%"' if w.qt else ""
    w(f"<thead><tr><th{nw}>#</th><th{qw}>{label_a}: {esc(p.a.name)}</th><th{qw}>{label_b}: {esc(p.b.name)}</th></tr></thead><tbody>\n")
    for passage in p.passages:
        _passage(w, passage)
    w(f"</tbody></table></{art}>\n")


def _docs(w: _Writer, a: DocRef, b: DocRef, check: bool) -> None:
    w(w.table("docs"),
      f"<thead><tr><th></th><th>{'Submission' if check else 'A'}</th><th>{'Source' if check else 'B'}</th></tr></thead><tbody>\n")
    rows: list[tuple[str, Callable[[DocRef], str]]] = [
        ("File", lambda d: esc(d.name)),
        ("Path", lambda d: esc(d.path)),
        ("Size", lambda d: esc(size_text(d.size))),
        ("SHA-256", lambda d: f"<code>{esc(d.sha256) or 'unreadable'}</code>"),
        ("Units", lambda d: str(d.units)),
    ]
    if a.warnings or b.warnings:
        rows.append(("Warnings", lambda d: (f"<span{w.attr('warn')}>{WARNING_MARK}</span> " + esc("; ".join(d.warnings)))
                     if d.warnings else "none"))
    for label, cell in rows:
        w(f"<tr><th{w.attr('th')}>{label}</th><td>{cell(a)}</td><td>{cell(b)}</td></tr>\n")
    w("</tbody></table>\n")


def _segments(w: _Writer, segs: tuple[Segment, ...]) -> str:
    out = []
    for seg in segs:
        text = w.text(seg.text)
        if seg.kind == MATCH:
            out.append(f"<span{w.attr(f'm{seg.match % len(PALETTE)}')}>{text}</span>")
        elif seg.kind == EDITED:
            out.append(f"<span{w.attr(f'e{seg.match % len(PALETTE)}')}>{text}</span>")
        elif seg.kind == TEMPLATE:
            out.append(f"<span{w.attr('tpl')}>{text}</span>")
        elif seg.kind == EXCLUDED:
            out.append(f"<span{w.attr('exc')}>{text}</span>")
        elif seg.kind == ELIDED:
            out.append(f"<span{w.attr('gap')}>{text}</span>")
        else:
            out.append(text)
    return "".join(out)


def _passage(w: _Writer, passage: Passage) -> None:
    colour = f"m{passage.index % len(PALETTE)}"
    lang_a = ' lang="zh-Hans"' if passage.cjk_a else ""
    lang_b = ' lang="zh-Hans"' if passage.cjk_b else ""
    size = f"{passage.units} units"
    if passage.runs:  # an edited passage: what it covers, and how much of it is identical
        size = (f"{passage.units_a} / {passage.units_b} units, {passage.matched_units} identical "
                f"in {len(passage.runs)} run{'s' if len(passage.runs) != 1 else ''}")
    w(f'<tr id="passage-{passage.index + 1}"{w.attr("passage")}><td{w.attr("n")}>'
      f"<span{w.attr('swatch', colour)}>&nbsp;{passage.index + 1}&nbsp;</span>"
      f"<span{w.attr('units')}>{'<br>' if w.qt else ''}{esc(size)}</span></td>"
      f"<td{w.attr('q')}{lang_a}>{_segments(w, passage.a)}</td>"
      f"<td{w.attr('q')}{lang_b}>{_segments(w, passage.b)}</td></tr>\n")
