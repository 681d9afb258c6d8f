"""Screening a call: every submission of a folder checked against the collection and against each other.

A *screening* is named (a call: "NSFC 2026 youth fund") and kept in the collection's index, so
the examiner can close the app and reopen the ranked table later. The submissions themselves are
indexed into the screening's own index file beside the collection's (``<index>.screenings/N.ndx``):
a plain neardup index of the submissions folder, so reading them is incremental (a second run
reads only new and changed files) and each submission is checked against the others with the
same candidate search and exact verification as against the collection
(:meth:`Collection.check_document` on both indexes).

The template model of a screening is the collection's (the same as checks and pairs use) plus the
call's own form: the automatic rule applied to the call's submissions alone, so the application
form that (nearly) every proposal of the call shares does not count as copying, while a passage a
few applicants copied does.

Resumable: each submission's row is written in its own transaction as soon as it is checked; a
cancelled or killed run, started again with the same name, checks only the submissions that have
no row yet, as long as the collection, the call's files and the settings are the same (the
screening's ``run_key``); otherwise every row is computed again.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import os
import zlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from neardup_gui.core import indexer
from neardup_gui.core.applicants import metadata_names
from neardup_gui.core.collection import Collection, user_template_keys
from neardup_gui.core.compare import units_in_spans
from neardup_gui.core.credit import COLLECTION, SUBMISSION, credit, credited_first
from neardup_gui.core.document import CharSpan, Document
from neardup_gui.core.flags import Flag, flags_from_json, flags_to_json
from neardup_gui.core.progress import ProgressFn, no_progress, wrap_progress
from neardup_gui.core.decisions import decide
from neardup_gui.core.ownership import Records, set_apart
from neardup_gui.core.results import (
    NOBODY, Applicants, CheckSummary, Comparison, Credit, Decision, DocumentInfo, MatchSpan, Passage, SourceMatch,
    resubmission_label,
)
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import SCREENINGS_SUFFIX, Store, documents, examiner, screenings
from neardup_gui.core.summary import set_apart_mask, summarise
from neardup_gui.core.units import Units, tokenize
from neardup_gui.core.verify import Marked, Verifier

log = logging.getLogger(__name__)

# A submission whose copied share (template excluded) reaches this is flagged, unless set otherwise.
DEFAULT_FLAG = 0.3
# Warnings: a text this short says little whatever its figures; a text this much template has
# little of its own to judge.
SHORT_UNITS = 200
MOSTLY_TEMPLATE = 0.8


__all__ = [
    "DEFAULT_FLAG", "COLLECTION", "SUBMISSION", "ScreenedSource", "ScreeningRow", "ScreeningInfo", "Screening",
    "SubmissionDetail", "screen_folder", "list_screenings", "load_screening", "delete_screening",
    "submission_detail", "set_source_excluded", "screening_index_path", "default_name", "coloured_spans", "coloured_runs",
    "ScreeningGone", "decide_source", "refigure", "refigure_files",
]


@dataclass(frozen=True)
class ScreenedSource:
    """One verified source of a submission: a document of the collection or another submission."""

    rank: int  # 1-based, by containment (best first)
    kind: str  # COLLECTION | SUBMISSION
    doc_id: int  # in the collection's index (COLLECTION) or the screening's own (SUBMISSION)
    path: str
    name: str  # relative to its folder
    similarity: float
    containment: float  # share of the submission found in this source
    source_containment: float  # share of the source found in the submission
    common_units: int
    units_a: int  # countable units of the submission
    units_b: int
    spans: tuple[MatchSpan, ...]  # A = the submission, B = the source
    excluded: bool = False  # the examiner's decision sets it apart for this submission: not counted
    passages: tuple[Passage, ...] = ()  # the exact runs merged across small edits: what counts
    indexed_at: float = 0.0  # when its indexing run started (whose a shared passage is: core/credit.py)
    credit: Credit | None = None  # what of its passages is credited to it, among the sources counted
    sha256: str = ""  # its content (the examiner's decisions are kept under it)
    authors: tuple[str, ...] = ()  # the applicants its file's metadata names
    applicants: Applicants = NOBODY  # whose document it is (core/applicants.py)
    same_applicant: bool = False  # the submission's applicant's own: own work, not copying
    decision: Decision | None = None  # the examiner's decision on the submission and this source

    def comparison(self, template_a: Sequence[CharSpan] = (), excluded_a: Sequence[CharSpan] = ()) -> Comparison:
        return Comparison(similarity=self.similarity, containment_a=self.containment,
                          containment_b=self.source_containment, common_units=self.common_units,
                          units_a=self.units_a, units_b=self.units_b, spans=self.spans,
                          template_a=tuple(template_a), excluded_a=tuple(excluded_a), passages=self.passages,
                          passage_units_a=sum(p.units_a for p in self.passages),
                          passage_units_b=sum(p.units_b for p in self.passages))

    def to_json(self, counted: ScreenedSource | None) -> dict[str, Any]:
        """``counted``: this source with its credit among the sources counted (None: not counted)."""
        return {"path": self.path, "kind": self.kind, "credited": counted.credit.share if counted is not None else 0.0,
                "containment": self.containment, "similarity": self.similarity, "excluded": self.excluded,
                "also_in": sorted({o for names in counted.credit.also_in for o in names}) if counted is not None else [],
                "applicants": self.applicants.to_json(), "same_applicant": self.same_applicant,
                "decision": self.decision.to_json() if self.decision else None}


@dataclass(frozen=True)
class ScreeningRow:
    """One submission of a screening and its figures (all shares of the submission's units)."""

    rel: str  # relative to the submissions folder: the row's key
    path: str
    size: int
    mtime_ns: int
    sha256: str
    batch_id: int
    status: str  # "done" | "skipped"
    reason: str = ""  # why it was skipped
    warnings: tuple[str, ...] = ()
    units: int = 0
    copied: float = 0.0  # covered by any counted source, template excluded: the ranking figure
    copied_overall: float = 0.0  # CNKI's overall ratio: template counted as copied
    copied_without_quotes: float = 0.0
    largest: float = 0.0  # containment in the single largest counted source
    largest_source: str = ""
    sources: int = 0  # counted sources
    template_share: float = 0.0
    quoted_share: float = 0.0
    flags: tuple[Flag, ...] = ()  # integrity flags of the submission (core/flags.py)
    # ``copied`` split by whose the credited text is (core/ownership.py): the applicants' own
    # earlier documents, and everyone else's (the flag's figure, CNKI's 去除本人文献复制比)
    copied_from_own: float = 0.0
    copied_from_others: float = 0.0
    set_apart: float = 0.0  # text the examiner's decisions set apart (permitted, not relevant)
    resubmission_of: str = ""  # the applicant's own document it resubmits, by path, or ""
    authors: tuple[str, ...] = ()  # the applicants its file's metadata names
    # as the examiner's records say when the screening is read (not kept with the row)
    applicants: Applicants = NOBODY
    decided: int = 0  # sources with a decision of the examiner that applies
    undecided: int = 0  # sources without one (none yet, or a text changed since)

    def flagged(self, line: float) -> bool:
        """Copied from others at or above the line: the applicant's own earlier work is a
        resubmission, labelled apart, not copying."""
        return self.status == "done" and self.copied_from_others >= line

    def to_json(self, rank: int, line: float, source_list: list[dict[str, Any]]) -> dict[str, Any]:
        """The row ranked ``rank`` in a screening whose flag line is ``line``, with its sources
        (:meth:`SubmissionDetail.sources_json`)."""
        return {
            "rank": rank, "path": self.path, "rel": self.rel, "status": self.status, "reason": self.reason or None,
            "units": self.units, "copied": self.copied, "copied_overall": self.copied_overall,
            "copied_without_quotes": self.copied_without_quotes, "largest_source_ratio": self.largest,
            "largest_source": self.largest_source or None, "sources": self.sources,
            "template_share": self.template_share, "flagged": self.flagged(line),
            # the copied share split by whose the credited text is (the flag is by others')
            "copied_from_others": self.copied_from_others, "copied_from_own": self.copied_from_own,
            "set_apart_ratio": self.set_apart, "resubmission_of": self.resubmission_of or None,
            "label": resubmission_label(self.resubmission_of), "applicants": self.applicants.to_json(),
            "decided_sources": self.decided, "undecided_sources": self.undecided,
            "warnings": list(self.warnings), "sha256": self.sha256, "flags": [f.to_json() for f in self.flags],
            "source_list": source_list,
        }


@dataclass(frozen=True)
class ScreeningInfo:
    id: int
    name: str
    folder: str
    state: str  # "running" (also: interrupted) | "done"
    created: float
    updated: float
    flag: float
    submissions: int = 0  # rows written so far


@dataclass(frozen=True)
class Screening:
    """A screening and its rows, ranked by copied share (best first), skipped files last."""

    info: ScreeningInfo
    rows: tuple[ScreeningRow, ...]
    # the folder's files of formats neardup does not read (absolute paths), not screened, as the
    # last run found them (kept in the index's meta table: :func:`_others_key`)
    others: tuple[str, ...] = ()

    def flagged(self) -> list[ScreeningRow]:
        return [r for r in self.rows if r.flagged(self.info.flag)]

    def to_json(self, rows: Sequence[ScreeningRow], source_lists: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
        """The screening with ``rows`` (those listed, ranked from 1), each with its sources by rel."""
        return {
            "name": self.info.name, "folder": self.info.folder, "flag": self.info.flag,
            "submissions": [r.to_json(i, self.info.flag, source_lists[r.rel]) for i, r in enumerate(rows, 1)],
            "other_files": list(self.others),
        }


@dataclass(frozen=True, eq=False)
class SubmissionDetail:
    """What the submission view and the submission report show: the text, its marks, its sources."""

    screening: ScreeningInfo
    row: ScreeningRow
    text: str
    template: tuple[CharSpan, ...]
    excluded: tuple[CharSpan, ...]
    quoted: tuple[CharSpan, ...]
    sources: tuple[ScreenedSource, ...]
    hidden: tuple[CharSpan, ...] = ()  # text the file hides: never compared
    applicants: Applicants = NOBODY  # whose submission it is

    @functools.cached_property
    def units(self) -> Units:
        return tokenize(self.text, self.hidden)

    def marked(self) -> Marked:
        return Marked(self.text, self.units, self.template, self.excluded, self.quoted)

    def summary(self, enabled: Iterable[int] | None = None) -> CheckSummary:
        """The figures counting only the sources ranked ``enabled`` (default: those not excluded);
        the text of the sources the examiner's decisions set apart listed apart."""
        counted = self.counted(enabled)
        ranks = {s.rank for s in counted}
        return summarise(self.marked(), [_as_match(s) for s in counted],
                         [_as_match(s) for s in self.sources if s.excluded and s.rank not in ranks])

    def counted(self, enabled: Iterable[int] | None = None) -> list[ScreenedSource]:
        """The sources ranked ``enabled`` (default: those not excluded), each with its credit
        among them: a passage several of them hold is credited to one (core/credit.py)."""
        ranks = set(enabled) if enabled is not None else {s.rank for s in self.sources if not s.excluded}
        chosen = [s for s in self.sources if s.rank in ranks]
        m = self.marked()
        countable = ~(units_in_spans(m.units, m.template) | units_in_spans(m.units, m.excluded))
        aside = [_as_match(s) for s in self.sources if s.excluded and s.rank not in ranks]
        countable &= ~set_apart_mask(m.units, countable, aside)  # (permitted text counts nowhere)
        credited = credit(m.units, countable, [_as_match(s) for s in chosen])
        return [replace(s, credit=c.credit) for s, c in zip(chosen, credited)]

    def sources_json(self) -> list[dict[str, Any]]:
        """Every source with its credit among those counted (as the window lists them)."""
        counted = {s.rank: s for s in self.counted()}
        return [s.to_json(counted.get(s.rank)) for s in self.sources]


def _as_match(s: ScreenedSource) -> SourceMatch:
    info = DocumentInfo(doc_id=s.doc_id, path=s.path, rel=s.name, size=0, sha256=s.sha256, status="indexed",
                        indexed_at=s.indexed_at, applicants=s.applicants)
    return SourceMatch(info, s.comparison(), kind=s.kind, credit=s.credit, same_applicant=s.same_applicant,
                       decision=s.decision)


# --- where things are -------------------------------------------------------------------------


def screening_index_path(db_path: str | Path, screening_id: int) -> Path:
    """The screening's own index of the submissions folder, beside the collection's index."""
    db_path = Path(db_path)
    return db_path.with_name(db_path.name + SCREENINGS_SUFFIX) / f"{screening_id}.ndx"


def default_name(folder: str) -> str:
    """A screening's name when none is given: the submissions folder's name."""
    return os.path.basename(os.path.normpath(os.path.abspath(folder))) or folder


def _free_default_name(store: Store, folder: str) -> str:
    """The name a screening of ``folder`` gets when none is given: the folder's name, unless a
    screening of another folder has it ("submissions" of 2024 and of 2025), then "name (2)", …
    A screening of the same folder keeps its name (screened again: resumed or refreshed). Only a
    name given explicitly takes over another folder's screening."""
    base = default_name(folder)
    taken = screenings.names_and_folders(store)
    name, n = base, 1
    while name in taken and taken[name] != folder:
        n += 1
        name = f"{base} ({n})"
    return name


# --- (de)serialising ---------------------------------------------------------------------------


def _pack_marks(m: Marked) -> bytes:
    data = {"template": [list(s) for s in m.template], "excluded": [list(s) for s in m.excluded],
            "quoted": [list(s) for s in m.quoted]}
    return zlib.compress(json.dumps(data).encode("utf-8"))


def _unpack_marks(blob: bytes) -> dict[str, tuple[CharSpan, ...]]:
    if not blob:
        return {"template": (), "excluded": (), "quoted": ()}
    data = json.loads(zlib.decompress(blob).decode("utf-8"))
    return {k: tuple((int(a), int(b)) for a, b in v) for k, v in data.items()}


def _pack_spans(spans: Sequence[MatchSpan]) -> bytes:
    return np.asarray([(s.a[0], s.a[1], s.b[0], s.b[1], s.units) for s in spans], dtype="<i8").reshape(-1, 5).tobytes()


def _unpack_spans(blob: bytes) -> tuple[MatchSpan, ...]:
    arr = np.frombuffer(blob, dtype="<i8").reshape(-1, 5)
    return tuple(MatchSpan((int(r[0]), int(r[1])), (int(r[2]), int(r[3])), int(r[4])) for r in arr)


def _pack_passages(passages: Sequence[Passage]) -> bytes:
    data = [[list(p.a), list(p.b), p.units_a, p.units_b, p.matched_units,
             [[list(r.a), list(r.b), r.units] for r in p.runs], p.moved, p.revised] for p in passages]
    return zlib.compress(json.dumps(data, separators=(",", ":")).encode("utf-8"))


def _unpack_passages(blob: bytes) -> tuple[Passage, ...]:
    if not blob:  # a row written before passages were kept
        return ()
    return tuple(Passage(a=tuple(a), b=tuple(b), units_a=ua, units_b=ub, matched_units=m,
                         runs=tuple(MatchSpan(tuple(ra), tuple(rb), n) for ra, rb, n in runs),
                         moved=bool(kind[0]) if kind else False, revised=bool(kind[1]) if len(kind) > 1 else False)
                 # (a row kept before moved and revised passages has neither)
                 for a, b, ua, ub, m, runs, *kind in json.loads(zlib.decompress(blob).decode("utf-8")))


def _row(r: Sequence) -> ScreeningRow:
    return ScreeningRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], tuple(json.loads(r[8])), *r[9:18],
                        flags=flags_from_json(r[18]), copied_from_own=r[19], copied_from_others=r[20],
                        set_apart=r[21], resubmission_of=r[22], authors=tuple(json.loads(r[23])))


