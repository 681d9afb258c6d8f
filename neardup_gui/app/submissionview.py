"""The submission view: one submission's full text with every copied passage coloured by its source.

Like Turnitin's match overview and CNKI's 全文标明引文: a numbered legend (each source's colour,
its share of the submission, whether it is in the collection or in this call), the text with each
matched passage in its source's colour and number, the per-section figures, and the headline
figures, which follow the sources the examiner counts: unticking a source recomputes them at
once, and "Exclude this source" (the applicant's own earlier proposal, say) is remembered for this
submission in the index. Clicking a passage opens it beside its source (the side-by-side view).

Styles (documented in docs/screening.md): source n has the colour the committee's report gives it
(:mod:`neardup_gui.core.palette`, derived from the palette's Base colour so a dark theme gets dark
tints under light text); the words edited inside a copied passage are a lighter shade of it; the
form's template text is grey, and excluded text (quotations, bibliography when the settings
exclude them) grey and struck through.
"""

from __future__ import annotations

import bisect
import html
import logging
from typing import Sequence

from PySide6.QtCore import QEvent, Qt, QUrl, Signal
from PySide6.QtGui import QBrush, QColor, QIcon, QPalette
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from neardup_gui.app import colours
from neardup_gui.app.columns import ColumnFit
from neardup_gui.app.diffview import DiffInput, DiffView
from neardup_gui.app.examiner import DecisionDialog, decide_on_source, decision_icon, decision_tip, source_notes, whose_html
from neardup_gui.app.models import percent
from neardup_gui.app.flagtext import flags_line
from neardup_gui.app.tasks import TaskRunner
from neardup_gui.app.widgets import ColourKeepingDelegate
from neardup_gui.core.collection import Collection
from neardup_gui.core.document import CharSpan
from neardup_gui.core.flags import INVISIBLE, TRADITIONAL, Flag
from neardup_gui.core.progress import ProgressFn
from neardup_gui.core.report.model import EDITED, EXCLUDED, MATCH, TEMPLATE, _Marks, segments
from neardup_gui.core.screening import (
    COLLECTION, ScreenedSource, SubmissionDetail, coloured_runs, set_source_excluded, source_text,
    submission_detail,
)
from neardup_gui.core.sections import find_sections, section_figures
from neardup_gui.core.settings import Settings

log = logging.getLogger(__name__)

# --- the work (run in the task runner) ---------------------------------------------------------


def load_submission(db_path: str, name: str, rel: str, progress: ProgressFn) -> SubmissionDetail:
    """A submission of a screening with its text and sources (tokenized here, not on the GUI thread)."""
    progress(0.0, "")
    with Collection.open(db_path, create=False) as coll:
        detail = submission_detail(coll.store, name, rel)
    _ = detail.units
    return detail


def source_diff(db_path: str, detail: SubmissionDetail, rank: int, progress: ProgressFn) -> DiffInput:
    """The side-by-side input of the submission (A) and its source ranked ``rank`` (B)."""
    progress(0.0, "")
    source = next(s for s in detail.sources if s.rank == rank)
    with Collection.open(db_path, create=False) as coll:
        text_b = source_text(coll.store, detail, source)
    return DiffInput(detail.text, text_b, source.comparison(detail.template, detail.excluded), detail.row.rel,
                     source.name, detail.row.path, source.path)


def exclude_source(db_path: str, name: str, rel: str, source_path: str, excluded: bool,
                   progress: ProgressFn) -> SubmissionDetail:  # (the decision "not relevant", or none)
    """Exclude a source for this submission (or count it again) and reload the submission."""
    with Collection.open(db_path, create=False) as coll:
        set_source_excluded(coll.store, name, rel, source_path, excluded)
    return load_submission(db_path, name, rel, progress)


# --- colours from the palette --------------------------------------------------------------------


def source_colour(palette: QPalette, number: int) -> QColor:
    """The background of source ``number`` (1-based): its colour in the committee's report too
    (:func:`neardup_gui.core.palette.passage_colours` of ``number - 1``)."""
    return colours.passage_shades(number - 1, palette)[0]


