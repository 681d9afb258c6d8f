"""The reports a committee reads about a screening: one submission's report, and the call's ranked table.

A :class:`SubmissionReport` carries what the first page shows (CNKI's figures in Chinese, the
Turnitin-like ones in English), the per-section table, the numbered list of sources, the
submission's full text cut into runs coloured by source, the matched passages side by side, and
the settings and file identities for the appendix. A :class:`ScreeningReport` is the ranked table
of a whole call. Both are built from a screening kept in the index
(:mod:`neardup_gui.core.screening`) and rendered by :mod:`neardup_gui.core.report.committee_html`
(HTML and, through Qt, PDF), CSV and JSON.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from neardup_gui import __version__
from neardup_gui.core.report.model import (
    DocRef, Passage, Segment, _Marks, file_identity, flags_csv, passages, segments, settings_dict,
)
from neardup_gui.core.ownership import set_apart
from neardup_gui.core.results import CheckResult, Decision
from neardup_gui.core.screening import (
    COLLECTION, DEFAULT_FLAG, ScreenedSource, Screening, ScreeningInfo, ScreeningRow, SubmissionDetail, coloured_runs, load_screening, source_text,
    submission_detail,
)
from neardup_gui.core.sections import find_sections, section_figures
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import Store, screenings
from neardup_gui.core.store import documents as doc_rows
from neardup_gui.core.units import cjk_share

if TYPE_CHECKING:
    from neardup_gui.core.collection import Collection

log = logging.getLogger(__name__)

# Sources quoted side by side in a submission's report (the list names them all).
MAX_SIDE_BY_SIDE_SOURCES = 10


@dataclass(frozen=True)
class SourceEntry:
    """One numbered source of the submission (its number is its colour in the full text)."""

    number: int  # 1-based; colour ``number - 1``
    kind: str  # collection | submission
    document: DocRef
    containment: float  # share of the submission found in it
    similarity: float
    source_containment: float
    common_units: int
    excluded: bool  # excluded by the examiner: listed, not counted, not coloured
    # share of the submission credited to it (core/credit.py: a passage several sources hold is
    # credited to one of them), and the sources whose credited passages it also holds
    credited: float = 0.0
    also_in: tuple[str, ...] = ()
    applicants: str = ""  # whose document it is ("; "-separated names), and where that was said
    applicants_source: str = ""
    same_applicant: bool = False  # the submission's applicant's own: own work, not copying
    decision: Decision | None = None  # the examiner's decision on the submission and this source


@dataclass(frozen=True)
class SectionRow:
    title: str  # "" for the text before the first heading
    units: int
    countable: int
    copied: int
    share: float
    largest_source: str


@dataclass(frozen=True)
class SourcePassages:
    """The passages of one source, quoted side by side (A = the submission)."""

    number: int
    document: DocRef
    passages: tuple[Passage, ...]


@dataclass(frozen=True)
class SubmissionReport:
    """The committee's report on one submission of a screening."""

    lang: str
    title: str
    created: str  # ISO 8601, UTC: when the report was made
    app_version: str
    checked: str  # ISO 8601, UTC: when the screening last checked the call (CNKI's 检测时间)
    screening: str  # the call's name
    flag: float
    flagged: bool
    document: DocRef
    units: int
    copied: float  # template excluded (the ranking figure): CNKI's 总文字复制比 here
    copied_overall: float  # form text counted as matched
    copied_without_quotes: float
    largest: float
    largest_source: str
    copied_units: int
    template_share: float
    collection_documents: int
    call_submissions: int
    warnings: tuple[str, ...]
    sections: tuple[SectionRow, ...]
    sources: tuple[SourceEntry, ...]
    full_text: tuple[Segment, ...]  # match segments carry the source's number - 1
    cjk: bool  # mostly Chinese: the renderer tags it so CJK glyphs are chosen
    side_by_side: tuple[SourcePassages, ...]
    settings: dict[str, Any]
    index_path: str
    collection_folder: str
    # whose it is, and the copied share split by whose the credited text is (core/ownership.py):
    # CNKI's 总文字复制比 is ``copied``, its 去除本人文献复制比 ``copied_from_others``
    applicants: str = ""
    applicants_source: str = ""
    copied_from_others: float = 0.0
    copied_from_own: float = 0.0
    set_apart: float = 0.0  # set apart by the examiner's decisions (permitted, not relevant)
    resubmission_of: str = ""  # the applicant's own document it resubmits (its name), or ""