def _info(store: Store, r: Sequence) -> ScreeningInfo:
    return ScreeningInfo(*r, submissions=screenings.row_count(store, r[0]))


# --- reading -----------------------------------------------------------------------------------


def list_screenings(store: Store) -> list[ScreeningInfo]:
    """Every screening kept in the index, most recently updated first."""
    return [_info(store, r) for r in screenings.all_screenings(store)]


class ScreeningGone(KeyError):
    """A screening, or one submission of it, no longer in the index: deleted, screened again
    without that file, or gone with a rebuilt index after a view showing it was opened. A
    ``KeyError`` (its callers' ``except KeyError`` still hold) whose words the window shows as an
    expected condition, not as a bug."""

    def __init__(self, screening: str | int, rel: str | None = None) -> None:
        # (the words as its one argument, as the KeyError raised before had them: the command
        # line prints ``args[0]``)
        super().__init__(f"no screening named {screening!r} in this index" if rel is None
                         else f"no submission {rel!r} in the screening {screening!r}")
        self.screening, self.rel = screening, rel

    def __str__(self) -> str:
        return self.args[0]

    def __reduce__(self):  # noqa: ANN204 — (unpickled as made, not from its words)
        return type(self), (self.screening, self.rel)


def _find(store: Store, screening: str | int) -> ScreeningInfo:
    r = screenings.screening_named(store, screening)
    if r is None:
        raise ScreeningGone(screening)
    return _info(store, r)


