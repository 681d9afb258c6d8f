"""Starts the real application (``neardup_gui.app.main.main``) in this process and reports, as
JSON on stdout, what the examiner would have seen: a start-up error dialog (answered with
"Reset settings") and the main window's settings. Used by tests/app/test_startup.py in a child
process, so the settings are read by a process that did not write them.

    python tests/app/startup_driver.py [--fail-once] [--open FOLDER [--refresh] [--say-progress]]

``--say-progress`` prints ``PROGRESS task fraction message`` on stdout for each progress report of
the window's tasks (the core's own words, untranslated), for a test that acts while the work is
under way; ``--refresh`` refreshes the collection
once it is loaded (an index left unfinished by an earlier start is completed) before reporting.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from neardup_gui.app import main as app_main


def settings_json(settings) -> dict:  # noqa: ANN001 - a core Settings
    values = dataclasses.asdict(settings)
    values["template_files"] = list(settings.template_files)
    return values


def run() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fail-once", action="store_true",
                        help="reading the settings fails once while the window is built")
    parser.add_argument("--open", default="", help="open this collection and report once it is loaded")
    parser.add_argument("--sample", action="store_true", help="start as `make run` does (neardup-gui --sample)")
    parser.add_argument("--refresh", action="store_true", help="refresh the collection once it is loaded")
    parser.add_argument("--say-progress", action="store_true", help="print the tasks' progress reports")
    args = parser.parse_args()
    app = app_main.create_application([sys.argv[0]])
    from neardup_gui.app import mainwindow
    from neardup_gui.app.errors import StartupErrorDialog

    report: dict = {"dialogs": []}
    if args.fail_once:
        real = mainwindow.load_settings
        calls: list[int] = []

        def failing(*a, **k):  # noqa: ANN002, ANN003
            calls.append(1)
            if len(calls) == 1:
                raise RuntimeError("planted start-up failure")
            return real(*a, **k)

        mainwindow.load_settings = failing

    state = {"opened": False, "loaded": False, "refreshed": False, "followed": None}

    def say_progress(w) -> None:  # noqa: ANN001 - the main window
        task = w.main_task
        if task is not None and task is not state["followed"]:
            state["followed"] = task
            task.progress.connect(lambda fraction, message, name=task.name:
                                  print(f"PROGRESS {name} {fraction:.3f} {message}", flush=True))

    def poll() -> None:
        for w in QApplication.topLevelWidgets():
            if isinstance(w, StartupErrorDialog) and w.isVisible():
                report["dialogs"].append({"title": w.windowTitle(), "message": w.message.text(),
                                          "log": w.log_label.text(), "details": w.details.toPlainText()})
                w.reset_button.click()
                return
            if isinstance(w, mainwindow.MainWindow) and w.isVisible():
                if args.open and not state["opened"]:
                    state["opened"] = True
                    w.collection_loaded.connect(lambda: state.update(loaded=True))
                    w.open_folder(args.open)
                    return
                if args.say_progress:
                    say_progress(w)
                if args.open and (not state["loaded"] or w.is_busy() or w.runner.is_busy()):
                    return
                if args.sample and not state.get("waited"):  # (the sample is opened from the event loop)
                    state["waited"] = True
                    return
                if args.refresh and not state["refreshed"]:
                    state["refreshed"] = True
                    w.refresh()
                    return
                report["window"] = {"settings": settings_json(w.settings), "title": w.windowTitle(),
                                    "folder": w.folder, "db": w.db_path, "welcome": w.stack.currentWidget() is w.welcome,
                                    "pairs": [[p.a.rel, p.b.rel, p.similarity] for p in w.pairs]}
                timer.stop()
                w.close()
                app.quit()
                return

    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(poll)
    timer.start()
    code = app_main.main(["--sample"] if args.sample else [])
    report["exit_code"] = code
    print("REPORT " + json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(run())
