"""Report export from the window: a save dialog with the four formats, the writing in a worker thread.

The worker opens its own :class:`Collection` (SQLite connections stay in the thread that made
them), builds the report model and writes HTML, CSV, JSON or PDF; progress and the outcome come
back to the GUI thread through queued signals, so the window never waits on the disk.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import threading
import traceback
import weakref
from typing import Any

import shiboken6
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Qt, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox, QWidget

from neardup_gui.app.relay import Relay, relay
from neardup_gui.app.widgets import localise_progress
from neardup_gui.core.collection import Collection
from neardup_gui.core.progress import ProgressFn, no_progress, wrap_progress
from neardup_gui.core.report import build_report, format_for, write_report
from neardup_gui.core.settings import Settings

log = logging.getLogger(__name__)

# Save-dialog filters, in the order offered, and the extension each one writes; shown translated.
FILTERS = (
    (QT_TRANSLATE_NOOP("Export", "HTML report (*.html)"), "html"),
    (QT_TRANSLATE_NOOP("Export", "PDF document (*.pdf)"), "pdf"),
    (QT_TRANSLATE_NOOP("Export", "CSV table (*.csv)"), "csv"),
    (QT_TRANSLATE_NOOP("Export", "JSON data (*.json)"), "json"),
)


def shown_filters() -> list[str]:
    """The save dialog's filters in the interface's language (each keeps its "(*.ext)")."""
    return [QCoreApplication.translate("Export", text) for text, _ in FILTERS]


def with_extension(path: str, selected_filter: str) -> str:
    """The chosen file name with the extension of the chosen format when it has none of ours
    (the format read from the filter's "(*.ext)", in whatever language it is shown)."""
    try:
        format_for(path)
        return path
    except ValueError:
        found = re.search(r"\*\.(\w+)", selected_filter)
        ext = found.group(1) if found and found.group(1) in dict((e, e) for _, e in FILTERS) else "html"
        return f"{path}.{ext}"


def write_report_file(db_path: str, scope: str, settings: Settings, out_path: str, *,
                      items: Any = None, progress: ProgressFn = no_progress, lang: str = "en") -> str:
    """Build the report of ``scope`` from the index at ``db_path`` and write it to ``out_path``.

    Runs in a worker thread; the format follows the file's extension. Returns ``out_path``.
    ``scope`` "screening" / "submission" (the committee's reports of a screening): ``items`` is a
    dict with ``screening``, and for a submission ``rel`` and ``enabled`` (the source ranks counted);
    both take ``lang``. ``lang``: the language of a check, pairs or clusters report's words.
    """
    fmt = format_for(out_path)
    with Collection.open(db_path, create=False) as coll:
        if scope in COMMITTEE_SCOPES:
            from neardup_gui.core.report.committee import build_screening_report, build_submission_report

            progress(0.1, "Building the report")
            lang = items.get("lang", "en")
            if scope == "screening":
                report = build_screening_report(coll.store, items["screening"], settings, lang=lang)
            elif scope == "check-submission":
                from neardup_gui.core.report.committee import build_check_report

                report = build_check_report(coll, items["result"], settings, lang=lang, enabled=items.get("enabled"))
            else:
                report = build_submission_report(coll.store, items["screening"], items["rel"], settings, lang=lang,
                                                 enabled=items.get("enabled"))
        else:
            report = build_report(coll, scope, settings, items=items, progress=wrap_progress(progress, 0.0, 0.8),
                                  lang=lang)
    progress(0.85, f"Writing {os.path.basename(out_path)}")
    if fmt == "pdf":
        from neardup_gui.qtpdf import write_pdf

        write_pdf(report, out_path)
    else:
        write_report(report, out_path, fmt)
    progress(1.0, f"Wrote {os.path.basename(out_path)}")
    return out_path


COMMITTEE_SCOPES = ("screening", "submission", "check-submission")


def _writable_folder(folder: str) -> bool:
    return bool(folder) and os.path.isdir(folder) and os.access(folder, os.W_OK)


def default_report_path(scope: str, collection_folder: str, items: Any, lang: str, ext: str = "pdf") -> str:
    """Where a report is saved unless the examiner chooses otherwise, with a name a committee recognises.

    A check: next to the (first) checked submission. A screening's reports: next to the call's
    folder, not inside it (a report inside would be read as a submission by the next screening).
    Pairs and clusters: the collection's folder (``collection_folder``, as the window knows it:
    nothing is read from the index on the GUI thread). Never the index's own folder (hidden
    application data); a folder that cannot be written falls back to the home folder.
    """
    import datetime

    day = datetime.date.today().isoformat()
    zh = lang.startswith("zh")
    folder, stem = "", ""
    if scope in ("check", "check-submission") and items:
        first = items[0].path if scope == "check" else items["result"].path
        folder = os.path.dirname(first)
        stem = f"{os.path.splitext(os.path.basename(first))[0]} - {'相似性检测报告' if zh else 'similarity report'}"
    elif scope in COMMITTEE_SCOPES:
        folder = os.path.dirname(os.path.normpath(items.get("folder", "")))
        if scope == "submission":
            name = os.path.splitext(os.path.basename(items["rel"]))[0]
            stem = f"{name} - {'相似性检测报告' if zh else 'similarity report'}"
        else:
            stem = f"{items['screening']} - {'批量检测报告' if zh else 'screening report'}"
    else:
        folder = collection_folder
        base = os.path.basename(os.path.normpath(folder)) if folder else "neardup"
        what = {"pairs": ("duplicate pairs", "重复文档对"), "clusters": ("duplicate clusters", "重复文档组")}
        stem = f"{base} - {what.get(scope, ('report', '报告'))[1 if zh else 0]}"
    if not _writable_folder(folder):
        folder = os.path.expanduser("~")
    stem = "".join("_" if c in '/\\:*?"<>|' else c for c in stem)
    return os.path.join(folder, f"{stem} {day}.{ext}")


class ExportJob(QObject):
    """One report being written in the background. Signals are delivered on the GUI thread."""

    progress = Signal(float, str)
    done = Signal(str)  # the written file
    failed = Signal(str, str)  # message, details
    finished = Signal()  # after done or failed

    def __init__(self, db_path: str, scope: str, settings: Settings, out_path: str,
                 items: Any = None, parent: QObject | None = None, lang: str | None = None) -> None:
        super().__init__(parent)
        # the report's words: the interface's language unless told (chosen here, on the GUI thread)
        self.lang = lang or report_language()
        self.db_path = db_path
        self.scope = scope
        self.settings = settings
        self.out_path = out_path
        self.items = items if isinstance(items, dict) or items is None else list(items)
        self.outcome = ""  # "done" | "failed" once ended
        self._ended = threading.Event()
        # (the worker emits on the process's relay under this key, never on anything of the job's:
        # a relay of the job's own was deleted by the worker while the GUI thread deleted the job,
        # see app/relay.py; a job gone by then is told nothing)
        self._relay = relay()
        self._key = self._relay.register(self)

    def start(self, pool: QThreadPool | None = None) -> "ExportJob":
        # The worker is given what it needs, not the job: holding the job, it could drop the last
        # reference to it after its last signal, and the job and its relay were then deleted on
        # the worker thread while the GUI thread delivered their queued events (a segmentation
        # fault in a CI run, test_export_writes_the_report_in_the_language_it_is_given).
        (pool or QThreadPool.globalInstance()).start(functools.partial(
            _write_in_worker, self.db_path, self.scope, self.settings, self.out_path, self.items, self.lang,
            self._relay, self._key, self._ended))
        return self

    def wait(self, timeout_s: float | None = None) -> bool:
        """Block until the worker has returned (tests and shutdown only)."""
        return self._ended.wait(timeout_s)

    # -- told by the relay, on the GUI thread --------------------------------------------------------

    def deliver_progress(self, fraction: float, message: str) -> None:
        self.progress.emit(fraction, message)

    def deliver_done(self, path: str) -> None:
        self.outcome = "done"
        self.done.emit(path)
        self.finished.emit()

    def deliver_cancelled(self) -> None:  # (a report is not cancelled; the relay's interface)
        self.deliver_error("cancelled", "")

    def deliver_error(self, message: str, detail: str) -> None:
        self.outcome = "failed"
        self.failed.emit(message, detail)
        self.finished.emit()


def _write_in_worker(db_path: str, scope: str, settings: Settings, out_path: str, items: Any, lang: str,
                     relay: Relay, key: int, ended: threading.Event) -> None:
    """The worker's part of an :class:`ExportJob`: write the report, say how it went on the
    process's ``relay`` under the job's ``key`` (once the job is gone, its window closed while the
    report was written, the relay delivers nothing)."""
    try:
        path = write_report_file(db_path, scope, settings, out_path, items=items, lang=lang,
                                 progress=lambda f, m="": relay.progress.emit(key, float(f), str(m)))
    except BaseException as exc:  # noqa: BLE001 - every failure must reach the GUI, not kill it
        detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        log.error("report export to %s failed:\n%s", out_path, detail)
        relay.failed.emit(key, str(exc) or type(exc).__name__, detail)
    else:
        relay.done.emit(key, path)
    finally:
        ended.set()


def start_export(parent: QObject | None, scope: str, db_path: str, settings: Settings, out_path: str,
                 items: Any = None, lang: str | None = None) -> ExportJob:
    """Write the report to ``out_path`` in the background. ``lang``: the report's language
    (default: the interface's). ``parent``: the window the report is for (its feedback stops
    once it is gone); the job itself has no Qt parent.

    The job is held here until it has ended, then let go of once control is back in the event
    loop, as the task runner holds its tasks: parented to the window and deleted later, a job
    whose window was freed meanwhile was deleted twice (a segmentation fault, or an abort on a
    corrupted heap, when a test's window went out of scope just after its report was written)."""
    job = ExportJob(str(db_path), scope, settings, out_path, items, None, lang)
    _RUNNING.add(job)
    job.finished.connect(functools.partial(_let_go, weakref.ref(job)))
    return job.start()


# The jobs being written (no Qt parent: Python frees each once it is let go of).
_RUNNING: set[ExportJob] = set()


def _let_go(ref: "weakref.ref[ExportJob]") -> None:
    """Let go of an ended job once control is back in the event loop (let go of in its own
    ``finished``, the last reference would go while Qt still delivers the signal to it)."""
    job = ref()
    if job is not None:
        QTimer.singleShot(0, functools.partial(_RUNNING.discard, job))


def report_language() -> str:
    """The reports' language: the interface's (Chinese or English)."""
    from PySide6.QtCore import QLocale

    return "zh_CN" if QLocale().language() == QLocale.Language.Chinese else "en"


def export_report(parent: QWidget, scope: str, db_path: str, settings: Settings, items: Any = None,
                  folder: str = "") -> None:
    """Ask where to save the report of ``scope`` (HTML, PDF, CSV or JSON) and write it in the background.

    ``items``: the check results for a ``"check"`` report, or the chosen pairs or clusters
    (default: all of the collection's at the settings' threshold); for a screening's reports the
    dict :func:`write_report_file` describes. The report is in the interface's language (a committee
    report and the check, pairs and clusters reports alike); once written, the examiner is offered to open it.
    ``folder``: the collection's folder, where pairs and clusters reports are suggested.
    """
    lang = report_language()
    if scope in COMMITTEE_SCOPES:
        items = {**items, "lang": lang}
    try:
        suggested = default_report_path(scope, folder, items, lang, "pdf" if scope in COMMITTEE_SCOPES else "html")
    except Exception:  # noqa: BLE001 - a suggestion only: the dialog still opens
        log.exception("no default report location")
        suggested = os.path.expanduser("~")
    filters = shown_filters()
    first = filters[1] if suggested.endswith(".pdf") else filters[0]
    path, selected = QFileDialog.getSaveFileName(
        parent, QCoreApplication.translate("Export", "Export report"), suggested, ";;".join(filters), first)
    if not path:
        return
    start_export_with_feedback(parent, scope, db_path, settings, with_extension(path, selected), items)


def start_export_with_feedback(parent: QWidget, scope: str, db_path: str, settings: Settings, out_path: str,
                               items: Any = None) -> ExportJob:
    """Write the report in the background; progress in the status bar, then "Open report"."""
    window = parent if isinstance(parent, QMainWindow) else parent.window()
    status = window.statusBar() if isinstance(window, QMainWindow) else None

    def on_progress(fraction: float, message: str) -> None:
        if status is not None and shiboken6.isValid(status):
            status.showMessage(f"{localise_progress(message)} ({fraction:.0%})")

    def on_done(written: str) -> None:
        if not shiboken6.isValid(parent):
            return  # (the window was closed while its report was written: the file is there)
        if status is not None and shiboken6.isValid(status):
            status.showMessage(QCoreApplication.translate("Export", "Report written to {0}").format(written), 10000)
        offer_to_open(parent, written)

    def on_failed(message: str, detail: str) -> None:
        if not shiboken6.isValid(parent):
            return
        if status is not None and shiboken6.isValid(status):
            status.clearMessage()
        box = QMessageBox(QMessageBox.Icon.Warning, QCoreApplication.translate("Export", "Export report"),
                          QCoreApplication.translate("Export", "The report could not be written: {0}").format(message),
                          QMessageBox.StandardButton.Ok, parent)
        box.setDetailedText(detail)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): the window keeps running

    job = start_export(parent, scope, db_path, settings, out_path, items)
    job.progress.connect(on_progress)
    job.done.connect(on_done)
    job.failed.connect(on_failed)
    return job


def offer_to_open(parent: QWidget, path: str) -> QMessageBox:
    """A non-modal note that the report is written, with "Open report" and "Show folder"."""
    box = QMessageBox(QMessageBox.Icon.Information, QCoreApplication.translate("Export", "Export report"),
                      QCoreApplication.translate("Export", "The report was written to {0}").format(path), QMessageBox.StandardButton.Close, parent)
    box.setObjectName("reportWrittenBox")
    open_button = box.addButton(QCoreApplication.translate("Export", "Open report"), QMessageBox.ButtonRole.AcceptRole)
    open_button.setObjectName("openReportButton")
    folder_button = box.addButton(QCoreApplication.translate("Export", "Show folder"), QMessageBox.ButtonRole.ActionRole)
    open_button.clicked.connect(lambda: open_file(path))
    folder_button.clicked.connect(lambda: open_file(os.path.dirname(path)))
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box


def open_file(path: str) -> bool:
    """Open a file or folder with the desktop's default application."""
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QDesktopServices

    return QDesktopServices.openUrl(QUrl.fromLocalFile(path))