def _ranked(rows: Iterable[ScreeningRow]) -> tuple[ScreeningRow, ...]:
    return tuple(sorted(rows, key=lambda r: (r.status != "done", -r.copied_from_others, -r.copied, -r.largest, r.rel)))


def load_screening(store: Store, screening: str | int) -> Screening:
    """A screening (by name or id) with its rows ranked by the share copied from others (then by
    the whole copied share); KeyError if there is none. Each row with its applicants and how many
    of its sources the examiner decided on, as the records are now."""
    info = _find(store, screening)
    rows = screenings.rows_of(store, info.id)
    others = tuple(os.path.join(info.folder, rel) for rel in json.loads(store.get_meta(_others_key(info.id), "[]")))
    records = Records.load(store)
    sources: dict[str, list[tuple[str, str]]] = {}
    for rel, path, sha in examiner.screened_sources(store, info.id):
        sources.setdefault(rel, []).append((sha, path))
    out = []
    for r in map(_row, rows):
        ruled = [records.decisions.on((r.sha256, r.path), s) for s in sources.get(r.rel, ())]
        decided = sum(d is not None and not d.changed for d in ruled)
        out.append(replace(r, applicants=records.applicants.of(r.path, r.sha256, r.authors), decided=decided,
                           undecided=len(ruled) - decided))
    return Screening(info, _ranked(out), others)


