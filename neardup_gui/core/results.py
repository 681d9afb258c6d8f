"""The answers that cross modules: match spans, comparisons, checked submissions, pairs, clusters.

Everything an examiner acts on is here, exact and explainable: similarities are the LCS ratio of
Huang, Wang and Li over countable units (template and excluded text left out); fingerprint estimates are
carried separately and always labelled as estimates.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Sequence

from neardup_gui.core.document import CharSpan
from neardup_gui.core.flags import Flag


@dataclass(frozen=True)
class Exclusions:
    """How many units of a text each kind of exclusion removed (each unit counted once).

    A unit removed for several reasons is counted under the first that applies, in this order:
    the examiner's template files, text the examiner marked as template, the automatic rule
    (a sentence in nearly every document), PDF page furniture, quotations, the bibliography.
    """

    template_files: int = 0
    marked: int = 0
    automatic: int = 0
    furniture: int = 0
    quotes: int = 0
    bibliography: int = 0

    KINDS = ("template_files", "marked", "automatic", "furniture", "quotes", "bibliography")

    @property
    def total(self) -> int:
        return sum(self.as_dict().values())

    def as_dict(self) -> dict[str, int]:
        return {kind: getattr(self, kind) for kind in self.KINDS}

    def __add__(self, other: "Exclusions") -> "Exclusions":
        return Exclusions(**{k: getattr(self, k) + getattr(other, k) for k in self.KINDS})

    @classmethod
    def from_dict(cls, data: dict) -> "Exclusions":
        return cls(**{k: int(data.get(k, 0)) for k in cls.KINDS})


@dataclass(frozen=True)
class MatchSpan:
    """One matched passage: a maximal aligned run of at least ``min_run`` units."""

    a: CharSpan  # character offsets in A's extracted text
    b: CharSpan  # character offsets in B's extracted text
    units: int  # aligned units counted in this passage

    def to_json(self) -> dict[str, Any]:
        return {"a": list(self.a), "b": list(self.b), "units": self.units}


@dataclass(frozen=True)
class Passage:
    """One copied-then-edited passage: exact runs merged across small edits (core/passages.py).

    The spans run from the first to the last exact run inside; what lies between the runs (the
    substituted, inserted or dropped words) is part of the passage but not of ``runs``.
    """

    a: CharSpan  # character offsets in A's extracted text
    b: CharSpan  # character offsets in B's extracted text
    units_a: int  # countable units of A the passage covers, gaps included
    units_b: int
    matched_units: int  # identical units: those of the runs below (anchors and seeds)
    runs: tuple[MatchSpan, ...]  # the exact runs inside (≥ min_run, and shorter seeds between them)
    # found out of the order of the alignment (a moved paragraph): counted in the containments,
    # not in the similarity, which is the order-preserving LCS ratio of Huang, Wang and Li
    moved: bool = False
    # found as a heavy revision keeps its source: short runs in order, no run of min_run
    # (compare._revised_passages); counted in the containments, not in the similarity
    revised: bool = False

    def to_json(self, also_in: tuple[str, ...] | None = None) -> dict[str, Any]:
        """Character spans, units covered in each text, identical units, the identical runs inside
        (what lies between them was edited), whether it was found out of the source's order
        (moved) or as a heavy revision; ``also_in``: for a checked submission's source, the other
        sources holding it (left out when None)."""
        return {"a": list(self.a), "b": list(self.b), "units_a": self.units_a, "units_b": self.units_b,
                "identical_units": self.matched_units, "moved": self.moved, "revised": self.revised,
                "runs": [r.to_json() for r in self.runs], **({"also_in": list(also_in)} if also_in is not None else {})}


@dataclass(frozen=True)
class Comparison:
    """The exact comparison of document A with document B.

    ``similarity`` = common / (units_a + units_b − common), where ``common`` counts only LCS
    units inside match spans, and ``units_*`` only countable units (template and excluded text
    removed): the LCS ratio of Huang, Wang and Li, unchanged by edited passages.

    ``containment_a`` = passage_units_a / units_a: how much of A lies in B, counted over the
    edited passages (exact runs merged across small edits, gaps included), so an edited copy
    reads as copied. ``passage_units_a ≥ common``: every match span lies in a passage.
    """

    similarity: float
    containment_a: float
    containment_b: float
    common_units: int
    units_a: int
    units_b: int
    spans: tuple[MatchSpan, ...]
    raw_lcs: int = 0  # LCS of the countable units before keeping only the coherent runs
    template_a: tuple[CharSpan, ...] = ()  # template text, shown muted, never counted
    template_b: tuple[CharSpan, ...] = ()
    excluded_a: tuple[CharSpan, ...] = ()  # quotes / bibliography when excluded by settings
    excluded_b: tuple[CharSpan, ...] = ()
    template_share_a: float = 0.0  # share of A's units that are template
    template_share_b: float = 0.0
    excluded_share_a: float = 0.0
    excluded_share_b: float = 0.0
    exclusions_a: Exclusions = field(default_factory=Exclusions)  # units each exclusion removed
    exclusions_b: Exclusions = field(default_factory=Exclusions)
    passages: tuple[Passage, ...] = ()  # edited passages, in order in both texts
    passage_units_a: int = 0  # countable units of A inside passages (the containment's numerator)
    passage_units_b: int = 0

    def shown_passages(self) -> tuple[Passage, ...]:
        """The passages in text order, as every view and report shows them; a comparison made
        without passages (a record kept before them) shows each match span as a passage of its own."""
        if self.passages or not self.spans:
            return tuple(sorted(self.passages, key=lambda p: (p.a[0], p.b[0])))
        return tuple(
            Passage(a=s.a, b=s.b, units_a=s.units, units_b=s.units, matched_units=s.units, runs=(s,))
            for s in sorted(self.spans, key=lambda s: (s.a[0], s.b[0]))
        )

    def spans_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.spans]

    def passages_json(self, credit: Credit | None = None) -> list[dict[str, Any]]:
        """The edited passages (``Passage.to_json``); with the credit of a checked submission's
        source, each passage names the other sources holding it."""
        if credit is None:
            return [p.to_json() for p in self.passages]
        also = dict(zip(self.shown_passages(), credit.also_in))
        return [p.to_json(also.get(p, ())) for p in self.passages]


@dataclass(frozen=True)
class Applicants:
    """The applicants of one document (names or IDs) and where they came from (``source``: csv,
    examiner or metadata; "" when none is known): core/applicants.py."""

    names: tuple[str, ...] = ()
    source: str = ""

    def __bool__(self) -> bool:
        return bool(self.names)

    def text(self) -> str:
        return "; ".join(self.names)

    def to_json(self) -> dict:
        return {"names": list(self.names), "source": self.source or None}

    def shares_with(self, other: "Applicants") -> bool:
        """True when the two share an applicant (one name, spelt alike up to width, case, spaces)."""
        return bool(self.names and other.names
                    and {name_key(n) for n in self.names} & {name_key(n) for n in other.names})


def name_key(name: str) -> str:
    """What two spellings of one name share: NFKC (full-width letters), case and spaces folded."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