@dataclass(frozen=True)
class ScreeningReport:
    """The ranked table of a call."""

    lang: str
    title: str
    created: str
    app_version: str
    checked: str  # when the screening last checked the call
    info: ScreeningInfo
    rows: tuple[ScreeningRow, ...]
    collection_documents: int
    settings: dict[str, Any]
    index_path: str


def _now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, timezone.utc).replace(microsecond=0).isoformat()


def _collection_documents(store: Store) -> int:
    return store.count("indexed")


def build_submission_report(store: Store, screening: str | int, rel: str, settings: Settings, *,
                            lang: str = "en", enabled: set[int] | None = None) -> SubmissionReport:
    """The report on submission ``rel`` of a screening; ``enabled``: the source ranks counted
    (default: every source the examiner did not exclude)."""
    detail: SubmissionDetail = submission_detail(store, screening, rel)
    call = load_screening(store, detail.screening.id)
    return _report(store, detail, settings, lang, enabled, call_submissions=max(len(call.rows) - 1, 0))


def build_check_report(collection: Collection, result: CheckResult, settings: Settings, *, lang: str = "en",
                       enabled: set[int] | None = None) -> SubmissionReport:
    """The committee's report on one submission checked against the collection (the Check tab):
    the same first page, sections, coloured full text and passages as a screened submission's.

    The template and excluded text are the ones the check used (carried by its comparisons), or,
    when nothing was found, the collection's template model applied to the text again."""
    if result.skipped_reason:
        raise ValueError(f"{os.path.basename(result.path)} could not be read: {result.skipped_reason}")
    for m in result.matches:  # (a check of another index: its sources are read by their numbers)
        collection.same_document(m.source)
    if result.matches:
        first = result.matches[0].comparison
        template, excluded = first.template_a, first.excluded_a
    else:
        marked = collection.verifier(settings).mark(result.text, hidden=result.hidden)
        template, excluded = marked.template, marked.excluded
    from neardup_gui.core.exclusions import quoted_spans

    sources = tuple(ScreenedSource(
        rank=i, kind=COLLECTION, doc_id=m.source.doc_id, path=m.source.path, name=m.source.rel or m.source.path,
        similarity=m.comparison.similarity, containment=m.comparison.containment_a,
        source_containment=m.comparison.containment_b, common_units=m.comparison.common_units,
        units_a=m.comparison.units_a, units_b=m.comparison.units_b, spans=m.comparison.spans,
        passages=m.comparison.passages, indexed_at=m.source.indexed_at, sha256=m.source.sha256,
        applicants=m.source.applicants, same_applicant=m.same_applicant, decision=m.decision, excluded=set_apart(m))
        for i, m in enumerate(result.matches, 1))
    try:
        st = os.stat(result.path)
        size, mtime = st.st_size, st.st_mtime_ns
    except OSError:
        size, mtime = -1, 0
    now = datetime.now(timezone.utc).timestamp()
    info = ScreeningInfo(id=0, name="", folder=os.path.dirname(result.path), state="done", created=now, updated=now,
                         flag=DEFAULT_FLAG)
    row = ScreeningRow(os.path.basename(result.path), result.path, size, mtime, result.sha256, 0, "done",
                       units=result.units, flags=result.flags, applicants=result.applicants)
    detail = SubmissionDetail(info, row, result.text, tuple(template), tuple(excluded), quoted_spans(result.text),
                              sources, result.hidden, result.applicants)
    return _report(collection.store, detail, settings, lang, enabled, call_submissions=0)


