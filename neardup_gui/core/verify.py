"""Verification: a document's template/excluded marks and the exact comparison of two documents.

Fingerprints only propose candidates; what the examiner sees is computed here, exactly: the LCS
ratio of Huang, Wang and Li over countable units (template and, when set, quotes and bibliography removed).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

import numpy as np

from neardup_gui.core.compare import compare_documents, merge_spans, units_in_spans
from neardup_gui.core.prepared import compare_prepared, prepare_document, PreparedDocument, UnitCodes
from neardup_gui.core.document import CharSpan
from neardup_gui.core.exclusions import bibliography_spans, quoted_spans
from neardup_gui.core.results import Comparison, Exclusions
from neardup_gui.core.settings import Settings
from neardup_gui.core.templates import sentence_keys
from neardup_gui.core.units import Units, tokenize


@dataclass(frozen=True, eq=False)
class Marked:
    """A text with its units and the spans that do not count."""

    text: str
    units: Units
    template: tuple[CharSpan, ...]
    excluded: tuple[CharSpan, ...]
    quoted: tuple[CharSpan, ...]  # for the "without quotes" ratio (empty when mark was told not to look)
    exclusions: Exclusions = field(default_factory=Exclusions)  # units each exclusion removed

    def countable_mask(self) -> np.ndarray:
        """True for units that count (neither template nor excluded)."""
        return ~(units_in_spans(self.units, self.template) | units_in_spans(self.units, self.excluded))


class Verifier:
    """Marks texts and compares them under one set of settings and one template model.

    Template sentences come in three kinds (``docs/quality.md``, "What counts as template"):
    ``user_template_keys`` from the examiner's template files, ``marked_keys`` the examiner marked
    in the index, and ``template_keys`` found by the automatic rule (already without the
    sentences the examiner chose to count). Every text is marked the same way, whether it is a
    checked submission or a document of the collection, so an exclusion takes the same text out
    of both sides of every comparison.
    """

    def __init__(self, settings: Settings, template_keys: Iterable[int] = (), user_template_keys: Iterable[int] = (),
                 marked_keys: Iterable[int] = ()) -> None:
        self.settings = settings
        # (a numpy array of keys goes through tolist(): a C loop, 89,000 keys in a few ms)
        self.template_keys = frozenset(template_keys.tolist() if isinstance(template_keys, np.ndarray)
                                       else map(int, template_keys))
        self.user_template_keys = frozenset(map(int, user_template_keys))
        self.marked_keys = frozenset(map(int, marked_keys))
        self.all_template_keys = self.template_keys | self.user_template_keys | self.marked_keys

    def removes_nothing(self) -> bool:
        """True when :meth:`mark` takes nothing out of a text but its furniture: every unit of a
        text without furniture counts."""
        return not (self.all_template_keys or self.settings.exclude_quotes or self.settings.exclude_bibliography)

    def mark(self, text: str, furniture: Iterable[CharSpan] = (), units: Units | None = None, *,
             hidden: Iterable[CharSpan] = (), quoted: bool = True) -> Marked:
        """The template and excluded spans of ``text``. ``units``: ``tokenize(text, hidden)`` when
        the caller has it (``hidden``: the text the file hides, never compared). ``quoted``: False
        when the caller needs no quotation spans unless they are excluded (the collection-wide
        pass: its figures never use them; finding them was a fortieth of its time on 2,375
        copyright files)."""
        units = units if units is not None else tokenize(text, hidden)
        furniture = merge_spans(furniture)
        files: list[CharSpan] = []
        marked: list[CharSpan] = []
        automatic: list[CharSpan] = []
        if self.all_template_keys:
            for span, key in sentence_keys(text, units):
                if key in self.user_template_keys:
                    files.append(span)
                elif key in self.marked_keys:
                    marked.append(span)
                elif key in self.template_keys:
                    automatic.append(span)
        template = merge_spans([*files, *marked, *automatic, *furniture])
        quoted = quoted_spans(text) if quoted or self.settings.exclude_quotes else ()
        bibliography = bibliography_spans(text) if self.settings.exclude_bibliography else ()
        excluded: list[CharSpan] = []
        if self.settings.exclude_quotes:
            excluded.extend(quoted)
        excluded.extend(bibliography)
        kinds = {"template_files": files, "marked": marked, "automatic": automatic, "furniture": furniture,
                 "quotes": quoted if self.settings.exclude_quotes else (), "bibliography": bibliography}
        counts: dict[str, int] = {}
        taken = np.zeros(len(units), dtype=bool)
        for kind, spans in kinds.items():  # each unit counted once, under the first kind it falls in
            if spans:
                mask = units_in_spans(units, spans) & ~taken
                counts[kind] = int(mask.sum())
                taken |= mask
        return Marked(text, units, template, tuple(sorted(excluded)), tuple(quoted), Exclusions(**counts))

    def compare(
        self,
        a: Marked,
        b: Marked,
        *,
        min_similarity: float | None = None,
        min_containment: float | None = None,
    ) -> Comparison | None:
        """Exact comparison of A with B; ``None`` when a cut-off proves it cannot matter."""
        result = compare_documents(
            a.text, b.text, min_run=self.settings.min_run,
            template_a=a.template, template_b=b.template, excluded_a=a.excluded, excluded_b=b.excluded,
            min_similarity=min_similarity, min_containment=min_containment, with_raw_lcs=False,
            units_a=a.units, units_b=b.units,
        )
        if result is None:
            return None
        return replace(result, exclusions_a=a.exclusions, exclusions_b=b.exclusions)

    def prepare(self, m: Marked, codes: UnitCodes) -> PreparedDocument:
        """``m`` ready for many comparisons in one pass (``codes``: that pass's unit codes)."""
        return prepare_document(m.units, min_run=self.settings.min_run, codes=codes, template=m.template,
                                excluded=m.excluded, exclusions=m.exclusions)

    def compare_prepared(
        self,
        a: PreparedDocument,
        b: PreparedDocument,
        *,
        min_similarity: float | None = None,
        min_containment: float | None = None,
        counts_only: bool = False,
        bag_bounded: bool = False,
    ) -> Comparison | None:
        """:meth:`compare` of two prepared documents: the same answer, without per-pair re-coding
        (``counts_only``, ``bag_bounded``: see :func:`compare_prepared`)."""
        # (the Comparison carries each side's exclusions: compare_prepared puts them in)
        return compare_prepared(a, b, min_similarity=min_similarity, min_containment=min_containment,
                                counts_only=counts_only, bag_bounded=bag_bounded)
