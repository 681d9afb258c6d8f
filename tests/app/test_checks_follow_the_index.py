"""A checked submission shown on the Check tab follows the collection it was checked against.

Found by driving the window with random actions: a submission checked, then its source removed
from the folder and the collection refreshed, kept showing that source — and exporting its
report failed with the message "67" (the source's document id, gone from the index; a source
changed on disk is indexed again under a new id, the same). Now a refresh that changes the
collection checks the shown submissions again, as a change of settings does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from neardup_gui.app.export import start_export


def _texts(corpus_dir: Path) -> list[str]:
    files = sorted((corpus_dir / "debian-reference-en").glob("*.txt"))
    texts = [f.read_text(encoding="utf-8") for f in files]
    return [t for t in texts if len(t) > 3000][:4]


def _opened(qtbot, window, tmp_path: Path, files: dict[str, str]) -> Path:
    """The folder "proposals" holding ``files`` (name -> text), opened in ``window`` and paired."""
    folder = tmp_path / "proposals"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.open_folder(str(folder))
    return folder


def _submission_opened(qtbot, window, tmp_path: Path, texts: list[str]):  # noqa: ANN202
    """The collection {a.txt, b.txt} opened, the call {new.txt: most of a, then d} screened, and
    new.txt's view opened: (the collection's folder, the view)."""
    a, b, _, d = texts
    call = tmp_path / "call"
    call.mkdir()
    (call / "new.txt").write_text(a[: len(a) * 2 // 3] + "\n\n" + d, encoding="utf-8")
    folder = _opened(qtbot, window, tmp_path, {"a.txt": a, "b.txt": b})
    with qtbot.waitSignal(window.screening_ready, timeout=60_000):
        window.screen_folder(str(call))
    with qtbot.waitSignal(window.submission_opened, timeout=60_000) as opened:
        window.open_submission("call", "new.txt")
    return folder, opened.args[0]


def test_a_refresh_that_removes_a_source_checks_the_shown_submission_again(
        qtbot, window, no_blocking_dialogs, corpus_dir, tmp_path):
    a, b, c, d = _texts(corpus_dir)
    submission = tmp_path / "new.txt"  # most of a, then d's text
    submission.write_text(a[: len(a) * 2 // 3] + "\n\n" + d, encoding="utf-8")
    folder = _opened(qtbot, window, tmp_path, {"a.txt": a, "b.txt": b, "c.txt": c})
    with qtbot.waitSignal(window.check_ready, timeout=60_000):
        window.check_files([str(submission)])
    assert [s.source.rel for s in window.visible_sources()][:1] == ["a.txt"]

    (folder / "a.txt").unlink()
    (folder / "d.txt").write_text(d, encoding="utf-8")  # the rest of the submission arrives
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.refresh()
    qtbot.waitUntil(lambda: not window.is_busy() and not window.updating, timeout=60_000)
    sources = [s.source.rel for s in window.visible_sources()]
    assert "a.txt" not in sources and sources[:1] == ["d.txt"]
    assert "compared again" in window.statusBar().currentMessage()
    summary = window.check_page.summary_label.text()
    assert "1 source found" in summary and "sources found" not in summary  # (said "1 sources found")

    # the report of the shown check is written, of the collection as it is
    out = tmp_path / "check.json"
    job = start_export(None, "check-submission", window.db_path, window.settings, str(out),
                       {"result": window.current_check_result()})
    with qtbot.waitSignal(job.finished, timeout=60_000):
        pass
    assert job.outcome == "done"
    report = json.loads(out.read_text(encoding="utf-8"))
    assert "a.txt" not in json.dumps(report) and "d.txt" in json.dumps(report)


def test_a_refresh_that_changes_nothing_keeps_the_shown_check(qtbot, window, no_blocking_dialogs, corpus_dir, tmp_path):
    a, b, c, _ = _texts(corpus_dir)
    submission = tmp_path / "new.txt"
    submission.write_text(a[: len(a) // 2] + "\n\n" + c, encoding="utf-8")
    _opened(qtbot, window, tmp_path, {"a.txt": a, "b.txt": b})
    with qtbot.waitSignal(window.check_ready, timeout=60_000):
        window.check_files([str(submission)])
    shown = window.current_check_result()
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.refresh()
    qtbot.waitUntil(lambda: not window.is_busy() and not window.updating, timeout=60_000)
    assert window.current_check_result() is shown  # (nothing changed: not checked again)


def test_a_screened_source_removed_since_is_said_in_words(qtbot, window, no_blocking_dialogs, corpus_dir, tmp_path):
    """A call screened, then its source removed from the collection and the collection refreshed:
    opening the submission beside that source said nothing (the failure was only logged) — now
    the window says the document left the collection and what to do, with no traceback; a
    report's error names the document in words, not as a bare number."""
    from neardup_gui.core.store import DocumentGone

    folder, view = _submission_opened(qtbot, window, tmp_path, _texts(corpus_dir))
    assert [s.name for s in view.detail.sources][:1] == ["a.txt"]
    (folder / "a.txt").unlink()
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.refresh()
    qtbot.waitUntil(lambda: not window.runner.is_busy(), timeout=60_000)
    with qtbot.waitSignal(window.task_failed, timeout=60_000) as failed:
        view.open_source(view.detail.sources[0].rank)
    assert failed.args == ["A document of this result is no longer in the collection."]
    dialog = window._error_dialogs[-1]
    assert "screen the call again" in dialog.advice.text()
    assert not dialog.details.isVisible()  # (an expected condition: no traceback to copy)
    assert "no longer in the collection" in str(DocumentGone(67)) and "67" in str(DocumentGone(67))


