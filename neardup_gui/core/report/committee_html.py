"""The committee reports as HTML: a first page of figures, the coloured full text, passages, an appendix.

Same rules as :mod:`neardup_gui.core.report.html` (self-contained, no script, everything from a
document escaped) and the same two flavours: ``"browser"`` (classes and print CSS) and ``"qt"``
(inline styles for Qt's rich-text engine, which paints the PDF). Every word comes from the
report's language (:mod:`neardup_gui.core.report.strings`).
"""

from __future__ import annotations
from typing import Callable

from neardup_gui.core.report.html import (
    _BASE_CSS, _QT_STYLES, PALETTE, _Writer, document_head, esc, pct, setting_value, size_text,
)
from neardup_gui.core.report.model import (
    EDITED, ELIDED, EXCLUDED, MATCH, TEMPLATE, Passage, Segment, flag_places, flat_settings,
)
from neardup_gui.core.report.committee import ScreeningReport, SourcePassages, SubmissionReport
from neardup_gui.core.results import Decision
from neardup_gui.core.report.strings import flag_text, translator

_EXTRA_CSS = """
.figures { table-layout: fixed; }
.figures th { background: #eef1f4; text-align: center; font-weight: 600; }
.figures td { text-align: center; font-size: 17pt; font-weight: 700; }
.figures td.main { color: #b3261e; }
.flag { font-weight: 700; color: #b3261e; }
.ok { color: #2b6a2b; }
.fulltext { white-space: pre-wrap; font-size: 10.5pt; line-height: 1.6; }
.fulltext sup { font-size: 7pt; font-weight: 700; }
.page { break-before: page; page-break-before: always; }
.sources td.sw { width: 2.5em; text-align: center; }
.excluded-row { color: #8c8c8c; text-decoration: line-through; }
th.nw, td.nw { white-space: nowrap; }
"""

_QT_EXTRA = {
    "figures": "",
    "main": "color:#b3261e;",
    "flag": "font-weight:bold; color:#b3261e;",
    "ok": "color:#2b6a2b;",
    "fulltext": "line-height:160%;",
    "page": "page-break-before:always;",
    "sw": "text-align:center;",
    "excluded-row": "color:#8c8c8c;",
    "nw": "white-space:nowrap;",
}


class _CWriter(_Writer):
    def attr(self, *classes: str, extra_style: str = "") -> str:
        if self.qt:
            style = "".join(_QT_STYLES.get(c, _QT_EXTRA.get(c, "")) for c in classes) + extra_style
            return f' style="{style}"' if style else ""
        return super().attr(*classes, extra_style=extra_style)


def _head(w: _CWriter, title: str, lang: str, version: str) -> None:
    document_head(w, title, lang, version, _BASE_CSS + _EXTRA_CSS)


def _colour(number: int) -> str:
    return f"m{(number - 1) % len(PALETTE)}"


def _kv(w: _CWriter, rows: list[tuple[str, str]]) -> None:
    w(w.table("kv"), "<tbody>\n")
    for key, value in rows:
        w(f"<tr><th{w.attr('th')}>{esc(key)}</th><td>{value}</td></tr>\n")
    w("</tbody></table>\n")