NOBODY = Applicants()

CONFIRMED = "confirmed"
PERMITTED = "permitted"
NOT_RELEVANT = "not_relevant"
OWN_WORK = "own_work"
CITED = "cited"
COMMON_KNOWLEDGE = "common_knowledge"
# The examiner's choices as the command line and the window name them: (verdict, reason).
DECISION_CHOICES = {
    "confirmed": (CONFIRMED, ""),
    "own-work": (PERMITTED, OWN_WORK),
    "cited": (PERMITTED, CITED),
    "common-knowledge": (PERMITTED, COMMON_KNOWLEDGE),
    "not-relevant": (NOT_RELEVANT, ""),
}


@dataclass(frozen=True)
class Decision:
    """The examiner's decision on two texts (core/decisions.py); ``changed``: a text changed since
    it was taken, so it is shown, not applied."""

    verdict: str  # CONFIRMED | PERMITTED | NOT_RELEVANT
    reason: str  # for PERMITTED: OWN_WORK | CITED | COMMON_KNOWLEDGE
    note: str
    decided_at: float
    paths: tuple[str, str]  # the two files when it was taken
    changed: bool = False

    @property
    def sets_apart(self) -> bool:
        """Its text leaves the copied share (permitted, not relevant), unless a text changed."""
        return not self.changed and self.verdict in (PERMITTED, NOT_RELEVANT)

    @property
    def choice(self) -> str:
        """Its name among :data:`DECISION_CHOICES` ("own-work", "not-relevant", …)."""
        return next((k for k, v in DECISION_CHOICES.items() if v == (self.verdict, self.reason)),
                    self.verdict.replace("_", "-"))

    def date(self) -> str:
        """When it was taken (ISO 8601, UTC)."""
        return datetime.fromtimestamp(self.decided_at, timezone.utc).replace(microsecond=0).isoformat()

    def to_json(self) -> dict:
        return {"decision": self.choice, "verdict": self.verdict, "reason": self.reason or None, "note": self.note,
                "decided_at": self.date(), "text_changed_since": self.changed, "applied": not self.changed}


