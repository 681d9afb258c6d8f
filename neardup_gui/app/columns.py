"""Table columns that fit: figures sized to their content, names given the room left, headers whole.

A figure's column is as wide as its widest value or its header, whichever is wider; a header of
several words may take two lines, so "Largest single source" does not widen a column of "42.1%".
File names take the width left, each at least a readable minimum, and are elided in the middle
("en-03-wa…sistance.pdf"), so both ends of a name stay readable; when even the minimums do not
fit, the table scrolls sideways rather than clip a header. The columns are fitted again when the
rows change, the language changes (the headers' words) and the table is resized.
"""

from __future__ import annotations

import logging
from typing import Sequence

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QTreeView

log = logging.getLogger(__name__)

NAME_MIN_CHARS = 14  # a name column is never narrower than this many average characters
HEADER_LINES = 2  # a header may wrap onto this many lines
SLACK_PX = 6  # beside the style's margins and sort arrow, so that the arrow never touches the words


def header_of(view: QAbstractItemView) -> QHeaderView:
    return view.horizontalHeader() if isinstance(view, QTableView) else view.header()  # type: ignore[union-attr]


def wrapped_width(text: str, metrics: QFontMetrics, lines: int = HEADER_LINES) -> int:
    """The narrowest width that shows ``text`` on at most ``lines`` lines broken at its spaces.
    A text without spaces (a Chinese header, short anyway) keeps one line: broken between any
    two characters it left one character alone on the second."""
    text = text.strip()
    words = text.split()
    best = metrics.horizontalAdvance(text)
    if lines <= 1 or len(words) < 2:
        return best
    for cut in range(1, len(words)):  # (two lines: enough for every header of the window)
        first, second = " ".join(words[:cut]), " ".join(words[cut:])
        best = min(best, max(metrics.horizontalAdvance(first), metrics.horizontalAdvance(second)))
    return best


class ColumnFit(QObject):
    """Fits the columns of ``view`` (a table or tree view over a model whose headers are text).

    ``names``: the columns of names (at least ``NAME_MIN_CHARS`` wide); ``texts``: other columns of
    free text (a passage, a reason, warnings), at least their header's width. These share the width
    the figures leave, each up to its content in proportion to what it lacks; every text is elided
    in its middle. Every other column is a figure, as wide as its content and header.
    """

    def __init__(self, view: QAbstractItemView, names: Sequence[int] = (), texts: Sequence[int] = ()) -> None:
        super().__init__(view)
        self.view = view
        self.names = tuple(names)
        self.texts = tuple(texts)
        self._timer = QTimer(self)  # (a child: it goes with the view, never fits a deleted one)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.fit)
        view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        view.setWordWrap(False)  # (a wrapped name is cut at its line's end, not elided in its middle)
        header = header_of(view)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap)
        view.viewport().installEventFilter(self)
        view.installEventFilter(self)
        self.watch(view.model())

    def watch(self, model) -> None:  # noqa: ANN001 - the view's model, set before or again later
        if model is None:
            return
        for signal in (model.modelReset, model.layoutChanged, model.rowsInserted, model.rowsRemoved,
                       model.headerDataChanged):
            signal.connect(self.schedule)
        self.schedule()

    def schedule(self, *_args) -> None:  # noqa: ANN002
        """Fit once the event loop is back: many changes of one update make one fitting."""
        self._timer.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.FontChange, QEvent.Type.LanguageChange):
            self.schedule()
        return False

    def fit(self) -> None:
        view = self.view
        model = view.model()
        if model is None:
            return
        header = header_of(view)
        metrics = header.fontMetrics()
        columns = [c for c in range(header.count()) if not header.isSectionHidden(c)]
        needed: dict[int, int] = {}
        wants: dict[int, int] = {}
        two_lines = False
        for c in columns:
            head = self.needed_width(c)
            two_lines = two_lines or head < header.sectionSizeHint(c)
            content = view.sizeHintForColumn(c) if model.rowCount() else 0
            if c in self.names:
                needed[c] = max(head, metrics.averageCharWidth() * NAME_MIN_CHARS)
                wants[c] = max(needed[c], content)
            elif c in self.texts:
                needed[c] = head
                wants[c] = max(head, content)
            else:
                needed[c] = max(head, content)
        spare = view.viewport().width() - sum(needed.values())
        widths = dict(needed)
        flexible = [c for c in columns if c in self.names or c in self.texts]
        if spare > 0 and flexible:
            # each flexible column up to its content, in proportion to what it lacks; what is left, shared
            short = {c: wants[c] - widths[c] for c in flexible if wants[c] > widths[c]}
            total = sum(short.values())
            if total:
                give = min(spare, total)
                for c, lack in short.items():
                    widths[c] += int(give * lack / total)
                spare -= give
            if spare > 0:
                for c in flexible:
                    widths[c] += spare // len(flexible)
        for c in columns:
            header.resizeSection(c, widths[c])
        line = metrics.lineSpacing()
        header.setFixedHeight(line * (HEADER_LINES if two_lines else 1) + max(10, line // 2))

    def needed_width(self, column: int) -> int:
        """The least width ``column``'s header needs (for the layout tests)."""
        header = header_of(self.view)
        title = str(self.view.model().headerData(column, Qt.Orientation.Horizontal) or "")
        metrics = header.fontMetrics()
        padding = max(0, header.sectionSizeHint(column) - metrics.horizontalAdvance(title)) + SLACK_PX
        return wrapped_width(title, metrics) + padding