def render_submission_html(r: SubmissionReport, *, flavour: str = "browser") -> str:
    """One submission's committee report as HTML."""
    t = translator(r.lang)
    w = _CWriter(flavour)
    _head(w, f"{r.title} — {r.document.name}", r.lang, r.app_version)
    sec = "div" if w.qt else "section"
    # --- first page
    w(f"<h1>{esc(r.title)}</h1>\n")
    against = (t("against_value", n=r.collection_documents, m=r.call_submissions) if r.screening
               else t("against_collection", n=r.collection_documents))
    _kv(w, [(t("document"), w.name(r.document.name)), (t("applicants"), esc(applicants_text(r, t)))]
        + ([(t("call"), esc(r.screening))] if r.screening else [])
        + [(t("checked_at"), esc(r.checked.replace("T", " ").replace("+00:00", " UTC"))), (t("against"), esc(against))])
    n = w.attr("num")
    main = w.attr("main") if not w.qt else ' style="color:#b3261e; font-size:16pt; font-weight:bold;"'
    big = "" if not w.qt else ' style="font-size:16pt; font-weight:bold;"'
    centre = "" if not w.qt else ' style="text-align:center;"'
    w(w.table("figures"), "<thead><tr>",
      *(f"<th{centre}>{esc(t(k))}</th>"
        for k in ("copied", "without_own", "without_quotes", "largest", "copied_units", "total_units")),
      "</tr></thead><tbody><tr>",
      f"<td{main}{centre if not w.qt else ''}>{pct(r.copied)}</td>",
      f"<td{main}{centre if not w.qt else ''}>{pct(r.copied_from_others)}</td>",
      f"<td{big}>{pct(r.copied_without_quotes)}</td>",
      f"<td{big}>{pct(r.largest)}</td>",
      f"<td{big}>{r.copied_units:,}</td>",
      f"<td{big}>{r.units:,}</td>",
      "</tr></tbody></table>\n")
    flag_line = pct(r.flag)
    flag = (f"<span{w.attr('flag')}>{esc(t('flagged', line=flag_line))}</span>" if r.flagged
            else f"<span{w.attr('ok')}>{esc(t('not_flagged', line=flag_line))}</span>")
    w(f"<p>{flag}</p>\n")
    _whose(w, r, t)
    w(f"<p{w.attr('lead')}>{esc(t('figures_note', copied=t('copied'), note=t('copied_note'), template=t('template'), share=pct(r.template_share), units=t('units_note')))}</p>\n")
    if r.warnings:
        w(f"<p{w.attr('flag')}>{esc(t('warnings_line', warnings=t('list_separator').join(r.warnings)))}</p>\n")
    if r.document.flags:
        _integrity(w, r)
    # sections
    w(f"<{sec}><h2>{esc(t('sections'))}</h2>\n", w.table("rank"),
      f"<thead><tr><th>{esc(t('section'))}</th><th{w.attr('nw')}>{esc(t('section_units'))}</th>"
      f"<th{w.attr('nw')}>{esc(t('section_copied'))}</th><th{w.attr('nw')}>{esc(t('section_share'))}</th>"
      f"<th>{esc(t('section_source'))}</th></tr></thead><tbody>\n")
    for s in r.sections:
        hot = w.attr("flag") if s.share >= r.flag and s.copied else ""
        w(f"<tr><td>{esc(s.title or t('beginning'))}</td><td{n}>{s.countable:,}</td><td{n}>{s.copied:,}</td>"
          f"<td{n}><span{hot}>{pct(s.share)}</span></td><td>{esc(s.largest_source)}</td></tr>\n")
    w(f"</tbody></table><p{w.attr('lead')}>{esc(t('sections_how'))}</p></{sec}>\n")
    # sources
    w(f"<{sec}><h2>{esc(t('sources'))}</h2>\n")
    if not r.sources:
        w(f"<p{w.attr('none')}>{esc(t('no_sources'))}</p>")
    else:
        w(w.table("rank", "sources"),
          f"<thead><tr><th>#</th><th>{esc(t('source'))}</th><th{w.attr('nw')}>{esc(t('kind'))}</th>"
          f"<th>{esc(t('credited'))}</th><th{w.attr('nw')}>{esc(t('similarity'))}</th>"
          f"<th{w.attr('nw')}>{esc(t('common'))}</th></tr></thead><tbody>\n")
        for e in r.sources:
            kind = t("kind_collection") if e.kind == "collection" else t("kind_submission")
            row = w.attr("excluded-row") if e.excluded else ""
            swatch = (f"<span{w.attr('swatch', _colour(e.number))}>&nbsp;{e.number}&nbsp;</span>"
                      if not e.excluded else f"{e.number}")
            note = (f"<br><span{w.attr('units')}>{esc(t('excluded_source'))}</span>"
                    if e.excluded and e.decision is None else "")
            if e.same_applicant:
                note += f"<br><span{w.attr('units')}>{esc(t('same_applicant'))}</span>"
            if e.decision is not None:
                note += f"<br><span{w.attr('units')}>{esc(t('decision'))}: {esc(decision_text(e.decision, t))}</span>"
            if not e.excluded and e.credited < e.containment:  # it holds more than is credited to it
                note += (f"<br><span{w.attr('units')}>"
                         f"{esc(t('source_holds', share=pct(e.containment), others=t('list_separator').join(e.also_in)))}</span>")
            w(f"<tr{row}><td{w.attr('sw')}>{swatch}</td><td>{w.name(e.document.name)}{note}</td><td>{esc(kind)}</td>"
              f"<td{n}>{pct(e.credited if not e.excluded else e.containment)}</td><td{n}>{pct(e.similarity)}</td>"
              f"<td{n}>{e.common_units:,}</td></tr>\n")
        w("</tbody></table>\n")
    w(f"</{sec}>\n")
    _decisions(w, r, t)
    # --- the full text
    tpl = f"<span{w.attr('tpl')}>{esc(t('template_text'))}</span>"
    exc = f"<span{w.attr('exc')}>{esc(t('excluded_text'))}</span>"
    w(f'<{sec}{w.attr("page")}><h2>{esc(t("full_text"))}</h2>\n',
      f"<p{w.attr('lead')}>{t('full_text_note', template=tpl, excluded=exc)}</p>\n")
    lang = ' lang="zh-Hans"' if r.cjk else ""
    tag = "p" if w.qt else "div"
    w(f"<{tag}{w.attr('fulltext')}{lang}>{_full_text(w, r.full_text)}</{tag}></{sec}>\n")
    # --- side by side
    if r.side_by_side:
        w(f'<{sec}{w.attr("page")}><h2>{esc(t("side_by_side"))}</h2>\n')
        same = f"<span{w.attr('m0')}>{esc(t('identical_text'))}</span>"
        edited = f"<span{w.attr('e0')}>{esc(t('edited_text'))}</span>"
        w(f"<p{w.attr('lead')}>{t('edited_note', identical=same, edited=edited)}</p>\n")
        for sp in r.side_by_side:
            _source_passages(w, r, sp, t)
        w(f"</{sec}>\n")
    # --- appendix
    _appendix(w, r, t)
    w("</body>\n</html>\n")
    return "".join(w.parts)


