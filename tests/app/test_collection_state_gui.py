"""A day's work in the window: each collection keeps its own settings (across processes),
switching collections leaves no filter behind, and changed settings re-derive what is shown."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import docx

from neardup_gui.app.appsettings import load_settings, open_store
from neardup_gui.app.mainwindow import MainWindow
from neardup_gui.core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("startup_driver.py")
SAMPLE = ROOT / "resources" / "sample"
EN = ("en-01-coastal-erosion.docx", "en-02-shoreline-retreat.pdf", "en-03-wastewater-resistance.pdf",
      "en-04-hospital-surfaces.docx", "en-10-glacier-hydrology.txt")
ZH = ("zh-01-水稻抗旱基因.docx", "zh-02-水稻干旱响应调控.pdf", "zh-03-城市内涝预警.docx", "zh-04-山区滑坡监测.txt")


def make_folder(base: Path, name: str, files: tuple[str, ...]) -> Path:
    folder = base / name
    folder.mkdir()
    for f in files:
        shutil.copy(SAMPLE / f, folder / f)
    return folder



def open_and_wait(qtbot, window: MainWindow, folder: Path) -> None:
    with qtbot.waitSignal(window.duplicates_ready, timeout=120_000):
        window.open_folder(str(folder))
    qtbot.waitUntil(lambda: not window.runner.is_busy(), timeout=60_000)


def test_each_collection_keeps_its_settings_and_switching_resets_filters(qtbot, window, tmp_path, isolated_home):
    a = make_folder(tmp_path, "call-a", EN)
    b = make_folder(tmp_path, "call-b", ZH)
    defaults = window.defaults
    open_and_wait(qtbot, window, a)
    own = window.settings.with_(threshold=0.35, exclude_quotes=True, min_run=10, template_files=())
    with qtbot.waitSignal(window.duplicates_ready, timeout=120_000):
        window.apply_settings(own, "en")
    qtbot.waitUntil(lambda: not window.runner.is_busy(), timeout=60_000)
    assert window.defaults.threshold == defaults.threshold  # a collection's value, not a new default
    window.documents_page.filter.setText("pos")
    window.duplicates_page.filter.setText("pos")
    assert window.documents_page.proxy.rowCount() < len(EN)

    open_and_wait(qtbot, window, b)
    assert (window.settings.threshold, window.settings.exclude_quotes, window.settings.min_run) == (
        defaults.threshold, defaults.exclude_quotes, defaults.min_run)
    assert window.documents_page.filter.text() == "" and window.duplicates_page.filter.text() == ""
    assert window.documents_page.proxy.rowCount() == len(ZH)  # nothing hidden by a leftover filter
    assert not window.check_page.summary_label.isVisibleTo(window.check_page)  # no empty summary box
    # the planted resubmission of the second collection is shown
    assert {frozenset({p.a.rel, p.b.rel}) for p in window.pairs} >= {frozenset(ZH[:2])}

    open_and_wait(qtbot, window, a)
    assert (window.settings.threshold, window.settings.exclude_quotes, window.settings.min_run) == (0.35, True, 10)
    window.close()

    # a new process starts the real application, opens the collection and reads the same values
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, str(DRIVER), "--open", str(a)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)
    line = [x for x in proc.stdout.splitlines() if x.startswith("REPORT ")]
    assert line, proc.stderr
    shown = json.loads(line[-1][7:])["window"]["settings"]
    assert (shown["threshold"], shown["exclude_quotes"], shown["min_run"]) == (0.35, True, 10)
    # and the global defaults were not touched by the collection's values
    assert load_settings(open_store()).threshold == defaults.threshold


def test_settings_chosen_as_defaults_start_new_collections(qtbot, window, tmp_path):
    a = make_folder(tmp_path, "call-a", EN[:3])
    open_and_wait(qtbot, window, a)
    with qtbot.waitSignal(window.duplicates_ready, timeout=120_000):
        window.apply_settings(window.settings.with_(threshold=0.45, exclude_bibliography=True), "en", as_defaults=True)
    assert window.defaults.threshold == 0.45
    b = make_folder(tmp_path, "call-b", ZH[:2])
    open_and_wait(qtbot, window, b)
    assert (window.settings.threshold, window.settings.exclude_bibliography) == (0.45, True)


def quoted_submission(path: Path) -> Path:
    """en-01's text with every other paragraph in quotation marks."""
    paras = [p.text for p in docx.Document(SAMPLE / EN[0]).paragraphs if p.text.strip()]
    out = docx.Document()
    for i, p in enumerate(paras):
        out.add_paragraph(f"“{p}”" if i % 2 and len(p) < 900 else p)
    out.save(path)
    return path