def _others_key(screening_id: int) -> str:
    """The meta key of a screening's other files (their paths in its folder, a JSON list)."""
    return f"screening_other_files/{screening_id}"


def delete_screening(store: Store, screening: str | int) -> None:
    """Forget a screening: its rows, its sources and its own index file."""
    info = _find(store, screening)
    screenings.delete(store, info.id, _others_key(info.id))
    path = screening_index_path(store.path, info.id)
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        p.unlink(missing_ok=True)


def _sources(store: Store, screening_id: int, row: ScreeningRow, records: Records,
             applicants: Applicants) -> tuple[ScreenedSource, ...]:
    """A submission's sources, each judged as the records are now: whose it is, the decision."""
    excluded_paths = excluded_sources(store, row.sha256)  # (kept before decisions, by path)
    out = []
    for r in screenings.sources_of(store, screening_id, row.rel):
        theirs = records.applicants.of(r[3], r[14], json.loads(r[15]))
        decision = records.decisions.on((row.sha256, row.path), (r[14], r[3]))
        out.append(ScreenedSource(
            *r[:11], spans=_unpack_spans(r[11]), passages=_unpack_passages(r[12]), indexed_at=r[13], sha256=r[14],
            authors=tuple(json.loads(r[15])), applicants=theirs, same_applicant=applicants.shares_with(theirs),
            decision=decision, excluded=(decision is not None and decision.sets_apart) or r[3] in excluded_paths))
    return tuple(out)


def excluded_sources(store: Store, sha256: str) -> set[str]:
    """The source paths the examiner excluded for the submission with this sha256."""
    if not sha256:
        return set()
    return screenings.excluded_source_paths(store, sha256)