def submission_html(detail: SubmissionDetail, counted: Sequence[ScreenedSource], numbers: dict[int, int],
                    palette: QPalette) -> str:
    """The full text as rich text: each counted source's passages in its colour, numbered, the
    edited words inside a passage in the lighter shade of it (as the side-by-side view and the
    report show them), each passage a link ``passage:<rank>:<i>`` (its source's rank and the
    passage's index among that source's)."""
    runs, pieces = coloured_runs(counted)
    marks = _Marks([span for span, _ in runs], detail.template, detail.excluded, owners=[k for _, k in runs],
                   edited=[(span, k) for k, (span, _, _) in enumerate(pieces)])
    text_colour = palette.color(QPalette.ColorRole.Text).name()
    muted_fg, muted_bg = (c.name() for c in colours.muted_colours(palette))
    flagged = flagged_places(detail.row.flags)
    out, previous, pos = [], None, 0
    for seg in segments(detail.text, (0, len(detail.text)), (), detail.template, detail.excluded, marks=marks):
        text = _with_flags(seg.text, pos, flagged)
        pos += len(seg.text)
        if seg.kind in (MATCH, EDITED):
            _, rank, i = pieces[seg.match]
            number = numbers[rank]
            label = f"<sup><b>[{number}]</b></sup>" if previous != rank else ""
            colour = colours.passage_shades(number - 1, palette)[seg.kind == EDITED].name()
            out.append(f'{label}<a href="passage:{rank}:{i}" style="text-decoration:none; color:{text_colour};">'
                       f'<span style="background-color:{colour}; color:{text_colour};">{text}</span></a>')
            previous = rank
            continue
        if seg.text.strip():
            previous = None
        if seg.kind == TEMPLATE:
            out.append(f'<span style="color:{muted_fg}; background-color:{muted_bg};">{text}</span>')
        elif seg.kind == EXCLUDED:
            out.append(f'<span style="color:{muted_fg}; background-color:{muted_bg}; '
                       f'text-decoration:line-through;">{text}</span>')
        else:
            out.append(text)
    return "".join(out)


FLAG_COLOUR = "#d03030"  # (readable on the light and the dark palette)


def flagged_places(flags: Sequence[Flag]) -> list[CharSpan]:
    """Where the submission view underlines an integrity flag: the replaced letters, the hidden
    text, and the character before each invisible one (which has no width to underline)."""
    places: list[CharSpan] = []
    for f in flags:
        if f.kind == INVISIBLE:
            places.extend((max(a - 1, 0), a) for a, _ in f.spans)
        elif f.kind != TRADITIONAL:  # (a whole page of traditional characters is not underlined)
            places.extend(f.spans)
    return sorted(places)


def _with_flags(text: str, start: int, places: Sequence[CharSpan]) -> str:
    """``text`` (at ``start`` in the document) as HTML, its flagged places underlined."""
    out, pos = [], start
    end = start + len(text)
    i = bisect.bisect_left(places, (start, start)) - 1
    for a, b in places[max(i, 0):]:
        if a >= end:
            break
        a, b = max(a, pos), min(b, end)
        if a >= b:
            continue
        out.append(html.escape(text[pos - start:a - start]))
        out.append(f'<span style="text-decoration:underline; color:{FLAG_COLOUR};">'
                   f"{html.escape(text[a - start:b - start])}</span>")
        pos = b
    out.append(html.escape(text[pos - start:]))
    return "".join(out).replace("\n", "<br>")


# --- the view --------------------------------------------------------------------------------------


