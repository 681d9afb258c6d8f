"""A row of widgets that wraps onto the next line when the window is narrow or the text large.

Buttons and fields laid out in one row fit at 1600 px and at the usual text size; at 1024 px, or
with the desktop's text at 200 %, one row is wider than the window and would force it wider (or
clip the buttons). A flow layout (after Qt's own example) keeps each widget at its size hint and
starts a new line where the next one does not fit; a widget added with ``stretch=True`` takes the
rest of its line, as a stretch factor of a box layout would.
"""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QSizePolicy, QWidget, QWidgetItem


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = -1) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._stretch: set[int] = set()  # ids of the items that take the rest of their line
        self._spacing = spacing
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    def add(self, widget: QWidget, stretch: bool = False) -> None:
        self.addWidget(widget)
        if stretch:
            self._stretch.add(id(self._items[-1]))

    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 - Qt's name
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802
        if 0 <= index < len(self._items):
            item = self._items.pop(index)
            self._stretch.discard(id(item))
            return item
        return None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802
        return Qt.Orientation.Horizontal

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        return self._lay_out(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802
        super().setGeometry(rect)
        self._lay_out(rect, apply=True)

    def sizeHint(self) -> QSize:  # noqa: N802
        width = sum(i.sizeHint().width() for i in self._visible()) + self._gap() * max(0, len(self._visible()) - 1)
        height = max((i.sizeHint().height() for i in self._visible()), default=0)
        m = self.contentsMargins()
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QSize:  # noqa: N802
        size = QSize()
        for item in self._visible():
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _visible(self) -> list[QLayoutItem]:
        return [i for i in self._items if not (isinstance(i, QWidgetItem) and i.widget().isHidden())]

    def _gap(self) -> int:
        if self._spacing >= 0:
            return self._spacing
        parent = self.parentWidget()
        style = parent.style() if parent is not None else None
        found = style.layoutSpacing(QSizePolicy.ControlType.PushButton, QSizePolicy.ControlType.PushButton,
                                    Qt.Orientation.Horizontal) if style is not None else -1
        return max(found, 6)

    def _lay_out(self, rect: QRect, apply: bool) -> int:
        """Place the items in lines inside ``rect``; returns the height used."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        gap = self._gap()
        lines: list[list[QLayoutItem]] = [[]]
        x = 0
        for item in self._visible():
            w = item.sizeHint().width()
            if lines[-1] and x + w > area.width():
                lines.append([])
                x = 0
            lines[-1].append(item)
            x += w + gap
        y = area.y()
        for line in lines:
            if not line:
                continue
            height = max(i.sizeHint().height() for i in line)
            used = sum(i.sizeHint().width() for i in line) + gap * (len(line) - 1)
            extra = max(0, area.width() - used)
            stretchers = [i for i in line if id(i) in self._stretch]
            x = area.x()
            for item in line:
                w = item.sizeHint().width() + (extra // len(stretchers) if item in stretchers else 0)
                w = min(w, area.width())
                if apply:
                    item.setGeometry(QRect(QPoint(x, y + (height - item.sizeHint().height()) // 2),
                                           QSize(w, item.sizeHint().height())))
                x += w + gap
            y += height + gap
        return y - gap - area.y() + m.top() + m.bottom() if any(lines) else 0
