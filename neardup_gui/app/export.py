"""Report export from the window: a save dialog with the four formats, the writing in a worker thread.

The worker opens its own :class:`Collection` (SQLite connections stay in the thread that made
them), builds the report model and writes HTML, CSV, JSON or PDF; progress and the outcome come
back to the GUI thread through queued signals, so the window never waits on the disk.
"""

from __future__ import annotations

import logging
import os
import threading
import traceback
from typing import Any, Sequence

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal, Slot
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox, QWidget

from neardup_gui.core.collection import Collection
from neardup_gui.core.progress import ProgressFn, no_progress, wrap_progress
from neardup_gui.core.report import build_report, format_for, write_report
from neardup_gui.core.settings import Settings

log = logging.getLogger(__name__)

# Save-dialog filters, in the order offered, and the extension each one writes.
FILTERS = (
    ("HTML report (*.html)", "html"),
    ("PDF document (*.pdf)", "pdf"),
    ("CSV table (*.csv)", "csv"),
    ("JSON data (*.json)", "json"),
)


def with_extension(path: str, selected_filter: str) -> str:
    """The chosen file name with the extension of the chosen format when it has none of ours."""
    try:
        format_for(path)
        return path
    except ValueError:
        ext = dict(FILTERS).get(selected_filter, "html")
        return f"{path}.{ext}"


def write_report_file(db_path: str, scope: str, settings: Settings, out_path: str, *,
                      items: Sequence[Any] | None = None, progress: ProgressFn = no_progress) -> str:
    """Build the report of ``scope`` from the index at ``db_path`` and write it to ``out_path``.

    Runs in a worker thread; the format follows the file's extension. Returns ``out_path``.
    """
    fmt = format_for(out_path)
    with Collection.open(db_path, create=False) as coll:
        report = build_report(coll, scope, settings, items=items, progress=wrap_progress(progress, 0.0, 0.8))
    progress(0.85, f"Writing {os.path.basename(out_path)}")
    if fmt == "pdf":
        from neardup_gui.qtpdf import write_pdf

        write_pdf(report, out_path)
    else:
        write_report(report, out_path, fmt)
    progress(1.0, f"Wrote {os.path.basename(out_path)}")
    return out_path


class _Relay(QObject):
    """Lives on the GUI thread; the worker emits on it and Qt queues the calls."""

    progress = Signal(float, str)
    done = Signal(str)
    failed = Signal(str, str)


class ExportJob(QObject):
    """One report being written in the background. Signals are delivered on the GUI thread."""

    progress = Signal(float, str)
    done = Signal(str)  # the written file
    failed = Signal(str, str)  # message, details
    finished = Signal()  # after done or failed

    def __init__(self, db_path: str, scope: str, settings: Settings, out_path: str,
                 items: Sequence[Any] | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.db_path = db_path
        self.scope = scope
        self.settings = settings
        self.out_path = out_path
        self.items = list(items) if items is not None else None
        self.outcome = ""  # "done" | "failed" once ended
        self._ended = threading.Event()
        self._relay = _Relay()
        self._relay.progress.connect(self.progress, Qt.ConnectionType.QueuedConnection)
        self._relay.done.connect(self._deliver_done, Qt.ConnectionType.QueuedConnection)
        self._relay.failed.connect(self._deliver_failed, Qt.ConnectionType.QueuedConnection)

    def start(self, pool: QThreadPool | None = None) -> "ExportJob":
        (pool or QThreadPool.globalInstance()).start(_Runnable(self))
        return self

    def wait(self, timeout_s: float | None = None) -> bool:
        """Block until the worker has returned (tests and shutdown only)."""
        return self._ended.wait(timeout_s)

    def run_in_worker(self) -> None:
        try:
            path = write_report_file(self.db_path, self.scope, self.settings, self.out_path, items=self.items,
                                     progress=lambda f, m="": self._relay.progress.emit(float(f), str(m)))
        except BaseException as exc:  # noqa: BLE001 - every failure must reach the GUI, not kill it
            detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
            log.error("report export to %s failed:\n%s", self.out_path, detail)
            self._relay.failed.emit(str(exc) or type(exc).__name__, detail)
        else:
            self._relay.done.emit(path)
        finally:
            self._ended.set()

    @Slot(str)
    def _deliver_done(self, path: str) -> None:
        self.outcome = "done"
        self.done.emit(path)
        self.finished.emit()

    @Slot(str, str)
    def _deliver_failed(self, message: str, detail: str) -> None:
        self.outcome = "failed"
        self.failed.emit(message, detail)
        self.finished.emit()


class _Runnable(QRunnable):
    def __init__(self, job: ExportJob) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._job = job

    def run(self) -> None:
        self._job.run_in_worker()


def start_export(parent: QObject | None, scope: str, db_path: str, settings: Settings, out_path: str,
                 items: Sequence[Any] | None = None) -> ExportJob:
    """Write the report to ``out_path`` in the background; the job is owned by ``parent`` until it ends."""
    job = ExportJob(str(db_path), scope, settings, out_path, items, parent)
    job.finished.connect(job.deleteLater)
    return job.start()


def export_report(parent: QWidget, scope: str, db_path: str, settings: Settings, items: Sequence[Any] | None = None) -> None:
    """Ask where to save the report of ``scope`` (HTML, PDF, CSV or JSON) and write it in the background.

    ``items``: the check results for a ``"check"`` report, or the chosen pairs or clusters
    (default: all of the collection's at the settings' threshold).
    """
    base = {"check": "check-report", "pairs": "duplicate-pairs", "clusters": "duplicate-clusters"}.get(scope, "report")
    start_dir = os.path.dirname(str(db_path)) or os.path.expanduser("~")
    path, selected = QFileDialog.getSaveFileName(
        parent, parent.tr("Export report"), os.path.join(start_dir, f"{base}.html"),
        ";;".join(f for f, _ in FILTERS), FILTERS[0][0])
    if not path:
        return
    out_path = with_extension(path, selected)
    status = parent.statusBar() if isinstance(parent, QMainWindow) else None

    def on_progress(fraction: float, message: str) -> None:
        if status is not None:
            status.showMessage(f"{message} ({fraction:.0%})")

    def on_done(written: str) -> None:
        if status is not None:
            status.showMessage(parent.tr("Report written to {0}").format(written), 10000)

    def on_failed(message: str, detail: str) -> None:
        if status is not None:
            status.clearMessage()
        box = QMessageBox(QMessageBox.Icon.Warning, parent.tr("Export report"),
                          parent.tr("The report could not be written: {0}").format(message),
                          QMessageBox.StandardButton.Ok, parent)
        box.setDetailedText(detail)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # not exec(): the window keeps running

    job = start_export(parent, scope, db_path, settings, out_path, items)
    job.progress.connect(on_progress)
    job.done.connect(on_done)
    job.failed.connect(on_failed)
