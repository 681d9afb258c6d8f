"""The examiner's flows on the bundled sample collection: index, duplicates, check, side by side, cancel."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from neardup_gui.app.diffview import DiffView
from neardup_gui.app.mainwindow import MainWindow
from neardup_gui.app.models import source_score
from neardup_gui.app.paths import index_path_for
from neardup_gui.core.collection import Collection
from neardup_gui.core.indexer import unfinished
from neardup_gui.core.settings import Settings

_FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ingest"


def folder_that_cannot_finish(source: Path, target: Path) -> Path:
    """A copy of ``source`` with a PDF that never finishes: indexing it cannot be over before
    the per-file time limit (60 s), so a cancel or a close always meets it still running,
    however fast the machine."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("ingest_fixtures", _FIXTURES / "make_fixtures.py")
    mf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mf)
    shutil.copytree(source, target)
    (target / "endless.pdf").write_bytes(mf.endless_pdf())
    return target

RESUBMISSIONS = {
    frozenset({"en-01-coastal-erosion.docx", "en-02-shoreline-retreat.pdf"}),
    frozenset({"zh-01-水稻抗旱基因.docx", "zh-02-水稻干旱响应调控.pdf"}),
}


@pytest.fixture(scope="session")
def indexed_sample(tmp_path_factory, sample_dir: Path) -> Path:
    """The sample collection indexed once (with its pairs computed), to copy into each test."""
    if not (sample_dir / "EXPECTED.md").is_file():
        pytest.skip("sample collection not written yet")
    db = tmp_path_factory.mktemp("sample-index") / "sample.sqlite"
    with Collection.open(db) as collection:
        collection.index_folder(str(sample_dir.resolve()), Settings())
        collection.pairs(Settings())
    return db


@pytest.fixture
def saved_sample(indexed_sample: Path, sample_dir: Path) -> Path:
    """Put the saved index where the window looks for the sample's index."""
    target = index_path_for(sample_dir)
    target.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(indexed_sample) + suffix)
        if src.exists():
            shutil.copy(src, str(target) + suffix)
    return target



def pair_names(window: MainWindow) -> list[frozenset[str]]:
    return [frozenset({p.a.rel, p.b.rel}) for p in window.pairs]


def test_open_the_sample_collection_indexes_it_and_shows_duplicate_pairs(qtbot, window, sample_dir):
    assert window.stack.currentWidget() is window.welcome
    with qtbot.waitSignal(window.duplicates_ready, timeout=120_000):
        qtbot.mouseClick(window.welcome.sample_button, Qt.MouseButton.LeftButton)
    assert window.stack.currentWidget() is window.workspace
    names = {d.rel for d in window.documents_page.model.records()}
    assert names >= {p.name for p in sample_dir.iterdir() if p.suffix in (".docx", ".pdf", ".txt")}
    assert RESUBMISSIONS <= set(pair_names(window))
    # ranked: best first in the table
    shown = [window.duplicates_page.proxy.record_at(window.duplicates_page.proxy.index(r, 0)).similarity
             for r in range(window.duplicates_page.proxy.rowCount())]
    assert shown == sorted(shown, reverse=True) and len(shown) == len(window.pairs)
    assert window.clusters_page.model.rowCount() == len(window.clusters) >= 2
    assert index_path_for(sample_dir).is_file()
    assert window.recent_list.count() == 1
    assert "indexed" in window.counts_label.text()
    # the documents table filters as one types
    window.documents_page.filter.setText("zh-0")
    assert window.documents_page.proxy.rowCount() == sum(1 for n in names if "zh-0" in n) == 9


def test_reopening_loads_the_saved_index_and_offers_a_refresh(qtbot, window, saved_sample, sample_dir):
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        drop(window, [str(sample_dir)])  # a folder dropped on the window opens as the collection
    assert window.notice.isVisible() and window.notice_refresh.isVisible()
    assert RESUBMISSIONS <= set(pair_names(window))
    # an incremental refresh finds nothing new
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        qtbot.mouseClick(window.notice_refresh, Qt.MouseButton.LeftButton)
    assert "0 added" in window.statusBar().currentMessage() or not window.notice.isVisible()
    assert not window.notice.isVisible()


def drop(window: MainWindow, paths: list[str]) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(p) for p in paths])
    event = QDropEvent(QPointF(200, 200), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)


