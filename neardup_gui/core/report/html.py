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
import re
from typing import Any, Callable

from neardup_gui.core.palette import MUTED_BACKGROUND, MUTED_FOREGROUND, PASTELS, passage_colours
from neardup_gui.core.report.strings import translator
from neardup_gui.core.report.model import (
    EDITED, ELIDED, EXCLUDED, MATCH, TEMPLATE, DocRef, Passage, Report, ReportPair, Segment, flat_settings,
)
from neardup_gui.core.report.strings import flag_text

log = logging.getLogger(__name__)

# Passage i's colours on paper: identical text, and the edited words in a lighter shade of the same
# hue (the window asks the same function, so a source has one colour on screen and on paper).
PALETTE = tuple(passage_colours(i)[0] for i in range(len(PASTELS)))
LIGHT_PALETTE = tuple(passage_colours(i)[1] for i in range(len(PASTELS)))

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
FONT_FAMILY = ('"Noto Sans", "DejaVu Sans", "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", '
               '"Hiragino Sans GB", "Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif')
MONO_FAMILY = '"DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace'

# The elements the template emits; the escaping tests check a report holds no other.
ELEMENTS = frozenset({
    "html", "head", "meta", "title", "style", "body", "header", "section", "article", "footer", "div",
    "h1", "h2", "h3", "p", "table", "colgroup", "col", "thead", "tbody", "tr", "th", "td", "span", "a",
    "code", "br", "wbr",
})

EXPLANATION = translator("en")("r_explanation")

# The settings explained beside their names (catalog keys r_set_<name>, in the report's language).
SETTING_LABELS = ("threshold", "min_run", "strategy", "template_min_docs", "template_min_share", "template_files",
                  "exclude_quotes", "exclude_bibliography", "workers")

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
td {{ overflow-wrap: break-word; }}
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


def size_text(n: int, t: Callable[..., str] = translator("en")) -> str:
    if n < 0:
        return t("r_unreadable")
    if n < 1024:
        return t("r_bytes", n=f"{n:,}")
    value, unit = n / 1024.0, "KB"
    for bigger in ("MB", "GB"):
        if value < 1024:
            break
        value, unit = value / 1024.0, bigger
    return f"{t('r_bytes', n=f'{n:,}')} ({value:.1f} {unit})"


def setting_value(value: Any, t: Callable[..., str] = translator("en")) -> str:
    if isinstance(value, bool):
        return t("yes") if value else t("no")
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) if value else t("none")
    return str(value)


WARNING_MARK = "⚠"


def warned(w: "_Writer", d: DocRef) -> str:
    """The document's name, with a warning mark (its warnings as the tooltip) when it was indexed
    with warnings: read only in part or leniently, so its figures may miss some of its text."""
    name = w.name(d.name)
    if not d.warnings:
        return name
    return f'{name} <span{w.attr("warn")} title="{esc("; ".join(d.warnings))}">{WARNING_MARK}</span>'


# Punctuation inside a file name or path after which a line may break (not at its end, nor
# before another such mark).
_BREAK_AFTER = re.compile(r"([./\\_-])(?=[^./\\_\s-])")


class _Writer:
    """Accumulates the document; ``attr(cls)`` gives a class (browser) or inline style (Qt)."""

    def __init__(self, flavour: str, lang: str = "en") -> None:
        if flavour not in ("browser", "qt"):
            raise ValueError(f"unknown HTML flavour {flavour!r}")
        self.qt = flavour == "qt"
        self.lang = lang
        self.t = translator(lang)  # the report's words in its language
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

    def name(self, value: Any) -> str:
        """A file name or path for a table cell: escaped, a line break allowed after its
        punctuation (. / \\ _ -), so a narrow column wraps it there and never inside a word. In Qt
        the allowance is a zero-width space, which the PDF's text layer leaves out (the name reads
        and searches whole); in a browser it is ``<wbr>``."""
        mark = "\u200b" if self.qt else "<wbr>"
        return _BREAK_AFTER.sub(lambda m: m.group(1) + mark, esc(value))

    def table(self, *classes: str) -> str:
        if self.qt:
            return f'<table border="1" cellspacing="0" cellpadding="4" width="100%"{self.attr(*classes)}>'
        return f"<table{self.attr(*classes)}>"


