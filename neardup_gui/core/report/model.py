"""The report document model: what was compared, with which settings, what was found, and the passages.

One :class:`Report` is built from a scope — a check of submissions against the collection, the
collection's near-duplicate pairs, or its clusters — and every output format (HTML, PDF, CSV,
JSON) renders that same model, so the four files always say the same thing.

Each reported pair quotes its matched passages side by side: the matched text of A and of B with
some surrounding context, cut into :class:`Segment` runs that say whether a character is part of
match ``i`` (coloured ``i`` on both sides), template text or excluded text (shown muted, never
counted), or plain context.
"""

from __future__ import annotations

import bisect
import hashlib
import logging
import os
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Sequence

from neardup_gui import __version__
from neardup_gui.core.flags import Flag
from neardup_gui.core.folding import is_format
from neardup_gui.core.document import CharSpan
from neardup_gui.core.indexer import unfinished
from neardup_gui.core.progress import ProgressFn, no_progress, wrap_progress
from neardup_gui.core.results import CheckResult, Cluster, Comparison, Decision, DocumentInfo, Pair
from neardup_gui.core.settings import Settings
from neardup_gui.core.units import cjk_share

if TYPE_CHECKING:
    from neardup_gui.core.collection import Collection

log = logging.getLogger(__name__)

SCOPES = ("check", "pairs", "clusters")

# Characters of context shown before and after each matched passage.
CONTEXT_CHARS = 80
# A matched passage longer than this is quoted by its beginning and end with the middle elided
# (the offsets of the whole passage stay in the report): a whole-document copy would otherwise
# repeat both documents in full for every pair.
MAX_QUOTE_CHARS = 1600

# Segment kinds
PLAIN = "plain"
MATCH = "match"
TEMPLATE = "template"
EXCLUDED = "excluded"
ELIDED = "elided"
EDITED = "edited"  # inside an edited passage, between its exact runs: the words changed


@dataclass(frozen=True)
class DocRef:
    """A document as the report names it: where it is and which exact file it was."""

    path: str  # absolute path as indexed or as given
    name: str  # relative to the collection folder, or the file name for a submission
    size: int  # bytes; -1 when the file could not be read
    sha256: str  # of the file's bytes; "" when the file could not be read
    units: int = 0
    format: str = ""
    submission: bool = False  # a checked file, not a document of the collection
    warnings: tuple[str, ...] = ()  # intake: read only in part or leniently (indexed with warnings)
    flags: tuple[Flag, ...] = ()  # integrity flags (core/flags.py), their places as character spans


@dataclass(frozen=True)
class Segment:
    """A run of quoted text with one kind: plain, match or edited (with its index), template, excluded, elided."""

    text: str
    kind: str = PLAIN
    match: int = -1  # index of the passage (its colour) when kind is "match" or "edited"


@dataclass(frozen=True)
class Passage:
    """One matched passage — a copied section, edits included — quoted from both documents with context.

    From a comparison with edited passages one entry is one copied section: its exact
    runs are ``match`` segments, the edited words between them ``edited`` segments of the same index.
    An older record without passages gives one entry per exact run and ``runs`` stays empty.
    """

    index: int  # index of the passage in the comparison: colour ``index`` on both sides
    units: int  # units inside its exact runs (the matched units)
    span_a: CharSpan
    span_b: CharSpan
    a: tuple[Segment, ...]
    b: tuple[Segment, ...]
    cjk_a: bool = False  # mostly Chinese: the renderer tags it so CJK glyphs are chosen
    cjk_b: bool = False
    units_a: int = 0  # countable units of A the passage covers, edits included (0: an exact run only)
    units_b: int = 0
    matched_units: int = 0  # = units
    runs: tuple[tuple[CharSpan, CharSpan, int], ...] = ()  # the exact runs inside: (a span, b span, units)
    moved: bool = False  # found out of the other text's order (a paragraph moved): quoted from its own place