def test_dropping_a_file_ranks_its_sources_and_the_threshold_filters_live(qtbot, window, saved_sample, sample_dir, tmp_path,
                                                                           answer_boxes, no_blocking_dialogs):
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.open_sample()
    submission = tmp_path / "resubmitted.docx"
    shutil.copy(sample_dir / "en-01-coastal-erosion.docx", submission)
    with qtbot.waitSignal(window.check_ready, timeout=60_000):
        drop(window, [str(submission)])
    assert window.tabs.currentWidget() is window.check_tab
    result = window.current_check_result()
    assert result is not None and result.path == str(submission)
    sources = window.visible_sources()
    assert [s.source.rel for s in sources[:2]] == ["en-01-coastal-erosion.docx", "en-02-shoreline-retreat.pdf"]
    assert sources[0].comparison.containment_a > 0.95
    containments = [s.comparison.containment_a for s in sources]
    assert containments == sorted(containments, reverse=True)
    assert "Copied " in window.check_page.summary_label.text()
    # the option to hide weak sources: those scoring below the line go at once
    cut = int(source_score(sources[1]) * 100) + 1
    assert cut <= 100 * source_score(sources[0])
    window.check_page.hide_box.setChecked(True)
    window.check_page.threshold_spin.setValue(cut)
    kept = [s.source.rel for s in window.visible_sources()]
    assert kept == [s.source.rel for s in sources if source_score(s) >= cut / 100]
    assert kept[0] == "en-01-coastal-erosion.docx" and "en-02-shoreline-retreat.pdf" not in kept
    window.check_page.hide_box.setChecked(False)
    assert len(window.visible_sources()) == len(result.matches)
    # add the checked submission to the collection: kept where it is, as an external member
    before = window.documents_page.model.rowCount()
    answer_boxes.push("Keep where they are")
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        qtbot.mouseClick(window.check_page.add_button, Qt.MouseButton.LeftButton)
    assert "outside the collection's folder" in answer_boxes.asked[-1][1]
    assert window.documents_page.model.rowCount() == before + 1
    assert "kept where it is, as an external member" in window.added_box.text()  # it says which
    window.added_box.accept()
    # the next Refresh keeps it (it used to say "1 removed")
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.refresh()
    assert window.last_report.removed == 0
    assert str(submission) in {d.path for d in window.documents_page.records()}


def test_side_by_side_highlights_every_passage_and_moves_both_panes(qtbot, window, saved_sample):
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.open_sample()
    window.tabs.setCurrentWidget(window.pairs_tab)
    view_index = window.duplicates_page.proxy.index(0, 0)
    pair = window.duplicates_page.proxy.record_at(view_index)
    window.duplicates_page.view.setCurrentIndex(view_index)
    window.duplicates_page.view.setFocus()
    with qtbot.waitSignal(window.diff_opened, timeout=30_000) as opened:
        qtbot.keyClick(window.duplicates_page.view, Qt.Key.Key_Return)
    view: DiffView = opened.args[0]
    with Collection.open(saved_sample, create=False) as collection:
        comparison = collection.compare(pair.a.doc_id, pair.b.doc_id, window.settings)
    assert len(comparison.spans) >= 2
    # one highlighted entry per edited passage (the resubmission's exact runs merged across its
    # edits), and every exact run drawn in the passage colour inside it
    passages = comparison.passages
    assert 1 <= len(passages) < len(comparison.spans)
    assert view.highlight_counts() == (len(passages), len(passages)) and view.passages.count() == len(passages)
    runs = sorted((sel.cursor.selectionStart(), sel.cursor.selectionEnd()) for sel in view.pane_a.extraSelections())
    assert all(s.a in runs for s in comparison.spans)
    assert view.current_match == 0
    assert view.pane_a.current_span == passages[0].a and view.pane_b.current_span == passages[0].b
    view.next_match()  # to the next passage, or round to the first when there is one
    span = view.spans[1 % len(passages)]
    assert view.current_match == 1 % len(passages)
    assert view.pane_a.current_span == span.a and view.pane_b.current_span == span.b
    view.previous_match()
    assert view.current_match == (1 % len(passages) - 1) % len(passages)
    view.close()


