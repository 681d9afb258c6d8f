"""`neardup-gui`: starts the desktop application (logging, language, fonts, the main window)."""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import os
import sys
import traceback
from pathlib import Path
from typing import Sequence

from neardup_gui import __version__

log = logging.getLogger(__name__)

APP_ID = "io.github.neardup.NearDup"


def configure_logging(verbose: int = 0, log_path: Path | None = None) -> Path | None:
    """Configure logging once: stderr, and the log file (kept small, two old copies).

    Returns the log file in use, or None when it cannot be written (stderr alone then)."""
    import logging.handlers

    level = logging.WARNING - 10 * min(verbose, 2)
    fmt = "%(asctime)s %(levelname)s %(name)s: %(message)s"
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_path is not None:
        try:
            log_path.parent.mkdir(parents=True, exist_ok=True)
            handlers.append(logging.handlers.RotatingFileHandler(
                log_path, maxBytes=1 << 20, backupCount=2, encoding="utf-8"))
        except OSError as exc:
            print(f"neardup: cannot write the log file {log_path}: {exc}", file=sys.stderr)
            log_path = None
    # (INFO goes to the file even when stderr shows only warnings: it says what led to a problem)
    handlers[0].setLevel(level)
    for handler in handlers[1:]:
        handler.setLevel(min(level, logging.INFO))
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "neardup", False)]:  # a second main() in one process
        root.removeHandler(old)
        old.close()
    for handler in handlers:
        handler.setFormatter(logging.Formatter(fmt))
        handler.neardup = True  # type: ignore[attr-defined]
        root.addHandler(handler)
    root.setLevel(min(level, logging.INFO))
    logging.getLogger("jieba").setLevel(logging.ERROR)
    from neardup_gui.core.extract import quiet_parsers

    quiet_parsers(verbose == 0)
    return log_path


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="neardup-gui", description="Near-duplicate and plagiarism screening (window).")
    parser.add_argument("--version", action="version", version=f"neardup {__version__}")
    parser.add_argument("--sample", action="store_true",
                        help="open the bundled sample collection (a new user's first start shows the welcome "
                             "view instead, the sample one click away)")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")
    parser.add_argument("folder", nargs="?", help="a collection folder to open")
    args, _qt_args = parser.parse_known_args(list(sys.argv[1:] if argv is None else argv))
    return args


def create_application(qt_argv: list[str]) -> "QApplication":  # noqa: F821 - imported lazily
    """The QApplication with our ids, high-DPI policy, icon, CJK font fallback and style sheet."""
    from PySide6.QtCore import QCoreApplication, Qt
    from PySide6.QtGui import QGuiApplication, QIcon
    from PySide6.QtWidgets import QApplication

    from neardup_gui.app.i18n import install_cjk_font_fallback
    from neardup_gui.app.paths import resources_dir

    QCoreApplication.setOrganizationName("neardup")
    QCoreApplication.setApplicationName("neardup")
    QCoreApplication.setApplicationVersion(__version__)
    app = QApplication.instance()
    if app is None:
        # Fractional scale factors (150 %) pass through rather than being rounded: crisp on
        # high-DPI. Qt takes this only before the application object exists.
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication(qt_argv)
    QGuiApplication.setDesktopFileName(APP_ID)
    QGuiApplication.setApplicationDisplayName("neardup")
    icon = resources_dir() / "icons" / "neardup.svg"
    if icon.exists():
        app.setWindowIcon(QIcon(str(icon)))
    install_cjk_font_fallback(app)
    apply_style(app)
    return app


def apply_style(app: "QApplication") -> None:  # noqa: F821
    """Our style sheet (sizes, spacing) with the colours derived from the current palette; called
    again when the palette changes (a light/dark switch of the desktop)."""
    from neardup_gui.app import colours
    from neardup_gui.app.paths import resources_dir

    style = resources_dir() / "style" / "neardup.qss"
    base = style.read_text(encoding="utf-8") if style.exists() else ""
    app.setStyleSheet(base + colours.style_sheet(app.palette()))