def submission_detail(store: Store, screening: str | int, rel: str) -> SubmissionDetail:
    """One submission of a screening with its text (from the screening's own index) and sources."""
    info = _find(store, screening)
    r = screenings.row_with_marks(store, info.id, rel)
    if r is None:
        raise ScreeningGone(info.name, rel)
    row = _row(r[:-1])
    marks = _unpack_marks(r[-1])
    text, hidden = "", ()
    if row.status == "done":
        with Store(screening_index_path(store.path, info.id), create=False) as batch:
            stored = batch.text(row.batch_id)
            text, hidden = stored.text, stored.hidden
    records = Records.load(store)
    applicants = records.applicants.of(row.path, row.sha256, row.authors)
    row = replace(row, applicants=applicants)
    return SubmissionDetail(info, row, text, marks["template"], marks["excluded"], marks["quoted"],
                            _sources(store, info.id, row, records, applicants), hidden, applicants)


def source_text(store: Store, detail: SubmissionDetail, source: ScreenedSource) -> str:
    """The text of a source: from the collection's index, or another submission's from the screening's."""
    _same_screening(store, detail)
    if source.kind == COLLECTION:
        return store.text(source.doc_id).text
    with Store(screening_index_path(store.path, detail.screening.id), create=False) as batch:
        return batch.text(source.doc_id).text


def _same_screening(store: Store, detail: SubmissionDetail) -> None:
    """Raise :class:`ScreeningGone` unless ``detail`` was read from this index's screening.

    Ids are never reused within one index (so a source's number is its document's, or nobody's:
    :class:`DocumentGone`), but a rebuilt index numbers documents and screenings from 1 again. A
    submission's view opened before a rebuild named its sources by the old numbers, and its side
    by side showed whichever document the new index gave that number, under the old source's
    name. The screening is known by its id and the time it was made. (A checked submission's
    report makes a detail of no screening, id 0, from a check of the index as it is.)
    """
    info = detail.screening
    if info.id == 0:
        return
    created = screenings.created_at(store, info.id)
    if created is None or created != info.created:
        raise ScreeningGone(info.name)


def set_source_excluded(store: Store, screening: str | int, rel: str, source_path: str, excluded: bool) -> ScreeningRow:
    """Exclude a source from a submission's figures (the examiner's decision "not relevant"), or
    count it again (the decision taken back); see :func:`decide_source`."""
    return decide_source(store, screening, rel, source_path, "not-relevant" if excluded else None)


def decide_source(store: Store, screening: str | int, rel: str, source_path: str, choice: str | None,
                  note: str = "") -> ScreeningRow:
    """The examiner's decision on a source of a submission (``choice``: a key of
    ``decisions.CHOICES``; None takes it back), kept under the two texts' contents, so it holds
    in every screening and check of them; the figures of every row it touches are made again.
    Returns this submission's row."""
    detail = submission_detail(store, screening, rel)
    sha = detail.row.sha256
    if not sha:
        raise ValueError(f"{rel}: the submission could not be read, it has no sources to decide on")
    source = next((s for s in detail.sources if s.path == source_path), None)
    if source is None:
        raise ValueError(f"{source_path} is not a source of {rel}")
    if choice is None:
        screenings.forget_exclusion(store, sha, source_path)  # (an exclusion kept before decisions, by path)
    if source.sha256:
        decide(store, (sha, detail.row.path), (source.sha256, source.path), choice, note)
    elif choice is not None:  # (a source kept before its content was: remembered by its path)
        screenings.exclude_by_path(store, sha, source_path)
    refigure_files(store, [(detail.row.path, sha), (source_path, source.sha256)])
    return next(r for r in load_screening(store, detail.screening.id).rows if r.rel == rel)


def refigure(store: Store, rows: Iterable[tuple[int, str]], progress: ProgressFn = no_progress) -> int:
    """Make the figures of screened submissions (``(screening id, rel)``) again from their kept
    sources, under the examiner's records as they are now (applicants named, decisions taken);
    a row whose screening or text is gone is passed over. Returns how many were made again."""
    rows = list(rows)
    done = 0
    for i, (screening_id, rel) in enumerate(rows):
        progress(i / max(len(rows), 1), f"Updating the figures of {rel}")
        try:
            detail = submission_detail(store, screening_id, rel)
        except (KeyError, OSError) as exc:
            log.info("figures of %s in screening %s not made again: %s", rel, screening_id, exc)
            continue
        if detail.row.status != "done":
            continue
        summary = detail.summary()
        row = _with_figures(detail.row, summary, summary.sources)
        screenings.set_figures(store, screening_id, row.rel, _figures(row))
        done += 1
    progress(1.0, "")
    return done


def refigure_files(store: Store, files: Iterable[tuple[str, str]], progress: ProgressFn = no_progress) -> int:
    """The figures of every screened submission that is, or has as a source, one of ``files``
    (``(path, sha256)``: their applicants or a decision on them changed), made again."""
    files = list(files)
    if not files:
        return 0
    return refigure(store, examiner.screened_rows_with(store, [s for _, s in files], [p for p, _ in files]), progress)