def test_cancelling_indexing_keeps_what_was_done(qtbot, window, corpus_dir, tmp_path):
    folder = folder_that_cannot_finish(corpus_dir / "debian-reference-en", tmp_path / "en")
    total = len(list(folder.iterdir()))
    window.open_folder(str(folder))
    task = window.main_task
    assert task is not None and task.name == "index"
    qtbot.waitUntil(lambda: task.fraction > 0.05, timeout=60_000)
    with qtbot.waitSignal(window.collection_loaded, timeout=60_000):
        qtbot.mouseClick(window.progress_panel.cancel_button, Qt.MouseButton.LeftButton)
    assert task.outcome == "cancelled"
    shown = window.documents_page.model.rowCount()
    assert shown < total
    assert window.notice.isVisible() and "cancelled" in window.notice.text()
    # a language switch keeps the notice (before, it was hidden: its state was not kept)
    try:
        assert window.translations.switch("zh_CN")
        qtbot.waitUntil(lambda: window.tabs.tabText(2) == "重复对", timeout=60_000)
        assert window.notice.isVisible() and "索引已取消" in window.notice.text()
    finally:
        window.translations.switch("en")
    qtbot.waitUntil(lambda: window.tabs.tabText(2) == "Duplicates", timeout=60_000)
    assert window.notice.isVisible() and "cancelled" in window.notice.text()
    with Collection.open(index_path_for(folder), create=False) as collection:
        assert len(collection.documents()) == shown  # every document whole, or absent
        assert unfinished(collection.store)
    window.runner.shutdown(30)
    # Opened again later (another window, as after a restart): it says the index is partial.
    # Before, it was "the saved index; files may have changed since", as if it were whole.
    later = MainWindow()
    qtbot.addWidget(later)
    later.show()
    with qtbot.waitSignal(later.collection_loaded, timeout=60_000):
        later.open_folder(str(folder))
    assert later.documents_page.model.rowCount() == shown
    assert later.notice.isVisible() and "did not finish" in later.notice.text()
    later.runner.shutdown(30)
    later.close()


def test_closing_during_indexing_stops_cleanly(qtbot, corpus_dir, tmp_path):
    folder = folder_that_cannot_finish(corpus_dir / "debian-reference-zh-cn", tmp_path / "zh")
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    w.open_folder(str(folder))
    task = w.main_task
    qtbot.waitUntil(lambda: task.fraction > 0.02, timeout=60_000)
    w.close()
    assert task.wait(0)  # the worker has returned before the window went
    with Collection.open(index_path_for(folder), create=False) as collection:
        assert len(collection.documents()) < len(list(folder.iterdir()))
        assert unfinished(collection.store)  # (whoever opens it next is told)


def test_a_fingerprint_size_change_refingerprints_in_the_background(qtbot, window, saved_sample):
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.open_sample()
    new = window.settings.with_(fingerprints=window.settings.fingerprints.__class__(minhash_bits=512))
    window.apply_settings(new, window.language_setting)
    assert window.main_task is not None and window.main_task.name == "index"
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        pass
    with Collection.open(saved_sample, create=False) as collection:
        n = sum(1 for d in collection.documents() if d.status == "indexed")
    report = window.last_report
    assert n > 0 and report.refingerprinted == n  # from the stored texts ...
    assert report.added == report.updated == 0  # ... without reading a file again


def test_a_cluster_member_opens_side_by_side_with_its_representative_and_the_original(
        qtbot, window, saved_sample, sample_dir, monkeypatch):
    from PySide6.QtGui import QDesktopServices

    from neardup_gui.app.models import RECORD_ROLE

    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.open_folder(str(sample_dir))
    model = window.clusters_page.model
    member = None
    for row in range(model.rowCount()):
        parent = model.index(row, 0)
        for child in range(model.rowCount(parent)):
            index = model.index(child, 0, parent)
            data = index.data(RECORD_ROLE)
            if data and data[0] == "member" and data[2] != window.clusters[data[1]].representative.doc_id:
                member = (index, window.clusters[data[1]], data[2])
                break
        if member:
            break
    assert member is not None
    index, cluster, member_id = member
    window.tabs.setCurrentIndex(3)
    with qtbot.waitSignal(window.diff_opened, timeout=60_000) as opened:
        window.clusters_page.view.activated.emit(index)
    view = opened.args[0]
    rep_path = cluster.representative.path
    member_path = next(m.path for m in cluster.members if m.doc_id == member_id)
    assert (view.diff.path_a, view.diff.path_b) == (rep_path, member_path)
    assert view.highlight_counts()[0] > 0
    # "Open A": the original file is handed to the desktop (recorded here: no desktop offscreen)
    asked = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: asked.append(url.toLocalFile()) or True))
    assert view.open_a_button.isEnabled()
    qtbot.mouseClick(view.open_a_button, Qt.MouseButton.LeftButton)
    assert asked == [rep_path]
    view.close()