def _report(store: Store, detail: SubmissionDetail, settings: Settings, lang: str, enabled: set[int] | None, *,
            call_submissions: int) -> SubmissionReport:
    from neardup_gui.core.report.strings import translator

    t = translator(lang)
    rel = detail.row.rel
    row = detail.row
    counted = detail.counted(enabled)  # each with its credit among them
    counted_ranks = {s.rank for s in counted}
    credit_of = {s.rank: s.credit for s in counted}
    summary = detail.summary({s.rank for s in counted})
    size, sha = file_identity(row.path)
    document = DocRef(path=row.path, name=row.rel, size=size if size >= 0 else row.size, sha256=sha or row.sha256,
                      units=row.units, format=os.path.splitext(row.path)[1].lstrip(".").lower(), submission=True,
                      flags=row.flags)
    # numbered in rank order: number i is colour i - 1 in the text and the side-by-side passages
    number = {s.rank: i for i, s in enumerate(detail.sources, 1)}
    entries = []
    for s in detail.sources:
        entries.append(SourceEntry(
            number=number[s.rank], kind=s.kind,
            document=DocRef(path=s.path, name=s.name, size=-1, sha256=_source_sha(store, detail, s), units=s.units_b),
            containment=s.containment, similarity=s.similarity, source_containment=s.source_containment,
            common_units=s.common_units, excluded=s.rank not in counted_ranks,
            credited=credit_of[s.rank].share if s.rank in credit_of else 0.0,
            also_in=tuple(sorted({o for names in (credit_of[s.rank].also_in if s.rank in credit_of else ())
                                  for o in names})),
            applicants=s.applicants.text(), applicants_source=s.applicants.source, same_applicant=s.same_applicant,
            decision=s.decision))
    secs = find_sections(detail.text, detail.template)
    figs = section_figures(detail.units, secs, [(s.name, s.credit.spans) for s in counted],
                           detail.template, detail.excluded)
    sections = tuple(SectionRow(f.section.title, f.units, f.countable, f.copied, f.share, f.largest_source)
                     for f in figs)
    # the full text: every counted source's passages in its source's colour, the edited words
    # inside them in the lighter shade (as the submission view shows them)
    runs, pieces = coloured_runs(counted)
    marks = _Marks([span for span, _ in runs], detail.template, detail.excluded, owners=[k for _, k in runs],
                   edited=[(span, k) for k, (span, _, _) in enumerate(pieces)])
    full = tuple(Segment(seg.text, seg.kind, number[pieces[seg.match][1]] - 1 if seg.match >= 0 else -1)
                 for seg in segments(detail.text, (0, len(detail.text)), (), detail.template, detail.excluded,
                                     marks=marks))
    side = []
    for s in counted[:MAX_SIDE_BY_SIDE_SOURCES]:
        try:
            text_b = source_text(store, detail, s)
        except (KeyError, OSError) as exc:  # the source left the collection since
            log.warning("source %s of %s cannot be quoted: %s", s.path, rel, exc)
            continue
        comp = s.comparison(detail.template, detail.excluded)
        side.append(SourcePassages(number[s.rank], entries[number[s.rank] - 1].document,
                                   passages(detail.text, text_b, comp)))
    copied_units = int(round(summary.copied_ratio_without_template * sum(f.countable for f in figs)))
    return SubmissionReport(
        lang=lang, title=t("submission_title"), created=_now(), app_version=__version__,
        checked=_iso(detail.screening.updated), screening=detail.screening.name, flag=detail.screening.flag,
        flagged=summary.copied_from_others >= detail.screening.flag,
        document=document, units=row.units, copied=summary.copied_ratio_without_template,
        copied_overall=summary.copied_ratio, copied_without_quotes=summary.copied_ratio_without_quotes,
        largest=summary.largest_source_ratio, largest_source=summary.largest_source, copied_units=copied_units,
        template_share=summary.template_share, collection_documents=_collection_documents(store),
        call_submissions=call_submissions, warnings=row.warnings, sections=sections,
        sources=tuple(entries), full_text=full, cjk=cjk_share(detail.text[:4000]) > 0.3,
        side_by_side=tuple(side), settings=settings_dict(settings), index_path=str(store.path),
        collection_folder=store.get_meta("folder") or "", applicants=detail.applicants.text(),
        applicants_source=detail.applicants.source, copied_from_others=summary.copied_from_others,
        copied_from_own=summary.copied_from_own, set_apart=summary.set_apart,
        resubmission_of=next((s.name for s in detail.sources if s.path == summary.resubmission_of), ""))


def _source_sha(store: Store, detail: SubmissionDetail, s: ScreenedSource) -> str:
    if s.kind == COLLECTION:
        return doc_rows.sha256_of(store, s.doc_id)
    return screenings.sha256_at(store, detail.screening.id, s.path)


def build_screening_report(store: Store, screening: str | int, settings: Settings, *, lang: str = "en") -> ScreeningReport:
    """The ranked table of a call, in ``lang``."""
    from neardup_gui.core.report.strings import translator

    s: Screening = load_screening(store, screening)
    return ScreeningReport(lang=lang, title=translator(lang)("screening_title", name=s.info.name), created=_now(),
                           app_version=__version__, checked=_iso(s.info.updated), info=s.info, rows=s.rows,
                           collection_documents=_collection_documents(store), settings=settings_dict(settings),
                           index_path=str(store.path))


