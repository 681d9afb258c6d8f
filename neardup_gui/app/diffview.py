"""The side-by-side view: two texts, their matched passages in matching colours, kept in step.

A matched passage is an edited passage of the comparison (core/passages.py): its identical runs
in the passage's colour, the edited text between them (substituted, inserted or dropped words)
in a lighter shade of the same colour, so one copied-then-edited section reads as one passage.
"""

from __future__ import annotations

import bisect
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, QUrl, Signal
from PySide6.QtGui import (
    QColor,
    QDesktopServices,
    QFont,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
    QShortcut,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from neardup_gui.app import colours
from neardup_gui.app.commonview import exclusions_text
from neardup_gui.app.flowlayout import FlowLayout
from neardup_gui.app.models import percent
from neardup_gui.app.widgets import ColourKeepingDelegate, ElidedLabel
from neardup_gui.core.document import CharSpan
from neardup_gui.core.results import Comparison, MatchSpan, Passage

log = logging.getLogger(__name__)

# Zoom of both panes, in points added to the application's font size.
ZOOM_RANGE = (-6, 24)
# The text panes' left margin holds, beside each passage's first line, the passage's number (in
# both panes: a passage moved in B is found by its number), and the bar beside the passage shown.
BAR_PX = 4


@dataclass(frozen=True)
class DiffInput:
    """What the view shows: the two texts and their exact comparison (A left, B right)."""

    text_a: str
    text_b: str
    comparison: Comparison
    title_a: str
    title_b: str
    path_a: str = ""
    path_b: str = ""


def passage_shades(index: int, palette: QPalette | None = None) -> tuple[QColor, QColor]:
    """The two shades of passage ``index``: identical text, and edited text inside the passage
    (:func:`neardup_gui.app.colours.passage_shades`, the reports' colours on a light palette)."""
    return colours.passage_shades(index, palette)


def percent_place(position: int, length: int) -> str:
    """Where ``position`` lies in a text of ``length`` characters, as a whole percentage."""
    return f"{round(100 * position / max(1, length))}%"


def passage_marks(passages: Sequence[Passage], side: str, palette: QPalette | None = None
                  ) -> tuple[list[tuple[CharSpan, QColor]], list[tuple[CharSpan, QColor]]]:
    """For one text (``side`` "a" or "b"): (identical runs, edited gaps), each with its shade."""
    exact_marks: list[tuple[CharSpan, QColor]] = []
    edited_marks: list[tuple[CharSpan, QColor]] = []
    for i, p in enumerate(passages):
        exact, edited = passage_shades(i, palette)
        runs = sorted(getattr(r, side) for r in p.runs)
        exact_marks.extend((span, exact) for span in runs)
        edited_marks.extend(((x[1], y[0]), edited) for x, y in zip(runs, runs[1:]) if y[0] > x[1])
    return exact_marks, edited_marks


class Alignment:
    """Maps a character position in one text to the matching position in the other.

    The match spans are order-preserving (they come from one LCS alignment), so their ends are
    anchor points of a monotone piecewise-linear map; between anchors the position is
    interpolated, which keeps the unmatched stretches roughly level too.
    """

    def __init__(self, spans: Sequence[MatchSpan], len_a: int, len_b: int) -> None:
        anchors = [(0, 0)]
        for span in sorted(spans, key=lambda s: s.a[0]):
            for a, b in ((span.a[0], span.b[0]), (span.a[1], span.b[1])):
                if a >= anchors[-1][0] and b >= anchors[-1][1]:
                    anchors.append((a, b))
        if len_a >= anchors[-1][0] and len_b >= anchors[-1][1]:
            anchors.append((len_a, len_b))
        self._a = [a for a, _ in anchors]
        self._b = [b for _, b in anchors]

    @staticmethod
    def _map(pos: int, xs: list[int], ys: list[int]) -> int:
        if pos <= xs[0]:
            return ys[0]
        if pos >= xs[-1]:
            return ys[-1]
        i = bisect.bisect_right(xs, pos) - 1
        x0, x1, y0, y1 = xs[i], xs[i + 1], ys[i], ys[i + 1]
        if x1 == x0:
            return y1
        return int(round(y0 + (pos - x0) * (y1 - y0) / (x1 - x0)))

    def a_to_b(self, pos: int) -> int:
        return self._map(pos, self._a, self._b)

    def b_to_a(self, pos: int) -> int:
        return self._map(pos, self._b, self._a)


class OverviewBar(QWidget):
    """A thin bar showing where in a text the matches (coloured) and template (grey) lie."""

    jump_requested = Signal(float)  # fraction of the text

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._length = 1
        self._marks: list[tuple[CharSpan, QColor]] = []
        self._muted: list[CharSpan] = []
        self._view = (0.0, 0.0)
        self.setFixedWidth(14)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def sizeHint(self) -> QSize:
        return QSize(14, 200)

    def set_content(self, length: int, marks: list[tuple[CharSpan, QColor]], muted: list[CharSpan]) -> None:
        self._length = max(1, length)
        self._marks = marks
        self._muted = muted
        self.update()

    def set_view(self, top: float, bottom: float) -> None:
        self._view = (top, bottom)
        self.update()

    def mark_count(self) -> int:
        return len(self._marks)

    def _y(self, pos: int) -> int:
        return int(pos / self._length * (self.height() - 1))

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), colours.overview_background(self.palette()))
        w = self.width()
        for start, end in self._muted:
            y0, y1 = self._y(start), self._y(end)
            painter.fillRect(QRect(2, y0, w - 4, max(1, y1 - y0)), colours.overview_muted(self.palette()))
        for (start, end), colour in self._marks:
            y0, y1 = self._y(start), self._y(end)
            marker = colour.lighter(135) if colours.is_dark(self.palette()) else colour.darker(115)
            painter.fillRect(QRect(1, y0, w - 2, max(2, y1 - y0)), marker)
        top, bottom = self._view
        if bottom > top:
            painter.setPen(colours.overview_frame(self.palette()))
            h = self.height() - 1
            painter.drawRect(QRect(0, int(top * h), w - 1, max(3, int((bottom - top) * h))))
        painter.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.height() > 1:
            self.jump_requested.emit(min(max(event.position().y() / (self.height() - 1), 0.0), 1.0))


