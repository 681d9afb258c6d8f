"""Verification: a document's template/excluded marks and the exact comparison of two documents.

Fingerprints only propose candidates; what the examiner sees is computed here, exactly: the LCS
ratio of seed 004 over countable units (template and, when set, quotes and bibliography removed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from neardup_gui.core.compare import (
    PreparedDocument, UnitCodes, compare_documents, compare_prepared, prepare_document, units_in_spans,
)
from neardup_gui.core.document import CharSpan
from neardup_gui.core.exclusions import bibliography_spans, quoted_spans
from neardup_gui.core.results import Comparison
from neardup_gui.core.settings import Settings
from neardup_gui.core.templates import template_spans
from neardup_gui.core.units import Units, tokenize


@dataclass(frozen=True, eq=False)
class Marked:
    """A text with its units and the spans that do not count."""

    text: str
    units: Units
    template: tuple[CharSpan, ...]
    excluded: tuple[CharSpan, ...]
    quoted: tuple[CharSpan, ...]  # always computed, for the "without quotes" ratio

    def countable_mask(self) -> np.ndarray:
        """True for units that count (neither template nor excluded)."""
        return ~(units_in_spans(self.units, self.template) | units_in_spans(self.units, self.excluded))


class Verifier:
    """Marks texts and compares them under one set of settings and one template model."""

    def __init__(self, settings: Settings, template_keys: Iterable[int] = (), user_template_keys: Iterable[int] = ()) -> None:
        self.settings = settings
        # (a numpy array of keys goes through tolist(): a C loop, 89,000 keys in a few ms)
        self.template_keys = frozenset(template_keys.tolist() if isinstance(template_keys, np.ndarray)
                                       else map(int, template_keys))
        self.user_template_keys = frozenset(map(int, user_template_keys))
        self.all_template_keys = self.template_keys | self.user_template_keys

    def mark(self, text: str, furniture: Iterable[CharSpan] = (), units: Units | None = None) -> Marked:
        units = units if units is not None else tokenize(text)
        template = template_spans(text, None, self.all_template_keys, furniture=tuple(furniture),
                                  units=units)
        quoted = quoted_spans(text)
        excluded: list[CharSpan] = []
        if self.settings.exclude_quotes:
            excluded.extend(quoted)
        if self.settings.exclude_bibliography:
            excluded.extend(bibliography_spans(text))
        return Marked(text, units, tuple(template), tuple(sorted(excluded)), tuple(quoted))

    def compare(
        self,
        a: Marked,
        b: Marked,
        *,
        min_similarity: float | None = None,
        min_containment: float | None = None,
    ) -> Comparison | None:
        """Exact comparison of A with B; ``None`` when a cut-off proves it cannot matter."""
        return compare_documents(
            a.text, b.text, min_run=self.settings.min_run,
            template_a=a.template, template_b=b.template, excluded_a=a.excluded, excluded_b=b.excluded,
            min_similarity=min_similarity, min_containment=min_containment, with_raw_lcs=False,
            units_a=a.units, units_b=b.units,
        )

    def prepare(self, m: Marked, codes: UnitCodes) -> PreparedDocument:
        """``m`` ready for many comparisons in one pass (``codes``: that pass's unit codes)."""
        return prepare_document(m.units, min_run=self.settings.min_run, codes=codes,
                                template=m.template, excluded=m.excluded)

    def compare_prepared(
        self,
        a: PreparedDocument,
        b: PreparedDocument,
        *,
        min_similarity: float | None = None,
        min_containment: float | None = None,
    ) -> Comparison | None:
        """:meth:`compare` of two prepared documents (the same answer, without per-pair re-coding)."""
        return compare_prepared(a, b, min_similarity=min_similarity, min_containment=min_containment)
