"""Whose text it is: each copied passage of a submission credited to one source, the others "also in".

A passage of a submission may be found in several documents: the original an applicant copied,
and a fellow applicant who copied the same original. Naming the fellow applicant accuses the
wrong person, so every unit of the submission is credited to one source, in this order:

1. a document of the collection before a submission of the same call;
2. the document indexed earlier before the one indexed later (the documents of one indexing run
   are indexed at the same time: an archive of earlier years before this year's additions);
3. the document holding more of the submission before the one holding less;
4. the name, so that two runs give the same answer.

Each source keeps its passages (what it shares with the submission); its *credited* part is what
of them no source before it in that order holds. The largest source, the per-source shares, the
colours of the submission's text and the reports follow the credit; a source whose passages all
lie in another's is listed as "also in" that source's passages, never as a source of its own.
Everything is counted over the submission's countable units, as every other figure.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np

from neardup_gui.core.compare import units_in_spans
from neardup_gui.core.document import CharSpan
from neardup_gui.core.results import Credit, SourceMatch
from neardup_gui.core.units import Units

COLLECTION = "collection"  # a source from the collection's index
SUBMISSION = "submission"  # a source among the call's other submissions


def credit_order(matches: Sequence[SourceMatch]) -> list[int]:
    """The indices of ``matches`` in the order credit goes (see the module docstring)."""
    def key(k: int) -> tuple:
        m = matches[k]
        return (m.kind != COLLECTION, m.source.indexed_at, -m.comparison.containment_a, m.source.rel, m.source.path)

    return sorted(range(len(matches)), key=key)


def credit(units: Units, countable: np.ndarray, matches: Sequence[SourceMatch]) -> list[SourceMatch]:
    """``matches`` with their credit (:attr:`SourceMatch.credit`), in the same order.

    ``countable``: True for the submission's units that count (the one denominator)."""
    total = int(countable.sum())
    covered = [units_in_spans(units, _spans(m)) & countable for m in matches]
    taken = np.zeros(len(units), dtype=bool)
    credits: list[Credit | None] = [None] * len(matches)
    for k in credit_order(matches):
        mine = covered[k] & ~taken
        taken |= mine
        credits[k] = Credit(spans=_unit_spans(units, mine), units=int(mine.sum()),
                            share=int(mine.sum()) / total if total else 0.0)
    out = []
    for k, m in enumerate(matches):
        also = tuple(tuple(matches[o].source.rel for o in range(len(matches))
                           if o != k and bool((units_in_spans(units, [p.a]) & covered[o]).any()))
                     for p in m.comparison.shown_passages())
        out.append(dataclasses.replace(m, credit=dataclasses.replace(credits[k], also_in=also)))
    return out


def credited_first(matches: Sequence[SourceMatch]) -> list[SourceMatch]:
    """Sources with credit first, by credited share, then those only "also in" others, by how
    much of the submission they hold."""
    return sorted(matches, key=lambda m: (-(m.credit.units if m.credit else 0), -m.comparison.containment_a,
                                          -m.comparison.similarity, m.source.rel))


def _spans(m: SourceMatch) -> tuple[CharSpan, ...]:
    """The submission-side spans a source holds: its passages (exact runs for a record made
    before passages were kept)."""
    return tuple(p.a for p in m.comparison.shown_passages())


def _unit_spans(units: Units, mask: np.ndarray) -> tuple[CharSpan, ...]:
    """The character spans of the stretches of units set in ``mask`` (a stretch from its first
    unit's start to its last unit's end)."""
    if not mask.any():
        return ()
    edges = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1
    return tuple(zip(units.starts[starts].tolist(), units.ends[ends].tolist()))
