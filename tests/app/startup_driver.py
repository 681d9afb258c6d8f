"""Starts the real application (``neardup_gui.app.main.main``) in this process and reports, as
JSON on stdout, what the examiner would have seen: a start-up error dialog (answered with
"Reset settings") and the main window's settings. Used by tests/app/test_startup.py in a child
process, so the settings are read by a process that did not write them.

    python tests/app/startup_driver.py [--fail-once] [--open FOLDER]
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

    state = {"opened": False, "loaded": False}

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
                if args.open and (not state["loaded"] or w.is_busy() or w.runner.is_busy()):
                    return
                if args.sample and not state.get("waited"):  # (the sample is opened from the event loop)
                    state["waited"] = True
                    return
                report["window"] = {"settings": settings_json(w.settings), "title": w.windowTitle(),
                                    "folder": w.folder, "welcome": w.stack.currentWidget() is w.welcome,
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