def applicants_text(r: SubmissionReport, t: Callable[..., str]) -> str:
    """The submission's applicants and where they were named, or that they are not known."""
    if not r.applicants:
        return t("applicants_unknown") if r.applicants_source != "examiner" else t("none")
    return t("applicants_value", names=r.applicants, source=t(f"source_{r.applicants_source}"))


def decision_text(d: Decision, t: Callable[..., str]) -> str:
    """A decision in words: what it is, and whether it applies."""
    applied = (t("decision_changed") if d.changed
               else t("decision_applied_apart") if d.sets_apart else t("decision_applied_counted"))
    return f"{t('choice_' + d.choice)} ({applied})"


def _whose(w: _CWriter, r: SubmissionReport, t: Callable[..., str]) -> None:
    """The first page's lines on whose the text is: a resubmission, own work, what was set apart."""
    if r.resubmission_of:
        w(f"<p{w.attr('flag')}>{esc(t('resubmission', name=r.resubmission_of, share=pct(r.copied_from_own)))}</p>\n")
    if r.copied_from_own:
        w(f"<p{w.attr('lead')}>{esc(t('from_own'))}: {pct(r.copied_from_own)}. {esc(t('flag_by_others'))}</p>\n")
    if r.set_apart:
        w(f"<p{w.attr('lead')}>{esc(t('set_apart', share=pct(r.set_apart)))}</p>\n")


