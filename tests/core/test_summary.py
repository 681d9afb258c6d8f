"""The headline figures of a check share one denominator, so they can never contradict each other.

Reported: "without quotations 84.1 %" above "copied 83.8 %", and with quote exclusion on, copied
18.4 % below "largest single source 30.3 %". Property tests hold the inequalities over random
span layouts (any marks, any sources) and over real comparisons under random exclusion settings.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from neardup_gui.core.summary import covered_spans, summarise
from neardup_gui.core.results import Comparison, DocumentInfo, MatchSpan, SourceMatch
from neardup_gui.core.settings import Settings
from neardup_gui.core.units import tokenize
from neardup_gui.core.verify import Marked, Verifier

N_UNITS = 60
TEXT = " ".join(f"w{i}" for i in range(N_UNITS))
UNITS = tokenize(TEXT)
STARTS, ENDS = UNITS.starts.tolist(), UNITS.ends.tolist()

unit_range = st.tuples(st.integers(0, N_UNITS - 1), st.integers(1, 20)).map(
    lambda t: (t[0], min(N_UNITS, t[0] + t[1])))


def char_span(r: tuple[int, int]) -> tuple[int, int]:
    return (STARTS[r[0]], ENDS[r[1] - 1])


def info(i: int) -> DocumentInfo:
    return DocumentInfo(doc_id=i, path=f"/c/s{i}.txt", rel=f"s{i}.txt", size=1, sha256="", status="indexed")


def source(i: int, ranges: list[tuple[int, int]], containment: float = 0.0) -> SourceMatch:
    spans = tuple(MatchSpan(char_span(r), (0, 1), r[1] - r[0]) for r in ranges)
    comp = Comparison(similarity=0.0, containment_a=containment, containment_b=0.0, common_units=0,
                      units_a=N_UNITS, units_b=1, spans=spans)
    return SourceMatch(info(i), comp)


@settings(max_examples=300, deadline=None)
@given(template=st.lists(unit_range, max_size=3), excluded=st.lists(unit_range, max_size=3),
       quoted=st.lists(unit_range, max_size=3), sources=st.lists(st.lists(unit_range, min_size=1, max_size=4), max_size=5),
       quotes_excluded=st.booleans())
def test_figures_share_one_denominator_for_any_span_layout(template, excluded, quoted, sources, quotes_excluded):
    quoted_spans = tuple(sorted(char_span(r) for r in quoted))
    excluded_spans = tuple(sorted(char_span(r) for r in excluded) + (list(quoted_spans) if quotes_excluded else []))
    marked = Marked(TEXT, UNITS, tuple(sorted(char_span(r) for r in template)), tuple(sorted(excluded_spans)), quoted_spans)
    matches = [source(i, ranges) for i, ranges in enumerate(sources)]
    s = summarise(marked, matches)

    # the same figures counted the slow way, unit by unit
    def units_of(ranges):
        return {u for a, b in ranges for u in range(a, b)}
    template_u = units_of(template)
    countable = set(range(N_UNITS)) - template_u - units_of(excluded) - (units_of(quoted) if quotes_excluded else set())
    per_source = [units_of(r) & countable for r in sources]
    copied = set().union(*per_source) if per_source else set()
    d = len(countable)
    assert s.countable_units == d
    assert s.template_units == len(template_u)
    assert s.excluded_units == N_UNITS - d - len(template_u)
    assert s.copied_ratio == (len(copied) / d if d else 0.0)
    assert s.copied_ratio_without_quotes == (len(copied - units_of(quoted)) / d if d else 0.0)
    # credit: each unit to one source, in order of containment (all 0 here), then name
    taken, credited = set(), []
    for k in sorted(range(len(sources)), key=lambda k: matches[k].source.rel):
        credited.append(per_source[k] - taken)
        taken |= per_source[k]
    assert s.largest_source_ratio == (max((len(u) for u in credited), default=0) / d if d else 0.0)
    assert sum(len(u) for u in credited) == len(copied)  # the credited units add up to copied
    # the inequalities the examiner relies on
    assert 0.0 <= s.largest_source_ratio <= s.copied_ratio <= 1.0
    assert s.copied_ratio_without_quotes <= s.copied_ratio
    assert s.copied_ratio_without_template <= s.copied_ratio
    assert s.sources == sum(1 for u in credited if u)  # the sources credited with something
    if quotes_excluded:
        assert s.copied_ratio_without_quotes == s.copied_ratio  # nothing quoted is left to remove


def test_covered_spans_are_the_submission_side_of_the_passages():
    m = source(0, [(0, 5), (10, 12)])
    assert covered_spans(m) == (char_span((0, 5)), char_span((10, 12)))


# --- real comparisons under random exclusion settings ---------------------------------------------

SENTENCES = [
    "The committee reads every proposal with care and compares it with earlier calls",
    "Soil moisture sensors were placed along the river bank every fifty metres",
    "We measured the erosion rate over three winters with repeated laser scans",
    "The model predicts retreat from wave energy and the strength of the cliff",
    "Funding will pay for two students and the field equipment they need",
    "Results will be shared with the coastal authority and the local council",
    "Earlier work ignored the role of groundwater in the collapse of the slope",
    "Our pilot data show that storms explain most of the retreat observed",
    "本项目研究水稻在干旱条件下的基因表达变化及其调控网络",
    "我们将在三个试验站开展连续两年的田间试验并收集样品",
]


def build(rng: np.random.Generator, pieces: list[str]) -> str:
    out = []
    for p in pieces:
        roll = rng.random()
        if roll < 0.2:
            out.append(f"As the call says, “{p}.”")
        elif roll < 0.3:
            out.append(f"References\n{p}.")
        else:
            out.append(p + ".")
    return "\n".join(out)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), exclude_quotes=st.booleans(), exclude_bibliography=st.booleans(),
       min_run=st.integers(3, 10), template_keys=st.booleans())
def test_real_comparisons_keep_the_inequalities(seed, exclude_quotes, exclude_bibliography, min_run, template_keys):
    rng = np.random.default_rng(seed)
    submission = build(rng, list(rng.choice(SENTENCES, size=8)))
    sources = [build(rng, list(rng.choice(SENTENCES, size=5))) for _ in range(3)]
    cfg = Settings(min_run=min_run, exclude_quotes=exclude_quotes, exclude_bibliography=exclude_bibliography)
    keys = ()
    if template_keys:  # the first sentence is the call's form
        from neardup_gui.core.templates import sentence_keys

        keys = [k for _, k in sentence_keys(SENTENCES[0] + ".")]
    v = Verifier(cfg, keys)
    sub = v.mark(submission)
    matches = []
    for i, text in enumerate(sources):
        comp = v.compare(sub, v.mark(text))
        if comp is not None and comp.common_units:
            matches.append(SourceMatch(info(i), comp))
    s = summarise(sub, matches)
    assert s.copied_ratio_without_quotes <= s.copied_ratio <= 1.0
    assert s.copied_ratio_without_template <= s.copied_ratio
    for m in matches:
        # what the sources table shows for each source is never above the headline
        assert m.comparison.containment_a <= s.copied_ratio + 1e-12
        assert m.comparison.units_a == s.countable_units  # one denominator
    best = max((m.comparison.containment_a for m in matches), default=0.0)
    assert abs(s.largest_source_ratio - best) < 1e-12