def test_a_pair_opened_after_its_document_left_is_said_in_words(qtbot, window, no_blocking_dialogs, corpus_dir,
                                                                  tmp_path):
    """A pair of the Duplicates list clicked just as a refresh removed one of its documents (found
    by random actions: "KeyError: 14" with a traceback, as a bug)."""
    a, b, _, _ = _texts(corpus_dir)
    folder = _opened(qtbot, window, tmp_path, {"a.txt": a, "a2.txt": a.replace("the", "a", 5), "b.txt": b})
    pair = window.duplicates_page.model.records()[0]
    (folder / pair.a.rel).unlink()
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.refresh()
    qtbot.waitUntil(lambda: not window.runner.is_busy(), timeout=60_000)
    with qtbot.waitSignal(window.task_failed, timeout=60_000) as failed:
        window.open_pair_diff(pair.a.doc_id, pair.b.doc_id)
    assert failed.args == ["A document of this result is no longer in the collection."]
    assert not window._error_dialogs[-1].details.isVisible()


def test_a_rebuilt_index_shows_no_screening_of_the_old_one(qtbot, window, no_blocking_dialogs, corpus_dir, tmp_path):
    """Rebuilding (offered when an index cannot be used) starts a fresh file, without screenings:
    the Screening tab kept showing the old file's, and its report then failed ("no screening
    named 'call' in this index", found by random actions)."""
    a, b, _, d = _texts(corpus_dir)
    call = tmp_path / "call"
    call.mkdir()
    (call / "new.txt").write_text(a[: len(a) // 2] + "\n\n" + d, encoding="utf-8")
    _opened(qtbot, window, tmp_path, {"a.txt": a, "b.txt": b})
    with qtbot.waitSignal(window.screening_ready, timeout=60_000):
        window.screen_folder(str(call))
    assert window.screening_page.screening is not None
    with qtbot.waitSignal(window.screening_ready, timeout=60_000):
        window.rebuild()
    assert window.screening_page.screening is None and window.screening_page.combo.count() == 0


def test_a_submission_of_a_screening_gone_is_said_in_words(qtbot, window, no_blocking_dialogs, corpus_dir, tmp_path):
    """A submission opened from a screening that is no longer in the index — the index rebuilt, or
    the call screened again without that file — said "Something went wrong … a bug in neardup"
    with a traceback (``KeyError: "no screening named 'call' in this index"``, found by random
    actions). Now it is said as the expected condition it is, and the Screening tab is shown
    again as the index holds it."""
    a, b, _, d = _texts(corpus_dir)
    call = tmp_path / "call"
    call.mkdir()
    (call / "new.txt").write_text(a[: len(a) // 2] + "\n\n" + d, encoding="utf-8")
    (call / "other.txt").write_text(b[: len(b) // 2], encoding="utf-8")
    _opened(qtbot, window, tmp_path, {"a.txt": a, "b.txt": b})
    with qtbot.waitSignal(window.screening_ready, timeout=60_000):
        window.screen_folder(str(call))
    (call / "other.txt").unlink()
    with qtbot.waitSignal(window.screening_ready, timeout=60_000):
        window.screen_folder(str(call), name="call")
    assert [r.rel for r in window.screening_page.screening.rows] == ["new.txt"]

    headline = "This screening has changed since it was shown."
    with qtbot.waitSignal(window.screening_ready, timeout=60_000):  # then the tab is loaded again
        with qtbot.waitSignal(window.task_failed, timeout=60_000) as failed:
            window.open_submission("call", "other.txt")  # (a row shown before the second screening)
    assert failed.args == [headline]
    assert not window._error_dialogs[-1].details.isVisible()  # (expected: no traceback to copy)
    assert "open the submission again" in window._error_dialogs[-1].advice.text()

    with qtbot.waitSignal(window.screening_ready, timeout=60_000):
        window.rebuild()
    with qtbot.waitSignal(window.task_failed, timeout=60_000) as failed:
        window.open_submission("call", "new.txt")
    assert failed.args == [headline]
    # the tab is loaded again from the index (a fresh one: no screening)
    qtbot.waitUntil(lambda: not window.runner.is_busy(), timeout=60_000)
    assert window.screening_page.screening is None


def test_a_submission_view_from_before_a_rebuild_shows_no_other_document_as_a_source(
        qtbot, window, no_blocking_dialogs, corpus_dir, tmp_path):
    """A rebuilt index numbers its documents from 1 again. A submission's view opened before the
    rebuild named its source by the old number, and its side by side showed whichever document
    the new index gave that number, under the old source's name: evidence of the wrong file. Now
    the screening it was read from is checked to be this index's first."""
    _, _, c, d = texts = _texts(corpus_dir)
    folder, view = _submission_opened(qtbot, window, tmp_path, texts)
    source = view.detail.sources[0]
    assert source.name == "a.txt"
    # the rebuilt index holds three documents (numbers 1-3), none of them a.txt (1 or 2 before)
    (folder / "a.txt").unlink()
    (folder / "c.txt").write_text(c, encoding="utf-8")
    (folder / "d.txt").write_text(d, encoding="utf-8")
    with qtbot.waitSignal(window.screening_ready, timeout=60_000):
        window.rebuild()
    from neardup_gui.core.store import Store

    with Store(window.db_path, create=False) as store:
        assert store.document(source.doc_id).rel in ("b.txt", "c.txt", "d.txt")  # (another file's number now)
    qtbot.waitUntil(lambda: not window.runner.is_busy(), timeout=60_000)
    with qtbot.waitSignal(window.task_failed, timeout=60_000) as failed:
        view.open_source(source.rank)
    assert failed.args == ["This screening has changed since it was shown."]
    assert not window.diff_views


def test_a_result_opened_while_the_index_is_rebuilt_offers_no_rebuild(qtbot, window, no_blocking_dialogs, corpus_dir,
                                                                       tmp_path):
    """A submission or pair opened while a rebuild has the index file away for a moment failed with
    "The index of this collection cannot be used" and offered to rebuild it (found by random
    actions). It is said as what it is, in the status bar, with no dialog."""
    from neardup_gui.core.store import IndexProblem

    a, b, _, _ = _texts(corpus_dir)
    _opened(qtbot, window, tmp_path, {"a.txt": a, "b.txt": b})
    window.rebuild()  # (running until the event loop delivers its end)
    assert window.main_task.name == "rebuild" and window.main_task.is_running()
    dialogs = len(window._error_dialogs)
    with qtbot.waitSignal(window.task_failed, timeout=5_000) as failed:
        window.task_error(IndexProblem("not-an-index", "There is no index at …"), "")
    assert failed.args == ["The index is being rebuilt."]
    assert "Try again when it is done." in window.statusBar().currentMessage()
    assert len(window._error_dialogs) == dialogs
    with qtbot.waitSignal(window.screening_ready, timeout=60_000):
        pass  # (the rebuild ends)
    with qtbot.waitSignal(window.task_failed, timeout=5_000) as failed:  # said as ever once it has ended
        window.task_error(IndexProblem("not-an-index", "There is no index at …"), "")
    assert failed.args == ["The index of this collection cannot be used."]


def test_a_checked_source_from_before_a_rebuild_is_not_shown_by_its_old_number(
        qtbot, window, no_blocking_dialogs, corpus_dir, tmp_path):
    """The Check tab's side by side of a source, asked for between a rebuild and the check made
    again, read the source by its old number: another document's text under the old name."""
    from neardup_gui.app import jobs
    from neardup_gui.core.store import DocumentGone

    a, b, c, d = _texts(corpus_dir)
    submission = tmp_path / "new.txt"
    submission.write_text(a[: len(a) * 2 // 3] + "\n\n" + d, encoding="utf-8")
    folder = _opened(qtbot, window, tmp_path, {"a.txt": a, "b.txt": b})
    with qtbot.waitSignal(window.check_ready, timeout=60_000):
        window.check_files([str(submission)])
    stale = window.current_check_result()
    match = next(m for m in stale.matches if m.source.rel == "a.txt")
    (folder / "a.txt").unlink()
    (folder / "c.txt").write_text(c, encoding="utf-8")
    (folder / "d.txt").write_text(d, encoding="utf-8")
    with qtbot.waitSignal(window.screening_ready, timeout=60_000):
        window.rebuild()
    qtbot.waitUntil(lambda: not window.is_busy() and not window.updating, timeout=60_000)
    with pytest.raises(DocumentGone):
        jobs.source_diff(window.db_path, stale, match, lambda *_: None)
    # the check shown now is of the rebuilt index: its sources open
    shown = window.current_check_result()
    assert shown is not stale and "a.txt" not in {m.source.rel for m in shown.matches}
    source = shown.matches[0].source
    diff = jobs.source_diff(window.db_path, shown, shown.matches[0], lambda *_: None)
    from neardup_gui.core.store import Store

    with Store(window.db_path, create=False) as index:
        assert diff.title_b == source.rel and diff.text_b == index.text(source.doc_id).text
