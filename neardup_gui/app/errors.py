"""Errors in plain words: what happened, what to do, and details to copy for the unexpected."""

from __future__ import annotations

import logging
import sqlite3
import sys
import traceback
from types import TracebackType
from typing import Callable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from neardup_gui.core.collection import IndexProblem
from neardup_gui.core.dask_connection import ClusterUnavailable
from neardup_gui.core.scan import FolderUnavailable
from neardup_gui.core.screening import ScreeningGone
from neardup_gui.core.store import DocumentGone

log = logging.getLogger(__name__)


def is_index_problem(exc: BaseException) -> bool:
    """True for errors that mean the index file itself cannot be used (offer a rebuild)."""
    if isinstance(exc, IndexProblem):
        return exc.kind in ("corrupt", "too-new", "not-an-index")
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError)


def explain(exc: BaseException) -> tuple[str, str]:
    """A short headline and what the examiner can do about ``exc``."""
    return _explained(exc) or (
        QCoreApplication.translate("Errors", "Something went wrong."),
        QCoreApplication.translate("Errors", "This is a bug in neardup. Copy the details below and send them to the developers; "
           "your documents are not affected."),
    )


def is_bug(exc: BaseException) -> bool:
    """True when :func:`explain` can only call ``exc`` a bug: no condition of the examiner's files,
    disk or index it has words for."""
    return _explained(exc) is None


def _explained(exc: BaseException) -> tuple[str, str] | None:
    """:func:`explain`'s words for a condition it knows, or None."""
    kind = exc.kind if isinstance(exc, IndexProblem) else ""
    if is_index_problem(exc):
        return (
            QCoreApplication.translate("Errors", "The index of this collection cannot be used."),
            QCoreApplication.translate("Errors", "The index file may be damaged or was made by a newer version. You can rebuild it "
               "from the documents; the old file is kept beside it as a backup."),
        )
    if isinstance(exc, ClusterUnavailable):
        return (
            QCoreApplication.translate("Errors", "The Dask cluster cannot be used."),
            QCoreApplication.translate("Errors", "Nothing was changed. What stands in the way is said below; the "
               "cluster's address and certificates are in Settings (docs/scale.md says how to set up a cluster)."),
        )
    if isinstance(exc, FolderUnavailable):
        return (
            QCoreApplication.translate("Errors", "The collection's folder cannot be read."),
            QCoreApplication.translate("Errors", "Nothing in the index was changed: its documents are kept as they were. Connect the "
               "drive or put the folder back, then refresh; or open the collection again from where it is now."),
        )
    if kind == "busy" or (isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc).lower()):
        return (
            QCoreApplication.translate("Errors", "The index is busy."),
            QCoreApplication.translate("Errors", "Another program (perhaps the command line) is writing to it. Wait until it "
               "finishes, then try again."),
        )
    if kind == "disk-full" or (isinstance(exc, OSError) and getattr(exc, "errno", None) == 28):
        return (QCoreApplication.translate("Errors", "The disk is full."), QCoreApplication.translate("Errors", "Nothing was lost. Free some space, then try again."))
    if kind == "read-only" or isinstance(exc, PermissionError):
        return (
            QCoreApplication.translate("Errors", "A file or folder could not be read or written."),
            QCoreApplication.translate("Errors", "Check that you have permission to read the collection folder and to write to "
               "your application data folder."),
        )
    if isinstance(exc, DocumentGone):
        return (
            QCoreApplication.translate("Errors", "A document of this result is no longer in the collection."),
            QCoreApplication.translate("Errors", "It was removed or changed after the result was made. Check the submission "
               "again, or screen the call again, to compare with the collection as it is now."),
        )
    if isinstance(exc, ScreeningGone):
        return (
            QCoreApplication.translate("Errors", "This screening has changed since it was shown."),
            QCoreApplication.translate("Errors", "It was screened again, deleted, or the index was rebuilt. The Screening tab "
               "now shows it as it is; open the submission again from there."),
        )
    if isinstance(exc, FileNotFoundError):
        return (
            QCoreApplication.translate("Errors", "A file or folder was not found."),
            QCoreApplication.translate("Errors", "It may have been moved or deleted. Refresh the collection or choose it again."),
        )
    if kind:
        return (QCoreApplication.translate("Errors", "The index could not be used."), QCoreApplication.translate("Errors", "Try again; if it keeps happening, copy the details below."))
    return None


