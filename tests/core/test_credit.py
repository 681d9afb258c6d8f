"""Whose text it is: a passage several sources hold is credited to one of them.

A call where three applicants copied the same indexed original and a fourth copied the first of
them (that applicant's own section, and one paragraph of the original): the first three are
credited to the original, the fellow applicants who hold the same text only "also in"; the fourth
is credited to the applicant it copied. The command line's JSON, the figures of a screening and
the committee report say the same.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings as hsettings
from hypothesis import strategies as st

from tests.credit_case import SETTINGS, credit_call
from neardup_gui.cli import main
from neardup_gui.core.credit import COLLECTION, SUBMISSION, credit
from neardup_gui.core.report.committee import build_submission_report
from neardup_gui.core.results import Comparison, DocumentInfo, Passage, SourceMatch
from neardup_gui.core.screening import submission_detail
from neardup_gui.core.store import Store
from neardup_gui.core.units import tokenize

@pytest.fixture(scope="module")
def call(tmp_path_factory) -> tuple[Path, Path]:
    """(the index, the call's folder), screened as "call"."""
    return credit_call(tmp_path_factory.mktemp("credit"), SETTINGS)


def _credited(db: Path, rel: str) -> list[tuple[str, float, float]]:
    with Store(db, create=False) as store:
        detail = submission_detail(store, "call", rel)
        return [(s.name, s.credit.share, s.containment) for s in detail.counted()]


@pytest.mark.parametrize("k", [1, 2, 3])
def test_applicants_who_copied_the_original_are_credited_to_it(call, k: int) -> None:
    db, _ = call
    credited = _credited(db, f"applicant-{k}.docx")
    first = credited[0]
    assert first[0] == "original.docx" and first[1] > 0.5
    fellows = {name: (share, holds) for name, share, holds in credited if name.startswith("applicant-")}
    for other in {1, 2, 3} - {k}:
        share, holds = fellows[f"applicant-{other}.docx"]
        # holds the original's text: "also in", credited at most the odd unit where its passage
        # and the original's end differently
        assert holds > 0.5 and share < 0.05
    with Store(db, create=False) as store:
        row = {r.rel: r for r in _rows(store)}[f"applicant-{k}.docx"]
    assert row.largest_source.endswith("original.docx") and row.largest == pytest.approx(first[1])


def test_the_applicant_who_copied_a_fellow_is_credited_to_that_fellow(call) -> None:
    db, _ = call
    credited = dict((name, share) for name, share, _ in _credited(db, "applicant-4.docx"))
    assert max(credited, key=credited.get) == "applicant-1.docx"
    assert 0 < credited["original.docx"] < credited["applicant-1.docx"]  # its one paragraph of the original
    assert credited.get("applicant-2.docx", 0.0) < 0.05


def test_credited_shares_add_up_to_the_copied_share(call) -> None:
    db, _ = call
    with Store(db, create=False) as store:
        for row in _rows(store):
            detail = submission_detail(store, "call", row.rel)
            total = sum(s.credit.share for s in detail.counted())
            assert total == pytest.approx(row.copied), row.rel


def test_the_json_and_the_committee_report_name_the_same_sources(call, capsys) -> None:
    db, folder = call
    assert main(["screen", str(folder), "--db", str(db), "--name", "call", "--json", "-q"]) == 0
    rows = {Path(r["path"]).name: r for r in json.loads(capsys.readouterr().out)["submissions"]}
    for rel, source in (("applicant-1.docx", "original.docx"), ("applicant-4.docx", "applicant-1.docx")):
        r = rows[rel]
        assert Path(r["largest_source"]).name == source
        best = max(r["source_list"], key=lambda s: s["credited"])
        assert Path(best["path"]).name == source and best["credited"] == pytest.approx(r["largest_source_ratio"])
        with Store(db, create=False) as store:
            report = build_submission_report(store, "call", rel, SETTINGS)
        assert Path(report.largest_source).name == source
        entry = max(report.sources, key=lambda e: e.credited)
        assert entry.document.name == source and entry.credited == pytest.approx(report.largest)
    also = [s for s in rows["applicant-1.docx"]["source_list"] if Path(s["path"]).name == "applicant-2.docx"]
    assert also and also[0]["credited"] < 0.05 and also[0]["containment"] > 0.5


def _rows(store: Store):
    from neardup_gui.core.screening import load_screening

    return [r for r in load_screening(store, "call").rows if r.status == "done"]


# --- the rule on its own -------------------------------------------------------------------------


def _match(name: str, spans: list[tuple[int, int]], kind: str = COLLECTION, indexed_at: float = 0.0) -> SourceMatch:
    passages = tuple(Passage(a=s, b=s, units_a=0, units_b=0, matched_units=0, runs=()) for s in spans)
    comp = Comparison(similarity=0.0, containment_a=sum(e - s for s, e in spans) / 1000, containment_b=0.0,
                      common_units=0, units_a=0, units_b=0, spans=(), passages=passages)
    info = DocumentInfo(doc_id=0, path=name, rel=name, size=0, sha256="", status="indexed", indexed_at=indexed_at)
    return SourceMatch(info, comp, kind=kind)


@hsettings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.lists(st.tuples(st.integers(0, 90), st.integers(1, 30)), max_size=4),
                          st.sampled_from([COLLECTION, SUBMISSION]), st.sampled_from([0.0, 1.0, 2.0])),
                min_size=1, max_size=5))
def test_property_credit_tiles_what_the_sources_hold(sources) -> None:
    """Every unit any source holds is credited to exactly one of them; a collection's document
    before the call's, the earlier indexed before the later; never to a source not holding it."""
    text = " ".join(f"w{i}" for i in range(100))
    units = tokenize(text)
    char = lambda i: int(units.starts[min(i, 99)])  # noqa: E731
    matches = [_match(f"s{k}", [(char(a), int(units.ends[min(a + n, 100) - 1])) for a, n in spans], kind, at)
               for k, (spans, kind, at) in enumerate(sources)]
    countable = np.ones(len(units), dtype=bool)
    credited = credit(units, countable, matches)
    from neardup_gui.core.compare import units_in_spans

    held = [units_in_spans(units, [p.a for p in m.comparison.passages]) for m in matches]
    got = [units_in_spans(units, m.credit.spans) for m in credited]
    assert not np.logical_and.reduce([np.sum(got, axis=0) > 1]).any()  # each unit credited once
    assert (np.sum(got, axis=0) > 0).tolist() == np.any(held, axis=0).tolist()
    for g, h, m in zip(got, held, credited):
        assert not (g & ~h).any() and m.credit.units == int(g.sum())
    for i, g in enumerate(got):  # who comes first keeps what it holds
        for j, m in enumerate(matches):
            first = (m.kind != COLLECTION, m.source.indexed_at) < (matches[i].kind != COLLECTION, matches[i].source.indexed_at)
            if first:
                assert not (g & held[j]).any()