def _decisions(w: _CWriter, r: SubmissionReport, t: Callable[..., str]) -> None:
    """Every decision of the examiner on this submission's sources, with its note and date."""
    decided = [e for e in r.sources if e.decision is not None]
    if not decided:
        return
    sec = "div" if w.qt else "section"
    n = w.attr("num")
    w(f"<{sec}><h2>{esc(t('decisions'))}</h2>\n", w.table("rank"),
      f"<thead><tr><th>#</th><th>{esc(t('source'))}</th><th>{esc(t('decision'))}</th>"
      f"<th>{esc(t('decision_note'))}</th><th{w.attr('nw')}>{esc(t('decision_date'))}</th></tr></thead><tbody>\n")
    for e in decided:
        d = e.decision
        w(f"<tr><td{n}>{e.number}</td><td>{esc(e.document.name)}</td><td>{esc(decision_text(d, t))}</td>"
          f"<td>{esc(d.note)}</td><td{w.attr('nw')}>{esc(d.date().replace('T', ' ').replace('+00:00', ' UTC'))}</td></tr>\n")
    w(f"</tbody></table></{sec}>\n")


def _full_text(w: _CWriter, segs: tuple[Segment, ...]) -> str:
    out, previous = [], None
    for seg in segs:
        text = w.text(seg.text)
        if seg.kind in (MATCH, EDITED):  # (edited words inside a passage: the lighter shade)
            number = seg.match + 1
            label = f"<sup>[{number}]</sup>" if previous != number else ""
            colour = _colour(number)
            out.append(f"{label}<span{w.attr(colour if seg.kind == MATCH else 'e' + colour[1:])}>{text}</span>")
            previous = number
            continue
        if seg.text.strip():
            previous = None
        if seg.kind == TEMPLATE:
            out.append(f"<span{w.attr('tpl')}>{text}</span>")
        elif seg.kind == EXCLUDED:
            out.append(f"<span{w.attr('exc')}>{text}</span>")
        else:
            out.append(text)
    return "".join(out)


def _segments(w: _CWriter, segs: tuple[Segment, ...], colour: str, t: Callable[..., str]) -> str:
    out = []
    for seg in segs:
        text = w.text(seg.text)
        if seg.kind == MATCH:
            out.append(f"<span{w.attr(colour)}>{text}</span>")
        elif seg.kind == EDITED:  # the edited words inside a copied passage: the lighter shade
            out.append(f"<span{w.attr('e' + colour[1:])}>{text}</span>")
        elif seg.kind == TEMPLATE:
            out.append(f"<span{w.attr('tpl')}>{text}</span>")
        elif seg.kind == EXCLUDED:
            out.append(f"<span{w.attr('exc')}>{text}</span>")
        elif seg.kind == ELIDED:
            n = "".join(ch for ch in seg.text if ch.isdigit())
            out.append(f"<span{w.attr('gap')}>{esc(t('elided', n=n))}</span>")
        else:
            out.append(text)
    return "".join(out)


def _source_passages(w: _CWriter, r: SubmissionReport, sp: SourcePassages, t: Callable[..., str]) -> None:
    art = "div" if w.qt else "article"
    colour = _colour(sp.number)
    w(f"<{art}{w.attr('pair')}><h3><span{w.attr('swatch', colour)}>&nbsp;{sp.number}&nbsp;</span> "
      f"{esc(sp.document.name)}</h3>\n")
    nw = ' width="8%"' if w.qt else ""
    qw = ' width="46%"' if w.qt else ""
    w(w.table("passages"))
    if not w.qt:
        w('<colgroup><col class="n"><col><col></colgroup>')
    head_a = t("labelled", label=esc(t("document")), value=w.name(r.document.name))
    head_b = t("labelled", label=esc(f"{t('source')} {sp.number}"), value=w.name(sp.document.name))
    w(f"<thead><tr><th{nw}>#</th><th{qw}>{head_a}</th><th{qw}>{head_b}</th></tr></thead><tbody>\n")
    for i, p in enumerate(sp.passages, 1):
        _passage(w, p, i, colour, t)
    w(f"</tbody></table></{art}>\n")