def document_head(w: _Writer, title: str, lang: str, version: str, css: str) -> None:
    """The document's start up to ``<body>``: language, and for a browser the content security
    policy, the generator and the style sheet ``css`` (the Qt flavour styles through attributes)."""
    html_lang = "zh-Hans" if lang.startswith("zh") else "en"
    w("<!DOCTYPE html>\n" if not w.qt else "", f'<html lang="{html_lang}">\n<head>\n<meta charset="utf-8">\n')
    if not w.qt:
        w(f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">\n',
          '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
          f'<meta name="generator" content="neardup {esc(version)}">\n')
    w(f"<title>{esc(title)}</title>\n")
    if not w.qt:
        w(f"<style>{css}</style>\n")
    w("</head>\n<body>\n")


def render_html(report: Report, *, flavour: str = "browser") -> str:
    """The whole report as an HTML document (``flavour``: ``"browser"`` or ``"qt"``), in the
    report's language (``report.lang``)."""
    w = _Writer(flavour, getattr(report, "lang", "en"))
    s = report.summary
    document_head(w, s.title, w.lang, s.app_version, _BASE_CSS)
    _header(w, report)
    _summary(w, report)
    if report.submissions:
        _submissions(w, report)
    if report.clusters:
        _clusters(w, report)
    _ranking(w, report)
    if report.exclusions is not None:
        _exclusions(w, report)
    _settings(w, report)
    _details(w, report)
    note = f"neardup {esc(s.app_version)} · {esc(s.created)} · {esc(w.t('r_explanation'))}"
    w(f"<p{w.attr('group')}>{note}</p>\n" if w.qt else f"<footer><p>{note}</p></footer>\n")
    w("</body>\n</html>\n")
    return "".join(w.parts)


def _header(w: _Writer, report: Report) -> None:
    s = report.summary
    tag = "div" if w.qt else "header"
    w(f"<{tag}><h1>{esc(s.title)}</h1>\n",
      f"<p{w.attr('lead')}>{esc(w.t('r_created_by', created=s.created, version=s.app_version))}</p></{tag}>\n")


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
    t = w.t
    w(f'<{sec} id="summary"><h2>{esc(t("r_summary"))}</h2>\n')
    _kv(w, [
        (t("r_report"), t(f"r_scope_{s.scope}")),
        (t("r_created"), s.created),
        (t("application"), f"neardup {s.app_version}"),
        (t("collection_folder"), s.collection_folder or t("r_not_recorded")),
        (t("index_file"), s.index_path),
        (t("r_index_size"), size_text(s.index_size, t)),
        *([(t("r_index_unfinished"), t("r_index_unfinished_value", folder=s.index_unfinished))]
          if s.index_unfinished else []),
        (t("r_documents"), t("r_documents_value", d=c.get("documents", 0), i=c.get("indexed", 0),
                             w=c.get("with_warnings", 0), k=c.get("skipped", 0))),
        _scope_count(s.scope, c, s.settings, t),
        (t("r_pairs_reported"), str(c.get("pairs", 0))),
        (t("r_passages_count"), str(c.get("passages", 0))),
    ])
    w(f"<p{w.attr('legend')}>{esc(t('r_colours'))} ")
    for i in range(min(4, len(PALETTE))):
        w(f"<span{w.attr(f'm{i}')}>{esc(t('r_match_n', n=i + 1))}</span> ")
    tpl = f"<span{w.attr('tpl')}>{esc(t('r_template_text'))}</span>"
    exc = f"<span{w.attr('exc')}>{esc(t('excluded_text'))}</span>"
    w(f"{t('r_colours_note', template=tpl, excluded=exc)}</p>\n")
    same = f"<span{w.attr('m0')}>{esc(t('identical_text'))}</span>"
    edited = f"<span{w.attr('e0')}>{esc(t('edited_text'))}</span>"
    w(f"<p{w.attr('legend')}>{t('r_edited_note', identical=same, edited=edited)}</p>\n")
    w(f"</{sec}>\n")


def _settings(w: _Writer, report: Report) -> None:
    """Every setting, two to a row: name (with what it means) and value."""
    sec = "div" if w.qt else "section"
    w(f'<{sec} id="settings"><h2>{esc(w.t("r_settings"))}</h2>\n', w.table("kv", "settings"), "<tbody>\n")
    rows = flat_settings(report.summary.settings)
    half = (len(rows) + 1) // 2
    for left, right in zip(rows[:half], rows[half:] + [None] * (2 * half - len(rows))):
        cells = []
        for item in (left, right):
            if item is None:
                cells.append("<th></th><td></td>")
                continue
            name, value = item
            label = w.t(f"r_set_{name}") if name in SETTING_LABELS else ""
            hint = f"{'<br>' if w.qt else ''}<span{w.attr('units')}>{esc(label)}</span>" if label else ""
            cells.append(f"<th{w.attr('th')}>{esc(name)}{hint}</th><td>{esc(setting_value(value, w.t))}</td>")
        w(f"<tr>{''.join(cells)}</tr>\n")
    w(f"</tbody></table></{sec}>\n")