@dataclass(frozen=True)
class ReportPair:
    """One reported pair: both documents, the exact comparison figures, the passages."""

    rank: int  # 1-based, in report order (best first within the scope's grouping)
    group: str  # what the pair belongs to: the submission's name, "cluster N" or ""
    a: DocRef
    b: DocRef
    similarity: float
    containment_a: float  # share of A found in B
    containment_b: float  # share of B found in A
    common_units: int
    units_a: int
    units_b: int
    template_share_a: float
    template_share_b: float
    excluded_share_a: float
    excluded_share_b: float
    raw_lcs: int
    passages: tuple[Passage, ...]
    estimate: float | None = None  # fingerprint estimate that made it a candidate (check only)
    found_by: tuple[str, ...] = ()
    # units of each side that each exclusion removed (Exclusions.as_dict())
    exclusions_a: dict[str, int] = field(default_factory=dict)
    exclusions_b: dict[str, int] = field(default_factory=dict)
    same_applicant: bool = False  # both documents one applicant's: own work, not copying
    decision: dict | None = None  # the examiner's decision on the two texts (Decision.to_json())


@dataclass(frozen=True)
class SubmissionSummary:
    """The CNKI-style figures of one checked submission."""

    document: DocRef
    units: int
    copied_ratio: float
    copied_ratio_without_quotes: float
    copied_ratio_without_template: float
    largest_source_ratio: float
    largest_source: str
    template_share: float
    quoted_share: float
    sources: int
    skipped_reason: str = ""
    # whose: its applicants, and copied_ratio split by whose the credited text is (CNKI's
    # 去除本人文献复制比 is copied_from_others)
    applicants: str = ""
    copied_from_others: float = 0.0
    copied_from_own: float = 0.0


@dataclass(frozen=True)
class ClusterSummary:
    """One cluster: its representative first, each member's similarity to it."""

    number: int
    members: tuple[DocRef, ...]
    similarities: tuple[float, ...]
    ring: bool = False  # 3 or more members, every pair at or above the threshold
    pairwise: tuple[tuple[float | None, ...], ...] = ()  # every pair of members, in members' order


@dataclass(frozen=True)
class ReportSummary:
    """What was compared and how: enough to reproduce the finding."""

    title: str
    scope: str
    created: str  # ISO 8601, UTC
    app_version: str
    collection_folder: str
    index_path: str
    index_size: int  # bytes of the index file
    settings: dict[str, Any]  # every field of Settings, FingerprintParams and ExtractLimits, nested
    counts: dict[str, int]
    # the folder whose last indexing stopped before its end ("" when it ended): the files not
    # yet indexed were not compared, and the report says so
    index_unfinished: str = ""


@dataclass(frozen=True)
class ExcludedPassage:
    """A common passage the comparison leaves out, and why."""

    text: str
    documents: int
    status: str  # template-file | marked | automatic
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReportExclusions:
    """Which exclusions applied and what they took out: the rules, the units removed
    (summed over the documents reported, each once), and every common passage left out."""

    rules: dict[str, Any]
    units: dict[str, int]
    passages: tuple[ExcludedPassage, ...] = ()


@dataclass(frozen=True)
class Report:
    """The whole report document; every format renders this."""

    summary: ReportSummary
    pairs: tuple[ReportPair, ...]
    submissions: tuple[SubmissionSummary, ...] = ()
    clusters: tuple[ClusterSummary, ...] = field(default=())
    exclusions: ReportExclusions | None = None
    lang: str = "en"  # the language its words are written in (strings.LANGUAGES); the data is the same


# --- building ---------------------------------------------------------------------------------


def file_identity(path: str) -> tuple[int, str]:
    """Size and sha256 of a file's bytes; (-1, "") when it cannot be read any more."""
    h = hashlib.sha256()
    try:
        size = 0
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
                size += len(block)
    except OSError as exc:
        log.warning("cannot read %s for the report: %s", path, exc)
        return -1, ""
    return size, h.hexdigest()