def _passage(w: _CWriter, p: Passage, i: int, colour: str, t: Callable[..., str]) -> None:
    lang_a = ' lang="zh-Hans"' if p.cjk_a else ""
    lang_b = ' lang="zh-Hans"' if p.cjk_b else ""
    moved = f"<br>{esc(t('passage_moved'))}" if p.moved else ""
    w(f"<tr{w.attr('passage')}><td{w.attr('n')}>{i}<span{w.attr('units')}>{'<br>' if w.qt else ''}{esc(t('units', n=p.units))}"
      f"{moved}</span></td>"
      f"<td{w.attr('q')}{lang_a}>{_segments(w, p.a, colour, t)}</td>"
      f"<td{w.attr('q')}{lang_b}>{_segments(w, p.b, colour, t)}</td></tr>\n")


def _appendix(w: _CWriter, r: SubmissionReport, t: Callable[..., str]) -> None:
    sec = "div" if w.qt else "section"
    w(f'<{sec}{w.attr("page")}><h2>{esc(t("appendix"))}</h2>\n<h3>{esc(t("files"))}</h3>\n', w.table("docs"),
      f"<thead><tr><th>#</th><th>{esc(t('file'))} / {esc(t('path'))}</th><th>{esc(t('sha256'))}</th></tr></thead><tbody>\n")
    w(f"<tr><td></td><td>{w.name(r.document.name)}<br><code>{w.name(r.document.path)}</code><br>"
      f"{esc(size_text(r.document.size, t))}</td><td><code>{esc(r.document.sha256)}</code></td></tr>\n")
    for e in r.sources:
        w(f"<tr><td{w.attr('num')}>{e.number}</td><td>{w.name(e.document.name)}<br><code>{w.name(e.document.path)}</code></td>"
          f"<td><code>{esc(e.document.sha256)}</code></td></tr>\n")
    w("</tbody></table>\n")
    _kv(w, [(t("application"), esc(f"neardup {r.app_version}")), (t("created"), esc(r.created)),
             (t("collection_folder"), f"<code>{esc(r.collection_folder)}</code>"),
             (t("index_file"), f"<code>{w.name(r.index_path)}</code>")])
    _settings_table(w, r.settings, t)
    w(f"<p{w.attr('lead')}>{esc(t('definitions'))}</p></{sec}>\n")


def _settings_table(w: _CWriter, settings: dict, t: Callable[..., str]) -> None:
    w(f"<h3>{esc(t('settings'))}</h3>\n", w.table("kv", "settings"), "<tbody>\n")
    rows = flat_settings(settings)
    half = (len(rows) + 1) // 2
    for left, right in zip(rows[:half], rows[half:] + [None] * (2 * half - len(rows))):
        cells = []
        for item in (left, right):
            if item is None:
                cells.append("<th></th><td></td>")
            else:
                cells.append(f"<th{w.attr('th')}>{esc(item[0])}</th><td>{esc(setting_value(item[1], t))}</td>")
        w(f"<tr>{''.join(cells)}</tr>\n")
    w("</tbody></table>\n")