@dataclass(frozen=True)
class DocumentInfo:
    """A document of the collection as lists and reports show it."""

    doc_id: int
    path: str  # as indexed (absolute)
    rel: str  # relative to the collection folder
    size: int
    sha256: str
    status: str  # "indexed" | "skipped"
    reason: str = ""  # why it was skipped
    units: int = 0
    template_share: float = 0.0
    format: str = ""
    exclusions: Exclusions = field(default_factory=Exclusions)  # units not counted (set by the pairs pass)
    # set when the document was read only in part or leniently (status stays "indexed")
    warnings: tuple[str, ...] = ()
    indexed_at: float = 0.0  # when the indexing run that read it started (0: not known)
    flags: tuple[Flag, ...] = ()  # integrity flags (core/flags.py)
    applicants: Applicants = NOBODY  # whose document it is (core/applicants.py)
    authors: tuple[str, ...] = ()  # the applicants its file's own metadata names


@dataclass(frozen=True)
class Credit:
    """What of one source's passages is credited to it (core/credit.py: whose text it is)."""

    spans: tuple[CharSpan, ...]  # the submission's character spans credited to it, in text order
    units: int  # countable units of the submission credited to it
    share: float  # ``units`` / the submission's countable units
    # for each of its passages (shown order), the other sources holding part of it (their names)
    also_in: tuple[tuple[str, ...], ...] = ()



@dataclass(frozen=True)
class SourceMatch:
    """One source found for a checked submission, verified."""

    source: DocumentInfo
    comparison: Comparison  # A = the submission, B = the source
    estimate: float | None = None  # fingerprint estimate that made it a candidate (an estimate)
    found_by: tuple[str, ...] = ()  # strategies that proposed it
    kind: str = "collection"  # "collection" | "submission" (another submission of the same call)
    credit: Credit | None = None  # what of its passages is credited to it (core/credit.py)
    same_applicant: bool = False  # the submission's applicant's own document: own work, not copying
    decision: Decision | None = None  # the examiner's decision on the submission and this source

    def to_json(self) -> dict[str, Any]:
        comp = self.comparison
        return {
            "path": self.source.path, "similarity": comp.similarity,
            "containment": comp.containment_a, "source_containment": comp.containment_b,
            # the share of the submission credited to it: a passage several sources hold is
            # credited to one (the collection's, the earlier indexed, the one holding more)
            "credited": self.credit.share if self.credit else comp.containment_a,
            "credited_units": self.credit.units if self.credit else None,
            "common_units": comp.common_units, "template_share": comp.template_share_b,
            "source_exclusions": comp.exclusions_b.as_dict(),
            "estimate": self.estimate, "found_by": list(self.found_by), "spans": comp.spans_json(),
            "passages": comp.passages_json(self.credit),
            "applicants": self.source.applicants.to_json(), "same_applicant": self.same_applicant,
            "decision": self.decision.to_json() if self.decision else None,
            "counted": not (self.decision is not None and self.decision.sets_apart),
        }


@dataclass(frozen=True)
class CheckSummary:
    """CNKI-style figures for one submission, all over ONE denominator: its countable text.

    The countable text is every unit of the submission except what does not count (template
    text and, when the examiner excludes them, quotations and the bibliography): the same
    units a source's containment is counted over. So ``copied_ratio`` ≥ each single source's
    share, and each "without X" ≤ ``copied_ratio``. What was left out is given in units, not as
    a share of something else.
    """

    copied_ratio: float  # countable units inside any source's matched passages / countable units
    copied_ratio_without_quotes: float  # as above, leaving quoted units out of the numerator
    copied_ratio_without_template: float  # template never counts: equal to copied_ratio (kept for readers)
    largest_source_ratio: float  # countable units inside the largest single source's passages / countable units
    largest_source: str = ""  # its path
    template_share: float = 0.0  # template units / all units of the submission (not counted)
    quoted_share: float = 0.0  # quoted units / all units (quotations, counted or not)
    countable_units: int = 0  # the denominator
    template_units: int = 0  # left out as template
    excluded_units: int = 0  # left out by the examiner's exclusions (quotations, bibliography), not template
    sources: int = 0  # sources found (every one counts in copied_ratio, whatever a view filter hides)
    # copied_ratio split by whose documents the credited text came from (core/credit.py): the
    # applicant's own (CNKI's 去除本人文献 figure leaves them out) and everyone else's; they add up
    copied_from_own: float = 0.0
    copied_from_others: float = 0.0
    # text the examiner's decisions set apart (permitted, not relevant), left out of copied_ratio
    # and listed apart: a share of the countable units, as copied_ratio is
    set_apart: float = 0.0
    # the applicant's own document this submission resubmits (a near-duplicate of it), or ""
    resubmission_of: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "copied_ratio": self.copied_ratio,
            "copied_ratio_without_quotes": self.copied_ratio_without_quotes,
            "copied_ratio_without_template": self.copied_ratio_without_template,
            "largest_source_ratio": self.largest_source_ratio,
            "largest_source": self.largest_source or None,
            "template_share": self.template_share,
            # the one denominator of every ratio above, and the units left out of it
            "countable_units": self.countable_units,
            "template_units": self.template_units,
            "excluded_units": self.excluded_units,
            # copied_ratio split by whose the credited text is (CNKI's 去除本人文献复制比), what
            # the examiner's decisions set apart, and the applicant's own document resubmitted
            "copied_from_others": self.copied_from_others, "copied_from_own": self.copied_from_own,
            "set_apart_ratio": self.set_apart, "resubmission_of": self.resubmission_of or None,
        }


