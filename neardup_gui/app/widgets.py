"""Widgets the tab views share: the results table, the progress panel and its wording."""

from __future__ import annotations

import re

from typing import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableView,
    QWidget,
)

from neardup_gui.app.models import FilterProxy
from neardup_gui.app.tasks import Task


def format_duration(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _counted(match: re.Match[str], translated: str) -> str:
    """A counted message (Qt's %n plural forms, already chosen) with its other fields filled in."""
    return translated.format(**{k: v for k, v in match.groupdict().items() if k != "n"})


def _tr_n(text: str, match: re.Match[str]) -> str:
    return QCoreApplication.translate("ProgressMessages", text, None, int(match["n"]))


def _progress_patterns() -> list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]]:
    return [
        (re.compile(r"^Indexed (?P<done>\d+) of (?P<total>\d+): (?P<file>.*)$", re.S), QCoreApplication.translate("ProgressMessages", "Indexed {done} of {total}: {file}")),
        (re.compile(r"^Added (?P<done>\d+) of (?P<total>\d+): (?P<file>.*)$", re.S), QCoreApplication.translate("ProgressMessages", "Added {done} of {total}: {file}")),
        (re.compile(r"^Re-fingerprinting (?P<done>\d+) of (?P<total>\d+)$"), QCoreApplication.translate("ProgressMessages", "Re-fingerprinting {done} of {total}")),
        (re.compile(r"^Comparing (?P<done>\d+) of (?P<total>\d+)$"), QCoreApplication.translate("ProgressMessages", "Comparing {done} of {total}")),
        (re.compile(r"^Verifying (?P<done>\d+) of (?P<total>\d+) candidates$"), QCoreApplication.translate("ProgressMessages", "Verifying {done} of {total} candidates")),
        (re.compile(r"^Compared (?P<done>\d+) of (?P<total>\d+)$"), QCoreApplication.translate("ProgressMessages", "Compared {done} of {total}")),
        (re.compile(r"^Quoting (?P<file>.*)$", re.S), QCoreApplication.translate("ProgressMessages", "Quoting {file}")),
        (re.compile(r"^Updating the figures of (?P<file>.*)$", re.S), QCoreApplication.translate("ProgressMessages", "Updating the figures of {file}")),
        (re.compile(r"^Completing the index: (?P<done>\d+) of (?P<total>\d+)$"), QCoreApplication.translate("ProgressMessages", "Completing the index: {done} of {total}")),
        (re.compile(r"^Reading (?P<file>.*)$", re.S), QCoreApplication.translate("ProgressMessages", "Reading {file}")),
        (re.compile(r"^[Ss]canning (?P<file>.*)$", re.S), QCoreApplication.translate("ProgressMessages", "Scanning {file}")),
        # The counted messages of core (progress.count_noun, indexer.index_summary): Qt's %n
        # forms; English has no translator installed, so its singular is a string of its own.
        (re.compile(r"^found (?P<n>\d+) documents?$"), lambda m: _counted(m, (
            _tr_n(QT_TRANSLATE_NOOP("ProgressMessages", "Found %n document"), m) if m["n"] == "1" else _tr_n(QT_TRANSLATE_NOOP("ProgressMessages", "Found %n documents"), m)))),
        (re.compile(r"^Finding common passages \((?P<n>\d+) documents? read\)$"), lambda m: _counted(m, (
            _tr_n(QT_TRANSLATE_NOOP("ProgressMessages", "Finding common passages (%n document read)"), m) if m["n"] == "1" else _tr_n(QT_TRANSLATE_NOOP("ProgressMessages", "Finding common passages (%n documents read)"), m)))),
        (re.compile(r"^Re-fingerprinted (?P<n>\d+) documents?$"), lambda m: _counted(m, (
            _tr_n(QT_TRANSLATE_NOOP("ProgressMessages", "Re-fingerprinted %n document"), m) if m["n"] == "1" else _tr_n(QT_TRANSLATE_NOOP("ProgressMessages", "Re-fingerprinted %n documents"), m)))),
        (re.compile(r"^Indexed (?P<n>\d+) documents? \((?P<warned>\d+) with warnings, (?P<skipped>\d+) skipped\)$"),
         lambda m: _counted(m, (
             _tr_n(QT_TRANSLATE_NOOP("ProgressMessages", "Indexed %n document ({warned} with warnings, {skipped} skipped)"), m) if m["n"] == "1"
             else _tr_n(QT_TRANSLATE_NOOP("ProgressMessages", "Indexed %n documents ({warned} with warnings, {skipped} skipped)"), m)))),
    ]


def _stage_words() -> dict[str, str]:
    """The core's stage words said as they are, no field in them (checked before the patterns:
    "Scanning the folder" is not "Scanning" a folder named "the folder")."""
    return {
        "Finding common passages": QCoreApplication.translate("ProgressMessages", "Finding common passages"),
        "Common passages found": QCoreApplication.translate("ProgressMessages", "Common passages found"),
        "Saving the search tables": QCoreApplication.translate("ProgressMessages", "Saving the search tables"),
        "Reading the submissions": QCoreApplication.translate("ProgressMessages", "Reading the submissions"),
        "Scanning the folder": QCoreApplication.translate("ProgressMessages", "Scanning the folder"),
        "Report ready": QCoreApplication.translate("ProgressMessages", "Report ready"),
        "Screened": QCoreApplication.translate("ProgressMessages", "Screened"),
        "Checked": QCoreApplication.translate("ProgressMessages", "Checked"),
        "Compared": QCoreApplication.translate("ProgressMessages", "Compared"),
    }