def doc_ref(info: DocumentInfo) -> DocRef:
    return DocRef(path=info.path, name=info.rel or os.path.basename(info.path), size=info.size,
                  sha256=info.sha256, units=info.units, format=info.format, warnings=tuple(info.warnings),
                  flags=info.flags)


def submission_ref(result: CheckResult) -> DocRef:
    size, sha = file_identity(result.path)
    ext = os.path.splitext(result.path)[1].lstrip(".").lower()
    return DocRef(path=result.path, name=os.path.basename(result.path), size=size, sha256=sha,
                  units=result.units, format=ext, submission=True, warnings=tuple(result.warnings),
                  flags=result.flags)


FLAG_PLACES_SHOWN = 12  # places quoted for each flag in a report (all of them are in its JSON)


def flags_csv(flags: Sequence[Flag]) -> str:
    """Flags in a CSV cell: "replaced:212; hidden:1030"."""
    return "; ".join(f"{f.kind}:{f.count}" for f in flags)


def flag_places(text: str, flag: Flag, limit: int = FLAG_PLACES_SHOWN) -> tuple[list[str], int]:
    """The first ``limit`` places of a flag as the reader finds them in the text — the word
    around each (hidden text as it is, an invisible character shown as "·") — and how many more."""
    shown: list[str] = []
    for a, b in flag.spans[:limit]:
        lo, hi = a, b
        if flag.kind != "hidden":
            while lo > 0 and lo > a - 30 and (text[lo - 1].isalnum() or is_format(text[lo - 1])):
                lo -= 1
            while hi < len(text) and hi < b + 30 and (text[hi].isalnum() or is_format(text[hi])):
                hi += 1
        shown.append("".join("·" if is_format(c) else c for c in text[lo:hi][:80]))
    return shown, max(len(flag.spans) - limit, 0)


class _Marks:
    """The spans that colour a text, sorted, so a window finds the few it overlaps by bisection."""

    def __init__(self, spans: Sequence[CharSpan], template: Sequence[CharSpan], excluded: Sequence[CharSpan],
                 owners: Sequence[int] | None = None, edited: Sequence[tuple[CharSpan, int]] = ()) -> None:
        # an edited passage's whole span ranks lowest: its runs, template and excluded text show through
        marks = [(s, e, 0, EDITED, i) for (s, e), i in edited]
        marks += [(s, e, 1, EXCLUDED, -1) for s, e in excluded]
        marks += [(s, e, 2, TEMPLATE, -1) for s, e in template]
        marks += [(s, e, 3, MATCH, i if owners is None else owners[i]) for i, (s, e) in enumerate(spans)]
        marks.sort()
        self.marks = marks
        self.starts = [m[0] for m in marks]
        # the longest mark bounds how far left of a window an overlapping mark can start
        self.longest = max((m[1] - m[0] for m in marks), default=0)

    def overlapping(self, lo: int, hi: int) -> list[tuple[int, int, int, str, int]]:
        first = bisect.bisect_left(self.starts, lo - self.longest)
        last = bisect.bisect_left(self.starts, hi)
        return [(max(s, lo), min(e, hi), p, k, i) for s, e, p, k, i in self.marks[first:last] if e > lo and s < hi]


def segments(text: str, window: CharSpan, spans: Sequence[CharSpan], template: Sequence[CharSpan],
             excluded: Sequence[CharSpan], *, marks: _Marks | None = None) -> tuple[Segment, ...]:
    """Cut ``text[window]`` into runs of one kind each.

    A match outranks template and excluded text (the diff view paints matches last, too), and
    each match keeps its own index, so a neighbouring match inside the context shows its colour.
    """
    lo, hi = window
    if hi <= lo:
        return ()
    found = (marks or _Marks(spans, template, excluded)).overlapping(lo, hi)
    cuts = sorted({lo, hi, *(m[0] for m in found), *(m[1] for m in found)})
    out: list[Segment] = []
    for start, end in zip(cuts, cuts[1:]):
        best = max((m for m in found if m[0] <= start and m[1] >= end), key=lambda m: m[2], default=None)
        kind, idx = (best[3], best[4]) if best else (PLAIN, -1)
        piece = text[start:end]
        if out and out[-1].kind == kind and out[-1].match == idx:
            out[-1] = Segment(out[-1].text + piece, kind, idx)
        else:
            out.append(Segment(piece, kind, idx))
    return tuple(out)