def _with_figures(row: ScreeningRow, s: CheckSummary, sources: int) -> ScreeningRow:
    return replace(row, copied=s.copied_ratio_without_template, copied_overall=s.copied_ratio,
                   copied_without_quotes=s.copied_ratio_without_quotes, largest=s.largest_source_ratio,
                   largest_source=s.largest_source, sources=sources, template_share=s.template_share,
                   quoted_share=s.quoted_share, copied_from_own=s.copied_from_own,
                   copied_from_others=s.copied_from_others, set_apart=s.set_apart, resubmission_of=s.resubmission_of)


def _figures(row: ScreeningRow) -> tuple:
    """A row's figures in the order :func:`screenings.set_figures` stores them."""
    return (row.copied, row.copied_overall, row.copied_without_quotes, row.largest, row.largest_source,
            row.sources, row.template_share, row.quoted_share, row.copied_from_own, row.copied_from_others,
            row.set_apart, row.resubmission_of)


# --- screening ---------------------------------------------------------------------------------


def _template_keys(main: Collection, batch: Collection, settings: Settings) -> frozenset[int]:
    """The collection's template model (its automatic rule and the examiner's choices, the same
    as for checks and pairs: :meth:`Collection.template_keys`), plus the call's own form.

    The call's form is found by the same rule applied to the call alone: a sentence in at least
    ``template_min_docs`` of its submissions and at least ``template_min_share`` of them — the
    application form shared by (nearly) every proposal of the call. A passage copied by a few
    applicants is far below that share and keeps counting, and so does a proposal copied by half
    a small call (its submissions copy one another: ``Collection.form_keys``); a sentence the
    examiner chose to count is never template. With ``auto_template`` off only the examiner's files and marks count.
    """
    if not settings.auto_template:
        return frozenset()
    keys = set(main.template_keys(settings).tolist())
    keys.update(batch.form_keys(batch.template_min_frequency(settings)).tolist())
    _, counted = main.store.marked_keys()
    return frozenset(keys - counted)


def _run_key(main: Collection, batch: Collection, settings: Settings, v: Verifier) -> str:
    """What the rows depend on: settings, template model, the collection's and the call's documents."""
    h = hashlib.sha256()
    h.update(json.dumps([settings.min_run, settings.exclude_quotes, settings.exclude_bibliography, settings.strategy,
                         indexer.params_key(settings.fingerprints)]).encode())
    keys = v.all_template_keys
    h.update(np.sort(np.fromiter(keys, dtype=np.int64, count=len(keys))).tobytes())
    for store in (main.store, batch.store):
        h.update(json.dumps(documents.count_and_last_id(store)).encode())
        h.update(str(store.fingerprint_generation()).encode())
    h.update(json.dumps(documents.names_and_contents(batch.store)).encode())
    return h.hexdigest()


def _warnings(doc: Document, units: int, template_share: float) -> tuple[str, ...]:
    out = []
    for w in doc.meta.get("warnings", []) if isinstance(doc.meta.get("warnings"), list) else []:
        out.append(str(w))
    if units < SHORT_UNITS:
        out.append(f"short text ({units} units): its figures say little")
    if template_share >= MOSTLY_TEMPLATE:
        out.append(f"{template_share:.0%} of the text is template")
    return tuple(out)


def _open_screening(store: Store, name: str, folder: str, flag: float, settings: Settings) -> ScreeningInfo:
    screenings.open_running(store, name, folder, flag, json.dumps(_settings_json(settings)))
    return _find(store, name)


def _settings_json(settings: Settings) -> dict:
    from neardup_gui.core.report.model import settings_dict

    return settings_dict(settings)


