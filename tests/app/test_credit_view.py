"""The submission view follows the credit: a passage several sources hold is in its credited
source's colour, and the legend gives each source its credited share (core/credit.py)."""

from __future__ import annotations

from neardup_gui.app.submissionview import SubmissionView, source_colour
from neardup_gui.app.tasks import TaskRunner
from neardup_gui.core.report.committee import build_submission_report
from neardup_gui.core.screening import coloured_spans, submission_detail
from neardup_gui.core.store import Store
from tests.credit_case import SETTINGS, credit_call


def test_the_window_colours_and_lists_the_sources_by_their_credit(qtbot, tmp_path) -> None:
    db, _ = credit_call(tmp_path, SETTINGS)
    with Store(db, create=False) as store:
        detail = submission_detail(store, "call", "applicant-4.docx")
        report = build_submission_report(store, "call", "applicant-4.docx", SETTINGS)
    runner = TaskRunner()
    view = SubmissionView(detail, str(db), SETTINGS, runner, None)
    qtbot.addWidget(view)
    try:
        counted = {s.name: s for s in view.counted()}
        fellow, original = counted["applicant-1.docx"], counted["original.docx"]
        assert fellow.credit.share > original.credit.share > 0
        # the legend: the fellow applicant it copied first, at its credited share, as the report has it
        first = view.legend.item(0).text()
        assert first.startswith(f"[{view.numbers[fellow.rank]}] applicant-1.docx")
        entry = {e.document.name: e for e in report.sources}["applicant-1.docx"]
        assert f"{100 * entry.credited:.1f}%" in first
        # the text: the original's paragraph in the original's colour, though applicant 1 holds it too
        pieces = coloured_spans(view.counted())
        by_rank = {rank: sum(e - s for (s, e), r, _ in pieces if r == rank) for rank in (fellow.rank, original.rank)}
        assert by_rank[original.rank] > 0 and by_rank[fellow.rank] > by_rank[original.rank]
        html = view.text.toHtml()
        for s in (fellow, original):
            assert source_colour(view.palette(), view.numbers[s.rank]).name() in html
        # applicants 2 and 3 hold the original's paragraph too: listed, credited nothing
        assert counted["applicant-2.docx"].credit.units == 0
    finally:
        view.close()
        runner.shutdown()
