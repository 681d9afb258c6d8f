"""The examiner's decisions: kept under the two texts' contents, applied to the figures as they say."""

from __future__ import annotations

import html
import sqlite3
from pathlib import Path

import pytest

from tests.applicants_case import make_call
from tests.credit_case import SETTINGS as CREDIT_SETTINGS, credit_call
from neardup_gui.core.collection import Collection
from neardup_gui.core.decisions import DecisionBook, decide
from neardup_gui.core.results import CONFIRMED, NOT_RELEVANT, PERMITTED
from neardup_gui.core.screening import decide_source, load_screening, screen_folder, submission_detail
from neardup_gui.core.settings import Settings
from neardup_gui.core.store import SCHEMA_VERSION, Store, examiner

SETTINGS = Settings(auto_template=False, workers=1)


def test_a_decision_is_found_by_the_two_contents_either_way_round_and_by_the_files_once_changed() -> None:
    rows = [("aa", "bb", "/a", "/b", PERMITTED, "cited", "ref. [3]", 1.0e9)]
    book = DecisionBook(rows)
    d = book.on(("bb", "/b-moved"), ("aa", "/a"))
    assert (d.choice, d.note, d.changed, d.sets_apart) == ("cited", "ref. [3]", False, True)
    changed = book.on(("aa", "/a"), ("cc", "/b"))
    assert changed.changed and not changed.sets_apart and changed.to_json()["text_changed_since"]
    assert book.on(("aa", "/a"), ("cc", "/c")) is None
    assert book.on(("", "/a"), ("bb", "/b")) is None
    assert DecisionBook([("aa", "bb", "/a", "/b", CONFIRMED, "", "", 1.0)]).on(("aa", "/a"), ("bb", "/b")).sets_apart is False
    assert DecisionBook([("aa", "bb", "/a", "/b", NOT_RELEVANT, "", "", 1.0)]).on(("aa", "/a"), ("bb", "/b")).sets_apart


def test_deciding_again_replaces_the_decision_taken_before_a_text_changed(tmp_path: Path) -> None:
    with Store(tmp_path / "i.ndx") as store:
        decide(store, ("aa", "/a"), ("bb", "/b"), "cited", "first")
        decide(store, ("aa2", "/a"), ("bb", "/b"), "confirmed", "  again  ")  # (the text of /a changed)
        [row] = examiner.decision_rows(store)
        assert row[:2] == ("aa2", "bb") and row[4:7] == ("confirmed", "", "again")
        with pytest.raises(ValueError, match="a decision is one of"):
            decide(store, ("aa", "/a"), ("bb", "/b"), "plagiarism")
        decide(store, ("aa2", "/a"), ("bb", "/b"), None)
        assert examiner.decision_rows(store) == []


@pytest.fixture(scope="module")
def call(tmp_path_factory) -> tuple[Path, Path]:
    """X's resubmission, Y's half copy and Z's own work, applicants from their metadata, screened."""
    root = tmp_path_factory.mktemp("decisions")
    collection, folder, _, _ = make_call(root, metadata=True)
    db = root / "index.ndx"
    with Collection.open(db) as coll:
        coll.index_folder(str(collection), SETTINGS)
        screen_folder(coll, str(folder), SETTINGS, name="call")
    return db, folder


def _row(store: Store, rel: str):  # noqa: ANN202
    return next(r for r in load_screening(store, "call").rows if r.rel == rel)


def test_permitted_text_leaves_the_copied_share_wherever_else_it_is_found(call, tmp_path: Path) -> None:
    db, folder = call
    with Store(db) as store:
        before = _row(store, "y-proposal.docx")
        detail = submission_detail(store, "call", "y-proposal.docx")
        original = next(s for s in detail.sources if s.name == "x-2024-proposal.docx")
        # X's resubmission in the call holds the same half: the decision on the original sets
        # the text apart, so it is not counted from the resubmission either
        assert any(s.name == "x-resubmission.docx" for s in detail.sources)
        row = decide_source(store, "call", "y-proposal.docx", original.path, "cited", "quoted, reference [3]")
        assert row.copied == 0.0 and row.copied_from_others == 0.0 and not row.flagged(0.3)
        assert row.set_apart == pytest.approx(before.copied, abs=0.01) and row.decided >= 1
        detail = submission_detail(store, "call", "y-proposal.docx")
        decided = next(s for s in detail.sources if s.name == "x-2024-proposal.docx")
        assert decided.excluded and decided.decision.note == "quoted, reference [3]"
        summary = detail.summary()
        assert summary.copied_ratio == 0.0 and summary.set_apart == pytest.approx(before.copied, abs=0.01)
        # confirmed copying counts as before
        row = decide_source(store, "call", "y-proposal.docx", original.path, "confirmed")
        assert row.copied == pytest.approx(before.copied) and row.flagged(0.3)
        decide_source(store, "call", "y-proposal.docx", original.path, None)
        assert _row(store, "y-proposal.docx").copied == pytest.approx(before.copied)