def screen_folder(collection: Collection, folder: str, settings: Settings, *, name: str | None = None,
                  flag: float = DEFAULT_FLAG, progress: ProgressFn = no_progress) -> Screening:
    """Screen every file of ``folder`` against the collection and against each other.

    Kept in the index under ``name`` (default: the folder's name, or "name (2)" when a screening
    of another folder has it); running it again with the same name resumes or refreshes it. Raises :class:`Cancelled` when cancelled (the rows written so
    far stay, and the next run goes on from them).
    """
    folder = os.path.abspath(folder)
    if not os.path.isdir(folder):
        raise NotADirectoryError(f"{folder} is not a folder of submissions")
    store = collection.store
    name = (name or "").strip() or _free_default_name(store, folder)
    info = _open_screening(store, name, folder, flag, settings)
    batch_path = screening_index_path(store.path, info.id)
    progress(0.0, "Reading the submissions")
    with Collection.open(batch_path) as batch:
        # (a call's folder emptied since its last screening gives an empty screening: asked for)
        report = indexer.index_folder(batch.store, folder, settings, wrap_progress(progress, 0.0, 0.4),
                                      allow_empty=True)
        own = indexer.own_files(store)  # (the collection's index kept in the call's folder is no submission's file)
        report = dataclasses.replace(report, others=tuple(p for p in report.others if not own(p)))
        store.set_meta(_others_key(info.id), json.dumps([os.path.relpath(p, folder) for p in report.others],
                                                         ensure_ascii=False))
        # A Collection of its own over the same index: its caches of marked texts belong to this
        # screening's template model only.
        main = Collection(store)
        v = Verifier(settings, _template_keys(main, batch, settings), user_template_keys(settings),
                     main.store.marked_keys()[0])
        run_key = _run_key(main, batch, settings, v)
        old_key = screenings.run_key(store, info.id)
        docs = batch.store.documents()
        if old_key != run_key:  # anything changed: every row is computed again
            screenings.start_over(store, info.id, run_key)
        else:  # files that left the folder leave the table
            screenings.keep_only(store, info.id, {d.rel for d in docs})
        # Files the scan could not take (no permission, a name that is not valid UTF-8, a broken
        # link, a subfolder that cannot be listed) are rows too, with their reason: before, such a
        # submission was missing from the table without a word.
        for problem in _not_read(batch.store, folder):
            _write_row(store, info.id, problem, b"", [])
        # (a row of a scan problem, batch_id 0, is no result: the file is read once it can be)
        done = screenings.checked_rels(store, info.id)
        todo = [d for d in docs if d.rel not in done]
        records = main.records()  # whose each document is, and the examiner's decisions
        checking = wrap_progress(progress, 0.4, 1.0)
        for n, d in enumerate(todo):
            sub = wrap_progress(checking, n / max(len(todo), 1), (n + 1) / max(len(todo), 1))
            sub(0.0, f"Checking {n + 1} of {len(todo)}: {d.rel}")
            if d.status != "indexed":
                row = ScreeningRow(d.rel, d.path, d.size, d.mtime_ns, d.sha256, d.id, "skipped", d.reason)
                _write_row(store, info.id, row, b"", [])
                continue
            row, marks, sources = _screen_one(main, batch, d, settings, v, sub, records)
            _write_row(store, info.id, row, marks, sources)
    screenings.mark_done(store, info.id)
    progress(1.0, "Screened")
    return load_screening(store, info.id)


def _not_read(batch: Store, folder: str) -> list[ScreeningRow]:
    """The files of a call's folder its scan could not read (as the screening's index build kept
    them: :func:`indexer.left_out`), as skipped rows."""
    return [ScreeningRow(os.path.relpath(p.path, folder).replace(os.sep, "/"), p.path, 0, 0, "", 0, "skipped", p.reason)
            for p in indexer.left_out(batch)[1]]


def _screen_one(main: Collection, batch: Collection, d, settings: Settings, v: Verifier,  # noqa: ANN001
                progress: ProgressFn, records: Records) -> tuple[ScreeningRow, bytes, list[ScreenedSource]]:
    """Check one submission (``d``: its row in the screening's index) against both indexes, its
    sources judged by the collection's records (``records``: whose, the examiner's decisions)."""
    stored = batch.store.text(d.id)
    doc = Document(path=d.path, format=d.format, text=stored.text, paragraphs=stored.paragraphs,
                   furniture=stored.furniture, hidden=stored.hidden, margins=stored.margins,
                   meta={**d.meta, "sha256": d.sha256})
    units = tokenize(stored.text, stored.hidden)
    fp = batch.store.fingerprints_of(d.id)
    prepared = (units, fp) if fp is not None else None
    in_collection = main.check_document(doc, settings, wrap_progress(progress, 0.0, 0.5), verifier=v, prepared=prepared,
                                        records=records)
    in_call = batch.check_document(doc, settings, wrap_progress(progress, 0.5, 1.0), verifier=v, prepared=prepared,
                                   records=records)
    # A submission that is also in the collection (the same file, e.g. the call's folder indexed as
    # the collection) is one source, not two: the collection's copy is kept.
    in_archive = {m.source.sha256 for m in in_collection.matches if m.source.sha256}
    found = [replace(m, kind=COLLECTION) for m in in_collection.matches] + [
        replace(m, kind=SUBMISSION) for m in in_call.matches if not (m.source.sha256 and m.source.sha256 in in_archive)]
    excluded_paths = excluded_sources(main.store, d.sha256)  # (kept before decisions, by path)

    def apart(m: SourceMatch) -> bool:
        return set_apart(m) or m.source.path in excluded_paths

    marked = v.mark(doc.text, doc.furniture, units)
    # ranked by credit among the sources counted (a passage several sources hold is credited to
    # one: the collection's before the call's), those the examiner set apart after them; the
    # text these cover counts nowhere
    aside = credited_first(credit(units, marked.countable_mask(), [m for m in found if apart(m)]))
    counting = marked.countable_mask() & ~set_apart_mask(units, marked.countable_mask(), aside)
    counted = credited_first(credit(units, counting, [m for m in found if not apart(m)]))
    sources = [ScreenedSource(rank=i, kind=m.kind, doc_id=m.source.doc_id, path=m.source.path, name=m.source.rel,
                              similarity=m.comparison.similarity, containment=m.comparison.containment_a,
                              source_containment=m.comparison.containment_b, common_units=m.comparison.common_units,
                              units_a=m.comparison.units_a, units_b=m.comparison.units_b, spans=m.comparison.spans,
                              excluded=apart(m), passages=m.comparison.passages,
                              indexed_at=m.source.indexed_at, credit=m.credit, sha256=m.source.sha256,
                              authors=m.source.authors, applicants=m.source.applicants,
                              same_applicant=m.same_applicant, decision=m.decision)
               for i, m in enumerate(counted + aside, 1)]
    summary = summarise(marked, counted, aside)
    row = ScreeningRow(d.rel, d.path, d.size, d.mtime_ns, d.sha256, d.id, "done",
                       warnings=_warnings(doc, len(units), summary.template_share), units=len(units), flags=d.flags,
                       authors=metadata_names(d.meta), applicants=in_collection.applicants)
    return _with_figures(row, summary, summary.sources), _pack_marks(marked), sources


