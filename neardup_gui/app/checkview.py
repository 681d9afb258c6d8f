"""The Check tab: the sources found for each checked submission, with the CNKI-style summary."""

from __future__ import annotations

import os
from html import escape
from typing import Any, Sequence

from PySide6.QtCore import QModelIndex, QSettings, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from neardup_gui.app.flagtext import flags_line
from neardup_gui.app.appsettings import load_check_minimum, save_check_minimum
from neardup_gui.app.commonview import exclusions_text
from neardup_gui.app.examiner import whose_html
from neardup_gui.app.flowlayout import FlowLayout
from neardup_gui.app.models import FilterProxy, SourcesModel, localise_reason, percent, source_score, warnings_text
from neardup_gui.app.widgets import make_table
from neardup_gui.core.results import CheckResult, SourceMatch


# The tab's height, in lines of its text, from which the line on what the figures mean is shown.
ROOMY_LINES = 26


class CheckView(QWidget):
    """A submission chooser, its summary, a live minimum-score filter and the table of sources."""

    check_requested = Signal()  # "Check files…"
    add_requested = Signal()  # "Add to collection"
    report_requested = Signal(object)  # CheckResult: the committee's report of this submission
    source_activated = Signal(object, object)  # CheckResult, SourceMatch: open side by side

    def __init__(self, store: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("checkTab")
        self.store = store
        self.results: list[CheckResult] = []
        self.submission_label = QLabel()
        self.submission_combo = QComboBox()
        self.submission_combo.setObjectName("submissionCombo")
        self.submission_combo.setMinimumContentsLength(16)
        self.submission_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.submission_combo.currentIndexChanged.connect(self.show_current)
        self.submission_label.setBuddy(self.submission_combo)
        self.check_here_button = QPushButton()
        self.check_here_button.clicked.connect(self.check_requested)
        self.add_button = QPushButton()
        self.add_button.setObjectName("addToCollectionButton")
        self.add_button.clicked.connect(self.add_requested)
        self.report_button = QPushButton()
        self.report_button.setObjectName("committeeReportButton")
        self.report_button.clicked.connect(
            lambda: self.report_requested.emit(self.current_result()) if self.current_result() else None)
        self.summary_label = QLabel()
        self.summary_label.setObjectName("checkSummary")
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Sources the "show sources from" filter hides: how many, and how to see them.
        self.hidden_label = QLabel()
        self.hidden_label.setObjectName("hiddenSources")
        self.hidden_label.setWordWrap(True)
        # What the figures mean, in words (the same for every submission).
        self.meaning_label = QLabel()
        self.meaning_label.setObjectName("figuresMeaning")
        self.meaning_label.setWordWrap(True)
        self.updating = False
        # Every source holding a passage of at least the minimum run is listed; hiding the weak
        # ones below a percentage is the examiner's option, off at first, and what it hides is said.
        self.hide_box = QCheckBox()
        self.hide_box.setObjectName("hideSourcesBelow")
        self.threshold_spin = QSpinBox()
        self.threshold_spin.setObjectName("hideSourcesPercent")
        self.threshold_spin.setRange(1, 100)
        self.threshold_spin.setSuffix(" %")
        self.threshold_spin.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.threshold_spin.valueChanged.connect(self._threshold_changed)
        self.hide_box.toggled.connect(self._hide_toggled)
        self.sources_model = SourcesModel(self)
        self.sources_proxy = FilterProxy(score=source_score, parent=self)
        self.sources_proxy.setSourceModel(self.sources_model)
        self.sources_view = make_table(self.sources_proxy, "sourcesView")
        self.sources_view.sortByColumn(2, Qt.SortOrder.DescendingOrder)
        self.sources_view.activated.connect(self._activated)
        # (a few rows at least; with a large text on a small screen the summary above keeps its lines)
        self.sources_view.setMinimumHeight(self.sources_view.fontMetrics().height() * 4)
        self.empty_hint = QLabel()
        self.empty_hint.setObjectName("emptyHint")
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout = QVBoxLayout(self)
        row = FlowLayout()
        row.add(self.submission_label)
        row.add(self.submission_combo, stretch=True)
        row.add(self.check_here_button)
        row.add(self.add_button)
        row.add(self.report_button)
        layout.addLayout(row)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.meaning_label)
        trow = QHBoxLayout()
        trow.addWidget(self.hide_box)
        trow.addWidget(self.threshold_spin)
        trow.addWidget(self.hidden_label, 1)
        trow.addStretch(0)
        layout.addLayout(trow)
        layout.addWidget(self.empty_hint)
        layout.addWidget(self.sources_view, 1)
        hide, minimum = load_check_minimum(self.store)
        for w in (self.hide_box, self.threshold_spin):
            w.blockSignals(True)
        self.threshold_spin.setValue(minimum)
        self.hide_box.setChecked(hide)
        for w in (self.hide_box, self.threshold_spin):
            w.blockSignals(False)
        self.threshold_spin.setEnabled(hide)
        self.sources_proxy.set_minimum(minimum / 100.0 if hide else 0.0)
        self.retranslate_ui()

    # -- results -----------------------------------------------------------------------------------

    def set_results(self, results: Sequence[CheckResult]) -> None:
        self.results = list(results)
        self.submission_combo.blockSignals(True)
        self.submission_combo.clear()
        for r in self.results:
            self.submission_combo.addItem(os.path.basename(r.path), r.path)
        self.submission_combo.blockSignals(False)
        self.submission_combo.setCurrentIndex(0 if self.results else -1)
        self.show_current()

    def current_result(self) -> CheckResult | None:
        i = self.submission_combo.currentIndex()
        return self.results[i] if 0 <= i < len(self.results) else None

    def visible_sources(self) -> list[SourceMatch]:
        """The sources the table shows now, in its order."""
        return [self.sources_proxy.record_at(self.sources_proxy.index(r, 0)) for r in range(self.sources_proxy.rowCount())]

    def show_current(self, *_args: Any) -> None:
        result = self.current_result()
        has = result is not None
        self.empty_hint.setVisible(not has)
        self.sources_view.setVisible(has)
        self.submission_combo.setVisible(has)
        self.submission_label.setVisible(has)
        self.summary_label.setVisible(has)  # (an empty framed box said nothing)
        self._show_meaning()
        if result is None:
            self.sources_model.set_records([])
            self.summary_label.setText("")
            self._update_hidden()
            return
        self.sources_model.set_records(result.matches)
        self._update_hidden()
        if result.skipped_reason:
            self.summary_label.setText(self.tr("This file could not be read: {reason}").format(
                reason=localise_reason(result.skipped_reason)))
            return
        s = result.summary
        largest = os.path.basename(s.largest_source) if s.largest_source else self.tr("none")
        self.summary_label.setText(
            self.tr("<b>Copied {copied}</b> &nbsp;·&nbsp; copied without quotations {nq} &nbsp;·&nbsp; largest "
                    "single source {largest_ratio} ({largest}) &nbsp;·&nbsp; {found}<br>Units counted: {units}; "
                    "not counted: template text {template}, excluded (quotations, bibliography) {excluded}").format(
                copied=percent(s.copied_ratio), units=s.countable_units, nq=percent(s.copied_ratio_without_quotes),
                largest_ratio=percent(s.largest_source_ratio), largest=escape(largest),
                found=self._found(len(result.matches)), template=s.template_units, excluded=s.excluded_units)
            + whose_html(result.applicants, s, {m.source.path: m.source.rel or m.source.path for m in result.matches})
            + "<br>" + exclusions_text(result.exclusions)  # which exclusions applied, how many units each removed
            + self._warnings_html(result)
            + self._flags_html(result)
        )

    def _show_meaning(self) -> None:
        """The line on what the figures mean, when there is room for it: with a large text on a
        small screen the figures themselves keep every line (the summary's tooltip and F1 say it)."""
        result = self.current_result()
        roomy = self.height() >= self.fontMetrics().lineSpacing() * ROOMY_LINES
        self.meaning_label.setVisible(result is not None and not result.skipped_reason and roomy)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._show_meaning()

    def _warnings_html(self, result: CheckResult) -> str:
        """A submission read only in part or leniently says so under its figures (intake)."""
        if not result.warnings:
            return ""
        text = warnings_text(result.warnings)
        return "<br>" + self.tr("Read with warnings: {warnings}").format(warnings=escape(text))

    def _flags_html(self, result: CheckResult) -> str:
        """The submission's integrity flags, in the warning colour of the summary."""
        if not result.flags:
            return ""
        return "<br><b>" + escape(self.tr("Integrity flags:")) + "</b> " + escape(flags_line(result.flags)) \
            + "<br>" + escape(self.tr("Compared as a reader sees the text: look-alike letters and traditional "
                                      "characters folded, invisible characters and hidden text left out of every figure."))

    def _update_hidden(self) -> None:
        """Say how many sources the option hides, that they still count, and how to see them."""
        result = self.current_result()
        total = len(result.matches) if result is not None else 0
        hidden = total - self.sources_proxy.rowCount()
        self.hidden_label.setVisible(self.hide_box.isChecked() and total > 0)
        self.hidden_label.setText(self.tr("%n of them hidden: they still count in the figures above", "", hidden)
                                  if hidden else self.tr("none hidden"))

    def _found(self, n: int) -> str:
        """"1 source found" / "3 sources found" (before: "1 sources found")."""
        return self.tr("%n source(s) found", "", n)

    def set_updating(self, on: bool) -> None:
        """While results are re-derived for changed settings, the figures shown are marked as old."""
        self.updating = on
        self.summary_label.setEnabled(not on)
        self.sources_view.setEnabled(not on)

    def _threshold_changed(self, value: int) -> None:
        if self.hide_box.isChecked():
            self.sources_proxy.set_minimum(value / 100.0)
        save_check_minimum(self.store, self.hide_box.isChecked(), value)
        self._update_hidden()

    def _hide_toggled(self, hide: bool) -> None:
        self.threshold_spin.setEnabled(hide)
        self.sources_proxy.set_minimum(self.threshold_spin.value() / 100.0 if hide else 0.0)
        save_check_minimum(self.store, hide, self.threshold_spin.value())
        self._update_hidden()

    def _activated(self, index: QModelIndex) -> None:
        match = self.sources_proxy.record_at(index)
        result = self.current_result()
        if match is not None and result is not None:
            self.source_activated.emit(result, match)

    def set_enabled_actions(self, can_check: bool, can_add: bool) -> None:
        self.check_here_button.setEnabled(can_check)
        self.add_button.setEnabled(can_add)
        self.report_button.setEnabled(can_add)

    def retranslate_ui(self) -> None:
        self.sources_view.setAccessibleName(self.tr("Sources found"))
        self.sources_view.setToolTip(self.tr("Double-click or press Enter to compare side by side"))
        self.submission_label.setText(self.tr("Submission:"))
        self.submission_combo.setAccessibleName(self.tr("Checked submission"))
        self.check_here_button.setText(self.tr("Check files…"))
        self.add_button.setText(self.tr("Add to collection"))
        self.report_button.setText(self.tr("Report for the committee…"))
        self.report_button.setToolTip(self.tr("This submission's similarity report in the interface's language: "
                                              "figures, sections, sources, the full text coloured by source"))
        self.hide_box.setText(self.tr("Hide sources below"))
        tip = self.tr("Every source holding a passage of at least the minimum match length is listed. Tick to hide "
                      "the sources whose similarity r and share of the submission are both below this value; "
                      "they still count in the figures.")
        for w in (self.hide_box, self.threshold_spin):
            w.setToolTip(tip)
        self.threshold_spin.setAccessibleName(self.tr("Hide sources below this share"))
        self.empty_hint.setText(self.tr("Drop one or more files anywhere on this window, or use “Check files…”, "
                                        "to check a submission against the collection."))
        self.add_button.setToolTip(self.tr("Make the checked submissions part of the collection: copied into its "
                                           "folder, or kept where they are as external members"))
        self.meaning_label.setText(self.tr(
            "Each figure is a share of the submission's countable text; “copied” counts every passage found in "
            "any source once. Press F1 for what each figure means."))
        self.summary_label.setToolTip(self.tr(
            "Copied: share of the countable text found in any source of the collection.\n"
            "Copied without quotations: the same, not counting text in quotation marks.\n"
            "Largest single source: share of the countable text found in the one source that holds the most.\n"
            "Countable text: every word and character of the submission except template text (the call's form, "
            "template files, page headers) and what the settings exclude (quotations, the bibliography)."))
        self.sources_model.retranslate()
        self.show_current()