def render_screening_html(r: ScreeningReport, *, flavour: str = "browser") -> str:
    """A call's ranked table as HTML."""
    t = translator(r.lang)
    w = _CWriter(flavour)
    _head(w, r.title, r.lang, r.app_version)
    info = r.info
    done = [x for x in r.rows if x.status == "done"]
    flagged = [x for x in done if x.flagged(info.flag)]
    w(f"<h1>{esc(r.title)}</h1>\n")
    _kv(w, [
        (t("folder"), f"<code>{esc(info.folder)}</code>"),
        (t("checked_at"), esc(r.checked.replace("T", " ").replace("+00:00", " UTC"))),
        (t("against"), esc(t("against_value", n=r.collection_documents, m=max(len(r.rows) - 1, 0)))),
    ])
    w(f"<p><b>{esc(t('screening_summary', n=len(r.rows), f=len(flagged), line=pct(info.flag), s=len(r.rows) - len(done)))}</b></p>\n")
    if info.state != "done":
        w(f"<p{w.attr('flag')}>{esc(t('state_running'))}</p>\n")
    n = w.attr("num")
    # Whose each text is: said when some applicant is known (without, the figure without own
    # documents is copied itself, and a column of it would only narrow the names)
    whose = any(x.applicants for x in r.rows)
    own_head = f"<th>{esc(t('r_without_own'))}</th>" if whose else ""
    w(w.table("rank"),
      f"<thead><tr><th>{esc(t('rank'))}</th><th>{esc(t('document'))}</th><th{w.attr('nw')}>{esc(t('copied'))}</th>"
      f"{own_head}<th>{esc(t('largest'))}</th><th>{esc(t('source'))}</th>"
      f"<th{w.attr('nw')}>{esc(t('sources_count'))}</th><th>{esc(t('warnings'))}</th></tr></thead><tbody>\n")
    for i, x in enumerate(r.rows, 1):
        if x.status != "done":
            w(f"<tr><td{n}>{i}</td><td>{w.name(x.rel)}</td><td colspan=\"{6 if whose else 5}\">"
              f"{esc(t('skipped', reason=x.reason))}</td></tr>\n")
            continue
        hot = w.attr("flag") if x.flagged(info.flag) else ""
        largest = x.largest_source.rsplit("/", 1)[-1] if x.largest_source else ""
        label = [t("r_resubmission_label")] if x.resubmission_of else []
        who = (f"<br><span{w.attr('units')}>{esc(t('applicants'))}: {esc(x.applicants.text())}</span>"
               if x.applicants else "")
        own = f"<td{n}><span{hot}>{pct(x.copied_from_others)}</span></td>" if whose else ""
        w(f"<tr><td{n}>{i}</td><td>{w.name(x.rel)}{who}</td>"
          f"<td{n}><span{'' if whose else hot}>{pct(x.copied)}</span></td>{own}"
          f"<td{n}>{pct(x.largest)}</td><td>{w.name(largest)}</td><td{n}>{x.sources}</td>"
          f"<td>{esc(t('list_separator').join([*label, *x.warnings, *(flag_text(f, t) for f in x.flags)]))}</td></tr>\n")
    w("</tbody></table>\n")
    sec = "div" if w.qt else "section"
    w(f'<{sec}{w.attr("page")}><h2>{esc(t("appendix"))}</h2>\n')
    _kv(w, [(t("application"), esc(f"neardup {r.app_version}")), (t("created"), esc(r.created)),
             (t("index_file"), f"<code>{w.name(r.index_path)}</code>")])
    _settings_table(w, r.settings, t)
    w(f"<p{w.attr('lead')}>{esc(t('definitions'))}</p></{sec}>\n")
    w("</body>\n</html>\n")
    return "".join(w.parts)


def _integrity(w: _Writer, r: SubmissionReport) -> None:
    """The submission's integrity flags, each with its first places quoted as a reader finds them."""
    t = translator(r.lang)
    text = "".join(s.text for s in r.full_text)
    w(f"<p{w.attr('flag')}><b>{esc(t('integrity_label'))}</b> "
      f"{esc(t('list_separator').join(flag_text(f, t) for f in r.document.flags))}</p>\n<ul>\n")
    for f in r.document.flags:
        shown, more = flag_places(text, f)
        places = " ".join(f"«{esc(p)}»" for p in shown) + (f" … (+{more:,})" if more else "")
        w(f"<li>{esc(flag_text(f, t))} — {esc(t('integrity_places'))} {places}</li>\n")
    w(f"</ul>\n<p{w.attr('lead')}>{esc(t('integrity_note'))}</p>\n")
