"""Qt item models over core records: documents, duplicate pairs, sources of a checked submission."""

from __future__ import annotations

import logging
import re
from typing import Any, Callable, Generic, Sequence, TypeVar

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from neardup_gui.app.examiner import applicants_cell, applicants_tip, decision_cell, decision_icon, decision_tip
from neardup_gui.app.flagtext import flags_cell, flags_tooltip
from neardup_gui.core.results import DocumentInfo, Pair, SourceMatch

log = logging.getLogger(__name__)

T = TypeVar("T")
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
RECORD_ROLE = Qt.ItemDataRole.UserRole + 2
_Index = QModelIndex | QPersistentModelIndex


def percent(x: float) -> str:
    return f"{x * 100:.1f}%"


def _t(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


class Column(Generic[T]):
    """One column: its header (translated at display time), shown text and sort value."""

    def __init__(
        self,
        context: str,
        header: str,
        text: Callable[[T], str],
        sort: Callable[[T], Any] | None = None,
        numeric: bool = False,
        tooltip: str = "",
    ) -> None:
        self.context = context
        self.header = header
        self.text = text
        self.sort = sort or text
        self.numeric = numeric
        self.tooltip = tooltip


class RecordTableModel(QAbstractTableModel, Generic[T]):
    """A read-only table of records; each column says how to show and sort its value."""

    def __init__(self, columns: Sequence[Column[T]], parent=None) -> None:
        super().__init__(parent)
        self._columns = list(columns)
        self._rows: list[T] = []
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self._haystacks: dict[int, str] = {}

    def set_records(self, records: Sequence[T]) -> None:
        self.beginResetModel()
        self._rows = self._sorted(list(records))
        self._haystacks = {}
        self.endResetModel()

    def _sorted(self, rows: list[T]) -> list[T]:
        if self._sort is None:
            return rows
        column, order = self._sort
        key = self._columns[column].sort
        return sorted(rows, key=key, reverse=order == Qt.SortOrder.DescendingOrder)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort in Python with one key per row: a proxy would call back into Python per comparison."""
        if not 0 <= column < len(self._columns):
            return
        if self._sort == (column, order):
            # sorted so already (rows only change in set_records, which sorts them): a view's
            # sortByColumn asks twice, itself and through its header (63,503 pairs: 0.2 s each)
            return
        self._sort = (column, order)
        # A reset (not a layout change) keeps every view and proxy simply consistent.
        self.beginResetModel()
        self._rows = self._sorted(self._rows)
        self.endResetModel()

    def records(self) -> list[T]:
        return list(self._rows)

    def haystack(self, row: int) -> str:
        """Every shown text of a row, case-folded, for the filter box (kept until the rows change)."""
        record = self._rows[row]
        cached = self._haystacks.get(id(record))  # by record, so sorting keeps the cache
        if cached is None:
            cached = "\x1f".join(c.text(record) for c in self._columns).casefold()
            self._haystacks[id(record)] = cached
        return cached

    def record(self, row: int) -> T:
        return self._rows[row]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        record = self._rows[index.row()]
        column = self._columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.text(record)
        if role == SORT_ROLE:
            return column.sort(record)
        if role == RECORD_ROLE:
            return record
        if role == Qt.ItemDataRole.TextAlignmentRole and column.numeric:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(record, index.column())
        if role == Qt.ItemDataRole.DecorationRole:
            return self.decoration(record, index.column())
        return None

    def tooltip(self, record: T, column: int) -> str | None:
        return None

    def decoration(self, record: T, column: int) -> Any:
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self._columns):
            return None
        column = self._columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return _t(column.context, column.header)
        if role == Qt.ItemDataRole.ToolTipRole and column.tooltip:
            return _t(column.context, column.tooltip)
        return None

    def retranslate(self) -> None:
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, max(0, len(self._columns) - 1))
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(self._columns) - 1))


def _reason_patterns() -> list[tuple[re.Pattern[str], str]]:
    # (each message a literal translate() call, so that lupdate finds it)
    return [(re.compile(p, re.S), m) for p, m in (
        (r"^scanned PDF: no text layer$", QCoreApplication.translate("SkipReasons", "scanned PDF: no text layer")),
        (r"^legacy Word \.doc: save it as \.docx$", QCoreApplication.translate("SkipReasons", "legacy Word .doc: save it as .docx")),
        (r"^Word 6/95 document: save it as \.docx$", QCoreApplication.translate("SkipReasons", "Word 6/95 document: save it as .docx")),
        (r"^Microsoft Works document: save it as \.docx$", QCoreApplication.translate("SkipReasons", "Microsoft Works document: save it as .docx")),
        (r"^encrypted Word document: remove the password$", QCoreApplication.translate("SkipReasons", "encrypted Word document: remove the password")),
        (r"^password-protected PDF: remove the password$", QCoreApplication.translate("SkipReasons", "password-protected PDF: remove the password")),
        (r"^password-protected OpenDocument file: remove the password$", QCoreApplication.translate("SkipReasons", "password-protected OpenDocument file: remove the password")),
        (r"^encrypted PDF this program cannot open \((?P<detail>.*)\)$", QCoreApplication.translate("SkipReasons", "encrypted PDF this program cannot open ({detail})")),
        (r"^empty file \(0 bytes\)$", QCoreApplication.translate("SkipReasons", "empty file (0 bytes)")),
        (r"^file holds only white space$", QCoreApplication.translate("SkipReasons", "file holds only white space")),
        (r"^no text in this (?P<format>\w+) file$", QCoreApplication.translate("SkipReasons", "no text in this {format} file")),
        (r"^no words in the file: only punctuation, numbers of pages or symbols$",
         QCoreApplication.translate("SkipReasons", "no words in the file: only punctuation, numbers of pages or symbols")),
        (r"^file no longer exists$", QCoreApplication.translate("SkipReasons", "file no longer exists")),
        (r"^file was deleted while it was read$", QCoreApplication.translate("SkipReasons", "file was deleted while it was read")),
        (r"^file changed while it was read; try again$", QCoreApplication.translate("SkipReasons", "file changed while it was read; try again")),
        (r"^file cannot be read: permission denied$", QCoreApplication.translate("SkipReasons", "file cannot be read: permission denied")),
        (r"^file cannot be read: (?P<detail>.*)$", QCoreApplication.translate("SkipReasons", "file cannot be read: {detail}")),
        (r"^folder cannot be read: (?P<detail>.*)$", QCoreApplication.translate("SkipReasons", "folder cannot be read: {detail}")),
        (r"^no such folder$", QCoreApplication.translate("SkipReasons", "no such folder")),
        (r"^not a folder$", QCoreApplication.translate("SkipReasons", "not a folder")),
        (r"^broken symbolic link: its target does not exist$", QCoreApplication.translate("SkipReasons", "broken symbolic link: its target does not exist")),
        (r"^file is (?P<size>[\d.]+) MB, over the (?P<limit>\d+) MB limit$", QCoreApplication.translate("SkipReasons", "file is {size} MB, over the {limit} MB limit")),
        (r"^file is over the (?P<limit>\d+) MB limit$", QCoreApplication.translate("SkipReasons", "file is over the {limit} MB limit")),
        (r"^needs more than (?P<limit>\d+) MB of memory$", QCoreApplication.translate("SkipReasons", "needs more than {limit} MB of memory")),
        (r"^worker was killed, most likely out of memory$", QCoreApplication.translate("SkipReasons", "worker was killed, most likely out of memory")),
        (r"^extraction took longer than (?P<limit>[\d.]+) s$", QCoreApplication.translate("SkipReasons", "extraction took longer than {limit} s")),
        (r"^unsupported file type (?P<suffix>.*)$", QCoreApplication.translate("SkipReasons", "unsupported file type {suffix}")),
        (r"^an archive \((?P<suffix>.*)\): unpack it and check the documents inside$",
         QCoreApplication.translate("SkipReasons", "an archive ({suffix}): unpack it and check the documents inside")),
        (r"^not a document: the file holds (?P<what>.+)$",
         QCoreApplication.translate("SkipReasons", "not a document: the file holds {what}")),
        (r"^name not valid UTF-8 \(in GBK: '(?P<gbk>.*)'\): rename the file \(the index cannot keep this name\)$",
         QCoreApplication.translate("SkipReasons", "name not valid UTF-8 (in GBK: '{gbk}'): rename the file (the index cannot keep this name)")),
        (r"^name not valid UTF-8: rename the file \(the index cannot keep this name\)$",
         QCoreApplication.translate("SkipReasons", "name not valid UTF-8: rename the file (the index cannot keep this name)")),
        (r"^folder name not valid UTF-8 \(in GBK: '(?P<gbk>.*)'\): rename the folder \(the index cannot keep its documents' names\)$",
         QCoreApplication.translate("SkipReasons", "folder name not valid UTF-8 (in GBK: '{gbk}'): rename the folder (the index cannot keep its documents' names)")),
        (r"^folder name not valid UTF-8: rename the folder \(the index cannot keep its documents' names\)$",
         QCoreApplication.translate("SkipReasons", "folder name not valid UTF-8: rename the folder (the index cannot keep its documents' names)")),
        (r"^damaged Word document: (?P<detail>.*)$", QCoreApplication.translate("SkipReasons", "damaged Word document: {detail}")),
        (r"^damaged PDF: (?P<detail>.*)$", QCoreApplication.translate("SkipReasons", "damaged PDF: {detail}")),
        (r"^damaged OpenDocument text: (?P<detail>.*)$", QCoreApplication.translate("SkipReasons", "damaged OpenDocument text: {detail}")),
        (r"^damaged RTF document: (?P<detail>.*)$", QCoreApplication.translate("SkipReasons", "damaged RTF document: {detail}")),
        (r"^damaged (?P<what>[^:]+): (?P<detail>.*)$", QCoreApplication.translate("SkipReasons", "damaged {what}: {detail}")),
        (r"^file is (?P<what>.+), not (?P<expected>.+)$", QCoreApplication.translate("SkipReasons", "file is {what}, not {expected}")),
        (r"^extraction (?:failed|crashed)(?P<detail>.*)$", QCoreApplication.translate("SkipReasons", "reading the file failed{detail}")),
    )]


def localise_reason(reason: str) -> str:
    """Why a file was skipped, in the interface language (the core writes it in English; the
    details it quotes — a file's own error message — stay as they are)."""
    for pattern, template in _reason_patterns():
        match = pattern.match(reason)
        if match:
            return template.format(**match.groupdict())
    return reason


def status_text(info: DocumentInfo) -> str:
    if info.status == "indexed" and info.warnings:
        return QCoreApplication.translate("DocumentsModel", "indexed with warnings")
    if info.status == "indexed":
        return QCoreApplication.translate("DocumentsModel", "indexed")
    if info.status == "skipped":
        return QCoreApplication.translate("DocumentsModel", "skipped")
    return info.status


class DocumentsModel(RecordTableModel[DocumentInfo]):
    """Every file of the collection with its status."""

    def __init__(self, parent=None) -> None:
        c = "DocumentsModel"
        # The strings are marked for translation here and translated when shown.
        QCoreApplication.translate("DocumentsModel", "File"), QCoreApplication.translate("DocumentsModel", "Format")
        QCoreApplication.translate("DocumentsModel", "Status"), QCoreApplication.translate("DocumentsModel", "Reason")
        QCoreApplication.translate("DocumentsModel", "Units"), QCoreApplication.translate("DocumentsModel", "Template share")
        QCoreApplication.translate("DocumentsModel", "Countable units: CJK characters and words")
        QCoreApplication.translate("DocumentsModel", "Share of the document that is template text (not counted)")
        QCoreApplication.translate("DocumentsModel", "Integrity flags")
        QCoreApplication.translate("DocumentsModel", "Look-alike letters, hidden text, invisible or traditional "
                                                     "characters found in the document")
        super().__init__(
            [
                Column(c, "File", lambda d: d.rel or d.path, lambda d: (d.rel or d.path).lower()),
                Column(c, "Format", lambda d: d.format),
                Column(c, "Status", status_text),
                Column(c, "Reason", reason_text),
                Column(c, "Units", lambda d: str(d.units), lambda d: d.units, numeric=True,
                       tooltip="Countable units: CJK characters and words"),
                Column(c, "Template share", lambda d: percent(d.template_share), lambda d: d.template_share,
                       numeric=True, tooltip="Share of the document that is template text (not counted)"),
                Column(c, "Integrity flags", lambda d: flags_cell(d.flags), lambda d: len(d.flags),
                       tooltip="Look-alike letters, hidden text, invisible or traditional characters found in the document"),
                applicants_column(lambda d: d.applicants),
            ],
            parent,
        )

    REASON_COLUMN = 3
    STATUS_COLUMN = 2
    FLAGS_COLUMN = 6
    APPLICANTS_COLUMN = 7

    def tooltip(self, record: DocumentInfo, column: int) -> str | None:
        if column == self.APPLICANTS_COLUMN:
            return applicants_tip(record.applicants)
        if column == self.FLAGS_COLUMN and record.flags:
            return flags_tooltip(record.flags)
        # the Reason column's tooltip is the reason (or the warnings) in full (a long one is cut
        # in the cell); the status of a document with warnings says them too
        if column in (self.STATUS_COLUMN, self.REASON_COLUMN) and (record.reason or record.warnings):
            return reason_text(record, "\n")
        return record.path

    def decoration(self, record: DocumentInfo, column: int) -> Any:
        if column == self.STATUS_COLUMN and record.warnings:
            from PySide6.QtWidgets import QApplication, QStyle

            return QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        return None


def _warning_patterns() -> list[tuple[re.Pattern[str], str]]:
    return [
        (re.compile(r"^(?P<n>\d+) of (?P<size>\d+) bytes are not valid (?P<encoding>\S+) and were replaced by \ufffd "
                    r"\((?P<where>.*)\); the rest was read normally$", re.S),
         QCoreApplication.translate("Warnings", "{n} of {size} bytes are not valid {encoding} and were replaced by "
                                                "\ufffd ({where}); the rest was read normally")),
        (re.compile(r"^recovered from a damaged file: (?P<detail>.*)$", re.S),
         QCoreApplication.translate("Warnings", "recovered from a damaged file: {detail}")),
        (re.compile(r"^pages? (?P<pages>[\d, ]+) read by the salvage reader \(pdfminer\.six\): (?P<detail>.*)$", re.S),
         QCoreApplication.translate("Warnings", "page(s) {pages} read by the salvage reader (pdfminer.six): {detail}")),
        (re.compile(r"^read by the salvage reader \(pdfminer\.six\): (?P<detail>.*)$", re.S),
         QCoreApplication.translate("Warnings", "read by the salvage reader (pdfminer.six): {detail}")),
        (re.compile(r"^(?P<n>\d+) characters whose font is lost are left out$"),
         QCoreApplication.translate("Warnings", "{n} characters whose font is lost are left out")),
        (re.compile(r"^the glyph widths of (?P<n>\d+) fonts? are damaged: characters may be read in another order or "
                    r"left out$"),
         QCoreApplication.translate("Warnings", "the glyph widths of {n} font(s) are damaged: characters may be read in "
                                                "another order or left out")),
        (re.compile(r"^the character map of (?P<n>\d+) fonts? is damaged: some characters may be read wrongly$"),
         QCoreApplication.translate("Warnings", "the character map of {n} font(s) is damaged: some characters may be "
                                                "read wrongly")),
        (re.compile(r"^the file is cut short: (?P<n>\d+) characters of its text are missing$"),
         QCoreApplication.translate("Warnings", "the file is cut short: {n} characters of its text are missing")),
    ]


def _detail_patterns() -> list[tuple[re.Pattern[str], str | None]]:
    """What a "recovered from a damaged file" warning says was lost and what was read, phrase by
    phrase (the core joins them: "the end of the file … is lost, with its catalog; 1 page read
    from the objects that survive")."""
    def t(source: str) -> str | None:  # (None when not translated: the core's words stay)
        words = QCoreApplication.translate("Warnings", source)
        return None if words == source else words

    return [
        (re.compile(r"the end of the file \(cross-reference table and trailer\) is lost"),
         t(QT_TRANSLATE_NOOP("Warnings", "the end of the file (cross-reference table and trailer) is lost"))),
        (re.compile(r"the cross-reference table or trailer is damaged"),
         t(QT_TRANSLATE_NOOP("Warnings", "the cross-reference table or trailer is damaged"))),
        (re.compile(r", with its catalog and (?P<n>\d+) pages? \(rebuilt from their contents\)"),
         t(QT_TRANSLATE_NOOP("Warnings", ", with its catalog and {n} page(s) (rebuilt from their contents)"))),
        (re.compile(r", with its catalog"), t(QT_TRANSLATE_NOOP("Warnings", ", with its catalog"))),
        (re.compile(r"; (?P<n>\d+) pages? read from the objects that survive"),
         t(QT_TRANSLATE_NOOP("Warnings", "; {n} page(s) read from the objects that survive"))),
        (re.compile(r"the PDF is damaged after page (?P<n>\d+) \((?P<why>[^)]*)\); the pages after it are lost"),
         t(QT_TRANSLATE_NOOP("Warnings", "the PDF is damaged after page {n} ({why}); the pages after it are lost"))),
        (re.compile(r"the contents of pages? (?P<pages>.*?) are damaged; their text after the damage is lost or read "
                    r"wrongly"),
         t(QT_TRANSLATE_NOOP("Warnings", "the contents of page(s) {pages} are damaged; their text after the damage is "
                                         "lost or read wrongly"))),
        (re.compile(r"the page tree is damaged(?P<why>(?: \(\w+\))?); (?P<n>\d+) pages? found among its objects"),
         t(QT_TRANSLATE_NOOP("Warnings", "the page tree is damaged{why}; {n} page(s) found among its objects"))),
        (re.compile(r"the page tree counts (?P<count>\d+) pages; (?P<lost>\d+) of them (?:is|are) lost"),
         t(QT_TRANSLATE_NOOP("Warnings", "the page tree counts {count} pages; {lost} of them lost"))),
        (re.compile(r"its cross-reference table is damaged; (?P<n>\d+) objects? found by reading the whole file"),
         t(QT_TRANSLATE_NOOP("Warnings", "its cross-reference table is damaged; {n} object(s) found by reading the "
                                         "whole file"))),
        (re.compile(r"the name of the contents of pages? (?P<pages>.*?) is damaged; read from the stream it names"),
         t(QT_TRANSLATE_NOOP("Warnings", "the name of the contents of page(s) {pages} is damaged; read from the "
                                         "stream it names"))),
        (re.compile(r"the contents of pages? (?P<pages>.*?) lost their description and were read as the compressed "
                    r"data they hold"),
         t(QT_TRANSLATE_NOOP("Warnings", "the contents of page(s) {pages} lost their description and were read as "
                                         "the compressed data they hold"))),
        (re.compile(r"^its fonts give some glyphs no character$"),
         t(QT_TRANSLATE_NOOP("Warnings", "its fonts give some glyphs no character"))),
        (re.compile(r"^the fast reader could not read it$"),
         t(QT_TRANSLATE_NOOP("Warnings", "the fast reader could not read it"))),
        (re.compile(r"^PDFium cannot read it$"), t(QT_TRANSLATE_NOOP("Warnings", "PDFium cannot read it"))),
        (re.compile(r"^object (?P<n>\d+) is not where the cross-reference table says$"),
         t(QT_TRANSLATE_NOOP("Warnings", "object {n} is not where the cross-reference table says"))),
        (re.compile(r"^a stream does not end where its length says$"),
         t(QT_TRANSLATE_NOOP("Warnings", "a stream does not end where its length says"))),
        (re.compile(r"^the compressed data of stream (?P<n>\d+) is damaged(?P<why>.*)$"),
         t(QT_TRANSLATE_NOOP("Warnings", "the compressed data of stream {n} is damaged{why}"))),
        (re.compile(r"^the compressed data of stream (?P<n>\d+) is cut short$"),
         t(QT_TRANSLATE_NOOP("Warnings", "the compressed data of stream {n} is cut short"))),
        (re.compile(r"^the dictionary of object (?P<n>\d+) is damaged$"),
         t(QT_TRANSLATE_NOOP("Warnings", "the dictionary of object {n} is damaged"))),
        (re.compile(r"^the file's end \(startxref\) is lost$"),
         t(QT_TRANSLATE_NOOP("Warnings", "the file's end (startxref) is lost"))),
        (re.compile(r"its compound file cannot be read \((?P<why>.*?)\)(?=;|$)"),
         t(QT_TRANSLATE_NOOP("Warnings", "its compound file cannot be read ({why})"))),
        (re.compile(r"; the text was read from the Word stream that survives"),
         t(QT_TRANSLATE_NOOP("Warnings", "; the text was read from the Word stream that survives"))),
        (re.compile(r"the zip archive's directory is unreadable"), t(QT_TRANSLATE_NOOP("Warnings", "the zip archive's directory is unreadable"))),
        (re.compile(r"the zip archive's directory is damaged"), t(QT_TRANSLATE_NOOP("Warnings", "the zip archive's directory is damaged"))),
        (re.compile(r"; (?P<n>\d+) parts? read up to the damage \((?P<names>.*?)\)(?=;|$)"),
         t(QT_TRANSLATE_NOOP("Warnings", "; {n} part(s) read up to the damage ({names})"))),
        (re.compile(r"; its directory, from byte (?P<pos>\d+), is cut short or damaged"),
         t(QT_TRANSLATE_NOOP("Warnings", "; its directory, from byte {pos}, is cut short or damaged"))),
        (re.compile(r"; no part at byte (?P<pos>\d+), the next one at byte (?P<next>\d+)"),
         t(QT_TRANSLATE_NOOP("Warnings", "; no part at byte {pos}, the next one at byte {next}"))),
        (re.compile(r"; the file ends there"), t(QT_TRANSLATE_NOOP("Warnings", "; the file ends there"))),
        (re.compile(r"; cut at byte (?P<pos>\d+)"), t(QT_TRANSLATE_NOOP("Warnings", "; cut at byte {pos}"))),
        (re.compile(r"; no further part at byte (?P<pos>\d+)"),
         t(QT_TRANSLATE_NOOP("Warnings", "; no further part at byte {pos}"))),
        (re.compile(r"; (?P<name>[^;:()]+?) is cut short(?=;|$)"), t(QT_TRANSLATE_NOOP("Warnings", "; {name} is cut short"))),
        (re.compile(r"; (?P<name>[^;:()]+?): checksum mismatch"), t(QT_TRANSLATE_NOOP("Warnings", "; {name}: checksum mismatch"))),
        (re.compile(r"; (?P<name>[^;:()]+?): damaged compressed data"),
         t(QT_TRANSLATE_NOOP("Warnings", "; {name}: damaged compressed data"))),
        (re.compile(r", its text read up to the damage"), t(QT_TRANSLATE_NOOP("Warnings", ", its text read up to the damage"))),
        (re.compile(r", some of its characters may be read wrongly"),
         t(QT_TRANSLATE_NOOP("Warnings", ", some of its characters may be read wrongly"))),
        (re.compile(r"its end is lost \((?P<n>\d+) groups? left open\)"),
         t(QT_TRANSLATE_NOOP("Warnings", "its end is lost ({n} group(s) left open)"))),
        (re.compile(r"(?P<n>\d+) closing braces? too many"), t(QT_TRANSLATE_NOOP("Warnings", "{n} closing brace(s) too many"))),
        (re.compile(r"(?P<n>\d+) damaged characters? left out"),
         t(QT_TRANSLATE_NOOP("Warnings", "{n} damaged character(s) left out"))),
        (re.compile(r"(?P<n>\d+) entr(?:y|ies) of its font, colour, style or list tables found outside them and left out"),
         t(QT_TRANSLATE_NOOP("Warnings", "{n} entries of its font, colour, style or list tables found outside them "
                                         "and left out"))),
        (re.compile(r"the file is cut short inside a tag"), t(QT_TRANSLATE_NOOP("Warnings", "the file is cut short inside a tag"))),
        (re.compile(r"(?P<n>\d+) damaged tags? left out"), t(QT_TRANSLATE_NOOP("Warnings", "{n} damaged tag(s) left out"))),
        (re.compile(r"; the text that survives was read"), t(QT_TRANSLATE_NOOP("Warnings", "; the text that survives was read"))),
        (re.compile(r"headers and footers left out \((?P<why>.*?)\)(?=;|$)"),
         t(QT_TRANSLATE_NOOP("Warnings", "headers and footers left out ({why})"))),
        (re.compile(r"^(?P<part>[\w/.\[\]-]+\.xml) left out \((?P<why>.*?)\)(?=;|$)"),
         t(QT_TRANSLATE_NOOP("Warnings", "{part} left out ({why})"))),
    ]


_PATTERNS: dict[tuple[str, str], tuple[list, list]] = {}  # the language (its words for two phrases) → patterns


def _patterns() -> tuple[list[tuple[re.Pattern[str], str]], list[tuple[re.Pattern[str], str | None]]]:
    """The warning and detail patterns of the interface language, built once per language: a
    table of damaged files' warnings asks for them once a cell, on the GUI thread."""
    language = (QCoreApplication.translate("Warnings", "recovered from a damaged file: {detail}"),
                QCoreApplication.translate("Warnings", "; "))
    if language not in _PATTERNS:
        _PATTERNS[language] = (_warning_patterns(), _detail_patterns())
    return _PATTERNS[language]


def localise_warning(warning: str) -> str:
    """A document's warning in the interface language (the details — byte offsets, part names,
    the file's own error message — stay as the core wrote them; a damaged file's account of what
    was lost and read is translated phrase by phrase)."""
    warning_patterns, detail_patterns = _patterns()
    for pattern, template in warning_patterns:
        match = pattern.match(warning)
        if match:
            groups = match.groupdict()
            if "detail" in groups:
                for phrase, words in detail_patterns:
                    if words is not None:  # (None: not translated, the core's words stay)
                        groups["detail"] = phrase.sub(lambda m, w=words: w.format(**m.groupdict()), groups["detail"])
                # (the phrases left between them: the language's separator, as between warnings)
                groups["detail"] = groups["detail"].replace("; ", QCoreApplication.translate("Warnings", "; "))
            return template.format(**groups)
    return warning


def warnings_text(warnings: Sequence[str], separator: str | None = None) -> str:
    """A document's warnings in the interface language, one after another ("; " in English, "；"
    in Chinese, unless ``separator`` is given)."""
    if separator is None:
        # (the list separator between warnings; a translation gives its own punctuation)
        separator = QCoreApplication.translate("Warnings", "; ")
    return separator.join(localise_warning(w) for w in warnings)


def reason_text(info: DocumentInfo, separator: str | None = None) -> str:
    """Why a document was skipped, or what its warnings say, in the interface language."""
    if info.status == "skipped":
        return localise_reason(info.reason) if info.reason else ""
    return warnings_text(info.warnings, separator)


class PairsModel(RecordTableModel[Pair]):
    """Near-duplicate pairs, ranked by similarity r (the figures' names: docs/glossary.md)."""

    def __init__(self, parent=None) -> None:
        c = "PairsModel"
        QCoreApplication.translate("PairsModel", "Document A"), QCoreApplication.translate("PairsModel", "Document B")
        QCoreApplication.translate("PairsModel", "Similarity r"), QCoreApplication.translate("PairsModel", "A in B")
        QCoreApplication.translate("PairsModel", "B in A"), QCoreApplication.translate("PairsModel", "Identical units")
        QCoreApplication.translate("PairsModel", "Share of A's countable units found in B")
        QCoreApplication.translate("PairsModel", "Share of B's countable units found in A")
        QCoreApplication.translate("PairsModel", "LCS ratio of the two texts, template text left out")
        QCoreApplication.translate("PairsModel", "Units in the identical runs the two texts share")
        QCoreApplication.translate("PairsModel", "Contained")
        QCoreApplication.translate("PairsModel", "The larger of A in B and B in A: how much of one is found in the other")
        super().__init__(
            [
                Column(c, "Similarity r", lambda p: percent(p.similarity), lambda p: p.similarity, numeric=True,
                       tooltip="LCS ratio of the two texts, template text left out"),
                Column(c, "Document A", lambda p: p.a.rel or p.a.path, lambda p: (p.a.rel or p.a.path).lower()),
                Column(c, "Document B", lambda p: p.b.rel or p.b.path, lambda p: (p.b.rel or p.b.path).lower()),
                Column(c, "A in B", lambda p: percent(p.containment_a), lambda p: p.containment_a, numeric=True,
                       tooltip="Share of A's countable units found in B"),
                Column(c, "B in A", lambda p: percent(p.containment_b), lambda p: p.containment_b, numeric=True,
                       tooltip="Share of B's countable units found in A"),
                Column(c, "Identical units", lambda p: str(p.common_units), lambda p: p.common_units, numeric=True,
                       tooltip="Units in the identical runs the two texts share"),
                Column(c, "Contained", lambda p: percent(max(p.containment_a, p.containment_b)),
                       lambda p: max(p.containment_a, p.containment_b), numeric=True,
                       tooltip="The larger of A in B and B in A: how much of one is found in the other"),
                same_applicant_column(lambda p: p.same_applicant),
                decision_column(lambda p: decision_cell(p.decision)),
            ],
            parent,
        )

    SAME_APPLICANT_COLUMN = 7
    DECISION_COLUMN = 8

    def tooltip(self, record: Pair, column: int) -> str | None:
        if column == self.DECISION_COLUMN:
            return decision_tip(record.decision)
        if column == self.SAME_APPLICANT_COLUMN:
            return f"A: {applicants_cell(record.a.applicants) or '-'}\nB: {applicants_cell(record.b.applicants) or '-'}"
        return f"{record.a.path}\n{record.b.path}"

    def decoration(self, record: Pair, column: int) -> Any:
        return decision_icon(record.decision) if column == self.DECISION_COLUMN else None


def source_score(match: SourceMatch) -> float:
    """What the check tab's optional filter compares: the larger of similarity r and the share of
    the submission."""
    return max(match.comparison.similarity, match.comparison.containment_a)


def _credited(m: SourceMatch) -> float:
    return m.credit.share if m.credit is not None else m.comparison.containment_a


class SourcesModel(RecordTableModel[SourceMatch]):
    """The sources found for one checked submission, best first."""

    def __init__(self, parent=None) -> None:
        c = "SourcesModel"
        QCoreApplication.translate("SourcesModel", "Source"), QCoreApplication.translate("SourcesModel", "Similarity r")
        QCoreApplication.translate("SourcesModel", "Share of the submission")
        QCoreApplication.translate("SourcesModel", "Identical units")
        QCoreApplication.translate("SourcesModel", "Share of the submission found in this source")
        QCoreApplication.translate("SourcesModel", "LCS ratio of the two texts, template text left out")
        QCoreApplication.translate("SourcesModel", "Units in the identical runs the two texts share")
        QCoreApplication.translate("SourcesModel", "Credited")
        QCoreApplication.translate("SourcesModel", "Share of the submission credited to this source: a passage "
                                   "several sources hold is credited to one (the collection's, the earlier "
                                   "indexed, the one holding more)")
        super().__init__(
            [
                Column(c, "Source", lambda m: m.source.rel or m.source.path, lambda m: (m.source.rel or m.source.path).lower()),
                Column(c, "Credited", lambda m: percent(_credited(m)), _credited, numeric=True,
                       tooltip="Share of the submission credited to this source: a passage several sources hold "
                               "is credited to one (the collection's, the earlier indexed, the one holding more)"),
                Column(c, "Similarity r", lambda m: percent(m.comparison.similarity),
                       lambda m: m.comparison.similarity, numeric=True,
                       tooltip="LCS ratio of the two texts, template text left out"),
                Column(c, "Share of the submission", lambda m: percent(m.comparison.containment_a),
                       lambda m: m.comparison.containment_a, numeric=True,
                       tooltip="Share of the submission found in this source"),
                Column(c, "Identical units", lambda m: str(m.comparison.common_units),
                       lambda m: m.comparison.common_units, numeric=True,
                       tooltip="Units in the identical runs the two texts share"),
                same_applicant_column(lambda m: m.same_applicant),
                decision_column(lambda m: decision_cell(m.decision)),
            ],
            parent,
        )

    SAME_APPLICANT_COLUMN = 5
    DECISION_COLUMN = 6

    def tooltip(self, record: SourceMatch, column: int) -> str | None:
        if column == self.DECISION_COLUMN:
            return decision_tip(record.decision)
        if column == self.SAME_APPLICANT_COLUMN:
            return applicants_cell(record.source.applicants) or record.source.path
        return record.source.path

    def decoration(self, record: SourceMatch, column: int) -> Any:
        return decision_icon(record.decision) if column == self.DECISION_COLUMN else None


# The columns every list of the examiner's records shares, their words in one context.
APPLICANTS_HEADER = QT_TRANSLATE_NOOP("Examiner", "Applicants")
APPLICANTS_TIP = QT_TRANSLATE_NOOP("Examiner", "Whose document it is: named by the examiner (a CSV or “Set "
                                               "applicant…”), else by the file's own author field")
DECISION_HEADER = QT_TRANSLATE_NOOP("Examiner", "Decision")
DECISION_TIP = QT_TRANSLATE_NOOP("Examiner", "The examiner's decision: copying confirmed, permitted (own work, "
                                             "cited, common knowledge) or not relevant")
SAME_APPLICANT_HEADER = QT_TRANSLATE_NOOP("Examiner", "Same applicant")
SAME_APPLICANT_TIP = QT_TRANSLATE_NOOP("Examiner", "Both documents are one applicant's: a resubmission or a "
                                                   "duplicate submission, not copying")


def applicants_column(of: Callable[[Any], Any]) -> Column:
    """A record's applicants, with where they came from (core/applicants.py)."""
    return Column("Examiner", APPLICANTS_HEADER, lambda r: applicants_cell(of(r)),
                  lambda r: applicants_cell(of(r)).lower(), tooltip=APPLICANTS_TIP)


def same_applicant_column(same: Callable[[Any], bool]) -> Column:
    return Column("Examiner", SAME_APPLICANT_HEADER, lambda r: _t("Examiner", "own work") if same(r) else "",
                  lambda r: int(same(r)), tooltip=SAME_APPLICANT_TIP)


def decision_column(text: Callable[[Any], str], sort: Callable[[Any], Any] | None = None) -> Column:
    return Column("Examiner", DECISION_HEADER, text, sort or text, tooltip=DECISION_TIP)


class FilterProxy(QSortFilterProxyModel):
    """Filters a :class:`RecordTableModel` by text (any column) and a minimum score.

    Works on the records directly (one Python call per row), and leaves sorting to the source
    model: a proxy would call back into Python for every comparison.
    """

    def __init__(self, score: Callable[[Any], float] | None = None, parent=None) -> None:
        super().__init__(parent)
        self._score = score
        self._minimum = 0.0
        self._needle = ""
        self._accept: Callable[[Any], bool] | None = None

    def _change_filter(self, change: Callable[[], None]) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt ≥ 6.9; invalidateFilter is deprecated there
            self.beginFilterChange()
            change()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            change()
            self.invalidateFilter()

    def set_minimum(self, minimum: float) -> None:
        self._change_filter(lambda: setattr(self, "_minimum", minimum))

    def set_text(self, text: str) -> None:
        self._change_filter(lambda: setattr(self, "_needle", text.strip().casefold()))

    def set_condition(self, accept: Callable[[Any], bool] | None) -> None:
        """Keep only the records ``accept`` is true of (None: all)."""
        self._change_filter(lambda: setattr(self, "_accept", accept))

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sorting is the source model's (fast, in Python); this proxy only filters."""
        self.sourceModel().sort(column, order)

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        model = self.sourceModel()
        if self._accept is not None and not self._accept(model.record(source_row)):
            return False
        if self._score is not None and self._minimum > 0:
            if self._score(model.record(source_row)) < self._minimum - 1e-12:
                return False
        return not self._needle or self._needle in model.haystack(source_row)

    def record_at(self, index: _Index) -> Any:
        return self.mapToSource(self.index(index.row(), 0)).data(RECORD_ROLE) if index.isValid() else None