def test_own_work_and_others_add_up_to_the_copied_share_and_the_flag_is_by_others(call) -> None:
    db, _ = call
    with Store(db) as store:
        rows = {r.rel: r for r in load_screening(store, "call").rows}
        for r in rows.values():
            assert r.copied_from_own + r.copied_from_others == pytest.approx(r.copied)
        x = rows["x-resubmission.docx"]
        assert x.copied > 0.95 and not x.flagged(0.3) and x.resubmission_of.endswith("x-2024-proposal.docx")
        assert [r.rel for r in load_screening(store, "call").rows][0] == "y-proposal.docx"  # ranked by others'


def test_an_index_of_schema_8_keeps_its_excluded_sources_as_decisions(tmp_path: Path) -> None:
    db, _ = credit_call(tmp_path, CREDIT_SETTINGS)
    with Store(db) as store:
        detail = submission_detail(store, "call", "applicant-4.docx")
        source = detail.sources[0]
        copied = _copied(store, "applicant-4.docx")
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE decisions")
    conn.execute("DROP TABLE applicants")
    conn.execute("UPDATE screening_sources SET sha256 = ''")
    conn.execute("INSERT INTO source_exclusions VALUES (?, ?, 1.0)", (detail.row.sha256, source.path))
    conn.execute("PRAGMA user_version = 8")
    conn.commit()
    conn.close()
    with Store(db) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.conn.execute("SELECT COUNT(*) FROM source_exclusions").fetchone()[0] == 0
        [row] = examiner.decision_rows(store)
        assert row[4] == "not_relevant" and source.path in row[2:4]
        detail = submission_detail(store, "call", "applicant-4.docx")
        assert detail.sources[0].excluded and detail.sources[0].sha256
        assert _copied(store, "applicant-4.docx") == pytest.approx(copied)  # (the figures kept)


def _copied(store: Store, rel: str) -> float:
    return next(r.copied for r in load_screening(store, "call").rows if r.rel == rel)


def test_the_committee_report_gives_both_ratios_the_resubmission_and_each_decision_with_its_note(call) -> None:
    from neardup_gui.core.report.committee import build_screening_report, build_submission_report, committee_csv
    from neardup_gui.core.report.committee_html import render_screening_html, render_submission_html

    db, _ = call
    with Store(db) as store:
        detail = submission_detail(store, "call", "y-proposal.docx")
        original = next(s for s in detail.sources if s.name == "x-2024-proposal.docx")
        decide_source(store, "call", "y-proposal.docx", original.path, "common-knowledge", "textbook definitions")
        try:
            for lang, words in (("en", ("Copied without own documents", "Resubmission / duplicate "
                                        "submission of x-2024-proposal.docx", "from the file's author metadata")),
                                ("zh_CN", ("去除本人文献复制比", "重复申报", "来自文件的作者属性"))):
                x = build_submission_report(store, "call", "x-resubmission.docx", SETTINGS, lang=lang)
                assert x.copied_from_own > 0.95 and x.copied_from_others < 0.02 and not x.flagged
                assert x.resubmission_of == "x-2024-proposal.docx"
                page = html.unescape(render_submission_html(x, flavour="qt"))
                assert all(w in page for w in words), lang
            y = build_submission_report(store, "call", "y-proposal.docx", SETTINGS, lang="zh_CN")
            page = render_submission_html(y)
            assert y.copied == 0.0 and y.set_apart > 0.4 and not y.flagged
            entry = next(e for e in y.sources if e.document.name == "x-2024-proposal.docx")
            assert entry.decision.choice == "common-knowledge" and entry.excluded
            assert "审查人认定" in page and "允许：公知内容" in page and "textbook definitions" in page
            assert entry.decision.date()[:10].replace("-", "") and entry.decision.date().replace("T", " ")[:16] in page
            assert "经审查人认定而剔除" in page
            row = next(line for line in committee_csv(y).splitlines()[1:] if "x-2024-proposal.docx" in line)
            assert "common-knowledge" in row and "textbook definitions" in row
            table = render_screening_html(build_screening_report(store, "call", SETTINGS, lang="zh_CN"))
            assert "去除本人文献复制比" in table and "重复申报" in table and "王小明" in table
        finally:
            decide_source(store, "call", "y-proposal.docx", original.path, None)
