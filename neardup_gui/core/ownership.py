"""Own work and others' apart: each source of a submission judged by whose it is and by the examiner.

A source that shares an applicant with the submission is the applicant's own earlier work: its
credited text (core/credit.py decides which source a passage is credited to) counts in the
copied share, CNKI's 总文字复制比, but not in the share without the applicant's own documents,
去除本人文献复制比, the figure a submission is flagged by. A submission that is mostly one of its
applicant's own documents is a resubmission (or a duplicate submission): labelled so, not as copying.

The examiner's decision on the submission and a source (core/decisions.py) is applied as it says:
a source decided permitted or not relevant is set apart, its text listed apart and not counted.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Sequence

from neardup_gui.core.applicants import ApplicantBook
from neardup_gui.core.decisions import DecisionBook
from neardup_gui.core.results import NOT_RELEVANT, Applicants, SourceMatch
from neardup_gui.core.store import Store, examiner

# A submission is a resubmission of its applicant's own document when at least this share of it is
# found in that one document: the flag's own default, most of the text, so a reused section or two
# are own work, not a resubmission.
RESUBMISSION_SHARE = 0.7


@dataclass(frozen=True, eq=False)
class Records:
    """The examiner's records of a collection as one reading: applicants and decisions."""

    applicants: ApplicantBook
    decisions: DecisionBook
    stamp: tuple = ()

    @classmethod
    def load(cls, store: Store) -> "Records":
        return cls(ApplicantBook.load(store), DecisionBook.load(store), stamp_of(store))


def stamp_of(store: Store) -> tuple:
    """What changes whenever the examiner's records change (a cached reading is checked by it)."""
    return examiner.applicants_stamp(store) + examiner.decisions_stamp(store)


def judged(matches: Sequence[SourceMatch], submission: tuple[str, str], applicants: Applicants, records: Records,
           identity: Callable[[SourceMatch], tuple[str, str]] | None = None) -> list[SourceMatch]:
    """``matches`` with ``same_applicant`` and ``decision`` set: each source against the
    submission (``(sha256, path)``, whose applicants are ``applicants``); ``identity``: a
    source's ``(sha256, path)`` (default its document's)."""
    identity = identity or (lambda m: (m.source.sha256, m.source.path))
    return [replace(m, same_applicant=applicants.shares_with(m.source.applicants),
                    decision=records.decisions.on(submission, identity(m))) for m in matches]


def set_apart(m: SourceMatch) -> bool:
    """The examiner's decision takes this source out of the figures."""
    return m.decision is not None and m.decision.sets_apart


def own_units(credited: Sequence[SourceMatch]) -> int:
    """Of credited sources (core/credit.py), the units credited to the applicant's own documents."""
    return sum(m.credit.units for m in credited if m.same_applicant and m.credit is not None)


def resubmission_of(matches: Sequence[SourceMatch]) -> str:
    """The applicant's own document holding most of the submission (the largest share at or
    above :data:`RESUBMISSION_SHARE`), by path; "" when there is none."""
    own = [m for m in matches if m.same_applicant and m.comparison.containment_a >= RESUBMISSION_SHARE
           and not (m.decision is not None and m.decision.sets_apart and m.decision.verdict == NOT_RELEVANT)]
    best = max(own, key=lambda m: (m.comparison.containment_a, m.comparison.similarity), default=None)
    return best.source.path if best is not None else ""