def _scope_count(scope: str, counts: dict[str, int], settings: dict[str, Any],
                 t: Callable[..., str] = translator("en")) -> tuple[str, str]:
    """The summary line that depends on the scope: submissions, clusters, or the threshold of pairs."""
    if scope == "check":
        return t("r_submissions_checked"), str(counts.get("submissions", 0))
    if scope == "clusters":
        return t("r_clusters_count"), str(counts.get("clusters", 0))
    return t("r_threshold"), str(settings.get("threshold", ""))


def _submissions(w: _Writer, report: Report) -> None:
    sec = "div" if w.qt else "section"
    t, nw = w.t, w.attr("nw")
    whose = any(sub.applicants for sub in report.submissions)  # (see committee_html: the column when it says something)
    w(f'<{sec} id="submissions"><h2>{esc(t("r_submissions"))}</h2>\n', w.table("rank"),
      f"<thead><tr><th>{esc(t('r_submission'))}</th><th{nw}>{esc(t('r_units'))}</th><th{nw}>{esc(t('r_copied'))}</th>"
      + (f"<th>{esc(t('r_without_own'))}</th>" if whose else "") + f"<th>{esc(t('r_copied_without_quotes'))}</th>"
      f"<th>{esc(t('r_largest_source'))}</th><th{nw}>{esc(t('r_sources'))}</th></tr></thead><tbody>\n")
    for sub in report.submissions:
        if sub.skipped_reason:
            w(f"<tr><td>{w.name(sub.document.name)}</td><td colspan=\"{6 if whose else 5}\">"
              f"{esc(t('r_skipped', reason=sub.skipped_reason))}</td></tr>\n")
            continue
        n = w.attr("num")
        who = f"<br>{esc(t('applicants'))}: {esc(sub.applicants)}" if sub.applicants else ""
        own = f"<td{n}>{pct(sub.copied_from_others)}</td>" if whose else ""
        w(f"<tr><td>{warned(w, sub.document)}{who}</td><td{n}>{sub.units}</td><td{n}>{pct(sub.copied_ratio)}</td>"
          f"{own}<td{n}>{pct(sub.copied_ratio_without_quotes)}</td>"
          f"<td>{pct(sub.largest_source_ratio)} {w.name(sub.largest_source)}</td><td{n}>{sub.sources}</td></tr>\n")
    w(f"</tbody></table></{sec}>\n")


def _clusters(w: _Writer, report: Report) -> None:
    sec = "div" if w.qt else "section"
    t = w.t
    w(f'<{sec} id="clusters"><h2>{esc(t("r_clusters"))}</h2>\n', w.table("rank"),
      f"<thead><tr><th>{esc(t('r_cluster'))}</th><th>{esc(t('r_document'))}</th>"
      f"<th>{esc(t('r_similarity_to_first'))}</th></tr></thead><tbody>\n")
    for c in report.clusters:
        for i, (m, sim) in enumerate(zip(c.members, c.similarities)):
            head = f"<td rowspan=\"{len(c.members)}\"{w.attr('num')}>{c.number}</td>" if i == 0 else ""
            ring = t("r_ring") if i == 0 and c.ring else ""
            w(f"<tr>{head}<td>{warned(w, m)}{esc(ring)}</td><td{w.attr('num')}>{esc(t('r_representative')) if i == 0 else pct(sim)}</td></tr>\n")
    w(f"</tbody></table></{sec}>\n")