def quote(text: str, span: CharSpan, spans: Sequence[CharSpan], template: Sequence[CharSpan],
          excluded: Sequence[CharSpan], context: int = CONTEXT_CHARS,
          max_chars: int = MAX_QUOTE_CHARS, bounds: CharSpan | None = None,
          marks: _Marks | None = None) -> tuple[Segment, ...]:
    """The passage ``span`` of ``text`` with its context, a long middle elided and marked as such.

    ``bounds`` keeps the context inside the gap between the neighbouring passages: the text that
    differs is shown, the neighbours are not quoted again (they have their own rows).
    """
    start, end = span
    floor, ceiling = bounds if bounds is not None else (0, len(text))
    lo = _snap(text, max(floor, start - context), forward=True, limit=start)
    hi = _snap(text, min(ceiling, end + context), forward=False, limit=end)
    while lo < start and text[lo].isspace():  # no blank first or last line in the quote
        lo += 1
    while hi > end and text[hi - 1].isspace():
        hi -= 1
    args = (spans, template, excluded)
    marks = marks or _Marks(spans, template, excluded)
    if end - start <= max_chars:
        return segments(text, (lo, hi), *args, marks=marks)
    half = max_chars // 2
    cut_a = _snap(text, start + half, forward=False, limit=start + half // 2)
    cut_b = _snap(text, end - half, forward=True, limit=end - half // 2)
    head = segments(text, (lo, cut_a), *args, marks=marks)
    tail = segments(text, (cut_b, hi), *args, marks=marks)
    gap = Segment(f" [… {cut_b - cut_a} characters of this passage not shown …] ", ELIDED)
    return head + (gap,) + tail


def _snap(text: str, pos: int, *, forward: bool, limit: int, reach: int = 24) -> int:
    """Move a cut to the nearest white space (within ``reach``, not past ``limit``): no half words.

    Chinese text has no spaces, so there the cut simply stays where it was.
    """
    if pos <= 0 or pos >= len(text) or text[pos - 1].isspace() or text[pos].isspace():
        return pos
    step = 1 if forward else -1
    for i in range(1, reach + 1):
        q = pos + step * i
        if (forward and q > limit) or (not forward and q < limit) or q <= 0 or q >= len(text):
            break
        if text[q - 1].isspace():
            return q
    return pos


def passages(text_a: str, text_b: str, comp: Comparison, *, context: int = CONTEXT_CHARS,
             max_chars: int = MAX_QUOTE_CHARS) -> tuple[Passage, ...]:
    """Every passage of ``comp`` quoted from both texts: one entry per edited passage (its exact
    runs and the edited words between them), or per exact run for a record without passages."""
    if not comp.passages:
        return _run_passages(text_a, text_b, comp, context=context, max_chars=max_chars)
    runs = [(r, i) for i, p in enumerate(comp.passages) for r in p.runs]
    run_a = [tuple(r.a) for r, _ in runs]
    run_b = [tuple(r.b) for r, _ in runs]
    owners = [i for _, i in runs]
    spans_a = [tuple(p.a) for p in comp.passages]
    spans_b = [tuple(p.b) for p in comp.passages]
    marks_a = _Marks(run_a, comp.template_a, comp.excluded_a, owners, [(s, i) for i, s in enumerate(spans_a)])
    marks_b = _Marks(run_b, comp.template_b, comp.excluded_b, owners, [(s, i) for i, s in enumerate(spans_b)])
    gaps_a = _gaps(spans_a, len(text_a))
    gaps_b = _gaps(spans_b, len(text_b))
    out = []
    for i, p in enumerate(comp.passages):
        qa = quote(text_a, p.a, run_a, comp.template_a, comp.excluded_a, context, max_chars, gaps_a[i], marks_a)
        qb = quote(text_b, p.b, run_b, comp.template_b, comp.excluded_b, context, max_chars, gaps_b[i], marks_b)
        out.append(Passage(index=i, units=p.matched_units, span_a=tuple(p.a), span_b=tuple(p.b), a=qa, b=qb,
                           cjk_a=cjk_share(text_a[p.a[0]:p.a[1]]) > 0.3,
                           cjk_b=cjk_share(text_b[p.b[0]:p.b[1]]) > 0.3,
                           units_a=p.units_a, units_b=p.units_b, matched_units=p.matched_units,
                           runs=tuple((tuple(r.a), tuple(r.b), r.units) for r in p.runs), moved=p.moved))
    return tuple(out)


def _run_passages(text_a: str, text_b: str, comp: Comparison, *, context: int, max_chars: int) -> tuple[Passage, ...]:
    """Every exact run of ``comp`` quoted from both texts (records made before edited passages)."""
    spans_a = [tuple(s.a) for s in comp.spans]
    spans_b = [tuple(s.b) for s in comp.spans]
    marks_a = _Marks(spans_a, comp.template_a, comp.excluded_a)
    marks_b = _Marks(spans_b, comp.template_b, comp.excluded_b)
    gaps_a = _gaps(spans_a, len(text_a))
    gaps_b = _gaps(spans_b, len(text_b))
    out = []
    for i, s in enumerate(comp.spans):
        qa = quote(text_a, s.a, spans_a, comp.template_a, comp.excluded_a, context, max_chars, gaps_a[i], marks_a)
        qb = quote(text_b, s.b, spans_b, comp.template_b, comp.excluded_b, context, max_chars, gaps_b[i], marks_b)
        out.append(Passage(index=i, units=s.units, span_a=tuple(s.a), span_b=tuple(s.b), a=qa, b=qb,
                           cjk_a=cjk_share(text_a[s.a[0]:s.a[1]]) > 0.3,
                           cjk_b=cjk_share(text_b[s.b[0]:s.b[1]]) > 0.3, matched_units=s.units))
    return tuple(out)


def _gaps(spans: Sequence[CharSpan], length: int) -> list[CharSpan]:
    """For each span, the room its context may use: from the end of the passage before it (in text
    order) to the start of the one after, so neighbours are not quoted again (they have their rows)."""
    order = sorted(range(len(spans)), key=lambda i: spans[i])
    room: list[CharSpan] = [(0, length)] * len(spans)
    for k, i in enumerate(order):
        before = spans[order[k - 1]][1] if k > 0 else 0
        after = spans[order[k + 1]][0] if k + 1 < len(order) else length
        room[i] = (min(before, spans[i][0]), max(after, spans[i][1]))
    return room


def report_pair(rank: int, group: str, a: DocRef, b: DocRef, comp: Comparison, text_a: str, text_b: str,
                *, estimate: float | None = None, found_by: Sequence[str] = (), same_applicant: bool = False,
                decision: Decision | None = None) -> ReportPair:
    return ReportPair(
        rank=rank, group=group, a=a, b=b, similarity=comp.similarity, containment_a=comp.containment_a,
        containment_b=comp.containment_b, common_units=comp.common_units, units_a=comp.units_a,
        units_b=comp.units_b, template_share_a=comp.template_share_a, template_share_b=comp.template_share_b,
        excluded_share_a=comp.excluded_share_a, excluded_share_b=comp.excluded_share_b, raw_lcs=comp.raw_lcs,
        passages=passages(text_a, text_b, comp), estimate=estimate, found_by=tuple(found_by),
        exclusions_a=comp.exclusions_a.as_dict(), exclusions_b=comp.exclusions_b.as_dict(),
        same_applicant=same_applicant, decision=decision.to_json() if decision is not None else None,
    )


def settings_dict(settings: Settings) -> dict[str, Any]:
    """Every setting, nested as in :class:`Settings` (tuples as lists, so JSON keeps them)."""

    def plain(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return value

    return plain(asdict(settings))


def flat_settings(settings: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """``settings_dict`` as dotted names and values (``fingerprints.minhash_bits``), in field order."""
    rows: list[tuple[str, Any]] = []
    for key, value in settings.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            rows.extend(flat_settings(value, name + "."))
        else:
            rows.append((name, value))
    return rows


class _Texts:
    """Stored texts of the collection, each read once while the report is built."""

    def __init__(self, collection: Collection) -> None:
        self._collection = collection
        self._cache: dict[int, str] = {}

    def __call__(self, doc_id: int) -> str:
        if doc_id not in self._cache:
            if len(self._cache) > 256:
                self._cache.clear()
            self._cache[doc_id] = self._collection.document_text(doc_id)
        return self._cache[doc_id]


def build_report(collection: Collection, scope: str, settings: Settings, *, items: Sequence[Any] | None = None,
                 progress: ProgressFn = no_progress, title: str = "", lang: str = "en") -> Report:
    """Build the report of ``scope`` over ``collection`` (a :class:`Collection`).

    ``items`` chooses what is reported: for ``"check"`` the :class:`CheckResult` list (required);
    for ``"pairs"`` a list of :class:`Pair` and for ``"clusters"`` a list of :class:`Cluster`
    (default: the collection's own at ``settings.threshold``, computed here). ``lang``: the
    language of the report's words (its headings, labels and default title).
    """
    if scope not in SCOPES:
        raise ValueError(f"unknown report scope {scope!r} (one of {', '.join(SCOPES)})")
    from neardup_gui.core.report.strings import translator

    texts = _Texts(collection)
    t = translator(lang)

    def cluster_name(number: int) -> str:
        return t("r_cluster_n", n=number)

    pairs: list[ReportPair] = []
    submissions: list[SubmissionSummary] = []
    clusters: list[ClusterSummary] = []
    if scope == "check":
        if items is None:
            raise ValueError("a check report needs the check results")
        results: list[CheckResult] = list(items)
        total = sum(len(r.matches) for r in results) or 1
        done = 0
        for info in {m.source.doc_id: m.source for r in results for m in r.matches}.values():
            collection.same_document(info)  # (results of another index: read by their numbers)
        for r in results:
            sub = submission_ref(r)
            s = r.summary
            submissions.append(SubmissionSummary(
                document=sub, units=r.units, copied_ratio=s.copied_ratio,
                copied_ratio_without_quotes=s.copied_ratio_without_quotes,
                copied_ratio_without_template=s.copied_ratio_without_template,
                largest_source_ratio=s.largest_source_ratio, largest_source=s.largest_source,
                template_share=s.template_share, quoted_share=s.quoted_share, sources=len(r.matches),
                skipped_reason=r.skipped_reason, applicants=r.applicants.text(),
                copied_from_others=s.copied_from_others, copied_from_own=s.copied_from_own))
            for m in r.matches:
                progress(done / total, f"Quoting {m.source.rel}")
                pairs.append(report_pair(len(pairs) + 1, sub.name, sub, doc_ref(m.source), m.comparison,
                                         r.text, texts(m.source.doc_id), estimate=m.estimate, found_by=m.found_by,
                                         same_applicant=m.same_applicant, decision=m.decision))
                done += 1
    elif scope == "pairs":
        chosen: list[Pair] = list(items) if items is not None else collection.pairs(settings, wrap_progress(progress, 0.0, 0.5))
        for info in {d.doc_id: d for p in (items or ()) for d in (p.a, p.b)}.values():
            collection.same_document(info)  # (pairs shown before the index was rebuilt: read by their numbers)
        quoting = wrap_progress(progress, 0.0 if items is not None else 0.5, 1.0)
        for n, p in enumerate(chosen):
            quoting(n / max(len(chosen), 1), f"Comparing {p.a.rel} and {p.b.rel}")
            comp = collection.compare(p.a.doc_id, p.b.doc_id, settings)
            pairs.append(report_pair(n + 1, "", doc_ref(p.a), doc_ref(p.b), comp,
                                     texts(p.a.doc_id), texts(p.b.doc_id), same_applicant=p.same_applicant,
                                     decision=p.decision))
    else:
        chosen_c: list[Cluster] = list(items) if items is not None else collection.clusters(settings, wrap_progress(progress, 0.0, 0.5))
        for info in {d.doc_id: d for c in (items or ()) for d in c.members}.values():
            collection.same_document(info)
        quoting = wrap_progress(progress, 0.0 if items is not None else 0.5, 1.0)
        total = sum(len(c.members) - 1 for c in chosen_c) or 1
        done = 0
        for number, c in enumerate(chosen_c, 1):
            clusters.append(ClusterSummary(number, tuple(doc_ref(m) for m in c.members), tuple(c.similarities),
                                           ring=c.ring, pairwise=tuple(c.pairwise)))
            rep = c.representative
            for m in c.members:
                if m.doc_id == rep.doc_id:
                    continue
                quoting(done / total, f"Comparing {rep.rel} and {m.rel}")
                comp = collection.compare(rep.doc_id, m.doc_id, settings)
                pairs.append(report_pair(len(pairs) + 1, cluster_name(number), doc_ref(rep), doc_ref(m), comp,
                                         texts(rep.doc_id), texts(m.doc_id)))
                done += 1
    progress(1.0, "Report ready")
    summary = _summary(collection, scope, settings, title, lang, pairs, submissions, clusters)
    return Report(summary=summary, pairs=tuple(pairs), submissions=tuple(submissions), clusters=tuple(clusters),
                  exclusions=_exclusions(collection, settings, pairs), lang=lang)


def _summary(collection: Collection, scope: str, settings: Settings, title: str, lang: str,
             pairs: Sequence[ReportPair], submissions: Sequence[SubmissionSummary],
             clusters: Sequence[ClusterSummary]) -> ReportSummary:
    """The report's first facts: what was reported, when, by which version, of which index."""
    stats = collection.stats()
    counts = {
        "documents": stats.get("documents", 0),
        "indexed": stats.get("indexed", 0),
        "with_warnings": stats.get("with_warnings", 0),  # indexed, but read only in part or leniently
        "skipped": stats.get("skipped", 0),
        "pairs": len(pairs),
        "passages": sum(len(p.passages) for p in pairs),
        "submissions": len(submissions),
        "clusters": len(clusters),
    }
    db = str(collection.db_path)
    # SQLite in WAL mode keeps recent pages beside the file: the index is both
    index_size = sum(os.path.getsize(f) for f in (db, db + "-wal") if os.path.exists(f)) if os.path.exists(db) else -1
    return ReportSummary(
        title=title or _default_title(scope, lang),
        scope=scope,
        created=datetime.now(timezone.utc).replace(microsecond=0).isoformat(),
        app_version=__version__,
        collection_folder=collection.folder or "",
        index_path=db,
        index_size=index_size,
        settings=settings_dict(settings),
        counts=counts,
        index_unfinished=unfinished(collection.store),
    )


def _exclusions(collection: Collection, settings: Settings, pairs: Sequence[ReportPair]) -> ReportExclusions:
    """The exclusions section: rules, units removed, the common passages left out."""
    from neardup_gui.core.common_passages import common_passages, exclusion_rules

    units: dict[str, int] = {}
    seen: set[str] = set()
    for p in pairs:
        for ref, counts in ((p.a, p.exclusions_a), (p.b, p.exclusions_b)):
            if ref.path not in seen:
                seen.add(ref.path)
                for kind, n in counts.items():
                    units[kind] = units.get(kind, 0) + n
    left_out = tuple(ExcludedPassage(c.text, c.documents, c.status, c.names)
                     for c in common_passages(collection, settings) if c.status != "counted")
    return ReportExclusions(rules=exclusion_rules(collection, settings), units=units, passages=left_out)


def _default_title(scope: str, lang: str = "en") -> str:
    from neardup_gui.core.report.strings import translator

    return translator(lang)(f"r_title_{scope}")