def default_report_name(report: SubmissionReport | ScreeningReport, ext: str) -> str:
    """A file name a committee recognises: the submission's or the call's name, what it is, the date."""
    day = report.created[:10]
    if isinstance(report, SubmissionReport):
        stem = os.path.splitext(os.path.basename(report.document.name))[0]
        what = "相似性检测报告" if report.lang.startswith("zh") else "similarity report"
    else:
        stem = report.info.name
        what = "批量检测报告" if report.lang.startswith("zh") else "screening report"
    safe = "".join("_" if c in '/\\:*?"<>|' else c for c in stem).strip() or "report"
    return f"{safe} - {what} {day}.{ext}"


# --- CSV and JSON -------------------------------------------------------------------------------

SUBMISSION_CSV_COLUMNS = (
    "submission", "submission_path", "submission_sha256", "units", "copied_ratio", "copied_ratio_without_quotes",
    "copied_ratio_with_template", "largest_source_ratio", "copied_units", "template_share", "flagged",
    "source_number", "source", "source_path", "found_in", "source_share", "source_holds", "similarity",
    "common_units", "source_excluded", "flags",
    # whose: the submission's applicants, its split, and each source's applicants and decision
    "applicants", "copied_from_others", "copied_from_own", "set_apart_ratio", "resubmission_of",
    "source_applicants", "same_applicant", "decision", "decision_note", "decided_at", "decision_applied",
)
SCREENING_CSV_COLUMNS = (
    "rank", "submission", "path", "status", "reason", "units", "copied_ratio", "copied_ratio_without_quotes",
    "copied_ratio_with_template", "largest_source_ratio", "largest_source", "sources", "template_share", "flagged",
    "warnings", "sha256", "flags",
    "applicants", "copied_from_others", "copied_from_own", "set_apart_ratio", "resubmission_of",
    "decided_sources", "undecided_sources",
)


def committee_csv(report: SubmissionReport | ScreeningReport) -> str:
    """CSV text: a screening's one row per submission; a submission's one row per source (its own
    figures on every row, and one row without a source when none was found)."""
    import csv
    import io

    from neardup_gui.core.report.csv import neutralise

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    f = "{:.6f}".format
    if isinstance(report, ScreeningReport):
        writer.writerow(SCREENING_CSV_COLUMNS)
        for i, r in enumerate(report.rows, 1):
            writer.writerow([neutralise(v) for v in (
                i, r.rel, r.path, r.status, r.reason, r.units, f(r.copied), f(r.copied_without_quotes),
                f(r.copied_overall), f(r.largest), r.largest_source, r.sources, f(r.template_share),
                int(r.flagged(report.info.flag)), "; ".join(r.warnings), r.sha256, flags_csv(r.flags),
                r.applicants.text(), f(r.copied_from_others), f(r.copied_from_own), f(r.set_apart), r.resubmission_of,
                r.decided, r.undecided)])
        return out.getvalue()
    writer.writerow(SUBMISSION_CSV_COLUMNS)
    head = (report.document.name, report.document.path, report.document.sha256, report.units, f(report.copied),
            f(report.copied_without_quotes), f(report.copied_overall), f(report.largest), report.copied_units,
            f(report.template_share), int(report.flagged))
    for e in report.sources or [None]:
        tail = ("", "", "", "", "", "", "", "", "") if e is None else (
            e.number, e.document.name, e.document.path, e.kind, f(e.credited), f(e.containment), f(e.similarity),
            e.common_units, int(e.excluded))
        tail += (flags_csv(report.document.flags),)
        tail += (report.applicants, f(report.copied_from_others), f(report.copied_from_own), f(report.set_apart),
                 report.resubmission_of)
        d = e.decision if e is not None else None
        tail += ("", "", "", "", "", "") if e is None else (
            e.applicants, int(e.same_applicant), d.choice if d else "", d.note if d else "", d.date() if d else "",
            "" if d is None else int(not d.changed))
        writer.writerow([neutralise(v) for v in head + tail])
    return out.getvalue()


COMMITTEE_SCHEMA = "neardup-committee-report/1"


def committee_json(report: SubmissionReport | ScreeningReport) -> dict[str, Any]:
    """The report as plain JSON data (``kind``: submission or screening)."""
    from dataclasses import asdict

    data = asdict(report)
    if isinstance(report, ScreeningReport):
        for row, r in zip(data["rows"], report.rows):
            row["flagged"] = r.flagged(report.info.flag)
    return {"schema": COMMITTEE_SCHEMA, "kind": "screening" if isinstance(report, ScreeningReport) else "submission",
            **data}