def _exclusions(w: _Writer, report: Report) -> None:
    """What was not counted and why: the rules, units removed, the passages left out."""
    ex = report.exclusions
    r = ex.rules
    sec = "div" if w.qt else "section"
    t = w.t
    w(f'<{sec} id="exclusions"><h2>{esc(t("r_not_counted"))}</h2>\n')
    auto = (t("r_auto_on", f=r.get("automatic_min_frequency"), d=r.get("automatic_min_docs"),
              s=pct(r.get("automatic_min_share") or 0)) if r.get("automatic") else t("r_off"))
    units = ex.units

    def used(key: str, kind: str) -> str:
        return t("r_excluded_value" if r.get(key) else "r_counted_value", u=units.get(kind, 0))

    _kv(w, [
        (t("r_template_files"), t("r_template_files_value", n=len(r.get("template_files", [])),
                                  u=units.get("template_files", 0))),
        (t("r_marked"), t("r_marked_value", n=r.get("marked", 0), u=units.get("marked", 0))),
        (t("r_counted"), str(r.get("counted", 0))),
        (t("r_automatic"), t("r_auto_value", auto=auto, u=units.get("automatic", 0))),
        (t("r_furniture"), t("r_units_value", u=units.get("furniture", 0))),
        (t("r_quotations"), used("quotes", "quotes")),
        (t("r_bibliography"), used("bibliography", "bibliography")),
    ])
    if ex.passages:
        w(w.table("rank"), f"<thead><tr><th>{esc(t('r_left_out'))}</th><th>{esc(t('r_documents_short'))}</th>"
          f"<th>{esc(t('r_why'))}</th></tr></thead><tbody>\n")
        for p in ex.passages:
            text = " ".join(p.text.split())
            w(f"<tr><td>{esc(text[:300])}{'…' if len(text) > 300 else ''}</td><td{w.attr('num')}>{p.documents}</td>"
              f"<td>{esc(t('r_status_' + p.status) if 'r_status_' + p.status in _STATUS_KEYS else p.status)}</td></tr>\n")
        w("</tbody></table>\n")
    w(f"</{sec}>\n")


_STATUS_KEYS = {"r_status_template-file", "r_status_marked", "r_status_automatic"}


def _ranking(w: _Writer, report: Report) -> None:
    sec = "div" if w.qt else "section"
    check = report.summary.scope == "check"
    t = w.t
    w(f'<{sec} id="ranking"><h2>{esc(t("r_ranking_check" if check else "r_ranking_pairs"))}</h2>\n')
    if not report.pairs:
        w(f"<p{w.attr('none')}>{esc(t('r_nothing'))}</p></{sec}>\n")
        return
    head_a, head_b = (t("r_submission"), t("r_source")) if check else (t("r_doc_a"), t("r_doc_b"))
    dw = ' width="15%"' if w.qt else ""

    def cw(percent: int) -> str:
        """A fixed column width in Qt's engine, so that a heading is never broken inside a word
        (it broke "Similarity" as "Similarit y" in the PDF when the document columns took the room)."""
        return f' width="{percent}%" style="white-space:nowrap;"' if w.qt else ""

    w(w.table("rank"),
      f"<thead><tr><th{cw(4)}>#</th><th{dw}>{esc(head_a)}</th><th{dw}>{esc(head_b)}</th>"
      f"<th{cw(12)}>{esc(t('r_similarity'))}</th><th{cw(9)}>{esc(t('r_a_in_b'))}</th><th{cw(9)}>{esc(t('r_b_in_a'))}</th>"
      f"<th{cw(10)}>{esc(t('r_common_units'))}</th><th{cw(13)}>{esc(t('r_template_ab'))}</th>"
      f"<th{cw(13)}>{esc(t('r_passages'))}</th></tr></thead><tbody>\n")
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
    w(f'<{sec} id="passages"{w.attr("details")}><h2>{esc(w.t("r_matched_passages"))}</h2>\n</{sec}>\n')
    for p in report.pairs:
        _pair(w, p, report.summary.scope == "check")


def _pair_whose(w: _Writer, p: ReportPair) -> None:
    """A pair of one applicant's documents said so, and the examiner's decision with its note and date."""
    t = w.t
    words = [t("r_same_applicant")] if p.same_applicant else []
    d = p.decision
    if d is not None:
        state = (t("decision_changed") if d["text_changed_since"]
                 else t("decision_applied_counted") if d["verdict"] == "confirmed" else t("decision_applied_apart"))
        words.append(f"{t('decision')}: {t('choice_' + d['decision'])} ({state}), "
                     f"{d['decided_at'].replace('T', ' ').replace('+00:00', ' UTC')}"
                     + (f" — {d['note']}" if d["note"] else ""))
    if words:
        w(f"<p{w.attr('lead')}>{esc(' · '.join(words))}</p>\n")