def resubmission_label(resubmission_of: str) -> str | None:
    """A submission's label: a resubmission (or duplicate submission) of its applicant's own document."""
    return "resubmission / duplicate submission" if resubmission_of else None


@dataclass(frozen=True)
class CheckResult:
    """A submission checked against the collection: ranked sources, best first."""

    path: str
    units: int
    matches: tuple[SourceMatch, ...]
    summary: CheckSummary
    skipped_reason: str = ""  # set when the submission itself could not be read
    text: str = ""  # the submission's extracted text, for the side-by-side view and reports
    exclusions: Exclusions = field(default_factory=Exclusions)  # units of the submission not counted
    warnings: tuple[str, ...] = ()  # the submission was read only in part or leniently
    # the submission's path as the system names it, when ``path`` (shown, printed, written in
    # reports) is not it: a name that is not valid UTF-8, its bytes escaped there (scan.shown_name)
    file: str = field(default="", compare=False, repr=False)
    hidden: tuple[CharSpan, ...] = ()  # text the submission's file hides (never compared)
    flags: tuple[Flag, ...] = ()  # the submission's integrity flags (core/flags.py)
    applicants: Applicants = NOBODY  # whose submission it is (core/applicants.py)
    sha256: str = ""  # its content (what the examiner's decisions are kept under)

    @property
    def read_from(self) -> str:
        """Where the submission is read again (a re-check, "add to the collection")."""
        return self.file or self.path

    def to_json(self, exclusions: dict[str, Any], matches: Sequence[SourceMatch] | None = None) -> dict[str, Any]:
        """``exclusions``: the rules applied (the collection's, ``{"applied", "rules"}``), to which
        the submission's units not counted are added; ``matches``: those listed (default: all)."""
        return {
            "path": self.path, "units": self.units, "skipped_reason": self.skipped_reason or None,
            "warnings": list(self.warnings), "flags": [f.to_json() for f in self.flags],
            "applicants": self.applicants.to_json(), "label": resubmission_label(self.summary.resubmission_of),
            "summary": self.summary.to_json(),
            "exclusions": {**exclusions, "units": self.exclusions.as_dict()},
            "matches": [m.to_json() for m in (self.matches if matches is None else matches)],
        }


@dataclass(frozen=True)
class Pair:
    """A verified near-duplicate pair of the collection: A the smaller document (equal in size: the later in path order)."""

    a: DocumentInfo
    b: DocumentInfo
    similarity: float
    containment_a: float
    containment_b: float
    common_units: int
    decision: Decision | None = None  # the examiner's decision on the two texts

    @property
    def same_applicant(self) -> bool:
        """Both documents are one applicant's: a resubmission or a duplicate submission."""
        return self.a.applicants.shares_with(self.b.applicants)

    def to_json(self, applied: list[str]) -> dict[str, Any]:
        """``applied``: the kinds of exclusion in effect (the collection's)."""
        return {"a": self.a.path, "b": self.b.path, "similarity": self.similarity, "containment_a": self.containment_a,
                "containment_b": self.containment_b, "common_units": self.common_units,
                "exclusions": {"applied": applied, "units_a": self.a.exclusions.as_dict(),
                               "units_b": self.b.exclusions.as_dict()},
                "applicants_a": self.a.applicants.to_json(), "applicants_b": self.b.applicants.to_json(),
                "same_applicant": self.same_applicant, "decision": self.decision.to_json() if self.decision else None}


@dataclass(frozen=True)
class Cluster:
    """Near-duplicates grouped around a representative; every member is similar to it."""

    representative: DocumentInfo
    members: tuple[DocumentInfo, ...]  # representative first
    similarities: tuple[float, ...] = field(default=())  # of each member to the representative
    # similarity of every pair of members (members' order; None: below the pairs cache's floor
    # and not computed), and whether the group is a ring: 3 or more documents, every pair of
    # them at or above the threshold (one text and its light edits: a proposal mill's pattern)
    pairwise: tuple[tuple[float | None, ...], ...] = field(default=())
    ring: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"representative": self.representative.path,
                "members": [{"path": m.path, "similarity": s} for m, s in zip(self.members, self.similarities)],
                "ring": self.ring, "pairwise": [list(row) for row in self.pairwise]}