def test_a_file_named_in_gbk_dropped_on_the_window_is_checked(qtbot, window, saved_sample, sample_dir, tmp_path,
                                                             answer_boxes, no_blocking_dialogs):
    """A file manager sends the name's bytes percent-encoded; Qt decodes them as UTF-8 with U+FFFD
    for what is not, so a GBK name (an archive unpacked from a Windows zip) was "no such file"."""
    from urllib.parse import quote_from_bytes

    from PySide6.QtCore import QByteArray

    from neardup_gui.app.paths import local_file
    from neardup_gui.core.scan import shown_name
    from tests.core.test_undecodable_names import GBK_PROPOSAL, bytes_path

    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        window.open_sample()
    raw = bytes_path(tmp_path, GBK_PROPOSAL)
    shutil.copyfile(sample_dir / "en-01-coastal-erosion.docx", raw)
    url = QUrl.fromEncoded(QByteArray(b"file://" + quote_from_bytes(raw, safe="/").encode("ascii")))
    assert "\ufffd" in url.toLocalFile()  # (what Qt makes of it)
    assert local_file(url) == os.fsdecode(raw)
    mime = QMimeData()
    mime.setUrls([url])
    with qtbot.waitSignal(window.check_ready, timeout=60_000):
        window.dropEvent(QDropEvent(QPointF(200, 200), Qt.DropAction.CopyAction, mime,
                                    Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    result = window.current_check_result()
    assert result is not None and not result.skipped_reason
    assert result.path == shown_name(os.fsdecode(raw)) and result.path.endswith("\\xc9\\xea\\xc7\\xeb\\xca\\xe9.docx")
    assert window.visible_sources()[0].source.rel == "en-01-coastal-erosion.docx"
    assert window.visible_sources()[0].comparison.containment_a > 0.95
    # a setting changed: the result is derived again from the file, read under its own name
    window.apply_settings(window.settings.with_(exclude_quotes=not window.settings.exclude_quotes), "en")
    assert window.updating
    qtbot.waitUntil(lambda: not window.updating and not window.runner.is_busy(), timeout=120_000)
    again = window.current_check_result()
    assert again is not None and not again.skipped_reason and again.path == result.path
    assert window.visible_sources()[0].source.rel == "en-01-coastal-erosion.docx"
    # it cannot be added to the collection: said, nothing done
    window.add_checked_to_collection()
    assert no_blocking_dialogs[-1][0] == "warning" and "not valid UTF-8" in no_blocking_dialogs[-1][1]
    assert not window.runner.is_busy()


def test_adding_a_copy_whose_name_the_folder_has_asks_and_renames_it(qtbot, window, sample_dir, tmp_path,
                                                                    answer_boxes, no_blocking_dialogs):
    """A checked file outside the folder, copied in under a name the folder has already: the
    examiner is asked (copy or keep; then rename or replace) and "Rename the copy" keeps both."""
    folder = tmp_path / "collection"  # (a copy of the sample: the bundled one is never written)
    shutil.copytree(sample_dir, folder, ignore=shutil.ignore_patterns("*.md"))
    with qtbot.waitSignal(window.duplicates_ready, timeout=120_000):
        window.open_folder(str(folder))
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=60_000)
    submission = tmp_path / "en-01-coastal-erosion.docx"  # (a name the folder has)
    shutil.copy(sample_dir / "en-01-coastal-erosion.docx", submission)
    with qtbot.waitSignal(window.check_ready, timeout=60_000):
        drop(window, [str(submission)])
    before = window.documents_page.model.rowCount()
    answer_boxes.push("Copy into the folder")
    answer_boxes.push("Rename the copy")
    with qtbot.waitSignal(window.duplicates_ready, timeout=60_000):
        qtbot.mouseClick(window.check_page.add_button, Qt.MouseButton.LeftButton)
    assert "outside the collection's folder" in answer_boxes.asked[-2][1]
    assert "already has a file named “en-01-coastal-erosion.docx”" in answer_boxes.asked[-1][1]
    assert not answer_boxes.pending
    assert window.documents_page.model.rowCount() == before + 1
    assert (folder / "en-01-coastal-erosion (2).docx").exists()
    assert (folder / "en-01-coastal-erosion.docx").read_bytes() == (sample_dir / "en-01-coastal-erosion.docx").read_bytes()