class TextPane(QPlainTextEdit):
    """A read-only text with highlighted passages; scrolls to a character position on request."""

    zoom_requested = Signal(int)  # steps: Ctrl+wheel zooms both panes of the view, not this one alone

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.match_count = 0
        # The passage shown by next/previous: a bar in the left margin beside it, never a text
        # selection (a selection's colour would cover the passage's colours).
        self.current_span: CharSpan | None = None
        self.current_colour = QColor()
        self._numbers: list[tuple[int, int, QColor]] = []  # (start in this text, number, colour), by start
        self._starts: list[int] = []
        # the margin beside the text (as a code editor's line numbers): outside the text, so the
        # text keeps its own margins and never moves under the numbers
        self.margin_area = _Margin(self)
        self.setViewportMargins(self.margin(), 0, 0, 0)
        self.updateRequest.connect(self._margin_follows)

    def margin(self) -> int:
        """The left margin: room for the bar and a three-digit passage number."""
        return BAR_PX + 4 + self.fontMetrics().horizontalAdvance("888") + 4

    def set_numbers(self, numbers: Sequence[tuple[CharSpan, int, QColor]]) -> None:
        """The passages' numbers, drawn in the margin beside the line each passage starts on."""
        self._numbers = sorted(((span[0], n, colour) for span, n, colour in numbers), key=lambda x: (x[0], x[1]))
        self._starts = [start for start, _, _ in self._numbers]
        self.margin_area.update()

    def show_text(self, text: str, matches: list[tuple[CharSpan, QColor]], muted: list[CharSpan],
                  edited: Sequence[tuple[CharSpan, QColor]] = (), passages: int | None = None) -> None:
        """``matches``: identical text; ``edited``: edited text inside passages (lighter shade);
        ``passages``: how many passages these make (default: one per match)."""
        self.setPlainText(text)
        self.current_span = None
        selections: list[QTextEdit.ExtraSelection] = []
        muted_format = QTextCharFormat()
        muted_format.setForeground(colours.muted_foreground(self.palette()))
        muted_format.setBackground(colours.muted_background(self.palette()))
        muted_format.setFontItalic(True)
        for span in muted:
            selections.append(self._selection(span, muted_format))
        for span, colour in edited:
            # the edited words: the lighter shade, and a dotted underline so that they stand
            # out from the identical text even where the shade is faint (small or bright screens)
            fmt = QTextCharFormat()
            fmt.setBackground(colour)
            fmt.setForeground(colours.text(self.palette()))
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
            fmt.setUnderlineColor(colours.mix(colour, colours.text(self.palette()), 0.6))
            selections.append(self._selection(span, fmt))
        for span, colour in matches:
            fmt = QTextCharFormat()
            fmt.setBackground(colour)
            fmt.setForeground(colours.text(self.palette()))
            selections.append(self._selection(span, fmt))
        self.setExtraSelections(selections)
        self.match_count = len(matches) if passages is None else passages

    def _selection(self, span: CharSpan, fmt: QTextCharFormat) -> QTextEdit.ExtraSelection:
        selection = QTextEdit.ExtraSelection()
        cursor = QTextCursor(self.document())
        n = self.document().characterCount() - 1
        cursor.setPosition(min(max(span[0], 0), n))
        cursor.setPosition(min(max(span[1], 0), n), QTextCursor.MoveMode.KeepAnchor)
        selection.cursor = cursor
        selection.format = fmt
        selection.format.setProperty(QTextFormat.Property.FullWidthSelection, False)
        return selection

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            steps = event.angleDelta().y() // 120
            if steps:
                self.zoom_requested.emit(int(steps))
            event.accept()
            return
        super().wheelEvent(event)

    def centre_position(self) -> int:
        """The character position at the middle of the visible area."""
        return self.cursorForPosition(QPoint(4, self.viewport().height() // 2)).position()

    def visible_fraction(self) -> tuple[float, float]:
        n = max(1, self.document().characterCount())
        top = self.cursorForPosition(QPoint(0, 0)).position()
        bottom = self.cursorForPosition(QPoint(self.viewport().width() - 1, self.viewport().height() - 1)).position()
        return top / n, bottom / n

    def scroll_to_position(self, pos: int, at: float = 0.5) -> None:
        """Scroll so that character ``pos`` sits at height ``at`` (0 top, 1 bottom) of the view.

        The scroll bar of a plain text edit counts lines, and lines of blocks not laid out yet
        are only estimated, so measure where the position landed and correct a few times.
        """
        doc = self.document()
        cursor = QTextCursor(doc)
        cursor.setPosition(min(max(pos, 0), max(0, doc.characterCount() - 1)))
        spacing = max(1, self.fontMetrics().lineSpacing())
        bar = self.verticalScrollBar()
        middle = int(self.viewport().height() * at)
        for _ in range(6):
            offset = self.cursorRect(cursor).center().y() - middle
            lines = int(offset / spacing)
            if lines == 0:
                break
            target = max(bar.minimum(), min(bar.maximum(), bar.value() + lines))
            if target == bar.value():
                break
            bar.setValue(target)

    def show_current(self, span: CharSpan, colour: QColor) -> None:
        """Mark ``span`` as the passage shown: the text cursor at its start (no selection) and a
        bar of ``colour`` beside its lines."""
        cursor = QTextCursor(self.document())
        cursor.setPosition(min(max(span[0], 0), self.document().characterCount() - 1))
        self.setTextCursor(cursor)
        self.current_span = span
        self.current_colour = colour
        self.margin_area.update()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._place_margin()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # (zoom: the numbers' room follows the text's size)
            self.setViewportMargins(self.margin(), 0, 0, 0)
            self._place_margin()

    def _place_margin(self) -> None:
        rect = self.contentsRect()
        self.margin_area.setGeometry(QRect(rect.left(), rect.top(), self.margin(), rect.height()))

    def _margin_follows(self, rect: QRect, dy: int) -> None:
        if dy:
            self.margin_area.scroll(0, dy)
        else:
            self.margin_area.update(0, rect.y(), self.margin_area.width(), rect.height())

    def paint_margin(self, painter: QPainter) -> None:
        """The bar beside the passage shown, and the numbers of the passages starting in view."""
        n = self.document().characterCount() - 1
        if self.current_span is not None:
            first, last = QTextCursor(self.document()), QTextCursor(self.document())
            first.setPosition(min(max(self.current_span[0], 0), n))
            last.setPosition(min(max(self.current_span[1] - 1, 0), n))
            top, bottom = self.cursorRect(first).top(), self.cursorRect(last).bottom()
            if bottom >= 0 and top <= self.viewport().height():
                painter.fillRect(QRect(1, top, BAR_PX, max(2, bottom - top)), self.current_colour)
        top_pos = self.cursorForPosition(QPoint(0, 0)).position()
        bottom_pos = self.cursorForPosition(QPoint(self.viewport().width() - 1, self.viewport().height() - 1)).position()
        font = QFont(self.font())
        font.setBold(True)
        painter.setFont(font)
        text_colour = colours.text(self.palette())
        cursor = QTextCursor(self.document())
        for start, number, colour in self._numbers[bisect.bisect_left(self._starts, top_pos):]:
            if start > bottom_pos:
                break
            cursor.setPosition(min(max(start, 0), n))
            rect = self.cursorRect(cursor)
            # the number on its passage's shade, in the text colour (which reads on every shade)
            box = QRect(BAR_PX + 2, rect.top(), self.margin() - BAR_PX - 4, rect.height())
            painter.fillRect(box, colour)
            painter.setPen(text_colour)
            painter.drawText(box.adjusted(0, 0, -2, 0), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                             str(number))


class _Margin(QWidget):
    """The strip left of a text pane where its passages' numbers and the bar are drawn."""

    def __init__(self, pane: TextPane) -> None:
        super().__init__(pane)
        self.pane = pane

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.fillRect(event.rect(), self.pane.palette().color(QPalette.ColorRole.Base))
        self.pane.paint_margin(painter)
        painter.end()


class DiffView(QDialog):
    """Two texts side by side with their matched passages; opened from any result."""

    # the examiner marks the selected text as template (the window stores it)
    mark_template_requested = Signal(str)

    def __init__(self, diff: DiffInput, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("diffView")
        self.setWindowFlag(Qt.WindowType.WindowMaximizeButtonHint, True)
        self.setSizeGripEnabled(True)
        self.diff = diff
        # one entry per edited passage: the list, next/previous and the counts all go by these
        self.matches: tuple[Passage, ...] = diff.comparison.shown_passages()
        runs = [r for p in self.matches for r in p.runs] or list(diff.comparison.spans)
        self.alignment = Alignment(runs, len(diff.text_a), len(diff.text_b))
        self.current_match = -1
        self._syncing = False
        self.zoom = 0  # points added to the text size of BOTH panes

        self.header = QLabel()
        self.header.setObjectName("diffHeader")
        font = self.header.font()  # (the figures a little larger than the text, in the text's own units)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.header.setFont(font)
        self.header.setWordWrap(True)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title_a = ElidedLabel()
        self.title_b = ElidedLabel()
        for label in (self.title_a, self.title_b):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setObjectName("paneTitle")

        self.previous_button = QPushButton()
        self.next_button = QPushButton()
        self.position_label = QLabel()
        self.sync_box = QCheckBox()
        self.sync_box.setChecked(True)
        self.open_a_button = QPushButton()
        self.open_b_button = QPushButton()
        self.previous_button.clicked.connect(self.previous_match)
        self.next_button.clicked.connect(self.next_match)
        self.open_a_button.clicked.connect(lambda: self.open_original(self.diff.path_a))
        self.open_b_button.clicked.connect(lambda: self.open_original(self.diff.path_b))
        self.open_a_button.setEnabled(bool(diff.path_a) and Path(diff.path_a).exists())
        self.open_b_button.setEnabled(bool(diff.path_b) and Path(diff.path_b).exists())

        self.passages = QListWidget()
        self.passages.setItemDelegate(ColourKeepingDelegate(self.passages))
        self.passages.setObjectName("passageList")
        self.passages.setWordWrap(True)
        self.passages.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.passages.setMinimumWidth(self.passages.fontMetrics().averageCharWidth() * 16)
        self.passages.currentRowChanged.connect(self._passage_chosen)
        self.pane_a = TextPane()
        self.pane_b = TextPane()
        self.pane_a.setObjectName("paneA")
        self.pane_b.setObjectName("paneB")
        self.overview_a = OverviewBar()
        self.overview_b = OverviewBar()
        self.overview_a.jump_requested.connect(lambda f: self._jump_fraction(self.pane_a, f))
        self.overview_b.jump_requested.connect(lambda f: self._jump_fraction(self.pane_b, f))
        self.zoom_out_button = QToolButton()
        self.zoom_in_button = QToolButton()
        self.zoom_out_button.setText("−")
        self.zoom_in_button.setText("+")
        self.zoom_out_button.clicked.connect(lambda: self.zoom_by(-1))
        self.zoom_in_button.clicked.connect(lambda: self.zoom_by(1))
        for pane in (self.pane_a, self.pane_b):
            pane.zoom_requested.connect(self.zoom_by)

        self._add_shortcuts()
        self._lay_out()

        self._fill()
        for pane in (self.pane_a, self.pane_b):  # a selection can be marked as template
            pane.selectionChanged.connect(self._selection_changed)
        self.pane_a.verticalScrollBar().valueChanged.connect(lambda _v: self._pane_scrolled(self.pane_a))
        self.pane_b.verticalScrollBar().valueChanged.connect(lambda _v: self._pane_scrolled(self.pane_b))
        self.retranslate_ui()
        self.resize(1400, 860)

    def _add_shortcuts(self) -> None:
        """F3 / Shift+F3 as in find-next, Ctrl+Down / Ctrl+Up; the zoom keys of both panes."""
        for keys, slot in (
            ((QKeySequence(Qt.Key.Key_F3), QKeySequence("Ctrl+Down")), self.next_match),
            ((QKeySequence("Shift+F3"), QKeySequence("Ctrl+Up")), self.previous_match),
            ((QKeySequence(QKeySequence.StandardKey.ZoomIn), QKeySequence("Ctrl+=")), lambda: self.zoom_by(1)),
            ((QKeySequence(QKeySequence.StandardKey.ZoomOut),), lambda: self.zoom_by(-1)),
            ((QKeySequence("Ctrl+0"),), lambda: self.zoom_by(-self.zoom)),
        ):
            for key in keys:
                shortcut = QShortcut(key, self)
                shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
                shortcut.activated.connect(slot)

    def _lay_out(self) -> None:
        """The header, the navigation row, and the passage list beside the two panes with their overview bars."""
        nav = FlowLayout()
        nav.add(self.previous_button)
        nav.add(self.next_button)
        nav.add(self.position_label, stretch=True)
        self.mark_template_button = QPushButton()
        self.mark_template_button.setObjectName("markTemplate")
        self.mark_template_button.clicked.connect(self._mark_selection)
        self.mark_template_button.setEnabled(False)
        for w in (self.zoom_out_button, self.zoom_in_button, self.sync_box, self.open_a_button, self.open_b_button,
                  self.mark_template_button):
            nav.add(w)

        def column(title: QLabel, pane: TextPane, bar: OverviewBar, bar_left: bool) -> QWidget:
            box = QWidget()
            v = QVBoxLayout(box)
            v.setContentsMargins(0, 0, 0, 0)
            v.addWidget(title)
            h = QHBoxLayout()
            h.setSpacing(2)
            if bar_left:
                h.addWidget(bar)
            h.addWidget(pane, 1)
            if not bar_left:
                h.addWidget(bar)
            v.addLayout(h, 1)
            return box

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.passages)
        splitter.addWidget(column(self.title_a, self.pane_a, self.overview_a, False))
        splitter.addWidget(column(self.title_b, self.pane_b, self.overview_b, True))
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 3)
        splitter.setStretchFactor(2, 3)
        splitter.setSizes([260, 600, 600])

        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addLayout(nav)
        layout.addWidget(splitter, 1)

    # -- content ---------------------------------------------------------------------------------

    @property
    def spans(self) -> tuple[Passage, ...]:
        """The matched passages in text order (``.a`` / ``.b`` spans, as match spans have)."""
        return self.matches

    def _fill(self) -> None:
        c = self.diff.comparison
        n = len(self.matches)
        exact_a, edited_a = passage_marks(self.matches, "a")
        exact_b, edited_b = passage_marks(self.matches, "b")
        muted_a = list(c.template_a) + list(c.excluded_a)
        muted_b = list(c.template_b) + list(c.excluded_b)
        self.pane_a.show_text(self.diff.text_a, exact_a, muted_a, edited_a, n)
        self.pane_b.show_text(self.diff.text_b, exact_b, muted_b, edited_b, n)
        self.overview_a.set_content(len(self.diff.text_a), [(p.a, passage_shades(i)[0]) for i, p in enumerate(self.matches)], muted_a)
        self.overview_b.set_content(len(self.diff.text_b), [(p.b, passage_shades(i)[0]) for i, p in enumerate(self.matches)], muted_b)
        # every passage numbered on both sides, in A's order: one moved in B keeps its number there
        shades = [passage_shades(i, self.palette())[0] for i in range(n)]
        self.pane_a.set_numbers([(p.a, i + 1, shades[i]) for i, p in enumerate(self.matches)])
        self.pane_b.set_numbers([(p.b, i + 1, shades[i]) for i, p in enumerate(self.matches)])

    def _fill_passages(self) -> None:
        current = self.passages.currentRow()
        self.passages.blockSignals(True)
        self.passages.clear()
        for i, passage in enumerate(self.matches):
            snippet = " ".join(self.diff.text_a[passage.a[0]:passage.a[1]].split())
            if len(snippet) > 48:
                snippet = snippet[:47] + "…"
            if passage.matched_units < max(passage.units_a, passage.units_b):
                # (how much each side covers: a passage identical in A may hold more words in B)
                label = self.tr("{n}. A {units_a} units, B {units_b}; {identical} identical: {snippet}").format(
                    n=i + 1, units_a=passage.units_a, units_b=passage.units_b, identical=passage.matched_units,
                    snippet=snippet)
            else:
                label = self.tr("{n}. {units} units, identical: {snippet}").format(
                    n=i + 1, units=passage.units_a, snippet=snippet)
            # where it is in B: a passage of A found elsewhere in B (moved) says so
            place = percent_place(passage.b[0], len(self.diff.text_b))
            if passage.moved:
                label += " " + self.tr("(moved: in B at {place})").format(place=place)
            else:
                label += " " + self.tr("(in B at {place})").format(place=place)
            item = QListWidgetItem(label)
            item.setBackground(passage_shades(i)[0])
            item.setForeground(colours.text(self.palette()))
            item.setToolTip(" ".join(self.diff.text_a[passage.a[0]:passage.a[1]].split())[:600])
            self.passages.addItem(item)
        self.passages.setCurrentRow(current)
        self.passages.blockSignals(False)

    def zoom_by(self, steps: int) -> None:
        """Make the text of both panes larger (steps > 0) or smaller; they always stay the same size."""
        zoom = min(max(self.zoom + steps, ZOOM_RANGE[0]), ZOOM_RANGE[1])
        self.zoom = zoom
        base = self.font().pointSizeF()
        for pane in (self.pane_a, self.pane_b):
            font = QFont(pane.font())
            font.setPointSizeF(max(4.0, base + zoom))
            pane.setFont(font)
        if self.current_match >= 0:
            self.go_to_match(self.current_match)

    def highlight_counts(self) -> tuple[int, int]:
        """The number of highlighted matched passages in pane A and pane B."""
        return self.pane_a.match_count, self.pane_b.match_count

    # -- navigation -----------------------------------------------------------------------------

    def go_to_match(self, index: int) -> None:
        """Show match ``index`` in both panes (a bar beside it, its colours uncovered) and bring it
        a quarter down both."""
        if not self.matches:
            return
        index = index % len(self.matches)
        self.current_match = index
        span = self.matches[index]
        self._syncing = True
        try:
            marker = colours.match_marker(index, self.palette())
            self.pane_a.show_current(span.a, marker)
            self.pane_b.show_current(span.b, marker)
            # a quarter down, so that a long passage shows as much of itself as fits
            self.pane_a.scroll_to_position(span.a[0], 0.25)
            self.pane_b.scroll_to_position(span.b[0], 0.25)
        finally:
            self._syncing = False
        self._update_overview_views()
        self.passages.blockSignals(True)
        self.passages.setCurrentRow(index)
        self.passages.blockSignals(False)
        self._update_position_label()

    def next_match(self) -> None:
        self.go_to_match(self.current_match + 1 if self.current_match >= 0 else 0)

    def previous_match(self) -> None:
        self.go_to_match(self.current_match - 1 if self.current_match >= 0 else len(self.matches) - 1)

    def _passage_chosen(self, row: int) -> None:
        if row >= 0:
            self.go_to_match(row)

    def _jump_fraction(self, pane: TextPane, fraction: float) -> None:
        pane.scroll_to_position(int(fraction * max(0, pane.document().characterCount() - 1)))

    def _pane_scrolled(self, pane: TextPane) -> None:
        self._update_overview_views()
        if self._syncing or not self.sync_box.isChecked():
            return
        self._syncing = True
        try:
            pos = pane.centre_position()
            if pane is self.pane_a:
                self.pane_b.scroll_to_position(self.alignment.a_to_b(pos))
            else:
                self.pane_a.scroll_to_position(self.alignment.b_to_a(pos))
        finally:
            self._syncing = False
        self._update_overview_views()

    def _update_overview_views(self) -> None:
        self.overview_a.set_view(*self.pane_a.visible_fraction())
        self.overview_b.set_view(*self.pane_b.visible_fraction())

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._update_overview_views()

    def open_original(self, path: str) -> bool:
        if not path or not Path(path).exists():
            return False
        return QDesktopServices.openUrl(QUrl.fromLocalFile(path))

    # -- language -------------------------------------------------------------------------------

    def _update_position_label(self) -> None:
        if not self.matches:
            self.position_label.setText(self.tr("No matched passages"))
        elif self.current_match < 0:
            self.position_label.setText(self.tr("{n} matched passages").format(n=len(self.matches)))
        else:
            self.position_label.setText(
                self.tr("Passage {i} of {n}").format(i=self.current_match + 1, n=len(self.matches))
            )

    def selected_text(self) -> str:
        """The text selected in the focused pane, else in either."""
        panes = sorted((self.pane_a, self.pane_b), key=lambda p: not p.hasFocus())
        for pane in panes:
            text = pane.textCursor().selectedText().replace("\u2029", "\n")
            if text.strip():
                return text
        return ""

    def _selection_changed(self) -> None:
        self.mark_template_button.setEnabled(bool(self.selected_text()))

    def _mark_selection(self) -> None:
        text = self.selected_text()
        if text:
            self.mark_template_requested.emit(text)

    def retranslate_ui(self) -> None:
        c = self.diff.comparison
        self.mark_template_button.setText(self.tr("Mark selection as template"))
        self.mark_template_button.setToolTip(
            self.tr("Never count the selected sentences in any comparison of this collection "
                    "(listed and undone in Common passages)"))
        self.setWindowTitle(self.tr("Side by side: {a} ↔ {b}").format(a=self.diff.title_a, b=self.diff.title_b))
        self.header.setText(
            self.tr(
                "<b>Similarity r {sim}</b> &nbsp;·&nbsp; A in B {ca} &nbsp;·&nbsp; B in A {cb} &nbsp;·&nbsp; "
                "identical units {common} &nbsp;·&nbsp; template share A {ta}, B {tb}"
            ).format(
                sim=percent(c.similarity), ca=percent(c.containment_a), cb=percent(c.containment_b),
                common=c.common_units, ta=percent(c.template_share_a), tb=percent(c.template_share_b),
            )
            # which exclusions applied on each side, and how many units each removed
            + "<br>" + self.tr("A: {a}<br>B: {b}").format(a=exclusions_text(c.exclusions_a),
                                                          b=exclusions_text(c.exclusions_b))
        )
        self.header.setToolTip(
            self.tr("Similarity r is the LCS ratio identical / (A + B − identical) over countable units; "
                    "A in B is the share of A found in B, counted over copied passages "
                    "(identical runs and the edited words between them, shown in a lighter shade). "
                    "Template text is not counted.")
        )
        self.title_a.setText(self.tr("A: {title}").format(title=self.diff.title_a))
        self.title_b.setText(self.tr("B: {title}").format(title=self.diff.title_b))
        self.title_a.setToolTip(self.diff.path_a)
        self.title_b.setToolTip(self.diff.path_b)
        self.previous_button.setText(self.tr("◀ Previous"))
        self.previous_button.setToolTip(self.tr("Previous matched passage (Shift+F3, Ctrl+Up)"))
        self.next_button.setText(self.tr("Next ▶"))
        self.next_button.setToolTip(self.tr("Next matched passage (F3, Ctrl+Down)"))
        self.zoom_in_button.setToolTip(self.tr("Larger text in both panes (Ctrl++, Ctrl+wheel)"))
        self.zoom_out_button.setToolTip(self.tr("Smaller text in both panes (Ctrl+−, Ctrl+wheel); Ctrl+0 resets"))
        self.zoom_in_button.setAccessibleName(self.tr("Larger text"))
        self.zoom_out_button.setAccessibleName(self.tr("Smaller text"))
        self.sync_box.setText(self.tr("Scroll together"))
        self.sync_box.setToolTip(self.tr("Keep both texts at the matching place while scrolling"))
        self.open_a_button.setText(self.tr("Open A"))
        self.open_a_button.setToolTip(self.tr("Open the original file of A in its usual application"))
        self.open_b_button.setText(self.tr("Open B"))
        self.open_b_button.setToolTip(self.tr("Open the original file of B in its usual application"))
        self.passages.setAccessibleName(self.tr("Matched passages"))
        self.passages.setToolTip(self.tr("Matched passages; choose one to show it in both texts"))
        self.pane_a.setAccessibleName(self.tr("Text A"))
        self.pane_b.setAccessibleName(self.tr("Text B"))
        self.overview_a.setToolTip(self.tr("Where the matches lie in A; click to jump"))
        self.overview_b.setToolTip(self.tr("Where the matches lie in B; click to jump"))
        self._fill_passages()
        self._update_position_label()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)
