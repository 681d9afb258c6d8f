"""Widgets the tab views share: the results table, the progress panel and its wording."""

from __future__ import annotations

import re

from typing import Callable

from PySide6.QtCore import QCoreApplication, QModelIndex, QObject, QPersistentModelIndex, QSize, Qt, QTimer
from PySide6.QtGui import QPainter, QPalette, QPen, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from neardup_gui.app.columns import ColumnFit
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


class ProgressCounts(QObject):
    """The core's counted progress messages, each through ``tr`` with its count: Qt's plural forms
    (lupdate marks a message as counted only when it is asked for through ``tr``)."""

    def found(self, n: int) -> str:
        return self.tr("Found %n document(s)", "", n)

    def finding_common(self, n: int) -> str:
        return self.tr("Finding common passages (%n document(s) read)", "", n)

    def refingerprinted(self, n: int) -> str:
        return self.tr("Re-fingerprinted %n document(s)", "", n)

    def indexed(self, n: int) -> str:
        return self.tr("Indexed %n document(s) ({warned} with warnings, {skipped} skipped)", "", n)


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
        (re.compile(r"^Writing (?P<file>.*)$", re.S), QCoreApplication.translate("ProgressMessages", "Writing {file}")),
        (re.compile(r"^Wrote (?P<file>.*)$", re.S), QCoreApplication.translate("ProgressMessages", "Wrote {file}")),
        (re.compile(r"^Completing the index: (?P<done>\d+) of (?P<total>\d+)$"), QCoreApplication.translate("ProgressMessages", "Completing the index: {done} of {total}")),
        (re.compile(r"^Reading (?P<file>.*)$", re.S), QCoreApplication.translate("ProgressMessages", "Reading {file}")),
        (re.compile(r"^[Ss]canning (?P<file>.*)$", re.S), QCoreApplication.translate("ProgressMessages", "Scanning {file}")),
        # The counted messages of core (progress.count_noun, indexer.index_summary), in Qt's %n
        # plural forms (English's from neardup_en.qm, as every counted message of the window).
        (re.compile(r"^found (?P<n>\d+) documents?$"), lambda m: _counted(m, ProgressCounts().found(int(m["n"])))),
        (re.compile(r"^Finding common passages \((?P<n>\d+) documents? read\)$"),
         lambda m: _counted(m, ProgressCounts().finding_common(int(m["n"])))),
        (re.compile(r"^Re-fingerprinted (?P<n>\d+) documents?$"),
         lambda m: _counted(m, ProgressCounts().refingerprinted(int(m["n"])))),
        (re.compile(r"^Indexed (?P<n>\d+) documents? \((?P<warned>\d+) with warnings, (?P<skipped>\d+) skipped\)$"),
         lambda m: _counted(m, ProgressCounts().indexed(int(m["n"])))),
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
        "Building the report": QCoreApplication.translate("ProgressMessages", "Building the report"),
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


class ElidedLabel(QLabel):
    """A one-line label of a name that is elided in its middle when the label is narrow, so both
    ends of a file name stay readable and a long name never widens its window."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._full = text
        self._elide()

    def full_text(self) -> str:
        return self._full

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        hint = super().minimumSizeHint()
        return QSize(self.fontMetrics().averageCharWidth() * 12, hint.height())

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(self.fontMetrics().horizontalAdvance(self._full) + 8, super().sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        room = max(0, self.contentsRect().width())
        super().setText(self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideMiddle, room))


class ColourKeepingDelegate(QStyledItemDelegate):
    """Draws a list's chosen item with its own background colour and a frame, not the selection
    colour: a passage or a source keeps the colour it has in the text while it is chosen."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        chosen = bool(opt.state & QStyle.StateFlag.State_Selected)
        if chosen and index.data(Qt.ItemDataRole.BackgroundRole) is not None:
            opt.state &= ~QStyle.StateFlag.State_Selected
            style = opt.widget.style() if opt.widget is not None else QApplication.style()
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
            painter.save()
            painter.setPen(QPen(opt.palette.color(QPalette.ColorRole.Highlight), 2))
            painter.drawRect(opt.rect.adjusted(1, 1, -2, -2))
            painter.restore()
            return
        super().paint(painter, opt, index)


def make_table(model_proxy: FilterProxy, name: str, names: tuple[int, ...] = (0,), texts: tuple[int, ...] = ()
               ) -> QTableView:
    """A sortable, filterable results table; its columns fitted (app/columns.py): ``names`` are
    the columns of file names, ``texts`` of other free text."""
    view = QTableView()
    view.setObjectName(name)
    view.setModel(model_proxy)
    view.column_fit = ColumnFit(view, names, texts)  # type: ignore[attr-defined] # (its header first)
    view.setSortingEnabled(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.verticalHeader().setVisible(False)
    # Size columns from the first rows only: measuring thousands of rows would stall the GUI.
    view.horizontalHeader().setResizeContentsPrecision(40)
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
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
        self.message.setMinimumWidth(self.message.fontMetrics().averageCharWidth() * 16)
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
