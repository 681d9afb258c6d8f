"""Core records built by hand for widget tests: a plain, independent exact method over real texts."""

from __future__ import annotations

import difflib

from neardup_gui.core.results import Comparison, MatchSpan
from neardup_gui.core.units import tokenize


def exact_comparison(text_a: str, text_b: str, min_run: int = 8) -> Comparison:
    """A Comparison of two texts from difflib's matching blocks over units (runs ≥ min_run).

    A plain, independent method: good enough to give the view real spans and real offsets.
    """
    ua, ub = tokenize(text_a), tokenize(text_b)
    matcher = difflib.SequenceMatcher(None, list(ua.tokens), list(ub.tokens), autojunk=False)
    spans = []
    for block in matcher.get_matching_blocks():
        if block.size >= min_run:
            spans.append(
                MatchSpan(
                    a=ua.span(block.a, block.a + block.size),
                    b=ub.span(block.b, block.b + block.size),
                    units=block.size,
                )
            )
    common = sum(s.units for s in spans)
    na, nb = len(ua), len(ub)
    return Comparison(
        similarity=common / (na + nb - common) if na + nb - common else 0.0,
        containment_a=common / na if na else 0.0,
        containment_b=common / nb if nb else 0.0,
        common_units=common,
        units_a=na,
        units_b=nb,
        spans=tuple(spans),
    )