def build_window(args: argparse.Namespace, translations: "Translations") -> "MainWindow":  # noqa: F821
    """Read the settings and build the main window (everything a start-up can fail at)."""
    from PySide6.QtCore import QTimer

    from neardup_gui.app.appsettings import load_language, mark_welcomed, open_store, welcomed
    from neardup_gui.app.i18n import resolve_language
    from neardup_gui.app.mainwindow import MainWindow

    store = open_store()
    translations.switch(resolve_language(load_language(store)))
    window = MainWindow(translations, store)
    window.show()
    # A new user meets the welcome view first (what the tool does, the ways to start, the sample
    # one click away), once; `make run` opens the sample from the next start on.
    new_user = not welcomed(store)
    if not args.folder:
        mark_welcomed(store)
    if args.sample and not new_user:
        QTimer.singleShot(0, window.open_sample)
    elif args.folder:
        folder = os.path.abspath(args.folder)
        QTimer.singleShot(0, lambda: window.open_folder(folder))
    return window


class StopOnSignals:
    """SIGTERM, SIGHUP and SIGINT (a logout, a shutdown, a task manager's "End task", the closed
    terminal, Ctrl+C in it) close the window as its close button does: the running task is
    cancelled and waited for, its worker processes stopped, every document written whole or not
    at all. :meth:`exit_code` gives the status the shell expects of a command so stopped.

    Python runs a signal's handler only between its own instructions, and the window's event loop
    is Qt's: the signal's number is written to a socket the loop watches (``signal.set_wakeup_fd``),
    which wakes it. A signal ignored when the window started (``nohup``) stays ignored.
    """

    def __init__(self, app: "QApplication") -> None:  # noqa: F821 - imported lazily
        import signal
        import socket

        from PySide6.QtCore import QSocketNotifier

        self._app = app
        self.received: int | None = None
        self._reader, self._writer = socket.socketpair()
        for end in (self._reader, self._writer):
            end.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        self._handlers: dict[int, object] = {}
        for name in ("SIGTERM", "SIGHUP", "SIGINT"):
            number = getattr(signal, name, None)
            if number is not None and signal.getsignal(number) in (signal.SIG_DFL, signal.default_int_handler):
                self._handlers[number] = signal.signal(number, lambda *_: None)  # (the socket says it)
        self._notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read, app)
        self._notifier.activated.connect(self._woken)

    def _woken(self) -> None:
        import signal

        try:
            numbers = self._reader.recv(64)
        except OSError:
            return
        for number in numbers:
            if number in self._handlers and self.received is None:
                self.received = number
                log.info("%s received: closing the window", signal.Signals(number).name)
                self._app.closeAllWindows()  # (each window's closeEvent stops its work)
                self._app.quit()

    def exit_code(self, code: int) -> int:
        """``code``, or 128 + the signal's number when a signal closed the window."""
        return 128 + self.received if self.received is not None else code

    def close(self) -> None:
        import signal

        self._notifier.setEnabled(False)
        for number, handler in self._handlers.items():
            signal.signal(number, handler)
        signal.set_wakeup_fd(self._previous_fd)
        self._reader.close()
        self._writer.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the application; returns the exit code."""
    # Extraction runs in worker processes; a frozen (PyInstaller) build needs this first.
    multiprocessing.freeze_support()
    args = parse_args(argv)

    from neardup_gui.app.appsettings import reset_settings
    from neardup_gui.app.errors import StartupErrorDialog, install_exception_hook
    from neardup_gui.app.i18n import Translations
    from neardup_gui.app.paths import log_file

    app = create_application([sys.argv[0]] if argv is not None else list(sys.argv))
    log_path = configure_logging(args.verbose, log_file())
    shown_log = str(log_path) if log_path else "(none: see the terminal)"
    # Before the window exists: an error raised from an event while it is being built is shown too.
    holder: list = []
    install_exception_hook(lambda: holder[0] if holder else None)
    translations = Translations(app)
    while True:
        try:
            window = build_window(args, translations)
            break
        except Exception as exc:  # noqa: BLE001 - any start-up failure is shown, never a silent exit
            details = traceback.format_exc()
            log.error("neardup could not start:\n%s", details)
            dialog = StartupErrorDialog(exc, details, shown_log)
            if dialog.exec() != StartupErrorDialog.RESET:
                return 1
            reset_settings()
    holder.append(window)
    log.info("neardup %s started", __version__)
    stop = StopOnSignals(app)
    try:
        code = app.exec()
        window.runner.shutdown()
    finally:
        stop.close()
    return stop.exit_code(code)


if __name__ == "__main__":
    raise SystemExit(main())