class ErrorDialog(QDialog):
    """Shows an error in plain words with the technical details one click away, copyable."""

    def __init__(self, headline: str, advice: str, details: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("neardup: problem"))
        self.setObjectName("errorDialog")
        layout = QVBoxLayout(self)
        self.headline = QLabel(f"<b>{headline}</b>")
        self.headline.setWordWrap(True)
        self.advice = QLabel(advice)
        self.advice.setWordWrap(True)
        self.details = QPlainTextEdit(details)
        self.details.setReadOnly(True)
        self.details.setAccessibleName(self.tr("Error details"))
        self.details.setMinimumHeight(160)
        self.details.setVisible(bool(details))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = QPushButton(self.tr("Copy details"))
        self.copy_button.setToolTip(self.tr("Copy the technical details to the clipboard"))
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.setVisible(bool(details))  # (an expected condition has nothing to copy)
        self.copy_button.clicked.connect(self.copy_details)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        layout.addWidget(self.headline)
        layout.addWidget(self.advice)
        layout.addWidget(self.details)
        layout.addWidget(buttons)
        self.resize(620, 360 if details else 160)

    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self.details.toPlainText())


def install_exception_hook(parent: Callable[[], QWidget | None]) -> list[ErrorDialog]:
    """Show unexpected exceptions in a dialog instead of letting them end the application.

    Returns the list that keeps the open dialogs alive (they are shown without blocking).
    """
    shown: list[ErrorDialog] = []

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, exc, tb)
            return
        details = "".join(traceback.format_exception(kind, exc, tb))
        log.error("unexpected error:\n%s", details)
        headline, advice = explain(exc)
        try:
            dialog = ErrorDialog(headline, advice, details, parent())
            shown.append(dialog)
            dialog.finished.connect(lambda _result, d=dialog: shown.remove(d) if d in shown else None)
            dialog.open()
        except Exception:  # noqa: BLE001 - the hook must never raise
            sys.__excepthook__(kind, exc, tb)

    sys.excepthook = hook
    return shown


class StartupErrorDialog(QDialog):
    """neardup could not start: the error, the log file, and a way out (reset the settings).

    ``exec()`` returns :attr:`RESET` when the examiner chose to reset the settings and try again,
    otherwise ``Rejected`` (quit).
    """

    RESET = 2

    def __init__(self, exc: BaseException, details: str, log_path: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("startupErrorDialog")
        self.setWindowTitle(self.tr("neardup could not start"))
        headline, advice = explain(exc)
        layout = QVBoxLayout(self)
        self.headline = QLabel(self.tr("<b>neardup could not start.</b> {what}").format(what=headline))
        self.headline.setWordWrap(True)
        self.message = QLabel(f"{exc.__class__.__name__}: {exc}")
        self.message.setObjectName("startupErrorMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.advice = QLabel(self.tr(
            "If it started failing after a change of settings, “Reset settings” sets the settings file "
            "aside (it is kept as a backup) and starts again with the defaults. Your collections and "
            "their indexes are not touched."))
        self.advice.setWordWrap(True)
        self.log_label = QLabel(self.tr("The log file is {path}").format(path=log_path))
        self.log_label.setObjectName("startupLogPath")
        self.log_label.setWordWrap(True)
        self.log_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details = QPlainTextEdit(details)
        self.details.setReadOnly(True)
        self.details.setAccessibleName(self.tr("Error details"))
        self.details.setMinimumHeight(140)
        buttons = QDialogButtonBox()
        self.reset_button = buttons.addButton(self.tr("Reset settings"), QDialogButtonBox.ButtonRole.ActionRole)
        self.reset_button.setObjectName("resetSettingsButton")
        self.copy_button = buttons.addButton(self.tr("Copy details"), QDialogButtonBox.ButtonRole.ActionRole)
        self.quit_button = buttons.addButton(self.tr("Quit"), QDialogButtonBox.ButtonRole.RejectRole)
        self.reset_button.clicked.connect(lambda: self.done(self.RESET))
        self.copy_button.clicked.connect(
            lambda: QGuiApplication.clipboard().setText(f"{self.message.text()}\n\n{details}"))
        buttons.rejected.connect(self.reject)
        for w in (self.headline, self.message, self.advice, self.log_label, self.details):
            layout.addWidget(w)
        layout.addWidget(buttons)
        self.resize(640, 420)
