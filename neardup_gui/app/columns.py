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
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyle, QStyleOptionHeader, QTableView

log = logging.getLogger(__name__)

NAME_MIN_CHARS = 16  # a name column is never narrower than this many average characters
# a text column (a flag, applicants, warnings) keeps this many characters of its words even when
# the table is too wide: "flagged", "已标记" are read whole, longer texts are elided
TEXT_MIN_CHARS = 9
HEADER_LINES = 2  # a header may wrap onto this many lines
SLACK_PX = 4  # beside the style's margins and sort arrow, so that the arrow never touches the words


class WrappedHeader(QHeaderView):
    """A horizontal header that draws each section's title with the line break chosen for it
    (``breaks``: logical index → title with a line feed), so a two-line header is split where the
    fitting decided, never left to a greedy wrap that leaves one character alone."""

    def __init__(self, parent: QAbstractItemView) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.breaks: dict[int, str] = {}

    def paintSection(self, painter, rect, logical: int) -> None:  # noqa: ANN001, N802 - Qt's name
        text = self.breaks.get(logical)
        if text is None:
            super().paintSection(painter, rect, logical)
            return
        option = QStyleOptionHeader()
        self.initStyleOptionForIndex(option, logical)
        option.rect = rect
        option.text = text
        painter.save()
        self.style().drawControl(QStyle.ControlElement.CE_Header, option, painter, self)
        painter.restore()


def install_wrapped_header(view: QAbstractItemView) -> QHeaderView:
    """Give ``view`` a :class:`WrappedHeader` with the settings of the header it had."""
    old = header_of(view)
    if isinstance(old, WrappedHeader):
        return old
    new = WrappedHeader(view)
    new.setSectionsClickable(old.sectionsClickable())
    new.setSortIndicatorShown(old.isSortIndicatorShown())
    new.setSortIndicator(old.sortIndicatorSection(), old.sortIndicatorOrder())
    new.setHighlightSections(old.highlightSections())
    new.setResizeContentsPrecision(old.resizeContentsPrecision())
    new.setVisible(not old.isHidden())
    if isinstance(view, QTableView):
        view.setHorizontalHeader(new)
    else:
        view.setHeader(new)  # type: ignore[union-attr]
    return new


def header_of(view: QAbstractItemView) -> QHeaderView:
    return view.horizontalHeader() if isinstance(view, QTableView) else view.header()  # type: ignore[union-attr]


def _tokens(text: str) -> tuple[list[str], str]:
    """The pieces a header may break between, and what joins them: its words (a Chinese header
    of five characters or more: its words as jieba cuts them, so "单篇最大 / 文字复制比" and not
    "单篇最大文 / 字复制比")."""
    if " " in text:
        return text.split(), " "
    if len(text) >= 5 and all(ord(ch) >= 0x2E80 for ch in text):
        try:
            import rjieba

            return [w for w in rjieba.cut(text) if w], ""
        except Exception:  # noqa: BLE001 - no segmenter: between any two characters
            return list(text), ""
    return [text], ""


def wrapped(text: str, metrics: QFontMetrics, lines: int = HEADER_LINES) -> list[str]:
    """``text`` on at most ``lines`` lines (two: enough for every header of the window), broken at
    the space (a Chinese header between its words) that makes the widest line narrowest, with no
    line of a lone letter or two ("r" under "Similarity") or of one Chinese character."""
    text = text.strip()
    tokens, joiner = _tokens(text)
    best, best_width = [text], metrics.horizontalAdvance(text)
    if lines < 2:
        return best
    for cut in range(1, len(tokens)):
        parts = [joiner.join(tokens[:cut]), joiner.join(tokens[cut:])]
        width = max(metrics.horizontalAdvance(p) for p in parts)
        shortest = 1 if joiner == "" else 2  # (no line of one Chinese character, or of "r" or "A" alone)
        if width < best_width and all(len(p) > shortest for p in parts):
            best, best_width = parts, width
    return best


def wrapped_width(text: str, metrics: QFontMetrics, lines: int = HEADER_LINES) -> int:
    """The width of the widest line of :func:`wrapped`."""
    return max(metrics.horizontalAdvance(line) for line in wrapped(text, metrics, lines))


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
        header = install_wrapped_header(view)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignCenter)
        header.sortIndicatorChanged.connect(self.schedule)
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
            two_lines = two_lines or len(wrapped(str(model.headerData(c, Qt.Orientation.Horizontal) or ""),
                                                 metrics)) > 1
            content = view.sizeHintForColumn(c) if model.rowCount() else 0
            if c in self.names:
                needed[c] = max(head, metrics.averageCharWidth() * NAME_MIN_CHARS)
                wants[c] = max(needed[c], content)
            elif c in self.texts:
                needed[c] = max(head, min(content, metrics.averageCharWidth() * TEXT_MIN_CHARS))
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
        breaks: dict[int, str] = {}
        for c in columns:
            title = str(model.headerData(c, Qt.Orientation.Horizontal) or "")
            lines = wrapped(title, metrics)
            one_line = metrics.horizontalAdvance(title) + self.padding(c)
            if len(lines) > 1 and not self._sorted(c) and widths[c] < one_line:
                breaks[c] = "\n".join(lines)
            header.resizeSection(c, widths[c])
        if isinstance(header, WrappedHeader):
            header.breaks = breaks
            header.viewport().update()
        line = metrics.lineSpacing()
        header.setFixedHeight(line * (HEADER_LINES if two_lines else 1) + max(10, line // 2))

    def padding(self, column: int) -> int:
        """What a header section needs beside its words: the style's margins, and room for the
        sort arrow in the sorted column only (the columns are fitted again when it moves)."""
        header = header_of(self.view)
        title = str(self.view.model().headerData(column, Qt.Orientation.Horizontal) or "")
        padding = max(0, header.sectionSizeHint(column) - header.fontMetrics().horizontalAdvance(title)) + SLACK_PX
        if header.isSortIndicatorShown() and column != header.sortIndicatorSection():
            # (the hint holds the arrow's room in every section: Qt adds the section's height
            # and a margin to it when sort arrows are shown)
            margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
            padding -= header.fontMetrics().height() + 2 * margin + margin
        return max(padding, 2 * SLACK_PX)

    def _sorted(self, column: int) -> bool:
        header = header_of(self.view)
        return header.isSortIndicatorShown() and column == header.sortIndicatorSection()

    def needed_width(self, column: int) -> int:
        """The least width ``column``'s header needs: its words on two lines at most, on one in
        the sorted column (some styles draw the sort arrow above the words: a second line would
        run into it)."""
        header = header_of(self.view)
        title = str(self.view.model().headerData(column, Qt.Orientation.Horizontal) or "")
        lines = 1 if self._sorted(column) else HEADER_LINES
        return wrapped_width(title, header.fontMetrics(), lines) + self.padding(column)