def test_changing_an_exclusion_re_derives_the_shown_check(qtbot, window, tmp_path, answer_boxes):
    a = make_folder(tmp_path, "call-a", EN)
    open_and_wait(qtbot, window, a)
    submission = quoted_submission(tmp_path / "quoted.docx")
    with qtbot.waitSignal(window.check_ready, timeout=120_000):
        window.check_files([str(submission)])
    qtbot.waitUntil(lambda: not window.runner.is_busy(), timeout=60_000)
    before = window.current_check_result().summary
    assert before.copied_ratio > before.copied_ratio_without_quotes > 0
    pairs_before = len(window.pairs)

    window.apply_settings(window.settings.with_(exclude_quotes=True, threshold=0.2), "en")
    # at once: the window says the figures are being updated
    assert window.updating and window.updating_label.isVisibleTo(window)
    assert not window.check_page.summary_label.isEnabled()
    qtbot.waitUntil(lambda: not window.updating, timeout=120_000)
    after = window.current_check_result().summary
    assert window.current_check_result().path == str(submission)
    assert after.countable_units < before.countable_units  # quotations no longer counted
    assert after.copied_ratio == after.copied_ratio_without_quotes
    assert not window.updating_label.isVisibleTo(window) and window.check_page.summary_label.isEnabled()
    assert len(window.pairs) >= pairs_before  # a lower threshold shows at least as many pairs
    assert all(p.similarity >= 0.2 for p in window.pairs)
    assert "20.0%" in window.duplicates_page.summary.text()


def test_the_summary_says_what_the_filter_hides(qtbot, window, tmp_path):
    a = make_folder(tmp_path, "call-a", EN)
    open_and_wait(qtbot, window, a)
    submission = tmp_path / "resubmitted.docx"
    shutil.copy(SAMPLE / EN[0], submission)
    with qtbot.waitSignal(window.check_ready, timeout=120_000):
        window.check_files([str(submission)])
    page = window.check_page
    result = window.current_check_result()
    assert len(result.matches) >= 2
    # every source is listed at first: hiding weak ones is an option, and what it hides is said
    assert not page.hide_box.isChecked() and len(window.visible_sources()) == len(result.matches)
    assert not page.hidden_label.isVisibleTo(page)
    page.threshold_spin.setValue(100)
    assert len(window.visible_sources()) == len(result.matches)  # (the option is off)
    page.hide_box.setChecked(True)
    hidden = len(result.matches) - len(window.visible_sources())
    assert hidden >= 1
    assert page.hidden_label.isVisibleTo(page)
    assert page.hidden_label.text() == f"{hidden} of them hidden: they still count in the figures above"
    assert f"{len(result.matches)} sources found" in page.summary_label.text()
    page.hide_box.setChecked(False)
    assert len(window.visible_sources()) == len(result.matches)
    assert "countable" in page.meaning_label.text() and "F1" in page.meaning_label.text()
    assert "Largest single source" in page.summary_label.toolTip()
    s = result.summary
    assert s.copied_ratio >= s.largest_source_ratio and s.copied_ratio >= s.copied_ratio_without_quotes


def test_results_changed_in_one_process_are_what_the_next_process_shows(qtbot, window, tmp_path):
    """Live re-derivation leaves the index consistent: the next start shows the pairs of the new
    settings, exactly as the core computes them, not a cache of the old ones."""
    a = make_folder(tmp_path, "call-a", EN)
    open_and_wait(qtbot, window, a)
    before = [(p.a.rel, p.b.rel, p.similarity) for p in window.pairs]
    changed = window.settings.with_(min_run=25, threshold=0.95)
    with qtbot.waitSignal(window.duplicates_ready, timeout=120_000):
        window.apply_settings(changed, "en")
    qtbot.waitUntil(lambda: not window.runner.is_busy() and not window.updating, timeout=60_000)
    shown = [[p.a.rel, p.b.rel, p.similarity] for p in window.pairs]
    window.close()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, str(DRIVER), "--open", str(a)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)
    line = [x for x in proc.stdout.splitlines() if x.startswith("REPORT ")]
    assert line, proc.stderr
    report = json.loads(line[-1][7:])["window"]
    assert report["settings"]["min_run"] == 25 and report["pairs"] == shown
    from neardup_gui.app.paths import index_path_for
    from neardup_gui.core.collection import Collection

    with Collection.open(index_path_for(a), create=False) as coll:
        fresh = [[p.a.rel, p.b.rel, p.similarity] for p in coll.pairs(coll.settings_for(Settings()))]
    assert report["pairs"] == fresh
    assert [tuple(x) for x in shown] != before  # the change did change what is shown


