"""Walks a real window's widgets for what an examiner sees: the texts shown, and whether each fits.

Shared by the Chinese-interface test (no English word shown) and the layout tests (nothing
clipped at 1024×700 or at 200 % text size).
"""

from __future__ import annotations

import html
import re
from typing import Iterator

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMainWindow,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QTreeView,
    QWidget,
)

# Latin words that are names, not English: the product, formats, keys, the figures' letters.
ALLOWED = {
    "neardup", "pdf", "html", "csv", "json", "docx", "doc", "odt", "rtf", "txt", "md", "wps", "htm", "lcs", "sha",
    "ctrl", "shift", "esc", "enter", "alt", "del", "tab", "f1", "f3", "f5", "a", "b", "r", "gbk", "utf", "cnki",
    "readme", "ls", "dask", "qt", "word", "minhash", "simhash", "lsh", "ok", "id", "url", "tcp", "n", "x", "s",
    "ms", "kb", "mb", "gb", "v", "cjk", "jieba", "wal", "sqlite", "ini", "github", "gpl", "python", "pyside",
    "nfkc", "bit", "bits", "man", "gz", "zip", "xml", "b-bit", "english", "ca", "pem", "tls", "pdfium",
    "pdfminer",
}
# Data, not interface: file names, paths, addresses.
_DATA = re.compile(r"(\S*[/~\\]\S*|\S+\.[A-Za-z0-9]{1,5}\b|[\w-]+-\d+\S*|https?://\S+)")


def _plain(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", text or ""))


def english_words(text: str) -> list[str]:
    """The English words of ``text``: Latin words of two or more letters that are no name."""
    stripped = _DATA.sub(" ", _plain(text))
    words = re.findall(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]", stripped)
    return [w for w in words if w.lower() not in ALLOWED]


def shown_widgets(top: QWidget) -> Iterator[QWidget]:
    yield top
    for w in top.findChildren(QWidget):
        if w.isVisibleTo(top) or w.isWindow() and w.isVisible():
            yield w


def texts(top: QWidget, tooltips: bool = True) -> list[tuple[str, str]]:
    """(where, text) of every string ``top`` shows: labels, buttons, tabs, headers, menus, titles,
    placeholders, combo boxes and (``tooltips``) tooltips. Document text is data and left out."""
    out: list[tuple[str, str]] = [(f"{type(top).__name__} title", top.windowTitle())]
    if isinstance(top, QMainWindow):
        out.append(("status bar", top.statusBar().currentMessage()))
        for action in top.menuBar().actions():
            out.append(("menu", action.text()))
            menu = action.menu()
            for item in menu.actions() if menu else ():
                out += [("menu item", item.text()), ("menu tip", item.toolTip() if tooltips else "")]
    for w in shown_widgets(top):
        name = f"{type(w).__name__}#{w.objectName()}"
        if isinstance(w, QLabel):
            out.append((name, w.text()))
        elif isinstance(w, QAbstractButton):
            out.append((name, w.text()))
        elif isinstance(w, QGroupBox):
            out.append((name, w.title()))
        elif isinstance(w, QLineEdit):
            out.append((name, w.placeholderText()))
        elif isinstance(w, QComboBox):
            out += [(name, w.itemText(i)) for i in range(w.count()) if not w.itemData(i) or w.itemText(i) != str(w.itemData(i))]
        elif isinstance(w, QTabWidget):
            out += [(name, w.tabText(i)) for i in range(w.count())]
        elif isinstance(w, (QTableView, QTreeView)) and w.model() is not None:
            model = w.model()
            out += [(name + " header", str(model.headerData(c, Qt.Orientation.Horizontal) or ""))
                    for c in range(model.columnCount(QModelIndex()))]
        if isinstance(w, QTextBrowser) and w.objectName() == "helpText":
            out.append((name, w.toPlainText()))
        if tooltips:
            out.append((name + " tooltip", w.toolTip()))
        out.append((name + " accessible", w.accessibleName()))
    return [(where, t) for where, t in out if t]


def prepare(qtbot, window, collection, call, submission, forms=()) -> None:  # noqa: ANN001
    """Open ``collection``, give it the template files ``forms``, check ``submission`` and screen
    the folder ``call``: every tab then has results."""
    with qtbot.waitSignal(window.duplicates_ready, timeout=180_000):
        window.open_folder(str(collection))
    qtbot.waitUntil(lambda: not window.runner.is_busy(), timeout=60_000)
    if forms:
        with qtbot.waitSignal(window.duplicates_ready, timeout=180_000):
            window.apply_settings(window.settings.with_(template_files=tuple(forms)), window.language_setting)
    with qtbot.waitSignal(window.check_ready, timeout=180_000):
        window.check_files([str(submission)])
    with qtbot.waitSignal(window.screening_ready, timeout=180_000):
        window.screen_folder(str(call))


def visit(qtbot, window):  # noqa: ANN001
    """Yield (screen, widget) at each screen of a window with results: every tab, the submission
    view, the side by side, settings and help (the welcome view, shown for a moment, first)."""
    shown = window.stack.currentWidget()
    window.stack.setCurrentWidget(window.welcome)
    yield "welcome", window
    window.stack.setCurrentWidget(shown)
    yield "status bar", window
    for i in range(window.tabs.count()):
        window.tabs.setCurrentIndex(i)
        yield window.tabs.tabText(i), window
    row = window.screening_page.visible_rows()[0]
    with qtbot.waitSignal(window.submission_opened, timeout=60_000) as opened:
        window.open_submission(window.screening_page.current_name(), row.rel)
    view = opened.args[0]
    yield "submission view", view
    with qtbot.waitSignal(view.diff_opened, timeout=60_000) as diff:
        view.open_source(view.detail.sources[0].rank)
    yield "side by side", diff.args[0]
    diff.args[0].close()
    view.close()
    window.open_settings()
    yield "settings", window.settings_dialog
    window.settings_dialog.reject()
    window.show_help()
    yield "help", window.help_dialog
    window.help_dialog.close()
