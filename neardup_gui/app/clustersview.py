"""The Clusters tab: groups of near-duplicates, each around a representative."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView, QLabel, QSplitter, QTableWidget, QTableWidgetItem, QTreeView, QVBoxLayout, QWidget,
)

from neardup_gui.app.columns import ColumnFit
from neardup_gui.app.models import RECORD_ROLE, percent
from neardup_gui.core.collection import RING_MAX_COMPARE
from neardup_gui.core.results import Cluster


class ClustersView(QWidget):
    """A tree: one row per cluster, its members below with their similarity to the representative;
    a ring (3 or more documents, every pair near-identical) is flagged, and the selected cluster's
    pairwise similarities are shown below as a matrix."""

    member_activated = Signal(int, int)  # representative doc_id, member doc_id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("clustersTab")
        self.clusters: list[Cluster] = []
        self.threshold: float | None = None
        self.model = QStandardItemModel(self)
        self.view = QTreeView()
        self.view.setObjectName("clustersView")
        self.view.setModel(self.model)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAlternatingRowColors(True)
        self.view.activated.connect(self._activated)
        self.view.selectionModel().currentChanged.connect(self._current_changed)
        self.column_fit = ColumnFit(self.view, names=(0,))
        self._filling = False
        self.pairwise_label = QLabel()
        self.pairwise_label.setObjectName("pairwiseLabel")
        self.pairwise_label.setWordWrap(True)
        self.pairwise = QTableWidget()
        self.pairwise.setObjectName("pairwiseView")
        self.pairwise.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        # Said in place of an empty tree: why there is no cluster, and what to do.
        self.empty_hint = QLabel()
        self.empty_hint.setObjectName("emptyHint")
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.known = False  # the clusters of the open collection have been found
        below = QWidget()
        b = QVBoxLayout(below)
        b.setContentsMargins(0, 0, 0, 0)
        b.addWidget(self.pairwise_label)
        b.addWidget(self.pairwise, 1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.view)
        splitter.addWidget(below)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.empty_hint, 1)
        layout.addWidget(splitter, 1)
        self.splitter = splitter
        self.retranslate_ui()

    def set_clusters(self, clusters: Sequence[Cluster], threshold: float | None = None, known: bool = True) -> None:
        """``threshold``: what the pairs were listed down to; a pair of members that is not among
        them (in a cluster too large to compare all its pairs) is said to be below it. ``known``:
        these are the collection's clusters (not the empty list of one still being worked out)."""
        shown = self.current_cluster()  # (of the clusters shown until now)
        self.clusters = list(clusters)
        self.threshold = threshold
        self.known = known
        self._fill(shown.representative.doc_id if shown is not None else None)
        self._update_empty()

    def reset(self) -> None:
        self.set_clusters((), known=False)

    def _update_empty(self) -> None:
        empty = self.known and not self.clusters
        self.empty_hint.setVisible(empty)
        self.splitter.setVisible(not empty)
        threshold = percent(self.threshold) if self.threshold is not None else ""
        self.empty_hint.setText(self.tr(
            "No cluster: no two documents of this collection reach the similarity r threshold ({threshold}). "
            "A cluster is a group of near-copies; the Duplicates tab ranks every pair, and Settings (Ctrl+,) "
            "sets the threshold.").format(threshold=threshold))

    def _activated(self, index: QModelIndex) -> None:
        data = index.data(RECORD_ROLE)
        if not data or data[0] != "member":
            return
        cluster = self.clusters[data[1]]
        if data[2] != cluster.representative.doc_id:
            self.member_activated.emit(cluster.representative.doc_id, data[2])

    def _current_changed(self, *_args) -> None:  # noqa: ANN002
        if not self._filling:
            self._show_pairwise()

    def _fill(self, keep: int | None = None) -> None:
        """The tree made again (new clusters, the language), and one matrix shown: of the cluster
        around ``keep`` (the representative of the one shown before) if it still is one, else
        the first ring, else the first cluster with every pair known."""
        first = next((i for i, c in enumerate(self.clusters) if c.representative.doc_id == keep), None)
        if first is None:
            first = next((i for i, c in enumerate(self.clusters) if c.ring),
                         next((i for i, c in enumerate(self.clusters) if c.pairwise), None))
        self._filling = True
        try:
            self._fill_model()
            if first is not None:
                self.view.setCurrentIndex(self.model.index(first, 0))
                self.view.scrollTo(self.model.index(first, 0))
        finally:
            self._filling = False
        self._show_pairwise()

    def _fill_model(self) -> None:
        """The tree of clusters. While it is emptied and filled, the current row moves with every
        row removed or added: each move showed that row's matrix (889 matrices, 5–7 s of the GUI
        thread at every refresh of 10,000 copy-heavy documents); ``_filling`` holds them back.
        Emptied by ``removeRows``: ``clear`` took 1.9 s for 887 clusters of an expanded tree,
        removing their rows at once 0.01 s."""
        model = self.model
        model.removeRows(0, model.rowCount())
        model.setHorizontalHeaderLabels([self.tr("Cluster / document"), self.tr("Similarity r to the representative")])
        for i, cluster in enumerate(self.clusters, 1):
            rep = cluster.representative
            if cluster.ring:
                top = QStandardItem(self.tr("Ring {i}: {n} near-identical documents, every pair at or above "
                                            "{lowest}").format(i=i, n=len(cluster.members),
                                                               lowest=percent(_lowest(cluster))))
                font = top.font()
                font.setBold(True)
                top.setFont(font)
            else:
                top = QStandardItem(self.tr("Cluster {i}: {n} documents, around {name}").format(
                    i=i, n=len(cluster.members), name=rep.rel or rep.path))
            top.setData(("cluster", i - 1), RECORD_ROLE)
            blank = QStandardItem("")
            for member, sim in zip(cluster.members, cluster.similarities or (1.0,) * len(cluster.members)):
                name = QStandardItem(member.rel or member.path)
                name.setToolTip(member.path)
                name.setData(("member", i - 1, member.doc_id), RECORD_ROLE)
                score = QStandardItem(self.tr("representative") if member.doc_id == rep.doc_id else percent(sim))
                score.setData(("member", i - 1, member.doc_id), RECORD_ROLE)
                score.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                top.appendRow([name, score])
            model.appendRow([top, blank])
        self.view.expandAll()

    def current_cluster(self) -> Cluster | None:
        data = self.view.currentIndex().data(RECORD_ROLE)
        return self.clusters[data[1]] if data and data[1] < len(self.clusters) else None

    def _show_pairwise(self) -> None:
        """The selected cluster's similarity of every pair of members."""
        cluster = self.current_cluster()
        table = self.pairwise
        table.clear()
        if cluster is None or not cluster.pairwise:
            table.setRowCount(0)
            table.setColumnCount(0)
            self.pairwise_label.setText(self.tr("Select a cluster of three or more documents to see every pair."))
            return
        n = len(cluster.members)
        names = [m.rel or m.path for m in cluster.members]
        short = [str(k + 1) for k in range(n)]
        table.setRowCount(n)
        table.setColumnCount(n)
        table.setHorizontalHeaderLabels(short)
        table.setVerticalHeaderLabels([f"{k} {name}" for k, name in zip(short, names)])
        # A pair not compared (a cluster of more than RING_MAX_COMPARE documents: only its pairs
        # at or above the threshold are known) is said to be below the threshold, not a number.
        # (It said "<20%", the floor the pairs were once verified down to, though such a pair
        # could be anything below the threshold.)
        below = ("<" + percent(self.threshold)) if self.threshold is not None else "–"
        not_compared = self.tr("below the threshold; not compared: this cluster has more than {n} documents").format(
            n=RING_MAX_COMPARE)
        for x in range(n):
            for y in range(n):
                value = cluster.pairwise[x][y]
                item = QTableWidgetItem("" if x == y else (percent(value) if value is not None else below))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                item.setToolTip(f"{names[x]} ~ {names[y]}" + (f": {not_compared}" if value is None and x != y else ""))
                table.setItem(x, y, item)
        table.resizeColumnsToContents()
        self.pairwise_label.setText(
            self.tr("Ring: every pair of these {n} documents is at or above the threshold").format(n=n)
            if cluster.ring else self.tr("Every pair of this cluster's {n} documents").format(n=n))

    def retranslate_ui(self) -> None:
        self.pairwise.setAccessibleName(self.tr("Similarity of every pair of the selected cluster"))
        self.view.setAccessibleName(self.tr("Clusters"))
        self.view.setToolTip(self.tr("Double-click a member or press Enter to compare it with the representative"))
        shown = self.current_cluster()
        self._fill(shown.representative.doc_id if shown is not None else None)
        self._update_empty()


def _lowest(cluster: Cluster) -> float:
    values = [v for x, row in enumerate(cluster.pairwise) for y, v in enumerate(row) if x != y and v is not None]
    return min(values) if values else 0.0
