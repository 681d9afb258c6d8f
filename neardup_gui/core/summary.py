"""The figures of one checked submission, CNKI's first page: all over one denominator, its countable text."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from neardup_gui.core.compare import units_in_spans
from neardup_gui.core.credit import credit
from neardup_gui.core.document import CharSpan
from neardup_gui.core.ownership import own_units, resubmission_of
from neardup_gui.core.results import CheckSummary, SourceMatch
from neardup_gui.core.units import Units
from neardup_gui.core.verify import Marked


def covered_spans(match: SourceMatch) -> tuple[CharSpan, ...]:
    """The submission-side (A) spans a source covers: what counts as copied from it — its edited
    passages (exact runs merged across small edits), gaps inside them included; a comparison
    made without passages (a hand-made or older record) counts its exact runs."""
    comparison = match.comparison
    if comparison.passages:
        return tuple(p.a for p in comparison.passages)
    return tuple(s.a for s in comparison.spans)


def set_apart_mask(units: Units, countable: np.ndarray, apart: Sequence[SourceMatch]) -> np.ndarray:
    """The countable units the sources set apart by the examiner's decisions cover: permitted or
    not relevant text, whichever other source holds it too."""
    aside = np.zeros(len(units), dtype=bool)
    for m in apart:
        aside |= units_in_spans(units, covered_spans(m))
    return aside & countable


def summarise(sub: Marked, matches: Sequence[SourceMatch], apart: Sequence[SourceMatch] = ()) -> CheckSummary:
    """CNKI-style figures for one submission, every one over its countable text.

    - copied: countable units inside any counted source's covered spans (``matches``);
    - without quotations: the same, quoted units left out of the count (the denominator stays);
    - without template: equal to copied (template text never counts, in any figure);
    - largest single source: the countable units credited to one source (core/credit.py: a
      passage found in several documents is credited to one of them), the largest;
    - from own and from others: copied split by whose documents the credited text is (a source
      marked ``same_applicant`` is the applicant's own), adding up to copied;
    - set apart: what the sources the examiner's decisions set apart (``apart``) cover, listed
      apart and never counted, whichever counted source holds it too (the denominator stays, as
      for quotations).

    Sharing one denominator, copied ≥ largest single source ≥ 0 and copied ≥ each "without";
    the credited units of all sources add up to copied.
    """
    units = sub.units
    n = len(units)
    template = units_in_spans(units, sub.template)
    excluded = units_in_spans(units, sub.excluded) & ~template
    quoted = units_in_spans(units, sub.quoted)
    countable = ~(template | excluded)
    total = int(countable.sum())
    aside = set_apart_mask(units, countable, apart)
    counted = countable & ~aside
    covered = np.zeros(n, dtype=bool)
    for m in matches:
        covered |= units_in_spans(units, covered_spans(m)) & counted
    copied = int(covered.sum())
    credited = [m for m in credit(units, counted, matches) if m.credit.units]
    best = max(credited, key=lambda m: (m.credit.units, -credited.index(m)), default=None)
    largest = best.credit.units if best is not None else 0
    own = own_units(credited)

    def share(k: int) -> float:
        return k / total if total else 0.0

    return CheckSummary(
        copied_ratio=share(copied),
        copied_ratio_without_quotes=share(int((covered & ~quoted).sum())),
        copied_ratio_without_template=share(copied),
        largest_source_ratio=share(largest),
        largest_source=best.source.path if best is not None and largest else "",
        template_share=float(template.sum()) / n if n else 0.0,
        quoted_share=float(quoted.sum()) / n if n else 0.0,
        countable_units=total,
        template_units=int(template.sum()),
        excluded_units=int(excluded.sum()),
        sources=len(credited),
        copied_from_own=share(own),
        copied_from_others=share(copied - own),
        set_apart=share(int(aside.sum())),
        resubmission_of=resubmission_of(list(matches) + list(apart)),
    )