def localise_progress(message: str) -> str:
    """The core's progress message in the interface language (core itself never imports Qt)."""
    words = _stage_words().get(message)
    if words is not None:
        return words
    for pattern, template in _progress_patterns():
        match = pattern.match(message)
        if match:
            return template(match) if callable(template) else template.format(**match.groupdict())
    return message


# A filter box over a long list filters once the examiner pauses, not at every key: refiltering
# the 63,503 pairs of 10,000 copy-heavy documents held the GUI thread 0.2 s a key, and 0.9 s the
# first time (each row's text is gathered then). A short list filters as it is typed; emptying
# the box shows everything at once.
FILTER_PAUSE_ROWS = 5000
FILTER_PAUSE_MS = 250


def filter_as_typed(edit: QLineEdit, proxy: FilterProxy) -> QTimer:
    """Connect a filter box to ``proxy.set_text`` (see FILTER_PAUSE_ROWS); returns the timer
    that waits for the pause."""
    timer = QTimer(edit)
    timer.setSingleShot(True)
    timer.setInterval(FILTER_PAUSE_MS)
    timer.timeout.connect(lambda: proxy.set_text(edit.text()))

    def changed(text: str) -> None:
        source = proxy.sourceModel()
        if not text.strip() or source is None or source.rowCount() < FILTER_PAUSE_ROWS:
            timer.stop()
            proxy.set_text(text)
        else:
            timer.start()

    edit.textChanged.connect(changed)
    return timer


def make_table(model_proxy: FilterProxy, name: str, stretch: tuple[int, ...] = (0,)) -> QTableView:
    view = QTableView()
    view.setObjectName(name)
    view.setModel(model_proxy)
    view.setSortingEnabled(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.verticalHeader().setVisible(False)
    view.horizontalHeader().setStretchLastSection(False)
    # Size columns from the first rows only: measuring thousands of rows would stall the GUI.
    view.horizontalHeader().setResizeContentsPrecision(40)
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    for column in stretch:  # the file names take the spare width
        view.horizontalHeader().setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
    view.setTabKeyNavigation(False)
    return view


class ProgressPanel(QWidget):
    """Progress of the running task: bar, current file, elapsed and remaining time, Cancel."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("progressPanel")
        self.task: Task | None = None
        self.what = QLabel()
        self.what.setObjectName("progressWhat")
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setTextVisible(True)
        self.message = QLabel()
        self.message.setObjectName("progressMessage")
        self.message.setMinimumWidth(200)
        self.times = QLabel()
        self.cancel_button = QPushButton()
        self.cancel_button.setObjectName("cancelButton")
        self.cancel_button.clicked.connect(self.cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.what)
        layout.addWidget(self.bar, 2)
        layout.addWidget(self.message, 3)
        layout.addWidget(self.times)
        layout.addWidget(self.cancel_button)
        self._timer = QTimer(self)
        self._timer.setInterval(500)
        self._timer.timeout.connect(self._tick)
        self.setVisible(False)
        self.retranslate_ui()

    def follow(self, task: Task, what: str) -> None:
        self.task = task
        self.what.setText(what)
        self.bar.setValue(0)
        self.message.setText("")
        self.cancel_button.setEnabled(True)
        task.progress.connect(self._progress)
        task.finished.connect(self._finished)
        self._tick()
        self._timer.start()
        self.setVisible(True)

    def cancel(self) -> None:
        if self.task is not None and self.task.is_running():
            self.task.cancel()
            self.cancel_button.setEnabled(False)
            self.message.setText(self.tr("Stopping…"))

    def _progress(self, fraction: float, message: str) -> None:
        self.bar.setValue(int(fraction * 1000))
        if message and not (self.task and self.task.cancel_requested):
            message = localise_progress(message)
            metrics = self.message.fontMetrics()
            self.message.setText(metrics.elidedText(message, Qt.TextElideMode.ElideMiddle, max(200, self.message.width())))
            self.message.setToolTip(message)

    def _tick(self) -> None:
        if self.task is None:
            return
        remaining = self.task.remaining_s()
        text = self.tr("Elapsed {elapsed}").format(elapsed=format_duration(self.task.elapsed_s()))
        if remaining is not None:
            text += "  ·  " + self.tr("about {remaining} left").format(remaining=format_duration(remaining))
        self.times.setText(text)

    def _finished(self) -> None:
        self._timer.stop()
        self.task = None
        self.setVisible(False)

    def retranslate_ui(self) -> None:
        self.cancel_button.setText(self.tr("Cancel"))
        self.cancel_button.setToolTip(self.tr("Stop the running task; everything done so far is kept (Esc)"))
        self.bar.setAccessibleName(self.tr("Progress"))
        self._tick()
