"""The Duplicates tab: verified pairs of the collection at or above the threshold, best first."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from neardup_gui.app.flowlayout import FlowLayout
from neardup_gui.app.models import FilterProxy, PairsModel, percent
from neardup_gui.app.widgets import filter_as_typed, make_table
from neardup_gui.core.collection import CONTAINMENT_CUT
from neardup_gui.core.results import Pair


class DuplicatesView(QWidget):
    """The pairs table, its filter box and a one-line summary."""

    pair_activated = Signal(int, int)  # doc_a, doc_b: open them side by side
    containment_requested = Signal()  # the examiner ranks by containment: the window computes those pairs
    decide_requested = Signal(object)  # a Pair: the examiner decides on it

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("duplicatesTab")
        self.pairs: list[Pair] = []
        self.by_containment: list[Pair] = []  # the same list ranked by containment
        self.threshold = 0.0
        self.model = PairsModel(self)
        self.proxy = FilterProxy(parent=self)
        self.proxy.setSourceModel(self.model)
        self.view = make_table(self.proxy, "pairsView", names=(1, 2), texts=(PairsModel.DECISION_COLUMN,))
        self.view.sortByColumn(0, Qt.SortOrder.DescendingOrder)
        self.view.activated.connect(self._activated)
        self.filter = QLineEdit()
        self.filter.setObjectName("pairsFilter")
        self.filter.setClearButtonEnabled(True)
        filter_as_typed(self.filter, self.proxy)
        self.summary = QLabel()
        self.summary.setObjectName("pairsSummary")
        self.order_label = QLabel()
        self.order = QComboBox()
        self.order.setObjectName("pairsOrder")
        self.order.addItems(["", ""])
        self.order.currentIndexChanged.connect(self._order_changed)
        self.order_label.setBuddy(self.order)
        self.undecided_only = QCheckBox()
        self.undecided_only.setObjectName("pairsUndecided")
        self.undecided_only.toggled.connect(lambda on: self.proxy.set_condition(
            (lambda p: p.decision is None or p.decision.changed) if on else None))
        self.decide_button = QPushButton()
        self.decide_button.setObjectName("decidePairButton")
        self.decide_button.clicked.connect(self._decide)
        # Said in place of an empty table: why there is nothing, and what to do.
        self.empty_hint = QLabel()
        self.empty_hint.setObjectName("emptyHint")
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.known = False  # the pairs of the open collection have been found
        self.summary.setWordWrap(True)
        layout = QVBoxLayout(self)
        row = FlowLayout()
        row.add(self.order_label)
        row.add(self.order)
        row.add(self.undecided_only)
        row.add(self.decide_button)
        row.add(self.filter, stretch=True)
        layout.addLayout(row)
        layout.addWidget(self.summary)
        layout.addWidget(self.empty_hint, 1)
        layout.addWidget(self.view, 1)
        self.retranslate_ui()

    def set_pairs(self, pairs: Sequence[Pair], threshold: float, known: bool = True) -> None:
        """``known``: these are the collection's pairs (not the empty list of a collection whose
        pairs are still being found)."""
        self.pairs = list(pairs)
        self.threshold = threshold
        self.known = known
        self._show()

    def set_containment_pairs(self, pairs: Sequence[Pair]) -> None:
        self.by_containment = list(pairs)
        self._show()

    def _order_changed(self, _index: int) -> None:
        self._show()
        if self.by_containment_shown():
            self.containment_requested.emit()

    def by_containment_shown(self) -> bool:
        return self.order.currentIndex() == 1

    def _show(self) -> None:
        """The pairs by similarity (at the threshold), or by containment (partial copies too)."""
        containment = self.by_containment_shown()
        self.model.set_records(self.by_containment if containment else self.pairs)
        self.view.sortByColumn(6 if containment else 0, Qt.SortOrder.DescendingOrder)
        self._update_summary()
        self._update_empty()

    def _update_empty(self) -> None:
        shown = self.by_containment if self.by_containment_shown() else self.pairs
        empty = self.known and not shown
        self.empty_hint.setVisible(empty)
        self.view.setVisible(not empty)
        if self.by_containment_shown():
            self.empty_hint.setText(self.tr(
                "No pair of documents in which at least {cut} of one is found in the other. Checking a new "
                "submission (Check files…) compares it with every document, whatever its share.").format(
                cut=percent(CONTAINMENT_CUT)))
        else:
            self.empty_hint.setText(self.tr(
                "No pair of documents reaches the similarity r threshold ({threshold}): no document of this "
                "collection is a near-copy of another. Rank by contained to list partial copies (a section "
                "copied into a longer text), or lower the threshold in Settings (Ctrl+,).").format(
                threshold=percent(self.threshold)))

    def reset(self) -> None:
        self.filter.clear()
        self.undecided_only.setChecked(False)
        self.by_containment = []
        self.set_pairs((), self.threshold, known=False)

    def current_pair(self) -> Pair | None:
        return self.proxy.record_at(self.view.currentIndex())

    def _decide(self) -> None:
        pair = self.current_pair()
        if pair is not None:
            self.decide_requested.emit(pair)

    def _activated(self, index: QModelIndex) -> None:
        pair = self.proxy.record_at(index)
        if pair is not None:
            self.pair_activated.emit(pair.a.doc_id, pair.b.doc_id)

    def _update_summary(self) -> None:
        if self.by_containment_shown():
            n = len(self.by_containment)
            text = self.tr("%n pair(s) in which at least {cut} of one document is found in the other", "", n)
            self.summary.setText(text.format(cut=percent(CONTAINMENT_CUT)))
            return
        n = len(self.pairs)
        text = self.tr("%n pair(s) with similarity r of at least {threshold}", "", n)
        self.summary.setText(text.format(threshold=percent(self.threshold)))

    def retranslate_ui(self) -> None:
        self.order_label.setText(self.tr("Rank by:"))
        self.order.setItemText(0, self.tr("similarity r"))
        self.order.setItemText(1, self.tr("contained"))
        self.order.setToolTip(self.tr("Contained lists partial copies too: a section copied into a long "
                                      "proposal has a low similarity r, but most of the copy is found in the source"))
        self.undecided_only.setText(self.tr("Undecided only"))
        self.undecided_only.setToolTip(self.tr("Pairs the examiner has not decided on yet (or decided on before a "
                                               "text changed)"))
        self.decide_button.setText(self.tr("Decide…"))
        self.decide_button.setToolTip(self.tr("Record your decision on the chosen pair: copying confirmed, permitted "
                                              "(own work, cited, common knowledge) or not relevant, with a note"))
        self.filter.setPlaceholderText(self.tr("Filter pairs…"))
        self.filter.setAccessibleName(self.tr("Filter pairs"))
        self.view.setAccessibleName(self.tr("Duplicate pairs"))
        self.view.setToolTip(self.tr("Double-click or press Enter to compare side by side"))
        self.model.retranslate()
        self._update_summary()
        self._update_empty()
