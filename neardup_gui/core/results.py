"""The answers that cross modules: match spans, comparisons, checked submissions, pairs, clusters.

Everything an examiner acts on is here, exact and explainable: similarities are the LCS ratio of
seed 004 over countable units (template and excluded text left out); fingerprint estimates are
carried separately and always labelled as estimates.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from neardup_gui.core.document import CharSpan


@dataclass(frozen=True)
class MatchSpan:
    """One matched passage: a maximal aligned run of at least ``min_run`` units."""

    a: CharSpan  # character offsets in A's extracted text
    b: CharSpan  # character offsets in B's extracted text
    units: int  # aligned units counted in this passage


@dataclass(frozen=True)
class Comparison:
    """The exact comparison of document A with document B.

    ``similarity`` = common / (units_a + units_b − common), where ``common`` counts only LCS
    units inside match spans, and ``units_*`` only countable units (template and excluded text
    removed). ``containment_a`` = common / units_a: how much of A lies in B.
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


@dataclass(frozen=True)
class SourceMatch:
    """One source found for a checked submission, verified."""

    source: DocumentInfo
    comparison: Comparison  # A = the submission, B = the source
    estimate: float | None = None  # fingerprint estimate that made it a candidate (an estimate)
    found_by: tuple[str, ...] = ()  # strategies that proposed it


@dataclass(frozen=True)
class CheckSummary:
    """CNKI-style figures for one submission (all shares of the submission's units)."""

    copied_ratio: float  # units of the submission covered by any source's match spans
    copied_ratio_without_quotes: float
    copied_ratio_without_template: float
    largest_source_ratio: float  # containment in the single largest source
    largest_source: str = ""  # its path
    template_share: float = 0.0
    quoted_share: float = 0.0


@dataclass(frozen=True)
class CheckResult:
    """A submission checked against the collection: ranked sources, best first."""

    path: str
    units: int
    matches: tuple[SourceMatch, ...]
    summary: CheckSummary
    skipped_reason: str = ""  # set when the submission itself could not be read
    text: str = ""  # the submission's extracted text, for the side-by-side view and reports


@dataclass(frozen=True)
class Pair:
    """A verified near-duplicate pair of the collection: A the smaller document (equal in size: the newer)."""

    a: DocumentInfo
    b: DocumentInfo
    similarity: float
    containment_a: float
    containment_b: float
    common_units: int


@dataclass(frozen=True)
class Cluster:
    """Near-duplicates grouped around a representative; every member is similar to it."""

    representative: DocumentInfo
    members: tuple[DocumentInfo, ...]  # representative first
    similarities: tuple[float, ...] = field(default=())  # of each member to the representative