class SubmissionView(QDialog):
    """One screened submission: coloured full text, numbered legend, sections, figures."""

    exclusion_changed = Signal(str, str)  # screening name, submission rel: its row's figures changed
    diff_opened = Signal(object)  # DiffView

    def __init__(self, detail: SubmissionDetail, db_path: str, settings: Settings, runner: TaskRunner,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("submissionView")
        self.setWindowFlag(Qt.WindowType.WindowMaximizeButtonHint, True)
        self.setSizeGripEnabled(True)
        self.db_path = db_path
        self.settings = settings
        self.runner = runner
        self.detail = detail
        self.enabled: set[int] = set()
        self.diff_views: list[DiffView] = []

        self.figures = QLabel()
        self.figures.setObjectName("submissionFigures")
        self.figures.setWordWrap(True)
        self.figures.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text = QTextBrowser()
        self.text.setObjectName("submissionText")
        self.text.setOpenLinks(False)
        self.text.anchorClicked.connect(self._anchor_clicked)
        self.legend_label = QLabel()
        self.legend = QListWidget()
        self.legend.setItemDelegate(ColourKeepingDelegate(self.legend))
        self.legend.setObjectName("sourceLegend")
        self.legend.setWordWrap(True)
        self.legend.itemChanged.connect(self._item_changed)
        self.legend.itemActivated.connect(lambda item: self.open_source(item.data(Qt.ItemDataRole.UserRole)))
        self.legend.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.legend_label.setBuddy(self.legend)
        self.side_button = QPushButton()
        self.side_button.clicked.connect(lambda: self.open_source(self._current_rank()))
        self.exclude_button = QPushButton()
        self.exclude_button.setObjectName("excludeSourceButton")
        self.exclude_button.clicked.connect(self._toggle_exclusion)
        self.decide_button = QPushButton()
        self.decide_button.setObjectName("decideSourceButton")
        self.decide_button.clicked.connect(self.decide)
        self.export_button = QPushButton()
        self.export_button.setObjectName("exportSubmissionButton")
        self.export_button.clicked.connect(self.export)
        self.sections_label = QLabel()
        self.sections = QTableWidget(0, 3)
        self.sections.setObjectName("sectionsTable")
        self.sections.verticalHeader().setVisible(False)
        self.sections.verticalHeader().setDefaultSectionSize(self.sections.fontMetrics().height() + 8)
        self.sections.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.column_fit = ColumnFit(self.sections, names=(0,))
        self.key = QLabel()
        self.key.setObjectName("styleKey")
        self.key.setWordWrap(True)

        side = QWidget()
        v = QVBoxLayout(side)
        v.setContentsMargins(0, 0, 0, 0)
        v.addWidget(self.legend_label)
        v.addWidget(self.legend, 2)
        buttons = QHBoxLayout()
        buttons.addWidget(self.side_button)
        buttons.addWidget(self.exclude_button)
        buttons.addWidget(self.decide_button)
        v.addLayout(buttons)
        v.addWidget(self.sections_label)
        v.addWidget(self.sections, 1)
        v.addWidget(self.key)
        v.addWidget(self.export_button)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.text)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([860, 380])
        layout = QVBoxLayout(self)
        layout.addWidget(self.figures)
        layout.addWidget(splitter, 1)
        self.set_detail(detail)
        self.retranslate_ui()
        self.resize(1280, 860)

    # -- content ---------------------------------------------------------------------------------

    def set_detail(self, detail: SubmissionDetail) -> None:
        self.detail = detail
        self.numbers = {s.rank: i for i, s in enumerate(detail.sources, 1)}
        self.enabled = {s.rank for s in detail.sources if not s.excluded}
        self.legend.blockSignals(True)
        self.legend.clear()
        for s in detail.sources:
            item = QListWidgetItem()
            item.setData(Qt.ItemDataRole.UserRole, s.rank)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if s.rank in self.enabled else Qt.CheckState.Unchecked)
            self.legend.addItem(item)
        self.legend.blockSignals(False)
        if self.legend.count():
            self.legend.setCurrentRow(0)
        self._refresh()

    def counted(self) -> list[ScreenedSource]:
        """The sources counted, each with its credit among them (core/credit.py)."""
        return self.detail.counted(self.enabled)

    def _refresh(self) -> None:
        """Everything that follows the counted sources: text colours, legend, figures, sections."""
        palette = self.palette()
        bar = self.text.verticalScrollBar().value()
        self.text.setHtml(submission_html(self.detail, self.counted(), self.numbers, palette))
        self.text.verticalScrollBar().setValue(bar)
        text_colour = palette.color(QPalette.ColorRole.Text)
        credits = {s.rank: s.credit for s in self.counted()}
        for row in range(self.legend.count()):
            item = self.legend.item(row)
            s = self._source(item.data(Qt.ItemDataRole.UserRole))
            n = self.numbers[s.rank]
            where = self.tr("collection") if s.kind == COLLECTION else self.tr("this call")
            note = "" if not s.excluded or s.decision is not None else " · " + self.tr("excluded for this submission")
            note += source_notes(s)
            credit = credits.get(s.rank)
            if credit is None:
                share = self.tr("share of the submission {share}").format(share=percent(s.containment))
            else:
                share = self.tr("credited {share}").format(share=percent(credit.share))
            if credit is not None and credit.units and credit.share < s.containment:
                note += " · " + self.tr("holds {share} in all, part of it credited to other sources").format(
                    share=percent(s.containment))
            elif credit is not None and not credit.units and any(o.excluded and o.decision for o in self.detail.sources):
                note += " · " + self.tr("holds {share}, all of it set apart by a decision or credited to other "
                                        "sources").format(share=percent(s.containment))
            elif credit is not None and not credit.units:
                note += " · " + self.tr("holds {share}, all of it credited to other sources").format(
                    share=percent(s.containment))
            item.setText(f"[{n}] {s.name}\n{share} · {where}{note}")
            item.setToolTip(s.path + ("\n" + decision_tip(s.decision) if s.decision is not None else ""))
            item.setIcon(decision_icon(s.decision) or QIcon())
            counted = s.rank in self.enabled
            item.setBackground(QBrush(source_colour(palette, n)) if counted else QBrush())
            item.setForeground(QBrush(text_colour))
        summary = self.detail.summary(self.enabled)
        self.summary = summary
        self.figures.setText(self.tr(
            "<b>{name}</b><br><b>Copied {copied}</b> (template text not counted) &nbsp;·&nbsp; copied without "
            "quotations {nq} &nbsp;·&nbsp; largest single source {largest} &nbsp;·&nbsp; units {units} &nbsp;·&nbsp; "
            "template share {template} &nbsp;·&nbsp; sources counted: {n} of {total}").format(
            name=html.escape(self.detail.row.rel), copied=percent(summary.copied_ratio_without_template),
            nq=percent(summary.copied_ratio_without_quotes), largest=percent(summary.largest_source_ratio),
            units=self.detail.row.units, template=percent(summary.template_share), n=len(self.enabled),
            total=len(self.detail.sources))
            + whose_html(self.detail.applicants, summary, {s.path: s.name for s in self.detail.sources})
            + self._flags_html())
        secs = find_sections(self.detail.text, self.detail.template)
        # counted as the headline and the committee report count: over passages
        figs = section_figures(self.detail.units, secs, [(s.name, s.credit.spans) for s in self.counted()],
                               self.detail.template, self.detail.excluded)
        self.section_figures = figs
        self.sections.setRowCount(len(figs))
        for row, f in enumerate(figs):
            cells = [f.section.title or self.tr("(beginning)"), str(f.countable), percent(f.share)]
            for col, value in enumerate(cells):
                cell = QTableWidgetItem(value)
                if col:
                    cell.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if f.largest_source:
                    cell.setToolTip(f.largest_source)
                self.sections.setItem(row, col, cell)
        self._update_buttons()

    def _flags_html(self) -> str:
        """The submission's integrity flags under its figures (their places underlined in the text)."""
        if not self.detail.row.flags:
            return ""
        return (f'<br><span style="color:{FLAG_COLOUR};"><b>' + html.escape(self.tr("Integrity flags:")) + "</b> "
                + html.escape(flags_line(self.detail.row.flags)) + "</span> "
                + html.escape(self.tr("(underlined in the text; not counted in any figure)")))

    def _source(self, rank: int) -> ScreenedSource:
        return next(s for s in self.detail.sources if s.rank == rank)

    def _current_rank(self) -> int | None:
        item = self.legend.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def _update_buttons(self) -> None:
        rank = self._current_rank()
        self.side_button.setEnabled(rank is not None)
        self.exclude_button.setEnabled(rank is not None)
        self.decide_button.setEnabled(rank is not None)
        if rank is not None and self._source(rank).excluded:
            self.exclude_button.setText(self.tr("Count this source again"))
        else:
            self.exclude_button.setText(self.tr("Exclude this source"))

    # -- the examiner's actions ------------------------------------------------------------------

    def set_source_counted(self, rank: int, counted: bool) -> None:
        """Tick or untick a source: the figures and colours follow at once (not remembered)."""
        row = next(i for i in range(self.legend.count()) if self.legend.item(i).data(Qt.ItemDataRole.UserRole) == rank)
        self.legend.item(row).setCheckState(Qt.CheckState.Checked if counted else Qt.CheckState.Unchecked)

    def _item_changed(self, item: QListWidgetItem) -> None:
        rank = item.data(Qt.ItemDataRole.UserRole)
        if item.checkState() == Qt.CheckState.Checked:
            self.enabled.add(rank)
        else:
            self.enabled.discard(rank)
        self.legend.blockSignals(True)
        try:
            self._refresh()
        finally:
            self.legend.blockSignals(False)

    def _toggle_exclusion(self) -> None:
        rank = self._current_rank()
        if rank is None:
            return
        s = self._source(rank)
        self.exclude_button.setEnabled(False)
        self.runner.start("exclude", exclude_source, self.db_path, self.detail.screening.name, self.detail.row.rel,
                          s.path, not s.excluded, on_done=self._excluded, on_error=self._failed, owner=self)

    def decide(self) -> DecisionDialog | None:
        """Ask for the examiner's decision on the chosen source (kept under both texts' contents)."""
        rank = self._current_rank()
        if rank is None:
            return None
        s = self._source(rank)
        dialog = DecisionDialog(self.detail.row.rel, s.name, s.decision, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dialog.accepted.connect(lambda: self._decided(s.path, dialog.choice, dialog.note_text()))
        dialog.open()
        return dialog

    def _decided(self, source_path: str, choice: str | None, note: str) -> None:
        self.decide_button.setEnabled(False)
        self.runner.start("decide", decide_on_source, self.db_path, self.detail.screening.name, self.detail.row.rel,
                          source_path, choice, note, on_done=self._excluded, on_error=self._failed, owner=self)

    def _excluded(self, detail: SubmissionDetail) -> None:
        current = self._current_rank()
        self.set_detail(detail)
        if current is not None:
            for i in range(self.legend.count()):
                if self.legend.item(i).data(Qt.ItemDataRole.UserRole) == current:
                    self.legend.setCurrentRow(i)
        self.exclusion_changed.emit(detail.screening.name, detail.row.rel)

    def _anchor_clicked(self, url: QUrl) -> None:
        parts = url.toString().split(":")
        if len(parts) == 3 and parts[0] == "passage":
            self.open_source(int(parts[1]), int(parts[2]))

    def open_source(self, rank: int | None, passage: int = 0) -> None:
        """The submission beside source ``rank``, at its passage ``passage``."""
        if rank is None:
            return
        self.runner.start("diff", source_diff, self.db_path, self.detail, rank,
                          on_done=lambda diff: self._show_diff(diff, passage), on_error=self._failed, owner=self)

    def _failed(self, exc: BaseException, detail: str) -> None:
        """Said by the window, as its own tasks' failures are (before: only logged — a source
        removed from the collection since the screening opened nothing, without a word)."""
        self._update_buttons()  # (an exclusion that failed gave its button back)
        window = self.parent()
        if hasattr(window, "task_error"):
            window.task_error(exc, detail)

    def _show_diff(self, diff: DiffInput, passage: int) -> None:
        view = DiffView(diff, self)
        view.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self.diff_views.append(view)
        view.destroyed.connect(lambda _o=None, v=view: self.diff_views.remove(v) if v in self.diff_views else None)
        view.show()
        if view.spans:
            # the passage clicked: its index among the source's passages, numbered as the view
            # numbers them (both from Comparison.shown_passages)
            view.go_to_match(min(passage, len(view.spans) - 1))
        self.diff_opened.emit(view)

    def export(self) -> None:
        from neardup_gui.app.export import export_report

        export_report(self, "submission", self.db_path, self.settings, {
            "screening": self.detail.screening.name, "rel": self.detail.row.rel, "enabled": set(self.enabled),
            "path": self.detail.row.path, "folder": self.detail.screening.folder})

    def retranslate_ui(self) -> None:
        self.setWindowTitle(self.tr("{name} — sources coloured").format(name=self.detail.row.rel))
        self.legend_label.setText(self.tr("Sources (untick to leave one out of the figures):"))
        self.legend.setAccessibleName(self.tr("Sources of the submission"))
        self.side_button.setText(self.tr("Side by side"))
        self.side_button.setToolTip(self.tr("Open the submission beside the chosen source"))
        self.exclude_button.setToolTip(self.tr("Remember for this submission that this source does not count: "
                                               "the decision “not relevant”"))
        self.decide_button.setText(self.tr("Decide…"))
        self.decide_button.setToolTip(self.tr("Record your decision on this source: copying confirmed, permitted "
                                              "(own work, cited, common knowledge) or not relevant, with a note; "
                                              "printed in the report"))
        self.export_button.setText(self.tr("Export the report…"))
        self.sections_label.setText(self.tr("Sections:"))
        self.sections.setHorizontalHeaderLabels([self.tr("Section"), self.tr("Units"), self.tr("Copied")])
        self.text.setToolTip(self.tr("Click a coloured passage to see it beside its source"))
        fg, bg = (c.name() for c in colours.muted_colours(self.palette()))
        exact, edited = (c.name() for c in colours.passage_shades(0, self.palette()))
        self.key.setText(self.tr("Each source's passages have its colour and number: "
                                 "<span style=\"background-color:{exact};\">identical text</span>, "
                                 "<span style=\"background-color:{edited};\">edited words</span>. "
                                 "<span style=\"color:{fg}; background-color:{bg};\">Template text</span> and "
                                 "<span style=\"color:{fg}; background-color:{bg}; text-decoration:line-through;\">"
                                 "excluded text</span> are never counted.").format(fg=fg, bg=bg, exact=exact,
                                                                                    edited=edited))
        self._refresh()

    def changeEvent(self, event: QEvent) -> None:
        from PySide6.QtCore import QEvent

        if hasattr(self, "numbers"):  # (not while the constructor builds the dialog)
            if event.type() == QEvent.Type.LanguageChange:
                self.retranslate_ui()
            elif event.type() == QEvent.Type.PaletteChange:
                self._refresh()
        super().changeEvent(event)