def _pair(w: _Writer, p: ReportPair, check: bool) -> None:
    art = "div" if w.qt else "article"
    w(f'<{art} id="pair-{p.rank}"{w.attr("pair")}>\n',
      f"<h3>{p.rank}. {esc(p.a.name)} ⟷ {esc(p.b.name)}</h3>\n")
    t = w.t
    if p.group:
        w(f"<p{w.attr('group')}>{t('labelled', label=esc(t('r_submission' if check else 'r_in')), value=esc(p.group))}</p>\n")
    w("<p>" + esc(t("r_pair_figures", sim=pct(p.similarity), ab=pct(p.containment_a), ba=pct(p.containment_b),
                    common=p.common_units, ua=p.units_a, ub=p.units_b, ta=pct(p.template_share_a),
                    tb=pct(p.template_share_b)))
      + (esc(t("r_pair_excluded", a=pct(p.excluded_share_a), b=pct(p.excluded_share_b)))
         if p.excluded_share_a or p.excluded_share_b else "")
      + (esc(t("r_pair_estimate", e=f"{max(p.estimate, 0.0):.3f}")) if p.estimate is not None else "")
      + "</p>\n")
    _pair_whose(w, p)
    _docs(w, p.a, p.b, check)
    if not p.passages:
        w(f"<p{w.attr('none')}>{esc(t('r_no_passage'))}</p></{art}>\n")
        return
    label_a = t("r_submission") if check else "A"
    label_b = t("r_source") if check else "B"
    w(w.table("passages"))
    if not w.qt:
        w('<colgroup><col class="n"><col><col></colgroup>')
    nw = ' width="8%"' if w.qt else ""
    qw = ' width="46%"' if w.qt else ""
    head_a = t("labelled", label=esc(label_a), value=w.name(p.a.name))
    head_b = t("labelled", label=esc(label_b), value=w.name(p.b.name))
    w(f"<thead><tr><th{nw}>#</th><th{qw}>{head_a}</th><th{qw}>{head_b}</th></tr></thead><tbody>\n")
    for passage in p.passages:
        _passage(w, passage)
    w(f"</tbody></table></{art}>\n")


def _docs(w: _Writer, a: DocRef, b: DocRef, check: bool) -> None:
    t = w.t
    w(w.table("docs"),
      f"<thead><tr><th></th><th>{esc(t('r_submission')) if check else 'A'}</th>"
      f"<th>{esc(t('r_source')) if check else 'B'}</th></tr></thead><tbody>\n")
    rows: list[tuple[str, Callable[[DocRef], str]]] = [
        (t("file"), lambda d: w.name(d.name)),
        (t("path"), lambda d: w.name(d.path)),
        (t("size"), lambda d: esc(size_text(d.size, t))),
        ("SHA-256", lambda d: f"<code>{esc(d.sha256) or esc(t('r_unreadable'))}</code>"),
        (t("r_units"), lambda d: str(d.units)),
    ]
    if a.warnings or b.warnings:
        rows.append((t("warnings"), lambda d: (f"<span{w.attr('warn')}>{WARNING_MARK}</span> " + esc("; ".join(d.warnings)))
                     if d.warnings else esc(t("none"))))
    if a.flags or b.flags:  # (their places are in the JSON report)
        rows.append((t("integrity"), lambda d: (f"<span{w.attr('warn')}>{WARNING_MARK}</span> "
                                                + esc("; ".join(flag_text(f, t) for f in d.flags)))
                     if d.flags else esc(t("integrity_none"))))
    for label, cell in rows:
        w(f"<tr><th{w.attr('th')}>{esc(label)}</th><td>{cell(a)}</td><td>{cell(b)}</td></tr>\n")
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
        elif seg.kind == ELIDED:  # the model's note, in the report's language
            n = "".join(ch for ch in seg.text if ch.isdigit())
            out.append(f"<span{w.attr('gap')}>{esc(w.t('elided', n=n))}</span>")
        else:
            out.append(text)
    return "".join(out)


def _passage(w: _Writer, passage: Passage) -> None:
    colour = f"m{passage.index % len(PALETTE)}"
    lang_a = ' lang="zh-Hans"' if passage.cjk_a else ""
    lang_b = ' lang="zh-Hans"' if passage.cjk_b else ""
    size = w.t("r_passage_units", n=passage.units)
    if passage.runs:  # an edited passage: what it covers, and how much of it is identical
        size = w.t("r_passage_size", a=passage.units_a, b=passage.units_b, m=passage.matched_units,
                   r=len(passage.runs))
    moved = f"<br>{esc(w.t('passage_moved'))}" if passage.moved else ""
    w(f'<tr id="passage-{passage.index + 1}"{w.attr("passage")}><td{w.attr("n")}>'
      f"<span{w.attr('swatch', colour)}>&nbsp;{passage.index + 1}&nbsp;</span>"
      f"<span{w.attr('units')}>{'<br>' if w.qt else ''}{esc(size)}{moved}</span></td>"
      f"<td{w.attr('q')}{lang_a}>{_segments(w, passage.a)}</td>"
      f"<td{w.attr('q')}{lang_b}>{_segments(w, passage.b)}</td></tr>\n")
