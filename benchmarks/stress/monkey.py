"""A monkey for the window: random examiner actions, fast, on a real window for a while — any crash,
any exception that reaches the event loop, any stall of the GUI thread, any failure the window can
only call a bug ("Something went wrong") is reported.

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m benchmarks.stress.monkey --seconds 240 --seed 6

What it does, at random intervals of 0–300 ms, whatever the window is busy with: refresh, cancel,
check files (by the menu and by a drop), add checked files to the collection, open pairs and
sources side by side, export every kind of report to a few names (PDF too), change the threshold
and the language, mark text and common passages as template and undo, screen a call and open its
submissions, exclude sources, move its flag line, filter, sort, select and open rows of every list,
switch to another collection and back, edit, delete and add files in the folder, drop damaged copies of
real DOCX/PDF (cut, bytes changed, runs doubled) into it, take the folder away for a moment (an
unmounted share), rebuild now and then. Message boxes and dialogs answer at random.

Not part of the suite (its interleavings depend on the machine's speed); run it after touching
the window's threading or its results' lifetimes. Sessions of it found: a task's relay freed on a
worker while the task was freed (the segmentation fault, app/relay.py), shown checks that outlived
their sources, two exports into one part file, a view deleted under its task's callback, a
screening gone (screened again, or the index rebuilt) said as a bug.
Exit status 1 when anything was reported.
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import random
import shutil
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    faulthandler.enable()
    random.seed(args.seed)
    errors: list[str] = []

    def report(kind: str, text: str) -> None:
        errors.append(text)
        sys.__stderr__.write(f"MONKEY {kind}: {text}\n")

    sys.excepthook = lambda t, v, tb: report("exception", "".join(traceback.format_exception(t, v, tb)))
    work = Path(tempfile.mkdtemp(prefix="neardup-monkey-"))
    os.environ["HOME"] = str(work / "home")  # (settings and indexes of its own)
    os.environ["XDG_CONFIG_HOME"] = str(work / "home" / ".config")
    os.environ["XDG_DATA_HOME"] = str(work / "home" / ".local" / "share")

    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMessageBox

    app = QApplication([])
    from neardup_gui.app.mainwindow import MainWindow
    from neardup_gui.app.paths import sample_folder
    from tests.corpus import CORPUS

    buttons = QMessageBox.StandardButton
    for name in ("question", "information", "warning", "critical"):
        setattr(QMessageBox, name, staticmethod(
            lambda *a, **k: random.choice([buttons.Yes, buttons.No, buttons.Ok, buttons.Cancel])))
    QMessageBox.exec = lambda self: 0
    QDialog.exec = lambda self: random.choice([0, 1])

    folder, outside, call = work / "collection", work / "outside", work / "call"
    shutil.copytree(sample_folder(), folder)
    texts = sorted(CORPUS.rglob("*.txt"))[:400]
    for target, n in ((outside, 30), (call, 8)):
        target.mkdir()
        for i, p in enumerate(random.sample(texts, n)):
            shutil.copy(p, target / f"{target.name[0]}{i}.txt")
    formats = ["html", "csv", "json", "pdf"]
    QFileDialog.getSaveFileName = staticmethod(
        lambda *a, **k: (str(work / f"report{random.randint(0, 3)}.{random.choice(formats)}"), ""))
    QFileDialog.getOpenFileNames = staticmethod(
        lambda *a, **k: ([str(p) for p in random.sample(sorted(outside.iterdir()), 3)], ""))
    QFileDialog.getExistingDirectory = staticmethod(lambda *a, **k: str(random.choice([folder, call])))

    w = MainWindow()
    w.show()
    # a failure the window can only call a bug (no explanation of its own) is looked for too
    from neardup_gui.app.errors import explain

    w.task_failed.connect(lambda headline: report("unexplained", w.last_error and "\n".join(w.last_error) or headline)
                          if headline == explain(Exception())[0] else None)
    w.open_folder(str(folder))

    def views(kind: str) -> list:
        return [v for v in app.topLevelWidgets() if type(v).__name__ == kind and v.isVisible()]

    def a_refresh() -> None:
        w.refresh()

    def a_rebuild() -> None:  # (offered after an index problem only: rare)
        if random.random() < 0.05:
            w.rebuild()

    def a_cancel() -> None:
        w.progress_panel_cancel()

    def a_check() -> None:
        w.check_files([str(p) for p in random.sample(sorted(outside.iterdir()), random.randint(1, 4))])

    def a_drop() -> None:
        w.handle_dropped([str(random.choice(sorted(outside.iterdir())))])

    def a_add() -> None:
        w.add_checked_to_collection()

    def a_tab() -> None:
        w.tabs.setCurrentIndex(random.randrange(w.tabs.count()))

    def a_pair() -> None:
        pairs = w.duplicates_page.model.records()
        if pairs:
            p = random.choice(pairs)
            w.open_pair_diff(p.a.doc_id, p.b.doc_id)

    def a_export() -> None:
        w.export_current()

    def a_settings() -> None:
        w.apply_settings(w.settings.with_(threshold=random.choice([0.5, 0.6, 0.7, 0.8]),
                                          exclude_quotes=random.random() < 0.5), w.language_setting)

    def a_language() -> None:
        w.apply_settings(w.settings, random.choice(["en", "zh_CN"]))

    def a_mark() -> None:
        files = [p for p in folder.rglob("*.txt")]
        if files:
            text = random.choice(files).read_text(encoding="utf-8", errors="ignore")
            if len(text) > 200:
                i = random.randrange(len(text) - 150)
                w.mark_text_as_template(text[i:i + 150])

    def a_passage() -> None:
        passages = list(getattr(w.common_page, "passages", []))
        if passages:
            w.act_on_passage(random.choice(passages), random.choice(["exclude", "count", "undo"]))

    def a_edit() -> None:
        files = [p for p in folder.rglob("*") if p.is_file()]
        r = random.random()
        if r < 0.3 and files:
            p = random.choice(files)
            if p.suffix == ".txt":
                p.write_text(p.read_text(encoding="utf-8", errors="ignore") + f"\nAn added line {random.random()}",
                             encoding="utf-8")
        elif r < 0.5 and len(files) > 10:
            random.choice(files).unlink()
        else:
            shutil.copy(random.choice(texts), folder / f"new{random.randint(0, 10**6)}.txt")

    def a_damage() -> None:
        src = random.choice([p for p in sample_folder().iterdir() if p.suffix in (".docx", ".pdf")])
        data = bytearray(src.read_bytes())
        r = random.random()
        if r < 0.4:
            data = data[: random.randrange(1, len(data))]
        elif r < 0.8:
            for _ in range(random.randint(1, 20)):
                data[random.randrange(len(data))] = random.randrange(256)
        else:
            i = random.randrange(len(data))
            j = min(len(data), i + random.randint(1, 5000))
            data = data[:j] + data[i:j] * random.randint(1, 5) + data[j:]
        (folder / f"damaged{random.randint(0, 50)}{src.suffix}").write_bytes(bytes(data))

    def a_unmount() -> None:
        aside = work / "aside"
        if random.random() < 0.3 and folder.exists() and not aside.exists():
            folder.rename(aside)
            QTimer.singleShot(random.choice([10, 200, 1500]),
                              lambda: aside.rename(folder) if aside.exists() and not folder.exists() else None)

    def a_screen() -> None:
        w.screen_folder(str(call))

    def a_submission() -> None:
        w.open_submission("call", f"c{random.randrange(8)}.txt")

    def a_source() -> None:
        shown = views("SubmissionView")
        if shown:
            v = random.choice(shown)
            if v.detail.sources:
                v.open_source(random.choice(v.detail.sources).rank)

    def a_exclude() -> None:
        shown = views("SubmissionView")
        if shown and shown[0].exclude_button.isEnabled():
            shown[0].exclude_button.click()

    def a_decide() -> None:  # the examiner's decision on a source, or on a pair, answered at once
        shown = views("SubmissionView")
        choice = random.choice(["confirmed", "own-work", "cited", "common-knowledge", "not-relevant", None])
        dialog = shown[0].decide() if shown and shown[0].decide_button.isEnabled() else None
        if dialog is None and w.pairs:
            dialog = w.examiner.decide_pair(random.choice(w.pairs))
        if dialog is not None:
            dialog.buttons[choice].setChecked(True)
            dialog.note.setPlainText(random.choice(["", "seen by the committee", "引用已注明"]))
            dialog._ok()

    def a_applicant() -> None:  # names for some documents or submissions, none, or their metadata again
        docs = [(d.rel, d.path, d.sha256, d.applicants) for d in random.sample(
            w.documents_page.records(), min(3, len(w.documents_page.records())))]
        rows = [(r.rel, r.path, r.sha256, r.applicants) for r in w.screening_page.visible_rows()[:2]]
        dialog = w.examiner.set_applicants(random.choice([docs, rows, docs + rows]))
        if dialog is not None:
            random.choice([lambda: dialog.edit.setText(random.choice(["A", "B; 王小明"])) or dialog._set(),
                           lambda: dialog.none_button.click(), lambda: dialog.metadata_button.click()])()

    def a_update() -> None:
        w.update_results()

    def a_close() -> None:
        for v in list(app.topLevelWidgets()):
            if v is not w and v.isVisible() and random.random() < 0.7:
                v.close()

    other = work / "other"  # a second collection, switched to and back while work is running
    other.mkdir()
    for i, p in enumerate(random.sample(texts, 12)):
        shutil.copy(p, other / f"o{i}.txt")

    def a_switch() -> None:
        if random.random() < 0.3:
            w.open_folder(str(random.choice([folder, other])))

    def a_view() -> None:  # the lists as an examiner uses them: filter, sort, select, activate
        page = random.choice([w.duplicates_page, w.clusters_page, w.common_page, w.screening_page])
        view = page.view
        model = view.model()
        if model is None:
            return
        r = random.random()
        if r < 0.25 and hasattr(page, "filter"):
            page.filter.setText(random.choice(["", "a", "txt", "2", "许", "zzz"]))
        elif r < 0.45 and hasattr(view, "sortByColumn") and model.columnCount() > 0:
            view.sortByColumn(random.randrange(model.columnCount()), random.choice(list(Qt.SortOrder)))
        elif model.rowCount() > 0:
            index = model.index(random.randrange(model.rowCount()), 0)
            view.setCurrentIndex(index)
            if random.random() < 0.3:
                view.activated.emit(index)

    def a_flag() -> None:
        w.screening_page.flag_spin.setValue(random.choice([0, 10, 30, 50, 90, 100]))

    def a_collect() -> None:
        import gc

        gc.collect()

    actions = [a_refresh, a_rebuild, a_cancel, a_cancel, a_check, a_drop, a_add, a_tab, a_tab, a_pair, a_pair,
               a_export, a_settings, a_language, a_mark, a_passage, a_passage, a_edit, a_edit, a_damage, a_damage,
               a_unmount, a_screen, a_submission, a_source, a_source, a_exclude, a_update, a_close, a_collect,
               a_switch, a_view, a_view, a_flag, a_decide, a_applicant]
    counts: dict[str, int] = {}
    started = time.monotonic()
    last_tick = [time.monotonic()]

    def step() -> None:
        if time.monotonic() - started > args.seconds:
            w.close()
            QTimer.singleShot(500, app.quit)
            return
        act = random.choice(actions)
        counts[act.__name__] = counts.get(act.__name__, 0) + 1
        try:
            act()
        except OSError:
            pass  # (the monkey's own file operations, e.g. while the folder is away)
        except Exception:  # noqa: BLE001 - the window's methods raising is what is looked for
            report("exception", traceback.format_exc())
        QTimer.singleShot(random.choice([0, 5, 20, 50, 100, 300]), step)

    def watchdog() -> None:
        now = time.monotonic()
        if now - last_tick[0] > 5:
            report("stall", f"the GUI thread did not run for {now - last_tick[0]:.1f} s")
        last_tick[0] = now

    tick = QTimer()
    tick.timeout.connect(watchdog)
    tick.start(1000)

    def stall_stacks() -> None:
        """From a thread of its own: where the GUI thread is while it stalls (printed once a stall)."""
        gui = threading.main_thread().ident
        said = 0.0
        while not done.wait(1.0):
            since = last_tick[0]
            if time.monotonic() - since > 4 and since != said:
                said = since
                frame = sys._current_frames().get(gui)
                sys.__stderr__.write("MONKEY stalling here:\n" + "".join(traceback.format_stack(frame)) + "\n")

    done = threading.Event()
    threading.Thread(target=stall_stacks, daemon=True).start()
    QTimer.singleShot(2000, step)
    app.exec()
    done.set()
    print(f"{sum(counts.values())} actions in {args.seconds:.0f} s (seed {args.seed}):",
          ", ".join(f"{k[2:]} {n}" for k, n in sorted(counts.items())))
    print(f"{len(errors)} reported")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