def _write_row(store: Store, screening_id: int, row: ScreeningRow, marks: bytes, sources: list[ScreenedSource]) -> None:
    """One submission's row and its sources: one transaction (a kill leaves it whole or absent)."""
    screenings.write_row(
        store, screening_id,
        (row.rel, row.path, row.size, row.mtime_ns, row.sha256, row.batch_id, row.status, row.reason,
         json.dumps(list(row.warnings), ensure_ascii=False), row.units, row.copied, row.copied_overall,
         row.copied_without_quotes, row.largest, row.largest_source, row.sources, row.template_share,
         row.quoted_share, flags_to_json(row.flags), row.copied_from_own, row.copied_from_others,
         row.set_apart, row.resubmission_of, json.dumps(list(row.authors), ensure_ascii=False)),
        marks,
        [(s.rank, s.kind, s.doc_id, s.path, s.name, s.similarity, s.containment, s.source_containment, s.common_units,
          s.units_a, s.units_b, _pack_spans(s.spans), _pack_passages(s.passages), s.indexed_at, s.sha256,
          json.dumps(list(s.authors), ensure_ascii=False)) for s in sources])


def set_flag(store: Store, screening: str | int, flag: float) -> None:
    """Move a screening's flag line (rows are flagged when their copied share reaches it)."""
    info = _find(store, screening)
    screenings.set_flag(store, info.id, flag)


def coloured_spans(sources: Sequence[ScreenedSource]) -> list[tuple[CharSpan, int, int]]:
    """The submission's text as the counted sources colour it: ``(span, rank, passage index)``,
    disjoint. Each piece in the colour of the source it is credited to (:meth:`SubmissionDetail.counted`:
    a passage found in the archive and in a fellow applicant's submission is the archive's), and
    numbered by the passage of that source it lies in. Sources without their credit (a caller
    that did not ask for it) colour in rank order, the better-ranked keeping what they share."""
    taken: list[CharSpan] = []  # sorted, disjoint
    out: list[tuple[CharSpan, int, int]] = []
    for s in sorted(sources, key=lambda s: s.rank):
        for i, a in enumerate(source_passage_spans(s)):
            for piece in (_intersect(a, s.credit.spans) if s.credit is not None else [a]):
                for part in _subtract(piece, taken):
                    out.append((part, s.rank, i))
        taken = _merge(taken + [span for span, rank, _ in out if rank == s.rank])
    out.sort()
    return out


def coloured_runs(sources: Sequence[ScreenedSource]) -> tuple[list[tuple[CharSpan, int]], list[tuple[CharSpan, int, int]]]:
    """:func:`coloured_spans` with each coloured piece cut into identical text and edited words:
    (identical runs, each with the index of its piece; the pieces ``(span, rank, passage index)``).
    The pieces cover the passages whole, edits included; the runs are the part of each piece that
    lies in its passage's exact runs, so the rest of a piece is the edited words (a lighter shade)."""
    pieces = coloured_spans(sources)
    runs_of = {s.rank: [sorted(tuple(r.a) for r in p.runs) for p in s.comparison().shown_passages()] for s in sources}
    runs: list[tuple[CharSpan, int]] = []
    for k, ((start, end), rank, i) in enumerate(pieces):
        for a, b in runs_of[rank][i]:
            a, b = max(a, start), min(b, end)
            if a < b:
                runs.append(((a, b), k))
    return runs, pieces


def _intersect(span: CharSpan, spans: Sequence[CharSpan]) -> list[CharSpan]:
    """The parts of ``span`` inside ``spans``."""
    return [(max(span[0], a), min(span[1], b)) for a, b in spans if a < span[1] and b > span[0]]


def source_passage_spans(source: ScreenedSource) -> tuple[CharSpan, ...]:
    """The submission-side spans a source covers, in text order: its edited passages (what the
    figures count), or its exact runs for a row kept before passages were; in the
    order the side-by-side view numbers them."""
    return tuple(tuple(p.a) for p in source.comparison().shown_passages())


def _subtract(span: CharSpan, taken: Sequence[CharSpan]) -> list[CharSpan]:
    start, end = span
    pieces = []
    for a, b in taken:
        if b <= start or a >= end:
            continue
        if a > start:
            pieces.append((start, a))
        start = max(start, b)
        if start >= end:
            break
    if start < end:
        pieces.append((start, end))
    return pieces


def _merge(spans: list[CharSpan]) -> list[CharSpan]:
    merged: list[list[int]] = []
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return [(a, b) for a, b in merged]