def test_the_counts_name_the_files_of_other_formats_left_out(qtbot, window, tmp_path, isolated_home):
    """Files of no format neardup reads were left out in silence: the counts line says how many,
    its tooltip names them; another collection without any does not inherit the line."""
    a = make_folder(tmp_path, "call-a", EN)
    for name in ("slides.pptx", "photo.jpg", "budget.xlsx"):
        (a / name).write_bytes(b"not a document neardup reads")
    open_and_wait(qtbot, window, a)
    text = window.counts_label.text()
    assert text.startswith(f"{len(EN)} documents: {len(EN)} indexed") and text.endswith(
        "; 3 other files left out (not a format neardup reads)")
    assert window.counts_label.toolTip().splitlines() == [
        "Left out: neardup reads .docx .doc .wps .pdf .txt .odt .rtf .md .html .docm .dot .dotm .dotx .htm .wpt .gz "
        "files, and by its content a file named "
        "without a type (README, ls.1).", "budget.xlsx", "photo.jpg",
        "slides.pptx"]
    b = make_folder(tmp_path, "call-b", ZH)
    open_and_wait(qtbot, window, b)
    assert "other file" not in window.counts_label.text() and window.counts_label.toolTip() == ""


def test_files_the_scan_could_not_read_are_named_with_their_reasons_also_when_reopened(
        qtbot, window, tmp_path, isolated_home, qapp):
    """A file saved under a GBK name (not valid UTF-8), a broken link: before, the index build
    stopped at the name (an exception in SQLite); once read past it, such files were in no list
    (a count in a status message for 15 s). Now the counts line says how many could not be read
    and its tooltip names each with its reason; another window opening the index later still does."""
    import os

    from tests.core.test_undecodable_names import GBK_PROPOSAL, bytes_path

    a = make_folder(tmp_path, "call-a", EN)
    shutil.copyfile(SAMPLE / EN[0], bytes_path(a, GBK_PROPOSAL))
    os.symlink(a / "gone.docx", a / "link.docx")
    (a / "photo.jpg").write_bytes(b"not a document neardup reads")
    open_and_wait(qtbot, window, a)
    assert window.counts_label.text().endswith(
        "; 2 files could not be read; 1 other file left out (not a format neardup reads)")
    tip = window.counts_label.toolTip().split("\n\n")
    assert tip[0].splitlines() == [
        "Could not be read:",
        "\\xc9\\xea\\xc7\\xeb\\xca\\xe9.docx: name not valid UTF-8 (in GBK: '申请书.docx'): rename the file "
        "(the index cannot keep this name)",
        "link.docx: broken symbolic link: its target does not exist"]
    assert tip[1].splitlines()[1:] == ["photo.jpg"]
    # the run's message counts as the counts line does (before: "2 skipped" there, "0 skipped" here)
    message = window.statusBar().currentMessage()
    assert ", 0 skipped (" in message and message.endswith(" 2 files could not be read."), message
    # a new window (the index read again, not the folder) names them too
    other = MainWindow()
    qtbot.addWidget(other)
    with qtbot.waitSignal(other.duplicates_ready, timeout=120_000):
        other.open_folder(str(a))
    assert other.counts_label.text() == window.counts_label.text()
    assert other.counts_label.toolTip() == window.counts_label.toolTip()


def test_a_folder_whose_path_is_not_utf8_is_refused_with_its_reason(qtbot, window, tmp_path, isolated_home,
                                                                   no_blocking_dialogs):
    """Its name could be kept neither in the index, the recent list nor the title: refused, said why."""
    import os

    from tests.core.test_undecodable_names import GBK_FOLDER, bytes_path

    folder = bytes_path(tmp_path, GBK_FOLDER)
    os.mkdir(folder)
    shutil.copy(SAMPLE / EN[0], os.path.join(os.fsdecode(folder), EN[0]))
    window.open_folder(os.fsdecode(folder))
    assert no_blocking_dialogs[-1][0] == "warning"
    assert "its path is not valid UTF-8 (in GBK: '往年项目'). Rename it" in no_blocking_dialogs[-1][1]
    assert window.folder in ("", None) and not window.runner.is_busy()
